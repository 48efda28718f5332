/* view_menu: small menus (the sort picker, a row's menu). */
#ifndef PTOP_VIEW_MENU_H
#define PTOP_VIEW_MENU_H

#include "ui/tui/keytypes.h"
#include "ui/tui/view.h"

struct tui;

/* A menu: tui__open_view(t, V_MENU, &menu) shows a copy of it. */
struct menu_item {
	char label[256];	/* sanitized */
	int id;
};

struct menu {
	char title[256];	/* sanitized */
	struct menu_item items[16];
	size_t nr;
	/* Enter on item id, after the menu closed */
	enum act_result (*pick)(struct tui *t, int id);
};

/* The menu shown (the last opened), or NULL: for tests. */
const struct menu *menu__shown(struct tui *t);
enum act_result action__select(struct tui *t, int arg);

/* Its operations (view.h). */
extern const struct view_ops menu__view;

#endif
