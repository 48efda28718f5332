/* srcfile: source text for annotate, read once, bounded. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "srcfile.h"

struct sf_entry {
	char *path;
	int err;		/* why it could not be read, 0: read */
	char *data;
	size_t size;
	u32 *lines;		/* offset of each line's start */
	size_t nr_lines;
	u64 used;
};

struct srcfile_cache {
	struct sf_entry *e;
	size_t nr, cap;
	size_t bytes, max_bytes;
	u64 clock;
};

struct srcfile_cache *srcfile_cache__new(size_t max_bytes)
{
	struct srcfile_cache *c = calloc(1, sizeof(*c));

	if (c)
		c->max_bytes = max_bytes;
	return c;
}

static size_t entry_bytes(const struct sf_entry *e)
{
	return e->size + e->nr_lines * sizeof(*e->lines) + strlen(e->path) +
	       sizeof(*e);
}

static void entry_fini(struct sf_entry *e)
{
	free(e->path);
	free(e->data);
	free(e->lines);
}

void srcfile_cache__free(struct srcfile_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr; i++)
		entry_fini(&c->e[i]);
	free(c->e);
	free(c);
}

static int read_whole(const char *path, char **data, size_t *size)
{
	struct stat st;
	size_t got = 0;
	char *buf;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		goto out;
	}
	if (st.st_size > (off_t)SRCFILE_MAX) {
		err = -EFBIG;
		goto out;
	}
	/* one more byte: a file that grew is cut, not overrun */
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r < 0)
				err = -errno;
			break;
		}
		got += (size_t)r;
	}
	if (err) {
		free(buf);
		goto out;
	}
	*data = buf;
	*size = got;
out:
	close(fd);
	return err;
}

static int split_lines(struct sf_entry *e)
{
	size_t cap = 0, n = 0;
	u32 *lines = NULL;

	for (size_t off = 0; off < e->size;) {
		const char *nl;

		if (array__grow((void **)&lines, &cap, n + 1, sizeof(*lines))) {
			free(lines);
			return -ENOMEM;
		}
		lines[n++] = (u32)off;
		nl = memchr(e->data + off, '\n', e->size - off);
		off = nl ? (size_t)(nl - e->data) + 1 : e->size;
	}
	e->lines = lines;
	e->nr_lines = n;
	return 0;
}

static void evict(struct srcfile_cache *c, size_t keep)
{
	while (c->bytes > c->max_bytes && c->nr > 1) {
		size_t lru = keep == 0 ? 1 : 0;

		for (size_t i = 0; i < c->nr; i++)
			if (i != keep && c->e[i].used < c->e[lru].used)
				lru = i;
		c->bytes -= entry_bytes(&c->e[lru]);
		entry_fini(&c->e[lru]);
		c->e[lru] = c->e[--c->nr];
		if (keep == c->nr)
			keep = lru;
	}
}

static struct sf_entry *lookup(struct srcfile_cache *c, const char *path)
{
	struct sf_entry *e;

	for (size_t i = 0; i < c->nr; i++) {
		if (!strcmp(c->e[i].path, path)) {
			c->e[i].used = ++c->clock;
			return &c->e[i];
		}
	}
	if (array__grow((void **)&c->e, &c->cap, c->nr + 1, sizeof(*c->e)))
		return NULL;
	e = &c->e[c->nr];
	memset(e, 0, sizeof(*e));
	e->path = strdup(path);
	if (!e->path)
		return NULL;
	e->err = read_whole(path, &e->data, &e->size);
	if (!e->err)
		e->err = split_lines(e);
	e->used = ++c->clock;
	c->nr++;
	c->bytes += entry_bytes(e);
	evict(c, c->nr - 1);
	/* evict may have moved it: find it again (it is the newest) */
	for (size_t i = 0; i < c->nr; i++)
		if (c->e[i].used == c->clock)
			return &c->e[i];
	return NULL;
}

int srcfile__line(struct srcfile_cache *c, const char *path, int line,
		  const char **text, size_t *len)
{
	struct sf_entry *e;
	size_t start, end;

	if (!c || !path || !text || !len)
		return -EINVAL;
	e = lookup(c, path);
	if (!e)
		return -ENOMEM;
	if (e->err)
		return e->err;
	if (line < 1 || (size_t)line > e->nr_lines)
		return -ERANGE;
	start = e->lines[line - 1];
	end = (size_t)line < e->nr_lines ? e->lines[line] : e->size;
	while (end > start &&
	       (e->data[end - 1] == '\n' || e->data[end - 1] == '\r'))
		end--;
	*text = e->data + start;
	*len = end - start;
	return 0;
}

int srcfile__check(struct srcfile_cache *c, const char *path)
{
	struct sf_entry *e;

	if (!c || !path)
		return -EINVAL;
	e = lookup(c, path);
	return e ? e->err : -ENOMEM;
}

size_t srcfile_cache__bytes(const struct srcfile_cache *c)
{
	return c ? c->bytes : 0;
}
