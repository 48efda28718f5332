/* push: profiles sent to a continuous-profiling server (Pyroscope's HTTP
 * ingest API, and what speaks it) every refresh, by a thread of its own
 * through libcurl loaded at run time, behind a bounded queue: sending
 * never blocks sampling or drawing. */
#ifndef PTOP_PUSH_H
#define PTOP_PUSH_H

#include <stdbool.h>
#include <stddef.h>

#include "src/core/session.h"
#include "src/core/util.h"

#define PUSH_MAX_LABELS 16

struct push_opts {
	const char *url;	/* the server: URL/ingest is posted to */
	const char *app;	/* the application name */
	const char *hostname;	/* the hostname label; NULL: none */
	const char *labels[PUSH_MAX_LABELS];	/* "key=value" */
	size_t nr_labels;
	unsigned int queue_max;	/* profiles waiting at most; 0: 8 */
	double timeout;		/* seconds per request; 0: 10 */
	double flush;		/* seconds to send what waits at the end;
				 * 0: 2 */
};

struct push_stats {
	u64 pushed;		/* accepted by the server (2xx) */
	u64 dropped;		/* never sent: queue full, refused, or
				 * still waiting at the end */
	u64 failed;		/* attempts that failed (retried) */
	u64 queued;		/* waiting now, the one being sent too */
	double sending_for;	/* seconds the one being sent has waited
				 * for an answer (0: none under way) */
	bool unreachable;	/* the last attempt failed */
	char error[160];	/* why, when it did */
};

/* Checks a --label ("key=value"): 0, or -EINVAL with the reason appended
 * to why.
 * Keys as Pyroscope takes them: a letter or '_', then letters, digits,
 * '_' or '.', not starting with "__" (reserved); values non-empty,
 * printable, without '{', '}', ',' or '='. */
int push__check_label(const char *kv, struct strbuf *why);

/*
 * The ingest request's query: "name=APP{hostname=H,event=E,k=v,...}
 * &from=S&until=S&format=pprof&sampleRate=R&spyName=ptop", each value
 * percent-encoded (rate 0: no sampleRate).  Pure.
 */
void push__query(struct strbuf *sb, const struct push_opts *o,
		 const char *event, s64 from, s64 until, u64 rate);

/* One window of samples per event: the entries of a snapshot minus
 * those of the previous one (a cumulative histogram becomes what was
 * sampled since the last push).  Pure. */
struct push_window;
struct push_window *push_window__new(void);
void push_window__free(struct push_window *w);
/* out: cur's fields with the window's entries (owned by w, valid until
 * the next call for ev) and totals; cur's chains are shared. */
int push_window__delta(struct push_window *w, size_t ev,
		       const struct snapshot *cur, struct snapshot *out);
/* The same an entry at a time (an output of a pass over the samples):
 * begin for event ev with room for nr entries, then each entry of the
 * snapshot in its order (*d its delta; false when nothing came since),
 * then end (the next window starts from these entries).  begin: 0 or
 * -ENOMEM (nothing more then: the window is lost); end: 0 or -ENOMEM
 * (the window is lost, the next starts from the entries kept). */
int push_window__begin(struct push_window *w, size_t ev, size_t nr);
bool push_window__entry(struct push_window *w, const struct hist_entry *e,
			struct hist_entry *d);
int push_window__end(struct push_window *w);

struct pusher;

/* Loads libcurl and starts the sender; NULL with errno set and the
 * reason appended to err (libcurl missing, a URL that is not http:// or
 * https://, out of memory). */
struct pusher *pusher__new(const struct push_opts *o, struct strbuf *err);
/* Queues one profile (gzip'd profile.proto, taken over: freed by the
 * pusher) of event's samples from..until (Unix seconds); when the queue
 * is full, the oldest waiting profile is dropped (and counted). */
void pusher__queue(struct pusher *p, const char *event, void *body,
		   size_t len, s64 from, s64 until, u64 rate);
void pusher__stats(struct pusher *p, struct push_stats *st);
/* Sends what waits, for opts.flush seconds at most (a request under way
 * is cut then), stops the thread, counts the rest as dropped into *st
 * (if st) and frees p. */
void pusher__free(struct pusher *p, struct push_stats *st);

#endif
