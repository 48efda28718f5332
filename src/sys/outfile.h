/* outfile: every file ptop writes (perf.data, pprof, flame graphs,
 * saved tables, its caches, its configuration), created so that running
 * as root in a folder other users can write (/tmp) never writes through
 * a link they planted. */
#ifndef PTOP_OUTFILE_H
#define PTOP_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Usage:
 *	struct outfile of;
 *	err = outfile__open(&of, "out.svg", OUTFILE_EXPORT);
 *	if (!err)
 *		err = outfile__finish(&of, fd__write_all(of.fd, p, n, NULL));
 *   or in one call:
 *	err = outfile__save("out.svg", p, n, OUTFILE_EXPORT);
 *   a file written over time (write, pwrite, ftruncate on of.fd):
 *	err = outfile__open(&of, "perf.data", OUTFILE_NEW | OUTFILE_KEEP_OLD);
 *	...
 *	err = outfile__finish(&of, err);	0: kept; else removed
 *   a configuration, replaced whole and durable (its folder is the
 *   caller's to make):
 *	err = outfile__save("~/.config/ptop/config", p, n, OUTFILE_SYNC);
 *   an export rewritten at each refresh (a live --flamegraph): the same
 *   outfile__save(path, p, n, OUTFILE_EXPORT) every time; "-" or a FIFO
 *   then gets each version after the last.
 *
 * What open does with path, decided by lstat (a link is never followed,
 * at path or at any temporary name):
 *  - "-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N (and
 *    /proc/PID/fd/N of ptop): that descriptor, duplicated, written in
 *    place; the name is resolved once, never opened.
 *  - a character device (/dev/null, /dev/full), a FIFO, a socket: written
 *    in place, never replaced: opened with O_NOFOLLOW and nothing that
 *    creates (a socket is connected), then fstat must show the very node
 *    lstat saw.
 *  - nothing, a regular file, a link: a new file.  By default a
 *    temporary .NAME.PID.XXXXXXXX.ptop-tmp in path's folder, made with
 *    O_CREAT|O_EXCL|O_NOFOLLOW, renamed over path by finish (a reader
 *    never sees half a file; a link at path is replaced, not followed).
 *    A temporary left by a run that was killed is removed by a later
 *    open of the same path (ours, its process gone, a minute old).
 *    With OUTFILE_NEW, path itself is created with O_EXCL (-EEXIST when
 *    anything is there), and with OUTFILE_KEEP_OLD as well an existing
 *    path (a file that is not empty, or a link) is first renamed to
 *    path.old, as perf record does.
 *  - a directory: -EISDIR; a block device: -ENOTSUP.
 * Modes: 0600 (perf.data, caches: perf's rule), or with OUTFILE_EXPORT
 * 0644; both less the umask.
 */
/* How every temporary's name ends. */
#define OUTFILE_TMP_SUFFIX ".ptop-tmp"

enum outfile_flags {
	OUTFILE_EXPORT = 1 << 0,	/* mode 0644 (else 0600) */
	OUTFILE_SYNC = 1 << 1,		/* fsync the file, then its folder */
	OUTFILE_NEW = 1 << 2,		/* path itself, created new */
	OUTFILE_KEEP_OLD = 1 << 3,	/* with NEW: what is there -> .old */
	OUTFILE_RDWR = 1 << 4,		/* opened for reading too */
	OUTFILE_FILE_ONLY = 1 << 5,	/* never in place: always a file of
					 * ours (caches) */
};

struct outfile {
	int fd;			/* -1 once finished */
	bool in_place;		/* a descriptor, device, FIFO or socket */
	bool moved_old;		/* NEW|KEEP_OLD renamed path to path.old */
	unsigned int flags;
	int dirfd;
	char *base;		/* path's last component */
	char *tmp;		/* the temporary's name in dirfd, or NULL */
	const char *failed;	/* after an error: the step, for messages
				 * ("keeping the existing file as .old") */
};

/* 0 with of->fd open for writing, or -errno (of->failed says where). */
int outfile__open(struct outfile *of, const char *path, unsigned int flags);

/*
 * Ends the writing: with err 0 the file is kept (fsync with
 * OUTFILE_SYNC, closed, the temporary renamed over path), else it is
 * removed (the temporary, or the file OUTFILE_NEW made, with what it
 * moved to .old put back).  Returns err, or the error of close or
 * rename.  In place, the descriptor is only closed.
 */
int outfile__finish(struct outfile *of, int err);

/* Replaces path with p[0..n) (open, write, finish): 0 or -errno. */
int outfile__save(const char *path, const void *p, size_t n,
		  unsigned int flags);

/* The descriptor path names ("-", /dev/stdout, /proc/self/fd/N ...), or
 * -1 when it names a file. */
int outfile__fd_named(const char *path);

#endif
