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

#endif
