/* ehframe: bounds-checked .eh_frame reader giving function ranges (pure). */
#include <errno.h>
#include <string.h>

#include "symbols/ehframe.h"

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

#define CIE_CACHE 64

/* A read position in [0, end) of data; any overrun sets bad and reads 0. */
struct cur {
	const u8 *data;
	size_t off, end;
	u64 vaddr;		/* of data[0] */
	u8 addr_size;
	bool swap;
	bool bad;
};

static bool big_endian(const struct cur *c)
{
	return (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) != c->swap;
}

static bool cur__has(struct cur *c, size_t n)
{
	if (c->bad || n > c->end - c->off) {
		c->bad = true;
		return false;
	}
	return true;
}

static u64 cur__uint(struct cur *c, size_t n)
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

static u64 cur__leb(struct cur *c, bool sign)
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

static s64 sext(u64 v, unsigned int bytes)
{
	unsigned int bits = bytes * 8;

	if (bits >= 64)
		return (s64)v;
	return (s64)(v << (64 - bits)) >> (64 - bits);
}

/* Reads a pointer of encoding enc; for ranges apply is false (format
 * only).  Returns false on unknown or unsupported encodings. */
static bool cur__ptr(struct cur *c, u8 enc, bool apply, u64 data_base,
		     u64 *out)
{
	u64 field = c->vaddr + c->off, v;

	if (enc == PE_OMIT || (enc & PE_INDIRECT))
		return false;
	switch (enc & 0x0f) {
	case PE_ABSPTR:
		v = cur__uint(c, c->addr_size);
		break;
	case PE_ULEB128:
		v = cur__leb(c, false);
		break;
	case PE_UDATA2:
		v = cur__uint(c, 2);
		break;
	case PE_UDATA4:
		v = cur__uint(c, 4);
		break;
	case PE_UDATA8:
		v = cur__uint(c, 8);
		break;
	case PE_SLEB128:
		v = cur__leb(c, true);
		break;
	case PE_SDATA2:
		v = (u64)sext(cur__uint(c, 2), 2);
		break;
	case PE_SDATA4:
		v = (u64)sext(cur__uint(c, 4), 4);
		break;
	case PE_SDATA8:
		v = cur__uint(c, 8);
		break;
	default:
		return false;
	}
	if (c->bad)
		return false;
	if (apply) {
		switch (enc & 0x70) {
		case 0:
			break;
		case PE_PCREL:
			v += field;
			break;
		case PE_DATAREL:
			v += data_base;
			break;
		default:	/* textrel, funcrel, aligned: not in practice */
			return false;
		}
	}
	if (c->addr_size == 4)
		v &= 0xffffffffu;
	*out = v;
	return true;
}

/* Reads an entry's length; fills [*body, *next) and returns false at the
 * terminator or on a malformed length. */
static bool entry_bounds(struct cur *c, size_t off, size_t *body,
			 size_t *next)
{
	struct cur h = *c;
	u64 len;

	h.off = off;
	len = cur__uint(&h, 4);
	if (len == 0xffffffffu)
		len = cur__uint(&h, 8);
	/* length 0 ends .eh_frame; an entry needs at least its id */
	if (h.bad || len < 4 || len > h.end - h.off)
		return false;
	*body = h.off;
	*next = h.off + (size_t)len;
	return true;
}

struct cie {
	size_t off;		/* + 1; 0: empty slot */
	u8 fde_enc;
	bool ok;
};

static bool parse_cie(struct cur *src, size_t off, u8 *fde_enc)
{
	struct cur c = *src;
	size_t body, next, aug_off, aug_len;
	const char *aug;
	u8 version;

	if (!entry_bounds(src, off, &body, &next))
		return false;
	c.off = body;
	c.end = next;
	if (cur__uint(&c, 4) != 0)	/* CIE id */
		return false;
	version = (u8)cur__uint(&c, 1);
	if (c.bad || (version != 1 && version != 3 && version != 4))
		return false;
	aug_off = c.off;
	aug = memchr(c.data + aug_off, '\0', c.end - aug_off);
	if (!aug)
		return false;
	aug_len = (size_t)(aug - (const char *)(c.data + aug_off));
	aug = (const char *)(c.data + aug_off);
	c.off = aug_off + aug_len + 1;
	*fde_enc = PE_ABSPTR;
	if (aug_len >= 2 && aug[0] == 'e' && aug[1] == 'h') {
		/* old GCC: an EH data pointer follows the string */
		cur__uint(&c, c.addr_size);
		aug += 2;
		aug_len -= 2;
	}
	if (version == 4)
		cur__uint(&c, 2);	/* address_size, segment_size */
	cur__leb(&c, false);		/* code alignment */
	cur__leb(&c, true);		/* data alignment */
	if (version == 1)
		cur__uint(&c, 1);
	else
		cur__leb(&c, false);	/* return address register */
	if (c.bad)
		return false;
	if (!aug_len)
		return true;
	if (aug[0] != 'z')
		return false;		/* cannot know what follows */
	{
		u64 zlen = cur__leb(&c, false);
		struct cur z = c;

		if (c.bad || zlen > c.end - c.off)
			return false;
		z.end = c.off + (size_t)zlen;
		for (size_t i = 1; i < aug_len && !z.bad; i++) {
			u64 ignored;
			u8 enc;

			switch (aug[i]) {
			case 'R':
				*fde_enc = (u8)cur__uint(&z, 1);
				break;
			case 'L':
				cur__uint(&z, 1);
				break;
			case 'P':
				enc = (u8)cur__uint(&z, 1);
				/* personality may be indirect: read it as
				 * a plain value */
				if (!z.bad && !cur__ptr(&z, enc & 0x7f, false,
							0, &ignored))
					return false;
				break;
			case 'S':
			case 'B':
			case 'G':
				break;
			default:
				/* 'z' tells where the data ends; the
				 * encoding read so far stands */
				i = aug_len;
				break;
			}
		}
		if (z.bad)
			return false;
	}
	return true;
}

long ehframe__for_each_fde(const struct ehframe_src *src, ehframe_fn fn,
			   void *ctx)
{
	struct cie cache[CIE_CACHE];
	struct cur c = {
		.data = src->data,
		.end = src->size,
		.vaddr = src->vaddr,
		.addr_size = src->addr_size,
		.swap = src->swap,
	};
	size_t off = 0, body, next;
	long count = 0;

	if (!src->data || (src->addr_size != 4 && src->addr_size != 8))
		return -EINVAL;
	memset(cache, 0, sizeof(cache));
	while (off < c.end && entry_bounds(&c, off, &body, &next)) {
		struct cur e = c;
		u64 id, start, range;
		size_t cie_off;
		struct cie *slot;

		e.off = body;
		e.end = next;
		id = cur__uint(&e, 4);
		if (id == 0)
			goto skip;	/* a CIE: parsed when an FDE uses it */
		/* the CIE pointer counts back from its own field */
		if (id > body)
			goto skip;
		cie_off = body - (size_t)id;
		slot = &cache[(cie_off / 4) % CIE_CACHE];
		if (slot->off != cie_off + 1) {
			slot->off = cie_off + 1;
			slot->ok = parse_cie(&c, cie_off, &slot->fde_enc);
		}
		if (!slot->ok)
			goto skip;
		if (!cur__ptr(&e, slot->fde_enc, true, 0, &start) ||
		    !cur__ptr(&e, slot->fde_enc & 0x0f, false, 0, &range))
			goto skip;
		/* discarded functions keep FDEs at 0; empty ranges and
		 * wrapping ones cover nothing */
		if (!start || !range || start + range < start)
			goto skip;
		if (src->addr_size == 4 && start + range > 0x100000000ULL)
			goto skip;
		count++;
		if (fn && fn(start, start + range, ctx))
			break;
skip:
		off = next;
	}
	return count;
}

int ehframe__hdr_target(const u8 *hdr, size_t size, u64 hdr_vaddr,
			u8 addr_size, bool swap, u64 *eh_frame_vaddr)
{
	struct cur c = {
		.data = hdr,
		.end = size,
		.vaddr = hdr_vaddr,
		.addr_size = addr_size,
		.swap = swap,
	};
	u8 version, enc;

	if (!hdr || (addr_size != 4 && addr_size != 8))
		return -EINVAL;
	version = (u8)cur__uint(&c, 1);
	enc = (u8)cur__uint(&c, 1);
	cur__uint(&c, 2);	/* fde_count and table encodings */
	if (c.bad || version != 1)
		return -EINVAL;
	if (!cur__ptr(&c, enc, true, hdr_vaddr, eh_frame_vaddr))
		return -EINVAL;
	return 0;
}
