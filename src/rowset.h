/* rowset: display rows grouped and sorted from a snapshot (pure; symbol
 * resolution is a callback so that this module stays testable). */
#ifndef PTOP_ROWSET_H
#define PTOP_ROWSET_H

#include "session.h"
#include "util.h"

enum sort_key {
	SORT_OVERHEAD,		/* ordering only */
	SORT_SAMPLES,		/* ordering only */
	SORT_PERIOD,		/* ordering only */
	SORT_SYM,
	SORT_DSO,
	SORT_COMM,
	SORT_PID,
	SORT_TID,
	SORT_CPU,
	SORT__MAX,
};

/* perf's names: overhead, sample, period, sym, dso, comm, pid, tid, cpu
 * ("samples" and "symbol" are accepted too). */
const char *sort_key__name(enum sort_key k);
int sort_key__parse(const char *name, enum sort_key *k);
bool sort_key__groups(enum sort_key k);

struct sort_spec {
	enum sort_key group[SORT__MAX];	/* the columns rows are grouped by */
	size_t nr_group;
	enum sort_key order;		/* what rows are ordered by */
	bool invert;
};

/* "-s dso,sym": grouping keys, in column order; an ordering-only key in
 * the list sets the order.  Default order: overhead. */
int sort_spec__parse(const char *list, struct sort_spec *spec,
		     struct strbuf *err);
void sort_spec__default(struct sort_spec *spec);	/* dso,sym */
bool sort_spec__has(const struct sort_spec *spec, enum sort_key k);
/* The hist_key fields (enum key_field) grouping by spec needs. */
unsigned int sort_spec__key_fields(const struct sort_spec *spec);

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
	size_t max_rows;	/* 0: all */
};

struct row {
	const struct dso *dso;
	const char *dso_name;
	const char *sym;	/* NULL: unresolved, shown as an address */
	u64 sym_start, sym_size;
	u64 addr;		/* the address for unresolved rows */
	u32 sym_flags;
	bool kernel;
	const char *comm;
	s32 pid, tid, cpu;
	u64 samples, period;
};

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
};

void rowset__init(struct rowset *rs);
void rowset__fini(struct rowset *rs);
int rowset__build(struct rowset *rs, const struct snapshot *snap,
		  const struct sort_spec *spec, const struct row_filter *filter,
		  row_resolve_fn resolve, void *ctx);

/* Share of a row in percent of the snapshot's total period (samples when
 * the period is zero). */
double rowset__percent(const struct rowset *rs, const struct row *r);

#endif
