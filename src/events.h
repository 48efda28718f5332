/* events: pure parsing of event names (perf's) into perf_event_attr. */
#ifndef PTOP_EVENTS_H
#define PTOP_EVENTS_H

#include <linux/perf_event.h>

#include "util.h"

/*
 * Names follow perf: generic hardware (cycles, instructions, cache-misses,
 * branch-misses, ...), software (cpu-clock, task-clock, page-faults,
 * minor-faults, major-faults, context-switches, cpu-migrations, ...),
 * hw-cache (L1-dcache-load-misses, LLC-loads, dTLB-load-misses, ...), raw
 * "rNNNN" (hex config) and tracepoints "subsys:name", where either part
 * may be a glob ("sched:sched_*", "syscalls:sys_enter_rea?"): such a spec
 * is marked tp_glob and stands for the tracepoints it matches, which
 * evlist__expand_tracepoints lists.  Generic and raw events take perf's
 * modifiers (":u", ":k", ":h", ":p", ":pp", ":ppp"); a tracepoint takes
 * none.
 */
struct event_spec {
	char name[256];		/* as written by the user, modifiers included */
	struct perf_event_attr attr;	/* type, config, exclude_*, precise_ip;
					 * sampling fields are left to evsel */
	bool tracepoint;	/* attr.config is resolved by evsel from tracefs */
	char tp_sys[128];
	char tp_name[128];
	bool tp_glob;		/* tp_sys or tp_name is a glob, to expand */
	bool is_default;	/* the implicit "cycles": may fall back */
};

/*
 * Parses a comma-separated list and appends to *specs (realloc'd).  On a
 * bad name returns -EINVAL and writes into err a message naming it (and
 * pointing at --list-events).
 */
int events__parse(const char *list, struct event_spec **specs, size_t *n,
		  struct strbuf *err);

/* The spec used when no -e is given: cycles, marked is_default. */
void events__default(struct event_spec *spec);
/* The fallback spec for a default that cannot be opened: cpu-clock. */
void events__fallback(struct event_spec *spec);

enum event_class {
	EVCLASS_HARDWARE,
	EVCLASS_SOFTWARE,
	EVCLASS_CACHE,
};

/* Every generic name (aliases included once, canonical names first).
 * Cache events come by their canonical names only ("L1-dcache-loads"),
 * not perf's other spellings of them ("l1d-loads"), which parse too. */
void events__foreach_generic(void (*fn)(const char *name, enum event_class cls,
					u32 type, u64 config, void *ctx),
			     void *ctx);

/* A perf name for (type, config), for files that carry no event names
 * ("cycles", "cpu-clock", "L1-dcache-load-misses", "rNNN", or NULL).
 * Hardware and software names are static strings (buf may be NULL);
 * cache and raw names are written into buf, NULL if it is too small. */
const char *events__name_of(u32 type, u64 config, char *buf, size_t len);

#endif
