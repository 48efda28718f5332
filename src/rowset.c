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
	free(rs->node_sym);
	free(rs->node_done);
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

double rowset__percent_children(const struct rowset *rs, const struct row *r)
{
	if (rs->total_period)
		return 100.0 * (double)r->children_period /
		       (double)rs->total_period;
	if (rs->total_samples)
		return 100.0 * (double)r->children_samples /
		       (double)rs->total_samples;
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

static int cmp_key(const struct row *a, const struct row *b, enum sort_key k,
		   bool children)
{
	switch (k) {
	case SORT_OVERHEAD:
		if (children && a->children_period != b->children_period)
			return a->children_period > b->children_period ? -1 : 1;
		/* fall through */
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
	bool ch = cmp_spec->children;
	int c = cmp_key(a, b, cmp_spec->order, ch);

	if (c)
		return cmp_spec->invert ? -c : c;
	c = cmp_key(a, b, SORT_OVERHEAD, ch);
	if (c)
		return c;
	c = cmp_key(a, b, SORT_SAMPLES, ch);
	if (c)
		return c;
	for (size_t i = 0; i < cmp_spec->nr_group; i++) {
		c = cmp_key(a, b, cmp_spec->group[i], ch);
		if (c)
			return c;
	}
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Finds the row with r's identity under spec, or appends r; returns its
 * index or -ENOMEM. */
static long rowset__find_or_add(struct rowset *rs, const struct sort_spec *spec,
				const struct row *r)
{
	struct group_key g;
	size_t j;

	group_key__make(&g, spec, r);
	j = group_key__hash(&g) & (rs->nslots - 1);
	for (; rs->slots[j] != UINT32_MAX; j = (j + 1) & (rs->nslots - 1)) {
		struct group_key og;

		group_key__make(&og, spec, &rs->rows[rs->slots[j]]);
		if (memcmp(&og, &g, sizeof(g)) == 0)
			return rs->slots[j];
	}
	if (rs->nr >= UINT32_MAX - 1 ||
	    array__grow((void **)&rs->rows, &rs->cap, rs->nr + 1,
			sizeof(*rs->rows)))
		return -ENOMEM;
	rs->rows[rs->nr] = *r;
	rs->slots[j] = (u32)rs->nr++;
	if (rs->nr * 2 > rs->nslots && rowset__regroup(rs, spec, rs->nr * 2))
		return -ENOMEM;
	return (long)(rs->nr - 1);
}

/* The resolution of chain node id, memoized for this build. */
static const struct row_sym *rowset__node_sym(struct rowset *rs, u32 id)
{
	const struct cc_node *nd = &rs->snap->chains[id];
	struct row_sym *sym = &rs->node_sym[id];

	if (!rs->node_done[id]) {
		memset(sym, 0, sizeof(*sym));
		if (rs->resolve(rs->resolve_ctx, nd->dso, nd->addr, sym) ||
		    !sym->dso_name)
			sym->dso_name = nd->dso->name;
		if (!sym->name)
			sym->start = nd->addr;
		rs->node_done[id] = 1;
	}
	return sym;
}

/* A row for (dso, addr, sym) carrying the entry's other fields. */
static void row__make(struct row *r, const struct hist_entry *e,
		      const struct dso *dso, u64 addr, const struct row_sym *sym)
{
	memset(r, 0, sizeof(*r));
	r->dso = dso;
	r->dso_name = sym->dso_name;
	r->sym = sym->name;
	r->sym_start = sym->name ? sym->start : addr;
	r->sym_size = sym->name ? sym->size : 0;
	r->addr = addr;
	r->sym_flags = sym->flags;
	r->kernel = dso->kind == DSO_KERNEL;
	r->comm = e->key.comm;
	r->pid = e->key.pid;
	r->tid = e->key.tid;
	r->cpu = e->key.cpu;
}

/* The filters that look at a row's object and symbol. */
static bool row__visible(const struct row_filter *f, const struct row *r)
{
	if (f->hide_kernel && r->dso->kind == DSO_KERNEL)
		return false;
	if (f->hide_user && r->dso->kind != DSO_KERNEL)
		return false;
	if (f->dso && r->dso != f->dso)
		return false;
	if (f->dso_name && strcmp(r->dso_name, f->dso_name) != 0)
		return false;
	if (f->sym_substr && *f->sym_substr &&
	    (!r->sym || !contains_nocase(r->sym, f->sym_substr)))
		return false;
	return true;
}

static bool entry__visible(const struct row_filter *f,
			   const struct hist_entry *e)
{
	return !(f->has_pid && e->key.pid != f->pid) &&
	       !(f->has_tid && e->key.tid != f->tid);
}

static int rowset__prepare_nodes(struct rowset *rs, const struct snapshot *snap)
{
	size_t n = snap->nr_chains;

	if (n > rs->node_cap) {
		struct row_sym *s = realloc(rs->node_sym, n * sizeof(*s));
		u8 *d;

		if (!s)
			return -ENOMEM;
		rs->node_sym = s;
		d = realloc(rs->node_done, n);
		if (!d)
			return -ENOMEM;
		rs->node_done = d;
		rs->node_cap = n;
	}
	if (n)
		memset(rs->node_done, 0, n);
	return 0;
}

/* Children: each entry's period goes once to every row on its chain. */
static int rowset__children(struct rowset *rs, const struct snapshot *snap,
			    const struct sort_spec *spec,
			    const struct row_filter *f, const long *entry_row)
{
	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		u32 stamp = (u32)i + 1, id = e->key.chain;

		if (!entry__visible(f, e))
			continue;
		if (entry_row[i] >= 0) {
			struct row *r = &rs->rows[entry_row[i]];

			r->children_samples += e->samples;
			r->children_period += e->period;
			r->stamp = stamp;
		}
		for (; id && id < snap->nr_chains; id = snap->chains[id].parent) {
			const struct cc_node *nd = &snap->chains[id];
			struct row fr, *r;
			long k;

			row__make(&fr, e, nd->dso, nd->addr,
				  rowset__node_sym(rs, id));
			if (!row__visible(f, &fr))
				continue;
			k = rowset__find_or_add(rs, spec, &fr);
			if (k < 0)
				return (int)k;
			r = &rs->rows[k];
			if (r->stamp == stamp)
				continue;	/* recursion: once per sample */
			r->children_samples += e->samples;
			r->children_period += e->period;
			r->stamp = stamp;
		}
	}
	return 0;
}

int rowset__build(struct rowset *rs, const struct snapshot *snap,
		  const struct sort_spec *spec, const struct row_filter *f,
		  row_resolve_fn resolve, void *ctx)
{
	static const struct row_filter none;
	long *entry_row = NULL;
	size_t kept = 0;
	int err = 0;

	if (!f)
		f = &none;
	/* trees, paths and neighbours read rs->snap: they leave idle out
	 * too, with no test of their own */
	if (!f->show_idle && snap->nr_idle) {
		snapshot__without_idle(snap, &rs->shown);
		snap = &rs->shown;
	}
	rs->nr = 0;
	rs->snap = snap;
	rs->resolve = resolve;
	rs->resolve_ctx = ctx;
	rs->spec = *spec;
	rs->total_samples = snap->total_samples;
	rs->total_period = snap->total_period;
	rs->shown_samples = rs->shown_period = 0;
	rs->hidden_rows = 0;
	if (rowset__regroup(rs, spec, 64) || rowset__prepare_nodes(rs, snap))
		return -ENOMEM;
	if (spec->children) {
		entry_row = malloc((snap->nr ? snap->nr : 1) * sizeof(*entry_row));
		if (!entry_row)
			return -ENOMEM;
	}

	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		const struct dso *dso = e->key.dso;
		struct row_sym sym = { 0 };
		struct row r;
		long k;

		if (entry_row)
			entry_row[i] = -1;
		if (!entry__visible(f, e))
			continue;
		if (resolve(ctx, dso, e->key.addr, &sym) || !sym.dso_name)
			sym.dso_name = dso->name;
		row__make(&r, e, dso, e->key.addr, &sym);
		if (!row__visible(f, &r))
			continue;
		k = rowset__find_or_add(rs, spec, &r);
		if (k < 0) {
			err = (int)k;
			goto out;
		}
		if (entry_row)
			entry_row[i] = k;
		if (k == (long)rs->nr - 1 && rs->rows[k].samples == 0 &&
		    rs->rows[k].period == 0) {
			rs->rows[k].samples = e->samples;
			rs->rows[k].period = e->period;
			continue;
		}
		rs->rows[k].samples += e->samples;
		rs->rows[k].period += e->period;
		/* an unresolved row shows its lowest address */
		if (!rs->rows[k].sym && r.addr < rs->rows[k].addr)
			rs->rows[k].addr = r.addr;
	}
	if (spec->children) {
		err = rowset__children(rs, snap, spec, f, entry_row);
		if (err)
			goto out;
	}

	if (rs->nr > 1) {
		/* qsort_r's context is not const; the comparator only reads */
		struct sort_spec copy = *spec;

		qsort_r(rs->rows, rs->nr, sizeof(*rs->rows), row_cmp, &copy);
	}

	for (size_t i = 0; i < rs->nr; i++) {
		struct row *r = &rs->rows[i];
		double pct = spec->children ? rowset__percent_children(rs, r) :
					      rowset__percent(rs, r);

		if ((f->percent_limit > 0 && pct < f->percent_limit) ||
		    (f->max_rows && kept >= f->max_rows)) {
			rs->hidden_rows++;
			continue;
		}
		rs->shown_samples += r->samples;
		rs->shown_period += r->period;
		rs->rows[kept++] = *r;
	}
	rs->nr = kept;
out:
	free(entry_row);
	/* the grouping table no longer matches the sorted rows */
	if (!err)
		err = rowset__regroup(rs, spec, rs->nr);
	return err;
}

void cg_tree__init(struct cg_tree *t)
{
	memset(t, 0, sizeof(*t));
}

void cg_tree__fini(struct cg_tree *t)
{
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

/* The child of parent showing sym, created if needed; 0 on ENOMEM. */
static u32 cg_tree__child(struct cg_tree *t, u32 parent, const struct dso *dso,
			  const struct row_sym *sym, u64 addr, bool inlined)
{
	u32 c;

	for (c = t->nodes[parent].first_child; c; c = t->nodes[c].next_sibling) {
		const struct cg_node *n = &t->nodes[c];

		/* a function by its start (overloads share a name, as in
		 * perf, which merges chain entries by symbol address); an
		 * inlined one by its name; no symbol: the address */
		if (n->dso_name == sym->dso_name && n->sym == sym->name &&
		    n->inlined == inlined &&
		    (sym->name ? inlined || n->addr == sym->start :
				 n->addr == addr))
			return c;
	}
	if (t->nr >= UINT32_MAX ||
	    array__grow((void **)&t->nodes, &t->cap, t->nr + 1,
			sizeof(*t->nodes)))
		return 0;
	c = (u32)t->nr++;
	t->nodes[c] = (struct cg_node){
		.sym = sym->name,
		.dso_name = sym->dso_name,
		.dso = dso,
		.addr = sym->name ? sym->start : addr,
		.kernel = dso->kind == DSO_KERNEL,
		.inlined = inlined,
		.parent = parent,
		.next_sibling = t->nodes[parent].first_child,
		.depth = t->nodes[parent].depth + 1,
	};
	t->nodes[parent].first_child = c;
	return c;
}

static u64 cg_period_of;	/* unused marker for readability */

static int cg_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct cg_tree *t = ctx;
	const struct cg_node *a = &t->nodes[*(const u32 *)pa];
	const struct cg_node *b = &t->nodes[*(const u32 *)pb];

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	return *(const u32 *)pa < *(const u32 *)pb ? -1 : 1;
}

/* Orders every node's children by period, largest first. */
static int cg_tree__sort(struct cg_tree *t)
{
	u32 *kids = NULL;
	size_t cap = 0;

	for (size_t p = 0; p < t->nr; p++) {
		size_t n = 0;

		for (u32 c = t->nodes[p].first_child; c; c = t->nodes[c].next_sibling) {
			if (array__grow((void **)&kids, &cap, n + 1, sizeof(*kids))) {
				free(kids);
				return -ENOMEM;
			}
			kids[n++] = c;
		}
		if (n < 2)
			continue;
		qsort_r(kids, n, sizeof(*kids), cg_cmp, t);
		t->nodes[p].first_child = kids[0];
		for (size_t i = 0; i < n; i++)
			t->nodes[kids[i]].next_sibling = i + 1 < n ? kids[i + 1] : 0;
	}
	free(kids);
	return 0;
}

/* The frames of an entry, root first, leaf (the entry itself) last. */
static size_t entry__frames(struct rowset *rs, const struct hist_entry *e,
			    const struct row_sym *leaf, const struct row_sym **out,
			    const struct dso **dsos, u64 *addrs, size_t max)
{
	const struct snapshot *snap = rs->snap;
	size_t n = 0;
	u32 id = e->key.chain;

	/* the chain's leaf node is the sampled ip: the entry itself */
	if (id && id < snap->nr_chains)
		id = snap->chains[id].parent;
	for (; id && id < snap->nr_chains && n + 1 < max;
	     id = snap->chains[id].parent) {
		out[n] = rowset__node_sym(rs, id);
		dsos[n] = snap->chains[id].dso;
		addrs[n] = snap->chains[id].addr;
		n++;
	}
	/* reverse into root-first order */
	for (size_t i = 0; i < n / 2; i++) {
		const struct row_sym *t = out[i];
		const struct dso *d = dsos[i];
		u64 a = addrs[i];

		out[i] = out[n - 1 - i];
		dsos[i] = dsos[n - 1 - i];
		addrs[i] = addrs[n - 1 - i];
		out[n - 1 - i] = t;
		dsos[n - 1 - i] = d;
		addrs[n - 1 - i] = a;
	}
	out[n] = leaf;
	dsos[n] = e->key.dso;
	addrs[n] = e->key.addr;
	return n + 1;
}

#define MAX_FRAMES 1024

/* Max inlined functions shown per frame. */
#define MAX_INLINE 16

/*
 * What frame (dso, fr, addr) of a path shows: the function, then the
 * functions fn says are inlined in it at that address, outermost first
 * (out[0] is the function).  Trees and paths both expand frames here.
 */
static size_t frame__expand(const struct dso *dso, const struct row_sym *fr,
			    u64 addr, cg_inline_fn fn, void *ctx,
			    struct path_frame out[MAX_INLINE + 1])
{
	const char *names[MAX_INLINE];
	size_t n = fr->name && fn ? fn(ctx, dso, addr, names, MAX_INLINE) : 0;

	if (n > MAX_INLINE)
		n = MAX_INLINE;
	out[0] = (struct path_frame){ .sym = *fr };
	/* names are innermost first */
	for (size_t k = 1; k <= n; k++)
		out[k] = (struct path_frame){
			.sym = { .name = names[n - k],
				 .dso_name = fr->dso_name, .start = addr },
			.inlined = true,
		};
	return n + 1;
}

/* Adds a frame of a path below *node, expanded (frame__expand); in
 * callee order, where the path runs from the leaf up, reversed. */
static int cg_tree__add_frame(struct cg_tree *t, u32 *node,
			      const struct dso *dso, const struct row_sym *fr,
			      u64 addr, enum cg_order order, cg_inline_fn fn,
			      void *ctx, const struct hist_entry *e)
{
	struct path_frame ex[MAX_INLINE + 1];
	size_t n = frame__expand(dso, fr, addr, fn, ctx, ex);

	for (size_t k = 0; k < n; k++) {
		size_t i = order == CG_CALLER ? k : n - 1 - k;

		*node = cg_tree__child(t, *node, dso, &ex[i].sym, addr,
				       ex[i].inlined);
		if (!*node)
			return -ENOMEM;
		t->nodes[*node].samples += e->samples;
		t->nodes[*node].period += e->period;
	}
	return 0;
}

int rowset__tree(struct rowset *rs, const struct row *x, enum cg_order order,
		 struct cg_tree *t)
{
	return rowset__tree_inline(rs, x, order, NULL, NULL, t);
}

int rowset__tree_inline(struct rowset *rs, const struct row *x,
			enum cg_order order, cg_inline_fn fn, void *ctx,
			struct cg_tree *t)
{
	const struct snapshot *snap = rs->snap;
	const struct row_sym *fr[MAX_FRAMES];
	const struct dso *dsos[MAX_FRAMES];
	u64 addrs[MAX_FRAMES];
	struct group_key gx;

	(void)cg_period_of;
	t->nr = 0;
	if (array__grow((void **)&t->nodes, &t->cap, 1, sizeof(*t->nodes)))
		return -ENOMEM;
	memset(&t->nodes[0], 0, sizeof(t->nodes[0]));
	t->nr = 1;
	t->total_samples = x->children_samples ? x->children_samples : x->samples;
	t->total_period = x->children_period ? x->children_period : x->period;
	if (!snap)
		return 0;
	group_key__make(&gx, &rs->spec, x);

	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		struct row_sym leaf = { 0 };
		size_t n, from = SIZE_MAX;
		u32 node = 0;

		if (!e->key.chain)
			continue;
		if (rs->resolve(rs->resolve_ctx, e->key.dso, e->key.addr, &leaf) ||
		    !leaf.dso_name)
			leaf.dso_name = e->key.dso->name;
		n = entry__frames(rs, e, &leaf, fr, dsos, addrs, MAX_FRAMES);
		/* the outermost frame that is x */
		for (size_t k = 0; k < n; k++) {
			struct group_key g;
			struct row r;

			row__make(&r, e, dsos[k], addrs[k], fr[k]);
			group_key__make(&g, &rs->spec, &r);
			if (memcmp(&g, &gx, sizeof(g)) == 0) {
				from = k;
				break;
			}
		}
		if (from == SIZE_MAX)
			continue;
		/* its own samples: the whole chain; its callees': from x */
		if (from == n - 1)
			from = 0;
		for (size_t k = 0; k < n - from; k++) {
			size_t j = order == CG_CALLER ? from + k : n - 1 - k;
			int err = cg_tree__add_frame(t, &node, dsos[j], fr[j],
						     addrs[j], order, fn, ctx,
						     e);

			if (err)
				return err;
		}
	}
	return cg_tree__sort(t);
}

int rowset__foreach_path(struct rowset *rs, row_path_fn fn, void *ctx)
{
	return rowset__foreach_path_inline(rs, NULL, NULL, fn, ctx);
}

int rowset__foreach_path_inline(struct rowset *rs, cg_inline_fn inl,
				void *inl_ctx, row_path_fn fn, void *ctx)
{
	const struct snapshot *snap = rs->snap;
	const struct row_sym *fr[MAX_FRAMES];
	const struct dso *dsos[MAX_FRAMES];
	u64 addrs[MAX_FRAMES];
	struct path_frame *path = NULL;
	size_t cap = 0;
	int err = 0;

	if (!snap)
		return 0;
	for (size_t i = 0; i < snap->nr && !err; i++) {
		const struct hist_entry *e = &snap->entries[i];
		struct row_sym leaf = { 0 };
		size_t n, np = 0;

		if (rs->resolve(rs->resolve_ctx, e->key.dso, e->key.addr, &leaf) ||
		    !leaf.dso_name)
			leaf.dso_name = e->key.dso->name;
		if (!leaf.name)
			leaf.start = e->key.addr;
		n = entry__frames(rs, e, &leaf, fr, dsos, addrs, MAX_FRAMES);
		for (size_t j = 0; j < n && !err; j++) {
			if (array__grow((void **)&path, &cap,
					np + MAX_INLINE + 1, sizeof(*path)))
				err = -ENOMEM;
			else
				np += frame__expand(dsos[j], fr[j], addrs[j],
						    inl, inl_ctx, path + np);
		}
		if (!err)
			err = fn(ctx, path, np, e);
	}
	free(path);
	return err;
}

bool rowset__same_row(const struct rowset *rs, const struct row *a,
		      const struct row *b)
{
	struct group_key ga, gb;

	group_key__make(&ga, &rs->spec, a);
	group_key__make(&gb, &rs->spec, b);
	return memcmp(&ga, &gb, sizeof(ga)) == 0;
}

void cg_neighbours__init(struct cg_neighbours *nb)
{
	memset(nb, 0, sizeof(*nb));
}

void cg_neighbours__fini(struct cg_neighbours *nb)
{
	free(nb->callers);
	free(nb->callees);
	memset(nb, 0, sizeof(*nb));
}

/* Counts frame k of a sample for the neighbour it is, once per sample
 * (stamp). */
static int neighbour__add(struct rowset *rs, struct row **arr, size_t *nr,
			  size_t *cap, const struct hist_entry *e,
			  const struct dso *dso, u64 addr,
			  const struct row_sym *sym, u32 stamp)
{
	struct group_key g, og;
	struct row r, *n = NULL;

	row__make(&r, e, dso, addr, sym);
	group_key__make(&g, &rs->spec, &r);
	for (size_t i = 0; i < *nr && !n; i++) {
		group_key__make(&og, &rs->spec, &(*arr)[i]);
		if (memcmp(&og, &g, sizeof(g)) == 0)
			n = &(*arr)[i];
	}
	if (!n) {
		if (array__grow((void **)arr, cap, *nr + 1, sizeof(**arr)))
			return -ENOMEM;
		n = &(*arr)[(*nr)++];
		*n = r;
	}
	if (n->stamp != stamp) {
		n->stamp = stamp;
		n->samples += e->samples;
		n->period += e->period;
	}
	return 0;
}

static int neighbour_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (!a->sym || !b->sym)
		return (a->sym == NULL) - (b->sym == NULL);
	return strcmp(a->sym, b->sym);
}

int rowset__neighbours(struct rowset *rs, const struct row *x,
		       struct cg_neighbours *nb)
{
	const struct snapshot *snap = rs->snap;
	const struct row_sym *fr[MAX_FRAMES];
	const struct dso *dsos[MAX_FRAMES];
	u64 addrs[MAX_FRAMES];
	struct group_key gx;

	nb->nr_callers = nb->nr_callees = 0;
	nb->total_samples = nb->total_period = 0;
	nb->self_samples = nb->self_period = 0;
	if (!snap)
		return 0;
	group_key__make(&gx, &rs->spec, x);
	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		struct row_sym leaf = { 0 };
		u32 stamp = (u32)i + 1;
		bool in = false, self = false;
		size_t n;

		if (rs->resolve(rs->resolve_ctx, e->key.dso, e->key.addr,
				&leaf) || !leaf.dso_name)
			leaf.dso_name = e->key.dso->name;
		n = entry__frames(rs, e, &leaf, fr, dsos, addrs, MAX_FRAMES);
		for (size_t k = 0; k < n; k++) {
			struct group_key g;
			struct row r;
			int err = 0;

			row__make(&r, e, dsos[k], addrs[k], fr[k]);
			group_key__make(&g, &rs->spec, &r);
			if (memcmp(&g, &gx, sizeof(g)) != 0)
				continue;
			in = true;
			/* the last frame is the entry itself */
			self |= k + 1 == n;
			if (k > 0)
				err = neighbour__add(rs, &nb->callers,
						     &nb->nr_callers,
						     &nb->cap_callers, e,
						     dsos[k - 1], addrs[k - 1],
						     fr[k - 1], stamp);
			if (!err && k + 1 < n)
				err = neighbour__add(rs, &nb->callees,
						     &nb->nr_callees,
						     &nb->cap_callees, e,
						     dsos[k + 1], addrs[k + 1],
						     fr[k + 1], stamp);
			if (err)
				return err;
		}
		if (!in)
			continue;
		nb->total_samples += e->samples;
		nb->total_period += e->period;
		if (self) {
			nb->self_samples += e->samples;
			nb->self_period += e->period;
		}
	}
	for (size_t i = 0; i < nb->nr_callers; i++)
		nb->callers[i].stamp = 0;
	for (size_t i = 0; i < nb->nr_callees; i++)
		nb->callees[i].stamp = 0;
	if (nb->nr_callers > 1)
		qsort(nb->callers, nb->nr_callers, sizeof(*nb->callers),
		      neighbour_cmp);
	if (nb->nr_callees > 1)
		qsort(nb->callees, nb->nr_callees, sizeof(*nb->callees),
		      neighbour_cmp);
	return 0;
}
