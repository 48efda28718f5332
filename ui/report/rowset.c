/* rowset: display rows grouped and sorted from a snapshot (pure): the
 * grouping, the filters and the build; the memo and paths index are
 * rowmemo.c's, the call-graph trees callgraph.c's, a function's callers
 * and callees neighbours.c's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/symbolizer.h"
#include "ui/report/rowset.h"
#include "ui/report/rowset_internal.h"


void rowset__init(struct rowset *rs)
{
	memset(rs, 0, sizeof(*rs));
}

void rowset__fini(struct rowset *rs)
{
	free(rs->rows);
	free(rs->slots);
	rowset_memo__free(rs->memo);
	memset(rs, 0, sizeof(*rs));
}

double rowset__percent(const struct rowset *rs, const struct row *r)
{
	return share_percent(r->period, r->samples, rs->total_period,
			     rs->total_samples);
}

double rowset__percent_children(const struct rowset *rs, const struct row *r)
{
	return share_percent(r->children_period, r->children_samples,
			     rs->total_period, rs->total_samples);
}

void group_key__make(struct group_key *g, const struct sort_spec *spec,
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
			/* by name: inlined into several functions, one row */
			if (r->inlined) {
				g->inlined = r->sym;
				g->sym = 0;
			}
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
		case SORT_CGROUP:
			g->cgroup = r->cgroup;
			break;
		case SORT_STATE:
			g->state = r->state;
			break;
		default:
			break;
		}
	}
}

u64 group_key__hash(const struct group_key *g)
{
	return hash_bytes(g, sizeof(*g));
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

int cmp_str(const char *a, const char *b)
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
	case SORT_DELTA:
	case SORT_ABSDELTA: {
		double x = children ? a->children_delta : a->delta;
		double y = children ? b->children_delta : b->delta;

		if (k == SORT_ABSDELTA) {
			x = x < 0 ? -x : x;
			y = y < 0 ? -y : y;
		}
		if (x != y)
			return x > y ? -1 : 1;
		/* vanished rows (no period) after the others */
		if (a->cmp != b->cmp)
			return a->cmp == CMP_GONE ? 1 :
			       b->cmp == CMP_GONE ? -1 : 0;
		return 0;
	}
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
	case SORT_CGROUP:
		return cmp_str(a->cgroup, b->cgroup);
	case SORT_STATE:
		return a->state < b->state ? -1 : a->state > b->state;
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

long rowset__find(const struct rowset *rs, const struct row *r)
{
	struct group_key g;
	size_t j;

	if (!rs->nslots)
		return -1;
	group_key__make(&g, &rs->spec, r);
	j = group_key__hash(&g) & (rs->nslots - 1);
	for (; rs->slots[j] != UINT32_MAX; j = (j + 1) & (rs->nslots - 1)) {
		struct group_key og;

		group_key__make(&og, &rs->spec, &rs->rows[rs->slots[j]]);
		if (memcmp(&og, &g, sizeof(g)) == 0)
			return rs->slots[j];
	}
	return -1;
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

/* A row for (dso, addr, sym) carrying the entry's other fields. */
void row__make(struct row *r, const struct hist_entry *e,
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
	r->cgroup = e->key.cgroup;
	r->pid = e->key.pid;
	r->tid = e->key.tid;
	r->cpu = e->key.cpu;
	r->state = e->key.state;
}

/* The filters that look at a row's object and symbol. */
bool row__visible(const struct row_filter *f, const struct row *r)
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
	    (!r->sym || !strcasestr(r->sym, f->sym_substr)))
		return false;
	return true;
}

bool entry__visible(const struct row_filter *f, const struct hist_entry *e)
{
	return !(f->has_pid && e->key.pid != f->pid) &&
	       !(f->has_tid && e->key.tid != f->tid) &&
	       !(f->has_cgroup && e->key.cgroup != f->cgroup);
}

/* The cancel hook's answer (rowset__set_cancel), asked at each chain or
 * entry: the hook keeps its own pace (table__cancelled reads the clock
 * once in 64 calls). */
bool rowset__cancelled(struct rowset *rs)
{
	return rs->cancel && rs->cancel(rs->cancel_ctx);
}

/* Children by walking every chain: each entry's period goes once to
 * every row on it, each frame asked whether its row is shown (when the
 * group key does not decide it: filter__by_key). */
static int rowset__children_walk(struct rowset *rs, const struct snapshot *snap,
			    const struct sort_spec *spec,
			    const struct row_filter *f, const long *entry_row)
{
	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		const struct cc_node *nd;
		struct cc_walk w;
		u32 stamp = (u32)i + 1;

		if (!entry__visible(f, e))
			continue;
		if (rowset__cancelled(rs))
			return -ECANCELED;
		if (entry_row[i] >= 0) {
			struct row *r = &rs->rows[entry_row[i]];

			r->children_samples += e->samples;
			r->children_period += e->period;
			r->stamp = stamp;
		}
		/* its callers: the chain's leaf is the entry itself */
		snapshot__callers(&w, snap, e->key.chain);
		while ((nd = cc_walk__next(&w))) {
			u32 fi = rowset__node_fs(rs, w.id);
			struct fsym *fs;
			struct row fr, *r;
			long k;

			if (fi == NONE)
				return -ENOMEM;
			fs = &rs->memo->fs[fi];
			/* the frame's row, made and found once per build when
			 * no entry field takes part in it */
			k = rs->memo->entry_fields ? ROW_UNSET : fs->row;
			if (k == ROW_UNSET) {
				row__make(&fr, e, nd->dso,
					  frame__show(nd->addr, true), &fs->sym);
				k = row__visible(f, &fr) ?
					    rowset__find_or_add(rs, spec, &fr) :
					    ROW_HIDDEN;
				if (k < 0 && k != ROW_HIDDEN)
					return (int)k;
				if (!rs->memo->entry_fields)
					fs->row = k;
			}
			if (k == ROW_HIDDEN)
				continue;
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

/* Whether a row's group key decides what the filters say of every frame
 * it stands for: then the Children come from the index.  Not so for a
 * symbol filter without grouping by symbol, or a kernel, user or object
 * filter without grouping by object: each frame is asked. */
static bool filter__by_key(const struct sort_spec *spec,
			   const struct row_filter *f)
{
	bool sym = sort_spec__has(spec, SORT_SYM);
	bool dso = sym || sort_spec__has(spec, SORT_DSO);

	if ((f->hide_kernel || f->hide_user || f->dso || f->dso_name) && !dso)
		return false;
	return sym || !f->sym_substr || !*f->sym_substr;
}

/* Children: each entry's period goes once to every row on its chain.
 * The paths index holds each group key once per entry (rowset__index):
 * a row's children total is the sum over its key's occurrences, and the
 * chains are not walked again (the index keeps the entries it has seen
 * from one build to the next). */
static int rowset__children(struct rowset *rs, const struct snapshot *snap,
			    const struct sort_spec *spec,
			    const struct row_filter *f)
{
	struct rowset_memo *m = rs->memo;
	int err = rowset__index(rs);

	if (err)
		return err;
	for (u32 k = 0; k < m->nr_keys; k++) {
		u32 o = m->key_off[k], end = m->key_off[k + 1];
		u32 i, off, n;
		const struct fsym *fs;
		u64 samples = 0, period = 0;
		struct row r;
		long row;

		if (o == end)
			continue;
		if (rowset__cancelled(rs))
			return -ECANCELED;
		/* the row, as its first occurrence shows it */
		i = m->occ_ent[o];
		off = m->ent_off[i];
		n = m->ent_off[i + 1] - off;
		fs = &m->fs[m->fr_fs[off + m->occ_from[o]]];
		row__make(&r, &snap->entries[i], fs->dso,
			  frame__show(fs->addr, m->occ_from[o] + 1 < n),
			  &fs->sym);
		if (!row__visible(f, &r))
			continue;
		row = rowset__find_or_add(rs, spec, &r);
		if (row < 0)
			return (int)row;
		for (; o < end; o++) {
			const struct hist_entry *e = &snap->entries[m->occ_ent[o]];

			samples += e->samples;
			period += e->period;
		}
		rs->rows[row].children_samples += samples;
		rs->rows[row].children_period += period;
	}
	return 0;
}

void rowset__set_inline_rows(struct rowset *rs, cg_inline_fn fn, void *ctx)
{
	rs->inl_rows = fn;
	rs->inl_rows_ctx = ctx;
}

/* Adds e once to the row of each function inlined at frame fi. */
static int rowset__inline_rows_of(struct rowset *rs,
				  const struct sort_spec *spec,
				  const struct row_filter *f,
				  const struct hist_entry *e, u32 fi, u32 stamp)
{
	const struct fsym *fs = &rs->memo->fs[fi];
	const char *names[MAX_INLINE];
	size_t n;

	if (!fs->sym.name || fs->whole)
		return 0;
	n = rs->inl_rows(rs->inl_rows_ctx, fs->dso, fs->addr, names,
			 MAX_INLINE);
	for (size_t j = 0; j < n && j < MAX_INLINE; j++) {
		struct row_sym sym = fs->sym;
		struct row fr, *r;
		long k;

		sym.name = names[j];
		row__make(&fr, e, fs->dso, fs->sym.start, &sym);
		fr.inlined = true;
		if (!row__visible(f, &fr))
			continue;
		k = rowset__find_or_add(rs, spec, &fr);
		if (k < 0)
			return (int)k;
		r = &rs->rows[k];
		if (r->stamp == stamp)
			continue;	/* once per sample */
		r->children_samples += e->samples;
		r->children_period += e->period;
		r->stamp = stamp;
	}
	return 0;
}

/* --inline's rows (rowset__set_inline_rows), after rowset__children
 * resolved every frame: the inline lookups go object by object. */
static int rowset__inline_rows(struct rowset *rs, const struct snapshot *snap,
			       const struct sort_spec *spec,
			       const struct row_filter *f)
{
	int err = 0;

	rowset__prefetch_inlines(rs, rs->inl_rows, rs->inl_rows_ctx);
	for (size_t i = 0; i < snap->nr && !err; i++) {
		const struct hist_entry *e = &snap->entries[i];
		u32 stamp = (u32)i + 1, fi;
		struct cc_walk w;

		if (!entry__visible(f, e))
			continue;
		if (rowset__cancelled(rs))
			return -ECANCELED;
		fi = rowset__entry_fs(rs, i);
		if (fi == NONE)
			return -ENOMEM;
		err = rowset__inline_rows_of(rs, spec, f, e, fi, stamp);
		snapshot__callers(&w, snap, e->key.chain);
		while (!err && cc_walk__next(&w)) {
			fi = rowset__node_fs(rs, w.id);
			if (fi == NONE)
				return -ENOMEM;
			err = rowset__inline_rows_of(rs, spec, f, e, fi, stamp);
		}
	}
	return err;
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
	rs->given = snap;
	/* trees, paths and neighbours read rs->snap: they leave idle out
	 * too, with no test of their own */
	if (!f->show_idle && snap->nr_idle) {
		snapshot__without_idle(snap, &rs->shown);
		snap = &rs->shown;
	}
	rs->nr = 0;
	rs->series = NULL;
	rs->snap = snap;
	rs->resolve = resolve;
	rs->resolve_ctx = ctx;
	rs->spec = *spec;
	rs->total_samples = snap->total_samples;
	rs->total_period = snap->total_period;
	rs->shown_samples = rs->shown_period = 0;
	rs->hidden_rows = 0;
	if (rowset__regroup(rs, spec, 64) ||
	    rowset__memo_begin(rs, snap, spec, f))
		return -ENOMEM;
	if (spec->children && !filter__by_key(spec, f)) {
		entry_row = malloc((snap->nr ? snap->nr : 1) * sizeof(*entry_row));
		if (!entry_row)
			return -ENOMEM;
	}

	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		const struct dso *dso = e->key.dso;
		struct row r;
		u32 fi;
		long k;

		if (entry_row)
			entry_row[i] = -1;
		if (!entry__visible(f, e))
			continue;
		fi = rowset__entry_fs(rs, i);
		if (fi == NONE) {
			err = -ENOMEM;
			goto out;
		}
		row__make(&r, e, dso, e->key.addr, &rs->memo->fs[fi].sym);
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
		err = entry_row ? rowset__children_walk(rs, snap, spec, f,
							entry_row) :
				  rowset__children(rs, snap, spec, f);
		if (!err && rs->inl_rows && sort_spec__has(spec, SORT_SYM))
			err = rowset__inline_rows(rs, snap, spec, f);
		if (err)
			goto out;
	}

	if (rs->cmp_rows) {
		err = rs->cmp_rows(rs->cmp_ctx, rs);
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
		double base = spec->children ? r->base_children_pct :
					       r->base_pct;

		/* compared: a row either side shows */
		if (base > pct)
			pct = base;

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
	/* cut short (rowset__set_cancel): no rows rather than rows without
	 * their Children */
	if (err == -ECANCELED)
		rs->nr = 0;
	/* the grouping table no longer matches the sorted rows */
	if (!err)
		err = rowset__regroup(rs, spec, rs->nr);
	/* what the memo holds serves the next build (m->gen is 0 when a
	 * provisional answer could not be remembered) */
	rs->memo->reusable = !err && rs->memo->gen;
	return err;
}

void rowset__set_cancel(struct rowset *rs, bool (*fn)(void *ctx), void *ctx)
{
	rs->cancel = fn;
	rs->cancel_ctx = ctx;
}

void rowset__set_compare(struct rowset *rs,
			 int (*fn)(void *ctx, struct rowset *rs), void *ctx)
{
	rs->cmp_rows = fn;
	rs->cmp_ctx = ctx;
}

bool rowset__same_row(const struct rowset *rs, const struct row *a,
		      const struct row *b)
{
	struct group_key ga, gb;

	group_key__make(&ga, &rs->spec, a);
	group_key__make(&gb, &rs->spec, b);
	return memcmp(&ga, &gb, sizeof(ga)) == 0;
}

