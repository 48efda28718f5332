/* app_internal: what the app module's two files share (rule 5 of
 * tests/layering.sh split it): app.c (the refresh step, batch's loop)
 * and app_export.c (the outputs of the pass over an event's samples that
 * an app drives (output.h): --pprof's and --flamegraph's files, batch's
 * and the live view's, app_export, and --push's windows).  app.h has the
 * front ends' calls. */
#ifndef PTOP_APP_INTERNAL_H
#define PTOP_APP_INTERNAL_H

#include "ui/report/app.h"
#include "ui/report/output.h"
#include "ui/report/pprof.h"

/* Event ev is a recording's dummy event (perf's tracking event). */
bool app__dummy(struct app *a, size_t ev);
/* A table's cancel hook (ctx: the app): a stop request (SIGTERM, Ctrl-C)
 * ends the names' lookups. */
bool app__cancel(void *ctx);

/* --push at a refresh: one window per event, each an output of a pass
 * over the event's samples (the tables' pass in batch, a pass of its
 * own else), queued together at the end of the round: batch's JSON says
 * what was pushed before this refresh's tables. */
struct app_push_round {
	struct app *a;
	struct table *t;
	bool due;		/* a push this refresh */
	s64 end, from;		/* wall clock (ns): the windows' span */
	size_t nr;
	struct app_push_ev {
		bool fed;	/* a pass had its samples */
		void *gz;	/* the profile (NULL: none) */
		size_t len;
		const char *event;
		s64 from;
		u64 rate;
	} *evs;
};

/* --push: one event's window, an output of a pass over its samples
 * (output.h); the profile waits in the round until its end. */
struct app_push_out {
	struct app *a;
	struct app_push_round *r;
	size_t ev;
	const struct header_info *hi;
	cg_inline_fn inl;
	void *inl_ctx;
	bool delta;		/* a cumulative histogram: the window is
				 * what came since the last push */
	bool no_profile;	/* no memory for its encoding */
	u64 samples;		/* of the window */
	struct pprof_opts po;
	struct pprof *pp;
	struct strbuf sb;
};

/*
 * A refresh's push: begin (is one due?), each event's window as an
 * output of the pass of its table (app__push_output: false when none is
 * due, or the pass does not read the push's snapshot), end (the events
 * no pass fed get one of their own; the profiles are queued, or dropped
 * when queue is false: the run ends).
 */
void app__push_begin(struct app *a, struct table *t,
		     struct app_push_round *r);
bool app__push_output(struct app_push_round *r, struct app_push_out *x,
		      size_t ev, const struct header_info *hi,
		      cg_inline_fn inl, void *inl_ctx, struct output *out);
void app__push_end(struct app_push_round *r, bool queue, cg_inline_fn inl,
		   void *inl_ctx);

#endif
