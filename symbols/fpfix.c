/* fpfix: the callers a frame-pointer walk skipped (see fpfix.h). */
#include <errno.h>
#include <string.h>

#include "symbols/fpfix.h"

/* The stack copy: [sp, sp + size). */
struct copy {
	const u8 *stack;
	u64 sp;
	size_t size;
	bool short_read;	/* a read past its end */
};

static bool copy__read(void *ctx, u64 addr, u64 *val)
{
	struct copy *c = ctx;

	if (c->size < 8 || addr < c->sp || addr - c->sp > c->size - 8) {
		/* past the end is a short copy; below sp, a bad rule */
		if (addr >= c->sp)
			c->short_read = true;
		return false;
	}
	memcpy(val, c->stack + (addr - c->sp), 8);
	return true;
}

/* The registers of one frame. */
struct frame {
	u64 pc, sp, bp;
	bool bp_known;
};

static void frame_regs(const struct frame *f, struct ehframe_regs *r)
{
	memset(r, 0, sizeof(*r));
	r->v[EHFRAME_REG_SP] = f->sp;
	r->v[EHFRAME_REG_RA] = f->pc;
	r->known = 1u << EHFRAME_REG_SP | 1u << EHFRAME_REG_RA;
	if (f->bp_known) {
		r->v[EHFRAME_REG_BP] = f->bp;
		r->known |= 1u << EHFRAME_REG_BP;
	}
}

/* A failed read or expression: short copy or bad rule. */
static int fail(const struct copy *c)
{
	return c->short_read ? FP_FIX_SHORT : FP_FIX_BAD;
}

static int frame_cfa(const struct frame *f, const struct ehframe_row *row,
		     struct copy *c, u64 *cfa)
{
	struct ehframe_regs regs;

	if (row->cfa.how == EH_REG) {
		if (row->cfa.reg == EHFRAME_REG_SP)
			*cfa = f->sp + (u64)row->cfa.off;
		else if (row->cfa.reg == EHFRAME_REG_BP && f->bp_known)
			*cfa = f->bp + (u64)row->cfa.off;
		else
			return FP_FIX_BAD;	/* a register not sampled */
		return FP_FIX_TIED;
	}
	frame_regs(f, &regs);
	if (ehframe__expr(row->cfa.expr, row->cfa.expr_len, 8, &regs, NULL,
			  copy__read, c, cfa))
		return fail(c);
	return FP_FIX_TIED;
}

/*
 * A register of the caller by rule r (cfa: this frame's): 1 with *v, 0
 * when it cannot be known (undefined, a register not sampled), or
 * -FP_FIX_* for a failed read.
 */
static int caller_reg(const struct frame *f, const struct ehframe_rule *r,
		      u64 cfa, u64 same, bool same_known, struct copy *c,
		      u64 *v)
{
	struct ehframe_regs regs;
	u64 addr;

	switch (r->how) {
	case EH_SAME:
		*v = same;
		return same_known;
	case EH_AT:
		/* below the frame's sp: popped already, into the register
		 * (GCC's epilogue, "leave; .cfi_def_cfa 7, 8", leaves rbp's
		 * rule at cfa - 16): it holds the saved value */
		if (cfa + (u64)r->off < f->sp) {
			*v = same;
			return same_known;
		}
		if (!copy__read(c, cfa + (u64)r->off, v))
			return -fail(c);
		return 1;
	case EH_VAL:
		*v = cfa + (u64)r->off;
		return 1;
	case EH_REG:
		if (r->reg == EHFRAME_REG_SP) {
			*v = f->sp;
			return 1;
		}
		if (r->reg == EHFRAME_REG_BP && f->bp_known) {
			*v = f->bp;
			return 1;
		}
		return 0;
	case EH_AT_EXPR:
	case EH_VAL_EXPR:
		frame_regs(f, &regs);
		if (ehframe__expr(r->expr, r->expr_len, 8, &regs, &cfa,
				  copy__read, c, &addr))
			return -fail(c);
		if (r->how == EH_VAL_EXPR) {
			*v = addr;
			return 1;
		}
		if (!copy__read(c, addr, v))
			return -fail(c);
		return 1;
	default:
		return 0;
	}
}

/* perf's x86-64 user registers (PERF_REG_X86_BP, _SP, _IP: the bit
 * numbers of attr.sample_regs_user; one value per bit set, in order) */
#define REG_BP 6
#define REG_SP 7
#define REG_IP 8

static bool reg_at(u64 mask, const u64 *regs, u32 nr, unsigned int bit,
		   u64 *v)
{
	u32 idx;

	if (!(mask & (1ULL << bit)))
		return false;
	idx = (u32)__builtin_popcountll(mask & ((1ULL << bit) - 1));
	if (idx >= nr)
		return false;
	*v = regs[idx];
	return true;
}

int fpfix__regs(u64 abi, u64 mask, const u64 *regs, u32 nr,
		struct fpfix_regs *out)
{
	if (abi != PERF_SAMPLE_REGS_ABI_64 || !regs ||
	    !reg_at(mask, regs, nr, REG_IP, &out->ip) ||
	    !reg_at(mask, regs, nr, REG_SP, &out->sp) ||
	    !reg_at(mask, regs, nr, REG_BP, &out->bp))
		return -EINVAL;
	return 0;
}

int fpfix__recover(const struct fpfix_regs *regs, const u64 *user,
		   size_t nr_user, const u8 *stack, size_t size,
		   fpfix_row_fn row_fn, void *ctx, u64 *out, size_t max,
		   size_t *nr)
{
	struct copy c = { .stack = stack, .sp = regs->sp, .size = size };
	struct frame f = {
		.pc = regs->ip, .sp = regs->sp, .bp = regs->bp,
		.bp_known = true,
	};
	u64 target = regs->bp + 16;
	bool exact = true;	/* the sampled pc, or after a signal frame */

	*nr = 0;
	if (!nr_user || user[0] != regs->ip)
		return FP_FIX_NO_IP;
	if (!stack)
		c.size = 0;
	/* the kernel's walk began at no frame: nothing can tie to it */
	if (target < regs->bp)
		return FP_FIX_NO_MATCH;
	for (size_t depth = 0; depth < FPFIX_MAX_FRAMES; depth++) {
		struct ehframe_row row;
		u64 cfa, ra, bp;
		int err, got;

		err = row_fn(ctx, f.pc, !exact, &row);
		if (err == -EAGAIN)
			return FP_FIX_UNREADY;
		if (err)
			return FP_FIX_NO_CFI;
		err = frame_cfa(&f, &row, &c, &cfa);
		if (err != FP_FIX_TIED)
			return err;
		/* callers' frames are above: anything else is garbage and
		 * ends a cycle */
		if (cfa <= f.sp)
			return FP_FIX_BAD;
		if (cfa == target) {
			/* the walk began here only if no frame below put
			 * another value in rbp */
			if (!f.bp_known || f.bp != regs->bp)
				return FP_FIX_RBP;
			*nr = depth;
			return FP_FIX_TIED;
		}
		if (cfa > target)
			return FP_FIX_NO_MATCH;
		got = caller_reg(&f, &row.ra, cfa, 0, false, &c, &ra);
		if (got < 0)
			return -got;
		/* the outermost frame, and no match: rbp was no frame
		 * pointer of this stack */
		if (!got || !ra)
			return FP_FIX_NO_MATCH;
		got = caller_reg(&f, &row.bp, cfa, f.bp, f.bp_known, &c, &bp);
		if (got < 0)
			return -got;
		if (depth >= max)
			return FP_FIX_BAD;
		out[depth] = ra;
		f.pc = ra;
		f.sp = cfa;
		f.bp = bp;
		f.bp_known = got == 1;
		/* a signal frame's caller was interrupted at ra itself */
		exact = row.signal;
	}
	return FP_FIX_BAD;
}
