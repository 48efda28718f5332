/* kfmt: /proc/kallsyms and /proc/modules lines (see kfmt.h). */
#include <errno.h>
#include <string.h>

#include "src/core/kfmt.h"

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
		if ((h = kfmt__hexval(w[i])) < 0)
			return -EINVAL;
		out->addr = out->addr << 4 | (u64)h;
	}
	return 0;
}
