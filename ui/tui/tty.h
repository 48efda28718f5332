/* tty: the only module that talks to the terminal (ncursesw); puts a
 * screen model on it, reads keys, and restores it on every exit path,
 * crashes included. */
#ifndef PTOP_TTY_H
#define PTOP_TTY_H

#include "ui/tui/screen.h"

/* 0, or -errno with a message for the user appended to err (TERM
 * unusable). */
int tty__open(struct strbuf *err);
/* 1 colours, 0 none, -1 (default) colours unless NO_COLOR is set to
 * something (no-color.org); before tty__open, or live. */
void tty__set_color(int mode);
/* The same checks without touching the terminal (before sampling). */
int tty__probe(struct strbuf *err);
/* Restores the terminal; safe to call twice. */
void tty__close(void);
bool tty__active(void);

void tty__size(size_t *rows, size_t *cols);
/* Draws s; repaint: clear the terminal first (Ctrl-L). */
void tty__draw(const struct screen *s, bool repaint);
/* Waits up to timeout_ms (0: do not wait) for a key: a K_* code or a
 * code point, K_NONE when none came, K_HANGUP when the terminal is
 * gone (hung up: the input is at its end or fails). */
int tty__getkey(int timeout_ms);
/* true when a key (or a hangup) waits to be read; never blocks. */
bool tty__key_waiting(void);

/* The mouse: taken (clicks, the wheel, drags with a button held: X10
 * reports in tmux and screen, SGR 1006 where terminfo's kmous says so,
 * both decoded by ncurses) or left to the terminal (its own selection).
 * Before or after tty__open. */
void tty__set_mouse(bool on);
struct mouse_event;
/* The event of the last K_MOUSE that tty__getkey returned. */
void tty__mouse(struct mouse_event *ev);

#endif
