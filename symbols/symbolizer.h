/* symbolizer: (dso, address) -> symbol, source line, code bytes; cached. */
#ifndef PTOP_SYMBOLIZER_H
#define PTOP_SYMBOLIZER_H

#include <signal.h>

#include "src/core/dso.h"
#include "src/core/util.h"
#include "symbols/symtypes.h"

/*
 * Address spaces.  Every address given to the symbolizer is in the dso's
 * "key space", the one the aggregation hash uses:
 *   DSO_FILE, DSO_VDSO  file offset (ip - map.start + map.pgoff)
 *   DSO_KERNEL          kernel ip (modules included)
 *   DSO_ANON            process ip (perf-PID.map JIT symbols)
 * The symbolizer converts file offsets to ELF virtual addresses through the
 * PT_LOAD program headers, so PIE and shared libraries need no load bias.
 *
 * Threading: one symbolizer is used by one thread at a time (the front
 * end's); sampling runs elsewhere.  The symbolizer's own worker thread
 * (symbols/loader.h) reads the files that take long (a binary's or debug
 * file's symbol tables, a DWARF file's handle: libc's compressed debug
 * file inflates for up to a second) into objects it alone holds until
 * the front end's thread takes them, at a later lookup: caches, images
 * and the string pool are only ever touched by the front end's thread.
 * A lookup waits for the worker as symbolizer__set_deadline allows;
 * symbolizer__free never waits for a load under way.  Everything
 * returned stays valid until symbolizer__free.  Nothing here prints;
 * problems go to the log (once per dso).
 */

struct dbgfetch;

struct symbolizer_opts {
	const char *const *debug_dirs;	/* --debug-dir roots, tried first */
	size_t nr_debug_dirs;
	const char *symfs;	/* --symfs: files looked up there first */
	/* debuginfod (owned by the caller, outlives the symbolizer): files
	 * missing on disk by build-id.  Without fetch_wait a dso whose file
	 * is on its way shows without it, and is loaded again, after the
	 * symbolizer__tick that follows its arrival; with it (batch),
	 * loading waits for the fetch, until the time symbolizer__fetch_wait
	 * set (a table's), else DBGFETCH_WAIT_MAX after the symbolizer was
	 * made, in all: then as without it. */
	struct dbgfetch *fetch;
	bool fetch_wait;
	const char *kallsyms;	/* default "/proc/kallsyms" */
	/* Where the parsed /proc/kallsyms of this boot is cached (see
	 * kallsyms__load_cached): NULL, $XDG_CACHE_HOME/ptop (else
	 * ~/.cache/ptop) when kallsyms is unset; "": no cache. */
	const char *kallsyms_cache;
	/* Where debug files with compressed DWARF are kept inflated
	 * (symbols/dwcache.h): NULL, the same folder as kallsyms_cache's
	 * default; "": none. */
	const char *dwarf_cache;
	/* Where binaries' symbol tables are kept for later runs
	 * (symbols/symcache.h): NULL, the same default folder; "": none. */
	const char *symbol_cache;
	const char *proc;	/* default "/proc" */
	const char *tmp;	/* default "/tmp", for perf-PID.map */
	const char *vdso_image;	/* a file holding the vdso; default: this
				 * process's own vdso (same kernel) */
	const char *kcore;	/* kernel code for annotate; default
				 * "/proc/kcore" */
	bool no_demangle;
	bool demangle_params;	/* C++ names with their parameters, not
				 * perf's short form (symtab.h) */
	/*
	 * A recording (perf.data) made on another kernel, or before a reboot,
	 * must not be named from this machine's /proc/kallsyms.  When these
	 * are set and the running kernel's build-id (/sys/kernel/notes)
	 * differs from kernel_build_id, or, without one, its release (uname
	 * -r) differs from kernel_release, or no kallsyms symbol starts at the
	 * recording's _text address kernel_text (KASLR moved the kernel),
	 * kernel samples keep their addresses and the kernel's status is
	 * DSO_ST_MISMATCH.  All unset (live profiling): no check.
	 */
	const u8 *kernel_build_id;
	size_t kernel_build_id_size;
	const char *kernel_release;
	u64 kernel_text;
	const char *kernel_notes;	/* default KERNEL_NOTES (src/sys/kernel.h) */
	/* Bounds of the caches (0: the defaults, SYMBOLIZER_DWARF_BYTES and
	 * SYMBOLIZER_RESOLVED_BYTES): the memory the open DWARF handles are
	 * estimated to hold, and the resolved (dso, address) entries. */
	size_t dwarf_bytes;
	size_t resolved_bytes;
	/* set by a signal handler: a lookup stops waiting for the worker
	 * (within 10 ms) and answers DSO_ST_DEFERRED or -EAGAIN.  NULL:
	 * waits end with their load, or the deadline. */
	const volatile sig_atomic_t *stop;
	/* tests (PTOP_TEST_SLOW_LOAD): the worker's loads of files whose
	 * path holds this take 2 s longer, a wait no signal cuts (as libdw
	 * inflating a big debug file), so that a test can quit during one.
	 * NULL: none. */
	const char *slow_load;
};

#define SYMBOLIZER_DWARF_BYTES (384ul << 20)
#define SYMBOLIZER_RESOLVED_BYTES (64ul << 20)

enum dso_status {
	DSO_ST_OK,		/* symbols loaded */
	DSO_ST_NO_SYMBOLS,	/* readable ELF without symbols or eh_frame */
	DSO_ST_UNREADABLE,	/* could not open or not ELF */
	DSO_ST_MISMATCH,	/* file's build-id differs from the mapping's */
	DSO_ST_RESTRICTED,	/* kernel: kptr_restrict hides addresses */
	DSO_ST_DEFERRED,	/* not loaded yet: past a build's deadline,
				 * or a stop request */
};

struct sym_info {
	const char *name;	/* demangled; NULL: no symbol covers addr */
	const char *raw_name;	/* as in the symbol table */
	u64 start, size;	/* in key space */
	u64 vaddr;		/* start as an ELF virtual address (annotate) */
	u32 flags;		/* enum sym_flags */
	const char *dso_name;	/* display name: basename, [kernel.kallsyms],
				 * [module], [vdso], [JIT] tid N, ... */
	enum dso_status status;
};

struct symbolizer;

struct symbolizer *symbolizer__new(const struct symbolizer_opts *opts);
void symbolizer__free(struct symbolizer *s);

/*
 * Looks addr up in dso, loading its symbols on first use.  Returns 0 with
 * info filled (info->name NULL when no symbol covers addr), or -errno for
 * bad arguments.  Never fails because a file is missing: that is a status.
 */
int symbolizer__lookup(struct symbolizer *s, const struct dso *dso, u64 addr,
		       struct sym_info *info);
/* Starts reading the symbols of dso (a binary) on a worker, without
 * waiting, so that the binaries of a profile are read side by side
 * before the lookups ask for them one at a time; a later lookup waits
 * for that read.  Only outside a live build (no symbolizer__set_deadline
 * deadline): a live build reads what it reaches in its budget. */
void symbolizer__prefetch(struct symbolizer *s, const struct dso *dso);
/* The same for the kernel: on a first run of this boot (no kallsyms
 * cache yet), /proc/kallsyms read and its cache written on a worker,
 * which the first kernel lookup then maps.  Nothing without a kallsyms
 * cache (symbolizer_opts.kallsyms_cache) or in a live build. */
void symbolizer__prefetch_kernel(struct symbolizer *s);
/* Would symbolizer__prefetch start anything now?  (Not in a live build:
 * its callers skip their walk over the snapshot.) */
bool symbolizer__prefetches(const struct symbolizer *s);
/* symbolizer__lookup answered from what is loaded, never starting or
 * waiting for a load: -EAGAIN when the symbols of dso (a binary, the
 * vdso or the kernel; -EAGAIN for the others) are not in yet. */
int symbolizer__lookup_loaded(struct symbolizer *s, const struct dso *dso,
			      u64 addr, struct sym_info *info);

/*
 * What an address that code refers to names (annotate's %rip-relative
 * operands): the function holding ELF virtual address vaddr of dso, else
 * the data object (STT_OBJECT of .symtab, a debug file's .symtab or
 * .dynsym) or GOT slot ("name@got") holding it.  Data symbols are read
 * on the first call that needs them for a binary, into a table of their
 * own: lookups of samples never see them.  0 with info filled (name NULL:
 * nothing there; start and vaddr are the symbol's virtual address, since
 * .bss has no file offset), or -errno for bad arguments.  Kernel and JIT
 * dsos: their functions only.
 */
int symbolizer__lookup_data(struct symbolizer *s, const struct dso *dso,
			    u64 vaddr, struct sym_info *info);

/* Key space <-> ELF vaddr for file dsos (identity for the others). */
int symbolizer__to_vaddr(struct symbolizer *s, const struct dso *dso,
			 u64 addr, u64 *vaddr);
int symbolizer__from_vaddr(struct symbolizer *s, const struct dso *dso,
			   u64 vaddr, u64 *addr);

/* Fills up to max frames; returns how many (0: no line information) or
 * -errno.  Loads DWARF (from the file or its separate debug file) lazily. */
int symbolizer__srcline(struct symbolizer *s, const struct dso *dso, u64 addr,
			struct srcline *out, size_t max);
/* The same with the functions' names only (file and line unknown, and
 * 0 when no function was inlined at addr): inlined frames' lookups,
 * which need not read a CU's line table. */
int symbolizer__inlines(struct symbolizer *s, const struct dso *dso, u64 addr,
			struct srcline *out, size_t max);

/*
 * Calls fn for each symbol of dso (loading them first) in address order
 * until fn returns non-zero, and returns that value (0 when it never
 * did, -errno on bad arguments).  Kernel: every kallsyms symbol.  Names
 * are demangled as they are visited, which is slow on big C++ libraries:
 * this is for finding a name once (annotate SYMBOL), not per refresh.
 */
int symbolizer__foreach_symbol(struct symbolizer *s, const struct dso *dso,
			       int (*fn)(void *ctx, const struct sym_info *si),
			       void *ctx);
/* The same for the symbols whose raw (mangled) name holds part, found
 * without naming the others in a binary's table (fast enough on
 * libLLVM's 35K symbols to run for each sampled binary: annotate's
 * search); the kernel's are all named, then compared.  part NULL:
 * all. */
int symbolizer__foreach_named(struct symbolizer *s, const struct dso *dso,
			      const char *part,
			      int (*fn)(void *ctx, const struct sym_info *si),
			      void *ctx);

/*
 * Reads code bytes at key addresses [addr, addr + len); returns bytes read
 * or -errno.  Files are read from disk; when the file cannot be opened any
 * more (deleted, then its process's map_files gone), and for anon/JIT
 * code, from /proc/PID/mem of the process that maps it while it lives;
 * the kernel's from /proc/kcore.  Errors: -ENOENT (nothing to read: an
 * unreadable file and no live process, no kcore), -ESRCH (the process
 * that mapped it is gone), -EACCES/-EPERM (kcore or mem refused),
 * -ESTALE (the file's build-id differs from the mapping's).
 */
long symbolizer__read_code(struct symbolizer *s, const struct dso *dso,
			   u64 addr, void *buf, size_t len);

/* The file the symbols were read from (after build-id/debug lookups), or
 * NULL: for annotate's "source not found" notes and the header. */
const char *symbolizer__dso_file(struct symbolizer *s, const struct dso *dso);

/* _text of the recording's kernel (symbolizer_opts.kernel_text), known
 * once its kernel MMAP record is read: before the kernel's symbols are
 * first looked up, else it is not checked. */
void symbolizer__set_kernel_text(struct symbolizer *s, u64 text);

/* C++ names from now on with parameters (true) or by their name alone
 * (false, perf report's form); names returned before stay valid.  No-op
 * with no_demangle. */
void symbolizer__set_demangle_params(struct symbolizer *s, bool params);
bool symbolizer__demangle_params(const struct symbolizer *s);

/* Kernel symbols hidden by kptr_restrict: true once the kernel was tried. */
bool symbolizer__kernel_restricted(struct symbolizer *s);
/* Whether the kernel's symbols have been read (or tried) already. */
bool symbolizer__kernel_read(const struct symbolizer *s);

/* What the caches hold, for tests and the memory figures. */
struct symbolizer_stats {
	size_t dwarf_open;	/* DWARF handles open */
	size_t dwarf_bytes;	/* their estimated cost */
	size_t dwarf_loads;	/* DWARF opened so far (again after an
				 * eviction counts again) */
	size_t symbol_cache_made;	/* tables kept (symcache.h) */
	size_t symbol_cache_used;	/* tables read from the cache */
	size_t dwarf_cache_made;	/* inflated copies made (dwcache.h) */
	size_t dwarf_cache_used;	/* DWARF read from a copy */
	size_t resolved;	/* (dso, address) entries cached */
	size_t resolved_bytes;
	size_t hits, misses;	/* of the resolution cache */
};
void symbolizer__stats(const struct symbolizer *s,
		       struct symbolizer_stats *st);

/* Drops what was loaded for dsos not used for more than max_idle_ticks
 * generations, and the cached answers (symbols, source lines) of
 * addresses no lookup asked for as long (bounded caches over long runs:
 * the addresses of exited processes).  symbolizer__tick advances the
 * generation and drops what waited for a debuginfod file that has
 * arrived since. */
void symbolizer__tick(struct symbolizer *s);

/* With fetch_wait: lookups from now on wait for debuginfod at most
 * seconds from now, in all (batch: a table is not held back past its
 * refresh, and names that come later are in later tables). */
void symbolizer__fetch_wait(struct symbolizer *s, double seconds);
void symbolizer__trim(struct symbolizer *s, unsigned int max_idle_ticks);

/*
 * A build's time budget (the live view's: keys are read between two
 * builds).  A lookup whose file the worker reads (a binary's symbols, a
 * DWARF handle) starts that load and waits for it until the monotonic
 * time deadline (seconds; 0: no deadline, it waits until the load ends)
 * or a stop request (symbolizer_opts.stop); from the deadline on, a
 * lookup that would open a file, read the kernel's table or walk DWARF
 * on this thread waits too, except the first of the build, so that each
 * build makes progress.  Such a lookup answers with status
 * DSO_ST_DEFERRED and no name, or -EAGAIN for a source line; none is
 * cached, all are counted in symbolizer__deferred, so that a later
 * build resolves them; symbolizer__deferred_loading counts those that
 * wait for the worker: a build before symbolizer__loads moved would
 * find them still loading.
 */
void symbolizer__set_deadline(struct symbolizer *s, double deadline);
size_t symbolizer__deferred(const struct symbolizer *s);
size_t symbolizer__deferred_loading(const struct symbolizer *s);
/* Loads the worker finished so far (any thread may ask). */
u64 symbolizer__loads(const struct symbolizer *s);

/* Grows when files loaded earlier were dropped to load better ones (a
 * debug file arrived): caches of what the symbolizer answered (inline
 * chains, annotations) start again when it changed. */
u64 symbolizer__changes(const struct symbolizer *s);
/* Answers given without SYM_F_PROVISIONAL stay the same while this does
 * (it moves with symbolizer__changes, each load of the kernel's table
 * and each change of the names' form); never 0. */
u64 symbolizer__answers_gen(const struct symbolizer *s);

#endif
