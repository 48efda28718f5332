/*
 * cachedir: the folder of ptop's caches, $XDG_CACHE_HOME/ptop (else
 * ~/.cache/ptop): the parsed kallsyms of a boot (kallsyms.h), inflated
 * debug files (dwcache.h).
 */
#ifndef PTOP_CACHEDIR_H
#define PTOP_CACHEDIR_H

#include <stddef.h>

/* The default folder into buf: 0, or -ENOENT without XDG_CACHE_HOME or
 * HOME (absolute paths), -ENAMETOOLONG. */
int cachedir__default(char *buf, size_t len);

/* dir (made when missing, and its parent) is a directory of ours that
 * only we can write: 0, or -errno (-EPERM when another user could write
 * there: a cache is not used then). */
int cachedir__ok(const char *dir);

#endif
