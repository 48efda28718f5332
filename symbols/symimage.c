/* symimage: the symbolizer's files: an image per binary or debug file
 * (its symbols, its DWARF), found, opened and checked on the caller's
 * thread, read by the loader's worker (its jobs), taken back when done. */
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
#include "src/sys/mapguard.h"
#include "symbols/cachedir.h"
#include "symbols/dbgfetch.h"
#include "symbols/debuginfo.h"
#include "symbols/dwcache.h"
#include "src/core/elfnote.h"
#include "symbols/elfsym.h"
#include "symbols/loader.h"
#include "src/core/log.h"
#include "src/core/lru.h"
#include "symbols/srcline.h"
#include "symbols/symbolizer.h"
#include "symbols/symbolizer_internal.h"
#include "symbols/symcache.h"
#include "symbols/symtab.h"

static void elf_close(Elf **elf, int *fd)
{
	if (*elf)
		elf_end(*elf);
	*elf = NULL;
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void image__drop_dwarf(struct image *img)
{
	srcline__free(img->dw);
	img->dw = NULL;
	elf_close(&img->dw_elf, &img->dw_fd);
	img->dwarf_tried = false;
}

void image__free(struct image *img)
{
	if (!img)
		return;
	image__drop_dwarf(img);
	symtab__free(img->st);
	symtab__free(img->data_st);
	free(img->mem);
	free(img);
}

struct image *image__new(void)
{
	struct image *img = calloc(1, sizeof(*img));

	if (img) {
		img->refs = 1;
		img->dw_fd = -1;
	}
	return img;
}

/* Closes img's DWARF, taking it out of the cache first (or gives up its
 * load). */
void symbolizer__drop_dwarf(struct symbolizer *s, struct image *img)
{
	if (img->dw)
		lru__remove(&s->dwarf, &img->dw_node);
	symbolizer__job_cancel(s, &img->dw_job);
	image__drop_dwarf(img);
}

void symbolizer__put_image(struct symbolizer *s, struct image *img)
{
	if (!img || --img->refs)
		return;
	symbolizer__drop_dwarf(s, img);
	symbolizer__job_cancel(s, &img->job);
	for (size_t i = 0; i < s->nr_images; i++) {
		if (s->images[i] == img) {
			s->images[i] = s->images[--s->nr_images];
			break;
		}
	}
	image__free(img);
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
	/* the files as they were opened, and the build-ids they were found
	 * by: one rewritten in place meanwhile gives no names */
	struct mapguard files;
	u8 bid[BUILD_ID_MAX], dbg_bid[BUILD_ID_MAX];
	size_t bid_size, dbg_bid_size;
	bool stale;		/* JOB_DWARF: another file by now */
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

/* On whichever thread ends the job: touches nothing but the job.  A job
 * a fault cut short (a file truncated under it) leaves what it made as
 * it is: libelf's and libdw's state, even the table, may be half done. */
static void job_free(struct loader_job *lj)
{
	struct load_job *j = job_of(lj);

	if (lj->faulted) {
		if (j->fd >= 0)
			close(j->fd);
		if (j->dfd >= 0)
			close(j->dfd);
		j->fd = j->dfd = -1;
		if (mapguard__keep(j))
			free(j);	/* its Elf and table lost, not freed */
		return;
	}
	srcline__free(j->dw);	/* before the Elf it reads */
	symtab__free(j->st);
	job_close(j);
	free(j);
}

/* elf (mapped) has the build-id want it was found by, or there is none
 * to compare: debuginfo.c checked the file, which may have been
 * rewritten in place between that check and the job's first read. */
static bool job_same_build(Elf *elf, const u8 *want, size_t n)
{
	u8 bid[BUILD_ID_MAX];
	int got;

	if (!elf || !n)
		return true;
	got = elfsym__build_id(elf, bid, sizeof(bid));
	return got > 0 && dso__build_id_eq(bid, (size_t)got, want, n);
}

/* The build-id a job's file must have (n 0: none known). */
static void job_want(u8 *out, size_t *out_n, const u8 *bid, size_t n)
{
	*out_n = n <= BUILD_ID_MAX ? n : 0;
	memcpy(out, bid, *out_n);
}

static void symbols_run(struct loader_job *lj);
static void dwarf_run(struct loader_job *lj);

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
		return clock__now();
	/* the thread's name says it to the tests (/proc/PID/task/N/comm) */
	pthread_setname_np(pthread_self(), SLOW_LOAD_THREAD);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	pthread_setname_np(pthread_self(), LOADER_THREAD);
	return clock__now();
}

static void job_end(const struct load_job *j, double t0)
{
	pr_debug("%s: read in %.0f ms (worker%s)", j->name,
		 (clock__now() - t0) * 1000,
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
	mapguard__init(&j->files);
	if (fd >= 0)
		mapguard__watch(&j->files, fd);
	snprintf(j->path, sizeof(j->path), "%s", path);
	return j;
}

/* Gives up *job (freed now, or by the worker once its run ends). */
void symbolizer__job_cancel(struct symbolizer *s, struct load_job **job)
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
	struct debuginfo_opts o = symbolizer__debuginfo_opts(s);
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
	job_want(j->bid, &j->bid_size, dso->build_id, dso->build_id_size);
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
		awaited__set(&img->await, DBGFETCH_DEBUGINFO,
			  img->info.build_id_size ? img->info.build_id :
						    dso->build_id,
			  img->info.build_id_size ? img->info.build_id_size :
						    dso->build_id_size);
	if (j->dfd >= 0) {
		j->dbg = elfsym__map_fd(j->dfd);
		mapguard__watch(&j->files, j->dfd);
		if (img->info.build_id_size)
			job_want(j->dbg_bid, &j->dbg_bid_size,
				 img->info.build_id, img->info.build_id_size);
		else
			job_want(j->dbg_bid, &j->dbg_bid_size, dso->build_id,
				 dso->build_id_size);
	}
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

	/* demangled or not, a table of its own (the aliases it keeps) */
	return symcache__key(k, j->fd, j->dfd, what,
			     j->st_flags & SYMTAB_IMAGE_FLAGS);
}

/* j's table from the cache of tables: true when it was there. */
static bool symbols_cached(struct load_job *j, const struct symcache_key *k)
{
	struct symtab *st;
	u32 extra;
	int err = symcache__load(j->symcache_dir, j->path, k, j->pool,
				 j->st_flags, &st, &extra);

	if (err == -EBADMSG)
		pr_warn("%s: its symbol table in %s/symbols was damaged: "
			"made again", j->path, j->symcache_dir);
	if (err)
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
	if (!job_same_build(j->elf, j->bid, j->bid_size) ||
	    !job_same_build(j->dbg, j->dbg_bid, j->dbg_bid_size))
		n = -ESTALE;
	if (n >= 0 && j->dbg) {
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
	/* rewritten in place while read: two builds' names, maybe */
	if (n >= 0 && mapguard__changed(&j->files))
		n = -ESTALE;
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
	img->file = symbolizer__pool_dup(s, j->from_dbg ? j->dbg_path :
							  j->path);
	s->symbol_cache_used += j->symcache_used;
	s->symbol_cache_made += j->symcache_made;
	if (j->lj.faulted || j->n == -ESTALE) {
		img->status = DSO_ST_UNREADABLE;
		pr_warn("%s: %s while its symbols were read: not used",
			j->name, j->lj.faulted ? "cut short (truncated?)" :
						 "changed");
	} else if (j->n < 0) {
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
bool symbolizer__image_ready(struct symbolizer *s, struct image *img)
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
void symbolizer__load_file(struct symbolizer *s, const struct dso *dso,
	       struct dso_state *ds)
{
	struct debuginfo_opts o = symbolizer__debuginfo_opts(s);
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
		awaited__set(&ds->await, DBGFETCH_EXECUTABLE, dso->build_id,
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
void symbolizer__load_data(struct symbolizer *s, const struct dso *dso,
	       struct image *img)
{
	struct debuginfo_opts o = symbolizer__debuginfo_opts(s);
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
	loader__run_here(&j->lj);
	if (!j->lj.faulted && j->n >= 0) {
		img->data_st = j->st;
		j->st = NULL;
	}
	job_free(&j->lj);
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
bool image__dwarf_changed(struct image *img)
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
	struct debuginfo_opts o = symbolizer__debuginfo_opts(s);
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
		awaited__set(&img->dw_await, DBGFETCH_EXECUTABLE, dso->build_id,
			  dso->build_id_size);
	else if (fd == -EINPROGRESS)
		awaited__set(&img->dw_await, DBGFETCH_DEBUGINFO,
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
	if (img->info.has_debug_info || !img->info.build_id_size)
		job_want(j->bid, &j->bid_size, dso->build_id,
			 dso->build_id_size);
	else
		job_want(j->bid, &j->bid_size, img->info.build_id,
			 img->info.build_id_size);
	j->cache_dir = s->dwarf_cache;
	img->dw_job = j;
	job_submit(s, j);
}

/* libdw's handle: sections checked, compressed ones inflated. */
static void dwarf_run(struct loader_job *lj)
{
	struct load_job *j = job_of(lj);
	double t0 = job_begin(j);

	if (!job_same_build(j->elf, j->bid, j->bid_size)) {
		j->stale = true;
		job_close(j);
		job_end(j, t0);
		return;
	}
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
	j->dw = srcline__new(j->elf, j->fd);
	if (j->dw)
		j->cost = dwarf_cost(j->elf);
	else
		j->stale = errno == ESTALE;
	if (!j->dw)
		job_close(j);
	job_end(j, t0);
}

static void dwarf_take(struct symbolizer *s, struct image *img,
		       struct load_job *j)
{
	if (j->lj.faulted || j->stale) {
		pr_warn("%s: %s while its DWARF was read: not used", j->path,
			j->lj.faulted ? "cut short (truncated?)" : "changed");
		job_free(&j->lj);
		return;
	}
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
	image__dwarf_changed(img);	/* notes its size and time */
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
			    size_t max, unsigned int flags)
{
	u64 vaddr;
	int n;

	if (!img || elfsym__to_vaddr(&img->info, addr, &vaddr))
		return 0;
	if ((symbolizer__stopped(s) && !img->dw) || dwarf_ready(s, dso, img)) {
		s->deferred++;
		s->deferred_loading++;
		return -EAGAIN;
	}
	if (!img->dw)
		return 0;
	/* a walk of the DIE tree: past the deadline it waits */
	if (symbolizer__over_deadline(s)) {
		s->deferred++;
		return -EAGAIN;
	}
	img->dw_used = s->gen;
	lru__touch(&s->dwarf, &img->dw_node);
	n = srcline__lookup(img->dw, vaddr, out, max, s->pool,
			    s->demangle | flags);
	if (n != -ESTALE)
		return n;
	/* changed (or cut) under the mapping: no answer from it; a file
	 * of the same build-id is read again */
	if (!img->dw_changed)
		pr_warn("%s: changed while in use: its DWARF is dropped",
			img->file ? img->file : "?");
	img->dw_changed = true;
	symbolizer__drop_dwarf(s, img);
	return 0;
}

/* symbolizer__srcline and symbolizer__inlines: flags 0 or SRCLINE_NAMES
 * (kept apart, what the answers of each) */
static int srcline_of(struct symbolizer *s, const struct dso *dso, u64 addr,
		      struct srcline *out, size_t max, unsigned int flags)
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
	if (symbolizer__defer_load(s, dso))
		return -EAGAIN;
	ds = symbolizer__prepare(s, dso);
	if (!ds)
		return -ENOMEM;
	if (max > RESOLVED_DEPTH)
		return srcline_uncached(s, dso, ds->img, addr, out, max,
					flags);
	k0 = symbolizer__resolved_key(s, ds, dso,
				      flags ? RES_INLINES : RES_SRCLINE);
	n = lru__find(&s->resolved, k0, addr);
	if (n) {
		s->hits++;
		r = lru_entry(n, struct resolved, node);
		r->used = s->gen;
		nr = r->nr;
	} else {
		nr = srcline_uncached(s, dso, ds->img, addr, frames,
				      RESOLVED_DEPTH, flags);
		/* "not yet" is not an answer to keep */
		if (nr == -EAGAIN)
			return nr;
		s->misses++;
		if (nr != -ENOMEM && !dso_state__awaiting(ds))
			symbolizer__resolved_add(s, k0, addr, NULL, nr, frames);
		r = NULL;
	}
	if (nr <= 0)
		return nr;
	nr = (int)MIN((size_t)nr, max);
	memcpy(out, r ? r->frames : frames, (size_t)nr * sizeof(*out));
	return nr;
}

int symbolizer__srcline(struct symbolizer *s, const struct dso *dso, u64 addr,
			struct srcline *out, size_t max)
{
	return srcline_of(s, dso, addr, out, max, 0);
}

int symbolizer__inlines(struct symbolizer *s, const struct dso *dso, u64 addr,
			struct srcline *out, size_t max)
{
	return srcline_of(s, dso, addr, out, max, SRCLINE_NAMES);
}
