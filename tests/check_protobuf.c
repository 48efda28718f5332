/* Tests of the protobuf wire writer: varints against the encodings of
 * protobuf's documentation, tags, negative int64, lengths, packed
 * fields, and the reader the tests decode with. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "src/core/protobuf.h"

static void expect(const struct strbuf *sb, const char *hex)
{
	char got[256] = "";

	for (size_t i = 0; i < sb->len && 2 * i + 2 < sizeof(got); i++)
		snprintf(got + 2 * i, 3, "%02x", (unsigned char)sb->buf[i]);
	ck_assert_str_eq(got, hex);
}

START_TEST(test_varint)
{
	static const struct { u64 v; const char *hex; } t[] = {
		{ 0, "00" }, { 1, "01" }, { 127, "7f" }, { 128, "8001" },
		{ 150, "9601" }, { 300, "ac02" }, { 16384, "808001" },
		{ UINT64_MAX, "ffffffffffffffffff01" },
	};
	struct strbuf sb;

	strbuf__init(&sb);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const u8 *p;
		u64 v = 0;

		strbuf__reset(&sb);
		pb__varint(&sb, t[i].v);
		expect(&sb, t[i].hex);
		p = (const u8 *)sb.buf;
		ck_assert_int_eq(pb__read_varint(&p, p + sb.len, &v), 0);
		ck_assert_uint_eq(v, t[i].v);
		ck_assert_ptr_eq(p, (const u8 *)sb.buf + sb.len);
		/* one byte short: an error, not a read past the end */
		p = (const u8 *)sb.buf;
		ck_assert_int_eq(pb__read_varint(&p, p + sb.len - 1, &v),
				 -EINVAL);
	}
	strbuf__fini(&sb);
}
END_TEST

START_TEST(test_varint_too_long)
{
	static const u8 b[11] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				  0xff, 0xff, 0xff, 0xff, 0x01 };
	const u8 *p = b;
	u64 v;

	ck_assert_int_eq(pb__read_varint(&p, b + sizeof(b), &v), -EINVAL);
}
END_TEST

START_TEST(test_fields)
{
	static const u64 packed[] = { 3, 270, 86942 };
	struct strbuf sb;

	strbuf__init(&sb);
	/* the documentation's examples: field 1 = 150, field 2 = "testing",
	 * field 4 packed 3, 270, 86942 */
	pb__uint(&sb, 1, 150);
	expect(&sb, "089601");
	strbuf__reset(&sb);
	pb__string(&sb, 2, "testing");
	expect(&sb, "120774657374696e67");
	strbuf__reset(&sb);
	pb__packed(&sb, 4, packed, 3);
	expect(&sb, "2206038e029ea705");
	/* int64 -1: ten bytes of two's complement */
	strbuf__reset(&sb);
	pb__int(&sb, 3, -1);
	expect(&sb, "18ffffffffffffffffff01");
	strbuf__reset(&sb);
	pb__bool(&sb, 7, true);
	pb__bool(&sb, 8, false);
	expect(&sb, "38014000");
	/* a field number past 15 takes a two-byte tag; an empty message */
	strbuf__reset(&sb);
	pb__bytes(&sb, 16, NULL, 0);
	expect(&sb, "820100");
	strbuf__reset(&sb);
	pb__packed(&sb, 1, NULL, 0);
	expect(&sb, "0a00");
	ck_assert(!sb.oom);
	strbuf__fini(&sb);
}
END_TEST

Suite *protobuf_suite(void);
Suite *protobuf_suite(void)
{
	Suite *s = suite_create("protobuf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_varint);
	tcase_add_test(tc, test_varint_too_long);
	tcase_add_test(tc, test_fields);
	suite_add_tcase(s, tc);
	return s;
}
