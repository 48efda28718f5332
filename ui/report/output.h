/* output: what one pass over an event's samples feeds.  --folded,
 * --flamegraph and --pprof (batch's, and the live view's files) are
 * outputs of one pass: the chains are walked once per event, whatever
 * the number of outputs. */
#ifndef PTOP_OUTPUT_H
#define PTOP_OUTPUT_H

#include "ui/report/rowset.h"
#include "ui/report/table.h"
#include "src/core/util.h"

/* One sample of the pass: a histogram entry of the event's snapshot. */
struct out_sample {
	const struct snapshot *snap;	/* the entry's, with its chains */
	const struct hist_entry *e;
	/* its path in the rows, root first, leaf last (the frames of
	 * rowset__foreach_path_inline, inlined ones too); NULL when the
	 * table's filters leave the entry out of the rows, or when no
	 * output of the pass asks for paths */
	const struct path_frame *frames;
	size_t nr_frames;
};

/*
 * An output: begin before the first sample, sample for each entry of the
 * snapshot in its order, end after the last.  Each returns 0 or -errno;
 * after a failure the output gets no more samples, and end is told it
 * (err) to clean up; end's write is false when an output before it in
 * the pass failed (it writes nothing then, as if never asked).  paths:
 * the output reads the rows' paths (the pass walks them).
 */
struct output_ops {
	int (*begin)(void *ctx);
	int (*sample)(void *ctx, const struct out_sample *s);
	int (*end)(void *ctx, int err, bool write);
	bool paths;
};

struct output {
	const struct output_ops *ops;
	void *ctx;
	int err;
};

/*
 * One pass over snap, a snapshot of t (the paths are those of t's rows
 * when they were built from snap, none else; inl: the inlined frames of
 * the paths, NULL none): each output's begin, every entry of snap to
 * each, then each end in order.  Returns the first error of an end.
 */
int output__pass(struct output *outs, size_t n, struct table *t,
		 const struct snapshot *snap, cg_inline_fn inl, void *inl_ctx);

#endif
