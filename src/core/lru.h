/* lru: a bounded least-recently-used set of caller-owned nodes (pure). */
#ifndef PTOP_LRU_H
#define PTOP_LRU_H

#include <stdbool.h>
#include <stddef.h>

#include "src/core/util.h"

/*
 * Usage:
 *	struct thing { struct lru_node node; ... };
 *	lru__init(&l, max_cost, max_nr, evict, ctx);
 *	n = lru__find(&l, k0, k1);	NULL, or the node, now the newest
 *	t->node.key[0] = k0; t->node.key[1] = k1; t->node.cost = bytes;
 *	lru__insert(&l, &t->node);	the oldest others are evicted
 *	lru__fini(&l);			evicts every node
 *
 * The caller owns the nodes: evict(ctx, node) is called for each node the
 * bound pushes out (and by lru__fini, lru__shrink) and must free it or
 * hand it back; the lru never touches a node after calling evict on it.
 * The bound is on the sum of the nodes' costs (bytes, as the caller
 * counts them) and on their number; 0 means no bound of that kind.  The
 * node just inserted or touched is never evicted to make room, so one
 * node costlier than the bound stays alone until the next insertion.
 * Keys are two u64 the caller chooses (a pointer, a (dso, address)
 * pair); lookups hash them into chains that grow with the count.
 *
 * A pinned node (lru__pin, as many times as it has users; lru__unpin
 * each) is never evicted by a bound: the oldest unpinned ones go in its
 * stead, and while every other node is pinned the lru stays over its
 * bound.  lru__shrink(l, 0, 0) and lru__fini evict pinned nodes too
 * (the owner is emptying it).  A node's pins start at 0 when inserted.
 */
/* The struct holding node n as its member. */
#define lru_entry(n, type, member) \
	((type *)(void *)((char *)(n) - offsetof(type, member)))

struct lru_node {
	struct lru_node *prev, *next;	/* the list, newest first */
	struct lru_node *hnext;		/* the hash chain */
	u64 key[2];
	size_t cost;
	unsigned int pins;	/* users that keep it from eviction */
};

struct lru {
	struct lru_node head;	/* head.next newest, head.prev oldest */
	struct lru_node **buckets;
	size_t nr_buckets;	/* a power of two, or 0 */
	size_t nr, cost;
	size_t max_cost, max_nr;
	void (*evict)(void *ctx, struct lru_node *n);
	void *ctx;
};

void lru__init(struct lru *l, size_t max_cost, size_t max_nr,
	       void (*evict)(void *ctx, struct lru_node *n), void *ctx);
void lru__fini(struct lru *l);

/* The node of key (k0, k1), made the newest; NULL if none. */
struct lru_node *lru__find(struct lru *l, u64 k0, u64 k1);
/* As lru__find, leaving the order alone. */
struct lru_node *lru__peek(const struct lru *l, u64 k0, u64 k1);

/*
 * Adds n (key and cost set, key not present) as the newest, then evicts
 * the oldest others while over a bound.  0, or -ENOMEM when the hash
 * could not grow (n is then not added and nothing was evicted).
 */
int lru__insert(struct lru *l, struct lru_node *n);
/* Takes n out without calling evict. */
void lru__remove(struct lru *l, struct lru_node *n);
void lru__touch(struct lru *l, struct lru_node *n);
/* n cannot be evicted by a bound until as many lru__unpin; the order
 * is left alone. */
void lru__pin(struct lru_node *n);
void lru__unpin(struct lru_node *n);
/* n's cost changed (a cache that grows as it is used): n becomes the
 * newest and the bounds are applied again. */
void lru__set_cost(struct lru *l, struct lru_node *n, size_t cost);
/* Evicts the oldest unpinned nodes until cost <= max_cost and nr <=
 * max_nr (0, 0 empties it, pinned nodes too); the bounds stay. */
void lru__shrink(struct lru *l, size_t max_cost, size_t max_nr);
/* Changes the bounds and applies them. */
void lru__set_bounds(struct lru *l, size_t max_cost, size_t max_nr);

static inline struct lru_node *lru__oldest(const struct lru *l)
{
	return l->nr ? l->head.prev : NULL;
}

static inline size_t lru__count(const struct lru *l)
{
	return l->nr;
}

static inline size_t lru__cost(const struct lru *l)
{
	return l->cost;
}

/* Consistency of list, hash, count and cost (tests). */
bool lru__check(const struct lru *l);

#endif
