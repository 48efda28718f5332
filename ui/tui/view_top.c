/* view_top: the profile table, the bottom of the stack: its list (rows
 * and the lines of expanded trees), its header, and its selection kept
 * across refreshes; pure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/sanitize.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/view_top.h"
#include "ui/tui/mouse.h"
#include "ui/tui/view_tree.h"

static const struct list_ops top__ops;

struct top_view *top__of(const struct tui *t)
{
	return tui__state_of(t, V_TOP);
}

/* The table's lines: its rows, and the lines of expanded call trees. */
static size_t top__nr_rows(void *ctx)
{
	const struct tui *t = ctx;

	return t->have_snap ?
		       treelines__nr_lines(&top__of(t)->ct, &t->table.rows) : 0;
}

static void top__prepare(void *ctx, size_t first, size_t count, size_t width)
{
	struct tui *t = ctx;
	struct treelines *ct = &top__of(t)->ct;
	size_t r0 = first, r1 = first, sub;

	/* the columns fit the rows of the lines shown */
	if (count) {
		treelines__line(ct, &t->table.rows, first, &r0, &sub);
		treelines__line(ct, &t->table.rows, first + count - 1, &r1,
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
	if (tui__has_chains(t))
		strbuf__addf(&sb, "    [trees: %s first, G flips]",
			     treeview__order_name(t));
	screen__add(s, y, ST_TITLE, sb.buf ? sb.buf : "");
	screen__fill(s, y, ST_TITLE);
	strbuf__fini(&sb);
}

static void top__row(void *ctx, size_t i, struct screen *s, size_t y)
{
	struct tui *t = ctx;
	const struct rowset *rs = &t->table.rows;
	const struct treelines *ct = &top__of(t)->ct;
	size_t row, sub, off[COL__MAX];
	const struct ct_line *l = treelines__line(ct, rs, i, &row, &sub);
	const struct row *r = &rs->rows[row];
	struct strbuf sb;
	enum style st;

	if (l) {
		/* a call tree line, sanitized when the tree was drawn */
		screen__addn(s, y, ST_NORMAL, ct->text.buf + l->off, l->len);
		return;
	}
	strbuf__init(&sb);
	/* fmt__row sanitizes every string it takes from the row */
	fmt__row(&sb, &t->cols, rs, r, off);
	screen__add(s, y, ST_NORMAL, sb.buf ? sb.buf : "");
	st = tui__share_style(rowset__percent(rs, r));
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

static const struct list_ops top__ops = {
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

/* The header lines (shared with batch): their text, one per line, the
 * first one's target cut to the screen's width. */
static size_t top__format_header(struct tui *t, struct strbuf *sb,
				 size_t cols)
{
	static const struct snapshot empty;
	const struct snapshot *snap = NULL;
	size_t n = 0;

	if (t->have_snap)
		snap = table__snap(&t->table, t->table.ev);
	t->hi.width = cols;
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

/*
 * The trees that wait (treelines__build draws those near the top) are
 * drawn when they come into sight: through the later of the first line
 * and the selected one, and two screens after it.  Lines of rows after
 * the first tree that waited move down as it is drawn, so the selection
 * and the first line are kept as (row, sub-line) across the draw.
 */
static void top__draw_shown(struct tui *t, size_t height)
{
	struct top_view *top = top__of(t);
	struct listview *lv = &top->lv;
	struct treelines *ct = &top->ct;
	struct rowset *rs = &t->table.rows;
	size_t nr, sr, ss, tr, ts;
	bool last;

	if (!t->have_snap || treelines__complete(ct, rs))
		return;
	nr = treelines__nr_lines(ct, rs);
	if (!nr)
		return;
	treelines__line(ct, rs, MIN(lv->selected, nr - 1), &sr, &ss);
	treelines__line(ct, rs, MIN(lv->top, nr - 1), &tr, &ts);
	/* through the later of the two lines (a row and its sub-line) */
	last = lv->top > lv->selected;
	if (treelines__draw_to(ct, rs, last ? tr : sr,
			      (last ? ts : ss) + 2 * height + 1)) {
		tui__status(t, ST_ERROR, "out of memory");
		return;
	}
	lv->selected = treelines__line_of(ct, rs, sr, ss);
	lv->top = treelines__line_of(ct, rs, tr, ts);
}

/* The header (shared with batch), then the table: the header gets what
 * the table's titles and a few rows leave, and at least its first line
 * (the event shown). */
static void top__render(struct tui *t, struct screen *s, size_t y0,
			size_t body)
{
	struct top_view *top = top__of(t);
	size_t hdr = 0, table_min;
	struct strbuf sb;

	strbuf__init(&sb);
	table_min = MIN(body, 4);
	hdr = top__format_header(t, &sb, s->cols);	/* not inside MIN: evaluated twice */
	hdr = MIN(hdr, body - table_min);
	if (!hdr && body >= 2)
		hdr = 1;
	hdr = top__render_header(&sb, s, y0, hdr);
	strbuf__fini(&sb);
	if (body > hdr) {
		const struct snapshot *snap = table__snap(&t->table,
							  t->table.ev);

		top__draw_shown(t, body - hdr);
		listview__render(&top->lv, s, y0 + hdr, body - hdr);
		if (!listview__nr(&top->lv) && body > hdr + 1)
			screen__add(s, y0 + hdr + 1, ST_NORMAL,
				    !t->have_snap ? "" :
				    !t->table.filter.show_idle && snap &&
				    snap->nr_idle && snap->nr == snap->nr_idle ?
				    "  only the idle task ran in this window "
				    "(i shows it)" :
				    t->table.filter.sym_substr || top->nr_undo ||
				    t->table.filter.hide_kernel ||
				    t->table.filter.hide_user ||
				    t->table.filter.percent_limit > 0 ?
				    "  no row matches the filters (Esc undoes "
				    "the last one)" :
				    "  no samples in this window");
	}
}

/* ---- the selection ---- */

const struct row *top__selected_line(const struct tui *t, size_t *sub,
				     const struct ct_line **line)
{
	const struct top_view *top = top__of(t);
	const struct ct_line *l;
	size_t i, row;

	*sub = 0;
	if (line)
		*line = NULL;
	if (!t->have_snap || !listview__selected(&top->lv, &i))
		return NULL;
	/* with call trees expanded, lines are rows and tree lines */
	l = treelines__line(&top->ct, &t->table.rows, i, &row, sub);
	if (line)
		*line = l;
	return row < t->table.rows.nr ? &t->table.rows.rows[row] : NULL;
}

const struct row *top__selected_row(const struct tui *t)
{
	size_t sub;

	return top__selected_line(t, &sub, NULL);
}

enum act_result top__no_row(struct tui *t)
{
	tui__status(t, ST_ERROR, "no row selected");
	return R_REDRAW;
}

/* Remembers what the selected table row is, so that it stays selected
 * when the rows move at the next refresh. */
void top__remember_selection(struct tui *t)
{
	struct top_view *top = top__of(t);
	const struct row *r = top__selected_line(t, &top->sel_sub, NULL);

	top->has_sel = r != NULL;
	if (!r)
		return;
	top->sel = (struct row_id){
		.dso = r->dso, .dso_name = r->dso_name, .sym = r->sym,
		.sym_start = r->sym_start, .addr = r->addr, .comm = r->comm,
		.cgroup = r->cgroup,
		.pid = r->pid, .tid = r->tid, .cpu = r->cpu, .state = r->state,
	};
}

static bool row_id__match(const struct tui *t, const struct row *r)
{
	const struct sort_spec *sp = &t->table.spec;
	const struct row_id *id = &top__of(t)->sel;

	if ((sort_spec__has(sp, SORT_SYM) || sort_spec__has(sp, SORT_DSO)) &&
	    (r->dso != id->dso || r->dso_name != id->dso_name))
		return false;
	if (sort_spec__has(sp, SORT_SYM) &&
	    (r->sym != id->sym ||
	     (r->sym ? r->sym_start != id->sym_start : r->addr != id->addr)))
		return false;
	if ((sort_spec__has(sp, SORT_COMM) || sort_spec__has(sp, SORT_PID) ||
	     sort_spec__has(sp, SORT_TID)) && r->comm != id->comm)
		return false;
	if ((sort_spec__has(sp, SORT_PID) || sort_spec__has(sp, SORT_TID)) &&
	    r->pid != id->pid)
		return false;
	if (sort_spec__has(sp, SORT_TID) && r->tid != id->tid)
		return false;
	if (sort_spec__has(sp, SORT_CPU) && r->cpu != id->cpu)
		return false;
	if (sort_spec__has(sp, SORT_CGROUP) && r->cgroup != id->cgroup)
		return false;
	if (sort_spec__has(sp, SORT_STATE) && r->state != id->state)
		return false;
	return true;
}

/* After each rebuild (the last of the views): the remembered row, and
 * the same line of its tree if it is still there, stays selected. */
static int top__update(struct tui *t)
{
	struct top_view *top = top__of(t);
	struct rowset *rs = &t->table.rows;
	int err = 0;

	listview__update(&top->lv);
	if (!top->has_sel)
		return 0;
	for (size_t i = 0; i < rs->nr; i++) {
		if (!row_id__match(t, &rs->rows[i]))
			continue;
		/* (drawn: trees wait until they are shown) */
		if (treelines__draw_to(&top->ct, rs, i,
				      top->sel_sub + 2 * top->lv.page))
			err = -ENOMEM;
		listview__select_row(&top->lv,
				     treelines__line_of(&top->ct, rs, i,
						       top->sel_sub));
		break;
	}
	return err;
}

/* ---- its state ---- */

static void top__init(struct tui *t)
{
	struct top_view *top = tui__state_new(t, V_TOP, sizeof(*top));

	listview__init(&top->lv, &top__ops, t);
	/* branches under --tree-limit are left out, as in batch */
	treelines__init(&top->ct, t->a->cg_order, t->a->tree_limit);
	if (t->a->inline_rows && t->a->spec.children)
		treeview__set_inline_rows(t, true);
}

static void top__free(struct tui *t)
{
	struct top_view *top = top__of(t);

	if (!top)
		return;
	listview__fini(&top->lv);
	treelines__fini(&top->ct);
	free(top);
	*tui__state(t, V_TOP) = NULL;
}

static struct listview *top__list(struct tui *t)
{
	return &top__of(t)->lv;
}

/* ---- the order, undoable ---- */

static void undo_order(struct tui *t, const struct undo *u)
{
	enum sort_key k = u->prev_spec.order;

	/* a grouping changed since may have taken its column */
	if (sort_key__groups(k) && !sort_spec__has(&t->base, k))
		k = SORT_OVERHEAD;
	tui__set_order(t, k, u->prev_spec.invert);
}

static bool same_order(const struct tui *t, const struct undo *u)
{
	return t->table.spec.order == u->prev_spec.order &&
	       t->table.spec.invert == u->prev_spec.invert;
}

enum act_result top__set_order(struct tui *t, enum sort_key k, bool invert)
{
	if (sort_key__groups(k) && !sort_spec__has(&t->base, k)) {
		tui__status(t, ST_ERROR, "rows are not grouped by %s: group "
			    "by it first (s, then Group by)",
			    sort_key__name(k));
		return R_REDRAW;
	}
	if (!top__push_undo(t, undo_order, "sort order", true))
		return R_REDRAW;
	tui__set_order(t, k, invert);
	top__settle_undo(t, undo_order, same_order);
	tui__status(t, ST_NORMAL, "sorted by %s%s%s", sort_key__name(k),
		    sort_key__groups(k) ? (invert ? " (Z to A)" : " (A to Z)") :
					  "",
		    invert && !sort_key__groups(k) ? " (inverted)" : "");
	return R_REBUILD;
}

/* ---- F3: search ---- */

#define SEARCH_LABEL "Search (F3: next, Enter keeps, Esc back)"

enum act_result action__search(struct tui *t, int arg)
{
	struct top_view *top = top__of(t);

	(void)arg;
	top->search_from = top->lv.selected;
	prompt__open(&t->prompt, PROMPT_TOP_SEARCH, SEARCH_LABEL, top->search);
	tui__push(t, V_PROMPT);
	return R_REDRAW;
}

/* Whether row r's symbol, shared object or command holds text (any
 * case), as shown (sanitized). */
static bool row_matches(const struct row *r, const char *text,
			struct strbuf *sb)
{
	const char *fields[] = { NULL, r->dso_name, r->comm };

	strbuf__reset(sb);
	fmt__symbol(sb, r);
	if (sb->buf && strcasestr(sb->buf, text))
		return true;
	for (size_t i = 1; i < ARRAY_SIZE(fields); i++) {
		if (!fields[i])
			continue;
		strbuf__reset(sb);
		sanitize_str(sb, fields[i]);
		if (sb->buf && strcasestr(sb->buf, text))
			return true;
	}
	return false;
}

/* Selects the first row from line `from` on (wrapping) that matches;
 * false when none does. */
static bool select_match(struct tui *t, const char *text, size_t from)
{
	struct top_view *top = top__of(t);
	struct rowset *rs = &t->table.rows;
	size_t n = rs->nr, row = 0, sub;
	struct strbuf sb;
	bool found = false;

	if (!n || !*text)
		return false;
	if (listview__nr(&top->lv))
		treelines__line(&top->ct, rs,
			       MIN(from, listview__nr(&top->lv) - 1), &row,
			       &sub);
	strbuf__init(&sb);
	for (size_t k = 0; k < n && !found; k++) {
		size_t i = (row + k) % n;

		if (!row_matches(&rs->rows[i], text, &sb))
			continue;
		top->lv.selected = treelines__line_of(&top->ct, rs, i, 0);
		found = true;
	}
	strbuf__fini(&sb);
	if (found)
		top__remember_selection(t);
	return found;
}

static enum act_result search_prompt(struct tui *t, const struct prompt *p,
				     enum prompt_event ev)
{
	struct top_view *top = top__of(t);
	size_t from = top->search_from;

	if (ev == PROMPT_CANCEL) {
		top->lv.selected = top->search_from;
		top__remember_selection(t);
		return R_REDRAW;
	}
	snprintf(top->search, sizeof(top->search), "%s", p->buf);
	if (ev == PROMPT_ACCEPT || !p->buf[0])
		return R_REDRAW;
	/* typing: the first match from where the search began; F3: the
	 * one after the selected row */
	if (ev == PROMPT_NEXT) {
		size_t row = 0, sub;

		if (listview__nr(&top->lv))
			treelines__line(&top->ct, &t->table.rows,
				       top->lv.selected, &row, &sub);
		from = treelines__line_of(&top->ct, &t->table.rows,
					 (row + 1) % MAX(t->table.rows.nr, 1),
					 0);
	}
	/* the footer is the prompt's: it says whether there is a match */
	if (select_match(t, p->buf, from)) {
		snprintf(t->prompt.label, sizeof(t->prompt.label), "%s",
			 SEARCH_LABEL);
		return R_REDRAW;
	}
	snprintf(t->prompt.label, sizeof(t->prompt.label),
		 "Search, no row holds it (Esc back)");
	return R_REDRAW;
}

/* The table's own prompt: the search (the actions' prompts go to the
 * actions: actions.c's prompt_event). */
static enum act_result top__prompt(struct tui *t, const struct prompt *p,
				   enum prompt_event ev)
{
	return p->kind == PROMPT_TOP_SEARCH ? search_prompt(t, p, ev) :
					      R_REDRAW;
}

/* The sort key a column's title orders by: its count, or the column
 * itself (rows are grouped by every column shown). */
static enum sort_key column_order(enum column col)
{
	switch (col) {
	case COL_CHILDREN:
	case COL_OVERHEAD:
		return SORT_OVERHEAD;
	case COL_SAMPLES:
		return SORT_SAMPLES;
	case COL_PERIOD:
		return SORT_PERIOD;
	case COL_BASELINE:
	case COL_DELTA:
	case COL_BASE_CHILDREN:
	case COL_DELTA_CHILDREN:
		return SORT_DELTA;
	case COL_COMM:
		return SORT_COMM;
	case COL_PID:
		return SORT_PID;
	case COL_TID:
		return SORT_TID;
	case COL_CPU:
		return SORT_CPU;
	case COL_CGROUP:
		return SORT_CGROUP;
	case COL_STATE:
		return SORT_STATE;
	case COL_DSO:
		return SORT_DSO;
	default:
		return SORT_SYM;
	}
}

/* The mouse: a click on a column's title orders by it (again: the other
 * way, as htop's), on History's opens the timeline; on the rows, the list's (a click selects, a double
 * click is Enter: the row's menu). */
static enum act_result top__mouse(struct tui *t, const struct mouse_event *ev)
{
	struct top_view *top = top__of(t);

	if (ev->kind == MK_PRESS && ev->button == MB_LEFT &&
	    (size_t)ev->y == top->lv.drawn_header) {
		int col = columns__at(&t->cols, (size_t)ev->x);
		enum sort_key k;

		if (col < 0)
			return R_NONE;
		/* History's title: the timeline it is a glimpse of */
		if (col == COL_HISTORY)
			return tui__open_view(t, V_TIMELINE, NULL);
		k = column_order((enum column)col);
		/* Pid and Command come with a grouping by tid or pid: the
		 * column they come with sorts */
		if (sort_key__groups(k) && !sort_spec__has(&t->base, k))
			k = sort_spec__has(&t->base, SORT_TID) ? SORT_TID :
							       SORT_PID;
		return top__set_order(t, k, k == t->table.spec.order ?
						   !t->table.spec.invert :
						   false);
	}
	return tui__list_mouse(t, &top->lv, ev);
}

/* Its operations (view.h). */
const struct view_ops top__view = {
	.view = V_TOP,
	.name = "table",
	.init = top__init,
	.list = top__list,
	.rebuild = treeview__build,
	.update = top__update,
	.render = top__render,
	.moved = top__remember_selection,
	.prompt = top__prompt,
	.mouse = top__mouse,
	.free = top__free,
};
