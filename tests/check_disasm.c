/* check_disasm: capstone's decoding of a function built by the tests,
 * compared with objdump's listing of the same file; branch kinds and
 * targets, %rip-relative operands' addresses; undecodable bytes; the
 * cache. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/disasm.h"
#include "tests/fixtures/symtest.h"
#include "symbols/symbolizer.h"

/* One line of objdump -d: "    113d:\tpush   %rbp". */
struct od_insn {
	u64 addr;
	char mnem[32];
	u64 target;
	bool has_target;
	u64 rip;		/* "# 4018 <annfix_sink>": a %rip operand's */
	bool has_rip;
};

/* objdump's instructions of func (in annfix.objdump); returns the count. */
static size_t objdump_func(const char *func, struct od_insn *out, size_t max)
{
	FILE *f = fopen(test_fixture("annfix.objdump"), "r");
	char line[512], head[128];
	bool in = false;
	size_t n = 0;

	ck_assert_ptr_nonnull(f);
	snprintf(head, sizeof(head), "<%s>:", func);
	while (fgets(line, sizeof(line), f) && n < max) {
		unsigned long long a, t;
		char m[32];
		const char *tab, *hash;

		if (strstr(line, head)) {
			in = true;
			continue;
		}
		if (!in)
			continue;
		if (line[0] == '\n')
			break;
		if (sscanf(line, " %llx:", &a) != 1)
			continue;
		tab = strchr(line, '\t');
		if (!tab || sscanf(tab + 1, "%31s", m) != 1)
			continue;
		out[n].addr = a;
		snprintf(out[n].mnem, sizeof(out[n].mnem), "%s", m);
		out[n].has_target = false;
		hash = strchr(tab, '#');
		out[n].has_rip = hash && sscanf(hash, "# %llx", &t) == 1;
		if (out[n].has_rip)
			out[n].rip = t;
		if (strchr(tab, '<') && !hash &&
		    sscanf(tab + 1 + strlen(m), " %llx <", &t) == 1) {
			out[n].target = t;
			out[n].has_target = true;
		}
		n++;
	}
	fclose(f);
	return n;
}

/* The bytes of func in annfix, read the way annotate reads them. */
static u8 *func_code(const char *func, u64 *vaddr, size_t *len)
{
	struct dso d = file_dso(0, fixture_path("annfix"));
	struct symbolizer *s = symbolizer__new(NULL);
	u64 addr, size, off;
	u8 *buf;

	ck_assert_ptr_nonnull(s);
	ck_assert(nm_find("annfix.nm", func, &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &d, addr, &off), 0);
	buf = malloc(size);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(symbolizer__read_code(s, &d, off, buf, size),
			 (long)size);
	symbolizer__free(s);
	*vaddr = addr;
	*len = size;
	return buf;
}

/* capstone writes AT&T size suffixes objdump leaves out ("pushq"). */
static bool same_mnemonic(const char *cs, const char *od)
{
	size_t n = strlen(od);

	if (!strcmp(cs, od))
		return true;
	return !strncmp(cs, od, n) && strlen(cs) == n + 1 &&
	       strchr("qlwb", cs[n]);
}

START_TEST(test_like_objdump)
{
	struct od_insn od[128];
	size_t n = objdump_func("ann_loop", od, 128), len, calls = 0,
	       rips = 0;
	u64 vaddr, sink, sink_size;
	u8 *code = func_code("ann_loop", &vaddr, &len);
	struct disasm *d = disasm__new(code, len, vaddr, DISASM_ATT);

	ck_assert_ptr_nonnull(d);
	ck_assert_uint_gt(n, 10);
	ck_assert_uint_eq(disasm__nr(d), n);
	ck_assert_uint_eq(disasm__nr_bad(d), 0);
	ck_assert_uint_eq(disasm__vaddr(d), vaddr);
	ck_assert_uint_eq(disasm__len(d), len);
	for (size_t i = 0; i < n; i++) {
		const struct insn *in = disasm__at(d, i);
		const char *m = disasm__mnemonic(d, in);

		ck_assert_uint_eq(in->addr, od[i].addr);
		ck_assert_msg(same_mnemonic(m, od[i].mnem), "%s vs %s", m,
			      od[i].mnem);
		ck_assert_int_eq(in->has_target, od[i].has_target);
		if (od[i].has_target)
			ck_assert_uint_eq(in->target, od[i].target);
		/* %rip-relative: the address objdump's comment gives */
		ck_assert_msg(in->rip_rel == od[i].has_rip, "at %llx",
			      (unsigned long long)in->addr);
		ck_assert(!(in->rip_rel && in->has_target));
		if (od[i].has_rip) {
			ck_assert_uint_eq(in->target, od[i].rip);
			rips++;
		}
		ck_assert_mem_eq(disasm__bytes(d, in),
				 code + (in->addr - vaddr), in->size);
		if (in->kind == INSN_CALL) {
			u64 helper, sz;

			ck_assert(nm_find("annfix.nm", "ann_helper", &helper,
					  &sz));
			ck_assert_uint_eq(in->target, helper);
			calls++;
		}
		/* every instruction is found by any of its bytes */
		ck_assert_int_eq(disasm__find(d, in->addr), (long)i);
		ck_assert_int_eq(disasm__find(d, in->addr + in->size - 1),
				 (long)i);
	}
	ck_assert_uint_eq(calls, 1);
	/* ann_loop stores annfix_sink */
	ck_assert(nm_find("annfix.nm", "annfix_sink", &sink, &sink_size));
	ck_assert_uint_ge(rips, 1);
	for (size_t i = 0; i < n; i++)
		if (disasm__at(d, i)->rip_rel)
			ck_assert_uint_eq(disasm__at(d, i)->target, sink);
	ck_assert_int_eq(disasm__at(d, n - 1)->kind, INSN_JUMP);
	ck_assert_int_eq(disasm__find(d, vaddr - 1), -1);
	ck_assert_int_eq(disasm__find(d, vaddr + len), -1);
	ck_assert_ptr_null(disasm__at(d, n));
	disasm__put(d);
	free(code);
}
END_TEST

START_TEST(test_intel)
{
	size_t len;
	u64 vaddr;
	u8 *code = func_code("ann_loop", &vaddr, &len);
	struct disasm *d = disasm__new(code, len, vaddr, DISASM_INTEL);
	struct disasm *att = disasm__new(code, len, vaddr, DISASM_ATT);
	const struct insn *in;

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(att);
	/* the same %rip-relative addresses in either syntax */
	ck_assert_uint_eq(disasm__nr(d), disasm__nr(att));
	for (size_t i = 0; i < disasm__nr(d); i++) {
		in = disasm__at(d, i);
		ck_assert_int_eq(in->rip_rel, disasm__at(att, i)->rip_rel);
		ck_assert_uint_eq(in->target, disasm__at(att, i)->target);
		if (in->rip_rel)
			ck_assert_ptr_nonnull(strstr(disasm__operands(d, in),
						     "[rip + 0x"));
	}
	disasm__put(att);
	/* push %rbp; mov %rsp,%rbp */
	in = disasm__at(d, 1);
	ck_assert_str_eq(disasm__mnemonic(d, in), "mov");
	ck_assert_str_eq(disasm__operands(d, in), "rbp, rsp");
	for (size_t i = 0; i < disasm__nr(d); i++) {
		in = disasm__at(d, i);
		if (in->kind == INSN_CALL) {
			ck_assert_str_eq(disasm__mnemonic(d, in), "call");
			ck_assert(in->has_target);
		}
	}
	disasm__put(d);
	free(code);
}
END_TEST

/* Data in code: .byte entries, then decoding goes on. */
START_TEST(test_garbage)
{
	size_t len;
	u64 vaddr;
	u8 *code = func_code("ann_garbage", &vaddr, &len);
	struct disasm *d = disasm__new(code, len, vaddr, DISASM_ATT);

	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(disasm__nr(d), 4);
	ck_assert_uint_eq(disasm__nr_bad(d), 2);
	ck_assert_str_eq(disasm__mnemonic(d, disasm__at(d, 0)), ".byte");
	ck_assert_str_eq(disasm__operands(d, disasm__at(d, 0)), "0x06");
	ck_assert_int_eq(disasm__at(d, 0)->kind, INSN_BAD);
	ck_assert_str_eq(disasm__operands(d, disasm__at(d, 1)), "0x07");
	ck_assert_str_eq(disasm__mnemonic(d, disasm__at(d, 2)), "ud2");
	ck_assert_uint_eq(disasm__at(d, 2)->addr, vaddr + 2);
	ck_assert_int_eq(disasm__at(d, 3)->kind, INSN_RET);
	disasm__put(d);
	free(code);
}
END_TEST

/* Random bytes: never a crash, every byte covered once, in order. */
START_TEST(test_random)
{
	size_t len = 64 * 1024;
	u8 *buf = malloc(len);
	u64 state = 0x12345678;
	struct disasm *d;
	u64 next;

	ck_assert_ptr_nonnull(buf);
	for (size_t i = 0; i < len; i++) {
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		buf[i] = (u8)(state >> 56);
	}
	for (int syn = 0; syn < 2; syn++) {
		d = disasm__new(buf, len, 0xffffffff81000000ull, syn);
		ck_assert_ptr_nonnull(d);
		next = 0xffffffff81000000ull;
		/* one assertion per instruction was 60000 system calls (each
		 * passing ck_assert tells the runner where it is): over the
		 * timeout on a loaded machine; the first bad one is named */
		for (size_t i = 0; i < disasm__nr(d); i++) {
			const struct insn *in = disasm__at(d, i);

			if (in->addr != next || in->size < 1 || in->size > 15)
				ck_assert_msg(0, "insn %zu: addr %#llx (want "
					      "%#llx), size %u", i,
					      (unsigned long long)in->addr,
					      (unsigned long long)next,
					      (unsigned)in->size);
			next += in->size;
		}
		ck_assert_uint_eq(next, 0xffffffff81000000ull + len);
		ck_assert_uint_gt(disasm__nr_bad(d), 0);
		disasm__put(d);
	}
	/* a branch cut in its middle at the end */
	d = disasm__new("\x90\xe8\x01", 3, 0x1000, DISASM_ATT);
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(disasm__nr(d), 3);
	ck_assert_str_eq(disasm__mnemonic(d, disasm__at(d, 1)), ".byte");
	disasm__put(d);
	free(buf);
}
END_TEST

/* %rip-relative operands: rip is the next instruction's address. */
START_TEST(test_rip_relative)
{
	static const struct {
		const char *bytes;
		size_t len;
		bool rip;
		u64 target;
	} cases[] = {
		/* mov 0x10(%rip),%eax */
		{ "\x8b\x05\x10\x00\x00\x00", 6, true, 0x1016 },
		/* lea -0x7(%rip),%rdi: itself */
		{ "\x48\x8d\x3d\xf9\xff\xff\xff", 7, true, 0x1000 },
		/* jmp *0x2fe2(%rip) (a PLT stub), then movl $1,0x8(%rip):
		 * the immediate comes after the displacement */
		{ "\xff\x25\xe2\x2f\x00\x00", 6, true, 0x3fe8 },
		{ "\xc7\x05\x08\x00\x00\x00\x01\x00\x00\x00", 10, true,
		  0x1012 },
		/* mov 0x10(%rax),%eax; call 0x1010 (direct: its own
		 * target); mov %fs:0x0,%rax */
		{ "\x8b\x40\x10", 3, false, 0 },
		{ "\xe8\x0b\x00\x00\x00", 5, false, 0x1010 },
		{ "\x64\x48\x8b\x04\x25\x00\x00\x00\x00", 9, false, 0 },
	};

	for (int syn = 0; syn < 2; syn++) {
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
			struct disasm *d = disasm__new(cases[i].bytes,
						       cases[i].len, 0x1000,
						       syn);
			const struct insn *in;

			ck_assert_ptr_nonnull(d);
			ck_assert_uint_eq(disasm__nr(d), 1);
			in = disasm__at(d, 0);
			ck_assert_msg(in->rip_rel == cases[i].rip, "case %zu",
				      i);
			if (in->rip_rel || in->has_target)
				ck_assert_uint_eq(in->target, cases[i].target);
			disasm__put(d);
		}
	}
}
END_TEST

START_TEST(test_bad_args)
{
	errno = 0;
	ck_assert_ptr_null(disasm__new("", 0, 0, DISASM_ATT));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(disasm__new(NULL, 4, 0, DISASM_ATT));
	ck_assert_ptr_null(disasm__new("\x90", 1, UINT64_MAX, DISASM_ATT));
	disasm__put(NULL);
	ck_assert_uint_eq(disasm__nr(NULL), 0);
	ck_assert_int_eq(disasm__find(NULL, 0), -1);
}
END_TEST

START_TEST(test_classify)
{
	static const struct {
		const char *m;
		enum insn_kind k;
	} cases[] = {
		{ "jmp", INSN_JUMP }, { "jmpq", INSN_JUMP },
		{ "bnd jmp", INSN_JUMP }, { "notrack jmp", INSN_JUMP },
		{ "ljmp", INSN_JUMP }, { "je", INSN_CJUMP },
		{ "jne", INSN_CJUMP }, { "jrcxz", INSN_CJUMP },
		{ "loop", INSN_CJUMP }, { "loopne", INSN_CJUMP },
		{ "xbegin", INSN_CJUMP }, { "bnd jae", INSN_CJUMP },
		{ "call", INSN_CALL }, { "callq", INSN_CALL },
		{ "lcall", INSN_CALL }, { "bnd call", INSN_CALL },
		{ "ret", INSN_RET }, { "retq", INSN_RET },
		{ "bnd ret", INSN_RET }, { "iretq", INSN_RET },
		{ "mov", INSN_OTHER }, { "j", INSN_OTHER },
		{ "syscall", INSN_OTHER }, { "", INSN_OTHER },
		{ "rep stosq", INSN_OTHER }, { ".byte", INSN_OTHER },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		ck_assert_msg(disasm__classify(cases[i].m) == cases[i].k,
			      "%s", cases[i].m);
	ck_assert_int_eq(disasm__classify(NULL), INSN_OTHER);
}
END_TEST

START_TEST(test_parse_target)
{
	static const struct {
		const char *ops;
		bool ok;
		u64 t;
	} cases[] = {
		{ "0x401136", true, 0x401136 },
		{ "0xffffffff81000000", true, 0xffffffff81000000ull },
		{ "9", true, 9 },
		{ " 0x10", true, 0x10 },
		{ "*%rax", false, 0 },
		{ "*0x10(%rip)", false, 0 },
		{ "%rax", false, 0 },
		{ "rax", false, 0 },
		{ "qword ptr [rip + 0x10]", false, 0 },
		{ "0x10:0x20", false, 0 },
		{ "$8", false, 0 },
		{ "", false, 0 },
		{ "0x", false, 0 },
		{ "0x1ffffffffffffffff", false, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		u64 t = 0;

		ck_assert_msg(disasm__parse_target(cases[i].ops, &t) ==
				      cases[i].ok,
			      "'%s'", cases[i].ops);
		if (cases[i].ok)
			ck_assert_uint_eq(t, cases[i].t);
	}
	ck_assert(!disasm__parse_target(NULL, NULL));
}
END_TEST

START_TEST(test_cache)
{
	struct disasm_cache *c = disasm_cache__new(1);	/* keeps one */
	struct disasm_key k1 = { .id = { 1, 2, 3 }, .id_size = 3,
				 .start = 0x1000, .len = 2 };
	struct disasm_key k2 = k1, k3 = k1;
	struct disasm *a = disasm__new("\x90\xc3", 2, 0x1000, DISASM_ATT);
	struct disasm *b = disasm__new("\x90\xc3", 2, 0x2000, DISASM_ATT);
	struct disasm *got;

	ck_assert_ptr_nonnull(c);
	k2.start = 0x2000;
	k3.syntax = DISASM_INTEL;
	ck_assert_ptr_null(disasm_cache__get(c, &k1));
	ck_assert_int_eq(disasm_cache__add(c, &k1, a), 0);
	got = disasm_cache__get(c, &k1);
	ck_assert_ptr_eq(got, a);
	disasm__put(got);
	ck_assert_ptr_null(disasm_cache__get(c, &k3));
	/* over the bound: the least recently used goes, the caller's
	 * reference stays good */
	ck_assert_int_eq(disasm_cache__add(c, &k2, b), 0);
	ck_assert_uint_eq(disasm_cache__nr(c), 1);
	ck_assert_ptr_null(disasm_cache__get(c, &k1));
	ck_assert_uint_eq(disasm__nr(a), 2);
	got = disasm_cache__get(c, &k2);
	ck_assert_ptr_eq(got, b);
	disasm__put(got);
	disasm__put(a);
	disasm__put(b);
	disasm_cache__free(c);
	disasm_cache__free(NULL);
}
END_TEST

Suite *disasm_suite(void)
{
	Suite *su = suite_create("disasm");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_like_objdump);
	tcase_add_test(tc, test_intel);
	tcase_add_test(tc, test_garbage);
	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_rip_relative);
	tcase_add_test(tc, test_bad_args);
	tcase_add_test(tc, test_classify);
	tcase_add_test(tc, test_parse_target);
	tcase_add_test(tc, test_cache);
	suite_add_tcase(su, tc);
	return su;
}
