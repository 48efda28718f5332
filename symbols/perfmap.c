/* perfmap: JIT symbols of one process from /tmp/perf-PID.map. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/core/log.h"
#include "src/sys/fdio.h"
#include "symbols/perfmap.h"
#include "symbols/symtypes.h"
#include "symbols/symtab.h"

#define PATH_BUF 4096

struct perfmap {
	char path[PATH_BUF];
	char proc_pid[PATH_BUF];
	struct strpool *pool;
	const char *name;	/* "[JIT] tid PID", as perf names it */
	struct symtab *st;	/* NULL until a load succeeds */
	dev_t dev;
	ino_t ino;
	off_t size;		/* of the file when last loaded */
	size_t bad;		/* lines skipped in the last load */
	unsigned int demangle;	/* SYMTAB_DEMANGLE, SYMTAB_PARAMS */
	bool warned;
};

struct perfmap *perfmap__new(const char *dir, const char *proc, s32 pid,
			     struct strpool *pool, unsigned int demangle)
{
	struct perfmap *pm = calloc(1, sizeof(*pm));
	char name[64];

	if (!pm)
		return NULL;
	snprintf(name, sizeof(name), "[JIT] tid %d", (int)pid);
	pm->name = strpool__intern(pool, name, strlen(name));
	if (!pm->name) {
		free(pm);
		errno = ENOMEM;
		return NULL;
	}
	snprintf(pm->path, sizeof(pm->path), "%s/perf-%d.map",
		 dir ? dir : "/tmp", (int)pid);
	snprintf(pm->proc_pid, sizeof(pm->proc_pid), "%s/%d",
		 proc ? proc : "/proc", (int)pid);
	pm->pool = pool;
	pm->demangle = demangle;
	return pm;
}

void perfmap__set_demangle(struct perfmap *pm, unsigned int demangle)
{
	pm->demangle = demangle & (SYMTAB_DEMANGLE | SYMTAB_PARAMS);
	symtab__set_demangle(pm->st, pm->demangle);
}

void perfmap__free(struct perfmap *pm)
{
	if (!pm)
		return;
	symtab__free(pm->st);
	free(pm);
}

static bool parse_hex(const char **pp, const char *end, u64 *out)
{
	const char *p = *pp;
	u64 v = 0;
	int digits = 0;

	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; p < end; p++) {
		char c = *p;
		int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			break;
		if (++digits > 16)
			return false;
		v = v << 4 | (u64)d;
	}
	if (!digits)
		return false;
	*pp = p;
	*out = v;
	return true;
}

int perfmap__parse(const char *text, size_t len, struct symtab *st,
		   size_t *bad)
{
	const char *p = text, *end = text + len;

	*bad = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *q = p;
		u64 start, size;
		int err;

		if (eol > p && eol[-1] == '\r')
			eol--;
		if (eol == p)
			goto next;	/* blank line */
		if (!parse_hex(&q, eol, &start) || q == eol || *q++ != ' ' ||
		    !parse_hex(&q, eol, &size) || q == eol || *q++ != ' ' ||
		    q == eol || !start) {
			(*bad)++;
			goto next;
		}
		err = symtab__add(st, start, size, 0, q, (size_t)(eol - q),
				  SYM_F_JIT, SYMTAB_BIND_GLOBAL, 0);
		if (err)
			return err;
next:
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* Who speaks for a process's JIT code besides root: its owner; for a
 * process that is gone (a recording), the user reading it, as in perf
 * report. */
static bool owner_ok(const struct perfmap *pm, uid_t uid)
{
	struct stat owner;

	if (stat(pm->proc_pid, &owner) == 0)
		return owner.st_uid == uid;
	return errno == ENOENT && uid == geteuid();
}

static void refuse(struct perfmap *pm, const char *why)
{
	if (!pm->warned)
		pr_warn("%s: %s, not used", pm->path, why);
	pm->warned = true;
}

/* Reads exactly n bytes (the file may grow meanwhile); the last partial
 * line is dropped. */
static ssize_t read_lines(int fd, char *buf, size_t n)
{
	ssize_t r = fd__pread_upto(fd, buf, n, 0);
	size_t got;

	if (r < 0)
		return r;
	got = (size_t)r;
	while (got && buf[got - 1] != '\n')
		got--;
	return (ssize_t)got;
}

int perfmap__refresh(struct perfmap *pm)
{
	struct symtab *st = NULL;
	struct stat sb;
	char *buf = NULL;
	ssize_t n;
	int fd, err = 0;

	fd = open(pm->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		if (err == -ELOOP)
			refuse(pm, "a symbolic link");
		goto out;
	}
	if (fstat(fd, &sb)) {
		err = -errno;
		goto out;
	}
	if (!S_ISREG(sb.st_mode)) {
		refuse(pm, "not a regular file");
		err = -EPERM;
		goto out;
	}
	if (sb.st_uid != 0 && !owner_ok(pm, sb.st_uid)) {
		refuse(pm, "owned by neither root, the process's owner nor you");
		err = -EPERM;
		goto out;
	}
	if (sb.st_size > (off_t)PERFMAP_MAX) {
		refuse(pm, "larger than 64 MiB");
		err = -EFBIG;
		goto out;
	}
	if (pm->st && sb.st_dev == pm->dev && sb.st_ino == pm->ino &&
	    sb.st_size == pm->size)
		goto out;	/* unchanged */
	buf = malloc((size_t)sb.st_size + 1);
	st = symtab__new(pm->pool, SYMTAB_LAST_WINS | pm->demangle);
	if (!buf || !st) {
		err = -ENOMEM;
		goto out;
	}
	n = read_lines(fd, buf, (size_t)sb.st_size);
	if (n < 0) {
		err = (int)n;
		goto out;
	}
	err = perfmap__parse(buf, (size_t)n, st, &pm->bad);
	if (!err)
		err = symtab__finish(st);
	if (err)
		goto out;
	if (pm->bad)
		pr_debug("%s: %zu lines skipped", pm->path, pm->bad);
	symtab__free(pm->st);
	pm->st = st;
	st = NULL;
	pm->dev = sb.st_dev;
	pm->ino = sb.st_ino;
	/* what was parsed; a partial last line is read again next time */
	pm->size = n == sb.st_size ? sb.st_size : n;
out:
	symtab__free(st);
	free(buf);
	if (fd >= 0)
		close(fd);
	return err;
}

int perfmap__lookup(struct perfmap *pm, u64 addr, struct symtab_hit *hit)
{
	return symtab__lookup(pm->st, addr, hit);
}

const char *perfmap__name(const struct perfmap *pm)
{
	return pm->name;
}

bool perfmap__loaded(const struct perfmap *pm)
{
	return pm && pm->st;
}

size_t perfmap__bytes(const struct perfmap *pm)
{
	return pm ? sizeof(*pm) + symtab__bytes(pm->st) : 0;
}
