/* header: the summary lines above every table (batch and TUI). */
#ifndef PTOP_HEADER_H
#define PTOP_HEADER_H

#include "src/core/session.h"
#include "src/core/util.h"

struct header_info {
	const char *target;	/* "all CPUs", "pid 1234 (name)", ... */
	const char *event;
	u64 freq, period;	/* -F or -c of the event, 0: unknown */
	double elapsed;		/* seconds since the start */
	double window;		/* seconds since the previous refresh */
	u64 window_samples;	/* samples read in that window */
	bool paused, zeroing, decaying, finished;
	const char *filters;	/* active filters, or NULL */
	const char *note;	/* e.g. "process 1234 exited", or NULL */
	bool show_idle;		/* the idle task's samples are rows */
	bool recording;		/* a perf.data file or stream: losses
				 * are the recorder's, not ptop's */
	size_t ev_index, nr_events;
	/* compare: what the rows are compared with (the file, or when the
	 * live mark was set) and its snapshot; NULL: nothing */
	const char *baseline;
	const struct snapshot *base_snap;
	double base_span;	/* a recording's seconds, 0: unsaid */
	/* --push: profiles sent and dropped, and whether the last attempt
	 * failed (push_error says why) */
	bool pushing, push_unreachable;
	u64 pushed, push_dropped, push_waiting;
	double push_silent;	/* seconds the server has not answered */
	const char *push_error;
	/* a recording's time range, --time, the timeline's cells when
	 * merged or dropped (app__header); NULL: nothing to say */
	const char *time_line;
	bool time;		/* periods are ns of off-CPU time */
	bool wall;		/* ... of wall-clock time (--wall) */
	/* the first line's columns (the live view), 0: no limit; a longer
	 * line cuts the target's start, so that the elapsed time and the
	 * state (PAUSED, finished) stay in sight */
	size_t width;
};

/* Share of the histogram's period in kernel code, in percent, of the
 * work done (idle left out) unless idle is shown as rows. */
double header__kernel_share(const struct snapshot *snap, bool idle);
/* The idle task's share of the histogram's period, in percent. */
double header__idle_share(const struct snapshot *snap);
/* The samples lost (each loss once), and what ptop dropped itself. */
u64 header__lost(const struct snapshot *snap);
u64 header__dropped(const struct snapshot *snap);

/* Seconds between the first and the last sample of snap (0: unknown). */
double header__span(const struct snapshot *snap);

/* Appends the header lines, each starting with prefix and ending with a
 * newline.  Strings that came from outside are sanitized here. */
void header__format(struct strbuf *sb, const struct header_info *hi,
		    const struct snapshot *snap, const char *prefix);

#endif
