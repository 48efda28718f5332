/* cfitab: binaries' CFI tables and the session's fixer (see cfitab.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "src/sys/clock.h"
#include "src/core/machine.h"
#include "symbols/cfitab.h"
#include "symbols/debuginfo.h"
#include "symbols/elfsym.h"
#include "symbols/fpfix.h"
#include "symbols/loader.h"

#define DEF_MAX_BYTES (256u << 20)
#define ROW_CACHE 4096		/* rows by (binary, offset) */
#define RETRY_S 1.0		/* a binary that could not be opened for
				 * want of fds or memory: tried again */
/* A binary's first lookup waits for its table a little (the reads take
 * a millisecond or less for most), within a budget: the ring reader
 * waits 2 ms at most for one, 20 ms a second in all. */
#define FIRST_WAIT_S 0.002
#define WAIT_RATE 0.02
#define WAIT_MAX_S 0.05
#define PREFETCH_PIDS 4096

enum { CT_NONE, CT_LOADING, CT_READY, CT_FAILED };

/* What a load makes of one binary; the job owns it until it is taken. */
struct cfi_data {
	struct elf_info info;	/* its PT_LOADs: file offsets to vaddrs */
	struct elf_cfi cfi;
	struct ehframe_table eh, dbg;
	bool has_eh, has_dbg;
	size_t bytes;
};

/* A load on the worker: it touches only itself (the dso and the options'
 * strings are copies: the session may be gone when a run ends). */
struct cload {
	struct loader_job lj;
	struct dso dso;
	char *path;
	struct debuginfo_opts dio;
	struct cfi_data d;
	int err;
};

struct ctab {
	u8 state;
	struct cload *job;		/* CT_LOADING */
	double retry_at;		/* CT_NONE after a passing failure */
	struct cfi_data d;		/* CT_READY */
	u64 last_use;
	u32 id;				/* the dso's */
	bool waited;			/* its first wait is over */
};

struct row_slot {
	u64 key;		/* (dso id + 1) << 40 ^ offset; 0: empty */
	u64 off;
	u64 gen;
	struct ehframe_row row;
};

struct cfitab {
	struct session *s;
	struct cfitab_opts o;
	struct debuginfo_opts dio;
	struct loader *loader;	/* live; NULL with sync */
	struct intmap tabs;	/* dso id + 1 -> struct ctab */
	struct row_slot *cache;	/* ROW_CACHE */
	u64 gen;		/* bumped when a table goes: every row
				 * cached before is stale */
	u64 clock;
	size_t bytes;
	struct cfitab_stats st;
	struct intmap pids;	/* processes whose binaries were asked for */
	double budget, budget_at;	/* the ring reader's waits (s) */
	/* the sample being fixed */
	struct machine *m;
	s32 pid;
};

/* ---- loading ---- */

static void cfi_data__fini(struct cfi_data *d)
{
	ehframe__table_fini(&d->eh);
	ehframe__table_fini(&d->dbg);
	elfsym__cfi_free(&d->cfi);
	memset(d, 0, sizeof(*d));
}

/* Reads elf's CFI into d and indexes it: 0, or -errno. */
static int cfi_data__read(struct cfi_data *d, Elf *elf)
{
	struct ehframe_src src;
	int err;

	if (elfsym__info(elf, &d->info))
		return -EINVAL;
	err = elfsym__cfi(elf, &d->cfi);
	if (err)
		return err;
	memset(&src, 0, sizeof(src));
	src.addr_size = d->cfi.addr_size;
	src.swap = d->cfi.swap;
	if (d->cfi.eh) {
		src.data = d->cfi.eh;
		src.size = d->cfi.eh_size;
		src.vaddr = d->cfi.eh_vaddr;
		d->has_eh = !ehframe__table_init_hdr(&d->eh, &src, d->cfi.hdr,
						     d->cfi.hdr_size,
						     d->cfi.hdr_vaddr) &&
			    d->eh.nr;
	}
	if (d->cfi.dbg) {
		src.data = d->cfi.dbg;
		src.size = d->cfi.dbg_size;
		src.vaddr = 0;
		d->has_dbg = !ehframe__table_init(&d->dbg, &src, true) &&
			     d->dbg.nr;
	}
	if (!d->has_eh && !d->has_dbg)
		return -ENOENT;
	d->bytes = d->cfi.eh_size + d->cfi.hdr_size + d->cfi.dbg_size +
		   (d->eh.fdes ? d->eh.nr * sizeof(struct ehframe_fde) : 0) +
		   d->dbg.nr * sizeof(struct ehframe_fde);
	return 0;
}

/* The vdso: our own image (the same kernel's), when its build-id is the
 * dso's. */
static int cload__vdso(struct cload *l)
{
	size_t size = 0;
	void *mem = elfsym__own_vdso(&size);
	Elf *elf = mem ? elfsym__open_mem(mem, size) : NULL;
	u8 bid[BUILD_ID_MAX];
	int n, err = -ENOENT;

	if (elf) {
		n = l->dso.build_id_size ? elfsym__build_id(elf, bid, sizeof(bid)) :
					   0;
		if (n >= 0 && (!l->dso.build_id_size ||
			       dso__build_id_eq(bid, (size_t)n,
						      l->dso.build_id,
						      l->dso.build_id_size)))
			err = cfi_data__read(&l->d, elf);
		elf_end(elf);
	}
	free(mem);
	return err;
}

static void cload__run(struct loader_job *job)
{
	struct cload *l = (struct cload *)job;
	char path[4096];
	Elf *elf;
	int fd;

	if (l->dso.kind == DSO_VDSO) {
		l->err = cload__vdso(l);
		return;
	}
	fd = debuginfo__open_binary(&l->dio, &l->dso, path, sizeof(path));
	if (fd < 0) {
		l->err = fd;
		return;
	}
	/* read, never mapped: a binary rewritten meanwhile gives read
	 * errors, not SIGBUS */
	elf = elfsym__open_fd(fd);
	l->err = elf ? cfi_data__read(&l->d, elf) : -errno;
	if (elf)
		elf_end(elf);
	close(fd);
}

static void cload__free(struct loader_job *job)
{
	struct cload *l = (struct cload *)job;

	cfi_data__fini(&l->d);
	free(l->path);
	free(l);
}

static struct cload *cload__new(struct cfitab *c, const struct dso *dso)
{
	struct cload *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->lj.run = cload__run;
	l->lj.free = cload__free;
	l->dso = *dso;
	l->path = dso->path ? strdup(dso->path) : NULL;
	if (dso->path && !l->path) {
		free(l);
		return NULL;
	}
	l->dso.path = l->path;
	l->dso.name = NULL;
	l->dio = c->dio;
	return l;
}

/* ---- tables ---- */

static void ctab__drop(struct cfitab *c, struct ctab *t)
{
	if (t->state == CT_READY) {
		c->bytes -= t->d.bytes;
		cfi_data__fini(&t->d);
		c->gen++;
		c->st.tables--;
		c->st.bytes = c->bytes;
	}
	t->state = CT_NONE;
}

/* Keeps the tables within max_bytes, the least recently used out first
 * (never keep: the one just read). */
static void cfitab__trim(struct cfitab *c, const struct ctab *keep)
{
	while (c->bytes > c->o.max_bytes) {
		struct ctab *old = NULL;
		size_t i = 0;
		u64 k;
		void *v;

		while (intmap__next(&c->tabs, &i, &k, &v)) {
			struct ctab *t = v;

			if (t != keep && t->state == CT_READY &&
			    (!old || t->last_use < old->last_use))
				old = t;
		}
		if (!old)
			return;
		ctab__drop(c, old);
		c->st.evicted++;
	}
}

/* A finished load into its table. */
static void ctab__take(struct cfitab *c, struct ctab *t, struct cload *l)
{
	c->st.loads++;
	if (!l->err) {
		t->d = l->d;
		memset(&l->d, 0, sizeof(l->d));
		t->state = CT_READY;
		c->bytes += t->d.bytes;
		c->st.tables++;
		c->st.bytes = c->bytes;
		cfitab__trim(c, t);
	} else if (l->err == -EMFILE || l->err == -ENFILE ||
		   l->err == -ENOMEM || l->err == -EINPROGRESS) {
		/* not the file's fault: later */
		t->state = CT_NONE;
		t->retry_at = clock__now() + RETRY_S;
	} else {
		t->state = CT_FAILED;
		c->st.load_failed++;
	}
	cload__free(&l->lj);
}

/* The table of dso, its read started if it is not read; NULL with *err
 * -ENOENT without memory. */
static struct ctab *cfitab__start(struct cfitab *c, const struct dso *dso,
				  int *err)
{
	u64 key = (u64)dso->id + 1;
	struct ctab *t = intmap__get(&c->tabs, key);
	struct cload *l;

	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t || intmap__put(&c->tabs, key, t)) {
			free(t);
			*err = -ENOENT;
			return NULL;
		}
		t->id = dso->id;
	}
	t->last_use = ++c->clock;
	if (t->state == CT_NONE &&
	    (!t->retry_at || clock__now() >= t->retry_at)) {
		l = cload__new(c, dso);
		if (!l)
			return t;
		if (c->o.sync) {
			cload__run(&l->lj);
			ctab__take(c, t, l);
		} else {
			t->job = l;
			t->state = CT_LOADING;
			t->waited = false;
			loader__submit(c->loader, &l->lj);
		}
	}
	return t;
}

/* The table of dso, or NULL with *err: -EAGAIN (being read) or -ENOENT
 * (no CFI). */
static struct ctab *cfitab__table(struct cfitab *c, const struct dso *dso,
				  int *err)
{
	struct ctab *t = cfitab__start(c, dso, err);
	struct cload *l;

	if (!t)
		return NULL;
	if (t->state == CT_LOADING && !t->waited) {
		/* the first lookup waits a little, within the budget */
		double now = clock__now(), wait;

		t->waited = true;
		c->budget = MIN(WAIT_MAX_S,
				c->budget + (now - c->budget_at) * WAIT_RATE);
		c->budget_at = now;
		wait = MIN(FIRST_WAIT_S, c->budget);
		if (wait > 0) {
			double waited;

			loader__wait(c->loader, &t->job->lj, now + wait, NULL);
			waited = clock__now() - now;
			c->budget -= waited;
			c->st.wait_ns += (u64)(waited * 1e9);
		}
	}
	if (t->state == CT_LOADING && loader__done(c->loader, &t->job->lj)) {
		l = t->job;
		t->job = NULL;
		ctab__take(c, t, l);
	}
	switch (t->state) {
	case CT_READY:
		return t;
	case CT_FAILED:
		*err = -ENOENT;
		return NULL;
	default:
		*err = -EAGAIN;
		return NULL;
	}
}

/* The first sample of a process asks for all its binaries at once, so
 * that the CFI of its callers is read beside its leaf's. */
static void cfitab__prefetch(struct cfitab *c, struct machine *m, s32 pid)
{
	const struct map *maps;
	size_t nr = 0;
	int err;

	if (c->o.sync || intmap__get(&c->pids, (u64)(u32)pid))
		return;
	if (c->pids.nr >= PREFETCH_PIDS) {
		intmap__fini(&c->pids);
		intmap__init(&c->pids);
	}
	intmap__put(&c->pids, (u64)(u32)pid, (void *)1);
	maps = machine__maps(m, pid, &nr);
	for (size_t i = 0; maps && i < nr; i++) {
		const struct dso *d = maps[i].dso;
		struct ctab *t;

		if (d->kind != DSO_FILE && d->kind != DSO_VDSO)
			continue;
		t = intmap__get(&c->tabs, (u64)d->id + 1);
		if (!t || t->state == CT_NONE)
			cfitab__start(c, d, &err);
	}
}

/* ---- the fixer ---- */

/* fpfix's row callback: the process's map, its binary's table, the row. */
static int cfitab__row(void *ctx, u64 pc, bool ret, struct ehframe_row *row)
{
	struct cfitab *c = ctx;
	u64 look = ret ? pc - 1 : pc, off, vaddr, key;
	const struct map *map = machine__find_map(c->m, c->pid, look);
	struct row_slot *slot;
	struct ctab *t;
	int err;

	if (!map || (map->dso->kind != DSO_FILE && map->dso->kind != DSO_VDSO))
		return -ENOENT;
	off = look - map->start + map->pgoff;
	key = ((u64)map->dso->id + 1) << 40 ^ off;
	slot = &c->cache[hash_u64(key) & (ROW_CACHE - 1)];
	c->st.rows++;
	if (slot->key == key && slot->off == off && slot->gen == c->gen) {
		c->st.row_hits++;
		*row = slot->row;
		return 0;
	}
	t = cfitab__table(c, map->dso, &err);
	if (!t)
		return err;
	if (elfsym__to_vaddr(&t->d.info, off, &vaddr))
		return -ENOENT;
	err = t->d.has_eh ? ehframe__row(&t->d.eh, vaddr, row) : -ENOENT;
	if (err == -ENOENT && t->d.has_dbg)
		err = ehframe__row(&t->d.dbg, vaddr, row);
	if (err)
		return -ENOENT;
	slot->key = key;
	slot->off = off;
	slot->gen = c->gen;
	slot->row = *row;
	return 0;
}

static int cfitab__fix(void *ctx, struct machine *m, const struct fix_req *req,
		       u64 *out, size_t max, size_t *nr)
{
	struct cfitab *c = ctx;
	struct fpfix_regs regs;
	u64 t0 = c->o.timing ? clock__now_ns() : 0, w0 = c->st.wait_ns;
	int how;

	*nr = 0;
	c->st.fixes++;
	if (fpfix__regs(req->abi, req->regs_mask, req->regs, req->nr_regs,
			&regs))
		return FP_FIX_BAD;
	c->m = m;
	c->pid = req->pid;
	cfitab__prefetch(c, m, req->pid);
	how = fpfix__recover(&regs, req->user, req->nr_user, req->stack,
			     req->stack_size, cfitab__row, c, out, max, nr);
	/* its own work: not the waits for a first table */
	if (c->o.timing)
		c->st.ns += clock__now_ns() - t0 - (c->st.wait_ns - w0);
	return how;
}

/* ---- life ---- */

struct cfitab *cfitab__new(struct session *s, const struct cfitab_opts *o)
{
	struct cfitab *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->s = s;
	if (o)
		c->o = *o;
	if (!c->o.max_bytes)
		c->o.max_bytes = DEF_MAX_BYTES;
	c->dio.proc = c->o.proc;
	c->dio.debug_dirs = c->o.debug_dirs;
	c->dio.nr_debug_dirs = c->o.nr_debug_dirs;
	c->dio.symfs = c->o.symfs;
	intmap__init(&c->tabs);
	intmap__init(&c->pids);
	c->budget_at = clock__now();
	c->cache = calloc(ROW_CACHE, sizeof(*c->cache));
	c->gen = 1;
	if (!c->o.sync)
		c->loader = loader__new(1);
	if (!c->cache || (!c->o.sync && !c->loader)) {
		cfitab__free(c);
		errno = ENOMEM;
		return NULL;
	}
	session__lock(s);
	session__set_fixer(s, cfitab__fix, c);
	session__unlock(s);
	return c;
}

void cfitab__free(struct cfitab *c)
{
	size_t i = 0;
	u64 k;
	void *v;

	if (!c)
		return;
	if (c->s) {
		session__lock(c->s);
		session__set_fixer(c->s, NULL, NULL);
		session__unlock(c->s);
	}
	while (intmap__next(&c->tabs, &i, &k, &v)) {
		struct ctab *t = v;

		/* a load under way reads a local file: waited for, so that
		 * nothing outlives the options it was given */
		if (t->state == CT_LOADING) {
			loader__wait(c->loader, &t->job->lj, 0, NULL);
			cload__free(&t->job->lj);
		}
		cfi_data__fini(&t->d);
		free(t);
	}
	intmap__fini(&c->tabs);
	intmap__fini(&c->pids);
	loader__free(c->loader);
	free(c->cache);
	free(c);
}

void cfitab__stats(const struct cfitab *c, struct cfitab_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (c)
		*st = c->st;
}
