/* Tests of flame (ui/report/flame.c): the flame graph of cgwork in miniature,
 * its layout at a width, zoom and search. */
#include <stdlib.h>
#include <string.h>

#include "tests/cgwork.h"

/* The flame graph of cgwork in miniature: one tree of every path. */
static u32 fl_child(const struct flame *fl, u32 parent, const char *name)
{
	for (u32 c = fl->nodes[parent].first_child; c;
	     c = fl->nodes[c].next_sibling)
		if (fl->nodes[c].sym && strcmp(fl->nodes[c].sym, name) == 0)
			return c;
	ck_abort_msg("no frame %s", name);
	return 0;
}

static const struct flame_cell *fl_cell(const struct flame_layout *l,
					const struct flame *fl, u32 node)
{
	const struct flame_cell *c = flame_layout__find(l, fl, node);

	ck_assert_msg(c != NULL, "frame %u not drawn", node);
	return c;
}

START_TEST(test_flame)
{
	struct flame fl;
	struct flame_layout l;
	struct rowset rs;
	struct snapshot snap;
	u32 m, x, y, o, lw;
	bool *marks;

	cgw_feed();
	cgw_build(&rs, &snap, true);
	flame__init(&fl);
	flame_layout__init(&l);
	ck_assert_int_eq(flame__build(&fl, &rs, NULL, NULL), 0);
	ck_assert_uint_eq(fl.nodes[0].samples, 6);
	ck_assert_uint_eq(fl.nodes[0].period, 610);
	m = fl_child(&fl, 0, "main");
	ck_assert_uint_eq(fl.nodes[m].samples, 6);
	ck_assert_uint_eq(fl.nodes[m].self_samples, 0);
	/* children in name order, whatever their weight */
	x = fl.nodes[m].first_child;
	ck_assert_str_eq(fl.nodes[x].sym, "caller_x");
	y = fl.nodes[x].next_sibling;
	ck_assert_str_eq(fl.nodes[y].sym, "caller_y");
	o = fl.nodes[y].next_sibling;
	ck_assert_str_eq(fl.nodes[o].sym, "outer");
	ck_assert_uint_eq(fl.nodes[o].next_sibling, 0);
	ck_assert_uint_eq(fl.nodes[x].samples, 3);
	ck_assert_uint_eq(fl.nodes[x].self_samples, 1);
	ck_assert_uint_eq(fl.nodes[x].period, 210);
	lw = fl_child(&fl, x, "lib_work");
	ck_assert_uint_eq(fl.nodes[lw].samples, 2);
	ck_assert_str_eq(fl.nodes[lw].dso_name, "libwlcg.so");
	ck_assert_int_eq(fl.nodes[lw].kind, FL_USER);
	ck_assert_uint_eq(fl.nodes[lw].depth, 3);
	ck_assert_uint_eq(fl.max_depth, 3);
	ck_assert(flame__is_ancestor(&fl, m, lw));
	ck_assert(!flame__is_ancestor(&fl, o, lw));

	/* 60 columns: each frame as wide as its samples */
	ck_assert_int_eq(flame__layout(&fl, 0, 60, &l), 0);
	ck_assert_uint_eq(l.nr_lines, 4);
	ck_assert_uint_eq(fl_cell(&l, &fl, 0)->w, 60);
	ck_assert_uint_eq(fl_cell(&l, &fl, m)->w, 60);
	ck_assert_uint_eq(fl_cell(&l, &fl, x)->x, 0);
	ck_assert_uint_eq(fl_cell(&l, &fl, x)->w, 30);
	ck_assert_uint_eq(fl_cell(&l, &fl, y)->x, 30);
	ck_assert_uint_eq(fl_cell(&l, &fl, y)->w, 10);
	ck_assert_uint_eq(fl_cell(&l, &fl, o)->x, 40);
	ck_assert_uint_eq(fl_cell(&l, &fl, o)->w, 20);
	ck_assert_uint_eq(fl_cell(&l, &fl, lw)->w, 20);
	ck_assert_uint_eq(fl_cell(&l, &fl, fl_child(&fl, o, "inner_b"))->x, 50);
	/* depth 3, left to right */
	ck_assert_uint_eq(l.line[4] - l.line[3], 4);
	for (size_t i = l.line[3] + 1; i < l.line[4]; i++)
		ck_assert_uint_ge(l.cells[i].x,
				  l.cells[i - 1].x + l.cells[i - 1].w);

	/* zoomed into outer: it and its callers get the whole width */
	ck_assert_int_eq(flame__layout(&fl, o, 60, &l), 0);
	ck_assert_uint_eq(fl_cell(&l, &fl, o)->w, 60);
	ck_assert_uint_eq(fl_cell(&l, &fl, m)->w, 60);
	ck_assert_uint_eq(fl_cell(&l, &fl, fl_child(&fl, o, "inner_a"))->w, 30);
	ck_assert_ptr_null(flame_layout__find(&l, &fl, x));
	ck_assert_ptr_null(flame_layout__find(&l, &fl, lw));

	/* 5 columns: a frame under one column is left out, with what it
	 * calls; nothing overlaps or passes the edge */
	ck_assert_int_eq(flame__layout(&fl, 0, 5, &l), 0);
	ck_assert_ptr_null(flame_layout__find(&l, &fl, y));
	for (u32 d = 0; d < l.nr_lines; d++)
		for (size_t i = l.line[d]; i < l.line[d + 1]; i++) {
			ck_assert_uint_le(l.cells[i].x + l.cells[i].w, 5);
			ck_assert_uint_gt(l.cells[i].w, 0);
		}
	ck_assert_int_eq(flame__layout(&fl, 0, 0, &l), 0);
	ck_assert_uint_eq(l.nr, 0);

	/* search: each sample once */
	marks = calloc(fl.nr, sizeof(*marks));
	ck_assert_ptr_nonnull(marks);
	ck_assert_uint_eq(flame__search(&fl, 0, "LIB_work", marks), 3);
	ck_assert(marks[lw]);
	ck_assert(!marks[x]);
	ck_assert_uint_eq(flame__search(&fl, 0, "caller", marks), 4);
	/* main and everything above it: main's samples, once */
	ck_assert_uint_eq(flame__search(&fl, 0, "a", marks), 6);
	ck_assert(!marks[0]);	/* "all" is not a frame */
	ck_assert_uint_eq(flame__search(&fl, 0, "nothing", marks), 0);
	ck_assert_uint_eq(flame__search(&fl, 0, "", marks), 0);
	/* zoomed: a caller of the zoom frame holds all of it */
	ck_assert_uint_eq(flame__search(&fl, o, "main", marks), 2);
	ck_assert_uint_eq(flame__search(&fl, o, "inner_b", marks), 1);
	ck_assert_uint_eq(flame__search(&fl, o, "lib", marks), 0);
	free(marks);

	/* the same paths again: the same graph */
	ck_assert_int_eq(flame__build(&fl, &rs, NULL, NULL), 0);
	ck_assert_uint_eq(fl.nodes[0].samples, 6);
	ck_assert_uint_eq(fl.nr, 9);	/* all, main, outer, 2 callers, 2
					 * lib_work, inner_a, inner_b */
	flame_layout__fini(&l);
	flame__fini(&fl);
	rowset__fini(&rs);
	snapshot__fini(&snap);
}
END_TEST

Suite *flame_suite(void);
Suite *flame_suite(void)
{
	Suite *ss = suite_create("flame");
	TCase *tc = tcase_create("flame");

	tcase_add_checked_fixture(tc, cgw_setup, cgw_teardown);
	tcase_add_test(tc, test_flame);
	suite_add_tcase(ss, tc);
	return ss;
}
