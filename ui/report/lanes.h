/* lanes: the lines of the timeline view over columns of time (pure):
 * every sample, the table's selected row, one line per process or
 * thread (hottest first), each column a bucket of the timeline's
 * cells. */
#ifndef PTOP_LANES_H
#define PTOP_LANES_H

#include "src/core/timeline.h"
#include "ui/report/rowset.h"

/* Owner lines at most (hottest first). */
#define LANES_OWNERS 200

struct lanes {
	size_t nb;			/* columns */
	struct series_buf buf;		/* their cells and entries */
	struct row_series sel;		/* the selected row's line */
	bool has_sel;
	struct snapshot whole;		/* every cell shown: the owners */
	struct rowset owners;		/* grouped by pid, or by tid */
	struct row_series own;		/* their lines */
	bool by_thread;
};

void lanes__init(struct lanes *l);
void lanes__fini(struct lanes *l);

/*
 * The lines of event ev over cells [c0, c1) in nb columns: the table's
 * row sel_row of rows (-1: none) and the owners (by_thread: threads,
 * else processes), with the table's filters f (but its limits), names
 * from resolve (the table's), counters from like.  0, -ECANCELED or
 * -ENOMEM.
 */
int lanes__build(struct lanes *l, struct timeline *tl, size_t ev, size_t c0,
		 size_t c1, size_t nb, struct rowset *rows, long sel_row,
		 const struct row_filter *f, bool by_thread,
		 row_resolve_fn resolve, void *resolve_ctx,
		 const struct snapshot *like);

/* Column b's value of the whole target, of the selected row, of owner i:
 * period when the event's samples carry one, else samples. */
u64 lanes__all(const struct lanes *l, size_t b);
u64 lanes__selected(const struct lanes *l, size_t b);
u64 lanes__owner(const struct lanes *l, size_t i, size_t b);

#endif
