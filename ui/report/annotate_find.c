/* annotate_find: the function a name means (--annotate NAME): exact,
 * then a part of a C++ or Rust name, the hottest of the sampled ones;
 * the closest names when none matches. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/lru.h"
#include "ui/report/annotate.h"
#include "ui/report/annotate_internal.h"
#include "symbols/cslib.h"
#include "symbols/demangle.h"
#include "ui/report/sanitize.h"
#include "ui/report/table.h"
#include "symbols/srcfile.h"

#define MAX_CLOSE 5

static bool name_matches(const char *name, const char *raw, const char *want)
{
	size_t n = strlen(want);

	if (!name)
		return false;
	if (!strcmp(name, want) || (raw && !strcmp(raw, want)))
		return true;
	/* "foo" names "foo(int)" and "ns::foo(int) const" names itself */
	if (!strncmp(name, want, n) && name[n] == '(')
		return true;
	/* names are shown by their name alone (perf's form) unless asked:
	 * the full form given names them too */
	if (raw && strchr(want, '(')) {
		struct strbuf full;
		bool eq;

		strbuf__init(&full);
		eq = demangle__name(raw, DEMANGLE_PARAMS, &full) > 0 &&
		     !strcmp(full.buf, want);
		strbuf__fini(&full);
		return eq;
	}
	return false;
}

unsigned int annotate__distance(const char *a, const char *b)
{
	unsigned int row[129];
	size_t la = MIN(strlen(a), (size_t)128), lb = MIN(strlen(b), (size_t)128);

	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned int)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned int diag = row[0];

		row[0] = (unsigned int)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned int up = row[j];
			unsigned int best = diag + (a[i - 1] != b[j - 1]);

			best = MIN(best, up + 1);
			best = MIN(best, row[j - 1] + 1);
			row[j] = best;
			diag = up;
		}
	}
	return MIN(row[lb], 255u);
}

struct close_set {
	const char *want;
	const char *names[MAX_CLOSE];
	unsigned int score[MAX_CLOSE];
	size_t nr;
};

/* Substrings score 0..99 (shorter is closer), small edit distances
 * 100 + distance; others are not close. */
static void close_consider(struct close_set *cs, const char *name)
{
	size_t lw = strlen(cs->want), ln = strlen(name);
	unsigned int score, d;
	size_t worst = 0;

	if (!ln)
		return;
	for (size_t i = 0; i < cs->nr; i++)
		if (cs->names[i] == name)
			return;
	if (strcasestr(name, cs->want)) {
		score = (unsigned int)MIN(ln - lw, (size_t)99);
	} else {
		if (ln > lw + 8 || lw > ln + 8)
			return;
		d = annotate__distance(name, cs->want);
		if (d > MAX(2u, (unsigned int)lw / 3))
			return;
		score = 100 + d;
	}
	if (cs->nr < MAX_CLOSE) {
		cs->names[cs->nr] = name;
		cs->score[cs->nr++] = score;
		return;
	}
	for (size_t i = 1; i < cs->nr; i++)
		if (cs->score[i] > cs->score[worst])
			worst = i;
	if (score < cs->score[worst]) {
		cs->names[worst] = name;
		cs->score[worst] = score;
	}
}

struct find_ctx {
	const char *want;
	struct sym_info hit;
	bool found;
	struct close_set *close;
};

static int find_in_symtab(void *ctx, const struct sym_info *si)
{
	struct find_ctx *fc = ctx;

	if (name_matches(si->name, si->raw_name, fc->want)) {
		fc->hit = *si;
		fc->found = true;
		return 1;
	}
	if (fc->close)
		close_consider(fc->close, si->name);
	return 0;
}

struct candidate {
	const struct dso *dso;
	u64 start, period;
	u64 size;
	size_t first;		/* the first entry in it */
};

/*
 * The part of a wanted name that the raw (mangled) name of every symbol
 * it names holds as it is: its last identifier (after the last "::"
 * outside template arguments and parameters, without its own template
 * arguments), which the Itanium and Rust manglings write out, or the
 * whole name when it is one identifier (a C name, a mangled name).  Into
 * buf; NULL when there is none to trust: operators, constructors and
 * destructors (a std:: class may be abbreviated: _ZNSaIcEC1Ev is
 * std::allocator<char>::allocator), lambdas, clones, anonymous
 * namespaces and other special names, and the func_0x... names of
 * .eh_frame ranges.
 */
static const char *name_part(const char *want, char *buf, size_t size)
{
	size_t n = strlen(want), depth = 0, last = 0, prev = 0, end = n, len;
	bool have_prev = false;

	for (size_t i = 0; i < n; i++) {
		char c = want[i];

		if (c == '(' && !depth) {
			end = i;
			break;
		}
		if (c == '<' || c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == '>' || c == ')' || c == ']' || c == '}') &&
			 depth)
			depth--;
		else if (c == ':' && want[i + 1] == ':' && !depth) {
			prev = last;
			have_prev = true;
			last = i + 2;
			i++;
		}
	}
	for (len = 0; last + len < end && want[last + len] != '<'; len++)
		if (!demangle__is_ident(want[last + len]))
			return NULL;
	if (!len || len >= size || (want[last] >= '0' && want[last] <= '9') ||
	    !strncmp(want + last, "operator", 8) ||
	    !strncmp(want + last, "func_0x", 7))
		return NULL;
	/* a constructor: the class's name again */
	if (have_prev && last - 2 - prev >= len &&
	    !strncmp(want + prev, want + last, len) &&
	    (want[prev + len] == '<' || prev + len == last - 2))
		return NULL;
	memcpy(buf, want + last, len);
	buf[len] = '\0';
	return buf;
}

/* Appends d to the list *dsos (n of cap) unless it is there: 0 or
 * -ENOMEM. */
static int dso_list_add(const struct dso ***dsos, size_t *n, size_t *cap,
			const struct dso *d)
{
	for (size_t j = 0; j < *n; j++)
		if ((*dsos)[j] == d)
			return 0;
	if (array__grow((void **)dsos, cap, *n + 1, sizeof(**dsos)))
		return -ENOMEM;
	(*dsos)[(*n)++] = d;
	return 0;
}

struct named {
	const char *want;
	const struct dso *dso;
	struct candidate *cands;
	size_t nr, cap;
};

static int named_add(void *ctx, const struct sym_info *si)
{
	struct named *nd = ctx;

	if (!name_matches(si->name, si->raw_name, nd->want))
		return 0;
	if (array__grow((void **)&nd->cands, &nd->cap, nd->nr + 1,
			sizeof(*nd->cands)))
		return -ENOMEM;
	nd->cands[nd->nr++] = (struct candidate){
		.dso = nd->dso, .start = si->start, .size = si->size,
		.first = SIZE_MAX,
	};
	return 0;
}

/* A sample's function, when the name names it, among the candidates
 * (once).  0 or -ENOMEM. */
static int named_sample(struct annotator *an, struct named *nd,
			const struct hist_entry *e)
{
	struct sym_info si;

	if (symbolizer__lookup(an->syms, e->key.dso, e->key.addr, &si) ||
	    !si.name)
		return 0;
	for (size_t j = 0; j < nd->nr; j++)
		if (nd->cands[j].dso == e->key.dso &&
		    nd->cands[j].start == si.start)
			return 0;
	nd->dso = e->key.dso;
	return named_add(nd, &si) < 0 ? -ENOMEM : 0;
}

/*
 * Whether want can name a kernel function: kallsyms' names are C
 * identifiers with '.' and '$' (foo.isra.0, foo.cold), and a kernel
 * function is named only by its whole name (name_matches: no
 * parameters, no demangling).  A C++ or Rust path cannot, so the
 * kernel's samples need no naming and /proc/kallsyms no reading.
 */
static bool kernel_name(const char *want)
{
	if (!*want)
		return false;
	for (const char *p = want; *p; p++)
		if (!demangle__is_ident(*p) && *p != '.' && *p != '$')
			return false;
	return true;
}

/*
 * annotator__find's first way: the functions of that name in the
 * sampled objects, found by the raw names that hold the name's last
 * identifier (name_part; the kernel's by naming its samples, fewer than
 * kallsyms' names), then the samples inside each, checked by a lookup: a few hundred lookups where naming every sample was thousands
 * (annotate's start from a recording).  The answer is the one naming
 * every sample would give: the most period, ties to the function sampled
 * first.  -ENOENT when no sampled function has the name, -EAGAIN when
 * this way cannot tell (no trusted part; code whose names come from
 * elsewhere, such as a JIT's map).
 */
static int find_by_part(struct annotator *an, const struct snapshot *snap,
			const char *want, bool kernel, const struct dso **dso,
			u64 *addr)
{
	char part[256];
	struct named nd = { .want = want };
	const struct dso **dsos = NULL;
	size_t nr_dsos = 0, cap_dsos = 0;
	struct candidate *best = NULL;
	int err = -ENOENT;

	if (!name_part(want, part, sizeof(part)))
		return -EAGAIN;
	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		const struct dso *d = e->key.dso;

		if (d->kind == DSO_ANON) {
			err = -EAGAIN;
			goto out;
		}
		if (d->kind == DSO_KERNEL) {
			/* kallsyms' 150K names: its samples named instead */
			if (kernel && named_sample(an, &nd, e) < 0) {
				err = -ENOMEM;
				goto out;
			}
			continue;
		}
		if ((d->kind == DSO_FILE || d->kind == DSO_VDSO) &&
		    dso_list_add(&dsos, &nr_dsos, &cap_dsos, d)) {
			err = -ENOMEM;
			goto out;
		}
	}
	for (size_t j = 0; j < nr_dsos; j++) {
		nd.dso = dsos[j];
		if (symbolizer__foreach_named(an->syms, dsos[j], part,
					      named_add, &nd) < 0) {
			err = -ENOMEM;
			goto out;
		}
	}
	for (size_t i = 0; nd.nr && i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];

		for (size_t j = 0; j < nd.nr; j++) {
			struct candidate *c = &nd.cands[j];
			struct sym_info si;

			if (c->dso != e->key.dso ||
			    e->key.addr - c->start >= c->size)
				continue;
			/* a symbol nested in it names its own */
			if (symbolizer__lookup(an->syms, e->key.dso,
					       e->key.addr, &si) ||
			    !si.name || si.start != c->start)
				continue;
			c->period += e->period ? e->period : e->samples;
			c->first = MIN(c->first, i);
			break;
		}
	}
	for (size_t j = 0; j < nd.nr; j++) {
		struct candidate *c = &nd.cands[j];

		if (c->period &&
		    (!best || c->period > best->period ||
		     (c->period == best->period && c->first < best->first)))
			best = c;
	}
	if (best) {
		*dso = best->dso;
		*addr = best->start;
		err = 0;
	}
out:
	free(nd.cands);
	free(dsos);
	return err;
}

int annotator__find(struct annotator *an, const struct snapshot *snap,
		    const char *name, const struct dso **dso, u64 *addr,
		    struct strbuf *close)
{
	struct candidate *cands = NULL, *best = NULL;
	size_t nr = 0, cap = 0;
	const struct dso **dsos = NULL;
	size_t nr_dsos = 0, cap_dsos = 0;
	struct close_set cs = { .want = name };
	int err = -ENOENT;
	bool kernel;

	if (!an || !snap || !name || !dso || !addr)
		return -EINVAL;
	table__prefetch(an->syms, snap);
	/* either way, the kernel's samples only when the name can be a
	 * kernel function's */
	kernel = kernel_name(name);
	err = find_by_part(an, snap, name, kernel, dso, addr);
	if (err != -EAGAIN && err != -ENOENT)
		return err;
	err = -ENOENT;
	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		struct sym_info si;
		size_t j;

		/* a list cut short by ENOMEM: fewer tables searched */
		(void)dso_list_add(&dsos, &nr_dsos, &cap_dsos, e->key.dso);
		if ((!kernel && e->key.dso->kind == DSO_KERNEL) ||
		    symbolizer__lookup(an->syms, e->key.dso, e->key.addr,
				       &si) ||
		    !si.name)
			continue;
		if (!name_matches(si.name, si.raw_name, name))
			continue;
		for (j = 0; j < nr; j++)
			if (cands[j].dso == e->key.dso &&
			    cands[j].start == si.start)
				break;
		if (j == nr) {
			if (array__grow((void **)&cands, &cap, nr + 1,
					sizeof(*cands)))
				break;
			cands[nr++] = (struct candidate){ e->key.dso,
							  si.start, 0 };
		}
		cands[j].period += e->period ? e->period : e->samples;
	}
	for (size_t j = 0; j < nr; j++)
		if (!best || cands[j].period > best->period)
			best = &cands[j];
	if (best) {
		*dso = best->dso;
		*addr = best->start;
		err = 0;
		goto out;
	}
	/* the sampled names first among the close ones (the answers are
	 * cached now): an edit distance for every row only when the name
	 * was not found */
	for (size_t i = 0; close && i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		struct sym_info si;

		if (!symbolizer__lookup(an->syms, e->key.dso, e->key.addr,
					&si) &&
		    si.name)
			close_consider(&cs, si.name);
	}
	/* not run yet: the symbol tables of the code that ran, and of its
	 * callers (an off-CPU sample's own address is the scheduler's) */
	for (size_t i = 1; i < snap->nr_chains; i++) {
		const struct dso *d = snap->chains[i].dso;

		/* a chain's frames run in a few objects: the last node's
		 * object was just looked for */
		if (d && (i == 1 || d != snap->chains[i - 1].dso))
			(void)dso_list_add(&dsos, &nr_dsos, &cap_dsos, d);
	}
	for (size_t j = 0; j < nr_dsos; j++) {
		struct find_ctx fc = { .want = name,
				       .close = close ? &cs : NULL };

		if (symbolizer__foreach_symbol(an->syms, dsos[j],
					       find_in_symtab, &fc) > 0 &&
		    fc.found) {
			*dso = dsos[j];
			*addr = fc.hit.start;
			err = 0;
			goto out;
		}
	}
	if (close) {
		/* closest first */
		for (size_t i = 0; i < cs.nr; i++) {
			for (size_t j = i + 1; j < cs.nr; j++) {
				if (cs.score[j] < cs.score[i]) {
					unsigned int s = cs.score[i];
					const char *n = cs.names[i];

					cs.score[i] = cs.score[j];
					cs.names[i] = cs.names[j];
					cs.score[j] = s;
					cs.names[j] = n;
				}
			}
			sanitize_str(close, cs.names[i]);
			strbuf__addc(close, '\n');
		}
	}
out:
	free(cands);
	free(dsos);
	return err;
}
