/* latethreads: after a delay, starts a thread running late_worker and
 * forks a child running child_worker, so that an attached profiler must
 * follow threads and children created after it attached.  Each runs
 * SECONDS of its own CPU time (wl.h), so their shares are even under load.
 * usage: latethreads [SECONDS [DELAY]] */
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wl.h"

volatile unsigned long late_sink;
static double secs;

__attribute__((noinline)) void late_worker(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		late_sink += i * 7;
}

__attribute__((noinline)) void child_worker(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		late_sink += i * 5;
}

static void *thread_main(void *arg)
{
	double start = wl_cpu_now();

	(void)arg;
	while (!wl_done(start, secs))
		late_worker(2000000);
	return NULL;
}

int main(int argc, char **argv)
{
	double delay = argc > 2 ? atof(argv[2]) : 1.0, start;
	pthread_t t;
	pid_t child;

	secs = wl_seconds(argc, argv);
	usleep((useconds_t)(delay * 1e6));
	child = fork();
	if (child == 0) {
		start = wl_cpu_now();
		while (!wl_done(start, secs))
			child_worker(2000000);
		_exit(0);
	}
	pthread_create(&t, NULL, thread_main, NULL);
	pthread_join(t, NULL);
	if (child > 0)
		waitpid(child, NULL, 0);
	return 0;
}
