/* offwork: a thread that waits in known places, for --off-cpu.  Each
 * round of the main thread: do_sleep sleeps 200 ms (nanosleep), do_pipe
 * blocks about 100 ms reading a pipe (a helper thread writes after
 * sleeping 100 ms), do_mutex blocks about 100 ms on a mutex (a helper
 * holds it for 100 ms), do_spin runs about 20 ms of CPU.  So the main
 * thread's waits split 50 / 25 / 25 between sleeping, the pipe and the
 * mutex.  argv[1]: rounds (default 6); it prints nothing.
 * OFFWORK_TIMES=FILE: after each round, the wall time each of do_sleep,
 * do_pipe and do_mutex took so far ("SLEEP PIPE MUTEX ROUNDS", ms),
 * replaced whole: what an off-CPU profile of the main thread must show
 * on this machine, whose wake-ups come late under load (a 200 ms sleep
 * took 261 at a load of 15), beside the nominal 200 / 100 / 100.
 * OFFWORK_GO=FIFO: the rounds begin once a line is read there (a script
 * lets them begin when a profiler has seen the process start).  The
 * functions
 * are global and noinline, as cgwork's: the compiler keeps their frame
 * pointers (a static leaf lost its frame, and with it its caller in
 * frame-pointer chains). */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
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

/*
 * OFFWORK_TIMES: the totals so far, written by a thread of their own, so
 * that the main thread's profile holds only its rounds (writing a file
 * blocks now and then: 1.5 % of main's waits when main wrote it).  Main
 * publishes a round as a seqlock does: the totals, then the count
 * (release), then a byte down a pipe, which wakes the writer and never
 * blocks main; the writer copies the totals between two reads of the
 * count (acquire) that agree.  Each file is new, renamed over the last,
 * so that a reader never sees half of one.
 */
static double pub_ms[3];
static int pub_rounds, written_rounds, times_pipe[2];

static void publish(double *ms, int rounds)
{
	for (int i = 0; i < 3; i++)
		__atomic_store(&pub_ms[i], &ms[i], __ATOMIC_RELAXED);
	__atomic_store_n(&pub_rounds, rounds, __ATOMIC_RELEASE);
	xwrite(times_pipe[1]);
}

static void *times_writer(void *arg)
{
	const char *path = arg;
	char tmp[4096];
	double ms[3];
	int n;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	for (;;) {
		xread(times_pipe[0]);
		do {
			n = __atomic_load_n(&pub_rounds, __ATOMIC_ACQUIRE);
			for (int i = 0; i < 3; i++)
				__atomic_load(&pub_ms[i], &ms[i], __ATOMIC_RELAXED);
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
		} while (n != __atomic_load_n(&pub_rounds, __ATOMIC_RELAXED));
		f = fopen(tmp, "w");
		if (f) {
			fprintf(f, "%.3f %.3f %.3f %d\n", ms[0], ms[1], ms[2], n);
			if (fclose(f) == 0)
				rename(tmp, path);
		}
		__atomic_store_n(&written_rounds, n, __ATOMIC_RELEASE);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 6;
	char *times = getenv("OFFWORK_TIMES");
	double ms[3] = { 0 }, t0, t1, t2, t3;
	pthread_t a, b, w;

	if (pipe(cmd_pipe) || pipe(data_pipe) || pipe(lock_cmd) ||
	    pipe(lock_ack) || pthread_create(&a, NULL, helper_pipe, NULL) ||
	    pthread_create(&b, NULL, helper_mutex, NULL) ||
	    (times && (pipe(times_pipe) ||
		       pthread_create(&w, NULL, times_writer, times))))
		return 1;
	if (getenv("OFFWORK_GO")) {
		FILE *go = fopen(getenv("OFFWORK_GO"), "r");
		char line[16];

		if (!go || !fgets(line, sizeof(line), go))
			return 1;
		fclose(go);
	}
	for (int i = 0; i < rounds; i++) {
		t0 = wl_now();
		do_sleep();
		t1 = wl_now();
		do_pipe();
		t2 = wl_now();
		do_mutex();
		t3 = wl_now();
		do_spin();
		ms[0] += (t1 - t0) * 1e3;
		ms[1] += (t2 - t1) * 1e3;
		ms[2] += (t3 - t2) * 1e3;
		if (times)
			publish(ms, i + 1);
	}
	/* the last round's file before the exit; yielding is no wait */
	while (times && __atomic_load_n(&written_rounds, __ATOMIC_ACQUIRE) < rounds)
		sched_yield();
	return 0;
}
