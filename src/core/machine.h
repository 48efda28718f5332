/* machine: processes, threads and their executable maps (pure). */
#ifndef PTOP_MACHINE_H
#define PTOP_MACHINE_H

#include "src/core/dso.h"
#include "src/core/util.h"

struct map {
	u64 start, end;		/* [start, end) */
	u64 pgoff;
	struct dso *dso;
};

struct machine;
struct strpool;

struct machine *machine__new(struct strpool *pool);
void machine__free(struct machine *m);

/* The record handlers.  They return 0 or -ENOMEM; records about unknown
 * processes create them. */
int machine__comm(struct machine *m, s32 pid, s32 tid, const char *comm,
		  size_t len, bool exec);
int machine__fork(struct machine *m, s32 pid, s32 ppid, s32 tid, s32 ptid);
int machine__exit(struct machine *m, s32 pid, s32 tid);
/* Inserts a map, cutting away what it overlaps (mmap semantics). */
int machine__mmap(struct machine *m, s32 pid, u64 start, u64 len, u64 pgoff,
		  struct dso *dso);

/* O(log n) in the process's maps, then in those of the program it ran
 * before its last exec (the execve syscall's own samples); NULL when no
 * map covers ip. */
const struct map *machine__find_map(struct machine *m, s32 pid, u64 ip);
/* The interned comm of a thread, else of its process; NULL if unknown. */
const char *machine__comm_of(struct machine *m, s32 pid, s32 tid);
/* The cgroup path of a process (the live source reads it from /proc
 * once; a forked child takes its parent's), interned; NULL if unknown.
 * Only for a known process: -ENOENT otherwise. */
int machine__set_cgroup(struct machine *m, s32 pid, const char *path,
			size_t len);
const char *machine__cgroup_of(struct machine *m, s32 pid);
/* true the first time it is asked for a known process since it was
 * created or exec'd: when the source should read its cgroup. */
bool machine__ask_cgroup(struct machine *m, s32 pid);
/* Changes whenever an address may resolve differently: an mmap, an
 * exec, a fork, a process reaped (its pid may come back).  What was
 * resolved under one value still holds while it stays. */
u64 machine__gen(const struct machine *m);
bool machine__knows(const struct machine *m, s32 pid);
/* true once the process's main thread exited. */
bool machine__exited(const struct machine *m, s32 pid);

/* Exited processes and threads are freed `grace` ticks after their exit,
 * since samples taken before the exit may still sit in another CPU's
 * ring.  Returns how many processes were freed. */
void machine__tick(struct machine *m);
size_t machine__reap(struct machine *m, unsigned int grace);

size_t machine__nr_procs(const struct machine *m);
size_t machine__nr_threads(const struct machine *m);
/* The maps of a process in address order (tests, /proc views). */
const struct map *machine__maps(struct machine *m, s32 pid, size_t *nr);

#endif
