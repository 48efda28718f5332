/* Tests of the cgroup paths: the line of /proc/PID/cgroup that counts
 * and the short names of containers and systemd units. */
#include <errno.h>
#include <string.h>

#include "src/core/cgroup.h"
#include "tests/testutil.h"

static const char *from_proc(const char *text)
{
	static char out[256];
	const char *p;
	size_t n;

	if (cgroup__from_proc(text, strlen(text), &p, &n))
		return NULL;
	ck_assert_uint_lt(n, sizeof(out));
	memcpy(out, p, n);
	out[n] = 0;
	return out;
}

START_TEST(test_from_proc)
{
	/* v2 only */
	ck_assert_str_eq(from_proc("0::/system.slice/ssh.service\n"),
			 "/system.slice/ssh.service");
	/* hybrid: the v2 line wins over the v1 lines before it */
	ck_assert_str_eq(from_proc("9:name=systemd:/user.slice\n"
				   "4:memory:/process_api/44f4\n"
				   "0::/ptop-test-1\n"),
			 "/ptop-test-1");
	/* v1 only: the first line with a path */
	ck_assert_str_eq(from_proc("12:pids:/a\n11:cpu,cpuacct:/b\n"), "/a");
	/* no final newline; a ':' inside the path */
	ck_assert_str_eq(from_proc("0::/odd:name"), "/odd:name");
	/* the root */
	ck_assert_str_eq(from_proc("0::/\n"), "/");
	/* an empty v2 path (cgroup namespace edge) falls back */
	ck_assert_str_eq(from_proc("0::\n3:cpu:/c\n"), "/c");
	ck_assert_ptr_null(from_proc(""));
	ck_assert_ptr_null(from_proc("garbage\n"));
	ck_assert_ptr_null(from_proc("0::\n"));
}
END_TEST

static const char *short_name(const char *path)
{
	static char out[128];

	cgroup__short_name(path, out, sizeof(out));
	return out;
}

#define ID "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

START_TEST(test_short_name)
{
	ck_assert_str_eq(short_name("/system.slice/docker-" ID ".scope"),
			 "docker-0123456789ab");
	ck_assert_str_eq(short_name("/kubepods.slice/kubepods-burstable.slice/"
				    "cri-containerd-" ID ".scope"),
			 "cri-containerd-0123456789ab");
	ck_assert_str_eq(short_name("/machine.slice/libpod-" ID ".scope"),
			 "libpod-0123456789ab");
	ck_assert_str_eq(short_name("/docker/" ID), "docker-0123456789ab");
	ck_assert_str_eq(short_name("/kubepods/burstable/pod1/" ID),
			 "0123456789ab");
	ck_assert_str_eq(short_name("/lxc.payload.web"), "web");
	ck_assert_str_eq(short_name("/system.slice/ssh.service"),
			 "ssh.service");
	ck_assert_str_eq(short_name("/user.slice/user-0.slice/session-3.scope"),
			 "session-3.scope");
	ck_assert_str_eq(short_name("/user.slice"), "user.slice");
	/* not a unit or container: the path */
	ck_assert_str_eq(short_name("/"), "/");
	ck_assert_str_eq(short_name("/ptop-test-42"), "/ptop-test-42");
	ck_assert_str_eq(short_name("/a/b/c"), "/a/b/c");
	/* almost a container: upper-case hex, 63 digits, no .scope */
	ck_assert_str_eq(short_name("/system.slice/docker-ABC.scope"),
			 "docker-ABC.scope");
	ck_assert_str_eq(short_name("/docker/" ID "0"), "/docker/" ID "0");
	ck_assert_str_eq(short_name("/x/docker-" ID), "/x/docker-" ID);
	ck_assert_str_eq(short_name("/trail/"), "/trail/");
}
END_TEST

START_TEST(test_short_name_truncates)
{
	char out[8];

	/* snprintf's contract: the whole length, a NUL-terminated prefix */
	ck_assert_uint_eq(cgroup__short_name("/system.slice/ssh.service", out,
					     sizeof(out)),
			  11);
	ck_assert_str_eq(out, "ssh.ser");
	ck_assert_uint_eq(cgroup__short_name("/docker/" ID, out, sizeof(out)),
			  19);
	ck_assert_str_eq(out, "docker-");
}
END_TEST

Suite *cgroup_suite(void)
{
	Suite *s = suite_create("cgroup");
	TCase *tc = tcase_create("cgroup");

	tcase_add_test(tc, test_from_proc);
	tcase_add_test(tc, test_short_name);
	tcase_add_test(tc, test_short_name_truncates);
	suite_add_tcase(s, tc);
	return s;
}
