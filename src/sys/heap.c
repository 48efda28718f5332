/* heap: how the C library's heap serves a run that reads a recording. */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "src/sys/heap.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* What a plain recording of a real program made the heap grow to (gcc:
 * 614 KiB of data, 6.5 MiB of heap; the clang recording 9 MiB): warmed
 * at most; a small file gets 16 times its data. */
#define WARM_MAX (8u << 20)

void heap__prepare(unsigned long long data_size)
{
	size_t warm = data_size >= WARM_MAX / 16 ? WARM_MAX :
						      (size_t)data_size * 16;
	uintptr_t start, end;
	char *p;

	/* freed memory stays (a recording's read frees its buffers and
	 * queues as the tables grow: they take the same pages again);
	 * blocks under 32 MiB come from the heap, where growing is cheap */
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	/* the symbolizer's threads too: their own arenas would be fresh
	 * memory again (a binary's symbol table, megabytes) */
	mallopt(M_ARENA_MAX, 1);
	if (!warm)
		return;
	p = malloc(warm);
	if (!p)
		return;
	start = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	end = ((uintptr_t)p + warm) & ~(uintptr_t)4095;
	if (end > start)
		(void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
	free(p);
}
