/* app: everything a front end drives (session, live source, symbolizer,
 * view options); built by main, run by batch or the TUI. */
#ifndef PTOP_APP_H
#define PTOP_APP_H

#include <signal.h>
#include <sys/types.h>

#include "symbols/disasm.h"
#include "ui/report/flame.h"
#include "ui/report/header.h"
#include "ui/report/push.h"
#include "src/perfdata/perfdata.h"
#include "ui/report/rowset.h"
#include "src/sys/sampler.h"
#include "src/core/session.h"
#include "symbols/symbolizer.h"
#include "ui/report/table.h"

struct cmdout;

struct app {
	struct session *session;
	struct sampler *sampler;	/* NULL when reading a file */
	struct symbolizer *syms;
	struct cmdout *cmdout;		/* live view: -- COMMAND's output */
	struct sort_spec spec;
	struct row_filter filter;
	enum hist_mode mode;
	double delay;			/* seconds between refreshes */
	long iterations;		/* -n: refreshes before exiting, 0 =
					 * until the end (batch) or q (live) */
	bool json, show_period;
	bool ascii;			/* batch text to a terminal that is
					 * not UTF-8 (to_ascii) */
	bool callgraph;			/* chains are sampled (-g) */
	bool folded;			/* batch: folded stacks */
	const char *pprof;		/* batch: --pprof FILE */
	const char *flamegraph;		/* batch: --flamegraph FILE */
	bool files_written;		/* batch: --pprof and --flamegraph
					 * hold a whole refresh */
	double tree_limit;		/* % of a row under which tree
					 * branches are left out */
	enum cg_order cg_order;		/* of the trees */
	bool inline_rows;		/* --inline: rows of inlined
					 * functions (with children) */
	enum stack_root stack_root;	/* --root: folded stacks' and flame
					 * graphs' first frame */
	bool inline_frames;		/* inlined functions as frames of
					 * trees, folded stacks, flame
					 * graphs, pprof */
	char target_desc[256];
	char note[256];			/* e.g. "process 1234 exited" */
	double start;			/* monotonic seconds */
	bool finished;			/* the target or the file ended */
	int exit_status;		/* of a spawned command */
	volatile sig_atomic_t *stop;	/* set by SIGINT/SIGTERM */
	const char *annotate;		/* batch: --annotate SYMBOL */
	enum disasm_syntax syntax;	/* -M: of the annotations */
	/* perf.data: -i FILE (read before the front end starts; finished
	 * from the start), -i - (a stream read by pipe's thread), -o */
	const char *input;		/* NULL: live profiling */
	const struct perfdata_stats *input_stats;	/* -i FILE */
	struct perfdata_pipe *pipe;
	double recorded;		/* -i: the recording's seconds */
	struct perfdata_writer *writer;
	const char *output;
	char note_buf[512];		/* the header's note, composed */
	/* --push: a profile of each window to a server */
	struct pusher *pusher;
	struct push_window *push_win;
	s64 push_from;			/* wall clock (ns) the window began */
	double push_every;		/* seconds between two pushes */
	struct push_stats push_stats;	/* the header's copy */
	/* --baseline FILE: its table (snapshot taken), which the front end
	 * hands to its own (table__set_baseline) and then owns; NULL:
	 * none */
	struct table *baseline;
	const char *baseline_desc;
	/* the live view: the log queue main installs before the sources
	 * start, so that what they say (the cycles event's fallback, the
	 * settings file ignored) reaches the status line; main replays it
	 * to stderr at the end (ui/tui/logq.h) */
	struct logq *logq;
	int color;			/* 1, 0, -1: NO_COLOR decides */
	bool mouse;			/* the live view takes the mouse */
	const char *config_path;	/* the settings file (F2 saves it) */
	/* the session's history (NULL: none): the live view's, batch's
	 * with --timeline (timeline_secs a cell) */
	struct timeline *timeline;
	double timeline_secs;
	bool history;			/* live: the History column shown */
	size_t budget;			/* live: table.budget */
	const char *time_window;	/* -i: --time as given */
	char time_note[256];		/* the header's line on time */
};

/* --push: the samples of every event since the last call (the whole
 * recording with -i) as one profile each, queued for the server; inl
 * adds inlined frames (NULL: none).  The live view's; batch feeds its
 * windows from the pass of its tables (app.c, app_push_round). */
void app__push(struct app *a, struct table *t, cg_inline_fn inl,
	       void *inl_ctx);
/* The header's words for a target: "all CPUs (8)", "CPUs 0 2", "pid 12
 * (name)", "pids 12,34", "tids ...", "command: ARGS" (command is the
 * argv of a TARGET_COMMAND, else unused). */
void app__describe_target(const struct target *tg, char *const *command,
			  char *buf, size_t len);
/* Fills the header of event ev for a refresh whose window started at
 * window_start with window_samples samples. */
void app__header(struct app *a, const struct table *t, size_t ev,
		 double window, u64 window_samples, struct header_info *hi);
/* Checks the target; true (once) when it just ended: the sampler is
 * stopped after a last read of the rings and a note is set.  A stream
 * (-i -) ends at its end; -o - ends when its reader goes away. */
bool app__check_target(struct app *a);

/* --pprof and --flamegraph: event ev's files from t (rows of ev built),
 * each replaced whole, from one pass over its samples (output.h) that
 * feeds the nr_extra outputs of extra first (batch's --folded and
 * --push; APP_EXPORT_MAX_EXTRA at most): 0, or -ECANCELED when one
 * failed (said when say). */
#define APP_EXPORT_MAX_EXTRA 2
struct output;
int app__export(struct app *a, struct table *t, size_t ev,
		const struct header_info *hi, cg_inline_fn inl, void *inl_ctx,
		bool say, const struct output *extra, size_t nr_extra);

/*
 * The live view's --pprof and --flamegraph: the same files as batch's,
 * from a table of their own (batch's rows: the command line's filters,
 * not the view's zoom or search), rewritten at each refresh:
 *	x = app_export__new(a);	NULL: nothing to write (or no memory)
 *	app_export__write(x);	before the view's snapshot
 *	app_export__free(x);
 * A failure (a full disk) is said once until a write works again; the
 * view goes on.
 */
struct app_export;
struct app_export *app_export__new(struct app *a);
int app_export__write(struct app_export *x);
void app_export__free(struct app_export *x);
/* What a timeline cell is: "0.5 s", "4 refreshes". */
void app__cell_width(const struct app *a, struct strbuf *sb);

/*
 * The refresh step of both front ends (batch's loop, the live view's
 * tui__refresh): the table's snapshot of every event (a->mode zeroes or
 * decays the histograms after it), then each event's samples at this
 * refresh and since the last, and the seconds since the last:
 *	struct app_refresh r;
 *	app_refresh__init(&r, a->start);
 *	err = app__refresh(a, &r, &t, clock__now());
 *	... app_refresh__since(&r, ev), r.window ...
 *	app_refresh__fini(&r);
 * Out of memory: -ENOMEM, and the refresh did not happen (the counts'
 * room is had before the snapshot takes anything); batch ends with the
 * error, the live view says it and tries again at the next refresh.
 */
struct app_refresh {
	struct app_refresh_ev {
		u64 samples;	/* at the last refresh */
		u64 since;	/* between the two before */
	} *evs;
	size_t nr, cap;
	double last;		/* when the last refresh was taken */
	double window;		/* seconds between the last two */
};

void app_refresh__init(struct app_refresh *r, double start);
void app_refresh__fini(struct app_refresh *r);
int app__refresh(struct app *a, struct app_refresh *r, struct table *t,
		 double now);
/* Event ev's samples between the last two refreshes (0 before one). */
u64 app_refresh__since(const struct app_refresh *r, size_t ev);

/* --baseline: t (initialized) takes the baseline table.  0 or -errno. */
int app__take_baseline(struct app *a, struct table *t);

/* The batch front end: returns the process exit status. */
int app__run_batch(struct app *a);

#endif
