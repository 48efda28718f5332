/* callchain: the interned call chains of a session, as a trie (pure). */
#ifndef PTOP_CALLCHAIN_H
#define PTOP_CALLCHAIN_H

#include "src/core/dso.h"
#include "src/core/util.h"

/*
 * Every sampled chain is a path from the root (the outermost caller) to a
 * leaf (the sampled instruction).  Equal prefixes share nodes, so a chain
 * is one u32: the id of its leaf node, which the histogram key carries.
 * Node 0 is the root and stands for "no chain".  Frames are in the key
 * space of their dso (file offset, or ip for kernel/anon code); return
 * addresses are stored minus one, so that they fall inside the call
 * instruction and resolve to the caller even after a noreturn call.
 */
struct cc_node {
	u32 parent;
	u32 depth;		/* root: 0 */
	const struct dso *dso;
	u64 addr;
};

struct callchains;

struct callchains *callchains__new(void);
void callchains__free(struct callchains *cc);
/* The node for frame (dso, addr) under parent; 0 on ENOMEM. */
u32 callchains__intern(struct callchains *cc, u32 parent,
		       const struct dso *dso, u64 addr);
size_t callchains__nr(const struct callchains *cc);
const struct cc_node *callchains__node(const struct callchains *cc, u32 id);
/* The nodes [0, *nr) as one table (for cc_walk): valid until the next
 * intern, retain or reset. */
const struct cc_node *callchains__nodes(const struct callchains *cc,
					size_t *nr);
/* Forgets every chain (the ids handed out become invalid). */
void callchains__reset(struct callchains *cc);
size_t callchains__bytes(const struct callchains *cc);

/*
 * Keeps the nodes map marks and their ancestors, drops the others (the
 * memory budget's fold: session__set_budget).  map has callchains__nr
 * slots; in: nonzero for a node to keep; out: map[old id] = its new id,
 * 0 for a dropped node (ids stay in the order they came, so a parent's
 * id stays below its children's).  The arrays shrink to fit.  0, or
 * -ENOMEM with the trie unchanged and map undefined.
 */
int callchains__retain(struct callchains *cc, u32 *map);

/* A copy of the nodes [0, nr) for a snapshot: read without the lock. */
int callchains__copy(const struct callchains *cc, struct cc_node **out,
		     size_t *cap, size_t *nr);

/*
 * The one walk of a chain: its nodes innermost first, up a table of
 * nodes (a snapshot's copy, snapshot__callers; the timeline's or the
 * session's trie) to the outermost caller.  cc_walk__callers leaves the
 * leaf out: it is the sampled address, which the histogram entry holds
 * as its own; cc_walk__from starts at the node itself.  An id outside
 * [1, nr) ends the walk, so a chain the table does not hold has no
 * frames.  Allocation-free: the walk is a few words on the caller's
 * stack.
 *
 *	struct cc_walk w;
 *	const struct cc_node *nd;
 *
 *	cc_walk__callers(&w, snap->chains, snap->nr_chains, e->key.chain);
 *	while ((nd = cc_walk__next(&w)))
 *		use(w.id, nd);		(w.id: nd's id)
 */
struct cc_walk {
	const struct cc_node *nodes;
	size_t nr;
	u32 id;		/* the node next returned last */
	u32 up;		/* the node it returns next */
};

static inline void cc_walk__from(struct cc_walk *w,
				 const struct cc_node *nodes, size_t nr, u32 id)
{
	w->nodes = nodes;
	w->nr = nr;
	w->id = 0;
	w->up = id;
}

static inline void cc_walk__callers(struct cc_walk *w,
				    const struct cc_node *nodes, size_t nr,
				    u32 leaf)
{
	cc_walk__from(w, nodes, nr,
		      leaf && leaf < nr ? nodes[leaf].parent : 0);
}

/* The next node, NULL past the outermost (and from then on). */
static inline const struct cc_node *cc_walk__next(struct cc_walk *w)
{
	const struct cc_node *nd;

	if (!w->up || w->up >= w->nr)
		return NULL;
	w->id = w->up;
	nd = &w->nodes[w->id];
	w->up = nd->parent;
	return nd;
}

#endif
