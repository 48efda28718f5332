/* fuzz_elf: any bytes as an in-memory ELF through the symbol loader
 * (symbols, PLT, eh_frame, build-id, segments) and a srcline lookup. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/elfsym.h"
#include "symbols/srcline.h"
#include "symbols/symtab.h"
#include "src/core/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void probe(struct symtab *st, struct srcline_dw *sd,
		  const struct elf_info *info, u64 vaddr,
		  struct strpool *pool)
{
	struct symtab_hit hit;
	struct srcline out[8];
	u64 off, back;

	symtab__lookup(st, vaddr, &hit);
	if (!elfsym__from_vaddr(info, vaddr, &off))
		elfsym__to_vaddr(info, off, &back);
	if (sd)
		srcline__lookup(sd, vaddr, out, 8, pool, SYMTAB_DEMANGLE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strpool *pool = strpool__new();
	struct symtab *st = symtab__new(pool, SYMTAB_DEMANGLE);
	struct srcline_dw *sd = NULL;
	struct elf_info info;
	/* libelf may convert in place: give it a copy it may write */
	char *copy = malloc(size ? size : 1);
	Elf *elf;

	if (!pool || !st || !copy)
		goto out;
	memcpy(copy, data, size);
	elf = elfsym__open_mem(copy, size);
	if (!elf)
		goto out;
	if (elfsym__info(elf, &info))
		goto end;
	elfsym__load(elf, st, ELFSYM_SYMTAB | ELFSYM_DYNSYM | ELFSYM_PLT |
				      ELFSYM_EHFRAME | ELFSYM_MINIDEBUG);
	/* annotate's data objects and GOT slots */
	elfsym__load(elf, st, ELFSYM_SYMTAB | ELFSYM_DYNSYM | ELFSYM_DATA |
				      ELFSYM_GOT);
	symtab__finish(st);
	sd = srcline__new(elf, -1);
	for (u32 i = 0; i < info.nr_loads; i++) {
		probe(st, sd, &info, info.loads[i].vaddr, pool);
		probe(st, sd, &info, info.loads[i].vaddr + 0x40, pool);
	}
	/* the first symbols, named (and demangled) */
	for (size_t i = 0; i < symtab__count(st) && i < 16; i++) {
		struct symtab_hit hit;

		if (!symtab__at(st, i, &hit))
			probe(st, sd, &info, hit.start + hit.size / 2, pool);
	}
	srcline__free(sd);
end:
	elf_end(elf);
out:
	symtab__free(st);
	strpool__free(pool);
	free(copy);
	return 0;
}
