/* actions: what the keys of the table, lists and prompts do (actions.c);
 * only the key table (keys.c) and the loop name them. */
#ifndef PTOP_ACTIONS_H
#define PTOP_ACTIONS_H

#include "ui/tui/keys.h"

struct tui;

/* Actions (actions.c): each returns what the loop must do. */
enum act_result action__up(struct tui *t);
enum act_result action__down(struct tui *t);
enum act_result action__page_up(struct tui *t);
enum act_result action__page_down(struct tui *t);
enum act_result action__home(struct tui *t);
enum act_result action__end(struct tui *t);
enum act_result action__quit(struct tui *t);
enum act_result action__back(struct tui *t);
enum act_result action__help(struct tui *t);
enum act_result action__repaint(struct tui *t);
enum act_result action__event_next(struct tui *t);
enum act_result action__event_prev(struct tui *t);
enum act_result action__event_picker(struct tui *t);
enum act_result action__event_add(struct tui *t);
enum act_result action__event_replace(struct tui *t);
enum act_result action__sort_picker(struct tui *t);
enum act_result action__baseline(struct tui *t);
enum act_result action__sort_next(struct tui *t);
enum act_result action__sort_prev(struct tui *t);
enum act_result action__sort_invert(struct tui *t);
enum act_result action__filter(struct tui *t);
enum act_result action__list_filter(struct tui *t);
enum act_result action__zoom_dso(struct tui *t);
enum act_result action__zoom_thread(struct tui *t);
enum act_result action__zoom_process(struct tui *t);
enum act_result action__zoom_cgroup(struct tui *t);
enum act_result action__hide_kernel(struct tui *t);
enum act_result action__demangle_params(struct tui *t);
enum act_result action__hide_user(struct tui *t);
enum act_result action__show_idle(struct tui *t);
enum act_result action__percent_limit(struct tui *t);
enum act_result action__target(struct tui *t);
enum act_result action__pause(struct tui *t);
enum act_result action__zero(struct tui *t);
enum act_result action__delay_down(struct tui *t);
enum act_result action__delay_up(struct tui *t);
enum act_result action__row_menu(struct tui *t);
enum act_result action__annotate(struct tui *t);
enum act_result action__save(struct tui *t);
enum act_result action__select(struct tui *t);
enum act_result action__prompt_accept(struct tui *t);
enum act_result action__prompt_cancel(struct tui *t);
enum act_result action__prompt_erase(struct tui *t);
enum act_result action__prompt_kill(struct tui *t);


/* Delay steps of [ and ] (pure, for tests). */
double actions__delay_step(double delay, int dir);

/* Remembers the selected row (and tree line) across refreshes. */
void actions__remember_selection(struct tui *t);

/* A key typed into the prompt (not bound in V_PROMPT). */
enum act_result actions__prompt_input(struct tui *t, int key);

#endif
