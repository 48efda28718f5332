/* mouse: what the terminal reports of the mouse, as events the views
 * take (pure: tty.c decodes the terminal's bytes through ncurses, this
 * makes them events; the loop hands each to the view under it). */
#ifndef PTOP_MOUSE_H
#define PTOP_MOUSE_H

#include <stdbool.h>

enum mouse_button {
	MB_NONE,
	MB_LEFT,
	MB_MIDDLE,
	MB_RIGHT,
	MB_WHEEL_UP,
	MB_WHEEL_DOWN,
};

enum mouse_kind {
	MK_PRESS,
	MK_RELEASE,
	MK_DRAG,	/* moved with a button held (its button) */
	MK_WHEEL,	/* a notch of the wheel (MB_WHEEL_*) */
};

/* One event, at a cell of the screen (0-based). */
struct mouse_event {
	int x, y;
	enum mouse_button button;
	enum mouse_kind kind;
	/* a press: 1, or 2 for the second press of a double click (the
	 * same button on the same cell within MOUSE_DOUBLE_S) */
	int clicks;
};

#define MOUSE_DOUBLE_S 0.4

/* What the clicks and drags before were (zeroed to start). */
struct mouse_state {
	enum mouse_button held;		/* pressed and not released */
	enum mouse_button last;		/* the last press */
	int last_x, last_y, last_clicks;
	double last_time;
};

/*
 * A report of the terminal (a press, a release, a motion, a wheel notch;
 * a motion with no button held is not an event) at time now (seconds)
 * into *ev: true when it is one.  A release of no known button (X10
 * reports do not say which) is the held one's.
 */
bool mouse__event(struct mouse_state *st, int x, int y,
		  enum mouse_button b, enum mouse_kind k, double now,
		  struct mouse_event *ev);

#endif
