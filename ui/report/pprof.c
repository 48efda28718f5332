/* pprof: a snapshot as profile.proto (see pprof.h); the field numbers
 * are those of github.com/google/pprof's proto/profile.proto. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "src/sys/outfile.h"
#include "ui/report/pprof.h"
#include "src/core/protobuf.h"
#include "ui/report/sanitize.h"

enum {	/* message Profile */
	P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_MAPPING = 3, P_LOCATION = 4,
	P_FUNCTION = 5, P_STRING_TABLE = 6, P_TIME_NANOS = 9,
	P_DURATION_NANOS = 10, P_PERIOD_TYPE = 11, P_PERIOD = 12,
	P_COMMENT = 13,
};
enum { VT_TYPE = 1, VT_UNIT = 2 };			/* ValueType */
enum { S_LOCATION_ID = 1, S_VALUE = 2, S_LABEL = 3 };	/* Sample */
enum { L_KEY = 1, L_STR = 2, L_NUM = 3 };		/* Label */
enum {							/* Mapping */
	M_ID = 1, M_START = 2, M_LIMIT = 3, M_OFFSET = 4, M_FILENAME = 5,
	M_BUILD_ID = 6, M_HAS_FUNCTIONS = 7, M_HAS_FILENAMES = 8,
	M_HAS_LINE_NUMBERS = 9, M_HAS_INLINE_FRAMES = 10,
};
enum { LOC_ID = 1, LOC_MAPPING_ID = 2, LOC_ADDRESS = 3, LOC_LINE = 4 };
enum { LN_FUNCTION_ID = 1, LN_LINE = 2 };		/* Line */
enum { F_ID = 1, F_NAME = 2, F_SYSTEM_NAME = 3, F_FILENAME = 4 };

/* File dsos' addresses are file offsets, shared by every process that
 * maps them: each gets a range of its own at a base no process uses
 * (memory_start = base, file_offset 0, so that address - memory_start
 * is the file offset a symbolizer wants).  Kernel and anonymous code
 * keep their addresses. */
#define FILE_BASE 0x1000000000000000ull
#define FILE_SPAN (1ull << 40)

#define MAX_INLINE 16
#define MAX_SRC (MAX_INLINE + 1)

struct pp_line {
	u64 func;
	s64 line;
};

struct pp_map {
	const struct dso *dso;
	u64 lo, hi;		/* addresses seen */
	bool funcs, files, lines, inl;	/* every location had them */
	u64 samples;		/* of the samples whose leaf is here */
	u64 id;			/* final: by samples, largest first */
};

struct pp_loc {
	u64 mapping, address;
	size_t line0, nr_lines;
};

struct pprof {
	const struct pprof_opts *o;
	struct table *t;
	struct strpool *pool;
	struct intmap str_ids;	/* interned string -> index + 1 */
	const char **strs;
	size_t nr_strs, cap_strs;
	struct intmap map_ids;	/* dso -> mapping id */
	struct pp_map *maps;
	size_t nr_maps, cap_maps;
	struct intmap loc_ids;	/* dso -> struct intmap * (addr -> id) */
	struct pp_loc *locs;
	size_t nr_locs, cap_locs;
	struct pp_line *lines;
	size_t nr_lines, cap_lines;
	struct intmap func_ids;	/* interned "name\1raw\1file" -> id */
	struct strbuf funcs;	/* encoded Function messages */
	struct strbuf tmp, msg;
	bool oom;		/* a string, id or line could not be kept */
	struct strbuf *out;	/* where the profile goes */
	u64 *ids;		/* a sample's locations [MAX_PATH_FRAMES] */
	struct strbuf s;	/* a sample's message */
};

/* The string table index of s (sanitized: readers print it). */
static u64 pp_str(struct pprof *p, const char *s, bool clean)
{
	const char *k;
	uintptr_t id;

	if (!s || !*s)
		return 0;
	strbuf__reset(&p->tmp);
	if (clean)
		sanitize_str(&p->tmp, s);
	else
		strbuf__adds(&p->tmp, s);
	if (p->tmp.oom)
		p->oom = true;
	if (p->tmp.oom || !p->tmp.len)
		return 0;
	k = strpool__intern(p->pool, p->tmp.buf, p->tmp.len);
	if (!k) {
		p->oom = true;
		return 0;
	}
	id = (uintptr_t)intmap__get(&p->str_ids, (u64)(uintptr_t)k);
	if (id)
		return id - 1;
	if (array__grow((void **)&p->strs, &p->cap_strs, p->nr_strs + 1,
			sizeof(*p->strs)) ||
	    intmap__put(&p->str_ids, (u64)(uintptr_t)k,
			(void *)(uintptr_t)(p->nr_strs + 1))) {
		p->oom = true;
		return 0;
	}
	p->strs[p->nr_strs] = k;
	return p->nr_strs++;
}

static struct pp_map *pp_map(struct pprof *p, const struct dso *dso,
			     u64 *id)
{
	uintptr_t i = (uintptr_t)intmap__get(&p->map_ids, (u64)(uintptr_t)dso);

	if (!i) {
		if (array__grow((void **)&p->maps, &p->cap_maps,
				p->nr_maps + 1, sizeof(*p->maps)))
			return NULL;
		p->maps[p->nr_maps] = (struct pp_map){
			.dso = dso, .lo = UINT64_MAX, .funcs = true,
			.files = true, .lines = true, .inl = true,
		};
		i = ++p->nr_maps;
		if (intmap__put(&p->map_ids, (u64)(uintptr_t)dso,
				(void *)i)) {
			p->nr_maps--;
			return NULL;
		}
	}
	*id = i;
	return &p->maps[i - 1];
}

static u64 map_base(const struct pp_map *m, u64 id)
{
	return m->dso->kind == DSO_FILE ? FILE_BASE + (id - 1) * FILE_SPAN : 0;
}

/* The id of a function (name, raw name, file), its message encoded on
 * first sight. */
static u64 pp_func(struct pprof *p, const char *name, const char *raw,
		   const char *file)
{
	u64 n = pp_str(p, name, true);
	u64 r = raw ? pp_str(p, raw, true) : n;
	u64 f = pp_str(p, file, true);
	char key[64];
	const char *k;
	uintptr_t id;

	snprintf(key, sizeof(key), "%" PRIu64 ",%" PRIu64 ",%" PRIu64, n, r, f);
	k = strpool__intern(p->pool, key, strlen(key));
	if (!k) {
		p->oom = true;
		return 0;
	}
	id = (uintptr_t)intmap__get(&p->func_ids, (u64)(uintptr_t)k);
	if (id)
		return id;
	id = p->func_ids.nr + 1;
	if (intmap__put(&p->func_ids, (u64)(uintptr_t)k, (void *)id))
		return 0;
	strbuf__reset(&p->msg);
	pb__uint(&p->msg, F_ID, id);
	pb__int(&p->msg, F_NAME, (s64)n);
	pb__int(&p->msg, F_SYSTEM_NAME, (s64)r);
	if (f)
		pb__int(&p->msg, F_FILENAME, (s64)f);
	pb__bytes(&p->funcs, P_FUNCTION, p->msg.buf, p->msg.len);
	return id;
}

static int pp_add_line(struct pprof *p, u64 func, s64 line)
{
	if (!func || array__grow((void **)&p->lines, &p->cap_lines,
				 p->nr_lines + 1, sizeof(*p->lines)))
		return -ENOMEM;
	p->lines[p->nr_lines++] = (struct pp_line){ func, line };
	return 0;
}

/*
 * The lines of a new location: the function the table names (as
 * --folded names it), after the functions inlined into it at addr,
 * innermost first as profile.proto wants; file and line numbers from
 * the symbolizer's source lines when it has them.
 */
static int pp_lines(struct pprof *p, struct pp_map *m, const struct dso *dso,
		    u64 addr)
{
	const struct pprof_opts *o = p->o;
	struct row_sym rs = { 0 };
	struct sym_info si = { 0 };
	struct srcline sl[MAX_SRC];
	const char *inl[MAX_INLINE];
	size_t ni = 0;
	int ns = 0;

	if (p->t->resolve(p->t->resolve_ctx, dso, addr, &rs) || !rs.name) {
		/* no name: a symbolizer (has_functions false) does it */
		m->funcs = m->files = m->lines = m->inl = false;
		return 0;
	}
	if (rs.flags & SYM_F_SYNTH)
		m->funcs = false;	/* func_0x...: bounds, not a name */
	if (o->syms && dso->kind != DSO_UNKNOWN) {
		if (symbolizer__lookup(o->syms, dso, addr, &si))
			memset(&si, 0, sizeof(si));
		if (dso->kind == DSO_FILE) {
			ns = symbolizer__srcline(o->syms, dso, addr, sl, MAX_SRC);
			if (ns < 0)
				ns = 0;
		}
	}
	if (o->inl)
		ni = o->inl(o->inl_ctx, dso, addr, inl, MAX_INLINE);
	if (ni > MAX_INLINE)
		ni = MAX_INLINE;
	if (!ns)
		m->files = m->lines = false;
	if (!o->inl || dso->kind != DSO_FILE || !ns)
		m->inl = false;
	/* srcline: sl[0..ns-2] inlined (innermost first), sl[ns-1] the
	 * function; inlines__get gives the names of those with a name, so
	 * source positions pair with the names when the counts agree */
	for (size_t k = 0; k < ni; k++) {
		const struct srcline *s = ns > 0 && (size_t)ns == ni + 1 ?
						  &sl[k] : NULL;
		u64 f = pp_func(p, inl[k], NULL, s ? s->file : NULL);

		if (pp_add_line(p, f, s ? s->line : 0))
			return -ENOMEM;
	}
	{
		const struct srcline *s = ns > 0 ? &sl[ns - 1] : NULL;
		u64 f = pp_func(p, rs.name,
				si.raw_name && si.name == rs.name ? si.raw_name :
								   NULL,
				s ? s->file : NULL);

		return pp_add_line(p, f, s ? s->line : 0);
	}
}

static u64 pp_loc(struct pprof *p, const struct dso *dso, u64 addr)
{
	struct intmap *by_addr = intmap__get(&p->loc_ids, (u64)(uintptr_t)dso);
	struct pp_map *m;
	u64 mid;
	uintptr_t id;

	if (!by_addr) {
		by_addr = calloc(1, sizeof(*by_addr));
		if (!by_addr)
			return 0;
		intmap__init(by_addr);
		if (intmap__put(&p->loc_ids, (u64)(uintptr_t)dso, by_addr)) {
			free(by_addr);
			return 0;
		}
	}
	id = (uintptr_t)intmap__get(by_addr, addr);
	if (id)
		return id;
	m = pp_map(p, dso, &mid);
	if (!m || array__grow((void **)&p->locs, &p->cap_locs, p->nr_locs + 1,
			      sizeof(*p->locs)))
		return 0;
	if (addr < m->lo)
		m->lo = addr;
	if (addr > m->hi)
		m->hi = addr;
	p->locs[p->nr_locs] = (struct pp_loc){
		.mapping = mid, .address = addr, .line0 = p->nr_lines,
	};
	if (pp_lines(p, m, dso, addr))
		return 0;
	p->locs[p->nr_locs].nr_lines = p->nr_lines - p->locs[p->nr_locs].line0;
	id = ++p->nr_locs;
	if (intmap__put(by_addr, addr, (void *)id)) {
		p->nr_locs--;
		return 0;
	}
	return id;
}

static void pp_label(struct pprof *p, struct strbuf *sb, const char *key,
		     const char *str, s64 num)
{
	/* indices first: pp_str uses p->tmp */
	u64 k = pp_str(p, key, false), v = str ? pp_str(p, str, true) : 0;

	strbuf__reset(&p->msg);
	pb__int(&p->msg, L_KEY, (s64)k);
	if (str)
		pb__int(&p->msg, L_STR, (s64)v);
	else
		pb__int(&p->msg, L_NUM, num);
	pb__bytes(sb, S_LABEL, p->msg.buf, p->msg.len);
}

static void pp_value_type(struct pprof *p, struct strbuf *sb, u32 field,
			  const char *type, const char *unit)
{
	u64 ty = pp_str(p, type, true), un = pp_str(p, unit, false);

	strbuf__reset(&p->msg);
	pb__int(&p->msg, VT_TYPE, (s64)ty);
	pb__int(&p->msg, VT_UNIT, (s64)un);
	pb__bytes(sb, field, p->msg.buf, p->msg.len);
}

/* One Sample per histogram entry: its frames leaf first (the chain's
 * leaf node is the entry's own address), at most MAX_PATH_FRAMES, as
 * rowset's paths keep them. */
static int pp_sample(struct pprof *p, struct strbuf *out,
		     const struct snapshot *snap, const struct hist_entry *e,
		     u64 *ids, struct strbuf *s)
{
	const struct pprof_opts *o = p->o;
	size_t n = 0;
	const struct cc_node *nd;
	struct cc_walk w;
	u64 vals[2] = { e->samples, e->period };

	if (!(ids[n++] = pp_loc(p, e->key.dso, e->key.addr)))
		return -ENOMEM;
	p->maps[p->locs[ids[0] - 1].mapping - 1].samples += e->samples;
	snapshot__callers(&w, snap, e->key.chain);
	while (n < MAX_PATH_FRAMES && (nd = cc_walk__next(&w)))
		if (!(ids[n++] = pp_loc(p, nd->dso, nd->addr)))
			return -ENOMEM;
	strbuf__reset(s);
	pb__packed(s, S_LOCATION_ID, ids, n);
	pb__packed(s, S_VALUE, vals, 2);
	if (o->label_pid)
		pp_label(p, s, "pid", NULL, e->key.pid);
	if (o->label_tid)
		pp_label(p, s, "tid", NULL, e->key.tid);
	if (o->label_comm)
		pp_label(p, s, "comm", e->key.comm ? e->key.comm : "[unknown]",
			 0);
	if (o->label_cpu)
		pp_label(p, s, "cpu", NULL, e->key.cpu);
	pb__bytes(out, P_SAMPLE, s->buf, s->len);
	return s->oom ? -ENOMEM : 0;
}

static int map_cmp(const void *a, const void *b)
{
	const struct pp_map *x = *(const struct pp_map *const *)a;
	const struct pp_map *y = *(const struct pp_map *const *)b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Mappings by samples, largest first (readers take the first for the
 * main binary: "File:" of go tool pprof), ids 1..N in that order.
 */
static int pp_mappings(struct pprof *p, struct strbuf *out)
{
	char hex[2 * BUILD_ID_MAX + 1];
	struct pp_map **order = calloc(p->nr_maps + 1, sizeof(*order));

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_maps; i++)
		order[i] = &p->maps[i];
	qsort(order, p->nr_maps, sizeof(*order), map_cmp);
	for (size_t i = 0; i < p->nr_maps; i++)
		order[i]->id = i + 1;
	for (size_t i = 0; i < p->nr_maps; i++) {
		const struct pp_map *m = order[i];
		const struct dso *d = m->dso;
		u64 base = map_base(m, m->id);
		u64 file = pp_str(p, d->path ? d->path : d->name, true);
		u64 bid = 0;

		for (size_t k = 0; k < d->build_id_size; k++)
			snprintf(hex + 2 * k, 3, "%02x", d->build_id[k]);
		if (d->build_id_size)
			bid = pp_str(p, hex, false);
		strbuf__reset(&p->msg);
		pb__uint(&p->msg, M_ID, m->id);
		if (d->kind == DSO_FILE) {
			pb__uint(&p->msg, M_START, base);
			pb__uint(&p->msg, M_LIMIT, base + m->hi + 1);
		} else {
			pb__uint(&p->msg, M_START, m->lo);
			pb__uint(&p->msg, M_LIMIT, m->hi + 1);
		}
		pb__uint(&p->msg, M_OFFSET, 0);
		pb__int(&p->msg, M_FILENAME, (s64)file);
		if (bid)
			pb__int(&p->msg, M_BUILD_ID, (s64)bid);
		pb__bool(&p->msg, M_HAS_FUNCTIONS, m->funcs);
		pb__bool(&p->msg, M_HAS_FILENAMES, m->files);
		pb__bool(&p->msg, M_HAS_LINE_NUMBERS, m->lines);
		pb__bool(&p->msg, M_HAS_INLINE_FRAMES, m->inl);
		pb__bytes(out, P_MAPPING, p->msg.buf, p->msg.len);
	}
	free(order);
	return 0;
}

static void pp_locations(struct pprof *p, struct strbuf *out)
{
	struct strbuf ln;

	strbuf__init(&ln);
	for (size_t i = 0; i < p->nr_locs; i++) {
		const struct pp_loc *l = &p->locs[i];
		const struct pp_map *m = &p->maps[l->mapping - 1];

		strbuf__reset(&p->msg);
		pb__uint(&p->msg, LOC_ID, i + 1);
		pb__uint(&p->msg, LOC_MAPPING_ID, m->id);
		pb__uint(&p->msg, LOC_ADDRESS, map_base(m, m->id) + l->address);
		for (size_t k = 0; k < l->nr_lines; k++) {
			const struct pp_line *x = &p->lines[l->line0 + k];

			strbuf__reset(&ln);
			pb__uint(&ln, LN_FUNCTION_ID, x->func);
			if (x->line)
				pb__int(&ln, LN_LINE, x->line);
			pb__bytes(&p->msg, LOC_LINE, ln.buf, ln.len);
		}
		pb__bytes(out, P_LOCATION, p->msg.buf, p->msg.len);
	}
	strbuf__fini(&ln);
}

void pprof__free(struct pprof *p)
{
	size_t i = 0;
	u64 k;
	void *v;

	if (!p)
		return;

	while (intmap__next(&p->loc_ids, &i, &k, &v)) {
		intmap__fini(v);
		free(v);
	}
	intmap__fini(&p->loc_ids);
	intmap__fini(&p->str_ids);
	intmap__fini(&p->map_ids);
	intmap__fini(&p->func_ids);
	free(p->strs);
	free(p->maps);
	free(p->locs);
	free(p->lines);
	strbuf__fini(&p->funcs);
	strbuf__fini(&p->tmp);
	strbuf__fini(&p->msg);
	strbuf__fini(&p->s);
	free(p->ids);
	strpool__free(p->pool);
	free(p);
}

int pprof__begin(struct pprof **pp, struct strbuf *out,
		 const struct pprof_opts *o, struct table *t)
{
	struct pprof *p = calloc(1, sizeof(*p));
	const char *type = o->cpu_ns ? "cpu" : o->event;
	const char *unit = o->cpu_ns ? "nanoseconds" : "count";

	*pp = NULL;
	if (!p)
		return -ENOMEM;
	p->o = o;
	p->t = t;
	p->out = out;
	p->ids = malloc(MAX_PATH_FRAMES * sizeof(*p->ids));
	intmap__init(&p->str_ids);
	intmap__init(&p->map_ids);
	intmap__init(&p->loc_ids);
	intmap__init(&p->func_ids);
	strbuf__init(&p->funcs);
	strbuf__init(&p->tmp);
	strbuf__init(&p->msg);
	strbuf__init(&p->s);
	p->pool = strpool__new();
	/* string 0 is "" */
	if (!p->ids || !p->pool ||
	    array__grow((void **)&p->strs, &p->cap_strs, 1, sizeof(*p->strs))) {
		pprof__free(p);
		return -ENOMEM;
	}
	p->strs[p->nr_strs++] = "";
	pp_value_type(p, out, P_SAMPLE_TYPE, "samples", "count");
	pp_value_type(p, out, P_SAMPLE_TYPE, type ? type : "events", unit);
	*pp = p;
	return 0;
}

int pprof__sample(struct pprof *p, const struct snapshot *snap,
		  const struct hist_entry *e)
{
	return pp_sample(p, p->out, snap, e, p->ids, &p->s);
}

int pprof__end(struct pprof *p)
{
	const struct pprof_opts *o = p->o;
	struct strbuf *out = p->out;
	const char *type = o->cpu_ns ? "cpu" : o->event;
	const char *unit = o->cpu_ns ? "nanoseconds" : "count";
	u64 period = o->period;
	int err;

	err = pp_mappings(p, out);
	if (err)
		goto out;
	pp_locations(p, out);
	strbuf__add(out, p->funcs.buf, p->funcs.len);
	if (o->time_nanos)
		pb__int(out, P_TIME_NANOS, o->time_nanos);
	if (o->duration_nanos)
		pb__int(out, P_DURATION_NANOS, o->duration_nanos);
	pp_value_type(p, out, P_PERIOD_TYPE, type ? type : "events", unit);
	/* with -F the period varies: its mean for a clock in ns */
	if (!period && o->freq && o->cpu_ns)
		period = 1000000000ull / o->freq;
	if (period)
		pb__int(out, P_PERIOD, (s64)period);
	for (size_t i = 0; i < p->nr_strs; i++)
		pb__string(out, P_STRING_TABLE, p->strs[i]);
	if (out->oom || p->funcs.oom || p->msg.oom || p->oom)
		err = -ENOMEM;
out:
	pprof__free(p);
	return err;
}

int pprof__encode(struct strbuf *out, const struct pprof_opts *o,
		  struct table *t, size_t ev)
{
	const struct snapshot *snap = o->snap ? o->snap : table__snap(t, ev);
	struct pprof *p;
	int err;

	err = pprof__begin(&p, out, o, t);
	for (size_t i = 0; !err && snap && i < snap->nr; i++)
		err = pprof__sample(p, snap, &snap->entries[i]);
	if (err) {
		pprof__free(p);
		return err;
	}
	return pprof__end(p);
}

int pprof__gzip(const void *p, size_t len, void **out, size_t *out_len)
{
	z_stream z;
	unsigned char *buf;
	size_t cap;
	int err = 0;

	*out = NULL;
	*out_len = 0;
	memset(&z, 0, sizeof(z));
	/* windowBits 15 + 16: a gzip wrapper */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	z.next_in = (unsigned char *)(uintptr_t)p;
	z.avail_in = (uInt)len;
	cap = deflateBound(&z, (uLong)len);
	buf = malloc(cap);
	if (!buf) {
		deflateEnd(&z);
		return -ENOMEM;
	}
	z.next_out = buf;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		err = -EIO;
		free(buf);
	} else {
		*out = buf;
		*out_len = z.total_out;
	}
	deflateEnd(&z);
	return err;
}

int pprof__save(const char *path, const void *p, size_t len)
{
	void *buf = NULL;
	size_t n = 0;
	int err;

	err = pprof__gzip(p, len, &buf, &n);
	if (!err)
		err = outfile__save(path, buf, n, OUTFILE_EXPORT);
	free(buf);
	return err;
}
