/* app: shared front-end plumbing and the batch loop. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <inttypes.h>

#include "ui/report/app.h"
#include "symbols/dbgfetch.h"
#include "ui/report/annotate.h"
#include "ui/report/batch.h"
#include "src/sys/fdio.h"
#include "src/core/json.h"
#include "src/sys/outfile.h"
#include "ui/report/inlines.h"
#include "ui/report/output.h"
#include "src/core/log.h"
#include "ui/report/flame.h"
#include "ui/report/flamesvg.h"
#include "ui/report/pprof.h"
#include "ui/report/push.h"
#include "ui/report/sanitize.h"
#include "src/sys/synth.h"

double app__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double app__thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void app__describe_target(const struct target *tg, char *const *command,
			  char *buf, size_t len)
{
	const char *what = tg->kind == TARGET_TIDS ? "tid" : "pid";
	size_t off;
	int n;

	switch (tg->kind) {
	case TARGET_SYSTEM:
		if (!tg->cpus) {
			snprintf(buf, len, "all CPUs (%d)", cpus__nr_possible());
			break;
		}
		off = (size_t)snprintf(buf, len, "CPUs");
		for (int c = 0; c < PTOP_MAX_CPUS && off < len; c++)
			if (tg->cpus[c])
				off += (size_t)snprintf(buf + off, len - off,
							" %d", c);
		break;
	case TARGET_PIDS:
	case TARGET_TIDS:
		if (tg->nr_pids == 1) {
			char comm[64];

			if (synth__comm("/proc", tg->pids[0], comm,
					sizeof(comm)))
				comm[0] = '\0';
			snprintf(buf, len, "%s %d (%s)", what, (int)tg->pids[0],
				 comm);
			break;
		}
		off = (size_t)snprintf(buf, len, "%ss", what);
		for (size_t i = 0; i < tg->nr_pids && off < len; i++)
			off += (size_t)snprintf(buf + off, len - off, "%s%d",
						i ? "," : " ", (int)tg->pids[i]);
		break;
	case TARGET_COMMAND:
		n = snprintf(buf, len, "command:");
		for (char *const *a = command;
		     a && *a && n >= 0 && (size_t)n < len; a++)
			n += snprintf(buf + n, len - (size_t)n, " %s", *a);
		break;
	}
}

/* Binaries of the recording that are missing or changed (their rows
 * show no symbols): "2 binaries missing or changed: a, b". */
static void app__missing(struct app *a, const struct table *t,
			 struct strbuf *sb)
{
	const struct dso *seen[4];
	size_t nr = 0, more = 0;
	struct sym_info si;

	if (!a->syms)
		return;
	for (size_t i = 0; i < t->rows.nr; i++) {
		const struct row *r = &t->rows.rows[i];
		bool dup = false;

		if (r->sym || !r->dso ||
		    (r->dso->kind != DSO_FILE && r->dso->kind != DSO_VDSO))
			continue;
		for (size_t j = 0; j < nr && !dup; j++)
			dup = seen[j] == r->dso;
		if (dup || symbolizer__lookup(a->syms, r->dso, r->addr, &si) ||
		    (si.status != DSO_ST_MISMATCH &&
		     si.status != DSO_ST_UNREADABLE))
			continue;
		if (nr < ARRAY_SIZE(seen))
			seen[nr++] = r->dso;
		else
			more++;
	}
	if (!nr)
		return;
	strbuf__addf(sb, "%s%zu binar%s missing or changed:", sb->len ? "; " : "",
		     nr + more, nr + more == 1 ? "y" : "ies");
	for (size_t j = 0; j < nr; j++)
		strbuf__addf(sb, "%s %s", j ? "," : "", seen[j]->name);
	if (more)
		strbuf__addf(sb, " and %zu more", more);
}

/* How the command ended, from its wait status: its exit status unless
 * 0, or the signal that ended it ("the command exited with status 3",
 * "the command was killed by SIGSEGV (core dumped)"). */
static void app__command_end(char *buf, size_t size, int status)
{
	const char *sig;

	if (WIFSIGNALED(status)) {
		sig = sigabbrev_np(WTERMSIG(status));
		snprintf(buf, size, "the command was killed by %s%s%s",
			 sig ? "SIG" : "signal ", sig ? sig : "",
			 WCOREDUMP(status) ? " (core dumped)" : "");
		if (!sig)
			snprintf(buf + strlen(buf), size - strlen(buf), "%d",
				 WTERMSIG(status));
	} else if (WIFEXITED(status) && WEXITSTATUS(status)) {
		snprintf(buf, size, "the command exited with status %d",
			 WEXITSTATUS(status));
	} else {
		snprintf(buf, size, "the command exited");
	}
}

/* The header's note: the app's, then what file mode and the writer
 * have to say. */
static const char *app__note(struct app *a, const struct table *t, size_t ev)
{
	const struct snapshot *snap = table__snap(t, ev);
	struct strbuf sb;

	strbuf__init(&sb);
	if (a->note[0])
		strbuf__adds(&sb, a->note);
	/* --annotate shows no rows: kallsyms is not read for this note
	 * (the annotator reads it when the function may be the kernel's) */
	if (a->input && snap && snap->kernel_samples && a->syms &&
	    (!a->annotate || symbolizer__kernel_read(a->syms))) {
		struct sym_info si;

		if (!symbolizer__lookup(a->syms, dsos__kernel(session__dsos(a->session)),
					0, &si) && si.status == DSO_ST_MISMATCH)
			strbuf__addf(&sb, "%skernel rows show addresses: the "
					  "recording's kernel is not this one",
				     sb.len ? "; " : "");
	}
	if (a->input && t->ev == ev)
		app__missing(a, t, &sb);
	if (a->input_stats) {
		size_t at = sb.len;

		strbuf__adds(&sb, sb.len ? "; " : "");
		perfdata_stats__describe(a->input_stats, &sb);
		if (sb.len == at + (at ? 2 : 0) && sb.buf) {
			sb.len = at;
			sb.buf[at] = '\0';
		}
	}
	if (a->writer) {
		struct perfdata_writer_stats ws;

		perfdata_writer__stats(a->writer, &ws);
		strbuf__addf(&sb, "%swriting %s: %.1f MB", sb.len ? "; " : "",
			     strcmp(a->output, "-") ? a->output : "stdout",
			     (double)ws.bytes / 1e6);
		if (ws.backlog >= (1u << 20))
			strbuf__addf(&sb, ", backlog %.1f MB",
				     (double)ws.backlog / 1e6);
		if (ws.dropped)
			strbuf__addf(&sb, ", %" PRIu64 " records not written",
				     ws.dropped);
		if (ws.error)
			strbuf__addf(&sb, ", stopped: %s", strerror(-ws.error));
	}
	snprintf(a->note_buf, sizeof(a->note_buf), "%s", sb.buf ? sb.buf : "");
	strbuf__fini(&sb);
	return a->note_buf[0] ? a->note_buf : NULL;
}

void app__cell_width(const struct app *a, struct strbuf *sb)
{
	u64 units = timeline__cell_units(a->timeline);
	u64 w = timeline__grid(a->timeline, NULL);

	if (w)
		strbuf__addf(sb, "%.3g s", (double)(w * units) / 1e9);
	else
		strbuf__addf(sb, "%" PRIu64 " refresh%s", units,
			     units == 1 ? "" : "es");
}

/* The header's line on time: a recording's range and --time, and the
 * timeline's cells once they were merged or the oldest dropped. */
static const char *app__time_note(struct app *a)
{
	struct timeline *tl = a->timeline;
	struct strbuf sb;
	u64 first = 0, last = 0;

	strbuf__init(&sb);
	if (a->input) {
		/* a stream's reader adds to the session meanwhile */
		session__lock(a->session);
		session__sample_range(a->session, &first, &last);
		session__unlock(a->session);
		if (first)
			strbuf__addf(&sb, "recording: samples from %.6f to %.6f "
					  "s (%.3f s)", (double)first / 1e9,
				     (double)last / 1e9,
				     (double)(last - first) / 1e9);
		if (a->time_window)
			strbuf__addf(&sb, "%s--time %s", sb.len ? "; " : "",
				     a->time_window);
	}
	if (tl && (timeline__cell_units(tl) > 1 || timeline__dropped(tl))) {
		strbuf__addf(&sb, "%stimeline: %zu cells of ", sb.len ? "; " : "",
			     timeline__nr_cells(tl));
		app__cell_width(a, &sb);
		if (timeline__dropped(tl))
			strbuf__addf(&sb, ", the first %" PRIu64 " %s dropped "
					  "(memory)", timeline__dropped(tl),
				     timeline__grid(tl, NULL) ? "intervals" :
								"refreshes");
	}
	snprintf(a->time_note, sizeof(a->time_note), "%s", sb.buf ? sb.buf : "");
	strbuf__fini(&sb);
	return a->time_note[0] ? a->time_note : NULL;
}

void app__header(struct app *a, const struct table *t, size_t ev,
		 double window, u64 window_samples, struct header_info *hi)
{
	const struct perf_event_attr *attr = session__event_attr(a->session, ev);

	memset(hi, 0, sizeof(*hi));
	hi->target = a->target_desc;
	hi->event = session__event_name(a->session, ev);
	hi->time = session__event_is_time(a->session, ev);
	hi->wall = session__event_is_wall(a->session, ev);
	if (hi->time) {
		/* --off-cpu's waits: no sampling rate of their own */
	} else if (attr) {
		if (attr->freq)
			hi->freq = attr->sample_freq;
		else
			hi->period = attr->sample_period;
	}
	hi->elapsed = app__now() - a->start;
	if (a->input && a->finished) {
		/* a recording: its own duration */
		const struct snapshot *snap = table__snap(t, ev);

		hi->elapsed = a->recorded;
		if (hi->elapsed <= 0 && snap && snap->last_time > snap->first_time)
			hi->elapsed = (double)(snap->last_time -
					       snap->first_time) / 1e9;
	}
	/* a file read at once: its rate is over the recording; a stream's
	 * last window is not a rate */
	hi->window = !a->input ? window : !a->pipe ? a->recorded :
		     a->finished ? 0 : window;
	hi->window_samples = window_samples;
	hi->paused = a->sampler && sampler__paused(a->sampler);
	hi->zeroing = a->mode == HIST_ZERO;
	hi->decaying = a->mode == HIST_DECAY;
	hi->finished = a->finished;
	hi->note = app__note(a, t, ev);
	hi->time_line = app__time_note(a);
	hi->show_idle = t->filter.show_idle;
	hi->recording = a->input != NULL;
	hi->ev_index = ev;
	hi->nr_events = t->nr_snaps;
	if (t->base) {
		hi->baseline = t->base_desc;
		hi->base_snap = table__base_snap(t, ev);
		/* a file's span; a live mark's snapshot is of a window or
		 * of everything since the start, which its name says */
		if (hi->base_snap && t->base->session != t->session)
			hi->base_span = header__span(hi->base_snap);
	}
	if (a->pusher) {
		pusher__stats(a->pusher, &a->push_stats);
		hi->pushing = true;
		hi->pushed = a->push_stats.pushed;
		hi->push_dropped = a->push_stats.dropped;
		hi->push_waiting = a->push_stats.queued;
		hi->push_silent = a->push_stats.sending_for;
		hi->push_unreachable = a->push_stats.unreachable;
		hi->push_error = a->push_stats.error;
	}
}

int app__take_baseline(struct app *a, struct table *t)
{
	int err;

	if (!a->baseline)
		return 0;
	err = table__set_baseline(t, a->baseline, a->baseline_desc);
	if (!err)
		a->baseline = NULL;
	return err;
}

void app_refresh__init(struct app_refresh *r, double start)
{
	memset(r, 0, sizeof(*r));
	r->last = start;
}

void app_refresh__fini(struct app_refresh *r)
{
	free(r->evs);
	memset(r, 0, sizeof(*r));
}

static int app_refresh__grow(struct app_refresh *r, size_t n)
{
	struct app_refresh_ev *p;

	if (n <= r->nr)
		return 0;
	p = realloc(r->evs, n * sizeof(*p));
	if (!p)
		return -ENOMEM;
	memset(p + r->nr, 0, (n - r->nr) * sizeof(*p));
	r->evs = p;
	r->nr = n;
	return 0;
}

int app__refresh(struct app *a, struct app_refresh *r, struct table *t,
		 double now)
{
	int err;

	/* the counts' room first, so that a refresh without it takes
	 * nothing; then for an event a stream's reader added meanwhile */
	err = app_refresh__grow(r, session__nr_events(a->session));
	if (!err)
		err = table__snapshot(t, a->mode);
	if (!err)
		err = app_refresh__grow(r, t->nr_snaps);
	if (err)
		return err;
	for (size_t ev = 0; ev < t->nr_snaps; ev++) {
		u64 s = table__snap(t, ev)->counts.samples;

		r->evs[ev].since = s - r->evs[ev].samples;
		r->evs[ev].samples = s;
	}
	r->window = now - r->last;
	r->last = now;
	return 0;
}

u64 app_refresh__since(const struct app_refresh *r, size_t ev)
{
	return ev < r->nr ? r->evs[ev].since : 0;
}

bool app__check_target(struct app *a)
{
	const struct target *t;
	int status = 0;

	if (a->finished)
		return false;
	if (a->pipe) {
		if (!perfdata_pipe__done(a->pipe))
			return false;
		a->finished = true;
		/* what the reader met: the header's note says it */
		a->input_stats = perfdata_pipe__stats(a->pipe);
		snprintf(a->note, sizeof(a->note), "the stream ended");
		return true;
	}
	if (a->writer && a->output && strcmp(a->output, "-") == 0) {
		struct perfdata_writer_stats ws;

		perfdata_writer__stats(a->writer, &ws);
		if (ws.error == -EPIPE && a->sampler) {
			sampler__stop(a->sampler);
			a->finished = true;
			snprintf(a->note, sizeof(a->note),
				 "the reader of the output stream went away");
			return true;
		}
	}
	if (!a->sampler)
		return false;
	if (sampler__target_alive(a->sampler, &status))
		return false;
	/* The last samples are still in the rings: read them first, and
	 * let the DWARF unwinder finish what it took. */
	sampler__stop(a->sampler);
	session__flush(a->session);
	a->finished = true;
	t = sampler__target(a->sampler);
	if (t->kind == TARGET_COMMAND) {
		a->exit_status = status;
		app__command_end(a->note, sizeof(a->note), status);
	} else if (t->nr_pids == 1) {
		snprintf(a->note, sizeof(a->note), "%s %d exited",
			 t->kind == TARGET_TIDS ? "thread" : "process",
			 (int)t->pids[0]);
	} else {
		snprintf(a->note, sizeof(a->note), "every target exited");
	}
	return true;
}

/* --timeline live (or a stream): the cells are SECS of the clock from
 * the start, each closed when it ends (the samples still in the rings
 * then go to the next). */
static void batch__mark(struct app *a, double *mark_at)
{
	u64 next;

	session__lock(a->session);
	next = timeline__mark(a->timeline, a->session,
			      (u64)(app__now() * 1e9));
	session__unlock(a->session);
	*mark_at = (double)next / 1e9;
}

/* Sleeps until `until`, waking early for a stop request or the end of
 * the target. */
static void batch__wait(struct app *a, double until)
{
	for (;;) {
		double left = until - app__now();
		struct timespec ts;

		if (left <= 0 || *a->stop || app__check_target(a))
			return;
		if (left > 0.05)
			left = 0.05;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
}

static bool app__dummy(struct app *a, size_t ev)
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

/* --push at a refresh: one window per event, each an output of a pass
 * over the event's samples (the tables' pass in batch, a pass of its
 * own else), queued together at the end of the round: batch's JSON says
 * what was pushed before this refresh's tables. */
struct app_push_round {
	struct app *a;
	struct table *t;
	bool due;		/* a push this refresh */
	s64 end, from;		/* wall clock (ns): the windows' span */
	size_t nr;
	struct app_push_ev {
		bool fed;	/* a pass had its samples */
		void *gz;	/* the profile (NULL: none) */
		size_t len;
		const char *event;
		s64 from;
		u64 rate;
	} *evs;
};

/* --push: one event's window, an output of a pass over its samples
 * (output.h); the profile waits in the round until its end. */
struct app_push_out {
	struct app *a;
	struct app_push_round *r;
	size_t ev;
	const struct header_info *hi;
	cg_inline_fn inl;
	void *inl_ctx;
	bool delta;		/* a cumulative histogram: the window is
				 * what came since the last push */
	bool no_profile;	/* no memory for its encoding */
	u64 samples;		/* of the window */
	struct pprof_opts po;
	struct pprof *pp;
	struct strbuf sb;
};

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

static void app__push_begin(struct app *a, struct table *t,
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
static bool app__push_output(struct app_push_round *r, struct app_push_out *x,
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
static void app__push_end(struct app_push_round *r, bool queue,
			  cg_inline_fn inl, void *inl_ctx)
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
			err = flame__json(&x->sb, &x->f);
		else if (!err)
			err = flame__svg(&x->sb, &x->f, &so);
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

/* A stop request (SIGTERM, Ctrl-C) ends the names' lookups. */
static bool batch__cancel(void *ctx)
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
	inlines__set_cancel(x->inl, batch__cancel, a);
	table__init(&x->t, a->session, a->syms, &a->spec);
	x->t.cancel = batch__cancel;
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

/* perf.data input and output counters, spliced into an event's JSON
 * object (which batch__format ends with "}\n"). */
static void app__json_input(struct app *a, struct json *j)
{
	const struct perfdata_stats *st = a->input_stats;
	struct strbuf d;

	if (a->pipe && perfdata_pipe__done(a->pipe))
		st = perfdata_pipe__stats(a->pipe);
	json__object(j, "input");
	json_sanitized(j, "path", a->input);
	if (!st) {
		json__object_end(j);
		return;
	}
	json__u64(j, "records", st->records);
	json__u64(j, "skipped", st->skipped);
	json__u64(j, "unknown", st->unknown);
	json__u64(j, "bad", st->bad);
	json__u64(j, "compressed", st->compressed);
	json__u64(j, "out_of_order", st->out_of_order);
	json__bool(j, "truncated", st->truncated_bytes || st->file_truncated ||
				   st->unfinished);
	json__bool(j, "damaged", st->damaged);
	json__u64(j, "damage_offset", st->damage_offset);
	/* every damage named, as the text header says it */
	strbuf__init(&d);
	perfdata_stats__describe(st, &d);
	json__u64(j, "features_damaged", st->features_damaged);
	json__bool(j, "unfinished", st->unfinished);
	json__u64(j, "no_ip_events", st->no_ip_events);
	if (st->header_size)
		json__u64(j, "bad_header_size", st->header_size);
	else
		json__null(j, "bad_header_size");
	json_sanitized(j, "damage", d.buf ? d.buf : "");
	strbuf__fini(&d);
	json__object_end(j);
}

static void app__json_extra(struct app *a, struct strbuf *sb, size_t start)
{
	struct json j;

	if (!a->input && !a->writer && !a->pusher)
		return;
	if (json__reopen(&j, sb, start))
		return;
	if (a->input)
		app__json_input(a, &j);
	if (a->writer) {
		struct perfdata_writer_stats ws;

		perfdata_writer__stats(a->writer, &ws);
		json__object(&j, "output");
		json_sanitized(&j, "path", a->output);
		json__u64(&j, "records", ws.records);
		json__u64(&j, "bytes", ws.bytes);
		json__u64(&j, "backlog", ws.backlog);
		json__u64(&j, "dropped", ws.dropped);
		json_sanitized(&j, "error",
			       ws.error ? strerror(-ws.error) : "");
		json__object_end(&j);
	}
	if (a->note_buf[0])
		json_sanitized(&j, "note", a->note_buf);
	if (a->pusher) {
		/* as of the last header: this refresh's profiles are queued
		 * after the table */
		const struct push_stats *ps = &a->push_stats;

		json__object(&j, "push");
		json__u64(&j, "pushed", ps->pushed);
		json__u64(&j, "dropped", ps->dropped);
		json__u64(&j, "failed", ps->failed);
		json__u64(&j, "queued", ps->queued);
		json__bool(&j, "unreachable", ps->unreachable);
		json_sanitized(&j, "error", ps->unreachable ? ps->error : "");
		json__object_end(&j);
	}
	json__object_end(&j);
	strbuf__addc(sb, '\n');
}

/* --annotate: the function's annotation instead of the table; -ECANCELED
 * when it cannot be annotated (said why). */
static int app__annotate(struct app *a, struct annotator *an,
			 const struct batch_opts *bo,
			 const struct snapshot *snap,
			 const struct header_info *hi, struct strbuf *sb,
			 bool *found)
{
	struct strbuf why;
	int err;

	strbuf__init(&why);
	err = batch__annotate(sb, bo, an, snap, a->annotate, hi, &why);
	if (!err) {
		*found = true;
	} else if (err == -ENOENT && !why.len) {
		err = 0;	/* not run yet: said so, and go on */
	} else {
		pr_err("%s", why.len ? why.buf : strerror(-err));
		err = -ECANCELED;
	}
	strbuf__fini(&why);
	return err;
}

/* --annotate of a function that never showed up: close names, and the
 * non-zero exit of a name that is not there. */
static int app__annotate_missing(struct app *a, struct annotator *an,
				 const struct table *t)
{
	struct strbuf close;

	strbuf__init(&close);
	for (size_t ev = 0; ev < t->nr_snaps && !close.len; ev++)
		batch__annotate_close(an, table__snap(t, ev), a->annotate,
				      &close);
	for (size_t i = 0; close.len && i + 1 < close.len; i++)
		if (close.buf[i] == '\n')
			close.buf[i] = ',';
	if (close.len)
		close.buf[--close.len] = '\0';
	if (close.len)
		pr_err("no function named '%s' in the sampled code; close "
		       "names: %s", a->annotate, close.buf);
	else
		pr_err("no function named '%s' in the sampled code (it must "
		       "be in code that ran: the target's binaries, its "
		       "libraries or the kernel)", a->annotate);
	strbuf__fini(&close);
	return -ECANCELED;
}

/* The batch front end's state for the whole run. */
struct batch_run {
	struct app *a;
	struct batch_opts bo;
	struct table t;
	struct annotator *an;	/* --annotate */
	struct inlines *inl;	/* inlined frames, one cache for the run */
	struct app_refresh r;
	struct app_push_round push;	/* this refresh's (--push) */
	struct strbuf sb;	/* this refresh's text */
	double next;		/* the next table is due */
	double mark_at;		/* --timeline live: the next cell ends */
	long iter;
	bool ann_found;
};

/* The table, the annotator and the inline cache: 0 or -ENOMEM. */
static int batch__open(struct batch_run *b, struct app *a)
{
	struct table *t = &b->t;

	memset(b, 0, sizeof(*b));
	b->a = a;
	b->bo = (struct batch_opts){
		.json = a->json,
		.show_period = a->show_period,
		.callgraph = a->callgraph,
		.folded = a->folded,
		.order = a->cg_order,
		.tree_limit = a->tree_limit,
	};
	b->next = a->start + a->delay;
	strbuf__init(&b->sb);
	app_refresh__init(&b->r, a->start);
	table__init(t, a->session, a->syms, &a->spec);
	/* SIGTERM or Ctrl-C while names are looked up: no more lookups */
	t->cancel = batch__cancel;
	t->cancel_ctx = a;
	if (app__take_baseline(a, t))
		return -ENOMEM;
	if (a->annotate) {
		b->an = annotator__new(a->syms, a->syntax);
		if (!b->an)
			return -ENOMEM;
	}
	/* trees, folded stacks, flame graphs and pprof show inlined frames
	 * as the live view's trees do (a->inline_frames: main.c says when),
	 * from one cache for the whole run */
	if ((a->inline_frames &&
	     (b->bo.callgraph || a->pprof || a->flamegraph || a->pusher)) ||
	    (a->inline_rows && a->spec.children)) {
		b->inl = inlines__new(a->syms);
		if (!b->inl)
			return -ENOMEM;
		if (a->inline_frames) {
			b->bo.inl = inlines__get;
			b->bo.inl_ctx = b->inl;
		}
		inlines__set_cancel(b->inl, batch__cancel, a);
		if (a->inline_rows && a->spec.children)
			rowset__set_inline_rows(&t->rows, inlines__get, b->inl);
	}
	t->filter = a->filter;
	t->budget = a->budget;
	t->keep_addrs = a->pusher != NULL;
	if (a->timeline) {
		t->tl = a->timeline;
		/* JSON: every cell; text: a History column over them all */
		t->history = a->json ? HISTORY_CELLS : 32;
		t->history_spread = true;
		if (!timeline__grid(a->timeline, NULL)) {
			timeline__set_grid(a->timeline, (u64)(a->start * 1e9),
					   (u64)(a->timeline_secs * 1e9));
			b->mark_at = a->start + a->timeline_secs;
		}
	}
	return 0;
}

static void batch__close(struct batch_run *b)
{
	annotator__free(b->an);
	inlines__free(b->inl);
	strbuf__fini(&b->sb);
	table__fini(&b->t);
	app_refresh__fini(&b->r);
}

/* Until the next table is due (the timeline's cells that end before it
 * closed on the way), the target ends or a stop is asked: false then. */
static bool batch__wait_next(struct batch_run *b)
{
	struct app *a = b->a;

	while (!a->finished && b->mark_at && b->mark_at < b->next &&
	       !*a->stop) {
		batch__wait(a, b->mark_at);
		if (app__now() >= b->mark_at)
			batch__mark(a, &b->mark_at);
	}
	if (!a->finished)
		batch__wait(a, b->next);
	return !*a->stop;
}

/* Event ev's table (or annotation) into b->sb, its files written: 0, 1
 * when a stop request came during its build (nothing added), or -errno. */
static int batch__event(struct batch_run *b, size_t ev)
{
	struct app *a = b->a;
	struct table *t = &b->t;
	const struct snapshot *snap = table__snap(t, ev);
	struct batch_folded bf;
	struct app_push_out px;
	struct header_info hi;
	struct output extra[2];
	size_t start, n = 0;
	int err;

	/* --annotate prints no rows: the annotator looks the entries up
	 * itself */
	err = b->an ? 0 : table__build(t, ev);
	/* a stop request (batch__cancel): not printed */
	if (err == -ECANCELED && *a->stop)
		err = 0;
	if (err || *a->stop)
		return err ? err : 1;
	app__header(a, t, ev, b->r.window, app_refresh__since(&b->r, ev), &hi);
	b->bo.root = stack_root__resolve(a->stack_root, snap);
	/* a recording's events that never sampled (perf's dummy tracking
	 * event) make no table, at the end and at every refresh of a stream
	 * as it comes */
	if (a->input && !snap->counts.samples && t->nr_snaps > 1 &&
	    app__dummy(a, ev))
		return 0;
	start = b->sb.len;
	if (b->an)
		return app__annotate(a, b->an, &b->bo, snap, &hi, &b->sb,
				     &b->ann_found);
	/* folded stacks and the push's window: outputs of the files' pass */
	if (b->bo.folded)
		extra[n++] = batch__folded(&bf, &b->sb, &b->bo, t);
	else
		batch__format(&b->sb, &b->bo, t, &hi);
	n += app__push_output(&b->push, &px, ev, &hi, b->bo.inl,
			      b->bo.inl_ctx, &extra[n]);
	err = app__export(a, t, ev, &hi, b->bo.inl, b->bo.inl_ctx, true, extra,
			  n);
	if (b->bo.json)
		app__json_extra(a, &b->sb, start);
	return err;
}

/* This refresh's text to stdout; *done when it was the last. */
static int batch__write(struct batch_run *b, bool *done)
{
	struct app *a = b->a;

	if (b->sb.oom)
		return -ENOMEM;
	if (a->ascii && !a->json && !a->folded) {
		struct strbuf plain;

		strbuf__init(&plain);
		to_ascii(&plain, b->sb.buf ? b->sb.buf : "", b->sb.len);
		strbuf__fini(&b->sb);
		b->sb = plain;
		if (b->sb.oom)
			return -ENOMEM;
	}
	b->iter++;
	*done = (a->iterations && b->iter >= a->iterations) || a->finished;
	/* -EPIPE when the reader went away (ptop -b | head); folded stacks
	 * once, the last table's (every table holds the stacks of the one
	 * before: one line per stack), unless -z makes each table a window
	 * of its own */
	if (!a->folded || *done || a->mode == HIST_ZERO)
		return fd__write_all(STDOUT_FILENO, b->sb.buf, b->sb.len, NULL);
	return 0;
}

/* One refresh: the snapshot, every event's table, the push, the text. */
static int batch__refresh(struct batch_run *b, bool *done)
{
	struct app *a = b->a;
	double now = app__now();
	size_t ev = 0;
	int err;

	/* debuginfod holds a table back until the next is due at most, the
	 * last one DBGFETCH_WAIT_MAX: what comes later is in later tables */
	symbolizer__fetch_wait(a->syms,
			       a->finished || a->input ||
			       (a->iterations && b->iter + 1 >= a->iterations) ?
				       DBGFETCH_WAIT_MAX :
				       MIN(a->delay, DBGFETCH_WAIT_MAX));
	err = app__refresh(a, &b->r, &b->t, now);
	if (err)
		return err;
	strbuf__reset(&b->sb);
	app__push_begin(a, &b->t, &b->push);
	for (; ev < b->t.nr_snaps; ev++) {
		err = batch__event(b, ev);
		if (err)
			break;	/* 1: stopped */
	}
	app__push_end(&b->push, err <= 0, b->bo.inl, b->bo.inl_ctx);
	if (err < 0)
		return err;
	/* every event's files written: this refresh's profile */
	if (ev == b->t.nr_snaps && (a->pprof || a->flamegraph))
		a->files_written = true;
	/* a table cut short by a stop request is not printed */
	if (*a->stop) {
		pr_debug("batch: stopped during a table (not printed)");
		*done = true;
		return 0;
	}
	return batch__write(b, done);
}

int app__run_batch(struct app *a)
{
	struct batch_run b;
	bool done = false;
	int err;

	err = batch__open(&b, a);
	if (err) {
		batch__close(&b);
		pr_err("out of memory");
		return 1;
	}
	while (!done && batch__wait_next(&b)) {
		err = batch__refresh(&b, &done);
		if (err)
			break;
		b.next += a->delay;
		if (b.next < app__now())
			b.next = app__now() + a->delay;
	}
	if (b.an && !err && !b.ann_found)
		err = app__annotate_missing(a, b.an, &b.t);
	batch__close(&b);
	if (err == -ECANCELED)
		return 1;	/* the reason is out already */
	if (err == -EPIPE)
		return 0;	/* the reader has what it wanted */
	if (err) {
		pr_err("batch output: %s", strerror(-err));
		return 1;
	}
	return 0;
}
