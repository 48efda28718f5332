/* Tests of the process model: maps (overlaps, splits), fork, exec, exit,
 * reaping, dso identities. */
#include <stdlib.h>
#include <string.h>

#include "src/core/dso.h"
#include "src/core/machine.h"
#include "tests/testutil.h"

static struct strpool *pool;
static struct dsos *dsos;
static struct machine *m;

static void setup(void)
{
	pool = strpool__new();
	dsos = dsos__new(pool);
	m = machine__new(pool);
	ck_assert_ptr_nonnull(m);
}

static void teardown(void)
{
	machine__free(m);
	dsos__free(dsos);
	strpool__free(pool);
}

static struct dso *file_dso(const char *path, u8 bid0)
{
	u8 bid[20] = { bid0 };
	struct dso_id id = {
		.kind = DSO_FILE, .path = path, .path_len = strlen(path),
		.build_id = bid, .build_id_size = 20, .pid = 1,
	};

	return dsos__findnew(dsos, &id);
}

START_TEST(test_dso_identity)
{
	struct dso *a = file_dso("/lib/libc.so.6", 1);
	struct dso *b = file_dso("/usr/lib/libc.so.6", 1);	/* same id */
	struct dso *c = file_dso("/lib/libc.so.6", 2);		/* rebuilt */
	struct dso_id nobid = {
		.kind = DSO_FILE, .path = "/x", .path_len = 2, .maj = 8,
		.ino = 5,
	};
	struct dso_id anon = {
		.kind = DSO_ANON, .path = "//anon", .path_len = 6, .pid = 9,
	};
	struct dso *d, *e;
	char hex[41];

	ck_assert_ptr_eq(a, b);
	ck_assert_ptr_ne(a, c);
	ck_assert_str_eq(a->name, "libc.so.6");
	d = dsos__findnew(dsos, &nobid);
	ck_assert_ptr_eq(d, dsos__findnew(dsos, &nobid));
	nobid.ino = 6;
	ck_assert_ptr_ne(d, dsos__findnew(dsos, &nobid));
	e = dsos__findnew(dsos, &anon);
	ck_assert_int_eq(e->kind, DSO_ANON);
	anon.pid = 10;
	ck_assert_ptr_ne(e, dsos__findnew(dsos, &anon));
	dso__build_id_hex(a, hex, sizeof(hex));
	ck_assert_str_eq(hex, "0100000000000000000000000000000000000000");
	ck_assert(dso__path_is_anon("[heap]"));
	ck_assert(!dso__path_is_anon("/memfd:x (deleted)"));
	/* anonymous code is "[JIT] tid PID", as perf names it */
	ck_assert_str_eq(e->name, "[JIT] tid 9");
	ck_assert(dso__path_is_jit("/dev/zero (deleted)"));
	ck_assert(dso__path_is_anon("/SYSV00000000 (deleted)"));
	ck_assert(!dso__path_is_jit("[anon:v8]"));
	anon.path = "[anon:v8]";
	anon.path_len = 9;
	ck_assert_str_eq(dsos__findnew(dsos, &anon)->name, "[anon:v8]");
	/* many dsos: the table grows and keeps every identity */
	for (int i = 0; i < 500; i++) {
		char p[32];

		snprintf(p, sizeof(p), "/lib/l%d.so", i);
		ck_assert_ptr_eq(file_dso(p, (u8)i), file_dso(p, (u8)i));
	}
	/* and finds them again after its growths, as the same dso (an
	 * identity without a build-id: path, device and inode) */
	{
		struct dso *seen[300];

		for (int pass = 0; pass < 2; pass++)
			for (int i = 0; i < 300; i++) {
				nobid.ino = 1000 + (u64)i;
				d = dsos__findnew(dsos, &nobid);
				ck_assert_ptr_nonnull(d);
				ck_assert_ptr_eq(dsos__at(dsos, d->id), d);
				if (pass)
					ck_assert_ptr_eq(d, seen[i]);
				seen[i] = d;
			}
	}
}
END_TEST

START_TEST(test_build_id_eq)
{
	u8 a[20] = { 1, 2, 3 }, b[20] = { 1, 2, 3 };

	ck_assert(dso__build_id_eq(a, 20, b, 20));
	ck_assert(dso__build_id_eq(a, 3, b, 20));	/* zero padded */
	b[19] = 1;
	ck_assert(!dso__build_id_eq(a, 3, b, 20));
	ck_assert(!dso__build_id_eq(a, 0, b, 0));
	a[0] = 9;
	ck_assert(!dso__build_id_eq(a, 20, b, 20));
}
END_TEST

START_TEST(test_maps_lookup_and_overlap)
{
	struct dso *a = file_dso("/bin/a", 1), *b = file_dso("/lib/b", 2);
	const struct map *mp;
	size_t nr;

	ck_assert_int_eq(machine__mmap(m, 10, 0x1000, 0x3000, 0, a), 0);
	ck_assert_int_eq(machine__mmap(m, 10, 0x10000, 0x1000, 0x5000, b), 0);
	mp = machine__find_map(m, 10, 0x1fff);
	ck_assert_ptr_nonnull(mp);
	ck_assert_ptr_eq(mp->dso, a);
	ck_assert_ptr_null(machine__find_map(m, 10, 0x4000));
	ck_assert_ptr_null(machine__find_map(m, 11, 0x1fff));
	/* an mmap in the middle of a splits it in two */
	ck_assert_int_eq(machine__mmap(m, 10, 0x2000, 0x1000, 0x9000, b), 0);
	machine__maps(m, 10, &nr);
	ck_assert_uint_eq(nr, 4);
	mp = machine__find_map(m, 10, 0x3800);
	ck_assert_ptr_eq(mp->dso, a);
	ck_assert_uint_eq(mp->start, 0x3000);
	ck_assert_uint_eq(mp->pgoff, 0x2000);	/* pgoff follows the cut */
	mp = machine__find_map(m, 10, 0x2800);
	ck_assert_ptr_eq(mp->dso, b);
	ck_assert_uint_eq(mp->pgoff, 0x9000);
	/* one covering everything replaces them all */
	ck_assert_int_eq(machine__mmap(m, 10, 0, 0x100000, 0, a), 0);
	machine__maps(m, 10, &nr);
	ck_assert_uint_eq(nr, 1);
	ck_assert_int_eq(machine__mmap(m, 10, 0x10, 0, 0, a), -EINVAL);
}
END_TEST

START_TEST(test_maps_many_sorted)
{
	struct dso *a = file_dso("/bin/a", 1);
	const struct map *maps;
	size_t nr;

	/* inserted in a scrambled order */
	for (u64 i = 0; i < 1000; i++) {
		u64 slot = (i * 7919) % 1000;

		ck_assert_int_eq(machine__mmap(m, 1, slot * 0x2000, 0x1000,
					       slot, a), 0);
	}
	maps = machine__maps(m, 1, &nr);
	ck_assert_uint_eq(nr, 1000);
	for (size_t i = 1; i < nr; i++)
		ck_assert_uint_lt(maps[i - 1].start, maps[i].start);
	for (u64 s = 0; s < 1000; s++) {
		const struct map *mp = machine__find_map(m, 1, s * 0x2000 + 5);

		ck_assert_ptr_nonnull(mp);
		ck_assert_uint_eq(mp->pgoff, s);
		ck_assert_ptr_null(machine__find_map(m, 1, s * 0x2000 + 0x1000));
	}
}
END_TEST

START_TEST(test_fork_exec_exit)
{
	struct dso *a = file_dso("/bin/a", 1);

	ck_assert_int_eq(machine__comm(m, 10, 10, "parent", 6, false), 0);
	ck_assert_int_eq(machine__mmap(m, 10, 0x1000, 0x1000, 0, a), 0);
	/* a thread: same pid, comm inherited */
	ck_assert_int_eq(machine__fork(m, 10, 10, 11, 10), 0);
	ck_assert_str_eq(machine__comm_of(m, 10, 11), "parent");
	ck_assert_int_eq(machine__comm(m, 10, 11, "worker", 6, false), 0);
	ck_assert_str_eq(machine__comm_of(m, 10, 11), "worker");
	ck_assert_str_eq(machine__comm_of(m, 10, 10), "parent");
	/* a process: maps copied */
	ck_assert_int_eq(machine__fork(m, 20, 10, 20, 10), 0);
	ck_assert_ptr_nonnull(machine__find_map(m, 20, 0x1800));
	ck_assert_str_eq(machine__comm_of(m, 20, 20), "parent");
	/* exec: new comm; the old program's maps stay behind the new
	 * ones (samples of the execve syscall), as in perf */
	ck_assert_int_eq(machine__comm(m, 20, 20, "child", 5, true), 0);
	{
		struct dso *b = file_dso("/bin/b", 2), *c = file_dso("/bin/c", 3);
		size_t nr;

		ck_assert_ptr_eq(machine__find_map(m, 20, 0x1800)->dso, a);
		machine__maps(m, 20, &nr);
		ck_assert_uint_eq(nr, 0);
		ck_assert_int_eq(machine__mmap(m, 20, 0x1400, 0x200, 0, b), 0);
		ck_assert_ptr_eq(machine__find_map(m, 20, 0x1400)->dso, b);
		ck_assert_ptr_eq(machine__find_map(m, 20, 0x1800)->dso, a);
		/* a second exec forgets the first program */
		ck_assert_int_eq(machine__comm(m, 20, 20, "again", 5, true),
				 0);
		ck_assert_int_eq(machine__mmap(m, 20, 0x9000, 0x100, 0, c), 0);
		ck_assert_ptr_eq(machine__find_map(m, 20, 0x1400)->dso, b);
		ck_assert_ptr_null(machine__find_map(m, 20, 0x1800));
	}
	ck_assert_ptr_nonnull(machine__find_map(m, 10, 0x1800));
	/* exit, then reap after the grace period */
	ck_assert_int_eq(machine__exit(m, 20, 20), 0);
	ck_assert(machine__exited(m, 20));
	ck_assert_uint_eq(machine__reap(m, 2), 0);
	machine__tick(m);
	ck_assert_uint_eq(machine__reap(m, 2), 0);
	machine__tick(m);
	ck_assert_uint_eq(machine__reap(m, 2), 1);
	ck_assert(!machine__knows(m, 20));
	ck_assert(machine__knows(m, 10));
	/* unknown thread of a known process falls back to the process */
	ck_assert_str_eq(machine__comm_of(m, 10, 999), "parent");
	ck_assert_ptr_null(machine__comm_of(m, 77, 77));
}
END_TEST

START_TEST(test_pid_reuse)
{
	struct dso *a = file_dso("/bin/a", 1);

	ck_assert_int_eq(machine__comm(m, 30, 30, "old", 3, false), 0);
	ck_assert_int_eq(machine__mmap(m, 30, 0x1000, 0x1000, 0, a), 0);
	ck_assert_int_eq(machine__exit(m, 30, 30), 0);
	/* a new process gets the same pid before the old one was reaped */
	ck_assert_int_eq(machine__fork(m, 30, 1, 30, 1), 0);
	ck_assert(!machine__exited(m, 30));
	ck_assert_ptr_null(machine__find_map(m, 30, 0x1800));
}
END_TEST

START_TEST(test_path_basename)
{
	ck_assert_str_eq(path_basename("/usr/lib/libc.so.6"), "libc.so.6");
	ck_assert_str_eq(path_basename("libc.so.6"), "libc.so.6");
	ck_assert_str_eq(path_basename("[kernel.kallsyms]"),
			 "[kernel.kallsyms]");
	ck_assert_str_eq(path_basename("/dir/"), "");
	ck_assert_ptr_null(path_basename(NULL));
}
END_TEST

START_TEST(test_intmap)
{
	struct intmap im;
	size_t i = 0, n = 0;
	u64 k;
	void *v;

	intmap__init(&im);
	for (u64 x = 1; x <= 5000; x++)
		ck_assert_int_eq(intmap__put(&im, x * 977, (void *)(uintptr_t)x), 0);
	for (u64 x = 1; x <= 5000; x += 2)
		ck_assert_ptr_eq(intmap__del(&im, x * 977), (void *)(uintptr_t)x);
	for (u64 x = 1; x <= 5000; x++) {
		void *got = intmap__get(&im, x * 977);

		if (x % 2)
			ck_assert_ptr_null(got);
		else
			ck_assert_ptr_eq(got, (void *)(uintptr_t)x);
	}
	while (intmap__next(&im, &i, &k, &v))
		n++;
	ck_assert_uint_eq(n, 2500);
	intmap__fini(&im);
}
END_TEST

Suite *machine_suite(void)
{
	Suite *s = suite_create("machine");
	TCase *tc = tcase_create("machine");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_dso_identity);
	tcase_add_test(tc, test_build_id_eq);
	tcase_add_test(tc, test_maps_lookup_and_overlap);
	tcase_add_test(tc, test_maps_many_sorted);
	tcase_add_test(tc, test_fork_exec_exit);
	tcase_add_test(tc, test_pid_reuse);
	tcase_add_test(tc, test_intmap);
	tcase_add_test(tc, test_path_basename);
	suite_add_tcase(s, tc);
	return s;
}
