/* wl: shared bits of the test workloads (duration, fixed-work spinning). */
#ifndef PTOP_WL_H
#define PTOP_WL_H

#include <stdlib.h>
#include <time.h>

/*
 * The tests compare a profile with the known shares of the workloads'
 * functions, and cpu-clock counts the CPU time of a thread.  So both the
 * slices and the lifetime are CPU time, never wall time: on a loaded
 * machine a thread is preempted for milliseconds, which a wall-time slice
 * charges to whichever function was running, but which costs no CPU time.
 *
 * A slice is a fixed amount of work: WL_SPIN_FOR(us) runs us *
 * WL_ITERS_PER_US iterations of the same loop in every function, so that
 * the shares are the ratios of the iteration counts, whatever the load.
 * (Reading CLOCK_THREAD_CPUTIME_ID is a system call, 0.3 to 3 us here,
 * too dear to read inside a 100 us slice: its time would land in kernel
 * rows.)  The constant makes a slice about `us` microseconds of CPU on
 * the x86-64 machines of CI; elsewhere the slices are longer or shorter,
 * the shares are the same.
 */
#define WL_ITERS_PER_US 2000ul

/* The calling thread's CPU time in seconds. */
static inline double wl_cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wall time, for what really is about wall time (a delay). */
static inline double wl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* argv[1]: CPU seconds to run (default 3, 0: until killed). */
static inline double wl_seconds(int argc, char **argv)
{
	return argc > 1 ? atof(argv[1]) : 3.0;
}

/*
 * Lifetime: true once the calling thread has run secs seconds of CPU
 * since start (a wl_cpu_now() value), so that a test sees the same number
 * of samples whatever the load (it waits longer on a loaded machine).
 * Call it between rounds of a millisecond or more: it is a system call.
 */
static inline int wl_done(double start, double secs)
{
	return secs > 0 && wl_cpu_now() - start >= secs;
}

/*
 * The length of the next round of a workload that repeats a round of
 * calls: unit times a factor from 0.5 to 1.5, pseudo-random from a fixed
 * seed (*state starts at 0), so that N rounds are still a fixed amount of
 * work and each round keeps the ratios of its calls.  A round of fixed
 * length is periodic in CPU time, and so are cpu-clock's samples (every
 * 250 us of the thread's CPU at 4000 Hz): when a round is near a whole
 * number of periods (spin3's 1000 us is 4 of them at the speed
 * WL_ITERS_PER_US is set for, 10 at -c 100000), the samples fall on the
 * same points of every round for as long as the speed holds (a recording
 * of cgwork at load 10 took inner_a, inner_b and lib_work twice, in that
 * order, round after round), and a split of a few thousand samples is
 * set by where those points sit.  Rounds of varying length spread the
 * samples over the round as random instants would.
 */
static inline unsigned long wl_vary(unsigned long *state, unsigned long unit)
{
	*state = *state * 6364136223846793005ul + 1442695040888963407ul;
	return unit / 2 + (unsigned long)(*state >> 33) % (unit + 1);
}

/*
 * Spins for a fixed amount of work, adding to sink.  A macro, so that
 * every function has its own copy of the loop and its own samples.  The
 * loop works in registers (the empty asm keeps the compiler from folding
 * it): a load and store of a volatile sink per iteration made the speed
 * depend on where the loop lay (spin3's spin_b ran a third faster than
 * spin_a); the workloads are also built with -falign-loops=64.
 */
#define WL_SPIN_FOR(us, sink)                                             \
	do {                                                              \
		unsigned long n_ = (unsigned long)(us) * WL_ITERS_PER_US; \
		unsigned long acc_ = 0;                                   \
		for (unsigned long i_ = 0; i_ < n_; i_++) {               \
			acc_ += i_ * i_;                                  \
			__asm__ volatile("" : "+r"(acc_));                \
		}                                                         \
		(sink) += acc_;                                           \
	} while (0)

#endif
