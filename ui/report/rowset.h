/* rowset: display rows grouped and sorted from a snapshot (pure; symbol
 * resolution is a callback so that this module stays testable). */
#ifndef PTOP_ROWSET_H
#define PTOP_ROWSET_H

#include "src/core/session.h"
#include "src/core/util.h"
#include "ui/report/sort.h"

/* What the resolver says of an address.  Strings must stay valid and be
 * the same pointer for the same name as long as the rowset lives. */
struct row_sym {
	const char *name;	/* NULL: no symbol */
	u64 start, size;	/* key space; for no symbol: the address */
	const char *dso_name;
	u32 flags;		/* SYM_F_* of the symbolizer */
};

typedef int (*row_resolve_fn)(void *ctx, const struct dso *dso, u64 addr,
			      struct row_sym *out);

struct row_filter {
	bool hide_kernel, hide_user;
	double percent_limit;	/* rows under this share are hidden */
	const char *sym_substr;	/* case-insensitive substring of the name */
	const struct dso *dso;	/* zoom: only this dso */
	const char *dso_name;	/* zoom into a kernel module by name */
	bool has_pid, has_tid;
	s32 pid, tid;		/* zoom: this process / thread */
	bool has_cgroup;
	const char *cgroup;	/* zoom: this cgroup (interned; NULL: the
				 * samples of no known cgroup) */
	size_t max_rows;	/* 0: all */
	/* The idle task's samples are left out of the rows and of the
	 * totals their shares are of, unless this is set. */
	bool show_idle;
};

enum row_cmp {
	CMP_NONE,		/* no baseline */
	CMP_BOTH,		/* in the baseline and now */
	CMP_NEW,		/* not in the baseline */
	CMP_GONE,		/* only in the baseline: no samples now and
				 * dso NULL (nothing to annotate) */
};

struct row {
	const struct dso *dso;
	const char *dso_name;
	const char *sym;	/* NULL: unresolved, shown as an address */
	u64 sym_start, sym_size;
	u64 addr;		/* the address for unresolved rows */
	u32 sym_flags;
	bool kernel;
	/* a function inlined into others (sym its name, sym_start the start
	 * of the first function it was found in): a Children row of
	 * --inline, grouped by (dso, name), with no self cost */
	bool inlined;
	const char *comm;
	const char *cgroup;	/* interned path, NULL: unknown */
	s32 pid, tid, cpu;
	u8 state;		/* hist_key.state: 0 on CPU */
	u64 samples, period;		/* self */
	u64 children_samples, children_period;	/* self + callees */
	u32 stamp;			/* internal: last entry counted */
	/* against a baseline (compare.c): its shares of this row's
	 * identity and the change in points (current - baseline) */
	enum row_cmp cmp;
	double base_pct, base_children_pct;
	double delta, children_delta;
};

struct row_series;

struct rowset {
	struct row *rows;
	size_t nr, cap;
	u64 total_samples, total_period;	/* of the snapshot */
	u64 shown_samples, shown_period;	/* of the rows kept */
	u64 hidden_rows;			/* under percent_limit or
						 * beyond max_rows */
	/* grouping table, reused between builds */
	u32 *slots;
	size_t nslots;
	/* per snapshot: each distinct (dso, address) resolved once, and
	 * the paths of the samples indexed by function (rowset.c) */
	struct rowset_memo *memo;
	const struct snapshot *snap;	/* of the last build: the one
					 * given, or shown */
	const struct snapshot *given;	/* of the last build as given:
					 * snap is it or its view shown */
	struct snapshot shown;		/* the given one without idle */
	row_resolve_fn resolve;
	void *resolve_ctx;
	/* --inline: Children rows for the functions inlined at each frame
	 * (rowset__set_inline_rows); NULL: none */
	size_t (*inl_rows)(void *ctx, const struct dso *dso, u64 addr,
			   const char **names, size_t max);
	void *inl_rows_ctx;
	/* compare: called on the grouped rows before they are sorted and
	 * cut (rowset__set_compare); NULL: none */
	int (*cmp_rows)(void *ctx, struct rowset *rs);
	void *cmp_ctx;
	/* rowset__set_answers_gen; 0: every build starts over */
	u64 answers_gen;
	/* asked between chains and entries (rowset__set_cancel); NULL:
	 * never */
	bool (*cancel)(void *ctx);
	void *cancel_ctx;
	struct sort_spec spec;
	/* the rows' history, when their owner made it for this build
	 * (rowset__series); NULL: none */
	const struct row_series *series;
};

void rowset__init(struct rowset *rs);
void rowset__fini(struct rowset *rs);
/* The rows' and the memo's memory (the -vv figures). */
size_t rowset__bytes(const struct rowset *rs);
int rowset__build(struct rowset *rs, const struct snapshot *snap,
		  const struct sort_spec *spec, const struct row_filter *filter,
		  row_resolve_fn resolve, void *ctx);

/* Share of a row in percent of the snapshot's total period (samples when
 * the period is zero): self, and with children. */
double rowset__percent(const struct rowset *rs, const struct row *r);
double rowset__percent_children(const struct rowset *rs, const struct row *r);

/*
 * Call trees.  The tree of a row holds, weighted by period, the paths of
 * the samples that involve it: for its own samples the whole chain from
 * the outermost caller down to it ("who calls it"), for the samples of
 * its callees the path from it down to the leaf ("what it spends in its
 * callees").  Without children (spec.children false, --no-children) only
 * its own samples count, each with its whole chain, as perf report
 * --no-children -G shows them.  CG_CALLEE reverses each path.  Node 0 is an invisible root;
 * percentages are relative to the row's total.
 */
enum cg_order {
	CG_CALLER,
	CG_CALLEE,
};

struct cg_node {
	const char *sym;	/* NULL: unresolved, see addr */
	const char *dso_name;
	const struct dso *dso;
	u64 addr;		/* the symbol's start, or the address */
	bool kernel;
	bool inlined;		/* a function inlined into its parent frame */
	u64 samples, period;
	u32 parent, first_child, next_sibling;	/* 0: none */
	u32 depth;		/* children of the root: 1 */
};

struct callgraph {
	struct cg_node *nodes;
	size_t nr, cap;
	u64 total_samples, total_period;	/* the row's total */
};

void callgraph__init(struct callgraph *t);
void callgraph__fini(struct callgraph *t);
/* r must be a row of the last rowset__build (same snapshot).  Children
 * are sorted by period, largest first. */
int rowset__tree(struct rowset *rs, const struct row *r, enum cg_order order,
		 struct callgraph *t);

/*
 * Inlined frames: the functions inlined at frame (dso, addr), innermost
 * first, at most max; returns how many (0: none known).  Names must be
 * the same pointer for the same name while the tree lives.
 */
typedef size_t (*cg_inline_fn)(void *ctx, const struct dso *dso, u64 addr,
			       const char **names, size_t max);
/* rowset__tree where each resolved frame that fn knows to be inside
 * inlined code also shows the inlined functions as frames of their own
 * (cg_node.inlined), like perf's --inline. */
int rowset__tree_inline(struct rowset *rs, const struct row *r,
			enum cg_order order, cg_inline_fn fn, void *ctx,
			struct callgraph *t);

/* fn is asked at each chain while a tree is built (a row's tree can
 * hold every chain of the snapshot: 100K of them take seconds), while
 * the first tree of a snapshot indexes its chains, and at each entry
 * while rowset__build adds Children; true ends the work: a tree returns
 * -ECANCELED and is unusable, rowset__build returns -ECANCELED with no
 * rows (built again, it starts over).
 * It must be cheap and may be asked often (table__cancel_hook). */
void rowset__set_cancel(struct rowset *rs, bool (*fn)(void *ctx), void *ctx);

/* resolve's answers, but those flagged SYM_F_PROVISIONAL (asked again
 * at each build), stay the same while gen does: then a build keeps what
 * the last one made of them, the frames of the chains and the paths
 * index of the entries that are the same (a live table grows at its
 * end), while the grouping, the zoom and the chains' owner and epoch
 * stay.  0 (the default): each build starts over. */
void rowset__set_answers_gen(struct rowset *rs, u64 gen);

/* With children and symbols grouped, rowset__build also makes a row of
 * each function fn says is inlined at a sampled address or a chain
 * frame (perf report's "(inlined)" rows): its Children are the samples
 * whose chain passes through it, once per sample; it has no self cost.
 * fn NULL: none (the default). */
void rowset__set_inline_rows(struct rowset *rs, cg_inline_fn fn, void *ctx);

/* The compare hook (compare__rows): from the next build, rows carry
 * their baseline shares and deltas, vanished rows are added, limits keep
 * a row that either side shows.  fn NULL: none. */
void rowset__set_compare(struct rowset *rs,
			 int (*fn)(void *ctx, struct rowset *rs), void *ctx);

/* Whether a and b are the same row under the grouping of the last build
 * (what identifies a row from one refresh to the next). */
bool rowset__same_row(const struct rowset *rs, const struct row *a,
		      const struct row *b);

/*
 * A function's neighbours in the sampled chains: its callers (the frame
 * just above it) and its callees (the frame just below), each counted
 * once per sample, with the samples and period of the samples in which
 * they call it or are called by it; largest first.  The neighbours are
 * rows with the identity fields of the grouping (sym, dso, comm, ...)
 * and samples/period set to those shares.  Totals: the samples whose
 * chain holds the function (its children total) and those where it is
 * the leaf (self).  x needs only the identity fields.
 */
struct cg_neighbours {
	struct row *callers, *callees;
	size_t nr_callers, nr_callees, cap_callers, cap_callees;
	u64 total_samples, total_period;
	u64 self_samples, self_period;
};

void cg_neighbours__init(struct cg_neighbours *nb);
void cg_neighbours__fini(struct cg_neighbours *nb);
int rowset__neighbours(struct rowset *rs, const struct row *x,
		       struct cg_neighbours *nb);

/*
 * A row's history: its samples and period in each of nr_buckets buckets
 * of time (the History column, JSON's "timeline"), counted as the rows
 * of the last build count them (Children with children, the filters and
 * zooms, idle left out unless shown).  Bucket b gives its entries (keys
 * whose chains are node(nctx, id)'s: the timeline's) and its totals,
 * the base of its shares.
 */
struct series_bucket {
	const struct hist_entry *entries;
	size_t nr;
	u64 samples, period;	/* the bucket's totals, as the rows' */
};

struct row_series {
	size_t nr_buckets, nr_rows;
	bool children;			/* the shares are of Children */
	u64 *samples, *period;		/* [row * nr_buckets + b]: self */
	u64 *csamples, *cperiod;	/* the same, Children (children) */
	u64 *tot_samples, *tot_period;	/* [b] */
	size_t cap, cap_tot;
	/* >= 0 before rowset__series: that row alone (as row 0) */
	long only_row;
	/* scratch: per chain node, its row; per row, the last entry */
	long *node_row;
	size_t cap_node_row;
	u32 *stamp;
	size_t cap_stamp;
};

/* Buckets of a timeline's cells for rowset__series: nb buckets over
 * cells [c0, c1) of event ev, each a sum of its cells (bucket k: cells
 * [c0 + k n / nb, c0 + (k + 1) n / nb) for n = c1 - c0 >= nb; with
 * fewer cells, the last buckets one cell each, the first empty), their
 * totals idle out unless show_idle.  0 or -ENOMEM. */
struct timeline;
struct series_buf {
	struct series_bucket *b;
	size_t nb, cap_b;
	size_t *first;		/* [nb]: each bucket's first cell */
	size_t *end;		/* [nb]: its end (first == end: empty) */
	size_t cap_first;
	struct hist_entry *ent;
	size_t cap_ent;
	struct hist_entry *tmp;
	size_t cap_tmp;
};

void series_buf__init(struct series_buf *sb);
void series_buf__fini(struct series_buf *sb);
int series_buf__fill(struct series_buf *sb, struct timeline *tl, size_t ev,
		     size_t c0, size_t c1, size_t nb, bool show_idle);

void row_series__init(struct row_series *s);
void row_series__fini(struct row_series *s);
/* 0, -ECANCELED (the rowset's cancel hook) or -ENOMEM (then s holds no
 * buckets). */
int rowset__series(struct rowset *rs, const struct row_filter *f,
		   const struct series_bucket *b, size_t nb,
		   const struct cc_node *nodes, size_t nr_nodes,
		   struct row_series *s);
/* Row i's share of bucket b in percent (period, else samples, as
 * rowset__percent; Children with children); -1 when the bucket has no
 * samples at all. */
double row_series__share(const struct row_series *s, size_t i, size_t b);

/* The frames of a chain a sample path keeps, the sampled one (the
 * leaf) included: past it the outermost callers are left out, in the
 * paths index (rowset__foreach_path, trees, callers) as in pprof's
 * Samples.  Inlined frames a path expands come on top. */
#define MAX_PATH_FRAMES 1024

/* A frame of a path: a function, or (inlined) a function inlined into
 * the function of the frame before it, at the same address. */
struct path_frame {
	struct row_sym sym;
	const struct dso *dso;	/* of the frame (an inlined one: of the
				 * function it was inlined into) */
	bool inlined;
};

/* Every sample path of the last build, root first, leaf (the entry's own
 * symbol) last; entries without a chain give one frame.  fn returns 0 to
 * go on. */
typedef int (*row_path_fn)(void *ctx, const struct path_frame *frames,
			   size_t n, const struct hist_entry *e);
int rowset__foreach_path(struct rowset *rs, row_path_fn fn, void *ctx);
/* rowset__foreach_path with the inlined frames inl knows, placed as
 * rowset__tree_inline places them (the same expansion). */
int rowset__foreach_path_inline(struct rowset *rs, cg_inline_fn inl,
				void *inl_ctx, row_path_fn fn, void *ctx);

#endif
