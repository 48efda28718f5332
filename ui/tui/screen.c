/* screen: the pure screen model every view draws into. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/sanitize.h"
#include "ui/tui/oom.h"
#include "ui/tui/screen.h"

void screen__init(struct screen *s)
{
	memset(s, 0, sizeof(*s));
	s->cursor_y = s->cursor_x = -1;
}

static void line__fini(struct screen_line *l)
{
	strbuf__fini(&l->text);
}

void screen__fini(struct screen *s)
{
	for (size_t y = 0; y < s->rows; y++)
		line__fini(&s->lines[y]);
	free(s->lines);
	screen__init(s);
}

void screen__resize(struct screen *s, size_t rows, size_t cols)
{
	if (rows != s->rows) {
		struct screen_line *l;

		for (size_t y = 0; y < s->rows; y++)
			line__fini(&s->lines[y]);
		free(s->lines);
		s->lines = NULL;
		s->rows = 0;
		l = rows ? calloc(rows, sizeof(*l)) : NULL;
		if (rows && !l)
			oom__die();
		for (size_t y = 0; y < rows; y++)
			strbuf__init(&l[y].text);
		s->lines = l;
		s->rows = rows;
	}
	s->cols = cols;
	screen__clear(s);
}

void screen__clear(struct screen *s)
{
	for (size_t y = 0; y < s->rows; y++) {
		struct screen_line *l = &s->lines[y];

		strbuf__reset(&l->text);
		l->width = 0;
		l->full = false;
		l->fill = ST_NORMAL;
		l->nr_spans = 0;
	}
	s->cursor_y = s->cursor_x = -1;
}

static struct screen_line *screen__line(struct screen *s, size_t y)
{
	return y < s->rows ? &s->lines[y] : NULL;
}

static void line__span(struct screen_line *l, size_t start, size_t end,
		       enum style st)
{
	struct span *last;

	if (start >= end)
		return;
	last = l->nr_spans ? &l->spans[l->nr_spans - 1] : NULL;
	if (last && last->style == st && last->end == start) {
		last->end = end;
		return;
	}
	if (l->nr_spans == ARRAY_SIZE(l->spans))
		return;	/* drawn in the line's style: harmless */
	l->spans[l->nr_spans++] = (struct span){ start, end, st };
}

size_t screen__addn(struct screen *s, size_t y, enum style st,
		    const char *text, size_t len)
{
	struct screen_line *l = screen__line(s, y);
	size_t room, w, start, used;
	char *copy;

	if (!l || l->full || !len)
		return 0;
	room = s->cols > l->width ? s->cols - l->width : 0;
	start = l->text.len;
	w = display_width(text, len);
	if (w <= room) {
		strbuf__add(&l->text, text, len);
		used = w;
	} else {
		/* fit_width wants a C string */
		copy = strndup(text, len);
		if (!copy)
			oom__die();
		used = fit_width(&l->text, copy, room, false, false);
		free(copy);
		l->full = true;
	}
	l->width += used;
	if (l->width >= s->cols)
		l->full = true;
	if (st != ST_NORMAL)
		line__span(l, start, l->text.len, st);
	return used;
}

size_t screen__add(struct screen *s, size_t y, enum style st,
		   const char *text)
{
	return text ? screen__addn(s, y, st, text, strlen(text)) : 0;
}

size_t screen__addf(struct screen *s, size_t y, enum style st,
		    const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;
	size_t w;

	strbuf__init(&sb);
	va_start(ap, fmt);
	strbuf__vaddf(&sb, fmt, ap);
	va_end(ap);
	w = screen__addn(s, y, st, sb.buf ? sb.buf : "", sb.len);
	strbuf__fini(&sb);
	return w;
}

size_t screen__add_ext(struct screen *s, size_t y, enum style st,
		       const char *raw)
{
	struct strbuf sb;
	size_t w;

	strbuf__init(&sb);
	sanitize_str(&sb, raw);
	w = screen__addn(s, y, st, sb.buf ? sb.buf : "", sb.len);
	strbuf__fini(&sb);
	return w;
}

void screen__pad(struct screen *s, size_t y, size_t x)
{
	struct screen_line *l = screen__line(s, y);

	if (!l)
		return;
	if (x > s->cols)
		x = s->cols;
	while (l->width < x) {
		strbuf__addc(&l->text, ' ');
		l->width++;
	}
	if (l->width >= s->cols)
		l->full = true;
}

void screen__fill(struct screen *s, size_t y, enum style st)
{
	struct screen_line *l = screen__line(s, y);

	if (l)
		l->fill = st;
}

void screen__style(struct screen *s, size_t y, size_t start, size_t end,
		   enum style st)
{
	struct screen_line *l = screen__line(s, y);

	if (!l)
		return;
	if (end > l->text.len)
		end = l->text.len;
	line__span(l, start, end, st);
}

const char *screen__text(const struct screen *s, size_t y)
{
	if (y >= s->rows || !s->lines[y].text.buf)
		return "";
	return s->lines[y].text.buf;
}

enum style screen__style_at(const struct screen *s, size_t y, size_t off)
{
	const struct screen_line *l;
	enum style st;

	if (y >= s->rows)
		return ST_NORMAL;
	l = &s->lines[y];
	st = l->fill;
	/* later spans win, like the drawing order in tty.c */
	for (size_t i = 0; i < l->nr_spans; i++)
		if (off >= l->spans[i].start && off < l->spans[i].end)
			st = l->spans[i].style;
	return st;
}
