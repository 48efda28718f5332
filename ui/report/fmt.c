/* fmt: pure formatting of table rows into columns (text and TUI). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "src/core/cgroup.h"
#include "src/core/offcpu.h"
#include "ui/report/fmt.h"
#include "ui/report/sanitize.h"

#define SEP "  "
#define DSO_MAX 32
#define COMM_MAX 20
#define CGROUP_MAX 40
#define SYM_MIN 20	/* "[.] " and 16 columns of name */

static void columns__compare(struct columns *c);

static const char *const titles[COL__MAX] = {
	[COL_CHILDREN] = "Children",
	[COL_OVERHEAD] = "Overhead",
	[COL_SAMPLES] = "Samples",
	[COL_PERIOD] = "Period",
	[COL_COMM] = "Command",
	[COL_PID] = "Pid",
	[COL_TID] = "Tid",
	[COL_CPU] = "CPU",
	[COL_CGROUP] = "Cgroup",
	[COL_STATE] = "State",
	[COL_DSO] = "Shared Object",
	[COL_SYM] = "Symbol",
	[COL_BASE_CHILDREN] = "Base-Ch",
	[COL_DELTA_CHILDREN] = "Delta-Ch",
	[COL_BASELINE] = "Baseline",
	[COL_DELTA] = "Delta",
	[COL_HISTORY] = "History",
};

const char *column__title(enum column c)
{
	return c < COL__MAX ? titles[c] : "";
}

/* Overhead is called Self next to Children, as in perf. */
static const char *columns__title(const struct columns *c, enum column col)
{
	if (col == COL_OVERHEAD && c->children)
		return "Self";
	if (col == COL_PERIOD && c->time)
		return "Time";
	return column__title(col);
}

static bool columns__has(const struct columns *c, enum column col)
{
	for (size_t i = 0; i < c->nr; i++)
		if (c->col[i] == col)
			return true;
	return false;
}

static void columns__push(struct columns *c, enum column col)
{
	if (!columns__has(c, col))
		c->col[c->nr++] = col;
}

void columns__timed(struct columns *c, bool time)
{
	c->time = time;
	if (time && !columns__has(c, COL_PERIOD)) {
		/* after Samples */
		size_t at = 0;

		while (at < c->nr && c->col[at] != COL_SAMPLES)
			at++;
		at = at < c->nr ? at + 1 : c->nr;
		memmove(&c->col[at + 1], &c->col[at],
			(c->nr - at) * sizeof(c->col[0]));
		c->col[at] = COL_PERIOD;
		c->nr++;
		c->time_added = true;
	} else if (!time && c->time_added) {
		size_t at = 0;

		while (at < c->nr && c->col[at] != COL_PERIOD)
			at++;
		if (at < c->nr) {
			memmove(&c->col[at], &c->col[at + 1],
				(c->nr - at - 1) * sizeof(c->col[0]));
			c->nr--;
		}
		c->time_added = false;
	}
}

void columns__history(struct columns *c, size_t buckets)
{
	size_t at = 0;

	for (size_t i = 0; i < c->nr; i++) {
		if (c->col[i] != COL_HISTORY)
			continue;
		memmove(&c->col[i], &c->col[i + 1],
			(c->nr - i - 1) * sizeof(c->col[0]));
		memmove(&c->width[i], &c->width[i + 1],
			(c->nr - i - 1) * sizeof(c->width[0]));
		c->nr--;
		break;
	}
	c->history = buckets;
	if (!buckets)
		return;
	/* after the numbers, before what names the row */
	while (at < c->nr &&
	       (c->col[at] == COL_CHILDREN || c->col[at] == COL_OVERHEAD ||
		c->col[at] == COL_SAMPLES || c->col[at] == COL_PERIOD ||
		c->col[at] == COL_BASE_CHILDREN || c->col[at] == COL_BASELINE ||
		c->col[at] == COL_DELTA_CHILDREN || c->col[at] == COL_DELTA))
		at++;
	memmove(&c->col[at + 1], &c->col[at], (c->nr - at) * sizeof(c->col[0]));
	memmove(&c->width[at + 1], &c->width[at],
		(c->nr - at) * sizeof(c->width[0]));
	c->col[at] = COL_HISTORY;
	c->width[at] = MAX(buckets, strlen(column__title(COL_HISTORY)));
	c->nr++;
}

void fmt__spark_char(struct strbuf *sb, double v, double max)
{
	int level;

	/* nothing: a middle dot (U+00B7), so that a sparkline is one word
	 * of the line (to_ascii makes it '.') */
	if (v <= 0 || max <= 0) {
		strbuf__addc(sb, (char)0xc2);
		strbuf__addc(sb, (char)0xb7);
		return;
	}
	/* U+2581..U+2588, lower one eighth block to full block; to_ascii
	 * makes them "_-:=+*%#" */
	level = 1 + (int)(v / max * 7.0 + 1e-9);
	level = level > 8 ? 8 : level;
	strbuf__addc(sb, (char)0xe2);
	strbuf__addc(sb, (char)0x96);
	strbuf__addc(sb, (char)(0x80 + level));
}

void fmt__spark_values(struct strbuf *sb, const double *v, size_t n)
{
	double max = 0;

	for (size_t i = 0; i < n; i++)
		max = MAX(max, v[i]);
	for (size_t i = 0; i < n; i++)
		fmt__spark_char(sb, v[i], max);
}

void fmt__spark(struct strbuf *sb, const struct rowset *rs,
		const struct row *r)
{
	const struct row_series *s = rs->series;
	size_t i, nb;
	double v[256];

	if (!s || s->nr_rows != rs->nr || r < rs->rows ||
	    r >= rs->rows + rs->nr)
		return;
	i = (size_t)(r - rs->rows);
	nb = MIN(s->nr_buckets, ARRAY_SIZE(v));
	for (size_t b = 0; b < nb; b++)
		v[b] = row_series__share(s, i, b);
	fmt__spark_values(sb, v, nb);
}

void columns__init(struct columns *c, const struct sort_spec *spec,
		   bool show_period)
{
	bool sym = false;

	memset(c, 0, sizeof(*c));
	c->children = spec->children;
	if (spec->children)
		columns__push(c, COL_CHILDREN);
	columns__push(c, COL_OVERHEAD);
	columns__push(c, COL_SAMPLES);
	if (show_period)
		columns__push(c, COL_PERIOD);
	for (size_t i = 0; i < spec->nr_group; i++) {
		switch (spec->group[i]) {
		case SORT_COMM:
			columns__push(c, COL_COMM);
			break;
		case SORT_PID:
			columns__push(c, COL_PID);
			columns__push(c, COL_COMM);
			break;
		case SORT_TID:
			columns__push(c, COL_PID);
			columns__push(c, COL_TID);
			columns__push(c, COL_COMM);
			break;
		case SORT_CPU:
			columns__push(c, COL_CPU);
			break;
		case SORT_CGROUP:
			columns__push(c, COL_CGROUP);
			break;
		case SORT_STATE:
			columns__push(c, COL_STATE);
			break;
		case SORT_DSO:
			columns__push(c, COL_DSO);
			break;
		case SORT_SYM:
			sym = true;
			break;
		default:
			break;
		}
	}
	if (sym)
		columns__push(c, COL_SYM);
	if (spec->compare)
		columns__compare(c);
	for (size_t i = 0; i < c->nr; i++)
		c->width[i] = strlen(columns__title(c, c->col[i]));
}

/* Inserts col at position at. */
static void columns__insert(struct columns *c, size_t at, enum column col)
{
	memmove(&c->col[at + 1], &c->col[at], (c->nr - at) * sizeof(*c->col));
	c->col[at] = col;
	c->nr++;
}

static void columns__compare(struct columns *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		if (c->col[i] == COL_CHILDREN) {
			columns__insert(c, i, COL_BASE_CHILDREN);
			columns__insert(c, i + 2, COL_DELTA_CHILDREN);
			i += 2;
		} else if (c->col[i] == COL_OVERHEAD) {
			columns__insert(c, i, COL_BASELINE);
			columns__insert(c, i + 2, COL_DELTA);
			i += 2;
		}
	}
}

/* perf diff's Delta, then whether the row is new or gone: the marker
 * has a fixed width so that the numbers stay aligned. */
static void delta_cell(struct strbuf *sb, const struct row *r, double d)
{
	strbuf__addf(sb, "%+.2f%%", d);
	strbuf__adds(sb, r->cmp == CMP_NEW ? "  new" :
			 r->cmp == CMP_GONE ? " gone" : "     ");
}

const char *fmt__mode(const struct row *r)
{
	return r->kernel ? "[k]" : "[.]";
}

void fmt__symbol(struct strbuf *sb, const struct row *r)
{
	if (r->sym)
		sanitize_str(sb, r->sym);
	else
		strbuf__addf(sb, "0x%016" PRIx64, r->addr);
	if (r->inlined)
		strbuf__adds(sb, " (inlined)");
}

void fmt__state(struct strbuf *sb, u8 state)
{
	if (!state)
		strbuf__adds(sb, offcpu__state_name(0));
	else if (state > ' ' && state < 0x7f)
		strbuf__addf(sb, "%c %s", state, offcpu__state_name(state));
	else
		strbuf__adds(sb, "? unknown");
}

void fmt__cgroup(struct strbuf *sb, const char *path)
{
	char name[256];

	if (!path) {
		strbuf__adds(sb, "[unknown]");
		return;
	}
	cgroup__short_name(path, name, sizeof(name));
	sanitize_str(sb, name);
}

/* The cell text of a row in one column, sanitized, unpadded. */
void fmt__duration(struct strbuf *sb, u64 ns)
{
	if (ns >= 10000000000ULL)
		strbuf__addf(sb, "%.1f s", (double)ns / 1e9);
	else if (ns >= 1000000000ULL)
		strbuf__addf(sb, "%.2f s", (double)ns / 1e9);
	else if (ns >= 1000000ULL)
		strbuf__addf(sb, "%.1f ms", (double)ns / 1e6);
	else
		strbuf__addf(sb, "%.1f us", (double)ns / 1e3);
}

static void cell(struct strbuf *sb, const struct columns *c, enum column col,
		 const struct rowset *rs, const struct row *r)
{
	switch (col) {
	case COL_CHILDREN:
		strbuf__addf(sb, "%.2f%%", rowset__percent_children(rs, r));
		break;
	case COL_OVERHEAD:
		strbuf__addf(sb, "%.2f%%", rowset__percent(rs, r));
		break;
	case COL_SAMPLES:
		strbuf__addf(sb, "%" PRIu64, r->samples);
		break;
	case COL_PERIOD:
		if (c->time)	/* nanoseconds waited (--off-cpu) */
			fmt__duration(sb, c->children ? r->children_period :
							r->period);
		else
			strbuf__addf(sb, "%" PRIu64, r->period);
		break;
	case COL_COMM:
		sanitize_str(sb, r->comm ? r->comm : "[unknown]");
		break;
	case COL_PID:
		if (r->pid < 0)
			strbuf__adds(sb, "-");
		else
			strbuf__addf(sb, "%d", r->pid);
		break;
	case COL_TID:
		if (r->tid < 0)
			strbuf__adds(sb, "-");
		else
			strbuf__addf(sb, "%d", r->tid);
		break;
	case COL_CPU:
		strbuf__addf(sb, "%03d", r->cpu);
		break;
	case COL_CGROUP:
		fmt__cgroup(sb, r->cgroup);
		break;
	case COL_STATE:
		fmt__state(sb, r->state);
		break;
	case COL_DSO:
		sanitize_str(sb, r->dso_name);
		break;
	case COL_SYM:
		strbuf__addf(sb, "%s ", fmt__mode(r));
		fmt__symbol(sb, r);
		break;
	case COL_BASE_CHILDREN:
	case COL_BASELINE:
		if (r->cmp == CMP_NEW || r->cmp == CMP_NONE)
			strbuf__adds(sb, "-");
		else
			strbuf__addf(sb, "%.2f%%", col == COL_BASELINE ?
				     r->base_pct : r->base_children_pct);
		break;
	case COL_DELTA_CHILDREN:
		delta_cell(sb, r, r->children_delta);
		break;
	case COL_DELTA:
		delta_cell(sb, r, r->delta);
		break;
	case COL_HISTORY:
		fmt__spark(sb, rs, r);
		break;
	default:
		break;
	}
}

static bool right_aligned(enum column col)
{
	return col == COL_OVERHEAD || col == COL_CHILDREN || col == COL_SAMPLES ||
	       col == COL_PERIOD || col == COL_PID || col == COL_TID ||
	       col == COL_BASELINE || col == COL_DELTA ||
	       col == COL_BASE_CHILDREN || col == COL_DELTA_CHILDREN;
}

void columns__fit(struct columns *c, const struct rowset *rs, size_t first,
		  size_t count, size_t total_width)
{
	struct strbuf sb;
	size_t used = 0, sym_i = c->nr, sym_need = 0;

	strbuf__init(&sb);
	for (size_t i = 0; i < c->nr; i++) {
		c->width[i] = strlen(columns__title(c, c->col[i]));
		if ((c->col[i] == COL_OVERHEAD || c->col[i] == COL_CHILDREN) &&
		    c->width[i] < 8)
			c->width[i] = 8;
		if (c->col[i] == COL_HISTORY && c->width[i] < c->history)
			c->width[i] = c->history;
	}
	for (size_t j = first; j < rs->nr && j < first + count; j++) {
		for (size_t i = 0; i < c->nr; i++) {
			size_t w;

			strbuf__reset(&sb);
			cell(&sb, c, c->col[i], rs, &rs->rows[j]);
			w = display_width(sb.buf ? sb.buf : "", sb.len);
			if (c->col[i] == COL_SYM) {
				if (w > sym_need)
					sym_need = w;
				continue;
			}
			if (c->col[i] == COL_DSO && w > DSO_MAX)
				w = DSO_MAX;
			if (c->col[i] == COL_COMM && w > COMM_MAX)
				w = COMM_MAX;
			if (c->col[i] == COL_CGROUP && w > CGROUP_MAX)
				w = CGROUP_MAX;
			if (w > c->width[i])
				c->width[i] = w;
		}
	}
	strbuf__fini(&sb);
	for (size_t i = 0; i < c->nr; i++) {
		if (c->col[i] == COL_SYM)
			sym_i = i;
		else
			used += c->width[i] + strlen(SEP);
	}
	/* the History column where the width allows: the symbol keeps
	 * room for two short names' width first */
	if (total_width && c->history && used + 2 * SYM_MIN > total_width) {
		size_t hw = MAX(c->history, strlen(titles[COL_HISTORY]));

		columns__history(c, 0);
		used -= hw + strlen(SEP);
		for (sym_i = 0; sym_i < c->nr && c->col[sym_i] != COL_SYM;)
			sym_i++;
	}
	if (!total_width) {
		/* unlimited: the symbol is never cut */
		if (sym_i < c->nr)
			c->width[sym_i] = SIZE_MAX / 4;
		return;
	}
	/* Too narrow: shrink the text columns so that the symbol keeps
	 * room for a short name (or all of the longest), then give up on
	 * them. */
	if (sym_need > SYM_MIN || sym_i == c->nr)
		sym_need = SYM_MIN;
	for (size_t i = 0; i < c->nr && used + sym_need > total_width; i++) {
		size_t *w = &c->width[i];

		if (c->col[i] != COL_DSO && c->col[i] != COL_COMM &&
		    c->col[i] != COL_CGROUP)
			continue;
		while (*w > 6 && used + sym_need > total_width) {
			(*w)--;
			used--;
		}
	}
	if (sym_i < c->nr)
		c->width[sym_i] = total_width > used ? total_width - used : 0;
}

int columns__at(const struct columns *c, size_t x)
{
	size_t end = 0;

	for (size_t i = 0; i < c->nr; i++) {
		end += (i ? strlen(SEP) : 0) + c->width[i];
		/* the last column takes the rest of the line */
		if (x < end || i + 1 == c->nr)
			return (int)c->col[i];
	}
	return -1;
}

void fmt__header(struct strbuf *sb, const struct columns *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		const char *t = columns__title(c, c->col[i]);
		size_t w = c->width[i], tl = strlen(t);

		if (i)
			strbuf__adds(sb, SEP);
		if (right_aligned(c->col[i]))
			for (size_t k = tl; k < w; k++)
				strbuf__addc(sb, ' ');
		fit_width(sb, t, w, !right_aligned(c->col[i]) && i + 1 < c->nr,
			  false);
	}
}

void fmt__row(struct strbuf *sb, const struct columns *c,
	      const struct rowset *rs, const struct row *r, size_t *col_off)
{
	struct strbuf txt;

	strbuf__init(&txt);
	for (size_t i = 0; i < c->nr; i++) {
		enum column col = c->col[i];
		const char *s;
		size_t w;

		if (i)
			strbuf__adds(sb, SEP);
		if (col_off)
			col_off[i] = sb->len;
		strbuf__reset(&txt);
		cell(&txt, c, col, rs, r);
		s = txt.buf ? txt.buf : "";
		w = display_width(s, txt.len);
		if (right_aligned(col)) {
			for (size_t k = w; k < c->width[i]; k++)
				strbuf__addc(sb, ' ');
			strbuf__adds(sb, s);
		} else {
			/* the last column is not padded: no trailing blanks */
			fit_width(sb, s, c->width[i], i + 1 < c->nr, false);
		}
	}
	strbuf__fini(&txt);
}

double fmt__tree_percent(const struct callgraph *tr, const struct cg_node *n)
{
	return share_percent(n->period, n->samples, tr->total_period,
			     tr->total_samples);
}

void fmt__tree_sym(struct strbuf *sb, const struct cg_node *n)
{
	if (n->sym)
		sanitize_str(sb, n->sym);
	else
		strbuf__addf(sb, "0x%" PRIx64, n->addr);
}

void fmt__tree_name(struct strbuf *sb, const struct cg_node *n)
{
	fmt__tree_sym(sb, n);
	if (n->inlined)
		strbuf__adds(sb, " (inlined)");
}

/* The children of p at or above the limit (percent of the row). */
static size_t tree_kids(const struct callgraph *tr, u32 p, double limit,
			u32 *kids, size_t max)
{
	size_t n = 0;

	for (u32 c = tr->nodes[p].first_child; c && n < max;
	     c = tr->nodes[c].next_sibling)
		if (fmt__tree_percent(tr, &tr->nodes[c]) >= limit)
			kids[n++] = c;
	return n;
}

struct tree_out {
	fmt_tree_line_fn fn;
	void *ctx;
	struct strbuf line;
};

static void add_prefix(struct strbuf *line, const struct strbuf *prefix)
{
	if (prefix->len)
		strbuf__add(line, prefix->buf, prefix->len);
}

static void tree_emit(struct tree_out *o, u32 node)
{
	o->fn(o->ctx, o->line.buf ? o->line.buf : "", o->line.len, node);
	strbuf__reset(&o->line);
}

/*
 * perf's graph style: a single callee continues the line below its
 * caller, several branch with their share of the row:
 *
 *             ---outer
 *                |
 *                |--66.92%--inner_a
 *                |
 *                 --33.08%--inner_b
 */
static void tree_lines(struct tree_out *o, const struct callgraph *tr, u32 p,
		       struct strbuf *prefix, double limit, bool top)
{
	u32 kids[64];
	size_t n = tree_kids(tr, p, limit, kids, ARRAY_SIZE(kids));
	size_t plen = prefix->len;

	if (n == 1) {
		add_prefix(&o->line, prefix);
		strbuf__adds(&o->line, top ? "---" : "");
		fmt__tree_name(&o->line, &tr->nodes[kids[0]]);
		tree_emit(o, kids[0]);
		if (top)
			strbuf__adds(prefix, "   ");
		tree_lines(o, tr, kids[0], prefix, limit, false);
		prefix->len = plen;
		if (prefix->buf)
			prefix->buf[plen] = '\0';
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct cg_node *c = &tr->nodes[kids[i]];
		bool last = i + 1 == n;
		char head[48];
		int hl = snprintf(head, sizeof(head), "%s%.2f%%--",
				  last ? " --" : "|--",
				  fmt__tree_percent(tr, c));

		add_prefix(&o->line, prefix);
		strbuf__addc(&o->line, '|');
		tree_emit(o, 0);
		add_prefix(&o->line, prefix);
		strbuf__adds(&o->line, head);
		fmt__tree_name(&o->line, c);
		tree_emit(o, kids[i]);
		strbuf__addc(prefix, last ? ' ' : '|');
		for (int k = 1; k < hl; k++)
			strbuf__addc(prefix, ' ');
		tree_lines(o, tr, kids[i], prefix, limit, false);
		prefix->len = plen;
		if (prefix->buf)
			prefix->buf[plen] = '\0';
	}
}

void fmt__tree(const struct callgraph *tr, const char *indent, double limit,
	       fmt_tree_line_fn fn, void *ctx)
{
	struct tree_out o = { .fn = fn, .ctx = ctx };
	struct strbuf prefix;

	if (!tr->nr)
		return;
	strbuf__init(&o.line);
	strbuf__init(&prefix);
	strbuf__adds(&prefix, indent);
	tree_lines(&o, tr, 0, &prefix, limit, true);
	strbuf__fini(&prefix);
	strbuf__fini(&o.line);
}
