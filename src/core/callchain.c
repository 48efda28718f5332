/* callchain: the interned call chains of a session, as a trie (pure). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/callchain.h"

struct callchains {
	struct cc_node *nodes;
	size_t nr, cap;
	u32 *slots;		/* hash of (parent, dso, addr) -> node id */
	size_t nslots;
};

static u64 node__hash(u32 parent, const struct dso *dso, u64 addr)
{
	return hash_u64(addr * 0x9e3779b97f4a7c15ULL ^
			(u64)(uintptr_t)dso * 31 ^ ((u64)parent << 17));
}

struct callchains *callchains__new(void)
{
	struct callchains *cc = calloc(1, sizeof(*cc));

	if (!cc)
		return NULL;
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
	free(cc->slots);
	free(cc);
}

void callchains__reset(struct callchains *cc)
{
	free(cc->nodes);
	free(cc->slots);
	cc->cap = 1024;
	cc->nodes = calloc(cc->cap, sizeof(*cc->nodes));
	cc->nslots = 2048;
	cc->slots = calloc(cc->nslots, sizeof(*cc->slots));
	if (!cc->nodes || !cc->slots) {
		free(cc->nodes);
		free(cc->slots);
		cc->nodes = NULL;
		cc->slots = NULL;
		cc->cap = cc->nslots = 0;
	}
	cc->nr = cc->nodes ? 1 : 0;	/* the root */
}

/* The slots' table anew, n slots (a power of two, over twice nr). */
static void callchains__index(struct callchains *cc, u32 *slots, size_t n)
{
	for (size_t id = 1; id < cc->nr; id++) {
		const struct cc_node *nd = &cc->nodes[id];
		size_t j = node__hash(nd->parent, nd->dso, nd->addr) & (n - 1);

		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = (u32)id;
	}
	free(cc->slots);
	cc->slots = slots;
	cc->nslots = n;
}

static int callchains__rehash(struct callchains *cc)
{
	size_t n = cc->nslots * 2;
	u32 *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	callchains__index(cc, slots, n);
	return 0;
}

int callchains__retain(struct callchains *cc, u32 *map)
{
	size_t n = 2048, kept = 1;
	struct cc_node *nodes;
	u32 *slots;

	if (!cc->nodes)
		return 0;
	/* a child's id is above its parent's: from the leaves down, each
	 * kept node keeps its parent */
	for (size_t id = cc->nr; id-- > 1;)
		if (map[id])
			map[cc->nodes[id].parent] = 1;
	for (size_t id = 1; id < cc->nr; id++)
		kept += map[id] != 0;
	while (n < kept * 2 + 2)
		n *= 2;
	slots = calloc(n, sizeof(*slots));
	if (!slots)
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
	/* what the dropped nodes held goes back (1024: reset's size) */
	if (cc->cap > 1024 && cc->cap > kept * 2) {
		size_t cap = MAX(kept * 3 / 2, (size_t)1024);

		nodes = realloc(cc->nodes, cap * sizeof(*nodes));
		if (nodes) {
			cc->nodes = nodes;
			cc->cap = cap;
		}
	}
	callchains__index(cc, slots, n);
	return 0;
}

u32 callchains__intern(struct callchains *cc, u32 parent,
		       const struct dso *dso, u64 addr)
{
	size_t j;
	u32 id;

	if (!cc->nslots || parent >= cc->nr || cc->nr >= UINT32_MAX)
		return 0;
	j = node__hash(parent, dso, addr) & (cc->nslots - 1);
	while ((id = cc->slots[j])) {
		const struct cc_node *nd = &cc->nodes[id];

		if (nd->parent == parent && nd->dso == dso && nd->addr == addr)
			return id;
		j = (j + 1) & (cc->nslots - 1);
	}
	if (array__grow((void **)&cc->nodes, &cc->cap, cc->nr + 1,
			sizeof(*cc->nodes)))
		return 0;
	id = (u32)cc->nr++;
	cc->nodes[id] = (struct cc_node){
		.parent = parent,
		.depth = cc->nodes[parent].depth + 1,
		.dso = dso,
		.addr = addr,
	};
	cc->slots[j] = id;
	if (cc->nr * 2 > cc->nslots && callchains__rehash(cc))
		return 0;
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

size_t callchains__bytes(const struct callchains *cc)
{
	return sizeof(*cc) + cc->cap * sizeof(*cc->nodes) +
	       cc->nslots * sizeof(*cc->slots);
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
