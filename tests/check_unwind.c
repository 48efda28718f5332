/* Tests of DWARF unwinding: a real stack image captured in this process
 * (functions without frame pointers), the session's deferral and its
 * counters, the queue and its drops, caches, and garbage registers and
 * stacks. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/core/callchain.h"
#include "src/core/record.h"
#include "src/core/session.h"
#include "symbols/symbolizer.h"
#include "src/sys/synth.h"
#include "tests/testutil.h"
#include "symbols/unwind.h"

#if defined(__x86_64__)
#include <asm/perf_regs.h>

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | \
	    PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)
/* evsel's mask: every register but ds, es, fs and gs */
#define REGS_MASK (((1ULL << PERF_REG_X86_64_MAX) - 1) & \
		   ~((1ULL << PERF_REG_X86_DS) | (1ULL << PERF_REG_X86_ES) | \
		     (1ULL << PERF_REG_X86_FS) | (1ULL << PERF_REG_X86_GS)))
#define STACK_MAX 8192

/* What the kernel would have sampled at the capture point. */
struct capture {
	u64 regs[PERF_REG_X86_64_MAX];	/* by PERF_REG_X86_* */
	u8 stack[STACK_MAX];
	u64 stack_size;
	u64 ra[3];	/* return addresses into uw_mid, uw_outer, the test */
};

/*
 * Saves the caller's registers in perf's order, as an interrupt would
 * find them just after this call returns: ip is the return address (in
 * the caller), sp the caller's sp.  Like perf's perf_regs_load.
 */
void uw_regs_load(u64 *regs);
__asm__(".text\n"
	".globl uw_regs_load\n"
	".type uw_regs_load, @function\n"
	"uw_regs_load:\n"
	"\tmovq %rax, 0(%rdi)\n"
	"\tmovq %rbx, 8(%rdi)\n"
	"\tmovq %rcx, 16(%rdi)\n"
	"\tmovq %rdx, 24(%rdi)\n"
	"\tmovq %rsi, 32(%rdi)\n"
	"\tmovq %rdi, 40(%rdi)\n"
	"\tmovq %rbp, 48(%rdi)\n"
	"\tleaq 8(%rsp), %rax\n"
	"\tmovq %rax, 56(%rdi)\n"
	"\tmovq 0(%rsp), %rax\n"
	"\tmovq %rax, 64(%rdi)\n"
	"\tmovq $0, 72(%rdi)\n"
	"\tmovq $0, 80(%rdi)\n"
	"\tmovq $0, 88(%rdi)\n"
	"\tmovq $0, 96(%rdi)\n"
	"\tmovq $0, 104(%rdi)\n"
	"\tmovq $0, 112(%rdi)\n"
	"\tmovq $0, 120(%rdi)\n"
	"\tmovq %r8, 128(%rdi)\n"
	"\tmovq %r9, 136(%rdi)\n"
	"\tmovq %r10, 144(%rdi)\n"
	"\tmovq %r11, 152(%rdi)\n"
	"\tmovq %r12, 160(%rdi)\n"
	"\tmovq %r13, 168(%rdi)\n"
	"\tmovq %r14, 176(%rdi)\n"
	"\tmovq %r15, 184(%rdi)\n"
	"\tmovq 0(%rdi), %rax\n"
	"\tret\n"
	".size uw_regs_load, .-uw_regs_load\n");

/* No frame pointers, no clones, no inlining: the chain must come from
 * CFI alone, under the names the symbol table gives. */
#if defined(__clang__)
#define NOFP __attribute__((noinline))
#else
#define NOFP __attribute__((noipa, optimize("omit-frame-pointer")))
#endif

/* The stack as the kernel copies it: ASan's redzones included (volatile:
 * no memcpy, which ASan intercepts). */
__attribute__((no_sanitize_address)) static void
copy_stack(u8 *dst, u64 sp, u64 size)
{
	const volatile u64 *src = (const volatile u64 *)sp;

	for (u64 i = 0; i < size / 8; i++)
		memcpy(dst + 8 * i, (const void *)&(u64){ src[i] }, 8);
}

int uw_leaf(struct capture *cap);
int uw_mid(struct capture *cap);
int uw_outer(struct capture *cap);

NOFP int uw_leaf(struct capture *cap)
{
	pthread_attr_t at;
	void *lo = NULL;
	size_t size = 0;
	u64 sp, top;

	uw_regs_load(cap->regs);
	cap->ra[0] = (u64)__builtin_return_address(0);
	sp = cap->regs[PERF_REG_X86_SP];
	/* up to the top of this thread's stack, never past it */
	top = sp + STACK_MAX;
	if (!pthread_getattr_np(pthread_self(), &at)) {
		if (!pthread_attr_getstack(&at, &lo, &size) &&
		    (u64)lo + size < top)
			top = (u64)lo + size;
		pthread_attr_destroy(&at);
	}
	cap->stack_size = top - sp;
	copy_stack(cap->stack, sp, cap->stack_size);
	return (int)cap->stack_size & 1;
}

NOFP int uw_mid(struct capture *cap)
{
	cap->ra[1] = (u64)__builtin_return_address(0);
	return uw_leaf(cap) + 1;
}

NOFP int uw_outer(struct capture *cap)
{
	cap->ra[2] = (u64)__builtin_return_address(0);
	return uw_mid(cap) + 1;
}

static u64 buf[16384];
static struct capture cap;
static struct session *s;
static struct unwinder *uw;

static int feed(void *ctx, const struct perf_event_header *h)
{
	session__process(ctx, h);
	return 0;
}

static struct perf_event_attr test_attr(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sample_type = ST;
	a.sample_id_all = 1;
	a.sample_regs_user = REGS_MASK;
	a.sample_stack_user = STACK_MAX;
	return a;
}

/* A session that knows this process (as /proc says), one event. */
static void setup(void)
{
	struct session_opts o = { .key_fields = KEY_PID };
	struct perf_event_attr a = test_attr();

	s = session__new(&o);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(session__add_event(s, "cycles", &a), 0);
	ck_assert_int_eq(synth__processes("/proc", getpid(), &a, feed, s), 0);
	uw = NULL;
}

static void teardown(void)
{
	unwind__free(uw);
	session__free(s);
}

/* A sample record of the capture: user mode, pid given, the kernel's
 * part of the chain (kn entries, markers included) first. */
static struct perf_event_header *cap_sample(const struct capture *c, u32 pid,
					    const u64 *kchain, u64 kn,
					    u16 misc)
{
	struct perf_event_header *h = (struct perf_event_header *)buf;
	u64 *p = (u64 *)(h + 1);
	u32 w[2];

	*p++ = c->regs[PERF_REG_X86_IP];		/* IP */
	w[0] = w[1] = pid;				/* TID */
	memcpy(p++, w, 8);
	*p++ = 1000;					/* TIME */
	w[0] = 1;					/* CPU */
	w[1] = 0;
	memcpy(p++, w, 8);
	*p++ = 1;					/* PERIOD */
	*p++ = kn;					/* CALLCHAIN */
	for (u64 i = 0; i < kn; i++)
		*p++ = kchain[i];
	*p++ = PERF_SAMPLE_REGS_ABI_64;			/* REGS_USER */
	for (int r = 0; r < PERF_REG_X86_64_MAX; r++)
		if (REGS_MASK & (1ULL << r))
			*p++ = c->regs[r];
	*p++ = STACK_MAX;				/* STACK_USER */
	memcpy(p, c->stack, c->stack_size);
	memset((u8 *)p + c->stack_size, 0, STACK_MAX - c->stack_size);
	p += STACK_MAX / 8;
	*p++ = c->stack_size;				/* dyn_size */
	h->type = PERF_RECORD_SAMPLE;
	h->misc = misc;
	h->size = (u16)((u8 *)p - (u8 *)h);
	return h;
}

static void capture(void)
{
	memset(&cap, 0, sizeof(cap));
	uw_outer(&cap);
	ck_assert_uint_ge(cap.stack_size, 256);
}

/* The request the session would make of the capture. */
static struct unwind_req cap_req(u32 pid)
{
	static u64 regs[PERF_REG_X86_64_MAX];
	struct unwind_req r;
	u32 n = 0;

	for (int i = 0; i < PERF_REG_X86_64_MAX; i++)
		if (REGS_MASK & (1ULL << i))
			regs[n++] = cap.regs[i];
	memset(&r, 0, sizeof(r));
	r.pid = r.tid = pid;
	r.cpumode = PERF_RECORD_MISC_USER;
	r.period = 1;
	r.abi = PERF_SAMPLE_REGS_ABI_64;
	r.regs_mask = REGS_MASK;
	r.nr_regs = n;
	r.regs = regs;
	r.stack = cap.stack;
	r.stack_size = cap.stack_size;
	return r;
}

/* The name of a chain node, through the symbolizer. */
static const char *node_name(struct symbolizer *sy, const struct cc_node *n)
{
	struct sym_info si;

	if (symbolizer__lookup(sy, n->dso, n->addr, &si) || !si.name)
		return "?";
	return si.name;
}

/* The leaf-first names of the chain of the one entry of event 0. */
static size_t chain_names(const char **names, size_t max)
{
	struct symbolizer_opts so = { 0 };
	struct symbolizer *sy = symbolizer__new(&so);
	struct snapshot snap;
	size_t n = 0;
	u32 id;

	ck_assert_ptr_nonnull(sy);
	snapshot__init(&snap);
	session__lock(s);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	session__unlock(s);
	ck_assert_uint_eq(snap.nr, 1);
	for (id = snap.entries[0].key.chain; id && n < max;
	     id = snap.chains[id].parent) {
		static char keep[16][64];

		snprintf(keep[n], sizeof(keep[n]), "%s",
			 node_name(sy, &snap.chains[id]));
		names[n] = keep[n];
		n++;
	}
	snapshot__fini(&snap);
	symbolizer__free(sy);
	return n;
}

START_TEST(test_captured_stack)
{
	struct unwind_opts o = { .sync = true };
	struct unwind_req r;
	u64 pcs[64];
	size_t n;

	capture();
	uw = unwind__new(s, &o);
	ck_assert_ptr_nonnull(uw);
	r = cap_req((u32)getpid());
	session__lock(s);
	n = unwind__one(uw, &r, pcs, 64);
	session__unlock(s);
	/* the sampled pc, then the return addresses the functions saw */
	ck_assert_uint_ge(n, 4);
	ck_assert_uint_eq(pcs[0], cap.regs[PERF_REG_X86_IP]);
	ck_assert_uint_eq(pcs[1], cap.ra[0]);
	ck_assert_uint_eq(pcs[2], cap.ra[1]);
	ck_assert_uint_eq(pcs[3], cap.ra[2]);
	/* and on through this test's callers (check's runner, libc) */
	ck_assert_uint_ge(n, 6);
}
END_TEST

/* The same, with the frame pointer register garbage: nothing but CFI. */
START_TEST(test_no_frame_pointer_needed)
{
	struct unwind_opts o = { .sync = true };
	struct unwind_req r;
	u64 pcs[64];
	size_t n;

	capture();
	cap.regs[PERF_REG_X86_BP] = 0xdeadbeef;
	uw = unwind__new(s, &o);
	ck_assert_ptr_nonnull(uw);
	r = cap_req((u32)getpid());
	session__lock(s);
	n = unwind__one(uw, &r, pcs, 64);
	session__unlock(s);
	ck_assert_uint_ge(n, 4);
	ck_assert_uint_eq(pcs[2], cap.ra[1]);
	ck_assert_uint_eq(pcs[3], cap.ra[2]);
}
END_TEST

/* Through the session: the sample is deferred, unwound, added with a
 * chain whose names are the functions', leaf first. */
START_TEST(test_session_names)
{
	struct unwind_opts o = { .sync = true };
	const char *names[16];
	struct snapshot snap;
	size_t n;

	capture();
	uw = unwind__new(s, &o);
	ck_assert_ptr_nonnull(uw);
	session__lock(s);
	ck_assert_int_eq(session__process(s, cap_sample(&cap, (u32)getpid(),
							NULL, 0,
							PERF_RECORD_MISC_USER)),
			 0);
	session__unlock(s);
	n = chain_names(names, 16);
	ck_assert_uint_ge(n, 4);
	ck_assert_str_eq(names[0], "uw_leaf");
	ck_assert_str_eq(names[1], "uw_mid");
	ck_assert_str_eq(names[2], "uw_outer");
	ck_assert_str_eq(names[3], "capture");

	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.counts.samples, 1);
	ck_assert_uint_eq(snap.counts.unwind_failed, 0);
	snapshot__fini(&snap);
}
END_TEST

/* The file mode's unwindings (on the caller's thread) are all counted,
 * the first and one in UNWIND_TIME_EVERY after it timed: every sample
 * unwound the same whether it is timed or not. */
START_TEST(test_sync_timed)
{
	struct unwind_opts o = { .sync = true };
	const u64 nr = 3 * UNWIND_TIME_EVERY + 2;
	struct unwind_stats st;
	struct snapshot snap;

	capture();
	uw = unwind__new(s, &o);
	ck_assert_ptr_nonnull(uw);
	for (u64 i = 0; i < nr; i++) {
		session__lock(s);
		ck_assert_int_eq(session__process(s, cap_sample(&cap,
								(u32)getpid(),
								NULL, 0,
								PERF_RECORD_MISC_USER)),
				 0);
		session__unlock(s);
	}
	unwind__stats(uw, &st);
	ck_assert_uint_eq(st.unwound, nr);
	ck_assert_uint_eq(st.timed, 4);
	ck_assert_uint_gt(st.ns, 0);
	ck_assert_uint_eq(st.failed, 0);
	/* each of them with its whole chain: as many frames each */
	ck_assert_uint_eq(st.frames % nr, 0);
	ck_assert_uint_ge(st.frames / nr, 4);
	snapshot__init(&snap);
	session__lock(s);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	session__unlock(s);
	ck_assert_uint_eq(snap.counts.samples, nr);
	ck_assert_uint_eq(snap.counts.unwind_failed, 0);
	snapshot__fini(&snap);
}
END_TEST

/* A kernel-mode sample (a system call): the kernel's part of the chain
 * stays under the unwound user part. */
START_TEST(test_kernel_part_kept)
{
	struct unwind_opts o = { .sync = true };
	const u64 kchain[] = { (u64)PERF_CONTEXT_KERNEL, 0xffffffff81000100ULL,
			       0xffffffff81000200ULL };
	struct perf_event_header *h;
	struct snapshot snap;
	const struct cc_node *leaf, *n;
	int depth = 0, kernel = 0;
	u32 id;

	capture();
	uw = unwind__new(s, &o);
	ck_assert_ptr_nonnull(uw);
	h = cap_sample(&cap, (u32)getpid(), kchain, 3, PERF_RECORD_MISC_KERNEL);
	/* the sampled ip is the kernel's */
	((u64 *)(h + 1))[0] = kchain[1];
	session__lock(s);
	ck_assert_int_eq(session__process(s, h), 0);
	session__unlock(s);
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.nr, 1);
	ck_assert_int_eq(snap.entries[0].key.dso->kind, DSO_KERNEL);
	leaf = &snap.chains[snap.entries[0].key.chain];
	ck_assert_int_eq(leaf->dso->kind, DSO_KERNEL);
	ck_assert_uint_eq(leaf->addr, kchain[1]);
	for (id = snap.entries[0].key.chain; id; id = n->parent) {
		n = &snap.chains[id];
		kernel += n->dso->kind == DSO_KERNEL;
		depth++;
	}
	ck_assert_int_eq(kernel, 2);
	ck_assert_int_ge(depth, 2 + 4);
	snapshot__fini(&snap);
}
END_TEST

/* No unwinder: the sample is added at once and counted. */
/* One user sample of c into the session (no unwinder), then its
 * snapshot. */
static void feed_one(const struct capture *c, struct snapshot *snap)
{
	session__lock(s);
	ck_assert_int_eq(session__process(s, cap_sample(c, (u32)getpid(),
							NULL, 0,
							PERF_RECORD_MISC_USER)),
			 0);
	session__unlock(s);
	snapshot__init(snap);
	ck_assert_int_eq(session__snapshot(s, 0, snap), 0);
}

START_TEST(test_no_unwinder_counted)
{
	struct snapshot snap;

	capture();
	feed_one(&cap, &snap);
	ck_assert_uint_eq(snap.counts.samples, 1);
	ck_assert_uint_eq(snap.counts.unwind_failed, 1);
	ck_assert_uint_eq(snap.cpu_counts[1].unwind_failed, 1);
	ck_assert_uint_eq(snap.nr, 1);
	ck_assert_uint_eq(snap.entries[0].key.chain, 0);
	snapshot__fini(&snap);
}
END_TEST

/* A sample whose stack the kernel could not copy (a task exiting): added
 * at once with its kernel chain, counted apart from the failures. */
START_TEST(test_no_stack_counted)
{
	struct capture empty;
	struct snapshot snap;

	capture();
	empty = cap;
	empty.stack_size = 0;
	feed_one(&empty, &snap);
	ck_assert_uint_eq(snap.counts.samples, 1);
	ck_assert_uint_eq(snap.counts.unwind_failed, 0);
	ck_assert_uint_eq(snap.counts.unwind_no_stack, 1);
	ck_assert_uint_eq(snap.cpu_counts[1].unwind_no_stack, 1);
	snapshot__fini(&snap);
}
END_TEST

/* The live queue: every sample lands, unwound or counted, whatever the
 * thread's pace; a full queue refuses at once. */
START_TEST(test_queue_accounting)
{
	struct unwind_opts o = { .queue_bytes = 3 * (STACK_MAX + 1024) };
	struct unwind_stats st;
	struct snapshot snap;
	const int nr = 200;

	capture();
	uw = unwind__new(s, &o);
	ck_assert_ptr_nonnull(uw);
	for (int i = 0; i < nr; i++) {
		struct perf_event_header *h;

		h = cap_sample(&cap, (u32)getpid(), NULL, 0,
			       PERF_RECORD_MISC_USER);
		session__lock(s);
		ck_assert_int_eq(session__process(s, h), 0);
		session__unlock(s);
	}
	session__flush(s);
	unwind__stats(uw, &st);
	snapshot__init(&snap);
	session__lock(s);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	session__unlock(s);
	ck_assert_uint_eq(snap.counts.samples, (u64)nr);
	ck_assert_uint_eq(st.queued + st.dropped, (u64)nr);
	ck_assert_uint_eq(snap.counts.unwind_failed, st.dropped);
	ck_assert_uint_eq(st.unwound, st.queued);
	ck_assert_uint_gt(st.queued, 0);
	ck_assert_uint_eq(st.failed, 0);
	ck_assert_uint_le(st.queue_peak, o.queue_bytes);
	/* the worker times the first request and one in UNWIND_TIME_EVERY */
	ck_assert_uint_eq(st.timed, (st.unwound + UNWIND_TIME_EVERY - 1) /
					    UNWIND_TIME_EVERY);
	ck_assert_uint_gt(st.ns, 0);
	/* one process, one Dwfl, whatever the number of samples */
	ck_assert_uint_eq(st.dwfl_new, 1);
	snapshot__fini(&snap);
	/* freeing with requests queued adds them first */
	for (int i = 0; i < 3; i++) {
		session__lock(s);
		session__process(s, cap_sample(&cap, (u32)getpid(), NULL, 0,
					       PERF_RECORD_MISC_USER));
		session__unlock(s);
	}
	unwind__free(uw);
	uw = NULL;
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.counts.samples, (u64)nr + 3);
	snapshot__fini(&snap);
}
END_TEST

/* Two processes with the same files share the opened ELF files; a
 * change of a process's maps rebuilds its Dwfl. */
static int feed_as(void *ctx, const struct perf_event_header *h)
{
	struct perf_event_header *c = (struct perf_event_header *)buf;

	memcpy(c, h, h->size);
	if (c->type == PERF_RECORD_MMAP2 || c->type == PERF_RECORD_COMM) {
		u32 *pt = (u32 *)(c + 1);

		pt[0] = pt[1] = (u32)(uintptr_t)ctx;
	} else {
		return 0;
	}
	session__process(s, c);
	return 0;
}

/* An unwinder with options o, a second process (pid 4000000, beyond
 * pid_max) with this one's maps, and this one's captured stack unwound:
 * its frames, the caches' sizes in st.  The session is left locked. */
static size_t caches_start(const struct unwind_opts *o,
			   struct unwind_stats *st)
{
	struct perf_event_attr a = test_attr();
	struct unwind_req r;
	u64 pcs[64];
	size_t n;

	capture();
	uw = unwind__new(s, o);
	ck_assert_ptr_nonnull(uw);
	ck_assert_int_eq(synth__processes("/proc", getpid(), &a, feed_as,
					  (void *)(uintptr_t)4000000), 0);
	session__lock(s);
	r = cap_req((u32)getpid());
	n = unwind__one(uw, &r, pcs, 64);
	unwind__stats(uw, st);
	return n;
}

START_TEST(test_caches)
{
	struct unwind_opts o = { .sync = true };
	struct unwind_req r;
	struct unwind_stats st1, st2;
	u64 pcs[64];
	size_t n1, n2;

	n1 = caches_start(&o, &st1);
	r = cap_req(4000000);
	n2 = unwind__one(uw, &r, pcs, 64);
	unwind__stats(uw, &st2);
	session__unlock(s);
	ck_assert_uint_eq(n1, n2);
	ck_assert_uint_eq(st2.procs, 2);
	ck_assert_uint_eq(st2.files, st1.files);
	ck_assert_uint_eq(st2.dwfl_new, 2);
	/* a new mapping in the first process: its Dwfl is rebuilt, and
	 * the unwinding is the same */
	session__lock(s);
	session__process(s, fake_mmap2(buf, (u32)getpid(), 0x10000, 0x1000, 0,
				       "/nonexistent/lib.so", NULL, 0,
				       record__id_trailer_size(ST, true)));
	r = cap_req((u32)getpid());
	ck_assert_uint_eq(unwind__one(uw, &r, pcs, 64), n1);
	unwind__stats(uw, &st1);
	r = cap_req((u32)getpid());
	ck_assert_uint_eq(unwind__one(uw, &r, pcs, 64), n1);
	unwind__stats(uw, &st2);
	session__unlock(s);
	ck_assert_uint_eq(st1.dwfl_new, 3);
	ck_assert_uint_eq(st2.dwfl_new, 3);
}
END_TEST

/* Caches of one Dwfl and one file: the files a Dwfl's modules read stay
 * open past the bound (pinned), the ones no Dwfl holds are closed, and
 * unwinding gives the same frames throughout. */
START_TEST(test_caches_bounded)
{
	struct unwind_opts o = { .sync = true, .max_procs = 1,
				 .max_files = 1 };
	struct unwind_req r;
	struct unwind_stats st1, st2;
	u64 pcs[64];
	size_t n1 = caches_start(&o, &st1);

	ck_assert_uint_gt(n1, 1);
	/* the Dwfl's modules hold two files at least (the test program
	 * and the C library), over the bound of one */
	ck_assert_uint_ge(st1.files, 2);
	for (int i = 0; i < 4; i++) {
		/* the other process's Dwfl replaces this one's: the files
		 * pass from one to the other, none closed under them */
		r = cap_req(i % 2 ? (u32)getpid() : 4000000);
		ck_assert_uint_eq(unwind__one(uw, &r, pcs, 64), n1);
		unwind__stats(uw, &st2);
		ck_assert_uint_eq(st2.procs, 1);
		ck_assert_uint_eq(st2.files, st1.files);
	}
	ck_assert_uint_eq(st2.dwfl_new, 5);
	session__unlock(s);
}
END_TEST

static u64 rnd_state = 88172645463325252ULL;

static u64 rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* Garbage registers and stacks, and stacks that point into themselves:
 * bounded, never a crash. */
START_TEST(test_garbage)
{
	struct unwind_opts o = { .sync = true, .max_stack = 100 };
	struct unwind_req r;
	u64 pcs[128], text;
	u64 *words = (u64 *)cap.stack;

	capture();
	text = cap.regs[PERF_REG_X86_IP];
	uw = unwind__new(s, &o);
	ck_assert_ptr_nonnull(uw);
	session__lock(s);
	for (int i = 0; i < 3000; i++) {
		size_t n, nw;

		capture();
		cap.stack_size = (rnd() % (STACK_MAX / 8)) * 8;
		nw = cap.stack_size / 8;
		for (size_t k = 0; k < nw; k++) {
			switch (rnd() % 4) {
			case 0:	/* a code address nearby */
				words[k] = text + rnd() % 4096 - 2048;
				break;
			case 1:	/* a pointer into the stack itself */
				words[k] = cap.regs[PERF_REG_X86_SP] +
					   (rnd() % (STACK_MAX / 8)) * 8;
				break;
			case 2:
				words[k] = rnd();
				break;
			default:
				break;	/* the real content */
			}
		}
		for (int k = 0; k < PERF_REG_X86_64_MAX; k++)
			if (rnd() % 3 == 0)
				cap.regs[k] = rnd() % 2 ? rnd() :
					      text + rnd() % 65536 - 32768;
		r = cap_req(rnd() % 4 ? (u32)getpid() : (u32)(rnd() % 100000));
		if (rnd() % 16 == 0)
			r.nr_regs = (u32)(rnd() % 20);
		if (rnd() % 32 == 0)
			r.regs_mask = rnd();
		n = unwind__one(uw, &r, pcs, 100);
		ck_assert_uint_le(n, 100);
	}
	/* unusable registers: nothing, not even a pc */
	r = cap_req((u32)getpid());
	r.abi = PERF_SAMPLE_REGS_ABI_32;
	ck_assert_uint_eq(unwind__one(uw, &r, pcs, 100), 0);
	r = cap_req((u32)getpid());
	r.regs_mask &= ~(1ULL << PERF_REG_X86_SP);
	ck_assert_uint_eq(unwind__one(uw, &r, pcs, 100), 0);
	r = cap_req((u32)getpid());
	r.nr_regs = 0;
	ck_assert_uint_eq(unwind__one(uw, &r, pcs, 100), 0);
	session__unlock(s);
}
END_TEST

/* A stack whose every word returns into the same function: the frame
 * check (callers live higher on the stack) stops it. */
START_TEST(test_cycle)
{
	struct unwind_opts o = { .sync = true };
	struct unwind_req r;
	u64 pcs[512];
	size_t n;

	capture();
	for (size_t k = 0; k < cap.stack_size / 8; k++)
		((u64 *)cap.stack)[k] = cap.ra[0];
	uw = unwind__new(s, &o);
	ck_assert_ptr_nonnull(uw);
	r = cap_req((u32)getpid());
	session__lock(s);
	n = unwind__one(uw, &r, pcs, 512);
	session__unlock(s);
	ck_assert_uint_le(n, cap.stack_size / 8 + 2);
}
END_TEST

Suite *unwind_suite(void)
{
	Suite *ss = suite_create("unwind");
	TCase *tc = tcase_create("unwind");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_captured_stack);
	tcase_add_test(tc, test_no_frame_pointer_needed);
	tcase_add_test(tc, test_session_names);
	tcase_add_test(tc, test_sync_timed);
	tcase_add_test(tc, test_kernel_part_kept);
	tcase_add_test(tc, test_no_unwinder_counted);
	tcase_add_test(tc, test_no_stack_counted);
	tcase_add_test(tc, test_queue_accounting);
	tcase_add_test(tc, test_caches);
	tcase_add_test(tc, test_caches_bounded);
	tcase_add_test(tc, test_garbage);
	tcase_add_test(tc, test_cycle);
	suite_add_tcase(ss, tc);
	return ss;
}

#else

Suite *unwind_suite(void)
{
	return suite_create("unwind");
}

#endif
