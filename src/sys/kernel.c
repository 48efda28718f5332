/* kernel: the running kernel's files (see kernel.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
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

/*
 * kallsyms read ahead on a thread of its own: the kernel's formatting of
 * its lines (some 35 ms of CPU for 122K of them) beside the caller's
 * parse of the chunks before (some 25 ms), where one thread did both in
 * turn.  The reader fills RA_SLOTS chunks ahead at most; ra_read hands
 * them out as fd__read_upto would read the file.
 */
#define RA_SLOTS 4
#define RA_CHUNK (64u << 10)

struct readahead {
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* a chunk filled, or one freed, or quit */
	pthread_t thread;
	int fd;
	char *buf[RA_SLOTS];
	ssize_t len[RA_SLOTS];	/* the read's bytes, or -errno */
	unsigned int filled, taken;	/* chunks so far, each side */
	size_t off;		/* into the chunk being taken */
	bool quit;		/* the caller stopped reading */
	bool over;		/* the reader met the end or an error */
};

static void *ra_main(void *arg)
{
	struct readahead *ra = arg;

	for (;;) {
		unsigned int slot;
		ssize_t n;

		pthread_mutex_lock(&ra->lock);
		while (!ra->quit && ra->filled - ra->taken == RA_SLOTS)
			pthread_cond_wait(&ra->cond, &ra->lock);
		if (ra->quit) {
			pthread_mutex_unlock(&ra->lock);
			break;
		}
		slot = ra->filled % RA_SLOTS;
		pthread_mutex_unlock(&ra->lock);
		/* the slot is the reader's until filled is counted */
		n = fd__read_upto(ra->fd, ra->buf[slot], RA_CHUNK);
		pthread_mutex_lock(&ra->lock);
		ra->len[slot] = n;
		ra->filled++;
		pthread_cond_broadcast(&ra->cond);
		pthread_mutex_unlock(&ra->lock);
		if (n <= 0)
			break;
	}
	return NULL;
}

/* Starts the reader: false when it cannot be (then the caller reads). */
static bool ra_start(struct readahead *ra, int fd)
{
	sigset_t all, old;
	bool ok = true;
	int i;

	memset(ra, 0, sizeof(*ra));
	ra->fd = fd;
	for (i = 0; i < RA_SLOTS; i++)
		if (!(ra->buf[i] = malloc(RA_CHUNK)))
			break;
	if (i < RA_SLOTS) {
		while (i--)
			free(ra->buf[i]);
		return false;
	}
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->cond, NULL);
	/* no signal for it: they are its caller's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&ra->thread, NULL, ra_main, ra)) {
		pthread_cond_destroy(&ra->cond);
		pthread_mutex_destroy(&ra->lock);
		for (i = 0; i < RA_SLOTS; i++)
			free(ra->buf[i]);
		ok = false;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ok;
}

static void ra_stop(struct readahead *ra)
{
	pthread_mutex_lock(&ra->lock);
	ra->quit = true;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	pthread_join(ra->thread, NULL);
	pthread_cond_destroy(&ra->cond);
	pthread_mutex_destroy(&ra->lock);
	for (int i = 0; i < RA_SLOTS; i++)
		free(ra->buf[i]);
}

/* Up to n bytes of what the reader read, short only at the end of the
 * file (fd__read_upto's contract): the count, or -errno. */
static ssize_t ra_read(struct readahead *ra, char *p, size_t n)
{
	size_t got = 0;

	while (got < n && !ra->over) {
		unsigned int slot = ra->taken % RA_SLOTS;
		size_t take;
		ssize_t len;

		pthread_mutex_lock(&ra->lock);
		while (ra->filled == ra->taken)
			pthread_cond_wait(&ra->cond, &ra->lock);
		len = ra->len[slot];
		pthread_mutex_unlock(&ra->lock);
		if (len < 0)
			return len;
		if (len == 0) {
			ra->over = true;
			break;
		}
		take = MIN(n - got, (size_t)len - ra->off);
		memcpy(p + got, ra->buf[slot] + ra->off, take);
		got += take;
		ra->off += take;
		if (ra->off == (size_t)len) {
			/* the slot back to the reader */
			ra->off = 0;
			if ((size_t)len < RA_CHUNK)
				ra->over = true;	/* its last */
			pthread_mutex_lock(&ra->lock);
			ra->taken++;
			pthread_cond_broadcast(&ra->cond);
			pthread_mutex_unlock(&ra->lock);
		}
	}
	return (ssize_t)got;
}

int kernel__kallsyms(const char *path, const struct kernel_lines *l)
{
	struct readahead ra;
	bool ahead;
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
	/* one CPU: the same work in turn, without the thread */
	ahead = sysconf(_SC_NPROCESSORS_ONLN) > 1 && ra_start(&ra, fd);
	for (;;) {
		/* a whole chunk, short only at the end */
		ssize_t n = ahead ? ra_read(&ra, buf + len, cap - len) :
				    fd__read_upto(fd, buf + len, cap - len);
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
	if (ahead)
		ra_stop(&ra);
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
