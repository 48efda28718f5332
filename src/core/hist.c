/* hist: the aggregation hash of one event (pure); snapshots for views. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/hist.h"

_Static_assert(sizeof(struct hist_key) == 48, "hist_key has no holes");

struct hist {
	struct hist_entry *slots;	/* empty: key.dso == NULL */
	size_t cap, nr;
	u64 total_samples, total_period;
};

static inline u64 key__hash(const struct hist_key *k)
{
	u64 h = (u64)(uintptr_t)k->dso * 0x9e3779b97f4a7c15ULL;

	h ^= k->addr + 0x632be59bd9b4e019ULL + (h << 6) + (h >> 2);
	h ^= (u64)(uintptr_t)k->comm + (h << 6) + (h >> 2);
	h ^= (u64)(uintptr_t)k->cgroup + (h << 6) + (h >> 2);
	h ^= ((u64)(u32)k->pid << 32 | (u32)k->tid) + (h << 6) + (h >> 2);
	h ^= ((u64)(u16)k->cpu << 48 | (u64)k->idle << 32 |
	      (u64)k->state << 40 | k->chain) +
	     (h << 6) + (h >> 2);
	return hash_u64(h);
}

struct hist *hist__new(void)
{
	struct hist *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->cap = 1024;
	h->slots = calloc(h->cap, sizeof(*h->slots));
	if (!h->slots) {
		free(h);
		return NULL;
	}
	return h;
}

void hist__free(struct hist *h)
{
	if (!h)
		return;
	free(h->slots);
	free(h);
}

static struct hist_entry *hist__slot(struct hist_entry *slots, size_t cap,
				     const struct hist_key *key)
{
	size_t i = key__hash(key) & (cap - 1);

	while (slots[i].key.dso &&
	       memcmp(&slots[i].key, key, sizeof(*key)) != 0)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int hist__resize(struct hist *h, size_t cap)
{
	struct hist_entry *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < h->cap; i++) {
		struct hist_entry *e = &h->slots[i], *n;

		if (!e->key.dso)
			continue;
		n = hist__slot(slots, cap, &e->key);
		if (n->key.dso) {
			/* rekeyed entries that now collide merge */
			n->samples += e->samples;
			n->period += e->period;
		} else {
			*n = *e;
		}
	}
	free(h->slots);
	h->slots = slots;
	h->cap = cap;
	h->nr = 0;
	for (size_t i = 0; i < cap; i++)
		h->nr += !!slots[i].key.dso;
	return 0;
}

int hist__add(struct hist *h, const struct hist_key *key, u64 period)
{
	struct hist_entry *e = hist__slot(h->slots, h->cap, key);

	if (!e->key.dso) {
		if ((h->nr + 1) * 2 > h->cap) {
			if (hist__resize(h, h->cap * 2))
				return -ENOMEM;
			e = hist__slot(h->slots, h->cap, key);
		}
		e->key = *key;
		h->nr++;
	}
	e->samples++;
	e->period += period;
	h->total_samples++;
	h->total_period += period;
	return 0;
}

/* Rebuilds the table in place from its surviving entries. */
static void hist__rebuild(struct hist *h, size_t cap)
{
	/* A fresh table of the same size cannot fail to hold what the old
	 * one held; if the allocation fails the old layout stays valid
	 * except for removed entries, so do it with a copy. */
	if (hist__resize(h, cap) == 0)
		return;
	/* Out of memory: compact by reinsertion within the same array. */
	for (size_t i = 0; i < h->cap; i++) {
		struct hist_entry e = h->slots[i], *n;

		if (!e.key.dso)
			continue;
		h->slots[i].key.dso = NULL;
		n = hist__slot(h->slots, h->cap, &e.key);
		*n = e;
	}
}

void hist__decay(struct hist *h)
{
	bool removed = false;

	h->total_samples = h->total_period = 0;
	for (size_t i = 0; i < h->cap; i++) {
		struct hist_entry *e = &h->slots[i];

		if (!e->key.dso)
			continue;
		e->samples = e->samples * 7 / 8;
		e->period = e->period * 7 / 8;
		if (!e->period && !e->samples) {
			memset(e, 0, sizeof(*e));
			h->nr--;
			removed = true;
			continue;
		}
		h->total_samples += e->samples;
		h->total_period += e->period;
	}
	/* Emptied slots break linear-probe chains: rebuild. */
	if (removed)
		hist__rebuild(h, h->cap);
}

void hist__zero(struct hist *h)
{
	memset(h->slots, 0, h->cap * sizeof(*h->slots));
	h->nr = 0;
	h->total_samples = h->total_period = 0;
	/* Shrink a table that a burst made huge. */
	if (h->cap > 65536) {
		struct hist_entry *s = calloc(1024, sizeof(*s));

		if (s) {
			free(h->slots);
			h->slots = s;
			h->cap = 1024;
		}
	}
}

size_t hist__nr_entries(const struct hist *h)
{
	return h->nr;
}

u64 hist__total_samples(const struct hist *h)
{
	return h->total_samples;
}

u64 hist__total_period(const struct hist *h)
{
	return h->total_period;
}

size_t hist__bytes(const struct hist *h)
{
	return sizeof(*h) + h->cap * sizeof(*h->slots);
}

long hist__copy(const struct hist *h, struct hist_entry **out, size_t *cap)
{
	size_t n = 0;

	if (array__grow((void **)out, cap, h->nr ? h->nr : 1, sizeof(**out)))
		return -ENOMEM;
	for (size_t i = 0; i < h->cap; i++)
		if (h->slots[i].key.dso)
			(*out)[n++] = h->slots[i];
	return (long)n;
}

int hist__rekey(struct hist *h, bool (*fn)(struct hist_key *k, void *ctx),
		void *ctx)
{
	bool changed = false;

	for (size_t i = 0; i < h->cap; i++)
		if (h->slots[i].key.dso && fn(&h->slots[i].key, ctx))
			changed = true;
	if (!changed)
		return 0;
	return hist__resize(h, h->cap);
}

int hist__check(const struct hist *h)
{
	u64 samples = 0, period = 0;
	size_t n = 0;

	if (h->cap & (h->cap - 1))
		return -EINVAL;
	for (size_t i = 0; i < h->cap; i++) {
		const struct hist_entry *e = &h->slots[i];
		const struct hist_key *k = &e->key;

		if (!k->dso)
			continue;
		n++;
		samples += e->samples;
		period += e->period;
		if (hist__slot(h->slots, h->cap, k) != e)
			return -EINVAL;
	}
	if (n != h->nr || n * 2 > h->cap)
		return -EINVAL;
	if (samples != h->total_samples || period != h->total_period)
		return -EINVAL;
	return 0;
}
