/* check_mouse: the terminal's mouse reports as events (ui/tui/mouse.c:
 * double clicks by time and place, drags by the held button), and where
 * lists and the table's columns were drawn, for clicks. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "ui/report/fmt.h"
#include "ui/tui/listview.h"
#include "ui/tui/mouse.h"

static bool ev(struct mouse_state *st, int x, int y, enum mouse_button b,
	       enum mouse_kind k, double now, struct mouse_event *out)
{
	return mouse__event(st, x, y, b, k, now, out);
}

START_TEST(test_clicks_and_double_clicks)
{
	struct mouse_state st = { 0 };
	struct mouse_event e;

	ck_assert(ev(&st, 5, 3, MB_LEFT, MK_PRESS, 10.0, &e));
	ck_assert_int_eq(e.clicks, 1);
	ck_assert(e.x == 5 && e.y == 3 && e.button == MB_LEFT);
	ck_assert(ev(&st, 5, 3, MB_LEFT, MK_RELEASE, 10.01, &e));
	/* the second press on the same cell, soon after: a double click */
	ck_assert(ev(&st, 5, 3, MB_LEFT, MK_PRESS, 10.2, &e));
	ck_assert_int_eq(e.clicks, 2);
	ev(&st, 5, 3, MB_LEFT, MK_RELEASE, 10.21, &e);
	/* a third is a click again, not a second double */
	ck_assert(ev(&st, 5, 3, MB_LEFT, MK_PRESS, 10.3, &e));
	ck_assert_int_eq(e.clicks, 1);
	ev(&st, 5, 3, MB_LEFT, MK_RELEASE, 10.31, &e);
	/* too late, elsewhere, another button: clicks */
	ck_assert(ev(&st, 5, 3, MB_LEFT, MK_PRESS, 10.3 + MOUSE_DOUBLE_S + 0.01,
		     &e));
	ck_assert_int_eq(e.clicks, 1);
	ev(&st, 5, 3, MB_LEFT, MK_RELEASE, 11.0, &e);
	ck_assert(ev(&st, 6, 3, MB_LEFT, MK_PRESS, 11.1, &e));
	ck_assert_int_eq(e.clicks, 1);
	ev(&st, 6, 3, MB_LEFT, MK_RELEASE, 11.11, &e);
	ck_assert(ev(&st, 6, 3, MB_RIGHT, MK_PRESS, 11.2, &e));
	ck_assert_int_eq(e.clicks, 1);
	/* both presses of a double click in one read: the same time */
	memset(&st, 0, sizeof(st));
	ev(&st, 1, 1, MB_LEFT, MK_PRESS, 5.0, &e);
	ev(&st, 1, 1, MB_LEFT, MK_RELEASE, 5.0, &e);
	ck_assert(ev(&st, 1, 1, MB_LEFT, MK_PRESS, 5.0, &e));
	ck_assert_int_eq(e.clicks, 2);
}
END_TEST

START_TEST(test_release_drag_wheel)
{
	struct mouse_state st = { 0 };
	struct mouse_event e;

	/* motion with no button held is no event */
	ck_assert(!ev(&st, 1, 1, MB_NONE, MK_DRAG, 1.0, &e));
	ck_assert(ev(&st, 1, 1, MB_LEFT, MK_PRESS, 1.0, &e));
	/* a drag is of the held button; it ends a double click */
	ck_assert(ev(&st, 4, 1, MB_NONE, MK_DRAG, 1.05, &e));
	ck_assert(e.kind == MK_DRAG && e.button == MB_LEFT && e.x == 4);
	/* an X10 release says no button: the held one's */
	ck_assert(ev(&st, 4, 1, MB_NONE, MK_RELEASE, 1.1, &e));
	ck_assert(e.kind == MK_RELEASE && e.button == MB_LEFT);
	ck_assert(!ev(&st, 4, 1, MB_NONE, MK_RELEASE, 1.15, &e));
	ck_assert(ev(&st, 4, 1, MB_LEFT, MK_PRESS, 1.2, &e));
	ck_assert_int_eq(e.clicks, 1);
	ev(&st, 4, 1, MB_LEFT, MK_RELEASE, 1.2, &e);
	/* the wheel: notches, never clicks */
	ck_assert(ev(&st, 2, 2, MB_WHEEL_DOWN, MK_WHEEL, 2.0, &e));
	ck_assert(e.kind == MK_WHEEL && e.button == MB_WHEEL_DOWN);
	ck_assert(!ev(&st, 2, 2, MB_WHEEL_UP, MK_PRESS, 2.0, &e));
	ck_assert(!ev(&st, 2, 2, MB_LEFT, MK_WHEEL, 2.0, &e));
}
END_TEST

static size_t nr_rows(void *ctx)
{
	return *(size_t *)ctx;
}

static void row(void *ctx, size_t i, struct screen *s, size_t y)
{
	(void)ctx;
	screen__addf(s, y, ST_NORMAL, "row %zu", i);
}

static void header(void *ctx, struct screen *s, size_t y)
{
	(void)ctx;
	screen__add(s, y, ST_TITLE, "Title");
}

/* where a list was drawn: the row a click on a line lands on */
START_TEST(test_listview_at)
{
	static const struct list_ops ops = { .nr_rows = nr_rows,
					     .format_row = row,
					     .format_header = header };
	size_t n = 20, pos;
	struct listview lv;
	struct screen s;

	screen__init(&s);
	screen__resize(&s, 10, 40);
	listview__init(&lv, &ops, &n);
	ck_assert(!listview__at(&lv, 0, &pos));	/* not drawn yet */
	/* header on line 2, rows from line 3, 5 of them */
	listview__render(&lv, &s, 2, 6);
	ck_assert_uint_eq(lv.drawn_header, 2);
	ck_assert(!listview__at(&lv, 2, &pos));
	ck_assert(listview__at(&lv, 3, &pos));
	ck_assert_uint_eq(pos, 0);
	ck_assert(listview__at(&lv, 7, &pos));
	ck_assert_uint_eq(pos, 4);
	ck_assert(!listview__at(&lv, 8, &pos));
	/* scrolled: the line shows another row */
	for (int i = 0; i < 12; i++)
		listview__move(&lv, LV_DOWN);
	screen__clear(&s);
	listview__render(&lv, &s, 2, 6);
	ck_assert(listview__at(&lv, 3, &pos));
	ck_assert_str_eq(screen__text(&s, 3), "row 8");
	ck_assert_uint_eq(pos, 8);
	/* fewer rows than lines: past the last, nothing */
	n = 2;
	listview__update(&lv);
	screen__clear(&s);
	listview__render(&lv, &s, 2, 6);
	ck_assert(listview__at(&lv, 4, &pos));
	ck_assert_uint_eq(pos, 1);
	ck_assert(!listview__at(&lv, 5, &pos));
	listview__fini(&lv);
	screen__fini(&s);
}
END_TEST

/* a click's column on the table's titles */
START_TEST(test_columns_at)
{
	struct sort_spec spec;
	struct columns c;
	struct strbuf sb;
	const char *h;

	sort_spec__default(&spec);
	columns__init(&c, &spec, true);
	strbuf__init(&sb);
	fmt__header(&sb, &c);
	h = sb.buf;
	ck_assert_str_eq(h, "Overhead  Samples  Period  Shared Object  Symbol");
	ck_assert_int_eq(columns__at(&c, 0), COL_OVERHEAD);
	ck_assert_int_eq(columns__at(&c, 7), COL_OVERHEAD);
	/* a gap belongs to the column after it */
	ck_assert_int_eq(columns__at(&c, 8), COL_SAMPLES);
	ck_assert_int_eq(columns__at(&c, (size_t)(strstr(h, "Samples") - h)),
			 COL_SAMPLES);
	ck_assert_int_eq(columns__at(&c, (size_t)(strstr(h, "Period") - h)),
			 COL_PERIOD);
	ck_assert_int_eq(columns__at(&c, (size_t)(strstr(h, "Shared") - h)),
			 COL_DSO);
	/* the last one takes the rest of the line */
	ck_assert_int_eq(columns__at(&c, 500), COL_SYM);
	strbuf__fini(&sb);
}
END_TEST

Suite *mouse_suite(void);
Suite *mouse_suite(void)
{
	Suite *s = suite_create("mouse");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_clicks_and_double_clicks);
	tcase_add_test(tc, test_release_drag_wheel);
	tcase_add_test(tc, test_listview_at);
	tcase_add_test(tc, test_columns_at);
	suite_add_tcase(s, tc);
	return s;
}
