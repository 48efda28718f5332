/* Tests of flamesvg (ui/report/flamesvg.c): the flame graph's SVG and JSON
 * files, hostile names escaped. */
#include <stdlib.h>
#include <string.h>

#include "tests/cgwork.h"

/* The SVG: every frame with its counts, hostile names escaped. */
START_TEST(test_flame_svg)
{
	static const int e[] = { F_LIB_WORK, F_EVIL, F_MAIN };
	struct flame_svg_opts so = { .title = "Flame graph of <cpu-clock>",
				     .subtitle = "pid 10 (cgw\x1b[2J)" };
	struct flame fl;
	struct rowset rs;
	struct snapshot snap;
	struct strbuf sb;
	size_t opens = 0, closes = 0;

	cgw_feed();
	cgw_sample(1000, 3, e);
	cgw_build(&rs, &snap, true);
	flame__init(&fl);
	strbuf__init(&sb);
	ck_assert_int_eq(flame__build(&fl, &rs, NULL, NULL), 0);
	ck_assert_int_eq(flamesvg__svg(&sb, &fl, &so), 0);
	ck_assert_ptr_nonnull(sb.buf);
	ck_assert_ptr_nonnull(strstr(sb.buf, "<?xml version=\"1.0\""));
	ck_assert_ptr_nonnull(strstr(sb.buf, ">Flame graph of &lt;cpu-clock&gt;</text>"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "pid 10 (cgw?[2J), 7 samples"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "data-n=\"caller_x\" data-x=\"0\" "
					     "data-w=\"3\" data-d=\"2\""));
	ck_assert_ptr_nonnull(strstr(sb.buf, "<title>caller_x in cgw (3 samples, "
					     "42.86%; self 1)</title>"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "data-n=\"all\" data-x=\"0\" "
					     "data-w=\"7\" data-d=\"0\""));
	/* no control byte; the cgw_evil name's markup is escaped */
	for (const char *p = sb.buf; *p; p++)
		ck_assert((unsigned char)*p >= 0x20 || *p == '\n');
	ck_assert_ptr_null(strstr(sb.buf, "\xc2\x9b"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "data-n=\"ev?[2Jil?31m??]52;c;QUJD?xxx"));
	for (const char *p = sb.buf; (p = strstr(p, "<g class=\"f\"")); p++)
		opens++;
	for (const char *p = sb.buf; (p = strstr(p, "</g>")); p++)
		closes++;
	ck_assert_uint_eq(opens, fl.nr);
	ck_assert_uint_eq(closes, fl.nr + 1);	/* and the frames' group */
	/* the JSON tree */
	strbuf__reset(&sb);
	ck_assert_int_eq(flamesvg__json(&sb, &fl), 0);
	ck_assert_ptr_nonnull(strstr(sb.buf, "{\"name\":\"all\",\"value\":7,\"self\":0,"
					     "\"period\":1610,\"kind\":\"root\",\"children\":["
					     "{\"name\":\"main\",\"value\":7,"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "{\"name\":\"caller_x\",\"value\":3,"
					     "\"self\":1,\"period\":210,\"kind\":\"user\","
					     "\"dso\":\"cgw\",\"children\":[{\"name\":\"lib_work\""));
	ck_assert_ptr_nonnull(strstr(sb.buf, "]}]}]}\n"));
	for (const char *p = sb.buf; *p; p++)
		ck_assert((unsigned char)*p >= 0x20 || *p == '\n');
	/* a narrow picture leaves out the frames under 0.1 px */
	strbuf__reset(&sb);
	so.width = 21;		/* 1 px for 7 samples */
	so.min_width = 0.2;
	ck_assert_int_eq(flamesvg__svg(&sb, &fl, &so), 0);
	ck_assert_ptr_nonnull(strstr(sb.buf, "frames narrower than"));
	strbuf__fini(&sb);
	flame__fini(&fl);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

Suite *flamesvg_suite(void);
Suite *flamesvg_suite(void)
{
	Suite *ss = suite_create("flamesvg");
	TCase *tc = tcase_create("flamesvg");

	tcase_add_checked_fixture(tc, cgw_setup, cgw_teardown);
	tcase_add_test(tc, test_flame_svg);
	suite_add_tcase(ss, tc);
	return ss;
}
