/* queue: the ordered queue of the record stream (see queue.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/perfdata/queue.h"

void pd_queue__init(struct pd_queue *q, size_t limit, pd_deliver_fn deliver,
		    void *ctx)
{
	memset(q, 0, sizeof(*q));
	q->limit = limit;
	q->deliver = deliver;
	q->ctx = ctx;
}

void pd_queue__fini(struct pd_queue *q)
{
	free(q->arena);
	free(q->spare);
	free(q->refs);
	free(q->runs);
	free(q->tmp);
	free(q->heap);
	memset(q, 0, sizeof(*q));
}

void pd_queue__unreserve(struct pd_queue *q, size_t off)
{
	q->alen = off;
}
static int ref_cmp(const void *a, const void *b)
{
	const struct pd_ref *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Room for a record of size bytes at the top of the arena: its offset. */
int pd_queue__reserve(struct pd_queue *q, size_t size, size_t *off)
{
	size_t need = q->alen + ALIGN_UP(size, (size_t)8);

	if (need > q->acap) {
		size_t cap = q->acap ? q->acap : 1u << 16;
		u8 *p;

		while (cap < need)
			cap *= 2;
		p = realloc(q->arena, cap);
		if (!p)
			return -ENOMEM;
		q->arena = p;
		q->acap = cap;
	}
	*off = q->alen;
	q->alen = need;
	return 0;
}

struct perf_event_header *pd_queue__at(struct pd_queue *q, size_t off)
{
	return (struct perf_event_header *)(void *)(q->arena + off);
}

static size_t rec_bytes(struct pd_queue *q, size_t off)
{
	return ALIGN_UP((size_t)pd_queue__at(q, off)->size, (size_t)8);
}

static const struct perf_event_header *ref_rec(struct pd_queue *q,
					       const struct pd_ref *r)
{
	return r->lent ? r->lent : pd_queue__at(q, r->off);
}

/* The queued bytes a record counts for: arena or lent. */
static size_t *ref_live(struct pd_queue *q, const struct pd_ref *r,
			size_t *n)
{
	*n = ALIGN_UP((size_t)ref_rec(q, r)->size, (size_t)8);
	return r->lent ? &q->lent_live : &q->live;
}

/* Delivered records leave holes in the arena; once the holes outweigh
 * what is still queued, the queued records move to a fresh arena (in
 * time order), so the arena stays within twice the queue plus 1 MiB. */
static void compact(struct pd_queue *q)
{
	size_t dst = 0, cap;
	u8 *t;

	if (q->alen <= 2 * q->live + (1u << 20))
		return;
	/* two buffers in turn: no allocation (and no page faults) in the
	 * steady state */
	if (q->spare_cap < q->live) {
		cap = q->live + q->live / 2 + (1u << 16);
		t = realloc(q->spare, cap);
		if (!t)
			return;	/* keep the holes */
		q->spare = t;
		q->spare_cap = cap;
	}
	for (size_t i = q->head; i < q->nr_refs; i++) {
		struct pd_ref *r = &q->refs[i];
		size_t n;

		if (r->lent)
			continue;
		n = rec_bytes(q, r->off);
		memcpy(q->spare + dst, q->arena + r->off, n);
		r->off = dst;
		dst += n;
	}
	t = q->arena;
	q->arena = q->spare;
	q->spare = t;
	cap = q->acap;
	q->acap = q->spare_cap;
	q->spare_cap = cap;
	q->alen = dst;
}

static bool run_less(const struct pd_ref *refs, const struct pd_run_cur *a,
		     const struct pd_run_cur *b)
{
	return ref_cmp(&refs[a->pos], &refs[b->pos]) < 0;
}

static void heap_down(const struct pd_ref *refs, struct pd_run_cur *h, size_t n,
		      size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct pd_run_cur t;

		if (l < n && run_less(refs, &h[l], &h[m]))
			m = l;
		if (l + 1 < n && run_less(refs, &h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* Merges the sorted runs of the queue into one: O(n log runs). */
static int merge(struct pd_queue *q)
{
	size_t n = q->nr_refs - q->head, k = q->nr_runs + 1, out = 0;
	struct pd_run_cur *h;

	if (!q->nr_runs)
		return 0;
	if (array__grow((void **)&q->heap, &q->cap_heap, k,
			sizeof(*q->heap)) ||
	    array__grow((void **)&q->tmp, &q->cap_tmp, n,
			sizeof(*q->tmp))) {
		/* no memory for the merge: sort in place */
		qsort(q->refs + q->head, n, sizeof(*q->refs), ref_cmp);
		q->nr_runs = 0;
		return 0;
	}
	h = q->heap;
	for (size_t i = 0; i < k; i++) {
		h[i].pos = i ? q->runs[i - 1] : q->head;
		h[i].end = i < q->nr_runs ? q->runs[i] : q->nr_refs;
	}
	for (size_t i = k / 2; i-- > 0;)
		heap_down(q->refs, h, k, i);
	while (k) {
		q->tmp[out++] = q->refs[h[0].pos++];
		if (h[0].pos == h[0].end)
			h[0] = h[--k];
		heap_down(q->refs, h, k, 0);
	}
	memcpy(q->refs + q->head, q->tmp, n * sizeof(*q->refs));
	q->nr_runs = 0;
	return 0;
}

/* Hands on the queued records with a time up to limit, in time order. */
void pd_queue__flush(struct pd_queue *q, u64 limit)
{
	if (q->head == q->nr_refs)
		return;
	merge(q);
	while (q->head < q->nr_refs && q->refs[q->head].time <= limit) {
		struct pd_ref *r = &q->refs[q->head++];
		size_t n, *live = ref_live(q, r, &n);

		/* (counted out first: deliver may let a lent record go) */
		*live -= n;
		q->deliver(q->ctx, ref_rec(q, r), r->time);
		q->last_flushed = r->time;
	}
	if (q->head == q->nr_refs) {
		q->head = q->nr_refs = 0;
		q->alen = 0;
		return;
	}
	if (q->head > q->nr_refs / 2) {
		/* the queue is one run now: moving it keeps no run index */
		memmove(q->refs, q->refs + q->head,
			(q->nr_refs - q->head) * sizeof(*q->refs));
		q->nr_refs -= q->head;
		q->head = 0;
	}
	compact(q);
}

static int add_ref(struct pd_queue *q, size_t off,
		   const struct perf_event_header *lent, u64 time)
{
	struct pd_ref *r;
	size_t i, n, *live;
	bool late;

	if (array__grow((void **)&q->refs, &q->cap_refs, q->nr_refs + 1,
			sizeof(*q->refs)))
		return -ENOMEM;
	late = time < q->last_flushed;
	r = &q->refs[q->nr_refs++];
	r->time = time;
	r->seq = q->seq++;
	r->off = off;
	r->lent = lent;
	live = ref_live(q, r, &n);
	*live += n;
	/* a record older than the one before starts a new sorted run */
	if (q->nr_refs - 1 > q->head &&
	    q->refs[q->nr_refs - 2].time > time) {
		if (array__grow((void **)&q->runs, &q->cap_runs,
				q->nr_runs + 1, sizeof(*q->runs))) {
			q->nr_refs--;
			*live -= n;
			return -ENOMEM;
		}
		q->runs[q->nr_runs++] = q->nr_refs - 1;
	}
	if (time > q->max_time)
		q->max_time = time;
	/* the limit counts every queued byte, lent or not, so that the
	 * order handed on does not depend on where records are kept */
	if (q->live + q->lent_live > q->limit) {
		u64 lo = UINT64_MAX, hi = 0, mid;

		for (i = q->head; i < q->nr_refs; i++) {
			lo = MIN(lo, q->refs[i].time);
			hi = MAX(hi, q->refs[i].time);
		}
		mid = lo + (hi - lo) / 2;
		pd_queue__flush(q, mid);
		if (q->live + q->lent_live > q->limit)
			pd_queue__flush(q, UINT64_MAX);
		q->next_flush = MAX(q->next_flush, mid);
	}
	return late;
}

int pd_queue__add(struct pd_queue *q, size_t off, u64 time)
{
	return add_ref(q, off, NULL, time);
}

int pd_queue__add_lent(struct pd_queue *q, const struct perf_event_header *h,
		       u64 time)
{
	return add_ref(q, 0, h, time);
}

void pd_queue__round(struct pd_queue *q)
{
	pd_queue__flush(q, q->next_flush);
	q->next_flush = q->max_time;
}

