/* kallsyms: the kernel's symbols from /proc/kallsyms, modules included. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kallsyms.h"
#include "symbolizer.h"
#include "symtab.h"

#define KALLSYMS_MAX (256u << 20)

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Index + 1 of module "[name]" (name: len bytes), added if new; 0 on
 * failure. */
static u16 module_group(struct kallsyms *ks, struct strpool *pool,
			const char *name, size_t len, u16 *last)
{
	char buf[128];
	const char *s;

	if (len + 3 > sizeof(buf))
		return 0;
	buf[0] = '[';
	memcpy(buf + 1, name, len);
	buf[len + 1] = ']';
	buf[len + 2] = '\0';
	s = strpool__intern(pool, buf, len + 2);
	if (!s)
		return 0;
	/* a module's symbols come together: check the last one first */
	if (*last && ks->mods[*last - 1] == s)
		return *last;
	for (size_t i = 0; i < ks->nr_mods; i++)
		if (ks->mods[i] == s)
			return *last = (u16)(i + 1);
	if (ks->nr_mods >= UINT16_MAX ||
	    array__grow((void **)&ks->mods, &ks->cap_mods, ks->nr_mods + 1,
			sizeof(*ks->mods)))
		return 0;
	ks->mods[ks->nr_mods++] = s;
	return *last = (u16)ks->nr_mods;
}

/* One line: "ADDR TYPE NAME[\t[MODULE]]".  Returns 0, 1 (skipped), or
 * -ENOMEM. */
static int parse_line(struct kallsyms *ks, struct strpool *pool,
		      const char *p, const char *end, bool *nonzero,
		      u16 *last)
{
	const char *name, *mod = NULL;
	size_t name_len, mod_len = 0;
	u64 addr = 0;
	int digits = 0, h;
	u16 group = 0;
	char type;

	while (p < end && (h = hexval(*p)) >= 0) {
		if (++digits > 16)
			return 1;
		addr = addr << 4 | (u64)h;
		p++;
	}
	if (!digits || end - p < 4 || p[0] != ' ' || p[2] != ' ')
		return 1;
	type = p[1];
	name = p + 3;
	for (p = name; p < end && *p != '\t' && *p != ' '; p++)
		;
	name_len = (size_t)(p - name);
	if (!name_len)
		return 1;
	while (p < end && (*p == '\t' || *p == ' '))
		p++;
	if (p < end && *p == '[') {
		const char *close = memchr(p, ']', (size_t)(end - p));

		if (!close)
			return 1;
		mod = p + 1;
		mod_len = (size_t)(close - mod);
	}
	if (addr)
		*nonzero = true;
	/* absolute symbols (per-cpu offsets) are not addresses */
	if (!addr || type == 'a' || type == 'A' || type == 'U' || type == 'u')
		return 1;
	if (mod && mod_len) {
		group = module_group(ks, pool, mod, mod_len, last);
		if (!group)
			return -ENOMEM;
	}
	if (type == 't' || type == 'T' || type == 'w' || type == 'W')
		return symtab__add(ks->st, addr, 0, 0, name, name_len,
				   SYM_F_KERNEL, SYMTAB_BIND_GLOBAL, group);
	/* data symbols only end the text symbol before them */
	return symtab__add(ks->st, addr, 0, 0, NULL, 0, 0,
			   SYMTAB_BIND_BOUNDARY, group);
}

/* Parsing state across the chunks of a file. */
struct kparse {
	bool nonzero;
	u16 last;
};

/* Parses the complete lines of text[0, len); with final, the last line
 * too even without its newline.  Returns the bytes consumed or -errno. */
static long kallsyms__lines(struct kallsyms *ks, struct strpool *pool,
			    struct kparse *ps, const char *text, size_t len,
			    bool final)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		int r;

		if (!nl && !final)
			break;
		r = parse_line(ks, pool, p, eol, &ps->nonzero, &ps->last);
		if (r < 0)
			return r;
		ks->nr_lines++;
		if (r > 0)
			ks->nr_bad++;
		p = nl ? nl + 1 : end;
	}
	return (long)(p - text);
}

static struct kallsyms *kallsyms__begin(struct strpool *pool)
{
	struct kallsyms *ks = calloc(1, sizeof(*ks));

	if (!ks)
		return NULL;
	ks->st = symtab__new(pool, SYMTAB_GROUP_BOUNDS);
	if (!ks->st) {
		free(ks);
		errno = ENOMEM;
		return NULL;
	}
	return ks;
}

static int kallsyms__end(struct kallsyms *ks, const struct kparse *ps)
{
	ks->restricted = ks->nr_lines && !ps->nonzero;
	return symtab__finish(ks->st);
}

struct kallsyms *kallsyms__parse(const char *text, size_t len,
				 struct strpool *pool)
{
	struct kallsyms *ks = kallsyms__begin(pool);
	struct kparse ps = { 0 };
	long n;
	int err;

	if (!ks)
		return NULL;
	n = kallsyms__lines(ks, pool, &ps, text, len, true);
	err = n < 0 ? (int)n : kallsyms__end(ks, &ps);
	if (err) {
		kallsyms__free(ks);
		errno = -err;
		return NULL;
	}
	return ks;
}

/*
 * Reads in chunks, parsing the lines each one completes: /proc/kallsyms
 * is over 5 MB of text, which need not be in memory at once.  A line
 * longer than the chunk (not kallsyms, or hostile) is skipped.
 */
struct kallsyms *kallsyms__load(const char *path, struct strpool *pool)
{
	const size_t cap = 64 << 10;
	struct kallsyms *ks = NULL;
	struct kparse ps = { 0 };
	size_t len = 0, total = 0;
	bool skipping = false;
	char *buf = malloc(cap);
	int fd = -1, err = 0;

	if (!buf)
		return NULL;
	ks = kallsyms__begin(pool);
	if (!ks) {
		err = -ENOMEM;
		goto out;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	for (;;) {
		ssize_t n = read(fd, buf + len, cap - len);
		long used;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			goto out;
		}
		total += (size_t)n;
		if (total > KALLSYMS_MAX) {
			err = -EFBIG;
			goto out;
		}
		len += (size_t)n;
		if (skipping) {
			char *nl = memchr(buf, '\n', len);

			if (!nl) {
				len = 0;
				if (!n)
					break;
				continue;
			}
			skipping = false;
			len -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, len);
		}
		used = kallsyms__lines(ks, pool, &ps, buf, len, n == 0);
		if (used < 0) {
			err = (int)used;
			goto out;
		}
		len -= (size_t)used;
		memmove(buf, buf + used, len);
		if (!n)
			break;
		if (len == cap) {
			/* one line fills the chunk: not a kallsyms line */
			ks->nr_lines++;
			ks->nr_bad++;
			skipping = true;
			len = 0;
		}
	}
	err = kallsyms__end(ks, &ps);
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	if (err) {
		kallsyms__free(ks);
		ks = NULL;
		errno = -err;
	}
	return ks;
}

void kallsyms__free(struct kallsyms *ks)
{
	if (!ks)
		return;
	symtab__free(ks->st);
	free(ks->mods);
	free(ks);
}

const char *kallsyms__dso_name(const struct kallsyms *ks, u16 group)
{
	if (group && group <= ks->nr_mods)
		return ks->mods[group - 1];
	return "[kernel.kallsyms]";
}
