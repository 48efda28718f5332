/* app_export: --pprof's and --flamegraph's files and --push's windows, outputs
 * of the pass over an event's samples (see app_internal.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/stat.h>

#include "ui/report/app_internal.h"
#include "src/sys/outfile.h"
#include "ui/report/flame.h"
#include "ui/report/flamesvg.h"
#include "ui/report/inlines.h"
#include "src/core/log.h"
#include "ui/report/push.h"

bool app__dummy(struct app *a, size_t ev)
{
	const struct perf_event_attr *attr = session__event_attr(a->session, ev);

	return attr && attr->type == PERF_TYPE_SOFTWARE &&
	       attr->config == PERF_COUNT_SW_DUMMY;
}

/* The events that make tables (a recording's dummy event does not). */
static size_t app__nr_table_events(struct app *a)
{
	size_t n = session__nr_events(a->session), k = 0;

	for (size_t ev = 0; ev < n; ev++)
		k += !(a->input && n > 1 && app__dummy(a, ev));
	return k;
}

/*
 * --pprof: event ev's snapshot to FILE (FILE.EVENT when several events
 * make tables), replaced atomically at each refresh.
 */
/* The pprof options of event ev's table: its sample types, labels,
 * inline lookups, and the span ending at end (ns since the epoch). */
static void app__pprof_opts(struct app *a, struct table *t, size_t ev,
			    const struct header_info *hi, cg_inline_fn inl,
			    void *inl_ctx, struct pprof_opts *po)
{
	const struct perf_event_attr *attr = session__event_attr(a->session, ev);
	const struct sort_spec *sp = &t->spec;

	*po = (struct pprof_opts){
		.event = hi->event,
		.freq = hi->freq,
		.period = hi->period,
		.label_pid = sort_spec__has(sp, SORT_PID),
		.label_tid = sort_spec__has(sp, SORT_TID),
		.label_comm = sort_spec__has(sp, SORT_COMM),
		.label_cpu = sort_spec__has(sp, SORT_CPU),
		.inl = inl,
		.inl_ctx = inl_ctx,
		.syms = a->syms,
	};
	po->cpu_ns = attr && attr->type == PERF_TYPE_SOFTWARE &&
		     (attr->config == PERF_COUNT_SW_CPU_CLOCK ||
		      attr->config == PERF_COUNT_SW_TASK_CLOCK);
}

/* Now on the wall clock (ns), or when the recording's file was last
 * written (-i): where the samples' span ends. */
static s64 app__wall_end(const struct app *a)
{
	struct timespec now;
	struct stat st;

	clock_gettime(CLOCK_REALTIME, &now);
	if (a->input && strcmp(a->input, "-") && !stat(a->input, &st))
		return (s64)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	return (s64)now.tv_sec * 1000000000 + now.tv_nsec;
}

static int app__push_out_begin(void *ctx)
{
	struct app_push_out *x = ctx;
	struct app *a = x->a;
	const struct snapshot *snap = table__live_snap(x->r->t, x->ev);

	x->r->evs[x->ev].fed = true;
	x->delta = a->mode == HIST_CUMULATIVE;
	/* out of memory: this window is lost */
	if (x->delta && push_window__begin(a->push_win, x->ev, snap->nr))
		return -ENOMEM;
	/* a zeroed histogram (-z) holds the window already */
	if (!x->delta)
		x->samples = snap->total_samples;
	app__pprof_opts(a, x->r->t, x->ev, x->hi, x->inl, x->inl_ctx, &x->po);
	strbuf__init(&x->sb);
	x->no_profile = pprof__begin(&x->pp, &x->sb, &x->po, x->r->t) != 0;
	return 0;
}

static int app__push_out_sample(void *ctx, const struct out_sample *s)
{
	struct app_push_out *x = ctx;
	const struct hist_entry *e = s->e;
	struct hist_entry d;

	/* every entry to the window, whatever became of the encoding */
	if (x->delta) {
		if (!push_window__entry(x->a->push_win, s->e, &d))
			return 0;
		x->samples += d.samples;
		e = &d;
	}
	if (!x->no_profile && pprof__sample(x->pp, s->snap, e))
		x->no_profile = true;
	return 0;
}

static int app__push_out_end(void *ctx, int err, bool write)
{
	struct app_push_out *x = ctx;
	struct app_push_round *r = x->r;
	struct app_push_ev *pe = &r->evs[x->ev];
	const struct snapshot *snap = table__live_snap(r->t, x->ev);
	bool lost = err || (x->delta && push_window__end(x->a->push_win));
	s64 from = r->from, end = r->end;

	if (err)
		return 0;	/* nothing begun */
	if (!lost && x->samples && write) {
		/* a recording's whole span, else the window since the last */
		if (x->a->input && snap->first_time &&
		    snap->last_time > snap->first_time)
			from = end - (s64)(snap->last_time - snap->first_time);
		else if (x->a->input || !from)
			from = end - (s64)(x->hi->elapsed * 1e9);
		r->from = from;
		x->po.time_nanos = from;
		x->po.duration_nanos = end - from;
		if (!x->no_profile && !pprof__end(x->pp) &&
		    !pprof__gzip(x->sb.buf, x->sb.len, &pe->gz, &pe->len)) {
			pe->event = x->hi->event;
			pe->from = from;
			pe->rate = x->hi->period ? 0 : x->hi->freq;
		}
		x->pp = NULL;
	}
	pprof__free(x->pp);
	strbuf__fini(&x->sb);
	return 0;
}

static const struct output_ops app_push_ops = {
	.begin = app__push_out_begin,
	.sample = app__push_out_sample,
	.end = app__push_out_end,
};

static struct output app__push_output_of(struct app_push_round *r,
					 struct app_push_out *x, size_t ev,
					 const struct header_info *hi,
					 cg_inline_fn inl, void *inl_ctx)
{
	*x = (struct app_push_out){
		.a = r->a, .r = r, .ev = ev, .hi = hi, .inl = inl,
		.inl_ctx = inl_ctx,
	};
	return (struct output){ .ops = &app_push_ops, .ctx = x };
}

void app__push_begin(struct app *a, struct table *t,
		     struct app_push_round *r)
{
	memset(r, 0, sizeof(*r));
	r->a = a;
	r->t = t;
	r->end = app__wall_end(a);
	r->from = a->push_from;
	if (!a->pusher || !a->push_win)
		return;
	/* a window every push_every seconds (a little early rather than a
	 * refresh late), and the last one when the target or file ends */
	if (a->push_from && !a->finished &&
	    r->end - a->push_from < (s64)((a->push_every - a->delay / 2) * 1e9))
		return;
	r->evs = calloc(t->nr_snaps + 1, sizeof(*r->evs));
	if (!r->evs)
		return;	/* out of memory: these windows are lost */
	r->nr = t->nr_snaps;
	r->due = true;
}

/* Event ev's push as an output of the pass of its table (hi: its
 * header), when a push is due and the pass reads the push's snapshot. */
bool app__push_output(struct app_push_round *r, struct app_push_out *x,
		      size_t ev, const struct header_info *hi,
		      cg_inline_fn inl, void *inl_ctx, struct output *out)
{
	if (!r->due || ev >= r->nr ||
	    table__live_snap(r->t, ev) != table__snap(r->t, ev))
		return false;
	*out = app__push_output_of(r, x, ev, hi, inl, inl_ctx);
	return true;
}

/* The round's end: the events no pass fed get one of their own, and the
 * profiles are queued (queue false: dropped, the run ends). */
void app__push_end(struct app_push_round *r, bool queue, cg_inline_fn inl,
		   void *inl_ctx)
{
	struct app *a = r->a;

	/* the events no pass of the tables fed (--annotate, a stop) */
	for (size_t ev = 0; queue && ev < r->nr; ev++) {
		struct app_push_out x;
		struct header_info hi;
		struct output out;

		if (r->evs[ev].fed)
			continue;
		app__header(a, r->t, ev, 0, 0, &hi);
		out = app__push_output_of(r, &x, ev, &hi, inl, inl_ctx);
		output__pass(&out, 1, r->t, table__live_snap(r->t, ev), NULL,
			     NULL);
	}
	for (size_t ev = 0; ev < r->nr; ev++) {
		struct app_push_ev *pe = &r->evs[ev];

		if (queue && pe->gz)
			/* Pyroscope's from/until are whole seconds */
			pusher__queue(a->pusher, pe->event, pe->gz, pe->len,
				      pe->from / 1000000000,
				      (r->end + 999999999) / 1000000000,
				      pe->rate);
		else
			free(pe->gz);
	}
	if (queue && r->due)
		a->push_from = r->end;
	free(r->evs);
	memset(r, 0, sizeof(*r));
}

void app__push(struct app *a, struct table *t, cg_inline_fn inl,
	       void *inl_ctx)
{
	struct app_push_round r;

	app__push_begin(a, t, &r);
	app__push_end(&r, true, inl, inl_ctx);
}

/* FILE of an option that writes a file per event: FILE.EVENT when
 * several events have tables (path initialized here). */
static void app__event_path(struct app *a, struct strbuf *path,
			    const char *file, const struct header_info *hi)
{
	strbuf__init(path);
	strbuf__adds(path, file);
	if (app__nr_table_events(a) > 1) {
		strbuf__addc(path, '.');
		for (const char *c = hi->event; c && *c; c++)
			strbuf__addc(path, (*c == '/' || *c == ' ') ? '_' : *c);
	}
}

/* --pprof and --flamegraph: outputs of the pass over an event's samples
 * (output.h), each writing its file at the end. */
struct app_file_out {
	struct app *a;
	struct table *t;
	size_t ev;
	const struct header_info *hi;
	cg_inline_fn inl;
	void *inl_ctx;
	bool say;
	struct strbuf sb, path;
	/* --pprof */
	struct pprof_opts po;
	struct pprof *pp;
	/* --flamegraph */
	struct flame f;
	struct strbuf title;
	bool no_chains;
};

static int app__pprof_begin(void *ctx)
{
	struct app_file_out *x = ctx;
	struct app *a = x->a;
	const struct snapshot *snap = table__snap(x->t, x->ev);
	struct pprof_opts *po = &x->po;

	app__pprof_opts(a, x->t, x->ev, x->hi, x->inl, x->inl_ctx, po);
	/* the samples' own clock is not the wall clock: the span of their
	 * timestamps, ending now (live) or when the recording's file was
	 * last written (-i) */
	if (snap->first_time && snap->last_time > snap->first_time)
		po->duration_nanos = (s64)(snap->last_time - snap->first_time);
	else
		po->duration_nanos = (s64)(x->hi->elapsed * 1e9);
	po->time_nanos = app__wall_end(a) - po->duration_nanos;

	strbuf__init(&x->sb);
	app__event_path(a, &x->path, a->pprof, x->hi);
	return x->path.oom ? -ENOMEM : pprof__begin(&x->pp, &x->sb, po, x->t);
}

static int app__pprof_sample(void *ctx, const struct out_sample *s)
{
	struct app_file_out *x = ctx;

	return pprof__sample(x->pp, s->snap, s->e);
}

static int app__pprof_end(void *ctx, int err, bool write)
{
	struct app_file_out *x = ctx;

	if (!err) {
		err = pprof__end(x->pp);
		x->pp = NULL;
	}
	pprof__free(x->pp);
	if (!write)
		err = 0;
	else if (!err)
		err = pprof__save(x->path.buf, x->sb.buf, x->sb.len);
	if (err && x->say)
		pr_err("--pprof %s: %s", x->path.buf ? x->path.buf : x->a->pprof,
		       strerror(-err));
	strbuf__fini(&x->sb);
	strbuf__fini(&x->path);
	return err ? -ECANCELED : 0;
}

static const struct output_ops app_pprof_ops = {
	.begin = app__pprof_begin,
	.sample = app__pprof_sample,
	.end = app__pprof_end,
};

/* --flamegraph: event ev's chains as an SVG, replaced at each refresh. */
static int app__flame_begin(void *ctx)
{
	struct app_file_out *x = ctx;
	struct app *a = x->a;
	const struct snapshot *snap = table__snap(x->t, x->ev);

	flame__init(&x->f);
	strbuf__init(&x->sb);
	strbuf__init(&x->title);
	app__event_path(a, &x->path, a->flamegraph, x->hi);
	if (a->input && !a->callgraph && snap->counts.samples &&
	    snap->nr_chains <= 1) {
		x->no_chains = true;	/* said at the end */
		return -ECANCELED;
	}
	x->f.root = stack_root__resolve(a->stack_root, snap);
	flame__reset(&x->f);
	return 0;
}

static int app__flame_sample(void *ctx, const struct out_sample *s)
{
	struct app_file_out *x = ctx;

	/* an entry the rows leave out is no stack */
	return s->frames ? flame__add_path(&x->f, s->frames, s->nr_frames,
					   s->e) :
			   0;
}

static int app__flame_end(void *ctx, int err, bool write)
{
	struct app_file_out *x = ctx;
	struct app *a = x->a;
	size_t len = strlen(a->flamegraph);
	/* FILE.json: the tree as JSON, else an SVG */
	bool flame_json = len >= 5 &&
			  strcasecmp(a->flamegraph + len - 5, ".json") == 0;
	struct flame_svg_opts so = { 0 };

	if (!write) {
		err = 0;
	} else if (x->no_chains) {
		if (x->say)
			pr_err("--flamegraph: %s has no call chains (record "
			       "it with perf record -g, or --call-graph "
			       "dwarf)", a->input);
	} else {
		if (!err)
			flame__sort(&x->f);
		strbuf__addf(&x->title, "Flame graph of %s",
			     x->hi->event ? x->hi->event : "");
		so.title = x->title.buf;
		so.subtitle = x->hi->target;
		if (!err && flame_json)
			err = flamesvg__json(&x->sb, &x->f);
		else if (!err)
			err = flamesvg__svg(&x->sb, &x->f, &so);
		if (!err)
			err = x->path.oom || x->title.oom ?
				      -ENOMEM :
				      outfile__save(x->path.buf, x->sb.buf,
						    x->sb.len, OUTFILE_EXPORT);
		if (err && x->say)
			pr_err("--flamegraph %s: %s",
			       x->path.buf ? x->path.buf : a->flamegraph,
			       strerror(-err));
	}
	flame__fini(&x->f);
	strbuf__fini(&x->sb);
	strbuf__fini(&x->path);
	strbuf__fini(&x->title);
	return err ? -ECANCELED : 0;
}

static const struct output_ops app_flame_ops = {
	.begin = app__flame_begin,
	.sample = app__flame_sample,
	.end = app__flame_end,
	.paths = true,
};

int app__export(struct app *a, struct table *t, size_t ev,
		const struct header_info *hi, cg_inline_fn inl, void *inl_ctx,
		bool say, const struct output *extra, size_t nr_extra)
{
	struct app_file_out pp = { a, t, ev, hi, inl, inl_ctx, say };
	struct app_file_out fl = pp;
	struct output outs[APP_EXPORT_MAX_EXTRA + 2];
	size_t n = 0;

	for (size_t k = 0; k < nr_extra && k < APP_EXPORT_MAX_EXTRA; k++)
		outs[n++] = extra[k];
	if (a->pprof)
		outs[n++] = (struct output){ .ops = &app_pprof_ops, .ctx = &pp };
	if (a->flamegraph)
		outs[n++] = (struct output){ .ops = &app_flame_ops, .ctx = &fl };
	return n ? output__pass(outs, n, t, table__snap(t, ev), inl, inl_ctx) :
		   0;
}

bool app__cancel(void *ctx)
{
	const struct app *a = ctx;

	return *a->stop != 0;
}

/* The live view's files: a table of their own, whose rows are batch's
 * (the command line's filters, not the view's zoom and search). */
struct app_export {
	struct app *a;
	struct table t;
	struct inlines *inl;	/* inlined frames, as batch's */
	bool failed;	/* said once until a write works again */
};

struct app_export *app_export__new(struct app *a)
{
	struct app_export *x;

	if (!a->pprof && !a->flamegraph)
		return NULL;
	x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	x->a = a;
	x->inl = inlines__new(a->syms);
	if (!x->inl) {
		free(x);
		return NULL;
	}
	/* a build is not cut short for a key (names would be missing
	 * from the file), only for a stop request */
	inlines__set_cancel(x->inl, app__cancel, a);
	table__init(&x->t, a->session, a->syms, &a->spec);
	x->t.cancel = app__cancel;
	x->t.cancel_ctx = a;
	x->t.filter = a->filter;
	return x;
}

void app_export__free(struct app_export *x)
{
	if (!x)
		return;
	table__fini(&x->t);
	inlines__free(x->inl);
	free(x);
}

int app_export__write(struct app_export *x)
{
	struct app *a = x->a;
	int err;

	/* what the histogram holds now; the view's own snapshot, after
	 * this, zeroes or decays it (-z, --decay) */
	err = table__snapshot(&x->t, HIST_CUMULATIVE);
	for (size_t ev = 0; !err && ev < x->t.nr_snaps; ev++) {
		const struct snapshot *snap = table__snap(&x->t, ev);
		struct header_info hi;

		if (a->input && !snap->counts.samples && x->t.nr_snaps > 1 &&
		    app__dummy(a, ev))
			continue;
		err = table__build(&x->t, ev);
		if (err)
			break;
		app__header(a, &x->t, ev, 0, 0, &hi);
		/* a failure is said once, not at every refresh */
		err = app__export(a, &x->t, ev, &hi, inlines__get, x->inl,
				  !x->failed, NULL, 0);
	}
	x->failed = err != 0;
	return err;
}

