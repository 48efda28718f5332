/* app: shared front-end plumbing and the batch loop. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "annotate.h"
#include "batch.h"
#include "log.h"

double app__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void app__header(struct app *a, const struct table *t, size_t ev,
		 double window, u64 window_samples, struct header_info *hi)
{
	const struct perf_event_attr *attr = session__event_attr(a->session, ev);

	memset(hi, 0, sizeof(*hi));
	hi->target = a->target_desc;
	hi->event = session__event_name(a->session, ev);
	if (attr) {
		if (attr->freq)
			hi->freq = attr->sample_freq;
		else
			hi->period = attr->sample_period;
	}
	hi->elapsed = app__now() - a->start;
	hi->window = window;
	hi->window_samples = window_samples;
	hi->paused = a->sampler && sampler__paused(a->sampler);
	hi->zeroing = a->mode == HIST_ZERO;
	hi->decaying = a->mode == HIST_DECAY;
	hi->finished = a->finished;
	hi->note = a->note[0] ? a->note : NULL;
	hi->ev_index = ev;
	hi->nr_events = t->nr_snaps;
}

bool app__check_target(struct app *a)
{
	const struct target *t;
	int status = 0;

	if (a->finished || !a->sampler)
		return false;
	if (sampler__target_alive(a->sampler, &status))
		return false;
	/* The last samples are still in the rings: read them first. */
	sampler__stop(a->sampler);
	a->finished = true;
	t = sampler__target(a->sampler);
	if (t->kind == TARGET_COMMAND) {
		a->exit_status = status;
		snprintf(a->note, sizeof(a->note), "the command exited");
	} else if (t->nr_pids == 1) {
		snprintf(a->note, sizeof(a->note), "%s %d exited",
			 t->kind == TARGET_TIDS ? "thread" : "process",
			 (int)t->pids[0]);
	} else {
		snprintf(a->note, sizeof(a->note), "every target exited");
	}
	return true;
}

/* -EPIPE when the reader went away (ptop -b | head). */
static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
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

int batch__run(struct app *a)
{
	struct batch_opts bo = {
		.json = a->json,
		.show_period = a->show_period,
		.callgraph = a->callgraph,
		.folded = a->folded,
		.order = a->cg_order,
		/* perf's callchain threshold unless --percent-limit */
		.tree_limit = a->filter.percent_limit > 0 ?
				      a->filter.percent_limit : 0.5,
	};
	double next = a->start + a->delay, last = a->start;
	u64 *prev = NULL;
	size_t nr_prev = 0;
	struct strbuf sb;
	struct table t;
	struct annotator *an = NULL;
	bool ann_found = false;
	long iter = 0;
	int err = 0;

	table__init(&t, a->session, a->syms, &a->spec);
	if (a->annotate) {
		an = annotator__new(a->syms, a->syntax);
		if (!an) {
			table__fini(&t);
			pr_err("out of memory");
			return 1;
		}
	}
	t.filter = a->filter;
	strbuf__init(&sb);
	for (;;) {
		double now;
		size_t n;

		if (!a->finished)
			batch__wait(a, next);
		if (*a->stop)
			break;
		now = app__now();
		err = table__snapshot(&t, a->mode);
		if (err)
			break;
		n = t.nr_snaps;
		if (n > nr_prev) {
			u64 *p = realloc(prev, n * sizeof(*p));

			if (!p) {
				err = -ENOMEM;
				break;
			}
			memset(p + nr_prev, 0, (n - nr_prev) * sizeof(*p));
			prev = p;
			nr_prev = n;
		}
		strbuf__reset(&sb);
		for (size_t ev = 0; ev < n; ev++) {
			const struct snapshot *snap = table__snap(&t, ev);
			struct header_info hi;

			err = table__build(&t, ev);
			if (err)
				break;
			app__header(a, &t, ev, now - last,
				    snap->counts.samples - prev[ev], &hi);
			prev[ev] = snap->counts.samples;
			if (an) {
				err = app__annotate(a, an, &bo, snap, &hi, &sb,
						    &ann_found);
				if (err)
					break;
				continue;
			}
			batch__format(&sb, &bo, &t, &hi);
		}
		if (err)
			break;
		if (sb.oom) {
			err = -ENOMEM;
			break;
		}
		err = write_all(STDOUT_FILENO, sb.buf, sb.len);
		if (err)
			break;
		last = now;
		iter++;
		if ((a->iterations && iter >= a->iterations) || a->finished)
			break;
		next += a->delay;
		if (next < app__now())
			next = app__now() + a->delay;
	}
	if (an && !err && !ann_found)
		err = app__annotate_missing(a, an, &t);
	annotator__free(an);
	strbuf__fini(&sb);
	table__fini(&t);
	free(prev);
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
