/* check_lru: the bounded LRU (pure). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/lru.h"

struct item {
	struct lru_node node;
	int id;
	bool *evicted;
};

static void evict(void *ctx, struct lru_node *n)
{
	struct item *it = (struct item *)n;
	int *count = ctx;

	it->evicted[it->id] = true;
	(*count)++;
	free(it);
}

static struct item *item(int id, size_t cost, bool *evicted)
{
	struct item *it = calloc(1, sizeof(*it));

	ck_assert_ptr_nonnull(it);
	it->id = id;
	it->evicted = evicted;
	it->node.key[0] = (u64)id;
	it->node.key[1] = (u64)id * 7;
	it->node.cost = cost;
	return it;
}

START_TEST(test_lru_cost_bound)
{
	bool ev[16] = { 0 };
	int count = 0;
	struct lru l;

	lru__init(&l, 100, 0, evict, &count);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(lru__insert(&l, &item(i, 30, ev)->node), 0);
	/* 4 x 30 > 100: the oldest went */
	ck_assert(ev[0]);
	ck_assert_int_eq(count, 1);
	ck_assert_uint_eq(lru__count(&l), 3);
	ck_assert_uint_eq(lru__cost(&l), 90);
	/* touching 1 makes 2 the oldest */
	ck_assert_ptr_nonnull(lru__find(&l, 1, 7));
	ck_assert_int_eq(lru__insert(&l, &item(4, 30, ev)->node), 0);
	ck_assert(ev[2]);
	ck_assert(!ev[1]);
	ck_assert_ptr_null(lru__peek(&l, 2, 14));
	ck_assert(lru__check(&l));
	/* a node costlier than the bound stays, alone */
	ck_assert_int_eq(lru__insert(&l, &item(5, 500, ev)->node), 0);
	ck_assert_uint_eq(lru__count(&l), 1);
	ck_assert_ptr_nonnull(lru__peek(&l, 5, 35));
	ck_assert(lru__check(&l));
	lru__fini(&l);
	ck_assert(ev[5]);
	ck_assert_int_eq(count, 6);
}
END_TEST

START_TEST(test_lru_count_bound_many)
{
	bool *ev = calloc(20000, sizeof(*ev));
	int count = 0;
	struct lru l;

	lru__init(&l, 0, 1000, evict, &count);
	for (int i = 0; i < 20000; i++) {
		ck_assert_int_eq(lru__insert(&l, &item(i, 1, ev)->node), 0);
		if (i % 3 == 0)	/* keep every third one used */
			ck_assert_ptr_nonnull(lru__find(&l, (u64)i, (u64)i * 7));
	}
	ck_assert_uint_eq(lru__count(&l), 1000);
	ck_assert_int_eq(count, 19000);
	ck_assert(lru__check(&l));
	/* the newest 1000 are there, and only they */
	for (int i = 0; i < 20000; i++)
		ck_assert_int_eq(lru__peek(&l, (u64)i, (u64)i * 7) != NULL,
				 i >= 19000);
	lru__fini(&l);
	free(ev);
}
END_TEST

START_TEST(test_lru_set_cost_remove_shrink)
{
	bool ev[8] = { 0 };
	int count = 0;
	struct lru l;
	struct item *a, *b, *c;

	lru__init(&l, 100, 0, evict, &count);
	a = item(0, 10, ev);
	b = item(1, 10, ev);
	c = item(2, 10, ev);
	lru__insert(&l, &a->node);
	lru__insert(&l, &b->node);
	lru__insert(&l, &c->node);
	/* a grows past what is left: the others go, a stays (newest) */
	lru__set_cost(&l, &a->node, 95);
	ck_assert(ev[1] && ev[2] && !ev[0]);
	ck_assert_uint_eq(lru__cost(&l), 95);
	ck_assert(lru__check(&l));
	/* remove does not call evict */
	lru__remove(&l, &a->node);
	ck_assert(!ev[0]);
	ck_assert_uint_eq(lru__count(&l), 0);
	ck_assert_uint_eq(lru__cost(&l), 0);
	free(a);
	for (int i = 3; i < 8; i++)
		lru__insert(&l, &item(i, 5, ev)->node);
	lru__shrink(&l, 10, 0);
	ck_assert_uint_eq(lru__count(&l), 2);
	ck_assert(ev[3] && ev[4] && ev[5] && !ev[6] && !ev[7]);
	lru__set_bounds(&l, 0, 1);
	ck_assert(ev[6] && !ev[7]);
	ck_assert_ptr_eq(lru__oldest(&l), lru__peek(&l, 7, 49));
	lru__shrink(&l, 0, 0);
	ck_assert_uint_eq(lru__count(&l), 0);
	ck_assert(lru__check(&l));
	lru__fini(&l);
}
END_TEST

START_TEST(test_lru_pinned)
{
	bool ev[16] = { 0 };
	int count = 0;
	struct lru l;
	struct item *it[6];

	lru__init(&l, 0, 3, evict, &count);
	for (int i = 0; i < 3; i++) {
		it[i] = item(i, 1, ev);
		ck_assert_int_eq(lru__insert(&l, &it[i]->node), 0);
	}
	/* the oldest two in use (0 twice): a fourth evicts 2, the oldest
	 * free one, and touching 0 does not change that */
	lru__pin(&it[0]->node);
	lru__pin(&it[0]->node);
	lru__pin(&it[1]->node);
	ck_assert_ptr_nonnull(lru__find(&l, 0, 0));
	lru__unpin(&it[0]->node);
	it[3] = item(3, 1, ev);
	ck_assert_int_eq(lru__insert(&l, &it[3]->node), 0);
	ck_assert(ev[2] && !ev[0] && !ev[1] && !ev[3]);
	ck_assert_int_eq(count, 1);
	ck_assert(lru__check(&l));
	/* all but the newest pinned: over the bound, nothing to evict */
	lru__pin(&it[3]->node);
	it[4] = item(4, 1, ev);
	ck_assert_int_eq(lru__insert(&l, &it[4]->node), 0);
	ck_assert_uint_eq(lru__count(&l), 4);
	ck_assert_int_eq(count, 1);
	/* a bound applied again (the owner's trim) takes what it may */
	lru__shrink(&l, 0, 3);
	ck_assert_uint_eq(lru__count(&l), 3);
	ck_assert(ev[4]);
	lru__shrink(&l, 0, 1);
	ck_assert_uint_eq(lru__count(&l), 3);
	/* unpinned, the oldest goes first: 1 (0 was touched since) */
	lru__unpin(&it[1]->node);
	lru__unpin(&it[0]->node);
	lru__shrink(&l, 0, 2);
	ck_assert(ev[1] && !ev[0]);
	lru__shrink(&l, 0, 1);
	ck_assert(ev[0] && !ev[3]);
	ck_assert_ptr_eq(lru__oldest(&l), &it[3]->node);
	ck_assert(lru__check(&l));
	/* emptying it takes the pinned too */
	lru__shrink(&l, 0, 0);
	ck_assert(ev[3]);
	ck_assert_uint_eq(lru__count(&l), 0);
	ck_assert_int_eq(count, 5);
	lru__fini(&l);
}
END_TEST

/*
 * A half-built owner frees a zeroed lru (it never reached lru__init):
 * nothing to evict or free, the lru and the memory around it stay as
 * they were (zeroed), it holds nothing, and freeing it again is the same.
 * An initialised one, emptied by lru__fini, holds nothing either.
 */
START_TEST(test_lru_zeroed_fini)
{
	static const u8 zero[sizeof(struct lru)];
	struct {
		u64 before;
		struct lru l;
		u64 after;
	} z;
	bool evicted[2] = { false, false };
	int count = 0;

	memset(&z, 0, sizeof(z));
	z.before = z.after = 0x5a5a5a5a5a5a5a5aULL;
	for (int round = 0; round < 2; round++) {
		lru__fini(&z.l);
		ck_assert(memcmp(&z.l, zero, sizeof(zero)) == 0);
		ck_assert_uint_eq(z.before, 0x5a5a5a5a5a5a5a5aULL);
		ck_assert_uint_eq(z.after, 0x5a5a5a5a5a5a5a5aULL);
		ck_assert_ptr_null(lru__peek(&z.l, 1, 0));
	}
	lru__init(&z.l, 100, 0, evict, &count);
	ck_assert_int_eq(lru__insert(&z.l, &item(0, 10, evicted)->node), 0);
	ck_assert_int_eq(lru__insert(&z.l, &item(1, 10, evicted)->node), 0);
	lru__fini(&z.l);
	ck_assert(evicted[0] && evicted[1]);
	ck_assert_int_eq(count, 2);
	ck_assert_uint_eq(z.l.nr, 0);
	ck_assert_uint_eq(z.l.cost, 0);
	ck_assert_ptr_null(lru__peek(&z.l, 0, 0));
}
END_TEST

Suite *lru_suite(void);
Suite *lru_suite(void)
{
	Suite *s = suite_create("lru");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_lru_cost_bound);
	tcase_add_test(tc, test_lru_count_bound_many);
	tcase_add_test(tc, test_lru_set_cost_remove_shrink);
	tcase_add_test(tc, test_lru_pinned);
	tcase_add_test(tc, test_lru_zeroed_fini);
	suite_add_tcase(s, tc);
	return s;
}
