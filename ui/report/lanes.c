/* lanes: the lines of the timeline view over columns of time (pure). */
#include <errno.h>
#include <string.h>

#include "ui/report/lanes.h"

void lanes__init(struct lanes *l)
{
	memset(l, 0, sizeof(*l));
	series_buf__init(&l->buf);
	row_series__init(&l->sel);
	row_series__init(&l->own);
	snapshot__init(&l->whole);
	rowset__init(&l->owners);
}

void lanes__fini(struct lanes *l)
{
	series_buf__fini(&l->buf);
	row_series__fini(&l->sel);
	row_series__fini(&l->own);
	rowset__fini(&l->owners);
	snapshot__fini(&l->whole);
	memset(l, 0, sizeof(*l));
}

int lanes__build(struct lanes *l, struct timeline *tl, size_t ev, size_t c0,
		 size_t c1, size_t nb, struct rowset *rows, long sel_row,
		 const struct row_filter *f, bool by_thread,
		 row_resolve_fn resolve, void *resolve_ctx,
		 const struct snapshot *like)
{
	struct sort_spec spec = { .nr_group = 1, .order = SORT_OVERHEAD };
	struct row_filter of = *f;
	const struct cc_node *nodes;
	size_t nr_nodes;
	int err;

	l->nb = 0;
	l->has_sel = false;
	err = series_buf__fill(&l->buf, tl, ev, c0, c1, nb, f->show_idle);
	if (err)
		return err;
	l->nb = nb;
	if (sel_row >= 0 && (size_t)sel_row < rows->nr) {
		l->sel.only_row = sel_row;
		nodes = timeline__chains(tl, &nr_nodes);
		err = rowset__series(rows, f, l->buf.b, nb, nodes, nr_nodes,
				     &l->sel);
		if (err)
			return err;
		l->has_sel = true;
	}
	/* the owners of the samples shown, hottest first */
	l->by_thread = by_thread;
	spec.group[0] = by_thread ? SORT_TID : SORT_PID;
	of.percent_limit = 0;
	of.max_rows = LANES_OWNERS;
	err = timeline__window(tl, ev, c0, c1, like, &l->whole);
	if (!err)
		err = rowset__build(&l->owners, &l->whole, &spec, &of, resolve,
				    resolve_ctx);
	if (!err) {
		nodes = timeline__chains(tl, &nr_nodes);
		err = rowset__series(&l->owners, &of, l->buf.b, nb, nodes,
				     nr_nodes, &l->own);
	}
	return err;
}

static u64 pick(const struct lanes *l, size_t b, const u64 *samples,
		const u64 *period, size_t at)
{
	return l->buf.b[b].period ? period[at] : samples[at];
}

u64 lanes__all(const struct lanes *l, size_t b)
{
	if (b >= l->nb)
		return 0;
	return l->buf.b[b].period ? l->buf.b[b].period : l->buf.b[b].samples;
}

u64 lanes__selected(const struct lanes *l, size_t b)
{
	const struct row_series *s = &l->sel;

	if (!l->has_sel || b >= l->nb || b >= s->nr_buckets || !s->nr_rows)
		return 0;
	return s->children ? pick(l, b, s->csamples, s->cperiod, b) :
			     pick(l, b, s->samples, s->period, b);
}

u64 lanes__owner(const struct lanes *l, size_t i, size_t b)
{
	const struct row_series *s = &l->own;

	if (i >= s->nr_rows || b >= s->nr_buckets || b >= l->nb)
		return 0;
	return pick(l, b, s->samples, s->period, i * s->nr_buckets + b);
}
