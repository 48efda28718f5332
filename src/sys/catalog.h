/* catalog: the events this machine has: tracefs (tracepoint ids, glob
 * expansion) and the list of every event that opens.  Each function takes
 * the tracefs directory to read (NULL: /sys/kernel/tracing, mounted if
 * needed, then /sys/kernel/debug/tracing), the evlist_opts field of that
 * name; the listing also the PMUs' (pmu.h). */
#ifndef PTOP_CATALOG_H
#define PTOP_CATALOG_H

#include "src/core/events.h"
#include "src/core/util.h"

/* The most events -e may name once tracepoint globs are expanded: each
 * is a file descriptor per CPU, and a table in the view. */
#define EXPAND_MAX 64

/*
 * Replaces each tracepoint glob of specs[0, *nr) (spec.tp_glob: "sched:*")
 * by the tracepoints of tracefs it matches, in name order (*specs is
 * realloc'd).  Errors, with why in why: -ENOENT (no tracefs, or no
 * match), -E2BIG (more than EXPAND_MAX events); -ENOMEM (nothing added).
 */
int catalog__expand_tracepoints(const char *tracefs,
				struct event_spec **specs, size_t *nr,
				struct strbuf *why);

/* Resolves a tracepoint's id into spec->attr.config: 0, or -errno and
 * why in why. */
int catalog__tracepoint_id(const char *tracefs, struct event_spec *spec,
			   struct strbuf *why);

/*
 * The tracing data perf.data's HEADER_TRACING_DATA holds for the
 * tracepoints among specs (perf report needs it to read their samples):
 * perf's layout, version 0.6: the header page and event formats of
 * tracefs, the format of each tracepoint grouped by subsystem, no
 * kallsyms, the printk formats, no saved command lines.  Appends it to
 * out; nothing when no spec is a tracepoint.  0, or -errno and why in why
 * (nothing added for -ENOMEM).
 */
int catalog__tracing_data(const char *tracefs,
			  const struct event_spec *specs, size_t nr,
			  struct strbuf *out, struct strbuf *why);

/* Calls fn for every event this machine can really open (each is tried
 * system-wide, then for this process): generic, cache, the PMUs' sysfs
 * event aliases ("msr/tsc/", only those that can be sampled, since ptop
 * samples), tracepoints. */
int catalog__list_events(const char *tracefs, const char *pmu_root,
			 void (*fn)(const char *name, const char *kind,
				    void *ctx),
			 void *ctx);

#endif
