/* kfmt: the kernel's text formats ptop reads, a line at a time (pure):
 * /proc/kallsyms and /proc/modules.  The reading is src/sys/kernel's. */
#ifndef PTOP_KFMT_H
#define PTOP_KFMT_H

#include "src/core/util.h"

/* A line of /proc/kallsyms: "ADDR TYPE NAME[\t[MODULE]]". */
struct kfmt_sym {
	u64 addr;
	char type;		/* 't', 'T', 'd', ... as the kernel says */
	const char *name;	/* in the line, not NUL-terminated */
	size_t name_len;	/* at least 1 */
	const char *mod;	/* the module's name, without its brackets, or
				 * NULL: the kernel's own */
	size_t mod_len;
};

/* Decodes [p, end) (without its newline): 0, or -EINVAL when it is not a
 * kallsyms line (an address of 1 to 16 hex digits, a type, a name). */
int kfmt__sym(const char *p, const char *end, struct kfmt_sym *out);

/* A line of /proc/modules: "NAME SIZE REFS DEPS STATE ADDR ...". */
struct kfmt_module {
	const char *name;	/* in the line, 1 to 55 bytes */
	size_t name_len;
	u64 size;		/* decimal in the line */
	u64 addr;		/* hex, "0x" or not; 0 when hidden */
};

/* Decodes [p, end) (without its newline): 0, or -EINVAL. */
int kfmt__module(const char *p, const char *end, struct kfmt_module *out);

#endif
