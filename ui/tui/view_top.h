/* view_top: the table, the bottom of the live view's stack; its state
 * (list, call trees, zooms, selection) for its files: view_top.c (the
 * list, the header, the selection), view_tree.c (call trees) and the
 * table's actions (actions_*.c). */
#ifndef PTOP_VIEW_TOP_H
#define PTOP_VIEW_TOP_H

#include "ui/report/treelines.h"
#include "ui/tui/keytypes.h"
#include "ui/tui/listview.h"
#include "ui/tui/view.h"

struct tui;

/*
 * One thing the "filters:" line lists, as it was before a key changed
 * it; Esc restores the last one first (actions_zoom.c).  A kind is its
 * restore function and its name: a new kind of filter (a time window)
 * joins with its own, keeping what it needs in data.  A zoom stacks (t
 * in T); a setting (K/U, i, L, the order, the grouping) has one entry at
 * most, holding its state before the first change, and none once it is
 * back to that state.
 */
struct undo;
typedef void (*undo_fn)(struct tui *t, const struct undo *u);

struct undo {
	undo_fn restore;	/* puts back its own fields, no others */
	const char *what;	/* "shared object zoom", for the status line */
	bool setting;
	struct row_filter prev;	/* the table's filter before */
	struct sort_spec prev_spec;	/* its grouping and order before */
	char prev_sym[256];	/* the symbol filter's text before */
	u64 data[4];		/* a kind's own state */
};

#define UNDO_MAX 16

/* Before a key changes what the filters: line lists: the table's filter,
 * grouping and order are saved with restore.  A setting already on the
 * stack keeps its first state.  false (said) when the stack is full. */
bool top__push_undo(struct tui *t, undo_fn restore, const char *what,
		    bool setting);
/* After a setting changed: its entry goes when same says that it is
 * back as it was (K twice: nothing left to undo). */
void top__settle_undo(struct tui *t, undo_fn restore,
		      bool (*same)(const struct tui *t, const struct undo *u));
/* Removes every entry of a kind (the symbol filter cleared). */
void top__drop_undo(struct tui *t, undo_fn restore);
/* How many things Esc can undo. */
size_t top__nr_undo(const struct tui *t);

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
	struct treelines ct;	/* trees under the rows (view_tree.c) */
	bool inline_rows;	/* rows of inlined functions (l) */
	struct undo undo[UNDO_MAX];	/* what Esc undoes, the last on top */
	size_t nr_undo;
	struct row_id sel;
	bool has_sel;
	size_t sel_sub;		/* the selected tree line of the selected
				 * row, 0: the row itself */
	char search[256];	/* F3's text, kept for the next F3 */
	size_t search_from;	/* the selected line when it opened */
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

/* F3: a search that selects the next row whose symbol, shared object
 * or command holds a text (the rows stay; / filters them). */
enum act_result action__search(struct tui *t, int arg);
/* Orders the rows by k (an error when k is a column they are not grouped
 * by), on the undo stack. */
enum act_result top__set_order(struct tui *t, enum sort_key k, bool invert);

/* Its operations (view.h). */
extern const struct view_ops top__view;

#endif
