/* Tests of view_flame (ui/tui/view_flame.c): the live flame graph and its keys,
 * on a tui without a terminal (tests/cgwork.h). */
#include <stdlib.h>
#include <string.h>

#include "tests/cgwork.h"

/* The flame graph view: F, moving, zoom, search, flip, freeze. */
START_TEST(test_flame_view)
{
	struct cgw_tui f;
	int y, all, m;

	cgw_feed();
	cgw_tui_start(&f, true);
	screen__resize(&f.s, 12, 100);
	ck_assert_int_eq(cgw_key(&f, 'F'), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_FLAME);
	ck_assert_int_eq(cgw_line_of(&f, "Flame graph of cpu-clock: 6 samples"), 0);
	ck_assert_int_eq(screen__style_at(&f.s, 0, 0), ST_TITLE);
	/* the outermost at the bottom, above the footer */
	all = cgw_line_is(&f, "all");
	ck_assert_int_eq(all, 10);
	ck_assert_int_eq(cgw_line_is(&f, "main"), all - 1);
	ck_assert_int_eq(screen__style_at(&f.s, all - 1, 0), ST_FL_USER);
	y = all - 2;
	ck_assert_ptr_nonnull(strstr(screen__text(&f.s, y), "caller_x"));
	ck_assert_ptr_nonnull(strstr(screen__text(&f.s, y), "outer"));
	ck_assert_int_eq(cgw_line_of(&f, "all  100.00% (6 samples)"), 1);
	/* all is selected; Up: main, Up: the callee above its middle */
	ck_assert_int_eq(screen__style_at(&f.s, all, 0), ST_SELECTED);
	cgw_key(&f, K_UP);
	ck_assert_int_eq(cgw_line_of(&f, "main  cgw  100.00% (6 samples)"), 1);
	cgw_key(&f, K_UP);
	ck_assert_int_eq(cgw_line_of(&f, "caller_y  cgw  16.67% (1 sample)"), 1);
	cgw_key(&f, K_RIGHT);
	ck_assert_int_eq(cgw_line_of(&f, "outer  cgw  33.33% (2 samples)"), 1);
	cgw_key(&f, K_RIGHT);	/* the last: stays */
	ck_assert_int_eq(cgw_line_of(&f, "outer  cgw"), 1);
	cgw_key(&f, K_LEFT);
	cgw_key(&f, K_LEFT);
	ck_assert_int_eq(cgw_line_of(&f, "caller_x  cgw  50.00% (3 samples), "
				     "self 16.67%"), 1);
	/* zoom into caller_x: it gets the whole width */
	cgw_key(&f, K_ENTER);
	ck_assert_int_eq(cgw_line_of(&f, "zoomed into caller_x (50.00%"), 0);
	m = cgw_line_of(&f, "lib_work");
	ck_assert_int_eq(m, all - 3);
	ck_assert_int_eq(cgw_line_of(&f, "outer"), -1);
	cgw_key(&f, K_UP);
	ck_assert_int_eq(cgw_line_of(&f, "lib_work  libwlcg.so  33.33%"), 1);
	/* search: the share of the matching frames */
	cgw_key(&f, '/');
	ck_assert_uint_eq(tui__view(&f.t), V_PROMPT);
	cgw_key(&f, 'l');
	cgw_key(&f, 'i');
	cgw_key(&f, 'b');
	ck_assert_int_ge(cgw_line_of(&f, "search \"lib\": 33.33% of all samples in the matching frames (66.67% of the zoomed"),
			 0);
	cgw_key(&f, K_ENTER);
	ck_assert_uint_eq(tui__view(&f.t), V_FLAME);
	ck_assert_int_eq(screen__style_at(&f.s, m, 0), ST_SELECTED);
	cgw_key(&f, K_DOWN);
	cgw_line_of(&f, "");
	ck_assert_int_eq(screen__style_at(&f.s, m, 0), ST_FL_MATCH);
	/* a refresh keeps the zoom and the selection */
	for (int i = 0; i < 6; i++) {
		static const int yy[] = { F_LIB_WORK, F_CALLER_X, F_MAIN };

		cgw_sample(100, 3, yy);
	}
	cgw_tui_refresh(&f);
	ck_assert_int_eq(cgw_line_of(&f, "Flame graph of cpu-clock: 12 samples, "
				     "zoomed into caller_x (75.00%"), 0);
	ck_assert_int_eq(cgw_line_of(&f, "caller_x  cgw  75.00% (9 samples)"), 1);
	/* frozen: a refresh changes nothing */
	cgw_key(&f, 'f');
	cgw_sample(100, 3, (const int[]){ F_INNER_A, F_OUTER, F_MAIN });
	cgw_tui_refresh(&f);
	ck_assert_int_eq(cgw_line_of(&f, "12 samples"), 0);
	ck_assert_int_ge(cgw_line_of(&f, "frozen"), 0);
	cgw_key(&f, 'f');
	ck_assert_int_eq(cgw_line_of(&f, "13 samples"), 0);
	/* icicle: the outermost at the top */
	cgw_key(&f, 'i');
	ck_assert_int_eq(cgw_line_is(&f, "all"), 3);	/* under the search line */
	cgw_key(&f, 'i');
	/* Esc zooms out, then goes back to the table */
	cgw_key(&f, K_ESC);
	ck_assert_int_ge(cgw_line_of(&f, "outer"), 0);
	ck_assert_int_eq(cgw_line_of(&f, "zoomed"), -1);
	/* small screens */
	for (size_t h = 0; h < 8; h++) {
		screen__resize(&f.s, h, 1 + h * 7);
		cgw_line_of(&f, "");
	}
	screen__resize(&f.s, 12, 100);
	cgw_key(&f, K_ESC);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	/* F again: a new graph, not zoomed */
	cgw_key(&f, 'F');
	ck_assert_int_eq(cgw_line_of(&f, "zoomed"), -1);
	cgw_key(&f, 'q');
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	cgw_tui_stop(&f);
}
END_TEST

/* Without chains the flame graph says how to get them. */
START_TEST(test_flame_no_chains)
{
	struct cgw_tui f;

	cgw_start_without_chains(&f);
	ck_assert_int_eq(cgw_key(&f, 'F'), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	ck_assert_ptr_nonnull(strstr(f.t.status, "start ptop with -g"));
	cgw_tui_stop(&f);
}
END_TEST

Suite *view_flame_suite(void);
Suite *view_flame_suite(void)
{
	Suite *ss = suite_create("view_flame");
	TCase *tc = tcase_create("view_flame");

	tcase_add_checked_fixture(tc, cgw_setup, cgw_teardown);
	tcase_add_test(tc, test_flame_view);
	tcase_add_test(tc, test_flame_no_chains);
	suite_add_tcase(ss, tc);
	return ss;
}
