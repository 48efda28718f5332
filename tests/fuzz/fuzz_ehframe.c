/* fuzz_ehframe: any bytes as .eh_frame (both widths and byte orders) and
 * as .eh_frame_hdr. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/ehframe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check(u64 start, u64 end, void *ctx)
{
	(void)ctx;
	/* what the reader promises its callers */
	if (!start || end <= start)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy, so ASan sees any read past the end */
	u8 *copy = malloc(size ? size : 1);
	u64 target;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	for (int i = 0; i < 4; i++) {
		struct ehframe_src src = {
			.data = copy,
			.size = size,
			.vaddr = 0x401000,
			.addr_size = i & 1 ? 4 : 8,
			.swap = i & 2,
		};

		ehframe__for_each_fde(&src, check, NULL);
		ehframe__hdr_target(copy, size, 0x400000, src.addr_size,
				    src.swap, &target);
	}
	free(copy);
	return 0;
}
