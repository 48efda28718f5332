/* neighbours: the callers and callees of one function, each with its
 * share of the function's samples, from the paths index (pure). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/rowset.h"
#include "ui/report/rowset_internal.h"

void cg_neighbours__init(struct cg_neighbours *nb)
{
	memset(nb, 0, sizeof(*nb));
}

void cg_neighbours__fini(struct cg_neighbours *nb)
{
	free(nb->callers);
	free(nb->callees);
	memset(nb, 0, sizeof(*nb));
}

/* Neighbours of one kind (callers or callees), found by key id. */
struct nb_list {
	struct row **arr;
	size_t *nr, *cap;
	struct intmap at;	/* key id + 1 -> index + 1 */
};

/* Counts frame f (key id k) of a sample for the neighbour it is, once
 * per sample (stamp). */
static int neighbour__add(struct nb_list *l, const struct hist_entry *e,
			  const struct fsym *f, bool chain, u32 k, u32 stamp)
{
	uintptr_t at = (uintptr_t)intmap__get(&l->at, (u64)k + 1);
	struct row *n;

	if (!at) {
		if (array__grow((void **)l->arr, l->cap, *l->nr + 1,
				sizeof(**l->arr)))
			return -ENOMEM;
		n = &(*l->arr)[*l->nr];
		row__make(n, e, f->dso, frame__show(f->addr, chain), &f->sym);
		at = ++*l->nr;
		if (intmap__put(&l->at, (u64)k + 1, (void *)at))
			return -ENOMEM;
	}
	n = &(*l->arr)[at - 1];
	if (n->stamp != stamp) {
		n->stamp = stamp;
		n->samples += e->samples;
		n->period += e->period;
	}
	return 0;
}

static int neighbour_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (!a->sym || !b->sym)
		return (a->sym == NULL) - (b->sym == NULL);
	return strcmp(a->sym, b->sym);
}

int rowset__neighbours(struct rowset *rs, const struct row *x,
		       struct cg_neighbours *nb)
{
	const struct snapshot *snap = rs->snap;
	struct rowset_memo *m = rs->memo;
	struct nb_list lc = { &nb->callers, &nb->nr_callers, &nb->cap_callers },
		       le = { &nb->callees, &nb->nr_callees, &nb->cap_callees };
	u32 kx;
	int err;

	nb->nr_callers = nb->nr_callees = 0;
	nb->total_samples = nb->total_period = 0;
	nb->self_samples = nb->self_period = 0;
	if (!snap || !m)
		return 0;
	err = rowset__key_of(rs, x, &kx);
	if (err || kx == NONE)
		return err;
	intmap__init(&lc.at);
	intmap__init(&le.at);
	for (u32 o = m->key_off[kx]; o < m->key_off[kx + 1] && !err; o++) {
		u32 i = m->occ_ent[o], off = m->ent_off[i];
		const struct hist_entry *e = &snap->entries[i];
		const u32 *fs = m->fr_fs + off;
		size_t n = m->ent_off[i + 1] - off;
		u32 stamp = i + 1;

		for (size_t k = m->occ_from[o]; k < n && !err; k++) {
			if (path_key(m, off, k, n) != kx)
				continue;
			if (k > 0)
				err = neighbour__add(&lc, e, &m->fs[fs[k - 1]],
						     true,
						     path_key(m, off, k - 1, n),
						     stamp);
			if (!err && k + 1 < n)
				err = neighbour__add(&le, e, &m->fs[fs[k + 1]],
						     k + 2 < n,
						     path_key(m, off, k + 1, n),
						     stamp);
		}
		nb->total_samples += e->samples;
		nb->total_period += e->period;
		/* the last frame is the entry itself */
		if (path_key(m, off, n - 1, n) == kx) {
			nb->self_samples += e->samples;
			nb->self_period += e->period;
		}
	}
	intmap__fini(&lc.at);
	intmap__fini(&le.at);
	if (err)
		return err;
	for (size_t i = 0; i < nb->nr_callers; i++)
		nb->callers[i].stamp = 0;
	for (size_t i = 0; i < nb->nr_callees; i++)
		nb->callees[i].stamp = 0;
	if (nb->nr_callers > 1)
		qsort(nb->callers, nb->nr_callers, sizeof(*nb->callers),
		      neighbour_cmp);
	if (nb->nr_callees > 1)
		qsort(nb->callees, nb->nr_callees, sizeof(*nb->callees),
		      neighbour_cmp);
	return 0;
}
