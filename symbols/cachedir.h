/*
 * cachedir: the folder of ptop's caches, $XDG_CACHE_HOME/ptop (else
 * ~/.cache/ptop): the parsed kallsyms of a boot (kallsyms.h), inflated
 * debug files (dwcache.h), binaries' symbol tables (symcache.h).
 */
#ifndef PTOP_CACHEDIR_H
#define PTOP_CACHEDIR_H

#include <stddef.h>

#include "src/core/util.h"

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

/* Keeps the folder sub (DIR/dwarf, DIR/symbols) under max bytes, the
 * least recently used files (by access time, else modification time)
 * removed first but never keep (a
 * name in it), and removes the temporary files of runs that died
 * (outfile's, OUTFILE_TMP_SUFFIX, ten minutes old).  Files are written
 * there with outfile__open(OUTFILE_FILE_ONLY). */
void cachedir__prune(const char *sub, const char *keep, u64 max);

#endif
