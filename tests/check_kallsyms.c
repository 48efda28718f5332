/* check_kallsyms: kernel and module symbols, sizes, kptr_restrict. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kallsyms.h"
#include "symbolizer.h"
#include "symtab.h"
#include "testutil.h"

static struct strpool *pool;

static void setup(void)
{
	pool = strpool__new();
}

static void teardown(void)
{
	strpool__free(pool);
}

static void expect(struct kallsyms *ks, u64 addr, const char *name,
		   u64 start, u64 size, const char *dso)
{
	struct symtab_hit hit;

	ck_assert_int_eq(symtab__lookup(ks->st, addr, &hit), 0);
	ck_assert_str_eq(hit.name, name);
	ck_assert_uint_eq(hit.start, start);
	ck_assert_uint_eq(hit.size, size);
	ck_assert_uint_eq(hit.flags, SYM_F_KERNEL);
	ck_assert_str_eq(kallsyms__dso_name(ks, hit.group), dso);
}

START_TEST(test_normal)
{
	struct kallsyms *ks = kallsyms__load(test_fixture("kallsyms.normal"),
					     pool);
	struct symtab_hit hit;

	ck_assert_ptr_nonnull(ks);
	ck_assert(!ks->restricted);
	ck_assert_uint_eq(ks->nr_lines, 13);
	/* "garbage line" and the absolute symbol */
	ck_assert_uint_eq(ks->nr_bad, 2);
	/* _stext and startup_64 share an address: fewer underscores win */
	expect(ks, 0xffffffff81000050, "startup_64", 0xffffffff81000000,
	       0x100, "[kernel.kallsyms]");
	expect(ks, 0xffffffff81000100, "early_helper", 0xffffffff81000100,
	       0x80, "[kernel.kallsyms]");
	expect(ks, 0xffffffff810003ff, "do_syscall_64", 0xffffffff81000180,
	       0x280, "[kernel.kallsyms]");
	expect(ks, 0xffffffff81000400, "weak_text", 0xffffffff81000400, 0x80,
	       "[kernel.kallsyms]");
	/* data ends the text before it and is not a symbol itself */
	ck_assert_int_eq(symtab__lookup(ks->st, 0xffffffff81000480, &hit),
			 -ENOENT);
	/* the last kernel symbol does not run into the modules */
	expect(ks, 0xffffffff81001000, "_etext", 0xffffffff81001000, 0x1000,
	       "[kernel.kallsyms]");
	ck_assert_int_eq(symtab__lookup(ks->st, 0xffffffff81002000, &hit),
			 -ENOENT);
	expect(ks, 0xffffffffc0001010, "mod_a_fn", 0xffffffffc0001000, 0x200,
	       "[mod_a]");
	expect(ks, 0xffffffffc0001200, "mod_a_fn2", 0xffffffffc0001200, 0x100,
	       "[mod_a]");
	expect(ks, 0xffffffffc0002fff, "mod_b_fn", 0xffffffffc0002000,
	       0x1000, "[mod_b]");
	ck_assert_uint_eq(ks->nr_mods, 2);
	kallsyms__free(ks);
}
END_TEST

START_TEST(test_restricted)
{
	struct kallsyms *ks = kallsyms__load(
		test_fixture("kallsyms.restricted"), pool);

	ck_assert_ptr_nonnull(ks);
	ck_assert(ks->restricted);
	ck_assert_uint_eq(symtab__count(ks->st), 0);
	kallsyms__free(ks);
}
END_TEST

START_TEST(test_missing)
{
	errno = 0;
	ck_assert_ptr_null(kallsyms__load(test_fixture("no-such-kallsyms"),
					  pool));
	ck_assert_int_eq(errno, ENOENT);
	kallsyms__free(NULL);
}
END_TEST

START_TEST(test_hostile_text)
{
	static const char *texts[] = {
		"",
		"\n\n\n",
		"ffffffffffffffffff T too_many_digits\n",
		"ffffffff81000000 T\n",
		"ffffffff81000000 T \n",
		"ffffffff81000000Tnospace\n",
		"ffffffff81000000 t unterminated_module\t[mod",
		"ffffffff81000000 t empty_module\t[]\n",
		"ffffffff81000000 t no_newline_at_end",
		"ffffffffffffffff T at_the_top\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		struct kallsyms *ks = kallsyms__parse(texts[i],
						      strlen(texts[i]), pool);
		struct symtab_hit hit;

		ck_assert_ptr_nonnull(ks);
		symtab__lookup(ks->st, 0xffffffff81000000, &hit);
		kallsyms__free(ks);
	}
	/* a NUL in the middle of the text */
	{
		const char text[] = "ffffffff81000000 T a\0b\n"
				    "ffffffff81000100 T c\n";
		struct kallsyms *ks = kallsyms__parse(text, sizeof(text) - 1,
						      pool);
		struct symtab_hit hit;

		ck_assert_ptr_nonnull(ks);
		ck_assert_int_eq(symtab__lookup(ks->st, 0xffffffff81000100,
						&hit),
				 0);
		ck_assert_str_eq(hit.name, "c");
		kallsyms__free(ks);
	}
}
END_TEST

/* the real one, when readable: every text symbol of it resolves */
/* Loading in chunks gives what parsing the whole text gives, with lines
 * across every chunk boundary and one line longer than a chunk. */
START_TEST(test_chunked_load)
{
	char path[] = "/tmp/ptop-kallsyms-XXXXXX";
	int fd = mkstemp(path);
	struct strbuf text;
	struct kallsyms *a, *b;

	ck_assert_int_ge(fd, 0);
	strbuf__init(&text);
	for (unsigned int i = 0; i < 20000; i++) {
		strbuf__addf(&text, "%016x T func_%u_%.*s\n", 0x81000000u + i * 16, i,
			     (int)(i % 37), "abcdefghijklmnopqrstuvwxyzabcdefghijk");
		if (i == 7000) {
			/* a line of 100 KiB, longer than the chunk */
			strbuf__adds(&text, "ffffffff81f00000 T ");
			for (int k = 0; k < 100 * 1024; k++)
				strbuf__addc(&text, 'x');
			strbuf__addc(&text, '\n');
		}
	}
	/* the last line has no newline */
	strbuf__adds(&text, "0000000081f00000 T last_one");
	ck_assert_int_eq(write(fd, text.buf, text.len), (ssize_t)text.len);
	close(fd);
	a = kallsyms__parse(text.buf, text.len, pool);
	b = kallsyms__load(path, pool);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(symtab__count(a->st), symtab__count(b->st) + 1);
	ck_assert_uint_eq(b->nr_lines, 20002);
	ck_assert_uint_eq(b->nr_bad, 1);	/* the long line */
	for (unsigned int i = 0; i < 20000; i += 997) {
		struct symtab_hit ha, hb;
		u64 addr = 0x81000000u + i * 16 + 4;

		ck_assert_int_eq(symtab__lookup(a->st, addr, &ha), 0);
		ck_assert_int_eq(symtab__lookup(b->st, addr, &hb), 0);
		ck_assert_str_eq(ha.name, hb.name);
		ck_assert_uint_eq(ha.start, hb.start);
	}
	{	/* the last line, without its newline, is read too */
		struct symtab_hit hb;

		ck_assert_int_eq(symtab__lookup(b->st, 0x81f00000, &hb), 0);
		ck_assert_str_eq(hb.name, "last_one");
	}
	kallsyms__free(a);
	kallsyms__free(b);
	strbuf__fini(&text);
	unlink(path);
}
END_TEST

START_TEST(test_proc)
{
	struct kallsyms *ks = kallsyms__load("/proc/kallsyms", pool);

	if (!ks && access("/proc/kallsyms", R_OK))
		test_skip("no /proc/kallsyms in this sandbox");
	ck_assert_ptr_nonnull(ks);
	if (!ks->restricted)
		ck_assert_uint_gt(symtab__count(ks->st), 1000);
	kallsyms__free(ks);
}
END_TEST

Suite *kallsyms_suite(void)
{
	Suite *s = suite_create("kallsyms");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_normal);
	tcase_add_test(tc, test_restricted);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_hostile_text);
	tcase_add_test(tc, test_chunked_load);
	tcase_add_test(tc, test_proc);
	suite_add_tcase(s, tc);
	return s;
}
