/* check_kfmt: the kernel's text lines (src/core/kfmt): /proc/kallsyms and
 * /proc/modules, good and bad. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "src/core/kfmt.h"

static int sym(const char *line, struct kfmt_sym *y)
{
	return kfmt__sym(line, line + strlen(line), y);
}

static int mod(const char *line, struct kfmt_module *m)
{
	return kfmt__module(line, line + strlen(line), m);
}

START_TEST(test_sym_lines)
{
	struct kfmt_sym y;

	ck_assert_int_eq(sym("ffffffff81000000 T _text", &y), 0);
	ck_assert_uint_eq(y.addr, 0xffffffff81000000ull);
	ck_assert_int_eq(y.type, 'T');
	ck_assert_uint_eq(y.name_len, 5);
	ck_assert_int_eq(memcmp(y.name, "_text", 5), 0);
	ck_assert_ptr_null(y.mod);

	ck_assert_int_eq(sym("ffffffffc0a01010 t e1000_probe\t[e1000]", &y),
			 0);
	ck_assert_int_eq(y.type, 't');
	ck_assert_uint_eq(y.name_len, 11);
	ck_assert_uint_eq(y.mod_len, 5);
	ck_assert_int_eq(memcmp(y.mod, "e1000", 5), 0);

	/* a restricted kallsyms: every address 0, still a line */
	ck_assert_int_eq(sym("0000000000000000 T _stext", &y), 0);
	ck_assert_uint_eq(y.addr, 0);
}
END_TEST

START_TEST(test_sym_bad)
{
	struct kfmt_sym y;

	ck_assert_int_eq(sym("", &y), -EINVAL);
	ck_assert_int_eq(sym("zz T name", &y), -EINVAL);
	ck_assert_int_eq(sym("12345678123456781 T toolong", &y), -EINVAL);
	ck_assert_int_eq(sym("1000 T", &y), -EINVAL);
	ck_assert_int_eq(sym("1000 T  ", &y), -EINVAL);
	ck_assert_int_eq(sym("1000  T name", &y), -EINVAL);
	/* a module without its closing bracket */
	ck_assert_int_eq(sym("1000 t name\t[mod", &y), -EINVAL);
}
END_TEST

/* The byte table: the hex digits' values, the two blanks, -1 for every
 * other byte (a name ends only at a blank: "a:b", "x.cold", UTF-8). */
START_TEST(test_byte_class)
{
	struct kfmt_sym y;

	for (int c = 0; c < 256; c++) {
		int want = c >= '0' && c <= '9' ? c - '0' :
			   c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			   c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		ck_assert_int_eq(kfmt__hexval((char)c), want);
		ck_assert_int_eq(kfmt__class[c] == KFMT_BLANK,
				 c == ' ' || c == '\t');
		if (want < 0 && c != ' ' && c != '\t')
			ck_assert_int_eq(kfmt__class[c], -1);
	}
	ck_assert_int_eq(sym("DEADbeef T a:b.cold\xc3\xa9 [m]", &y), 0);
	ck_assert_uint_eq(y.addr, 0xdeadbeefull);
	ck_assert_uint_eq(y.name_len, 10);
	ck_assert_uint_eq(y.mod_len, 1);
	ck_assert_int_eq(sym("fg T name", &y), -EINVAL);
}
END_TEST

START_TEST(test_module_lines)
{
	struct kfmt_module m;

	ck_assert_int_eq(mod("e1000 163840 0 - Live 0xffffffffc0a00000", &m),
			 0);
	ck_assert_uint_eq(m.name_len, 5);
	ck_assert_int_eq(memcmp(m.name, "e1000", 5), 0);
	ck_assert_uint_eq(m.size, 163840);
	ck_assert_uint_eq(m.addr, 0xffffffffc0a00000ull);
	/* what follows the address (taint flags) is not read */
	ck_assert_int_eq(mod("nf_tables 307200 1 nft_x, Live "
			     "0xffffffffc0b00000 (OE)", &m), 0);
	ck_assert_uint_eq(m.addr, 0xffffffffc0b00000ull);
	/* hidden from this user */
	ck_assert_int_eq(mod("e1000 163840 0 - Live 0x0000000000000000", &m),
			 0);
	ck_assert_uint_eq(m.addr, 0);
}
END_TEST

START_TEST(test_module_bad)
{
	struct kfmt_module m;

	ck_assert_int_eq(mod("", &m), -EINVAL);
	ck_assert_int_eq(mod("e1000 12k 0 - Live 0xffffffffc0a00000", &m),
			 -EINVAL);
	ck_assert_int_eq(mod("e1000 163840 0 - Live", &m), -EINVAL);
	ck_assert_int_eq(mod("e1000 163840 0 - Live 0xgg", &m), -EINVAL);
	ck_assert_int_eq(mod("a23456789012345678901234567890123456789012345678"
			     "90123456 1 0 - Live 0x1000", &m), -EINVAL);
}
END_TEST

Suite *kfmt_suite(void);
Suite *kfmt_suite(void)
{
	Suite *s = suite_create("kfmt");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sym_lines);
	tcase_add_test(tc, test_sym_bad);
	tcase_add_test(tc, test_byte_class);
	tcase_add_test(tc, test_module_lines);
	tcase_add_test(tc, test_module_bad);
	suite_add_tcase(s, tc);
	return s;
}
