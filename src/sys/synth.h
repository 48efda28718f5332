/* synth: reads /proc and writes the records the kernel would have sent. */
#ifndef PTOP_SYNTH_H
#define PTOP_SYNTH_H

#include <linux/perf_event.h>
#include <sys/types.h>

#include "src/core/util.h"

/*
 * Processes that exist before sampling starts never produce MMAP2/COMM
 * records, so they are synthesized from /proc: for each process a COMM
 * record per thread, a FORK record per extra thread (pid, tid), and an
 * MMAP2 record per executable mapping, carrying the file's build-id
 * (PERF_RECORD_MISC_MMAP_BUILD_ID) when attr has build_id and it can be
 * read, else maj/min/ino.  Records end with a zeroed sample_id trailer laid out for
 * attr (time 0), so they decode like the kernel's and can be written to a
 * perf.data file as they are.  The callback returns 0 to go on.
 */
typedef int (*synth_cb)(void *ctx, const struct perf_event_header *rec);

/*
 * pid -1: every process; one that exits while it is read is skipped.  A pid
 * that names a thread stands for its process; one that does not exist
 * gives -ESRCH and no record.  Returns 0, -errno, or the first non-zero
 * value of the callback, which stops the walk.
 */
int synth__processes(const char *proc, pid_t pid,
		     const struct perf_event_attr *attr, synth_cb cb,
		     void *ctx);

/*
 * The same, reading processes one at a time as they show up (the live
 * view reads a process when its first sample comes), with the build-ids
 * of the files already read remembered from one call to the next:
 *	s = synth__new(proc);		NULL with errno set
 *	synth__process(s, pid, attr, cb, ctx);	as synth__processes
 *	synth__free(s);
 * attr may differ between calls (the events were changed).
 */
struct synth;
struct synth *synth__new(const char *proc);
void synth__free(struct synth *s);
int synth__process(struct synth *s, pid_t pid,
		   const struct perf_event_attr *attr, synth_cb cb, void *ctx);

/* What /proc/PID/stat says of a task: its state letter (R, S, Z ...),
 * its flags (PF_*: PF_KTHREAD for a kernel thread), its parent, its comm
 * (cut to fit).  0, -ESRCH when it is gone, or -errno. */
#define SYNTH_PF_KTHREAD 0x00200000ul
struct proc_stat {
	char state;
	unsigned long flags;
	pid_t ppid;
	char comm[32];
};
int synth__proc_stat(const char *proc, pid_t pid, struct proc_stat *ps);

/* The threads of a process, from /proc/PID/task (sorted, malloc'd);
 * -ESRCH if it does not exist. */
int synth__threads(const char *proc, pid_t pid, pid_t **tids, size_t *nr);

/* Pids whose comm equals name, or whose cmdline's argv[0] basename does
 * (malloc'd, sorted); none is not an error (0 and *nr 0). */
int synth__find_pids(const char *proc, const char *name, pid_t **pids,
		     size_t *nr);

/*
 * What -p and the live view's p key take: a comma-separated list whose
 * items are pids ("1234", "1 2 3") or command names ("python3": every
 * process find_pids names, but self).  The pids in *pids (malloc'd,
 * sorted, each once): 0; -EINVAL for a bad pid, -ESRCH for a name no
 * process has (err says which), or -errno.
 */
int synth__resolve_pids(const char *proc, const char *list, pid_t self,
			pid_t **pids, size_t *nr, struct strbuf *err);

/* The comm of a process ("" and -ESRCH if gone), sanitized by the
 * caller. */
int synth__comm(const char *proc, pid_t pid, char *buf, size_t len);

/* The cgroup path of a process (cgroup__from_proc of /proc/PID/cgroup;
 * "/" for pid 0, the idle task) into buf[size]: its length or -errno. */
int synth__cgroup(const char *proc, pid_t pid, char *buf, size_t size);

#endif
