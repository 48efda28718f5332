/* disasm: machine code -> instructions through capstone (x86-64); a
 * bounded cache of disassembled functions. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/cslib.h"
#include "src/core/lru.h"
#include "symbols/disasm.h"

struct disasm {
	unsigned int refs;
	u64 vaddr;
	u8 *code;
	size_t len;
	struct insn *insns;
	size_t nr, cap;
	char *text;		/* "mnemonic\0operands\0" per instruction */
	size_t text_len, text_cap;
	size_t nr_bad;
};

/* The last word: "bnd jmp" -> "jmp", "notrack jmp" -> "jmp". */
static const char *last_word(const char *m)
{
	const char *sp = strrchr(m, ' ');

	return sp ? sp + 1 : m;
}

static bool is_one_of(const char *m, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(m, *list))
			return true;
	return false;
}

enum insn_kind disasm__classify(const char *mnemonic)
{
	static const char *const rets[] = {
		"ret", "retq", "retl", "retw", "lret", "lretq", "lretl",
		"lretw", "iret", "iretq", "iretl", "iretw", "iretd", "sysret",
		"sysretq", "sysretl", "sysexit", "uiret", NULL,
	};
	static const char *const calls[] = {
		"call", "callq", "calll", "callw", "lcall", "lcallq",
		"lcalll", "lcallw", NULL,
	};
	static const char *const jumps[] = {
		"jmp", "jmpq", "jmpl", "jmpw", "ljmp", "ljmpq", "ljmpl",
		"ljmpw", NULL,
	};
	static const char *const cjumps[] = {
		"loop", "loope", "loopne", "loopz", "loopnz", "xbegin", NULL,
	};
	const char *m;

	if (!mnemonic)
		return INSN_OTHER;
	m = last_word(mnemonic);
	if (is_one_of(m, rets))
		return INSN_RET;
	if (is_one_of(m, calls))
		return INSN_CALL;
	if (is_one_of(m, jumps))
		return INSN_JUMP;
	if (is_one_of(m, cjumps) || (m[0] == 'j' && m[1]))
		return INSN_CJUMP;
	return INSN_OTHER;
}

bool disasm__parse_target(const char *ops, u64 *target)
{
	const char *p = ops;
	char *end;
	u64 v;

	if (!ops)
		return false;
	while (*p == ' ')
		p++;
	/* "*%rax", "%rax", "[rip + 8]", "0x10:0x20" (far) have none */
	if (!(p[0] >= '0' && p[0] <= '9'))
		return false;
	errno = 0;
	v = strtoull(p, &end, 0);
	if (errno || end == p)
		return false;
	while (*end == ' ')
		end++;
	if (*end)
		return false;
	*target = v;
	return true;
}

static int add_text(struct disasm *d, const char *m, const char *ops,
		    u32 *off)
{
	size_t ml = strlen(m), ol = strlen(ops), need = ml + ol + 2;

	if (d->text_len + need > UINT32_MAX)
		return -ENOMEM;
	if (array__grow((void **)&d->text, &d->text_cap, d->text_len + need,
			1))
		return -ENOMEM;
	*off = (u32)d->text_len;
	memcpy(d->text + d->text_len, m, ml + 1);
	memcpy(d->text + d->text_len + ml + 1, ops, ol + 1);
	d->text_len += need;
	return 0;
}

static int add_insn(struct disasm *d, u64 addr, size_t code_off, size_t size,
		    const char *m, const char *ops, bool bad)
{
	struct insn *in;

	if (array__grow((void **)&d->insns, &d->cap, d->nr + 1,
			sizeof(*d->insns)))
		return -ENOMEM;
	in = &d->insns[d->nr];
	memset(in, 0, sizeof(*in));
	if (add_text(d, m, ops, &in->text))
		return -ENOMEM;
	in->addr = addr;
	in->code = (u32)code_off;
	in->size = (u8)size;
	if (bad) {
		in->kind = INSN_BAD;
		d->nr_bad++;
	} else {
		in->kind = (u8)disasm__classify(m);
		if (in->kind == INSN_JUMP || in->kind == INSN_CJUMP ||
		    in->kind == INSN_CALL)
			in->has_target = disasm__parse_target(ops, &in->target);
	}
	d->nr++;
	return 0;
}

/*
 * Capstone's detail mode makes every instruction about 30 % slower to
 * decode, and only the few with a %rip operand need it: a second handle,
 * with detail on, decodes those again (opened on the first one).
 */
struct rip_decoder {
	const struct cslib *cs;
	csh h;
	cs_insn *ci;
	bool open;
};

static void rip_decoder__fini(struct rip_decoder *r)
{
	if (r->ci)
		r->cs->free(r->ci, 1);
	if (r->open)
		r->cs->close(&r->h);
}

/* The address a %rip-relative memory operand of in refers to (rip is the
 * address of the next instruction); at most one operand can be, there
 * is one ModRM.  A direct branch keeps its own target.  0 or -ENOMEM. */
static int rip_target(struct rip_decoder *r, struct insn *in,
		      const char *ops, const u8 *code)
{
	const uint8_t *p = code;
	size_t left = in->size;
	uint64_t addr = in->addr;
	const cs_x86 *x;

	if (in->has_target || !strstr(ops, "rip"))
		return 0;
	if (!r->open) {
		if (r->cs->open(CS_ARCH_X86, CS_MODE_64, &r->h) != CS_ERR_OK)
			return -ENOMEM;
		r->open = true;
		r->cs->option(r->h, CS_OPT_DETAIL, CS_OPT_ON);
		r->ci = r->cs->malloc(r->h);
	}
	if (!r->ci)
		return -ENOMEM;
	if (!r->cs->disasm_iter(r->h, &p, &left, &addr, r->ci) ||
	    !r->ci->detail)
		return 0;
	x = &r->ci->detail->x86;
	for (u8 k = 0; k < x->op_count && k < ARRAY_SIZE(x->operands); k++) {
		const cs_x86_op *op = &x->operands[k];

		if (op->type == X86_OP_MEM && op->mem.base == X86_REG_RIP &&
		    op->mem.index == X86_REG_INVALID &&
		    op->mem.segment == X86_REG_INVALID) {
			in->target = in->addr + in->size + (u64)op->mem.disp;
			in->rip_rel = true;
			break;
		}
	}
	return 0;
}

static int decode(struct disasm *d, enum disasm_syntax syntax)
{
	const struct cslib *cs = cslib__get();
	struct rip_decoder rip = { .cs = cs };
	const uint8_t *p = d->code;
	size_t left = d->len;
	uint64_t addr = d->vaddr;
	cs_insn *ci;
	csh h;
	int err = 0;

	if (!cs)
		return -ELIBACC;
	if (cs->open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
		return -EOPNOTSUPP;
	cs->option(h, CS_OPT_SYNTAX, syntax == DISASM_INTEL ?
					     CS_OPT_SYNTAX_INTEL :
					     CS_OPT_SYNTAX_ATT);
	ci = cs->malloc(h);
	if (!ci) {
		cs->close(&h);
		return -ENOMEM;
	}
	while (left && !err) {
		size_t off = (size_t)(p - d->code);

		if (cs->disasm_iter(h, &p, &left, &addr, ci)) {
			err = add_insn(d, ci->address, off, ci->size,
				       ci->mnemonic, ci->op_str, false);
			if (!err)
				err = rip_target(&rip, &d->insns[d->nr - 1],
						 ci->op_str, d->code + off);
			continue;
		}
		/* data in code, or garbage: one byte, then go on */
		{
			char ops[8];

			snprintf(ops, sizeof(ops), "0x%02x", *p);
			err = add_insn(d, addr, off, 1, ".byte", ops, true);
		}
		p++;
		left--;
		addr++;
	}
	rip_decoder__fini(&rip);
	cs->free(ci, 1);
	cs->close(&h);
	return err;
}

struct disasm *disasm__new(const void *code, size_t len, u64 vaddr,
			   enum disasm_syntax syntax)
{
	struct disasm *d;
	int err;

	if (!code || !len || len > DISASM_MAX_CODE ||
	    vaddr > UINT64_MAX - len) {
		errno = EINVAL;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->refs = 1;
	d->vaddr = vaddr;
	d->len = len;
	d->code = malloc(len);
	if (!d->code) {
		err = -ENOMEM;
		goto fail;
	}
	memcpy(d->code, code, len);
	err = decode(d, syntax);
	if (err)
		goto fail;
	return d;
fail:
	d->refs = 1;
	disasm__put(d);
	errno = -err;
	return NULL;
}

struct disasm *disasm__get(struct disasm *d)
{
	if (d)
		d->refs++;
	return d;
}

void disasm__put(struct disasm *d)
{
	if (!d || --d->refs)
		return;
	free(d->code);
	free(d->insns);
	free(d->text);
	free(d);
}

size_t disasm__nr(const struct disasm *d)
{
	return d ? d->nr : 0;
}

const struct insn *disasm__at(const struct disasm *d, size_t i)
{
	return d && i < d->nr ? &d->insns[i] : NULL;
}

long disasm__find(const struct disasm *d, u64 vaddr)
{
	size_t lo = 0, hi;

	if (!d || !d->nr)
		return -1;
	hi = d->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->insns[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	lo--;
	if (vaddr - d->insns[lo].addr >= d->insns[lo].size)
		return -1;
	return (long)lo;
}

const char *disasm__mnemonic(const struct disasm *d, const struct insn *in)
{
	return d->text + in->text;
}

const char *disasm__operands(const struct disasm *d, const struct insn *in)
{
	const char *m = d->text + in->text;

	return m + strlen(m) + 1;
}

const u8 *disasm__bytes(const struct disasm *d, const struct insn *in)
{
	return d->code + in->code;
}

u64 disasm__vaddr(const struct disasm *d)
{
	return d ? d->vaddr : 0;
}

size_t disasm__len(const struct disasm *d)
{
	return d ? d->len : 0;
}

size_t disasm__bytes_held(const struct disasm *d)
{
	if (!d)
		return 0;
	return sizeof(*d) + d->len + d->cap * sizeof(*d->insns) +
	       d->text_cap;
}

size_t disasm__nr_bad(const struct disasm *d)
{
	return d ? d->nr_bad : 0;
}

/* ---- the cache: one bounded LRU (src/core/lru.c) by bytes held ---- */

struct dc_entry {
	struct lru_node node;	/* key: hash of the id and syntax, start */
	struct disasm_key key;
	struct disasm *d;
};

struct disasm_cache {
	struct lru lru;
};

static void dc_evict(void *ctx, struct lru_node *n)
{
	struct dc_entry *e = lru_entry(n, struct dc_entry, node);

	(void)ctx;
	disasm__put(e->d);
	free(e);
}

struct disasm_cache *disasm_cache__new(size_t max_bytes)
{
	struct disasm_cache *c = calloc(1, sizeof(*c));

	/* a bound of 0 bytes keeps the newest only, as before */
	if (c)
		lru__init(&c->lru, max_bytes ? max_bytes : 1, 0, dc_evict, c);
	return c;
}

void disasm_cache__free(struct disasm_cache *c)
{
	if (!c)
		return;
	lru__fini(&c->lru);
	free(c);
}

static bool key_eq(const struct disasm_key *a, const struct disasm_key *b)
{
	return a->id_size == b->id_size && a->syntax == b->syntax &&
	       a->start == b->start && a->len == b->len &&
	       !memcmp(a->id, b->id, a->id_size);
}

/* The LRU's two words of a key: what tells functions apart most cheaply
 * (a collision is told apart by key_eq). */
static u64 key_hash(const struct disasm_key *k)
{
	u64 h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (size_t i = 0; i < k->id_size && i < sizeof(k->id); i++)
		h = (h ^ k->id[i]) * 0x100000001b3ULL;
	h = (h ^ k->syntax) * 0x100000001b3ULL;
	return (h ^ k->len) * 0x100000001b3ULL;
}

struct disasm *disasm_cache__get(struct disasm_cache *c,
				 const struct disasm_key *k)
{
	struct lru_node *n;
	struct dc_entry *e;

	if (!c || !k)
		return NULL;
	n = lru__find(&c->lru, key_hash(k), k->start);
	if (!n)
		return NULL;
	e = lru_entry(n, struct dc_entry, node);
	return key_eq(&e->key, k) ? disasm__get(e->d) : NULL;
}

int disasm_cache__add(struct disasm_cache *c, const struct disasm_key *k,
		      struct disasm *d)
{
	struct lru_node *old;
	struct dc_entry *e;

	if (!c || !k || !d)
		return -EINVAL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->key = *k;
	e->node.key[0] = key_hash(k);
	e->node.key[1] = k->start;
	e->node.cost = disasm__bytes_held(d);
	/* the same words for another key: the newer one replaces it */
	old = lru__peek(&c->lru, e->node.key[0], e->node.key[1]);
	if (old) {
		lru__remove(&c->lru, old);
		dc_evict(c, old);
	}
	if (lru__insert(&c->lru, &e->node)) {
		free(e);
		return -ENOMEM;
	}
	e->d = disasm__get(d);
	return 0;
}

size_t disasm_cache__nr(const struct disasm_cache *c)
{
	return c ? lru__count(&c->lru) : 0;
}
