/* Tests of the pprof writer: a fake session's chains encoded, then
 * decoded field by field: string 0 "", ids 1..N in order, the
 * mapping's build-id and flags, addresses, stacks leaf first, values,
 * labels, inlined lines. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/output.h"
#include "ui/report/pprof.h"
#include "src/core/protobuf.h"
#include "src/core/record.h"
#include "src/core/session.h"
#include "ui/report/table.h"
#include "tests/testutil.h"

static u64 buf[8192];
static struct session *s;

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

/* /bin/cg's functions, 0x100 bytes each from offset 0x1000 */
static const char *const fn_names[] = { "main", "outer", "inner_a", "inner_b" };

static int resolve(void *ctx, const struct dso *d, u64 addr, struct row_sym *out)
{
	(void)ctx;
	memset(out, 0, sizeof(*out));
	out->dso_name = d->name;
	if (d->kind == DSO_FILE && addr >= 0x1000 && addr < 0x1400) {
		out->name = fn_names[(addr - 0x1000) / 0x100];
		out->start = 0x1000 + (addr - 0x1000) / 0x100 * 0x100;
		out->size = 0x100;
	}
	return 0;
}

/* inner_a's code at 0x12xx holds "helper" inlined */
static size_t fake_inl(void *ctx, const struct dso *d, u64 addr,
		       const char **names, size_t max)
{
	(void)ctx;
	(void)d;
	if (addr >= 0x1200 && addr < 0x1300 && max) {
		names[0] = "helper";
		return 1;
	}
	return 0;
}

static void setup(void)
{
	struct session_opts o = { .key_fields = KEY_PID | KEY_COMM,
				  .max_stack = 16 };
	struct perf_event_attr a;
	size_t t = record__id_trailer_size(ST, true);

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_type = ST;
	a.sample_id_all = 1;
	a.build_id = 1;	/* else the MMAP2 union is not a build-id */
	s = session__new(&o);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	session__process(s, fake_comm(buf, 10, 10, "cg", false, t));
	session__process(s, fake_mmap2(buf, 10, 0x400000, 0x10000, 0, "/bin/cg",
				       (const u8 *)"\x01\x02\xab\xcd", 4, t));
}

static void teardown(void)
{
	session__free(s);
}

/* innermost first: fns[0] is sampled at +0x40, its callers at +0x11 */
static void sample(u64 period, int n, const int *fns, u64 leaf_off)
{
	u64 chain[16];
	struct fake_sample fs = { .pid = 10, .tid = 10, .time = 1,
				  .period = period,
				  .misc = PERF_RECORD_MISC_USER };

	chain[0] = (u64)PERF_CONTEXT_USER;
	for (int i = 0; i < n; i++)
		chain[i + 1] = 0x401000 + (u64)fns[i] * 0x100 +
			       (i ? 0x11 : leaf_off);
	fs.ip = chain[1];
	fs.callchain = chain;
	fs.nr_callchain = (u64)n + 1;
	ck_assert_int_eq(session__process(s, fake_sample(buf, ST, &fs)), 0);
}

/* The decoded profile (what the checks need of it). */
struct dloc {
	u64 id, mapping, address, funcs[4];
	size_t nr;
};

struct dec {
	const char *strs[64];
	size_t nr_strs;
	u64 types[4][2];
	size_t nr_types;
	u64 map_ids[8], map_start[8], map_limit[8], map_bid[8], map_fn[8];
	size_t nr_maps;
	struct dloc locs[32];
	size_t nr_locs;
	u64 fn_ids[32], fn_name[32];
	size_t nr_fns;
	char stacks[8][128];	/* "count root;...;leaf" */
	u64 st_count[8], st_period[8], st_pid[8];
	size_t nr_stacks;
	u64 period;
};

/* One field of a message at *p: its number, and a value or bytes. */
static int field(const u8 **p, const u8 *end, u32 *f, u64 *v,
		 const u8 **b, size_t *len)
{
	u64 tag;

	if (pb__read_varint(p, end, &tag))
		return -EINVAL;
	*f = (u32)(tag >> 3);
	switch (tag & 7) {
	case PB_VARINT:
		return pb__read_varint(p, end, v);
	case PB_LEN:
		if (pb__read_varint(p, end, v) || *v > (u64)(end - *p))
			return -EINVAL;
		*b = *p;
		*len = (size_t)*v;
		*p += *len;
		return 0;
	default:
		return -EINVAL;
	}
}

struct it {
	const u8 *p, *e;
};

static bool next(struct it *it, u32 *f, u64 *v, const u8 **b, size_t *l)
{
	if (it->p >= it->e)
		return false;
	ck_assert_int_eq(field(&it->p, it->e, f, v, b, l), 0);
	return true;
}

static void decode(const struct strbuf *sb, struct dec *d)
{
	const u8 *b, *b2;
	size_t l, l2;
	u32 f, f2;
	u64 v, v2;

	memset(d, 0, sizeof(*d));
	for (struct it it_f = { (const u8 *)sb->buf, (const u8 *)sb->buf + sb->len }; next(&it_f, &f, &v, &b, &l);) {
		if (f == 6) {
			char *str = strndup((const char *)b, l);

			ck_assert_uint_lt(d->nr_strs, 64);
			d->strs[d->nr_strs++] = str;
		} else if (f == 1) {
			for (struct it it_f2 = { b, b + l }; next(&it_f2, &f2, &v2, &b2, &l2);)
				d->types[d->nr_types][f2 - 1] = v2;
			d->nr_types++;
		} else if (f == 12) {
			d->period = v;
		} else if (f == 3) {
			size_t i = d->nr_maps++;

			for (struct it it_f2 = { b, b + l }; next(&it_f2, &f2, &v2, &b2, &l2);) {
				if (f2 == 1) d->map_ids[i] = v2;
				if (f2 == 2) d->map_start[i] = v2;
				if (f2 == 3) d->map_limit[i] = v2;
				if (f2 == 6) d->map_bid[i] = v2;
				if (f2 == 7) d->map_fn[i] = v2;
			}
		} else if (f == 4) {
			struct dloc *lc = &d->locs[d->nr_locs++];

			for (struct it it_f2 = { b, b + l }; next(&it_f2, &f2, &v2, &b2, &l2);) {
				if (f2 == 1) lc->id = v2;
				if (f2 == 2) lc->mapping = v2;
				if (f2 == 3) lc->address = v2;
				if (f2 == 4) {
					const u8 *b3;
					size_t l3;
					u32 f3;
					u64 v3;

					for (struct it it_f3 = { b2, b2 + l2 }; next(&it_f3, &f3, &v3, &b3, &l3);)
						if (f3 == 1)
							lc->funcs[lc->nr++] = v3;
				}
			}
		} else if (f == 5) {
			for (struct it it_f2 = { b, b + l }; next(&it_f2, &f2, &v2, &b2, &l2);) {
				if (f2 == 1) d->fn_ids[d->nr_fns] = v2;
				if (f2 == 2) d->fn_name[d->nr_fns] = v2;
			}
			d->nr_fns++;
		}
	}
	/* samples, now that the table and locations are known */
	for (struct it it_f = { (const u8 *)sb->buf, (const u8 *)sb->buf + sb->len }; next(&it_f, &f, &v, &b, &l);) {
		size_t i = d->nr_stacks;
		u64 ids[16], vals[2];
		size_t n = 0, nv = 0;

		if (f != 2)
			continue;
		for (struct it it_f2 = { b, b + l }; next(&it_f2, &f2, &v2, &b2, &l2);) {
			const u8 *q = b2;

			if (f2 == 1)
				while (q < b2 + l2)
					ck_assert_int_eq(pb__read_varint(&q, b2 + l2, &ids[n++]), 0);
			if (f2 == 2)
				while (q < b2 + l2)
					ck_assert_int_eq(pb__read_varint(&q, b2 + l2, &vals[nv++]), 0);
			if (f2 == 3) {
				const u8 *b3;
				size_t l3;
				u32 f3;
				u64 v3, key = 0, num = 0;

				for (struct it it_f3 = { b2, b2 + l2 }; next(&it_f3, &f3, &v3, &b3, &l3);) {
					if (f3 == 1) key = v3;
					if (f3 == 3) num = v3;
				}
				if (!strcmp(d->strs[key], "pid"))
					d->st_pid[i] = num;
			}
		}
		ck_assert_uint_eq(nv, 2);
		d->st_count[i] = vals[0];
		d->st_period[i] = vals[1];
		/* leaf first in the sample; the lines of a location innermost
		 * first: root first for the string */
		for (size_t k = n; k-- > 0;) {
			const struct dloc *lc = &d->locs[ids[k] - 1];

			ck_assert_uint_eq(lc->id, ids[k]);
			for (size_t j = lc->nr; j-- > 0;) {
				if (d->stacks[i][0])
					strcat(d->stacks[i], ";");
				strcat(d->stacks[i],
				       d->strs[d->fn_name[lc->funcs[j] - 1]]);
			}
		}
		d->nr_stacks++;
	}
}

static void dec_fini(struct dec *d)
{
	for (size_t i = 0; i < d->nr_strs; i++)
		free((void *)(uintptr_t)d->strs[i]);
}

static u64 stack_count(const struct dec *d, const char *st)
{
	u64 c = 0;

	for (size_t i = 0; i < d->nr_stacks; i++)
		if (!strcmp(d->stacks[i], st))
			c += d->st_count[i];
	return c;
}

static const struct dloc *loc_at(const struct dec *d, u64 off)
{
	for (size_t i = 0; i < d->nr_locs; i++)
		if (d->locs[i].address - d->map_start[d->locs[i].mapping - 1] ==
		    off)
			return &d->locs[i];
	ck_abort_msg("no location at 0x%llx", (unsigned long long)off);
	return NULL;
}

/* The table of the session's samples so far, snapshotted (names from
 * resolve). */
static void open_table(struct table *t, struct sort_spec *spec)
{
	sort_spec__default(spec);
	table__init(t, s, NULL, spec);
	t->resolve = resolve;
	t->resolve_ctx = NULL;
	ck_assert_int_eq(table__snapshot(t, HIST_CUMULATIVE), 0);
}

START_TEST(test_encode)
{
	static const int a[] = { 2, 1, 0 }, b[] = { 3, 1, 0 };
	struct pprof_opts o = { .event = "cpu-clock", .cpu_ns = true,
				.freq = 4000, .label_pid = true,
				.inl = fake_inl };
	struct sort_spec spec;
	struct strbuf sb;
	struct table t;
	struct dec d;
	u64 total = 0, period = 0;

	sample(100, 3, a, 0x40);
	sample(100, 3, a, 0x40);
	sample(100, 3, b, 0x40);
	sample(50, 3, b, 0x80);	/* same function, another location */
	sample(10, 1, (const int[]){ 0 }, 0x900);	/* no symbol */
	open_table(&t, &spec);
	strbuf__init(&sb);
	ck_assert_int_eq(pprof__encode(&sb, &o, &t, 0), 0);
	decode(&sb, &d);

	ck_assert_str_eq(d.strs[0], "");
	for (size_t i = 1; i < d.nr_strs; i++)	/* each string once */
		for (size_t j = 0; j < i; j++)
			ck_assert_str_ne(d.strs[i], d.strs[j]);
	ck_assert_uint_eq(d.nr_types, 2);
	ck_assert_str_eq(d.strs[d.types[0][0]], "samples");
	ck_assert_str_eq(d.strs[d.types[0][1]], "count");
	ck_assert_str_eq(d.strs[d.types[1][0]], "cpu");
	ck_assert_str_eq(d.strs[d.types[1][1]], "nanoseconds");
	ck_assert_uint_eq(d.period, 250000);	/* 1e9 / 4000 */

	/* ids 1..N in order */
	ck_assert_uint_eq(d.nr_maps, 1);
	ck_assert_uint_eq(d.map_ids[0], 1);
	for (size_t i = 0; i < d.nr_locs; i++)
		ck_assert_uint_eq(d.locs[i].id, i + 1);
	for (size_t i = 0; i < d.nr_fns; i++)
		ck_assert_uint_eq(d.fn_ids[i], i + 1);
	ck_assert_uint_eq(d.nr_fns, 5);	/* main outer inner_a helper inner_b */
	/* 0x1240, 0x1340, 0x1380, 0x1900 and the callers 0x1110, 0x1010
	 * (return addresses minus one) */
	ck_assert_uint_eq(d.nr_locs, 6);

	/* the mapping: hex build-id, has_functions false (0x1900 has no
	 * name), each address its file offset from memory_start */
	ck_assert_str_eq(d.strs[d.map_bid[0]], "0102abcd");
	ck_assert_uint_eq(d.map_fn[0], 0);
	for (size_t i = 0; i < d.nr_locs; i++) {
		ck_assert_uint_ge(d.locs[i].address, d.map_start[0]);
		ck_assert_uint_lt(d.locs[i].address, d.map_limit[0]);
	}
	ck_assert_uint_eq(loc_at(&d, 0x1240)->nr, 2);	/* helper, inner_a */
	ck_assert_str_eq(d.strs[d.fn_name[loc_at(&d, 0x1240)->funcs[0] - 1]],
			 "helper");
	ck_assert_uint_eq(loc_at(&d, 0x1110)->nr, 1);
	ck_assert_uint_eq(loc_at(&d, 0x1900)->nr, 0);	/* no name: no line */

	/* stacks as --folded has them, values and labels */
	ck_assert_uint_eq(stack_count(&d, "main;outer;inner_a;helper"), 2);
	ck_assert_uint_eq(stack_count(&d, "main;outer;inner_b"), 2);
	for (size_t i = 0; i < d.nr_stacks; i++) {
		total += d.st_count[i];
		period += d.st_period[i];
		ck_assert_uint_eq(d.st_pid[i], 10);
	}
	ck_assert_uint_eq(total, 5);
	ck_assert_uint_eq(period, 360);

	dec_fini(&d);
	strbuf__fini(&sb);
	table__fini(&t);
}
END_TEST

/* Another event: its name and "count"; no label unless asked. */
/* A chain deeper than a path keeps: the Sample's locations are its
 * MAX_PATH_FRAMES innermost frames, leaf first, as rowset's paths
 * (check_rowset's test_deep_path). */
START_TEST(test_deep_chain)
{
	enum { EXTRA = 37, N = MAX_PATH_FRAMES + EXTRA };
	struct pprof_opts o = { .event = "cpu-clock" };
	static u64 loc_addr[N + 2];
	const struct snapshot *real;
	struct sort_spec spec;
	struct snapshot deep;
	struct hist_entry e;
	struct strbuf sb;
	struct table t;
	u64 map_start = 0, first = 0, last = 0, v;
	size_t n = 0, samples = 0, l;
	const u8 *b;
	u32 f;

	sample(1, 1, (const int[]){ 0 }, 0x40);
	open_table(&t, &spec);
	real = table__snap(&t, 0);
	ck_assert_uint_eq(real->nr, 1);
	/* its entry again, with a chain of N frames in its dso: frame k
	 * from the leaf at 0x10000 + 0x10 k */
	snapshot__init(&deep);
	deep.chains = calloc(N + 1, sizeof(*deep.chains));
	ck_assert_ptr_nonnull(deep.chains);
	for (u32 id = 1; id <= N; id++)
		deep.chains[id] = (struct cc_node){
			.parent = id - 1, .depth = id,
			.dso = real->entries[0].key.dso,
			.addr = 0x10000 + 0x10 * (u64)(N - id),
		};
	deep.nr_chains = N + 1;
	e = real->entries[0];
	e.key.addr = 0x10000;
	e.key.chain = N;
	deep.entries = &e;
	deep.nr = 1;
	deep.total_samples = e.samples;
	deep.total_period = e.period;
	o.snap = &deep;
	strbuf__init(&sb);
	ck_assert_int_eq(pprof__encode(&sb, &o, &t, 0), 0);

	for (struct it it = { (const u8 *)sb.buf, (const u8 *)sb.buf + sb.len };
	     next(&it, &f, &v, &b, &l);) {
		const u8 *b2;
		size_t l2;
		u32 f2;
		u64 v2, id = 0, addr = 0;

		if (f != 2 && f != 3 && f != 4)
			continue;
		for (struct it it2 = { b, b + l }; next(&it2, &f2, &v2, &b2, &l2);) {
			const u8 *q = b2;

			if (f == 3 && f2 == 2)
				map_start = v2;
			if (f == 4 && f2 == 1)
				id = v2;
			if (f == 4 && f2 == 3)
				addr = v2;
			if (f != 2 || f2 != 1)
				continue;
			while (q < b2 + l2) {
				ck_assert_int_eq(pb__read_varint(&q, b2 + l2,
								 &last), 0);
				if (!n++)
					first = last;
			}
		}
		if (f == 4) {
			ck_assert_uint_lt(id, ARRAY_SIZE(loc_addr));
			loc_addr[id] = addr;
		}
		samples += f == 2;
	}
	ck_assert_uint_eq(samples, 1);
	ck_assert_uint_eq(n, MAX_PATH_FRAMES);
	ck_assert_uint_eq(loc_addr[first] - map_start, 0x10000);
	ck_assert_uint_eq(loc_addr[last] - map_start,
			  0x10000 + 0x10 * (u64)(MAX_PATH_FRAMES - 1));
	strbuf__fini(&sb);
	free(deep.chains);
	table__fini(&t);
}
END_TEST

START_TEST(test_encode_count_event)
{
	static const int a[] = { 2, 1, 0 };
	struct pprof_opts o = { .event = "page-faults", .period = 1 };
	struct sort_spec spec;
	struct strbuf sb;
	struct table t;
	struct dec d;

	sample(1, 3, a, 0x40);
	open_table(&t, &spec);
	strbuf__init(&sb);
	ck_assert_int_eq(pprof__encode(&sb, &o, &t, 0), 0);
	decode(&sb, &d);
	ck_assert_str_eq(d.strs[d.types[1][0]], "page-faults");
	ck_assert_str_eq(d.strs[d.types[1][1]], "count");
	ck_assert_uint_eq(d.period, 1);
	ck_assert_uint_eq(d.map_fn[0], 1);	/* every location named */
	ck_assert_uint_eq(d.st_pid[0], 0);
	ck_assert_uint_eq(stack_count(&d, "main;outer;inner_a"), 1);
	dec_fini(&d);
	strbuf__fini(&sb);
	table__fini(&t);
}
END_TEST

/* An output that records what the pass gave it. */
struct rec_out {
	size_t begun, samples, with_path, ended;
	const struct hist_entry *last;
	bool in_order;
	int fail_at_begin;
	bool wrote;
};

static int rec_begin(void *ctx)
{
	struct rec_out *r = ctx;

	r->begun++;
	r->in_order = true;
	return r->fail_at_begin;
}

static int rec_sample(void *ctx, const struct out_sample *os)
{
	struct rec_out *r = ctx;

	if (r->last && os->e <= r->last)
		r->in_order = false;
	r->last = os->e;
	r->samples++;
	if (os->frames) {
		r->with_path++;
		/* the leaf last: the entry's own function */
		ck_assert_ptr_nonnull(os->frames[os->nr_frames - 1].sym.name);
	}
	return 0;
}

static int rec_end(void *ctx, int err, bool write)
{
	struct rec_out *r = ctx;

	r->ended++;
	r->wrote = write;
	return err;
}

static const struct output_ops rec_paths_ops = {
	rec_begin, rec_sample, rec_end, true,
};
static const struct output_ops rec_ops = {
	rec_begin, rec_sample, rec_end, false,
};

/* pprof as an output of the pass: the bytes pprof__encode gives */
struct pp_out {
	struct pprof_opts *o;
	struct table *t;
	struct strbuf *sb;
	struct pprof *p;
};

static int pp_begin(void *ctx)
{
	struct pp_out *x = ctx;

	return pprof__begin(&x->p, x->sb, x->o, x->t);
}

static int pp_sample_out(void *ctx, const struct out_sample *os)
{
	struct pp_out *x = ctx;

	return pprof__sample(x->p, os->snap, os->e);
}

static int pp_end(void *ctx, int err, bool write)
{
	struct pp_out *x = ctx;

	(void)write;
	if (err) {
		pprof__free(x->p);
		return err;
	}
	return pprof__end(x->p);
}

static const struct output_ops pp_ops = { pp_begin, pp_sample_out, pp_end,
					  false };

/* One pass feeds every output every entry of the snapshot in its order;
 * paths for the entries in the rows, none for those the filters leave
 * out; an output that fails at its begin gets nothing more and the ones
 * after it are told not to write. */
START_TEST(test_output_pass)
{
	static const int a[] = { 2, 1, 0 }, b[] = { 3, 1, 0 };
	struct pprof_opts o = { .event = "cpu-clock", .cpu_ns = true,
				.label_pid = true };
	struct rec_out rp = { 0 }, rn = { 0 }, rf = { .fail_at_begin = -EIO },
		       ra = { 0 };
	struct sort_spec spec;
	struct strbuf one, pass;
	struct table t;
	const struct snapshot *snap;
	struct pp_out px;
	struct output outs[3];

	sample(100, 3, a, 0x40);
	sample(100, 3, b, 0x40);
	sample(50, 3, b, 0x80);
	open_table(&t, &spec);
	ck_assert_int_eq(table__build(&t, 0), 0);
	snap = table__snap(&t, 0);
	ck_assert_uint_eq(snap->nr, 3);

	strbuf__init(&one);
	strbuf__init(&pass);
	ck_assert_int_eq(pprof__encode(&one, &o, &t, 0), 0);
	px = (struct pp_out){ .o = &o, .t = &t, .sb = &pass };
	outs[0] = (struct output){ &rec_paths_ops, &rp, 0 };
	outs[1] = (struct output){ &pp_ops, &px, 0 };
	outs[2] = (struct output){ &rec_ops, &rn, 0 };
	ck_assert_int_eq(output__pass(outs, 3, &t, snap, NULL, NULL), 0);
	ck_assert_uint_eq(pass.len, one.len);
	ck_assert(memcmp(pass.buf, one.buf, one.len) == 0);
	ck_assert_uint_eq(rp.samples, 3);
	ck_assert_uint_eq(rp.with_path, 3);
	ck_assert(rp.in_order);
	ck_assert_uint_eq(rn.samples, 3);
	ck_assert(rn.wrote);
	/* alone, an output that asks for no paths: none walked */
	memset(&rn, 0, sizeof(rn));
	ck_assert_int_eq(output__pass(&outs[2], 1, &t, snap, NULL, NULL), 0);
	ck_assert_uint_eq(rn.samples, 3);
	ck_assert_uint_eq(rn.with_path, 0);

	/* another process's zoom: no entry is in the rows */
	t.filter.has_pid = true;
	t.filter.pid = 11;
	ck_assert_int_eq(table__build(&t, 0), 0);
	memset(&rp, 0, sizeof(rp));
	outs[0] = (struct output){ &rec_paths_ops, &rp, 0 };
	outs[1] = (struct output){ &rec_ops, &rf, 0 };
	outs[2] = (struct output){ &rec_ops, &ra, 0 };
	ck_assert_int_eq(output__pass(outs, 3, &t, snap, NULL, NULL), -EIO);
	ck_assert_uint_eq(rp.samples, 3);
	ck_assert_uint_eq(rp.with_path, 0);
	ck_assert(rp.wrote);
	ck_assert_uint_eq(rf.samples, 0);	/* failed at its begin */
	ck_assert_uint_eq(rf.ended, 1);
	ck_assert_uint_eq(ra.samples, 3);
	ck_assert_uint_eq(ra.ended, 1);
	ck_assert(!ra.wrote);			/* after a failure */

	strbuf__fini(&one);
	strbuf__fini(&pass);
	table__fini(&t);
}
END_TEST

/* The idle task's entries (pid 0), which the rows leave out unless
 * shown: the others keep their paths (the rows are a view of the same
 * snapshot), the idle ones come pathless, last; shown, they have paths
 * too. */
START_TEST(test_output_pass_idle)
{
	static const int a[] = { 2, 1, 0 }, b[] = { 3, 1, 0 };
	u64 chain[3] = { (u64)PERF_CONTEXT_USER, 0x401240, 0x401011 };
	struct fake_sample fs = { .pid = 0, .tid = 0, .time = 1, .period = 70,
				  .ip = chain[1], .callchain = chain,
				  .nr_callchain = 3,
				  .misc = PERF_RECORD_MISC_USER };
	struct rec_out rp = { 0 };
	struct sort_spec spec;
	struct table t;
	const struct snapshot *snap;
	struct output out = { &rec_paths_ops, &rp, 0 };

	size_t tr = record__id_trailer_size(ST, true);

	/* the same binary in pid 0, so that its frames have names */
	session__process(s, fake_mmap2(buf, 0, 0x400000, 0x10000, 0, "/bin/cg",
				       (const u8 *)"\x01\x02\xab\xcd", 4, tr));
	sample(100, 3, a, 0x40);
	ck_assert_int_eq(session__process(s, fake_sample(buf, ST, &fs)), 0);
	sample(100, 3, b, 0x40);
	open_table(&t, &spec);
	ck_assert_int_eq(table__build(&t, 0), 0);
	snap = table__snap(&t, 0);
	ck_assert_uint_eq(snap->nr, 3);
	ck_assert_uint_eq(snap->nr_idle, 1);
	ck_assert_ptr_ne(t.rows.snap, snap);	/* the view without idle */
	ck_assert_int_eq(output__pass(&out, 1, &t, snap, NULL, NULL), 0);
	ck_assert_uint_eq(rp.samples, 3);
	ck_assert_uint_eq(rp.with_path, 2);
	ck_assert(rp.in_order);
	ck_assert(rp.last->key.idle);
	/* shown: every entry with its path */
	t.filter.show_idle = true;
	ck_assert_int_eq(table__build(&t, 0), 0);
	memset(&rp, 0, sizeof(rp));
	ck_assert_int_eq(output__pass(&out, 1, &t, snap, NULL, NULL), 0);
	ck_assert_uint_eq(rp.samples, 3);
	ck_assert_uint_eq(rp.with_path, 3);
	table__fini(&t);
}
END_TEST

Suite *pprof_suite(void)
{
	Suite *ss = suite_create("pprof");
	TCase *tc = tcase_create("pprof");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_encode);
	tcase_add_test(tc, test_encode_count_event);
	tcase_add_test(tc, test_output_pass);
	tcase_add_test(tc, test_output_pass_idle);
	tcase_add_test(tc, test_deep_chain);
	suite_add_tcase(ss, tc);
	return ss;
}
