/* annotate: one function's annotated code (instructions, source lines,
 * samples per instruction) as text or JSON; cached per function.  This
 * file opens one (code, instructions, jump targets, source lines);
 * annotate_find.c finds a function by name, annotate_count.c counts a
 * snapshot's samples in it, annotate_fmt.c lays it out as text and
 * JSON. */
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


/* Functions past this size are annotated from their first bytes. */
#define ANN_MAX_CODE (4u << 20)
#define ANN_CACHE 16
#define DISASM_CACHE_BYTES (64u << 20)
#define SRC_CACHE_BYTES (32u << 20)
/* The source frames asked of each instruction: its line, then the
 * functions it was inlined into (only the first tells its line; the
 * others, that it was inlined: ann_src.inlined). */
#define ANN_SRC_FRAMES 8
/* The annotations made last, in one bounded LRU (src/core/lru.c) by
 * count; key: the dso, the function's start. */
struct ann_cached {
	struct lru_node node;
	struct annotation *a;
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
	struct srcline fr[ANN_SRC_FRAMES];
	const char *missing[ANN_MAX_NOTES];
	size_t cap = 0, nr_missing = 0;
	struct intmap seen;
	int err = 0;

	intmap__init(&seen);
	for (size_t i = 0; i < a->nr && !err; i++) {
		int n = symbolizer__srcline(an->syms, a->dso, a->insns[i].key,
					    fr, ANN_SRC_FRAMES);
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
			 path_basename(a->file ? a->file : a->dso_name));
	cache_add(an, a);
	*out = a;
	return 0;
fail:
	if (err == -ENOMEM && !why->len)
		strbuf__adds(why, "out of memory");
	annotation__put(a);
	return err;
}
