/* view_callers: the caller/callee view of one function: who calls it and
 * what it calls, each with its share of the function's samples, from
 * the same snapshot as the table; Enter moves to a caller or callee,
 * Esc comes back along the way taken, a annotates. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/sanitize.h"
#include "ui/tui/oom.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/view_callers.h"

static const struct list_ops callers__ops;

#define CALLERS_STACK 32

struct callers_fn {
	struct row row;		/* identity fields only */
	char name[256];		/* sanitized copies: the row's strings may
				 * be trimmed while it is on the stack */
	char dso[256];
	size_t selected;	/* the line selected when we moved on */
};

enum cl_kind {
	CL_TITLE_CALLERS,
	CL_CALLER,		/* idx: nb.callers */
	CL_NO_CALLER,
	CL_FUNC,		/* the function itself */
	CL_TITLE_CALLEES,
	CL_SELF,
	CL_CALLEE,		/* idx: nb.callees */
	CL_NO_CALLEE,
	CL_GONE,		/* no sample of it in this window */
};

struct cl_line {
	enum cl_kind kind;
	size_t idx;
};

struct callers {
	struct tui *t;
	struct listview lv;
	bool open;
	struct callers_fn fn;
	struct callers_fn stack[CALLERS_STACK];
	size_t depth;
	struct cg_neighbours nb;
	struct cl_line *lines;
	size_t nr_lines, cap_lines;
	size_t dso_width;
};

static struct callers *callers__new(struct tui *t)
{
	struct callers *c = calloc(1, sizeof(*c));

	if (!c)
		oom__die();
	c->t = t;
	listview__init(&c->lv, &callers__ops, c);
	cg_neighbours__init(&c->nb);
	return c;
}

/* The view's state, NULL until first opened. */
static struct callers *callers_of(struct tui *t)
{
	return *tui__state(t, V_CALLERS);
}

static void callers__free(struct tui *t)
{
	struct callers *c = callers_of(t);

	if (!c)
		return;
	listview__fini(&c->lv);
	cg_neighbours__fini(&c->nb);
	free(c->lines);
	free(c);
}

static struct listview *callers__list(struct tui *t)
{
	struct callers *c = callers_of(t);

	return c ? &c->lv : NULL;
}

static void add_line(struct callers *c, enum cl_kind kind, size_t idx)
{
	if (array__grow((void **)&c->lines, &c->cap_lines, c->nr_lines + 1,
			sizeof(*c->lines)))
		oom__die();
	c->lines[c->nr_lines++] = (struct cl_line){ kind, idx };
}

static void dso_width(struct callers *c, const struct row *r)
{
	struct strbuf sb;
	size_t w;

	strbuf__init(&sb);
	sanitize_str(&sb, r->dso_name);
	w = display_width(sb.buf ? sb.buf : "", sb.len);
	c->dso_width = MAX(c->dso_width, MIN(w, 24));
	strbuf__fini(&sb);
}

/* The lines from the neighbours of the function in the last rows. */
static void callers__lines(struct callers *c)
{
	struct cg_neighbours *nb = &c->nb;

	c->nr_lines = 0;
	c->dso_width = 0;
	if (!nb->total_samples && !nb->total_period) {
		add_line(c, CL_GONE, 0);
		return;
	}
	add_line(c, CL_TITLE_CALLERS, 0);
	for (size_t i = 0; i < nb->nr_callers; i++) {
		add_line(c, CL_CALLER, i);
		dso_width(c, &nb->callers[i]);
	}
	if (!nb->nr_callers)
		add_line(c, CL_NO_CALLER, 0);
	add_line(c, CL_FUNC, 0);
	add_line(c, CL_TITLE_CALLEES, 0);
	if (nb->self_samples || nb->self_period)
		add_line(c, CL_SELF, 0);
	for (size_t i = 0; i < nb->nr_callees; i++) {
		add_line(c, CL_CALLEE, i);
		dso_width(c, &nb->callees[i]);
	}
	if (!nb->nr_callees)
		add_line(c, CL_NO_CALLEE, 0);
}

static int callers__update(struct tui *t)
{
	struct callers *c = callers_of(t);
	enum cl_kind kind = CL_GONE;
	struct row sel = { 0 };
	size_t i;

	if (!c || !c->open)
		return 0;
	/* the selected caller or callee stays selected when shares move */
	if (listview__selected(&c->lv, &i) && i < c->nr_lines) {
		const struct cl_line *l = &c->lines[i];

		kind = l->kind;
		if (kind == CL_CALLER)
			sel = c->nb.callers[l->idx];
		else if (kind == CL_CALLEE)
			sel = c->nb.callees[l->idx];
	}
	if (rowset__neighbours(&t->table.rows, &c->fn.row, &c->nb)) {
		c->nb.nr_callers = c->nb.nr_callees = 0;
		tui__status(t, ST_ERROR, "callers: out of memory");
	}
	callers__lines(c);
	listview__update(&c->lv);
	if (kind != CL_CALLER && kind != CL_CALLEE)
		return 0;
	for (i = 0; i < c->nr_lines; i++) {
		const struct cl_line *l = &c->lines[i];
		const struct row *r = l->kind != kind ? NULL :
				      kind == CL_CALLER ?
				      &c->nb.callers[l->idx] :
				      &c->nb.callees[l->idx];

		if (r && rowset__same_row(&t->table.rows, r, &sel)) {
			listview__select_row(&c->lv, i);
			break;
		}
	}
	return 0;
}

/* The first caller (or callee) line: where the eye goes first. */
static void select_first(struct callers *c)
{
	for (size_t i = 0; i < c->nr_lines; i++) {
		if (c->lines[i].kind == CL_CALLER ||
		    c->lines[i].kind == CL_CALLEE) {
			listview__select_row(&c->lv, i);
			return;
		}
	}
	c->lv.selected = c->lv.top = 0;
}

/* Names in titles: cut by columns (never inside a UTF-8 character), so
 * that the copy fits its buffer (60 columns of at most 4 bytes). */
#define NAME_COLS 60

static void copy_name(char *dst, size_t len, const struct strbuf *clean,
		      bool left)
{
	struct strbuf cut;

	strbuf__init(&cut);
	fit_width(&cut, clean->buf ? clean->buf : "", NAME_COLS, false, left);
	snprintf(dst, len, "%s", cut.buf ? cut.buf : "");
	strbuf__fini(&cut);
}

static void set_fn(struct callers *c, const struct row *r)
{
	struct strbuf sb;

	memset(&c->fn, 0, sizeof(c->fn));
	c->fn.row = *r;
	c->fn.row.samples = c->fn.row.period = 0;
	c->fn.row.children_samples = c->fn.row.children_period = 0;
	strbuf__init(&sb);
	fmt__symbol(&sb, r);
	copy_name(c->fn.name, sizeof(c->fn.name), &sb, false);
	strbuf__reset(&sb);
	sanitize_str(&sb, r->dso_name);
	copy_name(c->fn.dso, sizeof(c->fn.dso), &sb, true);
	strbuf__fini(&sb);
}

/* Opens it on r's function (identity fields only). */
static enum act_result callers__open(struct tui *t, const void *arg)
{
	const struct row *r = arg;
	struct callers *c;

	if (!callers_of(t))
		*tui__state(t, V_CALLERS) = callers__new(t);
	c = callers_of(t);
	set_fn(c, r);
	c->depth = 0;
	c->open = true;
	listview__set_filter(&c->lv, NULL);
	callers__update(t);
	select_first(c);
	tui__push(t, V_CALLERS);
	return R_REDRAW;
}

/* The function of the selected line: a caller, a callee, or the one
 * shown. */
static const struct row *selected_fn(struct callers *c, bool *neighbour)
{
	size_t i;

	*neighbour = false;
	if (listview__selected(&c->lv, &i) && i < c->nr_lines) {
		const struct cl_line *l = &c->lines[i];

		*neighbour = true;
		if (l->kind == CL_CALLER && l->idx < c->nb.nr_callers)
			return &c->nb.callers[l->idx];
		if (l->kind == CL_CALLEE && l->idx < c->nb.nr_callees)
			return &c->nb.callees[l->idx];
	}
	*neighbour = false;
	return &c->fn.row;
}

enum act_result action__callers_enter(struct tui *t, int arg)
{
	struct callers *c = callers_of(t);
	const struct row *r;
	struct row next;
	bool neighbour;

	(void)arg;
	if (!c)
		return R_NONE;
	r = selected_fn(c, &neighbour);
	if (!neighbour) {
		tui__status(t, ST_NORMAL,
			    "Enter on a caller or a callee moves to it");
		return R_REDRAW;
	}
	next = *r;
	if (c->depth == CALLERS_STACK) {
		memmove(&c->stack[0], &c->stack[1],
			(CALLERS_STACK - 1) * sizeof(c->stack[0]));
		c->depth--;
	}
	c->fn.selected = c->lv.selected;
	c->stack[c->depth++] = c->fn;
	set_fn(c, &next);
	callers__update(t);
	select_first(c);
	return R_REDRAW;
}

enum act_result action__callers_close(struct tui *t, int arg)
{
	struct callers *c = callers_of(t);

	(void)arg;
	if (c) {
		c->open = false;
		c->depth = 0;
	}
	tui__pop(t);
	return R_REDRAW;
}

enum act_result action__callers_back(struct tui *t, int arg)
{
	struct callers *c = callers_of(t);

	(void)arg;
	if (!c || !c->depth)
		return action__callers_close(t, 0);
	c->fn = c->stack[--c->depth];
	callers__update(t);
	c->lv.selected = c->fn.selected;
	listview__update(&c->lv);
	return R_REDRAW;
}

enum act_result action__callers_annotate(struct tui *t, int arg)
{
	bool neighbour;

	(void)arg;
	if (!callers_of(t))
		return R_NONE;
	return tui__open_view(t, V_ANNOTATE,
			      selected_fn(callers_of(t), &neighbour));
}

/* ---- the list ---- */

static size_t callers__nr_rows(void *ctx)
{
	return ((struct callers *)ctx)->nr_lines;
}

static void callers__header(void *ctx, struct screen *s, size_t y)
{
	struct callers *c = ctx;
	const struct rowset *rs = &c->t->table.rows;
	double all = 0, self = 0;

	if (rs->total_period) {
		all = 100.0 * (double)c->nb.total_period /
		      (double)rs->total_period;
		self = 100.0 * (double)c->nb.self_period /
		       (double)rs->total_period;
	} else if (rs->total_samples) {
		all = 100.0 * (double)c->nb.total_samples /
		      (double)rs->total_samples;
		self = 100.0 * (double)c->nb.self_samples /
		       (double)rs->total_samples;
	}
	/* names were sanitized when the function was chosen */
	screen__addf(s, y, ST_TITLE,
		     "Callers and callees of %s (%s): %.2f%% of all samples, "
		     "self %.2f%%", c->fn.name, c->fn.dso, all, self);
	if (c->depth)
		screen__addf(s, y, ST_TITLE, "  [%zu back with Esc]",
			     c->depth);
	screen__fill(s, y, ST_TITLE);
}

/* "   67.12%  cgwork   [.] caller_x" */
static void neighbour_line(struct callers *c, const struct row *r,
			   struct screen *s, size_t y)
{
	double pct = share_percent(r->period, r->samples,
				   c->nb.total_period, c->nb.total_samples);
	struct strbuf sb, dso;
	size_t w, at;

	strbuf__init(&sb);
	strbuf__init(&dso);
	strbuf__addf(&sb, "   %7.2f%%  ", pct);
	at = sb.len;
	sanitize_str(&dso, r->dso_name);
	/* the column is capped: a longer name pushes the symbol right */
	w = display_width(dso.buf ? dso.buf : "", dso.len);
	strbuf__add(&sb, dso.buf ? dso.buf : "", dso.len);
	for (; w < c->dso_width; w++)
		strbuf__addc(&sb, ' ');
	strbuf__addf(&sb, "  %s ", fmt__mode(r));
	fmt__symbol(&sb, r);
	screen__add(s, y, ST_NORMAL, sb.buf ? sb.buf : "");
	screen__style(s, y, 3, at - 2, tui__share_style(pct));
	strbuf__fini(&dso);
	strbuf__fini(&sb);
}

static void callers__row(void *ctx, size_t i, struct screen *s, size_t y)
{
	struct callers *c = ctx;
	const struct cl_line *l = &c->lines[i];
	double pct;

	switch (l->kind) {
	case CL_TITLE_CALLERS:
		screen__addf(s, y, ST_BOLD,
			     "Callers: who calls %s (%% of its samples)",
			     c->fn.name);
		break;
	case CL_CALLER:
		neighbour_line(c, &c->nb.callers[l->idx], s, y);
		break;
	case CL_NO_CALLER:
		screen__add(s, y, ST_NORMAL,
			    "   none: its chains start here");
		break;
	case CL_FUNC:
		screen__addf(s, y, ST_BOLD, "  -> %s", c->fn.name);
		break;
	case CL_TITLE_CALLEES:
		screen__addf(s, y, ST_BOLD,
			     "Callees: what %s calls (%% of its samples)",
			     c->fn.name);
		break;
	case CL_SELF:
		pct = share_percent(c->nb.self_period, c->nb.self_samples,
				    c->nb.total_period, c->nb.total_samples);
		screen__addf(s, y, ST_NORMAL,
			     "   %7.2f%%  (self: in %s itself)", pct,
			     c->fn.name);
		screen__style(s, y, 3, 11, tui__share_style(pct));
		break;
	case CL_CALLEE:
		neighbour_line(c, &c->nb.callees[l->idx], s, y);
		break;
	case CL_NO_CALLEE:
		screen__add(s, y, ST_NORMAL,
			    "   none: it calls nothing sampled");
		break;
	case CL_GONE:
		screen__addf(s, y, ST_NORMAL,
			     "  no sample of %s in this window (Esc: back)",
			     c->fn.name);
		break;
	}
}

static void callers__text(void *ctx, size_t i, struct strbuf *sb)
{
	struct callers *c = ctx;
	const struct cl_line *l = &c->lines[i];

	if (l->kind == CL_CALLER)
		fmt__symbol(sb, &c->nb.callers[l->idx]);
	else if (l->kind == CL_CALLEE)
		fmt__symbol(sb, &c->nb.callees[l->idx]);
}

static const struct list_ops callers__ops = {
	.nr_rows = callers__nr_rows,
	.format_header = callers__header,
	.format_row = callers__row,
	.row_text = callers__text,
};

const struct view_ops callers__view = {
	.view = V_CALLERS,
	.name = "callers",
	.open = callers__open,
	.list = callers__list,
	.update = callers__update,
	.free = callers__free,
};
