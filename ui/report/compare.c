/* compare: a baseline's rows matched to the current rows (pure). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/compare.h"

/* A baseline row: its identity (strings owned by the pool) and counts. */
struct base_row {
	const char *dso;	/* base name of the object */
	const char *dso_name;	/* as the row showed it */
	const char *sym;	/* NULL: unresolved, see addr */
	const char *comm;
	u64 addr;
	u8 bid[BUILD_ID_MAX];	/* the object's build-id (unresolved rows'
				 * addresses match only in the same binary) */
	u8 bid_size;
	s32 pid, tid, cpu;
	u8 state;
	bool kernel, inlined;
	u64 samples, period, children_samples, children_period;
};

struct compare {
	struct strpool *pool;
	struct base_row *rows;
	size_t nr, cap;
	/* match_key__hash -> row index + 1; a hash taken by another
	 * identity moves on to hash + 1 */
	struct intmap index;
	bool *used;		/* per build: matched by a current row */
	size_t cap_used;
	struct sort_spec spec;	/* the baseline rows' grouping */
	u64 total_samples, total_period;
};

struct compare *compare__new(void)
{
	struct compare *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	intmap__init(&c->index);
	c->pool = strpool__new();
	if (!c->pool) {
		free(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

void compare__free(struct compare *c)
{
	if (!c)
		return;
	strpool__free(c->pool);
	free(c->rows);
	intmap__fini(&c->index);
	free(c->used);
	free(c);
}

static const char *base_name(const char *path)
{
	const char *s;

	if (!path)
		return "";
	s = strrchr(path, '/');
	/* "[kernel.kallsyms]" and "[vdso]" are names already */
	return s && s[1] ? s + 1 : path;
}

/* The identity a row is matched by under spec: only the grouped fields;
 * the others stay empty so that they compare equal. */
struct match_key {
	const char *dso, *sym, *comm;
	u64 addr;
	const u8 *bid;		/* an unresolved row's binary, when known */
	u8 bid_size;
	s32 pid, tid, cpu;
	u8 state;
	bool inlined;
};

static void match_key__make(struct match_key *k, const struct sort_spec *spec,
			    const char *dso_name, const char *sym, u64 addr,
			    const u8 *bid, u8 bid_size,
			    bool inlined, const char *comm, s32 pid, s32 tid,
			    s32 cpu, u8 state)
{
	memset(k, 0, sizeof(*k));
	k->dso = k->sym = k->comm = "";
	for (size_t i = 0; i < spec->nr_group; i++) {
		switch (spec->group[i]) {
		case SORT_SYM:
			k->dso = base_name(dso_name);
			k->inlined = inlined;
			if (sym) {
				k->sym = sym;
			} else {
				/* an address means the same code only in the
				 * same binary (a rebuilt one matches by name) */
				k->addr = addr;
				k->bid = bid;
				k->bid_size = bid_size;
			}
			break;
		case SORT_DSO:
			k->dso = base_name(dso_name);
			break;
		case SORT_TID:
			k->tid = tid;
			/* fall through */
		case SORT_PID:
			k->pid = pid;
			/* fall through */
		case SORT_COMM:
			k->comm = comm ? comm : "";
			break;
		case SORT_CPU:
			k->cpu = cpu;
			break;
		case SORT_STATE:
			k->state = state;
			break;
		default:
			break;
		}
	}
}

static void match_key__of_row(struct match_key *k,
			      const struct sort_spec *spec, const struct row *r)
{
	match_key__make(k, spec, r->dso_name, r->sym, r->addr,
			r->dso ? r->dso->build_id : NULL,
			r->dso ? r->dso->build_id_size : 0, r->inlined,
			r->comm, r->pid, r->tid, r->cpu, r->state);
}

static void match_key__of_base(struct match_key *k,
			       const struct sort_spec *spec,
			       const struct base_row *b)
{
	match_key__make(k, spec, b->dso, b->sym, b->addr, b->bid, b->bid_size,
			b->inlined, b->comm, b->pid, b->tid, b->cpu,
			b->state);
}

/* By content: the two sides' strings come from different places. */
static u64 match_key__hash(const struct match_key *k)
{
	u64 h = hash_bytes(k->dso, strlen(k->dso));

	h = h * 31 + hash_bytes(k->sym, strlen(k->sym));
	h = h * 31 + hash_bytes(k->comm, strlen(k->comm));
	h = h * 31 + k->addr;
	h = h * 31 + hash_bytes(k->bid ? k->bid : (const u8 *)"", k->bid_size);
	h = h * 31 + (u64)(u32)k->pid;
	h = h * 31 + (u64)(u32)k->tid;
	h = h * 31 + (u64)(u32)k->cpu;
	h = h * 31 + k->state;
	return h * 31 + k->inlined;
}

static bool match_key__eq(const struct match_key *a, const struct match_key *b)
{
	return a->addr == b->addr && a->bid_size == b->bid_size &&
	       (!a->bid_size || memcmp(a->bid, b->bid, a->bid_size) == 0) &&
	       a->pid == b->pid && a->tid == b->tid &&
	       a->cpu == b->cpu && a->state == b->state &&
	       a->inlined == b->inlined &&
	       strcmp(a->dso, b->dso) == 0 && strcmp(a->sym, b->sym) == 0 &&
	       strcmp(a->comm, b->comm) == 0;
}

/* The baseline row with k's identity, or UINT32_MAX; *free_at: the
 * index key where it would go. */
static u32 compare__find(const struct compare *c, const struct match_key *k,
			 u64 *free_at)
{
	u64 h = match_key__hash(k);
	uintptr_t v;

	for (; (v = (uintptr_t)intmap__get(&c->index, h)); h++) {
		struct match_key o;

		match_key__of_base(&o, &c->spec, &c->rows[v - 1]);
		if (match_key__eq(&o, k))
			return (u32)(v - 1);
	}
	if (free_at)
		*free_at = h;
	return UINT32_MAX;
}

static const char *compare__intern(struct compare *c, const char *s, bool *oom)
{
	const char *p;

	if (!s)
		return NULL;
	p = strpool__intern(c->pool, s, strlen(s));
	if (!p)
		*oom = true;
	return p;
}

void compare__clear(struct compare *c)
{
	c->nr = 0;
	c->total_samples = c->total_period = 0;
	intmap__fini(&c->index);
	intmap__init(&c->index);
}

int compare__set_base(struct compare *c, const struct rowset *rs)
{
	bool oom = false;

	compare__clear(c);
	c->spec = rs->spec;
	c->total_samples = rs->total_samples;
	c->total_period = rs->total_period;
	if (array__grow((void **)&c->rows, &c->cap, rs->nr ? rs->nr : 1,
			sizeof(*c->rows)))
		return -ENOMEM;
	for (size_t i = 0; i < rs->nr; i++) {
		const struct row *r = &rs->rows[i];
		struct base_row *b = &c->rows[c->nr];
		struct match_key k;
		u64 slot;
		u32 at;

		if (r->cmp == CMP_GONE)
			continue;
		memset(b, 0, sizeof(*b));
		b->dso_name = compare__intern(c, r->dso_name, &oom);
		b->dso = compare__intern(c, base_name(r->dso_name), &oom);
		b->sym = compare__intern(c, r->sym, &oom);
		b->comm = compare__intern(c, r->comm, &oom);
		if (oom)
			return -ENOMEM;
		b->addr = r->addr;
		if (r->dso && r->dso->build_id_size <= BUILD_ID_MAX) {
			b->bid_size = r->dso->build_id_size;
			memcpy(b->bid, r->dso->build_id, b->bid_size);
		}
		b->pid = r->pid;
		b->tid = r->tid;
		b->cpu = r->cpu;
		b->state = r->state;
		b->kernel = r->kernel;
		b->inlined = r->inlined;
		b->samples = r->samples;
		b->period = r->period;
		b->children_samples = r->children_samples;
		b->children_period = r->children_period;
		match_key__of_base(&k, &c->spec, b);
		at = compare__find(c, &k, &slot);
		if (at != UINT32_MAX) {
			/* two objects of one base name: one row */
			c->rows[at].samples += b->samples;
			c->rows[at].period += b->period;
			c->rows[at].children_samples += b->children_samples;
			c->rows[at].children_period += b->children_period;
			continue;
		}
		if (intmap__put(&c->index, slot,
				(void *)(uintptr_t)(c->nr + 1)))
			return -ENOMEM;
		c->nr++;
	}
	return 0;
}

u64 compare__base_period(const struct compare *c)
{
	return c->total_period;
}

size_t compare__base_rows(const struct compare *c)
{
	return c->nr;
}

static double base_pct(const struct compare *c, const struct base_row *b)
{
	return share_percent(b->period, b->samples, c->total_period,
			     c->total_samples);
}

static double base_children_pct(const struct compare *c,
				const struct base_row *b)
{
	return share_percent(b->children_period, b->children_samples,
			     c->total_period, c->total_samples);
}

int compare__rows(void *ctx, struct rowset *rs)
{
	struct compare *c = ctx;
	size_t nr = rs->nr;

	if (array__grow((void **)&c->used, &c->cap_used, c->nr ? c->nr : 1,
			sizeof(*c->used)))
		return -ENOMEM;
	memset(c->used, 0, c->nr * sizeof(*c->used));
	for (size_t i = 0; i < nr; i++) {
		struct row *r = &rs->rows[i];
		struct match_key k;
		u32 at;

		match_key__of_row(&k, &rs->spec, r);
		at = compare__find(c, &k, NULL);
		if (at == UINT32_MAX) {
			r->cmp = CMP_NEW;
			r->base_pct = r->base_children_pct = 0.0;
		} else {
			c->used[at] = true;
			r->cmp = CMP_BOTH;
			r->base_pct = base_pct(c, &c->rows[at]);
			r->base_children_pct =
				base_children_pct(c, &c->rows[at]);
		}
		r->delta = rowset__percent(rs, r) - r->base_pct;
		r->children_delta = rowset__percent_children(rs, r) -
				    r->base_children_pct;
	}
	for (size_t i = 0; i < c->nr; i++) {
		const struct base_row *b = &c->rows[i];
		struct row *r;

		if (c->used[i])
			continue;
		if (array__grow((void **)&rs->rows, &rs->cap, rs->nr + 1,
				sizeof(*rs->rows)))
			return -ENOMEM;
		r = &rs->rows[rs->nr++];
		memset(r, 0, sizeof(*r));
		r->dso_name = b->dso_name;
		r->sym = b->sym;
		r->sym_start = r->addr = b->addr;
		r->kernel = b->kernel;
		r->inlined = b->inlined;
		r->comm = b->comm;
		r->pid = b->pid;
		r->tid = b->tid;
		r->cpu = b->cpu;
		r->state = b->state;
		r->cmp = CMP_GONE;
		r->base_pct = base_pct(c, b);
		r->base_children_pct = base_children_pct(c, b);
		r->delta = -r->base_pct;
		r->children_delta = -r->base_children_pct;
	}
	return 0;
}

double compare__delta(const struct row *r, bool children)
{
	return children ? r->children_delta : r->delta;
}
