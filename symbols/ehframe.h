/* ehframe: bounds-checked .eh_frame reader giving function ranges (pure). */
#ifndef PTOP_EHFRAME_H
#define PTOP_EHFRAME_H

#include "src/core/util.h"

/*
 * The .eh_frame of a stripped binary still bounds every function that
 * can unwind: each FDE covers [initial_location, + address_range).  This
 * reads only those two fields (call frame instructions are skipped) and
 * trusts nothing: lengths, CIE pointers and encodings are all checked
 * against the section, so hostile data ends the walk, never the process.
 */
struct ehframe_src {
	const u8 *data;
	size_t size;
	u64 vaddr;		/* address of data[0], for pcrel */
	u8 addr_size;		/* 4 or 8 (ELFCLASS), for absptr */
	bool swap;		/* file byte order differs from the host's */
};

/* Called for each FDE with a plausible range; non-zero stops the walk. */
typedef int (*ehframe_fn)(u64 start, u64 end, void *ctx);

/* Returns how many FDEs were reported (the walk stops quietly at the
 * first malformed entry), or -EINVAL if src itself is unusable. */
long ehframe__for_each_fde(const struct ehframe_src *src, ehframe_fn fn,
			   void *ctx);

/* Reads .eh_frame_hdr (hdr, size, at address hdr_vaddr) for the address
 * of .eh_frame: 0 or -EINVAL. */
int ehframe__hdr_target(const u8 *hdr, size_t size, u64 hdr_vaddr,
			u8 addr_size, bool swap, u64 *eh_frame_vaddr);

#endif
