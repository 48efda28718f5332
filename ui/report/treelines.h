/* treelines: the call trees expanded under the table's rows (+, E, C, G):
 * which rows are expanded, kept across refreshes by row identity, and
 * the table's lines (rows and tree lines) rebuilt from each snapshot;
 * pure (the inline lookups are a callback). */
#ifndef PTOP_TREELINES_H
#define PTOP_TREELINES_H

#include "ui/report/rowset.h"
#include "src/core/util.h"

/* E expands the trees of this many rows at most (each tree reads the
 * entries of its row: the drawn lines are the cost). */
#define CT_MAX_TREES 100
/* Tree lines start under the Self column, as in batch text. */
#define CT_INDENT "            "

/* A line of the table: a row, or a line of its tree. */
struct ct_line {
	u32 row;		/* index of the row in the rowset */
	u32 sub;		/* 0: the row itself; n: its tree's n-th line */
	u32 off, len;		/* tree line: its text in treelines.text */
	struct cg_node node;	/* tree line: the function it names
				 * (node.sym and node.dso NULL: none) */
};

struct ct_id {
	struct row row;		/* identity fields only */
	bool expanded;
};

struct treelines {
	enum cg_order order;
	double limit;		/* percent of a row under which branches are
				 * left out */
	cg_inline_fn inl;	/* NULL: no inlined frames */
	void *inl_ctx;
	bool all;		/* E: every row expanded (ids: exceptions) */
	struct ct_id *ids;	/* rows toggled with + */
	size_t nr_ids, cap_ids;
	/* built by treelines__build; without any tree, line i is row i */
	struct ct_line *lines;
	size_t nr_lines, cap_lines;
	u32 *row_line;		/* row -> its line */
	size_t cap_row_line;
	size_t nr_rows;		/* rows of the last build */
	/* What a build draws (treelines__build): the trees of the rows up
	 * to want_row, and of the rows after it while fewer than
	 * want_lines lines follow it (0: every tree); the owner sets them
	 * from what it shows.  lazy_from: the first row whose tree waits
	 * (the rows from it have their own line alone); nr_rows: none. */
	size_t want_row, want_lines;
	size_t lazy_from;
	bool has_lines;
	size_t trees;		/* trees drawn */
	bool capped;		/* some expanded rows have no tree drawn */
	struct strbuf text;
	struct callgraph tree;	/* scratch */
};

void treelines__init(struct treelines *ct, enum cg_order order, double limit);
void treelines__fini(struct treelines *ct);

/* Whether row i of rs shows its tree. */
bool treelines__expanded(const struct treelines *ct, const struct rowset *rs,
			size_t i);
/* Toggles row i's tree; returns whether it is expanded now. */
bool treelines__toggle(struct treelines *ct, const struct rowset *rs, size_t i);
void treelines__expand_all(struct treelines *ct);
void treelines__collapse_all(struct treelines *ct);

/* The lines of rs with the trees of the expanded rows (after each
 * rowset__build), as far as want_row and want_lines ask: E at 100,000
 * distinct chains draws the trees a screen shows, not every row's.  A
 * tree cut short by rs's cancel hook ends the trees: the rows that
 * follow have none (the owner, whose hook said so, builds again).  0 or
 * -ENOMEM (the rows are still there). */
int treelines__build(struct treelines *ct, struct rowset *rs);
/* Draws the trees that wait until row has its tree and `after` lines
 * follow its line (SIZE_MAX: every tree).  The lines of the rows before
 * the first that waited keep their numbers; those after move down (keep
 * a position as a row and sub-line: treelines__line, treelines__line_of).
 * 0 or -ENOMEM. */
int treelines__draw_to(struct treelines *ct, struct rowset *rs, size_t row,
		      size_t after);
/* Whether every expanded row's tree is drawn (or no lines are built). */
bool treelines__complete(const struct treelines *ct, const struct rowset *rs);

size_t treelines__nr_lines(const struct treelines *ct, const struct rowset *rs);
/* Line i: its row and sub-line; for a tree line (sub > 0) the line
 * itself, else NULL. */
const struct ct_line *treelines__line(const struct treelines *ct,
				     const struct rowset *rs, size_t i,
				     size_t *row, size_t *sub);
/* The line of row's sub-th tree line (the last one of its tree if it has
 * fewer), to keep a selection across refreshes. */
size_t treelines__line_of(const struct treelines *ct, const struct rowset *rs,
			 size_t row, size_t sub);

#endif
