/* Tests of cgroupfs: the cgroup2 mount from a mounts file (hybrid, with
 * escapes, none) and -G's errors, on fake files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/core/log.h"
#include "src/sys/cgroupfs.h"
#include "tests/testutil.h"

static char dir[64], mounts[128];

static void write_mounts(const char *text)
{
	FILE *f = fopen(mounts, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ptop-check-cgroupfs-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(mounts, sizeof(mounts), "%s/mounts", dir);
	test_log_capture();
}

static void teardown(void)
{
	char cmd[128];

	log__set_handler(NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_mount)
{
	char mnt[256];

	/* hybrid: v1 controllers, then the unified hierarchy */
	write_mounts("tmpfs /sys/fs/cgroup tmpfs rw 0 0\n"
		     "cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\n"
		     "cgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n"
		     "cgroup2 /other cgroup2 rw 0 0\n");
	ck_assert_int_eq(cgroupfs__mount(mounts, mnt, sizeof(mnt)), 0);
	ck_assert_str_eq(mnt, "/sys/fs/cgroup/unified");
	/* a space in the mount point is \040 in mounts */
	write_mounts("none /mnt/my\\040cg cgroup2 rw 0 0\n");
	ck_assert_int_eq(cgroupfs__mount(mounts, mnt, sizeof(mnt)), 0);
	ck_assert_str_eq(mnt, "/mnt/my cg");
	ck_assert_int_eq(cgroupfs__mount(mounts, mnt, 5), -ENAMETOOLONG);
	/* v1 only */
	write_mounts("cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\n");
	ck_assert_int_eq(cgroupfs__mount(mounts, mnt, sizeof(mnt)), -ENOENT);
	write_mounts("");
	ck_assert_int_eq(cgroupfs__mount(mounts, mnt, sizeof(mnt)), -ENOENT);
}
END_TEST

START_TEST(test_open_errors)
{
	char text[256], sub[128];
	int *fds = (int *)1;
	size_t nr = 9;
	struct strbuf why;

	strbuf__init(&why);
	test_last_warning[0] = '\0';
	/* no cgroup2 at all */
	write_mounts("cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\n");
	strbuf__reset(&why);
	ck_assert_int_eq(cgroupfs__open(mounts, "a", &fds, &nr, &why),
			 -ENOENT);
	ck_assert_ptr_null(fds);
	ck_assert_uint_eq(nr, 0);
	ck_assert_ptr_nonnull(strstr(why.buf, "no cgroup v2"));
	/* a missing directory names the cgroup */
	snprintf(text, sizeof(text), "cgroup2 %s cgroup2 rw 0 0\n", dir);
	write_mounts(text);
	strbuf__reset(&why);
	ck_assert_int_eq(cgroupfs__open(mounts, "missing", &fds, &nr, &why),
			 -ENOENT);
	ck_assert_ptr_nonnull(strstr(why.buf, "no cgroup 'missing'"));
	/* a directory that is not on a cgroup2 file system */
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	strbuf__reset(&why);
	ck_assert_int_eq(cgroupfs__open(mounts, "/sub", &fds, &nr, &why),
			 -ENOTDIR);
	ck_assert_ptr_nonnull(strstr(why.buf, "not a cgroup v2"));
	/* the same by its file-system path under the mount */
	strbuf__reset(&why);
	ck_assert_int_eq(cgroupfs__open(mounts, sub, &fds, &nr, &why), -ENOTDIR);
	ck_assert_ptr_nonnull(strstr(why.buf, "not a cgroup v2"));
	/* a list stops at its first missing cgroup */
	strbuf__reset(&why);
	ck_assert_int_eq(cgroupfs__open(mounts, "sub2,missing2", &fds, &nr,
					&why), -ENOENT);
	ck_assert_ptr_nonnull(strstr(why.buf, "no cgroup 'sub2'"));
	strbuf__reset(&why);
	ck_assert_int_eq(cgroupfs__open(mounts, ",", &fds, &nr, &why), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why.buf, "no cgroup named"));
	ck_assert_ptr_null(fds);
	/* the words went to the caller, none to the log */
	ck_assert_str_eq(test_last_warning, "");
	strbuf__fini(&why);
}
END_TEST

Suite *cgroupfs_suite(void)
{
	Suite *s = suite_create("cgroupfs");
	TCase *tc = tcase_create("cgroupfs");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_mount);
	tcase_add_test(tc, test_open_errors);
	suite_add_tcase(s, tc);
	return s;
}
