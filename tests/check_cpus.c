/* Tests of cpus (src/sys/cpus.c): the online and possible CPUs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/evtest.h"

START_TEST(test_cpus)
{
	bool online[PTOP_MAX_CPUS];
	int n = cpus__online(online), count = 0;

	ck_assert_int_ge(n, 1);
	ck_assert_int_eq(n, (int)sysconf(_SC_NPROCESSORS_ONLN));
	for (int c = 0; c < PTOP_MAX_CPUS; c++)
		count += online[c];
	ck_assert_int_eq(count, n);
	ck_assert_int_ge(cpus__nr_possible(), n);
}
END_TEST

Suite *cpus_suite(void);
Suite *cpus_suite(void)
{
	Suite *s = suite_create("cpus");
	TCase *tc = evt_tcase("cpus");

	tcase_add_test(tc, test_cpus);
	suite_add_tcase(s, tc);
	return s;
}
