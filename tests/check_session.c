/* Tests of the session and the rows derived from it, perf hists-test
 * style: fake records on a fake machine, the expected table next to the
 * input. */
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "rowset.h"
#include "session.h"
#include "testutil.h"

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

static void build(struct rowset *rs, struct snapshot *snap, const char *sort,
		  const struct row_filter *f)
{
	struct sort_spec spec;
	struct strbuf err;

	strbuf__init(&err);
	ck_assert_int_eq(sort_spec__parse(sort, &spec, &err), 0);
	strbuf__fini(&err);
	snapshot__init(snap);
	ck_assert_int_eq(session__snapshot(s, 0, snap), 0);
	rowset__init(rs);
	ck_assert_int_eq(rowset__build(rs, snap, &spec, f, resolve, NULL), 0);
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
	struct rowset rs;
	struct snapshot snap;

	feed_standard();
	build(&rs, &snap, "dso,sym", NULL);
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
	struct row_filter f = { 0 };
	struct rowset rs;
	struct snapshot snap;

	feed_standard();
	build(&rs, &snap, "comm", NULL);
	ck_assert_uint_eq(rs.nr, 3);
	ck_assert_str_eq(rs.rows[0].comm, "fake");
	ck_assert_uint_eq(rs.rows[0].samples, 10);
	ck_assert_str_eq(rs.rows[1].comm, "swapper");
	ck_assert_str_eq(rs.rows[2].comm, "other");
	rowset__fini(&rs);
	snapshot__fini(&snap);

	build(&rs, &snap, "cpu", NULL);
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
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	rowset__init(&rs);
	ck_assert_int_eq(rowset__build(&rs, &snap, &spec, NULL, resolve, NULL), 0);
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

static void on_unknown(struct session *ss, s32 pid, void *ctx)
{
	size_t t = trailer(ST);

	(void)ctx;
	asked_pid = pid;
	/* what a live source does: synthesize and feed back */
	session__process(ss, fake_comm(buf, (u32)pid, (u32)pid, "late", false, t));
	session__process(ss, fake_mmap2(buf, (u32)pid, 0x400000, 0x10000, 0,
					"/usr/bin/fake", bid_bin, 20, t));
}

START_TEST(test_unknown_pid_hook)
{
	struct rowset rs;
	struct snapshot snap;

	session__set_unknown_pid(s, on_unknown, NULL);
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
	/* pid 200 execs: the old maps are gone */
	session__process(s, fake_comm(buf, 200, 200, "newprog", true, t));
	sample(ST, 200, 0x401000, PERF_RECORD_MISC_USER, 1, 0, 0);
	sample(ST, 100, 0x401000, PERF_RECORD_MISC_USER, 1, 0, 0);
	session__process(s, fake_fork(buf, PERF_RECORD_EXIT, 200, 100, 200, 100, t));
	for (int i = 0; i < 3; i++)
		session__refresh(s, HIST_CUMULATIVE);
	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, 0, &snap), 0);
	ck_assert_uint_eq(snap.nr, 3);
	for (size_t i = 0; i < snap.nr; i++) {
		const struct hist_entry *e = &snap.entries[i];

		if (e->key.dso->kind == DSO_UNKNOWN) {
			/* the sample after exec had no map; folded */
			ck_assert_int_eq(e->key.pid, -1);
			ck_assert_str_eq(e->key.comm, "newprog");
		} else if (strcmp(e->key.comm, "other") == 0) {
			ck_assert_int_eq(e->key.pid, -1);
		} else {
			ck_assert_int_eq(e->key.pid, 100);
		}
	}
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

Suite *session_suite(void)
{
	Suite *ss = suite_create("session");
	TCase *tc = tcase_create("session");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_dso_sym_table);
	tcase_add_test(tc, test_other_sorts_and_filters);
	tcase_add_test(tc, test_invert_and_order);
	tcase_add_test(tc, test_two_events_by_id);
	tcase_add_test(tc, test_lost_throttle_unknown_bad);
	tcase_add_test(tc, test_time_and_zero_modes);
	tcase_add_test(tc, test_unknown_pid_hook);
	tcase_add_test(tc, test_exec_and_fold);
	tcase_add_test(tc, test_fold_reaped_always);
	suite_add_tcase(ss, tc);
	return ss;
}
