/* cli: ptop's command line: the one option table (getopt's tables and
 * --help come from it), the names checked and suggested, the settings
 * file, the parse and the checks of what may be combined (what each
 * option does: cli_options.c).  main.c wires what it says. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/cli_internal.h"
#include "src/core/config.h"
#include "src/sys/fdio.h"

/* The one option table: getopt's tables and --help come from it.  A
 * row with a group starts a section of --help; help is wrapped to 80
 * columns (doc/ptop.1 says the rest). */
static const struct opt_desc {
	int id;
	const char *lng;
	const char *arg;	/* NULL: no argument */
	const char *help;
	const char *group;	/* a new section of --help starts here */
} opt_descs[] = {
	{ OPT_PID, "pid", "PID|NAME[,...]",
	  "pids or command names; their threads and children",
	  "What to profile (default: the "
	  "whole machine)" },
	{ OPT_TID, "tid", "TID[,TID]", "these threads only" },
	{ OPT_CPU, "cpu", "LIST", "these CPUs only (0,2-3)" },
	{ OPT_CGROUP, "cgroup", "NAME[,NAME]",
	  "the tasks of these cgroups (v2), as perf's -G" },
	{ OPT_ALL_CGROUPS, "all-cgroups", NULL,
	  "-o: samples with cgroup ids (perf record's)" },
	{ OPT_INPUT, "input", "FILE",
	  "show a perf.data file instead (-: a stream on stdin)" },
	{ OPT_TIME, "time", "START,END",
	  "with -i: only this window (1887.5,1888, +2,+3.5 from the "
	  "first sample, or 10%-20%)" },
	{ OPT_BASELINE, "baseline", "FILE",
	  "compare with a perf.data FILE, as perf diff does" },
	{ OPT_EVENT, "event", "LIST",
	  "events, comma-separated (default cycles/cpu-clock)",
	  "Events and call chains" },
	{ OPT_FREQ, "freq", "HZ", "samples a second (default 4000)" },
	{ OPT_COUNT, "count", "PERIOD", "a sample every PERIOD events instead" },
	{ OPT_MMAP, "mmap-pages", "PAGES",
	  "ring pages per CPU, a power of two (default 128)" },
	{ OPT_FP, "call-graph-fp", NULL,
	  "call chains by frame pointers (--call-graph fp)" },
	{ OPT_CALL_GRAPH, "call-graph", "MODE",
	  "fp[,BYTES] or dwarf[,BYTES]; then ,caller or ,callee" },
	{ OPT_NO_FP_RECOVERY, "no-fp-recovery", NULL,
	  "fp chains as the kernel walks them: no stack copy" },
	{ OPT_KEEP_STACKS, "keep-stacks", NULL,
	  "-o with -g: the stack copies, not recovered chains" },
	{ OPT_MAX_STACK, "max-stack", "N", "at most N frames per chain" },
	{ OPT_OFF_CPU, "off-cpu", NULL,
	  "also time waited off CPU, by chain (implies -g)" },
	{ OPT_WALL, "wall", NULL,
	  "also wall-clock time, on and off CPU (--off-cpu)" },
	{ OPT_LIST_EVENTS, "list-events", NULL,
	  "list the events this machine can open" },
	{ OPT_SORT, "sort", "KEYS",
	  "group by KEYS: dso,sym,comm,pid,tid,cpu,cgroup,state "
	  "(default dso,sym); overhead, sample or period orders",
	  "The table" },
	{ OPT_ORDER, "order", "KEY[,reverse]",
	  "order rows by KEY: overhead (default), sample, period, or a "
	  "grouping key (A to Z)" },
	{ OPT_DELAY, "delay", "SECS", "refresh every SECS (default 2)" },
	{ OPT_ITER, "iterations", "N", "exit after N refreshes" },
	{ OPT_ZERO, "zero", NULL, "zero the counts at every refresh" },
	{ OPT_DECAY, "decay", NULL, "decay the counts by 7/8 at every refresh" },
	{ OPT_PERCENT_LIMIT, "percent-limit", "PCT", "hide rows under PCT %" },
	{ OPT_ENTRIES, "entries", "N", "show at most N rows" },
	{ OPT_HIDE_KERNEL, "hide-kernel", NULL, "hide kernel functions" },
	{ OPT_HIDE_USER, "hide-user", NULL, "hide user functions" },
	{ OPT_SHOW_PERIOD, "show-period", NULL, "show the Period column" },
	{ OPT_SHOW_IDLE, "show-idle", NULL,
	  "the idle task (pid 0) as rows, not a header share" },
	{ OPT_CHILDREN, "children", NULL,
	  "with chains: the Children column too (default)" },
	{ OPT_NO_CHILDREN, "no-children", NULL, "with chains: self cost only" },
	{ OPT_INLINE, "inline", NULL,
	  "inlined functions as frames and rows, for every chain "
	  "(default: chains unwound from stack copies, as perf)" },
	{ OPT_NO_INLINE, "no-inline", NULL,
	  "no inlined frames or rows, whatever the chains" },
	{ OPT_TREE_LIMIT, "tree-limit", "PCT",
	  "call trees hide branches under PCT % (default 0.5)" },
	{ OPT_NO_DEMANGLE, "no-demangle", NULL, "C++ and Rust names mangled" },
	{ OPT_DEMANGLE_PARAMS, "demangle-params", NULL,
	  "C++ functions with their parameters" },
	{ OPT_COLOR, "color", NULL, "colours, even with NO_COLOR set" },
	{ OPT_NO_COLOR, "no-color", NULL, "no colours (as NO_COLOR=1)" },
	{ OPT_MOUSE, "mouse", NULL,
	  "clicks, the wheel and double clicks in the live view (default)" },
	{ OPT_NO_MOUSE, "no-mouse", NULL,
	  "no mouse: the terminal's own selection works" },
	{ OPT_NO_HISTORY, "no-history", NULL,
	  "no History column (each row's share over time; H shows it)" },
	{ OPT_MEMORY_BUDGET, "memory-budget", "MB",
	  "profiling: histograms, chains and timeline in at most MB MiB, "
	  "cold entries folded past it (default 64; 0: none)" },
	{ OPT_NO_CONFIG, "no-config", NULL,
	  "ignore the settings file (~/.config/ptop/config)" },
	{ OPT_BATCH, "batch", NULL, "print tables, no terminal UI",
	  "Output" },
	{ OPT_JSON, "json", NULL, "with -b: a JSON object per event and refresh" },
	{ OPT_TIMELINE, "timeline", "SECS",
	  "with -b: each row's samples per SECS interval (JSON \"timeline\", "
	  "text a History column)" },
	{ OPT_FOLDED, "folded", NULL,
	  "with -b and chains: folded stacks (a;b;c N)" },
	{ OPT_ROOT, "root", "WHAT",
	  "stacks of --folded/--flamegraph start with comm, pid, tid "
	  "or none (default: comm for several processes)" },
	{ OPT_ANNOTATE, "annotate", "SYMBOL",
	  "with -b: SYMBOL's annotated code at each refresh" },
	{ OPT_DISASM, "disassembler-style", "STYLE",
	  "annotate in att (default) or intel syntax" },
	{ OPT_OUTPUT, "output", "FILE",
	  "also write a perf.data FILE (-: stream to stdout)" },
	{ OPT_FLAMEGRAPH, "flamegraph", "FILE",
	  "with chains: also an SVG flame graph (.json: d3's), rewritten "
	  "at each refresh" },
	{ OPT_PPROF, "pprof", "FILE",
	  "also a pprof profile, rewritten at each refresh" },
	{ OPT_PUSH, "push", "URL",
	  "send each refresh's profile to a Pyroscope server" },
	{ OPT_APP_NAME, "app-name", "NAME", "--push: the application's name" },
	{ OPT_LABEL, "label", "KEY=VALUE", "--push: a label (repeatable)" },
	{ OPT_DEBUG_DIR, "debug-dir", "DIR",
	  "debug files by build-id under DIR too", "Symbols" },
	{ OPT_SYMFS, "symfs", "DIR",
	  "binaries and debug files under DIR first" },
	{ OPT_NO_DEBUGINFOD, "no-debuginfod", NULL,
	  "never ask the DEBUGINFOD_URLS servers" },
	{ OPT_DEBUGINFOD_MAXSIZE, "debuginfod-maxsize", "BYTES",
	  "refuse a fetched file past BYTES (K, M, G; default 1G)" },
	{ OPT_NO_DWARF_CACHE, "no-dwarf-cache", NULL,
	  "keep no inflated copies of compressed DWARF" },
	{ OPT_NO_SYMBOL_CACHE, "no-symbol-cache", NULL,
	  "keep no symbol tables for later runs" },
	{ OPT_VERBOSE, "verbose", NULL, "more messages (twice: debug)", "" },
	{ OPT_HELP, "help", NULL, "this help" },
	{ OPT_VERSION, "version", NULL, "the version" },
};

/* --help: five common uses, then the options by section, in 80 columns
 * (a test holds it there). */
#define HELP_WIDTH 80
#define HELP_COL 28

static const char *const help_uses[][2] = {
	{ "ptop", "the whole machine, live (h: the keys)" },
	{ "ptop -p 1234", "one process (-p NAME: each one so named)" },
	{ "ptop -g -- ./program args", "start a program, with call graphs" },
	{ "ptop -b -n 1 --json", "one table as JSON, for scripts" },
	{ "ptop -o run.data -- ./program", "and keep it for perf report" },
};

/* text from column HELP_COL, words wrapped at HELP_WIDTH; the first line
 * continues what is already printed (at column col) */
static void help_wrap(FILE *f, size_t col, const char *text)
{
	const size_t width = HELP_WIDTH - HELP_COL;

	if (col + 2 > HELP_COL) {
		fputc('\n', f);
		col = 0;
	}
	fprintf(f, "%*s", (int)(HELP_COL - col), "");
	while (*text) {
		size_t n = strlen(text), cut = n;

		if (n > width) {
			cut = width;
			while (cut && text[cut] != ' ')
				cut--;
			if (!cut)
				cut = width;
		}
		fprintf(f, "%.*s\n", (int)cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		if (*text)
			fprintf(f, "%*s", HELP_COL, "");
	}
}

void cli__usage(FILE *f)
{
	fprintf(f, "usage: ptop [options] [-- COMMAND [ARGS...]]\n"
		   "A live, top-like CPU profiler: which functions burn the "
		   "CPU, machine-wide,\nin the processes of -p or -t, or in "
		   "COMMAND.\n\nCommon uses:\n");
	for (size_t i = 0; i < ARRAY_SIZE(help_uses); i++)
		fprintf(f, "  %-31s %s\n", help_uses[i][0], help_uses[i][1]);
	for (size_t i = 0; i < ARRAY_SIZE(opt_descs); i++) {
		const struct opt_desc *o = &opt_descs[i];
		int n;

		if (o->group)
			fprintf(f, "\n%s%s", o->group, *o->group ? ":\n" : "");
		if (o->id < 256)
			n = fprintf(f, "  -%c, --%s%s%s", o->id, o->lng,
				    o->arg ? " " : "", o->arg ? o->arg : "");
		else
			n = fprintf(f, "      --%s%s%s", o->lng,
				    o->arg ? " " : "", o->arg ? o->arg : "");
		help_wrap(f, (size_t)n, o->help);
	}
	fprintf(f, "\nIn the live view, h lists the keys.  Everything: "
		   "man ptop (doc/ptop.1).\n");
}

/* "FILE:LINE: " while the settings file is read: its errors name it */
static char cfg_where[PATH_MAX + 32];

int cli__bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ptop: %s", cfg_where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (cfg_where[0])
		fprintf(stderr, "\n(ptop --no-config runs without the file; "
				"see FILES in ptop(1))\n");
	else
		fprintf(stderr, "\nTry 'ptop --help' for the options.\n");
	return 2;
}

static const char *opt_name(int id)
{
	for (size_t i = 0; i < ARRAY_SIZE(opt_descs); i++)
		if (opt_descs[i].id == id)
			return opt_descs[i].lng;
	return "?";
}

/* The option named name[0..len) exactly, or NULL. */
static const struct opt_desc *find_long(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(opt_descs); i++)
		if (strlen(opt_descs[i].lng) == len &&
		    !memcmp(opt_descs[i].lng, name, len))
			return &opt_descs[i];
	return NULL;
}

/*
 * "; did you mean --json?" for a name that is no option's: the options
 * it begins (an abbreviation), else the nearest by a few edits.  prefix
 * goes before each name ("--", or "" in the config file).
 */
static void suggest(struct strbuf *sb, const char *name, size_t len,
		    const char *prefix)
{
	size_t best = len < 4 ? 1 : len < 9 ? 2 : 3, nr = 0, all = 0;
	const struct opt_desc *pick[4];

	/* an abbreviation: the options it begins */
	for (size_t i = 0; i < ARRAY_SIZE(opt_descs) && len; i++)
		if (!strncmp(opt_descs[i].lng, name, len) && all++ < 4)
			pick[nr++] = &opt_descs[i];
	for (size_t i = 0; !nr && i < ARRAY_SIZE(opt_descs); i++) {
		size_t dist = edit_distance(name, len, opt_descs[i].lng, false);

		if (dist < best) {
			best = dist;
			nr = all = 0;
		}
		if (dist == best && all++ < 4)
			pick[nr++] = &opt_descs[i];
	}
	for (size_t i = 0; i < nr; i++)
		strbuf__addf(sb, "%s%s%s", i == 0 ? "; did you mean " :
				 i + 1 < nr || all > nr ? ", " : " or ",
			     prefix, pick[i]->lng);
	if (all > nr)
		strbuf__addf(sb, " (%zu more)", all - nr);
	if (nr)
		strbuf__adds(sb, "?");
}

/* argv's "--name" or "--name=value": 0 when name is an option's, in
 * full; else the exit status + 1, said with a suggestion. */
static int check_long_name(const char *arg)
{
	size_t len;
	struct strbuf sb;
	int rc;

	if (strncmp(arg, "--", 2) || !arg[2])
		return 0;
	arg += 2;
	len = strcspn(arg, "=");
	if (find_long(arg, len))
		return 0;
	strbuf__init(&sb);
	suggest(&sb, arg, len, "--");
	rc = 1 + cli__bad_usage("unknown option '--%.*s'%s", (int)len, arg,
			   sb.buf ? sb.buf : "");
	strbuf__fini(&sb);
	return rc;
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

/* What the options say together, once all are read. */
static int check_options(struct options *o, int argc, char **argv)
{
	if (optind < argc) {
		if (o->target.kind != TARGET_SYSTEM)
			return 1 + cli__bad_usage("%s", "a command cannot be combined with -p or -t");
		o->command = &argv[optind];
		o->target.kind = TARGET_COMMAND;
	}
	if (o->cgroups && o->target.kind != TARGET_SYSTEM)
		return 1 + cli__bad_usage("%s", "-G samples cgroups on every CPU: "
				     "not with -p, -t or a command");
	if (o->json && !o->batch)
		return 1 + cli__bad_usage("%s", "--json needs -b");
	if (o->annotate && !o->batch)
		return 1 + cli__bad_usage("%s", "--annotate needs -b (in the live "
				     "view, a annotates the selected row)");
	if (o->filter.hide_kernel && o->filter.hide_user)
		return 1 + cli__bad_usage("%s", "-K and -U together hide everything");
	/* a recording's chains are enough (checked once it is open) */
	if (o->folded && !o->batch)
		return 1 + cli__bad_usage("%s", "--folded prints stacks in batch "
				     "mode: add -b (live, F shows the flame "
				     "graph)");
	if (o->folded && o->json)
		return 1 + cli__bad_usage("%s", "--folded and --json are two batch "
				     "formats: pick one");
	if (o->folded && !o->callgraph && !o->input)
		return 1 + cli__bad_usage("%s", "--folded needs call chains: add -g "
				     "(or --call-graph dwarf), or -i of a "
				     "recording made with them");
	if (o->stack_root != STACK_ROOT_AUTO && !o->folded && !o->flamegraph)
		return 1 + cli__bad_usage("%s", "--root goes with --folded or --flamegraph");
	if (o->keep_stacks && !o->output)
		return 1 + cli__bad_usage("%s", "--keep-stacks goes with -o");
	if ((o->app_name || o->nr_labels) && !o->push)
		return 1 + cli__bad_usage("%s", "--app-name and --label go with --push");
	if (o->push && o->mode == HIST_DECAY)
		return 1 + cli__bad_usage("%s", "--push sends each refresh's samples: "
				     "not with --decay");
	if (o->push && o->annotate)
		return 1 + cli__bad_usage("%s", "--push does not go with --annotate");
	if (o->flamegraph && !o->callgraph && !o->input)
		return 1 + cli__bad_usage("%s", "--flamegraph draws call chains: add "
				     "-g (or --call-graph dwarf), or -i of a "
				     "recording made with them");
	if ((o->flamegraph || o->pprof) && o->annotate)
		return 1 + cli__bad_usage("--%s writes the table's profile: not with "
				     "--annotate, which prints code instead",
				     o->pprof ? "pprof" : "flamegraph");
	if (o->input && o->output)
		return 1 + cli__bad_usage("%s", "-i and -o cannot be combined: -o "
				     "records what ptop profiles");
	if (o->input && o->command)
		return 1 + cli__bad_usage("%s", "-i shows a recording: a command "
				     "only applies to profiling");
	/* the file's events are for profiling: a recording has its own */
	if (o->input && o->specs_from_config) {
		free(o->specs);
		o->specs = NULL;
		o->nr_specs = 0;
	}
	if (o->input && o->live_opt)
		return 1 + cli__bad_usage("-i shows a recording: --%s only applies "
				     "to profiling", o->live_opt);
	if (o->time && !o->input)
		return 1 + cli__bad_usage("%s", "--time needs -i");
	if (o->timeline > 0 && (!o->batch || o->annotate || o->folded))
		return 1 + cli__bad_usage("%s", "--timeline needs -b (and no "
				     "--annotate or --folded): the live view "
				     "keeps a cell per refresh (-d)");
	if (o->baseline && (!*o->baseline || strcmp(o->baseline, "-") == 0))
		return 1 + cli__bad_usage("%s", "--baseline needs a perf.data file "
				     "(not a stream)");
	if (sort_key__groups(o->spec.order) &&
	    !sort_spec__has(&o->spec, o->spec.order))
		return 1 + cli__bad_usage("rows are ordered by %s but not grouped "
				     "by it: add it to -s (-s dso,sym,%s)",
				     sort_key__name(o->spec.order),
				     sort_key__name(o->spec.order));
	if (o->batch && !o->baseline && (o->spec.order == SORT_DELTA ||
					  o->spec.order == SORT_ABSDELTA))
		return 1 + cli__bad_usage("-s %s orders by the change against a "
				     "baseline: give --baseline FILE",
				     sort_key__name(o->spec.order));
	if (o->baseline && o->annotate)
		return 1 + cli__bad_usage("%s", "--baseline does not go with "
				     "--annotate");
	if (o->output && !*o->output)
		return 1 + cli__bad_usage("%s", "-o needs a file name (or -)");
	if (o->off_cpu && o->input && strcmp(o->input, "-") == 0)
		return 1 + cli__bad_usage("%s", "--off-cpu reads a recording's file, "
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
				return 1 + cli__bad_usage("%s", "--wall: cpu-clock");
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
			return 1 + cli__bad_usage("%s", "--wall counts time on CPU "
					     "in nanoseconds: it needs "
					     "cpu-clock or task-clock among "
					     "the events (-e)");
		/* the events asked for (or the default), then the waits' */
		if (!o->nr_specs) {
			sp = realloc(o->specs, sizeof(*sp));
			if (!sp)
				return 1 + cli__bad_usage("%s", "out of memory");
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

/* ---- the settings file ---- */

/* What a settings file may set: how the profile is shown, and the
 * events it is of; not what is profiled, read or written, nor what makes
 * a run end (doc/ptop.1, FILES). */
static const int config_opts[] = {
	OPT_EVENT, OPT_FREQ, OPT_COUNT, OPT_SORT, OPT_ORDER, OPT_DELAY,
	OPT_ZERO, OPT_DECAY, OPT_PERCENT_LIMIT, OPT_ENTRIES, OPT_TREE_LIMIT,
	OPT_HIDE_KERNEL, OPT_HIDE_USER, OPT_SHOW_PERIOD, OPT_SHOW_IDLE,
	OPT_CHILDREN, OPT_NO_CHILDREN, OPT_INLINE, OPT_NO_INLINE,
	OPT_NO_DEMANGLE, OPT_DEMANGLE_PARAMS, OPT_DISASM, OPT_COLOR,
	OPT_NO_COLOR, OPT_MOUSE, OPT_NO_MOUSE, OPT_NO_HISTORY,
};

/* The options that only apply to profiling (not with -i). */
static const int live_opts[] = {
	OPT_EVENT, OPT_FREQ, OPT_COUNT, OPT_PID, OPT_TID, OPT_CPU, OPT_MMAP,
	OPT_WALL, OPT_CGROUP, OPT_ALL_CGROUPS, OPT_NO_FP_RECOVERY,
	OPT_KEEP_STACKS, OPT_MEMORY_BUDGET,
};

static bool in_list(const int *list, size_t n, int id)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == id)
			return true;
	return false;
}

struct config_ctx {
	struct options *o;
	const char *path;
	struct strbuf err;
};

/* config_fn: one line of the file, as its option */
static int config_setting(void *ctx, unsigned int line, const char *name,
			  char *value)
{
	struct config_ctx *cc = ctx;
	const struct opt_desc *d = find_long(name, strlen(name));
	int rc;

	snprintf(cfg_where, sizeof(cfg_where), "%s:%u: ", cc->path, line);
	if (!d) {
		strbuf__reset(&cc->err);
		suggest(&cc->err, name, strlen(name), "");
		return 1 + cli__bad_usage("unknown setting '%s'%s", name,
				     cc->err.buf ? cc->err.buf : "");
	}
	if (!in_list(config_opts, ARRAY_SIZE(config_opts), d->id))
		return 1 + cli__bad_usage("'%s' cannot be set in the settings file: "
				     "it holds how the view looks (sort, order, "
				     "event, delay, limits, children, inline, "
				     "columns, colours, mouse), not what is "
				     "profiled or written", name);
	if (d->arg && !value)
		return 1 + cli__bad_usage("'%s' needs a value: %s = %s", name, name,
				     d->arg);
	if (!d->arg && value)
		return 1 + cli__bad_usage("'%s' is a switch: write its name alone, "
				     "without '= %s'", name, value);
	optarg = value;	/* the handlers keep no pointer into it */
	rc = cli__apply(cc->o, d->id, NULL, &cc->err);
	return rc;
}

/* $XDG_CONFIG_HOME/ptop/config, else ~/.config/ptop/config (malloc'd),
 * or NULL */
static char *config_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *path = NULL;

	/* the spec: a relative path is to be ignored */
	if (xdg && xdg[0] == '/') {
		if (asprintf(&path, "%s/ptop/config", xdg) < 0)
			path = NULL;
	} else if (home && *home) {
		if (asprintf(&path, "%s/.config/ptop/config", home) < 0)
			path = NULL;
	}
	return path;
}

/* The settings file, applied before the command line: 0 (read, or none,
 * or not trusted: o->config_note says so), or the exit status + 1. */
static int read_config(struct options *o)
{
	struct config_ctx cc = { .o = o };
	struct strbuf text;
	struct strbuf why;
	int err, rc = 0;

	if (!o->config_path)
		return 0;
	o->in_config = true;
	cc.path = o->config_path;
	strbuf__init(&text);
	strbuf__init(&cc.err);
	strbuf__init(&why);
	err = fd__read_owned(o->config_path, &text, 64 << 10, &why);
	if (err == -EPERM) {
		snprintf(o->config_note, sizeof(o->config_note),
			 "%s: ignored: %s", o->config_path,
			 why.buf ? why.buf : "");
	} else if (err == -EFBIG) {
		snprintf(o->config_note, sizeof(o->config_note),
			 "%s: ignored: larger than 64 KiB", o->config_path);
	} else if (err && err != -ENOENT && err != -ENOTDIR) {
		snprintf(o->config_note, sizeof(o->config_note),
			 "%s: ignored: %s", o->config_path, strerror(-err));
	} else if (!err) {
		err = config__parse(text.buf ? text.buf : "", text.len,
				    config_setting, &cc, &cc.err);
		if (err == -EINVAL && cc.err.buf) {
			/* "LINE: why" */
			snprintf(cfg_where, sizeof(cfg_where), "%s:",
				 o->config_path);
			rc = 1 + cli__bad_usage("%s", cc.err.buf);
		} else if (err > 0) {
			rc = err;
		} else if (err) {
			rc = 1 + cli__bad_usage("%s", strerror(-err));
		}
		o->specs_from_config = o->nr_specs > 0;
		o->config_read = !rc;
	}
	cfg_where[0] = '\0';
	o->in_config = false;
	strbuf__fini(&why);
	strbuf__fini(&cc.err);
	strbuf__fini(&text);
	return rc;
}

/*
 * Whether the command line asks for --help, --version or --no-config:
 * then the file is not read (a bad file must not stop --help).  Walks
 * the options as getopt will, skipping their arguments.
 */
static bool skip_config(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1] || !strcmp(a, "--"))
			return false;	/* the command, or its start */
		if (a[1] == '-') {
			size_t len = strcspn(a + 2, "=");
			const struct opt_desc *d = find_long(a + 2, len);

			if (!d)
				continue;
			if (d->id == OPT_HELP || d->id == OPT_VERSION ||
			    d->id == OPT_NO_CONFIG)
				return true;
			if (d->arg && !a[2 + len])
				i++;
			continue;
		}
		for (const char *p = a + 1; *p; p++) {
			const struct opt_desc *d = NULL;

			for (size_t k = 0; k < ARRAY_SIZE(opt_descs); k++)
				if (opt_descs[k].id == *p)
					d = &opt_descs[k];
			if (!d)
				continue;
			if (d->id == OPT_HELP || d->id == OPT_VERSION)
				return true;
			if (d->arg) {
				if (!p[1])
					i++;
				break;
			}
		}
	}
	return false;
}

void cli__defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->children = -1;
	o->inline_rows = -1;
	o->fp_copy = FP_COPY_DEFAULT;
	o->tree_limit = -1;
	o->color = -1;
	o->mouse = true;
	o->freq = 4000;
	o->delay = 2.0;
	o->mode = HIST_CUMULATIVE;
	o->memory_budget = (size_t)64 << 20;
	sort_spec__default(&o->spec);
}

int cli__parse(int argc, char **argv, struct options *o)
{
	struct option longopts[ARRAY_SIZE(opt_descs) + 1];
	char shortopts[ARRAY_SIZE(opt_descs) * 2 + 3];
	struct strbuf err;
	int c, rc = 0, cluster = -1;

	/* known even when not read: the setup screen (F2) saves there */
	o->config_path = config_path();
	if (!skip_config(argc, argv)) {
		rc = read_config(o);
		if (rc)
			return rc;
	}
	getopt_tables(longopts, shortopts);
	strbuf__init(&err);
	opterr = 0;
	while (!rc) {
		int before = optind;

		/* a long option is spelt in full: getopt would take a
		 * prefix (not inside a cluster of short ones: -bg) */
		if (optind < argc && optind != cluster &&
		    (rc = check_long_name(argv[optind])))
			break;
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		if (c == -1)
			break;
		cluster = optind == before ? before : -1;
		if (in_list(live_opts, ARRAY_SIZE(live_opts), c))
			o->live_opt = opt_name(c);
		rc = cli__apply(o, c, argv, &err);
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
	free(o->config_path);
	free(o->specs);
	free(o->target.pids);
	free(o->debug_dirs);
}
