/* spin3: spin_a, spin_b and spin_c take 60, 30 and 10 % of the time.
 * usage: spin3 [SECONDS [THREADS]] (0 seconds: until killed) */
#include <pthread.h>
#include <stdio.h>

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

static void *worker(void *arg)
{
	double start = wl_cpu_now();

	(void)arg;
	while (!wl_done(start, secs)) {
		spin_a(600);
		spin_b(300);
		spin_c(100);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 2 ? atoi(argv[2]) : 1;
	pthread_t tid[64];

	secs = wl_seconds(argc, argv);
	if (threads < 1 || threads > 64)
		threads = 1;
	for (int i = 1; i < threads; i++)
		pthread_create(&tid[i], NULL, worker, NULL);
	worker(NULL);
	for (int i = 1; i < threads; i++)
		pthread_join(tid[i], NULL);
	return 0;
}
