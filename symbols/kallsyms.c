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

struct kallsyms *kallsyms__parse(const char *text, size_t len,
				 struct strpool *pool)
{
	struct kallsyms *ks = calloc(1, sizeof(*ks));
	const char *p = text, *end = text + len;
	bool nonzero = false;
	u16 last = 0;
	int err = 0;

	if (!ks)
		return NULL;
	ks->st = symtab__new(pool, SYMTAB_GROUP_BOUNDS);
	if (!ks->st) {
		err = -ENOMEM;
		goto fail;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		int r = parse_line(ks, pool, p, eol, &nonzero, &last);

		if (r < 0) {
			err = r;
			goto fail;
		}
		ks->nr_lines++;
		if (r > 0)
			ks->nr_bad++;
		p = eol + 1;
	}
	ks->restricted = ks->nr_lines && !nonzero;
	err = symtab__finish(ks->st);
	if (err)
		goto fail;
	return ks;
fail:
	kallsyms__free(ks);
	errno = -err;
	return NULL;
}

struct kallsyms *kallsyms__load(const char *path, struct strpool *pool)
{
	size_t len = 0, cap = 1 << 20;
	struct kallsyms *ks = NULL;
	char *buf = malloc(cap);
	int fd = -1, err = 0;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	/* /proc files have no size: read until EOF */
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nb;

			if (cap >= KALLSYMS_MAX) {
				err = -EFBIG;
				goto out;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				err = -ENOMEM;
				goto out;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			goto out;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	ks = kallsyms__parse(buf, len, pool);
	if (!ks)
		err = -errno;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	if (err)
		errno = -err;
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
