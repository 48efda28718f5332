/* view_flame: the flame graph of the shown event's call chains, drawn
 * with the terminal's cells (ui/report/flame.c builds and lays it out):
 * one line per stack depth, the outermost caller at the bottom (i flips
 * it into an icicle), each frame as wide as its share of the samples.
 * Arrows walk between frames, Enter zooms into one, Esc zooms out, /
 * highlights the frames that match and gives their share, a annotates
 * and c opens the callers and callees of the selected frame, f freezes
 * the graph while sampling goes on.  It is rebuilt from every snapshot,
 * like the table, through the same rows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/flame.h"
#include "ui/report/inlines.h"
#include "ui/report/sanitize.h"
#include "ui/tui/oom.h"
#include "ui/tui/mouse.h"
#include "ui/tui/tui_internal.h"
#include "ui/tui/view_flame.h"

/* A frame found again after a rebuild: the frames from the root down,
 * each as "kind dso\tlabel" (sanitized), '\n'-separated. */
struct fl_path {
	struct strbuf keys;
	size_t n;
};

#define FL_ZOOMS 32

struct flamev {
	struct flame f;
	struct flame_layout lay;
	bool icicle, frozen;
	u32 sel, zoom;
	struct fl_path sel_path;
	struct fl_path zooms[FL_ZOOMS];	/* [0..nr_zooms): the zoom stack */
	size_t nr_zooms;
	char search[256];		/* as typed; "" none */
	bool *marks;
	size_t cap_marks;
	u64 match;			/* samples of the matched paths */
	u32 first_depth;		/* the lowest depth drawn (scrolling) */
	size_t graph_y0, graph_lines;	/* where the last draw put the
					 * graph (the mouse) */
	struct strbuf scratch;
	struct strbuf label;	/* a cell's name, while drawing */
};

static struct flamev *flamev_of(struct tui *t)
{
	return *tui__state(t, V_FLAME);
}

static struct flamev *flamev__get(struct tui *t)
{
	struct flamev *v = flamev_of(t);

	if (v)
		return v;
	v = calloc(1, sizeof(*v));
	if (!v)
		oom__die();
	flame__init(&v->f);
	flame_layout__init(&v->lay);
	strbuf__init(&v->sel_path.keys);
	for (size_t i = 0; i < FL_ZOOMS; i++)
		strbuf__init(&v->zooms[i].keys);
	strbuf__init(&v->scratch);
	strbuf__init(&v->label);
	*tui__state(t, V_FLAME) = v;
	return v;
}

static void flameview__free(struct tui *t)
{
	struct flamev *v = flamev_of(t);

	if (!v)
		return;
	flame__fini(&v->f);
	flame_layout__fini(&v->lay);
	strbuf__fini(&v->sel_path.keys);
	for (size_t i = 0; i < FL_ZOOMS; i++)
		strbuf__fini(&v->zooms[i].keys);
	strbuf__fini(&v->scratch);
	strbuf__fini(&v->label);
	free(v->marks);
	free(v);
	*tui__state(t, V_FLAME) = NULL;
}

static bool flameview__on_stack(const struct tui *t)
{
	for (size_t d = 0; d < t->depth; d++)
		if (t->stack[d] == V_FLAME)
			return true;
	return false;
}

static const char *kind_mark(enum flame_kind k)
{
	static const char *const marks[] = {
		[FL_USER] = "u", [FL_KERNEL] = "k", [FL_JIT] = "j",
		[FL_INLINED] = "i", [FL_ROOT] = "r", [FL_PROCESS] = "p",
	};

	return marks[k];
}

/* The key of one frame (fl_path). */
static void frame_key(struct strbuf *sb, const struct flame_node *n)
{
	strbuf__adds(sb, kind_mark(n->kind));
	strbuf__addc(sb, ' ');
	sanitize_str(sb, n->dso_name ? n->dso_name : "");
	strbuf__addc(sb, '\t');
	flame__label(sb, n);
}

static void path__set(struct fl_path *p, const struct flame *f, u32 node)
{
	u32 chain[FLAME_MAX_DEPTH + 1];
	size_t n = 0;

	strbuf__reset(&p->keys);
	for (u32 x = node; x && n < ARRAY_SIZE(chain); x = f->nodes[x].parent)
		chain[n++] = x;
	p->n = n;
	while (n--) {
		frame_key(&p->keys, &f->nodes[chain[n]]);
		strbuf__addc(&p->keys, '\n');
	}
}

/* The node of p in f: its deepest frame still there. */
static u32 path__find(const struct fl_path *p, const struct flame *f,
		      struct strbuf *scratch)
{
	const char *k = p->keys.buf;
	u32 node = 0;

	for (size_t i = 0; i < p->n && k; i++) {
		const char *end = strchr(k, '\n');
		size_t len = end ? (size_t)(end - k) : strlen(k);
		u32 c;

		for (c = f->nodes[node].first_child; c;
		     c = f->nodes[c].next_sibling) {
			strbuf__reset(scratch);
			frame_key(scratch, &f->nodes[c]);
			if (scratch->len == len && scratch->buf &&
			    memcmp(scratch->buf, k, len) == 0)
				break;
		}
		if (!c)
			break;
		node = c;
		k = end ? end + 1 : NULL;
	}
	return node;
}

static void flamev__search(struct flamev *v)
{
	if (array__grow((void **)&v->marks, &v->cap_marks,
			v->f.nr ? v->f.nr : 1, sizeof(*v->marks)))
		oom__die();
	v->match = flame__search(&v->f, v->zoom, v->search, v->marks);
}

static int flameview__update(struct tui *t)
{
	struct flamev *v = flamev_of(t);
	struct inlines *in;
	int err;

	if (!v || !flameview__on_stack(t) || v->frozen || !t->have_snap)
		return 0;
	in = tui__frame_inlines(t);
	err = flame__build(&v->f, &t->table.rows, in ? inlines__get : NULL, in);
	if (err == -ENOMEM)
		oom__die();
	v->zoom = v->nr_zooms ?
			  path__find(&v->zooms[v->nr_zooms - 1], &v->f, &v->scratch) :
			  0;
	v->sel = path__find(&v->sel_path, &v->f, &v->scratch);
	if (!flame__is_ancestor(&v->f, v->zoom, v->sel) &&
	    !flame__is_ancestor(&v->f, v->sel, v->zoom))
		v->sel = v->zoom;
	flamev__search(v);
	return 0;
}

static void select_node(struct flamev *v, u32 node)
{
	v->sel = node;
	path__set(&v->sel_path, &v->f, node);
}

/* F in the table: opens it (or says how to get call chains). */
static enum act_result flameview__open(struct tui *t, const void *arg)
{
	struct flamev *v;

	(void)arg;
	if (!tui__has_chains(t)) {
		tui__status(t, ST_ERROR,
			    "a flame graph needs call chains: start ptop with "
			    "-g (or --call-graph dwarf), or open a file "
			    "recorded with them");
		return R_REDRAW;
	}
	v = flamev__get(t);
	v->nr_zooms = 0;
	v->zoom = 0;
	v->first_depth = 0;
	v->frozen = false;
	v->search[0] = '\0';
	tui__push(t, V_FLAME);
	flameview__update(t);
	select_node(v, v->zoom);
	tui__status(t, ST_NORMAL,
		    "flame graph: arrows move, Enter zooms, Esc zooms out, "
		    "/ searches, i flips, f freezes, q back to the table");
	return R_REDRAW;
}

/* ---- drawing ---- */

static enum style kind_style(enum flame_kind k)
{
	switch (k) {
	case FL_KERNEL:
		return ST_FL_KERNEL;
	case FL_JIT:
		return ST_FL_JIT;
	case FL_INLINED:
		return ST_FL_INLINED;
	case FL_ROOT:
		return ST_TITLE;
	default:
		return ST_FL_USER;
	}
}

static double share(const struct flamev *v, u64 samples)
{
	u64 all = v->f.nodes[0].samples;

	return all ? 100.0 * (double)samples / (double)all : 0.0;
}

/* One depth of the graph on line y. */
static void draw_depth(struct flamev *v, struct screen *s, size_t y, u32 d)
{
	struct strbuf *sb = &v->scratch;
	const struct flame_layout *l = &v->lay;

	if (d >= l->nr_lines)
		return;
	for (size_t i = l->line[d]; i < l->line[d + 1]; i++) {
		const struct flame_cell *c = &l->cells[i];
		const struct flame_node *n = &v->f.nodes[c->node];
		enum style st = c->node == v->sel ? ST_SELECTED :
				v->search[0] && v->marks[c->node] ? ST_FL_MATCH :
				kind_style(n->kind);

		screen__pad(s, y, c->x);
		strbuf__reset(sb);
		if (c->w == 1) {
			strbuf__addc(sb, '.');
		} else {
			strbuf__reset(&v->label);
			flame__label(&v->label, n);
			/* the last column separates it from the next */
			fit_width(sb, v->label.buf ? v->label.buf : "", c->w - 1,
				  true, false);
		}
		screen__addn(s, y, st, sb->buf ? sb->buf : "", sb->len);
		if (c->w > 1)
			screen__add(s, y, ST_NORMAL, " ");
	}
}

static void draw_info(struct flamev *v, struct screen *s, size_t y)
{
	const struct flame_node *n = &v->f.nodes[v->sel];
	struct strbuf *sb = &v->scratch;

	strbuf__reset(sb);
	flame__label(sb, n);
	if (n->kind == FL_INLINED)
		strbuf__adds(sb, " (inlined)");
	if (n->dso_name && n->kind != FL_ROOT) {
		strbuf__adds(sb, "  ");
		sanitize_str(sb, n->dso_name);
	}
	strbuf__addf(sb, "  %.2f%% (%llu sample%s), self %.2f%%",
		     share(v, n->samples), (unsigned long long)n->samples,
		     PLURAL(n->samples), share(v, n->self_samples));
	screen__addn(s, y, ST_BOLD, sb->buf ? sb->buf : "", sb->len);
}

/* The search's line: the share of the samples under matching frames. */
static void draw_search(struct flamev *v, struct screen *s, size_t y)
{
	struct strbuf *sb = &v->scratch;
	u64 zoomed = v->f.nodes[v->zoom].samples;

	strbuf__reset(sb);
	strbuf__adds(sb, "search \"");
	sanitize_str(sb, v->search);
	strbuf__addf(sb, "\": %.2f%% of all samples in the matching frames",
		     share(v, v->match));
	if (v->zoom)
		strbuf__addf(sb, " (%.2f%% of the zoomed frame)",
			     zoomed ? 100.0 * (double)v->match / (double)zoomed :
				      0.0);
	screen__addn(s, y, ST_FL_MATCH, sb->buf ? sb->buf : "", sb->len);
}

static void flameview__render(struct tui *t, struct screen *s, size_t y0,
			  size_t height)
{
	struct flamev *v = flamev_of(t);
	struct strbuf *sb;
	size_t graph, first_y;
	u32 sel_depth;

	if (!v || !height)
		return;
	sb = &v->scratch;
	strbuf__reset(sb);
	strbuf__adds(sb, "Flame graph");
	if (v->icicle)
		strbuf__adds(sb, " (icicle)");
	strbuf__adds(sb, " of ");
	sanitize_str(sb, t->hi.event ? t->hi.event : "the samples");
	strbuf__addf(sb, ": %llu sample%s",
		     (unsigned long long)v->f.nodes[0].samples,
		     PLURAL(v->f.nodes[0].samples));
	if (v->zoom) {
		strbuf__adds(sb, ", zoomed into ");
		flame__label(sb, &v->f.nodes[v->zoom]);
		strbuf__addf(sb, " (%.2f%%, Esc zooms out)",
			     share(v, v->f.nodes[v->zoom].samples));
	}
	if (v->frozen)
		strbuf__adds(sb, ", frozen (f)");
	/* the table's clock: it moves at each refresh, frozen or not */
	strbuf__addf(sb, "; elapsed %.1f s", t->hi.elapsed);
	screen__addn(s, y0, ST_TITLE, sb->buf ? sb->buf : "", sb->len);
	screen__fill(s, y0, ST_TITLE);
	v->graph_lines = 0;
	if (height < 2)
		return;
	if (!v->f.nodes[0].samples) {
		screen__add(s, y0 + 1, ST_NORMAL,
			    "  no samples with call chains in this window");
		return;
	}
	if (flame__layout(&v->f, v->zoom, s->cols, &v->lay))
		oom__die();
	draw_info(v, s, y0 + 1);
	first_y = y0 + 2;
	if (v->search[0] && height > 3)
		draw_search(v, s, first_y++);
	if (height <= first_y - y0)
		return;
	graph = height - (first_y - y0);
	v->graph_y0 = first_y;
	v->graph_lines = graph;
	/* scroll so that the selected frame's depth is drawn */
	sel_depth = v->f.nodes[v->sel].depth;
	if (sel_depth < v->first_depth)
		v->first_depth = sel_depth;
	if (sel_depth >= v->first_depth + graph)
		v->first_depth = sel_depth - (u32)graph + 1;
	if (v->lay.nr_lines <= graph)
		v->first_depth = 0;
	for (size_t k = 0; k < graph; k++) {
		u32 d = v->first_depth + (u32)k;
		size_t y = v->icicle ? first_y + k : first_y + graph - 1 - k;

		draw_depth(v, s, y, d);
	}
}

/* ---- keys ---- */

static struct flamev *open_view(struct tui *t)
{
	struct flamev *v = flamev_of(t);

	return v && v->f.nr ? v : NULL;
}

/* The cell under the middle of node's cell on depth d (the frame above
 * or below it on the screen), or 0 when there is none. */
static u32 cell_at(const struct flamev *v, u32 d, u32 x)
{
	const struct flame_layout *l = &v->lay;

	if (d >= l->nr_lines)
		return 0;
	for (size_t i = l->line[d]; i < l->line[d + 1]; i++)
		if (x >= l->cells[i].x && x < l->cells[i].x + l->cells[i].w)
			return l->cells[i].node;
	return 0;
}

/* deeper: toward what it calls (up in a flame graph) */
static enum act_result move_depth(struct tui *t, bool deeper)
{
	struct flamev *v = open_view(t);
	const struct flame_cell *c;
	const struct flame_node *n;
	u32 best = 0;

	if (!v)
		return R_NONE;
	n = &v->f.nodes[v->sel];
	if (!deeper) {
		if (v->sel)
			select_node(v, n->parent);
		return R_REDRAW;
	}
	c = flame_layout__find(&v->lay, &v->f, v->sel);
	if (c)	/* the callee above the middle of the frame */
		best = cell_at(v, n->depth + 1, c->x + c->w / 2);
	if (!best || v->f.nodes[best].parent != v->sel) {
		best = 0;	/* else its largest drawn callee */
		for (u32 k = n->first_child; k; k = v->f.nodes[k].next_sibling)
			if (flame_layout__find(&v->lay, &v->f, k) &&
			    (!best || v->f.nodes[k].samples >
					      v->f.nodes[best].samples))
				best = k;
	}
	if (best)
		select_node(v, best);
	return R_REDRAW;
}

/* dir: 1 the frame above on the screen, -1 the one below */
enum act_result action__flame_depth(struct tui *t, int dir)
{
	struct flamev *v = open_view(t);

	return move_depth(t, (dir > 0) != (v && v->icicle));
}

enum act_result action__flame_side(struct tui *t, int dir)
{
	struct flamev *v = open_view(t);
	const struct flame_cell *c;
	const struct flame_layout *l;
	size_t i;

	if (!v)
		return R_NONE;
	l = &v->lay;
	c = flame_layout__find(l, &v->f, v->sel);
	if (!c)
		return R_NONE;
	i = (size_t)(c - l->cells);
	if (dir < 0 && i > l->line[v->f.nodes[v->sel].depth])
		select_node(v, l->cells[i - 1].node);
	else if (dir > 0 && i + 1 < l->line[v->f.nodes[v->sel].depth + 1])
		select_node(v, l->cells[i + 1].node);
	return R_REDRAW;
}

enum act_result action__flame_root(struct tui *t, int arg)
{
	struct flamev *v = open_view(t);

	(void)arg;
	if (v)
		select_node(v, v->zoom);
	return R_REDRAW;
}

enum act_result action__flame_zoom(struct tui *t, int arg)
{
	struct flamev *v = open_view(t);

	(void)arg;
	if (!v)
		return R_NONE;
	if (v->sel == v->zoom)
		return R_NONE;
	if (v->nr_zooms == FL_ZOOMS) {	/* the oldest zoom goes */
		struct fl_path first = v->zooms[0];

		memmove(v->zooms, v->zooms + 1,
			(FL_ZOOMS - 1) * sizeof(v->zooms[0]));
		v->zooms[FL_ZOOMS - 1] = first;
		v->nr_zooms--;
	}
	path__set(&v->zooms[v->nr_zooms++], &v->f, v->sel);
	v->zoom = v->sel;
	v->first_depth = 0;
	flamev__search(v);
	return R_REDRAW;
}

enum act_result action__flame_back(struct tui *t, int arg)
{
	struct flamev *v = flamev_of(t);

	(void)arg;
	if (!v || !v->nr_zooms) {
		tui__pop(t);
		return R_REDRAW;
	}
	v->nr_zooms--;
	v->zoom = v->nr_zooms ?
			  path__find(&v->zooms[v->nr_zooms - 1], &v->f, &v->scratch) :
			  0;
	v->first_depth = 0;
	flamev__search(v);
	return R_REDRAW;
}

enum act_result action__flame_close(struct tui *t, int arg)
{
	(void)arg;
	tui__pop(t);
	return R_REDRAW;
}

enum act_result action__flame_flip(struct tui *t, int arg)
{
	struct flamev *v = open_view(t);

	(void)arg;
	if (!v)
		return R_NONE;
	v->icicle = !v->icicle;
	tui__status(t, ST_NORMAL, "%s",
		    v->icicle ? "icicle: the outermost callers at the top" :
				"flame graph: the outermost callers at the "
				"bottom");
	return R_REDRAW;
}

enum act_result action__flame_freeze(struct tui *t, int arg)
{
	struct flamev *v = open_view(t);

	(void)arg;
	if (!v)
		return R_NONE;
	v->frozen = !v->frozen;
	tui__status(t, ST_NORMAL, "%s",
		    v->frozen ? "frozen: the graph stays as it is while "
				"sampling goes on (f again follows it)" :
				"following the samples again");
	if (!v->frozen)
		flameview__update(t);
	return R_REDRAW;
}

enum act_result action__flame_search(struct tui *t, int arg)
{
	struct flamev *v = open_view(t);

	(void)arg;
	if (!v)
		return R_NONE;
	prompt__open(&t->prompt, PROMPT_FLAME_SEARCH, "Highlight", v->search);
	tui__push(t, V_PROMPT);
	return R_REDRAW;
}

/* Its search prompt: the text as typed, accepted or cancelled (the one
 * before). */
static enum act_result flameview__prompt(struct tui *t, const struct prompt *p,
				     enum prompt_event ev)
{
	struct flamev *v = open_view(t);
	const char *text = ev == PROMPT_CANCEL ? p->saved : p->buf;

	if (!v)
		return R_REDRAW;
	snprintf(v->search, sizeof(v->search), "%s", text);
	flamev__search(v);
	if (ev == PROMPT_ACCEPT && text[0] && !v->match)
		tui__status(t, ST_ERROR, "no frame matches");
	return R_REDRAW;
}

/* The selected frame as a row (identity fields), for annotate and the
 * caller/callee view; an inlined frame stands for the function it was
 * inlined into. */
static bool selected_row(struct tui *t, struct row *r)
{
	struct flamev *v = open_view(t);
	u32 n;

	if (!v || !v->sel) {
		tui__status(t, ST_ERROR, "select a frame first (\"all\" is "
			    "not a function)");
		return false;
	}
	n = v->sel;
	while (n && v->f.nodes[n].kind == FL_INLINED)
		n = v->f.nodes[n].parent;
	if (!n)
		return false;
	memset(r, 0, sizeof(*r));
	r->dso = v->f.nodes[n].dso;
	r->dso_name = v->f.nodes[n].dso_name;
	r->sym = v->f.nodes[n].sym;
	r->sym_start = v->f.nodes[n].addr;
	r->addr = v->f.nodes[n].addr;
	r->kernel = v->f.nodes[n].kind == FL_KERNEL;
	return true;
}

enum act_result action__flame_annotate(struct tui *t, int arg)
{
	struct row r;

	(void)arg;
	if (!selected_row(t, &r))
		return R_REDRAW;
	return tui__open_view(t, V_ANNOTATE, &r);
}

enum act_result action__flame_callers(struct tui *t, int arg)
{
	struct row r;

	(void)arg;
	if (!selected_row(t, &r))
		return R_REDRAW;
	return tui__open_view(t, V_CALLERS, &r);
}

/* The mouse: a click selects the frame under it, a double click zooms
 * into it (Enter), the wheel moves to the caller or a callee (Down,
 * Up). */
static enum act_result flameview__mouse(struct tui *t,
				    const struct mouse_event *ev)
{
	struct flamev *v = open_view(t);
	const struct flame_layout *l;
	size_t line;
	u32 d;

	if (!v)
		return R_NONE;
	if (ev->kind == MK_WHEEL)
		return tui__key(t, ev->button == MB_WHEEL_UP ? K_UP : K_DOWN);
	if (ev->kind != MK_PRESS || ev->button != MB_LEFT ||
	    (size_t)ev->y < v->graph_y0 ||
	    (size_t)ev->y >= v->graph_y0 + v->graph_lines)
		return R_NONE;
	l = &v->lay;
	line = (size_t)ev->y - v->graph_y0;
	d = v->first_depth + (u32)(v->icicle ? line :
				   v->graph_lines - 1 - line);
	if (d >= l->nr_lines)
		return R_NONE;
	for (size_t i = l->line[d]; i < l->line[d + 1]; i++) {
		const struct flame_cell *c = &l->cells[i];

		if ((u32)ev->x < c->x || (u32)ev->x >= c->x + c->w)
			continue;
		select_node(v, c->node);
		return ev->clicks == 2 ? tui__key(t, K_ENTER) : R_REDRAW;
	}
	return R_NONE;
}

/* Its operations (view.h). */
const struct view_ops flameview__view = {
	.view = V_FLAME,
	.name = "flame graph",
	.open = flameview__open,
	.prompt = flameview__prompt,
	.update = flameview__update,
	.render = flameview__render,
	.mouse = flameview__mouse,
	.free = flameview__free,
};
