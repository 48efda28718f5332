/* check_demangle: C++, Rust legacy and Rust v0 names; hostile ones. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/demangle.h"
#include "tests/fixtures/symtest.h"
#include "src/core/util.h"

/* The display form of raw: demangled with flags, or raw itself. */
static const char *dm_flags(const char *raw, unsigned int flags)
{
	static struct strbuf sb;
	int r = demangle__name(raw, flags, &sb);

	ck_assert_int_ge(r, 0);
	return r ? sb.buf : raw;
}

/* the full form (--demangle-params) */
static const char *dm(const char *raw)
{
	return dm_flags(raw, DEMANGLE_PARAMS);
}

/* perf report's form, the default */
static const char *dms(const char *raw)
{
	return dm_flags(raw, 0);
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

/* A name libstdc++'s __cxa_demangle refuses (V8's, about 1 % of node's
 * samples; c++filt 2.40 too): libiberty's demangler, as perf 6.1 calls it
 * (perf report's exact row name, recorded here), and with parameters
 * nothing, as perf -v (the name stays mangled). */
#define V8_NAME "_ZN2v88internal11StringShape33DispatchToSpecificTypeWithoutC" \
	"astIZNS1_22DispatchToSpecificTypeIZNKS0_6String7GetImplEiNS0" \
	"_16PtrComprCageBaseERKNS0_31SharedStringAccessGuardIfNeededE" \
	"E19StringGetDispatchertJRiRS5_S8_EEET0_S4_DpOT1_E17CastingDi" \
	"spatchertJRS4_SA_SB_S8_EEESC_SF_"
START_TEST(test_cxx_fallback)
{
	static const char perf[] =
		"v8::internal::StringShape::DispatchToSpecificTypeWithoutCast"
		"<v8::internal::StringShape::DispatchToSpecificType<v8::inter"
		"nal::String::GetImpl(int, v8::internal::PtrComprCageBase, v8"
		"::internal::SharedStringAccessGuardIfNeeded const&) const::S"
		"tringGetDispatcher, unsigned short, int&, v8::internal::PtrC"
		"omprCageBase&, v8::internal::SharedStringAccessGuardIfNeeded"
		" const&>(v8::internal::String, int&, v8::internal::PtrComprC"
		"ageBase&, v8::internal::SharedStringAccessGuardIfNeeded cons"
		"t&)::CastingDispatcher, unsigned short, v8::internal::String"
		"&, int&, v8::internal::PtrComprCageBase&, v8::internal::Shar"
		"edStringAccessGuardIfNeeded const&>";

	ck_assert_str_eq(dms(V8_NAME), perf);
	ck_assert_str_eq(dm(V8_NAME), V8_NAME);
	/* the clone suffix too, as perf */
	ck_assert_str_eq(dms(V8_NAME ".isra.0"), perf);
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

/* perf report's form: the name alone (libiberty without DMGL_PARAMS) */
START_TEST(test_cxx_short)
{
	ck_assert_str_eq(dms("_ZN5fixns5inner3runEPFviEi"), "fixns::inner::run");
	ck_assert_str_eq(dms("_ZNK5fixns3BoxIiLi3EE3getEi"),
			 "fixns::Box<int, 3>::get");
	ck_assert_str_eq(dms("_Z10cxxfix_usei.cold"), "cxxfix_use");
	/* return types, clone suffixes, qualifiers */
	ck_assert_str_eq(dms("_Z5twiceIiET_S0_"), "twice<int>");
	ck_assert_str_eq(dms("_ZN2ns3BoxltERKS0_.isra.0"), "ns::Box::operator<");
	ck_assert_str_eq(dms("_Z2clii.constprop.0.isra.0"), "cl");
	ck_assert_str_eq(dms("_ZN1A1fIiEEvv"), "A::f<int>");
	ck_assert_str_eq(dms("_ZNKR1A1fEv"), "A::f");
	/* operators, whose names hold brackets and spaces */
	ck_assert_str_eq(dms("_ZNK2ns3BoxcvlEv"), "ns::Box::operator long");
	ck_assert_str_eq(dms("_ZN2nsltIiEEbRKT_S3_"), "ns::operator< <int>");
	ck_assert_str_eq(dms("_ZplRK1AS1_"), "operator+");
	ck_assert_str_eq(dms("_ZN1AixEi"), "A::operator[]");
	ck_assert_str_eq(dms("_ZN1AclEv"), "A::operator()");
	ck_assert_str_eq(dms("_ZN1AcvPFviEEv"), "A::operator void (*)(int)");
	ck_assert_str_eq(dms("_ZN1AaSEOS_"), "A::operator=");
	ck_assert_str_eq(dms("_ZdlPv"), "operator delete");
	ck_assert_str_eq(dms("_ZnwmRKSt9nothrow_t"), "operator new");
	ck_assert_str_eq(dms("_ZdaPv"), "operator delete[]");
	ck_assert_str_eq(dms("_ZN1ArsEi"), "A::operator>>");
	ck_assert_str_eq(dms("_ZNKSt8functionIFviEEclEi"),
			 "std::function<void (int)>::operator()");
	/* a function returning a function pointer: the name is inside */
	ck_assert_str_eq(dms("_Z1fIiEPFviEv"), "f<int>");
	/* lambdas and local names keep their enclosing function's type */
	ck_assert_str_eq(dms("_ZZ4mainENKUlvE_clEv"),
			 "main::{lambda()#1}::operator()");
	ck_assert_str_eq(dms("_ZZ3fooiENKUlvE_clEv"),
			 "foo(int)::{lambda()#1}::operator()");
	ck_assert_str_eq(
		dms("_ZN12_GLOBAL__N_17anon_fnERKNSt7__cxx1112basic_stringIcSt11"
		    "char_traitsIcESaIcEEE"),
		"(anonymous namespace)::anon_fn");
	ck_assert_str_eq(dms("_Z1fB5cxx11v"), "f[abi:cxx11]");
	ck_assert_str_eq(dms("_ZN1AC2Ev"), "A::A");
	ck_assert_str_eq(dms("_ZN1AD1Ev"), "A::~A");
	/* special names and data keep their form */
	ck_assert_str_eq(dms("_ZThn8_N1B1fEv"), "non-virtual thunk to B::f()");
	ck_assert_str_eq(dms("_ZGVZ3foovE1x"), "guard variable for foo()::x");
	ck_assert_str_eq(dms("_ZTV1A"), "vtable for A");
	ck_assert_str_eq(dms("_ZZ3fooiE1x"), "foo(int)::x");
	ck_assert_str_eq(dms("_ZN3foo3barE"), "foo::bar");
	/* suffixes from '@' on are put back (bfd_demangle's way) */
	ck_assert_str_eq(dms("_ZdlPv@plt"), "operator delete@plt");
	ck_assert_str_eq(dm("_ZdlPv@plt"), "operator delete(void*)@plt");
	ck_assert_str_eq(dms("_ZNSt6vectorIiSaIiEE9push_backERKi@@GLIBCXX_3.4"),
			 "std::vector<int, std::allocator<int> >::push_back"
			 "@@GLIBCXX_3.4");
	ck_assert_str_eq(dms("@plt"), "@plt");
	ck_assert_str_eq(dms("_Z@plt"), "_Z@plt");
	ck_assert_str_eq(dms("main@plt"), "main@plt");
	/* not C++ or broken: as they are */
	ck_assert_str_eq(dms("_ZN5fixns"), "_ZN5fixns");
	ck_assert_str_eq(dms("main"), "main");
}
END_TEST

/* every symbol of the C++ fixture as c++filt -p shows it (the nm
 * listings are in the same order) */
START_TEST(test_cxx_short_vs_cxxfilt)
{
	FILE *raw = fopen(test_fixture("libcxxfix.nm"), "r");
	FILE *ref = fopen(test_fixture("libcxxfix.nm.short"), "r");
	char line[4096], l2[4096];
	int checked = 0;

	ck_assert_ptr_nonnull(raw);
	ck_assert_ptr_nonnull(ref);
	while (fgets(line, sizeof(line), raw)) {
		char addr[64], type[8], name[2048];
		const char *want;

		ck_assert_ptr_nonnull(fgets(l2, sizeof(l2), ref));
		if (sscanf(line, "%63s %7s %2047s", addr, type, name) != 3 ||
		    strncmp(name, "_Z", 2))
			continue;
		ck_assert(strlen(l2) > strlen(addr) + 3);
		want = l2 + strlen(addr) + 3;
		l2[strcspn(l2, "\n")] = '\0';
		ck_assert_str_eq(dms(name), want);
		checked++;
	}
	fclose(raw);
	fclose(ref);
	ck_assert_int_ge(checked, 15);
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
	ck_assert_int_eq(demangle__name(big, 0, &sb), 0);
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
		demangle__name(v0, 0, &sb);	/* any answer, no hang */
	}
	/* a deep nest of pointers */
	{
		char deep[4000];

		memcpy(deep, "_RINvC3foo3bar", 14);
		memset(deep + 14, 'P', 3000);
		memcpy(deep + 3014, "hE", 3);
		ck_assert_int_eq(demangle__name(deep, 0, &sb), 0);
	}
	/* a legacy name with a huge length */
	ck_assert_int_eq(demangle__name("_ZN99999999999999999999fooE", 0, &sb), 0);
	ck_assert_int_eq(demangle__name(NULL, 0, &sb), 0);
	strbuf__fini(&sb);
	free(big);
}
END_TEST

Suite *demangle_suite(void)
{
	Suite *s = suite_create("demangle");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_cxx);
	tcase_add_test(tc, test_cxx_fallback);
	tcase_add_test(tc, test_cxx_vs_nm);
	tcase_add_test(tc, test_cxx_short);
	tcase_add_test(tc, test_cxx_short_vs_cxxfilt);
	tcase_add_test(tc, test_rust_legacy);
	tcase_add_test(tc, test_rust_v0);
	tcase_add_test(tc, test_hostile);
	suite_add_tcase(s, tc);
	return s;
}
