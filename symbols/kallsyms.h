/* kallsyms: the kernel's symbols from /proc/kallsyms, modules included. */
#ifndef PTOP_KALLSYMS_H
#define PTOP_KALLSYMS_H

#include "util.h"

struct strpool;
struct symtab;

struct kallsyms {
	struct symtab *st;	/* text symbols; group = module index + 1 */
	const char **mods;	/* "[name]", interned */
	size_t nr_mods, cap_mods;
	size_t nr_lines, nr_bad;	/* lines read, lines skipped */
	bool restricted;	/* every address was 0 (kptr_restrict) */
};

/* Parses a kallsyms text (pure).  Returns the table or NULL with errno
 * set; a restricted one comes back empty with ->restricted set. */
struct kallsyms *kallsyms__parse(const char *text, size_t len,
				 struct strpool *pool);
/* Reads and parses path: NULL with errno set if it cannot be read. */
struct kallsyms *kallsyms__load(const char *path, struct strpool *pool);
void kallsyms__free(struct kallsyms *ks);

/* "[kernel.kallsyms]" for group 0, else "[module]". */
const char *kallsyms__dso_name(const struct kallsyms *ks, u16 group);

#endif
