/* view_setup: F2, the setup screen: the view's settings changed in
 * place, saved to the settings file ($XDG_CONFIG_HOME/ptop/config). */
#ifndef PTOP_VIEW_SETUP_H
#define PTOP_VIEW_SETUP_H

#include "ui/tui/view.h"

/* Enter or Right (dir 1), Left (-1): the selected setting's next value
 * (the grouping: the picker of s; the limits: a step). */
enum act_result action__setup_change(struct tui *t, int dir);
/* w: the settings written into the file, its comments and the lines of
 * other settings kept; a file the settings file rule would not read
 * (another owner's, writable by others) is not written. */
enum act_result action__setup_save(struct tui *t, int arg);
/* Esc, q, F10: back to the table. */
enum act_result action__setup_close(struct tui *t, int arg);

/* Saves the settings to path: 0, or -errno with why appended (tests). */
int setup__save(struct tui *t, const char *path, struct strbuf *why);

/* Its operations (view.h). */
extern const struct view_ops setup__view;

#endif
