/* Tests of view_callers (ui/tui/view_callers.c): the caller/callee view and its
 * keys, and hostile names in it and in tree lines, on a tui without a
 * terminal (tests/cgwork.h). */
#include <stdlib.h>
#include <string.h>

#include "tests/cgwork.h"

START_TEST(test_callers_view)
{
	struct cgw_tui f;
	size_t sub;
	int y;

	cgw_feed();
	cgw_tui_start(&f, true);
	cgw_select_sym(&f, "lib_work");
	ck_assert_int_eq(cgw_key(&f, 'c'), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_CALLERS);
	ck_assert_int_eq(cgw_line_of(&f, "Callers and callees of lib_work "
				     "(libwlcg.so): 49.18% of all samples, "
				     "self 49.18%"), 0);
	ck_assert_int_eq(screen__style_at(&f.s, 0, 0), ST_TITLE);
	y = cgw_line_of(&f, "Callers: who calls lib_work");
	ck_assert_int_eq(y, 1);
	ck_assert_str_eq(screen__text(&f.s, 2), "     66.67%  cgw  [.] caller_x");
	ck_assert_str_eq(screen__text(&f.s, 3), "     33.33%  cgw  [.] caller_y");
	ck_assert_int_eq(screen__style_at(&f.s, 3, 5), ST_HOT);
	/* the first caller is selected */
	ck_assert_int_eq(screen__style_at(&f.s, 2, 5), ST_SELECTED);
	ck_assert_int_ge(cgw_line_of(&f, "-> lib_work"), 0);
	ck_assert_int_ge(cgw_line_of(&f, "100.00%  (self: in lib_work itself)"), 0);
	ck_assert_int_ge(cgw_line_of(&f, "none: it calls nothing sampled"), 0);
	ck_assert_ptr_nonnull(strstr(screen__text(&f.s, 39), "Enter"));

	/* Enter moves to caller_x: its caller and callees */
	ck_assert_int_eq(cgw_key(&f, K_ENTER), R_REDRAW);
	ck_assert_int_eq(cgw_line_of(&f, "Callers and callees of caller_x"), 0);
	ck_assert_int_ge(cgw_line_of(&f, "[1 back with Esc]"), 0);
	ck_assert_int_ge(cgw_line_of(&f, "    100.00%  cgw         [.] main"), 0);
	ck_assert_int_ge(cgw_line_of(&f, "      4.76%  (self: in caller_x"), 0);
	ck_assert_int_ge(cgw_line_of(&f, "     95.24%  libwlcg.so  [.] lib_work"),
			 0);
	/* and on to main, then back twice */
	cgw_key(&f, K_ENTER);
	ck_assert_int_eq(cgw_line_of(&f, "Callers and callees of main"), 0);
	ck_assert_int_ge(cgw_line_of(&f, "none: its chains start here"), 0);
	ck_assert_int_ge(cgw_line_of(&f, "49.18%  cgw  [.] outer"), 0);
	/* a title line is not a function */
	cgw_key(&f, K_HOME);
	ck_assert_int_eq(cgw_key(&f, K_ENTER), R_REDRAW);
	ck_assert_ptr_nonnull(strstr(f.t.status, "Enter on a caller"));
	ck_assert_int_eq(cgw_key(&f, K_ESC), R_REDRAW);
	ck_assert_int_eq(cgw_line_of(&f, "Callers and callees of caller_x"), 0);
	ck_assert_int_eq(cgw_key(&f, K_LEFT), R_REDRAW);
	ck_assert_int_eq(cgw_line_of(&f, "Callers and callees of lib_work"), 0);
	/* where we left it: caller_x selected */
	ck_assert_int_eq(screen__style_at(&f.s, 2, 5), ST_SELECTED);

	/* a refresh while it is open: new shares */
	for (int i = 0; i < 3; i++) {
		static const int yy[] = { F_LIB_WORK, F_CALLER_Y, F_MAIN };

		cgw_sample(100, 3, yy);
	}
	cgw_tui_refresh(&f);
	cgw_line_of(&f, "");
	ck_assert_str_eq(screen__text(&f.s, 2), "     66.67%  cgw  [.] caller_y");
	ck_assert_str_eq(screen__text(&f.s, 3), "     33.33%  cgw  [.] caller_x");
	/* the selection followed caller_x */
	ck_assert_int_eq(screen__style_at(&f.s, 3, 5), ST_SELECTED);

	/* a annotates the selected caller (or says why it cannot) */
	f.t.status[0] = '\0';
	cgw_key(&f, 'a');
	ck_assert(strstr(f.t.status, "caller_x") ||
		  tui__view(&f.t) != V_CALLERS);
	while (tui__view(&f.t) != V_CALLERS && f.t.depth > 1)
		tui__pop(&f.t);

	/* small screens */
	for (size_t h = 0; h < 12; h++) {
		screen__resize(&f.s, h, 3 + h * 9);
		cgw_line_of(&f, "");
	}
	screen__resize(&f.s, 40, 120);
	/* Esc from the first function: the table, as it was */
	ck_assert_int_eq(cgw_key(&f, K_ESC), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	ck_assert_str_eq(cgw_selected_sym(&f, &sub), "lib_work");

	/* c on a tree line: the function it names; q: straight back */
	cgw_select_sym(&f, "outer");
	cgw_key(&f, '+');
	cgw_key(&f, K_DOWN);
	cgw_key(&f, K_DOWN);
	cgw_key(&f, K_DOWN);
	cgw_key(&f, 'c');
	ck_assert_int_eq(cgw_line_of(&f, "Callers and callees of inner_"), 0);
	cgw_key(&f, K_ENTER);
	ck_assert_int_eq(cgw_line_of(&f, "Callers and callees of outer"), 0);
	ck_assert_int_eq(cgw_key(&f, 'q'), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	/* reopened: no stack left from before */
	cgw_key(&f, 'c');
	ck_assert_int_eq(cgw_line_of(&f, "[1 back"), -1);
	cgw_key(&f, K_ESC);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	cgw_tui_stop(&f);
}
END_TEST

/* Hostile names in tree lines and in the caller/callee view: no control
 * byte reaches the screen, nothing is wider than it. */
START_TEST(test_hostile_names)
{
	static const int e[] = { F_LIB_WORK, F_EVIL, F_MAIN };
	struct cgw_tui f;
	int y;

	cgw_feed();
	cgw_sample(1000, 3, e);
	cgw_tui_start(&f, true);
	cgw_select_sym(&f, "main");
	cgw_key(&f, '+');
	y = cgw_line_of(&f, "--ev?[2Jil?31m??]52;c;QUJD?xxxx");
	ck_assert_int_gt(y, 0);
	for (size_t w = 2; w < 200; w += 13) {
		screen__resize(&f.s, 30, w);
		cgw_line_of(&f, "");
		for (size_t yy = 0; yy < f.s.rows; yy++)
			for (const char *p = screen__text(&f.s, yy); *p; p++)
				ck_assert((unsigned char)*p >= 0x20 &&
					  *p != 0x7f);
	}
	screen__resize(&f.s, 40, 120);
	cgw_select_sym(&f, "lib_work");
	cgw_key(&f, 'c');
	/* the largest caller, selected: Enter moves to it */
	ck_assert_int_ge(cgw_line_of(&f, "[.] ev?[2Jil?31m??]52;c;QUJD?xxx"), 0);
	cgw_key(&f, K_ENTER);
	y = cgw_line_of(&f, "Callers and callees of ev?[2Jil?31m??]52;c;QUJD?x");
	ck_assert_int_eq(y, 0);
	/* the name in the title is cut with an ellipsis, whole characters */
	ck_assert_ptr_nonnull(strstr(screen__text(&f.s, 0),
				     "xxx\xe2\x80\xa6 (cgw)"));
	for (size_t w = 2; w < 200; w += 13) {
		screen__resize(&f.s, 30, w);
		cgw_line_of(&f, "");
		for (size_t yy = 0; yy < f.s.rows; yy++)
			for (const char *p = screen__text(&f.s, yy); *p; p++)
				ck_assert((unsigned char)*p >= 0x20 &&
					  *p != 0x7f);
	}
	cgw_tui_stop(&f);
}
END_TEST

Suite *view_callers_suite(void);
Suite *view_callers_suite(void)
{
	Suite *ss = suite_create("view_callers");
	TCase *tc = tcase_create("view_callers");

	tcase_add_checked_fixture(tc, cgw_setup, cgw_teardown);
	tcase_add_test(tc, test_callers_view);
	tcase_add_test(tc, test_hostile_names);
	suite_add_tcase(ss, tc);
	return ss;
}
