/* check_offcpu: off-CPU time (--off-cpu): the pure wait table, and the
 * session charging waits from sched_switch samples and SWITCH records
 * (byte images). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/offcpu.h"
#include "src/core/record.h"
#include "src/core/session.h"
#include "tests/testutil.h"

struct charged {
	u64 ns[8];
	u32 tid[8];
	size_t n;
};

static void got(void *ctx, const struct offcpu_wait *w)
{
	struct charged *c = ctx;

	ck_assert_uint_lt(c->n, 8);
	c->ns[c->n] = w->ns;
	c->tid[c->n++] = (u32)w->key.tid;
}

static size_t two_frames(void *ctx, u32 chain, struct offcpu_frame *out,
			 size_t max)
{
	(void)ctx;
	ck_assert_uint_eq(chain, 77);
	ck_assert_uint_ge(max, 2);
	out[0] = (struct offcpu_frame){ NULL, 0x10 };
	out[1] = (struct offcpu_frame){ NULL, 0x20 };
	return 2;
}

START_TEST(test_waits)
{
	struct offcpu *o = offcpu__new();
	struct hist_key k = { .tid = 5, .chain = 77 };
	struct offcpu_wait w;
	struct charged c = { 0 };

	ck_assert_ptr_nonnull(o);
	/* out at 100, back at 350: 250 ns, with its chain */
	ck_assert_int_eq(offcpu__out(o, 5, 100, &k, 1, 'S'), 0);
	ck_assert_uint_eq(offcpu__nr_waiting(o), 1);
	ck_assert(offcpu__in(o, 5, 350, &w));
	ck_assert_uint_eq(w.ns, 250);
	ck_assert_uint_eq(w.key.chain, 77);
	ck_assert_uint_eq(w.nr_frames, 0);
	ck_assert_int_eq(w.cpu, 1);
	ck_assert_int_eq(w.state, 'S');
	/* the chains reset while it waits: its frames are kept */
	ck_assert_int_eq(offcpu__out(o, 5, 360, &k, 1, 0), 0);
	ck_assert_int_eq(offcpu__keep_frames(o, two_frames, NULL), 0);
	ck_assert(offcpu__in(o, 5, 370, &w));
	ck_assert_uint_eq(w.key.chain, 0);
	ck_assert_uint_eq(w.nr_frames, 2);
	ck_assert_uint_eq(w.frames[1].addr, 0x20);
	ck_assert_uint_eq(offcpu__nr_waiting(o), 0);
	/* back twice: once */
	ck_assert(!offcpu__in(o, 5, 400, &w));
	/* never out */
	ck_assert(!offcpu__in(o, 6, 400, &w));
	/* preempted: not a wait, but time away (flagged) */
	ck_assert_int_eq(offcpu__out(o, 5, 500, &k, 0, 'S'), 0);
	offcpu__preempted(o, 5);
	ck_assert(offcpu__in(o, 5, 900, &w));
	ck_assert(w.preempted);
	ck_assert_int_eq(w.state, 'R');
	ck_assert_uint_eq(w.ns, 400);
	/* still waiting at a refresh: charged up to it, then the rest */
	ck_assert_int_eq(offcpu__out(o, 5, 1000, &k, 0, 'D'), 0);
	k.tid = 8;
	ck_assert_int_eq(offcpu__out(o, 8, 1200, &k, 0, 'S'), 0);
	offcpu__charge(o, 1500, got, &c);
	ck_assert_uint_eq(c.n, 2);
	ck_assert_uint_eq(c.ns[0] + c.ns[1], 500 + 300);
	offcpu__charge(o, 1500, got, &c);	/* nothing new */
	ck_assert_uint_eq(c.n, 2);
	offcpu__charge(o, 1400, got, &c);	/* an older clock */
	ck_assert_uint_eq(c.n, 2);
	ck_assert(offcpu__in(o, 5, 1600, &w));
	ck_assert_uint_eq(w.ns, 100);
	ck_assert(!w.preempted);
	ck_assert_int_eq(w.state, 'D');
	/* switched out runnable (a yield): not a wait either */
	ck_assert_int_eq(offcpu__out(o, 5, 1650, &k, 0, 'R'), 0);
	ck_assert(offcpu__in(o, 5, 1660, &w));
	ck_assert(w.preempted);
	/* records lost: no wait is known to go on */
	k.tid = 9;
	ck_assert_int_eq(offcpu__out(o, 9, 1700, &k, 0, 'S'), 0);
	offcpu__forget_all(o);
	ck_assert_uint_eq(offcpu__nr_waiting(o), 0);	/* 8 and 9 */
	ck_assert(!offcpu__in(o, 9, 1800, &w));
	ck_assert_int_eq(offcpu__out(o, 9, 1900, &k, 0, 'S'), 0);
	ck_assert(offcpu__in(o, 9, 2000, &w));	/* a new wait counts */
	/* a thread that exits is forgotten */
	offcpu__exit(o, 8);
	ck_assert_uint_eq(offcpu__nr_waiting(o), 0);
	ck_assert(!offcpu__in(o, 8, 2000, &w));
	offcpu__exit(o, 999);
	offcpu__free(o);
	offcpu__free(NULL);
}
END_TEST

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |      \
	    PERF_SAMPLE_CALLCHAIN)
#define SW_ID 42

static u64 buf[8192];

/* A PERF_RECORD_SWITCH of tid at time: its sample_id trailer (tid, time,
 * cpu, identifier) and nothing else. */
static struct perf_event_header *fake_switch(u16 misc, u32 tid, u64 time)
{
	struct perf_event_header *h = (struct perf_event_header *)buf;
	u64 *w = (u64 *)(h + 1);
	u32 pt[2] = { tid, tid };

	memcpy(&w[0], pt, 8);
	w[1] = time;
	w[2] = 0;	/* cpu 0 */
	w[3] = SW_ID;
	h->type = PERF_RECORD_SWITCH;
	h->misc = misc;
	h->size = sizeof(*h) + 4 * 8;
	return h;
}

/* sched_switch's sample of tid at time: in the kernel, called from the
 * user function at 0x401040 (pid 10's /bin/w at 0x400000). */
static void switch_out(struct session *s, u32 tid, u64 time)
{
	u64 chain[] = { (u64)PERF_CONTEXT_KERNEL, 0xffffffff81001000ULL,
			(u64)PERF_CONTEXT_USER, 0x401040, 0x401211 };
	struct fake_sample fs = { .id = SW_ID, .pid = 10, .tid = tid,
				  .time = time, .period = 1,
				  .ip = 0xffffffff81001000ULL,
				  .misc = PERF_RECORD_MISC_KERNEL,
				  .callchain = chain, .nr_callchain = 5 };

	ck_assert_int_eq(session__process(s, fake_sample(buf, ST, &fs)), 0);
}

static u64 period_of(struct session *s, size_t ev, u64 *samples, bool chains)
{
	struct snapshot snap;
	u64 p;

	snapshot__init(&snap);
	ck_assert_int_eq(session__snapshot(s, ev, &snap), 0);
	p = snap.total_period;
	*samples = snap.total_samples;
	for (size_t i = 0; chains && i < snap.nr; i++)	/* with their chain */
		ck_assert_uint_ne(snap.entries[i].key.chain, 0);
	snapshot__fini(&snap);
	return p;
}

static u64 offcpu_period(struct session *s, size_t ev, u64 *samples)
{
	return period_of(s, ev, samples, true);
}

/* A session with sched_switch (event 0, id SW_ID, switch records);
 * *a its attr. */
static struct session *switch_session(struct perf_event_attr *a)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct session *s = session__new(&so);

	ck_assert_ptr_nonnull(s);
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_TRACEPOINT;
	a->sample_type = ST;
	a->sample_id_all = 1;
	a->context_switch = 1;
	ck_assert_int_eq(session__add_event(s, "sched:sched_switch", a), 0);
	ck_assert_int_eq(session__add_id(s, 0, SW_ID), 0);
	return s;
}

START_TEST(test_session)
{
	struct perf_event_attr a;
	struct session *s = switch_session(&a);
	size_t t = record__id_trailer_size(ST, true);
	u64 n;
	int dst;

	/* without --off-cpu a SWITCH record is not used */
	session__process(s, fake_switch(0, 11, 10));
	ck_assert_uint_eq(session__counts(s)->unknown_type, 1);
	dst = session__add_offcpu(s, 0, "off-cpu");
	ck_assert_int_eq(dst, 1);
	ck_assert_int_eq(session__add_offcpu(s, 0, "again"), -EINVAL);
	ck_assert(session__event_is_time(s, 1));
	ck_assert(!session__event_is_time(s, 0));
	session__process(s, fake_comm(buf, 10, 10, "w", false, t));
	session__process(s, fake_mmap2(buf, 10, 0x400000, 0x10000, 0, "/bin/w",
				       NULL, 0, t));

	/* out at 1000, back at 5000: 4000 ns to the sample's chain */
	switch_out(s, 11, 1000);
	session__process(s, fake_switch(PERF_RECORD_MISC_SWITCH_OUT, 11, 1001));
	session__process(s, fake_switch(0, 11, 5000));
	ck_assert_uint_eq(offcpu_period(s, 1, &n), 4000);
	ck_assert_uint_eq(n, 1);
	/* the sched_switch event counts its samples as ever */
	ck_assert_uint_eq(offcpu_period(s, 0, &n), 1);
	/* preempted (SWITCH_OUT_PREEMPT): not a wait */
	switch_out(s, 11, 6000);
	session__process(s, fake_switch(PERF_RECORD_MISC_SWITCH_OUT |
					PERF_RECORD_MISC_SWITCH_OUT_PREEMPT,
					11, 6001));
	session__process(s, fake_switch(0, 11, 9000));
	ck_assert_uint_eq(offcpu_period(s, 1, &n), 4000);
	/* still away at a snapshot: up to the live clock, then the rest
	 * when it is back */
	switch_out(s, 11, 10000);
	session__set_clock(s, 15000);
	ck_assert_uint_eq(offcpu_period(s, 1, &n), 9000);
	session__process(s, fake_switch(0, 11, 16000));
	ck_assert_uint_eq(offcpu_period(s, 1, &n), 10000);
	ck_assert_uint_eq(n, 3);
	/* chains reset (-z) between out and in: the wait keeps its frames */
	switch_out(s, 12, 20000);
	session__refresh(s, HIST_ZERO);
	session__process(s, fake_switch(0, 12, 20500));
	ck_assert_uint_eq(offcpu_period(s, 1, &n), 500);
	/* an exit forgets a waiting thread */
	switch_out(s, 13, 30000);
	session__process(s, fake_fork(buf, PERF_RECORD_EXIT, 10, 10, 13, 13, t));
	session__set_clock(s, 40000);
	ck_assert_uint_eq(offcpu_period(s, 1, &n), 500);
	session__free(s);
}
END_TEST

/* --wall: the on-CPU event's samples and every wait, preemptions too. */
START_TEST(test_wall)
{
	struct perf_event_attr a;
	struct session *s = switch_session(&a);
	struct fake_sample fs = { .id = 43, .pid = 10, .tid = 11, .time = 500,
				  .period = 250000, .ip = 0x401040,
				  .misc = PERF_RECORD_MISC_USER };
	size_t t = record__id_trailer_size(ST, true);
	u64 n;

	a.type = PERF_TYPE_SOFTWARE;
	a.context_switch = 0;
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 1);
	ck_assert_int_eq(session__add_id(s, 1, 43), 0);
	ck_assert_int_eq(session__add_wall(s, 1, "wall"), -EINVAL);
	ck_assert_int_eq(session__add_offcpu(s, 0, "off-cpu"), 2);
	ck_assert_int_eq(session__add_wall(s, 1, "wall"), 3);
	ck_assert(session__event_is_wall(s, 3));
	ck_assert(session__event_is_time(s, 3));
	ck_assert(!session__event_is_wall(s, 2));
	ck_assert(session__event_is_derived(s, 2) && session__event_is_derived(s, 3));
	ck_assert(!session__event_is_derived(s, 1));
	/* perf record --off-cpu's event: periods in ns, recorded */
	ck_assert_int_eq(session__add_event(s, "offcpu-time", &a), 4);
	ck_assert(session__event_is_time(s, 4));
	ck_assert(!session__event_is_derived(s, 4));
	session__process(s, fake_comm(buf, 10, 10, "w", false, t));
	session__process(s, fake_mmap2(buf, 10, 0x400000, 0x10000, 0, "/bin/w",
				       NULL, 0, t));
	/* 250 us on CPU, 4000 ns waiting, 3000 ns preempted */
	ck_assert_int_eq(session__process(s, fake_sample(buf, ST, &fs)), 0);
	switch_out(s, 11, 1000);
	session__process(s, fake_switch(0, 11, 5000));
	switch_out(s, 11, 6000);
	session__process(s, fake_switch(PERF_RECORD_MISC_SWITCH_OUT |
					PERF_RECORD_MISC_SWITCH_OUT_PREEMPT,
					11, 6001));
	session__process(s, fake_switch(0, 11, 9000));
	ck_assert_uint_eq(offcpu_period(s, 2, &n), 4000);
	ck_assert_uint_eq(period_of(s, 3, &n, false), 250000 + 4000 + 3000);
	ck_assert_uint_eq(n, 3);
	session__free(s);
}
END_TEST

/* This kernel's format of sched_switch (6.x, 64-bit). */
static const char switch_format[] =
	"name: sched_switch\nID: 372\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s\", "
	"REC->prev_state & 0x100 ? \"+\" : \"\"\n";

/* The thread state at a switch-out: the letters of sched_switch's
 * prev_state, and where its format puts it. */
START_TEST(test_state_field)
{
	static const char other[] =
		"name: sched_wakeup\nID: 370\nformat:\n"
		"\tfield:long prev_state;\toffset:99;\tsize:8;\tsigned:1;\n"
		"\nprint fmt: \"x\"\n";
	char blob[4096], bad[sizeof(switch_format)];
	size_t n = 0;
	u32 off = 0, size = 0;
	char *p;

	ck_assert_int_eq(offcpu__state_of(0), 'R');
	ck_assert_int_eq(offcpu__state_of(1), 'S');
	ck_assert_int_eq(offcpu__state_of(2), 'D');
	ck_assert_int_eq(offcpu__state_of(4), 'T');
	ck_assert_int_eq(offcpu__state_of(0x80), 'I');
	ck_assert_int_eq(offcpu__state_of(0x100), 'R');	/* preempted */
	ck_assert_str_eq(offcpu__state_name('D'), "disk sleep");
	ck_assert_str_eq(offcpu__state_name(0), "running");
	ck_assert_str_eq(offcpu__state_name('?'), "unknown");
	/* the format file */
	ck_assert_int_eq(offcpu__state_field(switch_format,
					     strlen(switch_format), &off,
					     &size), 0);
	ck_assert_uint_eq(off, 32);
	ck_assert_uint_eq(size, 8);
	/* tracing data: binary, another event's field first */
	memset(blob, 0xff, sizeof(blob));
	n = 17;
	memcpy(blob + n, other, strlen(other));
	n += strlen(other) + 9;
	memcpy(blob + n, switch_format, strlen(switch_format));
	n += strlen(switch_format) + 5;
	off = size = 0;
	ck_assert_int_eq(offcpu__state_field(blob, n, &off, &size), 0);
	ck_assert_uint_eq(off, 32);
	/* cut before the field, an odd size, no sched_switch: none */
	ck_assert_int_eq(offcpu__state_field(switch_format, 400, &off, &size),
			 -ENOENT);
	memcpy(bad, switch_format, sizeof(bad));
	p = strstr(bad, "size:8;\tsigned:1;\n\tfield:char next");
	ck_assert_ptr_nonnull(p);
	p[5] = '2';
	ck_assert_int_eq(offcpu__state_field(bad, strlen(bad), &off, &size),
			 -ENOENT);
	ck_assert_int_eq(offcpu__state_field(other, strlen(other), &off,
					     &size), -ENOENT);
	ck_assert_int_eq(offcpu__state_field("", 0, &off, &size), -ENOENT);
}
END_TEST

/* sched_switch's raw data with prev_state (offset 32, 8 bytes). */
static void switch_out_state(struct session *s, u32 tid, u64 time,
			     u64 prev_state)
{
	u64 chain[] = { (u64)PERF_CONTEXT_KERNEL, 0xffffffff81001000ULL,
			(u64)PERF_CONTEXT_USER, 0x401040, 0x401211 };
	u8 raw[64] = { 0 };
	struct fake_sample fs = { .id = SW_ID, .pid = 10, .tid = tid,
				  .time = time, .period = 1,
				  .ip = 0xffffffff81001000ULL,
				  .misc = PERF_RECORD_MISC_KERNEL,
				  .callchain = chain, .nr_callchain = 5,
				  .raw = raw, .raw_size = sizeof(raw) };

	memcpy(raw + 32, &prev_state, 8);
	ck_assert_int_eq(session__process(s, fake_sample(buf,
							 ST | PERF_SAMPLE_RAW,
							 &fs)), 0);
}

/* Each wait's state in its key (KEY_STATE): D and S apart, a yield (R)
 * not charged; without the format's field, '?'. */
START_TEST(test_session_state)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct perf_event_attr a = { .type = PERF_TYPE_TRACEPOINT,
				     .sample_type = ST | PERF_SAMPLE_RAW,
				     .sample_id_all = 1, .context_switch = 1 };
	size_t t = record__id_trailer_size(a.sample_type, true);
	struct snapshot snap;
	u64 ns[256] = { 0 };

	for (int known = 1; known >= 0; known--) {
		struct session *s = session__new(&so);

		ck_assert_ptr_nonnull(s);
		ck_assert_int_eq(session__add_event(s, "sched:sched_switch",
						    &a), 0);
		ck_assert_int_eq(session__add_id(s, 0, SW_ID), 0);
		ck_assert_int_eq(session__add_offcpu(s, 0, "off-cpu"), 1);
		if (known)
			session__set_switch_state(s, 32, 8);
		session__process(s, fake_comm(buf, 10, 10, "w", false, t));
		switch_out_state(s, 11, 1000, 2);	/* D: 400 ns */
		session__process(s, fake_switch(0, 11, 1400));
		switch_out_state(s, 11, 2000, 1);	/* S: 300 ns */
		session__process(s, fake_switch(0, 11, 2300));
		switch_out_state(s, 11, 3000, 0);	/* R: a yield */
		session__process(s, fake_switch(0, 11, 3900));
		snapshot__init(&snap);
		ck_assert_int_eq(session__snapshot(s, 1, &snap), 0);
		memset(ns, 0, sizeof(ns));
		for (size_t i = 0; i < snap.nr; i++)
			ns[snap.entries[i].key.state] += snap.entries[i].period;
		if (known) {
			ck_assert_uint_eq(ns['D'], 400);
			ck_assert_uint_eq(ns['S'], 300);
			ck_assert_uint_eq(snap.total_period, 700);
		} else {
			/* unknown states: every switch-out is a wait */
			ck_assert_uint_eq(ns['?'], 1600);
			ck_assert_uint_eq(snap.total_period, 1600);
		}
		snapshot__fini(&snap);
		session__free(s);
	}
}
END_TEST

Suite *offcpu_suite(void)
{
	Suite *ss = suite_create("offcpu");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_waits);
	tcase_add_test(tc, test_session);
	tcase_add_test(tc, test_wall);
	tcase_add_test(tc, test_state_field);
	tcase_add_test(tc, test_session_state);
	suite_add_tcase(ss, tc);
	return ss;
}
