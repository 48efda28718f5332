/* evsel: opens the sampled events (per CPU or per thread) and their rings. */
#ifndef PTOP_EVSEL_H
#define PTOP_EVSEL_H

#include <sys/types.h>

#include "events.h"
#include "ring.h"
#include "util.h"

#define PTOP_MAX_CPUS 4096

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
	const char *proc;	/* default "/proc" */
	const char *tracefs;	/* default: /sys/kernel/tracing, mounted if
				 * needed, then /sys/kernel/debug/tracing */
	const char *pmu_root;	/* the PMUs' sysfs directory, default
				 * /sys/bus/event_source/devices */
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
 * one-line notice in the log.  On failure returns -errno after logging one
 * clear message (perf_event_paranoid and CAP_PERFMON for EACCES/EPERM,
 * perf_event_mlock_kb and -m for a ring that cannot be mapped, "not
 * supported on this machine" for ENOENT/EOPNOTSUPP, RLIMIT_NOFILE for
 * EMFILE) and leaves the evlist closed.
 */
int evlist__open(struct evlist *el, const struct target *t);
void evlist__close(struct evlist *el);

size_t evlist__nr_events(const struct evlist *el);
const char *evlist__event_name(const struct evlist *el, size_t i);
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

/* The most events -e may name once tracepoint globs are expanded: each
 * is a file descriptor per CPU, and a table in the view. */
#define EXPAND_MAX 64

/*
 * Replaces each tracepoint glob of specs[0, *nr) (spec.tp_glob: "sched:*")
 * by the tracepoints of tracefs it matches, in name order (*specs is
 * realloc'd).  Errors (logged): -ENOENT (no tracefs, or no match), -E2BIG
 * (more than EXPAND_MAX events), -ENOMEM.
 */
int evlist__expand_tracepoints(const struct evlist_opts *opts,
			       struct event_spec **specs, size_t *nr);

/*
 * Resolves a PMU event ("pmu/terms/", spec.pmu; anything else is left
 * alone) from sysfs (opts.pmu_root): attr.type from PMU/type; config=,
 * config1=, config2= set those words; any other term is a field of
 * PMU/format/TERM ("config:0-7,21"), its value spread over those bits (it
 * must fit); a term without a value is an alias, PMU/events/TERM, whose
 * terms apply in its place (aliases of aliases, 4 deep at most), else a
 * format field set to 1, else perf's raw "rHEX" (config).  Terms apply in
 * order, a later one replacing what an earlier one set.  evlist__open
 * calls it; errors are logged naming the event and what is missing:
 * -ENOENT (no such PMU, term or alias), -EINVAL (a value that does not
 * fit, an alias with '?' parameters, a format ptop does not know).
 */
int evlist__resolve_pmu(const struct evlist_opts *opts,
			struct event_spec *spec);

/* Calls fn for every event this machine can really open (each is tried
 * system-wide, then for this process): generic, cache, the PMUs' sysfs
 * event aliases ("msr/tsc/", only those that can be sampled, since ptop
 * samples), tracepoints. */
int evlist__list_events(const struct evlist_opts *opts,
			void (*fn)(const char *name, const char *kind,
				   void *ctx),
			void *ctx);

/* The number of possible CPUs (from /sys/devices/system/cpu/possible). */
int cpus__nr_possible(void);
/* Fills online[PTOP_MAX_CPUS]; returns the count. */
int cpus__online(bool *online);

#endif
