/* view_timeline: samples over time, for the whole target, the table's
 * selected row and each process or thread; a time window is selected
 * here. */
#ifndef PTOP_VIEW_TIMELINE_H
#define PTOP_VIEW_TIMELINE_H

#include "ui/tui/keytypes.h"
#include "ui/tui/view.h"

struct tui;

/* The cursor's moves (action__tl_cursor's argument). */
enum tl_move {
	TL_LEFT = -1,
	TL_RIGHT = 1,
	TL_PAGE_LEFT = -2,
	TL_PAGE_RIGHT = 2,
	TL_FIRST = -3,
	TL_LAST = 3,
};

enum act_result action__tl_cursor(struct tui *t, int move);
/* dir: 1 the line below, -1 the one above */
enum act_result action__tl_line(struct tui *t, int dir);
/* Space: one end of the window, then the other (which sets it). */
enum act_result action__tl_mark(struct tui *t, int arg);
/* Enter: sets a window being marked; on a process or thread line,
 * zooms the table into it. */
enum act_result action__tl_enter(struct tui *t, int arg);
/* Esc: drops the mark, else back to the table. */
enum act_result action__tl_back(struct tui *t, int arg);
enum act_result action__tl_close(struct tui *t, int arg);
/* Lines per thread or per process. */
enum act_result action__tl_owners(struct tui *t, int arg);

/* Its operations (view.h). */
extern const struct view_ops timeline__view;

#endif
