/* view_events: the event picker; lists every event this machine can
 * open, in a thread of its own so that a slow listing never stalls the
 * view. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/log.h"
#include "src/sys/clock.h"
#include "src/core/events.h"
#include "src/sys/catalog.h"
#include "ui/report/sanitize.h"
#include "ui/tui/oom.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/view_events.h"

struct evpick_entry {
	char name[256];		/* sanitized */
	char kind[32];		/* sanitized */
};

/*
 * Shared by the UI thread and the listing thread: entries, nr, done and
 * refs are under lock.  Whoever drops the last reference frees it, so
 * quitting while the listing runs leaves it to finish on its own.
 */
struct evpick {
	pthread_mutex_t lock;
	struct evpick_entry *ents;
	size_t nr, cap;
	bool done;
	int err;
	int refs;
	struct evlist_opts opts;
	char title[256];	/* UI thread only */
};

static void evpick__put(struct evpick *ep)
{
	bool last;

	pthread_mutex_lock(&ep->lock);
	last = --ep->refs == 0;
	pthread_mutex_unlock(&ep->lock);
	if (!last)
		return;
	pthread_mutex_destroy(&ep->lock);
	free(ep->ents);
	free(ep);
}

static void evpick__add(const char *name, const char *kind, void *ctx)
{
	struct evpick *ep = ctx;
	struct evpick_entry e;
	struct strbuf sb;

	memset(&e, 0, sizeof(e));
	strbuf__init(&sb);
	sanitize_str(&sb, name);
	snprintf(e.name, sizeof(e.name), "%s", sb.buf ? sb.buf : "");
	strbuf__reset(&sb);
	sanitize_str(&sb, kind);
	snprintf(e.kind, sizeof(e.kind), "%s", sb.buf ? sb.buf : "");
	strbuf__fini(&sb);

	pthread_mutex_lock(&ep->lock);
	if (!array__grow((void **)&ep->ents, &ep->cap, ep->nr + 1,
			 sizeof(*ep->ents)))
		ep->ents[ep->nr++] = e;
	pthread_mutex_unlock(&ep->lock);
}

static void *evpick__thread(void *arg)
{
	struct evpick *ep = arg;
	int err = catalog__list_events(ep->opts.tracefs, ep->opts.pmu_root,
				       evpick__add, ep);

	pthread_mutex_lock(&ep->lock);
	ep->done = true;
	ep->err = err;
	pthread_mutex_unlock(&ep->lock);
	evpick__put(ep);
	return NULL;
}

static struct evpick *evpick__start(const struct evlist_opts *opts)
{
	struct evpick *ep = calloc(1, sizeof(*ep));
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t th;
	int err;

	if (!ep)
		oom__die();
	pthread_mutex_init(&ep->lock, NULL);
	ep->opts = *opts;
	ep->refs = 2;
	/* signals (SIGINT, SIGWINCH) belong to the UI thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&th, &attr, evpick__thread, ep);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		ep->refs = 1;
		ep->done = true;
		ep->err = -err;
	}
	return ep;
}

static void evpick__release(struct evpick *ep)
{
	if (ep)
		evpick__put(ep);
}

static bool evpick__done(struct evpick *ep)
{
	bool done;

	pthread_mutex_lock(&ep->lock);
	done = ep->done;
	pthread_mutex_unlock(&ep->lock);
	return done;
}

static size_t evpick__nr(struct evpick *ep)
{
	size_t n;

	pthread_mutex_lock(&ep->lock);
	n = ep->nr;
	pthread_mutex_unlock(&ep->lock);
	return n;
}

static bool evpick__name(struct evpick *ep, size_t i, char *buf, size_t len)
{
	bool ok;

	pthread_mutex_lock(&ep->lock);
	ok = i < ep->nr;
	if (ok)
		snprintf(buf, len, "%s", ep->ents[i].name);
	pthread_mutex_unlock(&ep->lock);
	return ok;
}

static void evpick__set_title(struct evpick *ep, const char *sanitized)
{
	snprintf(ep->title, sizeof(ep->title), "%s", sanitized);
}

static size_t evpick__nr_rows(void *ctx)
{
	return evpick__nr(ctx);
}

static void evpick__header(void *ctx, struct screen *s, size_t y)
{
	struct evpick *ep = ctx;
	size_t n;
	bool done;
	int err;

	pthread_mutex_lock(&ep->lock);
	n = ep->nr;
	done = ep->done;
	err = ep->err;
	pthread_mutex_unlock(&ep->lock);
	screen__add(s, y, ST_TITLE, ep->title);
	if (!done)
		screen__addf(s, y, ST_TITLE, " (%zu so far, listing...)", n);
	else if (err && !n)
		screen__addf(s, y, ST_TITLE, " (listing failed: %s)",
			     strerror(err < 0 ? -err : err));
	else
		screen__addf(s, y, ST_TITLE, " (%zu event%s)", n, PLURAL(n));
	screen__fill(s, y, ST_TITLE);
}

static void evpick__row(void *ctx, size_t i, struct screen *s, size_t y)
{
	struct evpick *ep = ctx;
	struct evpick_entry e;

	pthread_mutex_lock(&ep->lock);
	if (i < ep->nr)
		e = ep->ents[i];
	else
		memset(&e, 0, sizeof(e));
	pthread_mutex_unlock(&ep->lock);
	screen__add(s, y, ST_NORMAL, "  ");
	screen__add(s, y, ST_NORMAL, e.name);
	screen__pad(s, y, 48);
	screen__add(s, y, ST_NORMAL, " [");
	screen__add(s, y, ST_NORMAL, e.kind);
	screen__add(s, y, ST_NORMAL, "]");
}

static void evpick__text(void *ctx, size_t i, struct strbuf *sb)
{
	struct evpick *ep = ctx;

	pthread_mutex_lock(&ep->lock);
	if (i < ep->nr)
		strbuf__addf(sb, "%s %s", ep->ents[i].name, ep->ents[i].kind);
	pthread_mutex_unlock(&ep->lock);
}

static const struct list_ops evpick__ops = {
	.nr_rows = evpick__nr_rows,
	.format_header = evpick__header,
	.format_row = evpick__row,
	.row_text = evpick__text,
};

/* ---- the view ---- */

struct evpick_view {
	struct evpick *ep;	/* started at the first open */
	struct listview lv;
};

static struct evpick_view *evpick_of(struct tui *t)
{
	return *tui__state(t, V_EVENTS);
}

static enum act_result evpick__open(struct tui *t, const void *arg)
{
	static const struct evlist_opts deflt = { .freq = 1, .mmap_pages = 1 };
	struct evpick_view *v;
	struct strbuf title;

	(void)arg;
	if (!t->a->sampler) {
		tui__status(t, ST_ERROR, "no live source: events cannot change");
		return R_REDRAW;
	}
	v = tui__state_new(t, V_EVENTS, sizeof(*v));
	if (!v->ep)
		v->ep = evpick__start(sampler__evopts(t->a->sampler) ?
					      sampler__evopts(t->a->sampler) :
					      &deflt);
	strbuf__init(&title);
	strbuf__adds(&title, "Events: Enter adds, r replaces ");
	sanitize_str(&title, tui__event_name(t));
	evpick__set_title(v->ep, title.buf ? title.buf : "");
	strbuf__fini(&title);
	listview__fini(&v->lv);
	listview__init(&v->lv, &evpick__ops, v->ep);
	tui__push(t, V_EVENTS);
	return R_REDRAW;
}

static void evpick__free(struct tui *t)
{
	struct evpick_view *v = evpick_of(t);

	if (!v)
		return;
	evpick__release(v->ep);
	listview__fini(&v->lv);
	free(v);
	*tui__state(t, V_EVENTS) = NULL;
}

static struct listview *evpick__list(struct tui *t)
{
	struct evpick_view *v = evpick_of(t);

	return v ? &v->lv : NULL;
}

/* Drawn again at each turn of the loop; the listing fills it in. */
static bool evpick__busy(struct tui *t, int *ms)
{
	struct evpick_view *v = evpick_of(t);

	if (!v || !v->ep)
		return false;
	if (!evpick__done(v->ep))
		*ms = MIN(*ms, 100);
	return true;
}

enum act_result action__event_add(struct tui *t, int replace)
{
	struct evpick_view *v = evpick_of(t);
	struct sampler *sp = t->a->sampler;
	struct event_spec *specs = NULL;
	char name[256];
	struct strbuf err, clean;
	size_t nr = 0, row;
	int rc;

	if (!v || !v->ep || !listview__selected(&v->lv, &row) ||
	    !evpick__name(v->ep, row, name, sizeof(name)))
		return R_NONE;
	strbuf__init(&err);
	strbuf__init(&clean);
	sanitize_str(&clean, name);
	rc = events__parse(name, &specs, &nr, &err);
	if (rc || !nr) {
		tui__status(t, ST_ERROR, "%s", err.buf ? err.buf : "bad event");
		goto out;
	}
	if (t->a->finished) {
		tui__status(t, ST_ERROR, "the target exited: p attaches to "
					 "another one first");
		goto out;
	}
	strbuf__reset(&err);
	rc = sampler__add_event(sp, &specs[0], replace, t->ev_pos, &err);
	if (rc) {
		/* the why follows the status, as the log's words do */
		if (err.buf)
			pr_err("%s", err.buf);
		tui__status(t, ST_ERROR, "cannot sample %s: %s",
			    clean.buf ? clean.buf : "", strerror(-rc));
		goto out;
	}
	tui__pop(t);
	t->ev_pos = sampler__nr_sampled(sp) ? sampler__nr_sampled(sp) - 1 : 0;
	tui__status(t, ST_NORMAL, "%s %s (Tab switches events)",
		    replace ? "now sampling" : "also sampling",
		    clean.buf ? clean.buf : "");
	t->next_refresh = clock__now() + 0.25;
out:
	free(specs);
	strbuf__fini(&err);
	strbuf__fini(&clean);
	return rc ? R_REDRAW : R_REBUILD;
}

/* Its operations (view.h). */
const struct view_ops evpick__view = {
	.view = V_EVENTS,
	.name = "events",
	.open = evpick__open,
	.list = evpick__list,
	.busy = evpick__busy,
	.free = evpick__free,
};
