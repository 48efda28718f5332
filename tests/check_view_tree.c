/* Tests of view_tree (ui/tui/view_tree.c): call trees under the live table's
 * rows and their keys, on a tui without a terminal (tests/cgwork.h). */
#include <stdlib.h>
#include <string.h>

#include "tests/cgwork.h"

START_TEST(test_table_trees)
{
	struct cgw_tui f;
	size_t sub, rows;
	int y;

	cgw_feed();
	cgw_tui_start(&f, true);
	rows = f.t.table.rows.nr;
	/* Children and Self, the trees' order in the titles */
	y = cgw_line_of(&f, "Children");
	ck_assert_int_ge(y, 0);
	ck_assert_ptr_nonnull(strstr(screen__text(&f.s, (size_t)y), "Self"));
	ck_assert_ptr_nonnull(strstr(screen__text(&f.s, (size_t)y),
				     "[trees: callers first, G flips]"));
	/* + on outer: what it spends in inner_a and inner_b */
	cgw_select_sym(&f, "outer");
	ck_assert_int_eq(cgw_key(&f, '+'), R_REBUILD);
	ck_assert_ptr_nonnull(strstr(f.t.status, "call tree of outer"));
	ck_assert_str_eq(cgw_selected_sym(&f, &sub), "outer");
	ck_assert_uint_eq(sub, 0);
	y = cgw_line_of(&f, "[.] outer");
	ck_assert_int_gt(y, 0);
	ck_assert_str_eq(screen__text(&f.s, (size_t)y + 1), CT_INDENT "---outer");
	ck_assert_str_eq(screen__text(&f.s, (size_t)y + 3),
			 CT_INDENT "   |--66.67%--inner_a");
	ck_assert_str_eq(screen__text(&f.s, (size_t)y + 5),
			 CT_INDENT "    --33.33%--inner_b");
	ck_assert_uint_eq(listview__nr(&top__of(&f.t)->lv), rows + 5);
	ck_assert_int_eq(screen__style_at(&f.s, (size_t)y + 1, 0), ST_NORMAL);
	/* tree lines are selectable; the selection knows its row */
	cgw_key(&f, K_DOWN);
	cgw_key(&f, K_DOWN);
	cgw_key(&f, K_DOWN);
	ck_assert_str_eq(cgw_selected_sym(&f, &sub), "outer");
	ck_assert_uint_eq(sub, 3);
	ck_assert_int_eq(screen__style_at(&f.s, (size_t)y + 3, 0), ST_NORMAL);
	ck_assert_int_eq(cgw_line_of(&f, "|--66.67%--inner_a"), y + 3);
	ck_assert_int_eq(screen__style_at(&f.s, (size_t)y + 3, 0), ST_SELECTED);

	/* a refresh that reorders rows keeps the row and its tree line */
	for (int i = 0; i < 10; i++) {
		static const int b[] = { F_INNER_B, F_OUTER, F_MAIN };

		cgw_sample(100, 3, b);
	}
	cgw_tui_refresh(&f);
	ck_assert_str_eq(cgw_selected_sym(&f, &sub), "outer");
	ck_assert_uint_eq(sub, 3);
	/* inner_b is the larger branch now */
	ck_assert_int_ge(cgw_line_of(&f, "|--84.62%--inner_b"), 0);

	/* G: callee order, said in the titles */
	ck_assert_int_eq(cgw_key(&f, 'G'), R_REBUILD);
	ck_assert_int_ge(cgw_line_of(&f, "[trees: callees first"), 0);
	y = cgw_line_of(&f, "|--84.62%--inner_b");
	ck_assert_int_gt(y, 0);
	ck_assert_str_eq(screen__text(&f.s, (size_t)y + 1),
			 CT_INDENT "|          outer");
	ck_assert_str_eq(cgw_selected_sym(&f, &sub), "outer");
	cgw_key(&f, 'G');

	/* + on a tree line collapses its row's tree */
	cgw_key(&f, K_DOWN);
	ck_assert_int_eq(cgw_key(&f, '+'), R_REBUILD);
	ck_assert_str_eq(cgw_selected_sym(&f, &sub), "outer");
	ck_assert_uint_eq(sub, 0);
	ck_assert_uint_eq(listview__nr(&top__of(&f.t)->lv), rows);

	/* E: every tree; + makes an exception; C: none */
	ck_assert_int_eq(cgw_key(&f, 'E'), R_REBUILD);
	ck_assert_uint_gt(listview__nr(&top__of(&f.t)->lv), rows * 3);
	ck_assert(treelines__expanded(&top__of(&f.t)->ct, &f.t.table.rows, 0));
	cgw_select_sym(&f, "main");
	cgw_key(&f, '+');
	ck_assert(!treelines__expanded(&top__of(&f.t)->ct, &f.t.table.rows,
				      (size_t)(top__selected_row(&f.t) -
					       f.t.table.rows.rows)));
	cgw_select_sym(&f, "inner_a");
	ck_assert_int_eq(cgw_key(&f, 'C'), R_REBUILD);
	ck_assert_uint_eq(listview__nr(&top__of(&f.t)->lv), rows);
	ck_assert_str_eq(cgw_selected_sym(&f, &sub), "inner_a");

	/* the row menu expands too */
	cgw_select_sym(&f, "outer");
	ck_assert_int_eq(cgw_key(&f, K_ENTER), R_REDRAW);
	ck_assert_str_eq(menu__shown(&f.t)->items[1].label, "Expand the call tree (+)");
	ck_assert_str_eq(menu__shown(&f.t)->items[2].label, "Callers and callees (c)");
	cgw_key(&f, K_DOWN);
	ck_assert_int_eq(cgw_key(&f, K_ENTER), R_REBUILD);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	ck_assert_uint_eq(listview__nr(&top__of(&f.t)->lv), rows + 5);
	cgw_key(&f, K_ENTER);
	ck_assert_str_eq(menu__shown(&f.t)->items[1].label,
			 "Collapse the call tree (+)");
	cgw_key(&f, K_ESC);

	/* every size: trees never overflow the screen */
	cgw_key(&f, 'E');
	for (size_t w = 1; w < 130; w += 7) {
		screen__resize(&f.s, 12, w);
		cgw_line_of(&f, "");
	}
	cgw_tui_stop(&f);

	/* --call-graph ...,callee: the trees start in callee order */
	cgw_tui_start_order(&f, true, CG_CALLEE);
	ck_assert_int_ge(cgw_line_of(&f, "[trees: callees first, G flips]"), 0);
	cgw_select_sym(&f, "inner_a");
	cgw_key(&f, '+');
	ck_assert_int_ge(cgw_line_of(&f, CT_INDENT "---inner_a"), 0);
	ck_assert_int_ge(cgw_line_of(&f, CT_INDENT "   outer"), 0);
	cgw_tui_stop(&f);
}
END_TEST

START_TEST(test_no_chains)
{
	struct cgw_tui f;

	cgw_start_without_chains(&f);
	ck_assert_int_eq(cgw_line_of(&f, "[trees:"), -1);
	ck_assert_int_eq(cgw_key(&f, '+'), R_REDRAW);
	ck_assert_ptr_nonnull(strstr(f.t.status,
				     "no call chains were sampled: start ptop "
				     "with -g"));
	f.t.status[0] = '\0';
	cgw_key(&f, 'E');
	ck_assert_ptr_nonnull(strstr(f.t.status, "no call chains"));
	f.t.status[0] = '\0';
	cgw_key(&f, 'C');
	ck_assert_ptr_nonnull(strstr(f.t.status, "no call chains"));
	cgw_key(&f, 'c');
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	/* the row menu has no tree entries */
	cgw_key(&f, K_ENTER);
	ck_assert_str_eq(menu__shown(&f.t)->items[1].label, "Zoom into cgw (d)");
	cgw_tui_stop(&f);
}
END_TEST

Suite *view_tree_suite(void);
Suite *view_tree_suite(void)
{
	Suite *ss = suite_create("view_tree");
	TCase *tc = tcase_create("view_tree");

	tcase_add_checked_fixture(tc, cgw_setup, cgw_teardown);
	tcase_add_test(tc, test_table_trees);
	tcase_add_test(tc, test_no_chains);
	suite_add_tcase(ss, tc);
	return ss;
}
