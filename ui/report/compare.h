/* compare: a baseline's rows matched to the current rows, with the
 * baseline share and the delta of each (pure). */
#ifndef PTOP_COMPARE_H
#define PTOP_COMPARE_H

#include "ui/report/rowset.h"
#include "src/core/util.h"

/*
 * Usage:
 *	c = compare__new();
 *	compare__set_base(c, &base_rows);	 a rowset built, uncut, from
 *						 the baseline (a file, or a
 *						 frozen snapshot)
 *	rowset__set_compare(&rows, compare__rows, c);
 *	rowset__build(&rows, ...);		 rows carry cmp, base_pct,
 *						 delta; vanished rows added
 *	compare__free(c);
 *
 * Rows are matched by what survives a rebuild: the base name of the
 * object and the symbol's name (the address for an unresolved one), plus
 * the comm, pid, tid and cpu when the grouping has them.  The baseline
 * copies its strings: it outlives the snapshot and symbols it came from.
 */
struct compare;

struct compare *compare__new(void);
void compare__free(struct compare *c);

/* Replaces the baseline with the rows of rs (built with rs->spec, the
 * grouping the current rows will have).  0 or -ENOMEM. */
int compare__set_base(struct compare *c, const struct rowset *rs);
/* Forgets the baseline's rows: every current row is then new. */
void compare__clear(struct compare *c);
/* The baseline's total period (of its rows' snapshot) and its rows. */
u64 compare__base_period(const struct compare *c);
size_t compare__base_rows(const struct compare *c);

/*
 * rowset's compare hook (ctx: the struct compare): sets cmp, base_pct,
 * base_children_pct, delta and children_delta of every grouped row of
 * rs, and appends a row (CMP_GONE, no samples, dso NULL) for each
 * baseline row no current row matched.  0 or -ENOMEM.
 */
int compare__rows(void *ctx, struct rowset *rs);

/* The delta a row is ordered by: children's with children. */
double compare__delta(const struct row *r, bool children);

#endif
