/* ehframe_internal: the bounds-checked byte cursor that ehframe.c (CIEs,
 * FDEs, CFA rows) and ehframe_expr.c (CFI's expressions) read with. */
#ifndef PTOP_EHFRAME_INTERNAL_H
#define PTOP_EHFRAME_INTERNAL_H

#include <string.h>

#include "src/core/util.h"

/* DW_EH_PE_* pointer encodings (LSB 4.1, "DWARF Extensions") */
#define PE_OMIT 0xff
#define PE_ABSPTR 0x00
#define PE_ULEB128 0x01
#define PE_UDATA2 0x02
#define PE_UDATA4 0x03
#define PE_UDATA8 0x04
#define PE_SLEB128 0x09
#define PE_SDATA2 0x0a
#define PE_SDATA4 0x0b
#define PE_SDATA8 0x0c
#define PE_PCREL 0x10
#define PE_DATAREL 0x30
#define PE_INDIRECT 0x80

/* A read position in [0, end) of data; any overrun sets bad and reads 0. */
struct cur {
	const u8 *data;
	size_t off, end;
	u64 vaddr;		/* of data[0] */
	u8 addr_size;
	bool swap;
	bool bad;
};

static inline bool big_endian(const struct cur *c)
{
	return (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) != c->swap;
}

static inline bool cur__has(struct cur *c, size_t n)
{
	if (c->bad || n > c->end - c->off) {
		c->bad = true;
		return false;
	}
	return true;
}

static inline u64 cur__uint(struct cur *c, size_t n)
{
	u64 v = 0;

	if (!cur__has(c, n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = big_endian(c) ? i : n - 1 - i;

		v = v << 8 | c->data[c->off + k];
	}
	c->off += n;
	return v;
}

static inline u64 cur__leb(struct cur *c, bool sign)
{
	u64 v = 0;
	unsigned int shift = 0;
	u8 b;

	do {
		if (!cur__has(c, 1))
			return 0;
		b = c->data[c->off++];
		if (shift < 64)
			v |= (u64)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (sign && shift < 64 && (b & 0x40))
		v |= ~(u64)0 << shift;
	return v;
}

static inline s64 sext(u64 v, unsigned int bytes)
{
	unsigned int bits = bytes * 8;

	if (bits >= 64)
		return (s64)v;
	return (s64)(v << (64 - bits)) >> (64 - bits);
}

#endif
