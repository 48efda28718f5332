/* session_events: the session's event table: events, their attrs and
 * ids, the layout of sample ids, and the perf.data build-id table. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/record.h"
#include "src/core/offcpu.h"
#include "src/core/session.h"
#include "src/core/session_internal.h"

u64 session__record_time(const struct session *s,
			 const struct perf_event_header *h)
{
	const u64 *w = (const u64 *)(h + 1);
	size_t nw = (h->size - sizeof(*h)) / 8;

	if (h->size < sizeof(*h) || !s->nr_events)
		return 0;
	if (h->type == PERF_RECORD_SAMPLE)
		return s->time_sample >= 0 && (size_t)s->time_sample < nw ?
			       w[s->time_sample] : 0;
	if (h->type >= PERF_RECORD_MAX)	/* user types (perf.data) have no trailer */
		return 0;
	return s->time_trailer > 0 && (size_t)s->time_trailer <= nw ?
		       w[nw - s->time_trailer] : 0;
}

int session__add_event(struct session *s, const char *name,
		       const struct perf_event_attr *attr)
{
	struct session_event *e;

	if (array__grow((void **)&s->events, &s->cap_events, s->nr_events + 1,
			sizeof(*s->events)))
		return -ENOMEM;
	e = &s->events[s->nr_events];
	memset(e, 0, sizeof(*e));
	e->name = strdup(name);
	e->hist = hist__new();
	if (!e->name || !e->hist) {
		free(e->name);
		hist__free(e->hist);
		return -ENOMEM;
	}
	e->attr = *attr;
	s->nr_events++;
	s->events_gen++;
	session__layout(s);
	return (int)(s->nr_events - 1);
}

int session__set_attr(struct session *s, size_t ev,
		      const struct perf_event_attr *attr)
{
	size_t i = 0;
	u64 k;
	void *v;

	if (ev >= s->nr_events)
		return -EINVAL;
	s->events[ev].attr = *attr;
	s->events_gen++;
	/* forget the ids of this event: the fds they named are closed */
	while (intmap__next(&s->ids, &i, &k, &v)) {
		if ((uintptr_t)v == ev + 1) {
			intmap__del(&s->ids, k);
			i = 0;
		}
	}
	session__layout(s);
	return 0;
}

int session__add_id(struct session *s, size_t ev, u64 id)
{
	if (ev >= s->nr_events)
		return -EINVAL;
	s->events_gen++;
	return intmap__put(&s->ids, id, (void *)(uintptr_t)(ev + 1));
}

int session__set_event_name(struct session *s, size_t ev, const char *name)
{
	char *n;

	if (ev >= s->nr_events || !name)
		return -EINVAL;
	n = strdup(name);
	if (!n)
		return -ENOMEM;
	free(s->events[ev].name);
	s->events[ev].name = n;
	return 0;
}

int session__event_ids(const struct session *s, size_t ev, u64 **ids,
		       size_t *nr)
{
	size_t i = 0, n = 0, cap = 0;
	u64 k, *out = NULL;
	void *v;

	*ids = NULL;
	*nr = 0;
	if (ev >= s->nr_events)
		return -EINVAL;
	while (intmap__next(&s->ids, &i, &k, &v)) {
		if ((uintptr_t)v != ev + 1)
			continue;
		if (array__grow((void **)&out, &cap, n + 1, sizeof(*out))) {
			free(out);
			return -ENOMEM;
		}
		out[n++] = k;
	}
	*ids = out;
	*nr = n;
	return 0;
}

u64 session__events_gen(const struct session *s)
{
	return s->events_gen;
}

void session__time_range(const struct session *s, u64 *first, u64 *last)
{
	*first = s->first_time;
	*last = s->last_time;
}

void session__sample_range(const struct session *s, u64 *first, u64 *last)
{
	/* without a --time window the kept samples are all of them */
	*first = s->opts.time_end ? s->all_first : s->first_time;
	*last = s->opts.time_end ? s->all_last : s->last_time;
}

u64 session__now(const struct session *s)
{
	return MAX(s->clock_now, s->last_time);
}

int session__add_build_id(struct session *s, s32 pid, const char *path,
			  const u8 *bid, size_t size)
{
	size_t len = strlen(path);
	u64 key = hash_bytes(path, len);
	struct session_bid *b;

	if (!size)
		return -EINVAL;
	if (array__grow((void **)&s->bids, &s->cap_bids, s->nr_bids + 1,
			sizeof(*s->bids)))
		return -ENOMEM;
	b = &s->bids[s->nr_bids];
	memset(b, 0, sizeof(*b));
	b->path = strdup(path);
	if (!b->path)
		return -ENOMEM;
	b->pid = pid;
	b->size = (u8)MIN(size, (size_t)BUILD_ID_MAX);
	memcpy(b->bid, bid, b->size);
	b->next = (uintptr_t)intmap__get(&s->bid_index, key);
	if (intmap__put(&s->bid_index, key,
			(void *)(uintptr_t)(s->nr_bids + 1))) {
		free(b->path);
		return -ENOMEM;
	}
	s->nr_bids++;
	return 0;
}

/* The table's build-id for a mapping of path by pid: its pid's entry,
 * else a host (-1) entry. */
const struct session_bid *session__find_bid(const struct session *s,
					    s32 pid, const char *path,
					    size_t len)
{
	const struct session_bid *any = NULL;
	size_t i;

	if (!s->nr_bids)
		return NULL;
	i = (uintptr_t)intmap__get(&s->bid_index, hash_bytes(path, len));
	for (; i; i = s->bids[i - 1].next) {
		const struct session_bid *b = &s->bids[i - 1];

		if (strcmp(b->path, path) != 0)
			continue;
		if (b->pid == pid)
			return b;
		if (b->pid == -1 && !any)
			any = b;
	}
	return any;
}

size_t session__nr_events(const struct session *s)
{
	return s->nr_events;
}

size_t session__bytes(const struct session *s)
{
	size_t n = callchains__bytes(s->chains);

	for (size_t i = 0; i < s->nr_events; i++)
		n += hist__bytes(s->events[i].hist);
	return n;
}

const char *session__event_name(const struct session *s, size_t ev)
{
	return ev < s->nr_events ? s->events[ev].name : NULL;
}

const struct perf_event_attr *session__event_attr(const struct session *s,
						  size_t ev)
{
	return ev < s->nr_events ? &s->events[ev].attr : NULL;
}

/* The events that have samples of their own (not --off-cpu's waits). */
static size_t session__nr_sampling(const struct session *s)
{
	return s->nr_events - (s->offcpu_dst >= 0) - (s->wall_dst >= 0);
}

/* The event a record belongs to; NULL if the id is unknown. */
struct session_event *session__event_of(struct session *s,
					const struct perf_event_header *h)
{
	u64 id;
	uintptr_t v;

	/* one event that samples (--off-cpu's event of waits is made by
	 * the session, after it): records need no id */
	if (session__nr_sampling(s) == 1)
		return &s->events[0];
	if (record__id(h, &s->id_pos, &id))
		return NULL;
	v = (uintptr_t)intmap__get(&s->ids, id);
	return v ? &s->events[v - 1] : NULL;
}

bool session__attr_build_id(const struct session *s,
			    const struct perf_event_header *h)
{
	u64 id;
	uintptr_t v;

	if (!s->any_build_id)
		return false;
	if (session__nr_sampling(s) == 1)
		return true;
	/* Several events: the id in the sample_id trailer names the one
	 * that carried the record (without sample_id_all the trailer is
	 * not there and the filename's tail would be read). */
	if (s->events[0].attr.sample_id_all &&
	    record__id(h, &s->id_pos, &id) == 0 &&
	    (v = (uintptr_t)intmap__get(&s->ids, id)))
		return s->events[v - 1].attr.build_id;
	/* No id, or one no attr lists (perf's and ptop's synthesized
	 * records carry a zeroed trailer): the tracking event, the only
	 * one that gets mmaps, is the one that asked for build-ids. */
	return true;
}
