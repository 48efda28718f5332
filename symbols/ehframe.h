/* ehframe: bounds-checked .eh_frame and .debug_frame reader: function
 * ranges and the CFA rules at a pc (pure). */
#ifndef PTOP_EHFRAME_H
#define PTOP_EHFRAME_H

#include "src/core/util.h"

/*
 * The .eh_frame of a stripped binary still bounds every function that
 * can unwind: each FDE covers [initial_location, + address_range).  Its
 * call frame instructions say, for every pc of the range, where the
 * caller's frame is (the CFA) and where the caller's registers were
 * saved.  Everything is checked against the section: lengths, CIE
 * pointers, encodings, instruction operands and expression stacks, so
 * hostile data ends a walk or a lookup, never the process.
 */
struct ehframe_src {
	const u8 *data;
	size_t size;
	u64 vaddr;		/* address of data[0], for pcrel */
	u8 addr_size;		/* 4 or 8 (ELFCLASS), for absptr */
	bool swap;		/* file byte order differs from the host's */
};

/* Called for each FDE with a plausible range; non-zero stops the walk. */
typedef int (*ehframe_fn)(u64 start, u64 end, void *ctx);

/* Returns how many FDEs were reported (the walk stops quietly at the
 * first malformed entry), or -EINVAL if src itself is unusable. */
long ehframe__for_each_fde(const struct ehframe_src *src, ehframe_fn fn,
			   void *ctx);

/* Reads .eh_frame_hdr (hdr, size, at address hdr_vaddr) for the address
 * of .eh_frame: 0 or -EINVAL. */
int ehframe__hdr_target(const u8 *hdr, size_t size, u64 hdr_vaddr,
			u8 addr_size, bool swap, u64 *eh_frame_vaddr);

/*
 * CFA rules.  A table indexes the FDEs of one section (.eh_frame, or
 * .debug_frame: CIE ids of all ones, CIE pointers from the section's
 * start, absolute addresses; Go's binaries have only that) by address;
 * ehframe__row runs the CIE's and the FDE's instructions up to a pc and
 * gives the rules of the CFA, of the return address column and of one
 * more register (x86-64's rbp, DWARF 6: whether a frame saved it, where),
 * which is all that frame-pointer chains need.  Expressions point into
 * the section's bytes: a row lives no longer than its table's src.
 *
 * Usage:
 *	ehframe__table_init(&t, &src, debug_frame);	(t.nr FDEs)
 *	ehframe__row(&t, pc, &row);	0, -ENOENT (no FDE covers pc),
 *					-EINVAL (malformed), -EOPNOTSUPP
 *	ehframe__table_fini(&t);
 */
#define EHFRAME_REG_BP 6
#define EHFRAME_REG_SP 7
#define EHFRAME_REG_RA 16	/* x86-64's return address column */
#define EHFRAME_NR_REGS 17

enum ehframe_how {
	EH_UNDEF,	/* not recoverable (or the CFA: none) */
	EH_SAME,	/* unchanged by the frame */
	EH_AT,		/* saved at CFA + off */
	EH_VAL,		/* is CFA + off */
	EH_REG,		/* is register reg (the CFA: reg + off) */
	EH_AT_EXPR,	/* saved at what expr computes, the CFA pushed */
	EH_VAL_EXPR,	/* is what expr computes (the CFA: without push) */
};

struct ehframe_rule {
	u8 how;		/* enum ehframe_how */
	u8 reg;
	s64 off;
	const u8 *expr;	/* into the section */
	u32 expr_len;
};

struct ehframe_row {
	struct ehframe_rule cfa;	/* EH_REG (reg + off) or EH_VAL_EXPR */
	struct ehframe_rule ra;		/* the CIE's return address column */
	struct ehframe_rule bp;		/* DWARF register 6 */
	u64 start, end;			/* the pcs the row holds for */
	bool signal;			/* a signal frame ('S'): its caller's
					 * pc is exact, not a return address */
};

struct ehframe_fde {
	u64 start;
	u32 len;	/* of the range */
	u32 off;	/* of the FDE in the section */
};

struct ehframe_table {
	struct ehframe_src src;
	bool debug_frame;
	struct ehframe_fde *fdes;	/* by start; NULL with hdr */
	size_t nr;			/* FDEs */
	/* .eh_frame_hdr's search table (pairs of datarel sdata4: initial
	 * location, FDE address), when it is usable: nothing to build */
	const u8 *hdr;
	u64 hdr_vaddr;
};

/* 0, -EINVAL (unusable src), -E2BIG (a section over 4 GiB) or -ENOMEM;
 * an FDE that does not parse is left out. */
int ehframe__table_init(struct ehframe_table *t, const struct ehframe_src *src,
			bool debug_frame);
/* The same for .eh_frame with its .eh_frame_hdr (hdr, size, at
 * hdr_vaddr): its binary search table is used as it is (a big binary's
 * index costs nothing to build) when it is sorted and points into src,
 * else the FDEs are walked as ehframe__table_init does.  hdr must live
 * as long as the table. */
int ehframe__table_init_hdr(struct ehframe_table *t,
			    const struct ehframe_src *src, const u8 *hdr,
			    size_t size, u64 hdr_vaddr);
void ehframe__table_fini(struct ehframe_table *t);
/* The FDE covering pc: 0, or -ENOENT. */
int ehframe__find(const struct ehframe_table *t, u64 pc,
		  struct ehframe_fde *fde);
int ehframe__row(const struct ehframe_table *t, u64 pc, struct ehframe_row *row);

/*
 * The DWARF expressions of CFI (a stack machine: constants, arithmetic,
 * comparisons, branches, breg of the known registers, deref through rd),
 * bounded: 64 values deep, 1000 operations.  push: a value pushed first
 * (the CFA, for register rules), or none.  0 with *out, -EINVAL (bad or
 * unsupported operation, an unknown register, a read that fails).
 */
struct ehframe_regs {
	u64 v[EHFRAME_NR_REGS];
	u32 known;		/* a bit per register */
};
typedef bool (*ehframe_read_fn)(void *ctx, u64 addr, u64 *val);
int ehframe__expr(const u8 *expr, size_t len, u8 addr_size,
		  const struct ehframe_regs *regs, const u64 *push,
		  ehframe_read_fn rd, void *ctx, u64 *out);

#endif
