/* check_outfile: every file ptop writes is created new, in place only for
 * descriptors, devices, FIFOs and sockets (src/sys/outfile). */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "src/sys/fdio.h"
#include "src/sys/outfile.h"
#include "tests/testutil.h"

static char dir[] = "/tmp/ptop-outfile-XXXXXX";
static char path[512], target[512];

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out", dir);
	snprintf(target, sizeof(target), "%s/target", dir);
}

static void teardown(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(dir, "/tmp/ptop-outfile-XXXXXX");
}

static void put(const char *p, const char *text, mode_t mode)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fd__write_all(fd, text, strlen(text), NULL), 0);
	close(fd);
}

/* p's content (up to 255 bytes), "" when missing */
static const char *content(const char *p)
{
	static char buf[256];
	int fd = open(p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t n = fd >= 0 ? fd__read_upto(fd, buf, sizeof(buf) - 1) : 0;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* what lstat says p is (S_IFREG ...), 0 when nothing is there */
static unsigned int type_of(const char *p)
{
	struct stat st;

	return lstat(p, &st) ? 0 : st.st_mode & S_IFMT;
}

/* names in dir, hidden ones (temporaries) too */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

START_TEST(test_modes)
{
	struct stat st;
	mode_t old = umask(022);

	ck_assert_int_eq(outfile__save(path, "a", 1, OUTFILE_EXPORT), 0);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0644);
	ck_assert_int_eq(outfile__save(path, "b", 1, 0), 0);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	ck_assert_str_eq(content(path), "b");
	/* "less the umask" */
	umask(077);
	ck_assert_int_eq(outfile__save(path, "c", 1, OUTFILE_EXPORT), 0);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	umask(old);
	/* an existing file's mode is not kept: it is a new file */
	ck_assert_int_eq(chmod(path, 0666), 0);
	ck_assert_int_eq(outfile__save(path, "d", 1, 0), 0);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	ck_assert_int_eq(entries(), 1);	/* no temporary left */
}
END_TEST

/* A link at the name and at the old temporary name: neither followed. */
START_TEST(test_links_never_followed)
{
	char tmp[600];

	put(target, "secret", 0600);
	ck_assert_int_eq(symlink(target, path), 0);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	ck_assert_int_eq(symlink(target, tmp), 0);
	ck_assert_int_eq(outfile__save(path, "new", 3, OUTFILE_EXPORT), 0);
	ck_assert_str_eq(content(target), "secret");
	ck_assert_uint_eq(type_of(path), S_IFREG);
	ck_assert_str_eq(content(path), "new");
	/* a dangling link too */
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(symlink("/nonexistent/x", path), 0);
	ck_assert_int_eq(outfile__save(path, "n2", 2, 0), 0);
	ck_assert_uint_eq(type_of(path), S_IFREG);
}
END_TEST

START_TEST(test_new_keep_old)
{
	char old[600];
	struct outfile of;
	struct stat st;

	snprintf(old, sizeof(old), "%s.old", path);
	/* a file that is not empty is kept as .old */
	put(path, "first", 0644);
	ck_assert_int_eq(outfile__open(&of, path,
				       OUTFILE_NEW | OUTFILE_KEEP_OLD), 0);
	ck_assert(!of.in_place);
	ck_assert_int_eq(fd__write_all(of.fd, "second", 6, NULL), 0);
	ck_assert_int_eq(outfile__finish(&of, 0), 0);
	ck_assert_str_eq(content(old), "first");
	ck_assert_str_eq(content(path), "second");
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	/* a link goes to .old as a link, its target untouched */
	put(target, "secret", 0600);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(symlink(target, path), 0);
	ck_assert_int_eq(outfile__save(path, "third", 5,
				       OUTFILE_NEW | OUTFILE_KEEP_OLD), 0);
	ck_assert_uint_eq(type_of(old), S_IFLNK);
	ck_assert_str_eq(content(target), "secret");
	ck_assert_str_eq(content(path), "third");
	/* an empty file is replaced, .old left alone */
	ck_assert_int_eq(unlink(path), 0);
	put(path, "", 0666);
	ck_assert_int_eq(outfile__save(path, "4", 1,
				       OUTFILE_NEW | OUTFILE_KEEP_OLD), 0);
	ck_assert_uint_eq(type_of(old), S_IFLNK);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	/* NEW alone: whatever is there is left, -EEXIST */
	ck_assert_int_eq(outfile__open(&of, path, OUTFILE_NEW), -EEXIST);
	ck_assert_int_eq(outfile__open(&of, old, OUTFILE_NEW), -EEXIST);
	ck_assert_str_eq(content(path), "4");
}
END_TEST

/* A failed write leaves nothing; a NEW file given up brings .old back. */
START_TEST(test_finish_error)
{
	char old[600];
	struct outfile of;

	snprintf(old, sizeof(old), "%s.old", path);
	put(path, "keep me", 0644);
	ck_assert_int_eq(outfile__open(&of, path, OUTFILE_EXPORT), 0);
	ck_assert_int_eq(fd__write_all(of.fd, "half", 4, NULL), 0);
	ck_assert_int_eq(outfile__finish(&of, -ENOSPC), -ENOSPC);
	ck_assert_str_eq(content(path), "keep me");
	ck_assert_int_eq(entries(), 1);

	ck_assert_int_eq(outfile__open(&of, path,
				       OUTFILE_NEW | OUTFILE_KEEP_OLD), 0);
	ck_assert_str_eq(content(old), "keep me");
	ck_assert_int_eq(outfile__finish(&of, -ECANCELED), -ECANCELED);
	ck_assert_str_eq(content(path), "keep me");
	ck_assert_int_eq(access(old, F_OK), -1);
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(test_refused)
{
	struct outfile of;
	char blk[600];

	ck_assert_int_eq(mkdir(path, 0700), 0);
	ck_assert_int_eq(outfile__open(&of, path, 0), -EISDIR);
	ck_assert_ptr_nonnull(of.failed);
	ck_assert_int_eq(outfile__open(&of, path, OUTFILE_FILE_ONLY),
			 -EISDIR);
	ck_assert_int_eq(outfile__open(&of, "", 0), -EINVAL);
	snprintf(blk, sizeof(blk), "%s/missing/x", dir);
	ck_assert_int_eq(outfile__open(&of, blk, 0), -ENOENT);
	if (geteuid() != 0)
		test_skip("mknod of a block device needs root");
	snprintf(blk, sizeof(blk), "%s/blk", dir);
	ck_assert_int_eq(mknod(blk, S_IFBLK | 0600, makedev(7, 0)), 0);
	ck_assert_int_eq(outfile__open(&of, blk, 0), -ENOTSUP);
}
END_TEST

/* A character device is written in place, never replaced. */
START_TEST(test_device_in_place)
{
	char null[600], full[600];
	struct outfile of;

	if (geteuid() != 0) {
		/* nobody but root could replace /dev/null anyway */
		snprintf(null, sizeof(null), "/dev/null");
		snprintf(full, sizeof(full), "/dev/full");
	} else {
		snprintf(null, sizeof(null), "%s/null", dir);
		snprintf(full, sizeof(full), "%s/full", dir);
		ck_assert_int_eq(mknod(null, S_IFCHR | 0666, makedev(1, 3)), 0);
		ck_assert_int_eq(mknod(full, S_IFCHR | 0666, makedev(1, 7)), 0);
	}
	ck_assert_int_eq(outfile__save(null, "x", 1, OUTFILE_EXPORT), 0);
	ck_assert_int_eq(outfile__save(null, "x", 1,
				       OUTFILE_NEW | OUTFILE_KEEP_OLD), 0);
	ck_assert_int_eq(outfile__save(full, "x", 1, OUTFILE_EXPORT),
			 -ENOSPC);
	ck_assert_int_eq(outfile__open(&of, null, 0), 0);
	ck_assert(of.in_place);
	ck_assert_int_eq(outfile__finish(&of, 0), 0);
	ck_assert_uint_eq(type_of(null), S_IFCHR);
	ck_assert_uint_eq(type_of(full), S_IFCHR);
	/* a cache is never written in place: a file of ours replaces it */
	if (geteuid() == 0) {
		ck_assert_int_eq(outfile__save(null, "c", 1,
					       OUTFILE_FILE_ONLY), 0);
		ck_assert_uint_eq(type_of(null), S_IFREG);
	}
}
END_TEST

START_TEST(test_fifo_in_place)
{
	char buf[16];
	int rd;

	ck_assert_int_eq(mkfifo(path, 0600), 0);
	rd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ck_assert_int_ge(rd, 0);
	ck_assert_int_eq(outfile__save(path, "fifo", 4, OUTFILE_EXPORT), 0);
	ck_assert_int_eq(read(rd, buf, sizeof(buf)), 4);
	ck_assert(!memcmp(buf, "fifo", 4));
	close(rd);
	ck_assert_uint_eq(type_of(path), S_IFIFO);
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(test_socket_in_place)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[16];
	int s, c;

	ck_assert_uint_lt(strlen(path), sizeof(sa.sun_path));
	memcpy(sa.sun_path, path, strlen(path) + 1);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(s, 0);
	ck_assert_int_eq(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(listen(s, 1), 0);
	ck_assert_int_eq(outfile__save(path, "sock", 4, OUTFILE_EXPORT), 0);
	c = accept(s, NULL, NULL);
	ck_assert_int_ge(c, 0);
	ck_assert_int_eq(fd__read_upto(c, buf, sizeof(buf)), 4);
	ck_assert(!memcmp(buf, "sock", 4));
	close(c);
	close(s);
	ck_assert_uint_eq(type_of(path), S_IFSOCK);
}
END_TEST

/* "-", /dev/stdout, /proc/self/fd/N: the descriptor, resolved once. */
START_TEST(test_descriptors)
{
	char name[64], buf[16];
	struct outfile of;
	int p[2];

	ck_assert_int_eq(outfile__fd_named("-"), 1);
	ck_assert_int_eq(outfile__fd_named("/dev/stdout"), 1);
	ck_assert_int_eq(outfile__fd_named("/dev/stderr"), 2);
	ck_assert_int_eq(outfile__fd_named("/dev/fd/7"), 7);
	ck_assert_int_eq(outfile__fd_named("/proc/self/fd/12"), 12);
	snprintf(name, sizeof(name), "/proc/%d/fd/5", (int)getpid());
	ck_assert_int_eq(outfile__fd_named(name), 5);
	ck_assert_int_eq(outfile__fd_named("/proc/1/fd/5"),
			 getpid() == 1 ? 5 : -1);
	ck_assert_int_eq(outfile__fd_named("/proc/self/fd/5x"), -1);
	ck_assert_int_eq(outfile__fd_named("/dev/fd/"), -1);
	ck_assert_int_eq(outfile__fd_named("out"), -1);

	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	snprintf(name, sizeof(name), "/proc/self/fd/%d", p[1]);
	ck_assert_int_eq(outfile__open(&of, name, OUTFILE_EXPORT), 0);
	ck_assert(of.in_place);
	ck_assert_int_ne(of.fd, p[1]);	/* a duplicate */
	ck_assert_int_eq(outfile__finish(&of,
					 fd__write_all(of.fd, "pipe", 4, NULL)),
			 0);
	close(p[1]);
	ck_assert_int_eq(fd__read_upto(p[0], buf, sizeof(buf)), 4);
	close(p[0]);
	/* a descriptor that is not open */
	ck_assert_int_eq(outfile__open(&of, "/dev/fd/999", 0), -EBADF);
	/* a cache is always a file: "-" is a name then */
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(outfile__save("-", "dash", 4, OUTFILE_FILE_ONLY), 0);
	ck_assert_int_eq(chdir("/"), 0);
	snprintf(name, sizeof(name), "%s/-", dir);
	ck_assert_str_eq(content(name), "dash");
}
END_TEST

static void make_tmp(const char *name, pid_t pid, time_t age)
{
	char p[600];
	struct timespec t[2];

	snprintf(p, sizeof(p), "%s/.out.%d.%s" OUTFILE_TMP_SUFFIX, dir,
		 (int)pid, name);
	put(p, "left", 0600);
	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= age;
	t[1] = t[0];
	ck_assert_int_eq(utimensat(AT_FDCWD, p, t, 0), 0);
}

static int tmp_exists(const char *name, pid_t pid)
{
	char p[600];

	snprintf(p, sizeof(p), "%s/.out.%d.%s" OUTFILE_TMP_SUFFIX, dir,
		 (int)pid, name);
	return access(p, F_OK) == 0;
}

/* What a killed run left is removed by the next write of that file:
 * ours, its process gone, a minute old; nothing else. */
START_TEST(test_stale_temporaries)
{
	pid_t dead = fork();
	int status;

	ck_assert_int_ge(dead, 0);
	if (!dead)
		_exit(0);
	ck_assert_int_eq(waitpid(dead, &status, 0), dead);
	make_tmp("aaaaaaaa", dead, 3600);
	make_tmp("bbbbbbbb", dead, 5);		/* too recent */
	make_tmp("cccccccc", getppid(), 3600);	/* alive */
	ck_assert_int_eq(outfile__save(path, "x", 1, 0), 0);
	ck_assert(!tmp_exists("aaaaaaaa", dead));
	ck_assert(tmp_exists("bbbbbbbb", dead));
	ck_assert(tmp_exists("cccccccc", getppid()));
}
END_TEST

Suite *outfile_suite(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_modes);
	tcase_add_test(tc, test_links_never_followed);
	tcase_add_test(tc, test_new_keep_old);
	tcase_add_test(tc, test_finish_error);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_device_in_place);
	tcase_add_test(tc, test_fifo_in_place);
	tcase_add_test(tc, test_socket_in_place);
	tcase_add_test(tc, test_descriptors);
	tcase_add_test(tc, test_stale_temporaries);
	suite_add_tcase(s, tc);
	return s;
}
