/* header: the summary lines above every table (batch and TUI). */
#include <inttypes.h>
#include <stdio.h>

#include "ui/report/fmt.h"
#include "ui/report/header.h"
#include "ui/report/sanitize.h"

double header__kernel_share(const struct snapshot *snap, bool idle)
{
	/* idle entries are the last nr_idle (session__snapshot) */
	size_t nr = idle ? snap->nr : snap->nr - snap->nr_idle;
	u64 total = idle ? snap->total_period :
			   snap->total_period - snap->idle_period;
	u64 k = 0;

	if (!total)
		return 0.0;
	for (size_t i = 0; i < nr; i++)
		if (snap->entries[i].key.dso->kind == DSO_KERNEL)
			k += snap->entries[i].period;
	return 100.0 * (double)k / (double)total;
}

double header__idle_share(const struct snapshot *snap)
{
	return share_percent(snap->idle_period, snap->idle_samples,
			     snap->total_period, snap->total_samples);
}

u64 header__lost(const struct snapshot *snap)
{
	return snap->lost;
}

u64 header__dropped(const struct snapshot *snap)
{
	return snap->counts.dropped + snap->session.ring_dropped +
	       snap->session.unknown_id;
}

double header__span(const struct snapshot *snap)
{
	if (snap->last_time > snap->first_time)
		return (double)(snap->last_time - snap->first_time) / 1e9;
	return 0.0;
}

/* The first line's target and what follows it (the elapsed time, the
 * state), the target's start cut when hi->width is too narrow for all
 * of the line from line on (at least 16 columns of it are kept). */
static void header__target(struct strbuf *sb, const struct header_info *hi,
			   size_t line)
{
	struct strbuf target, tail;
	size_t used, tw, rest;

	strbuf__init(&target);
	strbuf__init(&tail);
	sanitize_str(&target, hi->target);
	strbuf__addf(&tail, "; elapsed %.1f s", hi->elapsed);
	if (hi->finished)
		strbuf__adds(&tail, "; finished");
	if (hi->paused)
		strbuf__adds(&tail, "; PAUSED");
	if (hi->zeroing)
		strbuf__adds(&tail, "; zeroing");
	if (hi->decaying)
		strbuf__adds(&tail, "; decaying");
	used = display_width(sb->buf + line, sb->len - line);
	tw = display_width(target.buf, target.len);
	rest = display_width(tail.buf, tail.len);
	if (hi->width && used + tw + rest > hi->width)
		fit_width(sb, target.buf ? target.buf : "",
			  MAX(hi->width > used + rest ? hi->width - used - rest
						      : 0, (size_t)16),
			  false, true);
	else if (target.len)
		strbuf__add(sb, target.buf, target.len);
	strbuf__add(sb, tail.buf, tail.len);
	strbuf__fini(&target);
	strbuf__fini(&tail);
}

void header__format(struct strbuf *sb, const struct header_info *hi,
		    const struct snapshot *snap, const char *prefix)
{
	double rate = hi->window > 0 ? (double)hi->window_samples / hi->window
				     : 0.0;
	u64 lost = header__lost(snap), dropped = header__dropped(snap);

	size_t line = sb->len;

	strbuf__adds(sb, prefix);
	strbuf__adds(sb, "event ");
	sanitize_str(sb, hi->event);
	if (hi->time) {
		strbuf__adds(sb, hi->wall ? ", on and off CPU " : ", waits ");
		fmt__duration(sb, snap->counts.period);
	} else if (hi->freq)
		strbuf__addf(sb, ", %" PRIu64 " Hz", hi->freq);
	else if (hi->period)
		strbuf__addf(sb, ", period %" PRIu64, hi->period);
	if (hi->nr_events > 1)
		strbuf__addf(sb, " [%zu/%zu]", hi->ev_index + 1, hi->nr_events);
	strbuf__adds(sb, "; target ");
	header__target(sb, hi, line);
	strbuf__addc(sb, '\n');

	strbuf__adds(sb, prefix);
	strbuf__addf(sb, "samples %" PRIu64, snap->total_samples);
	if (hi->window > 0)
		strbuf__addf(sb, " (%.0f/s)", rate);
	strbuf__addf(sb, ", total %" PRIu64, snap->counts.samples);
	/* the samples above stay every sample; the rows' shares are of the
	 * rest unless idle is shown */
	if (snap->idle_samples)
		strbuf__addf(sb, "; idle %.1f%%%s", header__idle_share(snap),
			     hi->show_idle ? " (rows shown)" : "");
	strbuf__addf(sb, "; lost %" PRIu64 "; throttled %" PRIu64
			 "; dropped %" PRIu64 "; kernel %.1f%%",
		     lost, snap->counts.throttle, dropped,
		     header__kernel_share(snap, hi->show_idle));
	strbuf__addc(sb, '\n');
	if (lost && hi->recording) {
		strbuf__adds(sb, prefix);
		strbuf__addf(sb, "WARNING: %" PRIu64 " sample%s lost by the "
				 "recorder (its ring buffers were full when it "
				 "recorded): record with a larger -m or a lower "
				 "-F\n", lost, PLURAL(lost));
	} else if (lost) {
		strbuf__adds(sb, prefix);
		strbuf__addf(sb, "WARNING: %" PRIu64 " record%s lost: ptop was "
				 "too slow to read the ring buffers; try a larger "
				 "-m or a lower -F\n", lost, PLURAL(lost));
	}
	if (hi->pushing) {
		strbuf__adds(sb, prefix);
		strbuf__addf(sb, "push: %" PRIu64 " profile%s sent, %" PRIu64
				 " dropped, %" PRIu64 " waiting", hi->pushed,
			     PLURAL(hi->pushed), hi->push_dropped,
			     hi->push_waiting);
		/* nothing delivered yet is not "0 dropped" and all is well */
		if (hi->push_silent >= 1)
			strbuf__addf(sb, "; no answer for %.0f s",
				     hi->push_silent);
		if (hi->push_unreachable) {
			strbuf__adds(sb, "; server unreachable: ");
			sanitize_str(sb, hi->push_error ? hi->push_error : "?");
		}
		strbuf__addc(sb, '\n');
	}
	if (snap->counts.unwind_failed) {
		strbuf__adds(sb, prefix);
		strbuf__addf(sb, "WARNING: %" PRIu64 " sample%s with a user "
				 "stack not unwound (the DWARF unwinder fell "
				 "behind, or 32-bit code): their user call "
				 "chains are missing; try a lower -F or a "
				 "smaller --call-graph dwarf,SIZE\n",
			     snap->counts.unwind_failed,
			     PLURAL(snap->counts.unwind_failed));
	}
	if (snap->counts.fp_copies) {
		const u64 *why = snap->session.fp_fix;
		const struct ev_counts *c = &snap->counts;

		/* -g's recovery of the callers frame pointers lose */
		strbuf__adds(sb, prefix);
		strbuf__addf(sb, "chains: %.1f%% tied to a frame, %" PRIu64
				 " with callers put back (%" PRIu64
				 " frames); not tied: rbp not a frame pointer "
				 "%" PRIu64 ", copy short %" PRIu64
				 ", no CFI %" PRIu64 ", CFI not read yet %"
				 PRIu64 "\n",
			     100.0 * (double)c->fp_tied / (double)c->fp_copies,
			     c->fp_inserted, c->fp_frames,
			     why[FP_FIX_NO_MATCH] + why[FP_FIX_RBP] +
				     why[FP_FIX_BAD] + why[FP_FIX_NO_IP],
			     why[FP_FIX_SHORT], why[FP_FIX_NO_CFI],
			     why[FP_FIX_UNREADY]);
	}
	if (snap->session.budget_folds) {
		const struct session_counts *sc = &snap->session;

		/* the memory budget's folds (session__set_budget) */
		strbuf__adds(sb, prefix);
		strbuf__addf(sb, "memory budget: %" PRIu64 " cold entr%s folded "
				 "to %s, %s dropped (%" PRIu64
				 " chain node%s)\n",
			     sc->budget_entries,
			     sc->budget_entries == 1 ? "y" : "ies",
			     sc->budget_entries == 1 ? "its function" :
						       "their functions",
			     sc->budget_entries == 1 ? "its chain" :
						       "their chains",
			     sc->budget_nodes, PLURAL(sc->budget_nodes));
	}
	if (snap->counts.throttle) {
		strbuf__adds(sb, prefix);
		strbuf__addf(sb, "WARNING: the kernel throttled sampling %" PRIu64
				 " time%s: the rate is over "
				 "kernel.perf_event_max_sample_rate; try a lower "
				 "-F\n", snap->counts.throttle,
			     PLURAL(snap->counts.throttle));
	}
	if (hi->baseline && hi->base_snap) {
		const struct snapshot *b = hi->base_snap;

		strbuf__adds(sb, prefix);
		strbuf__adds(sb, "baseline ");
		sanitize_str(sb, hi->baseline);
		strbuf__addf(sb, ": %" PRIu64 " sample%s", b->total_samples,
			     PLURAL(b->total_samples));
		if (hi->base_span > 0)
			strbuf__addf(sb, " over %.1f s", hi->base_span);
		strbuf__addf(sb, "; now %" PRIu64 " sample%s",
			     snap->total_samples, PLURAL(snap->total_samples));
		if (hi->recording)
			strbuf__addf(sb, " over %.1f s", hi->elapsed);
		strbuf__adds(sb, "; Delta = now - baseline, in points\n");
	}
	if (hi->time_line && *hi->time_line) {
		strbuf__adds(sb, prefix);
		sanitize_str(sb, hi->time_line);
		strbuf__addc(sb, '\n');
	}
	if (hi->filters && *hi->filters) {
		strbuf__adds(sb, prefix);
		strbuf__adds(sb, "filters: ");
		sanitize_str(sb, hi->filters);
		strbuf__addc(sb, '\n');
	}
	if (hi->note && *hi->note) {
		strbuf__adds(sb, prefix);
		sanitize_str(sb, hi->note);
		strbuf__addc(sb, '\n');
	}
}
