/* symcache: binaries' symbol tables, kept as images (symcache.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/cachedir.h"
#include "symbols/symcache.h"
#include "symbols/symtab.h"
#include "src/sys/fdio.h"
#include "src/sys/outfile.h"

#define SYMCACHE_MAGIC "PTOPSYMC"
#define SYMCACHE_VERSION 1

/* A cache file: this header, then the table's image. */
struct symcache_hdr {
	char magic[8];
	u32 version, hdr_size;
	struct symcache_key key;
	u64 image_size;
	u32 extra, pad;
};

static void file_id(struct symcache_file *f, const struct stat *st)
{
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	f->size = (u64)st->st_size;
	f->mtime_sec = st->st_mtim.tv_sec;
	f->mtime_nsec = st->st_mtim.tv_nsec;
	f->ctime_sec = st->st_ctim.tv_sec;
	f->ctime_nsec = st->st_ctim.tv_nsec;
}

int symcache__key(struct symcache_key *k, int fd, int dfd, u32 what,
		  u32 flags)
{
	struct stat st;

	memset(k, 0, sizeof(*k));
	k->what = what;
	k->flags = flags;
	if (fd >= 0) {
		if (fstat(fd, &st))
			return -errno;
		file_id(&k->bin, &st);
	}
	if (dfd >= 0) {
		if (fstat(dfd, &st))
			return -errno;
		file_id(&k->dbg, &st);
	}
	return 0;
}

static u64 fnv1a(u64 h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const u8 *)p)[i]) * 0x100000001b3ull;
	return h;
}

/* DIR/symbols, and the file of bin's table in it: named by a hash of
 * bin's path and what the table holds, so that the table of a binary
 * changed since replaces the old one (the key itself is checked in the
 * file). */
static int paths(const char *dir, const char *bin,
		 const struct symcache_key *k, char *sub, char *path,
		 char *name)
{
	u64 h = 0xcbf29ce484222325ull;

	h = fnv1a(h, bin, strlen(bin));
	h = fnv1a(h, &k->what, sizeof(k->what));
	h = fnv1a(h, &k->flags, sizeof(k->flags));
	snprintf(name, NAME_MAX + 1, "%016llx.sym", (unsigned long long)h);
	if (!dir || !dir[0])
		return -EINVAL;
	if (snprintf(sub, PATH_MAX, "%s/symbols", dir) >= PATH_MAX ||
	    snprintf(path, PATH_MAX, "%s/%s", sub, name) >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

struct mapping {
	void *map;
	size_t size;
};

static void unmap(void *ctx)
{
	struct mapping *m = ctx;

	munmap(m->map, m->size);
	free(m);
}

/* Is the mapped file map (size bytes) whole, and k's? */
static bool header_good(const u8 *map, size_t size,
			const struct symcache_key *k)
{
	const struct symcache_hdr *h = (const void *)map;

	return size >= sizeof(*h) &&
	       !memcmp(h->magic, SYMCACHE_MAGIC, sizeof(h->magic)) &&
	       h->version == SYMCACHE_VERSION && h->hdr_size == sizeof(*h) &&
	       !memcmp(&h->key, k, sizeof(*k)) &&
	       h->image_size == size - sizeof(*h);
}

int symcache__load(const char *dir, const char *bin,
		   const struct symcache_key *k, struct strpool *pool,
		   unsigned int flags, struct symtab **out, u32 *extra)
{
	char sub[PATH_MAX], path[PATH_MAX], name[NAME_MAX + 1];
	struct mapping *m;
	struct stat st;
	int fd, err;
	u8 *map;

	*out = NULL;
	err = paths(dir, bin, k, sub, path, name);
	if (err)
		return err;
	fd = cachedir__open(path, &st);
	if (fd < 0)
		return fd;
	if ((u64)st.st_size < sizeof(struct symcache_hdr) ||
	    (u64)st.st_size > SIZE_MAX)
		goto bad;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		err = -errno;
		close(fd);
		return err;
	}
	m = malloc(sizeof(*m));
	if (!m) {
		munmap(map, (size_t)st.st_size);
		close(fd);
		return -ENOMEM;
	}
	*m = (struct mapping){ map, (size_t)st.st_size };
	errno = EBADMSG;
	if (header_good(map, m->size, k))
		*out = symtab__from_image(map + sizeof(struct symcache_hdr),
					  m->size - sizeof(struct symcache_hdr),
					  pool, flags, unmap, m);
	if (!*out) {
		err = errno == ENOMEM ? -ENOMEM : -EBADMSG;
		unmap(m);
		if (err == -ENOMEM) {
			close(fd);
			return err;
		}
		goto bad;
	}
	*extra = ((const struct symcache_hdr *)(void *)map)->extra;
	futimens(fd, NULL);	/* used: the last to go */
	close(fd);
	return 0;
bad:
	close(fd);
	unlink(path);
	return -EBADMSG;
}

struct writer {
	int fd;
	u64 bytes;
};

static int emit(void *ctx, const void *buf, size_t len)
{
	struct writer *w = ctx;

	if (w->bytes + len > SYMCACHE_MAX_BYTES / 10)
		return -EFBIG;
	w->bytes += len;
	return fd__write_all(w->fd, buf, len, NULL);
}

int symcache__save(const char *dir, const char *bin,
		   const struct symcache_key *k, const struct symtab *st,
		   u32 extra)
{
	char sub[PATH_MAX], path[PATH_MAX], name[NAME_MAX + 1];
	struct symcache_hdr h = { .magic = SYMCACHE_MAGIC };
	struct writer w = { -1, 0 };
	struct outfile of;
	int err;

	err = paths(dir, bin, k, sub, path, name);
	/* folders only we can write to: nobody else's file is read */
	if (!err)
		err = cachedir__ok(dir);
	if (!err)
		err = cachedir__ok(sub);
	if (err)
		return err;
	err = outfile__open(&of, path, OUTFILE_FILE_ONLY);
	if (err)
		return err;
	w.fd = of.fd;
	h.version = SYMCACHE_VERSION;
	h.hdr_size = sizeof(h);
	h.key = *k;
	h.extra = extra;
	/* the header last, with the image's size: a file cut short is
	 * never taken for whole */
	err = fd__pwrite_all(w.fd, &h, sizeof(h), 0);
	if (!err && lseek(w.fd, sizeof(h), SEEK_SET) < 0)
		err = -errno;
	if (!err)
		err = symtab__write_image(st, emit, &w);
	h.image_size = w.bytes;
	if (!err)
		err = fd__pwrite_all(w.fd, &h, sizeof(h), 0);
	err = outfile__finish(&of, err);
	if (err)
		return err;
	cachedir__prune(sub, name, SYMCACHE_MAX_BYTES);
	return 0;
}
