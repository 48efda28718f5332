/* fuzz_ehframe: any bytes as .eh_frame and .debug_frame (both widths and
 * byte orders), as .eh_frame_hdr, as CFA rows at the FDEs' pcs, as CFI
 * expressions, and the rows through the frame-pointer recovery over a
 * stack made of the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/ehframe.h"
#include "symbols/fpfix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check(u64 start, u64 end, void *ctx)
{
	(void)ctx;
	/* what the reader promises its callers */
	if (!start || end <= start)
		abort();
	return 0;
}

static int row_of(void *ctx, u64 pc, bool ret, struct ehframe_row *row)
{
	const struct ehframe_table *t = ctx;
	int err = ehframe__row(t, ret ? pc - 1 : pc, row);

	/* a row holds its own pc */
	if (!err && (row->start > (ret ? pc - 1 : pc) ||
		     row->end <= (ret ? pc - 1 : pc)))
		abort();
	return err;
}

static bool read_copy(void *ctx, u64 addr, u64 *val)
{
	const u8 *p = ctx;

	if (addr >= 64)
		return false;
	memcpy(val, p + addr, 8);
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy, so ASan sees any read past the end */
	u8 *copy = malloc(size ? size : 1);
	u8 stack[72] = { 0 };
	u64 target, v;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	memcpy(stack, data, MIN(size, sizeof(stack)));
	for (int i = 0; i < 8; i++) {
		struct ehframe_src src = {
			.data = copy,
			.size = size,
			.vaddr = 0x401000,
			.addr_size = i & 1 ? 4 : 8,
			.swap = i & 2,
		};
		struct ehframe_table t;

		ehframe__for_each_fde(&src, check, NULL);
		ehframe__hdr_target(copy, size, 0x400000, src.addr_size,
				    src.swap, &target);
		if (ehframe__table_init(&t, &src, i & 4))
			continue;
		for (size_t k = 0; k < t.nr && k < 16; k++) {
			const struct ehframe_fde *f = &t.fdes[k];
			struct fpfix_regs regs = {
				.ip = f->start + f->len / 2, .sp = 0,
				.bp = f->len,
			};
			u64 out[4];
			size_t nr;

			fpfix__recover(&regs, &regs.ip, 1, stack, sizeof(stack),
				       row_of, &t, out, 4, &nr);
			if (nr > 4)
				abort();
		}
		ehframe__table_fini(&t);
	}
	{
		struct ehframe_regs regs = { .known = 0x1ffff };

		ehframe__expr(copy, size, 8, &regs, &target, read_copy, stack,
			      &v);
	}
	free(copy);
	return 0;
}
