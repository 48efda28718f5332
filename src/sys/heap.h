/* heap: how the C library's heap serves a run that reads a recording. */
#ifndef PTOP_HEAP_H
#define PTOP_HEAP_H

#include <stddef.h>

/*
 * Before a recording (a file, read once) is read, before any thread
 * allocates: memory freed is kept for the allocations that follow
 * instead of going back to the kernel, large blocks come from the heap
 * too, the threads (the symbolizer's) allocate from the same heap, and
 * 16 times data_size (the recording's data), at most 8 MiB, of it is
 * made present at once.  A first touch of a fresh page costs a fault
 * each (several microseconds in a VM); asked for together they cost a
 * fraction of that.  The heap then stays at its peak size until exit.
 * Never fails: on a kernel without MADV_POPULATE_WRITE the pages come
 * as they are touched.
 */
void heap__prepare(unsigned long long data_size);

#endif
