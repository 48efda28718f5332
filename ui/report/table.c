/* table: snapshots of the session turned into symbolized rows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/sys/clock.h"
#include "src/core/log.h"
#include "ui/report/compare.h"
#include "ui/report/table.h"

void table__init(struct table *t, struct session *s, struct symbolizer *syms,
		 const struct sort_spec *spec)
{
	memset(t, 0, sizeof(*t));
	t->session = s;
	t->syms = syms;
	t->spec = *spec;
	t->resolve = table__resolve;
	t->resolve_ctx = t;
	rowset__init(&t->rows);
	row_series__init(&t->series);
	/* the trees' builds end as the names' lookups do */
	rowset__set_cancel(&t->rows, table__cancel_hook, t);
}

void table__fini(struct table *t)
{
	table__clear_baseline(t);
	for (size_t i = 0; i < t->nr_wsnaps; i++)
		snapshot__fini(&t->wsnaps[i]);
	free(t->wsnaps);
	row_series__fini(&t->series);
	series_buf__fini(&t->buckets);
	for (size_t i = 0; i < t->nr_snaps; i++)
		snapshot__fini(&t->snaps[i]);
	free(t->snaps);
	rowset__fini(&t->rows);
	memset(t, 0, sizeof(*t));
}

/* The window's snapshots, one per event, from the cells that overlap
 * it now (merges make them wider). */
static int table__window_snaps(struct table *t)
{
	if (!timeline__cells_of(t->tl, t->win_start, t->win_end, &t->win_c0,
				&t->win_c1))
		t->win_c0 = t->win_c1 = 0;
	if (t->nr_snaps > t->nr_wsnaps) {
		struct snapshot *p = realloc(t->wsnaps,
					     t->nr_snaps * sizeof(*p));

		if (!p)
			return -ENOMEM;
		for (size_t i = t->nr_wsnaps; i < t->nr_snaps; i++)
			snapshot__init(&p[i]);
		t->wsnaps = p;
		t->nr_wsnaps = t->nr_snaps;
	}
	for (size_t ev = 0; ev < t->nr_snaps; ev++) {
		int err = timeline__window(t->tl, ev, t->win_c0, t->win_c1,
					   &t->snaps[ev], &t->wsnaps[ev]);

		if (err)
			return err;
	}
	return 0;
}

int table__set_window(struct table *t, u64 start, u64 end)
{
	size_t c0, c1;
	int err;

	if (!t->tl || end <= start ||
	    !timeline__cells_of(t->tl, start, end, &c0, &c1))
		return -ENOENT;
	t->win_start = start;
	t->win_end = end;
	t->windowed = true;
	err = table__window_snaps(t);
	if (err)
		table__clear_window(t);
	return err;
}

void table__clear_window(struct table *t)
{
	t->windowed = false;
	t->win_start = t->win_end = 0;
}

bool table__window_span(const struct table *t, u64 *start, u64 *end)
{
	u64 s, e;

	if (!t->windowed || t->win_c1 <= t->win_c0)
		return false;
	timeline__cell_span(t->tl, t->win_c0, start, &e);
	timeline__cell_span(t->tl, t->win_c1 - 1, &s, end);
	return true;
}

bool table__func_of(void *ctx, const struct dso *dso, u64 addr, u64 *start)
{
	struct sym_info si;

	if (symbolizer__lookup_loaded(ctx, dso, addr, &si) || !si.name ||
	    (si.flags & SYM_F_PROVISIONAL))
		return false;
	*start = si.start;
	return true;
}

int table__snapshot(struct table *t, enum hist_mode mode)
{
	struct session *s = t->session;
	bool take;
	size_t n;
	int err = 0;

	session__lock(s);
	n = session__nr_events(s);
	if (n > t->nr_snaps) {
		struct snapshot *p = realloc(t->snaps, n * sizeof(*p));

		if (!p) {
			session__unlock(s);
			return -ENOMEM;
		}
		for (size_t i = t->nr_snaps; i < n; i++)
			snapshot__init(&p[i]);
		t->snaps = p;
		t->nr_snaps = n;
	}
	/* each histogram's copy, and the timeline's take of what came
	 * since the last one in the same pass, before the mode zeroes or
	 * decays it (no memory: it comes with the next take, but for -z) */
	take = t->tl && !timeline__take_begin(t->tl, s,
					      timeline__now_fine(t->tl));
	for (size_t i = 0; i < n && !err; i++) {
		hist_take_fn fn = NULL;
		void *ctx = NULL;
		int terr = 0;

		if (take && timeline__take_ev(t->tl, s, i, &fn, &ctx))
			pr_debug("timeline: out of memory at a take");
		err = session__snapshot_take(s, i, &t->snaps[i], fn, ctx,
					     &terr);
		if (take)
			timeline__take_ev_end(t->tl, i);
		if (terr)
			pr_debug("timeline: out of memory at a take");
	}
	if (take && timeline__take_end(t->tl, s))
		pr_debug("timeline: out of memory at a take");
	if (t->budget) {
		/* what the timeline leaves (it keeps to half of it) */
		size_t tb = t->tl ? timeline__bytes(t->tl) : 0;

		session__set_budget(s, t->budget - MIN(tb, t->budget / 2),
				    t->syms && !t->keep_addrs ? table__func_of :
								 NULL,
				    t->syms);
	}
	if (!err)
		session__refresh(s, mode);
	session__unlock(s);
	if (!err && t->windowed)
		err = table__window_snaps(t);
	if (t->syms) {
		symbolizer__tick(t->syms);
		/* Bounded caches over long runs: what no refresh used for a
		 * while (a few minutes at the default delay) is dropped and
		 * reloaded if it is needed again. */
		symbolizer__trim(t->syms, 100);
	}
	return err;
}

void table__zero_session(struct table *t)
{
	session__lock(t->session);
	if (t->tl && timeline__take_now(t->tl, t->session))
		pr_debug("timeline: out of memory at a take");
	session__refresh(t->session, HIST_ZERO);
	session__unlock(t->session);
}

const struct snapshot *table__live_snap(const struct table *t, size_t ev)
{
	return ev < t->nr_snaps ? &t->snaps[ev] : NULL;
}

const struct snapshot *table__snap(const struct table *t, size_t ev)
{
	if (t->windowed && ev < t->nr_wsnaps)
		return &t->wsnaps[ev];
	return ev < t->nr_snaps ? &t->snaps[ev] : NULL;
}

bool table__cancelled(struct table *t)
{
	double now;

	if (t->cancelled)
		return true;
	if (!t->cancel)
		return false;
	/* a lookup that reads a file is bounded by the build's deadline:
	 * the ones in between are cached answers, well under a
	 * microsecond, so 64 of them are far from the 5 ms below */
	if (t->cancel_calls++ & 63)
		return false;
	/* a clock read is cheaper than what cancel asks (poll) */
	now = clock__now();
	if (now - t->cancel_checked < 0.005)
		return false;
	t->cancel_checked = now;
	t->cancelled = t->cancel(t->cancel_ctx);
	return t->cancelled;
}

bool table__cancel_hook(void *table)
{
	return table__cancelled(table);
}

int table__resolve(void *ctx, const struct dso *dso, u64 addr,
		   struct row_sym *out)
{
	struct table *t = ctx;
	struct sym_info si;
	int err;

	memset(out, 0, sizeof(*out));
	if (!t->syms || table__cancelled(t)) {
		out->dso_name = dso->name;
		/* not looked up: asked again (rowset.c keeps answers) */
		if (t->syms)
			out->flags = SYM_F_PROVISIONAL;
		return 0;
	}
	err = symbolizer__lookup(t->syms, dso, addr, &si);
	if (err)
		return err;
	/*
	 * A chain's return address is looked up one byte below it, in the
	 * call.  Where that byte is no function's (the padding before one)
	 * and a function starts at the next byte, the address is that
	 * function's first byte: the kernel's signal return trampoline
	 * (libc's __restore_rt, Go's runtime.sigreturn), which a signal
	 * frame "returns" to, or a stale value the frame-pointer walk
	 * read.  perf looks return addresses up where they are and names
	 * it; so does ptop.
	 */
	if (!si.name && addr + 1 > addr) {
		struct sym_info next;

		if (!symbolizer__lookup(t->syms, dso, addr + 1, &next) &&
		    next.name && next.start == addr + 1)
			si = next;
	}
	out->name = si.name;
	out->start = si.start;
	out->size = si.size;
	out->flags = si.flags;
	out->dso_name = si.dso_name ? si.dso_name : dso->name;
	return 0;
}

int table__set_baseline(struct table *t, struct table *base,
			const char *desc)
{
	struct compare *c = compare__new();

	if (!c)
		return -ENOMEM;
	table__clear_baseline(t);
	t->base = base;
	t->cmp = c;
	t->spec.compare = true;
	snprintf(t->base_desc, sizeof(t->base_desc), "%s", desc);
	return 0;
}

int table__mark_baseline(struct table *t, const char *desc)
{
	struct table *b = calloc(1, sizeof(*b));
	int err = -ENOMEM;

	if (!b)
		return -ENOMEM;
	table__init(b, t->session, t->syms, &t->spec);
	b->snaps = calloc(t->nr_snaps ? t->nr_snaps : 1, sizeof(*b->snaps));
	if (!b->snaps)
		goto fail;
	b->nr_snaps = t->nr_snaps;
	/* what is shown: a time window's, if one is */
	for (size_t i = 0; i < t->nr_snaps; i++) {
		err = snapshot__copy(&b->snaps[i], table__snap(t, i));
		if (err)
			goto fail;
	}
	err = table__set_baseline(t, b, desc);
	if (err)
		goto fail;
	return 0;
fail:
	table__fini(b);
	free(b);
	return err;
}

void table__clear_baseline(struct table *t)
{
	if (t->base) {
		table__fini(t->base);
		free(t->base);
		t->base = NULL;
	}
	compare__free(t->cmp);
	t->cmp = NULL;
	t->base_desc[0] = '\0';
	t->spec.compare = false;
	rowset__set_compare(&t->rows, NULL, NULL);
}

const struct snapshot *table__base_snap(const struct table *t, size_t ev)
{
	const struct table *b = t->base;

	if (!b)
		return NULL;
	if (b->session != t->session && ev < session__nr_events(t->session)) {
		const char *name = session__event_name(t->session, ev);

		for (size_t i = 0; i < b->nr_snaps && name; i++) {
			const char *bn = session__event_name(b->session, i);

			if (bn && strcmp(bn, name) == 0)
				return &b->snaps[i];
		}
	}
	return table__snap(b, ev);
}

/* The baseline's rows of event ev under this table's grouping and
 * filters, uncut: the matching must see every row. */
static int table__build_base(struct table *t, size_t ev)
{
	const struct snapshot *snap = table__base_snap(t, ev);
	struct table *b = t->base;
	int err;

	b->spec = t->spec;
	b->filter = t->filter;
	b->filter.percent_limit = 0;
	b->filter.max_rows = 0;
	/* another session's objects are other pointers: zoom by name */
	if (b->session != t->session && b->filter.dso) {
		if (!b->filter.dso_name)
			b->filter.dso_name = b->filter.dso->name;
		b->filter.dso = NULL;
	}
	if (!snap) {
		compare__clear(t->cmp);
		return 0;
	}
	b->ev = snap->ev;
	err = rowset__build(&b->rows, snap, &b->spec, &b->filter,
			    b->resolve, b->resolve_ctx);
	if (!err)
		err = compare__set_base(t->cmp, &b->rows);
	return err;
}

void table__prefetch(struct symbolizer *syms, const struct snapshot *snap)
{
	const struct dso *last = NULL;

	/* a live build reads what it reaches: no walk over its chains */
	if (!symbolizer__prefetches(syms) || !snap)
		return;
	for (size_t i = 0; i < snap->nr; i++) {
		const struct dso *dso = snap->entries[i].key.dso;

		if (dso && dso != last)
			symbolizer__prefetch(syms, dso);
		last = dso;
	}
	for (size_t i = 1; i < snap->nr_chains; i++) {
		const struct dso *dso = snap->chains[i].dso;

		if (dso && dso != last)
			symbolizer__prefetch(syms, dso);
		last = dso;
	}
}

/* The cells [*c0, *c1) the rows' history covers, in *nb buckets (the
 * last ones, when there are fewer cells than buckets). */
static void table__history_cells(const struct table *t, size_t *c0,
				 size_t *c1, size_t *nb)
{
	size_t n;

	*c0 = t->windowed ? t->win_c0 : 0;
	*c1 = t->windowed ? t->win_c1 : timeline__nr_cells(t->tl);
	n = *c1 - *c0;
	if (t->history == HISTORY_CELLS) {
		*nb = n;
	} else if (t->history_spread || t->windowed) {
		*nb = MIN(t->history, n);
	} else {
		*nb = t->history;
		if (n > *nb)
			*c0 = *c1 - *nb;
	}
}

/* The rows' history (rows.series), from the timeline's cells of the
 * shown event: 0, or -errno with no history this build. */
static int table__history(struct table *t, size_t ev)
{
	const struct cc_node *nodes;
	size_t c0, c1, nb, nr_nodes;
	int err;

	table__history_cells(t, &c0, &c1, &nb);
	if (!nb)
		return 0;
	err = series_buf__fill(&t->buckets, t->tl, ev, c0, c1, nb,
			       t->filter.show_idle);
	if (!err) {
		nodes = timeline__chains(t->tl, &nr_nodes);
		err = rowset__series(&t->rows, &t->filter, t->buckets.b, nb,
				     nodes, nr_nodes, &t->series);
	}
	if (err)
		return err;
	t->rows.series = &t->series;
	t->series_c0 = c0;
	t->series_c1 = c1;
	return 0;
}

int table__build(struct table *t, size_t ev)
{
	const struct snapshot *snap = table__snap(t, ev);
	int err;

	if (!snap)
		return -EINVAL;
	table__prefetch(t->syms, snap);
	t->ev = ev;
	t->cancelled = false;
	if (t->base) {
		err = table__build_base(t, ev);
		if (err)
			return err;
		rowset__set_compare(&t->rows, compare__rows, t->cmp);
	}
	/* the answers, the chains' frames and the paths index of the
	 * entries already seen are kept from one refresh to the next */
	rowset__set_answers_gen(&t->rows, symbolizer__answers_gen(t->syms));
	err = rowset__build(&t->rows, snap, &t->spec, &t->filter,
			    t->resolve, t->resolve_ctx);
	/* the history is a column: without it the rows stand */
	if (!err && t->tl && t->history && table__history(t, ev) == -ENOMEM)
		pr_debug("timeline: out of memory for the rows' history");
	return err;
}
