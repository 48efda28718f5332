/* cli: ptop's command line: the one option table (getopt's tables and
 * --help come from it), the parsing of each option and the checks of
 * what may be combined.  main.c wires what it says. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ui/report/push.h"
#include "src/cli.h"
#include "src/core/config.h"
#include "src/sys/fdio.h"
#include "src/sys/synth.h"

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
	OPT_ORDER = 800,
	OPT_COLOR,
	OPT_NO_COLOR,
	OPT_NO_CONFIG,
};

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
	  "with -i: only this window (1887.5,1888 or 10%-20%)" },
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
	{ OPT_NO_CONFIG, "no-config", NULL,
	  "ignore the settings file (~/.config/ptop/config)" },
	{ OPT_BATCH, "batch", NULL, "print tables, no terminal UI",
	  "Output" },
	{ OPT_JSON, "json", NULL, "with -b: a JSON object per event and refresh" },
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

static void usage(FILE *f)
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

static int __attribute__((format(printf, 1, 2))) bad_usage(const char *fmt, ...)
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

/* The option named name[0..len) exactly, or NULL. */
static const struct opt_desc *find_long(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(opt_descs); i++)
		if (strlen(opt_descs[i].lng) == len &&
		    !memcmp(opt_descs[i].lng, name, len))
			return &opt_descs[i];
	return NULL;
}

/* Edits (insert, delete, replace, swap two neighbours) from a[0..n) to
 * b, up to a small bound (names are short). */
static size_t edit_distance(const char *a, size_t n, const char *b)
{
	size_t m = strlen(b), d[40][40];

	if (n >= 40 || m >= 40)
		return 40;
	for (size_t i = 0; i <= n; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			size_t v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[n][m];
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
		size_t dist = edit_distance(name, len, opt_descs[i].lng);

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
	rc = 1 + bad_usage("unknown option '--%.*s'%s", (int)len, arg,
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

/* -p's pids or command names (as the live view's p key takes them),
 * added to the target's: 0, or the exit status + 1. */
static int add_pids(struct options *o, const char *list, struct strbuf *err)
{
	pid_t *pids, *all;
	size_t nr;
	int rc;

	strbuf__reset(err);
	rc = synth__resolve_pids("/proc", list, getpid(), &pids, &nr, err);
	if (rc == -ESRCH) {
		fprintf(stderr, "ptop: -p %s: %s\n", list, err->buf);
		return 1 + 1;
	}
	if (rc)
		return 1 + bad_usage("-p %s: %s (pids or command names, "
				     "comma-separated)", list,
				     err->buf ? err->buf : strerror(-rc));
	all = realloc(o->target.pids, (o->target.nr_pids + nr) * sizeof(*all));
	if (!all) {
		free(pids);
		return 1 + bad_usage("%s", "out of memory");
	}
	memcpy(all + o->target.nr_pids, pids, nr * sizeof(*all));
	o->target.pids = all;
	o->target.nr_pids += nr;
	free(pids);
	return 0;
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
		/* the command line's events replace the file's */
		if (o->specs_from_config && !cfg_where[0]) {
			free(o->specs);
			o->specs = NULL;
			o->nr_specs = 0;
			o->specs_from_config = false;
		}
		strbuf__reset(err);
		if (events__parse(optarg, &o->specs, &o->nr_specs, err))
			return 1 + bad_usage("%s", err->buf ? err->buf : optarg);
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
		if (c == OPT_TID) {
			if (pidlist__parse(optarg, &o->target.pids,
					   &o->target.nr_pids))
				return 1 + bad_usage("bad thread id list '%s'",
						     optarg);
			break;
		}
		return add_pids(o, optarg, err);
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

/* A folder a user names (--symfs, --debug-dir) exists: a typo would
 * otherwise change nothing but the names, in silence.  errno says why
 * not. */
static bool is_dir(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return false;
	errno = ENOTDIR;
	return S_ISDIR(st.st_mode);
}

/* Where symbols come from and how they read: 0, the exit status + 1, or
 * -1 when c is none of these options. */
static int symbol_option(struct options *o, int c)
{
	switch (c) {
	case OPT_DEBUG_DIR: {
		const char **p;

		if (!is_dir(optarg))
			return 1 + bad_usage("--debug-dir %s: %s", optarg,
					     errno == ENOTDIR ?
					     "not a directory" : strerror(errno));
		p = realloc(o->debug_dirs, (o->nr_debug_dirs + 1) * sizeof(*p));
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
		if (!is_dir(optarg))
			return 1 + bad_usage("--symfs %s: %s", optarg,
					     errno == ENOTDIR ?
					     "not a directory" : strerror(errno));
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

/* Whether a -s list holds an ordering key (overhead, sample...). */
static bool sort_list_orders(const char *list)
{
	char buf[256], *tok, *save = NULL;
	enum sort_key k;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (!sort_key__parse(tok, &k) && !sort_key__groups(k))
			return true;
	return false;
}

/* --order KEY[,reverse] */
static int parse_order(const char *s, struct sort_spec *spec)
{
	char buf[64], *comma;
	enum sort_key k;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	comma = strchr(buf, ',');
	if (comma) {
		*comma++ = '\0';
		if (strcmp(comma, "reverse"))
			return -EINVAL;
	}
	if (sort_key__parse(buf, &k))
		return -EINVAL;
	spec->order = k;
	spec->invert = comma != NULL;
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
	case OPT_SORT: {
		struct sort_spec sp;

		strbuf__reset(err);
		if (sort_spec__parse(optarg, &sp, err))
			return 1 + bad_usage("%s", err->buf ? err->buf : optarg);
		memcpy(o->spec.group, sp.group, sizeof(sp.group));
		o->spec.nr_group = sp.nr_group;
		/* an order among the keys (perf's -s comm,sample); else
		 * --order's, or the file's, stays */
		if (sort_list_orders(optarg)) {
			o->spec.order = sp.order;
			o->spec.invert = false;
		}
		o->sort_given = true;
		break;
	}
	case OPT_ORDER:
		if (parse_order(optarg, &o->spec))
			return 1 + bad_usage("bad order '%s': KEY[,reverse], KEY "
					     "overhead, sample, period, delta, "
					     "absdelta or a key of -s", optarg);
		break;
	case OPT_COLOR:
	case OPT_NO_COLOR:
		o->color = c == OPT_COLOR;
		break;
	case OPT_NO_CONFIG:
		break;	/* seen before the file is read */
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
		/* a long one is refused before getopt sees it */
		return 1 + bad_usage("unknown option '-%c'", optopt);
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
	if (o->folded && !o->batch)
		return 1 + bad_usage("%s", "--folded prints stacks in batch "
				     "mode: add -b (live, F shows the flame "
				     "graph)");
	if (o->folded && o->json)
		return 1 + bad_usage("%s", "--folded and --json are two batch "
				     "formats: pick one");
	if (o->folded && !o->callgraph && !o->input)
		return 1 + bad_usage("%s", "--folded needs call chains: add -g "
				     "(or --call-graph dwarf), or -i of a "
				     "recording made with them");
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
	if (o->flamegraph && !o->callgraph && !o->input)
		return 1 + bad_usage("%s", "--flamegraph draws call chains: add "
				     "-g (or --call-graph dwarf), or -i of a "
				     "recording made with them");
	if ((o->flamegraph || o->pprof) && o->annotate)
		return 1 + bad_usage("--%s writes the table's profile: not with "
				     "--annotate, which prints code instead",
				     o->pprof ? "pprof" : "flamegraph");
	if (o->input && o->output)
		return 1 + bad_usage("%s", "-i and -o cannot be combined: -o "
				     "records what ptop profiles");
	if (o->input && o->command)
		return 1 + bad_usage("%s", "-i shows a recording: a command "
				     "only applies to profiling");
	/* the file's events are for profiling: a recording has its own */
	if (o->input && o->specs_from_config) {
		free(o->specs);
		o->specs = NULL;
		o->nr_specs = 0;
	}
	if (o->input && o->live_opt)
		return 1 + bad_usage("-i shows a recording: --%s only applies "
				     "to profiling", o->live_opt);
	if (o->time && !o->input)
		return 1 + bad_usage("%s", "--time needs -i");
	if (o->baseline && (!*o->baseline || strcmp(o->baseline, "-") == 0))
		return 1 + bad_usage("%s", "--baseline needs a perf.data file "
				     "(not a stream)");
	if (sort_key__groups(o->spec.order) &&
	    !sort_spec__has(&o->spec, o->spec.order))
		return 1 + bad_usage("rows are ordered by %s but not grouped "
				     "by it: add it to -s (-s dso,sym,%s)",
				     sort_key__name(o->spec.order),
				     sort_key__name(o->spec.order));
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
	OPT_NO_COLOR,
};

/* The options that only apply to profiling (not with -i). */
static const int live_opts[] = {
	OPT_EVENT, OPT_FREQ, OPT_COUNT, OPT_PID, OPT_TID, OPT_CPU, OPT_MMAP,
	OPT_WALL, OPT_CGROUP, OPT_ALL_CGROUPS, OPT_NO_FP_RECOVERY,
	OPT_KEEP_STACKS,
};

static bool in_list(const int *list, size_t n, int id)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == id)
			return true;
	return false;
}

/* One option's effect: 0, or the exit status + 1. */
static int apply_option(struct options *o, int c, char **argv,
			struct strbuf *err)
{
	int rc = profiling_option(o, c, err);

	if (rc < 0)
		rc = symbol_option(o, c);
	if (rc < 0)
		rc = other_option(o, c, argv, err);
	return rc;
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
		return 1 + bad_usage("unknown setting '%s'%s", name,
				     cc->err.buf ? cc->err.buf : "");
	}
	if (!in_list(config_opts, ARRAY_SIZE(config_opts), d->id))
		return 1 + bad_usage("'%s' cannot be set in the settings file: "
				     "it holds how the view looks (sort, order, "
				     "event, delay, limits, children, inline, "
				     "columns, colours), not what is profiled "
				     "or written", name);
	if (d->arg && !value)
		return 1 + bad_usage("'%s' needs a value: %s = %s", name, name,
				     d->arg);
	if (!d->arg && value)
		return 1 + bad_usage("'%s' is a switch: write its name alone, "
				     "without '= %s'", name, value);
	optarg = value;	/* the handlers keep no pointer into it */
	rc = apply_option(cc->o, d->id, NULL, &cc->err);
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
	char why[128];
	int err, rc = 0;

	o->config_path = config_path();
	if (!o->config_path)
		return 0;
	cc.path = o->config_path;
	strbuf__init(&text);
	strbuf__init(&cc.err);
	err = fd__read_owned(o->config_path, &text, 64 << 10, why,
			     sizeof(why));
	if (err == -EPERM) {
		snprintf(o->config_note, sizeof(o->config_note),
			 "%s: ignored: %s", o->config_path, why);
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
			rc = 1 + bad_usage("%s", cc.err.buf);
		} else if (err > 0) {
			rc = err;
		} else if (err) {
			rc = 1 + bad_usage("%s", strerror(-err));
		}
		o->specs_from_config = o->nr_specs > 0;
		o->config_read = !rc;
	}
	cfg_where[0] = '\0';
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
	int c, rc = 0, cluster = -1;

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
		rc = apply_option(o, c, argv, &err);
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
