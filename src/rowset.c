/* rowset: display rows grouped and sorted from a snapshot (pure). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rowset.h"

static const char *const key_names[SORT__MAX] = {
	[SORT_OVERHEAD] = "overhead",
	[SORT_SAMPLES] = "sample",
	[SORT_PERIOD] = "period",
	[SORT_SYM] = "sym",
	[SORT_DSO] = "dso",
	[SORT_COMM] = "comm",
	[SORT_PID] = "pid",
	[SORT_TID] = "tid",
	[SORT_CPU] = "cpu",
};

const char *sort_key__name(enum sort_key k)
{
	return k < SORT__MAX ? key_names[k] : "?";
}

int sort_key__parse(const char *name, enum sort_key *k)
{
	for (int i = 0; i < SORT__MAX; i++) {
		if (strcmp(name, key_names[i]) == 0) {
			*k = (enum sort_key)i;
			return 0;
		}
	}
	if (strcmp(name, "samples") == 0) {
		*k = SORT_SAMPLES;
		return 0;
	}
	if (strcmp(name, "symbol") == 0) {
		*k = SORT_SYM;
		return 0;
	}
	return -EINVAL;
}

bool sort_key__groups(enum sort_key k)
{
	return k >= SORT_SYM && k < SORT__MAX;
}

void sort_spec__default(struct sort_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->group[0] = SORT_DSO;
	spec->group[1] = SORT_SYM;
	spec->nr_group = 2;
	spec->order = SORT_OVERHEAD;
}

bool sort_spec__has(const struct sort_spec *spec, enum sort_key k)
{
	for (size_t i = 0; i < spec->nr_group; i++)
		if (spec->group[i] == k)
			return true;
	return false;
}

int sort_spec__parse(const char *list, struct sort_spec *spec,
		     struct strbuf *err)
{
	char buf[256], *tok, *save = NULL;

	memset(spec, 0, sizeof(*spec));
	spec->order = SORT_OVERHEAD;
	if (strlen(list) >= sizeof(buf)) {
		strbuf__adds(err, "sort key list too long");
		return -EINVAL;
	}
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		enum sort_key k;

		if (sort_key__parse(tok, &k)) {
			strbuf__addf(err, "unknown sort key '%s' (valid:", tok);
			for (int i = 0; i < SORT__MAX; i++)
				strbuf__addf(err, " %s", key_names[i]);
			strbuf__adds(err, ")");
			return -EINVAL;
		}
		if (!sort_key__groups(k)) {
			spec->order = k;
			continue;
		}
		if (!sort_spec__has(spec, k))
			spec->group[spec->nr_group++] = k;
	}
	if (!spec->nr_group) {
		spec->group[0] = SORT_DSO;
		spec->group[1] = SORT_SYM;
		spec->nr_group = 2;
	}
	return 0;
}

unsigned int sort_spec__key_fields(const struct sort_spec *spec)
{
	unsigned int kf = 0;

	if (sort_spec__has(spec, SORT_PID))
		kf |= KEY_PID | KEY_COMM;
	if (sort_spec__has(spec, SORT_TID))
		kf |= KEY_PID | KEY_TID | KEY_COMM;
	if (sort_spec__has(spec, SORT_COMM))
		kf |= KEY_COMM;
	if (sort_spec__has(spec, SORT_CPU))
		kf |= KEY_CPU;
	return kf;
}

void rowset__init(struct rowset *rs)
{
	memset(rs, 0, sizeof(*rs));
}

void rowset__fini(struct rowset *rs)
{
	free(rs->rows);
	free(rs->slots);
	memset(rs, 0, sizeof(*rs));
}

double rowset__percent(const struct rowset *rs, const struct row *r)
{
	if (rs->total_period)
		return 100.0 * (double)r->period / (double)rs->total_period;
	if (rs->total_samples)
		return 100.0 * (double)r->samples / (double)rs->total_samples;
	return 0.0;
}

/* The identity of a row under spec: the grouped fields, others zero. */
struct group_key {
	const struct dso *dso;
	const char *dso_name;
	u64 sym;
	const char *comm;
	s32 pid, tid, cpu;
	u32 resolved;
};

static void group_key__make(struct group_key *g, const struct sort_spec *spec,
			    const struct row *r)
{
	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < spec->nr_group; i++) {
		switch (spec->group[i]) {
		case SORT_SYM:
			g->dso = r->dso;
			g->dso_name = r->dso_name;
			g->resolved = r->sym != NULL;
			g->sym = r->sym ? r->sym_start : r->addr;
			break;
		case SORT_DSO:
			g->dso = r->dso;
			g->dso_name = r->dso_name;
			break;
		case SORT_COMM:
			g->comm = r->comm;
			break;
		case SORT_PID:
			g->pid = r->pid;
			g->comm = r->comm;
			break;
		case SORT_TID:
			g->pid = r->pid;
			g->tid = r->tid;
			g->comm = r->comm;
			break;
		case SORT_CPU:
			g->cpu = r->cpu;
			break;
		default:
			break;
		}
	}
}

static u64 group_key__hash(const struct group_key *g)
{
	return hash_bytes(g, sizeof(*g));
}

static bool contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (!n)
		return true;
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return false;
}

static int rowset__regroup(struct rowset *rs, const struct sort_spec *spec,
			   size_t want)
{
	size_t n = 64;

	while (n < want * 2)
		n *= 2;
	if (n > rs->nslots) {
		u32 *s = realloc(rs->slots, n * sizeof(*s));

		if (!s)
			return -ENOMEM;
		rs->slots = s;
		rs->nslots = n;
	}
	memset(rs->slots, 0xff, rs->nslots * sizeof(*rs->slots));
	for (size_t i = 0; i < rs->nr; i++) {
		struct group_key g;
		size_t j;

		group_key__make(&g, spec, &rs->rows[i]);
		j = group_key__hash(&g) & (rs->nslots - 1);
		while (rs->slots[j] != UINT32_MAX)
			j = (j + 1) & (rs->nslots - 1);
		rs->slots[j] = (u32)i;
	}
	return 0;
}

static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int cmp_key(const struct row *a, const struct row *b, enum sort_key k)
{
	switch (k) {
	case SORT_OVERHEAD:
	case SORT_PERIOD:
		if (a->period != b->period)
			return a->period > b->period ? -1 : 1;
		return 0;
	case SORT_SAMPLES:
		if (a->samples != b->samples)
			return a->samples > b->samples ? -1 : 1;
		return 0;
	case SORT_SYM:
		if (!a->sym || !b->sym) {
			if (a->sym || b->sym)
				return a->sym ? -1 : 1;
			return a->addr < b->addr ? -1 : a->addr > b->addr;
		}
		return strcmp(a->sym, b->sym);
	case SORT_DSO:
		return cmp_str(a->dso_name, b->dso_name);
	case SORT_COMM:
		return cmp_str(a->comm, b->comm);
	case SORT_PID:
		return a->pid < b->pid ? -1 : a->pid > b->pid;
	case SORT_TID:
		return a->tid < b->tid ? -1 : a->tid > b->tid;
	case SORT_CPU:
		return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	default:
		return 0;
	}
}

/* The chosen key (inverted with I), then overhead, then every grouped
 * key: a total order, so that equal inputs give equal tables. */
static int row_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct sort_spec *cmp_spec = ctx;
	const struct row *a = pa, *b = pb;
	int c = cmp_key(a, b, cmp_spec->order);

	if (c)
		return cmp_spec->invert ? -c : c;
	c = cmp_key(a, b, SORT_OVERHEAD);
	if (c)
		return c;
	c = cmp_key(a, b, SORT_SAMPLES);
	if (c)
		return c;
	for (size_t i = 0; i < cmp_spec->nr_group; i++) {
		c = cmp_key(a, b, cmp_spec->group[i]);
		if (c)
			return c;
	}
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

int rowset__build(struct rowset *rs, const struct snapshot *snap,
		  const struct sort_spec *spec, const struct row_filter *f,
		  row_resolve_fn resolve, void *ctx)
{
	static const struct row_filter none;
	size_t kept = 0;

	if (!f)
		f = &none;
	rs->nr = 0;
	rs->total_samples = snap->total_samples;
	rs->total_period = snap->total_period;
	rs->shown_samples = rs->shown_period = 0;
	rs->hidden_rows = 0;
	if (rowset__regroup(rs, spec, 64))
		return -ENOMEM;

	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		const struct dso *dso = e->key.dso;
		struct row_sym sym = { 0 };
		struct group_key g;
		struct row r;
		size_t j;

		if (f->hide_kernel && dso->kind == DSO_KERNEL)
			continue;
		if (f->hide_user && dso->kind != DSO_KERNEL)
			continue;
		if (f->dso && dso != f->dso)
			continue;
		if (f->has_pid && e->key.pid != f->pid)
			continue;
		if (f->has_tid && e->key.tid != f->tid)
			continue;
		if (resolve(ctx, dso, e->key.addr, &sym) || !sym.dso_name)
			sym.dso_name = dso->name;
		if (f->dso_name && strcmp(sym.dso_name, f->dso_name) != 0)
			continue;
		if (f->sym_substr && *f->sym_substr &&
		    (!sym.name || !contains_nocase(sym.name, f->sym_substr)))
			continue;

		memset(&r, 0, sizeof(r));
		r.dso = dso;
		r.dso_name = sym.dso_name;
		r.sym = sym.name;
		r.sym_start = sym.name ? sym.start : e->key.addr;
		r.sym_size = sym.name ? sym.size : 0;
		r.addr = e->key.addr;
		r.sym_flags = sym.flags;
		r.kernel = dso->kind == DSO_KERNEL;
		r.comm = e->key.comm;
		r.pid = e->key.pid;
		r.tid = e->key.tid;
		r.cpu = e->key.cpu;
		r.samples = e->samples;
		r.period = e->period;

		group_key__make(&g, spec, &r);
		j = group_key__hash(&g) & (rs->nslots - 1);
		for (; rs->slots[j] != UINT32_MAX; j = (j + 1) & (rs->nslots - 1)) {
			struct row *o = &rs->rows[rs->slots[j]];
			struct group_key og;

			group_key__make(&og, spec, o);
			if (memcmp(&og, &g, sizeof(g)) == 0)
				break;
		}
		if (rs->slots[j] != UINT32_MAX) {
			struct row *o = &rs->rows[rs->slots[j]];

			o->samples += r.samples;
			o->period += r.period;
			/* an unresolved row shows its lowest address */
			if (r.addr < o->addr && !o->sym)
				o->addr = r.addr;
			continue;
		}
		if (array__grow((void **)&rs->rows, &rs->cap, rs->nr + 1,
				sizeof(*rs->rows)))
			return -ENOMEM;
		rs->rows[rs->nr] = r;
		rs->slots[j] = (u32)rs->nr++;
		if (rs->nr * 2 > rs->nslots &&
		    rowset__regroup(rs, spec, rs->nr * 2))
			return -ENOMEM;
	}

	{
		/* qsort_r's context is not const; the comparator only reads */
		struct sort_spec copy = *spec;

		qsort_r(rs->rows, rs->nr, sizeof(*rs->rows), row_cmp, &copy);
	}

	for (size_t i = 0; i < rs->nr; i++) {
		struct row *r = &rs->rows[i];

		if ((f->percent_limit > 0 &&
		     rowset__percent(rs, r) < f->percent_limit) ||
		    (f->max_rows && kept >= f->max_rows)) {
			rs->hidden_rows++;
			continue;
		}
		rs->shown_samples += r->samples;
		rs->shown_period += r->period;
		rs->rows[kept++] = *r;
	}
	rs->nr = kept;
	return 0;
}
