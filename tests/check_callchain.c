/* Tests of call chains: interning, self vs children, recursion counted
 * once, max-stack truncation, trees in both orders, paths. */
#include <stdlib.h>
#include <string.h>

#include "src/core/callchain.h"
#include "src/core/record.h"
#include "ui/report/rowset.h"
#include "src/core/json.h"
#include "ui/report/batch.h"
#include "src/core/session.h"
#include "ui/report/table.h"
#include "tests/testutil.h"

static u64 buf[8192];
static struct session *s;

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

/* Functions of /bin/cg, each 0x100 bytes from 0x1000: main, outer,
 * inner_a, inner_b, rec; mapped at 0x400000 with pgoff 0, so an ip
 * 0x401xyz is offset 0x1xyz. */
static const char *const fn_names[] = { "main", "outer", "inner_a", "inner_b", "rec" };

static u64 ip_of(int fn, u64 off)
{
	return 0x401000 + (u64)fn * 0x100 + off;
}

static int resolve(void *ctx, const struct dso *d, u64 addr, struct row_sym *out)
{
	(void)ctx;
	memset(out, 0, sizeof(*out));
	out->dso_name = d->name;
	if (d->kind == DSO_FILE && addr >= 0x1000 && addr < 0x1500) {
		out->name = fn_names[(addr - 0x1000) / 0x100];
		out->start = 0x1000 + (addr - 0x1000) / 0x100 * 0x100;
		out->size = 0x100;
	} else if (d->kind == DSO_KERNEL) {
		out->name = "kfunc";
		out->start = addr & ~0xfffULL;
	}
	return 0;
}

static void setup(void)
{
	struct session_opts o = { .key_fields = 0, .max_stack = 6 };
	struct perf_event_attr a;
	size_t t = record__id_trailer_size(ST, true);

	memset(&a, 0, sizeof(a));
	a.sample_type = ST;
	a.sample_id_all = 1;
	s = session__new(&o);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	session__process(s, fake_comm(buf, 10, 10, "cg", false, t));
	session__process(s, fake_mmap2(buf, 10, 0x400000, 0x10000, 0, "/bin/cg",
				       (const u8 *)"cgbuildid-cgbuildid", 20, t));
}

static void teardown(void)
{
	session__free(s);
}

/* A sample whose chain is given innermost first (as the kernel writes
 * it), each entry a (function, offset); the first is the sampled ip. */
static void sample(u64 period, int n, const int *fns, u16 misc)
{
	u64 chain[16];
	struct fake_sample fs = { .pid = 10, .tid = 10, .time = 1, .period = period,
				  .misc = misc ? misc : PERF_RECORD_MISC_USER };

	chain[0] = (u64)PERF_CONTEXT_USER;
	for (int i = 0; i < n; i++)
		chain[i + 1] = ip_of(fns[i], i ? 0x11 : 0x40); /* return addrs */
	fs.ip = chain[1];
	fs.callchain = chain;
	fs.nr_callchain = (u64)n + 1;
	ck_assert_int_eq(session__process(s, fake_sample(buf, ST, &fs)), 0);
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
	ck_assert_int_eq(rowset__build(rs, snap, &spec, NULL, resolve, NULL), 0);
}

/* main -> outer -> inner_a x2, main -> outer -> inner_b x1 */
static void feed_basic(void)
{
	static const int a[] = { 2, 1, 0 }, b[] = { 3, 1, 0 };

	sample(100, 3, a, 0);
	sample(100, 3, a, 0);
	sample(100, 3, b, 0);
}

START_TEST(test_intern)
{
	struct callchains *cc = callchains__new();
	struct dso d = { .kind = DSO_FILE, .name = "x" };
	u32 a = callchains__intern(cc, 0, &d, 1);
	u32 b = callchains__intern(cc, a, &d, 2);

	ck_assert_uint_ne(a, 0);
	ck_assert_uint_eq(callchains__intern(cc, 0, &d, 1), a);
	ck_assert_uint_eq(callchains__intern(cc, a, &d, 2), b);
	ck_assert_uint_ne(callchains__intern(cc, b, &d, 2), b);
	ck_assert_uint_eq(callchains__node(cc, b)->depth, 2);
	ck_assert_uint_eq(callchains__node(cc, b)->parent, a);
	for (u64 i = 0; i < 20000; i++)	/* growth keeps identities */
		ck_assert_uint_ne(callchains__intern(cc, b, &d, 100 + i), 0);
	ck_assert_uint_eq(callchains__intern(cc, a, &d, 2), b);
	callchains__reset(cc);
	ck_assert_uint_eq(callchains__nr(cc), 1);
	callchains__free(cc);
}
END_TEST

/* The walk w gives exactly the ids want[0, n), in order, each with its
 * own node, and then nothing, for good. */
static void ck_walk(struct cc_walk *w, const u32 *want, size_t n)
{
	const struct cc_node *nd;
	size_t i = 0;

	while ((nd = cc_walk__next(w))) {
		ck_assert_msg(i < n, "frame %zu (id %u) past the %zu expected",
			      i, w->id, n);
		ck_assert_uint_eq(w->id, want[i]);
		ck_assert_ptr_eq(nd, &w->nodes[want[i]]);
		i++;
	}
	ck_assert_uint_eq(i, n);
	ck_assert_ptr_null(cc_walk__next(w));
}

/* The one chain walk on a snapshot made by hand: every caller once,
 * innermost first, the leaf left out; ids the table does not hold end
 * it. */
START_TEST(test_walk_fake_snapshot)
{
	static struct cc_node nodes[] = {
		[0] = { .parent = 0, .depth = 0 },		/* the root */
		[1] = { .parent = 0, .depth = 1, .addr = 0x10 },
		[2] = { .parent = 1, .depth = 2, .addr = 0x20 },
		[3] = { .parent = 2, .depth = 3, .addr = 0x30 },
		[4] = { .parent = 3, .depth = 4, .addr = 0x40 },
		[5] = { .parent = 2, .depth = 3, .addr = 0x50 },
		[6] = { .parent = 9, .depth = 1, .addr = 0x60 }, /* not held */
	};
	static const u32 of4[] = { 3, 2, 1 }, of5[] = { 2, 1 },
			 from4[] = { 4, 3, 2, 1 }, from6[] = { 6 },
			 of2[] = { 1 };
	struct snapshot snap;
	struct cc_walk w;

	snapshot__init(&snap);
	snap.chains = nodes;
	snap.nr_chains = ARRAY_SIZE(nodes);
	snapshot__callers(&w, &snap, 4);
	ck_walk(&w, of4, ARRAY_SIZE(of4));
	snapshot__callers(&w, &snap, 5);		/* a branch */
	ck_walk(&w, of5, ARRAY_SIZE(of5));
	snapshot__callers(&w, &snap, 1);		/* a leaf alone */
	ck_walk(&w, NULL, 0);
	snapshot__callers(&w, &snap, 0);		/* no chain */
	ck_walk(&w, NULL, 0);
	snapshot__callers(&w, &snap, 7);		/* past the table */
	ck_walk(&w, NULL, 0);
	snapshot__callers(&w, &snap, 6);		/* a parent past it */
	ck_walk(&w, NULL, 0);
	/* from a node: the node itself first */
	cc_walk__from(&w, nodes, ARRAY_SIZE(nodes), 4);
	ck_walk(&w, from4, ARRAY_SIZE(from4));
	cc_walk__from(&w, nodes, ARRAY_SIZE(nodes), 6);
	ck_walk(&w, from6, ARRAY_SIZE(from6));
	/* a table cut at 3 nodes holds neither 4 nor 3 */
	cc_walk__callers(&w, nodes, 3, 4);
	ck_walk(&w, NULL, 0);
	cc_walk__callers(&w, nodes, 3, 2);
	ck_walk(&w, of2, ARRAY_SIZE(of2));
}
END_TEST

/* On a session's snapshot: each entry's callers are its chain's frames
 * past the leaf, outermost last (return addresses less one). */
START_TEST(test_walk_snapshot)
{
	static const int a[] = { 2, 1, 0 }, b[] = { 3, 1, 0 }, c[] = { 4 };
	struct snapshot snap;
	size_t seen = 0;

	sample(100, 3, a, 0);
	sample(100, 3, b, 0);
	sample(100, 1, c, 0);
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	for (size_t i = 0; i < snap.nr; i++) {
		const struct hist_entry *e = &snap.entries[i];
		const struct cc_node *nd;
		struct cc_walk w;
		int fn = (int)((e->key.addr - 0x1000) / 0x100);
		const int *want = fn == 2 ? a : fn == 3 ? b : c;
		size_t n = 1;

		ck_assert_uint_eq(e->key.addr, 0x1000 + (u64)fn * 0x100 + 0x40);
		ck_assert_uint_lt(e->key.chain, snap.nr_chains);
		snapshot__callers(&w, &snap, e->key.chain);
		while ((nd = cc_walk__next(&w))) {
			ck_assert_uint_lt(n, fn == 4 ? 1 : 3);
			ck_assert_uint_eq(nd->addr,
					  0x1000 + (u64)want[n] * 0x100 + 0x10);
			ck_assert_uint_eq(nd->depth,
					  snap.chains[e->key.chain].depth - n);
			n++;
		}
		ck_assert_uint_eq(n, fn == 4 ? 1 : 3);
		seen |= 1u << fn;
	}
	ck_assert_uint_eq(seen, (1u << 2) | (1u << 3) | (1u << 4));
	snapshot__fini(&snap);
}
END_TEST

START_TEST(test_self_and_children)
{
	struct rowset rs;
	struct snapshot snap;

	feed_basic();
	build(&rs, &snap, true);
	/* rows exist for callers that never were a leaf */
	ck_assert_ptr_nonnull(find(&rs, "main"));
	ck_assert_uint_eq(find(&rs, "main")->children_period, 300);
	ck_assert_uint_eq(find(&rs, "main")->period, 0);
	ck_assert_uint_eq(find(&rs, "outer")->children_period, 300);
	ck_assert_uint_eq(find(&rs, "inner_a")->period, 200);
	ck_assert_uint_eq(find(&rs, "inner_a")->children_period, 200);
	ck_assert_double_eq_tol(rowset__percent_children(&rs, find(&rs, "outer")), 100.0, 1e-9);
	/* ordered by total: main and outer (300) before inner_a (200) */
	ck_assert_uint_eq(rs.rows[0].children_period, 300);
	ck_assert_str_eq(rs.rows[2].sym, "inner_a");
	rowset__fini(&rs);
	snapshot__fini(&snap);

	/* without children: only leaves, ordered by self */
	build(&rs, &snap, false);
	ck_assert_uint_eq(rs.nr, 2);
	ck_assert_str_eq(rs.rows[0].sym, "inner_a");
	ck_assert_ptr_null(find(&rs, "main"));
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

START_TEST(test_recursion_once)
{
	static const int r[] = { 4, 4, 4, 1, 0 };	/* main->outer->rec->rec->rec */
	struct rowset rs;
	struct snapshot snap;

	sample(10, 5, r, 0);
	build(&rs, &snap, true);
	ck_assert_uint_eq(find(&rs, "rec")->children_period, 10);
	ck_assert_uint_eq(find(&rs, "rec")->period, 10);
	ck_assert_uint_eq(find(&rs, "main")->children_period, 10);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

START_TEST(test_max_stack)
{
	/* 8 frames, max_stack 6: the outermost two are cut */
	static const int deep[] = { 2, 4, 4, 4, 4, 4, 1, 0 };
	struct rowset rs;
	struct snapshot snap;

	sample(10, 8, deep, 0);
	build(&rs, &snap, true);
	ck_assert_ptr_null(find(&rs, "main"));
	ck_assert_ptr_null(find(&rs, "outer"));
	ck_assert_uint_eq(find(&rs, "rec")->children_period, 10);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

START_TEST(test_trees)
{
	struct rowset rs;
	struct snapshot snap;
	struct callgraph t;
	const struct cg_node *n;

	feed_basic();
	build(&rs, &snap, true);
	callgraph__init(&t);

	/* outer: what it spends in its callees, caller order */
	ck_assert_int_eq(rowset__tree(&rs, find(&rs, "outer"), CG_CALLER, &t), 0);
	ck_assert_uint_eq(t.total_period, 300);
	n = &t.nodes[t.nodes[0].first_child];
	ck_assert_str_eq(n->sym, "outer");
	ck_assert_uint_eq(n->period, 300);
	ck_assert_str_eq(t.nodes[n->first_child].sym, "inner_a");	/* largest first */
	ck_assert_uint_eq(t.nodes[n->first_child].period, 200);
	ck_assert_str_eq(t.nodes[t.nodes[n->first_child].next_sibling].sym, "inner_b");

	/* inner_a: who calls it (its own samples: the whole chain) */
	ck_assert_int_eq(rowset__tree(&rs, find(&rs, "inner_a"), CG_CALLER, &t), 0);
	n = &t.nodes[t.nodes[0].first_child];
	ck_assert_str_eq(n->sym, "main");
	n = &t.nodes[n->first_child];
	ck_assert_str_eq(n->sym, "outer");
	ck_assert_str_eq(t.nodes[n->first_child].sym, "inner_a");

	/* callee order: the same paths, reversed */
	ck_assert_int_eq(rowset__tree(&rs, find(&rs, "inner_a"), CG_CALLEE, &t), 0);
	n = &t.nodes[t.nodes[0].first_child];
	ck_assert_str_eq(n->sym, "inner_a");
	ck_assert_str_eq(t.nodes[n->first_child].sym, "outer");
	callgraph__fini(&t);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

static int count_paths(void *ctx, const struct path_frame *fr, size_t n,
		       const struct hist_entry *e)
{
	int *c = ctx;

	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(fr[0].sym.name, "main");
	ck_assert_str_eq(fr[1].sym.name, "outer");
	ck_assert(strcmp(fr[2].sym.name, "inner_a") == 0 ||
		  strcmp(fr[2].sym.name, "inner_b") == 0);
	ck_assert(!fr[0].inlined && !fr[1].inlined && !fr[2].inlined);
	*c += (int)e->samples;
	return 0;
}

START_TEST(test_paths_and_kernel)
{
	struct rowset rs;
	struct snapshot snap;
	int c = 0;
	u64 chain[5] = { (u64)PERF_CONTEXT_KERNEL, 0xffffffff81002040ULL,
			 (u64)PERF_CONTEXT_USER, ip_of(1, 0x11), ip_of(0, 0x11) };
	struct fake_sample fs = { .pid = 10, .tid = 10, .time = 1, .period = 5,
				  .misc = PERF_RECORD_MISC_KERNEL,
				  .ip = 0xffffffff81002040ULL,
				  .callchain = chain, .nr_callchain = 5 };

	feed_basic();
	build(&rs, &snap, true);
	ck_assert_int_eq(rowset__foreach_path(&rs, count_paths, &c), 0);
	ck_assert_int_eq(c, 3);
	rowset__fini(&rs);
	snapshot__fini(&snap);

	/* a kernel leaf under a user chain: both parts count */
	session__process(s, fake_sample(buf, ST, &fs));
	build(&rs, &snap, true);
	ck_assert_uint_eq(find(&rs, "kfunc")->period, 5);
	ck_assert(find(&rs, "kfunc")->kernel);
	ck_assert_uint_eq(find(&rs, "outer")->children_period, 305);
	rowset__fini(&rs);
	snapshot__fini(&snap);

	/* zeroing forgets the chains too */
	session__refresh(s, HIST_ZERO);
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.nr, 0);
	ck_assert_uint_eq(snap.nr_chains, 0);
	snapshot__fini(&snap);
}
END_TEST

/* A kernel sample's user part begins at the interrupted instruction,
 * not at a return address: at the first byte of inner_b it is inner_b's
 * (minus one, it would be inner_a's); the return addresses after it are
 * looked up minus one (0x401200, just past a call at the end of outer,
 * is outer's). */
START_TEST(test_user_part_starts_exact)
{
	struct rowset rs;
	struct snapshot snap;
	u64 chain[6] = { (u64)PERF_CONTEXT_KERNEL, 0xffffffff81002040ULL,
			 (u64)PERF_CONTEXT_USER, ip_of(3, 0), ip_of(2, 0),
			 ip_of(0, 0x11) };
	struct fake_sample fs = { .pid = 10, .tid = 10, .time = 1, .period = 7,
				  .misc = PERF_RECORD_MISC_KERNEL,
				  .ip = 0xffffffff81002040ULL,
				  .callchain = chain, .nr_callchain = 6 };

	session__process(s, fake_sample(buf, ST, &fs));
	build(&rs, &snap, true);
	ck_assert_ptr_nonnull(find(&rs, "inner_b"));
	ck_assert_uint_eq(find(&rs, "inner_b")->children_period, 7);
	ck_assert_ptr_nonnull(find(&rs, "outer"));
	ck_assert_uint_eq(find(&rs, "outer")->children_period, 7);
	ck_assert_ptr_null(find(&rs, "inner_a"));
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

/* The deepest nesting of brackets and braces in p. */
static int json_depth(const char *p)
{
	int depth = 0, max = 0;

	for (; *p; p++) {
		if (*p == '[' || *p == '{')
			depth++;
		else if (*p == ']' || *p == '}')
			depth--;
		if (depth > max)
			max = depth;
	}
	return max;
}

/* JSON trees stop at 64 frames, so that parsers with a depth limit (jq
 * 1.6) read a garbage frame-pointer chain's tree. */
START_TEST(test_json_tree_depth)
{
	struct session_opts o = { .key_fields = 0, .max_stack = 200 };
	struct batch_opts bo = { .json = true, .callgraph = true };
	struct perf_event_attr a;
	struct header_info hi = { .target = "t", .event = "cpu-clock" };
	struct sort_spec spec;
	struct strbuf sb;
	struct table t;
	u64 chain[81];
	struct fake_sample fs = { .pid = 10, .tid = 10, .time = 1, .period = 1,
				  .misc = PERF_RECORD_MISC_USER };

	session__free(s);
	memset(&a, 0, sizeof(a));
	a.sample_type = ST;
	a.sample_id_all = 1;
	s = session__new(&o);
	session__add_event(s, "cpu-clock", &a);
	chain[0] = (u64)PERF_CONTEXT_USER;
	for (int i = 1; i <= 80; i++)
		chain[i] = 0x1000 + (u64)i * 0x10;	/* no map: 80 frames */
	fs.ip = chain[1];
	fs.callchain = chain;
	fs.nr_callchain = 81;
	session__process(s, fake_sample(buf, ST, &fs));
	sort_spec__default(&spec);
	table__init(&t, s, NULL, &spec);
	ck_assert_int_eq(table__snapshot(&t, HIST_CUMULATIVE), 0);
	ck_assert_int_eq(table__build(&t, 0), 0);
	strbuf__init(&sb);
	batch__format(&sb, &bo, &t, &hi);
	ck_assert_ptr_nonnull(strstr(sb.buf, "{\"truncated\":true}"));
	/* top object, rows, row, tree, then two per frame: 64 frames */
	ck_assert_int_le(json_depth(sb.buf), 4 + 2 * 64 + 1);
	strbuf__fini(&sb);
	table__fini(&t);
}
END_TEST

/* Sixteen inlined functions at every address. */
static size_t deep_inlines(void *ctx, const struct dso *d, u64 addr,
			   const char **names, size_t max)
{
	static const char *const n = "inl";

	(void)ctx;
	(void)d;
	(void)addr;
	for (size_t i = 0; i < max && i < 16; i++)
		names[i] = n;
	return max < 16 ? max : 16;
}

static void batch_table(struct table *t)
{
	struct sort_spec spec;

	sort_spec__default(&spec);
	spec.children = true;
	table__init(t, s, NULL, &spec);
	t->resolve = resolve;
	t->resolve_ctx = NULL;
	ck_assert_int_eq(table__snapshot(t, HIST_CUMULATIVE), 0);
	ck_assert_int_eq(table__build(t, 0), 0);
}

/* Batch trees (text and JSON) and folded stacks show inlined frames as
 * the live view's trees do: the text with " (inlined)", the JSON with
 * "inlined":true and the plain name. */
START_TEST(test_batch_inline)
{
	struct batch_opts bo = { .callgraph = true, .inl = fake_inlines };
	struct header_info hi = { .target = "t", .event = "cpu-clock" };
	/* outer's row, caller order: outer -> helper -> inner_a (2/3) ->
	 * mid_inl -> leaf_inl, helper -> inner_b (1/3) */
	static const char outer_tree[] =
		"\"tree\":[{\"symbol\":\"outer\",\"dso\":\"cg\","
		"\"kernel\":false,\"inlined\":false,\"percent\":100.0000,"
		"\"samples\":3,\"period\":300,\"children\":["
		"{\"symbol\":\"helper\",\"dso\":\"cg\",\"kernel\":false,"
		"\"inlined\":true,\"percent\":100.0000,\"samples\":3,"
		"\"period\":300,\"children\":["
		"{\"symbol\":\"inner_a\",\"dso\":\"cg\",\"kernel\":false,"
		"\"inlined\":false,\"percent\":66.6667,\"samples\":2,"
		"\"period\":200,\"children\":["
		"{\"symbol\":\"mid_inl\",\"dso\":\"cg\",\"kernel\":false,"
		"\"inlined\":true,\"percent\":66.6667,\"samples\":2,"
		"\"period\":200,\"children\":["
		"{\"symbol\":\"leaf_inl\",\"dso\":\"cg\",\"kernel\":false,"
		"\"inlined\":true,\"percent\":66.6667,\"samples\":2,"
		"\"period\":200,\"children\":[]}]}]},"
		"{\"symbol\":\"inner_b\",\"dso\":\"cg\",\"kernel\":false,"
		"\"inlined\":false,\"percent\":33.3333,\"samples\":1,"
		"\"period\":100,\"children\":[]}]}]}]";
	struct strbuf sb;
	struct table t;

	feed_basic();
	batch_table(&t);
	strbuf__init(&sb);

	bo.json = true;
	batch__format(&sb, &bo, &t, &hi);
	ck_assert_msg(strstr(sb.buf, outer_tree), "%s", sb.buf);
	/* the suffix is the text's: JSON names are plain */
	ck_assert_ptr_null(strstr(sb.buf, "(inlined)"));

	/* the text tree of the same row, perf's graph style */
	bo.json = false;
	strbuf__reset(&sb);
	batch__format(&sb, &bo, &t, &hi);
	ck_assert_msg(strstr(sb.buf,
			     "            ---outer\n"
			     "               helper (inlined)\n"
			     "               |\n"
			     "               |--66.67%--inner_a\n"
			     "               |          mid_inl (inlined)\n"
			     "               |          leaf_inl (inlined)\n"
			     "               |\n"
			     "                --33.33%--inner_b\n"),
		      "%s", sb.buf);
	ck_assert_ptr_null(strstr(sb.buf, "outer (inlined)"));

	/* folded stacks: inlined functions are frames, plainly named */
	bo.folded = true;
	strbuf__reset(&sb);
	batch__format(&sb, &bo, &t, &hi);
	ck_assert_str_eq(sb.buf, "main;outer;helper;inner_a;mid_inl;leaf_inl 2\n"
				 "main;outer;helper;inner_b 1\n");
	bo.folded = false;

	/* without the callback: no inlined frame, every node says false */
	bo.inl = NULL;
	bo.json = true;
	strbuf__reset(&sb);
	batch__format(&sb, &bo, &t, &hi);
	ck_assert_ptr_null(strstr(sb.buf, "helper"));
	ck_assert_ptr_null(strstr(sb.buf, "\"inlined\":true"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "\"symbol\":\"inner_a\",\"dso\":"
					     "\"cg\",\"kernel\":false,"
					     "\"inlined\":false,"));
	table__fini(&t);

	/* inlined frames count in the depth cut: 6 frames of 17 nodes */
	{
		static const int r[] = { 4, 4, 4, 4, 4, 0 };

		sample(100, 6, r, 0);
	}
	batch_table(&t);
	bo.inl = deep_inlines;
	strbuf__reset(&sb);
	batch__format(&sb, &bo, &t, &hi);
	ck_assert_ptr_nonnull(strstr(sb.buf, "{\"truncated\":true}"));
	ck_assert_int_le(json_depth(sb.buf), 4 + 2 * 64 + 1);
	strbuf__fini(&sb);
	table__fini(&t);
}
END_TEST

/* A whole --json document, byte for byte: the header's members, the
 * per-CPU counts, the sort and every row (a change of format is a change
 * of this test, not an accident of the writer). */
START_TEST(test_json_document)
{
	struct batch_opts bo = { .json = true };
	struct header_info hi = { .target = "pid 10 (c\"g)",
				  .event = "cpu-clock", .freq = 4000,
				  .elapsed = 1.25, .finished = true,
				  .time = true };
	static const char want[] =
		"{\"time\":1.250,\"event\":\"cpu-clock\","
		"\"target\":\"pid 10 (c\\\"g)\",\"freq\":4000,"
		"\"sample_period\":0,\"off_cpu\":true,\"period_unit\":\"ns\","
		"\"samples\":3,\"period\":300,\"total_samples\":3,\"lost\":0,"
		"\"lost_records\":0,\"lost_samples\":0,\"throttled\":0,"
		"\"dropped\":0,\"filtered\":0,\"unwind_failed\":0,"
		"\"unwind_no_stack\":0,\"idle\":0.0000,\"idle_samples\":0,"
		"\"idle_period\":0,\"idle_shown\":false,"
		"\"kernel_share\":0.0000,\"finished\":true,\"entries\":2,"
		"\"chain_nodes\":4,\"per_cpu\":[{\"cpu\":0,\"samples\":3,"
		"\"lost\":0,\"lost_samples\":0,\"dropped\":0,"
		"\"unwind_failed\":0}],\"sort\":[\"dso\",\"sym\"],"
		"\"order\":\"overhead\",\"rows\":[{\"overhead\":0.0000,"
		"\"samples\":0,\"period\":0,\"comm\":null,\"pid\":null,"
		"\"tid\":null,\"cpu\":null,\"cgroup\":null,"
		"\"cgroup_path\":null,\"state\":null,\"dso\":\"cg\","
		"\"symbol\":\"main\",\"resolved\":true,\"kernel\":false,"
		"\"inlined\":false,\"self\":0.0000,\"children\":100.0000,"
		"\"children_period\":300},{\"overhead\":0.0000,"
		"\"samples\":0,\"period\":0,\"comm\":null,\"pid\":null,"
		"\"tid\":null,\"cpu\":null,\"cgroup\":null,"
		"\"cgroup_path\":null,\"state\":null,\"dso\":\"cg\","
		"\"symbol\":\"outer\",\"resolved\":true,\"kernel\":false,"
		"\"inlined\":false,\"self\":0.0000,\"children\":100.0000,"
		"\"children_period\":300},{\"overhead\":66.6667,"
		"\"samples\":2,\"period\":200,\"comm\":null,\"pid\":null,"
		"\"tid\":null,\"cpu\":null,\"cgroup\":null,"
		"\"cgroup_path\":null,\"state\":null,\"dso\":\"cg\","
		"\"symbol\":\"inner_a\",\"resolved\":true,\"kernel\":false,"
		"\"inlined\":false,\"self\":66.6667,\"children\":66.6667,"
		"\"children_period\":200},{\"overhead\":33.3333,"
		"\"samples\":1,\"period\":100,\"comm\":null,\"pid\":null,"
		"\"tid\":null,\"cpu\":null,\"cgroup\":null,"
		"\"cgroup_path\":null,\"state\":null,\"dso\":\"cg\","
		"\"symbol\":\"inner_b\",\"resolved\":true,\"kernel\":false,"
		"\"inlined\":false,\"self\":33.3333,\"children\":33.3333,"
		"\"children_period\":100}],\"hidden_rows\":0}\n";
	struct strbuf sb;
	struct table t;

	feed_basic();
	batch_table(&t);
	strbuf__init(&sb);
	batch__format(&sb, &bo, &t, &hi);
	ck_assert_str_eq(sb.buf, want);
	strbuf__fini(&sb);
	table__fini(&t);
}
END_TEST

/* batch_opts.json_more: a front end's members (app's input, output,
 * push) go into each table's object, after its own, before it closes;
 * an earlier table in the same buffer is left alone. */
static void json_more_fake(struct json *j, void *ctx)
{
	json__object(j, "b");
	json__u64(j, "c", *(unsigned int *)ctx);
	json__object_end(j);
}

START_TEST(test_json_more)
{
	unsigned int calls = 7;
	struct batch_opts bo = { .json = true, .json_more = json_more_fake,
				 .json_more_ctx = &calls };
	struct header_info hi = { .event = "cpu-clock" };
	static const char tail[] = "\"hidden_rows\":0,\"b\":{\"c\":7}}\n";
	struct strbuf sb, plain;
	struct table t;
	size_t first;

	feed_basic();
	batch_table(&t);
	strbuf__init(&sb);
	strbuf__init(&plain);
	bo.json_more = NULL;
	batch__format(&plain, &bo, &t, &hi);
	bo.json_more = json_more_fake;
	batch__format(&sb, &bo, &t, &hi);
	first = sb.len;
	batch__format(&sb, &bo, &t, &hi);
	/* twice the same document: the second did not touch the first */
	ck_assert_uint_eq(sb.len, 2 * first);
	ck_assert(memcmp(sb.buf, sb.buf + first, first) == 0);
	ck_assert_uint_ge(first, sizeof(tail) - 1);
	ck_assert_str_eq(sb.buf + sb.len - (sizeof(tail) - 1), tail);
	/* without it: the same object, ending at its own members */
	ck_assert_uint_eq(plain.len + strlen(",\"b\":{\"c\":7}"), first);
	ck_assert(memcmp(plain.buf, sb.buf, plain.len - 2) == 0);
	ck_assert_str_eq(plain.buf + plain.len - 17, "\"hidden_rows\":0}\n");
	strbuf__fini(&plain);
	strbuf__fini(&sb);
	table__fini(&t);
}
END_TEST

Suite *callchain_suite(void)
{
	Suite *ss = suite_create("callchain");
	TCase *tc = tcase_create("callchain");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_intern);
	tcase_add_test(tc, test_walk_fake_snapshot);
	tcase_add_test(tc, test_walk_snapshot);
	tcase_add_test(tc, test_self_and_children);
	tcase_add_test(tc, test_recursion_once);
	tcase_add_test(tc, test_max_stack);
	tcase_add_test(tc, test_trees);
	tcase_add_test(tc, test_paths_and_kernel);
	tcase_add_test(tc, test_user_part_starts_exact);
	tcase_add_test(tc, test_json_tree_depth);
	tcase_add_test(tc, test_batch_inline);
	tcase_add_test(tc, test_json_document);
	tcase_add_test(tc, test_json_more);
	suite_add_tcase(ss, tc);
	return ss;
}
