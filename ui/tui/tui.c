/* tui: the live view's loop: refreshes on time (-n of them at most),
 * keys through the key table, one redraw per refresh, key or resize; the
 * terminal is restored on every exit path. */
#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/sys/clock.h"
#include "src/sys/cmdout.h"
#include "ui/report/inlines.h"
#include "ui/report/sanitize.h"
#include "ui/tui/mouse.h"
#include "ui/tui/oom.h"
#include "ui/tui/tty.h"
#include "ui/tui/tui.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/actions.h"
#include "ui/tui/keys.h"

/* The first table comes quickly, the next ones every -d seconds. */
#define FIRST_REFRESH 0.25
/* The loop wakes at least this often (target end, log, SIGINT). */
#define MAX_WAIT_MS 200
#define STATUS_SECS 5.0
/* The time a build may spend loading names before the loop reads keys
 * again; the rest come in the next builds, at most this many per
 * snapshot (then at the next refresh). */
#define BUILD_BUDGET 0.1
#define MAX_RESOLVE_ROUNDS 300
/* While the names left wait only for the symbolizer's worker, the loop
 * looks this often whether it finished a load (then builds again). */
#define LOAD_POLL_MS 20

/* Keys read during a build, for the loop (in order), with the mouse
 * events of the K_MOUSE among them. */
static int pending[64];
static struct mouse_event pending_mouse[64];
static size_t nr_pending, pending_pos;
/* the event of the last K_MOUSE tui__next_key returned */
static struct mouse_event cur_mouse;

static int tui__next_key(int timeout_ms)
{
	int k;

	if (pending_pos < nr_pending) {
		cur_mouse = pending_mouse[pending_pos];
		k = pending[pending_pos++];
		if (pending_pos == nr_pending)
			pending_pos = nr_pending = 0;
		return k;
	}
	k = tty__getkey(timeout_ms);
	if (k == K_MOUSE)
		tty__mouse(&cur_mouse);
	return k;
}

/* q, F10, Esc, the terminal gone */
static bool tui__leaves(int k)
{
	return k == 'q' || k == K_F(10) || k == K_ESC || k == K_HANGUP;
}

/* Between two name lookups of a build: a stop request, or a key that
 * leaves (q, F10, Esc, the terminal gone), ends the build with what is
 * known so that the loop answers first.  Other keys are kept for the
 * loop, which reads them on the finished rows.  A leaving key an earlier
 * build kept, not yet read by the loop, cuts this one too (a refresh
 * that came before the loop read it built a whole table: 0.3 s of CPU
 * between q and the exit on a big tree). */
static bool tui__cancel(void *ctx)
{
	struct tui *t = ctx;

	if (*t->a->stop)
		return true;
	for (size_t i = pending_pos; i < nr_pending; i++)
		if (tui__leaves(pending[i]))
			return true;
	while (nr_pending < ARRAY_SIZE(pending) && tty__key_waiting()) {
		int k = tty__getkey(0);

		if (k == K_NONE)
			break;
		if (k == K_MOUSE)
			tty__mouse(&pending_mouse[nr_pending]);
		pending[nr_pending++] = k;
		if (tui__leaves(k))
			return true;
	}
	return false;
}

void tui__init(struct tui *t, struct app *a)
{
	memset(t, 0, sizeof(*t));
	t->a = a;
	t->inline_frames = a->inline_frames;
	t->base = a->spec;
	t->live_mode = a->mode == HIST_ZERO ? HIST_CUMULATIVE : a->mode;
	table__init(&t->table, a->session, a->syms, &a->spec);
	t->table.cancel = tui__cancel;
	t->table.cancel_ctx = t;
	t->build_budget = BUILD_BUDGET;
	/* tests make every build stop after its first load */
	if (getenv("PTOP_BUILD_BUDGET_MS"))
		t->build_budget = atof(getenv("PTOP_BUILD_BUDGET_MS")) / 1000;
	t->table.filter = a->filter;
	if (a->filter.sym_substr)
		snprintf(t->table.filter_buf, sizeof(t->table.filter_buf), "%s",
			 a->filter.sym_substr);
	t->table.filter.sym_substr =
		t->table.filter_buf[0] ? t->table.filter_buf : NULL;
	/* the History column: each row's share over the last refreshes, or
	 * over a recording (its cells in as many buckets) */
	t->table.tl = a->timeline;
	t->table.budget = a->budget;
	t->table.keep_addrs = a->pusher != NULL;
	t->table.history = a->timeline && a->history ? TUI_HISTORY : 0;
	t->table.history_spread = a->input && !a->pipe;
	/* --baseline FILE */
	if (app__take_baseline(a, &t->table))
		pr_err("out of memory: no baseline");
	columns__init(&t->cols, &t->table.spec, a->show_period);
	t->stack[0] = V_TOP;
	t->depth = 1;
	t->next_refresh = a->start + MIN(FIRST_REFRESH, a->delay);
	app_refresh__init(&t->refresh, a->start);
	for (size_t i = 0; i < views__nr; i++)
		if (views__table[i]->init)
			views__table[i]->init(t);
	t->export = app_export__new(a);
	if ((a->pprof || a->flamegraph) && !t->export)
		oom__die();
}

void tui__fini(struct tui *t)
{
	for (size_t i = 0; i < views__nr; i++)
		if (views__table[i]->free)
			views__table[i]->free(t);
	inlines__free(t->inlines);
	/* the last refresh's files stay */
	app_export__free(t->export);
	table__fini(&t->table);
	app_refresh__fini(&t->refresh);
	memset(t, 0, sizeof(*t));
}

unsigned int tui__view(const struct tui *t)
{
	return t->depth ? t->stack[t->depth - 1] : V_TOP;
}

void tui__push(struct tui *t, unsigned int view)
{
	if (t->depth < ARRAY_SIZE(t->stack))
		t->stack[t->depth++] = view;
}

void tui__pop(struct tui *t)
{
	if (t->depth > 1)
		t->depth--;
}

unsigned int tui__shown_view(const struct tui *t)
{
	for (size_t d = t->depth; d-- > 0;)
		if (t->stack[d] != V_PROMPT)
			return t->stack[d];
	return V_TOP;
}

static size_t state_slot(unsigned int view)
{
	size_t i = view ? (size_t)__builtin_ctz(view) : 0;

	/* no view has that bit: V_TOP's slot */
	return i < ARRAY_SIZE(((struct tui *)NULL)->view_state) ? i : 0;
}

void **tui__state(struct tui *t, unsigned int view)
{
	return &t->view_state[state_slot(view)];
}

void *tui__state_of(const struct tui *t, unsigned int view)
{
	return t->view_state[state_slot(view)];
}

void *tui__state_new(struct tui *t, unsigned int view, size_t size)
{
	void **slot = tui__state(t, view);

	if (!*slot) {
		*slot = calloc(1, size);
		if (!*slot)
			oom__die();
	}
	return *slot;
}

const struct view_ops *views__find(unsigned int view)
{
	for (size_t i = 0; i < views__nr; i++)
		if (views__table[i]->view == view)
			return views__table[i];
	return NULL;
}

struct listview *tui__list(struct tui *t, unsigned int view)
{
	const struct view_ops *v = views__find(view);

	return v && v->list ? v->list(t) : NULL;
}

enum act_result tui__open_view(struct tui *t, unsigned int view,
			       const void *arg)
{
	const struct view_ops *v = views__find(view);

	return v && v->open ? v->open(t, arg) : R_NONE;
}

void tui__status(struct tui *t, enum style st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->status, sizeof(t->status), fmt, ap);
	va_end(ap);
	t->status_style = st;
	t->status_seq++;
	t->status_view = tui__view(t);
	t->status_until = clock__now() + (st == ST_ERROR ? 2 : 1) * STATUS_SECS;
}

size_t tui__nr_shown(const struct tui *t)
{
	if (t->a->sampler && sampler__nr_events(t->a->sampler))
		return sampler__nr_events(t->a->sampler);
	return session__nr_events(t->a->session);
}

size_t tui__session_ev(const struct tui *t, size_t pos)
{
	if (t->a->sampler && sampler__nr_events(t->a->sampler))
		return sampler__session_event(t->a->sampler, pos);
	return pos;
}

const char *tui__event_name(const struct tui *t)
{
	return session__event_name(t->a->session,
				   tui__session_ev(t, t->ev_pos));
}

bool tui__has_chains(const struct tui *t)
{
	const struct snapshot *snap;

	if (t->a->callgraph)
		return true;
	/* a file may hold chains without -g */
	snap = t->have_snap ? table__snap(&t->table, t->table.ev) : NULL;
	return snap && snap->nr_chains > 1;
}

enum act_result tui__no_chains(struct tui *t)
{
	tui__status(t, ST_ERROR,
		    "no call chains were sampled: start ptop with -g "
		    "(or --call-graph dwarf)");
	return R_REDRAW;
}

struct inlines *tui__inlines(struct tui *t)
{
	if (!t->inlines && t->a->syms) {
		t->inlines = inlines__new(t->a->syms);
		inlines__set_cancel(t->inlines, table__cancel_hook,
				    &t->table);
	}
	return t->inlines;
}

struct inlines *tui__frame_inlines(struct tui *t)
{
	return t->inline_frames ? tui__inlines(t) : NULL;
}

void tui__set_order(struct tui *t, enum sort_key k, bool invert)
{
	struct sort_spec spec = t->base;

	/* the order never regroups (top__set_order checks that a
	 * column it names is grouped) */
	spec.order = k;
	spec.invert = invert;
	spec.compare = t->table.spec.compare;
	t->table.spec = spec;
	columns__init(&t->cols, &spec, t->a->show_period);
}

/* -vv: where a live view's memory is, after each build: the heap in
 * use (every arena), and of it the histograms and chains, their
 * snapshots, the rows and their memo, the symbolizer's answers and
 * DWARF (the rest: libdw's and libelf's, the unwinder's, the views'). */
static void tui__log_memory(struct tui *t)
{
	struct mallinfo2 mi = mallinfo2();
	struct symbolizer_stats st;
	size_t snaps = 0, live;

	/* the session's under its lock: the sampler adds to it */
	session__lock(t->a->session);
	live = session__bytes(t->a->session);
	session__unlock(t->a->session);
	for (size_t i = 0; i < t->table.nr_snaps; i++)
		snaps += snapshot__bytes(&t->table.snaps[i]);
	symbolizer__stats(t->a->syms, &st);
	pr_debug("memory: heap %.1f MB in use; histograms and chains %.1f, "
		 "snapshots %.1f, timeline %.1f (%zu cells), rows and memo %.1f, "
		 "answers %.1f, DWARF %.1f (%zu entries, %zu chain nodes)",
		 (double)(mi.uordblks + mi.hblkhd) / 1e6,
		 (double)live / 1e6,
		 (double)snaps / 1e6,
		 t->table.tl ? (double)timeline__bytes(t->table.tl) / 1e6 : 0.0,
		 t->table.tl ? timeline__nr_cells(t->table.tl) : 0,
		 (double)rowset__bytes(&t->table.rows) / 1e6,
		 (double)st.resolved_bytes / 1e6, (double)st.dwarf_bytes / 1e6,
		 t->table.rows.snap ? t->table.rows.snap->nr : 0,
		 t->table.rows.snap ? t->table.rows.snap->nr_chains : 0);
}

int tui__rebuild(struct tui *t)
{
	size_t n = tui__nr_shown(t), ev, left;
	double cpu0 = clock__thread_cpu(), start = clock__now();
	int err;

	if (!t->have_snap)
		return 0;
	if (t->ev_pos >= n)
		t->ev_pos = 0;
	ev = tui__session_ev(t, t->ev_pos);
	if (ev >= t->table.nr_snaps)
		ev = 0;
	/* --off-cpu's event: a Time column */
	columns__timed(&t->cols, session__event_is_time(t->a->session, ev));
	/* keys are read between two builds: names that would take longer
	 * come in the next ones */
	t->loads_seen = symbolizer__loads(t->a->syms);
	t->changes_seen = symbolizer__changes(t->a->syms);
	symbolizer__set_deadline(t->a->syms, clock__now() + t->build_budget);
	err = table__build(&t->table, ev);
	/* as many buckets as the history has (a recording's may have
	 * fewer cells than the column's width) */
	columns__history(&t->cols, !t->table.history ? 0 :
				   t->table.rows.series ?
				   t->table.rows.series->nr_buckets :
				   t->table.history);
	if (!err) {
		/* the table's trees */
		for (size_t i = 0; !err && i < views__nr; i++)
			if (views__table[i]->rebuild)
				err = views__table[i]->rebuild(t);
	} else if (err == -ECANCELED) {
		err = 0;	/* no rows: the loop builds again */
	}
	/* (the tests see that a stop came during a build) */
	if (t->table.cancelled)
		pr_debug("build: cut short by a key or a stop request");
	/* (the views' own updates, annotate's counts, wait for nothing) */
	left = symbolizer__deferred(t->a->syms);
	if (!t->table.cancelled)
		pr_debug("build: %.1f ms of CPU (%zu rows, %zu chain nodes, "
			 "%zu names left)", (clock__thread_cpu() - cpu0) * 1000,
			 t->table.rows.nr,
			 t->table.rows.snap ? t->table.rows.snap->nr_chains : 0,
			 left);
	if (!t->table.cancelled && log__enabled(LOG_DEBUG))
		tui__log_memory(t);
	if (left && !t->resolving && !t->resolve_rounds)
		pr_debug("names: %zu left for the next builds (a build's "
			 "budget is %.0f ms)", left, t->build_budget * 1000);
	else if (!left && t->resolving)
		pr_debug("names: all resolved after %u builds",
			 t->resolve_rounds + 1);
	t->resolving = left;
	t->resolving_loads =
		left && left == symbolizer__deferred_loading(t->a->syms);
	symbolizer__set_deadline(t->a->syms, 0);
	for (size_t i = 0; i < views__nr; i++) {
		int e = views__table[i]->update ? views__table[i]->update(t) : 0;

		if (e)
			err = e;
	}
	t->build_end = clock__now();
	t->build_took = t->build_end - start;
	return err;
}

void tui__describe_filters(const struct tui *t, char *buf, size_t len)
{
	const struct row_filter *f = &t->table.filter;
	size_t off = 0;

#define ADD(...)                                                             \
	do {                                                                 \
		if (off < len)                                               \
			off += (size_t)snprintf(buf + off, len - off,        \
						off ? ", " : "");            \
		if (off < len)                                               \
			off += (size_t)snprintf(buf + off, len - off,        \
						__VA_ARGS__);                \
	} while (0)

	buf[0] = '\0';
	if (f->sym_substr)
		ADD("symbol ~ '%s'", f->sym_substr);
	if (f->dso)
		ADD("dso %s", f->dso_name ? f->dso_name : f->dso->name);
	if (f->has_pid)
		ADD("pid %d", f->pid);
	if (f->has_tid)
		ADD("tid %d", f->tid);
	if (f->has_cgroup) {
		struct strbuf cg;

		strbuf__init(&cg);
		fmt__cgroup(&cg, f->cgroup);
		ADD("cgroup %s", cg.buf ? cg.buf : "");
		strbuf__fini(&cg);
	}
	if (f->hide_kernel)
		ADD("no kernel");
	if (f->hide_user)
		ADD("no user");
	if (f->show_idle)
		ADD("idle shown");
	if (f->percent_limit > 0)
		ADD("rows >= %g%%", f->percent_limit);
	if (f->max_rows)
		ADD("at most %zu rows", f->max_rows);
	if (t->table.spec.order != SORT_OVERHEAD || t->table.spec.invert)
		ADD("sort %s%s", sort_key__name(t->table.spec.order),
		    t->table.spec.invert ? " inverted" : "");
	/* a grouping other than the start's (-s) */
	if (t->base.nr_group != t->a->spec.nr_group ||
	    memcmp(t->base.group, t->a->spec.group,
		   t->base.nr_group * sizeof(t->base.group[0]))) {
		ADD("grouped by ");
		for (size_t i = 0; i < t->base.nr_group && off < len; i++)
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						i ? "," : "",
						sort_key__name(t->base.group[i]));
	}
	if (t->table.windowed) {
		u64 o = timeline__origin(t->table.tl), s, e;

		if (table__window_span(&t->table, &s, &e))
			ADD("window +%.1f to +%.1f s", (double)(s - o) / 1e9,
			    (double)(e - o) / 1e9);
		else
			ADD("window: no cells");
	}
#undef ADD
}

enum act_result tui__key_in(struct tui *t, int key, unsigned int view)
{
	const struct key_binding *b = keys__lookup(key, view);

	return b ? b->action(t, b->arg) : R_NONE;
}

enum act_result tui__key(struct tui *t, int key)
{
	unsigned int view = tui__view(t);
	const struct key_binding *b = keys__lookup(key, view);

	if (b)
		return b->action(t, b->arg);
	if (view == V_PROMPT)
		return actions__prompt_input(t, key);
	return R_NONE;
}

enum act_result tui__list_mouse(struct tui *t, struct listview *lv,
				const struct mouse_event *ev)
{
	const struct view_ops *v = views__find(tui__view(t));
	size_t pos;

	if (!lv)
		return R_NONE;
	if (ev->kind == MK_WHEEL) {
		for (int i = 0; i < 3; i++)
			listview__move(lv, ev->button == MB_WHEEL_UP ? LV_UP :
								      LV_DOWN);
	} else if (ev->kind == MK_PRESS && ev->button == MB_LEFT &&
		   listview__at(lv, (size_t)ev->y, &pos)) {
		lv->selected = pos;
		/* the second press of a double click: the view's Enter */
		if (ev->clicks == 2) {
			if (v && v->moved)
				v->moved(t);
			return tui__key(t, K_ENTER);
		}
	} else {
		return R_NONE;
	}
	if (v && v->moved)
		v->moved(t);
	return R_REDRAW;
}

enum act_result tui__mouse(struct tui *t, const struct mouse_event *ev)
{
	unsigned int view = tui__view(t);
	const struct view_ops *v;

	if (ev->y < 0 || ev->x < 0)
		return R_NONE;
	/* the footer: a key shown there is that key, pressed; the rest
	 * (a drag or a release that ends there, the wheel) is the view's,
	 * so that a drag begun above it sees its end */
	if ((size_t)ev->y == t->footer_y && ev->kind == MK_PRESS) {
		if (ev->button != MB_LEFT)
			return R_NONE;
		for (size_t i = 0; i < t->nr_footer_keys; i++)
			if ((size_t)ev->x >= t->footer_keys[i].x0 &&
			    (size_t)ev->x < t->footer_keys[i].x1)
				return tui__key(t, t->footer_keys[i].key);
		return R_NONE;
	}
	/* a prompt keeps the keyboard; the view under it waits */
	if (view == V_PROMPT)
		return R_NONE;
	v = views__find(view);
	if (!v)
		return R_NONE;
	if (v->mouse)
		return v->mouse(t, ev);
	return tui__list_mouse(t, v->list ? v->list(t) : NULL, ev);
}

enum style tui__share_style(double percent)
{
	if (percent > 5.0)
		return ST_HOT;
	if (percent > 0.5)
		return ST_MEDIUM;
	return ST_NORMAL;
}

/* The last line: the prompt, the question, the status line for a few
 * seconds, the names still resolving, or the keys of the view. */
static void tui__render_footer(struct tui *t, struct screen *s, size_t y,
			       double now)
{
	unsigned int view = tui__view(t);

	t->footer_y = y;
	t->nr_footer_keys = 0;

	if (view == V_PROMPT) {
		size_t w = screen__add(s, y, ST_BOLD, t->prompt.label);

		w += screen__add(s, y, ST_BOLD, ": ");
		w += screen__add_ext(s, y, ST_NORMAL, t->prompt.buf);
		s->cursor_y = (long)y;
		s->cursor_x = (long)MIN(w, s->cols ? s->cols - 1 : 0);
		return;
	}
	/* a view's status is its own: not the one the view below set
	 * before this one opened (log messages show in any view) */
	if (t->status[0] && now < t->status_until &&
	    (!t->status_view || t->status_view == view)) {
		screen__add_ext(s, y, t->status_style, t->status);
		return;
	}
	if (t->resolving) {
		char msg[64];

		snprintf(msg, sizeof(msg), "resolving %zu symbol%s\xe2\x80\xa6",
			 t->resolving, PLURAL(t->resolving));
		screen__add(s, y, ST_BOLD, msg);
		return;
	}
	t->nr_footer_keys = keys__footer(view, t->a->sampler != NULL, s, y,
					 t->footer_keys,
					 ARRAY_SIZE(t->footer_keys));
}

void tui__render(struct tui *t, struct screen *s, double now)
{
	/* the view under a prompt or a question is drawn as it was */
	const struct view_ops *v = views__find(tui__shown_view(t));
	size_t body;
	struct listview *lv;

	screen__clear(s);
	if (!s->rows || !s->cols)
		return;
	tui__render_footer(t, s, s->rows - 1, now);
	body = s->rows - 1;
	if (!body || !v)
		return;
	if (v->render) {
		v->render(t, s, 0, body);
		return;
	}
	lv = v->list ? v->list(t) : NULL;
	if (!lv)
		return;
	if (lv->ops)
		listview__update(lv);
	listview__render(lv, s, 0, body);
}

/* The header of the shown event, recomputed at each draw (elapsed time,
 * paused, filters). */
static void tui__update_header(struct tui *t)
{
	size_t ev = t->table.ev;
	u64 win = t->have_snap ? app_refresh__since(&t->refresh, ev) : 0;

	if (!t->have_snap)
		ev = tui__session_ev(t, t->ev_pos);
	/* its note looks rows up (binaries missing): a file the worker is
	 * still loading is not waited for at each draw */
	symbolizer__set_deadline(t->a->syms, clock__now());
	app__header(t->a, &t->table, ev, t->refresh.window, win, &t->hi);
	symbolizer__set_deadline(t->a->syms, 0);
	t->hi.ev_index = t->ev_pos;
	t->hi.nr_events = tui__nr_shown(t);
	tui__describe_filters(t, t->filters, sizeof(t->filters));
	/* header__format sanitizes it */
	t->hi.filters = t->filters[0] ? t->filters : NULL;
}

/* A new snapshot (unless paused or the target ended), then rows. */
static int tui__refresh(struct tui *t, double now)
{
	struct app *a = t->a;
	bool fold;
	int err;

	app__check_target(a);
	/* paused: the table stays for reading; ended: the last table stays
	 * until the user quits */
	if ((a->sampler && sampler__paused(a->sampler)) ||
	    (a->finished && t->final_done && t->have_snap)) {
		/* an ended recording whose names are all in: nothing the
		 * table or its trees show can change (with E at 40,000
		 * chains a build was 0.15 s of CPU a refresh) */
		if (a->finished && !t->resolving && !t->table.cancelled &&
		    symbolizer__loads(a->syms) == t->loads_seen &&
		    symbolizer__changes(a->syms) == t->changes_seen)
			return 0;
		return tui__rebuild(t);
	}
	/* entries of exited processes that no row can show apart */
	fold = !sort_spec__has(&t->table.spec, SORT_PID) &&
	       !sort_spec__has(&t->table.spec, SORT_TID) &&
	       !t->table.filter.has_pid && !t->table.filter.has_tid;
	/* under the session's lock: the sampler reads these, and interns
	 * into the same string pool ("[exited]" here: TSan caught the two
	 * interning at once) */
	session__lock(a->session);
	session__fold_reaped(a->session, fold,
			     !sort_spec__has(&t->table.spec, SORT_COMM));
	/* and their addresses, but for the push's profiles, which keep
	 * every address with its line */
	session__fold_addrs(a->session,
			    fold && a->syms && !a->pusher ? table__func_of : NULL,
			    a->syms);
	session__unlock(a->session);
	/* --pprof, --flamegraph: batch's files, before this snapshot
	 * zeroes or decays the histogram */
	if (t->export)
		app_export__write(t->export);
	err = app__refresh(a, &t->refresh, &t->table, now);
	if (err)
		return err;
	app__push(a, &t->table,
		  t->inline_frames && t->inlines ? inlines__get : NULL,
		  t->inlines);
	if (a->finished)
		t->final_done = true;
	t->have_snap = true;
	t->resolve_rounds = 0;
	return tui__rebuild(t);
}

/* Log messages go to the status line; after an action that set its own
 * status, they follow it instead of hiding it. */
static void tui__take_log(struct tui *t, bool after_action)
{
	char msg[512], prev[sizeof(t->status)];
	enum log_level level;
	enum style st;
	size_t count;

	if (!t->logq || !logq__take(t->logq, msg, sizeof(msg), &level, &count))
		return;
	if (count > 1) {
		size_t n = strlen(msg);

		snprintf(msg + n, sizeof(msg) - n, " (+%zu more)", count - 1);
	}
	st = level <= LOG_WARN ? ST_ERROR : ST_NORMAL;
	if (after_action && t->status[0]) {
		snprintf(prev, sizeof(prev), "%s", t->status);
		tui__status(t, t->status_style == ST_ERROR ? ST_ERROR : st,
			    "%s; %s", prev, msg);
	} else {
		tui__status(t, st, "%s", msg);
		t->status_view = 0;	/* not of a view */
	}
}

/* Names left for later that a build now could resolve: some wait for
 * nothing but the budget, or the worker finished a load since.  A build
 * that took long is followed by as long without one: at 100K chains a
 * build is 0.4 s, and each leaves the names it met past its budget to
 * the next, which would otherwise follow at once until the refresh. */
static bool tui__resolve_now(const struct tui *t)
{
	return t->resolving && t->resolve_rounds < MAX_RESOLVE_ROUNDS &&
	       (!t->resolving_loads ||
		symbolizer__loads(t->a->syms) != t->loads_seen) &&
	       clock__now() >= t->build_end + t->build_took;
}

/* Whether the view on top changes without a key (view_ops.busy); ms, if
 * given, may be lowered to how soon it wants to be drawn again. */
static bool tui__busy(struct tui *t, int *ms)
{
	const struct view_ops *v = views__find(tui__view(t));
	int dummy = MAX_WAIT_MS;

	return v && v->busy && v->busy(t, ms ? ms : &dummy);
}

static int tui__wait_ms(struct tui *t, double now)
{
	double left = t->next_refresh - now;
	int ms;

	if (left <= 0 || tui__resolve_now(t))
		return 0;
	ms = left * 1000 > MAX_WAIT_MS ? MAX_WAIT_MS : (int)(left * 1000) + 1;
	/* a view that fills in by itself (the event picker's listing) */
	tui__busy(t, &ms);
	/* names come in as the worker loads their files */
	if (t->resolving && t->resolve_rounds < MAX_RESOLVE_ROUNDS)
		ms = MIN(ms, LOAD_POLL_MS);
	return ms;
}

int tui__check_terminal(void)
{
	struct strbuf err;
	int rc;

	strbuf__init(&err);
	rc = tty__probe(&err);
	if (rc)
		pr_err("%s", err.buf ? err.buf : "out of memory");
	strbuf__fini(&err);
	return rc;
}

int tui__run(struct app *a)
{
	struct screen scr;
	struct logq *logq;
	struct tui t;
	struct strbuf err;
	bool dirty = true, quit = false, status_on = false;
	long refreshes = 0;	/* the tables taken, for -n */

	/* main's, holding what start-up said; else one of its own */
	logq = a->logq ? a->logq : logq__new();
	if (!logq) {
		pr_err("out of memory");
		return 1;
	}
	tty__set_color(a->color);
	tty__set_mouse(a->mouse);
	strbuf__init(&err);
	if (tty__open(&err)) {
		pr_err("%s", err.buf ? err.buf : "out of memory");
		strbuf__fini(&err);
		if (!a->logq)
			logq__free(logq);
		return 1;
	}
	strbuf__fini(&err);
	/* from here on nothing may write to the terminal behind curses */
	log__set_handler(logq__handler, logq);
	/* the command's lines may be logged now: they reach the status
	 * line, not the terminal behind curses */
	if (a->cmdout)
		cmdout__attach(a->cmdout, true);
	tui__init(&t, a);
	t.logq = logq;
	screen__init(&scr);

	while (!quit && !*a->stop) {
		double now = clock__now();
		size_t rows, cols;
		unsigned int seq;
		int key, keys = 0;

		/* -n N: like top, the Nth table stays until the next
		 * refresh would come (one delay), then ptop exits */
		if (a->iterations && refreshes >= a->iterations &&
		    now >= t.next_refresh)
			break;
		if (now >= t.next_refresh) {
			if (tui__refresh(&t, now))
				tui__status(&t, ST_ERROR, "refresh: out of memory");
			refreshes++;
			t.next_refresh += a->delay;
			if (t.next_refresh <= now)
				t.next_refresh = now + a->delay;
			dirty = true;
		} else if (!a->finished && app__check_target(a)) {
			/* the last samples, and the note, right away (after
			 * -n's last table: the note only) */
			dirty = true;
			if (!a->iterations || refreshes < a->iterations) {
				t.next_refresh = now;
				continue;
			}
		}
		tui__take_log(&t, false);
		if (t.status[0] && (now < t.status_until) != status_on) {
			status_on = now < t.status_until;
			dirty = true;
		}
		if (tui__busy(&t, NULL))
			dirty = true;
		if (dirty) {
			tty__size(&rows, &cols);
			if (rows != scr.rows || cols != scr.cols)
				screen__resize(&scr, rows, cols);
			tui__update_header(&t);
			tui__render(&t, &scr, now);
			tty__draw(&scr, t.repaint);
			t.repaint = false;
			dirty = false;
		}
		/* a burst of keys (or a SIGWINCH storm) makes one redraw */
		for (key = tui__next_key(tui__wait_ms(&t, clock__now()));
		     key != K_NONE && keys < 64; key = tui__next_key(0), keys++) {
			enum act_result r;

			if (key == K_RESIZE) {
				dirty = true;
				continue;
			}
			/* the terminal closed: end as q does (the file is
			 * finished, the exit status 0) */
			if (key == K_HANGUP) {
				quit = true;
				break;
			}
			seq = t.status_seq;
			if (key == K_MOUSE) {
				/* what is under it is what was last drawn */
				if (dirty) {
					tui__update_header(&t);
					tui__render(&t, &scr, clock__now());
					tty__draw(&scr, false);
					dirty = false;
				}
				r = tui__mouse(&t, &cur_mouse);
			} else {
				r = tui__key(&t, key);
			}
			tui__take_log(&t, seq != t.status_seq);
			if (r == R_QUIT) {
				quit = true;
				break;
			}
			if (r == R_REBUILD && tui__rebuild(&t))
				tui__status(&t, ST_ERROR, "out of memory");
			if (r == R_REFRESH)
				t.next_refresh = clock__now();
			if (r != R_NONE)
				dirty = true;
		}
		/* a build cut short for a key that did not quit (Esc), or
		 * names its budget left for later, or whose files the
		 * symbolizer's worker has loaded since: the names are looked
		 * up again (what was resolved or loaded stays) */
		if ((t.table.cancelled || tui__resolve_now(&t)) && !quit &&
		    !*a->stop) {
			if (t.resolving)
				t.resolve_rounds++;
			if (tui__rebuild(&t))
				tui__status(&t, ST_ERROR, "out of memory");
			dirty = true;
		}
	}

	tty__close();
	if (a->cmdout)
		cmdout__attach(a->cmdout, false);
	if (!a->logq) {
		log__set_handler(logq__stderr, NULL);
		/* what was only on the status line is not lost */
		logq__replay(logq, STDERR_FILENO);
		logq__free(logq);
	}
	/* else main replays it (teardown) */
	screen__fini(&scr);
	tui__fini(&t);
	return 0;
}
