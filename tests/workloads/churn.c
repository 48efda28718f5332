/* churn: process churn for the soak.  Starts RATE short processes a
 * second (fork, exec of itself, about 0.5 ms of CPU in churn_work, exit),
 * each under one of 8 comms, for SECONDS (0: until killed); reaps them.
 * usage: churn [SECONDS] [RATE] */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wl.h"

volatile unsigned long churn_sink;

__attribute__((noinline)) static void churn_work(unsigned long us)
{
	WL_SPIN_FOR(us, churn_sink);
}

static int child(const char *name)
{
	prctl(PR_SET_NAME, name);
	churn_work(500);
	return 0;
}

int main(int argc, char **argv)
{
	double secs, rate, start, next;
	unsigned long n = 0;

	if (argc > 2 && strcmp(argv[1], "-c") == 0)
		return child(argv[2]);
	secs = wl_seconds(argc, argv);
	rate = argc > 2 ? atof(argv[2]) : 200.0;
	if (rate <= 0)
		rate = 200.0;
	start = next = wl_now();
	/* a rate of processes a second: wall time, not CPU time (wl_done) */
	while (secs <= 0 || wl_now() - start < secs) {
		double now = wl_now();

		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (now < next) {
			struct timespec ts = { 0, (long)((next - now) * 1e9) };

			nanosleep(&ts, NULL);
			continue;
		}
		next += 1.0 / rate;
		if (next < now - 1.0)
			next = now;	/* fell behind: do not burst */
		pid_t pid = fork();

		if (pid == 0) {
			char name[16];
			char *args[] = { argv[0], (char *)"-c", name, NULL };

			snprintf(name, sizeof(name), "churn-%lu", n % 8);
			execv("/proc/self/exe", args);
			_exit(127);
		}
		n++;
	}
	while (wait(NULL) > 0 || errno == EINTR)
		;
	printf("%lu processes\n", n);
	return 0;
}
