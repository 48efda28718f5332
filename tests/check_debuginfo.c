/* check_debuginfo: finding binaries (containers, deleted) and debug files. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/debuginfo.h"
#include "symbols/elfsym.h"
#include "tests/fixtures/symtest.h"

static char path[4096];

static void info_of(const char *file, struct elf_info *info)
{
	int fd = open(file, O_RDONLY);
	Elf *elf;

	ck_assert_int_ge(fd, 0);
	elf = elfsym__open_fd(fd);
	ck_assert_ptr_nonnull(elf);
	ck_assert_int_eq(elfsym__info(elf, info), 0);
	elf_end(elf);
	close(fd);
}

static void close_ok(int fd)
{
	ck_assert_int_ge(fd, 0);
	close(fd);
}

START_TEST(test_binary_by_path)
{
	struct debuginfo_opts o = { 0 };
	struct dso d = file_dso(0, fixture_path("symfix-pie"));
	struct elf_info info;

	close_ok(debuginfo__open_binary(&o, &d, path, sizeof(path)));
	ck_assert_str_eq(path, test_fixture("symfix-pie"));
	/* with the right build-id */
	info_of(test_fixture("symfix-pie"), &info);
	memcpy(d.build_id, info.build_id, info.build_id_size);
	d.build_id_size = info.build_id_size;
	close_ok(debuginfo__open_binary(&o, &d, path, sizeof(path)));
	/* with another: refused */
	d.build_id[0] ^= 0xff;
	ck_assert_int_eq(debuginfo__open_binary(&o, &d, path, sizeof(path)),
			 -ESTALE);
	/* missing, not ELF, nothing */
	d = file_dso(0, fixture_path("no-such-file"));
	ck_assert_int_eq(debuginfo__open_binary(&o, &d, path, sizeof(path)),
			 -ENOENT);
	d = file_dso(0, fixture_path("notelf.bin"));
	ck_assert_int_eq(debuginfo__open_binary(&o, &d, path, sizeof(path)),
			 -ENOEXEC);
	d.path = "";
	ck_assert_int_eq(debuginfo__open_binary(&o, &d, path, sizeof(path)),
			 -ENOENT);
}
END_TEST

/* A recording's binary by build-id: perf's ~/.debug cache and the
 * build-id stores come before the path, which may hold another file. */
START_TEST(test_binary_by_build_id_store)
{
	char home[] = "/tmp/ptop-home-XXXXXX", dir[4096], hex[41], cmd[16384];
	struct debuginfo_opts o = { 0 };
	struct dso d = file_dso(0, fixture_path("no-such-file"));
	struct elf_info info;

	ck_assert_ptr_nonnull(mkdtemp(home));
	o.home = home;
	info_of(test_fixture("symfix-pie"), &info);
	memcpy(d.build_id, info.build_id, info.build_id_size);
	d.build_id_size = info.build_id_size;
	dso__build_id_hex(&d, hex, sizeof(hex));
	snprintf(dir, sizeof(dir), "%s/.debug/.build-id/%.2s/%s", home, hex,
		 hex + 2);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && cp '%s' '%s/elf'", dir,
		 test_fixture("symfix-pie"), dir);
	ck_assert_int_eq(system(cmd), 0);
	/* the path is gone: the cache has it */
	close_ok(debuginfo__open_binary(&o, &d, path, sizeof(path)));
	ck_assert_ptr_nonnull(strstr(path, "/.debug/.build-id/"));
	/* the path holds another binary: still the cached one */
	d.path = test_fixture("libsymfix.so");
	close_ok(debuginfo__open_binary(&o, &d, path, sizeof(path)));
	ck_assert_ptr_nonnull(strstr(path, "/.debug/.build-id/"));
	/* a cache entry with another build-id is not taken */
	d.build_id[0] ^= 0xff;
	ck_assert_int_eq(debuginfo__open_binary(&o, &d, path, sizeof(path)),
			 -ESTALE);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", home);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* a FIFO (or a tty) where a library was does not block the reader */
START_TEST(test_fifo)
{
	struct debuginfo_opts o = { 0 };
	char dir[] = "/tmp/ptop-fifo-XXXXXX", fifo[64];
	struct dso d;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/libfoo.so", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	d = file_dso(0, fifo);
	ck_assert_int_eq(debuginfo__open_binary(&o, &d, path, sizeof(path)),
			 -ENOEXEC);
	d.path = "/dev/tty";
	ck_assert_int_lt(debuginfo__open_binary(&o, &d, path, sizeof(path)),
			 0);
	unlink(fifo);
	rmdir(dir);
}
END_TEST

/* a process in another root: its absolute symlinks resolve in there */
START_TEST(test_container_root)
{
	struct debuginfo_opts o = { .proc = test_fixture("proc") };
	char want[4096];
	struct dso d = file_dso(0, "/usr/lib/libsymfix.so");

	d.pid = 4243;
	close_ok(debuginfo__open_binary(&o, &d, path, sizeof(path)));
	snprintf(want, sizeof(want), "%s/4243/root/usr/lib/libsymfix.so",
		 test_fixture("proc"));
	ck_assert_str_eq(path, want);
	/* ".." cannot climb out of it */
	d.path = "/../../../../../../../etc/passwd";
	ck_assert_int_lt(debuginfo__open_binary(&o, &d, path, sizeof(path)),
			 0);
	/* our own root: the plain path */
	d.pid = getpid();
	d.path = test_fixture("libsymfix.so");
	o.proc = "/proc";
	close_ok(debuginfo__open_binary(&o, &d, path, sizeof(path)));
	ck_assert_str_eq(path, test_fixture("libsymfix.so"));
}
END_TEST

/* a deleted file is still readable through map_files while mapped */
START_TEST(test_deleted_map_files)
{
	struct debuginfo_opts o = { 0 };
	char tmp[] = "/tmp/ptop-deleted-XXXXXX";
	size_t len = 0;
	void *img = slurp(test_fixture("libsymfix.so"), &len), *map;
	struct elf_info want, got;
	struct dso d;
	int fd, r;

	if (geteuid() != 0)
		test_skip("not root (map_files needs CAP_SYS_ADMIN)");
	ck_assert_ptr_nonnull(img);
	fd = mkstemp(tmp);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, img, len), (ssize_t)len);
	map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	ck_assert_ptr_ne(map, MAP_FAILED);
	close(fd);
	unlink(tmp);
	d = file_dso(0, tmp);
	d.deleted = true;
	d.pid = getpid();
	d.map_start = (u64)(uintptr_t)map;
	d.map_end = d.map_start + ALIGN_UP(len, 4096);
	r = debuginfo__open_binary(&o, &d, path, sizeof(path));
	ck_assert_int_ge(r, 0);
	ck_assert_ptr_nonnull(strstr(path, "/map_files/"));
	close(r);
	info_of(path, &got);
	info_of(test_fixture("libsymfix.so"), &want);
	ck_assert_uint_eq(got.build_id_size, want.build_id_size);
	ck_assert_mem_eq(got.build_id, want.build_id, want.build_id_size);
	/* once unmapped: gone */
	munmap(map, len);
	ck_assert_int_lt(debuginfo__open_binary(&o, &d, path, sizeof(path)),
			 0);
	free(img);
}
END_TEST

/* renamed over while mapped (an upgrade): without a build-id the inode
 * tells, and the mapping is read rather than the new file */
START_TEST(test_renamed_over)
{
	struct debuginfo_opts o = { 0 };
	char dir[] = "/tmp/ptop-renamed-XXXXXX", p1[64], p2[64];
	size_t len = 0, len2 = 0;
	void *img = slurp(test_fixture("libsymfix.so"), &len), *map;
	void *other = slurp(test_fixture("symfix-pie"), &len2);
	struct elf_info want, got;
	struct stat sb;
	struct dso d;
	int fd;

	if (geteuid() != 0)
		test_skip("not root (map_files needs CAP_SYS_ADMIN)");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(p1, sizeof(p1), "%s/libx.so", dir);
	snprintf(p2, sizeof(p2), "%s/libx.so.new", dir);
	fd = open(p1, O_CREAT | O_RDWR, 0600);
	ck_assert_int_eq(write(fd, img, len), (ssize_t)len);
	map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	ck_assert_ptr_ne(map, MAP_FAILED);
	ck_assert_int_eq(fstat(fd, &sb), 0);
	close(fd);
	fd = open(p2, O_CREAT | O_WRONLY, 0600);
	ck_assert_int_eq(write(fd, other, len2), (ssize_t)len2);
	close(fd);
	ck_assert_int_eq(rename(p2, p1), 0);
	d = file_dso(0, p1);
	d.ino = sb.st_ino;
	d.pid = getpid();
	d.map_start = (u64)(uintptr_t)map;
	d.map_end = d.map_start + ALIGN_UP(len, 4096);
	fd = debuginfo__open_binary(&o, &d, path, sizeof(path));
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_ptr_nonnull(strstr(path, "/map_files/"));
	info_of(path, &got);
	info_of(test_fixture("libsymfix.so"), &want);
	ck_assert_mem_eq(got.build_id, want.build_id, want.build_id_size);
	/* unmapped: the path's file is all there is */
	munmap(map, len);
	close_ok(debuginfo__open_binary(&o, &d, path, sizeof(path)));
	ck_assert_str_eq(path, p1);
	unlink(p1);
	rmdir(dir);
	free(img);
	free(other);
}
END_TEST

START_TEST(test_debug_by_build_id)
{
	const char *dirs[] = { "/nonexistent", test_fixture("debugroot") };
	char root[4096];
	struct debuginfo_opts o = { .debug_dirs = dirs, .nr_debug_dirs = 2 };
	struct dso d = file_dso(0, fixture_path("symfix-bid"));
	struct elf_info info;

	snprintf(root, sizeof(root), "%s", test_fixture("debugroot"));
	dirs[1] = root;
	info_of(test_fixture("symfix-bid"), &info);
	ck_assert(!info.has_symtab);
	close_ok(debuginfo__open_debug(&o, &d, &info, path, sizeof(path)));
	ck_assert_ptr_nonnull(strstr(path, "/.build-id/"));
	ck_assert_int_eq(strncmp(path, root, strlen(root)), 0);
	/* without the debug dir: not found */
	o.nr_debug_dirs = 0;
	ck_assert_int_eq(debuginfo__open_debug(&o, &d, &info, path,
					       sizeof(path)),
			 -ENOENT);
}
END_TEST

START_TEST(test_debuglink)
{
	struct debuginfo_opts o = { 0 };
	struct dso d = file_dso(0, fixture_path("symfix-dl"));
	struct elf_info info;

	info_of(test_fixture("symfix-dl"), &info);
	close_ok(debuginfo__open_debug(&o, &d, &info, path, sizeof(path)));
	ck_assert_str_eq(path, test_fixture("symfix-dl.debug"));
	/* no build-id: the CRC decides */
	d = file_dso(0, fixture_path("symfix-nobid"));
	info_of(test_fixture("symfix-nobid"), &info);
	ck_assert_uint_eq(info.build_id_size, 0);
	close_ok(debuginfo__open_debug(&o, &d, &info, path, sizeof(path)));
	ck_assert_ptr_nonnull(strstr(path, ".debug/symfix-nobid.debug"));
	info.debuglink_crc ^= 1;
	ck_assert_int_eq(debuginfo__open_debug(&o, &d, &info, path,
					       sizeof(path)),
			 -ENOENT);
	/* a debuglink to a file with another build-id is refused */
	d = file_dso(0, fixture_path("symfix-dl"));
	info_of(test_fixture("symfix-dl"), &info);
	info.build_id[0] ^= 0xff;
	ck_assert_int_eq(debuginfo__open_debug(&o, &d, &info, path,
					       sizeof(path)),
			 -ENOENT);
}
END_TEST

START_TEST(test_crc)
{
	int fd = open(test_fixture("notelf.bin"), O_RDONLY);
	u32 crc = 0;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(debuginfo__crc32(fd, &crc), 0);
	/* zlib.crc32(b"this is not an ELF file\n") */
	ck_assert_uint_eq(crc, 0xe569e0e8u);
	close(fd);
	ck_assert_int_eq(debuginfo__crc32(-1, &crc), -EBADF);
}
END_TEST

Suite *debuginfo_suite(void)
{
	Suite *s = suite_create("debuginfo");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_binary_by_path);
	tcase_add_test(tc, test_binary_by_build_id_store);
	tcase_add_test(tc, test_fifo);
	tcase_add_test(tc, test_container_root);
	tcase_add_test(tc, test_deleted_map_files);
	tcase_add_test(tc, test_renamed_over);
	tcase_add_test(tc, test_debug_by_build_id);
	tcase_add_test(tc, test_debuglink);
	tcase_add_test(tc, test_crc);
	suite_add_tcase(s, tc);
	return s;
}
