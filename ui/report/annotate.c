/* annotate: one function's annotated code (instructions, source lines,
 * samples per instruction) as text or JSON; cached per function. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/lru.h"
#include "ui/report/annotate.h"
#include "symbols/cslib.h"
#include "symbols/demangle.h"
#include "ui/report/sanitize.h"
#include "ui/report/table.h"
#include "symbols/srcfile.h"

/* Functions past this size are annotated from their first bytes. */
#define ANN_MAX_CODE (4u << 20)
#define ANN_CACHE 16
#define DISASM_CACHE_BYTES (64u << 20)
#define SRC_CACHE_BYTES (32u << 20)
#define MAX_FRAMES 8
#define MAX_CLOSE 5
/* Operands before a %rip-relative operand's "# address <symbol>" */
#define ANN_OPS_WIDTH 24

/* The annotations made last, in one bounded LRU (src/core/lru.c) by
 * count; key: the dso, the function's start. */
struct ann_cached {
	struct lru_node node;
	struct annotation *a;
};

struct annotator {
	struct symbolizer *syms;
	enum disasm_syntax syntax;
	struct disasm_cache *dc;
	struct srcfile_cache *sc;
	struct lru cache;
	u64 changes;	/* symbolizer__changes of the cached annotations */
};

static void cached_free(void *ctx, struct lru_node *n)
{
	struct ann_cached *c = lru_entry(n, struct ann_cached, node);

	(void)ctx;
	annotation__put(c->a);
	free(c);
}

struct annotator *annotator__new(struct symbolizer *syms,
				 enum disasm_syntax syntax)
{
	struct annotator *an = calloc(1, sizeof(*an));

	if (!an)
		return NULL;
	an->syms = syms;
	an->syntax = syntax;
	lru__init(&an->cache, 0, ANN_CACHE, cached_free, an);
	an->dc = disasm_cache__new(DISASM_CACHE_BYTES);
	an->sc = srcfile_cache__new(SRC_CACHE_BYTES);
	if (!an->dc || !an->sc) {
		annotator__free(an);
		errno = ENOMEM;
		return NULL;
	}
	return an;
}

void annotator__free(struct annotator *an)
{
	if (!an)
		return;
	lru__fini(&an->cache);
	disasm_cache__free(an->dc);
	srcfile_cache__free(an->sc);
	free(an);
}

enum disasm_syntax annotator__syntax(const struct annotator *an)
{
	return an ? an->syntax : DISASM_ATT;
}

struct annotation *annotation__get(struct annotation *a)
{
	if (a)
		a->refs++;
	return a;
}

void annotation__put(struct annotation *a)
{
	if (!a || --a->refs)
		return;
	disasm__put(a->dis);
	free(a->insns);
	for (size_t i = 0; i < a->nr_srcs; i++)
		free((char *)(uintptr_t)a->srcs[i].text);
	free(a->srcs);
	free(a->src_sorted);
	free(a);
}

static void add_note(struct annotation *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_note(struct annotation *a, const char *fmt, ...)
{
	va_list ap;

	if (a->nr_notes == ANN_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(a->notes[a->nr_notes++], sizeof(a->notes[0]), fmt, ap);
	va_end(ap);
}

/* ---- opening: code, instructions, targets, lines ---- */

static void disasm_key_of(const struct annotator *an, const struct dso *dso,
			  u64 start, u64 len, struct disasm_key *k)
{
	memset(k, 0, sizeof(*k));
	if (dso->build_id_size && dso->kind == DSO_FILE) {
		memcpy(k->id, dso->build_id, dso->build_id_size);
		k->id_size = dso->build_id_size;
	} else {
		/* no build-id: this dso of this session */
		memcpy(k->id, &dso->id, sizeof(dso->id));
		k->id[sizeof(k->id) - 1] = 0xff;
		k->id_size = sizeof(k->id);
	}
	k->syntax = (u8)an->syntax;
	k->start = start;
	k->len = len;
}

static void read_error(const struct dso *dso, const char *name, long err,
		       struct strbuf *why)
{
	const char *path = dso->path ? dso->path : dso->name;

	if (dso->kind == DSO_KERNEL) {
		if (err == -EACCES || err == -EPERM)
			strbuf__addf(why, "cannot read /proc/kcore (%s): "
					  "kernel annotation needs it "
					  "(as root) or a vmlinux",
				     strerror((int)-err));
		else
			strbuf__adds(why, "kernel annotation needs "
					  "/proc/kcore (readable as root) "
					  "or a vmlinux");
		return;
	}
	strbuf__addf(why, "cannot read the code of %s: ", name);
	switch (err) {
	case -ESRCH:
		strbuf__addf(why, "%s is gone and the process that mapped "
				  "it has exited",
			     dso->kind == DSO_ANON ? "the JIT code" : path);
		break;
	case -ESTALE:
		strbuf__addf(why, "%s on disk is not the file that ran "
				  "(another build-id)",
			     path);
		break;
	case -ENOENT:
		if (dso->kind == DSO_ANON)
			strbuf__adds(why, "no live process maps it");
		else
			strbuf__addf(why, "%s is gone and no live process "
					  "maps it",
				     path);
		break;
	default:
		strbuf__addf(why, "%s", strerror((int)-err));
		break;
	}
}

static const char *basename_of(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;

	return s ? s + 1 : p;
}

/* What a %rip-relative operand refers to: a function, a global, a GOT
 * slot (data symbols are read from the binary on the first one). */
static void name_rip_target(struct annotator *an, struct annotation *a,
			    const struct insn *in, struct ann_insn *ai)
{
	struct sym_info si;

	if (symbolizer__lookup_data(an->syms, a->dso, in->target, &si) ||
	    !si.name)
		return;
	ai->target_name = si.name;
	ai->target_off = in->target - si.vaddr;
}

/* Jump and call targets: labels inside, symbol names outside; the
 * symbols %rip-relative operands refer to. */
static void resolve_targets(struct annotator *an, struct annotation *a)
{
	size_t n = a->nr;
	bool *is_target = calloc(n ? n : 1, sizeof(*is_target));

	for (size_t i = 0; i < n; i++) {
		const struct insn *in = disasm__at(a->dis, i);
		struct ann_insn *ai = &a->insns[i];
		struct sym_info si;
		u64 key;
		long t;

		ai->target = -1;
		if (in->rip_rel)
			name_rip_target(an, a, in, ai);
		if (!in->has_target)
			continue;
		t = disasm__find(a->dis, in->target);
		if (t >= 0 && disasm__at(a->dis, (size_t)t)->addr == in->target) {
			ai->target = (s32)t;
			if (is_target)
				is_target[t] = true;
			continue;
		}
		if (symbolizer__from_vaddr(an->syms, a->dso, in->target, &key) ||
		    symbolizer__lookup(an->syms, a->dso, key, &si) || !si.name)
			continue;
		ai->target_name = si.name;
		ai->target_off = key - si.start;
	}
	for (size_t i = 0; i < n && is_target; i++)
		if (is_target[i])
			a->insns[i].label = ++a->nr_labels;
	free(is_target);
}

static int src_index(struct annotation *a, size_t *cap, struct intmap *seen,
		     const struct srcline *fr, int nr)
{
	u64 h = hash_u64((u64)(uintptr_t)fr[0].file ^
			 hash_u64((u64)(uintptr_t)fr[0].func) ^
			 (u64)(u32)fr[0].line) | 1;
	void *v = intmap__get(seen, h);
	struct ann_src *s;

	if (v) {
		size_t i = (size_t)(uintptr_t)v - 1;

		s = &a->srcs[i];
		if (s->file == fr[0].file && s->line == fr[0].line &&
		    s->func == fr[0].func)
			return (int)i;
		/* a hash collision: look them all up */
		for (i = 0; i < a->nr_srcs; i++)
			if (a->srcs[i].file == fr[0].file &&
			    a->srcs[i].line == fr[0].line &&
			    a->srcs[i].func == fr[0].func)
				return (int)i;
	}
	if (array__grow((void **)&a->srcs, cap, a->nr_srcs + 1,
			sizeof(*a->srcs)))
		return -ENOMEM;
	s = &a->srcs[a->nr_srcs];
	memset(s, 0, sizeof(*s));
	s->file = fr[0].file;
	s->dir = fr[0].dir;
	s->line = fr[0].line;
	s->func = fr[0].func;
	s->inlined = nr > 1;
	if (!v && intmap__put(seen, h, (void *)(uintptr_t)(a->nr_srcs + 1)))
		return -ENOMEM;
	return (int)a->nr_srcs++;
}

/* Source text, copied: the annotation outlives the file cache's
 * entries.  Tabs become spaces (sanitize would show them as '?'). */
static char *copy_line(const char *text, size_t len)
{
	struct strbuf sb;
	size_t col = 0;

	strbuf__init(&sb);
	for (size_t i = 0; i < len && i < 4096; i++) {
		if (text[i] == '\t') {
			do
				strbuf__addc(&sb, ' ');
			while (++col % 8);
			continue;
		}
		strbuf__addc(&sb, text[i]);
		col++;
	}
	if (!sb.buf)
		strbuf__adds(&sb, "");
	if (sb.oom) {
		strbuf__fini(&sb);
		return NULL;
	}
	return strbuf__detach(&sb);
}

static int src_cmp(const void *x, const void *y, void *ctx)
{
	const struct annotation *sort_ctx = ctx;
	const struct ann_src *a = &sort_ctx->srcs[*(const u32 *)x];
	const struct ann_src *b = &sort_ctx->srcs[*(const u32 *)y];
	size_t fa = 0, fb = 0;

	/* files in the order they first appear, lines in order */
	if (a->file != b->file) {
		while (sort_ctx->srcs[fa].file != a->file)
			fa++;
		while (sort_ctx->srcs[fb].file != b->file)
			fb++;
		return fa < fb ? -1 : 1;
	}
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return *(const u32 *)x < *(const u32 *)y ? -1 : 1;
}

static int load_lines(struct annotator *an, struct annotation *a)
{
	struct srcline fr[MAX_FRAMES];
	const char *missing[ANN_MAX_NOTES];
	size_t cap = 0, nr_missing = 0;
	struct intmap seen;
	int err = 0;

	intmap__init(&seen);
	for (size_t i = 0; i < a->nr && !err; i++) {
		int n = symbolizer__srcline(an->syms, a->dso, a->insns[i].key,
					    fr, MAX_FRAMES);
		int idx;

		a->insns[i].src = -1;
		if (n <= 0 || !fr[0].file)
			continue;
		idx = src_index(a, &cap, &seen, fr, n);
		if (idx < 0)
			err = idx;
		else
			a->insns[i].src = idx;
	}
	intmap__fini(&seen);
	if (err)
		return err;
	a->has_lines = a->nr_srcs > 0;
	for (size_t i = 0; i < a->nr_srcs; i++) {
		struct ann_src *s = &a->srcs[i];
		char path[4096];
		const char *text;
		size_t len;
		bool known = false;
		int rc;

		/* line 0: code the compiler made, of no source line */
		if (!s->line)
			continue;
		/* a relative name is relative to where it was compiled */
		if (s->file[0] != '/' && s->dir)
			snprintf(path, sizeof(path), "%s/%s", s->dir, s->file);
		else
			snprintf(path, sizeof(path), "%s", s->file);
		rc = srcfile__line(an->sc, path, s->line, &text, &len);

		if (!rc) {
			s->text = copy_line(text, len);
			if (!s->text)
				return -ENOMEM;
			continue;
		}
		for (size_t j = 0; j < nr_missing; j++)
			known |= missing[j] == s->file;
		if (known || nr_missing == ARRAY_SIZE(missing))
			continue;
		missing[nr_missing++] = s->file;
		if (rc == -ERANGE)
			add_note(a, "source %s has fewer lines than the "
				    "binary says: another version of it?",
				 path);
		else
			add_note(a, "source not found: %s (%s)", path,
				 strerror(-rc));
	}
	a->src_sorted = calloc(a->nr_srcs ? a->nr_srcs : 1,
			       sizeof(*a->src_sorted));
	if (!a->src_sorted)
		return -ENOMEM;
	for (size_t i = 0; i < a->nr_srcs; i++)
		a->src_sorted[i] = (u32)i;
	/* qsort_r's context is not const; the comparator only reads */
	qsort_r(a->src_sorted, a->nr_srcs, sizeof(*a->src_sorted), src_cmp,
		(void *)a);
	return 0;
}

static struct annotation *cache_find(struct annotator *an,
				     const struct dso *dso, u64 start)
{
	struct lru_node *n = lru__find(&an->cache, (u64)(uintptr_t)dso, start);

	return n ? annotation__get(lru_entry(n, struct ann_cached, node)->a)
		 : NULL;
}

static void cache_add(struct annotator *an, struct annotation *a)
{
	struct ann_cached *c = calloc(1, sizeof(*c));
	struct lru_node *old;

	/* a cache that cannot grow only costs a new annotation later */
	if (!c)
		return;
	c->a = annotation__get(a);
	c->node.key[0] = (u64)(uintptr_t)a->dso;
	c->node.key[1] = a->start;
	old = lru__peek(&an->cache, c->node.key[0], c->node.key[1]);
	if (old) {
		lru__remove(&an->cache, old);
		cached_free(an, old);
	}
	if (lru__insert(&an->cache, &c->node))
		cached_free(an, &c->node);
}

static int read_and_decode(struct annotator *an, struct annotation *a,
			   struct strbuf *why)
{
	struct disasm_key k;
	u8 *buf;
	long n;

	disasm_key_of(an, a->dso, a->start, a->size, &k);
	a->dis = disasm_cache__get(an->dc, &k);
	if (a->dis)
		goto got;
	buf = malloc(a->size);
	if (!buf)
		return -ENOMEM;
	n = symbolizer__read_code(an->syms, a->dso, a->start, buf, a->size);
	if (n <= 0) {
		free(buf);
		read_error(a->dso, a->name, n ? n : -ENOENT, why);
		return n ? (int)n : -ENOENT;
	}
	a->dis = disasm__new(buf, (size_t)n, a->vaddr, an->syntax);
	free(buf);
	if (!a->dis) {
		int err = -errno;

		if (err == -EOPNOTSUPP)
			strbuf__adds(why, "this capstone cannot decode "
					  "x86-64");
		else if (err == -ELIBACC)
			strbuf__adds(why, "capstone (" CSLIB_SONAME ") cannot "
					  "be loaded: install it to annotate");
		else
			strbuf__addf(why, "cannot disassemble %s: %s",
				     a->name, strerror(-err));
		return err;
	}
	if (disasm_cache__add(an->dc, &k, a->dis))
		return -ENOMEM;
got:
	if (disasm__len(a->dis) < a->size)
		add_note(a, "only %zu of %" PRIu64 " bytes could be read",
			 disasm__len(a->dis), a->size);
	return 0;
}

int annotator__open(struct annotator *an, const struct dso *dso, u64 addr,
		    struct annotation **out, struct strbuf *why)
{
	struct annotation *a;
	struct sym_info si;
	int err;

	if (!an || !dso || !out || !why)
		return -EINVAL;
	*out = NULL;
	err = symbolizer__lookup(an->syms, dso, addr, &si);
	if (err) {
		strbuf__addf(why, "cannot look 0x%" PRIx64 " up: %s", addr,
			     strerror(-err));
		return err;
	}
	if (!si.name) {
		if (dso->kind == DSO_KERNEL && si.status == DSO_ST_RESTRICTED)
			strbuf__adds(why, "kernel symbols are hidden "
					  "(kptr_restrict): nothing to "
					  "annotate");
		else
			strbuf__addf(why, "no function covers 0x%" PRIx64
					  " in %s: nothing to annotate",
				     addr, si.dso_name ? si.dso_name : "?");
		return -ENOENT;
	}
	if (dso->kind != DSO_KERNEL && dso->kind != DSO_FILE &&
	    dso->kind != DSO_VDSO && dso->kind != DSO_ANON) {
		strbuf__adds(why, "nothing to annotate here");
		return -ENOENT;
	}
	/* a debug file arrived (debuginfod): source lines may be there now */
	if (an->changes != symbolizer__changes(an->syms)) {
		lru__shrink(&an->cache, 0, 0);
		an->changes = symbolizer__changes(an->syms);
	}
	*out = cache_find(an, dso, si.start);
	if (*out)
		return 0;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->refs = 1;
	a->dso = dso;
	a->name = si.name;
	a->dso_name = si.dso_name ? si.dso_name : dso->name;
	a->file = symbolizer__dso_file(an->syms, dso);
	a->start = si.start;
	a->sym_size = si.size;
	a->size = MIN(si.size, (u64)ANN_MAX_CODE);
	a->sym_flags = si.flags;
	a->syntax = an->syntax;
	if (!a->size) {
		strbuf__addf(why, "%s has no size: nothing to annotate",
			     si.name);
		err = -ENOENT;
		goto fail;
	}
	if (symbolizer__to_vaddr(an->syms, dso, a->start, &a->vaddr))
		a->vaddr = si.vaddr;
	if (si.flags & SYM_F_SYNTH)
		add_note(a, "no symbols: the function's bounds come from "
			    ".eh_frame");
	if (a->size < a->sym_size)
		add_note(a, "a huge function: only its first %u KiB are "
			    "annotated",
			 ANN_MAX_CODE >> 10);
	err = read_and_decode(an, a, why);
	if (err)
		goto fail;
	a->nr = disasm__nr(a->dis);
	a->insns = calloc(a->nr ? a->nr : 1, sizeof(*a->insns));
	if (!a->insns) {
		err = -ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < a->nr; i++)
		a->insns[i].key = a->start +
				  (disasm__at(a->dis, i)->addr - a->vaddr);
	if (disasm__nr_bad(a->dis))
		add_note(a, "%zu bytes did not decode (data in code?): "
			    "shown as .byte",
			 disasm__nr_bad(a->dis));
	resolve_targets(an, a);
	err = load_lines(an, a);
	if (err)
		goto fail;
	if (!a->has_lines && dso->kind == DSO_FILE)
		add_note(a, "no source lines: no DWARF line information "
			    "for this function in %s (a -g build or a "
			    "-dbgsym package adds it)",
			 basename_of(a->file ? a->file : a->dso_name));
	cache_add(an, a);
	*out = a;
	return 0;
fail:
	if (err == -ENOMEM && !why->len)
		strbuf__adds(why, "out of memory");
	annotation__put(a);
	return err;
}

/* ---- finding a function by name ---- */

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

/* ---- counting (pure) ---- */

long annotation__find_key(const struct annotation *a, u64 key)
{
	size_t lo = 0, hi = a->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->insns[mid].key <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (long)lo - 1 : -1;
}

static bool in_scope(const struct hist_entry *e, const struct ann_scope *sc)
{
	return !sc || ((!sc->has_pid || e->key.pid == sc->pid) &&
		       (!sc->has_tid || e->key.tid == sc->tid) &&
		       (!sc->has_comm || e->key.comm == sc->comm) &&
		       (!sc->has_cpu || e->key.cpu == sc->cpu) &&
		       (!sc->has_cgroup || e->key.cgroup == sc->cgroup) &&
		       (!sc->has_state || e->key.state == sc->state));
}

static bool in_function(const struct annotation *a, const struct dso *dso,
			u64 addr)
{
	return dso == a->dso && addr >= a->start && addr - a->start < a->size;
}

/* Where entry e counts in a's function: its own address, or with chains
 * its innermost frame there (a caller's frames are the calls: return
 * addresses less one). */
static bool entry_at(const struct annotation *a, const struct snapshot *snap,
		     const struct hist_entry *e, bool chains, u64 *at)
{
	u32 id = e->key.chain;

	if (in_function(a, e->key.dso, e->key.addr)) {
		*at = e->key.addr;
		return true;
	}
	if (!chains)
		return false;
	/* the chain's leaf is the sample's own address */
	if (id && id < snap->nr_chains)
		id = snap->chains[id].parent;
	for (; id && id < snap->nr_chains; id = snap->chains[id].parent) {
		const struct cc_node *nd = &snap->chains[id];

		if (in_function(a, nd->dso, nd->addr)) {
			*at = nd->addr;
			return true;
		}
	}
	return false;
}

void annotation__count(struct annotation *a, const struct snapshot *snap)
{
	annotation__count_scope(a, snap, NULL);
}

void annotation__count_scope(struct annotation *a,
			     const struct snapshot *snap,
			     const struct ann_scope *scope)
{
	a->samples = a->period = 0;
	a->folded_samples = a->folded_period = 0;
	for (size_t i = 0; i < a->nr; i++)
		a->insns[i].samples = a->insns[i].period = 0;
	for (size_t i = 0; i < a->nr_srcs; i++)
		a->srcs[i].samples = a->srcs[i].period = 0;
	a->total_samples = snap ? snap->total_samples : 0;
	a->total_period = snap ? snap->total_period : 0;
	if (!snap || !a->nr)
		return;
	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		struct ann_insn *ai;
		long k;
		u64 at;

		if (e->key.whole) {
			/* in the function, at no instruction of it */
			if (in_function(a, e->key.dso, e->key.addr) &&
			    in_scope(e, scope)) {
				a->folded_samples += e->samples;
				a->folded_period += e->period;
			}
			continue;
		}
		if (!entry_at(a, snap, e, scope && scope->chains, &at) ||
		    !in_scope(e, scope))
			continue;
		/* a sample inside an instruction (a skid, a stale
		 * mapping) counts for the instruction holding it */
		k = annotation__find_key(a, at);
		if (k < 0)
			continue;
		ai = &a->insns[k];
		ai->samples += e->samples;
		ai->period += e->period;
		a->samples += e->samples;
		a->period += e->period;
		if (ai->src >= 0) {
			a->srcs[ai->src].samples += e->samples;
			a->srcs[ai->src].period += e->period;
		}
	}
}

double annotation__percent(const struct annotation *a, u64 samples,
			   u64 period)
{
	if (a->period)
		return 100.0 * (double)period / (double)a->period;
	if (a->samples)
		return 100.0 * (double)samples / (double)a->samples;
	return 0.0;
}

static u64 weight(const struct annotation *a, const struct ann_insn *ai)
{
	return a->period ? ai->period : ai->samples;
}

long annotation__hottest(const struct annotation *a)
{
	long best = -1;

	for (size_t i = 0; i < a->nr; i++)
		if (a->insns[i].samples &&
		    (best < 0 || weight(a, &a->insns[i]) >
					 weight(a, &a->insns[best])))
			best = (long)i;
	return best;
}

static int hot_cmp(const void *x, const void *y, void *ctx)
{
	const struct annotation *hot_ctx = ctx;
	u32 i = *(const u32 *)x, j = *(const u32 *)y;
	u64 wi = weight(hot_ctx, &hot_ctx->insns[i]);
	u64 wj = weight(hot_ctx, &hot_ctx->insns[j]);

	if (wi != wj)
		return wi > wj ? -1 : 1;
	return i < j ? -1 : 1;
}

size_t annotation__hot_order(const struct annotation *a, u32 **idx)
{
	size_t n = 0;
	u32 *v;

	*idx = NULL;
	for (size_t i = 0; i < a->nr; i++)
		n += a->insns[i].samples != 0;
	if (!n)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return 0;
	n = 0;
	for (size_t i = 0; i < a->nr; i++)
		if (a->insns[i].samples)
			v[n++] = (u32)i;
	qsort_r(v, n, sizeof(*v), hot_cmp, (void *)(uintptr_t)a);
	*idx = v;
	return n;
}

u64 annotation__insn_vaddr(const struct annotation *a, size_t i)
{
	const struct insn *in = disasm__at(a->dis, i);

	return in ? in->addr : 0;
}

/* ---- layout and text (pure) ---- */

void ann_lines__fini(struct ann_lines *ls)
{
	free(ls->l);
	memset(ls, 0, sizeof(*ls));
}

static int push_line(struct ann_lines *ls, u32 kind, size_t idx)
{
	if (array__grow((void **)&ls->l, &ls->cap, ls->nr + 1,
			sizeof(*ls->l)))
		return -ENOMEM;
	ls->l[ls->nr].kind = kind;
	ls->l[ls->nr++].idx = (u32)idx;
	return 0;
}

int annotation__layout(const struct annotation *a, enum ann_mode mode,
		       struct ann_lines *ls)
{
	s32 prev = -1;

	ls->nr = 0;
	if (mode == ANN_SOURCE && a->has_lines) {
		for (size_t i = 0; i < a->nr_srcs; i++)
			if (push_line(ls, AL_SRC, a->src_sorted[i]))
				return -ENOMEM;
		return 0;
	}
	for (size_t i = 0; i < a->nr; i++) {
		s32 src = a->insns[i].src;

		if (mode == ANN_BOTH && src >= 0 && src != prev &&
		    push_line(ls, AL_SRC, (size_t)src))
			return -ENOMEM;
		if (src >= 0)
			prev = src;
		if (push_line(ls, AL_INSN, i))
			return -ENOMEM;
	}
	return 0;
}

static void fmt_value(struct strbuf *sb, const struct annotation *a,
		      const struct ann_fmt *f, u64 samples, u64 period,
		      bool show)
{
	if (!show || (f->blank_zero && !samples)) {
		strbuf__addf(sb, "%*s", ANN_VALUE_WIDTH, "");
		return;
	}
	switch (f->value) {
	case ANN_SAMPLES:
		strbuf__addf(sb, "%*" PRIu64, ANN_VALUE_WIDTH, samples);
		break;
	case ANN_PERIOD:
		strbuf__addf(sb, "%*" PRIu64, ANN_VALUE_WIDTH, period);
		break;
	default:
		strbuf__addf(sb, "%*.2f", ANN_VALUE_WIDTH,
			     annotation__percent(a, samples, period));
		break;
	}
}

static int hex_digits(u64 v)
{
	int n = 1;

	while (v >>= 4)
		n++;
	return n;
}

static int digits(u32 v)
{
	int n = 1;

	while (v /= 10)
		n++;
	return n;
}

/* An address code refers to, named when a symbol holds it:
 * "0x1139 <ann_helper>", "0x4018 <annfix_sink+0x8>". */
static void fmt_target(struct strbuf *sb, u64 addr, const char *name,
		       u64 off)
{
	strbuf__addf(sb, "0x%" PRIx64, addr);
	if (!name)
		return;
	strbuf__adds(sb, " <");
	sanitize_str(sb, name);
	if (off)
		strbuf__addf(sb, "+0x%" PRIx64, off);
	strbuf__addc(sb, '>');
}

static void fmt_insn(const struct annotation *a, size_t i,
		     const struct ann_fmt *f, struct strbuf *sb)
{
	const struct insn *in = disasm__at(a->dis, i);
	const struct ann_insn *ai = &a->insns[i];
	int aw = hex_digits(a->vaddr + disasm__len(a->dis));
	const char *ops = disasm__operands(a->dis, in);

	fmt_value(sb, a, f, ai->samples, ai->period, true);
	strbuf__addf(sb, "  %*" PRIx64 ":  ", aw, in->addr);
	if (a->nr_labels) {
		int w = 2 + digits(a->nr_labels) + 2;	/* ".L12: " */
		char lab[16];

		lab[0] = '\0';
		if (ai->label)
			snprintf(lab, sizeof(lab), ".L%u:", ai->label);
		strbuf__addf(sb, "%-*s", w, lab);
	}
	if (f->bytes) {
		const u8 *b = disasm__bytes(a->dis, in);
		size_t start = sb->len;

		for (size_t k = 0; k < in->size && k < 8; k++)
			strbuf__addf(sb, "%02x ", b[k]);
		if (in->size > 8) {
			sb->len -= 1;
			strbuf__adds(sb, "+ ");
		}
		strbuf__addf(sb, "%*s", (int)(25 - MIN(sb->len - start, 25)),
			     "");
	}
	/* capstone's text is ASCII it made itself */
	strbuf__addf(sb, "%-6s ", disasm__mnemonic(a->dis, in));
	if (ai->target >= 0) {
		const char *dir = (size_t)ai->target < i    ? " ^" :
				  (size_t)ai->target == i ? " @" :
							    " v";

		strbuf__addf(sb, ".L%u%s", a->insns[ai->target].label, dir);
	} else if (in->has_target && ai->target_name) {
		fmt_target(sb, in->target, ai->target_name, ai->target_off);
	} else if (in->rip_rel) {
		/* as objdump and perf: the operand, then what it is */
		strbuf__addf(sb, "%-*s  # ", ANN_OPS_WIDTH, ops);
		fmt_target(sb, in->target, ai->target_name, ai->target_off);
	} else {
		strbuf__adds(sb, ops);
	}
	/* trailing blanks of an empty operand */
	while (sb->len && sb->buf[sb->len - 1] == ' ')
		sb->buf[--sb->len] = '\0';
}

static void fmt_src(const struct annotation *a, size_t i,
		    const struct ann_fmt *f, struct strbuf *sb)
{
	const struct ann_src *s = &a->srcs[i];

	fmt_value(sb, a, f, s->samples, s->period, f->source_value);
	strbuf__adds(sb, "  ");
	sanitize_str(sb, basename_of(s->file));
	strbuf__addf(sb, ":%d", s->line);
	if (s->inlined && s->func) {
		strbuf__adds(sb, " [inlined ");
		sanitize_str(sb, s->func);
		strbuf__addc(sb, ']');
	}
	if (s->text) {
		strbuf__adds(sb, "  ");
		sanitize_str(sb, s->text);
	}
	while (sb->len && sb->buf[sb->len - 1] == ' ')
		sb->buf[--sb->len] = '\0';
}

void annotation__format_line(const struct annotation *a,
			     const struct ann_line *l, const struct ann_fmt *f,
			     struct strbuf *sb)
{
	if (l->kind == AL_SRC && l->idx < a->nr_srcs)
		fmt_src(a, l->idx, f, sb);
	else if (l->kind == AL_INSN && l->idx < a->nr)
		fmt_insn(a, l->idx, f, sb);
}

void annotation__format_title(const struct annotation *a, const char *event,
			      struct strbuf *sb)
{
	double share = a->total_period ?
			       100.0 * (double)(a->period + a->folded_period) /
				       (double)a->total_period :
		       a->total_samples ?
			       100.0 *
				       (double)(a->samples + a->folded_samples) /
				       (double)a->total_samples :
			       0.0;

	sanitize_str(sb, a->name);
	strbuf__adds(sb, "  [");
	sanitize_str(sb, a->dso_name);
	strbuf__addf(sb, "]  %.2f%% of ", share);
	sanitize_str(sb, event ? event : "the samples");
	strbuf__addf(sb, ", %" PRIu64 " sample%s", a->samples,
		     a->samples == 1 ? "" : "s");
	if (a->folded_samples)
		strbuf__addf(sb, " (+%" PRIu64 " of exited processes, "
				 "address not kept)",
			     a->folded_samples);
}

void annotation__text(const struct annotation *a, const char *event,
		      enum ann_mode mode, const struct ann_fmt *f,
		      struct strbuf *sb)
{
	static const char *const titles[] = {
		[ANN_PERCENT] = "Percent", [ANN_SAMPLES] = "Samples",
		[ANN_PERIOD] = "Period",
	};
	struct ann_lines ls = { 0 };

	strbuf__adds(sb, "# annotate: ");
	annotation__format_title(a, event, sb);
	strbuf__adds(sb, "\n# ");
	sanitize_str(sb, a->file ? a->file : a->dso_name);
	strbuf__addf(sb, " at 0x%" PRIx64 ", %" PRIu64 " bytes, %zu "
			 "instructions\n",
		     a->vaddr, a->size, a->nr);
	for (size_t i = 0; i < a->nr_notes; i++) {
		strbuf__adds(sb, "# note: ");
		sanitize_str(sb, a->notes[i]);
		strbuf__addc(sb, '\n');
	}
	strbuf__addf(sb, "#%*s  %s\n", ANN_VALUE_WIDTH - 1,
		     titles[f->value < ANN__VALUES ? f->value : 0],
		     mode == ANN_SOURCE && a->has_lines ?
			     "Source line" :
			     "Address:  Instruction (source lines above "
			     "the instructions they made)");
	if (annotation__layout(a, mode, &ls)) {
		sb->oom = true;
		return;
	}
	for (size_t i = 0; i < ls.nr; i++) {
		annotation__format_line(a, &ls.l[i], f, sb);
		strbuf__addc(sb, '\n');
	}
	ann_lines__fini(&ls);
	strbuf__addc(sb, '\n');
}

/* ---- JSON ---- */

static const char *kind_name(u8 kind)
{
	switch (kind) {
	case INSN_JUMP:
		return "jump";
	case INSN_CJUMP:
		return "cond_jump";
	case INSN_CALL:
		return "call";
	case INSN_RET:
		return "ret";
	case INSN_BAD:
		return "bad";
	default:
		return "other";
	}
}

static void json_insn(const struct annotation *a, size_t i,
		      struct strbuf *sb)
{
	const struct insn *in = disasm__at(a->dis, i);
	const struct ann_insn *ai = &a->insns[i];
	const u8 *b = disasm__bytes(a->dis, in);
	struct ann_fmt f = { .value = ANN_PERCENT };
	struct ann_line l = { AL_INSN, (u32)i };
	struct strbuf text;
	const char *t;

	strbuf__addf(sb, "{\"addr\":\"0x%" PRIx64 "\",\"offset\":%" PRIu64
			 ",\"percent\":%.4f,\"samples\":%" PRIu64
			 ",\"period\":%" PRIu64 ",\"kind\":\"%s\",",
		     in->addr, in->addr - a->vaddr,
		     annotation__percent(a, ai->samples, ai->period),
		     ai->samples, ai->period, kind_name(in->kind));
	strbuf__adds(sb, "\"bytes\":\"");
	for (size_t k = 0; k < in->size; k++)
		strbuf__addf(sb, "%02x", b[k]);
	strbuf__adds(sb, "\",\"mnemonic\":");
	json_string(sb, disasm__mnemonic(a->dis, in));
	strbuf__adds(sb, ",\"operands\":");
	json_string(sb, disasm__operands(a->dis, in));
	/* the text as the view shows it, labels and targets named */
	strbuf__init(&text);
	annotation__format_line(a, &l, &f, &text);
	t = text.buf ? strchr(text.buf, ':') : NULL;
	t = t ? t + 1 : "";
	while (*t == ' ')
		t++;
	strbuf__adds(sb, ",\"text\":");
	json_string(sb, t);
	strbuf__fini(&text);
	if (in->has_target)
		strbuf__addf(sb, ",\"target\":\"0x%" PRIx64 "\"", in->target);
	else
		strbuf__adds(sb, ",\"target\":null");
	strbuf__adds(sb, ",\"target_symbol\":");
	json_sanitized(sb, !in->has_target ? NULL :
		     ai->target >= 0 ? a->name : ai->target_name);
	/* what a %rip-relative operand refers to */
	if (in->rip_rel) {
		strbuf__addf(sb, ",\"mem_target\":\"0x%" PRIx64
				 "\",\"mem_symbol\":",
			     in->target);
		json_sanitized(sb, ai->target_name);
		if (ai->target_name)
			strbuf__addf(sb, ",\"mem_offset\":%" PRIu64,
				     ai->target_off);
		else
			strbuf__adds(sb, ",\"mem_offset\":null");
	} else {
		strbuf__adds(sb, ",\"mem_target\":null,\"mem_symbol\":null,"
				 "\"mem_offset\":null");
	}
	if (ai->src >= 0) {
		const struct ann_src *s = &a->srcs[ai->src];

		strbuf__adds(sb, ",\"source\":{\"file\":");
		json_sanitized(sb, s->file);
		strbuf__addf(sb, ",\"line\":%d,\"func\":", s->line);
		json_sanitized(sb, s->func);
		strbuf__addf(sb, ",\"inlined\":%s}",
			     s->inlined ? "true" : "false");
	} else {
		strbuf__adds(sb, ",\"source\":null");
	}
	strbuf__addc(sb, '}');
}

void annotation__json(const struct annotation *a,
		      const struct header_info *hi, struct strbuf *sb)
{
	strbuf__addf(sb, "{\"time\":%.3f,\"event\":",
		     hi ? hi->elapsed : 0.0);
	json_sanitized(sb, hi ? hi->event : NULL);
	strbuf__adds(sb, ",\"symbol\":");
	json_sanitized(sb, a->name);
	strbuf__adds(sb, ",\"dso\":");
	json_sanitized(sb, a->dso_name);
	strbuf__adds(sb, ",\"file\":");
	json_sanitized(sb, a->file);
	strbuf__addf(sb, ",\"start\":\"0x%" PRIx64 "\",\"size\":%" PRIu64
			 ",\"samples\":%" PRIu64 ",\"period\":%" PRIu64
			 ",\"total_samples\":%" PRIu64
			 ",\"total_period\":%" PRIu64 ",\"notes\":[",
		     a->vaddr, a->size, a->samples, a->period,
		     a->total_samples, a->total_period);
	for (size_t i = 0; i < a->nr_notes; i++) {
		if (i)
			strbuf__addc(sb, ',');
		json_sanitized(sb, a->notes[i]);
	}
	strbuf__adds(sb, "],\"instructions\":[");
	for (size_t i = 0; i < a->nr; i++) {
		if (i)
			strbuf__addc(sb, ',');
		json_insn(a, i, sb);
	}
	strbuf__adds(sb, "],\"lines\":[");
	for (size_t i = 0; i < a->nr_srcs; i++) {
		const struct ann_src *s = &a->srcs[a->src_sorted[i]];

		if (i)
			strbuf__addc(sb, ',');
		strbuf__adds(sb, "{\"file\":");
		json_sanitized(sb, s->file);
		strbuf__addf(sb, ",\"line\":%d,\"percent\":%.4f,\"samples\":%"
				 PRIu64 ",\"period\":%" PRIu64 ",\"text\":",
			     s->line, annotation__percent(a, s->samples,
							  s->period),
			     s->samples, s->period);
		json_sanitized(sb, s->text);
		strbuf__addc(sb, '}');
	}
	strbuf__adds(sb, "]}\n");
}
