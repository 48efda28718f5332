/* timeline: the session's history as cells of time, each what the
 * histograms took between two takes (pure); windows are sums of cells. */
#ifndef PTOP_TIMELINE_H
#define PTOP_TIMELINE_H

#include "src/core/session.h"

/*
 * A cell holds, per event, what each histogram entry took since the
 * take before (hist__take: the entries' marks, not a diff of keys, so
 * that folds, decay and -z leave it exact), keyed by the timeline's own
 * dictionary of keys and its own copy of their call chains (the
 * session's are reset by -z and folded), plus the cell's totals.
 *
 * Cells are numbered by the caller's "fine" units: a refresh (the live
 * view: one cell a refresh) or a step of a grid of time (a recording's
 * or batch's --timeline SECONDS).  At most max_cells cells: when a take
 * falls past them, neighbours are merged two by two (the resolution
 * halves: a cell is 2^shift units) until it fits.  A window of whole
 * cells is then exact: the sum of what its cells took.
 *
 *   timeline__take(tl, s, fine)     at each refresh (session locked):
 *                                   what came since the last take goes
 *                                   to cell `fine`
 *   timeline__set_grid(tl, t0, w)   cells of w ns from t0 (0: the first
 *                                   sample's time) ...
 *   timeline__mark(tl, s, t)        ... and a reader's call before a
 *                                   record of time t >= the time it
 *                                   returned last: closes the cells
 *                                   that ended before t
 *
 * Memory: the cells' values (24 bytes a key a cell), the dictionary
 * (one histogram entry a key) and the chains.  Past the budget, the
 * keys of exited processes are folded as the session folds them, then
 * the oldest cells go (timeline__dropped says how much).
 */
struct timeline;

struct timeline_opts {
	size_t max_cells;	/* 0: 256; even */
	size_t budget;		/* bytes; 0: 64 MiB */
};

struct timeline *timeline__new(const struct timeline_opts *o);
void timeline__free(struct timeline *tl);

/* What came since the last take (session locked) into cell `fine`
 * (never before the last take's).  0 or -ENOMEM. */
int timeline__take(struct timeline *tl, struct session *s, u64 fine);
/*
 * The same, split along the snapshots it rides with (table__snapshot:
 * one pass over each histogram for its copy and its take):
 *
 *   timeline__take_begin(tl, s, fine)      the cell
 *   for each event: timeline__take_ev(tl, s, ev, &fn, &ctx),
 *       session__snapshot_take(s, ev, snap, fn, ctx, &err) (or
 *       session__take), timeline__take_ev_end(tl, ev)
 *   timeline__take_end(tl, s)              the merges and the budget
 *
 * Session locked throughout; an event whose take_ev failed is taken
 * next time.
 */
int timeline__take_begin(struct timeline *tl, struct session *s, u64 fine);
int timeline__take_ev(struct timeline *tl, struct session *s, size_t ev,
		      hist_take_fn *fn, void **ctx);
void timeline__take_ev_end(struct timeline *tl, size_t ev);
int timeline__take_end(struct timeline *tl, struct session *s);
/* The cell a take now goes to: the grid's current one, else the next
 * refresh. */
u64 timeline__now_fine(const struct timeline *tl);

/* Grid mode: cell k spans [t0 + k w, t0 + (k + 1) w) ns; t0 0: the
 * first sample's time (a recording's start). */
void timeline__set_grid(struct timeline *tl, u64 t0, u64 w);
/* Grid mode, before a record of time t is processed (session locked):
 * takes what came before t into the cell being filled when t is past
 * its end.  Returns the time of the next call (0: call at the next
 * record: no sample yet). */
u64 timeline__mark(struct timeline *tl, struct session *s, u64 t);
/* Grid mode: a take into the cell being filled (a refresh, the end of a
 * read). */
int timeline__take_now(struct timeline *tl, struct session *s);

/* Cells [0, n) are those kept. */
size_t timeline__nr_cells(const struct timeline *tl);
/* Cell i's span (ns, the samples' clock): the grid's, else from the
 * take before it to its own; 0, 0 when it has neither. */
void timeline__cell_span(const struct timeline *tl, size_t i, u64 *start,
			 u64 *end);
/* The fine units a cell holds (1 << merges), and the units of cell 0. */
u64 timeline__cell_units(const struct timeline *tl);
u64 timeline__first_unit(const struct timeline *tl);
/* The grid's step (0: not a grid) and first time. */
u64 timeline__grid(const struct timeline *tl, u64 *t0);
/* Where its time starts (ns): the grid's first time, else the start of
 * the first cell it ever had; 0 before any. */
u64 timeline__origin(const struct timeline *tl);

struct timeline_totals {
	u64 samples, period;
	u64 idle_samples, idle_period;	/* of them, the idle task's */
};

void timeline__cell_totals(const struct timeline *tl, size_t i, size_t ev,
			   struct timeline_totals *out);

/* Event ev's entries summed over cells [c0, c1) into *out (grown): keys
 * whose chains are the timeline's (timeline__chains).  The count,
 * or -ENOMEM. */
long timeline__sum(struct timeline *tl, size_t ev, size_t c0, size_t c1,
		   struct hist_entry **out, size_t *cap);
/* The timeline's chain nodes [0, *nr), a table for cc_walk: valid until
 * the next take. */
const struct cc_node *timeline__chains(const struct timeline *tl, size_t *nr);

/* A snapshot of event ev in the window [c0, c1): its entries and the
 * timeline's chains, with like's counters (since the start: lost,
 * dropped...) and sizes (NULL: none); out (initialized) owns its arrays.
 * 0 or -ENOMEM. */
int timeline__window(struct timeline *tl, size_t ev, size_t c0, size_t c1,
		     const struct snapshot *like, struct snapshot *out);

/* Cells [*c0, *c1) that overlap [start, end) (ns); false if none. */
bool timeline__cells_of(const struct timeline *tl, u64 start, u64 end,
			size_t *c0, size_t *c1);

size_t timeline__bytes(const struct timeline *tl);
/* Takes so far; cells dropped from the front for the budget, and the
 * start of the first cell kept. */
u64 timeline__takes(const struct timeline *tl);
u64 timeline__dropped(const struct timeline *tl);
/* Debug consistency check (tests): every cell's values name keys of
 * the dictionary once and add up to its totals.  0 or -EINVAL. */
int timeline__check(const struct timeline *tl);

#endif
