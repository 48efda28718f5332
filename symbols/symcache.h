/*
 * symcache: binaries' finished symbol tables, kept as images
 * (symtab__write_image) in DIR/symbols and read whole by later runs.
 * Reading a big library's tables is most of a start (libLLVM: 95K
 * .eh_frame ranges and 35K .dynsym symbols, sorted and merged: 40 ms and
 * 10 MB of fresh memory); a cached one is a read and a check.
 *
 * A table is found by its key: what was read (elfsym_what, the table's
 * flags) and from which files (the binary and the debug file: device,
 * inode, size, change and modification times), so that an upgraded
 * package or a debug file installed since reads the files again.  Each
 * file is checked when it is opened (its header and key, the image's
 * checksum, the image by symtab__from_image); one that is not whole or
 * not this key is read again and replaced.  Files are written by outfile
 * (a new file renamed into place), mode 0600, in a folder only the user
 * can write; the folder
 * is kept under SYMCACHE_MAX_BYTES, the least recently used removed
 * first.  Never prints.
 */
#ifndef PTOP_SYMCACHE_H
#define PTOP_SYMCACHE_H

#include "src/core/util.h"

#define SYMCACHE_MAX_BYTES (512ull << 20)

struct strpool;
struct symtab;

/* A file's identity (all zero: no file). */
struct symcache_file {
	u64 dev, ino, size;
	s64 mtime_sec, mtime_nsec, ctime_sec, ctime_nsec;
};

struct symcache_key {
	u32 what;	/* elfsym_what and the job's choices */
	u32 flags;	/* the symtab's */
	struct symcache_file bin, dbg;
};

/* The key of a table read from the files fd and dfd (-1: none): 0, or
 * -errno of fstat. */
int symcache__key(struct symcache_key *k, int fd, int dfd, u32 what,
		  u32 flags);

/* The name (NAME_MAX + 1 bytes) of bin's file in DIR/symbols: a hash of
 * bin's path, what the table holds and the versions of the file's and
 * the image's layouts (symcache's, image_version: this build's is
 * SYMTAB_IMAGE_VERSION), so that the table of a binary changed since
 * replaces the old one (the key itself is checked in the file) while
 * ptop builds of other versions sharing the cache keep a file each (each
 * would otherwise refuse and rewrite the other's on every load). */
void symcache__name(const char *bin, const struct symcache_key *k,
		    u32 image_version, char *name);

/*
 * The table of key from the folder dir (DIR/symbols/HASH.sym, named by
 * symcache__name: one file for each binary bin, by its path, what and
 * the versions; a binary changed since replaces its old table when it
 * is saved), read whole:
 * 0 with *out (flags as symtab__new's, names interned in pool when
 * looked up) and *extra (what symcache__save was given), -ENOENT when
 * there is none, -ESTALE when there was one for another key or version,
 * -EBADMSG when there was one damaged (not whole, a byte changed: both
 * removed), or another -errno.
 */
int symcache__load(const char *dir, const char *bin,
		   const struct symcache_key *k, struct strpool *pool,
		   unsigned int flags, struct symtab **out, u32 *extra);

/* Keeps st (finished) as bin's table under key, with extra (the
 * caller's): 0 or -errno (-EPERM: the folder is not only ours; -EFBIG:
 * over a tenth of SYMCACHE_MAX_BYTES). */
int symcache__save(const char *dir, const char *bin,
		   const struct symcache_key *k, const struct symtab *st,
		   u32 extra);

#endif
