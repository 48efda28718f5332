/* main: ptop's entry: the command line (cli.c), then the wiring of a
 * source (live sampler, perf.data file or stream), the session, the
 * symbolizer and a front end (batch or the live view). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/sys/clock.h"
#include "ui/report/push.h"
#include "src/cli.h"
#include "src/core/log.h"
#include "src/core/session.h"
#include "src/core/timeline.h"
#include "src/perfdata/perfdata.h"
#include "src/sys/catalog.h"
#include "src/sys/cgroupfs.h"
#include "src/sys/cmdout.h"
#include "src/sys/evlist.h"
#include "src/sys/heap.h"
#include "src/sys/host.h"
#include "src/sys/mapguard.h"
#include "src/sys/outfile.h"
#include "src/sys/sampler.h"
#include "symbols/cfitab.h"
#include "symbols/dbgfetch.h"
#include "symbols/cslib.h"
#include "symbols/symbolizer.h"
#include "symbols/unwind.h"
#include "ui/report/app.h"
#include "ui/report/sanitize.h"
#include "ui/tui/logq.h"
#include "ui/tui/tui.h"

static volatile sig_atomic_t stop_requested;

/* SIGINT, SIGTERM, SIGHUP: the signal's number; the session ends as q
 * ends it (terminal restored, -o's file finished). */
static void on_stop(int sig)
{
	stop_requested = sig;
}

/*
 * A stop request ends ptop at any phase (start-up, a recording's read,
 * the front end), and the phase it cut short returns RC_STOPPED.  The
 * exit status does not depend on the phase but on the outputs
 * (exit_status): 0 when every output ptop owes is complete (the tables
 * printed are whole ones, -o's file is finished on the way out); 128
 * plus the signal's number only when one had to be abandoned.
 */
#define RC_STOPPED (-1)

/* Everything main wires together, and what the end takes apart. */
struct run {
	struct options o;
	struct app a;
	struct symbolizer_opts so;
	struct session_opts sso;
	struct sampler_opts spo;
	struct dbgfetch *fetch;
	struct perfdata *pd;
	struct unwinder *unw;
	struct cfitab *cfi;	/* -g's recovery of callers */
	struct cmdout *cmdout;	/* live view: the command's output */
	int *cgroup_fds;	/* -G */
	size_t nr_cgroups;
	char kallsyms[4096];
	/* --baseline FILE: a session of its own, read at once */
	struct perfdata *base_pd;
	struct session *base_session;
	struct symbolizer *base_syms;
	struct unwinder *base_unw;
	struct cfitab *base_cfi;
	char base_kallsyms[4096];
	bool in_pipe, out_pipe;
	int in_fd, out_fd, cmd_in;
};

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

/* Whether a recording's user chains come from stack copies unwound by
 * CFI (perf record --call-graph dwarf: a user stack and no user part in
 * the kernel's chain), not from the kernel's frame-pointer walk. */
static bool recording_unwinds(const struct session *s)
{
	for (size_t i = 0; i < session__nr_events(s); i++) {
		const struct perf_event_attr *a = session__event_attr(s, i);

		if ((a->sample_type & PERF_SAMPLE_STACK_USER) &&
		    (a->exclude_callchain_user ||
		     !(a->sample_type & PERF_SAMPLE_CALLCHAIN)))
			return true;
	}
	return false;
}

/*
 * Inlined functions: perf 6.1 expands them (frames, and rows with
 * children) only in the chains its DWARF unwinder made; a frame-pointer
 * chain gets none, even with --inline (its add_callchain_ip never asks;
 * 6.4 added that, 6.5 took it out again for its cost).  ptop does the
 * same by default; --inline expands every chain, --no-inline none.
 * Rows by default only for a recording (perf report; live: the key l).
 */
static void app_inline(struct run *r, bool unwound)
{
	const struct options *o = &r->o;
	struct app *a = &r->a;

	a->inline_frames = o->inline_rows >= 0 ? o->inline_rows : unwound;
	a->inline_rows = o->inline_rows >= 0 ? o->inline_rows :
					       o->input != NULL && unwound;
}

/* Call graphs are shown for recordings whose samples carry chains. */
/* Whether any event of a recording samples the field (PERF_SAMPLE_*). */
static bool recording_samples(const struct session *s, u64 field)
{
	for (size_t i = 0; i < session__nr_events(s); i++)
		if (session__event_attr(s, i)->sample_type & field)
			return true;
	return false;
}

static void print_event(const char *name, const char *kind, void *ctx)
{
	(void)ctx;
	printf("  %-44s [%s]\n", name, kind);
}

static int list_events(void)
{
	printf("Events this machine can open:\n");
	fflush(stdout);
	return catalog__list_events(NULL, NULL, print_event, NULL) ? 1 : 0;
}

/* Streams on stdin/stdout, and the terminal the live view needs: 0 or 1. */
static int check_terminal(struct run *r)
{
	struct options *o = &r->o;

	r->in_pipe = o->input && strcmp(o->input, "-") == 0;
	/* /dev/stdout and its kin are stdout, resolved once: "-" */
	r->out_pipe = o->output &&
		      outfile__fd_named(o->output) == STDOUT_FILENO;
	if ((r->in_pipe || r->out_pipe) &&
	    redirect_stdio(o->batch, r->in_pipe, r->out_pipe, &r->in_fd,
			   &r->out_fd))
		return 1;
	if (!o->batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		pr_err("the live view needs a terminal; use -b for batch mode "
		       "(ptop -b, or ptop -b --json)");
		return 1;
	}
	/* A terminal the live view cannot use fails before sampling. */
	if (!o->batch && tui__check_terminal())
		return 1;
	return 0;
}

static void install_signals(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a closed terminal or a dropped ssh session; nohup's SIG_IGN
	 * stays */
	if (sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* first of the SIGBUS and SIGSEGV handlers: the live view's crash
	 * handler comes later and asks it first */
	mapguard__install();
}

/* The front end's settings from the options. */
static void app_from_options(struct run *r)
{
	const struct options *o = &r->o;
	struct app *a = &r->a;

	memset(a, 0, sizeof(*a));
	a->spec = o->spec;
	a->filter = o->filter;
	a->mode = o->mode;
	a->delay = o->delay;
	a->iterations = o->iterations;
	a->json = o->json;
	a->ascii = strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
	a->show_period = o->show_period;
	a->annotate = o->annotate;
	a->syntax = o->syntax;
	a->callgraph = o->callgraph;
	a->folded = o->folded;
	a->pprof = o->pprof;
	a->flamegraph = o->flamegraph;
	/* perf's callchain threshold unless --percent-limit */
	a->tree_limit = o->tree_limit >= 0 ? o->tree_limit :
			o->filter.percent_limit > 0 ? o->filter.percent_limit :
						      0.5;
	a->cg_order = o->cg_order;
	app_inline(r, o->dwarf_size != 0);
	a->stack_root = o->stack_root;
	a->stop = &stop_requested;
	a->input = o->input;
	/* a recording's numbers are whole: no fold for memory */
	a->budget = o->input ? 0 : o->memory_budget;
	a->time_window = o->time;
	a->output = o->output;
	a->color = o->color;
	a->mouse = o->mouse;
	a->config_path = o->config_path;
	app__describe_target(&o->target, o->command, a->target_desc,
			     sizeof(a->target_desc));
	if (o->cgroups) {
		size_t n = strlen(a->target_desc);

		snprintf(a->target_desc + n, sizeof(a->target_desc) - n,
			 ", cgroups %s", o->cgroups);
	}
}

/* -i FILE's header, and --time against its sample times: 0 or 1. */
static int open_recording(struct run *r)
{
	const struct options *o = &r->o;
	const struct perfdata_info *info;
	struct strbuf e;
	int err = 0;

	strbuf__init(&e);
	if (o->input && !r->in_pipe) {
		r->pd = perfdata__open(o->input, &e);
		if (!r->pd) {
			pr_err("%s: %s", o->input,
			       e.buf ? e.buf : strerror(errno));
			err = 1;
		}
	}
	info = r->pd ? perfdata__info(r->pd) : NULL;
	if (!err && o->time) {
		u64 first = info ? info->first_sample_time : 0;
		u64 last = info ? info->last_sample_time : 0;

		/* percentages of a recording whose header has no sample
		 * time range (perf record --buildid-mmap writes none): the
		 * range read from its samples first */
		if (perfdata__time_needs_range(o->time) && last <= first) {
			if (r->in_pipe) {
				pr_err("--time %s: percentages need the "
				       "recording's time range, which a stream "
				       "says only at its end: give seconds "
				       "(+START,+END from its first sample)",
				       o->time);
				strbuf__fini(&e);
				return 1;
			}
			err = perfdata__sample_range(r->pd, &first, &last,
						     &stop_requested);
			if (err == -EINTR) {
				strbuf__fini(&e);
				return RC_STOPPED;
			}
			if (err) {
				pr_err("%s: %s", o->input, strerror(-err));
				strbuf__fini(&e);
				return 1;
			}
		}
		if (perfdata__parse_time(o->time, first, last,
					 &r->sso.time_start, &r->sso.time_end,
					 &r->sso.time_relative, &e)) {
			pr_err("%s", e.buf ? e.buf : o->time);
			err = 1;
		}
	}
	strbuf__fini(&e);
	return err;
}

/* The session, the symbolizer's options, the debuginfod fetcher and the
 * unwinder: 0 or 1. */
static int start_session(struct run *r)
{
	const struct options *o = &r->o;

	/* Batch keeps only what its sort keys need; the live view can
	 * regroup at any time, so it keeps everything. */
	r->sso.key_fields = o->batch ? sort_spec__key_fields(&o->spec) :
				       KEY_ALL;
	/* folded stacks and flame graphs start with the process (--root) */
	if (o->folded || o->flamegraph)
		r->sso.key_fields |= KEY_COMM | KEY_PID | KEY_TID;
	r->sso.max_stack = o->max_stack;
	r->a.session = session__new(&r->sso);
	if (!r->a.session) {
		pr_err("out of memory");
		return 1;
	}
	r->so.debug_dirs = o->debug_dirs;
	r->so.nr_debug_dirs = o->nr_debug_dirs;
	r->so.no_demangle = o->no_demangle;
	r->so.demangle_params = o->demangle_params;
	r->so.symfs = o->symfs;
	r->so.dwarf_cache = o->no_dwarf_cache ? "" : NULL;
	r->so.symbol_cache = o->no_symbol_cache ? "" : NULL;
	/* files missing on disk by build-id; batch output waits for them */
	if (!o->no_debuginfod) {
		struct dbgfetch_opts fo = { .stop = &stop_requested,
					    .max_bytes = o->debuginfod_maxsize };
		char max[32];

		/* the library sends it to the servers (they may refuse at
		 * once) and checks Content-Length with it; set before any
		 * thread reads the environment */
		if (o->debuginfod_maxsize) {
			snprintf(max, sizeof(max), "%llu",
				 (unsigned long long)o->debuginfod_maxsize);
			setenv("DEBUGINFOD_MAXSIZE", max, 1);
		}
		r->fetch = dbgfetch__new(&fo);
	}
	r->so.fetch = r->fetch;
	r->so.fetch_wait = o->batch;
	/* a lookup waiting for the symbolizer's worker ends on a stop
	 * request: batch stops within its slice, not after the load */
	r->so.stop = &stop_requested;
	/* tests: a load that takes long, to quit during it */
	r->so.slow_load = getenv("PTOP_TEST_SLOW_LOAD");
	/* --call-graph dwarf, or a recording that may hold user stacks:
	 * live samples are unwound on the unwinder's thread, a file's or a
	 * stream's on the reader's (nothing may be dropped there); with
	 * --off-cpu live ones too, so that a switch-out's wait begins
	 * (with its unwound chain) before the thread's return is read */
	if (o->input || o->dwarf_size) {
		struct unwind_opts uo = {
			.proc = o->input ? "/nonexistent" : NULL,
			.debug_dirs = (const char *const *)o->debug_dirs,
			.nr_debug_dirs = o->nr_debug_dirs,
			.symfs = o->symfs,
			.fetch = r->fetch,
			/* not a stream's: its reader holds the session
			 * lock that the live view needs */
			.fetch_wait = o->input && !r->in_pipe,
			.max_stack = o->max_stack,
			.sync = o->input != NULL || o->off_cpu,
		};

		r->unw = unwind__new(r->a.session, &uo);
		if (!r->unw && o->dwarf_size) {
			pr_err("cannot start the DWARF unwinder: %s",
			       strerror(errno));
			return 1;
		}
	}
	/* -g's stack copies, live or in a recording: the callers frame
	 * pointers lose, from the binaries' CFI */
	if (o->input || (o->callgraph && !o->dwarf_size && o->fp_copy)) {
		struct cfitab_opts co = {
			.proc = o->input ? "/nonexistent" : NULL,
			.debug_dirs = (const char *const *)o->debug_dirs,
			.nr_debug_dirs = o->nr_debug_dirs,
			.symfs = o->symfs,
			.sync = o->input != NULL,
			.timing = o->verbose > 0,
		};

		r->cfi = cfitab__new(r->a.session, &co);
		if (!r->cfi) {
			pr_err("out of memory");
			return 1;
		}
	}
	return 0;
}

/*
 * The session's history: the live view's (its History column, its
 * timeline view) and batch's with --timeline.  A recording's cells are
 * a grid of its samples' time, closed as its reader reaches them (a
 * SECS grid with --timeline, else about 200 cells over its range, or 10
 * ms cells merged as it goes); live, a cell a refresh (batch: a SECS
 * grid of the clock, app__run_batch).  0 or 1.
 */
static int start_timeline(struct run *r)
{
	const struct options *o = &r->o;
	struct app *a = &r->a;
	const struct perfdata_info *info = r->pd ? perfdata__info(r->pd) : NULL;

	/* live, the timeline's cells count in the memory budget: at most
	 * half of it (the histograms and chains the rest: table.budget) */
	struct timeline_opts to = {
		.budget = o->input ? 0 : o->memory_budget / 2,
	};

	if (o->batch && o->timeline <= 0)
		return 0;
	a->timeline = timeline__new(&to);
	if (!a->timeline) {
		pr_err("out of memory");
		return 1;
	}
	a->timeline_secs = o->timeline;
	a->history = !o->batch && !o->no_history;
	if (r->pd) {
		u64 w = (u64)(o->timeline * 1e9);

		if (!w && info->last_sample_time > info->first_sample_time)
			w = (info->last_sample_time - info->first_sample_time) /
			    200;
		timeline__set_grid(a->timeline, 0, w ? w : 10000000);
	}
	return 0;
}

/* perfdata_read_opts.mark: a recording's cells, as its reader goes. */
static u64 timeline_mark(void *ctx, u64 t)
{
	struct app *a = ctx;

	return timeline__mark(a->timeline, a->session, t);
}

/* --time's window selected no sample: what the recording holds. */
static int check_time_window(struct run *r)
{
	u64 kept, last, first, end;

	if (!r->o.time || !r->pd)
		return 0;
	session__time_range(r->a.session, &kept, &last);
	session__sample_range(r->a.session, &first, &end);
	if (kept || !first)
		return 0;
	pr_err("--time %s selects no sample: the recording's samples are "
	       "from %.6f to %.6f s (+0 to +%.3f s from its first)",
	       r->o.time, (double)first / 1e9, (double)end / 1e9,
	       (double)(end - first) / 1e9);
	return 1;
}

/* The symbolizer of the run (r->so complete): 0, or 1 with a message. */
static int start_symbolizer(struct run *r)
{
	r->a.syms = symbolizer__new(&r->so);
	if (!r->a.syms) {
		pr_err("cannot start the symbolizer: %s", strerror(errno));
		return 1;
	}
	return 0;
}

/* A recording's read, at a dso's first sample: the binary's symbols are
 * read by the worker while the file is read on; at the first kernel
 * sample, kallsyms on a first run of the boot.  ctx: the app. */
static void prefetch_dso(void *ctx, const struct dso *dso)
{
	struct app *a = ctx;

	if (dso->kind != DSO_KERNEL)
		symbolizer__prefetch(a->syms, dso);
	else if (!a->annotate)	/* it names no kernel sample */
		symbolizer__prefetch_kernel(a->syms);
}

/* What a recording's reader answers the session (session.h): no /proc,
 * no cgroup reader (its pids are not this machine's). */
static const struct session_source_ops recording_source_ops = {
	.dso_sampled = prefetch_dso,
};

/* -i: the whole file, or a stream's header records, before the front
 * end starts; what the recording says for the symbolizer and the header.
 * 0, or the exit status. */
static int read_recording(struct run *r)
{
	const struct options *o = &r->o;
	struct app *a = &r->a;
	const struct perfdata_info *info;
	int err;

	/* the pids of a recording are not this machine's processes */
	r->so.proc = "/nonexistent";
	if (r->pd) {
		struct perfdata_read_opts ro = { .stop = &stop_requested,
						 .offcpu = o->off_cpu };

		/* the recording's cells, closed as the reader reaches them */
		if (a->timeline) {
			ro.mark = timeline_mark;
			ro.mark_ctx = a;
		}

		/* the header says which kernel: the symbolizer starts
		 * reading a binary's symbols at its first sample, while
		 * the file is read on */
		recording_kernel(perfdata__info(r->pd), &r->so, r->kallsyms,
				 sizeof(r->kallsyms));
		if (start_symbolizer(r))
			return 1;
		session__set_source_ops(a->session, &recording_source_ops, a);
		a->start = clock__now();
		err = perfdata__read(r->pd, a->session, &ro);
		session__set_source_ops(a->session, NULL, NULL);
		if (err == -EINTR)
			return RC_STOPPED;
		if (err) {
			pr_err("%s: %s", o->input, strerror(-err));
			return 1;
		}
		info = perfdata__info(r->pd);
		/* its _text, from the kernel's MMAP record */
		symbolizer__set_kernel_text(a->syms, info->kernel_text);
		a->input_stats = perfdata__stats(r->pd);
		a->finished = true;
		if (check_time_window(r))
			return 1;
	} else {
		a->pipe = perfdata_pipe__new(a->session, r->in_fd, NULL);
		if (!a->pipe) {
			pr_err("out of memory");
			return 1;
		}
		r->in_fd = -1;	/* the reader's now */
		/* the stream's header records say which kernel */
		while ((err = perfdata_pipe__prelude(a->pipe)) == -EINTR &&
		       !stop_requested)
			;
		if (stop_requested)
			return RC_STOPPED;
		info = perfdata_pipe__info(a->pipe);
		a->start = clock__now();
		recording_kernel(info, &r->so, r->kallsyms,
				 sizeof(r->kallsyms));
	}
	describe_recording(o->input, info, a->target_desc,
			   sizeof(a->target_desc));
	if (info->first_sample_time && info->last_sample_time >
				       info->first_sample_time)
		a->recorded = (double)(info->last_sample_time -
				       info->first_sample_time) / 1e9;
	a->callgraph = recording_samples(a->session, PERF_SAMPLE_CALLCHAIN) ||
		       (r->in_pipe && o->callgraph);
	app_inline(r, recording_unwinds(a->session));
	a->spec.children = (o->children_opt < 0 || o->children_opt) &&
			   a->callgraph;
	if (o->folded && !a->callgraph) {
		pr_err("--folded: %s has no call chains (record it "
		       "with perf record -g)", o->input);
		return 1;
	}
	/* perf report shows such a file's rows as cgroup N/A, unexplained */
	if (sort_spec__has(&o->spec, SORT_CGROUP) &&
	    !recording_samples(a->session, PERF_SAMPLE_CGROUP))
		pr_warn("-s cgroup: %s has no cgroup ids (record with perf "
			"record --all-cgroups, or ptop -o with --all-cgroups, "
			"-s cgroup or -G): every sample's cgroup is [unknown]",
			r->in_pipe ? "the stream" : o->input);
	return 0;
}

/* --baseline FILE: the whole file in a session of its own, named by a
 * symbolizer told of its recording, as the front end's baseline table:
 * 0, or the exit status. */
static int read_baseline(struct run *r)
{
	const struct options *o = &r->o;
	struct perfdata_read_opts ro = { .stop = &stop_requested };
	struct session_opts sso = r->sso;
	struct symbolizer_opts so = r->so;
	struct unwind_opts uo = {
		.proc = "/nonexistent",
		.debug_dirs = (const char *const *)o->debug_dirs,
		.nr_debug_dirs = o->nr_debug_dirs,
		.symfs = o->symfs,
		.fetch = r->fetch,
		.fetch_wait = true,
		.max_stack = o->max_stack,
		.sync = true,
	};
	struct table *t;
	struct strbuf e;
	int err;

	strbuf__init(&e);
	r->base_pd = perfdata__open(o->baseline, &e);
	if (!r->base_pd) {
		pr_err("--baseline %s: %s", o->baseline,
		       e.buf ? e.buf : strerror(errno));
		strbuf__fini(&e);
		return 1;
	}
	strbuf__fini(&e);
	/* the whole recording, whatever --time cuts of -i */
	sso.time_start = sso.time_end = 0;
	sso.key_fields = KEY_ALL;
	r->base_session = session__new(&sso);
	if (!r->base_session) {
		pr_err("out of memory");
		return 1;
	}
	r->base_unw = unwind__new(r->base_session, &uo);
	{
		struct cfitab_opts co = {
			.proc = "/nonexistent",
			.debug_dirs = (const char *const *)o->debug_dirs,
			.nr_debug_dirs = o->nr_debug_dirs,
			.symfs = o->symfs,
			.sync = true,
		};

		r->base_cfi = cfitab__new(r->base_session, &co);
	}
	err = perfdata__read(r->base_pd, r->base_session, &ro);
	if (err == -EINTR)
		return RC_STOPPED;
	if (err) {
		pr_err("--baseline %s: %s", o->baseline, strerror(-err));
		return 1;
	}
	so.kallsyms = NULL;
	so.kernel_build_id = NULL;
	so.kernel_build_id_size = 0;
	so.kernel_release = NULL;
	recording_kernel(perfdata__info(r->base_pd), &so, r->base_kallsyms,
			 sizeof(r->base_kallsyms));
	so.proc = "/nonexistent";
	so.fetch_wait = true;
	r->base_syms = symbolizer__new(&so);
	t = calloc(1, sizeof(*t));
	if (!r->base_syms || !t) {
		pr_err("cannot start the baseline's symbolizer: %s",
		       strerror(errno));
		free(t);
		return 1;
	}
	table__init(t, r->base_session, r->base_syms, &r->a.spec);
	if (table__snapshot(t, HIST_CUMULATIVE)) {
		pr_err("out of memory");
		table__fini(t);
		free(t);
		return 1;
	}
	r->a.baseline = t;
	r->a.baseline_desc = o->baseline;
	return 0;
}

/* -o: the writer, as the sampler's sink: 0 or 1. */
static int start_writer(struct run *r)
{
	struct strbuf tracing, why;
	struct host host;
	int err;
	struct perfdata_writer_opts wo = {
		.path = r->out_pipe ? "stdout" : r->o.output,
		.fd = r->out_fd,
		.pipe = r->out_pipe,
		.argv = (const char *const *)r->o.argv,
		.argc = r->o.argc,
		.version = "ptop " PTOP_VERSION,
	};

	/* perf report reads tracepoint samples with their formats */
	strbuf__init(&tracing);
	strbuf__init(&why);
	if (!r->out_pipe &&
	    (err = catalog__tracing_data(NULL, r->o.specs, r->o.nr_specs,
					 &tracing, &why))) {
		pr_err("%s", why.buf ? why.buf : strerror(-err));
		strbuf__fini(&why);
		strbuf__fini(&tracing);
		return 1;
	}
	strbuf__fini(&why);
	wo.tracing_data = tracing.buf;
	wo.tracing_data_len = tracing.len;
	/* what it failed to read (out of memory) is left out, as a fact
	 * the machine does not show */
	host__read(&host, NULL);
	wo.host = &host;
	r->a.writer = perfdata_writer__new(r->a.session, &wo);
	host__fini(&host);
	strbuf__fini(&tracing);
	if (!r->a.writer)
		return 1;
	r->out_fd = -1;	/* the writer's now */
	/* -g's recovered chains, not the copies they came from, unless
	 * --keep-stacks */
	session__lock(r->a.session);
	session__set_write_fixed(r->a.session, !r->o.keep_stacks);
	session__unlock(r->a.session);
	r->spo.sink = perfdata_writer__sink;
	r->spo.sink_ctx = r->a.writer;
	return 0;
}

/* sampler__start on the options' target: 0, or 1 after its words. */
static int start_sampler(struct run *r)
{
	struct strbuf why;
	int err;

	strbuf__init(&why);
	err = sampler__start(r->a.sampler, &r->o.target, &why);
	if (err && why.buf)
		pr_err("%s", why.buf);
	strbuf__fini(&why);
	return err ? 1 : 0;
}

/* -- COMMAND: started by the sampler, then sampled: 0 or 1. */
static int start_command(struct run *r)
{
	struct options *o = &r->o;
	struct spawn_io io = { -1, STDERR_FILENO, -1 };
	pid_t child;
	int err;

	/* batch: standard output holds the tables alone; live: the
	 * keyboard and the screen are the view's, the command reads
	 * /dev/null and its output goes through cmdout */
	if (!o->batch) {
		const char *slash = strrchr(o->command[0], '/');

		r->cmd_in = open("/dev/null", O_RDONLY | O_CLOEXEC);
		r->cmdout = r->cmd_in < 0 ? NULL :
				cmdout__new(slash ? slash + 1 : o->command[0]);
		if (!r->cmdout) {
			pr_err("cannot set up the command's output: %s",
			       strerror(errno));
			return 1;
		}
		io.in = r->cmd_in;
		io.out = io.err = cmdout__fd(r->cmdout);
		r->a.cmdout = r->cmdout;
	}
	child = sampler__spawn(r->a.sampler, o->command, &io);
	if (child < 0) {
		pr_err("cannot start '%s': %s", o->command[0],
		       strerror((int)-child));
		return 1;
	}
	if (r->cmdout && (err = cmdout__start(r->cmdout))) {
		pr_err("cannot read the command's output: %s", strerror(-err));
		return 1;
	}
	o->target.pids = &child;
	o->target.nr_pids = 1;
	r->a.start = clock__now();
	err = start_sampler(r);
	o->target.pids = NULL;
	o->target.nr_pids = 0;
	return err;
}

/* Live profiling: the sampler on its events, started: 0, or the exit
 * status. */
static int start_live(struct run *r)
{
	const struct options *o = &r->o;
	struct sampler_opts *spo = &r->spo;

	if (o->output && start_writer(r))
		return 1;
	spo->ev.freq = o->freq;
	spo->ev.period = o->period;
	/* a DWARF sample carries its stack copy (8 KiB by default): 4 times
	 * the ring, or it overflows at 4000 Hz whenever the reader is
	 * late by a few ms; --off-cpu records every context switch of the
	 * machine with its chain, and a lost one costs its waits too */
	spo->ev.mmap_pages = o->mmap_pages ? o->mmap_pages :
			     o->dwarf_size || o->off_cpu ? 512 : 128;
	spo->ev.callchain = o->callgraph;
	spo->ev.max_stack = (u16)o->max_stack;
	spo->ev.dwarf_stack_size = o->dwarf_size;
	spo->ev.fp_stack_size = o->dwarf_size ? 0 : o->fp_copy;
	if (o->cgroups) {
		struct strbuf why;
		int err;

		strbuf__init(&why);
		err = cgroupfs__open(NULL, o->cgroups, &r->cgroup_fds,
				     &r->nr_cgroups, &why);
		if (err)
			pr_err("%s", why.buf ? why.buf : strerror(-err));
		strbuf__fini(&why);
		if (err)
			return 1;
		spo->ev.cgroup_fds = r->cgroup_fds;
		spo->ev.nr_cgroups = r->nr_cgroups;
	}
	/* -o writes what perf record writes for the same options (ptop.1,
	 * "What -o writes"): cgroup ids and CGROUP records only when asked
	 * (--all-cgroups) or when the recording is about cgroups (-s
	 * cgroup, -G), so that perf report --sort cgroup and ptop -i -s
	 * cgroup read them; readers older than Linux 5.7's format (hotspot
	 * 1.3, autofdo) stop at them.  Live, the view reads /proc instead. */
	spo->ev.sample_cgroup = o->all_cgroups ||
				(o->output && (o->cgroups ||
					       sort_spec__has(&o->spec,
							      SORT_CGROUP)));
	/* perf record --call-graph dwarf also records data mappings (its
	 * unwinder reads mapped files); the session skips them */
	spo->ev.mmap_data = o->output && o->dwarf_size;
	/* and, as perf record, the records of BPF programs loaded meanwhile
	 * (the session does not use them: kernel samples are named through
	 * kallsyms) */
	spo->ev.ksymbol = o->output != NULL;
	r->a.sampler = sampler__new(r->a.session, spo);
	if (!r->a.sampler ||
	    sampler__set_events(r->a.sampler, o->specs, o->nr_specs)) {
		pr_err("out of memory");
		return 1;
	}
	if (o->target.kind == TARGET_COMMAND) {
		if (start_command(r))
			return 1;
	} else {
		r->a.start = clock__now();
		if (start_sampler(r))
			return 1;
	}
	if (stop_requested)
		return RC_STOPPED;
	return 0;
}

static void log_unwind_stats(struct unwinder *unw)
{
	struct unwind_stats us;
	double n;

	unwind__drain(unw);
	unwind__stats(unw, &us);
	n = us.unwound ? (double)us.unwound : 1.0;
	pr_info("unwind: %" PRIu64 " samples unwound, %.0f ns each, "
		"%.1f user frames each, %" PRIu64 " without a caller, "
		"%" PRIu64 " refused (queue full, peak %" PRIu64
		" KiB), %" PRIu64 " Dwfls built",
		us.unwound, (double)us.ns / (us.timed ? (double)us.timed : 1.0),
		(double)us.frames / n,
		us.failed, us.dropped, us.queue_peak >> 10, us.dwfl_new);
}

/* -v: what -g's recovery of callers cost and found. */
static void log_cfitab_stats(struct cfitab *c, struct session *s)
{
	struct cfitab_stats cs;
	const struct session_counts *sc;
	u64 fix[FP_FIX_NR];
	double n;

	session__lock(s);
	cfitab__stats(c, &cs);
	sc = session__counts(s);
	memcpy(fix, sc->fp_fix, sizeof(fix));
	session__unlock(s);
	if (!cs.fixes)
		return;
	n = (double)cs.fixes;
	pr_info("recovery: %" PRIu64 " chains, %.0f ns each (and %.1f ms "
		"waiting for CFI being read); tied %" PRIu64
		", no ip %" PRIu64 ", no CFI %" PRIu64 ", CFI not read yet %"
		PRIu64 ", copy short %" PRIu64 ", rbp not a frame %" PRIu64
		", other rbp %" PRIu64 ", bad %" PRIu64 "; %" PRIu64
		" binaries' CFI (%" PRIu64 " KiB, %" PRIu64 " without), rows %"
		PRIu64 " (%.0f%% cached)",
		cs.fixes, (double)cs.ns / n, (double)cs.wait_ns / 1e6,
		fix[FP_FIX_TIED], fix[FP_FIX_NO_IP],
		fix[FP_FIX_NO_CFI], fix[FP_FIX_UNREADY], fix[FP_FIX_SHORT],
		fix[FP_FIX_NO_MATCH], fix[FP_FIX_RBP], fix[FP_FIX_BAD],
		cs.tables, cs.bytes >> 10, cs.load_failed, cs.rows,
		cs.rows ? 100.0 * (double)cs.row_hits / (double)cs.rows : 0.0);
}

/* Takes everything apart, sources first; returns rc (1 if the writer
 * failed and nothing else did). */
/* --push: the sender (libcurl) and the windows, before the front end. */
static int start_push(struct run *r)
{
	struct options *o = &r->o;
	struct push_opts po = { .url = o->push, .app = o->app_name };
	static char host[256];
	struct strbuf err;
	const char *slash;

	if (!o->push)
		return 0;
	if (!po.app && o->command) {
		slash = strrchr(o->command[0], '/');
		po.app = slash ? slash + 1 : o->command[0];
	}
	if (!po.app || strpbrk(po.app, "{},= \t"))
		po.app = "ptop";
	if (!gethostname(host, sizeof(host) - 1) && host[0])
		po.hostname = host;
	for (size_t i = 0; i < o->nr_labels; i++)
		po.labels[po.nr_labels++] = o->labels[i];
	/* fleet agents push every 10 s: -d when given, else 10 s (the view
	 * still refreshes every 2 s) */
	r->a.push_every = o->delay_given ? o->delay : 10;
	r->a.push_win = push_window__new();
	strbuf__init(&err);
	if (r->a.push_win)
		r->a.pusher = pusher__new(&po, &err);
	if (!r->a.pusher)
		pr_err("%s", err.buf ? err.buf : "out of memory");
	strbuf__fini(&err);
	return r->a.pusher ? 0 : 1;
}

/* What was pushed, said once the terminal is back. */
static void stop_push(struct app *a)
{
	struct push_stats st;

	if (!a->pusher)
		return;
	pusher__free(a->pusher, &st);
	a->pusher = NULL;
	push_window__free(a->push_win);
	a->push_win = NULL;
	pr_info("push: %" PRIu64 " profile%s sent, %" PRIu64 " dropped%s%s",
		st.pushed, PLURAL(st.pushed), st.dropped, st.unreachable ? "; last error: " : "",
		st.unreachable ? st.error : "");
}

/* The status of a run that ends with rc (RC_STOPPED: cut short by a stop
 * request): a stop request that left an output undone (-o's file never
 * begun, --pprof or --flamegraph never written) is 128 + the signal. */
static int exit_status(const struct run *r, int rc)
{
	const struct app *a = &r->a;
	bool abandoned = (r->o.output && !a->writer) ||
			 ((a->pprof || a->flamegraph) && !a->files_written);

	if (rc > 0 || !stop_requested)
		return rc < 0 ? 0 : rc;
	return abandoned ? 128 + stop_requested : 0;
}

static int teardown(struct run *r, int rc)
{
	struct app *a = &r->a;

	/* the terminal is back (or was never taken): what was only on the
	 * status line is not lost, and what comes now goes to stderr */
	if (a->logq) {
		log__set_handler(logq__stderr, NULL);
		logq__replay(a->logq, STDERR_FILENO);
		logq__free(a->logq);
		a->logq = NULL;
	}

	rc = exit_status(r, rc);

	/* the last window was queued by the front end: sent (or dropped)
	 * before the sources go */
	stop_push(a);

	/* the writer finalizes its file once nothing else comes in */
	if (a->sampler)
		sampler__stop(a->sampler);
	if (a->writer) {
		struct perfdata_writer_stats ws;

		perfdata_writer__close(a->writer);
		perfdata_writer__stats(a->writer, &ws);
		if (ws.error && ws.error != -EPIPE && (!rc || rc > 128))
			rc = 1;
		perfdata_writer__free(a->writer);
	}
	perfdata_pipe__free(a->pipe);
	perfdata__close(r->pd);
	if (r->in_fd >= 0)
		close(r->in_fd);
	if (r->out_fd >= 0)
		close(r->out_fd);
	sampler__free(a->sampler);
	cgroupfs__close(r->cgroup_fds, r->nr_cgroups);
	/* the command is gone, the terminal is back: its output */
	if (r->cmdout) {
		cmdout__stop(r->cmdout);
		cmdout__replay(r->cmdout, STDOUT_FILENO);
		cmdout__free(r->cmdout);
	}
	if (r->cmd_in >= 0)
		close(r->cmd_in);
	if (r->unw && r->o.verbose)
		log_unwind_stats(r->unw);
	/* after every source: what it queued is unwound first */
	unwind__free(r->unw);
	if (r->cfi && r->o.verbose)
		log_cfitab_stats(r->cfi, a->session);
	cfitab__free(r->cfi);
	symbolizer__free(a->syms);
	/* a baseline the front end did not take */
	if (a->baseline) {
		table__fini(a->baseline);
		free(a->baseline);
	}
	unwind__free(r->base_unw);
	cfitab__free(r->base_cfi);
	symbolizer__free(r->base_syms);
	session__free(r->base_session);
	perfdata__close(r->base_pd);
	dbgfetch__free(r->fetch);
	timeline__free(a->timeline);
	session__free(a->session);
	cli__free(&r->o);
	return rc;
}

/* Wiring: options, terminal, source, session, symbolizer, front end. */
int main(int argc, char **argv)
{
	static struct run run = { .in_fd = -1, .out_fd = -1, .cmd_in = -1 };
	struct run *r = &run;
	struct options *o = &r->o;
	int rc;

	setlocale(LC_ALL, "");
	log__set_handler(logq__stderr, NULL);
	cli__defaults(o);
	rc = cli__parse(argc, argv, o);
	if (rc)
		return rc - 1;
	log__set_level(o->verbose >= 2 ? LOG_DEBUG : LOG_INFO);
	if (o->list_events)
		return list_events();
	/* "sched:*": the tracepoints it names, before anything starts */
	if (o->nr_specs) {
		struct strbuf why;

		strbuf__init(&why);
		rc = catalog__expand_tracepoints(NULL, &o->specs, &o->nr_specs,
						 &why);
		if (rc)
			pr_err("%s", why.buf ? why.buf : strerror(-rc));
		strbuf__fini(&why);
		if (rc)
			return 1;
	}
	if (check_terminal(r))
		return 1;
	if (o->has_cpus)
		o->target.cpus = o->cpus;
	install_signals();
	app_from_options(r);
	/* the live view: what start-up says waits for the status line
	 * (and stderr at the end), not behind the alternate screen */
	if (!o->batch) {
		r->a.logq = logq__new();
		if (!r->a.logq) {
			pr_err("out of memory");
			return 1;
		}
		log__set_handler(logq__handler, r->a.logq);
	}
	if (o->config_note[0])
		pr_warn("%s", o->config_note);
	rc = open_recording(r);
	/* a file is read once: its heap, before any thread allocates */
	if (!rc && r->pd)
		heap__prepare(perfdata__info(r->pd)->data.size);
	if (o->annotate && o->batch)
		cslib__preload();
	rc = rc || start_session(r);
	rc = rc || start_timeline(r);
	if (!rc && o->input)
		rc = read_recording(r);
	if (rc)
		return teardown(r, rc);
	if (!r->a.syms && start_symbolizer(r))
		return teardown(r, 1);
	if (o->baseline && (rc = read_baseline(r)))
		return teardown(r, rc);
	if (r->a.pipe && perfdata_pipe__start(r->a.pipe))
		return teardown(r, 1);
	if (!o->input && (rc = start_live(r)))
		return teardown(r, rc);
	if (start_push(r))
		return teardown(r, 1);
	rc = o->batch ? app__run_batch(&r->a) : tui__run(&r->a);
	return teardown(r, rc);
}
