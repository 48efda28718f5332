/* view_help: the help screen, generated from the key table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/tui/oom.h"
#include "ui/tui/keys.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/view_help.h"

/* The help screen: lines generated from the key table. */
struct help_line {
	char *keys;		/* NULL: a section title */
	char *text;
};

struct help {
	struct help_line *lines;
	size_t nr;
	struct listview lv;
};

static const struct list_ops help__ops;

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		oom__die();
	return d;
}

static void help__line(struct help *h, const char *keys, const char *text,
		       size_t len)
{
	struct help_line *l = realloc(h->lines, (h->nr + 1) * sizeof(*l));

	if (!l)
		oom__die();
	h->lines = l;
	l = &h->lines[h->nr++];
	l->keys = keys ? xstrdup(keys) : NULL;
	l->text = strndup(text, len);
	if (!l->text)
		oom__die();
}

/* Help texts wrap at this many columns (ASCII), so that an 80-column
 * terminal shows them whole. */
#define HELP_WRAP 60

static void help__add(const char *section, const char *keys,
		      const char *text, void *ctx)
{
	struct help *h = ctx;

	if (!keys) {
		help__line(h, NULL, section, strlen(section));
		return;
	}
	/* continuation lines have empty keys */
	for (bool first = true; first || *text; first = false) {
		size_t n = strlen(text), cut = n;

		if (n > HELP_WRAP) {
			for (cut = HELP_WRAP; cut > 0 && text[cut] != ' ';
			     cut--)
				;
			if (!cut)
				cut = HELP_WRAP;
		}
		help__line(h, first ? keys : "", text, cut);
		text += cut;
		while (*text == ' ')
			text++;
	}
}

static void help__build(struct help *h)
{
	if (h->nr)
		return;
	keys__foreach_help(help__add, h);
	/* Self vs Children and the trees' percentages */
	keys__foreach_note(help__add, h);
}

static struct help *help_of(struct tui *t)
{
	return *tui__state(t, V_HELP);
}

static void help__free(struct tui *t)
{
	struct help *h = help_of(t);

	if (!h)
		return;
	for (size_t i = 0; i < h->nr; i++) {
		free(h->lines[i].keys);
		free(h->lines[i].text);
	}
	free(h->lines);
	listview__fini(&h->lv);
	free(h);
	*tui__state(t, V_HELP) = NULL;
}

/* Opened from the top, the selection at the top and no filter. */
static enum act_result help__open(struct tui *t, const void *arg)
{
	struct help *h = tui__state_new(t, V_HELP, sizeof(*h));

	(void)arg;
	help__build(h);
	listview__fini(&h->lv);
	listview__init(&h->lv, &help__ops, h);
	tui__push(t, V_HELP);
	return R_REDRAW;
}

static struct listview *help__list(struct tui *t)
{
	struct help *h = help_of(t);

	return h ? &h->lv : NULL;
}

static size_t help__nr_rows(void *ctx)
{
	return ((struct help *)ctx)->nr;
}

static size_t help__keys_width(const struct help *h)
{
	size_t w = 0;

	for (size_t i = 0; i < h->nr; i++)
		if (h->lines[i].keys && strlen(h->lines[i].keys) > w)
			w = strlen(h->lines[i].keys);
	return w;
}

static void help__header(void *ctx, struct screen *s, size_t y)
{
	(void)ctx;
	screen__add(s, y, ST_TITLE,
		    "ptop keys (Esc or q: back, /: search)");
	screen__fill(s, y, ST_TITLE);
}

/* The help's strings are ptop's own (ASCII): no sanitizing needed. */
static void help__row(void *ctx, size_t i, struct screen *s, size_t y)
{
	const struct help *h = ctx;
	const struct help_line *l = &h->lines[i];

	if (!l->keys) {
		screen__add(s, y, ST_BOLD, l->text);
		return;
	}
	screen__add(s, y, ST_NORMAL, "  ");
	screen__add(s, y, ST_KEY, l->keys);
	screen__pad(s, y, 2 + help__keys_width(h) + 2);
	screen__add(s, y, ST_NORMAL, l->text);
}

static void help__text(void *ctx, size_t i, struct strbuf *sb)
{
	const struct help_line *l = &((struct help *)ctx)->lines[i];

	strbuf__addf(sb, "%s %s", l->keys ? l->keys : "", l->text);
}

static const struct list_ops help__ops = {
	.nr_rows = help__nr_rows,
	.format_header = help__header,
	.format_row = help__row,
	.row_text = help__text,
};

/* Its operations (view.h). */
const struct view_ops help__view = {
	.view = V_HELP,
	.name = "help",
	.open = help__open,
	.list = help__list,
	.free = help__free,
};
