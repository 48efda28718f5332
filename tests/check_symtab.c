/* check_symtab: the sorted symbol table (pure: no files). */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "symbols/symbolizer.h"
#include "symbols/symtab.h"
#include "tests/testutil.h"
#include "src/core/util.h"

static struct symtab *st;
static struct strpool *pool;

static void setup(void)
{
	pool = strpool__new();
	st = symtab__new(pool, SYMTAB_DEMANGLE);
	ck_assert_ptr_nonnull(st);
}

static void teardown(void)
{
	symtab__free(st);
	strpool__free(pool);
}

static void add(u64 start, u64 size, u64 limit, const char *name,
		enum symtab_bind bind)
{
	ck_assert_int_eq(symtab__add(st, start, size, limit, name,
				     name ? strlen(name) : 0, 0, bind, 0),
			 0);
}

static const char *name_at(u64 addr)
{
	struct symtab_hit hit;

	if (symtab__lookup(st, addr, &hit))
		return NULL;
	return hit.name;
}

START_TEST(test_lookup_basic)
{
	struct symtab_hit hit;

	add(0x2000, 0x10, 0, "b", SYMTAB_BIND_GLOBAL);
	add(0x1000, 0x100, 0, "a", SYMTAB_BIND_GLOBAL);
	add(0x3000, 0x8, 0, "c", SYMTAB_BIND_LOCAL);
	ck_assert_int_eq(symtab__finish(st), 0);
	ck_assert_uint_eq(symtab__count(st), 3);
	ck_assert_ptr_null(name_at(0xfff));
	ck_assert_str_eq(name_at(0x1000), "a");
	ck_assert_str_eq(name_at(0x10ff), "a");
	ck_assert_ptr_null(name_at(0x1100));
	ck_assert_str_eq(name_at(0x2000), "b");
	ck_assert_ptr_null(name_at(0x2010));
	ck_assert_str_eq(name_at(0x3007), "c");
	ck_assert_ptr_null(name_at(0x3008));
	ck_assert_int_eq(symtab__lookup(st, 0x2004, &hit), 0);
	ck_assert_uint_eq(hit.start, 0x2000);
	ck_assert_uint_eq(hit.size, 0x10);
	ck_assert_int_eq(symtab__lookup(st, UINT64_MAX, &hit), -ENOENT);
	ck_assert_int_eq(symtab__lookup(st, 0, &hit), -ENOENT);
}
END_TEST

START_TEST(test_empty)
{
	struct symtab_hit hit;

	ck_assert_int_eq(symtab__lookup(st, 0x1000, &hit), -ENOENT);
	ck_assert_int_eq(symtab__finish(st), 0);
	ck_assert_int_eq(symtab__lookup(st, 0x1000, &hit), -ENOENT);
	ck_assert_int_eq(symtab__add(st, 1, 1, 0, "x", 1, 0,
				     SYMTAB_BIND_GLOBAL, 0),
			 -EBUSY);
	ck_assert_int_eq(symtab__lookup(NULL, 0x1000, &hit), -ENOENT);
	symtab__free(NULL);
}
END_TEST

/* size 0: up to the next symbol, past the end of its section (perf's
 * rule: ld.so's _start, _init over PLT0); a sized one stops there */
START_TEST(test_zero_size)
{
	struct symtab_hit hit;

	add(0x1000, 0, 0x1800, "asm_a", SYMTAB_BIND_GLOBAL);
	add(0x1400, 0, 0x1800, "asm_b", SYMTAB_BIND_GLOBAL);
	add(0x2000, 0, 0x2100, "asm_c", SYMTAB_BIND_GLOBAL);
	add(0x3000, 0x2000, 0x3800, "too_big", SYMTAB_BIND_GLOBAL);
	add(0x5000, 0, 0x5010, "asm_last", SYMTAB_BIND_GLOBAL);
	ck_assert_int_eq(symtab__finish(st), 0);
	ck_assert_int_eq(symtab__lookup(st, 0x1010, &hit), 0);
	ck_assert_str_eq(hit.name, "asm_a");
	ck_assert_uint_eq(hit.size, 0x400);
	ck_assert_int_eq(symtab__lookup(st, 0x1500, &hit), 0);
	ck_assert_str_eq(hit.name, "asm_b");
	ck_assert_uint_eq(hit.size, 0xc00);	/* to asm_c, past 0x1800 */
	ck_assert_str_eq(name_at(0x1900), "asm_b");
	ck_assert_int_eq(symtab__lookup(st, 0x2000, &hit), 0);
	ck_assert_uint_eq(hit.size, 0x1000);
	/* a sized symbol is cut at its section's end */
	ck_assert_int_eq(symtab__lookup(st, 0x3000, &hit), 0);
	ck_assert_uint_eq(hit.size, 0x800);
	ck_assert_ptr_null(name_at(0x3800));
	/* nothing after it: perf's page rule, whatever its section */
	ck_assert_int_eq(symtab__lookup(st, 0x5000, &hit), 0);
	ck_assert_uint_eq(hit.size, 0x1000);
}
END_TEST

/* aliases, perf's choice: sized, non-weak, global, fewer leading
 * underscores, longer name, then the first added */
START_TEST(test_aliases)
{
	/* libc's write (libc6-dbg .symtab order): LOCAL beats WEAK */
	add(0x1000, 0x9d, 0, "__GI___libc_write", SYMTAB_BIND_LOCAL);
	add(0x1000, 0x9d, 0, "__libc_write", SYMTAB_BIND_LOCAL);
	add(0x1000, 0x9d, 0, "__write", SYMTAB_BIND_WEAK);
	add(0x1000, 0x9d, 0, "write", SYMTAB_BIND_WEAK);
	/* memcpy and memmove share their code: the longer name */
	add(0x2000, 0x7a0, 0, "__memmove_avx512_unaligned_erms",
	    SYMTAB_BIND_LOCAL);
	add(0x2000, 0x7a0, 0, "__memcpy_avx512_unaligned_erms",
	    SYMTAB_BIND_LOCAL);
	/* free: the globals, no underscore, the longest: a versioned name */
	add(0x3000, 0x101, 0, "__free", SYMTAB_BIND_LOCAL);
	add(0x3000, 0x101, 0, "free", SYMTAB_BIND_GLOBAL);
	add(0x3000, 0x101, 0, "__libc_free", SYMTAB_BIND_GLOBAL);
	add(0x3000, 0x101, 0, "cfree@GLIBC_2.2.5", SYMTAB_BIND_GLOBAL);
	/* equal length: the first added */
	add(0x4000, 0x6a, 0, "clock_gettime@@GLIBC_2.17", SYMTAB_BIND_GLOBAL);
	add(0x4000, 0x6a, 0, "clock_gettime@GLIBC_2.2.5", SYMTAB_BIND_GLOBAL);
	/* a sized local beats a zero-size global added before it */
	add(0x5000, 0, 0, "nosize", SYMTAB_BIND_GLOBAL);
	add(0x5000, 0x30, 0, "sized", SYMTAB_BIND_LOCAL);
	ck_assert_int_eq(symtab__finish(st), 0);
	ck_assert_uint_eq(symtab__count(st), 5);
	ck_assert_str_eq(name_at(0x1010), "__GI___libc_write");
	ck_assert_str_eq(name_at(0x2010), "__memmove_avx512_unaligned_erms");
	ck_assert_str_eq(name_at(0x3010), "cfree@GLIBC_2.2.5");
	ck_assert_str_eq(name_at(0x4010), "clock_gettime@@GLIBC_2.17");
	ck_assert_str_eq(name_at(0x502f), "sized");
	ck_assert_ptr_null(name_at(0x5030));
}
END_TEST

/* zero-size aliases (kallsyms): the last added is the one that reaches
 * the next symbol, so it is the sized one and wins, as in perf report
 * (memcpy, __memcpy, __pi_memcpy: "__pi_memcpy") */
START_TEST(test_aliases_zero_size)
{
	struct symtab_hit hit;

	add(0x1000, 0, 0, "memcpy", SYMTAB_BIND_GLOBAL);
	add(0x1000, 0, 0, "__memcpy", SYMTAB_BIND_GLOBAL);
	add(0x1000, 0, 0, "__pi_memcpy", SYMTAB_BIND_GLOBAL);
	add(0x1100, 0, 0, "next", SYMTAB_BIND_GLOBAL);
	/* a sized alias after a zero-size one: both count as sized, the
	 * global wins and keeps its twin's size */
	add(0x2000, 0x20, 0, "local_sized", SYMTAB_BIND_LOCAL);
	add(0x2000, 0, 0, "global_nosize", SYMTAB_BIND_GLOBAL);
	add(0x2100, 0x10, 0, "after", SYMTAB_BIND_GLOBAL);
	ck_assert_int_eq(symtab__finish(st), 0);
	ck_assert_int_eq(symtab__lookup(st, 0x1010, &hit), 0);
	ck_assert_str_eq(hit.name, "__pi_memcpy");
	ck_assert_uint_eq(hit.size, 0x100);
	ck_assert_int_eq(symtab__lookup(st, 0x2010, &hit), 0);
	ck_assert_str_eq(hit.name, "global_nosize");
	ck_assert_uint_eq(hit.size, 0x20);
}
END_TEST

/* the order of addition only breaks full ties */
START_TEST(test_aliases_order)
{
	add(0x3000, 0x20, 0, "zeta", SYMTAB_BIND_GLOBAL);
	add(0x3000, 0x20, 0, "beta", SYMTAB_BIND_GLOBAL);
	add(0x1000, 0x20, 0, "weak_name", SYMTAB_BIND_WEAK);
	add(0x1000, 0x20, 0, "global_name", SYMTAB_BIND_GLOBAL);
	add(0x2000, 0x20, 0, "local_name", SYMTAB_BIND_LOCAL);
	add(0x2000, 0x20, 0, "weak_name2", SYMTAB_BIND_WEAK);
	ck_assert_int_eq(symtab__finish(st), 0);
	ck_assert_str_eq(name_at(0x3010), "zeta");
	ck_assert_str_eq(name_at(0x1010), "global_name");
	ck_assert_str_eq(name_at(0x2010), "local_name");
}
END_TEST

/* perf compares the demangled names (it demangles as it reads): of
 * _Znwm and _Znam at one address (chromium's operator new and new[]),
 * "operator new[]" is the longer; a C alias longer than both raw names
 * loses to it too.  Names not demangled: the raw names, as perf
 * --no-demangle (the first added of the equal ones). */
static void add_news(void)
{
	for (u64 at = 0x1000; at <= 0x2000; at += 0x1000) {
		add(at, 0x40, 0, "_Znwm", SYMTAB_BIND_GLOBAL);
		add(at, 0x40, 0, "_Znam", SYMTAB_BIND_GLOBAL);
		if (at == 0x1000)
			add(at, 0x40, 0, "new_impl", SYMTAB_BIND_GLOBAL);
	}
	ck_assert_int_eq(symtab__finish(st), 0);
}

START_TEST(test_aliases_demangled)
{
	add_news();
	ck_assert_str_eq(name_at(0x1010), "operator new[]");
	ck_assert_str_eq(name_at(0x2010), "operator new[]");
	symtab__free(st);
	st = symtab__new(pool, 0);
	add_news();
	ck_assert_str_eq(name_at(0x1010), "new_impl");
	ck_assert_str_eq(name_at(0x2010), "_Znwm");
}
END_TEST

START_TEST(test_nested)
{
	/* an outer function with a smaller symbol inside it */
	add(0x1000, 0x1000, 0, "outer", SYMTAB_BIND_GLOBAL);
	add(0x1100, 0x10, 0, "inner", SYMTAB_BIND_LOCAL);
	ck_assert_int_eq(symtab__finish(st), 0);
	ck_assert_str_eq(name_at(0x1105), "inner");
	ck_assert_str_eq(name_at(0x1200), "outer");
	ck_assert_str_eq(name_at(0x1000), "outer");
}
END_TEST

START_TEST(test_synth)
{
	struct symtab_hit hit;

	add(0x1000, 0x100, 0, "real", SYMTAB_BIND_GLOBAL);
	add(0x1000, 0x100, 0, NULL, SYMTAB_BIND_SYNTH);	/* same: real */
	add(0x1080, 0x100, 0, NULL, SYMTAB_BIND_SYNTH);	/* overlaps */
	add(0x2000, 0x40, 0, NULL, SYMTAB_BIND_SYNTH);	/* a gap: kept */
	add(0x3000, 0x200, 0, NULL, SYMTAB_BIND_SYNTH);	/* covers real2 */
	add(0x3100, 0x10, 0, "real2", SYMTAB_BIND_LOCAL);
	ck_assert_int_eq(symtab__finish(st), 0);
	ck_assert_uint_eq(symtab__count(st), 3);
	ck_assert_str_eq(name_at(0x10ff), "real");
	ck_assert_ptr_null(name_at(0x1100));
	ck_assert_int_eq(symtab__lookup(st, 0x2010, &hit), 0);
	ck_assert_str_eq(hit.name, "func_0x2000");
	ck_assert_str_eq(hit.raw_name, "func_0x2000");
	ck_assert_uint_eq(hit.start, 0x2000);
	ck_assert_uint_eq(hit.size, 0x40);
	ck_assert_ptr_null(name_at(0x3000));
	ck_assert_str_eq(name_at(0x3100), "real2");
}
END_TEST

/* symtab__at lists n entries, in order, at want[i] = { start, size }. */
static void expect_listing(const u64 (*want)[2], size_t n)
{
	struct symtab_hit hit;

	ck_assert_uint_eq(symtab__count(st), n);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(symtab__at(st, i, &hit), 0);
		ck_assert_uint_eq(hit.start, want[i][0]);
		ck_assert_uint_eq(hit.size, want[i][1]);
	}
}

/* Ranges are kept apart from the symbols but decided as if among them:
 * a symbol without a size takes the size of a range at its address and
 * ends at the next range; a range beats a boundary at its address; of
 * ranges at one address the first is kept; symtab__at lists symbols and
 * ranges in address order, the ranges given unsorted. */
START_TEST(test_ranges_among_symbols)
{
	static const u64 want[][2] = {
		{ 0x1000, 0x80 }, { 0x1080, 0x20 }, { 0x2000, 0x30 },
		{ 0x3000, 0x10 }, { 0x3100, 0x700 }, { 0x3800, 0x10 },
		{ 0x4000, 0x8 },
	};
	struct symtab_hit hit;

	add(0x1000, 0, 0, "zero", SYMTAB_BIND_GLOBAL);	/* takes 0x80 */
	add(0x1080, 0x20, 0, "sized", SYMTAB_BIND_GLOBAL);
	add(0x2000, 0, 0, NULL, SYMTAB_BIND_BOUNDARY);	/* loses */
	add(0x3100, 0, 0, "label", SYMTAB_BIND_LOCAL);	/* to the range */
	add(0x4000, 0x8, 0, "last", SYMTAB_BIND_GLOBAL);
	/* unsorted, as an .eh_frame may be */
	add(0x3800, 0x10, 0, NULL, SYMTAB_BIND_SYNTH);	/* ends label */
	add(0x2000, 0x30, 0, NULL, SYMTAB_BIND_SYNTH);
	add(0x1000, 0x80, 0, NULL, SYMTAB_BIND_SYNTH);
	add(0x3000, 0x10, 0, NULL, SYMTAB_BIND_SYNTH);	/* first at 0x3000 */
	add(0x3000, 0x40, 0, NULL, SYMTAB_BIND_SYNTH);	/* dropped */
	add(0x3800, 0x10, 0, NULL, SYMTAB_BIND_SYNTH);	/* twin */
	ck_assert_int_eq(symtab__add(st, 0x5000, 0x10, 0, NULL, 0, 1,
				     SYMTAB_BIND_SYNTH, 0),
			 -EINVAL);	/* other flags than the first's */
	ck_assert_int_eq(symtab__finish(st), 0);
	/* label ends where the range at 0x3800 starts; that one stays */
	ck_assert_str_eq(name_at(0x107f), "zero");
	ck_assert_str_eq(name_at(0x2010), "func_0x2000");
	ck_assert_ptr_null(name_at(0x2030));
	ck_assert_int_eq(symtab__lookup(st, 0x3020, &hit), -ENOENT);
	ck_assert_str_eq(name_at(0x37ff), "label");
	ck_assert_str_eq(name_at(0x3800), "func_0x3800");
	expect_listing(want, 7);
	ck_assert_int_eq(symtab__at(st, 5, &hit), 0);
	ck_assert_str_eq(hit.name, "func_0x3800");
	ck_assert_uint_eq(hit.flags, 0);
	/* backwards too (the walk starts over) */
	ck_assert_int_eq(symtab__at(st, 1, &hit), 0);
	ck_assert_str_eq(hit.name, "sized");
	ck_assert_int_eq(symtab__at(st, 7, &hit), -ENOENT);
}
END_TEST

/* Ranges out of order are sorted stably: of two at one address the one
 * added first is kept, whether both were out of order or the first was
 * in order. */
START_TEST(test_ranges_unsorted_ties)
{
	static const u64 want[][2] = {
		{ 0x1000, 0x30 }, { 0x2000, 0x20 }, { 0x4000, 0x10 },
		{ 0x5000, 0x10 },
	};

	add(0x2000, 0x20, 0, NULL, SYMTAB_BIND_SYNTH);
	add(0x5000, 0x10, 0, NULL, SYMTAB_BIND_SYNTH);
	add(0x1000, 0x30, 0, NULL, SYMTAB_BIND_SYNTH);	/* out of order */
	add(0x1000, 0x60, 0, NULL, SYMTAB_BIND_SYNTH);	/* its twin */
	add(0x2000, 0x70, 0, NULL, SYMTAB_BIND_SYNTH);	/* the first's */
	add(0x4000, 0x10, 0, NULL, SYMTAB_BIND_SYNTH);
	ck_assert_int_eq(symtab__finish(st), 0);
	expect_listing(want, 4);
}
END_TEST

START_TEST(test_boundary)
{
	add(0x1000, 0, 0, "text", SYMTAB_BIND_GLOBAL);
	add(0x1040, 0, 0, NULL, SYMTAB_BIND_BOUNDARY);
	add(0x2000, 0, 0, "text2", SYMTAB_BIND_GLOBAL);
	ck_assert_int_eq(symtab__finish(st), 0);
	ck_assert_uint_eq(symtab__count(st), 2);
	ck_assert_str_eq(name_at(0x103f), "text");
	ck_assert_ptr_null(name_at(0x1040));
}
END_TEST

START_TEST(test_last_wins)
{
	struct symtab *jit = symtab__new(pool, SYMTAB_LAST_WINS);

	ck_assert_int_eq(symtab__add(jit, 0x1000, 0x40, 0, "old", 3, 0,
				     SYMTAB_BIND_GLOBAL, 0),
			 0);
	ck_assert_int_eq(symtab__add(jit, 0x1000, 0x20, 0, "new", 3, 0,
				     SYMTAB_BIND_GLOBAL, 0),
			 0);
	ck_assert_int_eq(symtab__finish(jit), 0);
	struct symtab_hit hit;

	ck_assert_int_eq(symtab__lookup(jit, 0x1010, &hit), 0);
	ck_assert_str_eq(hit.name, "new");
	ck_assert_uint_eq(hit.size, 0x20);
	symtab__free(jit);
}
END_TEST

START_TEST(test_group_bounds)
{
	struct symtab *k = symtab__new(pool, SYMTAB_GROUP_BOUNDS);
	struct symtab_hit hit;

	symtab__add(k, 0x1000, 0, 0, "k1", 2, 0, SYMTAB_BIND_GLOBAL, 0);
	symtab__add(k, 0x1800, 0, 0, "k_last", 6, 0, SYMTAB_BIND_GLOBAL, 0);
	symtab__add(k, 0x100000, 0, 0, "m1", 2, 0, SYMTAB_BIND_GLOBAL, 1);
	ck_assert_int_eq(symtab__finish(k), 0);
	ck_assert_int_eq(symtab__lookup(k, 0x1800, &hit), 0);
	ck_assert_uint_eq(hit.size, 0x1800);	/* to 0x3000, not 0x100000 */
	ck_assert_int_eq(symtab__lookup(k, 0x100000, &hit), 0);
	ck_assert_uint_eq(hit.group, 1);
	symtab__free(k);
}
END_TEST

/* names are demangled once and the same pointer comes back */
START_TEST(test_demangle_cached)
{
	struct symtab_hit a, b;

	add(0x1000, 0x10, 0, "_ZN5fixns5countEv", SYMTAB_BIND_GLOBAL);
	add(0x2000, 0x10, 0, "plain_c", SYMTAB_BIND_GLOBAL);
	ck_assert_int_eq(symtab__finish(st), 0);
	ck_assert_int_eq(symtab__lookup(st, 0x1000, &a), 0);
	ck_assert_int_eq(symtab__lookup(st, 0x1008, &b), 0);
	ck_assert_str_eq(a.name, "fixns::count");
	ck_assert_str_eq(a.raw_name, "_ZN5fixns5countEv");
	ck_assert_ptr_eq(a.name, b.name);
	ck_assert_int_eq(symtab__lookup(st, 0x2000, &a), 0);
	ck_assert_ptr_eq(a.name, a.raw_name);
}
END_TEST

/* the long form on demand: names are made again, the old ones live on */
START_TEST(test_demangle_params)
{
	struct symtab_hit a, b;

	add(0x1000, 0x10, 0, "_ZN5fixns5countEv", SYMTAB_BIND_GLOBAL);
	add(0x2000, 0x10, 0, "_ZdlPv@plt", SYMTAB_BIND_LOCAL);
	ck_assert_int_eq(symtab__finish(st), 0);
	ck_assert_int_eq(symtab__lookup(st, 0x1000, &a), 0);
	ck_assert_str_eq(a.name, "fixns::count");
	ck_assert_int_eq(symtab__lookup(st, 0x2000, &b), 0);
	ck_assert_str_eq(b.name, "operator delete@plt");
	symtab__set_demangle(st, SYMTAB_DEMANGLE | SYMTAB_PARAMS);
	ck_assert_int_eq(symtab__lookup(st, 0x1000, &b), 0);
	ck_assert_str_eq(b.name, "fixns::count()");
	ck_assert_str_eq(a.name, "fixns::count");
	ck_assert_str_eq(name_at(0x2000), "operator delete(void*)@plt");
	symtab__set_demangle(st, 0);
	ck_assert_str_eq(name_at(0x1000), "_ZN5fixns5countEv");
	symtab__set_demangle(st, SYMTAB_DEMANGLE);
	ck_assert_int_eq(symtab__lookup(st, 0x1000, &b), 0);
	ck_assert_ptr_eq(a.name, b.name);	/* the pool's copy again */
	symtab__set_demangle(NULL, 0);
}
END_TEST

/* names outlive the table (they live in the pool) */
START_TEST(test_names_outlive)
{
	struct symtab_hit hit;
	struct symtab *t = symtab__new(pool, 0);

	symtab__add(t, 0x1000, 0x10, 0, "survivor", 8, 0, SYMTAB_BIND_GLOBAL,
		    0);
	symtab__finish(t);
	ck_assert_int_eq(symtab__lookup(t, 0x1000, &hit), 0);
	symtab__free(t);
	ck_assert_str_eq(hit.name, "survivor");
}
END_TEST

/* hostile values: sizes that wrap, symbols at the very top */
START_TEST(test_extremes)
{
	struct symtab_hit hit;

	add(UINT64_MAX - 0x10, UINT64_MAX, 0, "wraps", SYMTAB_BIND_GLOBAL);
	add(UINT64_MAX - 0x100, 0, 0, "top", SYMTAB_BIND_GLOBAL);
	add(0x10, 0, 0x5, "bad_limit", SYMTAB_BIND_GLOBAL);
	ck_assert_int_eq(symtab__finish(st), 0);
	ck_assert_str_eq(name_at(UINT64_MAX - 1), "wraps");
	ck_assert_str_eq(name_at(UINT64_MAX - 0x20), "top");
	ck_assert_int_eq(symtab__lookup(st, 0x10, &hit), 0);
	ck_assert_str_eq(hit.name, "bad_limit");
	/* names with a NUL inside are cut there */
	ck_assert_int_eq(symtab__add(st, 1, 1, 0, "a\0b", 3, 0,
				     SYMTAB_BIND_GLOBAL, 0),
			 -EBUSY);
}
END_TEST

/* many symbols: every address of every symbol resolves to it */
START_TEST(test_many)
{
	char name[32];

	for (u64 i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "f%llu", (unsigned long long)i);
		/* reverse order, gaps between */
		add(0x100000 - i * 0x40, 0x30, 0, name, SYMTAB_BIND_GLOBAL);
	}
	ck_assert_int_eq(symtab__finish(st), 0);
	for (u64 i = 0; i < 5000; i += 7) {
		snprintf(name, sizeof(name), "f%llu", (unsigned long long)i);
		ck_assert_str_eq(name_at(0x100000 - i * 0x40 + 0x2f), name);
		ck_assert_ptr_null(name_at(0x100000 - i * 0x40 + 0x30));
	}
	struct symtab_hit hit;

	ck_assert_int_eq(symtab__at(st, 0, &hit), 0);
	ck_assert_str_eq(hit.name, "f4999");
	ck_assert_int_eq(symtab__at(st, 5000, &hit), -ENOENT);
	ck_assert_uint_gt(symtab__bytes(st), 5000 * 32);
}
END_TEST

/* ---- images (symtab__write_image, symtab__from_image) ---- */

static int emit_sb(void *ctx, const void *buf, size_t len)
{
	return strbuf__add(ctx, buf, len);
}

/* st's image, in sb (an aligned heap copy). */
static void image_of(struct symtab *t, struct strbuf *sb)
{
	strbuf__init(sb);
	ck_assert_int_eq(symtab__write_image(t, emit_sb, sb), 0);
	ck_assert_uint_gt(sb->len, 0);
}

static int released;

static void release(void *ctx)
{
	released++;
	free(ctx);
}

/* A table with every kind of entry: sized and zero-size symbols,
 * aliases, a nameless one, a boundary, ranges in gaps and under
 * symbols, a C++ name. */
static void fill_varied(void)
{
	add(0x1000, 0, 0, "zero", SYMTAB_BIND_GLOBAL);
	add(0x1000, 0x80, 0, "__zero_alias", SYMTAB_BIND_WEAK);
	add(0x1080, 0x20, 0, "_ZN5fixns5countEv", SYMTAB_BIND_GLOBAL);
	add(0x1100, 0x10, 0, NULL, SYMTAB_BIND_LOCAL);
	add(0x2000, 0, 0, NULL, SYMTAB_BIND_BOUNDARY);
	add(0x3100, 0, 0, "label", SYMTAB_BIND_LOCAL);
	add(0x4000, 0x8, 0x4004, "cut", SYMTAB_BIND_GLOBAL);
	add(0x3800, 0x10, 0, NULL, SYMTAB_BIND_SYNTH);
	add(0x2000, 0x30, 0, NULL, SYMTAB_BIND_SYNTH);
	add(0x1000, 0x80, 0, NULL, SYMTAB_BIND_SYNTH);
	add(0x5000, 0x40, 0, NULL, SYMTAB_BIND_SYNTH);
	ck_assert_int_eq(symtab__finish(st), 0);
}

/* symtab__at_raw's i-th entry is x (symtab__at's) less the naming: the
 * raw name as added; none for a range or a nameless symbol (x named
 * func_0x...), or the made name once a nameless symbol is named */
static void expect_raw(struct symtab *t, size_t i, const struct symtab_hit *x)
{
	struct symtab_hit r;

	ck_assert_int_eq(symtab__at_raw(t, i, &r), 0);
	ck_assert_ptr_null(r.name);
	ck_assert_uint_eq(r.start, x->start);
	ck_assert_uint_eq(r.size, x->size);
	ck_assert_uint_eq(r.flags, x->flags);
	ck_assert_uint_eq(r.group, x->group);
	if (strncmp(x->name, "func_0x", 7) || r.raw_name)
		ck_assert_str_eq(r.raw_name, x->raw_name);
}

/* a and b answer alike: every listed entry, and lookups around each */
static void expect_same(struct symtab *a, struct symtab *b)
{
	struct symtab_hit x, y;

	ck_assert_uint_eq(symtab__count(a), symtab__count(b));
	for (size_t i = 0; i < symtab__count(a); i++) {
		ck_assert_int_eq(symtab__at(a, i, &x), 0);
		ck_assert_int_eq(symtab__at(b, i, &y), 0);
		test_same_hit(&x, &y);
		expect_raw(a, i, &x);
		expect_raw(b, i, &y);
	}
	ck_assert_int_eq(symtab__at_raw(a, symtab__count(a), &x), -ENOENT);
	for (u64 addr = 0xff0; addr < 0x5100; addr += 4) {
		int ea = symtab__lookup(a, addr, &x);
		int eb = symtab__lookup(b, addr, &y);

		ck_assert_int_eq(ea, eb);
		if (!ea)
			test_same_hit(&x, &y);
	}
}

/* An image answers as its table did, names made on lookup (demangled,
 * in the form asked for), and is released with the table. */
START_TEST(test_image_round_trip)
{
	struct strbuf sb;
	struct symtab *img;
	struct symtab_hit hit;
	int *ctx = malloc(sizeof(*ctx));

	fill_varied();
	image_of(st, &sb);
	released = 0;
	img = symtab__from_image(sb.buf, sb.len, pool, SYMTAB_DEMANGLE,
				 release, ctx);
	ck_assert_ptr_nonnull(img);
	expect_same(st, img);
	ck_assert_int_eq(symtab__lookup(img, 0x1090, &hit), 0);
	ck_assert_str_eq(hit.name, "fixns::count");
	ck_assert_str_eq(hit.raw_name, "_ZN5fixns5countEv");
	ck_assert_int_eq(symtab__lookup(img, 0x1100, &hit), 0);
	ck_assert_str_eq(hit.name, "func_0x1100");
	/* the form changes: names made again */
	symtab__set_demangle(img, 0);
	symtab__set_demangle(st, 0);
	ck_assert_int_eq(symtab__lookup(img, 0x1090, &hit), 0);
	ck_assert_str_eq(hit.name, "_ZN5fixns5countEv");
	expect_same(st, img);
	/* read-only: an image is finished */
	ck_assert_int_eq(symtab__add(img, 0x9000, 1, 0, "x", 1, 0,
				     SYMTAB_BIND_GLOBAL, 0),
			 -EBUSY);
	ck_assert_int_eq(released, 0);
	symtab__free(img);
	ck_assert_int_eq(released, 1);
	strbuf__fini(&sb);
	/* no ranges at all (nothing to copy from: make SANITIZE=1 saw a
	 * NULL passed to memcpy), and no entries at all */
	for (int n = 1; n >= 0; n--) {
		struct symtab *t = symtab__new(pool, SYMTAB_DEMANGLE);

		if (n)
			ck_assert_int_eq(symtab__add(t, 0x100, 0x10, 0, "one",
						     3, 0, SYMTAB_BIND_GLOBAL,
						     0),
					 0);
		ck_assert_int_eq(symtab__finish(t), 0);
		image_of(t, &sb);
		img = symtab__from_image(sb.buf, sb.len, pool,
					 SYMTAB_DEMANGLE, NULL, NULL);
		ck_assert_ptr_nonnull(img);
		ck_assert_uint_eq(symtab__count(img), (size_t)n);
		ck_assert_int_eq(symtab__lookup(img, 0x108, &hit),
				 n ? 0 : -ENOENT);
		symtab__free(img);
		symtab__free(t);
		strbuf__fini(&sb);
	}
}
END_TEST

/* The same for a big table read from an image twice over (names made
 * once, then from the slots). */
START_TEST(test_image_many)
{
	char name[32];
	struct strbuf sb;
	struct symtab *img;

	for (u64 i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "f%llu", (unsigned long long)i);
		add(0x100000 - i * 0x40, i % 3 ? 0x30 : 0, 0, name,
		    SYMTAB_BIND_GLOBAL);
		add(0x100000 - i * 0x40 + 0x38, 0x4, 0, NULL,
		    SYMTAB_BIND_SYNTH);
	}
	ck_assert_int_eq(symtab__finish(st), 0);
	image_of(st, &sb);
	img = symtab__from_image(sb.buf, sb.len, pool, SYMTAB_DEMANGLE, NULL,
				 NULL);
	ck_assert_ptr_nonnull(img);
	for (int round = 0; round < 2; round++) {
		for (u64 a = 0x100000 - 2999 * 0x40; a < 0x100040; a += 0x1c) {
			struct symtab_hit x, y;
			int ea = symtab__lookup(st, a, &x);

			ck_assert_int_eq(symtab__lookup(img, a, &y), ea);
			if (!ea)
				test_same_hit(&x, &y);
		}
	}
	ck_assert_uint_eq(symtab__count(img), symtab__count(st));
	symtab__free(img);
	strbuf__fini(&sb);
}
END_TEST

/* Images that are not whole, not this layout or these flags, out of
 * order or with a name outside them are refused (EINVAL), whatever the
 * bytes; an unfinished table has none. */
START_TEST(test_image_refused)
{
	struct strbuf sb;
	struct symtab *other = symtab__new(pool, 0);
	u8 *copy;
	size_t syms;

	ck_assert_int_eq(symtab__write_image(other, emit_sb, NULL), -EINVAL);
	symtab__free(other);
	fill_varied();
	image_of(st, &sb);
	copy = malloc(sb.len + 8);
	/* the header's layout as symtab.c writes it: 56 bytes, then
	 * 48-byte symbols */
	syms = 56;
#define REFUSED(len_, flags_)                                            \
	do {                                                              \
		errno = 0;                                                \
		ck_assert_ptr_null(symtab__from_image(copy, (len_), pool, \
						      (flags_), NULL, NULL)); \
		ck_assert_int_eq(errno, EINVAL);                          \
		memcpy(copy, sb.buf, sb.len);                             \
	} while (0)
	memcpy(copy, sb.buf, sb.len);
	REFUSED(sb.len - 1, SYMTAB_DEMANGLE);		/* cut short */
	REFUSED(10, SYMTAB_DEMANGLE);			/* no header */
	REFUSED(sb.len, SYMTAB_LAST_WINS);		/* other flags */
	copy[0] ^= 1;
	REFUSED(sb.len, SYMTAB_DEMANGLE);		/* magic */
	copy[8] ^= 1;
	REFUSED(sb.len, SYMTAB_DEMANGLE);		/* version */
	copy[sb.len - 1] = 'x';
	REFUSED(sb.len, SYMTAB_DEMANGLE);		/* names unended */
	/* the second symbol before the first */
	memcpy(copy + syms + 48, copy + syms, 8);
	REFUSED(sb.len, SYMTAB_DEMANGLE);
	/* a name past the end */
	memset(copy + syms + 16, 0x7f, 8);
	REFUSED(sb.len, SYMTAB_DEMANGLE);
	/* a boundary (never in a finished table) */
	copy[syms + 42] = SYMTAB_BIND_BOUNDARY;	/* struct sym.bind */
	REFUSED(sb.len, SYMTAB_DEMANGLE);
	/* misaligned */
	memmove(copy + 1, copy, sb.len);
	errno = 0;
	ck_assert_ptr_null(symtab__from_image(copy + 1, sb.len, pool,
					      SYMTAB_DEMANGLE, NULL, NULL));
	ck_assert_int_eq(errno, EINVAL);
#undef REFUSED
	/* and the good one is good */
	memcpy(copy, sb.buf, sb.len);
	other = symtab__from_image(copy, sb.len, pool, SYMTAB_DEMANGLE, NULL,
				   NULL);
	ck_assert_ptr_nonnull(other);
	symtab__free(other);
	free(copy);
	strbuf__fini(&sb);
}
END_TEST

Suite *symtab_suite(void)
{
	Suite *s = suite_create("symtab");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_lookup_basic);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_zero_size);
	tcase_add_test(tc, test_aliases);
	tcase_add_test(tc, test_aliases_zero_size);
	tcase_add_test(tc, test_aliases_order);
	tcase_add_test(tc, test_aliases_demangled);
	tcase_add_test(tc, test_nested);
	tcase_add_test(tc, test_synth);
	tcase_add_test(tc, test_ranges_among_symbols);
	tcase_add_test(tc, test_ranges_unsorted_ties);
	tcase_add_test(tc, test_boundary);
	tcase_add_test(tc, test_last_wins);
	tcase_add_test(tc, test_group_bounds);
	tcase_add_test(tc, test_demangle_cached);
	tcase_add_test(tc, test_demangle_params);
	tcase_add_test(tc, test_names_outlive);
	tcase_add_test(tc, test_extremes);
	tcase_add_test(tc, test_many);
	tcase_add_test(tc, test_image_round_trip);
	tcase_add_test(tc, test_image_many);
	tcase_add_test(tc, test_image_refused);
	suite_add_tcase(s, tc);
	return s;
}
