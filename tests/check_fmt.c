/* Tests of row formatting (shared by batch and the live view): the
 * columns a sort spec shows, widths, alignment, truncation with an
 * ellipsis, and sanitizing of every string taken from a row. */
#include <stdlib.h>
#include <string.h>

#include "ui/report/fmt.h"
#include "ui/report/header.h"
#include "ui/report/sanitize.h"
#include "tests/testutil.h"

#define ELL "\xe2\x80\xa6"

static struct dso lib = { .kind = DSO_FILE, .name = "libfoo.so" };
static struct dso kern = { .kind = DSO_KERNEL, .name = "[kernel.kallsyms]" };

static void rows_init(struct rowset *rs, struct row *rows, size_t n)
{
	memset(rs, 0, sizeof(*rs));
	rs->rows = rows;
	rs->nr = n;
	for (size_t i = 0; i < n; i++) {
		rs->total_samples += rows[i].samples;
		rs->total_period += rows[i].period;
	}
}

static struct row mkrow(const struct dso *d, const char *sym, u64 n)
{
	struct row r;

	memset(&r, 0, sizeof(r));
	r.dso = d;
	r.dso_name = d->name;
	r.sym = sym;
	r.kernel = d->kind == DSO_KERNEL;
	r.samples = r.period = n;
	r.addr = 0x1234;
	r.comm = "spin3";
	r.pid = 42;
	r.tid = 43;
	r.cpu = 1;
	return r;
}

static size_t width_of(const struct strbuf *sb)
{
	return display_width(sb->buf ? sb->buf : "", sb->len);
}

START_TEST(test_columns_of_spec)
{
	struct sort_spec spec;
	struct columns c;
	struct strbuf err;

	strbuf__init(&err);
	sort_spec__default(&spec);
	columns__init(&c, &spec, false);
	ck_assert_uint_eq(c.nr, 4);
	ck_assert_int_eq(c.col[0], COL_OVERHEAD);
	ck_assert_int_eq(c.col[1], COL_SAMPLES);
	ck_assert_int_eq(c.col[2], COL_DSO);
	ck_assert_int_eq(c.col[3], COL_SYM);
	columns__init(&c, &spec, true);
	ck_assert_int_eq(c.col[2], COL_PERIOD);
	ck_assert_int_eq(sort_spec__parse("tid,sym", &spec, &err), 0);
	columns__init(&c, &spec, false);
	ck_assert_uint_eq(c.nr, 6);
	ck_assert_int_eq(c.col[2], COL_PID);
	ck_assert_int_eq(c.col[3], COL_TID);
	ck_assert_int_eq(c.col[4], COL_COMM);
	ck_assert_int_eq(c.col[5], COL_SYM);
	ck_assert_int_eq(sort_spec__parse("cpu,comm", &spec, &err), 0);
	columns__init(&c, &spec, false);
	ck_assert_int_eq(c.col[2], COL_CPU);
	ck_assert_int_eq(c.col[3], COL_COMM);
	strbuf__fini(&err);
}
END_TEST

START_TEST(test_rows_aligned)
{
	struct row rows[] = { mkrow(&lib, "hot_function", 600),
			      mkrow(&kern, "do_syscall_64", 300),
			      mkrow(&lib, NULL, 100) };
	struct sort_spec spec;
	struct columns c;
	struct rowset rs;
	struct strbuf sb;
	size_t off[COL__MAX];

	rows_init(&rs, rows, 3);
	sort_spec__default(&spec);
	columns__init(&c, &spec, false);
	columns__fit(&c, &rs, 0, rs.nr, 0);
	strbuf__init(&sb);
	fmt__header(&sb, &c);
	ck_assert_str_eq(sb.buf,
			 "Overhead  Samples  Shared Object      Symbol");
	strbuf__reset(&sb);
	fmt__row(&sb, &c, &rs, &rows[0], off);
	ck_assert_str_eq(sb.buf,
			 "  60.00%      600  libfoo.so          [.] hot_function");
	ck_assert_uint_eq(off[0], 0);
	ck_assert_uint_eq(off[1], 10);
	ck_assert_uint_eq(off[3], 38);
	strbuf__reset(&sb);
	fmt__row(&sb, &c, &rs, &rows[1], NULL);
	ck_assert_str_eq(sb.buf,
			 "  30.00%      300  [kernel.kallsyms]  [k] do_syscall_64");
	/* no symbol: the address */
	strbuf__reset(&sb);
	fmt__row(&sb, &c, &rs, &rows[2], NULL);
	ck_assert_str_eq(sb.buf, "  10.00%      100  libfoo.so          "
				 "[.] 0x0000000000001234");
	strbuf__fini(&sb);
}
END_TEST

START_TEST(test_truncated_to_width)
{
	static char huge[65536 + 1], long_name[300 + 1];
	struct row rows[] = { mkrow(&lib, huge, 500),
			      mkrow(&lib, "short", 500) };
	struct row lrows[] = { mkrow(&lib, long_name, 500),
			       mkrow(&lib, "short", 500) };
	static const size_t huge_widths[] = { 1, 39, 40, 119 };
	struct sort_spec spec;
	struct columns c;
	struct rowset rs, lrs;
	struct strbuf sb;
	struct strbuf err;

	memset(huge, 'x', sizeof(huge) - 1);
	memset(long_name, 'y', sizeof(long_name) - 1);
	rows_init(&rs, rows, 2);
	rows_init(&lrs, lrows, 2);
	strbuf__init(&err);
	ck_assert_int_eq(sort_spec__parse("comm,dso,sym", &spec, &err), 0);
	strbuf__fini(&err);
	columns__init(&c, &spec, false);
	strbuf__init(&sb);
	/* every width, with a name longer than any of them (a 64 KiB one
	 * at every width took 2.8 s, 4.7 s under ASan: over the timeout) */
	for (size_t w = 1; w < 120; w++) {
		columns__fit(&c, &lrs, 0, lrs.nr, w);
		for (size_t i = 0; i < 2; i++) {
			strbuf__reset(&sb);
			fmt__row(&sb, &c, &lrs, &lrows[i], NULL);
			/* at sane widths, never wider than the screen */
			if (w >= 40)
				ck_assert_uint_le(width_of(&sb), w);
		}
	}
	/* the 64 KiB name at the edges of that range */
	for (size_t k = 0; k < sizeof(huge_widths) / sizeof(*huge_widths); k++) {
		size_t w = huge_widths[k];

		columns__fit(&c, &rs, 0, rs.nr, w);
		strbuf__reset(&sb);
		fmt__row(&sb, &c, &rs, &rows[0], NULL);
		if (w >= 40)
			ck_assert_uint_le(width_of(&sb), w);
	}
	columns__fit(&c, &rs, 0, rs.nr, 80);
	strbuf__reset(&sb);
	fmt__row(&sb, &c, &rs, &rows[0], NULL);
	ck_assert_uint_eq(width_of(&sb), 80);
	ck_assert(sb.len >= 3 && strcmp(sb.buf + sb.len - 3, ELL) == 0);
	/* the symbol keeps room in a narrow table */
	sort_spec__default(&spec);
	columns__init(&c, &spec, false);
	columns__fit(&c, &rs, 0, rs.nr, 40);
	strbuf__reset(&sb);
	fmt__row(&sb, &c, &rs, &rows[1], NULL);
	ck_assert_ptr_nonnull(strstr(sb.buf, "[.] short"));
	strbuf__fini(&sb);
}
END_TEST

static long col_index(const struct columns *c, enum column col)
{
	for (size_t i = 0; i < c->nr; i++)
		if (c->col[i] == col)
			return (long)i;
	return -1;
}

/* The History column: after the numbers, before what names the row; in
 * a table too narrow for it and two short names it goes, and the next
 * build (columns__history again) brings it back where it fits. */
START_TEST(test_history_column)
{
	struct row rows[] = { mkrow(&lib, "phase_a", 10),
			      mkrow(&kern, "schedule", 1) };
	struct sort_spec spec;
	struct columns c;
	struct rowset rs;
	struct strbuf sb;

	rows_init(&rs, rows, 2);
	sort_spec__default(&spec);
	columns__init(&c, &spec, false);
	ck_assert_int_eq(col_index(&c, COL_HISTORY), -1);
	columns__history(&c, 10);
	ck_assert_int_eq(col_index(&c, COL_HISTORY),
			 col_index(&c, COL_SAMPLES) + 1);
	ck_assert_int_eq(col_index(&c, COL_DSO),
			 col_index(&c, COL_HISTORY) + 1);
	/* twice: one column still */
	columns__history(&c, 10);
	ck_assert_int_eq(col_index(&c, COL_DSO),
			 col_index(&c, COL_HISTORY) + 1);
	columns__fit(&c, &rs, 0, rs.nr, 120);
	ck_assert_int_ge(col_index(&c, COL_HISTORY), 0);
	ck_assert_uint_ge(c.width[col_index(&c, COL_HISTORY)], 10);
	strbuf__init(&sb);
	fmt__header(&sb, &c);
	ck_assert_ptr_nonnull(strstr(sb.buf, "Samples  History     Shared Object"));
	/* 40 columns: no room */
	columns__fit(&c, &rs, 0, rs.nr, 40);
	ck_assert_int_eq(col_index(&c, COL_HISTORY), -1);
	strbuf__reset(&sb);
	fmt__row(&sb, &c, &rs, &rows[0], NULL);
	ck_assert_uint_le(width_of(&sb), 40);
	ck_assert_ptr_nonnull(strstr(sb.buf, "phase_a"));
	/* wide again at the next build */
	columns__history(&c, 10);
	columns__fit(&c, &rs, 0, rs.nr, 120);
	ck_assert_int_ge(col_index(&c, COL_HISTORY), 0);
	/* 0 buckets: none (H, --no-history) */
	columns__history(&c, 0);
	ck_assert_int_eq(col_index(&c, COL_HISTORY), -1);
	strbuf__fini(&sb);
}
END_TEST

/* A sparkline: eighths of the largest value, a middle dot for nothing,
 * and in ASCII "_-:=+*%#" and "." (one column each either way). */
START_TEST(test_sparkline)
{
	static const double v[] = { 0, 1, 2, 4, 8, 0.5, 0 };
	struct strbuf sb, a;

	strbuf__init(&sb);
	strbuf__init(&a);
	fmt__spark_values(&sb, v, 7);
	ck_assert_str_eq(sb.buf, "\xc2\xb7\xe2\x96\x81\xe2\x96\x82"
				 "\xe2\x96\x84\xe2\x96\x88\xe2\x96\x81"
				 "\xc2\xb7");
	ck_assert_uint_eq(display_width(sb.buf, sb.len), 7);
	to_ascii(&a, sb.buf, sb.len);
	ck_assert_str_eq(a.buf, "._-=#_.");
	/* all nothing: dots, never a division by zero */
	strbuf__reset(&sb);
	strbuf__reset(&a);
	fmt__spark_values(&sb, v, 1);
	to_ascii(&a, sb.buf, sb.len);
	ck_assert_str_eq(a.buf, ".");
	strbuf__fini(&a);
	strbuf__fini(&sb);
}
END_TEST

START_TEST(test_hostile_strings_sanitized)
{
	static const struct dso evil_dso = {
		.kind = DSO_FILE, .name = "lib\x1b]52;c;QUJD\x07.so",
	};
	struct row rows[] = { mkrow(&evil_dso, "f\x1b[2J\xc2\x9bg\xe2\x80\xae"
					       "h\ni\xff", 1) };
	struct sort_spec spec;
	struct columns c;
	struct rowset rs;
	struct strbuf sb, err;

	rows[0].comm = "evil\x1b[31m\xe2\x81\xa6";
	rows_init(&rs, rows, 1);
	strbuf__init(&err);
	ck_assert_int_eq(sort_spec__parse("comm,dso,sym", &spec, &err), 0);
	strbuf__fini(&err);
	columns__init(&c, &spec, false);
	columns__fit(&c, &rs, 0, 1, 0);
	strbuf__init(&sb);
	fmt__row(&sb, &c, &rs, &rows[0], NULL);
	for (size_t i = 0; i < sb.len; i++) {
		unsigned char ch = (unsigned char)sb.buf[i];

		ck_assert_msg(ch >= 0x20 && ch != 0x7f, "control byte %#x", ch);
	}
	ck_assert_ptr_null(strstr(sb.buf, "\xc2\x9b"));
	ck_assert_ptr_null(strstr(sb.buf, "\xe2\x80\xae"));
	ck_assert_ptr_null(strstr(sb.buf, "\xe2\x81\xa6"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "evil?[31m?"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "lib?]52;c;QUJD?.so"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "[.] f?[2J?g?h?i\xef\xbf\xbd"));
	/* widths are those of the sanitized text */
	ck_assert_uint_eq(c.width[2], strlen("evil?[31m?"));
	strbuf__fini(&sb);
}
END_TEST

/* A 100,000-character name (a perf map can hold one) is cut at
 * SANITIZE_MAX bytes with the cut mark, in the row and in sanitize's
 * output, whatever the width; multi-byte characters are not split. */
START_TEST(test_long_name_cut)
{
	size_t n = 100000;
	char *name = malloc(n + 1);
	struct row rows[1];
	struct sort_spec spec;
	struct columns c;
	struct rowset rs;
	struct strbuf sb;
	size_t w;

	ck_assert_ptr_nonnull(name);
	memset(name, 'x', n);
	name[n] = '\0';
	rows[0] = mkrow(&lib, name, 1);
	rows_init(&rs, rows, 1);
	sort_spec__default(&spec);
	columns__init(&c, &spec, false);
	columns__fit(&c, &rs, 0, 1, 0);
	strbuf__init(&sb);
	fmt__row(&sb, &c, &rs, &rows[0], NULL);
	ck_assert_uint_lt(sb.len, SANITIZE_MAX + 200);
	ck_assert_ptr_nonnull(strstr(sb.buf, ELL "[cut: 100000 bytes]"));
	/* sanitize itself: the width counts the mark's columns */
	strbuf__reset(&sb);
	w = sanitize_str(&sb, name);
	ck_assert_uint_eq(sb.len, SANITIZE_MAX + strlen(ELL "[cut: 100000 bytes]"));
	ck_assert_uint_eq(w, SANITIZE_MAX + strlen("_[cut: 100000 bytes]"));
	ck_assert_uint_eq(display_width(sb.buf, sb.len), w);
	/* a 2-byte character across the cut goes with the rest */
	memset(name, 'x', n);
	memcpy(name + SANITIZE_MAX - 1, "\xc3\xa9", 2);
	strbuf__reset(&sb);
	sanitize_str(&sb, name);
	ck_assert_uint_eq(sb.len, SANITIZE_MAX - 1 + strlen(ELL "[cut: 100000 bytes]"));
	/* SANITIZE_MAX bytes exactly: whole */
	memset(name, 'x', n);
	name[SANITIZE_MAX] = '\0';
	strbuf__reset(&sb);
	sanitize_str(&sb, name);
	ck_assert_uint_eq(sb.len, SANITIZE_MAX);
	ck_assert_ptr_null(strstr(sb.buf, "[cut:"));
	strbuf__fini(&sb);
	free(name);
}
END_TEST

START_TEST(test_wide_symbols)
{
	struct row rows[] = { mkrow(&lib, "\xe6\xbc\xa2\xe5\xad\x97_fn", 1) };
	struct sort_spec spec;
	struct columns c;
	struct rowset rs;
	struct strbuf sb;

	rows_init(&rs, rows, 1);
	sort_spec__default(&spec);
	columns__init(&c, &spec, false);
	/* 8 + 2 + 7 + 2 + 13 + 2 = 34 before the symbol, which needs 11
	 * columns ("[.] ", two CJK characters of 2, "_fn"): the shared
	 * object gives up 4 of its 13 */
	columns__fit(&c, &rs, 0, 1, 41);
	strbuf__init(&sb);
	fmt__row(&sb, &c, &rs, &rows[0], NULL);
	ck_assert_uint_eq(width_of(&sb), 41);
	ck_assert_ptr_nonnull(strstr(sb.buf, "  libfoo.so  [.] \xe6\xbc\xa2"
					     "\xe5\xad\x97_fn"));
	/* narrower: the symbol is cut between whole characters */
	columns__fit(&c, &rs, 0, 1, 34);
	strbuf__reset(&sb);
	fmt__row(&sb, &c, &rs, &rows[0], NULL);
	ck_assert_uint_le(width_of(&sb), 34);
	ck_assert_ptr_nonnull(strstr(sb.buf, "[.] \xe6\xbc\xa2" ELL));
	strbuf__fini(&sb);
}
END_TEST

START_TEST(test_fit_width)
{
	struct strbuf sb;

	strbuf__init(&sb);
	ck_assert_uint_eq(fit_width(&sb, "/usr/lib/libc.so.6", 10, false, true),
			  10);
	ck_assert_str_eq(sb.buf, ELL "libc.so.6");
	strbuf__reset(&sb);
	ck_assert_uint_eq(fit_width(&sb, "abc", 6, true, false), 6);
	ck_assert_str_eq(sb.buf, "abc   ");
	strbuf__reset(&sb);
	ck_assert_uint_eq(fit_width(&sb, "abcdef", 0, true, false), 0);
	ck_assert_str_eq(sb.buf ? sb.buf : "", "");
	strbuf__fini(&sb);
}
END_TEST

/* A terminal that is not UTF-8: the same columns, in ASCII. */
START_TEST(test_to_ascii)
{
	struct strbuf sb, row;
	char name[5000];

	strbuf__init(&sb);
	strbuf__init(&row);
	/* a wide CJK character is two columns, a combining mark none */
	to_ascii(&sb, "a\xe6\xbc\xa2" "e\xcc\x81" "b", 8);
	ck_assert_str_eq(sb.buf, "a??eb");
	/* a cut name keeps its width: the ellipsis is one column */
	fit_width(&row, "abcdefghij", 5, false, false);
	strbuf__reset(&sb);
	to_ascii(&sb, row.buf, row.len);
	ck_assert_str_eq(sb.buf, "abcd.");
	ck_assert_uint_eq(sb.len, display_width(row.buf, row.len));
	/* the cut mark of a name past SANITIZE_MAX */
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	strbuf__reset(&row);
	ck_assert_uint_eq(sanitize_str(&row, name),
			  display_width(row.buf, row.len));
	strbuf__reset(&sb);
	to_ascii(&sb, row.buf, row.len);
	ck_assert_ptr_nonnull(strstr(sb.buf, "x.[cut: 4999 bytes]"));
	ck_assert_uint_eq(sb.len, display_width(row.buf, row.len));
	/* sanitize's replacement character, a bidi override made '?' */
	strbuf__reset(&row);
	sanitize_str(&row, "\xff\xe2\x80\xaeZ");
	strbuf__reset(&sb);
	to_ascii(&sb, row.buf, row.len);
	ck_assert_str_eq(sb.buf, "??Z");
	strbuf__fini(&row);
	strbuf__fini(&sb);
}
END_TEST

/* The header: every sample counted, idle as one share, the kernel share
 * of the work shown, and whose losses they were. */
START_TEST(test_header_idle_and_lost)
{
	struct hist_entry e[3] = {
		{ .key = { .dso = &lib }, .samples = 10, .period = 10 },
		{ .key = { .dso = &kern }, .samples = 10, .period = 10 },
		{ .key = { .dso = &kern, .idle = 1 }, .samples = 80,
		  .period = 80 },
	};
	struct snapshot snap = {
		.entries = e, .nr = 3, .nr_idle = 1,
		.total_samples = 100, .total_period = 100,
		.idle_samples = 80, .idle_period = 80,
		.counts = { .samples = 100, .lost = 7, .lost_samples = 7 },
		.lost = 7,
	};
	struct header_info hi = { .target = "all CPUs (2)",
				  .event = "cpu-clock" };
	struct strbuf sb;

	strbuf__init(&sb);
	header__format(&sb, &hi, &snap, "# ");
	ck_assert_ptr_nonnull(strstr(sb.buf, "# samples 100, total 100; "
					     "idle 80.0%; lost 7; "));
	/* half of the work was kernel code */
	ck_assert_ptr_nonnull(strstr(sb.buf, "; kernel 50.0%\n"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "WARNING: 7 records lost: ptop "
					     "was too slow"));
	strbuf__reset(&sb);
	hi.show_idle = true;
	hi.recording = true;
	header__format(&sb, &hi, &snap, "# ");
	ck_assert_ptr_nonnull(strstr(sb.buf, "idle 80.0% (rows shown); "));
	ck_assert_ptr_nonnull(strstr(sb.buf, "; kernel 90.0%\n"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "WARNING: 7 samples lost by the "
					     "recorder"));
	ck_assert_ptr_null(strstr(sb.buf, "ptop was too slow"));
	ck_assert_double_eq_tol(header__idle_share(&snap), 80.0, 1e-9);
	/* no idle sample: no idle figure */
	strbuf__reset(&sb);
	snap.nr_idle = 0;
	snap.idle_samples = snap.idle_period = 0;
	header__format(&sb, &hi, &snap, "# ");
	ck_assert_ptr_null(strstr(sb.buf, "idle"));
	strbuf__fini(&sb);
}
END_TEST

/* The memory budget's folds, said once they happened, and only then. */
START_TEST(test_header_budget)
{
	struct snapshot snap = { .counts = { .samples = 5 } };
	struct header_info hi = { .target = "all CPUs (2)",
				  .event = "cpu-clock" };
	struct strbuf sb;

	strbuf__init(&sb);
	header__format(&sb, &hi, &snap, "# ");
	ck_assert_ptr_null(strstr(sb.buf, "memory budget"));
	snap.session.budget_folds = 2;
	snap.session.budget_entries = 4096;
	snap.session.budget_nodes = 30000;
	strbuf__reset(&sb);
	header__format(&sb, &hi, &snap, "# ");
	ck_assert_ptr_nonnull(strstr(sb.buf, "\n# memory budget: 4096 cold "
					     "entries folded to their "
					     "functions, their chains dropped "
					     "(30000 chain nodes)\n"));
	snap.session.budget_entries = 1;
	snap.session.budget_nodes = 1;
	strbuf__reset(&sb);
	header__format(&sb, &hi, &snap, "# ");
	ck_assert_ptr_nonnull(strstr(sb.buf, "# memory budget: 1 cold entry "
					     "folded to its function, its "
					     "chain dropped (1 chain node)\n"));
	strbuf__fini(&sb);
}
END_TEST

/* A long target on a narrow screen: its start is cut, the elapsed time
 * and the state stay on the first line within the width. */
START_TEST(test_header_long_target)
{
	static const struct snapshot snap;
	struct header_info hi = {
		.target = "command: /check/work/main/build-san/workloads/"
			  "offwork 400",
		.event = "off-cpu", .elapsed = 15.3, .paused = true,
		.width = 80,
	};
	struct strbuf sb;
	char *nl;

	strbuf__init(&sb);
	header__format(&sb, &hi, &snap, "");
	nl = strchr(sb.buf, '\n');
	ck_assert_ptr_nonnull(nl);
	*nl = '\0';
	ck_assert_uint_le(display_width(sb.buf, strlen(sb.buf)), 80);
	ck_assert_ptr_nonnull(strstr(sb.buf, "workloads/offwork 400; elapsed "
					     "15.3 s; PAUSED"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "; target \xe2\x80\xa6"));
	/* wide enough, or no width (batch, files): the target whole */
	strbuf__reset(&sb);
	hi.width = 200;
	header__format(&sb, &hi, &snap, "");
	ck_assert_ptr_nonnull(strstr(sb.buf, "; target command: /check/work/"));
	strbuf__reset(&sb);
	hi.width = 0;
	header__format(&sb, &hi, &snap, "# ");
	ck_assert_ptr_nonnull(strstr(sb.buf, "; target command: /check/work/"));
	/* too narrow for the rest: 16 columns of the target are kept */
	strbuf__reset(&sb);
	hi.width = 20;
	header__format(&sb, &hi, &snap, "");
	ck_assert_ptr_nonnull(strstr(sb.buf, "; target \xe2\x80\xa6"
					     "ads/offwork 400; elapsed"));
	strbuf__fini(&sb);
}
END_TEST

/* JSON's writer of outside strings: sanitized as on screen (controls
 * '?', bytes that are not UTF-8 U+FFFD), then escaped; NULL is null. */
START_TEST(test_json_sanitized)
{
	static const struct {
		const char *key, *in, *out;
	} t[] = {
		{ NULL, "a\x1b[31m\xff\"b\\\n",
		  "\"a?[31m\xef\xbf\xbd\\\"b\\\\?\"" },
		{ NULL, NULL, "null" },
		{ NULL, "", "\"\"" },
		{ "k", "v", "\"k\":\"v\"" },
		{ "none", NULL, "\"none\":null" },
	};
	struct strbuf sb;

	strbuf__init(&sb);
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct json j;

		strbuf__reset(&sb);
		json__init(&j, &sb);
		json_sanitized(&j, t[i].key, t[i].in);
		ck_assert_str_eq(sb.buf, t[i].out);
	}
	strbuf__fini(&sb);
}
END_TEST

Suite *fmt_suite(void)
{
	Suite *s = suite_create("fmt");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_columns_of_spec);
	tcase_add_test(tc, test_history_column);
	tcase_add_test(tc, test_sparkline);
	tcase_add_test(tc, test_rows_aligned);
	tcase_add_test(tc, test_truncated_to_width);
	tcase_add_test(tc, test_header_long_target);
	tcase_add_test(tc, test_hostile_strings_sanitized);
	tcase_add_test(tc, test_wide_symbols);
	tcase_add_test(tc, test_long_name_cut);
	tcase_add_test(tc, test_fit_width);
	tcase_add_test(tc, test_to_ascii);
	tcase_add_test(tc, test_json_sanitized);
	tcase_add_test(tc, test_header_idle_and_lost);
	tcase_add_test(tc, test_header_budget);
	suite_add_tcase(s, tc);
	return s;
}
