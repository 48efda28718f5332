/* listview: the generic list browser under every view. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ui/tui/listview.h"
#include "ui/tui/oom.h"

void listview__init(struct listview *lv, const struct list_ops *ops,
		    void *ctx)
{
	memset(lv, 0, sizeof(*lv));
	lv->ops = ops;
	lv->ctx = ctx;
	lv->drawn_header = SIZE_MAX;
}

void listview__fini(struct listview *lv)
{
	free(lv->map);
	memset(lv, 0, sizeof(*lv));
}

static size_t listview__raw_nr(const struct listview *lv)
{
	return lv->ops && lv->ops->nr_rows ? lv->ops->nr_rows(lv->ctx) : 0;
}

size_t listview__nr(const struct listview *lv)
{
	return lv->filtered ? lv->nr_map : listview__raw_nr(lv);
}

size_t listview__row(const struct listview *lv, size_t pos)
{
	return lv->filtered ? (pos < lv->nr_map ? lv->map[pos] : SIZE_MAX)
			    : pos;
}

bool listview__selected(const struct listview *lv, size_t *row)
{
	if (lv->selected >= listview__nr(lv))
		return false;
	*row = listview__row(lv, lv->selected);
	return *row != SIZE_MAX;
}

void listview__select_row(struct listview *lv, size_t row)
{
	size_t n = listview__nr(lv);

	for (size_t pos = 0; pos < n; pos++) {
		if (listview__row(lv, pos) == row) {
			lv->selected = pos;
			return;
		}
	}
}

static void listview__clamp(struct listview *lv)
{
	size_t n = listview__nr(lv);

	if (lv->selected >= n)
		lv->selected = n ? n - 1 : 0;
	if (lv->top > lv->selected)
		lv->top = lv->selected;
}

void listview__move(struct listview *lv, enum lv_move m)
{
	size_t n = listview__nr(lv), page = lv->page ? lv->page : 1;

	if (!n) {
		lv->selected = lv->top = 0;
		return;
	}
	switch (m) {
	case LV_UP:
		if (lv->selected)
			lv->selected--;
		break;
	case LV_DOWN:
		if (lv->selected + 1 < n)
			lv->selected++;
		break;
	case LV_PGUP:
		lv->selected = lv->selected > page ? lv->selected - page : 0;
		lv->top = lv->top > page ? lv->top - page : 0;
		break;
	case LV_PGDN:
		lv->selected = lv->selected + page < n ? lv->selected + page
						       : n - 1;
		if (lv->top + page < n)
			lv->top += page;
		break;
	case LV_HOME:
		lv->selected = lv->top = 0;
		break;
	case LV_END:
		lv->selected = n - 1;
		break;
	}
	listview__clamp(lv);
}

static void listview__refilter(struct listview *lv)
{
	size_t n = listview__raw_nr(lv);
	struct strbuf sb;

	lv->nr_map = 0;
	if (!lv->filter[0] || !lv->ops->row_text) {
		lv->filtered = false;
		return;
	}
	lv->filtered = true;
	if (n > lv->cap_map) {
		size_t *m = realloc(lv->map, n * sizeof(*m));

		if (!m)
			oom__die();
		lv->map = m;
		lv->cap_map = n;
	}
	strbuf__init(&sb);
	for (size_t i = 0; i < n; i++) {
		strbuf__reset(&sb);
		lv->ops->row_text(lv->ctx, i, &sb);
		if (strcasestr(sb.buf ? sb.buf : "", lv->filter))
			lv->map[lv->nr_map++] = i;
	}
	strbuf__fini(&sb);
}

void listview__set_filter(struct listview *lv, const char *substr)
{
	size_t row = SIZE_MAX;
	bool had = listview__selected(lv, &row);

	snprintf(lv->filter, sizeof(lv->filter), "%s", substr ? substr : "");
	listview__refilter(lv);
	lv->selected = lv->top = 0;
	if (had)
		listview__select_row(lv, row);
	listview__clamp(lv);
}

void listview__update(struct listview *lv)
{
	listview__refilter(lv);
	listview__clamp(lv);
}

bool listview__at(const struct listview *lv, size_t y, size_t *pos)
{
	if (y < lv->drawn_y0 || y >= lv->drawn_y0 + lv->drawn_rows ||
	    lv->top + (y - lv->drawn_y0) >= listview__nr(lv))
		return false;
	*pos = lv->top + (y - lv->drawn_y0);
	return true;
}

void listview__render(struct listview *lv, struct screen *s, size_t y0,
		      size_t height)
{
	size_t n = listview__nr(lv), rows, hy = y0;
	bool header = lv->ops->format_header != NULL;

	lv->drawn_header = SIZE_MAX;
	lv->drawn_rows = 0;
	if (!height)
		return;
	if (header) {
		lv->drawn_header = y0;
		y0++;
		height--;
	}
	lv->drawn_y0 = y0;
	rows = height;
	lv->page = rows ? rows : 1;
	listview__clamp(lv);
	/* keep the selection in sight; never leave blank rows at the end
	 * when there are rows above to show */
	if (rows && lv->selected >= lv->top + rows)
		lv->top = lv->selected - rows + 1;
	if (lv->top + rows > n)
		lv->top = n > rows ? n - rows : 0;
	if (lv->top > lv->selected)
		lv->top = lv->selected;
	lv->drawn_rows = MIN(rows, n - MIN(n, lv->top));
	/* before the header: the table fits its column titles here too */
	if (lv->ops->prepare)
		lv->ops->prepare(lv->ctx, listview__row(lv, lv->top),
				 MIN(rows, n - MIN(n, lv->top)), s->cols);
	if (header)
		lv->ops->format_header(lv->ctx, s, hy);
	for (size_t k = 0; k < rows && lv->top + k < n; k++) {
		size_t pos = lv->top + k, y = y0 + k;

		lv->ops->format_row(lv->ctx, listview__row(lv, pos), s, y);
		if (pos == lv->selected && y < s->rows) {
			/* the selection dominates the row's colours */
			s->lines[y].nr_spans = 0;
			screen__fill(s, y, ST_SELECTED);
		}
	}
}
