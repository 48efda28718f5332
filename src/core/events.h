/* events: pure parsing of event names (perf's) into perf_event_attr. */
#ifndef PTOP_EVENTS_H
#define PTOP_EVENTS_H

#include <linux/perf_event.h>

#include "src/core/util.h"

/*
 * Names follow perf: generic hardware (cycles, instructions, cache-misses,
 * branch-misses, ...), software (cpu-clock, task-clock, page-faults,
 * minor-faults, major-faults, context-switches, cpu-migrations, ...),
 * hw-cache (L1-dcache-load-misses, LLC-loads, dTLB-load-misses, ...), raw
 * "rNNNN" (hex config) and tracepoints "subsys:name", where either part
 * may be a glob ("sched:sched_*", "syscalls:sys_enter_rea?"): such a spec
 * is marked tp_glob and stands for the tracepoints it matches, which
 * catalog__expand_tracepoints lists.  Generic and raw events take perf's
 * modifiers (":u", ":k", ":h", ":p", ":pp", ":ppp"); a tracepoint takes
 * none.
 *
 * perf's PMU syntax "pmu/terms/modifiers" ("cpu/event=0x3c,umask=0x00/",
 * "cpu/cycles/pp", "software/config=0/", "cpu/event=0xc0,period=100000/u")
 * is parsed here into the PMU's name and its terms, as written; the PMU's
 * type and what the terms mean (its format and events directories in
 * sysfs) are resolved by evsel when it opens the event (spec.pmu).  The
 * modifiers follow the last '/' without a colon, as perf writes them.
 * period= and freq= are this event's own sampling (spec.period and
 * spec.freq, over -c and -F); config=, config1=, config2= set those
 * fields; any other term is a format field, an event alias (no value) or a
 * flag (a format field without a value: 1).
 */
#define EVENT_MAX_TERMS 16	/* terms of one PMU event, or of an alias */
#define EVENT_WORD_MAX 64	/* a PMU's or a term's name, NUL included */

struct event_term {
	char name[EVENT_WORD_MAX];
	u64 val;
	bool has_val;		/* "name=val"; without it an alias or a flag */
};

struct event_spec {
	char name[256];		/* as written by the user, modifiers included */
	struct perf_event_attr attr;	/* type, config, exclude_*, precise_ip;
					 * sampling fields are left to evsel */
	bool tracepoint;	/* attr.config is resolved by evsel from tracefs */
	char tp_sys[128];
	char tp_name[128];
	bool tp_glob;		/* tp_sys or tp_name is a glob, to expand */
	bool is_default;	/* the implicit "cycles": may fall back */
	bool offcpu;		/* --off-cpu's sched_switch: call chains and
				 * context switch records, whatever -g says */
	u32 state_off, state_size;	/* its prev_state in the raw data
					 * (catalog, from tracefs); size 0:
					 * unknown */
	bool wall_cpu;		/* --wall's on-CPU event (cpu-clock or
				 * task-clock) */
	bool pmu;		/* "pmu/terms/": attr.type and config* are
				 * resolved by evsel from sysfs */
	char pmu_name[EVENT_WORD_MAX];
	struct event_term terms[EVENT_MAX_TERMS];	/* period and freq
							 * excepted */
	size_t nr_terms;
	u64 period;		/* period= term: this event's sample period */
	u64 freq;		/* freq= term: this event's frequency (Hz) */
};

/*
 * Parses a comma-separated list and appends to *specs (realloc'd).  On a
 * bad name returns -EINVAL and writes into err a message naming it (and
 * pointing at --list-events).
 */
int events__parse(const char *list, struct event_spec **specs, size_t *n,
		  struct strbuf *err);

/*
 * The terms of a PMU event or of a sysfs event alias ("event=0x3c,umask=0",
 * "inv", "" for none): names of letters, digits, '_', '-', '.' (no leading
 * '.', no "..": they become sysfs paths), values in decimal or 0x hex.
 * Writes at most max terms into terms[] and their count into *nr.  Errors
 * (-EINVAL, a message naming `what` in err): empty term, bad name or
 * number, more than max terms.
 */
int events__parse_terms(const char *s, const char *what,
			struct event_term *terms, size_t max, size_t *nr,
			struct strbuf *err);

/* Which word of the attr a PMU format field lives in. */
enum pmu_word {
	PMU_CONFIG,
	PMU_CONFIG1,
	PMU_CONFIG2,
};

/*
 * A PMU format file's content ("config:0-7,21", "config1:0-63",
 * "config2:5"): the word and the mask of the field's bits, low to high as
 * the value's bits are spread over them.  -EINVAL for anything else.
 */
int events__parse_format(const char *s, enum pmu_word *word, u64 *mask);

/*
 * Writes val into the bits of mask of *w (the lowest bit of val into the
 * lowest bit of mask, and so on), replacing what they held.  -ERANGE (and
 * *w unchanged) when val does not fit in as many bits as mask has.
 */
int events__format_set(u64 *w, u64 mask, u64 val);

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
