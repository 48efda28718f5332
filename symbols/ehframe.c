/* ehframe: bounds-checked .eh_frame and .debug_frame reader: function
 * ranges and CFA rules (pure). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/ehframe.h"
#include "symbols/ehframe_internal.h"

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

/* Reads an entry's length; fills [*body, *next), *wide for the 64-bit
 * format, and returns false at the terminator or on a malformed length. */
static bool entry_bounds(const struct cur *c, size_t off, size_t *body,
			 size_t *next, bool *wide)
{
	struct cur h = *c;
	u64 len;

	h.off = off;
	len = cur__uint(&h, 4);
	*wide = len == 0xffffffffu;
	if (*wide)
		len = cur__uint(&h, 8);
	/* length 0 ends .eh_frame; an entry needs at least its id */
	if (h.bad || len < 4 || len > h.end - h.off)
		return false;
	*body = h.off;
	*next = h.off + (size_t)len;
	return true;
}

/* What a CIE says about the FDEs that use it. */
struct cie_info {
	u8 fde_enc;		/* their addresses' encoding */
	bool z;			/* they have augmentation data */
	bool signal;		/* 'S' */
	u64 code_align;
	s64 data_align;
	u64 ra;			/* the return address column */
	size_t insn, insn_end;	/* the initial instructions */
};

/* The CIE at off of .eh_frame (dbg false) or .debug_frame. */
static bool parse_cie(const struct cur *src, size_t off, bool dbg,
		      struct cie_info *ci)
{
	struct cur c = *src;
	size_t body, next, aug_off, aug_len;
	const char *aug;
	u64 id;
	u8 version;
	bool wide;

	if (!entry_bounds(src, off, &body, &next, &wide))
		return false;
	c.off = body;
	c.end = next;
	/* .eh_frame: 0; .debug_frame: all ones, of the format's width */
	id = cur__uint(&c, dbg && wide ? 8 : 4);
	if (c.bad || id != (!dbg ? 0 : wide ? ~0ULL : 0xffffffffULL))
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
	memset(ci, 0, sizeof(*ci));
	ci->fde_enc = PE_ABSPTR;
	if (aug_len >= 2 && aug[0] == 'e' && aug[1] == 'h') {
		/* old GCC: an EH data pointer follows the string */
		cur__uint(&c, c.addr_size);
		aug += 2;
		aug_len -= 2;
	}
	if (version == 4) {
		/* address_size, segment_selector_size: only flat ones */
		u8 as = (u8)cur__uint(&c, 1);

		if (cur__uint(&c, 1) != 0 || (as && as != c.addr_size))
			return false;
	}
	ci->code_align = cur__leb(&c, false);
	ci->data_align = (s64)cur__leb(&c, true);
	ci->ra = version == 1 ? cur__uint(&c, 1) : cur__leb(&c, false);
	if (c.bad)
		return false;
	if (aug_len) {
		u64 zlen;
		struct cur z;

		if (aug[0] != 'z')
			return false;	/* cannot know what follows */
		zlen = cur__leb(&c, false);
		if (c.bad || zlen > c.end - c.off)
			return false;
		z = c;
		z.end = c.off + (size_t)zlen;
		ci->z = true;
		for (size_t i = 1; i < aug_len && !z.bad; i++) {
			u64 ignored;
			u8 enc;

			switch (aug[i]) {
			case 'R':
				ci->fde_enc = (u8)cur__uint(&z, 1);
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
				ci->signal = true;
				break;
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
		c.off += (size_t)zlen;
	}
	ci->insn = c.off;
	ci->insn_end = next;
	return true;
}

/* An FDE, parsed. */
struct fde_info {
	u64 start, range;
	size_t insn, insn_end;
	struct cie_info cie;
};

#define CIE_CACHE 64

struct cie_slot {
	size_t off;		/* + 1; 0: empty slot */
	struct cie_info ci;
	bool ok;
};

/*
 * The FDE at off (its body at body, its end at next): its CIE (through
 * cache, may be NULL), range and instructions.  False for a CIE, a
 * malformed entry, or an empty or wrapping range (discarded functions
 * keep FDEs at 0).
 */
static bool parse_fde(const struct cur *c, bool dbg, size_t body,
		      size_t next, bool wide, struct cie_slot *cache,
		      struct fde_info *fi)
{
	struct cur e = *c;
	struct cie_slot one, *slot = &one;
	size_t cie_off;
	u64 id;
	u8 enc;

	e.off = body;
	e.end = next;
	id = cur__uint(&e, dbg && wide ? 8 : 4);
	if (e.bad)
		return false;
	if (!dbg) {
		if (id == 0)
			return false;	/* a CIE */
		/* the CIE pointer counts back from its own field */
		if (id > body)
			return false;
		cie_off = body - (size_t)id;
	} else {
		if (id == (wide ? ~0ULL : 0xffffffffULL))
			return false;	/* a CIE */
		/* from the start of the section */
		if (id >= c->end)
			return false;
		cie_off = (size_t)id;
	}
	if (cache)
		slot = &cache[(cie_off / 4) % CIE_CACHE];
	if (!cache || slot->off != cie_off + 1) {
		slot->off = cie_off + 1;
		slot->ok = parse_cie(c, cie_off, dbg, &slot->ci);
	}
	if (!slot->ok)
		return false;
	fi->cie = slot->ci;
	enc = dbg ? PE_ABSPTR : slot->ci.fde_enc;
	if (!cur__ptr(&e, enc, true, 0, &fi->start) ||
	    !cur__ptr(&e, enc & 0x0f, false, 0, &fi->range))
		return false;
	if (!fi->start || !fi->range || fi->start + fi->range < fi->start)
		return false;
	if (c->addr_size == 4 && fi->start + fi->range > 0x100000000ULL)
		return false;
	if (slot->ci.z) {
		u64 zlen = cur__leb(&e, false);

		if (e.bad || zlen > e.end - e.off)
			return false;
		e.off += (size_t)zlen;
	}
	fi->insn = e.off;
	fi->insn_end = next;
	return true;
}

static struct cur src_cur(const struct ehframe_src *src)
{
	struct cur c = {
		.data = src->data,
		.end = src->size,
		.vaddr = src->vaddr,
		.addr_size = src->addr_size,
		.swap = src->swap,
	};

	return c;
}

typedef int (*fde_walk_fn)(const struct fde_info *fi, size_t off, void *ctx);

/* Every FDE of the section in order; the walk stops quietly at the first
 * malformed length.  Returns how many were reported. */
static long walk_fdes(const struct ehframe_src *src, bool dbg, fde_walk_fn fn,
		      void *ctx)
{
	/* without memory: no cache, every CIE parsed each time */
	struct cie_slot *cache = calloc(CIE_CACHE, sizeof(*cache));
	struct cur c = src_cur(src);
	size_t off = 0, body, next;
	long count = 0;
	bool wide;

	while (off < c.end && entry_bounds(&c, off, &body, &next, &wide)) {
		struct fde_info fi;

		if (parse_fde(&c, dbg, body, next, wide, cache, &fi)) {
			count++;
			if (fn && fn(&fi, off, ctx))
				break;
		}
		off = next;
	}
	free(cache);
	return count;
}

struct range_walk {
	ehframe_fn fn;
	void *ctx;
};

static int range_cb(const struct fde_info *fi, size_t off, void *ctx)
{
	struct range_walk *w = ctx;

	(void)off;
	return w->fn ? w->fn(fi->start, fi->start + fi->range, w->ctx) : 0;
}

long ehframe__for_each_fde(const struct ehframe_src *src, ehframe_fn fn,
			   void *ctx)
{
	struct range_walk w = { fn, ctx };

	if (!src->data || (src->addr_size != 4 && src->addr_size != 8))
		return -EINVAL;
	return walk_fdes(src, false, range_cb, &w);
}

/* ---- the FDE index ---- */

struct index_build {
	struct ehframe_table *t;
	size_t cap;
	int err;
};

static int index_cb(const struct fde_info *fi, size_t off, void *ctx)
{
	struct index_build *b = ctx;
	struct ehframe_table *t = b->t;

	if (fi->range > UINT32_MAX)
		return 0;
	if (array__grow((void **)&t->fdes, &b->cap, t->nr + 1,
			sizeof(*t->fdes))) {
		b->err = -ENOMEM;
		return 1;
	}
	t->fdes[t->nr].start = fi->start;
	t->fdes[t->nr].len = (u32)fi->range;
	t->fdes[t->nr].off = (u32)off;
	t->nr++;
	return 0;
}

static int fde_cmp(const void *a, const void *b)
{
	const struct ehframe_fde *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

int ehframe__table_init(struct ehframe_table *t, const struct ehframe_src *src,
			bool debug_frame)
{
	struct index_build b = { .t = t };
	bool sorted = true;

	memset(t, 0, sizeof(*t));
	if (!src->data || (src->addr_size != 4 && src->addr_size != 8))
		return -EINVAL;
	if (src->size > UINT32_MAX)
		return -E2BIG;
	t->src = *src;
	t->debug_frame = debug_frame;
	walk_fdes(src, debug_frame, index_cb, &b);
	if (b.err) {
		ehframe__table_fini(t);
		return b.err;
	}
	/* compilers write them nearly in order: sort only when needed */
	for (size_t i = 1; i < t->nr && sorted; i++)
		sorted = fde_cmp(&t->fdes[i - 1], &t->fdes[i]) <= 0;
	if (!sorted)
		qsort(t->fdes, t->nr, sizeof(*t->fdes), fde_cmp);
	return 0;
}

void ehframe__table_fini(struct ehframe_table *t)
{
	free(t->fdes);
	t->fdes = NULL;
	t->hdr = NULL;
	t->nr = 0;
}

/* The FDE at off, parsed: its range into *f. */
static bool fde_at(const struct ehframe_table *t, size_t off,
		   struct ehframe_fde *f, struct fde_info *fi)
{
	struct cur c = src_cur(&t->src);
	size_t body, next;
	bool wide;

	if (off >= c.end || !entry_bounds(&c, off, &body, &next, &wide) ||
	    !parse_fde(&c, t->debug_frame, body, next, wide, NULL, fi) ||
	    fi->range > UINT32_MAX)
		return false;
	f->start = fi->start;
	f->len = (u32)fi->range;
	f->off = (u32)off;
	return true;
}

/* The hdr table's entry i: initial location and FDE address. */
static void hdr_entry(const struct ehframe_table *t, size_t i, u64 *loc,
		      u64 *fde)
{
	s32 a, b;

	memcpy(&a, t->hdr + 8 * i, 4);
	memcpy(&b, t->hdr + 8 * i + 4, 4);
	if (t->src.swap) {
		a = (s32)__builtin_bswap32((u32)a);
		b = (s32)__builtin_bswap32((u32)b);
	}
	*loc = t->hdr_vaddr + (u64)(s64)a;
	*fde = t->hdr_vaddr + (u64)(s64)b;
}

static int find_hdr(const struct ehframe_table *t, u64 pc,
		    struct ehframe_fde *out)
{
	size_t lo = 0, hi = t->nr;
	struct fde_info fi;
	u64 loc, fde;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		hdr_entry(t, mid, &loc, &fde);
		if (loc <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -ENOENT;
	hdr_entry(t, lo - 1, &loc, &fde);
	if (fde < t->src.vaddr || fde - t->src.vaddr >= t->src.size ||
	    !fde_at(t, (size_t)(fde - t->src.vaddr), out, &fi) ||
	    out->start != loc || pc - out->start >= out->len)
		return -ENOENT;
	return 0;
}

int ehframe__find(const struct ehframe_table *t, u64 pc,
		  struct ehframe_fde *fde)
{
	size_t lo = 0, hi = t->nr;

	if (t->hdr)
		return find_hdr(t, pc, fde);
	/* the last FDE starting at or below pc */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->fdes[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* overlapping ranges (hostile, or a discarded copy): the nearest
	 * few starts below may still cover pc */
	for (size_t i = lo, n = 0; i-- > 0 && n < 4; n++) {
		const struct ehframe_fde *f = &t->fdes[i];

		if (pc - f->start < f->len) {
			*fde = *f;
			return 0;
		}
	}
	return -ENOENT;
}

int ehframe__table_init_hdr(struct ehframe_table *t,
			    const struct ehframe_src *src, const u8 *hdr,
			    size_t size, u64 hdr_vaddr)
{
	struct cur c = {
		.data = hdr, .end = size, .vaddr = hdr_vaddr,
		.addr_size = src->addr_size, .swap = src->swap,
	};
	u8 version, ptr_enc, count_enc, table_enc;
	u64 eh, count, prev = 0;

	if (!hdr || !src->data || (src->addr_size != 4 && src->addr_size != 8) ||
	    src->size > UINT32_MAX)
		return ehframe__table_init(t, src, false);
	version = (u8)cur__uint(&c, 1);
	ptr_enc = (u8)cur__uint(&c, 1);
	count_enc = (u8)cur__uint(&c, 1);
	table_enc = (u8)cur__uint(&c, 1);
	/* the layout every linker writes: anything else is walked */
	if (c.bad || version != 1 ||
	    !cur__ptr(&c, ptr_enc, true, hdr_vaddr, &eh) ||
	    count_enc != PE_UDATA4 || table_enc != (PE_DATAREL | PE_SDATA4))
		return ehframe__table_init(t, src, false);
	count = cur__uint(&c, 4);
	if (c.bad || eh != src->vaddr || !count || count > (c.end - c.off) / 8)
		return ehframe__table_init(t, src, false);
	memset(t, 0, sizeof(*t));
	t->src = *src;
	t->hdr = hdr + c.off;
	t->hdr_vaddr = hdr_vaddr;
	t->nr = (size_t)count;
	/* binary search needs it sorted */
	for (size_t i = 0; i < t->nr; i++) {
		u64 loc, fde;

		hdr_entry(t, i, &loc, &fde);
		if (i && loc < prev)
			return ehframe__table_init(t, src, false);
		prev = loc;
	}
	return 0;
}

/* ---- CFA rows ---- */

/* DW_CFA_* (DWARF 5, 6.4.2) and GNU's */
#define CFA_advance_loc 0x40
#define CFA_offset 0x80
#define CFA_restore 0xc0
#define CFA_nop 0x00
#define CFA_set_loc 0x01
#define CFA_advance_loc1 0x02
#define CFA_advance_loc2 0x03
#define CFA_advance_loc4 0x04
#define CFA_offset_extended 0x05
#define CFA_restore_extended 0x06
#define CFA_undefined 0x07
#define CFA_same_value 0x08
#define CFA_register 0x09
#define CFA_remember_state 0x0a
#define CFA_restore_state 0x0b
#define CFA_def_cfa 0x0c
#define CFA_def_cfa_register 0x0d
#define CFA_def_cfa_offset 0x0e
#define CFA_def_cfa_expression 0x0f
#define CFA_expression 0x10
#define CFA_offset_extended_sf 0x11
#define CFA_def_cfa_sf 0x12
#define CFA_def_cfa_offset_sf 0x13
#define CFA_val_offset 0x14
#define CFA_val_offset_sf 0x15
#define CFA_val_expression 0x16
#define CFA_GNU_args_size 0x2e
#define CFA_GNU_negative_offset_extended 0x2f

#define STATE_STACK 16

/* The rules followed: the CFA, the return address column, rbp. */
struct rules {
	struct ehframe_rule cfa, ra, bp;
};

struct exec {
	struct cur c;
	const struct cie_info *ci;
	u64 pc;			/* the row wanted */
	u64 loc;		/* the row being built holds from loc */
	u64 next;		/* ... up to here (a later row, or the end) */
	struct rules r;
	struct rules *initial;	/* the CIE's, for restore */
	struct rules stack[STATE_STACK];
	unsigned int depth;
};

/* An operand times the data alignment factor, wrapping as the u64 it
 * is (hostile operands must not overflow a signed product). */
static s64 factored(u64 v, const struct cie_info *ci)
{
	return (s64)(v * (u64)ci->data_align);
}

/* The rule of register reg in r, NULL for one that is not followed. */
static struct ehframe_rule *rule_of(struct rules *r, const struct cie_info *ci,
				    u64 reg)
{
	if (reg == ci->ra)
		return &r->ra;
	if (reg == EHFRAME_REG_BP)
		return &r->bp;
	return NULL;
}

/* A block (ULEB length, then the bytes), checked against the entry. */
static bool read_block(struct cur *c, const u8 **p, u32 *len)
{
	u64 n = cur__leb(c, false);

	if (c->bad || n > c->end - c->off || n > UINT32_MAX) {
		c->bad = true;
		return false;
	}
	*p = c->data + c->off;
	*len = (u32)n;
	c->off += (size_t)n;
	return true;
}

/* Moves the location to to: 1, or 0 once it passes the pc wanted (the
 * row is complete), -EINVAL if it goes back. */
static int advance(struct exec *x, u64 to)
{
	if (to < x->loc)
		return -EINVAL;
	if (to <= x->pc) {
		x->loc = to;
		return 1;
	}
	x->next = MIN(x->next, to);
	return 0;
}

/* Runs instructions until the end or past the pc: 0, or -EINVAL /
 * -EOPNOTSUPP. */
static int exec_insns(struct exec *x, bool in_cie)
{
	struct cur *c = &x->c;
	const struct cie_info *ci = x->ci;

	while (c->off < c->end && !c->bad) {
		u8 op = (u8)cur__uint(c, 1);
		u8 low = op & 0x3f;
		struct ehframe_rule *r;
		u64 reg, v;
		s64 sv;
		int adv;

		switch (op & 0xc0) {
		case CFA_advance_loc:
			if (in_cie)
				return -EINVAL;
			adv = advance(x, x->loc + low * ci->code_align);
			if (adv <= 0)
				return adv;
			continue;
		case CFA_offset:
			v = cur__leb(c, false);
			r = rule_of(&x->r, ci, low);
			if (r) {
				r->how = EH_AT;
				r->off = factored(v, ci);
			}
			continue;
		case CFA_restore:
			r = rule_of(&x->r, ci, low);
			if (r && x->initial)
				*r = *rule_of(x->initial, ci, low);
			continue;
		default:
			break;
		}
		switch (op) {
		case CFA_nop:
			break;
		case CFA_set_loc:
			if (in_cie || !cur__ptr(c, ci->fde_enc, true, 0, &v))
				return -EINVAL;
			adv = advance(x, v);
			if (adv <= 0)
				return adv;
			break;
		case CFA_advance_loc1:
		case CFA_advance_loc2:
		case CFA_advance_loc4:
			v = cur__uint(c, op == CFA_advance_loc1 ? 1 :
					 op == CFA_advance_loc2 ? 2 : 4);
			if (in_cie || c->bad)
				return -EINVAL;
			adv = advance(x, x->loc + v * ci->code_align);
			if (adv <= 0)
				return adv;
			break;
		case CFA_offset_extended:
		case CFA_offset_extended_sf:
		case CFA_val_offset:
		case CFA_val_offset_sf:
		case CFA_GNU_negative_offset_extended:
			reg = cur__leb(c, false);
			if (op == CFA_offset_extended_sf ||
			    op == CFA_val_offset_sf)
				sv = factored(cur__leb(c, true), ci);
			else if (op == CFA_GNU_negative_offset_extended)
				sv = factored(-cur__leb(c, false), ci);
			else
				sv = factored(cur__leb(c, false), ci);
			r = rule_of(&x->r, ci, reg);
			if (r) {
				r->how = op == CFA_val_offset ||
						 op == CFA_val_offset_sf ?
					 EH_VAL : EH_AT;
				r->off = sv;
			}
			break;
		case CFA_restore_extended:
			reg = cur__leb(c, false);
			r = rule_of(&x->r, ci, reg);
			if (r && x->initial)
				*r = *rule_of(x->initial, ci, reg);
			break;
		case CFA_undefined:
		case CFA_same_value:
			reg = cur__leb(c, false);
			r = rule_of(&x->r, ci, reg);
			if (r) {
				memset(r, 0, sizeof(*r));
				r->how = op == CFA_undefined ? EH_UNDEF :
							       EH_SAME;
			}
			break;
		case CFA_register:
			reg = cur__leb(c, false);
			v = cur__leb(c, false);
			r = rule_of(&x->r, ci, reg);
			if (r) {
				memset(r, 0, sizeof(*r));
				r->how = EH_REG;
				r->reg = v < 256 ? (u8)v : 255;
			}
			break;
		case CFA_remember_state:
			if (x->depth >= STATE_STACK)
				return -EINVAL;
			x->stack[x->depth++] = x->r;
			break;
		case CFA_restore_state:
			if (!x->depth)
				return -EINVAL;
			/* the CFA is part of the state, as GCC's and
			 * libdw's unwinders keep it */
			x->r = x->stack[--x->depth];
			break;
		case CFA_def_cfa:
		case CFA_def_cfa_sf:
			reg = cur__leb(c, false);
			sv = op == CFA_def_cfa ?
				     (s64)cur__leb(c, false) :
				     factored(cur__leb(c, true), ci);
			memset(&x->r.cfa, 0, sizeof(x->r.cfa));
			x->r.cfa.how = EH_REG;
			x->r.cfa.reg = reg < 256 ? (u8)reg : 255;
			x->r.cfa.off = sv;
			break;
		case CFA_def_cfa_register:
			reg = cur__leb(c, false);
			/* an expression CFA has no register to change */
			if (x->r.cfa.how != EH_REG)
				return -EINVAL;
			x->r.cfa.reg = reg < 256 ? (u8)reg : 255;
			break;
		case CFA_def_cfa_offset:
		case CFA_def_cfa_offset_sf:
			sv = op == CFA_def_cfa_offset ?
				     (s64)cur__leb(c, false) :
				     factored(cur__leb(c, true), ci);
			if (x->r.cfa.how != EH_REG)
				return -EINVAL;
			x->r.cfa.off = sv;
			break;
		case CFA_def_cfa_expression:
			memset(&x->r.cfa, 0, sizeof(x->r.cfa));
			if (!read_block(c, &x->r.cfa.expr, &x->r.cfa.expr_len))
				return -EINVAL;
			x->r.cfa.how = EH_VAL_EXPR;
			break;
		case CFA_expression:
		case CFA_val_expression: {
			const u8 *p;
			u32 n;

			reg = cur__leb(c, false);
			if (!read_block(c, &p, &n))
				return -EINVAL;
			r = rule_of(&x->r, ci, reg);
			if (r) {
				memset(r, 0, sizeof(*r));
				r->how = op == CFA_expression ? EH_AT_EXPR :
								EH_VAL_EXPR;
				r->expr = p;
				r->expr_len = n;
			}
			break;
		}
		case CFA_GNU_args_size:
			cur__leb(c, false);
			break;
		default:
			return -EOPNOTSUPP;
		}
	}
	return c->bad ? -EINVAL : 0;
}

int ehframe__row(const struct ehframe_table *t, u64 pc, struct ehframe_row *row)
{
	struct cur c = src_cur(&t->src);
	struct ehframe_fde f;
	struct fde_info fi;
	struct rules initial;
	struct exec x;
	int err;

	if (ehframe__find(t, pc, &f))
		return -ENOENT;
	if (!fde_at(t, f.off, &f, &fi))
		return -EINVAL;
	memset(&x, 0, sizeof(x));
	x.ci = &fi.cie;
	x.pc = pc;
	x.loc = fi.start;
	x.next = fi.start + fi.range;
	/* every register the same until a rule says otherwise, as the
	 * psABI's unwinders start (the CFA: none) */
	x.r.ra.how = EH_SAME;
	x.r.bp.how = EH_SAME;
	x.c = c;
	x.c.off = fi.cie.insn;
	x.c.end = fi.cie.insn_end;
	err = exec_insns(&x, true);
	if (err)
		return err;
	initial = x.r;
	x.initial = &initial;
	x.depth = 0;
	x.c = c;
	x.c.off = fi.insn;
	x.c.end = fi.insn_end;
	err = exec_insns(&x, false);
	if (err)
		return err;
	memset(row, 0, sizeof(*row));
	row->cfa = x.r.cfa;
	row->ra = x.r.ra;
	row->bp = x.r.bp;
	row->start = x.loc;
	row->end = x.next;
	row->signal = fi.cie.signal;
	if (row->cfa.how != EH_REG && row->cfa.how != EH_VAL_EXPR)
		return -EINVAL;
	return 0;
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
