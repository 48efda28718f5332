/* pprof: a snapshot as Google's profile.proto (gzip), for go tool pprof,
 * Pyroscope, Parca and the other readers of that format. */
#ifndef PTOP_PPROF_H
#define PTOP_PPROF_H

#include "ui/report/rowset.h"
#include "symbols/symbolizer.h"
#include "ui/report/table.h"
#include "src/core/util.h"

struct pprof_opts {
	const char *event;	/* the event's name (a sample type) */
	bool cpu_ns;		/* cpu-clock/task-clock: periods are ns */
	u64 freq, period;	/* -F or -c of the event, 0: unknown */
	s64 time_nanos;		/* wall-clock start of the data (epoch) */
	s64 duration_nanos;
	/* sample labels: those the sort keys ask for */
	bool label_pid, label_tid, label_comm, label_cpu;
	/* inlined frames, as --folded and the trees show them */
	cg_inline_fn inl;
	void *inl_ctx;
	/* raw names and source lines; NULL: names from the table only */
	struct symbolizer *syms;
	/* pprof__encode: the samples to encode instead of the table's
	 * snapshot ev (its chains), e.g. a window of push_window__delta;
	 * NULL: the table's */
	const struct snapshot *snap;
};

/*
 * Encodes snapshot ev of t (table__snapshot done) as an uncompressed
 * profile.proto into out: every entry a sample (its chain leaf first,
 * the frames --folded prints), values samples and period.  Ids of
 * mappings, locations and functions run 1..N in the order first seen;
 * string 0 is "".  0 or -ENOMEM.
 */
int pprof__encode(struct strbuf *out, const struct pprof_opts *o,
		  struct table *t, size_t ev);

/*
 * The same, a sample at a time (an output of a pass over the samples,
 * ui/report/output.h): begin writes the sample types into out, each
 * sample its Sample message (the entry's chain in snap), end the rest
 * (mappings, locations, functions, strings) and frees p; pprof__free
 * drops an encoding begun.  0 or -ENOMEM.
 */
struct pprof;
int pprof__begin(struct pprof **p, struct strbuf *out,
		 const struct pprof_opts *o, struct table *t);
int pprof__sample(struct pprof *p, const struct snapshot *snap,
		  const struct hist_entry *e);
int pprof__end(struct pprof *p);
void pprof__free(struct pprof *p);

/* gzip of p into a new buffer (*out, to free): 0 or -ENOMEM/-EIO. */
int pprof__gzip(const void *p, size_t len, void **out, size_t *out_len);

/* gzip of p into path, an export (outfile__save: a new file renamed
 * over path, or in place for -, a device, a FIFO).  0 or -errno. */
int pprof__save(const char *path, const void *p, size_t len);

#endif
