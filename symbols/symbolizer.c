/* symbolizer: (dso, address) -> symbol, source line, code bytes; cached.
 * This file is the facade (its lookups, the answers' cache, a build's
 * deadline, its statistics); symimage.c loads files (images and the
 * worker's jobs), symkernel.c the kernel and the vdso, symjit.c the JIT
 * maps, symcode.c reads code bytes.  symbolizer_internal.h holds what
 * they share. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <gelf.h>

#include "src/sys/clock.h"
#include "symbols/cachedir.h"
#include "symbols/dbgfetch.h"
#include "symbols/debuginfo.h"
#include "symbols/dwcache.h"
#include "src/core/elfnote.h"
#include "symbols/elfsym.h"
#include "symbols/kallsyms.h"
#include "symbols/kcore.h"
#include "symbols/loader.h"
#include "src/core/log.h"
#include "src/sys/kernel.h"
#include "src/core/lru.h"
#include "symbols/perfmap.h"
#include "symbols/srcline.h"
#include "symbols/symbolizer.h"
#include "symbols/symbolizer_internal.h"
#include "symbols/symcache.h"
#include "symbols/symtab.h"


void awaited__set(struct awaited *a, enum dbgfetch_kind kind,
	       const u8 *bid, size_t size)
{
	a->on = size && size <= BUILD_ID_MAX;
	a->kind = kind;
	a->bid_size = (u8)MIN(size, (size_t)BUILD_ID_MAX);
	memcpy(a->bid, bid, a->bid_size);
}

/* Has what a waits for come?  1: a file, 0: not yet, -1: it will not
 * (the fetch failed; said by dbgfetch). */
static int await_check(struct symbolizer *s, const struct awaited *a)
{
	char path[PATH_BUF];
	int r = dbgfetch__get(s->fetch, a->kind, a->bid, a->bid_size, NULL,
			      0, path, sizeof(path));

	return r == -EINPROGRESS ? 0 : r ? -1 : 1;
}

const char *symbolizer__pool_dup(struct symbolizer *s, const char *str)
{
	return str ? strpool__intern(s->pool, str, strlen(str)) : NULL;
}

/* A cache folder option: NULL, the default folder; "": none. */
static const char *cache_dir(struct symbolizer *s, const char *opt)
{
	char dir[PATH_BUF];

	if (opt)
		return opt[0] ? symbolizer__pool_dup(s, opt) : NULL;
	if (cachedir__default(dir, sizeof(dir)))
		return NULL;
	return symbolizer__pool_dup(s, dir);
}

static void dwarf_evict(void *ctx, struct lru_node *n)
{
	(void)ctx;
	image__drop_dwarf(lru_entry(n, struct image, dw_node));
}

static void resolved_evict(void *ctx, struct lru_node *n)
{
	(void)ctx;
	free(lru_entry(n, struct resolved, node));
}

struct symbolizer *symbolizer__new(const struct symbolizer_opts *opts)
{
	struct symbolizer_opts none = { 0 };
	struct symbolizer *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (!opts)
		opts = &none;
	lru__init(&s->dwarf, opts->dwarf_bytes ? opts->dwarf_bytes :
						 SYMBOLIZER_DWARF_BYTES,
		  MAX_DWARF_OPEN, dwarf_evict, s);
	lru__init(&s->resolved, opts->resolved_bytes ?
					opts->resolved_bytes :
					SYMBOLIZER_RESOLVED_BYTES,
		  0, resolved_evict, s);
	s->code_fd = -1;
	s->demangle = opts->no_demangle ? 0 :
			      SYMTAB_DEMANGLE |
				      (opts->demangle_params ? SYMTAB_PARAMS :
							       0);
	s->fetch = opts->fetch;
	s->fetch_wait = opts->fetch_wait;
	/* until a front end sets a table's bound, DBGFETCH_WAIT_MAX in all */
	s->fetch_until = dbgfetch__after(DBGFETCH_WAIT_MAX);
	s->stop = opts->stop;
	s->kernel_bid_size = MIN(opts->kernel_build_id_size,
				 (size_t)BUILD_ID_MAX);
	if (s->kernel_bid_size)
		memcpy(s->kernel_bid, opts->kernel_build_id, s->kernel_bid_size);
	s->kernel_text = opts->kernel_text;
	s->pool = strpool__new();
	/* two binaries read at once (libLLVM beside libclang-cpp): more
	 * would raise the peak memory of a start for little */
	s->loader = loader__new(sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1);
	if (!s->pool || !s->loader)
		goto nomem;
	if (opts->slow_load && opts->slow_load[0] &&
	    !(s->slow_load = symbolizer__pool_dup(s, opts->slow_load)))
		goto nomem;
	if (opts->nr_debug_dirs) {
		s->debug_dirs = calloc(opts->nr_debug_dirs,
				       sizeof(*s->debug_dirs));
		if (!s->debug_dirs)
			goto nomem;
		for (size_t i = 0; i < opts->nr_debug_dirs; i++) {
			s->debug_dirs[i] =
				symbolizer__pool_dup(s, opts->debug_dirs[i]);
			if (opts->debug_dirs[i] && !s->debug_dirs[i])
				goto nomem;
		}
		s->nr_debug_dirs = opts->nr_debug_dirs;
	}
	s->kallsyms_path = symbolizer__pool_dup(s, opts->kallsyms ?
						       opts->kallsyms :
						       KERNEL_KALLSYMS);
	if (opts->kallsyms_cache && opts->kallsyms_cache[0]) {
		s->kallsyms_cache = symbolizer__pool_dup(s,
							 opts->kallsyms_cache);
	} else if (!opts->kallsyms_cache && !opts->kallsyms) {
		char dir[PATH_BUF];

		if (!cachedir__default(dir, sizeof(dir)))
			s->kallsyms_cache = symbolizer__pool_dup(s, dir);
	}
	s->dwarf_cache = cache_dir(s, opts->dwarf_cache);
	s->symbol_cache = cache_dir(s, opts->symbol_cache);
	s->proc = symbolizer__pool_dup(s, opts->proc ? opts->proc : "/proc");
	s->tmp = symbolizer__pool_dup(s, opts->tmp ? opts->tmp : "/tmp");
	s->kernel_release = symbolizer__pool_dup(s, opts->kernel_release);
	/* NULL: the running kernel's (kernel__build_id) */
	s->kernel_notes = symbolizer__pool_dup(s, opts->kernel_notes);
	s->vdso_path = symbolizer__pool_dup(s, opts->vdso_image);
	s->kcore_path = symbolizer__pool_dup(s, opts->kcore ? opts->kcore :
							    KERNEL_KCORE);
	s->symfs = symbolizer__pool_dup(s, opts->symfs);
	if (!s->kallsyms_path || !s->proc || !s->tmp || !s->kcore_path ||
	    (opts->vdso_image && !s->vdso_path) || (opts->symfs && !s->symfs))
		goto nomem;
	return s;
nomem:
	symbolizer__free(s);
	errno = ENOMEM;
	return NULL;
}

/* Ends an Elf handle, then closes the file it reads; both left unset. */

void symbolizer__free(struct symbolizer *s)
{
	if (!s)
		return;
	lru__fini(&s->resolved);
	lru__fini(&s->dwarf);
	for (size_t i = 0; i < s->nr_states; i++)
		symbolizer__put_image(s, s->states[i].img);
	for (size_t i = 0; i < s->nr_images; i++) {
		/* none left, normally */
		symbolizer__job_cancel(s, &s->images[i]->job);
		symbolizer__job_cancel(s, &s->images[i]->dw_job);
		image__free(s->images[i]);
	}
	symbolizer__kernel_job_cancel(s);
	/* after every job was given up: a load under way is not waited
	 * for (it ends alone; see loader__free) */
	loader__free(s->loader);
	for (size_t i = 0; i < s->nr_pms; i++)
		perfmap__free(s->pms[i].pm);
	image__free(s->vdso);
	kallsyms__free(s->kernel);
	kcore__free(s->kcore);
	if (s->code_fd >= 0)
		close(s->code_fd);
	free(s->pms);
	free(s->images);
	free(s->states);
	free(s->debug_dirs);
	strpool__free(s->pool);
	free(s);
}

struct debuginfo_opts symbolizer__debuginfo_opts(const struct symbolizer *s)
{
	struct debuginfo_opts o = {
		.proc = s->proc,
		.debug_dirs = s->debug_dirs,
		.nr_debug_dirs = s->nr_debug_dirs,
		.symfs = s->symfs,
		.fetch = s->fetch,
		.fetch_until = s->fetch_wait ? s->fetch_until : 0,
	};

	return o;
}


void symbolizer__set_kernel_text(struct symbolizer *s, u64 text)
{
	if (s && !s->kernel_loaded)
		s->kernel_text = text;
}

void symbolizer__set_demangle_params(struct symbolizer *s, bool params)
{
	unsigned int flags;

	if (!s || !s->demangle)
		return;
	flags = SYMTAB_DEMANGLE | (params ? SYMTAB_PARAMS : 0);
	if (flags == s->demangle)
		return;
	s->demangle = flags;
	for (size_t i = 0; i < s->nr_images; i++) {
		if (s->images[i] == s->vdso)
			continue;
		symtab__set_demangle(s->images[i]->st, flags);
		symtab__set_demangle(s->images[i]->data_st, flags);
	}
	for (size_t i = 0; i < s->nr_pms; i++)
		perfmap__set_demangle(s->pms[i].pm, flags);
	/* the cached answers hold names of the other form (and so do the
	 * callers' that keep answers: symbolizer__answers_gen) */
	lru__shrink(&s->resolved, 0, 0);
	s->demangles++;
}

bool symbolizer__demangle_params(const struct symbolizer *s)
{
	return s && (s->demangle & SYMTAB_PARAMS);
}

/* ---- the facade ---- */

static struct dso_state *state_of(struct symbolizer *s, const struct dso *dso)
{
	size_t cap = s->nr_states;

	if (dso->id >= s->nr_states) {
		size_t old = s->nr_states;

		if (array__grow((void **)&s->states, &cap, (size_t)dso->id + 1,
				sizeof(*s->states)))
			return NULL;
		memset(s->states + old, 0, (cap - old) * sizeof(*s->states));
		s->nr_states = cap;
	}
	return &s->states[dso->id];
}

static const char *display_name(struct symbolizer *s, const struct dso *dso)
{
	switch (dso->kind) {
	case DSO_UNKNOWN:
		return "[unknown]";
	case DSO_HYPERVISOR:
		return "[hypervisor]";
	case DSO_KERNEL:
		return "[kernel.kallsyms]";
	case DSO_VDSO:
		return dso->name ? dso->name : "[vdso]";
	default:
		break;
	}
	if (dso->name && dso->name[0])
		return dso->name;
	if (dso->path && dso->path[0])
		return symbolizer__pool_dup(s, path_basename(dso->path));
	return dso->kind == DSO_ANON ? "[anon]" : "[unknown]";
}

/* A use of dso: its name, and a new epoch when it is not loaded. */
static void touch(struct symbolizer *s, const struct dso *dso,
		  struct dso_state *ds)
{
	ds->used = s->gen;
	if (!ds->dso_name)
		ds->dso_name = display_name(s, dso);
	if (!ds->loaded)
		ds->epoch++;
}

/* Loads what dso needs (once, or again after a trim); NULL on ENOMEM. */
struct dso_state *symbolizer__prepare(struct symbolizer *s,
				      const struct dso *dso)
{
	struct dso_state *ds = dso->id < MAX_DSO_ID ? state_of(s, dso) : NULL;

	if (!ds)
		return NULL;
	touch(s, dso, ds);
	switch (dso->kind) {
	case DSO_FILE:
		if (!ds->loaded)
			symbolizer__load_file(s, dso, ds);
		/* DSO_ST_DEFERRED while the worker reads its symbols */
		if (ds->img) {
			symbolizer__image_ready(s, ds->img);
			ds->status = ds->img->status;
		}
		break;
	case DSO_VDSO:
		if (ds->loaded)
			break;
		if (!s->vdso_loaded)
			symbolizer__load_vdso(s);
		ds->status = s->vdso_status;
		if (s->vdso && dso->build_id_size &&
		    !dso__build_id_eq(dso->build_id, dso->build_id_size,
					    s->vdso->info.build_id,
					    s->vdso->info.build_id_size)) {
			ds->status = DSO_ST_MISMATCH;
			if (!ds->warned)
				pr_warn("[vdso]: build-id differs from this "
					"kernel's; give --vdso-image");
			ds->warned = true;
		} else if (s->vdso) {
			ds->img = s->vdso;
			s->vdso->refs++;
		}
		break;
	case DSO_KERNEL:
		/* one table for all kernel dsos, trimmed on its own */
		if (!s->kernel_loaded)
			symbolizer__load_kernel(s);
		s->kernel_used = s->gen;
		ds->status = s->kernel_status;
		break;
	default:
		ds->status = DSO_ST_NO_SYMBOLS;
		break;
	}
	ds->loaded = true;
	return ds;
}

static void fill_hit(struct sym_info *info, const struct symtab_hit *hit)
{
	info->name = hit->name;
	info->raw_name = hit->raw_name;
	info->start = hit->start;
	info->size = hit->size;
	info->vaddr = hit->start;
	info->flags = hit->flags;
}

/* What every lookup starts with: info cleared, then the dso's name and
 * status once its symbols are loaded.  0 or -errno. */
/* ---- the deadline of a build (symbolizer__set_deadline) ---- */

void symbolizer__set_deadline(struct symbolizer *s, double deadline)
{
	if (!s)
		return;
	s->deadline = deadline;
	s->wait_end = deadline > 0 ? MIN(deadline, clock__now() + WORKER_WAIT) :
				     0;
	s->past = s->worked = false;
	s->deferred = s->deferred_loading = 0;
}

void symbolizer__fetch_wait(struct symbolizer *s, double seconds)
{
	if (s)
		s->fetch_until = dbgfetch__after(seconds);
}

size_t symbolizer__deferred(const struct symbolizer *s)
{
	return s ? s->deferred : 0;
}

size_t symbolizer__deferred_loading(const struct symbolizer *s)
{
	return s ? s->deferred_loading : 0;
}

u64 symbolizer__loads(const struct symbolizer *s)
{
	return s ? loader__finished(s->loader) : 0;
}

/* Called before what runs on this thread and may take long (opening a
 * binary, the kernel's table, a DWARF walk): true when it must wait.
 * The first of each build always runs, so that every build makes
 * progress.  What the worker reads does not count: it goes on between
 * builds. */
bool symbolizer__over_deadline(struct symbolizer *s)
{
	if (s->deadline <= 0)
		return false;
	if (!s->worked) {
		s->worked = true;
		return false;
	}
	if (!s->past) {
		s->past = clock__now() >= s->deadline;
	}
	return s->past;
}

/* A stop request came: nothing more is opened or waited for. */
bool symbolizer__stopped(const struct symbolizer *s)
{
	return s->stop && *s->stop;
}

bool symbolizer__prefetches(const struct symbolizer *s)
{
	return s && s->deadline <= 0 && !symbolizer__stopped(s);
}

void symbolizer__prefetch(struct symbolizer *s, const struct dso *dso)
{
	struct dso_state *ds;

	if (!symbolizer__prefetches(s) || !dso || dso->kind != DSO_FILE ||
	    dso->id >= MAX_DSO_ID)
		return;
	ds = state_of(s, dso);
	if (!ds || ds->loaded)
		return;
	/* prepare's first use of a binary, less its wait for the worker */
	touch(s, dso, ds);
	symbolizer__load_file(s, dso, ds);
	if (ds->img)
		ds->status = ds->img->status;
	ds->loaded = true;
}

void symbolizer__prefetch_kernel(struct symbolizer *s)
{
	if (symbolizer__prefetches(s))
		symbolizer__kernel_prefetch(s);
}

/* Past the deadline (or after a stop request), a lookup that would open
 * a file (a binary, whose symbols the worker then reads; the kernel's
 * table, the vdso) is counted and answered "not yet". */
bool symbolizer__defer_load(struct symbolizer *s, const struct dso *dso)
{
	const struct dso_state *ds;
	bool load;

	if ((s->deadline <= 0 && !symbolizer__stopped(s)) ||
	    dso->id >= MAX_DSO_ID)
		return false;
	ds = state_of(s, dso);
	if (!ds)
		return false;
	switch (dso->kind) {
	case DSO_FILE:
	case DSO_VDSO:
		load = !ds->loaded;
		break;
	case DSO_KERNEL:
		load = !s->kernel_loaded;
		break;
	default:
		load = false;
		break;
	}
	if (!load || (!symbolizer__stopped(s) && !symbolizer__over_deadline(s)))
		return false;
	s->deferred++;
	return true;
}

static const char *dso_name_of(struct symbolizer *s, const struct dso *dso)
{
	struct dso_state *ds = state_of(s, dso);

	if (!ds)
		return dso->name;
	if (!ds->dso_name)
		ds->dso_name = display_name(s, dso);
	return ds->dso_name ? ds->dso_name : dso->name;
}

static int lookup_begin(struct symbolizer *s, const struct dso *dso,
			struct sym_info *info, struct dso_state **ds)
{
	if (!s || !dso || !info || dso->id >= MAX_DSO_ID)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	*ds = symbolizer__prepare(s, dso);
	if (!*ds)
		return -ENOMEM;
	info->dso_name = (*ds)->dso_name;
	info->status = (*ds)->status;
	return 0;
}

/* The resolution cache's first key: dso, what was asked, and the load
 * (of the dso, and for the kernel of the one kallsyms table) it came
 * from. */
/* An answer given while debuginfod fetches a file of the dso (addresses
 * for now, .dynsym's names, no source lines) is provisional: not kept. */
bool dso_state__awaiting(const struct dso_state *ds)
{
	return ds->await.on ||
	       (ds->img && (ds->img->await.on || ds->img->dw_await.on));
}

u64 symbolizer__resolved_key(const struct symbolizer *s,
		 const struct dso_state *ds, const struct dso *dso,
		 unsigned int what)
{
	u64 epoch = ds->epoch;

	if (dso->kind == DSO_KERNEL)
		epoch = epoch << 16 ^ s->kernel_loads;
	return (u64)dso->id | (u64)what << 32 | epoch << 34;
}

/* dsos whose answers do not change while loaded (JIT maps grow). */
static bool cacheable(const struct dso *dso)
{
	return dso->kind == DSO_FILE || dso->kind == DSO_VDSO ||
	       dso->kind == DSO_KERNEL;
}

void symbolizer__resolved_add(struct symbolizer *s, u64 k0, u64 addr,
		  const struct sym_info *info, int nr,
		  const struct srcline *frames)
{
	size_t nf = nr > 0 ? (size_t)nr : 0;
	size_t size = sizeof(struct resolved) + nf * sizeof(*frames);
	struct resolved *r = malloc(size);

	if (!r)
		return;	/* uncached: answered again next time */
	r->node.key[0] = k0;
	r->node.key[1] = addr;
	/* and malloc's header */
	r->node.cost = size + 16;
	r->used = s->gen;
	if (info)
		r->info = *info;
	r->nr = nr;
	if (nf)
		memcpy(r->frames, frames, nf * sizeof(*frames));
	if (lru__insert(&s->resolved, &r->node))
		free(r);
}

static void unload(struct symbolizer *s, size_t i);

/*
 * A table served from a cache file that was cut or changed while in use
 * (its lookups answer -ESTALE, symtab__set_guard): dropped, said once,
 * and made again by the next lookup (the cache file no longer matches,
 * so from the binary or /proc/kallsyms).  The answer meanwhile is a
 * provisional one, never cached.
 */
static void drop_stale(struct symbolizer *s, const struct dso *dso,
		       struct dso_state *ds, struct sym_info *info)
{
	struct image *img = ds ? ds->img : NULL;
	bool *said = dso->kind == DSO_KERNEL ? &s->kernel_stale_warned :
		     ds ? &ds->stale_warned : NULL;

	if (said && !*said)
		pr_warn("%s: its cached table changed while in use: read again",
			dso->kind == DSO_KERNEL ? "kernel symbols" :
			img && img->file ? img->file : "?");
	if (said)
		*said = true;
	if (dso->kind == DSO_KERNEL) {
		kallsyms__free(s->kernel);
		s->kernel = NULL;
		s->kernel_loaded = false;
	} else {
		for (size_t i = 0; img && i < s->nr_states; i++)
			if (s->states[i].img == img)
				unload(s, i);
	}
	s->deferred++;
	if (info) {
		info->name = info->raw_name = NULL;
		info->status = DSO_ST_DEFERRED;
		info->flags |= SYM_F_PROVISIONAL;
	}
}

int symbolizer__lookup(struct symbolizer *s, const struct dso *dso, u64 addr,
		       struct sym_info *info)
{
	struct symtab_hit hit;
	struct dso_state *ds;
	struct pm_entry *pe;
	struct lru_node *n;
	u64 vaddr, k0 = 0;
	int err;

	if (s && dso && info && symbolizer__defer_load(s, dso)) {
		memset(info, 0, sizeof(*info));
		info->dso_name = dso_name_of(s, dso);
		info->status = DSO_ST_DEFERRED;
		info->flags = SYM_F_PROVISIONAL;
		return 0;
	}
	err = lookup_begin(s, dso, info, &ds);
	if (err)
		return err;
	if (info->status == DSO_ST_DEFERRED) {
		/* its symbols are on the worker: a later build names it */
		s->deferred++;
		s->deferred_loading++;
		info->flags = SYM_F_PROVISIONAL;
		return 0;
	}
	if (cacheable(dso)) {
		k0 = symbolizer__resolved_key(s, ds, dso, RES_SYM);
		n = lru__find(&s->resolved, k0, addr);
		if (n) {
			s->hits++;
			lru_entry(n, struct resolved, node)->used = s->gen;
			*info = lru_entry(n, struct resolved, node)->info;
			if (dso->kind == DSO_KERNEL)
				s->kernel_used = s->gen;
			return 0;
		}
		s->misses++;
	}
	switch (dso->kind) {
	case DSO_FILE:
	case DSO_VDSO:
		if (!ds->img || ds->status == DSO_ST_MISMATCH ||
		    elfsym__to_vaddr(&ds->img->info, addr, &vaddr))
			break;
		err = symtab__lookup(ds->img->st, vaddr, &hit);
		if (err)
			break;
		fill_hit(info, &hit);
		/* same segment, so the same offset from the symbol */
		info->start = addr - (vaddr - hit.start);
		break;
	case DSO_KERNEL:
		s->kernel_used = s->gen;
		if (!s->kernel)
			break;
		err = kallsyms__lookup(s->kernel, addr, &hit);
		/* code of no kernel map's: perf's [unknown] */
		if (err == -ENOENT && kallsyms__beyond_kernel(s->kernel, addr))
			info->dso_name = "[unknown]";
		if (err)
			break;
		fill_hit(info, &hit);
		info->dso_name = kallsyms__dso_name(s->kernel, hit.group);
		break;
	case DSO_ANON:
		if (dso->pid <= 0)
			break;
		pe = symbolizer__perfmap_of(s, dso->pid);
		if (!pe || !perfmap__loaded(pe->pm))
			break;
		info->dso_name = perfmap__name(pe->pm);
		info->status = DSO_ST_OK;
		if (!perfmap__lookup(pe->pm, addr, &hit))
			fill_hit(info, &hit);
		break;
	default:
		break;
	}
	if (err == -ESTALE) {
		drop_stale(s, dso, ds, info);
		return 0;
	}
	/* a name that could not be made (ENOMEM) is not remembered */
	if (cacheable(dso) && err != -ENOMEM && !dso_state__awaiting(ds))
		symbolizer__resolved_add(s, k0, addr, info, 0, NULL);
	else
		info->flags |= SYM_F_PROVISIONAL;
	return 0;
}

int symbolizer__lookup_loaded(struct symbolizer *s, const struct dso *dso,
			      u64 addr, struct sym_info *info)
{
	const struct dso_state *ds;

	if (!s || !dso || !info || dso->id >= MAX_DSO_ID)
		return -EINVAL;
	ds = dso->id < s->nr_states ? &s->states[dso->id] : NULL;
	if (!ds || !ds->loaded || (ds->img && ds->img->job) ||
	    dso_state__awaiting(ds))
		return -EAGAIN;
	switch (dso->kind) {
	case DSO_FILE:
	case DSO_VDSO:
		break;
	case DSO_KERNEL:
		if (!s->kernel_loaded)
			return -EAGAIN;
		break;
	default:
		return -EAGAIN;
	}
	return symbolizer__lookup(s, dso, addr, info);
}

int symbolizer__lookup_data(struct symbolizer *s, const struct dso *dso,
			    u64 vaddr, struct sym_info *info)
{
	struct symtab_hit hit;
	struct dso_state *ds;
	struct image *img;
	int err;

	/* the others' key space is the address itself */
	if (dso && dso->kind != DSO_FILE && dso->kind != DSO_VDSO)
		return symbolizer__lookup(s, dso, vaddr, info);
	err = lookup_begin(s, dso, info, &ds);
	if (err)
		return err;
	img = ds->img;
	if (!img || ds->status == DSO_ST_MISMATCH || img->job)
		return 0;
	err = symtab__lookup(img->st, vaddr, &hit);
	if (err && err != -ESTALE) {
		/* the vdso's data is the kernel's, outside its image */
		if (dso->kind != DSO_FILE)
			return 0;
		if (!img->data_tried)
			symbolizer__load_data(s, dso, img);
		if (!img->data_st)
			return 0;
		err = symtab__lookup(img->data_st, vaddr, &hit);
		if (err && err != -ESTALE)
			return 0;
	}
	if (err == -ESTALE) {
		drop_stale(s, dso, ds, info);
		return 0;
	}
	fill_hit(info, &hit);
	return 0;
}

/* The ELF layout that converts dso's key space to vaddrs: 1 for dsos whose
 * key space is the address itself, 0 with *info set, or -errno. */
static int vaddr_layout(struct symbolizer *s, const struct dso *dso,
			const struct elf_info **info)
{
	struct dso_state *ds;

	if (!s || !dso)
		return -EINVAL;
	if (dso->kind != DSO_FILE && dso->kind != DSO_VDSO)
		return 1;
	ds = symbolizer__prepare(s, dso);
	if (!ds)
		return -ENOMEM;
	if (!ds->img)
		return -ENOENT;
	*info = &ds->img->info;
	return 0;
}

int symbolizer__to_vaddr(struct symbolizer *s, const struct dso *dso,
			 u64 addr, u64 *vaddr)
{
	const struct elf_info *info;
	int r;

	if (!vaddr)
		return -EINVAL;
	r = vaddr_layout(s, dso, &info);
	if (r == 1)
		*vaddr = addr;
	if (r)
		return r < 0 ? r : 0;
	return elfsym__to_vaddr(info, addr, vaddr);
}

int symbolizer__from_vaddr(struct symbolizer *s, const struct dso *dso,
			   u64 vaddr, u64 *addr)
{
	const struct elf_info *info;
	int r;

	if (!addr)
		return -EINVAL;
	r = vaddr_layout(s, dso, &info);
	if (r == 1)
		*addr = vaddr;
	if (r)
		return r < 0 ? r : 0;
	return elfsym__from_vaddr(info, vaddr, addr);
}

int symbolizer__foreach_symbol(struct symbolizer *s, const struct dso *dso,
			       int (*fn)(void *ctx, const struct sym_info *si),
			       void *ctx)
{
	return symbolizer__foreach_named(s, dso, NULL, fn, ctx);
}

int symbolizer__foreach_named(struct symbolizer *s, const struct dso *dso,
			      const char *part,
			      int (*fn)(void *ctx, const struct sym_info *si),
			      void *ctx)
{
	struct symtab *st = NULL;
	struct kallsyms *ks = NULL;
	struct symtab_hit hit;
	struct dso_state *ds;
	struct sym_info si;
	size_t nr = 0;
	int rc = 0;

	if (!s || !dso || !fn || dso->id >= MAX_DSO_ID)
		return -EINVAL;
	ds = symbolizer__prepare(s, dso);
	if (!ds)
		return -ENOMEM;
	if ((dso->kind == DSO_FILE || dso->kind == DSO_VDSO) && ds->img &&
	    ds->status != DSO_ST_MISMATCH)
		st = ds->img->st;
	else if (dso->kind == DSO_KERNEL && s->kernel)
		ks = s->kernel;
	nr = ks ? kallsyms__count(ks) : symtab__count(st);
	for (size_t i = 0; !rc && i < nr; i++) {
		int err;
		u64 key;

		/* a table's raw names are looked at before naming; the
		 * kernel's names need none */
		if (part && st) {
			const char *raw = symtab__raw_at(st, i);

			if (!raw && symtab__stale(st)) {
				drop_stale(s, dso, ds, NULL);
				break;
			}
			if (!raw || !strstr(raw, part))
				continue;
		}
		err = ks ? kallsyms__at(ks, i, &hit) : symtab__at(st, i, &hit);
		if (err == -ESTALE) {
			/* its cache file changed: nothing more from it */
			drop_stale(s, dso, ds, NULL);
			break;
		}
		if (err || !hit.name ||
		    (part && ks && !strstr(hit.raw_name, part)))
			continue;
		memset(&si, 0, sizeof(si));
		fill_hit(&si, &hit);
		si.status = ds->status;
		si.dso_name = ds->dso_name;
		if (dso->kind == DSO_KERNEL) {
			si.dso_name = kallsyms__dso_name(s->kernel, hit.group);
		} else {
			if (elfsym__from_vaddr(&ds->img->info, hit.start, &key))
				continue;
			si.start = key;
		}
		rc = fn(ctx, &si);
	}
	return rc;
}

const char *symbolizer__dso_file(struct symbolizer *s, const struct dso *dso)
{
	struct dso_state *ds;

	if (!s || !dso)
		return NULL;
	ds = symbolizer__prepare(s, dso);
	if (!ds)
		return NULL;
	if (dso->kind == DSO_KERNEL)
		return s->kernel ? s->kallsyms_path : NULL;
	return ds->img ? ds->img->file : NULL;
}

bool symbolizer__kernel_read(const struct symbolizer *s)
{
	return s && s->kernel_loaded;
}

bool symbolizer__kernel_restricted(struct symbolizer *s)
{
	return s && s->kernel_loaded && s->kernel_status == DSO_ST_RESTRICTED;
}

/* Forgets what dso id i loaded: loaded again, from the files, on the
 * next use. */
static void unload(struct symbolizer *s, size_t i)
{
	struct dso_state *ds = &s->states[i];

	if (ds->img) {
		if (s->code_fd >= 0 && s->code_dso == i) {
			close(s->code_fd);
			s->code_fd = -1;
		}
		symbolizer__put_image(s, ds->img);
		ds->img = NULL;
	}
	ds->loaded = false;
	ds->await.on = false;
}

/* A fetch ended: what waited for its file is loaded again when the file
 * came, and stops waiting when it will not.  Every dso that shares an
 * image that waited lets it go here, so the image is freed and its
 * build-id's next load reads the new files. */
static void fetched(struct symbolizer *s)
{
	u64 done = dbgfetch__done(s->fetch);
	bool any = false;
	int r;

	if (done == s->fetch_done)
		return;
	s->fetch_done = done;
	for (size_t i = 0; i < s->nr_images; i++) {
		struct image *img = s->images[i];

		if (img->await.on && (r = await_check(s, &img->await)) < 0)
			img->await.on = false;
		if (img->dw_await.on && (r = await_check(s, &img->dw_await))) {
			img->dw_await.on = false;
			if (r > 0) {
				symbolizer__drop_dwarf(s, img);
				any = true;
			}
		}
	}
	for (size_t i = 0; i < s->nr_states; i++) {
		struct dso_state *ds = &s->states[i];
		int came = 0;

		if (!ds->loaded)
			continue;
		if (ds->await.on && (came = await_check(s, &ds->await)) < 0)
			ds->await.on = false;
		if ((ds->await.on && came > 0) ||
		    (ds->img && ds->img->await.on &&
		     await_check(s, &ds->img->await) > 0)) {
			unload(s, i);
			any = true;
		}
	}
	if (any)
		s->changes++;
}

void symbolizer__stats(const struct symbolizer *s,
		       struct symbolizer_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!s)
		return;
	st->dwarf_open = lru__count(&s->dwarf);
	st->dwarf_bytes = lru__cost(&s->dwarf);
	st->dwarf_loads = s->dwarf_loads;
	st->symbol_cache_made = s->symbol_cache_made;
	st->symbol_cache_used = s->symbol_cache_used;
	st->dwarf_cache_made = s->dwarf_cache_made;
	st->dwarf_cache_used = s->dwarf_cache_used;
	st->resolved = lru__count(&s->resolved);
	st->resolved_bytes = lru__cost(&s->resolved);
	st->hits = s->hits;
	st->misses = s->misses;
}

void symbolizer__tick(struct symbolizer *s)
{
	if (!s)
		return;
	s->gen++;
	for (size_t i = 0; i < s->nr_images; i++) {
		struct image *img = s->images[i];

		if (img->dw && image__dwarf_changed(img)) {
			pr_debug("%s: DWARF file changed, closed",
				 img->file ? img->file : "?");
			symbolizer__drop_dwarf(s, img);
		}
	}
	if (s->fetch)
		fetched(s);
}

u64 symbolizer__changes(const struct symbolizer *s)
{
	return s ? s->changes : 0;
}

u64 symbolizer__answers_gen(const struct symbolizer *s)
{
	return s ? hash_u64(s->changes ^ (u64)s->kernel_loads << 32 ^
			    (u64)s->demangles << 48) | 1 : 1;
}

void symbolizer__trim(struct symbolizer *s, unsigned int max_idle_ticks)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_states; i++) {
		struct dso_state *ds = &s->states[i];

		if (ds->loaded && s->gen - ds->used > max_idle_ticks)
			unload(s, i);
	}
	for (size_t i = 0; i < s->nr_images; i++) {
		struct image *img = s->images[i];

		if (img->dw && s->gen - img->dw_used > max_idle_ticks)
			symbolizer__drop_dwarf(s, img);
	}
	if (s->kernel && s->gen - s->kernel_used > max_idle_ticks) {
		kallsyms__free(s->kernel);
		s->kernel = NULL;
		s->kernel_loaded = false;
	}
	/* answers no lookup asked for as long (the addresses of processes
	 * that exited, folded since): the least recently used first */
	for (struct lru_node *n; (n = lru__oldest(&s->resolved));) {
		if (s->gen - lru_entry(n, struct resolved, node)->used <=
		    max_idle_ticks)
			break;
		lru__remove(&s->resolved, n);
		resolved_evict(s, n);
	}
	for (size_t i = 0; i < s->nr_pms;) {
		if (s->gen - s->pms[i].used > max_idle_ticks) {
			perfmap__free(s->pms[i].pm);
			s->pms[i] = s->pms[--s->nr_pms];
		} else {
			i++;
		}
	}
}
