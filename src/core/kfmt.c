/* kfmt: /proc/kallsyms and /proc/modules lines (see kfmt.h). */
#include <errno.h>
#include <string.h>

#include "src/core/kfmt.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int kfmt__sym(const char *p, const char *end, struct kfmt_sym *out)
{
	int digits = 0, h;

	memset(out, 0, sizeof(*out));
	while (p < end && (h = hexval(*p)) >= 0) {
		if (++digits > 16)
			return -EINVAL;
		out->addr = out->addr << 4 | (u64)h;
		p++;
	}
	if (!digits || end - p < 4 || p[0] != ' ' || p[2] != ' ')
		return -EINVAL;
	out->type = p[1];
	out->name = p + 3;
	for (p = out->name; p < end && *p != '\t' && *p != ' '; p++)
		;
	out->name_len = (size_t)(p - out->name);
	if (!out->name_len)
		return -EINVAL;
	while (p < end && (*p == '\t' || *p == ' '))
		p++;
	if (p < end && *p == '[') {
		const char *close = memchr(p, ']', (size_t)(end - p));

		if (!close)
			return -EINVAL;
		out->mod = p + 1;
		out->mod_len = (size_t)(close - out->mod);
	}
	return 0;
}

/* The next blank-separated word of [*p, end): its length, 0 at the end. */
static size_t word(const char **p, const char *end, const char **w)
{
	const char *s = *p;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	*w = s;
	while (s < end && *s != ' ' && *s != '\t')
		s++;
	*p = s;
	return (size_t)(s - *w);
}

int kfmt__module(const char *p, const char *end, struct kfmt_module *out)
{
	const char *w;
	size_t n;
	int h;

	memset(out, 0, sizeof(*out));
	out->name_len = word(&p, end, &out->name);
	if (!out->name_len || out->name_len > 55)
		return -EINVAL;
	n = word(&p, end, &w);
	if (!n || n > 19)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (w[i] < '0' || w[i] > '9')
			return -EINVAL;
		out->size = out->size * 10 + (u64)(w[i] - '0');
	}
	/* references, dependencies, state */
	for (int i = 0; i < 3; i++)
		if (!word(&p, end, &w))
			return -EINVAL;
	n = word(&p, end, &w);
	if (n > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')) {
		w += 2;
		n -= 2;
	}
	if (!n || n > 16)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if ((h = hexval(w[i])) < 0)
			return -EINVAL;
		out->addr = out->addr << 4 | (u64)h;
	}
	return 0;
}
