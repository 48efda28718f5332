/* clock: the clocks ptop reads. */
#include <time.h>

#include "src/sys/clock.h"

static double seconds(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static u64 nanoseconds(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

double clock__now(void)
{
	return seconds(CLOCK_MONOTONIC);
}

u64 clock__now_ns(void)
{
	return nanoseconds(CLOCK_MONOTONIC);
}

double clock__thread_cpu(void)
{
	return seconds(CLOCK_THREAD_CPUTIME_ID);
}

u64 clock__thread_ns(void)
{
	return nanoseconds(CLOCK_THREAD_CPUTIME_ID);
}
