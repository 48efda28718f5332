/* Tests of rowset__neighbours (ui/report/neighbours.c): a row's callers and
 * callees with their shares, on cgwork in miniature (tests/cgwork.h). */
#include <stdlib.h>
#include <string.h>

#include "tests/cgwork.h"

static const struct row *nb_find(const struct row *arr, size_t nr,
				 const char *name)
{
	for (size_t i = 0; i < nr; i++)
		if (arr[i].sym && strcmp(arr[i].sym, name) == 0)
			return &arr[i];
	return NULL;
}

START_TEST(test_neighbours)
{
	struct cg_neighbours nb;
	struct rowset rs;
	struct snapshot snap;
	const struct row *r;

	cgw_feed();
	cgw_build(&rs, &snap, true);
	cg_neighbours__init(&nb);

	/* lib_work: called by caller_x (2/3) and caller_y (1/3) */
	ck_assert_int_eq(rowset__neighbours(&rs, cgw_find(&rs, "lib_work"), &nb),
			 0);
	ck_assert_uint_eq(nb.total_period, 300);
	ck_assert_uint_eq(nb.self_period, 300);
	ck_assert_uint_eq(nb.nr_callers, 2);
	ck_assert_str_eq(nb.callers[0].sym, "caller_x");	/* largest first */
	ck_assert_uint_eq(nb.callers[0].period, 200);
	ck_assert_uint_eq(nb.callers[0].samples, 2);
	ck_assert_str_eq(nb.callers[0].dso_name, "cgw");
	ck_assert_str_eq(nb.callers[1].sym, "caller_y");
	ck_assert_uint_eq(nb.callers[1].period, 100);
	ck_assert_uint_eq(nb.nr_callees, 0);

	/* outer: called by main, calls inner_a (2/3) and inner_b (1/3) */
	ck_assert_int_eq(rowset__neighbours(&rs, cgw_find(&rs, "outer"), &nb), 0);
	ck_assert_uint_eq(nb.total_period, 300);
	ck_assert_uint_eq(nb.self_period, 0);
	ck_assert_uint_eq(nb.nr_callers, 1);
	ck_assert_str_eq(nb.callers[0].sym, "main");
	ck_assert_uint_eq(nb.callers[0].period, 300);
	ck_assert_uint_eq(nb.nr_callees, 2);
	ck_assert_str_eq(nb.callees[0].sym, "inner_a");
	ck_assert_uint_eq(nb.callees[0].period, 200);
	ck_assert_str_eq(nb.callees[1].sym, "inner_b");
	ck_assert_uint_eq(nb.callees[1].period, 100);

	/* caller_x: its own samples and lib_work's; a neighbour row is
	 * usable as the next function (Enter in the view) */
	ck_assert_int_eq(rowset__neighbours(&rs, cgw_find(&rs, "caller_x"), &nb),
			 0);
	ck_assert_uint_eq(nb.total_period, 210);
	ck_assert_uint_eq(nb.self_period, 10);
	r = nb_find(nb.callees, nb.nr_callees, "lib_work");
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->period, 200);
	ck_assert_str_eq(r->dso_name, "libwlcg.so");
	ck_assert(rowset__same_row(&rs, r, cgw_find(&rs, "lib_work")));
	ck_assert(!rowset__same_row(&rs, r, cgw_find(&rs, "caller_x")));

	/* main, the root: no caller; its callees add up to its total */
	ck_assert_int_eq(rowset__neighbours(&rs, cgw_find(&rs, "main"), &nb), 0);
	ck_assert_uint_eq(nb.nr_callers, 0);
	ck_assert_uint_eq(nb.total_period, 610);
	ck_assert_uint_eq(nb.nr_callees, 3);
	ck_assert_str_eq(nb.callees[0].sym, "outer");
	r = nb_find(nb.callees, nb.nr_callees, "caller_x");
	ck_assert_uint_eq(r->period, 210);

	cg_neighbours__fini(&nb);
	cg_neighbours__fini(&nb);	/* twice: harmless */
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

START_TEST(test_neighbours_recursion_and_no_chain)
{
	static const int r[] = { F_INNER_A, F_INNER_A, F_OUTER, F_MAIN };
	struct fake_sample fs = { .pid = 10, .tid = 10, .time = 1, .period = 7,
				  .misc = PERF_RECORD_MISC_USER,
				  .ip = 0x401240 };
	struct cg_neighbours nb;
	struct rowset rs;
	struct snapshot snap;

	cgw_sample(10, 4, r);
	/* a sample without a chain counts as self only */
	ck_assert_int_eq(session__process(cgw, fake_sample(cgw_buf, CGW_ST, &fs)), 0);
	cgw_build(&rs, &snap, true);
	cg_neighbours__init(&nb);
	ck_assert_int_eq(rowset__neighbours(&rs, cgw_find(&rs, "inner_a"), &nb),
			 0);
	/* once per sample, whatever the depth of the recursion */
	ck_assert_uint_eq(nb.total_period, 17);
	ck_assert_uint_eq(nb.self_period, 17);
	ck_assert_uint_eq(nb.nr_callers, 2);
	ck_assert_uint_eq(nb_find(nb.callers, nb.nr_callers, "outer")->period,
			  10);
	ck_assert_uint_eq(nb_find(nb.callers, nb.nr_callers,
				  "inner_a")->period, 10);
	ck_assert_uint_eq(nb.nr_callees, 1);
	ck_assert_str_eq(nb.callees[0].sym, "inner_a");
	cg_neighbours__fini(&nb);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

Suite *neighbours_suite(void);
Suite *neighbours_suite(void)
{
	Suite *ss = suite_create("neighbours");
	TCase *tc = tcase_create("neighbours");

	tcase_add_checked_fixture(tc, cgw_setup, cgw_teardown);
	tcase_add_test(tc, test_neighbours);
	tcase_add_test(tc, test_neighbours_recursion_and_no_chain);
	suite_add_tcase(ss, tc);
	return ss;
}
