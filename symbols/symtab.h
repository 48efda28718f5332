/* symtab: a sorted symbol array with O(log n) address lookup (pure). */
#ifndef PTOP_SYMTAB_H
#define PTOP_SYMTAB_H

#include "src/core/util.h"

/*
 * Usage:
 *	st = symtab__new(pool, SYMTAB_DEMANGLE);
 *	symtab__add(st, ...);		any order, aliases welcome
 *	symtab__finish(st);		sorts, resolves aliases and sizes
 *	symtab__lookup(st, addr, &hit);	names demangled once, then cached
 *
 * Addresses are whatever the owner chooses (ELF vaddrs, kernel ips, JIT
 * ips).  As in perf, a symbol of size 0 extends to the next symbol's start
 * (past the end of its section: ld.so's _start, _init over PLT0); the last
 * one (and, with SYMTAB_GROUP_BOUNDS, the last one of its group) ends at
 * the page boundary after start + 4 KiB.  A sized symbol is cut at its
 * limit (the end of its section).  Of aliases at one address, the one perf
 * keeps is kept (see symtab__finish).  Names returned by symtab__lookup
 * are interned in the pool given to symtab__new, so they outlive the
 * symtab.
 */

/* Boundaries and synthetic ranges lose to any real symbol at their
 * address; among real ones see symtab__finish. */
enum symtab_bind {
	SYMTAB_BIND_BOUNDARY,	/* only ends the symbol before it; dropped */
	SYMTAB_BIND_SYNTH,	/* an .eh_frame range, nameless
				 * ("func_0x<start>" on lookup; name,
				 * limit and group are not kept, and all
				 * the ranges of a table have the same
				 * flags); dropped where it overlaps a
				 * real symbol.  Kept apart, in 16 bytes:
				 * ranges count as added after every
				 * symbol */
	SYMTAB_BIND_LOCAL,	/* the real ones, from here */
	SYMTAB_BIND_WEAK,
	SYMTAB_BIND_GLOBAL,
};

enum symtab_flags {
	SYMTAB_DEMANGLE = 1 << 0,	/* demangle names on lookup, C++
					 * functions by their name alone,
					 * as perf report shows them */
	SYMTAB_PARAMS = 1 << 3,		/* with SYMTAB_DEMANGLE: the full
					 * form, with parameters */
	SYMTAB_LAST_WINS = 1 << 1,	/* at one address the symbol added
					 * last wins (JIT maps) */
	SYMTAB_GROUP_BOUNDS = 1 << 2,	/* a zero-size symbol does not grow
					 * into another group (kernel and
					 * modules, as perf does) */
};

struct symtab_hit {
	const char *name;	/* demangled (or raw when not mangled) */
	const char *raw_name;
	u64 start, size;
	u32 flags;		/* enum sym_flags */
	u16 group;		/* owner's tag (kernel module index) */
};

struct symtab;
struct strpool;

/* pool: where looked-up names are interned; NULL: a private one. */
struct symtab *symtab__new(struct strpool *pool, unsigned int flags);
void symtab__free(struct symtab *st);

/* Room for n more symbols (an estimate: symtab__finish gives back what
 * is left): a table of 100K symbols grown one doubling at a time copied
 * itself into fresh pages a dozen times.  0 or -ENOMEM. */
int symtab__reserve(struct symtab *st, size_t n);
/* The same for n more ranges (SYMTAB_BIND_SYNTH). */
int symtab__reserve_ranges(struct symtab *st, size_t n);

/*
 * Adds a symbol.  name (len bytes, need not be NUL-terminated) is copied;
 * NULL names a synthetic symbol "func_0x<start hex>" (made on lookup).
 * limit: first address past the symbol's section, 0 if unknown.
 * Returns 0, -ENOMEM, -EBUSY after symtab__finish, or -EINVAL for a range
 * whose flags are not the first range's.
 */
int symtab__add(struct symtab *st, u64 start, u64 size, u64 limit,
		const char *name, size_t len, u32 flags, enum symtab_bind bind,
		u16 group);

/* Sorts, keeps one symbol per address, sizes the zero-size ones, drops
 * boundaries and synthetic ranges that overlap a real symbol.  Of aliases
 * at one address the one kept is perf's choice: one with a size (a
 * zero-size alias counts as sized when it is the last added at its
 * address, as after perf's symbols__fixup_end), then non-weak, then
 * global, then the fewest leading underscores, then the longest name,
 * then the first added (SYMTAB_LAST_WINS: the last added).  Returns 0 or
 * -ENOMEM (the table is then empty but usable).  symtab__count and
 * symtab__at then list symbols and ranges in address order. */
int symtab__finish(struct symtab *st);

/* Fills hit with the symbol covering addr: 0, or -ENOENT if none covers
 * it, or -ENOMEM (naming failed; hit still holds the address range). */
int symtab__lookup(struct symtab *st, u64 addr, struct symtab_hit *hit);

/* Changes SYMTAB_DEMANGLE and SYMTAB_PARAMS (the other flags are kept):
 * names are made again, in the new form, as they are looked up.  Names
 * returned before stay valid (they live in the pool). */
void symtab__set_demangle(struct symtab *st, unsigned int flags);

size_t symtab__count(const struct symtab *st);
/* The i-th symbol in address order (after finish), with names; for
 * tests and listings. */
int symtab__at(struct symtab *st, size_t i, struct symtab_hit *hit);
/* The i-th entry's raw name as added (mangled), without naming it (no
 * demangling, nothing interned): a cheap first look when searching by
 * name.  NULL for a range or a nameless symbol. */
const char *symtab__raw_at(struct symtab *st, size_t i);
/* symtab__at without naming: hit->raw_name as added (NULL for a range or
 * a nameless symbol), hit->name NULL; nothing interned. */
int symtab__at_raw(struct symtab *st, size_t i, struct symtab_hit *hit);
/* The version of the image's layout and choices symtab__write_image
 * writes (2: aliases chosen by their demangled names); symcache names
 * its files with it, so that builds writing other versions into one
 * cache keep a file each rather than rewriting one another's. */
#define SYMTAB_IMAGE_VERSION 2
/* The flags an image is made with and read back under (what decides the
 * aliases kept and the names given): a table of other flags needs an
 * image of its own, so that symcache keys its files with them. */
#define SYMTAB_IMAGE_FLAGS \
	(SYMTAB_LAST_WINS | SYMTAB_GROUP_BOUNDS | SYMTAB_DEMANGLE)
/*
 * A finished table as an image that a later run serves lookups from
 * without reading its binaries again (symcache.h keeps them in files):
 * a header, the symbols and ranges as the table holds them (48 and 16
 * bytes each, names as offsets), then the names.  emit gets it in order,
 * in pieces; its non-zero return ends the writing and is returned.
 * 0, -EINVAL (not finished) or -ENOMEM.
 */
int symtab__write_image(const struct symtab *st,
			int (*emit)(void *ctx, const void *buf, size_t len),
			void *ctx);

/*
 * A finished table served from img (len bytes, 8-byte aligned, never
 * written: a read-only file mapping will do): lookups and listings answer
 * as from the table it was written from.  img must stay valid while the
 * table lives; symtab__free ends with release(ctx).  flags as
 * symtab__new's; an image written with other SYMTAB_LAST_WINS or
 * SYMTAB_GROUP_BOUNDS, from another layout, truncated, out of order or
 * with a name outside it is refused: NULL, errno EINVAL (ENOMEM), and
 * img stays the caller's.
 */
struct symtab *symtab__from_image(const void *img, size_t len,
				  struct strpool *pool, unsigned int flags,
				  void (*release)(void *ctx), void *ctx);

/*
 * For an image that may change or vanish under the table (a file the
 * owner mapped, truncated or rewritten by someone else meanwhile): every
 * read of it, by lookup, at, at_raw and raw_at, runs as run(ctx, fn, arg)
 * (mapfile__run: a fault in it returns, and the file is compared after),
 * which answers non-zero when fn was cut short or the image changed; the
 * access then answers -ESTALE (raw_at NULL), and so does every later one:
 * the table is to be dropped and made again.  Its names are copied out
 * of the image before they are interned, and raw names returned point
 * to a copy, valid until the next access.
 */
void symtab__set_guard(struct symtab *st,
		       int (*run)(void *ctx, void (*fn)(void *), void *arg),
		       void *ctx);
/* An access answered -ESTALE: the table is to be made again. */
bool symtab__stale(const struct symtab *st);

/* Bytes held (arrays and name arena), for the memory figures. */
size_t symtab__bytes(const struct symtab *st);

#endif
