/* view_flame: the flame graph of the shown event's call chains. */
#ifndef PTOP_VIEW_FLAME_H
#define PTOP_VIEW_FLAME_H

#include "ui/tui/keys.h"
#include "ui/tui/prompt.h"
#include "ui/tui/view.h"

struct tui;

/* F in the table: opens it (or says how to get call chains). */
enum act_result action__flame(struct tui *t);
enum act_result action__flame_up(struct tui *t);
enum act_result action__flame_down(struct tui *t);
enum act_result action__flame_left(struct tui *t);
enum act_result action__flame_right(struct tui *t);
enum act_result action__flame_root(struct tui *t);
enum act_result action__flame_zoom(struct tui *t);
enum act_result action__flame_back(struct tui *t);
enum act_result action__flame_close(struct tui *t);
enum act_result action__flame_flip(struct tui *t);
enum act_result action__flame_freeze(struct tui *t);
enum act_result action__flame_search(struct tui *t);
enum act_result action__flame_annotate(struct tui *t);
enum act_result action__flame_callers(struct tui *t);
/* The search prompt's text as typed, accepted or cancelled. */
enum act_result flame__prompt(struct tui *t, const char *text,
			      enum prompt_event ev);

/* Its operations (view.h). */
extern const struct view_ops flame__view;

#endif
