/* unwind: DWARF unwinding of sampled user stacks (libdw), off the ring path. */
#ifndef PTOP_UNWIND_H
#define PTOP_UNWIND_H

#include "src/core/session.h"
#include "src/core/util.h"

/*
 * --call-graph dwarf: the kernel copies the user registers and the top of
 * the user stack into each sample; the session hands such samples to the
 * unwinder installed with unwind__new (see session_unwinder), which
 * unwinds them with libdw's frame API (CFI from .eh_frame, else
 * .debug_frame) and adds them back through session__add_unwound.
 *
 * Two modes:
 *   live (sync false)  a bounded queue (bytes) and one unwinder thread;
 *                      the ring reader only copies the request into the
 *                      queue and never waits: when the queue is full the
 *                      sample is added at once with the kernel's chain
 *                      and counted (ev_counts.unwind_failed).
 *   file (sync true)   no thread: a request is unwound at once on the
 *                      caller's thread, so nothing is ever dropped (a
 *                      file reader has no deadline).
 * unwind__drain (or session__flush) returns once every request taken so
 * far is in the histograms; call it without the session lock.
 *
 * Caches: one Dwfl per process, kept while the process's maps are
 * unchanged (compared with the session's at each request), modules
 * reported lazily when a frame's pc first falls in them; one opened ELF
 * per dso (dsos are build-id identities), shared by every Dwfl that
 * reports it, so its sections and CFI data are read once whatever the
 * number of processes.  Both caches are bounded.
 *
 * Only x86-64 user stacks (PERF_SAMPLE_REGS_ABI_64) are unwound.
 */

struct dbgfetch;

struct unwind_opts {
	const char *proc;		/* "/proc" */
	const char *const *debug_dirs;	/* --debug-dir (.debug_frame) */
	size_t nr_debug_dirs;
	const char *symfs;		/* --symfs: binaries looked up there first */
	struct dbgfetch *fetch;		/* debuginfod for binaries missing on
					 * disk: tried again until they came */
	bool fetch_wait;		/* ... or waited for (a file read
					 * before the view starts: at most
					 * DBGFETCH_WAIT_MAX in all) */
	size_t queue_bytes;		/* live: 0 = 16 MiB */
	unsigned int max_stack;		/* user frames kept; 0 = 512 */
	size_t max_procs;		/* cached Dwfls; 0 = 64 */
	size_t max_files;		/* open ELF files; 0 = 128 */
	bool sync;			/* file mode: unwind on the caller's
					 * thread */
};

#define UNWIND_TIME_EVERY 8

struct unwind_stats {
	u64 queued;		/* requests taken */
	u64 dropped;		/* refused: queue full */
	u64 unwound;		/* requests unwound (queued - pending) */
	u64 failed;		/* no caller frame found */
	u64 frames;		/* user frames found, in total */
	u64 timed;		/* of them, timed: the first and one in
				 * UNWIND_TIME_EVERY after it */
	u64 ns;			/* the timed ones' time (thread CPU) */
	u64 queue_peak;		/* bytes */
	size_t procs, files;	/* cached now */
	u64 dwfl_new;		/* Dwfls built (first sample of a process
				 * or its maps changed) */
};

struct unwinder;

/* Creates the unwinder and installs it in the session (which must
 * outlive it); NULL with errno set (EOPNOTSUPP on other architectures).
 * Live mode starts its thread. */
struct unwinder *unwind__new(struct session *s, const struct unwind_opts *o);
/* Removes it from the session, unwinds what is queued, stops the thread. */
void unwind__free(struct unwinder *u);
/* Returns once every request taken before the call has been added to
 * the session (without the session lock). */
void unwind__drain(struct unwinder *u);
void unwind__stats(struct unwinder *u, struct unwind_stats *st);

/*
 * Unwinds one request now, on the caller's thread, into pcs (the user pc
 * first, then return addresses); returns how many (0 when the registers
 * are unusable).  The session must be locked by the caller.  This is
 * what the thread does for each request; tests call it directly.  Never
 * with a live unwinder's thread running.
 */
size_t unwind__one(struct unwinder *u, const struct unwind_req *req,
		   u64 *pcs, size_t max);

#endif
