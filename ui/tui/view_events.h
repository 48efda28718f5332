/* view_events: the event picker. */
#ifndef PTOP_VIEW_EVENTS_H
#define PTOP_VIEW_EVENTS_H

#include "ui/tui/keytypes.h"
#include "ui/tui/view.h"

struct tui;

/* replace: the shown event instead of adding one */
enum act_result action__event_add(struct tui *t, int replace);

/* Its operations (view.h). */
extern const struct view_ops evpick__view;

#endif
