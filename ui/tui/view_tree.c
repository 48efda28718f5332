/* view_tree: call trees under the table's rows (+, E, C, G): the glue
 * between the table view and treelines; actions never draw, they return
 * what must happen (a rebuild draws the trees). */
#include <stdio.h>

#include "ui/report/inlines.h"
#include "ui/report/sanitize.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/view_top.h"
#include "ui/tui/view_tree.h"

/* The inline lookups of trees and of --inline's rows: the live view's
 * one cache, which the trees use once it is made, for their frames when
 * inlined functions are frames of their own (tui__frame_inlines). */
static struct inlines *treeview__inlines(struct tui *t)
{
	struct treelines *ct = &top__of(t)->ct;
	struct inlines *in = tui__inlines(t);

	ct->inl = in && t->inline_frames ? inlines__get : NULL;
	ct->inl_ctx = in;
	return in;
}

int treeview__build(struct tui *t)
{
	struct top_view *top = top__of(t);
	struct treelines *ct = &top->ct;

	/* DWARF is read only for the frames of expanded trees (and for
	 * every frame with --inline's rows); a cache another view made is
	 * the trees' too */
	if (ct->all || ct->nr_ids || t->inlines)
		treeview__inlines(t);
	/* the trees of the rows shown, and two screens more (the others
	 * as they are shown: top__render) */
	ct->want_row = 0;
	ct->want_lines = top->lv.top + 3 * MAX(top->lv.page, (size_t)40);
	return treelines__build(ct, &t->table.rows);
}

void treeview__set_inline_rows(struct tui *t, bool on)
{
	struct inlines *in = on ? treeview__inlines(t) : NULL;

	top__of(t)->inline_rows = in != NULL;
	rowset__set_inline_rows(&t->table.rows, in ? inlines__get : NULL, in);
	/* the trees' frames follow: the run's default (main.c), or with
	 * the rows of l */
	t->inline_frames = t->a->inline_frames || in;
	treeview__inlines(t);
}

enum act_result action__inline_rows(struct tui *t, int arg)
{
	(void)arg;
	if (!tui__has_chains(t))
		return tui__no_chains(t);
	if (!t->table.spec.children) {
		tui__status(t, ST_ERROR, "rows of inlined functions are "
			    "Children rows: not with --no-children");
		return R_REDRAW;
	}
	treeview__set_inline_rows(t, !top__of(t)->inline_rows);
	tui__status(t, ST_NORMAL, "%s",
		    top__of(t)->inline_rows ? "inlined functions have rows of their "
				     "own (Children only), as perf report's "
				     "\"(inlined)\"" :
				     "no rows for inlined functions");
	return R_REBUILD;
}

static bool selected_index(struct tui *t, size_t *i)
{
	size_t sub;
	const struct row *r = top__selected_line(t, &sub, NULL);

	if (!r) {
		tui__status(t, ST_ERROR, "no row selected");
		return false;
	}
	*i = (size_t)(r - t->table.rows.rows);
	return true;
}

enum act_result action__tree_toggle(struct tui *t, int arg)
{
	struct strbuf sb;
	size_t i;
	bool on;

	(void)arg;
	if (!tui__has_chains(t))
		return tui__no_chains(t);
	if (!selected_index(t, &i))
		return R_REDRAW;
	on = treelines__toggle(&top__of(t)->ct, &t->table.rows, i);
	/* the selection stays on the row (off a tree line it collapsed) */
	top__remember_selection(t);
	top__of(t)->sel_sub = 0;
	strbuf__init(&sb);
	fmt__symbol(&sb, &t->table.rows.rows[i]);
	if (on)
		tui__status(t, ST_NORMAL,
			    "call tree of %s, %% of its total (+ collapses, "
			    "G flips callers/callees)", sb.buf ? sb.buf : "");
	else
		tui__status(t, ST_NORMAL, "call tree of %s collapsed",
			    sb.buf ? sb.buf : "");
	strbuf__fini(&sb);
	return R_REBUILD;
}

enum act_result action__tree_expand_all(struct tui *t, int arg)
{
	(void)arg;
	if (!tui__has_chains(t))
		return tui__no_chains(t);
	top__remember_selection(t);
	treelines__expand_all(&top__of(t)->ct);
	if (t->table.rows.nr > CT_MAX_TREES)
		tui__status(t, ST_NORMAL,
			    "call trees of the first %d rows expanded "
			    "(C collapses them)", CT_MAX_TREES);
	else
		tui__status(t, ST_NORMAL,
			    "every call tree expanded (C collapses them)");
	return R_REBUILD;
}

enum act_result action__tree_collapse_all(struct tui *t, int arg)
{
	(void)arg;
	if (!tui__has_chains(t))
		return tui__no_chains(t);
	top__remember_selection(t);
	top__of(t)->sel_sub = 0;
	treelines__collapse_all(&top__of(t)->ct);
	tui__status(t, ST_NORMAL, "every call tree collapsed");
	return R_REBUILD;
}

/* F5, htop's tree view: every tree expanded, or (some were) collapsed */
enum act_result action__tree_all(struct tui *t, int arg)
{
	const struct treelines *ct = &top__of(t)->ct;

	if (tui__has_chains(t) && (ct->all || ct->nr_ids))
		return action__tree_collapse_all(t, arg);
	return action__tree_expand_all(t, arg);
}

enum act_result action__tree_order(struct tui *t, int arg)
{
	struct treelines *ct = &top__of(t)->ct;

	(void)arg;
	if (!tui__has_chains(t))
		return tui__no_chains(t);
	top__remember_selection(t);
	top__of(t)->sel_sub = 0;
	ct->order = ct->order == CG_CALLER ? CG_CALLEE : CG_CALLER;
	tui__status(t, ST_NORMAL, "%s",
		    ct->order == CG_CALLER ?
			    "call trees in caller order: each caller above "
			    "its callees" :
			    "call trees in callee order: each callee above "
			    "its callers");
	return R_REBUILD;
}

const char *treeview__order_name(const struct tui *t)
{
	return top__of(t)->ct.order == CG_CALLER ? "callers" : "callees";
}
