/* main: command line, wiring of source, session and front end. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "app.h"
#include "cmdout.h"
#include "dbgfetch.h"
#include "events.h"
#include "evsel.h"
#include "log.h"
#include "logq.h"
#include "perfdata.h"
#include "sanitize.h"
#include "sampler.h"
#include "session.h"
#include "symbolizer.h"
#include "tui.h"
#include "unwind.h"

#define PTOP_VERSION "0.1"

enum opt_id {
	OPT_EVENT = 'e',
	OPT_FREQ = 'F',
	OPT_COUNT = 'c',
	OPT_PID = 'p',
	OPT_TID = 't',
	OPT_CPU = 'C',
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
	OPT_FOLDED,
	OPT_TREE_LIMIT,
	OPT_FP = 'g',
	OPT_DISASM = 'M',
	OPT_ANNOTATE = 600,
	OPT_INPUT = 'i',
	OPT_OUTPUT = 'o',
	OPT_TIME = 512,
	OPT_PPROF = 601,
	OPT_SHOW_IDLE = 620,
	OPT_SYMFS = 700,
	OPT_NO_DEBUGINFOD,
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
	{ OPT_MMAP, "mmap-pages", "PAGES",
	  "ring buffer pages per CPU, a power of two (default 128, "
	  "512 with --call-graph dwarf)" },
	{ OPT_DELAY, "delay", "SECS", "refresh every SECS (default 2)" },
	{ OPT_ITER, "iterations", "N", "exit after N refreshes" },
	{ OPT_BATCH, "batch", NULL, "batch mode: print tables, no terminal UI" },
	{ OPT_JSON, "json", NULL, "batch: one JSON object per event and refresh" },
	{ OPT_SORT, "sort", "KEYS",
	  "group and sort by KEYS: dso,sym,comm,pid,tid,cpu and "
	  "overhead,sample,period (default dso,sym)" },
	{ OPT_ZERO, "zero", NULL, "zero the histogram at every refresh" },
	{ OPT_DECAY, "decay", NULL, "decay the histogram by 7/8 at every refresh" },
	{ OPT_PERCENT_LIMIT, "percent-limit", "PCT", "hide rows under PCT %" },
	{ OPT_ENTRIES, "entries", "N", "show at most N rows" },
	{ OPT_HIDE_KERNEL, "hide-kernel", NULL, "hide kernel symbols" },
	{ OPT_HIDE_USER, "hide-user", NULL, "hide user symbols" },
	{ OPT_SHOW_PERIOD, "show-period", NULL, "show the Period column" },
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
	  "fp or dwarf[,BYTES] (unwinds a copy of the user stack), "
	  "then ,caller (default) or ,callee for the trees" },
	{ OPT_MAX_STACK, "max-stack", "N", "keep at most N frames per chain" },
	{ OPT_CHILDREN, "children", NULL,
	  "with call graphs, show and sort by the total with callees (default)" },
	{ OPT_NO_CHILDREN, "no-children", NULL, "with call graphs, self cost only" },
	{ OPT_TREE_LIMIT, "tree-limit", "PCT",
	  "call trees (text, JSON, live) leave out branches under PCT % of "
	  "their row (default: --percent-limit, else 0.5); 0 shows them all" },
	{ OPT_FOLDED, "folded", NULL,
	  "batch with call graphs: print folded stacks (a;b;c count) for "
	  "flame graph tools" },
	{ OPT_PPROF, "pprof", "FILE",
	  "batch: also write each event's profile to FILE in pprof's format "
	  "(gzipped profile.proto; FILE.EVENT when there are several), "
	  "rewritten at each refresh" },
	{ OPT_INPUT, "input", "FILE",
	  "show a perf.data file (from perf record or ptop -o) instead of "
	  "profiling; - reads a pipe-mode stream (perf record -o -) from stdin" },
	{ OPT_OUTPUT, "output", "FILE",
	  "also write what is profiled to FILE in perf.data format; - writes "
	  "a pipe-mode stream to stdout (batch tables then go to stderr)" },
	{ OPT_TIME, "time", "START,END",
	  "with -i: only samples in this window, as perf report --time: "
	  "seconds (1887.5,1888) or percentages (10%-20%, 10%/2)" },
	{ OPT_VERBOSE, "verbose", NULL, "more messages (repeat for debug)" },
	{ OPT_HELP, "help", NULL, "this help" },
	{ OPT_VERSION, "version", NULL, "print the version" },
};

struct options {
	struct event_spec *specs;
	size_t nr_specs;
	u64 freq, period;
	struct target target;
	bool cpus[PTOP_MAX_CPUS];
	bool has_cpus;
	unsigned int mmap_pages;
	double delay;
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
	bool callgraph, folded;
	const char *pprof;
	double tree_limit;	/* -1: not given */
	int children;		/* -1: default (on with call graphs) */
	u32 dwarf_size;
	unsigned int max_stack;
	enum cg_order cg_order;
	const char *annotate;
	enum disasm_syntax syntax;
	int verbose;
	char **command;
	const char *input, *output, *time;
	const char *live_opt;	/* an option that only applies to profiling */
	int children_opt;	/* --children/--no-children as given, -1 */
	char **argv;
	int argc;
};

static volatile sig_atomic_t stop_requested;

/* SIGINT, SIGTERM, SIGHUP: the signal's number; the session ends as q
 * ends it (terminal restored, -o's file finished). */
static void on_stop(int sig)
{
	stop_requested = sig;
}

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

static int parse_pids(const char *s, struct target *t)
{
	char *copy = strdup(s), *tok, *save = NULL;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		u64 v;
		pid_t *p;

		if (parse_u64(tok, &v) || v == 0 || v > 0x7fffffff) {
			err = -EINVAL;
			break;
		}
		p = realloc(t->pids, (t->nr_pids + 1) * sizeof(*p));
		if (!p) {
			err = -ENOMEM;
			break;
		}
		t->pids = p;
		t->pids[t->nr_pids++] = (pid_t)v;
	}
	free(copy);
	if (!err && !t->nr_pids)
		err = -EINVAL;
	return err;
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

static const char *opt_name(int id)
{
	for (size_t i = 0; i < ARRAY_SIZE(opt_descs); i++)
		if (opt_descs[i].id == id)
			return opt_descs[i].lng;
	return "?";
}

/* Returns 0 to go on, or an exit status + 1. */
static int parse_options(int argc, char **argv, struct options *o)
{
	struct option longopts[ARRAY_SIZE(opt_descs) + 1];
	char shortopts[ARRAY_SIZE(opt_descs) * 2 + 3], *sp = shortopts;
	struct strbuf err;
	int c;

	memset(longopts, 0, sizeof(longopts));
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
	strbuf__init(&err);
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		u64 v;
		double d;

		switch (c) {
		case OPT_EVENT: case OPT_FREQ: case OPT_COUNT: case OPT_PID:
		case OPT_TID: case OPT_CPU: case OPT_MMAP:
			o->live_opt = opt_name(c);
			break;
		default:
			break;
		}
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
		case OPT_EVENT:
			strbuf__reset(&err);
			if (events__parse(optarg, &o->specs, &o->nr_specs, &err)) {
				fprintf(stderr, "ptop: %s\n", err.buf ? err.buf : optarg);
				strbuf__fini(&err);
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
			if (parse_pids(optarg, &o->target))
				return 1 + bad_usage("bad pid list '%s'", optarg);
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
		case OPT_DELAY:
			if (parse_seconds(optarg, &d) || d < 0.01)
				return 1 + bad_usage("bad delay '%s' (seconds, at least 0.01)", optarg);
			o->delay = d;
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
			strbuf__reset(&err);
			if (sort_spec__parse(optarg, &o->spec, &err)) {
				fprintf(stderr, "ptop: %s\n", err.buf ? err.buf : optarg);
				strbuf__fini(&err);
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
		case OPT_LIST_EVENTS:
			o->list_events = true;
			break;
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
		case OPT_FP:
			o->callgraph = true;
			o->dwarf_size = 0;
			break;
		case OPT_CALL_GRAPH:
			if (parse_call_graph(optarg, o))
				return 1 + bad_usage("bad call graph '%s' (fp or dwarf[,BYTES], "
						     "then ,caller or ,callee)", optarg);
			break;
		case OPT_MAX_STACK:
			if (parse_u64(optarg, &v) || v == 0 || v > 512)
				return 1 + bad_usage("bad stack depth '%s' (1..512)", optarg);
			o->max_stack = (unsigned int)v;
			break;
		case OPT_CHILDREN:
			o->children = 1;
			break;
		case OPT_NO_CHILDREN:
			o->children = 0;
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
	}
	strbuf__fini(&err);
	if (optind < argc) {
		if (o->target.kind != TARGET_SYSTEM)
			return 1 + bad_usage("%s", "a command cannot be combined with -p or -t");
		o->command = &argv[optind];
		o->target.kind = TARGET_COMMAND;
	}
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
	if (o->output && !*o->output)
		return 1 + bad_usage("%s", "-o needs a file name (or -)");
	o->children_opt = o->children;
	if (o->children < 0)
		o->children = o->callgraph;
	o->spec.children = o->children && o->callgraph;
	return 0;
}

/*
 * A stream on stdin (-i -) or stdout (-o -) is not the terminal: the
 * live view gets /dev/tty for its keys and its screen; batch tables go to
 * stderr when stdout carries the stream.  The stream keeps a duplicate
 * of its descriptor.
 */
static int redirect_stdio(bool batch, bool in_pipe, bool out_pipe,
			  int *in_fd, int *out_fd)
{
	int tty = -1, null = -1;

	if (in_pipe && isatty(STDIN_FILENO)) {
		pr_err("-i - reads a perf.data stream from stdin, which is a "
		       "terminal: pipe one in (perf record -o - ... | ptop -i -)");
		return -1;
	}
	if (out_pipe && isatty(STDOUT_FILENO)) {
		pr_err("-o - writes a binary perf.data stream to stdout, which "
		       "is a terminal: pipe it (ptop -o - | perf report -i -) "
		       "or give a file name");
		return -1;
	}
	if (!batch) {
		tty = open("/dev/tty", O_RDWR | O_CLOEXEC);
		if (tty < 0) {
			pr_err("the live view needs a terminal (/dev/tty: %s); "
			       "use -b for batch mode", strerror(errno));
			return -1;
		}
	} else if (in_pipe) {
		null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	}
	if (in_pipe) {
		*in_fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
		if (*in_fd < 0 || dup2(batch ? null : tty, STDIN_FILENO) < 0)
			goto fail;
	}
	if (out_pipe) {
		*out_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		if (*out_fd < 0 ||
		    dup2(batch ? STDERR_FILENO : tty, STDOUT_FILENO) < 0)
			goto fail;
	}
	if (tty >= 0)
		close(tty);
	if (null >= 0)
		close(null);
	return 0;
fail:
	pr_err("redirecting the standard streams: %s", strerror(errno));
	if (tty >= 0)
		close(tty);
	if (null >= 0)
		close(null);
	return -1;
}

/*
 * The kernel a recording's samples came from: the copy of its kallsyms
 * that perf record keeps in its build-id cache when there is one, else
 * this machine's, checked by build-id (or release) and _text address.
 */
static void recording_kernel(const struct perfdata_info *info,
			     struct symbolizer_opts *so, char *path,
			     size_t len)
{
	const struct pd_build_id *k = perfdata_info__kernel(info);
	const char *home = getenv("HOME");

	so->kernel_text = info->kernel_text;
	if (k) {
		int n = snprintf(path, len, "%s/.debug/[kernel.kallsyms]/",
				 home ? home : "/root");

		for (size_t i = 0; i < k->size && n > 0 && (size_t)n < len; i++)
			n += snprintf(path + n, len - (size_t)n, "%02x", k->bid[i]);
		if (n > 0 && (size_t)n < len)
			snprintf(path + n, len - (size_t)n, "/kallsyms");
		if (access(path, R_OK) == 0) {
			so->kallsyms = path;
			return;
		}
		so->kernel_build_id = k->bid;
		so->kernel_build_id_size = k->size;
	} else {
		so->kernel_release = info->osrelease;
	}
}

static void describe_recording(const char *path,
			       const struct perfdata_info *info, char *buf,
			       size_t len)
{
	int n = snprintf(buf, len, "%s %s", info->pipe ? "stream" : "file",
			 strcmp(path, "-") == 0 ? "stdin" : path);

	if (info->hostname && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " from %s",
			      info->hostname);
	if (info->osrelease && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " (%s)", info->osrelease);
}

/* Call graphs are shown for recordings whose samples carry chains. */
static bool recording_has_chains(const struct session *s)
{
	for (size_t i = 0; i < session__nr_events(s); i++)
		if (session__event_attr(s, i)->sample_type &
		    PERF_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

static void print_event(const char *name, const char *kind, void *ctx)
{
	(void)ctx;
	printf("  %-44s [%s]\n", name, kind);
}

int main(int argc, char **argv)
{
	struct options o = {
		.children = -1,
		.tree_limit = -1,
		.freq = 4000,
		.delay = 2.0,
		.mode = HIST_CUMULATIVE,
	};
	struct symbolizer_opts so = { 0 };
	struct dbgfetch *fetch = NULL;
	struct sampler_opts spo = { 0 };
	struct session_opts sso = { 0 };
	struct app a;
	struct sigaction sa;
	struct perfdata *pd = NULL;
	struct unwinder *unw = NULL;
	char kallsyms[4096];
	bool in_pipe, out_pipe;
	struct cmdout *cmdout = NULL;	/* live view: the command's output */
	int in_fd = -1, out_fd = -1, cmd_in = -1;
	int rc, err;

	setlocale(LC_ALL, "");
	sanitize__set_ascii(strcmp(nl_langinfo(CODESET), "UTF-8") != 0);
	log__set_handler(logq__stderr, NULL);
	sort_spec__default(&o.spec);

	rc = parse_options(argc, argv, &o);
	if (rc)
		return rc - 1;
	o.argv = argv;
	o.argc = argc;
	log__set_level(o.verbose >= 2 ? LOG_DEBUG : LOG_INFO);

	if (o.list_events) {
		struct evlist_opts eo = { .freq = 1, .mmap_pages = 1 };

		printf("Events this machine can open:\n");
		fflush(stdout);
		err = evlist__list_events(&eo, print_event, NULL);
		return err ? 1 : 0;
	}

	/* "sched:*": the tracepoints it names, before anything starts */
	if (o.nr_specs) {
		struct evlist_opts eo = { 0 };

		if (evlist__expand_tracepoints(&eo, &o.specs, &o.nr_specs))
			return 1;
	}

	in_pipe = o.input && strcmp(o.input, "-") == 0;
	out_pipe = o.output && strcmp(o.output, "-") == 0;
	if ((in_pipe || out_pipe) &&
	    redirect_stdio(o.batch, in_pipe, out_pipe, &in_fd, &out_fd))
		return 1;
	if (!o.batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		pr_err("the live view needs a terminal; use -b for batch mode "
		       "(ptop -b, or ptop -b --json)");
		return 1;
	}
	/* A terminal the live view cannot use fails before sampling. */
	if (!o.batch && tui__check_terminal())
		return 1;
	if (o.has_cpus)
		o.target.cpus = o.cpus;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a closed terminal or a dropped ssh session; nohup's SIG_IGN
	 * stays */
	{
		struct sigaction old;

		if (sigaction(SIGHUP, NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(SIGHUP, &sa, NULL);
	}
	signal(SIGPIPE, SIG_IGN);

	memset(&a, 0, sizeof(a));
	a.spec = o.spec;
	a.filter = o.filter;
	a.mode = o.mode;
	a.delay = o.delay;
	a.iterations = o.iterations;
	a.json = o.json;
	a.show_period = o.show_period;
	a.annotate = o.annotate;
	a.syntax = o.syntax;
	a.callgraph = o.callgraph;
	a.folded = o.folded;
	a.pprof = o.pprof;
	/* perf's callchain threshold unless --percent-limit */
	a.tree_limit = o.tree_limit >= 0 ? o.tree_limit :
		       o.filter.percent_limit > 0 ? o.filter.percent_limit : 0.5;
	a.cg_order = o.cg_order;
	a.stop = &stop_requested;
	a.input = o.input;
	a.output = o.output;
	app__describe_target(&o.target, o.command, a.target_desc,
			     sizeof(a.target_desc));
	if (o.input && !in_pipe) {
		struct strbuf e;

		strbuf__init(&e);
		pd = perfdata__open(o.input, &e);
		if (!pd) {
			pr_err("%s: %s", o.input, e.buf ? e.buf : strerror(errno));
			strbuf__fini(&e);
			return 1;
		}
		strbuf__fini(&e);
	}
	if (o.time) {
		const struct perfdata_info *info = pd ? perfdata__info(pd) : NULL;
		struct strbuf e;

		strbuf__init(&e);
		if (perfdata__parse_time(o.time, info ? info->first_sample_time : 0,
					 info ? info->last_sample_time : 0,
					 &sso.time_start, &sso.time_end, &e)) {
			pr_err("%s", e.buf ? e.buf : o.time);
			strbuf__fini(&e);
			perfdata__close(pd);
			return 1;
		}
		strbuf__fini(&e);
	}

	/* Batch keeps only what its sort keys need; the live view can
	 * regroup at any time, so it keeps everything. */
	sso.key_fields = o.batch ? sort_spec__key_fields(&o.spec) : KEY_ALL;
	sso.max_stack = o.max_stack;
	a.session = session__new(&sso);
	if (!a.session) {
		pr_err("out of memory");
		return 1;
	}
	so.debug_dirs = o.debug_dirs;
	so.nr_debug_dirs = o.nr_debug_dirs;
	so.no_demangle = o.no_demangle;
	so.demangle_params = o.demangle_params;
	so.symfs = o.symfs;
	/* files missing on disk by build-id; batch output waits for them */
	if (!o.no_debuginfod) {
		struct dbgfetch_opts fo = { .stop = &stop_requested };

		fetch = dbgfetch__new(&fo);
	}
	so.fetch = fetch;
	so.fetch_wait = o.batch;
	/* --call-graph dwarf, or a recording that may hold user stacks:
	 * live samples are unwound on the unwinder's thread, a file's or a
	 * stream's on the reader's (nothing may be dropped there) */
	if (o.input || o.dwarf_size) {
		struct unwind_opts uo = {
			.proc = o.input ? "/nonexistent" : NULL,
			.debug_dirs = (const char *const *)o.debug_dirs,
			.nr_debug_dirs = o.nr_debug_dirs,
			.symfs = o.symfs,
			.fetch = fetch,
			/* not a stream's: its reader holds the session
			 * lock that the live view needs */
			.fetch_wait = o.input && !in_pipe,
			.max_stack = o.max_stack,
			.sync = o.input != NULL,
		};

		unw = unwind__new(a.session, &uo);
		if (!unw && o.dwarf_size) {
			pr_err("cannot start the DWARF unwinder: %s",
			       strerror(errno));
			rc = 1;
			goto out;
		}
	}
	if (o.input) {
		const struct perfdata_info *info;

		if (pd) {
			/* the whole file, before the front end starts */
			struct perfdata_read_opts ro = { .stop = &stop_requested };

			a.start = app__now();
			err = perfdata__read(pd, a.session, &ro);
			if (err == -EINTR) {
				rc = 128 + (stop_requested ? stop_requested : SIGINT);
				goto out;
			}
			if (err) {
				pr_err("%s: %s", o.input, strerror(-err));
				rc = 1;
				goto out;
			}
			info = perfdata__info(pd);
			a.input_stats = perfdata__stats(pd);
			a.finished = true;
		} else {
			a.pipe = perfdata_pipe__new(a.session, in_fd, NULL);
			if (!a.pipe) {
				pr_err("out of memory");
				rc = 1;
				goto out;
			}
			in_fd = -1;	/* the reader's now */
			/* the stream's header records say which kernel */
			while ((err = perfdata_pipe__prelude(a.pipe)) == -EINTR &&
			       !stop_requested)
				;
			if (stop_requested) {
				rc = 128 + (stop_requested ? stop_requested : SIGINT);
				goto out;
			}
			info = perfdata_pipe__info(a.pipe);
			a.start = app__now();
		}
		recording_kernel(info, &so, kallsyms, sizeof(kallsyms));
		describe_recording(o.input, info, a.target_desc,
				   sizeof(a.target_desc));
		if (info->first_sample_time && info->last_sample_time >
					       info->first_sample_time)
			a.recorded = (double)(info->last_sample_time -
					      info->first_sample_time) / 1e9;
		/* the pids of a recording are not this machine's processes */
		so.proc = "/nonexistent";
		a.callgraph = recording_has_chains(a.session) || (in_pipe && o.callgraph);
		a.spec.children = (o.children_opt < 0 || o.children_opt) &&
				  a.callgraph;
		if (o.folded && !a.callgraph) {
			pr_err("--folded: %s has no call chains (record it "
			       "with perf record -g)", o.input);
			rc = 1;
			goto out;
		}
	}
	a.syms = symbolizer__new(&so);
	if (!a.syms) {
		pr_err("cannot start the symbolizer: %s", strerror(errno));
		rc = 1;
		goto out;
	}

	if (a.pipe && perfdata_pipe__start(a.pipe)) {
		rc = 1;
		goto out;
	}
	if (o.input) {
		rc = o.batch ? batch__run(&a) : tui__run(&a);
		goto out;
	}
	if (o.output) {
		struct perfdata_writer_opts wo = {
			.path = out_pipe ? "stdout" : o.output,
			.fd = out_fd,
			.pipe = out_pipe,
			.argv = (const char *const *)o.argv,
			.argc = o.argc,
			.version = "ptop " PTOP_VERSION,
		};

		a.writer = perfdata_writer__new(a.session, &wo);
		if (!a.writer) {
			rc = 1;
			goto out;
		}
		out_fd = -1;	/* the writer's now */
		spo.sink = perfdata_writer__sink;
		spo.sink_ctx = a.writer;
	}
	spo.ev.freq = o.freq;
	spo.ev.period = o.period;
	/* a DWARF sample carries its stack copy (8 KiB by default): 4 times
	 * the ring, or it overflows at 4000 Hz whenever the reader is
	 * late by a few ms */
	spo.ev.mmap_pages = o.mmap_pages ? o.mmap_pages :
			    o.dwarf_size ? 512 : 128;
	spo.ev.callchain = o.callgraph;
	spo.ev.max_stack = (u16)o.max_stack;
	spo.ev.dwarf_stack_size = o.dwarf_size;
	a.sampler = sampler__new(a.session, &spo);
	if (!a.sampler || sampler__set_events(a.sampler, o.specs, o.nr_specs)) {
		pr_err("out of memory");
		rc = 1;
		goto out;
	}
	if (o.target.kind == TARGET_COMMAND) {
		struct spawn_io io = { -1, STDERR_FILENO, -1 };
		pid_t child;

		/* batch: standard output holds the tables alone; live: the
		 * keyboard and the screen are the view's, the command reads
		 * /dev/null and its output goes through cmdout */
		if (!o.batch) {
			const char *slash = strrchr(o.command[0], '/');

			cmd_in = open("/dev/null", O_RDONLY | O_CLOEXEC);
			cmdout = cmd_in < 0 ? NULL :
					      cmdout__new(slash ? slash + 1 :
								  o.command[0]);
			if (!cmdout) {
				pr_err("cannot set up the command's output: %s",
				       strerror(errno));
				rc = 1;
				goto out;
			}
			io.in = cmd_in;
			io.out = io.err = cmdout__fd(cmdout);
			a.cmdout = cmdout;
		}
		child = sampler__spawn(a.sampler, o.command, &io);
		if (child < 0) {
			pr_err("cannot start '%s': %s", o.command[0],
			       strerror((int)-child));
			rc = 1;
			goto out;
		}
		if (cmdout && (err = cmdout__start(cmdout))) {
			pr_err("cannot read the command's output: %s",
			       strerror(-err));
			rc = 1;
			goto out;
		}
		o.target.pids = &child;
		o.target.nr_pids = 1;
		a.start = app__now();
		err = sampler__start(a.sampler, &o.target);
		o.target.pids = NULL;
		o.target.nr_pids = 0;
	} else {
		a.start = app__now();
		err = sampler__start(a.sampler, &o.target);
	}
	if (err) {
		rc = 1;
		goto out;
	}
	if (stop_requested) {
		rc = 128 + (stop_requested ? stop_requested : SIGINT);
		goto out;
	}
	rc = o.batch ? batch__run(&a) : tui__run(&a);
out:
	/* the writer finalizes its file once nothing else comes in */
	if (a.sampler)
		sampler__stop(a.sampler);
	if (a.writer) {
		struct perfdata_writer_stats ws;

		perfdata_writer__close(a.writer);
		perfdata_writer__stats(a.writer, &ws);
		if (ws.error && ws.error != -EPIPE && !rc)
			rc = 1;
		perfdata_writer__free(a.writer);
	}
	perfdata_pipe__free(a.pipe);
	perfdata__close(pd);
	if (in_fd >= 0)
		close(in_fd);
	if (out_fd >= 0)
		close(out_fd);
	sampler__free(a.sampler);
	/* the command is gone, the terminal is back: its output */
	if (cmdout) {
		cmdout__stop(cmdout);
		cmdout__replay(cmdout, STDOUT_FILENO);
		cmdout__free(cmdout);
	}
	if (cmd_in >= 0)
		close(cmd_in);
	if (unw && o.verbose) {
		struct unwind_stats us;
		double n;

		unwind__drain(unw);
		unwind__stats(unw, &us);
		n = us.unwound ? (double)us.unwound : 1.0;
		pr_info("unwind: %" PRIu64 " samples unwound, %.0f ns each, "
			"%.1f user frames each, %" PRIu64 " without a caller, "
			"%" PRIu64 " refused (queue full, peak %" PRIu64
			" KiB), %" PRIu64 " Dwfls built",
			us.unwound, (double)us.ns / n, (double)us.frames / n,
			us.failed, us.dropped, us.queue_peak >> 10,
			us.dwfl_new);
	}
	/* after every source: what it queued is unwound first */
	unwind__free(unw);
	symbolizer__free(a.syms);
	dbgfetch__free(fetch);
	session__free(a.session);
	free(o.specs);
	free(o.target.pids);
	free(o.debug_dirs);
	return rc;
}
