/* tui_internal: the live view's state, shared by the loop (tui.c), the
 * actions (actions.c) and the views; tests build one without a
 * terminal. */
#ifndef PTOP_TUI_INTERNAL_H
#define PTOP_TUI_INTERNAL_H

#include "ui/report/app.h"
#include "ui/report/fmt.h"
#include "ui/report/header.h"
#include "ui/tui/keytypes.h"
#include "ui/tui/listview.h"
#include "ui/tui/logq.h"
#include "ui/tui/prompt.h"
#include "ui/tui/screen.h"
#include "ui/tui/view.h"
#include "ui/report/table.h"

/* The History column's refreshes (buckets of a recording). */
#define TUI_HISTORY 10

struct tui {
	struct app *a;
	struct table table;	/* shared with batch */
	struct sort_spec base;	/* the grouping from -s */
	struct columns cols;
	size_t ev_pos;		/* the shown event among the sampled ones */
	enum hist_mode live_mode;	/* what z goes back to */

	/* the view stack: V_TOP at the bottom */
	unsigned int stack[6];
	size_t depth;
	struct prompt prompt;	/* on top of the view that opened it */

	/* status line */
	struct logq *logq;
	char status[512];	/* unsanitized */
	enum style status_style;
	double status_until;
	unsigned int status_seq;	/* counts tui__status calls */
	unsigned int status_view;	/* the view it is of; 0: any */

	/* refreshes */
	bool have_snap;
	/* names a build left for later (its time budget ran out): the
	 * footer says so and the loop builds again until none is left */
	size_t resolving;
	/* all of them wait for the symbolizer's worker, which had finished
	 * loads_seen loads when the last build began */
	bool resolving_loads;
	u64 loads_seen;
	u64 changes_seen;	/* symbolizer__changes then */
	unsigned int resolve_rounds;	/* builds since the snapshot */
	/* the last build's end and wall time: a build for names waits as
	 * long as the last one took (half the time at most goes to them) */
	double build_end, build_took;
	double build_budget;	/* seconds (PTOP_BUILD_BUDGET_MS: tests) */
	bool final_done;	/* the table after the target ended is in */
	double next_refresh;
	/* the last refresh: when, its window, each event's samples since
	 * the one before (app__refresh) */
	struct app_refresh refresh;
	struct header_info hi;
	char filters[512];	/* unsanitized: a symbol filter is typed */
	bool repaint;		/* Ctrl-L: repaint the whole terminal */
	unsigned int save_seq;
	const char *save_dir;	/* where P writes ("." by default) */

	/* inlined frames (lazy): the table's trees and --inline rows, the
	 * flame graph and the push's profiles share them */
	struct inlines *inlines;
	bool inline_frames;	/* inlined functions are frames (above) */
	struct app_export *export;	/* --pprof, --flamegraph (app.h) */
	void *view_state[16];	/* each view's own (view.h), by V_* bit */

	/* the footer as last drawn, for the mouse: its line and the keys
	 * shown on it (a click on one is that key) */
	size_t footer_y;
	struct key_hit footer_keys[32];
	size_t nr_footer_keys;
};

/* Set-up without a terminal (tests too). */
void tui__init(struct tui *t, struct app *a);
void tui__fini(struct tui *t);

/* The view on top (a V_* bit). */
unsigned int tui__view(const struct tui *t);
void tui__push(struct tui *t, unsigned int view);
void tui__pop(struct tui *t);

/* The view under a prompt or a question: the one drawn. */
unsigned int tui__shown_view(const struct tui *t);
/* The list a view shows, NULL for one that is not a list (the flame
 * graph). */
struct listview *tui__list(struct tui *t, unsigned int view);
/* The status line: a message for a few seconds. */
void tui__status(struct tui *t, enum style st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The session index of the shown event, and how many can be shown. */
size_t tui__nr_shown(const struct tui *t);
size_t tui__session_ev(const struct tui *t, size_t pos);
/* The name of the shown event (unsanitized). */
const char *tui__event_name(const struct tui *t);

/* The row lists of the table from the last snapshot (filters, sort). */
int tui__rebuild(struct tui *t);
/* The sort spec from the base grouping and the chosen order key. */
void tui__set_order(struct tui *t, enum sort_key k, bool invert);
/* The "filters:" text of the header. */
void tui__describe_filters(const struct tui *t, char *buf, size_t len);

/* Dispatches one key through the key table (and the prompt). */
enum act_result tui__key(struct tui *t, int key);
/* Runs view's binding of key, as if it were pressed there (the row
 * menu's items): R_NONE when there is none. */
enum act_result tui__key_in(struct tui *t, int key, unsigned int view);


/* Whether the shown event has call chains (-g, or a file with them), and
 * the status line's word when a key needs them. */
bool tui__has_chains(const struct tui *t);
enum act_result tui__no_chains(struct tui *t);
/* The inlined frames' cache (made on first use; NULL without a
 * symbolizer). */
struct inlines *tui__inlines(struct tui *t);
/* The same when inlined functions are frames of their own (the run's
 * default, app.inline_frames, or with l's rows: t->inline_frames), for
 * trees, the flame graph and pushed profiles; else NULL. */
struct inlines *tui__frame_inlines(struct tui *t);

/* A mouse event to what is under it: a key of the footer, else the view
 * shown (its mouse operation, or tui__list_mouse for its list). */
enum act_result tui__mouse(struct tui *t, const struct mouse_event *ev);
/* The mouse on a view's list: a click selects the row (the view's moved
 * operation follows), the second press of a double click is the key
 * Enter of the view (what a double click does is always a key), the
 * wheel moves three rows.  R_NONE for an event elsewhere. */
enum act_result tui__list_mouse(struct tui *t, struct listview *lv,
				const struct mouse_event *ev);

/* Composes the whole screen: the view shown (its list, or its own
 * drawing), the footer with the status line or the prompt (pure: no
 * terminal). */
void tui__render(struct tui *t, struct screen *s, double now);
/* Colour of a share, like perf. */
enum style tui__share_style(double percent);

#endif
