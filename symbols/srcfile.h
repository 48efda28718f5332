/* srcfile: source text for annotate: files read once into a bounded
 * cache, split into lines. */
#ifndef PTOP_SRCFILE_H
#define PTOP_SRCFILE_H

#include "src/core/util.h"

/*
 * Files are read whole (regular files only, never a FIFO or a device,
 * at most SRCFILE_MAX bytes) the first time one of their lines is asked
 * for; a failure is remembered too, so a missing file costs one open.
 * Least recently used files go when max_bytes is passed.
 */
#define SRCFILE_MAX (16u << 20)

struct srcfile_cache;

struct srcfile_cache *srcfile_cache__new(size_t max_bytes);
void srcfile_cache__free(struct srcfile_cache *c);

/*
 * Line `line` (from 1) of path: 0 with *text (not NUL-terminated, no
 * newline) and *len, valid until the next call; or -errno: -ENOENT (no
 * such file), -EACCES, -EINVAL (not a regular file), -EFBIG (over
 * SRCFILE_MAX), -ERANGE (the file has fewer lines: another version of
 * it), -ENOMEM.
 */
int srcfile__line(struct srcfile_cache *c, const char *path, int line,
		  const char **text, size_t *len);

/* Whether path can be read (0) or why not (-errno), through the cache. */
int srcfile__check(struct srcfile_cache *c, const char *path);

size_t srcfile_cache__bytes(const struct srcfile_cache *c);

#endif
