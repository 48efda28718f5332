/* fpwait: a thread that blocks in named functions through libc, for the
 * recovery of frame-pointer chains off CPU (--off-cpu -g).  Each round:
 * nap_part sleeps 20 ms (nanosleep -> clock_nanosleep -> the system
 * call: two libc functions without frames), wait_part blocks reading a
 * pipe that a helper thread writes to 10 ms later (read -> the system
 * call), spin_part runs about 2 ms of CPU.  So the main thread's waits
 * split two thirds to nap_part, one third to wait_part.  The registers
 * of a switch-out are those of the system call's entry: its rbp is
 * main's frame, so the kernel's walk names neither nap_part nor
 * wait_part.  Built like fpwork (gcc -O2 -fno-omit-frame-pointer).
 * argv[1]: rounds (default 50); argv[2]: a FIFO whose opening by a
 * writer starts them (tests: once every sampler is attached, so that all
 * see the same switches: the thread blocks there before they attach, and
 * its return is no wait of theirs). */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "wl.h"

static int cmd[2], data[2];
static volatile unsigned long sink;

static void *helper(void *arg)
{
	struct timespec ts = { 0, 10 * 1000000L };
	char c;

	(void)arg;
	while (read(cmd[0], &c, 1) == 1) {
		nanosleep(&ts, NULL);
		if (write(data[1], "x", 1) != 1)
			break;
	}
	return NULL;
}

__attribute__((noinline)) void nap_part(void)
{
	struct timespec ts = { 0, 20 * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

__attribute__((noinline)) void wait_part(void)
{
	char c;

	if (write(cmd[1], "x", 1) != 1)
		exit(1);
	while (read(data[0], &c, 1) != 1)
		;
}

__attribute__((noinline)) void spin_part(void)
{
	WL_SPIN_FOR(2000, sink);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 50;
	pthread_t t;

	if (pipe(cmd) || pipe(data) || pthread_create(&t, NULL, helper, NULL))
		return 1;
	if (argc > 2) {
		int go = open(argv[2], O_RDONLY);

		if (go < 0)
			return 1;
		close(go);
	}
	for (long r = 0; r < rounds; r++) {
		nap_part();
		wait_part();
		spin_part();
	}
	return 0;
}
