/* keys: the one key table; it drives dispatch, the help screen and
 * doc/keys.md. */
#ifndef PTOP_KEYS_H
#define PTOP_KEYS_H

#include "src/core/util.h"
#include "ui/tui/keytypes.h"

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
