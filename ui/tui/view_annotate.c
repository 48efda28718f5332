/* view_annotate: the annotate view: a function's instructions and source
 * lines with their shares, from the same snapshot as the table (so they
 * follow its refreshes, zeroing, decay and pause); Enter follows a jump
 * or drills into a callee, Esc comes back one level. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/annotate.h"
#include "ui/report/sanitize.h"
#include "ui/tui/oom.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/save.h"
#include "ui/tui/view_annotate.h"

static const struct list_ops annview__ops;

#define ANN_DEPTH 16

/* One function on the stack of drilled-into callees. */
struct ann_level {
	struct annotation *a;
	struct listview lv;
	struct ann_lines lines;	/* after the notes: rows nr_notes.. */
	enum ann_mode mode;
};

struct annview {
	struct tui *t;
	struct annotator *an;
	struct ann_level levels[ANN_DEPTH];
	size_t depth;
	enum ann_value value;
	bool bytes;
	char search[256];	/* the last search (n repeats it) */
	size_t search_from;	/* the selection when / was pressed */
	struct ann_scope scope;	/* whose samples count, for the stack */
	char scope_desc[300];	/* "thread 8", sanitized; "" for all */
};

static struct annview *annview__new(struct tui *t)
{
	struct annview *v = calloc(1, sizeof(*v));

	if (!v)
		oom__die();
	v->t = t;
	v->an = annotator__new(t->a->syms, t->a->syntax);
	if (!v->an)
		oom__die();
	return v;
}

static void level_fini(struct ann_level *l)
{
	annotation__put(l->a);
	listview__fini(&l->lv);
	ann_lines__fini(&l->lines);
	memset(l, 0, sizeof(*l));
}

/* The view's state, NULL until first opened. */
static struct annview *annview_of(struct tui *t)
{
	return *tui__state(t, V_ANNOTATE);
}

static void annview__free(struct tui *t)
{
	struct annview *v = annview_of(t);

	if (!v)
		return;
	while (v->depth)
		level_fini(&v->levels[--v->depth]);
	annotator__free(v->an);
	free(v);
}

static struct ann_level *top_level(struct annview *v)
{
	return v && v->depth ? &v->levels[v->depth - 1] : NULL;
}

static struct listview *annview__list(struct tui *t)
{
	struct ann_level *l = top_level(annview_of(t));

	return l ? &l->lv : NULL;
}

/* ---- rows: the notes, then the lines of the mode ---- */

static size_t nr_rows(const struct ann_level *l)
{
	return l->a->nr_notes + l->lines.nr;
}

static const struct ann_line *row_line(const struct ann_level *l, size_t row)
{
	if (row < l->a->nr_notes || row >= nr_rows(l))
		return NULL;
	return &l->lines.l[row - l->a->nr_notes];
}

/* The row of instruction i (its source line's in source-only mode). */
static size_t row_of_insn(const struct ann_level *l, size_t i)
{
	const struct annotation *a = l->a;
	s32 src = i < a->nr ? a->insns[i].src : -1;

	for (size_t k = 0; k < l->lines.nr; k++) {
		const struct ann_line *ln = &l->lines.l[k];

		if ((ln->kind == AL_INSN && ln->idx == i) ||
		    (ln->kind == AL_SRC && l->mode == ANN_SOURCE &&
		     (s32)ln->idx == src))
			return a->nr_notes + k;
	}
	return a->nr_notes;
}

/* The instruction of the selected row: itself, or the hottest (else the
 * first) one of a source line; -1 on a note. */
static long selected_insn(const struct ann_level *l)
{
	const struct ann_line *ln;
	long best = -1;
	size_t row;

	if (!listview__selected(&l->lv, &row))
		return -1;
	ln = row_line(l, row);
	if (!ln)
		return -1;
	if (ln->kind == AL_INSN)
		return ln->idx;
	for (size_t i = 0; i < l->a->nr; i++) {
		const struct ann_insn *ai = &l->a->insns[i];

		if (ai->src != (s32)ln->idx)
			continue;
		if (best < 0 || ai->period > l->a->insns[best].period ||
		    (ai->period == l->a->insns[best].period &&
		     ai->samples > l->a->insns[best].samples))
			best = (long)i;
	}
	return best;
}

/* Selects the row of instruction i with its source line in sight. */
static void select_insn(struct ann_level *l, size_t i)
{
	size_t row = row_of_insn(l, i), src = row, half;

	listview__select_row(&l->lv, row);
	half = l->lv.page > 2 ? l->lv.page / 2 : 8;
	while (src > l->a->nr_notes) {
		const struct ann_line *ln = row_line(l, src - 1);

		if (!ln || row - src >= half)
			break;
		src--;
		if (ln->kind == AL_SRC)
			break;
	}
	l->lv.top = src;
}

static int relayout(struct ann_level *l)
{
	return annotation__layout(l->a, l->mode, &l->lines);
}

/* ---- refreshes ---- */

static const struct snapshot *shown_snap(struct tui *t)
{
	return t->have_snap ? table__snap(&t->table, t->table.ev) : NULL;
}

/* The shown event's samples in a's function: on a time event (off-CPU,
 * wall) where it waited too. */
static void count(struct tui *t, struct annotation *a)
{
	struct ann_scope *sc = &annview_of(t)->scope;

	sc->chains = t->cols.time;
	annotation__count_scope(a, shown_snap(t), sc);
}

static int annview__update(struct tui *t)
{
	struct ann_level *l = top_level(annview_of(t));

	if (!l)
		return 0;
	/* the table's snapshot: zero, decay and pause apply as they do to
	 * the table */
	count(t, l->a);
	listview__update(&l->lv);
	return 0;
}

/* ---- opening, drilling in, coming back ---- */

/* name: what the user asked for, for the error messages. */
static enum act_result open_level(struct tui *t, const struct dso *dso,
				  u64 addr, const char *name)
{
	struct annview *v;
	struct ann_level *l;
	struct annotation *a = NULL;
	struct strbuf why;
	long hot;
	int err;

	if (!t->a->syms) {
		tui__status(t, ST_ERROR, "annotate %s: no symbols in this "
					 "session", name);
		return R_REDRAW;
	}
	if (!annview_of(t))
		*tui__state(t, V_ANNOTATE) = annview__new(t);
	v = annview_of(t);
	if (v->depth == ANN_DEPTH) {
		tui__status(t, ST_ERROR, "%d levels deep already: Esc goes "
					 "back one",
			    ANN_DEPTH);
		return R_REDRAW;
	}
	strbuf__init(&why);
	err = annotator__open(v->an, dso, addr, &a, &why);
	if (err) {
		/* the status line sanitizes what it shows */
		tui__status(t, ST_ERROR, "annotate %s: %s", name,
			    why.len ? why.buf : strerror(-err));
		strbuf__fini(&why);
		return R_REDRAW;
	}
	strbuf__fini(&why);
	l = &v->levels[v->depth];
	memset(l, 0, sizeof(*l));
	l->a = a;
	l->mode = ANN_BOTH;
	listview__init(&l->lv, &annview__ops, v);
	if (relayout(l)) {
		level_fini(l);
		tui__status(t, ST_ERROR, "annotate: out of memory");
		return R_REDRAW;
	}
	if (!v->depth)
		tui__push(t, V_ANNOTATE);
	v->depth++;
	count(t, a);
	listview__update(&l->lv);
	hot = annotation__hottest(a);
	select_insn(l, hot >= 0 ? (size_t)hot : 0);
	if (hot < 0)
		tui__status(t, ST_NORMAL, "no samples in this function yet");
	return R_REDRAW;
}

/* The samples that count: the row's process, thread, command or CPU when
 * the rows are grouped by them, or the table's zoom. */
static void set_scope(struct annview *v, const struct tui *t,
		      const struct row *r)
{
	const struct sort_spec *sp = &t->table.spec;
	const struct row_filter *f = &t->table.filter;
	struct ann_scope *sc = &v->scope;
	struct strbuf sb;

	memset(sc, 0, sizeof(*sc));
	strbuf__init(&sb);
	if (sort_spec__has(sp, SORT_TID) || f->has_tid) {
		sc->has_tid = true;
		sc->tid = sort_spec__has(sp, SORT_TID) ? r->tid : f->tid;
		strbuf__addf(&sb, "thread %d", sc->tid);
	} else if (sort_spec__has(sp, SORT_PID) || f->has_pid) {
		sc->has_pid = true;
		sc->pid = sort_spec__has(sp, SORT_PID) ? r->pid : f->pid;
		strbuf__addf(&sb, "process %d", sc->pid);
	}
	if (sort_spec__has(sp, SORT_COMM) && r->comm) {
		sc->has_comm = true;
		sc->comm = r->comm;
		strbuf__adds(&sb, sb.len ? ", " : "");
		sanitize_str(&sb, r->comm);
	}
	if (sort_spec__has(sp, SORT_CPU)) {
		sc->has_cpu = true;
		sc->cpu = r->cpu;
		strbuf__addf(&sb, "%scpu %d", sb.len ? ", " : "", r->cpu);
	}
	if (sort_spec__has(sp, SORT_STATE)) {
		sc->has_state = true;
		sc->state = r->state;
		strbuf__adds(&sb, sb.len ? ", " : "");
		fmt__state(&sb, r->state);
	}
	if (sort_spec__has(sp, SORT_CGROUP) || f->has_cgroup) {
		sc->has_cgroup = true;
		sc->cgroup = sort_spec__has(sp, SORT_CGROUP) ? r->cgroup :
							       f->cgroup;
		strbuf__adds(&sb, sb.len ? ", cgroup " : "cgroup ");
		fmt__cgroup(&sb, sc->cgroup);
	}
	snprintf(v->scope_desc, sizeof(v->scope_desc), "%s",
		 sb.buf ? sb.buf : "");
	strbuf__fini(&sb);
}

/* Opens r's function (identity fields); r NULL: says that no row is
 * selected. */
static enum act_result annview__open(struct tui *t, const void *arg)
{
	const struct row *r = arg;
	struct annview *v;
	struct strbuf sb;

	if (!r) {
		tui__status(t, ST_ERROR, "no row selected");
		return R_REDRAW;
	}
	if (!r->sym || !r->dso) {
		strbuf__init(&sb);
		sanitize_str(&sb, r->dso_name ? r->dso_name : "?");
		tui__status(t, ST_ERROR,
			    "no function at this address of %s: nothing to "
			    "annotate",
			    sb.buf ? sb.buf : "");
		strbuf__fini(&sb);
		return R_REDRAW;
	}
	/* a new annotation starts a new stack */
	v = annview_of(t);
	if (v && v->depth && tui__view(t) != V_ANNOTATE) {
		while (v->depth)
			level_fini(&v->levels[--v->depth]);
	}
	if (!v && t->a->syms)
		v = *tui__state(t, V_ANNOTATE) = annview__new(t);
	if (v && !v->depth)
		set_scope(v, t, r);
	return open_level(t, r->dso, r->sym_start, r->sym);
}

enum act_result action__ann_back(struct tui *t, int arg)
{
	struct annview *v = annview_of(t);

	(void)arg;
	if (v && v->depth)
		level_fini(&v->levels[--v->depth]);
	if (!v || !v->depth) {
		tui__pop(t);
		return R_REDRAW;
	}
	/* the caller's shares are those of the snapshot now */
	annview__update(t);
	return R_REDRAW;
}

enum act_result action__ann_enter(struct tui *t, int arg)
{
	struct ann_level *l = top_level(annview_of(t));
	const struct ann_line *ln;
	const struct insn *in;
	struct ann_insn *ai;
	size_t row;
	u64 key;

	(void)arg;
	if (!l || !listview__selected(&l->lv, &row))
		return R_NONE;
	ln = row_line(l, row);
	if (!ln || ln->kind != AL_INSN) {
		tui__status(t, ST_NORMAL, "Enter on a jump follows it, on a "
					  "call annotates the callee");
		return R_REDRAW;
	}
	in = disasm__at(l->a->dis, ln->idx);
	ai = &l->a->insns[ln->idx];
	if (ai->target >= 0) {
		select_insn(l, (size_t)ai->target);
		return R_REDRAW;
	}
	if (in->kind != INSN_CALL && in->kind != INSN_JUMP &&
	    in->kind != INSN_CJUMP) {
		tui__status(t, ST_NORMAL, "Enter on a jump follows it, on a "
					  "call annotates the callee");
		return R_REDRAW;
	}
	if (!in->has_target) {
		tui__status(t, ST_NORMAL, "an indirect %s: its target is only "
					  "known at run time",
			    in->kind == INSN_CALL ? "call" : "jump");
		return R_REDRAW;
	}
	if (symbolizer__from_vaddr(t->a->syms, l->a->dso, in->target, &key)) {
		tui__status(t, ST_ERROR, "the target 0x%llx is not in the "
					 "object's code",
			    (unsigned long long)in->target);
		return R_REDRAW;
	}
	return open_level(t, l->a->dso, key,
			  ai->target_name ? ai->target_name : "the callee");
}

/* ---- hot instructions ---- */

enum act_result action__ann_hottest(struct tui *t, int arg)
{
	struct ann_level *l = top_level(annview_of(t));
	long hot;

	(void)arg;
	if (!l)
		return R_NONE;
	hot = annotation__hottest(l->a);
	if (hot < 0) {
		tui__status(t, ST_NORMAL, "no samples in this function in "
					  "this window");
		return R_REDRAW;
	}
	select_insn(l, (size_t)hot);
	return R_REDRAW;
}

enum act_result action__ann_hot(struct tui *t, int dir)
{
	struct ann_level *l = top_level(annview_of(t));
	long cur;
	u32 *hot;
	size_t n, pos;

	if (!l)
		return R_NONE;
	n = annotation__hot_order(l->a, &hot);
	if (!n) {
		tui__status(t, ST_NORMAL, "no samples in this function in "
					  "this window");
		return R_REDRAW;
	}
	cur = selected_insn(l);
	for (pos = 0; pos < n && (long)hot[pos] != cur; pos++)
		;
	if (pos == n)
		pos = dir > 0 ? 0 : n - 1;
	else
		pos = (pos + n + (size_t)(dir > 0 ? 1 : n - 1)) % n;
	select_insn(l, hot[pos]);
	tui__status(t, ST_NORMAL, "hot instruction %zu of %zu", pos + 1, n);
	free(hot);
	return R_REDRAW;
}

/* ---- display toggles ---- */

enum act_result action__ann_mode(struct tui *t, int arg)
{
	static const char *const names[] = {
		[ANN_BOTH] = "source and instructions",
		[ANN_ASM] = "instructions only",
		[ANN_SOURCE] = "source lines only (samples summed per line)",
	};
	struct ann_level *l = top_level(annview_of(t));
	long cur;

	(void)arg;
	if (!l)
		return R_NONE;
	cur = selected_insn(l);
	l->mode = (l->mode + 1) % ANN__MODES;
	if (l->mode == ANN_SOURCE && !l->a->has_lines) {
		tui__status(t, ST_NORMAL, "no source lines for this function");
		l->mode = ANN_BOTH;
	}
	if (relayout(l)) {
		tui__status(t, ST_ERROR, "annotate: out of memory");
		return R_REDRAW;
	}
	listview__update(&l->lv);
	select_insn(l, cur >= 0 ? (size_t)cur : 0);
	tui__status(t, ST_NORMAL, "showing %s", names[l->mode]);
	return R_REDRAW;
}

enum act_result action__ann_value(struct tui *t, int arg)
{
	static const char *const names[] = {
		[ANN_PERCENT] = "percent of the function",
		[ANN_SAMPLES] = "samples",
		[ANN_PERIOD] = "period",
	};
	struct annview *v = annview_of(t);

	(void)arg;
	if (!v)
		return R_NONE;
	v->value = (v->value + 1) % ANN__VALUES;
	tui__status(t, ST_NORMAL, "showing %s", names[v->value]);
	return R_REDRAW;
}

enum act_result action__ann_bytes(struct tui *t, int arg)
{
	struct annview *v = annview_of(t);

	(void)arg;
	if (!v)
		return R_NONE;
	v->bytes = !v->bytes;
	return R_REDRAW;
}

/* ---- search ---- */

static void row_text(struct annview *v, const struct ann_level *l,
		     size_t row, struct strbuf *sb)
{
	const struct ann_line *ln = row_line(l, row);
	struct ann_fmt f = { .value = v->value, .bytes = v->bytes };

	if (ln)
		annotation__format_line(l->a, ln, &f, sb);
	else if (row < l->a->nr_notes)
		sanitize_str(sb, l->a->notes[row]);
}

/* Selects the first row from `from` (wrapping) whose text holds what;
 * false when none does. */
static bool find_row(struct annview *v, struct ann_level *l, size_t from,
		     int dir, const char *what)
{
	size_t n = nr_rows(l);
	struct strbuf sb;
	bool found = false;

	if (!what[0] || !n)
		return false;
	strbuf__init(&sb);
	for (size_t k = 0; k < n && !found; k++) {
		size_t row = (from + n + (dir > 0 ? k : n - k)) % n;

		strbuf__reset(&sb);
		row_text(v, l, row, &sb);
		if (sb.buf && strcasestr(sb.buf, what)) {
			listview__select_row(&l->lv, row);
			found = true;
		}
	}
	strbuf__fini(&sb);
	return found;
}

enum act_result action__ann_search(struct tui *t, int arg)
{
	struct ann_level *l = top_level(annview_of(t));

	(void)arg;
	if (!l)
		return R_NONE;
	annview_of(t)->search_from = l->lv.selected;
	/* a new search each time, as in less; n repeats the last one */
	prompt__open(&t->prompt, PROMPT_ANN_SEARCH, "Search", "");
	tui__push(t, V_PROMPT);
	return R_REDRAW;
}

/* Its search prompt: typed, accepted, or cancelled (back where / was
 * pressed). */
static enum act_result annview__prompt(struct tui *t, const struct prompt *p,
				       enum prompt_event ev)
{
	struct annview *v = annview_of(t);
	struct ann_level *l = top_level(v);
	const char *text = p->buf;

	if (!l)
		return R_REDRAW;
	if (ev == PROMPT_CANCEL) {
		l->lv.selected = v->search_from;
		return R_REDRAW;
	}
	if (!find_row(v, l, v->search_from, 1, text)) {
		if (text[0])
			tui__status(t, ST_ERROR, "not found");
	}
	if (ev == PROMPT_ACCEPT)
		snprintf(v->search, sizeof(v->search), "%s", text);
	return R_REDRAW;
}

enum act_result action__ann_search_next(struct tui *t, int arg)
{
	struct annview *v = annview_of(t);
	struct ann_level *l = top_level(v);

	(void)arg;
	if (!l)
		return R_NONE;
	if (!v->search[0]) {
		tui__status(t, ST_NORMAL, "/ searches first");
		return R_REDRAW;
	}
	if (!find_row(v, l, l->lv.selected + 1, 1, v->search))
		tui__status(t, ST_ERROR, "not found");
	return R_REDRAW;
}

/* ---- saving ---- */

enum act_result action__ann_save(struct tui *t, int arg)
{
	struct annview *v = annview_of(t);
	struct ann_level *l = top_level(v);
	struct ann_fmt f;
	struct strbuf sb;

	(void)arg;
	if (!l)
		return R_NONE;
	f = (struct ann_fmt){ .value = v->value, .bytes = v->bytes,
			      .source_value = l->mode == ANN_SOURCE };
	strbuf__init(&sb);
	annotation__text(l->a, t->hi.event, l->mode, &f, &sb);
	if (sb.oom)
		tui__status(t, ST_ERROR, "cannot save: out of memory");
	else
		save__text(t, "ptop.annotate", "the annotation", sb.buf,
			  sb.len);
	strbuf__fini(&sb);
	return R_REDRAW;
}

/* ---- drawing (pure) ---- */

static size_t annview__nr_rows(void *ctx)
{
	struct ann_level *l = top_level(ctx);

	return l ? nr_rows(l) : 0;
}

static void annview__header(void *ctx, struct screen *s, size_t y)
{
	struct annview *v = ctx;
	struct ann_level *l = top_level(v);
	const struct header_info *hi = &v->t->hi;
	struct strbuf sb;

	if (!l)
		return;
	strbuf__init(&sb);
	strbuf__adds(&sb, "Annotate ");
	annotation__format_title(l->a, hi->event, &sb);
	if (v->scope_desc[0])
		strbuf__addf(&sb, "  (%s)", v->scope_desc);
	if (v->depth > 1)
		strbuf__addf(&sb, "  (callee %zu deep, Esc: back)",
			     v->depth - 1);
	if (hi->paused)
		strbuf__adds(&sb, "  PAUSED");
	else if (hi->zeroing)
		strbuf__adds(&sb, "  zeroing");
	else if (hi->decaying)
		strbuf__adds(&sb, "  decaying");
	if (hi->finished)
		strbuf__adds(&sb, "  finished");
	screen__add(s, y, ST_TITLE, sb.buf ? sb.buf : "");
	screen__fill(s, y, ST_TITLE);
	strbuf__fini(&sb);
}

/* The target of the selected jump, to mark. */
static long selected_target(const struct ann_level *l)
{
	const struct ann_line *ln;
	size_t row;

	if (!listview__selected(&l->lv, &row))
		return -1;
	ln = row_line(l, row);
	if (!ln || ln->kind != AL_INSN)
		return -1;
	return l->a->insns[ln->idx].target;
}

static void annview__row(void *ctx, size_t i, struct screen *s, size_t y)
{
	struct annview *v = ctx;
	struct ann_level *l = top_level(v);
	const struct ann_line *ln = l ? row_line(l, i) : NULL;
	struct ann_fmt f;
	struct strbuf sb;
	u64 samples, period;

	if (!l)
		return;
	strbuf__init(&sb);
	if (!ln) {
		strbuf__adds(&sb, "  note: ");
		sanitize_str(&sb, l->a->notes[i]);
		screen__add(s, y, ST_WARN, sb.buf ? sb.buf : "");
		strbuf__fini(&sb);
		return;
	}
	f = (struct ann_fmt){ .value = v->value, .bytes = v->bytes,
			      .blank_zero = true,
			      .source_value = l->mode == ANN_SOURCE };
	/* format_line sanitizes what came from outside */
	annotation__format_line(l->a, ln, &f, &sb);
	if (ln->kind == AL_SRC) {
		samples = l->a->srcs[ln->idx].samples;
		period = l->a->srcs[ln->idx].period;
		screen__add(s, y, l->mode == ANN_SOURCE ? ST_NORMAL : ST_BOLD,
			    sb.buf ? sb.buf : "");
	} else {
		samples = l->a->insns[ln->idx].samples;
		period = l->a->insns[ln->idx].period;
		screen__add(s, y, ST_NORMAL, sb.buf ? sb.buf : "");
		if ((long)ln->idx == selected_target(l)) {
			/* the label the selected jump goes to */
			const char *lab = sb.buf ? strstr(sb.buf, ".L") : NULL;
			const char *end = lab ? strchr(lab, ':') : NULL;

			if (end)
				screen__style(s, y, (size_t)(lab - sb.buf),
					      (size_t)(end - sb.buf) + 1,
					      ST_KEY);
		}
	}
	if (samples && (ln->kind == AL_INSN || l->mode == ANN_SOURCE))
		screen__style(s, y, 0, ANN_VALUE_WIDTH,
			      tui__share_style(annotation__percent(
				      l->a, samples, period)));
	strbuf__fini(&sb);
}

static const struct list_ops annview__ops = {
	.nr_rows = annview__nr_rows,
	.format_header = annview__header,
	.format_row = annview__row,
};

const struct view_ops annview__view = {
	.view = V_ANNOTATE,
	.name = "annotate",
	.open = annview__open,
	.prompt = annview__prompt,
	.list = annview__list,
	.update = annview__update,
	.free = annview__free,
};
