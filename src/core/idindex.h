/* idindex: an open-addressing index of dense ids by hash (pure). */
#ifndef PTOP_IDINDEX_H
#define PTOP_IDINDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "src/core/util.h"

/*
 * The interning tables' one index: the caller keeps its objects in a
 * dense array (ids 0.., below IDINDEX_NONE) and compares keys itself;
 * the index maps a key's hash to the ids stored under it, by linear
 * probing in a power-of-two array of slots kept at most half full.
 *
 * Usage:
 *	idindex__init(&ix);
 *	h = key__hash(key);
 *	for (j = idindex__first(&ix, h);
 *	     (id = idindex__at(&ix, j)) != IDINDEX_NONE;
 *	     j = idindex__next(&ix, j))
 *		if (key__equal(&objs[id], key))
 *			return id;			found
 *	if (idindex__reserve(&ix, 1, obj__hash, objs_owner))
 *		return -ENOMEM;				the index is intact
 *	objs[nr] = key; idindex__add(&ix, h, nr++);	added
 *	idindex__fini(&ix);
 *
 * Only idindex__reserve allocates (a growth: every id is placed again
 * from hash(ctx, id), which must give what the lookup gave); a lookup
 * or an add never does, and an empty index probes a static empty slot.
 * An id is added once.  Ids that fill a range (every user's: a dense
 * array, maybe after a few that are not indexed) are placed again in
 * their order, so that hash reads the caller's array in order: read in
 * slot order, at random, the growths of a trie of millions of nodes
 * cost five times as much (make bench's ingest -g).
 * Ids are never removed one by one: a table that drops some rebuilds
 * its index (idindex__clear, then add the ones it keeps).  The
 * histogram keeps its own table (hist.c): its probe compares whole
 * keys in the slots, which this one does not hold.
 */
#define IDINDEX_NONE UINT32_MAX

struct idindex {
	u32 *slots;	/* id + 1; 0: empty */
	size_t mask;	/* slots - 1 */
	size_t nr;	/* ids in it */
	u32 lo, hi;	/* the ids added are in [lo, hi) (lo > hi: none) */
};

/* What the lookup of id's key hashed to (ctx: the caller's table). */
typedef u64 (*idindex_hash_fn)(const void *ctx, u32 id);

void idindex__init(struct idindex *ix);
void idindex__fini(struct idindex *ix);
/* Forgets every id; the slots stay allocated. */
void idindex__clear(struct idindex *ix);

/*
 * Room for n more ids: grows (to twice the slots, or 64 at first, until
 * nr + n ids fill at most half) when there is not.  0, or -ENOMEM with
 * the index as it was (no memory, or more slots than u32 ids need).
 * Slot positions from earlier lookups are stale after it.
 */
int idindex__grow(struct idindex *ix, size_t n, idindex_hash_fn hash,
		  const void *ctx);

static inline int idindex__reserve(struct idindex *ix, size_t n,
				   idindex_hash_fn hash, const void *ctx)
{
	/* at most half full (an index that never grew has one slot: no
	 * room) */
	if (n <= (ix->mask + 1) / 2 - ix->nr)
		return 0;
	return idindex__grow(ix, n, hash, ctx);
}

/* Adds id, absent, under hash h, in room idindex__reserve made. */
static inline void idindex__add(struct idindex *ix, u64 h, u32 id)
{
	size_t j = (size_t)h & ix->mask;

	while (ix->slots[j])
		j = (j + 1) & ix->mask;
	ix->slots[j] = id + 1;
	ix->nr++;
	if (id < ix->lo)
		ix->lo = id;
	if (id >= ix->hi)
		ix->hi = id + 1;
}

static inline size_t idindex__first(const struct idindex *ix, u64 h)
{
	return (size_t)h & ix->mask;
}

/* The id in slot j; IDINDEX_NONE ends the probe (an empty slot). */
static inline u32 idindex__at(const struct idindex *ix, size_t j)
{
	return ix->slots[j] - 1;
}

static inline size_t idindex__next(const struct idindex *ix, size_t j)
{
	return (j + 1) & ix->mask;
}

static inline size_t idindex__count(const struct idindex *ix)
{
	return ix->nr;
}

/* The slots' bytes (0 while nothing was ever reserved). */
size_t idindex__bytes(const struct idindex *ix);

/* Every id in it reached by the probe from hash(ctx, id), and as many
 * as it counts (tests). */
bool idindex__check(const struct idindex *ix, idindex_hash_fn hash,
		    const void *ctx);

#endif
