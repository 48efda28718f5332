/* record_swap: converts perf records, attrs and headers written on the
 * other endianness into this machine's byte order (pure). */
#ifndef PTOP_RECORD_SWAP_H
#define PTOP_RECORD_SWAP_H

#include <linux/perf_event.h>
#include <string.h>

#include "src/core/record.h"
#include "src/core/util.h"

/*
 * Usage, for a record read from a byte-swapped perf.data file or stream
 * (the bytes are modified in place; the record must be 8-byte aligned and
 * h->size bytes long once its header is swapped):
 *
 *	record_swap__header(h);			// type, misc, size
 *	if (h->type == PERF_RECORD_SAMPLE) {
 *		record_swap__sample_id(h, &pos, &id);	// which event?
 *		record_swap__sample(h, attr_of(id));
 *	} else if (h->type < PERF_RECORD_USER_TYPE_START) {
 *		record_swap__kernel(h, st, sample_id_all);
 *		if (MMAP2 with the build-id bit &&
 *		    !record__mmap2_build_id(h, carrier's attr.build_id))
 *			record_swap__mmap2_ids(h);	// a leaked bit
 *	} else {
 *		record_swap__user(h);
 *	}
 *
 * Every function checks sizes against h->size and returns -EINVAL when a
 * field would run past the end (the record is then left partly swapped and
 * must be counted as bad, not used).  Strings and opaque byte arrays
 * (file names, raw tracepoint data, user stack copies, aux data) are
 * bytes and stay as they are.
 */

static inline u16 bswap16(u16 v) { return __builtin_bswap16(v); }
static inline u32 bswap32(u32 v) { return __builtin_bswap32(v); }
static inline u64 bswap64(u64 v) { return __builtin_bswap64(v); }

/* A word stored at p (any alignment), swapped when swap. */
static inline u16 rd16(const u8 *p, bool swap)
{
	u16 v;

	memcpy(&v, p, 2);
	return swap ? bswap16(v) : v;
}

static inline u32 rd32(const u8 *p, bool swap)
{
	u32 v;

	memcpy(&v, p, 4);
	return swap ? bswap32(v) : v;
}

static inline u64 rd64(const u8 *p, bool swap)
{
	u64 v;

	memcpy(&v, p, 8);
	return swap ? bswap64(v) : v;
}

void record_swap__header(struct perf_event_header *h);

/* attr: the first size bytes of an attr as stored (perf's layout up to
 * PERF_ATTR_SIZE_VER8); fields past size are left alone.  The bitfield
 * word after read_format keeps its byte order and has the bits of each
 * byte reversed (how compilers allocate bitfields on the two byte
 * orders), as perf does. */
void record_swap__attr(void *attr, size_t size);

/* The event id of a SAMPLE whose header is already swapped, read at pos
 * (from the first event's sample_type) and swapped; -ENOENT if the layout
 * has none. */
int record_swap__sample_id(const struct perf_event_header *h,
			   const struct id_pos *pos, u64 *id);
/* A SAMPLE, field by field as attr (already native) lays it out. */
int record_swap__sample(struct perf_event_header *h,
			const struct perf_event_attr *attr);
/* Kernel record types other than SAMPLE: the fields of the types ptop
 * decodes (MMAP, MMAP2, COMM, FORK, EXIT, LOST, LOST_SAMPLES, THROTTLE,
 * UNTHROTTLE, READ, ITRACE_START, SWITCH_CPU_WIDE, AUX, KSYMBOL, CGROUP,
 * AUX_OUTPUT_HW_ID) and, for every type, the sample_id trailer. */
int record_swap__kernel(struct perf_event_header *h, u64 sample_type,
			bool sample_id_all);
/* An MMAP2 record with PERF_RECORD_MISC_MMAP_BUILD_ID keeps its union as
 * bytes in record_swap__kernel; when record__mmap2_build_id (which reads
 * only bytes) says the bit leaked, this swaps the union as the maj, min,
 * ino and ino_generation it holds.  Once, after record_swap__kernel. */
int record_swap__mmap2_ids(struct perf_event_header *h);
/* perf's own types (64 and up) whose fields ptop reads: HEADER_ATTR,
 * HEADER_EVENT_TYPE, HEADER_TRACING_DATA, HEADER_BUILD_ID, ID_INDEX,
 * AUXTRACE, EVENT_UPDATE, HEADER_FEATURE (its feat_id only: the payload
 * is a feature section, parsed with the swap flag). */
int record_swap__user(struct perf_event_header *h);

#endif
