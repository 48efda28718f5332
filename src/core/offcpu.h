/* offcpu: where threads wait (pure): each thread's last switch-out (its
 * time and call chain, from a sched:sched_switch sample) until it comes
 * back on a CPU (a PERF_RECORD_SWITCH in), when the time in between is
 * charged to that chain; threads still away are charged up to a refresh
 * and again from there.  Preempted threads (switched out runnable, state
 * R) were not blocked: their time is flagged (wall-clock time counts it,
 * off-CPU time does not). */
#ifndef PTOP_OFFCPU_H
#define PTOP_OFFCPU_H

#include "src/core/callchain.h"
#include "src/core/hist.h"
#include "src/core/util.h"

/* A chain frame, kept across chain resets: (dso, addr) as interned. */
struct offcpu_frame {
	const struct dso *dso;
	u64 addr;
};

struct offcpu_wait {
	struct hist_key key;	/* of the switch-out sample; its chain, or
				 * 0 when the chains were reset since (then
				 * frames holds it) */
	const struct offcpu_frame *frames;	/* leaf first */
	size_t nr_frames;
	int cpu;
	u64 ns;			/* to charge */
	bool preempted;		/* runnable all along, not waiting: only
				 * wall-clock time (--wall) counts it */
};

struct offcpu;

struct offcpu *offcpu__new(void);
void offcpu__free(struct offcpu *o);

/* Thread tid went off CPU at time: the key (chain included) of its
 * sched_switch sample.  0 or -ENOMEM. */
int offcpu__out(struct offcpu *o, u32 tid, u64 time, const struct hist_key *key,
		int cpu);
/* Before the interned chains are reset: every waiting thread's chain
 * becomes frames (frames_of fills at most max, leaf first, and returns
 * how many), its key's chain 0.  0 or -ENOMEM. */
int offcpu__keep_frames(struct offcpu *o,
			size_t (*frames_of)(void *ctx, u32 chain,
					    struct offcpu_frame *out, size_t max),
			void *ctx);
/* Its switch-out was a preemption: not a wait (w->preempted). */
void offcpu__preempted(struct offcpu *o, u32 tid);
/* Thread tid is back at time: true with *w filled when it was out since
 * a switch-out (w->ns may be 0); the frames stay valid until the next
 * call for tid. */
bool offcpu__in(struct offcpu *o, u32 tid, u64 time, struct offcpu_wait *w);
/* Records were lost: any thread's switch in may be among them, so no
 * wait is known to go on; each is dropped uncharged (counting less, and
 * the loss is shown, rather than charging a thread that runs again). */
void offcpu__forget_all(struct offcpu *o);
/* The thread is gone: forgets it. */
void offcpu__exit(struct offcpu *o, u32 tid);
/* Every thread still waiting, charged up to now (and from now on only
 * the rest): fn for each with w->ns > 0. */
void offcpu__charge(struct offcpu *o, u64 now,
		    void (*fn)(void *ctx, const struct offcpu_wait *w),
		    void *ctx);
/* Threads waiting now. */
size_t offcpu__nr_waiting(const struct offcpu *o);

#endif
