/* elfnote: pure parser of ELF note areas (finds the GNU build-id). */
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "src/core/elfnote.h"
#include "src/core/record_swap.h"

int elfnote__build_id(const void *notes, size_t len, bool swap, u8 *out,
		      size_t max)
{
	const u8 *p = notes;
	size_t off = 0;

	while (len - off >= 12) {
		u32 namesz = rd32(p + off, swap);
		u32 descsz = rd32(p + off + 4, swap);
		u32 type = rd32(p + off + 8, swap);
		size_t name_off = off + 12;
		size_t nlen = ALIGN_UP((size_t)namesz, 4);
		size_t dlen = ALIGN_UP((size_t)descsz, 4);
		size_t desc_off;

		if (namesz > len || descsz > len || nlen > len - name_off)
			return -EINVAL;
		desc_off = name_off + nlen;
		if (dlen > len - desc_off)
			return -EINVAL;
		if (type == NT_GNU_BUILD_ID && namesz == 4 &&
		    memcmp(p + name_off, "GNU", 4) == 0) {
			size_t n = descsz < max ? descsz : max;

			/* A zero-length build-id identifies nothing. */
			if (n == 0)
				return 0;
			memcpy(out, p + desc_off, n);
			return (int)n;
		}
		off = desc_off + dlen;
	}
	return 0;
}
