/* check_config: the settings file's text (src/core/config): lines read,
 * errors by line, settings written back with the rest kept. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/config.h"

/* the settings seen, as "LINE name=value" lines ("name" for a switch) */
static int collect(void *ctx, unsigned int line, const char *name,
		   char *value)
{
	struct strbuf *sb = ctx;

	strbuf__addf(sb, "%u %s%s%s\n", line, name, value ? "=" : "",
		     value ? value : "");
	return 0;
}

static int parse(const char *text, struct strbuf *got, struct strbuf *err)
{
	strbuf__reset(got);
	strbuf__reset(err);
	return config__parse(text, strlen(text), collect, got, err);
}

START_TEST(test_config_lines)
{
	struct strbuf got, err;

	strbuf__init(&got);
	strbuf__init(&err);
	ck_assert_int_eq(parse("# ptop\n"
			       "\n"
			       "  sort = comm,dso  \n"
			       "delay=0.5\r\n"
			       "\tshow-period\n"
			       "event = cpu-clock # the default's fallback\n"
			       "   # indented comment\n"
			       "percent-limit = 1#2\n"
			       "entries = 5", &got, &err), 0);
	ck_assert_str_eq(got.buf, "3 sort=comm,dso\n"
				  "4 delay=0.5\n"
				  "5 show-period\n"
				  "6 event=cpu-clock\n"
				  "8 percent-limit=1#2\n"
				  "9 entries=5\n");
	ck_assert_ptr_null(err.buf);
	/* nothing at all */
	ck_assert_int_eq(parse("", &got, &err), 0);
	ck_assert_uint_eq(got.len, 0);
	strbuf__fini(&got);
	strbuf__fini(&err);
}
END_TEST

START_TEST(test_config_bad_lines)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "sort = comm\n= x\n", "2: no setting name before '='" },
		{ "delay =\n", "1: no value after '='" },
		{ "delay =   # none\n", "1: no value after '='" },
		{ "--delay = 1\n", "1: a setting name is a long option's" },
		{ "Sort = comm\n", "1: a setting name is a long option's" },
		{ "show period\n", "1: a setting name is a long option's" },
		{ "a-name-much-longer-than-any-option-has\n",
		  "1: the name is too long" },
		{ "delay = 1\n\n\nsort\0x = 2\n", "4: a NUL byte" },
	};
	struct strbuf got, err;

	strbuf__init(&got);
	strbuf__init(&err);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t len = strlen(bad[i].text);

		/* the NUL case: the text goes on past it */
		if (strstr(bad[i].err, "NUL"))
			len += 1 + strlen(bad[i].text + len + 1);
		strbuf__reset(&got);
		strbuf__reset(&err);
		ck_assert_msg(config__parse(bad[i].text, len, collect, &got,
					    &err) == -EINVAL, "'%s'", bad[i].text);
		ck_assert_msg(err.buf && !strncmp(err.buf, bad[i].err,
						  strlen(bad[i].err)),
			      "'%s': '%s'", bad[i].text, err.buf);
	}
	strbuf__fini(&got);
	strbuf__fini(&err);
}
END_TEST

static int stop_at_second(void *ctx, unsigned int line, const char *name,
			  char *value)
{
	(void)ctx;
	(void)name;
	(void)value;
	return line == 2 ? 42 : 0;
}

START_TEST(test_config_callback_stops)
{
	struct strbuf err;

	strbuf__init(&err);
	ck_assert_int_eq(config__parse("a\nb\nc = \n", 10, stop_at_second,
				       NULL, &err), 42);
	strbuf__fini(&err);
}
END_TEST

START_TEST(test_config_update)
{
	const char *text = "# my settings\n"
			   "sort = comm   # by program\n"
			   "event = page-faults\n"
			   "\n"
			   "show-period\n"
			   "sort = dso\n"
			   "not a setting line\n"
			   "delay = 3";
	const struct config_set sets[] = {
		{ "sort", "dso,sym", true },
		{ "show-period", NULL, false },
		{ "delay", "1", true },
		{ "entries", "20", true },
		{ "hide-kernel", NULL, true },
		{ "zero", NULL, false },
	};
	struct strbuf out;

	strbuf__init(&out);
	ck_assert_int_eq(config__update(text, strlen(text), sets,
					sizeof(sets) / sizeof(sets[0]), &out),
			 0);
	ck_assert_str_eq(out.buf, "# my settings\n"
				  "sort = dso,sym\n"
				  "event = page-faults\n"
				  "\n"
				  "not a setting line\n"
				  "delay = 1\n"
				  "entries = 20\n"
				  "hide-kernel\n");
	/* a new file */
	strbuf__reset(&out);
	ck_assert_int_eq(config__update("", 0, sets, 1, &out), 0);
	ck_assert_str_eq(out.buf, "sort = dso,sym\n");
	strbuf__fini(&out);
}
END_TEST

Suite *config_suite(void);
Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_config_lines);
	tcase_add_test(tc, test_config_bad_lines);
	tcase_add_test(tc, test_config_callback_stops);
	tcase_add_test(tc, test_config_update);
	suite_add_tcase(s, tc);
	return s;
}
