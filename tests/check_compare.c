/* Tests of compare: rows of two rowsets matched by object base name and
 * symbol name, the baseline shares and deltas, vanished rows, the delta
 * orders and limits of rowset__build with a baseline (fake snapshots, no
 * session). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/compare.h"
#include "ui/report/fmt.h"
#include "ui/report/rowset.h"
#include "tests/testutil.h"

#define NEAR(a, b) ck_assert_msg(fabs((a) - (b)) < 1e-9, "%f != %f", \
				 (double)(a), (double)(b))

/* A rowset written by hand: rows (dso, sym, period) over total. */
struct hand_row {
	const char *dso, *sym;
	u64 period, children;
	u64 addr;
	bool inlined;
	const char *comm;
	s32 pid;
};

static void hand_rowset(struct rowset *rs, const struct sort_spec *spec,
			const struct hand_row *h, size_t n, u64 total)
{
	rowset__init(rs);
	rs->rows = calloc(n ? n : 1, sizeof(*rs->rows));
	ck_assert_ptr_nonnull(rs->rows);
	rs->cap = n ? n : 1;
	rs->nr = n;
	rs->spec = *spec;
	rs->total_period = total;
	rs->total_samples = total;
	for (size_t i = 0; i < n; i++) {
		struct row *r = &rs->rows[i];

		r->dso_name = h[i].dso;
		r->sym = h[i].sym;
		r->addr = r->sym_start = h[i].addr;
		r->period = r->samples = h[i].period;
		r->children_period = r->children_samples = h[i].children;
		r->inlined = h[i].inlined;
		r->comm = h[i].comm;
		r->pid = h[i].pid;
	}
}

static const struct row *find(const struct rowset *rs, const char *sym)
{
	for (size_t i = 0; i < rs->nr; i++)
		if (rs->rows[i].sym && strcmp(rs->rows[i].sym, sym) == 0)
			return &rs->rows[i];
	return NULL;
}

/* Rebuilt binaries live elsewhere: f matches by base name and name; h
 * is new; k vanished and comes back as a row with no samples. */
START_TEST(test_match_by_name)
{
	static const struct hand_row base[] = {
		{ "/old/build/libx.so", "f", 60 },
		{ "libx.so", "g", 30 },
		{ "[kernel.kallsyms]", "k", 10 },
	};
	static const struct hand_row cur[] = {
		{ "/new/libx.so", "f", 20 },
		{ "/new/libx.so", "g", 60 },
		{ "/new/libx.so", "h", 120 },
	};
	struct sort_spec spec;
	struct rowset b, rs;
	struct compare *c = compare__new();
	const struct row *r;
	char f[] = "f";

	ck_assert_ptr_nonnull(c);
	sort_spec__default(&spec);
	hand_rowset(&b, &spec, base, 3, 100);
	hand_rowset(&rs, &spec, cur, 3, 200);
	ck_assert_int_eq(compare__set_base(c, &b), 0);
	/* the baseline keeps copies: its rows may go */
	rowset__fini(&b);
	ck_assert_uint_eq(compare__base_rows(c), 3);
	ck_assert_uint_eq(compare__base_period(c), 100);
	/* a name that is another pointer with the same text matches */
	rs.rows[0].sym = f;
	ck_assert_int_eq(compare__rows(c, &rs), 0);
	ck_assert_uint_eq(rs.nr, 4);

	r = find(&rs, "f");
	ck_assert_int_eq(r->cmp, CMP_BOTH);
	NEAR(r->base_pct, 60.0);
	NEAR(r->delta, 10.0 - 60.0);
	r = find(&rs, "g");
	ck_assert_int_eq(r->cmp, CMP_BOTH);
	NEAR(r->base_pct, 30.0);
	NEAR(r->delta, 0.0);
	r = find(&rs, "h");
	ck_assert_int_eq(r->cmp, CMP_NEW);
	NEAR(r->base_pct, 0.0);
	NEAR(r->delta, 60.0);
	r = find(&rs, "k");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->cmp, CMP_GONE);
	ck_assert_ptr_null(r->dso);
	ck_assert_str_eq(r->dso_name, "[kernel.kallsyms]");
	ck_assert_uint_eq(r->samples, 0);
	ck_assert_uint_eq(r->period, 0);
	NEAR(r->base_pct, 10.0);
	NEAR(r->delta, -10.0);

	/* a second build: matched afresh, k added once more, not twice */
	rs.nr = 3;
	ck_assert_int_eq(compare__rows(c, &rs), 0);
	ck_assert_uint_eq(rs.nr, 4);

	/* cleared: every row is new, nothing vanished */
	compare__clear(c);
	rs.nr = 3;
	ck_assert_int_eq(compare__rows(c, &rs), 0);
	ck_assert_uint_eq(rs.nr, 3);
	for (size_t i = 0; i < rs.nr; i++)
		ck_assert_int_eq(rs.rows[i].cmp, CMP_NEW);
	rowset__fini(&rs);
	compare__free(c);
}
END_TEST

/* Unresolved rows match by address, inlined rows only inlined rows; two
 * baseline objects of one base name are one row. */
START_TEST(test_match_details)
{
	static const struct hand_row base[] = {
		{ "a.so", NULL, 10, 0, 0x1234 },
		{ "a.so", NULL, 10, 0, 0x5678 },
		{ "a.so", "f", 0, 40, 0, true },
		{ "/x/b.so", "g", 20 },
		{ "/y/b.so", "g", 20 },
	};
	static const struct hand_row cur[] = {
		{ "a.so", NULL, 50, 0, 0x1234 },
		{ "a.so", "f", 50 },
		{ "b.so", "g", 0 },
	};
	struct sort_spec spec;
	struct rowset b, rs;
	struct compare *c = compare__new();

	sort_spec__default(&spec);
	spec.children = true;
	hand_rowset(&b, &spec, base, 5, 100);
	hand_rowset(&rs, &spec, cur, 3, 100);
	ck_assert_int_eq(compare__set_base(c, &b), 0);
	ck_assert_uint_eq(compare__base_rows(c), 4);
	ck_assert_int_eq(compare__rows(c, &rs), 0);
	/* 0x1234 matched, 0x5678 gone; f (not inlined) is new, the
	 * inlined f gone; g's two objects are one row of 40 */
	ck_assert_int_eq(rs.rows[0].cmp, CMP_BOTH);
	NEAR(rs.rows[0].base_pct, 10.0);
	ck_assert_int_eq(rs.rows[1].cmp, CMP_NEW);
	ck_assert_int_eq(rs.rows[2].cmp, CMP_BOTH);
	NEAR(rs.rows[2].base_pct, 40.0);
	NEAR(rs.rows[2].delta, -40.0);
	ck_assert_uint_eq(rs.nr, 5);
	ck_assert_int_eq(rs.rows[3].cmp, CMP_GONE);
	ck_assert_uint_eq(rs.rows[3].addr, 0x5678);
	ck_assert_int_eq(rs.rows[4].cmp, CMP_GONE);
	ck_assert(rs.rows[4].inlined);
	/* children shares: the inlined f had 40 % with children */
	NEAR(rs.rows[4].base_children_pct, 40.0);
	NEAR(rs.rows[4].children_delta, -40.0);
	NEAR(compare__delta(&rs.rows[4], true), -40.0);
	NEAR(compare__delta(&rs.rows[4], false), 0.0);
	rowset__fini(&b);
	rowset__fini(&rs);
	compare__free(c);
}
END_TEST

/* An unresolved row's address is the same code only in the same binary:
 * matched when both sides have its build-id, not across a rebuild. */
START_TEST(test_match_build_id)
{
	static const struct hand_row base[] = {
		{ "a.so", NULL, 30, 0, 0x1234 },
		{ "c.so", NULL, 30, 0, 0x40 },
	};
	static const struct hand_row cur[] = {
		{ "a.so", NULL, 50, 0, 0x1234 },
		{ "c.so", NULL, 50, 0, 0x40 },
	};
	struct dso old_a = { .build_id = { 1, 2, 3 }, .build_id_size = 3 };
	struct dso new_a = { .build_id = { 1, 2, 4 }, .build_id_size = 3 };
	struct dso old_c = { .build_id = { 9, 9 }, .build_id_size = 2 };
	struct dso new_c = { .build_id = { 9, 9 }, .build_id_size = 2 };
	struct sort_spec spec;
	struct rowset b, rs;
	struct compare *c = compare__new();

	sort_spec__default(&spec);
	hand_rowset(&b, &spec, base, 2, 100);
	hand_rowset(&rs, &spec, cur, 2, 100);
	b.rows[0].dso = &old_a;
	b.rows[1].dso = &old_c;
	rs.rows[0].dso = &new_a;	/* rebuilt */
	rs.rows[1].dso = &new_c;	/* the same binary */
	ck_assert_int_eq(compare__set_base(c, &b), 0);
	ck_assert_int_eq(compare__rows(c, &rs), 0);
	ck_assert_int_eq(rs.rows[0].cmp, CMP_NEW);
	ck_assert_int_eq(rs.rows[1].cmp, CMP_BOTH);
	NEAR(rs.rows[1].base_pct, 30.0);
	ck_assert_uint_eq(rs.nr, 3);	/* and the old a.so+0x1234, gone */
	ck_assert_int_eq(rs.rows[2].cmp, CMP_GONE);
	rowset__fini(&b);
	rowset__fini(&rs);
	compare__free(c);
}
END_TEST

/* Grouped by pid and comm too: the same function in another process is
 * another row. */
START_TEST(test_match_pid)
{
	static const struct hand_row base[] = {
		{ "a", "f", 50, 0, 0, false, "x", 1 },
		{ "a", "f", 50, 0, 0, false, "x", 2 },
	};
	static const struct hand_row cur[] = {
		{ "a", "f", 100, 0, 0, false, "x", 2 },
	};
	struct sort_spec spec;
	struct rowset b, rs;
	struct compare *c = compare__new();
	struct strbuf err;

	strbuf__init(&err);
	ck_assert_int_eq(sort_spec__parse("pid,dso,sym", &spec, &err), 0);
	strbuf__fini(&err);
	hand_rowset(&b, &spec, base, 2, 100);
	hand_rowset(&rs, &spec, cur, 1, 100);
	ck_assert_int_eq(compare__set_base(c, &b), 0);
	ck_assert_int_eq(compare__rows(c, &rs), 0);
	ck_assert_uint_eq(rs.nr, 2);
	ck_assert_int_eq(rs.rows[0].cmp, CMP_BOTH);
	NEAR(rs.rows[0].delta, 50.0);
	ck_assert_int_eq(rs.rows[1].cmp, CMP_GONE);
	ck_assert_int_eq(rs.rows[1].pid, 1);
	ck_assert_str_eq(rs.rows[1].comm, "x");
	rowset__fini(&b);
	rowset__fini(&rs);
	compare__free(c);
}
END_TEST

/* Through rowset__build: fake snapshots of one object, each function
 * 0x100 bytes from 0x1000. */
static struct dso dso_a = { .kind = DSO_FILE, .name = "a", .path = "/a" };
static const char *names[] = { "f0", "f1", "f2", "f3" };

static int resolve(void *ctx, const struct dso *d, u64 addr,
		   struct row_sym *out)
{
	(void)ctx;
	memset(out, 0, sizeof(*out));
	out->dso_name = d->name;
	out->name = names[(addr - 0x1000) / 0x100 % 4];
	out->start = addr & ~0xffULL;
	out->size = 0x100;
	return 0;
}

static void fake_snap(struct snapshot *s, const u64 *period, size_t n)
{
	snapshot__init(s);
	s->entries = calloc(n, sizeof(*s->entries));
	ck_assert_ptr_nonnull(s->entries);
	s->cap = n;
	for (size_t i = 0; i < n; i++) {
		if (!period[i])
			continue;
		s->entries[s->nr++] = (struct hist_entry){
			.key = { .dso = &dso_a, .addr = 0x1010 + i * 0x100 },
			.samples = period[i], .period = period[i],
		};
		s->total_samples += period[i];
		s->total_period += period[i];
	}
}

static void build(struct rowset *rs, const struct snapshot *s,
		  const char *sort, const struct row_filter *f)
{
	struct sort_spec spec;
	struct strbuf err;

	strbuf__init(&err);
	ck_assert_int_eq(sort_spec__parse(sort, &spec, &err), 0);
	strbuf__fini(&err);
	ck_assert_int_eq(rowset__build(rs, s, &spec, f, resolve, NULL), 0);
}

static const char *order(const struct rowset *rs, char *buf)
{
	buf[0] = '\0';
	for (size_t i = 0; i < rs->nr; i++)
		strcat(buf, rs->rows[i].sym + 1);
	return buf;
}

START_TEST(test_build_orders)
{
	/* f0..f3: 60/30/10/0 then 10/30/0/60 */
	static const u64 before[] = { 60, 30, 10, 0 };
	static const u64 after[] = { 10, 30, 0, 60 };
	struct snapshot sb, sa;
	struct rowset b, rs;
	struct compare *c = compare__new();
	struct row_filter f = { .show_idle = true };
	char buf[16];

	fake_snap(&sb, before, 4);
	fake_snap(&sa, after, 4);
	rowset__init(&b);
	rowset__init(&rs);
	build(&b, &sb, "dso,sym", NULL);
	ck_assert_int_eq(compare__set_base(c, &b), 0);

	/* no hook: no baseline, no vanished row */
	build(&rs, &sa, "dso,sym", &f);
	ck_assert_str_eq(order(&rs, buf), "310");
	ck_assert_int_eq(rs.rows[0].cmp, CMP_NONE);

	rowset__set_compare(&rs, compare__rows, c);
	build(&rs, &sa, "dso,sym", &f);
	/* overhead: f2 vanished (0 %) last */
	ck_assert_str_eq(order(&rs, buf), "3102");
	ck_assert_int_eq(rs.rows[3].cmp, CMP_GONE);
	ck_assert_int_eq(rs.rows[0].cmp, CMP_NEW);
	/* delta: +60, 0, -10 (gone), -50 */
	build(&rs, &sa, "dso,sym,delta", &f);
	ck_assert_str_eq(order(&rs, buf), "3120");
	NEAR(rs.rows[2].delta, -10.0);
	/* |delta|: 60, 50, 10, 0 */
	build(&rs, &sa, "dso,sym,absdelta", &f);
	ck_assert_str_eq(order(&rs, buf), "3021");
	/* limits after the order; a row either side shows is kept */
	f.max_rows = 2;
	build(&rs, &sa, "dso,sym,absdelta", &f);
	ck_assert_str_eq(order(&rs, buf), "30");
	ck_assert_uint_eq(rs.hidden_rows, 2);
	f.max_rows = 0;
	f.percent_limit = 20;
	build(&rs, &sa, "dso,sym", &f);
	/* f0: 10 % now but 60 % before; f2: 0 and 10: hidden */
	ck_assert_str_eq(order(&rs, buf), "310");
	ck_assert_uint_eq(rs.hidden_rows, 1);

	rowset__fini(&b);
	rowset__fini(&rs);
	snapshot__fini(&sb);
	snapshot__fini(&sa);
	compare__free(c);
}
END_TEST

START_TEST(test_sort_keys)
{
	enum sort_key k;

	ck_assert_int_eq(sort_key__parse("delta", &k), 0);
	ck_assert_int_eq(k, SORT_DELTA);
	ck_assert(!sort_key__groups(k));
	ck_assert_int_eq(sort_key__parse("absdelta", &k), 0);
	ck_assert_int_eq(k, SORT_ABSDELTA);
	ck_assert(!sort_key__groups(k));
	ck_assert_str_eq(sort_key__name(SORT_ABSDELTA), "absdelta");
}
END_TEST

/* The columns: Baseline, Overhead, Delta; with children the same three
 * for Children first; the cells of a new and a gone row. */
START_TEST(test_columns)
{
	struct sort_spec spec;
	struct columns c;
	struct rowset rs;
	struct strbuf sb;
	static const struct hand_row h[] = { { "a", "f", 25 }, { "a", "g", 75 } };
	static const enum column want[] = {
		COL_BASE_CHILDREN, COL_CHILDREN, COL_DELTA_CHILDREN,
		COL_BASELINE, COL_OVERHEAD, COL_DELTA, COL_SAMPLES, COL_DSO,
		COL_SYM,
	};

	sort_spec__default(&spec);
	spec.compare = true;
	columns__init(&c, &spec, false);
	ck_assert_uint_eq(c.nr, 6);
	ck_assert_int_eq(c.col[0], COL_BASELINE);
	ck_assert_int_eq(c.col[2], COL_DELTA);
	spec.children = true;
	columns__init(&c, &spec, false);
	ck_assert_uint_eq(c.nr, ARRAY_SIZE(want));
	for (size_t i = 0; i < c.nr; i++)
		ck_assert_int_eq(c.col[i], want[i]);

	spec.children = false;
	columns__init(&c, &spec, false);
	hand_rowset(&rs, &spec, h, 2, 100);
	rs.rows[0].cmp = CMP_NEW;
	rs.rows[0].delta = 25;
	rs.rows[1].cmp = CMP_GONE;
	rs.rows[1].period = rs.rows[1].samples = 0;
	rs.rows[1].base_pct = 10;
	rs.rows[1].delta = -10;
	columns__fit(&c, &rs, 0, rs.nr, 0);
	strbuf__init(&sb);
	fmt__header(&sb, &c);
	ck_assert_str_eq(sb.buf, "Baseline  Overhead         Delta  Samples  "
				 "Shared Object  Symbol");
	strbuf__reset(&sb);
	fmt__row(&sb, &c, &rs, &rs.rows[0], NULL);
	ck_assert_str_eq(sb.buf, "       -    25.00%  +25.00%  new       25  "
				 "a              [.] f");
	strbuf__reset(&sb);
	fmt__row(&sb, &c, &rs, &rs.rows[1], NULL);
	ck_assert_str_eq(sb.buf, "  10.00%     0.00%  -10.00% gone        0  "
				 "a              [.] g");
	strbuf__fini(&sb);
	rowset__fini(&rs);
}
END_TEST

Suite *compare_suite(void)
{
	Suite *su = suite_create("compare");
	TCase *tc = tcase_create("compare");

	tcase_add_test(tc, test_match_by_name);
	tcase_add_test(tc, test_match_details);
	tcase_add_test(tc, test_match_build_id);
	tcase_add_test(tc, test_match_pid);
	tcase_add_test(tc, test_build_orders);
	tcase_add_test(tc, test_sort_keys);
	tcase_add_test(tc, test_columns);
	suite_add_tcase(su, tc);
	return su;
}
