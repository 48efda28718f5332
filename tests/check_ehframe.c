/* check_ehframe: the .eh_frame reader on hand-built and hostile sections. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/ehframe.h"
#include "tests/testutil.h"

#define VADDR CFI_VADDR

/* A CIE with augmentation aug ("zR", "zPLR", "", ...); returns its
 * offset. */
static size_t put_cie(struct cfi_sec *s, const char *aug, u8 fde_enc)
{
	size_t at = s->len, lenpos;

	cfi__put32(s, 0);		/* length, patched below */
	lenpos = at;
	cfi__put32(s, 0);		/* CIE id */
	cfi__put8(s, 1);		/* version */
	cfi__put(s, aug, strlen(aug) + 1);
	if (aug[0] == 'e' && aug[1] == 'h')
		cfi__put(s, (u64[]){ 0 }, 8);	/* old GCC: EH data pointer */
	cfi__put8(s, 1);		/* code alignment */
	cfi__put8(s, 0x78);		/* data alignment -8 */
	cfi__put8(s, 16);		/* return address register */
	if (aug[0] == 'z') {
		size_t zlen = 0;

		for (const char *a = aug + 1; *a; a++)
			zlen += *a == 'R' || *a == 'L' ? 1 : *a == 'P' ? 5 : 0;
		cfi__put8(s, (u8)zlen);
		for (const char *a = aug + 1; *a; a++) {
			if (*a == 'R' || *a == 'L')
				cfi__put8(s, *a == 'R' ? fde_enc : 0x1b);
			if (*a == 'P') {
				cfi__put8(s, 0x9b);	/* indirect pcrel sdata4 */
				cfi__put32(s, 0x1234);
			}
		}
	}
	cfi__put8(s, 0x0c);		/* DW_CFA_def_cfa r7 8 */
	cfi__put8(s, 7);
	cfi__put8(s, 8);
	cfi__pad(s, at, 8);
	u32 len = (u32)(s->len - at - 4);

	memcpy(s->buf + lenpos, &len, 4);
	return at;
}

/* An FDE with pcrel|sdata4 locations (or udata8 absolute ones). */
static size_t put_fde(struct cfi_sec *s, size_t cie, u64 start, u64 range,
		      bool abs8)
{
	size_t at = s->len;
	u32 len;

	cfi__put32(s, 0);
	cfi__put32(s, (u32)(s->len - cie));	/* back to the CIE */
	if (abs8) {
		cfi__put(s, &start, 8);
		cfi__put(s, &range, 8);
	} else {
		cfi__put32(s, (u32)(start - (VADDR + s->len)));
		cfi__put32(s, (u32)range);
	}
	cfi__put8(s, 0);		/* augmentation data length */
	cfi__pad(s, at, 8);
	len = (u32)(s->len - at - 4);
	memcpy(s->buf + at, &len, 4);
	return at;
}

struct got {
	u64 start[64], end[64];
	int n;
};

static int collect(u64 start, u64 end, void *arg)
{
	struct got *g = arg;

	if (g->n < 64) {
		g->start[g->n] = start;
		g->end[g->n] = end;
	}
	g->n++;
	return 0;
}

static long walk(const struct cfi_sec *s, size_t len, struct got *g)
{
	struct ehframe_src src = {
		.data = s->buf, .size = len, .vaddr = VADDR, .addr_size = 8,
	};

	memset(g, 0, sizeof(*g));
	return ehframe__for_each_fde(&src, collect, g);
}

START_TEST(test_pcrel)
{
	struct cfi_sec s = { .len = 0 };
	struct got g;
	size_t cie = put_cie(&s, "zR", 0x1b);

	put_fde(&s, cie, 0x401000, 0x80, false);
	put_fde(&s, cie, 0x401080, 0x20, false);
	cfi__put32(&s, 0);	/* terminator */
	ck_assert_int_eq(walk(&s, s.len, &g), 2);
	ck_assert_uint_eq(g.start[0], 0x401000);
	ck_assert_uint_eq(g.end[0], 0x401080);
	ck_assert_uint_eq(g.start[1], 0x401080);
	ck_assert_uint_eq(g.end[1], 0x4010a0);
}
END_TEST

START_TEST(test_absptr_and_aug)
{
	struct cfi_sec s = { .len = 0 };
	struct got g;
	size_t c1 = put_cie(&s, "zPLR", 0x04);	/* udata8 absolute */
	size_t c2 = put_cie(&s, "", 0);		/* no augmentation: absptr */

	put_fde(&s, c1, 0xffffffff81000000ULL, 0x100, true);
	/* without 'z' the FDE has no augmentation length: write by hand */
	{
		size_t at = s.len;
		u64 start = 0x5000, range = 0x10;
		u32 len;

		cfi__put32(&s, 0);
		cfi__put32(&s, (u32)(s.len - c2));
		cfi__put(&s, &start, 8);
		cfi__put(&s, &range, 8);
		cfi__pad(&s, at, 8);
		len = (u32)(s.len - at - 4);
		memcpy(s.buf + at, &len, 4);
	}
	ck_assert_int_eq(walk(&s, s.len, &g), 2);
	ck_assert_uint_eq(g.start[0], 0xffffffff81000000ULL);
	ck_assert_uint_eq(g.end[0], 0xffffffff81000100ULL);
	ck_assert_uint_eq(g.start[1], 0x5000);
	ck_assert_uint_eq(g.end[1], 0x5010);
}
END_TEST

START_TEST(test_terminator)
{
	struct cfi_sec s = { .len = 0 };
	struct got g;
	size_t cie = put_cie(&s, "zR", 0x1b);

	put_fde(&s, cie, 0x401000, 0x80, false);
	cfi__put32(&s, 0);
	put_fde(&s, cie, 0x402000, 0x80, false);	/* after the end */
	ck_assert_int_eq(walk(&s, s.len, &g), 1);
	/* a zero-length CIE first: nothing at all */
	s.len = 0;
	cfi__put32(&s, 0);
	put_cie(&s, "zR", 0x1b);
	ck_assert_int_eq(walk(&s, s.len, &g), 0);
}
END_TEST

START_TEST(test_hostile_lengths)
{
	struct cfi_sec s = { .len = 0 };
	struct got g;
	size_t cie = put_cie(&s, "zR", 0x1b);
	u64 huge = UINT64_MAX - 3;

	put_fde(&s, cie, 0x401000, 0x80, false);
	/* 64-bit length near UINT64_MAX */
	cfi__put32(&s, 0xffffffffu);
	cfi__put(&s, &huge, 8);
	put_fde(&s, cie, 0x402000, 0x80, false);
	ck_assert_int_eq(walk(&s, s.len, &g), 1);
	/* 32-bit length past the end, and lengths under 4 */
	s.len = 0;
	cie = put_cie(&s, "zR", 0x1b);
	cfi__put32(&s, 0x7fffffff);
	ck_assert_int_eq(walk(&s, s.len, &g), 0);
	s.len = 0;
	cie = put_cie(&s, "zR", 0x1b);
	cfi__put32(&s, 2);
	cfi__put32(&s, 0);
	ck_assert_int_eq(walk(&s, s.len, &g), 0);
}
END_TEST

START_TEST(test_bad_cie_pointers)
{
	struct cfi_sec s = { .len = 0 };
	struct got g;
	size_t cie = put_cie(&s, "zR", 0x1b), fde, at;

	fde = put_fde(&s, cie, 0x401000, 0x80, false);
	/* pointing before the section */
	at = put_fde(&s, cie, 0x402000, 0x80, false);
	u32 bad = 0x7fffff00;

	memcpy(s.buf + at + 4, &bad, 4);
	/* pointing at an FDE, not a CIE */
	at = put_fde(&s, cie, 0x403000, 0x80, false);
	bad = (u32)(at + 4 - fde);
	memcpy(s.buf + at + 4, &bad, 4);
	/* pointing at itself (id 0 would make it a CIE; 4 is its length) */
	at = put_fde(&s, cie, 0x404000, 0x80, false);
	bad = 4;
	memcpy(s.buf + at + 4, &bad, 4);
	/* a good one after all that */
	put_fde(&s, cie, 0x405000, 0x80, false);
	ck_assert_int_eq(walk(&s, s.len, &g), 2);
	ck_assert_uint_eq(g.start[0], 0x401000);
	ck_assert_uint_eq(g.start[1], 0x405000);
}
END_TEST

/*
 * CIEs ptop cannot read (an unknown pointer encoding, an augmentation
 * without 'z', whose data it cannot skip) take their FDEs with them and
 * nothing else: the walk goes on to the next entry.  Old GCC's "eh" (an
 * EH data pointer after the string) is read; an FDE of an empty range
 * (a discarded function) is left out.
 */
START_TEST(test_bad_encodings)
{
	struct cfi_sec s = { .len = 0 };
	struct got g;
	size_t c1 = put_cie(&s, "zR", 0x7f);	/* unknown format */
	size_t c2 = put_cie(&s, "eh", 0);	/* old GCC, odd layout */
	size_t c3 = put_cie(&s, "xyz", 0);	/* unknown, no 'z' */
	size_t c4 = put_cie(&s, "zR", 0x1b);	/* pcrel sdata4 */
	struct ehframe_table t;
	struct ehframe_src src;
	struct ehframe_row r;

	put_fde(&s, c1, 0x401000, 0x80, false);
	put_fde(&s, c2, 0x402000, 0x80, true);
	put_fde(&s, c3, 0x403000, 0x80, true);
	put_fde(&s, c1, 0, 0, false);
	put_fde(&s, c4, 0x404000, 0x40, false);
	put_fde(&s, c2, 0x405000, 0, true);
	ck_assert_int_eq(walk(&s, s.len, &g), 2);
	ck_assert_int_eq(g.n, 2);
	ck_assert_uint_eq(g.start[0], 0x402000);
	ck_assert_uint_eq(g.end[0], 0x402080);
	ck_assert_uint_eq(g.start[1], 0x404000);
	ck_assert_uint_eq(g.end[1], 0x404040);
	/* "eh" read to its instructions: the CIE's rule, CFA = r7 + 8 */
	src = (struct ehframe_src){ .data = s.buf, .size = s.len,
				    .vaddr = VADDR, .addr_size = 8 };
	ck_assert_int_eq(ehframe__table_init(&t, &src, false), 0);
	ck_assert_uint_eq(t.nr, 2);
	ck_assert_int_eq(ehframe__row(&t, 0x402010, &r), 0);
	ck_assert_int_eq(r.cfa.how, EH_REG);
	ck_assert_int_eq(r.cfa.reg, 7);
	ck_assert_int_eq(r.cfa.off, 8);
	ck_assert_int_ne(ehframe__row(&t, 0x403010, &r), 0);
	ehframe__table_fini(&t);
}
END_TEST

/* empty and wrapping ranges cover nothing */
START_TEST(test_ranges)
{
	struct cfi_sec s = { .len = 0 };
	struct got g;
	size_t cie = put_cie(&s, "zR", 0x04);

	put_fde(&s, cie, 0x1000, 0, true);
	put_fde(&s, cie, UINT64_MAX - 4, 0x100, true);
	put_fde(&s, cie, 0, 0x100, true);
	put_fde(&s, cie, 0x2000, 0x10, true);
	ck_assert_int_eq(walk(&s, s.len, &g), 1);
	ck_assert_uint_eq(g.start[0], 0x2000);
}
END_TEST

/* cut at every byte: never more than the whole, never a crash */
START_TEST(test_truncated)
{
	struct cfi_sec s = { .len = 0 };
	struct got g;
	size_t cie = put_cie(&s, "zPLR", 0x1b);

	for (int i = 0; i < 6; i++)
		put_fde(&s, cie, 0x401000 + (u64)i * 0x100, 0x80, false);
	for (size_t n = 0; n <= s.len; n++) {
		u8 *copy = malloc(n ? n : 1);
		struct ehframe_src src = {
			.data = copy, .size = n, .vaddr = VADDR, .addr_size = 8,
		};

		memcpy(copy, s.buf, n);
		memset(&g, 0, sizeof(g));
		ck_assert_int_le(ehframe__for_each_fde(&src, collect, &g), 6);
		free(copy);
	}
	ck_assert_int_eq(walk(&s, s.len, &g), 6);
}
END_TEST

/*
 * Two good FDEs, then damage: random bytes (even rounds) or more FDEs
 * with eight random bytes changed (odd rounds).  The good ones are
 * reported first and as written, every FDE reported has a plausible range and was counted,
 * and the walk never reads past the end it is given: a prefix of the
 * section reports a prefix of what the whole reports, whatever bytes
 * follow it (an entry is read only when it lies whole inside the bytes
 * given).
 */
START_TEST(test_garbage)
{
	static u8 fdes[sizeof(((struct cfi_sec *)0)->buf)];
	static struct cfi_sec tail;
	struct cfi_sec s = { .len = 0 };
	struct got g, h;
	u64 x = 88172645463325252ULL;
	size_t good, cie;
	long n, m;
	int more = 0;

	cie = put_cie(&s, "zR", 0x1b);
	put_fde(&s, cie, 0x401000, 0x80, false);
	put_fde(&s, cie, 0x402000, 0x40, false);
	good = s.len;
	while (s.len + 64 < sizeof(s.buf))
		put_fde(&s, cie, 0x403000 + s.len * 0x100, 0x20, false);
	memcpy(fdes, s.buf, s.len);
	s.len = sizeof(s.buf);
	for (int round = 0; round < 400; round++) {
		size_t cut;

		memcpy(s.buf, fdes, sizeof(fdes));
		for (size_t i = good; i < s.len; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			if (round & 1) {
				if (i - good < 8)
					s.buf[good + x % (s.len - good)] =
						(u8)(x >> 24);
				continue;
			}
			s.buf[i] = (u8)x;
			/* small lengths and ids now and then */
			if (i % 16 == 0 && (x & 0x300) == 0)
				s.buf[i] = (u8)(x >> 20) & 0x1f;
		}
		n = walk(&s, s.len, &g);
		ck_assert_int_ge(n, 2);
		ck_assert_int_eq(n, g.n);
		/* at least 8 bytes an entry */
		ck_assert_int_le(n, (long)(s.len / 8));
		ck_assert_uint_eq(g.start[0], 0x401000);
		ck_assert_uint_eq(g.end[0], 0x401080);
		ck_assert_uint_eq(g.start[1], 0x402000);
		ck_assert_uint_eq(g.end[1], 0x402040);
		for (int i = 0; i < g.n && i < 64; i++)
			ck_assert(g.start[i] && g.end[i] > g.start[i]);
		more += n > 2;
		/* the first cut bytes, the rest all 0 then all 1s: the same */
		cut = good + (size_t)(x % (s.len - good));
		memcpy(&tail, &s, sizeof(s));
		memset(tail.buf + cut, 0, sizeof(tail.buf) - cut);
		m = walk(&tail, cut, &h);
		ck_assert_int_ge(m, 2);
		ck_assert_int_le(m, n);
		for (int i = 0; i < h.n && i < 64; i++)
			ck_assert(h.start[i] == g.start[i] &&
				  h.end[i] == g.end[i]);
		memset(tail.buf + cut, 0xff, sizeof(tail.buf) - cut);
		ck_assert_int_eq(walk(&tail, cut, &g), m);
		for (int i = 0; i < h.n && i < 64; i++)
			ck_assert(h.start[i] == g.start[i] &&
				  h.end[i] == g.end[i]);
	}
	/* the garbage made FDEs of its own: the checks above saw some */
	ck_assert_int_gt(more, 0);
	ck_assert_int_eq(walk(&s, 0, &g), 0);
}
END_TEST

START_TEST(test_stop)
{
	struct cfi_sec s = { .len = 0 };
	size_t cie = put_cie(&s, "zR", 0x1b);
	struct ehframe_src src = {
		.data = s.buf, .vaddr = VADDR, .addr_size = 8,
	};

	put_fde(&s, cie, 0x401000, 0x80, false);
	put_fde(&s, cie, 0x402000, 0x80, false);
	src.size = s.len;
	ck_assert_int_eq(ehframe__for_each_fde(&src, NULL, NULL), 2);
	src.addr_size = 3;
	ck_assert_int_eq(ehframe__for_each_fde(&src, NULL, NULL), -EINVAL);
}
END_TEST

START_TEST(test_hdr)
{
	u8 hdr[16] = { 1, 0x1b, 0x03, 0x3b };
	s32 rel = -0x1000 - 4;	/* .eh_frame 0x1000 before the field */
	u64 target = 0;

	memcpy(hdr + 4, &rel, 4);
	ck_assert_int_eq(ehframe__hdr_target(hdr, sizeof(hdr), 0x20000, 8,
					     false, &target),
			 0);
	ck_assert_uint_eq(target, 0x20000 - 0x1000);
	hdr[0] = 2;
	ck_assert_int_eq(ehframe__hdr_target(hdr, sizeof(hdr), 0x20000, 8,
					     false, &target),
			 -EINVAL);
	hdr[0] = 1;
	ck_assert_int_eq(ehframe__hdr_target(hdr, 6, 0x20000, 8, false,
					     &target),
			 -EINVAL);
	hdr[1] = 0xff;	/* omitted */
	ck_assert_int_eq(ehframe__hdr_target(hdr, sizeof(hdr), 0x20000, 8,
					     false, &target),
			 -EINVAL);
}
END_TEST

/* a big-endian section reads the same */
START_TEST(test_swapped)
{
	struct cfi_sec s = { .len = 0 };
	struct got g;
	size_t cie = put_cie(&s, "zR", 0x03);	/* udata4 absolute */
	struct ehframe_src src = {
		.data = s.buf, .vaddr = VADDR, .addr_size = 4, .swap = true,
	};
	u8 fde[] = {
		0, 0, 0, 16,		/* length */
		0, 0, 0, 0,		/* CIE pointer, patched */
		0, 0x40, 0x10, 0,	/* 0x401000 */
		0, 0, 0, 0x80,		/* range */
		0,			/* aug length */
		0, 0, 0,
	};
	u32 back;

	/* the CIE's own length and id are 0-or-symmetric except length:
	 * rewrite it big-endian */
	u32 len;

	memcpy(&len, s.buf + cie, 4);
	len = __builtin_bswap32(len);
	memcpy(s.buf + cie, &len, 4);
	back = __builtin_bswap32((u32)(s.len + 4 - cie));
	memcpy(fde + 4, &back, 4);
	cfi__put(&s, fde, sizeof(fde));
	src.size = s.len;
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(ehframe__for_each_fde(&src, collect, &g), 1);
	ck_assert_uint_eq(g.start[0], 0x401000);
	ck_assert_uint_eq(g.end[0], 0x401080);
}
END_TEST

/* ---- CFA rows ---- */

#define ROW_CFA(r, reg_, off_)                           \
	do {                                             \
		ck_assert_int_eq((r).cfa.how, EH_REG);   \
		ck_assert_int_eq((r).cfa.reg, reg_);     \
		ck_assert_int_eq((r).cfa.off, off_);     \
	} while (0)

/* gcc's frame: push rbp; mov rsp,rbp; ...; pop rbp (epilogue through
 * remember/restore_state); ret */
START_TEST(test_rows_frame)
{
	static const u8 insn[] = {
		0x41,			/* advance 1 */
		0x0e, 16,		/* def_cfa_offset 16 */
		0x86, 2,		/* offset r6 at cfa - 16 */
		0x43,			/* advance 3 */
		0x0d, 6,		/* def_cfa_register r6 */
		0x4a,			/* advance 10 (to 14) */
		0x0a,			/* remember_state */
		0x0c, 7, 8,		/* def_cfa r7 8 */
		0x41,			/* advance 1 (15) */
		0x0b,			/* restore_state */
	};
	struct cfi_sec s = { .len = 0 };
	struct ehframe_table t;
	struct ehframe_src src;
	struct ehframe_row r;
	size_t cie = cfi__cie(&s, "zR");

	cfi__fde(&s, cie, 0x401000, 0x20, insn, sizeof(insn));
	cfi__put32(&s, 0);
	src = cfi__src(&s);
	ck_assert_int_eq(ehframe__table_init(&t, &src, false), 0);
	ck_assert_uint_eq(t.nr, 1);
	ck_assert_int_eq(ehframe__row(&t, 0x401000, &r), 0);
	ROW_CFA(r, 7, 8);
	ck_assert_int_eq(r.ra.how, EH_AT);
	ck_assert_int_eq(r.ra.off, -8);
	ck_assert_int_eq(r.bp.how, EH_SAME);
	ck_assert_uint_eq(r.start, 0x401000);
	ck_assert_uint_eq(r.end, 0x401001);
	ck_assert_int_eq(ehframe__row(&t, 0x401001, &r), 0);
	ROW_CFA(r, 7, 16);
	ck_assert_int_eq(r.bp.how, EH_AT);
	ck_assert_int_eq(r.bp.off, -16);
	ck_assert_int_eq(ehframe__row(&t, 0x401003, &r), 0);
	ROW_CFA(r, 7, 16);
	ck_assert_uint_eq(r.end, 0x401004);
	ck_assert_int_eq(ehframe__row(&t, 0x401004, &r), 0);
	ROW_CFA(r, 6, 16);
	ck_assert_int_eq(ehframe__row(&t, 0x40100e, &r), 0);
	ROW_CFA(r, 7, 8);
	ck_assert_int_eq(r.bp.how, EH_AT);	/* still saved: not restored */
	/* after restore_state: the frame again, to the FDE's end */
	ck_assert_int_eq(ehframe__row(&t, 0x40101f, &r), 0);
	ROW_CFA(r, 6, 16);
	ck_assert_uint_eq(r.start, 0x40100f);
	ck_assert_uint_eq(r.end, 0x401020);
	ck_assert_int_eq(ehframe__row(&t, 0x401020, &r), -ENOENT);
	ck_assert_int_eq(ehframe__row(&t, 0x400fff, &r), -ENOENT);
	ehframe__table_fini(&t);
}
END_TEST

/* DW_CFA_restore brings back the CIE's rule; undefined, same_value,
 * register, val_offset, the _sf forms, set_loc and the advances */
START_TEST(test_rows_ops)
{
	static const u8 insn[] = {
		0x12, 7, 0x7e,		/* def_cfa_sf r7 -2*-8 = 16 */
		0x11, 6, 0x7c,		/* offset_extended_sf r6 -4*-8 = 32 */
		0x02, 4,		/* advance_loc1 4 */
		0x07, 16,		/* undefined r16 */
		0x08, 6,		/* same_value r6 */
		0x03, 4, 0,		/* advance_loc2 4 (8) */
		0xd0,			/* restore r16 */
		0x09, 6, 7,		/* register r6 in r7 */
		0x04, 4, 0, 0, 0,	/* advance_loc4 4 (12) */
		0x14, 6, 2,		/* val_offset r6 = cfa - 16 */
		0x13, 0x7d,		/* def_cfa_offset_sf 24 */
		0x2e, 5,		/* GNU_args_size */
		0x2f, 6, 1,		/* GNU_negative_offset_extended: +8 */
		0x01,			/* set_loc 0x401020 (pcrel: below) */
	};
	struct cfi_sec s = { .len = 0 };
	struct ehframe_table t;
	struct ehframe_src src;
	struct ehframe_row r;
	size_t cie = cfi__cie(&s, "zR"), at;
	u8 buf[sizeof(insn) + 4 + 2];
	s32 rel;

	memcpy(buf, insn, sizeof(insn));
	at = s.len;
	/* where set_loc's operand will be: the FDE's instructions start
	 * 17 bytes in */
	rel = (s32)(0x401020 - (VADDR + at + 17 + sizeof(insn)));
	memcpy(buf + sizeof(insn), &rel, 4);
	buf[sizeof(insn) + 4] = 0x0e;	/* def_cfa_offset 40 */
	buf[sizeof(insn) + 5] = 40;
	cfi__fde(&s, cie, 0x401000, 0x40, buf, sizeof(buf));
	cfi__put32(&s, 0);
	src = cfi__src(&s);
	ck_assert_int_eq(ehframe__table_init(&t, &src, false), 0);
	ck_assert_int_eq(ehframe__row(&t, 0x401000, &r), 0);
	ROW_CFA(r, 7, 16);
	ck_assert_int_eq(r.bp.how, EH_AT);
	ck_assert_int_eq(r.bp.off, 32);
	ck_assert_int_eq(ehframe__row(&t, 0x401004, &r), 0);
	ck_assert_int_eq(r.ra.how, EH_UNDEF);
	ck_assert_int_eq(r.bp.how, EH_SAME);
	ck_assert_int_eq(ehframe__row(&t, 0x401008, &r), 0);
	ck_assert_int_eq(r.ra.how, EH_AT);
	ck_assert_int_eq(r.ra.off, -8);
	ck_assert_int_eq(r.bp.how, EH_REG);
	ck_assert_int_eq(r.bp.reg, 7);
	ck_assert_int_eq(ehframe__row(&t, 0x40100c, &r), 0);
	ROW_CFA(r, 7, 24);
	ck_assert_int_eq(r.bp.how, EH_AT);
	ck_assert_int_eq(r.bp.off, 8);
	ck_assert_uint_eq(r.end, 0x401020);
	ck_assert_int_eq(ehframe__row(&t, 0x401030, &r), 0);
	ROW_CFA(r, 7, 40);
	ehframe__table_fini(&t);
}
END_TEST

/* a PLT's CFA: rsp + 8, + 8 more from the stub's 11th byte on */
static const u8 plt_expr[] = {
	0x77, 8,	/* breg7 (rsp) 8 */
	0x80, 0,	/* breg16 (rip) 0 */
	0x3f,		/* lit15 */
	0x1a,		/* and */
	0x3b,		/* lit11 */
	0x2a,		/* ge */
	0x33,		/* lit3 */
	0x24,		/* shl */
	0x22,		/* plus */
};

START_TEST(test_rows_expression)
{
	struct cfi_sec s = { .len = 0 };
	struct ehframe_table t;
	struct ehframe_src src;
	struct ehframe_row r;
	struct ehframe_regs regs = { .known = 1u << 7 | 1u << 16 };
	size_t cie = cfi__cie(&s, "zR");
	u8 insn[2 + sizeof(plt_expr)];
	u64 v;

	insn[0] = 0x0f;		/* def_cfa_expression */
	insn[1] = sizeof(plt_expr);
	memcpy(insn + 2, plt_expr, sizeof(plt_expr));
	cfi__fde(&s, cie, 0x402000, 0x40, insn, sizeof(insn));
	cfi__put32(&s, 0);
	src = cfi__src(&s);
	ck_assert_int_eq(ehframe__table_init(&t, &src, false), 0);
	ck_assert_int_eq(ehframe__row(&t, 0x402016, &r), 0);
	ck_assert_int_eq(r.cfa.how, EH_VAL_EXPR);
	ck_assert_uint_eq(r.cfa.expr_len, sizeof(plt_expr));
	regs.v[7] = 0x7000;
	regs.v[16] = 0x402016;
	ck_assert_int_eq(ehframe__expr(r.cfa.expr, r.cfa.expr_len, 8, &regs,
				       NULL, NULL, NULL, &v), 0);
	ck_assert_uint_eq(v, 0x7008);
	regs.v[16] = 0x40201b;
	ck_assert_int_eq(ehframe__expr(r.cfa.expr, r.cfa.expr_len, 8, &regs,
				       NULL, NULL, NULL, &v), 0);
	ck_assert_uint_eq(v, 0x7010);
	/* an unknown register */
	regs.known = 1u << 7;
	ck_assert_int_eq(ehframe__expr(r.cfa.expr, r.cfa.expr_len, 8, &regs,
				       NULL, NULL, NULL, &v), -EINVAL);
	ehframe__table_fini(&t);
}
END_TEST

static bool read_fixed(void *ctx, u64 addr, u64 *val)
{
	(void)ctx;
	if (addr != 0x7100)
		return false;
	*val = 0xabcdef;
	return true;
}

START_TEST(test_expr_ops)
{
	struct ehframe_regs regs = { .known = 1u << 6 };
	u64 v, push = 0x7100;

	regs.v[6] = 0x7108;
#define EXPR(res, ...)                                                    \
	do {                                                              \
		static const u8 e_[] = { __VA_ARGS__ };                   \
		ck_assert_int_eq(ehframe__expr(e_, sizeof(e_), 8, &regs,  \
					       NULL, read_fixed, NULL,   \
					       &v), 0);                   \
		ck_assert_uint_eq(v, (u64)(res));                         \
	} while (0)
#define BAD(...)                                                          \
	do {                                                              \
		static const u8 e_[] = { __VA_ARGS__ };                   \
		ck_assert_int_eq(ehframe__expr(e_, sizeof(e_), 8, &regs,  \
					       NULL, read_fixed, NULL,   \
					       &v), -EINVAL);             \
	} while (0)
	/* the stack realigned: CFA = [rbp - 8] */
	EXPR(0xabcdef, 0x76, 0x78, 0x06);
	EXPR(0xef, 0x76, 0x78, 0x94, 1);	/* deref_size 1 */
	EXPR(5, 0x08, 2, 0x08, 3, 0x22);	/* const1u, plus */
	EXPR((u64)-1, 0x09, 0xff);		/* const1s */
	EXPR(0x1234, 0x0a, 0x34, 0x12);
	EXPR((u64)-2, 0x0b, 0xfe, 0xff);
	EXPR((u64)-5, 0x31, 0x36, 0x16, 0x1c, 0x1f); /* 1 6 swap minus neg */
	EXPR(3, 0x37, 0x32, 0x1b);		/* 7 / 2 */
	EXPR(1, 0x37, 0x32, 0x1d);		/* 7 % 2 */
	EXPR(12, 0x33, 0x34, 0x1e);		/* 3 * 4 */
	EXPR(0x700, 0x37, 0x38, 0x24);		/* 7 << 8 */
	EXPR(0, 0x31, 0x10, 0x80, 0x01, 0x29);	/* 1 == constu 128 */
	EXPR(9, 0x30, 0x28, 2, 0, 0x3f, 0x3f, 0x39); /* bra not taken */
	EXPR(2, 0x31, 0x28, 1, 0, 0x3f, 0x32);	/* bra taken over lit15 */
	EXPR(4, 0x2f, 1, 0, 0x96, 0x34);	/* skip over a nop */
	EXPR(0x7108 + 3, 0x92, 6, 3);		/* bregx r6 3 */
	EXPR(2, 0x31, 0x32, 0x14, 0x13, 0x12, 0x1a); /* over drop dup and */
	EXPR(5, 0x11, 0x7b, 0x19);		/* consts -5, abs */
	/* failures */
	BAD(0x1c);				/* minus on nothing */
	BAD(0x31, 0x30, 0x1b);			/* divide by zero */
	BAD(0x2f, 0x10, 0);			/* skip past the end */
	BAD(0x2f, 0xf0, 0xff);			/* skip before the start */
	BAD(0x70, 0);				/* breg0: rax unknown */
	BAD(0x50);				/* reg0: a location */
	BAD(0x31, 0x06);			/* deref at 1: refused */
	BAD(0x08);				/* const1u cut short */
	BAD(0xff);				/* unknown op */
	BAD();					/* empty */
	/* a loop: skip -3 forever, stopped by the step bound */
	BAD(0x96, 0x2f, 0xfc, 0xff);
	/* 65 values */
	{
		u8 e[65];

		memset(e, 0x30, sizeof(e));
		ck_assert_int_eq(ehframe__expr(e, sizeof(e), 8, &regs, NULL,
					       NULL, NULL, &v), -EINVAL);
		ck_assert_int_eq(ehframe__expr(e, 64, 8, &regs, NULL, NULL,
					       NULL, &v), 0);
	}
	/* the CFA pushed first (DW_CFA_expression's rules) */
	{
		static const u8 e[] = { 0x23, 16 };	/* plus_uconst 16 */

		ck_assert_int_eq(ehframe__expr(e, sizeof(e), 8, &regs, &push,
					       NULL, NULL, &v), 0);
		ck_assert_uint_eq(v, 0x7110);
	}
#undef EXPR
#undef BAD
}
END_TEST

/* .debug_frame (Go's only CFI): CIE id all ones, CIE pointers from the
 * section's start, absolute addresses, no augmentation; FDEs out of
 * order */
static size_t put_dbg_fde(struct cfi_sec *s, size_t cie, u64 start, u64 range,
			  const u8 *insn, size_t n)
{
	size_t at = s->len;
	u32 len;

	cfi__put32(s, 0);
	cfi__put32(s, (u32)cie);
	cfi__put(s, &start, 8);
	cfi__put(s, &range, 8);
	cfi__put(s, insn, n);
	cfi__pad(s, at, 4);
	len = (u32)(s->len - at - 4);
	memcpy(s->buf + at, &len, 4);
	return at;
}

START_TEST(test_debug_frame)
{
	static const u8 go[] = { 0x44, 0x0e, 40 };	/* adv 4, cfa+40 */
	struct cfi_sec s = { .len = 0 };
	struct ehframe_table t;
	struct ehframe_src src;
	struct ehframe_row r;
	struct got g;
	size_t cie = s.len;
	u32 len;

	cfi__put32(&s, 0);
	cfi__put32(&s, 0xffffffffu);
	cfi__put8(&s, 3);
	cfi__put8(&s, 0);		/* "" */
	cfi__put8(&s, 1);
	cfi__put8(&s, 0x7c);		/* data -4, as Go writes it */
	cfi__put8(&s, 16);
	cfi__put8(&s, 0x0c);
	cfi__put8(&s, 7);
	cfi__put8(&s, 8);
	cfi__put8(&s, 0x90);
	cfi__put8(&s, 2);		/* ra at cfa - 8 */
	cfi__pad(&s, cie, 4);
	len = (u32)(s.len - cie - 4);
	memcpy(s.buf + cie, &len, 4);
	put_dbg_fde(&s, cie, 0x402000, 0x100, go, sizeof(go));
	put_dbg_fde(&s, cie, 0x401000, 0x100, go, sizeof(go));
	src = cfi__src(&s);
	ck_assert_int_eq(ehframe__table_init(&t, &src, true), 0);
	ck_assert_uint_eq(t.nr, 2);
	ck_assert_uint_eq(t.fdes[0].start, 0x401000);
	ck_assert_int_eq(ehframe__row(&t, 0x402003, &r), 0);
	ROW_CFA(r, 7, 8);
	ck_assert_int_eq(r.ra.off, -8);
	ck_assert_int_eq(ehframe__row(&t, 0x401004, &r), 0);
	ROW_CFA(r, 7, 40);
	ehframe__table_fini(&t);
	/* the .eh_frame reader takes none of it */
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(ehframe__for_each_fde(&src, collect, &g), 0);
	ck_assert_int_eq(ehframe__table_init(&t, &src, false), 0);
	ck_assert_uint_eq(t.nr, 0);
	ehframe__table_fini(&t);
}
END_TEST

/* One FDE of [0x401000, 0x401040) with instructions insn: its row at pc
 * (the error). */
static int one_row(const u8 *insn, size_t n, u64 pc, struct ehframe_row *r)
{
	struct cfi_sec s = { .len = 0 };
	struct ehframe_table t;
	struct ehframe_src src;
	size_t cie = cfi__cie(&s, "zR");
	int err;

	cfi__fde(&s, cie, 0x401000, 0x40, insn, n);
	cfi__put32(&s, 0);
	src = cfi__src(&s);
	ck_assert_int_eq(ehframe__table_init(&t, &src, false), 0);
	err = ehframe__row(&t, pc, r);
	ehframe__table_fini(&t);
	return err;
}

/* instructions that must fail the row, never the process */
START_TEST(test_rows_hostile)
{
	static const struct {
		u8 insn[24];
		size_t n;
		int err;
	} cases[] = {
		{ { 0x0b }, 1, -EINVAL },		/* restore_state */
		{ { 0x05, 6 }, 2, -EINVAL },		/* operand cut */
		{ { 0x0f, 0x40 }, 2, -EINVAL },		/* block too long */
		{ { 0x0d, 6 }, 2, 0 },			/* def_cfa_register */
		{ { 0x0f, 1, 0x96, 0x0e, 8 }, 5, -EINVAL }, /* offset of expr */
		{ { 0x0f, 1, 0x96, 0x0d, 7 }, 5, -EINVAL }, /* reg of expr */
		{ { 0x1d }, 1, -EOPNOTSUPP },		/* unknown op */
		{ { 0x0c, 7, 8, 0x44, 0x01, 0, 0, 0, 0 }, 9, -EINVAL },
							/* set_loc back */
		{ { 0x07 }, 1, -EINVAL },		/* undefined, no reg */
	};
	struct ehframe_row r;
	u8 insn[32];

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		/* nops first, so that the last instruction ends the FDE
		 * (17 bytes before the instructions, padded to 8): nothing
		 * after it to complete an operand */
		size_t lead = (7 - cases[k].n % 8 + 8) % 8;

		memset(insn, 0, lead);
		memcpy(insn + lead, cases[k].insn, cases[k].n);
		ck_assert_int_eq(one_row(insn, lead + cases[k].n, 0x401010, &r),
				 cases[k].err);
	}
	/* 16 remembered states fit, 17 do not */
	memset(insn, 0x0a, sizeof(insn));
	ck_assert_int_eq(one_row(insn, 16, 0x401010, &r), 0);
	ck_assert_int_eq(one_row(insn, 17, 0x401010, &r), -EINVAL);
}
END_TEST

/* random instructions and rows at every pc: no crash, no hang, and a
 * row that is given holds its pc */
START_TEST(test_rows_garbage)
{
	u64 seed = 0x9e3779b97f4a7c15ULL;

	for (int round = 0; round < 2000; round++) {
		struct cfi_sec s = { .len = 0 };
		struct ehframe_table t;
		struct ehframe_src src;
		size_t cie = cfi__cie(&s, round & 1 ? "zRS" : "zR");
		u8 insn[40];
		size_t n = 1 + round % 40;

		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ULL + 1;
			insn[i] = (u8)(seed >> 56);
		}
		cfi__fde(&s, cie, 0x401000, 0x30, insn, n);
		cfi__put32(&s, 0);
		src = cfi__src(&s);
		ck_assert_int_eq(ehframe__table_init(&t, &src, false), 0);
		for (u64 pc = 0x400ff0; pc < 0x401040; pc++) {
			struct ehframe_row r;

			if (ehframe__row(&t, pc, &r) == 0)
				ck_assert(pc >= r.start && pc < r.end);
		}
		ehframe__table_fini(&t);
	}
}
END_TEST

Suite *ehframe_suite(void)
{
	Suite *s = suite_create("ehframe");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_pcrel);
	tcase_add_test(tc, test_absptr_and_aug);
	tcase_add_test(tc, test_terminator);
	tcase_add_test(tc, test_hostile_lengths);
	tcase_add_test(tc, test_bad_cie_pointers);
	tcase_add_test(tc, test_bad_encodings);
	tcase_add_test(tc, test_ranges);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_garbage);
	tcase_add_test(tc, test_stop);
	tcase_add_test(tc, test_hdr);
	tcase_add_test(tc, test_swapped);
	tcase_add_test(tc, test_rows_frame);
	tcase_add_test(tc, test_rows_ops);
	tcase_add_test(tc, test_rows_expression);
	tcase_add_test(tc, test_expr_ops);
	tcase_add_test(tc, test_debug_frame);
	tcase_add_test(tc, test_rows_hostile);
	tcase_add_test(tc, test_rows_garbage);
	suite_add_tcase(s, tc);
	return s;
}
