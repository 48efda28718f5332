/* batch: the headless front end's printers (text tables and JSON). */
#ifndef PTOP_BATCH_H
#define PTOP_BATCH_H

#include "header.h"
#include "table.h"
#include "util.h"

struct batch_opts {
	bool json;
	bool show_period;
	bool callgraph;		/* print each row's call tree */
	bool folded;		/* folded stacks instead of tables */
	enum cg_order order;
	double tree_limit;	/* percent of the row under which tree
				 * branches are left out */
};

/*
 * Appends one refresh of the table's current event (table__build done):
 * text: '#' header lines, the column titles, one line per row;
 * JSON: one object on one line.  Pure: the caller writes sb out.
 */
void batch__format(struct strbuf *sb, const struct batch_opts *o,
		   struct table *t, const struct header_info *hi);

#endif
