/* Tests of the call-graph views: neighbours (callers and callees with
 * their shares), inlined frames in trees, row identity, tree lines in the
 * table, the caller/callee view and its keys, from fake samples. */
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "record.h"
#include "rowset.h"
#include "session.h"
#include "testutil.h"

static u64 buf[8192];
static struct session *s;

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

/* cgwork's graph: functions of /bin/cgw, 0x100 bytes each from 0x1000,
 * mapped at 0x400000 (an ip 0x401xyz is offset 0x1xyz); lib_work is in
 * /lib/libwlcg.so at 0x7f0000000000 (offset 0x1000). */
enum { F_MAIN, F_OUTER, F_INNER_A, F_INNER_B, F_CALLER_X, F_CALLER_Y,
       F_LIB_WORK };
static const char *const fn_names[] = {
	"main", "outer", "inner_a", "inner_b", "caller_x", "caller_y",
	"lib_work",
};

static u64 ip_of(int fn, u64 off)
{
	if (fn == F_LIB_WORK)
		return 0x7f0000001000ULL + off;
	return 0x401000 + (u64)fn * 0x100 + off;
}

static int resolve(void *ctx, const struct dso *d, u64 addr,
		   struct row_sym *out)
{
	(void)ctx;
	memset(out, 0, sizeof(*out));
	out->dso_name = strrchr(d->name, '/') ? strrchr(d->name, '/') + 1
					      : d->name;
	if (strstr(d->name, "libwlcg") && addr >= 0x1000 && addr < 0x1100) {
		out->name = fn_names[F_LIB_WORK];
		out->start = 0x1000;
		out->size = 0x100;
	} else if (!strstr(d->name, "libwlcg") && addr >= 0x1000 &&
		   addr < 0x1600) {
		out->name = fn_names[(addr - 0x1000) / 0x100];
		out->start = addr & ~0xffULL;
		out->size = 0x100;
	}
	return 0;
}

static void setup(void)
{
	struct session_opts o = { .key_fields = 0, .max_stack = 64 };
	struct perf_event_attr a;
	size_t t = record__id_trailer_size(ST, true);

	memset(&a, 0, sizeof(a));
	a.sample_type = ST;
	a.sample_id_all = 1;
	s = session__new(&o);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	session__process(s, fake_comm(buf, 10, 10, "cgw", false, t));
	session__process(s, fake_mmap2(buf, 10, 0x400000, 0x10000, 0,
				       "/bin/cgw",
				       (const u8 *)"cgwbuildid-cgwbuildi", 20,
				       t));
	session__process(s, fake_mmap2(buf, 10, 0x7f0000000000ULL, 0x10000,
				       0, "/lib/libwlcg.so",
				       (const u8 *)"libbuildid-libbuildi", 20,
				       t));
}

static void teardown(void)
{
	session__free(s);
}

/* A sample whose chain is given innermost first, as the kernel writes
 * it; the first is the sampled ip. */
static void sample(u64 period, int n, const int *fns)
{
	u64 chain[16];
	struct fake_sample fs = { .pid = 10, .tid = 10, .time = 1,
				  .period = period,
				  .misc = PERF_RECORD_MISC_USER };

	chain[0] = (u64)PERF_CONTEXT_USER;
	for (int i = 0; i < n; i++)	/* return addresses after the first */
		chain[i + 1] = ip_of(fns[i], i ? 0x11 : 0x40);
	fs.ip = chain[1];
	fs.callchain = chain;
	fs.nr_callchain = (u64)n + 1;
	ck_assert_int_eq(session__process(s, fake_sample(buf, ST, &fs)), 0);
}

/* cgwork in miniature: outer 300 (inner_a 200, inner_b 100), lib_work
 * 300 (from caller_x 200, from caller_y 100), caller_x 10 of its own. */
static void feed_cgwork(void)
{
	static const int a[] = { F_INNER_A, F_OUTER, F_MAIN },
			 b[] = { F_INNER_B, F_OUTER, F_MAIN },
			 x[] = { F_LIB_WORK, F_CALLER_X, F_MAIN },
			 y[] = { F_LIB_WORK, F_CALLER_Y, F_MAIN },
			 xs[] = { F_CALLER_X, F_MAIN };

	sample(200, 3, a);
	sample(100, 3, b);
	sample(150, 3, x);
	sample(50, 3, x);
	sample(100, 3, y);
	sample(10, 2, xs);
}

static const struct row *find(const struct rowset *rs, const char *name)
{
	for (size_t i = 0; i < rs->nr; i++)
		if (rs->rows[i].sym && strcmp(rs->rows[i].sym, name) == 0)
			return &rs->rows[i];
	return NULL;
}

static void build(struct rowset *rs, struct snapshot *snap, bool children)
{
	struct sort_spec spec;

	sort_spec__default(&spec);
	spec.children = children;
	snapshot__init(snap);
	ck_assert_int_eq(session__snapshot(s, 0, snap), 0);
	rowset__init(rs);
	ck_assert_int_eq(rowset__build(rs, snap, &spec, NULL, resolve, NULL),
			 0);
}

static const struct row *nb_find(const struct row *arr, size_t nr,
				 const char *name)
{
	for (size_t i = 0; i < nr; i++)
		if (arr[i].sym && strcmp(arr[i].sym, name) == 0)
			return &arr[i];
	return NULL;
}

START_TEST(test_neighbours)
{
	struct cg_neighbours nb;
	struct rowset rs;
	struct snapshot snap;
	const struct row *r;

	feed_cgwork();
	build(&rs, &snap, true);
	cg_neighbours__init(&nb);

	/* lib_work: called by caller_x (2/3) and caller_y (1/3) */
	ck_assert_int_eq(rowset__neighbours(&rs, find(&rs, "lib_work"), &nb),
			 0);
	ck_assert_uint_eq(nb.total_period, 300);
	ck_assert_uint_eq(nb.self_period, 300);
	ck_assert_uint_eq(nb.nr_callers, 2);
	ck_assert_str_eq(nb.callers[0].sym, "caller_x");	/* largest first */
	ck_assert_uint_eq(nb.callers[0].period, 200);
	ck_assert_uint_eq(nb.callers[0].samples, 2);
	ck_assert_str_eq(nb.callers[0].dso_name, "cgw");
	ck_assert_str_eq(nb.callers[1].sym, "caller_y");
	ck_assert_uint_eq(nb.callers[1].period, 100);
	ck_assert_uint_eq(nb.nr_callees, 0);

	/* outer: called by main, calls inner_a (2/3) and inner_b (1/3) */
	ck_assert_int_eq(rowset__neighbours(&rs, find(&rs, "outer"), &nb), 0);
	ck_assert_uint_eq(nb.total_period, 300);
	ck_assert_uint_eq(nb.self_period, 0);
	ck_assert_uint_eq(nb.nr_callers, 1);
	ck_assert_str_eq(nb.callers[0].sym, "main");
	ck_assert_uint_eq(nb.callers[0].period, 300);
	ck_assert_uint_eq(nb.nr_callees, 2);
	ck_assert_str_eq(nb.callees[0].sym, "inner_a");
	ck_assert_uint_eq(nb.callees[0].period, 200);
	ck_assert_str_eq(nb.callees[1].sym, "inner_b");
	ck_assert_uint_eq(nb.callees[1].period, 100);

	/* caller_x: its own samples and lib_work's; a neighbour row is
	 * usable as the next function (Enter in the view) */
	ck_assert_int_eq(rowset__neighbours(&rs, find(&rs, "caller_x"), &nb),
			 0);
	ck_assert_uint_eq(nb.total_period, 210);
	ck_assert_uint_eq(nb.self_period, 10);
	r = nb_find(nb.callees, nb.nr_callees, "lib_work");
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->period, 200);
	ck_assert_str_eq(r->dso_name, "libwlcg.so");
	ck_assert_int_ge(rowset__find(&rs, r), 0);
	ck_assert(rowset__same_row(&rs, r, find(&rs, "lib_work")));
	ck_assert(!rowset__same_row(&rs, r, find(&rs, "caller_x")));

	/* main, the root: no caller; its callees add up to its total */
	ck_assert_int_eq(rowset__neighbours(&rs, find(&rs, "main"), &nb), 0);
	ck_assert_uint_eq(nb.nr_callers, 0);
	ck_assert_uint_eq(nb.total_period, 610);
	ck_assert_uint_eq(nb.nr_callees, 3);
	ck_assert_str_eq(nb.callees[0].sym, "outer");
	r = nb_find(nb.callees, nb.nr_callees, "caller_x");
	ck_assert_uint_eq(r->period, 210);

	cg_neighbours__fini(&nb);
	cg_neighbours__fini(&nb);	/* twice: harmless */
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

START_TEST(test_neighbours_recursion_and_no_chain)
{
	static const int r[] = { F_INNER_A, F_INNER_A, F_OUTER, F_MAIN };
	struct fake_sample fs = { .pid = 10, .tid = 10, .time = 1, .period = 7,
				  .misc = PERF_RECORD_MISC_USER,
				  .ip = 0x401240 };
	struct cg_neighbours nb;
	struct rowset rs;
	struct snapshot snap;

	sample(10, 4, r);
	/* a sample without a chain counts as self only */
	ck_assert_int_eq(session__process(s, fake_sample(buf, ST, &fs)), 0);
	build(&rs, &snap, true);
	cg_neighbours__init(&nb);
	ck_assert_int_eq(rowset__neighbours(&rs, find(&rs, "inner_a"), &nb),
			 0);
	/* once per sample, whatever the depth of the recursion */
	ck_assert_uint_eq(nb.total_period, 17);
	ck_assert_uint_eq(nb.self_period, 17);
	ck_assert_uint_eq(nb.nr_callers, 2);
	ck_assert_uint_eq(nb_find(nb.callers, nb.nr_callers, "outer")->period,
			  10);
	ck_assert_uint_eq(nb_find(nb.callers, nb.nr_callers,
				  "inner_a")->period, 10);
	ck_assert_uint_eq(nb.nr_callees, 1);
	ck_assert_str_eq(nb.callees[0].sym, "inner_a");
	cg_neighbours__fini(&nb);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

/* Inlined code: outer's calls are in an inlined "helper", and inner_a's
 * sampled ip is in "leaf_inl" inlined into "mid_inl" inlined into it. */
static size_t fake_inlines(void *ctx, const struct dso *d, u64 addr,
			   const char **names, size_t max)
{
	static const char *const helper = "helper", *const leaf = "leaf_inl",
			  *const mid = "mid_inl";
	int *calls = ctx;

	(void)d;
	(*calls)++;
	if (addr >= 0x1100 && addr < 0x1200 && max >= 1) {
		names[0] = helper;
		return 1;
	}
	if (addr == 0x1240 && max >= 2) {
		names[0] = leaf;	/* innermost first */
		names[1] = mid;
		return 2;
	}
	return 0;
}

static const struct cg_node *child(const struct cg_tree *t,
				   const struct cg_node *n, const char *name)
{
	for (u32 c = n->first_child; c; c = t->nodes[c].next_sibling)
		if (t->nodes[c].sym && strcmp(t->nodes[c].sym, name) == 0)
			return &t->nodes[c];
	return NULL;
}

START_TEST(test_tree_inline)
{
	struct rowset rs;
	struct snapshot snap;
	struct cg_tree t;
	const struct cg_node *n;
	int calls = 0;

	feed_cgwork();
	build(&rs, &snap, true);
	cg_tree__init(&t);

	/* caller order: outer -> helper (inlined) -> inner_a -> mid -> leaf */
	ck_assert_int_eq(rowset__tree_inline(&rs, find(&rs, "outer"),
					     CG_CALLER, fake_inlines, &calls,
					     &t), 0);
	ck_assert_int_gt(calls, 0);
	n = child(&t, &t.nodes[0], "outer");
	ck_assert_ptr_nonnull(n);
	ck_assert(!n->inlined);
	n = child(&t, n, "helper");
	ck_assert_ptr_nonnull(n);
	ck_assert(n->inlined);
	ck_assert_uint_eq(n->period, 300);
	ck_assert_uint_eq(child(&t, n, "inner_b")->period, 100);
	n = child(&t, n, "inner_a");
	ck_assert_ptr_nonnull(n);
	ck_assert(!n->inlined);
	ck_assert_uint_eq(n->period, 200);
	n = child(&t, n, "mid_inl");
	ck_assert_ptr_nonnull(n);
	ck_assert(n->inlined);
	n = child(&t, n, "leaf_inl");
	ck_assert_ptr_nonnull(n);
	ck_assert(n->inlined);
	ck_assert_uint_eq(n->first_child, 0);

	/* callee order: inner_a's path from the leaf up */
	ck_assert_int_eq(rowset__tree_inline(&rs, find(&rs, "inner_a"),
					     CG_CALLEE, fake_inlines, &calls,
					     &t), 0);
	n = child(&t, &t.nodes[0], "leaf_inl");
	ck_assert_ptr_nonnull(n);
	n = child(&t, n, "mid_inl");
	n = child(&t, n, "inner_a");
	ck_assert_ptr_nonnull(n);
	n = child(&t, n, "helper");
	ck_assert_ptr_nonnull(n);
	ck_assert(n->inlined);
	n = child(&t, n, "outer");
	ck_assert_ptr_nonnull(n);
	ck_assert_ptr_nonnull(child(&t, n, "main"));

	/* without the callback: the plain tree */
	ck_assert_int_eq(rowset__tree(&rs, find(&rs, "outer"), CG_CALLER, &t),
			 0);
	n = child(&t, &t.nodes[0], "outer");
	ck_assert_ptr_null(child(&t, n, "helper"));
	ck_assert_uint_eq(child(&t, n, "inner_a")->period, 200);
	cg_tree__fini(&t);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST


static void collect(void *ctx, const char *line, size_t len, u32 node)
{
	struct strbuf *sb = ctx;

	strbuf__add(sb, line, len);
	strbuf__adds(sb, node ? "\n" : "$\n");	/* marks "|" lines */
}

/* perf's graph style, as batch prints it and the live view draws it */
START_TEST(test_tree_text)
{
	struct rowset rs;
	struct snapshot snap;
	struct cg_tree t;
	struct strbuf sb;

	feed_cgwork();
	build(&rs, &snap, true);
	cg_tree__init(&t);
	strbuf__init(&sb);
	ck_assert_int_eq(rowset__tree(&rs, find(&rs, "main"), CG_CALLER, &t),
			 0);
	fmt__tree(&t, "  ", 0.5, collect, &sb);
	ck_assert_str_eq(sb.buf,
			 "  ---main\n"
			 "     |$\n"
			 "     |--49.18%--outer\n"
			 "     |          |$\n"
			 "     |          |--32.79%--inner_a\n"
			 "     |          |$\n"
			 "     |           --16.39%--inner_b\n"
			 "     |$\n"
			 "     |--34.43%--caller_x\n"
			 "     |          lib_work\n"
			 "     |$\n"
			 "      --16.39%--caller_y\n"
			 "                lib_work\n");
	/* the limit leaves small branches out */
	strbuf__reset(&sb);
	fmt__tree(&t, "", 20, collect, &sb);
	ck_assert_ptr_null(strstr(sb.buf, "inner_b"));
	ck_assert_ptr_null(strstr(sb.buf, "caller_y"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "--34.43%--caller_x"));
	/* an inlined frame says so; hostile names are sanitized */
	t.nodes[t.nodes[0].first_child].inlined = true;
	t.nodes[t.nodes[0].first_child].sym = "m\x1b[2Jain";
	strbuf__reset(&sb);
	fmt__tree(&t, "", 0.5, collect, &sb);
	ck_assert_ptr_nonnull(strstr(sb.buf, "---m?[2Jain (inlined)\n"));
	strbuf__fini(&sb);
	cg_tree__fini(&t);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

Suite *cgview_suite(void)
{
	Suite *ss = suite_create("cgview");
	TCase *tc = tcase_create("rowset");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_neighbours);
	tcase_add_test(tc, test_neighbours_recursion_and_no_chain);
	tcase_add_test(tc, test_tree_inline);
	tcase_add_test(tc, test_tree_text);
	suite_add_tcase(ss, tc);
	return ss;
}
