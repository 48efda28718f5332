/* Tests of the live view without a terminal: the whole screen at many
 * sizes (never wider than the terminal, hostile names neutralized,
 * colours by share, the selection), and keys dispatched through the key
 * table to the actions (filters and their undo, zooms, sorting, events,
 * prompts, quitting, saving). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ui/report/sanitize.h"
#include "tests/testutil.h"
#include "ui/tui/tui.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/mouse.h"
#include "ui/tui/view_setup.h"
#include "ui/tui/view_top.h"
#include "ui/tui/view_menu.h"
#include "ui/tui/actions.h"
#include "ui/tui/view_annotate.h"
#include "ui/tui/view_callers.h"
#include "ui/tui/view_tree.h"

static struct dso lib = { .kind = DSO_FILE, .name = "spin3" };
static struct dso kern = { .kind = DSO_KERNEL, .name = "[kernel.kallsyms]" };
static char huge[70000];

struct fixture {
	struct app a;
	struct tui t;
	volatile sig_atomic_t stop;
	char dir[64];
};

static void add_row(struct tui *t, const struct dso *d, const char *sym,
		    u64 start, u64 size, u64 period)
{
	struct rowset *rs = &t->table.rows;
	struct row *r;

	ck_assert_int_eq(array__grow((void **)&rs->rows, &rs->cap, rs->nr + 1,
				     sizeof(*rs->rows)), 0);
	r = &rs->rows[rs->nr++];
	memset(r, 0, sizeof(*r));
	r->dso = d;
	r->dso_name = d->name;
	r->sym = sym;
	r->sym_start = start;
	r->sym_size = size;
	r->addr = start;
	r->kernel = d->kind == DSO_KERNEL;
	r->comm = "spin3";
	r->pid = -1;
	r->tid = -1;
	r->samples = r->period = period;
	rs->total_samples += period;
	rs->total_period += period;
}

static const char cg_a[] = "/system.slice/a.service", cg_b[] = "/b";

/* Samples of two threads in spin_a, the second busier; thread 7 in
 * a.service, 8 in /b, the kernel's 9 in no known cgroup. */
static void add_entries(struct snapshot *snap)
{
	static const struct {
		u64 addr, period;
		s32 pid, tid;
	} e[] = {
		{ 0x1010, 100, 7, 7 }, { 0x1020, 250, 7, 8 },
		{ 0x1030, 250, 7, 7 }, { 0x2000, 400, 9, 9 },
	};

	snap->entries = calloc(4, sizeof(*snap->entries));
	ck_assert_ptr_nonnull(snap->entries);
	for (size_t i = 0; i < 4; i++) {
		struct hist_entry *h = &snap->entries[i];

		h->key.dso = e[i].addr < 0x2000 ? &lib : &kern;
		h->key.addr = e[i].addr;
		h->key.pid = e[i].pid;
		h->key.tid = e[i].tid;
		h->key.comm = "spin3";
		h->key.cgroup = e[i].tid == 7 ? cg_a : e[i].tid == 8 ? cg_b :
								      NULL;
		h->samples = h->period = e[i].period;
	}
	snap->nr = snap->cap = 4;
	snap->total_samples = snap->total_period = 1000;
	snap->counts.samples = 1000;
}

static void fixture_init(struct fixture *f, size_t nr_events)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.freq = 1, .sample_freq = 4000 };
	static const char *const names[] = { "cpu-clock", "page-faults" };

	memset(f, 0, sizeof(*f));
	f->a.session = session__new(&so);
	ck_assert_ptr_nonnull(f->a.session);
	for (size_t i = 0; i < nr_events; i++)
		ck_assert_int_ge(session__add_event(f->a.session, names[i],
						    &attr), 0);
	sort_spec__default(&f->a.spec);
	f->a.delay = 2;
	f->a.stop = &f->stop;
	snprintf(f->a.target_desc, sizeof(f->a.target_desc), "pid 7 (spin3)");
	tui__init(&f->t, &f->a);
	/* a table as a refresh leaves it */
	f->t.table.snaps = calloc(nr_events, sizeof(*f->t.table.snaps));
	ck_assert_ptr_nonnull(f->t.table.snaps);
	f->t.table.nr_snaps = nr_events;
	add_entries(&f->t.table.snaps[0]);
	f->t.have_snap = true;
	add_row(&f->t, &lib, "spin_a", 0x1000, 0x100, 600);
	add_row(&f->t, &kern, "do_syscall_64", 0x2000, 0x10, 390);
	add_row(&f->t, &lib, "spin_c", 0x1100, 0x100, 10);
	listview__update(&top__of(&f->t)->lv);
	f->t.hi = (struct header_info){
		.target = f->a.target_desc, .event = "cpu-clock", .freq = 4000,
		.elapsed = 3.5, .window = 2, .window_samples = 800,
		.nr_events = nr_events,
	};
	snprintf(f->dir, sizeof(f->dir), "/tmp/ptop-check-tui-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(f->dir));
	f->t.save_dir = f->dir;
}

static void fixture_fini(struct fixture *f)
{
	char cmd[128];

	tui__fini(&f->t);
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

static void check_fits(const struct screen *s)
{
	for (size_t y = 0; y < s->rows; y++) {
		const char *l = screen__text(s, y);

		ck_assert_msg(display_width(l, strlen(l)) <= s->cols,
			      "line %zu wider than %zu: '%s'", y, s->cols, l);
		for (const char *p = l; *p; p++)
			ck_assert_msg((unsigned char)*p >= 0x20 && *p != 0x7f,
				      "control byte in line %zu", y);
	}
}

START_TEST(test_render_table)
{
	struct fixture f;
	struct screen s;
	int y;

	fixture_init(&f, 1);
	screen__init(&s);
	screen__resize(&s, 40, 120);
	tui__render(&f.t, &s, 0);
	check_fits(&s);
	ck_assert_ptr_nonnull(strstr(screen__text(&s, 0),
				     "event cpu-clock, 4000 Hz; target pid 7 (spin3)"));
	ck_assert_int_eq(screen__style_at(&s, 0, 0), ST_BOLD);
	ck_assert_ptr_nonnull(strstr(screen__text(&s, 1), "samples 1000 (400/s)"));
	y = find_line(&s, "Overhead");
	ck_assert_int_eq(y, 2);
	ck_assert_int_eq(screen__style_at(&s, 2, 0), ST_TITLE);
	ck_assert_str_eq(screen__text(&s, 3),
			 "  60.00%      600  spin3              [.] spin_a");
	/* the first row is selected: the selection wins over colours */
	ck_assert_int_eq(screen__style_at(&s, 3, 2), ST_SELECTED);
	/* 39 %: hot (red) overhead cell, the rest plain */
	ck_assert_int_eq(screen__style_at(&s, 4, 2), ST_HOT);
	ck_assert_int_eq(screen__style_at(&s, 4, 30), ST_NORMAL);
	ck_assert_str_eq(screen__text(&s, 4),
			 "  39.00%      390  [kernel.kallsyms]  [k] do_syscall_64");
	/* 1 %: medium (green) */
	ck_assert_int_eq(screen__style_at(&s, 5, 2), ST_MEDIUM);
	/* the footer: key hints from the key table, htop's F-keys first
	 * where the line holds them */
	ck_assert_msg(!strncmp(screen__text(&s, 39), "F1 help  F2 setup  F3 "
			       "search  F4 filter  F5 tree  F6 sort  F10 quit"
			       "  Esc undo", 61), "%s", screen__text(&s, 39));
	ck_assert_int_eq(screen__style_at(&s, 39, 0), ST_KEY);
	/* a click on one is its key: F6 opens the picker */
	{
		struct mouse_event ev = { .y = 39, .button = MB_LEFT,
					  .kind = MK_PRESS, .clicks = 1 };
		const char *l = screen__text(&s, 39);

		ev.x = (int)(strstr(l, "F6 sort") - l) + 3;
		ck_assert_int_eq(tui__mouse(&f.t, &ev), R_REDRAW);
		ck_assert_uint_eq(tui__view(&f.t), V_MENU);
		tui__key(&f.t, K_ESC);
		/* the rest there is the view's (a drag that ends on the
		 * footer sees its end): the wheel moves the table */
		ck_assert_uint_eq(top__of(&f.t)->lv.selected, 0);
		ev.kind = MK_WHEEL;
		ev.button = MB_WHEEL_DOWN;
		ck_assert_int_eq(tui__mouse(&f.t, &ev), R_REDRAW);
		ck_assert_uint_gt(top__of(&f.t)->lv.selected, 0);
		ev.button = MB_WHEEL_UP;
		tui__mouse(&f.t, &ev);
		ck_assert_uint_eq(top__of(&f.t)->lv.selected, 0);
	}
	/* too narrow for them: the letters' hints */
	screen__resize(&s, 40, 60);
	tui__render(&f.t, &s, 0);
	ck_assert_msg(!strncmp(screen__text(&s, 39), "q quit  Esc undo", 16),
		      "%s", screen__text(&s, 39));
	screen__resize(&s, 40, 120);
	tui__render(&f.t, &s, 0);
	/* names still resolving: counted in words that agree */
	f.t.resolving = 1;
	tui__render(&f.t, &s, 0);
	ck_assert_str_eq(screen__text(&s, 39), "resolving 1 symbol\xe2\x80\xa6");
	f.t.resolving = 2;
	tui__render(&f.t, &s, 0);
	ck_assert_str_eq(screen__text(&s, 39), "resolving 2 symbols\xe2\x80\xa6");
	f.t.resolving = 0;
	tui__render(&f.t, &s, 0);
	/* moving down selects the next row */
	ck_assert_int_eq(tui__key(&f.t, K_DOWN), R_REDRAW);
	tui__render(&f.t, &s, 0);
	ck_assert_int_eq(screen__style_at(&s, 4, 2), ST_SELECTED);
	ck_assert_int_eq(screen__style_at(&s, 3, 2), ST_HOT);
	screen__fini(&s);
	fixture_fini(&f);
}
END_TEST

START_TEST(test_render_every_size)
{
	static const size_t sizes[][2] = {
		{ 40, 120 }, { 12, 40 }, { 3, 10 }, { 1, 1 }, { 0, 0 },
		{ 2, 200 }, { 5, 5 }, { 100, 3 }, { 4, 80 },
	};
	struct fixture f;
	struct screen s;

	memset(huge, 'x', sizeof(huge) - 1);
	fixture_init(&f, 1);
	add_row(&f.t, &lib, huge, 0x3000, 1, 1);
	listview__update(&top__of(&f.t)->lv);
	/* lost samples: a warning line */
	f.t.table.snaps[0].counts.lost = 5;
	f.t.table.snaps[0].lost = 5;
	f.t.table.snaps[0].counts.throttle = 3;
	screen__init(&s);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		screen__resize(&s, sizes[i][0], sizes[i][1]);
		for (unsigned int v = 0; v < 4; v++) {
			if (v == 1)
				tui__key(&f.t, 'h');
			if (v == 2)
				tui__key(&f.t, '/');
			if (v == 3)
				tui__key(&f.t, K_ESC);
			tui__render(&f.t, &s, 0);
			check_fits(&s);
			if (v == 1)
				tui__key(&f.t, K_ESC);
		}
		tui__key(&f.t, K_END);
	}
	/* 10x3: the event, the titles, the footer */
	screen__resize(&s, 3, 10);
	tui__render(&f.t, &s, 0);
	ck_assert_str_eq(screen__text(&s, 0), "event cpu\xe2\x80\xa6");
	ck_assert_str_eq(screen__text(&s, 1), "Overhead \xe2\x80\xa6");
	/* the lost samples are highlighted, with advice */
	screen__resize(&s, 40, 160);
	tui__render(&f.t, &s, 0);
	ck_assert_int_ge(find_line(&s, "WARNING: 5 records lost"), 0);
	ck_assert_int_ge(find_line(&s, "WARNING: the kernel throttled sampling 3 "
				       "times"), 0);
	ck_assert_int_eq(screen__style_at(&s, (size_t)find_line(&s, "WARNING"), 0),
			 ST_WARN);
	ck_assert_int_eq(screen__style_at(&s, 1,
					  (size_t)(strstr(screen__text(&s, 1), "lost 5") -
						   screen__text(&s, 1))),
			 ST_WARN);
	screen__fini(&s);
	fixture_fini(&f);
}
END_TEST

START_TEST(test_hostile_names)
{
	struct fixture f;
	struct screen s;
	static const struct dso evil = {
		.kind = DSO_FILE, .name = "x\x1b]52;c;QUJD\x07.so",
	};

	fixture_init(&f, 1);
	add_row(&f.t, &evil, "f\x1b[2J\xc2\x9b" "31m\xe2\x80\xae\n", 0x4000, 1,
		300);
	snprintf(f.a.target_desc, sizeof(f.a.target_desc),
		 "pid 7 (\x1b[31mevil)");
	f.a.filter.sym_substr = NULL;
	listview__update(&top__of(&f.t)->lv);
	screen__init(&s);
	screen__resize(&s, 20, 100);
	tui__render(&f.t, &s, 0);
	check_fits(&s);
	ck_assert_int_ge(find_line(&s, "x?]52;c;QUJD?.so"), 0);
	ck_assert_int_ge(find_line(&s, "[.] f?[2J?31m??"), 0);
	ck_assert_int_ge(find_line(&s, "(?[31mevil)"), 0);
	/* a status message and a typed filter are sanitized too */
	tui__status(&f.t, ST_NORMAL, "bad \x1b[5m name");
	tui__render(&f.t, &s, 0);
	ck_assert_int_ge(find_line(&s, "bad ?[5m name"), 0);
	tui__key(&f.t, '/');
	tui__key(&f.t, 0x9b);	/* not text: ignored */
	tui__key(&f.t, 'a');
	tui__render(&f.t, &s, 0);
	ck_assert_str_eq(screen__text(&s, 19), "Filter symbols: a");
	ck_assert_int_eq(s.cursor_y, 19);
	ck_assert_int_eq(s.cursor_x, 17);
	screen__fini(&s);
	fixture_fini(&f);
}
END_TEST

START_TEST(test_symbol_filter_and_undo)
{
	struct fixture f;

	fixture_init(&f, 1);
	ck_assert_int_eq(tui__key(&f.t, '/'), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_PROMPT);
	ck_assert_int_eq(tui__key(&f.t, 's'), R_REBUILD);
	ck_assert_str_eq(f.t.table.filter.sym_substr, "s");
	tui__key(&f.t, 'p');
	ck_assert_str_eq(f.t.table.filter.sym_substr, "sp");
	ck_assert_int_eq(tui__key(&f.t, K_BACKSPACE), R_REBUILD);
	ck_assert_str_eq(f.t.table.filter.sym_substr, "s");
	/* Esc in the prompt: back to no filter */
	ck_assert_int_eq(tui__key(&f.t, K_ESC), R_REBUILD);
	ck_assert_ptr_null(f.t.table.filter.sym_substr);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	/* Enter keeps it, as a level Esc undoes */
	tui__key(&f.t, '/');
	tui__key(&f.t, 'b');
	ck_assert_int_eq(tui__key(&f.t, K_ENTER), R_REBUILD);
	ck_assert_str_eq(f.t.table.filter.sym_substr, "b");
	ck_assert_uint_eq(top__nr_undo(&f.t), 1);
	tui__describe_filters(&f.t, f.t.filters, sizeof(f.t.filters));
	ck_assert_str_eq(f.t.filters, "symbol ~ 'b'");
	/* a second filter stacks on the first */
	tui__key(&f.t, '/');
	tui__key(&f.t, 'c');
	tui__key(&f.t, K_ENTER);
	ck_assert_str_eq(f.t.table.filter.sym_substr, "bc");
	ck_assert_int_eq(tui__key(&f.t, K_ESC), R_REBUILD);
	ck_assert_str_eq(f.t.table.filter.sym_substr, "b");
	ck_assert_int_eq(tui__key(&f.t, K_LEFT), R_REBUILD);
	ck_assert_ptr_null(f.t.table.filter.sym_substr);
	/* empty clears it */
	tui__key(&f.t, '/');
	tui__key(&f.t, 'x');
	tui__key(&f.t, K_ENTER);
	tui__key(&f.t, '/');
	tui__key(&f.t, K_CTRL_U);
	tui__key(&f.t, K_ENTER);
	ck_assert_ptr_null(f.t.table.filter.sym_substr);
	ck_assert_uint_eq(top__nr_undo(&f.t), 0);
	/* nothing left to undo: Esc says so and asks nothing, so that the
	 * next key is a key of the table (/ opens the filter); q quits */
	ck_assert_int_eq(tui__key(&f.t, K_ESC), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	ck_assert_str_eq(f.t.status, "nothing to undo: q quits");
	ck_assert_int_eq(tui__key(&f.t, '/'), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_PROMPT);
	tui__key(&f.t, K_ESC);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	ck_assert_int_eq(tui__key(&f.t, 'q'), R_QUIT);
	ck_assert_int_eq(tui__key(&f.t, K_CTRL_C), R_QUIT);
	fixture_fini(&f);
}
END_TEST

/* g: the selected row's cgroup, the one with most of its period; Esc
 * undoes it */
START_TEST(test_zoom_cgroup)
{
	struct fixture f;

	fixture_init(&f, 1);
	/* spin_a: a.service (tid 7: 100 + 250) over /b (250) */
	ck_assert_int_eq(tui__key(&f.t, 'g'), R_REBUILD);
	ck_assert(f.t.table.filter.has_cgroup);
	ck_assert_ptr_eq(f.t.table.filter.cgroup, cg_a);
	ck_assert_ptr_nonnull(strstr(f.t.status, "cgroup a.service"));
	ck_assert_int_eq(tui__key(&f.t, 'g'), R_REDRAW);	/* already */
	ck_assert_ptr_nonnull(strstr(f.t.status, "already"));
	ck_assert_int_eq(tui__key(&f.t, K_ESC), R_REBUILD);
	ck_assert(!f.t.table.filter.has_cgroup);
	ck_assert_ptr_nonnull(strstr(f.t.status, "cgroup zoom undone"));
	/* the kernel row's samples have no known cgroup */
	tui__key(&f.t, K_DOWN);
	ck_assert_int_eq(tui__key(&f.t, 'g'), R_REDRAW);
	ck_assert(!f.t.table.filter.has_cgroup);
	ck_assert_ptr_nonnull(strstr(f.t.status, "no known cgroup"));
	/* grouped by cgroup, the row's own: tid 8's /b */
	f.t.table.rows.rows[1].cgroup = cg_b;
	f.t.table.spec.group[f.t.table.spec.nr_group++] = SORT_CGROUP;
	ck_assert_int_eq(tui__key(&f.t, 'g'), R_REBUILD);
	ck_assert_ptr_eq(f.t.table.filter.cgroup, cg_b);
	fixture_fini(&f);
}
END_TEST

START_TEST(test_zooms)
{
	struct fixture f;

	fixture_init(&f, 1);
	/* d: the selected row's object */
	ck_assert_int_eq(tui__key(&f.t, 'd'), R_REBUILD);
	ck_assert_ptr_eq(f.t.table.filter.dso, &lib);
	ck_assert_int_eq(tui__key(&f.t, 'd'), R_REDRAW);	/* already */
	/* t: the busiest thread of spin_a (tid 7: 100 + 250 > 250) */
	ck_assert_int_eq(tui__key(&f.t, 't'), R_REBUILD);
	ck_assert(f.t.table.filter.has_tid);
	ck_assert_int_eq(f.t.table.filter.tid, 7);
	ck_assert_ptr_nonnull(strstr(f.t.status, "thread 7 (spin3)"));
	/* T: its process */
	ck_assert_int_eq(tui__key(&f.t, 'T'), R_REBUILD);
	ck_assert(f.t.table.filter.has_pid);
	ck_assert_int_eq(f.t.table.filter.pid, 7);
	/* K is on the filters: line too: Esc undoes it first, then each
	 * zoom, each putting back its own fields only */
	tui__key(&f.t, 'K');
	ck_assert(f.t.table.filter.hide_kernel);
	ck_assert_uint_eq(top__nr_undo(&f.t), 4);
	tui__key(&f.t, K_ESC);
	ck_assert(!f.t.table.filter.hide_kernel);
	ck_assert(f.t.table.filter.has_pid);
	tui__key(&f.t, K_ESC);
	ck_assert(!f.t.table.filter.has_pid);
	ck_assert(f.t.table.filter.has_tid);
	tui__key(&f.t, K_ESC);
	ck_assert(!f.t.table.filter.has_tid);
	ck_assert_ptr_eq(f.t.table.filter.dso, &lib);
	/* a setting changed back leaves nothing to undo */
	tui__key(&f.t, 'K');
	tui__key(&f.t, 'K');
	ck_assert_uint_eq(top__nr_undo(&f.t), 1);
	tui__key(&f.t, K_ESC);
	ck_assert_ptr_null(f.t.table.filter.dso);
	tui__key(&f.t, 'K');
	ck_assert(f.t.table.filter.hide_kernel);
	/* K and U exclude each other */
	tui__key(&f.t, 'U');
	ck_assert(f.t.table.filter.hide_user);
	ck_assert(!f.t.table.filter.hide_kernel);
	tui__key(&f.t, 'U');
	ck_assert(!f.t.table.filter.hide_user);
	/* a kernel row zooms into the kernel's process 9 */
	tui__key(&f.t, K_DOWN);
	tui__key(&f.t, 'T');
	ck_assert_int_eq(f.t.table.filter.pid, 9);
	tui__key(&f.t, K_ESC);
	/* L: a percent limit */
	tui__key(&f.t, 'L');
	tui__key(&f.t, K_CTRL_U);
	tui__key(&f.t, '5');
	ck_assert_int_eq(tui__key(&f.t, K_ENTER), R_REBUILD);
	ck_assert(f.t.table.filter.percent_limit == 5.0);
	tui__key(&f.t, 'L');
	tui__key(&f.t, K_CTRL_U);
	tui__key(&f.t, '1');
	tui__key(&f.t, '0');
	tui__key(&f.t, '1');
	ck_assert_int_eq(tui__key(&f.t, K_ENTER), R_REDRAW);	/* > 100 */
	ck_assert(f.t.table.filter.percent_limit == 5.0);
	/* i and L are on the filters: line: Esc takes back i, then L */
	tui__key(&f.t, 'i');
	ck_assert(f.t.table.filter.show_idle);
	tui__describe_filters(&f.t, f.t.filters, sizeof(f.t.filters));
	ck_assert_ptr_nonnull(strstr(f.t.filters, "idle"));
	ck_assert_int_eq(tui__key(&f.t, K_ESC), R_REBUILD);
	ck_assert(!f.t.table.filter.show_idle);
	ck_assert(f.t.table.filter.percent_limit == 5.0);
	ck_assert_int_eq(tui__key(&f.t, K_ESC), R_REBUILD);
	ck_assert(f.t.table.filter.percent_limit == 0.0);
	ck_assert_uint_eq(top__nr_undo(&f.t), 0);
	fixture_fini(&f);
}
END_TEST

/* b marks the table as the baseline (columns Baseline and Delta, delta
 * orders offered), b again clears it. */
START_TEST(test_baseline_key)
{
	struct fixture f;

	fixture_init(&f, 1);
	for (int i = 0; i < 12; i++) {
		tui__key(&f.t, '>');
		ck_assert(f.t.table.spec.order != SORT_DELTA &&
			  f.t.table.spec.order != SORT_ABSDELTA);
	}
	tui__set_order(&f.t, SORT_OVERHEAD, false);
	ck_assert_int_eq(tui__key(&f.t, 'b'), R_REBUILD);
	ck_assert_ptr_nonnull(f.t.table.base);
	ck_assert_str_eq(f.t.table.base_desc, "marked at 3.5 s (before it)");
	/* the table counts again from the mark: the histogram is zeroed,
	 * the baseline keeps what came before */
	{
		struct snapshot now;

		snapshot__init(&now);
		session__lock(f.t.a->session);
		ck_assert_int_eq(session__snapshot(f.t.a->session, 0, &now), 0);
		session__unlock(f.t.a->session);
		ck_assert_uint_eq(now.total_samples, 0);
		ck_assert_uint_gt(table__base_snap(&f.t.table, 0)->total_samples,
				  0);
		snapshot__fini(&now);
	}
	ck_assert_int_eq(f.t.cols.col[0], COL_BASELINE);
	ck_assert_int_eq(f.t.cols.col[1], COL_OVERHEAD);
	ck_assert_int_eq(f.t.cols.col[2], COL_DELTA);
	/* rows as a build leaves them: a gain in red, a loss in green,
	 * a new row marked */
	{
		struct row *r = f.t.table.rows.rows;
		struct screen s;
		const char *l;

		r[0] = (struct row){ .dso = r[0].dso, .dso_name = r[0].dso_name,
				     .sym = r[0].sym, .samples = 600,
				     .period = 600, .cmp = CMP_BOTH,
				     .base_pct = 10, .delta = 50 };
		r[1].cmp = CMP_BOTH;
		r[1].base_pct = 59;
		r[1].delta = -20;
		r[2].cmp = CMP_NEW;
		r[2].delta = 1;
		screen__init(&s);
		screen__resize(&s, 40, 120);
		tui__render(&f.t, &s, 0);
		check_fits(&s);
		ck_assert_int_eq(find_line(&s, "Baseline  Overhead"), 2);
		l = screen__text(&s, 4);
		ck_assert_msg(strstr(l, "59.00%    39.00%  -20.00%"), "%s", l);
		ck_assert_int_eq(screen__style_at(&s, 4,
				 (size_t)(strstr(l, "-20.00%") - l)), ST_MEDIUM);
		l = screen__text(&s, 5);
		ck_assert_msg(strstr(l, "  -     1.00%   +1.00%  new"), "%s", l);
		ck_assert_int_eq(screen__style_at(&s, 5,
				 (size_t)(strstr(l, "+1.00%") - l)), ST_HOT);
		screen__fini(&s);
	}
	/* against itself: every row in both, no change */
	ck_assert_int_eq(table__build(&f.t.table, 0), 0);
	ck_assert_uint_gt(f.t.table.rows.nr, 1);
	for (size_t i = 0; i < f.t.table.rows.nr; i++) {
		ck_assert_int_eq(f.t.table.rows.rows[i].cmp, CMP_BOTH);
		ck_assert(f.t.table.rows.rows[i].delta == 0.0);
	}
	/* from overhead back: the grouping columns, then absdelta */
	tui__key(&f.t, '<');
	tui__key(&f.t, '<');
	tui__key(&f.t, '<');
	ck_assert_int_eq(f.t.table.spec.order, SORT_ABSDELTA);
	ck_assert_int_eq(tui__key(&f.t, 'b'), R_REBUILD);
	ck_assert_ptr_null(f.t.table.base);
	ck_assert_ptr_null(f.t.table.cmp);
	ck_assert_int_eq(f.t.cols.col[0], COL_OVERHEAD);
	ck_assert_int_eq(table__build(&f.t.table, 0), 0);
	ck_assert_int_eq(f.t.table.rows.rows[0].cmp, CMP_NONE);
	/* nothing comes after a mark once the source has ended */
	f.t.a->finished = true;
	ck_assert_int_eq(tui__key(&f.t, 'b'), R_REDRAW);
	ck_assert_ptr_null(f.t.table.base);
	ck_assert_ptr_nonnull(strstr(f.t.status, "nothing comes after a mark"));
	fixture_fini(&f);
}
END_TEST

/* The mouse on the views that are lists (the row menu here): a click
 * selects the item under it, the wheel moves three items, a double click
 * picks (Enter); a click on no item, or under a prompt, does nothing. */
START_TEST(test_mouse_lists)
{
	struct mouse_event ev = { .button = MB_LEFT, .kind = MK_PRESS,
				  .clicks = 1 };
	struct fixture f;
	struct screen s;
	struct listview *lv;
	int y, title;

	fixture_init(&f, 1);
	screen__init(&s);
	screen__resize(&s, 40, 120);
	tui__render(&f.t, &s, 0);
	/* a double click on the second row: its menu */
	y = find_line(&s, "[k] do_syscall_64");
	ck_assert_int_ge(y, 0);
	ev.y = y;
	ev.x = 10;
	ck_assert_int_eq(tui__mouse(&f.t, &ev), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	ev.clicks = 2;
	tui__mouse(&f.t, &ev);
	ck_assert_uint_eq(tui__view(&f.t), V_MENU);
	screen__clear(&s);
	tui__render(&f.t, &s, 0);
	ck_assert_int_eq(find_line(&s, "do_syscall_64"), 0);
	lv = tui__list(&f.t, V_MENU);
	ck_assert_uint_eq(lv->selected, 0);
	/* the wheel: three items down, then back */
	ev.kind = MK_WHEEL;
	ev.button = MB_WHEEL_DOWN;
	ck_assert_int_eq(tui__mouse(&f.t, &ev), R_REDRAW);
	ck_assert_uint_eq(lv->selected, 3);
	ev.button = MB_WHEEL_UP;
	tui__mouse(&f.t, &ev);
	ck_assert_uint_eq(lv->selected, 0);
	/* a click on the title, or past the items: nothing */
	ev.kind = MK_PRESS;
	ev.button = MB_LEFT;
	ev.clicks = 1;
	title = find_line(&s, "do_syscall_64");
	ev.y = title;
	ck_assert_int_eq(tui__mouse(&f.t, &ev), R_NONE);
	ev.y = 30;
	ck_assert_int_eq(tui__mouse(&f.t, &ev), R_NONE);
	ck_assert_uint_eq(lv->selected, 0);
	ck_assert_uint_eq(tui__view(&f.t), V_MENU);
	/* a click selects; the second press of a double click picks:
	 * zoomed into the row's object */
	y = find_line(&s, "Zoom into [kernel.kallsyms] (d)");
	ck_assert_int_gt(y, title);
	ev.y = y;
	ck_assert_int_eq(tui__mouse(&f.t, &ev), R_REDRAW);
	ck_assert_uint_gt(lv->selected, 0);
	ck_assert_uint_eq(tui__view(&f.t), V_MENU);
	ck_assert_ptr_null(f.t.table.filter.dso);
	ev.clicks = 2;
	ck_assert_int_eq(tui__mouse(&f.t, &ev), R_REBUILD);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	ck_assert_ptr_nonnull(f.t.table.filter.dso);
	/* under a prompt the mouse does nothing */
	tui__key(&f.t, '/');
	ck_assert_uint_eq(tui__view(&f.t), V_PROMPT);
	ev.y = 5;
	ck_assert_int_eq(tui__mouse(&f.t, &ev), R_NONE);
	ck_assert_uint_eq(tui__view(&f.t), V_PROMPT);
	tui__key(&f.t, K_ESC);
	screen__fini(&s);
	fixture_fini(&f);
}
END_TEST

START_TEST(test_sorting)
{
	struct fixture f;
	const struct menu *m;
	size_t i;

	fixture_init(&f, 1);
	ck_assert_int_eq(tui__key(&f.t, '>'), R_REBUILD);
	ck_assert_int_eq(f.t.table.spec.order, SORT_SAMPLES);
	/* < and > go through the counts, then the columns rows are grouped
	 * by (dso, sym): never a column they are not grouped by */
	tui__key(&f.t, '<');
	tui__key(&f.t, '<');
	ck_assert_int_eq(f.t.table.spec.order, SORT_SYM);
	tui__key(&f.t, '<');
	ck_assert_int_eq(f.t.table.spec.order, SORT_DSO);
	ck_assert_uint_eq(f.t.table.spec.nr_group, 2);
	ck_assert_int_eq(f.t.cols.col[2], COL_DSO);
	ck_assert_int_eq(f.t.cols.col[3], COL_SYM);
	tui__key(&f.t, 'I');
	ck_assert(f.t.table.spec.invert);
	tui__describe_filters(&f.t, f.t.filters, sizeof(f.t.filters));
	ck_assert_str_eq(f.t.filters, "sort dso inverted");
	/* the order is on the stack Esc unwinds, as one entry */
	ck_assert_uint_eq(top__nr_undo(&f.t), 1);
	ck_assert_int_eq(tui__key(&f.t, K_ESC), R_REBUILD);
	ck_assert_int_eq(f.t.table.spec.order, SORT_OVERHEAD);
	ck_assert(!f.t.table.spec.invert);
	ck_assert_uint_eq(top__nr_undo(&f.t), 0);
	/* the picker: orders, then groupings */
	ck_assert_int_eq(tui__key(&f.t, 's'), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_MENU);
	m = menu__shown(&f.t);
	/* Order by: 3 counts, dso, sym; Group by: 8 columns; 2 titles */
	ck_assert_uint_eq(m->nr, 2 + 3 + 2 + 8);
	/* comm is a grouping to add, not an order */
	for (i = 0; i < m->nr && !strstr(m->items[i].label, "[ ] comm"); i++)
		;
	ck_assert_uint_lt(i, m->nr);
	listview__select_row(tui__list(&f.t, V_MENU), i);
	ck_assert_int_eq(tui__key(&f.t, K_ENTER), R_REBUILD);
	/* grouped by comm too; still ordered by overhead; the picker
	 * stays for the next grouping */
	ck_assert(sort_spec__has(&f.t.table.spec, SORT_COMM));
	ck_assert_int_eq(f.t.table.spec.order, SORT_OVERHEAD);
	ck_assert_uint_eq(tui__view(&f.t), V_MENU);
	tui__key(&f.t, K_ESC);
	tui__describe_filters(&f.t, f.t.filters, sizeof(f.t.filters));
	ck_assert_str_eq(f.t.filters, "grouped by dso,sym,comm");
	/* now comm can order (A to Z) */
	ck_assert_int_eq(top__set_order(&f.t, SORT_COMM, false),
			 R_REBUILD);
	ck_assert_int_eq(f.t.table.spec.order, SORT_COMM);
	/* a column not grouped cannot */
	ck_assert_int_eq(top__set_order(&f.t, SORT_CPU, false), R_REDRAW);
	ck_assert_int_eq(f.t.table.spec.order, SORT_COMM);
	/* Esc: the order, then the grouping */
	ck_assert_uint_eq(top__nr_undo(&f.t), 2);
	tui__key(&f.t, K_ESC);
	ck_assert_int_eq(f.t.table.spec.order, SORT_OVERHEAD);
	ck_assert(sort_spec__has(&f.t.table.spec, SORT_COMM));
	tui__key(&f.t, K_ESC);
	ck_assert(!sort_spec__has(&f.t.table.spec, SORT_COMM));
	ck_assert_uint_eq(f.t.table.spec.nr_group, 2);
	/* the only grouping column stays */
	ck_assert_int_eq(actions__toggle_group(&f.t, SORT_SYM), R_REBUILD);
	ck_assert_int_eq(actions__toggle_group(&f.t, SORT_DSO), R_REDRAW);
	ck_assert_uint_eq(f.t.table.spec.nr_group, 1);
	fixture_fini(&f);
}
END_TEST

/* F2: the setup screen changes settings in place and saves them into
 * the settings file, its comments and other lines kept */
START_TEST(test_setup)
{
	struct fixture f;
	char path[128], text[512];
	struct strbuf why;
	FILE *fp;
	size_t n;

	fixture_init(&f, 1);
	strbuf__init(&why);
	ck_assert_int_eq(tui__key(&f.t, K_F(2)), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_SETUP);
	/* Sort order: the next value, on the stack Esc unwinds */
	ck_assert_int_eq(tui__key(&f.t, K_RIGHT), R_REBUILD);
	ck_assert_int_eq(f.t.table.spec.order, SORT_SAMPLES);
	/* Period column */
	tui__key(&f.t, K_DOWN);
	tui__key(&f.t, K_DOWN);
	ck_assert_int_eq(tui__key(&f.t, K_ENTER), R_REBUILD);
	ck_assert(f.a.show_period);
	/* Percent limit: a step */
	tui__key(&f.t, K_DOWN);
	tui__key(&f.t, K_RIGHT);
	ck_assert(f.t.table.filter.percent_limit == 0.1);
	tui__key(&f.t, K_LEFT);
	ck_assert(f.t.table.filter.percent_limit == 0);
	tui__key(&f.t, K_RIGHT);
	tui__key(&f.t, K_RIGHT);
	ck_assert(f.t.table.filter.percent_limit == 0.5);
	/* Rows: a step, on the stack too; the percent limit's entry
	 * stays under it */
	tui__key(&f.t, K_DOWN);
	ck_assert_int_eq(tui__key(&f.t, K_RIGHT), R_REBUILD);
	ck_assert_uint_eq(f.t.table.filter.max_rows, 10);
	ck_assert_uint_eq(top__nr_undo(&f.t), 3);
	tui__key(&f.t, K_LEFT);
	ck_assert_uint_eq(f.t.table.filter.max_rows, 0);
	ck_assert_uint_eq(top__nr_undo(&f.t), 2);
	tui__key(&f.t, K_RIGHT);
	/* Mouse: off */
	for (int i = 0; i < 6; i++)
		tui__key(&f.t, K_DOWN);
	f.a.mouse = true;
	tui__key(&f.t, K_ENTER);
	ck_assert(!f.a.mouse);
	/* saved: into a file that has a comment, a setting ptop leaves
	 * alone and one it now says otherwise */
	snprintf(path, sizeof(path), "%s/cfg/ptop/config", f.dir);
	ck_assert_int_eq(setup__save(&f.t, path, &why), 0);
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs("# mine\nevent = page-faults\norder = period\n", fp);
	fclose(fp);
	ck_assert_int_eq(chmod(path, 0600), 0);
	ck_assert_int_eq(setup__save(&f.t, path, &why), 0);
	fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fp);
	n = fread(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	text[n] = '\0';
	ck_assert_ptr_nonnull(strstr(text, "# mine\nevent = page-faults\n"
					   "order = sample\n"));
	ck_assert_ptr_nonnull(strstr(text, "\nshow-period\n"));
	ck_assert_ptr_nonnull(strstr(text, "\npercent-limit = 0.5\n"));
	ck_assert_ptr_nonnull(strstr(text, "\nno-mouse\n"));
	/* at their defaults: no line */
	ck_assert_ptr_null(strstr(text, "delay"));
	ck_assert_ptr_null(strstr(text, "sort ="));
	/* a file others may write is not written over */
	ck_assert_int_eq(chmod(path, 0666), 0);
	ck_assert_int_eq(setup__save(&f.t, path, &why), -EPERM);
	ck_assert_ptr_nonnull(strstr(why.buf, "writable by its group or others"));
	strbuf__fini(&why);
	/* Esc: back to the table, the changes kept */
	ck_assert_int_eq(tui__key(&f.t, K_ESC), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	ck_assert(f.a.show_period);
	/* and Esc there takes back the rows' limit, the percent limit,
	 * the order, the last first */
	ck_assert_uint_eq(top__nr_undo(&f.t), 3);
	tui__key(&f.t, K_ESC);
	ck_assert_uint_eq(f.t.table.filter.max_rows, 0);
	ck_assert(f.t.table.filter.percent_limit == 0.5);
	tui__key(&f.t, K_ESC);
	ck_assert(f.t.table.filter.percent_limit == 0);
	ck_assert_int_eq(f.t.table.spec.order, SORT_SAMPLES);
	tui__key(&f.t, K_ESC);
	ck_assert_int_eq(f.t.table.spec.order, SORT_OVERHEAD);
	fixture_fini(&f);
}
END_TEST

START_TEST(test_views_and_events)
{
	struct fixture f;

	fixture_init(&f, 2);
	ck_assert_uint_eq(tui__nr_shown(&f.t), 2);
	ck_assert_int_eq(tui__key(&f.t, K_TAB), R_REBUILD);
	ck_assert_uint_eq(f.t.ev_pos, 1);
	ck_assert_ptr_nonnull(strstr(f.t.status, "page-faults (2/2)"));
	tui__key(&f.t, K_TAB);
	ck_assert_uint_eq(f.t.ev_pos, 0);
	tui__key(&f.t, K_BTAB);
	ck_assert_uint_eq(f.t.ev_pos, 1);
	/* help: a list generated from the key table; q goes back */
	ck_assert_int_eq(tui__key(&f.t, K_F(1)), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_HELP);
	ck_assert_uint_gt(listview__nr(tui__list(&f.t, V_HELP)), 40);
	tui__key(&f.t, K_END);
	ck_assert_int_eq(tui__key(&f.t, 'q'), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	/* without a live source, e and p and f say why they cannot */
	ck_assert_int_eq(tui__key(&f.t, 'e'), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	ck_assert_ptr_nonnull(strstr(f.t.status, "no live source"));
	tui__key(&f.t, 'p');
	ck_assert_ptr_nonnull(strstr(f.t.status, "no live source"));
	tui__key(&f.t, 'f');
	ck_assert_ptr_nonnull(strstr(f.t.status, "no live source"));
	/* a: annotate; this session has no symbolizer: it says so */
	tui__key(&f.t, 'a');
	ck_assert_ptr_nonnull(strstr(f.t.status, "annotate spin_a"));
	/* z toggles zeroing; [ and ] the delay */
	tui__key(&f.t, 'z');
	ck_assert_int_eq(f.a.mode, HIST_ZERO);
	tui__key(&f.t, 'z');
	ck_assert_int_eq(f.a.mode, HIST_CUMULATIVE);
	tui__key(&f.t, ']');
	ck_assert(f.a.delay == 3);
	tui__key(&f.t, '[');
	tui__key(&f.t, '[');
	ck_assert(f.a.delay == 1);
	ck_assert(actions__delay_step(0.05, -1) == 0.05);
	ck_assert(actions__delay_step(0.05, 1) == 0.1);
	ck_assert(actions__delay_step(60, 1) == 60);
	ck_assert(actions__delay_step(2.5, -1) == 2);
	ck_assert(actions__delay_step(2.5, 1) == 3);
	fixture_fini(&f);
}
END_TEST

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	static char buf[8192];
	size_t n;

	if (!fp)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

START_TEST(test_save_and_row_menu)
{
	struct fixture f;
	char path[128];
	const char *text;

	fixture_init(&f, 1);
	ck_assert_int_eq(tui__key(&f.t, 'P'), R_REDRAW);
	snprintf(path, sizeof(path), "%s/ptop.hist.0", f.dir);
	ck_assert_ptr_nonnull(strstr(f.t.status, path));
	text = slurp(path);
	ck_assert_ptr_nonnull(text);
	/* the same text as batch mode */
	ck_assert_ptr_nonnull(strstr(text, "# event cpu-clock, 4000 Hz"));
	ck_assert_ptr_nonnull(strstr(text, "  60.00%      600  spin3"));
	tui__key(&f.t, 'P');
	snprintf(path, sizeof(path), "%s/ptop.hist.1", f.dir);
	ck_assert_ptr_nonnull(slurp(path));
	/* Enter: the row's menu; its last entry copies the row */
	ck_assert_int_eq(tui__key(&f.t, K_ENTER), R_REDRAW);
	ck_assert_uint_eq(tui__view(&f.t), V_MENU);
	ck_assert_str_eq(menu__shown(&f.t)->items[0].label, "Annotate spin_a");
	ck_assert_str_eq(menu__shown(&f.t)->items[1].label, "Zoom into spin3 (d)");
	tui__key(&f.t, K_END);
	tui__key(&f.t, K_ENTER);
	ck_assert_uint_eq(tui__view(&f.t), V_TOP);
	snprintf(path, sizeof(path), "%s/ptop.row.0", f.dir);
	text = slurp(path);
	ck_assert_ptr_nonnull(text);
	ck_assert_str_eq(text, "Overhead  Samples  Shared Object  Symbol\n"
			       "  60.00%      600  spin3          [.] spin_a\n");
	/* the menu's zoom */
	tui__key(&f.t, K_ENTER);
	tui__key(&f.t, K_DOWN);
	ck_assert_int_eq(tui__key(&f.t, K_RIGHT), R_REBUILD);
	ck_assert_ptr_eq(f.t.table.filter.dso, &lib);
	fixture_fini(&f);
}
END_TEST

START_TEST(test_check_terminal)
{
	char *old = getenv("TERM") ? strdup(getenv("TERM")) : NULL;

	setenv("TERM", "dumb", 1);
	ck_assert_int_eq(tui__check_terminal(), -EINVAL);
	setenv("TERM", "", 1);
	ck_assert_int_eq(tui__check_terminal(), -EINVAL);
	unsetenv("TERM");
	ck_assert_int_eq(tui__check_terminal(), -EINVAL);
	setenv("TERM", "no-such-terminal-type", 1);
	ck_assert_int_eq(tui__check_terminal(), -EINVAL);
	setenv("TERM", "vt100", 1);
	ck_assert_int_eq(tui__check_terminal(), 0);
	if (old)
		setenv("TERM", old, 1);
	else
		unsetenv("TERM");
	free(old);
}
END_TEST

/* The header's target: one function for the start and for p, so that
 * going back to system-wide keeps the words of -C. */
/* A stop request (SIGTERM, SIGINT, SIGHUP) or a waiting key cuts a build's
 * name lookups short: asked at most every 5 ms (the clock read every 64th
 * call), the answer sticks until the next build. */
START_TEST(test_build_cancel)
{
	struct fixture f;
	struct table *tb;

	fixture_init(&f, 1);
	tb = &f.t.table;
	ck_assert_ptr_nonnull(tb->cancel);
	ck_assert(!table__cancelled(tb));
	f.stop = SIGTERM;
	/* within 5 ms of the last question, or before the 64th call: not
	 * asked again */
	ck_assert(!table__cancelled(tb));
	usleep(6000);
	for (int i = 0; i < 64 && !table__cancelled(tb); i++)
		;
	ck_assert(table__cancelled(tb));
	f.stop = 0;
	ck_assert(table__cancelled(tb));	/* sticks */
	ck_assert_int_eq(table__build(tb, 0), 0);
	usleep(6000);
	ck_assert(!table__cancelled(tb));
	fixture_fini(&f);
}
END_TEST

START_TEST(test_describe_target)
{
	static bool cpus[PTOP_MAX_CPUS];
	pid_t pids[] = { 12, 345 };
	char arg0[] = "./spin3", arg1[] = "3";
	char *cmd[] = { arg0, arg1, NULL };
	struct target tg = { .kind = TARGET_SYSTEM };
	char buf[256], want[64];

	app__describe_target(&tg, NULL, buf, sizeof(buf));
	snprintf(want, sizeof(want), "all CPUs (%d)", cpus__nr_possible());
	ck_assert_str_eq(buf, want);
	cpus[0] = true;
	tg.cpus = cpus;
	app__describe_target(&tg, NULL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "CPUs 0");
	cpus[2] = cpus[3] = true;
	app__describe_target(&tg, NULL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "CPUs 0 2 3");
	/* cut, never overrun */
	memset(buf, 'x', sizeof(buf));
	app__describe_target(&tg, NULL, buf, 7);
	ck_assert_str_eq(buf, "CPUs 0");
	ck_assert_int_eq(buf[7], 'x');

	tg.kind = TARGET_PIDS;
	tg.pids = pids;
	tg.nr_pids = 2;
	app__describe_target(&tg, NULL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "pids 12,345");
	tg.kind = TARGET_TIDS;
	app__describe_target(&tg, NULL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "tids 12,345");
	pids[0] = getpid();
	tg.kind = TARGET_PIDS;
	tg.nr_pids = 1;
	app__describe_target(&tg, NULL, buf, sizeof(buf));
	snprintf(want, sizeof(want), "pid %d (", (int)getpid());
	ck_assert_msg(!strncmp(buf, want, strlen(want)), "%s", buf);

	tg.kind = TARGET_COMMAND;
	tg.pids = NULL;
	tg.nr_pids = 0;
	app__describe_target(&tg, cmd, buf, sizeof(buf));
	ck_assert_str_eq(buf, "command: ./spin3 3");
}
END_TEST

Suite *tui_suite(void)
{
	Suite *s = suite_create("tui");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_render_table);
	tcase_add_test(tc, test_render_every_size);
	tcase_add_test(tc, test_hostile_names);
	tcase_add_test(tc, test_symbol_filter_and_undo);
	tcase_add_test(tc, test_zooms);
	tcase_add_test(tc, test_zoom_cgroup);
	tcase_add_test(tc, test_sorting);
	tcase_add_test(tc, test_mouse_lists);
	tcase_add_test(tc, test_setup);
	tcase_add_test(tc, test_baseline_key);
	tcase_add_test(tc, test_views_and_events);
	tcase_add_test(tc, test_save_and_row_menu);
	tcase_add_test(tc, test_check_terminal);
	tcase_add_test(tc, test_describe_target);
	tcase_add_test(tc, test_build_cancel);
	suite_add_tcase(s, tc);
	return s;
}
