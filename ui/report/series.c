/* series: a row's history over buckets of time (pure): the History
 * column and JSON's "timeline", counted as the rows count. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/timeline.h"
#include "ui/report/rowset.h"
#include "ui/report/rowset_internal.h"

void row_series__init(struct row_series *s)
{
	memset(s, 0, sizeof(*s));
	s->only_row = -1;
}

void series_buf__init(struct series_buf *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void series_buf__fini(struct series_buf *sb)
{
	free(sb->b);
	free(sb->first);
	free(sb->end);
	free(sb->ent);
	free(sb->tmp);
	memset(sb, 0, sizeof(*sb));
}

int series_buf__fill(struct series_buf *sb, struct timeline *tl, size_t ev,
		     size_t c0, size_t c1, size_t nb, bool show_idle)
{
	size_t n = c1 - c0, lead = n < nb ? nb - n : 0, used = 0, old;

	sb->nb = 0;
	old = sb->cap_first;
	if (array__grow((void **)&sb->b, &sb->cap_b, nb ? nb : 1,
			sizeof(*sb->b)) ||
	    array__grow((void **)&sb->first, &sb->cap_first, nb ? nb : 1,
			sizeof(*sb->first)))
		return -ENOMEM;
	sb->cap_first = old;
	if (array__grow((void **)&sb->end, &sb->cap_first, nb ? nb : 1,
			sizeof(*sb->end)))
		return -ENOMEM;
	for (size_t k = 0; k < nb; k++) {
		struct series_bucket *b = &sb->b[k];
		size_t a = k < lead ? c0 : c0 + (k - lead) * n / (nb - lead);
		size_t z = k < lead ? c0 : c0 + (k - lead + 1) * n / (nb - lead);
		long got;

		memset(b, 0, sizeof(*b));
		sb->first[k] = a;
		sb->end[k] = z;
		for (size_t c = a; c < z; c++) {
			struct timeline_totals tot;

			timeline__cell_totals(tl, c, ev, &tot);
			b->samples += tot.samples;
			b->period += tot.period;
			if (!show_idle) {
				b->samples -= tot.idle_samples;
				b->period -= tot.idle_period;
			}
		}
		if (a == z)
			continue;
		got = timeline__sum(tl, ev, a, z, &sb->tmp, &sb->cap_tmp);
		if (got < 0 || array__grow((void **)&sb->ent, &sb->cap_ent,
					   used + (size_t)got + 1,
					   sizeof(*sb->ent)))
			return -ENOMEM;
		memcpy(sb->ent + used, sb->tmp, (size_t)got * sizeof(*sb->tmp));
		/* entries is an offset until the buffer stops moving */
		b->entries = (const struct hist_entry *)(uintptr_t)used;
		b->nr = (size_t)got;
		used += (size_t)got;
	}
	for (size_t k = 0; k < nb; k++)
		sb->b[k].entries = sb->ent + (uintptr_t)sb->b[k].entries;
	sb->nb = nb;
	return 0;
}

void row_series__fini(struct row_series *s)
{
	free(s->samples);
	free(s->period);
	free(s->csamples);
	free(s->cperiod);
	free(s->tot_samples);
	free(s->tot_period);
	free(s->node_row);
	free(s->stamp);
	memset(s, 0, sizeof(*s));
}

/* Arrays of n u64s each (their capacities grow together). */
static int grow_u64s(u64 **arrs[], size_t nr, size_t *cap, size_t n)
{
	size_t want = MAX(n, (size_t)1);

	if (want <= *cap)
		return 0;
	want = MAX(want, 2 * *cap);
	for (size_t i = 0; i < nr; i++) {
		u64 *p = realloc(*arrs[i], want * sizeof(u64));

		if (!p)
			return -ENOMEM;
		*arrs[i] = p;
	}
	*cap = want;
	return 0;
}

static int series__reserve(struct row_series *s, size_t rows, size_t nb,
			   size_t nr_nodes)
{
	u64 **cells[] = { &s->samples, &s->period, &s->csamples, &s->cperiod };
	u64 **tots[] = { &s->tot_samples, &s->tot_period };
	size_t n = rows * nb;

	if (grow_u64s(cells, ARRAY_SIZE(cells), &s->cap, n) ||
	    grow_u64s(tots, ARRAY_SIZE(tots), &s->cap_tot, nb) ||
	    array__grow((void **)&s->node_row, &s->cap_node_row,
			nr_nodes ? nr_nodes : 1, sizeof(long)) ||
	    array__grow((void **)&s->stamp, &s->cap_stamp, rows ? rows : 1,
			sizeof(u32)))
		return -ENOMEM;
	for (size_t i = 0; i < ARRAY_SIZE(cells); i++)
		memset(*cells[i], 0, MAX(n, (size_t)1) * sizeof(u64));
	for (size_t i = 0; i < nr_nodes; i++)
		s->node_row[i] = ROW_UNSET;
	memset(s->stamp, 0, (rows ? rows : 1) * sizeof(u32));
	return 0;
}

/* The row a frame (dso, addr) of entry e stands for, ROW_HIDDEN when no
 * row shows it, or -ENOMEM. */
static long series__row(struct rowset *rs, const struct row_filter *f,
			const struct hist_entry *e, const struct dso *dso,
			u64 addr, bool whole, bool chain)
{
	u32 fi = rowset__fsym(rs, dso, addr, whole);
	struct row r;
	long row;

	if (fi == NONE)
		return -ENOMEM;
	row__make(&r, e, dso, chain ? frame__show(addr, true) : addr,
		  &rs->memo->fs[fi].sym);
	if (!row__visible(f, &r))
		return ROW_HIDDEN;
	row = rowset__find(rs, &r);
	return row < 0 ? ROW_HIDDEN : row;
}

/* A row of the build as a row of the series (only_row: that one as 0,
 * the others none). */
static long series__only(const struct row_series *s, long row)
{
	if (s->only_row < 0 || row < 0)
		return row;
	return row == s->only_row ? 0 : ROW_HIDDEN;
}

int rowset__series(struct rowset *rs, const struct row_filter *f,
		   const struct series_bucket *b, size_t nb,
		   const struct cc_node *nodes, size_t nr_nodes,
		   struct row_series *s)
{
	static const struct row_filter none;
	bool children = rs->spec.children, fields;
	size_t rows = s->only_row >= 0 ? 1 : rs->nr;
	u32 stamp = 0;

	if (!f)
		f = &none;
	s->nr_buckets = s->nr_rows = 0;
	if (!rs->memo || series__reserve(s, rows, nb, nr_nodes))
		return -ENOMEM;
	/* a frame's row is its own unless the grouping looks at the
	 * entry's fields (comm, pid, ...) */
	fields = rs->memo->entry_fields;
	for (size_t k = 0; k < nb; k++) {
		s->tot_samples[k] = b[k].samples;
		s->tot_period[k] = b[k].period;
		for (size_t i = 0; i < b[k].nr; i++) {
			const struct hist_entry *e = &b[k].entries[i];
			const struct cc_node *nd;
			struct cc_walk w;
			long row;

			if ((e->key.idle && !f->show_idle) ||
			    !entry__visible(f, e))
				continue;
			if (rowset__cancelled(rs))
				return -ECANCELED;
			stamp++;
			row = series__row(rs, f, e, e->key.dso, e->key.addr,
					  e->key.whole, false);
			if (row == -ENOMEM)
				return -ENOMEM;
			row = series__only(s, row);
			if (row >= 0) {
				s->samples[row * nb + k] += e->samples;
				s->period[row * nb + k] += e->period;
				s->csamples[row * nb + k] += e->samples;
				s->cperiod[row * nb + k] += e->period;
				s->stamp[row] = stamp;
			}
			if (!children)
				continue;
			/* its callers (the leaf is the entry, counted above) */
			cc_walk__callers(&w, nodes, nr_nodes, e->key.chain);
			while ((nd = cc_walk__next(&w))) {
				row = fields ? ROW_UNSET : s->node_row[w.id];
				if (row == ROW_UNSET) {
					row = series__row(rs, f, e, nd->dso,
							  nd->addr, false, true);
					if (row == -ENOMEM)
						return -ENOMEM;
					if (!fields)
						s->node_row[w.id] = row;
				}
				row = series__only(s, row);
				if (row < 0 || s->stamp[row] == stamp)
					continue;	/* once per sample */
				s->csamples[row * nb + k] += e->samples;
				s->cperiod[row * nb + k] += e->period;
				s->stamp[row] = stamp;
			}
		}
	}
	s->nr_buckets = nb;
	s->nr_rows = rows;
	s->children = children;
	return 0;
}

double row_series__share(const struct row_series *s, size_t i, size_t b)
{
	size_t at = i * s->nr_buckets + b;

	if (i >= s->nr_rows || b >= s->nr_buckets)
		return -1;
	if (s->tot_period[b])
		return 100.0 * (double)(s->children ? s->cperiod : s->period)[at] /
		       (double)s->tot_period[b];
	if (s->tot_samples[b])
		return 100.0 *
		       (double)(s->children ? s->csamples : s->samples)[at] /
		       (double)s->tot_samples[b];
	return -1;
}
