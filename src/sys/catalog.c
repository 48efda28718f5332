/* catalog: the events this machine has: tracefs (tracepoint ids, glob
 * expansion) and the list of every event that opens (--list-events, the
 * live view's picker). */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "src/core/log.h"
#include "src/core/offcpu.h"
#include "src/sys/catalog.h"
#include "src/sys/cpus.h"
#include "src/sys/fdio.h"
#include "src/sys/perfevent.h"
#include "src/sys/pmu.h"

static bool has_events_dir(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/events", dir);
	return access(path, F_OK) == 0;
}

/* Why no tracefs could be used (tracefs_dir gave NULL): mounted where
 * this user may not look (/sys/kernel/tracing is 0700, root's), or not
 * mounted at all. */
static const char *tracefs_why(void)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events");
	if (access(path, F_OK) && errno == EACCES)
		return "tracefs is mounted on /sys/kernel/tracing, but only "
		       "root may read it: run ptop as root (or give this user "
		       "read access to it)";
	return "tracefs is not available (mount it with 'mount -t tracefs "
	       "nodev /sys/kernel/tracing')";
}

/*
 * Where tracefs is: the configured directory, else /sys/kernel/tracing,
 * mounted there if needed (as perf does on demand; it stays mounted, which
 * is what the system expects of it), else the debugfs path.
 */
static const char *tracefs_dir(const char *tracefs)
{
	static const char std[] = "/sys/kernel/tracing";
	static const char old[] = "/sys/kernel/debug/tracing";

	if (tracefs)
		return tracefs;
	if (has_events_dir(std))
		return std;
	if (mount("nodev", std, "tracefs", 0, NULL) == 0) {
		pr_debug("mounted tracefs on %s", std);
		if (has_events_dir(std))
			return std;
	}
	if (has_events_dir(old))
		return old;
	return NULL;
}

/* --off-cpu's sched_switch: where its format puts prev_state (the
 * waits' states); a format without it leaves them unknown. */
static void switch_state_field(const char *dir, struct event_spec *spec)
{
	char path[PATH_MAX];
	struct strbuf f;

	strbuf__init(&f);
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir,
		 spec->tp_sys, spec->tp_name);
	if (fd__read_all(path, &f, 1u << 20) || !f.buf ||
	    offcpu__state_field(f.buf, f.len, &spec->state_off,
				&spec->state_size)) {
		pr_warn("--off-cpu: no prev_state in %s: the waits' thread "
			"states are unknown", path);
		spec->state_size = 0;
	}
	strbuf__fini(&f);
}

/* Resolves a tracepoint's id into spec->attr.config. */
int catalog__tracepoint_id(const char *tracefs, struct event_spec *spec,
			   struct strbuf *why)
{
	const char *dir = tracefs_dir(tracefs);
	char path[PATH_MAX];
	long long id;
	int err;

	if (spec->tp_glob) {
		strbuf__addf(why, "tracepoint glob '%s' not expanded",
			     spec->name);
		return -EINVAL;
	}
	if (!dir) {
		strbuf__addf(why, "tracepoint %s:%s: %s", spec->tp_sys,
			     spec->tp_name, tracefs_why());
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, spec->tp_sys,
		 spec->tp_name);
	err = fd__read_int(path, &id);
	if (err == -ENOENT || err == -ENOTDIR) {
		strbuf__addf(why, "unknown tracepoint '%s:%s' (no %s/events/%s/%s); see --list-events",
			     spec->tp_sys, spec->tp_name, dir, spec->tp_sys,
			     spec->tp_name);
		return -ENOENT;
	}
	if (err) {
		strbuf__addf(why, "cannot read the id of tracepoint %s:%s from %s: %s%s",
			     spec->tp_sys, spec->tp_name, path, strerror(-err),
			     err == -EACCES ?
				     " (tracefs is readable by root only)" : "");
		return err;
	}
	if (id < 0 || id > UINT32_MAX) {
		strbuf__addf(why, "tracepoint %s:%s: bad id in %s",
			     spec->tp_sys, spec->tp_name, path);
		return -EINVAL;
	}
	spec->attr.config = (u64)id;
	if (spec->offcpu)
		switch_state_field(dir, spec);
	return 0;
}

/* Can this attr be opened here, system-wide or for this process? */
static bool can_open(struct perf_event_attr *attr, int cpu)
{
	long fd;

	attr->size = sizeof(*attr);
	attr->disabled = 1;
	fd = sys_perf_event_open(attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		/* What an unprivileged user may still do. */
		attr->exclude_kernel = 1;
		attr->exclude_hv = 1;
		fd = sys_perf_event_open(attr, 0, -1, -1,
					 PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return false;
	close((int)fd);
	return true;
}

struct list_ctx {
	void (*fn)(const char *name, const char *kind, void *ctx);
	void *ctx;
	int cpu;
	u32 last_type;
	u64 last_config;
	bool last_ok, have_last;
};

static void list_generic(const char *name, enum event_class cls, u32 type,
			 u64 config, void *ctx)
{
	static const char *const kinds[] = {
		[EVCLASS_HARDWARE] = "Hardware event",
		[EVCLASS_SOFTWARE] = "Software event",
		[EVCLASS_CACHE] = "Hardware cache event",
	};
	struct list_ctx *lc = ctx;

	/* Aliases follow their canonical name: try each event once. */
	if (!lc->have_last || lc->last_type != type ||
	    lc->last_config != config) {
		struct perf_event_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.type = type;
		attr.config = config;
		lc->last_ok = can_open(&attr, lc->cpu);
		lc->last_type = type;
		lc->last_config = config;
		lc->have_last = true;
	}
	if (lc->last_ok)
		lc->fn(name, kinds[cls], lc->ctx);
}

/* The tracefs events whose id can be read and whose subsystem and name
 * match the globs (NULL: any), as "subsys:name", sorted, into *out.  No
 * events directory: none. */
static int collect_tracepoints(const char *dir, const char *sys_glob,
			       const char *name_glob, char ***out,
			       size_t *nr)
{
	char path[PATH_MAX];
	char **subs, **names = NULL;
	size_t nsubs, n = 0, cap = 0;
	int err;

	snprintf(path, sizeof(path), "%s/events", dir);
	err = dir__list(path, sys_glob, &subs, &nsubs);
	if (err)
		return err == -ENOMEM ? err : 0;
	for (size_t i = 0; i < nsubs && !err; i++) {
		char **evs;
		size_t nevs;

		/* files of events/ (enable, header_page, ...) are no
		 * directories: skipped */
		snprintf(path, sizeof(path), "%s/events/%s", dir, subs[i]);
		err = dir__list(path, name_glob, &evs, &nevs);
		if (err) {
			err = err == -ENOMEM ? err : 0;
			continue;
		}
		for (size_t k = 0; k < nevs && !err; k++) {
			char *name;

			snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir,
				 subs[i], evs[k]);
			if (access(path, R_OK))
				continue;
			if (array__grow((void **)&names, &cap, n + 1,
					sizeof(*names)) ||
			    asprintf(&name, "%s:%s", subs[i], evs[k]) < 0)
				err = -ENOMEM;
			else
				names[n++] = name;
		}
		dir__free_names(evs, nevs);
	}
	dir__free_names(subs, nsubs);
	return dir__sorted_names(names, n, err, out, nr);
}

/* Every tracepoint, for --list-events. */
static int list_tracepoints(const char *tracefs,
			    void (*fn)(const char *name, const char *kind,
				       void *ctx),
			    void *ctx)
{
	const char *dir = tracefs_dir(tracefs);
	char **names;
	size_t n;
	int err;

	if (!dir)
		return 0;	/* no tracepoints to list, not an error */
	err = collect_tracepoints(dir, NULL, NULL, &names, &n);
	for (size_t i = 0; i < n; i++)
		fn(names[i], "Tracepoint event", ctx);
	dir__free_names(names, n);
	return err;
}

int catalog__expand_tracepoints(const char *tracefs,
			       struct event_spec **specs, size_t *nr,
			       struct strbuf *why)
{
	struct event_spec *out = NULL;
	size_t n = 0, cap = 0;
	const char *dir = NULL;
	int err = 0;

	for (size_t i = 0; i < *nr && !err; i++) {
		const struct event_spec *g = &(*specs)[i];
		char **names = NULL;
		size_t nn = 0;

		if (!g->tp_glob) {
			if (array__grow((void **)&out, &cap, n + 1,
					sizeof(*out)))
				err = -ENOMEM;
			else
				out[n++] = *g;
			continue;
		}
		if (!dir)
			dir = tracefs_dir(tracefs);
		if (!dir) {
			strbuf__addf(why, "tracepoints %s: %s", g->name,
				     tracefs_why());
			err = -ENOENT;
			break;
		}
		err = collect_tracepoints(dir, g->tp_sys, g->tp_name, &names,
					  &nn);
		if (!err && nn == 0) {
			strbuf__addf(why, "no tracepoint matches '%s' (in %s/events); see --list-events",
				     g->name, dir);
			err = -ENOENT;
		} else if (!err && nn > EXPAND_MAX) {
			strbuf__addf(why, "'%s' matches %zu tracepoints; at most %d can be sampled at once",
				     g->name, nn, EXPAND_MAX);
			err = -E2BIG;
		}
		for (size_t k = 0; k < nn && !err; k++) {
			struct event_spec *one = NULL;
			size_t none = 0;

			/* names from tracefs parse as tracepoints */
			if (events__parse(names[k], &one, &none, NULL) ||
			    array__grow((void **)&out, &cap, n + 1,
					sizeof(*out)))
				err = -ENOMEM;
			else
				out[n++] = one[0];
			free(one);
		}
		dir__free_names(names, nn);
	}
	if (!err && n > EXPAND_MAX) {
		strbuf__addf(why, "%zu events; at most %d can be sampled at once",
			     n, EXPAND_MAX);
		err = -E2BIG;
	}
	if (err) {
		free(out);
		return err;
	}
	free(*specs);
	*specs = out;
	*nr = n;
	return 0;
}

/* Every PMU event alias ("pmu/alias/") that can be sampled here. */
static int list_pmu_events(const char *pmu_root, int cpu,
			   void (*fn)(const char *name, const char *kind,
				      void *ctx),
			   void *ctx)
{
	const char *root = pmu__root(pmu_root);
	char path[PATH_MAX];
	char **pmus, **aliases;
	size_t np, na;
	int err = dir__list(root, NULL, &pmus, &np);

	if (err)
		return err == -ENOMEM ? err : 0;	/* no PMUs to list */
	for (size_t p = 0; p < np && !err; p++) {
		snprintf(path, sizeof(path), "%s/%s/events", root, pmus[p]);
		err = dir__list(path, NULL, &aliases, &na);
		if (err) {
			err = err == -ENOMEM ? err : 0;
			continue;
		}
		for (size_t i = 0; i < na && !err; i++) {
			struct event_spec *one = NULL;
			char name[sizeof(one->name)];
			size_t n = 0;

			snprintf(name, sizeof(name), "%s/%s/", pmus[p],
				 aliases[i]);
			if (pmu__alias_qualifier(aliases[i]) ||
			    events__parse(name, &one, &n, NULL)) {
				free(one);
				continue;
			}
			/* ptop samples: what can only count is not listed */
			if (!pmu__resolve_at(root, one, NULL)) {
				one->attr.sample_period = 100000;
				if (can_open(&one->attr, cpu))
					fn(name, "Kernel PMU event", ctx);
			}
			free(one);
		}
		dir__free_names(aliases, na);
	}
	dir__free_names(pmus, np);
	return err;
}

int catalog__list_events(const char *tracefs, const char *pmu_root,
			void (*fn)(const char *name, const char *kind,
				   void *ctx),
			void *ctx)
{
	bool online[PTOP_MAX_CPUS];
	struct list_ctx lc = { .fn = fn, .ctx = ctx, .cpu = 0 };
	int err;

	cpus__online(online);
	for (int c = 0; c < PTOP_MAX_CPUS; c++) {
		if (online[c]) {
			lc.cpu = c;
			break;
		}
	}
	events__foreach_generic(list_generic, &lc);
	err = list_pmu_events(pmu_root, lc.cpu, fn, ctx);
	if (err)
		return err;
	return list_tracepoints(tracefs, fn, ctx);
}


static void put_u32(struct strbuf *sb, u32 v)
{
	strbuf__add(sb, (const char *)&v, 4);
}

static void put_u64(struct strbuf *sb, u64 v)
{
	strbuf__add(sb, (const char *)&v, 8);
}

/* A file with its size before it (size_bytes 4 or 8), as perf puts
 * tracefs files in the tracing data. */
static int put_file(struct strbuf *out, const char *path, int size_bytes)
{
	struct strbuf f;
	int err;

	strbuf__init(&f);
	err = fd__read_all(path, &f, 64u << 20);
	if (!err) {
		if (size_bytes == 4)
			put_u32(out, (u32)f.len);
		else
			put_u64(out, f.len);
		strbuf__add(out, f.buf ? f.buf : "", f.len);
	}
	strbuf__fini(&f);
	return err;
}

/* Whether specs[i] is the first tracepoint of its subsystem. */
static bool first_of_system(const struct event_spec *specs, size_t i)
{
	if (!specs[i].tracepoint)
		return false;
	for (size_t j = 0; j < i; j++)
		if (specs[j].tracepoint &&
		    strcmp(specs[j].tp_sys, specs[i].tp_sys) == 0)
			return false;
	return true;
}

int catalog__tracing_data(const char *tracefs,
			  const struct event_spec *specs, size_t nr,
			  struct strbuf *out, struct strbuf *why)
{
	static const char magic[] = "\027\010\104tracing0.6";
	const char *dir;
	char path[PATH_MAX];
	size_t nsys = 0, page = (size_t)sysconf(_SC_PAGESIZE);
	int err = 0;

	for (size_t i = 0; i < nr; i++)
		nsys += specs[i].tracepoint;
	if (!nsys)
		return 0;
	dir = tracefs_dir(tracefs);
	if (!dir) {
		strbuf__addf(why, "-o: the tracepoints' formats cannot be written: %s",
			     tracefs_why());
		return -ENOENT;
	}
	strbuf__add(out, magic, sizeof(magic));	/* with its NUL */
	strbuf__addc(out, 0);			/* little endian */
	strbuf__addc(out, (char)sizeof(long));
	put_u32(out, (u32)page);
	strbuf__add(out, "header_page", sizeof("header_page"));
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	err = put_file(out, path, 8);
	if (!err) {
		strbuf__add(out, "header_event", sizeof("header_event"));
		snprintf(path, sizeof(path), "%s/events/header_event", dir);
		err = put_file(out, path, 8);
	}
	put_u32(out, 0);	/* no ftrace formats */
	/* the subsystems, each with its tracepoints (first seen order) */
	nsys = 0;
	for (size_t i = 0; i < nr; i++)
		nsys += first_of_system(specs, i);
	put_u32(out, (u32)nsys);
	for (size_t i = 0; i < nr && !err; i++) {
		size_t n = 0;

		if (!first_of_system(specs, i))
			continue;
		for (size_t j = i; j < nr; j++)
			n += specs[j].tracepoint &&
			     strcmp(specs[j].tp_sys, specs[i].tp_sys) == 0;
		strbuf__add(out, specs[i].tp_sys, strlen(specs[i].tp_sys) + 1);
		put_u32(out, (u32)n);
		for (size_t j = i; j < nr && !err; j++) {
			if (!specs[j].tracepoint ||
			    strcmp(specs[j].tp_sys, specs[i].tp_sys))
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/format",
				 dir, specs[j].tp_sys, specs[j].tp_name);
			err = put_file(out, path, 8);
		}
	}
	put_u32(out, 0);	/* no kallsyms: perf reads the file's own */
	snprintf(path, sizeof(path), "%s/printk_formats", dir);
	if (!err && put_file(out, path, 4))
		put_u32(out, 0);	/* optional */
	put_u64(out, 0);	/* no saved command lines */
	if (err)
		strbuf__addf(why, "-o: reading the tracepoints' formats from %s: %s",
			     dir, strerror(-err));
	else if (out->oom)
		err = -ENOMEM;
	return err;
}
