/* actions_table: the table's order (s, >, <, I), its baseline (b), and
 * what it does with a row: its menu (Enter), annotate (a), callers and
 * callees (c), saving the table or the row (P). */
#include <stdio.h>
#include <string.h>

#include "src/sys/clock.h"
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
	u64 ws, we;

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
	/* a time window: it is the baseline, another window (w) is
	 * compared with it; the session goes on as it was */
	if (t->table.windowed && table__window_span(&t->table, &ws, &we)) {
		u64 o = timeline__origin(t->table.tl);

		snprintf(desc, sizeof(desc), "the window +%.1f to +%.1f s",
			 (double)(ws - o) / 1e9, (double)(we - o) / 1e9);
		if (table__mark_baseline(&t->table, desc)) {
			tui__status(t, ST_ERROR, "out of memory: no baseline");
			return R_REDRAW;
		}
		columns__init(&t->cols, &t->table.spec, t->a->show_period);
		tui__status(t, ST_NORMAL, "baseline marked: %s; Delta = another "
			    "window (w) - it, in points (b clears)", desc);
		return R_REBUILD;
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
	if (t->a->mode == HIST_ZERO && t->refresh.window > 0)
		snprintf(desc, sizeof(desc), "marked at %.1f s (a %.1f s window)",
			 t->hi.elapsed, t->refresh.window);
	else
		snprintf(desc, sizeof(desc), "marked at %.1f s (before it)",
			 t->hi.elapsed);
	if (table__mark_baseline(&t->table, desc)) {
		tui__status(t, ST_ERROR, "out of memory: no baseline");
		return R_REDRAW;
	}
	columns__init(&t->cols, &t->table.spec, t->a->show_period);
	if (t->a->mode != HIST_ZERO) {
		table__zero_session(&t->table);
		/* the first samples since the mark soon, not a delay later */
		t->next_refresh = clock__now() + MIN(0.3, t->a->delay);
		tui__status(t, ST_NORMAL, "baseline marked: the table counts "
			    "from now; Delta = since the mark - before it, in "
			    "points (b clears)");
	} else {
		tui__status(t, ST_NORMAL, "baseline marked: Delta = this "
			    "refresh - the marked one, in points (b clears)");
	}
	return R_REBUILD;
}

/* ---- order and grouping, apart: what rows are ordered by never
 * changes what they are grouped by ---- */

static const enum sort_key count_orders[] = {
	SORT_OVERHEAD, SORT_SAMPLES, SORT_PERIOD, SORT_DELTA, SORT_ABSDELTA,
};

static const enum sort_key group_keys[] = {
	SORT_DSO, SORT_SYM, SORT_COMM, SORT_PID, SORT_TID, SORT_CPU,
	SORT_CGROUP, SORT_STATE,
};

/* What rows can be ordered by: their counts (delta and absdelta only
 * against a baseline), then the columns they are grouped by (A to Z,
 * or by number). */
static size_t orders(const struct tui *t, enum sort_key *out)
{
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(count_orders); i++)
		if (t->table.base || (count_orders[i] != SORT_DELTA &&
				      count_orders[i] != SORT_ABSDELTA))
			out[n++] = count_orders[i];
	for (size_t i = 0; i < t->base.nr_group; i++)
		out[n++] = t->base.group[i];
	return n;
}

static void undo_group(struct tui *t, const struct undo *u)
{
	enum sort_key k = t->table.spec.order;

	memcpy(t->base.group, u->prev_spec.group, sizeof(t->base.group));
	t->base.nr_group = u->prev_spec.nr_group;
	if (sort_key__groups(k) && !sort_spec__has(&t->base, k))
		k = SORT_OVERHEAD;
	tui__set_order(t, k, t->table.spec.invert);
}

static bool same_group(const struct tui *t, const struct undo *u)
{
	return t->base.nr_group == u->prev_spec.nr_group &&
	       !memcmp(t->base.group, u->prev_spec.group,
		       t->base.nr_group * sizeof(t->base.group[0]));
}

enum act_result actions__toggle_group(struct tui *t, enum sort_key k)
{
	struct sort_spec *b = &t->base;
	enum sort_key order = t->table.spec.order;
	bool on = !sort_spec__has(b, k);

	if (!on && b->nr_group == 1) {
		tui__status(t, ST_ERROR, "rows are grouped by one column at "
			    "least");
		return R_REDRAW;
	}
	if (!top__push_undo(t, undo_group, "grouping", true))
		return R_REDRAW;
	if (on) {
		b->group[b->nr_group++] = k;
	} else {
		size_t j = 0;

		for (size_t i = 0; i < b->nr_group; i++)
			if (b->group[i] != k)
				b->group[j++] = b->group[i];
		b->nr_group = j;
	}
	/* the order stays, but for the column that went */
	if (order == k && !on)
		order = SORT_OVERHEAD;
	tui__set_order(t, order, t->table.spec.invert);
	top__settle_undo(t, undo_group, same_group);
	tui__status(t, ST_NORMAL, "%s by %s; sorted by %s", on ? "grouped "
		    "too" : "no longer grouped", sort_key__name(k),
		    sort_key__name(t->table.spec.order));
	return R_REBUILD;
}

/* menu ids: an order key, a grouping key | GROUP_ID, or a title */
#define GROUP_ID 0x100
#define TITLE_ID (-1)

static enum act_result pick_sort(struct tui *t, int id);

static enum act_result sort_picker(struct tui *t, int select)
{
	struct menu menu, *m = &menu;
	enum sort_key ord[SORT__MAX];
	size_t n = orders(t, ord);
	struct listview *lv;

	memset(m, 0, sizeof(*m));
	snprintf(m->title, sizeof(m->title),
		 "Sort and group (Enter picks, Esc back)");
#define ITEM(id_, ...)                                                       	do {                                                                 		snprintf(m->items[m->nr].label, sizeof(m->items[0].label),   			 __VA_ARGS__);                                       		m->items[m->nr++].id = (id_);                                	} while (0)
	ITEM(TITLE_ID, "Order by");
	for (size_t i = 0; i < n && m->nr < ARRAY_SIZE(m->items); i++)
		ITEM((int)ord[i], "  %s %s%s", t->table.spec.order == ord[i] ?
		     "*" : " ", sort_key__name(ord[i]),
		     sort_key__groups(ord[i]) ? " (A to Z)" : "");
	ITEM(TITLE_ID, "Group by (Enter adds or removes a column)");
	for (size_t i = 0; i < ARRAY_SIZE(group_keys) &&
			   m->nr < ARRAY_SIZE(m->items); i++)
		ITEM((int)group_keys[i] | GROUP_ID, "  [%c] %s",
		     sort_spec__has(&t->base, group_keys[i]) ? 'x' : ' ',
		     sort_key__name(group_keys[i]));
#undef ITEM
	m->pick = pick_sort;
	tui__open_view(t, V_MENU, m);
	lv = tui__list(t, V_MENU);
	for (size_t i = 0; i < m->nr; i++)
		if (m->items[i].id == select)
			listview__select_row(lv, i);
	return R_REDRAW;
}

static enum act_result pick_sort(struct tui *t, int id)
{
	enum act_result r;

	if (id == TITLE_ID)
		return sort_picker(t, (int)t->table.spec.order);
	if (!(id & GROUP_ID))
		return top__set_order(t, (enum sort_key)id,
					  t->table.spec.invert);
	/* a grouping: the picker stays open for the next one */
	r = actions__toggle_group(t, (enum sort_key)(id & ~GROUP_ID));
	sort_picker(t, id);
	return r == R_REDRAW ? R_REDRAW : R_REBUILD;
}

enum act_result action__sort_picker(struct tui *t, int arg)
{
	(void)arg;
	return sort_picker(t, (int)t->table.spec.order);
}

enum act_result action__sort_cycle(struct tui *t, int dir)
{
	enum sort_key ord[SORT__MAX];
	size_t n = orders(t, ord), i = 0;

	while (i < n && ord[i] != t->table.spec.order)
		i++;
	i = i == n ? 0 : (i + n + (size_t)(dir > 0 ? 1 : n - 1)) % n;
	return top__set_order(t, ord[i], t->table.spec.invert);
}

enum act_result action__sort_invert(struct tui *t, int arg)
{
	(void)arg;
	return top__set_order(t, t->table.spec.order,
				  !t->table.spec.invert);
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
	struct header_info hi = t->hi;
	struct strbuf sb;

	(void)arg;
	if (!t->have_snap) {
		tui__status(t, ST_ERROR, "nothing to save yet");
		return R_REDRAW;
	}
	strbuf__init(&sb);
	/* the same text as batch mode prints: the target whole */
	hi.width = 0;
	batch__format(&sb, &bo, &t->table, &hi);
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
	if (id == MENU_COPY)
		return copy_row(t);
	return tui__key_in(t, id, V_TOP);
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
			 treelines__expanded(&top__of(t)->ct, &t->table.rows,
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

enum act_result action__history(struct tui *t, int arg)
{
	(void)arg;
	if (!t->table.tl) {
		tui__status(t, ST_ERROR, "no history is kept");
		return R_REDRAW;
	}
	t->a->history = !t->a->history;
	t->table.history = t->a->history ? TUI_HISTORY : 0;
	tui__status(t, ST_NORMAL, "%s", t->a->history ?
		    "History: each row's share over time (the last refreshes, "
		    "or the recording)" :
		    "History column hidden (H shows it)");
	return R_REBUILD;
}
