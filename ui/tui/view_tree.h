/* view_tree: call trees under the table's rows. */
#ifndef PTOP_VIEW_TREE_H
#define PTOP_VIEW_TREE_H

#include <stdbool.h>

#include "ui/tui/keytypes.h"

struct tui;

/* Call graphs: trees in the table (view_tree.c). */
/* The table's lines with the expanded trees (after each table__build:
 * the table's rebuild). */
int treeview__build(struct tui *t);
const char *treeview__order_name(const struct tui *t);
enum act_result action__tree_toggle(struct tui *t, int arg);
enum act_result action__tree_expand_all(struct tui *t, int arg);
enum act_result action__tree_collapse_all(struct tui *t, int arg);
enum act_result action__tree_all(struct tui *t, int arg);
enum act_result action__tree_order(struct tui *t, int arg);
/* --inline's rows of inlined functions (a->inline_rows at start, l). */
void treeview__set_inline_rows(struct tui *t, bool on);
enum act_result action__inline_rows(struct tui *t, int arg);

#endif
