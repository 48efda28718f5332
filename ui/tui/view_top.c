/* view_top: the profile table as a list view, and the layout of the
 * whole screen (header, the view on top, footer); pure. */
#include <stdio.h>
#include <string.h>

#include "ui/report/sanitize.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/view_tree.h"

enum style top__share_style(double percent)
{
	if (percent > 5.0)
		return ST_HOT;
	if (percent > 0.5)
		return ST_MEDIUM;
	return ST_NORMAL;
}

/* The table's lines: its rows, and the lines of expanded call trees. */
static size_t top__nr_rows(void *ctx)
{
	const struct tui *t = ctx;

	return t->have_snap ? calltree__nr_lines(&t->ct, &t->table.rows) : 0;
}

static void top__prepare(void *ctx, size_t first, size_t count, size_t width)
{
	struct tui *t = ctx;
	size_t r0 = first, r1 = first, sub;

	/* the columns fit the rows of the lines shown */
	if (count) {
		calltree__line(&t->ct, &t->table.rows, first, &r0, &sub);
		calltree__line(&t->ct, &t->table.rows, first + count - 1, &r1,
			       &sub);
	}
	columns__fit(&t->cols, &t->table.rows, r0,
		     count ? r1 - r0 + 1 : 0, width);
}

static void top__header(void *ctx, struct screen *s, size_t y)
{
	struct tui *t = ctx;
	struct strbuf sb;

	strbuf__init(&sb);
	fmt__header(&sb, &t->cols);
	if (tree__has_chains(t))
		strbuf__addf(&sb, "    [trees: %s first, G flips]",
			     tree__order_name(t));
	screen__add(s, y, ST_TITLE, sb.buf ? sb.buf : "");
	screen__fill(s, y, ST_TITLE);
	strbuf__fini(&sb);
}

static void top__row(void *ctx, size_t i, struct screen *s, size_t y)
{
	struct tui *t = ctx;
	const struct rowset *rs = &t->table.rows;
	size_t row, sub, off[COL__MAX];
	const struct ct_line *l = calltree__line(&t->ct, rs, i, &row, &sub);
	const struct row *r = &rs->rows[row];
	struct strbuf sb;
	enum style st;

	if (l) {
		/* a call tree line, sanitized when the tree was drawn */
		screen__addn(s, y, ST_NORMAL, t->ct.text.buf + l->off, l->len);
		return;
	}
	strbuf__init(&sb);
	/* fmt__row sanitizes every string it takes from the row */
	fmt__row(&sb, &t->cols, rs, r, off);
	screen__add(s, y, ST_NORMAL, sb.buf ? sb.buf : "");
	st = top__share_style(rowset__percent(rs, r));
	for (size_t c = 0; c < t->cols.nr; c++) {
		size_t end = c + 1 < t->cols.nr ? off[c + 1] : sb.len;
		enum column col = t->cols.col[c];
		double d = col == COL_DELTA ? r->delta : r->children_delta;

		if (col == COL_OVERHEAD && st != ST_NORMAL)
			screen__style(s, y, off[c], end, st);
		/* against a baseline: hotter in perf's red, cooler in its
		 * green */
		else if ((col == COL_DELTA || col == COL_DELTA_CHILDREN) &&
			 (d >= 0.5 || d <= -0.5))
			screen__style(s, y, off[c], end,
				      d > 0 ? ST_HOT : ST_MEDIUM);
	}
	strbuf__fini(&sb);
}

const struct list_ops top__ops = {
	.nr_rows = top__nr_rows,
	.prepare = top__prepare,
	.format_header = top__header,
	.format_row = top__row,
};

/* Highlights "word N" in line y when N is not zero. */
static void highlight_count(struct screen *s, size_t y, const char *word)
{
	const char *text = screen__text(s, y), *p = strstr(text, word);
	size_t start, end;

	if (!p)
		return;
	start = (size_t)(p - text);
	end = start + strlen(word);
	if (text[end] != ' ' || text[end + 1] == '0')
		return;
	end++;
	while (text[end] >= '0' && text[end] <= '9')
		end++;
	screen__style(s, y, start, end, ST_WARN);
}

/* The header lines (shared with batch): their text, one per line. */
static size_t top__format_header(struct tui *t, struct strbuf *sb)
{
	static const struct snapshot empty;
	const struct snapshot *snap = NULL;
	size_t n = 0;

	if (t->have_snap)
		snap = table__snap(&t->table, t->table.ev);
	header__format(sb, &t->hi, snap ? snap : &empty, "");
	if (!t->have_snap)
		strbuf__adds(sb, "waiting for the first samples...\n");
	for (size_t i = 0; i < sb->len; i++)
		n += sb->buf[i] == '\n';
	return n;
}

/* Draws up to max header lines from y. */
static size_t top__render_header(struct strbuf *sb, struct screen *s,
				 size_t y, size_t max)
{
	char *line, *save = NULL, none[1] = "";
	size_t n = 0;

	for (line = strtok_r(sb->buf ? sb->buf : none, "\n", &save);
	     line && n < max; line = strtok_r(NULL, "\n", &save), n++) {
		bool warn = strncmp(line, "WARNING", 7) == 0;

		/* header__format sanitized what came from outside */
		screen__add(s, y + n, n == 0 ? ST_BOLD : warn ? ST_WARN
							     : ST_NORMAL,
			    line);
		if (n == 1) {
			highlight_count(s, y + n, "lost");
			highlight_count(s, y + n, "throttled");
			highlight_count(s, y + n, "dropped");
		}
	}
	return n;
}

static void render_footer(struct tui *t, struct screen *s, size_t y,
			  double now)
{
	unsigned int view = tui__view(t);

	if (view == V_PROMPT) {
		size_t w = screen__add(s, y, ST_BOLD, t->prompt.label);

		w += screen__add(s, y, ST_BOLD, ": ");
		w += screen__add_ext(s, y, ST_NORMAL, t->prompt.buf);
		s->cursor_y = (long)y;
		s->cursor_x = (long)MIN(w, s->cols ? s->cols - 1 : 0);
		return;
	}
	if (view == V_CONFIRM) {
		screen__add(s, y, ST_BOLD, "Quit ptop? ");
		screen__add(s, y, ST_KEY, "y");
		screen__add(s, y, ST_NORMAL, " quit  ");
		screen__add(s, y, ST_KEY, "n");
		screen__add(s, y, ST_NORMAL, " stay");
		return;
	}
	if (t->status[0] && now < t->status_until) {
		screen__add_ext(s, y, t->status_style, t->status);
		return;
	}
	if (t->resolving) {
		char msg[64];

		snprintf(msg, sizeof(msg), "resolving %zu symbols\xe2\x80\xa6",
			 t->resolving);
		screen__add(s, y, ST_BOLD, msg);
		return;
	}
	keys__footer(view, s, y);
}

/*
 * The trees that wait (calltree__build draws those near the top) are
 * drawn when they come into sight: through the later of the first line
 * and the selected one, and two screens after it.  Lines of rows after
 * the first tree that waited move down as it is drawn, so the selection
 * and the first line are kept as (row, sub-line) across the draw.
 */
static void top__draw_shown(struct tui *t, size_t height)
{
	struct listview *lv = &t->top;
	struct rowset *rs = &t->table.rows;
	size_t nr, sr, ss, tr, ts;
	bool last;

	if (!t->have_snap || calltree__complete(&t->ct, rs))
		return;
	nr = calltree__nr_lines(&t->ct, rs);
	if (!nr)
		return;
	calltree__line(&t->ct, rs, MIN(lv->selected, nr - 1), &sr, &ss);
	calltree__line(&t->ct, rs, MIN(lv->top, nr - 1), &tr, &ts);
	/* through the later of the two lines (a row and its sub-line) */
	last = lv->top > lv->selected;
	if (calltree__draw_to(&t->ct, rs, last ? tr : sr,
			      (last ? ts : ss) + 2 * height + 1)) {
		tui__status(t, ST_ERROR, "out of memory");
		return;
	}
	lv->selected = calltree__line_of(&t->ct, rs, sr, ss);
	lv->top = calltree__line_of(&t->ct, rs, tr, ts);
}

void top__render(struct tui *t, struct screen *s, double now)
{
	unsigned int under = t->stack[t->depth - 1];
	size_t rows = s->rows, body, hdr = 0, table_min;
	struct strbuf sb;

	screen__clear(s);
	if (!rows || !s->cols)
		return;
	/* the view under a prompt or a question is drawn as it was */
	for (size_t d = t->depth; d-- > 0;) {
		under = t->stack[d];
		if (under != V_PROMPT && under != V_CONFIRM)
			break;
	}
	render_footer(t, s, rows - 1, now);
	body = rows - 1;
	if (!body)
		return;
	if (under != V_TOP) {
		const struct view_ops *v = views__find(under);
		struct listview *lv;

		if (v && v->render) {
			v->render(t, s, 0, body);
			return;
		}
		lv = tui__list(t, under);
		if (!lv)
			return;
		if (lv->ops)
			listview__update(lv);
		listview__render(lv, s, 0, body);
		return;
	}
	/* the table keeps its titles and a few rows; the header gets the
	 * rest, and at least its first line (the event shown) */
	strbuf__init(&sb);
	table_min = MIN(body, 4);
	hdr = top__format_header(t, &sb);	/* not inside MIN: evaluated twice */
	hdr = MIN(hdr, body - table_min);
	if (!hdr && body >= 2)
		hdr = 1;
	hdr = top__render_header(&sb, s, 0, hdr);
	strbuf__fini(&sb);
	if (body > hdr) {
		const struct snapshot *snap = table__snap(&t->table,
							  t->table.ev);

		top__draw_shown(t, body - hdr);
		listview__render(&t->top, s, hdr, body - hdr);
		if (!listview__nr(&t->top) && body > hdr + 1)
			screen__add(s, hdr + 1, ST_NORMAL,
				    !t->have_snap ? "" :
				    !t->table.filter.show_idle && snap &&
				    snap->nr_idle && snap->nr == snap->nr_idle ?
				    "  only the idle task ran in this window "
				    "(i shows it)" :
				    t->table.filter.sym_substr || t->nr_zooms ||
				    t->table.filter.hide_kernel ||
				    t->table.filter.hide_user ||
				    t->table.filter.percent_limit > 0 ?
				    "  no row matches the filters (Esc undoes "
				    "the last one)" :
				    "  no samples in this window");
	}
}

static struct listview *top__list(struct tui *t)
{
	return &t->top;
}

static void top__update(struct tui *t)
{
	listview__update(&t->top);
}

/* Its operations (view.h). */
const struct view_ops top__view = {
	.view = V_TOP,
	.name = "table",
	.list = top__list,
	.update = top__update,
};
