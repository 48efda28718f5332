/* ring: pure reader of one perf mmap ring buffer (no syscalls). */
#include <errno.h>
#include <string.h>

#include "src/core/ring.h"

int ring__init(struct ring *r, void *base, size_t len, size_t page_size)
{
	struct perf_event_mmap_page *pg = base;
	u64 off = page_size, size;

	memset(r, 0, offsetof(struct ring, bounce));
	r->records = r->bad_records = r->dropped_bytes = r->lapped = 0;
	if (len <= page_size)
		return -EINVAL;
	size = len - page_size;
	if (pg->data_offset && pg->data_size) {
		off = pg->data_offset;
		size = pg->data_size;
		if (off > len || size > len - off)
			return -EINVAL;
	}
	if (size < 8 || (size & (size - 1)))
		return -EINVAL;
	r->page = pg;
	r->data = (unsigned char *)base + off;
	r->size = size;
	r->mask = size - 1;
	r->pos = r->end = pg->data_tail;
	return 0;
}

u64 ring__read_init(struct ring *r)
{
	/* Pairs with the kernel's smp_store_release of data_head, made after
	 * the records are written: everything before head is visible. */
	u64 head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	/* Only this reader writes data_tail. */
	u64 tail = r->page->data_tail;

	r->pos = tail;
	r->end = head;
	if (head - tail > r->size) {
		/* Lapped: what lies in the ring is not what we think. */
		r->lapped++;
		r->dropped_bytes += head - tail;
		r->pos = head;
	}
	return r->end - r->pos;
}

static const struct perf_event_header *ring__fetch(struct ring *r, u64 *sizep)
{
	const struct perf_event_header *h;
	u64 off, avail = r->end - r->pos, size;

	if (avail == 0)
		return NULL;
	off = r->pos & r->mask;
	if (avail < sizeof(*h) || (off & 7))
		goto bad;
	/* 8-byte aligned header in a ring whose size is a multiple of 8:
	 * the header itself never wraps. */
	h = (const void *)(r->data + off);
	size = h->size;
	if (size < sizeof(*h) || (size & 7) || size > avail || size > r->size)
		goto bad;
	if (off + size > r->size) {
		u64 first = r->size - off;

		memcpy(r->bounce, r->data + off, first);
		memcpy((unsigned char *)r->bounce + first, r->data,
		       size - first);
		h = (const void *)r->bounce;
	}
	*sizep = size;
	return h;
bad:
	r->bad_records++;
	r->dropped_bytes += avail;
	r->pos = r->end;
	return NULL;
}

const struct perf_event_header *ring__peek(struct ring *r)
{
	u64 size;

	return ring__fetch(r, &size);
}

const struct perf_event_header *ring__next(struct ring *r)
{
	const struct perf_event_header *h;
	u64 size;

	h = ring__fetch(r, &size);
	if (!h)
		return NULL;
	r->pos += size;
	r->records++;
	return h;
}

void ring__consume(struct ring *r)
{
	/* Pairs with the kernel's read of data_tail before it overwrites:
	 * our reads of the records happen before the space is given back. */
	__atomic_store_n(&r->page->data_tail, r->pos, __ATOMIC_RELEASE);
}
