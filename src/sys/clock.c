/* clock: the monotonic clock, in seconds. */
#include <time.h>

#include "src/sys/clock.h"

double clock__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
