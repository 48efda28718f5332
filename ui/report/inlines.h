/* inlines: which functions DWARF says are inlined at a code address, for
 * the call trees of the live view; looked up once per address (lazily:
 * only frames of expanded trees ask) and cached (an lru: past 65536
 * addresses, the least recently asked go). */
#ifndef PTOP_INLINES_H
#define PTOP_INLINES_H

#include "src/core/dso.h"
#include "symbols/symbolizer.h"
#include "src/core/util.h"

struct inlines;

/* syms may be NULL: nothing is ever inlined. */
struct inlines *inlines__new(struct symbolizer *syms);
void inlines__free(struct inlines *in);	/* NULL: no-op */

/*
 * A cg_inline_fn (ctx: the inlines): the functions inlined at (dso,
 * addr), innermost first, at most max; names stay valid (and the same
 * pointer for the same name) until inlines__free.  File dsos only.
 */
size_t inlines__get(void *ctx, const struct dso *dso, u64 addr,
		    const char **names, size_t max);

/* Addresses asked so far (cached), for tests. */
size_t inlines__nr(const struct inlines *in);
/* Asked before each DWARF lookup: true makes inlines__get answer "none"
 * without caching it (a quit or a key is waiting). */
void inlines__set_cancel(struct inlines *in, bool (*cancel)(void *ctx),
			 void *ctx);

#endif
