/* check_view_annotate: the annotate view without a terminal, on a
 * function built by the tests (annfix): opened from a row with its
 * hottest instruction selected, the global a %rip-relative operand
 * refers to named, the keys of the key table (H, Tab, search, Enter
 * into a callee and Esc back, Enter on a jump, s, t, o, P), shares that
 * follow the snapshot, every screen size. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/fixtures/symtest.h"
#include "ui/report/annotate.h"
#include "src/core/log.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/view_top.h"
#include "ui/tui/view_annotate.h"

struct fixture {
	struct app a;
	struct tui t;
	volatile sig_atomic_t stop;
	struct dso dso;
	char dir[64];
	u64 loop, loop_size, helper, helper_size;
};

static u64 key_of(struct fixture *f, const char *fn, u64 *size)
{
	u64 addr, key;

	ck_assert(nm_find("annfix.nm", fn, &addr, size));
	ck_assert_int_eq(symbolizer__from_vaddr(f->a.syms, &f->dso, addr,
						&key),
			 0);
	return key;
}

static void add_row(struct tui *t, const struct dso *d, const char *sym,
		    u64 start, u64 size, u64 period)
{
	struct rowset *rs = &t->table.rows;
	struct row *r;

	ck_assert_int_eq(array__grow((void **)&rs->rows, &rs->cap, rs->nr + 1,
				     sizeof(*rs->rows)),
			 0);
	r = &rs->rows[rs->nr++];
	memset(r, 0, sizeof(*r));
	r->dso = d;
	r->dso_name = d->name;
	r->sym = sym;
	r->sym_start = start;
	r->sym_size = size;
	r->addr = start;
	r->comm = "annfix";
	r->pid = r->tid = -1;
	r->samples = r->period = period;
	rs->total_samples += period;
	rs->total_period += period;
}

/* The snapshot: samples at offsets into ann_loop and ann_helper. */
static void set_entries(struct fixture *f, const u64 *off, const u64 *n,
			size_t nr, u64 base)
{
	struct snapshot *snap = &f->t.table.snaps[0];

	free(snap->entries);
	snap->entries = calloc(nr, sizeof(*snap->entries));
	ck_assert_ptr_nonnull(snap->entries);
	snap->total_samples = snap->total_period = 0;
	for (size_t i = 0; i < nr; i++) {
		struct hist_entry *h = &snap->entries[i];

		h->key.dso = &f->dso;
		h->key.addr = base + off[i];
		h->samples = h->period = n[i];
		snap->total_samples += n[i];
		snap->total_period += n[i];
	}
	snap->nr = snap->cap = nr;
}

static void fixture_init(struct fixture *f)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.freq = 1, .sample_freq = 4000 };
	struct symbolizer_opts syo = { .kcore = "/nonexistent/kcore" };

	memset(f, 0, sizeof(*f));
	log__set_handler(NULL, NULL);
	f->a.session = session__new(&so);
	ck_assert_ptr_nonnull(f->a.session);
	ck_assert_int_ge(session__add_event(f->a.session, "cpu-clock", &attr),
			 0);
	f->a.syms = symbolizer__new(&syo);
	ck_assert_ptr_nonnull(f->a.syms);
	sort_spec__default(&f->a.spec);
	f->a.delay = 2;
	f->a.stop = &f->stop;
	f->dso = file_dso(0, fixture_path("annfix"));
	tui__init(&f->t, &f->a);
	f->t.table.snaps = calloc(1, sizeof(*f->t.table.snaps));
	ck_assert_ptr_nonnull(f->t.table.snaps);
	f->t.table.nr_snaps = 1;
	f->loop = key_of(f, "ann_loop", &f->loop_size);
	f->helper = key_of(f, "ann_helper", &f->helper_size);
	f->t.have_snap = true;
	add_row(&f->t, &f->dso, "ann_loop", f->loop, f->loop_size, 900);
	add_row(&f->t, &f->dso, "ann_helper", f->helper, f->helper_size, 100);
	listview__update(&top__of(&f->t)->lv);
	f->t.hi = (struct header_info){ .event = "cpu-clock", .nr_events = 1 };
	snprintf(f->dir, sizeof(f->dir), "/tmp/ptop-check-annview-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(f->dir));
	f->t.save_dir = f->dir;
}

static void fixture_fini(struct fixture *f)
{
	char cmd[128];

	tui__fini(&f->t);
	symbolizer__free(f->a.syms);
	session__free(f->a.session);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	ck_assert_int_eq(system(cmd), 0);
}

static int find_line(const struct screen *s, const char *needle)
{
	for (size_t y = 0; y < s->rows; y++)
		if (strstr(screen__text(s, y), needle))
			return (int)y;
	return -1;
}

/* The text of the selected line on screen. */
static const char *selected_text(const struct screen *s)
{
	for (size_t y = 1; y < s->rows; y++)
		if (screen__style_at(s, y, 0) == ST_SELECTED)
			return screen__text(s, y);
	return "";
}

static void render(struct fixture *f, struct screen *s)
{
	listview__update(tui__list(&f->t, tui__view(&f->t)));
	tui__render(&f->t, s, 0);
}

/* An instruction line whose text holds what, -1 if none. */
static long insn_with(struct fixture *f, const char *what)
{
	struct annotation *a;
	struct strbuf why;
	long found = -1;

	strbuf__init(&why);
	{
		struct annotator *an = annotator__new(f->a.syms, DISASM_ATT);

		ck_assert_int_eq(annotator__open(an, &f->dso, f->loop, &a, &why),
				 0);
		for (size_t i = 0; i < a->nr && found < 0; i++)
			if (strstr(disasm__mnemonic(a->dis,
						    disasm__at(a->dis, i)),
				   what))
				found = (long)(a->insns[i].key - f->loop);
		annotation__put(a);
		annotator__free(an);
	}
	strbuf__fini(&why);
	return found;
}

START_TEST(test_open_and_keys)
{
	struct fixture f;
	struct screen s;
	long call, jne;
	char want[64], saved[128];
	u64 offs[3], n[3] = { 70, 20, 10 };

	fixture_init(&f);
	call = insn_with(&f, "call");
	jne = insn_with(&f, "jne");
	ck_assert_int_ge(call, 0);
	ck_assert_int_ge(jne, 0);
	/* 70 on the call, 20 on the jne, 10 on the first instruction */
	offs[0] = (u64)call;
	offs[1] = (u64)jne;
	offs[2] = 0;
	set_entries(&f, offs, n, 3, f.loop);
	screen__init(&s);
	screen__resize(&s, 40, 120);

	/* a on the first row: the function, its hottest instruction
	 * selected, its source line in sight */
	ck_assert_int_eq(tui__key(&f.t, 'a'), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_ANNOTATE);
	render(&f, &s);
	ck_assert_int_eq(find_line(&s, "Annotate ann_loop  [annfix]  "
				       "100.00% of cpu-clock, 100 samples"),
			 0);
	ck_assert_ptr_nonnull(strstr(selected_text(&s), "<ann_helper>"));
	ck_assert_ptr_nonnull(strstr(selected_text(&s), "   70.00  "));
	snprintf(want, sizeof(want), "annfix.c:%d ",
		 lines_find("annfix.lines", "body"));
	ck_assert_int_ge(find_line(&s, want), 1);
	ck_assert_int_lt(find_line(&s, want),
			 find_line(&s, "<ann_helper>"));
	/* the global a %rip-relative store writes, named */
	{
		int y = find_line(&s, "(%rip)");

		ck_assert_int_ge(y, 1);
		ck_assert_ptr_nonnull(strstr(screen__text(&s, (size_t)y),
					     "  # 0x"));
		ck_assert_ptr_nonnull(strstr(screen__text(&s, (size_t)y),
					     " <annfix_sink>"));
	}
	/* the hot value is coloured; cold lines show no value */
	{
		int y = find_line(&s, "<ann_helper>");

		ck_assert_int_eq(screen__style_at(&s, (size_t)y, 2), ST_SELECTED);
		tui__key(&f.t, K_HOME);
		render(&f, &s);
		ck_assert_int_eq(screen__style_at(&s, (size_t)y, 4), ST_HOT);
	}
	ck_assert_int_ge(find_line(&s, "H hottest"), 1);

	/* H: back to the hottest; Tab walks the hot ones, hottest first */
	tui__key(&f.t, 'H');
	render(&f, &s);
	ck_assert_ptr_nonnull(strstr(selected_text(&s), "<ann_helper>"));
	tui__key(&f.t, K_TAB);
	render(&f, &s);
	ck_assert_ptr_nonnull(strstr(selected_text(&s), "jne"));
	ck_assert_ptr_nonnull(strstr(f.t.status, "hot instruction 2 of 3"));
	tui__key(&f.t, K_TAB);
	tui__key(&f.t, K_TAB);
	render(&f, &s);
	ck_assert_ptr_nonnull(strstr(selected_text(&s), "<ann_helper>"));
	tui__key(&f.t, K_BTAB);
	render(&f, &s);
	ck_assert_ptr_nonnull(strstr(f.t.status, "hot instruction 3 of 3"));

	/* Enter on the jump: its label */
	tui__key(&f.t, 'H');
	tui__key(&f.t, K_TAB);
	ck_assert_int_eq(tui__key(&f.t, K_ENTER), R_REDRAW);
	render(&f, &s);
	ck_assert_ptr_nonnull(strstr(selected_text(&s), ".L1:"));

	/* a search for the call, Enter drills into ann_helper, Esc back */
	tui__key(&f.t, K_HOME);
	tui__key(&f.t, '/');
	ck_assert_uint_eq(tui__view(&f.t), V_PROMPT);
	tui__key(&f.t, 'c');
	tui__key(&f.t, 'a');
	tui__key(&f.t, 'l');
	tui__key(&f.t, 'l');
	tui__key(&f.t, K_ENTER);
	ck_assert_uint_eq(tui__view(&f.t), V_ANNOTATE);
	render(&f, &s);
	ck_assert_ptr_nonnull(strstr(selected_text(&s), "call"));
	ck_assert_int_eq(tui__key(&f.t, K_ENTER), R_REDRAW);
	render(&f, &s);
	ck_assert_int_eq(find_line(&s, "Annotate ann_helper  [annfix]"), 0);
	ck_assert_int_ge(find_line(&s, "callee 1 deep"), 0);
	tui__key(&f.t, K_ESC);
	render(&f, &s);
	ck_assert_int_eq(find_line(&s, "Annotate ann_loop  [annfix]"), 0);
	ck_assert_ptr_nonnull(strstr(selected_text(&s), "call"));
	/* n: the next match (the only one: itself) */
	tui__key(&f.t, 'n');
	render(&f, &s);
	ck_assert_ptr_nonnull(strstr(selected_text(&s), "call"));
	/* a search that finds nothing says so, Esc puts the selection back */
	tui__key(&f.t, '/');
	tui__key(&f.t, 'z');
	tui__key(&f.t, 'q');
	ck_assert_ptr_nonnull(strstr(f.t.status, "not found"));
	tui__key(&f.t, K_ESC);
	render(&f, &s);
	ck_assert_ptr_nonnull(strstr(selected_text(&s), "call"));

	/* s: asm only, source only, both; t: samples, period, percent */
	tui__key(&f.t, 's');
	render(&f, &s);
	ck_assert_int_lt(find_line(&s, want), 0);
	tui__key(&f.t, 's');
	render(&f, &s);
	ck_assert_ptr_nonnull(strstr(f.t.status, "source lines only"));
	ck_assert_int_lt(find_line(&s, "callq"), 0);
	ck_assert_ptr_nonnull(strstr(selected_text(&s), want));
	ck_assert_ptr_nonnull(strstr(selected_text(&s), "70.00"));
	tui__key(&f.t, 's');
	tui__key(&f.t, 't');
	render(&f, &s);
	ck_assert_ptr_nonnull(strstr(selected_text(&s), "      70  "));
	tui__key(&f.t, 't');
	tui__key(&f.t, 't');
	/* o: the raw bytes (a call is e8) */
	tui__key(&f.t, 'o');
	render(&f, &s);
	ck_assert_ptr_nonnull(strstr(selected_text(&s), " e8 "));
	tui__key(&f.t, 'o');

	/* P: the annotation in a file */
	tui__key(&f.t, 'P');
	ck_assert_ptr_nonnull(strstr(f.t.status, "saved the annotation to"));
	snprintf(saved, sizeof(saved), "%s/ptop.annotate.0", f.dir);
	ck_assert_int_eq(access(saved, R_OK), 0);

	/* the next refresh: the shares follow the snapshot */
	n[0] = 10;
	n[1] = 80;
	set_entries(&f, offs, n, 3, f.loop);
	tui__rebuild(&f.t);
	tui__key(&f.t, 'H');
	render(&f, &s);
	ck_assert_ptr_nonnull(strstr(selected_text(&s), "jne"));
	ck_assert_ptr_nonnull(strstr(selected_text(&s), "80.00"));

	/* help from the view, and back; Esc to the table */
	tui__key(&f.t, 'h');
	ck_assert_uint_eq(tui__view(&f.t), V_HELP);
	tui__key(&f.t, 'q');
	ck_assert_uint_eq(tui__view(&f.t), V_ANNOTATE);
	tui__key(&f.t, 'q');
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);

	/* zoomed into a thread: only its samples, said in the title */
	f.t.table.filter.has_tid = true;
	f.t.table.filter.tid = 42;
	tui__key(&f.t, 'a');
	render(&f, &s);
	ck_assert_int_eq(find_line(&s, "Annotate ann_loop  [annfix]  "
				       "0.00% of cpu-clock, 0 samples  "
				       "(thread 42)"),
			 0);
	tui__key(&f.t, K_ESC);
	f.t.table.filter.has_tid = false;

	/* the row menu's first entry annotates too */
	tui__key(&f.t, K_ENTER);
	ck_assert_uint_eq(tui__view(&f.t), V_MENU);
	tui__key(&f.t, K_ENTER);
	ck_assert_uint_eq(tui__view(&f.t), V_ANNOTATE);
	tui__key(&f.t, K_LEFT);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	screen__fini(&s);
	fixture_fini(&f);
}
END_TEST

/* Every size, a function that has no samples, errors in the status
 * line. */
START_TEST(test_sizes_and_errors)
{
	static const size_t sizes[][2] = {
		{ 0, 0 }, { 1, 1 }, { 3, 10 }, { 5, 20 }, { 24, 80 },
		{ 40, 200 },
	};
	struct fixture f;
	struct screen s;

	fixture_init(&f);
	set_entries(&f, NULL, NULL, 0, 0);
	/* ann_helper: no samples, said so */
	tui__key(&f.t, K_DOWN);
	tui__key(&f.t, 'a');
	ck_assert_uint_eq(tui__view(&f.t), V_ANNOTATE);
	ck_assert_ptr_nonnull(strstr(f.t.status, "no samples"));
	tui__key(&f.t, 'H');
	tui__key(&f.t, K_TAB);
	ck_assert_ptr_nonnull(strstr(f.t.status, "no samples"));
	/* n without a search; Enter on a source line */
	tui__key(&f.t, 'n');
	ck_assert_ptr_nonnull(strstr(f.t.status, "/ searches first"));
	screen__init(&s);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		screen__resize(&s, sizes[i][0], sizes[i][1]);
		for (int k = 0; k < 3; k++) {
			render(&f, &s);
			for (size_t y = 0; y < s.rows; y++)
				ck_assert_uint_le(s.lines[y].width, s.cols);
			tui__key(&f.t, k == 1 ? K_END : K_PGDN);
		}
	}
	tui__key(&f.t, K_ESC);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);

	/* a row without a symbol */
	f.t.table.rows.rows[1].sym = NULL;
	tui__key(&f.t, 'a');
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	ck_assert_ptr_nonnull(strstr(f.t.status, "nothing to annotate"));
	/* a row whose file is gone */
	{
		static struct dso gone;

		gone = file_dso(7, "/nonexistent/ptop/annfix");
		f.t.table.rows.rows[1].sym = "ann_helper";
		f.t.table.rows.rows[1].dso = &gone;
		tui__key(&f.t, 'a');
		ck_assert_uint_eq(tui__view(&f.t), V_TOP);
		ck_assert_ptr_nonnull(strstr(f.t.status, "annotate ann_helper: "));
	}
	screen__fini(&s);
	fixture_fini(&f);
}
END_TEST

Suite *view_annotate_suite(void)
{
	Suite *su = suite_create("view_annotate");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_open_and_keys);
	tcase_add_test(tc, test_sizes_and_errors);
	suite_add_tcase(su, tc);
	return su;
}
