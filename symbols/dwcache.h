/*
 * dwcache: debug files whose DWARF is compressed, kept inflated by
 * build-id.  libdw inflates every compressed .debug section of a file
 * when it opens it (libc6-dbg's: 3 MB into 17 MB, a tenth of a second of
 * CPU, in every run that shows an inlined frame of libc); the cache keeps
 * a copy of such a file with those sections inflated, DIR/dwarf/BUILDID,
 * made once and mapped afterwards.  The copy is made in a temporary file
 * renamed into place, checked when it is opened (its build-id, nothing
 * compressed) and remade when it is not whole; the folder is kept under
 * DWCACHE_MAX_BYTES, the least recently used copies removed first.
 */
#ifndef PTOP_DWCACHE_H
#define PTOP_DWCACHE_H

#include <libelf.h>
#include <stdbool.h>

#include "src/core/util.h"

/* The folder's bound, and the largest copy made (a quarter of it). */
#define DWCACHE_MAX_BYTES (2ull << 30)

struct dwcache_result {
	bool made;	/* the copy was made now (else it was there) */
};

/*
 * The inflated copy of elf (read from fd) in the cache folder dir, made
 * when missing: 0 and *fd_out, *elf_out the copy's (the caller ends them;
 * fd and elf are untouched), or -errno: -ENOENT when elf has no
 * compressed DWARF or no build-id (nothing to cache), -ENOTSUP for GNU
 * .zdebug sections, -ENOSPC when the copy would not fit, and the error of
 * the file system.  Never prints.
 */
int dwcache__open(const char *dir, int fd, Elf *elf, int *fd_out,
		  Elf **elf_out, struct dwcache_result *res);

#endif
