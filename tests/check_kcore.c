/* check_kcore: kernel code from an ELF core (a fake /proc/kcore), and the
 * symbolizer's code reads that do not come from a file (kcore,
 * /proc/PID/mem). */
#include <check.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/kcore.h"
#include "symbols/symbolizer.h"
#include "tests/testutil.h"

#define KBASE 0xffffffff81000000ull

static char dir[64];

/* An ELF core with two loads: 256 bytes at KBASE (0..255) and 16 at
 * KBASE + 0x10000 ('Z'), plus a note that is not a load. */
static size_t make_core(u8 *out)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph[3];
	size_t data = sizeof(eh) + sizeof(ph);

	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_X86_64;
	eh.e_phoff = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = 3;
	memset(ph, 0, sizeof(ph));
	ph[0].p_type = PT_NOTE;
	ph[1].p_type = PT_LOAD;
	ph[1].p_vaddr = KBASE;
	ph[1].p_offset = data;
	ph[1].p_filesz = ph[1].p_memsz = 256;
	ph[2].p_type = PT_LOAD;
	ph[2].p_vaddr = KBASE + 0x10000;
	ph[2].p_offset = data + 256;
	ph[2].p_filesz = ph[2].p_memsz = 16;
	memcpy(out, &eh, sizeof(eh));
	memcpy(out + sizeof(eh), ph, sizeof(ph));
	for (int i = 0; i < 256; i++)
		out[data + (size_t)i] = (u8)i;
	memset(out + data + 256, 'Z', 16);
	return data + 256 + 16;
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(p, 1, n, f), n);
	fclose(f);
}

static const char *in_dir(const char *name)
{
	static char path[4][256];
	static unsigned int i;
	char *p = path[i++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	return p;
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ptop-kcore-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_parse)
{
	u8 img[1024];
	struct kcore_seg segs[4];
	size_t n = make_core(img);

	ck_assert_int_eq(kcore__parse(img, n, segs, 4), 2);
	ck_assert_uint_eq(segs[0].vaddr, KBASE);
	ck_assert_uint_eq(segs[0].size, 256);
	ck_assert_uint_eq(segs[1].vaddr, KBASE + 0x10000);
	/* cut in the program headers, not ELF, not a core */
	ck_assert_int_eq(kcore__parse(img, sizeof(Elf64_Ehdr) + 10, segs, 4),
			 -ENOEXEC);
	ck_assert_int_eq(kcore__parse(img, 10, segs, 4), -ENOEXEC);
	ck_assert_int_eq(kcore__parse("not an ELF file at all, no no no no"
				      "no no no no no no no no no no no no",
				      64, segs, 4),
			 -ENOEXEC);
	((Elf64_Ehdr *)(void *)img)->e_type = ET_EXEC;
	ck_assert_int_eq(kcore__parse(img, n, segs, 4), -ENOEXEC);
	/* a huge phoff does not wrap */
	((Elf64_Ehdr *)(void *)img)->e_type = ET_CORE;
	((Elf64_Ehdr *)(void *)img)->e_phoff = UINT64_MAX - 8;
	ck_assert_int_eq(kcore__parse(img, n, segs, 4), -ENOEXEC);
}
END_TEST

START_TEST(test_read)
{
	u8 img[1024], buf[64];
	size_t n = make_core(img);
	struct kcore *k;

	write_file(in_dir("kcore"), img, n);
	k = kcore__open(in_dir("kcore"));
	ck_assert_ptr_nonnull(k);
	ck_assert_int_eq(kcore__read(k, KBASE + 16, buf, 4), 4);
	ck_assert_uint_eq(buf[0], 16);
	ck_assert_uint_eq(buf[3], 19);
	/* stops at the end of the segment */
	ck_assert_int_eq(kcore__read(k, KBASE + 250, buf, 64), 6);
	ck_assert_int_eq(kcore__read(k, KBASE + 0x10000, buf, 64), 16);
	ck_assert_uint_eq(buf[15], 'Z');
	ck_assert_int_eq(kcore__read(k, KBASE + 0x1000, buf, 4), -ENOENT);
	ck_assert_int_eq(kcore__read(k, 0, buf, 4), -ENOENT);
	kcore__free(k);
	kcore__free(NULL);

	errno = 0;
	ck_assert_ptr_null(kcore__open(in_dir("none")));
	ck_assert_int_eq(errno, ENOENT);
	write_file(in_dir("text"), "hello", 5);
	errno = 0;
	ck_assert_ptr_null(kcore__open(in_dir("text")));
	ck_assert_int_eq(errno, ENOEXEC);
}
END_TEST

/* The symbolizer reads kernel code through its kcore; without one it
 * says so (-ENOENT), and it does not retry at every call. */
START_TEST(test_symbolizer_kernel)
{
	struct dso kernel = { .kind = DSO_KERNEL, .id = 0, .pid = -1,
			      .name = "[kernel.kallsyms]" };
	struct symbolizer_opts o = { 0 };
	struct symbolizer *s;
	u8 img[1024], buf[8];
	size_t n = make_core(img);

	write_file(in_dir("kcore"), img, n);
	o.kcore = in_dir("kcore");
	s = symbolizer__new(&o);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(symbolizer__read_code(s, &kernel, KBASE + 1, buf, 2),
			 2);
	ck_assert_uint_eq(buf[1], 2);
	symbolizer__free(s);

	o.kcore = in_dir("none");
	s = symbolizer__new(&o);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(symbolizer__read_code(s, &kernel, KBASE, buf, 2),
			 -ENOENT);
	ck_assert_int_eq(symbolizer__read_code(s, &kernel, KBASE, buf, 2),
			 -ENOENT);
	symbolizer__free(s);
}
END_TEST

/* A file gone from disk (and from map_files), and JIT code: read from
 * /proc/PID/mem at the mapped address while the process lives. */
START_TEST(test_symbolizer_mem)
{
	struct dso gone = { .kind = DSO_FILE, .id = 0, .pid = 777,
			    .path = "/nonexistent/ptop/libgone.so",
			    .name = "libgone.so", .map_start = 0x400000,
			    .map_end = 0x402000, .deleted = true };
	struct dso jit = { .kind = DSO_ANON, .id = 1, .pid = 777,
			   .name = "//anon" };
	struct dso dead = gone;
	struct symbolizer_opts o = { 0 };
	static const char maps[] =
		"00400000-00402000 r-xp 00001000 08:01 12 /nonexistent/ptop/"
		"libgone.so (deleted)\n";
	struct symbolizer *s;
	char proc[128];
	u8 buf[8];
	int fd;

	snprintf(proc, sizeof(proc), "%s/proc", dir);
	ck_assert_int_eq(mkdir(proc, 0755), 0);
	ck_assert_int_eq(mkdir(in_dir("proc/777"), 0755), 0);
	write_file(in_dir("proc/777/maps"), maps, sizeof(maps) - 1);
	fd = open(in_dir("proc/777/mem"), O_CREAT | O_WRONLY, 0644);
	ck_assert_int_ge(fd, 0);
	/* file offset 0x1010 is mapped at 0x400010 */
	ck_assert_int_eq(pwrite(fd, "\x55\x48\x89\xe5", 4, 0x400010), 4);
	ck_assert_int_eq(pwrite(fd, "\xc3", 1, 0x500000), 1);
	close(fd);
	o.proc = proc;
	s = symbolizer__new(&o);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(symbolizer__read_code(s, &gone, 0x1010, buf, 4), 4);
	ck_assert_mem_eq(buf, "\x55\x48\x89\xe5", 4);
	/* outside the mapping */
	ck_assert_int_eq(symbolizer__read_code(s, &gone, 0x10, buf, 4),
			 -ENOENT);
	ck_assert_int_eq(symbolizer__read_code(s, &jit, 0x500000, buf,
					       1),
			 1);
	ck_assert_uint_eq(buf[0], 0xc3);
	/* the process is gone */
	dead.id = 2;
	dead.pid = 778;
	ck_assert_int_eq(symbolizer__read_code(s, &dead, 0x1010, buf, 4),
			 -ESRCH);
	symbolizer__free(s);
}
END_TEST

Suite *kcore_suite(void)
{
	Suite *su = suite_create("kcore");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_symbolizer_kernel);
	tcase_add_test(tc, test_symbolizer_mem);
	suite_add_tcase(su, tc);
	return su;
}
