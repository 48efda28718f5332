/* fuzz_disasm: any bytes as machine code (both syntaxes: every byte
 * covered once, in order, nothing longer than 15 bytes), as a kcore
 * header, and as operand text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/disasm.h"
#include "symbols/kcore.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy, so ASan sees any read past the end */
	u8 *copy = malloc(size ? size : 1);
	struct kcore_seg segs[8];
	char text[64];
	u64 t;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	for (int syn = 0; syn < 2 && size; syn++) {
		struct disasm *d = disasm__new(copy, size, 0xffffffff81000000ull,
					       syn ? DISASM_INTEL : DISASM_ATT);
		u64 next = 0xffffffff81000000ull;

		if (!d)
			abort();
		for (size_t i = 0; i < disasm__nr(d); i++) {
			const struct insn *in = disasm__at(d, i);

			if (in->addr != next || !in->size || in->size > 15 ||
			    disasm__find(d, in->addr) != (long)i)
				abort();
			(void)strlen(disasm__operands(d, in));
			next += in->size;
		}
		if (next != 0xffffffff81000000ull + size)
			abort();
		disasm__put(d);
	}
	kcore__parse(copy, size, segs, 8);
	memcpy(text, copy, MIN(size, sizeof(text) - 1));
	text[MIN(size, sizeof(text) - 1)] = '\0';
	disasm__parse_target(text, &t);
	disasm__classify(text);
	free(copy);
	return 0;
}
