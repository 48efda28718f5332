/* ring: pure reader of one perf mmap ring buffer (no syscalls). */
#ifndef PTOP_RING_H
#define PTOP_RING_H

#include <linux/perf_event.h>

#include "src/core/util.h"

/*
 * The protocol of perf_event_open(2), "MMAP layout":
 *
 *	ring__read_init(r);		acquire-load data_head
 *	while ((h = ring__next(r)))	records in [tail, head)
 *		use(h);			valid until ring__consume
 *	ring__consume(r);		release-store data_tail
 *
 * Positions are ever-increasing u64 values, masked only when indexing.  A
 * record that wraps the end of the ring is copied into an 8-byte aligned
 * bounce buffer.  A record whose size is under 8 bytes, not a multiple of
 * 8, or past what the kernel published cannot be trusted and the reader
 * cannot resynchronize after it: the rest of the window is dropped and
 * counted.  A writer that lapped the reader (head - tail > size, which the
 * kernel prevents in non-overwrite mode) is detected and counted too.
 */
struct ring {
	struct perf_event_mmap_page *page;
	unsigned char *data;
	u64 size, mask;
	u64 pos, end;		/* current window [pos, end) */
	u64 bounce[65536 / 8];	/* a record is at most 64 KiB (u16 size) */

	u64 records;		/* records returned */
	u64 bad_records;	/* windows cut short by a bad record */
	u64 dropped_bytes;	/* bytes skipped because of them */
	u64 lapped;		/* windows in which the writer lapped us */
};

/*
 * base/len: the whole mapping (control page + data).  The data area is
 * taken from data_offset/data_size when the kernel filled them in, else it
 * starts one page (page_size) in.  The data size must be a power of two.
 */
int ring__init(struct ring *r, void *base, size_t len, size_t page_size);
/* Returns the number of bytes available to read (0 when empty). */
u64 ring__read_init(struct ring *r);
const struct perf_event_header *ring__next(struct ring *r);
/* Like ring__next, without advancing: the same pointer stays valid for the
 * following ring__next. */
const struct perf_event_header *ring__peek(struct ring *r);
void ring__consume(struct ring *r);

#endif
