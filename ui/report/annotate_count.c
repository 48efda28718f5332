/* annotate_count: a snapshot's samples in an annotated function, per
 * instruction and source line, and its hot instructions (pure). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/lru.h"
#include "ui/report/annotate.h"
#include "ui/report/annotate_internal.h"
#include "symbols/cslib.h"
#include "symbols/demangle.h"
#include "ui/report/sanitize.h"
#include "ui/report/table.h"
#include "symbols/srcfile.h"

long annotation__find_key(const struct annotation *a, u64 key)
{
	size_t lo = 0, hi = a->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->insns[mid].key <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (long)lo - 1 : -1;
}

static bool in_scope(const struct hist_entry *e, const struct ann_scope *sc)
{
	return !sc || ((!sc->has_pid || e->key.pid == sc->pid) &&
		       (!sc->has_tid || e->key.tid == sc->tid) &&
		       (!sc->has_comm || e->key.comm == sc->comm) &&
		       (!sc->has_cpu || e->key.cpu == sc->cpu) &&
		       (!sc->has_cgroup || e->key.cgroup == sc->cgroup) &&
		       (!sc->has_state || e->key.state == sc->state));
}

static bool in_function(const struct annotation *a, const struct dso *dso,
			u64 addr)
{
	return dso == a->dso && addr >= a->start && addr - a->start < a->size;
}

/* Where entry e counts in a's function: its own address, or with chains
 * its innermost frame there (a caller's frames are the calls: return
 * addresses less one). */
static bool entry_at(const struct annotation *a, const struct snapshot *snap,
		     const struct hist_entry *e, bool chains, u64 *at)
{
	const struct cc_node *nd;
	struct cc_walk w;

	if (in_function(a, e->key.dso, e->key.addr)) {
		*at = e->key.addr;
		return true;
	}
	if (!chains)
		return false;
	/* the callers (the chain's leaf is the sample's own address) */
	snapshot__callers(&w, snap, e->key.chain);
	while ((nd = cc_walk__next(&w))) {
		if (in_function(a, nd->dso, nd->addr)) {
			*at = nd->addr;
			return true;
		}
	}
	return false;
}

void annotation__count(struct annotation *a, const struct snapshot *snap)
{
	annotation__count_scope(a, snap, NULL);
}

void annotation__count_scope(struct annotation *a,
			     const struct snapshot *snap,
			     const struct ann_scope *scope)
{
	a->samples = a->period = 0;
	a->folded_samples = a->folded_period = a->folded_live = 0;
	for (size_t i = 0; i < a->nr; i++)
		a->insns[i].samples = a->insns[i].period = 0;
	for (size_t i = 0; i < a->nr_srcs; i++)
		a->srcs[i].samples = a->srcs[i].period = 0;
	a->total_samples = snap ? snap->total_samples : 0;
	a->total_period = snap ? snap->total_period : 0;
	if (!snap || !a->nr)
		return;
	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		struct ann_insn *ai;
		long k;
		u64 at;

		if (e->key.whole) {
			/* in the function, at no instruction of it */
			if (in_function(a, e->key.dso, e->key.addr) &&
			    in_scope(e, scope)) {
				a->folded_samples += e->samples;
				a->folded_period += e->period;
				if (e->key.pid != -1)
					a->folded_live += e->samples;
			}
			continue;
		}
		if (!entry_at(a, snap, e, scope && scope->chains, &at) ||
		    !in_scope(e, scope))
			continue;
		/* a sample inside an instruction (a skid, a stale
		 * mapping) counts for the instruction holding it */
		k = annotation__find_key(a, at);
		if (k < 0)
			continue;
		ai = &a->insns[k];
		ai->samples += e->samples;
		ai->period += e->period;
		a->samples += e->samples;
		a->period += e->period;
		if (ai->src >= 0) {
			a->srcs[ai->src].samples += e->samples;
			a->srcs[ai->src].period += e->period;
		}
	}
}

double annotation__percent(const struct annotation *a, u64 samples,
			   u64 period)
{
	return share_percent(period, samples, a->period, a->samples);
}

static u64 weight(const struct annotation *a, const struct ann_insn *ai)
{
	return a->period ? ai->period : ai->samples;
}

long annotation__hottest(const struct annotation *a)
{
	long best = -1;

	for (size_t i = 0; i < a->nr; i++)
		if (a->insns[i].samples &&
		    (best < 0 || weight(a, &a->insns[i]) >
					 weight(a, &a->insns[best])))
			best = (long)i;
	return best;
}

static int hot_cmp(const void *x, const void *y, void *ctx)
{
	const struct annotation *hot_ctx = ctx;
	u32 i = *(const u32 *)x, j = *(const u32 *)y;
	u64 wi = weight(hot_ctx, &hot_ctx->insns[i]);
	u64 wj = weight(hot_ctx, &hot_ctx->insns[j]);

	if (wi != wj)
		return wi > wj ? -1 : 1;
	return i < j ? -1 : 1;
}

size_t annotation__hot_order(const struct annotation *a, u32 **idx)
{
	size_t n = 0;
	u32 *v;

	*idx = NULL;
	for (size_t i = 0; i < a->nr; i++)
		n += a->insns[i].samples != 0;
	if (!n)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return 0;
	n = 0;
	for (size_t i = 0; i < a->nr; i++)
		if (a->insns[i].samples)
			v[n++] = (u32)i;
	qsort_r(v, n, sizeof(*v), hot_cmp, (void *)(uintptr_t)a);
	*idx = v;
	return n;
}

u64 annotation__insn_vaddr(const struct annotation *a, size_t i)
{
	const struct insn *in = disasm__at(a->dis, i);

	return in ? in->addr : 0;
}
