/* Tests of treelines (ui/report/treelines.c): the call trees expanded under the
 * table's rows, built lazily as drawn, on cgwork in miniature. */
#include <stdlib.h>
#include <string.h>

#include "tests/cgwork.h"

/* The lines of a treelines, as text: "row sub text" each. */
static void ct_text(const struct treelines *ct, const struct rowset *rs,
		    struct strbuf *sb)
{
	strbuf__reset(sb);
	for (size_t i = 0; i < treelines__nr_lines(ct, rs); i++) {
		size_t row, sub;
		const struct ct_line *l = treelines__line(ct, rs, i, &row, &sub);

		strbuf__addf(sb, "%zu %zu %.*s\n", row, sub,
			     l ? (int)l->len : 0, l ? ct->text.buf + l->off : "");
	}
}

/* Trees drawn as they are wanted (want_lines, treelines__draw_to) end as
 * the whole drawing: the same lines, rows before the first that waited
 * at the same numbers, and line_of finds a row's line after a draw. */
START_TEST(test_tree_lazy)
{
	struct rowset rs;
	struct snapshot snap;
	struct treelines all, lazy;
	struct strbuf a, b;
	size_t first_lines;

	cgw_feed();
	cgw_build(&rs, &snap, true);
	ck_assert_uint_ge(rs.nr, 6);
	strbuf__init(&a);
	strbuf__init(&b);
	treelines__init(&all, CG_CALLER, 0.5);
	treelines__init(&lazy, CG_CALLER, 0.5);
	treelines__expand_all(&all);
	treelines__expand_all(&lazy);
	ck_assert_int_eq(treelines__build(&all, &rs), 0);
	ck_assert(treelines__complete(&all, &rs));
	ct_text(&all, &rs, &a);
	/* row 0's tree and 2 lines after its line: main's tree, then the
	 * next rows wait */
	lazy.want_row = 0;
	lazy.want_lines = 2;
	ck_assert_int_eq(treelines__build(&lazy, &rs), 0);
	ck_assert(!treelines__complete(&lazy, &rs));
	ck_assert_uint_gt(lazy.lazy_from, 0);
	ck_assert_uint_lt(lazy.lazy_from, rs.nr);
	ck_assert_uint_lt(treelines__nr_lines(&lazy, &rs),
			  treelines__nr_lines(&all, &rs));
	/* what is drawn is what the whole drawing has there */
	first_lines = treelines__line_of(&lazy, &rs, lazy.lazy_from, 0);
	ct_text(&lazy, &rs, &b);
	ck_assert_int_eq(strncmp(a.buf, b.buf,
				 strstr(b.buf, "\n") - b.buf), 0);
	for (size_t i = 0; i < first_lines; i++) {
		size_t r1, s1, r2, s2;

		treelines__line(&all, &rs, i, &r1, &s1);
		treelines__line(&lazy, &rs, i, &r2, &s2);
		ck_assert_uint_eq(r1, r2);
		ck_assert_uint_eq(s1, s2);
	}
	/* a row that waited: drawn on asking, and the rest with SIZE_MAX */
	ck_assert_int_eq(treelines__draw_to(&lazy, &rs, lazy.lazy_from, 1), 0);
	ck_assert_int_eq(treelines__draw_to(&lazy, &rs, rs.nr - 1, SIZE_MAX),
			 0);
	ck_assert(treelines__complete(&lazy, &rs));
	ct_text(&lazy, &rs, &b);
	ck_assert_str_eq(a.buf, b.buf);
	for (size_t r = 0; r < rs.nr; r++)
		ck_assert_uint_eq(treelines__line_of(&lazy, &rs, r, 0),
				  treelines__line_of(&all, &rs, r, 0));
	treelines__fini(&all);
	treelines__fini(&lazy);
	strbuf__fini(&a);
	strbuf__fini(&b);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

Suite *treelines_suite(void);
Suite *treelines_suite(void)
{
	Suite *ss = suite_create("treelines");
	TCase *tc = tcase_create("treelines");

	tcase_add_checked_fixture(tc, cgw_setup, cgw_teardown);
	tcase_add_test(tc, test_tree_lazy);
	suite_add_tcase(ss, tc);
	return ss;
}
