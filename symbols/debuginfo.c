/* debuginfo: finds the files to read for a dso (binary, separate debug). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "symbols/dbgfetch.h"
#include "symbols/debuginfo.h"
#include "symbols/elfsym.h"
#include "src/core/log.h"

#define PATH_BUF 4096
/* Paths come from the profiled processes: a FIFO or a tty put where a
 * library was must not block us (then check_elf wants a regular file). */
#define RO_FLAGS (O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)

static const char *proc_dir(const struct debuginfo_opts *o)
{
	return o->proc ? o->proc : "/proc";
}

/* Is fd a regular ELF file, and with build-id (want, want_size) if that is
 * known?  Returns 1 yes, 0 not ELF, -ESTALE another build-id. */
static int check_elf(int fd, const u8 *want, size_t want_size,
		     u8 *got, int *got_size)
{
	u8 bid[BUILD_ID_MAX];
	struct stat sb;
	Elf *elf;
	int n;

	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode))
		return 0;
	elf = elfsym__open_fd(fd);
	if (!elf)
		return 0;
	n = elfsym__build_id(elf, bid, sizeof(bid));
	elf_end(elf);
	if (got && n > 0)
		memcpy(got, bid, (size_t)n);
	if (got_size)
		*got_size = n;
	if (!want_size)
		return 1;
	return n > 0 && dso__build_id_eq(bid, (size_t)n, want,
					       want_size) ? 1 : -ESTALE;
}

/* snprintf that refuses to truncate: a cut path names another file. */
static __attribute__((format(printf, 3, 4))) bool
path_fmt(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size) {
		if (size)
			buf[0] = '\0';
		return false;
	}
	return true;
}

static int open_ro(const char *path)
{
	int fd = open(path, RO_FLAGS);

	return fd < 0 ? -errno : fd;
}

/* Does pid live under another root than ours (a container)? */
static bool other_root(const struct debuginfo_opts *o, s32 pid)
{
	char p[PATH_BUF];
	struct stat a, b;

	if (pid <= 0)
		return false;
	if (!path_fmt(p, sizeof(p), "%s/%d/root", proc_dir(o), (int)pid) ||
	    stat(p, &a) || stat("/", &b))
		return false;
	return a.st_dev != b.st_dev || a.st_ino != b.st_ino;
}

/* Opens path as pid sees it.  With another root, path (symlinks and
 * ".." included) resolves inside that root: openat2(RESOLVE_IN_ROOT). */
static int open_as(const struct debuginfo_opts *o, s32 pid, const char *path,
		   char *display, size_t size)
{
	char root[PATH_BUF];
	struct open_how how = {
		.flags = RO_FLAGS,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int rfd, fd, err;

	if (!other_root(o, pid)) {
		path_fmt(display, size, "%s", path);
		return open_ro(path);
	}
	if (!path_fmt(root, sizeof(root), "%s/%d/root", proc_dir(o), (int)pid))
		return -ENAMETOOLONG;
	path_fmt(display, size, "%s%s", root, path);
	rfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rfd < 0)
		return -errno;
	fd = (int)syscall(SYS_openat2, rfd, path, &how, sizeof(how));
	err = fd < 0 ? -errno : 0;
	if (err == -ENOSYS) {
		/* before Linux 5.6: an absolute symlink in the container
		 * would resolve in our root here, so refuse symlinks at the
		 * last step at least; the build-id check covers the rest */
		pr_debug("debuginfo: no openat2, opening %s plainly", display);
		fd = openat(rfd, path[0] == '/' ? path + 1 : path,
			    RO_FLAGS | O_NOFOLLOW);
		err = fd < 0 ? -errno : 0;
	}
	close(rfd);
	return err ? err : fd;
}

/* Tries one candidate; returns its fd when it is the right file. */
static int try_binary(int fd, const struct dso *dso)
{
	int r;

	if (fd < 0)
		return fd;
	r = check_elf(fd, dso->build_id, dso->build_id_size, NULL, NULL);
	if (r == 1)
		return fd;
	close(fd);
	return r ? r : -ENOEXEC;
}

/* The most telling failure: another build-id, then not ELF, then any
 * other than a missing file. */
static int worst(int a, int b)
{
	if (a == -ESTALE || b == -ESTALE)
		return -ESTALE;
	if (a == -ENOEXEC || b == -ENOEXEC)
		return -ENOEXEC;
	return a == -ENOENT ? b : a;
}

/* try_binary of the file at cand: its fd with cand copied to path, or
 * -errno with *err made the worst failure so far. */
static int try_binary_at(const char *cand, const struct dso *dso, char *path,
			 size_t size, int *err)
{
	int fd = try_binary(open_ro(cand), dso);

	if (fd >= 0)
		path_fmt(path, size, "%s", cand);
	else
		*err = worst(*err, fd);
	return fd;
}

/* /proc/PID/map_files/START-END: the very file mapped, even deleted. */
static int open_map_files(const struct debuginfo_opts *o,
			  const struct dso *dso, char *path, size_t size)
{
	char mf[PATH_BUF];
	int fd;

	if (dso->pid <= 0 || dso->map_end <= dso->map_start ||
	    !path_fmt(mf, sizeof(mf), "%s/%d/map_files/%" PRIx64 "-%" PRIx64,
		      proc_dir(o), (int)dso->pid, dso->map_start,
		      dso->map_end))
		return -ENOENT;
	fd = try_binary(open_ro(mf), dso);
	if (fd >= 0)
		path_fmt(path, size, "%s", mf);
	return fd;
}

static bool same_inode(int fd, const struct dso *dso)
{
	struct stat sb;

	return !dso->ino || (!fstat(fd, &sb) && (u64)sb.st_ino == dso->ino);
}

/*
 * The binary by its build-id, in the stores perf and distributions keep:
 * each --debug-dir's and /usr/lib/debug's .build-id/xx/rest (Debian's
 * -dbg packages link the binary there), and perf's own cache,
 * ~/.debug/.build-id/xx/rest/elf.  What a recording names is found even
 * after the file at its path was replaced.
 */
static int open_by_build_id(const struct debuginfo_opts *o,
			    const struct dso *dso, char *path, size_t size)
{
	const char *home = o->home ? o->home : getenv("HOME");
	size_t nr = o->nr_debug_dirs;
	char hex[2 * BUILD_ID_MAX + 1];
	int err = -ENOENT;

	dso__build_id_hex(dso, hex, sizeof(hex));
	for (size_t i = 0; i <= nr + 1; i++) {
		char cand[PATH_BUF];
		bool ok;
		int fd;

		if (i < nr)
			ok = path_fmt(cand, sizeof(cand), "%s/.build-id/%.2s/%s",
				      o->debug_dirs[i], hex, hex + 2);
		else if (i == nr)
			ok = home && *home &&
			     path_fmt(cand, sizeof(cand),
				      "%s/.debug/.build-id/%.2s/%s/elf", home,
				      hex, hex + 2);
		else
			ok = path_fmt(cand, sizeof(cand),
				      "/usr/lib/debug/.build-id/%.2s/%s", hex,
				      hex + 2);
		if (!ok)
			continue;
		fd = try_binary_at(cand, dso, path, size, &err);
		if (fd >= 0)
			return fd;
	}
	return err;
}

/* --symfs DIR: DIR/path, then (only with a build-id to check it, as a
 * name alone says little) DIR/basename, perf's flat layout. */
static int open_symfs(const struct debuginfo_opts *o, const struct dso *dso,
		      char *path, size_t size)
{
	const char *base = strrchr(dso->path, '/');
	int err = -ENOENT;

	for (int i = 0; i < 2; i++) {
		const char *name = i ? (base ? base + 1 : dso->path) :
				       dso->path;
		char cand[PATH_BUF];
		int fd;

		if (i && !dso->build_id_size)
			break;
		while (*name == '/')
			name++;
		if (!path_fmt(cand, sizeof(cand), "%s/%s", o->symfs, name))
			continue;
		fd = try_binary_at(cand, dso, path, size, &err);
		if (fd >= 0)
			return fd;
	}
	return err;
}

/* Asks debuginfod for what (kind) of dso's build-id: an fd checked by
 * check (try_binary or try_debug), -EINPROGRESS, or err when it failed. */
static int fetch(const struct debuginfo_opts *o, const struct dso *dso,
		 enum dbgfetch_kind kind, const u8 *bid, size_t bid_size,
		 char *path, size_t size, int err)
{
	char cand[PATH_BUF];
	int r, fd;

	if (!o->fetch || !bid_size || bid_size > BUILD_ID_MAX)
		return err;
	r = dbgfetch__get(o->fetch, kind, bid, bid_size, dso->path,
			  o->fetch_until, cand, sizeof(cand));
	if (r == -EINPROGRESS)
		return r;
	if (r)
		return err;
	/* dbgfetch checked it; the cache may have changed since */
	fd = open_ro(cand);
	if (fd >= 0 && check_elf(fd, bid, bid_size, NULL, NULL) != 1) {
		close(fd);
		fd = -ESTALE;
	}
	if (fd < 0)
		return err;
	path_fmt(path, size, "%s", cand);
	return fd;
}

int debuginfo__open_binary(const struct debuginfo_opts *o,
			   const struct dso *dso, char *path, size_t size)
{
	int fd, mfd, err = -ENOENT;

	if (!dso->path || !dso->path[0])
		return -ENOENT;
	if (o->symfs) {
		fd = open_symfs(o, dso, path, size);
		if (fd >= 0)
			return fd;
		err = worst(err, fd);
	}
	if (dso->build_id_size && dso->build_id_size <= BUILD_ID_MAX) {
		fd = open_by_build_id(o, dso, path, size);
		if (fd >= 0)
			return fd;
		/* another build-id in a store says nothing of the path */
		if (fd != -ESTALE)
			err = worst(err, fd);
	}
	if (!dso->deleted) {
		fd = try_binary(open_as(o, dso->pid, dso->path, path, size),
				dso);
		/* Without a build-id, another inode at the path is likely a
		 * newer version renamed over the mapped one: the mapping
		 * itself is better, while its process lives. */
		if (fd >= 0 && !dso->build_id_size && !same_inode(fd, dso)) {
			mfd = open_map_files(o, dso, path, size);
			if (mfd >= 0) {
				close(fd);
				return mfd;
			}
			pr_debug("%s: not the inode that was mapped", path);
		}
		if (fd >= 0)
			return fd;
		err = worst(err, fd);
	}
	fd = open_map_files(o, dso, path, size);
	if (fd >= 0)
		return fd;
	err = worst(err, fd);
	/* A file at a deleted mapping's path is someone else unless the
	 * build-id says otherwise. */
	if (dso->deleted && dso->build_id_size) {
		fd = try_binary(open_as(o, dso->pid, dso->path, path, size),
				dso);
		if (fd >= 0)
			return fd;
		err = worst(err, fd);
	}
	return fetch(o, dso, DBGFETCH_EXECUTABLE, dso->build_id,
		     dso->build_id_size, path, size, err);
}

/* zlib's CRC-32 (reflected 0xedb88320), as .gnu_debuglink uses */
static u32 crc_table[256];

static void crc_init(void)
{
	for (u32 i = 0; i < 256; i++) {
		u32 c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

int debuginfo__crc32(int fd, u32 *out)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const size_t size = 1 << 16;
	u32 crc = 0xffffffffu;
	u8 *buf = malloc(size);
	off_t off = 0;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	pthread_once(&once, crc_init);
	for (;;) {
		ssize_t n = pread(fd, buf, size, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (!n)
			break;
		for (ssize_t i = 0; i < n; i++)
			crc = crc_table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
		off += n;
	}
	free(buf);
	if (!err)
		*out = crc ^ 0xffffffffu;
	return err;
}

/* A debug file candidate: build-id must match when both sides have one,
 * else (debuglink) the CRC must. */
static int try_debug(int fd, const u8 *bid, size_t bid_size, bool by_crc,
		     u32 crc)
{
	u8 got[BUILD_ID_MAX];
	int got_size = 0, r;
	u32 c;

	if (fd < 0)
		return fd;
	r = check_elf(fd, NULL, 0, got, &got_size);
	if (r != 1)
		goto reject;
	if (bid_size && got_size > 0) {
		if (dso__build_id_eq(got, (size_t)got_size, bid,
					   bid_size))
			return fd;
		goto reject;
	}
	if (by_crc && !debuginfo__crc32(fd, &c) && c == crc)
		return fd;
reject:
	close(fd);
	return -ENOENT;
}

/* Formats ROOT/.build-id/xx/rest.debug into path. */
static int by_build_id(const char *root, const u8 *bid, size_t n,
		       char *path, size_t size)
{
	char hex[2 * BUILD_ID_MAX + 1];
	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", bid[i]);
	return path_fmt(path, size, "%s/.build-id/%.2s/%s.debug", root, hex,
			hex + 2) ? 0 : -ENAMETOOLONG;
}

/* The debug roots, in order: --symfs's /usr/lib/debug, each --debug-dir,
 * /usr/lib/debug; NULL for a slot that has none (i < nr_debug_dirs + 2). */
static const char *debug_root(const struct debuginfo_opts *o, size_t i,
			      char *buf, size_t size)
{
	if (i == 0)
		return o->symfs && path_fmt(buf, size, "%s/usr/lib/debug",
					    o->symfs) ? buf : NULL;
	if (i <= o->nr_debug_dirs)
		return o->debug_dirs[i - 1];
	return "/usr/lib/debug";
}

int debuginfo__open_debug(const struct debuginfo_opts *o,
			  const struct dso *dso, const struct elf_info *bin,
			  char *path, size_t size)
{
	const u8 *bid = bin->build_id;
	size_t bid_size = bin->build_id_size, nr = o->nr_debug_dirs + 2;
	char dir[PATH_BUF], cand[PATH_BUF], rbuf[PATH_BUF];
	const char *slash;
	int fd;

	if (!bid_size) {
		bid = dso->build_id;
		bid_size = dso->build_id_size;
	}
	if (bid_size >= 2) {
		for (size_t i = 0; i < nr; i++) {
			const char *root = debug_root(o, i, rbuf, sizeof(rbuf));

			if (!root || by_build_id(root, bid, bid_size, cand,
						 sizeof(cand)))
				continue;
			fd = try_debug(open_ro(cand), bid,
				       bid_size, false, 0);
			if (fd >= 0) {
				path_fmt(path, size, "%s", cand);
				return fd;
			}
		}
	}
	if (!bin->debuglink[0] || !dso->path)
		goto fetch;
	slash = strrchr(dso->path, '/');
	if (!path_fmt(dir, sizeof(dir), "%.*s",
		      slash ? (int)(slash - dso->path) : 1,
		      slash ? dso->path : "."))
		goto fetch;
	/* beside the binary under --symfs */
	for (int i = 0; o->symfs && dir[0] == '/' && i < 2; i++) {
		if (!path_fmt(cand, sizeof(cand), "%s%s/%s%s", o->symfs, dir,
			      i ? ".debug/" : "", bin->debuglink))
			continue;
		fd = try_debug(open_ro(cand), bid, bid_size, true,
			       bin->debuglink_crc);
		if (fd >= 0) {
			path_fmt(path, size, "%s", cand);
			return fd;
		}
	}
	/* in the binary's own tree (the process's root) */
	for (int i = 0; i < 2; i++) {
		if (!path_fmt(cand, sizeof(cand), "%s/%s%s", dir,
			      i ? ".debug/" : "", bin->debuglink))
			continue;
		fd = try_debug(open_as(o, dso->pid, cand, path, size), bid,
			       bid_size, true, bin->debuglink_crc);
		if (fd >= 0)
			return fd;
	}
	/* under the debug roots */
	for (size_t i = 0; i < nr && dir[0] == '/'; i++) {
		const char *root = debug_root(o, i, rbuf, sizeof(rbuf));

		if (!root)
			continue;
		if (!path_fmt(cand, sizeof(cand), "%s%s/%s", root, dir,
			      bin->debuglink))
			continue;
		fd = try_debug(open_ro(cand), bid,
			       bid_size, true, bin->debuglink_crc);
		if (fd >= 0) {
			path_fmt(path, size, "%s", cand);
			return fd;
		}
	}
fetch:
	return fetch(o, dso, DBGFETCH_DEBUGINFO, bid, bid_size, path, size,
		     -ENOENT);
}
