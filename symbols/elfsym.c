/* elfsym: an ELF file's symbols, PLT, segments, build-id and debuglink. */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <lzma.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <string.h>

#include "symbols/ehframe.h"
#include "src/core/elfnote.h"
#include "symbols/elfsym.h"
#include "src/core/log.h"
#include "symbols/symtypes.h"
#include "symbols/symtab.h"

#define PLT_ENTRY 16
/* An .eh_frame found only through PT_GNU_EH_FRAME is read up to the end
 * of its segment, at most this much. */
#define EH_FRAME_MAX (256u << 20)

static void elfsym__init_lib(void)
{
	/* idempotent, and cheap enough to call every time */
	elf_version(EV_CURRENT);
}

static Elf *check_kind(Elf *elf)
{
	if (!elf) {
		errno = EINVAL;
		return NULL;
	}
	if (elf_kind(elf) != ELF_K_ELF || gelf_getclass(elf) == ELFCLASSNONE) {
		elf_end(elf);
		errno = ENOEXEC;
		return NULL;
	}
	return elf;
}

Elf *elfsym__open_fd(int fd)
{
	elfsym__init_lib();
	return check_kind(elf_begin(fd, ELF_C_READ, NULL));
}

/* Mapped, not read: sections are used in place (ELF_C_READ copies every
 * section a lookup touches, .symtab and .debug_* of 100 MB libraries
 * included, into the heap).  libelf reads instead when mmap fails. */
Elf *elfsym__map_fd(int fd)
{
	elfsym__init_lib();
	return check_kind(elf_begin(fd, ELF_C_READ_MMAP, NULL));
}

Elf *elfsym__open_mem(void *image, size_t size)
{
	elfsym__init_lib();
	if (!image || !size) {
		errno = EINVAL;
		return NULL;
	}
	return check_kind(elf_memory(image, size));
}

static bool file_swapped(Elf *elf)
{
	const char *id = elf_getident(elf, NULL);
	int host = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB :
							       ELFDATA2MSB;

	return id && id[EI_DATA] != host;
}

/* Section headers, counted; *nr is 0 when there are none or they are
 * unreadable. */
static void sections(Elf *elf, size_t *nr, size_t *shstrndx)
{
	if (elf_getshdrnum(elf, nr) || elf_getshdrstrndx(elf, shstrndx))
		*nr = 0;
}

static const char *scn_name(Elf *elf, size_t shstrndx, const GElf_Shdr *sh)
{
	const char *n = elf_strptr(elf, shstrndx, sh->sh_name);

	return n ? n : "";
}

bool elfsym__has_section(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) &&
		    !strcmp(scn_name(elf, shstrndx, &sh), name))
			return true;
	return false;
}

/* Section data that is really in the file (not NOBITS, not compressed). */
static Elf_Data *scn_data(Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d;

	if (sh->sh_type == SHT_NOBITS || (sh->sh_flags & SHF_COMPRESSED) ||
	    !sh->sh_size)
		return NULL;
	d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf || !d->d_size)
		return NULL;
	return d;
}

int elfsym__build_id(Elf *elf, u8 *out, size_t max)
{
	size_t nr, shstrndx, nph;
	int n = 0;

	sections(elf, &nr, &shstrndx);
	for (size_t i = 1; i < nr && n <= 0; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr sh;
		Elf_Data *d;

		if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = scn_data(scn, &sh);
		/* libelf converted the note headers to host order */
		if (d)
			n = elfnote__build_id(d->d_buf, d->d_size, false, out,
					      max);
	}
	if (n > 0 || nr > 1 || elf_getphdrnum(elf, &nph))
		return n > 0 ? n : 0;
	/* no sections (stripped headers, some images): PT_NOTE */
	for (size_t i = 0; i < nph && n <= 0; i++) {
		GElf_Phdr ph;
		Elf_Data *d;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE ||
		    !ph.p_filesz || ph.p_filesz > (1u << 20))
			continue;
		d = elf_getdata_rawchunk(elf, (s64)ph.p_offset,
					 (size_t)ph.p_filesz, ELF_T_NHDR);
		if (d && d->d_buf)
			n = elfnote__build_id(d->d_buf, d->d_size, false, out,
					      max);
	}
	return n > 0 ? n : 0;
}

static void read_debuglink(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			   struct elf_info *info)
{
	Elf_Data *d = scn_data(scn, sh);
	const char *name;
	size_t len, crc_off;
	u32 crc;

	if (!d)
		return;
	name = d->d_buf;
	len = strnlen(name, d->d_size);
	crc_off = ALIGN_UP(len + 1, 4);
	if (!len || len >= sizeof(info->debuglink) || crc_off + 4 > d->d_size)
		return;
	/* a file name in the binary's directory, nothing else */
	if (memchr(name, '/', len) || !strcmp(name, "..") ||
	    !strcmp(name, "."))
		return;
	memcpy(&crc, (const char *)d->d_buf + crc_off, 4);
	if (file_swapped(elf))
		crc = __builtin_bswap32(crc);
	memcpy(info->debuglink, name, len);
	info->debuglink[len] = '\0';
	info->debuglink_crc = crc;
}

int elfsym__info(Elf *elf, struct elf_info *info)
{
	size_t nr, shstrndx, nph = 0, readable = 0;
	GElf_Ehdr eh;
	int n;

	memset(info, 0, sizeof(*info));
	if (!gelf_getehdr(elf, &eh))
		return -EINVAL;
	info->machine = eh.e_machine;
	info->type = eh.e_type;
	info->elf_class = (u8)gelf_getclass(elf);
	sections(elf, &nr, &shstrndx);
	if (elf_getphdrnum(elf, &nph))
		nph = 0;
	if (nr <= 1 && !nph)
		return -EINVAL;
	for (size_t i = 0; i < nph; i++) {
		struct elf_load *l = &info->loads[info->nr_loads];
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (info->nr_loads == ELFSYM_MAX_LOADS) {
			pr_debug("elf: more than %d PT_LOAD, rest ignored",
				 ELFSYM_MAX_LOADS);
			break;
		}
		l->offset = ph.p_offset;
		l->vaddr = ph.p_vaddr;
		l->filesz = ph.p_filesz;
		l->memsz = ph.p_memsz;
		l->flags = ph.p_flags;
		info->nr_loads++;
	}
	for (size_t i = 1; i < nr; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		const char *name;
		GElf_Shdr sh;
		bool data;

		if (!scn || !gelf_getshdr(scn, &sh))
			continue;
		readable++;
		data = sh.sh_type != SHT_NOBITS && sh.sh_size;
		name = scn_name(elf, shstrndx, &sh);
		if (sh.sh_type == SHT_SYMTAB && data)
			info->has_symtab = true;
		else if (sh.sh_type == SHT_DYNSYM && data)
			info->has_dynsym = true;
		else if (data && (!strcmp(name, ".debug_info") ||
				  !strcmp(name, ".zdebug_info")))
			info->has_debug_info = true;
		else if (!strcmp(name, ".gnu_debuglink"))
			read_debuglink(elf, scn, &sh, info);
		else if (data && !strcmp(name, ".gnu_debugdata"))
			info->has_minidebug = true;
	}
	/* headers that point past the end (a truncated file) */
	if (!readable && !info->nr_loads)
		return -EINVAL;
	n = elfsym__build_id(elf, info->build_id, sizeof(info->build_id));
	if (n > 0)
		info->build_id_size = (u8)n;
	return 0;
}

/* ---- symbol tables ---- */

struct loader {
	Elf *elf;
	struct symtab *st;
	size_t nr_scns, shstrndx;
	u64 *scn_end;		/* end address of each section, 0: none */
	u8 *scn_text;		/* 1: an allocated section named *text* */
	bool data;		/* ELFSYM_DATA: objects, not functions */
	long added;
	int err;
};

static u64 sym_limit(const struct loader *ld, const GElf_Sym *sym)
{
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE ||
	    sym->st_shndx >= ld->nr_scns || !ld->scn_end)
		return 0;
	return ld->scn_end[sym->st_shndx];
}

static bool is_func(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return (type == STT_FUNC || type == STT_GNU_IFUNC) &&
	       sym->st_shndx != SHN_UNDEF && sym->st_value;
}

/* A code label: a zero-size NOTYPE symbol in a text section, such as
 * ld.so's _start and _dl_start_user (perf's elf_sym__is_label); it
 * covers up to the next symbol. */
static bool is_label(const struct loader *ld, const GElf_Sym *sym)
{
	return GELF_ST_TYPE(sym->st_info) == STT_NOTYPE && !sym->st_size &&
	       sym->st_value && sym->st_shndx != SHN_UNDEF &&
	       sym->st_shndx < SHN_LORESERVE && sym->st_shndx < ld->nr_scns &&
	       ld->scn_text && ld->scn_text[sym->st_shndx];
}

/* Data a %rip-relative operand may name: not TLS (offsets in the
 * thread's block), not absolute values. */
static bool is_object(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return (type == STT_OBJECT || type == STT_COMMON) &&
	       sym->st_shndx != SHN_UNDEF && sym->st_shndx != SHN_ABS &&
	       sym->st_shndx != SHN_COMMON && sym->st_value;
}

static enum symtab_bind bind_of(const GElf_Sym *sym)
{
	switch (GELF_ST_BIND(sym->st_info)) {
	case STB_GLOBAL:
	case STB_GNU_UNIQUE:
		return SYMTAB_BIND_GLOBAL;
	case STB_WEAK:
		return SYMTAB_BIND_WEAK;
	default:
		return SYMTAB_BIND_LOCAL;
	}
}

/* Name st_name of a string table's data, NUL-terminated inside it. */
static const char *str_at(const Elf_Data *strs, u64 off, size_t *len)
{
	const char *s;

	if (!strs || off >= strs->d_size)
		return NULL;
	s = (const char *)strs->d_buf + off;
	*len = strnlen(s, strs->d_size - (size_t)off);
	if (*len == strs->d_size - off || !*len)
		return NULL;
	return s;
}

static void load_syms(struct loader *ld, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Scn *str_scn = elf_getscn(ld->elf, sh->sh_link);
	GElf_Shdr str_sh;
	Elf_Data *syms, *strs;
	size_t entsize = gelf_fsize(ld->elf, ELF_T_SYM, 1, EV_CURRENT), n;

	if (!str_scn || !gelf_getshdr(str_scn, &str_sh) ||
	    str_sh.sh_type != SHT_STRTAB)
		return;
	syms = scn_data(scn, sh);
	strs = scn_data(str_scn, &str_sh);
	if (!syms || !strs || !entsize)
		return;
	n = syms->d_size / entsize;
	/* at most every one (the size is the file's word: capped) */
	symtab__reserve(ld->st, MIN(n, (size_t)1 << 22));
	for (size_t i = 1; i < n && !ld->err; i++) {
		const char *name;
		size_t len;
		GElf_Sym sym;

		if (!gelf_getsym(syms, (int)i, &sym) ||
		    !(ld->data ? is_object(&sym) :
				 is_func(&sym) || is_label(ld, &sym)))
			continue;
		name = str_at(strs, sym.st_name, &len);
		if (!name)
			continue;
		ld->err = symtab__add(ld->st, sym.st_value, sym.st_size,
				      sym_limit(ld, &sym), name, len, 0,
				      bind_of(&sym), 0);
		if (!ld->err)
			ld->added++;
	}
}

/* ---- PLT (x86-64) ---- */

struct got_rel {
	u64 got;	/* r_offset: the GOT slot the stub jumps through */
	u64 addend;	/* IRELATIVE: the IFUNC resolver's address */
	u32 sym;	/* .dynsym index; 0 for IRELATIVE */
	bool irel;
};

static int got_rel__cmp(const void *a, const void *b)
{
	const struct got_rel *x = a, *y = b;

	return x->got < y->got ? -1 : x->got > y->got;
}

/* An IFUNC symbol: what an IRELATIVE PLT entry is named after. */
struct ifunc {
	u64 addr;
	const char *name;
	size_t len;
	enum symtab_bind bind;
};

static int ifunc__cmp(const void *a, const void *b)
{
	const struct ifunc *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct plt_ctx {
	struct got_rel *rels;
	size_t nr_rels;
	Elf_Data *dynsym, *dynstr;
	struct ifunc *ifuncs;	/* sorted by addr; one per addr */
	size_t nr_ifuncs;
	bool ifuncs_read;
	struct strbuf name;
};

static Elf_Scn *find_scn(struct loader *ld, const char *want, GElf_Shdr *sh)
{
	for (size_t i = 1; i < ld->nr_scns; i++) {
		Elf_Scn *scn = elf_getscn(ld->elf, i);

		if (scn && gelf_getshdr(scn, sh) &&
		    !strcmp(scn_name(ld->elf, ld->shstrndx, sh), want))
			return scn;
	}
	return NULL;
}

/* Collects relocations of type `type` from the RELA section `name`, and
 * with irel its R_X86_64_IRELATIVE ones (PLT entries of IFUNCs that bind
 * locally: libc's own calls to memcpy, strlen...). */
static int collect_rels(struct loader *ld, struct plt_ctx *pc,
			const char *name, u32 type, bool irel)
{
	GElf_Shdr sh, dsh, ssh;
	Elf_Scn *scn = find_scn(ld, name, &sh), *dyn, *str;
	Elf_Data *d;
	size_t entsize, n, cap = pc->nr_rels;

	if (!scn || sh.sh_type != SHT_RELA)
		return 0;
	dyn = elf_getscn(ld->elf, sh.sh_link);
	if (!dyn || !gelf_getshdr(dyn, &dsh) || dsh.sh_type != SHT_DYNSYM)
		return 0;
	str = elf_getscn(ld->elf, dsh.sh_link);
	if (!str || !gelf_getshdr(str, &ssh) || ssh.sh_type != SHT_STRTAB)
		return 0;
	pc->dynsym = scn_data(dyn, &dsh);
	pc->dynstr = scn_data(str, &ssh);
	d = scn_data(scn, &sh);
	entsize = gelf_fsize(ld->elf, ELF_T_RELA, 1, EV_CURRENT);
	if (!d || !pc->dynsym || !pc->dynstr || !entsize)
		return 0;
	n = d->d_size / entsize;
	for (size_t i = 0; i < n; i++) {
		bool is_irel;
		GElf_Rela r;

		if (!gelf_getrela(d, (int)i, &r))
			continue;
		is_irel = irel && GELF_R_TYPE(r.r_info) == R_X86_64_IRELATIVE;
		if (!is_irel && (GELF_R_TYPE(r.r_info) != type ||
				 !GELF_R_SYM(r.r_info)))
			continue;
		if (array__grow((void **)&pc->rels, &cap, pc->nr_rels + 1,
				sizeof(*pc->rels)))
			return -ENOMEM;
		pc->rels[pc->nr_rels] = (struct got_rel){
			.got = r.r_offset,
			.addend = (u64)r.r_addend,
			.sym = (u32)GELF_R_SYM(r.r_info),
			.irel = is_irel,
		};
		pc->nr_rels++;
	}
	return 0;
}

static const struct got_rel *rel_for_got(const struct plt_ctx *pc, u64 got)
{
	struct got_rel key = { .got = got };

	return bsearch(&key, pc->rels, pc->nr_rels, sizeof(key),
		       got_rel__cmp);
}

/* Is a a better name than b for their IFUNC (symtab's alias rule)? */
static bool ifunc__better(const struct ifunc *a, const struct ifunc *b)
{
	size_t ua = 0, ub = 0;

	if ((a->bind == SYMTAB_BIND_WEAK) != (b->bind == SYMTAB_BIND_WEAK))
		return b->bind == SYMTAB_BIND_WEAK;
	if ((a->bind == SYMTAB_BIND_GLOBAL) != (b->bind == SYMTAB_BIND_GLOBAL))
		return a->bind == SYMTAB_BIND_GLOBAL;
	while (ua < a->len && a->name[ua] == '_')
		ua++;
	while (ub < b->len && b->name[ub] == '_')
		ub++;
	if (ua != ub)
		return ua < ub;
	return a->len > b->len;
}

/* The IFUNC symbols of .symtab, else .dynsym, one per address. */
static int read_ifuncs(struct loader *ld, struct plt_ctx *pc)
{
	size_t entsize = gelf_fsize(ld->elf, ELF_T_SYM, 1, EV_CURRENT);
	Elf_Data *syms = NULL, *strs = NULL;
	size_t n, cap = 0, out = 0;

	pc->ifuncs_read = true;
	for (int want = SHT_SYMTAB; !syms && want; want = want == SHT_SYMTAB ?
						      SHT_DYNSYM : 0) {
		for (size_t i = 1; i < ld->nr_scns && !syms; i++) {
			Elf_Scn *scn = elf_getscn(ld->elf, i), *ss;
			GElf_Shdr sh, ssh;

			if (!scn || !gelf_getshdr(scn, &sh) ||
			    sh.sh_type != (u32)want)
				continue;
			ss = elf_getscn(ld->elf, sh.sh_link);
			if (!ss || !gelf_getshdr(ss, &ssh) ||
			    ssh.sh_type != SHT_STRTAB)
				continue;
			syms = scn_data(scn, &sh);
			strs = scn_data(ss, &ssh);
			if (!strs)
				syms = NULL;
		}
	}
	if (!syms || !entsize)
		return 0;
	n = syms->d_size / entsize;
	for (size_t i = 1; i < n; i++) {
		struct ifunc f;
		GElf_Sym sym;

		if (!gelf_getsym(syms, (int)i, &sym) ||
		    GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		f.name = str_at(strs, sym.st_name, &f.len);
		if (!f.name)
			continue;
		f.addr = sym.st_value;
		f.bind = bind_of(&sym);
		if (array__grow((void **)&pc->ifuncs, &cap, pc->nr_ifuncs + 1,
				sizeof(*pc->ifuncs)))
			return -ENOMEM;
		pc->ifuncs[pc->nr_ifuncs++] = f;
	}
	if (!pc->nr_ifuncs)
		return 0;
	qsort(pc->ifuncs, pc->nr_ifuncs, sizeof(*pc->ifuncs), ifunc__cmp);
	for (size_t i = 0; i < pc->nr_ifuncs; i++) {
		if (out && pc->ifuncs[out - 1].addr == pc->ifuncs[i].addr) {
			if (ifunc__better(&pc->ifuncs[i], &pc->ifuncs[out - 1]))
				pc->ifuncs[out - 1] = pc->ifuncs[i];
			continue;
		}
		pc->ifuncs[out++] = pc->ifuncs[i];
	}
	pc->nr_ifuncs = out;
	return 0;
}

/* The GOT slot an x86-64 stub jumps through: "jmp *disp32(%rip)" is
 * ff 25, perhaps after endbr64 or a bnd prefix. */
static bool stub_got(const u8 *code, size_t len, u64 vaddr, u64 *got)
{
	for (size_t k = 0; k + 6 <= len; k++) {
		s32 disp;

		if (code[k] != 0xff || code[k + 1] != 0x25)
			continue;
		memcpy(&disp, code + k + 2, 4);
		*got = vaddr + k + 6 + (u64)(s64)disp;
		return true;
	}
	return false;
}

/*
 * Puts the name of the relocation's target and suffix in pc->name: its
 * .dynsym name, or for an IRELATIVE one the IFUNC symbol at its addend
 * ("strlen@plt" for libc's calls to its own strlen, as newer perf names
 * them; perf 6.1 shows "@plt"), else objdump's "*ABS*+0xADDR@plt".
 * false when there is no name.
 */
static bool rel_name(struct loader *ld, struct plt_ctx *pc,
		     const struct got_rel *r, const char *suffix)
{
	size_t entsize = gelf_fsize(ld->elf, ELF_T_SYM, 1, EV_CURRENT);
	const char *name = NULL;
	size_t len = 0;
	GElf_Sym sym;

	strbuf__reset(&pc->name);
	if (r->irel) {
		struct ifunc key = { .addr = r->addend };
		const struct ifunc *f;

		if (!pc->ifuncs_read && read_ifuncs(ld, pc)) {
			ld->err = -ENOMEM;
			return false;
		}
		f = pc->nr_ifuncs ? bsearch(&key, pc->ifuncs, pc->nr_ifuncs,
					   sizeof(key), ifunc__cmp) :
				    NULL;
		if (f)
			strbuf__add(&pc->name, f->name, f->len);
		else
			strbuf__addf(&pc->name, "*ABS*+0x%" PRIx64, r->addend);
	} else {
		if (!entsize || r->sym >= pc->dynsym->d_size / entsize ||
		    !gelf_getsym(pc->dynsym, (int)r->sym, &sym))
			return false;
		name = str_at(pc->dynstr, sym.st_name, &len);
		if (!name)
			return false;
		strbuf__add(&pc->name, name, len);
	}
	strbuf__adds(&pc->name, suffix);
	if (pc->name.oom) {
		ld->err = -ENOMEM;
		return false;
	}
	return true;
}

/* A symbol "name<suffix>" at start, named by relocation r. */
static void add_rel_sym(struct loader *ld, struct plt_ctx *pc, u64 start,
			u64 size, const struct got_rel *r, const char *suffix,
			u32 flags)
{
	if (!rel_name(ld, pc, r, suffix))
		return;
	ld->err = symtab__add(ld->st, start, size, 0, pc->name.buf,
			      pc->name.len, flags, SYMTAB_BIND_LOCAL, 0);
	if (!ld->err)
		ld->added++;
}

/* Names each stub of scn by the relocation of the GOT slot it jumps
 * through; `first` stubs are skipped (PLT0), and a stub that does not
 * decode (the lazy-binding entries of .plt beside .plt.sec) falls back on
 * its index: lazy .plt order is .rela.plt order. */
static void name_stubs(struct loader *ld, struct plt_ctx *pc, Elf_Scn *scn,
		       const GElf_Shdr *sh, size_t entry, size_t first,
		       const struct got_rel *by_index, size_t nr_index)
{
	Elf_Data *d = scn_data(scn, sh);
	size_t n;

	if (!d || !entry)
		return;
	n = d->d_size / entry;
	for (size_t i = first; i < n && !ld->err; i++) {
		u64 vaddr = sh->sh_addr + i * entry, got;
		const struct got_rel *r = NULL;

		if (stub_got((const u8 *)d->d_buf + i * entry, entry, vaddr,
			     &got))
			r = rel_for_got(pc, got);
		if (!r && by_index && i - first < nr_index)
			r = &by_index[i - first];
		if (r)
			add_rel_sym(ld, pc, vaddr, entry, r, "@plt",
				    SYM_F_PLT);
	}
}

static void load_plt(struct loader *ld)
{
	struct plt_ctx pc = { 0 };
	GElf_Shdr plt_sh, sec_sh, got_sh;
	Elf_Scn *plt, *sec, *pltgot;
	struct got_rel *by_index = NULL;
	size_t nr_index;

	strbuf__init(&pc.name);
	if (collect_rels(ld, &pc, ".rela.plt", R_X86_64_JUMP_SLOT, true))
		goto nomem;
	/* relocation order, before sorting by GOT slot */
	nr_index = pc.nr_rels;
	if (nr_index) {
		by_index = malloc(nr_index * sizeof(*by_index));
		if (!by_index)
			goto nomem;
		memcpy(by_index, pc.rels, nr_index * sizeof(*by_index));
	}
	pltgot = find_scn(ld, ".plt.got", &got_sh);
	if (pltgot &&
	    collect_rels(ld, &pc, ".rela.dyn", R_X86_64_GLOB_DAT, false))
		goto nomem;
	if (!pc.nr_rels)
		goto out;
	qsort(pc.rels, pc.nr_rels, sizeof(*pc.rels), got_rel__cmp);
	plt = find_scn(ld, ".plt", &plt_sh);
	sec = find_scn(ld, ".plt.sec", &sec_sh);
	/* IBT: the stubs called are in .plt.sec; .plt's entries bind them
	 * lazily on their first call */
	if (sec)
		name_stubs(ld, &pc, sec, &sec_sh, PLT_ENTRY, 0, NULL, 0);
	if (plt)
		name_stubs(ld, &pc, plt, &plt_sh, PLT_ENTRY, 1, by_index,
			   nr_index);
	if (pltgot)
		name_stubs(ld, &pc, pltgot, &got_sh,
			   got_sh.sh_entsize == 16 ? 16 : 8, 0, NULL, 0);
	goto out;
nomem:
	ld->err = -ENOMEM;
out:
	free(by_index);
	free(pc.rels);
	free(pc.ifuncs);
	strbuf__fini(&pc.name);
}

/* GOT slots named by their relocations, "name@got": what a PLT stub,
 * a -fno-plt call or a library's access to a global loads through. */
static void load_got(struct loader *ld)
{
	struct plt_ctx pc = { 0 };

	strbuf__init(&pc.name);
	if (collect_rels(ld, &pc, ".rela.plt", R_X86_64_JUMP_SLOT, true) ||
	    collect_rels(ld, &pc, ".rela.dyn", R_X86_64_GLOB_DAT, false))
		ld->err = -ENOMEM;
	for (size_t i = 0; i < pc.nr_rels && !ld->err; i++)
		add_rel_sym(ld, &pc, pc.rels[i].got, 8, &pc.rels[i], "@got",
			    0);
	free(pc.rels);
	free(pc.ifuncs);
	strbuf__fini(&pc.name);
}

/* ---- .eh_frame ---- */

static int add_fde(u64 start, u64 end, void *arg)
{
	struct loader *ld = arg;

	ld->err = symtab__add(ld->st, start, end - start, 0, NULL, 0,
			      SYM_F_SYNTH, SYMTAB_BIND_SYNTH, 0);
	if (ld->err)
		return 1;
	ld->added++;
	return 0;
}

/* The file data at [vaddr, end of its segment), for an .eh_frame found
 * through PT_GNU_EH_FRAME only. */
static Elf_Data *segment_tail(Elf *elf, u64 vaddr)
{
	size_t nph;

	if (elf_getphdrnum(elf, &nph))
		return NULL;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		u64 off, len;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    vaddr < ph.p_vaddr || vaddr - ph.p_vaddr >= ph.p_filesz)
			continue;
		off = ph.p_offset + (vaddr - ph.p_vaddr);
		len = MIN(ph.p_filesz - (vaddr - ph.p_vaddr),
			  (u64)EH_FRAME_MAX);
		if (off < ph.p_offset)
			return NULL;
		return elf_getdata_rawchunk(elf, (s64)off, (size_t)len,
					    ELF_T_BYTE);
	}
	return NULL;
}

/* The .eh_frame of ld->elf (its section, else PT_GNU_EH_FRAME's
 * .eh_frame_hdr: a stripped file), and its address in src.vaddr. */
static Elf_Data *find_ehframe(struct loader *ld, struct ehframe_src *src)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_scn(ld, ".eh_frame", &sh);
	Elf_Data *d = scn ? scn_data(scn, &sh) : NULL;
	size_t nph;

	src->addr_size = gelf_getclass(ld->elf) == ELFCLASS32 ? 4 : 8;
	src->swap = file_swapped(ld->elf);
	if (d) {
		src->vaddr = sh.sh_addr;
	} else if (!elf_getphdrnum(ld->elf, &nph)) {
		/* no section headers: PT_GNU_EH_FRAME -> .eh_frame_hdr */
		for (size_t i = 0; i < nph && !d; i++) {
			Elf_Data *hdr;
			GElf_Phdr ph;
			u64 target;

			if (!gelf_getphdr(ld->elf, (int)i, &ph) ||
			    ph.p_type != PT_GNU_EH_FRAME || ph.p_filesz < 4 ||
			    ph.p_filesz > (64u << 20))
				continue;
			hdr = elf_getdata_rawchunk(ld->elf, (s64)ph.p_offset,
						   (size_t)ph.p_filesz,
						   ELF_T_BYTE);
			if (!hdr || ehframe__hdr_target(hdr->d_buf,
							hdr->d_size,
							ph.p_vaddr,
							src->addr_size,
							src->swap, &target))
				continue;
			d = segment_tail(ld->elf, target);
			src->vaddr = target;
		}
	}
	if (!d || !d->d_buf)
		return NULL;
	src->data = d->d_buf;
	src->size = d->d_size;
	return d;
}

static void load_ehframe(struct loader *ld)
{
	struct ehframe_src src;
	Elf_Data *d = find_ehframe(ld, &src);

	if (!d)
		return;
	/* an FDE takes 20 bytes at least, 24-40 in most files */
	symtab__reserve_ranges(ld->st, MIN(d->d_size / 24, (size_t)1 << 22));
	ehframe__for_each_fde(&src, add_fde, ld);
}

/* A malloc'd copy of n bytes. */
static u8 *copy_bytes(const void *p, size_t n)
{
	u8 *c = malloc(n ? n : 1);

	if (c && n)
		memcpy(c, p, n);
	return c;
}

/* A copy of .eh_frame_hdr, the segment PT_GNU_EH_FRAME points at (the
 * loader's own way to it): missing is no error. */
static void eh_frame_hdr(Elf *elf, struct elf_cfi *cfi)
{
	size_t nph;

	if (elf_getphdrnum(elf, &nph))
		return;
	for (size_t i = 0; i < nph; i++) {
		Elf_Data *hdr;
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) ||
		    ph.p_type != PT_GNU_EH_FRAME || ph.p_filesz < 4 ||
		    ph.p_filesz > (64u << 20))
			continue;
		hdr = elf_getdata_rawchunk(elf, (s64)ph.p_offset,
					   (size_t)ph.p_filesz, ELF_T_BYTE);
		if (!hdr || !hdr->d_buf)
			continue;
		cfi->hdr = copy_bytes(hdr->d_buf, hdr->d_size);
		if (cfi->hdr) {
			cfi->hdr_size = hdr->d_size;
			cfi->hdr_vaddr = ph.p_vaddr;
		}
		return;
	}
}

int elfsym__cfi(Elf *elf, struct elf_cfi *cfi)
{
	struct loader ld = { .elf = elf };
	struct ehframe_src src;
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Chdr ch;

	memset(cfi, 0, sizeof(*cfi));
	if (!elf)
		return -EINVAL;
	sections(elf, &ld.nr_scns, &ld.shstrndx);
	d = find_ehframe(&ld, &src);
	cfi->addr_size = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;
	cfi->swap = file_swapped(elf);
	if (d) {
		cfi->eh = copy_bytes(src.data, src.size);
		if (!cfi->eh)
			return -ENOMEM;
		cfi->eh_size = src.size;
		cfi->eh_vaddr = src.vaddr;
		eh_frame_hdr(elf, cfi);
	}
	/* Go's binaries have no .eh_frame: .debug_frame, compressed
	 * (SHF_COMPRESSED, or GNU's .zdebug_frame before Go 1.12) */
	scn = find_scn(&ld, ".debug_frame", &sh);
	if (!scn && (scn = find_scn(&ld, ".zdebug_frame", &sh)) &&
	    elf_compress_gnu(scn, 0, 0) < 0)
		scn = NULL;
	if (scn && (sh.sh_flags & SHF_COMPRESSED) &&
	    (!gelf_getchdr(scn, &ch) || ch.ch_size > EH_FRAME_MAX ||
	     elf_compress(scn, 0, 0) < 0))
		scn = NULL;
	if (scn && gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS &&
	    sh.sh_size && sh.sh_size <= EH_FRAME_MAX &&
	    (d = elf_getdata(scn, NULL)) && d->d_buf && d->d_size) {
		cfi->dbg = copy_bytes(d->d_buf, d->d_size);
		if (!cfi->dbg) {
			elfsym__cfi_free(cfi);
			return -ENOMEM;
		}
		cfi->dbg_size = d->d_size;
	}
	return 0;
}

void elfsym__cfi_free(struct elf_cfi *cfi)
{
	free(cfi->eh);
	free(cfi->hdr);
	free(cfi->dbg);
	memset(cfi, 0, sizeof(*cfi));
}

/* ---- MiniDebugInfo ---- */

/* Fedora's are tens of KiB; these bound a hostile one. */
#define MINIDEBUG_MAX_IN (64u << 20)
#define MINIDEBUG_MAX_OUT (256u << 20)
#define MINIDEBUG_MEMLIMIT (128u << 20)

/* An xz stream, whole, into a malloc'd buffer; NULL when it is not one,
 * is cut, or would inflate past max. */
static void *unxz(const u8 *in, size_t n, size_t max, size_t *out_size)
{
	lzma_stream strm = LZMA_STREAM_INIT;
	size_t cap = 0;
	u8 *buf = NULL;
	lzma_ret r;

	if (lzma_stream_decoder(&strm, MINIDEBUG_MEMLIMIT, 0) != LZMA_OK)
		return NULL;
	strm.next_in = in;
	strm.avail_in = n;
	for (;;) {
		if (!strm.avail_out) {
			size_t used = cap, ncap = cap ? cap * 2 : 1u << 16;
			u8 *p;

			if (cap >= max)
				goto fail;
			ncap = MIN(MAX(ncap, n * 4), max);
			p = realloc(buf, ncap);
			if (!p)
				goto fail;
			buf = p;
			cap = ncap;
			strm.next_out = buf + used;
			strm.avail_out = cap - used;
		}
		r = lzma_code(&strm, LZMA_FINISH);
		if (r == LZMA_STREAM_END)
			break;
		if (r != LZMA_OK)
			goto fail;
	}
	*out_size = (size_t)strm.total_out;
	lzma_end(&strm);
	return buf;
fail:
	lzma_end(&strm);
	free(buf);
	return NULL;
}

/* The functions of .gnu_debugdata's symbol table (its data objects with
 * ELFSYM_DATA), at the same virtual addresses as the binary's. */
static void load_minidebug(struct loader *ld)
{
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;
	size_t size;
	Elf *mini;
	void *img;
	long n;

	scn = find_scn(ld, ".gnu_debugdata", &sh);
	d = scn ? scn_data(scn, &sh) : NULL;
	if (!d || d->d_size > MINIDEBUG_MAX_IN)
		return;
	img = unxz(d->d_buf, d->d_size, MINIDEBUG_MAX_OUT, &size);
	if (!img) {
		pr_debug("elf: .gnu_debugdata is not a usable xz stream");
		return;
	}
	/* its own .gnu_debugdata is not asked for: no recursion */
	mini = elfsym__open_mem(img, size);
	if (mini) {
		n = elfsym__load(mini, ld->st,
				 ELFSYM_SYMTAB | (ld->data ? ELFSYM_DATA : 0));
		if (n < 0)
			ld->err = (int)n;
		else
			ld->added += n;
		elf_end(mini);
	} else {
		pr_debug("elf: .gnu_debugdata holds no ELF image");
	}
	free(img);
}

long elfsym__load(Elf *elf, struct symtab *st, unsigned int what)
{
	struct loader ld = { .elf = elf, .st = st,
			     .data = what & ELFSYM_DATA };
	GElf_Ehdr eh;

	sections(elf, &ld.nr_scns, &ld.shstrndx);
	if (ld.nr_scns) {
		ld.scn_end = calloc(ld.nr_scns, sizeof(*ld.scn_end));
		ld.scn_text = calloc(ld.nr_scns, 1);
		if (!ld.scn_end || !ld.scn_text) {
			free(ld.scn_end);
			free(ld.scn_text);
			return -ENOMEM;
		}
	}
	for (size_t i = 1; i < ld.nr_scns; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh) ||
		    !(sh.sh_flags & SHF_ALLOC))
			continue;
		ld.scn_end[i] = sh.sh_addr + sh.sh_size < sh.sh_addr ?
					UINT64_MAX :
					sh.sh_addr + sh.sh_size;
		/* perf's elf_sec__is_text: the name says "text" */
		ld.scn_text[i] = strstr(scn_name(elf, ld.shstrndx, &sh),
					"text") != NULL;
	}
	for (size_t i = 1; i < ld.nr_scns && !ld.err; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh))
			continue;
		if ((sh.sh_type == SHT_SYMTAB && (what & ELFSYM_SYMTAB)) ||
		    (sh.sh_type == SHT_DYNSYM && (what & ELFSYM_DYNSYM)))
			load_syms(&ld, scn, &sh);
	}
	if (!ld.err && (what & ELFSYM_MINIDEBUG))
		load_minidebug(&ld);
	if (!ld.err && (what & (ELFSYM_PLT | ELFSYM_GOT)) &&
	    gelf_getehdr(elf, &eh) && eh.e_machine == EM_X86_64) {
		if (what & ELFSYM_PLT)
			load_plt(&ld);
		if (!ld.err && (what & ELFSYM_GOT))
			load_got(&ld);
	}
	if (!ld.err && (what & ELFSYM_EHFRAME))
		load_ehframe(&ld);
	free(ld.scn_end);
	free(ld.scn_text);
	return ld.err ? ld.err : ld.added;
}

/* ---- address conversion ---- */

int elfsym__to_vaddr(const struct elf_info *info, u64 off, u64 *vaddr)
{
	if (!info->nr_loads) {
		*vaddr = off;
		return 0;
	}
	/* exact file ranges, executable segments first; then the page
	 * before a segment's start, which its mapping also covers */
	for (int pass = 0; pass < 3; pass++) {
		for (u32 i = 0; i < info->nr_loads; i++) {
			const struct elf_load *l = &info->loads[i];
			u64 lo = pass == 2 ? l->offset & ~(u64)4095 : l->offset;
			bool exec = l->flags & PF_X;

			if ((pass == 0 && !exec) || (pass == 1 && exec))
				continue;
			if (off >= lo &&
			    off - lo < (l->offset - lo) + l->filesz) {
				*vaddr = l->vaddr + (off - l->offset);
				return 0;
			}
		}
	}
	return -ENOENT;
}

int elfsym__from_vaddr(const struct elf_info *info, u64 vaddr, u64 *off)
{
	if (!info->nr_loads) {
		*off = vaddr;
		return 0;
	}
	for (int pass = 0; pass < 2; pass++) {
		for (u32 i = 0; i < info->nr_loads; i++) {
			const struct elf_load *l = &info->loads[i];

			bool exec = l->flags & PF_X;

			if (exec == (pass == 1))
				continue;
			if (vaddr >= l->vaddr &&
			    vaddr - l->vaddr < MAX(l->memsz, l->filesz)) {
				*off = l->offset + (vaddr - l->vaddr);
				return 0;
			}
		}
	}
	return -ENOENT;
}

void *elfsym__own_vdso(size_t *size)
{
	const u8 *base = (const u8 *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	const Elf64_Phdr *phs;
	u64 end = 0, sh_end;
	void *copy;

	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(Elf64_Phdr))
		return NULL;
	phs = (const Elf64_Phdr *)(base + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++)
		if (phs[i].p_type == PT_LOAD)
			end = MAX(end, phs[i].p_offset + phs[i].p_filesz);
	if (!end || end > ELFSYM_VDSO_MAX)
		return NULL;
	/* The section headers follow the loaded part, within its last page
	 * (the mapping is whole pages); without them there is no .dynsym. */
	sh_end = eh->e_shoff + (u64)eh->e_shnum * eh->e_shentsize;
	if (sh_end > end && sh_end <= ALIGN_UP(end, (u64)4096))
		end = sh_end;
	copy = malloc(end);
	if (copy) {
		memcpy(copy, base, end);
		*size = end;
	}
	return copy;
}
