/* keys: the one key table; it drives dispatch, the help screen and
 * doc/keys.md. */
#ifndef PTOP_KEYS_H
#define PTOP_KEYS_H

#include "src/core/util.h"

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

/* A key and its aliases (Up, k) share a binding, and so a help line. */
#define KEY_ALIASES 4

struct key_binding {
	int keys[KEY_ALIASES];	/* the key, then its aliases; 0 ends */
	unsigned int views;	/* enum view_mask */
	action_fn action;
	int arg;		/* what the action is given */
	const char *help;	/* what happens, for the help screen */
	const char *hint;	/* a word for the footer (with the first
				 * key), NULL: not there */
	bool live;		/* only with a live source: no footer hint
				 * for a recording (-i) */
};

extern const struct key_binding keys__table[];
extern const size_t keys__nr;

/* The binding of key in view (a single V_* bit), or NULL. */
const struct key_binding *keys__lookup(int key, unsigned int view);

/* "Up", "PgDn", "Shift-Tab", "F1", "Ctrl-C", "Esc", "q", "<"... */
const char *keys__name(int key, char *buf, size_t len);

/* The section of the help a binding belongs to ("Table", ...). */
const char *keys__section(unsigned int views);

/*
 * The help, grouped: a binding is a line, its keys named together
 * ("Up, k").  Calls fn for each section title (keys NULL) and each line.
 */
void keys__foreach_help(void (*fn)(const char *section, const char *keys,
				   const char *help, void *ctx),
			void *ctx);

/* What the numbers mean, after the keys in the help screen and the
 * documents: "Self", "Children"... */
struct key_note {
	const char *term;
	const char *text;
};

extern const struct key_note keys__notes[];
extern const size_t keys__nr_notes;

#define KEYS_NOTES_TITLE "Percentages"

/* Calls fn for the notes' title (term NULL), then each note. */
void keys__foreach_note(void (*fn)(const char *section, const char *term,
				   const char *text, void *ctx),
			void *ctx);

/* doc/keys.md and the KEYS section of doc/ptop.1 (from ".SH KEYS" to
 * the next ".SH"), generated: tests/gen_keys.c writes them, the keys
 * suite fails when they are stale. */
void keys__markdown(struct strbuf *sb);
void keys__man(struct strbuf *sb);

struct screen;
/* A key drawn in the footer, at columns [x0, x1) */
struct key_hit {
	int key;
	size_t x0, x1;
};
/*
 * The footer's hints for view, from the bindings that have one (not the
 * live ones' without a live source), as far as they fit on line y: as
 * htop's, the F-keys first ("F1 help  F2 setup ... F10 quit") when the
 * line holds them and room is left, then the other keys ("Esc undo  Tab
 * event ..."); else the keys alone ("q quit  Esc undo ...").  The keys
 * drawn go to hits (at most max): the number of them.
 */
size_t keys__footer(unsigned int view, bool live, struct screen *s, size_t y,
		    struct key_hit *hits, size_t max);

#endif
