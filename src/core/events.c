/* events: pure parsing of event names (perf's) into perf_event_attr. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "src/core/events.h"

/*
 * The generic events, as perf spells them.  The first name of an entry is
 * the canonical one (what events__name_of returns), the others are the
 * aliases perf accepts.
 */
struct generic_event {
	u32 type;
	u64 config;
	const char *names[3];
};

static const struct generic_event generic_events[] = {
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
	  { "cycles", "cpu-cycles" } },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
	  { "instructions" } },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES,
	  { "cache-references" } },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
	  { "cache-misses" } },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  { "branch-instructions", "branches" } },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES,
	  { "branch-misses" } },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES,
	  { "bus-cycles" } },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	  { "stalled-cycles-frontend", "idle-cycles-frontend" } },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	  { "stalled-cycles-backend", "idle-cycles-backend" } },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES,
	  { "ref-cycles" } },

	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, { "cpu-clock" } },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, { "task-clock" } },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS,
	  { "page-faults", "faults" } },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
	  { "context-switches", "cs" } },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS,
	  { "cpu-migrations", "migrations" } },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN,
	  { "minor-faults" } },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ,
	  { "major-faults" } },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS,
	  { "alignment-faults" } },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS,
	  { "emulation-faults" } },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, { "dummy" } },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT, { "bpf-output" } },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES,
	  { "cgroup-switches" } },
};

/*
 * hw-cache events: "<cache>[-<op>][-<result>]".  The first spelling of each
 * row is perf's canonical one; the others are the aliases perf's parser
 * accepts (case-insensitively, longest match first).
 */
static const char *const cache_names[PERF_COUNT_HW_CACHE_MAX][5] = {
	[PERF_COUNT_HW_CACHE_L1D] = { "L1-dcache", "l1-d", "l1d", "L1-data" },
	[PERF_COUNT_HW_CACHE_L1I] = { "L1-icache", "l1-i", "l1i",
				      "L1-instruction" },
	[PERF_COUNT_HW_CACHE_LL] = { "LLC", "L2" },
	[PERF_COUNT_HW_CACHE_DTLB] = { "dTLB", "d-tlb", "Data-TLB" },
	[PERF_COUNT_HW_CACHE_ITLB] = { "iTLB", "i-tlb", "Instruction-TLB" },
	[PERF_COUNT_HW_CACHE_BPU] = { "branch", "branches", "bpu", "btb",
				      "bpc" },
	[PERF_COUNT_HW_CACHE_NODE] = { "node" },
};

/* [0] is the plural used for accesses ("loads"), [1] the singular used
 * before "-misses" ("load-misses"). */
static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][5] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = { "loads", "load", "read" },
	[PERF_COUNT_HW_CACHE_OP_WRITE] = { "stores", "store", "write" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetches", "prefetch",
					      "speculative-read",
					      "speculative-load" },
};

static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][5] = {
	[PERF_COUNT_HW_CACHE_RESULT_ACCESS] = { "refs", "Reference", "ops",
						"access" },
	[PERF_COUNT_HW_CACHE_RESULT_MISS] = { "misses", "miss" },
};

#define OP_BIT(op) (1u << PERF_COUNT_HW_CACHE_OP_##op)
/* The combinations that exist on some machine (perf's table). */
static const unsigned int cache_valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = OP_BIT(READ) | OP_BIT(WRITE) |
				    OP_BIT(PREFETCH),
	[PERF_COUNT_HW_CACHE_L1I] = OP_BIT(READ) | OP_BIT(PREFETCH),
	[PERF_COUNT_HW_CACHE_LL] = OP_BIT(READ) | OP_BIT(WRITE) |
				   OP_BIT(PREFETCH),
	[PERF_COUNT_HW_CACHE_DTLB] = OP_BIT(READ) | OP_BIT(WRITE) |
				     OP_BIT(PREFETCH),
	[PERF_COUNT_HW_CACHE_ITLB] = OP_BIT(READ),
	[PERF_COUNT_HW_CACHE_BPU] = OP_BIT(READ),
	[PERF_COUNT_HW_CACHE_NODE] = OP_BIT(READ) | OP_BIT(WRITE) |
				     OP_BIT(PREFETCH),
};

static bool cache_valid(unsigned int cache, unsigned int op)
{
	return cache < PERF_COUNT_HW_CACHE_MAX &&
	       op < PERF_COUNT_HW_CACHE_OP_MAX &&
	       (cache_valid_ops[cache] & (1u << op));
}

/* Canonical name of a valid combination into buf; NULL if it does not fit. */
static const char *cache_name(unsigned int cache, unsigned int op,
			      unsigned int result, char *buf, size_t len)
{
	int n;

	if (result == PERF_COUNT_HW_CACHE_RESULT_MISS)
		n = snprintf(buf, len, "%s-%s-misses", cache_names[cache][0],
			     cache_ops[op][1]);
	else
		n = snprintf(buf, len, "%s-%s", cache_names[cache][0],
			     cache_ops[op][0]);
	return n < 0 || (size_t)n >= len ? NULL : buf;
}

static u64 cache_config(unsigned int cache, unsigned int op,
			unsigned int result)
{
	return cache | (op << 8) | ((u64)result << 16);
}

/*
 * The longest alias of a table row that s starts with, case-insensitively,
 * and that is followed by '-' or the end.  Returns the row or -1; *used is
 * the length matched.
 */
static int match_alias(const char *s, size_t slen, const char *const (*tab)[5],
		       size_t rows, size_t *used)
{
	int best = -1;
	size_t best_len = 0;

	for (size_t r = 0; r < rows; r++) {
		for (size_t a = 0; a < 5 && tab[r][a]; a++) {
			size_t n = strlen(tab[r][a]);

			if (n > slen || n <= best_len ||
			    strncasecmp(s, tab[r][a], n) != 0)
				continue;
			if (n < slen && s[n] != '-')
				continue;
			best = (int)r;
			best_len = n;
		}
	}
	*used = best_len;
	return best;
}

enum cache_parse {
	CACHE_NOT,		/* not a cache name at all */
	CACHE_OK,
	CACHE_INVALID,		/* a cache name, no such combination */
};

/* perf's grammar: <cache>[-<op-or-result>[-<op-or-result>]], at most one
 * of each; the op defaults to load, the result to access. */
static enum cache_parse parse_cache(const char *s, size_t len, u64 *config)
{
	int cache, op = -1, result = -1;
	size_t used, pos;

	cache = match_alias(s, len, cache_names, PERF_COUNT_HW_CACHE_MAX,
			    &used);
	if (cache < 0)
		return CACHE_NOT;
	pos = used;
	for (int part = 0; part < 2 && pos < len; part++) {
		int o, r;
		size_t uo, ur;

		pos++;		/* the '-' */
		o = match_alias(s + pos, len - pos, cache_ops,
				PERF_COUNT_HW_CACHE_OP_MAX, &uo);
		r = match_alias(s + pos, len - pos, cache_results,
				PERF_COUNT_HW_CACHE_RESULT_MAX, &ur);
		if (o >= 0 && op < 0 && (r < 0 || uo >= ur)) {
			op = o;
			pos += uo;
		} else if (r >= 0 && result < 0) {
			result = r;
			pos += ur;
		} else {
			return CACHE_NOT;
		}
	}
	if (pos != len)
		return CACHE_NOT;
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	if (!cache_valid((unsigned int)cache, (unsigned int)op))
		return CACHE_INVALID;
	*config = cache_config((unsigned int)cache, (unsigned int)op,
			       (unsigned int)result);
	return CACHE_OK;
}

static const struct generic_event *find_generic(const char *s, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(generic_events); i++) {
		const struct generic_event *g = &generic_events[i];

		for (size_t a = 0; a < ARRAY_SIZE(g->names) && g->names[a];
		     a++) {
			if (strlen(g->names[a]) == len &&
			    memcmp(g->names[a], s, len) == 0)
				return g;
		}
	}
	return NULL;
}

/* One or more digits of base 10 or 16 that fit in 64 bits. */
static bool parse_digits(const char *s, size_t len, unsigned int base,
			 u64 *out)
{
	u64 v = 0;

	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned int)(c - 'A' + 10);
		else
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

/* "r" followed by 1..16 hex digits, as perf's lexer. */
static bool parse_raw(const char *s, size_t len, u64 *config)
{
	if (len < 2 || len > 17 || s[0] != 'r')
		return false;
	return parse_digits(s + 1, len - 1, 16, config);
}

struct suggest {
	const char *s;
	size_t len;
	const char *best;
	size_t best_d;
	char cache_buf[64];	/* holds best when it is a cache name */
};

static void suggest_one(struct suggest *sg, const char *name, bool is_cache)
{
	size_t d = edit_distance(sg->s, sg->len, name, true);

	if (d >= sg->best_d)
		return;
	sg->best_d = d;
	if (is_cache) {
		snprintf(sg->cache_buf, sizeof(sg->cache_buf), "%s", name);
		sg->best = sg->cache_buf;
	} else {
		sg->best = name;
	}
}

/* The known name closest to s, when it is close enough to be an obvious
 * typo (or differs only in case); NULL otherwise. */
static const char *closest_name(struct suggest *sg, const char *s,
				size_t len)
{
	char buf[64];

	sg->s = s;
	sg->len = len;
	sg->best = NULL;
	sg->best_d = SIZE_MAX;
	for (size_t i = 0; i < ARRAY_SIZE(generic_events); i++)
		for (size_t a = 0; a < ARRAY_SIZE(generic_events[i].names) &&
				   generic_events[i].names[a]; a++)
			suggest_one(sg, generic_events[i].names[a], false);
	for (unsigned int c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++)
		for (unsigned int o = 0; o < PERF_COUNT_HW_CACHE_OP_MAX; o++)
			for (unsigned int r = 0;
			     r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++)
				if (cache_valid(c, o) &&
				    cache_name(c, o, r, buf, sizeof(buf)))
					suggest_one(sg, buf, true);
	/* Two edits, and never more than a third of the word. */
	if (sg->best && sg->best_d <= 2 && sg->best_d * 3 <= len)
		return sg->best;
	return NULL;
}

static void err_unknown(struct strbuf *err, const char *item, size_t len,
			const char *full)
{
	struct suggest sg;
	const char *close = closest_name(&sg, item, len);

	if (!err)
		return;
	strbuf__addf(err, "unknown event '%s'", full);
	if (close)
		strbuf__addf(err, " (did you mean '%s'?)", close);
	strbuf__adds(err, "; see --list-events for the events of this machine");
}

/*
 * perf's modifiers: u, k, h restrict to user, kernel, hypervisor (the first
 * one excludes every level, then each letter lets its own back in); each p
 * asks for one more level of skid precision, up to 3.
 */
static int parse_modifiers(const char *mod, struct perf_event_attr *attr,
			   const char *full, struct strbuf *err)
{
	bool any_level = false;
	unsigned int p = 0;

	if (!*mod) {
		if (err)
			strbuf__addf(err, "empty modifier in '%s'", full);
		return -EINVAL;
	}
	for (const char *c = mod; *c; c++) {
		switch (*c) {
		case 'u':
		case 'k':
		case 'h':
			if (!any_level) {
				attr->exclude_user = 1;
				attr->exclude_kernel = 1;
				attr->exclude_hv = 1;
				any_level = true;
			}
			if (*c == 'u')
				attr->exclude_user = 0;
			else if (*c == 'k')
				attr->exclude_kernel = 0;
			else
				attr->exclude_hv = 0;
			break;
		case 'p':
			p++;
			break;
		default:
			if (err)
				strbuf__addf(err,
					     "unknown modifier '%c' in '%s' (modifiers: u, k, h, p, pp, ppp)",
					     *c, full);
			return -EINVAL;
		}
	}
	if (p > 3) {
		if (err)
			strbuf__addf(err,
				     "too many 'p' modifiers in '%s' (at most ppp)",
				     full);
		return -EINVAL;
	}
	attr->precise_ip = p;
	return 0;
}

static bool tp_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

static bool tp_glob_char(char c)
{
	return c == '*' || c == '?' || c == '[' || c == ']' || c == '!';
}

/* A tracefs directory name, or a glob of them (fnmatch's * ? [...]): the
 * name becomes a path, so no '/', and no leading '.' (which also rules
 * out "." and ".."). */
static bool tp_word_ok(const char *s, size_t len, bool *glob)
{
	if (len == 0 || s[0] == '.')
		return false;
	for (size_t i = 0; i < len; i++) {
		if (tp_glob_char(s[i]))
			*glob = true;
		else if (!tp_char_ok(s[i]))
			return false;
	}
	return true;
}

static bool only_modifier_letters(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr("ukhp", *s))
			return false;
	return true;
}

static void attr_init(struct perf_event_attr *attr, u32 type, u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
}

static int parse_tracepoint(const char *item, size_t sys_len,
			    struct event_spec *spec, struct strbuf *err)
{
	const char *name = item + sys_len + 1;
	const char *colon = strchr(name, ':');
	size_t name_len = colon ? (size_t)(colon - name) : strlen(name);

	if (colon) {
		if (err)
			strbuf__addf(err,
				     "tracepoint '%.*s' takes no modifiers (':%s' in '%s')",
				     (int)(sys_len + 1 + name_len), item,
				     colon + 1, item);
		return -EINVAL;
	}
	if (!tp_word_ok(item, sys_len, &spec->tp_glob) ||
	    !tp_word_ok(name, name_len, &spec->tp_glob)) {
		if (err) {
			strbuf__addf(err,
				     "bad tracepoint name '%s': expected subsystem:name ",
				     item);
			strbuf__adds(err,
				     "(letters, digits, '_', '-', '.', and the wildcards * ? [...])");
		}
		return -EINVAL;
	}
	if (sys_len >= sizeof(spec->tp_sys) ||
	    name_len >= sizeof(spec->tp_name)) {
		if (err)
			strbuf__addf(err, "tracepoint name too long: '%s'",
				     item);
		return -EINVAL;
	}
	attr_init(&spec->attr, PERF_TYPE_TRACEPOINT, 0);
	spec->tracepoint = true;
	memcpy(spec->tp_sys, item, sys_len);
	spec->tp_sys[sys_len] = '\0';
	memcpy(spec->tp_name, name, name_len);
	spec->tp_name[name_len] = '\0';
	return 0;
}

/* PMU events */

/*
 * A PMU's or a term's name: it becomes a sysfs path component, so no '/',
 * no leading '.' and no "..".  A term starts with a letter or '_' (perf's
 * lexer); a PMU may start with a digit.
 */
static bool word_ok(const char *s, size_t len, bool term)
{
	if (len == 0 || len >= EVENT_WORD_MAX || s[0] == '.')
		return false;
	if (term && !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') ||
		      (s[0] >= 'A' && s[0] <= 'Z')))
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		      c == '.'))
			return false;
		if (c == '.' && i + 1 < len && s[i + 1] == '.')
			return false;
	}
	return true;
}

/* Writes a message into err (when there is one); returns -EINVAL. */
static int bad(struct strbuf *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(struct strbuf *err, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		strbuf__vaddf(err, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A term's value: decimal, or hex after "0x", as perf's lexer. */
static bool parse_value(const char *s, size_t len, u64 *v)
{
	if (len > 2 && s[0] == '0' && s[1] == 'x')
		return parse_digits(s + 2, len - 2, 16, v);
	return parse_digits(s, len, 10, v);
}

/* perf's own terms that mean something ptop does not do: refused by name
 * rather than looked up as format fields of the PMU. */
static const char *const perf_only_terms[] = {
	"name", "branch_type", "time", "call-graph", "stack-size",
	"max-stack", "nr", "inherit", "no-inherit", "overwrite",
	"no-overwrite", "percore", "aux-output", "aux-sample-size",
	"metric-id", "driver-config",
};

int events__parse_terms(const char *s, const char *what,
			struct event_term *terms, size_t max, size_t *nr,
			struct strbuf *err)
{
	size_t n = 0;

	*nr = 0;
	if (!*s)
		return 0;
	for (;;) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		const char *eq = memchr(s, '=', len);
		size_t nlen = eq ? (size_t)(eq - s) : len;
		struct event_term *t;

		if (len == 0)
			return bad(err, "empty term in '%s'", what);
		if (n == max)
			return bad(err,
				   "more than %zu terms in '%s'",
				   max, what);
		if (!word_ok(s, nlen, true))
			return bad(err,
				   "bad term '%.*s' in '%s' (names of letters, digits, '_', '-', '.', without '..')",
				   (int)nlen, s, what);
		for (size_t i = 0; i < ARRAY_SIZE(perf_only_terms); i++) {
			if (strlen(perf_only_terms[i]) == nlen &&
			    !memcmp(perf_only_terms[i], s, nlen))
				return bad(err,
					   "perf's term '%s' (in '%s') is not supported by ptop",
					   perf_only_terms[i], what);
		}
		t = &terms[n++];
		memset(t, 0, sizeof(*t));
		memcpy(t->name, s, nlen);
		if (eq) {
			if (!parse_value(eq + 1, len - nlen - 1, &t->val))
				return bad(err,
					   "bad number '%.*s' for term '%s' in '%s' (decimal, or hex after 0x; at most 64 bits)",
					   (int)(len - nlen - 1), eq + 1,
					   t->name, what);
			t->has_val = true;
		}
		if (!end)
			break;
		s = end + 1;
	}
	*nr = n;
	return 0;
}

int events__parse_format(const char *s, enum pmu_word *word, u64 *mask)
{
	static const char *const words[] = {
		[PMU_CONFIG] = "config",
		[PMU_CONFIG1] = "config1",
		[PMU_CONFIG2] = "config2",
	};
	const char *colon = strchr(s, ':');
	size_t len = strlen(s);
	u64 m = 0;
	int w = -1;

	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	if (!colon || (size_t)(colon - s) >= len)
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == (size_t)(colon - s) &&
		    !memcmp(words[i], s, (size_t)(colon - s)))
			w = (int)i;
	if (w < 0)
		return -EINVAL;
	/* bit ranges: "N" or "N-M", comma-separated */
	for (const char *p = colon + 1, *end = s + len; p < end;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;
		const char *dash = memchr(p, '-', (size_t)(stop - p));
		u64 lo, hi;

		if (!parse_digits(p, (size_t)((dash ? dash : stop) - p), 10,
				  &lo))
			return -EINVAL;
		hi = lo;
		if (dash && !parse_digits(dash + 1, (size_t)(stop - dash - 1),
					  10, &hi))
			return -EINVAL;
		if (lo > hi || hi > 63)
			return -EINVAL;
		for (u64 b = lo; b <= hi; b++)
			m |= 1ULL << b;
		if (!comma)
			break;
		p = comma + 1;
		if (p == end)
			return -EINVAL;
	}
	if (!m)
		return -EINVAL;
	*word = (enum pmu_word)w;
	*mask = m;
	return 0;
}

int events__format_set(u64 *w, u64 mask, u64 val)
{
	u64 out = *w;
	unsigned int vbit = 0;

	for (unsigned int fbit = 0; fbit < 64; fbit++) {
		if (!(mask & (1ULL << fbit)))
			continue;
		if (val & (1ULL << vbit))
			out |= 1ULL << fbit;
		else
			out &= ~(1ULL << fbit);
		vbit++;
	}
	if (vbit < 64 && (val >> vbit))
		return -ERANGE;
	*w = out;
	return 0;
}

static bool is_word(const char *s, const char *word)
{
	return strcmp(s, word) == 0;
}

/*
 * "pmu/terms/modifiers" (slash: the first '/' of item): the PMU's name
 * and its terms as written; period= and freq= are taken out of the terms
 * into the spec.  evsel resolves the rest when it opens the event.
 */
static int parse_pmu(const char *item, const char *slash,
		     struct event_spec *spec, struct strbuf *err)
{
	size_t plen = (size_t)(slash - item), n, kept = 0;
	const char *close = strchr(slash + 1, '/');
	const char *mods;
	char terms[512];
	int ret;

	if (plen == 0)
		return bad(err,
			   "empty PMU name in '%s' (pmu/terms/, e.g. cpu/event=0x3c/)",
			   item);
	if (!word_ok(item, plen, false))
		return bad(err,
			   "bad PMU name '%.*s' in '%s' (letters, digits, '_', '-', '.', not '.' first, without '..')",
			   (int)plen, item, item);
	if (!close)
		return bad(err,
			   "unterminated PMU event '%s': its terms end with '/' (pmu/terms/, e.g. cpu/event=0x3c/)",
			   item);
	mods = close + 1;
	if (strchr(mods, '/'))
		return bad(err,
			   "too many '/' in '%s' (pmu/terms/modifiers)",
			   item);
	if (*mods == ':')
		return bad(err,
			   "the modifiers of '%s' follow the last '/' without a ':', as in perf (cpu/cycles/u)",
			   item);
	/* item is shorter than spec->name, so its terms fit */
	memcpy(terms, slash + 1, (size_t)(close - slash - 1));
	terms[close - slash - 1] = '\0';
	ret = events__parse_terms(terms, item, spec->terms, EVENT_MAX_TERMS,
				  &n, err);
	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++) {
		struct event_term *t = &spec->terms[i];
		bool period = is_word(t->name, "period");

		if (period || is_word(t->name, "freq")) {
			if (!t->has_val || !t->val)
				return bad(err,
					   "'%s': %s= needs a value above 0",
					   item, t->name);
			if (period)
				spec->period = t->val;
			else
				spec->freq = t->val;
			continue;
		}
		if (!t->has_val && (is_word(t->name, "config") ||
				    is_word(t->name, "config1") ||
				    is_word(t->name, "config2")))
			return bad(err, "'%s': %s= needs a value", item,
				   t->name);
		spec->terms[kept++] = *t;
	}
	spec->nr_terms = kept;
	if (spec->period && spec->freq)
		return bad(err,
			   "'%s' has both period= and freq=: one or the other",
			   item);
	memcpy(spec->pmu_name, item, plen);
	spec->pmu_name[plen] = '\0';
	/* No such type until evsel reads the PMU's: opening it unresolved
	 * fails (ENOENT) rather than sampling something else. */
	attr_init(&spec->attr, UINT32_MAX, 0);
	spec->pmu = true;
	if (*mods)
		return parse_modifiers(mods, &spec->attr, item, err);
	return 0;
}

/* One item of the list, trimmed and NUL-terminated. */
static int parse_one(const char *item, struct event_spec *spec,
		     struct strbuf *err)
{
	const char *colon = strchr(item, ':');
	const char *slash = strchr(item, '/');
	size_t len = colon ? (size_t)(colon - item) : strlen(item);
	const struct generic_event *g;
	enum cache_parse cp;
	u64 config;

	memset(spec, 0, sizeof(*spec));
	if (strlen(item) >= sizeof(spec->name)) {
		if (err)
			strbuf__addf(err, "event name too long: '%.64s...'",
				     item);
		return -EINVAL;
	}
	strcpy(spec->name, item);

	/* A PMU's name has no ':': "sched:a/b" is a bad tracepoint. */
	if (slash && (!colon || colon > slash))
		return parse_pmu(item, slash, spec, err);
	g = find_generic(item, len);
	if (g) {
		attr_init(&spec->attr, g->type, g->config);
	} else if (parse_raw(item, len, &config)) {
		attr_init(&spec->attr, PERF_TYPE_RAW, config);
	} else if ((cp = parse_cache(item, len, &config)) == CACHE_OK) {
		attr_init(&spec->attr, PERF_TYPE_HW_CACHE, config);
	} else if (cp == CACHE_INVALID) {
		if (err)
			strbuf__addf(err,
				     "'%.*s' is not a cache event on any machine (that cache has no such operation); see --list-events",
				     (int)len, item);
		return -EINVAL;
	} else if (colon) {
		struct suggest sg;

		/* "cyclse:u" is a misspelt event, not a tracepoint. */
		if (only_modifier_letters(colon + 1) &&
		    closest_name(&sg, item, len)) {
			err_unknown(err, item, len, item);
			return -EINVAL;
		}
		return parse_tracepoint(item, len, spec, err);
	} else {
		err_unknown(err, item, len, item);
		return -EINVAL;
	}
	if (colon)
		return parse_modifiers(colon + 1, &spec->attr, item, err);
	return 0;
}

/* Where the item at p ends: the next ',' that is not between the '/' of
 * a PMU event's terms ("cpu/event=0x3c,umask=0/,cycles"); NULL: the end. */
static const char *item_end(const char *p)
{
	bool in_terms = false;

	for (; *p; p++) {
		if (*p == '/')
			in_terms = !in_terms;
		else if (*p == ',' && !in_terms)
			return p;
	}
	return NULL;
}

int events__parse(const char *list, struct event_spec **specs, size_t *n,
		  struct strbuf *err)
{
	struct event_spec *out = NULL, *grown;
	size_t nr = 0, cap = 0;
	const char *p = list;
	char item[512];
	int ret = 0;

	if (!list || !specs || !n)
		return -EINVAL;
	/* err holds this call's message only, even when reused. */
	if (err)
		strbuf__reset(err);
	for (;;) {
		const char *end = item_end(p);
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *s = p;

		while (len && (*s == ' ' || *s == '\t')) {
			s++;
			len--;
		}
		while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
			len--;
		if (len == 0) {
			if (err)
				strbuf__addf(err, "empty event name in '%s'",
					     list);
			ret = -EINVAL;
			goto out;
		}
		if (len >= sizeof(item)) {
			if (err)
				strbuf__addf(err,
					     "event name too long: '%.64s...'",
					     s);
			ret = -EINVAL;
			goto out;
		}
		memcpy(item, s, len);
		item[len] = '\0';
		if (array__grow((void **)&out, &cap, nr + 1, sizeof(*out))) {
			ret = -ENOMEM;
			goto out;
		}
		ret = parse_one(item, &out[nr], err);
		if (ret)
			goto out;
		nr++;
		if (!end)
			break;
		p = end + 1;
	}
	/* All or nothing: *specs only changes when every item parsed. */
	grown = realloc(*specs, (*n + nr) * sizeof(**specs));
	if (!grown) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(grown + *n, out, nr * sizeof(*out));
	*specs = grown;
	*n += nr;
out:
	free(out);
	return ret;
}

void events__default(struct event_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	strcpy(spec->name, "cycles");
	attr_init(&spec->attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	spec->is_default = true;
}

void events__fallback(struct event_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	strcpy(spec->name, "cpu-clock");
	attr_init(&spec->attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
}

void events__foreach_generic(void (*fn)(const char *name, enum event_class cls,
					u32 type, u64 config, void *ctx),
			     void *ctx)
{
	char buf[64];

	for (size_t i = 0; i < ARRAY_SIZE(generic_events); i++) {
		const struct generic_event *g = &generic_events[i];
		enum event_class cls = g->type == PERF_TYPE_HARDWARE ?
					       EVCLASS_HARDWARE :
					       EVCLASS_SOFTWARE;

		for (size_t a = 0; a < ARRAY_SIZE(g->names) && g->names[a];
		     a++)
			fn(g->names[a], cls, g->type, g->config, ctx);
	}
	/* Cache events by their canonical names only: the aliases multiply
	 * into hundreds of spellings of the same few events. */
	for (unsigned int c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++)
		for (unsigned int o = 0; o < PERF_COUNT_HW_CACHE_OP_MAX; o++)
			for (unsigned int r = 0;
			     r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++)
				if (cache_valid(c, o) &&
				    cache_name(c, o, r, buf, sizeof(buf)))
					fn(buf, EVCLASS_CACHE,
					   PERF_TYPE_HW_CACHE,
					   cache_config(c, o, r), ctx);
}

const char *events__name_of(u32 type, u64 config, char *buf, size_t len)
{
	switch (type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_SOFTWARE:
		for (size_t i = 0; i < ARRAY_SIZE(generic_events); i++)
			if (generic_events[i].type == type &&
			    generic_events[i].config == config)
				return generic_events[i].names[0];
		return NULL;
	case PERF_TYPE_HW_CACHE: {
		unsigned int c = config & 0xff, o = (config >> 8) & 0xff;
		unsigned int r = (config >> 16) & 0xff;

		if ((config >> 24) || !cache_valid(c, o) ||
		    r >= PERF_COUNT_HW_CACHE_RESULT_MAX || !buf)
			return NULL;
		return cache_name(c, o, r, buf, len);
	}
	case PERF_TYPE_RAW: {
		int n;

		if (!buf)
			return NULL;
		n = snprintf(buf, len, "r%llx", (unsigned long long)config);
		return n < 0 || (size_t)n >= len ? NULL : buf;
	}
	default:
		return NULL;
	}
}
