/* srcline: address -> file:line and inline chain, from DWARF via libdw. */
#ifndef PTOP_SRCLINE_H
#define PTOP_SRCLINE_H

#include <libelf.h>

#include "symbols/symtypes.h"
#include "src/core/util.h"

struct strpool;
struct srcline_dw;

/*
 * DWARF of elf (which must outlive the handle), mapped from fd (-1: an
 * image in memory).  The sections are sized up first: compressed ones
 * that would inflate past a sane bound are refused rather than handed to
 * libdw.  NULL with errno set (ENODATA: no usable DWARF; ESTALE: the
 * file changed or was cut while it was read).
 *
 * libdw reads the file where it is mapped: every call runs under a
 * mapguard (a file truncated under it faults) and checks the file after,
 * so that a file changed under the handle never gives a name.
 */
struct srcline_dw *srcline__new(Elf *elf, int fd);

/* The size of elf's .debug sections once inflated, and whether any is
 * compressed (SHF_COMPRESSED or .zdebug_): 0, or -ENODATA when they are
 * unreadable or would inflate past the bound srcline__new keeps. */
int srcline__dwarf_size(Elf *elf, u64 *inflated, bool *compressed);
void srcline__free(struct srcline_dw *sd);

/*
 * Frames of vaddr (an ELF virtual address), innermost first: out[0] has
 * the line table's file:line and the function holding it; each further
 * frame is the call site of the inlined function before it.  Functions
 * are named by their linkage names demangled as demangle says (symtab's
 * SYMTAB_DEMANGLE, SYMTAB_PARAMS), else their DW_AT_name.  Strings are
 * interned in pool.  Returns the number of frames (0: unknown address),
 * or -ESTALE when the file changed since srcline__new: the answer is
 * not given, and the handle is to be freed (and made again from the
 * file as it is now, if its build-id still fits).
 */
int srcline__lookup(struct srcline_dw *sd, u64 vaddr, struct srcline *out,
		    size_t max, struct strpool *pool, unsigned int demangle);
/* With demangle's flags: the functions' names only (file, line and dir
 * left unknown), so that the CU's line table is not read: what inlined
 * frames need.  Returns 0 when no function was inlined at vaddr, else
 * the frames as without it. */
#define SRCLINE_NAMES (1u << 8)

/*
 * Lookups find a CU through .debug_aranges, else through an index of
 * the ranges of the CUs it does not list (a CU it lists is taken at its
 * word), made at the first address aranges does not place,
 * and the scopes of an address through an index of each CU's functions
 * made at its first address (not a walk from the CU's root, past every
 * type and declaration, for every address).  srcline__no_index: walk as
 * without them, for tests that compare the two.
 */
void srcline__no_index(struct srcline_dw *sd);

#endif
