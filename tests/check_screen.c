/* Tests of the screen model: lines are cut with an ellipsis at the
 * right edge (never wrapped), wide characters count twice, external text
 * is sanitized, tiny and empty screens are safe. */
#include <string.h>

#include "ui/report/sanitize.h"
#include "ui/tui/screen.h"
#include "tests/testutil.h"

#define ELL "\xe2\x80\xa6"

START_TEST(test_cut_with_ellipsis)
{
	struct screen s;

	screen__init(&s);
	screen__resize(&s, 3, 10);
	ck_assert_uint_eq(screen__add(&s, 0, ST_NORMAL, "0123456789abc"), 10);
	ck_assert_str_eq(screen__text(&s, 0), "012345678" ELL);
	/* a full line ignores further text */
	ck_assert_uint_eq(screen__add(&s, 0, ST_NORMAL, "x"), 0);
	screen__add(&s, 1, ST_NORMAL, "01234");
	screen__add(&s, 1, ST_HOT, "56789");
	ck_assert_str_eq(screen__text(&s, 1), "0123456789");
	ck_assert_int_eq(screen__style_at(&s, 1, 4), ST_NORMAL);
	ck_assert_int_eq(screen__style_at(&s, 1, 5), ST_HOT);
	/* out of range: ignored */
	ck_assert_uint_eq(screen__add(&s, 3, ST_NORMAL, "x"), 0);
	ck_assert_str_eq(screen__text(&s, 7), "");
	screen__fini(&s);
}
END_TEST

START_TEST(test_wide_characters)
{
	struct screen s;

	screen__init(&s);
	screen__resize(&s, 1, 5);
	/* three CJK characters are six columns: two fit, then the ellipsis */
	ck_assert_uint_eq(screen__add(&s, 0, ST_NORMAL,
				      "\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2"),
			  5);
	ck_assert_str_eq(screen__text(&s, 0), "\xe6\xbc\xa2\xe5\xad\x97" ELL);
	ck_assert_uint_eq(display_width(screen__text(&s, 0),
					strlen(screen__text(&s, 0))),
			  5);
	screen__fini(&s);
}
END_TEST

START_TEST(test_external_text_sanitized)
{
	struct screen s;
	const char *t;

	screen__init(&s);
	screen__resize(&s, 1, 80);
	/* ESC sequences, OSC 52, C1 CSI, a bidi override, a newline */
	screen__add_ext(&s, 0, ST_NORMAL,
			"a\x1b[2Jb\x1b]52;c;QUJD\x07" "c\xc2\x9b" "1m"
			"d\xe2\x80\xae" "e\nf\xff");
	t = screen__text(&s, 0);
	ck_assert_ptr_null(strchr(t, '\x1b'));
	ck_assert_ptr_null(strchr(t, '\x07'));
	ck_assert_ptr_null(strchr(t, '\n'));
	ck_assert_ptr_null(strstr(t, "\xc2\x9b"));
	ck_assert_ptr_null(strstr(t, "\xe2\x80\xae"));
	ck_assert_str_eq(t, "a?[2Jb?]52;c;QUJD?c?1md?e?f\xef\xbf\xbd");
	screen__fini(&s);
}
END_TEST

START_TEST(test_tiny_and_empty)
{
	struct screen s;

	screen__init(&s);
	screen__resize(&s, 0, 0);
	ck_assert_uint_eq(screen__add(&s, 0, ST_NORMAL, "x"), 0);
	screen__resize(&s, 1, 1);
	ck_assert_uint_eq(screen__add(&s, 0, ST_NORMAL, "xyz"), 1);
	ck_assert_str_eq(screen__text(&s, 0), ELL);
	screen__resize(&s, 2, 0);
	ck_assert_uint_eq(screen__add(&s, 1, ST_NORMAL, "xyz"), 0);
	screen__pad(&s, 1, 10);
	ck_assert_str_eq(screen__text(&s, 1), "");
	screen__fini(&s);
	screen__fini(&s);	/* twice is fine */
}
END_TEST

START_TEST(test_pad_fill_and_spans)
{
	struct screen s;

	screen__init(&s);
	screen__resize(&s, 1, 20);
	screen__add(&s, 0, ST_KEY, "q");
	screen__pad(&s, 0, 4);
	screen__add(&s, 0, ST_NORMAL, "quit");
	ck_assert_str_eq(screen__text(&s, 0), "q   quit");
	ck_assert_int_eq(screen__style_at(&s, 0, 0), ST_KEY);
	ck_assert_int_eq(screen__style_at(&s, 0, 1), ST_NORMAL);
	screen__fill(&s, 0, ST_SELECTED);
	ck_assert_int_eq(screen__style_at(&s, 0, 5), ST_SELECTED);
	screen__style(&s, 0, 4, 100, ST_HOT);
	ck_assert_int_eq(screen__style_at(&s, 0, 7), ST_HOT);
	screen__clear(&s);
	ck_assert_str_eq(screen__text(&s, 0), "");
	ck_assert_int_eq(screen__style_at(&s, 0, 0), ST_NORMAL);
	screen__fini(&s);
}
END_TEST

Suite *screen_suite(void)
{
	Suite *s = suite_create("screen");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_cut_with_ellipsis);
	tcase_add_test(tc, test_wide_characters);
	tcase_add_test(tc, test_external_text_sanitized);
	tcase_add_test(tc, test_tiny_and_empty);
	tcase_add_test(tc, test_pad_fill_and_spans);
	suite_add_tcase(s, tc);
	return s;
}
