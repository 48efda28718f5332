/* queue: the ordered queue of the perf.data record stream (perf's
 * ordered_events), pure. */
#ifndef PTOP_PERFDATA_QUEUE_H
#define PTOP_PERFDATA_QUEUE_H

#include <linux/perf_event.h>

#include "src/core/util.h"

/*
 * Ordering, as perf's ordered_events: timed kernel records are queued;
 * at each FINISHED_ROUND those not newer than the largest time seen at
 * the previous round are sorted and handed on (a record of round N may
 * be older than one of round N-1 from another CPU, never older than one
 * of round N-2).  Untimed records go at once (the stream's business).
 * When the queue holds more than its limit, its older half goes.
 *
 *   pd_queue__reserve(q, size, &off);	room at the top of the arena
 *   copy the record to pd_queue__at(q, off), then either
 *   pd_queue__add(q, off, time);	queue it, or
 *   pd_queue__unreserve(q, off);	give the room back (handed on at
 *					once, or dropped)
 *   pd_queue__round(q);		at each FINISHED_ROUND
 *   pd_queue__flush(q, UINT64_MAX);	at the end
 * or, for a record the caller keeps where it is (8-byte aligned, whole)
 * until it is handed on, pd_queue__add_lent(q, h, time): no copy.
 */
struct pd_ref {
	u64 time, seq;
	size_t off;		/* in the arena, unless lent */
	const struct perf_event_header *lent;	/* the caller's, or NULL */
};

/* A run being merged: its next record and its end. */
struct pd_run_cur {
	size_t pos, end;
};

/* Gets each record handed on, in time order, with its time. */
typedef void (*pd_deliver_fn)(void *ctx, const struct perf_event_header *h,
			      u64 time);

struct pd_queue {
	u8 *arena;		/* queued records, each 8-byte aligned */
	size_t alen, acap;
	u8 *spare;		/* the arena compaction copies into */
	size_t spare_cap;
	struct pd_ref *refs;	/* [head, nr_refs) are queued */
	size_t head, nr_refs, cap_refs;
	size_t live;		/* arena bytes of the queued records */
	size_t lent_live;	/* bytes of the queued lent records */
	/* refs are sorted runs (a pass of perf over its per-CPU buffers
	 * writes one per CPU): where each run after the first starts */
	size_t *runs;
	size_t nr_runs, cap_runs;
	struct pd_ref *tmp;	/* merge space */
	size_t cap_tmp;
	struct pd_run_cur *heap;
	size_t cap_heap;
	u64 seq, max_time, next_flush, last_flushed;
	size_t limit;
	pd_deliver_fn deliver;
	void *ctx;
};

/* limit: bytes queued before the older half is handed on. */
void pd_queue__init(struct pd_queue *q, size_t limit, pd_deliver_fn deliver,
		    void *ctx);
void pd_queue__fini(struct pd_queue *q);
/* Room for a record of size bytes at the top of the arena: its offset
 * in *off.  0 or -ENOMEM. */
int pd_queue__reserve(struct pd_queue *q, size_t size, size_t *off);
struct perf_event_header *pd_queue__at(struct pd_queue *q, size_t off);
/* Gives back the room reserved at off (the top of the arena). */
void pd_queue__unreserve(struct pd_queue *q, size_t off);
/* Queues the record reserved at off: 0, 1 when it is older than a record
 * already handed on (counted by the caller as out of order), or -ENOMEM. */
int pd_queue__add(struct pd_queue *q, size_t off, u64 time);
/* Queues h where it is, as pd_queue__add would a copy of it: the caller
 * keeps it there, unchanged, until deliver has been given it. */
int pd_queue__add_lent(struct pd_queue *q, const struct perf_event_header *h,
		       u64 time);
/* A FINISHED_ROUND: hands on what the previous round made safe. */
void pd_queue__round(struct pd_queue *q);
/* Hands on the queued records with a time up to limit, in time order. */
void pd_queue__flush(struct pd_queue *q, u64 limit);

#endif
