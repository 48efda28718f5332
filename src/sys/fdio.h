/* fdio: whole reads and writes of file descriptors, small files and
 * directories, for the modules that do I/O (the perf.data reader and
 * writer, /proc, sysfs, tracefs, batch output, the command's output,
 * saved rows): their read and write loops (the few others are named in
 * design.md, "Layout").  Files are created by outfile (outfile.h), never
 * here. */
#ifndef PTOP_FDIO_H
#define PTOP_FDIO_H

#include <stddef.h>
#include <sys/types.h>

#include "src/core/util.h"

/*
 * Writes n bytes of p to fd, again after short writes and EINTR.  0, or
 * -errno (-EPIPE when the reader went away, -ENOSPC for a write of 0
 * bytes); done (may be NULL) gets the bytes written in any case.
 */
int fd__write_all(int fd, const void *p, size_t n, u64 *done);

/* The same with pwrite at file offset off. */
int fd__pwrite_all(int fd, const void *p, size_t n, u64 off);

/*
 * Reads into p until n bytes or the end of the file, again after short
 * reads and EINTR: the count (under n only at the end), or -errno.
 */
ssize_t fd__read_upto(int fd, void *p, size_t n);
/* The same with pread from file offset off. */
ssize_t fd__pread_upto(int fd, void *p, size_t n, u64 off);

/* Adds len bytes of fd from offset off to the checksum c (csum__add),
 * read in 64 KiB pieces: a mapped file's sum without touching (making
 * resident) its mapping.  0, -EIO when the file is shorter, or -errno. */
int fd__csum(int fd, u64 off, u64 len, struct csum *c);

/*
 * Reads a small file (sysctl, sysfs, tracefs) whole into buf[len],
 * NUL-terminated, without its trailing newlines and spaces: 0, -EFBIG
 * if it does not fit, or -errno.
 */
int fd__read_text(const char *path, char *buf, size_t len);
/* Appends a whole file (tracefs formats, proc files whose size stat
 * does not tell) to sb, at most max bytes: 0, -EFBIG past max, or
 * -errno. */
int fd__read_all(const char *path, struct strbuf *sb, size_t max);
/*
 * Reads a file that may steer what ptop does (its settings), running as
 * root among other users: appended to sb (at most max bytes) only when
 * the effective user owns it and neither its group nor others may write
 * it (the rule of perf's JIT maps), and it is a regular file; a symbolic
 * link is followed only when the effective user owns the link too.  0;
 * -ENOENT when there is none; -EPERM with why it is not trusted appended
 * to why; -EFBIG past max; or -errno.
 */
int fd__read_owned(const char *path, struct strbuf *sb, size_t max,
		   struct strbuf *why);
/* A small integer from such a file (strtoll, base 10): 0 or -errno. */
int fd__read_int(const char *path, long long *out);

/*
 * The names in a directory (not those starting with '.') that match glob
 * (fnmatch; NULL: all), sorted: 0, or -errno (*out NULL).  Free them with
 * dir__free_names.
 */
int dir__list(const char *path, const char *glob, char ***out, size_t *nr);
void dir__free_names(char **names, size_t n);
/* Hands out names[n] sorted (err 0), or frees them and returns err. */
int dir__sorted_names(char **names, size_t n, int err, char ***out,
		      size_t *nr);

#endif
