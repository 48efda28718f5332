/* annotate_internal: what the files of annotate share (annotate.c,
 * annotate_find.c, annotate_count.c, annotate_fmt.c). */
#ifndef PTOP_ANNOTATE_INTERNAL_H
#define PTOP_ANNOTATE_INTERNAL_H

#include <string.h>

#include "src/core/lru.h"
#include "ui/report/annotate.h"


struct annotator {
	struct symbolizer *syms;
	enum disasm_syntax syntax;
	struct disasm_cache *dc;
	struct srcfile_cache *sc;
	struct lru cache;
	u64 changes;	/* symbolizer__changes of the cached annotations */
};

#endif
