/* evlist: opens the sampled events (per CPU or per thread) and maps their
 * rings.  What events exist is the catalog's (catalog.h), PMU syntax the
 * pmu's (pmu.h), the CPUs cpus.h's. */
#ifndef PTOP_EVLIST_H
#define PTOP_EVLIST_H

#include <sys/types.h>

#include "src/core/events.h"
#include "src/core/ring.h"
#include "src/core/util.h"
#include "src/sys/cpus.h"
#include "src/sys/perfevent.h"

enum target_kind {
	TARGET_SYSTEM,		/* every CPU (or -C), every task */
	TARGET_PIDS,		/* -p: every thread of these processes, and
				 * the threads and children they create */
	TARGET_TIDS,		/* -t: these threads only */
	TARGET_COMMAND,		/* -- CMD: the child (pids[0]) and its
				 * descendants, enabled on exec */
};

struct target {
	enum target_kind kind;
	pid_t *pids;
	size_t nr_pids;
	const bool *cpus;	/* NULL: every online CPU; else [PTOP_MAX_CPUS] */
};

struct evlist_opts {
	u64 freq;		/* -F HZ; 0 when period is used */
	u64 period;		/* -c PERIOD */
	unsigned int mmap_pages;/* data pages per ring, power of two */
	bool callchain;		/* -g: PERF_SAMPLE_CALLCHAIN */
	u16 max_stack;		/* --max-stack (sample_max_stack), 0: default */
	u32 dwarf_stack_size;	/* --call-graph dwarf: user stack bytes, 0: off */
	u32 fp_stack_size;	/* -g (frame pointers): user stack bytes and
				 * ip/sp/bp to recover the callers the
				 * walk skips; 0: off */
	const char *proc;	/* default "/proc" */
	const char *tracefs;	/* default: /sys/kernel/tracing, mounted if
				 * needed, then /sys/kernel/debug/tracing */
	const char *pmu_root;	/* the PMUs' sysfs directory, default
				 * /sys/bus/event_source/devices */
	/* -G: every CPU's events opened once per cgroup, with the fd of
	 * its directory and PERF_FLAG_PID_CGROUP (TARGET_SYSTEM only);
	 * the fds stay the caller's */
	const int *cgroup_fds;
	size_t nr_cgroups;
	/* PERF_SAMPLE_CGROUP in the samples and CGROUP records (attr.cgroup)
	 * from the first event, where the kernel has them (5.7) */
	bool sample_cgroup;
	/* attr.mmap_data on the first event: MMAP2 records of data
	 * mappings too (perf record --call-graph dwarf writes them) */
	bool mmap_data;
	/* attr.ksymbol and attr.bpf_event on the first event: the records
	 * of BPF programs (and other kernel text) loaded while it runs, as
	 * perf record asks for them (Linux 5.1; dropped where refused) */
	bool ksymbol;
};

struct evlist;

struct evlist *evlist__new(const struct evlist_opts *opts);
void evlist__free(struct evlist *el);	/* closes everything */

/* Adds an event (before evlist__open). */
int evlist__add(struct evlist *el, const struct event_spec *spec);

/*
 * Opens every event for the target, one ring per CPU (the other events of
 * that CPU are redirected into it with PERF_EVENT_IOC_SET_OUTPUT), and
 * reads their ids.  The first event carries mmap2/comm/task tracking.
 * Events are opened enabled, except for TARGET_COMMAND (enable_on_exec):
 * all are enabled together once every ring is mapped, so none starts
 * early.  Like perf, when kernel.perf_event_paranoid > 1 refuses events
 * that include the kernel, the list falls back to user space only
 * (exclude_kernel, exclude_hv) with a warning.
 * A default "cycles" (opened with the best precise_ip the PMU takes, like
 * perf's cycles:P) that cannot be opened is replaced by cpu-clock with a
 * one-line notice in the log.  On failure returns -errno with one clear
 * message in why (perf_event_paranoid and CAP_PERFMON for EACCES/EPERM,
 * perf_event_mlock_kb and -m for a ring that cannot be mapped, "not
 * supported on this machine" for ENOENT/EOPNOTSUPP, RLIMIT_NOFILE for
 * EMFILE; nothing for -ENOMEM) and leaves the evlist closed.  Notices
 * (the fallbacks, a kernel thread's target) still go to the log.
 */
int evlist__open(struct evlist *el, const struct target *t,
		 struct strbuf *why);
void evlist__close(struct evlist *el);

size_t evlist__nr_events(const struct evlist *el);
/* Whether an event is --off-cpu's sched_switch: then every event uses
 * CLOCK_MONOTONIC (attr.use_clockid), the clock the reader reads. */
bool evlist__has_offcpu(const struct evlist *el);
const char *evlist__event_name(const struct evlist *el, size_t i);
/* The spec of event i, resolved (tracepoint id and fields, PMU terms)
 * once evlist__open succeeded. */
const struct event_spec *evlist__spec(const struct evlist *el, size_t i);
/* The attr as opened (final once evlist__open succeeded: IDENTIFIER,
 * fallbacks and learnt restrictions included). */
const struct perf_event_attr *evlist__attr(const struct evlist *el, size_t i);
/* The kernel ids of event i (one per fd), valid after evlist__open. */
const u64 *evlist__ids(const struct evlist *el, size_t i, size_t *nr);

size_t evlist__nr_rings(const struct evlist *el);
struct ring *evlist__ring(struct evlist *el, size_t i);
int evlist__ring_fd(const struct evlist *el, size_t i);
int evlist__ring_cpu(const struct evlist *el, size_t i);

int evlist__enable(struct evlist *el);
int evlist__disable(struct evlist *el);

#endif
