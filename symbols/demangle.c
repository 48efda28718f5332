/* demangle: C++ (Itanium), Rust legacy and Rust v0 names to display form. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/demangle.h"

/* libstdc++ (linked for this alone, see doc/design.md) */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len,
			    int *status);
/* libiberty's (libiberty-dev, static; its demangle.h is not included: its
 * ansidecl.h redefines ARRAY_SIZE) */
extern char *cplus_demangle(const char *mangled, int options);
#define DMGL_NO_OPTS 0
#define DMGL_PARAMS (1 << 0)
#define DMGL_ANSI (1 << 1)

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* ---- Rust legacy: _ZN 3foo 3bar 17h0123456789abcdef E ---- */

static bool rust_hash(const char *s, size_t len)
{
	if (len != 17 || s[0] != 'h')
		return false;
	for (size_t i = 1; i < 17; i++)
		if (!is_hex(s[i]))
			return false;
	return true;
}

static const struct {
	const char *code;
	char c;
} rust_escapes[] = {
	{ "SP", '@' }, { "BP", '*' }, { "RF", '&' }, { "LT", '<' },
	{ "GT", '>' }, { "LP", '(' }, { "RP", ')' }, { "C", ',' },
};

/* Decodes one path component; false if it is not Rust's encoding. */
static bool rust_component(const char *s, size_t len, struct strbuf *out)
{
	size_t i = 0;

	if (len >= 2 && s[0] == '_' && s[1] == '$')
		i = 1;
	while (i < len) {
		if (s[i] == '$') {
			const char *end = memchr(s + i + 1, '$', len - i - 1);
			size_t n, k;

			if (!end)
				return false;
			n = (size_t)(end - (s + i + 1));
			for (k = 0; k < ARRAY_SIZE(rust_escapes); k++)
				if (strlen(rust_escapes[k].code) == n &&
				    !memcmp(rust_escapes[k].code, s + i + 1, n))
					break;
			if (k < ARRAY_SIZE(rust_escapes)) {
				strbuf__addc(out, rust_escapes[k].c);
			} else if (n >= 2 && n <= 3 && s[i + 1] == 'u') {
				unsigned int v = 0;

				for (size_t j = i + 2; j < i + 1 + n; j++) {
					char h = s[j];

					if (!is_hex(h))
						return false;
					v = v * 16 + (unsigned int)(is_digit(h)
						? h - '0' : h - 'a' + 10);
				}
				/* printable ASCII only: a name is no place for
				 * control bytes */
				if (v < 0x20 || v > 0x7e)
					return false;
				strbuf__addc(out, (char)v);
			} else {
				return false;
			}
			i += n + 2;
		} else if (s[i] == '.' && i + 1 < len && s[i + 1] == '.') {
			strbuf__adds(out, "::");
			i += 2;
		} else {
			char c = s[i];

			if (!(c == '_' || c == '.' || is_digit(c) ||
			      (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
				return false;
			strbuf__addc(out, c);
			i++;
		}
	}
	return true;
}

/* Returns 1 if raw was a Rust legacy name (out holds the result), 0 if
 * not (out is then garbage). */
static int rust_legacy(const char *raw, struct strbuf *out)
{
	const char *p = raw, *last = NULL;
	size_t last_len = 0, n = 0;

	if (!strncmp(p, "__ZN", 4))
		p++;
	if (strncmp(p, "_ZN", 3))
		return 0;
	p += 3;
	/* first pass: find the last component, which must be the hash */
	for (const char *q = p; *q != 'E'; n++) {
		size_t len = 0;

		if (!is_digit(*q))
			return 0;
		while (is_digit(*q)) {
			len = len * 10 + (size_t)(*q++ - '0');
			if (len > DEMANGLE_MAX_IN)
				return 0;
		}
		if (!len || strnlen(q, len) < len)
			return 0;
		last = q;
		last_len = len;
		q += len;
		if (*q == 'E' && q[1] != '\0' && q[1] != '.')
			return 0;
	}
	if (n < 2 || !rust_hash(last, last_len))
		return 0;
	strbuf__reset(out);
	for (size_t i = 0; i + 1 < n; i++) {
		size_t len = 0;

		while (is_digit(*p))
			len = len * 10 + (size_t)(*p++ - '0');
		if (i)
			strbuf__adds(out, "::");
		if (!rust_component(p, len, out))
			return 0;
		p += len;
	}
	return 1;
}

/* ---- Rust v0: _R <path> [<instantiating-crate>] ---- */

#define V0_MAX_DEPTH 200
#define V0_MAX_STEPS 200000

struct v0 {
	const char *s;
	size_t len, pos;
	unsigned int depth;
	unsigned int steps;
	unsigned int skip;	/* > 0: parse without printing */
	bool err;
	struct strbuf *out;
};

static char v0_peek(const struct v0 *p)
{
	return p->pos < p->len ? p->s[p->pos] : '\0';
}

static bool v0_eat(struct v0 *p, char c)
{
	if (v0_peek(p) != c)
		return false;
	p->pos++;
	return true;
}

static char v0_next(struct v0 *p)
{
	if (p->pos >= p->len) {
		p->err = true;
		return '\0';
	}
	return p->s[p->pos++];
}

static void v0_print(struct v0 *p, const char *s, size_t n)
{
	if (p->skip || p->err)
		return;
	if (p->out->len + n > DEMANGLE_MAX_OUT) {
		p->err = true;
		return;
	}
	strbuf__add(p->out, s, n);
}

static void v0_prints(struct v0 *p, const char *s)
{
	v0_print(p, s, strlen(s));
}

static bool v0_enter(struct v0 *p)
{
	if (p->err || ++p->depth > V0_MAX_DEPTH || ++p->steps > V0_MAX_STEPS) {
		p->err = true;
		return false;
	}
	return true;
}

static u64 v0_base62(struct v0 *p)
{
	u64 v = 0;

	if (v0_eat(p, '_'))
		return 0;
	for (;;) {
		char c = v0_next(p);
		unsigned int d;

		if (c == '_')
			break;
		if (is_digit(c))
			d = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'z')
			d = 10 + (unsigned int)(c - 'a');
		else if (c >= 'A' && c <= 'Z')
			d = 36 + (unsigned int)(c - 'A');
		else {
			p->err = true;
			return 0;
		}
		if (v > (UINT64_MAX - d) / 62) {
			p->err = true;
			return 0;
		}
		v = v * 62 + d;
	}
	if (v == UINT64_MAX) {
		p->err = true;
		return 0;
	}
	return v + 1;
}

static u64 v0_opt_base62(struct v0 *p, char tag)
{
	return v0_eat(p, tag) ? v0_base62(p) + 1 : 0;
}

static u64 v0_decimal(struct v0 *p)
{
	u64 v = 0;

	if (!is_digit(v0_peek(p))) {
		p->err = true;
		return 0;
	}
	if (v0_eat(p, '0'))
		return 0;
	while (is_digit(v0_peek(p))) {
		unsigned int d = (unsigned int)(v0_next(p) - '0');

		if (v > (UINT64_MAX - d) / 10) {
			p->err = true;
			return 0;
		}
		v = v * 10 + d;
	}
	return v;
}

struct v0_ident {
	const char *s;
	size_t len;
	bool punycode;
};

static struct v0_ident v0_undis_ident(struct v0 *p)
{
	struct v0_ident id = { 0 };
	u64 len;

	id.punycode = v0_eat(p, 'u');
	len = v0_decimal(p);
	v0_eat(p, '_');
	if (p->err || len > p->len - p->pos) {
		p->err = true;
		return id;
	}
	id.s = p->s + p->pos;
	id.len = (size_t)len;
	p->pos += (size_t)len;
	return id;
}

static void v0_print_ident(struct v0 *p, struct v0_ident id)
{
	if (id.punycode) {
		/* not decoded: shown as the compiler wrote it */
		v0_prints(p, "punycode{");
		v0_print(p, id.s, id.len);
		v0_prints(p, "}");
	} else {
		v0_print(p, id.s, id.len);
	}
}

static void v0_path(struct v0 *p, bool in_value);
static void v0_type(struct v0 *p);

/* Runs fn at the position a backref points to, then comes back. */
static void v0_backref(struct v0 *p, void (*fn)(struct v0 *, bool), bool arg,
		       void (*tfn)(struct v0 *))
{
	size_t tag = p->pos - 1, save;
	u64 target = v0_base62(p);

	/* Offsets count from after "_R"; rustc's rule: a backref points
	 * strictly before itself, which also rules out loops. */
	if (p->err || target >= tag - 2) {
		p->err = true;
		return;
	}
	save = p->pos;
	p->pos = (size_t)target + 2;
	if (fn)
		fn(p, arg);
	else
		tfn(p);
	p->pos = save;
}

static void v0_lifetime_print(struct v0 *p)
{
	v0_base62(p);
	v0_prints(p, "'_");
}

static void v0_const(struct v0 *p)
{
	char t, buf[40];
	const char *hex;
	size_t n = 0;
	bool neg;
	u64 v = 0;

	if (!v0_enter(p))
		return;
	t = v0_next(p);
	if (t == 'p') {
		v0_prints(p, "_");
		goto out;
	}
	if (t == 'B') {
		p->depth--;
		v0_backref(p, NULL, false, v0_const);
		return;
	}
	if (!t || !strchr("hmtyojasnxlibc", t)) {
		p->err = true;
		goto out;
	}
	neg = v0_eat(p, 'n');
	hex = p->s + p->pos;
	while (is_hex(v0_peek(p))) {
		p->pos++;
		n++;
	}
	if (!v0_eat(p, '_')) {
		p->err = true;
		goto out;
	}
	for (size_t i = 0; i < n && i < 16; i++)
		v = v * 16 + (u64)(is_digit(hex[i]) ? hex[i] - '0' :
						       hex[i] - 'a' + 10);
	if (t == 'b') {
		v0_prints(p, v ? "true" : "false");
	} else if (t == 'c') {
		if (v >= 0x20 && v < 0x7f && v != '\'' && v != '\\')
			snprintf(buf, sizeof(buf), "'%c'", (char)v);
		else
			snprintf(buf, sizeof(buf), "'\\u{%" PRIx64 "}'", v);
		v0_prints(p, buf);
	} else if (n > 16) {
		v0_prints(p, neg ? "-0x" : "0x");
		v0_print(p, hex, n);
	} else {
		snprintf(buf, sizeof(buf), "%s%" PRIu64, neg ? "-" : "", v);
		v0_prints(p, buf);
	}
out:
	p->depth--;
}

static void v0_generic_arg(struct v0 *p)
{
	if (v0_eat(p, 'L'))
		v0_lifetime_print(p);
	else if (v0_eat(p, 'K'))
		v0_const(p);
	else
		v0_type(p);
}

static const char *v0_basic(char c)
{
	switch (c) {
	case 'a': return "i8";
	case 'b': return "bool";
	case 'c': return "char";
	case 'd': return "f64";
	case 'e': return "str";
	case 'f': return "f32";
	case 'h': return "u8";
	case 'i': return "isize";
	case 'j': return "usize";
	case 'l': return "i32";
	case 'm': return "u32";
	case 'n': return "i128";
	case 'o': return "u128";
	case 'p': return "_";
	case 's': return "i16";
	case 't': return "u16";
	case 'u': return "()";
	case 'v': return "...";
	case 'x': return "i64";
	case 'y': return "u64";
	case 'z': return "!";
	default: return NULL;
	}
}

static void v0_fn_sig(struct v0 *p)
{
	bool first = true;

	v0_opt_base62(p, 'G');
	if (v0_eat(p, 'U'))
		v0_prints(p, "unsafe ");
	if (v0_eat(p, 'K')) {
		v0_prints(p, "extern \"");
		if (v0_eat(p, 'C')) {
			v0_prints(p, "C");
		} else {
			struct v0_ident id = v0_undis_ident(p);

			for (size_t i = 0; i < id.len && !p->err; i++)
				v0_print(p, id.s[i] == '_' ? "-" : &id.s[i], 1);
		}
		v0_prints(p, "\" ");
	}
	v0_prints(p, "fn(");
	while (!p->err && !v0_eat(p, 'E')) {
		if (!first)
			v0_prints(p, ", ");
		first = false;
		v0_type(p);
	}
	v0_prints(p, ")");
	if (v0_eat(p, 'u'))
		return;
	v0_prints(p, " -> ");
	v0_type(p);
}

static void v0_dyn(struct v0 *p)
{
	bool first = true;

	v0_opt_base62(p, 'G');
	v0_prints(p, "dyn ");
	while (!p->err && !v0_eat(p, 'E')) {
		bool open = false;
		size_t n = 0;

		if (!first)
			v0_prints(p, " + ");
		first = false;
		/* Trait<Args, Assoc = T>: the bindings join the generic
		 * arguments' list, so that list is printed here */
		if (v0_eat(p, 'I')) {
			if (!v0_enter(p))
				return;
			v0_path(p, false);
			v0_prints(p, "<");
			open = true;
			while (!p->err && !v0_eat(p, 'E')) {
				if (n++)
					v0_prints(p, ", ");
				v0_generic_arg(p);
			}
			p->depth--;
		} else {
			v0_path(p, false);
		}
		while (!p->err && v0_eat(p, 'p')) {
			struct v0_ident id = v0_undis_ident(p);

			v0_prints(p, !open ? "<" : n ? ", " : "");
			open = true;
			n++;
			v0_print(p, id.s, id.len);
			v0_prints(p, " = ");
			v0_type(p);
		}
		if (open)
			v0_prints(p, ">");
	}
	if (v0_eat(p, 'L'))
		v0_base62(p);
	else
		p->err = true;
}

static void v0_type(struct v0 *p)
{
	const char *basic;
	char c;

	if (!v0_enter(p))
		return;
	c = v0_peek(p);
	basic = v0_basic(c);
	if (basic) {
		p->pos++;
		v0_prints(p, basic);
		goto out;
	}
	switch (c) {
	case 'A':
	case 'S':
		p->pos++;
		v0_prints(p, "[");
		v0_type(p);
		if (c == 'A') {
			v0_prints(p, "; ");
			v0_const(p);
		}
		v0_prints(p, "]");
		break;
	case 'T': {
		size_t n = 0;

		p->pos++;
		v0_prints(p, "(");
		while (!p->err && !v0_eat(p, 'E')) {
			if (n++)
				v0_prints(p, ", ");
			v0_type(p);
		}
		v0_prints(p, n == 1 ? ",)" : ")");
		break;
	}
	case 'R':
	case 'Q':
		p->pos++;
		v0_prints(p, "&");
		if (v0_eat(p, 'L')) {
			v0_lifetime_print(p);
			v0_prints(p, " ");
		}
		if (c == 'Q')
			v0_prints(p, "mut ");
		v0_type(p);
		break;
	case 'P':
	case 'O':
		p->pos++;
		v0_prints(p, c == 'P' ? "*const " : "*mut ");
		v0_type(p);
		break;
	case 'F':
		p->pos++;
		v0_fn_sig(p);
		break;
	case 'D':
		p->pos++;
		v0_dyn(p);
		break;
	case 'B':
		p->pos++;
		v0_backref(p, NULL, false, v0_type);
		break;
	default:
		v0_path(p, false);
		break;
	}
out:
	p->depth--;
}

static void v0_path(struct v0 *p, bool in_value)
{
	char c, ns;
	struct v0_ident id;
	u64 dis;

	if (!v0_enter(p))
		return;
	c = v0_next(p);
	switch (c) {
	case 'C':
		v0_opt_base62(p, 's');
		v0_print_ident(p, v0_undis_ident(p));
		break;
	case 'N':
		ns = v0_next(p);
		if (!((ns >= 'a' && ns <= 'z') || (ns >= 'A' && ns <= 'Z'))) {
			p->err = true;
			break;
		}
		v0_path(p, in_value);
		dis = v0_opt_base62(p, 's');
		id = v0_undis_ident(p);
		if (ns >= 'A' && ns <= 'Z') {
			char buf[32];

			v0_prints(p, "::{");
			if (ns == 'C')
				v0_prints(p, "closure");
			else if (ns == 'S')
				v0_prints(p, "shim");
			else
				v0_print(p, &ns, 1);
			if (id.len) {
				v0_prints(p, ":");
				v0_print_ident(p, id);
			}
			snprintf(buf, sizeof(buf), "#%" PRIu64 "}", dis);
			v0_prints(p, buf);
		} else if (id.len) {
			v0_prints(p, "::");
			v0_print_ident(p, id);
		}
		break;
	case 'M':
	case 'X':
	case 'Y':
		if (c != 'Y') {
			/* impl-path: where the impl is, not shown */
			v0_opt_base62(p, 's');
			p->skip++;
			v0_path(p, false);
			p->skip--;
		}
		v0_prints(p, "<");
		v0_type(p);
		if (c != 'M') {
			v0_prints(p, " as ");
			v0_path(p, false);
		}
		v0_prints(p, ">");
		break;
	case 'I': {
		size_t n = 0;

		v0_path(p, in_value);
		v0_prints(p, in_value ? "::<" : "<");
		while (!p->err && !v0_eat(p, 'E')) {
			if (n++)
				v0_prints(p, ", ");
			v0_generic_arg(p);
		}
		v0_prints(p, ">");
		break;
	}
	case 'B':
		v0_backref(p, v0_path, in_value, NULL);
		break;
	default:
		p->err = true;
		break;
	}
	p->depth--;
}

static int rust_v0(const char *raw, struct strbuf *out)
{
	struct v0 p = { .s = raw, .len = strlen(raw), .pos = 2, .out = out };

	if (strncmp(raw, "_R", 2))
		return 0;
	/* a leading decimal is a future encoding version */
	if (!((raw[2] >= 'A' && raw[2] <= 'Z')))
		return 0;
	strbuf__reset(out);
	v0_path(&p, true);
	/* the instantiating crate, not shown */
	if (!p.err && p.pos < p.len && p.s[p.pos] >= 'A' && p.s[p.pos] <= 'Z') {
		p.skip++;
		v0_path(&p, false);
		p.skip--;
	}
	/* compiler suffixes such as ".llvm.1234" are dropped */
	if (p.err || (p.pos < p.len && p.s[p.pos] != '.'))
		return 0;
	return out->oom ? -ENOMEM : 1;
}

/* ---- C++ ---- */

/*
 * perf report (libiberty without DMGL_PARAMS) shows a C++ function by its
 * name alone: no parameters, no return type, no cv- or ref-qualifiers, no
 * "[clone .constprop.0]" suffixes.  libstdc++'s __cxa_demangle has no such
 * option, so the name is cut out of its full output: after the suffixes
 * and qualifiers come off, the last parenthesised group is the parameter
 * list, and the name is what follows the last space outside brackets
 * before it (the return type of a template function comes first).
 * Operator names are skipped whole, since "operator<", "operator()" and
 * "operator unsigned long" hold brackets and spaces of their own.
 * Whatever does not parse keeps the full form.
 */

bool demangle__is_ident(char c)
{
	return c == '_' || is_digit(c) || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

static bool ends_with(const char *s, size_t e, const char *suf)
{
	size_t n = strlen(suf);

	return e >= n && !memcmp(s + e - n, suf, n);
}

/* The operator token after "operator" at s[i] (i: just past the word);
 * returns its end, or 0 when it is none.  *to_end: a conversion
 * operator, whose type runs to the end of the name. */
static size_t operator_end(const char *s, size_t i, size_t hi, bool *to_end)
{
	/* longest first where one is a prefix of another */
	static const char *const ops[] = {
		"->*", "<=>", "<<=", ">>=", "()", "[]", "->", "<<", ">>", "<=",
		">=", "==", "!=", "&&", "||", "++", "--", "+=", "-=", "*=",
		"/=", "%=", "&=", "|=", "^=", "+", "-", "*", "/", "%", "^",
		"&", "|", "~", "!", "=", "<", ">", ",",
	};
	static const char *const words[] = { "new", "delete", "co_await" };

	*to_end = false;
	if (i < hi && s[i] == ' ') {
		for (size_t k = 0; k < ARRAY_SIZE(words); k++) {
			size_t n = strlen(words[k]);

			if (i + 1 + n <= hi && !memcmp(s + i + 1, words[k], n) &&
			    (i + 1 + n == hi || !demangle__is_ident(s[i + 1 + n]))) {
				i += 1 + n;
				if (i + 2 <= hi && s[i] == '[' && s[i + 1] == ']')
					i += 2;
				return i;
			}
		}
		*to_end = true;	/* "operator unsigned long" */
		return hi;
	}
	if (i + 2 <= hi && s[i] == '"' && s[i + 1] == '"') {
		/* a literal operator: operator"" _suffix */
		i += 2;
		if (i < hi && s[i] == ' ')
			i++;
		while (i < hi && demangle__is_ident(s[i]))
			i++;
		return i;
	}
	for (size_t k = 0; k < ARRAY_SIZE(ops); k++) {
		size_t n = strlen(ops[k]);

		if (i + n <= hi && !memcmp(s + i, ops[k], n))
			return i + n;
	}
	return 0;
}

/* The '(' that opens the group whose ')' is at s[close]; SIZE_MAX if
 * none. */
static size_t open_paren(const char *s, size_t lo, size_t close)
{
	size_t depth = 0;

	for (size_t i = close + 1; i-- > lo;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			return i;
	}
	return SIZE_MAX;
}

#define SHORT_MAX_DEPTH 8

/* The name of the function whose full form is s[lo, hi): [*b, *e). */
static bool short_name(const char *s, size_t lo, size_t hi, size_t *b,
		       size_t *e, unsigned int level)
{
	static const char *const quals[] = {
		" const", " volatile", " restrict", " &&", " &",
		" noexcept", " transaction_safe",
	};
	size_t open, depth = 0, start = lo, i;
	bool again = true, plain_end = false;

	if (level > SHORT_MAX_DEPTH)
		return false;
	/* suffixes: " [clone .isra.0]" after " [clone .constprop.0]" ... */
	while (hi > lo && s[hi - 1] == ']') {
		size_t k = hi - 1;

		while (k > lo && s[k] != '[')
			k--;
		if (k == lo || s[k - 1] != ' ' || strncmp(s + k, "[clone ", 7))
			break;
		hi = k - 1;
	}
	while (again) {
		again = false;
		for (size_t k = 0; k < ARRAY_SIZE(quals); k++)
			if (ends_with(s + lo, hi - lo, quals[k])) {
				hi -= strlen(quals[k]);
				again = true;
			}
	}
	if (hi <= lo || s[hi - 1] != ')')
		return false;	/* not a function */
	open = open_paren(s, lo, hi - 1);
	if (open == SIZE_MAX || open == lo)
		return false;
	for (i = lo; i < open;) {
		char c = s[i];

		if (c == 'o' && (i == lo || !demangle__is_ident(s[i - 1])) &&
		    open - i >= 8 && !memcmp(s + i, "operator", 8) &&
		    (i + 8 == open || !demangle__is_ident(s[i + 8]))) {
			bool to_end;
			size_t j = operator_end(s, i + 8, open, &to_end);

			if (!j)
				return false;
			/* "operator< <int>": the space is the operator's */
			if (!to_end && j + 1 < open && s[j] == ' ' &&
			    s[j + 1] == '<')
				j++;
			i = j;
			plain_end = false;
			continue;
		}
		if (c == '(' || c == '<' || c == '[' || c == '{') {
			depth++;
		} else if (c == ')' || c == '>' || c == ']' || c == '}') {
			if (!depth)
				return false;
			depth--;
		} else if (c == ' ' && !depth) {
			start = i + 1;
		}
		plain_end = true;
		i++;
	}
	if (depth)
		return false;
	if (plain_end && s[open - 1] == ')') {
		/* a function returning a pointer to a function or an array:
		 * "void (*f<int>(long))(int)": the name is inside */
		size_t in = open_paren(s, lo, open - 1);

		if (in == SIZE_MAX)
			return false;
		in++;
		while (in < open - 1 && (s[in] == '*' || s[in] == '&' ||
					 s[in] == ' '))
			in++;
		return short_name(s, in, open - 1, b, e, level + 1);
	}
	if (start >= open)
		return false;
	*b = start;
	*e = open;
	return true;
}

/*
 * What libstdc++'s __cxa_demangle (GCC 12) refuses: libiberty's
 * cplus_demangle, called as perf 6.1 calls it where it is built without
 * libbfd (Debian's): without DMGL_PARAMS, which is what lets it through
 * (the name alone: V8's StringShape::DispatchToSpecificTypeWithoutCast
 * <...> fails when its parameters are printed, in __cxa_demangle,
 * c++filt 2.40 and perf -v alike); with them for --demangle-params,
 * where it fails as perf -v does.  Its output is perf's as it is.
 */
static int cxx_iberty(const char *raw, unsigned int flags, struct strbuf *out)
{
	char *res = cplus_demangle(raw, flags & DEMANGLE_PARAMS ?
						DMGL_PARAMS | DMGL_ANSI :
						DMGL_NO_OPTS);
	size_t n;

	if (!res)
		return 0;
	n = strlen(res);
	strbuf__reset(out);
	if (n <= DEMANGLE_MAX_OUT)
		strbuf__add(out, res, n);
	free(res);
	if (n > DEMANGLE_MAX_OUT)
		return 0;
	return out->oom ? -ENOMEM : 1;
}

static int cxx(const char *raw, unsigned int flags, struct strbuf *out)
{
	size_t b = 0, e;
	int status = 0;
	char *res;
	size_t n;

	if (strncmp(raw, "_Z", 2))
		return 0;
	res = __cxa_demangle(raw, NULL, NULL, &status);
	if (!res && status == -2)
		return cxx_iberty(raw, flags, out);
	if (!res)
		return status == -1 ? -ENOMEM : 0;
	n = strlen(res);
	if (n > DEMANGLE_MAX_OUT) {
		free(res);
		return 0;
	}
	e = n;
	/* special names keep their form: "non-virtual thunk to A::f()",
	 * "guard variable for f()::x", as perf shows them */
	if (!(flags & DEMANGLE_PARAMS) && raw[2] != 'T' && raw[2] != 'G' &&
	    !short_name(res, 0, n, &b, &e, 0)) {
		b = 0;
		e = n;
	}
	strbuf__reset(out);
	strbuf__add(out, res + b, e - b);
	free(res);
	return out->oom ? -ENOMEM : 1;
}

static int demangle_base(const char *raw, unsigned int flags,
			 struct strbuf *out)
{
	int r = rust_legacy(raw, out);

	if (r)
		return out->oom ? -ENOMEM : 1;
	r = rust_v0(raw, out);
	if (r)
		return r;
	return cxx(raw, flags, out);
}

int demangle__name(const char *raw, unsigned int flags, struct strbuf *out)
{
	char base[DEMANGLE_MAX_IN + 1];
	const char *at;
	size_t len;
	int r;

	if (!raw || raw[0] != '_')
		return 0;
	len = strnlen(raw, DEMANGLE_MAX_IN + 1);
	if (len > DEMANGLE_MAX_IN)
		return 0;
	if (out->oom) {
		strbuf__fini(out);
		strbuf__init(out);
	}
	/* "name@plt", "name@@GLIBCXX_3.4": the name is demangled and the
	 * suffix put back, as binutils' bfd_demangle does for perf */
	at = memchr(raw, '@', len);
	if (!at || at == raw)
		return demangle_base(raw, flags, out);
	memcpy(base, raw, (size_t)(at - raw));
	base[at - raw] = '\0';
	r = demangle_base(base, flags, out);
	if (r <= 0)
		return r;
	strbuf__adds(out, at);
	return out->oom ? -ENOMEM : 1;
}
