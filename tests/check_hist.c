/* Tests of the aggregation hash: adds, growth, decay, zero, rekey, and
 * the consistency check. */
#include <stdlib.h>
#include <string.h>

#include "src/core/hist.h"
#include "tests/testutil.h"

static struct dso d1 = { .kind = DSO_FILE, .name = "a" };
static struct dso d2 = { .kind = DSO_KERNEL, .name = "[kernel.kallsyms]" };

static struct hist_key key(const struct dso *d, u64 addr, s32 pid)
{
	struct hist_key k;

	memset(&k, 0, sizeof(k));
	k.dso = d;
	k.addr = addr;
	k.pid = pid;
	return k;
}

static const struct hist_entry *find(struct hist_entry *e, size_t n,
				     const struct hist_key *k)
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(&e[i].key, k, sizeof(*k)) == 0)
			return &e[i];
	return NULL;
}

START_TEST(test_add_and_copy)
{
	struct hist *h = hist__new();
	struct hist_key k1 = key(&d1, 0x10, 1), k2 = key(&d2, 0x10, 1);
	struct hist_entry *out = NULL;
	size_t cap = 0;
	long n;

	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(hist__add(h, &k1, 100), 0);
	ck_assert_int_eq(hist__add(h, &k2, 50), 0);
	ck_assert_uint_eq(hist__nr_entries(h), 2);
	ck_assert_uint_eq(hist__total_samples(h), 4);
	ck_assert_uint_eq(hist__total_period(h), 350);
	n = hist__copy(h, &out, &cap);
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(find(out, 2, &k1)->samples, 3);
	ck_assert_uint_eq(find(out, 2, &k1)->period, 300);
	ck_assert_uint_eq(find(out, 2, &k2)->period, 50);
	ck_assert_int_eq(hist__check(h), 0);
	free(out);
	hist__free(h);
}
END_TEST

START_TEST(test_growth)
{
	struct hist *h = hist__new();
	struct hist_entry *out = NULL;
	size_t cap = 0, failed = 0;

	/* one assertion after the loop: each passing ck_assert writes its
	 * location to the runner (a system call), 133000 of them took over
	 * the 4 s timeout on a loaded machine */
	for (u64 i = 0; i < 100000; i++) {
		struct hist_key k = key(&d1, i * 16, (s32)(i % 7));

		failed += hist__add(h, &k, 1) != 0;
		if (i % 3 == 0)
			failed += hist__add(h, &k, 1) != 0;
	}
	ck_assert_uint_eq(failed, 0);
	ck_assert_uint_eq(hist__nr_entries(h), 100000);
	ck_assert_uint_eq(hist__total_samples(h), 100000 + 33334);
	ck_assert_int_eq(hist__check(h), 0);
	ck_assert_int_eq(hist__copy(h, &out, &cap), 100000);
	free(out);
	hist__free(h);
}
END_TEST

START_TEST(test_decay_and_zero)
{
	struct hist *h = hist__new();
	struct hist_key big = key(&d1, 1, 0), small = key(&d1, 2, 0);
	struct hist_entry *out = NULL;
	size_t cap = 0;

	for (int i = 0; i < 64; i++)
		hist__add(h, &big, 8);
	hist__add(h, &small, 1);
	hist__decay(h);
	/* 64 samples, 512 period -> 56, 448; the small one goes */
	ck_assert_uint_eq(hist__nr_entries(h), 1);
	ck_assert_uint_eq(hist__total_samples(h), 56);
	ck_assert_uint_eq(hist__total_period(h), 448);
	ck_assert_int_eq(hist__check(h), 0);
	ck_assert_int_eq(hist__copy(h, &out, &cap), 1);
	ck_assert_uint_eq(out[0].period, 448);
	for (int i = 0; i < 100; i++)
		hist__decay(h);
	ck_assert_uint_eq(hist__nr_entries(h), 0);
	ck_assert_int_eq(hist__check(h), 0);
	hist__add(h, &big, 1);
	hist__zero(h);
	ck_assert_uint_eq(hist__nr_entries(h), 0);
	ck_assert_uint_eq(hist__total_period(h), 0);
	ck_assert_int_eq(hist__check(h), 0);
	free(out);
	hist__free(h);
}
END_TEST

/* Entries move down when others go (decay, rekey, zero): a key met
 * before still counts on its own entry, not where it was. */
START_TEST(test_moved_entries)
{
	struct hist *h = hist__new();
	struct hist_key gone = key(&d1, 1, 0), kept = key(&d1, 2, 0);
	struct hist_key other = key(&d2, 3, 0);
	struct hist_entry *out = NULL;
	size_t cap = 0;
	const struct hist_entry *e;

	hist__add(h, &gone, 1);		/* entry 0, gone at the decay */
	for (int i = 0; i < 64; i++)
		hist__add(h, &kept, 1);	/* entry 1, then 0 */
	hist__decay(h);
	hist__add(h, &kept, 1);
	hist__add(h, &other, 1);
	ck_assert_int_eq(hist__check(h), 0);
	ck_assert_int_eq(hist__copy(h, &out, &cap), 2);
	e = find(out, 2, &kept);
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->samples, 56 + 1);
	/* zeroed: the same keys start again from nothing */
	hist__zero(h);
	hist__add(h, &other, 5);
	hist__add(h, &kept, 7);
	ck_assert_int_eq(hist__check(h), 0);
	ck_assert_int_eq(hist__copy(h, &out, &cap), 2);
	ck_assert_uint_eq(find(out, 2, &kept)->period, 7);
	ck_assert_uint_eq(find(out, 2, &other)->period, 5);
	free(out);
	hist__free(h);
}
END_TEST

static bool fold_pid(struct hist_key *k, void *ctx)
{
	(void)ctx;
	if (k->pid <= 0)
		return false;
	k->pid = -1;
	return true;
}

/* The budget's fold: only the cold entries' keys change (merged with
 * their equals), then the table shrinks to what is left, findable. */
static bool to_page(struct hist_key *k, void *ctx)
{
	(void)ctx;
	if (!(k->addr & 0xfff))
		return false;
	k->addr &= ~(u64)0xfff;
	return true;
}

START_TEST(test_rekey_cold_and_shrink)
{
	struct hist *h = hist__new();
	struct hist_key k;
	size_t big;

	for (u64 a = 0; a < 20000; a++) {
		k = key(&d1, a * 16, 1);
		ck_assert_int_eq(hist__add(h, &k, 1), 0);
	}
	/* 0x10 and 0x1000 hot */
	for (int i = 0; i < 5; i++) {
		k = key(&d1, 0x10, 1);
		hist__add(h, &k, 1);
		k = key(&d1, 0x1000, 1);
		hist__add(h, &k, 1);
	}
	big = hist__bytes(h);
	ck_assert_int_eq(hist__rekey_cold(h, 1, to_page, NULL), 0);
	hist__shrink(h);
	ck_assert_int_eq(hist__check(h), 0);
	ck_assert_uint_lt(hist__bytes(h) * 4, big);
	/* the 79 pages (the last one 32 entries' worth), and 0x10 apart */
	ck_assert_uint_eq(hist__nr_entries(h), 80);
	ck_assert_uint_eq(hist__total_samples(h), 20010);
	for (size_t i = 0; i < hist__nr_entries(h); i++) {
		const struct hist_entry *e = hist__entry(h, i);

		if (e->key.addr == 0x10)
			ck_assert_uint_eq(e->samples, 6);
		else if (e->key.addr == 0)
			ck_assert_uint_eq(e->samples, 255);
		else if (e->key.addr == 0x4e000)
			ck_assert_uint_eq(e->samples, 32);
		else if (e->key.addr == 0x1000)
			ck_assert_uint_eq(e->samples, 256 + 5);
		else
			ck_assert_uint_eq(e->samples, 256);
	}
	/* and it grows again */
	k = key(&d2, 1, 1);
	ck_assert_int_eq(hist__add(h, &k, 1), 0);
	ck_assert_int_eq(hist__check(h), 0);
	hist__free(h);
}
END_TEST

START_TEST(test_rekey_merges)
{
	struct hist *h = hist__new();
	struct hist_entry *out = NULL;
	size_t cap = 0;

	for (s32 pid = 1; pid <= 50; pid++) {
		struct hist_key k = key(&d1, 0x40, pid);

		hist__add(h, &k, 10);
	}
	ck_assert_uint_eq(hist__nr_entries(h), 50);
	ck_assert_int_eq(hist__rekey(h, fold_pid, NULL), 0);
	ck_assert_uint_eq(hist__nr_entries(h), 1);
	ck_assert_int_eq(hist__copy(h, &out, &cap), 1);
	ck_assert_uint_eq(out[0].samples, 50);
	ck_assert_uint_eq(out[0].period, 500);
	ck_assert_int_eq(out[0].key.pid, -1);
	ck_assert_int_eq(hist__check(h), 0);
	free(out);
	hist__free(h);
}
END_TEST

Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("hist");

	tcase_add_test(tc, test_add_and_copy);
	tcase_add_test(tc, test_growth);
	tcase_add_test(tc, test_decay_and_zero);
	tcase_add_test(tc, test_rekey_merges);
	tcase_add_test(tc, test_rekey_cold_and_shrink);
	tcase_add_test(tc, test_moved_entries);
	suite_add_tcase(s, tc);
	return s;
}
