/* actions_table: the table's order (s, >, <, I), its baseline (b), and
 * what it does with a row: its menu (Enter), annotate (a), callers and
 * callees (c), saving the table or the row (P). */
#include <stdio.h>
#include <string.h>

#include "ui/report/batch.h"
#include "ui/report/sanitize.h"
#include "ui/tui/actions.h"
#include "ui/tui/save.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/view_menu.h"
#include "ui/tui/view_top.h"

/* ---- compare ---- */

enum act_result action__baseline(struct tui *t, int arg)
{
	char desc[64];

	(void)arg;
	if (t->table.base) {
		/* a mark of this session's (not --baseline FILE's) restarted
		 * the table */
		bool restarted = t->table.base->session == t->table.session &&
				 t->a->mode != HIST_ZERO;

		table__clear_baseline(&t->table);
		columns__init(&t->cols, &t->table.spec, t->a->show_period);
		tui__status(t, ST_NORMAL, "baseline cleared (b marks one)%s",
			    restarted ? "; the table counts from the mark" : "");
		return R_REBUILD;
	}
	if (!t->have_snap) {
		tui__status(t, ST_ERROR, "no table yet to mark as the baseline");
		return R_REDRAW;
	}
	if (t->a->finished) {
		tui__status(t, ST_ERROR, "nothing comes after a mark: %s (with "
			    "-i, --baseline FILE compares two recordings)",
			    t->a->input ? "the recording is read whole" :
					  "the target exited");
		return R_REDRAW;
	}
	/* -z: the table is one refresh, so is the baseline; else the table
	 * restarts from zero at the mark, so that Delta compares what comes
	 * after it with what came before (not a total that holds both) */
	if (t->a->mode == HIST_ZERO && t->window > 0)
		snprintf(desc, sizeof(desc), "marked at %.1f s (a %.1f s window)",
			 t->hi.elapsed, t->window);
	else
		snprintf(desc, sizeof(desc), "marked at %.1f s (before it)",
			 t->hi.elapsed);
	if (table__mark_baseline(&t->table, desc)) {
		tui__status(t, ST_ERROR, "out of memory: no baseline");
		return R_REDRAW;
	}
	columns__init(&t->cols, &t->table.spec, t->a->show_period);
	if (t->a->mode != HIST_ZERO) {
		session__lock(t->a->session);
		session__refresh(t->a->session, HIST_ZERO);
		session__unlock(t->a->session);
		/* the first samples since the mark soon, not a delay later */
		t->next_refresh = app__now() + MIN(0.3, t->a->delay);
		tui__status(t, ST_NORMAL, "baseline marked: the table counts "
			    "from now; Delta = since the mark - before it, in "
			    "points (b clears)");
	} else {
		tui__status(t, ST_NORMAL, "baseline marked: Delta = this "
			    "refresh - the marked one, in points (b clears)");
	}
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
		return top__no_row(t);
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
		return top__no_row(t);
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
