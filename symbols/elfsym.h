/* elfsym: an ELF file's symbols, PLT, segments, build-id and debuglink. */
#ifndef PTOP_ELFSYM_H
#define PTOP_ELFSYM_H

#include <libelf.h>

#include "src/core/dso.h"
#include "src/core/util.h"

struct symtab;

#define ELFSYM_MAX_LOADS 16
#define ELFSYM_DEBUGLINK_MAX 256

struct elf_load {
	u64 offset, vaddr, filesz, memsz;
	u32 flags;		/* PF_X, ... */
};

/* What one ELF file says about itself (headers and small sections). */
struct elf_info {
	struct elf_load loads[ELFSYM_MAX_LOADS];
	u32 nr_loads;
	u8 build_id[BUILD_ID_MAX];
	u8 build_id_size;
	char debuglink[ELFSYM_DEBUGLINK_MAX];	/* "" if none */
	u32 debuglink_crc;
	bool has_symtab;	/* a .symtab with data */
	bool has_dynsym;
	bool has_debug_info;	/* .debug_info with data (not NOBITS) */
	bool has_minidebug;	/* .gnu_debugdata (MiniDebugInfo) */
	u16 machine, type;	/* e_machine, e_type */
	u8 elf_class;		/* ELFCLASS32/64 */
};

/* What elfsym__load adds. */
enum elfsym_what {
	ELFSYM_SYMTAB = 1 << 0,	 /* .symtab functions */
	ELFSYM_DYNSYM = 1 << 1,	 /* .dynsym functions */
	ELFSYM_PLT = 1 << 2,	 /* name@plt stubs (x86-64) */
	ELFSYM_EHFRAME = 1 << 3, /* .eh_frame ranges as synthetic symbols,
				  * where no real symbol is */
	/* The data a %rip-relative operand refers to (annotate), in a
	 * table of its own: */
	ELFSYM_DATA = 1 << 4,	 /* with SYMTAB/DYNSYM: their data objects
				  * (STT_OBJECT, STT_COMMON), not their
				  * functions */
	ELFSYM_GOT = 1 << 5,	 /* name@got GOT slots (x86-64) */
	ELFSYM_MINIDEBUG = 1 << 6, /* the .symtab of .gnu_debugdata, the
				    * xz-compressed ELF that Fedora's
				    * strip leaves (MiniDebugInfo) */
};

/*
 * Opens fd (kept open by the caller while the Elf lives: sections are
 * read on demand with pread, so nothing is mapped and a file truncated
 * under us gives read errors, not SIGBUS) or an in-memory image (which
 * must stay valid and writable: libelf may convert in place).  Both
 * return NULL with errno set (ENOEXEC: not ELF).  Free with elf_end().
 */
Elf *elfsym__open_fd(int fd);
/* The file mapped (ELF_C_READ_MMAP) instead of read section by section
 * into the heap: what loading symbols and DWARF use.  A file truncated
 * while mapped faults (SIGBUS) where a read would fail, so a long-lived
 * handle must check its file (the symbolizer does at each tick), and the
 * unwinder, which keeps its files open for the whole run, reads. */
Elf *elfsym__map_fd(int fd);
Elf *elfsym__open_mem(void *image, size_t size);

/* Fills info from elf's headers: 0, or -EINVAL when the section and
 * program headers are both unreadable or absent (not a usable file). */
int elfsym__info(Elf *elf, struct elf_info *info);

/* Whether elf has a section of that name (the section headers only). */
bool elfsym__has_section(Elf *elf, const char *name);

/* Just the build-id (cheap; for verifying a candidate file): its size,
 * 0 if none, or -errno. */
int elfsym__build_id(Elf *elf, u8 *out, size_t max);

/* Adds the symbols selected by what (enum elfsym_what) to st, as ELF
 * virtual addresses.  Returns how many were added or -ENOMEM. */
long elfsym__load(Elf *elf, struct symtab *st, unsigned int what);

/* File offset <-> ELF vaddr through the PT_LOAD headers (identity when
 * there are none).  0 or -ENOENT when no segment holds the address. */
int elfsym__to_vaddr(const struct elf_info *info, u64 off, u64 *vaddr);
int elfsym__from_vaddr(const struct elf_info *info, u64 vaddr, u64 *off);

/*
 * The call frame information of elf, for the recovery of frame-pointer
 * chains: malloc'd copies of .eh_frame (found through the section
 * headers, else PT_GNU_EH_FRAME: a stripped file) and of its
 * .eh_frame_hdr (PT_GNU_EH_FRAME's segment) with their addresses, and
 * of .debug_frame, inflated when compressed (Go's: SHF_COMPRESSED, or
 * .zdebug_frame).  0 (either may be missing), -EINVAL, -ENOMEM.
 */
struct elf_cfi {
	u8 *eh;
	size_t eh_size;
	u64 eh_vaddr;
	u8 *hdr;		/* .eh_frame_hdr (PT_GNU_EH_FRAME) */
	size_t hdr_size;
	u64 hdr_vaddr;
	u8 *dbg;
	size_t dbg_size;
	u8 addr_size;
	bool swap;
};
int elfsym__cfi(Elf *elf, struct elf_cfi *cfi);
void elfsym__cfi_free(struct elf_cfi *cfi);

/* A malloc'd copy of this process's vdso (the kernel maps the same image
 * into every 64-bit process), its section headers included when they fit
 * in its last page; NULL when there is none or it is over
 * ELFSYM_VDSO_MAX.  The symbolizer and the unwinder read it. */
#define ELFSYM_VDSO_MAX (1u << 20)
void *elfsym__own_vdso(size_t *size);

#endif
