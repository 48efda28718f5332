/* view_annotate: a function's annotated code, a stack of functions. */
#ifndef PTOP_VIEW_ANNOTATE_H
#define PTOP_VIEW_ANNOTATE_H

#include "ui/tui/keytypes.h"
#include "ui/tui/view.h"

struct row;
struct tui;

/* The annotate view (view_annotate.c): a stack of functions, the callee
 * on top; its shares come from the table's snapshot.  It opens on a row
 * (tui__open_view(t, V_ANNOTATE, row): the table's a, the row menu's,
 * the caller/callee view's, the flame graph's). */
enum act_result action__ann_back(struct tui *t, int arg);
enum act_result action__ann_enter(struct tui *t, int arg);
enum act_result action__ann_hottest(struct tui *t, int arg);
/* dir: 1 the next hot instruction, hottest first; -1 the previous */
enum act_result action__ann_hot(struct tui *t, int dir);
enum act_result action__ann_mode(struct tui *t, int arg);
enum act_result action__ann_value(struct tui *t, int arg);
enum act_result action__ann_bytes(struct tui *t, int arg);
enum act_result action__ann_search(struct tui *t, int arg);
enum act_result action__ann_search_next(struct tui *t, int arg);
enum act_result action__ann_save(struct tui *t, int arg);
/* Its operations (view.h). */
extern const struct view_ops annview__view;

#endif
