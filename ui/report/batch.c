/* batch: the headless front end's printers (text tables and JSON). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/batch.h"
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
	struct cg_tree tr;

	cg_tree__init(&tr);
	if (rowset__tree_inline(&t->rows, r, o->order, o->inl, o->inl_ctx,
				&tr) == 0 && tr.nr > 1) {
		fmt__tree(&tr, "            ", o->tree_limit, tree_line, sb);
		strbuf__addc(sb, '\n');
	}
	cg_tree__fini(&tr);
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

static void json_key(struct strbuf *sb, const char *k)
{
	strbuf__addf(sb, "\"%s\":", k);
}

/* Each frame nests an object, its key and an array: jq 1.6 (depth limit
 * 256 as it counts) reads about 83 frames, so trees stop at 64 with an
 * object {"truncated":true}. */
#define JSON_TREE_DEPTH 64

static void json_tree(struct strbuf *sb, const struct cg_tree *tr, u32 p,
		      double limit, unsigned int depth)
{
	bool first = true;

	strbuf__addc(sb, '[');
	if (depth >= JSON_TREE_DEPTH && tr->nodes[p].first_child) {
		strbuf__adds(sb, "{\"truncated\":true}]");
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
		strbuf__adds(sb, first ? "{" : ",{");
		first = false;
		json_key(sb, "symbol");
		json_string(sb, name.buf ? name.buf : "");
		strbuf__addc(sb, ',');
		json_key(sb, "dso");
		json_sanitized(sb, n->dso_name);
		strbuf__addf(sb, ",\"kernel\":%s,\"inlined\":%s,\"percent\":%.4f,"
				 "\"samples\":%" PRIu64 ",\"period\":%" PRIu64
				 ",\"children\":",
			     n->kernel ? "true" : "false",
			     n->inlined ? "true" : "false",
			     fmt__tree_percent(tr, n), n->samples, n->period);
		json_tree(sb, tr, c, limit, depth + 1);
		strbuf__addc(sb, '}');
		strbuf__fini(&name);
	}
	strbuf__addc(sb, ']');
}

/* "baseline" (null for a new row) and "delta", with a suffix. */
static void json_compare(struct strbuf *sb, const char *suffix,
			 const struct row *r, double base, double delta)
{
	strbuf__addf(sb, ",\"baseline%s\":", suffix);
	if (r->cmp == CMP_NEW)
		strbuf__adds(sb, "null");
	else
		strbuf__addf(sb, "%.4f", base);
	strbuf__addf(sb, ",\"delta%s\":%.4f", suffix, delta);
}

static void batch__json_row(struct strbuf *sb, const struct batch_opts *o,
			    struct table *t, const struct row *r)
{
	const struct sort_spec *sp = &t->spec;
	bool pid = sort_spec__has(sp, SORT_PID) || sort_spec__has(sp, SORT_TID);
	bool comm = pid || sort_spec__has(sp, SORT_COMM);
	struct strbuf sym;

	strbuf__addf(sb, "{\"overhead\":%.4f,\"samples\":%" PRIu64
			 ",\"period\":%" PRIu64 ",",
		     rowset__percent(&t->rows, r), r->samples, r->period);
	json_key(sb, "comm");
	json_sanitized(sb, comm ? (r->comm ? r->comm : "[unknown]") : NULL);
	strbuf__addc(sb, ',');
	json_key(sb, "pid");
	if (pid)
		strbuf__addf(sb, "%d,", r->pid);
	else
		strbuf__adds(sb, "null,");
	json_key(sb, "tid");
	if (sort_spec__has(sp, SORT_TID))
		strbuf__addf(sb, "%d,", r->tid);
	else
		strbuf__adds(sb, "null,");
	json_key(sb, "cpu");
	if (sort_spec__has(sp, SORT_CPU))
		strbuf__addf(sb, "%d,", r->cpu);
	else
		strbuf__adds(sb, "null,");
	/* the short name a table shows, and the whole path */
	strbuf__init(&sym);
	json_key(sb, "cgroup");
	if (sort_spec__has(sp, SORT_CGROUP)) {
		fmt__cgroup(&sym, r->cgroup);
		json_string(sb, sym.buf ? sym.buf : "");
	} else {
		strbuf__adds(sb, "null");
	}
	strbuf__addc(sb, ',');
	json_key(sb, "cgroup_path");
	json_sanitized(sb, sort_spec__has(sp, SORT_CGROUP) ? r->cgroup : NULL);
	strbuf__addc(sb, ',');
	/* as the State column says it */
	json_key(sb, "state");
	if (sort_spec__has(sp, SORT_STATE)) {
		strbuf__reset(&sym);
		fmt__state(&sym, r->state);
		json_string(sb, sym.buf ? sym.buf : "");
	} else {
		strbuf__adds(sb, "null");
	}
	strbuf__addc(sb, ',');
	strbuf__fini(&sym);
	json_key(sb, "dso");
	json_sanitized(sb, r->dso_name);
	strbuf__addc(sb, ',');
	json_key(sb, "symbol");
	strbuf__init(&sym);
	/* the plain name, as in trees: "inlined" says what the text's
	 * suffix says */
	if (r->inlined)
		sanitize_str(&sym, r->sym);
	else
		fmt__symbol(&sym, r);
	json_string(sb, sym.buf ? sym.buf : "");
	strbuf__fini(&sym);
	strbuf__addf(sb, ",\"resolved\":%s,\"kernel\":%s,\"inlined\":%s",
		     r->sym ? "true" : "false", r->kernel ? "true" : "false",
		     r->inlined ? "true" : "false");
	if (t->spec.children || o->callgraph)
		strbuf__addf(sb, ",\"self\":%.4f,\"children\":%.4f"
			     ",\"children_period\":%" PRIu64,
			     rowset__percent(&t->rows, r),
			     rowset__percent_children(&t->rows, r),
			     r->children_period);
	if (o->callgraph) {
		struct cg_tree tr;

		cg_tree__init(&tr);
		strbuf__adds(sb, ",\"tree\":");
		if (rowset__tree_inline(&t->rows, r, o->order, o->inl,
					o->inl_ctx, &tr) == 0)
			json_tree(sb, &tr, 0, o->tree_limit, 0);
		else
			strbuf__adds(sb, "[]");
		cg_tree__fini(&tr);
	}
	if (t->rows.series && t->history == HISTORY_CELLS) {
		const struct row_series *s = t->rows.series;
		size_t i = (size_t)(r - t->rows.rows);

		/* --timeline: the row's samples in each cell, self (and
		 * Children) as its samples count */
		strbuf__adds(sb, ",\"timeline\":[");
		for (size_t b = 0; i < s->nr_rows && b < s->nr_buckets; b++)
			strbuf__addf(sb, "%s%" PRIu64, b ? "," : "",
				     s->samples[i * s->nr_buckets + b]);
		strbuf__addc(sb, ']');
		if (s->children) {
			strbuf__adds(sb, ",\"timeline_children\":[");
			for (size_t b = 0; i < s->nr_rows && b < s->nr_buckets;
			     b++)
				strbuf__addf(sb, "%s%" PRIu64, b ? "," : "",
					     s->csamples[i * s->nr_buckets + b]);
			strbuf__addc(sb, ']');
		}
	}
	if (t->cmp) {
		static const char *const what[] = {
			[CMP_NONE] = "none", [CMP_BOTH] = "both",
			[CMP_NEW] = "new", [CMP_GONE] = "gone",
		};

		json_compare(sb, "", r, r->base_pct, r->delta);
		strbuf__addf(sb, ",\"compare\":\"%s\"", what[r->cmp]);
		if (t->spec.children)
			json_compare(sb, "_children", r, r->base_children_pct,
				     r->children_delta);
	}
	strbuf__addc(sb, '}');
}

static void batch__json(struct strbuf *sb, const struct batch_opts *o,
			struct table *t, const struct header_info *hi)
{
	const struct snapshot *snap = table__snap(t, t->ev);
	const struct ev_counts *c = &snap->counts;
	bool first = true;

	strbuf__addf(sb, "{\"time\":%.3f,", hi->elapsed);
	json_key(sb, "event");
	json_sanitized(sb, hi->event);
	strbuf__addc(sb, ',');
	json_key(sb, "target");
	json_sanitized(sb, hi->target);
	strbuf__addf(sb, ",\"freq\":%" PRIu64 ",\"sample_period\":%" PRIu64,
		     hi->freq, hi->period);
	/* --off-cpu: periods are the nanoseconds threads waited */
	if (hi->time)
		strbuf__addf(sb, ",\"%s\":true,\"period_unit\":\"ns\"",
			     hi->wall ? "wall" : "off_cpu");
	strbuf__addf(sb, ",\"samples\":%" PRIu64 ",\"period\":%" PRIu64
			 ",\"total_samples\":%" PRIu64,
		     snap->total_samples, snap->total_period, c->samples);
	strbuf__addf(sb, ",\"lost\":%" PRIu64 ",\"lost_records\":%" PRIu64
			 ",\"lost_samples\":%" PRIu64 ",\"throttled\":%" PRIu64
			 ",\"dropped\":%" PRIu64 ",\"filtered\":%" PRIu64
			 ",\"unwind_failed\":%" PRIu64
			 ",\"unwind_no_stack\":%" PRIu64,
		     header__lost(snap), c->lost, c->lost_samples,
		     c->throttle, header__dropped(snap), c->filtered,
		     c->unwind_failed, c->unwind_no_stack);
	strbuf__addf(sb, ",\"idle\":%.4f,\"idle_samples\":%" PRIu64
			 ",\"idle_period\":%" PRIu64 ",\"idle_shown\":%s",
		     header__idle_share(snap), snap->idle_samples,
		     snap->idle_period, hi->show_idle ? "true" : "false");
	strbuf__addf(sb, ",\"kernel_share\":%.4f,\"finished\":%s",
		     header__kernel_share(snap, hi->show_idle),
		     hi->finished ? "true" : "false");
	/* -g's recovery of callers: this event's samples, the session's
	 * reasons */
	if (c->fp_copies) {
		const u64 *why = snap->session.fp_fix;

		strbuf__addf(sb, ",\"fp_recovery\":{\"copies\":%" PRIu64
				 ",\"tied\":%" PRIu64 ",\"inserted\":%" PRIu64
				 ",\"frames\":%" PRIu64 ",\"not_tied\":{"
				 "\"no_ip\":%" PRIu64 ",\"no_cfi\":%" PRIu64
				 ",\"cfi_not_read\":%" PRIu64
				 ",\"copy_short\":%" PRIu64
				 ",\"rbp_not_frame\":%" PRIu64
				 ",\"other_rbp\":%" PRIu64 ",\"bad\":%" PRIu64
				 "}}",
			     c->fp_copies, c->fp_tied, c->fp_inserted,
			     c->fp_frames, why[FP_FIX_NO_IP],
			     why[FP_FIX_NO_CFI], why[FP_FIX_UNREADY],
			     why[FP_FIX_SHORT], why[FP_FIX_NO_MATCH],
			     why[FP_FIX_RBP], why[FP_FIX_BAD]);
	}
	/* what the session holds: distinct keys, call chain nodes */
	strbuf__addf(sb, ",\"entries\":%zu,\"chain_nodes\":%zu", snap->nr,
		     snap->nr_chains ? snap->nr_chains - 1 : 0);
	/* the memory budget's folds, once there were some (the header's
	 * "memory budget:" line) */
	if (snap->session.budget_folds)
		strbuf__addf(sb, ",\"budget_folded\":{\"entries\":%" PRIu64
				 ",\"chain_nodes\":%" PRIu64 "}",
			     snap->session.budget_entries,
			     snap->session.budget_nodes);
	if (t->rows.series && t->history == HISTORY_CELLS) {
		const struct row_series *s = t->rows.series;
		u64 t0, w = timeline__grid(t->tl, &t0);
		u64 units = timeline__cell_units(t->tl);

		/* the cells: their length, where the first starts (from the
		 * first sample of a recording, or the start), and every
		 * sample of each (idle out unless shown, as the rows) */
		strbuf__addf(sb, ",\"timeline_interval\":%.9g"
				 ",\"timeline_start\":%.9g,\"timeline_samples\":[",
			     (double)(w * units) / 1e9,
			     (double)(w * timeline__first_unit(t->tl) +
				      t->series_c0 * w * units) / 1e9);
		for (size_t b = 0; b < s->nr_buckets; b++)
			strbuf__addf(sb, "%s%" PRIu64, b ? "," : "",
				     s->tot_samples[b]);
		strbuf__addc(sb, ']');
		if (timeline__dropped(t->tl))
			strbuf__addf(sb, ",\"timeline_dropped\":%" PRIu64,
				     timeline__dropped(t->tl));
	}
	strbuf__adds(sb, ",\"per_cpu\":[");
	for (size_t i = 0; i < snap->nr_cpus; i++) {
		const struct ev_counts *pc = &snap->cpu_counts[i];

		if (!pc->samples && !pc->lost && !pc->lost_samples &&
		    !pc->dropped && !pc->unwind_failed)
			continue;
		strbuf__addf(sb, "%s{\"cpu\":%zu,\"samples\":%" PRIu64
				 ",\"lost\":%" PRIu64 ",\"lost_samples\":%" PRIu64
				 ",\"dropped\":%" PRIu64
				 ",\"unwind_failed\":%" PRIu64 "}",
			     first ? "" : ",", i, pc->samples, pc->lost,
			     pc->lost_samples, pc->dropped, pc->unwind_failed);
		first = false;
	}
	strbuf__adds(sb, "]");
	if (t->cmp && hi->base_snap) {
		const struct snapshot *b = hi->base_snap;

		strbuf__adds(sb, ",\"baseline\":{\"source\":");
		json_sanitized(sb, hi->baseline);
		strbuf__addf(sb, ",\"samples\":%" PRIu64 ",\"period\":%" PRIu64
				 ",\"time\":%.3f,\"idle_samples\":%" PRIu64
				 ",\"rows\":%zu}",
			     b->total_samples, b->total_period,
			     header__span(b), b->idle_samples,
			     compare__base_rows(t->cmp));
	}
	strbuf__adds(sb, ",\"sort\":[");
	for (size_t i = 0; i < t->spec.nr_group; i++)
		strbuf__addf(sb, "%s\"%s\"", i ? "," : "",
			     sort_key__name(t->spec.group[i]));
	strbuf__addf(sb, "],\"order\":\"%s\",\"rows\":[",
		     sort_key__name(t->spec.order));
	for (size_t i = 0; i < t->rows.nr; i++) {
		if (i)
			strbuf__addc(sb, ',');
		batch__json_row(sb, o, t, &t->rows.rows[i]);
	}
	strbuf__addf(sb, "],\"hidden_rows\":%" PRIu64 "}\n",
		     t->rows.hidden_rows);
}

/* Folded stacks: one "root;...;leaf count" line per distinct path;
 * inlined functions are frames of their own, named plainly, as
 * stackcollapse-perf.pl --inline (addr2line -i) names them. */
struct folded {
	struct strpool *pool;
	struct intmap counts;	/* interned path -> samples */
	struct intmap base;	/* the same of the baseline's paths */
	struct intmap *into;	/* the one being filled */
	struct strbuf line;
	enum stack_root root;
};

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

/* With a baseline, two counts per stack, the baseline's first: the
 * format of flamegraph.pl's difffolded.pl, which flamegraph.pl reads. */
static void batch__folded(struct strbuf *sb, const struct batch_opts *o,
			  struct table *t)
{
	struct folded f = { .pool = strpool__new(), .root = o->root };
	struct folded_line *lines = NULL;
	struct rowset *base = t->cmp && t->base ? &t->base->rows : NULL;
	size_t n = 0, i = 0;
	int err = -ENOMEM;
	u64 k;
	void *v;

	intmap__init(&f.counts);
	intmap__init(&f.base);
	strbuf__init(&f.line);
	if (f.pool) {
		f.into = &f.counts;
		err = rowset__foreach_path_inline(&t->rows, o->inl, o->inl_ctx,
						  folded__path, &f);
	}
	if (!err && base) {
		f.into = &f.base;
		err = rowset__foreach_path_inline(base, o->inl, o->inl_ctx,
						  folded__path, &f);
	}
	if (!err && (lines = malloc((f.counts.nr + f.base.nr + 1) *
				    sizeof(*lines)))) {
		while (intmap__next(&f.counts, &i, &k, &v)) {
			lines[n].path = (const char *)(uintptr_t)k;
			lines[n].count = (uintptr_t)v - 1;
			lines[n].base = folded__count(&f.base, lines[n].path);
			n++;
		}
		for (i = 0; base && intmap__next(&f.base, &i, &k, &v);) {
			if (intmap__get(&f.counts, k))
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
	strbuf__fini(&f.line);
	intmap__fini(&f.base);
	intmap__fini(&f.counts);
	strpool__free(f.pool);
}

void batch__format(struct strbuf *sb, const struct batch_opts *o,
		   struct table *t, const struct header_info *hi)
{
	if (o->folded)
		batch__folded(sb, o, t);
	else if (o->json)
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
			strbuf__addf(sb, "{\"time\":%.3f,\"event\":",
				     hi->elapsed);
			json_sanitized(sb, hi->event);
			strbuf__adds(sb, ",\"symbol\":");
			json_sanitized(sb, name);
			strbuf__adds(sb, ",\"found\":false}\n");
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
