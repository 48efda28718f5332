/* machine: processes, threads and their executable maps (pure). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/machine.h"

struct proc {
	s32 pid;
	const char *comm;
	struct map *maps;
	size_t nr_maps, cap_maps;
	/* The maps of the program before the last exec: samples of the
	 * execve syscall come after its COMM record and hold a user ip in
	 * the old program (its libc's execve).  Asked only where no map of
	 * the new program covers the ip, as perf, which keeps the old maps
	 * under the new ones, finds them. */
	struct map *old_maps;
	size_t nr_old_maps;
	bool exited;
	unsigned int exit_tick;
	const char *cgroup;	/* interned path, NULL: not known */
	bool cgroup_asked;	/* machine__ask_cgroup said so once */
};

struct thread {
	s32 tid, pid;
	const char *comm;
	bool exited;
	unsigned int exit_tick;
};

struct machine {
	struct strpool *pool;
	struct intmap procs;	/* pid -> struct proc */
	struct intmap threads;	/* tid -> struct thread */
	unsigned int tick;
	u64 gen;		/* machine__gen */
	/* one-entry cache for the sample path: most samples in a row come
	 * from the same process */
	struct proc *last;
};

struct machine *machine__new(struct strpool *pool)
{
	struct machine *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->pool = pool;
	intmap__init(&m->procs);
	intmap__init(&m->threads);
	return m;
}

static void proc__free(struct proc *p)
{
	if (!p)
		return;
	free(p->maps);
	free(p->old_maps);
	free(p);
}

void machine__free(struct machine *m)
{
	size_t i = 0;
	u64 k;
	void *v;

	if (!m)
		return;
	while (intmap__next(&m->procs, &i, &k, &v))
		proc__free(v);
	i = 0;
	while (intmap__next(&m->threads, &i, &k, &v))
		free(v);
	intmap__fini(&m->procs);
	intmap__fini(&m->threads);
	free(m);
}

static struct proc *machine__proc(struct machine *m, s32 pid)
{
	if (m->last && m->last->pid == pid)
		return m->last;
	m->last = intmap__get(&m->procs, (u64)(u32)pid);
	return m->last;
}

static struct proc *machine__new_proc(struct machine *m, s32 pid)
{
	struct proc *p = calloc(1, sizeof(*p)), *old;

	if (!p)
		return NULL;
	p->pid = pid;
	old = intmap__get(&m->procs, (u64)(u32)pid);
	if (intmap__put(&m->procs, (u64)(u32)pid, p)) {
		free(p);
		return NULL;
	}
	/* A reused pid: the old process is gone for good. */
	proc__free(old);
	m->last = p;
	return p;
}

static struct proc *machine__findnew_proc(struct machine *m, s32 pid)
{
	struct proc *p = machine__proc(m, pid);

	return p ? p : machine__new_proc(m, pid);
}

static struct thread *machine__findnew_thread(struct machine *m, s32 pid,
					      s32 tid)
{
	struct thread *t = intmap__get(&m->threads, (u64)(u32)tid);

	if (t) {
		if (t->pid != pid || t->exited) {
			/* tid reused by another process or thread */
			t->pid = pid;
			t->comm = NULL;
			t->exited = false;
		}
		return t;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = tid;
	t->pid = pid;
	if (intmap__put(&m->threads, (u64)(u32)tid, t)) {
		free(t);
		return NULL;
	}
	return t;
}

int machine__comm(struct machine *m, s32 pid, s32 tid, const char *comm,
		  size_t len, bool exec)
{
	const char *s = strpool__intern(m->pool, comm, len);
	struct thread *t;
	struct proc *p;

	if (!s)
		return -ENOMEM;
	p = machine__findnew_proc(m, pid);
	t = machine__findnew_thread(m, pid, tid);
	if (!p || !t)
		return -ENOMEM;
	if (exec) {
		/* A new program: its maps come next, in MMAP records; the
		 * old ones stay behind them for the rest of the execve. */
		m->gen++;
		free(p->old_maps);
		p->old_maps = p->maps;
		p->nr_old_maps = p->nr_maps;
		p->maps = NULL;
		p->nr_maps = p->cap_maps = 0;
		p->exited = false;
		/* a runtime moves its child into the container's cgroup
		 * between fork and exec: read it again */
		p->cgroup_asked = false;
	}
	t->comm = s;
	if (tid == pid || exec || !p->comm)
		p->comm = s;
	return 0;
}

int machine__fork(struct machine *m, s32 pid, s32 ppid, s32 tid, s32 ptid)
{
	struct thread *parent = intmap__get(&m->threads, (u64)(u32)ptid);
	struct proc *pp = machine__proc(m, ppid), *p;
	const char *comm = parent && parent->comm ? parent->comm :
					  pp ? pp->comm : NULL;
	struct thread *t;

	m->gen++;
	if (pid != ppid) {
		/* fork(): a copy of the parent's address space */
		p = machine__new_proc(m, pid);
		if (!p)
			return -ENOMEM;
		pp = machine__proc(m, ppid);
		if (pp && pp->nr_maps) {
			p->maps = malloc(pp->nr_maps * sizeof(*p->maps));
			if (!p->maps)
				return -ENOMEM;
			memcpy(p->maps, pp->maps, pp->nr_maps * sizeof(*p->maps));
			p->nr_maps = p->cap_maps = pp->nr_maps;
		}
		p->comm = comm;
		/* a child starts in its parent's cgroup (until it is read:
		 * it may have been moved) */
		if (pp)
			p->cgroup = pp->cgroup;
		m->last = p;
	} else if (!machine__findnew_proc(m, pid)) {
		return -ENOMEM;
	}
	t = machine__findnew_thread(m, pid, tid);
	if (!t)
		return -ENOMEM;
	t->comm = comm;
	return 0;
}

int machine__exit(struct machine *m, s32 pid, s32 tid)
{
	struct thread *t = intmap__get(&m->threads, (u64)(u32)tid);
	struct proc *p = machine__proc(m, pid);

	if (t && t->pid == pid) {
		t->exited = true;
		t->exit_tick = m->tick;
	}
	if (p && tid == pid) {
		p->exited = true;
		p->exit_tick = m->tick;
	}
	return 0;
}

int machine__mmap(struct machine *m, s32 pid, u64 start, u64 len, u64 pgoff,
		  struct dso *dso)
{
	struct proc *p = machine__findnew_proc(m, pid);
	u64 end = start + len;
	size_t i, o = 0, at;
	struct map *out;

	m->gen++;
	if (!p)
		return -ENOMEM;
	if (!len || end < start)
		return -EINVAL;
	/* Worst case: one map split in two, plus the new one. */
	out = malloc((p->nr_maps + 2) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	/* 1. Keep what the new map does not cover, in order. */
	for (i = 0; i < p->nr_maps; i++) {
		struct map mp = p->maps[i];

		if (mp.end <= start || mp.start >= end) {
			out[o++] = mp;
			continue;
		}
		if (mp.start < start) {
			out[o] = mp;
			out[o++].end = start;
		}
		if (mp.end > end) {
			out[o] = mp;
			out[o].pgoff += end - mp.start;
			out[o++].start = end;
		}
	}
	/* 2. Insert the new map in address order. */
	for (at = o; at > 0 && out[at - 1].start > start; at--)
		;
	memmove(&out[at + 1], &out[at], (o - at) * sizeof(*out));
	out[at] = (struct map){ start, end, pgoff, dso };
	free(p->maps);
	p->maps = out;
	p->nr_maps = o + 1;
	p->cap_maps = p->nr_maps;
	return 0;
}

static const struct map *maps__find(const struct map *maps, size_t nr,
				     u64 ip)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct map *mp = &maps[mid];

		if (ip < mp->start)
			hi = mid;
		else if (ip >= mp->end)
			lo = mid + 1;
		else
			return mp;
	}
	return NULL;
}

const struct map *machine__find_map(struct machine *m, s32 pid, u64 ip)
{
	struct proc *p = machine__proc(m, pid);
	const struct map *mp;

	if (!p)
		return NULL;
	mp = maps__find(p->maps, p->nr_maps, ip);
	return mp ? mp : maps__find(p->old_maps, p->nr_old_maps, ip);
}

const char *machine__comm_of(struct machine *m, s32 pid, s32 tid)
{
	struct thread *t = intmap__get(&m->threads, (u64)(u32)tid);
	struct proc *p;

	if (t && t->comm && t->pid == pid)
		return t->comm;
	p = machine__proc(m, pid);
	return p ? p->comm : NULL;
}

int machine__set_cgroup(struct machine *m, s32 pid, const char *path,
			size_t len)
{
	struct proc *p = machine__proc(m, pid);
	const char *c;

	if (!p)
		return -ENOENT;
	c = strpool__intern(m->pool, path, len);
	if (!c)
		return -ENOMEM;
	p->cgroup = c;
	return 0;
}

bool machine__ask_cgroup(struct machine *m, s32 pid)
{
	struct proc *p = machine__proc(m, pid);

	if (!p || p->cgroup_asked)
		return false;
	p->cgroup_asked = true;
	return true;
}

const char *machine__cgroup_of(struct machine *m, s32 pid)
{
	struct proc *p = machine__proc(m, pid);

	return p ? p->cgroup : NULL;
}

u64 machine__gen(const struct machine *m)
{
	return m->gen;
}

bool machine__knows(const struct machine *m, s32 pid)
{
	return intmap__get(&m->procs, (u64)(u32)pid) != NULL;
}

bool machine__exited(const struct machine *m, s32 pid)
{
	const struct proc *p = intmap__get(&m->procs, (u64)(u32)pid);

	return p && p->exited;
}

void machine__tick(struct machine *m)
{
	m->tick++;
}

size_t machine__reap(struct machine *m, unsigned int grace)
{
	size_t i = 0, freed = 0, nr = 0;
	u64 k, *dead = NULL;
	void *v;

	/* Collect first: the maps must not change while iterating. */
	while (intmap__next(&m->procs, &i, &k, &v)) {
		struct proc *p = v;

		if (p->exited && m->tick - p->exit_tick >= grace)
			nr++;
	}
	i = 0;
	while (intmap__next(&m->threads, &i, &k, &v)) {
		struct thread *t = v;

		if (t->exited && m->tick - t->exit_tick >= grace)
			nr++;
	}
	if (!nr)
		return 0;
	dead = malloc(nr * sizeof(*dead));
	if (!dead)
		return 0;
	nr = 0;
	i = 0;
	while (intmap__next(&m->procs, &i, &k, &v)) {
		struct proc *p = v;

		if (p->exited && m->tick - p->exit_tick >= grace)
			dead[nr++] = k;
	}
	for (size_t j = 0; j < nr; j++) {
		proc__free(intmap__del(&m->procs, dead[j]));
		freed++;
	}
	if (freed)
		m->gen++;	/* their pids may come back with other maps */
	m->last = NULL;
	nr = 0;
	i = 0;
	while (intmap__next(&m->threads, &i, &k, &v)) {
		struct thread *t = v;

		if (t->exited && m->tick - t->exit_tick >= grace)
			dead[nr++] = k;
	}
	for (size_t j = 0; j < nr; j++)
		free(intmap__del(&m->threads, dead[j]));
	free(dead);
	return freed;
}

size_t machine__nr_procs(const struct machine *m)
{
	return m->procs.nr;
}

size_t machine__nr_threads(const struct machine *m)
{
	return m->threads.nr;
}

const struct map *machine__maps(struct machine *m, s32 pid, size_t *nr)
{
	struct proc *p = machine__proc(m, pid);

	*nr = p ? p->nr_maps : 0;
	return p ? p->maps : NULL;
}
