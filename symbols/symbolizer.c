/* symbolizer: (dso, address) -> symbol, source line, code bytes; cached. */
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
#include "src/core/lru.h"
#include "symbols/perfmap.h"
#include "symbols/srcline.h"
#include "symbols/symbolizer.h"
#include "symbols/symcache.h"
#include "symbols/symtab.h"

#define PATH_BUF 4096

/*
 * DWARF handles are kept by what they cost (see dwarf_cost), not by count:
 * with a count of 4, chains through libc, libpython, an ASan binary and
 * ptop itself evicted and inflated compressed DWARF again for every frame.
 * Each handle also holds an fd: this many at most.
 */
#define MAX_DWARF_OPEN 64
/* Frames a resolution cache entry holds; deeper asks bypass the cache. */
#define RESOLVED_DEPTH 32
/* dso ids are dense indexes; past this one is a bug, not a table */
#define MAX_DSO_ID (1u << 20)
/* symbolizer_opts.slow_load: what a test adds to such a load */
#define SLOW_LOAD_MS 2000
/* A build waits this long at most for the worker: most files load within
 * it, so the first rows have their names; a big one (libc's debug file)
 * leaves the rest of the budget to the build and its names to a later
 * one. */
#define WORKER_WAIT 0.02

/* A file debuginfod is fetching for us: what to ask it about. */
struct awaited {
	bool on;
	enum dbgfetch_kind kind;
	u8 bid[BUILD_ID_MAX];
	u8 bid_size;
};

struct load_job;

/* One loaded ELF; dsos with the same build-id share it. */
struct image {
	unsigned int refs;
	struct elf_info info;	/* of the runtime binary */
	struct symtab *st;	/* functions (and PLT, .eh_frame ranges) */
	enum dso_status status;	/* DSO_ST_DEFERRED while job runs */
	const char *file;	/* where the symbols came from (pooled) */
	struct load_job *job;	/* its symbols, on the worker */
	/* data objects and GOT slots, loaded on the first lookup_data */
	struct symtab *data_st;
	bool data_tried;
	/* DWARF, loaded on the first srcline */
	bool dwarf_tried;
	int dw_fd;
	Elf *dw_elf;
	struct srcline_dw *dw;
	struct load_job *dw_job;	/* dw, on the worker */
	u64 dw_used;
	/* debuginfod is fetching the debug file of its symbols, or of its
	 * DWARF: loaded again once it arrived */
	struct awaited await, dw_await;
	struct lru_node dw_node;	/* in symbolizer.dwarf while dw is set */
	off_t dw_size;		/* the mapped file's, checked each tick */
	struct timespec dw_mtime;
	/* an in-memory image (vdso): elf_memory's buffer */
	void *mem;
	size_t mem_size;
};

struct dso_state {
	bool loaded;		/* img/status are current */
	bool warned;		/* a problem was logged once already */
	struct awaited await;	/* debuginfod is fetching its binary */
	enum dso_status status;
	struct image *img;
	const char *dso_name;	/* pooled */
	u64 used;		/* generation of the last use */
	u32 epoch;		/* loads so far: keys the resolution cache */
};

/*
 * One resolved (dso, address): what symbolizer__lookup or
 * symbolizer__srcline said, by key {dso id | kind | epoch, address}.  The
 * strings are the symbolizer's pooled ones, valid until it is freed.  An
 * epoch that moved on (the dso loaded again after a trim) leaves the old
 * entries unreachable until the bound pushes them out.
 */
enum { RES_SYM, RES_SRCLINE };
struct resolved {
	struct lru_node node;
	u64 used;			/* generation of the last lookup */
	struct sym_info info;		/* RES_SYM */
	int nr;				/* RES_SRCLINE: frames, or -errno */
	struct srcline frames[];
};

struct pm_entry {
	s32 pid;
	struct perfmap *pm;
	u64 checked;		/* generation of the last refresh, + 1 */
	u64 used;
};

struct symbolizer {
	struct strpool *pool;
	const char **debug_dirs;	/* pooled copies */
	size_t nr_debug_dirs;
	const char *kallsyms_path, *proc, *tmp, *vdso_path, *kcore_path;
	unsigned int demangle;	/* symtab flags: SYMTAB_DEMANGLE, PARAMS */
	const char *symfs;
	struct dbgfetch *fetch;
	bool fetch_wait;
	u64 fetch_done;		/* dbgfetch__done when last looked */
	u64 changes;		/* symbolizer__changes */
	u32 demangles;		/* symbolizer__set_demangle_params changes */
	/* symbolizer__set_deadline: past it, loads wait (counted) */
	double deadline;
	double wait_end;	/* waits for the worker end there */
	bool past, worked;	/* worked: one load or walk ran */
	size_t deferred, deferred_loading;
	const volatile sig_atomic_t *stop;	/* symbolizer_opts.stop */
	const char *slow_load;	/* symbolizer_opts.slow_load */
	struct loader *loader;	/* the worker that reads files */
	const char *kallsyms_cache;	/* NULL: none */
	const char *dwarf_cache;	/* NULL: none */
	const char *symbol_cache;	/* NULL: none */

	struct dso_state *states;	/* by dso->id */
	size_t nr_states;
	struct image **images;
	size_t nr_images, cap_images;

	struct kallsyms *kernel;
	bool kernel_loaded, kernel_warned;
	/* the recording's kernel (symbolizer_opts), to check kallsyms */
	u8 kernel_bid[BUILD_ID_MAX];
	size_t kernel_bid_size;
	const char *kernel_release, *kernel_notes;
	u64 kernel_text;
	enum dso_status kernel_status;
	u64 kernel_used;

	struct image *vdso;	/* NULL: not loaded (see vdso_status) */
	bool vdso_loaded;
	enum dso_status vdso_status;

	struct pm_entry *pms;
	size_t nr_pms, cap_pms;

	int code_fd;		/* the file read_code read last */
	u32 code_dso;
	struct kcore *kcore;	/* kernel code, opened on first use */
	int kcore_err;		/* its open's -errno, 0: not tried */

	u64 gen;

	struct lru dwarf;	/* struct image by dw_node */
	size_t dwarf_loads, dwarf_cache_made, dwarf_cache_used;
	size_t symbol_cache_made, symbol_cache_used;
	struct lru resolved;	/* struct resolved */
	size_t hits, misses;
	u32 kernel_loads;
};

static void await_set(struct awaited *a, enum dbgfetch_kind kind,
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
			      false, path, sizeof(path));

	return r == -EINPROGRESS ? 0 : r ? -1 : 1;
}

static const char *pool_dup(struct symbolizer *s, const char *str)
{
	return str ? strpool__intern(s->pool, str, strlen(str)) : NULL;
}

/* A cache folder option: NULL, the default folder; "": none. */
static const char *cache_dir(struct symbolizer *s, const char *opt)
{
	char dir[PATH_BUF];

	if (opt)
		return opt[0] ? pool_dup(s, opt) : NULL;
	return cachedir__default(dir, sizeof(dir)) ? NULL : pool_dup(s, dir);
}

static void image__drop_dwarf(struct image *img);

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
	    !(s->slow_load = pool_dup(s, opts->slow_load)))
		goto nomem;
	if (opts->nr_debug_dirs) {
		s->debug_dirs = calloc(opts->nr_debug_dirs,
				       sizeof(*s->debug_dirs));
		if (!s->debug_dirs)
			goto nomem;
		for (size_t i = 0; i < opts->nr_debug_dirs; i++) {
			s->debug_dirs[i] = pool_dup(s, opts->debug_dirs[i]);
			if (opts->debug_dirs[i] && !s->debug_dirs[i])
				goto nomem;
		}
		s->nr_debug_dirs = opts->nr_debug_dirs;
	}
	s->kallsyms_path = pool_dup(s, opts->kallsyms ? opts->kallsyms :
							"/proc/kallsyms");
	if (opts->kallsyms_cache && opts->kallsyms_cache[0]) {
		s->kallsyms_cache = pool_dup(s, opts->kallsyms_cache);
	} else if (!opts->kallsyms_cache && !opts->kallsyms) {
		char dir[PATH_BUF];

		if (!cachedir__default(dir, sizeof(dir)))
			s->kallsyms_cache = pool_dup(s, dir);
	}
	s->dwarf_cache = cache_dir(s, opts->dwarf_cache);
	s->symbol_cache = cache_dir(s, opts->symbol_cache);
	s->proc = pool_dup(s, opts->proc ? opts->proc : "/proc");
	s->tmp = pool_dup(s, opts->tmp ? opts->tmp : "/tmp");
	s->kernel_release = pool_dup(s, opts->kernel_release);
	s->kernel_notes = pool_dup(s, opts->kernel_notes ? opts->kernel_notes :
							   "/sys/kernel/notes");
	s->vdso_path = pool_dup(s, opts->vdso_image);
	s->kcore_path = pool_dup(s, opts->kcore ? opts->kcore : "/proc/kcore");
	s->symfs = pool_dup(s, opts->symfs);
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
static void elf_close(Elf **elf, int *fd)
{
	if (*elf)
		elf_end(*elf);
	*elf = NULL;
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void image__drop_dwarf(struct image *img)
{
	srcline__free(img->dw);
	img->dw = NULL;
	elf_close(&img->dw_elf, &img->dw_fd);
	img->dwarf_tried = false;
}

static void image__free(struct image *img)
{
	if (!img)
		return;
	image__drop_dwarf(img);
	symtab__free(img->st);
	symtab__free(img->data_st);
	free(img->mem);
	free(img);
}

static struct image *image__new(void)
{
	struct image *img = calloc(1, sizeof(*img));

	if (img) {
		img->refs = 1;
		img->dw_fd = -1;
	}
	return img;
}

static void job_cancel(struct symbolizer *s, struct load_job **job);

/* Closes img's DWARF, taking it out of the cache first (or gives up its
 * load). */
static void symbolizer__drop_dwarf(struct symbolizer *s, struct image *img)
{
	if (img->dw)
		lru__remove(&s->dwarf, &img->dw_node);
	job_cancel(s, &img->dw_job);
	image__drop_dwarf(img);
}

static void symbolizer__put_image(struct symbolizer *s, struct image *img)
{
	if (!img || --img->refs)
		return;
	symbolizer__drop_dwarf(s, img);
	job_cancel(s, &img->job);
	for (size_t i = 0; i < s->nr_images; i++) {
		if (s->images[i] == img) {
			s->images[i] = s->images[--s->nr_images];
			break;
		}
	}
	image__free(img);
}

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
		job_cancel(s, &s->images[i]->job);
		job_cancel(s, &s->images[i]->dw_job);
		image__free(s->images[i]);
	}
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

static struct debuginfo_opts debuginfo_opts(const struct symbolizer *s)
{
	struct debuginfo_opts o = {
		.proc = s->proc,
		.debug_dirs = s->debug_dirs,
		.nr_debug_dirs = s->nr_debug_dirs,
		.symfs = s->symfs,
		.fetch = s->fetch,
		.fetch_wait = s->fetch_wait,
	};

	return o;
}

/* ---- file dsos ---- */

static struct image *find_image(struct symbolizer *s,
				const struct elf_info *info)
{
	if (!info->build_id_size)
		return NULL;
	for (size_t i = 0; i < s->nr_images; i++) {
		struct image *img = s->images[i];

		if (img->info.build_id_size == info->build_id_size &&
		    !memcmp(img->info.build_id, info->build_id,
			    info->build_id_size))
			return img;
	}
	return NULL;
}

static int add_image(struct symbolizer *s, struct image *img)
{
	if (array__grow((void **)&s->images, &s->cap_images,
			s->nr_images + 1, sizeof(*s->images)))
		return -ENOMEM;
	s->images[s->nr_images++] = img;
	return 0;
}

/*
 * A load the worker runs (symbols/loader.h).  The symbolizer's thread
 * opens the files (a few stats and ELF headers: the build-id and debug
 * file searches stay on it, with debuginfod's state); the worker reads
 * them (the symbol tables, libdw inflating compressed DWARF: up to a
 * second for libc's debug file) into objects of the job alone; the
 * symbolizer's thread takes them back (job_take_*) and puts them in its
 * images and caches, which only it touches.  The symtab is made with the
 * symbolizer's pool, which only lookups (this thread) write.
 */
enum job_kind { JOB_SYMBOLS, JOB_DWARF };

struct load_job {
	struct loader_job lj;
	enum job_kind kind;
	/* in: the binary, or the DWARF file (both kept while dw lives) */
	int fd;
	Elf *elf;
	/* JOB_SYMBOLS in: a debug file with a .symtab, read first */
	int dfd;
	Elf *dbg;
	unsigned int what, data;	/* elfsym_what, ELFSYM_DATA or 0 */
	bool has_symtab, minidebug;
	/* JOB_SYMBOLS out: the table (n symbols, or -errno) */
	struct symtab *st;
	long n;
	bool from_dbg;		/* its names came from the debug file */
	/* JOB_SYMBOLS in: the folder of tables (symcache.h) or NULL, and
	 * the table's pool and flags; out: what the cache did */
	const char *symcache_dir;
	struct strpool *pool;
	unsigned int st_flags;
	bool symcache_used, symcache_made;
	/* JOB_DWARF in: the folder of inflated copies (dwcache.h) or NULL */
	const char *cache_dir;
	/* JOB_DWARF out */
	struct srcline_dw *dw;
	int cache_err;		/* dwcache__open's, when it was asked */
	bool cache_made;
	size_t cost;
	char path[PATH_BUF];	/* the binary's, or the DWARF file's */
	char dbg_path[PATH_BUF];
	const char *name;	/* path or dbg_path: the file read */
	unsigned int delay_ms;	/* symbolizer_opts.slow_load */
};

static struct load_job *job_of(struct loader_job *lj)
{
	return (struct load_job *)((char *)lj - offsetof(struct load_job, lj));
}

static void job_close(struct load_job *j)
{
	elf_close(&j->dbg, &j->dfd);
	elf_close(&j->elf, &j->fd);
}

/* On whichever thread ends the job: touches nothing but the job. */
static void job_free(struct loader_job *lj)
{
	struct load_job *j = job_of(lj);

	srcline__free(j->dw);	/* before the Elf it reads */
	symtab__free(j->st);
	job_close(j);
	free(j);
}

static void symbols_run(struct loader_job *lj);
static void dwarf_run(struct loader_job *lj);

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The start of a run, on the worker (logged: the tests see that a load
 * is under way), then the tests' slow load: a sleep no signal cuts, as
 * none cuts libdw's inflating. */
static double job_begin(const struct load_job *j)
{
	struct timespec ts = { j->delay_ms / 1000,
			       (long)(j->delay_ms % 1000) * 1000000 };

	pr_debug("%s: reading %s (worker)", j->name,
		 j->kind == JOB_DWARF ? "DWARF" : "symbols");
	if (!j->delay_ms)
		return mono_now();
	/* the thread's name says it to the tests (/proc/PID/task/N/comm) */
	pthread_setname_np(pthread_self(), SLOW_LOAD_THREAD);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	pthread_setname_np(pthread_self(), LOADER_THREAD);
	return mono_now();
}

static void job_end(const struct load_job *j, double t0)
{
	pr_debug("%s: read in %.0f ms (worker%s)", j->name,
		 (mono_now() - t0) * 1000,
		 j->symcache_used ? ", its table kept from an earlier run" :
		 j->symcache_made ? ", its table kept for later runs" : "");
}

/* A job over fd and elf, which it owns from now on (even on failure). */
static struct load_job *job_new(enum job_kind kind, int fd, Elf *elf,
				const char *path)
{
	struct load_job *j = calloc(1, sizeof(*j));

	if (!j) {
		elf_close(&elf, &fd);
		return NULL;
	}
	j->lj.run = kind == JOB_SYMBOLS ? symbols_run : dwarf_run;
	/* rows need symbols; DWARF is for trees' inlined frames */
	j->lj.urgent = kind == JOB_SYMBOLS;
	j->lj.free = job_free;
	j->kind = kind;
	j->fd = fd;
	j->elf = elf;
	j->dfd = -1;
	snprintf(j->path, sizeof(j->path), "%s", path);
	return j;
}

/* Gives up *job (freed now, or by the worker once its run ends). */
static void job_cancel(struct symbolizer *s, struct load_job **job)
{
	if (!*job)
		return;
	loader__cancel(s->loader, &(*job)->lj);
	*job = NULL;
}

/* Hands j to the worker (it runs at once when no thread can start). */
static void job_submit(struct symbolizer *s, struct load_job *j)
{
	j->name = j->dbg ? j->dbg_path : j->path;
	if (s->slow_load && strstr(j->name, s->slow_load))
		j->delay_ms = SLOW_LOAD_MS;
	loader__submit(s->loader, &j->lj);
}

/* Waits for job as the build allows: in a live build
 * (symbolizer__set_deadline) until WORKER_WAIT after the build began (or
 * its deadline), until its end otherwise (batch, annotate); a stop
 * request ends either wait.  0: over, the job is the caller's. */
static int job_wait(struct symbolizer *s, struct load_job *job)
{
	return loader__wait(s->loader, &job->lj, s->wait_end, s->stop);
}

/* Symbols of a binary: its .symtab, else a separate debug file's, else
 * .dynsym with .eh_frame ranges filling the gaps; PLT stubs from the
 * binary itself.  With data (annotate's %rip-relative operands), the
 * data objects and GOT slots of the same tables, into a table of their
 * own: the functions' table, and so every sample's lookup, stays as it
 * is.  This part finds and opens the files; symbols_run reads them. */
static struct load_job *symbols_start(struct symbolizer *s,
				      const struct dso *dso,
				      struct image *img, int fd, Elf *elf,
				      const char *bin_path, bool data)
{
	struct debuginfo_opts o = debuginfo_opts(s);
	struct load_job *j = job_new(JOB_SYMBOLS, fd, elf, bin_path);
	struct elf_info di;

	if (!j)
		return NULL;
	j->data = data ? ELFSYM_DATA : 0;
	j->what = j->data | (data ? ELFSYM_GOT : ELFSYM_PLT);
	j->has_symtab = img->info.has_symtab;
	j->minidebug = img->info.has_minidebug;
	j->st = symtab__new(s->pool, s->demangle);
	j->symcache_dir = s->symbol_cache;
	j->pool = s->pool;
	j->st_flags = s->demangle;
	if (!j->st) {
		job_free(&j->lj);
		return NULL;
	}
	if (img->info.has_symtab) {
		j->what |= ELFSYM_SYMTAB;
		return j;
	}
	j->dfd = debuginfo__open_debug(&o, dso, &img->info, j->dbg_path,
				       sizeof(j->dbg_path));
	if (j->dfd == -EINPROGRESS && !data)
		await_set(&img->await, DBGFETCH_DEBUGINFO,
			  img->info.build_id_size ? img->info.build_id :
						    dso->build_id,
			  img->info.build_id_size ? img->info.build_id_size :
						    dso->build_id_size);
	if (j->dfd >= 0)
		j->dbg = elfsym__map_fd(j->dfd);
	/* only a debug file with a .symtab is read */
	if (j->dbg && (elfsym__info(j->dbg, &di) || !di.has_symtab)) {
		elf_end(j->dbg);
		j->dbg = NULL;
	}
	return j;
}

/* The key of j's table in the cache of tables: the files and what the
 * job would read of them.  0 or -errno. */
static int symbols_key(const struct load_job *j, struct symcache_key *k)
{
	u32 what = j->what | j->data | (j->has_symtab ? 1u << 16 : 0) |
		   (j->minidebug ? 1u << 17 : 0);

	return symcache__key(k, j->fd, j->dfd, what,
			     j->st_flags & (SYMTAB_LAST_WINS |
					    SYMTAB_GROUP_BOUNDS));
}

/* j's table from the cache of tables: true when it was there. */
static bool symbols_cached(struct load_job *j, const struct symcache_key *k)
{
	struct symtab *st;
	u32 extra;

	if (symcache__load(j->symcache_dir, j->path, k, j->pool, j->st_flags,
			   &st, &extra))
		return false;
	symtab__free(j->st);
	j->st = st;
	j->n = (long)symtab__count(st);
	j->from_dbg = extra & 1;
	j->symcache_used = true;
	return true;
}

static void symbols_run(struct loader_job *lj)
{
	struct load_job *j = job_of(lj);
	unsigned int what = j->what;
	double t0 = job_begin(j);
	struct symcache_key key;
	bool keyed = j->symcache_dir && !symbols_key(j, &key);
	long n = 0, m;

	if (keyed && symbols_cached(j, &key)) {
		job_close(j);
		job_end(j, t0);
		return;
	}
	if (j->dbg) {
		n = elfsym__load(j->dbg, j->st, ELFSYM_SYMTAB | j->data);
		j->from_dbg = n > 0;
	}
	if (!j->has_symtab) {
		/* perf reads a debug file's .symtab alone: .dynsym's
		 * unversioned names ("cfree" beside the debug file's
		 * "cfree@GLIBC_2.2.5") would be aliases perf never sees */
		if (n <= 0 || j->data)
			what |= ELFSYM_DYNSYM;
		/* no debug file (yet): MiniDebugInfo's local functions */
		if (n <= 0 && j->minidebug)
			what |= ELFSYM_MINIDEBUG;
		if (n <= 0 && !j->data)
			what |= ELFSYM_EHFRAME;
	}
	if (n >= 0) {
		m = elfsym__load(j->elf, j->st, what);
		n = m < 0 ? m : n + m;
	}
	if (n >= 0 && symtab__finish(j->st))
		n = -ENOMEM;
	j->n = n;
	job_close(j);
	if (n >= 0 && keyed)
		j->symcache_made = !symcache__save(j->symcache_dir, j->path,
						   &key, j->st, j->from_dbg);
	job_end(j, t0);
}

/* The functions' table of a finished job into img (the dsos that share
 * it take its status at their next lookup). */
static void symbols_take(struct symbolizer *s, struct image *img,
			 struct load_job *j)
{
	img->file = pool_dup(s, j->from_dbg ? j->dbg_path : j->path);
	s->symbol_cache_used += j->symcache_used;
	s->symbol_cache_made += j->symcache_made;
	if (j->n < 0) {
		img->status = DSO_ST_UNREADABLE;
		pr_info("%s: cannot read symbols (%s)", j->path,
			strerror((int)-j->n));
	} else {
		img->st = j->st;
		j->st = NULL;
		/* the form may have changed (N) while it loaded */
		if (s->demangle)
			symtab__set_demangle(img->st, s->demangle);
		img->status = symtab__count(img->st) ? DSO_ST_OK :
						       DSO_ST_NO_SYMBOLS;
	}
	job_free(&j->lj);
}

/* Are img's symbols in?  Takes them from the worker when it is done,
 * waiting for it as the build allows (job_wait). */
static bool image_ready(struct symbolizer *s, struct image *img)
{
	struct load_job *j = img->job;

	if (!j)
		return true;
	if (job_wait(s, j))
		return false;
	img->job = NULL;
	symbols_take(s, img, j);
	return true;
}

/* Opens dso's binary and reads its layout (here); the symbols are read
 * by the worker: until they are in, the image's status is
 * DSO_ST_DEFERRED. */
static void load_file(struct symbolizer *s, const struct dso *dso,
		      struct dso_state *ds)
{
	struct debuginfo_opts o = debuginfo_opts(s);
	char path[PATH_BUF];
	struct image *img = NULL, *shared;
	struct load_job *j;
	struct elf_info info;
	Elf *elf = NULL;
	int fd;

	fd = debuginfo__open_binary(&o, dso, path, sizeof(path));
	if (fd == -EINPROGRESS) {
		/* debuginfod brings it: addresses until then, quietly */
		ds->status = DSO_ST_UNREADABLE;
		await_set(&ds->await, DBGFETCH_EXECUTABLE, dso->build_id,
			  dso->build_id_size);
		return;
	}
	if (fd == -ESTALE) {
		ds->status = DSO_ST_MISMATCH;
		if (!ds->warned)
			pr_warn("%s: build-id differs from the profiled "
				"file's; its samples stay unsymbolized",
				dso->path);
		ds->warned = true;
		return;
	}
	ds->status = DSO_ST_UNREADABLE;
	if (fd < 0)
		goto unreadable;
	elf = elfsym__map_fd(fd);
	if (!elf || elfsym__info(elf, &info))
		goto unreadable;
	shared = find_image(s, &info);
	if (shared) {
		shared->refs++;
		ds->img = shared;
		ds->status = shared->status;
		goto out;
	}
	img = image__new();
	if (!img || add_image(s, img))
		goto unreadable;
	img->info = info;
	/* the job has the files from here */
	j = symbols_start(s, dso, img, fd, elf, path, false);
	fd = -1;
	elf = NULL;
	if (!j) {
		/* ENOMEM: unreadable, tried again after a trim */
		s->nr_images--;
		image__free(img);
		return;
	}
	img->job = j;
	img->status = DSO_ST_DEFERRED;
	job_submit(s, j);
	ds->img = img;
	ds->status = img->status;
	return;
unreadable:
	image__free(img);
	if (!ds->warned)
		pr_info("%s: cannot read symbols (%s)",
			dso->path ? dso->path : "?",
			fd == -ENOEXEC ? "not an ELF file" :
			fd < 0 ? strerror(-fd) : "not a usable ELF file");
	ds->warned = true;
out:
	elf_close(&elf, &fd);
}

/* The data objects of a binary whose functions are loaded: its file is
 * read again, once, when annotate first names a %rip-relative operand
 * (here, on the caller's thread: annotate has no deadline). */
static void load_data(struct symbolizer *s, const struct dso *dso,
		      struct image *img)
{
	struct debuginfo_opts o = debuginfo_opts(s);
	char path[PATH_BUF];
	struct load_job *j;
	Elf *elf = NULL;
	int fd;

	img->data_tried = true;
	fd = debuginfo__open_binary(&o, dso, path, sizeof(path));
	if (fd >= 0)
		elf = elfsym__map_fd(fd);
	if (!elf) {
		if (fd >= 0)
			close(fd);
		return;
	}
	j = symbols_start(s, dso, img, fd, elf, path, true);
	if (!j)
		return;
	symbols_run(&j->lj);
	if (j->n >= 0) {
		img->data_st = j->st;
		j->st = NULL;
	}
	job_free(&j->lj);
}

/* ---- vdso ---- */

static void *read_small_file(const char *path, size_t max, size_t *size)
{
	struct stat sb;
	void *buf = NULL;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || !sb.st_size ||
	    (u64)sb.st_size > max)
		goto out;
	buf = malloc((size_t)sb.st_size);
	if (!buf)
		goto out;
	n = pread(fd, buf, (size_t)sb.st_size, 0);
	if (n != sb.st_size) {
		free(buf);
		buf = NULL;
		goto out;
	}
	*size = (size_t)n;
out:
	close(fd);
	return buf;
}

static void load_vdso(struct symbolizer *s)
{
	struct image *img;
	Elf *elf = NULL;
	long n;

	s->vdso_loaded = true;
	s->vdso_status = DSO_ST_UNREADABLE;
	img = image__new();
	if (!img)
		return;
	if (s->vdso_path)
		img->mem = read_small_file(s->vdso_path, ELFSYM_VDSO_MAX,
					   &img->mem_size);
	else
		img->mem = elfsym__own_vdso(&img->mem_size);
	if (img->mem)
		elf = elfsym__open_mem(img->mem, img->mem_size);
	if (!elf || elfsym__info(elf, &img->info)) {
		pr_info("vdso: no usable image%s%s",
			s->vdso_path ? " in " : "",
			s->vdso_path ? s->vdso_path : "");
		goto fail;
	}
	img->st = symtab__new(s->pool, 0);
	if (!img->st)
		goto fail;
	n = elfsym__load(elf, img->st,
			 ELFSYM_SYMTAB | ELFSYM_DYNSYM | ELFSYM_EHFRAME);
	if (n < 0 || symtab__finish(img->st))
		goto fail;
	img->file = s->vdso_path ? s->vdso_path : pool_dup(s, "[vdso]");
	img->status = symtab__count(img->st) ? DSO_ST_OK : DSO_ST_NO_SYMBOLS;
	s->vdso_status = img->status;
	s->vdso = img;
	elf_end(elf);
	return;
fail:
	if (elf)
		elf_end(elf);
	image__free(img);
}

/* ---- kernel ---- */

/* Is the running kernel the recording's?  NULL, or why not. */
static const char *kernel_differs(struct symbolizer *s)
{
	struct symtab_hit hit;
	struct utsname u;
	u8 notes[4096], bid[BUILD_ID_MAX];
	ssize_t n = -1;
	int fd;

	if (s->kernel_bid_size) {
		fd = open(s->kernel_notes, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			n = read(fd, notes, sizeof(notes));
			close(fd);
		}
		n = n > 0 ? elfnote__build_id(notes, (size_t)n, false, bid,
					      sizeof(bid)) : 0;
		if (n <= 0 || !debuginfo__build_id_eq(bid, (size_t)n,
						       s->kernel_bid,
						       s->kernel_bid_size))
			return "its build-id is not this kernel's";
	} else if (s->kernel_release) {
		if (uname(&u) || strcmp(u.release, s->kernel_release))
			return "it ran another kernel release";
	}
	if (s->kernel_text && s->kernel &&
	    (kallsyms__lookup(s->kernel, s->kernel_text, &hit) ||
	     hit.start != s->kernel_text))
		return "the kernel has moved since (KASLR: a reboot)";
	return NULL;
}

static void load_kernel(struct symbolizer *s)
{
	const char *why;

	s->kernel_loaded = true;
	s->kernel_loads++;
	if (s->kallsyms_cache) {
		struct kallsyms_cache c = { .dir = s->kallsyms_cache };
		enum kallsyms_from from;

		s->kernel = kallsyms__load_cached(s->kallsyms_path, &c, s->pool,
						  &from);
		pr_debug("kernel symbols: %s",
			 from == KALLSYMS_CACHED ? "from the cache" :
			 from == KALLSYMS_PARSED_SAVED ? "parsed, cached" :
							  "parsed");
	} else {
		s->kernel = kallsyms__load(s->kallsyms_path, s->pool);
	}
	why = s->kernel && !s->kernel->restricted ? kernel_differs(s) : NULL;
	if (why) {
		kallsyms__free(s->kernel);
		s->kernel = NULL;
		s->kernel_status = DSO_ST_MISMATCH;
		if (!s->kernel_warned)
			pr_warn("the recording's kernel is not this one (%s): "
				"kernel samples are shown by address", why);
	} else if (!s->kernel) {
		s->kernel_status = DSO_ST_UNREADABLE;
		if (!s->kernel_warned)
			pr_warn("%s: %s; kernel samples stay unsymbolized",
				s->kallsyms_path, strerror(errno));
	} else if (s->kernel->restricted) {
		s->kernel_status = DSO_ST_RESTRICTED;
		if (!s->kernel_warned)
			pr_warn("kernel symbols are hidden (kptr_restrict): "
				"run as root with 'sysctl "
				"kernel.kptr_restrict=0' to see them");
	} else {
		s->kernel_status = kallsyms__count(s->kernel) ?
					   DSO_ST_OK :
					   DSO_ST_NO_SYMBOLS;
	}
	s->kernel_warned = true;
}

/* ---- JIT maps ---- */

static struct pm_entry *perfmap_of(struct symbolizer *s, s32 pid)
{
	struct pm_entry *e = NULL;

	for (size_t i = 0; i < s->nr_pms; i++)
		if (s->pms[i].pid == pid)
			e = &s->pms[i];
	if (!e) {
		struct perfmap *pm = perfmap__new(s->tmp, s->proc, pid,
						  s->pool, s->demangle);

		if (!pm || array__grow((void **)&s->pms, &s->cap_pms,
				       s->nr_pms + 1, sizeof(*s->pms))) {
			perfmap__free(pm);
			return NULL;
		}
		e = &s->pms[s->nr_pms++];
		memset(e, 0, sizeof(*e));
		e->pid = pid;
		e->pm = pm;
	}
	/* at most one stat per tick: a JIT appends all the time */
	if (e->checked != s->gen + 1) {
		e->checked = s->gen + 1;
		perfmap__refresh(e->pm);
	}
	e->used = s->gen;
	return e;
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

static const char *basename_of(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
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
		return pool_dup(s, basename_of(dso->path));
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
static struct dso_state *prepare(struct symbolizer *s, const struct dso *dso)
{
	struct dso_state *ds = dso->id < MAX_DSO_ID ? state_of(s, dso) : NULL;

	if (!ds)
		return NULL;
	touch(s, dso, ds);
	switch (dso->kind) {
	case DSO_FILE:
		if (!ds->loaded)
			load_file(s, dso, ds);
		/* DSO_ST_DEFERRED while the worker reads its symbols */
		if (ds->img) {
			image_ready(s, ds->img);
			ds->status = ds->img->status;
		}
		break;
	case DSO_VDSO:
		if (ds->loaded)
			break;
		if (!s->vdso_loaded)
			load_vdso(s);
		ds->status = s->vdso_status;
		if (s->vdso && dso->build_id_size &&
		    !debuginfo__build_id_eq(dso->build_id, dso->build_id_size,
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
			load_kernel(s);
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
	s->wait_end = deadline > 0 ? MIN(deadline, mono_now() + WORKER_WAIT) :
				     0;
	s->past = s->worked = false;
	s->deferred = s->deferred_loading = 0;
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
static bool over_deadline(struct symbolizer *s)
{
	struct timespec ts;

	if (s->deadline <= 0)
		return false;
	if (!s->worked) {
		s->worked = true;
		return false;
	}
	if (!s->past) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s->past = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 >=
			  s->deadline;
	}
	return s->past;
}

/* A stop request came: nothing more is opened or waited for. */
static bool stopped(const struct symbolizer *s)
{
	return s->stop && *s->stop;
}

bool symbolizer__prefetches(const struct symbolizer *s)
{
	return s && s->deadline <= 0 && !stopped(s);
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
	load_file(s, dso, ds);
	if (ds->img)
		ds->status = ds->img->status;
	ds->loaded = true;
}

/* Past the deadline (or after a stop request), a lookup that would open
 * a file (a binary, whose symbols the worker then reads; the kernel's
 * table, the vdso) is counted and answered "not yet". */
static bool defer_load(struct symbolizer *s, const struct dso *dso)
{
	const struct dso_state *ds;
	bool load;

	if ((s->deadline <= 0 && !stopped(s)) || dso->id >= MAX_DSO_ID)
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
	if (!load || (!stopped(s) && !over_deadline(s)))
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
	*ds = prepare(s, dso);
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
static bool awaiting(const struct dso_state *ds)
{
	return ds->await.on ||
	       (ds->img && (ds->img->await.on || ds->img->dw_await.on));
}

static u64 resolved_key(const struct symbolizer *s,
			const struct dso_state *ds, const struct dso *dso,
			unsigned int what)
{
	u64 epoch = ds->epoch;

	if (dso->kind == DSO_KERNEL)
		epoch = epoch << 16 ^ s->kernel_loads;
	return (u64)dso->id | (u64)what << 32 | epoch << 33;
}

/* dsos whose answers do not change while loaded (JIT maps grow). */
static bool cacheable(const struct dso *dso)
{
	return dso->kind == DSO_FILE || dso->kind == DSO_VDSO ||
	       dso->kind == DSO_KERNEL;
}

static void resolved_add(struct symbolizer *s, u64 k0, u64 addr,
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

int symbolizer__lookup(struct symbolizer *s, const struct dso *dso, u64 addr,
		       struct sym_info *info)
{
	struct symtab_hit hit;
	struct dso_state *ds;
	struct pm_entry *pe;
	struct lru_node *n;
	u64 vaddr, k0 = 0;
	int err;

	if (s && dso && info && defer_load(s, dso)) {
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
		k0 = resolved_key(s, ds, dso, RES_SYM);
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
		if (err)
			break;
		fill_hit(info, &hit);
		info->dso_name = kallsyms__dso_name(s->kernel, hit.group);
		break;
	case DSO_ANON:
		if (dso->pid <= 0)
			break;
		pe = perfmap_of(s, dso->pid);
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
	/* a name that could not be made (ENOMEM) is not remembered */
	if (cacheable(dso) && err != -ENOMEM && !awaiting(ds))
		resolved_add(s, k0, addr, info, 0, NULL);
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
	    awaiting(ds))
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
	if (symtab__lookup(img->st, vaddr, &hit)) {
		/* the vdso's data is the kernel's, outside its image */
		if (dso->kind != DSO_FILE)
			return 0;
		if (!img->data_tried)
			load_data(s, dso, img);
		if (!img->data_st || symtab__lookup(img->data_st, vaddr, &hit))
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
	ds = prepare(s, dso);
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
	ds = prepare(s, dso);
	if (!ds)
		return -ENOMEM;
	if ((dso->kind == DSO_FILE || dso->kind == DSO_VDSO) && ds->img &&
	    ds->status != DSO_ST_MISMATCH)
		st = ds->img->st;
	else if (dso->kind == DSO_KERNEL && s->kernel)
		ks = s->kernel;
	nr = ks ? kallsyms__count(ks) : symtab__count(st);
	for (size_t i = 0; !rc && i < nr; i++) {
		u64 key;

		/* a table's raw names are looked at before naming; the
		 * kernel's names need none */
		if (part && st) {
			const char *raw = symtab__raw_at(st, i);

			if (!raw || !strstr(raw, part))
				continue;
		}
		if ((ks ? kallsyms__at(ks, i, &hit) :
			  symtab__at(st, i, &hit)) || !hit.name ||
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

/*
 * What a DWARF handle is estimated to hold: compressed .debug sections
 * are inflated into the heap whole; the others are mapped (ELF_C_READ_MMAP)
 * and count for half, for the pages libdw touches and the CU, abbreviation
 * and line tables it builds from them.
 */
static size_t dwarf_cost(Elf *elf)
{
	size_t nr, shstrndx;
	u64 cost = 64 << 10;

	if (elf_getshdrnum(elf, &nr) || elf_getshdrstrndx(elf, &shstrndx))
		return (size_t)cost;
	for (size_t i = 1; i < nr; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		const char *name;
		GElf_Shdr sh;
		GElf_Chdr ch;

		if (!scn || !gelf_getshdr(scn, &sh) ||
		    sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || (strncmp(name, ".debug_", 7) &&
			      strncmp(name, ".zdebug_", 8)))
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) && gelf_getchdr(scn, &ch))
			cost += ch.ch_size;
		else if (!strncmp(name, ".zdebug_", 8))
			cost += sh.sh_size * 4;	/* size in its header */
		else
			cost += sh.sh_size / 2;
	}
	return (size_t)MIN(cost, (u64)SIZE_MAX / 2);
}

/*
 * The DWARF file is mapped (ELF_C_READ_MMAP) for as long as its handle
 * lives: one truncated or rewritten in place (cp over it) would fault
 * where libdw touches it.  Files are replaced by a rename (dpkg, linkers)
 * and the old inode stays whole; for the others each tick checks size and
 * time and closes a handle whose file changed, which leaves the time
 * between two ticks.  Returns true when it changed since the last call.
 */
static bool dwarf_file_changed(struct image *img)
{
	struct stat st;
	bool changed;

	if (img->dw_fd < 0 || fstat(img->dw_fd, &st))
		return true;
	changed = st.st_size != img->dw_size ||
		  st.st_mtim.tv_sec != img->dw_mtime.tv_sec ||
		  st.st_mtim.tv_nsec != img->dw_mtime.tv_nsec;
	img->dw_size = st.st_size;
	img->dw_mtime = st.st_mtim;
	return changed;
}

/* Finds and opens img's DWARF file (here) for dwarf_run (the worker). */
static void load_dwarf(struct symbolizer *s, const struct dso *dso,
		       struct image *img)
{
	struct debuginfo_opts o = debuginfo_opts(s);
	char path[PATH_BUF];
	struct load_job *j;
	Elf *elf;
	int fd;

	img->dwarf_tried = true;
	if (img->info.has_debug_info)
		fd = debuginfo__open_binary(&o, dso, path, sizeof(path));
	else
		fd = debuginfo__open_debug(&o, dso, &img->info, path,
					   sizeof(path));
	if (fd == -EINPROGRESS && img->info.has_debug_info)
		await_set(&img->dw_await, DBGFETCH_EXECUTABLE, dso->build_id,
			  dso->build_id_size);
	else if (fd == -EINPROGRESS)
		await_set(&img->dw_await, DBGFETCH_DEBUGINFO,
			  img->info.build_id_size ? img->info.build_id :
						    dso->build_id,
			  img->info.build_id_size ? img->info.build_id_size :
						    dso->build_id_size);
	if (fd < 0)
		return;
	elf = elfsym__map_fd(fd);
	if (!elf) {
		pr_debug("%s: no usable DWARF", path);
		close(fd);
		return;
	}
	j = job_new(JOB_DWARF, fd, elf, path);
	if (!j)
		return;
	j->cache_dir = s->dwarf_cache;
	img->dw_job = j;
	job_submit(s, j);
}

/* libdw's handle: sections checked, compressed ones inflated. */
static void dwarf_run(struct loader_job *lj)
{
	struct load_job *j = job_of(lj);
	double t0 = job_begin(j);

	if (j->cache_dir) {
		struct dwcache_result r;
		Elf *celf;
		int cfd;

		j->cache_err = dwcache__open(j->cache_dir, j->fd, j->elf, &cfd,
					     &celf, &r);
		if (!j->cache_err) {
			/* the copy stands for the file from now on */
			elf_close(&j->elf, &j->fd);
			j->fd = cfd;
			j->elf = celf;
			j->cache_made = r.made;
		}
	}
	j->dw = srcline__new(j->elf);
	if (j->dw)
		j->cost = dwarf_cost(j->elf);
	else
		job_close(j);
	job_end(j, t0);
}

static void dwarf_take(struct symbolizer *s, struct image *img,
		       struct load_job *j)
{
	if (j->cache_dir && !j->cache_err) {
		pr_debug("%s: DWARF %s %s/dwarf", j->path,
			 j->cache_made ? "inflated into" : "read from",
			 j->cache_dir);
		s->dwarf_cache_made += j->cache_made;
		s->dwarf_cache_used++;
	} else if (j->cache_dir && j->cache_err != -ENOENT) {
		pr_debug("%s: no inflated copy in %s/dwarf: %s", j->path,
			 j->cache_dir, strerror(-j->cache_err));
	}
	if (!j->dw) {
		pr_debug("%s: no usable DWARF", j->path);
		job_free(&j->lj);
		return;
	}
	img->dw_fd = j->fd;
	img->dw_elf = j->elf;
	img->dw = j->dw;
	img->dw_node.cost = j->cost;
	j->fd = -1;
	j->elf = NULL;
	j->dw = NULL;
	job_free(&j->lj);
	s->dwarf_loads++;
	dwarf_file_changed(img);	/* notes its size and time */
	img->dw_node.key[0] = (u64)(uintptr_t)img;
	img->dw_node.key[1] = 0;
	/* evicts the least recently used others past the bound */
	if (lru__insert(&s->dwarf, &img->dw_node)) {
		image__drop_dwarf(img);
		img->dwarf_tried = true;
	}
}

/* img's DWARF: its load started (the first time), then taken from the
 * worker when it is done, waiting as the build allows (job_wait).  0, or
 * -EAGAIN while it loads. */
static int dwarf_ready(struct symbolizer *s, const struct dso *dso,
		       struct image *img)
{
	struct load_job *j;

	if (!img->dwarf_tried)
		load_dwarf(s, dso, img);
	j = img->dw_job;
	if (!j)
		return 0;
	if (job_wait(s, j))
		return -EAGAIN;
	img->dw_job = NULL;
	dwarf_take(s, img, j);
	return 0;
}

/* Frames of addr, or -EAGAIN while its DWARF loads. */
static int srcline_uncached(struct symbolizer *s, const struct dso *dso,
			    struct image *img, u64 addr, struct srcline *out,
			    size_t max)
{
	u64 vaddr;

	if (!img || elfsym__to_vaddr(&img->info, addr, &vaddr))
		return 0;
	if ((stopped(s) && !img->dw) || dwarf_ready(s, dso, img)) {
		s->deferred++;
		s->deferred_loading++;
		return -EAGAIN;
	}
	if (!img->dw)
		return 0;
	/* a walk of the DIE tree: past the deadline it waits */
	if (over_deadline(s)) {
		s->deferred++;
		return -EAGAIN;
	}
	img->dw_used = s->gen;
	lru__touch(&s->dwarf, &img->dw_node);
	return srcline__lookup(img->dw, vaddr, out, max, s->pool);
}

int symbolizer__srcline(struct symbolizer *s, const struct dso *dso, u64 addr,
			struct srcline *out, size_t max)
{
	struct srcline frames[RESOLVED_DEPTH];
	struct dso_state *ds;
	struct resolved *r;
	struct lru_node *n;
	u64 k0;
	int nr;

	if (!s || !dso || (!out && max))
		return -EINVAL;
	if (dso->kind != DSO_FILE || !max)
		return 0;
	if (defer_load(s, dso))
		return -EAGAIN;
	ds = prepare(s, dso);
	if (!ds)
		return -ENOMEM;
	if (max > RESOLVED_DEPTH)
		return srcline_uncached(s, dso, ds->img, addr, out, max);
	k0 = resolved_key(s, ds, dso, RES_SRCLINE);
	n = lru__find(&s->resolved, k0, addr);
	if (n) {
		s->hits++;
		r = lru_entry(n, struct resolved, node);
		r->used = s->gen;
		nr = r->nr;
	} else {
		nr = srcline_uncached(s, dso, ds->img, addr, frames,
				      RESOLVED_DEPTH);
		/* "not yet" is not an answer to keep */
		if (nr == -EAGAIN)
			return nr;
		s->misses++;
		if (nr != -ENOMEM && !awaiting(ds))
			resolved_add(s, k0, addr, NULL, nr, frames);
		r = NULL;
	}
	if (nr <= 0)
		return nr;
	nr = (int)MIN((size_t)nr, max);
	memcpy(out, r ? r->frames : frames, (size_t)nr * sizeof(*out));
	return nr;
}

/* ---- code bytes ---- */

static long pread_once(int fd, void *buf, size_t len, u64 off)
{
	ssize_t n;

	if (off > (u64)INT64_MAX)
		return 0;
	len = MIN(len, (size_t)LONG_MAX);
	do
		n = pread(fd, buf, len, (off_t)off);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : (long)n;
}

/* A live process's memory: what a deleted file or a JIT left there. */
static long read_mem(struct symbolizer *s, s32 pid, u64 ip, void *buf,
		     size_t len)
{
	char path[PATH_BUF];
	long n;
	int fd;

	if (pid <= 0)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%d/mem", s->proc, (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	n = pread_once(fd, buf, len, ip);
	close(fd);
	/* an unmapped range reads as EIO: the mapping went away */
	return n == -EIO ? -ESRCH : n;
}

/* The file offset dso's mapping starts at, from /proc/PID/maps. */
static int map_pgoff(struct symbolizer *s, const struct dso *dso, u64 *pgoff)
{
	char path[PATH_BUF], line[PATH_BUF + 128];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/maps", s->proc, (int)dso->pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char perms[8];

		if (sscanf(line, "%llx-%llx %7s %llx", &start, &end, perms,
			   &off) == 4 &&
		    start == dso->map_start && end == dso->map_end) {
			*pgoff = off;
			found = true;
		}
	}
	fclose(f);
	return found ? 0 : -ESRCH;
}

static long read_file_mem(struct symbolizer *s, const struct dso *dso,
			  u64 addr, void *buf, size_t len)
{
	u64 pgoff, ip;
	int err;

	if (dso->pid <= 0 || dso->map_end <= dso->map_start)
		return -ENOENT;
	err = map_pgoff(s, dso, &pgoff);
	if (err)
		return err;
	if (addr < pgoff || addr - pgoff >= dso->map_end - dso->map_start)
		return -ENOENT;
	ip = dso->map_start + (addr - pgoff);
	len = (size_t)MIN((u64)len, dso->map_end - ip);
	return read_mem(s, dso->pid, ip, buf, len);
}

static long read_kernel(struct symbolizer *s, u64 addr, void *buf,
			size_t len)
{
	if (!s->kcore && !s->kcore_err) {
		s->kcore = kcore__open(s->kcore_path);
		if (!s->kcore)
			s->kcore_err = errno ? -errno : -ENOENT;
	}
	if (!s->kcore)
		return s->kcore_err;
	return kcore__read(s->kcore, addr, buf, len);
}

long symbolizer__read_code(struct symbolizer *s, const struct dso *dso,
			   u64 addr, void *buf, size_t len)
{
	struct debuginfo_opts o = debuginfo_opts(s);
	char path[PATH_BUF];
	struct dso_state *ds;
	long n;

	if (!s || !dso || (!buf && len))
		return -EINVAL;
	if (dso->kind == DSO_KERNEL)
		return read_kernel(s, addr, buf, len);
	if (dso->kind == DSO_ANON)
		return read_mem(s, dso->pid, addr, buf, len);
	if (dso->kind != DSO_FILE && dso->kind != DSO_VDSO)
		return -ENOENT;
	ds = prepare(s, dso);
	if (!ds)
		return -ENOMEM;
	if (ds->status == DSO_ST_MISMATCH)
		return -ESTALE;
	if (dso->kind == DSO_VDSO) {
		if (!ds->img || !ds->img->mem || addr >= ds->img->mem_size)
			return ds->img ? 0 : -ENOENT;
		len = MIN(len, ds->img->mem_size - (size_t)addr);
		memcpy(buf, (const u8 *)ds->img->mem + addr, len);
		return (long)len;
	}
	if (!ds->img) {
		n = read_file_mem(s, dso, addr, buf, len);
		return n == -ENOENT ? -ENOENT : n;
	}
	if (s->code_fd < 0 || s->code_dso != dso->id) {
		int fd = debuginfo__open_binary(&o, dso, path, sizeof(path));

		if (fd == -ESTALE)
			return -ESTALE;
		if (fd < 0)
			return read_file_mem(s, dso, addr, buf, len);
		if (s->code_fd >= 0)
			close(s->code_fd);
		s->code_fd = fd;
		s->code_dso = dso->id;
	}
	return pread_once(s->code_fd, buf, len, addr);
}

const char *symbolizer__dso_file(struct symbolizer *s, const struct dso *dso)
{
	struct dso_state *ds;

	if (!s || !dso)
		return NULL;
	ds = prepare(s, dso);
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

		if (img->dw && dwarf_file_changed(img)) {
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
