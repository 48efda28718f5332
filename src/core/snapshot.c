/* snapshot: a copy of an event's histogram (and its chains, counts and
 * open off-CPU waits) that a front end reads without the session's
 * lock. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/record.h"
#include "src/core/offcpu.h"
#include "src/core/session.h"
#include "src/core/session_internal.h"

void snapshot__init(struct snapshot *snap)
{
	memset(snap, 0, sizeof(*snap));
}

void snapshot__fini(struct snapshot *snap)
{
	free(snap->chains);
	free(snap->entries);
	free(snap->cpu_counts);
	memset(snap, 0, sizeof(*snap));
}

size_t snapshot__bytes(const struct snapshot *snap)
{
	return snap->cap * sizeof(*snap->entries) +
	       snap->cap_chains * sizeof(*snap->chains) +
	       snap->nr_cpus * sizeof(*snap->cpu_counts);
}

static void *dup_array(const void *src, size_t n, size_t sz)
{
	void *p = malloc(n ? n * sz : 1);

	if (p && n)
		memcpy(p, src, n * sz);
	return p;
}

int snapshot__copy(struct snapshot *dst, const struct snapshot *src)
{
	snapshot__fini(dst);
	*dst = *src;
	dst->entries = dup_array(src->entries, src->nr, sizeof(*src->entries));
	dst->cap = src->nr;
	dst->chains = dup_array(src->chains, src->nr_chains,
				sizeof(*src->chains));
	dst->cap_chains = src->nr_chains;
	dst->cpu_counts = dup_array(src->cpu_counts, src->nr_cpus,
				    sizeof(*src->cpu_counts));
	if (!dst->entries || !dst->chains || !dst->cpu_counts) {
		snapshot__fini(dst);
		return -ENOMEM;
	}
	return 0;
}

/* Moves the idle task's entries behind the others, each part in the
 * table's order: the others are then the same from one snapshot to the
 * next but for those added (what the trees' memo keeps, rowset.c), while
 * the table only grows.  Sums the idle ones.  0 or -ENOMEM. */
int snapshot__put_idle_last(struct snapshot *snap)
{
	struct hist_entry *idle;
	size_t n = 0, k = 0;

	snap->nr_idle = 0;
	snap->idle_samples = snap->idle_period = 0;
	for (size_t i = 0; i < snap->nr; i++)
		if (snap->entries[i].key.idle) {
			snap->idle_samples += snap->entries[i].samples;
			snap->idle_period += snap->entries[i].period;
			snap->nr_idle++;
		}
	if (!snap->nr_idle)
		return 0;
	idle = malloc(snap->nr_idle * sizeof(*idle));
	if (!idle)
		return -ENOMEM;
	for (size_t i = 0; i < snap->nr; i++) {
		if (snap->entries[i].key.idle)
			idle[n++] = snap->entries[i];
		else
			snap->entries[k++] = snap->entries[i];
	}
	memcpy(snap->entries + k, idle, n * sizeof(*idle));
	free(idle);
	return 0;
}

void snapshot__without_idle(const struct snapshot *snap,
			    struct snapshot *view)
{
	*view = *snap;
	view->nr = snap->nr - snap->nr_idle;
	view->nr_idle = 0;
	view->total_samples = snap->total_samples - snap->idle_samples;
	view->total_period = snap->total_period - snap->idle_period;
	view->idle_samples = view->idle_period = 0;
}

int session__snapshot(struct session *s, size_t ev, struct snapshot *snap)
{
	int take_err;

	return session__snapshot_take(s, ev, snap, NULL, NULL, &take_err);
}

int session__snapshot_take(struct session *s, size_t ev, struct snapshot *snap,
			   hist_take_fn fn, void *ctx, int *take_err)
{
	struct session_event *e;
	long n;

	*take_err = 0;
	if (ev >= s->nr_events)
		return -EINVAL;
	e = &s->events[ev];
	/* threads still waiting: their time so far, up to the newest
	 * timestamp (the rest comes at the next snapshot, or when they
	 * are back) */
	if (s->offcpu && ((long)ev == s->offcpu_dst || (long)ev == s->wall_dst) &&
	    (s->last_time || s->clock_now))
		offcpu__charge(s->offcpu, MAX(s->last_time, s->clock_now),
			       session__offcpu_charge_one, s);
	n = hist__copy_take(e->hist, &snap->entries, &snap->cap, fn, ctx,
			    take_err);
	if (n < 0)
		return (int)n;
	snap->ev = ev;
	snap->nr = (size_t)n;
	snap->total_samples = hist__total_samples(e->hist);
	snap->total_period = hist__total_period(e->hist);
	if (snapshot__put_idle_last(snap))
		return -ENOMEM;
	snap->counts = e->counts;
	snap->lost = session__lost_once(s, e);
	if (e->nr_cpu) {
		struct ev_counts *c = realloc(snap->cpu_counts,
					      e->nr_cpu * sizeof(*c));

		if (!c)
			return -ENOMEM;
		memcpy(c, e->cpu, e->nr_cpu * sizeof(*c));
		snap->cpu_counts = c;
	}
	snap->nr_cpus = e->nr_cpu;
	snap->session = s->counts;
	snap->first_time = s->first_time;
	snap->last_time = s->last_time;
	snap->nr_procs = machine__nr_procs(s->machine);
	snap->nr_threads = machine__nr_threads(s->machine);
	snap->nr_dsos = dsos__count(s->dsos);
	snap->kernel_samples = s->kernel_samples;
	snap->chains_owner = s;
	snap->chains_epoch = s->chains_epoch;
	snap->nr_chains = 0;
	if (callchains__nr(s->chains) > 1)
		return callchains__copy(s->chains, &snap->chains,
					&snap->cap_chains, &snap->nr_chains);
	return 0;
}
