/* elfnote: pure parser of ELF note areas (finds the GNU build-id). */
#ifndef PTOP_ELFNOTE_H
#define PTOP_ELFNOTE_H

#include "src/core/util.h"

/*
 * Scans a note area (the contents of a PT_NOTE segment or SHT_NOTE section,
 * 4-byte aligned notes) for NT_GNU_BUILD_ID.  Copies at most max bytes.
 * Returns the build-id size (1..max), 0 if there is none, -EINVAL if the
 * area is malformed before one is found.  Build-ids longer than max are
 * truncated, as perf does (the kernel keeps 20 bytes).
 */
int elfnote__build_id(const void *notes, size_t len, bool swap, u8 *out,
		      size_t max);

#endif
