/* view_flame: the flame graph of the shown event's call chains. */
#ifndef PTOP_VIEW_FLAME_H
#define PTOP_VIEW_FLAME_H

#include "ui/tui/keytypes.h"
#include "ui/tui/prompt.h"
#include "ui/tui/view.h"

struct tui;

/* dir: 1 the frame above on the screen, -1 the one below */
enum act_result action__flame_depth(struct tui *t, int dir);
/* dir: 1 the frame to the right, -1 the one to the left */
enum act_result action__flame_side(struct tui *t, int dir);
enum act_result action__flame_root(struct tui *t, int arg);
enum act_result action__flame_zoom(struct tui *t, int arg);
enum act_result action__flame_back(struct tui *t, int arg);
enum act_result action__flame_close(struct tui *t, int arg);
enum act_result action__flame_flip(struct tui *t, int arg);
enum act_result action__flame_freeze(struct tui *t, int arg);
enum act_result action__flame_search(struct tui *t, int arg);
enum act_result action__flame_annotate(struct tui *t, int arg);
enum act_result action__flame_callers(struct tui *t, int arg);

/* Its operations (view.h). */
extern const struct view_ops flameview__view;

#endif
