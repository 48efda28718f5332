/* listview: the one generic list browser (selection, scrolling, a
 * substring filter); the table, help, pickers and menus are views that
 * supply rows through list_ops. */
#ifndef PTOP_LISTVIEW_H
#define PTOP_LISTVIEW_H

#include "ui/tui/screen.h"
#include "src/core/util.h"

struct list_ops {
	size_t (*nr_rows)(void *ctx);
	/* Optional: called before drawing rows [first, first+count) in
	 * width columns (the table fits its columns here). */
	void (*prepare)(void *ctx, size_t first, size_t count, size_t width);
	/* Optional: the line above the rows (column titles, a title). */
	void (*format_header)(void *ctx, struct screen *s, size_t y);
	/* Row i (an index of the view's own rows) into line y: pure, text
	 * sanitized by the view. */
	void (*format_row)(void *ctx, size_t i, struct screen *s, size_t y);
	/* Optional: the text the list filter matches (sanitized); without
	 * it the list cannot be filtered. */
	void (*row_text)(void *ctx, size_t i, struct strbuf *sb);
};

struct listview {
	const struct list_ops *ops;
	void *ctx;
	size_t selected;	/* position among the visible rows */
	size_t top;		/* first visible row drawn */
	size_t page;		/* rows drawn last time (for PgUp/PgDn) */
	char filter[256];	/* case-insensitive substring, "" = none */
	size_t *map;		/* filtered: visible position -> row */
	size_t nr_map, cap_map;
	bool filtered;
	/* where the last render drew it, for the mouse: its header's
	 * line (SIZE_MAX: none) and its rows' first line and count */
	size_t drawn_header, drawn_y0, drawn_rows;
};

enum lv_move {
	LV_UP,
	LV_DOWN,
	LV_PGUP,
	LV_PGDN,
	LV_HOME,
	LV_END,
};

void listview__init(struct listview *lv, const struct list_ops *ops,
		    void *ctx);
void listview__fini(struct listview *lv);

/* Rows visible (after the filter) and the view's index of one. */
size_t listview__nr(const struct listview *lv);
size_t listview__row(const struct listview *lv, size_t pos);
/* The view's index of the selected row; false when the list is empty. */
bool listview__selected(const struct listview *lv, size_t *row);
/* Selects the view's row (if visible). */
void listview__select_row(struct listview *lv, size_t row);

void listview__move(struct listview *lv, enum lv_move m);
/* Sets the filter (NULL or "" clears it) and recomputes the rows. */
void listview__set_filter(struct listview *lv, const char *substr);
/* After the view's rows changed: refilter and clamp the selection. */
void listview__update(struct listview *lv);

/* The position of the row drawn on line y by the last render: false
 * when none is there. */
bool listview__at(const struct listview *lv, size_t y, size_t *pos);

/* Draws the header (if any) on line y0 and rows below, height lines in
 * all; keeps the selection in sight. */
void listview__render(struct listview *lv, struct screen *s, size_t y0,
		      size_t height);

#endif
