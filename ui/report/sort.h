/* sort: the keys rows are grouped and ordered by (-s, the live view's
 * s), and their specs (pure). */
#ifndef PTOP_SORT_H
#define PTOP_SORT_H

#include "src/core/util.h"

enum sort_key {
	SORT_OVERHEAD,		/* ordering only */
	SORT_SAMPLES,		/* ordering only */
	SORT_PERIOD,		/* ordering only */
	SORT_DELTA,		/* ordering only: against a baseline */
	SORT_ABSDELTA,		/* ordering only: |delta| */
	SORT_SYM,
	SORT_DSO,
	SORT_COMM,
	SORT_PID,
	SORT_TID,
	SORT_CPU,
	SORT_CGROUP,		/* the sample's cgroup path */
	SORT_STATE,		/* an off-CPU wait's thread state */
	SORT__MAX,
};

/* perf's names: overhead, sample, period, sym, dso, comm, pid, tid, cpu,
 * cgroup ("samples" and "symbol" are accepted too); state (ptop's: the
 * thread state of an off-CPU wait); delta and absdelta order rows
 * compared with a baseline (compare.h). */
const char *sort_key__name(enum sort_key k);
int sort_key__parse(const char *name, enum sort_key *k);
bool sort_key__groups(enum sort_key k);

struct sort_spec {
	enum sort_key group[SORT__MAX];	/* the columns rows are grouped by */
	size_t nr_group;
	enum sort_key order;		/* what rows are ordered by */
	bool invert;
	/* Call graphs: every row also gets its children (total) cost, the
	 * samples whose chain holds it anywhere, counted once per sample;
	 * functions seen only as callers get rows too, and "overhead"
	 * orders by the total, like perf report --children. */
	bool children;
	/* against a baseline (compare.h): the columns of fmt.c show its
	 * shares too; table__set_baseline sets it */
	bool compare;
};

/* "-s dso,sym": grouping keys, in column order; an ordering-only key in
 * the list sets the order.  Default order: overhead. */
int sort_spec__parse(const char *list, struct sort_spec *spec,
		     struct strbuf *err);
void sort_spec__default(struct sort_spec *spec);	/* dso,sym */
bool sort_spec__has(const struct sort_spec *spec, enum sort_key k);
/* The hist_key fields (enum key_field) grouping by spec needs. */
unsigned int sort_spec__key_fields(const struct sort_spec *spec);

#endif
