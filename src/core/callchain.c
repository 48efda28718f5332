/* callchain: the interned call chains of a session, as a trie (pure). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/callchain.h"
#include "src/core/idindex.h"

/* The nodes a trie has room for at first, in its array and its index,
 * and keeps room for when retain drops nodes. */
#define MIN_NODES 1024

struct callchains {
	struct cc_node *nodes;
	size_t nr, cap;
	struct idindex ix;	/* (parent, dso, addr) -> node id, but 0 */
};

static u64 node__hash(u32 parent, const struct dso *dso, u64 addr)
{
	return hash_u64(addr * 0x9e3779b97f4a7c15ULL ^
			(u64)(uintptr_t)dso * 31 ^ ((u64)parent << 17));
}

static u64 id__hash(const void *ctx, u32 id)
{
	const struct cc_node *nd = &((const struct callchains *)ctx)->nodes[id];

	return node__hash(nd->parent, nd->dso, nd->addr);
}

struct callchains *callchains__new(void)
{
	struct callchains *cc = calloc(1, sizeof(*cc));

	if (!cc)
		return NULL;
	idindex__init(&cc->ix);
	callchains__reset(cc);
	if (!cc->nodes) {
		free(cc);
		errno = ENOMEM;
		return NULL;
	}
	return cc;
}

void callchains__free(struct callchains *cc)
{
	if (!cc)
		return;
	free(cc->nodes);
	idindex__fini(&cc->ix);
	free(cc);
}

void callchains__reset(struct callchains *cc)
{
	free(cc->nodes);
	idindex__fini(&cc->ix);
	cc->cap = MIN_NODES;
	cc->nodes = calloc(cc->cap, sizeof(*cc->nodes));
	if (!cc->nodes || idindex__reserve(&cc->ix, MIN_NODES, id__hash, cc)) {
		free(cc->nodes);
		cc->nodes = NULL;
		cc->cap = 0;
	}
	cc->nr = cc->nodes ? 1 : 0;	/* the root */
}

int callchains__retain(struct callchains *cc, u32 *map)
{
	size_t kept = 1;
	struct cc_node *nodes;
	struct idindex ix;

	if (!cc->nodes)
		return 0;
	/* a child's id is above its parent's: from the leaves down, each
	 * kept node keeps its parent */
	for (size_t id = cc->nr; id-- > 1;)
		if (map[id])
			map[cc->nodes[id].parent] = 1;
	for (size_t id = 1; id < cc->nr; id++)
		kept += map[id] != 0;
	idindex__init(&ix);
	if (idindex__reserve(&ix, MAX(kept + 1, (size_t)MIN_NODES), id__hash,
			     cc))
		return -ENOMEM;
	map[0] = 0;
	kept = 1;
	for (size_t id = 1; id < cc->nr; id++) {
		struct cc_node nd = cc->nodes[id];

		if (!map[id])
			continue;
		nd.parent = map[nd.parent];
		map[id] = (u32)kept;
		cc->nodes[kept++] = nd;
	}
	cc->nr = kept;
	/* what the dropped nodes held goes back (MIN_NODES: reset's) */
	if (cc->cap > MIN_NODES && cc->cap > kept * 2) {
		size_t cap = MAX(kept * 3 / 2, (size_t)MIN_NODES);

		nodes = realloc(cc->nodes, cap * sizeof(*nodes));
		if (nodes) {
			cc->nodes = nodes;
			cc->cap = cap;
		}
	}
	idindex__fini(&cc->ix);
	cc->ix = ix;
	for (size_t id = 1; id < cc->nr; id++)
		idindex__add(&cc->ix, id__hash(cc, (u32)id), (u32)id);
	return 0;
}

u32 callchains__intern(struct callchains *cc, u32 parent,
		       const struct dso *dso, u64 addr)
{
	u64 h;
	size_t j;
	u32 id;

	if (!cc->nodes || parent >= cc->nr || cc->nr >= IDINDEX_NONE)
		return 0;
	h = node__hash(parent, dso, addr);
	for (j = idindex__first(&cc->ix, h);
	     (id = idindex__at(&cc->ix, j)) != IDINDEX_NONE;
	     j = idindex__next(&cc->ix, j)) {
		const struct cc_node *nd = &cc->nodes[id];

		if (nd->parent == parent && nd->dso == dso && nd->addr == addr)
			return id;
	}
	if (array__grow((void **)&cc->nodes, &cc->cap, cc->nr + 1,
			sizeof(*cc->nodes)) ||
	    idindex__reserve(&cc->ix, 1, id__hash, cc))
		return 0;
	id = (u32)cc->nr++;
	cc->nodes[id] = (struct cc_node){
		.parent = parent,
		.depth = cc->nodes[parent].depth + 1,
		.dso = dso,
		.addr = addr,
	};
	idindex__add(&cc->ix, h, id);
	return id;
}

size_t callchains__nr(const struct callchains *cc)
{
	return cc->nr;
}

const struct cc_node *callchains__node(const struct callchains *cc, u32 id)
{
	return id < cc->nr ? &cc->nodes[id] : NULL;
}

const struct cc_node *callchains__nodes(const struct callchains *cc,
					size_t *nr)
{
	*nr = cc->nr;
	return cc->nodes;
}

size_t callchains__bytes(const struct callchains *cc)
{
	return sizeof(*cc) + cc->cap * sizeof(*cc->nodes) +
	       idindex__bytes(&cc->ix);
}

int callchains__copy(const struct callchains *cc, struct cc_node **out,
		     size_t *cap, size_t *nr)
{
	if (array__grow((void **)out, cap, cc->nr ? cc->nr : 1, sizeof(**out)))
		return -ENOMEM;
	memcpy(*out, cc->nodes, cc->nr * sizeof(**out));
	*nr = cc->nr;
	return 0;
}
