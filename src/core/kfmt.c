/* kfmt: /proc/kallsyms and /proc/modules lines (see kfmt.h). */
#include <errno.h>
#include <string.h>

#include "src/core/kfmt.h"

#define H10 -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
#define H16 H10, -1, -1, -1, -1, -1, -1

const signed char kfmt__class[256] = {
	/* 0x00-0x1f: '\t' is a blank */
	-1, -1, -1, -1, -1, -1, -1, -1, -1, KFMT_BLANK, -1, -1, -1, -1, -1, -1,
	H16,
	/* ' ' ... '/', then the digits, ':' ... '?' */
	KFMT_BLANK, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1, -1, -1, -1,
	/* '@', 'A' ... 'F', then to '_' */
	-1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	H16,
	/* '`', 'a' ... 'f', then to 0x7f */
	-1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	H16,
	/* 0x80-0xff */
	H16, H16, H16, H16, H16, H16, H16, H16,
};

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
