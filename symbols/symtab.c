/* symtab: a sorted symbol array with O(log n) address lookup (pure). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/demangle.h"
#include "symbols/symtab.h"
#include "symbols/symtab_internal.h"

/* How many earlier symbols a lookup checks when the nearest one ends
 * before addr: enough for nested asm symbols, cheap for hostile tables. */
#define WALK_BACK 8
#define PAGE 4096
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
	strbuf__init(&st->cmp[0]);
	strbuf__init(&st->cmp[1]);
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
	strbuf__fini(&st->raw_copy);
	strbuf__fini(&st->cmp[0]);
	strbuf__fini(&st->cmp[1]);
	free(st->names);
	if (st->image_len) {
		if (st->release)	/* the arrays are the image's */
			st->release(st->release_ctx);
	} else {
		free(st->syms);
		free(st->ranges);
	}
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

int symtab__reserve_ranges(struct symtab *st, size_t n)
{
	if (st->finished)
		return -EBUSY;
	if (n > UINT32_MAX - st->nr_ranges)
		n = UINT32_MAX - st->nr_ranges;
	return array__grow((void **)&st->ranges, &st->cap_ranges,
			   st->nr_ranges + n, sizeof(*st->ranges));
}

static int add_range(struct symtab *st, u64 start, u64 size, u32 flags)
{
	if (st->nr_ranges >= UINT32_MAX)
		return -ENOMEM;
	if (!st->nr_ranges)
		st->range_flags = flags;
	else if (flags != st->range_flags)
		return -EINVAL;
	if (st->nr_ranges == st->cap_ranges &&
	    array__grow((void **)&st->ranges, &st->cap_ranges,
			st->nr_ranges + 1, sizeof(*st->ranges)))
		return -ENOMEM;
	st->ranges[st->nr_ranges++] = (struct range){ start, size };
	return 0;
}

int symtab__add(struct symtab *st, u64 start, u64 size, u64 limit,
		const char *name, size_t len, u32 flags, enum symtab_bind bind,
		u16 group)
{
	struct sym *s;
	const char *copy = NULL;

	if (st->finished)
		return -EBUSY;
	if (bind == SYMTAB_BIND_SYNTH)
		return add_range(st, start, size, flags);
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
	s->named = SYM_RAW;
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
 * The name perf compares: it demangles a symbol when it reads it (the
 * name alone, as perf report shows it), so the underscores and lengths
 * it counts are the demangled name's ("operator new[]" is longer than
 * "operator new", where _Znam and _Znwm are as long); the raw name when
 * names are not demangled.  Into st->cmp[slot].
 */
static const char *cmp_name(struct symtab *st, const struct sym *s, int slot)
{
	if (!(st->flags & SYMTAB_DEMANGLE) ||
	    demangle__name(s->raw, 0, &st->cmp[slot]) != 1 ||
	    st->cmp[slot].oom)
		return s->raw;
	return st->cmp[slot].buf;
}

/*
 * Is a a better representative than b of their shared address?  perf's
 * choice (symbols__fixup_duplicate): a symbol with a size over one
 * without, non-weak over weak, global over the rest, fewer leading
 * underscores, the longer name (both of the demangled name: cmp_name),
 * then the one added first.  *_sized is the size perf sees at that
 * point, after symbols__fixup_end: a zero-size alias has none unless it
 * is the last added at its address (it alone then reaches the next
 * symbol), which is why perf names kallsyms' memcpy/__memcpy/__pi_memcpy
 * "__pi_memcpy".
 */
static bool sym__better(struct symtab *st, const struct sym *a,
			bool a_sized, const struct sym *b, bool b_sized)
{
	size_t ua, ub, la, lb;
	const char *na, *nb;

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
	na = cmp_name(st, a, 0);
	nb = cmp_name(st, b, 1);
	ua = underscores(na);
	ub = underscores(nb);
	if (ua != ub)
		return ua < ub;
	la = strlen(na);
	lb = strlen(nb);
	if (la != lb)
		return la > lb;
	return a->seq < b->seq;
}

/*
 * The symbols and the ranges make one sequence in address order (the
 * ranges after the symbols at one address, as if added after them all):
 * dedup, fix_sizes and prune walk it with one cursor in each array.
 * After dedup no two entries share an address.
 */

/* Is the next entry of the merged order a symbol (i) or a range (j)? */
static bool next_is_sym(const struct symtab *st, size_t i, size_t j)
{
	if (j >= st->nr_ranges)
		return true;
	return i < st->nr && st->syms[i].start <= st->ranges[j].start;
}

/* The best of the symbols at syms[i].start (see symtab__finish) into
 * *best; rmax, the largest size of the ranges there, is lent like a
 * twin's.  Returns the end of the group. */
static size_t dedup_group(struct symtab *st, size_t i, u64 rmax,
			  struct sym *best)
{
	u64 start = st->syms[i].start;
	size_t j = i + 1, last = i, b = i;
	u64 max_size, limit;

	/* the group is in the order the symbols were added */
	for (; j < st->nr && st->syms[j].start == start; j++)
		if (st->syms[j].bind >= SYMTAB_BIND_LOCAL)
			last = j;
	max_size = st->syms[i].bind != SYMTAB_BIND_BOUNDARY ?
			   st->syms[i].size : 0;
	max_size = MAX(max_size, rmax);
	limit = st->syms[i].limit;
	for (size_t k = i + 1; k < j; k++) {
		const struct sym *s = &st->syms[k];

		if (s->bind != SYMTAB_BIND_BOUNDARY && s->size > max_size)
			max_size = s->size;
		if (!limit)
			limit = s->limit;
		if (sym__better(st, s, s->size || k == last, &st->syms[b],
				st->syms[b].size || b == last))
			b = k;
	}
	*best = st->syms[b];
	/* An alias without a size borrows one from its twins. */
	if (!best->size && best->bind != SYMTAB_BIND_BOUNDARY)
		best->size = max_size;
	if (!best->limit)
		best->limit = limit;
	return j;
}

/* Keeps one entry per address: a real symbol over ranges over
 * boundaries; among ranges (all nameless) the first, or after a
 * boundary the first with a size (SYMTAB_LAST_WINS: the last), with the
 * largest size when it has none, as sym__better would choose. */
static void dedup(struct symtab *st)
{
	size_t i = 0, j = 0, out = 0, rout = 0;

	while (i < st->nr || j < st->nr_ranges) {
		bool sym = next_is_sym(st, i, j);
		u64 start = sym ? st->syms[i].start : st->ranges[j].start;
		size_t je = j, rb = j;
		u64 rmax = 0;
		struct sym best;

		for (; je < st->nr_ranges && st->ranges[je].start == start; je++)
			rmax = MAX(rmax, st->ranges[je].size);
		if (sym) {
			i = dedup_group(st, i, rmax, &best);
			if (best.bind != SYMTAB_BIND_BOUNDARY || je == j) {
				st->syms[out++] = best;
				j = je;
				continue;
			}
			/* boundaries lose to a range: the first with a size
			 * (the boundary was the group's first) */
			for (size_t k = j; k < je; k++) {
				if (st->ranges[k].size) {
					rb = k;
					break;
				}
			}
		}
		if (st->flags & SYMTAB_LAST_WINS)
			rb = je - 1;
		st->ranges[rout++] = (struct range){
			start, st->ranges[rb].size ? st->ranges[rb].size : rmax
		};
		j = je;
	}
	st->nr = out;
	st->nr_ranges = rout;
}

/* Where a symbol with nothing after it to end it ends (perf's rule). */
static u64 page_end(u64 start)
{
	u64 end = ALIGN_UP(start, (u64)PAGE) + PAGE;

	return end < start ? UINT64_MAX : end;
}

/*
 * A symbol of size 0 (asm, labels such as ld.so's _start, _init) reaches
 * the next symbol or range, wherever that is, as in perf
 * (symbols__fixup_end): so _init, at the end of .init, covers PLT0 up to
 * the first named PLT entry.  A sized one is cut at its section's end (a
 * size that runs past it is wrong).
 */
static u64 fixed_size(const struct symtab *st, u64 start, u64 size,
		      u64 limit, u16 group, size_t ni, size_t nj)
{
	u64 end;

	if (limit <= start)
		limit = 0;
	if (size) {
		end = start + size;
		if (end < start)
			end = UINT64_MAX;
		if (limit && end > limit)
			end = limit;
	} else if (ni >= st->nr && nj >= st->nr_ranges) {
		end = page_end(start);
	} else {
		bool sym = next_is_sym(st, ni, nj);
		u64 next = sym ? st->syms[ni].start : st->ranges[nj].start;
		u16 next_group = sym ? st->syms[ni].group : 0;

		if ((st->flags & SYMTAB_GROUP_BOUNDS) && next_group != group)
			end = MIN(next, page_end(start));
		else
			end = next;
	}
	return end - start;
}

static void fix_sizes(struct symtab *st)
{
	size_t i = 0, j = 0;

	while (i < st->nr || j < st->nr_ranges) {
		if (next_is_sym(st, i, j)) {
			struct sym *s = &st->syms[i];

			s->size = fixed_size(st, s->start, s->size, s->limit,
					     s->group, i + 1, j);
			i++;
		} else {
			struct range *r = &st->ranges[j];

			r->size = fixed_size(st, r->start, r->size, 0, 0, i,
					     j + 1);
			j++;
		}
	}
}

/* Drops boundaries, empty entries and ranges that overlap a real
 * symbol (the real one knows better). */
static int prune(struct symtab *st)
{
	size_t n = st->nr, nr = st->nr_ranges, out = 0, rout = 0;
	size_t i = n, j = nr;
	u64 next_real = UINT64_MAX, real_end = 0;
	u8 *drop = calloc(n + nr ? n + nr : 1, 1), *rdrop = drop + n;

	if (!drop)
		return -ENOMEM;
	/* backwards: a range that reaches the next real symbol */
	while (i || j) {
		bool sym = !j || (i && st->syms[i - 1].start > st->ranges[j - 1].start);

		if (sym) {
			const struct sym *s = &st->syms[--i];

			if (s->bind == SYMTAB_BIND_BOUNDARY || !s->size)
				drop[i] = 1;
			else
				next_real = s->start;
		} else {
			const struct range *r = &st->ranges[--j];

			if (!r->size || r->size > next_real - r->start)
				rdrop[j] = 1;
		}
	}
	/* forwards: a range that starts inside a real symbol */
	for (i = j = 0; i < n || j < nr;) {
		if (next_is_sym(st, i, j)) {
			const struct sym *s = &st->syms[i];

			if (!drop[i]) {
				real_end = MAX(real_end, s->start + s->size);
				st->syms[out++] = *s;
			}
			i++;
		} else {
			const struct range *r = &st->ranges[j];

			if (!rdrop[j] && real_end <= r->start)
				st->ranges[rout++] = *r;
			j++;
		}
	}
	free(drop);
	st->nr = out;
	st->nr_ranges = rout;
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

/* Sorts a[0, n) by start, stably; diff: the bits in which the starts
 * differ.  Returns the sorted array (a, or the other buffer, a freed),
 * NULL on ENOMEM (a freed). */
static struct sort_key *radix_sort(struct sort_key *a, size_t n, u64 diff)
{
	struct sort_key *b = malloc(n * sizeof(*b));
	u32 *count = malloc(65536 * sizeof(*count));

	if (!b || !count) {
		free(a);
		free(b);
		free(count);
		return NULL;
	}
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
	free(b);
	free(count);
	return a;
}

static void sort_syms(struct symtab *st)
{
	size_t n = st->nr;
	struct sort_key *a;
	u64 diff = 0;
	bool sorted = true;

	for (size_t i = 1; i < n; i++) {
		if (st->syms[i - 1].start > st->syms[i].start)
			sorted = false;
		diff |= st->syms[i].start ^ st->syms[0].start;
	}
	if (sorted)	/* kallsyms: in order already */
		return;
	a = malloc(n * sizeof(*a));
	if (a) {
		for (size_t i = 0; i < n; i++)
			a[i] = (struct sort_key){ st->syms[i].start, i };
		a = radix_sort(a, n, diff);
	}
	if (!a) {
		qsort(st->syms, n, sizeof(*st->syms), sym__cmp);
		return;
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
	free(a);
}

/* A range out of order, while the ranges are sorted: idx its place
 * among them all, before the ranges kept in order before it. */
struct stray {
	struct range r;
	size_t idx, before;
};

/*
 * .eh_frame lists its FDEs nearly in address order (libLLVM: 594 of 95K
 * taken out by the rule below, cc1 17.5K of 45K): the ones in order
 * stay where they are (moved down over the strays), the strays are
 * sorted apart (a radix sort of their keys), then merged in from the
 * end.  Stable, as symtab__finish needs (ties keep the order they were
 * added in), and no table-sized scratch, whose fresh pages were most of
 * a radix sort's cost.  0 or -ENOMEM.
 */
static int sort_ranges(struct symtab *st)
{
	struct range *r = st->ranges;
	struct stray *strays = NULL;
	struct sort_key *keys;
	size_t n = st->nr_ranges, m = 0, ns = 0, cap = 0;
	u64 diff = 0;

	for (size_t i = 0; i < n; i++) {
		if (!m || r[i].start >= r[m - 1].start) {
			r[m++] = r[i];
			continue;
		}
		if (ns == cap &&
		    array__grow((void **)&strays, &cap, ns + 1,
				sizeof(*strays))) {
			free(strays);
			return -ENOMEM;
		}
		strays[ns++] = (struct stray){ r[i], i, m };
	}
	if (!ns)
		return 0;
	/* the strays in order (stable: they are in the table's order) */
	keys = malloc(ns * sizeof(*keys));
	for (size_t k = 0; keys && k < ns; k++) {
		keys[k] = (struct sort_key){ strays[k].r.start, k };
		diff |= strays[k].r.start ^ strays[0].r.start;
	}
	if (keys)
		keys = radix_sort(keys, ns, diff);
	if (!keys) {
		free(strays);
		return -ENOMEM;
	}
	/* from the end: the later of the last kept one and the last stray
	 * (a kept one q comes before a stray at its start when it came
	 * before it in the table: q < before) */
	for (size_t w = n, k = ns; k > 0;) {
		const struct stray *x = &strays[keys[k - 1].idx];

		if (m && (r[m - 1].start > x->r.start ||
			  (r[m - 1].start == x->r.start && m - 1 >= x->before))) {
			r[--w] = r[--m];
		} else {
			r[--w] = x->r;
			k--;
		}
	}
	free(keys);
	free(strays);
	return 0;
}

/* Gives back what the growth of *arr over-allocated. */
static void shrink(void **arr, size_t *cap, size_t nr, size_t size)
{
	void *p;

	if (*cap <= nr + nr / 8 + 16)
		return;
	p = realloc(*arr, (nr ? nr : 1) * size);
	if (p) {
		*arr = p;
		*cap = nr ? nr : 1;
	}
}

int symtab__finish(struct symtab *st)
{
	if (st->finished)
		return 0;
	st->finished = true;
	if (st->nr || st->nr_ranges) {
		sort_syms(st);
		if (sort_ranges(st)) {
			st->nr = st->nr_ranges = 0;
			return -ENOMEM;
		}
		dedup(st);
		fix_sizes(st);
		if (prune(st)) {
			st->nr = st->nr_ranges = 0;
			return -ENOMEM;
		}
	}
	for (size_t i = 0; i < st->nr; i++)
		st->syms[i].name = NULL;
	shrink((void **)&st->syms, &st->cap, st->nr, sizeof(*st->syms));
	shrink((void **)&st->ranges, &st->cap_ranges, st->nr_ranges,
	       sizeof(*st->ranges));
	return 0;
}

/* A symbol's raw name (NULL: synthetic), wherever it is kept. */
const char *sym__raw(const struct symtab *st, const struct sym *s)
{
	if (s->named != SYM_RAW || !st->image_names)
		return s->raw;
	return s->raw_off == IMAGE_NO_NAME ? NULL :
					     st->image_names + s->raw_off;
}

/* raw, from an image, copied out of it: a fault in the copy (a mapped
 * file cut under it) happens before the pool or the demangler sees it.
 * NULL: out of memory. */
static const char *raw_out(struct symtab *st, const char *raw)
{
	if (!raw || !st->image_names)
		return raw;
	strbuf__reset(&st->raw_copy);
	strbuf__add(&st->raw_copy, raw, strlen(raw));
	return st->raw_copy.oom ? NULL : st->raw_copy.buf ? st->raw_copy.buf :
							  "";
}

static int sym__name(struct symtab *st, struct sym *s)
{
	char synth[32];
	const char *raw = sym__raw(st, s), *pooled, *name;
	bool synthetic = !raw;
	size_t len;

	if (synthetic) {
		snprintf(synth, sizeof(synth), "func_0x%" PRIx64, s->start);
		raw = synth;
	} else {
		raw = raw_out(st, raw);
		if (!raw)
			return -ENOMEM;
	}
	len = strlen(raw);
	pooled = strpool__intern(st->pool, raw, len);
	if (!pooled)
		return -ENOMEM;
	name = pooled;
	if ((st->flags & SYMTAB_DEMANGLE) && !synthetic) {
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
	s->named = SYM_NAMED;
	return 0;
}

/* The name slot of an image's symbol s (NULL: out of memory). */
static struct image_name *image_slot(struct symtab *st, const struct sym *s)
{
	if (!st->names)
		st->names = calloc(st->nr, sizeof(*st->names));
	return st->names ? &st->names[s - st->syms] : NULL;
}

static int sym__hit(struct symtab *st, struct sym *s, struct symtab_hit *hit)
{
	struct image_name *slot = NULL;
	struct sym copy;
	int err = 0;

	if (st->image_names) {
		/* named in a copy, kept in the slot */
		copy = *s;
		slot = image_slot(st, s);
		if (slot && slot->name) {
			copy.raw = slot->raw;
			copy.name = slot->name;
			copy.named = SYM_NAMED;
		}
		s = &copy;
	}
	if (s->named != SYM_NAMED) {
		err = sym__name(st, s);
		if (!err && slot) {
			slot->raw = s->raw;
			slot->name = s->name;
		}
	}
	hit->name = s->named == SYM_NAMED ? s->name : NULL;
	hit->raw_name = s->named == SYM_NAMED ? s->raw : NULL;
	hit->start = s->start;
	hit->size = s->size;
	hit->flags = s->flags;
	hit->group = s->group;
	return err;
}

/* A range's hit: its name is made (and interned) at each lookup. */
static int range__hit(struct symtab *st, const struct range *r,
		      struct symtab_hit *hit)
{
	char name[32];
	int len = snprintf(name, sizeof(name), "func_0x%" PRIx64, r->start);

	hit->name = strpool__intern(st->pool, name, (size_t)len);
	hit->raw_name = hit->name;
	hit->start = r->start;
	hit->size = r->size;
	hit->flags = st->range_flags;
	hit->group = 0;
	return hit->name ? 0 : -ENOMEM;
}

/* The first of n records (stride bytes, a u64 start first) starting
 * after addr. */
static size_t first_after(const void *base, size_t n, size_t stride,
			  u64 addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		u64 start;

		memcpy(&start, (const u8 *)base + mid * stride, sizeof(start));
		if (start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The symbols first, then the ranges: after symtab__finish no range
 * overlaps a symbol, so at most one of them covers addr. */
static int lookup(struct symtab *st, u64 addr, struct symtab_hit *hit)
{
	size_t lo, i;

	memset(hit, 0, sizeof(*hit));
	if (!st || !st->finished)
		return -ENOENT;
	lo = first_after(st->syms, st->nr, sizeof(*st->syms), addr);
	for (i = lo; i > 0 && lo - i < WALK_BACK; i--) {
		struct sym *s = &st->syms[i - 1];

		if (addr - s->start < s->size)
			return sym__hit(st, s, hit);
	}
	lo = first_after(st->ranges, st->nr_ranges, sizeof(*st->ranges),
			 addr);
	for (i = lo; i > 0 && lo - i < WALK_BACK; i--) {
		const struct range *r = &st->ranges[i - 1];

		if (addr - r->start < r->size)
			return range__hit(st, r, hit);
	}
	return -ENOENT;
}

void symtab__set_demangle(struct symtab *st, unsigned int flags)
{
	const unsigned int mask = SYMTAB_DEMANGLE | SYMTAB_PARAMS;

	if (!st || (st->flags & mask) == (flags & mask))
		return;
	st->flags = (st->flags & ~mask) | (flags & mask);
	/* an image's names are made again from it */
	free(st->names);
	st->names = NULL;
	/* a named symbol's raw is the pooled copy: naming it again is
	 * demangling it again */
	for (size_t i = 0; st->finished && !st->image_names && i < st->nr; i++)
		if (st->syms[i].named == SYM_NAMED)
			st->syms[i].named = SYM_POOLED;
}

size_t symtab__count(const struct symtab *st)
{
	return st && st->finished ? st->nr + st->nr_ranges : 0;
}

/* Moves symtab__at's cursor to the i-th entry (i < count): true when it
 * is a symbol (syms[at_sym]), false for a range (ranges[at_range]). */
static bool at_seek(struct symtab *st, size_t i)
{
	if (i < st->at_pos)
		st->at_pos = st->at_sym = st->at_range = 0;
	for (; st->at_pos < i; st->at_pos++) {
		if (next_is_sym(st, st->at_sym, st->at_range))
			st->at_sym++;
		else
			st->at_range++;
	}
	return next_is_sym(st, st->at_sym, st->at_range);
}

static int at(struct symtab *st, size_t i, struct symtab_hit *hit)
{
	memset(hit, 0, sizeof(*hit));
	if (!st || !st->finished || i >= st->nr + st->nr_ranges)
		return -ENOENT;
	if (at_seek(st, i))
		return sym__hit(st, &st->syms[st->at_sym], hit);
	return range__hit(st, &st->ranges[st->at_range], hit);
}

static int at_raw(struct symtab *st, size_t i, struct symtab_hit *hit)
{
	const struct sym *s;

	memset(hit, 0, sizeof(*hit));
	if (!st || !st->finished || i >= st->nr + st->nr_ranges)
		return -ENOENT;
	if (!at_seek(st, i)) {
		const struct range *r = &st->ranges[st->at_range];

		hit->start = r->start;
		hit->size = r->size;
		hit->flags = st->range_flags;
		return 0;
	}
	s = &st->syms[st->at_sym];
	hit->raw_name = st->guard_run ? raw_out(st, sym__raw(st, s)) :
					sym__raw(st, s);
	hit->start = s->start;
	hit->size = s->size;
	hit->flags = s->flags;
	hit->group = s->group;
	return 0;
}

static const char *raw_at(struct symtab *st, size_t i)
{
	const char *raw;

	if (!st->finished || i >= st->nr + st->nr_ranges || !at_seek(st, i))
		return NULL;
	raw = sym__raw(st, &st->syms[st->at_sym]);
	return st->guard_run ? raw_out(st, raw) : raw;
}

/* ---- the accessors, through the image's guard when it has one ---- */

enum access_op { A_LOOKUP, A_AT, A_AT_RAW, A_RAW_AT };

struct access {
	struct symtab *st;
	enum access_op op;
	u64 addr;
	size_t i;
	struct symtab_hit *hit;
	const char *raw;
	int ret;
};

static void access_run(void *arg)
{
	struct access *a = arg;

	switch (a->op) {
	case A_LOOKUP:
		a->ret = lookup(a->st, a->addr, a->hit);
		break;
	case A_AT:
		a->ret = at(a->st, a->i, a->hit);
		break;
	case A_AT_RAW:
		a->ret = at_raw(a->st, a->i, a->hit);
		break;
	case A_RAW_AT:
		a->raw = raw_at(a->st, a->i);
		break;
	}
}

static int image_access(struct access *a)
{
	struct symtab *st = a->st;

	if (a->hit)
		memset(a->hit, 0, sizeof(*a->hit));
	if (!st)
		return -ENOENT;
	if (!st->guard_run) {
		access_run(a);
		return a->ret;
	}
	if (st->stale || st->guard_run(st->guard_ctx, access_run, a)) {
		st->stale = true;
		a->raw = NULL;
		return -ESTALE;
	}
	return a->ret;
}

int symtab__lookup(struct symtab *st, u64 addr, struct symtab_hit *hit)
{
	struct access a = { st, A_LOOKUP, addr, 0, hit, NULL, 0 };

	return image_access(&a);
}

int symtab__at(struct symtab *st, size_t i, struct symtab_hit *hit)
{
	struct access a = { st, A_AT, 0, i, hit, NULL, 0 };

	return image_access(&a);
}

int symtab__at_raw(struct symtab *st, size_t i, struct symtab_hit *hit)
{
	struct access a = { st, A_AT_RAW, 0, i, hit, NULL, 0 };

	return image_access(&a);
}

const char *symtab__raw_at(struct symtab *st, size_t i)
{
	struct access a = { st, A_RAW_AT, 0, i, NULL, NULL, 0 };

	image_access(&a);
	return a.raw;
}

size_t symtab__bytes(const struct symtab *st)
{
	if (!st)
		return 0;
	return sizeof(*st) + st->cap * sizeof(*st->syms) +
	       st->cap_ranges * sizeof(*st->ranges) + st->arena_bytes +
	       st->image_len + (st->names ? st->nr * sizeof(*st->names) : 0) +
	       st->scratch.cap;
}
