/* check_dynlib: the one dlopen loader (src/sys/dynlib): sonames in order,
 * functions required or optional, and its two failures. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "src/core/util.h"
#include "src/sys/dynlib.h"

/* the C library, there on every system the tests run on (glibc) */
#define LIBC "libc.so.6"
#define NONE "libptop-no-such-library.so.0"

START_TEST(test_loads_first_found)
{
	const char *const sonames[] = { NONE, LIBC };
	size_t (*len)(const char *) = NULL;
	void *absent = &absent;
	const struct dynlib_fn fns[] = {
		{ "strlen", (void **)&len, false },
		{ "ptop_no_such_function", &absent, true },
	};
	struct dynlib dl;

	ck_assert_int_eq(dynlib__load(&dl, sonames, ARRAY_SIZE(sonames), fns,
				      ARRAY_SIZE(fns)), 0);
	ck_assert_ptr_nonnull(dl.handle);
	ck_assert_str_eq(dl.soname, LIBC);
	ck_assert_ptr_null(dl.missing);
	ck_assert_str_eq(dl.why, "");
	ck_assert_ptr_nonnull(len);
	ck_assert_uint_eq(len("dynlib"), 6);
	/* optional and absent: NULL, not a failure */
	ck_assert_ptr_null(absent);
}
END_TEST

START_TEST(test_no_library)
{
	const char *const sonames[] = { NONE };
	void *fn = &fn;
	const struct dynlib_fn fns[] = { { "strlen", &fn, false } };
	struct dynlib dl;

	ck_assert_int_eq(dynlib__load(&dl, sonames, 1, fns, 1), -ELIBACC);
	ck_assert_ptr_null(dl.handle);
	ck_assert_ptr_null(dl.soname);
	/* the dynamic loader's words name what it looked for */
	ck_assert_ptr_nonnull(strstr(dl.why, NONE));
	/* nothing was looked up */
	ck_assert_ptr_eq(fn, &fn);
}
END_TEST

START_TEST(test_missing_function)
{
	const char *const sonames[] = { LIBC };
	void *a = NULL, *b = NULL;
	const struct dynlib_fn fns[] = {
		{ "strlen", &a, false },
		{ "ptop_no_such_function", &b, false },
	};
	struct dynlib dl;

	ck_assert_int_eq(dynlib__load(&dl, sonames, 1, fns, 2), -ELIBBAD);
	ck_assert_ptr_null(dl.handle);
	ck_assert_str_eq(dl.soname, LIBC);
	ck_assert_str_eq(dl.missing, "ptop_no_such_function");
	ck_assert_ptr_nonnull(strstr(dl.why, "ptop_no_such_function"));
}
END_TEST

Suite *dynlib_suite(void);
Suite *dynlib_suite(void)
{
	Suite *s = suite_create("dynlib");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_loads_first_found);
	tcase_add_test(tc, test_no_library);
	tcase_add_test(tc, test_missing_function);
	suite_add_tcase(s, tc);
	return s;
}
