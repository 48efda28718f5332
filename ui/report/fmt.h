/* fmt: pure formatting of table rows into columns (text and TUI). */
#ifndef PTOP_FMT_H
#define PTOP_FMT_H

#include "ui/report/rowset.h"
#include "src/core/util.h"

enum column {
	COL_CHILDREN,		/* self + callees, with call graphs */
	COL_OVERHEAD,		/* titled "Self" next to Children */
	COL_SAMPLES,
	COL_PERIOD,
	COL_COMM,
	COL_PID,
	COL_TID,
	COL_CPU,
	COL_CGROUP,		/* the short name (cgroup__short_name) */
	COL_STATE,		/* fmt__state */
	COL_DSO,
	COL_SYM,
	/* against a baseline (compare.h): its share and the change */
	COL_BASE_CHILDREN,
	COL_DELTA_CHILDREN,
	COL_BASELINE,
	COL_DELTA,
	/* each row's share over time, a sparkline (rows.series) */
	COL_HISTORY,
	COL__MAX,
};

struct columns {
	enum column col[COL__MAX];
	size_t width[COL__MAX];	/* by position */
	size_t nr;
	bool children;		/* Children column: Overhead reads "Self" */
	bool time;		/* periods are nanoseconds (--off-cpu): the
				 * Period column is "Time", in s/ms/us, of
				 * Children when there are Children */
	bool time_added;	/* columns__timed added Period */
	size_t history;		/* the History column's buckets, 0: none */
};

/* The History column (a sparkline of the rows' series, one cell a
 * bucket) before the columns that name the row, or none (0). */
void columns__history(struct columns *c, size_t buckets);
/* Row r's sparkline (rs->series), sanitized text: a block per bucket,
 * scaled to the row's own largest share, a dot where it had none. */
void fmt__spark(struct strbuf *sb, const struct rowset *rs,
		const struct row *r);
/* A sparkline of n values (a dot: 0) scaled to their largest. */
void fmt__spark_values(struct strbuf *sb, const double *v, size_t n);
/* One of its cells: v of max in eighths (a block), a dot for none. */
void fmt__spark_char(struct strbuf *sb, double v, double max);

/* The event shown counts time (session__event_is_time) or not: a Time
 * column after Samples, or not (unless -show-period asked for Period). */
void columns__timed(struct columns *c, bool time);
/* ns as "1.23 s", "45.6 ms", "7.8 us". */
void fmt__duration(struct strbuf *sb, u64 ns);

const char *column__title(enum column c);

/* [Children,] Overhead (Self), Samples, [Period], then the grouped keys
 * in -s order; the symbol comes last so that it can take the rest of the
 * line.  Children appear when spec->children; with spec->compare,
 * Baseline before Overhead (Self) and Delta after it, Base-Ch and
 * Delta-Ch around Children. */
void columns__init(struct columns *c, const struct sort_spec *spec,
		   bool show_period);
/* Widths from the content of rows [first, first+count) and the titles;
 * the shared object and command columns are capped; with total_width
 * (0: unlimited) the symbol takes what is left and the others shrink
 * when the line is too narrow. */
void columns__fit(struct columns *c, const struct rowset *rs, size_t first,
		  size_t count, size_t total_width);

void fmt__header(struct strbuf *sb, const struct columns *c);
/* The column whose title or cells take display column x of the lines
 * fmt__header and fmt__row lay out (the gap before a column is its
 * own), or -1 past the last. */
int columns__at(const struct columns *c, size_t x);
/* One row.  col_off, if given, receives the byte offset where each
 * column starts (for colouring); every string is sanitized here. */
void fmt__row(struct strbuf *sb, const struct columns *c,
	      const struct rowset *rs, const struct row *r, size_t *col_off);

/* Sanitized symbol text of a row: its name or its address. */
void fmt__symbol(struct strbuf *sb, const struct row *r);
/* Sanitized short name of a cgroup path (cgroup__short_name);
 * "[unknown]" for NULL. */
void fmt__cgroup(struct strbuf *sb, const char *path);
/* A thread state (hist_key.state) as "S sleeping", "D disk sleep", "R
 * runnable" (preempted), ...; on CPU "running". */
void fmt__state(struct strbuf *sb, u8 state);
/* The [k] / [.] marker perf uses. */
const char *fmt__mode(const struct row *r);

/* Share of a call-tree node in percent of the tree's row. */
double fmt__tree_percent(const struct callgraph *tr, const struct cg_node *n);
/* Sanitized plain name of a node: the symbol or its address (JSON). */
void fmt__tree_sym(struct strbuf *sb, const struct cg_node *n);
/* What text trees show: fmt__tree_sym, then " (inlined)" after an
 * inlined function. */
void fmt__tree_name(struct strbuf *sb, const struct cg_node *n);

/*
 * A call tree in perf's graph style, one line at a time: fn gets each
 * line's text (no newline, sanitized) and the node it names, 0 for the
 * "|" lines between branches.  Every line starts with indent; branches
 * under limit (percent of the row) are left out.  Batch text and the
 * live view's expanded rows both draw with it.
 */
typedef void (*fmt_tree_line_fn)(void *ctx, const char *line, size_t len,
				 u32 node);
void fmt__tree(const struct callgraph *tr, const char *indent, double limit,
	       fmt_tree_line_fn fn, void *ctx);

#endif
