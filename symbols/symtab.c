/* symtab: a sorted symbol array with O(log n) address lookup (pure). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/demangle.h"
#include "symbols/symtab.h"

/* How many earlier symbols a lookup checks when the nearest one ends
 * before addr: enough for nested asm symbols, cheap for hostile tables. */
#define WALK_BACK 8
#define PAGE 4096

struct sym {
	u64 start, size;
	/* Before naming: the arena copy (NULL: synthetic).  After: the
	 * pooled copy, which outlives the symtab. */
	const char *raw;
	union {
		u64 limit;		/* until symtab__finish */
		const char *name;	/* after it; valid once named */
	};
	u32 flags;
	u32 seq;
	u16 group;
	u8 bind;
	u8 named;
};

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, size;
	char data[];
};

struct symtab {
	struct sym *syms;
	size_t nr, cap;
	struct arena_chunk *arena;
	size_t arena_bytes;
	struct strpool *pool;
	bool own_pool;
	bool finished;
	unsigned int flags;
	struct strbuf scratch;	/* demangling, reused */
};

struct symtab *symtab__new(struct strpool *pool, unsigned int flags)
{
	struct symtab *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->flags = flags;
	st->pool = pool;
	if (!pool) {
		st->pool = strpool__new();
		if (!st->pool) {
			free(st);
			errno = ENOMEM;
			return NULL;
		}
		st->own_pool = true;
	}
	strbuf__init(&st->scratch);
	return st;
}

void symtab__free(struct symtab *st)
{
	struct arena_chunk *c, *n;

	if (!st)
		return;
	for (c = st->arena; c; c = n) {
		n = c->next;
		free(c);
	}
	if (st->own_pool)
		strpool__free(st->pool);
	strbuf__fini(&st->scratch);
	free(st->syms);
	free(st);
}

static char *arena__copy(struct symtab *st, const char *s, size_t len)
{
	struct arena_chunk *c = st->arena;
	char *p;

	if (len >= SIZE_MAX / 2)
		return NULL;
	if (!c || c->size - c->used < len + 1) {
		size_t size = len + 1 > 65536 ? len + 1 : 65536;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		/* A big name gets its own chunk behind the current one, so
		 * the current one keeps filling. */
		if (st->arena && size > 65536) {
			c->next = st->arena->next;
			st->arena->next = c;
		} else {
			c->next = st->arena;
			st->arena = c;
		}
		st->arena_bytes += sizeof(*c) + size;
	}
	p = c->data + c->used;
	memcpy(p, s, len);
	p[len] = '\0';
	c->used += len + 1;
	return p;
}

int symtab__reserve(struct symtab *st, size_t n)
{
	if (st->finished)
		return -EBUSY;
	if (n > UINT32_MAX - st->nr)
		n = UINT32_MAX - st->nr;
	return array__grow((void **)&st->syms, &st->cap, st->nr + n,
			   sizeof(*st->syms));
}

int symtab__add(struct symtab *st, u64 start, u64 size, u64 limit,
		const char *name, size_t len, u32 flags, enum symtab_bind bind,
		u16 group)
{
	struct sym *s;
	const char *copy = NULL;

	if (st->finished)
		return -EBUSY;
	if (st->nr >= UINT32_MAX)
		return -ENOMEM;
	if (st->nr == st->cap &&
	    array__grow((void **)&st->syms, &st->cap, st->nr + 1,
			sizeof(*st->syms)))
		return -ENOMEM;
	if (name) {
		const char *nul = memchr(name, '\0', len);

		if (nul)
			len = (size_t)(nul - name);
		copy = arena__copy(st, name, len);
		if (!copy)
			return -ENOMEM;
	}
	s = &st->syms[st->nr];
	s->start = start;
	s->size = size;
	s->raw = copy;
	s->limit = limit;
	s->flags = flags;
	s->seq = (u32)st->nr;
	s->group = group;
	s->bind = (u8)bind;
	s->named = 0;
	st->nr++;
	return 0;
}

static int sym__cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s && s[n] == '_')
		n++;
	return n;
}

/*
 * Is a a better representative than b of their shared address?  perf's
 * choice (symbols__fixup_duplicate): a symbol with a size over one
 * without, non-weak over weak, global over the rest, fewer leading
 * underscores, the longer name, then the one added first.  *_sized is
 * the size perf sees at that point, after symbols__fixup_end: a
 * zero-size alias has none unless it is the last added at its address
 * (it alone then reaches the next symbol), which is why perf names
 * kallsyms' memcpy/__memcpy/__pi_memcpy "__pi_memcpy".
 */
static bool sym__better(const struct symtab *st, const struct sym *a,
			bool a_sized, const struct sym *b, bool b_sized)
{
	size_t ua, ub, la, lb;

	if (a->bind != b->bind &&
	    (a->bind < SYMTAB_BIND_LOCAL || b->bind < SYMTAB_BIND_LOCAL))
		return a->bind > b->bind;	/* boundaries, synthetic */
	if (st->flags & SYMTAB_LAST_WINS)
		return a->seq > b->seq;
	if (a_sized != b_sized)
		return a_sized;
	if ((a->bind == SYMTAB_BIND_WEAK) != (b->bind == SYMTAB_BIND_WEAK))
		return b->bind == SYMTAB_BIND_WEAK;
	if ((a->bind == SYMTAB_BIND_GLOBAL) != (b->bind == SYMTAB_BIND_GLOBAL))
		return a->bind == SYMTAB_BIND_GLOBAL;
	if (!a->raw || !b->raw)
		return a->raw && !b->raw;
	ua = underscores(a->raw);
	ub = underscores(b->raw);
	if (ua != ub)
		return ua < ub;
	la = strlen(a->raw);
	lb = strlen(b->raw);
	if (la != lb)
		return la > lb;
	return a->seq < b->seq;
}

/* Keeps one symbol per address; returns the new count. */
static size_t dedup(struct symtab *st)
{
	size_t i = 0, out = 0;

	while (i < st->nr) {
		u64 start = st->syms[i].start;
		size_t j = i + 1, last = i, b = i;
		u64 max_size, limit;
		struct sym best;

		/* the group is in the order the symbols were added */
		for (; j < st->nr && st->syms[j].start == start; j++)
			if (st->syms[j].bind >= SYMTAB_BIND_LOCAL)
				last = j;
		max_size = st->syms[i].bind != SYMTAB_BIND_BOUNDARY ?
				   st->syms[i].size : 0;
		limit = st->syms[i].limit;
		for (size_t k = i + 1; k < j; k++) {
			const struct sym *s = &st->syms[k];

			if (s->bind != SYMTAB_BIND_BOUNDARY &&
			    s->size > max_size)
				max_size = s->size;
			if (!limit)
				limit = s->limit;
			if (sym__better(st, s, s->size || k == last,
					&st->syms[b],
					st->syms[b].size || b == last))
				b = k;
		}
		best = st->syms[b];
		/* An alias without a size borrows one from its twins. */
		if (!best.size && best.bind != SYMTAB_BIND_BOUNDARY)
			best.size = max_size;
		if (!best.limit)
			best.limit = limit;
		st->syms[out++] = best;
		i = j;
	}
	return out;
}

/* Where a symbol with nothing after it to end it ends (perf's rule). */
static u64 page_end(u64 start)
{
	u64 end = ALIGN_UP(start, (u64)PAGE) + PAGE;

	return end < start ? UINT64_MAX : end;
}

/*
 * A symbol of size 0 (asm, labels such as ld.so's _start, _init) reaches
 * the next symbol, wherever that is, as in perf (symbols__fixup_end): so
 * _init, at the end of .init, covers PLT0 up to the first named PLT
 * entry.  A sized one is cut at its section's end (a size that runs past
 * it is wrong).
 */
static void fix_sizes(struct symtab *st)
{
	for (size_t i = 0; i < st->nr; i++) {
		struct sym *s = &st->syms[i];
		const struct sym *next = i + 1 < st->nr ? s + 1 : NULL;
		u64 limit = s->limit > s->start ? s->limit : 0;
		u64 end;

		if (s->size) {
			end = s->start + s->size;
			if (end < s->start)
				end = UINT64_MAX;
			if (limit && end > limit)
				end = limit;
		} else if (!next) {
			end = page_end(s->start);
		} else if ((st->flags & SYMTAB_GROUP_BOUNDS) &&
			   next->group != s->group) {
			end = MIN(next->start, page_end(s->start));
		} else {
			end = next->start;
		}
		s->size = end - s->start;
	}
}

/* Drops boundaries, empty symbols and synthetic ranges that overlap a
 * real symbol (the real one knows better). */
static int prune(struct symtab *st)
{
	size_t n = st->nr, out = 0;
	u64 next_real = UINT64_MAX, real_end = 0;
	u8 *drop = calloc(n ? n : 1, 1);

	if (!drop)
		return -ENOMEM;
	for (size_t i = n; i-- > 0;) {
		struct sym *s = &st->syms[i];

		if (s->bind == SYMTAB_BIND_BOUNDARY || !s->size) {
			drop[i] = 1;
			continue;
		}
		if (s->bind == SYMTAB_BIND_SYNTH) {
			if (s->size > next_real - s->start)
				drop[i] = 1;
		} else {
			next_real = s->start;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct sym *s = &st->syms[i];

		if (drop[i])
			continue;
		if (s->bind == SYMTAB_BIND_SYNTH) {
			if (real_end > s->start)
				continue;
		} else {
			u64 end = s->start + s->size;

			if (end > real_end)
				real_end = end;
		}
		st->syms[out++] = *s;
	}
	free(drop);
	st->nr = out;
	return 0;
}

/*
 * Orders the symbols by (start, seq).  seq is the insertion index, so a
 * stable sort by start is enough: an LSD radix sort of (start, index)
 * pairs, 16 bits a pass, skipping the digits every start shares, then one
 * in-place permutation.  glibc's qsort, a merge sort copying 48-byte
 * records through a callback, was a third of loading libLLVM.
 */
struct sort_key {
	u64 start;
	u64 idx;
};

static void symtab__sort(struct symtab *st)
{
	size_t n = st->nr;
	struct sort_key *a = NULL, *b = NULL;
	u32 *count = NULL;
	u64 diff = 0;
	bool sorted = true;

	for (size_t i = 1; i < n; i++) {
		if (st->syms[i - 1].start > st->syms[i].start)
			sorted = false;
		diff |= st->syms[i].start ^ st->syms[0].start;
	}
	if (sorted)	/* kallsyms, eh_frame: often in order already */
		return;
	a = malloc(n * sizeof(*a));
	b = malloc(n * sizeof(*b));
	count = malloc(65536 * sizeof(*count));
	if (!a || !b || !count) {
		qsort(st->syms, n, sizeof(*st->syms), sym__cmp);
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		a[i] = (struct sort_key){ st->syms[i].start, i };
	for (unsigned int shift = 0; shift < 64; shift += 16) {
		struct sort_key *t;
		u32 sum = 0;

		if (!((diff >> shift) & 0xffff))
			continue;
		memset(count, 0, 65536 * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[(a[i].start >> shift) & 0xffff]++;
		for (size_t d = 0; d < 65536; d++) {
			u32 c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			b[count[(a[i].start >> shift) & 0xffff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	/* position i takes the record at a[i].idx: follow each cycle */
	for (size_t i = 0; i < n; i++) {
		struct sym tmp;
		size_t j = i;

		if (a[i].idx == i)
			continue;
		tmp = st->syms[i];
		while (a[j].idx != i) {
			size_t k = a[j].idx;

			st->syms[j] = st->syms[k];
			a[j].idx = j;
			j = k;
		}
		st->syms[j] = tmp;
		a[j].idx = j;
	}
out:
	free(a);
	free(b);
	free(count);
}

int symtab__finish(struct symtab *st)
{
	if (st->finished)
		return 0;
	st->finished = true;
	if (st->nr) {
		symtab__sort(st);
		st->nr = dedup(st);
		fix_sizes(st);
		if (prune(st)) {
			st->nr = 0;
			return -ENOMEM;
		}
	}
	for (size_t i = 0; i < st->nr; i++)
		st->syms[i].name = NULL;
	/* Give back what the growth over-allocated. */
	if (st->cap > st->nr + st->nr / 8 + 16) {
		struct sym *p = realloc(st->syms,
					(st->nr ? st->nr : 1) * sizeof(*p));

		if (p) {
			st->syms = p;
			st->cap = st->nr ? st->nr : 1;
		}
	}
	return 0;
}

static int sym__name(struct symtab *st, struct sym *s)
{
	char synth[32];
	const char *raw = s->raw, *pooled, *name;
	size_t len;

	if (!raw) {
		snprintf(synth, sizeof(synth), "func_0x%" PRIx64, s->start);
		raw = synth;
	}
	len = strlen(raw);
	pooled = strpool__intern(st->pool, raw, len);
	if (!pooled)
		return -ENOMEM;
	name = pooled;
	if ((st->flags & SYMTAB_DEMANGLE) && s->raw) {
		int r = demangle__name(raw,
				       st->flags & SYMTAB_PARAMS ?
					       DEMANGLE_PARAMS :
					       0,
				       &st->scratch);

		if (r < 0)
			return r;
		if (r > 0) {
			name = strpool__intern(st->pool, st->scratch.buf,
					       st->scratch.len);
			if (!name)
				return -ENOMEM;
		}
	}
	s->raw = pooled;
	s->name = name;
	s->named = 1;
	return 0;
}

static int sym__hit(struct symtab *st, struct sym *s, struct symtab_hit *hit)
{
	int err = 0;

	if (!s->named)
		err = sym__name(st, s);
	hit->name = s->named ? s->name : NULL;
	hit->raw_name = s->named ? s->raw : NULL;
	hit->start = s->start;
	hit->size = s->size;
	hit->flags = s->flags;
	hit->group = s->group;
	return err;
}

int symtab__lookup(struct symtab *st, u64 addr, struct symtab_hit *hit)
{
	size_t lo = 0, hi, i;

	memset(hit, 0, sizeof(*hit));
	if (!st || !st->finished)
		return -ENOENT;
	hi = st->nr;
	/* first symbol starting after addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i > 0 && lo - i < WALK_BACK; i--) {
		struct sym *s = &st->syms[i - 1];

		if (addr - s->start < s->size)
			return sym__hit(st, s, hit);
	}
	return -ENOENT;
}

void symtab__set_demangle(struct symtab *st, unsigned int flags)
{
	const unsigned int mask = SYMTAB_DEMANGLE | SYMTAB_PARAMS;

	if (!st || (st->flags & mask) == (flags & mask))
		return;
	st->flags = (st->flags & ~mask) | (flags & mask);
	/* after symtab__finish raw is the pooled copy: naming again is
	 * demangling it again */
	for (size_t i = 0; st->finished && i < st->nr; i++)
		st->syms[i].named = 0;
}

size_t symtab__count(const struct symtab *st)
{
	return st && st->finished ? st->nr : 0;
}

int symtab__at(struct symtab *st, size_t i, struct symtab_hit *hit)
{
	memset(hit, 0, sizeof(*hit));
	if (!st || !st->finished || i >= st->nr)
		return -ENOENT;
	return sym__hit(st, &st->syms[i], hit);
}

size_t symtab__bytes(const struct symtab *st)
{
	if (!st)
		return 0;
	return sizeof(*st) + st->cap * sizeof(*st->syms) + st->arena_bytes +
	       st->scratch.cap;
}
