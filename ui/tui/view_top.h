/* view_top: the table, the bottom of the live view's stack; its state
 * (list, call trees, zooms, selection) for its files: view_top.c (the
 * list, the header, the selection), view_tree.c (call trees) and the
 * table's actions (actions_*.c). */
#ifndef PTOP_VIEW_TOP_H
#define PTOP_VIEW_TOP_H

#include "ui/report/calltree.h"
#include "ui/tui/keys.h"
#include "ui/tui/listview.h"
#include "ui/tui/view.h"

struct tui;

/* One level Esc undoes: a zoom or a kept symbol filter. */
enum zoom_kind {
	ZOOM_SYM,
	ZOOM_DSO,
	ZOOM_THREAD,
	ZOOM_PROCESS,
	ZOOM_CGROUP,
};

struct zoom {
	enum zoom_kind kind;
	struct row_filter prev;
	char prev_sym[256];
};

/* What identifies the selected row across refreshes. */
struct row_id {
	const struct dso *dso;
	const char *dso_name;
	const char *sym;
	u64 sym_start, addr;
	const char *comm;
	const char *cgroup;
	s32 pid, tid, cpu;
	u8 state;
};

struct top_view {
	struct listview lv;	/* rows and the lines of expanded trees */
	struct calltree ct;	/* trees under the rows (view_tree.c) */
	bool inline_rows;	/* rows of inlined functions (l) */
	struct zoom zooms[8];
	size_t nr_zooms;
	struct row_id sel;
	bool has_sel;
	size_t sel_sub;		/* the selected tree line of the selected
				 * row, 0: the row itself */
};

/* The table's state (made by tui__init). */
struct top_view *top__of(const struct tui *t);

/* The selected row of the table, or NULL. */
const struct row *top__selected_row(const struct tui *t);
/* The same, with the selected line: sub 0 is the row itself, sub > 0 a
 * line of its call tree (*line, if line is given). */
const struct row *top__selected_line(const struct tui *t, size_t *sub,
				     const struct ct_line **line);
/* What a key that needs a selected row says without one. */
enum act_result top__no_row(struct tui *t);
/* Remembers the selected row (and tree line) across refreshes. */
void top__remember_selection(struct tui *t);

/* Its operations (view.h). */
extern const struct view_ops top__view;

#endif
