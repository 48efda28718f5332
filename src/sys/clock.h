/* clock: the monotonic clock, in seconds, for deadlines, waits and
 * refresh times (the one reader of it that code shares). */
#ifndef PTOP_CLOCK_H
#define PTOP_CLOCK_H

/* CLOCK_MONOTONIC in seconds (a fraction of nanoseconds). */
double clock__now(void);

#endif
