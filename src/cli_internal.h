/* cli_internal: what the command line's files share (cli.c: the option
 * table, --help, the settings file, the checks; cli_options.c: what each
 * option does). */
#ifndef PTOP_CLI_INTERNAL_H
#define PTOP_CLI_INTERNAL_H

#include <stdio.h>

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
	OPT_TIMELINE,
	OPT_NO_HISTORY,
	OPT_MEMORY_BUDGET,
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
	OPT_MOUSE,
	OPT_NO_MOUSE,
};

/* A usage error on stderr ("ptop: ...", with the settings file's name and
 * line while it is read, then where to look): returns 2. */
int cli__bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* --help */
void cli__usage(FILE *f);
/* Option c (its argument in optarg) applied to o: 0, or the exit status
 * + 1 (said). */
int cli__apply(struct options *o, int c, char **argv, struct strbuf *err);

#endif
