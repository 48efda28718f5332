/* symcache: binaries' symbol tables, kept as images (symcache.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/cachedir.h"
#include "symbols/symcache.h"
#include "symbols/symtab.h"
#include "src/sys/fdio.h"
#include "src/sys/mapguard.h"
#include "src/sys/outfile.h"

#define SYMCACHE_MAGIC "PTOPSYMC"
#define SYMCACHE_VERSION 2

/* A cache file: this header, then the table's image. */
struct symcache_hdr {
	char magic[8];
	u32 version, hdr_size;
	struct symcache_key key;
	u64 image_size;
	u32 extra, pad;
	u64 csum;	/* of the image (csum__) */
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

void symcache__name(const char *bin, const struct symcache_key *k,
		    u32 image_version, char *name)
{
	u64 h = 0xcbf29ce484222325ull;
	u32 file_version = SYMCACHE_VERSION;

	h = fnv1a(h, bin, strlen(bin));
	h = fnv1a(h, &k->what, sizeof(k->what));
	h = fnv1a(h, &k->flags, sizeof(k->flags));
	h = fnv1a(h, &file_version, sizeof(file_version));
	h = fnv1a(h, &image_version, sizeof(image_version));
	snprintf(name, NAME_MAX + 1, "%016llx.sym", (unsigned long long)h);
}

/* DIR/symbols, and the file of bin's table in it (symcache__name). */
static int paths(const char *dir, const char *bin,
		 const struct symcache_key *k, char *sub, char *path,
		 char *name)
{
	symcache__name(bin, k, SYMTAB_IMAGE_VERSION, name);
	if (!dir || !dir[0])
		return -EINVAL;
	if (snprintf(sub, PATH_MAX, "%s/symbols", dir) >= PATH_MAX ||
	    snprintf(path, PATH_MAX, "%s/%s", sub, name) >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

/* A file mapped whole (size bytes, fd): 0 when it is k's and whole, -ESTALE
 * when it is another key's or version's, -EBADMSG when it is damaged. */
static int check(int fd, const u8 *buf, size_t size,
		 const struct symcache_key *k)
{
	const struct symcache_hdr *h = (const void *)buf;
	struct csum c;

	if (size < sizeof(*h) ||
	    memcmp(h->magic, SYMCACHE_MAGIC, sizeof(h->magic)))
		return -EBADMSG;
	if (h->version != SYMCACHE_VERSION || h->hdr_size != sizeof(*h) ||
	    memcmp(&h->key, k, sizeof(*k)))
		return -ESTALE;
	if (h->image_size != size - sizeof(*h))
		return -EBADMSG;
	/* read from fd: the mapping's pages stay for lookups to touch */
	csum__init(&c);
	if (fd__csum(fd, sizeof(*h), size - sizeof(*h), &c))
		return -EBADMSG;
	return csum__end(&c) == h->csum ? 0 : -EBADMSG;
}

/* The table's guard and release (symtab__set_guard): its mapping. */
static int guard_run(void *ctx, void (*fn)(void *), void *arg)
{
	return mapfile__run(ctx, fn, arg);
}

static void release(void *ctx)
{
	mapfile__close(ctx);
	free(ctx);
}

struct load {
	struct mapfile *mf;
	const struct symcache_key *k;
	struct strpool *pool;
	unsigned int flags;
	int err;
	u32 extra;
	struct symtab *st;
};

/* Guarded: the checks read the whole mapping. */
static void load_checked(void *arg)
{
	struct load *l = arg;
	const u8 *map = l->mf->map;

	l->err = check(l->mf->fd, map, l->mf->size, l->k);
	if (l->err)
		return;
	l->extra = ((const struct symcache_hdr *)(const void *)map)->extra;
	errno = EBADMSG;
	l->st = symtab__from_image(map + sizeof(struct symcache_hdr),
				   l->mf->size - sizeof(struct symcache_hdr),
				   l->pool, l->flags, release, l->mf);
	if (!l->st)
		l->err = errno == ENOMEM ? -ENOMEM : -EBADMSG;
}

/*
 * Mapped, not read into the heap (a copy cost every start page faults
 * and 10 ms of CPU here: doc/design.md, "Files ptop maps"): every read of
 * the table's image is guarded (symtab__set_guard), so that a file cut
 * or changed while it is used makes lookups answer -ESTALE instead of
 * faulting or giving another table's names.
 */
int symcache__load(const char *dir, const char *bin,
		   const struct symcache_key *k, struct strpool *pool,
		   unsigned int flags, struct symtab **out, u32 *extra)
{
	char sub[PATH_MAX], path[PATH_MAX], name[NAME_MAX + 1];
	struct load l = { .k = k, .pool = pool, .flags = flags };
	struct stat st;
	int fd, err, rc;

	*out = NULL;
	err = paths(dir, bin, k, sub, path, name);
	if (err)
		return err;
	fd = cachedir__open(path, &st);
	if (fd < 0)
		return fd;
	if ((u64)st.st_size < sizeof(struct symcache_hdr) ||
	    (u64)st.st_size > SYMCACHE_MAX_BYTES) {
		close(fd);
		unlink(path);
		return -EBADMSG;
	}
	l.mf = malloc(sizeof(*l.mf));
	if (!l.mf) {
		close(fd);
		return -ENOMEM;
	}
	/* the table keeps the descriptor: its guard compares the file */
	err = mapfile__open(l.mf, fd);
	if (err) {
		free(l.mf);
		return err;
	}
	rc = mapfile__run(l.mf, load_checked, &l);
	/* cut or changed while checked: another run replacing it, or a
	 * file being cut; the name may hold a new file by now: it stays */
	if (rc && !l.err)
		l.err = -ESTALE;
	if (l.err) {
		/* a whole table releases the mapping; what a fault cut
		 * short is left as it is */
		if (l.st)
			symtab__free(l.st);
		else
			release(l.mf);
		if (!rc && l.err == -EBADMSG)
			unlink(path);
		return l.err;
	}
	symtab__set_guard(l.st, guard_run, l.mf);
	*out = l.st;
	*extra = l.extra;
	return 0;
}

struct writer {
	int fd;
	u64 bytes;
	struct csum c;
};

static int emit(void *ctx, const void *buf, size_t len)
{
	struct writer *w = ctx;

	if (w->bytes + len > SYMCACHE_MAX_BYTES / 10)
		return -EFBIG;
	w->bytes += len;
	csum__add(&w->c, buf, len);
	return fd__write_all(w->fd, buf, len, NULL);
}

int symcache__save(const char *dir, const char *bin,
		   const struct symcache_key *k, const struct symtab *st,
		   u32 extra)
{
	char sub[PATH_MAX], path[PATH_MAX], name[NAME_MAX + 1];
	struct symcache_hdr h = { .magic = SYMCACHE_MAGIC };
	struct writer w = { .fd = -1 };
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
	csum__init(&w.c);
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
	h.csum = csum__end(&w.c);
	if (!err)
		err = fd__pwrite_all(w.fd, &h, sizeof(h), 0);
	err = outfile__finish(&of, err);
	if (err)
		return err;
	cachedir__prune(sub, name, SYMCACHE_MAX_BYTES);
	return 0;
}
