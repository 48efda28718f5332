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
	u8 state;		/* at the switch-out (offcpu__state_of), 0:
				 * unknown */
};

/*
 * A thread's state at its switch-out, as ps writes it: 'S' sleeping
 * (interruptible), 'D' uninterruptible (disk), 'T' stopped, 't' traced,
 * 'X' dead, 'Z' zombie, 'P' parked, 'I' idle (a kernel thread), 'R'
 * runnable (preempted or yielding: not a wait).  From sched_switch's
 * prev_state: its lowest bit set among the report bits, none is 'R'
 * (a bit above them is the kernel's preemption mark).
 */
u8 offcpu__state_of(u64 prev_state);
/* A word for a state letter ("sleeping", ...); 0: "running" (on CPU),
 * an unknown letter "unknown". */
const char *offcpu__state_name(u8 state);
/*
 * Where sched:sched_switch's prev_state is in its raw sample: the field
 * of the event's tracefs format ("field:long prev_state;\toffset:32;\t
 * size:8;"), found in text, a format file or perf.data's tracing data
 * (every format, binary in between: the one after "name: sched_switch").
 * 0, or -ENOENT when text has no such field (or an odd size).
 */
int offcpu__state_field(const void *text, size_t len, u32 *offset,
			u32 *size);

struct offcpu;

struct offcpu *offcpu__new(void);
void offcpu__free(struct offcpu *o);

/* Thread tid went off CPU at time: the key (chain included) of its
 * sched_switch sample, its state (0: unknown; 'R' is a preemption).
 * 0 or -ENOMEM. */
int offcpu__out(struct offcpu *o, u32 tid, u64 time, const struct hist_key *key,
		int cpu, u8 state);
/* Before the interned chains are reset: every waiting thread's chain
 * becomes frames (frames_of fills at most max, leaf first, and returns
 * how many), its key's chain 0.  0 or -ENOMEM. */
int offcpu__keep_frames(struct offcpu *o,
			size_t (*frames_of)(void *ctx, u32 chain,
					    struct offcpu_frame *out, size_t max),
			void *ctx);
/* Its switch-out was a preemption: not a wait (w->preempted, state
 * 'R'). */
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
