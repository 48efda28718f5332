/* check_pidlist: the one pid-list parser (-p/-t and the live view's
 * retarget prompt), pure. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "src/core/util.h"

static int parse(const char *s, pid_t **p, size_t *n)
{
	return pidlist__parse(s, p, n);
}

START_TEST(test_pidlist_separators)
{
	/* main.c took commas, the prompt commas and spaces: both, and
	 * tabs, with empty items skipped */
	static const char *const ok[] = {
		"12,34", "12 34", "12, 34", " 12 ,, 34 ", "12\t34", ",12,34,",
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		pid_t *p = NULL;
		size_t n = 0;

		ck_assert_msg(parse(ok[i], &p, &n) == 0, "'%s'", ok[i]);
		ck_assert_uint_eq(n, 2);
		ck_assert_int_eq(p[0], 12);
		ck_assert_int_eq(p[1], 34);
		free(p);
	}
}
END_TEST

START_TEST(test_pidlist_bad)
{
	static const char *const bad[] = {
		"", ",", "  ", "0", "12,x", "-5", "2147483648", "12;34", "1.5",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pid_t *p = NULL;
		size_t n = 0;

		ck_assert_msg(parse(bad[i], &p, &n) == -EINVAL, "'%s'", bad[i]);
		free(p);
	}
}
END_TEST

START_TEST(test_pidlist_appends)
{
	pid_t *p = NULL;
	size_t n = 0;

	/* -p 1 -p 2,3: one list */
	ck_assert_int_eq(parse("1", &p, &n), 0);
	ck_assert_int_eq(parse("2,3", &p, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(p[2], 3);
	/* a later empty list is no error once there are pids (as -p was) */
	ck_assert_int_eq(parse(",", &p, &n), 0);
	ck_assert_int_eq(parse("0x10", &p, &n), 0);	/* parse_u64's bases */
	ck_assert_int_eq(p[3], 16);
	ck_assert_int_eq(parse("2147483647", &p, &n), 0);
	free(p);
}
END_TEST

Suite *pidlist_suite(void);
Suite *pidlist_suite(void)
{
	Suite *s = suite_create("pidlist");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_pidlist_separators);
	tcase_add_test(tc, test_pidlist_bad);
	tcase_add_test(tc, test_pidlist_appends);
	suite_add_tcase(s, tc);
	return s;
}
