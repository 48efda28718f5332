/* cli_options: what each option of the command line (and of the
 * settings file) does to struct options, its argument parsed. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/cli_internal.h"
#include "src/sys/synth.h"
#include "ui/report/push.h"

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

/* -p's pids or command names (as the live view's p key takes them),
 * added to the target's: 0, or the exit status + 1. */
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
		return 1 + cli__bad_usage("-p %s: %s (pids or command names, "
				     "comma-separated)", list,
				     err->buf ? err->buf : strerror(-rc));
	all = realloc(o->target.pids, (o->target.nr_pids + nr) * sizeof(*all));
	if (!all) {
		free(pids);
		return 1 + cli__bad_usage("%s", "out of memory");
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
		if (o->specs_from_config && !o->in_config) {
			free(o->specs);
			o->specs = NULL;
			o->nr_specs = 0;
			o->specs_from_config = false;
		}
		strbuf__reset(err);
		if (events__parse(optarg, &o->specs, &o->nr_specs, err))
			return 1 + cli__bad_usage("%s", err->buf ? err->buf : optarg);
		break;
	case OPT_FREQ:
		if (parse_u64(optarg, &v) || v == 0 || v > 1000000)
			return 1 + cli__bad_usage("bad frequency '%s' (1..1000000 Hz)", optarg);
		o->freq = v;
		o->period = 0;
		break;
	case OPT_COUNT:
		if (parse_u64(optarg, &v) || v == 0)
			return 1 + cli__bad_usage("bad period '%s'", optarg);
		o->period = v;
		o->freq = 0;
		break;
	case OPT_PID:
	case OPT_TID:
		if (o->target.kind != TARGET_SYSTEM &&
		    o->target.kind != (c == OPT_PID ? TARGET_PIDS : TARGET_TIDS))
			return 1 + cli__bad_usage("%s", "-p and -t cannot be mixed");
		o->target.kind = c == OPT_PID ? TARGET_PIDS : TARGET_TIDS;
		if (c == OPT_TID) {
			if (pidlist__parse(optarg, &o->target.pids,
					   &o->target.nr_pids))
				return 1 + cli__bad_usage("bad thread id list '%s'",
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
			return 1 + cli__bad_usage("bad CPU list '%s' (e.g. 0,2-3)", optarg);
		o->has_cpus = true;
		break;
	case OPT_MMAP:
		if (parse_u64(optarg, &v) || v == 0 || v > (1 << 20) ||
		    (v & (v - 1)))
			return 1 + cli__bad_usage("bad ring size '%s': pages must be a power of two", optarg);
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
			return 1 + cli__bad_usage("bad call graph '%s' (fp[,BYTES] or "
					     "dwarf[,BYTES], then ,caller or ,callee)",
					     optarg);
		break;
	case OPT_MAX_STACK:
		if (parse_u64(optarg, &v) || v == 0 || v > 512)
			return 1 + cli__bad_usage("bad stack depth '%s' (1..512)", optarg);
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
			return 1 + cli__bad_usage("--debug-dir %s: %s", optarg,
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
			return 1 + cli__bad_usage("%s", "--annotate needs a symbol name");
		o->annotate = optarg;
		break;
	case OPT_DISASM:
		if (!strcmp(optarg, "intel"))
			o->syntax = DISASM_INTEL;
		else if (!strcmp(optarg, "att"))
			o->syntax = DISASM_ATT;
		else
			return 1 + cli__bad_usage("bad disassembler style '%s' (att or intel)", optarg);
		break;
	case OPT_NO_DEMANGLE:
		o->no_demangle = true;
		break;
	case OPT_DEMANGLE_PARAMS:
		o->demangle_params = true;
		break;
	case OPT_SYMFS:
		if (!*optarg)
			return 1 + cli__bad_usage("%s", "--symfs needs a directory");
		if (!is_dir(optarg))
			return 1 + cli__bad_usage("--symfs %s: %s", optarg,
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
			return 1 + cli__bad_usage("bad --debuginfod-maxsize '%s' "
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
			return 1 + cli__bad_usage("bad delay '%s' (seconds, at least 0.01)", optarg);
		o->delay = d;
		o->delay_given = true;
		break;
	case OPT_ITER:
		if (parse_u64(optarg, &v) || v == 0 || v > 1000000000)
			return 1 + cli__bad_usage("bad iteration count '%s'", optarg);
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
			return 1 + cli__bad_usage("%s", err->buf ? err->buf : optarg);
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
			return 1 + cli__bad_usage("bad order '%s': KEY[,reverse], KEY "
					     "overhead, sample, period, delta, "
					     "absdelta or a key of -s", optarg);
		break;
	case OPT_COLOR:
	case OPT_NO_COLOR:
		o->color = c == OPT_COLOR;
		break;
	case OPT_MOUSE:
	case OPT_NO_MOUSE:
		o->mouse = c == OPT_MOUSE;
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
			return 1 + cli__bad_usage("bad percent limit '%s'", optarg);
		o->filter.percent_limit = d;
		break;
	case OPT_ENTRIES:
		if (parse_u64(optarg, &v) || v == 0)
			return 1 + cli__bad_usage("bad row count '%s'", optarg);
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
	case OPT_TIMELINE:
		if (parse_seconds(optarg, &d) || d < 0.001 || d > 86400)
			return 1 + cli__bad_usage("bad --timeline '%s' (seconds, "
						  "0.001 to 86400)", optarg);
		o->timeline = d;
		break;
	case OPT_NO_HISTORY:
		o->no_history = true;
		break;
	case OPT_MEMORY_BUDGET:
		if (parse_u64(optarg, &v) || v > 1024 * 1024)
			return 1 + cli__bad_usage("bad --memory-budget '%s' "
						  "(MiB, 0 to 1048576)", optarg);
		o->memory_budget = (size_t)v << 20;
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
			return 1 + cli__bad_usage("bad --root '%s' (comm, pid, tid or none)",
					     optarg);
		break;
	case OPT_TREE_LIMIT:
		if (parse_seconds(optarg, &d) || d > 100)
			return 1 + cli__bad_usage("bad tree limit '%s'", optarg);
		o->tree_limit = d;
		break;
	case OPT_FOLDED:
		o->folded = true;
		break;
	case OPT_PPROF:
		if (!*optarg)
			return 1 + cli__bad_usage("%s", "--pprof needs a file name");
		o->pprof = optarg;
		break;
	case OPT_FLAMEGRAPH:
		if (!*optarg)
			return 1 + cli__bad_usage("%s", "--flamegraph needs a file name");
		o->flamegraph = optarg;
		break;
	case OPT_PUSH:
		if (!*optarg)
			return 1 + cli__bad_usage("%s", "--push needs a server URL");
		o->push = optarg;
		break;
	case OPT_APP_NAME:
		if (!*optarg || strpbrk(optarg, "{},= \t"))
			return 1 + cli__bad_usage("bad --app-name '%s' (no blanks, "
					     "'{', '}', ',' or '=')", optarg);
		o->app_name = optarg;
		break;
	case OPT_LABEL: {
		struct strbuf why;
		int bad;

		strbuf__init(&why);
		bad = push__check_label(optarg, &why) ?
			      1 + cli__bad_usage("%s", why.buf ? why.buf : "") :
			      0;
		strbuf__fini(&why);
		if (bad)
			return bad;
		if (o->nr_labels == PUSH_MAX_LABELS)
			return 1 + cli__bad_usage("at most %d --label", PUSH_MAX_LABELS);
		o->labels[o->nr_labels++] = optarg;
		break;
	}
	case OPT_VERBOSE:
		o->verbose++;
		break;
	case OPT_HELP:
		cli__usage(stdout);
		return 1;
	case OPT_VERSION:
		printf("ptop %s\n", PTOP_VERSION);
		return 1;
	case ':':
		return 1 + cli__bad_usage("option '%s' needs an argument",
				     argv[optind - 1]);
	default:
		/* a long one is refused before getopt sees it */
		return 1 + cli__bad_usage("unknown option '-%c'", optopt);
	}
	return 0;
}

int cli__apply(struct options *o, int c, char **argv, struct strbuf *err)
{
	int rc = profiling_option(o, c, err);

	if (rc < 0)
		rc = symbol_option(o, c);
	if (rc < 0)
		rc = other_option(o, c, argv, err);
	return rc;
}
