/* view_menu: small menus (the sort picker, a row's menu). */
#include "ui/tui/tui_internal.h"

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

const struct list_ops menu__ops = {
	.nr_rows = menu__nr_rows,
	.format_header = menu__header,
	.format_row = menu__row,
	.row_text = menu__text,
};

/* Its operations (view.h): the list help, menus and pickers share. */
const struct view_ops menu__view = {
	.view = V_MENU,
	.name = "menu",
};
