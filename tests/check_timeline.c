/* Tests of the timeline: takes in every refresh mode, merges, windows,
 * the budget, and a fake clock through seven days of refreshes. */
#include <stdlib.h>
#include <string.h>

#include "src/core/record.h"
#include "src/core/timeline.h"
#include "ui/report/table.h"
#include "tests/testutil.h"

static u64 buf[8192];
static struct session *s;
static struct timeline *tl;

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
#define STG (ST | PERF_SAMPLE_CALLCHAIN)

static size_t trailer(u64 st)
{
	return record__id_trailer_size(st, true);
}

static void new_session(u64 st, unsigned int fields)
{
	struct session_opts o = { .key_fields = fields };
	struct perf_event_attr a;
	size_t t = trailer(st);

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_type = st;
	a.sample_id_all = 1;
	session__free(s);
	s = session__new(&o);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
	/* pid 100 "fake": /usr/bin/fake at 0x400000 */
	ck_assert_int_eq(session__process(s, fake_comm(buf, 100, 100, "fake",
						       false, t)), 0);
	ck_assert_int_eq(session__process(s, fake_mmap2(buf, 100, 0x400000,
							0x10000, 0,
							"/usr/bin/fake", NULL,
							0, t)), 0);
}

static void sample_at(u64 st, u32 pid, u64 ip, u64 time, u64 n,
		      const u64 *chain, u64 nr_chain)
{
	for (u64 i = 0; i < n; i++) {
		struct fake_sample fs = {
			.ip = ip, .pid = pid, .tid = pid, .time = time,
			.period = 1000, .misc = PERF_RECORD_MISC_USER,
			.callchain = chain, .nr_callchain = nr_chain,
		};

		ck_assert_int_eq(session__process(s, fake_sample(buf, st, &fs)), 0);
	}
}

static void setup(void)
{
	s = NULL;
	tl = timeline__new(NULL);
	ck_assert_ptr_nonnull(tl);
}

static void teardown(void)
{
	timeline__free(tl);
	session__free(s);
}

/* The samples of address ip (the file offset in /usr/bin/fake) in
 * cells [c0, c1), whatever their other key fields. */
static u64 window_of(size_t c0, size_t c1, u64 off)
{
	struct hist_entry *e = NULL;
	size_t cap = 0;
	long n = timeline__sum(tl, 0, c0, c1, &e, &cap);
	u64 sum = 0;

	ck_assert_int_ge(n, 0);
	for (long i = 0; i < n; i++)
		if (e[i].key.addr == off && e[i].key.dso->kind == DSO_FILE)
			sum += e[i].samples;
	free(e);
	return sum;
}

/* A refresh as table__snapshot makes it: the take, then the mode. */
static void refresh(u64 fine, enum hist_mode mode)
{
	session__lock(s);
	ck_assert_int_eq(timeline__take(tl, s, fine), 0);
	session__refresh(s, mode);
	session__unlock(s);
	ck_assert_int_eq(timeline__check(tl), 0);
}

/* Each cell holds what came between its take and the one before, in
 * every mode: cumulative, -z (the histogram zeroed), decay (the
 * histogram decayed: the cells keep what came, not what is left). */
START_TEST(test_modes)
{
	static const enum hist_mode modes[] = { HIST_CUMULATIVE, HIST_ZERO,
						HIST_DECAY };

	for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
		struct timeline_totals tot;

		timeline__free(tl);
		tl = timeline__new(NULL);
		new_session(ST, KEY_ALL);
		for (u64 r = 0; r < 10; r++) {
			sample_at(ST, 100, 0x401000, 1000 + r, 5 + r, NULL, 0);
			sample_at(ST, 100, 0x401080, 1000 + r, r % 3, NULL, 0);
			refresh(r, modes[m]);
		}
		ck_assert_uint_eq(timeline__nr_cells(tl), 10);
		for (size_t c = 0; c < 10; c++) {
			ck_assert_uint_eq(window_of(c, c + 1, 0x1000), 5 + c);
			ck_assert_uint_eq(window_of(c, c + 1, 0x1080), c % 3);
			timeline__cell_totals(tl, c, 0, &tot);
			ck_assert_uint_eq(tot.samples, 5 + c + c % 3);
			ck_assert_uint_eq(tot.period, 1000 * (5 + c + c % 3));
		}
		ck_assert_uint_eq(window_of(2, 5, 0x1000), 7 + 8 + 9);
		ck_assert_uint_eq(window_of(0, 10, 0x1080),
				  0 + 1 + 2 + 0 + 1 + 2 + 0 + 1 + 2 + 0);
	}
}
END_TEST

/* The live view's b and p zero the session between two snapshots
 * (table__zero_session): the timeline takes what came since the last
 * snapshot first, so that its cells still hold every sample. */
START_TEST(test_zero_between_snapshots)
{
	struct sort_spec spec;
	struct table t;

	new_session(ST, KEY_ALL);
	sort_spec__default(&spec);
	table__init(&t, s, NULL, &spec);
	t.tl = tl;
	sample_at(ST, 100, 0x401000, 1000, 4, NULL, 0);
	ck_assert_int_eq(table__snapshot(&t, HIST_CUMULATIVE), 0);
	sample_at(ST, 100, 0x401000, 1001, 3, NULL, 0);
	table__zero_session(&t);	/* b: the mark */
	sample_at(ST, 100, 0x401000, 1002, 2, NULL, 0);
	ck_assert_int_eq(table__snapshot(&t, HIST_CUMULATIVE), 0);
	ck_assert_int_eq(timeline__check(tl), 0);
	/* 4, then 3 (taken at the zero), then 2 */
	ck_assert_uint_eq(window_of(0, timeline__nr_cells(tl), 0x1000), 9);
	ck_assert_uint_eq(window_of(0, 1, 0x1000), 4);
	/* the table counts from the mark */
	ck_assert_uint_eq(table__live_snap(&t, 0)->total_samples, 2);
	t.tl = NULL;
	table__fini(&t);
}
END_TEST

/* Past max_cells, neighbours merge two by two: cells hold 2^k units and
 * windows stay exact; a take with nothing new makes an empty cell. */
START_TEST(test_merge)
{
	struct timeline_opts o = { .max_cells = 8 };

	timeline__free(tl);
	tl = timeline__new(&o);
	new_session(ST, KEY_ALL);
	for (u64 r = 0; r < 37; r++) {
		sample_at(ST, 100, 0x401000, 1000 + r, r, NULL, 0);
		refresh(r, HIST_CUMULATIVE);
	}
	/* 37 units in at most 8 cells: 8 units a cell, cells 0..4 */
	ck_assert_uint_eq(timeline__cell_units(tl), 8);
	ck_assert_uint_eq(timeline__nr_cells(tl), 5);
	for (size_t c = 0; c < 5; c++) {
		u64 want = 0;

		for (u64 r = c * 8; r < MIN((c + 1) * 8, 37); r++)
			want += r;
		ck_assert_uint_eq(window_of(c, c + 1, 0x1000), want);
	}
	ck_assert_uint_eq(window_of(0, 5, 0x1000), 36 * 37 / 2);
}
END_TEST

/* Call chains: the timeline keeps its own, so -z (which resets the
 * session's) leaves the windows' chains whole. */
START_TEST(test_chains)
{
	u64 a[] = { PERF_CONTEXT_USER, 0x401000, 0x402005, 0x403005 };
	u64 b[] = { PERF_CONTEXT_USER, 0x401010, 0x404005, 0x403005 };
	struct snapshot snap;

	new_session(STG, KEY_ALL);
	sample_at(STG, 100, 0x401000, 1000, 3, a, ARRAY_SIZE(a));
	refresh(0, HIST_ZERO);
	sample_at(STG, 100, 0x401010, 2000, 2, b, ARRAY_SIZE(b));
	refresh(1, HIST_ZERO);
	snapshot__init(&snap);
	ck_assert_int_eq(timeline__window(tl, 0, 0, 2, NULL, &snap), 0);
	ck_assert_uint_eq(snap.nr, 2);
	ck_assert_uint_eq(snap.total_samples, 5);
	ck_assert_ptr_eq(snap.chains_owner, tl);
	for (size_t i = 0; i < snap.nr; i++) {
		const struct hist_entry *e = &snap.entries[i];
		const struct cc_node *leaf, *mid, *root;

		ck_assert_uint_lt(e->key.chain, snap.nr_chains);
		leaf = &snap.chains[e->key.chain];
		mid = &snap.chains[leaf->parent];
		root = &snap.chains[mid->parent];
		ck_assert_uint_eq(root->parent, 0);
		/* return addresses are kept minus one */
		ck_assert_uint_eq(root->addr, 0x3004);
		ck_assert_uint_eq(mid->addr, e->key.addr == 0x1000 ? 0x2004 :
								     0x4004);
		ck_assert_uint_eq(e->samples, e->key.addr == 0x1000 ? 3 : 2);
	}
	snapshot__fini(&snap);
}
END_TEST

/* A recording's grid: cells of w ns from the first sample, marks before
 * each record; a gap leaves empty cells; spans are the grid's. */
START_TEST(test_grid)
{
	u64 next = 0;
	u64 t0 = 5000000000ULL, w = 1000000000ULL, cs, ce;
	static const u64 at[] = { 0, 100, 999, 1000, 2500, 5000, 5001 };

	new_session(ST, KEY_ALL);
	timeline__set_grid(tl, 0, w);
	for (size_t i = 0; i < ARRAY_SIZE(at); i++) {
		u64 t = t0 + at[i] * 1000000;

		session__lock(s);
		if (t >= next)
			next = timeline__mark(tl, s, t);
		session__unlock(s);
		sample_at(ST, 100, 0x401000, t, 1, NULL, 0);
	}
	session__lock(s);
	ck_assert_int_eq(timeline__take_now(tl, s), 0);
	session__unlock(s);
	ck_assert_uint_eq(timeline__nr_cells(tl), 6);
	ck_assert_uint_eq(window_of(0, 1, 0x1000), 3);
	ck_assert_uint_eq(window_of(1, 2, 0x1000), 1);
	ck_assert_uint_eq(window_of(2, 3, 0x1000), 1);
	ck_assert_uint_eq(window_of(3, 5, 0x1000), 0);
	ck_assert_uint_eq(window_of(5, 6, 0x1000), 2);
	timeline__cell_span(tl, 2, &cs, &ce);
	ck_assert_uint_eq(cs, t0 + 2 * w);
	ck_assert_uint_eq(ce, t0 + 3 * w);
}
END_TEST

/*
 * Seven days of refreshes every 2 s on a fake clock (302,400 takes): a
 * steady function, one whose rate follows the refresh number, one that
 * changes with the hour, and a process started and ended every refresh
 * (folded once reaped, as the live view folds them).  Memory stays
 * bounded (256 cells, a dictionary that folds) and every window of
 * whole cells holds exactly what came in its units.
 */
#define DAY (86400 / 2)

static u64 units_want(u64 u0, u64 u1, u64 off)
{
	u64 n = 0;

	for (u64 r = u0; r < u1; r++) {
		if (off == 0x1000)
			n += 3;
		else if (off == 0x1080)
			n += r % 7;
		else if (off == 0x1040)
			n += 1;
		else if (off >= 0x2000 && off == 0x2000 + (r / 1800 % 8) * 0x10)
			n += 2;
	}
	return n;
}

START_TEST(test_seven_days)
{
	size_t t = trailer(ST), day1 = 0, peak = 0;

	new_session(ST, KEY_ALL);
	session__lock(s);
	session__fold_reaped(s, true, true);
	session__unlock(s);
	for (u64 r = 0; r < 7 * DAY; r++) {
		u64 now = 1000000000ULL + r * 2000000000ULL;
		u32 pid = 1000 + (u32)(r % 100000);

		sample_at(ST, 100, 0x401000, now, 3, NULL, 0);
		sample_at(ST, 100, 0x401080, now, r % 7, NULL, 0);
		sample_at(ST, 100, 0x402000 + (r / 1800 % 8) * 0x10, now, 2,
			  NULL, 0);
		/* a short process: forked, one sample, gone */
		session__process(s, fake_fork(buf, PERF_RECORD_FORK, pid, 100,
					      pid, 100, t));
		session__process(s, fake_comm(buf, pid, pid, "churn", false, t));
		sample_at(ST, pid, 0x401040, now, 1, NULL, 0);
		session__process(s, fake_fork(buf, PERF_RECORD_EXIT, pid, 100,
					      pid, 100, t));
		session__lock(s);
		ck_assert_int_eq(timeline__take(tl, s, r), 0);
		session__refresh(s, HIST_CUMULATIVE);
		session__unlock(s);
		peak = MAX(peak, timeline__bytes(tl));
		if (r == DAY)
			day1 = timeline__bytes(tl);
	}
	ck_assert_int_eq(timeline__check(tl), 0);
	ck_assert_uint_le(timeline__nr_cells(tl), 256);
	ck_assert_uint_eq(timeline__dropped(tl), 0);
	/* bounded: what a day costs, a week costs */
	ck_assert_uint_le(timeline__bytes(tl), day1 + day1 / 2);
	ck_assert_uint_le(peak, 2u << 20);
	/* 302,400 units: cells of 2048 units (68 minutes), first unit 0 */
	ck_assert_uint_eq(timeline__cell_units(tl), 2048);
	ck_assert_uint_eq(timeline__first_unit(tl), 0);
	for (size_t c0 = 0; c0 < timeline__nr_cells(tl); c0 += 17) {
		size_t c1 = MIN(c0 + 1 + c0 % 5, timeline__nr_cells(tl));
		u64 u0 = c0 * 2048, u1 = MIN(c1 * 2048, 7 * DAY);
		static const u64 offs[] = { 0x1000, 0x1080, 0x1040, 0x2000,
					    0x2030, 0x2070 };

		for (size_t k = 0; k < ARRAY_SIZE(offs); k++)
			ck_assert_uint_eq(window_of(c0, c1, offs[k]),
					  units_want(u0, u1, offs[k]));
	}
}
END_TEST

/* The dictionary made again once processes were reaped: their keys
 * fold as the session folds them (pid -1), their chains are copied into
 * the new trie, and the windows keep every sample. */
START_TEST(test_compact_chains)
{
	size_t t = trailer(STG), folded = 0;
	struct snapshot snap;
	u64 total = 0;

	new_session(STG, KEY_ALL);
	session__lock(s);
	session__fold_reaped(s, true, true);
	session__unlock(s);
	for (u32 i = 0; i < 6000; i++) {
		u32 pid = 1000 + i;
		u64 c[] = { PERF_CONTEXT_USER, 0x401000 + (i % 50) * 4,
			    0x402005, 0x403005 };

		session__process(s, fake_fork(buf, PERF_RECORD_FORK, pid, 100,
					      pid, 100, t));
		sample_at(STG, pid, 0x401000 + (i % 50) * 4, 1000 + i, 1, c,
			  ARRAY_SIZE(c));
		session__process(s, fake_fork(buf, PERF_RECORD_EXIT, pid, 100,
					      pid, 100, t));
		refresh(i / 10, HIST_CUMULATIVE);
	}
	snapshot__init(&snap);
	ck_assert_int_eq(timeline__window(tl, 0, 0, timeline__nr_cells(tl),
					  NULL, &snap), 0);
	/* the first 4,097 keys folded into 50 (one a function) at the
	 * rebuild they made due; the next rebuild is due at twice that */
	ck_assert_uint_lt(snap.nr, 6000 - 4000);
	for (size_t i = 0; i < snap.nr; i++) {
		const struct hist_entry *e = &snap.entries[i];
		const struct cc_node *leaf, *mid, *root;

		folded += e->key.pid == -1 && !strcmp(e->key.comm, "[exited]");
		total += e->samples;
		ck_assert_uint_lt(e->key.chain, snap.nr_chains);
		leaf = &snap.chains[e->key.chain];
		mid = &snap.chains[leaf->parent];
		root = &snap.chains[mid->parent];
		ck_assert_uint_eq(leaf->addr, e->key.addr);
		ck_assert_uint_eq(mid->addr, 0x2004);
		ck_assert_uint_eq(root->addr, 0x3004);
		ck_assert_uint_eq(root->parent, 0);
	}
	ck_assert_uint_eq(total, 6000);
	ck_assert_uint_eq(folded, 50);
	snapshot__fini(&snap);
}
END_TEST

/* Over the budget with keys that never fold (processes grouped by pid
 * stay apart): the oldest cells go, and it is counted. */
START_TEST(test_budget)
{
	struct timeline_opts o = { .budget = 256 << 10 };
	size_t t = trailer(ST);

	timeline__free(tl);
	tl = timeline__new(&o);
	new_session(ST, KEY_ALL);
	for (u64 r = 0; r < 2000; r++) {
		for (u32 k = 0; k < 8; k++) {
			u32 pid = 1000 + (u32)r * 8 + k;

			session__process(s, fake_fork(buf, PERF_RECORD_FORK,
						      pid, 100, pid, 100, t));
			sample_at(ST, pid, 0x401000 + k * 4, 1000 + r, 1,
				  NULL, 0);
		}
		refresh(r, HIST_CUMULATIVE);
		ck_assert_uint_le(timeline__bytes(tl), o.budget);
	}
	ck_assert_uint_gt(timeline__dropped(tl), 0);
	ck_assert_uint_eq(timeline__first_unit(tl) +
				  timeline__nr_cells(tl) *
					  timeline__cell_units(tl) >
			  1999, 1);
}
END_TEST

Suite *timeline_suite(void)
{
	Suite *su = suite_create("timeline");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_modes);
	tcase_add_test(tc, test_zero_between_snapshots);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_chains);
	tcase_add_test(tc, test_grid);
	tcase_add_test(tc, test_seven_days);
	tcase_add_test(tc, test_compact_chains);
	tcase_add_test(tc, test_budget);
	suite_add_tcase(su, tc);
	return su;
}
