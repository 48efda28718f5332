/* cfitab: the CFI of the binaries a session's processes run, read off the
 * ring path, and the session's fixer that recovers the callers
 * frame-pointer chains lose (fpfix). */
#ifndef PTOP_CFITAB_H
#define PTOP_CFITAB_H

#include "src/core/session.h"
#include "src/core/util.h"

/*
 * -g samples carry ip, sp, bp and a small copy of the user stack; the
 * session hands each to the fixer installed by cfitab__new (with the
 * session locked, on the ring reader's thread), which finds the CFI row
 * of each frame's pc: its map in the session's machine, its binary's
 * tables, the row by pc in a direct-mapped cache.  A binary's .eh_frame
 * (else its .debug_frame: Go) is read once, by a worker of its own
 * (live: the first samples in a binary whose CFI is not read yet are
 * counted FP_FIX_UNREADY and keep the kernel's chain), or at once on the
 * caller's thread (sync: a recording, which has no deadline).  Tables are
 * shared by every process (dsos are build-id identities) and bounded in
 * bytes, least recently used first out.
 */
struct cfitab_opts {
	const char *proc;		/* "/proc"; a recording: "/nonexistent" */
	const char *const *debug_dirs;
	size_t nr_debug_dirs;
	const char *symfs;
	bool sync;			/* read files on the caller's thread */
	size_t max_bytes;		/* tables in all; 0: 256 MiB */
	bool timing;			/* the fixer's CPU time in stats */
};

struct cfitab_stats {
	u64 fixes;		/* samples asked about */
	u64 ns;			/* their time (opts.timing), waits out */
	u64 wait_ns;		/* waiting for a binary's first table */
	u64 tables;		/* binaries whose CFI is held */
	u64 bytes;		/* what they hold */
	u64 loads, load_failed;	/* reads of binaries, those without CFI */
	u64 evicted;
	u64 rows, row_hits;	/* row lookups, those the cache answered */
};

struct cfitab;

/* Creates the tables and installs the fixer in s (which must outlive
 * it); NULL with errno set. */
struct cfitab *cfitab__new(struct session *s, const struct cfitab_opts *o);
/* Removes the fixer, waits for the loads under way, frees. */
void cfitab__free(struct cfitab *c);
/* Locked by the caller (the session's lock). */
void cfitab__stats(const struct cfitab *c, struct cfitab_stats *st);

#endif
