/* symtab_internal: what symtab.c and symtab_image.c share (the table's
 * records and state), for them alone. */
#ifndef PTOP_SYMTAB_INTERNAL_H
#define PTOP_SYMTAB_INTERNAL_H

#include "src/core/util.h"
#include "symbols/symtab.h"

/* An image's nameless symbol (symtab__from_image) */
#define IMAGE_NO_NAME UINT64_MAX

struct sym {
	u64 start, size;
	/* Before naming: the arena copy (NULL: synthetic), or in an image
	 * (symtab__from_image) its offset in the image's names.  After:
	 * the pooled copy, which outlives the symtab. */
	union {
		const char *raw;
		u64 raw_off;		/* IMAGE_NO_NAME: synthetic */
	};
	union {
		u64 limit;		/* until symtab__finish */
		const char *name;	/* after it; valid once named */
	};
	u32 flags;
	u32 seq;
	u16 group;
	u8 bind;
	u8 named;	/* enum sym_named */
};

/* A name made for an image's symbol, by index (NULL: not yet). */
struct image_name {
	const char *raw, *name;
};

enum sym_named {
	SYM_RAW,	/* raw as added (arena copy, or image offset) */
	SYM_NAMED,	/* raw pooled, name made */
	SYM_POOLED,	/* raw pooled, name to be made again (the form
			 * changed: symtab__set_demangle) */
};

/* An .eh_frame range (SYMTAB_BIND_SYNTH): nameless, kept apart from the
 * symbols in 16 bytes, not 48 (a big stripped library has more ranges
 * than symbols, most of them at a symbol's address: libLLVM 95K and
 * 35K), so that loading one writes a third of the memory it did. */
struct range {
	u64 start, size;
};

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, size;
	char data[];
};

struct symtab {
	struct sym *syms;
	size_t nr, cap;
	struct arena_chunk *arena;
	size_t arena_bytes;
	struct strpool *pool;
	bool own_pool;
	bool finished;
	unsigned int flags;
	struct strbuf scratch;	/* demangling, reused */
	struct strbuf cmp[2];	/* sym__better's names */
	/* the ranges (after symtab__finish: those no symbol overlaps), and
	 * the flags they all have */
	struct range *ranges;
	size_t nr_ranges, cap_ranges;
	u32 range_flags;
	/* symtab__at's place in the merged order (a walk in order is one
	 * step a call) */
	size_t at_pos, at_sym, at_range;
	/* served from an image (symtab__from_image): its names, length
	 * and owner's release; the names made of its symbols (its records
	 * are never written: the pages of a file mapping stay shared) */
	const char *image_names;
	size_t image_len;
	struct image_name *names;
	void (*release)(void *ctx);
	void *release_ctx;
	/* an image that may change or vanish under the table (a mapped
	 * file): every read of it goes through guard_run
	 * (symtab__set_guard); stale once one was cut short or saw the
	 * image change, and never read again */
	int (*guard_run)(void *ctx, void (*fn)(void *), void *arg);
	void *guard_ctx;
	bool stale;
	struct strbuf raw_copy;	/* an image's name, copied out first */
};

/* A symbol's raw name: the arena copy, or in an image's names (NULL:
 * synthetic). */
const char *sym__raw(const struct symtab *st, const struct sym *s);

#endif
