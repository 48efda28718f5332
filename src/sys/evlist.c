/* evlist: opens the sampled events (per CPU or per thread) and maps
 * their rings. */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <asm/perf_regs.h>
#endif

#include "src/sys/catalog.h"
#include "src/sys/cpus.h"
#include "src/sys/evlist.h"
#include "src/sys/fdio.h"
#include "src/sys/pmu.h"
#include "src/core/log.h"
#include "src/sys/synth.h"

#define DEFAULT_FREQ 4000
#define DEFAULT_MMAP_PAGES 128
/* sample_stack_user must fit a record whose size is a u16. */
#define MAX_STACK_USER 65528

struct evsel {
	struct event_spec spec;
	struct perf_event_attr attr;
	int *fds;		/* [cpu index][thread index], -1: not open */
	u64 *ids;		/* one per open fd, in opening order */
	size_t nr_ids;
};

/* One ring per CPU: the first fd opened on that CPU owns the mapping. */
struct evmmap {
	void *base;
	size_t len;
	int fd;			/* an evsel's, not closed here */
	int cpu;
	struct ring ring;
};

struct evlist {
	struct evlist_opts opts;
	char *proc;
	char *tracefs;
	char *pmu_root;
	struct evsel *evsels;
	size_t nr, cap;
	u64 freq;		/* 0: opts.period */

	/* Valid while open. */
	enum target_kind kind;
	int *cpus;
	size_t nr_cpus;
	pid_t *threads;		/* {-1} for TARGET_SYSTEM */
	size_t nr_threads;
	struct evmmap **mmaps;	/* [cpu index], NULL: nothing open there */
	struct evmmap **rings;	/* the non-NULL mmaps, densely */
	size_t nr_rings;
	bool opened;
	/* While evlist__open runs: its caller's, for a failure's words. */
	struct strbuf *why;

	/* Learnt from the kernel, kept across reopenings. */
	bool no_build_id;	/* build_id in mmap2 rejected (before 5.12) */
	bool no_sample_cgroup;	/* PERF_SAMPLE_CGROUP refused (before 5.7) */
	bool no_ksymbol;	/* attr.ksymbol refused (before 5.1) */
	bool user_only;		/* paranoid fallback to exclude_kernel */
	u8 default_precise;	/* precise_ip tried for the default cycles */
};

/* Construction */

struct evlist *evlist__new(const struct evlist_opts *opts)
{
	struct evlist *el = calloc(1, sizeof(*el));

	if (!el)
		return NULL;
	if (opts)
		el->opts = *opts;
	if (!el->opts.mmap_pages)
		el->opts.mmap_pages = DEFAULT_MMAP_PAGES;
	el->proc = strdup(el->opts.proc ? el->opts.proc : "/proc");
	el->tracefs = el->opts.tracefs ? strdup(el->opts.tracefs) : NULL;
	el->pmu_root = el->opts.pmu_root ? strdup(el->opts.pmu_root) : NULL;
	if (!el->proc || (el->opts.tracefs && !el->tracefs) ||
	    (el->opts.pmu_root && !el->pmu_root)) {
		evlist__free(el);
		errno = ENOMEM;
		return NULL;
	}
	/* The copies own the strings; opts points at them. */
	el->opts.proc = el->proc;
	el->opts.tracefs = el->tracefs;
	el->opts.pmu_root = el->pmu_root;
	/* perf's default is cycles:P, the most precise the PMU offers */
	el->default_precise = 3;
	el->freq = el->opts.period ? 0 :
		   el->opts.freq ? el->opts.freq : DEFAULT_FREQ;
	return el;
}

void evlist__free(struct evlist *el)
{
	if (!el)
		return;
	evlist__close(el);
	free(el->evsels);
	free(el->proc);
	free(el->tracefs);
	free(el->pmu_root);
	free(el);
}

/*
 * The x86-64 registers perf's DWARF unwinder needs (PERF_REGS_MASK in perf's
 * arch/x86/include/perf_regs.h): every general purpose register, ip, sp,
 * flags, cs and ss, but not the segment registers ds/es/fs/gs, which the
 * kernel does not sample in 64-bit mode.
 */
static u64 dwarf_regs_mask(void)
{
#if defined(__x86_64__)
	return ((1ULL << PERF_REG_X86_64_MAX) - 1) &
	       ~((1ULL << PERF_REG_X86_DS) | (1ULL << PERF_REG_X86_ES) |
		 (1ULL << PERF_REG_X86_FS) | (1ULL << PERF_REG_X86_GS));
#else
	return 0;
#endif
}

/* -g's recovery: bp, sp and ip (x86-64's only) */
static u64 fp_regs_mask(void)
{
#if defined(__x86_64__)
	return 1ULL << PERF_REG_X86_BP | 1ULL << PERF_REG_X86_SP |
	       1ULL << PERF_REG_X86_IP;
#else
	return 0;
#endif
}

bool evlist__has_offcpu(const struct evlist *el)
{
	for (size_t i = 0; i < el->nr; i++)
		if (el->evsels[i].spec.offcpu)
			return true;
	return false;
}

/* The attr of event i from its spec, the options and the target. */
static void config_attr(struct evlist *el, size_t i)
{
	struct evsel *ev = &el->evsels[i];
	struct perf_event_attr *a = &ev->attr;

	*a = ev->spec.attr;
	a->size = sizeof(*a);
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	/* Several events share one ring: each record must say whose. */
	if (el->nr > 1)
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;
	if (el->opts.callchain) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		if (el->opts.max_stack)
			a->sample_max_stack = el->opts.max_stack;
	}
	/* a tracepoint's fields, as perf records them: perf script and
	 * perf report of an -o file show them */
	if (ev->spec.tracepoint)
		a->sample_type |= PERF_SAMPLE_RAW;
	if (ev->spec.offcpu) {
		/* where each thread waits (its chain at the switch), and
		 * when it is back (PERF_RECORD_SWITCH): session.h */
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		if (el->opts.max_stack)
			a->sample_max_stack = el->opts.max_stack;
		a->context_switch = 1;
	}
	/* a switch-out's user registers are those of its system call's
	 * entry: unwound or recovered as an on-CPU sample's */
	if (el->opts.dwarf_stack_size) {
		a->sample_type |= PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = dwarf_regs_mask();
		a->sample_stack_user = ALIGN_UP(el->opts.dwarf_stack_size, 8u);
		/* The user part of the chain comes from unwinding the stack
		 * copy; the kernel's frame-pointer walk would only be a worse
		 * duplicate (perf does the same). */
		if (a->sample_type & PERF_SAMPLE_CALLCHAIN)
			a->exclude_callchain_user = 1;
	} else if ((a->sample_type & PERF_SAMPLE_CALLCHAIN) &&
		   el->opts.fp_stack_size && fp_regs_mask()) {
		/* the kernel's walk, and what it needs to recover the
		 * callers the walk skips (session_fixer) */
		a->sample_type |= PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = fp_regs_mask();
		a->sample_stack_user = ALIGN_UP(el->opts.fp_stack_size, 8u);
	}
	if (ev->spec.period) {
		/* the event's own period= or freq= term, over -c and -F */
		a->freq = 0;
		a->sample_period = ev->spec.period;
	} else if (ev->spec.freq) {
		a->freq = 1;
		a->sample_freq = ev->spec.freq;
	} else if (ev->spec.tracepoint) {
		/* Every hit, as perf samples tracepoints, unless -c. */
		a->freq = 0;
		a->sample_period = el->opts.period ? el->opts.period : 1;
	} else if (el->freq) {
		a->freq = 1;
		a->sample_freq = el->freq;
	} else {
		a->freq = 0;
		a->sample_period = el->opts.period;
	}
	if (ev->spec.is_default)
		a->precise_ip = el->default_precise;
	a->sample_id_all = 1;
	/* --off-cpu charges threads still waiting up to "now": every
	 * event on CLOCK_MONOTONIC, which the reader can read too (rings
	 * are merged by time, so all or none) */
	if (evlist__has_offcpu(el)) {
		a->use_clockid = 1;
		a->clockid = CLOCK_MONOTONIC;
	}
	/* perf's default when no :G/:H modifier is given. */
	a->exclude_guest = 1;
	a->read_format = 0;
	if (el->user_only) {
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
	}
	if (el->opts.sample_cgroup && !el->no_sample_cgroup)
		a->sample_type |= PERF_SAMPLE_CGROUP;
	if (i == 0) {
		a->mmap = 1;
		a->mmap2 = 1;
		a->build_id = !el->no_build_id;
		a->cgroup = el->opts.sample_cgroup && !el->no_sample_cgroup;
		a->mmap_data = el->opts.mmap_data;
		a->ksymbol = a->bpf_event = el->opts.ksymbol &&
					    !el->no_ksymbol;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
	}
	/* Wake the reader when a quarter of the ring is full, not per
	 * sample. */
	a->watermark = 1;
	a->wakeup_watermark = (u32)(MIN((u64)el->opts.mmap_pages *
						(u64)sysconf(_SC_PAGESIZE),
					(u64)UINT32_MAX) / 4);
	if (!a->wakeup_watermark)
		a->wakeup_watermark = 1;
	a->disabled = 1;
	a->inherit = el->kind == TARGET_PIDS || el->kind == TARGET_COMMAND;
	a->enable_on_exec = el->kind == TARGET_COMMAND;
}

int evlist__add(struct evlist *el, const struct event_spec *spec)
{
	if (el->opened)
		return -EBUSY;
	if (array__grow((void **)&el->evsels, &el->cap, el->nr + 1,
			sizeof(*el->evsels)))
		return -ENOMEM;
	memset(&el->evsels[el->nr], 0, sizeof(el->evsels[el->nr]));
	el->evsels[el->nr].spec = *spec;
	el->nr++;
	for (size_t i = 0; i < el->nr; i++)
		config_attr(el, i);
	return 0;
}

size_t evlist__nr_events(const struct evlist *el)
{
	return el->nr;
}

const char *evlist__event_name(const struct evlist *el, size_t i)
{
	return i < el->nr ? el->evsels[i].spec.name : NULL;
}

const struct event_spec *evlist__spec(const struct evlist *el, size_t i)
{
	return i < el->nr ? &el->evsels[i].spec : NULL;
}

const struct perf_event_attr *evlist__attr(const struct evlist *el, size_t i)
{
	return i < el->nr ? &el->evsels[i].attr : NULL;
}

const u64 *evlist__ids(const struct evlist *el, size_t i, size_t *nr)
{
	if (i >= el->nr) {
		*nr = 0;
		return NULL;
	}
	*nr = el->evsels[i].nr_ids;
	return el->evsels[i].ids;
}

size_t evlist__nr_rings(const struct evlist *el)
{
	return el->nr_rings;
}

struct ring *evlist__ring(struct evlist *el, size_t i)
{
	return i < el->nr_rings ? &el->rings[i]->ring : NULL;
}

int evlist__ring_fd(const struct evlist *el, size_t i)
{
	return i < el->nr_rings ? el->rings[i]->fd : -1;
}

int evlist__ring_cpu(const struct evlist *el, size_t i)
{
	return i < el->nr_rings ? el->rings[i]->cpu : -1;
}

/* Closing */

static void close_fds(struct evlist *el)
{
	size_t nfds = el->nr_cpus * el->nr_threads;

	if (el->mmaps) {
		for (size_t c = 0; c < el->nr_cpus; c++) {
			struct evmmap *m = el->mmaps[c];

			if (!m)
				continue;
			if (m->base)
				munmap(m->base, m->len);
			free(m);
		}
		free(el->mmaps);
		el->mmaps = NULL;
	}
	free(el->rings);
	el->rings = NULL;
	el->nr_rings = 0;
	for (size_t i = 0; i < el->nr; i++) {
		struct evsel *ev = &el->evsels[i];

		if (ev->fds) {
			for (size_t k = 0; k < nfds; k++)
				if (ev->fds[k] >= 0)
					close(ev->fds[k]);
			free(ev->fds);
			ev->fds = NULL;
		}
		free(ev->ids);
		ev->ids = NULL;
		ev->nr_ids = 0;
	}
}

void evlist__close(struct evlist *el)
{
	if (!el)
		return;
	close_fds(el);
	free(el->cpus);
	el->cpus = NULL;
	el->nr_cpus = 0;
	free(el->threads);
	el->threads = NULL;
	el->nr_threads = 0;
	el->opened = false;
}

/* Opening */

/* A failure's words, for evlist__open's caller. */
static void say(const struct evlist *el, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct evlist *el, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf__vaddf(el->why, fmt, ap);
	va_end(ap);
}

static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			pr_debug("cannot raise RLIMIT_NOFILE: %s",
				 strerror(errno));
	}
}

static int setup_cpus(struct evlist *el, const struct target *t)
{
	bool online[PTOP_MAX_CPUS];
	cpus__online(online);
	el->cpus = calloc(PTOP_MAX_CPUS, sizeof(*el->cpus));
	if (!el->cpus)
		return -ENOMEM;
	for (int c = 0; c < PTOP_MAX_CPUS; c++) {
		if (t->cpus && !t->cpus[c])
			continue;
		if (!online[c]) {
			if (t->cpus) {
				say(el, "CPU %d is not online", c);
				return -EINVAL;
			}
			continue;
		}
		el->cpus[el->nr_cpus++] = c;
	}
	if (!el->nr_cpus) {
		say(el, "no CPU to profile");
		return -EINVAL;
	}
	return 0;
}

static int add_thread(struct evlist *el, size_t *cap, pid_t tid)
{
	if (array__grow((void **)&el->threads, cap, el->nr_threads + 1,
			sizeof(*el->threads)))
		return -ENOMEM;
	el->threads[el->nr_threads++] = tid;
	return 0;
}

/* A target that cannot be sampled because it is gone: which way. */
static void say_gone(const struct evlist *el, pid_t pid)
{
	struct proc_stat ps;

	if (!synth__proc_stat(el->proc, pid, &ps) &&
	    (ps.state == 'Z' || ps.state == 'X'))
		say(el, "process %d (%s) has exited: a zombie that its parent "
		    "(%d) has not reaped, with nothing left to sample",
		    (int)pid, ps.comm, (int)ps.ppid);
	else
		say(el, "no such process: %d", (int)pid);
}

/* -p or -t of a kernel thread: it has no user space, so what samples it,
 * and what cannot, is said (an idle one gives no sample at all). */
static void note_kernel_threads(const struct evlist *el,
				const struct target *t)
{
	bool user_only = false;

	if (t->kind != TARGET_PIDS && t->kind != TARGET_TIDS)
		return;
	for (size_t i = 0; i < el->nr; i++)
		user_only |= el->evsels[i].attr.exclude_kernel;
	for (size_t i = 0; i < t->nr_pids; i++) {
		struct proc_stat ps;

		if (synth__proc_stat(el->proc, t->pids[i], &ps) ||
		    !(ps.flags & SYNTH_PF_KTHREAD))
			continue;
		if (user_only)
			pr_warn("%d (%s) is a kernel thread: user-space events "
				"(a :u event, or user-only as "
				"perf_event_paranoid makes them) cannot sample "
				"it; events with the kernel can (as root, or "
				"with CAP_PERFMON), and so can a system-wide "
				"run (no -p) sorted by comm (-s comm)",
				(int)t->pids[i], ps.comm);
		else
			pr_info("%d (%s) is a kernel thread: its kernel code "
				"is sampled while it runs (an idle one gives no "
				"samples)",
				(int)t->pids[i], ps.comm);
	}
}

static int setup_threads(struct evlist *el, const struct target *t)
{
	size_t cap = 0;
	int err;

	if (t->kind == TARGET_SYSTEM && el->opts.nr_cgroups) {
		/* -G: the "thread" of an fd is the cgroup's directory */
		for (size_t i = 0; i < el->opts.nr_cgroups; i++) {
			err = add_thread(el, &cap, el->opts.cgroup_fds[i]);
			if (err)
				return err;
		}
		return 0;
	}
	if (t->kind == TARGET_SYSTEM)
		return add_thread(el, &cap, -1);
	if (!t->nr_pids || !t->pids) {
		say(el, "no process to profile");
		return -EINVAL;
	}
	if (t->kind == TARGET_COMMAND)
		return add_thread(el, &cap, t->pids[0]);
	for (size_t i = 0; i < t->nr_pids; i++) {
		pid_t *tids = NULL;
		size_t nr = 0;

		if (t->pids[i] <= 0) {
			say(el, "bad process id %d", (int)t->pids[i]);
			return -EINVAL;
		}
		if (t->kind == TARGET_TIDS) {
			err = add_thread(el, &cap, t->pids[i]);
			if (err)
				return err;
			continue;
		}
		err = synth__threads(el->proc, t->pids[i], &tids, &nr);
		if (err == -ESRCH) {
			say_gone(el, t->pids[i]);
			return err;
		}
		if (err) {
			say(el, "cannot list the threads of process %d: %s%s",
			    (int)t->pids[i], strerror(-err),
			    err == -EMFILE ? " (RLIMIT_NOFILE is too low)" :
						"");
			return err;
		}
		for (size_t k = 0; !err && k < nr; k++) {
			bool dup = false;

			/* The same process named twice, or a pid and one of
			 * its threads: one fd per thread is enough. */
			for (size_t j = 0; j < el->nr_threads && !dup; j++)
				dup = el->threads[j] == tids[k];
			if (!dup)
				err = add_thread(el, &cap, tids[k]);
		}
		free(tids);
		if (err)
			return err;
	}
	return 0;
}

static void paranoid_error(const struct evlist *el, const char *name,
			   int err)
{
	long long level = 2;

	if (fd__read_int("/proc/sys/kernel/perf_event_paranoid", &level))
		level = 2;
	say(el, "cannot open %s: %s. Access to performance monitoring is limited: kernel.perf_event_paranoid is %lld "
	    "(-1: (almost) all events for all users; >= 0: no raw tracepoint access; "
	    ">= 1: no CPU-wide events; >= 2: no kernel profiling; Debian's 3: no access at all) "
	    "for users without CAP_PERFMON (or CAP_SYS_ADMIN). Run as root or with CAP_PERFMON, "
	    "or lower it with 'sysctl kernel.perf_event_paranoid=<level>'; profiling another user's "
	    "process needs the same privileges.",
	    name, strerror(-err), level);
}

static bool is_pmu_event(const struct evsel *ev)
{
	u32 type = ev->attr.type;

	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE ||
	       type == PERF_TYPE_RAW;
}

static bool fallback_errno(int err);

/*
 * A PMU event the kernel refused: many PMUs (msr, uncore, power) count
 * but cannot sample, which is worth saying plainly: if the same attr
 * opens as a counter (the exclude_guest ptop adds dropped too: such PMUs
 * often take no exclusion), that is the reason.
 */
static void pmu_open_error(struct evlist *el, struct evsel *ev, int err,
			   pid_t pid, int cpu)
{
	struct perf_event_attr a = ev->attr;
	const struct perf_event_attr *o = &ev->attr;
	long fd;

	a.freq = 0;
	a.sample_period = 0;
	a.sample_type = 0;
	a.exclude_guest = 0;
	a.mmap = a.mmap2 = a.comm = a.comm_exec = a.task = 0;
	a.build_id = 0;
	a.sample_id_all = 0;
	a.watermark = 0;
	a.wakeup_watermark = 0;
	a.enable_on_exec = 0;
	fd = sys_perf_event_open(&a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close((int)fd);
		say(el, "cannot sample %s: the %s PMU can count it but not sample it (%s), and ptop samples; count it with perf stat",
		    ev->spec.name, ev->spec.pmu_name, strerror(-err));
		return;
	}
	say(el, "cannot open %s on CPU %d: %s (PMU %s: type %u, config %#llx, config1 %#llx, config2 %#llx); check its terms against %s/%s/format and events",
	    ev->spec.name, cpu, strerror(-err), ev->spec.pmu_name, o->type,
	    (unsigned long long)o->config, (unsigned long long)o->config1,
	    (unsigned long long)o->config2, pmu__root(el->opts.pmu_root),
	    ev->spec.pmu_name);
}

/* err: -errno */
static void open_error(struct evlist *el, struct evsel *ev, int err,
		       pid_t pid, int cpu)
{
	const char *name = ev->spec.name;
	struct rlimit rl;

	switch (-err) {
	case EACCES:
	case EPERM:
		paranoid_error(el, name, err);
		return;
	case EMFILE:
	case ENFILE:
		if (getrlimit(RLIMIT_NOFILE, &rl))
			rl.rlim_cur = 0;
		say(el, "too many open files: %zu events x %zu CPUs x %zu threads need %zu descriptors, "
		    "and RLIMIT_NOFILE is %llu; raise it (ulimit -n), or profile fewer CPUs (-C) or threads",
		    el->nr, el->nr_cpus, el->nr_threads,
		    el->nr * el->nr_cpus * el->nr_threads,
		    (unsigned long long)rl.rlim_cur);
		return;
	case ESRCH:
		say_gone(el, pid);
		return;
	case EOVERFLOW:
		say(el, "cannot open %s: --max-stack %u is above kernel.perf_event_max_stack",
		    name, el->opts.max_stack);
		return;
	case EBUSY:
		say(el, "cannot open %s: the counter is busy (another tool holds it exclusively)",
		    name);
		return;
	default:
		break;
	}
	if (ev->attr.precise_ip && (err == -EOPNOTSUPP || err == -EINVAL)) {
		say(el, "cannot open %s: %s; this machine cannot give the precision asked by the 'p' modifiers, try without them",
		    name, strerror(-err));
		return;
	}
	if (ev->spec.pmu && fallback_errno(err)) {
		pmu_open_error(el, ev, err, pid, cpu);
		return;
	}
	if (is_pmu_event(ev) && (err == -ENOENT || err == -ENODEV ||
				 err == -EOPNOTSUPP || err == -ENXIO ||
				 err == -EINVAL)) {
		say(el, "the %s event is not supported on this machine: the hardware (or the virtual machine) has no counter for it; "
		    "use a software event such as cpu-clock, see --list-events",
		    name);
		return;
	}
	if (err == -EOPNOTSUPP) {
		say(el, "cannot open %s: this event cannot be sampled", name);
		return;
	}
	if (err == -EINVAL && ev->attr.freq) {
		say(el, "cannot open %s on CPU %d: %s (is %s%llu above kernel.perf_event_max_sample_rate?)",
		    name, cpu, strerror(-err),
		    ev->spec.freq ? "freq=" : "-F ",
		    (unsigned long long)ev->attr.sample_freq);
		return;
	}
	say(el, "cannot open %s on CPU %d: %s", name, cpu, strerror(-err));
}

static int ring_error(struct evlist *el, int cpu, int err)
{
	long long kb = -1;

	if (err == -EPERM || err == -ENOMEM) {
		fd__read_int("/proc/sys/kernel/perf_event_mlock_kb", &kb);
		say(el, "cannot map the %u-page ring buffer of CPU %d: %s; lower -m (pages per CPU) or raise /proc/sys/kernel/perf_event_mlock_kb (now %lld KiB)",
		    el->opts.mmap_pages, cpu, strerror(-err), kb);
	} else {
		say(el, "cannot map the ring buffer of CPU %d: %s", cpu,
		    strerror(-err));
	}
	return err;
}

/* Maps the ring of CPU index ci on fd. */
static int map_ring(struct evlist *el, size_t ci, int fd)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct evmmap *m;
	int err;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->fd = fd;
	m->cpu = el->cpus[ci];
	m->len = ((size_t)el->opts.mmap_pages + 1) * page;
	m->base = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       0);
	if (m->base == MAP_FAILED) {
		err = -errno;
		m->base = NULL;
		free(m);
		return ring_error(el, el->cpus[ci], err);
	}
	el->mmaps[ci] = m;
	err = ring__init(&m->ring, m->base, m->len, page);
	if (err)
		say(el, "CPU %d: the kernel's ring buffer has an unexpected layout",
		    m->cpu);
	return err;
}

static bool evsel_has_fd(const struct evlist *el, const struct evsel *ev)
{
	for (size_t k = 0; k < el->nr_cpus * el->nr_threads; k++)
		if (ev->fds[k] >= 0)
			return true;
	return false;
}

static bool fallback_errno(int err)
{
	return err == -ENOENT || err == -ENODEV || err == -EOPNOTSUPP ||
	       err == -ENXIO || err == -EINVAL;
}

#define RETRY 1

/*
 * Opens one fd into *fdp, learning what the kernel refuses on the way.
 * Returns 0, -ESRCH for a thread that is gone, RETRY when the event list
 * changed and everything must be reopened, or another -errno (its
 * words in el->why).
 */
static int open_one(struct evlist *el, size_t ei, pid_t pid, int cpu,
		    int *fdp)
{
	struct evsel *ev = &el->evsels[ei];
	bool cgroup = el->kind == TARGET_SYSTEM && el->opts.nr_cgroups;
	long fd;
	int err;

	for (;;) {
		fd = sys_perf_event_open(&ev->attr, pid, cpu, -1,
					 PERF_FLAG_FD_CLOEXEC |
					 (cgroup ? PERF_FLAG_PID_CGROUP : 0));
		if (fd >= 0) {
			*fdp = (int)fd;
			return 0;
		}
		err = -errno;
		/* Kernels before 5.12 reject the build_id bit: retry once
		 * without it, before anything was opened with it. */
		if (err == -EINVAL && ev->attr.build_id &&
		    !evsel_has_fd(el, ev)) {
			pr_debug("the kernel rejects build-ids in MMAP2 records; using device and inode");
			el->no_build_id = true;
			ev->attr.build_id = 0;
			continue;
		}
		/* Kernels before 5.1 have no KSYMBOL and BPF_EVENT
		 * records: -o files then get none, as perf's */
		if (err == -EINVAL && ev->attr.ksymbol) {
			pr_debug("the kernel has no KSYMBOL records; the file gets none");
			el->no_ksymbol = true;
			ev->attr.ksymbol = ev->attr.bpf_event = 0;
			continue;
		}
		/* Kernels before 5.7 have no PERF_SAMPLE_CGROUP: -o files
		 * then carry no cgroup ids */
		if (err == -EINVAL &&
		    (ev->attr.sample_type & PERF_SAMPLE_CGROUP) &&
		    !el->no_sample_cgroup) {
			pr_warn("the kernel has no cgroup ids in samples (Linux 5.7); the file gets none");
			el->no_sample_cgroup = true;
			return RETRY;
		}
		/* The default cycles asks for the best precision; PMUs
		 * without it say EOPNOTSUPP or EINVAL: one level less. */
		if ((err == -EOPNOTSUPP || err == -EINVAL) &&
		    ev->spec.is_default && ev->attr.precise_ip) {
			el->default_precise = ev->attr.precise_ip - 1;
			if (evsel_has_fd(el, ev))
				return RETRY;
			ev->attr.precise_ip = el->default_precise;
			continue;
		}
		break;
	}
	if (err == -ESRCH && pid != -1)
		return -ESRCH;
	if (ev->spec.is_default && fallback_errno(err)) {
		pr_warn("The %s event is not supported on this machine, falling back to cpu-clock",
			ev->spec.name);
		events__fallback(&ev->spec);
		return RETRY;
	}
	if ((err == -EACCES || err == -EPERM) && !el->user_only &&
	    !ev->attr.exclude_kernel) {
		long long level = 2;

		fd__read_int("/proc/sys/kernel/perf_event_paranoid", &level);
		if (level > 1) {
			pr_warn("kernel.perf_event_paranoid=%lld, trying to fall back to excluding kernel and hypervisor samples",
				level);
			el->user_only = true;
			return RETRY;
		}
	}
	open_error(el, ev, err, pid, cpu);
	return err;
}

static int add_id(const struct evlist *el, struct evsel *ev, int fd,
		  size_t max)
{
	u64 id;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0) {
		int err = -errno;

		say(el, "cannot read the id of %s: %s", ev->spec.name,
		    strerror(-err));
		return err;
	}
	if (!ev->ids) {
		ev->ids = calloc(max, sizeof(*ev->ids));
		if (!ev->ids)
			return -ENOMEM;
	}
	ev->ids[ev->nr_ids++] = id;
	return 0;
}

static int open_all(struct evlist *el)
{
	size_t nfds = el->nr_cpus * el->nr_threads;
	bool any = false;
	pid_t first_missing = -1;
	int err;

	el->mmaps = calloc(el->nr_cpus, sizeof(*el->mmaps));
	if (!el->mmaps)
		return -ENOMEM;
	for (size_t i = 0; i < el->nr; i++) {
		struct evsel *ev = &el->evsels[i];

		ev->fds = malloc(nfds * sizeof(*ev->fds));
		if (!ev->fds)
			return -ENOMEM;
		for (size_t k = 0; k < nfds; k++)
			ev->fds[k] = -1;
	}
	for (size_t ci = 0; ci < el->nr_cpus; ci++) {
		int cpu = el->cpus[ci];

		for (size_t ei = 0; ei < el->nr; ei++) {
			struct evsel *ev = &el->evsels[ei];

			for (size_t ti = 0; ti < el->nr_threads; ti++) {
				pid_t pid = el->threads[ti];
				int fd = -1;

				err = open_one(el, ei, pid, cpu, &fd);
				if (err == -ESRCH) {
					/* Exited since it was listed. */
					if (first_missing < 0)
						first_missing = pid;
					continue;
				}
				if (err)
					return err;
				ev->fds[ci * el->nr_threads + ti] = fd;
				any = true;
				err = add_id(el, ev, fd, nfds);
				if (err)
					return err;
				if (!el->mmaps[ci]) {
					err = map_ring(el, ci, fd);
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT,
						 el->mmaps[ci]->fd) < 0) {
					err = -errno;
					say(el, "cannot redirect %s into the ring of CPU %d: %s",
					    ev->spec.name, cpu,
					    strerror(-err));
				}
				if (err)
					return err;
			}
		}
	}
	if (!any) {
		say_gone(el, first_missing);
		return -ESRCH;
	}
	return 0;
}

static int check_opts(struct evlist *el)
{
	unsigned int pages = el->opts.mmap_pages;
	long long max_rate;

	if (pages & (pages - 1)) {
		say(el, "the ring size (-m) must be a power of two pages, not %u",
		    pages);
		return -EINVAL;
	}
	if (el->opts.dwarf_stack_size > MAX_STACK_USER) {
		say(el, "the user stack copy for DWARF unwinding is at most %d bytes, not %u",
		    MAX_STACK_USER, el->opts.dwarf_stack_size);
		return -EINVAL;
	}
	if (el->opts.dwarf_stack_size && !dwarf_regs_mask()) {
		say(el, "DWARF unwinding is not supported on this architecture");
		return -EOPNOTSUPP;
	}
	if (fd__read_int("/proc/sys/kernel/perf_event_max_sample_rate",
			  &max_rate) || max_rate <= 0)
		return 0;
	for (size_t i = 0; i < el->nr; i++) {
		const struct event_spec *spec = &el->evsels[i].spec;

		if (spec->freq > (u64)max_rate) {
			say(el, "%s: freq=%llu is above the kernel's limit of %lld Hz (kernel.perf_event_max_sample_rate)",
			    spec->name, (unsigned long long)spec->freq,
			    max_rate);
			return -EINVAL;
		}
	}
	if (el->freq && el->freq > (u64)max_rate) {
		if (el->opts.freq) {
			say(el, "-F %llu is above the kernel's limit of %lld Hz (kernel.perf_event_max_sample_rate)",
			    (unsigned long long)el->opts.freq, max_rate);
			return -EINVAL;
		}
		pr_warn("Lowering the default frequency rate from %llu to %lld Hz (kernel.perf_event_max_sample_rate)",
			(unsigned long long)el->freq, max_rate);
		el->freq = (u64)max_rate;
	}
	return 0;
}

static int enable_all(struct evlist *el, unsigned long req)
{
	size_t nfds = el->nr_cpus * el->nr_threads;
	int ret = 0;

	if (!el->opened)
		return -EBADF;
	for (size_t i = 0; i < el->nr; i++) {
		struct evsel *ev = &el->evsels[i];

		for (size_t k = 0; k < nfds; k++) {
			if (ev->fds[k] < 0)
				continue;
			/* Also applies to the children inherited from this
			 * event (perf_event_for_each_child). */
			if (ioctl(ev->fds[k], req, 0) < 0 && !ret)
				ret = -errno;
		}
	}
	return ret;
}

/* evlist__open, its failure's words in el->why. */
static int open_events(struct evlist *el, const struct target *t)
{
	int err;

	if (!el->nr) {
		say(el, "no event to open");
		return -EINVAL;
	}
	err = check_opts(el);
	if (err)
		return err;
	for (size_t i = 0; i < el->nr; i++) {
		struct event_spec *spec = &el->evsels[i].spec;

		err = 0;
		if (spec->tracepoint)
			err = catalog__tracepoint_id(el->opts.tracefs, spec,
						     el->why);
		else if (spec->pmu)
			err = pmu__resolve(el->opts.pmu_root, spec, el->why);
		if (err)
			return err;
	}
	raise_nofile();
	el->kind = t->kind;
	err = setup_cpus(el, t);
	if (!err)
		err = setup_threads(el, t);
	if (err)
		goto fail;
	el->opened = true;
	/* Each RETRY changes the list for good (a fallback or a learnt
	 * restriction happens once), so this ends. */
	do {
		close_fds(el);
		for (size_t i = 0; i < el->nr; i++)
			config_attr(el, i);
		err = open_all(el);
	} while (err == RETRY);
	if (err)
		goto fail;
	note_kernel_threads(el, t);

	el->rings = calloc(el->nr_cpus, sizeof(*el->rings));
	if (!el->rings) {
		err = -ENOMEM;
		goto fail;
	}
	for (size_t c = 0; c < el->nr_cpus; c++)
		if (el->mmaps[c])
			el->rings[el->nr_rings++] = el->mmaps[c];
	if (t->kind != TARGET_COMMAND) {
		err = enable_all(el, PERF_EVENT_IOC_ENABLE);
		if (err) {
			say(el, "cannot enable the events: %s", strerror(-err));
			goto fail;
		}
	}
	return 0;
fail:
	evlist__close(el);
	return err;
}

int evlist__open(struct evlist *el, const struct target *t,
		 struct strbuf *why)
{
	int err;

	if (el->opened)
		return -EBUSY;
	el->why = why;
	err = open_events(el, t);
	el->why = NULL;
	return err;
}

int evlist__enable(struct evlist *el)
{
	return enable_all(el, PERF_EVENT_IOC_ENABLE);
}

int evlist__disable(struct evlist *el)
{
	return enable_all(el, PERF_EVENT_IOC_DISABLE);
}

