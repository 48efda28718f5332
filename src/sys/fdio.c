/* fdio: whole reads and writes (see fdio.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/sys/fdio.h"

/* write (at < 0) or pwrite at `at`, until all of n is written */
static int whole(int fd, const void *p, size_t n, off_t at, u64 *done)
{
	const char *c = p;

	while (n) {
		ssize_t w = at < 0 ? write(fd, c, n) : pwrite(fd, c, n, at);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -ENOSPC;
		c += w;
		n -= (size_t)w;
		if (at >= 0)
			at += w;
		if (done)
			*done += (u64)w;
	}
	return 0;
}

int fd__write_all(int fd, const void *p, size_t n, u64 *done)
{
	return whole(fd, p, n, -1, done);
}

int fd__pwrite_all(int fd, const void *p, size_t n, u64 off)
{
	return whole(fd, p, n, (off_t)off, NULL);
}

/* fd__read_owned's checks of the file it opened (fd) or, when fd is -1,
 * of the link at path: 0, -EPERM with why, or -errno. */
static int check_owned(int fd, const char *path, size_t max,
		       struct strbuf *why)
{
	struct stat st;

	if (fd < 0) {
		if (lstat(path, &st))
			return -errno;
		if (st.st_uid == geteuid())
			return 0;
		strbuf__addf(why, "a symbolic link of uid %u, not of uid %u "
			     "(who runs ptop)", (unsigned int)st.st_uid,
			     (unsigned int)geteuid());
		return -EPERM;
	}
	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode)) {
		strbuf__adds(why, "not a regular file");
		return -EPERM;
	}
	if (st.st_uid != geteuid()) {
		strbuf__addf(why, "owned by uid %u, not by uid %u (who runs "
			     "ptop)", (unsigned int)st.st_uid,
			     (unsigned int)geteuid());
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		strbuf__adds(why, "writable by its group or others (chmod "
			     "go-w)");
		return -EPERM;
	}
	return (u64)st.st_size > max ? -EFBIG : 0;
}

static int read_owned(const char *path, struct strbuf *sb, size_t max,
		      struct strbuf *why)
{
	char buf[4096];
	int fd, err;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP) {
		/* a link of one's own (dotfiles kept elsewhere); the file
		 * it leads to is checked as any */
		err = check_owned(-1, path, max, why);
		if (err)
			return err;
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	}
	if (fd < 0)
		return -errno;
	err = check_owned(fd, path, max, why);
	while (!err) {
		ssize_t r = fd__read_upto(fd, buf, sizeof(buf));

		if (r < 0) {
			err = (int)r;
		} else if (sb->len + (size_t)r > max) {
			err = -EFBIG;	/* it grew */
		} else if (strbuf__add(sb, buf, (size_t)r)) {
			err = -ENOMEM;
		} else if ((size_t)r < sizeof(buf)) {
			break;
		}
	}
	close(fd);
	return err;
}

int fd__read_owned(const char *path, struct strbuf *sb, size_t max,
		   struct strbuf *why)
{
	size_t said = why->len;
	int err = read_owned(path, sb, max, why);

	/* an EPERM of the system's own (open, lstat) */
	if (err == -EPERM && why->len == said)
		strbuf__adds(why, strerror(EPERM));
	return err;
}

int fd__read_all(const char *path, struct strbuf *sb, size_t max)
{
	char buf[4096];
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r = fd__read_upto(fd, buf, sizeof(buf));

		if (r < 0) {
			err = (int)r;
			break;
		}
		got += (size_t)r;
		if (got > max) {
			err = -EFBIG;
			break;
		}
		if (strbuf__add(sb, buf, (size_t)r)) {
			err = -ENOMEM;
			break;
		}
		if ((size_t)r < sizeof(buf))
			break;	/* the end */
	}
	close(fd);
	return err;
}

/* read (at < 0) or pread at `at`, until n bytes or the end */
static ssize_t upto(int fd, void *p, size_t n, off_t at)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = at < 0 ? read(fd, (char *)p + got, n - got) :
				     pread(fd, (char *)p + got, n - got,
					   at + (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

ssize_t fd__read_upto(int fd, void *p, size_t n)
{
	return upto(fd, p, n, -1);
}

ssize_t fd__pread_upto(int fd, void *p, size_t n, u64 off)
{
	return upto(fd, p, n, (off_t)off);
}

int fd__csum(int fd, u64 off, u64 len, struct csum *c)
{
	char buf[1 << 16];

	while (len) {
		ssize_t n = fd__pread_upto(fd, buf, (size_t)MIN(len, sizeof(buf)),
					   off);

		if (n < 0)
			return (int)n;
		if (!n)
			return -EIO;
		csum__add(c, buf, (size_t)n);
		off += (u64)n;
		len -= (u64)n;
	}
	return 0;
}

int fd__read_text(const char *path, char *buf, size_t len)
{
	ssize_t n;
	char more;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = fd__read_upto(fd, buf, len - 1);
	if (n < 0)
		err = (int)n;
	else if ((size_t)n == len - 1 && fd__read_upto(fd, &more, 1) > 0)
		err = -EFBIG;
	close(fd);
	if (err)
		return err;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

int fd__read_int(const char *path, long long *out)
{
	char buf[64];
	int err = fd__read_text(path, buf, sizeof(buf));

	if (err)
		return err;
	*out = strtoll(buf, NULL, 10);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void dir__free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int dir__sorted_names(char **names, size_t n, int err, char ***out,
		      size_t *nr)
{
	if (err) {
		dir__free_names(names, n);
		return err;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	*out = names;
	*nr = n;
	return 0;
}

int dir__list(const char *path, const char *glob, char ***out, size_t *nr)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir(path);
	int err = 0;

	*out = NULL;
	*nr = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *name;

		if (de->d_name[0] == '.' ||
		    (glob && fnmatch(glob, de->d_name, 0)))
			continue;
		if (array__grow((void **)&names, &cap, n + 1,
				sizeof(*names)) ||
		    !(name = strdup(de->d_name))) {
			err = -ENOMEM;
			break;
		}
		names[n++] = name;
	}
	closedir(d);
	return dir__sorted_names(names, n, err, out, nr);
}
