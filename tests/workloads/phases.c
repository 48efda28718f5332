/* phases: phase_a, then phase_b, each a fixed amount of work, so that
 * the moment the CPU moves from one function to the other is known in
 * work done, not wall time.
 * usage: phases [A_MS [B_MS [MARK_FILE]]]: A_MS slices of about 1 ms of
 * CPU in phase_a, then B_MS in phase_b (default 1500 each); with
 * MARK_FILE, "b" is written there when phase_b begins (a test may wait
 * for it); PHASES_TIMES=FILE: each phase's CPU time (ms) written there
 * at the end. */
#include <stdio.h>
#include <stdlib.h>

#include "wl.h"

volatile unsigned long phases_sink;

__attribute__((noinline)) void phase_a(unsigned long us)
{
	WL_SPIN_FOR(us, phases_sink);
}

__attribute__((noinline)) void phase_b(unsigned long us)
{
	WL_SPIN_FOR(us, phases_sink);
}

int main(int argc, char **argv)
{
	unsigned long a = argc > 1 ? strtoul(argv[1], NULL, 10) : 1500;
	unsigned long b = argc > 2 ? strtoul(argv[2], NULL, 10) : 1500;
	const char *mark = argc > 3 ? argv[3] : NULL;
	const char *times = getenv("PHASES_TIMES");
	double t0 = wl_cpu_now(), t1, t2;

	for (unsigned long i = 0; i < a; i++)
		phase_a(1000);
	t1 = wl_cpu_now();
	if (mark) {
		FILE *f = fopen(mark, "w");

		if (f) {
			fputs("b\n", f);
			fclose(f);
		}
	}
	for (unsigned long i = 0; i < b; i++)
		phase_b(1000);
	t2 = wl_cpu_now();
	/* PHASES_TIMES=FILE: the CPU time each phase took (ms), so that a
	 * test compares shares with the time the work took here (the same
	 * work takes more of it beside a busy sibling CPU) */
	if (times) {
		FILE *f = fopen(times, "w");

		if (f) {
			fprintf(f, "%.3f %.3f\n", (t1 - t0) * 1e3, (t2 - t1) * 1e3);
			fclose(f);
		}
	}
	return 0;
}
