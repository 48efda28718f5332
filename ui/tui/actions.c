/* actions: what each key does to the live view's state.  Actions never
 * draw: they change state (and the sampler) and return what the loop
 * must do. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/report/batch.h"
#include "src/sys/fdio.h"
#include "ui/report/sanitize.h"
#include "src/sys/synth.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/actions.h"
#include "ui/tui/save.h"
#include "ui/tui/view_menu.h"
#include "ui/tui/view_top.h"

static struct listview *cur_list(struct tui *t)
{
	return tui__list(t, tui__view(t));
}

enum act_result action__move(struct tui *t, int arg)
{
	const struct view_ops *v = views__find(tui__view(t));
	struct listview *lv = cur_list(t);

	if (lv)
		listview__move(lv, (enum lv_move)arg);
	/* (the table remembers its selected row) */
	if (v && v->moved)
		v->moved(t);
	return R_REDRAW;
}

enum act_result action__quit(struct tui *t, int arg)
{
	(void)arg;
	(void)t;
	return R_QUIT;
}

enum act_result action__repaint(struct tui *t, int arg)
{
	(void)arg;
	t->repaint = true;
	return R_REDRAW;
}

/* ---- filters and zooms: a stack that Esc unwinds ---- */

static void set_sym_filter(struct tui *t, const char *s)
{
	struct table *tb = &t->table;

	snprintf(tb->filter_buf, sizeof(tb->filter_buf), "%s", s ? s : "");
	tb->filter.sym_substr = tb->filter_buf[0] ? tb->filter_buf : NULL;
}

static bool push_zoom(struct tui *t, enum zoom_kind kind, const char *prev_sym)
{
	struct top_view *top = top__of(t);
	struct zoom *z;

	if (top->nr_zooms == ARRAY_SIZE(top->zooms)) {
		tui__status(t, ST_ERROR, "too many zooms: Esc undoes one");
		return false;
	}
	z = &top->zooms[top->nr_zooms++];
	z->kind = kind;
	z->prev = t->table.filter;
	snprintf(z->prev_sym, sizeof(z->prev_sym), "%s",
		 prev_sym ? prev_sym : t->table.filter_buf);
	return true;
}

/* Undoes the last zoom: only its own fields go back, so that K, U and L
 * changes made since stay. */
static void pop_zoom(struct tui *t)
{
	struct top_view *top = top__of(t);
	struct zoom *z = &top->zooms[--top->nr_zooms];
	struct row_filter *f = &t->table.filter;

	switch (z->kind) {
	case ZOOM_SYM:
		set_sym_filter(t, z->prev_sym);
		tui__status(t, ST_NORMAL, "symbol filter undone");
		break;
	case ZOOM_DSO:
		f->dso = z->prev.dso;
		f->dso_name = z->prev.dso_name;
		tui__status(t, ST_NORMAL, "shared object zoom undone");
		break;
	case ZOOM_THREAD:
		f->has_tid = z->prev.has_tid;
		f->tid = z->prev.tid;
		tui__status(t, ST_NORMAL, "thread zoom undone");
		break;
	case ZOOM_PROCESS:
		f->has_pid = z->prev.has_pid;
		f->pid = z->prev.pid;
		tui__status(t, ST_NORMAL, "process zoom undone");
		break;
	case ZOOM_CGROUP:
		f->has_cgroup = z->prev.has_cgroup;
		f->cgroup = z->prev.cgroup;
		tui__status(t, ST_NORMAL, "cgroup zoom undone");
		break;
	}
}

static void drop_sym_zooms(struct tui *t)
{
	struct top_view *top = top__of(t);
	size_t j = 0;

	for (size_t i = 0; i < top->nr_zooms; i++)
		if (top->zooms[i].kind != ZOOM_SYM)
			top->zooms[j++] = top->zooms[i];
	top->nr_zooms = j;
}

enum act_result action__back(struct tui *t, int arg)
{
	unsigned int view = tui__view(t);

	(void)arg;
	if (view == V_CONFIRM) {
		tui__pop(t);
		return R_REDRAW;
	}
	if (view & V_LIST) {
		struct listview *lv = cur_list(t);

		if (lv && lv->filter[0]) {
			listview__set_filter(lv, NULL);
			return R_REDRAW;
		}
		tui__pop(t);
		return R_REDRAW;
	}
	return R_NONE;
}

enum act_result action__undo(struct tui *t, int arg)
{
	(void)arg;
	if (top__of(t)->nr_zooms) {
		pop_zoom(t);
		return R_REBUILD;
	}
	tui__push(t, V_CONFIRM);
	return R_REDRAW;
}

/* ---- lists ---- */

enum act_result action__open(struct tui *t, int view)
{
	return tui__open_view(t, (unsigned int)view, NULL);
}

enum act_result action__list_filter(struct tui *t, int arg)
{
	struct listview *lv = cur_list(t);

	(void)arg;
	if (!lv || !lv->ops || !lv->ops->row_text)
		return R_NONE;
	prompt__open(&t->prompt, PROMPT_LIST_FILTER, "Search", lv->filter);
	tui__push(t, V_PROMPT);
	return R_REDRAW;
}

/* The list a list filter's prompt filters: the view's under it. */
static struct listview *prompt_list(struct tui *t)
{
	return tui__list(t, tui__shown_view(t));
}

/* ---- events ---- */

enum act_result action__event(struct tui *t, int dir)
{
	size_t n = tui__nr_shown(t);
	struct strbuf sb;

	if (n < 2) {
		tui__status(t, ST_NORMAL,
			    "only one event is sampled: e adds one");
		return R_REDRAW;
	}
	t->ev_pos = (t->ev_pos + n + (size_t)(dir > 0 ? 1 : n - 1)) % n;
	strbuf__init(&sb);
	sanitize_str(&sb, tui__event_name(t));
	tui__status(t, ST_NORMAL, "showing %s (%zu/%zu)", sb.buf ? sb.buf : "",
		    t->ev_pos + 1, n);
	strbuf__fini(&sb);
	return R_REBUILD;
}

/* ---- compare ---- */

enum act_result action__baseline(struct tui *t, int arg)
{
	char desc[64];

	(void)arg;
	if (t->table.base) {
		table__clear_baseline(&t->table);
		columns__init(&t->cols, &t->table.spec, t->a->show_period);
		tui__status(t, ST_NORMAL, "baseline cleared (b marks one)");
		return R_REBUILD;
	}
	if (!t->have_snap) {
		tui__status(t, ST_ERROR, "no table yet to mark as the baseline");
		return R_REDRAW;
	}
	/* -z: the table is one refresh, so is the baseline */
	if (t->a->mode == HIST_ZERO && t->window > 0)
		snprintf(desc, sizeof(desc), "marked at %.1f s (a %.1f s window)",
			 t->hi.elapsed, t->window);
	else
		snprintf(desc, sizeof(desc), "marked at %.1f s", t->hi.elapsed);
	if (table__mark_baseline(&t->table, desc)) {
		tui__status(t, ST_ERROR, "out of memory: no baseline");
		return R_REDRAW;
	}
	columns__init(&t->cols, &t->table.spec, t->a->show_period);
	tui__status(t, ST_NORMAL, "baseline marked: Delta is now - then, in "
				  "points (s: sort by delta; b clears)");
	return R_REBUILD;
}

/* ---- sorting ---- */

static const enum sort_key sort_cycle[] = {
	SORT_OVERHEAD, SORT_SAMPLES, SORT_PERIOD, SORT_SYM, SORT_DSO,
	SORT_COMM, SORT_PID, SORT_TID, SORT_CPU, SORT_CGROUP, SORT_STATE,
	SORT_DELTA, SORT_ABSDELTA,
};

/* delta and absdelta only mean something against a baseline */
static bool sort_offered(const struct tui *t, enum sort_key k)
{
	return t->table.base || (k != SORT_DELTA && k != SORT_ABSDELTA);
}

static enum act_result pick_sort(struct tui *t, int id)
{
	tui__set_order(t, (enum sort_key)id, t->table.spec.invert);
	tui__status(t, ST_NORMAL, "sorted by %s%s", sort_key__name(id),
		    t->table.spec.invert ? " (inverted)" : "");
	return R_REBUILD;
}

enum act_result action__sort_picker(struct tui *t, int arg)
{
	struct menu menu, *m = &menu;
	struct listview *lv;

	(void)arg;
	memset(m, 0, sizeof(*m));
	snprintf(m->title, sizeof(m->title), "Sort by (Enter picks, Esc back)");
	for (size_t i = 0; i < ARRAY_SIZE(sort_cycle); i++) {
		enum sort_key k = sort_cycle[i];

		if (!sort_offered(t, k))
			continue;
		snprintf(m->items[m->nr].label, sizeof(m->items[0].label),
			 "%s %s", t->table.spec.order == k ? "*" : " ",
			 sort_key__name(k));
		m->items[m->nr++].id = (int)k;
	}
	m->pick = pick_sort;
	tui__open_view(t, V_MENU, m);
	lv = tui__list(t, V_MENU);
	for (size_t i = 0; i < m->nr; i++)
		if (m->items[i].id == (int)t->table.spec.order)
			listview__select_row(lv, i);
	return R_REDRAW;
}

enum act_result action__sort_cycle(struct tui *t, int dir)
{
	size_t n = ARRAY_SIZE(sort_cycle), i = 0;

	while (i < n && sort_cycle[i] != t->table.spec.order)
		i++;
	do
		i = (i + n + (size_t)(dir > 0 ? 1 : n - 1)) % n;
	while (!sort_offered(t, sort_cycle[i]));
	return pick_sort(t, (int)sort_cycle[i]);
}

enum act_result action__sort_invert(struct tui *t, int arg)
{
	(void)arg;
	tui__set_order(t, t->table.spec.order, !t->table.spec.invert);
	tui__status(t, ST_NORMAL, "sorted by %s%s",
		    sort_key__name(t->table.spec.order),
		    t->table.spec.invert ? " (inverted)" : "");
	return R_REBUILD;
}

/* ---- filters ---- */

enum act_result action__filter(struct tui *t, int arg)
{
	(void)arg;
	prompt__open(&t->prompt, PROMPT_SYM_FILTER, "Filter symbols",
		     t->table.filter_buf);
	tui__push(t, V_PROMPT);
	return R_REDRAW;
}

enum act_result action__hide_kernel(struct tui *t, int arg)
{
	struct row_filter *f = &t->table.filter;

	(void)arg;
	f->hide_kernel = !f->hide_kernel;
	if (f->hide_kernel)
		f->hide_user = false;
	tui__status(t, ST_NORMAL, "kernel symbols %s",
		    f->hide_kernel ? "hidden (K shows them)" : "shown");
	return R_REBUILD;
}

enum act_result action__demangle_params(struct tui *t, int arg)
{
	struct symbolizer *syms = t->a->syms;
	bool on;

	(void)arg;
	if (!syms)
		return R_NONE;
	on = !symbolizer__demangle_params(syms);
	symbolizer__set_demangle_params(syms, on);
	if (symbolizer__demangle_params(syms) != on) {
		tui__status(t, ST_NORMAL, "names are not demangled "
					  "(--no-demangle)");
		return R_REDRAW;
	}
	tui__status(t, ST_NORMAL, "C++ names %s",
		    on ? "with their parameters (N: name alone)" :
			 "by their name alone, as perf shows them");
	return R_REBUILD;
}

enum act_result action__hide_user(struct tui *t, int arg)
{
	struct row_filter *f = &t->table.filter;

	(void)arg;
	f->hide_user = !f->hide_user;
	if (f->hide_user)
		f->hide_kernel = false;
	tui__status(t, ST_NORMAL, "user symbols %s",
		    f->hide_user ? "hidden (U shows them)" : "shown");
	return R_REBUILD;
}

enum act_result action__show_idle(struct tui *t, int arg)
{
	struct row_filter *f = &t->table.filter;

	(void)arg;
	/* the snapshot holds idle entries either way: a rebuild, no new
	 * snapshot */
	f->show_idle = !f->show_idle;
	tui__status(t, ST_NORMAL, "idle task's samples %s",
		    f->show_idle ? "shown as rows (i hides them)" :
				   "left out of the table (i shows them)");
	return R_REBUILD;
}

enum act_result action__percent_limit(struct tui *t, int arg)
{
	char cur[32];

	(void)arg;
	snprintf(cur, sizeof(cur), "%g", t->table.filter.percent_limit);
	prompt__open(&t->prompt, PROMPT_PERCENT,
		     "Hide rows under percent (0 shows all)", cur);
	tui__push(t, V_PROMPT);
	return R_REDRAW;
}

/* ---- zooms ---- */

static enum act_result need_row(struct tui *t)
{
	tui__status(t, ST_ERROR, "no row selected");
	return R_REDRAW;
}

enum act_result action__zoom_dso(struct tui *t, int arg)
{
	const struct row *r = top__selected_row(t);
	struct row_filter *f = &t->table.filter;
	struct strbuf sb;

	(void)arg;
	if (!r)
		return need_row(t);
	if (f->dso) {
		tui__status(t, ST_ERROR, "already zoomed into a shared object "
					 "(Esc undoes)");
		return R_REDRAW;
	}
	if (r->cmp == CMP_GONE) {
		tui__status(t, ST_ERROR, "this row vanished since the "
					 "baseline: nothing to zoom into");
		return R_REDRAW;
	}
	if (!push_zoom(t, ZOOM_DSO, NULL))
		return R_REDRAW;
	f->dso = r->dso;
	/* a kernel module is a name within the kernel dso */
	f->dso_name = r->kernel ? r->dso_name : NULL;
	strbuf__init(&sb);
	sanitize_str(&sb, r->dso_name);
	tui__status(t, ST_NORMAL, "zoomed into %s (Esc undoes)",
		    sb.buf ? sb.buf : "");
	strbuf__fini(&sb);
	return R_REBUILD;
}

/* Whether a histogram entry is part of a row under the current
 * grouping and zooms. */
static bool entry_in_row(const struct tui *t, const struct hist_entry *e,
			 const struct row *r)
{
	const struct sort_spec *sp = &t->table.spec;
	const struct row_filter *f = &t->table.filter;

	if (e->key.pid < 0)
		return false;	/* folded entries of reaped processes */
	if (e->key.idle && !f->show_idle)
		return false;	/* not in the rows (rowset__build) */
	if ((f->has_pid && e->key.pid != f->pid) ||
	    (f->has_tid && e->key.tid != f->tid) ||
	    (f->has_cgroup && e->key.cgroup != f->cgroup) ||
	    (f->dso && e->key.dso != f->dso))
		return false;
	if ((sort_spec__has(sp, SORT_SYM) || sort_spec__has(sp, SORT_DSO)) &&
	    e->key.dso != r->dso)
		return false;
	if (sort_spec__has(sp, SORT_SYM)) {
		if (r->sym && r->sym_size) {
			if (e->key.addr < r->sym_start ||
			    e->key.addr - r->sym_start >= r->sym_size)
				return false;
		} else if (e->key.addr != r->addr) {
			return false;
		}
	}
	if (sort_spec__has(sp, SORT_COMM) && e->key.comm != r->comm)
		return false;
	if (sort_spec__has(sp, SORT_PID) && e->key.pid != r->pid)
		return false;
	if (sort_spec__has(sp, SORT_CPU) && e->key.cpu != r->cpu)
		return false;
	if (sort_spec__has(sp, SORT_CGROUP) && e->key.cgroup != r->cgroup)
		return false;
	if (sort_spec__has(sp, SORT_STATE) && e->key.state != r->state)
		return false;
	return true;
}

/*
 * Among the samples of row r, the key of the group with the largest
 * period, groups being the keys same() calls equal (a process, a
 * thread, a cgroup): what a zoom takes from a row that gathers many.
 */
static bool row_heaviest(struct tui *t, const struct row *r,
			 bool (*same)(const struct hist_key *a,
				      const struct hist_key *b, bool thread),
			 bool thread, struct hist_key *out)
{
	const struct snapshot *snap = table__snap(&t->table, t->table.ev);
	struct group {
		struct hist_key key;
		u64 period;
	} *g = NULL, *best = NULL;
	size_t nr = 0, cap = 0;

	if (!snap)
		return false;
	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		size_t k;

		if (!entry_in_row(t, e, r))
			continue;
		for (k = 0; k < nr && !same(&g[k].key, &e->key, thread); k++)
			;
		if (k == nr) {
			if (array__grow((void **)&g, &cap, nr + 1, sizeof(*g)))
				break;
			g[nr++] = (struct group){ e->key, 0 };
		}
		g[k].period += e->period;
	}
	for (size_t k = 0; k < nr; k++)
		if (!best || g[k].period > best->period)
			best = &g[k];
	if (best)
		*out = best->key;
	free(g);
	return best != NULL;
}

static bool same_owner(const struct hist_key *a, const struct hist_key *b,
		       bool thread)
{
	return a->pid == b->pid && (!thread || a->tid == b->tid);
}

/*
 * The thread (or process) of a row.  Rows grouped by it carry it; a
 * dso,sym row may gather many threads: the one with the largest period
 * in that row wins.
 */
static bool row_owner(struct tui *t, const struct row *r, bool thread,
		      s32 *pid, s32 *tid, const char **comm)
{
	struct hist_key k;

	if (sort_spec__has(&t->table.spec, SORT_TID) ||
	    (!thread && sort_spec__has(&t->table.spec, SORT_PID))) {
		*pid = r->pid;
		*tid = r->tid;
		*comm = r->comm;
		return r->pid >= 0;
	}
	if (!row_heaviest(t, r, same_owner, thread, &k))
		return false;
	*pid = k.pid;
	*tid = k.tid;
	*comm = k.comm;
	return true;
}

enum act_result action__zoom_owner(struct tui *t, int thread)
{
	const struct row *r = top__selected_row(t);
	struct row_filter *f = &t->table.filter;
	const char *comm = NULL;
	s32 pid = -1, tid = -1;
	struct strbuf sb;

	if (!r)
		return need_row(t);
	if ((thread && f->has_tid) || (!thread && f->has_pid)) {
		tui__status(t, ST_ERROR, "already zoomed into a %s (Esc undoes)",
			    thread ? "thread" : "process");
		return R_REDRAW;
	}
	if (!row_owner(t, r, thread, &pid, &tid, &comm)) {
		tui__status(t, ST_ERROR, "this row has no known %s",
			    thread ? "thread" : "process");
		return R_REDRAW;
	}
	if (!push_zoom(t, thread ? ZOOM_THREAD : ZOOM_PROCESS, NULL))
		return R_REDRAW;
	if (thread) {
		f->has_tid = true;
		f->tid = tid;
	} else {
		f->has_pid = true;
		f->pid = pid;
	}
	strbuf__init(&sb);
	sanitize_str(&sb, comm ? comm : "?");
	tui__status(t, ST_NORMAL, "zoomed into %s %d (%s) (Esc undoes)",
		    thread ? "thread" : "process", thread ? tid : pid,
		    sb.buf ? sb.buf : "");
	strbuf__fini(&sb);
	return R_REBUILD;
}

static bool same_cgroup(const struct hist_key *a, const struct hist_key *b,
			bool thread)
{
	(void)thread;
	return a->cgroup == b->cgroup;
}

/* The cgroup of a row: its own when rows are grouped by cgroup, else
 * the one with the largest period among the row's samples. */
static bool row_cgroup(struct tui *t, const struct row *r, const char **cg)
{
	struct hist_key k;

	if (sort_spec__has(&t->table.spec, SORT_CGROUP)) {
		*cg = r->cgroup;
		return true;
	}
	if (!row_heaviest(t, r, same_cgroup, false, &k))
		return false;
	*cg = k.cgroup;
	return true;
}

enum act_result action__zoom_cgroup(struct tui *t, int arg)
{
	const struct row *r = top__selected_row(t);
	struct row_filter *f = &t->table.filter;
	const char *cg = NULL;
	struct strbuf sb;

	(void)arg;
	if (!r)
		return need_row(t);
	if (f->has_cgroup) {
		tui__status(t, ST_ERROR,
			    "already zoomed into a cgroup (Esc undoes)");
		return R_REDRAW;
	}
	if (!row_cgroup(t, r, &cg) || !cg) {
		tui__status(t, ST_ERROR, "this row has no known cgroup");
		return R_REDRAW;
	}
	if (!push_zoom(t, ZOOM_CGROUP, NULL))
		return R_REDRAW;
	f->has_cgroup = true;
	f->cgroup = cg;
	strbuf__init(&sb);
	fmt__cgroup(&sb, cg);
	tui__status(t, ST_NORMAL, "zoomed into cgroup %s (Esc undoes)",
		    sb.buf ? sb.buf : "");
	strbuf__fini(&sb);
	return R_REBUILD;
}

/* ---- target and time ---- */

enum act_result action__target(struct tui *t, int arg)
{
	(void)arg;
	if (!t->a->sampler) {
		tui__status(t, ST_ERROR, "no live source: nothing to attach");
		return R_REDRAW;
	}
	prompt__open(&t->prompt, PROMPT_TARGET,
		     "Attach to pid(s) or process name (empty: every CPU)",
		     NULL);
	tui__push(t, V_PROMPT);
	return R_REDRAW;
}

static bool all_pid_chars(const char *s)
{
	for (; *s; s++)
		if (!(*s >= '0' && *s <= '9') && *s != ',' && *s != ' ')
			return false;
	return true;
}

enum act_result actions__target_prompt(struct tui *t, const char *answer)
{
	struct app *a = t->a;
	const struct target *cur = sampler__target(a->sampler);
	struct target tg = { .kind = TARGET_SYSTEM, .cpus = cur->cpus };
	pid_t *pids = NULL;
	size_t nr = 0;
	struct strbuf sb;
	int err;

	strbuf__init(&sb);
	sanitize_str(&sb, answer);
	if (*answer && all_pid_chars(answer)) {
		err = pidlist__parse(answer, &pids, &nr);
		if (err || !nr) {
			tui__status(t, ST_ERROR, "bad pid list '%s'",
				    sb.buf ? sb.buf : "");
			goto out;
		}
		tg.kind = TARGET_PIDS;
	} else if (*answer) {
		err = synth__find_pids("/proc", answer, &pids, &nr);
		if (err || !nr) {
			tui__status(t, ST_ERROR, "no process named '%s'",
				    sb.buf ? sb.buf : "");
			goto out;
		}
		tg.kind = TARGET_PIDS;
	}
	tg.pids = pids;
	tg.nr_pids = nr;
	err = sampler__retarget(a->sampler, &tg);
	if (err) {
		tui__status(t, ST_ERROR, "cannot attach to %s: %s",
			    *answer ? (sb.buf ? sb.buf : "") : "every CPU",
			    strerror(-err));
		goto out;
	}
	/* the header's words of the start (-C's list is kept) */
	app__describe_target(&tg, NULL, a->target_desc,
			     sizeof(a->target_desc));
	a->finished = false;
	a->note[0] = '\0';
	/* the table shows the new target only */
	session__lock(a->session);
	session__refresh(a->session, HIST_ZERO);
	session__unlock(a->session);
	t->next_refresh = app__now() + 0.25;
	strbuf__reset(&sb);
	sanitize_str(&sb, a->target_desc);
	tui__status(t, ST_NORMAL, "attached to %s", sb.buf ? sb.buf : "");
out:
	free(pids);
	strbuf__fini(&sb);
	return R_REDRAW;
}

enum act_result action__pause(struct tui *t, int arg)
{
	struct sampler *sp = t->a->sampler;
	bool paused;
	int err;

	(void)arg;
	if (!sp) {
		tui__status(t, ST_ERROR, "no live source: nothing to pause");
		return R_REDRAW;
	}
	if (t->a->finished) {
		tui__status(t, ST_ERROR, "the target exited: nothing to pause");
		return R_REDRAW;
	}
	paused = !sampler__paused(sp);
	err = sampler__pause(sp, paused);
	if (err) {
		tui__status(t, ST_ERROR, "cannot %s: %s",
			    paused ? "pause" : "resume", strerror(-err));
		return R_REDRAW;
	}
	if (paused) {
		tui__status(t, ST_NORMAL,
			    "paused: the events are disabled (f resumes)");
	} else {
		tui__status(t, ST_NORMAL, "sampling again");
		t->next_refresh = app__now() + 0.25;
	}
	return R_REDRAW;
}

enum act_result action__zero(struct tui *t, int arg)
{
	struct app *a = t->a;

	(void)arg;
	if (a->mode == HIST_ZERO) {
		a->mode = t->live_mode;
		tui__status(t, ST_NORMAL, "accumulating samples (%s)",
			    a->mode == HIST_DECAY ? "decaying" : "cumulative");
	} else {
		t->live_mode = a->mode;
		a->mode = HIST_ZERO;
		tui__status(t, ST_NORMAL, "zeroing at every refresh");
	}
	return R_REDRAW;
}

double actions__delay_step(double delay, int dir)
{
	static const double steps[] = {
		0.1, 0.2, 0.5, 1, 2, 3, 5, 10, 20, 30, 60,
	};
	size_t n = ARRAY_SIZE(steps);

	if (dir > 0) {
		for (size_t i = 0; i < n; i++)
			if (steps[i] > delay + 1e-9)
				return steps[i];
		return steps[n - 1];
	}
	for (size_t i = n; i-- > 0;)
		if (steps[i] < delay - 1e-9)
			return steps[i];
	return delay < steps[0] ? delay : steps[0];
}

enum act_result action__delay(struct tui *t, int dir)
{
	t->a->delay = actions__delay_step(t->a->delay, dir);
	t->next_refresh = t->last_refresh + t->a->delay;
	tui__status(t, ST_NORMAL, "refreshing every %g s", t->a->delay);
	return R_REDRAW;
}

/* ---- a row's menu, annotate, files ---- */

enum act_result action__annotate(struct tui *t, int arg)
{
	(void)arg;
	return tui__open_view(t, V_ANNOTATE, top__selected_row(t));
}

/* c in the table: the selected row's function, or the function a tree
 * line names (its row may be hidden, or not exist without --children). */
enum act_result action__callers(struct tui *t, int arg)
{
	const struct ct_line *l = NULL;
	const struct row *r;
	struct row fn;
	size_t sub;

	(void)arg;
	if (!tui__has_chains(t))
		return tui__no_chains(t);
	r = top__selected_line(t, &sub, &l);
	if (!r) {
		tui__status(t, ST_ERROR, "no row selected");
		return R_REDRAW;
	}
	fn = *r;
	if (l && l->node.dso && !l->node.inlined) {
		const struct cg_node *n = &l->node;

		fn.dso = n->dso;
		fn.dso_name = n->dso_name;
		fn.sym = n->sym;
		fn.sym_start = fn.addr = n->addr;
		fn.kernel = n->kernel;
	}
	return tui__open_view(t, V_CALLERS, &fn);
}

enum act_result action__save(struct tui *t, int arg)
{
	struct batch_opts bo = { .show_period = t->a->show_period };
	struct strbuf sb;

	(void)arg;
	if (!t->have_snap) {
		tui__status(t, ST_ERROR, "nothing to save yet");
		return R_REDRAW;
	}
	strbuf__init(&sb);
	/* the same text as batch mode prints */
	batch__format(&sb, &bo, &t->table, &t->hi);
	save__text(t, "ptop.hist", "the table", sb.oom ? NULL : sb.buf,
		   sb.len);
	strbuf__fini(&sb);
	return R_REDRAW;
}

static enum act_result copy_row(struct tui *t)
{
	const struct row *r = top__selected_row(t);
	struct columns cols;
	struct strbuf sb;

	if (!r)
		return need_row(t);
	strbuf__init(&sb);
	/* the table's own columns (Time for --off-cpu, a baseline's) */
	cols = t->cols;
	columns__fit(&cols, &t->table.rows, (size_t)(r - t->table.rows.rows),
		     1, 0);
	fmt__header(&sb, &cols);
	strbuf__addc(&sb, '\n');
	fmt__row(&sb, &cols, &t->table.rows, r, NULL);
	strbuf__addc(&sb, '\n');
	save__text(t, "ptop.row", "the row", sb.oom ? NULL : sb.buf, sb.len);
	strbuf__fini(&sb);
	return R_REDRAW;
}

/* The row menu's items other than copying run the key table's binding of
 * their key in the table (the item's id), as if it were pressed there. */
#define MENU_COPY (-1)

static enum act_result pick_row_action(struct tui *t, int id)
{
	const struct key_binding *b;

	if (id == MENU_COPY)
		return copy_row(t);
	b = keys__lookup(id, V_TOP);
	return b ? b->action(t, b->arg) : R_NONE;
}

enum act_result action__row_menu(struct tui *t, int arg)
{
	const struct row *r = top__selected_row(t);
	struct menu menu, *m = &menu;
	struct strbuf sym, dso;

	(void)arg;
	if (!r)
		return need_row(t);
	memset(m, 0, sizeof(*m));
	strbuf__init(&sym);
	strbuf__init(&dso);
	fmt__symbol(&sym, r);
	sanitize_str(&dso, r->dso_name);
	snprintf(m->title, sizeof(m->title), "%s", sym.buf ? sym.buf : "");
	snprintf(m->items[m->nr].label, sizeof(m->items[0].label),
		 "Annotate %s", sym.buf ? sym.buf : "");
	m->items[m->nr++].id = 'a';
	if (tui__has_chains(t)) {
		size_t i = (size_t)(r - t->table.rows.rows);

		snprintf(m->items[m->nr].label, sizeof(m->items[0].label),
			 "%s call tree (+)",
			 calltree__expanded(&top__of(t)->ct, &t->table.rows,
					    i) ?
				 "Collapse the" : "Expand the");
		m->items[m->nr++].id = '+';
		/* of the function the selected line names (c) */
		snprintf(m->items[m->nr].label, sizeof(m->items[0].label),
			 "Callers and callees (c)");
		m->items[m->nr++].id = 'c';
	}
	snprintf(m->items[m->nr].label, sizeof(m->items[0].label),
		 "Zoom into %s (d)", dso.buf ? dso.buf : "");
	m->items[m->nr++].id = 'd';
	snprintf(m->items[m->nr].label, sizeof(m->items[0].label),
		 "Zoom into its thread (t)");
	m->items[m->nr++].id = 't';
	snprintf(m->items[m->nr].label, sizeof(m->items[0].label),
		 "Zoom into its process (T)");
	m->items[m->nr++].id = 'T';
	snprintf(m->items[m->nr].label, sizeof(m->items[0].label),
		 "Zoom into its cgroup (g)");
	m->items[m->nr++].id = 'g';
	snprintf(m->items[m->nr].label, sizeof(m->items[0].label),
		 "Copy the row to a file");
	m->items[m->nr++].id = MENU_COPY;
	m->pick = pick_row_action;
	strbuf__fini(&sym);
	strbuf__fini(&dso);
	return tui__open_view(t, V_MENU, m);
}

/* ---- the table's prompts (view_top.c's prompt) ---- */

enum act_result actions__filter_prompt(struct tui *t, const struct prompt *p,
				       enum prompt_event ev)
{
	double pct;
	char *end;

	if (p->kind == PROMPT_SYM_FILTER) {
		/* incremental: the rows follow the typing */
		if (ev == PROMPT_TYPED) {
			set_sym_filter(t, p->buf);
		} else if (ev == PROMPT_CANCEL) {
			set_sym_filter(t, p->saved);
		} else if (!p->buf[0]) {
			set_sym_filter(t, NULL);
			drop_sym_zooms(t);
			tui__status(t, ST_NORMAL, "symbol filter cleared");
		} else if (strcmp(p->buf, p->saved) != 0) {
			set_sym_filter(t, p->saved);
			if (push_zoom(t, ZOOM_SYM, p->saved))
				set_sym_filter(t, p->buf);
			tui__status(t, ST_NORMAL,
				    "filtering symbols (Esc undoes)");
		}
		return R_REBUILD;
	}
	if (p->kind != PROMPT_PERCENT || ev != PROMPT_ACCEPT)
		return R_REDRAW;
	errno = 0;
	pct = p->buf[0] ? strtod(p->buf, &end) : 0.0;
	if (p->buf[0] && (errno || *end || !isfinite(pct) || pct < 0 ||
			  pct > 100)) {
		tui__status(t, ST_ERROR, "a percentage from 0 to 100, please");
		return R_REDRAW;
	}
	t->table.filter.percent_limit = pct;
	if (pct > 0)
		tui__status(t, ST_NORMAL, "hiding rows under %g %%", pct);
	else
		tui__status(t, ST_NORMAL, "showing every row");
	return R_REBUILD;
}

/* ---- prompts: the loop's; what is typed goes to the view that opened
 * the prompt (its prompt operation), a list's search to its list ---- */

static enum act_result prompt_event(struct tui *t, enum prompt_event ev)
{
	const struct view_ops *v;
	const struct prompt *p = &t->prompt;

	if (p->kind == PROMPT_LIST_FILTER) {
		listview__set_filter(prompt_list(t), ev == PROMPT_CANCEL ?
							     p->saved : p->buf);
		return R_REDRAW;
	}
	/* (accepted or cancelled, it is closed: the view is on top) */
	v = views__find(tui__shown_view(t));
	return v && v->prompt ? v->prompt(t, p, ev) : R_REDRAW;
}

enum act_result actions__prompt_input(struct tui *t, int key)
{
	if (!prompt__insert(&t->prompt, (u32)key))
		return R_NONE;
	return prompt_event(t, PROMPT_TYPED);
}

enum act_result action__prompt_erase(struct tui *t, int arg)
{
	(void)arg;
	if (!prompt__erase(&t->prompt))
		return R_NONE;
	return prompt_event(t, PROMPT_TYPED);
}

enum act_result action__prompt_kill(struct tui *t, int arg)
{
	(void)arg;
	prompt__kill(&t->prompt);
	return prompt_event(t, PROMPT_TYPED);
}

enum act_result action__prompt_cancel(struct tui *t, int arg)
{
	(void)arg;
	tui__pop(t);
	return prompt_event(t, PROMPT_CANCEL);
}

enum act_result action__prompt_accept(struct tui *t, int arg)
{
	(void)arg;
	tui__pop(t);
	return prompt_event(t, PROMPT_ACCEPT);
}
