/* sanitize: the one filter every external string passes before display. */
#ifndef PTOP_SANITIZE_H
#define PTOP_SANITIZE_H

#include "src/core/json.h"
#include "src/core/util.h"

/*
 * Appends to sb a copy of s[0..len) that is safe on a terminal: valid
 * UTF-8 (invalid bytes become U+FFFD), no C0/C1 control characters, no
 * DEL (each becomes '?', so ESC sequences, OSC 52, CSI 0x9B and newlines
 * are neutralized), no bidi overrides/isolates and no zero-width format
 * characters (each becomes '?').  The result is UTF-8 whatever the
 * locale: a terminal that is not UTF-8 gets it through to_ascii.  Returns
 * the display width of what was appended.
 */
size_t sanitize(struct strbuf *sb, const char *s, size_t len);

/*
 * Every output's bound on one outside string (a 100,000-character symbol
 * from a perf map, a hostile comm or path): longer text is cut at a
 * character boundary within its first SANITIZE_MAX bytes and ends with
 * the cut mark "…[cut: N bytes]", N the
 * whole length, in text, the live view and JSON alike.
 */
#define SANITIZE_MAX 4096
size_t sanitize_str(struct strbuf *sb, const char *s);

/* The edge of a terminal that is not UTF-8 (the live view's and the
 * batch text's, not JSON or files): appends s[0..len) with each non-ASCII
 * character as '?' times its width, and the ellipsis as '.', so that the
 * columns stay where they were. */
void to_ascii(struct strbuf *sb, const char *s, size_t len);

/* Display width of already sanitized text (wide CJK/emoji count 2,
 * combining marks 0). */
size_t display_width(const char *s, size_t len);

/*
 * Appends s (already sanitized) cut to at most width columns: a longer
 * string ends with an ellipsis ("…") and is never
 * wrapped; with pad, spaces fill up to width.  left: cut the start
 * instead of the end (paths).  Returns the width appended.
 */
size_t fit_width(struct strbuf *sb, const char *s, size_t width, bool pad,
		 bool left);

/* The one JSON writer of an external string: sanitized (as on screen),
 * then a JSON string under key (json__str); NULL is null. */
void json_sanitized(struct json *j, const char *key, const char *s);
/* XML text or attribute value (SVG) of already sanitized text: the five
 * markup characters escaped. */
void xml_text(struct strbuf *sb, const char *s);
/* The same of an external string, sanitized first. */
void xml_sanitized(struct strbuf *sb, const char *s);

#endif
