/* Tests of inlines (ui/report/inlines.c): the inlined frames of the DWARF
 * fixture, as the trees and the flame graph ask for them. */
#include <stdlib.h>
#include <string.h>

#include "tests/cgwork.h"

/* Inlined frames from DWARF on a real binary: somewhere in fix_caller
 * is fix_inl (see check_srcline). */
START_TEST(test_inlines_fixture)
{
	struct symbolizer *sy = symbolizer__new(NULL);
	struct dso d = file_dso(0, fixture_path("symfix-pie"));
	struct dso k = { .kind = DSO_KERNEL, .name = "[kernel.kallsyms]" };
	struct inlines *in = inlines__new(sy);
	const char *names[4];
	u64 addr, size, off;
	bool seen = false;
	size_t asked;

	ck_assert_ptr_nonnull(in);
	ck_assert(nm_find("symfix-pie.nm", "fix_caller", &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(sy, &d, addr, &off), 0);
	for (u64 a = off; a < off + size; a++) {
		size_t n = inlines__get(in, &d, a, names, 4);

		if (!n)
			continue;
		ck_assert_uint_eq(n, 1);
		ck_assert_str_eq(names[0], "fix_inl");
		/* the same pointer each time: trees merge by pointer */
		ck_assert_uint_eq(inlines__get(in, &d, a, names + 1, 3), 1);
		ck_assert_ptr_eq(names[0], names[1]);
		seen = true;
	}
	ck_assert(seen);
	/* cached: asking again does not look up again */
	asked = inlines__nr(in);
	ck_assert_uint_eq(asked, size);
	inlines__get(in, &d, off, names, 4);
	ck_assert_uint_eq(inlines__nr(in), asked);
	/* max 0, the kernel, no symbolizer: nothing */
	ck_assert_uint_eq(inlines__get(in, &d, off, names, 0), 0);
	ck_assert_uint_eq(inlines__get(in, &k, 0xffffffff81000000ULL, names,
				       4), 0);
	inlines__free(in);
	in = inlines__new(NULL);
	ck_assert_uint_eq(inlines__get(in, &d, off, names, 4), 0);
	inlines__free(in);
	inlines__free(NULL);
	symbolizer__free(sy);
}
END_TEST

Suite *inlines_suite(void);
Suite *inlines_suite(void)
{
	Suite *ss = suite_create("inlines");
	TCase *tc = tcase_create("inlines");

	tcase_add_checked_fixture(tc, cgw_setup, cgw_teardown);
	tcase_add_test(tc, test_inlines_fixture);
	suite_add_tcase(ss, tc);
	return ss;
}
