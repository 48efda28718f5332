/* idindex: an open-addressing index of dense ids by hash (pure). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/idindex.h"

#define MIN_SLOTS 64
/* ids are u32: half of 2^32 slots hold as many as an index needs */
#define MAX_SLOTS ((size_t)1 << 32)

/* What an index that never grew probes: one empty slot, never written
 * (idindex__add needs room that idindex__reserve made elsewhere). */
static u32 empty_slot;

void idindex__init(struct idindex *ix)
{
	ix->slots = &empty_slot;
	ix->mask = 0;
	ix->nr = 0;
	ix->lo = UINT32_MAX;
	ix->hi = 0;
}

void idindex__fini(struct idindex *ix)
{
	if (ix->slots != &empty_slot)
		free(ix->slots);
	idindex__init(ix);
}

void idindex__clear(struct idindex *ix)
{
	if (ix->slots != &empty_slot)
		memset(ix->slots, 0, (ix->mask + 1) * sizeof(*ix->slots));
	ix->nr = 0;
	ix->lo = UINT32_MAX;
	ix->hi = 0;
}

size_t idindex__bytes(const struct idindex *ix)
{
	return ix->slots == &empty_slot ? 0 :
					  (ix->mask + 1) * sizeof(*ix->slots);
}

/* Places id + 1 at the first empty slot of h's probe. */
static void place(u32 *slots, size_t mask, u64 h, u32 v)
{
	size_t j = (size_t)h & mask;

	while (slots[j])
		j = (j + 1) & mask;
	slots[j] = v;
}

/* idindex__reserve's growth. */
int idindex__grow(struct idindex *ix, size_t n, idindex_hash_fn hash,
		  const void *ctx)
{
	bool empty = ix->slots == &empty_slot;
	size_t have = empty ? 0 : ix->mask + 1, size, want;
	u32 *slots;

	if (n > MAX_SLOTS / 2 - ix->nr)
		return -ENOMEM;
	want = (ix->nr + n) * 2;
	if (want <= have)
		return 0;
	for (size = have ? have * 2 : MIN_SLOTS; size < want; size *= 2)
		;
	slots = calloc(size, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	if (ix->nr && ix->nr == (size_t)ix->hi - ix->lo)
		for (u32 id = ix->lo; id < ix->hi; id++)
			place(slots, size - 1, hash(ctx, id), id + 1);
	else
		for (size_t j = 0; j < have; j++)
			if (ix->slots[j])
				place(slots, size - 1,
				      hash(ctx, ix->slots[j] - 1),
				      ix->slots[j]);
	if (!empty)
		free(ix->slots);
	ix->slots = slots;
	ix->mask = size - 1;
	return 0;
}

bool idindex__check(const struct idindex *ix, idindex_hash_fn hash,
		    const void *ctx)
{
	size_t used = 0, size = ix->mask + 1;

	if (size & ix->mask || (ix->slots == &empty_slot && ix->nr) ||
	    ix->nr * 2 > size - (ix->slots == &empty_slot))
		return false;
	for (size_t j = 0; j < size; j++) {
		u32 id = idindex__at(ix, j);
		size_t k;

		if (id == IDINDEX_NONE)
			continue;
		used++;
		/* the probe from its hash reaches it before any gap */
		for (k = idindex__first(ix, hash(ctx, id));
		     idindex__at(ix, k) != id; k = idindex__next(ix, k))
			if (idindex__at(ix, k) == IDINDEX_NONE)
				return false;
	}
	return used == ix->nr;
}
