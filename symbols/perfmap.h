/* perfmap: JIT symbols of one process from /tmp/perf-PID.map. */
#ifndef PTOP_PERFMAP_H
#define PTOP_PERFMAP_H

#include "src/core/util.h"

struct strpool;
struct symtab;
struct symtab_hit;

/* Larger maps are refused: a JIT writes far less, a hostile one more. */
#define PERFMAP_MAX (64u << 20)

struct perfmap;

/*
 * The map of pid under dir (opts.tmp), named "[JIT] tid PID" like perf's.
 * The file is trusted only if it is a regular file (no symlink, no FIFO)
 * owned by root, by the owner of proc/PID, or, when proc/PID does not
 * exist (a recording's process), by the user running ptop; a refusal is
 * logged once.  Nothing is read until perfmap__refresh.  demangle:
 * SYMTAB_DEMANGLE, perhaps with SYMTAB_PARAMS, or 0.
 */
struct perfmap *perfmap__new(const char *dir, const char *proc, s32 pid,
			     struct strpool *pool, unsigned int demangle);
void perfmap__free(struct perfmap *pm);
/* The names' form from now on (symtab__set_demangle). */
void perfmap__set_demangle(struct perfmap *pm, unsigned int demangle);

/* Reloads the file when it has grown (or appeared) since the last load.
 * Returns 0, or -errno when there is no usable map (yet). */
int perfmap__refresh(struct perfmap *pm);

/* Pure parse of a map's text into st ("START SIZE name" hex lines); the
 * lines that do not parse are skipped and counted in *bad. */
int perfmap__parse(const char *text, size_t len, struct symtab *st,
		   size_t *bad);

int perfmap__lookup(struct perfmap *pm, u64 addr, struct symtab_hit *hit);
/* "[JIT] tid PID", interned. */
const char *perfmap__name(const struct perfmap *pm);
bool perfmap__loaded(const struct perfmap *pm);
size_t perfmap__bytes(const struct perfmap *pm);

#endif
