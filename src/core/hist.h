/* hist: the aggregation hash of one event (pure); snapshots for views. */
#ifndef PTOP_HIST_H
#define PTOP_HIST_H

#include "src/core/dso.h"
#include "src/core/util.h"

/*
 * The key is address-level so that every view (symbol rows, annotate,
 * any sort order) is derived at display time:
 *   file-backed code  (dso identity = build-id when known, file offset)
 *   anon/JIT code     (per-pid anon dso, ip)
 *   kernel            (kernel dso, ip)
 * plus the fields the session keeps (pid, tid, comm, cpu, cgroup: see
 * session_opts.key_fields; the others stay zero), whether the sample is
 * the idle task's, and, with call graphs, the interned chain.  A
 * fixed-size, zeroed struct compared with memcmp.
 */
struct hist_key {
	const struct dso *dso;	/* never NULL */
	u64 addr;
	const char *comm;	/* interned */
	s32 pid, tid;
	s16 cpu;
	/* 1: a sample of the idle task (pid 0), whatever fields are kept,
	 * so that views can leave idle out without KEY_PID */
	u8 idle : 1;
	/* 1: addr is the start of the function the samples were in, their
	 * own addresses not kept (exited processes' entries folded by
	 * session__fold_addrs): no instruction, line or inlined frame of
	 * their own */
	u8 whole : 1;
	/* an off-CPU wait's thread state at its switch-out (KEY_STATE):
	 * offcpu.h's letters ('S', 'D', 'R' preempted, ...), 0 on CPU */
	u8 state;
	u32 chain;		/* leaf node of the call chain (callchain.h),
				 * 0: none */
	const char *cgroup;	/* interned path (KEY_CGROUP); NULL:
				 * unknown */
};

struct hist_entry {
	struct hist_key key;
	u64 samples;
	u64 period;
};

struct hist;

struct hist *hist__new(void);
void hist__free(struct hist *h);

/* Adds one sample.  Allocation happens only when the table grows (before
 * it gets crowded: load <= 3/4), never per sample.  -ENOMEM: the sample
 * was not added (the caller counts it as dropped). */
int hist__add(struct hist *h, const struct hist_key *key, u64 period);

/* perf top's decay: every entry's samples and period times 7/8; entries
 * that reach zero are removed. */
void hist__decay(struct hist *h);
void hist__zero(struct hist *h);

size_t hist__nr_entries(const struct hist *h);
u64 hist__total_samples(const struct hist *h);
u64 hist__total_period(const struct hist *h);
size_t hist__bytes(const struct hist *h);

/* Copies the entries (compacted, in table order) into *out, growing it;
 * returns the count or -ENOMEM. */
long hist__copy(const struct hist *h, struct hist_entry **out, size_t *cap);

/* Rewrites every key with fn (may merge entries whose new keys are
 * equal): used to fold the entries of reaped threads.  fn returns true
 * if it changed the key. */
int hist__rekey(struct hist *h, bool (*fn)(struct hist_key *k, void *ctx),
		void *ctx);
/* The same for the entries that hold at most max samples alone (the
 * memory budget's fold of cold entries). */
int hist__rekey_cold(struct hist *h, u64 max,
		     bool (*fn)(struct hist_key *k, void *ctx), void *ctx);
/* Gives back what a table that lost entries (a fold) holds beyond them:
 * the index, the entries and the marks shrink to fit (the index at most
 * half full), so that hist__bytes is what the entries need. */
void hist__shrink(struct hist *h);

/*
 * Takes: what came since the last take, entry by entry, for the timeline
 * (src/core/timeline.h).  The marks (what each entry held at the last
 * take) live beside the entries, so hist__add never touches them: the
 * per-sample path is unchanged, a take costs one pass over the entries.
 *
 *   hist__take(h, fn, ctx)   fn(ctx, i, entry, samples, period) for each
 *                            entry i that grew since the last take; the
 *                            marks move up to the entries
 *   hist__layout(h)          changes when entries move, merge or go
 *                            (decay, rekey, zero): an index a caller kept
 *                            for entry i is then stale
 *
 * Decay, rekey and zero set the marks to what the entries hold after
 * them: a take must come right before them (table__snapshot does), or
 * what came since the last take is not seen by the next one.
 */
typedef int (*hist_take_fn)(void *ctx, size_t i, const struct hist_entry *e,
			    u64 samples, u64 period);
int hist__take(struct hist *h, hist_take_fn fn, void *ctx);
/* hist__copy and, with fn, hist__take in the same pass (block by block,
 * while the entries are in the cache): the count or -ENOMEM; the take's
 * 0 or -errno in *take_err (what it did not take comes next time). */
long hist__copy_take(struct hist *h, struct hist_entry **out, size_t *cap,
		     hist_take_fn fn, void *ctx, int *take_err);
u64 hist__layout(const struct hist *h);

/* The entry number of key, a zeroed entry added if it had none (a
 * dictionary of keys: the timeline's); -ENOMEM.  Entry numbers stay
 * while nothing decays, rekeys or zeroes the histogram. */
long hist__intern(struct hist *h, const struct hist_key *key);
/* Entry i (NULL past the end). */
const struct hist_entry *hist__entry(const struct hist *h, size_t i);

/* Debug consistency check (tests): every entry findable, counts and
 * totals add up.  0 or -EINVAL. */
int hist__check(const struct hist *h);

#endif
