/* session_fix: -g's recovered chains in the session (the fixer's
 * answers spliced into the kernel's chain, counted) and the records -o
 * writes of them (session.h, session_fixer). */
#include <stdlib.h>
#include <string.h>

#include "src/core/session_internal.h"

void session__set_fixer(struct session *s, session_fix_fn fn, void *ctx)
{
	s->fix_fn = fn;
	s->fix_ctx = ctx;
}

/* A frame-pointer chain with a stack copy (session_internal.h). */
const u64 *session__fix(struct session *s, struct session_event *e,
			const struct perf_sample *smp, int cpu, u64 *nr)
{
	const struct perf_sample_ext *x = smp->ext;
	const u64 *cc = smp->callchain;
	u64 out[SESSION_FIX_MAX];
	struct fix_req req;
	size_t ins = 0;
	u64 k = 0;
	int how;

	*nr = smp->callchain_nr;
	/* no registers: a kernel thread, no user part to fix */
	if (!x || !x->user_abi)
		return cc;
	COUNT(e, cpu, fp_copies, 1);
	while (k < *nr && cc[k] != (u64)PERF_CONTEXT_USER)
		k++;
	memset(&req, 0, sizeof(req));
	req.pid = (s32)smp->pid;
	req.abi = x->user_abi;
	req.regs_mask = e->attr.sample_regs_user;
	req.nr_regs = x->user_regs_nr;
	req.regs = x->user_regs;
	req.stack = x->stack_data;
	req.stack_size = x->stack_size ? x->stack_dyn_size : 0;
	if (req.stack_size > x->stack_size)
		req.stack_size = x->stack_size;
	if (k < *nr) {
		req.user = cc + k + 1;
		req.nr_user = *nr - k - 1;
	}
	how = s->fix_fn ? s->fix_fn(s->fix_ctx, s->machine, &req, out,
				    ARRAY_SIZE(out), &ins) :
			  FP_FIX_NO_CFI;
	if (how < 0 || how >= FP_FIX_NR)
		how = FP_FIX_BAD;
	s->counts.fp_fix[how]++;
	if (how != FP_FIX_TIED)
		return cc;
	COUNT(e, cpu, fp_tied, 1);
	if (!ins || ins > ARRAY_SIZE(out) || !req.nr_user)
		return cc;
	if (array__grow((void **)&s->fix_chain, &s->cap_fix_chain,
			(size_t)*nr + ins, sizeof(*s->fix_chain)))
		return cc;
	/* the kernel's part, the marker and the ip; the callers; the rest
	 * of the kernel's walk */
	memcpy(s->fix_chain, cc, (size_t)(k + 2) * 8);
	memcpy(s->fix_chain + k + 2, out, ins * 8);
	memcpy(s->fix_chain + k + 2 + ins, cc + k + 2,
	       (size_t)(*nr - k - 2) * 8);
	*nr += ins;
	COUNT(e, cpu, fp_inserted, 1);
	COUNT(e, cpu, fp_frames, ins);
	return s->fix_chain;
}

#define OUT_MAX 65536

/* -o: the sample h as written, with chain (see session__output). */
void session__rewrite(struct session *s, const struct session_event *e,
		      const struct perf_event_header *h, const u64 *chain,
		      u64 nr)
{
	if (!s->out_buf)
		s->out_buf = malloc(OUT_MAX);
	if (s->out_buf &&
	    record__rewrite_chain(&e->attr, h, chain, nr, s->out_buf,
				  OUT_MAX) > 0)
		s->out_for = h;
}

void session__set_write_fixed(struct session *s, bool on)
{
	s->write_fixed = on;
}

const struct perf_event_header *session__output(struct session *s,
						const struct perf_event_header *h)
{
	const struct session_event *e;

	if (!s->write_fixed || h->type != PERF_RECORD_SAMPLE)
		return h;
	e = session__event_of(s, h);
	if (!e || !record__attr_fixes(&e->attr))
		return h;
	return s->out_for == h ? (const struct perf_event_header *)s->out_buf :
				 NULL;
}

void session__output_attr(const struct session *s, size_t ev,
			  struct perf_event_attr *attr)
{
	*attr = s->events[ev].attr;
	if (s->write_fixed && record__attr_fixes(attr))
		record__attr_strip(attr);
}
