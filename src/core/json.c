/* json: the JSON writer (pure). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "src/core/json.h"

void json__init(struct json *j, struct strbuf *sb)
{
	j->sb = sb;
	j->depth = 0;
	j->comma = false;
}

static void escaped(struct strbuf *sb, const char *s)
{
	const char *run = s;

	strbuf__addc(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c != '"' && c != '\\' && c >= 0x20 && c != 0x7f)
			continue;
		strbuf__add(sb, run, (size_t)(s - run));
		run = s + 1;
		if (c == '"' || c == '\\') {
			strbuf__addc(sb, '\\');
			strbuf__addc(sb, (char)c);
		} else {
			strbuf__addf(sb, "\\u%04x", c);
		}
	}
	strbuf__add(sb, run, (size_t)(s - run));
	strbuf__addc(sb, '"');
}

/* What comes before any value: the comma after the one before, then its
 * key. */
static void value(struct json *j, const char *key)
{
	if (j->comma)
		strbuf__addc(j->sb, ',');
	if (key) {
		escaped(j->sb, key);
		strbuf__addc(j->sb, ':');
	}
	j->comma = true;
}

static void enter(struct json *j, const char *key, char c)
{
	value(j, key);
	strbuf__addc(j->sb, c);
	j->depth++;
	j->comma = false;
}

static void leave(struct json *j, char c)
{
	strbuf__addc(j->sb, c);
	if (j->depth)
		j->depth--;
	/* a value of the container around, or the document's end */
	j->comma = j->depth > 0;
}

void json__object(struct json *j, const char *key)
{
	enter(j, key, '{');
}

void json__object_end(struct json *j)
{
	leave(j, '}');
}

void json__array(struct json *j, const char *key)
{
	enter(j, key, '[');
}

void json__array_end(struct json *j)
{
	leave(j, ']');
}

void json__str(struct json *j, const char *key, const char *s)
{
	value(j, key);
	if (s)
		escaped(j->sb, s);
	else
		strbuf__adds(j->sb, "null");
}

void json__hex(struct json *j, const char *key, u64 v)
{
	value(j, key);
	strbuf__addf(j->sb, "\"0x%" PRIx64 "\"", v);
}

void json__hex_bytes(struct json *j, const char *key, const u8 *p,
		     size_t n)
{
	static const char digit[] = "0123456789abcdef";

	value(j, key);
	strbuf__addc(j->sb, '"');
	for (size_t i = 0; i < n; i++) {
		strbuf__addc(j->sb, digit[p[i] >> 4]);
		strbuf__addc(j->sb, digit[p[i] & 0xf]);
	}
	strbuf__addc(j->sb, '"');
}

void json__u64(struct json *j, const char *key, u64 v)
{
	value(j, key);
	strbuf__addf(j->sb, "%" PRIu64, v);
}

void json__s64(struct json *j, const char *key, s64 v)
{
	value(j, key);
	strbuf__addf(j->sb, "%" PRId64, v);
}

void json__fixed(struct json *j, const char *key, double v, int decimals)
{
	value(j, key);
	strbuf__addf(j->sb, "%.*f", decimals, v);
}

void json__sig(struct json *j, const char *key, double v, int digits)
{
	value(j, key);
	strbuf__addf(j->sb, "%.*g", digits, v);
}

void json__bool(struct json *j, const char *key, bool v)
{
	value(j, key);
	strbuf__adds(j->sb, v ? "true" : "false");
}

void json__null(struct json *j, const char *key)
{
	value(j, key);
	strbuf__adds(j->sb, "null");
}
