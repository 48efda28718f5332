/* check_demangle: C++, Rust legacy and Rust v0 names; hostile ones. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "fixtures/symtest.h"
#include "util.h"

/* The display form of raw: demangled, or raw itself. */
static const char *dm(const char *raw)
{
	static struct strbuf sb;
	int r = demangle__name(raw, &sb);

	ck_assert_int_ge(r, 0);
	return r ? sb.buf : raw;
}

START_TEST(test_cxx)
{
	ck_assert_str_eq(dm("_ZN5fixns5inner3runEPFviEi"),
			 "fixns::inner::run(void (*)(int), int)");
	ck_assert_str_eq(dm("_ZNK5fixns3BoxIiLi3EE3getEi"),
			 "fixns::Box<int, 3>::get(int) const");
	ck_assert_str_eq(dm("_Z10cxxfix_usei.cold"),
			 "cxxfix_use(int) [clone .cold]");
	/* not mangled: as they are */
	ck_assert_str_eq(dm("main"), "main");
	ck_assert_str_eq(dm("i"), "i");	/* a type to __cxa_demangle */
	ck_assert_str_eq(dm("_start"), "_start");
	ck_assert_str_eq(dm(""), "");
	/* malformed: as it is */
	ck_assert_str_eq(dm("_ZN5fixns"), "_ZN5fixns");
	ck_assert_str_eq(dm("_Z"), "_Z");
}
END_TEST

/* every function of the C++ fixture as nm -C shows it */
START_TEST(test_cxx_vs_nm)
{
	FILE *raw = fopen(test_fixture("libcxxfix.nm"), "r");
	char line[4096];
	int checked = 0;

	ck_assert_ptr_nonnull(raw);
	while (fgets(line, sizeof(line), raw)) {
		char addr[64], type[8], name[2048], want[4096];
		FILE *dem;
		char l2[4096];
		bool found = false;

		if (sscanf(line, "%63s %7s %2047s", addr, type, name) != 3 ||
		    !strchr("tTwW", type[0]) || strncmp(name, "_Z", 2))
			continue;
		dem = fopen(test_fixture("libcxxfix.nm.demangled"), "r");
		ck_assert_ptr_nonnull(dem);
		while (!found && fgets(l2, sizeof(l2), dem)) {
			size_t n = strlen(addr);

			if (strncmp(l2, addr, n) || l2[n] != ' ' ||
			    l2[n + 1] != type[0])
				continue;
			snprintf(want, sizeof(want), "%s", l2 + n + 3);
			want[strcspn(want, "\n")] = '\0';
			found = true;
		}
		fclose(dem);
		ck_assert_msg(found, "%s not in nm -C output", name);
		ck_assert_str_eq(dm(name), want);
		checked++;
	}
	fclose(raw);
	ck_assert_int_ge(checked, 5);
}
END_TEST

START_TEST(test_rust_legacy)
{
	ck_assert_str_eq(dm("_ZN3std2io5stdio6_print17h6d6fd3b3fd1e2d9aE"),
			 "std::io::stdio::_print");
	ck_assert_str_eq(
		dm("_ZN4core3ptr85drop_in_place$LT$std..rt..lang_start$LT$"
		   "$LP$$RP$$GT$..$u7b$$u7b$closure$u7d$$u7d$$GT$"
		   "17h0123456789abcdefE"),
		"core::ptr::drop_in_place<std::rt::lang_start<()>::"
		"{{closure}}>");
	ck_assert_str_eq(
		dm("_ZN71_$LT$Test$u20$$u2b$$u20$$u27$static$u20$as$u20$foo.."
		   "Bar$LT$Test$GT$$GT$3bar17h930b740aa94f1d3aE"),
		"<Test + 'static as foo::Bar<Test>>::bar");
	ck_assert_str_eq(dm("_ZN3foo3bar17h05af221e174051e9E.llvm.1234"),
			 "foo::bar");
	/* a hash-less Itanium name is C++'s */
	ck_assert_str_eq(dm("_ZN3foo3barE"), "foo::bar");
	/* bad escapes: left to C++, which keeps the text */
	ck_assert_str_eq(dm("_ZN3foo7$XX$bar17h05af221e174051e9E"),
			 "foo::$XX$bar::h05af221e174051e9");
	/* control bytes are never produced */
	ck_assert_str_eq(dm("_ZN3foo8$u1b$bar17h05af221e174051e9E"),
			 "foo::$u1b$bar::h05af221e174051e9");
}
END_TEST

START_TEST(test_rust_v0)
{
	ck_assert_str_eq(dm("_RNvCs1234_7mycrate4main"), "mycrate::main");
	ck_assert_str_eq(dm("_RNvNtCs1234_7mycrate6module8function"),
			 "mycrate::module::function");
	ck_assert_str_eq(dm("_RNvC6_123foo3bar"), "123foo::bar");
	ck_assert_str_eq(dm("_RINvCs1234_7mycrate3fooyE"),
			 "mycrate::foo::<u64>");
	ck_assert_str_eq(dm("_RINvCs1234_7mycrate3fooRShE"),
			 "mycrate::foo::<&[u8]>");
	ck_assert_str_eq(dm("_RINtCs1234_7mycrate3FooKa7f_E"),
			 "mycrate::Foo::<127>");
	ck_assert_str_eq(dm("_RNCNCNgCs6DXkGYLi8lr_2cc5spawn00B5_"),
			 "cc::spawn::{closure#0}::{closure#0}");
	ck_assert_str_eq(
		dm("_RNvMsr_NtCs3ssYzQotkvD_3std4pathNtB5_7PathBuf3new"),
		"<std::path::PathBuf>::new");
	ck_assert_str_eq(
		dm("_RINbNbCskIICzLVDPPb_5alloc5alloc8box_freeDINbNiB4_5boxed5"
		   "FnBoxuEp6OutputuEL_ECs1iopQbuBiw2_3std"),
		"alloc::alloc::box_free::<dyn alloc::boxed::FnBox<(), "
		"Output = ()>>");
	ck_assert_str_eq(
		dm("_RNvNvMCs4fqI2P2rA04_13const_genericINtB4_3FooKpE3foo3FOO"),
		"<const_generic::Foo<_>>::foo::FOO");
	ck_assert_str_eq(dm("_RNvCs1234_7mycrate4main.llvm.42"),
			 "mycrate::main");
	/* malformed: as they are */
	ck_assert_str_eq(dm("_RNvCs1234_7mycrate40main"),
			 "_RNvCs1234_7mycrate40main");
	ck_assert_str_eq(dm("_R"), "_R");
	ck_assert_str_eq(dm("_RB_"), "_RB_");
	ck_assert_str_eq(dm("_RNvB0_3foo"), "_RNvB0_3foo");
	ck_assert_str_eq(dm("_R0NvC3foo3bar"), "_R0NvC3foo3bar");
}
END_TEST

/* costly or hostile names come back as they are, quickly */
START_TEST(test_hostile)
{
	size_t n = DEMANGLE_MAX_IN + 100;
	char *big = malloc(n + 1);
	struct strbuf sb;

	ck_assert_ptr_nonnull(big);
	memcpy(big, "_Z", 2);
	for (size_t i = 2; i < n; i++)
		big[i] = 'S';
	big[n] = '\0';
	strbuf__init(&sb);
	ck_assert_int_eq(demangle__name(big, &sb), 0);
	/* Rust v0: backrefs doubling the output at each level */
	{
		char v0[8192];
		size_t len;

		strcpy(v0, "_RINvC3foo3barTB9_B9_E");
		len = strlen(v0);
		/* nested tuples of backrefs to earlier tuples */
		for (int i = 0; i < 200 && len + 16 < sizeof(v0); i++) {
			len += (size_t)snprintf(v0 + len, sizeof(v0) - len,
						"TB%x_B%x_E", 9 + i, 9 + i);
		}
		demangle__name(v0, &sb);	/* any answer, no hang */
	}
	/* a deep nest of pointers */
	{
		char deep[4000];

		memcpy(deep, "_RINvC3foo3bar", 14);
		memset(deep + 14, 'P', 3000);
		memcpy(deep + 3014, "hE", 3);
		ck_assert_int_eq(demangle__name(deep, &sb), 0);
	}
	/* a legacy name with a huge length */
	ck_assert_int_eq(demangle__name("_ZN99999999999999999999fooE", &sb), 0);
	ck_assert_int_eq(demangle__name(NULL, &sb), 0);
	strbuf__fini(&sb);
	free(big);
}
END_TEST

Suite *demangle_suite(void)
{
	Suite *s = suite_create("demangle");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_cxx);
	tcase_add_test(tc, test_cxx_vs_nm);
	tcase_add_test(tc, test_rust_legacy);
	tcase_add_test(tc, test_rust_v0);
	tcase_add_test(tc, test_hostile);
	suite_add_tcase(s, tc);
	return s;
}
