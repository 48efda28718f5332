/* wl: shared bits of the test workloads (duration parsing, spinning). */
#ifndef PTOP_WL_H
#define PTOP_WL_H

#include <stdlib.h>
#include <time.h>

static inline double wl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* argv[1]: seconds to run (default 3, 0: until killed). */
static inline double wl_seconds(int argc, char **argv)
{
	return argc > 1 ? atof(argv[1]) : 3.0;
}

static inline int wl_done(double start, double secs)
{
	return secs > 0 && wl_now() - start >= secs;
}

/*
 * Spins for a slice of wall time, adding to sink: a workload's shares are
 * slices of time, which hold whatever the loop's speed (iteration counts
 * drift by several points from run to run with microarchitectural
 * effects).  The clock is read every 16384 iterations: under 1 % of the
 * time.  A macro, so that every function has its own loop and its own
 * samples.
 */
#define WL_SPIN_FOR(us, sink)                                             \
	do {                                                              \
		double end_ = wl_now() + (double)(us) / 1e6;              \
		do {                                                      \
			for (unsigned long i_ = 0; i_ < 16384; i_++)      \
				(sink) += i_ * i_;                        \
		} while (wl_now() < end_);                                \
	} while (0)

#endif
