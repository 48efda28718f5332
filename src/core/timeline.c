/* timeline: the session's history as cells of time (pure): takes,
 * merges, the budget, windows. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/callchain.h"
#include "src/core/timeline.h"

#define TL_CELLS 256
#define TL_BUDGET ((size_t)64 << 20)
/* a dictionary is rebuilt (keys no cell names dropped, reaped processes
 * folded) when it doubled since the last rebuild, past this */
#define TL_COMPACT_MIN 4096

/* What one key took in one cell. */
struct tl_val {
	u32 id;			/* the key: its entry in the event's dict */
	u64 samples, period;
};

struct tl_evcell {
	struct tl_val *v;
	size_t nr, cap;
	struct timeline_totals tot;
};

struct tl_cell {
	u64 start, end;		/* from takes (the samples' clock); 0: none */
	struct tl_evcell *ev;	/* [nr_ev] */
	size_t nr_ev;
};

struct tl_event {
	struct hist *dict;	/* key -> id: its entry number (the counts
				 * stay 0) */
	u32 *ids;		/* the session histogram's entry i -> id + 1,
				 * 0: not known yet */
	size_t nr_ids, cap_ids;
	u64 layout;		/* of the histogram the ids are of */
	bool known;
};

struct timeline {
	size_t max_cells, budget;
	struct tl_cell *cells;	/* [max_cells]: cells[0, nr_cells) kept */
	size_t nr_cells;
	u64 first;		/* the number of cells[0]: fine >> shift */
	unsigned int shift;
	bool any;		/* a take came */
	u64 last_fine;
	u64 last_end;		/* the session's time at the last take */
	struct tl_event *evs;
	size_t nr_evs;
	/* the keys' chains, the timeline's own: the session's are reset by
	 * -z and forgotten; epoch moves when their ids change */
	struct callchains *chains;
	u64 epoch;
	/* the session's chain node -> ours (0: not yet), while the
	 * session's chains are those of cmap_epoch */
	u32 *cmap;
	size_t cap_cmap;
	u64 cmap_epoch;
	const struct session *cmap_s;
	u32 *stack;		/* a chain's nodes, leaf first */
	size_t cap_stack;
	/* id -> position + 1 in the values being summed; all 0 between
	 * uses */
	u32 *acc;
	size_t cap_acc;
	u64 origin;		/* timeline__origin */
	/* grid mode */
	bool grid;
	u64 t0, w, cur;
	u64 takes, dropped;
	size_t dict_compacted;	/* the dictionaries' size after the last
				 * rebuild */
	/* what could make a rebuild worth it since: a process reaped (keys
	 * fold), cells dropped (keys go) */
	u64 reap_gen, dropped_then;
	/* the take under way (timeline__take_begin ... _end) */
	struct tl_cell *cur_cell;
	struct take_ctx {
		struct timeline *tl;
		const struct session *s;
		struct tl_event *te;
		struct tl_evcell *ec;
	} tc;
};

struct timeline *timeline__new(const struct timeline_opts *o)
{
	struct timeline *tl = calloc(1, sizeof(*tl));

	if (!tl)
		return NULL;
	tl->max_cells = o && o->max_cells ? (o->max_cells + 1) & ~(size_t)1 :
					    TL_CELLS;
	if (tl->max_cells < 2)
		tl->max_cells = 2;
	tl->budget = o && o->budget ? o->budget : TL_BUDGET;
	tl->cells = calloc(tl->max_cells, sizeof(*tl->cells));
	tl->chains = callchains__new();
	if (!tl->cells || !tl->chains) {
		timeline__free(tl);
		errno = ENOMEM;
		return NULL;
	}
	return tl;
}

static void cell__fini(struct tl_cell *c)
{
	for (size_t e = 0; e < c->nr_ev; e++)
		free(c->ev[e].v);
	free(c->ev);
	memset(c, 0, sizeof(*c));
}

void timeline__free(struct timeline *tl)
{
	if (!tl)
		return;
	for (size_t i = 0; tl->cells && i < tl->nr_cells; i++)
		cell__fini(&tl->cells[i]);
	free(tl->cells);
	for (size_t e = 0; e < tl->nr_evs; e++) {
		hist__free(tl->evs[e].dict);
		free(tl->evs[e].ids);
	}
	free(tl->evs);
	callchains__free(tl->chains);
	free(tl->cmap);
	free(tl->stack);
	free(tl->acc);
	free(tl);
}

/* ---- scratch ---- */

/* acc covers ids [0, n). */
static int acc__reserve(struct timeline *tl, size_t n)
{
	size_t old = tl->cap_acc;

	if (n <= old)
		return 0;
	if (array__grow((void **)&tl->acc, &tl->cap_acc, n, sizeof(*tl->acc)))
		return -ENOMEM;
	memset(tl->acc + old, 0, (tl->cap_acc - old) * sizeof(*tl->acc));
	return 0;
}

/* ---- cells ---- */

static int evcell__reserve(struct tl_cell *c, size_t nr_ev)
{
	struct tl_evcell *p;

	if (nr_ev <= c->nr_ev)
		return 0;
	p = realloc(c->ev, nr_ev * sizeof(*p));
	if (!p)
		return -ENOMEM;
	memset(p + c->nr_ev, 0, (nr_ev - c->nr_ev) * sizeof(*p));
	c->ev = p;
	c->nr_ev = nr_ev;
	return 0;
}

static void totals__add(struct timeline_totals *a,
			const struct timeline_totals *b)
{
	a->samples += b->samples;
	a->period += b->period;
	a->idle_samples += b->idle_samples;
	a->idle_period += b->idle_period;
}

/* Gives back what a fold or a merge left unused. */
static void evcell__shrink(struct tl_evcell *ec)
{
	struct tl_val *v;

	if (ec->cap <= 2 * ec->nr + 16)
		return;
	if (!ec->nr) {
		free(ec->v);
		ec->v = NULL;
		ec->cap = 0;
		return;
	}
	v = realloc(ec->v, ec->nr * sizeof(*v));
	if (v) {
		ec->v = v;
		ec->cap = ec->nr;
	}
}

/* Adds src's values into dst, one value per key (acc reserved for the
 * event's ids, all 0). */
static int evcell__merge(struct timeline *tl, struct tl_evcell *dst,
			 struct tl_evcell *src)
{
	int err = 0;

	if (!src->nr && !src->tot.samples && !src->tot.period)
		return 0;
	if (!dst->nr) {
		struct tl_evcell keep = *dst;

		*dst = *src;
		totals__add(&dst->tot, &keep.tot);
		free(keep.v);
		memset(src, 0, sizeof(*src));
		return 0;
	}
	for (size_t j = 0; j < dst->nr; j++)
		tl->acc[dst->v[j].id] = (u32)j + 1;
	for (size_t j = 0; j < src->nr; j++) {
		const struct tl_val *s = &src->v[j];
		u32 p = tl->acc[s->id];

		if (p) {
			dst->v[p - 1].samples += s->samples;
			dst->v[p - 1].period += s->period;
			continue;
		}
		if (array__grow((void **)&dst->v, &dst->cap, dst->nr + 1,
				sizeof(*dst->v))) {
			err = -ENOMEM;
			break;
		}
		dst->v[dst->nr++] = *s;
		tl->acc[s->id] = (u32)dst->nr;
	}
	for (size_t j = 0; j < dst->nr; j++)
		tl->acc[dst->v[j].id] = 0;
	if (err)
		return err;
	totals__add(&dst->tot, &src->tot);
	free(src->v);
	memset(src, 0, sizeof(*src));
	return 0;
}

static size_t timeline__dict_nr(const struct timeline *tl)
{
	size_t n = 0;

	for (size_t e = 0; e < tl->nr_evs; e++)
		if (tl->evs[e].dict)
			n = MAX(n, hist__nr_entries(tl->evs[e].dict));
	return n;
}

static int cell__merge(struct timeline *tl, struct tl_cell *dst,
		       struct tl_cell *src)
{
	int err = evcell__reserve(dst, src->nr_ev);

	if (err)
		return err;
	for (size_t e = 0; e < src->nr_ev && !err; e++)
		err = evcell__merge(tl, &dst->ev[e], &src->ev[e]);
	if (err)
		return err;
	if (src->start && (!dst->start || src->start < dst->start))
		dst->start = src->start;
	if (src->end > dst->end)
		dst->end = src->end;
	cell__fini(src);
	return 0;
}

/* Neighbours merged two by two: a cell is twice the units it was. */
static int timeline__coarsen(struct timeline *tl)
{
	u64 first = tl->first >> 1;
	size_t n = 0;
	int err = acc__reserve(tl, timeline__dict_nr(tl));

	if (err)
		return err;
	for (size_t k = 0; k < tl->nr_cells; k++) {
		size_t d = (size_t)(((tl->first + k) >> 1) - first);

		/* d <= k: the cells before k are done */
		if (d != k) {
			err = cell__merge(tl, &tl->cells[d], &tl->cells[k]);
			if (err)
				return err;
		}
		n = d + 1;
	}
	tl->nr_cells = tl->nr_cells ? n : 0;
	tl->first = first;
	tl->shift++;
	return 0;
}

/* The cell of fine unit `fine` (made, merging others if it falls past
 * max_cells); NULL on ENOMEM. */
static struct tl_cell *timeline__cell(struct timeline *tl, u64 fine)
{
	u64 c;

	if (!tl->any)
		tl->first = fine >> tl->shift;
	for (;;) {
		c = fine >> tl->shift;
		if (c < tl->first)
			c = tl->first;	/* dropped for the budget */
		if (c - tl->first < tl->max_cells)
			break;
		if (timeline__coarsen(tl))
			return NULL;
	}
	if (c - tl->first >= tl->nr_cells)
		tl->nr_cells = (size_t)(c - tl->first) + 1;
	return &tl->cells[c - tl->first];
}

/* ---- chains ---- */

static int stack__push(struct timeline *tl, size_t n, u32 id)
{
	if (array__grow((void **)&tl->stack, &tl->cap_stack, n + 1,
			sizeof(*tl->stack)))
		return -ENOMEM;
	tl->stack[n] = id;
	return 0;
}

/* Chain id of the trie `from` (its nodes [0, nr_from): the session's,
 * or ours before a rebuild) as a node of `into`: up to the root or a
 * node map (from id -> into id, 0: not yet, grown zeroed) knows, then
 * down again, the nodes made on the way and mapped.  0 on ENOMEM. */
static u32 chain__map(struct timeline *tl, const struct cc_node *from,
		      size_t nr_from, struct callchains *into, u32 **map,
		      size_t *cap, u32 id)
{
	struct cc_walk w;
	u32 parent = 0;
	size_t n = 0;

	cc_walk__from(&w, from, nr_from, id);
	while (cc_walk__next(&w)) {
		if (w.id < *cap && (*map)[w.id]) {
			parent = (*map)[w.id];
			break;
		}
		if (stack__push(tl, n++, w.id))
			return 0;
	}
	while (n--) {
		u32 fid = tl->stack[n];
		const struct cc_node *nd = &from[fid];
		size_t old = *cap;

		parent = callchains__intern(into, parent, nd->dso, nd->addr);
		if (!parent)
			return 0;
		if (fid >= old) {
			if (array__grow((void **)map, cap, (size_t)fid + 1,
					sizeof(**map)))
				return 0;
			memset(*map + old, 0, (*cap - old) * sizeof(**map));
		}
		(*map)[fid] = parent;
	}
	return parent;
}

/* The session's chain id as ours (0 on ENOMEM), through a map kept
 * while the session's chains are those of one epoch. */
static u32 timeline__chain(struct timeline *tl, const struct session *s,
			   u32 id)
{
	const struct cc_node *nodes;
	size_t nr;

	if (tl->cmap_s != s || tl->cmap_epoch != session__chains_epoch(s)) {
		if (tl->cmap)
			memset(tl->cmap, 0, tl->cap_cmap * sizeof(*tl->cmap));
		tl->cmap_s = s;
		tl->cmap_epoch = session__chains_epoch(s);
	}
	nodes = session__chains(s, &nr);
	return chain__map(tl, nodes, nr, tl->chains, &tl->cmap,
			  &tl->cap_cmap, id);
}

/* ---- takes ---- */

static int ids__reserve(struct tl_event *te, size_t n)
{
	size_t old = te->cap_ids;

	if (n <= te->nr_ids)
		return 0;
	if (n > old) {
		if (array__grow((void **)&te->ids, &te->cap_ids, n,
				sizeof(*te->ids)))
			return -ENOMEM;
	}
	memset(te->ids + te->nr_ids, 0, (n - te->nr_ids) * sizeof(*te->ids));
	te->nr_ids = n;
	return 0;
}

static int take_one(void *ctx, size_t i, const struct hist_entry *e,
		    u64 samples, u64 period)
{
	struct take_ctx *c = ctx;
	struct timeline *tl = c->tl;
	struct tl_event *te = c->te;
	struct tl_evcell *ec = c->ec;
	u32 id, p;

	if (i < te->nr_ids && te->ids[i]) {
		id = te->ids[i] - 1;
	} else {
		struct hist_key k = e->key;
		long r;

		if (k.chain && !(k.chain = timeline__chain(tl, c->s, k.chain)))
			return -ENOMEM;
		r = hist__intern(te->dict, &k);
		if (r < 0 || r >= UINT32_MAX - 1 || ids__reserve(te, i + 1) ||
		    acc__reserve(tl, (size_t)r + 1))
			return -ENOMEM;
		id = (u32)r;
		te->ids[i] = id + 1;
	}
	p = tl->acc[id];
	if (p) {
		ec->v[p - 1].samples += samples;
		ec->v[p - 1].period += period;
	} else {
		if (array__grow((void **)&ec->v, &ec->cap, ec->nr + 1,
				sizeof(*ec->v)))
			return -ENOMEM;
		ec->v[ec->nr++] = (struct tl_val){ id, samples, period };
		tl->acc[id] = (u32)ec->nr;
	}
	ec->tot.samples += samples;
	ec->tot.period += period;
	if (e->key.idle) {
		ec->tot.idle_samples += samples;
		ec->tot.idle_period += period;
	}
	return 0;
}

static int timeline__budget(struct timeline *tl, struct session *s);

int timeline__take_begin(struct timeline *tl, struct session *s, u64 fine)
{
	size_t nr_ev = session__nr_events(s);
	u64 now = session__now(s), first, last;
	struct tl_cell *c;

	tl->cur_cell = NULL;
	if (tl->any && fine < tl->last_fine)
		fine = tl->last_fine;
	if (nr_ev > tl->nr_evs) {
		struct tl_event *p = realloc(tl->evs, nr_ev * sizeof(*p));

		if (!p)
			return -ENOMEM;
		memset(p + tl->nr_evs, 0, (nr_ev - tl->nr_evs) * sizeof(*p));
		tl->evs = p;
		tl->nr_evs = nr_ev;
	}
	c = timeline__cell(tl, fine);
	if (!c || evcell__reserve(c, nr_ev))
		return -ENOMEM;
	session__sample_range(s, &first, &last);
	if (!c->start)
		c->start = tl->any ? tl->last_end : first ? first : now;
	if (!tl->origin)
		tl->origin = c->start;
	if (now > c->end)
		c->end = now;
	tl->any = true;
	tl->last_fine = fine;
	tl->last_end = MAX(now, tl->last_end);
	tl->cur_cell = c;
	return 0;
}

int timeline__take_ev(struct timeline *tl, struct session *s, size_t ev,
		      hist_take_fn *fn, void **ctx)
{
	struct tl_cell *c = tl->cur_cell;
	struct tl_event *te;
	struct take_ctx *tc = &tl->tc;
	u64 layout = session__hist_layout(s, ev);

	*fn = NULL;
	*ctx = NULL;
	if (!c || ev >= tl->nr_evs || ev >= c->nr_ev)
		return -EINVAL;
	te = &tl->evs[ev];
	if (!te->dict && !(te->dict = hist__new()))
		return -ENOMEM;
	/* entries moved or merged: the ids kept by entry number are
	 * stale */
	if (!te->known || te->layout != layout) {
		te->nr_ids = 0;
		te->layout = layout;
		te->known = true;
	}
	if (acc__reserve(tl, hist__nr_entries(te->dict)))
		return -ENOMEM;
	*tc = (struct take_ctx){ tl, s, te, &c->ev[ev] };
	/* a cell that had a take already: its values by key */
	for (size_t j = 0; j < tc->ec->nr; j++)
		tl->acc[tc->ec->v[j].id] = (u32)j + 1;
	*fn = take_one;
	*ctx = tc;
	return 0;
}

void timeline__take_ev_end(struct timeline *tl, size_t ev)
{
	struct tl_evcell *ec;

	if (!tl->cur_cell || ev >= tl->cur_cell->nr_ev)
		return;
	ec = &tl->cur_cell->ev[ev];
	for (size_t j = 0; j < ec->nr; j++)
		if (ec->v[j].id < tl->cap_acc)
			tl->acc[ec->v[j].id] = 0;
}

int timeline__take_end(struct timeline *tl, struct session *s)
{
	if (!tl->cur_cell)
		return 0;
	tl->cur_cell = NULL;
	tl->takes++;
	return timeline__budget(tl, s);
}

int timeline__take(struct timeline *tl, struct session *s, u64 fine)
{
	int err = timeline__take_begin(tl, s, fine);

	for (size_t ev = 0; !err && ev < tl->nr_evs; ev++) {
		hist_take_fn fn;
		void *ctx;

		err = timeline__take_ev(tl, s, ev, &fn, &ctx);
		if (!err)
			err = session__take(s, ev, fn, ctx);
		timeline__take_ev_end(tl, ev);
	}
	if (!err)
		err = timeline__take_end(tl, s);
	tl->cur_cell = NULL;
	return err;
}

u64 timeline__now_fine(const struct timeline *tl)
{
	if (tl->grid)
		return tl->cur;
	return tl->any ? tl->last_fine + 1 : 0;
}

/* ---- the grid ---- */

void timeline__set_grid(struct timeline *tl, u64 t0, u64 w)
{
	tl->grid = true;
	tl->t0 = t0;
	tl->w = w ? w : 1;
	tl->cur = 0;
}

u64 timeline__mark(struct timeline *tl, struct session *s, u64 t)
{
	u64 k, span;

	if (!tl->grid)
		return UINT64_MAX;
	if (!tl->t0) {
		u64 first, last;

		session__sample_range(s, &first, &last);
		if (!first)
			return 0;	/* no sample yet */
		tl->t0 = first;
	}
	if (t < tl->t0)
		return tl->t0;
	/* a cell's units: takes come at cell boundaries, not at each unit
	 * (a take reads every entry) */
	span = tl->w << tl->shift;
	k = ((t - tl->t0) / span) << tl->shift;
	if (k > tl->cur) {
		/* ENOMEM: this cell's samples come with the next take */
		if (!timeline__take(tl, s, tl->cur))
			tl->cur = k;
	}
	span = tl->w << tl->shift;	/* merged meanwhile? */
	return tl->t0 + ((tl->cur >> tl->shift) + 1) * span;
}

int timeline__take_now(struct timeline *tl, struct session *s)
{
	return timeline__take(tl, s, timeline__now_fine(tl));
}

/* ---- reading ---- */

size_t timeline__nr_cells(const struct timeline *tl)
{
	return tl->nr_cells;
}

void timeline__cell_span(const struct timeline *tl, size_t i, u64 *start,
			 u64 *end)
{
	*start = *end = 0;
	if (i >= tl->nr_cells)
		return;
	if (tl->grid && tl->t0) {
		u64 span = tl->w << tl->shift;

		*start = tl->t0 + (tl->first + i) * span;
		*end = *start + span;
		return;
	}
	*start = tl->cells[i].start;
	*end = tl->cells[i].end;
}

u64 timeline__cell_units(const struct timeline *tl)
{
	return (u64)1 << tl->shift;
}

u64 timeline__first_unit(const struct timeline *tl)
{
	return tl->first << tl->shift;
}

u64 timeline__origin(const struct timeline *tl)
{
	return tl->grid && tl->t0 ? tl->t0 : tl->origin;
}

u64 timeline__grid(const struct timeline *tl, u64 *t0)
{
	if (t0)
		*t0 = tl->t0;
	return tl->grid ? tl->w : 0;
}

void timeline__cell_totals(const struct timeline *tl, size_t i, size_t ev,
			   struct timeline_totals *out)
{
	memset(out, 0, sizeof(*out));
	if (i < tl->nr_cells && ev < tl->cells[i].nr_ev)
		*out = tl->cells[i].ev[ev].tot;
}

long timeline__sum(struct timeline *tl, size_t ev, size_t c0, size_t c1,
		   struct hist_entry **out, size_t *cap)
{
	const struct tl_event *te = ev < tl->nr_evs ? &tl->evs[ev] : NULL;
	size_t n = 0;
	int err = 0;

	if (array__grow((void **)out, cap, 1, sizeof(**out)))
		return -ENOMEM;
	if (!te || !te->dict)
		return 0;
	if (acc__reserve(tl, hist__nr_entries(te->dict)))
		return -ENOMEM;
	c1 = MIN(c1, tl->nr_cells);
	for (size_t c = c0; c < c1 && !err; c++) {
		const struct tl_evcell *ec;

		if (ev >= tl->cells[c].nr_ev)
			continue;
		ec = &tl->cells[c].ev[ev];
		for (size_t j = 0; j < ec->nr; j++) {
			const struct tl_val *v = &ec->v[j];
			u32 p = tl->acc[v->id];
			struct hist_entry *e;

			if (p) {
				(*out)[p - 1].samples += v->samples;
				(*out)[p - 1].period += v->period;
				continue;
			}
			if (array__grow((void **)out, cap, n + 1,
					sizeof(**out))) {
				err = -ENOMEM;
				break;
			}
			e = &(*out)[n++];
			e->key = hist__entry(te->dict, v->id)->key;
			e->samples = v->samples;
			e->period = v->period;
			tl->acc[v->id] = (u32)n;
		}
	}
	for (size_t c = c0; c < c1; c++)
		for (size_t j = 0; ev < tl->cells[c].nr_ev &&
				   j < tl->cells[c].ev[ev].nr; j++)
			tl->acc[tl->cells[c].ev[ev].v[j].id] = 0;
	return err ? err : (long)n;
}

const struct cc_node *timeline__chains(const struct timeline *tl, size_t *nr)
{
	return callchains__nodes(tl->chains, nr);
}

int timeline__window(struct timeline *tl, size_t ev, size_t c0, size_t c1,
		     const struct snapshot *like, struct snapshot *out)
{
	struct snapshot keep = *out;
	long n = timeline__sum(tl, ev, c0, c1, &keep.entries, &keep.cap);
	u64 start, end, s0, e0;

	if (n < 0)
		return (int)n;
	/* like's counters and sizes, our entries and chains */
	if (like)
		*out = *like;
	else
		memset(out, 0, sizeof(*out));
	out->entries = keep.entries;
	out->cap = keep.cap;
	out->chains = keep.chains;
	out->cap_chains = keep.cap_chains;
	out->cpu_counts = keep.cpu_counts;
	out->nr_cpus = 0;
	if (like && like->nr_cpus) {
		struct ev_counts *cc = realloc(out->cpu_counts,
					       like->nr_cpus * sizeof(*cc));

		if (!cc)
			return -ENOMEM;
		memcpy(cc, like->cpu_counts, like->nr_cpus * sizeof(*cc));
		out->cpu_counts = cc;
		out->nr_cpus = like->nr_cpus;
	}
	out->ev = ev;
	out->nr = (size_t)n;
	out->total_samples = out->total_period = 0;
	for (size_t i = 0; i < out->nr; i++) {
		out->total_samples += out->entries[i].samples;
		out->total_period += out->entries[i].period;
	}
	timeline__cell_span(tl, c0, &start, &e0);
	timeline__cell_span(tl, c1 ? c1 - 1 : 0, &s0, &end);
	out->first_time = start;
	out->last_time = end;
	out->nr_chains = 0;
	out->chains_owner = tl;
	out->chains_epoch = tl->epoch;
	if (snapshot__put_idle_last(out))
		return -ENOMEM;
	if (callchains__nr(tl->chains) > 1)
		return callchains__copy(tl->chains, &out->chains,
					&out->cap_chains, &out->nr_chains);
	return 0;
}

bool timeline__cells_of(const struct timeline *tl, u64 start, u64 end,
			size_t *c0, size_t *c1)
{
	size_t a = SIZE_MAX, b = 0;

	for (size_t i = 0; i < tl->nr_cells; i++) {
		u64 s, e;

		timeline__cell_span(tl, i, &s, &e);
		if (!e || e <= start || s >= end)
			continue;
		if (a == SIZE_MAX)
			a = i;
		b = i + 1;
	}
	if (a == SIZE_MAX)
		return false;
	*c0 = a;
	*c1 = b;
	return true;
}

/* ---- memory ---- */

size_t timeline__bytes(const struct timeline *tl)
{
	size_t n = sizeof(*tl) + tl->max_cells * sizeof(*tl->cells) +
		   callchains__bytes(tl->chains) +
		   (tl->cap_cmap + tl->cap_stack + tl->cap_acc) * sizeof(u32) +
		   tl->nr_evs * sizeof(*tl->evs);

	for (size_t i = 0; i < tl->nr_cells; i++) {
		const struct tl_cell *c = &tl->cells[i];

		n += c->nr_ev * sizeof(*c->ev);
		for (size_t e = 0; e < c->nr_ev; e++)
			n += c->ev[e].cap * sizeof(struct tl_val);
	}
	for (size_t e = 0; e < tl->nr_evs; e++)
		n += (tl->evs[e].dict ? hist__bytes(tl->evs[e].dict) : 0) +
		     tl->evs[e].cap_ids * sizeof(u32);
	return n;
}

u64 timeline__takes(const struct timeline *tl)
{
	return tl->takes;
}

u64 timeline__dropped(const struct timeline *tl)
{
	return tl->dropped;
}

/*
 * The dictionaries and chains made again from what the cells name: keys
 * no cell names any more go, and the keys of processes the session has
 * reaped fold as it folds them (session__fold_key), so that exited
 * processes cost one key per function, as in the histograms.  Made
 * aside and swapped in: ENOMEM leaves everything as it was.
 */
static int timeline__compact(struct timeline *tl, struct session *s)
{
	size_t nr_old, total = 0;
	const struct cc_node *old_nodes = callchains__nodes(tl->chains, &nr_old);
	size_t cap_nmap = nr_old ? nr_old : 1;
	struct callchains *chains = callchains__new();
	u32 *nmap = calloc(cap_nmap, sizeof(*nmap));
	struct hist **dicts = calloc(tl->nr_evs ? tl->nr_evs : 1,
				     sizeof(*dicts));
	u32 **maps = calloc(tl->nr_evs ? tl->nr_evs : 1, sizeof(*maps));
	int err = -ENOMEM;

	if (!chains || !nmap || !dicts || !maps)
		goto out;
	for (size_t ev = 0; ev < tl->nr_evs; ev++) {
		const struct hist *old = tl->evs[ev].dict;
		size_t n = old ? hist__nr_entries(old) : 0;

		if (!old)
			continue;
		dicts[ev] = hist__new();
		maps[ev] = malloc((n ? n : 1) * sizeof(**maps));
		if (!dicts[ev] || !maps[ev])
			goto out;
		memset(maps[ev], 0xff, (n ? n : 1) * sizeof(**maps));
		for (size_t c = 0; c < tl->nr_cells; c++) {
			const struct tl_evcell *ec;

			if (ev >= tl->cells[c].nr_ev)
				continue;
			ec = &tl->cells[c].ev[ev];
			for (size_t j = 0; j < ec->nr; j++) {
				u32 id = ec->v[j].id;
				struct hist_key k;
				long r;

				if (maps[ev][id] != UINT32_MAX)
					continue;
				k = hist__entry(old, id)->key;
				session__fold_key(s, ev, &k);
				if (k.chain && !(k.chain = chain__map(tl,
						old_nodes, nr_old, chains,
						&nmap, &cap_nmap, k.chain)))
					goto out;
				r = hist__intern(dicts[ev], &k);
				if (r < 0)
					goto out;
				maps[ev][id] = (u32)r;
			}
		}
		total = MAX(total, hist__nr_entries(dicts[ev]));
	}
	if (acc__reserve(tl, total))
		goto out;
	/* swap in: the cells' ids (keys that folded together merge), the
	 * ids kept by entry number, the session's nodes mapped to ours */
	for (size_t ev = 0; ev < tl->nr_evs; ev++) {
		struct tl_event *te = &tl->evs[ev];

		if (!dicts[ev])
			continue;
		for (size_t c = 0; c < tl->nr_cells; c++) {
			struct tl_evcell *ec;
			size_t k = 0;

			if (ev >= tl->cells[c].nr_ev)
				continue;
			ec = &tl->cells[c].ev[ev];
			for (size_t j = 0; j < ec->nr; j++) {
				u32 id = maps[ev][ec->v[j].id], p = tl->acc[id];

				if (p) {
					ec->v[p - 1].samples += ec->v[j].samples;
					ec->v[p - 1].period += ec->v[j].period;
					continue;
				}
				ec->v[k] = ec->v[j];
				ec->v[k].id = id;
				tl->acc[id] = (u32)++k;
			}
			ec->nr = k;
			for (size_t j = 0; j < k; j++)
				tl->acc[ec->v[j].id] = 0;
			evcell__shrink(ec);
		}
		for (size_t i = 0; i < te->nr_ids; i++) {
			u32 m;

			if (!te->ids[i])
				continue;
			m = te->ids[i] - 1 < hist__nr_entries(te->dict) ?
				    maps[ev][te->ids[i] - 1] : UINT32_MAX;
			te->ids[i] = m == UINT32_MAX ? 0 : m + 1;
		}
		hist__free(te->dict);
		te->dict = dicts[ev];
		dicts[ev] = NULL;
	}
	for (size_t i = 0; i < tl->cap_cmap; i++)
		if (tl->cmap[i])
			tl->cmap[i] = tl->cmap[i] < cap_nmap ? nmap[tl->cmap[i]] : 0;
	callchains__free(tl->chains);
	tl->chains = chains;
	chains = NULL;
	tl->epoch++;
	tl->dict_compacted = total;
	tl->reap_gen = session__reap_gen(s);
	tl->dropped_then = tl->dropped;
	err = 0;
out:
	for (size_t ev = 0; dicts && maps && ev < tl->nr_evs; ev++) {
		hist__free(dicts[ev]);
		free(maps[ev]);
	}
	free(dicts);
	free(maps);
	free(nmap);
	callchains__free(chains);
	return err;
}

/* Past the budget: the dictionaries made again (folds), then the oldest
 * cells go.  Only ENOMEM of a take is an error: a rebuild that cannot
 * be made leaves things as they were. */
static int timeline__budget(struct timeline *tl, struct session *s)
{
	size_t dict = timeline__dict_nr(tl);
	bool compacted = false;

	/* keys go only when processes were reaped (they fold) or cells
	 * dropped: else a rebuild would make the same dictionary again */
	if (dict > 2 * tl->dict_compacted + TL_COMPACT_MIN &&
	    (session__reap_gen(s) != tl->reap_gen ||
	     tl->dropped != tl->dropped_then)) {
		timeline__compact(tl, s);
		compacted = true;
	}
	if (timeline__bytes(tl) <= tl->budget)
		return 0;
	if (!compacted && session__reap_gen(s) != tl->reap_gen)
		timeline__compact(tl, s);
	/* a quarter at a time, then the keys only they named */
	while (tl->nr_cells > 1 && timeline__bytes(tl) > tl->budget) {
		size_t n = MAX(tl->nr_cells / 4, (size_t)1);

		for (size_t i = 0; i < n; i++)
			cell__fini(&tl->cells[i]);
		memmove(tl->cells, tl->cells + n,
			(tl->nr_cells - n) * sizeof(*tl->cells));
		memset(&tl->cells[tl->nr_cells - n], 0, n * sizeof(*tl->cells));
		tl->nr_cells -= n;
		tl->first += n;
		tl->dropped += (u64)n << tl->shift;
		timeline__compact(tl, s);
	}
	return 0;
}

int timeline__check(const struct timeline *tl)
{
	for (size_t c = 0; c < tl->nr_cells; c++) {
		for (size_t ev = 0; ev < tl->cells[c].nr_ev; ev++) {
			const struct tl_evcell *ec = &tl->cells[c].ev[ev];
			const struct tl_event *te = ev < tl->nr_evs ?
						    &tl->evs[ev] : NULL;
			u64 samples = 0, period = 0;

			for (size_t j = 0; j < ec->nr; j++) {
				if (!te || !te->dict ||
				    ec->v[j].id >= hist__nr_entries(te->dict))
					return -EINVAL;
				for (size_t k = 0; k < j; k++)
					if (ec->v[k].id == ec->v[j].id)
						return -EINVAL;
				samples += ec->v[j].samples;
				period += ec->v[j].period;
			}
			if (samples != ec->tot.samples ||
			    period != ec->tot.period)
				return -EINVAL;
		}
	}
	for (size_t i = 0; i < tl->cap_acc; i++)
		if (tl->acc[i])
			return -EINVAL;
	return 0;
}
