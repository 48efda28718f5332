/* fdio: whole writes to a file descriptor, for the modules that do I/O
 * (the perf.data writer, batch output, the command's output, saved
 * rows). */
#ifndef PTOP_FDIO_H
#define PTOP_FDIO_H

#include <stddef.h>

#include "util.h"

/*
 * Writes n bytes of p to fd, again after short writes and EINTR.  0, or
 * -errno (-EPIPE when the reader went away, -ENOSPC for a write of 0
 * bytes); done (may be NULL) gets the bytes written in any case.
 */
int fd__write_all(int fd, const void *p, size_t n, u64 *done);

/* The same with pwrite at file offset off. */
int fd__pwrite_all(int fd, const void *p, size_t n, u64 off);

#endif
