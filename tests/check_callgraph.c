/* Tests of the call-graph trees of a row (ui/report/callgraph.c, rowset__tree):
 * inlined frames, overloads, the text of a tree, and every tree against
 * the paths of random chains, on cgwork in miniature (tests/cgwork.h). */
#include <stdlib.h>
#include <string.h>

#include "tests/cgwork.h"

static const struct cg_node *child(const struct callgraph *t,
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
	struct callgraph t;
	const struct cg_node *n;
	int calls = 0;

	cgw_feed();
	cgw_build(&rs, &snap, true);
	callgraph__init(&t);

	/* caller order: outer -> helper (inlined) -> inner_a -> mid -> leaf */
	ck_assert_int_eq(rowset__tree_inline(&rs, cgw_find(&rs, "outer"),
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
	ck_assert_int_eq(rowset__tree_inline(&rs, cgw_find(&rs, "inner_a"),
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
	ck_assert_int_eq(rowset__tree(&rs, cgw_find(&rs, "outer"), CG_CALLER, &t),
			 0);
	n = child(&t, &t.nodes[0], "outer");
	ck_assert_ptr_null(child(&t, n, "helper"));
	ck_assert_uint_eq(child(&t, n, "inner_a")->period, 200);
	callgraph__fini(&t);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

/* cgw_resolve, with inner_a and inner_b overloads of one short name, as C++
 * overloads are shown ("ns::work" for work(int) and work(double)) */
static int resolve_overloads(void *ctx, const struct dso *d, u64 addr,
			     struct row_sym *out)
{
	static const char inner[] = "inner";
	int r = cgw_resolve(ctx, d, addr, out);

	if (out->name == cgw_fn_names[F_INNER_A] || out->name == cgw_fn_names[F_INNER_B])
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
	struct callgraph t;
	int rows = 0, nodes = 0;
	u64 sum = 0;

	cgw_feed();
	sort_spec__default(&spec);
	spec.children = true;
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(cgw, 0, &snap), 0);
	rowset__init(&rs);
	ck_assert_int_eq(rowset__build(&rs, &snap, &spec, NULL,
				       resolve_overloads, NULL),
			 0);
	for (size_t i = 0; i < rs.nr; i++)
		rows += rs.rows[i].sym && !strcmp(rs.rows[i].sym, "inner");
	ck_assert_int_eq(rows, 2);
	callgraph__init(&t);
	ck_assert_int_eq(rowset__tree(&rs, cgw_find(&rs, "outer"), CG_CALLER, &t),
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
	callgraph__fini(&t);
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
	struct callgraph t;
	struct strbuf sb;

	cgw_feed();
	cgw_build(&rs, &snap, true);
	callgraph__init(&t);
	strbuf__init(&sb);
	ck_assert_int_eq(rowset__tree(&rs, cgw_find(&rs, "main"), CG_CALLER, &t),
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
	callgraph__fini(&t);
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
		cgw_sample_at(1 + rnd(500), n, fns, off);
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

/* cgw_resolve, but caller_y's symbols are still loading (no name, a
 * provisional answer) and caller_x's lookup fails, while set */
struct late {
	bool loading_y, failing_x;
};

static int resolve_late(void *ctx, const struct dso *d, u64 addr,
			struct row_sym *out)
{
	const struct late *l = ctx;

	cgw_resolve(NULL, d, addr, out);
	if (l->loading_y && out->name == cgw_fn_names[F_CALLER_Y]) {
		out->name = NULL;
		out->start = out->size = 0;
		out->flags = SYM_F_PROVISIONAL;
	}
	if (l->failing_x && out->name == cgw_fn_names[F_CALLER_X]) {
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

static void tree_paths(const struct callgraph *t, u32 id, char *path,
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
	struct callgraph t;

	callgraph__init(&t);
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
	callgraph__fini(&t);
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

	ck_assert_int_eq(session__process(cgw, fake_sample(cgw_buf, CGW_ST, &fs)), 0);
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
		ck_assert_int_eq(session__snapshot(cgw, 0, &snap), 0);
		ck_assert_uint_gt(snap.nr_idle, 0);
		ck_assert_int_eq(rowset__build(&rs, &snap, &spec, &f,
					       resolve_late, &late), 0);
		ck_assert_uint_ge(rs.nr, 5);
		ck_assert(!cgw_find(&rs, "caller_y") == late.loading_y);
		ck_assert(!cgw_find(&rs, "caller_x") == late.failing_x);
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

Suite *callgraph_suite(void);
Suite *callgraph_suite(void)
{
	Suite *ss = suite_create("callgraph");
	TCase *tc = tcase_create("callgraph");

	/* test_tree_paths builds six rounds of growing random snapshots:
	 * 2 to 5 s under ASan, past Check's 4 s on a quiet machine (the
	 * timeout is there to catch a hang) */
	tcase_set_timeout(tc, 30);
	tcase_add_checked_fixture(tc, cgw_setup, cgw_teardown);
	tcase_add_test(tc, test_tree_inline);
	tcase_add_test(tc, test_tree_overloads);
	tcase_add_test(tc, test_tree_text);
	tcase_add_test(tc, test_tree_paths);
	suite_add_tcase(ss, tc);
	return ss;
}
