/* offwork: a thread that waits in known places, for --off-cpu.  Each
 * round of the main thread: do_sleep sleeps 200 ms (nanosleep), do_pipe
 * blocks about 100 ms reading a pipe (a helper thread writes after
 * sleeping 100 ms), do_mutex blocks about 100 ms on a mutex (a helper
 * holds it for 100 ms), do_spin runs about 20 ms of CPU.  So the main
 * thread's waits split 50 / 25 / 25 between sleeping, the pipe and the
 * mutex.  argv[1]: rounds (default 6); it prints nothing.  The functions
 * are global and noinline, as cgwork's: the compiler keeps their frame
 * pointers (a static leaf lost its frame, and with it its caller in
 * frame-pointer chains). */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "wl.h"

static int cmd_pipe[2], data_pipe[2], lock_cmd[2], lock_ack[2];
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned long sink;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static void xread(int fd)
{
	char c;

	while (read(fd, &c, 1) != 1)
		;
}

static void xwrite(int fd)
{
	while (write(fd, "x", 1) != 1)
		;
}

/* answers do_pipe: 100 ms later */
static void *helper_pipe(void *arg)
{
	(void)arg;
	for (;;) {
		xread(cmd_pipe[0]);
		sleep_ms(100);
		xwrite(data_pipe[1]);
	}
	return NULL;
}

/* holds the mutex 100 ms for do_mutex */
static void *helper_mutex(void *arg)
{
	(void)arg;
	for (;;) {
		xread(lock_cmd[0]);
		pthread_mutex_lock(&mutex);
		xwrite(lock_ack[1]);
		sleep_ms(100);
		pthread_mutex_unlock(&mutex);
	}
	return NULL;
}

__attribute__((noinline)) void do_sleep(void)
{
	sleep_ms(200);
}

__attribute__((noinline)) void do_pipe(void)
{
	xwrite(cmd_pipe[1]);
	xread(data_pipe[0]);
}

/* A frame of its own between do_mutex and libc: libc's
 * pthread_mutex_lock keeps no frame pointer, so a frame-pointer chain
 * from its __lll_lock_wait goes on from the frame of its caller, and
 * this function is the one it leaves out, not do_mutex. */
__attribute__((noinline)) void take(pthread_mutex_t *m)
{
	pthread_mutex_lock(m);
}

__attribute__((noinline)) void do_mutex(void)
{
	xwrite(lock_cmd[1]);
	xread(lock_ack[0]);	/* the helper holds it now */
	take(&mutex);
	pthread_mutex_unlock(&mutex);
}

__attribute__((noinline)) void do_spin(void)
{
	WL_SPIN_FOR(20000, sink);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 6;
	pthread_t a, b;

	if (pipe(cmd_pipe) || pipe(data_pipe) || pipe(lock_cmd) ||
	    pipe(lock_ack) || pthread_create(&a, NULL, helper_pipe, NULL) ||
	    pthread_create(&b, NULL, helper_mutex, NULL))
		return 1;
	for (int i = 0; i < rounds; i++) {
		do_sleep();
		do_pipe();
		do_mutex();
		do_spin();
	}
	return 0;
}
