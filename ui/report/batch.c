/* batch: the headless front end's printers (text tables and JSON). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/batch.h"
#include "src/core/json.h"
#include "ui/report/compare.h"
#include "ui/report/fmt.h"
#include "ui/report/sanitize.h"

static void tree_line(void *ctx, const char *line, size_t len, u32 node)
{
	struct strbuf *sb = ctx;

	(void)node;
	strbuf__add(sb, line, len);
	strbuf__addc(sb, '\n');
}

static void batch__tree(struct strbuf *sb, const struct batch_opts *o,
			struct table *t, const struct row *r)
{
	struct callgraph tr;

	callgraph__init(&tr);
	if (rowset__tree_inline(&t->rows, r, o->order, o->inl, o->inl_ctx,
				&tr) == 0 && tr.nr > 1) {
		fmt__tree(&tr, "            ", o->tree_limit, tree_line, sb);
		strbuf__addc(sb, '\n');
	}
	callgraph__fini(&tr);
}

static void batch__text(struct strbuf *sb, const struct batch_opts *o,
			struct table *t, const struct header_info *hi)
{
	const struct snapshot *snap = table__snap(t, t->ev);
	struct columns cols;

	header__format(sb, hi, snap, "# ");
	columns__init(&cols, &t->spec, o->show_period);
	columns__timed(&cols, hi->time);
	/* --timeline: each row's share over the cells */
	if (t->rows.series)
		columns__history(&cols, t->rows.series->nr_buckets);
	columns__fit(&cols, &t->rows, 0, t->rows.nr, 0);
	strbuf__adds(sb, "# ");
	fmt__header(sb, &cols);
	strbuf__addc(sb, '\n');
	for (size_t i = 0; i < t->rows.nr; i++) {
		strbuf__adds(sb, "  ");
		fmt__row(sb, &cols, &t->rows, &t->rows.rows[i], NULL);
		strbuf__addc(sb, '\n');
		if (o->callgraph)
			batch__tree(sb, o, t, &t->rows.rows[i]);
	}
	if (t->rows.hidden_rows)
		strbuf__addf(sb, "# %" PRIu64 " more rows not shown\n",
			     t->rows.hidden_rows);
	strbuf__addc(sb, '\n');
}

/* Each frame nests an object, its key and an array: jq 1.6 (depth limit
 * 256 as it counts) reads about 83 frames, so trees stop at 64 with an
 * object {"truncated":true}. */
#define JSON_TREE_DEPTH 64

static void json_tree(struct json *j, const char *key,
		      const struct callgraph *tr, u32 p, double limit,
		      unsigned int depth)
{
	json__array(j, key);
	if (depth >= JSON_TREE_DEPTH && tr->nodes[p].first_child) {
		json__object(j, NULL);
		json__bool(j, "truncated", true);
		json__object_end(j);
		json__array_end(j);
		return;
	}
	for (u32 c = tr->nodes[p].first_child; c;
	     c = tr->nodes[c].next_sibling) {
		const struct cg_node *n = &tr->nodes[c];
		struct strbuf name;

		if (fmt__tree_percent(tr, n) < limit)
			continue;
		strbuf__init(&name);
		/* the plain name: "inlined" says what the text's suffix says */
		fmt__tree_sym(&name, n);
		json__object(j, NULL);
		json__str(j, "symbol", name.buf ? name.buf : "");
		json_sanitized(j, "dso", n->dso_name);
		json__bool(j, "kernel", n->kernel);
		json__bool(j, "inlined", n->inlined);
		json__fixed(j, "percent", fmt__tree_percent(tr, n), 4);
		json__u64(j, "samples", n->samples);
		json__u64(j, "period", n->period);
		json_tree(j, "children", tr, c, limit, depth + 1);
		json__object_end(j);
		strbuf__fini(&name);
	}
	json__array_end(j);
}

/* The baseline's share (null for a new row) and the delta. */
static void json_compare(struct json *j, const char *base_key,
			 const char *delta_key, const struct row *r,
			 double base, double delta)
{
	if (r->cmp == CMP_NEW)
		json__null(j, base_key);
	else
		json__fixed(j, base_key, base, 4);
	json__fixed(j, delta_key, delta, 4);
}

/* --timeline: counts per cell */
static void json_cells(struct json *j, const char *key, const u64 *v,
		       size_t n)
{
	json__array(j, key);
	for (size_t b = 0; b < n; b++)
		json__u64(j, NULL, v[b]);
	json__array_end(j);
}

static void batch__json_row(struct json *j, const struct batch_opts *o,
			    struct table *t, const struct row *r)
{
	const struct sort_spec *sp = &t->spec;
	bool pid = sort_spec__has(sp, SORT_PID) || sort_spec__has(sp, SORT_TID);
	bool comm = pid || sort_spec__has(sp, SORT_COMM);
	bool cgroup = sort_spec__has(sp, SORT_CGROUP);
	struct strbuf sym;

	json__object(j, NULL);
	json__fixed(j, "overhead", rowset__percent(&t->rows, r), 4);
	json__u64(j, "samples", r->samples);
	json__u64(j, "period", r->period);
	json_sanitized(j, "comm",
		       comm ? (r->comm ? r->comm : "[unknown]") : NULL);
	if (pid)
		json__s64(j, "pid", r->pid);
	else
		json__null(j, "pid");
	if (sort_spec__has(sp, SORT_TID))
		json__s64(j, "tid", r->tid);
	else
		json__null(j, "tid");
	if (sort_spec__has(sp, SORT_CPU))
		json__s64(j, "cpu", r->cpu);
	else
		json__null(j, "cpu");
	/* the short name a table shows, and the whole path */
	strbuf__init(&sym);
	if (cgroup) {
		fmt__cgroup(&sym, r->cgroup);
		json__str(j, "cgroup", sym.buf ? sym.buf : "");
	} else {
		json__null(j, "cgroup");
	}
	json_sanitized(j, "cgroup_path", cgroup ? r->cgroup : NULL);
	/* as the State column says it */
	if (sort_spec__has(sp, SORT_STATE)) {
		strbuf__reset(&sym);
		fmt__state(&sym, r->state);
		json__str(j, "state", sym.buf ? sym.buf : "");
	} else {
		json__null(j, "state");
	}
	json_sanitized(j, "dso", r->dso_name);
	/* the plain name, as in trees: "inlined" says what the text's
	 * suffix says */
	strbuf__reset(&sym);
	if (r->inlined)
		sanitize_str(&sym, r->sym);
	else
		fmt__symbol(&sym, r);
	json__str(j, "symbol", sym.buf ? sym.buf : "");
	strbuf__fini(&sym);
	json__bool(j, "resolved", r->sym != NULL);
	json__bool(j, "kernel", r->kernel);
	json__bool(j, "inlined", r->inlined);
	if (t->spec.children || o->callgraph) {
		json__fixed(j, "self", rowset__percent(&t->rows, r), 4);
		json__fixed(j, "children",
			    rowset__percent_children(&t->rows, r), 4);
		json__u64(j, "children_period", r->children_period);
	}
	if (o->callgraph) {
		struct callgraph tr;

		callgraph__init(&tr);
		if (rowset__tree_inline(&t->rows, r, o->order, o->inl,
					o->inl_ctx, &tr) == 0) {
			json_tree(j, "tree", &tr, 0, o->tree_limit, 0);
		} else {
			json__array(j, "tree");
			json__array_end(j);
		}
		callgraph__fini(&tr);
	}
	if (t->rows.series && t->history == HISTORY_CELLS) {
		const struct row_series *s = t->rows.series;
		size_t i = (size_t)(r - t->rows.rows);
		size_t n = i < s->nr_rows ? s->nr_buckets : 0;
		size_t at = n ? i * s->nr_buckets : 0;

		/* --timeline: the row's samples in each cell, self (and
		 * Children) as its samples count */
		json_cells(j, "timeline", n ? s->samples + at : NULL, n);
		if (s->children)
			json_cells(j, "timeline_children",
				   n ? s->csamples + at : NULL, n);
	}
	if (t->cmp) {
		static const char *const what[] = {
			[CMP_NONE] = "none", [CMP_BOTH] = "both",
			[CMP_NEW] = "new", [CMP_GONE] = "gone",
		};

		json_compare(j, "baseline", "delta", r, r->base_pct, r->delta);
		json__str(j, "compare", what[r->cmp]);
		if (t->spec.children)
			json_compare(j, "baseline_children", "delta_children",
				     r, r->base_children_pct,
				     r->children_delta);
	}
	json__object_end(j);
}

/* -g's recovery of callers: this event's samples, the session's
 * reasons */
static void json_fp_recovery(struct json *j, const struct ev_counts *c,
			     const u64 *why)
{
	json__object(j, "fp_recovery");
	json__u64(j, "copies", c->fp_copies);
	json__u64(j, "tied", c->fp_tied);
	json__u64(j, "inserted", c->fp_inserted);
	json__u64(j, "frames", c->fp_frames);
	json__object(j, "not_tied");
	json__u64(j, "no_ip", why[FP_FIX_NO_IP]);
	json__u64(j, "no_cfi", why[FP_FIX_NO_CFI]);
	json__u64(j, "cfi_not_read", why[FP_FIX_UNREADY]);
	json__u64(j, "copy_short", why[FP_FIX_SHORT]);
	json__u64(j, "rbp_not_frame", why[FP_FIX_NO_MATCH]);
	json__u64(j, "other_rbp", why[FP_FIX_RBP]);
	json__u64(j, "bad", why[FP_FIX_BAD]);
	json__object_end(j);
	json__object_end(j);
}

static void batch__json(struct strbuf *sb, const struct batch_opts *o,
			struct table *t, const struct header_info *hi)
{
	const struct snapshot *snap = table__snap(t, t->ev);
	const struct ev_counts *c = &snap->counts;
	struct json j;

	json__init(&j, sb);
	json__object(&j, NULL);
	json__fixed(&j, "time", hi->elapsed, 3);
	json_sanitized(&j, "event", hi->event);
	json_sanitized(&j, "target", hi->target);
	json__u64(&j, "freq", hi->freq);
	json__u64(&j, "sample_period", hi->period);
	/* --off-cpu: periods are the nanoseconds threads waited */
	if (hi->time) {
		json__bool(&j, hi->wall ? "wall" : "off_cpu", true);
		json__str(&j, "period_unit", "ns");
	}
	json__u64(&j, "samples", snap->total_samples);
	json__u64(&j, "period", snap->total_period);
	json__u64(&j, "total_samples", c->samples);
	json__u64(&j, "lost", header__lost(snap));
	json__u64(&j, "lost_records", c->lost);
	json__u64(&j, "lost_samples", c->lost_samples);
	json__u64(&j, "throttled", c->throttle);
	json__u64(&j, "dropped", header__dropped(snap));
	json__u64(&j, "filtered", c->filtered);
	json__u64(&j, "unwind_failed", c->unwind_failed);
	json__u64(&j, "unwind_no_stack", c->unwind_no_stack);
	json__fixed(&j, "idle", header__idle_share(snap), 4);
	json__u64(&j, "idle_samples", snap->idle_samples);
	json__u64(&j, "idle_period", snap->idle_period);
	json__bool(&j, "idle_shown", hi->show_idle);
	json__fixed(&j, "kernel_share",
		    header__kernel_share(snap, hi->show_idle), 4);
	json__bool(&j, "finished", hi->finished);
	if (c->fp_copies)
		json_fp_recovery(&j, c, snap->session.fp_fix);
	/* what the session holds: distinct keys, call chain nodes */
	json__u64(&j, "entries", snap->nr);
	json__u64(&j, "chain_nodes", snap->nr_chains ? snap->nr_chains - 1 : 0);
	/* the memory budget's folds, once there were some (the header's
	 * "memory budget:" line) */
	if (snap->session.budget_folds) {
		json__object(&j, "budget_folded");
		json__u64(&j, "entries", snap->session.budget_entries);
		json__u64(&j, "chain_nodes", snap->session.budget_nodes);
		json__object_end(&j);
	}
	if (t->rows.series && t->history == HISTORY_CELLS) {
		const struct row_series *s = t->rows.series;
		u64 t0, w = timeline__grid(t->tl, &t0);
		u64 units = timeline__cell_units(t->tl);

		/* the cells: their length, where the first starts (from the
		 * first sample of a recording, or the start), and every
		 * sample of each (idle out unless shown, as the rows) */
		json__sig(&j, "timeline_interval",
			  (double)(w * units) / 1e9, 9);
		json__sig(&j, "timeline_start",
			  (double)(w * timeline__first_unit(t->tl) +
				   t->series_c0 * w * units) / 1e9, 9);
		json_cells(&j, "timeline_samples", s->tot_samples,
			   s->nr_buckets);
		if (timeline__dropped(t->tl))
			json__u64(&j, "timeline_dropped",
				  timeline__dropped(t->tl));
	}
	json__array(&j, "per_cpu");
	for (size_t i = 0; i < snap->nr_cpus; i++) {
		const struct ev_counts *pc = &snap->cpu_counts[i];

		if (!pc->samples && !pc->lost && !pc->lost_samples &&
		    !pc->dropped && !pc->unwind_failed)
			continue;
		json__object(&j, NULL);
		json__u64(&j, "cpu", i);
		json__u64(&j, "samples", pc->samples);
		json__u64(&j, "lost", pc->lost);
		json__u64(&j, "lost_samples", pc->lost_samples);
		json__u64(&j, "dropped", pc->dropped);
		json__u64(&j, "unwind_failed", pc->unwind_failed);
		json__object_end(&j);
	}
	json__array_end(&j);
	if (t->cmp && hi->base_snap) {
		const struct snapshot *b = hi->base_snap;

		json__object(&j, "baseline");
		json_sanitized(&j, "source", hi->baseline);
		json__u64(&j, "samples", b->total_samples);
		json__u64(&j, "period", b->total_period);
		json__fixed(&j, "time", header__span(b), 3);
		json__u64(&j, "idle_samples", b->idle_samples);
		json__u64(&j, "rows", compare__base_rows(t->cmp));
		json__object_end(&j);
	}
	json__array(&j, "sort");
	for (size_t i = 0; i < t->spec.nr_group; i++)
		json__str(&j, NULL, sort_key__name(t->spec.group[i]));
	json__array_end(&j);
	json__str(&j, "order", sort_key__name(t->spec.order));
	json__array(&j, "rows");
	for (size_t i = 0; i < t->rows.nr; i++)
		batch__json_row(&j, o, t, &t->rows.rows[i]);
	json__array_end(&j);
	json__u64(&j, "hidden_rows", t->rows.hidden_rows);
	if (o->json_more)
		o->json_more(&j, o->json_more_ctx);
	json__object_end(&j);
	strbuf__addc(sb, '\n');
}

/* Folded stacks: one "root;...;leaf count" line per distinct path;
 * inlined functions are frames of their own, named plainly, as
 * stackcollapse-perf.pl --inline (addr2line -i) names them. */

static int folded__path(void *ctx, const struct path_frame *frames,
			size_t n, const struct hist_entry *e)
{
	struct folded *f = ctx;
	const char *key;
	uintptr_t c;

	strbuf__reset(&f->line);
	/* the process first (--root), as stackcollapse-perf.pl */
	stack_root__label(&f->line, f->root, &e->key);
	for (size_t k = 0; k < f->line.len; k++)
		if (f->line.buf[k] == ';')
			f->line.buf[k] = '_';
	for (size_t i = 0; i < n; i++) {
		const struct row_sym *fs = &frames[i].sym;
		size_t at = f->line.len;

		if (at)
			strbuf__addc(&f->line, ';');
		if (fs->name)
			sanitize_str(&f->line, fs->name);
		else {
			strbuf__addc(&f->line, '[');
			sanitize_str(&f->line, fs->dso_name);
			strbuf__addf(&f->line, "+0x%" PRIx64 "]", fs->start);
		}
		/* ';' and ' ' separate frames and the count */
		for (size_t k = at + !!at; k < f->line.len; k++)
			if (f->line.buf[k] == ';' || f->line.buf[k] == ' ')
				f->line.buf[k] = '_';
	}
	if (f->line.oom)
		return -ENOMEM;
	key = strpool__intern(f->pool, f->line.buf, f->line.len);
	if (!key)
		return -ENOMEM;
	c = (uintptr_t)intmap__get(f->into, (u64)(uintptr_t)key);
	/* counts are stored plus one so that zero is "absent" */
	return intmap__put(f->into, (u64)(uintptr_t)key,
			   (void *)(c ? c + e->samples : e->samples + 1));
}

struct folded_line {
	const char *path;
	u64 count, base;
};

static int folded_cmp(const void *a, const void *b)
{
	const struct folded_line *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->base != y->base)
		return x->base > y->base ? -1 : 1;
	return strcmp(x->path, y->path);
}

static u64 folded__count(const struct intmap *m, const char *path)
{
	uintptr_t c = (uintptr_t)intmap__get(m, (u64)(uintptr_t)path);

	return c ? c - 1 : 0;
}

/* The output's begin: the stacks' tables (of this event's rows, then of
 * the baseline's). */
static int folded__begin(void *ctx)
{
	struct batch_folded *bf = ctx;
	struct folded *f = &bf->f;

	*f = (struct folded){ .pool = strpool__new(), .root = bf->o->root };
	intmap__init(&f->counts);
	intmap__init(&f->base);
	strbuf__init(&f->line);
	f->into = &f->counts;
	return f->pool ? 0 : -ENOMEM;
}

static int folded__sample(void *ctx, const struct out_sample *s)
{
	struct batch_folded *bf = ctx;

	/* an entry the rows leave out is no stack */
	return s->frames ? folded__path(&bf->f, s->frames, s->nr_frames, s->e) :
			   0;
}

/* With a baseline, two counts per stack, the baseline's first: the
 * format of flamegraph.pl's difffolded.pl, which flamegraph.pl reads.
 * The stacks are printed whatever came of the other outputs (write). */
static int folded__end(void *ctx, int err, bool write)
{
	struct batch_folded *bf = ctx;
	struct folded *fp = &bf->f;
	const struct batch_opts *o = bf->o;
	struct table *t = bf->t;
	struct strbuf *sb = bf->sb;
	struct folded_line *lines = NULL;
	struct rowset *base = t->cmp && t->base ? &t->base->rows : NULL;
	size_t n = 0, i = 0;
	u64 k;
	void *v;

	(void)write;
	if (!err && base) {
		fp->into = &fp->base;
		err = rowset__foreach_path_inline(base, o->inl, o->inl_ctx,
						  folded__path, fp);
	}
	if (!err && (lines = malloc((fp->counts.nr + fp->base.nr + 1) *
				    sizeof(*lines)))) {
		while (intmap__next(&fp->counts, &i, &k, &v)) {
			lines[n].path = (const char *)(uintptr_t)k;
			lines[n].count = (uintptr_t)v - 1;
			lines[n].base = folded__count(&fp->base, lines[n].path);
			n++;
		}
		for (i = 0; base && intmap__next(&fp->base, &i, &k, &v);) {
			if (intmap__get(&fp->counts, k))
				continue;
			lines[n].path = (const char *)(uintptr_t)k;
			lines[n].count = 0;
			lines[n++].base = (uintptr_t)v - 1;
		}
		qsort(lines, n, sizeof(*lines), folded_cmp);
		for (i = 0; i < n; i++) {
			if (base)
				strbuf__addf(sb, "%s %" PRIu64 " %" PRIu64 "\n",
					     lines[i].path, lines[i].base,
					     lines[i].count);
			else
				strbuf__addf(sb, "%s %" PRIu64 "\n",
					     lines[i].path, lines[i].count);
		}
	}
	free(lines);
	strbuf__fini(&fp->line);
	intmap__fini(&fp->base);
	intmap__fini(&fp->counts);
	strpool__free(fp->pool);
	return 0;
}

static const struct output_ops folded_ops = {
	.begin = folded__begin,
	.sample = folded__sample,
	.end = folded__end,
	.paths = true,
};

struct output batch__folded(struct batch_folded *bf, struct strbuf *sb,
			    const struct batch_opts *o, struct table *t)
{
	bf->sb = sb;
	bf->o = o;
	bf->t = t;
	return (struct output){ .ops = &folded_ops, .ctx = bf };
}

void batch__format(struct strbuf *sb, const struct batch_opts *o,
		   struct table *t, const struct header_info *hi)
{
	if (o->folded) {
		struct batch_folded bf;
		struct output out = batch__folded(&bf, sb, o, t);

		output__pass(&out, 1, t, table__snap(t, t->ev), o->inl,
			     o->inl_ctx);
	} else if (o->json)
		batch__json(sb, o, t, hi);
	else
		batch__text(sb, o, t, hi);
}

int batch__annotate(struct strbuf *sb, const struct batch_opts *o,
		    struct annotator *an, const struct snapshot *snap,
		    const char *name, const struct header_info *hi,
		    struct strbuf *why)
{
	struct ann_fmt f = { .value = ANN_PERCENT };
	struct ann_scope sc = { 0 };
	struct annotation *a;
	const struct dso *dso;
	u64 addr;
	int err;

	err = annotator__find(an, snap, name, &dso, &addr, NULL);
	if (err == -ENOENT) {
		if (o->json) {
			struct json j;

			json__init(&j, sb);
			json__object(&j, NULL);
			json__fixed(&j, "time", hi->elapsed, 3);
			json_sanitized(&j, "event", hi->event);
			json_sanitized(&j, "symbol", name);
			json__bool(&j, "found", false);
			json__object_end(&j);
			strbuf__addc(sb, '\n');
		} else {
			header__format(sb, hi, snap, "# ");
			strbuf__adds(sb, "# annotate ");
			sanitize_str(sb, name);
			strbuf__adds(sb, ": no such function in the code "
					 "sampled so far\n\n");
		}
		return -ENOENT;
	}
	if (err)
		return err;
	err = annotator__open(an, dso, addr, &a, why);
	if (err)
		return err;
	/* off-CPU and wall time: where the function ran or waited */
	sc.chains = hi->time || hi->wall;
	annotation__count_scope(a, snap, &sc);
	if (o->json) {
		annotation__json(a, hi, sb);
	} else {
		header__format(sb, hi, snap, "# ");
		annotation__text(a, hi->event, ANN_BOTH, &f, sb);
	}
	annotation__put(a);
	return 0;
}

void batch__annotate_close(struct annotator *an,
			   const struct snapshot *snap, const char *name,
			   struct strbuf *close)
{
	const struct dso *dso;
	u64 addr;

	if (snap)
		annotator__find(an, snap, name, &dso, &addr, close);
}
