/* spin3: spin_a, spin_b and spin_c take 60, 30 and 10 % of the time.
 * usage: spin3 [SECONDS [THREADS [A,B,C [A2,B2,C2]]]] (0 seconds: until
 * killed); A,B,C: the split in slices of about 100 us (their length
 * varies from round to round, wl_vary; default 6,3,1); with
 * A2,B2,C2 the second half of the CPU seconds runs that split instead. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "wl.h"

volatile unsigned long spin3_sink;

__attribute__((noinline)) void spin_a(unsigned long us)
{
	WL_SPIN_FOR(us, spin3_sink);
}

__attribute__((noinline)) void spin_b(unsigned long us)
{
	WL_SPIN_FOR(us, spin3_sink);
}

__attribute__((noinline)) void spin_c(unsigned long us)
{
	WL_SPIN_FOR(us, spin3_sink);
}

static double secs;
static unsigned long split[2][3] = { { 6, 3, 1 }, { 6, 3, 1 } };

static void parse_split(const char *s, unsigned long *sp)
{
	if (sscanf(s, "%lu,%lu,%lu", &sp[0], &sp[1], &sp[2]) != 3) {
		fprintf(stderr, "spin3: a split is A,B,C\n");
		exit(2);
	}
}

static void spin_round(const unsigned long *sp, unsigned long us)
{
	spin_a(us * sp[0]);
	spin_b(us * sp[1]);
	spin_c(us * sp[2]);
}

/*
 * SPIN3_TIMES=FILE: the CPU time of each function, measured around each
 * call (CLOCK_THREAD_CPUTIME_ID, every thread), written at the end as
 * "A B C" in ns: the split a profiler's cpu-clock shares must match on
 * this machine, even where the fixed work's split bends (a hypervisor
 * that takes the CPU away unseen leaves its time in the guest's clocks,
 * to whatever function ran).  The clock is read between the calls.
 */
static const char *times_path;
static double times[3];
static pthread_mutex_t times_lock = PTHREAD_MUTEX_INITIALIZER;

static void timed_round(const unsigned long *sp, unsigned long us, double *t)
{
	double t0 = wl_cpu_now(), t1, t2, t3;

	spin_a(us * sp[0]);
	t1 = wl_cpu_now();
	spin_b(us * sp[1]);
	t2 = wl_cpu_now();
	spin_c(us * sp[2]);
	t3 = wl_cpu_now();
	t[0] += t1 - t0;
	t[1] += t2 - t1;
	t[2] += t3 - t2;
}

/* a round of slices of about 100 us (wl_vary) */
static void round_of(const unsigned long *sp, unsigned long *seed, double *t)
{
	unsigned long us = wl_vary(seed, 100);

	if (times_path)
		timed_round(sp, us, t);
	else
		spin_round(sp, us);
}

static void *worker(void *arg)
{
	double start = wl_cpu_now(), t[3] = { 0 };
	unsigned long rounds = 0, seed = 0;

	(void)arg;
	/* the first half by CPU time (secs 0: forever), the second as
	 * many rounds again, of the same lengths: both halves are the same
	 * fixed work */
	while (!wl_done(start, secs / 2)) {
		round_of(split[0], &seed, t);
		rounds++;
	}
	for (seed = 0; rounds > 0; rounds--)
		round_of(split[1], &seed, t);
	pthread_mutex_lock(&times_lock);
	for (int i = 0; i < 3; i++)
		times[i] += t[i];
	pthread_mutex_unlock(&times_lock);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 2 ? atoi(argv[2]) : 1;
	pthread_t tid[64];

	secs = wl_seconds(argc, argv);
	times_path = getenv("SPIN3_TIMES");
	if (argc > 3) {
		parse_split(argv[3], split[0]);
		parse_split(argc > 4 ? argv[4] : argv[3], split[1]);
	}
	if (threads < 1 || threads > 64)
		threads = 1;
	for (int i = 1; i < threads; i++)
		pthread_create(&tid[i], NULL, worker, NULL);
	worker(NULL);
	for (int i = 1; i < threads; i++)
		pthread_join(tid[i], NULL);
	if (times_path) {
		FILE *f = fopen(times_path, "w");

		if (!f || fprintf(f, "%.0f %.0f %.0f\n", times[0] * 1e9,
				  times[1] * 1e9, times[2] * 1e9) < 0 ||
		    fclose(f)) {
			perror("spin3: SPIN3_TIMES");
			return 1;
		}
	}
	return 0;
}
