/* tests/cgwork: cgwork in miniature (tests/workloads/cgwork.c's call
 * graph as fake samples) for the call-graph suites: check_neighbours,
 * check_callgraph, check_treelines, check_flame, check_flamesvg,
 * check_inlines, check_view_tree, check_view_callers, check_view_flame.
 *
 * The fixture (cgw_setup, cgw_teardown) makes cgw, a session of pid 10
 * with /bin/cgw and /lib/libwlcg.so mapped and no sample yet; cgw_feed
 * adds the graph, cgw_sample one more chain; cgw_resolve names the
 * functions; struct cgw_tui is a live view on cgw without a terminal. */
#ifndef PTOP_TESTS_CGWORK_H
#define PTOP_TESTS_CGWORK_H

#include <signal.h>
#include <stdbool.h>

#include "tests/fixtures/symtest.h"
#include "ui/report/flame.h"
#include "ui/report/flamesvg.h"
#include "ui/report/fmt.h"
#include "ui/report/inlines.h"
#include "src/core/record.h"
#include "ui/report/rowset.h"
#include "ui/report/sanitize.h"
#include "src/core/session.h"
#include "tests/testutil.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/view_top.h"
#include "ui/tui/view_menu.h"
#include "ui/tui/actions.h"
#include "ui/tui/view_callers.h"
#include "ui/tui/view_flame.h"
#include "ui/tui/view_tree.h"

/* cgwork's graph: functions of /bin/cgw, 0x100 bytes each from 0x1000,
 * mapped at 0x400000 (an ip 0x401xyz is offset 0x1xyz); lib_work is in
 * /lib/libwlcg.so at 0x7f0000000000 (offset 0x1000). */
enum { F_MAIN, F_OUTER, F_INNER_A, F_INNER_B, F_CALLER_X, F_CALLER_Y,
       F_LIB_WORK, F_EVIL };

#define CGW_ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

struct cgw_tui {
	struct app a;
	struct tui t;
	struct screen s;
	volatile sig_atomic_t stop;
};

extern struct session *cgw;
extern u64 cgw_buf[8192];	/* one record at a time */
/* F_EVIL's name: an ESC sequence, OSC 52, C1 CSI, a bidi override,
 * 64 KiB */
extern char cgw_evil[70000];
extern const char *const cgw_fn_names[];

void cgw_setup(void);
void cgw_teardown(void);
u64 cgw_ip_of(int fn, u64 off);
int cgw_resolve(void *ctx, const struct dso *d, u64 addr,
		struct row_sym *out);
/* A sample of n frames (innermost first) at offsets off (return
 * addresses after the first). */
void cgw_sample_at(u64 period, int n, const int *fns, const int *off);
/* The same at the usual offsets: the sampled ip +0x40, callers +0x11. */
void cgw_sample(u64 period, int n, const int *fns);
/* outer 300 (inner_a 200, inner_b 100), lib_work 300 (from caller_x
 * 200, from caller_y 100), caller_x 10 of its own. */
void cgw_feed(void);
const struct row *cgw_find(const struct rowset *rs, const char *name);
void cgw_build(struct rowset *rs, struct snapshot *snap, bool children);

void cgw_tui_refresh(struct cgw_tui *f);
void cgw_tui_start_order(struct cgw_tui *f, bool callgraph,
			 enum cg_order order);
void cgw_tui_start(struct cgw_tui *f, bool callgraph);
void cgw_tui_stop(struct cgw_tui *f);
/* A key through the key table, and what the loop then does. */
enum act_result cgw_key(struct cgw_tui *f, int k);
/* The first line holding text, or -1 (every line fits the screen). */
int cgw_line_of(struct cgw_tui *f, const char *text);
/* The line that is text and blanks, or -1. */
int cgw_line_is(struct cgw_tui *f, const char *text);
const char *cgw_selected_sym(struct cgw_tui *f, size_t *sub);
void cgw_select_sym(struct cgw_tui *f, const char *name);
/* One sample without a chain, and the live view on it. */
void cgw_start_without_chains(struct cgw_tui *f);

#endif
