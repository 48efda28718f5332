/* Tests of the call-graph views: neighbours (callers and callees with
 * their shares), inlined frames in trees, row identity, tree lines in the
 * table, the caller/callee view and its keys, from fake samples. */
#include <stdlib.h>
#include <string.h>

#include "tests/fixtures/symtest.h"
#include "ui/report/flame.h"
#include "ui/report/flamesvg.h"
#include "ui/report/fmt.h"
#include "ui/report/inlines.h"
#include "src/core/record.h"
#include "ui/report/rowset.h"
#include "ui/report/sanitize.h"
#include "src/core/session.h"
#include "tests/testutil.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/view_top.h"
#include "ui/tui/view_menu.h"
#include "ui/tui/actions.h"
#include "ui/tui/view_callers.h"
#include "ui/tui/view_flame.h"
#include "ui/tui/view_tree.h"

static u64 buf[8192];
static struct session *s;

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

/* cgwork's graph: functions of /bin/cgw, 0x100 bytes each from 0x1000,
 * mapped at 0x400000 (an ip 0x401xyz is offset 0x1xyz); lib_work is in
 * /lib/libwlcg.so at 0x7f0000000000 (offset 0x1000). */
enum { F_MAIN, F_OUTER, F_INNER_A, F_INNER_B, F_CALLER_X, F_CALLER_Y,
       F_LIB_WORK, F_EVIL };
/* F_EVIL: an ESC sequence, OSC 52, C1 CSI, a bidi override, 64 KiB */
static char evil[70000];
static const char *fn_names[] = {
	"main", "outer", "inner_a", "inner_b", "caller_x", "caller_y",
	"lib_work", evil,
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
		   addr < 0x1800 && (addr - 0x1000) / 0x100 != F_LIB_WORK) {
		out->name = fn_names[(addr - 0x1000) / 0x100];
		out->start = addr & ~0xffULL;
		out->size = 0x100;
	}
	return 0;
}

static void setup(void)
{
	static const char head[] = "ev\x1b[2Jil\xc2\x9b" "31m\xe2\x80\xae"
				   "\x1b]52;c;QUJD\x07";

	memset(evil, 'x', sizeof(evil) - 1);
	memcpy(evil, head, sizeof(head) - 1);
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

/* A sample of n frames (innermost first) at offsets off (return
 * addresses after the first: calls from different places of a function
 * make different chains through the same tree node). */
static void sample_at(u64 period, int n, const int *fns, const int *off)
{
	u64 chain[24];
	struct fake_sample fs = { .pid = 10, .tid = 10, .time = 1,
				  .period = period,
				  .misc = PERF_RECORD_MISC_USER };

	chain[0] = (u64)PERF_CONTEXT_USER;
	for (int i = 0; i < n; i++)
		chain[i + 1] = ip_of(fns[i], (u64)off[i]);
	fs.ip = chain[1];
	fs.callchain = chain;
	fs.nr_callchain = (u64)n + 1;
	ck_assert_int_eq(session__process(s, fake_sample(buf, ST, &fs)), 0);
}

/* A sample whose chain is given innermost first, as the kernel writes
 * it; the first is the sampled ip (+0x40), the callers' return
 * addresses +0x11. */
static void sample(u64 period, int n, const int *fns)
{
	int off[16];

	ck_assert_int_le(n, 16);
	for (int i = 0; i < n; i++)
		off[i] = i ? 0x11 : 0x40;
	sample_at(period, n, fns, off);
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

/* resolve, with inner_a and inner_b overloads of one short name, as C++
 * overloads are shown ("ns::work" for work(int) and work(double)) */
static int resolve_overloads(void *ctx, const struct dso *d, u64 addr,
			     struct row_sym *out)
{
	static const char inner[] = "inner";
	int r = resolve(ctx, d, addr, out);

	if (out->name == fn_names[F_INNER_A] || out->name == fn_names[F_INNER_B])
		out->name = inner;
	return r;
}

/* overloads are two rows and two tree nodes, as in perf (which merges
 * chain entries by symbol address, not by name) */
START_TEST(test_tree_overloads)
{
	struct sort_spec spec;
	struct snapshot snap;
	const struct cg_node *n;
	struct rowset rs;
	struct cg_tree t;
	int rows = 0, nodes = 0;
	u64 sum = 0;

	feed_cgwork();
	sort_spec__default(&spec);
	spec.children = true;
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	rowset__init(&rs);
	ck_assert_int_eq(rowset__build(&rs, &snap, &spec, NULL,
				       resolve_overloads, NULL),
			 0);
	for (size_t i = 0; i < rs.nr; i++)
		rows += rs.rows[i].sym && !strcmp(rs.rows[i].sym, "inner");
	ck_assert_int_eq(rows, 2);
	cg_tree__init(&t);
	ck_assert_int_eq(rowset__tree(&rs, find(&rs, "outer"), CG_CALLER, &t),
			 0);
	n = child(&t, &t.nodes[0], "outer");
	ck_assert_ptr_nonnull(n);
	for (u32 c = n->first_child; c; c = t.nodes[c].next_sibling)
		if (t.nodes[c].sym && !strcmp(t.nodes[c].sym, "inner")) {
			nodes++;
			sum += t.nodes[c].period;
			ck_assert(t.nodes[c].period == 200 ||
				  t.nodes[c].period == 100);
		}
	ck_assert_int_eq(nodes, 2);
	ck_assert_uint_eq(sum, 300);
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

/* The lines of a calltree, as text: "row sub text" each. */
static void ct_text(const struct calltree *ct, const struct rowset *rs,
		    struct strbuf *sb)
{
	strbuf__reset(sb);
	for (size_t i = 0; i < calltree__nr_lines(ct, rs); i++) {
		size_t row, sub;
		const struct ct_line *l = calltree__line(ct, rs, i, &row, &sub);

		strbuf__addf(sb, "%zu %zu %.*s\n", row, sub,
			     l ? (int)l->len : 0, l ? ct->text.buf + l->off : "");
	}
}

/* Trees drawn as they are wanted (want_lines, calltree__draw_to) end as
 * the whole drawing: the same lines, rows before the first that waited
 * at the same numbers, and line_of finds a row's line after a draw. */
START_TEST(test_tree_lazy)
{
	struct rowset rs;
	struct snapshot snap;
	struct calltree all, lazy;
	struct strbuf a, b;
	size_t first_lines;

	feed_cgwork();
	build(&rs, &snap, true);
	ck_assert_uint_ge(rs.nr, 6);
	strbuf__init(&a);
	strbuf__init(&b);
	calltree__init(&all, CG_CALLER, 0.5);
	calltree__init(&lazy, CG_CALLER, 0.5);
	calltree__expand_all(&all);
	calltree__expand_all(&lazy);
	ck_assert_int_eq(calltree__build(&all, &rs), 0);
	ck_assert(calltree__complete(&all, &rs));
	ct_text(&all, &rs, &a);
	/* row 0's tree and 2 lines after its line: main's tree, then the
	 * next rows wait */
	lazy.want_row = 0;
	lazy.want_lines = 2;
	ck_assert_int_eq(calltree__build(&lazy, &rs), 0);
	ck_assert(!calltree__complete(&lazy, &rs));
	ck_assert_uint_gt(lazy.lazy_from, 0);
	ck_assert_uint_lt(lazy.lazy_from, rs.nr);
	ck_assert_uint_lt(calltree__nr_lines(&lazy, &rs),
			  calltree__nr_lines(&all, &rs));
	/* what is drawn is what the whole drawing has there */
	first_lines = calltree__line_of(&lazy, &rs, lazy.lazy_from, 0);
	ct_text(&lazy, &rs, &b);
	ck_assert_int_eq(strncmp(a.buf, b.buf,
				 strstr(b.buf, "\n") - b.buf), 0);
	for (size_t i = 0; i < first_lines; i++) {
		size_t r1, s1, r2, s2;

		calltree__line(&all, &rs, i, &r1, &s1);
		calltree__line(&lazy, &rs, i, &r2, &s2);
		ck_assert_uint_eq(r1, r2);
		ck_assert_uint_eq(s1, s2);
	}
	/* a row that waited: drawn on asking, and the rest with SIZE_MAX */
	ck_assert_int_eq(calltree__draw_to(&lazy, &rs, lazy.lazy_from, 1), 0);
	ck_assert_int_eq(calltree__draw_to(&lazy, &rs, rs.nr - 1, SIZE_MAX),
			 0);
	ck_assert(calltree__complete(&lazy, &rs));
	ct_text(&lazy, &rs, &b);
	ck_assert_str_eq(a.buf, b.buf);
	for (size_t r = 0; r < rs.nr; r++)
		ck_assert_uint_eq(calltree__line_of(&lazy, &rs, r, 0),
				  calltree__line_of(&all, &rs, r, 0));
	calltree__fini(&all);
	calltree__fini(&lazy);
	strbuf__fini(&a);
	strbuf__fini(&b);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

/* ---- every tree against paths: random chains, builds in a row ---- */

static unsigned int rnd_state;

static unsigned int rnd(unsigned int n)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 16) % n;
}

/* Random chains over six functions, with recursion, shared prefixes
 * (main first, few call sites) and repeats. */
static void feed_random(int nr)
{
	static const int pool[] = { F_OUTER, F_INNER_A, F_INNER_B,
				    F_CALLER_X, F_CALLER_Y, F_MAIN };

	for (int k = 0; k < nr; k++) {
		int fns[20], off[20], n = 1 + (int)rnd(14);

		for (int i = 0; i < n; i++) {
			/* root first here, reversed below */
			fns[n - 1 - i] = i == 0 ? F_MAIN : pool[rnd(i < 3 ? 2 : 6)];
			off[n - 1 - i] = 0x11 + 0x10 * (int)rnd(3);
		}
		sample_at(1 + rnd(500), n, fns, off);
	}
}

/* path strings ("a/b/c") with their periods */
struct pathsum {
	char **path;
	u64 *period;
	size_t nr, cap;
};

static void pathsum__add(struct pathsum *ps, const char *path, u64 period)
{
	for (size_t i = 0; i < ps->nr; i++)
		if (strcmp(ps->path[i], path) == 0) {
			ps->period[i] += period;
			return;
		}
	if (ps->nr == ps->cap) {
		ps->cap = ps->cap ? ps->cap * 2 : 64;
		ps->path = realloc(ps->path, ps->cap * sizeof(*ps->path));
		ps->period = realloc(ps->period, ps->cap * sizeof(*ps->period));
		ck_assert(ps->path && ps->period);
	}
	ps->path[ps->nr] = strdup(path);
	ps->period[ps->nr++] = period;
}

static void pathsum__fini(struct pathsum *ps)
{
	for (size_t i = 0; i < ps->nr; i++)
		free(ps->path[i]);
	free(ps->path);
	free(ps->period);
	memset(ps, 0, sizeof(*ps));
}

/* resolve, but caller_y's symbols are still loading (no name, a
 * provisional answer) and caller_x's lookup fails, while set */
struct late {
	bool loading_y, failing_x;
};

static int resolve_late(void *ctx, const struct dso *d, u64 addr,
			struct row_sym *out)
{
	const struct late *l = ctx;

	resolve(NULL, d, addr, out);
	if (l->loading_y && out->name == fn_names[F_CALLER_Y]) {
		out->name = NULL;
		out->start = out->size = 0;
		out->flags = SYM_F_PROVISIONAL;
	}
	if (l->failing_x && out->name == fn_names[F_CALLER_X]) {
		out->name = NULL;
		out->start = out->size = 0;
		return -ENOMEM;
	}
	return 0;
}

struct refctx {
	char x[64];		/* the row: its name, or its address */
	bool children;
	enum cg_order order;
	struct pathsum *ps;
};

/* A frame's name in the paths compared: its function, or its address */
static const char *frame_name(const char *sym, u64 addr, char *out)
{
	if (sym)
		return sym;
	snprintf(out, 64, "%#llx", (unsigned long long)addr);
	return out;
}

/* What a tree of x must hold, from one sample path (frames' names, root
 * first): each prefix of its part of the path, with the entry's period. */
static void ref_path(struct refctx *c, char (*fr)[64], size_t n,
		     const struct hist_entry *e)
{
	size_t from = n;
	char path[4096] = "";

	if (c->children) {
		for (size_t j = 0; j < n && from == n; j++)
			if (!strcmp(fr[j], c->x))
				from = j;
		if (from == n)
			return;
		if (from == n - 1)
			from = 0;
	} else {
		if (strcmp(fr[n - 1], c->x))
			return;
		from = 0;
	}
	for (size_t k = 0; k < n - from; k++) {
		size_t j = c->order == CG_CALLER ? from + k : n - 1 - k;

		if (k)
			strcat(path, "/");
		strcat(path, fr[j]);
		pathsum__add(c->ps, path, e->period);
	}
}

/* Every sample path of the snapshot, named with resolve_late itself (not
 * with what the rowset remembers), root first. */
static void ref_paths(const struct snapshot *snap, void *rctx,
		      struct refctx *c)
{
	static char fr[64][64];

	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		u32 ids[64], id = e->key.chain;
		size_t n = 0;
		struct row_sym rsym;
		char b[64];

		if (!id)
			continue;
		for (id = snap->chains[id].parent; id;
		     id = snap->chains[id].parent)
			ids[n++] = id;
		for (size_t k = 0; k < n; k++) {
			const struct cc_node *nd = &snap->chains[ids[n - 1 - k]];

			resolve_late(rctx, nd->dso, nd->addr, &rsym);
			snprintf(fr[k], 64, "%.63s",
				 frame_name(rsym.name, nd->addr + 1, b));
		}
		resolve_late(rctx, e->key.dso, e->key.addr, &rsym);
		snprintf(fr[n], 64, "%.63s",
			 frame_name(rsym.name, e->key.addr, b));
		ref_path(c, fr, n + 1, e);
	}
}

static void tree_paths(const struct cg_tree *t, u32 id, char *path,
		       struct pathsum *ps)
{
	size_t len = strlen(path);
	char b[64];

	for (u32 c = t->nodes[id].first_child; c; c = t->nodes[c].next_sibling) {
		snprintf(path + len, 4096 - len, "%s%.63s", len ? "/" : "",
			 frame_name(t->nodes[c].sym, t->nodes[c].addr, b));
		pathsum__add(ps, path, t->nodes[c].period);
		tree_paths(t, c, path, ps);
		path[len] = 0;
	}
}

/* Every row's tree, both orders, against the paths. */
static void check_trees(struct rowset *rs, bool children, void *rctx)
{
	struct cg_tree t;

	cg_tree__init(&t);
	for (size_t r = 0; r < rs->nr; r++)
		for (int o = 0; o < 2; o++) {
			struct pathsum want = { 0 }, got = { 0 };
			struct refctx c = { .children = children,
					    .order = o ? CG_CALLEE : CG_CALLER,
					    .ps = &want };
			char path[4096] = "", b[64];

			snprintf(c.x, sizeof(c.x), "%.63s",
				 frame_name(rs->rows[r].sym, rs->rows[r].addr,
					    b));

			ref_paths(rs->snap, rctx, &c);
			ck_assert_int_eq(rowset__tree(rs, &rs->rows[r], c.order,
						      &t), 0);
			tree_paths(&t, 0, path, &got);
			/* Children (the paths index, merged build by build):
			 * each entry through the row once, as its tree */
			if (children && c.order == CG_CALLER) {
				u64 sum = 0;

				for (u32 k = t.nodes[0].first_child; k;
				     k = t.nodes[k].next_sibling)
					sum += t.nodes[k].period;
				ck_assert_msg(sum == rs->rows[r].children_period,
					      "%s: children %llu, tree %llu",
					      rs->rows[r].sym,
					      (unsigned long long)rs->rows[r].children_period,
					      (unsigned long long)sum);
			}
			ck_assert_uint_eq(got.nr, want.nr);
			for (size_t i = 0; i < want.nr; i++) {
				size_t j = 0;

				while (j < got.nr &&
				       strcmp(got.path[j], want.path[i]))
					j++;
				ck_assert_msg(j < got.nr, "%s: no %s",
					      rs->rows[r].sym, want.path[i]);
				ck_assert_uint_eq(got.period[j], want.period[i]);
			}
			pathsum__fini(&want);
			pathsum__fini(&got);
		}
	cg_tree__fini(&t);
}

/* The idle task's sample, between the others: snapshots put it last. */
static void sample_idle(u64 period)
{
	u64 chain[3] = { (u64)PERF_CONTEXT_KERNEL, 0xffffffff81000100ULL,
			 0xffffffff81000200ULL };
	struct fake_sample fs = { .pid = 0, .tid = 0, .time = 1,
				  .period = period, .ip = chain[1],
				  .callchain = chain, .nr_callchain = 3,
				  .misc = PERF_RECORD_MISC_KERNEL };

	ck_assert_int_eq(session__process(s, fake_sample(buf, ST, &fs)), 0);
}

START_TEST(test_tree_paths)
{
	struct rowset rs;
	struct snapshot snap;
	struct sort_spec spec;
	struct late late = { true, true };

	rnd_state = 12345;
	sort_spec__default(&spec);
	rowset__init(&rs);
	snapshot__init(&snap);
	/* builds in a row on growing snapshots, which keep what they can
	 * of the last one (the same answers; with the idle task's entries
	 * shown, those before the idle ones); then without children on
	 * the same one, and again with no new sample; then caller_x's
	 * lookup works, then caller_y's name comes */
	rowset__set_answers_gen(&rs, 1);
	for (int round = 0; round < 6; round++) {
		bool children = round != 3;
		/* the idle entries, last, shown once: the next snapshot's
		 * new entries come before them */
		struct row_filter f = { .show_idle = round == 1 };

		if (round < 3) {
			feed_random(100);
			sample_idle(7);
			feed_random(50);
		}
		/* one at a time: a change of one answer starts the memo
		 * over, which would hide a kept wrong answer of the other */
		late.failing_x = round < 4;
		late.loading_y = round < 5;
		spec.children = children;
		ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
		ck_assert_uint_gt(snap.nr_idle, 0);
		ck_assert_int_eq(rowset__build(&rs, &snap, &spec, &f,
					       resolve_late, &late), 0);
		ck_assert_uint_ge(rs.nr, 5);
		ck_assert(!find(&rs, "caller_y") == late.loading_y);
		ck_assert(!find(&rs, "caller_x") == late.failing_x);
		check_trees(&rs, children, &late);
	}
	/* grouped by an entry field too (comm): the paths keep each
	 * frame's key of the entry, not the frame's own; then the default
	 * grouping again, its keys made anew */
	for (int round = 0; round < 2; round++) {
		struct row_filter f = { 0 };

		sort_spec__default(&spec);
		if (!round) {
			spec.group[0] = SORT_COMM;
			spec.group[1] = SORT_DSO;
			spec.group[2] = SORT_SYM;
			spec.nr_group = 3;
		}
		spec.children = true;
		ck_assert_int_eq(rowset__build(&rs, &snap, &spec, &f,
					       resolve_late, &late), 0);
		ck_assert_uint_ge(rs.nr, 5);
		check_trees(&rs, true, &late);
	}
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

/* ---- the live view: a tui on the suite's session, no terminal ---- */

struct tfix {
	struct app a;
	struct tui t;
	struct screen s;
	volatile sig_atomic_t stop;
};

static void tui_refresh(struct tfix *f)
{
	ck_assert_int_eq(table__snapshot(&f->t.table, HIST_CUMULATIVE), 0);
	f->t.have_snap = true;
	ck_assert_int_eq(tui__rebuild(&f->t), 0);
}

static void tui_start_order(struct tfix *f, bool callgraph,
			    enum cg_order order)
{
	memset(f, 0, sizeof(*f));
	f->a.session = s;
	sort_spec__default(&f->a.spec);
	f->a.spec.children = true;
	f->a.callgraph = callgraph;
	f->a.cg_order = order;
	f->a.delay = 2;
	f->a.stop = &f->stop;
	snprintf(f->a.target_desc, sizeof(f->a.target_desc), "pid 10 (cgw)");
	tui__init(&f->t, &f->a);
	f->t.table.resolve = resolve;
	f->t.table.resolve_ctx = NULL;
	f->t.hi = (struct header_info){ .target = f->a.target_desc,
					.event = "cpu-clock", .nr_events = 1 };
	screen__init(&f->s);
	screen__resize(&f->s, 40, 120);
	tui_refresh(f);
}

static void tui_start(struct tfix *f, bool callgraph)
{
	tui_start_order(f, callgraph, CG_CALLER);
}

static void tui_stop(struct tfix *f)
{
	screen__fini(&f->s);
	tui__fini(&f->t);
}

/* A key through the key table, and what the loop then does. */
static enum act_result key(struct tfix *f, int k)
{
	enum act_result r = tui__key(&f->t, k);

	if (r == R_REBUILD)
		ck_assert_int_eq(tui__rebuild(&f->t), 0);
	return r;
}

static int line_of(struct tfix *f, const char *text)
{
	tui__render(&f->t, &f->s, 0);
	for (size_t y = 0; y < f->s.rows; y++) {
		const char *l = screen__text(&f->s, y);

		ck_assert_msg(display_width(l, strlen(l)) <= f->s.cols,
			      "line %zu too wide", y);
		if (strstr(l, text))
			return (int)y;
	}
	return -1;
}

/* The line that is text and blanks, or -1. */
static int line_is(struct tfix *f, const char *text)
{
	size_t n = strlen(text);

	tui__render(&f->t, &f->s, 0);
	for (size_t y = 0; y < f->s.rows; y++) {
		const char *l = screen__text(&f->s, y);

		if (strncmp(l, text, n) == 0 && strspn(l + n, " ") == strlen(l + n))
			return (int)y;
	}
	return -1;
}

static const char *selected_sym(struct tfix *f, size_t *sub)
{
	const struct row *r = top__selected_line(&f->t, sub, NULL);

	ck_assert_ptr_nonnull(r);
	return r->sym;
}

static void select_sym(struct tfix *f, const char *name)
{
	size_t sub;

	key(f, K_HOME);
	for (int i = 0; i < 100; i++) {
		if (strcmp(selected_sym(f, &sub), name) == 0 && !sub)
			return;
		key(f, K_DOWN);
	}
	ck_abort_msg("no row %s", name);
}

START_TEST(test_table_trees)
{
	struct tfix f;
	size_t sub, rows;
	int y;

	feed_cgwork();
	tui_start(&f, true);
	rows = f.t.table.rows.nr;
	/* Children and Self, the trees' order in the titles */
	y = line_of(&f, "Children");
	ck_assert_int_ge(y, 0);
	ck_assert_ptr_nonnull(strstr(screen__text(&f.s, (size_t)y), "Self"));
	ck_assert_ptr_nonnull(strstr(screen__text(&f.s, (size_t)y),
				     "[trees: callers first, G flips]"));
	/* + on outer: what it spends in inner_a and inner_b */
	select_sym(&f, "outer");
	ck_assert_int_eq(key(&f, '+'), R_REBUILD);
	ck_assert_ptr_nonnull(strstr(f.t.status, "call tree of outer"));
	ck_assert_str_eq(selected_sym(&f, &sub), "outer");
	ck_assert_uint_eq(sub, 0);
	y = line_of(&f, "[.] outer");
	ck_assert_int_gt(y, 0);
	ck_assert_str_eq(screen__text(&f.s, (size_t)y + 1), CT_INDENT "---outer");
	ck_assert_str_eq(screen__text(&f.s, (size_t)y + 3),
			 CT_INDENT "   |--66.67%--inner_a");
	ck_assert_str_eq(screen__text(&f.s, (size_t)y + 5),
			 CT_INDENT "    --33.33%--inner_b");
	ck_assert_uint_eq(listview__nr(&top__of(&f.t)->lv), rows + 5);
	ck_assert_int_eq(screen__style_at(&f.s, (size_t)y + 1, 0), ST_NORMAL);
	/* tree lines are selectable; the selection knows its row */
	key(&f, K_DOWN);
	key(&f, K_DOWN);
	key(&f, K_DOWN);
	ck_assert_str_eq(selected_sym(&f, &sub), "outer");
	ck_assert_uint_eq(sub, 3);
	ck_assert_int_eq(screen__style_at(&f.s, (size_t)y + 3, 0), ST_NORMAL);
	ck_assert_int_eq(line_of(&f, "|--66.67%--inner_a"), y + 3);
	ck_assert_int_eq(screen__style_at(&f.s, (size_t)y + 3, 0), ST_SELECTED);

	/* a refresh that reorders rows keeps the row and its tree line */
	for (int i = 0; i < 10; i++) {
		static const int b[] = { F_INNER_B, F_OUTER, F_MAIN };

		sample(100, 3, b);
	}
	tui_refresh(&f);
	ck_assert_str_eq(selected_sym(&f, &sub), "outer");
	ck_assert_uint_eq(sub, 3);
	/* inner_b is the larger branch now */
	ck_assert_int_ge(line_of(&f, "|--84.62%--inner_b"), 0);

	/* G: callee order, said in the titles */
	ck_assert_int_eq(key(&f, 'G'), R_REBUILD);
	ck_assert_int_ge(line_of(&f, "[trees: callees first"), 0);
	y = line_of(&f, "|--84.62%--inner_b");
	ck_assert_int_gt(y, 0);
	ck_assert_str_eq(screen__text(&f.s, (size_t)y + 1),
			 CT_INDENT "|          outer");
	ck_assert_str_eq(selected_sym(&f, &sub), "outer");
	key(&f, 'G');

	/* + on a tree line collapses its row's tree */
	key(&f, K_DOWN);
	ck_assert_int_eq(key(&f, '+'), R_REBUILD);
	ck_assert_str_eq(selected_sym(&f, &sub), "outer");
	ck_assert_uint_eq(sub, 0);
	ck_assert_uint_eq(listview__nr(&top__of(&f.t)->lv), rows);

	/* E: every tree; + makes an exception; C: none */
	ck_assert_int_eq(key(&f, 'E'), R_REBUILD);
	ck_assert_uint_gt(listview__nr(&top__of(&f.t)->lv), rows * 3);
	ck_assert(calltree__expanded(&top__of(&f.t)->ct, &f.t.table.rows, 0));
	select_sym(&f, "main");
	key(&f, '+');
	ck_assert(!calltree__expanded(&top__of(&f.t)->ct, &f.t.table.rows,
				      (size_t)(top__selected_row(&f.t) -
					       f.t.table.rows.rows)));
	select_sym(&f, "inner_a");
	ck_assert_int_eq(key(&f, 'C'), R_REBUILD);
	ck_assert_uint_eq(listview__nr(&top__of(&f.t)->lv), rows);
	ck_assert_str_eq(selected_sym(&f, &sub), "inner_a");

	/* the row menu expands too */
	select_sym(&f, "outer");
	ck_assert_int_eq(key(&f, K_ENTER), R_REDRAW);
	ck_assert_str_eq(menu__shown(&f.t)->items[1].label, "Expand the call tree (+)");
	ck_assert_str_eq(menu__shown(&f.t)->items[2].label, "Callers and callees (c)");
	key(&f, K_DOWN);
	ck_assert_int_eq(key(&f, K_ENTER), R_REBUILD);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	ck_assert_uint_eq(listview__nr(&top__of(&f.t)->lv), rows + 5);
	key(&f, K_ENTER);
	ck_assert_str_eq(menu__shown(&f.t)->items[1].label,
			 "Collapse the call tree (+)");
	key(&f, K_ESC);

	/* every size: trees never overflow the screen */
	key(&f, 'E');
	for (size_t w = 1; w < 130; w += 7) {
		screen__resize(&f.s, 12, w);
		line_of(&f, "");
	}
	tui_stop(&f);

	/* --call-graph ...,callee: the trees start in callee order */
	tui_start_order(&f, true, CG_CALLEE);
	ck_assert_int_ge(line_of(&f, "[trees: callees first, G flips]"), 0);
	select_sym(&f, "inner_a");
	key(&f, '+');
	ck_assert_int_ge(line_of(&f, CT_INDENT "---inner_a"), 0);
	ck_assert_int_ge(line_of(&f, CT_INDENT "   outer"), 0);
	tui_stop(&f);
}
END_TEST

/* One sample without a chain, and the live view on it. */
static void start_without_chains(struct tfix *f)
{
	struct fake_sample fs = { .pid = 10, .tid = 10, .time = 1, .period = 7,
				  .misc = PERF_RECORD_MISC_USER,
				  .ip = 0x401240 };

	ck_assert_int_eq(session__process(s, fake_sample(buf, ST, &fs)), 0);
	tui_start(f, false);
}

START_TEST(test_no_chains)
{
	struct tfix f;

	start_without_chains(&f);
	ck_assert_int_eq(line_of(&f, "[trees:"), -1);
	ck_assert_int_eq(key(&f, '+'), R_REDRAW);
	ck_assert_ptr_nonnull(strstr(f.t.status,
				     "no call chains were sampled: start ptop "
				     "with -g"));
	f.t.status[0] = '\0';
	key(&f, 'E');
	ck_assert_ptr_nonnull(strstr(f.t.status, "no call chains"));
	f.t.status[0] = '\0';
	key(&f, 'C');
	ck_assert_ptr_nonnull(strstr(f.t.status, "no call chains"));
	key(&f, 'c');
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	/* the row menu has no tree entries */
	key(&f, K_ENTER);
	ck_assert_str_eq(menu__shown(&f.t)->items[1].label, "Zoom into cgw (d)");
	tui_stop(&f);
}
END_TEST

START_TEST(test_callers_view)
{
	struct tfix f;
	size_t sub;
	int y;

	feed_cgwork();
	tui_start(&f, true);
	select_sym(&f, "lib_work");
	ck_assert_int_eq(key(&f, 'c'), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_CALLERS);
	ck_assert_int_eq(line_of(&f, "Callers and callees of lib_work "
				     "(libwlcg.so): 49.18% of all samples, "
				     "self 49.18%"), 0);
	ck_assert_int_eq(screen__style_at(&f.s, 0, 0), ST_TITLE);
	y = line_of(&f, "Callers: who calls lib_work");
	ck_assert_int_eq(y, 1);
	ck_assert_str_eq(screen__text(&f.s, 2), "     66.67%  cgw  [.] caller_x");
	ck_assert_str_eq(screen__text(&f.s, 3), "     33.33%  cgw  [.] caller_y");
	ck_assert_int_eq(screen__style_at(&f.s, 3, 5), ST_HOT);
	/* the first caller is selected */
	ck_assert_int_eq(screen__style_at(&f.s, 2, 5), ST_SELECTED);
	ck_assert_int_ge(line_of(&f, "-> lib_work"), 0);
	ck_assert_int_ge(line_of(&f, "100.00%  (self: in lib_work itself)"), 0);
	ck_assert_int_ge(line_of(&f, "none: it calls nothing sampled"), 0);
	ck_assert_ptr_nonnull(strstr(screen__text(&f.s, 39), "Enter"));

	/* Enter moves to caller_x: its caller and callees */
	ck_assert_int_eq(key(&f, K_ENTER), R_REDRAW);
	ck_assert_int_eq(line_of(&f, "Callers and callees of caller_x"), 0);
	ck_assert_int_ge(line_of(&f, "[1 back with Esc]"), 0);
	ck_assert_int_ge(line_of(&f, "    100.00%  cgw         [.] main"), 0);
	ck_assert_int_ge(line_of(&f, "      4.76%  (self: in caller_x"), 0);
	ck_assert_int_ge(line_of(&f, "     95.24%  libwlcg.so  [.] lib_work"),
			 0);
	/* and on to main, then back twice */
	key(&f, K_ENTER);
	ck_assert_int_eq(line_of(&f, "Callers and callees of main"), 0);
	ck_assert_int_ge(line_of(&f, "none: its chains start here"), 0);
	ck_assert_int_ge(line_of(&f, "49.18%  cgw  [.] outer"), 0);
	/* a title line is not a function */
	key(&f, K_HOME);
	ck_assert_int_eq(key(&f, K_ENTER), R_REDRAW);
	ck_assert_ptr_nonnull(strstr(f.t.status, "Enter on a caller"));
	ck_assert_int_eq(key(&f, K_ESC), R_REDRAW);
	ck_assert_int_eq(line_of(&f, "Callers and callees of caller_x"), 0);
	ck_assert_int_eq(key(&f, K_LEFT), R_REDRAW);
	ck_assert_int_eq(line_of(&f, "Callers and callees of lib_work"), 0);
	/* where we left it: caller_x selected */
	ck_assert_int_eq(screen__style_at(&f.s, 2, 5), ST_SELECTED);

	/* a refresh while it is open: new shares */
	for (int i = 0; i < 3; i++) {
		static const int yy[] = { F_LIB_WORK, F_CALLER_Y, F_MAIN };

		sample(100, 3, yy);
	}
	tui_refresh(&f);
	line_of(&f, "");
	ck_assert_str_eq(screen__text(&f.s, 2), "     66.67%  cgw  [.] caller_y");
	ck_assert_str_eq(screen__text(&f.s, 3), "     33.33%  cgw  [.] caller_x");
	/* the selection followed caller_x */
	ck_assert_int_eq(screen__style_at(&f.s, 3, 5), ST_SELECTED);

	/* a annotates the selected caller (or says why it cannot) */
	f.t.status[0] = '\0';
	key(&f, 'a');
	ck_assert(strstr(f.t.status, "caller_x") ||
		  tui__view(&f.t) != V_CALLERS);
	while (tui__view(&f.t) != V_CALLERS && f.t.depth > 1)
		tui__pop(&f.t);

	/* small screens */
	for (size_t h = 0; h < 12; h++) {
		screen__resize(&f.s, h, 3 + h * 9);
		line_of(&f, "");
	}
	screen__resize(&f.s, 40, 120);
	/* Esc from the first function: the table, as it was */
	ck_assert_int_eq(key(&f, K_ESC), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	ck_assert_str_eq(selected_sym(&f, &sub), "lib_work");

	/* c on a tree line: the function it names; q: straight back */
	select_sym(&f, "outer");
	key(&f, '+');
	key(&f, K_DOWN);
	key(&f, K_DOWN);
	key(&f, K_DOWN);
	key(&f, 'c');
	ck_assert_int_eq(line_of(&f, "Callers and callees of inner_"), 0);
	key(&f, K_ENTER);
	ck_assert_int_eq(line_of(&f, "Callers and callees of outer"), 0);
	ck_assert_int_eq(key(&f, 'q'), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	/* reopened: no stack left from before */
	key(&f, 'c');
	ck_assert_int_eq(line_of(&f, "[1 back"), -1);
	key(&f, K_ESC);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	tui_stop(&f);
}
END_TEST

/* Hostile names in tree lines and in the caller/callee view: no control
 * byte reaches the screen, nothing is wider than it. */
START_TEST(test_hostile_names)
{
	static const int e[] = { F_LIB_WORK, F_EVIL, F_MAIN };
	struct tfix f;
	int y;

	feed_cgwork();
	sample(1000, 3, e);
	tui_start(&f, true);
	select_sym(&f, "main");
	key(&f, '+');
	y = line_of(&f, "--ev?[2Jil?31m??]52;c;QUJD?xxxx");
	ck_assert_int_gt(y, 0);
	for (size_t w = 2; w < 200; w += 13) {
		screen__resize(&f.s, 30, w);
		line_of(&f, "");
		for (size_t yy = 0; yy < f.s.rows; yy++)
			for (const char *p = screen__text(&f.s, yy); *p; p++)
				ck_assert((unsigned char)*p >= 0x20 &&
					  *p != 0x7f);
	}
	screen__resize(&f.s, 40, 120);
	select_sym(&f, "lib_work");
	key(&f, 'c');
	/* the largest caller, selected: Enter moves to it */
	ck_assert_int_ge(line_of(&f, "[.] ev?[2Jil?31m??]52;c;QUJD?xxx"), 0);
	key(&f, K_ENTER);
	y = line_of(&f, "Callers and callees of ev?[2Jil?31m??]52;c;QUJD?x");
	ck_assert_int_eq(y, 0);
	/* the name in the title is cut with an ellipsis, whole characters */
	ck_assert_ptr_nonnull(strstr(screen__text(&f.s, 0),
				     "xxx\xe2\x80\xa6 (cgw)"));
	for (size_t w = 2; w < 200; w += 13) {
		screen__resize(&f.s, 30, w);
		line_of(&f, "");
		for (size_t yy = 0; yy < f.s.rows; yy++)
			for (const char *p = screen__text(&f.s, yy); *p; p++)
				ck_assert((unsigned char)*p >= 0x20 &&
					  *p != 0x7f);
	}
	tui_stop(&f);
}
END_TEST

/* The flame graph of cgwork in miniature: one tree of every path. */
static u32 fl_child(const struct flame *fl, u32 parent, const char *name)
{
	for (u32 c = fl->nodes[parent].first_child; c;
	     c = fl->nodes[c].next_sibling)
		if (fl->nodes[c].sym && strcmp(fl->nodes[c].sym, name) == 0)
			return c;
	ck_abort_msg("no frame %s", name);
	return 0;
}

static const struct flame_cell *fl_cell(const struct flame_layout *l,
					const struct flame *fl, u32 node)
{
	const struct flame_cell *c = flame_layout__find(l, fl, node);

	ck_assert_msg(c != NULL, "frame %u not drawn", node);
	return c;
}

START_TEST(test_flame)
{
	struct flame fl;
	struct flame_layout l;
	struct rowset rs;
	struct snapshot snap;
	u32 m, x, y, o, lw;
	bool *marks;

	feed_cgwork();
	build(&rs, &snap, true);
	flame__init(&fl);
	flame_layout__init(&l);
	ck_assert_int_eq(flame__build(&fl, &rs, NULL, NULL), 0);
	ck_assert_uint_eq(fl.nodes[0].samples, 6);
	ck_assert_uint_eq(fl.nodes[0].period, 610);
	m = fl_child(&fl, 0, "main");
	ck_assert_uint_eq(fl.nodes[m].samples, 6);
	ck_assert_uint_eq(fl.nodes[m].self_samples, 0);
	/* children in name order, whatever their weight */
	x = fl.nodes[m].first_child;
	ck_assert_str_eq(fl.nodes[x].sym, "caller_x");
	y = fl.nodes[x].next_sibling;
	ck_assert_str_eq(fl.nodes[y].sym, "caller_y");
	o = fl.nodes[y].next_sibling;
	ck_assert_str_eq(fl.nodes[o].sym, "outer");
	ck_assert_uint_eq(fl.nodes[o].next_sibling, 0);
	ck_assert_uint_eq(fl.nodes[x].samples, 3);
	ck_assert_uint_eq(fl.nodes[x].self_samples, 1);
	ck_assert_uint_eq(fl.nodes[x].period, 210);
	lw = fl_child(&fl, x, "lib_work");
	ck_assert_uint_eq(fl.nodes[lw].samples, 2);
	ck_assert_str_eq(fl.nodes[lw].dso_name, "libwlcg.so");
	ck_assert_int_eq(fl.nodes[lw].kind, FL_USER);
	ck_assert_uint_eq(fl.nodes[lw].depth, 3);
	ck_assert_uint_eq(fl.max_depth, 3);
	ck_assert(flame__is_ancestor(&fl, m, lw));
	ck_assert(!flame__is_ancestor(&fl, o, lw));

	/* 60 columns: each frame as wide as its samples */
	ck_assert_int_eq(flame__layout(&fl, 0, 60, &l), 0);
	ck_assert_uint_eq(l.nr_lines, 4);
	ck_assert_uint_eq(fl_cell(&l, &fl, 0)->w, 60);
	ck_assert_uint_eq(fl_cell(&l, &fl, m)->w, 60);
	ck_assert_uint_eq(fl_cell(&l, &fl, x)->x, 0);
	ck_assert_uint_eq(fl_cell(&l, &fl, x)->w, 30);
	ck_assert_uint_eq(fl_cell(&l, &fl, y)->x, 30);
	ck_assert_uint_eq(fl_cell(&l, &fl, y)->w, 10);
	ck_assert_uint_eq(fl_cell(&l, &fl, o)->x, 40);
	ck_assert_uint_eq(fl_cell(&l, &fl, o)->w, 20);
	ck_assert_uint_eq(fl_cell(&l, &fl, lw)->w, 20);
	ck_assert_uint_eq(fl_cell(&l, &fl, fl_child(&fl, o, "inner_b"))->x, 50);
	/* depth 3, left to right */
	ck_assert_uint_eq(l.line[4] - l.line[3], 4);
	for (size_t i = l.line[3] + 1; i < l.line[4]; i++)
		ck_assert_uint_ge(l.cells[i].x,
				  l.cells[i - 1].x + l.cells[i - 1].w);

	/* zoomed into outer: it and its callers get the whole width */
	ck_assert_int_eq(flame__layout(&fl, o, 60, &l), 0);
	ck_assert_uint_eq(fl_cell(&l, &fl, o)->w, 60);
	ck_assert_uint_eq(fl_cell(&l, &fl, m)->w, 60);
	ck_assert_uint_eq(fl_cell(&l, &fl, fl_child(&fl, o, "inner_a"))->w, 30);
	ck_assert_ptr_null(flame_layout__find(&l, &fl, x));
	ck_assert_ptr_null(flame_layout__find(&l, &fl, lw));

	/* 5 columns: a frame under one column is left out, with what it
	 * calls; nothing overlaps or passes the edge */
	ck_assert_int_eq(flame__layout(&fl, 0, 5, &l), 0);
	ck_assert_ptr_null(flame_layout__find(&l, &fl, y));
	for (u32 d = 0; d < l.nr_lines; d++)
		for (size_t i = l.line[d]; i < l.line[d + 1]; i++) {
			ck_assert_uint_le(l.cells[i].x + l.cells[i].w, 5);
			ck_assert_uint_gt(l.cells[i].w, 0);
		}
	ck_assert_int_eq(flame__layout(&fl, 0, 0, &l), 0);
	ck_assert_uint_eq(l.nr, 0);

	/* search: each sample once */
	marks = calloc(fl.nr, sizeof(*marks));
	ck_assert_ptr_nonnull(marks);
	ck_assert_uint_eq(flame__search(&fl, 0, "LIB_work", marks), 3);
	ck_assert(marks[lw]);
	ck_assert(!marks[x]);
	ck_assert_uint_eq(flame__search(&fl, 0, "caller", marks), 4);
	/* main and everything above it: main's samples, once */
	ck_assert_uint_eq(flame__search(&fl, 0, "a", marks), 6);
	ck_assert(!marks[0]);	/* "all" is not a frame */
	ck_assert_uint_eq(flame__search(&fl, 0, "nothing", marks), 0);
	ck_assert_uint_eq(flame__search(&fl, 0, "", marks), 0);
	/* zoomed: a caller of the zoom frame holds all of it */
	ck_assert_uint_eq(flame__search(&fl, o, "main", marks), 2);
	ck_assert_uint_eq(flame__search(&fl, o, "inner_b", marks), 1);
	ck_assert_uint_eq(flame__search(&fl, o, "lib", marks), 0);
	free(marks);

	/* the same paths again: the same graph */
	ck_assert_int_eq(flame__build(&fl, &rs, NULL, NULL), 0);
	ck_assert_uint_eq(fl.nodes[0].samples, 6);
	ck_assert_uint_eq(fl.nr, 9);	/* all, main, outer, 2 callers, 2
					 * lib_work, inner_a, inner_b */
	flame_layout__fini(&l);
	flame__fini(&fl);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

/* The SVG: every frame with its counts, hostile names escaped. */
START_TEST(test_flame_svg)
{
	static const int e[] = { F_LIB_WORK, F_EVIL, F_MAIN };
	struct flame_svg_opts so = { .title = "Flame graph of <cpu-clock>",
				     .subtitle = "pid 10 (cgw\x1b[2J)" };
	struct flame fl;
	struct rowset rs;
	struct snapshot snap;
	struct strbuf sb;
	size_t opens = 0, closes = 0;

	feed_cgwork();
	sample(1000, 3, e);
	build(&rs, &snap, true);
	flame__init(&fl);
	strbuf__init(&sb);
	ck_assert_int_eq(flame__build(&fl, &rs, NULL, NULL), 0);
	ck_assert_int_eq(flame__svg(&sb, &fl, &so), 0);
	ck_assert_ptr_nonnull(sb.buf);
	ck_assert_ptr_nonnull(strstr(sb.buf, "<?xml version=\"1.0\""));
	ck_assert_ptr_nonnull(strstr(sb.buf, ">Flame graph of &lt;cpu-clock&gt;</text>"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "pid 10 (cgw?[2J), 7 samples"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "data-n=\"caller_x\" data-x=\"0\" "
					     "data-w=\"3\" data-d=\"2\""));
	ck_assert_ptr_nonnull(strstr(sb.buf, "<title>caller_x in cgw (3 samples, "
					     "42.86%; self 1)</title>"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "data-n=\"all\" data-x=\"0\" "
					     "data-w=\"7\" data-d=\"0\""));
	/* no control byte; the evil name's markup is escaped */
	for (const char *p = sb.buf; *p; p++)
		ck_assert((unsigned char)*p >= 0x20 || *p == '\n');
	ck_assert_ptr_null(strstr(sb.buf, "\xc2\x9b"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "data-n=\"ev?[2Jil?31m??]52;c;QUJD?xxx"));
	for (const char *p = sb.buf; (p = strstr(p, "<g class=\"f\"")); p++)
		opens++;
	for (const char *p = sb.buf; (p = strstr(p, "</g>")); p++)
		closes++;
	ck_assert_uint_eq(opens, fl.nr);
	ck_assert_uint_eq(closes, fl.nr + 1);	/* and the frames' group */
	/* the JSON tree */
	strbuf__reset(&sb);
	ck_assert_int_eq(flame__json(&sb, &fl), 0);
	ck_assert_ptr_nonnull(strstr(sb.buf, "{\"name\":\"all\",\"value\":7,\"self\":0,"
					     "\"period\":1610,\"kind\":\"root\",\"children\":["
					     "{\"name\":\"main\",\"value\":7,"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "{\"name\":\"caller_x\",\"value\":3,"
					     "\"self\":1,\"period\":210,\"kind\":\"user\","
					     "\"dso\":\"cgw\",\"children\":[{\"name\":\"lib_work\""));
	ck_assert_ptr_nonnull(strstr(sb.buf, "]}]}]}\n"));
	for (const char *p = sb.buf; *p; p++)
		ck_assert((unsigned char)*p >= 0x20 || *p == '\n');
	/* a narrow picture leaves out the frames under 0.1 px */
	strbuf__reset(&sb);
	so.width = 21;		/* 1 px for 7 samples */
	so.min_width = 0.2;
	ck_assert_int_eq(flame__svg(&sb, &fl, &so), 0);
	ck_assert_ptr_nonnull(strstr(sb.buf, "frames narrower than"));
	strbuf__fini(&sb);
	flame__fini(&fl);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

/* The flame graph view: F, moving, zoom, search, flip, freeze. */
START_TEST(test_flame_view)
{
	struct tfix f;
	int y, all, m;

	feed_cgwork();
	tui_start(&f, true);
	screen__resize(&f.s, 12, 100);
	ck_assert_int_eq(key(&f, 'F'), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_FLAME);
	ck_assert_int_eq(line_of(&f, "Flame graph of cpu-clock: 6 samples"), 0);
	ck_assert_int_eq(screen__style_at(&f.s, 0, 0), ST_TITLE);
	/* the outermost at the bottom, above the footer */
	all = line_is(&f, "all");
	ck_assert_int_eq(all, 10);
	ck_assert_int_eq(line_is(&f, "main"), all - 1);
	ck_assert_int_eq(screen__style_at(&f.s, all - 1, 0), ST_FL_USER);
	y = all - 2;
	ck_assert_ptr_nonnull(strstr(screen__text(&f.s, y), "caller_x"));
	ck_assert_ptr_nonnull(strstr(screen__text(&f.s, y), "outer"));
	ck_assert_int_eq(line_of(&f, "all  100.00% (6 samples)"), 1);
	/* all is selected; Up: main, Up: the callee above its middle */
	ck_assert_int_eq(screen__style_at(&f.s, all, 0), ST_SELECTED);
	key(&f, K_UP);
	ck_assert_int_eq(line_of(&f, "main  cgw  100.00% (6 samples)"), 1);
	key(&f, K_UP);
	ck_assert_int_eq(line_of(&f, "caller_y  cgw  16.67% (1 sample)"), 1);
	key(&f, K_RIGHT);
	ck_assert_int_eq(line_of(&f, "outer  cgw  33.33% (2 samples)"), 1);
	key(&f, K_RIGHT);	/* the last: stays */
	ck_assert_int_eq(line_of(&f, "outer  cgw"), 1);
	key(&f, K_LEFT);
	key(&f, K_LEFT);
	ck_assert_int_eq(line_of(&f, "caller_x  cgw  50.00% (3 samples), "
				     "self 16.67%"), 1);
	/* zoom into caller_x: it gets the whole width */
	key(&f, K_ENTER);
	ck_assert_int_eq(line_of(&f, "zoomed into caller_x (50.00%"), 0);
	m = line_of(&f, "lib_work");
	ck_assert_int_eq(m, all - 3);
	ck_assert_int_eq(line_of(&f, "outer"), -1);
	key(&f, K_UP);
	ck_assert_int_eq(line_of(&f, "lib_work  libwlcg.so  33.33%"), 1);
	/* search: the share of the matching frames */
	key(&f, '/');
	ck_assert_uint_eq(tui__view(&f.t), V_PROMPT);
	key(&f, 'l');
	key(&f, 'i');
	key(&f, 'b');
	ck_assert_int_ge(line_of(&f, "search \"lib\": 33.33% of all samples in the matching frames (66.67% of the zoomed"),
			 0);
	key(&f, K_ENTER);
	ck_assert_uint_eq(tui__view(&f.t), V_FLAME);
	ck_assert_int_eq(screen__style_at(&f.s, m, 0), ST_SELECTED);
	key(&f, K_DOWN);
	line_of(&f, "");
	ck_assert_int_eq(screen__style_at(&f.s, m, 0), ST_FL_MATCH);
	/* a refresh keeps the zoom and the selection */
	for (int i = 0; i < 6; i++) {
		static const int yy[] = { F_LIB_WORK, F_CALLER_X, F_MAIN };

		sample(100, 3, yy);
	}
	tui_refresh(&f);
	ck_assert_int_eq(line_of(&f, "Flame graph of cpu-clock: 12 samples, "
				     "zoomed into caller_x (75.00%"), 0);
	ck_assert_int_eq(line_of(&f, "caller_x  cgw  75.00% (9 samples)"), 1);
	/* frozen: a refresh changes nothing */
	key(&f, 'f');
	sample(100, 3, (const int[]){ F_INNER_A, F_OUTER, F_MAIN });
	tui_refresh(&f);
	ck_assert_int_eq(line_of(&f, "12 samples"), 0);
	ck_assert_int_ge(line_of(&f, "frozen"), 0);
	key(&f, 'f');
	ck_assert_int_eq(line_of(&f, "13 samples"), 0);
	/* icicle: the outermost at the top */
	key(&f, 'i');
	ck_assert_int_eq(line_is(&f, "all"), 3);	/* under the search line */
	key(&f, 'i');
	/* Esc zooms out, then goes back to the table */
	key(&f, K_ESC);
	ck_assert_int_ge(line_of(&f, "outer"), 0);
	ck_assert_int_eq(line_of(&f, "zoomed"), -1);
	/* small screens */
	for (size_t h = 0; h < 8; h++) {
		screen__resize(&f.s, h, 1 + h * 7);
		line_of(&f, "");
	}
	screen__resize(&f.s, 12, 100);
	key(&f, K_ESC);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	/* F again: a new graph, not zoomed */
	key(&f, 'F');
	ck_assert_int_eq(line_of(&f, "zoomed"), -1);
	key(&f, 'q');
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	tui_stop(&f);
}
END_TEST

/* Without chains the flame graph says how to get them. */
START_TEST(test_flame_no_chains)
{
	struct tfix f;

	start_without_chains(&f);
	ck_assert_int_eq(key(&f, 'F'), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	ck_assert_ptr_nonnull(strstr(f.t.status, "start ptop with -g"));
	tui_stop(&f);
}
END_TEST

/* Inlined frames from DWARF on a real binary: somewhere in fix_caller
 * is fix_inl (see check_srcline). */
START_TEST(test_inlines_fixture)
{
	struct symbolizer *sy = symbolizer__new(NULL);
	struct dso d = file_dso(0, fixture_path("symfix-pie"));
	struct dso k = { .kind = DSO_KERNEL, .name = "[kernel.kallsyms]" };
	struct inlines *in = inlines__new(sy);
	const char *names[4];
	u64 addr, size, off;
	bool seen = false;
	size_t asked;

	ck_assert_ptr_nonnull(in);
	ck_assert(nm_find("symfix-pie.nm", "fix_caller", &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(sy, &d, addr, &off), 0);
	for (u64 a = off; a < off + size; a++) {
		size_t n = inlines__get(in, &d, a, names, 4);

		if (!n)
			continue;
		ck_assert_uint_eq(n, 1);
		ck_assert_str_eq(names[0], "fix_inl");
		/* the same pointer each time: trees merge by pointer */
		ck_assert_uint_eq(inlines__get(in, &d, a, names + 1, 3), 1);
		ck_assert_ptr_eq(names[0], names[1]);
		seen = true;
	}
	ck_assert(seen);
	/* cached: asking again does not look up again */
	asked = inlines__nr(in);
	ck_assert_uint_eq(asked, size);
	inlines__get(in, &d, off, names, 4);
	ck_assert_uint_eq(inlines__nr(in), asked);
	/* max 0, the kernel, no symbolizer: nothing */
	ck_assert_uint_eq(inlines__get(in, &d, off, names, 0), 0);
	ck_assert_uint_eq(inlines__get(in, &k, 0xffffffff81000000ULL, names,
				       4), 0);
	inlines__free(in);
	in = inlines__new(NULL);
	ck_assert_uint_eq(inlines__get(in, &d, off, names, 4), 0);
	inlines__free(in);
	inlines__free(NULL);
	symbolizer__free(sy);
}
END_TEST

Suite *cgview_suite(void)
{
	Suite *ss = suite_create("cgview");
	TCase *tc = tcase_create("rowset");

	/* test_tree_paths builds six rounds of growing random snapshots:
	 * 2 to 5 s under ASan, past Check's 4 s on a quiet machine (the
	 * timeout is there to catch a hang) */
	tcase_set_timeout(tc, 30);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_neighbours);
	tcase_add_test(tc, test_neighbours_recursion_and_no_chain);
	tcase_add_test(tc, test_tree_inline);
	tcase_add_test(tc, test_tree_overloads);
	tcase_add_test(tc, test_tree_text);
	tcase_add_test(tc, test_tree_lazy);
	tcase_add_test(tc, test_tree_paths);
	tcase_add_test(tc, test_flame);
	tcase_add_test(tc, test_flame_svg);
	suite_add_tcase(ss, tc);
	tc = tcase_create("tui");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_table_trees);
	tcase_add_test(tc, test_no_chains);
	tcase_add_test(tc, test_callers_view);
	tcase_add_test(tc, test_hostile_names);
	tcase_add_test(tc, test_flame_view);
	tcase_add_test(tc, test_flame_no_chains);
	tcase_add_test(tc, test_inlines_fixture);
	suite_add_tcase(ss, tc);
	return ss;
}
