/* lru: a bounded least-recently-used set of caller-owned nodes (pure). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/lru.h"

void lru__init(struct lru *l, size_t max_cost, size_t max_nr,
	       void (*evict)(void *ctx, struct lru_node *n), void *ctx)
{
	memset(l, 0, sizeof(*l));
	l->head.prev = l->head.next = &l->head;
	l->max_cost = max_cost;
	l->max_nr = max_nr;
	l->evict = evict;
	l->ctx = ctx;
}

void lru__fini(struct lru *l)
{
	if (!l->head.next)	/* never initialised (zeroed) */
		return;
	lru__shrink(l, 0, 0);
	free(l->buckets);
	l->buckets = NULL;
	l->nr_buckets = 0;
}

static size_t bucket_of(const struct lru *l, u64 k0, u64 k1)
{
	return (size_t)(hash_u64(k0 ^ hash_u64(k1)) & (l->nr_buckets - 1));
}

struct lru_node *lru__peek(const struct lru *l, u64 k0, u64 k1)
{
	struct lru_node *n;

	if (!l->nr_buckets)
		return NULL;
	for (n = l->buckets[bucket_of(l, k0, k1)]; n; n = n->hnext)
		if (n->key[0] == k0 && n->key[1] == k1)
			return n;
	return NULL;
}

static void list_del(struct lru_node *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->prev = n->next = NULL;
}

static void list_add_front(struct lru *l, struct lru_node *n)
{
	n->next = l->head.next;
	n->prev = &l->head;
	l->head.next->prev = n;
	l->head.next = n;
}

void lru__touch(struct lru *l, struct lru_node *n)
{
	if (l->head.next == n)
		return;
	list_del(n);
	list_add_front(l, n);
}

struct lru_node *lru__find(struct lru *l, u64 k0, u64 k1)
{
	struct lru_node *n = lru__peek(l, k0, k1);

	if (n)
		lru__touch(l, n);
	return n;
}

/* Chains of about one node: the table doubles when nr reaches it. */
static int rehash(struct lru *l)
{
	size_t cap = l->nr_buckets ? l->nr_buckets * 2 : 64;
	struct lru_node **b, *n;

	if (cap > SIZE_MAX / sizeof(*b))
		return -ENOMEM;
	b = calloc(cap, sizeof(*b));
	if (!b)
		return -ENOMEM;
	free(l->buckets);
	l->buckets = b;
	l->nr_buckets = cap;
	for (n = l->head.next; n != &l->head; n = n->next) {
		size_t i = bucket_of(l, n->key[0], n->key[1]);

		n->hnext = b[i];
		b[i] = n;
	}
	return 0;
}

static void hash_del(struct lru *l, struct lru_node *n)
{
	struct lru_node **pp = &l->buckets[bucket_of(l, n->key[0], n->key[1])];

	while (*pp && *pp != n)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = n->hnext;
	n->hnext = NULL;
}

void lru__remove(struct lru *l, struct lru_node *n)
{
	hash_del(l, n);
	list_del(n);
	l->nr--;
	l->cost -= n->cost;
}

static bool over(const struct lru *l, size_t max_cost, size_t max_nr)
{
	return (max_cost && l->cost > max_cost) || (max_nr && l->nr > max_nr);
}

void lru__pin(struct lru_node *n)
{
	n->pins++;
}

void lru__unpin(struct lru_node *n)
{
	n->pins--;
}

/* Evicts the oldest unpinned while over the bounds, sparing keep (the
 * newest: the walk from the oldest ends there).  From the oldest again
 * after each eviction: an evict callback may take others out. */
static void bound(struct lru *l, size_t max_cost, size_t max_nr,
		  const struct lru_node *keep)
{
	while (over(l, max_cost, max_nr)) {
		struct lru_node *n = l->head.prev;

		while (n != &l->head && n != keep && n->pins)
			n = n->prev;
		if (n == &l->head || n == keep)
			break;	/* the rest is pinned, or keep */
		lru__remove(l, n);
		if (l->evict)
			l->evict(l->ctx, n);
	}
}

int lru__insert(struct lru *l, struct lru_node *n)
{
	size_t i;

	if (l->nr >= l->nr_buckets && rehash(l))
		return -ENOMEM;
	n->pins = 0;
	i = bucket_of(l, n->key[0], n->key[1]);
	n->hnext = l->buckets[i];
	l->buckets[i] = n;
	list_add_front(l, n);
	l->nr++;
	l->cost += n->cost;
	bound(l, l->max_cost, l->max_nr, n);
	return 0;
}

void lru__set_cost(struct lru *l, struct lru_node *n, size_t cost)
{
	l->cost = l->cost - n->cost + cost;
	n->cost = cost;
	lru__touch(l, n);	/* growing: it is in use */
	bound(l, l->max_cost, l->max_nr, n);
}

void lru__shrink(struct lru *l, size_t max_cost, size_t max_nr)
{
	if (!max_cost && !max_nr) {
		/* everything: "no bound" would evict nothing */
		while (l->nr) {
			struct lru_node *n = l->head.prev;

			lru__remove(l, n);
			if (l->evict)
				l->evict(l->ctx, n);
		}
		return;
	}
	bound(l, max_cost, max_nr, NULL);
}

void lru__set_bounds(struct lru *l, size_t max_cost, size_t max_nr)
{
	l->max_cost = max_cost;
	l->max_nr = max_nr;
	bound(l, max_cost, max_nr, NULL);
}

bool lru__check(const struct lru *l)
{
	const struct lru_node *n;
	size_t nr = 0, cost = 0, hashed = 0;

	for (n = l->head.next; n != &l->head; n = n->next) {
		if (n->next->prev != n || n->prev->next != n)
			return false;
		if (lru__peek(l, n->key[0], n->key[1]) != n)
			return false;
		nr++;
		cost += n->cost;
		if (nr > l->nr)
			return false;
	}
	for (size_t i = 0; i < l->nr_buckets; i++)
		for (n = l->buckets[i]; n; n = n->hnext)
			hashed++;
	return nr == l->nr && cost == l->cost && hashed == nr;
}
