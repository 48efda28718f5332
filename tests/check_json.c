/* Tests of the JSON writer: the escaping of every control character,
 * quotes and backslashes, bytes that are not UTF-8, commas in nested and
 * empty containers and each number's format. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "src/core/json.h"

START_TEST(test_escapes)
{
	struct strbuf sb;
	struct json j;
	char s[2] = "", want[16];

	strbuf__init(&sb);
	/* every C0 control as \u00XX (newline and tab too), DEL too */
	for (int c = 1; c < 0x20; c++) {
		strbuf__reset(&sb);
		json__init(&j, &sb);
		s[0] = (char)c;
		json__str(&j, NULL, s);
		snprintf(want, sizeof(want), "\"\\u%04x\"", c);
		ck_assert_str_eq(sb.buf, want);
	}
	strbuf__reset(&sb);
	json__init(&j, &sb);
	json__str(&j, NULL, "a\x7f" "b");
	ck_assert_str_eq(sb.buf, "\"a\\u007fb\"");
	/* quotes and backslashes after a backslash, nothing else is */
	strbuf__reset(&sb);
	json__init(&j, &sb);
	json__str(&j, NULL, "say \"hi\" C:\\dir/x");
	ck_assert_str_eq(sb.buf, "\"say \\\"hi\\\" C:\\\\dir/x\"");
	/* UTF-8 as it is, and bytes that are not UTF-8 unchanged (the
	 * sanitizer makes them U+FFFD before, for outside strings) */
	strbuf__reset(&sb);
	json__init(&j, &sb);
	json__str(&j, NULL, "\xc3\xa9\xe2\x80\xa6 \xff\x80\xc3(");
	ck_assert_str_eq(sb.buf, "\"\xc3\xa9\xe2\x80\xa6 \xff\x80\xc3(\"");
	/* the empty string, NULL as null, a control at either end */
	strbuf__reset(&sb);
	json__init(&j, &sb);
	json__array(&j, NULL);
	json__str(&j, NULL, "");
	json__str(&j, NULL, NULL);
	json__str(&j, NULL, "\nx\x1f");
	json__array_end(&j);
	ck_assert_str_eq(sb.buf, "[\"\",null,\"\\u000ax\\u001f\"]");
	/* keys are escaped the same way */
	strbuf__reset(&sb);
	json__init(&j, &sb);
	json__object(&j, NULL);
	json__null(&j, "a\"b\\\t");
	json__object_end(&j);
	ck_assert_str_eq(sb.buf, "{\"a\\\"b\\\\\\u0009\":null}");
	ck_assert(!sb.oom);
	strbuf__fini(&sb);
}
END_TEST

START_TEST(test_nesting)
{
	struct strbuf sb;
	struct json j;

	strbuf__init(&sb);
	json__init(&j, &sb);
	json__object(&j, NULL);
	json__object(&j, "empty");
	json__object_end(&j);
	json__array(&j, "none");
	json__array_end(&j);
	json__array(&j, "mixed");
	json__object(&j, NULL);
	json__object_end(&j);
	json__array(&j, NULL);
	json__array_end(&j);
	json__object(&j, NULL);
	json__u64(&j, "a", 1);
	json__array(&j, "b");
	json__u64(&j, NULL, 2);
	json__u64(&j, NULL, 3);
	json__array_end(&j);
	json__object_end(&j);
	json__bool(&j, NULL, true);
	json__array_end(&j);
	json__str(&j, "last", "z");
	ck_assert_uint_eq(j.depth, 1);
	json__object_end(&j);
	ck_assert_uint_eq(j.depth, 0);
	ck_assert_str_eq(sb.buf, "{\"empty\":{},\"none\":[],\"mixed\":"
				 "[{},[],{\"a\":1,\"b\":[2,3]},true],"
				 "\"last\":\"z\"}");
	/* a second document after the first's newline: no comma */
	strbuf__addc(&sb, '\n');
	json__object(&j, NULL);
	json__object_end(&j);
	strbuf__addc(&sb, '\n');
	ck_assert_str_eq(sb.buf + sb.len - 5, "}\n{}\n");
	/* the document itself may be a bare value */
	strbuf__reset(&sb);
	json__init(&j, &sb);
	json__null(&j, NULL);
	ck_assert_str_eq(sb.buf, "null");
	ck_assert(!sb.oom);
	strbuf__fini(&sb);
}
END_TEST

/* No depth limit of its own: a flame graph nests two containers a
 * frame, thousands deep with long chains and their inlines. */
START_TEST(test_deep)
{
	enum { DEPTH = 5000 };
	const char *prefix = "{\"d\":0,\"children\":[{\"d\":1,";
	struct strbuf sb;
	struct json j;

	strbuf__init(&sb);
	json__init(&j, &sb);
	for (int i = 0; i < DEPTH; i++) {
		json__object(&j, NULL);
		json__u64(&j, "d", (u64)i);
		json__array(&j, "children");
	}
	ck_assert_uint_eq(j.depth, 2 * DEPTH);
	for (int i = 0; i < DEPTH; i++) {
		json__array_end(&j);
		json__object_end(&j);
	}
	ck_assert_uint_eq(j.depth, 0);
	ck_assert(!sb.oom);
	ck_assert_int_eq(strncmp(sb.buf, prefix, strlen(prefix)), 0);
	ck_assert_ptr_nonnull(strstr(sb.buf, "{\"d\":4999,\"children\":[]}]}"));
	ck_assert_str_eq(sb.buf + sb.len - 2, "]}");
	strbuf__fini(&sb);
}
END_TEST

START_TEST(test_numbers)
{
	static const u8 bytes[] = { 0x48, 0x89, 0xe5, 0x00, 0x0f };
	struct strbuf sb;
	struct json j;

	strbuf__init(&sb);
	json__init(&j, &sb);
	json__array(&j, NULL);
	json__u64(&j, NULL, 0);
	json__u64(&j, NULL, UINT64_MAX);
	json__s64(&j, NULL, -1);
	json__s64(&j, NULL, INT64_MIN);
	json__s64(&j, NULL, 42);
	/* the share of a row and the time of a header, as printf has
	 * them: rounded, trailing zeros kept */
	json__fixed(&j, NULL, 12.5, 4);
	json__fixed(&j, NULL, 0.0, 4);
	json__fixed(&j, NULL, 99.99996, 4);
	json__fixed(&j, NULL, 2.0626, 3);
	json__fixed(&j, NULL, 1.0, 0);
	/* a cell's length: nine significant digits, no trailing zeros */
	json__sig(&j, NULL, 0.25, 9);
	json__sig(&j, NULL, 1234.56789012, 9);
	json__sig(&j, NULL, 1e-10, 9);
	json__hex(&j, NULL, 0);
	json__hex(&j, NULL, 0xffffffff81000000ull);
	json__hex_bytes(&j, NULL, bytes, sizeof(bytes));
	json__hex_bytes(&j, NULL, NULL, 0);
	json__bool(&j, NULL, false);
	json__null(&j, NULL);
	json__array_end(&j);
	ck_assert_str_eq(sb.buf, "[0,18446744073709551615,-1,"
				 "-9223372036854775808,42,"
				 "12.5000,0.0000,100.0000,2.063,1,"
				 "0.25,1234.56789,1e-10,"
				 "\"0x0\",\"0xffffffff81000000\","
				 "\"4889e5000f\",\"\",false,null]");
	ck_assert(!sb.oom);
	strbuf__fini(&sb);
}
END_TEST

Suite *json_suite(void);
Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_escapes);
	tcase_add_test(tc, test_nesting);
	tcase_add_test(tc, test_deep);
	tcase_add_test(tc, test_numbers);
	suite_add_tcase(s, tc);
	return s;
}
