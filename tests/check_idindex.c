/* check_idindex: the interning tables' open-addressing index (pure). */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "src/core/idindex.h"

/* A table as its users keep one: keys in a dense array, the index by
 * a hash the table chooses (a good one, or one that collides). */
struct table {
	struct idindex ix;
	u64 keys[20000];
	size_t nr;
	u64 (*hash)(u64 key);
};

static u64 good(u64 key)
{
	return hash_u64(key);
}

/* Three probes' starts, one of them the last slot of a 64-slot index:
 * every key collides, and the probes wrap around. */
static u64 clash(u64 key)
{
	return key % 3 == 0 ? 63 : key % 3;
}

static u64 table_hash(const void *ctx, u32 id)
{
	const struct table *t = ctx;

	return t->hash(t->keys[id]);
}

static u32 lookup(const struct table *t, u64 key)
{
	u64 h = t->hash(key);
	size_t j;
	u32 id;

	for (j = idindex__first(&t->ix, h);
	     (id = idindex__at(&t->ix, j)) != IDINDEX_NONE;
	     j = idindex__next(&t->ix, j))
		if (t->keys[id] == key)
			return id;
	return IDINDEX_NONE;
}

/* The id of key, added when new; IDINDEX_NONE on ENOMEM. */
static u32 intern(struct table *t, u64 key)
{
	u32 id = lookup(t, key);

	if (id != IDINDEX_NONE)
		return id;
	if (idindex__reserve(&t->ix, 1, table_hash, t))
		return IDINDEX_NONE;
	t->keys[t->nr] = key;
	idindex__add(&t->ix, t->hash(key), (u32)t->nr);
	return (u32)t->nr++;
}

static struct table *table_new(u64 (*hash)(u64 key))
{
	struct table *t = calloc(1, sizeof(*t));

	ck_assert_ptr_nonnull(t);
	idindex__init(&t->ix);
	t->hash = hash;
	return t;
}

static void table_free(struct table *t)
{
	idindex__fini(&t->ix);
	free(t);
}

/* Keys [from, to) added as the ids of the same numbers, into an index
 * of slots slots after; then every key [0, to) found again. */
static void fill(struct table *t, u64 from, u64 to, size_t slots)
{
	for (u64 k = from; k < to; k++)
		ck_assert_uint_eq(intern(t, k), (u32)k);
	ck_assert_uint_eq(idindex__bytes(&t->ix), slots * sizeof(u32));
	ck_assert(idindex__check(&t->ix, table_hash, t));
	for (u64 k = 0; k < to; k++)
		ck_assert_uint_eq(lookup(t, k), (u32)k);
}

START_TEST(test_idindex_empty)
{
	struct table *t = table_new(good);

	/* a lookup in an index that never grew ends at once, allocating
	 * nothing */
	ck_assert_uint_eq(lookup(t, 42), IDINDEX_NONE);
	ck_assert_uint_eq(idindex__bytes(&t->ix), 0);
	ck_assert_uint_eq(idindex__count(&t->ix), 0);
	ck_assert(idindex__check(&t->ix, table_hash, t));
	idindex__clear(&t->ix);
	ck_assert_uint_eq(lookup(t, 42), IDINDEX_NONE);
	idindex__fini(&t->ix);
	idindex__fini(&t->ix);	/* a finished index finishes again */
	ck_assert_uint_eq(lookup(t, 42), IDINDEX_NONE);
	table_free(t);
}
END_TEST

START_TEST(test_idindex_growth)
{
	struct table *t = table_new(good);
	size_t bytes = 0;

	for (u64 k = 0; k < 20000; k++) {
		ck_assert_uint_eq(intern(t, k * 1000003 + 7), (u32)k);
		/* at most half full, a power of two, grown by doubling */
		ck_assert_uint_le(idindex__count(&t->ix) * 2 * sizeof(u32),
				  idindex__bytes(&t->ix));
		if (idindex__bytes(&t->ix) != bytes) {
			ck_assert(bytes == 0 ?
				  idindex__bytes(&t->ix) == 64 * sizeof(u32) :
				  idindex__bytes(&t->ix) == 2 * bytes);
			bytes = idindex__bytes(&t->ix);
			ck_assert(idindex__check(&t->ix, table_hash, t));
		}
	}
	ck_assert_uint_eq(idindex__bytes(&t->ix), 65536 * sizeof(u32));
	/* every key found again after the growths, as the same id; an
	 * absent one not */
	for (u64 k = 0; k < 20000; k++)
		ck_assert_uint_eq(intern(t, k * 1000003 + 7), (u32)k);
	ck_assert_uint_eq(t->nr, 20000);
	ck_assert_uint_eq(lookup(t, 5), IDINDEX_NONE);
	ck_assert(idindex__check(&t->ix, table_hash, t));
	/* room for many at once: one growth to the size they need */
	idindex__fini(&t->ix);
	idindex__init(&t->ix);
	ck_assert_int_eq(idindex__reserve(&t->ix, 1024, table_hash, t), 0);
	ck_assert_uint_eq(idindex__bytes(&t->ix), 2048 * sizeof(u32));
	ck_assert_int_eq(idindex__reserve(&t->ix, 1024, table_hash, t), 0);
	ck_assert_uint_eq(idindex__bytes(&t->ix), 2048 * sizeof(u32));
	ck_assert_int_eq(idindex__reserve(&t->ix, 1025, table_hash, t), 0);
	ck_assert_uint_eq(idindex__bytes(&t->ix), 4096 * sizeof(u32));
	table_free(t);
}
END_TEST

START_TEST(test_idindex_collisions)
{
	struct table *t = table_new(clash);

	/* 30 keys on three probes in 64 slots: long runs that wrap from
	 * slot 63 to slot 0 and cross each other */
	fill(t, 0, 30, 64);
	/* absent keys of each probe: the run ends at a gap */
	ck_assert_uint_eq(lookup(t, 300), IDINDEX_NONE);
	ck_assert_uint_eq(lookup(t, 301), IDINDEX_NONE);
	ck_assert_uint_eq(lookup(t, 302), IDINDEX_NONE);
	/* growing places them again: 33 ids want 128 slots, 200 512 */
	fill(t, 30, 200, 512);
	table_free(t);
}
END_TEST

START_TEST(test_idindex_clear)
{
	struct table *t = table_new(good);
	size_t bytes;

	for (u64 k = 0; k < 1000; k++)
		intern(t, k);
	bytes = idindex__bytes(&t->ix);
	idindex__clear(&t->ix);
	/* forgotten, the slots kept: no allocation to start again */
	ck_assert_uint_eq(idindex__count(&t->ix), 0);
	ck_assert_uint_eq(idindex__bytes(&t->ix), bytes);
	ck_assert_uint_eq(lookup(t, 7), IDINDEX_NONE);
	ck_assert(idindex__check(&t->ix, table_hash, t));
	/* a rebuild keeps some, under new ids (a table that dropped
	 * others) */
	t->nr = 0;
	for (u64 k = 0; k < 1000; k += 2)
		ck_assert_uint_eq(intern(t, k), (u32)(k / 2));
	ck_assert_uint_eq(idindex__bytes(&t->ix), bytes);
	ck_assert_uint_eq(lookup(t, 3), IDINDEX_NONE);
	ck_assert_uint_eq(lookup(t, 998), 499);
	ck_assert(idindex__check(&t->ix, table_hash, t));
	table_free(t);
}
END_TEST

START_TEST(test_idindex_sparse)
{
	struct table *t = table_new(good);

	/* ids with gaps (a table that indexes some of its objects): a
	 * growth places them again from the slots; then from the range
	 * once the gaps are filled */
	for (u32 id = 0; id < 3000; id += 3) {
		t->keys[id] = (u64)id * 77;
		ck_assert_int_eq(idindex__reserve(&t->ix, 1, table_hash, t), 0);
		idindex__add(&t->ix, good(t->keys[id]), id);
	}
	ck_assert_uint_eq(idindex__bytes(&t->ix), 2048 * sizeof(u32));
	ck_assert(idindex__check(&t->ix, table_hash, t));
	for (u32 id = 0; id < 3000; id++)
		ck_assert_uint_eq(lookup(t, (u64)id * 77),
				  id % 3 ? IDINDEX_NONE : id);
	for (u32 id = 0; id < 3000; id++) {
		if (!(id % 3))
			continue;
		t->keys[id] = (u64)id * 77;
		ck_assert_int_eq(idindex__reserve(&t->ix, 1, table_hash, t), 0);
		idindex__add(&t->ix, good(t->keys[id]), id);
	}
	ck_assert_int_eq(idindex__reserve(&t->ix, 5000, table_hash, t), 0);
	ck_assert_uint_eq(idindex__bytes(&t->ix), 16384 * sizeof(u32));
	ck_assert(idindex__check(&t->ix, table_hash, t));
	for (u32 id = 0; id < 3000; id++)
		ck_assert_uint_eq(lookup(t, (u64)id * 77), id);
	table_free(t);
}
END_TEST

START_TEST(test_idindex_nomem)
{
	struct table *t = table_new(good);
	size_t bytes;

	/* a growth that cannot be had leaves an empty index empty */
	ck_assert_int_eq(idindex__reserve(&t->ix, (size_t)1 << 40, table_hash,
					  t), -ENOMEM);
	ck_assert_int_eq(idindex__reserve(&t->ix, SIZE_MAX, table_hash, t),
			 -ENOMEM);
	ck_assert_uint_eq(idindex__bytes(&t->ix), 0);
	ck_assert_uint_eq(lookup(t, 1), IDINDEX_NONE);
	for (u64 k = 0; k < 100; k++)
		intern(t, k);
	bytes = idindex__bytes(&t->ix);
	/* and a full one as it was: its ids, its slots, found again */
	ck_assert_int_eq(idindex__reserve(&t->ix, (size_t)1 << 40, table_hash,
					  t), -ENOMEM);
	ck_assert_int_eq(idindex__reserve(&t->ix, SIZE_MAX - 50, table_hash,
					  t), -ENOMEM);
	ck_assert_uint_eq(idindex__count(&t->ix), 100);
	ck_assert_uint_eq(idindex__bytes(&t->ix), bytes);
	ck_assert(idindex__check(&t->ix, table_hash, t));
	for (u64 k = 0; k < 100; k++)
		ck_assert_uint_eq(lookup(t, k), (u32)k);
	/* and it goes on growing */
	for (u64 k = 100; k < 1000; k++)
		ck_assert_uint_eq(intern(t, k), (u32)k);
	ck_assert(idindex__check(&t->ix, table_hash, t));
	table_free(t);
}
END_TEST

Suite *idindex_suite(void);
Suite *idindex_suite(void)
{
	Suite *s = suite_create("idindex");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_idindex_empty);
	tcase_add_test(tc, test_idindex_growth);
	tcase_add_test(tc, test_idindex_collisions);
	tcase_add_test(tc, test_idindex_clear);
	tcase_add_test(tc, test_idindex_sparse);
	tcase_add_test(tc, test_idindex_nomem);
	suite_add_tcase(s, tc);
	return s;
}
