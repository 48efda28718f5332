/* tui: the live ncurses front end (the product's face). */
#ifndef PTOP_TUI_H
#define PTOP_TUI_H

#include "ui/report/app.h"

/* Runs the live view until the user quits; restores the terminal on
 * every exit path.  Returns the process exit status. */
int tui__run(struct app *a);

/* Whether the live view can run on this terminal (TERM set, not dumb,
 * known to terminfo, able to move the cursor); logs why not and returns
 * -EINVAL.  For main, before it starts sampling. */
int tui__check_terminal(void);

#endif
