/* flamesvg: the flame graph's files (pure): a d3-flame-graph JSON tree,
 * and a self-contained interactive SVG:
 * every frame a box as wide as its samples, with its name, count and
 * share in its title; a click zooms into a frame, "Reset zoom" and
 * Ctrl-F / "Search" (a regular expression: the matching frames and
 * their share, each sample counted once) are in the picture's script,
 * so that a browser needs nothing else. */
#ifndef PTOP_FLAMESVG_H
#define PTOP_FLAMESVG_H

#include "ui/report/flame.h"
#include "src/core/util.h"

struct flame_svg_opts {
	const char *title;	/* "Flame graph of cpu-clock" (raw: the
				 * writer sanitizes and escapes it) */
	const char *subtitle;	/* the target, the time (raw), or NULL */
	size_t width;		/* pixels; 0: 1200 */
	double min_width;	/* frames narrower (pixels) are left out,
				 * with what they call; 0: 0.1 */
};

/* Appends the SVG of f.  0 or -ENOMEM. */
int flamesvg__svg(struct strbuf *sb, const struct flame *f,
	       const struct flame_svg_opts *o);

/*
 * Appends f as the nested JSON tree of d3-flame-graph (and of speedscope
 * and other viewers that read it): {"name","value","children"} from
 * "all" down, value the samples with callees, plus "self", "dso",
 * "kind" ("user", "kernel", "jit", "inlined") and "period".  0 or
 * -ENOMEM.
 */
int flamesvg__json(struct strbuf *sb, const struct flame *f);

#endif
