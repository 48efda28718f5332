/* session: the one model every source feeds and every front end reads:
 * records processed (samples, maps, losses), the histograms and their
 * folding.  The event table is session_events.c's, the off-CPU and wall
 * events' glue session_offcpu.c's, snapshots snapshot.c's;
 * session_internal.h holds the state they share. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/record.h"
#include "src/core/offcpu.h"
#include "src/core/session.h"
#include "src/core/session_internal.h"

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
	free(s->fix_chain);
	free(s->out_buf);
	free(s);
}

void session__set_source_ops(struct session *s,
			     const struct session_source_ops *ops, void *ctx)
{
	if (ops)
		s->src = *ops;
	else
		memset(&s->src, 0, sizeof(s->src));
	s->src_ctx = ctx;
}

/* src.dso_sampled, the first time dso has a sample (not at all when its
 * bit cannot be kept: asked again would be asked on every sample). */
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
	s->src.dso_sampled(s->src_ctx, dso);
}

void session__lock(struct session *s)
{
	pthread_mutex_lock(&s->lock);
}

void session__unlock(struct session *s)
{
	pthread_mutex_unlock(&s->lock);
}

void session__layout(struct session *s)
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


struct ev_counts *session_event__cpu(struct session_event *e, u32 cpu)
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
 * the entries that follow are kernel or user addresses.  The first entry
 * of each context is where it was stopped (a kernel sample's user part
 * begins at the interrupted instruction, which may be a function's
 * first); every other entry is a return address: minus one, it lies in
 * the call.
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
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL, first = true;
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
			first = true;
			continue;
		}
		/* A return address that cannot be in code (page zero, the
		 * last page: 0x0, 0x1, -1) comes from a frame-pointer walk
		 * through code built without them: the entries beyond it
		 * were read through a stale frame pointer, so the chain ends
		 * here (perf shows them as [unknown] frames). */
		if (n > 0 && (ip < CHAIN_MIN_CODE || ip > -(u64)CHAIN_MIN_CODE))
			break;
		if (!first)
			ip--;
		first = false;
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
int session__account(struct session_event *e, int cpu,
		     const struct hist_key *key, u64 period)
{
	struct ev_counts *c;

	if (hist__add(e->hist, key, period)) {
		COUNT(e, cpu, dropped, 1);
		return -ENOMEM;
	}
	c = cpu >= 0 ? session_event__cpu(e, (u32)cpu) : NULL;
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
	req.time = smp->time;
	if (s->offcpu && req.ev == s->offcpu_src)
		req.state = session__switch_state(s, smp);
	return s->unwinder.queue(s->unwinder.ctx, &req);
}


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
	if (s->src.cgroup && (e->attr.sample_type & PERF_SAMPLE_TID) &&
	    machine__ask_cgroup(s->machine, pid)) {
		n = s->src.cgroup(s->src_ctx, pid, buf, sizeof(buf));
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

/* --time: whether a sample of time t is outside the window; keeps the
 * range of every sample (the header and an empty window's message say
 * it). */
static bool session__time_cut(struct session *s, u64 t)
{
	u64 base = 0;

	if (t) {
		if (!s->all_first || t < s->all_first)
			s->all_first = t;
		if (t > s->all_last)
			s->all_last = t;
		/* the first sample handed on, in time order (the reader's
		 * queue): perf's first sample time */
		if (!s->rel_base)
			s->rel_base = t;
	}
	if (s->opts.time_relative) {
		if (!s->rel_base)
			return true;
		base = s->rel_base;
	}
	return t < base + s->opts.time_start ||
	       (s->opts.time_end != UINT64_MAX &&
		t >= base + s->opts.time_end);
}

static int session__sample(struct session *s, const struct perf_event_header *h)
{
	struct session_event *e = session__event_of(s, h);
	unsigned int kf = s->opts.key_fields;
	struct perf_sample smp;
	struct hist_key key;
	const u64 *chain;
	bool fixes;
	u64 nr;
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
	fixes = record__attr_fixes(&e->attr);
	cpu = session__has_cpu(e) ? (int)smp.cpu : -1;
	if (s->opts.time_end && session__time_cut(s, smp.time)) {
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
		if (smp.pid && s->src.unknown_pid && !s->in_unknown_pid &&
		    !intmap__get(&s->asked, smp.pid) &&
		    !machine__knows(s->machine, (s32)smp.pid)) {
			intmap__put(&s->asked, smp.pid, (void *)1);
			s->in_unknown_pid = true;
			s->src.unknown_pid(s->src_ctx, s, (s32)smp.pid);
			s->in_unknown_pid = false;
		}
		break;
	case PERF_RECORD_MISC_USER:
		session__resolve_user(s, (s32)smp.pid, smp.ip, &key.dso,
				      &key.addr);
		/* A pid never heard of: let the source read it from /proc
		 * once, then look again. */
		if (key.dso->kind == DSO_UNKNOWN && s->src.unknown_pid &&
		    !s->in_unknown_pid && !intmap__get(&s->asked, smp.pid) &&
		    !machine__knows(s->machine, (s32)smp.pid)) {
			intmap__put(&s->asked, smp.pid, (void *)1);
			s->in_unknown_pid = true;
			s->src.unknown_pid(s->src_ctx, s, (s32)smp.pid);
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
	if (s->src.dso_sampled &&
	    (key.dso->kind == DSO_FILE || key.dso->kind == DSO_KERNEL))
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
	chain = smp.callchain;
	nr = smp.callchain_nr;
	if (fixes) {
		chain = session__fix(s, e, &smp, cpu, &nr);
	} else if (smp.ext && smp.ext->user_abi && smp.ext->stack_dyn_size &&
		   smp.ext->user_regs_nr) {
		if (session__defer(s, e, &smp, &key, cpu) == 0)
			return 0;
		COUNT(e, cpu, unwind_failed, 1);
	} else if (e->attr.sample_type & PERF_SAMPLE_STACK_USER) {
		COUNT(e, cpu, unwind_no_stack, 1);
	}
	if (fixes && s->write_fixed)
		session__rewrite(s, e, h, chain, nr);
	if (nr)
		key.chain = session__chain(s, (s32)smp.pid, chain, nr,
					   h->misc & PERF_RECORD_MISC_CPUMODE_MASK);
	if (s->offcpu && e - s->events == s->offcpu_src && smp.pid)
		session__offcpu_out(s, smp.tid, smp.time, &key, cpu,
				    session__switch_state(s, &smp));
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
	/* --off-cpu --call-graph dwarf: the wait begins with this chain
	 * (a live unwinder of switch-outs runs in sync mode, so that the
	 * thread's return comes after it: main.c) */
	if (s->offcpu && (long)req->ev == s->offcpu_src && req->pid)
		session__offcpu_out(s, req->tid, req->time, &key, req->cpu,
				    req->state);
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
u64 session__lost_once(const struct session *s,
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

	s->out_for = NULL;
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

/* k's address becomes its function's start (hist_key.whole) when fn
 * knows it, in a binary, the vdso or the kernel: true if it did. */
static bool fold_to_function(struct hist_key *k, session_func_fn fn,
			     void *ctx)
{
	u64 start;

	if (k->whole || !fn ||
	    (k->dso->kind != DSO_FILE && k->dso->kind != DSO_VDSO &&
	     k->dso->kind != DSO_KERNEL) ||
	    !fn(ctx, k->dso, k->addr, &start))
		return false;
	k->addr = start;
	k->whole = 1;
	return true;
}

/* Folds the entries of processes that were reaped: pid/tid become -1,
 * the comm stays, so a command's share survives its processes. */
static bool fold_reaped(struct hist_key *k, void *ctx)
{
	struct session *s = ctx;
	bool changed = false;

	if (k->pid > 0 && !machine__knows(s->machine, k->pid)) {
		k->pid = -1;
		k->tid = k->tid ? -1 : 0;
		if (s->fold_comm && k->comm)
			k->comm = s->fold_comm;
		changed = true;
	}
	/* and, with session__fold_addrs, their addresses */
	if (k->pid == -1 && !k->chain &&
	    fold_to_function(k, s->func_fn, s->func_ctx))
		changed = true;
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

/* Whether session__refresh folds event ev's reaped entries now. */
static bool session__folds(const struct session *s, size_t ev)
{
	return (s->opts.key_fields & KEY_PID) &&
	       (s->fold_always ||
		hist__nr_entries(s->events[ev].hist) > s->opts.fold_threshold);
}

bool session__fold_key(struct session *s, size_t ev, struct hist_key *k)
{
	return ev < s->nr_events && session__folds(s, ev) &&
	       fold_reaped(k, s);
}

int session__take(struct session *s, size_t ev, hist_take_fn fn, void *ctx)
{
	if (ev >= s->nr_events)
		return -EINVAL;
	return hist__take(s->events[ev].hist, fn, ctx);
}

u64 session__hist_layout(const struct session *s, size_t ev)
{
	return ev < s->nr_events ? hist__layout(s->events[ev].hist) : 0;
}

const struct cc_node *session__chains(const struct session *s, size_t *nr)
{
	return callchains__nodes(s->chains, nr);
}

u64 session__chains_epoch(const struct session *s)
{
	return s->chains_epoch;
}

u64 session__reap_gen(const struct session *s)
{
	return s->reap_gen;
}

void session__set_budget(struct session *s, size_t bytes, session_func_fn fn,
			 void *ctx)
{
	s->budget = bytes;
	s->budget_fn = fn;
	s->budget_ctx = ctx;
}

/* A cold entry's fold: its chain goes and, when the function is known,
 * its address. */
static bool fold_cold(struct hist_key *k, void *ctx)
{
	struct session *s = ctx;
	bool changed = false;

	if (k->chain) {
		k->chain = 0;
		changed = true;
	}
	if (fold_to_function(k, s->budget_fn, s->budget_ctx))
		changed = true;
	s->counts.budget_entries += changed;
	return changed;
}

static bool remap_chain(struct hist_key *k, void *ctx)
{
	const u32 *map = ctx;

	if (!k->chain || map[k->chain] == k->chain)
		return false;
	k->chain = map[k->chain];
	return true;
}

/* fn for every entry of every event. */
static void session__each_entry(const struct session *s,
				void (*fn)(const struct hist_entry *e,
					   void *ctx),
				void *ctx)
{
	for (size_t i = 0; i < s->nr_events; i++) {
		const struct hist *h = s->events[i].hist;
		size_t nr = hist__nr_entries(h);

		for (size_t j = 0; j < nr; j++)
			fn(hist__entry(h, j), ctx);
	}
}

struct chain_marks {
	u32 *map;
	size_t n;
};

static void mark_chain(const struct hist_entry *e, void *ctx)
{
	struct chain_marks *m = ctx;

	if (e->key.chain && e->key.chain < m->n)
		m->map[e->key.chain] = 1;
}

static void max_samples(const struct hist_entry *e, void *ctx)
{
	u64 *top = ctx;

	*top = MAX(*top, e->samples);
}

/* Drops the chain nodes no entry names (none when memory is short: the
 * next fold tries again). */
static void session__retain_chains(struct session *s)
{
	size_t n = callchains__nr(s->chains), kept;
	struct chain_marks m = { .n = n };
	u32 *map;

	if (n <= 1)
		return;
	map = m.map = calloc(n, sizeof(*map));
	if (!map)
		return;
	session__each_entry(s, mark_chain, &m);
	if (callchains__retain(s->chains, map) == 0 &&
	    (kept = callchains__nr(s->chains)) < n) {
		for (size_t i = 0; i < s->nr_events; i++)
			hist__rekey(s->events[i].hist, remap_chain, map);
		/* the ids changed: the memo's leaves and the timeline's map
		 * of them go */
		s->chains_epoch++;
		s->counts.budget_nodes += n - kept;
	}
	free(map);
}

/* Past the budget, the cold entries fold (session__set_budget). */
static void session__budget_fold(struct session *s)
{
	u64 top = 0;

	if (!s->budget || session__bytes(s) <= s->budget)
		return;
	session__each_entry(s, max_samples, &top);
	for (u64 max = 1;; max *= 2) {
		for (size_t i = 0; i < s->nr_events; i++)
			hist__rekey_cold(s->events[i].hist, max, fold_cold, s);
		session__retain_chains(s);
		for (size_t i = 0; i < s->nr_events; i++)
			hist__shrink(s->events[i].hist);
		if (session__bytes(s) <= s->budget / 2 || max >= top)
			break;
	}
	s->counts.budget_folds++;
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
	if (machine__reap(s->machine, 2) > 0) {
		s->reap_gen++;
		for (size_t i = 0; i < s->nr_events; i++) {
			struct hist *h = s->events[i].hist;

			if (session__folds(s, i))
				hist__rekey(h, fold_reaped, s);
		}
	}
	session__budget_fold(s);
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
