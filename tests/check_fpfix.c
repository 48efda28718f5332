/* check_fpfix: the callers frame-pointer chains lose, recovered from byte
 * images of registers, a stack copy and CFI. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "symbols/fpfix.h"
#include "tests/testutil.h"

/*
 * A fake process: code at [0x400000, 0x410000) with CFI (one .eh_frame),
 * JIT code at [0x500000, 0x510000) without; a stack copied from SP.
 *
 *   L 0x401000  a leaf: no frame (CFA rsp + 8 throughout)
 *   M 0x402000  gcc's frame: push rbp (+1), mov rsp,rbp (+4); the
 *               epilogue's pop rbp at +0x80 (CFA rsp + 8 until +0x81)
 *   G 0x403000  Go: CFA from rsp (rsp + 0x30 from +4), rbp kept at
 *               CFA - 16 but not described
 *   V 0x404000  rbp saved (+1) then data: CFA rsp + 0x548 from +8
 *               (glibc's __vfprintf_internal)
 *   W 0x405000  a frame from rsp only (rsp + 0x20 from +4)
 *   P 0x406000  a PLT: DW_CFA_def_cfa_expression
 *   T 0x407000  a signal trampoline ('S'), its FDE from 0x406fff:
 *               CFA [rsp + 160], rbp at [rsp + 120], ip at [rsp + 168]
 *   X 0x408000  code without CFI (hand-written assembly)
 */
#define SP 0x7ff000ULL
#define L_ 0x401000ULL
#define M_ 0x402000ULL
#define G_ 0x403000ULL
#define V_ 0x404000ULL
#define W_ 0x405000ULL
#define P_ 0x406000ULL
#define T_ 0x407000ULL
#define X_ 0x408000ULL
#define JIT 0x500000ULL

static struct cfi_sec sec;
static struct ehframe_table table;
static u8 stack[2048];
static bool unready;

static void build_cfi(void)
{
	static const u8 m[] = {
		0x41, 0x0e, 16, 0x86, 2,	/* +1: cfa 16, rbp at -16 */
		0x43, 0x0d, 6,			/* +4: cfa rbp + 16 */
		0x02, 124,			/* +0x80 */
		0x0a, 0x0c, 7, 8,		/* remember; cfa rsp + 8 */
		0x41, 0x0b,			/* +0x81: restore */
	};
	static const u8 g[] = { 0x44, 0x0e, 0x30 };
	static const u8 v[] = {
		0x41, 0x0e, 16, 0x86, 2,	/* +1: rbp saved */
		0x47, 0x0e, 0xc8, 0x0a,		/* +8: cfa rsp + 0x548 */
	};
	static const u8 w[] = { 0x44, 0x0e, 0x20 };
	static const u8 p[] = {
		0x0f, 11,			/* def_cfa_expression */
		0x77, 8, 0x80, 0, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22,
	};
	static const u8 t[] = {
		0x0f, 5, 0x77, 0xa0, 0x01, 0x06, 0x96, /* cfa [rsp+160] */
		0x10, 6, 3, 0x77, 0xf8, 0x00,	/* rbp at rsp + 120 */
		0x10, 16, 3, 0x77, 0xa8, 0x01,	/* rip at rsp + 168 */
	};
	struct ehframe_src src;
	size_t cie, sig;

	memset(&sec, 0, sizeof(sec));
	cie = cfi__cie(&sec, "zR");
	sig = cfi__cie(&sec, "zRS");
	cfi__fde(&sec, cie, L_, 0x100, NULL, 0);
	cfi__fde(&sec, cie, M_, 0x100, m, sizeof(m));
	cfi__fde(&sec, cie, G_, 0x100, g, sizeof(g));
	cfi__fde(&sec, cie, V_, 0x100, v, sizeof(v));
	cfi__fde(&sec, cie, W_, 0x100, w, sizeof(w));
	cfi__fde(&sec, cie, P_, 0x40, p, sizeof(p));
	cfi__fde(&sec, sig, T_ - 1, 0x11, t, sizeof(t));
	cfi__put32(&sec, 0);
	src = cfi__src(&sec);
	ck_assert_int_eq(ehframe__table_init(&table, &src, false), 0);
	ck_assert_uint_eq(table.nr, 7);
}

static void setup(void)
{
	build_cfi();
	memset(stack, 0, sizeof(stack));
	unready = false;
}

static void teardown(void)
{
	ehframe__table_fini(&table);
}

/* the process's executable maps and CFI */
static int row(void *ctx, u64 pc, bool ret, struct ehframe_row *r)
{
	(void)ctx;
	if (!((pc >= 0x400000 && pc < 0x410000) || (pc >= JIT && pc < JIT + 0x10000)))
		return -ENOENT;
	if (unready)
		return -EAGAIN;
	return ehframe__row(&table, ret ? pc - 1 : pc, r);
}

static void put(u64 addr, u64 v)
{
	ck_assert(addr >= SP && addr - SP + 8 <= sizeof(stack));
	memcpy(stack + (addr - SP), &v, 8);
}

struct result {
	int how;
	size_t nr;
	u64 out[FPFIX_MAX_FRAMES];
};

/* Recovers with the copy's first size bytes; the kernel's chain is ip,
 * then [bp + 8] (its first return address), whatever it is. */
static struct result fix(u64 ip, u64 bp, size_t size)
{
	struct fpfix_regs regs = { .ip = ip, .sp = SP, .bp = bp };
	u64 user[2] = { ip, 0x4fff00 };
	struct result r;

	memset(&r, 0, sizeof(r));
	r.how = fpfix__recover(&regs, user, 2, stack, size, row, NULL, r.out,
			       FPFIX_MAX_FRAMES, &r.nr);
	return r;
}

#define TIED(r, n)                                   \
	do {                                         \
		ck_assert_int_eq((r).how, FP_FIX_TIED); \
		ck_assert_uint_eq((r).nr, n);        \
	} while (0)

/* a leaf's body: rbp is its caller's, so the walk skips the caller,
 * whose return address is at rsp */
START_TEST(test_leaf_body)
{
	u64 bp = SP + 0x40;
	struct result r;

	put(SP, M_ + 0x50);
	put(bp + 8, 0x4fff00);
	r = fix(L_ + 0x50, bp, sizeof(stack));
	TIED(r, 1);
	ck_assert_uint_eq(r.out[0], M_ + 0x50);
	/* the copy need reach only the return address */
	r = fix(L_ + 0x50, bp, 8);
	TIED(r, 1);
}
END_TEST

/* a prologue: rbp pushed but not set; the pushed value is the
 * sample's rbp, so the caller's frame ties */
START_TEST(test_prologue)
{
	u64 bp = SP + 0x60;
	struct result r;

	put(SP, bp);		/* push rbp */
	put(SP + 8, M_ + 0x60);	/* the return address */
	r = fix(M_ + 1, bp, sizeof(stack));
	TIED(r, 1);
	ck_assert_uint_eq(r.out[0], M_ + 0x60);
	/* before the push: the same caller */
	put(SP, M_ + 0x60);
	r = fix(M_, bp, sizeof(stack));
	TIED(r, 1);
	ck_assert_uint_eq(r.out[0], M_ + 0x60);
}
END_TEST

/* an epilogue: rbp popped (the caller's again), the return address at
 * rsp */
START_TEST(test_epilogue)
{
	u64 bp = SP + 0x60;
	struct result r;

	put(SP, M_ + 0x70);
	r = fix(M_ + 0x80, bp, sizeof(stack));
	TIED(r, 1);
	ck_assert_uint_eq(r.out[0], M_ + 0x70);
	/* after the ret's row is restored: the frame's own rule */
	r = fix(M_ + 0x81, SP + 0x10, sizeof(stack));
	TIED(r, 0);
}
END_TEST

/* the frame set up: frame 0 is where the walk began, nothing to insert
 * (and no duplicate of the caller the kernel found) */
START_TEST(test_frame_set_up)
{
	struct result r = fix(M_ + 0x10, SP + 0x30, 0);

	TIED(r, 0);
}
END_TEST

/* Go states its CFA from rsp everywhere but keeps rbp at CFA - 16: the
 * equality check ties frame 0; a frameless Go leaf ties its caller */
START_TEST(test_go)
{
	struct result r;

	r = fix(G_ + 0x10, SP + 0x20, sizeof(stack));
	TIED(r, 0);
	put(SP, G_ + 0x40);
	r = fix(L_ + 0x10, SP + 8 + 0x20, sizeof(stack));
	TIED(r, 1);
	ck_assert_uint_eq(r.out[0], G_ + 0x40);
	/* in Go's prologue (before the frame): its caller */
	r = fix(G_ + 2, SP + 8 + 0x20, sizeof(stack));
	TIED(r, 1);
}
END_TEST

/* rbp as a general register: no frame ties, nothing is inserted */
START_TEST(test_rbp_as_data)
{
	u64 cfa0 = SP + 0x548, real = SP + 0x700;
	struct result r;

	/* a small value, and one inside the stack below the frame */
	r = fix(V_ + 0x10, 0x1234, sizeof(stack));
	ck_assert_int_eq(r.how, FP_FIX_NO_MATCH);
	r = fix(V_ + 0x10, SP + 0x100, sizeof(stack));
	ck_assert_int_eq(r.how, FP_FIX_NO_MATCH);
	ck_assert_uint_eq(r.nr, 0);
	/* data that happens to be a CFA - 16 above: rbp unwound to that
	 * frame is the saved one, not the sample's */
	put(cfa0 - 16, real);
	put(cfa0 - 8, W_ + 0x50);
	r = fix(V_ + 0x10, cfa0 + 0x20 - 16, sizeof(stack));
	ck_assert_int_eq(r.how, FP_FIX_RBP);
	ck_assert_uint_eq(r.nr, 0);
	/* the saved rbp in rbp (saved, not yet reused), W called from M,
	 * whose frame the walk began at: tied through V and W */
	put(cfa0 + 0x18, M_ + 0x50);
	r = fix(V_ + 0x10, real, sizeof(stack));
	TIED(r, 2);
	ck_assert_uint_eq(r.out[0], W_ + 0x50);
	ck_assert_uint_eq(r.out[1], M_ + 0x50);
}
END_TEST

/* the kernel copies with page faults off: less than asked */
START_TEST(test_short_copy)
{
	struct result r;

	put(SP, M_ + 0x50);
	r = fix(L_ + 0x50, SP + 0x40, 0);
	ck_assert_int_eq(r.how, FP_FIX_SHORT);
	r = fix(L_ + 0x50, SP + 0x40, 4);
	ck_assert_int_eq(r.how, FP_FIX_SHORT);
	/* the prologue's return address is at +8 */
	put(SP, SP + 0x60);
	put(SP + 8, M_ + 0x60);
	r = fix(M_ + 1, SP + 0x60, 8);
	ck_assert_int_eq(r.how, FP_FIX_SHORT);
	ck_assert_uint_eq(r.nr, 0);
	r = fix(M_ + 1, SP + 0x60, 16);
	TIED(r, 1);
	/* a big frame whose saved registers are past the copy */
	r = fix(V_ + 0x10, SP + 0x558, 512);
	ck_assert_int_eq(r.how, FP_FIX_SHORT);
}
END_TEST

/* a PLT stub's CFA is an expression of rip: +8 from its 11th byte */
START_TEST(test_plt)
{
	u64 bp = SP + 0x40;
	struct result r;

	put(SP, M_ + 0x50);
	r = fix(P_ + 6, bp, sizeof(stack));
	TIED(r, 1);
	ck_assert_uint_eq(r.out[0], M_ + 0x50);
	put(SP, 0x12345);	/* a pushed GOT index */
	put(SP + 8, M_ + 0x58);
	r = fix(P_ + 0xb, bp + 8, sizeof(stack));
	TIED(r, 1);
	ck_assert_uint_eq(r.out[0], M_ + 0x58);
}
END_TEST

/* no CFI (JIT code, assembly) or no map: the chain stays as it was */
START_TEST(test_no_cfi)
{
	struct result r;

	r = fix(JIT + 0x100, SP + 0x40, sizeof(stack));
	ck_assert_int_eq(r.how, FP_FIX_NO_CFI);
	r = fix(X_ + 0x10, SP + 0x40, sizeof(stack));
	ck_assert_int_eq(r.how, FP_FIX_NO_CFI);
	r = fix(0x100, SP + 0x40, sizeof(stack));
	ck_assert_int_eq(r.how, FP_FIX_NO_CFI);
	/* a leaf whose return address is in no executable map: never
	 * inserted */
	put(SP, 0x600000);
	r = fix(L_ + 0x50, SP + 0x40, sizeof(stack));
	ck_assert_int_eq(r.how, FP_FIX_NO_CFI);
	ck_assert_uint_eq(r.nr, 0);
	/* CFI still being read */
	unready = true;
	r = fix(L_ + 0x50, SP + 0x40, sizeof(stack));
	ck_assert_int_eq(r.how, FP_FIX_UNREADY);
}
END_TEST

/* the chain's first user entry must be the registers' ip */
START_TEST(test_no_ip)
{
	struct fpfix_regs regs = { .ip = L_ + 0x50, .sp = SP, .bp = SP + 0x40 };
	u64 user[2] = { L_ + 0x54, M_ }, out[4];
	size_t nr = 9;

	put(SP, M_ + 0x50);
	ck_assert_int_eq(fpfix__recover(&regs, user, 2, stack, sizeof(stack),
					row, NULL, out, 4, &nr),
			 FP_FIX_NO_IP);
	ck_assert_uint_eq(nr, 0);
	ck_assert_int_eq(fpfix__recover(&regs, user, 0, stack, sizeof(stack),
					row, NULL, out, 4, &nr),
			 FP_FIX_NO_IP);
	user[0] = L_ + 0x50;
	ck_assert_int_eq(fpfix__recover(&regs, user, 2, stack, sizeof(stack),
					row, NULL, out, 4, &nr),
			 FP_FIX_TIED);
	ck_assert_uint_eq(nr, 1);
	/* no room for the frames: refused, not cut */
	ck_assert_int_eq(fpfix__recover(&regs, user, 2, stack, sizeof(stack),
					row, NULL, out, 0, &nr),
			 FP_FIX_BAD);
}
END_TEST

/* a frameless handler: its caller is the trampoline (whose first byte
 * is the return address), then the interrupted function at its exact
 * pc, then that one's caller, whose frame the walk began at */
START_TEST(test_signal_frame)
{
	u64 sp_t = SP + 8, isp = SP + 0x400, bp = isp + 8 + 0x28;
	struct result r;

	put(SP, T_);
	put(sp_t + 160, isp);
	put(sp_t + 120, bp);
	put(sp_t + 168, L_);	/* interrupted at L's first byte */
	put(isp, M_ + 0x50);
	r = fix(L_ + 0x20, bp, sizeof(stack));
	TIED(r, 3);
	ck_assert_uint_eq(r.out[0], T_);
	ck_assert_uint_eq(r.out[1], L_);
	ck_assert_uint_eq(r.out[2], M_ + 0x50);
	/* the sigcontext past the copy */
	r = fix(L_ + 0x20, bp, 100);
	ck_assert_int_eq(r.how, FP_FIX_SHORT);
}
END_TEST

/* recursion repeats return addresses: all of them are inserted */
START_TEST(test_recursion)
{
	u64 bp = SP + 0x18 + 0x10;
	struct result r;

	put(SP, L_ + 0x20);
	put(SP + 8, L_ + 0x20);
	put(SP + 16, M_ + 0x50);
	r = fix(L_ + 0x50, bp, sizeof(stack));
	TIED(r, 3);
	ck_assert_uint_eq(r.out[0], L_ + 0x20);
	ck_assert_uint_eq(r.out[1], L_ + 0x20);
	ck_assert_uint_eq(r.out[2], M_ + 0x50);
}
END_TEST

/* garbage registers and stacks: no crash, and what is inserted lies in
 * the executable maps, at most max frames */
START_TEST(test_garbage)
{
	static const u64 bases[] = { L_, M_, G_, V_, W_, P_, T_, X_, JIT };
	u64 seed = 0x2545f4914f6cdd1dULL;

	for (int round = 0; round < 20000; round++) {
		struct fpfix_regs regs;
		u64 user[1], out[4];
		size_t nr, size;
		int how;

		for (size_t i = 0; i < sizeof(stack) / 8; i++) {
			u64 v;

			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			/* code addresses, stack addresses, anything */
			v = seed % 3 == 0 ? bases[seed % 9] + (seed >> 40) % 0x120 :
			    seed % 3 == 1 ? SP + (seed >> 32) % 0x900 : seed;
			memcpy(stack + i * 8, &v, 8);
		}
		regs.ip = bases[round % 9] + (u64)(round * 7) % 0x110;
		regs.sp = SP;
		regs.bp = round % 5 ? SP + (seed >> 20) % 0x900 : seed;
		user[0] = regs.ip;
		size = (size_t)(seed >> 50) % (sizeof(stack) + 1);
		how = fpfix__recover(&regs, user, 1, stack, size, row, NULL,
				     out, 4, &nr);
		ck_assert_int_ge(how, 0);
		ck_assert_int_lt(how, FP_FIX_NR);
		ck_assert_uint_le(nr, 4);
		if (how != FP_FIX_TIED)
			ck_assert_uint_eq(nr, 0);
		for (size_t i = 0; i < nr; i++)
			ck_assert((out[i] >= 0x400000 && out[i] < 0x410000) ||
				  (out[i] >= JIT && out[i] < JIT + 0x10000));
	}
}
END_TEST

Suite *fpfix_suite(void)
{
	Suite *s = suite_create("fpfix");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_leaf_body);
	tcase_add_test(tc, test_prologue);
	tcase_add_test(tc, test_epilogue);
	tcase_add_test(tc, test_frame_set_up);
	tcase_add_test(tc, test_go);
	tcase_add_test(tc, test_rbp_as_data);
	tcase_add_test(tc, test_short_copy);
	tcase_add_test(tc, test_plt);
	tcase_add_test(tc, test_no_cfi);
	tcase_add_test(tc, test_no_ip);
	tcase_add_test(tc, test_signal_frame);
	tcase_add_test(tc, test_recursion);
	tcase_add_test(tc, test_garbage);
	suite_add_tcase(s, tc);
	return s;
}
