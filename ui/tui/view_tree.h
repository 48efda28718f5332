/* view_tree: call trees under the table's rows. */
#ifndef PTOP_VIEW_TREE_H
#define PTOP_VIEW_TREE_H

#include <stdbool.h>

#include "ui/tui/keys.h"

struct tui;
struct inlines;

/* Call graphs: trees in the table (view_tree.c). */
bool tree__has_chains(const struct tui *t);
enum act_result tree__no_chains(struct tui *t);
/* The table's lines with the expanded trees (after each table__build). */
int tree__build(struct tui *t);
const char *tree__order_name(const struct tui *t);
/* The inlined frames' cache of trees, --inline's rows and the flame
 * graph (made on first use; NULL without a symbolizer). */
struct inlines *tree__inlines(struct tui *t);
enum act_result action__tree_toggle(struct tui *t, int arg);
enum act_result action__tree_expand_all(struct tui *t, int arg);
enum act_result action__tree_collapse_all(struct tui *t, int arg);
enum act_result action__tree_order(struct tui *t, int arg);
/* --inline's rows of inlined functions (a->inline_rows at start, l). */
void tree__set_inline_rows(struct tui *t, bool on);
enum act_result action__inline_rows(struct tui *t, int arg);

#endif
