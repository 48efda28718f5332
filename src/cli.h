/* cli: ptop's command line (the options, their parsing and checks). */
#ifndef PTOP_CLI_H
#define PTOP_CLI_H

#include <limits.h>

#include "src/core/events.h"
#include "src/core/session.h"
#include "src/sys/evlist.h"
#include "symbols/disasm.h"
#include "ui/report/flame.h"
#include "ui/report/rowset.h"

#define PTOP_VERSION "0.1"

/* What the command line says. */
/* -g's stack copy, bytes (the recovery rate against the size: doc/bench.md) */
#define FP_COPY_DEFAULT 256

struct options {
	struct event_spec *specs;
	size_t nr_specs;
	u64 freq, period;
	struct target target;
	bool cpus[PTOP_MAX_CPUS];
	bool has_cpus;
	unsigned int mmap_pages;
	double delay;
	bool delay_given;	/* -d was given */
	long iterations;
	bool batch, json, show_period, list_events, no_demangle;
	bool demangle_params;
	bool sort_given;
	struct sort_spec spec;
	struct row_filter filter;
	enum hist_mode mode;
	const char **debug_dirs;
	size_t nr_debug_dirs;
	const char *symfs;
	bool no_debuginfod;
	u64 debuginfod_maxsize;	/* --debuginfod-maxsize, 0: not given */
	bool no_dwarf_cache;
	bool no_symbol_cache;
	bool callgraph, folded;
	bool off_cpu;		/* --off-cpu */
	bool wall;		/* --wall */
	const char *pprof;
	const char *flamegraph;
	const char *push, *app_name;	/* --push URL, --app-name */
	const char *labels[16];		/* --label KEY=VALUE */
	size_t nr_labels;
	double tree_limit;	/* -1: not given */
	int children;		/* -1: default (on with call graphs) */
	int inline_rows;	/* --inline, --no-inline; -1: default */
	u32 dwarf_size;
	u32 fp_copy;		/* -g: user stack bytes copied to recover
				 * the callers frame pointers lose; 0: off */
	bool keep_stacks;	/* -o: the copies, not the recovered chains */
	enum stack_root stack_root;	/* --root; 0: auto */
	unsigned int max_stack;
	enum cg_order cg_order;
	const char *annotate;
	enum disasm_syntax syntax;
	int verbose;
	char **command;
	const char *input, *output, *time;
	double timeline;	/* --timeline SECS, 0: none */
	bool no_history;	/* --no-history */
	/* --memory-budget MB (bytes; live only): the session's histograms
	 * and chains and the timeline; 0: none */
	size_t memory_budget;
	const char *baseline;	/* --baseline FILE: compare with it */
	const char *cgroups;	/* -G NAME[,NAME] */
	bool all_cgroups;	/* --all-cgroups */
	const char *live_opt;	/* an option that only applies to profiling */
	int children_opt;	/* --children/--no-children as given, -1 */
	char **argv;
	int argc;
	int color;		/* --color 1, --no-color 0, -1: NO_COLOR decides */
	bool mouse;		/* --mouse (default), --no-mouse */
	/* the settings file (FILES in ptop.1) */
	char *config_path;	/* where it is (or would be); NULL: no home */
	bool config_read;	/* it was there, trusted and read */
	bool specs_from_config;	/* o->specs are its events */
	bool in_config;		/* its lines are being applied */
	char config_note[PATH_MAX + 128];	/* why it was ignored, or "" */
};

/* The defaults (before cli__parse). */
void cli__defaults(struct options *o);
/*
 * Parses argv into o (and checks what may be combined): 0 to go on, else
 * the exit status + 1 (--help and --version: 0 + 1; a usage error, said
 * on stderr: 2 + 1).
 */
int cli__parse(int argc, char **argv, struct options *o);
void cli__free(struct options *o);

#endif
