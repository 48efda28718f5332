/* cli: ptop's command line: the one option table (getopt's tables and
 * --help come from it), the parsing of each option and the checks of
 * what may be combined.  main.c wires what it says. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/push.h"
#include "src/cli.h"

enum opt_id {
	OPT_EVENT = 'e',
	OPT_FREQ = 'F',
	OPT_COUNT = 'c',
	OPT_PID = 'p',
	OPT_TID = 't',
	OPT_CPU = 'C',
	OPT_CGROUP = 'G',
	OPT_MMAP = 'm',
	OPT_DELAY = 'd',
	OPT_ITER = 'n',
	OPT_BATCH = 'b',
	OPT_SORT = 's',
	OPT_ZERO = 'z',
	OPT_ENTRIES = 'E',
	OPT_HIDE_KERNEL = 'K',
	OPT_HIDE_USER = 'U',
	OPT_VERBOSE = 'v',
	OPT_HELP = 'h',
	OPT_VERSION = 'V',
	OPT_JSON = 256,
	OPT_DECAY,
	OPT_PERCENT_LIMIT,
	OPT_LIST_EVENTS,
	OPT_DEBUG_DIR,
	OPT_SHOW_PERIOD,
	OPT_NO_DEMANGLE,
	OPT_DEMANGLE_PARAMS,
	OPT_CALL_GRAPH,
	OPT_MAX_STACK,
	OPT_CHILDREN,
	OPT_NO_CHILDREN,
	OPT_INLINE,
	OPT_NO_INLINE,
	OPT_FOLDED,
	OPT_TREE_LIMIT,
	OPT_FP = 'g',
	OPT_DISASM = 'M',
	OPT_ANNOTATE = 600,
	OPT_INPUT = 'i',
	OPT_OUTPUT = 'o',
	OPT_TIME = 512,
	OPT_BASELINE,
	OPT_PPROF = 601,
	OPT_PUSH,
	OPT_APP_NAME,
	OPT_LABEL,
	OPT_FLAMEGRAPH,
	OPT_SHOW_IDLE = 620,
	OPT_OFF_CPU,
	OPT_WALL,
	OPT_ALL_CGROUPS,
	OPT_SYMFS = 700,
	OPT_NO_DEBUGINFOD,
	OPT_DEBUGINFOD_MAXSIZE,
	OPT_NO_DWARF_CACHE,
	OPT_NO_SYMBOL_CACHE,
	OPT_NO_FP_RECOVERY = 720,
	OPT_KEEP_STACKS,
	OPT_ROOT,
};

/* The one option table: getopt's tables and --help come from it. */
static const struct opt_desc {
	int id;
	const char *lng;
	const char *arg;	/* NULL: no argument */
	const char *help;
} opt_descs[] = {
	{ OPT_EVENT, "event", "LIST",
	  "events to sample, comma-separated, repeatable (default cycles, "
	  "or cpu-clock where there is no PMU)" },
	{ OPT_FREQ, "freq", "HZ", "sampling frequency (default 4000)" },
	{ OPT_COUNT, "count", "PERIOD", "sample every PERIOD events instead" },
	{ OPT_PID, "pid", "PID[,PID]",
	  "profile these processes, their threads and children" },
	{ OPT_TID, "tid", "TID[,TID]", "profile these threads only" },
	{ OPT_CPU, "cpu", "LIST", "profile these CPUs only (0,2-3)" },
	{ OPT_CGROUP, "cgroup", "NAME[,NAME]",
	  "profile only the tasks of these cgroups (v2: a path under its "
	  "mount, as /proc/PID/cgroup shows it), on every CPU, like "
	  "perf's -G" },
	{ OPT_ALL_CGROUPS, "all-cgroups", NULL,
	  "samples carry their cgroup's id, and CGROUP records name them, as "
	  "perf record --all-cgroups: -o writes them (it does without this "
	  "option only for -s cgroup or -G)" },
	{ OPT_MMAP, "mmap-pages", "PAGES",
	  "ring buffer pages per CPU, a power of two (default 128, "
	  "512 with --call-graph dwarf)" },
	{ OPT_DELAY, "delay", "SECS", "refresh every SECS (default 2)" },
	{ OPT_ITER, "iterations", "N", "exit after N refreshes" },
	{ OPT_BATCH, "batch", NULL, "batch mode: print tables, no terminal UI" },
	{ OPT_JSON, "json", NULL, "batch: one JSON object per event and refresh" },
	{ OPT_SORT, "sort", "KEYS",
	  "group and sort by KEYS: dso,sym,comm,pid,tid,cpu,cgroup and "
	  "overhead,sample,period (default dso,sym)" },
	{ OPT_ZERO, "zero", NULL, "zero the histogram at every refresh" },
	{ OPT_DECAY, "decay", NULL, "decay the histogram by 7/8 at every refresh" },
	{ OPT_PERCENT_LIMIT, "percent-limit", "PCT", "hide rows under PCT %" },
	{ OPT_ENTRIES, "entries", "N", "show at most N rows" },
	{ OPT_HIDE_KERNEL, "hide-kernel", NULL, "hide kernel symbols" },
	{ OPT_HIDE_USER, "hide-user", NULL, "hide user symbols" },
	{ OPT_SHOW_PERIOD, "show-period", NULL, "show the Period column" },
	{ OPT_OFF_CPU, "off-cpu", NULL,
	  "also an event of the time threads wait off CPU (sleeping, "
	  "blocked on I/O or locks; not preempted), charged to where they "
	  "waited: sched:sched_switch with call chains (implies -g)" },
	{ OPT_WALL, "wall", NULL,
	  "also an event of wall-clock time: on-CPU samples (cpu-clock or "
	  "task-clock) by their nanoseconds plus every off-CPU interval, "
	  "preemptions included, so a thread's rows add up to its lifetime "
	  "(implies --off-cpu)" },
	{ OPT_SHOW_IDLE, "show-idle", NULL,
	  "show the idle task's samples (pid 0) as rows; by default they are "
	  "only the header's idle share" },
	{ OPT_LIST_EVENTS, "list-events", NULL,
	  "list the events this machine can open" },
	{ OPT_DEBUG_DIR, "debug-dir", "DIR",
	  "look for debug files by build-id under DIR too (repeatable)" },
	{ OPT_SYMFS, "symfs", "DIR",
	  "look for binaries and debug files under DIR first (another "
	  "machine's or a container's files)" },
	{ OPT_NO_DEBUGINFOD, "no-debuginfod", NULL,
	  "never fetch files from the DEBUGINFOD_URLS servers" },
	{ OPT_DEBUGINFOD_MAXSIZE, "debuginfod-maxsize", "BYTES",
	  "refuse a fetched file past BYTES (a K, M or G suffix; default "
	  "DEBUGINFOD_MAXSIZE, else 1G), counted as it arrives" },
	{ OPT_NO_DWARF_CACHE, "no-dwarf-cache", NULL,
	  "do not keep inflated copies of debug files with compressed DWARF "
	  "(in $XDG_CACHE_HOME/ptop/dwarf)" },
	{ OPT_NO_SYMBOL_CACHE, "no-symbol-cache", NULL,
	  "do not keep binaries' symbol tables for later runs "
	  "(in $XDG_CACHE_HOME/ptop/symbols)" },
	{ OPT_NO_DEMANGLE, "no-demangle", NULL, "show C++/Rust names mangled" },
	{ OPT_DEMANGLE_PARAMS, "demangle-params", NULL,
	  "show C++ functions with their parameters, not by their name alone as perf report does" },
	{ OPT_ANNOTATE, "annotate", "SYMBOL",
	  "batch: print SYMBOL's annotated code at each refresh (the hottest "
	  "match): percent, address and instruction, with source lines" },
	{ OPT_DISASM, "disassembler-style", "STYLE",
	  "annotate in att (default) or intel syntax, as perf's -M" },
	{ OPT_FP, "call-graph-fp", NULL,
	  "sample call chains (frame pointers), like --call-graph fp" },
	{ OPT_CALL_GRAPH, "call-graph", "MODE",
	  "fp[,BYTES] (frame pointers; callers they lose recovered from a "
	  "BYTES copy of the user stack, default 256) or dwarf[,BYTES] "
	  "(unwinds a copy of the user stack), then ,caller (default) or "
	  ",callee for the trees" },
	{ OPT_NO_FP_RECOVERY, "no-fp-recovery", NULL,
	  "frame-pointer chains as the kernel walks them: no stack copy, "
	  "no callers recovered" },
	{ OPT_KEEP_STACKS, "keep-stacks", NULL,
	  "-o with -g: write each sample's registers and stack copy with "
	  "the kernel's chain, not the recovered chain" },
	{ OPT_MAX_STACK, "max-stack", "N", "keep at most N frames per chain" },
	{ OPT_CHILDREN, "children", NULL,
	  "with call graphs, show and sort by the total with callees (default)" },
	{ OPT_NO_CHILDREN, "no-children", NULL, "with call graphs, self cost only" },
	{ OPT_INLINE, "inline", NULL,
	  "inlined functions (DWARF) as frames of the trees and, with "
	  "children, rows of their own, for every chain (default: only for "
	  "chains unwound from stack copies, as perf 6.1)" },
	{ OPT_NO_INLINE, "no-inline", NULL,
	  "no inlined frames or rows, whatever the chains" },
	{ OPT_TREE_LIMIT, "tree-limit", "PCT",
	  "call trees (text, JSON, live) leave out branches under PCT % of "
	  "their row (default: --percent-limit, else 0.5); 0 shows them all" },
	{ OPT_FOLDED, "folded", NULL,
	  "batch with call graphs: print folded stacks (a;b;c count) for "
	  "flame graph tools" },
	{ OPT_ROOT, "root", "WHAT",
	  "what --folded stacks and --flamegraph start with: comm (the "
	  "command, as stackcollapse-perf.pl), pid (comm-PID), tid "
	  "(comm-PID/TID), none; default: comm when the samples come from "
	  "more than one process" },
	{ OPT_PPROF, "pprof", "FILE",
	  "batch: also write each event's profile to FILE in pprof's format "
	  "(gzipped profile.proto; FILE.EVENT when there are several), "
	  "rewritten at each refresh" },
	{ OPT_FLAMEGRAPH, "flamegraph", "FILE",
	  "batch with call chains (-g, or -i of a file with them): also "
	  "write each event's flame graph to FILE, an interactive SVG "
	  "(FILE.EVENT when there are several), rewritten at each refresh" },
	{ OPT_PUSH, "push", "URL",
	  "send a pprof profile of every refresh's samples (-d) to a "
	  "Pyroscope server's ingest API (URL/ingest), live or batch; with "
	  "-i, the whole recording once" },
	{ OPT_APP_NAME, "app-name", "NAME",
	  "--push: the application's name (default: the command's, else ptop)" },
	{ OPT_LABEL, "label", "KEY=VALUE",
	  "--push: a label of the profiles (repeatable; hostname is set)" },
	{ OPT_INPUT, "input", "FILE",
	  "show a perf.data file (from perf record or ptop -o) instead of "
	  "profiling; - reads a pipe-mode stream (perf record -o -) from stdin" },
	{ OPT_OUTPUT, "output", "FILE",
	  "also write what is profiled to FILE in perf.data format; - writes "
	  "a pipe-mode stream to stdout (batch tables then go to stderr)" },
	{ OPT_BASELINE, "baseline", "FILE",
	  "compare with the perf.data FILE (live, -p, a command or -i): each "
	  "row gets its Baseline share and its Delta in points (as perf diff "
	  "FILE ...), rows matched by object and symbol name" },
	{ OPT_TIME, "time", "START,END",
	  "with -i: only samples in this window, as perf report --time: "
	  "seconds (1887.5,1888) or percentages (10%-20%, 10%/2)" },
	{ OPT_VERBOSE, "verbose", NULL, "more messages (repeat for debug)" },
	{ OPT_HELP, "help", NULL, "this help" },
	{ OPT_VERSION, "version", NULL, "print the version" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: ptop [options] [-- COMMAND [ARGS...]]\n\n"
		   "A live, top-like CPU profiler: which functions burn the CPU,\n"
		   "system-wide, in the processes given with -p/-t, or in COMMAND.\n\n");
	for (size_t i = 0; i < ARRAY_SIZE(opt_descs); i++) {
		const struct opt_desc *o = &opt_descs[i];
		char left[64];

		if (o->id < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->id,
				 o->lng, o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->lng,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-31s %s\n", left, o->help);
	}
	fprintf(f, "\nIn the live view, press h for the keys.  See ptop(1).\n");
}

static int __attribute__((format(printf, 1, 2))) bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ptop: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'ptop --help' for the options.\n");
	return 2;
}

/* "fp", "dwarf", "dwarf,8192", "fp,callee", "caller"... */
static int parse_call_graph(const char *s, struct options *o)
{
	char buf[64], *tok, *save = NULL;
	bool mode_seen = false;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	o->callgraph = true;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		u64 v;

		if (strcmp(tok, "fp") == 0) {
			o->dwarf_size = 0;
			mode_seen = true;
		} else if (strcmp(tok, "dwarf") == 0) {
			o->dwarf_size = 8192;
			mode_seen = true;
		} else if (mode_seen && !o->dwarf_size &&
			   parse_u64(tok, &v) == 0 && v <= 65528) {
			/* the copy that recovers the callers frame pointers
			 * lose; 0: none */
			o->fp_copy = (u32)(v & ~7ULL);
		} else if (strcmp(tok, "caller") == 0) {
			o->cg_order = CG_CALLER;
		} else if (strcmp(tok, "callee") == 0) {
			o->cg_order = CG_CALLEE;
		} else if (mode_seen && o->dwarf_size && parse_u64(tok, &v) == 0 &&
			   v >= 64 && v <= 65528) {
			/* the kernel takes at most 64 KiB minus the header */
			o->dwarf_size = (u32)(v & ~7ULL);
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

/* A byte count: digits, then K, M or G (powers of 1024): 0 or -EINVAL. */
static int parse_size(const char *s, u64 *out)
{
	char *end;
	unsigned long long v;
	unsigned int shift = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: break;
	}
	if (*end || v > (~0ULL >> shift))
		return -EINVAL;
	*out = (u64)v << shift;
	return 0;
}

static const char *opt_name(int id)
{
	for (size_t i = 0; i < ARRAY_SIZE(opt_descs); i++)
		if (opt_descs[i].id == id)
			return opt_descs[i].lng;
	return "?";
}

/* getopt_long's tables from the option table. */
static void getopt_tables(struct option *longopts, char *shortopts)
{
	char *sp = shortopts;

	memset(longopts, 0, (ARRAY_SIZE(opt_descs) + 1) * sizeof(*longopts));
	*sp++ = '+';	/* stop at the command */
	*sp++ = ':';	/* report a missing argument as ':' */
	for (size_t i = 0; i < ARRAY_SIZE(opt_descs); i++) {
		const struct opt_desc *d = &opt_descs[i];

		longopts[i].name = d->lng;
		longopts[i].has_arg = d->arg ? required_argument : no_argument;
		longopts[i].val = d->id;
		if (d->id < 256) {
			*sp++ = (char)d->id;
			if (d->arg)
				*sp++ = ':';
		}
	}
	*sp = '\0';
}

/* What to profile and how: 0, the exit status + 1, or -1 when c is none
 * of these options. */
static int profiling_option(struct options *o, int c, struct strbuf *err)
{
	u64 v;

	switch (c) {
	case OPT_INPUT:
		o->input = optarg;
		break;
	case OPT_OUTPUT:
		o->output = optarg;
		break;
	case OPT_TIME:
		o->time = optarg;
		break;
	case OPT_BASELINE:
		o->baseline = optarg;
		break;
	case OPT_EVENT:
		strbuf__reset(err);
		if (events__parse(optarg, &o->specs, &o->nr_specs, err)) {
			fprintf(stderr, "ptop: %s\n", err->buf ? err->buf : optarg);
			return 3;
		}
		break;
	case OPT_FREQ:
		if (parse_u64(optarg, &v) || v == 0 || v > 1000000)
			return 1 + bad_usage("bad frequency '%s' (1..1000000 Hz)", optarg);
		o->freq = v;
		o->period = 0;
		break;
	case OPT_COUNT:
		if (parse_u64(optarg, &v) || v == 0)
			return 1 + bad_usage("bad period '%s'", optarg);
		o->period = v;
		o->freq = 0;
		break;
	case OPT_PID:
	case OPT_TID:
		if (o->target.kind != TARGET_SYSTEM &&
		    o->target.kind != (c == OPT_PID ? TARGET_PIDS : TARGET_TIDS))
			return 1 + bad_usage("%s", "-p and -t cannot be mixed");
		o->target.kind = c == OPT_PID ? TARGET_PIDS : TARGET_TIDS;
		if (pidlist__parse(optarg, &o->target.pids,
				   &o->target.nr_pids))
			return 1 + bad_usage("bad pid list '%s'", optarg);
		break;
	case OPT_CGROUP:
		o->cgroups = optarg;
		break;
	case OPT_ALL_CGROUPS:
		o->all_cgroups = true;
		break;
	case OPT_CPU:
		if (cpulist__parse(optarg, o->cpus, PTOP_MAX_CPUS) <= 0)
			return 1 + bad_usage("bad CPU list '%s' (e.g. 0,2-3)", optarg);
		o->has_cpus = true;
		break;
	case OPT_MMAP:
		if (parse_u64(optarg, &v) || v == 0 || v > (1 << 20) ||
		    (v & (v - 1)))
			return 1 + bad_usage("bad ring size '%s': pages must be a power of two", optarg);
		o->mmap_pages = (unsigned int)v;
		break;
	case OPT_FP:
		o->callgraph = true;
		o->dwarf_size = 0;
		break;
	case OPT_NO_FP_RECOVERY:
		o->fp_copy = 0;
		break;
	case OPT_KEEP_STACKS:
		o->keep_stacks = true;
		break;
	case OPT_CALL_GRAPH:
		if (parse_call_graph(optarg, o))
			return 1 + bad_usage("bad call graph '%s' (fp[,BYTES] or "
					     "dwarf[,BYTES], then ,caller or ,callee)",
					     optarg);
		break;
	case OPT_MAX_STACK:
		if (parse_u64(optarg, &v) || v == 0 || v > 512)
			return 1 + bad_usage("bad stack depth '%s' (1..512)", optarg);
		o->max_stack = (unsigned int)v;
		break;
	default:
		return -1;
	}
	return 0;
}

/* Where symbols come from and how they read: 0, the exit status + 1, or
 * -1 when c is none of these options. */
static int symbol_option(struct options *o, int c)
{
	switch (c) {
	case OPT_DEBUG_DIR: {
		const char **p = realloc(o->debug_dirs,
					 (o->nr_debug_dirs + 1) * sizeof(*p));

		if (!p)
			return 2;
		o->debug_dirs = p;
		o->debug_dirs[o->nr_debug_dirs++] = optarg;
		break;
	}
	case OPT_ANNOTATE:
		if (!*optarg)
			return 1 + bad_usage("%s", "--annotate needs a symbol name");
		o->annotate = optarg;
		break;
	case OPT_DISASM:
		if (!strcmp(optarg, "intel"))
			o->syntax = DISASM_INTEL;
		else if (!strcmp(optarg, "att"))
			o->syntax = DISASM_ATT;
		else
			return 1 + bad_usage("bad disassembler style '%s' (att or intel)", optarg);
		break;
	case OPT_NO_DEMANGLE:
		o->no_demangle = true;
		break;
	case OPT_DEMANGLE_PARAMS:
		o->demangle_params = true;
		break;
	case OPT_SYMFS:
		if (!*optarg)
			return 1 + bad_usage("%s", "--symfs needs a directory");
		o->symfs = optarg;
		break;
	case OPT_NO_DEBUGINFOD:
		o->no_debuginfod = true;
		break;
	case OPT_DEBUGINFOD_MAXSIZE:
		if (parse_size(optarg, &o->debuginfod_maxsize) ||
		    !o->debuginfod_maxsize)
			return 1 + bad_usage("bad --debuginfod-maxsize '%s' "
					     "(bytes, with K, M or G)", optarg);
		break;
	case OPT_NO_DWARF_CACHE:
		o->no_dwarf_cache = true;
		break;
	case OPT_NO_SYMBOL_CACHE:
		o->no_symbol_cache = true;
		break;
	default:
		return -1;
	}
	return 0;
}

/* Every other option: 0, or the exit status + 1. */
static int other_option(struct options *o, int c, char **argv,
			struct strbuf *err)
{
	u64 v;
	double d;

	switch (c) {
	case OPT_DELAY:
		if (parse_seconds(optarg, &d) || d < 0.01)
			return 1 + bad_usage("bad delay '%s' (seconds, at least 0.01)", optarg);
		o->delay = d;
		o->delay_given = true;
		break;
	case OPT_ITER:
		if (parse_u64(optarg, &v) || v == 0 || v > 1000000000)
			return 1 + bad_usage("bad iteration count '%s'", optarg);
		o->iterations = (long)v;
		break;
	case OPT_BATCH:
		o->batch = true;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_SORT:
		strbuf__reset(err);
		if (sort_spec__parse(optarg, &o->spec, err)) {
			fprintf(stderr, "ptop: %s\n", err->buf ? err->buf : optarg);
			return 3;
		}
		o->sort_given = true;
		break;
	case OPT_ZERO:
		o->mode = HIST_ZERO;
		break;
	case OPT_DECAY:
		o->mode = HIST_DECAY;
		break;
	case OPT_PERCENT_LIMIT:
		if (parse_seconds(optarg, &d) || d > 100)
			return 1 + bad_usage("bad percent limit '%s'", optarg);
		o->filter.percent_limit = d;
		break;
	case OPT_ENTRIES:
		if (parse_u64(optarg, &v) || v == 0)
			return 1 + bad_usage("bad row count '%s'", optarg);
		o->filter.max_rows = (size_t)v;
		break;
	case OPT_HIDE_KERNEL:
		o->filter.hide_kernel = true;
		break;
	case OPT_HIDE_USER:
		o->filter.hide_user = true;
		break;
	case OPT_SHOW_PERIOD:
		o->show_period = true;
		break;
	case OPT_SHOW_IDLE:
		o->filter.show_idle = true;
		break;
	case OPT_OFF_CPU:
		o->off_cpu = true;
		break;
	case OPT_WALL:
		o->off_cpu = o->wall = true;
		break;
	case OPT_LIST_EVENTS:
		o->list_events = true;
		break;
	case OPT_CHILDREN:
		o->children = 1;
		break;
	case OPT_NO_CHILDREN:
		o->children = 0;
		break;
	case OPT_INLINE:
		o->inline_rows = 1;
		break;
	case OPT_NO_INLINE:
		o->inline_rows = 0;
		break;
	case OPT_ROOT:
		if (!strcmp(optarg, "comm"))
			o->stack_root = STACK_ROOT_COMM;
		else if (!strcmp(optarg, "pid"))
			o->stack_root = STACK_ROOT_PID;
		else if (!strcmp(optarg, "tid"))
			o->stack_root = STACK_ROOT_TID;
		else if (!strcmp(optarg, "none"))
			o->stack_root = STACK_ROOT_NONE;
		else
			return 1 + bad_usage("bad --root '%s' (comm, pid, tid or none)",
					     optarg);
		break;
	case OPT_TREE_LIMIT:
		if (parse_seconds(optarg, &d) || d > 100)
			return 1 + bad_usage("bad tree limit '%s'", optarg);
		o->tree_limit = d;
		break;
	case OPT_FOLDED:
		o->folded = true;
		break;
	case OPT_PPROF:
		if (!*optarg)
			return 1 + bad_usage("%s", "--pprof needs a file name");
		o->pprof = optarg;
		break;
	case OPT_FLAMEGRAPH:
		if (!*optarg)
			return 1 + bad_usage("%s", "--flamegraph needs a file name");
		o->flamegraph = optarg;
		break;
	case OPT_PUSH:
		if (!*optarg)
			return 1 + bad_usage("%s", "--push needs a server URL");
		o->push = optarg;
		break;
	case OPT_APP_NAME:
		if (!*optarg || strpbrk(optarg, "{},= \t"))
			return 1 + bad_usage("bad --app-name '%s' (no blanks, "
					     "'{', '}', ',' or '=')", optarg);
		o->app_name = optarg;
		break;
	case OPT_LABEL: {
		char why[256];

		if (push__check_label(optarg, why, sizeof(why)))
			return 1 + bad_usage("%s", why);
		if (o->nr_labels == PUSH_MAX_LABELS)
			return 1 + bad_usage("at most %d --label", PUSH_MAX_LABELS);
		o->labels[o->nr_labels++] = optarg;
		break;
	}
	case OPT_VERBOSE:
		o->verbose++;
		break;
	case OPT_HELP:
		usage(stdout);
		return 1;
	case OPT_VERSION:
		printf("ptop %s\n", PTOP_VERSION);
		return 1;
	case ':':
		return 1 + bad_usage("option '%s' needs an argument",
				     argv[optind - 1]);
	default:
		return 1 + bad_usage("unknown option '%s'",
				     argv[optind - 1]);
	}
	return 0;
}

/* What the options say together, once all are read. */
static int check_options(struct options *o, int argc, char **argv)
{
	if (optind < argc) {
		if (o->target.kind != TARGET_SYSTEM)
			return 1 + bad_usage("%s", "a command cannot be combined with -p or -t");
		o->command = &argv[optind];
		o->target.kind = TARGET_COMMAND;
	}
	if (o->cgroups && o->target.kind != TARGET_SYSTEM)
		return 1 + bad_usage("%s", "-G samples cgroups on every CPU: "
				     "not with -p, -t or a command");
	if (o->json && !o->batch)
		return 1 + bad_usage("%s", "--json needs -b");
	if (o->annotate && !o->batch)
		return 1 + bad_usage("%s", "--annotate needs -b (in the live "
				     "view, a annotates the selected row)");
	if (o->filter.hide_kernel && o->filter.hide_user)
		return 1 + bad_usage("%s", "-K and -U together hide everything");
	/* a recording's chains are enough (checked once it is open) */
	if (o->folded && (!o->batch || (!o->callgraph && !o->input) || o->json))
		return 1 + bad_usage("%s", "--folded needs -b and -g or -i "
				     "(and no --json)");
	if (o->stack_root != STACK_ROOT_AUTO && !o->folded && !o->flamegraph)
		return 1 + bad_usage("%s", "--root goes with --folded or --flamegraph");
	if (o->keep_stacks && !o->output)
		return 1 + bad_usage("%s", "--keep-stacks goes with -o");
	if ((o->app_name || o->nr_labels) && !o->push)
		return 1 + bad_usage("%s", "--app-name and --label go with --push");
	if (o->push && o->mode == HIST_DECAY)
		return 1 + bad_usage("%s", "--push sends each refresh's samples: "
				     "not with --decay");
	if (o->push && o->annotate)
		return 1 + bad_usage("%s", "--push does not go with --annotate");
	if (o->flamegraph &&
	    (!o->batch || o->annotate || (!o->callgraph && !o->input)))
		return 1 + bad_usage("%s", "--flamegraph needs -b and -g or -i "
				     "(and no --annotate)");
	if (o->pprof && (!o->batch || o->annotate))
		return 1 + bad_usage("%s", "--pprof needs -b (and no --annotate)");
	if (o->input && o->output)
		return 1 + bad_usage("%s", "-i and -o cannot be combined: -o "
				     "records what ptop profiles");
	if (o->input && o->command)
		return 1 + bad_usage("%s", "-i shows a recording: a command "
				     "only applies to profiling");
	if (o->input && o->live_opt)
		return 1 + bad_usage("-i shows a recording: --%s only applies "
				     "to profiling", o->live_opt);
	if (o->time && !o->input)
		return 1 + bad_usage("%s", "--time needs -i");
	if (o->baseline && (!*o->baseline || strcmp(o->baseline, "-") == 0))
		return 1 + bad_usage("%s", "--baseline needs a perf.data file "
				     "(not a stream)");
	if (o->batch && !o->baseline && (o->spec.order == SORT_DELTA ||
					  o->spec.order == SORT_ABSDELTA))
		return 1 + bad_usage("-s %s orders by the change against a "
				     "baseline: give --baseline FILE",
				     sort_key__name(o->spec.order));
	if (o->baseline && o->annotate)
		return 1 + bad_usage("%s", "--baseline does not go with "
				     "--annotate");
	if (o->output && !*o->output)
		return 1 + bad_usage("%s", "-o needs a file name (or -)");
	if (o->off_cpu && o->input && strcmp(o->input, "-") == 0)
		return 1 + bad_usage("%s", "--off-cpu reads a recording's file, "
				     "not a stream (-i -)");
	if (o->off_cpu && !o->input) {
		struct event_spec *sp;
		struct strbuf why;
		bool wall_cpu = false;

		/* --wall: time on CPU in ns, cpu-clock by default */
		if (o->wall && !o->nr_specs) {
			strbuf__init(&why);
			if (events__parse("cpu-clock", &o->specs, &o->nr_specs,
					  &why)) {
				strbuf__fini(&why);
				return 1 + bad_usage("%s", "--wall: cpu-clock");
			}
			strbuf__fini(&why);
		}
		for (size_t i = 0; o->wall && i < o->nr_specs && !wall_cpu; i++) {
			const struct perf_event_attr *at = &o->specs[i].attr;

			if (at->type == PERF_TYPE_SOFTWARE &&
			    (at->config == PERF_COUNT_SW_CPU_CLOCK ||
			     at->config == PERF_COUNT_SW_TASK_CLOCK))
				wall_cpu = o->specs[i].wall_cpu = true;
		}
		if (o->wall && !wall_cpu)
			return 1 + bad_usage("%s", "--wall counts time on CPU "
					     "in nanoseconds: it needs "
					     "cpu-clock or task-clock among "
					     "the events (-e)");
		/* the events asked for (or the default), then the waits' */
		if (!o->nr_specs) {
			sp = realloc(o->specs, sizeof(*sp));
			if (!sp)
				return 1 + bad_usage("%s", "out of memory");
			o->specs = sp;
			memset(sp, 0, sizeof(*sp));
			events__default(sp);
			o->nr_specs = 1;
		}
		/* sched_switch among them (-e sched:sched_switch alone: the
		 * waits and nothing else) is the waits' event; else added */
		sp = NULL;
		for (size_t i = 0; i < o->nr_specs && !sp; i++)
			if (o->specs[i].tracepoint && !o->specs[i].tp_glob &&
			    strcmp(o->specs[i].tp_sys, "sched") == 0 &&
			    strcmp(o->specs[i].tp_name, "sched_switch") == 0)
				sp = &o->specs[i];
		if (!sp) {
			strbuf__init(&why);
			if (events__parse("sched:sched_switch", &o->specs,
					  &o->nr_specs, &why)) {
				fprintf(stderr, "ptop: --off-cpu: %s\n",
					why.buf ? why.buf :
						  "sched:sched_switch");
				strbuf__fini(&why);
				return 3;
			}
			strbuf__fini(&why);
			sp = &o->specs[o->nr_specs - 1];
		}
		sp->offcpu = true;
	}
	/* waits are told by where they happened: call graphs */
	if (o->off_cpu)
		o->callgraph = true;
	o->children_opt = o->children;
	if (o->children < 0)
		o->children = o->callgraph;
	o->spec.children = o->children && o->callgraph;
	return 0;
}

void cli__defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->children = -1;
	o->inline_rows = -1;
	o->fp_copy = FP_COPY_DEFAULT;
	o->tree_limit = -1;
	o->freq = 4000;
	o->delay = 2.0;
	o->mode = HIST_CUMULATIVE;
	sort_spec__default(&o->spec);
}

int cli__parse(int argc, char **argv, struct options *o)
{
	struct option longopts[ARRAY_SIZE(opt_descs) + 1];
	char shortopts[ARRAY_SIZE(opt_descs) * 2 + 3];
	struct strbuf err;
	int c, rc = 0;

	getopt_tables(longopts, shortopts);
	strbuf__init(&err);
	opterr = 0;
	while (!rc &&
	       (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
	switch (c) {
	case OPT_EVENT: case OPT_FREQ: case OPT_COUNT: case OPT_PID:
	case OPT_TID: case OPT_CPU: case OPT_MMAP: case OPT_WALL:
	case OPT_CGROUP: case OPT_ALL_CGROUPS: case OPT_NO_FP_RECOVERY:
	case OPT_KEEP_STACKS:
		o->live_opt = opt_name(c);
		break;
	default:
		break;
	}
		rc = profiling_option(o, c, &err);
		if (rc < 0)
			rc = symbol_option(o, c);
		if (rc < 0)
			rc = other_option(o, c, argv, &err);
	}
	strbuf__fini(&err);
	if (rc)
		return rc;
	o->argv = argv;
	o->argc = argc;
	return check_options(o, argc, argv);
}

void cli__free(struct options *o)
{
	free(o->specs);
	free(o->target.pids);
	free(o->debug_dirs);
}
