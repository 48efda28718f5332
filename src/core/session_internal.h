/* session_internal: what the files of the session share (session.c,
 * session_events.c, session_fix.c, session_offcpu.c, snapshot.c): its
 * state and the functions they call across files. */
#ifndef PTOP_SESSION_INTERNAL_H
#define PTOP_SESSION_INTERNAL_H

#include <pthread.h>

#include "src/core/offcpu.h"
#include "src/core/record.h"
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
	struct intmap asked;	/* pids handed to src.unknown_pid */
	struct session_bid *bids;	/* perf.data build-id table */
	size_t nr_bids, cap_bids;
	struct intmap bid_index;	/* hash of path -> first entry + 1 */
	u64 events_gen;
	struct session_counts counts;
	u64 first_time, last_time;
	/* with --time: every sample's range, those cut included, and the
	 * first sample's time, which a relative window counts from */
	u64 all_first, all_last, rel_base;
	bool kernel_samples;
	bool lost_summary;	/* a recorder's LOST_SAMPLES summary came
				 * (see session__lost_once) */
	bool in_unknown_pid;
	struct intmap cgroups;	/* CGROUP record id -> interned path */
	/* session__set_source_ops; the dsos src.dso_sampled was called
	 * for (a bit per dso id) */
	struct session_source_ops src;
	void *src_ctx;
	u64 *dso_seen;
	size_t nr_dso_seen;
	struct session_unwinder unwinder;	/* queue NULL: none */
	/* -g with stack copies: the fixer, the chain it made, and -o's
	 * rewritten sample (out_for: the record it was made of) */
	session_fix_fn fix_fn;
	void *fix_ctx;
	u64 *fix_chain;
	size_t cap_fix_chain;
	bool write_fixed;
	u8 *out_buf;
	const struct perf_event_header *out_for;
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
	u64 reap_gen;		/* refreshes that reaped a process */
	/* session__set_budget */
	size_t budget;
	session_func_fn budget_fn;
	void *budget_ctx;
};


/* session.c */
void session__layout(struct session *s);
/* The counters of e's cpu (NULL: too many CPUs, no memory). */
struct ev_counts *session_event__cpu(struct session_event *e, u32 cpu);
/* Adds to the event's total and, when the cpu is known, its cpu's. */
#define COUNT(e, cpu, field, n)                                            \
	do {                                                               \
		struct ev_counts *c_ = (cpu) >= 0 ?                        \
			session_event__cpu((e), (u32)(cpu)) : NULL;        \
		(e)->counts.field += (n);                                  \
		if (c_)                                                    \
			c_->field += (n);                                  \
	} while (0)
int session__account(struct session_event *e, int cpu,
		     const struct hist_key *key, u64 period);
u64 session__lost_once(const struct session *s,
		       const struct session_event *e);

/* session_events.c */
const struct session_bid *session__find_bid(const struct session *s,
					    s32 pid, const char *path,
					    size_t len);
struct session_event *session__event_of(struct session *s,
					const struct perf_event_header *h);

/* session_fix.c */
/* A -g sample with a stack copy: its chain with the callers the kernel's
 * walk skipped (smp's own, or s->fix_chain), its length in *nr. */
const u64 *session__fix(struct session *s, struct session_event *e,
			const struct perf_sample *smp, int cpu, u64 *nr);
/* -o: sample h as written, with chain (session__output). */
void session__rewrite(struct session *s, const struct session_event *e,
		      const struct perf_event_header *h, const u64 *chain,
		      u64 nr);

/* session_offcpu.c */
/* offcpu's questions, answered from the session (ctx) */
size_t session__chain_frames(void *ctx, u32 chain, struct offcpu_frame *out,
			     size_t max);
void session__offcpu_charge_one(void *ctx, const struct offcpu_wait *w);
u8 session__switch_state(const struct session *s,
			 const struct perf_sample *smp);
void session__offcpu_out(struct session *s, u32 tid, u64 time,
			 const struct hist_key *key, int cpu, u8 state);
void session__id_init(struct perf_sample *id);
int session__switch(struct session *s, const struct perf_event_header *h);

#endif
