/*
 * cachedir: the folder of ptop's caches, $XDG_CACHE_HOME/ptop (else
 * ~/.cache/ptop): the parsed kallsyms of a boot (kallsyms.h), inflated
 * debug files (dwcache.h), binaries' symbol tables (symcache.h).
 */
#ifndef PTOP_CACHEDIR_H
#define PTOP_CACHEDIR_H

#include <stddef.h>

#include "src/core/util.h"

/* In the name of a file being written (renamed into place when whole). */
#define CACHEDIR_TMP_MARK ".tmp."

/* The default folder into buf: 0, or -ENOENT without XDG_CACHE_HOME or
 * HOME (absolute paths), -ENAMETOOLONG. */
int cachedir__default(char *buf, size_t len);

/* dir (made when missing, and its parent) is a directory of ours that
 * only we can write: 0, or -errno (-EPERM when another user could write
 * there: a cache is not used then). */
int cachedir__ok(const char *dir);

/* A cache file opened for reading: the fd, or -EPERM when it is not a
 * plain file of ours (a symbolic link included), or -errno (-ENOENT).
 * *st is its fstat. */
struct stat;
int cachedir__open(const char *path, struct stat *st);

/* A new file beside path (tmp: its name, len bytes), mode 0600, to be
 * renamed over path by fd__commit: the fd or -errno. */
int cachedir__create(const char *path, char *tmp, size_t len);

/* Keeps the folder sub (DIR/dwarf, DIR/symbols) under max bytes, the
 * least recently used files (by mtime) removed first but never keep (a
 * name in it), and removes the temporary files of runs that died. */
void cachedir__prune(const char *sub, const char *keep, u64 max);

#endif
