/* check_perfmap: /tmp/perf-PID.map parsing, growth and refusals. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/perfmap.h"
#include "symbols/symbolizer.h"
#include "symbols/symtab.h"
#include "tests/testutil.h"

static struct strpool *pool;
static char dir[64];	/* a private tmp and proc for each test */
static char path[128], procdir[128];

static void setup(void)
{
	pool = strpool__new();
	snprintf(dir, sizeof(dir), "/tmp/ptop-perfmap-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf-77.map", dir);
	snprintf(procdir, sizeof(procdir), "%s/77", dir);
	ck_assert_int_eq(mkdir(procdir, 0755), 0);
}

static void teardown(void)
{
	unlink(path);
	rmdir(procdir);
	rmdir(dir);
	strpool__free(pool);
}

static void write_map(const char *text, const char *mode)
{
	FILE *f = fopen(path, mode);

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static const char *name_at(struct perfmap *pm, u64 addr)
{
	struct symtab_hit hit;

	return perfmap__lookup(pm, addr, &hit) ? NULL : hit.name;
}

START_TEST(test_fixture_map)
{
	struct perfmap *pm = perfmap__new(test_fixture("tmp"),
					  test_fixture("proc"), 4242, pool,
					  true);
	struct symtab_hit hit;

	ck_assert_ptr_nonnull(pm);
	ck_assert(!perfmap__loaded(pm));
	ck_assert_int_eq(perfmap__refresh(pm), 0);
	ck_assert(perfmap__loaded(pm));
	ck_assert_str_eq(perfmap__name(pm), "[JIT] tid 4242");
	/* the later line for an address replaces the earlier one */
	ck_assert_int_eq(perfmap__lookup(pm, 0x7f0000001010, &hit), 0);
	ck_assert_str_eq(hit.name, "jit_first_recompiled");
	ck_assert_uint_eq(hit.start, 0x7f0000001000);
	ck_assert_uint_eq(hit.size, 0x20);
	ck_assert_uint_eq(hit.flags, SYM_F_JIT);
	ck_assert_ptr_null(name_at(pm, 0x7f0000001030));
	ck_assert_str_eq(name_at(pm, 0x7f00000010ff), "jit_second with spaces");
	ck_assert_str_eq(name_at(pm, 0x7f0000002000), "jit_hex_prefixed");
	ck_assert_str_eq(name_at(pm, 0x7f0000005010), "fixns::inner::run");
	/* the long form on demand, and back */
	perfmap__set_demangle(pm, SYMTAB_DEMANGLE | SYMTAB_PARAMS);
	ck_assert_str_eq(name_at(pm, 0x7f0000005010),
			 "fixns::inner::run(void (*)(int), int)");
	perfmap__set_demangle(pm, SYMTAB_DEMANGLE);
	ck_assert_str_eq(name_at(pm, 0x7f0000005010), "fixns::inner::run");
	ck_assert_ptr_null(name_at(pm, 0x7f0000004000));
	ck_assert_uint_gt(perfmap__bytes(pm), 0);
	perfmap__free(pm);
	perfmap__free(NULL);
}
END_TEST

START_TEST(test_parse_counts)
{
	const char *text = "1000 10 a\n\nzz 10 b\n2000 10\n3000 10 \n"
			   "4000 10 c\r\n0 10 zero\n5000 10 d";
	struct symtab *st = symtab__new(pool, 0);
	struct symtab_hit hit;
	size_t bad = 0;

	ck_assert_int_eq(perfmap__parse(text, strlen(text), st, &bad), 0);
	ck_assert_int_eq(symtab__finish(st), 0);
	ck_assert_uint_eq(bad, 4);
	ck_assert_uint_eq(symtab__count(st), 3);
	ck_assert_int_eq(symtab__lookup(st, 0x4000, &hit), 0);
	ck_assert_str_eq(hit.name, "c");
	ck_assert_int_eq(symtab__lookup(st, 0x5000, &hit), 0);
	ck_assert_str_eq(hit.name, "d");
	symtab__free(st);
}
END_TEST

START_TEST(test_growth)
{
	struct perfmap *pm = perfmap__new(dir, dir, 77, pool, false);

	ck_assert_int_eq(perfmap__refresh(pm), -ENOENT);
	ck_assert(!perfmap__loaded(pm));
	write_map("1000 10 one\n2000 10 tw", "w");
	ck_assert_int_eq(perfmap__refresh(pm), 0);
	ck_assert_str_eq(name_at(pm, 0x1000), "one");
	/* the line being written is not read half */
	ck_assert_ptr_null(name_at(pm, 0x2000));
	write_map("o\n3000 10 three\n", "a");
	ck_assert_int_eq(perfmap__refresh(pm), 0);
	ck_assert_str_eq(name_at(pm, 0x2000), "two");
	ck_assert_str_eq(name_at(pm, 0x3000), "three");
	/* unchanged: nothing reread, the same answers */
	ck_assert_int_eq(perfmap__refresh(pm), 0);
	ck_assert_str_eq(name_at(pm, 0x1000), "one");
	perfmap__free(pm);
}
END_TEST

START_TEST(test_symlink_and_fifo)
{
	struct perfmap *pm = perfmap__new(dir, dir, 77, pool, false);

	ck_assert_int_eq(symlink("/dev/zero", path), 0);
	ck_assert_int_eq(perfmap__refresh(pm), -ELOOP);
	ck_assert(!perfmap__loaded(pm));
	unlink(path);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(perfmap__refresh(pm), -EPERM);	/* and no hang */
	unlink(path);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	ck_assert_int_lt(perfmap__refresh(pm), 0);
	rmdir(path);
	perfmap__free(pm);
}
END_TEST

START_TEST(test_owner)
{
	struct perfmap *pm = perfmap__new(dir, dir, 77, pool, false);

	write_map("1000 10 one\n", "w");
	if (geteuid() != 0 || chown(path, 65534, 65534)) {
		perfmap__free(pm);
		return;	/* needs root to make a file someone else's */
	}
	/* neither root's nor the process owner's */
	ck_assert_int_eq(perfmap__refresh(pm), -EPERM);
	/* the process's owner's: trusted */
	ck_assert_int_eq(chown(procdir, 65534, 65534), 0);
	ck_assert_int_eq(perfmap__refresh(pm), 0);
	ck_assert_str_eq(name_at(pm, 0x1000), "one");
	perfmap__free(pm);
	/* the process is gone (a recording): only root's or ours */
	ck_assert_int_eq(rmdir(procdir), 0);
	pm = perfmap__new(dir, dir, 77, pool, false);
	ck_assert_int_eq(perfmap__refresh(pm), -EPERM);
	ck_assert_int_eq(chown(path, 0, 0), 0);
	ck_assert_int_eq(perfmap__refresh(pm), 0);
	ck_assert_str_eq(name_at(pm, 0x1000), "one");
	perfmap__free(pm);
	ck_assert_int_eq(mkdir(procdir, 0755), 0);
}
END_TEST

START_TEST(test_too_big)
{
	struct perfmap *pm = perfmap__new(dir, dir, 77, pool, false);
	int fd = open(path, O_CREAT | O_WRONLY, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)PERFMAP_MAX + 1), 0);
	close(fd);
	ck_assert_int_eq(perfmap__refresh(pm), -EFBIG);
	perfmap__free(pm);
}
END_TEST

Suite *perfmap_suite(void)
{
	Suite *s = suite_create("perfmap");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_fixture_map);
	tcase_add_test(tc, test_parse_counts);
	tcase_add_test(tc, test_growth);
	tcase_add_test(tc, test_symlink_and_fifo);
	tcase_add_test(tc, test_owner);
	tcase_add_test(tc, test_too_big);
	suite_add_tcase(s, tc);
	return s;
}
