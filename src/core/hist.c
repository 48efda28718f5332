/* hist: the aggregation hash of one event (pure); snapshots for views. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/hist.h"

_Static_assert(sizeof(struct hist_key) == 48, "hist_key has no holes");

/*
 * The entries sit densely in the order they came (the hot ones, which
 * come first, on a few pages); an open-addressed index of 8-byte slots
 * finds them: the entry's number plus one in the low half (0: empty),
 * the upper half of the key's hash in the high half, so that a probe
 * touches an entry only when the hash matches.  A table of 64-byte
 * entries probed directly spread a busy profile's hot entries over as
 * many pages as it had entries (TLB misses, dear in a VM).  A small
 * direct-mapped front of the same slots catches the hot keys before the
 * index (a profile's hot instructions are a few thousand; the index of
 * one that also sampled a million cold ones is megabytes).
 */
#define HIST_FRONT 4096

struct hist {
	struct hist_entry *entries;	/* nr used, ecap allocated */
	size_t nr, ecap;
	u64 *index;			/* cap slots, a power of two */
	size_t cap;
	u64 front[HIST_FRONT];		/* index slots of keys met lately */
	u64 total_samples, total_period;
	/* hist__take's marks: what entries [0, nr_marked) held at the last
	 * take (the newer ones held nothing); NULL until the first take,
	 * never touched by hist__add */
	struct hist_mark *marks;
	size_t nr_marked, mcap;
	u64 layout;			/* hist__layout */
};

struct hist_mark {
	u64 samples, period;
};

#define HIST_MIN_CAP 1024

static inline u64 key__hash(const struct hist_key *k)
{
	u64 h = (u64)(uintptr_t)k->dso * 0x9e3779b97f4a7c15ULL;

	h ^= k->addr + 0x632be59bd9b4e019ULL + (h << 6) + (h >> 2);
	h ^= (u64)(uintptr_t)k->comm + (h << 6) + (h >> 2);
	h ^= (u64)(uintptr_t)k->cgroup + (h << 6) + (h >> 2);
	h ^= ((u64)(u32)k->pid << 32 | (u32)k->tid) + (h << 6) + (h >> 2);
	h ^= ((u64)(u16)k->cpu << 48 | (u64)k->idle << 32 |
	      (u64)k->state << 40 | (u64)k->whole << 33 | k->chain) +
	     (h << 6) + (h >> 2);
	return hash_u64(h);
}

/* The slot of key in index: its entry's, or the empty one it would
 * take. */
static size_t hist__slot(const struct hist_entry *entries, const u64 *index,
			 size_t cap, const struct hist_key *key, u64 hash)
{
	size_t i = hash & (cap - 1);
	u64 tag = hash >> 32;

	for (u64 v; (v = index[i]); i = (i + 1) & (cap - 1))
		if (v >> 32 == tag &&
		    !memcmp(&entries[(u32)v - 1].key, key, sizeof(*key)))
			break;
	return i;
}

/*
 * Indexes entries[0..nr) anew in an index of cap slots, merging entries
 * whose keys became equal (hist__rekey) and dropping empty ones
 * (hist__decay): the survivors move down, in order.  Never fails when
 * index is given (the caller's, zeroed, big enough).
 */
static void hist__reindex(struct hist *h, u64 *index, size_t cap,
			  bool drop_empty)
{
	size_t n = 0;

	for (size_t j = 0; j < h->nr; j++) {
		struct hist_entry *e = &h->entries[j];
		u64 hash;
		size_t i;

		if (drop_empty && !e->samples && !e->period)
			continue;
		hash = key__hash(&e->key);
		i = hist__slot(h->entries, index, cap, &e->key, hash);
		if (index[i]) {
			struct hist_entry *m = &h->entries[(u32)index[i] - 1];

			m->samples += e->samples;
			m->period += e->period;
			continue;
		}
		if (n != j)
			h->entries[n] = *e;
		index[i] = (hash >> 32) << 32 | (u64)(n + 1);
		n++;
	}
	h->nr = n;
}

static int hist__resize(struct hist *h, size_t cap, bool drop_empty)
{
	u64 *index = calloc(cap, sizeof(*index));

	if (!index)
		return -ENOMEM;
	hist__reindex(h, index, cap, drop_empty);
	memset(h->front, 0, sizeof(h->front));
	free(h->index);
	h->index = index;
	h->cap = cap;
	return 0;
}

struct hist *hist__new(void)
{
	struct hist *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->cap = HIST_MIN_CAP;
	h->index = calloc(h->cap, sizeof(*h->index));
	if (!h->index ||
	    array__grow((void **)&h->entries, &h->ecap, HIST_MIN_CAP / 2,
			sizeof(*h->entries))) {
		hist__free(h);
		return NULL;
	}
	return h;
}

void hist__free(struct hist *h)
{
	if (!h)
		return;
	free(h->index);
	free(h->entries);
	free(h->marks);
	free(h);
}

/* The index slot of key (hash) with its entry, a zeroed one added if
 * there was none; -ENOMEM. */
static inline long hist__find_add(struct hist *h, const struct hist_key *key,
				  u64 hash)
{
	size_t i = hist__slot(h->entries, h->index, h->cap, key, hash);
	struct hist_entry *e;

	if (h->index[i])
		return (long)i;
	if ((h->nr + 1) * 4 > h->cap * 3) {
		if (hist__resize(h, h->cap * 2, false))
			return -ENOMEM;
		i = hist__slot(h->entries, h->index, h->cap, key, hash);
	}
	if (array__grow((void **)&h->entries, &h->ecap, h->nr + 1,
			sizeof(*h->entries)))
		return -ENOMEM;
	e = &h->entries[h->nr];
	e->key = *key;
	e->samples = e->period = 0;
	h->index[i] = (hash >> 32) << 32 | (u64)(++h->nr);
	return (long)i;
}

int hist__add(struct hist *h, const struct hist_key *key, u64 period)
{
	u64 hash = key__hash(key);
	u64 *f = &h->front[(hash >> 20) & (HIST_FRONT - 1)];
	struct hist_entry *e;
	long i;

	if (*f && *f >> 32 == hash >> 32 &&
	    !memcmp(&h->entries[(u32)*f - 1].key, key, sizeof(*key))) {
		e = &h->entries[(u32)*f - 1];
		goto add;
	}
	i = hist__find_add(h, key, hash);
	if (i < 0)
		return (int)i;
	e = &h->entries[(u32)h->index[i] - 1];
	*f = h->index[i];
add:
	e->samples++;
	e->period += period;
	h->total_samples++;
	h->total_period += period;
	return 0;
}

/* After a rewrite of the entries (decay, rekey, zero): the marks are
 * what the entries hold now.  A take comes right before each rewrite
 * (table__snapshot), so nothing a take had not seen is lost; moved or
 * merged entries change the layout. */
static void hist__remark(struct hist *h, bool moved)
{
	if (moved)
		h->layout++;
	if (!h->marks)
		return;
	if (array__grow((void **)&h->marks, &h->mcap, h->nr ? h->nr : 1,
			sizeof(*h->marks))) {
		/* no memory for the marks: forget them, the next take counts
		 * every entry whole (the layout says so) */
		free(h->marks);
		h->marks = NULL;
		h->mcap = h->nr_marked = 0;
		h->layout++;
		return;
	}
	for (size_t j = 0; j < h->nr; j++) {
		h->marks[j].samples = h->entries[j].samples;
		h->marks[j].period = h->entries[j].period;
	}
	h->nr_marked = h->nr;
}

void hist__decay(struct hist *h)
{
	bool removed = false;

	h->total_samples = h->total_period = 0;
	for (size_t j = 0; j < h->nr; j++) {
		struct hist_entry *e = &h->entries[j];

		e->samples = e->samples * 7 / 8;
		e->period = e->period * 7 / 8;
		if (!e->period && !e->samples) {
			removed = true;
			continue;
		}
		h->total_samples += e->samples;
		h->total_period += e->period;
	}
	/* the survivors move down: index them again (in place when no
	 * memory is left: the same size holds them) */
	if (removed && hist__resize(h, h->cap, true)) {
		memset(h->index, 0, h->cap * sizeof(*h->index));
		memset(h->front, 0, sizeof(h->front));
		hist__reindex(h, h->index, h->cap, true);
	}
	hist__remark(h, removed);
}

void hist__zero(struct hist *h)
{
	memset(h->front, 0, sizeof(h->front));
	h->nr = 0;
	h->total_samples = h->total_period = 0;
	/* Shrink a table that a burst made huge. */
	if (h->cap > 65536) {
		u64 *index = calloc(HIST_MIN_CAP, sizeof(*index));

		if (index) {
			free(h->index);
			h->index = index;
			h->cap = HIST_MIN_CAP;
			free(h->entries);
			h->entries = NULL;
			h->ecap = 0;
			hist__remark(h, true);
			return;
		}
	}
	memset(h->index, 0, h->cap * sizeof(*h->index));
	hist__remark(h, true);
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
	return sizeof(*h) + h->cap * sizeof(*h->index) +
	       h->ecap * sizeof(*h->entries) + h->mcap * sizeof(*h->marks);
}

long hist__copy(const struct hist *h, struct hist_entry **out, size_t *cap)
{
	if (array__grow((void **)out, cap, h->nr ? h->nr : 1, sizeof(**out)))
		return -ENOMEM;
	if (h->nr)
		memcpy(*out, h->entries, h->nr * sizeof(**out));
	return (long)h->nr;
}

int hist__rekey(struct hist *h, bool (*fn)(struct hist_key *k, void *ctx),
		void *ctx)
{
	return hist__rekey_cold(h, UINT64_MAX, fn, ctx);
}

int hist__rekey_cold(struct hist *h, u64 max,
		     bool (*fn)(struct hist_key *k, void *ctx), void *ctx)
{
	bool changed = false;
	int err;

	for (size_t j = 0; j < h->nr; j++)
		if (h->entries[j].samples <= max &&
		    fn(&h->entries[j].key, ctx))
			changed = true;
	if (!changed)
		return 0;
	err = hist__resize(h, h->cap, false);
	/* keys changed (merged or not): the takes' caches of the old ones
	 * go */
	hist__remark(h, true);
	return err;
}

/* Shrinks *p (n elements of size bytes) to want when it holds over
 * twice that; a failed realloc keeps it. */
static void shrink_array(void **p, size_t *n, size_t want, size_t size)
{
	void *q;

	if (*n <= want * 2 || !*p)
		return;
	q = realloc(*p, want * size);
	if (q) {
		*p = q;
		*n = want;
	}
}

void hist__shrink(struct hist *h)
{
	size_t cap = HIST_MIN_CAP;

	while (cap < h->nr * 2)
		cap *= 2;
	/* a failed resize keeps the bigger index, which still holds them */
	if (cap < h->cap)
		hist__resize(h, cap, false);
	shrink_array((void **)&h->entries, &h->ecap,
		     MAX(h->nr * 5 / 4, (size_t)HIST_MIN_CAP / 2),
		     sizeof(*h->entries));
	shrink_array((void **)&h->marks, &h->mcap,
		     MAX(h->nr_marked * 5 / 4, (size_t)1), sizeof(*h->marks));
}

u64 hist__layout(const struct hist *h)
{
	return h->layout;
}

/* Marks for every entry: those added since the last take held nothing
 * then. */
static int hist__marks_ready(struct hist *h)
{
	if (array__grow((void **)&h->marks, &h->mcap, h->nr ? h->nr : 1,
			sizeof(*h->marks)))
		return -ENOMEM;
	if (h->nr > h->nr_marked)
		memset(h->marks + h->nr_marked, 0,
		       (h->nr - h->nr_marked) * sizeof(*h->marks));
	h->nr_marked = h->nr;
	return 0;
}

/* The take of entries [a, b). */
static int hist__take_range(struct hist *h, size_t a, size_t b,
			    hist_take_fn fn, void *ctx)
{
	for (size_t j = a; j < b; j++) {
		const struct hist_entry *e = &h->entries[j];
		struct hist_mark *m = &h->marks[j];
		int err;

		if (e->samples == m->samples && e->period == m->period)
			continue;
		err = fn(ctx, j, e, e->samples - m->samples,
			 e->period - m->period);
		if (err)
			return err;
		m->samples = e->samples;
		m->period = e->period;
	}
	return 0;
}

int hist__take(struct hist *h, hist_take_fn fn, void *ctx)
{
	int err = hist__marks_ready(h);

	return err ? err : hist__take_range(h, 0, h->nr, fn, ctx);
}

/* A block copied, then taken while it is in the cache: one pass over
 * the entries for the snapshot and the take. */
#define HIST_TAKE_BLOCK 256

long hist__copy_take(struct hist *h, struct hist_entry **out, size_t *cap,
		     hist_take_fn fn, void *ctx, int *take_err)
{
	*take_err = 0;
	if (array__grow((void **)out, cap, h->nr ? h->nr : 1, sizeof(**out)))
		return -ENOMEM;
	if (fn)
		*take_err = hist__marks_ready(h);
	for (size_t a = 0; a < h->nr; a += HIST_TAKE_BLOCK) {
		size_t b = MIN(a + HIST_TAKE_BLOCK, h->nr);

		memcpy(*out + a, h->entries + a, (b - a) * sizeof(**out));
		if (fn && !*take_err)
			*take_err = hist__take_range(h, a, b, fn, ctx);
	}
	return (long)h->nr;
}

long hist__intern(struct hist *h, const struct hist_key *key)
{
	long i = hist__find_add(h, key, key__hash(key));

	return i < 0 ? i : (long)((u32)h->index[i] - 1);
}

const struct hist_entry *hist__entry(const struct hist *h, size_t i)
{
	return i < h->nr ? &h->entries[i] : NULL;
}

int hist__check(const struct hist *h)
{
	u64 samples = 0, period = 0;
	size_t used = 0;

	if (h->cap & (h->cap - 1) || h->nr * 4 > h->cap * 3 || h->nr > h->ecap)
		return -EINVAL;
	for (size_t i = 0; i < h->cap; i++) {
		u64 v = h->index[i];

		if (!v)
			continue;
		used++;
		if ((u32)v > h->nr)
			return -EINVAL;
	}
	if (used != h->nr)
		return -EINVAL;
	for (size_t j = 0; j < h->nr; j++) {
		const struct hist_entry *e = &h->entries[j];
		u64 hash = key__hash(&e->key);
		size_t i = hist__slot(h->entries, h->index, h->cap, &e->key,
				      hash);

		if (!e->key.dso || (u32)h->index[i] != j + 1 ||
		    h->index[i] >> 32 != hash >> 32)
			return -EINVAL;
		samples += e->samples;
		period += e->period;
	}
	if (samples != h->total_samples || period != h->total_period)
		return -EINVAL;
	return 0;
}
