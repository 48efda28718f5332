/* view_callers: callers and callees of one function. */
#ifndef PTOP_VIEW_CALLERS_H
#define PTOP_VIEW_CALLERS_H

#include "ui/tui/keytypes.h"
#include "ui/tui/view.h"

struct row;
struct tui;

/* It opens on a row's function (tui__open_view(t, V_CALLERS, row),
 * identity fields only). */
enum act_result action__callers_enter(struct tui *t, int arg);
enum act_result action__callers_back(struct tui *t, int arg);
enum act_result action__callers_close(struct tui *t, int arg);
enum act_result action__callers_annotate(struct tui *t, int arg);

/* Its operations (view.h). */
extern const struct view_ops callers__view;

#endif
