/* dbgfetch: debug files and binaries fetched by build-id from debuginfod
 * servers, through elfutils' libdebuginfod loaded with dlopen. */
#ifndef PTOP_DBGFETCH_H
#define PTOP_DBGFETCH_H

#include <signal.h>
#include <stddef.h>

#include "src/core/util.h"

/*
 * Usage:
 *   f = dbgfetch__new(&opts);          NULL: off (no DEBUGINFOD_URLS)
 *   r = dbgfetch__get(f, kind, bid, n, "libfoo.so", until, path, size);
 *       0            path is the file, in the client's cache
 *                    ($XDG_CACHE_HOME/debuginfod_client), checked: ELF
 *                    with that build-id
 *       -EINPROGRESS queued or being fetched (until, a CLOCK_MONOTONIC
 *                    time, passed; 0: no wait)
 *       -ENOENT      no server has it; other -errno: the fetch failed
 *   dbgfetch__done(f) counts the fetches that ended, with a file or not:
 *       a caller that was told -EINPROGRESS asks again once it changed.
 *   dbgfetch__free(f)  aborts the fetch under way (within a second).
 *
 * One worker thread, started by the first request, fetches one file at a
 * time in the order asked; nothing here blocks the caller unless it asks
 * to wait, and then not past its time.  Each (kind, build-id) is fetched
 * once per session; the answer, good or bad, is kept (a few thousand at
 * most).  A fetch is aborted (from libdebuginfod's progress callback, the
 * one hook it gives) when it receives nothing for stall_ms, when more
 * than max_bytes arrive (whatever the headers announced), or when
 * MAX_EMPTY_CALLS turns of the library's loop went by without a byte (a
 * server redirecting to itself: about one request a turn).  A file that
 * is not the one asked for, and what an aborted fetch left in the
 * client's cache (libdebuginfod 0.188 writes an empty "not found" file),
 * are removed from it, so that a later run asks again.  After MAX_FAILS
 * fetches in a row failed for a reason other than "not there" (refused,
 * timed out, garbage), the servers are given up for the session.
 * Messages go to the log: what is being fetched, what arrived, what
 * failed, once each.  Thread-safe.
 */

/* The most a lookup waits for a fetch in all, where a caller waits
 * (batch: a one-table run, a recording read): seconds. */
#define DBGFETCH_WAIT_MAX 10.0
/* The default bound on a fetched file (DEBUGINFOD_MAXSIZE and
 * --debuginfod-maxsize change it). */
#define DBGFETCH_MAX_BYTES (1ull << 30)

enum dbgfetch_kind {
	DBGFETCH_DEBUGINFO,	/* the separate debug file */
	DBGFETCH_EXECUTABLE,	/* the binary itself */
};

struct dbgfetch_opts {
	const char *soname;	/* NULL: libdebuginfod.so.1 (tests) */
	unsigned int stall_ms;	/* 0: $DEBUGINFOD_TIMEOUT s, else 30 s */
	/* 0: $DEBUGINFOD_MAXSIZE bytes, else DBGFETCH_MAX_BYTES */
	unsigned long long max_bytes;
	/* set by a signal handler (SIGINT): fetches stop, waits end with
	 * -EINTR within 100 ms; NULL: none */
	volatile sig_atomic_t *stop;
};

struct dbgfetch;

/* The servers are libdebuginfod's: $DEBUGINFOD_URLS.  NULL with errno
 * ENOENT when it is unset or empty (nothing is ever fetched), ENOMEM.  A missing library is said on first use. */
struct dbgfetch *dbgfetch__new(const struct dbgfetch_opts *opts);
void dbgfetch__free(struct dbgfetch *f);

int dbgfetch__get(struct dbgfetch *f, enum dbgfetch_kind kind,
		  const u8 *build_id, size_t build_id_size, const char *name,
		  double until, char *path, size_t size);

/* A monotonic time seconds from now (for dbgfetch__get's until). */
double dbgfetch__after(double seconds);

/* How many fetches ended, with a file or not (when it changes, a caller
 * told -EINPROGRESS may have its answer). */
u64 dbgfetch__done(struct dbgfetch *f);

/* Requests queued or under way. */
size_t dbgfetch__pending(struct dbgfetch *f);

#endif
