/* check_mapguard: a fault in a file mapped while someone truncates or
 * rewrites it ends the read, not the process (src/sys/mapguard). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/sys/fdio.h"
#include "src/sys/mapguard.h"
#include "tests/testutil.h"

static char path[] = "/tmp/ptop-mapguard-XXXXXX";
static int fd = -1;
static long page;

static void setup(void)
{
	char buf[3 * 4096];

	page = sysconf(_SC_PAGESIZE);
	strcpy(path, "/tmp/ptop-mapguard-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	memset(buf, 'a', sizeof(buf));
	ck_assert_int_eq(fd__pwrite_all(fd, buf, sizeof(buf), 0), 0);
}

static void teardown(void)
{
	close(fd);
	unlink(path);
}

struct reader {
	const volatile char *map;
	void *base;		/* the mapping, for munmap */
	size_t off;
	char got;
	int calls;
	void (*before)(void);	/* what happens to the file first */
};

static void read_it(void *arg)
{
	struct reader *r = arg;

	r->calls++;
	if (r->before)
		r->before();
	r->got = r->map[r->off];
}

static void cut(void)
{
	ck_assert_int_eq(ftruncate(fd, 0), 0);
}

static void rewrite_then_segv(void)
{
	ck_assert_int_eq(fd__pwrite_all(fd, "b", 1, 0), 0);
	raise(SIGSEGV);
}

START_TEST(test_read_whole)
{
	struct mapguard g;
	struct reader r = { .off = 5000 };

	r.base = mmap(NULL, 3 * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	ck_assert_ptr_ne(r.base, MAP_FAILED);
	r.map = r.base;
	mapguard__init(&g);
	ck_assert_int_eq(mapguard__watch(&g, fd), 0);
	ck_assert_int_eq(mapguard__run(&g, read_it, &r), 0);
	ck_assert_int_eq(r.got, 'a');
	ck_assert(!mapguard__changed(&g));
	/* the same size, another byte: changed (its times) */
	ck_assert_int_eq(fd__pwrite_all(fd, "b", 1, 0), 0);
	ck_assert(mapguard__changed(&g));
	munmap(r.base, 3 * 4096);
}
END_TEST

/* truncate(1): the read past the new end is SIGBUS, taken, twice (the
 * handler stays); the thread carries on. */
START_TEST(test_truncated)
{
	struct mapguard g;
	struct reader r = { .off = 2 * 4096 + 10, .before = cut };

	r.base = mmap(NULL, 3 * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	ck_assert_ptr_ne(r.base, MAP_FAILED);
	r.map = r.base;
	mapguard__init(&g);
	ck_assert_int_eq(mapguard__run(&g, read_it, &r), -EFAULT);
	ck_assert_int_eq(g.sig, SIGBUS);
	r.before = NULL;
	ck_assert_int_eq(mapguard__run(&g, read_it, &r), -EFAULT);
	ck_assert_int_eq(r.calls, 2);
	munmap(r.base, 3 * 4096);
}
END_TEST

struct nest {
	struct reader *inner;
	int inner_err;
	bool after;
};

static void outer_fn(void *arg)
{
	struct nest *n = arg;
	struct mapguard g;

	mapguard__init(&g);
	n->inner_err = mapguard__run(&g, read_it, n->inner);
	n->after = true;	/* the outer run goes on */
}

START_TEST(test_nested)
{
	struct mapguard g;
	struct reader r = { .off = 4096 + 1, .before = cut };
	struct nest n = { .inner = &r };

	r.base = mmap(NULL, 3 * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	ck_assert_ptr_ne(r.base, MAP_FAILED);
	r.map = r.base;
	mapguard__init(&g);
	ck_assert_int_eq(mapguard__run(&g, outer_fn, &n), 0);
	ck_assert_int_eq(n.inner_err, -EFAULT);
	ck_assert(n.after);
	munmap(r.base, 3 * 4096);
}
END_TEST

/* SIGSEGV is taken only when a watched file changed (libdw following a
 * rewritten file's offsets); any other is a crash, left as it was. */
START_TEST(test_segv)
{
	struct mapguard g;
	struct reader r = { .off = 0, .before = rewrite_then_segv };
	char c = 'a';
	pid_t pid;
	int status;

	r.map = &c;
	mapguard__init(&g);
	ck_assert_int_eq(mapguard__watch(&g, fd), 0);
	ck_assert_int_eq(mapguard__run(&g, read_it, &r), -EFAULT);
	ck_assert_int_eq(g.sig, SIGSEGV);
	/* unchanged: the crash it is */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct mapguard h;

		mapguard__init(&h);
		mapguard__watch(&h, fd);
		r.before = NULL;
		/* a read of a page nobody may read (not NULL: UBSan would
		 * report the null pointer before the fault) */
		r.map = mmap(NULL, 4096, PROT_NONE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (r.map == MAP_FAILED)
			_exit(0);	/* the parent's check fails */
		mapguard__run(&h, read_it, &r);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	/* killed by it, or ASan's report and exit: not taken either way */
	ck_assert(!WIFEXITED(status) || WEXITSTATUS(status) != 0);
	if (WIFSIGNALED(status))
		ck_assert_int_eq(WTERMSIG(status), SIGSEGV);
}
END_TEST

/* The loader's workers block every signal but these: a thread that
 * blocked SIGBUS would be killed by the kernel instead. */
static void *thread_fn(void *arg)
{
	struct mapguard g;
	sigset_t all, faults;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, NULL);
	sigemptyset(&faults);
	sigaddset(&faults, SIGBUS);
	sigaddset(&faults, SIGSEGV);
	pthread_sigmask(SIG_UNBLOCK, &faults, NULL);
	mapguard__init(&g);
	return (void *)(intptr_t)mapguard__run(&g, read_it, arg);
}

START_TEST(test_thread)
{
	struct reader r = { .off = 2 * 4096, .before = cut };
	pthread_t t;
	void *ret;

	r.base = mmap(NULL, 3 * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	ck_assert_ptr_ne(r.base, MAP_FAILED);
	r.map = r.base;
	ck_assert_int_eq(pthread_create(&t, NULL, thread_fn, &r), 0);
	ck_assert_int_eq(pthread_join(t, &ret), 0);
	ck_assert_int_eq((int)(intptr_t)ret, -EFAULT);
	munmap(r.base, 3 * 4096);
}
END_TEST

static void read_mf(void *arg)
{
	struct reader *r = arg;

	r->calls++;
	r->got = r->map[r->off];
}

/* A mapfile: stale after a cut (-EFAULT) or a rewrite, and for good. */
START_TEST(test_mapfile)
{
	struct mapfile mf;
	struct reader r = { .off = 2 * 4096 + 1 };

	for (int how = 0; how < 2; how++) {
		int f = open(path, O_RDONLY | O_CLOEXEC);

		ck_assert_int_ge(f, 0);
		ck_assert_int_eq(mapfile__open(&mf, f), 0);
		r.map = mf.map;
		ck_assert_int_eq(mapfile__run(&mf, read_mf, &r), 0);
		ck_assert_int_eq(r.got, how ? 'c' : 'a');
		if (how)
			ck_assert_int_eq(ftruncate(fd, 4096), 0);
		else
			ck_assert_int_eq(fd__pwrite_all(fd, "ccc", 3,
							2 * 4096), 0);
		/* rewritten: read, then found changed; cut: the read faults */
		ck_assert_int_eq(mapfile__run(&mf, read_mf, &r),
				 how ? -EFAULT : -ESTALE);
		ck_assert_int_eq(mapfile__run(&mf, read_mf, &r), -ESTALE);
		mapfile__close(&mf);
	}
}
END_TEST

Suite *mapguard_suite(void)
{
	Suite *s = suite_create("mapguard");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_read_whole);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_nested);
	tcase_add_test(tc, test_segv);
	tcase_add_test(tc, test_thread);
	tcase_add_test(tc, test_mapfile);
	suite_add_tcase(s, tc);
	return s;
}
