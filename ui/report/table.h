/* table: what every front end shows; snapshots of the session turned
 * into sorted, filtered, symbolized rows.  Batch and TUI share it, so
 * the two never disagree. */
#ifndef PTOP_TABLE_H
#define PTOP_TABLE_H

#include "ui/report/rowset.h"
#include "src/core/session.h"
#include "src/core/timeline.h"
#include "symbols/symbolizer.h"

struct table {
	struct session *session;
	struct symbolizer *syms;
	struct snapshot *snaps;	/* one per session event */
	size_t nr_snaps;
	struct rowset rows;	/* rows of event `ev` */
	struct sort_spec spec;
	struct row_filter filter;
	size_t ev;
	char filter_buf[256];	/* storage for filter.sym_substr */
	/* symbol names of rows: table__resolve (tests put theirs) */
	row_resolve_fn resolve;
	void *resolve_ctx;
	/* Asked between two lookups (at most every few ms): true while a
	 * quit or a key waits; table__resolve then looks no more names up
	 * and rows show what is known (addresses) until the next build.
	 * NULL: never. */
	bool (*cancel)(void *ctx);
	void *cancel_ctx;
	double cancel_checked;
	u32 cancel_calls;	/* the clock is read every 64th call */
	bool cancelled;		/* in the last build */
	/* Compare: the baseline's table, whose rows are rebuilt with this
	 * one's grouping at each build (another session's for --baseline
	 * FILE, or frozen copies of this one's snapshots for the live
	 * mark), and the matching; NULL: none.  Owned by the table. */
	struct table *base;
	struct compare *cmp;
	char base_desc[256];	/* what the baseline is, for the header */
	/*
	 * Time.  The session's history (the app's; NULL: none) takes what
	 * came at each snapshot, before the mode zeroes or decays the
	 * histograms.  With a window, every view reads the window's
	 * snapshots (table__snap): the sums of its cells.  The rows'
	 * history (rows.series): over the last `history` cells, or with
	 * history_spread the whole range (or the window) in `history`
	 * buckets at most, or (HISTORY_CELLS) one bucket per cell; 0:
	 * none.
	 */
	struct timeline *tl;
	/* The memory budget (live; 0: none): the session's histograms and
	 * chains get what the timeline leaves of it, each refresh
	 * (session__set_budget, cold entries folded to their functions by
	 * table__func_of, but with keep_addrs: --push's profiles carry
	 * each address's line, so only the chains go). */
	size_t budget;
	bool keep_addrs;
	bool windowed;
	u64 win_start, win_end;		/* asked, the samples' clock (ns) */
	size_t win_c0, win_c1;		/* its cells at the last snapshot */
	struct snapshot *wsnaps;	/* [nr_wsnaps] */
	size_t nr_wsnaps;
	size_t history;
	bool history_spread;
	struct row_series series;
	size_t series_c0, series_c1;	/* the cells it covers */
	struct series_buf buckets;
};

#define HISTORY_CELLS ((size_t)-1)

void table__init(struct table *t, struct session *s, struct symbolizer *syms,
		 const struct sort_spec *spec);
/* session_func_fn over a symbolizer (ctx): the start of the function
 * holding (dso, addr) from the symbols it already holds (never a file
 * read; a provisional name is no answer). */
bool table__func_of(void *ctx, const struct dso *dso, u64 addr, u64 *start);
void table__fini(struct table *t);

/* Snapshots every event under the session lock, then applies mode to the
 * session (zero or decay) for the next window. */
int table__snapshot(struct table *t, enum hist_mode mode);
/* Zeroes the session between two snapshots (the live view's b and p):
 * the timeline first takes what came since the last snapshot, so that
 * its cells keep it. */
void table__zero_session(struct table *t);
/* Rows of event ev from the last snapshot, sorted and filtered. */
int table__build(struct table *t, size_t ev);
/* Starts reading the binaries of snap's samples and call chains side by
 * side (symbolizer__prefetch), before lookups ask for them one at a
 * time; table__build and annotate's search do it first. */
void table__prefetch(struct symbolizer *syms, const struct snapshot *snap);
const struct snapshot *table__snap(const struct table *t, size_t ev);
/* The session's snapshot, whatever window is shown (the push's). */
const struct snapshot *table__live_snap(const struct table *t, size_t ev);

/*
 * Compare.  table__set_baseline: base (heap, snapshot taken, its own
 * session or this one's) becomes the baseline; desc says what it is.
 * table__mark_baseline: copies of the last snapshot become it (the live
 * key).  table__clear_baseline: none.  0 or -errno.
 */
int table__set_baseline(struct table *t, struct table *base,
			const char *desc);
int table__mark_baseline(struct table *t, const char *desc);
void table__clear_baseline(struct table *t);
/* The baseline snapshot the rows of event ev are compared with (same
 * event name, else same index); NULL: none. */
const struct snapshot *table__base_snap(const struct table *t, size_t ev);

/*
 * A time window [start, end) (the samples' clock, ns) of the timeline's
 * cells: from the next table__build, every view shows its cells alone
 * (whole cells: those that overlap it).  -ENOENT when no cell does,
 * -ENOMEM.  table__window_span says the cells' span.
 */
int table__set_window(struct table *t, u64 start, u64 end);
void table__clear_window(struct table *t);
bool table__window_span(const struct table *t, u64 *start, u64 *end);

/* cancel's answer, asked at most every 5 ms; sticks until the next
 * table__build. */
bool table__cancelled(struct table *t);
/* The same for hooks (rowset's trees, inline lookups): table is the
 * struct table. */
bool table__cancel_hook(void *table);
/* The row_resolve_fn glue between rowset and the symbolizer. */
int table__resolve(void *ctx, const struct dso *dso, u64 addr,
		   struct row_sym *out);

#endif
