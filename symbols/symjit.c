/* symjit: the symbolizer's JIT maps (/tmp/perf-PID.map), one per
 * process, reread when they grow. */
#include <stdlib.h>
#include <string.h>

#include "symbols/perfmap.h"
#include "symbols/symbolizer.h"
#include "symbols/symbolizer_internal.h"

/* ---- JIT maps ---- */

struct pm_entry *symbolizer__perfmap_of(struct symbolizer *s, s32 pid)
{
	struct pm_entry *e = NULL;

	for (size_t i = 0; i < s->nr_pms; i++)
		if (s->pms[i].pid == pid)
			e = &s->pms[i];
	if (!e) {
		struct perfmap *pm = perfmap__new(s->tmp, s->proc, pid,
						  s->pool, s->demangle);

		if (!pm || array__grow((void **)&s->pms, &s->cap_pms,
				       s->nr_pms + 1, sizeof(*s->pms))) {
			perfmap__free(pm);
			return NULL;
		}
		e = &s->pms[s->nr_pms++];
		memset(e, 0, sizeof(*e));
		e->pid = pid;
		e->pm = pm;
	}
	/* at most one stat per tick: a JIT appends all the time */
	if (e->checked != s->gen + 1) {
		e->checked = s->gen + 1;
		perfmap__refresh(e->pm);
	}
	e->used = s->gen;
	return e;
}
