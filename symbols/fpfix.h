/* fpfix: the callers a frame-pointer walk skipped, recovered by CFI from
 * the sample's registers and a small copy of its user stack (pure). */
#ifndef PTOP_FPFIX_H
#define PTOP_FPFIX_H

#include "src/core/session.h"
#include "symbols/ehframe.h"

/*
 * The kernel walks a user stack from rbp: it reports the sampled ip, then
 * [rbp + 8], then [[rbp] + 8]...  A function that has no frame of its own
 * there (a leaf, any of Debian's libc, a prologue or an epilogue) leaves
 * rbp to its caller, so the walk begins at the caller's frame and the
 * function's caller (and the callers of a chain of such functions) is
 * skipped.  The rule: unwind by CFI from (ip, sp, bp) through the copy
 * until a frame's CFA equals bp + 16 (the frame whose saved rbp and
 * return address the walk read first), and put the return addresses of
 * the frames below it after the chain's first user entry, which must be
 * the registers' ip.  Frame 0 matching (the function has its frame set
 * up, Go's CFA stated from rsp at rbp + 16 included) inserts nothing.
 * A save slot of rbp below the frame's own sp was popped already (GCC's
 * epilogue leaves the rule at cfa - 16 after "leave"): rbp holds it.
 * Nothing is ever inserted when no frame matches within the copy, when
 * the CFA passes bp + 16 without equality (rbp is data: glibc's
 * __vfprintf_internal), or when rbp as unwound to the matching frame is
 * not the sample's (a frame below saved and reused it): the chain stays
 * as the kernel gave it.  Return addresses are never compared (a
 * recursion repeats them legitimately).
 *
 * row(ctx, pc, ret, &row) gives the CFI row at pc, looked up at pc - 1
 * when ret (a return address: the call is before it), after checking
 * that pc lies in an executable map of the process: 0, -ENOENT (no map,
 * no CFI: JIT code, hand-written assembly), -EAGAIN (not loaded yet).
 */
#define FPFIX_MAX_FRAMES 32

struct fpfix_regs {
	u64 ip, sp, bp;
};

typedef int (*fpfix_row_fn)(void *ctx, u64 pc, bool ret,
			    struct ehframe_row *row);

/* ip, sp and bp from a sample's user registers (x86-64's ABI only):
 * 0, or -EINVAL when one is missing. */
int fpfix__regs(u64 abi, u64 mask, const u64 *regs, u32 nr,
		struct fpfix_regs *out);

/*
 * user: the chain's user part (the kernel's, leaf first: user[0] the
 * sampled or syscall-entry ip), nr_user entries.  stack: the copy of
 * [sp, sp + size).  out receives the return addresses to insert after
 * user[0] (at most max), *nr how many.  Returns an enum fp_fix.
 */
int fpfix__recover(const struct fpfix_regs *regs, const u64 *user,
		   size_t nr_user, const u8 *stack, size_t size,
		   fpfix_row_fn row, void *ctx, u64 *out, size_t max,
		   size_t *nr);

#endif
