/* keytypes: the key codes, the view bits and what an action returns:
 * the types the views and the actions share with the key table, without
 * it (the views include this; keys.h, which names their actions,
 * includes them). */
#ifndef PTOP_KEYTYPES_H
#define PTOP_KEYTYPES_H

#include <stddef.h>

/*
 * Key codes, independent of curses (tty.c translates).  Control keys are
 * their ASCII codes; printable keys are their Unicode code points; the
 * others live above the Unicode range.
 */
enum {
	K_CTRL_C = 3,
	K_TAB = 9,
	K_CTRL_L = 12,
	K_ENTER = 13,
	K_CTRL_U = 21,
	K_ESC = 27,
	K_BASE = 0x110000,
	K_UP = K_BASE,
	K_DOWN,
	K_LEFT,
	K_RIGHT,
	K_PGUP,
	K_PGDN,
	K_HOME,
	K_END,
	K_BTAB,
	K_BACKSPACE,
	K_DELETE,
	K_RESIZE,
	K_F0,			/* K_F(n) = K_F0 + n */
	K_NONE = K_F0 + 64,	/* no key (timeout) */
	K_HANGUP,		/* the terminal is gone (EOF, EIO) */
	K_MOUSE,		/* a mouse event (tty__mouse says which) */
};
#define K_F(n) (K_F0 + (n))

/* The views a binding applies to (the view on top of the stack). */
enum view_mask {
	V_TOP = 1 << 0,		/* the profile table */
	V_HELP = 1 << 1,	/* the help screen */
	V_MENU = 1 << 2,	/* sort picker, row menu */
	V_EVENTS = 1 << 3,	/* the event picker */
	V_PROMPT = 1 << 4,	/* a one-line prompt in the footer */
	V_SETUP = 1 << 5,	/* F2: the settings, saved to the file */
	V_CALLERS = 1 << 6,	/* callers and callees of a function */
	V_ANNOTATE = 1 << 7,	/* a function's annotated code */
	V_FLAME = 1 << 8,	/* the flame graph (its own moving keys) */
	V_TIMELINE = 1 << 9,	/* samples over time, a window (its own
				 * moving keys) */
	V_LIST = V_HELP | V_MENU | V_EVENTS,
	V_BROWSE = V_TOP | V_LIST | V_CALLERS | V_ANNOTATE | V_SETUP,
	V_ALL = V_BROWSE | V_FLAME | V_TIMELINE | V_PROMPT,
};

/* What the loop must do after an action (actions never draw). */
enum act_result {
	R_NONE,		/* nothing changed */
	R_REDRAW,	/* the screen changed, the rows did not */
	R_REBUILD,	/* sort, filter or event changed: rows from the last
			 * snapshot again */
	R_REFRESH,	/* take a new snapshot now */
	R_QUIT,
};

struct tui;
/* An action: arg is its binding's (a direction, a view, a mode). */
typedef enum act_result (*action_fn)(struct tui *t, int arg);

/* A key drawn in the footer, at columns [x0, x1) */
struct key_hit {
	int key;
	size_t x0, x1;
};

#endif
