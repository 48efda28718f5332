/* flame: the flame graph of a snapshot's call chains (pure): one tree of
 * every sample path, merged from the root (the outermost caller) down,
 * built in one pass over the paths (rowset__foreach_path_inline, the
 * frames --folded prints); its layout in terminal cells, a search, and
 * the SVG writer's input. */
#ifndef PTOP_FLAME_H
#define PTOP_FLAME_H

#include "ui/report/rowset.h"
#include "src/core/util.h"

/* What a frame is, for its colour (the table's marks: [k], [JIT]...). */
enum flame_kind {
	FL_USER,
	FL_KERNEL,
	FL_JIT,
	FL_INLINED,	/* a function inlined into its parent frame */
	FL_ROOT,	/* "all" */
	FL_PROCESS,	/* a stack's first frame: its command (--root) */
};

/*
 * What each stack starts with (--root), as stackcollapse-perf.pl starts
 * it: nothing, the command (comm), "comm-PID" (--pid), "comm-PID/TID"
 * (--tid); auto: the command when the samples come from more than one
 * process (system-wide, several pids, a recording of such), else nothing.
 * The comm is the sample's: the one at its time (an exec, a reused pid).
 */
enum stack_root {
	STACK_ROOT_AUTO,
	STACK_ROOT_NONE,
	STACK_ROOT_COMM,
	STACK_ROOT_PID,
	STACK_ROOT_TID,
};

struct snapshot;
struct hist_key;
/* AUTO resolved for snap's samples (the others as they are). */
enum stack_root stack_root__resolve(enum stack_root r,
				    const struct snapshot *snap);
/* A sample's first frame, sanitized (nothing for NONE). */
void stack_root__label(struct strbuf *sb, enum stack_root r,
		       const struct hist_key *k);

struct flame_node {
	const char *sym;	/* NULL: unresolved, see addr */
	const char *dso_name;
	const struct dso *dso;
	u64 addr;		/* the symbol's start, or the address */
	enum flame_kind kind;
	/* of the paths through this frame (it and what it calls), and of
	 * the paths that end in it */
	u64 samples, period;
	u64 self_samples, self_period;
	u32 parent, first_child, next_sibling;	/* 0: none (the root's
						 * parent is itself) */
	u32 depth;		/* the root ("all") 0 */
};

struct flame {
	struct flame_node *nodes;	/* node 0: the root */
	size_t nr, cap;
	u32 max_depth;
	struct intmap index;	/* (parent, frame) -> node, see flame.c */
	enum stack_root root;	/* resolved; flame__init: NONE */
	struct strpool *labels;	/* the FL_PROCESS frames' names */
	struct strbuf label;
};

void flame__init(struct flame *f);
void flame__fini(struct flame *f);
/* Empties it: the root alone. */
void flame__reset(struct flame *f);

/* Adds one sample path (root first, leaf last) with its counts.  0 or
 * -ENOMEM; paths deeper than FLAME_MAX_DEPTH keep their outer frames. */
#define FLAME_MAX_DEPTH 1024
int flame__add(struct flame *f, const struct path_frame *frames, size_t n,
	       u64 samples, u64 period);
/* Adds one path of a rowset (rowset__foreach_path_inline's frames) with
 * e's counts, under its f->root frame.  0 or -ENOMEM. */
int flame__add_path(struct flame *f, const struct path_frame *frames,
		    size_t n, const struct hist_entry *e);
/* Children in name order (flamegraph.pl's: frames keep their places
 * from one refresh to the next), after the adds. */
void flame__sort(struct flame *f);
/* Every path of rs's last build (with the inlined frames inl knows),
 * added and sorted, each under its f->root frame (set it first, resolved:
 * stack_root__resolve).  0 or -ENOMEM (or what the path walk returned). */
int flame__build(struct flame *f, struct rowset *rs, cg_inline_fn inl,
		 void *inl_ctx);

/* A frame's name, sanitized: the symbol, or [dso+0xaddr]. */
void flame__label(struct strbuf *sb, const struct flame_node *n);
/* Whether node a is node b or one of its callers (b is above a). */
bool flame__is_ancestor(const struct flame *f, u32 a, u32 b);

/*
 * The cells of the graph zoomed into node zoom, width columns wide: the
 * zoom frame and its callers span the whole width, the frames above it
 * get columns in proportion to their samples, in the order of the
 * children; frames narrower than one column (and what they call) are
 * left out.  Cells are grouped by depth, left to right.
 */
struct flame_cell {
	u32 node;
	u32 x, w;
};

struct flame_layout {
	struct flame_cell *cells;
	size_t nr, cap;
	size_t *line;		/* depth d: cells [line[d], line[d + 1]) */
	size_t cap_line;
	u32 nr_lines;		/* depths 0 .. nr_lines - 1 */
	u32 zoom;
	u64 total;		/* samples of the zoom frame */
};

void flame_layout__init(struct flame_layout *l);
void flame_layout__fini(struct flame_layout *l);
int flame__layout(const struct flame *f, u32 zoom, size_t width,
		  struct flame_layout *l);
/* The cell of node in l, or NULL when it is not drawn. */
const struct flame_cell *flame_layout__find(const struct flame_layout *l,
					    const struct flame *f, u32 node);

/*
 * Search: marks (an array of f->nr bools) the frames under zoom whose
 * label holds substr (case-insensitive); returns the samples of the
 * paths that pass through a match, each counted once (a match inside a
 * match adds nothing).
 */
u64 flame__search(const struct flame *f, u32 zoom, const char *substr,
		  bool *marks);

#endif
