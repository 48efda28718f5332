/* view_setup: F2, htop's setup screen: the view's settings (order,
 * grouping, columns, limits, delay, children, inline rows, colours, the
 * mouse), changed in place and saved to the settings file. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/core/config.h"
#include "src/sys/fdio.h"
#include "src/sys/outfile.h"
#include "ui/report/sanitize.h"
#include "ui/tui/actions.h"
#include "ui/tui/tty.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/view_setup.h"
#include "ui/tui/view_top.h"
#include "ui/tui/view_tree.h"

/* One line of the screen: what it is called, its value now, what a
 * change does (dir 1 the next value, -1 the one before), and what the
 * settings file says of it (set false: its default, no line; nothing
 * put: not this run's, the file's line stays). */
struct setting {
	const char *label;
	void (*value)(struct tui *t, char *buf, size_t len);
	enum act_result (*change)(struct tui *t, int dir);
	void (*save)(struct tui *t, struct config_set *out, size_t *n,
		     char *buf, size_t len);
};

struct setup {
	struct listview lv;
	bool changed;		/* since it opened or was saved */
};

static struct setup *setup_of(const struct tui *t)
{
	return tui__state_of(t, V_SETUP);
}

/* the next value of a list, from cur (or the nearest) */
static double step(const double *v, size_t n, double cur, int dir)
{
	size_t i = 0;

	while (i < n && v[i] < cur - 1e-9)
		i++;
	if (dir > 0)
		return i < n && v[i] <= cur + 1e-9 ? v[(i + 1) % n] :
		       i < n ? v[i] : v[0];
	return i ? v[i - 1] : v[n - 1];
}

static void put(struct config_set *out, size_t *n, const char *name,
		const char *value, bool set)
{
	out[(*n)++] = (struct config_set){ name, value, set };
}

/* ---- the order and the grouping ---- */

static void order_value(struct tui *t, char *buf, size_t len)
{
	const struct sort_spec *sp = &t->table.spec;

	snprintf(buf, len, "%s%s", sort_key__name(sp->order),
		 sp->invert ? ", reversed" : "");
}

static enum act_result order_change(struct tui *t, int dir)
{
	return action__sort_cycle(t, dir);
}

static void order_save(struct tui *t, struct config_set *out, size_t *n,
		       char *buf, size_t len)
{
	const struct sort_spec *sp = &t->table.spec;

	snprintf(buf, len, "%s%s", sort_key__name(sp->order),
		 sp->invert ? ",reverse" : "");
	put(out, n, "order", buf, sp->order != SORT_OVERHEAD || sp->invert);
}

static void group_value(struct tui *t, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->base.nr_group && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? "," : "",
					sort_key__name(t->base.group[i]));
}

/* the picker of s, where groupings are added or taken away */
static enum act_result group_change(struct tui *t, int dir)
{
	(void)dir;
	return action__sort_picker(t, 0);
}

static void group_save(struct tui *t, struct config_set *out, size_t *n,
		       char *buf, size_t len)
{
	bool deflt = t->base.nr_group == 2 &&
		     t->base.group[0] == SORT_DSO &&
		     t->base.group[1] == SORT_SYM;

	group_value(t, buf, len);
	put(out, n, "sort", buf, !deflt);
}

/* ---- columns, limits, delay ---- */

static void period_value(struct tui *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s", t->a->show_period ? "shown" : "hidden");
}

static enum act_result period_change(struct tui *t, int dir)
{
	(void)dir;
	t->a->show_period = !t->a->show_period;
	columns__init(&t->cols, &t->table.spec, t->a->show_period);
	return R_REBUILD;
}

static void period_save(struct tui *t, struct config_set *out, size_t *n,
			char *buf, size_t len)
{
	(void)buf;
	(void)len;
	put(out, n, "show-period", NULL, t->a->show_period);
}

static void limit_value(struct tui *t, char *buf, size_t len)
{
	double p = t->table.filter.percent_limit;

	if (p > 0)
		snprintf(buf, len, "rows under %g %% hidden", p);
	else
		snprintf(buf, len, "every row");
}

static enum act_result limit_change(struct tui *t, int dir)
{
	static const double v[] = { 0, 0.1, 0.5, 1, 2, 5 };
	struct prompt p = { .kind = PROMPT_PERCENT };

	/* through L's prompt handler: on the stack Esc unwinds */
	snprintf(p.buf, sizeof(p.buf), "%g",
		 step(v, ARRAY_SIZE(v), t->table.filter.percent_limit, dir));
	return actions__filter_prompt(t, &p, PROMPT_ACCEPT);
}

static void limit_save(struct tui *t, struct config_set *out, size_t *n,
		       char *buf, size_t len)
{
	snprintf(buf, len, "%g", t->table.filter.percent_limit);
	put(out, n, "percent-limit", buf, t->table.filter.percent_limit > 0);
}

static void entries_value(struct tui *t, char *buf, size_t len)
{
	if (t->table.filter.max_rows)
		snprintf(buf, len, "at most %zu", t->table.filter.max_rows);
	else
		snprintf(buf, len, "every row");
}

static enum act_result entries_change(struct tui *t, int dir)
{
	static const double v[] = { 0, 10, 25, 50, 100, 200 };

	/* on the stack Esc unwinds, as L's limit */
	return actions__set_max_rows(t, (size_t)step(v, ARRAY_SIZE(v),
				     (double)t->table.filter.max_rows, dir));
}

static void entries_save(struct tui *t, struct config_set *out, size_t *n,
			 char *buf, size_t len)
{
	snprintf(buf, len, "%zu", t->table.filter.max_rows);
	put(out, n, "entries", buf, t->table.filter.max_rows != 0);
}

static void tree_limit_value(struct tui *t, char *buf, size_t len)
{
	snprintf(buf, len, "branches under %g %% of their row left out",
		 top__of(t)->ct.limit);
}

static enum act_result tree_limit_change(struct tui *t, int dir)
{
	static const double v[] = { 0, 0.1, 0.5, 1, 2, 5 };
	struct treelines *ct = &top__of(t)->ct;

	ct->limit = step(v, ARRAY_SIZE(v), ct->limit, dir);
	t->a->tree_limit = ct->limit;
	top__remember_selection(t);
	return R_REBUILD;
}

static void tree_limit_save(struct tui *t, struct config_set *out, size_t *n,
			    char *buf, size_t len)
{
	double l = top__of(t)->ct.limit;

	/* without call graphs it is not this run's: the file's line stays */
	if (!tui__has_chains(t))
		return;
	snprintf(buf, len, "%g", l);
	/* 0.5: perf's threshold, the default */
	put(out, n, "tree-limit", buf, l != 0.5);
}

static void delay_value(struct tui *t, char *buf, size_t len)
{
	snprintf(buf, len, "every %g s", t->a->delay);
}

static enum act_result delay_change(struct tui *t, int dir)
{
	return action__delay(t, dir);
}

static void delay_save(struct tui *t, struct config_set *out, size_t *n,
		       char *buf, size_t len)
{
	snprintf(buf, len, "%g", t->a->delay);
	put(out, n, "delay", buf, t->a->delay != 2.0);
}

/* ---- call graphs ---- */

static void children_value(struct tui *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", t->base.children ? "shown" : "self only",
		 tui__has_chains(t) ? "" : " (with call graphs, -g)");
}

static enum act_result children_change(struct tui *t, int dir)
{
	(void)dir;
	if (!tui__has_chains(t))
		return tui__no_chains(t);
	t->base.children = !t->base.children;
	/* rows of inlined functions are Children rows */
	if (!t->base.children && top__of(t)->inline_rows)
		treeview__set_inline_rows(t, false);
	tui__set_order(t, t->table.spec.order, t->table.spec.invert);
	top__remember_selection(t);
	return R_REBUILD;
}

static void children_save(struct tui *t, struct config_set *out, size_t *n,
			  char *buf, size_t len)
{
	(void)buf;
	(void)len;
	if (!tui__has_chains(t))
		return;
	/* shown is the default */
	put(out, n, "no-children", NULL, !t->base.children);
	put(out, n, "children", NULL, false);
}

static void inline_value(struct tui *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s", top__of(t)->inline_rows ? "shown" : "none");
}

static enum act_result inline_change(struct tui *t, int dir)
{
	(void)dir;
	return action__inline_rows(t, 0);
}

static void inline_save(struct tui *t, struct config_set *out, size_t *n,
			char *buf, size_t len)
{
	(void)buf;
	(void)len;
	if (!tui__has_chains(t))
		return;
	/* none is the live view's default (-i shows them unless the file
	 * says no-inline) */
	put(out, n, "inline", NULL, top__of(t)->inline_rows);
	put(out, n, "no-inline", NULL, false);
}

/* ---- colours and the mouse ---- */

static void color_value(struct tui *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s", t->a->color < 0 ? "unless NO_COLOR is set" :
				 t->a->color ? "always" : "none");
}

static enum act_result color_change(struct tui *t, int dir)
{
	/* unless NO_COLOR, always, none */
	t->a->color = (t->a->color + 1 + (dir > 0 ? 1 : 2)) % 3 - 1;
	tty__set_color(t->a->color);
	return R_REDRAW;
}

static void color_save(struct tui *t, struct config_set *out, size_t *n,
		       char *buf, size_t len)
{
	(void)buf;
	(void)len;
	put(out, n, "color", NULL, t->a->color == 1);
	put(out, n, "no-color", NULL, t->a->color == 0);
}

static void mouse_value(struct tui *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s", t->a->mouse ? "ptop's (clicks, wheel)" :
				 "the terminal's (its selection)");
}

static enum act_result mouse_change(struct tui *t, int dir)
{
	(void)dir;
	t->a->mouse = !t->a->mouse;
	tty__set_mouse(t->a->mouse);
	return R_REDRAW;
}

static void mouse_save(struct tui *t, struct config_set *out, size_t *n,
		       char *buf, size_t len)
{
	(void)buf;
	(void)len;
	put(out, n, "no-mouse", NULL, !t->a->mouse);
	put(out, n, "mouse", NULL, false);
}

static const struct setting settings[] = {
	{ "Sort order", order_value, order_change, order_save },
	{ "Grouped by", group_value, group_change, group_save },
	{ "Period column", period_value, period_change, period_save },
	{ "Percent limit", limit_value, limit_change, limit_save },
	{ "Rows", entries_value, entries_change, entries_save },
	{ "Tree limit", tree_limit_value, tree_limit_change, tree_limit_save },
	{ "Refresh", delay_value, delay_change, delay_save },
	{ "Children", children_value, children_change, children_save },
	{ "Inlined rows", inline_value, inline_change, inline_save },
	{ "Colours", color_value, color_change, color_save },
	{ "Mouse", mouse_value, mouse_change, mouse_save },
};

/* ---- the list ---- */

static size_t setup__nr_rows(void *ctx)
{
	(void)ctx;
	return ARRAY_SIZE(settings);
}

static void setup__header(void *ctx, struct screen *s, size_t y)
{
	(void)ctx;
	screen__add(s, y, ST_TITLE, "Setup (Enter or Right: next value, "
				    "Left: the one before, w: save, Esc: "
				    "back)");
	screen__fill(s, y, ST_TITLE);
}

static void setup__row(void *ctx, size_t i, struct screen *s, size_t y)
{
	struct tui *t = ctx;
	char value[256];

	settings[i].value(t, value, sizeof(value));
	screen__addf(s, y, ST_NORMAL, "  %-15s ", settings[i].label);
	/* ptop's own words, and sort key names */
	screen__add(s, y, ST_BOLD, value);
}

static void setup__text(void *ctx, size_t i, struct strbuf *sb)
{
	(void)ctx;
	strbuf__adds(sb, settings[i].label);
}

static const struct list_ops setup__ops = {
	.nr_rows = setup__nr_rows,
	.format_header = setup__header,
	.format_row = setup__row,
	.row_text = setup__text,
};

static enum act_result setup__open(struct tui *t, const void *arg)
{
	struct setup *st = tui__state_new(t, V_SETUP, sizeof(*st));

	(void)arg;
	if (!st->lv.ops)
		listview__init(&st->lv, &setup__ops, t);
	st->changed = false;
	tui__push(t, V_SETUP);
	tui__status(t, ST_NORMAL, "changes apply now; w saves them to %s",
		    t->a->config_path ? t->a->config_path :
					"the settings file");
	return R_REDRAW;
}

static struct listview *setup__list(struct tui *t)
{
	struct setup *st = setup_of(t);

	return st ? &st->lv : NULL;
}

static void setup__free(struct tui *t)
{
	struct setup *st = setup_of(t);

	if (!st)
		return;
	listview__fini(&st->lv);
	free(st);
	*tui__state(t, V_SETUP) = NULL;
}

enum act_result action__setup_change(struct tui *t, int dir)
{
	struct setup *st = setup_of(t);
	size_t i;

	if (!st || !listview__selected(&st->lv, &i) ||
	    i >= ARRAY_SIZE(settings))
		return R_NONE;
	st->changed = true;
	return settings[i].change(t, dir);
}

/* Every folder of path's up to its file (0700 for the new ones). */
static int make_dirs(const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

int setup__save(struct tui *t, const char *path, struct strbuf *why)
{
	struct config_set sets[2 * ARRAY_SIZE(settings)];
	char bufs[ARRAY_SIZE(settings)][256];
	struct strbuf text, out;
	size_t n = 0;
	int err;

	strbuf__init(&text);
	strbuf__init(&out);
	/* its comments and the lines of other settings stay: it is read
	 * as it would be at start, trusted or not */
	err = fd__read_owned(path, &text, 64 << 10, why);
	if (err == -ENOENT || err == -ENOTDIR) {
		err = 0;
	} else if (err == -EPERM) {
		goto out;	/* why says it */
	} else if (err) {
		strbuf__adds(why, strerror(-err));
		goto out;
	}
	for (size_t i = 0; i < ARRAY_SIZE(settings); i++)
		settings[i].save(t, sets, &n, bufs[i], sizeof(bufs[i]));
	err = config__update(text.buf ? text.buf : "", text.len, sets, n,
			     &out);
	if (!err)
		err = make_dirs(path);
	if (!err)
		err = outfile__save(path, out.buf ? out.buf : "", out.len,
				    OUTFILE_SYNC);
	if (err)
		strbuf__adds(why, strerror(-err));
out:
	strbuf__fini(&text);
	strbuf__fini(&out);
	return err;
}

enum act_result action__setup_save(struct tui *t, int arg)
{
	struct setup *st = setup_of(t);
	const char *path = t->a->config_path;
	struct strbuf sb, why;

	(void)arg;
	if (!path) {
		tui__status(t, ST_ERROR, "no home folder (HOME and "
			    "XDG_CONFIG_HOME unset): nowhere to save");
		return R_REDRAW;
	}
	strbuf__init(&sb);
	strbuf__init(&why);
	sanitize_str(&sb, path);
	if (setup__save(t, path, &why))
		tui__status(t, ST_ERROR, "%s: not saved: %s",
			    sb.buf ? sb.buf : "", why.buf ? why.buf : "");
	else
		tui__status(t, ST_NORMAL, "saved to %s", sb.buf ? sb.buf : "");
	strbuf__fini(&why);
	strbuf__fini(&sb);
	if (st)
		st->changed = false;
	return R_REDRAW;
}

enum act_result action__setup_close(struct tui *t, int arg)
{
	struct setup *st = setup_of(t);

	(void)arg;
	tui__pop(t);
	if (st && st->changed)
		tui__status(t, ST_NORMAL, "the changes hold for this run (F2, "
			    "then w, saves them)");
	return R_REDRAW;
}

/* Its operations (view.h). */
const struct view_ops setup__view = {
	.view = V_SETUP,
	.name = "setup",
	.open = setup__open,
	.list = setup__list,
	.free = setup__free,
};
