/* view_menu: small menus (the sort picker, a row's menu): a copy of the
 * menu it was opened with, Enter picks an item. */
#include <stdlib.h>

#include "ui/tui/tui_internal.h"
#include "ui/tui/view_menu.h"

struct menu_view {
	struct menu menu;
	struct listview lv;
};

static const struct list_ops menu__ops;

static struct menu_view *menu_of(struct tui *t)
{
	return *tui__state(t, V_MENU);
}

const struct menu *menu__shown(struct tui *t)
{
	struct menu_view *m = menu_of(t);

	return m ? &m->menu : NULL;
}

static enum act_result menu__open(struct tui *t, const void *arg)
{
	struct menu_view *m = tui__state_new(t, V_MENU, sizeof(*m));

	m->menu = *(const struct menu *)arg;
	listview__fini(&m->lv);
	listview__init(&m->lv, &menu__ops, &m->menu);
	tui__push(t, V_MENU);
	return R_REDRAW;
}

static void menu__free(struct tui *t)
{
	struct menu_view *m = menu_of(t);

	if (!m)
		return;
	listview__fini(&m->lv);
	free(m);
	*tui__state(t, V_MENU) = NULL;
}

static struct listview *menu__list(struct tui *t)
{
	struct menu_view *m = menu_of(t);

	return m ? &m->lv : NULL;
}

enum act_result action__select(struct tui *t, int arg)
{
	struct menu_view *m = menu_of(t);
	size_t i;

	(void)arg;
	if (!m || !listview__selected(&m->lv, &i) || i >= m->menu.nr ||
	    !m->menu.pick)
		return R_NONE;
	tui__pop(t);
	return m->menu.pick(t, m->menu.items[i].id);
}

static size_t menu__nr_rows(void *ctx)
{
	return ((struct menu *)ctx)->nr;
}

static void menu__header(void *ctx, struct screen *s, size_t y)
{
	const struct menu *m = ctx;

	screen__add(s, y, ST_TITLE, m->title);
	screen__fill(s, y, ST_TITLE);
}

/* Labels are sanitized when the menu is built. */
static void menu__row(void *ctx, size_t i, struct screen *s, size_t y)
{
	const struct menu *m = ctx;

	screen__add(s, y, ST_NORMAL, "  ");
	screen__add(s, y, ST_NORMAL, m->items[i].label);
}

static void menu__text(void *ctx, size_t i, struct strbuf *sb)
{
	strbuf__adds(sb, ((struct menu *)ctx)->items[i].label);
}

static const struct list_ops menu__ops = {
	.nr_rows = menu__nr_rows,
	.format_header = menu__header,
	.format_row = menu__row,
	.row_text = menu__text,
};

/* Its operations (view.h). */
const struct view_ops menu__view = {
	.view = V_MENU,
	.name = "menu",
	.open = menu__open,
	.list = menu__list,
	.free = menu__free,
};
