/* srcline: address -> file:line and inline chain, from DWARF via libdw. */
#include <errno.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "src/sys/mapguard.h"
#include "symbols/demangle.h"
#include "symbols/srcline.h"
#include "symbols/symtab.h"

/* Inflated DWARF beyond this is refused (zlib tops out near 1032:1, so a
 * larger ratio is a lie, and a larger total no debug file we want). */
#define DWARF_MAX_INFLATED (1ull << 30)
#define DWARF_MAX_RATIO 1100
#define MAX_CUS_SCANNED 1000000

/*
 * The DIEs holding code, by address: an entry per range, sorted by lo,
 * maxhi the largest hi of the entries up to it (so that a search stops
 * going back where no earlier range can hold the pc), seq the DIE's
 * place in the order a walk meets them (the first one met wins, as it
 * does in the walk), visits the DIEs a walk has seen at it.
 */
struct pcrange {
	u64 lo, hi, maxhi;
	u32 seq, visits;
	int level;
	Dwarf_Die die;
};

struct pcindex {
	struct pcrange *r;
	size_t n, cap;
	u32 seq;
	unsigned int visits;
	bool cut;		/* the walk met its bound: not all there */
};

struct cu_funcs {
	struct Dwarf_CU *cu;
	struct pcindex ix;	/* cut: walk the CU as before */
};

struct srcline_dw {
	Dwarf *dw;
	/* the file libdw maps: a change under it ends the handle */
	struct mapguard guard;
	bool poisoned;		/* a fault cut libdw short: never touched
				 * again, not even by dwarf_end */
	/* a name copied out of the mapping before it is interned */
	char name[4096];
	/* the function found last: annotate asks for every instruction of
	 * one function in a row, and walking the CU from its root each time
	 * (every type and declaration of every header) is what costs */
	Dwarf_Die last_fn;
	bool has_last_fn;
	/* the CUs by address, made at the first address .debug_aranges
	 * does not place (then every CU would be asked for every such
	 * address); cu_ix_failed: too big or no memory, ask each CU */
	struct pcindex cu_ix;
	bool cu_ix_made, cu_ix_failed;
	bool no_index;		/* srcline__no_index */
	/* per CU met, its functions by address (walking the CU from its
	 * root, past every type and declaration, for every address is what
	 * costs), sorted by the CU's address */
	struct cu_funcs *cus;
	size_t nr_cus, cap_cus;
	/* an index being made, and the CUs aranges lists while the CUs'
	 * is: freed with sd if a fault cuts it short */
	struct pcindex building;
	Dwarf_Off *listed;
};

static u64 be64(const u8 *p)
{
	u64 v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

int srcline__dwarf_size(Elf *elf, u64 *inflated_total, bool *compressed)
{
	size_t nr, shstrndx;
	u64 total = 0;
	bool any = false;

	if (elf_getshdrnum(elf, &nr) || elf_getshdrstrndx(elf, &shstrndx))
		return -ENODATA;
	for (size_t i = 1; i < nr; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		const char *name;
		GElf_Shdr sh;
		u64 inflated;

		if (!scn || !gelf_getshdr(scn, &sh))
			return -ENODATA;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || sh.sh_type == SHT_NOBITS ||
		    (strncmp(name, ".debug_", 7) &&
		     strncmp(name, ".zdebug_", 8)))
			continue;
		inflated = sh.sh_size;
		if (sh.sh_flags & SHF_COMPRESSED) {
			GElf_Chdr ch;

			if (!gelf_getchdr(scn, &ch))
				return -ENODATA;
			inflated = ch.ch_size;
			any = true;
		} else if (!strncmp(name, ".zdebug_", 8)) {
			Elf_Data *d = elf_rawdata(scn, NULL);

			if (!d || d->d_size < 12 || memcmp(d->d_buf, "ZLIB", 4))
				return -ENODATA;
			inflated = be64((const u8 *)d->d_buf + 4);
			any = true;
		}
		if (inflated > DWARF_MAX_INFLATED ||
		    inflated / DWARF_MAX_RATIO > sh.sh_size)
			return -ENODATA;
		total += inflated;
		if (total > DWARF_MAX_INFLATED)
			return -ENODATA;
	}
	*inflated_total = total;
	*compressed = any;
	return 0;
}

struct begin_args {
	Elf *elf;
	Dwarf *dw;
};

/* Guarded: the sections are read where the file is mapped. */
static void begin(void *arg)
{
	struct begin_args *a = arg;
	u64 size;
	bool compressed;

	if (!srcline__dwarf_size(a->elf, &size, &compressed))
		a->dw = dwarf_begin_elf(a->elf, DWARF_C_READ, NULL);
}

struct srcline_dw *srcline__new(Elf *elf, int fd)
{
	struct begin_args a = { elf, NULL };
	struct srcline_dw *sd;

	if (!elf) {
		errno = ENODATA;
		return NULL;
	}
	sd = calloc(1, sizeof(*sd));
	if (!sd)
		return NULL;
	mapguard__init(&sd->guard);
	if (fd >= 0 && mapguard__watch(&sd->guard, fd)) {
		free(sd);
		return NULL;
	}
	if (mapguard__run(&sd->guard, begin, &a)) {
		/* what libdw made is left as it is */
		free(sd);
		errno = ESTALE;
		return NULL;
	}
	if (!a.dw || mapguard__changed(&sd->guard)) {
		if (a.dw)
			dwarf_end(a.dw);
		free(sd);
		errno = a.dw ? ESTALE : ENODATA;
		return NULL;
	}
	sd->dw = a.dw;
	return sd;
}

void srcline__free(struct srcline_dw *sd)
{
	if (!sd)
		return;
	if (!sd->poisoned)
		dwarf_end(sd->dw);
	for (size_t i = 0; i < sd->nr_cus; i++)
		free(sd->cus[i].ix.r);
	free(sd->cus);
	free(sd->cu_ix.r);
	free(sd->building.r);
	free(sd->listed);
	free(sd);
}

/* at most this many ranges in an index (a CU's, or the CUs'): past it,
 * hostile or absurd DWARF is walked as it was, without an index */
#define MAX_INDEX_RANGES (1u << 22)

static int pcrange_cmp(const void *pa, const void *pb)
{
	const struct pcrange *a = pa, *b = pb;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* die's ranges into ix as entry seq; false: the index is given up */
static bool pcindex__add(struct pcindex *ix, Dwarf_Die *die, int level)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	u32 seq = ix->seq++;

	/* dwarf_haspc's loop: the ranges before an error count */
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		if (ix->n >= MAX_INDEX_RANGES ||
		    array__grow((void **)&ix->r, &ix->cap, ix->n + 1,
				sizeof(*ix->r)))
			return false;
		ix->r[ix->n++] = (struct pcrange){
			.lo = lo, .hi = hi, .seq = seq,
			.visits = ix->visits, .level = level, .die = *die
		};
	}
	return true;
}

static void pcindex__sort(struct pcindex *ix)
{
	u64 maxhi = 0;

	if (ix->n > 1)	/* none: r is NULL, which qsort may not take */
		qsort(ix->r, ix->n, sizeof(*ix->r), pcrange_cmp);
	for (size_t i = 0; i < ix->n; i++) {
		if (ix->r[i].hi > maxhi)
			maxhi = ix->r[i].hi;
		ix->r[i].maxhi = maxhi;
	}
}

/* the first entry met (lowest seq) whose range holds pc, or NULL */
static const struct pcrange *pcindex__find(const struct pcindex *ix, u64 pc)
{
	const struct pcrange *best = NULL;
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {	/* the first entry with lo > pc */
		size_t mid = lo + (hi - lo) / 2;

		if (ix->r[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && ix->r[i].maxhi > pc;) {
		const struct pcrange *r = &ix->r[i];

		if (pc < r->hi && (!best || r->seq < best->seq))
			best = r;
	}
	return best;
}

/* sd->building handed over to *ix (emptied) */
static void take_building(struct srcline_dw *sd, struct pcindex *ix)
{
	*ix = sd->building;
	memset(&sd->building, 0, sizeof(sd->building));
}

static int off_cmp(const void *pa, const void *pb)
{
	Dwarf_Off a = *(const Dwarf_Off *)pa, b = *(const Dwarf_Off *)pb;

	return a < b ? -1 : a > b;
}

/* The CU DIEs .debug_aranges lists, sorted (*nr 0: none, or no memory:
 * then every CU is indexed). */
static Dwarf_Off *aranges_cus(Dwarf *dw, size_t *nr)
{
	Dwarf_Aranges *ar;
	Dwarf_Off *offs;
	size_t n, k = 0;

	*nr = 0;
	if (dwarf_getaranges(dw, &ar, &n) || !n)
		return NULL;
	offs = malloc(n * sizeof(*offs));
	if (!offs)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Addr a;
		Dwarf_Word len;
		Dwarf_Off o;

		if (!dwarf_getarangeinfo(dwarf_onearange(ar, i), &a, &len, &o))
			offs[k++] = o;
	}
	qsort(offs, k, sizeof(*offs), off_cmp);
	*nr = k;
	return offs;
}

/*
 * The ranges of the CUs that .debug_aranges does not list, in the order
 * dwarf_nextcu gives them: a CU it lists is taken at its word (its
 * entries there are its ranges; reading every CU's own, thousands in a
 * libc, is what a first miss cost).
 */
static bool make_cu_index(struct srcline_dw *sd)
{
	struct pcindex *b = &sd->building;
	Dwarf_Off off = 0, next, *listed;
	size_t hsize, nr_listed;

	memset(b, 0, sizeof(*b));
	listed = sd->listed = aranges_cus(sd->dw, &nr_listed);
	for (int n = 0; n < MAX_CUS_SCANNED; n++) {
		Dwarf_Off die_off;
		Dwarf_Die cu;

		if (dwarf_nextcu(sd->dw, off, &next, &hsize, NULL, NULL, NULL) ||
		    next <= off)
			break;
		die_off = off + hsize;
		if (nr_listed && bsearch(&die_off, listed, nr_listed,
					 sizeof(*listed), off_cmp)) {
			b->seq++;
		} else if (dwarf_offdie(sd->dw, die_off, &cu)) {
			if (!pcindex__add(b, &cu, 0))
				return false;
		} else {
			b->seq++;
		}
		off = next;
	}
	pcindex__sort(b);
	take_building(sd, &sd->cu_ix);
	return true;
}

static bool cu_of(struct srcline_dw *sd, u64 vaddr, Dwarf_Die *cu)
{
	Dwarf *dw = sd->dw;
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dwarf_addrdie(dw, vaddr, cu))
		return true;
	/* no (or partial) .debug_aranges: the ranges of the CUs it does
	 * not list */
	if (!sd->cu_ix_made && !sd->cu_ix_failed && !sd->no_index) {
		bool made = make_cu_index(sd);

		free(sd->listed);
		sd->listed = NULL;
		if (made) {
			sd->cu_ix_made = true;
		} else {
			sd->cu_ix_failed = true;
			free(sd->building.r);
			memset(&sd->building, 0, sizeof(sd->building));
		}
	}
	if (sd->cu_ix_made) {
		const struct pcrange *r = pcindex__find(&sd->cu_ix, vaddr);

		if (!r)
			return false;
		*cu = r->die;
		return true;
	}
	for (int n = 0; n < MAX_CUS_SCANNED; n++) {
		if (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL))
			return false;
		if (next <= off)
			return false;
		if (dwarf_offdie(dw, off + hsize, cu) &&
		    dwarf_haspc(cu, vaddr) > 0)
			return true;
		off = next;
	}
	return false;
}

/* s (in the mapped file) copied first, so that a fault while reading
 * it leaves the pool as it was; a name is cut at 4 KiB. */
static const char *intern(struct srcline_dw *sd, struct strpool *pool,
			  const char *s)
{
	size_t n;

	if (!s)
		return NULL;
	n = strnlen(s, sizeof(sd->name) - 1);
	memcpy(sd->name, s, n);
	return strpool__intern(pool, sd->name, n);
}

/*
 * A function's name: its linkage name, demangled as the symbols are
 * (demangle: SYMTAB_DEMANGLE, SYMTAB_PARAMS), else DW_AT_name.  The
 * linkage name is the whole path, which perf shows (addr2line -f's name,
 * demangled): Rust's std::panicking::catch_unwind::do_call::<F, R>, C++'s
 * ns::Box<int>::get, where DW_AT_name is the last part (do_call<F, R>).
 * Inlined instances name their function through the origin.  The
 * linkage name is copied out of the mapping (sd->name) before it is
 * demangled.
 */
static const char *die_name(struct srcline_dw *sd, Dwarf_Die *die,
			    struct strpool *pool, unsigned int demangle)
{
	Dwarf_Attribute attr;
	const char *link = NULL;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
		link = dwarf_formstring(&attr);
	if (link && !(demangle & SYMTAB_DEMANGLE))
		return intern(sd, pool, link);
	if (link) {
		struct strbuf sb;
		const char *name = NULL;
		size_t n = strnlen(link, sizeof(sd->name) - 1);

		memcpy(sd->name, link, n);
		sd->name[n] = '\0';
		strbuf__init(&sb);
		if (demangle__name(sd->name, demangle & SYMTAB_PARAMS ?
						 DEMANGLE_PARAMS : 0, &sb) == 1 &&
		    !sb.oom)
			name = strpool__intern(pool, sb.buf, sb.len);
		strbuf__fini(&sb);
		if (name)
			return name;
	}
	if (!dwarf_attr_integrate(die, DW_AT_name, &attr))
		return NULL;
	return intern(sd, pool, dwarf_formstring(&attr));
}

static const char *call_file(struct srcline_dw *sd, Dwarf_Die *die,
			     Dwarf_Die *cu, struct strpool *pool)
{
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	Dwarf_Word idx;
	size_t nr;

	if (!dwarf_attr(die, DW_AT_call_file, &attr) ||
	    dwarf_formudata(&attr, &idx) ||
	    dwarf_getsrcfiles(cu, &files, &nr) || idx >= nr)
		return NULL;
	return intern(sd, pool, dwarf_filesrc(files, idx, NULL, NULL));
}

static int call_line(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;

	if (!dwarf_attr(die, DW_AT_call_line, &attr) ||
	    dwarf_formudata(&attr, &v) || v > INT32_MAX)
		return 0;
	return (int)v;
}

/* The chain of scopes holding a pc, found by walking the CU's DIE tree.
 * Not dwarf_getscopes: it leaks its array when an inlined scope's
 * abstract origin cannot be found, which hostile DWARF arranges. */
#define MAX_SCOPE_DEPTH 64
#define MAX_DIE_VISITS 500000

struct scope_walk {
	u64 pc;
	Dwarf_Die chain[MAX_SCOPE_DEPTH];	/* outermost first */
	int depth;
	unsigned int visits;
};

static bool is_scope(int tag)
{
	switch (tag) {
	case DW_TAG_subprogram:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_entry_point:
	case DW_TAG_lexical_block:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_with_stmt:
		return true;
	default:
		return false;
	}
}

/* code can sit inside these without their having a pc range */
static bool is_container(int tag)
{
	switch (tag) {
	case DW_TAG_namespace:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_module:
		return true;
	default:
		return false;
	}
}

static void walk_scopes(struct scope_walk *w, Dwarf_Die *parent, int level)
{
	Dwarf_Die child, next;

	if (level >= MAX_SCOPE_DEPTH || dwarf_child(parent, &child))
		return;
	for (;;) {
		int tag = dwarf_tag(&child);

		if (++w->visits > MAX_DIE_VISITS)
			return;
		if (is_scope(tag) && dwarf_haspc(&child, w->pc) > 0) {
			if (w->depth < MAX_SCOPE_DEPTH)
				w->chain[w->depth++] = child;
			walk_scopes(w, &child, level + 1);
			return;
		}
		if (is_container(tag)) {
			int before = w->depth;

			walk_scopes(w, &child, level + 1);
			if (w->depth > before)
				return;
		}
		if (dwarf_siblingof(&child, &next))
			return;
		child = next;
	}
}

/* The scope DIEs a walk from the CU's root meets, as walk_scopes meets
 * them (into containers, not into scopes), with their ranges. */
static void index_scopes(struct pcindex *b, Dwarf_Die *parent, int level)
{
	Dwarf_Die child, next;

	if (level >= MAX_SCOPE_DEPTH || dwarf_child(parent, &child))
		return;
	for (;;) {
		int tag = dwarf_tag(&child);

		if (++b->visits > MAX_DIE_VISITS) {
			b->cut = true;
			return;
		}
		if (is_scope(tag)) {
			if (!pcindex__add(b, &child, level)) {
				b->cut = true;
				return;
			}
		} else if (is_container(tag)) {
			index_scopes(b, &child, level + 1);
			if (b->cut)
				return;
		}
		if (dwarf_siblingof(&child, &next))
			return;
		child = next;
	}
}

/* cu's index of functions, made at its first address; NULL: walk it */
static const struct pcindex *cu_funcs(struct srcline_dw *sd, Dwarf_Die *cu)
{
	struct Dwarf_CU *key = cu->cu;
	size_t lo = 0, hi = sd->nr_cus;
	struct cu_funcs *c;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uintptr_t)sd->cus[mid].cu < (uintptr_t)key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < sd->nr_cus && sd->cus[lo].cu == key)
		return sd->cus[lo].ix.cut ? NULL : &sd->cus[lo].ix;
	if (array__grow((void **)&sd->cus, &sd->cap_cus, sd->nr_cus + 1,
			sizeof(*sd->cus)))
		return NULL;
	memset(&sd->building, 0, sizeof(sd->building));
	index_scopes(&sd->building, cu, 0);
	if (sd->building.cut) {
		/* kept as cut, so that it is not made again */
		free(sd->building.r);
		memset(&sd->building, 0, sizeof(sd->building));
		sd->building.cut = true;
	} else {
		pcindex__sort(&sd->building);
	}
	c = &sd->cus[lo];
	memmove(c + 1, c, (sd->nr_cus - lo) * sizeof(*c));
	sd->nr_cus++;
	c->cu = key;
	take_building(sd, &c->ix);
	return c->ix.cut ? NULL : &c->ix;
}

/* walk_scopes from cu's root, through its index when it has one */
static void walk_cu(struct srcline_dw *sd, struct scope_walk *w,
		    Dwarf_Die *cu)
{
	const struct pcindex *ix = sd->no_index ? NULL : cu_funcs(sd, cu);
	const struct pcrange *r;

	if (!ix) {
		walk_scopes(w, cu, 0);
		return;
	}
	r = pcindex__find(ix, w->pc);
	if (!r)
		return;
	/* where the walk would be when it met r's DIE */
	w->visits = r->visits;
	w->chain[w->depth++] = r->die;
	walk_scopes(w, &w->chain[w->depth - 1], r->level + 1);
}

struct lookup_args {
	struct srcline_dw *sd;
	u64 vaddr;
	struct srcline *out;
	size_t max;
	struct strpool *pool;
	unsigned int demangle;
	int n;
};

static int lookup(struct srcline_dw *sd, u64 vaddr, struct srcline *out,
		  size_t max, struct strpool *pool, unsigned int demangle)
{
	bool names = demangle & SRCLINE_NAMES;
	struct scope_walk walk, *w = &walk;	/* 2 KiB */
	Dwarf_Attribute attr;
	Dwarf_Line *line;
	const char *dir;
	Dwarf_Die cu;
	size_t k = 0;
	int lineno = 0;

	if (!cu_of(sd, vaddr, &cu))
		return 0;
	memset(out, 0, sizeof(*out));
	dir = !names && dwarf_attr(&cu, DW_AT_comp_dir, &attr) ?
		      intern(sd, pool, dwarf_formstring(&attr)) :
		      NULL;
	out[0].dir = dir;
	line = names ? NULL : dwarf_getsrc_die(&cu, vaddr);
	if (line) {
		out[0].file = intern(sd, pool,
				     dwarf_linesrc(line, NULL, NULL));
		if (!dwarf_lineno(line, &lineno) && lineno > 0)
			out[0].line = lineno;
	}
	w->pc = vaddr;
	w->depth = 0;
	w->visits = 0;
	if (sd->has_last_fn && sd->last_fn.cu == cu.cu &&
	    dwarf_haspc(&sd->last_fn, vaddr) > 0) {
		w->chain[w->depth++] = sd->last_fn;
		walk_scopes(w, &sd->last_fn, 1);
	} else {
		walk_cu(sd, w, &cu);
		sd->has_last_fn = false;
		for (int i = 0; i < w->depth; i++) {
			if (dwarf_tag(&w->chain[i]) == DW_TAG_subprogram) {
				sd->last_fn = w->chain[i];
				sd->has_last_fn = true;
				break;
			}
		}
	}
	/* innermost first: each inlined scope's call site is a frame */
	for (int i = w->depth - 1; i >= 0; i--) {
		Dwarf_Die *die = &w->chain[i];
		int tag = dwarf_tag(die);

		if (tag == DW_TAG_inlined_subroutine) {
			out[k].func = die_name(sd, die, pool, demangle);
			if (k + 1 >= max)
				break;
			k++;
			out[k].file = names ? NULL : call_file(sd, die, &cu, pool);
			out[k].line = names ? 0 : call_line(die);
			out[k].func = NULL;
			out[k].dir = dir;
		} else if (tag == DW_TAG_subprogram ||
			   tag == DW_TAG_entry_point) {
			out[k].func = die_name(sd, die, pool, demangle);
			break;
		}
	}
	if (!out[0].file && !k)
		return 0;
	return (int)(k + 1);
}

void srcline__no_index(struct srcline_dw *sd)
{
	if (sd)
		sd->no_index = true;
}

static void lookup_guarded(void *arg)
{
	struct lookup_args *a = arg;

	a->n = lookup(a->sd, a->vaddr, a->out, a->max, a->pool,
		      a->demangle);
}

int srcline__lookup(struct srcline_dw *sd, u64 vaddr, struct srcline *out,
		    size_t max, struct strpool *pool, unsigned int demangle)
{
	struct lookup_args a = { sd, vaddr, out, max, pool, demangle, 0 };

	if (!sd || !max || sd->poisoned)
		return sd && sd->poisoned ? -ESTALE : 0;
	if (mapguard__run(&sd->guard, lookup_guarded, &a)) {
		sd->poisoned = true;
		mapguard__keep(sd->dw);
		return -ESTALE;
	}
	/* a file rewritten in place may have mixed two builds' names */
	if (mapguard__changed(&sd->guard))
		return -ESTALE;
	return a.n;
}
