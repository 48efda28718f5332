/* check_srcline: file:line and inline chains from DWARF (libdw). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/elfsym.h"
#include "tests/fixtures/symtest.h"
#include "symbols/srcline.h"
#include "symbols/symtab.h"

static struct strpool *pool;

struct dw {
	int fd;
	Elf *elf;
	struct srcline_dw *sd;
};

static void setup(void)
{
	pool = strpool__new();
}

static void teardown(void)
{
	strpool__free(pool);
}

static bool dw_open(struct dw *d, const char *fixture)
{
	d->fd = open(test_fixture(fixture), O_RDONLY);
	ck_assert_int_ge(d->fd, 0);
	d->elf = elfsym__open_fd(d->fd);
	ck_assert_ptr_nonnull(d->elf);
	d->sd = srcline__new(d->elf, -1);
	return d->sd != NULL;
}

static void dw_close(struct dw *d)
{
	srcline__free(d->sd);
	elf_end(d->elf);
	close(d->fd);
}

static bool ends_with(const char *s, const char *tail)
{
	size_t a = s ? strlen(s) : 0, b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

/* Somewhere in fix_caller is fix_inl's body: the chain is
 * fix_inl (at MARK:inl) <- fix_caller (at MARK:call). */
static void check_inline_chain(const char *fixture, const char *nm)
{
	int line_inl = lines_find("symfix.lines", "inl");
	int line_call = lines_find("symfix.lines", "call");
	struct srcline out[8];
	struct dw d;
	u64 addr, size;
	bool seen = false;

	ck_assert_int_gt(line_inl, 0);
	ck_assert(nm_find(nm, "fix_caller", &addr, &size));
	ck_assert(dw_open(&d, fixture));
	for (u64 a = addr; a < addr + size; a++) {
		int n = srcline__lookup(d.sd, a, out, ARRAY_SIZE(out), pool,
					SYMTAB_DEMANGLE);

		ck_assert_int_ge(n, 1);
		ck_assert(ends_with(out[0].file, "symfix.c"));
		ck_assert_str_eq(out[n - 1].func, "fix_caller");
		if (n != 2 || out[0].line != line_inl)
			continue;
		ck_assert_str_eq(out[0].func, "fix_inl");
		ck_assert(ends_with(out[1].file, "symfix.c"));
		ck_assert_int_eq(out[1].line, line_call);
		ck_assert_str_eq(out[1].func, "fix_caller");
		/* one frame asked, one given */
		ck_assert_int_eq(srcline__lookup(d.sd, a, out, 1, pool,
						 SYMTAB_DEMANGLE), 1);
		ck_assert_str_eq(out[0].func, "fix_inl");
		seen = true;
	}
	ck_assert_msg(seen, "no address of fix_caller is in fix_inl");
	dw_close(&d);
}

START_TEST(test_inline_chain)
{
	check_inline_chain("symfix-pie", "symfix-pie.nm");
	check_inline_chain("symfix", "symfix.nm");
	/* the separate debug file knows the same */
	check_inline_chain("symfix-dl.debug", "symfix-pie.nm");
}
END_TEST

/* Every frame of a, from sd and from ref alike; hits counts the
 * addresses with inlined frames. */
static void same_frames(struct srcline_dw *sd, struct srcline_dw *ref,
			u64 a, size_t *hits)
{
	struct srcline x[8], y[8];
	int n = srcline__lookup(sd, a, x, 8, pool, SYMTAB_DEMANGLE);
	int m = srcline__lookup(ref, a, y, 8, pool, SYMTAB_DEMANGLE);

	ck_assert_int_eq(n, m);
	for (int i = 0; i < n; i++) {
		ck_assert_ptr_eq(x[i].file, y[i].file);
		ck_assert_int_eq(x[i].line, y[i].line);
		ck_assert_ptr_eq(x[i].func, y[i].func);
		ck_assert_ptr_eq(x[i].dir, y[i].dir);
	}
	*hits += n > 1;
}

/* Lookups in a row within one function (annotate's pattern) start from
 * the function found last: the same frames as fresh lookups, whatever
 * the order, across functions. */
START_TEST(test_same_function_cache)
{
	static const char *const fns[] = { "fix_caller", "fix_leaf",
					   "fix_caller", "main" };
	struct dw seq, fresh;
	size_t hits = 0;
	u64 addr, size;

	ck_assert(dw_open(&seq, "symfix"));
	for (size_t f = 0; f < ARRAY_SIZE(fns); f++) {
		ck_assert(nm_find("symfix.nm", fns[f], &addr, &size));
		for (u64 a = addr; a < addr + size; a++) {
			ck_assert(dw_open(&fresh, "symfix"));
			same_frames(seq.sd, fresh.sd, a, &hits);
			dw_close(&fresh);
		}
	}
	ck_assert_uint_gt(hits, 0);	/* fix_inl, inlined in fix_caller */
	dw_close(&seq);
}
END_TEST

START_TEST(test_known_line)
{
	int line = lines_find("symfix.lines", "leaf");
	struct srcline out[4];
	struct dw d;
	u64 addr, size;
	bool seen = false;

	ck_assert(nm_find("symfix-pie.nm", "fix_leaf", &addr, &size));
	ck_assert(dw_open(&d, "symfix-pie"));
	for (u64 a = addr; a < addr + size; a++) {
		int n = srcline__lookup(d.sd, a, out, 4, pool, SYMTAB_DEMANGLE);

		ck_assert_int_eq(n, 1);
		ck_assert_str_eq(out[0].func, "fix_leaf");
		/* the body is one line, after the opening lines */
		ck_assert_int_ge(out[0].line, line - 2);
		ck_assert_int_le(out[0].line, line + 1);
		seen |= out[0].line == line;
	}
	ck_assert(seen);
	/* strings are interned: the same pointers again */
	ck_assert_int_eq(srcline__lookup(d.sd, addr, out, 1, pool,
					 SYMTAB_DEMANGLE), 1);
	const char *f = out[0].file;

	ck_assert_int_eq(srcline__lookup(d.sd, addr + 1, out, 1, pool,
					 SYMTAB_DEMANGLE), 1);
	ck_assert_ptr_eq(out[0].file, f);
	/* no code there */
	ck_assert_int_eq(srcline__lookup(d.sd, 0x10, out, 4, pool,
					 SYMTAB_DEMANGLE), 0);
	ck_assert_int_eq(srcline__lookup(d.sd, UINT64_MAX, out, 4, pool,
					 SYMTAB_DEMANGLE), 0);
	ck_assert_int_eq(srcline__lookup(d.sd, addr, out, 0, pool,
					 SYMTAB_DEMANGLE), 0);
	dw_close(&d);
}
END_TEST

START_TEST(test_no_dwarf)
{
	struct dw d;

	ck_assert(!dw_open(&d, "symfix-stripped"));
	ck_assert_int_eq(errno, ENODATA);
	dw_close(&d);
	ck_assert_ptr_null(srcline__new(NULL, -1));
	srcline__free(NULL);
}
END_TEST

/* DWARF cut short anywhere: answers or not, never a crash */
START_TEST(test_truncated_dwarf)
{
	size_t len = 0;
	char *img = slurp(test_fixture("symfix-dl.debug"), &len);
	struct srcline out[8];
	u64 addr, size;

	ck_assert_ptr_nonnull(img);
	ck_assert(nm_find("symfix-pie.nm", "fix_caller", &addr, &size));
	for (size_t cut = len / 2; cut <= len; cut += 97) {
		char *copy = malloc(cut);
		struct srcline_dw *sd;
		Elf *elf;

		memcpy(copy, img, cut);
		elf = elfsym__open_mem(copy, cut);
		sd = elf ? srcline__new(elf, -1) : NULL;
		for (u64 a = addr; sd && a < addr + size; a += 7)
			srcline__lookup(sd, a, out, 8, pool, SYMTAB_DEMANGLE);
		srcline__free(sd);
		if (elf)
			elf_end(elf);
		free(copy);
	}
	/* bytes flipped in the DWARF sections' area */
	for (int round = 0; round < 40; round++) {
		char *copy = malloc(len);
		struct srcline_dw *sd;
		Elf *elf;

		memcpy(copy, img, len);
		for (int k = 0; k < 8; k++) {
			size_t at = (size_t)(round * 7919 + k * 104729) % len;

			copy[at] ^= (char)(0x5a + round);
		}
		elf = elfsym__open_mem(copy, len);
		sd = elf ? srcline__new(elf, -1) : NULL;
		for (u64 a = addr; sd && a < addr + size; a += 5)
			srcline__lookup(sd, a, out, 8, pool, SYMTAB_DEMANGLE);
		srcline__free(sd);
		if (elf)
			elf_end(elf);
		free(copy);
	}
	free(img);
}
END_TEST

/* Copies a fixture to path (a file of the test's). */
static void copy_fixture(const char *fixture, const char *path)
{
	size_t len = 0;
	char *img = slurp(test_fixture(fixture), &len);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	ck_assert_ptr_nonnull(img);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, img, len), (ssize_t)len);
	close(fd);
	free(img);
}

/*
 * The file of a DWARF handle cut (truncate) or rewritten in place (cp of
 * another build over it) while the handle lives, as the files of other
 * users' processes can be: no SIGBUS, and no answer from the new bytes
 * (-ESTALE) but those read before.
 */
START_TEST(test_changed_under)
{
	char path[] = "/tmp/ptop-srcline-XXXXXX";
	struct srcline out[8];
	u64 addr, size;
	int tmp = mkstemp(path);

	ck_assert_int_ge(tmp, 0);
	close(tmp);
	ck_assert(nm_find("symfix-pie.nm", "fix_caller", &addr, &size));
	for (int how = 0; how < 2; how++) {
		struct srcline_dw *sd;
		Elf *elf;
		int fd, n;

		copy_fixture("symfix-pie", path);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		ck_assert_int_ge(fd, 0);
		elf = elfsym__map_fd(fd);
		ck_assert_ptr_nonnull(elf);
		sd = srcline__new(elf, fd);
		ck_assert_ptr_nonnull(sd);
		n = srcline__lookup(sd, addr, out, 8, pool, 0);
		ck_assert_int_ge(n, 1);
		ck_assert_str_eq(out[n - 1].func, "fix_caller");
		if (how == 0)
			ck_assert_int_eq(truncate(path, 4096), 0);
		else
			copy_fixture("annfix", path);
		for (u64 a = addr + 1; a < addr + size; a++)
			ck_assert_int_eq(srcline__lookup(sd, a, out, 8, pool, 0),
					 -ESTALE);
		srcline__free(sd);
		elf_end(elf);
		close(fd);
	}
	unlink(path);
}
END_TEST

/* The indexes (CUs by address, each CU's functions) find what the walk
 * from the root finds, at addresses spread over a binary of many CUs and
 * inlined functions (the runner itself), with its .debug_aranges and
 * without (then every CU is found through the CU index). */
static void check_index(const char *path)
{
	int fd = open(path, O_RDONLY), fd2 = open(path, O_RDONLY);
	Elf *elf, *elf2;
	struct srcline_dw *sd, *ref;
	size_t shstrndx, hits = 0;
	Elf_Scn *scn = NULL;
	u64 lo = 0, hi = 0;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(fd2, 0);
	elf = elfsym__open_fd(fd);
	elf2 = elfsym__open_fd(fd2);
	ck_assert_ptr_nonnull(elf);
	ck_assert_ptr_nonnull(elf2);
	ck_assert_int_eq(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		ck_assert_ptr_nonnull(gelf_getshdr(scn, &sh));
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".text")) {
			lo = sh.sh_addr;
			hi = sh.sh_addr + sh.sh_size;
		}
	}
	ck_assert_uint_gt(hi, lo);
	sd = srcline__new(elf, -1);
	ref = srcline__new(elf2, -1);
	ck_assert_ptr_nonnull(sd);
	ck_assert_ptr_nonnull(ref);
	srcline__no_index(ref);
	/* an odd stride: every CU, and addresses at all offsets; then past
	 * the ends */
	for (u64 a = lo; a < hi; a += 997)
		same_frames(sd, ref, a, &hits);
	same_frames(sd, ref, lo - 1, &hits);
	same_frames(sd, ref, hi, &hits);
	same_frames(sd, ref, 0, &hits);
	/* inlined frames were met, so the scope walk was tried */
	ck_assert_uint_gt(hits, 10);
	srcline__free(sd);
	srcline__free(ref);
	elf_end(elf);
	elf_end(elf2);
	close(fd);
	close(fd2);
}

START_TEST(test_index_same_as_walk)
{
	char noar[] = "/tmp/ptop-noaranges-XXXXXX", cmd[256];
	int fd = mkstemp(noar);

	check_index("/proc/self/exe");
	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "objcopy --remove-section=.debug_aranges /proc/%d/exe %s",
		 (int)getpid(), noar);
	ck_assert_int_eq(system(cmd), 0);
	check_index(noar);
	unlink(noar);
}
END_TEST

Suite *srcline_suite(void)
{
	Suite *s = suite_create("srcline");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_inline_chain);
	tcase_add_test(tc, test_known_line);
	tcase_add_test(tc, test_same_function_cache);
	tcase_add_test(tc, test_index_same_as_walk);
	tcase_add_test(tc, test_no_dwarf);
	tcase_add_test(tc, test_truncated_dwarf);
	tcase_add_test(tc, test_changed_under);
	suite_add_tcase(s, tc);
	return s;
}
