/* kcore: kernel code bytes from /proc/kcore (an ELF core of the
 * kernel's address space), for annotating kernel functions. */
#ifndef PTOP_KCORE_H
#define PTOP_KCORE_H

#include "src/core/util.h"

/*
 * Only the ELF header and the program headers are read at open; each
 * read then finds the PT_LOAD covering the address and preads the file
 * at its offset.  Nothing is mapped.  Needs root (CAP_SYS_RAWIO) on a
 * real /proc/kcore.
 */
struct kcore;

/* NULL with errno set: ENOENT (no such file), EACCES/EPERM, ENOEXEC (not
 * an ELF64 little-endian core), ENOMEM. */
struct kcore *kcore__open(const char *path);
void kcore__free(struct kcore *k);

/* Reads [addr, addr + len) of kernel memory, stopping at the end of the
 * segment that holds addr.  Returns bytes read, or -ENOENT when no
 * segment holds addr, or the read's -errno. */
long kcore__read(struct kcore *k, u64 addr, void *buf, size_t len);

/* The pure part, for tests and the fuzzer: program headers of an ELF
 * core image (its first len bytes) into segs (at most max); returns how
 * many or -ENOEXEC. */
struct kcore_seg {
	u64 vaddr, offset, size;
};

long kcore__parse(const void *image, size_t len, struct kcore_seg *segs,
		  size_t max);

#endif
