/* kfmt: the kernel's text formats ptop reads, a line at a time (pure):
 * /proc/kallsyms and /proc/modules.  The reading is src/sys/kernel's. */
#ifndef PTOP_KFMT_H
#define PTOP_KFMT_H

#include <errno.h>
#include <string.h>

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

/* By byte: a hex digit's value, else KFMT_BLANK for ' ' and '\t', else
 * -1.  A table: a first run of a boot decodes 150,000 lines, where
 * comparing each byte with ranges was half of the parse. */
#define KFMT_BLANK 16
extern const signed char kfmt__class[256];

/* A hex digit's value, or -1. */
static inline int kfmt__hexval(char c)
{
	int v = kfmt__class[(unsigned char)c];

	return v < 16 ? v : -1;
}

/* Decodes [p, end) (without its newline): 0, or -EINVAL when it is not a
 * kallsyms line (an address of 1 to 16 hex digits, a type, a name).
 * Inline: a first run of a boot decodes 150,000 lines. */
static inline int kfmt__sym(const char *p, const char *end,
			    struct kfmt_sym *out)
{
	int digits = 0, h;
	u64 addr = 0;

	out->mod = NULL;
	out->mod_len = 0;
	while (p < end && (h = kfmt__hexval(*p)) >= 0) {
		if (++digits > 16)
			return -EINVAL;
		addr = addr << 4 | (u64)h;
		p++;
	}
	out->addr = addr;
	if (!digits || end - p < 4 || p[0] != ' ' || p[2] != ' ')
		return -EINVAL;
	out->type = p[1];
	out->name = p + 3;
	for (p = out->name;
	     p < end && kfmt__class[(unsigned char)*p] != KFMT_BLANK; p++)
		;
	out->name_len = (size_t)(p - out->name);
	if (!out->name_len)
		return -EINVAL;
	while (p < end && (*p == '\t' || *p == ' '))
		p++;
	if (p < end && *p == '[') {
		const char *close = memchr(p, ']', (size_t)(end - p));

		if (!close)
			return -EINVAL;
		out->mod = p + 1;
		out->mod_len = (size_t)(close - out->mod);
	}
	return 0;
}

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
