/* timefilter: --time START,END as perf report reads it (pure). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/perfdata/perfdata.h"

/* ---- --time ---- */

/* "SEC[.FRACTION]" (at most nine decimals) in ns. */
static int parse_ts(const char *s, size_t len, u64 *ns)
{
	u64 sec = 0, frac = 0;
	size_t i = 0, digits = 0;

	if (!len)
		return -EINVAL;
	for (; i < len && isdigit((unsigned char)s[i]); i++) {
		if (sec > (UINT64_MAX / 1000000000ULL - 9) / 10)
			return -EINVAL;
		sec = sec * 10 + (u64)(s[i] - '0');
	}
	if (!i)
		return -EINVAL;
	if (i < len && s[i] == '.') {
		for (i++; i < len && isdigit((unsigned char)s[i]); i++) {
			if (++digits > 9)
				return -EINVAL;
			frac = frac * 10 + (u64)(s[i] - '0');
		}
	}
	if (i != len)
		return -EINVAL;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

/* "NN%" or "NN.N%" as a fraction. */
static int parse_pct(const char *s, size_t len, double *out)
{
	char buf[32], *end;
	double v;

	if (!len || len >= sizeof(buf) || s[len - 1] != '%')
		return -EINVAL;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	if (!isdigit((unsigned char)buf[0]))
		return -EINVAL;
	v = strtod(buf, &end);
	if (*end || v < 0 || v > 100)
		return -EINVAL;
	*out = v / 100.0;
	return 0;
}

int perfdata__parse_time(const char *str, u64 first, u64 last, u64 *start,
			 u64 *end, bool *relative, struct strbuf *err)
{
	const char *comma, *sep, *sa, *sb;
	u64 a = 0, b = UINT64_MAX;
	size_t la, lb;
	bool ra, rb;

	if (strchr(str, '%')) {
		double pa, pb, span;
		u64 n;

		*relative = false;
		if (!first || last <= first) {
			strbuf__adds(err, "percentages need the recording's "
					  "sample time range, and it has no "
					  "samples with a time: give times in "
					  "seconds");
			return -EINVAL;
		}
		span = (double)(last - first);
		if ((sep = strchr(str, '/'))) {
			/* "10%/2": the second tenth */
			if (parse_pct(str, (size_t)(sep - str), &pa) ||
			    parse_u64(sep + 1, &n) || !n || pa <= 0 ||
			    (double)(n - 1) * pa >= 1.0 + 1e-9)
				goto bad;
			pb = MIN((double)n * pa, 1.0);
			pa = (double)(n - 1) * pa;
		} else if ((sep = strchr(str, '-'))) {
			if (parse_pct(str, (size_t)(sep - str), &pa) ||
			    parse_pct(sep + 1, strlen(sep + 1), &pb) || pb < pa)
				goto bad;
		} else {
			goto bad;
		}
		*start = first + (u64)(pa * span);
		b = first + (u64)(pb * span);
		*end = b == UINT64_MAX ? b : b + 1;
		return 0;
	}
	comma = strchr(str, ',');
	if (!comma || strchr(comma + 1, ','))
		goto bad;
	/* "+2,+3.5": seconds from the first sample (either side may be
	 * empty, not one absolute and one relative) */
	sa = str;
	la = (size_t)(comma - str);
	sb = comma + 1;
	lb = strlen(sb);
	ra = la && *sa == '+';
	rb = lb && *sb == '+';
	if ((la && lb && ra != rb))
		goto bad;
	if (ra) {
		sa++;
		la--;
	}
	if (rb) {
		sb++;
		lb--;
	}
	if ((ra || la) && parse_ts(sa, la, &a))
		goto bad;
	if ((rb || lb) && parse_ts(sb, lb, &b))
		goto bad;
	if ((comma == str && !comma[1]) || b < a)
		goto bad;
	*relative = ra || rb;
	*start = a;
	/* perf's end is inclusive; the session's is not */
	*end = b == UINT64_MAX ? b : b + 1;
	return 0;
bad:
	strbuf__addf(err, "bad time window '%s': use START,END in seconds "
			  "(e.g. 1887.5,1888.25; either may be empty), "
			  "+START,+END from the first sample (+2,+3.5), "
			  "A%%-B%% or A%%/N", str);
	return -EINVAL;
}


bool perfdata__time_needs_range(const char *str)
{
	return strchr(str, '%') != NULL;
}
