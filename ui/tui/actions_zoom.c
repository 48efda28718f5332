/* actions_zoom: the table's filters and zooms (/, d, t, T, g, K, U, N, i,
 * L), the stack of what the filters: line lists that Esc unwinds (the
 * order and grouping join it from actions_table.c), and the prompts of
 * the symbol filter and the percent limit. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/sanitize.h"
#include "ui/tui/actions.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/view_top.h"

/* ---- what the filters: line lists: a stack that Esc unwinds ---- */

static void set_sym_filter(struct tui *t, const char *s)
{
	struct table *tb = &t->table;

	snprintf(tb->filter_buf, sizeof(tb->filter_buf), "%s", s ? s : "");
	tb->filter.sym_substr = tb->filter_buf[0] ? tb->filter_buf : NULL;
}

bool top__push_undo(struct tui *t, undo_fn restore, const char *what,
		    bool setting)
{
	struct top_view *top = top__of(t);
	struct undo *u;

	for (size_t i = 0; setting && i < top->nr_undo; i++)
		if (top->undo[i].restore == restore)
			return true;	/* its first state stays */
	if (top->nr_undo == UNDO_MAX) {
		tui__status(t, ST_ERROR, "%d filters already: Esc undoes one",
			    UNDO_MAX);
		return false;
	}
	u = &top->undo[top->nr_undo++];
	memset(u, 0, sizeof(*u));
	u->restore = restore;
	u->what = what;
	u->setting = setting;
	u->prev = t->table.filter;
	u->prev_spec = t->table.spec;
	snprintf(u->prev_sym, sizeof(u->prev_sym), "%s", t->table.filter_buf);
	return true;
}

static void remove_undo(struct top_view *top, size_t i)
{
	memmove(&top->undo[i], &top->undo[i + 1],
		(top->nr_undo - i - 1) * sizeof(top->undo[0]));
	top->nr_undo--;
}

void top__settle_undo(struct tui *t, undo_fn restore,
		      bool (*same)(const struct tui *t, const struct undo *u))
{
	struct top_view *top = top__of(t);

	for (size_t i = 0; i < top->nr_undo; i++)
		if (top->undo[i].restore == restore &&
		    same(t, &top->undo[i])) {
			remove_undo(top, i);
			return;
		}
}

void top__drop_undo(struct tui *t, undo_fn restore)
{
	struct top_view *top = top__of(t);

	for (size_t i = top->nr_undo; i-- > 0;)
		if (top->undo[i].restore == restore)
			remove_undo(top, i);
}

size_t top__nr_undo(const struct tui *t)
{
	return top__of(t)->nr_undo;
}

/* Each kind puts back its own fields only, so that what was changed
 * since by another key stays. */
static void undo_sym(struct tui *t, const struct undo *u)
{
	set_sym_filter(t, u->prev_sym);
}

static void undo_dso(struct tui *t, const struct undo *u)
{
	t->table.filter.dso = u->prev.dso;
	t->table.filter.dso_name = u->prev.dso_name;
}

static void undo_thread(struct tui *t, const struct undo *u)
{
	t->table.filter.has_tid = u->prev.has_tid;
	t->table.filter.tid = u->prev.tid;
}

static void undo_process(struct tui *t, const struct undo *u)
{
	t->table.filter.has_pid = u->prev.has_pid;
	t->table.filter.pid = u->prev.pid;
}

static void undo_cgroup(struct tui *t, const struct undo *u)
{
	t->table.filter.has_cgroup = u->prev.has_cgroup;
	t->table.filter.cgroup = u->prev.cgroup;
}

static void undo_hide(struct tui *t, const struct undo *u)
{
	t->table.filter.hide_kernel = u->prev.hide_kernel;
	t->table.filter.hide_user = u->prev.hide_user;
}

static bool same_hide(const struct tui *t, const struct undo *u)
{
	return t->table.filter.hide_kernel == u->prev.hide_kernel &&
	       t->table.filter.hide_user == u->prev.hide_user;
}

static void undo_idle(struct tui *t, const struct undo *u)
{
	t->table.filter.show_idle = u->prev.show_idle;
}

static bool same_idle(const struct tui *t, const struct undo *u)
{
	return t->table.filter.show_idle == u->prev.show_idle;
}

static void undo_limit(struct tui *t, const struct undo *u)
{
	t->table.filter.percent_limit = u->prev.percent_limit;
}

static bool same_limit(const struct tui *t, const struct undo *u)
{
	return t->table.filter.percent_limit == u->prev.percent_limit;
}

static void undo_rows(struct tui *t, const struct undo *u)
{
	t->table.filter.max_rows = u->prev.max_rows;
}

static bool same_rows(const struct tui *t, const struct undo *u)
{
	return t->table.filter.max_rows == u->prev.max_rows;
}

enum act_result actions__set_max_rows(struct tui *t, size_t n)
{
	if (!top__push_undo(t, undo_rows, "row count limit", true))
		return R_REDRAW;
	t->table.filter.max_rows = n;
	top__settle_undo(t, undo_rows, same_rows);
	return R_REBUILD;
}

enum act_result action__undo(struct tui *t, int arg)
{
	struct top_view *top = top__of(t);
	struct undo u;

	(void)arg;
	if (!top->nr_undo) {
		char now[sizeof(t->filters)];

		/* a key that quits is q (or F10), never Esc: the next key
		 * typed after it is not an answer to a question */
		tui__describe_filters(t, now, sizeof(now));
		tui__status(t, ST_NORMAL, "nothing to undo%s: q quits",
			    now[0] ? " (the command line's filters stay)" :
				     "");
		return R_REDRAW;
	}
	u = top->undo[--top->nr_undo];
	u.restore(t, &u);
	tui__status(t, ST_NORMAL, "%s undone%s", u.what,
		    top->nr_undo ? " (Esc: the one before)" : "");
	return R_REBUILD;
}

/* A time window (the timeline view): the window before, if any, in the
 * entry's data (windowed, start, end). */
static void undo_window(struct tui *t, const struct undo *u)
{
	if (!u->data[0] ||
	    table__set_window(&t->table, u->data[1], u->data[2]))
		table__clear_window(&t->table);
}

enum act_result actions__set_window(struct tui *t, u64 start, u64 end)
{
	struct top_view *top = top__of(t);
	struct undo *u;
	int err;

	if (!top__push_undo(t, undo_window, "time window", false))
		return R_REDRAW;
	u = &top->undo[top->nr_undo - 1];
	u->data[0] = t->table.windowed;
	u->data[1] = t->table.win_start;
	u->data[2] = t->table.win_end;
	err = table__set_window(&t->table, start, end);
	if (err) {
		top->nr_undo--;
		tui__status(t, ST_ERROR, "%s", err == -ENOENT ?
			    "no samples in that window" : "out of memory");
		return R_REDRAW;
	}
	tui__status(t, ST_NORMAL, "every view shows the time window alone "
				  "(Esc undoes)");
	return R_REBUILD;
}

/* A process or thread zoom (the row's owner, the timeline's line). */
enum act_result actions__zoom_to(struct tui *t, bool thread, s32 id,
				 const char *comm)
{
	struct row_filter *f = &t->table.filter;
	struct strbuf sb;

	if ((thread && f->has_tid) || (!thread && f->has_pid)) {
		tui__status(t, ST_ERROR, "already zoomed into a %s (Esc undoes)",
			    thread ? "thread" : "process");
		return R_REDRAW;
	}
	if (!top__push_undo(t, thread ? undo_thread : undo_process,
			    thread ? "thread zoom" : "process zoom", false))
		return R_REDRAW;
	if (thread) {
		f->has_tid = true;
		f->tid = id;
	} else {
		f->has_pid = true;
		f->pid = id;
	}
	strbuf__init(&sb);
	sanitize_str(&sb, comm ? comm : "?");
	tui__status(t, ST_NORMAL, "zoomed into %s %d (%s) (Esc undoes)",
		    thread ? "thread" : "process", id, sb.buf ? sb.buf : "");
	strbuf__fini(&sb);
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

/* K (user 0) and U (user 1): one side hidden, or shown again; the two
 * exclude each other */
enum act_result action__hide(struct tui *t, int user)
{
	struct row_filter *f = &t->table.filter;
	bool *hide = user ? &f->hide_user : &f->hide_kernel;

	if (!top__push_undo(t, undo_hide, "kernel or user symbols hidden",
			    true))
		return R_REDRAW;
	*hide = !*hide;
	if (*hide)
		*(user ? &f->hide_kernel : &f->hide_user) = false;
	top__settle_undo(t, undo_hide, same_hide);
	tui__status(t, ST_NORMAL, "%s symbols %s", user ? "user" : "kernel",
		    !*hide ? "shown" : user ? "hidden (U shows them)" :
					      "hidden (K shows them)");
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

enum act_result action__show_idle(struct tui *t, int arg)
{
	struct row_filter *f = &t->table.filter;

	(void)arg;
	/* the snapshot holds idle entries either way: a rebuild, no new
	 * snapshot */
	if (!top__push_undo(t, undo_idle, "idle rows shown", true))
		return R_REDRAW;
	f->show_idle = !f->show_idle;
	top__settle_undo(t, undo_idle, same_idle);
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

enum act_result action__zoom_dso(struct tui *t, int arg)
{
	const struct row *r = top__selected_row(t);
	struct row_filter *f = &t->table.filter;
	struct strbuf sb;

	(void)arg;
	if (!r)
		return top__no_row(t);
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
	if (!top__push_undo(t, undo_dso, "shared object zoom", false))
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

	if (!r)
		return top__no_row(t);
	if ((thread && f->has_tid) || (!thread && f->has_pid))
		return actions__zoom_to(t, thread, -1, NULL);	/* says it */
	if (!row_owner(t, r, thread, &pid, &tid, &comm)) {
		tui__status(t, ST_ERROR, "this row has no known %s",
			    thread ? "thread" : "process");
		return R_REDRAW;
	}
	return actions__zoom_to(t, thread, thread ? tid : pid, comm);
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
		return top__no_row(t);
	if (f->has_cgroup) {
		tui__status(t, ST_ERROR,
			    "already zoomed into a cgroup (Esc undoes)");
		return R_REDRAW;
	}
	if (!row_cgroup(t, r, &cg) || !cg) {
		tui__status(t, ST_ERROR, "this row has no known cgroup");
		return R_REDRAW;
	}
	if (!top__push_undo(t, undo_cgroup, "cgroup zoom", false))
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
			top__drop_undo(t, undo_sym);
			tui__status(t, ST_NORMAL, "symbol filter cleared");
		} else if (strcmp(p->buf, p->saved) != 0) {
			set_sym_filter(t, p->saved);
			if (top__push_undo(t, undo_sym, "symbol filter", false))
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
	if (!top__push_undo(t, undo_limit, "percent limit", true))
		return R_REDRAW;
	t->table.filter.percent_limit = pct;
	top__settle_undo(t, undo_limit, same_limit);
	if (pct > 0)
		tui__status(t, ST_NORMAL, "hiding rows under %g %%", pct);
	else
		tui__status(t, ST_NORMAL, "showing every row");
	return R_REBUILD;
}
