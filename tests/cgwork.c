/* tests/cgwork: cgwork in miniature for the call-graph suites: a session
 * of fake samples through the functions of /bin/cgw and libwlcg.so, a
 * resolver for them, and a tui on that session without a terminal. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cgwork.h"

u64 cgw_buf[8192];
struct session *cgw;

/* F_EVIL: an ESC sequence, OSC 52, C1 CSI, a bidi override, 64 KiB */
char cgw_evil[70000];
const char *const cgw_fn_names[] = {
	"main", "outer", "inner_a", "inner_b", "caller_x", "caller_y",
	"lib_work", cgw_evil,
};

u64 cgw_ip_of(int fn, u64 off)
{
	if (fn == F_LIB_WORK)
		return 0x7f0000001000ULL + off;
	return 0x401000 + (u64)fn * 0x100 + off;
}

int cgw_resolve(void *ctx, const struct dso *d, u64 addr,
		   struct row_sym *out)
{
	(void)ctx;
	memset(out, 0, sizeof(*out));
	out->dso_name = strrchr(d->name, '/') ? strrchr(d->name, '/') + 1
					      : d->name;
	if (strstr(d->name, "libwlcg") && addr >= 0x1000 && addr < 0x1100) {
		out->name = cgw_fn_names[F_LIB_WORK];
		out->start = 0x1000;
		out->size = 0x100;
	} else if (!strstr(d->name, "libwlcg") && addr >= 0x1000 &&
		   addr < 0x1800 && (addr - 0x1000) / 0x100 != F_LIB_WORK) {
		out->name = cgw_fn_names[(addr - 0x1000) / 0x100];
		out->start = addr & ~0xffULL;
		out->size = 0x100;
	}
	return 0;
}

void cgw_setup(void)
{
	static const char head[] = "ev\x1b[2Jil\xc2\x9b" "31m\xe2\x80\xae"
				   "\x1b]52;c;QUJD\x07";

	memset(cgw_evil, 'x', sizeof(cgw_evil) - 1);
	memcpy(cgw_evil, head, sizeof(head) - 1);
	struct session_opts o = { .key_fields = 0, .max_stack = 64 };
	struct perf_event_attr a;
	size_t t = record__id_trailer_size(CGW_ST, true);

	memset(&a, 0, sizeof(a));
	a.sample_type = CGW_ST;
	a.sample_id_all = 1;
	cgw = session__new(&o);
	ck_assert_ptr_nonnull(cgw);
	ck_assert_int_eq(session__add_event(cgw, "cpu-clock", &a), 0);
	session__process(cgw, fake_comm(cgw_buf, 10, 10, "cgw", false, t));
	session__process(cgw, fake_mmap2(cgw_buf, 10, 0x400000, 0x10000, 0,
				       "/bin/cgw",
				       (const u8 *)"cgwbuildid-cgwbuildi", 20,
				       t));
	session__process(cgw, fake_mmap2(cgw_buf, 10, 0x7f0000000000ULL, 0x10000,
				       0, "/lib/libwlcg.so",
				       (const u8 *)"libbuildid-libbuildi", 20,
				       t));
}

void cgw_teardown(void)
{
	session__free(cgw);
}

/* A sample of n frames (innermost first) at offsets off (return
 * addresses after the first: calls from different places of a function
 * make different chains through the same tree node). */
void cgw_sample_at(u64 period, int n, const int *fns, const int *off)
{
	u64 chain[24];
	struct fake_sample fs = { .pid = 10, .tid = 10, .time = 1,
				  .period = period,
				  .misc = PERF_RECORD_MISC_USER };

	chain[0] = (u64)PERF_CONTEXT_USER;
	for (int i = 0; i < n; i++)
		chain[i + 1] = cgw_ip_of(fns[i], (u64)off[i]);
	fs.ip = chain[1];
	fs.callchain = chain;
	fs.nr_callchain = (u64)n + 1;
	ck_assert_int_eq(session__process(cgw, fake_sample(cgw_buf, CGW_ST, &fs)), 0);
}

/* A sample whose chain is given innermost first, as the kernel writes
 * it; the first is the sampled ip (+0x40), the callers' return
 * addresses +0x11. */
void cgw_sample(u64 period, int n, const int *fns)
{
	int off[16];

	ck_assert_int_le(n, 16);
	for (int i = 0; i < n; i++)
		off[i] = i ? 0x11 : 0x40;
	cgw_sample_at(period, n, fns, off);
}

/* cgwork in miniature: outer 300 (inner_a 200, inner_b 100), lib_work
 * 300 (from caller_x 200, from caller_y 100), caller_x 10 of its own. */
void cgw_feed(void)
{
	static const int a[] = { F_INNER_A, F_OUTER, F_MAIN },
			 b[] = { F_INNER_B, F_OUTER, F_MAIN },
			 x[] = { F_LIB_WORK, F_CALLER_X, F_MAIN },
			 y[] = { F_LIB_WORK, F_CALLER_Y, F_MAIN },
			 xs[] = { F_CALLER_X, F_MAIN };

	cgw_sample(200, 3, a);
	cgw_sample(100, 3, b);
	cgw_sample(150, 3, x);
	cgw_sample(50, 3, x);
	cgw_sample(100, 3, y);
	cgw_sample(10, 2, xs);
}

const struct row *cgw_find(const struct rowset *rs, const char *name)
{
	for (size_t i = 0; i < rs->nr; i++)
		if (rs->rows[i].sym && strcmp(rs->rows[i].sym, name) == 0)
			return &rs->rows[i];
	return NULL;
}

void cgw_build(struct rowset *rs, struct snapshot *snap, bool children)
{
	struct sort_spec spec;

	sort_spec__default(&spec);
	spec.children = children;
	snapshot__init(snap);
	ck_assert_int_eq(session__snapshot(cgw, 0, snap), 0);
	rowset__init(rs);
	ck_assert_int_eq(rowset__build(rs, snap, &spec, NULL, cgw_resolve, NULL),
			 0);
}

/* ---- the live view: a tui on the suite's session, no terminal ---- */

void cgw_tui_refresh(struct cgw_tui *f)
{
	ck_assert_int_eq(table__snapshot(&f->t.table, HIST_CUMULATIVE), 0);
	f->t.have_snap = true;
	ck_assert_int_eq(tui__rebuild(&f->t), 0);
}

void cgw_tui_start_order(struct cgw_tui *f, bool callgraph,
			    enum cg_order order)
{
	memset(f, 0, sizeof(*f));
	f->a.session = cgw;
	sort_spec__default(&f->a.spec);
	f->a.spec.children = true;
	f->a.callgraph = callgraph;
	f->a.cg_order = order;
	f->a.delay = 2;
	f->a.stop = &f->stop;
	snprintf(f->a.target_desc, sizeof(f->a.target_desc), "pid 10 (cgw)");
	tui__init(&f->t, &f->a);
	f->t.table.resolve = cgw_resolve;
	f->t.table.resolve_ctx = NULL;
	f->t.hi = (struct header_info){ .target = f->a.target_desc,
					.event = "cpu-clock", .nr_events = 1 };
	screen__init(&f->s);
	screen__resize(&f->s, 40, 120);
	cgw_tui_refresh(f);
}

void cgw_tui_start(struct cgw_tui *f, bool callgraph)
{
	cgw_tui_start_order(f, callgraph, CG_CALLER);
}

void cgw_tui_stop(struct cgw_tui *f)
{
	screen__fini(&f->s);
	tui__fini(&f->t);
}

/* A key through the key table, and what the loop then does. */
enum act_result cgw_key(struct cgw_tui *f, int k)
{
	enum act_result r = tui__key(&f->t, k);

	if (r == R_REBUILD)
		ck_assert_int_eq(tui__rebuild(&f->t), 0);
	return r;
}

int cgw_line_of(struct cgw_tui *f, const char *text)
{
	tui__render(&f->t, &f->s, 0);
	for (size_t y = 0; y < f->s.rows; y++) {
		const char *l = screen__text(&f->s, y);

		ck_assert_msg(display_width(l, strlen(l)) <= f->s.cols,
			      "line %zu too wide", y);
		if (strstr(l, text))
			return (int)y;
	}
	return -1;
}

/* The line that is text and blanks, or -1. */
int cgw_line_is(struct cgw_tui *f, const char *text)
{
	size_t n = strlen(text);

	tui__render(&f->t, &f->s, 0);
	for (size_t y = 0; y < f->s.rows; y++) {
		const char *l = screen__text(&f->s, y);

		if (strncmp(l, text, n) == 0 && strspn(l + n, " ") == strlen(l + n))
			return (int)y;
	}
	return -1;
}

const char *cgw_selected_sym(struct cgw_tui *f, size_t *sub)
{
	const struct row *r = top__selected_line(&f->t, sub, NULL);

	ck_assert_ptr_nonnull(r);
	return r->sym;
}

void cgw_select_sym(struct cgw_tui *f, const char *name)
{
	size_t sub;

	cgw_key(f, K_HOME);
	for (int i = 0; i < 100; i++) {
		if (strcmp(cgw_selected_sym(f, &sub), name) == 0 && !sub)
			return;
		cgw_key(f, K_DOWN);
	}
	ck_abort_msg("no row %s", name);
}

/* One sample without a chain, and the live view on it. */
void cgw_start_without_chains(struct cgw_tui *f)
{
	struct fake_sample fs = { .pid = 10, .tid = 10, .time = 1, .period = 7,
				  .misc = PERF_RECORD_MISC_USER,
				  .ip = 0x401240 };

	ck_assert_int_eq(session__process(cgw, fake_sample(cgw_buf, CGW_ST, &fs)), 0);
	cgw_tui_start(f, false);
}
