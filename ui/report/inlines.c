/* inlines: the inline chain of code addresses, cached per (dso, addr). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/lru.h"
#include "ui/report/inlines.h"

/* Past this many addresses the least recently asked go (long runs). */
#define INLINES_MAX 65536
#define INLINES_DEPTH 16

struct inl_entry {
	struct lru_node node;	/* key: (dso, addr) */
	size_t nr;		/* 0: nothing inlined there */
	const char *names[];	/* innermost first, interned */
};

struct inlines {
	struct symbolizer *syms;
	struct lru cache;	/* struct inl_entry, at most INLINES_MAX */
	struct strpool *pool;
	u64 changes;		/* symbolizer__changes of the cached answers */
	bool (*cancel)(void *ctx);
	void *cancel_ctx;
};

static void entry__evict(void *ctx, struct lru_node *n)
{
	(void)ctx;
	free(lru_entry(n, struct inl_entry, node));
}

struct inlines *inlines__new(struct symbolizer *syms)
{
	struct inlines *in = calloc(1, sizeof(*in));

	if (!in)
		return NULL;
	in->syms = syms;
	lru__init(&in->cache, 0, INLINES_MAX, entry__evict, in);
	in->pool = strpool__new();
	if (!in->pool) {
		free(in);
		errno = ENOMEM;
		return NULL;
	}
	return in;
}

void inlines__free(struct inlines *in)
{
	if (!in)
		return;
	lru__fini(&in->cache);
	strpool__free(in->pool);
	free(in);
}

void inlines__set_cancel(struct inlines *in, bool (*cancel)(void *ctx),
			 void *ctx)
{
	if (!in)
		return;
	in->cancel = cancel;
	in->cancel_ctx = ctx;
}

size_t inlines__nr(const struct inlines *in)
{
	return in ? lru__count(&in->cache) : 0;
}

/* Looks addr up: the frames before the last are the inlined functions
 * (the last is the function they were inlined into).  NULL: no memory,
 * or the symbolizer's build deadline passed (asked again next build). */
static struct inl_entry *inlines__lookup(struct inlines *in,
					 const struct dso *dso, u64 addr)
{
	struct srcline sl[INLINES_DEPTH + 1];
	struct inl_entry *e;
	int n = symbolizer__inlines(in->syms, dso, addr, sl, ARRAY_SIZE(sl));
	size_t k = 0;

	if (n == -EAGAIN)
		return NULL;
	e = malloc(sizeof(*e) + (size_t)(n > 1 ? n - 1 : 0) *
					sizeof(e->names[0]));
	if (!e)
		return NULL;
	for (int i = 0; i < n - 1; i++) {
		const char *name = sl[i].func;

		if (!name)
			continue;
		name = strpool__intern(in->pool, name, strlen(name));
		if (!name) {
			free(e);
			return NULL;
		}
		e->names[k++] = name;
	}
	e->nr = k;
	return e;
}

size_t inlines__get(void *ctx, const struct dso *dso, u64 addr,
		    const char **names, size_t max)
{
	struct inlines *in = ctx;
	struct lru_node *node;
	struct inl_entry *e;
	size_t n;

	if (!in || !in->syms || !dso || dso->kind != DSO_FILE)
		return 0;
	/* a debug file arrived (debuginfod): the answers may have changed */
	if (in->changes != symbolizer__changes(in->syms)) {
		lru__shrink(&in->cache, 0, 0);
		in->changes = symbolizer__changes(in->syms);
	}
	node = lru__find(&in->cache, (u64)(uintptr_t)dso, addr);
	if (node) {
		e = lru_entry(node, struct inl_entry, node);
	} else {
		if (in->cancel && in->cancel(in->cancel_ctx))
			return 0;
		e = inlines__lookup(in, dso, addr);
		if (!e)
			return 0;
		e->node.key[0] = (u64)(uintptr_t)dso;
		e->node.key[1] = addr;
		e->node.cost = 0;
		if (lru__insert(&in->cache, &e->node)) {
			free(e);
			return 0;
		}
	}
	n = MIN(e->nr, max);
	memcpy(names, e->names, n * sizeof(*names));
	return n;
}
