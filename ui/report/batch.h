/* batch: the headless front end's printers (text tables and JSON). */
#ifndef PTOP_BATCH_H
#define PTOP_BATCH_H

#include "ui/report/annotate.h"
#include "ui/report/flame.h"
#include "ui/report/header.h"
#include "ui/report/output.h"
#include "ui/report/table.h"
#include "src/core/util.h"

struct json;

struct batch_opts {
	bool json;
	bool show_period;
	bool callgraph;		/* print each row's call tree */
	bool folded;		/* folded stacks instead of tables */
	enum cg_order order;
	double tree_limit;	/* percent of the row under which tree
				 * branches are left out */
	/* Inlined frames of trees and folded stacks, as the live view
	 * shows them (inlines__get with its struct inlines); NULL: none */
	cg_inline_fn inl;
	void *inl_ctx;
	/* folded stacks' first frame, resolved (stack_root__resolve) */
	enum stack_root root;
	/* --json: members of the front end's own (input, output, note,
	 * push) written into each table's object before it closes; NULL:
	 * none */
	void (*json_more)(struct json *j, void *ctx);
	void *json_more_ctx;
};

/*
 * --folded as an output of a pass over the samples (output.h): its
 * stacks (and the baseline's, from its own rows) appended to sb at the
 * end, sorted by count.  bf is the output's storage, set here.
 */
struct batch_folded {
	struct strbuf *sb;
	const struct batch_opts *o;
	struct table *t;
	struct folded {
		struct strpool *pool;
		struct intmap counts;	/* interned path -> samples */
		struct intmap base;	/* the same of the baseline's
					 * paths */
		struct intmap *into;	/* the one being filled */
		struct strbuf line;
		enum stack_root root;
	} f;
};
struct output batch__folded(struct batch_folded *bf, struct strbuf *sb,
			    const struct batch_opts *o, struct table *t);

/*
 * Appends one refresh of the table's current event (table__build done):
 * text: '#' header lines, the column titles, one line per row;
 * JSON: one object on one line.  Pure: the caller writes sb out.
 */
void batch__format(struct strbuf *sb, const struct batch_opts *o,
		   struct table *t, const struct header_info *hi);

/*
 * --annotate NAME: the annotation of the function named name in snap
 * (the hottest match when several dsos have one) instead of the table:
 * text ('#' header lines, then one line per instruction: percent,
 * address, instruction, with source lines above the instructions they
 * made) or one JSON object.  Returns 0; -ENOENT with why empty when no
 * sampled code has the function (a line saying so is appended); another
 * -errno with why set when it cannot be annotated.
 */
int batch__annotate(struct strbuf *sb, const struct batch_opts *o,
		    struct annotator *an, const struct snapshot *snap,
		    const char *name, const struct header_info *hi,
		    struct strbuf *why);
/* The names close to name in snap's code, one per line (sanitized). */
void batch__annotate_close(struct annotator *an,
			   const struct snapshot *snap, const char *name,
			   struct strbuf *close);

#endif
