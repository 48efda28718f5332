/* config: ptop's settings file, as text: lines read, settings rewritten. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/config.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* A line's setting: its name and value (value NULL: a switch alone),
 * or *why for a line that is none; false for a blank or comment line. */
struct setting {
	char name[CONFIG_MAX_NAME];
	char *value;	/* in the caller's copy, NUL-terminated */
	const char *why;
};

/* s[0..len) of one line, without its newline; value points into buf */
static bool split_line(const char *s, size_t len, char *buf,
		       struct setting *st)
{
	size_t b = 0, e = len, eq, n;
	const char *hash;

	st->why = NULL;
	st->value = NULL;
	st->name[0] = '\0';
	if (memchr(s, '\0', len)) {
		st->why = "a NUL byte (not a text file?)";
		return true;
	}
	while (b < e && is_blank(s[b]))
		b++;
	if (b == e || s[b] == '#')
		return false;
	/* a comment after a blank ends the line */
	for (hash = s + b; (hash = memchr(hash, '#', (size_t)(s + e - hash)));
	     hash++)
		if (is_blank(hash[-1])) {
			e = (size_t)(hash - s);
			break;
		}
	while (e > b && is_blank(s[e - 1]))
		e--;
	for (eq = b; eq < e && s[eq] != '='; eq++)
		;
	n = eq;
	while (n > b && is_blank(s[n - 1]))
		n--;
	if (n == b) {
		st->why = "no setting name before '='";
		return true;
	}
	for (size_t i = b; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		      (i > b && ((s[i] >= '0' && s[i] <= '9') ||
				 s[i] == '-')))) {
			st->why = "a setting name is a long option's, without "
				  "its dashes (lower-case letters, digits, "
				  "'-'), then '=' and its value";
			return true;
		}
	if (n - b >= CONFIG_MAX_NAME) {
		st->why = "the name is too long to be a setting's";
		return true;
	}
	memcpy(st->name, s + b, n - b);
	st->name[n - b] = '\0';
	if (eq == e)
		return true;
	eq++;
	while (eq < e && is_blank(s[eq]))
		eq++;
	if (eq == e) {
		st->why = "no value after '='";
		return true;
	}
	memcpy(buf, s + eq, e - eq);
	buf[e - eq] = '\0';
	st->value = buf;
	return true;
}

int config__parse(const char *text, size_t len, config_fn fn, void *ctx,
		  struct strbuf *err)
{
	unsigned int line = 0;
	char *buf = NULL;
	size_t cap = 0;
	int rc = 0;

	while (len && !rc) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) : len;
		struct setting st;

		line++;
		if (n + 1 > cap) {
			char *p = realloc(buf, n + 1);

			if (!p) {
				rc = -ENOMEM;
				break;
			}
			buf = p;
			cap = n + 1;
		}
		if (split_line(text, n, buf, &st)) {
			if (st.why) {
				strbuf__addf(err, "%u: %s", line, st.why);
				rc = -EINVAL;
			} else {
				rc = fn(ctx, line, st.name, st.value);
			}
		}
		text += n + (nl != NULL);
		len -= n + (nl != NULL);
	}
	free(buf);
	return rc;
}

static void put_setting(struct strbuf *out, const struct config_set *cs)
{
	strbuf__adds(out, cs->name);
	if (cs->value)
		strbuf__addf(out, " = %s", cs->value);
	strbuf__addc(out, '\n');
}

int config__update(const char *text, size_t len,
		   const struct config_set *sets, size_t n,
		   struct strbuf *out)
{
	bool *done = calloc(n ? n : 1, sizeof(*done));
	char *buf = malloc(len + 1);
	int rc = 0;

	if (!done || !buf) {
		rc = -ENOMEM;
		goto out;
	}
	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t ln = nl ? (size_t)(nl - text) : len, i = n;
		struct setting st;

		if (split_line(text, ln, buf, &st) && !st.why)
			for (i = 0; i < n; i++)
				if (!strcmp(sets[i].name, st.name))
					break;
		if (i == n) {
			/* not ours: as it was (a last line gets its newline) */
			strbuf__add(out, text, ln);
			strbuf__addc(out, '\n');
		} else if (!done[i]) {
			done[i] = true;
			if (sets[i].set)
				put_setting(out, &sets[i]);
		}
		text += ln + (nl != NULL);
		len -= ln + (nl != NULL);
	}
	for (size_t i = 0; i < n; i++)
		if (!done[i] && sets[i].set)
			put_setting(out, &sets[i]);
	if (out->oom)
		rc = -ENOMEM;
out:
	free(done);
	free(buf);
	return rc;
}
