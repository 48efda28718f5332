/* screen: the model the views draw into (pure); only tty.c puts it on a
 * terminal, which keeps every view testable without one. */
#ifndef PTOP_SCREEN_H
#define PTOP_SCREEN_H

#include "src/core/util.h"

enum style {
	ST_NORMAL,
	ST_HOT,		/* share > 5 % (perf's red) */
	ST_MEDIUM,	/* share > 0.5 % (perf's green) */
	ST_SELECTED,	/* the selected row */
	ST_TITLE,	/* column titles, list titles */
	ST_BOLD,	/* section titles, the event name */
	ST_WARN,	/* lost or throttled samples */
	ST_ERROR,	/* error messages */
	ST_KEY,		/* key names in the footer */
	ST_FL_USER,	/* flame graph frames: user code */
	ST_FL_KERNEL,	/* kernel code */
	ST_FL_JIT,	/* JIT or anonymous code */
	ST_FL_INLINED,	/* a function inlined into its caller */
	ST_FL_MATCH,	/* a frame the search matches */
	ST__MAX,
};

/* A byte range of a line drawn in a style other than the line's. */
struct span {
	size_t start, end;
	enum style style;
};

struct screen_line {
	struct strbuf text;	/* sanitized UTF-8, never wider than cols */
	size_t width;		/* display columns used */
	bool full;		/* cut at the right edge: adds are ignored */
	enum style fill;	/* the line's style, also of the blank rest */
	struct span spans[128];	/* more: drawn in the fill style */
	size_t nr_spans;
};

struct screen {
	size_t rows, cols;
	struct screen_line *lines;
	/* where the terminal cursor goes (a prompt), -1: hidden */
	long cursor_y, cursor_x;
};

void screen__init(struct screen *s);
void screen__fini(struct screen *s);
/* Resizes and clears; a 0x0 screen is valid (nothing is drawn). */
void screen__resize(struct screen *s, size_t rows, size_t cols);
void screen__clear(struct screen *s);

/*
 * Appends already sanitized text to line y in style st, cut with an
 * ellipsis at the right edge (never wrapped).  Returns the columns used;
 * out-of-range lines are ignored.
 */
size_t screen__add(struct screen *s, size_t y, enum style st,
		   const char *text);
size_t screen__addn(struct screen *s, size_t y, enum style st,
		    const char *text, size_t len);
/* printf-style: the arguments must be sanitized already. */
size_t screen__addf(struct screen *s, size_t y, enum style st,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Text that came from outside: sanitized here. */
size_t screen__add_ext(struct screen *s, size_t y, enum style st,
		       const char *raw);
/* Pads line y with spaces up to column x. */
void screen__pad(struct screen *s, size_t y, size_t x);
void screen__fill(struct screen *s, size_t y, enum style st);
/* Restyles bytes [start, end) of line y. */
void screen__style(struct screen *s, size_t y, size_t start, size_t end,
		   enum style st);

/* For tests: the text of line y ("" when out of range). */
const char *screen__text(const struct screen *s, size_t y);
/* The style at byte off of line y. */
enum style screen__style_at(const struct screen *s, size_t y, size_t off);

#endif
