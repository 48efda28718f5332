/* output: one pass over an event's samples, fed to every output (see
 * output.h). */
#include <errno.h>

#include "ui/report/output.h"

struct fanout {
	struct output *outs;
	size_t n;
	const struct snapshot *snap;
	size_t next;	/* the first entry not yet handed on */
};

static void fanout__one(struct fanout *f, const struct out_sample *s)
{
	for (size_t k = 0; k < f->n; k++) {
		struct output *o = &f->outs[k];

		if (!o->err)
			o->err = o->ops->sample(o->ctx, s);
	}
}

/* The entries before `to` that the paths skipped (left out of the
 * rows), without a path. */
static void fanout__upto(struct fanout *f, size_t to)
{
	for (; f->next < to; f->next++) {
		struct out_sample s = {
			.snap = f->snap, .e = &f->snap->entries[f->next],
		};

		fanout__one(f, &s);
	}
}

static int fanout__path(void *ctx, const struct path_frame *frames,
			size_t n, const struct hist_entry *e)
{
	struct fanout *f = ctx;
	struct out_sample s = {
		.snap = f->snap, .e = e, .frames = frames, .nr_frames = n,
	};

	fanout__upto(f, (size_t)(e - f->snap->entries));
	fanout__one(f, &s);
	f->next++;
	return 0;
}

int output__pass(struct output *outs, size_t n, struct table *t,
		 const struct snapshot *snap, cg_inline_fn inl, void *inl_ctx)
{
	struct fanout f = { .outs = outs, .n = n, .snap = snap };
	bool paths = false, write = true;
	int first = 0;

	for (size_t k = 0; k < n; k++) {
		outs[k].err = outs[k].ops->begin ? outs[k].ops->begin(outs[k].ctx) :
						   0;
		paths |= !outs[k].err && outs[k].ops->paths;
	}
	/* the rows' paths are the snapshot's entries, in order, when the
	 * rows were built of it (without its idle entries, unless shown:
	 * a view of the same entries, which the pass hands on pathless) */
	if (paths && f.snap && f.snap == t->rows.given) {
		int err = rowset__foreach_path_inline(&t->rows, inl, inl_ctx,
						      fanout__path, &f);

		for (size_t k = 0; err && k < n; k++)
			if (!outs[k].err && outs[k].ops->paths)
				outs[k].err = err;
	}
	if (f.snap)
		fanout__upto(&f, f.snap->nr);
	for (size_t k = 0; k < n; k++) {
		int err = outs[k].ops->end(outs[k].ctx, outs[k].err, write);

		if (err && !first)
			first = err;
		write = write && !err;
	}
	return first;
}
