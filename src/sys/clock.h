/* clock: the clocks ptop reads, for deadlines, waits, refresh times and
 * what work costs (the one reader of each that code shares). */
#ifndef PTOP_CLOCK_H
#define PTOP_CLOCK_H

#include "src/core/util.h"

/* CLOCK_MONOTONIC in seconds (a fraction of nanoseconds). */
double clock__now(void);
/* The same in nanoseconds (the vDSO's: cheap enough to time short work
 * with, where a thread's CPU clock is a system call). */
u64 clock__now_ns(void);
/* The CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID), in
 * seconds and in nanoseconds: what a build or an unwind costs. */
double clock__thread_cpu(void);
u64 clock__thread_ns(void);

#endif
