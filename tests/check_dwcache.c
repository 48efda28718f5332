/* check_dwcache: inflated copies of debug files with compressed DWARF. */
#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "symbols/cachedir.h"
#include "symbols/dwcache.h"
#include "symbols/elfsym.h"
#include "symbols/srcline.h"
#include "symbols/symtab.h"
#include "tests/fixtures/symtest.h"

static char dir[64];
static char copy[PATH_MAX];
static struct strpool *pool;

struct file {
	int fd;
	Elf *elf;
};

static void file_open(struct file *f, const char *fixture)
{
	f->fd = open(test_fixture(fixture), O_RDONLY);
	ck_assert_int_ge(f->fd, 0);
	f->elf = elfsym__map_fd(f->fd);
	ck_assert_ptr_nonnull(f->elf);
}

static void file_close(struct file *f)
{
	elf_end(f->elf);
	close(f->fd);
}

/* The copy's path: DIR/dwarf/BUILDID.debug of the fixture's build-id. */
static void copy_path(const char *fixture)
{
	struct file f;
	u8 bid[BUILD_ID_MAX];
	int n;
	size_t len;

	file_open(&f, fixture);
	n = elfsym__build_id(f.elf, bid, sizeof(bid));
	ck_assert_int_gt(n, 0);
	len = (size_t)snprintf(copy, sizeof(copy), "%s/dwarf/", dir);
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(copy + len, sizeof(copy) - len, "%02x",
					bid[i]);
	snprintf(copy + len, sizeof(copy) - len, ".debug");
	file_close(&f);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ptop-dwcache-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	pool = strpool__new();
	copy_path("symfix-gz");
}

static void teardown(void)
{
	char cmd[128];

	strpool__free(pool);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static bool any_compressed(Elf *elf)
{
	u64 size;
	bool compressed;

	ck_assert_int_eq(srcline__dwarf_size(elf, &size, &compressed), 0);
	return compressed;
}

/* Every address of main and fix_caller: the same frames from the copy
 * as from the compressed file. */
static void same_lines(Elf *a, Elf *b)
{
	static const char *const fns[] = { "fix_caller", "fix_leaf", "main" };
	struct srcline_dw *x = srcline__new(a, -1), *y = srcline__new(b, -1);
	int frames = 0;

	ck_assert_ptr_nonnull(x);
	ck_assert_ptr_nonnull(y);
	for (size_t f = 0; f < ARRAY_SIZE(fns); f++) {
		u64 addr, size;

		ck_assert(nm_find("symfix.nm", fns[f], &addr, &size));
		for (u64 at = addr; at < addr + size; at++) {
			struct srcline p[8], q[8];
			int n = srcline__lookup(x, at, p, 8, pool,
						SYMTAB_DEMANGLE);
			int m = srcline__lookup(y, at, q, 8, pool,
						SYMTAB_DEMANGLE);

			ck_assert_int_eq(n, m);
			for (int i = 0; i < n; i++) {
				ck_assert_ptr_eq(p[i].file, q[i].file);
				ck_assert_int_eq(p[i].line, q[i].line);
				ck_assert_ptr_eq(p[i].func, q[i].func);
			}
			frames += n;
		}
	}
	ck_assert_int_gt(frames, 0);
	srcline__free(x);
	srcline__free(y);
}

static int open_cached(const char *fixture, struct file *out,
		       struct dwcache_result *r)
{
	struct file f;
	int err;

	file_open(&f, fixture);
	err = dwcache__open(dir, f.fd, f.elf, &out->fd, &out->elf, r);
	file_close(&f);
	return err;
}

/* Made once, then read: inflated, the same build-id and lines. */
START_TEST(test_made_then_read)
{
	struct dwcache_result r;
	struct file c, orig;
	struct stat st1, st2;

	ck_assert_int_eq(open_cached("symfix-gz", &c, &r), 0);
	ck_assert(r.made);
	ck_assert(!any_compressed(c.elf));
	file_open(&orig, "symfix-gz");
	ck_assert(any_compressed(orig.elf));
	same_lines(orig.elf, c.elf);
	file_close(&c);
	ck_assert_int_eq(stat(copy, &st1), 0);
	ck_assert_int_eq(st1.st_mode & 0777, 0600);

	ck_assert_int_eq(open_cached("symfix-gz", &c, &r), 0);
	ck_assert(!r.made);
	ck_assert_int_eq(stat(copy, &st2), 0);
	ck_assert_int_eq(st1.st_ino, st2.st_ino);
	same_lines(orig.elf, c.elf);
	file_close(&c);
	file_close(&orig);
}
END_TEST

/* Nothing compressed, GNU .zdebug: no copy. */
START_TEST(test_nothing_to_cache)
{
	struct dwcache_result r;
	struct file c;
	char sub[128];
	struct stat st;

	ck_assert_int_eq(open_cached("symfix", &c, &r), -ENOENT);
	ck_assert_int_eq(open_cached("symfix-zgnu", &c, &r), -ENOTSUP);
	snprintf(sub, sizeof(sub), "%s/dwarf", dir);
	ck_assert_int_ne(stat(sub, &st), 0);
}
END_TEST

/* A copy cut short, or of another file, is made again. */
START_TEST(test_bad_copy_remade)
{
	struct dwcache_result r;
	struct file c;
	struct stat st;
	char cmd[PATH_MAX + 64];

	ck_assert_int_eq(open_cached("symfix-gz", &c, &r), 0);
	file_close(&c);
	ck_assert_int_eq(stat(copy, &st), 0);
	ck_assert_int_eq(truncate(copy, st.st_size / 2), 0);
	ck_assert_int_eq(open_cached("symfix-gz", &c, &r), 0);
	ck_assert(r.made);
	ck_assert(!any_compressed(c.elf));
	file_close(&c);

	/* another build-id's file under this name */
	snprintf(cmd, sizeof(cmd), "cp %s %s", test_fixture("symfix-pie"),
		 copy);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(open_cached("symfix-gz", &c, &r), 0);
	ck_assert(r.made);
	file_close(&c);

	/* not an ELF file at all */
	snprintf(cmd, sizeof(cmd), "echo garbage > %s", copy);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(open_cached("symfix-gz", &c, &r), 0);
	ck_assert(r.made);
	ck_assert(!any_compressed(c.elf));
	file_close(&c);
}
END_TEST

/* Nobody else's files: a symlink is not followed, a folder others can
 * write to is not used. */
START_TEST(test_not_ours)
{
	struct dwcache_result r;
	struct file c;
	char sub[128];
	struct stat st;

	snprintf(sub, sizeof(sub), "%s/dwarf", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	ck_assert_int_eq(symlink(test_fixture("symfix"), copy), 0);
	ck_assert_int_eq(open_cached("symfix-gz", &c, &r), -EPERM);
	ck_assert_int_eq(lstat(copy, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_int_eq(unlink(copy), 0);

	ck_assert_int_eq(chmod(sub, 0777), 0);
	ck_assert_int_eq(open_cached("symfix-gz", &c, &r), -EPERM);
	ck_assert_int_ne(stat(copy, &st), 0);
}
END_TEST

static void make_file(const char *name, size_t bytes, time_t age)
{
	char path[PATH_MAX];
	struct timespec t[2];
	char *buf = calloc(1, bytes);
	FILE *f;

	snprintf(path, sizeof(path), "%s/dwarf/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 1, bytes);
	ck_assert_uint_eq(fwrite(buf, 1, bytes, f), bytes);
	fclose(f);
	free(buf);
	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= age;
	t[1] = t[0];
	ck_assert_int_eq(utimensat(AT_FDCWD, path, t, 0), 0);
}

static bool exists(const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/dwarf/%s", dir, name);
	return stat(path, &st) == 0;
}

/* Over the bound, the least recently used go first (never the one just
 * used); a dead run's temporary file goes when it is old. */
START_TEST(test_prune)
{
	char sub[128];

	snprintf(sub, sizeof(sub), "%s/dwarf", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	make_file("old.debug", 64 << 10, 3000);
	make_file("mid.debug", 64 << 10, 2000);
	make_file("new.debug", 64 << 10, 1000);
	make_file("keep.debug", 64 << 10, 4000);
	make_file(".x.debug.123.abcdef01.ptop-tmp", 4096, 5000);
	make_file(".y.debug.123.abcdef01.ptop-tmp", 4096, 10);
	/* room for two of them */
	cachedir__prune(sub, "keep.debug", 150 << 10);
	ck_assert(exists("keep.debug"));
	ck_assert(!exists("old.debug"));
	ck_assert(!exists("mid.debug"));
	ck_assert(exists("new.debug"));
	ck_assert(!exists(".x.debug.123.abcdef01.ptop-tmp"));
	ck_assert(exists(".y.debug.123.abcdef01.ptop-tmp"));
	/* under the bound: nothing goes */
	cachedir__prune(sub, "keep.debug", 1 << 30);
	ck_assert(exists("new.debug"));
}
END_TEST

Suite *dwcache_suite(void)
{
	Suite *s = suite_create("dwcache");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_made_then_read);
	tcase_add_test(tc, test_nothing_to_cache);
	tcase_add_test(tc, test_bad_copy_remade);
	tcase_add_test(tc, test_not_ours);
	tcase_add_test(tc, test_prune);
	suite_add_tcase(s, tc);
	return s;
}
