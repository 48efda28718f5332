/* tui_internal: the live view's state, shared by the loop (tui.c), the
 * actions (actions.c) and the views; tests build one without a
 * terminal. */
#ifndef PTOP_TUI_INTERNAL_H
#define PTOP_TUI_INTERNAL_H

#include "app.h"
#include "calltree.h"
#include "fmt.h"
#include "header.h"
#include "keys.h"
#include "listview.h"
#include "logq.h"
#include "prompt.h"
#include "screen.h"
#include "table.h"

/* The help screen: lines generated from the key table. */
struct help_line {
	char *keys;		/* NULL: a section title */
	char *text;
};

struct help {
	struct help_line *lines;
	size_t nr;
};

/* A small menu: the sort picker, the row menu. */
struct menu_item {
	char label[256];	/* sanitized */
	int id;
};

struct menu {
	char title[256];	/* sanitized */
	struct menu_item items[16];
	size_t nr;
	enum act_result (*pick)(struct tui *t, int id);
};

struct evpick;

/* One level Esc undoes: a zoom or a kept symbol filter. */
enum zoom_kind {
	ZOOM_SYM,
	ZOOM_DSO,
	ZOOM_THREAD,
	ZOOM_PROCESS,
};

struct zoom {
	enum zoom_kind kind;
	struct row_filter prev;
	char prev_sym[256];
};

/* What identifies the selected row across refreshes. */
struct row_id {
	const struct dso *dso;
	const char *dso_name;
	const char *sym;
	u64 sym_start, addr;
	const char *comm;
	s32 pid, tid, cpu;
};

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
	struct listview top;	/* the table */
	struct listview list;	/* help, menu or event picker */
	struct help help;
	struct menu menu;
	struct evpick *evpick;
	struct prompt prompt;
	char list_title[256];	/* sanitized */

	struct zoom zooms[8];
	size_t nr_zooms;
	char sym_buf[256];	/* storage of table.filter.sym_substr */
	struct row_id sel;
	bool has_sel;

	/* status line */
	struct logq *logq;
	char status[512];	/* unsanitized */
	enum style status_style;
	double status_until;
	unsigned int status_seq;	/* counts tui__status calls */

	/* refreshes */
	bool have_snap;
	bool final_done;	/* the table after the target ended is in */
	double next_refresh, last_refresh;
	double window;
	u64 window_samples;
	u64 *prev;		/* samples per session event at the last
				 * refresh */
	size_t nr_prev;
	struct header_info hi;
	char filters[512];	/* unsanitized: a symbol filter is typed */
	bool repaint;		/* Ctrl-L: repaint the whole terminal */
	unsigned int save_seq;
	const char *save_dir;	/* where P writes ("." by default) */

	/* call graphs (view_tree.c, view_callers.c) */
	struct calltree ct;	/* trees under the table's rows */
	struct inlines *inlines;	/* inlined frames of trees (lazy) */
	size_t sel_sub;		/* the selected tree line of the selected
				 * row, 0: the row itself */
	struct callers *callers;	/* NULL until first opened */
	struct annview *annview;	/* the annotate view's stack, NULL
					 * until first opened */
};

/* Set-up without a terminal (tests too). */
void tui__init(struct tui *t, struct app *a);
void tui__fini(struct tui *t);

/* The view on top (a V_* bit). */
unsigned int tui__view(const struct tui *t);
void tui__push(struct tui *t, unsigned int view);
void tui__pop(struct tui *t);

/* The selected row of the table, or NULL. */
const struct row *tui__selected_row(const struct tui *t);
/* The same, with the selected line: sub 0 is the row itself, sub > 0 a
 * line of its call tree (*line, if line is given). */
const struct row *tui__selected_line(const struct tui *t, size_t *sub,
				     const struct ct_line **line);
/* Remembers the selected row (and tree line) across refreshes. */
void tui__remember_selection(struct tui *t);
/* The list of a view: the table, the caller/callee view, or the one
 * list help, pickers and menus share. */
struct listview *tui__list(struct tui *t, unsigned int view);
/* The status line: a message for a few seconds. */
void tui__status(struct tui *t, enum style st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The session index of the shown event, and how many can be shown. */
size_t tui__nr_shown(const struct tui *t);
size_t tui__session_ev(const struct tui *t, size_t pos);

/* The row lists of the table from the last snapshot (filters, sort). */
int tui__rebuild(struct tui *t);
/* The sort spec from the base grouping and the chosen order key. */
void tui__set_order(struct tui *t, enum sort_key k, bool invert);
/* The "filters:" text of the header. */
void tui__describe_filters(const struct tui *t, char *buf, size_t len);

/* Dispatches one key through the key table (and the prompt). */
enum act_result tui__key(struct tui *t, int key);
/* A key typed into the prompt (not bound in V_PROMPT). */
enum act_result tui__prompt_input(struct tui *t, int key);

/* Composes the whole screen (pure: no terminal). */
void tui__render(struct tui *t, struct screen *s, double now);

/* Views (view_top.c, view_help.c, view_menu.c, view_events.c). */
extern const struct list_ops top__ops;
extern const struct list_ops help__ops;
extern const struct list_ops menu__ops;
extern const struct list_ops evpick__ops;

/* Colour of a share, like perf. */
enum style top__share_style(double percent);
void help__build(struct help *h);
void help__fini(struct help *h);

struct evpick *evpick__start(const struct evlist_opts *opts);
/* Lets a listing still running finish on its own. */
void evpick__release(struct evpick *ep);
bool evpick__done(struct evpick *ep);
size_t evpick__nr(struct evpick *ep);
/* Copies the name of entry i; false if out of range. */
bool evpick__name(struct evpick *ep, size_t i, char *buf, size_t len);
void evpick__set_title(struct evpick *ep, const char *sanitized);

/* Actions (actions.c): each returns what the loop must do. */
enum act_result action__up(struct tui *t);
enum act_result action__down(struct tui *t);
enum act_result action__page_up(struct tui *t);
enum act_result action__page_down(struct tui *t);
enum act_result action__home(struct tui *t);
enum act_result action__end(struct tui *t);
enum act_result action__quit(struct tui *t);
enum act_result action__back(struct tui *t);
enum act_result action__help(struct tui *t);
enum act_result action__repaint(struct tui *t);
enum act_result action__event_next(struct tui *t);
enum act_result action__event_prev(struct tui *t);
enum act_result action__event_picker(struct tui *t);
enum act_result action__event_add(struct tui *t);
enum act_result action__event_replace(struct tui *t);
enum act_result action__sort_picker(struct tui *t);
enum act_result action__sort_next(struct tui *t);
enum act_result action__sort_prev(struct tui *t);
enum act_result action__sort_invert(struct tui *t);
enum act_result action__filter(struct tui *t);
enum act_result action__list_filter(struct tui *t);
enum act_result action__zoom_dso(struct tui *t);
enum act_result action__zoom_thread(struct tui *t);
enum act_result action__zoom_process(struct tui *t);
enum act_result action__hide_kernel(struct tui *t);
enum act_result action__demangle_params(struct tui *t);
enum act_result action__hide_user(struct tui *t);
enum act_result action__show_idle(struct tui *t);
enum act_result action__percent_limit(struct tui *t);
enum act_result action__target(struct tui *t);
enum act_result action__pause(struct tui *t);
enum act_result action__zero(struct tui *t);
enum act_result action__delay_down(struct tui *t);
enum act_result action__delay_up(struct tui *t);
enum act_result action__row_menu(struct tui *t);
enum act_result action__annotate(struct tui *t);
enum act_result action__save(struct tui *t);
enum act_result action__select(struct tui *t);
enum act_result action__prompt_accept(struct tui *t);
enum act_result action__prompt_cancel(struct tui *t);
enum act_result action__prompt_erase(struct tui *t);
enum act_result action__prompt_kill(struct tui *t);

/* Delay steps of [ and ] (pure, for tests). */
double tui__delay_step(double delay, int dir);

/* Annotates r's function (the table's a, and the caller/callee view's). */
enum act_result tui__annotate(struct tui *t, const struct row *r);

/* Call graphs: trees in the table (view_tree.c). */
bool tui__has_chains(const struct tui *t);
enum act_result tui__no_chains(struct tui *t);
/* The table's lines with the expanded trees (after each table__build). */
int tui__build_trees(struct tui *t);
const char *tui__tree_order_name(const struct tui *t);
enum act_result action__tree_toggle(struct tui *t);
enum act_result action__tree_expand_all(struct tui *t);
enum act_result action__tree_collapse_all(struct tui *t);
enum act_result action__tree_order(struct tui *t);

/* The caller/callee view (view_callers.c). */
struct callers;
extern const struct list_ops callers__ops;
void callers__free(struct callers *c);
/* Its lines from the new rows (after each table__build) when open. */
void callers__update(struct tui *t);
struct listview *callers__list(struct callers *c);
/* Opens it on r's function (identity fields only). */
enum act_result tui__open_callers(struct tui *t, const struct row *r);
enum act_result action__callers(struct tui *t);
enum act_result action__callers_enter(struct tui *t);
enum act_result action__callers_back(struct tui *t);
enum act_result action__callers_close(struct tui *t);
enum act_result action__callers_annotate(struct tui *t);

/* The annotate view (view_annotate.c): a stack of functions, the callee
 * on top; its shares come from the table's snapshot. */
struct annview;
extern const struct list_ops annview__ops;
void annview__free(struct annview *v);
/* After each refresh or rebuild: the shares of the shown event. */
void annview__update(struct tui *t);
struct listview *annview__list(struct annview *v);
enum act_result tui__open_annotate(struct tui *t, const struct row *r);
enum ann_prompt {
	ANN_PROMPT_TYPED,
	ANN_PROMPT_ACCEPT,
	ANN_PROMPT_CANCEL,
};
enum act_result annview__prompt(struct tui *t, const char *text,
				enum ann_prompt ev);
enum act_result action__ann_back(struct tui *t);
enum act_result action__ann_enter(struct tui *t);
enum act_result action__ann_hottest(struct tui *t);
enum act_result action__ann_next_hot(struct tui *t);
enum act_result action__ann_prev_hot(struct tui *t);
enum act_result action__ann_mode(struct tui *t);
enum act_result action__ann_value(struct tui *t);
enum act_result action__ann_bytes(struct tui *t);
enum act_result action__ann_search(struct tui *t);
enum act_result action__ann_search_next(struct tui *t);
enum act_result action__ann_save(struct tui *t);
/* Writes text to a new numbered file (prefix.N, where P writes) and says
 * so, or why not, in the status line: 0 or -errno. */
int tui__save(struct tui *t, const char *prefix, const char *what,
	      const char *text, size_t len);

#endif
