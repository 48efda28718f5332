/* srcfile: source text for annotate, read once, bounded. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/core/lru.h"
#include "src/sys/fdio.h"
#include "symbols/srcfile.h"

struct sf_entry {
	struct lru_node node;	/* key: hash of the path, its length */
	char *path;
	int err;		/* why it could not be read, 0: read */
	char *data;
	size_t size;
	u32 *lines;		/* offset of each line's start */
	size_t nr_lines;
};

/* One bounded LRU (src/core/lru.c) by bytes held. */
struct srcfile_cache {
	struct lru lru;
};

static size_t entry_bytes(const struct sf_entry *e)
{
	return e->size + e->nr_lines * sizeof(*e->lines) + strlen(e->path) +
	       sizeof(*e);
}

static void entry_free(void *ctx, struct lru_node *n)
{
	struct sf_entry *e = lru_entry(n, struct sf_entry, node);

	(void)ctx;
	free(e->path);
	free(e->data);
	free(e->lines);
	free(e);
}

struct srcfile_cache *srcfile_cache__new(size_t max_bytes)
{
	struct srcfile_cache *c = calloc(1, sizeof(*c));

	/* a bound of 0 bytes keeps the newest only, as before */
	if (c)
		lru__init(&c->lru, max_bytes ? max_bytes : 1, 0, entry_free, c);
	return c;
}

void srcfile_cache__free(struct srcfile_cache *c)
{
	if (!c)
		return;
	lru__fini(&c->lru);
	free(c);
}

static int read_whole(const char *path, char **data, size_t *size)
{
	struct stat st;
	size_t got = 0;
	char *buf;
	ssize_t r;
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
	r = fd__read_upto(fd, buf, (size_t)st.st_size);
	if (r < 0)
		err = (int)r;
	else
		got = (size_t)r;
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

static u64 path_hash(const char *path)
{
	u64 h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (; *path; path++)
		h = (h ^ (unsigned char)*path) * 0x100000001b3ULL;
	return h;
}

static struct sf_entry *lookup(struct srcfile_cache *c, const char *path)
{
	u64 h = path_hash(path), len = strlen(path);
	struct lru_node *n = lru__find(&c->lru, h, len);
	struct sf_entry *e;

	if (n) {
		e = lru_entry(n, struct sf_entry, node);
		if (!strcmp(e->path, path))
			return e;
		/* another path with the same words: the new one replaces it */
		lru__remove(&c->lru, n);
		entry_free(c, n);
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->path = strdup(path);
	if (!e->path) {
		free(e);
		return NULL;
	}
	e->err = read_whole(path, &e->data, &e->size);
	if (!e->err)
		e->err = split_lines(e);
	e->node.key[0] = h;
	e->node.key[1] = len;
	e->node.cost = entry_bytes(e);
	/* the newest is never evicted to make room */
	if (lru__insert(&c->lru, &e->node)) {
		entry_free(c, &e->node);
		return NULL;
	}
	return e;
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
	return c ? lru__cost(&c->lru) : 0;
}
