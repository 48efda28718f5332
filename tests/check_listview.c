/* Tests of the generic list view: moving, paging, the filter, keeping
 * the selection in sight, and the line editor of the prompts. */
#include <stdio.h>
#include <string.h>

#include "ui/tui/keytypes.h"
#include "ui/tui/listview.h"
#include "ui/tui/prompt.h"
#include "tests/testutil.h"

struct fake {
	size_t nr;
	const char *const *names;
};

static const char *const fruit[] = {
	"apple", "banana", "cherry", "date", "elderberry", "fig", "grape",
	"honeydew", "kiwi", "lemon",
};

static size_t fake_nr(void *ctx)
{
	return ((struct fake *)ctx)->nr;
}

static void fake_row(void *ctx, size_t i, struct screen *s, size_t y)
{
	screen__add(s, y, ST_NORMAL, ((struct fake *)ctx)->names[i]);
}

static void fake_header(void *ctx, struct screen *s, size_t y)
{
	(void)ctx;
	screen__add(s, y, ST_TITLE, "Fruit");
}

static void fake_text(void *ctx, size_t i, struct strbuf *sb)
{
	strbuf__adds(sb, ((struct fake *)ctx)->names[i]);
}

static const struct list_ops ops = {
	.nr_rows = fake_nr,
	.format_header = fake_header,
	.format_row = fake_row,
	.row_text = fake_text,
};

START_TEST(test_move_and_page)
{
	struct fake f = { 10, fruit };
	struct listview lv;
	struct screen s;
	size_t row;

	screen__init(&s);
	screen__resize(&s, 5, 20);
	listview__init(&lv, &ops, &f);
	listview__render(&lv, &s, 0, 5);
	ck_assert_str_eq(screen__text(&s, 0), "Fruit");
	ck_assert_str_eq(screen__text(&s, 1), "apple");
	ck_assert_int_eq(screen__style_at(&s, 1, 0), ST_SELECTED);
	ck_assert_uint_eq(lv.page, 4);
	listview__move(&lv, LV_UP);	/* at the top already */
	ck_assert_uint_eq(lv.selected, 0);
	listview__move(&lv, LV_PGDN);
	ck_assert_uint_eq(lv.selected, 4);
	screen__clear(&s);
	listview__render(&lv, &s, 0, 5);
	/* a page down: the selection leads the new page */
	ck_assert_str_eq(screen__text(&s, 1), "elderberry");
	ck_assert_int_eq(screen__style_at(&s, 1, 0), ST_SELECTED);
	ck_assert_str_eq(screen__text(&s, 4), "honeydew");
	listview__move(&lv, LV_END);
	ck_assert(listview__selected(&lv, &row));
	ck_assert_uint_eq(row, 9);
	listview__move(&lv, LV_DOWN);
	ck_assert_uint_eq(lv.selected, 9);
	screen__clear(&s);
	listview__render(&lv, &s, 0, 5);
	ck_assert_str_eq(screen__text(&s, 4), "lemon");
	listview__move(&lv, LV_HOME);
	ck_assert_uint_eq(lv.selected, 0);
	/* the rows shrink under the selection */
	listview__move(&lv, LV_END);
	f.nr = 3;
	listview__update(&lv);
	ck_assert(listview__selected(&lv, &row));
	ck_assert_uint_eq(row, 2);
	f.nr = 0;
	listview__update(&lv);
	ck_assert(!listview__selected(&lv, &row));
	listview__move(&lv, LV_PGDN);
	screen__clear(&s);
	listview__render(&lv, &s, 0, 5);
	ck_assert_str_eq(screen__text(&s, 1), "");
	listview__fini(&lv);
	screen__fini(&s);
}
END_TEST

START_TEST(test_filter)
{
	struct fake f = { 10, fruit };
	struct listview lv;
	struct screen s;
	size_t row;

	screen__init(&s);
	screen__resize(&s, 6, 20);
	listview__init(&lv, &ops, &f);
	listview__move(&lv, LV_DOWN);	/* banana */
	listview__set_filter(&lv, "AN");	/* case-insensitive */
	ck_assert_uint_eq(listview__nr(&lv), 1);
	ck_assert(listview__selected(&lv, &row));
	ck_assert_uint_eq(row, 1);
	listview__set_filter(&lv, "e");
	/* apple cherry date elderberry grape honeydew kiwi? no: lemon */
	ck_assert_uint_eq(listview__nr(&lv), 7);
	listview__render(&lv, &s, 0, 6);
	ck_assert_str_eq(screen__text(&s, 1), "apple");
	ck_assert_str_eq(screen__text(&s, 2), "cherry");
	listview__set_filter(&lv, "zzz");
	ck_assert_uint_eq(listview__nr(&lv), 0);
	ck_assert(!listview__selected(&lv, &row));
	listview__set_filter(&lv, NULL);
	ck_assert_uint_eq(listview__nr(&lv), 10);
	listview__fini(&lv);
	screen__fini(&s);
}
END_TEST

START_TEST(test_tiny_heights)
{
	struct fake f = { 10, fruit };
	struct listview lv;
	struct screen s;

	screen__init(&s);
	screen__resize(&s, 2, 3);
	listview__init(&lv, &ops, &f);
	listview__render(&lv, &s, 0, 0);
	listview__render(&lv, &s, 0, 1);	/* the header only */
	ck_assert_str_eq(screen__text(&s, 0), "Fr\xe2\x80\xa6");
	listview__move(&lv, LV_END);
	listview__render(&lv, &s, 1, 1);
	listview__render(&lv, &s, 5, 3);	/* below the screen */
	listview__move(&lv, LV_PGUP);
	listview__fini(&lv);
	screen__fini(&s);
}
END_TEST

START_TEST(test_prompt_editing)
{
	struct prompt p;

	prompt__open(&p, PROMPT_SYM_FILTER, "Filter", "ab");
	ck_assert_str_eq(p.saved, "ab");
	ck_assert(prompt__insert(&p, 'c'));
	ck_assert(prompt__insert(&p, 0xe9));	/* é */
	ck_assert(prompt__insert(&p, 0x6f22));	/* 漢 */
	ck_assert_str_eq(p.buf, "abc\xc3\xa9\xe6\xbc\xa2");
	/* control and special keys are not text */
	ck_assert(!prompt__insert(&p, 0x1b));
	ck_assert(!prompt__insert(&p, 0x9b));
	ck_assert(!prompt__insert(&p, '\n'));
	ck_assert(!prompt__insert(&p, K_UP));
	ck_assert(prompt__erase(&p));	/* a whole character */
	ck_assert_str_eq(p.buf, "abc\xc3\xa9");
	ck_assert(prompt__erase(&p));
	ck_assert_str_eq(p.buf, "abc");
	prompt__kill(&p);
	ck_assert_str_eq(p.buf, "");
	ck_assert(!prompt__erase(&p));
	/* it never overflows */
	for (int i = 0; i < 1000; i++)
		prompt__insert(&p, 0x6f22);
	ck_assert_uint_lt(p.len, sizeof(p.buf));
	ck_assert_uint_eq(strlen(p.buf), p.len);
}
END_TEST

Suite *listview_suite(void)
{
	Suite *s = suite_create("listview");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_move_and_page);
	tcase_add_test(tc, test_filter);
	tcase_add_test(tc, test_tiny_heights);
	tcase_add_test(tc, test_prompt_editing);
	suite_add_tcase(s, tc);
	return s;
}
