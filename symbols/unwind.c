/* unwind: the DWARF unwinder thread, its queue and its libdw caches. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <elfutils/libdwfl.h>

#include "src/sys/clock.h"
#include "src/core/lru.h"
#include "symbols/dbgfetch.h"
#include "symbols/debuginfo.h"
#include "symbols/elfsym.h"
#include "src/core/log.h"
#include "src/core/machine.h"
#include "symbols/unwind.h"

#define DEF_QUEUE (16u << 20)
#define DEF_PROCS 64
#define DEF_FILES 128
/* The user frames one sample's unwind reads from its stack copy, at
 * most (u->pcs; --max-stack's default and ceiling); a request's kernel
 * part is refused past as many. */
#define MAX_UNWOUND 512

#define PAGE 4096ULL

/*
 * x86-64: perf's user registers (PERF_REG_X86_*, the bit numbers of
 * attr.sample_regs_user; the sample holds one value per bit set, in bit
 * order) to the DWARF register numbers of the psABI (figure 3.36), which
 * libdw's frame state is indexed by.  Column 16 is the return address
 * column: the pc.  The sampled segment and flags registers have no DWARF
 * number that CFI uses.
 *
 *   DWARF  0 rax  1 rdx  2 rcx  3 rbx  4 rsi  5 rdi  6 rbp  7 rsp
 *          8..15 r8..r15                                16 rip
 *   perf   0 AX   3 DX   2 CX   1 BX   4 SI   5 DI   6 BP   7 SP
 *          16..23 R8..R15                               8 IP
 */
#define NR_DWARF_REGS 17
#define DW_SP 7
#define DW_IP 16
static const u8 perf_of_dwarf[NR_DWARF_REGS] = {
	0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8,
};

/* An ELF file of one dso, shared by every Dwfl that reports it.  libelf
 * reads it through fd on demand (nothing mapped: a file truncated under
 * us gives read errors, not SIGBUS), so fd lives as long as elf. */
struct ufile {
	struct unwinder *u;
	const struct dso *dso;
	Elf *elf;		/* our reference; NULL: unusable */
	int fd;
	void *mem;		/* the vdso image behind elf */
	size_t mem_size;
	u64 first_vaddr;	/* first PT_LOAD, aligned down (libdwfl's) */
	u64 end_vaddr;		/* end of the last PT_LOAD */
	/* its debug file's .debug_frame: DEBUG_FRAME_UNKNOWN until a Dwfl
	 * asks, then whether there is one (see cb_find_debuginfo) */
	u8 debug_frame;
	/* in unwinder.files, key: the dso's id; pinned by each module of
	 * a cached Dwfl that reads it */
	struct lru_node node;
};

/* A module reported into a process's Dwfl. */
struct umod {
	u64 low, high, bias;
	struct ufile *uf;
};

/* The Dwfl of one process and the maps it was built for. */
struct uproc {
	struct unwinder *u;
	s32 pid;
	Dwfl *dwfl;
	struct map *maps;
	size_t nr_maps, cap_maps;
	u8 *tried;		/* per map: a module report was attempted */
	struct umod *mods;
	size_t nr_mods, cap_mods;
	struct lru_node node;	/* in unwinder.procs, key: the pid */
};

/* The request being unwound (one at a time). */
struct ucur {
	const struct unwind_req *req;
	struct uproc *up;
	Dwarf_Word regs[NR_DWARF_REGS];
	u32 regs_set;		/* bit per DWARF register */
	u64 sp;
	const u8 *stack;
	u64 stack_size;
	u64 *pcs;
	size_t nr, max;
	u64 last_sp;
};

/* A queued request: the request, then its arrays (8-aligned).  size 0
 * marks the unused end of the ring: the reader goes back to offset 0. */
struct qent {
	u32 size;
	u32 pad;
	struct unwind_req req;
};

struct unwinder {
	struct session *s;
	struct unwind_opts o;
	struct debuginfo_opts dio;
	Dwfl_Callbacks cb;
	Elf *arch;		/* says "x86-64" to dwfl_attach_state */
	Elf64_Ehdr arch_ehdr;
	struct lru procs;	/* struct uproc by pid, at most max_procs */
	struct lru files;	/* struct ufile by dso id: files__trim */
	struct ucur cur;
	u64 pcs[MAX_UNWOUND];
	u64 dwfl_new;		/* atomic: the unwinding thread's */
	u64 runs;		/* the unwinding thread's: unwind__timed */

	/* the queue (live mode) */
	pthread_mutex_t qlock;
	pthread_cond_t more;	/* the worker waits for requests */
	pthread_cond_t done;	/* drain waits for progress */
	u8 *ring;
	size_t cap;
	u64 wpos, rpos;		/* ever increasing; offset = pos % cap */
	bool stop, started;
	pthread_t thread;
	struct unwind_stats st;	/* under qlock */
};

/* ---- ELF files ---- */

static void ufile__free(struct ufile *uf)
{
	if (!uf)
		return;
	if (uf->elf)
		elf_end(uf->elf);
	if (uf->fd >= 0)
		close(uf->fd);
	free(uf->mem);
	free(uf);
}

/* The address range libdwfl gives a module: from the first PT_LOAD's
 * aligned vaddr to the end of the last. */
static int ufile__layout(struct ufile *uf)
{
	size_t phnum;
	bool first = true;

	if (elf_getphdrnum(uf->elf, &phnum))
		return -EINVAL;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(uf->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (first) {
			u64 a = ph.p_align;

			uf->first_vaddr = a && !(a & (a - 1)) ?
						  ph.p_vaddr & -a : ph.p_vaddr;
			first = false;
		}
		uf->end_vaddr = ph.p_vaddr + ph.p_memsz;
	}
	if (first || uf->end_vaddr <= uf->first_vaddr)
		return -EINVAL;
	return 0;
}

static struct ufile *ufile__open(struct unwinder *u, const struct dso *dso)
{
	struct ufile *uf = calloc(1, sizeof(*uf));
	char path[4096];
	u8 bid[BUILD_ID_MAX];
	int n;

	if (!uf)
		return NULL;
	uf->u = u;
	uf->dso = dso;
	uf->fd = -1;
	if (dso->kind == DSO_VDSO) {
		uf->mem = elfsym__own_vdso(&uf->mem_size);
		if (uf->mem)
			uf->elf = elfsym__open_mem(uf->mem, uf->mem_size);
		/* another kernel's vdso (a perf.data file) is not ours */
		n = uf->elf && dso->build_id_size ?
			    elfsym__build_id(uf->elf, bid, sizeof(bid)) : 0;
		if (n < 0 || (uf->elf && dso->build_id_size &&
			      !dso__build_id_eq(bid, (size_t)n,
						      dso->build_id,
						      dso->build_id_size))) {
			elf_end(uf->elf);
			uf->elf = NULL;
		}
	} else {
		uf->fd = debuginfo__open_binary(&u->dio, dso, path,
						sizeof(path));
		/* out of fds or memory: not the file's fault, try later;
		 * on its way from debuginfod: later too */
		if (uf->fd == -EMFILE || uf->fd == -ENFILE ||
		    uf->fd == -ENOMEM || uf->fd == -EINPROGRESS) {
			free(uf);
			return NULL;
		}
		if (uf->fd >= 0) {
			uf->elf = elfsym__open_fd(uf->fd);
			if (!uf->elf) {
				close(uf->fd);
				uf->fd = -1;
			}
		}
	}
	if (uf->elf && ufile__layout(uf)) {
		elf_end(uf->elf);
		uf->elf = NULL;
	}
	if (!uf->elf) {
		/* a cached failure: no fd, no memory */
		if (uf->fd >= 0)
			close(uf->fd);
		uf->fd = -1;
		free(uf->mem);
		uf->mem = NULL;
		pr_debug("unwind: no usable ELF for %s",
			 dso->path ? dso->path : "?");
	}
	return uf;
}

/* Closes the least recently used files that no Dwfl holds, down to
 * max_files: after each unwind, when no pointer to a file is held but
 * the modules' (their pins). */
static void files__trim(struct unwinder *u)
{
	lru__shrink(&u->files, 0, u->o.max_files);
}

static void files__evict(void *ctx, struct lru_node *n)
{
	(void)ctx;
	ufile__free(lru_entry(n, struct ufile, node));
}

static struct ufile *files__get(struct unwinder *u, const struct dso *dso)
{
	struct lru_node *n = lru__find(&u->files, dso->id, 0);
	struct ufile *uf;

	if (n)
		return lru_entry(n, struct ufile, node);
	uf = ufile__open(u, dso);
	if (!uf)
		return NULL;
	uf->node.key[0] = dso->id;
	/* no bound here: the caller holds the files it got */
	if (lru__insert(&u->files, &uf->node)) {
		ufile__free(uf);
		return NULL;
	}
	return uf;
}

/* ---- libdw callbacks ---- */

/* The module's ELF: another reference to the shared one (libelf counts
 * them; the module's elf_end drops it).  No fd: ours stays open as long
 * as the file is cached, which outlives every module that uses it. */
static int cb_find_elf(Dwfl_Module *mod, void **userdata, const char *name,
		       Dwarf_Addr base, char **file_name, Elf **elfp)
{
	struct ufile *uf = *userdata;

	(void)mod;
	(void)name;
	(void)base;
	(void)file_name;
	*elfp = uf && uf->elf ? elf_begin(-1, ELF_C_READ, uf->elf) : NULL;
	if (!*elfp)
		errno = ENOENT;
	return -1;
}

enum { DEBUG_FRAME_UNKNOWN, DEBUG_FRAME_NONE, DEBUG_FRAME_HAS };

/*
 * Separate debug info, for .debug_frame when .eh_frame has no entry for
 * a pc (libdw asks at every chain's last frame, where nothing unwinds):
 * through the same finder as the symbolizer's.  libdwfl owns the fd
 * returned.  Only a debug file with a .debug_frame is given: libdw's
 * dwarf_begin_elf inflates every compressed .debug_* section of the file
 * it gets, in each process's Dwfl, to find none there (Debian's debug
 * files have none: x86-64 code unwinds through .eh_frame): system-wide,
 * 207 MB of the heap were libc's and ld.so's debug sections inflated
 * again for each cached Dwfl.  Whether the file has one is read once per
 * file.
 */
static int cb_find_debuginfo(Dwfl_Module *mod, void **userdata,
			     const char *name, Dwarf_Addr base,
			     const char *file_name, const char *debuglink,
			     GElf_Word crc, char **debug_name)
{
	struct ufile *uf = *userdata;
	struct elf_info info;
	char path[4096];
	int fd;

	(void)mod;
	(void)name;
	(void)base;
	(void)file_name;
	(void)debuglink;
	(void)crc;
	if (!uf || !uf->elf || uf->dso->kind != DSO_FILE ||
	    uf->debug_frame == DEBUG_FRAME_NONE ||
	    elfsym__info(uf->elf, &info))
		return -1;
	fd = debuginfo__open_debug(&uf->u->dio, uf->dso, &info, path,
				   sizeof(path));
	if (fd < 0)
		return -1;
	if (uf->debug_frame == DEBUG_FRAME_UNKNOWN) {
		Elf *dbg = elfsym__open_fd(fd);

		uf->debug_frame = elfsym__has_section(dbg, ".debug_frame") ?
					  DEBUG_FRAME_HAS : DEBUG_FRAME_NONE;
		elf_end(dbg);
		if (uf->debug_frame == DEBUG_FRAME_NONE) {
			close(fd);
			return -1;
		}
	}
	*debug_name = strdup(path);
	return fd;
}

static pid_t cb_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return dwfl_pid(dwfl);
}

static bool cb_get_thread(Dwfl *dwfl, pid_t tid, void *arg,
			  void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

/* Reads from a module's file: addr is in [m->low, m->high). */
static bool umod__read(const struct umod *m, u64 addr, void *out, size_t len)
{
	struct ufile *uf = m->uf;
	u64 vaddr = addr - m->bias, off = 0;
	size_t phnum;
	bool found = false;

	if (elf_getphdrnum(uf->elf, &phnum))
		return false;
	for (size_t i = 0; i < phnum && !found; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(uf->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_filesz &&
		    ph.p_filesz - (vaddr - ph.p_vaddr) >= len) {
			off = ph.p_offset + (vaddr - ph.p_vaddr);
			found = true;
		}
	}
	if (!found)
		return false;
	if (uf->mem) {
		if (off > uf->mem_size || uf->mem_size - off < len)
			return false;
		memcpy(out, (const u8 *)uf->mem + off, len);
		return true;
	}
	return pread(uf->fd, out, len, (off_t)off) == (ssize_t)len;
}

/* A word of the target's memory: the stack copy, else the files of the
 * modules (read-only data, such as a PLT's GOT, never changes a CFA
 * rule's result in practice, but CFI expressions may ask). */
static bool cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			   void *arg)
{
	struct uproc *up = arg;
	const struct ucur *c = &up->u->cur;

	(void)dwfl;
	if (addr >= c->sp && c->stack_size >= 8 &&
	    addr - c->sp <= c->stack_size - 8) {
		memcpy(result, c->stack + (addr - c->sp), 8);
		return true;
	}
	for (size_t i = 0; i < up->nr_mods; i++) {
		const struct umod *m = &up->mods[i];

		if (addr >= m->low && addr < m->high)
			return umod__read(m, addr, result, 8);
	}
	return false;
}

static bool cb_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct uproc *up = arg;
	const struct ucur *c = &up->u->cur;

	for (unsigned int r = 0; r < NR_DWARF_REGS; r++) {
		if (!(c->regs_set & (1u << r)))
			continue;
		if (!dwfl_thread_state_registers(thread, (int)r, 1,
						 &c->regs[r]))
			return false;
	}
	dwfl_thread_state_register_pc(thread, c->regs[DW_IP]);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = cb_next_thread,
	.get_thread = cb_get_thread,
	.memory_read = cb_memory_read,
	.set_initial_registers = cb_set_initial_registers,
};

/* ---- processes ---- */

/* Ends the process's Dwfl (its modules drop their ELF references). */
static void uproc__reset(struct uproc *up)
{
	if (up->dwfl)
		dwfl_end(up->dwfl);
	up->dwfl = NULL;
	for (size_t i = 0; i < up->nr_mods; i++)
		lru__unpin(&up->mods[i].uf->node);
	up->nr_mods = 0;
	if (up->tried)
		memset(up->tried, 0, up->nr_maps);
}

static void uproc__free(struct uproc *up)
{
	if (!up)
		return;
	uproc__reset(up);
	free(up->maps);
	free(up->tried);
	free(up->mods);
	free(up);
}

static void procs__evict(void *ctx, struct lru_node *n)
{
	(void)ctx;
	uproc__free(lru_entry(n, struct uproc, node));
}

static struct uproc *procs__get(struct unwinder *u, s32 pid)
{
	struct lru_node *n = lru__find(&u->procs, (u64)(u32)pid, 0);
	struct uproc *up;

	if (n)
		return lru_entry(n, struct uproc, node);
	up = calloc(1, sizeof(*up));
	if (!up)
		return NULL;
	up->u = u;
	up->pid = pid;
	up->node.key[0] = (u64)(u32)pid;
	/* the least recently used process goes when there are too many */
	if (lru__insert(&u->procs, &up->node)) {
		free(up);
		return NULL;
	}
	return up;
}

/* Brings the process's copy of its maps up to date with the session's
 * (locked by the caller); a change ends the Dwfl, which is rebuilt
 * lazily for the new maps. */
static int uproc__sync(struct uproc *up, struct machine *m)
{
	size_t nr = 0;
	const struct map *maps = machine__maps(m, up->pid, &nr);

	if (!maps)
		nr = 0;
	if (nr == up->nr_maps &&
	    (!nr || !memcmp(maps, up->maps, nr * sizeof(*maps))))
		return 0;
	uproc__reset(up);
	if (nr > up->cap_maps) {
		struct map *p = realloc(up->maps, nr * sizeof(*p));
		u8 *t;

		if (!p)
			goto nomem;
		up->maps = p;
		t = realloc(up->tried, nr);
		if (!t)
			goto nomem;
		up->tried = t;
		up->cap_maps = nr;
	}
	if (nr)
		memcpy(up->maps, maps, nr * sizeof(*maps));
	up->nr_maps = nr;
	if (nr)
		memset(up->tried, 0, nr);
	return 0;
nomem:
	up->nr_maps = 0;
	return -ENOMEM;
}

static int uproc__begin(struct uproc *up)
{
	struct unwinder *u = up->u;

	up->dwfl = dwfl_begin(&u->cb);
	if (!up->dwfl)
		return -ENOMEM;
	if (!dwfl_attach_state(up->dwfl, u->arch, up->pid, &thread_callbacks,
			       up)) {
		dwfl_end(up->dwfl);
		up->dwfl = NULL;
		return -EINVAL;
	}
	__atomic_fetch_add(&u->dwfl_new, 1, __ATOMIC_RELAXED);
	return 0;
}

/* The map that holds pc (binary search: the maps are sorted). */
static ssize_t uproc__map(const struct uproc *up, u64 pc)
{
	size_t lo = 0, hi = up->nr_maps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pc < up->maps[mid].start)
			hi = mid;
		else if (pc >= up->maps[mid].end)
			lo = mid + 1;
		else
			return (ssize_t)mid;
	}
	return -1;
}

/* The load bias of the file behind map: the PT_LOAD whose file range
 * holds the map's offset says where vaddr 0 went. */
static int ufile__bias(const struct ufile *uf, const struct map *map,
		       u64 *bias)
{
	size_t phnum;
	bool found = false;

	if (uf->mem) {	/* the vdso: the whole image is mapped */
		*bias = map->start - map->pgoff;
		return 0;
	}
	if (elf_getphdrnum(uf->elf, &phnum))
		return -EINVAL;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(uf->elf, (int)i, &ph) ||
		    ph.p_type != PT_LOAD ||
		    (ph.p_offset & ~(PAGE - 1)) > map->pgoff ||
		    map->pgoff >= ph.p_offset + ph.p_filesz)
			continue;
		/* start maps offset pgoff, which is at vaddr
		 * p_vaddr + (pgoff - p_offset) (congruent modulo the page) */
		*bias = map->start - map->pgoff + ph.p_offset - ph.p_vaddr;
		found = true;
		if (ph.p_flags & PF_X)
			break;
	}
	return found ? 0 : -ENOENT;
}

/* Makes sure the module that holds pc is reported (once per map). */
static void uproc__report(struct uproc *up, u64 pc)
{
	struct unwinder *u = up->u;
	const struct map *map;
	struct umod *m;
	struct ufile *uf;
	Dwfl_Module *mod;
	void **ud;
	ssize_t i;
	u64 bias, low, high;

	for (size_t k = 0; k < up->nr_mods; k++)
		if (pc >= up->mods[k].low && pc < up->mods[k].high)
			return;
	i = uproc__map(up, pc);
	if (i < 0 || up->tried[i])
		return;
	up->tried[i] = 1;
	map = &up->maps[i];
	if (map->dso->kind != DSO_FILE && map->dso->kind != DSO_VDSO)
		return;
	uf = files__get(u, map->dso);
	if (!uf || !uf->elf || ufile__bias(uf, map, &bias))
		return;
	low = bias + uf->first_vaddr;
	high = bias + uf->end_vaddr;
	if (high <= low || pc < low || pc >= high)
		return;
	/* never two modules over one address (a hostile or stale map) */
	for (size_t k = 0; k < up->nr_mods; k++)
		if (low < up->mods[k].high && up->mods[k].low < high)
			return;
	if (array__grow((void **)&up->mods, &up->cap_mods, up->nr_mods + 1,
			sizeof(*up->mods)))
		return;
	dwfl_report_begin_add(up->dwfl);
	mod = dwfl_report_module(up->dwfl, map->dso->path ? map->dso->path :
							    "[unknown]",
				 low, high);
	dwfl_report_end(up->dwfl, NULL, NULL);
	if (!mod)
		return;
	dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	*ud = uf;
	lru__pin(&uf->node);
	m = &up->mods[up->nr_mods++];
	m->low = low;
	m->high = high;
	m->bias = bias;
	m->uf = uf;
}

/* ---- unwinding ---- */

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct ucur *c = arg;
	Dwarf_Addr pc;
	Dwarf_Word sp;

	if (!dwfl_frame_pc(state, &pc, NULL) || !pc)
		return DWARF_CB_ABORT;
	/* Callers' frames are higher on the stack: a frame that is not
	 * is garbage, and stopping there ends any cycle. */
	if (dwfl_frame_reg(state, DW_SP, &sp) == 0) {
		if (c->nr && sp <= c->last_sp)
			return DWARF_CB_ABORT;
		c->last_sp = sp;
	}
	c->pcs[c->nr++] = pc;
	if (c->nr >= c->max)
		return DWARF_CB_ABORT;
	/* libdw looks up the next step's CFI at pc, or at pc - 1 (inside
	 * the call) for a return address */
	uproc__report(c->up, c->nr == 1 ? pc : pc - 1);
	return DWARF_CB_OK;
}

/* The request's registers in DWARF order; false without sp and ip. */
static bool load_regs(struct ucur *c, const struct unwind_req *req)
{
	c->regs_set = 0;
	if (req->abi != PERF_SAMPLE_REGS_ABI_64 || !req->regs)
		return false;
	for (unsigned int r = 0; r < NR_DWARF_REGS; r++) {
		unsigned int bit = perf_of_dwarf[r];
		u64 below;
		unsigned int idx;

		if (!(req->regs_mask & (1ULL << bit)))
			continue;
		below = req->regs_mask & ((1ULL << bit) - 1);
		idx = (unsigned int)__builtin_popcountll(below);
		if (idx >= req->nr_regs)
			continue;
		c->regs[r] = req->regs[idx];
		c->regs_set |= 1u << r;
	}
	return (c->regs_set & (1u << DW_SP)) && (c->regs_set & (1u << DW_IP));
}

/* Unwinds req into pcs; locked: the caller holds the session lock,
 * else it is taken only to compare the process's maps. */
static size_t unwind__run(struct unwinder *u, const struct unwind_req *req,
			  u64 *pcs, size_t max, bool locked)
{
	struct ucur *c = &u->cur;
	struct uproc *up;
	int err;

	memset(c, 0, sizeof(*c));
	if (!max || !load_regs(c, req))
		return 0;
	max = MIN(max, (size_t)u->o.max_stack);
	/* whatever happens next, the sampled pc is known */
	pcs[0] = c->regs[DW_IP];
	up = procs__get(u, (s32)req->pid);
	if (!up)
		return 1;
	if (!locked)
		session__lock(u->s);
	err = uproc__sync(up, session__machine(u->s));
	if (!locked)
		session__unlock(u->s);
	if (err || (!up->dwfl && uproc__begin(up)))
		return 1;
	c->req = req;
	c->up = up;
	c->sp = c->regs[DW_SP];
	c->stack = req->stack;
	c->stack_size = req->stack ? req->stack_size : 0;
	c->pcs = pcs;
	c->max = max;
	/* the first frame's module must be there before libdw looks */
	uproc__report(up, c->regs[DW_IP]);
	dwfl_getthread_frames(up->dwfl, (pid_t)req->pid, frame_cb, c);
	files__trim(u);
	return c->nr ? c->nr : 1;
}

size_t unwind__one(struct unwinder *u, const struct unwind_req *req,
		   u64 *pcs, size_t max)
{
	return unwind__run(u, req, pcs, max, true);
}

/* ---- the queue ---- */

static size_t req_bytes(const struct unwind_req *req)
{
	return sizeof(struct qent) + 8 * (size_t)req->nr_kernel +
	       8 * (size_t)req->nr_regs + ALIGN_UP((size_t)req->stack_size, 8u);
}

/* Copies req into the ring at p; its pointers then point behind it. */
static void qent__fill(struct qent *e, size_t size,
		       const struct unwind_req *req)
{
	u8 *p = (u8 *)(e + 1);

	e->size = (u32)size;
	e->pad = 0;
	e->req = *req;
	/* (memcpy's source may not be NULL, even for 0 bytes) */
	if (req->nr_kernel)
		memcpy(p, req->kernel, 8 * req->nr_kernel);
	e->req.kernel = (const u64 *)p;
	p += 8 * req->nr_kernel;
	if (req->nr_regs)
		memcpy(p, req->regs, 8 * (size_t)req->nr_regs);
	e->req.regs = (const u64 *)p;
	p += 8 * (size_t)req->nr_regs;
	if (req->stack_size)
		memcpy(p, req->stack, req->stack_size);
	e->req.stack = p;
}

/* Unwinds req (unwind__run) and says whether it timed it, in *ns: one
 * request in UNWIND_TIME_EVERY, since the thread's CPU clock is a system
 * call (about 0.25 us here, a twentieth of an unwinding) where the
 * unwinding is not. */
static size_t unwind__timed(struct unwinder *u, const struct unwind_req *req,
			    bool locked, u64 *ns)
{
	bool timed = u->runs++ % UNWIND_TIME_EVERY == 0;
	u64 t0 = timed ? clock__thread_ns() : 0;
	size_t nr = unwind__run(u, req, u->pcs, MAX_UNWOUND, locked);

	*ns = timed ? clock__thread_ns() - t0 : UINT64_MAX;
	return nr;
}

/* Accounts one request, unwound (ns: UINT64_MAX if not timed); the
 * worker or the sync hook. */
static void account(struct unwinder *u, size_t nr, u64 ns)
{
	u->st.unwound++;
	u->st.frames += nr;
	u->st.failed += nr < 2;
	if (ns != UINT64_MAX) {
		u->st.timed++;
		u->st.ns += ns;
	}
}

/* The session's hook (the session is locked). */
static int unwind__queue(void *ctx, const struct unwind_req *req)
{
	struct unwinder *u = ctx;
	size_t size, off, skip;
	u64 used;

	if (req->abi != PERF_SAMPLE_REGS_ABI_64 || !req->regs ||
	    req->nr_regs > 64 || req->nr_kernel > MAX_UNWOUND + 1 ||
	    req->stack_size > (1u << 20))
		return -EOPNOTSUPP;
	if (u->o.sync) {
		u64 ns;
		size_t nr = unwind__timed(u, req, true, &ns);

		pthread_mutex_lock(&u->qlock);
		account(u, nr, ns);
		u->st.queued++;
		pthread_mutex_unlock(&u->qlock);
		session__add_unwound(u->s, req, u->pcs, nr);
		return 0;
	}
	size = req_bytes(req);
	pthread_mutex_lock(&u->qlock);
	off = (size_t)(u->wpos % u->cap);
	/* an entry is contiguous: skip the end of the ring if it is short */
	skip = u->cap - off < size ? u->cap - off : 0;
	used = u->wpos - u->rpos;
	if (size > u->cap || used + skip + size > u->cap) {
		u->st.dropped++;
		pthread_mutex_unlock(&u->qlock);
		return -ENOSPC;
	}
	if (skip) {
		((struct qent *)(u->ring + off))->size = 0;
		u->wpos += skip;
		off = 0;
	}
	qent__fill((struct qent *)(u->ring + off), size, req);
	u->wpos += size;
	u->st.queued++;
	if (u->wpos - u->rpos > u->st.queue_peak)
		u->st.queue_peak = u->wpos - u->rpos;
	pthread_cond_signal(&u->more);
	pthread_mutex_unlock(&u->qlock);
	return 0;
}

static void *unwind__thread(void *arg)
{
	struct unwinder *u = arg;

	pthread_mutex_lock(&u->qlock);
	for (;;) {
		struct qent *e;
		size_t off, nr;
		u64 ns;

		while (u->rpos == u->wpos && !u->stop)
			pthread_cond_wait(&u->more, &u->qlock);
		if (u->rpos == u->wpos)
			break;
		off = (size_t)(u->rpos % u->cap);
		e = (struct qent *)(u->ring + off);
		if (!e->size) {	/* the skipped end of the ring */
			u->rpos += u->cap - off;
			continue;
		}
		/* the entry stays ours until rpos moves past it */
		pthread_mutex_unlock(&u->qlock);
		nr = unwind__timed(u, &e->req, false, &ns);
		session__lock(u->s);
		session__add_unwound(u->s, &e->req, u->pcs, nr);
		session__unlock(u->s);
		pthread_mutex_lock(&u->qlock);
		account(u, nr, ns);
		u->rpos += e->size;
		/* empty: the next request goes to the start of the ring, so
		 * that only the peak's pages are ever touched (RSS) */
		if (u->rpos == u->wpos && u->wpos % u->cap)
			u->rpos = u->wpos += u->cap - u->wpos % u->cap;
		pthread_cond_broadcast(&u->done);
	}
	pthread_mutex_unlock(&u->qlock);
	return NULL;
}

static void unwind__flush_cb(void *ctx)
{
	unwind__drain(ctx);
}

void unwind__drain(struct unwinder *u)
{
	u64 target;

	if (!u || u->o.sync)
		return;
	pthread_mutex_lock(&u->qlock);
	target = u->wpos;
	while (u->started && (s64)(target - u->rpos) > 0)
		pthread_cond_wait(&u->done, &u->qlock);
	pthread_mutex_unlock(&u->qlock);
}

void unwind__stats(struct unwinder *u, struct unwind_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!u)
		return;
	pthread_mutex_lock(&u->qlock);
	*st = u->st;
	pthread_mutex_unlock(&u->qlock);
	/* the caches belong to the unwinding thread: only sizes, racy */
	st->dwfl_new = __atomic_load_n(&u->dwfl_new, __ATOMIC_RELAXED);
	st->procs = __atomic_load_n(&u->procs.nr, __ATOMIC_RELAXED);
	st->files = __atomic_load_n(&u->files.nr, __ATOMIC_RELAXED);
}

/* ---- life ---- */

struct unwinder *unwind__new(struct session *s, const struct unwind_opts *o)
{
#if defined(__x86_64__)
	struct session_unwinder hook;
	struct unwinder *u;
	int err;

	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	if (o)
		u->o = *o;
	u->s = s;
	if (!u->o.queue_bytes)
		u->o.queue_bytes = DEF_QUEUE;
	if (!u->o.max_stack || u->o.max_stack > MAX_UNWOUND)
		u->o.max_stack = MAX_UNWOUND;
	if (!u->o.max_procs)
		u->o.max_procs = DEF_PROCS;
	if (!u->o.max_files) {
		struct rlimit rl;

		u->o.max_files = DEF_FILES;
		/* a quarter of the fds at most: the rings and the
		 * symbolizer need theirs */
		if (!getrlimit(RLIMIT_NOFILE, &rl) &&
		    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 4 < DEF_FILES)
			u->o.max_files = MAX((size_t)rl.rlim_cur / 4,
					     (size_t)2);
	}
	u->dio.proc = u->o.proc;
	u->dio.debug_dirs = u->o.debug_dirs;
	u->dio.nr_debug_dirs = u->o.nr_debug_dirs;
	u->dio.symfs = u->o.symfs;
	u->dio.fetch = u->o.fetch;
	/* a recording's read waits DBGFETCH_WAIT_MAX for fetches in all */
	u->dio.fetch_until = u->o.fetch_wait ?
				     dbgfetch__after(DBGFETCH_WAIT_MAX) : 0;
	u->cb.find_elf = cb_find_elf;
	u->cb.find_debuginfo = cb_find_debuginfo;
	u->cb.section_address = dwfl_offline_section_address;
	lru__init(&u->procs, 0, u->o.max_procs ? u->o.max_procs : 1,
		  procs__evict, u);
	lru__init(&u->files, 0, 0, files__evict, u);
	pthread_mutex_init(&u->qlock, NULL);
	pthread_cond_init(&u->more, NULL);
	pthread_cond_init(&u->done, NULL);

	/* dwfl_attach_state learns the architecture from an ELF header */
	memcpy(u->arch_ehdr.e_ident, ELFMAG, SELFMAG);
	u->arch_ehdr.e_ident[EI_CLASS] = ELFCLASS64;
	u->arch_ehdr.e_ident[EI_DATA] = ELFDATA2LSB;
	u->arch_ehdr.e_ident[EI_VERSION] = EV_CURRENT;
	u->arch_ehdr.e_type = ET_EXEC;
	u->arch_ehdr.e_machine = EM_X86_64;
	u->arch_ehdr.e_version = EV_CURRENT;
	u->arch_ehdr.e_ehsize = sizeof(Elf64_Ehdr);
	u->arch = elfsym__open_mem(&u->arch_ehdr, sizeof(u->arch_ehdr));
	if (!u->arch) {
		err = errno;
		goto err;
	}
	if (!u->o.sync) {
		u->cap = ALIGN_UP(u->o.queue_bytes, (size_t)8);
		u->ring = malloc(u->cap);
		if (!u->ring) {
			err = ENOMEM;
			goto err;
		}
		err = pthread_create(&u->thread, NULL, unwind__thread, u);
		if (err)
			goto err;
		u->started = true;
	}
	hook.queue = unwind__queue;
	hook.flush = unwind__flush_cb;
	hook.ctx = u;
	session__lock(s);
	session__set_unwinder(s, &hook);
	session__unlock(s);
	return u;
err:
	unwind__free(u);
	errno = err;
	return NULL;
#else
	(void)s;
	(void)o;
	errno = EOPNOTSUPP;
	return NULL;
#endif
}

void unwind__free(struct unwinder *u)
{
	if (!u)
		return;
	if (u->s) {
		session__lock(u->s);
		session__set_unwinder(u->s, NULL);
		session__unlock(u->s);
	}
	if (u->started) {
		/* what is queued is unwound first: taken samples are never
		 * lost */
		pthread_mutex_lock(&u->qlock);
		u->stop = true;
		pthread_cond_signal(&u->more);
		pthread_mutex_unlock(&u->qlock);
		pthread_join(u->thread, NULL);
	}
	lru__fini(&u->procs);	/* unpins the files */
	lru__fini(&u->files);
	if (u->arch)
		elf_end(u->arch);
	free(u->ring);
	pthread_mutex_destroy(&u->qlock);
	pthread_cond_destroy(&u->more);
	pthread_cond_destroy(&u->done);
	free(u);
}
