/* view_help: the help screen, generated from the key table. */
#ifndef PTOP_VIEW_HELP_H
#define PTOP_VIEW_HELP_H

#include "ui/tui/view.h"

/* Its operations (view.h). */
extern const struct view_ops help__view;

#endif
