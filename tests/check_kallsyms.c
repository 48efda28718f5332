/* check_kallsyms: kernel and module symbols, sizes, kptr_restrict. */
#include <check.h>
#include <string.h>

#include "kallsyms.h"
#include "symbolizer.h"
#include "symtab.h"
#include "testutil.h"

static struct strpool *pool;

static void setup(void)
{
	pool = strpool__new();
}

static void teardown(void)
{
	strpool__free(pool);
}

static void expect(struct kallsyms *ks, u64 addr, const char *name,
		   u64 start, u64 size, const char *dso)
{
	struct symtab_hit hit;

	ck_assert_int_eq(symtab__lookup(ks->st, addr, &hit), 0);
	ck_assert_str_eq(hit.name, name);
	ck_assert_uint_eq(hit.start, start);
	ck_assert_uint_eq(hit.size, size);
	ck_assert_uint_eq(hit.flags, SYM_F_KERNEL);
	ck_assert_str_eq(kallsyms__dso_name(ks, hit.group), dso);
}

START_TEST(test_normal)
{
	struct kallsyms *ks = kallsyms__load(test_fixture("kallsyms.normal"),
					     pool);
	struct symtab_hit hit;

	ck_assert_ptr_nonnull(ks);
	ck_assert(!ks->restricted);
	ck_assert_uint_eq(ks->nr_lines, 13);
	/* "garbage line" and the absolute symbol */
	ck_assert_uint_eq(ks->nr_bad, 2);
	/* _stext and startup_64 share an address: fewer underscores win */
	expect(ks, 0xffffffff81000050, "startup_64", 0xffffffff81000000,
	       0x100, "[kernel.kallsyms]");
	expect(ks, 0xffffffff81000100, "early_helper", 0xffffffff81000100,
	       0x80, "[kernel.kallsyms]");
	expect(ks, 0xffffffff810003ff, "do_syscall_64", 0xffffffff81000180,
	       0x280, "[kernel.kallsyms]");
	expect(ks, 0xffffffff81000400, "weak_text", 0xffffffff81000400, 0x80,
	       "[kernel.kallsyms]");
	/* data ends the text before it and is not a symbol itself */
	ck_assert_int_eq(symtab__lookup(ks->st, 0xffffffff81000480, &hit),
			 -ENOENT);
	/* the last kernel symbol does not run into the modules */
	expect(ks, 0xffffffff81001000, "_etext", 0xffffffff81001000, 0x1000,
	       "[kernel.kallsyms]");
	ck_assert_int_eq(symtab__lookup(ks->st, 0xffffffff81002000, &hit),
			 -ENOENT);
	expect(ks, 0xffffffffc0001010, "mod_a_fn", 0xffffffffc0001000, 0x200,
	       "[mod_a]");
	expect(ks, 0xffffffffc0001200, "mod_a_fn2", 0xffffffffc0001200, 0x100,
	       "[mod_a]");
	expect(ks, 0xffffffffc0002fff, "mod_b_fn", 0xffffffffc0002000,
	       0x1000, "[mod_b]");
	ck_assert_uint_eq(ks->nr_mods, 2);
	kallsyms__free(ks);
}
END_TEST

START_TEST(test_restricted)
{
	struct kallsyms *ks = kallsyms__load(
		test_fixture("kallsyms.restricted"), pool);

	ck_assert_ptr_nonnull(ks);
	ck_assert(ks->restricted);
	ck_assert_uint_eq(symtab__count(ks->st), 0);
	kallsyms__free(ks);
}
END_TEST

START_TEST(test_missing)
{
	errno = 0;
	ck_assert_ptr_null(kallsyms__load(test_fixture("no-such-kallsyms"),
					  pool));
	ck_assert_int_eq(errno, ENOENT);
	kallsyms__free(NULL);
}
END_TEST

START_TEST(test_hostile_text)
{
	static const char *texts[] = {
		"",
		"\n\n\n",
		"ffffffffffffffffff T too_many_digits\n",
		"ffffffff81000000 T\n",
		"ffffffff81000000 T \n",
		"ffffffff81000000Tnospace\n",
		"ffffffff81000000 t unterminated_module\t[mod",
		"ffffffff81000000 t empty_module\t[]\n",
		"ffffffff81000000 t no_newline_at_end",
		"ffffffffffffffff T at_the_top\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		struct kallsyms *ks = kallsyms__parse(texts[i],
						      strlen(texts[i]), pool);
		struct symtab_hit hit;

		ck_assert_ptr_nonnull(ks);
		symtab__lookup(ks->st, 0xffffffff81000000, &hit);
		kallsyms__free(ks);
	}
	/* a NUL in the middle of the text */
	{
		const char text[] = "ffffffff81000000 T a\0b\n"
				    "ffffffff81000100 T c\n";
		struct kallsyms *ks = kallsyms__parse(text, sizeof(text) - 1,
						      pool);
		struct symtab_hit hit;

		ck_assert_ptr_nonnull(ks);
		ck_assert_int_eq(symtab__lookup(ks->st, 0xffffffff81000100,
						&hit),
				 0);
		ck_assert_str_eq(hit.name, "c");
		kallsyms__free(ks);
	}
}
END_TEST

/* the real one, when readable: every text symbol of it resolves */
START_TEST(test_proc)
{
	struct kallsyms *ks = kallsyms__load("/proc/kallsyms", pool);

	if (!ks)
		return;	/* no /proc in this sandbox */
	if (!ks->restricted)
		ck_assert_uint_gt(symtab__count(ks->st), 1000);
	kallsyms__free(ks);
}
END_TEST

Suite *kallsyms_suite(void)
{
	Suite *s = suite_create("kallsyms");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_normal);
	tcase_add_test(tc, test_restricted);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_hostile_text);
	tcase_add_test(tc, test_proc);
	suite_add_tcase(s, tc);
	return s;
}
