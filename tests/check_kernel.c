/* check_kernel: the running kernel's files (src/sys/kernel), read from
 * files made like them: the kernel's maps (as the perf.data writer
 * writes them), its build-id, kallsyms in chunks, a hidden kallsyms. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/sys/kernel.h"

static char dir[] = "/tmp/ptop-kernel-XXXXXX";
static char ks[64], mods[64], notes[64];

static void put(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

static void puts_(const char *path, const char *text)
{
	put(path, text, strlen(text));
}

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	snprintf(mods, sizeof(mods), "%s/modules", dir);
	snprintf(notes, sizeof(notes), "%s/notes", dir);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(dir, "/tmp/ptop-kernel-XXXXXX");
}

START_TEST(test_maps)
{
	struct kernel_map *m;
	size_t nr;

	/* no _etext: the text ends at its last text symbol; a module's
	 * symbols and data symbols do not count; a module whose address
	 * is hidden is left out */
	puts_(ks, "ffffffff81000000 T _text\n"
		  "ffffffff81000100 t helper\n"
		  "ffffffff81300000 D some_data\n"
		  "ffffffff81200000 T last_text\n"
		  "ffffffffc1000000 t mod_fn\t[big]\n");
	puts_(mods, "big 16384 0 - Live 0xffffffffc1000000\n"
		    "hidden 8192 0 - Live 0x0000000000000000\n"
		    "garbage\n"
		    "small 4096 1 big, Live 0xffffffffc2000000 (O)");
	ck_assert_int_eq(kernel__maps(ks, mods, &m, &nr), 0);
	ck_assert_uint_eq(nr, 3);
	ck_assert_str_eq(m[0].name, "[kernel.kallsyms]_text");
	ck_assert_uint_eq(m[0].start, 0xffffffff81000000ull);
	ck_assert_uint_eq(m[0].pgoff, 0xffffffff81000000ull);
	ck_assert_uint_eq(m[0].len, 0x200000);
	ck_assert_str_eq(m[1].name, "[big]");
	ck_assert_uint_eq(m[1].start, 0xffffffffc1000000ull);
	ck_assert_uint_eq(m[1].len, 16384);
	ck_assert_uint_eq(m[1].pgoff, 0);
	ck_assert_str_eq(m[2].name, "[small]");
	ck_assert_uint_eq(m[2].len, 4096);
	free(m);

	/* _etext given: the text ends there */
	puts_(ks, "ffffffff81000000 T _text\n"
		  "ffffffff81500000 T after\n"
		  "ffffffff81400000 T _etext");
	ck_assert_int_eq(kernel__maps(ks, mods, &m, &nr), 0);
	ck_assert_uint_eq(m[0].len, 0x400000);
	free(m);

	/* hidden (kptr_restrict) or absent: no maps at all */
	puts_(ks, "0000000000000000 T _text\n0000000000000000 T _etext\n");
	ck_assert_int_eq(kernel__maps(ks, mods, &m, &nr), 0);
	ck_assert_uint_eq(nr, 0);
	ck_assert_ptr_null(m);
	snprintf(ks, sizeof(ks), "%s/none", dir);
	ck_assert_int_eq(kernel__maps(ks, mods, &m, &nr), 0);
	ck_assert_uint_eq(nr, 0);
}
END_TEST

START_TEST(test_build_id)
{
	/* namesz 4, descsz 20, NT_GNU_BUILD_ID, "GNU\0", the id */
	u8 note[12 + 4 + 20], bid[20];
	const u32 hdr[3] = { 4, 20, 3 };

	memcpy(note, hdr, 12);
	memcpy(note + 12, "GNU", 4);
	for (int i = 0; i < 20; i++)
		note[16 + i] = (u8)(0xa0 + i);
	put(notes, note, sizeof(note));
	ck_assert_int_eq(kernel__build_id(notes, bid, sizeof(bid)), 20);
	ck_assert_int_eq(memcmp(bid, note + 16, 20), 0);
	/* truncated notes, no notes: none */
	put(notes, note, 20);
	ck_assert_int_eq(kernel__build_id(notes, bid, sizeof(bid)), 0);
	snprintf(notes, sizeof(notes), "%s/none", dir);
	ck_assert_int_eq(kernel__build_id(notes, bid, sizeof(bid)), 0);
}
END_TEST

struct lines {
	size_t lines, too_long, calls;
	bool final_seen;
};

static long count_lines(void *ctx, const char *text, size_t len, bool final)
{
	struct lines *l = ctx;
	size_t used = 0;

	l->calls++;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n') {
			l->lines++;
			used = i + 1;
		}
	if (final) {
		l->final_seen = true;
		if (used < len)
			l->lines++;
		used = len;
	}
	return (long)used;
}

static void count_too_long(void *ctx)
{
	((struct lines *)ctx)->too_long++;
}

START_TEST(test_kallsyms_chunks)
{
	struct lines n = { 0 };
	const struct kernel_lines l = {
		.lines = count_lines, .too_long = count_too_long, .ctx = &n,
	};
	size_t len = 300 << 10, i = 0;
	char *text = malloc(len);

	ck_assert_ptr_nonnull(text);
	/* 100 KiB of short lines, one line of 100 KiB, 100 KiB of short
	 * lines, the last without its newline */
	while (i < (100u << 10))
		i += (size_t)sprintf(text + i, "%016x T f\n", (unsigned)i);
	memset(text + i, 'x', 100u << 10);
	i += 100u << 10;
	text[i++] = '\n';
	while (i < len - 32)
		i += (size_t)sprintf(text + i, "%016x T g\n", (unsigned)i);
	i += (size_t)sprintf(text + i, "ffff T last");
	put(ks, text, i);
	ck_assert_int_eq(kernel__kallsyms(ks, &l), 0);
	ck_assert_uint_eq(n.too_long, 1);
	ck_assert(n.final_seen);
	ck_assert_uint_gt(n.calls, 4);
	/* every short line, the last one too, none of the long one */
	ck_assert_uint_eq(n.lines, (len - (100u << 10)) / 21);
	free(text);
	snprintf(ks, sizeof(ks), "%s/none", dir);
	ck_assert_int_eq(kernel__kallsyms(ks, &l), -ENOENT);
}
END_TEST

/* What lines() took, in order (kallsyms read ahead on a thread of its
 * own: chunks handed over whole and in turn). */
struct taken {
	struct strbuf sb;
	size_t stop_at;		/* -EIO once this much was taken; 0: never */
};

static long take_lines(void *ctx, const char *text, size_t len, bool final)
{
	struct taken *t = ctx;
	const char *nl = len ? memrchr(text, '\n', len) : NULL;
	size_t used = final ? len : nl ? (size_t)(nl + 1 - text) : 0;

	if (t->stop_at && t->sb.len >= t->stop_at)
		return -EIO;
	ck_assert_int_eq(strbuf__add(&t->sb, text, used), 0);
	return (long)used;
}

/* The file's bytes reach lines() whole and in order, at any length (a
 * multiple of the chunk: its end is an empty read); a stop from lines()
 * ends the read with its error. */
START_TEST(test_kallsyms_order)
{
	const size_t lens[] = { 0, 21, 64u << 10, 256u << 10,
				(1u << 20) + 7 };

	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		struct taken t = { .stop_at = 0 };
		const struct kernel_lines l = { .lines = take_lines, .ctx = &t };
		char *text = malloc(lens[k] + 1);
		size_t i = 0;

		ck_assert_ptr_nonnull(text);
		/* lines of 21 bytes, each its own, then filler to the length */
		while (i + 21 <= lens[k])
			i += (size_t)sprintf(text + i, "%016zx T %c\n", i,
					     'a' + (int)(i / 21 % 26));
		while (i < lens[k])
			text[i++] = 'z';
		put(ks, text, lens[k]);
		strbuf__init(&t.sb);
		ck_assert_int_eq(kernel__kallsyms(ks, &l), 0);
		ck_assert_uint_eq(t.sb.len, lens[k]);
		ck_assert(!lens[k] || !memcmp(t.sb.buf, text, lens[k]));
		if (lens[k] > (128u << 10)) {
			t.sb.len = 0;
			t.stop_at = 100u << 10;
			ck_assert_int_eq(kernel__kallsyms(ks, &l), -EIO);
			ck_assert_uint_lt(t.sb.len, lens[k]);
		}
		strbuf__fini(&t.sb);
		free(text);
	}
}
END_TEST

START_TEST(test_kallsyms_hidden)
{
	puts_(ks, "0000000000000000 T _text\n");
	ck_assert(kernel__kallsyms_hidden(ks));
	puts_(ks, "ffffffff81000000 T _text\n");
	ck_assert(!kernel__kallsyms_hidden(ks));
	snprintf(ks, sizeof(ks), "%s/none", dir);
	ck_assert(kernel__kallsyms_hidden(ks));
}
END_TEST

Suite *kernel_suite(void);
Suite *kernel_suite(void)
{
	Suite *s = suite_create("kernel");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_maps);
	tcase_add_test(tc, test_build_id);
	tcase_add_test(tc, test_kallsyms_chunks);
	tcase_add_test(tc, test_kallsyms_order);
	tcase_add_test(tc, test_kallsyms_hidden);
	suite_add_tcase(s, tc);
	return s;
}
