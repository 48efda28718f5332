/* actions: what the keys of the table, lists and prompts do; only the key
 * table (keys.c), the loop and the table's view name them.  Each returns
 * what the loop must do; arg is its binding's (keys.h), unused unless
 * said. */
#ifndef PTOP_ACTIONS_H
#define PTOP_ACTIONS_H

#include "ui/report/sort.h"
#include "ui/tui/keytypes.h"
#include "ui/tui/prompt.h"

struct tui;

/* Every view's (actions.c) */
/* arg: an enum lv_move */
enum act_result action__move(struct tui *t, int arg);
enum act_result action__quit(struct tui *t, int arg);
/* Back from a list (its filter first) or from the question. */
enum act_result action__back(struct tui *t, int arg);
/* Opens view (a V_* bit) with nothing to show yet (help, pickers). */
enum act_result action__open(struct tui *t, int view);
enum act_result action__repaint(struct tui *t, int arg);
enum act_result action__list_filter(struct tui *t, int arg);
enum act_result action__prompt_accept(struct tui *t, int arg);
/* F3 in the table's search: the next match */
enum act_result action__prompt_next(struct tui *t, int arg);
enum act_result action__prompt_cancel(struct tui *t, int arg);
enum act_result action__prompt_erase(struct tui *t, int arg);
enum act_result action__prompt_kill(struct tui *t, int arg);
/* A key typed into the prompt (not bound in V_PROMPT). */
enum act_result actions__prompt_input(struct tui *t, int key);

/* The table's filters and zooms (actions_zoom.c) */
/* The table's Esc: undoes the last zoom, else asks to quit. */
enum act_result action__undo(struct tui *t, int arg);
enum act_result action__filter(struct tui *t, int arg);
enum act_result action__zoom_dso(struct tui *t, int arg);
/* thread: the row's thread, else its whole process */
enum act_result action__zoom_owner(struct tui *t, int thread);
enum act_result action__zoom_cgroup(struct tui *t, int arg);
/* user 0: K, kernel symbols hidden or shown; 1: U, user symbols */
enum act_result action__hide(struct tui *t, int user);
enum act_result action__demangle_params(struct tui *t, int arg);
enum act_result action__show_idle(struct tui *t, int arg);
enum act_result action__percent_limit(struct tui *t, int arg);
/* A time window [start, end) of the timeline's cells (ns), and a zoom
 * into a thread or a process, from the timeline view: on the stack Esc
 * unwinds. */
enum act_result actions__set_window(struct tui *t, u64 start, u64 end);
enum act_result actions__zoom_to(struct tui *t, bool thread, s32 id,
				 const char *comm);
/* H: the History column shown or not. */
enum act_result action__history(struct tui *t, int arg);
/* The table's prompts, accepted, typed or cancelled: the symbol filter
 * and the percent limit. */
enum act_result actions__filter_prompt(struct tui *t, const struct prompt *p,
				       enum prompt_event ev);
/* At most n rows (0: every row; the setup screen's Rows), undoable. */
enum act_result actions__set_max_rows(struct tui *t, size_t n);

/* The table's source: events, target, time (actions_source.c) */
/* dir: 1 the next event, -1 the previous one */
enum act_result action__event(struct tui *t, int dir);
enum act_result action__target(struct tui *t, int arg);
/* The target prompt, accepted. */
enum act_result actions__target_prompt(struct tui *t, const char *answer);
enum act_result action__pause(struct tui *t, int arg);
enum act_result action__zero(struct tui *t, int arg);
/* dir: 1 refreshes less often, -1 more often */
enum act_result action__delay(struct tui *t, int dir);
/* Delay steps of [ and ] (pure, for tests). */
double actions__delay_step(double delay, int dir);

/* The table's order and rows (actions_table.c) */
enum act_result action__sort_picker(struct tui *t, int arg);
/* dir: 1 the next sort key, -1 the previous one */
enum act_result action__sort_cycle(struct tui *t, int dir);
enum act_result action__sort_invert(struct tui *t, int arg);
/* The order (undoable; a column only when rows are grouped by it), and
 * a grouping column added or taken away (undoable; the order stays). */
enum act_result actions__toggle_group(struct tui *t, enum sort_key k);
enum act_result action__baseline(struct tui *t, int arg);
enum act_result action__row_menu(struct tui *t, int arg);
enum act_result action__annotate(struct tui *t, int arg);
/* c: the caller/callee view of the selected row's function, or of the
 * function a tree line names */
enum act_result action__callers(struct tui *t, int arg);
enum act_result action__save(struct tui *t, int arg);

#endif
