/* Tests of the session and the rows derived from it, perf hists-test
 * style: fake records on a fake machine, the expected table next to the
 * input. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/record.h"
#include "ui/report/rowset.h"
#include "src/core/session.h"
#include "tests/testutil.h"

static u64 buf[8192];
static struct session *s;

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

static struct perf_event_attr attr(u64 st)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_type = st;
	a.sample_id_all = 1;
	/* as ptop's live tracking event: MMAP2 records carry build-ids */
	a.mmap2 = 1;
	a.build_id = 1;
	return a;
}

static size_t trailer(u64 st)
{
	return record__id_trailer_size(st, true);
}

static const u8 bid_bin[20] = { 0xb1 };
static const u8 bid_lib[20] = { 0x11 };

/* pid 100 "fake": /usr/bin/fake at 0x400000 (pgoff 0) and libc at
 * 0x7f0000000000 (pgoff 0x1000); pid 200 "other" is a fork of it. */
static void fake_machine(u64 st)
{
	size_t t = trailer(st);

	ck_assert_int_eq(session__process(s, fake_comm(buf, 100, 100, "fake", false, t)), 0);
	ck_assert_int_eq(session__process(s, fake_mmap2(buf, 100, 0x400000, 0x10000, 0,
						    "/usr/bin/fake", bid_bin, 20, t)), 0);
	ck_assert_int_eq(session__process(s, fake_mmap2(buf, 100, 0x7f0000000000ULL, 0x10000,
						    0x1000, "/lib/libc.so.6", bid_lib, 20, t)), 0);
	ck_assert_int_eq(session__process(s, fake_fork(buf, PERF_RECORD_FORK, 200, 100, 200, 100, t)), 0);
	ck_assert_int_eq(session__process(s, fake_comm(buf, 200, 200, "other", false, t)), 0);
}

static void sample(u64 st, u32 pid, u64 ip, u16 misc, u64 period, u32 cpu,
		   u64 id)
{
	struct fake_sample fs = {
		.id = id, .ip = ip, .pid = pid, .tid = pid, .time = 1000,
		.cpu = cpu, .period = period, .misc = misc,
	};

	session__process(s, fake_sample(buf, st, &fs));
}

/* A fake symbolizer: in /usr/bin/fake, [0x1000,0x1080) is main_a and
 * [0x1080,0x1100) main_b; in libc [0x1400,0x1600) is memcpy; kernel ips
 * under 0xffffffff81001000 are do_idle. */
static int resolve(void *ctx, const struct dso *d, u64 addr,
		   struct row_sym *out)
{
	(void)ctx;
	memset(out, 0, sizeof(*out));
	out->dso_name = d->name;
	if (d->kind == DSO_FILE && strcmp(d->name, "fake") == 0) {
		if (addr >= 0x1000 && addr < 0x1080) {
			out->name = "main_a";
			out->start = 0x1000;
		} else if (addr >= 0x1080 && addr < 0x1100) {
			out->name = "main_b";
			out->start = 0x1080;
		}
	} else if (d->kind == DSO_FILE && addr >= 0x1400 && addr < 0x1600) {
		out->name = "memcpy";
		out->start = 0x1400;
	} else if (d->kind == DSO_KERNEL && addr < 0xffffffff81001000ULL) {
		out->name = "do_idle";
		out->start = 0xffffffff81000000ULL;
	}
	return 0;
}

static void setup(void)
{
	struct session_opts o = { .key_fields = KEY_ALL };
	struct perf_event_attr a = attr(ST);

	s = session__new(&o);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
}

static void teardown(void)
{
	session__free(s);
}

/* The rows of event 0 by spec (snap and rs initialized here). */
static void build_spec(struct rowset *rs, struct snapshot *snap,
		       const struct sort_spec *spec, const struct row_filter *f)
{
	snapshot__init(snap);
	ck_assert_int_eq(session__snapshot(s, 0, snap), 0);
	rowset__init(rs);
	ck_assert_int_eq(rowset__build(rs, snap, spec, f, resolve, NULL), 0);
}

static void build(struct rowset *rs, struct snapshot *snap, const char *sort,
		  const struct row_filter *f)
{
	struct sort_spec spec;
	struct strbuf err;

	strbuf__init(&err);
	ck_assert_int_eq(sort_spec__parse(sort, &spec, &err), 0);
	strbuf__fini(&err);
	build_spec(rs, snap, &spec, f);
}

static void feed_standard(void)
{
	fake_machine(ST);
	for (int i = 0; i < 6; i++)	/* main_a at two ips */
		sample(ST, 100, 0x401000 + (u64)(i % 2) * 0x10,
		       PERF_RECORD_MISC_USER, 100, 0, 0);
	for (int i = 0; i < 3; i++)	/* main_b */
		sample(ST, 100, 0x401090, PERF_RECORD_MISC_USER, 100, 1, 0);
	/* memcpy in libc: file offset 0x500 + pgoff 0x1000 */
	sample(ST, 200, 0x7f0000000500ULL, PERF_RECORD_MISC_USER, 100, 1, 0);
	sample(ST, 0, 0xffffffff81000100ULL, PERF_RECORD_MISC_KERNEL, 100, 0, 0);
	sample(ST, 0, 0xffffffff81000200ULL, PERF_RECORD_MISC_KERNEL, 100, 0, 0);
	sample(ST, 100, 0x900000, PERF_RECORD_MISC_USER, 100, 0, 0); /* no map */
}

START_TEST(test_dso_sym_table)
{
	/* pid 0's do_idle samples as rows (test_idle: left out) */
	struct row_filter f = { .show_idle = true };
	struct rowset rs;
	struct snapshot snap;

	feed_standard();
	build(&rs, &snap, "dso,sym", &f);
	/* expected, in order */
	ck_assert_uint_eq(rs.nr, 5);
	ck_assert_str_eq(rs.rows[0].sym, "main_a");
	ck_assert_str_eq(rs.rows[0].dso_name, "fake");
	ck_assert_uint_eq(rs.rows[0].samples, 6);
	ck_assert_str_eq(rs.rows[1].sym, "main_b");
	ck_assert_uint_eq(rs.rows[1].samples, 3);
	ck_assert_str_eq(rs.rows[2].sym, "do_idle");
	ck_assert(rs.rows[2].kernel);
	ck_assert_uint_eq(rs.rows[2].samples, 2);
	/* ties (1 sample each) are ordered by dso, then symbol */
	ck_assert_str_eq(rs.rows[3].dso_name, "[unknown]");
	ck_assert_ptr_null(rs.rows[3].sym);
	ck_assert_uint_eq(rs.rows[3].addr, 0x900000);
	ck_assert_str_eq(rs.rows[4].sym, "memcpy");
	ck_assert_str_eq(rs.rows[4].dso_name, "libc.so.6");
	ck_assert_double_eq_tol(rowset__percent(&rs, &rs.rows[0]), 600.0 / 13, 1e-9);
	ck_assert_uint_eq(snap.counts.samples, 13);
	ck_assert(snap.kernel_samples);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

START_TEST(test_other_sorts_and_filters)
{
	struct row_filter f = { .show_idle = true };
	struct rowset rs;
	struct snapshot snap;

	feed_standard();
	build(&rs, &snap, "comm", &f);
	ck_assert_uint_eq(rs.nr, 3);
	ck_assert_str_eq(rs.rows[0].comm, "fake");
	ck_assert_uint_eq(rs.rows[0].samples, 10);
	ck_assert_str_eq(rs.rows[1].comm, "swapper");
	ck_assert_str_eq(rs.rows[2].comm, "other");
	rowset__fini(&rs);
	snapshot__fini(&snap);

	build(&rs, &snap, "cpu", &f);
	ck_assert_uint_eq(rs.nr, 2);
	ck_assert_int_eq(rs.rows[0].cpu, 0);
	ck_assert_uint_eq(rs.rows[0].samples, 9);
	rowset__fini(&rs);
	snapshot__fini(&snap);

	/* ordered by symbol name instead of overhead */
	build(&rs, &snap, "sym,dso", NULL);
	rowset__fini(&rs);
	snapshot__fini(&snap);

	f.hide_kernel = true;
	f.sym_substr = "MAIN";	/* case-insensitive */
	build(&rs, &snap, "dso,sym", &f);
	ck_assert_uint_eq(rs.nr, 2);
	/* shares stay relative to the whole */
	ck_assert_double_eq_tol(rowset__percent(&rs, &rs.rows[1]), 300.0 / 13, 1e-9);
	rowset__fini(&rs);
	snapshot__fini(&snap);

	memset(&f, 0, sizeof(f));
	f.has_pid = true;
	f.pid = 200;
	build(&rs, &snap, "dso,sym", &f);
	ck_assert_uint_eq(rs.nr, 1);
	ck_assert_str_eq(rs.rows[0].sym, "memcpy");
	rowset__fini(&rs);
	snapshot__fini(&snap);

	memset(&f, 0, sizeof(f));
	f.show_idle = true;
	f.percent_limit = 20;
	f.max_rows = 1;
	build(&rs, &snap, "dso,sym", &f);
	ck_assert_uint_eq(rs.nr, 1);
	ck_assert_uint_eq(rs.hidden_rows, 4);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

START_TEST(test_invert_and_order)
{
	struct sort_spec spec;
	struct strbuf err;
	struct rowset rs;
	struct snapshot snap;

	feed_standard();
	strbuf__init(&err);
	ck_assert_int_eq(sort_spec__parse("dso,sym,sample", &spec, &err), 0);
	ck_assert_int_eq(spec.order, SORT_SAMPLES);
	ck_assert_int_ne(sort_spec__parse("dso,bogus", &spec, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.buf, "bogus"));
	strbuf__fini(&err);
	sort_spec__default(&spec);
	spec.invert = true;
	build_spec(&rs, &snap, &spec, NULL);
	ck_assert_str_eq(rs.rows[rs.nr - 1].sym, "main_a");
	ck_assert_uint_eq(sort_spec__key_fields(&spec), 0);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

START_TEST(test_two_events_by_id)
{
	u64 st = ST | PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr a = attr(st), b = attr(st);
	struct session_opts o = { .key_fields = 0 };
	struct snapshot s0, s1;

	session__free(s);
	s = session__new(&o);
	b.config = PERF_COUNT_SW_PAGE_FAULTS;
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	ck_assert_int_eq(session__add_event(s, "page-faults", &b), 1);
	ck_assert_int_eq(session__add_id(s, 0, 1000), 0);
	ck_assert_int_eq(session__add_id(s, 1, 2000), 0);
	fake_machine(st);
	sample(st, 100, 0x401000, PERF_RECORD_MISC_USER, 10, 0, 1000);
	sample(st, 100, 0x401000, PERF_RECORD_MISC_USER, 10, 0, 1000);
	sample(st, 100, 0x401090, PERF_RECORD_MISC_USER, 1, 0, 2000);
	sample(st, 100, 0x401090, PERF_RECORD_MISC_USER, 1, 0, 3000); /* ? */
	snapshot__init(&s0);
	snapshot__init(&s1);
	ck_assert_int_eq(session__snapshot(s, 0, &s0), 0);
	ck_assert_int_eq(session__snapshot(s, 1, &s1), 0);
	ck_assert_uint_eq(s0.counts.samples, 2);
	ck_assert_uint_eq(s1.counts.samples, 1);
	ck_assert_uint_eq(s1.session.unknown_id, 1);
	ck_assert_uint_eq(s0.nr, 1);
	snapshot__fini(&s0);
	snapshot__fini(&s1);
}
END_TEST

/* A dso by its path, NULL if none. */
static const struct dso *dso_named(const char *path)
{
	struct dsos *d = session__dsos(s);

	for (size_t i = 0; i < dsos__count(d); i++) {
		const struct dso *x = dsos__at(d, i);

		if (x->path && strcmp(x->path, path) == 0)
			return x;
	}
	return NULL;
}

/* An MMAP2 with the build-id bit over maj 8 (sd), whose bytes could pass
 * for a build-id of 8; id: the trailer's (IDENTIFIER, the last word). */
static struct perf_event_header *leaked_mmap2(const char *path, u64 start,
					      size_t t, u64 id)
{
	struct perf_event_header *h = fake_mmap2(buf, 100, start, 0x1000, 0,
						 path, NULL, 0, t);

	h->misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	memcpy((u8 *)h + h->size - 8, &id, 8);
	return h;
}

/* The carrier of an MMAP2 decides whether its union can be a build-id
 * (session__attr_build_id): live, ptop's tracking event (0) has
 * build_id and a second event does not. */
START_TEST(test_mmap2_carrier)
{
	u64 st = ST | PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr a = attr(st), b = attr(st);
	struct session_opts o = { .key_fields = 0 };
	size_t t = trailer(st);
	struct perf_event_header *h;
	const struct dso *d;

	session__free(s);
	s = session__new(&o);
	b.config = PERF_COUNT_SW_PAGE_FAULTS;
	b.mmap2 = b.build_id = 0;
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	ck_assert_int_eq(session__add_event(s, "page-faults", &b), 1);
	ck_assert_int_eq(session__add_id(s, 0, 1000), 0);
	ck_assert_int_eq(session__add_id(s, 1, 2000), 0);
	/* a synthesized record: a zeroed trailer names no event, and some
	 * event asks for build-ids */
	h = fake_mmap2(buf, 100, 0x400000, 0x1000, 0, "/a", bid_bin, 20, t);
	ck_assert(session__attr_build_id(s, h));
	ck_assert_int_eq(session__process(s, h), 0);
	/* carried by event 0: its bytes decide */
	h = leaked_mmap2("/b", 0x500000, t, 1000);
	ck_assert(session__attr_build_id(s, h));
	/* carried by event 1: never a build-id */
	h = leaked_mmap2("/c", 0x600000, t, 2000);
	ck_assert(!session__attr_build_id(s, h));
	ck_assert_int_eq(session__process(s, h), 0);
	d = dso_named("/a");
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(d->build_id_size, 20);
	ck_assert_uint_eq(d->build_id[0], 0xb1);
	d = dso_named("/c");
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(d->build_id_size, 0);
	ck_assert_uint_eq(d->maj, 8);
	ck_assert_uint_eq(d->ino, 1234);
	ck_assert_uint_eq(session__counts(s)->leaked_build_id, 1);

	/* no event with build_id (perf record without --buildid-mmap):
	 * whatever the carrier */
	session__free(s);
	s = session__new(&o);
	a.build_id = 0;
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	h = leaked_mmap2("/c", 0x600000, t, 0);
	ck_assert(!session__attr_build_id(s, h));
	ck_assert_int_eq(session__process(s, h), 0);
	ck_assert_uint_eq(dso_named("/c")->maj, 8);
	ck_assert_uint_eq(session__counts(s)->leaked_build_id, 1);
	/* set_attr keeps the rule current */
	a.build_id = 1;
	ck_assert_int_eq(session__set_attr(s, 0, &a), 0);
	ck_assert(session__attr_build_id(s, h));
}
END_TEST

START_TEST(test_lost_throttle_unknown_bad)
{
	struct perf_event_header *h = (void *)buf;
	struct snapshot snap;
	u64 *w = (u64 *)(h + 1);
	size_t t = trailer(ST);

	/* LOST: id, lost, then the trailer with cpu 1 */
	memset(buf, 0, 256);
	h->type = PERF_RECORD_LOST;
	h->size = (u16)(8 + 16 + t);
	w[0] = 0;
	w[1] = 17;
	{	/* trailer: tid, time, cpu */
		u32 cpu[2] = { 1, 0 };

		memcpy((u8 *)h + h->size - 8, cpu, 8);
	}
	ck_assert_int_eq(session__process(s, h), 0);
	/* THROTTLE */
	memset(buf, 0, 256);
	h->type = PERF_RECORD_THROTTLE;
	h->size = (u16)(8 + 24 + t);
	ck_assert_int_eq(session__process(s, h), 0);
	/* an unknown type is counted and skipped */
	h->type = 200;
	ck_assert_int_eq(session__process(s, h), 0);
	/* a record smaller than its type allows */
	h->type = PERF_RECORD_MMAP2;
	h->size = 16;
	ck_assert_int_eq(session__process(s, h), -EINVAL);
	/* a truncated sample */
	h->type = PERF_RECORD_SAMPLE;
	h->size = 16;
	ck_assert_int_eq(session__process(s, h), -EINVAL);
	h->size = 4;
	ck_assert_int_eq(session__process(s, h), -EINVAL);

	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.counts.lost, 17);
	ck_assert_uint_eq(snap.cpu_counts[1].lost, 17);
	ck_assert_uint_eq(snap.counts.throttle, 1);
	ck_assert_uint_eq(snap.counts.dropped, 1);
	ck_assert_uint_eq(snap.session.unknown_type, 1);
	ck_assert_uint_eq(snap.session.bad_records, 3);
	snapshot__fini(&snap);
}
END_TEST

START_TEST(test_time_and_zero_modes)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE };
	struct fake_sample fs = { .ip = 0x401000, .pid = 100, .tid = 100,
				  .time = 4242, .period = 1,
				  .misc = PERF_RECORD_MISC_USER };
	struct snapshot snap;

	(void)h;
	fake_machine(ST);
	ck_assert_uint_eq(session__record_time(s, fake_sample(buf, ST, &fs)), 4242);
	session__process(s, fake_sample(buf, ST, &fs));
	session__refresh(s, HIST_ZERO);
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.nr, 0);
	/* counters since the start survive zeroing */
	ck_assert_uint_eq(snap.counts.samples, 1);
	snapshot__fini(&snap);
}
END_TEST

static int asked_pid;

static void on_unknown(void *ctx, struct session *ss, s32 pid)
{
	size_t t = trailer(ST);

	(void)ctx;
	asked_pid = pid;
	/* what a live source does: synthesize and feed back */
	session__process(ss, fake_comm(buf, (u32)pid, (u32)pid, "late", false, t));
	session__process(ss, fake_mmap2(buf, (u32)pid, 0x400000, 0x10000, 0,
					"/usr/bin/fake", bid_bin, 20, t));
}

static const struct session_source_ops unknown_ops = {
	.unknown_pid = on_unknown,
};

START_TEST(test_unknown_pid_hook)
{
	struct rowset rs;
	struct snapshot snap;

	session__set_source_ops(s, &unknown_ops, NULL);
	sample(ST, 300, 0x401000, PERF_RECORD_MISC_USER, 1, 0, 0);
	sample(ST, 300, 0x401000, PERF_RECORD_MISC_USER, 1, 0, 0);
	ck_assert_int_eq(asked_pid, 300);
	build(&rs, &snap, "comm,dso,sym", NULL);
	ck_assert_uint_eq(rs.nr, 1);
	ck_assert_str_eq(rs.rows[0].sym, "main_a");
	ck_assert_uint_eq(rs.rows[0].samples, 2);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

static const struct dso *sampled[8];
static int nr_sampled;

static void on_dso(void *ctx, const struct dso *d)
{
	ck_assert_ptr_eq(ctx, &nr_sampled);
	ck_assert_int_lt(nr_sampled, 8);
	sampled[nr_sampled++] = d;
}

static const struct session_source_ops dso_ops = {
	.dso_sampled = on_dso,
};

/* The dso hook: once per file-backed dso and once for the kernel at
 * their first sample, in the order they come; not for unknown
 * addresses, or once removed. */
START_TEST(test_dso_hook)
{
	nr_sampled = 0;
	session__set_source_ops(s, &dso_ops, &nr_sampled);
	feed_standard();
	ck_assert_int_eq(nr_sampled, 3);
	ck_assert_str_eq(sampled[0]->path, "/usr/bin/fake");
	ck_assert_str_eq(sampled[1]->path, "/lib/libc.so.6");
	ck_assert_int_eq(sampled[2]->kind, DSO_KERNEL);
	feed_standard();
	ck_assert_int_eq(nr_sampled, 3);
	session__set_source_ops(s, NULL, NULL);
	sample(ST, 100, 0x7f0000000600ULL, PERF_RECORD_MISC_USER, 1, 0, 0);
	ck_assert_int_eq(nr_sampled, 3);
}
END_TEST

/* A source's table replaces the one before it whole: a member it leaves
 * NULL is not answered, whoever answered it before. */
START_TEST(test_source_ops_replaced)
{
	asked_pid = 0;
	nr_sampled = 0;
	session__set_source_ops(s, &unknown_ops, NULL);
	session__set_source_ops(s, &dso_ops, &nr_sampled);
	sample(ST, 400, 0x401000, PERF_RECORD_MISC_USER, 1, 0, 0);
	ck_assert_int_eq(asked_pid, 0);
	feed_standard();
	ck_assert_int_eq(nr_sampled, 3);	/* two binaries, the kernel */
	session__set_source_ops(s, &unknown_ops, NULL);
	sample(ST, 500, 0x401000, PERF_RECORD_MISC_USER, 1, 0, 0);
	ck_assert_int_eq(asked_pid, 500);
}
END_TEST

START_TEST(test_exec_and_fold)
{
	struct session_opts o = { .key_fields = KEY_ALL, .fold_threshold = 1 };
	struct perf_event_attr a = attr(ST);
	struct snapshot snap;
	size_t t = trailer(ST);

	session__free(s);
	s = session__new(&o);
	session__add_event(s, "cpu-clock", &a);
	fake_machine(ST);
	sample(ST, 200, 0x401000, PERF_RECORD_MISC_USER, 1, 0, 0);
	/* pid 200 execs; the execve syscall's own samples, after the COMM
	 * record, hold a user ip in the old program's libc (as in perf) */
	session__process(s, fake_comm(buf, 200, 200, "newprog", true, t));
	sample(ST, 200, 0x7f0000001400ULL, PERF_RECORD_MISC_USER, 1, 0, 0);
	/* the new program's maps come first where they are */
	session__process(s, fake_mmap2(buf, 200, 0x400000, 0x1000, 0,
				       "/usr/bin/newprog", NULL, 0, t));
	sample(ST, 200, 0x400800, PERF_RECORD_MISC_USER, 1, 0, 0);
	sample(ST, 200, 0x500000, PERF_RECORD_MISC_USER, 1, 0, 0);
	sample(ST, 100, 0x401000, PERF_RECORD_MISC_USER, 1, 0, 0);
	session__process(s, fake_fork(buf, PERF_RECORD_EXIT, 200, 100, 200, 100, t));
	for (int i = 0; i < 3; i++)
		session__refresh(s, HIST_CUMULATIVE);
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.nr, 5);
	for (size_t i = 0; i < snap.nr; i++) {
		const struct hist_entry *e = &snap.entries[i];

		if (strcmp(e->key.comm, "newprog") == 0) {
			/* pid 200 exited: folded */
			ck_assert_int_eq(e->key.pid, -1);
			if (e->key.dso->kind == DSO_UNKNOWN)
				ck_assert_uint_eq(e->key.addr, 0x500000);
			else if (strcmp(e->key.dso->name, "libc.so.6") == 0)
				ck_assert_uint_eq(e->key.addr, 0x2400);
			else
				ck_assert_str_eq(e->key.dso->name, "newprog");
		} else if (strcmp(e->key.comm, "other") == 0) {
			ck_assert_int_eq(e->key.pid, -1);
			ck_assert_str_eq(e->key.dso->name, "fake");
		} else {
			ck_assert_int_eq(e->key.pid, 100);
		}
	}
	snapshot__fini(&snap);
}
END_TEST

/* The idle task (pid 0) is counted, summed apart and, by default, left
 * out of the rows and of the totals their shares are of. */
static void check_idle_split(const struct snapshot *snap, u64 idle)
{
	ck_assert_uint_eq(snap->idle_samples, idle);
	ck_assert_uint_eq(snap->idle_period, idle * 100);
	/* the idle entries are the last ones, and only they are idle */
	for (size_t i = 0; i < snap->nr; i++)
		ck_assert_int_eq(snap->entries[i].key.idle,
				 i >= snap->nr - snap->nr_idle);
}

START_TEST(test_idle)
{
	struct row_filter shown = { .show_idle = true };
	struct rowset rs;
	struct snapshot snap;
	u64 sum = 0;

	feed_standard();
	/* one more idle sample on cpu 1, at an ip of its own */
	sample(ST, 0, 0xffffffff81000300ULL, PERF_RECORD_MISC_KERNEL, 100, 1, 0);
	build(&rs, &snap, "dso,sym", NULL);
	/* the header's counts stay every sample */
	ck_assert_uint_eq(snap.counts.samples, 14);
	ck_assert_uint_eq(snap.total_samples, 14);
	ck_assert_uint_eq(snap.total_period, 1400);
	ck_assert_uint_eq(snap.nr_idle, 3);
	check_idle_split(&snap, 3);
	/* expected: the table of test_dso_sym_table without do_idle */
	ck_assert_uint_eq(rs.nr, 4);
	ck_assert_str_eq(rs.rows[0].sym, "main_a");
	ck_assert_str_eq(rs.rows[1].sym, "main_b");
	ck_assert_str_eq(rs.rows[2].dso_name, "[unknown]");
	ck_assert_str_eq(rs.rows[3].sym, "memcpy");
	ck_assert_uint_eq(rs.total_samples, 11);
	ck_assert_uint_eq(rs.total_period, 1100);
	for (size_t i = 0; i < rs.nr; i++) {
		ck_assert_int_ne(rs.rows[i].pid, 0);
		sum += rs.rows[i].samples;
	}
	ck_assert_uint_eq(sum, 11);
	ck_assert_double_eq_tol(rowset__percent(&rs, &rs.rows[0]),
				600.0 / 11, 1e-9);
	/* the same snapshot, idle shown: no new snapshot needed (the key
	 * toggles at once) */
	ck_assert_int_eq(rowset__build(&rs, &snap, &rs.spec, &shown, resolve,
				       NULL), 0);
	ck_assert_uint_eq(rs.nr, 5);
	/* tied with main_b (3 samples): ordered by dso name */
	ck_assert_str_eq(rs.rows[1].sym, "do_idle");
	ck_assert_uint_eq(rs.rows[1].samples, 3);
	ck_assert_uint_eq(rs.total_samples, 14);
	ck_assert_double_eq_tol(rowset__percent(&rs, &rs.rows[0]),
				600.0 / 14, 1e-9);
	rowset__fini(&rs);
	snapshot__fini(&snap);

	/* grouped by comm: swapper is the idle task, and goes */
	build(&rs, &snap, "comm", NULL);
	ck_assert_uint_eq(rs.nr, 2);
	ck_assert_str_eq(rs.rows[0].comm, "fake");
	ck_assert_str_eq(rs.rows[1].comm, "other");
	rowset__fini(&rs);
	snapshot__fini(&snap);

	/* zeroing: the split follows the window */
	session__refresh(s, HIST_ZERO);
	sample(ST, 0, 0xffffffff81000100ULL, PERF_RECORD_MISC_KERNEL, 100, 0, 0);
	sample(ST, 100, 0x401000, PERF_RECORD_MISC_USER, 100, 0, 0);
	build(&rs, &snap, "dso,sym", NULL);
	ck_assert_uint_eq(snap.total_samples, 2);
	check_idle_split(&snap, 1);
	ck_assert_uint_eq(rs.nr, 1);
	ck_assert_uint_eq(rs.total_samples, 1);
	ck_assert_double_eq_tol(rowset__percent(&rs, &rs.rows[0]), 100.0, 1e-9);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

/* Batch keeps only the key fields its sort needs: idle is known without
 * the pid; and a sample_type without TID has no pid to tell. */
START_TEST(test_idle_without_pid_key)
{
	struct session_opts o = { .key_fields = 0 };
	struct perf_event_attr a = attr(ST);
	u64 st = PERF_SAMPLE_IP | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	struct rowset rs;
	struct snapshot snap;

	session__free(s);
	s = session__new(&o);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	feed_standard();
	build(&rs, &snap, "dso,sym", NULL);
	ck_assert_uint_eq(snap.total_samples, 13);
	check_idle_split(&snap, 2);
	ck_assert_uint_eq(rs.nr, 4);
	ck_assert_uint_eq(rs.total_samples, 11);
	for (size_t i = 0; i < snap.nr; i++)
		ck_assert_int_eq(snap.entries[i].key.pid, 0);
	rowset__fini(&rs);
	snapshot__fini(&snap);

	session__free(s);
	s = session__new(&o);
	a = attr(st);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	sample(st, 0, 0xffffffff81000100ULL, PERF_RECORD_MISC_KERNEL, 100, 0, 0);
	sample(st, 0, 0xffffffff81000100ULL, PERF_RECORD_MISC_KERNEL, 100, 0, 0);
	build(&rs, &snap, "dso,sym", NULL);
	ck_assert_uint_eq(snap.nr_idle, 0);
	ck_assert_uint_eq(rs.nr, 1);
	ck_assert_uint_eq(rs.rows[0].samples, 2);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

/* Idle chains add no Children rows and no tree branches while idle is
 * left out: the trees read the same view as the rows. */
START_TEST(test_idle_chains)
{
	u64 st = ST | PERF_SAMPLE_CALLCHAIN;
	struct perf_event_attr a = attr(st);
	struct session_opts o = { .key_fields = KEY_ALL };
	u64 idle_chain[] = { (u64)PERF_CONTEXT_KERNEL, 0xffffffff81000100ULL,
			     0xffffffff81000f00ULL };
	u64 work_chain[] = { (u64)PERF_CONTEXT_KERNEL, 0xffffffff81000200ULL,
			     (u64)PERF_CONTEXT_USER, 0x401010, 0x401090 };
	struct fake_sample fs = { .time = 1000, .period = 100,
				  .misc = PERF_RECORD_MISC_KERNEL };
	struct row_filter shown = { .show_idle = true };
	struct sort_spec spec;
	struct rowset rs;
	struct snapshot snap;
	struct callgraph tr;

	session__free(s);
	s = session__new(&o);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	fake_machine(st);
	/* the idle task: do_idle called from do_idle's caller (same fake
	 * symbol), 3 samples */
	fs.ip = 0xffffffff81000100ULL;
	fs.callchain = idle_chain;
	fs.nr_callchain = 3;
	for (int i = 0; i < 3; i++)
		session__process(s, fake_sample(buf, st, &fs));
	/* pid 100 in the kernel (do_idle's range too), called from main_a
	 * then main_b */
	fs.ip = 0xffffffff81000200ULL;
	fs.pid = fs.tid = 100;
	fs.callchain = work_chain;
	fs.nr_callchain = 5;
	session__process(s, fake_sample(buf, st, &fs));

	sort_spec__default(&spec);
	spec.children = true;
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	rowset__init(&rs);
	ck_assert_int_eq(rowset__build(&rs, &snap, &spec, NULL, resolve, NULL), 0);
	/* do_idle (the work sample's leaf), main_a, main_b: each 100 % of
	 * the one non-idle sample */
	ck_assert_uint_eq(rs.nr, 3);
	for (size_t i = 0; i < rs.nr; i++) {
		ck_assert_uint_eq(rs.rows[i].children_samples, 1);
		ck_assert_double_eq_tol(rowset__percent_children(&rs, &rs.rows[i]),
					100.0, 1e-9);
	}
	ck_assert_str_eq(rs.rows[0].sym, "do_idle");
	ck_assert_uint_eq(rs.rows[0].samples, 1);
	callgraph__init(&tr);
	ck_assert_int_eq(rowset__tree(&rs, &rs.rows[0], CG_CALLER, &tr), 0);
	/* root -> main_b -> main_a -> do_idle, nothing from the idle task */
	ck_assert_uint_eq(tr.nodes[tr.nodes[0].first_child].samples, 1);
	ck_assert_uint_eq(tr.nodes[tr.nodes[0].first_child].next_sibling, 0);

	/* shown: the idle task's 3 samples join do_idle */
	ck_assert_int_eq(rowset__build(&rs, &snap, &spec, &shown, resolve,
				       NULL), 0);
	ck_assert_str_eq(rs.rows[0].sym, "do_idle");
	ck_assert_uint_eq(rs.rows[0].samples, 4);
	ck_assert_uint_eq(rs.rows[0].children_samples, 4);
	ck_assert_int_eq(rowset__tree(&rs, &rs.rows[0], CG_CALLER, &tr), 0);
	ck_assert_uint_eq(tr.total_samples, 4);
	callgraph__fini(&tr);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

/* Children rows of memcpy by dso name: "libc.so.6" and "other.so". */
static void memcpy_children(u64 *libc, u64 *other)
{
	struct sort_spec spec;
	struct rowset rs;
	struct snapshot snap;

	*libc = *other = 0;
	sort_spec__default(&spec);
	spec.children = true;
	build_spec(&rs, &snap, &spec, NULL);
	for (size_t i = 0; i < rs.nr; i++) {
		if (!rs.rows[i].sym || strcmp(rs.rows[i].sym, "memcpy"))
			continue;
		if (!strcmp(rs.rows[i].dso_name, "libc.so.6"))
			*libc += rs.rows[i].children_samples;
		else if (!strcmp(rs.rows[i].dso_name, "other.so"))
			*other += rs.rows[i].children_samples;
	}
	rowset__fini(&rs);
	snapshot__fini(&snap);
}

/* The same raw chain again (session__chain's memo) resolves as the maps
 * are now: after an mmap over libc, in the new file; after the chains
 * were reset (z), into the new trie. */
START_TEST(test_chain_memo)
{
	u64 st = ST | PERF_SAMPLE_CALLCHAIN;
	struct perf_event_attr a = attr(st);
	struct session_opts o = { .key_fields = KEY_ALL };
	static const u8 bid_other[20] = { 0x22 };
	u64 chain[] = { (u64)PERF_CONTEXT_USER, 0x401010, 0x7f0000000501ULL };
	struct fake_sample fs = { .time = 1000, .period = 100, .ip = 0x401010,
				  .pid = 100, .tid = 100, .callchain = chain,
				  .nr_callchain = 3,
				  .misc = PERF_RECORD_MISC_USER };
	u64 libc, other;

	session__free(s);
	s = session__new(&o);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	fake_machine(st);
	for (int i = 0; i < 3; i++)
		session__process(s, fake_sample(buf, st, &fs));
	memcpy_children(&libc, &other);
	ck_assert_uint_eq(libc, 3);
	ck_assert_uint_eq(other, 0);

	/* another file mapped where libc was */
	ck_assert_int_eq(session__process(s, fake_mmap2(buf, 100,
		0x7f0000000000ULL, 0x10000, 0x1000, "/lib/other.so",
		bid_other, 20, trailer(st))), 0);
	session__process(s, fake_sample(buf, st, &fs));
	memcpy_children(&libc, &other);
	ck_assert_uint_eq(libc, 3);
	ck_assert_uint_eq(other, 1);

	/* zeroed: the trie starts again, and so do the chains */
	session__refresh(s, HIST_ZERO);
	session__process(s, fake_sample(buf, st, &fs));
	session__process(s, fake_sample(buf, st, &fs));
	memcpy_children(&libc, &other);
	ck_assert_uint_eq(libc, 0);
	ck_assert_uint_eq(other, 2);
}
END_TEST

/* -g with stack copies: the fixer's answer spliced after the chain's
 * first user entry, counted; -o's records and attrs without the copies */
static struct {
	int how;
	size_t calls;
	struct fix_req req;
} fixer;

static int fake_fix(void *ctx, struct machine *m, const struct fix_req *req,
		    u64 *out, size_t max, size_t *nr)
{
	(void)ctx;
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_ge(max, 2);
	fixer.calls++;
	fixer.req = *req;
	*nr = 0;
	if (fixer.how == FP_FIX_TIED && req->nr_user) {
		out[0] = 0x401051;	/* return addresses into main_a */
		out[1] = 0x401061;
		*nr = 2;
	}
	return fixer.how;
}

/* The user addresses of entry 0's chain, leaf first. */
static size_t chain_addrs(u64 *addrs, size_t max)
{
	struct snapshot snap;
	size_t n = 0;

	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_ge(snap.nr, 1);
	for (u32 id = snap.entries[snap.nr - 1].key.chain; id && n < max;
	     id = snap.chains[id].parent)
		addrs[n++] = snap.chains[id].addr;
	snapshot__fini(&snap);
	return n;
}

START_TEST(test_fixer)
{
	u64 st = ST | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
		 PERF_SAMPLE_STACK_USER | PERF_SAMPLE_RAW;
	struct perf_event_attr a = attr(st), dwarf, out_attr;
	struct session_opts o = { .key_fields = KEY_ALL };
	u64 chain[] = { (u64)PERF_CONTEXT_USER, 0x401010, 0x7f0000000501ULL };
	u64 regs[3] = { 0x7ffff000, 0x7fffe000, 0x401010 };	/* bp sp ip */
	u8 stack[64];
	struct fake_sample fs = {
		.time = 1000, .period = 100, .ip = 0x401010, .pid = 100,
		.tid = 100, .callchain = chain, .nr_callchain = 3,
		.misc = PERF_RECORD_MISC_USER, .raw = "abc", .raw_size = 3,
		.regs_abi = PERF_SAMPLE_REGS_ABI_64, .regs = regs,
		.nr_regs = 3, .stack = stack, .stack_size = 64,
		.stack_dyn = 40,
	};
	const struct perf_event_header *h, *w;
	struct snapshot snap;
	struct perf_sample smp;
	u64 addrs[8];

	memset(stack, 0x5a, sizeof(stack));
	a.sample_regs_user = RECORD_FP_REGS;
	a.sample_stack_user = 64;
	ck_assert(record__attr_fixes(&a));
	/* perf's --call-graph dwarf: not a chain to fix */
	dwarf = a;
	dwarf.exclude_callchain_user = 1;
	ck_assert(!record__attr_fixes(&dwarf));
	dwarf = a;
	dwarf.sample_regs_user |= 1;	/* more registers: unwound */
	ck_assert(!record__attr_fixes(&dwarf));

	session__free(s);
	s = session__new(&o);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	session__set_fixer(s, fake_fix, NULL);
	fake_machine(st);
	memset(&fixer, 0, sizeof(fixer));
	fixer.how = FP_FIX_TIED;
	session__set_write_fixed(s, true);
	h = fake_sample(buf, st, &fs);
	ck_assert_int_eq(session__process(s, h), 0);
	/* the fixer saw the user part, the registers, what was copied */
	ck_assert_uint_eq(fixer.calls, 1);
	ck_assert_int_eq(fixer.req.pid, 100);
	ck_assert_uint_eq(fixer.req.nr_user, 2);
	ck_assert_uint_eq(fixer.req.user[0], 0x401010);
	ck_assert_uint_eq(fixer.req.nr_regs, 3);
	ck_assert_uint_eq(fixer.req.regs[2], 0x401010);
	ck_assert_uint_eq(fixer.req.stack_size, 40);
	/* ip, the two callers (minus one: in the call), libc */
	ck_assert_uint_eq(chain_addrs(addrs, 8), 4);
	ck_assert_uint_eq(addrs[0], 0x1010);
	ck_assert_uint_eq(addrs[1], 0x1050);
	ck_assert_uint_eq(addrs[2], 0x1060);
	ck_assert_uint_eq(addrs[3], 0x1500);
	/* what -o writes: that chain, no registers, no copy */
	w = session__output(s, h);
	ck_assert_ptr_nonnull(w);
	ck_assert_ptr_ne(w, h);
	session__output_attr(s, 0, &out_attr);
	ck_assert_uint_eq(out_attr.sample_type,
			  st & ~(u64)(PERF_SAMPLE_REGS_USER |
				      PERF_SAMPLE_STACK_USER));
	ck_assert_uint_eq(out_attr.sample_regs_user, 0);
	ck_assert_uint_eq(out_attr.sample_stack_user, 0);
	ck_assert_int_eq(record__parse_sample(&out_attr, w, &smp), 0);
	ck_assert_uint_eq(w->size, h->size - 8 * 4 - 8 - 64 - 8 + 16);
	ck_assert_uint_eq(smp.callchain_nr, 5);
	ck_assert_uint_eq(smp.callchain[2], 0x401051);
	ck_assert_uint_eq(smp.callchain[3], 0x401061);
	ck_assert_uint_eq(smp.callchain[4], 0x7f0000000501ULL);
	ck_assert_uint_eq(smp.ext->raw_size, 4);
	ck_assert_int_eq(memcmp(smp.ext->raw, "abc", 3), 0);
	ck_assert_uint_eq(smp.time, 1000);

	/* not tied: the kernel's chain, and it is what -o writes */
	fixer.how = FP_FIX_NO_MATCH;
	h = fake_sample(buf, st, &fs);
	ck_assert_int_eq(session__process(s, h), 0);
	w = session__output(s, h);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(record__parse_sample(&out_attr, w, &smp), 0);
	ck_assert_uint_eq(smp.callchain_nr, 3);
	/* a record that did not decode: nothing to write */
	session__process(s, fake_comm(buf, 100, 100, "fake", false,
				      trailer(st)));
	buf[0] = PERF_RECORD_SAMPLE | (u64)sizeof(struct perf_event_header) << 48;
	session__process(s, (struct perf_event_header *)buf);
	ck_assert_ptr_null(session__output(s, (struct perf_event_header *)buf));
	/* a kernel thread: no registers, nothing to fix */
	fs.regs_abi = 0;
	fs.pid = fs.tid = 0;
	session__process(s, fake_sample(buf, st, &fs));
	ck_assert_uint_eq(fixer.calls, 2);

	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.counts.fp_copies, 2);
	ck_assert_uint_eq(snap.counts.fp_tied, 1);
	ck_assert_uint_eq(snap.counts.fp_inserted, 1);
	ck_assert_uint_eq(snap.counts.fp_frames, 2);
	ck_assert_uint_eq(snap.session.fp_fix[FP_FIX_TIED], 1);
	ck_assert_uint_eq(snap.session.fp_fix[FP_FIX_NO_MATCH], 1);
	snapshot__fini(&snap);
	/* without -o's rewrite, or without a fixer */
	session__set_write_fixed(s, false);
	session__output_attr(s, 0, &out_attr);
	ck_assert_uint_eq(out_attr.sample_type, st);
	session__set_fixer(s, NULL, NULL);
	fs.regs_abi = PERF_SAMPLE_REGS_ABI_64;
	fs.pid = fs.tid = 100;
	h = fake_sample(buf, st, &fs);
	session__process(s, h);
	ck_assert_ptr_eq(session__output(s, h), h);
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.session.fp_fix[FP_FIX_NO_CFI], 1);
	snapshot__fini(&snap);
}
END_TEST

/* The -vv memory figures: the histograms' and chains' bytes grow with
 * distinct entries and chains, and a snapshot holds at least its
 * entries and nodes. */
START_TEST(test_bytes)
{
	u64 st = ST | PERF_SAMPLE_CALLCHAIN;
	struct perf_event_attr a = attr(st);
	struct session_opts o = { .key_fields = KEY_ALL };
	u64 chain[11] = { (u64)PERF_CONTEXT_USER };
	struct fake_sample fs = { .time = 1000, .period = 100,
				  .pid = 100, .tid = 100, .callchain = chain,
				  .nr_callchain = 11,
				  .misc = PERF_RECORD_MISC_USER };
	struct snapshot snap;
	size_t empty;

	session__free(s);
	s = session__new(&o);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	fake_machine(st);
	empty = session__bytes(s);
	ck_assert_uint_gt(empty, 0);
	/* 5,000 chains of ten frames, none shared (inside the binary's
	 * map, 0x400000-0x410000: a frame outside it ends a chain) */
	for (u64 i = 0; i < 5000; i++) {
		chain[1] = fs.ip = 0x401000 + (i % 2000) * 4;
		for (u64 d = 2; d < 11; d++)
			chain[d] = 0x404000 + i * 9 + (d - 2);
		session__process(s, fake_sample(buf, st, &fs));
	}
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.nr, 5000);
	ck_assert_uint_ge(snap.nr_chains, 5000 * 9);
	/* the session holds at least what its snapshot copies: the
	 * entries and every chain node */
	ck_assert_uint_ge(snapshot__bytes(&snap),
			  snap.nr * sizeof(*snap.entries) +
			  snap.nr_chains * sizeof(*snap.chains));
	ck_assert_uint_ge(session__bytes(s),
			  snap.nr * sizeof(*snap.entries) +
			  snap.nr_chains * sizeof(*snap.chains));
	snapshot__fini(&snap);
	ck_assert_uint_eq(snapshot__bytes(&snap), 0);
}
END_TEST

/*
 * perf record (6.0+) reads each counter's lost count (PERF_FORMAT_LOST)
 * at its end and writes it as LOST_SAMPLES: the losses its LOST records
 * already told.  Each loss counts once.
 */
static void lost_record(u32 type, u64 n, u32 cpu)
{
	struct perf_event_header *h = (void *)buf;
	u64 *w = (u64 *)(h + 1);
	size_t t = trailer(ST);
	u32 c[2] = { cpu, 0 };
	size_t body = type == PERF_RECORD_LOST ? 16 : 8;

	memset(buf, 0, 256);
	h->type = (u16)type;
	h->size = (u16)(8 + body + t);
	if (type == PERF_RECORD_LOST)
		w[1] = n;
	else
		w[0] = n;
	memcpy((u8 *)h + h->size - 8, c, 8);	/* trailer: tid, time, cpu */
	ck_assert_int_eq(session__process(s, h), 0);
}

START_TEST(test_lost_once)
{
	struct perf_event_attr a = attr(ST);
	struct snapshot snap;

	/* ptop's own sessions (no PERF_FORMAT_LOST): a full ring (LOST)
	 * and hardware losses (LOST_SAMPLES) are different losses */
	lost_record(PERF_RECORD_LOST, 10, 0);
	lost_record(PERF_RECORD_LOST_SAMPLES, 3, 1);
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.counts.lost, 10);
	ck_assert_uint_eq(snap.counts.lost_samples, 3);
	ck_assert_uint_eq(snap.lost, 13);
	snapshot__fini(&snap);

	/* a perf record file: its attrs have PERF_FORMAT_LOST */
	session__free(s);
	s = session__new(NULL);
	a.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	lost_record(PERF_RECORD_LOST, 1900, 0);
	lost_record(PERF_RECORD_LOST, 1947, 1);
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	/* a stream before the recorder's summary: the LOST records */
	ck_assert_uint_eq(snap.lost, 3847);
	/* the summary, per counter (perf 6.1 writes them with cpu 0), a
	 * little more than the LOST records said: the last losses had no
	 * later record to report them */
	lost_record(PERF_RECORD_LOST_SAMPLES, 1910, 0);
	lost_record(PERF_RECORD_LOST_SAMPLES, 1950, 0);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.counts.lost, 3847);
	ck_assert_uint_eq(snap.counts.lost_samples, 3860);
	ck_assert_uint_eq(snap.lost, 3860);
	snapshot__fini(&snap);
}
END_TEST

/* session__fold_reaped: with the default threshold, an exited process's
 * entries keep their pid; folding always, they are folded at the refresh
 * that reaps it (the soak's memory: a week of churn, a minute's cost). */
START_TEST(test_fold_reaped_always)
{
	struct session_opts o = { .key_fields = KEY_ALL };
	struct perf_event_attr a = attr(ST);
	struct snapshot snap;
	size_t t = trailer(ST);

	for (int always = 0; always < 2; always++) {
		session__free(s);
		s = session__new(&o);
		session__add_event(s, "cpu-clock", &a);
		session__fold_reaped(s, always, false);
		fake_machine(ST);
		sample(ST, 200, 0x401000, PERF_RECORD_MISC_USER, 1, 0, 0);
		sample(ST, 100, 0x401000, PERF_RECORD_MISC_USER, 1, 0, 0);
		session__process(s, fake_fork(buf, PERF_RECORD_EXIT, 200, 100,
					      200, 100, t));
		for (int i = 0; i < 3; i++)
			session__refresh(s, HIST_CUMULATIVE);
		snapshot__init(&snap);
		ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
		ck_assert_uint_eq(snap.nr, 2);
		for (size_t i = 0; i < snap.nr; i++) {
			const struct hist_entry *e = &snap.entries[i];

			if (strcmp(e->key.comm, "other") == 0)
				ck_assert_int_eq(e->key.pid, always ? -1 : 200);
			else
				ck_assert_int_eq(e->key.pid, 100);
		}
		snapshot__fini(&snap);
	}
}
END_TEST

/* session__fold_addrs's fake symbols: resolve()'s functions of
 * /usr/bin/fake, and a kernel function below 0xffffffff81001000; the
 * others unknown (not loaded). */
static int func_calls;

static bool func_of(void *ctx, const struct dso *d, u64 addr, u64 *start)
{
	struct row_sym rs;

	(void)ctx;
	func_calls++;
	if (d->kind == DSO_KERNEL && addr < 0xffffffff81001000ULL) {
		*start = 0xffffffff81000000ULL;
		return true;
	}
	if (resolve(NULL, d, addr, &rs) || !rs.name)
		return false;
	*start = rs.start;
	return true;
}

/* With session__fold_addrs, a reaped process's entries become one per
 * function (hist_key.whole), those fn does not know keep their
 * address (asked again at the next fold), a living process's keep
 * theirs; counts are kept. */
START_TEST(test_fold_addrs)
{
	struct session_opts o = { .key_fields = KEY_ALL };
	struct perf_event_attr a = attr(ST);
	struct snapshot snap;
	size_t t = trailer(ST);
	u64 whole_a = 0, whole_b = 0, whole_k = 0, kept = 0, live = 0;

	session__free(s);
	s = session__new(&o);
	session__add_event(s, "cpu-clock", &a);
	session__fold_reaped(s, true, true);
	session__fold_addrs(s, func_of, NULL);
	fake_machine(ST);
	/* main_a three times at three addresses, main_b, no function */
	sample(ST, 200, 0x401000, PERF_RECORD_MISC_USER, 1, 0, 0);
	sample(ST, 200, 0x401010, PERF_RECORD_MISC_USER, 1, 0, 0);
	sample(ST, 200, 0x401040, PERF_RECORD_MISC_USER, 2, 0, 0);
	sample(ST, 200, 0x401090, PERF_RECORD_MISC_USER, 1, 0, 0);
	sample(ST, 200, 0x401200, PERF_RECORD_MISC_USER, 1, 0, 0);
	sample(ST, 200, 0xffffffff81000100ULL, PERF_RECORD_MISC_KERNEL, 1, 0,
	       0);
	sample(ST, 200, 0xffffffff81000200ULL, PERF_RECORD_MISC_KERNEL, 1, 0,
	       0);
	sample(ST, 100, 0x401010, PERF_RECORD_MISC_USER, 1, 0, 0);
	session__refresh(s, HIST_CUMULATIVE);
	ck_assert_int_eq(func_calls, 0);	/* nothing reaped yet */
	session__process(s, fake_fork(buf, PERF_RECORD_EXIT, 200, 100, 200, 100,
				      t));
	for (int i = 0; i < 3; i++)
		session__refresh(s, HIST_CUMULATIVE);
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.total_samples, 8);
	ck_assert_uint_eq(snap.total_period, 9);
	ck_assert_uint_eq(snap.nr, 5);
	for (size_t i = 0; i < snap.nr; i++) {
		const struct hist_key *k = &snap.entries[i].key;
		u64 p = snap.entries[i].period;

		if (k->pid == 100) {
			ck_assert(!k->whole);
			ck_assert_uint_eq(k->addr, 0x1010);
			live += p;
			continue;
		}
		ck_assert_int_eq(k->pid, -1);
		ck_assert_str_eq(k->comm, "[exited]");
		if (!k->whole) {
			ck_assert_uint_eq(k->addr, 0x1200);
			kept += p;
		} else if (k->addr == 0x1000) {
			whole_a += p;
		} else if (k->addr == 0x1080) {
			whole_b += p;
		} else {
			ck_assert_uint_eq(k->addr, 0xffffffff81000000ULL);
			whole_k += p;
		}
	}
	ck_assert_uint_eq(whole_a, 4);
	ck_assert_uint_eq(whole_b, 1);
	ck_assert_uint_eq(whole_k, 2);
	ck_assert_uint_eq(kept, 1);
	ck_assert_uint_eq(live, 1);
	snapshot__fini(&snap);
	session__fold_addrs(s, NULL, NULL);
}
END_TEST

/* The hot entry of test_budget: main_a at 0x1010 called from 0x108f
 * (main_b), its chain's two nodes checked. */
static const struct hist_entry *hot_entry(const struct snapshot *snap)
{
	const struct hist_entry *hot = NULL;

	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_key *k = &snap->entries[i].key;

		if (k->chain && k->addr == 0x1010 && !k->whole) {
			ck_assert_ptr_null(hot);
			hot = &snap->entries[i];
		}
	}
	ck_assert_ptr_nonnull(hot);
	ck_assert_uint_lt(hot->key.chain, snap->nr_chains);
	ck_assert_uint_eq(snap->chains[hot->key.chain].addr, 0x1010);
	ck_assert_uint_eq(snap->chains[snap->chains[hot->key.chain].parent].addr,
			  0x108f);
	ck_assert_uint_eq(snap->chains[hot->key.chain].depth, 2);
	return hot;
}

/* The memory budget: past it, a refresh folds the cold entries (chain
 * dropped, address the function's start when fn knows it) and drops the
 * chain nodes no entry names, down to half of it; the hot entries keep
 * their addresses and chains, and new samples find them again (the
 * memo's leaves of the old ids are not used); no sample is lost. */
START_TEST(test_budget)
{
	u64 st = ST | PERF_SAMPLE_CALLCHAIN;
	struct perf_event_attr a = attr(st);
	struct session_opts o = { .key_fields = KEY_ALL };
	u64 hot[] = { (u64)PERF_CONTEXT_USER, 0x401010, 0x401090 };
	u64 chain[11] = { (u64)PERF_CONTEXT_USER };
	struct fake_sample fs = { .time = 1000, .period = 100, .ip = 0x401010,
				  .pid = 100, .tid = 100, .callchain = hot,
				  .nr_callchain = 3,
				  .misc = PERF_RECORD_MISC_USER };
	const struct session_counts *c;
	u64 whole_a = 0, whole_b = 0, whole_c = 0, kept = 0;
	struct snapshot snap;
	size_t full, budget;

	session__free(s);
	s = session__new(&o);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	fake_machine(st);
	for (int i = 0; i < 1000; i++)
		session__process(s, fake_sample(buf, st, &fs));
	/* 6,000 cold chains of ten frames, one sample each: their leaves in
	 * main_a, main_b, memcpy (libc, 0x1400 in the file) and at 0x1200
	 * (no function) */
	fs.callchain = chain;
	fs.nr_callchain = 11;
	for (u64 i = 0; i < 6000; i++) {
		static const u64 leaf[] = { 0x401020, 0x4010a0,
					    0x7f0000000410ULL, 0x401200 };

		chain[1] = fs.ip = leaf[i % 4] + (i / 4) % 16 * 4;
		for (u64 d = 2; d < 11; d++)
			chain[d] = 0x402000 + i * 9 + (d - 2);
		session__process(s, fake_sample(buf, st, &fs));
	}
	/* no budget: nothing folds */
	session__refresh(s, HIST_CUMULATIVE);
	full = session__bytes(s);
	c = session__counts(s);
	ck_assert_uint_eq(c->budget_folds, 0);
	/* under it: nothing folds either */
	session__set_budget(s, full, func_of, NULL);
	session__refresh(s, HIST_CUMULATIVE);
	ck_assert_uint_eq(c->budget_folds, 0);
	ck_assert_uint_eq(session__bytes(s), full);

	budget = full / 2;
	session__set_budget(s, budget, func_of, NULL);
	session__refresh(s, HIST_CUMULATIVE);
	ck_assert_uint_eq(c->budget_folds, 1);
	ck_assert_uint_le(session__bytes(s), budget / 2);
	/* every cold entry's key rewritten; the cold chains' nodes gone,
	 * the hot one's two kept (with the root) */
	ck_assert_uint_eq(c->budget_entries, 6000);
	ck_assert_uint_ge(c->budget_nodes, 6000 * 9);

	/* the hot chain again: the same entry */
	fs.callchain = hot;
	fs.nr_callchain = 3;
	fs.ip = 0x401010;
	session__process(s, fake_sample(buf, st, &fs));
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.total_samples, 7001);
	ck_assert_uint_eq(snap.total_period, 700100);
	ck_assert_uint_eq(snap.nr_chains, 3);
	ck_assert_uint_eq(hot_entry(&snap)->samples, 1001);
	for (size_t i = 0; i < snap.nr; i++) {
		const struct hist_key *k = &snap.entries[i].key;
		u64 n = snap.entries[i].samples;

		if (k->chain)
			continue;	/* the hot one */
		if (!k->whole) {
			/* no function there: the address stays */
			ck_assert_uint_ge(k->addr, 0x1200);
			ck_assert_uint_lt(k->addr, 0x1240);
			kept += n;
		} else if (k->addr == 0x1000) {
			whole_a += n;
		} else if (k->addr == 0x1080) {
			whole_b += n;
		} else {
			ck_assert_uint_eq(k->addr, 0x1400);
			whole_c += n;
		}
	}
	ck_assert_uint_eq(whole_a, 1500);
	ck_assert_uint_eq(whole_b, 1500);
	ck_assert_uint_eq(whole_c, 1500);
	ck_assert_uint_eq(kept, 1500);
	/* 1 hot, 3 functions, 16 addresses without one */
	ck_assert_uint_eq(snap.nr, 20);
	snapshot__fini(&snap);

	/* past it with nothing cold left: everything folds, still no
	 * sample lost, and the session holds together */
	session__set_budget(s, 1, NULL, NULL);
	session__refresh(s, HIST_CUMULATIVE);
	ck_assert_uint_eq(c->budget_folds, 2);
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.total_samples, 7001);
	ck_assert_uint_le(snap.nr_chains, 1);	/* the root at most */
	for (size_t i = 0; i < snap.nr; i++)
		ck_assert_uint_eq(snap.entries[i].key.chain, 0);
	snapshot__fini(&snap);
	session__process(s, fake_sample(buf, st, &fs));
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(hot_entry(&snap)->samples, 1);
	snapshot__fini(&snap);
}
END_TEST

/* The live source's cgroup reader: pid 100 in a.service, 200 in /b
 * until it exec'd (then /c), 0 the root; others unreadable (gone). */
static int cgroup_calls[4];
static bool exec_done;

static int cgroup_reader(void *ctx, s32 pid, char *b, size_t size)
{
	const char *path = NULL;

	(void)ctx;
	if (pid == 100)
		path = "/system.slice/a.service";
	else if (pid == 200)
		path = exec_done ? "/c" : "/b";
	else if (pid == 0)
		path = "/";
	cgroup_calls[pid == 100 ? 0 : pid == 200 ? 1 : pid == 0 ? 2 : 3]++;
	if (!path)
		return -ENOENT;
	snprintf(b, size, "%s", path);
	return (int)strlen(path);
}

static const struct session_source_ops cgroup_ops = {
	.cgroup = cgroup_reader,
};

static u64 row_samples(const struct rowset *rs, const char *cgroup)
{
	for (size_t i = 0; i < rs->nr; i++)
		if (cgroup ? rs->rows[i].cgroup &&
				     strcmp(rs->rows[i].cgroup, cgroup) == 0 :
			     !rs->rows[i].cgroup)
			return rs->rows[i].samples;
	return 0;
}

START_TEST(test_cgroup_live)
{
	struct rowset rs;
	struct snapshot snap;
	struct row_filter f = { .show_idle = true };
	size_t t = trailer(ST);

	memset(cgroup_calls, 0, sizeof(cgroup_calls));
	exec_done = false;
	session__set_source_ops(s, &cgroup_ops, NULL);
	feed_standard();
	/* once per process, however many samples */
	ck_assert_int_eq(cgroup_calls[0], 1);
	ck_assert_int_eq(cgroup_calls[1], 1);
	ck_assert_int_eq(cgroup_calls[2], 1);
	build(&rs, &snap, "cgroup", &f);
	ck_assert_uint_eq(rs.nr, 3);
	ck_assert_uint_eq(row_samples(&rs, "/system.slice/a.service"), 10);
	ck_assert_uint_eq(row_samples(&rs, "/b"), 1);
	ck_assert_uint_eq(row_samples(&rs, "/"), 2);
	rowset__fini(&rs);
	snapshot__fini(&snap);

	/* after an exec the cgroup is read again (a runtime moved it) */
	exec_done = true;
	session__process(s, fake_comm(buf, 200, 200, "newprog", true, t));
	sample(ST, 200, 0x7f0000000500ULL, PERF_RECORD_MISC_USER, 100, 1, 0);
	sample(ST, 200, 0x7f0000000500ULL, PERF_RECORD_MISC_USER, 100, 1, 0);
	ck_assert_int_eq(cgroup_calls[1], 2);
	/* a child takes its parent's when its own cannot be read */
	session__process(s, fake_fork(buf, PERF_RECORD_FORK, 300, 100, 300, 100, t));
	sample(ST, 300, 0x401000, PERF_RECORD_MISC_USER, 100, 1, 0);
	ck_assert_int_eq(cgroup_calls[3], 1);
	build(&rs, &snap, "cgroup", &f);
	ck_assert_uint_eq(row_samples(&rs, "/c"), 2);
	ck_assert_uint_eq(row_samples(&rs, "/system.slice/a.service"), 11);
	rowset__fini(&rs);
	snapshot__fini(&snap);

	/* the zoom: only a.service's samples */
	f.has_cgroup = true;
	f.cgroup = machine__cgroup_of(session__machine(s), 100);
	build(&rs, &snap, "comm,dso,sym", &f);
	ck_assert_uint_eq(rs.shown_samples, 11);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

/* A CGROUP record as perf record --all-cgroups writes it. */
static struct perf_event_header *cgroup_rec(u64 id, const char *path,
					    size_t tr)
{
	struct perf_event_header *h = (void *)buf;
	size_t n = strlen(path) + 1, pad = (n + 7) & ~(size_t)7;

	memset(buf, 0, 16 + pad + tr);
	h->type = PERF_RECORD_CGROUP;
	h->size = (u16)(16 + pad + tr);
	memcpy(h + 1, &id, 8);
	memcpy((u8 *)(h + 1) + 8, path, n);
	return h;
}

/* A sample of st (ST | PERF_SAMPLE_CGROUP) with its cgroup id last. */
static void cgroup_sample(u64 st, u32 pid, u64 ip, u64 cgroup)
{
	struct fake_sample fs = {
		.ip = ip, .pid = pid, .tid = pid, .time = 1000, .period = 1,
	};
	struct perf_event_header *h = fake_sample(buf, st & ~PERF_SAMPLE_CGROUP,
						  &fs);

	memcpy((u8 *)h + h->size, &cgroup, 8);
	h->size += 8;
	session__process(s, h);
}

START_TEST(test_cgroup_records)
{
	u64 st = ST | PERF_SAMPLE_CGROUP;
	struct perf_event_attr a = attr(st);
	struct session_opts o = { .key_fields = KEY_CGROUP };
	const char *docker = "/system.slice/docker-"
			     "0123456789abcdef0123456789abcdef"
			     "0123456789abcdef0123456789abcdef.scope";
	struct rowset rs;
	struct snapshot snap;

	session__free(s);
	s = session__new(&o);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	fake_machine(st);
	ck_assert_int_eq(session__process(s, cgroup_rec(1, "/", trailer(st))), 0);
	ck_assert_int_eq(session__process(s, cgroup_rec(4242, docker, trailer(st))), 0);
	for (int i = 0; i < 3; i++)
		cgroup_sample(st, 100, 0x401000, 4242);
	cgroup_sample(st, 200, 0x401000, 1);
	/* an id no record named: no cgroup (perf says "unknown") */
	cgroup_sample(st, 200, 0x401000, 77);
	/* a record shorter than its trailer is bad, and names nothing */
	ck_assert_int_eq(session__process(s, cgroup_rec(5, "/x", 0)), -EINVAL);
	cgroup_sample(st, 200, 0x401000, 5);
	build(&rs, &snap, "cgroup", NULL);
	ck_assert_uint_eq(row_samples(&rs, docker), 3);
	ck_assert_uint_eq(row_samples(&rs, "/"), 1);
	ck_assert_uint_eq(row_samples(&rs, NULL), 2);
	ck_assert_uint_eq(rs.nr, 3);
	ck_assert_uint_eq(session__counts(s)->by_type[PERF_RECORD_CGROUP], 3);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

Suite *session_suite(void)
{
	Suite *ss = suite_create("session");
	TCase *tc = tcase_create("session");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_dso_sym_table);
	tcase_add_test(tc, test_other_sorts_and_filters);
	tcase_add_test(tc, test_invert_and_order);
	tcase_add_test(tc, test_two_events_by_id);
	tcase_add_test(tc, test_mmap2_carrier);
	tcase_add_test(tc, test_lost_throttle_unknown_bad);
	tcase_add_test(tc, test_time_and_zero_modes);
	tcase_add_test(tc, test_unknown_pid_hook);
	tcase_add_test(tc, test_dso_hook);
	tcase_add_test(tc, test_source_ops_replaced);
	tcase_add_test(tc, test_exec_and_fold);
	tcase_add_test(tc, test_idle);
	tcase_add_test(tc, test_idle_without_pid_key);
	tcase_add_test(tc, test_idle_chains);
	tcase_add_test(tc, test_chain_memo);
	tcase_add_test(tc, test_fixer);
	tcase_add_test(tc, test_bytes);
	tcase_add_test(tc, test_lost_once);
	tcase_add_test(tc, test_fold_reaped_always);
	tcase_add_test(tc, test_fold_addrs);
	tcase_add_test(tc, test_budget);
	tcase_add_test(tc, test_cgroup_live);
	tcase_add_test(tc, test_cgroup_records);
	suite_add_tcase(ss, tc);
	return ss;
}
