/* symbolizer_internal: what the files of the symbolizer share
 * (symbolizer.c, symimage.c, symkernel.c, symjit.c, symcode.c): its
 * state, its files' images, and the functions they call across files. */
#ifndef PTOP_SYMBOLIZER_INTERNAL_H
#define PTOP_SYMBOLIZER_INTERNAL_H

#include <libelf.h>

#include "src/core/lru.h"
#include "symbols/dbgfetch.h"
#include "symbols/debuginfo.h"
#include "symbols/elfsym.h"
#include "symbols/loader.h"
#include "symbols/symbolizer.h"
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
/* symbolizer_opts.slow_load: what a test adds to such a load (long
 * enough that a loaded machine's script, seeing it begin late, still
 * stops ptop inside it: with 2 s, one CI run at load 18 saw the load
 * end before ptop did) */
#define SLOW_LOAD_MS 6000
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
	bool dw_changed;	/* said once: its file changed under it */
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
	bool stale_warned;	/* its cached table changed under it: said */
	struct awaited await;	/* debuginfod is fetching its binary */
	enum dso_status status;
	struct image *img;
	const char *dso_name;	/* pooled */
	u64 used;		/* generation of the last use */
	u32 epoch;		/* loads so far: keys the resolution cache */
};

/*
 * One resolved (dso, address): what symbolizer__lookup or
 * symbolizer__srcline or symbolizer__inlines said, by key {dso id |
 * kind (2 bits) | epoch, address}.  The
 * strings are the symbolizer's pooled ones, valid until it is freed.  An
 * epoch that moved on (the dso loaded again after a trim) leaves the old
 * entries unreachable until the bound pushes them out.
 */
enum { RES_SYM, RES_SRCLINE, RES_INLINES };
struct resolved {
	struct lru_node node;
	u64 used;			/* generation of the last lookup */
	struct sym_info info;		/* RES_SYM */
	int nr;				/* RES_SRCLINE, RES_INLINES: frames,
					 * or -errno */
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
	double fetch_until;	/* fetch_wait's bound (symbolizer__fetch_wait) */
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
	/* kallsyms' cache being made on a worker (kernel_prefetch) */
	struct kernel_job *kernel_job;

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
	bool kernel_stale_warned;	/* the kallsyms cache changed: said */
};


/* symbolizer.c */
void awaited__set(struct awaited *a, enum dbgfetch_kind kind,
	       const u8 *bid, size_t size);
const char *symbolizer__pool_dup(struct symbolizer *s, const char *str);
struct debuginfo_opts symbolizer__debuginfo_opts(const struct symbolizer *s);
struct dso_state *symbolizer__prepare(struct symbolizer *s,
				      const struct dso *dso);
bool symbolizer__over_deadline(struct symbolizer *s);
bool symbolizer__stopped(const struct symbolizer *s);
bool symbolizer__defer_load(struct symbolizer *s, const struct dso *dso);
bool dso_state__awaiting(const struct dso_state *ds);
u64 symbolizer__resolved_key(const struct symbolizer *s,
		 const struct dso_state *ds, const struct dso *dso,
		 unsigned int what);
void symbolizer__resolved_add(struct symbolizer *s, u64 k0, u64 addr,
		  const struct sym_info *info, int nr,
		  const struct srcline *frames);

/* symimage.c */
void image__drop_dwarf(struct image *img);
void image__free(struct image *img);
struct image *image__new(void);
void symbolizer__drop_dwarf(struct symbolizer *s, struct image *img);
void symbolizer__job_cancel(struct symbolizer *s, struct load_job **job);
void symbolizer__put_image(struct symbolizer *s, struct image *img);
bool symbolizer__image_ready(struct symbolizer *s, struct image *img);
void symbolizer__load_file(struct symbolizer *s, const struct dso *dso,
	       struct dso_state *ds);
void symbolizer__load_data(struct symbolizer *s, const struct dso *dso,
	       struct image *img);
bool image__dwarf_changed(struct image *img);

/* symkernel.c */
void symbolizer__load_vdso(struct symbolizer *s);
void symbolizer__load_kernel(struct symbolizer *s);
void symbolizer__kernel_prefetch(struct symbolizer *s);
void symbolizer__kernel_job_cancel(struct symbolizer *s);

/* symjit.c */
struct pm_entry *symbolizer__perfmap_of(struct symbolizer *s, s32 pid);

#endif
