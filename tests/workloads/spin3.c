/* spin3: spin_a, spin_b and spin_c take 60, 30 and 10 % of the time.
 * usage: spin3 [SECONDS [THREADS [A,B,C [A2,B2,C2]]]] (0 seconds: until
 * killed); A,B,C: the split in slices of 100 us (default 6,3,1); with
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

static void spin_round(const unsigned long *sp)
{
	spin_a(100 * sp[0]);
	spin_b(100 * sp[1]);
	spin_c(100 * sp[2]);
}

static void *worker(void *arg)
{
	double start = wl_cpu_now();
	unsigned long rounds = 0;

	(void)arg;
	/* the first half by CPU time (secs 0: forever), the second as
	 * many rounds again: both halves are fixed work */
	while (!wl_done(start, secs / 2)) {
		spin_round(split[0]);
		rounds++;
	}
	for (; rounds > 0; rounds--)
		spin_round(split[1]);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 2 ? atoi(argv[2]) : 1;
	pthread_t tid[64];

	secs = wl_seconds(argc, argv);
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
	return 0;
}
