/* session_offcpu: the session's glue for --off-cpu and --wall: the
 * sched_switch samples where threads wait, the waits charged when they
 * end, and the events made of them. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/record.h"
#include "src/core/offcpu.h"
#include "src/core/session.h"
#include "src/core/session_internal.h"

/* A switch-out's thread state, where the tracepoint's format puts it in
 * the sample's raw data (0: unknown). */
u8 session__switch_state(const struct session *s, const struct perf_sample *smp)
{
	const struct perf_sample_ext *x = smp->ext;
	u8 state = 0;

	if (s->state_size && x && x->raw &&
	    (u64)s->state_off + s->state_size <= x->raw_size) {
		const u8 *p = (const u8 *)x->raw + s->state_off;
		u64 v;

		if (s->state_size == 8) {
			memcpy(&v, p, 8);
		} else {
			u32 v32;

			memcpy(&v32, p, 4);
			v = v32;
		}
		state = offcpu__state_of(v);
	}
	return state;
}

/* A sched_switch sample of --off-cpu: where thread tid waits (its key,
 * chain included), from time. */
void session__offcpu_out(struct session *s, u32 tid, u64 time,
			 const struct hist_key *key, int cpu, u8 state)
{
	if (offcpu__out(s->offcpu, tid, time, key, cpu, state))
		s->events[s->offcpu_dst].counts.dropped++;
}

/* A chain's frames, leaf first (offcpu__keep_frames). */
size_t session__chain_frames(void *ctx, u32 chain, struct offcpu_frame *out,
			     size_t max)
{
	struct session *s = ctx;
	const struct cc_node *nodes, *c;
	struct cc_walk w;
	size_t n = 0, nr;

	nodes = callchains__nodes(s->chains, &nr);
	cc_walk__from(&w, nodes, nr, chain);
	while (n < max && (c = cc_walk__next(&w))) {
		out[n].dso = c->dso;
		out[n++].addr = c->addr;
	}
	return n;
}

/* A wait charged to the off-CPU event: its chain interned again (chains
 * may have been reset since the switch-out), its period the time. */
void session__offcpu_charge_one(void *ctx, const struct offcpu_wait *w)
{
	struct session *s = ctx;
	struct session_event *e = &s->events[s->offcpu_dst];
	struct hist_key key = w->key;
	u32 node = 0;

	/* the chains were reset while it waited: interned again */
	for (size_t i = w->nr_frames; !key.chain && i-- > 0;) {
		node = callchains__intern(s->chains, node, w->frames[i].dso,
					  w->frames[i].addr);
		if (!node)
			break;
		if (!i)
			key.chain = node;
	}
	if (s->opts.key_fields & KEY_STATE)
		key.state = w->state ? w->state : '?';
	if (w->ns && !w->preempted)
		session__account(e, w->cpu, &key, w->ns);
	if (w->ns && s->wall_dst >= 0)
		session__account(&s->events[s->wall_dst], w->cpu, &key, w->ns);
}

/* A sample_id trailer's fields before parsing: 0, cpu unknown.  Not an
 * initializer: that zeroes ext_storage too, hundreds of bytes per
 * record (a third of the dispatch of --off-cpu's switch records). */
void session__id_init(struct perf_sample *id)
{
	memset(id, 0, offsetof(struct perf_sample, ext_storage));
	id->cpu = (u32)-1;
}

/* PERF_RECORD_SWITCH(_CPU_WIDE): a thread of --off-cpu goes out (a
 * preemption: not a wait) or comes back (its wait is charged). */
int session__switch(struct session *s, const struct perf_event_header *h)
{
	struct session_event *e = session__event_of(s, h);
	struct perf_sample id;
	struct offcpu_wait w;

	/* (perf record --switch-events may ask them of its tracking
	 * event rather than of sched_switch's) */
	if (!s->offcpu || !e) {
		s->counts.unknown_type++;
		return 0;
	}
	session__id_init(&id);
	if (!e->attr.sample_id_all ||
	    record__parse_id_trailer(&e->attr, h, &id) || !id.tid)
		return 0;
	if (h->misc & PERF_RECORD_MISC_SWITCH_OUT) {
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
			offcpu__preempted(s->offcpu, id.tid);
		return 0;
	}
	if (id.time > s->last_time)
		s->last_time = id.time;
	if (offcpu__in(s->offcpu, id.tid, id.time, &w))
		session__offcpu_charge_one(s, &w);
	return 0;
}

int session__add_offcpu(struct session *s, size_t src, const char *name)
{
	int dst;

	if (src >= s->nr_events || s->offcpu)
		return -EINVAL;
	s->offcpu = offcpu__new();
	if (!s->offcpu)
		return -ENOMEM;
	dst = session__add_event(s, name, &s->events[src].attr);
	if (dst < 0) {
		offcpu__free(s->offcpu);
		s->offcpu = NULL;
		return dst;
	}
	s->offcpu_src = (long)src;
	s->offcpu_dst = dst;
	return dst;
}

void session__set_switch_state(struct session *s, u32 offset, u32 size)
{
	s->state_off = offset;
	s->state_size = size == 4 || size == 8 ? size : 0;
}

void session__set_clock(struct session *s, u64 now)
{
	if (now > s->clock_now)
		s->clock_now = now;
}

int session__add_wall(struct session *s, size_t cpu_ev, const char *name)
{
	int dst;

	if (!s->offcpu || cpu_ev >= s->nr_events || s->wall_dst >= 0)
		return -EINVAL;
	dst = session__add_event(s, name, &s->events[cpu_ev].attr);
	if (dst < 0)
		return dst;
	s->wall_cpu = (long)cpu_ev;
	s->wall_dst = dst;
	return dst;
}

bool session__event_is_time(const struct session *s, size_t ev)
{
	/* perf record --off-cpu's event: its BPF program writes each
	 * thread's off-CPU nanoseconds as the period */
	return (s->offcpu && (long)ev == s->offcpu_dst) ||
	       (long)ev == s->wall_dst ||
	       (ev < s->nr_events && s->events[ev].name &&
		strcmp(s->events[ev].name, "offcpu-time") == 0);
}

bool session__event_is_derived(const struct session *s, size_t ev)
{
	return (s->offcpu && (long)ev == s->offcpu_dst) ||
	       (long)ev == s->wall_dst;
}

bool session__event_is_wall(const struct session *s, size_t ev)
{
	return s->wall_dst >= 0 && (long)ev == s->wall_dst;
}

/* The cgroup of a sample: see session_source_ops.cgroup. */
