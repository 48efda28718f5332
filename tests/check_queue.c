/* check_queue: the perf.data stream's ordered queue (pure): records in
 * time order per round, the limit, records later than what went out. */
#include <check.h>
#include <string.h>

#include "src/perfdata/queue.h"

struct got {
	u64 times[64];
	size_t n;
};

/* Each test record: a header and its time. */
struct trec {
	struct perf_event_header h;
	u64 time;
};

static void deliver(void *ctx, const struct perf_event_header *h, u64 t)
{
	(void)t;
	struct got *g = ctx;
	struct trec r;

	memcpy(&r, h, sizeof(r));
	ck_assert_uint_lt(g->n, 64);
	g->times[g->n++] = r.time;
}

static int add(struct pd_queue *q, u64 time)
{
	struct trec r = { { PERF_RECORD_SAMPLE, 0, sizeof(r) }, time };
	size_t off;

	ck_assert_int_eq(pd_queue__reserve(q, sizeof(r), &off), 0);
	memcpy(pd_queue__at(q, off), &r, sizeof(r));
	return pd_queue__add(q, off, time);
}

START_TEST(test_queue_rounds)
{
	struct pd_queue q;
	struct got g = { .n = 0 };

	pd_queue__init(&q, 1u << 20, deliver, &g);
	/* two CPUs' runs in one round: nothing goes out at the first
	 * round marker (the previous round's maximum is 0) */
	ck_assert_int_eq(add(&q, 30), 0);
	ck_assert_int_eq(add(&q, 10), 0);
	ck_assert_int_eq(add(&q, 40), 0);
	ck_assert_int_eq(add(&q, 20), 0);
	pd_queue__round(&q);
	ck_assert_uint_eq(g.n, 0);
	/* the next round hands on what is not newer than 40, sorted */
	ck_assert_int_eq(add(&q, 50), 0);
	ck_assert_int_eq(add(&q, 35), 0);
	pd_queue__round(&q);
	ck_assert_uint_eq(g.n, 5);
	ck_assert_uint_eq(g.times[0], 10);
	ck_assert_uint_eq(g.times[1], 20);
	ck_assert_uint_eq(g.times[2], 30);
	ck_assert_uint_eq(g.times[3], 35);
	ck_assert_uint_eq(g.times[4], 40);
	/* older than what went out: still handed on, and said */
	ck_assert_int_eq(add(&q, 5), 1);
	pd_queue__flush(&q, UINT64_MAX);
	ck_assert_uint_eq(g.n, 7);
	ck_assert_uint_eq(g.times[5], 5);
	ck_assert_uint_eq(g.times[6], 50);
	pd_queue__fini(&q);
}
END_TEST

START_TEST(test_queue_limit)
{
	struct pd_queue q;
	struct got g = { .n = 0 };

	/* room for about four records: past it the older half goes */
	pd_queue__init(&q, 4 * sizeof(struct trec), deliver, &g);
	for (u64 t = 1; t <= 5; t++)
		ck_assert_int_eq(add(&q, 100 - t * 10), 0);
	ck_assert_uint_gt(g.n, 0);
	for (size_t i = 1; i < g.n; i++)
		ck_assert_uint_lt(g.times[i - 1], g.times[i]);
	pd_queue__flush(&q, UINT64_MAX);
	ck_assert_uint_eq(g.n, 5);
	pd_queue__fini(&q);
}
END_TEST

START_TEST(test_queue_unreserve)
{
	struct pd_queue q;
	struct got g = { .n = 0 };
	size_t off, off2;

	pd_queue__init(&q, 1u << 20, deliver, &g);
	ck_assert_int_eq(pd_queue__reserve(&q, 24, &off), 0);
	pd_queue__unreserve(&q, off);
	ck_assert_int_eq(pd_queue__reserve(&q, 24, &off2), 0);
	ck_assert_uint_eq(off, off2);	/* the room came back */
	pd_queue__unreserve(&q, off2);
	pd_queue__flush(&q, UINT64_MAX);
	ck_assert_uint_eq(g.n, 0);
	pd_queue__fini(&q);
}
END_TEST

/* Lent records are queued where they lie and ordered with the copied
 * ones; the limit counts both. */
START_TEST(test_queue_lent)
{
	static struct trec lent[3] = {
		{ { PERF_RECORD_SAMPLE, 0, sizeof(struct trec) }, 25 },
		{ { PERF_RECORD_SAMPLE, 0, sizeof(struct trec) }, 5 },
		{ { PERF_RECORD_SAMPLE, 0, sizeof(struct trec) }, 15 },
	};
	struct pd_queue q;
	struct got g = { .n = 0 };

	pd_queue__init(&q, 1u << 20, deliver, &g);
	ck_assert_int_eq(add(&q, 30), 0);
	ck_assert_int_eq(pd_queue__add_lent(&q, &lent[0].h, 25), 0);
	ck_assert_int_eq(add(&q, 10), 0);
	ck_assert_int_eq(pd_queue__add_lent(&q, &lent[1].h, 5), 0);
	ck_assert_int_eq(pd_queue__add_lent(&q, &lent[2].h, 15), 0);
	ck_assert_int_eq(add(&q, 20), 0);
	pd_queue__flush(&q, UINT64_MAX);
	ck_assert_uint_eq(g.n, 6);
	for (size_t i = 0; i < 6; i++)
		ck_assert_uint_eq(g.times[i], 5 * (i + 1));
	pd_queue__fini(&q);

	/* room for about four records, half of them lent: past it the
	 * older half goes, as with copies alone */
	g.n = 0;
	pd_queue__init(&q, 4 * sizeof(struct trec), deliver, &g);
	ck_assert_int_eq(pd_queue__add_lent(&q, &lent[0].h, 25), 0);
	ck_assert_int_eq(pd_queue__add_lent(&q, &lent[2].h, 15), 0);
	ck_assert_int_eq(add(&q, 30), 0);
	ck_assert_uint_eq(g.n, 0);
	ck_assert_int_eq(add(&q, 20), 0);
	ck_assert_int_eq(add(&q, 10), 0);
	ck_assert_uint_gt(g.n, 0);
	ck_assert_uint_eq(g.times[0], 10);
	pd_queue__flush(&q, UINT64_MAX);
	ck_assert_uint_eq(g.n, 5);
	for (size_t i = 1; i < g.n; i++)
		ck_assert_uint_lt(g.times[i - 1], g.times[i]);
	pd_queue__fini(&q);
}
END_TEST

Suite *queue_suite(void);
Suite *queue_suite(void)
{
	Suite *s = suite_create("queue");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_queue_rounds);
	tcase_add_test(tc, test_queue_limit);
	tcase_add_test(tc, test_queue_unreserve);
	tcase_add_test(tc, test_queue_lent);
	suite_add_tcase(s, tc);
	return s;
}
