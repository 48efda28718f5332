/* check_elfsym: ELF symbols, PLT, eh_frame ranges, segments, build-ids. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/debuginfo.h"
#include "symbols/elfsym.h"
#include "tests/fixtures/symtest.h"
#include "symbols/srcline.h"
#include "symbols/symbolizer.h"
#include "symbols/symtab.h"

struct loaded {
	int fd;
	Elf *elf;
	struct elf_info info;
	struct symtab *st;
};

static void load(struct loaded *l, const char *fixture, unsigned int what)
{
	l->fd = open(test_fixture(fixture), O_RDONLY);
	ck_assert_int_ge(l->fd, 0);
	l->elf = elfsym__open_fd(l->fd);
	ck_assert_ptr_nonnull(l->elf);
	ck_assert_int_eq(elfsym__info(l->elf, &l->info), 0);
	l->st = symtab__new(NULL, SYMTAB_DEMANGLE);
	ck_assert_ptr_nonnull(l->st);
	ck_assert_int_ge(elfsym__load(l->elf, l->st, what), 0);
	ck_assert_int_eq(symtab__finish(l->st), 0);
}

static void unload(struct loaded *l)
{
	symtab__free(l->st);
	elf_end(l->elf);
	close(l->fd);
}

/* The symbol at nm's address of name has nm's start and size. */
static void check_nm(struct loaded *l, const char *nm, const char *name,
		     const char *want_name)
{
	struct symtab_hit hit;
	u64 addr, size;

	ck_assert_msg(nm_find(nm, name, &addr, &size), "%s not in %s", name,
		      nm);
	for (u64 a = addr; a < addr + size; a += size > 4 ? size / 4 : 1) {
		ck_assert_int_eq(symtab__lookup(l->st, a, &hit), 0);
		if (want_name)
			ck_assert_str_eq(hit.name, want_name);
		else
			ck_assert_uint_ne(hit.flags & SYM_F_SYNTH, 0);
		ck_assert_uint_eq(hit.start, addr);
		ck_assert_uint_eq(hit.size, size);
	}
	ck_assert(symtab__lookup(l->st, addr + size, &hit) ||
		  hit.start == addr + size);
}

static const char *const known[] = { "fix_leaf", "fix_static", "fix_caller",
				     "fix_target", "main" };

START_TEST(test_symtab_exact)
{
	const char *files[][2] = { { "symfix", "symfix.nm" },
				   { "symfix-pie", "symfix-pie.nm" } };

	for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
		struct loaded l;

		load(&l, files[f][0], ELFSYM_SYMTAB | ELFSYM_PLT);
		ck_assert(l.info.has_symtab);
		ck_assert(l.info.has_debug_info);
		for (size_t i = 0; i < ARRAY_SIZE(known); i++)
			check_nm(&l, files[f][1], known[i], known[i]);
		/* fix_weak is an alias: the global name is shown */
		check_nm(&l, files[f][1], "fix_weak", "fix_target");
		unload(&l);
	}
}
END_TEST

START_TEST(test_shared_lib)
{
	struct loaded l;

	load(&l, "libsymfix.so", ELFSYM_SYMTAB | ELFSYM_PLT);
	check_nm(&l, "libsymfix.nm", "lib_exported", "lib_exported");
	check_nm(&l, "libsymfix.nm", "lib_hidden", "lib_hidden");
	check_nm(&l, "libsymfix.nm", "lib_print", "lib_print");
	unload(&l);
	/* .dynsym alone: exported ones only */
	load(&l, "libsymfix.so", ELFSYM_DYNSYM);
	check_nm(&l, "libsymfix.nm", "lib_exported", "lib_exported");
	struct symtab_hit hit;
	u64 addr, size;

	ck_assert(nm_find("libsymfix.nm", "lib_hidden", &addr, &size));
	ck_assert_int_eq(symtab__lookup(l.st, addr, &hit), -ENOENT);
	unload(&l);
}
END_TEST

/* The IFUNC symbol ('i') nm lists at addr. */
static bool nm_ifunc_at(const char *nm, unsigned long long addr, char *name,
			size_t len)
{
	FILE *f = fopen(test_fixture(nm), "r");
	char line[512], n[400], type[8];
	unsigned long long a, size;
	bool found = false;

	ck_assert_ptr_nonnull(f);
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %llx %7s %399s", &a, &size, type, n) ==
			    4 &&
		    a == addr && !strcmp(type, "i")) {
			snprintf(name, len, "%s", n);
			found = true;
		}
	fclose(f);
	return found;
}

/* name@plt where objdump puts it (.plt, .plt.sec, .plt.got) */
static void check_plt(const char *fixture, const char *plt, const char *nm)
{
	FILE *f = fopen(test_fixture(plt), "r");
	char line[512], name[400];
	unsigned long long addr;
	struct loaded l;
	int n = 0;

	ck_assert_ptr_nonnull(f);
	load(&l, fixture, ELFSYM_PLT);
	while (fgets(line, sizeof(line), f)) {
		struct symtab_hit hit;

		unsigned long long target;

		if (sscanf(line, "%llx %399s", &addr, name) != 2)
			continue;
		/* an IRELATIVE entry: named after the IFUNC at its addend */
		if (sscanf(name, "*ABS*+0x%llx@plt", &target) == 1) {
			ck_assert(nm_ifunc_at(nm, target, name, sizeof(name)));
			strcat(name, "@plt");
		}
		ck_assert_int_eq(symtab__lookup(l.st, addr + 4, &hit), 0);
		ck_assert_str_eq(hit.name, name);
		ck_assert_uint_eq(hit.start, addr);
		ck_assert_uint_eq(hit.flags, SYM_F_PLT);
		n++;
	}
	ck_assert_int_ge(n, 2);
	fclose(f);
	unload(&l);
}

START_TEST(test_plt)
{
	check_plt("symfix", "symfix.plt", "symfix.nm");
	check_plt("libsymfix.so", "libsymfix.plt", "libsymfix.nm");
}
END_TEST

/* IRELATIVE PLT entries, .plt.sec beside .plt, and what a zero-size
 * symbol covers (perf's rules, see symtab.h) */
START_TEST(test_plt_irelative)
{
	struct symtab_hit hit;
	struct loaded l;
	bool seen = false;

	load(&l, "libsymfix.so", ELFSYM_SYMTAB | ELFSYM_PLT);
	for (size_t i = 0; i < symtab__count(l.st); i++) {
		ck_assert_int_eq(symtab__at(l.st, i, &hit), 0);
		if (!strcmp(hit.name, "lib_ifunc@plt")) {
			ck_assert_uint_eq(hit.flags, SYM_F_PLT);
			ck_assert_uint_eq(hit.size, 16);
			seen = true;
		}
		/* never objdump's placeholder nor perf 6.1's bare "@plt" */
		ck_assert_ptr_null(strstr(hit.name, "*ABS*"));
		ck_assert_str_ne(hit.name, "@plt");
	}
	ck_assert(seen);
	unload(&l);
}
END_TEST

START_TEST(test_zero_size_labels)
{
	const char *files[][3] = { { "symfix", "symfix.nm", "symfix.plt" },
				   { "symfix-pie", "symfix-pie.nm", NULL } };

	for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
		struct symtab_hit hit;
		u64 label, init, size;
		struct loaded l;

		load(&l, files[f][0], ELFSYM_SYMTAB | ELFSYM_PLT);
		/* the asm label (NOTYPE, size 0) covers its nop and ret */
		ck_assert(nm_find(files[f][1], "fix_label", &label, &size));
		ck_assert_int_eq(symtab__lookup(l.st, label + 1, &hit), 0);
		ck_assert_str_eq(hit.name, "fix_label");
		ck_assert_uint_eq(hit.start, label);
		ck_assert_uint_ge(hit.size, 2);
		/* _init (size 0, in .init) reaches over PLT0 up to the
		 * first named PLT entry, as perf names PLT0 */
		ck_assert(nm_find(files[f][1], "_init", &init, &size));
		ck_assert_int_eq(symtab__lookup(l.st, init, &hit), 0);
		ck_assert_str_eq(hit.name, "_init");
		if (files[f][2]) {
			FILE *p = fopen(test_fixture(files[f][2]), "r");
			unsigned long long first;

			ck_assert_ptr_nonnull(p);
			ck_assert_int_eq(fscanf(p, "%llx", &first), 1);
			fclose(p);
			ck_assert_int_eq(symtab__lookup(l.st, first - 1, &hit),
					 0);
			ck_assert_str_eq(hit.name, "_init");
			ck_assert_uint_eq(hit.start + hit.size, first);
		}
		unload(&l);
	}
}
END_TEST

/* Data objects (annotate's %rip-relative operands) in their own table:
 * nm's extent; never in the functions' table, nor functions in theirs. */
START_TEST(test_data)
{
	struct symtab_hit hit;
	struct loaded l;
	u64 addr, size;

	load(&l, "symfix-pie", ELFSYM_SYMTAB | ELFSYM_DATA);
	check_nm(&l, "symfix-pie.nm", "symfix_sink", "symfix_sink");
	ck_assert(nm_find("symfix-pie.nm", "fix_leaf", &addr, &size));
	ck_assert(symtab__lookup(l.st, addr, &hit) ||
		  strcmp(hit.name, "fix_leaf"));
	unload(&l);
	load(&l, "symfix-pie", ELFSYM_SYMTAB | ELFSYM_PLT);
	ck_assert(nm_find("symfix-pie.nm", "symfix_sink", &addr, &size));
	ck_assert_int_eq(symtab__lookup(l.st, addr, &hit), -ENOENT);
	unload(&l);
	/* .dynsym: the exported ones */
	load(&l, "libsymfix.so", ELFSYM_DYNSYM | ELFSYM_DATA);
	check_nm(&l, "libsymfix.nm", "symfixlib_sink", "symfixlib_sink");
	unload(&l);
}
END_TEST

/* name@got on each slot a GLOB_DAT or JUMP_SLOT relocation names, as
 * readelf -r lists them */
START_TEST(test_got)
{
	FILE *f = fopen(test_fixture("libsymfix.got"), "r");
	char line[512], name[400], want[420];
	unsigned long long addr;
	bool sink = false;
	struct loaded l;
	int n = 0;

	ck_assert_ptr_nonnull(f);
	load(&l, "libsymfix.so", ELFSYM_GOT);
	while (fgets(line, sizeof(line), f)) {
		struct symtab_hit hit;

		if (sscanf(line, "%llx %399s", &addr, name) != 2)
			continue;
		snprintf(want, sizeof(want), "%s@got", name);
		ck_assert_int_eq(symtab__lookup(l.st, addr + 7, &hit), 0);
		ck_assert_str_eq(hit.name, want);
		ck_assert_uint_eq(hit.start, addr);
		ck_assert_uint_eq(hit.size, 8);
		sink |= !strcmp(name, "symfixlib_sink");
		n++;
	}
	ck_assert_int_ge(n, 2);
	/* the library reaches its exported global through the GOT */
	ck_assert(sink);
	fclose(f);
	unload(&l);
}
END_TEST

/* stripped: each function is one FDE range, exactly nm's extent */
START_TEST(test_ehframe_ranges)
{
	struct loaded l;
	struct symtab_hit hit;

	load(&l, "symfix-stripped", ELFSYM_SYMTAB | ELFSYM_DYNSYM |
					    ELFSYM_PLT | ELFSYM_EHFRAME);
	ck_assert(!l.info.has_symtab);
	ck_assert(!l.info.has_debug_info);
	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		check_nm(&l, "symfix-pie.nm", known[i], NULL);
	u64 addr, size;
	char want[64];

	ck_assert(nm_find("symfix-pie.nm", "fix_caller", &addr, &size));
	ck_assert_int_eq(symtab__lookup(l.st, addr + 1, &hit), 0);
	snprintf(want, sizeof(want), "func_0x%llx", (unsigned long long)addr);
	ck_assert_str_eq(hit.name, want);
	ck_assert_str_eq(hit.raw_name, want);
	unload(&l);
}
END_TEST

START_TEST(test_info)
{
	struct loaded l;
	char hex[64] = "", want[64] = "";
	FILE *f = fopen(test_fixture("symfix-pie.bid"), "r");
	u32 crc;
	int fd;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%63s", want), 1);
	fclose(f);
	load(&l, "symfix-pie", 0);
	ck_assert_uint_eq(l.info.build_id_size, 20);
	for (int i = 0; i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", l.info.build_id[i]);
	ck_assert_str_eq(hex, want);
	ck_assert_uint_eq(l.info.type, ET_DYN);
	ck_assert_uint_eq(l.info.machine, EM_X86_64);
	ck_assert_uint_ge(l.info.nr_loads, 2);
	ck_assert_str_eq(l.info.debuglink, "");
	unload(&l);

	load(&l, "symfix-dl", 0);
	ck_assert_str_eq(l.info.debuglink, "symfix-dl.debug");
	fd = open(test_fixture("symfix-dl.debug"), O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(debuginfo__crc32(fd, &crc), 0);
	ck_assert_uint_eq(crc, l.info.debuglink_crc);
	close(fd);
	unload(&l);

	load(&l, "symfix-nobid", 0);
	ck_assert_uint_eq(l.info.build_id_size, 0);
	ck_assert_str_eq(l.info.debuglink, "symfix-nobid.debug");
	unload(&l);
}
END_TEST

/* Sections by name: a debug file made from a build with unwind tables
 * has no .debug_frame (its .eh_frame header stays, NOBITS); one made
 * from a build without them has it. */
START_TEST(test_has_section)
{
	struct loaded l;

	load(&l, "symfix-dl.debug", 0);
	ck_assert(elfsym__has_section(l.elf, ".eh_frame"));
	ck_assert(elfsym__has_section(l.elf, ".debug_info"));
	ck_assert(!elfsym__has_section(l.elf, ".debug_frame"));
	ck_assert(!elfsym__has_section(l.elf, ".debug_fram"));
	unload(&l);
	load(&l, "symfix-dframe.debug", 0);
	ck_assert(elfsym__has_section(l.elf, ".debug_frame"));
	unload(&l);
	ck_assert(!elfsym__has_section(NULL, ".debug_frame"));
}
END_TEST

START_TEST(test_vaddr)
{
	struct loaded l;
	u64 addr, size, v, off;

	/* non-PIE: text at 0x401000 from offset 0x1000 */
	load(&l, "symfix", 0);
	ck_assert(nm_find("symfix.nm", "fix_caller", &addr, &size));
	ck_assert_int_eq(elfsym__from_vaddr(&l.info, addr, &off), 0);
	ck_assert_uint_eq(off, addr - 0x400000);
	ck_assert_int_eq(elfsym__to_vaddr(&l.info, off, &v), 0);
	ck_assert_uint_eq(v, addr);
	ck_assert_int_eq(elfsym__to_vaddr(&l.info, 0x7fffffff, &v), -ENOENT);
	ck_assert_int_eq(elfsym__from_vaddr(&l.info, 0x10, &v), -ENOENT);
	unload(&l);
	/* PIE: identity for its text */
	load(&l, "symfix-pie", 0);
	ck_assert(nm_find("symfix-pie.nm", "fix_caller", &addr, &size));
	ck_assert_int_eq(elfsym__to_vaddr(&l.info, addr, &v), 0);
	ck_assert_uint_eq(v, addr);
	unload(&l);
}
END_TEST

START_TEST(test_not_elf)
{
	int fd = open(test_fixture("notelf.bin"), O_RDONLY);
	struct elf_info info;
	Elf *elf;
	char junk[64];

	ck_assert_int_ge(fd, 0);
	errno = 0;
	ck_assert_ptr_null(elfsym__open_fd(fd));
	ck_assert_int_eq(errno, ENOEXEC);
	close(fd);
	/* truncated: the header is fine, what it points at is not there */
	fd = open(test_fixture("garbage.elf"), O_RDONLY);
	elf = elfsym__open_fd(fd);
	ck_assert_ptr_nonnull(elf);
	ck_assert_int_eq(elfsym__info(elf, &info), -EINVAL);
	elf_end(elf);
	close(fd);
	memset(junk, 0x7f, sizeof(junk));
	ck_assert_ptr_null(elfsym__open_mem(junk, sizeof(junk)));
	ck_assert_ptr_null(elfsym__open_mem(NULL, 10));
}
END_TEST

/* from memory: the same answers; cut anywhere: no crash */
START_TEST(test_memory)
{
	size_t len = 0;
	char *img = slurp(test_fixture("symfix-pie"), &len);
	struct elf_info info;
	struct symtab_hit hit;

	ck_assert_ptr_nonnull(img);
	for (size_t cut = 0; cut <= len; cut += cut < 4096 ? 61 : 509) {
		char *copy = malloc(cut ? cut : 1);
		struct symtab *st = symtab__new(NULL, 0);
		Elf *elf;

		memcpy(copy, img, cut);
		elf = elfsym__open_mem(copy, cut);
		if (elf) {
			if (!elfsym__info(elf, &info)) {
				elfsym__load(elf, st, ~0u & ~ELFSYM_DATA);
				elfsym__load(elf, st, ~0u);
			}
			elf_end(elf);
		}
		symtab__finish(st);
		symtab__lookup(st, 0x1200, &hit);
		symtab__free(st);
		free(copy);
	}
	{
		struct symtab *st = symtab__new(NULL, 0);
		Elf *elf = elfsym__open_mem(img, len);
		u64 addr, size;

		ck_assert_ptr_nonnull(elf);
		ck_assert_int_eq(elfsym__info(elf, &info), 0);
		ck_assert_int_gt(elfsym__load(elf, st, ELFSYM_SYMTAB), 0);
		symtab__finish(st);
		ck_assert(nm_find("symfix-pie.nm", "fix_leaf", &addr, &size));
		ck_assert_int_eq(symtab__lookup(st, addr, &hit), 0);
		ck_assert_str_eq(hit.name, "fix_leaf");
		elf_end(elf);
		symtab__free(st);
	}
	free(img);
}
END_TEST

/* The fuzzers' seeds and every crash they found (kept in the corpus as
 * regressions), through the same steps as fuzz_elf, in every test run. */
START_TEST(test_fuzz_corpus)
{
	const char *dir = "tests/fuzz/corpus/elf";
	struct dirent *de;
	DIR *d = opendir(dir);
	struct strpool *pool = strpool__new();
	int n = 0;

	if (!d)
		return;	/* not run from the source tree */
	while ((de = readdir(d))) {
		char p[4096];
		size_t len = 0;
		char *img;
		struct elf_info info;
		struct symtab *st;
		struct srcline_dw *sd = NULL;
		Elf *elf;

		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		img = slurp(p, &len);
		if (!img)
			continue;
		st = symtab__new(NULL, SYMTAB_DEMANGLE);
		elf = elfsym__open_mem(img, len);
		if (elf && !elfsym__info(elf, &info)) {
			/* functions, then annotate's data and GOT slots */
			elfsym__load(elf, st, ~0u & ~ELFSYM_DATA);
			elfsym__load(elf, st, ELFSYM_SYMTAB | ELFSYM_DYNSYM |
						      ELFSYM_DATA | ELFSYM_GOT);
			symtab__finish(st);
			sd = srcline__new(elf, -1);
			for (size_t i = 0; i < symtab__count(st) && i < 64;
			     i++) {
				struct symtab_hit hit;
				struct srcline out[8];
				u64 off;

				if (symtab__at(st, i, &hit))
					continue;
				elfsym__from_vaddr(&info, hit.start, &off);
				if (sd)
					srcline__lookup(sd, hit.start, out, 8,
							pool, SYMTAB_DEMANGLE);
			}
			srcline__free(sd);
		}
		if (elf)
			elf_end(elf);
		symtab__free(st);
		free(img);
		n++;
	}
	closedir(d);
	strpool__free(pool);
	ck_assert_int_gt(n, 0);
}
END_TEST

Suite *elfsym_suite(void)
{
	Suite *s = suite_create("elfsym");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_symtab_exact);
	tcase_add_test(tc, test_shared_lib);
	tcase_add_test(tc, test_plt);
	tcase_add_test(tc, test_plt_irelative);
	tcase_add_test(tc, test_zero_size_labels);
	tcase_add_test(tc, test_data);
	tcase_add_test(tc, test_got);
	tcase_add_test(tc, test_ehframe_ranges);
	tcase_add_test(tc, test_info);
	tcase_add_test(tc, test_has_section);
	tcase_add_test(tc, test_vaddr);
	tcase_add_test(tc, test_not_elf);
	tcase_add_test(tc, test_memory);
	tcase_add_test(tc, test_fuzz_corpus);
	suite_add_tcase(s, tc);
	return s;
}
