/* disasm: machine code -> instructions through capstone (x86-64); a
 * bounded cache of disassembled functions. */
#ifndef PTOP_DISASM_H
#define PTOP_DISASM_H

#include "src/core/util.h"

/*
 * Usage:
 *	d = disasm__new(code, len, vaddr, DISASM_ATT);
 *	for (i = 0; i < disasm__nr(d); i++) {
 *		const struct insn *in = disasm__at(d, i);
 *		... disasm__mnemonic(d, in), disasm__operands(d, in) ...
 *	}
 *	disasm__put(d);
 *
 * Bytes capstone cannot decode become one-byte ".byte 0xNN" entries
 * (kind INSN_BAD) and decoding goes on after them: data in code, a
 * function cut short or garbage never stop it.  An instruction with a
 * %rip-relative memory operand ("mov 0x2ee5(%rip),%eax", "jmp
 * *0x2fe2(%rip)") has the address it refers to as its target, with
 * rip_rel set (capstone's detail: insn address + size + disp).  Pure:
 * no I/O.
 */

enum disasm_syntax {
	DISASM_ATT,		/* perf's and objdump's default */
	DISASM_INTEL,		/* -M intel */
};

enum insn_kind {
	INSN_OTHER,
	INSN_JUMP,		/* unconditional */
	INSN_CJUMP,		/* conditional (jcc, jrcxz, loop, xbegin) */
	INSN_CALL,
	INSN_RET,
	INSN_BAD,		/* undecodable: ".byte 0xNN" */
};

struct insn {
	u64 addr;		/* virtual address */
	u64 target;		/* of a direct jump or call (has_target), or
				 * what a %rip-relative operand refers to
				 * (rip_rel): never both */
	u32 code;		/* offset of its bytes in the code */
	u32 text;		/* offset of its text in the arena */
	u8 size;
	u8 kind;		/* enum insn_kind */
	bool has_target;
	bool rip_rel;
};

struct disasm;

/* code is copied.  NULL with errno set: EINVAL (no bytes or over
 * DISASM_MAX_CODE), ENOMEM, EOPNOTSUPP (capstone without x86). */
#define DISASM_MAX_CODE (16u << 20)
struct disasm *disasm__new(const void *code, size_t len, u64 vaddr,
			   enum disasm_syntax syntax);
struct disasm *disasm__get(struct disasm *d);
void disasm__put(struct disasm *d);	/* NULL: no-op */

size_t disasm__nr(const struct disasm *d);
const struct insn *disasm__at(const struct disasm *d, size_t i);
/* Index of the instruction holding vaddr, or -1. */
long disasm__find(const struct disasm *d, u64 vaddr);
const char *disasm__mnemonic(const struct disasm *d, const struct insn *in);
const char *disasm__operands(const struct disasm *d, const struct insn *in);
const u8 *disasm__bytes(const struct disasm *d, const struct insn *in);
u64 disasm__vaddr(const struct disasm *d);
size_t disasm__len(const struct disasm *d);
size_t disasm__bytes_held(const struct disasm *d);
/* How many entries are ".byte" (undecodable). */
size_t disasm__nr_bad(const struct disasm *d);

/* The pieces, for tests: kind of a capstone mnemonic ("bnd jmp",
 * "callq", "jne", "retq"...), and the target of a direct branch's
 * operands ("0x401136"; "*%rax" and "qword ptr [rip + 8]" have none). */
enum insn_kind disasm__classify(const char *mnemonic);
bool disasm__parse_target(const char *operands, u64 *target);

/*
 * A cache of disassembled functions keyed by the object's identity (a
 * build-id, or any bytes naming it), the start, the length and the
 * syntax; least recently used entries go when max_bytes is passed.  The
 * cache holds a reference; what get returns is the caller's.
 */
struct disasm_key {
	u8 id[24];		/* build-id, or a dso id: zero padded */
	u8 id_size;
	u8 syntax;
	u64 start, len;
};

struct disasm_cache;

struct disasm_cache *disasm_cache__new(size_t max_bytes);
void disasm_cache__free(struct disasm_cache *c);
/* A new reference, or NULL when absent. */
struct disasm *disasm_cache__get(struct disasm_cache *c,
				 const struct disasm_key *k);
/* Adds d (the cache takes its own reference): 0 or -ENOMEM. */
int disasm_cache__add(struct disasm_cache *c, const struct disasm_key *k,
		      struct disasm *d);
size_t disasm_cache__nr(const struct disasm_cache *c);

#endif
