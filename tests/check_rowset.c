/* Tests of rowset's call trees on fake snapshots (no session): the trees
 * built from the one paths index equal the per-row walk they replace,
 * --no-children trees hold only a row's own samples, chain frames show
 * the return address; and, through a session, chains end at an address
 * that cannot be code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/record.h"
#include "ui/report/rowset.h"
#include "src/core/session.h"
#include "tests/testutil.h"

/* Two objects; each function is 0x100 bytes from 0x1000, and addresses
 * from 0x9000 up have no symbol. */
static struct dso dso_a = { .kind = DSO_FILE, .name = "a", .path = "/a" };
static struct dso dso_b = { .kind = DSO_FILE, .name = "b", .path = "/b" };
static const char *names[] = { "f0", "f1", "f2", "f3", "f4", "f5" };
#define NR_FN 6

static int resolve(void *ctx, const struct dso *d, u64 addr,
		   struct row_sym *out)
{
	(void)ctx;
	memset(out, 0, sizeof(*out));
	out->dso_name = d->name;
	if (addr >= 0x1000 && addr < 0x1000 + NR_FN * 0x100) {
		out->name = names[(addr - 0x1000) / 0x100];
		out->start = addr & ~0xffULL;
		out->size = 0x100;
	}
	return 0;
}

struct fake {
	struct snapshot snap;
	size_t cap_nodes;
};

/* A node under parent for (dso, addr); no sharing needed for rowset. */
static u32 node(struct fake *f, u32 parent, const struct dso *d, u64 addr)
{
	struct snapshot *s = &f->snap;

	if (s->nr_chains + 1 > s->cap_chains) {
		s->cap_chains = s->cap_chains ? s->cap_chains * 2 : 64;
		s->chains = realloc(s->chains,
				    s->cap_chains * sizeof(*s->chains));
		ck_assert_ptr_nonnull(s->chains);
	}
	s->chains[s->nr_chains] = (struct cc_node){
		.parent = parent,
		.depth = parent ? s->chains[parent].depth + 1 : 1,
		.dso = d, .addr = addr,
	};
	return (u32)s->nr_chains++;
}

/* An entry whose chain is the frames fr (root first), the last being
 * the sampled ip; chain frames are stored as return address - 1, as
 * session.c stores them. */
static void entry(struct fake *f, const struct dso *const *d, const u64 *fr,
		  size_t n, u64 period)
{
	struct snapshot *s = &f->snap;
	u32 id = 0;

	for (size_t k = 0; k < n; k++)
		id = node(f, id, d[k], fr[k] - (k + 1 < n));
	if (s->nr + 1 > s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->entries = realloc(s->entries, s->cap * sizeof(*s->entries));
		ck_assert_ptr_nonnull(s->entries);
	}
	s->entries[s->nr++] = (struct hist_entry){
		.key = { .dso = d[n - 1], .addr = fr[n - 1], .chain = id },
		.samples = 1, .period = period,
	};
	s->total_samples++;
	s->total_period += period;
}

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	snapshot__init(&f->snap);
	node(f, 0, NULL, 0);	/* the root */
	f->snap.nr_chains = 1;
}

static void fake_fini(struct fake *f)
{
	free(f->snap.entries);
	free(f->snap.chains);
}

/* Random chains through f0..f5 of two dsos, recursion included, and a
 * few frames without a symbol. */
static void fake_random(struct fake *f, unsigned int seed, size_t nr)
{
	srand(seed);
	for (size_t i = 0; i < nr; i++) {
		const struct dso *d[9];
		u64 fr[9];
		size_t n = 1 + (size_t)rand() % 8;

		for (size_t k = 0; k < n; k++) {
			d[k] = rand() % 3 ? &dso_a : &dso_b;
			if (rand() % 10 == 0)
				fr[k] = 0x9000 + (u64)(rand() % 4) * 0x10;
			else
				fr[k] = 0x1000 + (u64)(rand() % NR_FN) * 0x100 +
					0x10 + (u64)(rand() % 8);
		}
		entry(f, d, fr, n, 1 + (u64)(rand() % 5));
	}
}

/*
 * The reference: what the per-row walk computed, from the paths
 * rowset__foreach_path gives.  A path's frames are compared with the row
 * by (dso name, symbol, or the address without one); each path adds its
 * period to every prefix "a;b;c" of the part of the path the row's tree
 * shows, and the tree's nodes must hold exactly those sums.
 */
struct ref {
	const struct row *x;
	bool children;
	char keys[4096][256];
	u64 vals[4096];
	size_t nr;
};

static void frame_name(char *buf, size_t len, const struct row_sym *s)
{
	if (s->name)
		snprintf(buf, len, "%s:%s", s->dso_name, s->name);
	else
		snprintf(buf, len, "%s:0x%llx", s->dso_name,
			 (unsigned long long)s->start);
}

static bool is_row(const struct row *x, const struct row_sym *s)
{
	if (strcmp(x->dso_name, s->dso_name) != 0)
		return false;
	if (x->sym || s->name)
		return x->sym && s->name && strcmp(x->sym, s->name) == 0;
	return x->addr == s->start;
}

static void ref_add(struct ref *r, const char *key, u64 v)
{
	for (size_t i = 0; i < r->nr; i++) {
		if (strcmp(r->keys[i], key) == 0) {
			r->vals[i] += v;
			return;
		}
	}
	ck_assert_uint_lt(r->nr, 4096);
	snprintf(r->keys[r->nr], sizeof(r->keys[0]), "%s", key);
	r->vals[r->nr++] = v;
}

static int ref_path(void *ctx, const struct path_frame *fr, size_t n,
		    const struct hist_entry *e)
{
	struct ref *r = ctx;
	size_t from = SIZE_MAX;
	char key[256] = "", one[64];

	if (!e->key.chain)
		return 0;
	for (size_t k = 0; k < n && from == SIZE_MAX; k++)
		if (is_row(r->x, &fr[k].sym))
			from = k;
	if (from == SIZE_MAX)
		return 0;
	if (!r->children) {
		if (!is_row(r->x, &fr[n - 1].sym))
			return 0;
		from = 0;
	}
	if (from == n - 1)
		from = 0;
	for (size_t k = from; k < n; k++) {
		frame_name(one, sizeof(one), &fr[k].sym);
		if (k > from)
			strcat(key, ";");
		strcat(key, one);
		ref_add(r, key, e->period);
	}
	return 0;
}

/* Checks every node of t against the reference; returns the nodes. */
static size_t tree_check(const struct callgraph *t, u32 p, char *prefix,
			 const struct ref *r)
{
	size_t len = strlen(prefix), nodes = 0;

	for (u32 c = t->nodes[p].first_child; c; c = t->nodes[c].next_sibling) {
		const struct cg_node *n = &t->nodes[c];
		bool found = false;

		if (len)
			strcat(prefix, ";");
		if (n->sym)
			sprintf(prefix + strlen(prefix), "%s:%s", n->dso_name,
				n->sym);
		else
			sprintf(prefix + strlen(prefix), "%s:0x%llx",
				n->dso_name, (unsigned long long)n->addr);
		for (size_t i = 0; i < r->nr && !found; i++) {
			if (strcmp(r->keys[i], prefix) == 0) {
				ck_assert_msg(r->vals[i] == n->period,
					      "%s: %llu, want %llu", prefix,
					      (unsigned long long)n->period,
					      (unsigned long long)r->vals[i]);
				found = true;
			}
		}
		ck_assert_msg(found, "%s is not in the reference", prefix);
		nodes += 1 + tree_check(t, c, prefix, r);
		prefix[len] = '\0';
	}
	return nodes;
}

static struct ref ref;

static void check_trees(bool children)
{
	struct sort_spec spec;
	struct rowset rs;
	struct callgraph t;
	struct fake f;
	char prefix[4096];

	for (unsigned int seed = 1; seed <= 5; seed++) {
		fake_init(&f);
		fake_random(&f, seed, 300);
		sort_spec__default(&spec);
		spec.children = children;
		rowset__init(&rs);
		callgraph__init(&t);
		ck_assert_int_eq(rowset__build(&rs, &f.snap, &spec, NULL,
					       resolve, NULL), 0);
		ck_assert_uint_gt(rs.nr, 5);
		for (size_t i = 0; i < rs.nr; i++) {
			const struct row *x = &rs.rows[i];
			u64 sum = 0;

			memset(&ref, 0, sizeof(ref));
			ref.x = x;
			ref.children = children;
			ck_assert_int_eq(rowset__foreach_path(&rs, ref_path,
							      &ref), 0);
			ck_assert_int_eq(rowset__tree(&rs, x, CG_CALLER, &t),
					 0);
			prefix[0] = '\0';
			ck_assert_uint_eq(tree_check(&t, 0, prefix, &ref),
					  ref.nr);
			for (u32 c = t.nodes[0].first_child; c;
			     c = t.nodes[c].next_sibling)
				sum += t.nodes[c].period;
			/* the branches add up to the row's total: its
			 * Children, or without children its Self (the
			 * chainless samples aside) */
			ck_assert_uint_le(sum, children ? x->children_period :
							  x->period);
		}
		callgraph__fini(&t);
		rowset__fini(&rs);
		fake_fini(&f);
	}
}

START_TEST(test_trees_children)
{
	check_trees(true);
}
END_TEST

START_TEST(test_trees_no_children)
{
	check_trees(false);
}
END_TEST

/* The cancel hook (rowset__set_cancel): says yes from its Nth question */
static unsigned int cancel_asked, cancel_from;

static bool cancel_after(void *ctx)
{
	(void)ctx;
	return ++cancel_asked >= cancel_from;
}

/* A build cut short has no rows; a tree cut short says so; built again
 * without the hook, rows and trees are those of a build never cut. */
/* Children when the group key does not decide the filter: rows by
 * object, the symbol filter "f1".  An object's row counts each sample
 * once whose chain holds a frame of it in a function matching f1. */
START_TEST(test_children_filtered_frames)
{
	struct row_filter flt = { .sym_substr = "f1" };
	struct sort_spec spec;
	struct rowset rs;
	struct fake f;

	fake_init(&f);
	fake_random(&f, 7, 400);
	sort_spec__default(&spec);
	spec.group[0] = SORT_DSO;
	spec.nr_group = 1;
	spec.children = true;
	rowset__init(&rs);
	rowset__set_answers_gen(&rs, 1);
	for (int round = 0; round < 2; round++) {
		ck_assert_int_eq(rowset__build(&rs, &f.snap, &spec, &flt,
					       resolve, NULL), 0);
		ck_assert_uint_eq(rs.nr, 2);
		for (size_t r = 0; r < rs.nr; r++) {
			u64 want = 0;

			for (size_t i = 0; i < f.snap.nr; i++) {
				const struct hist_entry *e = &f.snap.entries[i];
				bool hit = false;

				for (u32 id = e->key.chain; id && !hit;
				     id = f.snap.chains[id].parent) {
					const struct cc_node *nd = &f.snap.chains[id];
					struct row_sym rsym;

					resolve(NULL, nd->dso, nd->addr, &rsym);
					hit = nd->dso == rs.rows[r].dso &&
					      rsym.name && strstr(rsym.name, "f1");
				}
				if (hit)
					want += e->period;
			}
			ck_assert_uint_gt(want, 0);
			ck_assert_uint_eq(rs.rows[r].children_period, want);
		}
	}
	rowset__fini(&rs);
	fake_fini(&f);
}
END_TEST

START_TEST(test_cancelled)
{
	struct sort_spec spec;
	struct rowset rs, ref_rs;
	struct callgraph t, rt;
	struct fake f;
	int err;

	fake_init(&f);
	fake_random(&f, 3, 300);
	sort_spec__default(&spec);
	spec.children = true;
	rowset__init(&ref_rs);
	ck_assert_int_eq(rowset__build(&ref_rs, &f.snap, &spec, NULL, resolve,
				       NULL), 0);
	/* the Children pass: cut at its second entry */
	rowset__init(&rs);
	rowset__set_cancel(&rs, cancel_after, NULL);
	cancel_asked = 0;
	cancel_from = 2;
	ck_assert_int_eq(rowset__build(&rs, &f.snap, &spec, NULL, resolve,
				       NULL), -ECANCELED);
	ck_assert_uint_eq(rs.nr, 0);
	/* the paths index the Children come from, cut half way (its
	 * entries so far have interned their keys); then built whole */
	cancel_asked = 0;
	cancel_from = 150;
	ck_assert_int_eq(rowset__build(&rs, &f.snap, &spec, NULL, resolve,
				       NULL), -ECANCELED);
	ck_assert_uint_eq(rs.nr, 0);
	cancel_from = UINT32_MAX;
	ck_assert_int_eq(rowset__build(&rs, &f.snap, &spec, NULL, resolve,
				       NULL), 0);
	ck_assert_uint_eq(rs.nr, ref_rs.nr);
	callgraph__init(&t);
	callgraph__init(&rt);
	for (size_t i = 0; i < rs.nr; i++)
		ck_assert_uint_eq(rs.rows[i].children_period,
				  ref_rs.rows[i].children_period);
	/* without children the index waits for the first tree: cut half
	 * way, the next tree goes on from where it stopped */
	spec.children = false;
	ck_assert_int_eq(rowset__build(&ref_rs, &f.snap, &spec, NULL, resolve,
				       NULL), 0);
	ck_assert_int_eq(rowset__build(&rs, &f.snap, &spec, NULL, resolve,
				       NULL), 0);
	cancel_asked = 0;
	cancel_from = 150;
	ck_assert_int_eq(rowset__tree(&rs, &rs.rows[0], CG_CALLER, &t),
			 -ECANCELED);
	rowset__set_cancel(&rs, NULL, NULL);
	for (size_t i = 0; i < rs.nr; i++) {
		ck_assert_int_eq(rowset__tree(&rs, &rs.rows[i], CG_CALLER, &t),
				 0);
		ck_assert_int_eq(rowset__tree(&ref_rs, &ref_rs.rows[i],
					      CG_CALLER, &rt), 0);
		ck_assert_uint_eq(t.nr, rt.nr);
		ck_assert_uint_eq(t.nodes[0].first_child ?
					  t.nodes[t.nodes[0].first_child].period : 0,
				  rt.nodes[0].first_child ?
					  rt.nodes[rt.nodes[0].first_child].period : 0);
	}
	/* a tree's own walk: the index is made, the hook then says yes */
	rowset__set_cancel(&rs, cancel_after, NULL);
	cancel_asked = 0;
	cancel_from = 1;
	err = rowset__tree(&rs, &rs.rows[0], CG_CALLER, &t);
	ck_assert_int_eq(err, -ECANCELED);
	callgraph__fini(&t);
	callgraph__fini(&rt);
	rowset__fini(&rs);
	rowset__fini(&ref_rs);
	fake_fini(&f);
}
END_TEST

/* f0 -> f1 -> f2 (leaf, 10) and f0 -> f2 -> f1 (leaf f1, 7): without
 * children f2's tree holds only its own 10, whole chain from f0; with
 * children it also holds the 7 of f1 below it. */
START_TEST(test_no_children_own_samples)
{
	static const struct dso *const d[] = { &dso_a, &dso_a, &dso_a };
	static const u64 p1[] = { 0x1010, 0x1110, 0x1210 },
			 p2[] = { 0x1010, 0x1210, 0x1110 };
	struct sort_spec spec;
	struct rowset rs;
	struct callgraph t;
	struct fake f;

	for (int children = 0; children <= 1; children++) {
		const struct row *x = NULL;
		u64 sum = 0;

		fake_init(&f);
		entry(&f, d, p1, 3, 10);
		entry(&f, d, p2, 3, 7);
		sort_spec__default(&spec);
		spec.children = children;
		rowset__init(&rs);
		callgraph__init(&t);
		ck_assert_int_eq(rowset__build(&rs, &f.snap, &spec, NULL,
					       resolve, NULL), 0);
		for (size_t i = 0; i < rs.nr; i++)
			if (rs.rows[i].sym && !strcmp(rs.rows[i].sym, "f2"))
				x = &rs.rows[i];
		ck_assert_ptr_nonnull(x);
		ck_assert_int_eq(rowset__tree(&rs, x, CG_CALLER, &t), 0);
		for (u32 c = t.nodes[0].first_child; c;
		     c = t.nodes[c].next_sibling)
			sum += t.nodes[c].period;
		ck_assert_uint_eq(sum, children ? 17 : 10);
		/* without children: one branch, f0 at the top */
		if (!children) {
			u32 c = t.nodes[0].first_child;

			ck_assert_str_eq(t.nodes[c].sym, "f0");
			ck_assert_uint_eq(t.nodes[c].next_sibling, 0);
		}
		callgraph__fini(&t);
		rowset__fini(&rs);
		fake_fini(&f);
	}
}
END_TEST

/* --inline's rows: "g" is inlined in f1's code at 0x1140..0x117f and in
 * f3's at 0x1300..0x133f; "h" inside g in f1 only.  A sample's chain
 * through both (and a recursive one through f1 twice) counts once per
 * row; the rows have no self cost, are grouped by name across f1 and
 * f3, and are not made without children or without fn. */
static const char *inl_g = "g", *inl_h = "h";

static size_t rows_inlines(void *ctx, const struct dso *d, u64 addr,
			   const char **out, size_t max)
{
	size_t n = 0;

	(void)ctx;
	if (d != &dso_a || max < 2)
		return 0;
	if (addr >= 0x1140 && addr < 0x1180) {
		out[n++] = inl_h;	/* innermost first */
		out[n++] = inl_g;
	} else if (addr >= 0x1300 && addr < 0x1340) {
		out[n++] = inl_g;
	}
	return n;
}

/* The row of function sym, inlined or not; NULL when there is none. */
static const struct row *find_row(const struct rowset *rs, const char *sym,
				  bool inlined)
{
	for (size_t i = 0; i < rs->nr; i++)
		if (rs->rows[i].inlined == inlined && rs->rows[i].sym &&
		    !strcmp(rs->rows[i].sym, sym))
			return &rs->rows[i];
	return NULL;
}

START_TEST(test_inline_rows)
{
	static const struct dso *const d[] = { &dso_a, &dso_a, &dso_a,
					       &dso_a };
	/* f0 -> f1 (in g, h) -> f2: 10; f0 -> f3 (in g) -> f2: 4;
	 * f0 -> f1 (in g, h) -> f1 (in g, h) leaf: 3; f0 -> f2 leaf: 5 */
	static const u64 p1[] = { 0x1010, 0x1151, 0x1210 },
			 p2[] = { 0x1010, 0x1311, 0x1210 },
			 p3[] = { 0x1010, 0x1151, 0x1150 },
			 p4[] = { 0x1010, 0x1210 };
	struct sort_spec spec;
	struct rowset rs;
	struct fake f;

	for (int mode = 0; mode < 3; mode++) {
		const struct row *g, *h, *f1;

		fake_init(&f);
		entry(&f, d, p1, 3, 10);
		entry(&f, d, p2, 3, 4);
		entry(&f, d, p3, 3, 3);
		entry(&f, d, p4, 2, 5);
		sort_spec__default(&spec);
		spec.children = mode != 1;
		rowset__init(&rs);
		if (mode != 2)
			rowset__set_inline_rows(&rs, rows_inlines, NULL);
		ck_assert_int_eq(rowset__build(&rs, &f.snap, &spec, NULL,
					       resolve, NULL), 0);
		g = find_row(&rs, "g", true);
		h = find_row(&rs, "h", true);
		f1 = find_row(&rs, "f1", false);
		ck_assert_ptr_nonnull(f1);
		if (mode != 0) {
			ck_assert_ptr_null(g);
			ck_assert_ptr_null(h);
		} else {
			ck_assert_ptr_nonnull(g);
			ck_assert_ptr_nonnull(h);
			ck_assert_uint_eq(g->children_period, 10 + 4 + 3);
			ck_assert_uint_eq(h->children_period, 10 + 3);
			ck_assert_uint_eq(g->period, 0);
			ck_assert_uint_eq(h->period, 0);
			ck_assert_uint_eq(f1->children_period, 10 + 3);
			ck_assert_uint_eq(f1->period, 3);
			ck_assert(!f1->inlined);
		}
		rowset__fini(&rs);
		fake_fini(&f);
	}
}
END_TEST

/* An entry folded to its function (hist_key.whole) shows no inlined
 * function: put where g and h are inlined, beside an entry of the same
 * address that is not folded, only the latter counts for g and h. */
START_TEST(test_inline_rows_whole)
{
	static const struct dso *const d[] = { &dso_a };
	static const u64 at[] = { 0x1140 };
	struct sort_spec spec;
	struct rowset rs;
	struct fake f;
	const struct row *g, *h, *f1;

	fake_init(&f);
	entry(&f, d, at, 1, 5);
	entry(&f, d, at, 1, 7);
	f.snap.entries[0].key.chain = f.snap.entries[1].key.chain = 0;
	f.snap.entries[1].key.whole = 1;
	sort_spec__default(&spec);
	spec.children = true;
	rowset__init(&rs);
	rowset__set_inline_rows(&rs, rows_inlines, NULL);
	ck_assert_int_eq(rowset__build(&rs, &f.snap, &spec, NULL, resolve,
				       NULL),
			 0);
	g = find_row(&rs, "g", true);
	h = find_row(&rs, "h", true);
	f1 = find_row(&rs, "f1", false);
	ck_assert_ptr_nonnull(f1);
	ck_assert_ptr_nonnull(g);
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(f1->period, 12);
	ck_assert_uint_eq(g->children_period, 5);
	ck_assert_uint_eq(h->children_period, 5);
	rowset__fini(&rs);
	fake_fini(&f);
}
END_TEST

/* A chain frame without a symbol shows the return address (perf's),
 * in rows, trees and paths; the sampled ip shows itself. */
static u64 path_addr;

static int first_frame(void *ctx, const struct path_frame *fr, size_t n,
		       const struct hist_entry *e)
{
	(void)ctx;
	(void)e;
	if (n == 2)
		path_addr = fr[0].sym.start;
	return 0;
}

START_TEST(test_unresolved_return_address)
{
	static const struct dso *const d[] = { &dso_b, &dso_a };
	static const u64 p[] = { 0x9020, 0x1010 };
	struct sort_spec spec;
	struct rowset rs;
	struct callgraph t;
	struct fake f;
	bool row = false;

	fake_init(&f);
	entry(&f, d, p, 2, 5);
	ck_assert_uint_eq(f.snap.chains[1].addr, 0x901f);	/* stored - 1 */
	sort_spec__default(&spec);
	spec.children = true;
	rowset__init(&rs);
	callgraph__init(&t);
	ck_assert_int_eq(rowset__build(&rs, &f.snap, &spec, NULL, resolve,
				       NULL), 0);
	for (size_t i = 0; i < rs.nr; i++) {
		if (rs.rows[i].sym)
			continue;
		ck_assert_uint_eq(rs.rows[i].addr, 0x9020);
		row = true;
		ck_assert_int_eq(rowset__tree(&rs, &rs.rows[i], CG_CALLER, &t),
				 0);
		ck_assert_uint_eq(t.nodes[t.nodes[0].first_child].addr, 0x9020);
	}
	ck_assert(row);
	ck_assert_int_eq(rowset__foreach_path(&rs, first_frame, NULL), 0);
	ck_assert_uint_eq(path_addr, 0x9020);
	callgraph__fini(&t);
	rowset__fini(&rs);
	fake_fini(&f);
}
END_TEST

/* The one path of test_deep_path: its length and outer and inner names. */
static size_t deep_n;
static const char *deep_first, *deep_last;

static int deep_path(void *ctx, const struct path_frame *fr, size_t n,
		     const struct hist_entry *e)
{
	(void)ctx;
	(void)e;
	deep_n = n;
	deep_first = fr[0].sym.name;
	deep_last = fr[n - 1].sym.name;
	return 0;
}

/* A chain deeper than a path keeps: the path is its MAX_PATH_FRAMES
 * innermost frames, the leaf last (pprof's Samples keep as many:
 * check_pprof's test_deep_chain). */
START_TEST(test_deep_path)
{
	enum { EXTRA = 37, N = MAX_PATH_FRAMES + EXTRA };
	static const struct dso *d[N];
	static u64 fr[N];
	struct sort_spec spec;
	struct rowset rs;
	struct fake f;

	fake_init(&f);
	for (size_t k = 0; k < N; k++) {
		d[k] = &dso_a;
		fr[k] = 0x1000 + (u64)(k % NR_FN) * 0x100 + 0x20;
	}
	entry(&f, d, fr, N, 1);
	sort_spec__default(&spec);
	spec.children = true;
	rowset__init(&rs);
	ck_assert_int_eq(rowset__build(&rs, &f.snap, &spec, NULL, resolve,
				       NULL), 0);
	deep_n = 0;
	ck_assert_int_eq(rowset__foreach_path(&rs, deep_path, NULL), 0);
	ck_assert_uint_eq(deep_n, MAX_PATH_FRAMES);
	/* the outermost EXTRA frames left out, not one more or less */
	ck_assert_str_eq(deep_first, names[EXTRA % NR_FN]);
	ck_assert_str_eq(deep_last, names[(N - 1) % NR_FN]);
	rowset__fini(&rs);
	fake_fini(&f);
}
END_TEST

/* Through a session: 0x0, 0x1 and -1 end the chain (the frames beyond
 * them too); a return address of 0x1000 stays. */
#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

/* The deepest chain of a session fed pid 10's sample with the user
 * chain { ip, 0x402020, third, 0x403030 } (ip 0x401010), after an
 * executable map of [0x400000, 0x410000) when mapped. */
static u32 chain_depth(u64 third, bool mapped)
{
	static u64 buf[1024];
	struct session_opts o = { .max_stack = 64 };
	u64 chain[] = { (u64)PERF_CONTEXT_USER, 0x401010, 0x402020, third,
			0x403030 };
	struct fake_sample fs = { .pid = 10, .tid = 10, .time = 1,
				  .period = 1, .ip = 0x401010,
				  .misc = PERF_RECORD_MISC_USER,
				  .callchain = chain,
				  .nr_callchain = ARRAY_SIZE(chain) };
	struct perf_event_attr a;
	struct snapshot snap;
	struct session *s;
	u32 depth = 0;

	memset(&a, 0, sizeof(a));
	a.sample_type = ST;
	a.sample_id_all = 1;
	s = session__new(&o);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	if (mapped)
		ck_assert_int_eq(session__process(s, fake_mmap2(buf, 10,
				0x400000, 0x10000, 0, "/usr/bin/w", NULL, 0,
				record__id_trailer_size(ST, true))), 0);
	ck_assert_int_eq(session__process(s, fake_sample(buf, ST, &fs)), 0);
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	for (size_t i = 0; i < snap.nr; i++)
		if (snap.entries[i].key.chain)
			depth = MAX(depth,
				    snap.chains[snap.entries[i].key.chain].depth);
	snapshot__fini(&snap);
	session__free(s);
	return depth;
}

START_TEST(test_garbage_frames_end_chains)
{
	static const u64 garbage[] = { 0x0, 0x1, 0xfff, ~0ULL,
				       0xfffffffffffff001ULL };

	/* ip, a return address, the garbage, one more */
	for (size_t g = 0; g < ARRAY_SIZE(garbage); g++)
		ck_assert_uint_eq(chain_depth(garbage[g], false), 2);
	ck_assert_uint_eq(chain_depth(0x1000, false), 4);
}
END_TEST

/* A return address in none of the maps of a process whose maps are
 * known ends the chain (the walk read stack data); in a process whose
 * maps are not known, it is an [unknown] frame, the chain goes on. */
START_TEST(test_unmapped_frames_end_chains)
{
	ck_assert_uint_eq(chain_depth(0x9000000, true), 2);
	ck_assert_uint_eq(chain_depth(0x404040, true), 4);
	ck_assert_uint_eq(chain_depth(0x9000000, false), 4);
}
END_TEST

Suite *rowset_suite(void)
{
	Suite *su = suite_create("rowset");
	TCase *tc = tcase_create("trees");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_trees_children);
	tcase_add_test(tc, test_trees_no_children);
	tcase_add_test(tc, test_no_children_own_samples);
	tcase_add_test(tc, test_inline_rows);
	tcase_add_test(tc, test_inline_rows_whole);
	tcase_add_test(tc, test_unresolved_return_address);
	tcase_add_test(tc, test_garbage_frames_end_chains);
	tcase_add_test(tc, test_unmapped_frames_end_chains);
	tcase_add_test(tc, test_cancelled);
	tcase_add_test(tc, test_children_filtered_frames);
	tcase_add_test(tc, test_deep_path);
	suite_add_tcase(su, tc);
	return su;
}
