/* kallsyms: the kernel's symbols from /proc/kallsyms, modules included. */
#ifndef PTOP_KALLSYMS_H
#define PTOP_KALLSYMS_H

#include "src/core/util.h"

struct strpool;
struct symtab;

struct ksym;
struct mapfile;
struct symtab_hit;

struct kallsyms {
	struct symtab *st;	/* text symbols; group = module index + 1;
				 * NULL when served from a cache file */
	/* the cache file's table, mapped (kallsyms__load_cached): read
	 * only under its guard (mapguard.h), names copied out first */
	struct mapfile *mf;
	const struct ksym *syms;
	size_t nr_syms;
	const char *names;
	struct strpool *pool;
	const char **mods;	/* "[name]", interned */
	size_t nr_mods, cap_mods;
	size_t nr_lines, nr_bad;	/* lines read, lines skipped */
	bool restricted;	/* every address was 0 (kptr_restrict) */
	/* kallsyms__beyond_kernel's span, found at its first call */
	bool span_known;
	u64 span_lo, span_hi;
};

/* Parses a kallsyms text (pure).  Returns the table or NULL with errno
 * set; a restricted one comes back empty with ->restricted set. */
struct kallsyms *kallsyms__parse(const char *text, size_t len,
				 struct strpool *pool);
/* Reads and parses path: NULL with errno set if it cannot be read. */
struct kallsyms *kallsyms__load(const char *path, struct strpool *pool);
void kallsyms__free(struct kallsyms *ks);

/*
 * The parsed table of one boot, cached: /proc/kallsyms costs the kernel
 * a formatted line per symbol (over 100,000) and ptop a parse at every
 * start.  The cache file (dir/kallsyms-BOOTID) holds the symbols in a
 * binary form that later runs map and check: a magic, a version, the
 * boot id, the kernel's build-id, a hash of the module list, sizes that
 * must add up to the file's, every name inside the file.  Anything else
 * (stale, truncated, hostile) is refused and /proc/kallsyms read and the
 * cache written again (a temporary file renamed over, mode 0600, in a
 * directory only the user can write).  A restricted kallsyms (addresses
 * hidden) is never cached, and a cache is never used while the kernel
 * hides addresses from this user.
 */
struct kallsyms_cache {
	const char *dir;	/* NULL: no cache */
	const char *boot_id;	/* default /proc/sys/kernel/random/boot_id */
	const char *notes;	/* default /sys/kernel/notes */
	const char *modules;	/* default /proc/modules */
};

enum kallsyms_from {
	KALLSYMS_PARSED,	/* read from path; cache not used */
	KALLSYMS_CACHED,	/* from the cache file */
	KALLSYMS_PARSED_SAVED,	/* read from path, then cached */
};

/* As kallsyms__load, through the cache of c.  from (may be NULL) says
 * where the table came from. */
struct kallsyms *kallsyms__load_cached(const char *path,
				       const struct kallsyms_cache *c,
				       struct strpool *pool,
				       enum kallsyms_from *from);

/* Writes c's cache file of path's table when there is none yet (a
 * first run of this boot), for kallsyms__load_cached to map: on a
 * loader worker while a recording is read (symbolizer__prefetch of the
 * kernel).  Touches only its arguments and says nothing: a file that is
 * there, whole or damaged, is left to kallsyms__load_cached. */
void kallsyms__make_cache(const char *path, const struct kallsyms_cache *c);

/* Lookups, from st or the mapped cache alike (symtab__lookup's
 * contract). */
int kallsyms__lookup(struct kallsyms *ks, u64 addr, struct symtab_hit *hit);
size_t kallsyms__count(const struct kallsyms *ks);
int kallsyms__at(struct kallsyms *ks, size_t i, struct symtab_hit *hit);

/* Is addr, which no symbol covers, outside the kernel's own text (below
 * its first text symbol or beyond its last, modules' not counted)?  Such
 * code (a module's between its symbols, BPF or ftrace trampolines that
 * kallsyms does not list) is in no map of perf's kernel, which names it
 * [unknown].  False when the table has no kernel symbol. */
bool kallsyms__beyond_kernel(struct kallsyms *ks, u64 addr);

/* "[kernel.kallsyms]" for group 0, else "[module]". */
const char *kallsyms__dso_name(const struct kallsyms *ks, u16 group);

#endif
