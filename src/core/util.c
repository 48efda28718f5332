/* util: strbuf, string pool, cpu lists, number parsing, hashing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/util.h"

void strbuf__init(struct strbuf *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void strbuf__fini(struct strbuf *sb)
{
	free(sb->buf);
	memset(sb, 0, sizeof(*sb));
}

#define BUFOUT_SIZE 65536

void bufout__init(struct bufout *o,
		  int (*emit)(void *ctx, const void *buf, size_t len),
		  void *ctx)
{
	memset(o, 0, sizeof(*o));
	o->emit = emit;
	o->ctx = ctx;
	o->buf = malloc(BUFOUT_SIZE);
	if (!o->buf)
		o->err = -ENOMEM;
}

static void bufout__flush(struct bufout *o)
{
	if (!o->err && o->n)
		o->err = o->emit(o->ctx, o->buf, o->n);
	o->n = 0;
}

void bufout__add(struct bufout *o, const void *p, size_t len)
{
	if (o->err || !len)
		return;
	if (o->n + len > BUFOUT_SIZE) {
		bufout__flush(o);
		if (len > BUFOUT_SIZE) {
			if (!o->err)
				o->err = o->emit(o->ctx, p, len);
			return;
		}
	}
	memcpy(o->buf + o->n, p, len);
	o->n += len;
}

int bufout__fini(struct bufout *o)
{
	int err;

	bufout__flush(o);
	err = o->err;
	free(o->buf);
	memset(o, 0, sizeof(*o));
	return err;
}

void strbuf__reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

static int strbuf__reserve(struct strbuf *sb, size_t extra)
{
	size_t want, cap;
	char *p;

	if (sb->oom)
		return -ENOMEM;
	if (extra > SIZE_MAX / 2 - sb->len)
		goto oom;
	want = sb->len + extra + 1;
	if (want <= sb->cap)
		return 0;
	cap = sb->cap ? sb->cap : 64;
	while (cap < want)
		cap *= 2;
	p = realloc(sb->buf, cap);
	if (!p)
		goto oom;
	sb->buf = p;
	sb->cap = cap;
	return 0;
oom:
	sb->oom = true;
	return -ENOMEM;
}

int strbuf__add(struct strbuf *sb, const char *s, size_t n)
{
	if (strbuf__reserve(sb, n))
		return -ENOMEM;
	if (n)	/* (s may be NULL then: memcpy's arguments may not) */
		memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

int strbuf__adds(struct strbuf *sb, const char *s)
{
	return strbuf__add(sb, s, strlen(s));
}

int strbuf__addc(struct strbuf *sb, char c)
{
	return strbuf__add(sb, &c, 1);
}

int strbuf__vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return -EINVAL;
	if (strbuf__reserve(sb, (size_t)n))
		return -ENOMEM;
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
	return 0;
}

int strbuf__addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = strbuf__vaddf(sb, fmt, ap);
	va_end(ap);
	return err;
}

char *strbuf__detach(struct strbuf *sb)
{
	char *p = sb->buf;

	if (!p && !sb->oom)
		p = strdup("");
	memset(sb, 0, sizeof(*sb));
	return p;
}

/* String pool: open-addressing set of pointers into arena chunks. */
struct strpool_chunk {
	struct strpool_chunk *next;
	size_t used, size;
	char data[];
};

struct strpool {
	const char **slots;
	size_t nslots, count;
	struct strpool_chunk *chunks;
	size_t bytes;
};

struct strpool *strpool__new(void)
{
	struct strpool *sp = calloc(1, sizeof(*sp));

	if (!sp)
		return NULL;
	sp->nslots = 256;
	sp->slots = calloc(sp->nslots, sizeof(*sp->slots));
	if (!sp->slots) {
		free(sp);
		return NULL;
	}
	return sp;
}

void strpool__free(struct strpool *sp)
{
	struct strpool_chunk *c, *n;

	if (!sp)
		return;
	for (c = sp->chunks; c; c = n) {
		n = c->next;
		free(c);
	}
	free(sp->slots);
	free(sp);
}

size_t strpool__bytes(const struct strpool *sp)
{
	return sp->bytes + sp->nslots * sizeof(*sp->slots);
}

static char *strpool__alloc(struct strpool *sp, size_t n)
{
	struct strpool_chunk *c = sp->chunks;
	char *p;

	if (!c || c->size - c->used < n) {
		size_t size = n > 16384 ? n : 16384;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = sp->chunks;
		sp->chunks = c;
		sp->bytes += sizeof(*c) + size;
	}
	p = c->data + c->used;
	c->used += n;
	return p;
}

static int strpool__rehash(struct strpool *sp)
{
	size_t n = sp->nslots * 2, i, j;
	const char **slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < sp->nslots; i++) {
		const char *s = sp->slots[i];

		if (!s)
			continue;
		j = hash_bytes(s, strlen(s)) & (n - 1);
		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = s;
	}
	free(sp->slots);
	sp->slots = slots;
	sp->nslots = n;
	return 0;
}

const char *strpool__intern(struct strpool *sp, const char *s, size_t len)
{
	size_t i;
	char *p;

	if (memchr(s, '\0', len))
		len = strlen(s);
	if ((sp->count + 1) * 2 > sp->nslots && strpool__rehash(sp))
		return NULL;
	i = hash_bytes(s, len) & (sp->nslots - 1);
	while (sp->slots[i]) {
		const char *t = sp->slots[i];

		if (strncmp(t, s, len) == 0 && t[len] == '\0')
			return t;
		i = (i + 1) & (sp->nslots - 1);
	}
	p = strpool__alloc(sp, len + 1);
	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	sp->slots[i] = p;
	sp->count++;
	return p;
}

int cpulist__parse(const char *s, bool *set, int max)
{
	int count = 0;

	memset(set, 0, (size_t)max * sizeof(*set));
	if (!s || !*s)
		return -EINVAL;
	while (*s) {
		char *end;
		long a, b;

		if (*s < '0' || *s > '9')
			return -EINVAL;
		a = strtol(s, &end, 10);
		b = a;
		if (*end == '-') {
			s = end + 1;
			if (*s < '0' || *s > '9')
				return -EINVAL;
			b = strtol(s, &end, 10);
		}
		if (a < 0 || b < a || b >= max)
			return -EINVAL;
		for (long c = a; c <= b; c++) {
			if (!set[c])
				count++;
			set[c] = true;
		}
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return -EINVAL;
	}
	return count;
}

int pidlist__parse(const char *s, pid_t **pids, size_t *nr)
{
	const char *sep = ", \t";

	while (*s) {
		size_t len = strcspn(s, sep);
		char *tok;
		pid_t *p;
		u64 v;
		int bad;

		if (!len) {
			s++;
			continue;
		}
		tok = strndup(s, len);
		if (!tok)
			return -ENOMEM;
		s += len;
		bad = parse_u64(tok, &v) || v == 0 || v > 0x7fffffff;
		free(tok);
		if (bad)
			return -EINVAL;
		p = realloc(*pids, (*nr + 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		*pids = p;
		(*pids)[(*nr)++] = (pid_t)v;
	}
	return *nr ? 0 : -EINVAL;
}

size_t edit_distance(const char *a, size_t la, const char *b, bool fold)
{
	size_t lb = strlen(b);
	unsigned char d[64][64];	/* distances stay under 64 */
	int f = fold ? 0x20 : 0;

	if (la >= 64 || lb >= 64)
		return SIZE_MAX;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned char)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned char)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int ca = a[i - 1] | f, cb = b[j - 1] | f;
			unsigned int v = d[i - 1][j - 1] + (ca != cb);

			v = MIN(v, d[i - 1][j] + 1u);
			v = MIN(v, d[i][j - 1] + 1u);
			if (i > 1 && j > 1 && ca == (b[j - 2] | f) &&
			    (a[i - 2] | f) == cb)
				v = MIN(v, d[i - 2][j - 2] + 1u);
			d[i][j] = (unsigned char)v;
		}
	}
	return d[la][lb];
}

const char *path_basename(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

int parse_u64(const char *s, u64 *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !(v >= 0) || v > 1e6)
		return -EINVAL;
	*out = v;
	return 0;
}

u64 hash_bytes(const void *p, size_t n)
{
	/* Eight bytes at a time (a byte at a time, FNV-1a, cost a
	 * multiply per byte: a 72-byte row key or a C++ name each time it
	 * was interned), each word multiplied in and its high bits folded
	 * down; the length seeds it and hash_u64 finishes.  In-memory
	 * tables only: nothing kept on disk depends on it. */
	const unsigned char *b = p;
	u64 h = 0xcbf29ce484222325ULL ^ (u64)n * 0x9e3779b97f4a7c15ULL;
	u64 w;

	for (; n >= 8; n -= 8, b += 8) {
		memcpy(&w, b, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 29;
	}
	if (n) {
		w = 0;
		memcpy(&w, b, n);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 29;
	}
	return hash_u64(h);
}

#define CSUM_K1 0x9e3779b185ebca87ULL
#define CSUM_K2 0xc2b2ae3d27d4eb4fULL

void csum__init(struct csum *c)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < 4; i++)
		c->lane[i] = CSUM_K1 * (u64)(i + 1);
}

static inline u64 csum_round(u64 acc, u64 w)
{
	acc += w * CSUM_K2;
	acc = acc << 31 | acc >> 33;
	return acc * CSUM_K1;
}

/* whole 32-byte blocks of b (n of them) */
static void csum_blocks(struct csum *c, const unsigned char *b, size_t n)
{
	u64 l0 = c->lane[0], l1 = c->lane[1], l2 = c->lane[2];
	u64 l3 = c->lane[3], w[4];

	for (; n; n--, b += 32) {
		memcpy(w, b, 32);
		l0 = csum_round(l0, w[0]);
		l1 = csum_round(l1, w[1]);
		l2 = csum_round(l2, w[2]);
		l3 = csum_round(l3, w[3]);
	}
	c->lane[0] = l0;
	c->lane[1] = l1;
	c->lane[2] = l2;
	c->lane[3] = l3;
}

void csum__add(struct csum *c, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t fill = (size_t)(c->len % 32);

	c->len += n;
	if (fill) {
		size_t take = MIN(n, 32 - fill);

		memcpy(c->tail + fill, b, take);
		b += take;
		n -= take;
		if (fill + take < 32)
			return;
		csum_blocks(c, c->tail, 1);
	}
	csum_blocks(c, b, n / 32);
	memcpy(c->tail, b + n / 32 * 32, n % 32);
}

u64 csum__end(const struct csum *c)
{
	unsigned char last[32] = { 0 };
	struct csum t = *c;
	u64 h = t.len * CSUM_K2;

	/* the partial block, zero-padded (the length tells it apart) */
	if (t.len % 32) {
		memcpy(last, t.tail, (size_t)(t.len % 32));
		csum_blocks(&t, last, 1);
	}
	for (int i = 0; i < 4; i++)
		h = csum_round(h ^ t.lane[i], (u64)i);
	return hash_u64(h);
}

int array__grow(void **arr, size_t *cap, size_t want, size_t sz)
{
	size_t n = *cap ? *cap : 8;
	void *p;

	if (want <= *cap)
		return 0;
	while (n < want) {
		if (n > SIZE_MAX / 2 / sz)
			return -ENOMEM;
		n *= 2;
	}
	p = realloc(*arr, n * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

void intmap__init(struct intmap *m)
{
	memset(m, 0, sizeof(*m));
}

void intmap__fini(struct intmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static size_t intmap__slot(const struct intmap *m, u64 key)
{
	return hash_u64(key) & (m->cap - 1);
}

void *intmap__get(const struct intmap *m, u64 key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = intmap__slot(m, key); m->vals[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return m->vals[i];
	return NULL;
}

static int intmap__resize(struct intmap *m, size_t cap)
{
	struct intmap n = { .cap = cap };

	n.keys = calloc(cap, sizeof(*n.keys));
	n.vals = calloc(cap, sizeof(*n.vals));
	if (!n.keys || !n.vals) {
		free(n.keys);
		free(n.vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->vals[i])
			continue;
		for (j = intmap__slot(&n, m->keys[i]); n.vals[j];
		     j = (j + 1) & (cap - 1))
			;
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
		n.nr++;
	}
	intmap__fini(m);
	*m = n;
	return 0;
}

int intmap__put(struct intmap *m, u64 key, void *val)
{
	size_t i;

	if (!val)
		return -EINVAL;
	if ((m->nr + 1) * 2 > m->cap &&
	    intmap__resize(m, m->cap ? m->cap * 2 : 64))
		return -ENOMEM;
	for (i = intmap__slot(m, key); m->vals[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return 0;
		}
	}
	m->keys[i] = key;
	m->vals[i] = val;
	m->nr++;
	return 0;
}

void *intmap__del(struct intmap *m, u64 key)
{
	size_t i, j, mask = m->cap - 1;
	void *val;

	if (!m->cap)
		return NULL;
	for (i = intmap__slot(m, key); m->vals[i]; i = (i + 1) & mask)
		if (m->keys[i] == key)
			break;
	if (!m->vals[i])
		return NULL;
	val = m->vals[i];
	m->vals[i] = NULL;
	m->nr--;
	/* Backward shift: move later entries of the cluster into the hole
	 * when their home slot is not between the hole and them. */
	for (j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
		size_t home = intmap__slot(m, m->keys[j]);

		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->vals[j] = NULL;
			i = j;
		}
	}
	return val;
}

bool intmap__next(const struct intmap *m, size_t *i, u64 *key, void **val)
{
	for (; *i < m->cap; (*i)++) {
		if (m->vals[*i]) {
			*key = m->keys[*i];
			*val = m->vals[*i];
			(*i)++;
			return true;
		}
	}
	return false;
}
