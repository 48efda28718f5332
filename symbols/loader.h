/* loader: worker threads that run file loads off their caller's thread. */
#ifndef PTOP_LOADER_H
#define PTOP_LOADER_H

#include <signal.h>

#include "src/core/util.h"

/*
 * Usage (the caller embeds a job in its own struct):
 *	job->run = load_it;	runs once, on the worker (guarded: a
 *				mapped file truncated meanwhile sets
 *				job->faulted); touches nothing
 *	job->free = free_it;	but the job (no caller state: it may run
 *				after the caller is gone)
 *	loader__submit(l, job);		queued, started in order (urgent
 *					ones first)
 *	loader__wait(l, job, deadline, stop)
 *		0: run is over, the caller owns the job again (takes what
 *		it made, then frees it); -EAGAIN: not yet (the deadline
 *		passed, or *stop was set)
 *	loader__cancel(l, job);		given up: freed now when it is not
 *					running, else by the worker after run
 *	loader__free(l);	cancels what is queued; joins the idle
 *				workers, but leaves those running a job to
 *				end alone (each frees its job, the last one
 *				the loader): a load is never waited for at
 *				exit
 *
 * The workers, as many as given to loader__new, start with the first job
 * (the thread count does not change after it): the files of a profile
 * are read side by side.  Each job touches only itself, so they may run
 * at once, in any order.  When no worker could be started the job runs
 * in loader__submit, on the caller's thread.  Waits are timed
 * slices of at most 10 ms, since a signal does not wake a condition
 * variable: *stop (set by a signal handler) ends one within that.
 */

/* The workers' thread name (ps -L, /proc/PID/task/N/comm). */
#define LOADER_THREAD "ptop-loader"
/* ... while it sleeps in a test's slow load (symbolizer_opts.slow_load) */
#define SLOW_LOAD_THREAD "ptop-slowload"

struct loader_job {
	void (*run)(struct loader_job *job);
	void (*free)(struct loader_job *job);
	bool urgent;	/* runs before the queued jobs that are not */
	/* run was cut short by a fault in a file it had mapped (truncated
	 * meanwhile, see mapguard.h): what it made is in an unknown state,
	 * for free to leave alone */
	bool faulted;
	/* the loader's, under its lock */
	struct loader_job *next;
	int state;
	bool abandoned;
};

struct loader;

/* The most workers a loader runs. */
#define LOADER_MAX_WORKERS 4

/* workers: at most this many jobs at once (1..LOADER_MAX_WORKERS). */
struct loader *loader__new(unsigned int workers);
void loader__free(struct loader *l);

/* 0, or -EINVAL.  Never fails for want of a thread (see above). */
int loader__submit(struct loader *l, struct loader_job *job);

/* deadline: CLOCK_MONOTONIC seconds, 0: none; stop: may be NULL. */
int loader__wait(struct loader *l, struct loader_job *job, double deadline,
		 const volatile sig_atomic_t *stop);
/* Is run over?  Never waits. */
bool loader__done(struct loader *l, struct loader_job *job);

void loader__cancel(struct loader *l, struct loader_job *job);

/* Runs job on the caller's thread, guarded as the workers run theirs
 * (job->faulted): a load no deadline waits for (annotate's data). */
void loader__run_here(struct loader_job *job);

/* Jobs whose run is over so far: grows when a wait would answer 0 for
 * one more job.  Any thread. */
u64 loader__finished(struct loader *l);

#endif
