/* pmu: resolves perf's PMU event syntax ("cpu/event=0x3c,umask=0/") from
 * sysfs: the PMU's type, its format fields and event aliases. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/util.h"
#include "src/sys/fdio.h"
#include "src/sys/pmu.h"

/* The PMUs' directory in sysfs. */
const char *pmu__root(const char *pmu_root)
{
	return pmu_root ? pmu_root : "/sys/bus/event_source/devices";
}

/* An alias may name other aliases: this deep at most (a loop ends). */
#define ALIAS_DEPTH 4

struct pmu_res {
	const char *root;
	struct event_spec *spec;
	struct strbuf *why;	/* a failure's words; NULL while listing */
};

static void res_err(const struct pmu_res *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void res_err(const struct pmu_res *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->why)
		return;
	va_start(ap, fmt);
	strbuf__vaddf(r->why, fmt, ap);
	va_end(ap);
}

/*
 * PMU/SUB/NAME (SUB: "type", "format", "events") into buf: 0, -ENOENT
 * when there is no such file (not reported: the caller knows what that
 * means), or another -errno (its words in why).
 */
static int read_pmu_file(const struct pmu_res *r, const char *sub,
			 const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	int n, err;

	n = snprintf(path, sizeof(path), "%s/%s/%s%s%s", r->root,
		     r->spec->pmu_name, sub, name ? "/" : "", name ? name : "");
	if (n < 0 || (size_t)n >= sizeof(path)) {
		res_err(r, "%s: the path of its PMU's %s is too long",
			r->spec->name, sub);
		return -ENAMETOOLONG;
	}
	err = fd__read_text(path, buf, len);
	if (err == -ENOENT || err == -ENOTDIR)
		return -ENOENT;
	if (err)
		res_err(r, "%s: cannot read %s: %s", r->spec->name, path,
			strerror(-err));
	return err;
}

static __u64 *attr_word(struct perf_event_attr *a, enum pmu_word w)
{
	switch (w) {
	case PMU_CONFIG1:
		return &a->config1;
	case PMU_CONFIG2:
		return &a->config2;
	case PMU_CONFIG:
	default:
		return &a->config;
	}
}

/* The word a "config", "config1", "config2" term sets; -1 for others. */
static int config_term(const char *name)
{
	if (!strcmp(name, "config"))
		return PMU_CONFIG;
	if (!strcmp(name, "config1"))
		return PMU_CONFIG1;
	if (!strcmp(name, "config2"))
		return PMU_CONFIG2;
	return -1;
}

/* perf's raw term in PMU syntax, "r1a8" or "r0x1a8": the config. */
static bool raw_term(const char *name, u64 *config)
{
	const char *hex = name + 1;
	char *end;

	if (name[0] != 'r')
		return false;
	if (hex[0] == '0' && hex[1] == 'x')
		hex += 2;
	if (!isxdigit((unsigned char)hex[0]) || strlen(hex) > 16)
		return false;
	errno = 0;
	*config = strtoull(hex, &end, 16);
	return !errno && !*end;
}

/* Sets the format field NAME (its file's content fmt) to val. */
static int pmu_set_format(struct pmu_res *r, const char *name,
			  const char *fmt, u64 val)
{
	enum pmu_word w;
	u64 mask, word;

	if (events__parse_format(fmt, &w, &mask)) {
		res_err(r, "%s: the format of term '%s' (%s/%s/format/%s: '%s') is not one ptop knows (config, config1 or config2 bit ranges)",
			r->spec->name, name, r->root, r->spec->pmu_name, name,
			fmt);
		return -EINVAL;
	}
	word = *attr_word(&r->spec->attr, w);
	if (events__format_set(&word, mask, val)) {
		res_err(r, "%s: %#llx does not fit in term '%s' of PMU '%s' (%d bits: %s)",
			r->spec->name, (unsigned long long)val, name,
			r->spec->pmu_name, __builtin_popcountll(mask), fmt);
		return -EINVAL;
	}
	*attr_word(&r->spec->attr, w) = word;
	return 0;
}

/* The first names of PMU/sub, for a message: " a b c", else none. */
static void add_names(struct strbuf *sb, const struct pmu_res *r,
		      const char *sub, const char *none)
{
	char path[PATH_MAX];
	char **names;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s/%s", r->root, r->spec->pmu_name,
		 sub);
	if (dir__list(path, NULL, &names, &n) || !n) {
		strbuf__adds(sb, none);
		return;
	}
	for (size_t i = 0; i < n && i < 24; i++)
		strbuf__addf(sb, " %s", names[i]);
	if (n > 24)
		strbuf__addf(sb, " ... (%zu in all)", n);
	dir__free_names(names, n);
}

/* An unknown term: what the PMU does know, for the message. */
static int unknown_term(const struct pmu_res *r, const char *name,
			const char *alias, bool has_val)
{
	const char *pmu = r->spec->pmu_name;
	struct strbuf *sb = r->why;

	if (!sb)
		return -ENOENT;
	strbuf__addf(sb, "%s: PMU '%s' has no %s'%s'", r->spec->name, pmu,
		     has_val ? "term " : "event alias or term ", name);
	if (alias)
		strbuf__addf(sb, " (named by its alias '%s')", alias);
	if (has_val)
		strbuf__addf(sb, " (no %s/%s/format/%s)", r->root, pmu, name);
	else
		strbuf__addf(sb, " (neither %s/%s/events/%s nor format/%s)",
			     r->root, pmu, name, name);
	strbuf__adds(sb, "; its terms: config config1 config2");
	add_names(sb, r, "format", "");
	if (!has_val) {
		strbuf__adds(sb, "; its event aliases:");
		add_names(sb, r, "events", " (none)");
	}
	return -ENOENT;
}

static int pmu_term(struct pmu_res *r, const struct event_term *t,
		    int depth, const char *alias);

/* The alias NAME (its file's content terms) applied in its place. */
static int pmu_alias(struct pmu_res *r, const char *name, const char *terms,
		     int depth)
{
	struct event_term at[EVENT_MAX_TERMS];
	struct strbuf e;
	char what[2 * EVENT_WORD_MAX + 4];
	size_t n;
	int err;

	if (depth >= ALIAS_DEPTH) {
		res_err(r, "%s: PMU '%s' aliases nest deeper than %d at '%s' (a loop?)",
			r->spec->name, r->spec->pmu_name, ALIAS_DEPTH, name);
		return -EINVAL;
	}
	if (strchr(terms, '?')) {
		res_err(r, "%s: the alias '%s' of PMU '%s' ('%s') has parameters ('?'), which ptop does not fill in: write its terms out with values",
			r->spec->name, name, r->spec->pmu_name, terms);
		return -EINVAL;
	}
	snprintf(what, sizeof(what), "%s/%s/", r->spec->pmu_name, name);
	strbuf__init(&e);
	err = events__parse_terms(terms, what, at, ARRAY_SIZE(at), &n, &e);
	if (err)
		res_err(r, "%s: bad alias %s/%s/events/%s: %s", r->spec->name,
			r->root, r->spec->pmu_name, name,
			e.buf ? e.buf : "");
	strbuf__fini(&e);
	if (err)
		return -EINVAL;
	for (size_t i = 0; i < n && !err; i++) {
		if (!strcmp(at[i].name, "period") ||
		    !strcmp(at[i].name, "freq")) {
			res_err(r, "%s: the alias '%s' of PMU '%s' sets %s=, which ptop takes from the event's own terms only",
				r->spec->name, name, r->spec->pmu_name,
				at[i].name);
			return -EINVAL;
		}
		err = pmu_term(r, &at[i], depth + 1, name);
	}
	return err;
}

/* One term (of the event, or of the alias `alias` at this depth). */
static int pmu_term(struct pmu_res *r, const struct event_term *t,
		    int depth, const char *alias)
{
	char buf[4096];
	int w = config_term(t->name);
	u64 raw;
	int err;

	if (w >= 0) {
		if (!t->has_val) {
			res_err(r, "%s: %s= needs a value%s%s%s",
				r->spec->name, t->name,
				alias ? " (in alias '" : "",
				alias ? alias : "", alias ? "')" : "");
			return -EINVAL;
		}
		*attr_word(&r->spec->attr, (enum pmu_word)w) = t->val;
		return 0;
	}
	if (!t->has_val) {
		err = read_pmu_file(r, "events", t->name, buf, sizeof(buf));
		if (!err)
			return pmu_alias(r, t->name, buf, depth);
		if (err != -ENOENT)
			return err;
	}
	err = read_pmu_file(r, "format", t->name, buf, sizeof(buf));
	if (!err)
		return pmu_set_format(r, t->name, buf,
				      t->has_val ? t->val : 1);
	if (err != -ENOENT)
		return err;
	if (!t->has_val && raw_term(t->name, &raw)) {
		r->spec->attr.config = raw;
		return 0;
	}
	return unknown_term(r, t->name, alias, t->has_val);
}

static int resolve(struct pmu_res *r)
{
	struct event_spec *spec = r->spec;
	struct perf_event_attr *a = &spec->attr;
	char buf[32], *end;
	unsigned long long type;
	int err;

	if (!spec->pmu)
		return 0;
	err = read_pmu_file(r, "type", NULL, buf, sizeof(buf));
	if (err == -ENOENT) {
		res_err(r, "%s: unknown PMU '%s' (no %s/%s/type); the PMUs of this machine are in %s",
			spec->name, spec->pmu_name, r->root, spec->pmu_name,
			r->root);
		return -ENOENT;
	}
	if (err)
		return err;
	errno = 0;
	type = strtoull(buf, &end, 10);
	if (errno || end == buf || *end || type > UINT32_MAX) {
		res_err(r, "%s: bad type '%s' in %s/%s/type", spec->name, buf,
			r->root, spec->pmu_name);
		return -EINVAL;
	}
	/* From scratch: resolving twice gives the same attr. */
	a->type = (u32)type;
	a->config = 0;
	a->config1 = 0;
	a->config2 = 0;
	for (size_t i = 0; i < spec->nr_terms; i++) {
		err = pmu_term(r, &spec->terms[i], 0, NULL);
		if (err)
			return err;
	}
	return 0;
}

int pmu__resolve(const char *pmu_root, struct event_spec *spec,
		 struct strbuf *why)
{
	return pmu__resolve_at(pmu__root(pmu_root), spec, why);
}

int pmu__resolve_at(const char *root, struct event_spec *spec,
		    struct strbuf *why)
{
	struct pmu_res r = { .root = root, .spec = spec, .why = why };

	return resolve(&r);
}

/* Files of events/ that qualify an alias rather than name one. */
bool pmu__alias_qualifier(const char *name)
{
	static const char *const sfx[] = {
		".scale", ".unit", ".per-pkg", ".snapshot",
	};
	size_t len = strlen(name);

	for (size_t i = 0; i < ARRAY_SIZE(sfx); i++) {
		size_t n = strlen(sfx[i]);

		if (len > n && !strcmp(name + len - n, sfx[i]))
			return true;
	}
	return false;
}

