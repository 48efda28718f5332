/* view_timeline: samples over time, one line each for the whole target,
 * the table's selected row (where that function ran) and every process
 * or thread, hottest first (ui/report/lanes.c makes the lines from the
 * timeline's cells).  A cursor walks the columns; Space marks one end of
 * a time window and Space or Enter the other (or the mouse drags over
 * it): every view then shows that window alone, and Esc in the table
 * undoes it.  Enter (a double click) on a process or thread zooms the
 * table into it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/fmt.h"
#include "ui/report/lanes.h"
#include "ui/report/sanitize.h"
#include "ui/tui/actions.h"
#include "ui/tui/mouse.h"
#include "ui/tui/oom.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/view_timeline.h"
#include "ui/tui/view_top.h"

/* The labels' columns, left of the lines. */
#define TL_LABEL 26
/* The fixed lines: every sample, the selected row. */
#define TL_ALL 0
#define TL_SEL 1
#define TL_OWNERS 2

struct tlview {
	struct lanes lanes;
	size_t width;		/* the lines' columns at the last draw */
	size_t per;		/* screen columns a bucket */
	u64 cursor, mark;	/* a column, by the start of its time */
	bool marking, follow;
	size_t line;		/* TL_ALL, TL_SEL, TL_OWNERS + an owner */
	size_t first_owner;	/* scrolling */
	bool by_thread;
	bool built, inited;
	/* the mouse: where the lines were drawn (the first line's screen
	 * row, how many), and a drag from a press on a column */
	size_t lines_y, nr_lines;
	u64 anchor;		/* the press's column, by its start */
	bool pressed, dragged;
	struct strbuf sb, name;
	double *vals;
	size_t cap_vals;
};

static struct tlview *tlv_of(const struct tui *t)
{
	return tui__state_of(t, V_TIMELINE);
}

static bool tl__on_stack(const struct tui *t)
{
	for (size_t d = 0; d < t->depth; d++)
		if (t->stack[d] == V_TIMELINE)
			return true;
	return false;
}

/* Column b's span (ns). */
static void col_span(const struct tui *t, const struct tlview *v, size_t b,
		     u64 *start, u64 *end)
{
	const struct series_buf *sb = &v->lanes.buf;
	u64 s, e;

	*start = *end = 0;
	if (b >= v->lanes.nb || sb->first[b] == sb->end[b])
		return;
	timeline__cell_span(t->table.tl, sb->first[b], start, &e);
	timeline__cell_span(t->table.tl, sb->end[b] - 1, &s, end);
}

/* The column that holds time ns (the nearest). */
static size_t column_of(const struct tui *t, const struct tlview *v, u64 ns)
{
	size_t best = 0;

	for (size_t b = 0; b < v->lanes.nb; b++) {
		u64 s, e;

		col_span(t, v, b, &s, &e);
		if (!e)
			continue;
		if (s <= ns)
			best = b;
		if (ns < e)
			break;
	}
	return best;
}

static double rel(const struct tui *t, u64 ns)
{
	u64 o = timeline__origin(t->table.tl);

	return ns > o ? (double)(ns - o) / 1e9 : 0.0;
}

/* The table's selected row as a row of its rowset, or -1. */
static long selected_row(const struct tui *t)
{
	const struct row *r = top__selected_row(t);

	if (!r || r->inlined || r->cmp == CMP_GONE)
		return -1;
	return (long)(r - t->table.rows.rows);
}

/* The lines from the timeline's cells, for the shown event. */
static void tl__build(struct tui *t)
{
	struct tlview *v = tlv_of(t);
	struct timeline *tl = t->table.tl;
	size_t n, nb, ev = t->table.ev;
	const struct snapshot *like;
	int err;

	if (!v || !tl || !t->have_snap || !v->width)
		return;
	n = timeline__nr_cells(tl);
	nb = MIN(n, v->width);
	/* the live snapshot's counters (a window's are the same) */
	like = ev < t->table.nr_snaps ? &t->table.snaps[ev] : NULL;
	err = lanes__build(&v->lanes, tl, ev, 0, n, nb, &t->table.rows,
			   selected_row(t), &t->table.filter, v->by_thread,
			   t->table.resolve, t->table.resolve_ctx, like);
	if (err == -ENOMEM)
		oom__die();
	v->built = !err;
	v->per = nb ? MAX(v->width / nb, (size_t)1) : 1;
	if (v->follow && v->lanes.nb) {
		u64 e;

		col_span(t, v, v->lanes.nb - 1, &v->cursor, &e);
	}
}

static int tl__update(struct tui *t)
{
	if (tlv_of(t) && tl__on_stack(t))
		tl__build(t);
	return 0;
}

static enum act_result tl__open(struct tui *t, const void *arg)
{
	struct tlview *v;

	(void)arg;
	if (!t->table.tl) {
		tui__status(t, ST_ERROR, "no timeline is kept in this session");
		return R_REDRAW;
	}
	v = tui__state_new(t, V_TIMELINE, sizeof(*v));
	if (!v->inited) {
		lanes__init(&v->lanes);
		strbuf__init(&v->sb);
		strbuf__init(&v->name);
		v->inited = true;
	}
	v->marking = false;
	v->follow = true;
	v->line = TL_ALL;
	v->first_owner = 0;
	tui__push(t, V_TIMELINE);
	tl__build(t);
	tui__status(t, ST_NORMAL,
		    "timeline: Left/Right move in time, Space marks a window "
		    "(Space again sets it), Enter on a thread zooms into it, "
		    "q back");
	return R_REDRAW;
}

static void tl__free(struct tui *t)
{
	struct tlview *v = tlv_of(t);

	if (!v)
		return;
	lanes__fini(&v->lanes);
	strbuf__fini(&v->sb);
	strbuf__fini(&v->name);
	free(v->vals);
	free(v);
	*tui__state(t, V_TIMELINE) = NULL;
}

/* ---- drawing ---- */

static void vals__reserve(struct tlview *v)
{
	if (array__grow((void **)&v->vals, &v->cap_vals,
			v->lanes.nb ? v->lanes.nb : 1, sizeof(*v->vals)))
		oom__die();
}

/* A line: its label (sanitized) then each column's value of v->vals
 * as a block scaled to the line's largest, with the window, the mark
 * and the cursor styled. */
static void draw_line(struct tui *t, struct tlview *v, struct screen *s,
		      size_t y, const char *label, bool selected)
{
	struct strbuf *sb = &v->sb;
	size_t nb = v->lanes.nb, off0, c_win0 = 0, c_win1 = 0;
	size_t m0 = 0, m1 = 0, cur = column_of(t, v, v->cursor);
	size_t at[2] = { 0, 0 };
	double max = 0;
	u64 ws, we;

	strbuf__reset(sb);
	fit_width(sb, label, TL_LABEL, true, false);
	strbuf__addc(sb, ' ');
	off0 = sb->len;
	for (size_t b = 0; b < nb; b++)
		max = MAX(max, v->vals[b]);
	if (table__window_span(&t->table, &ws, &we)) {
		c_win0 = column_of(t, v, ws);
		c_win1 = column_of(t, v, we - 1) + 1;
	}
	if (v->marking) {
		size_t mc = column_of(t, v, v->mark);

		m0 = MIN(mc, cur);
		m1 = MAX(mc, cur) + 1;
	}
	screen__addn(s, y, ST_NORMAL, sb->buf, sb->len);
	if (selected)
		screen__style(s, y, 0, off0 - 1, ST_SELECTED);
	for (size_t b = 0; b < nb; b++) {
		enum style st = b == cur ? ST_SELECTED :
				b >= m0 && b < m1 ? ST_FL_MATCH :
				b >= c_win0 && b < c_win1 ? ST_MEDIUM :
							   ST_NORMAL;

		strbuf__reset(sb);
		for (size_t k = 0; k < v->per; k++)
			fmt__spark_char(sb, v->vals[b], max);
		at[0] = strlen(screen__text(s, y));
		screen__addn(s, y, ST_NORMAL, sb->buf, sb->len);
		at[1] = strlen(screen__text(s, y));
		if (st != ST_NORMAL && at[1] > at[0])
			screen__style(s, y, at[0], at[1], st);
	}
}

/* "+0s   +10s ..." under the lines' columns. */
static void draw_axis(struct tui *t, struct tlview *v, struct screen *s,
		      size_t y)
{
	static const double steps[] = { 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1,
					 2, 5, 10, 15, 30, 60, 120, 300, 600,
					 900, 1800, 3600, 7200, 21600, 43200,
					 86400 };
	struct strbuf *sb = &v->sb;
	size_t nb = v->lanes.nb, next = 0;
	double span, step = steps[ARRAY_SIZE(steps) - 1];
	u64 s0, e0, s1, e1;
	long last = -1;

	if (!nb)
		return;
	col_span(t, v, 0, &s0, &e0);
	col_span(t, v, nb - 1, &s1, &e1);
	span = rel(t, e1) - rel(t, s0);
	/* a label every 12 columns or so */
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++)
		if (span / steps[i] <= (double)(nb * v->per) / 12.0) {
			step = steps[i];
			break;
		}
	strbuf__reset(sb);
	fit_width(sb, "seconds from the start", TL_LABEL, true, false);
	strbuf__addc(sb, ' ');
	screen__addn(s, y, ST_TITLE, sb->buf, sb->len);
	for (size_t b = 0; b < nb; b++) {
		u64 cs, ce;
		long k;
		char lab[32];

		col_span(t, v, b, &cs, &ce);
		k = (long)(rel(t, cs) / step + 1e-9);
		if (k == last || b * v->per < next)
			continue;
		last = k;
		snprintf(lab, sizeof(lab), "|%g", (double)k * step);
		screen__pad(s, y, TL_LABEL + 1 + b * v->per);
		screen__add(s, y, ST_TITLE, lab);
		next = b * v->per + strlen(lab) + 1;
	}
}

/* Column b's value as a rate: its cells may differ in length (refreshes
 * come late, the last one is short). */
static double per_sec(const struct tui *t, const struct tlview *v, size_t b,
		      u64 value)
{
	u64 s, e;

	col_span(t, v, b, &s, &e);
	return e > s ? (double)value * 1e9 / (double)(e - s) : (double)value;
}

/* The owner line's label: "pid comm" or "tid comm". */
static void owner_label(struct strbuf *sb, const struct tlview *v,
			const struct row *r)
{
	strbuf__reset(sb);
	if ((v->by_thread ? r->tid : r->pid) < 0)
		strbuf__adds(sb, "-");
	else
		strbuf__addf(sb, "%d", v->by_thread ? r->tid : r->pid);
	strbuf__addc(sb, ' ');
	sanitize_str(sb, r->comm ? r->comm : "[unknown]");
}

static void draw_info(struct tui *t, struct tlview *v, struct screen *s,
		      size_t y)
{
	struct strbuf *sb = &v->sb;
	size_t cur = column_of(t, v, v->cursor);
	u64 cs, ce, all = 0;

	strbuf__reset(sb);
	col_span(t, v, cur, &cs, &ce);
	if (v->marking) {
		size_t mc = column_of(t, v, v->mark);
		u64 ms, me, as, ae;

		col_span(t, v, MIN(mc, cur), &as, &me);
		col_span(t, v, MAX(mc, cur), &ms, &ae);
		strbuf__addf(sb, "window +%.2f to +%.2f s: Space or Enter "
				 "sets it, Esc drops the mark",
			     rel(t, as), rel(t, ae));
		screen__addn(s, y, ST_FL_MATCH, sb->buf, sb->len);
		return;
	}
	all = lanes__all(&v->lanes, cur);
	strbuf__addf(sb, "+%.2f to +%.2f s: %llu samples", rel(t, cs),
		     rel(t, ce),
		     (unsigned long long)v->lanes.buf.b[cur].samples);
	if (v->lanes.has_sel && all)
		strbuf__addf(sb, ", the selected row %.1f%%",
			     100.0 * (double)lanes__selected(&v->lanes, cur) /
				     (double)all);
	screen__addn(s, y, ST_BOLD, sb->buf, sb->len);
}

static void tl__render(struct tui *t, struct screen *s, size_t y0,
		       size_t height)
{
	struct tlview *v = tlv_of(t);
	struct timeline *tl = t->table.tl;
	struct strbuf *sb;
	size_t width, y, nb, owners, room;
	u64 ws, we;

	if (!v || !height || !tl)
		return;
	width = s->cols > TL_LABEL + 2 ? s->cols - TL_LABEL - 1 : 1;
	if (width != v->width) {
		v->width = width;
		tl__build(t);
	}
	nb = v->lanes.nb;
	sb = &v->sb;
	strbuf__reset(sb);
	strbuf__adds(sb, "Timeline of ");
	sanitize_str(sb, t->hi.event ? t->hi.event : "the samples");
	if (nb) {
		u64 s0, e0, s1, e1;

		col_span(t, v, 0, &s0, &e0);
		col_span(t, v, nb - 1, &s1, &e1);
		strbuf__addf(sb, ": +%.1f to +%.1f s, %zu cells of ",
			     rel(t, s0), rel(t, e1), timeline__nr_cells(tl));
		app__cell_width(t->a, sb);
	}
	if (table__window_span(&t->table, &ws, &we))
		strbuf__addf(sb, "; window +%.2f to +%.2f s (Esc in the table "
				 "undoes it)", rel(t, ws), rel(t, we));
	screen__addn(s, y0, ST_TITLE, sb->buf, sb->len);
	screen__fill(s, y0, ST_TITLE);
	if (height < 2)
		return;
	if (!nb || !v->built) {
		screen__add(s, y0 + 1, ST_NORMAL, "  no samples yet");
		return;
	}
	draw_info(t, v, s, y0 + 1);
	if (height < 4)
		return;
	draw_axis(t, v, s, y0 + 2);
	vals__reserve(v);
	y = y0 + 3;
	v->lines_y = y;
	v->nr_lines = 0;
	for (size_t b = 0; b < nb; b++)
		v->vals[b] = per_sec(t, v, b, lanes__all(&v->lanes, b));
	draw_line(t, v, s, y++, v->lanes.whole.nr_idle && !t->table.filter.show_idle ?
		  "every sample (idle out)" : "every sample",
		  v->line == TL_ALL);
	v->nr_lines = 1;
	if (y >= y0 + height)
		return;
	if (v->lanes.has_sel) {
		const struct row *r = top__selected_row(t);

		strbuf__reset(&v->name);
		if (r) {
			strbuf__addf(&v->name, "%s ", fmt__mode(r));
			fmt__symbol(&v->name, r);
		}
		for (size_t b = 0; b < nb; b++)
			v->vals[b] = per_sec(t, v, b,
					     lanes__selected(&v->lanes, b));
		draw_line(t, v, s, y, v->name.buf ? v->name.buf : "",
			  v->line == TL_SEL);
	} else {
		screen__add(s, y, ST_NORMAL,
			    "(the table's selected row: none)");
	}
	y++;
	v->nr_lines = 2;
	owners = v->lanes.owners.nr;
	room = y0 + height > y ? y0 + height - y : 0;
	/* the selected owner in sight */
	if (v->line >= TL_OWNERS) {
		size_t i = v->line - TL_OWNERS;

		if (i < v->first_owner)
			v->first_owner = i;
		if (room && i >= v->first_owner + room)
			v->first_owner = i - room + 1;
	}
	for (size_t i = v->first_owner; i < owners && y < y0 + height; i++) {
		const struct row *r = &v->lanes.owners.rows[i];

		owner_label(&v->name, v, r);
		for (size_t b = 0; b < nb; b++)
			v->vals[b] = per_sec(t, v, b,
					     lanes__owner(&v->lanes, i, b));
		draw_line(t, v, s, y++, v->name.buf ? v->name.buf : "",
			  v->line == TL_OWNERS + i);
		v->nr_lines++;
	}
}

/* ---- keys ---- */

static struct tlview *open_view(struct tui *t)
{
	struct tlview *v = tlv_of(t);

	return v && v->built && v->lanes.nb ? v : NULL;
}

enum act_result action__tl_cursor(struct tui *t, int move)
{
	struct tlview *v = open_view(t);
	long b, nb;
	u64 e;

	if (!v)
		return R_NONE;
	nb = (long)v->lanes.nb;
	b = (long)column_of(t, v, v->cursor);
	switch (move) {
	case TL_FIRST:
		b = 0;
		break;
	case TL_LAST:
		b = nb - 1;
		break;
	case TL_PAGE_LEFT:
	case TL_PAGE_RIGHT:
		b += (move < 0 ? -1 : 1) * MAX(nb / 10, 1L);
		break;
	default:
		b += move;
		break;
	}
	b = b < 0 ? 0 : b >= nb ? nb - 1 : b;
	col_span(t, v, (size_t)b, &v->cursor, &e);
	v->follow = b == nb - 1;
	return R_REDRAW;
}

enum act_result action__tl_line(struct tui *t, int dir)
{
	struct tlview *v = open_view(t);
	size_t last;

	if (!v)
		return R_NONE;
	last = TL_OWNERS + v->lanes.owners.nr - 1;
	if (dir < 0 && v->line > TL_ALL)
		v->line--;
	else if (dir > 0 && v->line < last)
		v->line++;
	return R_REDRAW;
}

/* The window from the mark to the cursor, for every view. */
static enum act_result set_window(struct tui *t, struct tlview *v)
{
	size_t a = column_of(t, v, v->mark), b = column_of(t, v, v->cursor);
	u64 s0, e0, s1, e1;
	enum act_result r;

	col_span(t, v, MIN(a, b), &s0, &e0);
	col_span(t, v, MAX(a, b), &s1, &e1);
	v->marking = false;
	r = actions__set_window(t, s0, e1);
	if (r == R_REBUILD)
		tui__pop(t);	/* the table, in that window */
	return r;
}

enum act_result action__tl_mark(struct tui *t, int arg)
{
	struct tlview *v = open_view(t);

	(void)arg;
	if (!v)
		return R_NONE;
	if (!v->marking) {
		v->marking = true;
		v->mark = v->cursor;
		return R_REDRAW;
	}
	return set_window(t, v);
}

enum act_result action__tl_enter(struct tui *t, int arg)
{
	struct tlview *v = open_view(t);
	const struct row *r;
	enum act_result res;

	(void)arg;
	if (!v)
		return R_NONE;
	if (v->marking)
		return set_window(t, v);
	if (v->line < TL_OWNERS ||
	    v->line - TL_OWNERS >= v->lanes.owners.nr) {
		tui__status(t, ST_ERROR, "Space marks a time window; Enter on "
					 "a process or thread zooms into it");
		return R_REDRAW;
	}
	r = &v->lanes.owners.rows[v->line - TL_OWNERS];
	if ((v->by_thread ? r->tid : r->pid) < 0) {
		tui__status(t, ST_ERROR, "these are exited processes' samples "
					 "(folded): no one to zoom into");
		return R_REDRAW;
	}
	res = actions__zoom_to(t, v->by_thread,
			       v->by_thread ? r->tid : r->pid, r->comm);
	if (res == R_REBUILD)
		tui__pop(t);
	return res;
}

enum act_result action__tl_back(struct tui *t, int arg)
{
	struct tlview *v = tlv_of(t);

	(void)arg;
	if (v && v->marking) {
		v->marking = false;
		return R_REDRAW;
	}
	tui__pop(t);
	return R_REDRAW;
}

enum act_result action__tl_close(struct tui *t, int arg)
{
	(void)arg;
	tui__pop(t);
	return R_REDRAW;
}

enum act_result action__tl_owners(struct tui *t, int arg)
{
	struct tlview *v = tlv_of(t);

	(void)arg;
	if (!v)
		return R_NONE;
	v->by_thread = !v->by_thread;
	v->line = MIN(v->line, (size_t)TL_SEL);
	v->first_owner = 0;
	tl__build(t);
	tui__status(t, ST_NORMAL, "a line per %s",
		    v->by_thread ? "thread" : "process");
	return R_REDRAW;
}

/* ---- the mouse ---- */

/* The column under screen column x (left of the first: the first, right
 * of the last: the last). */
static size_t column_at(const struct tlview *v, int x)
{
	size_t c;

	if (x < TL_LABEL + 1)
		return 0;
	c = ((size_t)x - TL_LABEL - 1) / (v->per ? v->per : 1);
	return MIN(c, v->lanes.nb - 1);
}

/* The line (TL_ALL, TL_SEL, TL_OWNERS + an owner) drawn at screen row
 * y, or -1. */
static long line_at(const struct tlview *v, int y)
{
	size_t i;

	if (y < 0 || (size_t)y < v->lines_y ||
	    (size_t)y >= v->lines_y + v->nr_lines)
		return -1;
	i = (size_t)y - v->lines_y;
	return (long)(i < TL_OWNERS ? i : i + v->first_owner);
}

static void cursor_to(const struct tui *t, struct tlview *v, size_t b)
{
	u64 e;

	col_span(t, v, b, &v->cursor, &e);
	v->follow = b == v->lanes.nb - 1;
}

/* A press on a line selects it and puts the cursor on its column; a
 * drag from there marks the window it sweeps, set at the release (a
 * click alone only moves); a double click is Enter (a process or
 * thread: zoomed into); the wheel moves between the lines. */
static enum act_result tl__mouse(struct tui *t, const struct mouse_event *ev)
{
	struct tlview *v = open_view(t);
	long line;

	if (!v)
		return R_NONE;
	if (ev->kind == MK_WHEEL)
		return action__tl_line(t, ev->button == MB_WHEEL_UP ? -1 : 1);
	if (ev->button != MB_LEFT)
		return R_NONE;
	switch (ev->kind) {
	case MK_PRESS:
		line = line_at(v, ev->y);
		if (line < 0)
			return R_NONE;
		v->line = (size_t)line;
		cursor_to(t, v, column_at(v, ev->x));
		if (ev->clicks == 2) {
			v->pressed = false;
			return action__tl_enter(t, 0);
		}
		v->pressed = true;
		v->dragged = false;
		v->anchor = v->cursor;
		return R_REDRAW;
	case MK_DRAG:
		if (!v->pressed)
			return R_NONE;
		cursor_to(t, v, column_at(v, ev->x));
		if (!v->dragged &&
		    column_of(t, v, v->cursor) != column_of(t, v, v->anchor)) {
			v->dragged = true;
			v->marking = true;
			v->mark = v->anchor;
		}
		return R_REDRAW;
	case MK_RELEASE:
		if (!v->pressed)
			return R_NONE;
		v->pressed = false;
		if (v->dragged) {
			v->dragged = false;
			return set_window(t, v);
		}
		return R_REDRAW;
	default:
		return R_NONE;
	}
}

/* Its operations (view.h). */
const struct view_ops timeline__view = {
	.view = V_TIMELINE,
	.name = "timeline",
	.open = tl__open,
	.update = tl__update,
	.render = tl__render,
	.mouse = tl__mouse,
	.free = tl__free,
};
