/* sampler: the live source; opens the events, reads the per-CPU rings in
 * its own thread and feeds the session (and an optional record sink). */
#ifndef PTOP_SAMPLER_H
#define PTOP_SAMPLER_H

#include <sys/types.h>

#include "src/core/events.h"
#include "src/sys/evlist.h"
#include "src/core/session.h"

/* Records also go to the sink (the perf.data writer), in the order the
 * session sees them, and after each pass over the rings that read
 * records, a PERF_RECORD_FINISHED_ROUND header (record.h: perf's round
 * marker, which the session never sees).  Called with the session
 * locked.  The sink is the sampler's output, not one of the session's
 * inputs (session_source_ops): the session never calls it; the sampler
 * passes it what the session made of each record (session__output),
 * and with a sink, system-wide, synthesizes every process first, as
 * perf record writes them. */
typedef int (*record_sink_fn)(void *ctx, const struct perf_event_header *h);

struct sampler_opts {
	struct evlist_opts ev;
	const char *proc;	/* default "/proc" */
	record_sink_fn sink;
	void *sink_ctx;
	/* Ring reads happen when the kernel's watermark wakes the reader
	 * or after this many ms, whichever comes first (default 100). */
	int poll_ms;
};

struct sampler;

struct sampler *sampler__new(struct session *s, const struct sampler_opts *o);
void sampler__free(struct sampler *sp);	/* stops and closes */

/* The events to sample (the default cycles when none). */
int sampler__set_events(struct sampler *sp, const struct event_spec *specs,
			size_t nr);

/* Where a spawned command's stdin, stdout and stderr come from: a file
 * descriptor of ptop's (dup2'd in the child), or -1 for ptop's own. */
struct spawn_io {
	int in, out, err;
};

/* For TARGET_COMMAND: forks argv, stopped before exec until
 * sampler__start has opened its events; io may be NULL (ptop's own).
 * Returns the child's pid. */
pid_t sampler__spawn(struct sampler *sp, char *const argv[],
		     const struct spawn_io *io);

/*
 * Opens the events for target, registers them with the session (new
 * events, or new attrs and ids for known ones), synthesizes the existing
 * processes from /proc and starts the reader thread.  For a spawned
 * command, lets it exec.  -errno with why in why (nothing for -ENOMEM);
 * notices (fallbacks, /proc read errors) go to the log.
 */
int sampler__start(struct sampler *sp, const struct target *t,
		   struct strbuf *why);
/* Stops the thread after a last read of the rings, closes the events. */
void sampler__stop(struct sampler *sp);

/* f: the events are disabled, not just the display. */
int sampler__pause(struct sampler *sp, bool paused);
bool sampler__paused(const struct sampler *sp);

/* Live changes (the TUI's p and e keys): stop, reopen, restart.  On
 * failure, -errno with why in why, and the previous configuration is
 * restored when possible (a failure of that is logged). */
int sampler__retarget(struct sampler *sp, const struct target *t,
		      struct strbuf *why);
int sampler__add_event(struct sampler *sp, const struct event_spec *spec,
		       bool replace_current, size_t current,
		       struct strbuf *why);

/* The session's index of the sampler's event i (they differ once events
 * were replaced).  The events shown: those sampled, then --off-cpu's
 * event of waits (made by the session) when there is one. */
size_t sampler__nr_events(const struct sampler *sp);
size_t sampler__session_event(const struct sampler *sp, size_t i);
/* The events opened (without --off-cpu's event of waits). */
size_t sampler__nr_sampled(const struct sampler *sp);

/* For the header: the target, its frequency/period, ring counters. */
const struct target *sampler__target(const struct sampler *sp);
const struct evlist_opts *sampler__evopts(const struct sampler *sp);

/*
 * true while the target lives: always for system-wide; for -p/-t until
 * every pid has exited; for a command until it exits (its exit status
 * goes to *status).  Reaps the spawned child.
 */
bool sampler__target_alive(struct sampler *sp, int *status);

#endif
