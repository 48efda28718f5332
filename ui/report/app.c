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

#include "src/sys/clock.h"
#include "ui/report/app.h"
#include "symbols/dbgfetch.h"
#include "ui/report/annotate.h"
#include "ui/report/batch.h"
#include "src/sys/fdio.h"
#include "src/core/json.h"
#include "src/sys/outfile.h"
#include "ui/report/inlines.h"
#include "ui/report/app_internal.h"
#include "ui/report/output.h"
#include "src/core/log.h"
#include "ui/report/flame.h"
#include "ui/report/flamesvg.h"
#include "ui/report/pprof.h"
#include "ui/report/push.h"
#include "ui/report/sanitize.h"
#include "src/sys/synth.h"

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
	hi->elapsed = clock__now() - a->start;
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
	if (n <= r->nr)
		return 0;
	if (array__grow((void **)&r->evs, &r->cap, n, sizeof(*r->evs)))
		return -ENOMEM;
	memset(r->evs + r->nr, 0, (n - r->nr) * sizeof(*r->evs));
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
			      (u64)(clock__now() * 1e9));
	session__unlock(a->session);
	*mark_at = (double)next / 1e9;
}

/* Sleeps until `until`, waking early for a stop request or the end of
 * the target. */
static void batch__wait(struct app *a, double until)
{
	for (;;) {
		double left = until - clock__now();
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

/* batch_opts.json_more: the run's own members of a table's object */
static void app__json_more(struct json *j, void *ctx)
{
	struct app *a = ctx;

	if (a->input)
		app__json_input(a, j);
	if (a->writer) {
		struct perfdata_writer_stats ws;

		perfdata_writer__stats(a->writer, &ws);
		json__object(j, "output");
		json_sanitized(j, "path", a->output);
		json__u64(j, "records", ws.records);
		json__u64(j, "bytes", ws.bytes);
		json__u64(j, "backlog", ws.backlog);
		json__u64(j, "dropped", ws.dropped);
		json_sanitized(j, "error",
			       ws.error ? strerror(-ws.error) : "");
		json__object_end(j);
	}
	if (a->note_buf[0])
		json_sanitized(j, "note", a->note_buf);
	if (a->pusher) {
		/* as of the last header: this refresh's profiles are queued
		 * after the table */
		const struct push_stats *ps = &a->push_stats;

		json__object(j, "push");
		json__u64(j, "pushed", ps->pushed);
		json__u64(j, "dropped", ps->dropped);
		json__u64(j, "failed", ps->failed);
		json__u64(j, "queued", ps->queued);
		json__bool(j, "unreachable", ps->unreachable);
		json_sanitized(j, "error", ps->unreachable ? ps->error : "");
		json__object_end(j);
	}
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
	if (a->input || a->writer || a->pusher) {
		b->bo.json_more = app__json_more;
		b->bo.json_more_ctx = a;
	}
	b->next = a->start + a->delay;
	strbuf__init(&b->sb);
	app_refresh__init(&b->r, a->start);
	table__init(t, a->session, a->syms, &a->spec);
	/* SIGTERM or Ctrl-C while names are looked up: no more lookups */
	t->cancel = app__cancel;
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
		inlines__set_cancel(b->inl, app__cancel, a);
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
		if (clock__now() >= b->mark_at)
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
	size_t n = 0;
	int err;

	/* --annotate prints no rows: the annotator looks the entries up
	 * itself */
	err = b->an ? 0 : table__build(t, ev);
	/* a stop request (app__cancel): not printed */
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
	double now = clock__now();
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
		if (b.next < clock__now())
			b.next = clock__now() + a->delay;
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
