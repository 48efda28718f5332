/* session: the one model (events, machine, dsos, histograms, counters)
 * that every source feeds through session__process and every front end
 * reads through snapshots. */
#ifndef PTOP_SESSION_H
#define PTOP_SESSION_H

#include <linux/perf_event.h>

#include "src/core/callchain.h"
#include "src/core/dso.h"
#include "src/core/hist.h"
#include "src/core/machine.h"
#include "src/core/util.h"

/* Which of the optional hist_key fields are kept (the others are zero);
 * a view can only group by what was kept. */
enum key_field {
	KEY_PID = 1 << 0,
	KEY_TID = 1 << 1,
	KEY_COMM = 1 << 2,
	KEY_CPU = 1 << 3,
	KEY_CGROUP = 1 << 4,
	KEY_STATE = 1 << 5,	/* an off-CPU wait's thread state */
	KEY_ALL = KEY_PID | KEY_TID | KEY_COMM | KEY_CPU | KEY_CGROUP |
		  KEY_STATE,
};

struct session;

struct session_opts {
	unsigned int key_fields;
	/* Samples outside [time_start, time_end) are skipped and counted
	 * (--time); 0, 0: no window.  time_relative: both count from the
	 * time of the first sample (--time +A,+B), whatever its event. */
	u64 time_start, time_end;
	bool time_relative;
	/* Frames kept per call chain (--max-stack); 0: 512. */
	unsigned int max_stack;
	/* Per-event entry count above which the entries of reaped
	 * processes are folded into per-command entries (pid/tid -1), which
	 * bounds memory over long runs with many short-lived processes.
	 * 0: 200000. */
	size_t fold_threshold;
};

/*
 * What the recovery of frame-pointer chains (see session_fixer) made of a
 * sample with a user stack copy: tied to a frame (the callers the
 * kernel's walk skipped inserted, or none missing), or why not.
 */
enum fp_fix {
	FP_FIX_TIED,		/* a frame's CFA was bp + 16 */
	FP_FIX_NO_IP,		/* the chain's first user entry is not the
				 * registers' ip (no user chain) */
	FP_FIX_NO_CFI,		/* a frame without CFI or without an
				 * executable map (JIT, assembly) */
	FP_FIX_UNREADY,		/* a binary's CFI was still being read */
	FP_FIX_SHORT,		/* the stack copy ended first */
	FP_FIX_NO_MATCH,	/* a CFA passed bp + 16: rbp is no frame
				 * pointer there */
	FP_FIX_RBP,		/* a CFA matched with another rbp */
	FP_FIX_BAD,		/* an unsupported rule, a CFA not above sp,
				 * too many frames, no registers */
	FP_FIX_NR
};

/* Per event (and per CPU): samples read + lost + lost_samples + dropped
 * account for everything the kernel produced. */
struct ev_counts {
	u64 samples;		/* decoded and aggregated */
	u64 period;
	u64 lost;		/* PERF_RECORD_LOST: records lost in the ring */
	u64 lost_samples;	/* PERF_RECORD_LOST_SAMPLES */
	u64 throttle;		/* PERF_RECORD_THROTTLE */
	u64 unthrottle;
	u64 dropped;		/* samples ptop could not decode or keep */
	u64 filtered;		/* outside the --time window */
	u64 unwind_failed;	/* samples with a user stack that no
				 * unwinder took: kept with the chain the
				 * kernel gave (see session_unwinder) */
	u64 unwind_no_stack;	/* samples of a user-stack event that came
				 * without one (a kernel thread, a task
				 * exiting): kept with the kernel's chain */
	/* -g with stack copies (session_fixer): samples whose user chain
	 * the fixer tried, tied to a frame, with callers put back, and
	 * the callers put back */
	u64 fp_copies, fp_tied, fp_inserted, fp_frames;
};

struct session_counts {
	u64 records;		/* every record processed */
	u64 bad_records;	/* records that did not decode */
	u64 unknown_id;		/* samples whose event id is unknown */
	u64 ring_dropped;	/* records dropped by the ring reader */
	u64 ring_dropped_bytes;
	u64 unknown_type;	/* record types ptop does not use */
	u64 leaked_build_id;	/* MMAP2 records whose build-id bit the
				 * kernel leaked: read as maj/min/ino (see
				 * session__attr_build_id) */
	u64 by_type[PERF_RECORD_MAX];
	u64 fp_fix[FP_FIX_NR];	/* the fixer's answers (enum fp_fix) */
	/* the memory budget's folds (session__set_budget): refreshes that
	 * folded, entries whose keys a fold rewrote, chain nodes dropped */
	u64 budget_folds, budget_entries, budget_nodes;
};

struct session *session__new(const struct session_opts *opts);
void session__free(struct session *s);
/*
 * What the session asks of the source that feeds it, while it processes
 * that source's records: one table, set by the source (the sampler when
 * it starts, a recording's reader around its read: main.c), NULL
 * members for what it does not answer.  Each is called with the session
 * locked, on the thread that processes the sample, with ctx.  (The
 * unwinder, the fixer and fold_addrs below are not the source's: the
 * symbols layer plugs them into any session, beside either source.)
 */
struct session_source_ops {
	/*
	 * The first time a sample (user or kernel) comes from a pid the
	 * session never heard of (it started between the /proc scan and
	 * the events, or its records were lost).  The live source
	 * synthesizes it from /proc and feeds the records back through
	 * session__process; once per pid, never from within itself.
	 */
	void (*unknown_pid)(void *ctx, struct session *s, s32 pid);
	/*
	 * The cgroup of a sample (KEY_CGROUP): the path of its
	 * PERF_SAMPLE_CGROUP id, as a CGROUP record named it (perf record
	 * --all-cgroups, ptop -o); else the cgroup of its process, which
	 * the source may read once per process through this (after
	 * unknown_pid, for a known process whose cgroup is not known): it
	 * writes the path into buf and returns its length, or a negative
	 * errno.
	 */
	int (*cgroup)(void *ctx, s32 pid, char *buf, size_t size);
	/*
	 * The first time a sample lands in a file-backed dso or the kernel
	 * (its own address, not its chain's): a recording's reader asks
	 * for the dso's symbols (the kernel's: kallsyms) while it reads on
	 * (main.c).
	 */
	void (*dso_sampled)(void *ctx, const struct dso *dso);
};

/* Installs (or replaces) the source's ops, with ctx for each call; NULL:
 * none.  ops is copied. */
void session__set_source_ops(struct session *s,
			     const struct session_source_ops *ops, void *ctx);

/*
 * Locking: sources hold the lock while they process a batch of records;
 * front ends hold it while they take a snapshot or change the session.
 * File mode can run without a second thread; the lock is still cheap.
 */
void session__lock(struct session *s);
void session__unlock(struct session *s);

/* Returns the new event's index, or -errno. */
int session__add_event(struct session *s, const char *name,
		       const struct perf_event_attr *attr);

/*
 * --off-cpu: event src samples sched:sched_switch with call chains and
 * context_switch records; a new event (its index is returned, or -errno)
 * gets, for each thread's wait, the chain of the sched_switch sample
 * that began it with the waited nanoseconds as period, charged when a
 * PERF_RECORD_SWITCH says the thread is back (a preemption is not a
 * wait), and for threads still waiting up to the newest timestamp at
 * each snapshot of it.  One per session.
 */
int session__add_offcpu(struct session *s, size_t src, const char *name);
/* Where the sched_switch samples' raw data hold prev_state (their format:
 * offcpu__state_field); unset, waits have no state ('?' under KEY_STATE)
 * beside the preemptions PERF_RECORD_SWITCH marks ('R'). */
void session__set_switch_state(struct session *s, u32 offset, u32 size);
/* The live source's clock (the events' CLOCK_MONOTONIC, ns), read
 * before its last pass over the rings: waits are charged up to it. */
void session__set_clock(struct session *s, u64 now);
/*
 * --wall (after session__add_offcpu): a new event (its index, or -errno)
 * gets every sample of cpu_ev (cpu-clock or task-clock: periods are
 * nanoseconds on CPU) and every off-CPU interval, preemptions included,
 * so that a thread's rows add up to the time it existed.
 */
int session__add_wall(struct session *s, size_t cpu_ev, const char *name);
bool session__event_is_wall(const struct session *s, size_t ev);
/* Whether event ev's periods are nanoseconds (--off-cpu, --wall). */
bool session__event_is_time(const struct session *s, size_t ev);
/* Whether event ev is made by the session (no samples of its own: a
 * writer of records leaves it out). */
bool session__event_is_derived(const struct session *s, size_t ev);
/* Replaces an event's attr (after the sampler reopened it) and forgets
 * its ids. */
int session__set_attr(struct session *s, size_t ev,
		      const struct perf_event_attr *attr);
int session__add_id(struct session *s, size_t ev, u64 id);
/* Renames an event (a perf.data file names its events after its attrs
 * are read). */
int session__set_event_name(struct session *s, size_t ev, const char *name);
/* For writers: the ids of event ev (malloc'd, the caller frees them;
 * *ids NULL when there are none), and a counter that add_event,
 * set_attr and add_id bump, so that new events and ids are noticed. */
int session__event_ids(const struct session *s, size_t ev, u64 **ids,
		       size_t *nr);
u64 session__events_gen(const struct session *s);
/* The first and last sample timestamps seen (ns; 0 when none). */
void session__time_range(const struct session *s, u64 *first, u64 *last);
/* The same over every sample, those a --time window cut included. */
void session__sample_range(const struct session *s, u64 *first, u64 *last);
/* The newest time the session knows (ns): its clock or its newest
 * sample's (locked by the caller). */
u64 session__now(const struct session *s);

/*
 * A perf.data file's build-id table: a file mapping whose MMAP record
 * carries no build-id gets the one listed for its path, from an entry of
 * its pid or, as perf does with its host entries, of pid -1.  Entries
 * must be added before the MMAP records they apply to are processed.
 */
int session__add_build_id(struct session *s, s32 pid, const char *path,
			  const u8 *bid, size_t size);
/*
 * Whether the attr of the event that carried record h has build_id set,
 * the carrier half of record__mmap2_build_id's rule: with one event, that
 * event; with several, the event of the id in h's sample_id trailer; when
 * that names none (no sample_id_all, or a synthesized record's zeroed
 * trailer), whether any event has build_id.  False whenever no event has
 * it, as in every perf record file made without --buildid-mmap.  h must be
 * in this machine's byte order (its trailer at least).
 */
bool session__attr_build_id(const struct session *s,
			    const struct perf_event_header *h);
size_t session__nr_events(const struct session *s);
/* The histograms' and the call chains' memory (the -vv figures). */
size_t session__bytes(const struct session *s);
const char *session__event_name(const struct session *s, size_t ev);
const struct perf_event_attr *session__event_attr(const struct session *s,
						  size_t ev);

/*
 * The single decoder entry point for every source: ring records, perf.data
 * records, pipe records and /proc synthesis.  The record must be complete
 * (h->size bytes readable).  Records that do not decode are counted; the
 * return value says so (-EINVAL) but the session stays consistent.
 */
int session__process(struct session *s, const struct perf_event_header *h);

/* The timestamp of any record (samples and, with sample_id_all, the
 * others), 0 when it has none: sources use it to merge CPU rings. */
u64 session__record_time(const struct session *s,
			 const struct perf_event_header *h);

/*
 * DWARF unwinding (--call-graph dwarf).  A sample that carries user
 * registers and a copy of the user stack is not unwound by the session:
 * it is handed, as an unwind_req, to the unwinder installed here, which
 * copies what it needs and returns 0 (the sample is then added later,
 * through session__add_unwound), or -errno (queue full, unsupported ABI,
 * no memory): the session adds the sample at once with the chain the
 * kernel gave and counts it in ev_counts.unwind_failed, as it does when
 * no unwinder is installed.  Usage:
 *
 *   queue(ctx, req)            called with the session locked, from
 *                              session__process (the ring reader's
 *                              thread, or a file reader's)
 *   session__add_unwound(...)  the unwinder, with the session locked,
 *                              for every request it took
 *   session__flush(s)          a source that wants every sample in the
 *                              histograms (end of a file, the target
 *                              exited): without the lock; calls flush
 */
struct unwind_req {
	u32 ev;			/* event index */
	s32 cpu;		/* -1: unknown */
	u32 pid, tid;
	u16 cpumode;		/* PERF_RECORD_MISC_CPUMODE_MASK of misc */
	u64 period;
	struct hist_key key;	/* the sample's key, without its chain */
	u64 nr_kernel;		/* the chain's kernel part, markers */
	const u64 *kernel;	/* included, up to PERF_CONTEXT_USER */
	u64 abi;		/* PERF_SAMPLE_REGS_ABI_* */
	u64 regs_mask;		/* attr.sample_regs_user */
	u32 nr_regs;
	const u64 *regs;	/* one value per bit of regs_mask */
	u64 stack_size;		/* bytes copied (stack_dyn_size) */
	const void *stack;	/* from the user sp upwards */
	u64 time;		/* the sample's (--off-cpu's switch-outs) */
	u8 state;		/* a switch-out's thread state, 0: unknown */
};

struct session_unwinder {
	int (*queue)(void *ctx, const struct unwind_req *req);
	void (*flush)(void *ctx);
	void *ctx;
};

/* Installs (u) or removes (NULL) the unwinder; locked by the caller.
 * Not one of the source's ops: symbols/unwind.c installs itself on any
 * session (the live one, a recording's, the baseline's) for its own
 * lifetime, beside whichever source feeds it. */
void session__set_unwinder(struct session *s,
			   const struct session_unwinder *u);
/* Adds a request's sample with its user frames (pcs[0] the sampled user
 * pc, then return addresses, as an unwinder finds them; nr 0: none),
 * building the chain exactly as for a kernel-provided one.  Locked. */
int session__add_unwound(struct session *s, const struct unwind_req *req,
			 const u64 *pcs, size_t nr);
/* Waits until every request an unwinder took is in the histograms;
 * called without the lock.  A no-op without an unwinder. */
void session__flush(struct session *s);

/*
 * Frame-pointer chains with stack copies (-g; record__attr_fixes): the
 * kernel's walk begins at rbp and skips the callers of functions that set
 * up no frame there.  For each such sample the fixer, installed here,
 * gives the return addresses to insert after the chain's first user entry
 * (into out, at most SESSION_FIX_MAX) and returns an enum fp_fix; it is
 * called with the session locked, on the thread that processes the
 * sample (the ring reader's: it must not wait for files), with the
 * machine to find the process's maps in.  Without a fixer the chains
 * stay as the kernel gave them (counted as FP_FIX_NO_CFI).
 */
#define SESSION_FIX_MAX 32

struct fix_req {
	s32 pid;
	u64 abi;			/* PERF_SAMPLE_REGS_ABI_* */
	u64 regs_mask;			/* attr.sample_regs_user */
	u32 nr_regs;
	const u64 *regs;		/* one value per bit of regs_mask */
	const u8 *stack;		/* the copy of [sp, sp + stack_size) */
	u64 stack_size;			/* stack_dyn_size: what was copied */
	const u64 *user;		/* the chain's user part, leaf first */
	u64 nr_user;
};

typedef int (*session_fix_fn)(void *ctx, struct machine *m,
			      const struct fix_req *req, u64 *out, size_t max,
			      size_t *nr);
void session__set_fixer(struct session *s, session_fix_fn fn, void *ctx);

/*
 * -o (live): the recovered chains are written, not the copies they came
 * from.  With on, session__output(s, h) is what a writer takes for the
 * record h that session__process just took: h itself, or for a sample
 * of an event that fixes its chains, that sample with the chain the
 * histogram got and without its registers and stack copy (NULL: write
 * nothing, it did not decode); session__output_attr gives the attr the
 * file must describe event ev with.  Off (the default, and --keep-stacks),
 * both are h and the event's attr.  Locked by the caller.
 */
void session__set_write_fixed(struct session *s, bool on);
const struct perf_event_header *session__output(struct session *s,
						const struct perf_event_header *h);
void session__output_attr(const struct session *s, size_t ev,
			  struct perf_event_attr *attr);

/* The session's record counters (locked by the caller). */
const struct session_counts *session__counts(const struct session *s);

/* Counted by sources for what never reached session__process. */
void session__ring_dropped(struct session *s, u64 records, u64 bytes);

/* Refresh modes for the histograms, applied by session__refresh. */
enum hist_mode {
	HIST_CUMULATIVE,
	HIST_ZERO,		/* -z: each refresh starts from nothing */
	HIST_DECAY,		/* --decay: 7/8 each refresh, like perf top */
};

/* always: the entries of reaped processes are folded at every refresh
 * that reaps one, not only past fold_threshold entries; comm_too: their
 * comm becomes "[exited]" as well.  The live view sets them while no row
 * it shows depends on a pid or tid (and on the comm): the fold then
 * changes no row and a week of process churn costs what a minute does.
 * Called with the session locked. */
void session__fold_reaped(struct session *s, bool always, bool comm_too);

/* The start of the function holding (dso, addr), from what the front
 * end's symbols already hold (never a file read): true with *start. */
typedef bool (*session_func_fn)(void *ctx, const struct dso *dso, u64 addr,
				u64 *start);
/*
 * With fn (NULL: off), the entries of reaped processes (pid -1 once
 * folded) without a call chain, in a binary or the kernel, also lose
 * their address: each becomes its function's start, hist_key.whole set,
 * when fn knows the function (else it is asked again at a later fold).
 * Process churn then costs one entry per function its processes ran, not
 * one per address ever sampled.  For a front end that shows no
 * per-address detail of exited processes: annotate counts such entries
 * apart ("without their address"), rows show no inlined function for
 * them.  Called with the session locked; fn runs then.
 */
void session__fold_addrs(struct session *s, session_func_fn fn, void *ctx);
/*
 * The memory budget (live): when, at a refresh, the histograms and the
 * chains (session__bytes) hold more than bytes, their cold entries fold
 * until they hold at most half of it: the entries of at most 1 sample,
 * then 2, 4, ... lose their call chain (the chain's nodes no entry
 * names any more go) and, when fn knows their function (as for
 * session__fold_addrs), their address (the function's start,
 * hist_key.whole).  The hot entries keep their addresses and chains; the
 * session's counts say how many entries folded and how many chain nodes
 * went (the header tells it).  Between two refreshes the histograms can
 * pass the budget by what one refresh adds.  bytes 0: no budget (the
 * default).  Called with the session locked; fn runs at the refresh.
 */
void session__set_budget(struct session *s, size_t bytes, session_func_fn fn,
			 void *ctx);
/* Called by the front end after each snapshot (locked): applies the
 * mode, advances the machine's clock, reaps exited processes, folds
 * cold entries past the memory budget. */
void session__refresh(struct session *s, enum hist_mode mode);

/*
 * For the timeline (src/core/timeline.h), locked by the caller: what
 * event ev's histogram took since the last take (hist__take), its
 * layout (hist__layout), the nodes its keys' chains name, and the fold
 * of a reaped process's key as session__refresh would fold it now
 * (true if k changed: the timeline folds what it keeps the same way).
 */
int session__take(struct session *s, size_t ev, hist_take_fn fn, void *ctx);
u64 session__hist_layout(const struct session *s, size_t ev);
/* The session's chain nodes [0, *nr) (for cc_walk): valid until the
 * next sample or refresh (locked by the caller). */
const struct cc_node *session__chains(const struct session *s, size_t *nr);
u64 session__chains_epoch(const struct session *s);
bool session__fold_key(struct session *s, size_t ev, struct hist_key *k);
/* Moves when a refresh reaps a process: until it does, no key folds. */
u64 session__reap_gen(const struct session *s);

struct snapshot {
	size_t ev;
	struct hist_entry *entries;	/* copy: no lock needed to read */
	size_t nr, cap;
	u64 total_samples, total_period;	/* in the histogram */
	/* The idle task's (pid 0, hist_key.idle) entries are the last
	 * nr_idle of entries; their share of the totals above. */
	size_t nr_idle;
	u64 idle_samples, idle_period;
	struct ev_counts counts;		/* since the start */
	/* Samples lost, each loss once (counts.lost and .lost_samples
	 * can tell the same loss twice: see session__lost_once). */
	u64 lost;
	struct ev_counts *cpu_counts;		/* [nr_cpus] */
	size_t nr_cpus;
	struct session_counts session;
	u64 first_time, last_time;	/* sample timestamps seen (ns) */
	size_t nr_procs, nr_threads, nr_dsos;
	bool kernel_samples;		/* any sample in kernel mode */
	/* the call chains hist_key.chain refers to (a copy) */
	struct cc_node *chains;
	size_t nr_chains, cap_chains;
	/* whose chains, and how many times they were forgotten: while both
	 * stay, a later snapshot's nodes [0, nr_chains) are these ones */
	const void *chains_owner;
	u64 chains_epoch;
};

/* The callers of an entry's chain (hist_key.chain) in snap's copy of
 * the chains, innermost first (cc_walk__next gives them): the one walk
 * every reader of the paths uses. */
static inline void snapshot__callers(struct cc_walk *w,
				     const struct snapshot *snap, u32 chain)
{
	cc_walk__callers(w, snap->chains, snap->nr_chains, chain);
}

void snapshot__init(struct snapshot *snap);
void snapshot__fini(struct snapshot *snap);
size_t snapshot__bytes(const struct snapshot *snap);
/* dst (initialized) becomes a copy of src that owns its arrays: a frozen
 * baseline.  0 or -ENOMEM (dst then empty). */
int snapshot__copy(struct snapshot *dst, const struct snapshot *src);
/* Moves the idle task's entries (hist_key.idle) behind the others, in
 * order, and sums them (nr_idle, idle_samples, idle_period), as every
 * snapshot has them: 0 or -ENOMEM. */
int snapshot__put_idle_last(struct snapshot *snap);
/* Copies event ev's histogram and counters (locked by the caller). */
int session__snapshot(struct session *s, size_t ev, struct snapshot *snap);
/* The same, and with fn a take of the histogram in the same pass
 * (session__take, hist__copy_take): the take's 0 or -errno in
 * *take_err. */
int session__snapshot_take(struct session *s, size_t ev, struct snapshot *snap,
			   hist_take_fn fn, void *ctx, int *take_err);
/*
 * The rows a table shows leave idle out by default ("idle is not work"):
 * view becomes snap without the idle entries (the prefix of its entries)
 * and with totals of the rest, so that shares are of the work done.
 * view shares snap's arrays: it lives no longer than snap's contents
 * and is never passed to snapshot__fini.
 */
void snapshot__without_idle(const struct snapshot *snap,
			    struct snapshot *view);

/* Process and dso information for views (locked by the caller). */
struct machine *session__machine(struct session *s);
struct dsos *session__dsos(struct session *s);
struct strpool *session__strings(struct session *s);

#endif
