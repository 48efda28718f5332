/* kernel: the running kernel's files (see kernel.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/core/elfnote.h"
#include "src/core/kfmt.h"
#include "src/sys/fdio.h"
#include "src/sys/kernel.h"

/* /proc/modules is a few KB: a bound against a path that is not it */
#define MODULES_MAX (4u << 20)

/* A file of /proc or /sys (or what a test gives instead): never a FIFO
 * that blocks, never a terminal that becomes ours. */
static int open_ro(const char *path)
{
	return open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
}

/* The first len bytes of a small file: the count, or -errno. */
static ssize_t read_head(const char *path, void *buf, size_t len)
{
	ssize_t n;
	int fd = open_ro(path);

	if (fd < 0)
		return -errno;
	n = fd__read_upto(fd, buf, len);
	close(fd);
	return n;
}

int kernel__kallsyms(const char *path, const struct kernel_lines *l)
{
	const size_t cap = 64 << 10;
	size_t len = 0, total = 0;
	bool skipping = false;
	char *buf = malloc(cap);
	int fd, err = 0;

	if (!buf)
		return -ENOMEM;
	fd = open_ro(path ? path : KERNEL_KALLSYMS);
	if (fd < 0) {
		err = -errno;
		free(buf);
		return err;
	}
	for (;;) {
		/* a whole chunk, short only at the end */
		ssize_t n = fd__read_upto(fd, buf + len, cap - len);
		long used;

		if (n < 0) {
			err = (int)n;
			break;
		}
		total += (size_t)n;
		if (total > KERNEL_KALLSYMS_MAX) {
			err = -EFBIG;
			break;
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
		used = l->lines(l->ctx, buf, len, n == 0);
		if (used < 0) {
			err = (int)used;
			break;
		}
		len -= (size_t)used;
		memmove(buf, buf + used, len);
		if (!n)
			break;
		if (len == cap) {
			/* one line fills the chunk: not a kallsyms line */
			if (l->too_long)
				l->too_long(l->ctx);
			skipping = true;
			len = 0;
		}
	}
	close(fd);
	free(buf);
	return err;
}

bool kernel__kallsyms_hidden(const char *path)
{
	char line[256];
	ssize_t n = read_head(path ? path : KERNEL_KALLSYMS, line,
			      sizeof(line) - 1);

	if (n <= 0)
		return true;
	line[n] = '\0';
	for (ssize_t i = 0; i < n && line[i] != ' '; i++)
		if (line[i] != '0')
			return false;
	return true;
}

int kernel__modules(const char *path, struct strbuf *sb)
{
	return fd__read_all(path ? path : KERNEL_MODULES, sb, MODULES_MAX);
}

int kernel__build_id(const char *notes, u8 *bid, size_t size)
{
	u8 buf[4096];
	ssize_t n;
	int fd = open_ro(notes ? notes : KERNEL_NOTES);

	if (fd < 0)
		return 0;
	n = fd__read_upto(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return 0;
	n = elfnote__build_id(buf, (size_t)n, false, bid, size);
	return n > 0 ? (int)n : 0;
}

ssize_t kernel__boot_id(const char *path, char *buf, size_t len)
{
	return read_head(path ? path : KERNEL_BOOT_ID, buf, len);
}

/* ---- the kernel's maps ---- */

struct text_scan {
	u64 text, etext, maxk;
};

static long scan_lines(void *ctx, const char *text, size_t len, bool final)
{
	struct text_scan *t = ctx;
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		struct kfmt_sym y;

		if (!nl && !final)
			break;
		/* the kernel's own symbols: not a module's */
		if (!kfmt__sym(p, eol, &y) && !y.mod) {
			if (y.name_len == 5 && !memcmp(y.name, "_text", 5))
				t->text = y.addr;
			else if (y.name_len == 6 &&
				 !memcmp(y.name, "_etext", 6))
				t->etext = y.addr;
			else if ((y.type == 'T' || y.type == 't') &&
				 y.addr > t->maxk)
				t->maxk = y.addr;
		}
		p = nl ? nl + 1 : end;
	}
	return (long)(p - text);
}

int kernel__maps(const char *kallsyms, const char *modules,
		 struct kernel_map **maps, size_t *nr)
{
	struct text_scan t = { 0 };
	const struct kernel_lines l = { .lines = scan_lines, .ctx = &t };
	struct kernel_map *k;
	struct strbuf mods;
	const char *p, *end;
	u64 last;

	*maps = NULL;
	*nr = 0;
	kernel__kallsyms(kallsyms, &l);
	if (!t.text)
		return 0;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	last = t.etext > t.text ? t.etext : t.maxk > t.text ? t.maxk :
							   t.text + 1;
	k->start = k->pgoff = t.text;
	k->len = last - t.text;
	snprintf(k->name, sizeof(k->name), "[kernel.kallsyms]_text");
	*maps = k;
	*nr = 1;
	strbuf__init(&mods);
	if (kernel__modules(modules, &mods) || !mods.len) {
		int err = mods.oom ? -ENOMEM : 0;

		strbuf__fini(&mods);
		return err;
	}
	for (p = mods.buf, end = p + mods.len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		struct kfmt_module m;

		if (!kfmt__module(p, eol, &m) && m.addr && m.size) {
			k = realloc(*maps, (*nr + 1) * sizeof(*k));
			if (!k) {
				strbuf__fini(&mods);
				return -ENOMEM;
			}
			*maps = k;
			k = &k[(*nr)++];
			memset(k, 0, sizeof(*k));
			k->start = m.addr;
			k->len = m.size;
			snprintf(k->name, sizeof(k->name), "[%.*s]",
				 (int)m.name_len, m.name);
		}
		p = nl ? nl + 1 : end;
	}
	strbuf__fini(&mods);
	return 0;
}
