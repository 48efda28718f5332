/* mouse: the terminal's mouse reports as events: double clicks told by
 * time and place, drags by the button held. */
#include <string.h>

#include "ui/tui/mouse.h"

bool mouse__event(struct mouse_state *st, int x, int y,
		  enum mouse_button b, enum mouse_kind k, double now,
		  struct mouse_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->x = x;
	ev->y = y;
	ev->kind = k;
	ev->button = b;
	switch (k) {
	case MK_WHEEL:
		return b == MB_WHEEL_UP || b == MB_WHEEL_DOWN;
	case MK_PRESS:
		if (b == MB_NONE || b == MB_WHEEL_UP || b == MB_WHEEL_DOWN)
			return false;
		ev->clicks = b == st->last && x == st->last_x &&
			     y == st->last_y && st->last_clicks == 1 &&
			     now - st->last_time <= MOUSE_DOUBLE_S ? 2 : 1;
		st->last = b;
		st->last_x = x;
		st->last_y = y;
		st->last_time = now;
		st->last_clicks = ev->clicks;
		st->held = b;
		return true;
	case MK_RELEASE:
		if (b == MB_NONE)
			ev->button = st->held;
		st->held = MB_NONE;
		return ev->button != MB_NONE;
	case MK_DRAG:
		if (st->held == MB_NONE)
			return false;
		ev->button = st->held;
		/* a double click is not one once the mouse moved */
		st->last_clicks = 0;
		return true;
	}
	return false;
}
