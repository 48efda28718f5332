/* inlines: the inline chain of code addresses, cached per (dso, addr). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/inlines.h"

/* Past this many addresses the cache starts again (long runs). */
#define INLINES_MAX 65536
#define INLINES_DEPTH 16

struct inl_entry {
	size_t nr;
	const char *names[];	/* innermost first, interned */
};

struct inlines {
	struct symbolizer *syms;
	struct intmap by_dso;	/* dso -> struct intmap * (addr -> entry) */
	struct strpool *pool;
	size_t nr;
	u64 changes;		/* symbolizer__changes of the cached answers */
	bool (*cancel)(void *ctx);
	void *cancel_ctx;
};

/* What intmap stores for "nothing inlined here" (values must not be
 * NULL). */
static struct inl_entry none;
/* the symbolizer's build deadline passed: asked again next build */
static struct inl_entry later;

struct inlines *inlines__new(struct symbolizer *syms)
{
	struct inlines *in = calloc(1, sizeof(*in));

	if (!in)
		return NULL;
	in->syms = syms;
	intmap__init(&in->by_dso);
	in->pool = strpool__new();
	if (!in->pool) {
		free(in);
		errno = ENOMEM;
		return NULL;
	}
	return in;
}

static void inlines__clear(struct inlines *in)
{
	size_t i = 0, j;
	u64 k;
	void *v, *e;

	while (intmap__next(&in->by_dso, &i, &k, &v)) {
		struct intmap *m = v;

		for (j = 0; intmap__next(m, &j, &k, &e);)
			if (e != &none)
				free(e);
		intmap__fini(m);
		free(m);
	}
	intmap__fini(&in->by_dso);
	in->nr = 0;
}

void inlines__free(struct inlines *in)
{
	if (!in)
		return;
	inlines__clear(in);
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
	return in ? in->nr : 0;
}

/* Looks addr up: the frames before the last are the inlined functions
 * (the last is the function they were inlined into). */
static struct inl_entry *inlines__lookup(struct inlines *in,
					 const struct dso *dso, u64 addr)
{
	struct srcline sl[INLINES_DEPTH + 1];
	struct inl_entry *e;
	int n = symbolizer__inlines(in->syms, dso, addr, sl, ARRAY_SIZE(sl));
	size_t k = 0;

	if (n == -EAGAIN)
		return &later;
	if (n <= 1)
		return &none;
	e = malloc(sizeof(*e) + (size_t)(n - 1) * sizeof(e->names[0]));
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
	if (!k) {
		free(e);
		return &none;
	}
	return e;
}

size_t inlines__get(void *ctx, const struct dso *dso, u64 addr,
		    const char **names, size_t max)
{
	struct inlines *in = ctx;
	struct intmap *m;
	struct inl_entry *e;
	size_t n;

	if (!in || !in->syms || !dso || dso->kind != DSO_FILE)
		return 0;
	/* a debug file arrived (debuginfod): the answers may have changed */
	if (in->nr >= INLINES_MAX ||
	    in->changes != symbolizer__changes(in->syms)) {
		inlines__clear(in);
		in->changes = symbolizer__changes(in->syms);
	}
	m = intmap__get(&in->by_dso, (u64)(uintptr_t)dso);
	if (!m) {
		m = calloc(1, sizeof(*m));
		if (!m)
			return 0;
		intmap__init(m);
		if (intmap__put(&in->by_dso, (u64)(uintptr_t)dso, m)) {
			free(m);
			return 0;
		}
	}
	e = intmap__get(m, addr);
	if (!e) {
		if (in->cancel && in->cancel(in->cancel_ctx))
			return 0;
		e = inlines__lookup(in, dso, addr);
		if (!e || e == &later)
			return 0;
		if (intmap__put(m, addr, e)) {
			if (e != &none)
				free(e);
			return 0;
		}
		in->nr++;
	}
	n = MIN(e->nr, max);
	memcpy(names, e->names, n * sizeof(*names));
	return n;
}
