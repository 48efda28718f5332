/* view: how a view of the live view plugs in.  A view is one file
 * (ui/tui/view_NAME.c) with its header (the operations below and its
 * actions), one V_* bit (ui/tui/keys.h) and its rows in the key table
 * (ui/tui/keys.c, which also lists the views); the loop (tui.c) and the
 * other views reach a view only through these operations and
 * tui__open_view.  Its state is its own, in its slot (tui__state). */
#ifndef PTOP_VIEW_H
#define PTOP_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/tui/keytypes.h"
#include "ui/tui/prompt.h"

struct tui;
struct listview;
struct screen;
struct mouse_event;

struct view_ops {
	unsigned int view;	/* its V_* bit */
	const char *name;
	/* Opens it on top of the stack (tui__open_view) with what it shows:
	 * a row for annotate and the caller/callee view (its identity
	 * fields), a struct menu for the menu, NULL for the others; says
	 * in the status line why it cannot.  NULL: the table, always open. */
	enum act_result (*open)(struct tui *t, const void *arg);
	/* Makes its state when the live view starts (the table); may be
	 * NULL. */
	void (*init)(struct tui *t);
	/* The list it shows; NULL (or a NULL answer): the list that help,
	 * menus and pickers share. */
	struct listview *(*list)(struct tui *t);
	/* Right after the table's rows were built (the table's trees): 0
	 * or -errno.  May be NULL. */
	int (*rebuild)(struct tui *t);
	/* After each rebuild of the table's rows (a refresh, a sort, a
	 * filter, another event), while it may be open: 0 or -errno.  May
	 * be NULL. */
	int (*update)(struct tui *t);
	/* Draws it in lines [y0, y0 + height) of s, for a view that is
	 * not only a list (the table with its header, the flame graph);
	 * NULL: its list is drawn. */
	void (*render)(struct tui *t, struct screen *s, size_t y0,
		       size_t height);
	/* After a moving key moved the selection of its list; may be NULL. */
	void (*moved)(struct tui *t);
	/* The prompt it opened: text typed (PROMPT_TYPED), accepted or
	 * cancelled (the prompt is closed then).  May be NULL. */
	enum act_result (*prompt)(struct tui *t, const struct prompt *p,
				  enum prompt_event ev);
	/* While it is on top: true when it changes without a key (a listing
	 * that fills in), so that the loop draws it again at each turn; may
	 * lower *ms, the loop's wait for a key.  May be NULL. */
	bool (*busy)(struct tui *t, int *ms);
	/* A mouse event (ui/tui/mouse.h) while it is shown: every one but
	 * a press on the footer (its keys') and those under a prompt; a
	 * drag is a press, MK_DRAG events, a release.  What it does.
	 * NULL: the loop's for a list (tui__list_mouse: a click selects a
	 * row, a double click is the view's Enter, the wheel moves three
	 * rows). */
	enum act_result (*mouse)(struct tui *t, const struct mouse_event *ev);
	/* Frees its state when the live view ends; may be NULL. */
	void (*free)(struct tui *t);
};

/* Every view, in ui/tui/keys.c beside the key table. */
extern const struct view_ops *const views__table[];
extern const size_t views__nr;

/* The operations of view (a single V_* bit), or NULL. */
const struct view_ops *views__find(unsigned int view);

/* A view's own state (NULL until it makes it): one slot per V_* bit;
 * tui__state_of reads it. */
void **tui__state(struct tui *t, unsigned int view);
void *tui__state_of(const struct tui *t, unsigned int view);
/* The view's state, made zeroed (size bytes) if it has none yet. */
void *tui__state_new(struct tui *t, unsigned int view, size_t size);

/* Opens view (a single V_* bit) with arg (its open's): how the loop, the
 * actions and one view reach another. */
enum act_result tui__open_view(struct tui *t, unsigned int view,
			       const void *arg);

#endif
