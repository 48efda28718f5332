/* pmu: resolves perf's PMU event syntax from sysfs. */
#ifndef PTOP_PMU_H
#define PTOP_PMU_H

#include <stdbool.h>

#include "src/core/events.h"

/* The PMUs' directory in sysfs: pmu_root (evlist_opts' field), else
 * /sys/bus/event_source/devices. */
const char *pmu__root(const char *pmu_root);

/*
 * Resolves a PMU event ("pmu/terms/", spec.pmu; anything else is left
 * alone) from sysfs (pmu__root(pmu_root)): attr.type from PMU/type; config=,
 * config1=, config2= set those words; any other term is a field of
 * PMU/format/TERM ("config:0-7,21"), its value spread over those bits (it
 * must fit); a term without a value is an alias, PMU/events/TERM, whose
 * terms apply in its place (aliases of aliases, 4 deep at most), else a
 * format field set to 1, else perf's raw "rHEX" (config).  Terms apply in
 * order, a later one replacing what an earlier one set.  evlist__open
 * calls it; a failure's words (naming the event and what is missing) go
 * into why:
 * -ENOENT (no such PMU, term or alias), -EINVAL (a value that does not
 * fit, an alias with '?' parameters, a format ptop does not know).
 */
int pmu__resolve(const char *pmu_root, struct event_spec *spec,
		 struct strbuf *why);

/* The same under root; why NULL: no words (while listing). */
int pmu__resolve_at(const char *root, struct event_spec *spec,
		    struct strbuf *why);
/* Files of PMU/events/ that qualify an alias (".scale", ".unit", ...)
 * rather than name one. */
bool pmu__alias_qualifier(const char *name);

#endif
