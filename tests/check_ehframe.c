/* check_ehframe: the .eh_frame reader on hand-built and hostile sections. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/ehframe.h"
#include "tests/testutil.h"

#define VADDR 0x10000

struct sec {
	u8 buf[4096];
	size_t len;
};

static void put(struct sec *s, const void *p, size_t n)
{
	ck_assert_uint_le(s->len + n, sizeof(s->buf));
	memcpy(s->buf + s->len, p, n);
	s->len += n;
}

static void put32(struct sec *s, u32 v)
{
	put(s, &v, 4);
}

static void put8(struct sec *s, u8 v)
{
	put(s, &v, 1);
}

static void pad_to(struct sec *s, size_t start, size_t align)
{
	while ((s->len - start) % align)
		put8(s, 0);	/* DW_CFA_nop */
}

/* A CIE with augmentation aug ("zR", "zPLR", "", ...); returns its
 * offset. */
static size_t put_cie(struct sec *s, const char *aug, u8 fde_enc)
{
	size_t at = s->len, lenpos;

	put32(s, 0);		/* length, patched below */
	lenpos = at;
	put32(s, 0);		/* CIE id */
	put8(s, 1);		/* version */
	put(s, aug, strlen(aug) + 1);
	put8(s, 1);		/* code alignment */
	put8(s, 0x78);		/* data alignment -8 */
	put8(s, 16);		/* return address register */
	if (aug[0] == 'z') {
		size_t zlen = 0;

		for (const char *a = aug + 1; *a; a++)
			zlen += *a == 'R' || *a == 'L' ? 1 : *a == 'P' ? 5 : 0;
		put8(s, (u8)zlen);
		for (const char *a = aug + 1; *a; a++) {
			if (*a == 'R' || *a == 'L')
				put8(s, *a == 'R' ? fde_enc : 0x1b);
			if (*a == 'P') {
				put8(s, 0x9b);	/* indirect pcrel sdata4 */
				put32(s, 0x1234);
			}
		}
	}
	put8(s, 0x0c);		/* DW_CFA_def_cfa r7 8 */
	put8(s, 7);
	put8(s, 8);
	pad_to(s, at, 8);
	u32 len = (u32)(s->len - at - 4);

	memcpy(s->buf + lenpos, &len, 4);
	return at;
}

/* An FDE with pcrel|sdata4 locations (or udata8 absolute ones). */
static size_t put_fde(struct sec *s, size_t cie, u64 start, u64 range,
		      bool abs8)
{
	size_t at = s->len;
	u32 len;

	put32(s, 0);
	put32(s, (u32)(s->len - cie));	/* back to the CIE */
	if (abs8) {
		put(s, &start, 8);
		put(s, &range, 8);
	} else {
		put32(s, (u32)(start - (VADDR + s->len)));
		put32(s, (u32)range);
	}
	put8(s, 0);		/* augmentation data length */
	pad_to(s, at, 8);
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

static long walk(const struct sec *s, size_t len, struct got *g)
{
	struct ehframe_src src = {
		.data = s->buf, .size = len, .vaddr = VADDR, .addr_size = 8,
	};

	memset(g, 0, sizeof(*g));
	return ehframe__for_each_fde(&src, collect, g);
}

START_TEST(test_pcrel)
{
	struct sec s = { .len = 0 };
	struct got g;
	size_t cie = put_cie(&s, "zR", 0x1b);

	put_fde(&s, cie, 0x401000, 0x80, false);
	put_fde(&s, cie, 0x401080, 0x20, false);
	put32(&s, 0);	/* terminator */
	ck_assert_int_eq(walk(&s, s.len, &g), 2);
	ck_assert_uint_eq(g.start[0], 0x401000);
	ck_assert_uint_eq(g.end[0], 0x401080);
	ck_assert_uint_eq(g.start[1], 0x401080);
	ck_assert_uint_eq(g.end[1], 0x4010a0);
}
END_TEST

START_TEST(test_absptr_and_aug)
{
	struct sec s = { .len = 0 };
	struct got g;
	size_t c1 = put_cie(&s, "zPLR", 0x04);	/* udata8 absolute */
	size_t c2 = put_cie(&s, "", 0);		/* no augmentation: absptr */

	put_fde(&s, c1, 0xffffffff81000000ULL, 0x100, true);
	/* without 'z' the FDE has no augmentation length: write by hand */
	{
		size_t at = s.len;
		u64 start = 0x5000, range = 0x10;
		u32 len;

		put32(&s, 0);
		put32(&s, (u32)(s.len - c2));
		put(&s, &start, 8);
		put(&s, &range, 8);
		pad_to(&s, at, 8);
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
	struct sec s = { .len = 0 };
	struct got g;
	size_t cie = put_cie(&s, "zR", 0x1b);

	put_fde(&s, cie, 0x401000, 0x80, false);
	put32(&s, 0);
	put_fde(&s, cie, 0x402000, 0x80, false);	/* after the end */
	ck_assert_int_eq(walk(&s, s.len, &g), 1);
	/* a zero-length CIE first: nothing at all */
	s.len = 0;
	put32(&s, 0);
	put_cie(&s, "zR", 0x1b);
	ck_assert_int_eq(walk(&s, s.len, &g), 0);
}
END_TEST

START_TEST(test_hostile_lengths)
{
	struct sec s = { .len = 0 };
	struct got g;
	size_t cie = put_cie(&s, "zR", 0x1b);
	u64 huge = UINT64_MAX - 3;

	put_fde(&s, cie, 0x401000, 0x80, false);
	/* 64-bit length near UINT64_MAX */
	put32(&s, 0xffffffffu);
	put(&s, &huge, 8);
	put_fde(&s, cie, 0x402000, 0x80, false);
	ck_assert_int_eq(walk(&s, s.len, &g), 1);
	/* 32-bit length past the end, and lengths under 4 */
	s.len = 0;
	cie = put_cie(&s, "zR", 0x1b);
	put32(&s, 0x7fffffff);
	ck_assert_int_eq(walk(&s, s.len, &g), 0);
	s.len = 0;
	cie = put_cie(&s, "zR", 0x1b);
	put32(&s, 2);
	put32(&s, 0);
	ck_assert_int_eq(walk(&s, s.len, &g), 0);
}
END_TEST

START_TEST(test_bad_cie_pointers)
{
	struct sec s = { .len = 0 };
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

START_TEST(test_bad_encodings)
{
	struct sec s = { .len = 0 };
	struct got g;
	size_t c1 = put_cie(&s, "zR", 0x7f);	/* unknown format */
	size_t c2 = put_cie(&s, "eh", 0);	/* old GCC, odd layout */
	size_t c3 = put_cie(&s, "xyz", 0);	/* unknown, no 'z' */

	put_fde(&s, c1, 0x401000, 0x80, false);
	put_fde(&s, c2, 0x402000, 0x80, true);
	put_fde(&s, c3, 0x403000, 0x80, true);
	put_fde(&s, c1, 0, 0, false);
	walk(&s, s.len, &g);	/* whatever it finds, no crash */
	ck_assert_int_le(g.n, 1);
}
END_TEST

/* empty and wrapping ranges cover nothing */
START_TEST(test_ranges)
{
	struct sec s = { .len = 0 };
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
	struct sec s = { .len = 0 };
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

START_TEST(test_garbage)
{
	struct sec s = { .len = sizeof(s.buf) };
	struct got g;
	u64 x = 88172645463325252ULL;

	for (int round = 0; round < 200; round++) {
		for (size_t i = 0; i < s.len; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			s.buf[i] = (u8)x;
			/* small lengths and ids now and then */
			if (i % 16 == 0 && (x & 0x300) == 0)
				s.buf[i] = (u8)(x >> 20) & 0x1f;
		}
		walk(&s, s.len, &g);
	}
	ck_assert_int_eq(walk(&s, 0, &g), 0);
}
END_TEST

START_TEST(test_stop)
{
	struct sec s = { .len = 0 };
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
	struct sec s = { .len = 0 };
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
	put(&s, fde, sizeof(fde));
	src.size = s.len;
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(ehframe__for_each_fde(&src, collect, &g), 1);
	ck_assert_uint_eq(g.start[0], 0x401000);
	ck_assert_uint_eq(g.end[0], 0x401080);
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
	suite_add_tcase(s, tc);
	return s;
}
