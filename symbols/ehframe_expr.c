/* ehframe_expr: the DWARF expressions of CFI (see ehframe.h): a bounded
 * stack machine over a bounds-checked cursor (pure). */
#include <errno.h>

#include "symbols/ehframe.h"
#include "symbols/ehframe_internal.h"

#define EXPR_STACK 64
#define EXPR_STEPS 1000

/* DW_OP_* (DWARF 5, 2.5) */
#define OP_addr 0x03
#define OP_deref 0x06
#define OP_const1u 0x08
#define OP_const1s 0x09
#define OP_const2u 0x0a
#define OP_const2s 0x0b
#define OP_const4u 0x0c
#define OP_const4s 0x0d
#define OP_const8u 0x0e
#define OP_const8s 0x0f
#define OP_constu 0x10
#define OP_consts 0x11
#define OP_dup 0x12
#define OP_drop 0x13
#define OP_over 0x14
#define OP_pick 0x15
#define OP_swap 0x16
#define OP_rot 0x17
#define OP_abs 0x19
#define OP_and 0x1a
#define OP_div 0x1b
#define OP_minus 0x1c
#define OP_mod 0x1d
#define OP_mul 0x1e
#define OP_neg 0x1f
#define OP_not 0x20
#define OP_or 0x21
#define OP_plus 0x22
#define OP_plus_uconst 0x23
#define OP_shl 0x24
#define OP_shr 0x25
#define OP_shra 0x26
#define OP_xor 0x27
#define OP_bra 0x28
#define OP_eq 0x29
#define OP_ge 0x2a
#define OP_gt 0x2b
#define OP_le 0x2c
#define OP_lt 0x2d
#define OP_ne 0x2e
#define OP_skip 0x2f
#define OP_lit0 0x30
#define OP_lit31 0x4f
#define OP_breg0 0x70
#define OP_breg31 0x8f
#define OP_bregx 0x92
#define OP_deref_size 0x94
#define OP_nop 0x96

static bool reg_value(const struct ehframe_regs *regs, u64 reg, u64 *v)
{
	if (!regs || reg >= EHFRAME_NR_REGS || !(regs->known & (1u << reg)))
		return false;
	*v = regs->v[reg];
	return true;
}

int ehframe__expr(const u8 *expr, size_t len, u8 addr_size,
		  const struct ehframe_regs *regs, const u64 *push,
		  ehframe_read_fn rd, void *ctx, u64 *out)
{
	struct cur c = {
		.data = expr, .end = len, .addr_size = addr_size,
	};
	u64 st[EXPR_STACK];
	unsigned int sp = 0, steps = 0;

#define NEED(n)                        \
	do {                           \
		if (sp < (n))          \
			return -EINVAL; \
	} while (0)
#define PUSH(v)                           \
	do {                              \
		u64 v_ = (v);             \
		if (sp >= EXPR_STACK)     \
			return -EINVAL;   \
		st[sp++] = v_;            \
	} while (0)

	if (!expr || (addr_size != 4 && addr_size != 8))
		return -EINVAL;
	if (push)
		PUSH(*push);
	while (c.off < c.end) {
		u8 op = (u8)cur__uint(&c, 1);
		u64 a, b, v;
		s64 off;

		if (++steps > EXPR_STEPS)
			return -EINVAL;
		if (op >= OP_lit0 && op <= OP_lit31) {
			PUSH((u64)(op - OP_lit0));
			continue;
		}
		if (op >= OP_breg0 && op <= OP_breg31) {
			off = (s64)cur__leb(&c, true);
			if (c.bad || !reg_value(regs, op - OP_breg0, &v))
				return -EINVAL;
			PUSH(v + (u64)off);
			continue;
		}
		switch (op) {
		case OP_addr:
			PUSH(cur__uint(&c, addr_size));
			break;
		case OP_deref:
		case OP_deref_size:
			NEED(1);
			a = op == OP_deref_size ? cur__uint(&c, 1) : 8;
			if (c.bad || !a || a > 8 || !rd ||
			    !rd(ctx, st[sp - 1], &v))
				return -EINVAL;
			if (a < 8)
				v &= (1ULL << (a * 8)) - 1;
			st[sp - 1] = v;
			break;
		case OP_const1u:
			PUSH(cur__uint(&c, 1));
			break;
		case OP_const1s:
			PUSH((u64)sext(cur__uint(&c, 1), 1));
			break;
		case OP_const2u:
			PUSH(cur__uint(&c, 2));
			break;
		case OP_const2s:
			PUSH((u64)sext(cur__uint(&c, 2), 2));
			break;
		case OP_const4u:
			PUSH(cur__uint(&c, 4));
			break;
		case OP_const4s:
			PUSH((u64)sext(cur__uint(&c, 4), 4));
			break;
		case OP_const8u:
		case OP_const8s:
			PUSH(cur__uint(&c, 8));
			break;
		case OP_constu:
			PUSH(cur__leb(&c, false));
			break;
		case OP_consts:
			PUSH(cur__leb(&c, true));
			break;
		case OP_dup:
			NEED(1);
			PUSH(st[sp - 1]);
			break;
		case OP_drop:
			NEED(1);
			sp--;
			break;
		case OP_over:
			NEED(2);
			PUSH(st[sp - 2]);
			break;
		case OP_pick:
			a = cur__uint(&c, 1);
			NEED(a + 1);
			PUSH(st[sp - 1 - a]);
			break;
		case OP_swap:
			NEED(2);
			v = st[sp - 1];
			st[sp - 1] = st[sp - 2];
			st[sp - 2] = v;
			break;
		case OP_rot:
			NEED(3);
			v = st[sp - 1];
			st[sp - 1] = st[sp - 2];
			st[sp - 2] = st[sp - 3];
			st[sp - 3] = v;
			break;
		case OP_abs:
			NEED(1);
			if ((s64)st[sp - 1] < 0)
				st[sp - 1] = -st[sp - 1];
			break;
		case OP_neg:
			NEED(1);
			st[sp - 1] = -st[sp - 1];
			break;
		case OP_not:
			NEED(1);
			st[sp - 1] = ~st[sp - 1];
			break;
		case OP_plus_uconst:
			NEED(1);
			st[sp - 1] += cur__leb(&c, false);
			break;
		case OP_and:
		case OP_div:
		case OP_minus:
		case OP_mod:
		case OP_mul:
		case OP_or:
		case OP_plus:
		case OP_shl:
		case OP_shr:
		case OP_shra:
		case OP_xor:
		case OP_eq:
		case OP_ge:
		case OP_gt:
		case OP_le:
		case OP_lt:
		case OP_ne:
			NEED(2);
			b = st[--sp];
			a = st[sp - 1];
			switch (op) {
			case OP_and: v = a & b; break;
			case OP_div:
				if (!b || ((s64)a == INT64_MIN && (s64)b == -1))
					return -EINVAL;
				v = (u64)((s64)a / (s64)b);
				break;
			case OP_minus: v = a - b; break;
			case OP_mod:
				if (!b)
					return -EINVAL;
				v = a % b;
				break;
			case OP_mul: v = a * b; break;
			case OP_or: v = a | b; break;
			case OP_plus: v = a + b; break;
			case OP_shl: v = b >= 64 ? 0 : a << b; break;
			case OP_shr: v = b >= 64 ? 0 : a >> b; break;
			case OP_shra:
				v = (u64)((s64)a >> (b >= 63 ? 63 : b));
				break;
			case OP_xor: v = a ^ b; break;
			/* comparisons are signed (DWARF 5, 2.5.1.4) */
			case OP_eq: v = a == b; break;
			case OP_ge: v = (s64)a >= (s64)b; break;
			case OP_gt: v = (s64)a > (s64)b; break;
			case OP_le: v = (s64)a <= (s64)b; break;
			case OP_lt: v = (s64)a < (s64)b; break;
			default: v = a != b; break;
			}
			st[sp - 1] = v;
			break;
		case OP_skip:
		case OP_bra:
			off = sext(cur__uint(&c, 2), 2);
			if (op == OP_bra) {
				NEED(1);
				if (!st[--sp])
					break;
			}
			/* from the end of this operation, within the
			 * expression */
			if ((off < 0 && (u64)-off > c.off) ||
			    (off > 0 && (u64)off > c.end - c.off))
				return -EINVAL;
			c.off = (size_t)((s64)c.off + off);
			break;
		case OP_bregx:
			a = cur__leb(&c, false);
			off = (s64)cur__leb(&c, true);
			if (c.bad || !reg_value(regs, a, &v))
				return -EINVAL;
			PUSH(v + (u64)off);
			break;
		case OP_nop:
			break;
		default:
			return -EINVAL;
		}
		if (c.bad)
			return -EINVAL;
	}
	if (!sp)
		return -EINVAL;
	*out = st[sp - 1];
	return 0;
#undef NEED
#undef PUSH
}
