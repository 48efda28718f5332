/* actions_source: what the table's keys do to the source: the event
 * shown (Tab), the target (p), pausing (f), zeroing (z) and the refresh
 * delay ([ and ]). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/core/log.h"
#include "src/sys/clock.h"
#include "src/sys/synth.h"
#include "ui/report/sanitize.h"
#include "ui/tui/actions.h"
#include "ui/tui/tui_internal.h"

/* ---- events ---- */

enum act_result action__event(struct tui *t, int dir)
{
	size_t n = tui__nr_shown(t);
	struct strbuf sb;

	if (n < 2) {
		tui__status(t, ST_NORMAL,
			    "only one event is sampled: e adds one");
		return R_REDRAW;
	}
	t->ev_pos = (t->ev_pos + n + (size_t)(dir > 0 ? 1 : n - 1)) % n;
	strbuf__init(&sb);
	sanitize_str(&sb, tui__event_name(t));
	tui__status(t, ST_NORMAL, "showing %s (%zu/%zu)", sb.buf ? sb.buf : "",
		    t->ev_pos + 1, n);
	strbuf__fini(&sb);
	return R_REBUILD;
}

/* ---- target and time ---- */

enum act_result action__target(struct tui *t, int arg)
{
	(void)arg;
	if (!t->a->sampler) {
		tui__status(t, ST_ERROR, "no live source: nothing to attach");
		return R_REDRAW;
	}
	prompt__open(&t->prompt, PROMPT_TARGET,
		     "Attach to pid(s) or process name (empty: every CPU)",
		     NULL);
	tui__push(t, V_PROMPT);
	return R_REDRAW;
}

enum act_result actions__target_prompt(struct tui *t, const char *answer)
{
	struct app *a = t->a;
	const struct target *cur = sampler__target(a->sampler);
	struct target tg = { .kind = TARGET_SYSTEM, .cpus = cur->cpus };
	pid_t *pids = NULL;
	size_t nr = 0;
	struct strbuf sb, said;
	int err;

	strbuf__init(&sb);
	sanitize_str(&sb, answer);
	if (*answer) {
		struct strbuf why;

		/* what -p takes */
		strbuf__init(&why);
		err = synth__resolve_pids("/proc", answer, getpid(), &pids,
					  &nr, &why);
		if (err) {
			strbuf__reset(&sb);
			sanitize_str(&sb, why.buf ? why.buf : strerror(-err));
			strbuf__fini(&why);
			tui__status(t, ST_ERROR, "%s", sb.buf ? sb.buf : "");
			goto out;
		}
		strbuf__fini(&why);
		tg.kind = TARGET_PIDS;
	}
	tg.pids = pids;
	tg.nr_pids = nr;
	strbuf__init(&said);
	err = sampler__retarget(a->sampler, &tg, &said);
	if (err && said.buf)
		pr_err("%s", said.buf);	/* follows the status, as the log does */
	strbuf__fini(&said);
	if (err) {
		tui__status(t, ST_ERROR, "cannot attach to %s: %s",
			    *answer ? (sb.buf ? sb.buf : "") : "every CPU",
			    strerror(-err));
		goto out;
	}
	/* the header's words of the start (-C's list is kept) */
	app__describe_target(&tg, NULL, a->target_desc,
			     sizeof(a->target_desc));
	a->finished = false;
	a->note[0] = '\0';
	/* the table shows the new target only */
	table__zero_session(&t->table);
	t->next_refresh = clock__now() + 0.25;
	strbuf__reset(&sb);
	sanitize_str(&sb, a->target_desc);
	tui__status(t, ST_NORMAL, "attached to %s", sb.buf ? sb.buf : "");
out:
	free(pids);
	strbuf__fini(&sb);
	return R_REDRAW;
}

enum act_result action__pause(struct tui *t, int arg)
{
	struct sampler *sp = t->a->sampler;
	bool paused;
	int err;

	(void)arg;
	if (!sp) {
		tui__status(t, ST_ERROR, "no live source: nothing to pause");
		return R_REDRAW;
	}
	if (t->a->finished) {
		tui__status(t, ST_ERROR, "the target exited: nothing to pause");
		return R_REDRAW;
	}
	paused = !sampler__paused(sp);
	err = sampler__pause(sp, paused);
	if (err) {
		tui__status(t, ST_ERROR, "cannot %s: %s",
			    paused ? "pause" : "resume", strerror(-err));
		return R_REDRAW;
	}
	if (paused) {
		tui__status(t, ST_NORMAL,
			    "paused: the events are disabled (f resumes)");
	} else {
		tui__status(t, ST_NORMAL, "sampling again");
		t->next_refresh = clock__now() + 0.25;
	}
	return R_REDRAW;
}

enum act_result action__zero(struct tui *t, int arg)
{
	struct app *a = t->a;

	(void)arg;
	if (a->mode == HIST_ZERO) {
		a->mode = t->live_mode;
		tui__status(t, ST_NORMAL, "accumulating samples (%s)",
			    a->mode == HIST_DECAY ? "decaying" : "cumulative");
	} else {
		t->live_mode = a->mode;
		a->mode = HIST_ZERO;
		tui__status(t, ST_NORMAL, "zeroing at every refresh");
	}
	return R_REDRAW;
}

double actions__delay_step(double delay, int dir)
{
	static const double steps[] = {
		0.1, 0.2, 0.5, 1, 2, 3, 5, 10, 20, 30, 60,
	};
	size_t n = ARRAY_SIZE(steps);

	if (dir > 0) {
		for (size_t i = 0; i < n; i++)
			if (steps[i] > delay + 1e-9)
				return steps[i];
		return steps[n - 1];
	}
	for (size_t i = n; i-- > 0;)
		if (steps[i] < delay - 1e-9)
			return steps[i];
	return delay < steps[0] ? delay : steps[0];
}

enum act_result action__delay(struct tui *t, int dir)
{
	t->a->delay = actions__delay_step(t->a->delay, dir);
	t->next_refresh = t->refresh.last + t->a->delay;
	tui__status(t, ST_NORMAL, "refreshing every %g s", t->a->delay);
	return R_REDRAW;
}
