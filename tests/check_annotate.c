/* check_annotate: the annotation of a function built by the tests
 * (annfix): instructions, jump labels and call targets, the globals
 * %rip-relative operands refer to, the source line of each instruction,
 * samples per instruction from fake snapshots, the modes, the text and
 * JSON, finding a function by name, errors. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/report/annotate.h"
#include "tests/fixtures/symtest.h"
#include "src/core/log.h"

static struct symbolizer *syms;
static struct annotator *an;
static struct dso fix;

static void setup(void)
{
	log__set_handler(NULL, NULL);
	syms = symbolizer__new(NULL);
	ck_assert_ptr_nonnull(syms);
	an = annotator__new(syms, DISASM_ATT);
	ck_assert_ptr_nonnull(an);
	fix = file_dso(0, fixture_path("annfix"));
}

static void teardown(void)
{
	annotator__free(an);
	symbolizer__free(syms);
}

/* The key (file offset) of a function of annfix. */
static u64 key_of(const char *func, u64 *size)
{
	u64 addr, sz, key;

	ck_assert(nm_find("annfix.nm", func, &addr, &sz));
	ck_assert_int_eq(symbolizer__from_vaddr(syms, &fix, addr, &key), 0);
	if (size)
		*size = sz;
	return key;
}

static struct annotation *open_fn(const char *func)
{
	struct annotation *a = NULL;
	struct strbuf why;

	strbuf__init(&why);
	ck_assert_msg(annotator__open(an, &fix, key_of(func, NULL), &a,
				      &why) == 0,
		      "%s", why.buf ? why.buf : "");
	strbuf__fini(&why);
	return a;
}

static long find_mnemonic(const struct annotation *a, enum insn_kind kind)
{
	for (size_t i = 0; i < a->nr; i++)
		if (disasm__at(a->dis, i)->kind == kind)
			return (long)i;
	return -1;
}

START_TEST(test_open)
{
	struct annotation *a = open_fn("ann_loop"), *again;
	u64 size, key = key_of("ann_loop", &size);
	int body = lines_find("annfix.lines", "body");
	long call = find_mnemonic(a, INSN_CALL), jne = -1;
	const struct ann_src *s;

	ck_assert_str_eq(a->name, "ann_loop");
	ck_assert_str_eq(a->dso_name, "annfix");
	ck_assert_uint_eq(a->start, key);
	ck_assert_uint_eq(a->size, size);
	ck_assert_uint_gt(a->nr, 10);
	ck_assert_uint_eq(a->nr_notes, 0);
	ck_assert(a->has_lines);
	/* the call names its callee */
	ck_assert_int_ge(call, 0);
	ck_assert_str_eq(a->insns[call].target_name, "ann_helper");
	ck_assert_uint_eq(a->insns[call].target_off, 0);
	ck_assert_int_eq(a->insns[call].target, -1);
	/* and is the loop body's line, whose text was read from disk */
	ck_assert_int_ge(a->insns[call].src, 0);
	s = &a->srcs[a->insns[call].src];
	ck_assert_int_eq(s->line, body);
	ck_assert_ptr_nonnull(strstr(s->file, "annfix.c"));
	ck_assert_ptr_nonnull(s->text);
	ck_assert_ptr_nonnull(strstr(s->text, "s += ann_helper(i);"));
	ck_assert(!s->inlined);
	ck_assert_str_eq(s->func, "ann_loop");
	/* the loop's backward jump lands on a label inside */
	for (size_t i = 0; i < a->nr; i++)
		if (disasm__at(a->dis, i)->kind == INSN_CJUMP &&
		    a->insns[i].target >= 0 &&
		    (size_t)a->insns[i].target < i)
			jne = (long)i;
	ck_assert_int_ge(jne, 0);
	ck_assert_uint_gt(a->insns[a->insns[jne].target].label, 0);
	ck_assert_uint_ge(a->nr_labels, 2);
	/* keys follow the instructions' addresses */
	for (size_t i = 0; i < a->nr; i++)
		ck_assert_uint_eq(a->insns[i].key - a->start,
				  annotation__insn_vaddr(a, i) - a->vaddr);
	/* cached: the same annotation again */
	again = open_fn("ann_loop");
	ck_assert_ptr_eq(again, a);
	annotation__put(again);
	annotation__put(a);
}
END_TEST

/* A snapshot made by hand: entries for keys. */
struct fake_snap {
	struct snapshot snap;
	struct hist_entry e[64];
};

static void fake_add(struct fake_snap *f, const struct dso *d, u64 addr,
		     u64 samples)
{
	struct hist_entry *e = &f->e[f->snap.nr++];

	memset(e, 0, sizeof(*e));
	e->key.dso = d;
	e->key.addr = addr;
	e->samples = samples;
	e->period = samples * 1000;
	f->snap.entries = f->e;
	f->snap.total_samples += samples;
	f->snap.total_period += samples * 1000;
}

START_TEST(test_count)
{
	struct annotation *a = open_fn("ann_loop");
	struct dso other = file_dso(1, fixture_path("annfix"));
	long call = find_mnemonic(a, INSN_CALL);
	struct fake_snap f;
	double sum = 0;
	u32 *hot;
	size_t n;

	memset(&f, 0, sizeof(f));
	/* 60 on the call, 30 in the middle of the next instruction's
	 * bytes (skid), 10 on the first; outside and other dsos ignored */
	fake_add(&f, &fix, a->insns[call].key, 60);
	fake_add(&f, &fix, a->insns[call + 1].key + 1, 30);
	fake_add(&f, &fix, a->start, 10);
	fake_add(&f, &fix, a->start + a->size, 500);
	fake_add(&f, &fix, a->start - 1, 500);
	fake_add(&f, &other, a->insns[call].key, 500);
	annotation__count(a, &f.snap);
	ck_assert_uint_eq(a->samples, 100);
	ck_assert_uint_eq(a->period, 100000);
	ck_assert_uint_eq(a->total_samples, 1600);
	ck_assert_uint_eq(a->insns[call].samples, 60);
	ck_assert_uint_eq(a->insns[call + 1].samples, 30);
	ck_assert_uint_eq(a->insns[0].samples, 10);
	ck_assert_double_eq_tol(annotation__percent(a, 60, 60000), 60.0,
				1e-9);
	for (size_t i = 0; i < a->nr; i++)
		sum += annotation__percent(a, a->insns[i].samples,
					   a->insns[i].period);
	ck_assert_double_eq_tol(sum, 100.0, 1e-9);
	ck_assert_int_eq(annotation__hottest(a), call);
	n = annotation__hot_order(a, &hot);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(hot[0], (u32)call);
	ck_assert_uint_eq(hot[1], (u32)call + 1);
	ck_assert_uint_eq(hot[2], 0);
	free(hot);
	/* the source lines sum their instructions */
	sum = 0;
	for (size_t i = 0; i < a->nr_srcs; i++)
		sum += (double)a->srcs[i].samples;
	ck_assert_double_eq_tol(sum, 100.0, 1e-9);
	ck_assert_uint_ge(a->srcs[a->insns[call].src].samples, 60);
	/* the next refresh starts from its own snapshot */
	memset(&f, 0, sizeof(f));
	annotation__count(a, &f.snap);
	ck_assert_uint_eq(a->samples, 0);
	ck_assert_int_eq(annotation__hottest(a), -1);
	ck_assert_uint_eq(annotation__hot_order(a, &hot), 0);
	ck_assert_double_eq(annotation__percent(a, 0, 0), 0.0);
	annotation__count(a, NULL);
	annotation__put(a);
}
END_TEST

/* Entries of exited processes folded to their function's start
 * (hist_key.whole) count for the function, at no instruction: not on
 * the first one, whose own samples stay its own. */
START_TEST(test_count_folded)
{
	struct annotation *a = open_fn("ann_loop");
	struct fake_snap f;
	struct strbuf sb;

	memset(&f, 0, sizeof(f));
	fake_add(&f, &fix, a->start, 10);
	fake_add(&f, &fix, a->insns[1].key, 30);
	fake_add(&f, &fix, a->start, 60);
	f.e[2].key.whole = 1;
	f.e[2].key.pid = -1;
	/* another function's folded entry */
	fake_add(&f, &fix, a->start + a->size, 500);
	f.e[3].key.whole = 1;
	f.e[3].key.pid = -1;
	annotation__count(a, &f.snap);
	ck_assert_uint_eq(a->samples, 40);
	ck_assert_uint_eq(a->folded_samples, 60);
	ck_assert_uint_eq(a->folded_period, 60000);
	ck_assert_uint_eq(a->insns[0].samples, 10);
	ck_assert_double_eq_tol(annotation__percent(a, 10, 10000), 25.0,
				1e-9);
	strbuf__init(&sb);
	annotation__format_title(a, "cpu-clock", &sb);
	/* 100 of the 600 samples are the function's */
	ck_assert_msg(strstr(sb.buf, "16.67% of cpu-clock, 40 samples (+60 of "
				     "exited processes, address not kept)"),
		      "%s", sb.buf);
	/* a living process's entry folded by the memory budget: the title
	 * does not call it an exited process's */
	f.e[2].key.pid = 100;
	annotation__count(a, &f.snap);
	ck_assert_uint_eq(a->folded_samples, 60);
	strbuf__reset(&sb);
	annotation__format_title(a, "cpu-clock", &sb);
	ck_assert_msg(strstr(sb.buf, "40 samples (+60 of exited processes or "
				     "past the memory budget, address not "
				     "kept)"), "%s", sb.buf);
	strbuf__fini(&sb);
	annotation__put(a);
}
END_TEST

/* Only the samples of one thread, command or CPU: the row annotated. */
START_TEST(test_count_scope)
{
	struct annotation *a = open_fn("ann_loop");
	struct ann_scope sc = { .has_tid = true, .tid = 8 };
	static char other[] = "worker";
	struct fake_snap f;

	memset(&f, 0, sizeof(f));
	fake_add(&f, &fix, a->start, 5);
	f.e[0].key.pid = 7;
	f.e[0].key.tid = 7;
	fake_add(&f, &fix, a->start, 3);
	f.e[1].key.pid = 7;
	f.e[1].key.tid = 8;
	f.e[1].key.comm = "worker";
	f.e[1].key.cpu = 1;
	annotation__count_scope(a, &f.snap, &sc);
	ck_assert_uint_eq(a->samples, 3);
	sc = (struct ann_scope){ .has_pid = true, .pid = 7 };
	annotation__count_scope(a, &f.snap, &sc);
	ck_assert_uint_eq(a->samples, 8);
	/* comms are interned: an equal string elsewhere is another one */
	sc = (struct ann_scope){ .has_comm = true, .comm = other };
	annotation__count_scope(a, &f.snap, &sc);
	ck_assert_uint_eq(a->samples, 0);
	sc.comm = f.e[1].key.comm;
	annotation__count_scope(a, &f.snap, &sc);
	ck_assert_uint_eq(a->samples, 3);
	sc = (struct ann_scope){ .has_cpu = true, .cpu = 0 };
	annotation__count_scope(a, &f.snap, &sc);
	ck_assert_uint_eq(a->samples, 5);
	annotation__count_scope(a, &f.snap, NULL);
	ck_assert_uint_eq(a->samples, 8);
	annotation__put(a);
}
END_TEST

/* Off-CPU and wall time (scope.chains): a sample counts at the
 * function's innermost frame of its chain, the call it waited in; the
 * thread state scopes it (a row grouped by state). */
START_TEST(test_count_chains)
{
	struct annotation *a = open_fn("ann_loop");
	struct dso kern = { .kind = DSO_KERNEL };
	long call = find_mnemonic(a, INSN_CALL);
	struct ann_scope sc = { .chains = true };
	struct cc_node nodes[6];
	struct fake_snap f;

	memset(&f, 0, sizeof(f));
	memset(nodes, 0, sizeof(nodes));
	/* 1: the call in ann_loop (a caller frame), 2: a frame in it
	 * again further out (recursion: counted once, innermost), 3: the
	 * scheduler, the leaf; 4: another chain, never through it */
	nodes[1] = (struct cc_node){ 0, 0, &fix, a->start };
	nodes[2] = (struct cc_node){ 1, 1, &fix, a->insns[call].key };
	nodes[3] = (struct cc_node){ 2, 2, &kern, 0x1000 };
	nodes[4] = (struct cc_node){ 0, 0, &kern, 0x2000 };
	f.snap.chains = nodes;
	f.snap.nr_chains = 5;
	fake_add(&f, &kern, 0x1000, 7);
	f.e[0].key.chain = 3;
	f.e[0].key.state = 'S';
	fake_add(&f, &kern, 0x1000, 2);
	f.e[1].key.chain = 3;
	f.e[1].key.state = 'D';
	fake_add(&f, &kern, 0x2000, 50);
	f.e[2].key.chain = 4;
	/* ran in it: its own address, whatever its chain */
	fake_add(&f, &fix, a->start, 1);
	f.e[3].key.chain = 1;
	annotation__count_scope(a, &f.snap, &sc);
	ck_assert_uint_eq(a->samples, 10);
	ck_assert_uint_eq(a->insns[call].samples, 9);
	ck_assert_uint_eq(a->insns[0].samples, 1);
	/* without chains, as perf annotate: only where it ran */
	sc.chains = false;
	annotation__count_scope(a, &f.snap, &sc);
	ck_assert_uint_eq(a->samples, 1);
	sc = (struct ann_scope){ .chains = true, .has_state = true,
				 .state = 'D' };
	annotation__count_scope(a, &f.snap, &sc);
	ck_assert_uint_eq(a->samples, 2);
	ck_assert_uint_eq(a->insns[call].samples, 2);
	annotation__put(a);
}
END_TEST

START_TEST(test_layout_and_text)
{
	struct annotation *a = open_fn("ann_loop");
	struct ann_fmt fmt = { .value = ANN_PERCENT };
	long call = find_mnemonic(a, INSN_CALL);
	int body = lines_find("annfix.lines", "body");
	struct ann_lines ls = { 0 };
	struct fake_snap f;
	struct strbuf sb;
	char want[64];
	size_t nsrc = 0, ninsn = 0;

	memset(&f, 0, sizeof(f));
	fake_add(&f, &fix, a->insns[call].key, 3);
	fake_add(&f, &fix, a->insns[0].key, 1);
	annotation__count(a, &f.snap);

	/* both: each source line above the instructions it made */
	ck_assert_int_eq(annotation__layout(a, ANN_BOTH, &ls), 0);
	for (size_t i = 0; i < ls.nr; i++) {
		if (ls.l[i].kind == AL_SRC) {
			nsrc++;
			ck_assert_uint_lt(i + 1, ls.nr);
			ck_assert_uint_eq(ls.l[i + 1].kind, AL_INSN);
			ck_assert_int_eq(a->insns[ls.l[i + 1].idx].src,
					 (int)ls.l[i].idx);
		} else {
			ck_assert_uint_eq(ls.l[i].idx, ninsn++);
		}
	}
	ck_assert_uint_eq(ninsn, a->nr);
	ck_assert_uint_gt(nsrc, 1);
	/* asm only, source only (sorted by line) */
	ck_assert_int_eq(annotation__layout(a, ANN_ASM, &ls), 0);
	ck_assert_uint_eq(ls.nr, a->nr);
	ck_assert_int_eq(annotation__layout(a, ANN_SOURCE, &ls), 0);
	ck_assert_uint_eq(ls.nr, a->nr_srcs);
	for (size_t i = 1; i < ls.nr; i++)
		ck_assert_int_le(a->srcs[ls.l[i - 1].idx].line,
				 a->srcs[ls.l[i].idx].line);
	ann_lines__fini(&ls);

	strbuf__init(&sb);
	annotation__text(a, "cpu-clock", ANN_BOTH, &fmt, &sb);
	ck_assert(!sb.oom);
	ck_assert_ptr_nonnull(strstr(sb.buf, "# annotate: ann_loop  [annfix]"
					     "  100.00% of cpu-clock, 4 "
					     "samples"));
	/* the source text keeps its indentation */
	snprintf(want, sizeof(want), "annfix.c:%d  ", body);
	ck_assert_ptr_nonnull(strstr(sb.buf, want));
	ck_assert_ptr_nonnull(strstr(strstr(sb.buf, want),
				     "  s += ann_helper(i); /* MARK:body */\n"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "   75.00  "));
	ck_assert_ptr_nonnull(strstr(sb.buf, " <ann_helper>\n"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "    0.00  "));
	ck_assert_ptr_nonnull(strstr(sb.buf, " ^\n"));
	ck_assert_ptr_nonnull(strstr(sb.buf, ".L1:"));
	/* the call line: percent, address, instruction */
	strbuf__reset(&sb);
	{
		struct ann_line l = { AL_INSN, (u32)call };
		char addr[32];

		annotation__format_line(a, &l, &fmt, &sb);
		snprintf(addr, sizeof(addr), "%lx:",
			 (unsigned long)annotation__insn_vaddr(a, call));
		ck_assert_msg(!strncmp(sb.buf, "   75.00  ", 10), "%s", sb.buf);
		ck_assert_ptr_nonnull(strstr(sb.buf, addr));
		ck_assert_ptr_nonnull(strstr(sb.buf, "callq  0x"));
		/* raw bytes: e8 and the offset */
		strbuf__reset(&sb);
		fmt.bytes = true;
		fmt.value = ANN_SAMPLES;
		annotation__format_line(a, &l, &fmt, &sb);
		ck_assert_ptr_nonnull(strstr(sb.buf, "       3  "));
		ck_assert_ptr_nonnull(strstr(sb.buf, "  e8 "));
		/* cold lines blank in the view */
		strbuf__reset(&sb);
		fmt.blank_zero = true;
		l.idx = 1;
		annotation__format_line(a, &l, &fmt, &sb);
		ck_assert_msg(!strncmp(sb.buf, "          ", 10), "%s", sb.buf);
	}
	strbuf__reset(&sb);
	{
		struct header_info hi = { .event = "cpu-clock",
					  .elapsed = 1.5 };

		annotation__json(a, &hi, &sb);
		ck_assert_ptr_nonnull(strstr(sb.buf, "{\"time\":1.500,\"event\":"
						     "\"cpu-clock\",\"symbol\":"
						     "\"ann_loop\""));
		ck_assert_ptr_nonnull(strstr(sb.buf, "\"kind\":\"call\""));
		ck_assert_ptr_nonnull(strstr(sb.buf, "\"target_symbol\":"
						     "\"ann_helper\""));
		ck_assert_ptr_nonnull(strstr(sb.buf, "\"percent\":75.0000"));
		ck_assert_ptr_nonnull(strstr(sb.buf, "  s += ann_helper(i); "
						     "/* MARK:body */\"}"));
		ck_assert_ptr_nonnull(strstr(sb.buf, "\"inlined\":false"));
		ck_assert_int_eq(sb.buf[sb.len - 1], '\n');
		ck_assert_ptr_null(strchr(sb.buf, '\t'));
	}
	strbuf__fini(&sb);
	annotation__put(a);
}
END_TEST

/* ann_loop stores annfix_sink through a %rip-relative operand: its
 * address and name follow the operand in both syntaxes, the view, the
 * text and the JSON; _start calls through a GOT slot. */
START_TEST(test_rip_relative)
{
	struct ann_fmt fmt = { .value = ANN_PERCENT };
	struct header_info hi = { .event = "cpu-clock" };
	char want[64], json[96];
	u64 sink, size;
	long rip = -1;

	ck_assert(nm_find("annfix.nm", "annfix_sink", &sink, &size));
	snprintf(want, sizeof(want), "  # 0x%llx <annfix_sink>",
		 (unsigned long long)sink);
	snprintf(json, sizeof(json), "\"mem_target\":\"0x%llx\","
				     "\"mem_symbol\":\"annfix_sink\","
				     "\"mem_offset\":0",
		 (unsigned long long)sink);
	for (int syn = 0; syn < 2; syn++) {
		struct annotation *a;
		struct strbuf sb;
		struct ann_line l = { AL_INSN, 0 };

		if (syn) {
			annotator__free(an);
			an = annotator__new(syms, DISASM_INTEL);
			ck_assert_ptr_nonnull(an);
		}
		a = open_fn("ann_loop");
		for (size_t i = 0; i < a->nr; i++)
			if (disasm__at(a->dis, i)->rip_rel)
				rip = (long)i;
		ck_assert_int_ge(rip, 0);
		ck_assert_str_eq(a->insns[rip].target_name, "annfix_sink");
		ck_assert_uint_eq(a->insns[rip].target_off, 0);
		ck_assert_int_eq(a->insns[rip].target, -1);
		ck_assert_uint_eq(a->insns[rip].label, 0);
		/* the line: the operand as capstone wrote it, then what
		 * it refers to */
		strbuf__init(&sb);
		l.idx = (u32)rip;
		annotation__format_line(a, &l, &fmt, &sb);
		ck_assert_msg(strstr(sb.buf, want) != NULL, "%s", sb.buf);
		ck_assert_ptr_nonnull(strstr(sb.buf, syn ? "[rip + 0x" :
							   "(%rip)"));
		ck_assert_int_eq(sb.buf[sb.len - 1], '>');
		/* an offset into the symbol */
		a->insns[rip].target_off = 4;
		strbuf__reset(&sb);
		annotation__format_line(a, &l, &fmt, &sb);
		ck_assert_ptr_nonnull(strstr(sb.buf, " <annfix_sink+0x4>"));
		a->insns[rip].target_off = 0;
		/* the text and the JSON */
		strbuf__reset(&sb);
		annotation__text(a, "cpu-clock", ANN_ASM, &fmt, &sb);
		ck_assert_ptr_nonnull(strstr(sb.buf, want));
		strbuf__reset(&sb);
		annotation__json(a, &hi, &sb);
		ck_assert_msg(strstr(sb.buf, json) != NULL, "%s", json);
		ck_assert_ptr_nonnull(strstr(sb.buf, "\"mem_target\":null,"
						     "\"mem_symbol\":null,"
						     "\"mem_offset\":null"));
		/* a %rip operand is not a branch target */
		ck_assert_ptr_null(strstr(sb.buf, "\"target_symbol\":"
						  "\"annfix_sink\""));
		strbuf__fini(&sb);
		annotation__put(a);
	}
	/* an unnamed address: the address alone */
	{
		struct annotation *a = open_fn("ann_loop");
		struct ann_line l = { AL_INSN, (u32)rip };
		struct strbuf sb;

		a->insns[rip].target_name = NULL;
		strbuf__init(&sb);
		annotation__format_line(a, &l, &fmt, &sb);
		snprintf(want, sizeof(want), "  # 0x%llx",
			 (unsigned long long)sink);
		ck_assert_ptr_nonnull(strstr(sb.buf, want));
		ck_assert_ptr_null(strchr(sb.buf, '<'));
		strbuf__reset(&sb);
		annotation__json(a, &hi, &sb);
		ck_assert_ptr_nonnull(strstr(sb.buf, "\"mem_symbol\":null,"
						     "\"mem_offset\":null"));
		strbuf__fini(&sb);
		a->insns[rip].target_name = "annfix_sink";
		annotation__put(a);
	}
	/* glibc's _start calls __libc_start_main through its GOT slot */
	{
		struct annotation *a = open_fn("_start");
		bool got = false;

		for (size_t i = 0; i < a->nr; i++)
			got |= disasm__at(a->dis, i)->rip_rel &&
			       a->insns[i].target_name &&
			       !strcmp(a->insns[i].target_name,
				       "__libc_start_main@got");
		ck_assert(got);
		annotation__put(a);
	}
}
END_TEST

/* Data in code: .byte entries and a note, never a failure. */
START_TEST(test_garbage)
{
	struct annotation *a = open_fn("ann_garbage");
	struct ann_fmt fmt = { .value = ANN_PERCENT };
	struct strbuf sb;

	ck_assert_uint_eq(a->nr, 4);
	/* an asm function: no line information either */
	ck_assert_uint_eq(a->nr_notes, 2);
	ck_assert_ptr_nonnull(strstr(a->notes[0], "2 bytes did not decode"));
	ck_assert_ptr_nonnull(strstr(a->notes[1], "no source lines"));
	strbuf__init(&sb);
	annotation__text(a, NULL, ANN_BOTH, &fmt, &sb);
	ck_assert_ptr_nonnull(strstr(sb.buf, ".byte  0x06"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "# note: 2 bytes"));
	strbuf__fini(&sb);
	annotation__put(a);
}
END_TEST

START_TEST(test_find)
{
	struct fake_snap f;
	const struct dso *d = NULL;
	struct strbuf close;
	u64 addr = 0, loop = key_of("ann_loop", NULL);

	memset(&f, 0, sizeof(f));
	fake_add(&f, &fix, loop + 4, 5);
	fake_add(&f, &fix, key_of("ann_helper", NULL), 2);
	strbuf__init(&close);
	ck_assert_int_eq(annotator__find(an, &f.snap, "ann_loop", &d, &addr,
					 &close),
			 0);
	ck_assert_ptr_eq(d, &fix);
	ck_assert_uint_eq(addr, loop);
	/* not sampled, but in the symbol table of a dso that ran */
	ck_assert_int_eq(annotator__find(an, &f.snap, "main", &d, &addr,
					 &close),
			 0);
	ck_assert_uint_eq(addr, key_of("main", NULL));
	/* unknown: close names */
	ck_assert_int_eq(annotator__find(an, &f.snap, "ann_lop", &d, &addr,
					 &close),
			 -ENOENT);
	ck_assert_ptr_nonnull(strstr(close.buf, "ann_loop\n"));
	strbuf__reset(&close);
	ck_assert_int_eq(annotator__find(an, &f.snap, "helper", &d, &addr,
					 &close),
			 -ENOENT);
	ck_assert_ptr_nonnull(strstr(close.buf, "ann_helper\n"));
	strbuf__reset(&close);
	ck_assert_int_eq(annotator__find(an, &f.snap, "zzzzzzzzzzzzzzzz", &d,
					 &addr, &close),
			 -ENOENT);
	ck_assert_uint_eq(close.len, 0);
	strbuf__fini(&close);
	ck_assert_uint_eq(annotate__distance("ann_loop", "ann_lop"), 1);
	ck_assert_uint_eq(annotate__distance("", "abc"), 3);
	ck_assert_uint_eq(annotate__distance("kitten", "sitting"), 3);
}
END_TEST

/* The key of libcxxfix's function of mangled name raw. */
static u64 cxx_key(const struct dso *d, const char *raw)
{
	u64 addr, sz, key;

	ck_assert_msg(nm_find("libcxxfix.nm", raw, &addr, &sz), "%s", raw);
	ck_assert_int_eq(symbolizer__from_vaddr(syms, d, addr, &key), 0);
	return key;
}

static void expect_found(const struct fake_snap *f, const char *name,
			 const struct dso *want_dso, u64 want)
{
	const struct dso *d = NULL;
	u64 addr = 0;

	ck_assert_msg(annotator__find(an, &f->snap, name, &d, &addr, NULL) ==
			      0,
		      "%s not found", name);
	ck_assert_ptr_eq(d, want_dso);
	ck_assert_msg(addr == want, "%s: 0x%llx, not 0x%llx", name,
		      (unsigned long long)addr, (unsigned long long)want);
}

/* C++ names: of the functions a name names (overloads, templates,
 * operators, a lambda, a clone), the one with the most period, ties to
 * the one sampled first, whichever way it is found: by the name's last
 * identifier in the raw names, then a lookup of the samples inside
 * (most), or by naming every sample (operators, constructors: the
 * fallback).  The first way looks up only the samples of the functions
 * of that name, not the 40 elsewhere. */
START_TEST(test_find_cxx)
{
	struct dso lib = file_dso(1, fixture_path("libcxxfix.so"));
	struct dso kernel = { .kind = DSO_KERNEL, .id = 2, .pid = -1,
			      .name = "[kernel.kallsyms]" };
	struct symbolizer_stats st;
	struct fake_snap f;
	u64 over_i = cxx_key(&lib, "_ZN5fixns4overEi");
	u64 over_d = cxx_key(&lib, "_ZN5fixns4overEd");
	u64 use = cxx_key(&lib, "_Z10cxxfix_usei");

	memset(&f, 0, sizeof(f));
	fake_add(&f, &lib, over_i, 3);
	fake_add(&f, &lib, over_d + 1, 5);
	fake_add(&f, &lib, cxx_key(&lib, "_ZN5fixns5twiceIlEET_S1_"), 1);
	fake_add(&f, &lib, cxx_key(&lib, "_ZNK5fixns3BoxIiLi3EE3getEi.isra.0"),
		 1);
	fake_add(&f, &lib, cxx_key(&lib, "_ZNK5fixns3CmpltERKS0_"), 1);
	fake_add(&f, &lib,
		 cxx_key(&lib, "_ZZN5fixns6pickerIcEEPFviET_ENUliE_4_FUNEi"), 1);
	/* 2: "fixns::picker<char>" names the lambda inside it too (as
	 * "foo" names "foo(int)"), which has 1 */
	fake_add(&f, &lib, cxx_key(&lib, "_ZN5fixns6pickerIcEEPFviET_.isra.0"),
		 2);
	for (int i = 0; i < 40; i++)	/* elsewhere, 40 addresses */
		fake_add(&f, &lib, use + (u64)i, 1);
	fake_add(&f, &kernel, 0, 1);
	expect_found(&f, "fixns::over", &lib, over_d);
	symbolizer__stats(syms, &st);
	ck_assert_uint_lt(st.resolved, 10);
	/* no kernel function has a C++ name: kallsyms is not read */
	ck_assert(!symbolizer__kernel_read(syms));
	/* one of identifier characters may be: its samples are named */
	expect_found(&f, "_ZN5fixns4overEi", &lib, over_i);
	ck_assert(symbolizer__kernel_read(syms));
	expect_found(&f, "fixns::twice<long>", &lib,
		     cxx_key(&lib, "_ZN5fixns5twiceIlEET_S1_"));
	expect_found(&f, "fixns::Box<int, 3>::get", &lib,
		     cxx_key(&lib, "_ZNK5fixns3BoxIiLi3EE3getEi.isra.0"));
	expect_found(&f, "fixns::picker<char>", &lib,
		     cxx_key(&lib, "_ZN5fixns6pickerIcEEPFviET_.isra.0"));
	expect_found(&f, "fixns::picker<char>(char)::{lambda(int)#1}::_FUN",
		     &lib,
		     cxx_key(&lib, "_ZZN5fixns6pickerIcEEPFviET_ENUliE_4_FUNEi"));
	symbolizer__stats(syms, &st);
	ck_assert_uint_lt(st.resolved, 10);
	/* an operator: every sample named */
	expect_found(&f, "fixns::Cmp::operator<", &lib,
		     cxx_key(&lib, "_ZNK5fixns3CmpltERKS0_"));
	symbolizer__stats(syms, &st);
	ck_assert_uint_ge(st.resolved, 40);
	/* the way that names every sample (an operator) leaves the
	 * kernel's alone too: a fresh symbolizer, kallsyms not read */
	annotator__free(an);
	symbolizer__free(syms);
	syms = symbolizer__new(NULL);
	an = annotator__new(syms, DISASM_ATT);
	expect_found(&f, "fixns::Cmp::operator<", &lib,
		     cxx_key(&lib, "_ZNK5fixns3CmpltERKS0_"));
	ck_assert(!symbolizer__kernel_read(syms));
	/* a tie: the one sampled first, either way */
	for (int first = 0; first < 2; first++) {
		memset(&f, 0, sizeof(f));
		fake_add(&f, &lib, first ? over_i : over_d, 3);
		fake_add(&f, &lib, first ? over_d + 2 : over_i + 2, 3);
		expect_found(&f, "fixns::over", &lib, first ? over_i : over_d);
		fake_add(&f, &lib, over_i, 1);	/* one more: over(int) */
		expect_found(&f, "fixns::over", &lib, over_i);
	}
}
END_TEST

START_TEST(test_errors)
{
	struct dso kernel = { .kind = DSO_KERNEL, .id = 2, .pid = -1,
			      .name = "[kernel.kallsyms]" };
	struct dso gone = file_dso(3, "/nonexistent/ptop/libgone.so");
	struct symbolizer_opts o = { .kcore = "/nonexistent/kcore" };
	struct annotation *a = NULL;
	struct sym_info si;
	struct strbuf why;

	strbuf__init(&why);
	/* no function at an address */
	ck_assert_int_eq(annotator__open(an, &gone, 0x1000, &a, &why),
			 -ENOENT);
	ck_assert_ptr_null(a);
	ck_assert_ptr_nonnull(strstr(why.buf, "nothing to annotate"));
	/* a kernel function without kcore: says what it needs */
	annotator__free(an);
	symbolizer__free(syms);
	syms = symbolizer__new(&o);
	an = annotator__new(syms, DISASM_INTEL);
	ck_assert_int_eq(annotator__syntax(an), DISASM_INTEL);
	ck_assert_int_eq(symbolizer__lookup(syms, &kernel, 0, &si), 0);
	if (symbolizer__kernel_restricted(syms)) {
		strbuf__fini(&why);
		test_skip("kernel addresses are restricted (kptr_restrict)");
	}
	{
		/* any kernel text symbol */
		struct fake_snap f;
		const struct dso *d;
		u64 addr;

		memset(&f, 0, sizeof(f));
		fake_add(&f, &kernel, 0, 1);
		/* readable kallsyms always hold schedule */
		ck_assert_int_eq(annotator__find(an, &f.snap, "schedule", &d,
						 &addr, NULL), 0);
		strbuf__reset(&why);
		ck_assert_int_eq(annotator__open(an, &kernel, addr, &a, &why),
				 -ENOENT);
		ck_assert_ptr_nonnull(strstr(why.buf, "kernel annotation "
						      "needs /proc/kcore"));
	}
	strbuf__fini(&why);
}
END_TEST

/* No symbols at all: .eh_frame bounds, said so. */
START_TEST(test_stripped)
{
	struct dso st = file_dso(4, fixture_path("symfix-stripped"));
	struct annotation *a = NULL;
	struct strbuf why;
	u64 addr, size, key;

	ck_assert(nm_find("symfix-pie.nm", "fix_caller", &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(syms, &st, addr, &key), 0);
	strbuf__init(&why);
	ck_assert_int_eq(annotator__open(an, &st, key, &a, &why), 0);
	ck_assert_ptr_nonnull(strstr(a->notes[0], "no symbols"));
	ck_assert_uint_gt(a->nr, 3);
	ck_assert_int_eq(disasm__at(a->dis, a->nr - 1)->kind, INSN_RET);
	annotation__put(a);
	strbuf__fini(&why);
}
END_TEST

/* Source text, file and symbol names and notes come from outside: no
 * control byte reaches the text or the JSON. */
START_TEST(test_hostile)
{
	static const char evil[] = "x\x1b]52;c;cHduZWQ=\x07\x1b[2J\xc2\x9b"
				   "31m\xe2\x80\xae\n\r\t\x7f y";
	struct annotation *a = open_fn("ann_loop");
	struct ann_fmt fmt = { .value = ANN_PERCENT, .source_value = true };
	struct header_info hi = { .event = evil };
	long call = find_mnemonic(a, INSN_CALL);
	struct strbuf sb;

	for (size_t i = 0; i < a->nr_srcs; i++) {
		free((char *)(uintptr_t)a->srcs[i].text);
		a->srcs[i].text = strdup(evil);
		a->srcs[i].file = evil;
		a->srcs[i].func = evil;
		a->srcs[i].inlined = true;
	}
	a->insns[call].target_name = evil;
	for (size_t i = 0; i < a->nr; i++)
		if (disasm__at(a->dis, i)->rip_rel)
			a->insns[i].target_name = evil;
	a->name = evil;
	a->dso_name = evil;
	a->file = evil;
	snprintf(a->notes[0], sizeof(a->notes[0]), "%s", evil);
	a->nr_notes = 1;
	strbuf__init(&sb);
	for (int mode = 0; mode < ANN__MODES; mode++)
		annotation__text(a, evil, mode, &fmt, &sb);
	annotation__json(a, &hi, &sb);
	ck_assert(!sb.oom);
	for (size_t i = 0; i < sb.len; i++) {
		unsigned char c = (unsigned char)sb.buf[i];

		ck_assert_msg(c == '\n' || (c >= 0x20 && c != 0x7f),
			      "control byte 0x%02x at %zu", c, i);
		ck_assert_msg(!(c == 0xc2 && (unsigned char)sb.buf[i + 1] >= 0x80 &&
				(unsigned char)sb.buf[i + 1] < 0xa0),
			      "a C1 control at %zu", i);
		ck_assert_msg(!(c == 0xe2 && (unsigned char)sb.buf[i + 1] == 0x80 &&
				(unsigned char)sb.buf[i + 2] == 0xae),
			      "a bidi override at %zu", i);
	}
	strbuf__fini(&sb);
	annotation__put(a);
}
END_TEST

/* DWARF names the source relative to where it was compiled: found from
 * anywhere. */
START_TEST(test_relative_source)
{
	char bin[4096], cwd[4096];
	struct dso abs_dso;
	struct annotation *a = NULL;
	struct strbuf why;
	u64 key = key_of("ann_loop", NULL);
	bool text = false;

	ck_assert_ptr_nonnull(realpath(test_fixture("annfix"), bin));
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	abs_dso = file_dso(5, bin);
	ck_assert_int_eq(chdir("/"), 0);
	strbuf__init(&why);
	ck_assert_int_eq(annotator__open(an, &abs_dso, key, &a, &why), 0);
	for (size_t i = 0; i < a->nr_srcs; i++)
		text |= a->srcs[i].text != NULL;
	ck_assert(text);
	for (size_t i = 0; i < a->nr_notes; i++)
		ck_assert_ptr_null(strstr(a->notes[i], "source not found"));
	annotation__put(a);
	strbuf__fini(&why);
	ck_assert_int_eq(chdir(cwd), 0);
}
END_TEST

Suite *annotate_suite(void)
{
	Suite *su = suite_create("annotate");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_open);
	tcase_add_test(tc, test_count);
	tcase_add_test(tc, test_count_folded);
	tcase_add_test(tc, test_count_scope);
	tcase_add_test(tc, test_count_chains);
	tcase_add_test(tc, test_layout_and_text);
	tcase_add_test(tc, test_rip_relative);
	tcase_add_test(tc, test_garbage);
	tcase_add_test(tc, test_find);
	tcase_add_test(tc, test_find_cxx);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_stripped);
	tcase_add_test(tc, test_relative_source);
	tcase_add_test(tc, test_hostile);
	suite_add_tcase(su, tc);
	return su;
}
