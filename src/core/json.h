/* json: the JSON writer (pure): objects, arrays, keys, strings, numbers. */
#ifndef PTOP_JSON_H
#define PTOP_JSON_H

#include "src/core/util.h"

/*
 * Every JSON document ptop writes goes through this writer: compact (no
 * space, no newline), the commas placed by the writer.  Each value takes
 * the key it goes under, or NULL for an element of an array and for the
 * document itself; a container ends with the end of its kind.  The text
 * goes to a strbuf (its oom flag says a write failed); what follows a
 * document (the newline of a line of JSON) is the caller's.
 *
 *	struct json j;
 *
 *	json__init(&j, sb);
 *	json__object(&j, NULL);
 *	json__str(&j, "symbol", name);
 *	json__fixed(&j, "percent", pct, 4);
 *	json__array(&j, "children");
 *	...
 *	json__array_end(&j);
 *	json__object_end(&j);
 *	strbuf__addc(sb, '\n');
 *
 * A comma goes before a value (or a key) whenever one came before it in
 * the same container; so the writer needs no stack, only the depth.
 */
struct json {
	struct strbuf *sb;
	unsigned int depth;	/* containers open */
	bool comma;		/* a value came before in the open one */
};

void json__init(struct json *j, struct strbuf *sb);

void json__object(struct json *j, const char *key);
void json__object_end(struct json *j);
void json__array(struct json *j, const char *key);
void json__array_end(struct json *j);

/* A string: '"' and '\' after a backslash, C0 controls and DEL as
 * \u00XX, every other byte as it is (the text is UTF-8 from the
 * sanitizer; a byte that is not valid UTF-8 passes unchanged).  NULL is
 * null.  Keys are written the same way. */
void json__str(struct json *j, const char *key, const char *s);
/* An address or an id as a string "0x..." (lowercase hex): a JSON
 * number is a double to most readers, exact only up to 2^53. */
void json__hex(struct json *j, const char *key, u64 v);
/* Bytes as a string of hex pairs ("4889e5"). */
void json__hex_bytes(struct json *j, const char *key, const u8 *p,
		     size_t n);
void json__u64(struct json *j, const char *key, u64 v);
void json__s64(struct json *j, const char *key, s64 v);
/* printf's %.*f (decimals after the point) and %.*g (significant
 * digits) of v */
void json__fixed(struct json *j, const char *key, double v, int decimals);
void json__sig(struct json *j, const char *key, double v, int digits);
void json__bool(struct json *j, const char *key, bool v);
void json__null(struct json *j, const char *key);

#endif
