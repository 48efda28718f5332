/* annotate_fmt: an annotation laid out in lines (source, instructions or
 * both), as text and as JSON (pure). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/json.h"
#include "src/core/lru.h"
#include "ui/report/annotate.h"
#include "ui/report/annotate_internal.h"
#include "symbols/cslib.h"
#include "symbols/demangle.h"
#include "ui/report/sanitize.h"
#include "ui/report/table.h"
#include "symbols/srcfile.h"

/* Operands before a %rip-relative operand's "# address <symbol>" */
#define ANN_OPS_WIDTH 24

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
	sanitize_str(sb, path_basename(s->file));
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
	if (a->folded_samples && !a->folded_live)
		strbuf__addf(sb, " (+%" PRIu64 " of exited processes, "
				 "address not kept)",
			     a->folded_samples);
	else if (a->folded_samples)
		strbuf__addf(sb, " (+%" PRIu64 " of exited processes or past "
				 "the memory budget, address not kept)",
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
		      struct json *j)
{
	const struct insn *in = disasm__at(a->dis, i);
	const struct ann_insn *ai = &a->insns[i];
	struct ann_fmt f = { .value = ANN_PERCENT };
	struct ann_line l = { AL_INSN, (u32)i };
	struct strbuf text;
	const char *t;

	json__object(j, NULL);
	json__hex(j, "addr", in->addr);
	json__u64(j, "offset", in->addr - a->vaddr);
	json__fixed(j, "percent",
		    annotation__percent(a, ai->samples, ai->period), 4);
	json__u64(j, "samples", ai->samples);
	json__u64(j, "period", ai->period);
	json__str(j, "kind", kind_name(in->kind));
	json__hex_bytes(j, "bytes", disasm__bytes(a->dis, in), in->size);
	json__str(j, "mnemonic", disasm__mnemonic(a->dis, in));
	json__str(j, "operands", disasm__operands(a->dis, in));
	/* the text as the view shows it, labels and targets named */
	strbuf__init(&text);
	annotation__format_line(a, &l, &f, &text);
	t = text.buf ? strchr(text.buf, ':') : NULL;
	t = t ? t + 1 : "";
	while (*t == ' ')
		t++;
	json__str(j, "text", t);
	strbuf__fini(&text);
	if (in->has_target)
		json__hex(j, "target", in->target);
	else
		json__null(j, "target");
	json_sanitized(j, "target_symbol", !in->has_target ? NULL :
		       ai->target >= 0 ? a->name : ai->target_name);
	/* what a %rip-relative operand refers to */
	if (in->rip_rel) {
		json__hex(j, "mem_target", in->target);
		json_sanitized(j, "mem_symbol", ai->target_name);
		if (ai->target_name)
			json__u64(j, "mem_offset", ai->target_off);
		else
			json__null(j, "mem_offset");
	} else {
		json__null(j, "mem_target");
		json__null(j, "mem_symbol");
		json__null(j, "mem_offset");
	}
	if (ai->src >= 0) {
		const struct ann_src *s = &a->srcs[ai->src];

		json__object(j, "source");
		json_sanitized(j, "file", s->file);
		json__s64(j, "line", s->line);
		json_sanitized(j, "func", s->func);
		json__bool(j, "inlined", s->inlined);
		json__object_end(j);
	} else {
		json__null(j, "source");
	}
	json__object_end(j);
}

void annotation__json(const struct annotation *a,
		      const struct header_info *hi, struct strbuf *sb)
{
	struct json j;

	json__init(&j, sb);
	json__object(&j, NULL);
	json__fixed(&j, "time", hi ? hi->elapsed : 0.0, 3);
	json_sanitized(&j, "event", hi ? hi->event : NULL);
	json_sanitized(&j, "symbol", a->name);
	json_sanitized(&j, "dso", a->dso_name);
	json_sanitized(&j, "file", a->file);
	json__hex(&j, "start", a->vaddr);
	json__u64(&j, "size", a->size);
	json__u64(&j, "samples", a->samples);
	json__u64(&j, "period", a->period);
	json__u64(&j, "total_samples", a->total_samples);
	json__u64(&j, "total_period", a->total_period);
	json__array(&j, "notes");
	for (size_t i = 0; i < a->nr_notes; i++)
		json_sanitized(&j, NULL, a->notes[i]);
	json__array_end(&j);
	json__array(&j, "instructions");
	for (size_t i = 0; i < a->nr; i++)
		json_insn(a, i, &j);
	json__array_end(&j);
	json__array(&j, "lines");
	for (size_t i = 0; i < a->nr_srcs; i++) {
		const struct ann_src *s = &a->srcs[a->src_sorted[i]];

		json__object(&j, NULL);
		json_sanitized(&j, "file", s->file);
		json__s64(&j, "line", s->line);
		json__fixed(&j, "percent",
			    annotation__percent(a, s->samples, s->period), 4);
		json__u64(&j, "samples", s->samples);
		json__u64(&j, "period", s->period);
		json_sanitized(&j, "text", s->text);
		json__object_end(&j);
	}
	json__array_end(&j);
	json__object_end(&j);
	strbuf__addc(sb, '\n');
}
