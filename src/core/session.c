/* session: the one model every source feeds and every front end reads. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/record.h"
#include "src/core/offcpu.h"
#include "src/core/session.h"

#define MAX_CPUS 4096

struct session_event {
	char *name;
	struct perf_event_attr attr;
	struct hist *hist;
	struct ev_counts counts;
	struct ev_counts *cpu;	/* [nr_cpu] */
	size_t nr_cpu;
};

/* An entry of a perf.data file's build-id table; entries whose paths
 * hash alike are chained through next (an index + 1, 0: end). */
struct session_bid {
	s32 pid;
	u8 bid[BUILD_ID_MAX];
	u8 size;
	size_t next;
	char *path;
};

/*
 * session__chain's memo: the leaf node of a raw chain (the sample's
 * words, markers included) seen lately, by pid and cpumode.  A program
 * that switches or samples at the same few places sends the same words
 * again and again; a hit is a hash and a compare instead of a map lookup
 * and a trie step per frame.  An entry holds while the machine's maps
 * (machine__gen) and the trie (chains_epoch) are those it was made under.
 */
#define CHAIN_MEMO 512
#define CHAIN_MEMO_WORDS 64

struct chain_memo {
	u64 hash, gen, epoch;
	s32 pid;
	u16 cpumode, nr;
	u32 leaf;
	u64 words[CHAIN_MEMO_WORDS];
};

struct session {
	struct session_opts opts;
	bool fold_always;	/* session__fold_reaped */
	const char *fold_comm;	/* "[exited]" when comms are folded too */
	session_func_fn func_fn;	/* session__fold_addrs */
	void *func_ctx;
	pthread_mutex_t lock;
	struct strpool *strings;
	struct dsos *dsos;
	struct machine *machine;
	struct callchains *chains;
	u64 chains_epoch;	/* callchains__reset calls */
	struct chain_memo *memo;	/* CHAIN_MEMO slots, made on first use */
	struct session_event *events;
	size_t nr_events, cap_events;
	struct intmap ids;	/* id -> event index + 1 */
	struct id_pos id_pos;	/* where the id is, from event 0 */
	int time_sample;	/* u64 index of TIME in a sample, -1: none */
	int time_trailer;	/* u64 index of TIME from the end, -1: none */
	size_t trailer;		/* sample_id trailer size, from event 0 */
	bool any_build_id;	/* some event's attr has build_id */
	struct intmap asked;	/* pids handed to opts.unknown_pid */
	struct session_bid *bids;	/* perf.data build-id table */
	size_t nr_bids, cap_bids;
	struct intmap bid_index;	/* hash of path -> first entry + 1 */
	u64 events_gen;
	struct session_counts counts;
	u64 first_time, last_time;
	bool kernel_samples;
	bool lost_summary;	/* a recorder's LOST_SAMPLES summary came
				 * (see session__lost_once) */
	bool in_unknown_pid;
	struct intmap cgroups;	/* CGROUP record id -> interned path */
	session_cgroup_fn cgroup_fn;
	void *cgroup_ctx;
	/* session__set_dso_fn, and the dsos it was called for (a bit per
	 * dso id) */
	session_dso_fn dso_fn;
	void *dso_ctx;
	u64 *dso_seen;
	size_t nr_dso_seen;
	struct session_unwinder unwinder;	/* queue NULL: none */
	/* --off-cpu: the sched_switch event whose samples say where each
	 * thread waits, and the event that gets the waits (-1: none) */
	struct offcpu *offcpu;
	long offcpu_src, offcpu_dst;
	u32 state_off, state_size;	/* prev_state in its raw data; size
					 * 0: unknown */
	/* --wall: on-CPU samples of wall_cpu (periods in ns) and every
	 * wait, preemptions too, in event wall_dst (-1: none) */
	long wall_cpu, wall_dst;
	u64 clock_now;		/* session__set_clock */
};

struct session *session__new(const struct session_opts *opts)
{
	struct session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (opts)
		s->opts = *opts;
	if (!s->opts.fold_threshold)
		s->opts.fold_threshold = 200000;
	pthread_mutex_init(&s->lock, NULL);
	s->offcpu_src = s->offcpu_dst = -1;
	s->wall_cpu = s->wall_dst = -1;
	intmap__init(&s->ids);
	intmap__init(&s->asked);
	intmap__init(&s->bid_index);
	intmap__init(&s->cgroups);
	s->strings = strpool__new();
	if (!s->strings)
		goto err;
	s->dsos = dsos__new(s->strings);
	s->machine = machine__new(s->strings);
	s->chains = callchains__new();
	if (!s->dsos || !s->machine || !s->chains)
		goto err;
	if (!s->opts.max_stack)
		s->opts.max_stack = 512;
	/* The idle task never gets a COMM record. */
	if (machine__comm(s->machine, 0, 0, "swapper", 7, false))
		goto err;
	return s;
err:
	session__free(s);
	errno = ENOMEM;
	return NULL;
}

void session__free(struct session *s)
{
	if (!s)
		return;
	offcpu__free(s->offcpu);
	for (size_t i = 0; i < s->nr_events; i++) {
		free(s->events[i].name);
		hist__free(s->events[i].hist);
		free(s->events[i].cpu);
	}
	free(s->events);
	intmap__fini(&s->ids);
	intmap__fini(&s->asked);
	for (size_t i = 0; i < s->nr_bids; i++)
		free(s->bids[i].path);
	free(s->bids);
	intmap__fini(&s->bid_index);
	intmap__fini(&s->cgroups);
	machine__free(s->machine);
	callchains__free(s->chains);
	free(s->memo);
	free(s->dso_seen);
	dsos__free(s->dsos);
	strpool__free(s->strings);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

void session__set_unknown_pid(struct session *s,
			      void (*fn)(struct session *s, s32 pid, void *ctx),
			      void *ctx)
{
	s->opts.unknown_pid = fn;
	s->opts.ctx = ctx;
}

void session__set_cgroup_reader(struct session *s, session_cgroup_fn fn,
				void *ctx)
{
	s->cgroup_fn = fn;
	s->cgroup_ctx = ctx;
}

void session__set_dso_fn(struct session *s, session_dso_fn fn, void *ctx)
{
	s->dso_fn = fn;
	s->dso_ctx = ctx;
}

/* dso_fn, the first time dso has a sample (not at all when its bit
 * cannot be kept: asked again would be asked on every sample). */
static void session__dso_sampled(struct session *s, const struct dso *dso)
{
	size_t w = dso->id / 64;
	u64 bit = 1ull << (dso->id % 64);

	if (w >= s->nr_dso_seen) {
		size_t n = MAX(w + 1, 2 * s->nr_dso_seen);
		u64 *seen = realloc(s->dso_seen, n * sizeof(*seen));

		if (!seen)
			return;
		memset(seen + s->nr_dso_seen, 0,
		       (n - s->nr_dso_seen) * sizeof(*seen));
		s->dso_seen = seen;
		s->nr_dso_seen = n;
	}
	if (s->dso_seen[w] & bit)
		return;
	s->dso_seen[w] |= bit;
	s->dso_fn(s->dso_ctx, dso);
}

void session__lock(struct session *s)
{
	pthread_mutex_lock(&s->lock);
}

void session__unlock(struct session *s)
{
	pthread_mutex_unlock(&s->lock);
}

static void session__layout(struct session *s)
{
	const struct perf_event_attr *a = &s->events[0].attr;

	/* perf's rule: all events of a session share one sample_id layout,
	 * so event 0 says where the id is in every record. */
	u64 st = a->sample_type;

	record__id_pos(st, &s->id_pos);
	s->trailer = record__id_trailer_size(st, a->sample_id_all);
	s->any_build_id = false;
	for (size_t i = 0; i < s->nr_events; i++)
		s->any_build_id |= s->events[i].attr.build_id;
	s->time_sample = s->time_trailer = -1;
	if (st & PERF_SAMPLE_TIME) {
		s->time_sample = !!(st & PERF_SAMPLE_IDENTIFIER) +
				 !!(st & PERF_SAMPLE_IP) +
				 !!(st & PERF_SAMPLE_TID);
		if (a->sample_id_all)
			s->time_trailer = 1 + !!(st & PERF_SAMPLE_ID) +
					  !!(st & PERF_SAMPLE_STREAM_ID) +
					  !!(st & PERF_SAMPLE_CPU) +
					  !!(st & PERF_SAMPLE_IDENTIFIER);
	}
}

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
static const struct session_bid *session__find_bid(const struct session *s,
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
static struct session_event *session__event_of(struct session *s,
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

static struct ev_counts *event__cpu(struct session_event *e, u32 cpu)
{
	if (cpu >= MAX_CPUS)
		return NULL;
	if (cpu >= e->nr_cpu) {
		size_t n = e->nr_cpu ? e->nr_cpu : 4;
		struct ev_counts *p;

		while (n <= cpu)
			n *= 2;
		p = realloc(e->cpu, n * sizeof(*p));
		if (!p)
			return NULL;
		memset(p + e->nr_cpu, 0, (n - e->nr_cpu) * sizeof(*p));
		e->cpu = p;
		e->nr_cpu = n;
	}
	return &e->cpu[cpu];
}

/* Adds to the event's total and, when the cpu is known, its cpu's. */
#define COUNT(e, cpu, field, n)                                            \
	do {                                                               \
		struct ev_counts *c_ = (cpu) >= 0 ? event__cpu((e), (u32)(cpu)) \
						  : NULL;                  \
		(e)->counts.field += (n);                                  \
		if (c_)                                                    \
			c_->field += (n);                                  \
	} while (0)

static bool session__has_cpu(const struct session_event *e)
{
	return e->attr.sample_type & PERF_SAMPLE_CPU;
}

/* Where a user address of pid lands: (dso, key-space address). */
static void session__resolve_user(struct session *s, s32 pid, u64 ip,
				  const struct dso **dso, u64 *addr)
{
	const struct map *map = machine__find_map(s->machine, pid, ip);

	if (!map) {
		*dso = dsos__unknown(s->dsos);
		*addr = ip;
	} else if (map->dso->kind == DSO_ANON) {
		*dso = map->dso;
		*addr = ip;
	} else {
		*dso = map->dso;
		*addr = ip - map->start + map->pgoff;
	}
}

static bool session__has_maps(struct session *s, s32 pid)
{
	size_t nr = 0;

	machine__maps(s->machine, pid, &nr);
	return nr > 0;
}

/*
 * Interns a sample's call chain, root first, and returns its leaf node.
 * The chain comes leaf first, with PERF_CONTEXT_* markers saying whether
 * the entries that follow are kernel or user addresses.  Every entry but
 * the first is a return address: minus one, it lies in the call.
 */
/* No code below this address or in the last page of the address space. */
#define CHAIN_MIN_CODE 4096

static u32 session__chain_walk(struct session *s, s32 pid, const u64 *chain,
			       u64 nr, u16 cpumode)
{
	struct {
		const struct dso *dso;
		u64 addr;
	} fr[512];
	size_t n = 0, max = MIN(s->opts.max_stack, ARRAY_SIZE(fr));
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL;
	u32 node = 0;

	for (u64 i = 0; i < nr && n < max; i++) {
		u64 ip = chain[i];

		if (ip >= (u64)PERF_CONTEXT_MAX) {
			if (ip == (u64)PERF_CONTEXT_KERNEL)
				kernel = true;
			else if (ip == (u64)PERF_CONTEXT_USER)
				kernel = false;
			else
				break;	/* guest or hypervisor chains */
			continue;
		}
		/* A return address that cannot be in code (page zero, the
		 * last page: 0x0, 0x1, -1) comes from a frame-pointer walk
		 * through code built without them: the entries beyond it
		 * were read through a stale frame pointer, so the chain ends
		 * here (perf shows them as [unknown] frames). */
		if (n > 0 && (ip < CHAIN_MIN_CODE || ip > -(u64)CHAIN_MIN_CODE))
			break;
		if (n > 0)
			ip--;
		if (kernel) {
			fr[n].dso = dsos__kernel(s->dsos);
			fr[n].addr = ip;
		} else {
			session__resolve_user(s, pid, ip, &fr[n].dso,
					      &fr[n].addr);
			/* so does a return address in none of the maps of
			 * a process whose maps are known: code returns
			 * into code (the walk through a program built
			 * without frame pointers, ptop's own, read stack
			 * data: 5,600 [unknown] frames in 20 s, a number
			 * that grew all along) */
			if (n > 0 && fr[n].dso->kind == DSO_UNKNOWN &&
			    session__has_maps(s, pid))
				break;
		}
		n++;
	}
	while (n > 0) {
		n--;
		node = callchains__intern(s->chains, node, fr[n].dso,
					  fr[n].addr);
		if (!node)
			return 0;
	}
	return node;
}

static u32 session__chain(struct session *s, s32 pid, const u64 *chain,
			  u64 nr, u16 cpumode)
{
	u64 h = hash_u64(nr ^ (u64)(u32)pid << 16 ^ (u64)cpumode << 48);
	u64 gen = machine__gen(s->machine);
	struct chain_memo *m;
	u32 leaf;

	if (nr > CHAIN_MEMO_WORDS)
		return session__chain_walk(s, pid, chain, nr, cpumode);
	if (!s->memo) {
		s->memo = calloc(CHAIN_MEMO, sizeof(*s->memo));
		if (!s->memo)
			return session__chain_walk(s, pid, chain, nr, cpumode);
	}
	for (u64 i = 0; i < nr; i++)
		h = (h ^ chain[i]) * 0x9e3779b97f4a7c15ULL;
	h ^= h >> 29;
	m = &s->memo[h & (CHAIN_MEMO - 1)];
	if (m->hash == h && m->gen == gen && m->epoch == s->chains_epoch &&
	    m->pid == pid && m->cpumode == cpumode && m->nr == nr && m->leaf &&
	    !memcmp(m->words, chain, nr * sizeof(*chain)))
		return m->leaf;
	leaf = session__chain_walk(s, pid, chain, nr, cpumode);
	/* the walk may have asked for a pid's maps: gen again */
	*m = (struct chain_memo){ .hash = h, .gen = machine__gen(s->machine),
				  .epoch = s->chains_epoch, .pid = pid,
				  .cpumode = cpumode, .nr = (u16)nr,
				  .leaf = leaf };
	memcpy(m->words, chain, nr * sizeof(*chain));
	return leaf;
}

/* Adds a sample to its event's histogram and counters. */
static int session__account(struct session_event *e, int cpu,
			    const struct hist_key *key, u64 period)
{
	struct ev_counts *c;

	if (hist__add(e->hist, key, period)) {
		COUNT(e, cpu, dropped, 1);
		return -ENOMEM;
	}
	c = cpu >= 0 ? event__cpu(e, (u32)cpu) : NULL;
	e->counts.samples++;
	e->counts.period += period;
	if (c) {
		c->samples++;
		c->period += period;
	}
	return 0;
}

/* A sample into its event, and into --wall's when its event is the
 * on-CPU time. */
static int session__add(struct session *s, struct session_event *e, int cpu,
			const struct hist_key *key, u64 period)
{
	if (s->wall_dst >= 0 && e - s->events == s->wall_cpu)
		session__account(&s->events[s->wall_dst], cpu, key, period);
	return session__account(e, cpu, key, period);
}

/* Hands a sample with a user stack to the unwinder: 0 when it took it. */
static int session__defer(struct session *s, struct session_event *e,
			  const struct perf_sample *smp,
			  const struct hist_key *key, int cpu)
{
	const struct perf_sample_ext *x = smp->ext;
	struct unwind_req req;
	u64 nk = 0;

	if (!s->unwinder.queue)
		return -ENOENT;
	/* the kernel's part of the chain; its user part, if any, is
	 * replaced by the unwound one */
	while (nk < smp->callchain_nr &&
	       smp->callchain[nk] != (u64)PERF_CONTEXT_USER)
		nk++;
	memset(&req, 0, sizeof(req));
	req.ev = (u32)(e - s->events);
	req.cpu = cpu;
	req.pid = smp->pid;
	req.tid = smp->tid;
	req.cpumode = smp->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	req.period = smp->period;
	req.key = *key;
	req.nr_kernel = nk;
	req.kernel = smp->callchain;
	req.abi = x->user_abi;
	req.regs_mask = e->attr.sample_regs_user;
	req.nr_regs = x->user_regs_nr;
	req.regs = x->user_regs;
	req.stack_size = x->stack_dyn_size;
	req.stack = x->stack_data;
	return s->unwinder.queue(s->unwinder.ctx, &req);
}

/* A sched_switch sample of --off-cpu: where thread smp->tid waits. */
static void session__offcpu_out(struct session *s,
				const struct perf_sample *smp,
				const struct hist_key *key, int cpu)
{
	const struct perf_sample_ext *x = smp->ext;
	u8 state = 0;

	/* the thread's state, where the tracepoint's format puts it */
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
	if (offcpu__out(s->offcpu, smp->tid, smp->time, key, cpu, state))
		s->events[s->offcpu_dst].counts.dropped++;
}

/* A chain's frames, leaf first (offcpu__keep_frames). */
static size_t session__chain_frames(void *ctx, u32 chain,
				    struct offcpu_frame *out, size_t max)
{
	struct session *s = ctx;
	size_t n = 0;

	for (u32 id = chain; id && n < max;) {
		const struct cc_node *c = callchains__node(s->chains, id);

		if (!c)
			break;
		out[n].dso = c->dso;
		out[n++].addr = c->addr;
		id = c->parent;
	}
	return n;
}

/* A wait charged to the off-CPU event: its chain interned again (chains
 * may have been reset since the switch-out), its period the time. */
static void session__offcpu_charge_one(void *ctx, const struct offcpu_wait *w)
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
static void session__id_init(struct perf_sample *id)
{
	memset(id, 0, offsetof(struct perf_sample, ext_storage));
	id->cpu = (u32)-1;
}

/* PERF_RECORD_SWITCH(_CPU_WIDE): a thread of --off-cpu goes out (a
 * preemption: not a wait) or comes back (its wait is charged). */
static int session__switch(struct session *s, const struct perf_event_header *h)
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

/* The cgroup of a sample: see session__set_cgroup_reader. */
static const char *session__sample_cgroup(struct session *s,
					  const struct session_event *e,
					  const struct perf_sample *smp)
{
	s32 pid = (s32)smp->pid;
	const char *c;
	char buf[4096];		/* a path is at most PATH_MAX */
	int n;

	if ((e->attr.sample_type & PERF_SAMPLE_CGROUP) && smp->ext) {
		c = (const char *)intmap__get(&s->cgroups, smp->ext->cgroup);
		if (c)
			return c;
	}
	if (s->cgroup_fn && (e->attr.sample_type & PERF_SAMPLE_TID) &&
	    machine__ask_cgroup(s->machine, pid)) {
		n = s->cgroup_fn(s->cgroup_ctx, pid, buf, sizeof(buf));
		/* gone already: its parent's, if it was forked */
		if (n > 0 && (size_t)n < sizeof(buf))
			machine__set_cgroup(s->machine, pid, buf, (size_t)n);
	}
	return machine__cgroup_of(s->machine, pid);
}

static int session__cgroup(struct session *s, const struct perf_event_header *h)
{
	struct rec_cgroup c;
	const char *path;

	if (record__parse_cgroup(h, s->trailer, &c))
		return -EINVAL;
	path = strpool__intern(s->strings, c.path, c.path_len);
	if (!path || intmap__put(&s->cgroups, c.id, (void *)(uintptr_t)path))
		return -ENOMEM;
	return 0;
}

static int session__sample(struct session *s, const struct perf_event_header *h)
{
	struct session_event *e = session__event_of(s, h);
	unsigned int kf = s->opts.key_fields;
	struct perf_sample smp;
	struct hist_key key;
	int cpu;

	if (!e) {
		s->counts.unknown_id++;
		return -ENOENT;
	}
	if (record__parse_sample(&e->attr, h, &smp)) {
		e->counts.dropped++;
		s->counts.bad_records++;
		return -EINVAL;
	}
	cpu = session__has_cpu(e) ? (int)smp.cpu : -1;
	if (s->opts.time_end && (smp.time < s->opts.time_start ||
				 smp.time >= s->opts.time_end)) {
		COUNT(e, cpu, filtered, 1);
		return 0;
	}
	memset(&key, 0, sizeof(key));
	switch (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
		key.dso = dsos__kernel(s->dsos);
		key.addr = smp.ip;
		s->kernel_samples = true;
		/* its comm (and its maps, for the chain's user part) */
		if (smp.pid && s->opts.unknown_pid && !s->in_unknown_pid &&
		    !intmap__get(&s->asked, smp.pid) &&
		    !machine__knows(s->machine, (s32)smp.pid)) {
			intmap__put(&s->asked, smp.pid, (void *)1);
			s->in_unknown_pid = true;
			s->opts.unknown_pid(s, (s32)smp.pid, s->opts.ctx);
			s->in_unknown_pid = false;
		}
		break;
	case PERF_RECORD_MISC_USER:
		session__resolve_user(s, (s32)smp.pid, smp.ip, &key.dso,
				      &key.addr);
		/* A pid never heard of: let the source read it from /proc
		 * once, then look again. */
		if (key.dso->kind == DSO_UNKNOWN && s->opts.unknown_pid &&
		    !s->in_unknown_pid && !intmap__get(&s->asked, smp.pid) &&
		    !machine__knows(s->machine, (s32)smp.pid)) {
			intmap__put(&s->asked, smp.pid, (void *)1);
			s->in_unknown_pid = true;
			s->opts.unknown_pid(s, (s32)smp.pid, s->opts.ctx);
			s->in_unknown_pid = false;
			session__resolve_user(s, (s32)smp.pid, smp.ip,
					      &key.dso, &key.addr);
		}
		break;
	case PERF_RECORD_MISC_HYPERVISOR:
	case PERF_RECORD_MISC_GUEST_KERNEL:
	case PERF_RECORD_MISC_GUEST_USER:
		key.dso = dsos__hypervisor(s->dsos);
		key.addr = smp.ip;
		break;
	default:
		key.dso = dsos__unknown(s->dsos);
		key.addr = smp.ip;
		break;
	}
	if (s->dso_fn && key.dso->kind == DSO_FILE)
		session__dso_sampled(s, key.dso);
	if (kf & KEY_PID)
		key.pid = (s32)smp.pid;
	if (kf & KEY_TID)
		key.tid = (s32)smp.tid;
	if (kf & KEY_COMM)
		key.comm = machine__comm_of(s->machine, (s32)smp.pid,
					    (s32)smp.tid);
	if (kf & KEY_CPU)
		key.cpu = (s16)(cpu < MAX_CPUS ? cpu : -1);
	if (kf & KEY_CGROUP)
		key.cgroup = session__sample_cgroup(s, e, &smp);
	/* pid 0 is the idle task of every CPU (swapper); without
	 * PERF_SAMPLE_TID every pid reads 0 and nothing is idle */
	key.idle = (e->attr.sample_type & PERF_SAMPLE_TID) && smp.pid == 0;
	if (smp.time) {
		if (!s->first_time || smp.time < s->first_time)
			s->first_time = smp.time;
		if (smp.time > s->last_time)
			s->last_time = smp.time;
	}
	if (smp.ext && smp.ext->user_abi && smp.ext->stack_dyn_size &&
	    smp.ext->user_regs_nr) {
		if (session__defer(s, e, &smp, &key, cpu) == 0)
			return 0;
		COUNT(e, cpu, unwind_failed, 1);
	} else if (e->attr.sample_type & PERF_SAMPLE_STACK_USER) {
		COUNT(e, cpu, unwind_no_stack, 1);
	}
	if (smp.callchain_nr)
		key.chain = session__chain(s, (s32)smp.pid, smp.callchain,
					   smp.callchain_nr,
					   h->misc & PERF_RECORD_MISC_CPUMODE_MASK);
	if (s->offcpu && e - s->events == s->offcpu_src && smp.pid)
		session__offcpu_out(s, &smp, &key, cpu);
	return session__add(s, e, cpu, &key, smp.period);
}

void session__set_unwinder(struct session *s,
			   const struct session_unwinder *u)
{
	if (u)
		s->unwinder = *u;
	else
		memset(&s->unwinder, 0, sizeof(s->unwinder));
}

void session__flush(struct session *s)
{
	struct session_unwinder u;

	session__lock(s);
	u = s->unwinder;
	session__unlock(s);
	if (u.queue && u.flush)
		u.flush(u.ctx);
}

/* The deferred half of session__sample. */
int session__add_unwound(struct session *s, const struct unwind_req *req,
			 const u64 *pcs, size_t nr)
{
	/* the kernel part, then the user part behind its marker, as the
	 * kernel would have written a frame-pointer chain */
	u64 chain[2 * 512 + 2];
	struct session_event *e;
	struct hist_key key;
	size_t n = 0;

	if (req->ev >= s->nr_events)
		return -EINVAL;
	e = &s->events[req->ev];
	key = req->key;
	for (u64 i = 0; i < req->nr_kernel && n < 512 + 1; i++)
		chain[n++] = req->kernel[i];
	if (nr) {
		chain[n++] = (u64)PERF_CONTEXT_USER;
		for (size_t i = 0; i < nr && i < 512; i++)
			chain[n++] = pcs[i];
	}
	if (n)
		key.chain = session__chain(s, (s32)req->pid, chain, n,
					   req->cpumode);
	return session__add(s, e, req->cpu, &key, req->period);
}

static struct dso *session__dso(struct session *s, const struct rec_mmap *m)
{
	struct dso_id id = {
		.kind = DSO_FILE,
		.path = m->filename,
		.path_len = m->filename_len,
		.pid = (s32)m->pid,
		.map_start = m->start,
		.map_end = m->start + m->len,
	};
	const struct session_bid *b;

	if (strcmp(m->filename, "[vdso]") == 0) {
		id.kind = DSO_VDSO;
	} else if (dso__path_is_anon(m->filename) ||
		   m->filename[0] != '/') {
		/* "//anon", "[heap]", "[anon:x]", "[uprobes]" ... */
		id.kind = DSO_ANON;
		/* one "[JIT] tid PID" per process, as in perf */
		if (dso__path_is_jit(m->filename)) {
			id.path = "//anon";
			id.path_len = 6;
		}
	} else if (m->has_build_id && m->build_id_size) {
		id.build_id = m->build_id;
		id.build_id_size = m->build_id_size;
	} else if ((b = session__find_bid(s, (s32)m->pid, m->filename,
					  m->filename_len))) {
		id.build_id = b->bid;
		id.build_id_size = b->size;
	} else {
		id.maj = m->maj;
		id.min = m->min;
		id.ino = m->ino;
		id.ino_gen = m->ino_gen;
	}
	return dsos__findnew(s->dsos, &id);
}

static int session__mmap(struct session *s, const struct perf_event_header *h)
{
	struct rec_mmap m;
	struct dso *dso;

	if (record__parse_mmap(h, s->trailer, session__attr_build_id(s, h),
			       &m))
		return -EINVAL;
	if (m.leaked_build_id)
		s->counts.leaked_build_id++;
	/* Data mappings and the kernel's own maps (perf files describe the
	 * kernel with MMAP records of pid -1; kernel samples are resolved
	 * through kallsyms instead) do not go into process maps. */
	if (!m.exec || m.pid == (u32)-1 ||
	    (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
		    PERF_RECORD_MISC_KERNEL)
		return 0;
	dso = session__dso(s, &m);
	if (!dso)
		return -ENOMEM;
	return machine__mmap(s->machine, (s32)m.pid, m.start, m.len, m.pgoff,
			     dso);
}

static int session__lost(struct session *s, const struct perf_event_header *h)
{
	struct session_event *e = session__event_of(s, h);
	struct perf_sample id;
	struct rec_lost l;
	int cpu = -1;

	if (record__parse_lost(h, &l))
		return -EINVAL;
	if (!e)
		e = &s->events[0];
	session__id_init(&id);
	if (e->attr.sample_id_all && session__has_cpu(e) &&
	    record__parse_id_trailer(&e->attr, h, &id) == 0)
		cpu = (int)id.cpu;
	/* --off-cpu: a lost switch in would leave its thread charged as
	 * waiting while it runs */
	if (s->offcpu && l.lost)
		offcpu__forget_all(s->offcpu);
	if (h->type == PERF_RECORD_LOST) {
		COUNT(e, cpu, lost, l.lost);
	} else {
		COUNT(e, cpu, lost_samples, l.lost);
		if (e->attr.read_format & PERF_FORMAT_LOST)
			s->lost_summary = true;
	}
	return 0;
}

/*
 * The samples event e lost, each loss counted once.  The kernel reports
 * a full ring with PERF_RECORD_LOST (records lost since the last one that
 * fit) and lost hardware samples (PEBS) with PERF_RECORD_LOST_SAMPLES:
 * different losses, so live they add up.  perf record (6.0 and later)
 * also reads each counter's lost count (read_format PERF_FORMAT_LOST,
 * which counts the same full-ring losses) when it stops and writes it as
 * one LOST_SAMPLES record per counter: the same losses told twice, and
 * the counters' figure is the complete one (a LOST record is only sent
 * once a later record fits), which is what perf report's "Total Lost
 * Samples" sums.  A file or stream that holds such a summary is counted
 * by it alone; until it comes (a stream, a recorder killed before its
 * end), by the LOST records.
 */
static u64 session__lost_once(const struct session *s,
			      const struct session_event *e)
{
	if (s->lost_summary && (e->attr.read_format & PERF_FORMAT_LOST))
		return e->counts.lost_samples;
	return e->counts.lost + e->counts.lost_samples;
}

static int session__throttle(struct session *s,
			     const struct perf_event_header *h)
{
	struct session_event *e = session__event_of(s, h);
	struct perf_sample id;
	struct rec_throttle t;
	int cpu = -1;

	if (record__parse_throttle(h, &t))
		return -EINVAL;
	if (!e)
		e = &s->events[0];
	session__id_init(&id);
	if (e->attr.sample_id_all && session__has_cpu(e) &&
	    record__parse_id_trailer(&e->attr, h, &id) == 0)
		cpu = (int)id.cpu;
	if (h->type == PERF_RECORD_THROTTLE)
		COUNT(e, cpu, throttle, 1);
	else
		COUNT(e, cpu, unthrottle, 1);
	return 0;
}

static int session__dispatch(struct session *s,
			     const struct perf_event_header *h)
{
	struct rec_comm c;
	struct rec_fork f;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		return session__sample(s, h);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return session__mmap(s, h);
	case PERF_RECORD_COMM:
		if (record__parse_comm(h, s->trailer, &c))
			return -EINVAL;
		return machine__comm(s->machine, (s32)c.pid, (s32)c.tid, c.comm,
				     c.comm_len, c.exec);
	case PERF_RECORD_FORK:
		if (record__parse_fork(h, &f))
			return -EINVAL;
		return machine__fork(s->machine, (s32)f.pid, (s32)f.ppid,
				     (s32)f.tid, (s32)f.ptid);
	case PERF_RECORD_EXIT:
		if (record__parse_fork(h, &f))
			return -EINVAL;
		if (s->offcpu)
			offcpu__exit(s->offcpu, f.tid);
		return machine__exit(s->machine, (s32)f.pid, (s32)f.tid);
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		return session__lost(s, h);
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		return session__throttle(s, h);
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return session__switch(s, h);
	case PERF_RECORD_CGROUP:
		return session__cgroup(s, h);
	default:
		s->counts.unknown_type++;
		return 0;
	}
}

int session__process(struct session *s, const struct perf_event_header *h)
{
	int err;

	if (h->size < sizeof(*h)) {
		s->counts.bad_records++;
		return -EINVAL;
	}
	s->counts.records++;
	if (h->type < PERF_RECORD_MAX)
		s->counts.by_type[h->type]++;
	if (!s->nr_events) {
		s->counts.unknown_id++;
		return -ENOENT;
	}
	err = session__dispatch(s, h);
	if (err == -EINVAL && h->type != PERF_RECORD_SAMPLE)
		s->counts.bad_records++;
	return err;
}

const struct session_counts *session__counts(const struct session *s)
{
	return &s->counts;
}

void session__ring_dropped(struct session *s, u64 records, u64 bytes)
{
	s->counts.ring_dropped += records;
	s->counts.ring_dropped_bytes += bytes;
}

/* Folds the entries of processes that were reaped: pid/tid become -1,
 * the comm stays, so a command's share survives its processes. */
static bool fold_reaped(struct hist_key *k, void *ctx)
{
	struct session *s = ctx;
	bool changed = false;
	u64 start;

	if (k->pid > 0 && !machine__knows(s->machine, k->pid)) {
		k->pid = -1;
		k->tid = k->tid ? -1 : 0;
		if (s->fold_comm && k->comm)
			k->comm = s->fold_comm;
		changed = true;
	}
	/* and, with session__fold_addrs, their addresses */
	if (k->pid == -1 && s->func_fn && !k->whole && !k->chain &&
	    (k->dso->kind == DSO_FILE || k->dso->kind == DSO_VDSO ||
	     k->dso->kind == DSO_KERNEL) &&
	    s->func_fn(s->func_ctx, k->dso, k->addr, &start)) {
		k->addr = start;
		k->whole = 1;
		changed = true;
	}
	return changed;
}

void session__fold_reaped(struct session *s, bool always, bool comm_too)
{
	s->fold_always = always;
	s->fold_comm = always && comm_too ?
		       strpool__intern(s->strings, "[exited]", 8) : NULL;
}

void session__fold_addrs(struct session *s, session_func_fn fn, void *ctx)
{
	s->func_fn = fn;
	s->func_ctx = ctx;
}

void session__refresh(struct session *s, enum hist_mode mode)
{
	for (size_t i = 0; i < s->nr_events; i++) {
		struct hist *h = s->events[i].hist;

		if (mode == HIST_ZERO)
			hist__zero(h);
		else if (mode == HIST_DECAY)
			hist__decay(h);
	}
	/* Nothing refers to the chains any more (snapshots hold copies;
	 * --off-cpu's waiting threads keep their frames) */
	if (mode == HIST_ZERO && callchains__nr(s->chains) > 1 &&
	    (!s->offcpu ||
	     !offcpu__keep_frames(s->offcpu, session__chain_frames, s))) {
		callchains__reset(s->chains);
		s->chains_epoch++;
	}
	machine__tick(s->machine);
	/* Two ticks: samples taken before an exit may still sit in another
	 * CPU's ring for one more read. */
	if (machine__reap(s->machine, 2) == 0)
		return;
	for (size_t i = 0; i < s->nr_events; i++) {
		struct hist *h = s->events[i].hist;

		if ((s->opts.key_fields & KEY_PID) &&
		    (s->fold_always ||
		     hist__nr_entries(h) > s->opts.fold_threshold))
			hist__rekey(h, fold_reaped, s);
	}
}

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
static int snapshot__put_idle_last(struct snapshot *snap)
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
	struct session_event *e;
	long n;

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
	n = hist__copy(e->hist, &snap->entries, &snap->cap);
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

struct machine *session__machine(struct session *s)
{
	return s->machine;
}

struct dsos *session__dsos(struct session *s)
{
	return s->dsos;
}

struct strpool *session__strings(struct session *s)
{
	return s->strings;
}
