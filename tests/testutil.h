/* testutil: helpers for the Check suites (fixtures, fake records, a
 * fake inline lookup). */
#ifndef PTOP_TESTUTIL_H
#define PTOP_TESTUTIL_H

#include <check.h>
#include <sys/types.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>

#include "src/core/util.h"

/* Every suite's constructor (the list is generated from the file names). */
#define SUITE(n) Suite *n##_suite(void);
#include "suites.inc"
#undef SUITE

/*
 * Skips the running test, by name and with a reason, then returns from it:
 *	if (geteuid() != 0)
 *		test_skip("needs root (map_files needs CAP_SYS_ADMIN)");
 * Only for a capability the machine lacks (not root, no PMU, a sysctl);
 * a missing tool or file that the Makefile or scripts/install-deps.sh
 * provides is a failure.  Check counts the test as passed: the runner
 * (tests/main.c) reads the skips back from the file $PTOP_SKIPS (the
 * tests run in forked children) and reports them as skipped, by name.
 */
void test__skip(const char *file, const char *func, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define test_skip(...)                                        \
	do {                                                  \
		test__skip(__FILE__, __func__, __VA_ARGS__);  \
		return;                                       \
	} while (0)

/* Counts the warnings (and errors) libraries log, keeping the last one:
 * test_log_capture() in a fixture's setup, log__set_handler(NULL, NULL)
 * in its teardown. */
extern int test_warnings;
extern char test_last_warning[1024];
void test_log_capture(void);

/* The pid of a child that has exited and been reaped: no such process
 * (until the kernel hands the number out again). */
pid_t test_dead_pid(void);

/* Path of a fixture built by the Makefile ($PTOP_FIXTURES/name); the
 * returned buffer is static. */
const char *test_fixture(const char *name);

/* Two symbol hits are the same symbol: start, size, flags, group, name
 * (and the raw name when both have one). */
struct symtab_hit;
void test_same_hit(const struct symtab_hit *a, const struct symtab_hit *b);

/* Builds records into buf (8-byte aligned, at least 64 KiB); returns the
 * header.  Fields absent from sample_type are skipped. */
struct fake_sample {
	u64 id, ip, time, period;
	u32 pid, tid, cpu;
	u16 misc;
	u64 nr_callchain;
	const u64 *callchain;
	const void *raw;	/* PERF_SAMPLE_RAW: raw_size bytes, padded
				 * with zeros to the next 8 with its size */
	u32 raw_size;
	u64 regs_abi;		/* PERF_SAMPLE_REGS_USER: 0, no registers */
	const u64 *regs;
	u32 nr_regs;
	const void *stack;	/* PERF_SAMPLE_STACK_USER: stack_size bytes
				 * asked (a multiple of 8), stack_dyn of them
				 * copied from stack */
	u64 stack_size, stack_dyn;
};

struct perf_event_header *fake_sample(void *buf, u64 sample_type,
				      const struct fake_sample *fs);
struct perf_event_header *fake_mmap2(void *buf, u32 pid, u64 start, u64 len,
				     u64 pgoff, const char *path,
				     const u8 *build_id, u8 bid_size,
				     size_t trailer);
struct perf_event_header *fake_comm(void *buf, u32 pid, u32 tid,
				    const char *comm, bool exec,
				    size_t trailer);
struct perf_event_header *fake_fork(void *buf, u32 type, u32 pid, u32 ppid,
				    u32 tid, u32 ptid, size_t trailer);

/*
 * A cg_inline_fn for the call-graph suites, whose functions are 0x100
 * bytes each from offset 0x1000 (main, outer, inner_a, ...): outer's
 * calls (0x1100-0x11ff) are in an inlined "helper", and inner_a's
 * sampled ip (0x1240) is in "leaf_inl" inlined into "mid_inl" inlined
 * into inner_a.  ctx: an int that counts the calls, or NULL.
 */
struct dso;
size_t fake_inlines(void *ctx, const struct dso *d, u64 addr,
		    const char **names, size_t max);

/*
 * .eh_frame images for the CFI suites (ehframe, fpfix), at vaddr
 * CFI_VADDR: bytes, a CIE for rows ("zR" or "zRS": pcrel sdata4, code
 * alignment 1, data -8, ra 16, the psABI's initial CFA rsp + 8 and ra
 * at cfa - 8) and an FDE of [start, start + range) with instructions.
 * End the section with cfi__put32(s, 0).
 */
#define CFI_VADDR 0x10000
struct cfi_sec {
	u8 buf[8192];
	size_t len;
};
void cfi__put(struct cfi_sec *s, const void *p, size_t n);
void cfi__put32(struct cfi_sec *s, u32 v);
void cfi__put8(struct cfi_sec *s, u8 v);
/* DW_CFA_nop up to a multiple of align from start */
void cfi__pad(struct cfi_sec *s, size_t start, size_t align);
size_t cfi__cie(struct cfi_sec *s, const char *aug);
size_t cfi__fde(struct cfi_sec *s, size_t cie, u64 start, u64 range,
		const u8 *insn, size_t n);
struct ehframe_src;
struct ehframe_src cfi__src(const struct cfi_sec *s);
#endif
