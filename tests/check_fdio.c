/* check_fdio: the one read loop and the one write loop, small files and
 * directory listings (src/sys/fdio). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/sys/fdio.h"

static char dir[] = "/tmp/ptop-fdio-XXXXXX";

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(dir, "/tmp/ptop-fdio-XXXXXX");
}

static void put(const char *name, const char *text, char *path, size_t len)
{
	int fd;

	snprintf(path, len, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fd__write_all(fd, text, strlen(text), NULL), 0);
	close(fd);
}

START_TEST(test_read_upto_short_reads)
{
	char buf[16];
	int p[2];

	/* a SEQPACKET socket hands out one message per read: two writes
	 * are two reads; the loop takes both, then stops at the end */
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, p), 0);
	ck_assert_int_eq(write(p[1], "abc", 3), 3);
	ck_assert_int_eq(write(p[1], "defg", 4), 4);
	close(p[1]);
	ck_assert_int_eq(fd__read_upto(p[0], buf, sizeof(buf)), 7);
	ck_assert(!memcmp(buf, "abcdefg", 7));
	ck_assert_int_eq(fd__read_upto(p[0], buf, sizeof(buf)), 0);
	close(p[0]);
	ck_assert_int_eq(fd__read_upto(-1, buf, 1), -EBADF);
}
END_TEST

START_TEST(test_pread_upto)
{
	char path[256], buf[8];
	int fd;

	put("f", "0123456789", path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fd__pread_upto(fd, buf, 4, 3), 4);
	ck_assert(!memcmp(buf, "3456", 4));
	/* short only at the end */
	ck_assert_int_eq(fd__pread_upto(fd, buf, 8, 7), 3);
	ck_assert_int_eq(fd__pread_upto(fd, buf, 8, 100), 0);
	close(fd);
}
END_TEST

START_TEST(test_read_text_int)
{
	char path[256], buf[8];
	long long v;

	put("n", "4000\n \n", path, sizeof(path));
	ck_assert_int_eq(fd__read_text(path, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "4000");
	ck_assert_int_eq(fd__read_int(path, &v), 0);
	ck_assert_int_eq(v, 4000);
	put("big", "0123456789", path, sizeof(path));
	ck_assert_int_eq(fd__read_text(path, buf, sizeof(buf)), -EFBIG);
	snprintf(path, sizeof(path), "%s/none", dir);
	ck_assert_int_eq(fd__read_int(path, &v), -ENOENT);
}
END_TEST

START_TEST(test_dir_list)
{
	char path[256], **names;
	size_t n;

	put("b_x", "", path, sizeof(path));
	put("a_x", "", path, sizeof(path));
	put("c_y", "", path, sizeof(path));
	put(".hidden_x", "", path, sizeof(path));
	ck_assert_int_eq(dir__list(dir, "*_x", &names, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(names[0], "a_x");
	ck_assert_str_eq(names[1], "b_x");
	dir__free_names(names, n);
	ck_assert_int_eq(dir__list(dir, NULL, &names, &n), 0);
	ck_assert_uint_eq(n, 3);
	dir__free_names(names, n);
	snprintf(path, sizeof(path), "%s/none", dir);
	ck_assert_int_eq(dir__list(path, NULL, &names, &n), -ENOENT);
	ck_assert_ptr_null(names);
}
END_TEST

/* the settings file's rule: the effective user's own, not writable by
 * others, a regular file; a link only when one's own */
START_TEST(test_read_owned)
{
	char path[256], link[256];
	struct strbuf sb, why;

	strbuf__init(&sb);
	strbuf__init(&why);
	put("config", "delay = 1\n", path, sizeof(path));
	ck_assert_int_eq(fd__read_owned(path, &sb, 1024, &why),
			 0);
	ck_assert_str_eq(sb.buf, "delay = 1\n");
	strbuf__reset(&sb);
	ck_assert_int_eq(fd__read_owned(path, &sb, 4, &why),
			 -EFBIG);
	ck_assert_int_eq(chmod(path, 0620), 0);
	ck_assert_int_eq(fd__read_owned(path, &sb, 1024, &why),
			 -EPERM);
	ck_assert_ptr_nonnull(strstr(why.buf, "writable by its group"));
	ck_assert_int_eq(chmod(path, 0602), 0);
	ck_assert_int_eq(fd__read_owned(path, &sb, 1024, &why),
			 -EPERM);
	ck_assert_int_eq(chmod(path, 0600), 0);
	/* a link of one's own is followed, to a file that is checked */
	snprintf(link, sizeof(link), "%s/link", dir);
	ck_assert_int_eq(symlink(path, link), 0);
	strbuf__reset(&sb);
	ck_assert_int_eq(fd__read_owned(link, &sb, 1024, &why),
			 0);
	ck_assert_str_eq(sb.buf, "delay = 1\n");
	/* another owner: only where chown works (root) */
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(path, 65534, (gid_t)-1), 0);
		ck_assert_int_eq(fd__read_owned(path, &sb, 1024, &why), -EPERM);
		ck_assert_ptr_nonnull(strstr(why.buf, "owned by uid 65534"));
		ck_assert_int_eq(chown(path, 0, (gid_t)-1), 0);
		ck_assert_int_eq(lchown(link, 65534, (gid_t)-1), 0);
		ck_assert_int_eq(fd__read_owned(link, &sb, 1024, &why), -EPERM);
		ck_assert_ptr_nonnull(strstr(why.buf, "a symbolic link of uid "
						  "65534"));
	}
	strbuf__reset(&why);
	ck_assert_int_eq(fd__read_owned(dir, &sb, 1024, &why),
			 -EPERM);
	ck_assert_str_eq(why.buf, "not a regular file");
	snprintf(path, sizeof(path), "%s/none", dir);
	ck_assert_int_eq(fd__read_owned(path, &sb, 1024, &why),
			 -ENOENT);
	strbuf__fini(&why);
	strbuf__fini(&sb);
}
END_TEST

Suite *fdio_suite(void);
Suite *fdio_suite(void)
{
	Suite *s = suite_create("fdio");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_read_upto_short_reads);
	tcase_add_test(tc, test_pread_upto);
	tcase_add_test(tc, test_read_text_int);
	tcase_add_test(tc, test_dir_list);
	tcase_add_test(tc, test_read_owned);
	suite_add_tcase(s, tc);
	return s;
}
