/* Tests of what the session does for perf.data sources and writers: the
 * file's build-id table, event names, ids for writers, the time range. */
#include <stdlib.h>
#include <string.h>

#include "src/core/record.h"
#include "src/core/session.h"
#include "tests/testutil.h"

static u64 buf[4096];
static struct session *s;

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

static void setup(void)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_type = ST;
	a.sample_id_all = 1;
	/* as perf record --buildid-mmap: MMAP2 records may carry build-ids */
	a.mmap2 = 1;
	a.build_id = 1;
	s = session__new(&so);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(session__add_event(s, "cpu-clock", &a), 0);
}

static void teardown(void)
{
	session__free(s);
	s = NULL;
}

static const u8 bid_any[20] = { 0xa1, 0xa2 };
static const u8 bid_pid7[20] = { 0xb1, 0xb2 };
static const u8 bid_own[20] = { 0xc1, 0xc2 };

/* The dso a sample at ip in pid resolves to. */
static const struct dso *dso_at(s32 pid, u64 ip)
{
	const struct map *m = machine__find_map(session__machine(s), pid, ip);

	return m ? m->dso : NULL;
}

static void mmap(u32 pid, u64 start, const char *path, const u8 *bid)
{
	size_t t = record__id_trailer_size(ST, true);

	ck_assert_int_eq(session__process(s, fake_comm(buf, pid, pid, "p", false, t)), 0);
	ck_assert_int_eq(session__process(s, fake_mmap2(buf, pid, start, 0x1000, 0,
							path, bid, bid ? 20 : 0,
							t)), 0);
}

START_TEST(test_table_gives_build_ids)
{
	const struct dso *d;

	ck_assert_int_eq(session__add_build_id(s, -1, "/lib/x.so", bid_any, 20), 0);
	ck_assert_int_eq(session__add_build_id(s, 7, "/lib/x.so", bid_pid7, 20), 0);
	ck_assert_int_eq(session__add_build_id(s, -1, "/lib/y.so", bid_pid7, 16), 0);
	/* a host entry applies to any process */
	mmap(5, 0x10000, "/lib/x.so", NULL);
	d = dso_at(5, 0x10000);
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(d->build_id_size, 20);
	ck_assert(!memcmp(d->build_id, bid_any, 20));
	/* the entry of the mapping's own pid wins */
	mmap(7, 0x10000, "/lib/x.so", NULL);
	d = dso_at(7, 0x10000);
	ck_assert(!memcmp(d->build_id, bid_pid7, 20));
	ck_assert_ptr_ne(d, dso_at(5, 0x10000));
	/* a build-id in the record is kept */
	mmap(8, 0x10000, "/lib/x.so", bid_own);
	ck_assert(!memcmp(dso_at(8, 0x10000)->build_id, bid_own, 20));
	/* other paths are untouched; sizes are kept */
	mmap(9, 0x10000, "/lib/z.so", NULL);
	ck_assert_uint_eq(dso_at(9, 0x10000)->build_id_size, 0);
	mmap(9, 0x20000, "/lib/y.so", NULL);
	ck_assert_uint_eq(dso_at(9, 0x20000)->build_id_size, 16);
	/* two pids with the same host entry share the dso */
	mmap(10, 0x30000, "/lib/x.so", NULL);
	ck_assert_ptr_eq(dso_at(10, 0x30000), dso_at(5, 0x10000));
	ck_assert_int_eq(session__add_build_id(s, -1, "/x", bid_any, 0), -EINVAL);
}
END_TEST

START_TEST(test_many_entries)
{
	char path[64];

	/* paths hash into chains: every one is found */
	for (int i = 0; i < 2000; i++) {
		u8 bid[20] = { (u8)i, (u8)(i >> 8), 0x5a };

		snprintf(path, sizeof(path), "/usr/lib/lib%d.so", i);
		ck_assert_int_eq(session__add_build_id(s, -1, path, bid, 20), 0);
	}
	for (int i = 0; i < 2000; i += 97) {
		snprintf(path, sizeof(path), "/usr/lib/lib%d.so", i);
		mmap(100 + (u32)i, 0x10000, path, NULL);
		ck_assert_uint_eq(dso_at(100 + i, 0x10000)->build_id[0], (u8)i);
		ck_assert_uint_eq(dso_at(100 + i, 0x10000)->build_id[1], (u8)(i >> 8));
	}
}
END_TEST

START_TEST(test_names_ids_gen)
{
	struct perf_event_attr a = *session__event_attr(s, 0);
	u64 gen = session__events_gen(s), *ids;
	size_t nr;

	ck_assert_int_eq(session__set_event_name(s, 0, "cpu-clock:u"), 0);
	ck_assert_str_eq(session__event_name(s, 0), "cpu-clock:u");
	ck_assert_int_eq(session__set_event_name(s, 3, "x"), -EINVAL);
	ck_assert_int_eq(session__add_event(s, "page-faults", &a), 1);
	ck_assert_uint_gt(session__events_gen(s), gen);
	gen = session__events_gen(s);
	ck_assert_int_eq(session__add_id(s, 0, 11), 0);
	ck_assert_int_eq(session__add_id(s, 1, 22), 0);
	ck_assert_int_eq(session__add_id(s, 0, 12), 0);
	ck_assert_uint_gt(session__events_gen(s), gen);
	ck_assert_int_eq(session__event_ids(s, 0, &ids, &nr), 0);
	ck_assert_uint_eq(nr, 2);
	ck_assert((ids[0] == 11 && ids[1] == 12) || (ids[0] == 12 && ids[1] == 11));
	free(ids);
	ck_assert_int_eq(session__event_ids(s, 1, &ids, &nr), 0);
	ck_assert_uint_eq(nr, 1);
	ck_assert_uint_eq(ids[0], 22);
	free(ids);
	gen = session__events_gen(s);
	ck_assert_int_eq(session__set_attr(s, 0, &a), 0);
	ck_assert_uint_gt(session__events_gen(s), gen);
	ck_assert_int_eq(session__event_ids(s, 0, &ids, &nr), 0);
	ck_assert_uint_eq(nr, 0);
	ck_assert_ptr_null(ids);
}
END_TEST

START_TEST(test_time_range)
{
	struct fake_sample fs = { .ip = 0x1000, .pid = 1, .tid = 1, .period = 1 };
	u64 first, last;

	session__time_range(s, &first, &last);
	ck_assert_uint_eq(first, 0);
	ck_assert_uint_eq(last, 0);
	fs.time = 500;
	session__process(s, fake_sample(buf, ST, &fs));
	fs.time = 200;
	session__process(s, fake_sample(buf, ST, &fs));
	fs.time = 900;
	session__process(s, fake_sample(buf, ST, &fs));
	session__time_range(s, &first, &last);
	ck_assert_uint_eq(first, 200);
	ck_assert_uint_eq(last, 900);
}
END_TEST

Suite *perfdata_session_suite(void)
{
	Suite *su = suite_create("perfdata_session");
	TCase *tc = tcase_create("session");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_table_gives_build_ids);
	tcase_add_test(tc, test_many_entries);
	tcase_add_test(tc, test_names_ids_gen);
	tcase_add_test(tc, test_time_range);
	suite_add_tcase(su, tc);
	return su;
}
