/* outfile: the files ptop writes, created new (see outfile.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "src/sys/fdio.h"
#include "src/sys/outfile.h"

#define TMP_SUFFIX OUTFILE_TMP_SUFFIX
/* of the target's name in a temporary's: room for the rest in NAME_MAX */
#define TMP_BASE_MAX 200
/* a temporary this old, of a process that is gone, was left by a kill */
#define STALE_TMP_SECONDS 60
/* decisions taken again when what lstat saw changed before the open */
#define TRIES 4

int outfile__fd_named(const char *path)
{
	char self[32];
	const char *n = NULL;
	char *end;
	long fd;

	if (!path)
		return -1;
	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(path, "/dev/stderr"))
		return STDERR_FILENO;
	if (!strcmp(path, "/dev/stdin"))
		return STDIN_FILENO;
	snprintf(self, sizeof(self), "/proc/%d/fd/", (int)getpid());
	if (!strncmp(path, "/dev/fd/", 8))
		n = path + 8;
	else if (!strncmp(path, "/proc/self/fd/", 14))
		n = path + 14;
	else if (!strncmp(path, "/proc/thread-self/fd/", 21))
		n = path + 21;
	else if (!strncmp(path, self, strlen(self)))
		n = path + strlen(self);
	if (!n || *n < '0' || *n > '9')
		return -1;
	errno = 0;
	fd = strtol(n, &end, 10);
	if (errno || *end || fd > INT_MAX)
		return -1;
	return (int)fd;
}

static int fail(struct outfile *of, const char *step, int err)
{
	of->failed = step;
	return err;
}

static void release(struct outfile *of)
{
	if (of->fd >= 0)
		close(of->fd);
	if (of->dirfd >= 0)
		close(of->dirfd);
	free(of->base);
	free(of->tmp);
	of->fd = of->dirfd = -1;
	of->base = of->tmp = NULL;
}

/* of->dirfd and of->base from path: 0 or -errno. */
static int split(struct outfile *of, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir;

	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return -EISDIR;
	if (strlen(base) > NAME_MAX)
		return -ENAMETOOLONG;
	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	of->base = strdup(base);
	if (!dir || !of->base) {
		free(dir);
		return -ENOMEM;
	}
	/* readable for the cleaning of temporaries; a folder we may only
	 * enter and write is enough for the rest */
	of->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (of->dirfd < 0 && errno == EACCES)
		of->dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	return of->dirfd < 0 ? -errno : 0;
}

static bool same_node(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       (a->st_mode & S_IFMT) == (b->st_mode & S_IFMT) &&
	       a->st_rdev == b->st_rdev;
}

/* A socket at base: connected through an O_PATH descriptor of the node
 * lstat saw (connect would follow a link planted at the name). */
static int open_socket(struct outfile *of, const struct stat *seen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int pfd, fd, err = 0;

	pfd = openat(of->dirfd, of->base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	if (fstat(pfd, &st)) {
		err = -errno;
	} else if (!same_node(&st, seen)) {
		err = -EAGAIN;
	} else {
		snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d",
			 pfd);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			err = -errno;
		} else if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
			err = -errno;
			close(fd);
		} else {
			of->fd = fd;
		}
	}
	close(pfd);
	return err;
}

/* A character device or a FIFO at base, written in place: 0, -EAGAIN
 * when the name no longer holds what lstat saw, or -errno. */
static int open_in_place(struct outfile *of, const struct stat *seen)
{
	int oflags = O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY;
	struct stat st;
	int fd;

	of->in_place = true;
	if (S_ISSOCK(seen->st_mode))
		return open_socket(of, seen);
	/* a device may wait in open (a serial line's carrier); a FIFO
	 * waits for its reader, as a shell's redirection does */
	if (S_ISCHR(seen->st_mode))
		oflags |= O_NONBLOCK;
	fd = openat(of->dirfd, of->base, oflags);
	if (fd < 0)
		return errno == ELOOP ? -EAGAIN : -errno;
	if (fstat(fd, &st) || !same_node(&st, seen)) {
		close(fd);
		return -EAGAIN;
	}
	if ((oflags & O_NONBLOCK) &&
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		close(fd);
		return -errno;
	}
	of->fd = fd;
	return 0;
}

static int create(struct outfile *of, const char *name)
{
	int oflags = O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC |
		     ((of->flags & OUTFILE_RDWR) ? O_RDWR : O_WRONLY);
	mode_t mode = (of->flags & OUTFILE_EXPORT) ? 0644 : 0600;
	int fd = openat(of->dirfd, name, oflags, mode);

	if (fd < 0)
		return -errno;
	of->fd = fd;
	return 0;
}

static int old_name(const struct outfile *of, char *buf, size_t len)
{
	return snprintf(buf, len, "%s.old", of->base) >= (int)len ||
			       strlen(of->base) + 4 > NAME_MAX ?
		       -ENAMETOOLONG :
		       0;
}

/* OUTFILE_NEW: base itself, what is there moved to base.old first
 * (KEEP_OLD): 0, -EAGAIN when something came in between, or -errno. */
static int open_new(struct outfile *of, const struct stat *st, bool exists)
{
	char old[NAME_MAX + 1];
	int err;

	if (exists && !(of->flags & OUTFILE_KEEP_OLD))
		return fail(of, "a file is there", -EEXIST);
	if (exists && S_ISREG(st->st_mode) && !st->st_size) {
		/* nothing to keep */
		if (unlinkat(of->dirfd, of->base, 0) && errno != ENOENT)
			return fail(of, "removing the empty file there",
				    -errno);
	} else if (exists) {
		err = old_name(of, old, sizeof(old));
		if (!err && renameat(of->dirfd, of->base, of->dirfd, old))
			err = errno == ENOENT ? -EAGAIN : -errno;
		if (err == -EAGAIN)
			return err;
		if (err)
			return fail(of, "keeping the existing file as .old",
				    err);
		of->moved_old = true;
	}
	err = create(of, of->base);
	if (err == -EEXIST)
		return -EAGAIN;	/* planted meanwhile */
	return err ? fail(of, "creating it", err) : 0;
}

/* Removes the temporaries of base that a killed run left: ours (no other
 * user can make a file of ours), of a process that is gone, not recent.
 * Names are matched, never followed (unlinkat removes the name). */
static void clean_stale(struct outfile *of)
{
	char prefix[TMP_BASE_MAX + 3];
	size_t plen, slen = strlen(TMP_SUFFIX);
	struct dirent *de;
	time_t now = time(NULL);
	int dfd = openat(of->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	snprintf(prefix, sizeof(prefix), ".%.*s.", TMP_BASE_MAX, of->base);
	plen = strlen(prefix);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct stat st;
		char *end;
		long pid;

		if (len <= plen + slen || strncmp(de->d_name, prefix, plen) ||
		    strcmp(de->d_name + len - slen, TMP_SUFFIX))
			continue;
		pid = strtol(de->d_name + plen, &end, 10);
		if (*end != '.' || pid <= 0 || pid == getpid() ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
		    now - st.st_mtime < STALE_TMP_SECONDS)
			continue;
		if (kill((pid_t)pid, 0) && errno == ESRCH)
			unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

static u32 random_u32(void)
{
	static unsigned int counter;
	struct timespec ts;
	u32 r;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == sizeof(r))
		return r;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u32)ts.tv_nsec ^ (u32)getpid() << 16 ^
	       __atomic_add_fetch(&counter, 0x9e3779b9u, __ATOMIC_RELAXED);
}

/* A new temporary beside base: 0 or -errno. */
static int open_tmp(struct outfile *of)
{
	char name[NAME_MAX + 1];
	int err = -EEXIST;

	clean_stale(of);
	for (int i = 0; i < 16 && err == -EEXIST; i++) {
		snprintf(name, sizeof(name), ".%.*s.%d.%08x" TMP_SUFFIX,
			 TMP_BASE_MAX, of->base, (int)getpid(), random_u32());
		err = create(of, name);
	}
	if (err)
		return fail(of, "creating a temporary file", err);
	of->tmp = strdup(name);
	if (!of->tmp) {
		unlinkat(of->dirfd, name, 0);
		return fail(of, "creating a temporary file", -ENOMEM);
	}
	return 0;
}

/* One decision on what lstat shows at base: 0, -EAGAIN to decide again,
 * or -errno. */
static int open_once(struct outfile *of)
{
	struct stat st;
	bool exists = true;
	unsigned int type;

	if (fstatat(of->dirfd, of->base, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			return fail(of, "looking at it", -errno);
		exists = false;
	}
	type = exists ? (st.st_mode & S_IFMT) : 0;
	if (type == S_IFDIR)
		return fail(of, "a directory is there", -EISDIR);
	if (!(of->flags & OUTFILE_FILE_ONLY)) {
		if (type == S_IFBLK)
			return fail(of, "a block device is there", -ENOTSUP);
		if ((type == S_IFCHR || type == S_IFIFO || type == S_IFSOCK) &&
		    (!(of->flags & OUTFILE_NEW) ||
		     (of->flags & OUTFILE_KEEP_OLD))) {
			int err = open_in_place(of, &st);

			if (err && err != -EAGAIN)
				return fail(of, "opening it in place", err);
			return err;
		}
	}
	if (of->flags & OUTFILE_NEW)
		return open_new(of, &st, exists);
	return open_tmp(of);
}

int outfile__open(struct outfile *of, const char *path, unsigned int flags)
{
	int n = -1, err;

	memset(of, 0, sizeof(*of));
	of->fd = of->dirfd = -1;
	of->flags = flags;
	if (!path || !*path)
		return fail(of, "no name", -EINVAL);
	if (!(flags & OUTFILE_FILE_ONLY))
		n = outfile__fd_named(path);
	if (n >= 0) {
		/* resolved once: the descriptor itself, never the name */
		of->in_place = true;
		of->fd = fcntl(n, F_DUPFD_CLOEXEC, 3);
		if (of->fd < 0)
			return fail(of, "the descriptor is not open", -errno);
		return 0;
	}
	err = split(of, path);
	if (err) {
		release(of);
		return fail(of, "opening its folder", err);
	}
	err = -EAGAIN;
	for (int i = 0; i < TRIES && err == -EAGAIN; i++) {
		of->in_place = false;
		err = open_once(of);
	}
	if (err == -EAGAIN)
		err = fail(of, "it kept changing while being opened", -EEXIST);
	if (err)
		release(of);
	return err;
}

static void sync_dir(const struct outfile *of)
{
	int fd = openat(of->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* OUTFILE_NEW gave up: its file removed if the name still holds it, what
 * was moved to .old put back unless something took the name. */
static void undo_new(struct outfile *of, const struct stat *mine)
{
	char old[NAME_MAX + 1];
	struct stat st;

	if (!fstatat(of->dirfd, of->base, &st, AT_SYMLINK_NOFOLLOW) &&
	    same_node(&st, mine))
		unlinkat(of->dirfd, of->base, 0);
	if (of->moved_old && !old_name(of, old, sizeof(old)))
		renameat2(of->dirfd, old, of->dirfd, of->base,
			  RENAME_NOREPLACE);
}

int outfile__finish(struct outfile *of, int err)
{
	struct stat mine;
	bool have = false;

	if (of->fd < 0) {
		release(of);
		return err ? err : -EBADF;
	}
	if (!of->in_place && !of->tmp)
		have = !fstat(of->fd, &mine);
	if (!err && !of->in_place && (of->flags & OUTFILE_SYNC) &&
	    fsync(of->fd))
		err = fail(of, "writing it to disk", -errno);
	if (close(of->fd) && !err)
		err = fail(of, "closing it", -errno);
	of->fd = -1;
	if (of->in_place) {
		release(of);
		return err;
	}
	if (of->tmp && !err &&
	    renameat(of->dirfd, of->tmp, of->dirfd, of->base))
		err = fail(of, "replacing it", -errno);
	if (of->tmp && err)
		unlinkat(of->dirfd, of->tmp, 0);
	if (!of->tmp && err && have)
		undo_new(of, &mine);
	if (!err && (of->flags & OUTFILE_SYNC))
		sync_dir(of);
	release(of);
	return err;
}

int outfile__save(const char *path, const void *p, size_t n,
		  unsigned int flags)
{
	struct outfile of;
	int err = outfile__open(&of, path, flags);

	if (err)
		return err;
	return outfile__finish(&of, fd__write_all(of.fd, p, n, NULL));
}
