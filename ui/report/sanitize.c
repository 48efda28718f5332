/* sanitize: the one filter every external string passes before display. */
#include <stdio.h>
#include <string.h>

#include "ui/report/sanitize.h"

/* Decodes one UTF-8 sequence; returns its length, or 0 if invalid
 * (overlong forms, surrogates and values past U+10FFFF are invalid). */
static size_t utf8_decode(const unsigned char *p, size_t n, u32 *cp)
{
	u32 c;
	size_t len;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
		c = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		c = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		c = p[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* Characters that change how the rest of a line is shown. */
static bool is_format_char(u32 c)
{
	return (c >= 0x80 && c <= 0x9f) ||	/* C1, incl. CSI 0x9b */
	       c == 0x061c ||			/* arabic letter mark */
	       (c >= 0x200b && c <= 0x200f) ||	/* zero width, LRM, RLM */
	       (c >= 0x2028 && c <= 0x202e) ||	/* separators, embeddings,
						 * overrides */
	       (c >= 0x2060 && c <= 0x206f) ||	/* isolates, invisibles */
	       c == 0xfeff ||			/* BOM / ZWNBSP */
	       (c >= 0xfff9 && c <= 0xfffb) ||	/* interlinear annotation */
	       (c >= 0xe0000 && c <= 0xe007f);	/* tags */
}

static size_t cp_width(u32 c)
{
	/* combining marks */
	if ((c >= 0x0300 && c <= 0x036f) || (c >= 0x1ab0 && c <= 0x1aff) ||
	    (c >= 0x1dc0 && c <= 0x1dff) || (c >= 0x20d0 && c <= 0x20ff) ||
	    (c >= 0xfe20 && c <= 0xfe2f) || (c >= 0xfe00 && c <= 0xfe0f))
		return 0;
	/* East Asian wide and fullwidth, emoji */
	if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0x303e) ||
	    (c >= 0x3041 && c <= 0x33ff) || (c >= 0x3400 && c <= 0x4dbf) ||
	    (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xa000 && c <= 0xa4cf) ||
	    (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	    (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	    (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) ||
	    (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd))
		return 2;
	return 1;
}

size_t sanitize(struct strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, width = 0, whole = strnlen(s, len), stop = whole;

	if (whole > SANITIZE_MAX)
		stop = SANITIZE_MAX;
	while (i < stop) {
		u32 c;
		size_t n = utf8_decode(p + i, len - i, &c);

		/* a character that straddles the cut goes with the rest */
		if (n && i + n > stop && stop < whole)
			break;
		if (n == 0) {
			strbuf__adds(sb, "\xef\xbf\xbd");
			width++;
			i++;
			continue;
		}
		if (c < 0x20 || c == 0x7f || is_format_char(c)) {
			strbuf__addc(sb, '?');
			width++;
		} else {
			strbuf__add(sb, s + i, n);
			width += cp_width(c);
		}
		i += n;
	}
	if (stop < whole) {
		char mark[48];
		int m = snprintf(mark, sizeof(mark),
				 "\xe2\x80\xa6[cut: %zu bytes]", whole);

		strbuf__adds(sb, mark);
		/* the ellipsis is 3 bytes, one column */
		width += (size_t)m - 2;
	}
	return width;
}

size_t sanitize_str(struct strbuf *sb, const char *s)
{
	return s ? sanitize(sb, s, strlen(s)) : 0;
}

size_t display_width(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, w = 0;

	while (i < len && p[i]) {
		u32 c;
		size_t n = utf8_decode(p + i, len - i, &c);

		if (!n) {
			w++;
			i++;
			continue;
		}
		w += cp_width(c);
		i += n;
	}
	return w;
}

/* Byte length of the longest prefix of s that fits in width columns. */
static size_t prefix_fitting(const char *s, size_t len, size_t width,
			     size_t *used)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, w = 0;

	while (i < len) {
		u32 c;
		size_t n = utf8_decode(p + i, len - i, &c), cw;

		if (!n) {
			n = 1;
			cw = 1;
		} else {
			cw = cp_width(c);
		}
		if (w + cw > width)
			break;
		w += cw;
		i += n;
	}
	*used = w;
	return i;
}

size_t fit_width(struct strbuf *sb, const char *s, size_t width, bool pad,
		 bool left)
{
	const char *ell = "\xe2\x80\xa6";
	size_t len = strlen(s), w = display_width(s, len), used = 0;

	if (w <= width) {
		strbuf__add(sb, s, len);
		used = w;
	} else if (width == 0) {
		used = 0;
	} else if (!left) {
		size_t b = prefix_fitting(s, len, width - 1, &used);

		strbuf__add(sb, s, b);
		strbuf__adds(sb, ell);
		used++;
	} else {
		/* keep the end: skip characters until the rest fits */
		size_t i = 0;
		const unsigned char *p = (const unsigned char *)s;

		while (i < len && display_width(s + i, len - i) > width - 1) {
			u32 c;
			size_t n = utf8_decode(p + i, len - i, &c);

			i += n ? n : 1;
		}
		strbuf__adds(sb, ell);
		strbuf__add(sb, s + i, len - i);
		used = 1 + display_width(s + i, len - i);
	}
	while (pad && used < width) {
		strbuf__addc(sb, ' ');
		used++;
	}
	return used;
}

void to_ascii(struct strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		u32 c;
		size_t n = utf8_decode(p + i, len - i, &c), w;

		if (n == 1) {
			strbuf__addc(sb, (char)c);
		} else if (!n) {
			strbuf__addc(sb, '?');
			n = 1;
		} else if (c == 0x2026) {
			strbuf__addc(sb, '.');	/* the cut mark's ellipsis */
		} else if (c >= 0x2581 && c <= 0x2588) {
			/* a sparkline's eighths, and its nothing (fmt__spark) */
			strbuf__addc(sb, "_-:=+*%#"[c - 0x2581]);
		} else if (c == 0xb7) {
			strbuf__addc(sb, '.');
		} else {
			for (w = cp_width(c); w; w--)
				strbuf__addc(sb, '?');
		}
		i += n;
	}
}

void json_sanitized(struct json *j, const char *key, const char *s)
{
	struct strbuf clean;

	if (!s) {
		json__null(j, key);
		return;
	}
	strbuf__init(&clean);
	sanitize_str(&clean, s);
	json__str(j, key, clean.buf ? clean.buf : "");
	strbuf__fini(&clean);
}

void xml_text(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			strbuf__adds(sb, "&amp;");
			break;
		case '<':
			strbuf__adds(sb, "&lt;");
			break;
		case '>':
			strbuf__adds(sb, "&gt;");
			break;
		case '"':
			strbuf__adds(sb, "&quot;");
			break;
		case '\'':
			strbuf__adds(sb, "&apos;");
			break;
		default:
			/* sanitized: no control character is left */
			strbuf__addc(sb, *s);
		}
	}
}

void xml_sanitized(struct strbuf *sb, const char *s)
{
	struct strbuf clean;

	strbuf__init(&clean);
	sanitize_str(&clean, s ? s : "");
	xml_text(sb, clean.buf ? clean.buf : "");
	strbuf__fini(&clean);
}
