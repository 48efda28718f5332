/* callgraph: the call-graph trees of a row (perf's graph: the chains
 * through its function, callers or callees first) and every sample's
 * path, from the paths index (pure). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/rowset.h"
#include "ui/report/rowset_internal.h"

void callgraph__init(struct callgraph *t)
{
	memset(t, 0, sizeof(*t));
}

void callgraph__fini(struct callgraph *t)
{
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

/* The child of parent showing sym, created if needed; 0 on ENOMEM. */
static u32 callgraph__child(struct callgraph *t, u32 parent, const struct dso *dso,
			  const struct row_sym *sym, u64 addr, bool inlined)
{
	u32 c;

	for (c = t->nodes[parent].first_child; c; c = t->nodes[c].next_sibling) {
		const struct cg_node *n = &t->nodes[c];

		/* a function by its start (overloads share a name, as in
		 * perf, which merges chain entries by symbol address); an
		 * inlined one by its name; no symbol: the address */
		if (n->dso_name == sym->dso_name && n->sym == sym->name &&
		    n->inlined == inlined &&
		    (sym->name ? inlined || n->addr == sym->start :
				 n->addr == addr))
			return c;
	}
	if (t->nr >= UINT32_MAX ||
	    array__grow((void **)&t->nodes, &t->cap, t->nr + 1,
			sizeof(*t->nodes)))
		return 0;
	c = (u32)t->nr++;
	t->nodes[c] = (struct cg_node){
		.sym = sym->name,
		.dso_name = sym->dso_name,
		.dso = dso,
		.addr = sym->name ? sym->start : addr,
		.kernel = dso->kind == DSO_KERNEL,
		.inlined = inlined,
		.parent = parent,
		.next_sibling = t->nodes[parent].first_child,
		.depth = t->nodes[parent].depth + 1,
	};
	t->nodes[parent].first_child = c;
	return c;
}

static int cg_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct callgraph *t = ctx;
	const struct cg_node *a = &t->nodes[*(const u32 *)pa];
	const struct cg_node *b = &t->nodes[*(const u32 *)pb];

	int c;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	/* ties by name, not by the order of the snapshot's hash table
	 * (which moves with the addresses of dsos and strings) */
	c = cmp_str(a->sym, b->sym);
	if (!c)
		c = cmp_str(a->dso_name, b->dso_name);
	if (c)
		return c;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->inlined != b->inlined)
		return a->inlined ? 1 : -1;
	return *(const u32 *)pa < *(const u32 *)pb ? -1 : 1;
}

/* Orders every node's children by period, largest first. */
static int callgraph__sort(struct callgraph *t)
{
	u32 *kids = NULL;
	size_t cap = 0;

	for (size_t p = 0; p < t->nr; p++) {
		size_t n = 0;

		for (u32 c = t->nodes[p].first_child; c; c = t->nodes[c].next_sibling) {
			if (array__grow((void **)&kids, &cap, n + 1, sizeof(*kids))) {
				free(kids);
				return -ENOMEM;
			}
			kids[n++] = c;
		}
		if (n < 2)
			continue;
		qsort_r(kids, n, sizeof(*kids), cg_cmp, t);
		t->nodes[p].first_child = kids[0];
		for (size_t i = 0; i < n; i++)
			t->nodes[kids[i]].next_sibling = i + 1 < n ? kids[i + 1] : 0;
	}
	free(kids);
	return 0;
}

/*
 * What a frame of a path shows: the function, then the functions fn
 * says are inlined in it at its address, outermost first (out[0] is the
 * function).  Trees and paths both expand frames here.  Lookups use the
 * frame's address (a return address minus one); a frame without a
 * symbol shows the address perf shows.
 */
static size_t frame__expand(const struct fsym *f, bool chain, cg_inline_fn fn,
			    void *ctx, struct path_frame out[MAX_INLINE + 1])
{
	const char *names[MAX_INLINE];
	const struct row_sym *fr = &f->sym;
	size_t n = fr->name && fn && !f->whole ?
			   fn(ctx, f->dso, f->addr, names, MAX_INLINE) :
			   0;

	if (n > MAX_INLINE)
		n = MAX_INLINE;
	out[0] = (struct path_frame){ .sym = *fr, .dso = f->dso };
	if (!fr->name)
		out[0].sym.start = frame__show(f->addr, chain);
	/* names are innermost first */
	for (size_t k = 1; k <= n; k++)
		out[k] = (struct path_frame){
			.sym = { .name = names[n - k],
				 .dso_name = fr->dso_name, .start = f->addr },
			.dso = f->dso,
			.inlined = true,
		};
	return n + 1;
}

/* Adds a frame of a path below *node, expanded (frame__expand); in
 * callee order, where the path runs from the leaf up, reversed.  Counts
 * go to the path's last node only (callgraph__sum adds them up). */
static int callgraph__add_frame(struct callgraph *t, u32 *node,
			      const struct fsym *f, bool chain,
			      enum cg_order order, cg_inline_fn fn, void *ctx)
{
	struct path_frame ex[MAX_INLINE + 1];
	size_t n = frame__expand(f, chain, fn, ctx, ex);

	for (size_t k = 0; k < n; k++) {
		size_t i = order == CG_CALLER ? k : n - 1 - k;

		*node = callgraph__child(t, *node, f->dso, &ex[i].sym,
				       ex[i].sym.start, ex[i].inlined);
		if (!*node)
			return -ENOMEM;
	}
	return 0;
}

/* Each node's counts, held by the paths that end there, become those of
 * the paths through it: children are made after their parent, so one
 * pass from the last node up adds every subtree into its root. */
static void callgraph__sum(struct callgraph *t)
{
	for (size_t c = t->nr - 1; c > 0; c--) {
		struct cg_node *n = &t->nodes[c];

		if (n->parent) {
			t->nodes[n->parent].samples += n->samples;
			t->nodes[n->parent].period += n->period;
		}
	}
}

int rowset__tree(struct rowset *rs, const struct row *x, enum cg_order order,
		 struct callgraph *t)
{
	return rowset__tree_inline(rs, x, order, NULL, NULL, t);
}

/* The key id of row x in the paths index; NONE: in no path. */
int rowset__key_of(struct rowset *rs, const struct row *x, u32 *kx)
{
	struct group_key gx;
	int err = rowset__index(rs);

	if (err)
		return err;
	group_key__make(&gx, &rs->spec, x);
	*kx = memo__key(rs->memo, &gx, false);
	return 0;
}

/*
 * Caller-order trees walk the chains' trie: every sample through a trie
 * node (a chain prefix) reaches the same tree node there, since the
 * prefix decides where the row's path starts (its outermost frame of the
 * row, or the chain's root when the row is only the leaf).  The tree
 * node of each interior prefix is marked once per tree, and a path is
 * added from its deepest marked prefix: per tree, a trie node's frames
 * are expanded once, not once per sample path through it (100K chains
 * of 35 frames under main: 3.5M lookups become the trie's nodes).
 */
static int rowset__tree_marks(struct rowset *rs)
{
	struct rowset_memo *m = rs->memo;
	size_t want = rs->snap->nr_chains ? rs->snap->nr_chains : 1;

	if (array__grow((void **)&m->tnode, &m->cap_tnode, want,
			sizeof(*m->tnode)) ||
	    array__grow((void **)&m->tmark, &m->cap_tmark, want,
			sizeof(*m->tmark)))
		return -ENOMEM;
	if (m->nr_tmark < want) {
		memset(m->tmark + m->nr_tmark, 0,
		       (want - m->nr_tmark) * sizeof(*m->tmark));
		m->nr_tmark = want;
	}
	if (++m->tree_mark == 0) {
		memset(m->tmark, 0, m->nr_tmark * sizeof(*m->tmark));
		m->tree_mark = 1;
	}
	return 0;
}

/* Entry e's path from frame from to its leaf (fs: its n frames, root
 * first), in caller order; *node: where it ends. */
static int rowset__tree_caller(struct rowset *rs, struct callgraph *t,
			       const struct hist_entry *e, const u32 *fs,
			       size_t n, size_t from, cg_inline_fn fn,
			       void *ctx, u32 *node)
{
	struct rowset_memo *m = rs->memo;
	const struct snapshot *snap = rs->snap;
	u32 ids[MAX_PATH_FRAMES], id = e->key.chain;
	size_t j = from;
	int err;

	/* The leaf's trie node stands for frames [0, n): the index kept
	 * every frame of the chain (none past MAX_PATH_FRAMES dropped) */
	if (id < snap->nr_chains && snap->chains[id].depth == n) {
		struct cc_walk w;

		/* from the leaf's caller up to the deepest marked prefix:
		 * a leaf at depth n has n - 1 callers, frames [0, n - 1) */
		snapshot__callers(&w, snap, id);
		for (size_t p = n - 1; p-- > from && cc_walk__next(&w);) {
			if (m->tmark[w.id] == m->tree_mark) {
				*node = m->tnode[w.id];
				j = p + 1;
				break;
			}
			ids[p] = w.id;
		}
		for (; j + 1 < n; j++) {
			err = callgraph__add_frame(t, node, &m->fs[fs[j]], true,
						 CG_CALLER, fn, ctx);
			if (err)
				return err;
			m->tmark[ids[j]] = m->tree_mark;
			m->tnode[ids[j]] = *node;
		}
	}
	for (; j < n; j++) {
		err = callgraph__add_frame(t, node, &m->fs[fs[j]], j + 1 < n,
					 CG_CALLER, fn, ctx);
		if (err)
			return err;
	}
	return 0;
}

int rowset__tree_inline(struct rowset *rs, const struct row *x,
			enum cg_order order, cg_inline_fn fn, void *ctx,
			struct callgraph *t)
{
	const struct snapshot *snap = rs->snap;
	struct rowset_memo *m = rs->memo;
	u32 kx;
	int err;

	t->nr = 0;
	if (array__grow((void **)&t->nodes, &t->cap, 1, sizeof(*t->nodes)))
		return -ENOMEM;
	memset(&t->nodes[0], 0, sizeof(t->nodes[0]));
	t->nr = 1;
	t->total_samples = x->children_samples ? x->children_samples : x->samples;
	t->total_period = x->children_period ? x->children_period : x->period;
	if (!snap || !m)
		return 0;
	err = rowset__key_of(rs, x, &kx);
	if (err)
		return err;
	if (kx == NONE)
		return 0;
	rowset__prefetch_inlines(rs, fn, ctx);
	if (order == CG_CALLER && rowset__tree_marks(rs))
		return -ENOMEM;
	for (u32 o = m->key_off[kx]; o < m->key_off[kx + 1]; o++) {
		u32 i = m->occ_ent[o], off = m->ent_off[i];
		const struct hist_entry *e = &snap->entries[i];
		const u32 *fs = m->fr_fs + off;
		size_t n = m->ent_off[i + 1] - off, from = m->occ_from[o];
		u32 node = 0;

		if (!e->key.chain)
			continue;
		if (rowset__cancelled(rs))
			return -ECANCELED;
		/* Self only (--no-children): the caller chains of its own
		 * samples, as perf report --no-children -G shows them. */
		if (!rs->spec.children) {
			if (path_key(m, off, n - 1, n) != kx)
				continue;
			from = 0;
		}
		/* its own samples: the whole chain; its callees': from x */
		if (from == n - 1)
			from = 0;
		if (order == CG_CALLER)
			err = rowset__tree_caller(rs, t, e, fs, n, from, fn,
						  ctx, &node);
		else
			for (size_t j = n; j-- > from && !err;)
				err = callgraph__add_frame(t, &node, &m->fs[fs[j]],
							 j + 1 < n, order, fn,
							 ctx);
		if (err)
			return err;
		t->nodes[node].samples += e->samples;
		t->nodes[node].period += e->period;
	}
	callgraph__sum(t);
	return callgraph__sort(t);
}

int rowset__foreach_path(struct rowset *rs, row_path_fn fn, void *ctx)
{
	return rowset__foreach_path_inline(rs, NULL, NULL, fn, ctx);
}

int rowset__foreach_path_inline(struct rowset *rs, cg_inline_fn inl,
				void *inl_ctx, row_path_fn fn, void *ctx)
{
	const struct snapshot *snap = rs->snap;
	struct rowset_memo *m = rs->memo;
	struct path_frame *path = NULL;
	size_t cap = 0;
	int err;

	if (!snap || !m)
		return 0;
	err = rowset__index(rs);
	if (!err)
		rowset__prefetch_inlines(rs, inl, inl_ctx);
	for (size_t i = 0; i < snap->nr && !err; i++) {
		u32 off = m->ent_off[i];
		size_t n = m->ent_off[i + 1] - off, np = 0;

		if (!n)
			continue;	/* zoomed out */
		for (size_t j = 0; j < n && !err; j++) {
			if (array__grow((void **)&path, &cap,
					np + MAX_INLINE + 1, sizeof(*path)))
				err = -ENOMEM;
			else
				np += frame__expand(&m->fs[m->fr_fs[off + j]],
						    j + 1 < n, inl, inl_ctx,
						    path + np);
		}
		if (!err)
			err = fn(ctx, path, np, &snap->entries[i]);
	}
	free(path);
	return err;
}

