/* check_kallsyms: kernel and module symbols, sizes, kptr_restrict. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/core/log.h"
#include "symbols/kallsyms.h"
#include "symbols/symbolizer.h"
#include "symbols/symtab.h"
#include "tests/testutil.h"

static struct strpool *pool;

static void setup(void)
{
	pool = strpool__new();
}

static void teardown(void)
{
	strpool__free(pool);
}

static void expect(struct kallsyms *ks, u64 addr, const char *name,
		   u64 start, u64 size, const char *dso)
{
	struct symtab_hit hit;

	ck_assert_int_eq(symtab__lookup(ks->st, addr, &hit), 0);
	ck_assert_str_eq(hit.name, name);
	ck_assert_uint_eq(hit.start, start);
	ck_assert_uint_eq(hit.size, size);
	ck_assert_uint_eq(hit.flags, SYM_F_KERNEL);
	ck_assert_str_eq(kallsyms__dso_name(ks, hit.group), dso);
}

START_TEST(test_normal)
{
	struct kallsyms *ks = kallsyms__load(test_fixture("kallsyms.normal"),
					     pool);
	struct symtab_hit hit;

	ck_assert_ptr_nonnull(ks);
	ck_assert(!ks->restricted);
	ck_assert_uint_eq(ks->nr_lines, 13);
	/* "garbage line" and the absolute symbol */
	ck_assert_uint_eq(ks->nr_bad, 2);
	/* _stext and startup_64 share an address: fewer underscores win */
	expect(ks, 0xffffffff81000050, "startup_64", 0xffffffff81000000,
	       0x100, "[kernel.kallsyms]");
	expect(ks, 0xffffffff81000100, "early_helper", 0xffffffff81000100,
	       0x80, "[kernel.kallsyms]");
	expect(ks, 0xffffffff810003ff, "do_syscall_64", 0xffffffff81000180,
	       0x280, "[kernel.kallsyms]");
	expect(ks, 0xffffffff81000400, "weak_text", 0xffffffff81000400, 0x80,
	       "[kernel.kallsyms]");
	/* data ends the text before it and is not a symbol itself */
	ck_assert_int_eq(symtab__lookup(ks->st, 0xffffffff81000480, &hit),
			 -ENOENT);
	/* the last kernel symbol does not run into the modules */
	expect(ks, 0xffffffff81001000, "_etext", 0xffffffff81001000, 0x1000,
	       "[kernel.kallsyms]");
	ck_assert_int_eq(symtab__lookup(ks->st, 0xffffffff81002000, &hit),
			 -ENOENT);
	expect(ks, 0xffffffffc0001010, "mod_a_fn", 0xffffffffc0001000, 0x200,
	       "[mod_a]");
	expect(ks, 0xffffffffc0001200, "mod_a_fn2", 0xffffffffc0001200, 0x100,
	       "[mod_a]");
	expect(ks, 0xffffffffc0002fff, "mod_b_fn", 0xffffffffc0002000,
	       0x1000, "[mod_b]");
	ck_assert_uint_eq(ks->nr_mods, 2);
	kallsyms__free(ks);
}
END_TEST

START_TEST(test_restricted)
{
	struct kallsyms *ks = kallsyms__load(
		test_fixture("kallsyms.restricted"), pool);

	ck_assert_ptr_nonnull(ks);
	ck_assert(ks->restricted);
	ck_assert_uint_eq(symtab__count(ks->st), 0);
	kallsyms__free(ks);
}
END_TEST

START_TEST(test_missing)
{
	errno = 0;
	ck_assert_ptr_null(kallsyms__load(test_fixture("no-such-kallsyms"),
					  pool));
	ck_assert_int_eq(errno, ENOENT);
	kallsyms__free(NULL);
}
END_TEST

START_TEST(test_hostile_text)
{
	static const char *texts[] = {
		"",
		"\n\n\n",
		"ffffffffffffffffff T too_many_digits\n",
		"ffffffff81000000 T\n",
		"ffffffff81000000 T \n",
		"ffffffff81000000Tnospace\n",
		"ffffffff81000000 t unterminated_module\t[mod",
		"ffffffff81000000 t empty_module\t[]\n",
		"ffffffff81000000 t no_newline_at_end",
		"ffffffffffffffff T at_the_top\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		struct kallsyms *ks = kallsyms__parse(texts[i],
						      strlen(texts[i]), pool);
		struct symtab_hit hit;

		ck_assert_ptr_nonnull(ks);
		symtab__lookup(ks->st, 0xffffffff81000000, &hit);
		kallsyms__free(ks);
	}
	/* a NUL in the middle of the text */
	{
		const char text[] = "ffffffff81000000 T a\0b\n"
				    "ffffffff81000100 T c\n";
		struct kallsyms *ks = kallsyms__parse(text, sizeof(text) - 1,
						      pool);
		struct symtab_hit hit;

		ck_assert_ptr_nonnull(ks);
		ck_assert_int_eq(symtab__lookup(ks->st, 0xffffffff81000100,
						&hit),
				 0);
		ck_assert_str_eq(hit.name, "c");
		kallsyms__free(ks);
	}
}
END_TEST

/* the real one, when readable: every text symbol of it resolves */
/* Loading in chunks gives what parsing the whole text gives, with lines
 * across every chunk boundary and one line longer than a chunk. */
START_TEST(test_chunked_load)
{
	char path[] = "/tmp/ptop-kallsyms-XXXXXX";
	int fd = mkstemp(path);
	struct strbuf text;
	struct kallsyms *a, *b;

	ck_assert_int_ge(fd, 0);
	strbuf__init(&text);
	for (unsigned int i = 0; i < 20000; i++) {
		strbuf__addf(&text, "%016x T func_%u_%.*s\n", 0x81000000u + i * 16, i,
			     (int)(i % 37), "abcdefghijklmnopqrstuvwxyzabcdefghijk");
		if (i == 7000) {
			/* a line of 100 KiB, longer than the chunk */
			strbuf__adds(&text, "ffffffff81f00000 T ");
			for (int k = 0; k < 100 * 1024; k++)
				strbuf__addc(&text, 'x');
			strbuf__addc(&text, '\n');
		}
	}
	/* the last line has no newline */
	strbuf__adds(&text, "0000000081f00000 T last_one");
	ck_assert_int_eq(write(fd, text.buf, text.len), (ssize_t)text.len);
	close(fd);
	a = kallsyms__parse(text.buf, text.len, pool);
	b = kallsyms__load(path, pool);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(symtab__count(a->st), symtab__count(b->st) + 1);
	ck_assert_uint_eq(b->nr_lines, 20002);
	ck_assert_uint_eq(b->nr_bad, 1);	/* the long line */
	for (unsigned int i = 0; i < 20000; i += 997) {
		struct symtab_hit ha, hb;
		u64 addr = 0x81000000u + i * 16 + 4;

		ck_assert_int_eq(symtab__lookup(a->st, addr, &ha), 0);
		ck_assert_int_eq(symtab__lookup(b->st, addr, &hb), 0);
		ck_assert_str_eq(ha.name, hb.name);
		ck_assert_uint_eq(ha.start, hb.start);
	}
	{	/* the last line, without its newline, is read too */
		struct symtab_hit hb;

		ck_assert_int_eq(symtab__lookup(b->st, 0x81f00000, &hb), 0);
		ck_assert_str_eq(hb.name, "last_one");
	}
	kallsyms__free(a);
	kallsyms__free(b);
	strbuf__fini(&text);
	unlink(path);
}
END_TEST

START_TEST(test_proc)
{
	struct kallsyms *ks = kallsyms__load("/proc/kallsyms", pool);

	if (!ks && access("/proc/kallsyms", R_OK))
		test_skip("no /proc/kallsyms in this sandbox");
	ck_assert_ptr_nonnull(ks);
	if (!ks->restricted)
		ck_assert_uint_gt(symtab__count(ks->st), 1000);
	kallsyms__free(ks);
}
END_TEST

/* ---- the cache of one boot's table ---- */

static char kc_dir[64], kc_boot[128], kc_text[128], kc_mods[128];
static char kc_file[256];
static struct kallsyms_cache kc;

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void kc_setup_dir(void)
{
	static char cache_dir[128];

	snprintf(cache_dir, sizeof(cache_dir), "%s/cache", kc_dir);
	kc.dir = cache_dir;
}

static void kc_setup(void)
{
	struct strbuf t;

	snprintf(kc_dir, sizeof(kc_dir), "/tmp/ptop-kc-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(kc_dir));
	snprintf(kc_boot, sizeof(kc_boot), "%s/boot_id", kc_dir);
	snprintf(kc_text, sizeof(kc_text), "%s/kallsyms", kc_dir);
	snprintf(kc_mods, sizeof(kc_mods), "%s/modules", kc_dir);
	write_file(kc_boot, "0123abcd-0123-4567-89ab-0123456789ab\n");
	write_file(kc_mods, "mod_a 16384 0 - Live 0xffffffffc0001000\n");
	strbuf__init(&t);
	for (unsigned int i = 0; i < 3000; i++) {
		strbuf__addf(&t, "%016llx %c sym_%u\n",
			     0xffffffff81000000ull + i * 32, i % 5 ? 't' : 'T',
			     i);
		if (i % 100 == 7)	/* data ends the text before it */
			strbuf__addf(&t, "%016llx D data_%u\n",
				     0xffffffff81000000ull + i * 32 + 16, i);
	}
	strbuf__adds(&t, "ffffffffc0001000 t mod_a_fn\t[mod_a]\n"
			 "ffffffffc0001200 t mod_a_fn2\t[mod_a]\n"
			 "ffffffffc0002000 T mod_b_fn\t[mod_b]\n");
	write_file(kc_text, t.buf);
	strbuf__fini(&t);
	snprintf(kc_file, sizeof(kc_file), "%s/cache/kallsyms-%s", kc_dir,
		 "0123abcd-0123-4567-89ab-0123456789ab");
	kc = (struct kallsyms_cache){ .boot_id = kc_boot,
				      .notes = "/nonexistent/notes",
				      .modules = kc_mods };
	kc_setup_dir();
	setup();
}

static void kc_teardown(void)
{
	char cmd[128];

	teardown();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", kc_dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Loads through the cache and checks every address against a parse of
 * the text: the same symbol, bounds and module for each. */
static enum kallsyms_from kc_load_check(void)
{
	struct kallsyms *ref = kallsyms__load(kc_text, pool), *ks;
	enum kallsyms_from from;

	ks = kallsyms__load_cached(kc_text, &kc, pool, &from);
	ck_assert_ptr_nonnull(ref);
	ck_assert_ptr_nonnull(ks);
	ck_assert_uint_eq(kallsyms__count(ks), kallsyms__count(ref));
	for (u64 a = 0xffffffff80fffff0ull; a < 0xffffffff81000000ull + 3000 * 32 + 64;
	     a += 24) {
		struct symtab_hit h1, h2;
		int r1 = kallsyms__lookup(ref, a, &h1);
		int r2 = kallsyms__lookup(ks, a, &h2);

		ck_assert_int_eq(r1, r2);
		if (r1)
			continue;
		test_same_hit(&h1, &h2);
		ck_assert_str_eq(kallsyms__dso_name(ref, h1.group),
				 kallsyms__dso_name(ks, h2.group));
	}
	for (u64 a = 0xffffffffc0001000ull; a < 0xffffffffc0003000ull; a += 64) {
		struct symtab_hit h1, h2;
		int r1 = kallsyms__lookup(ref, a, &h1);

		ck_assert_int_eq(kallsyms__lookup(ks, a, &h2), r1);
		if (!r1) {
			ck_assert_str_eq(h1.name, h2.name);
			ck_assert_uint_eq(h1.size, h2.size);
			ck_assert_str_eq(kallsyms__dso_name(ref, h1.group),
					 kallsyms__dso_name(ks, h2.group));
		}
	}
	for (size_t i = 0; i < kallsyms__count(ks); i += 101) {
		struct symtab_hit h1, h2;

		ck_assert_int_eq(kallsyms__at(ref, i, &h1), 0);
		ck_assert_int_eq(kallsyms__at(ks, i, &h2), 0);
		ck_assert_str_eq(h1.name, h2.name);
		ck_assert_uint_eq(h1.start, h2.start);
	}
	ck_assert(!ks->restricted);
	/* a table saved is served from its file, the parse let go */
	if (from != KALLSYMS_PARSED)
		ck_assert_ptr_nonnull(ks->mf);
	kallsyms__free(ref);
	kallsyms__free(ks);
	return from;
}

/* Where a load through the cache came from, without the comparison. */
static enum kallsyms_from kc_from(void)
{
	enum kallsyms_from from;
	struct kallsyms *ks = kallsyms__load_cached(kc_text, &kc, pool, &from);

	ck_assert_ptr_nonnull(ks);
	kallsyms__free(ks);
	return from;
}

static size_t file_size(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return (size_t)st.st_size;
}

START_TEST(test_cache_valid)
{
	struct stat st;

	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	ck_assert_int_eq(stat(kc_file, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0600);
	ck_assert_int_eq(stat(kc.dir, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0700);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_CACHED);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_CACHED);
	/* no cache directory: parsed, as before */
	kc.dir = NULL;
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED);
}
END_TEST

/* kallsyms__make_cache (a first run's worker): writes the file that
 * kallsyms__load_cached then maps as it maps any; leaves a file that is
 * there alone, and writes nothing for a hidden kallsyms or without a
 * directory. */
START_TEST(test_cache_made_ahead)
{
	struct stat st;
	size_t size;

	kallsyms__make_cache(kc_text, &kc);
	ck_assert_int_eq(stat(kc_file, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0600);
	size = (size_t)st.st_size;
	ck_assert_int_eq(kc_load_check(), KALLSYMS_CACHED);
	/* a damaged file is left for the load to report and make again */
	ck_assert_int_eq(truncate(kc_file, 64), 0);
	kallsyms__make_cache(kc_text, &kc);
	ck_assert_uint_eq(file_size(kc_file), 64);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	ck_assert_uint_eq(file_size(kc_file), size);
	/* no directory, a hidden kallsyms: nothing written */
	ck_assert_int_eq(unlink(kc_file), 0);
	kc.dir = NULL;
	kallsyms__make_cache(kc_text, &kc);
	ck_assert_int_eq(access(kc_file, F_OK), -1);
	kc_setup_dir();
	write_file(kc_text, "0000000000000000 T _stext\n"
			    "0000000000000000 T do_syscall_64\n");
	kallsyms__make_cache(kc_text, &kc);
	ck_assert_int_eq(access(kc_file, F_OK), -1);
}
END_TEST

START_TEST(test_cache_stale)
{
	char other[256];

	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	/* a reboot: another boot id, another file */
	write_file(kc_boot, "fedcba98-0123-4567-89ab-0123456789ab\n");
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_CACHED);
	snprintf(other, sizeof(other), "%s/cache/kallsyms-%s", kc_dir,
		 "fedcba98-0123-4567-89ab-0123456789ab");
	ck_assert_int_eq(access(other, R_OK), 0);
	/* the old boot's file renamed to the new boot's name: refused (the
	 * boot id inside differs) */
	ck_assert_int_eq(rename(kc_file, other), 0);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	/* a module loaded since: refused */
	write_file(kc_mods, "mod_a 16384 0 - Live 0xffffffffc0001000\n"
			    "mod_c 4096 0 - Live 0xffffffffc0009000\n");
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_CACHED);
	/* the kernel hides addresses now: no cache used, none written */
	write_file(kc_text, "0000000000000000 T _stext\n"
			    "0000000000000000 T do_syscall_64\n");
	{
		enum kallsyms_from from;
		struct kallsyms *ks = kallsyms__load_cached(kc_text, &kc, pool,
							    &from);

		ck_assert_ptr_nonnull(ks);
		ck_assert(ks->restricted);
		ck_assert_uint_eq(kallsyms__count(ks), 0);
		ck_assert_int_eq(from, KALLSYMS_PARSED);
		kallsyms__free(ks);
	}
}
END_TEST

START_TEST(test_cache_truncated)
{
	size_t size, cuts[] = { 0, 1, 8, 100, 127, 128, 129, 0, 0, 0 };
	int fd;

	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	size = file_size(kc_file);
	cuts[7] = size / 2;
	cuts[8] = size - 1;
	cuts[9] = size - 32;
	for (size_t i = 0; i < ARRAY_SIZE(cuts); i++) {
		ck_assert_int_eq(truncate(kc_file, (off_t)cuts[i]), 0);
		ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
		ck_assert_uint_eq(file_size(kc_file), size);
		ck_assert_int_eq(kc_load_check(), KALLSYMS_CACHED);
	}
	/* one byte more: refused too */
	fd = open(kc_file, O_WRONLY | O_APPEND);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "x", 1), 1);
	close(fd);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
}
END_TEST

static void poke(size_t off, const void *v, size_t len)
{
	int fd = open(kc_file, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, v, len, (off_t)off), (ssize_t)len);
	close(fd);
}

static void peek(size_t off, void *v, size_t len)
{
	int fd = open(kc_file, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, v, len, (off_t)off), (ssize_t)len);
	close(fd);
}

/*
 * The file's layout (kallsyms.c): a 136-byte header (magic 0, version 8,
 * header size 12, boot id 16, build-id 56, its size 76, padding 80-87,
 * modules hash 88, nr_syms 96, nr_mods 104, str_size 112, file_size
 * 120, checksum 128), then 32-byte symbols (addr 0, size 8, name_off
 * 16, name_len 20, group 24), module names (8 bytes each), strings.
 */
#define KC_HDR 136
/* A byte of a name changed at rest (one flipped bit): the checksum
 * refuses the file, which is said once and made again. */
START_TEST(test_cache_damaged_name)
{
	struct symtab_hit hit;
	struct kallsyms *ks;
	enum kallsyms_from from;
	size_t size;
	u8 b;

	test_log_capture();
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	ck_assert_int_eq(test_warnings, 0);
	size = file_size(kc_file);
	peek(size - 3, &b, 1);	/* in the strings, "mod_b" at the end */
	b ^= 0x02;
	poke(size - 3, &b, 1);
	ks = kallsyms__load_cached(kc_text, &kc, pool, &from);
	ck_assert_ptr_nonnull(ks);
	ck_assert_int_eq(from, KALLSYMS_PARSED_SAVED);
	ck_assert_int_eq(test_warnings, 1);
	ck_assert_ptr_nonnull(strstr(test_last_warning, "damaged"));
	ck_assert_int_eq(kallsyms__lookup(ks, 0xffffffff81000000ull + 10 * 32,
					  &hit), 0);
	ck_assert_str_eq(hit.name, "sym_10");
	kallsyms__free(ks);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_CACHED);
	log__set_handler(NULL, NULL);
}
END_TEST

/* The cache file cut or rewritten in place while its table is in use: no
 * SIGBUS, no name from the new bytes; every lookup then answers -ESTALE
 * (the symbolizer loads the table again). */
START_TEST(test_cache_changed_in_use)
{
	const u64 a = 0xffffffff81000000ull + 10 * 32 + 4;
	struct symtab_hit hit;
	struct kallsyms *ks;
	enum kallsyms_from from;
	size_t size;
	u8 b;

	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	size = file_size(kc_file);
	for (int how = 0; how < 3; how++) {
		ks = kallsyms__load_cached(kc_text, &kc, pool, &from);
		ck_assert_ptr_nonnull(ks);
		ck_assert_int_eq(from, KALLSYMS_CACHED);
		ck_assert_int_eq(kallsyms__lookup(ks, a, &hit), 0);
		ck_assert_str_eq(hit.name, "sym_10");
		if (how == 0) {
			ck_assert_int_eq(truncate(kc_file, 0), 0);
		} else if (how == 1) {
			ck_assert_int_eq(truncate(kc_file, KC_HDR + 64), 0);
		} else {
			/* the same size, another byte: "sym_10" -> "sym_11" */
			peek(size - 400, &b, 1);
			b ^= 1;
			poke(size - 400, &b, 1);
		}
		/* everywhere in the table, the names' end included */
		ck_assert_int_eq(kallsyms__lookup(ks, a, &hit), -ESTALE);
		ck_assert_ptr_null(hit.name);
		ck_assert_int_eq(kallsyms__lookup(ks, 0xffffffffc0001200ull,
						  &hit), -ESTALE);
		ck_assert_int_eq(kallsyms__at(ks, 2999, &hit), -ESTALE);
		kallsyms__free(ks);
		/* made again, whole */
		ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	}
}
END_TEST

START_TEST(test_cache_hostile)
{
	const u64 huge = 0x4000000000000000ull;
	const u32 big = 0xfffffff0u;
	const u16 group = 500;
	u8 orig[KC_HDR], b;
	char tgt[256];

	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	peek(0, orig, sizeof(orig));
	/* every header byte but the padding is checked */
	for (size_t off = 0; off < KC_HDR; off++) {
		if (off >= 80 && off < 88)
			continue;
		b = orig[off] ^ 0x40;
		poke(off, &b, 1);
		ck_assert_msg(kc_from() == KALLSYMS_PARSED_SAVED, "byte %zu",
			      off);
	}
	/* counts that overflow or do not add up */
	poke(96, &huge, 8);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	poke(112, &huge, 8);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	/* a name outside the file, a long name, an unknown module, addresses
	 * out of order */
	poke(KC_HDR + 5 * 32 + 16, &big, 4);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	poke(KC_HDR + 5 * 32 + 20, &big, 4);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	poke(KC_HDR + 5 * 32 + 24, &group, 2);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	poke(KC_HDR + 5 * 32, &huge, 8);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_CACHED);
	/* a symlink in place of the file is not followed (and replaced) */
	snprintf(tgt, sizeof(tgt), "%s/target", kc_dir);
	ck_assert_int_eq(rename(kc_file, tgt), 0);
	ck_assert_int_eq(symlink(tgt, kc_file), 0);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED_SAVED);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_CACHED);
	/* a directory others can write to is not used */
	ck_assert_int_eq(chmod(kc.dir, 0777), 0);
	ck_assert_int_eq(kc_load_check(), KALLSYMS_PARSED);
}
END_TEST

Suite *kallsyms_suite(void)
{
	Suite *s = suite_create("kallsyms");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_normal);
	tcase_add_test(tc, test_restricted);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_hostile_text);
	tcase_add_test(tc, test_chunked_load);
	tcase_add_test(tc, test_proc);
	suite_add_tcase(s, tc);
	tc = tcase_create("cache");
	tcase_add_checked_fixture(tc, kc_setup, kc_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_cache_valid);
	tcase_add_test(tc, test_cache_stale);
	tcase_add_test(tc, test_cache_made_ahead);
	tcase_add_test(tc, test_cache_truncated);
	tcase_add_test(tc, test_cache_hostile);
	tcase_add_test(tc, test_cache_damaged_name);
	tcase_add_test(tc, test_cache_changed_in_use);
	suite_add_tcase(s, tc);
	return s;
}
