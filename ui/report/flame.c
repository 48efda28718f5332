/* flame: the flame graph of a snapshot's chains (see flame.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/dso.h"
#include "ui/report/flame.h"
#include "ui/report/sanitize.h"
#include "symbols/symbolizer.h"

void flame__init(struct flame *f)
{
	memset(f, 0, sizeof(*f));
	intmap__init(&f->index);
	strbuf__init(&f->label);
	f->root = STACK_ROOT_NONE;
	flame__reset(f);
}

void flame__fini(struct flame *f)
{
	free(f->nodes);
	intmap__fini(&f->index);
	strpool__free(f->labels);
	strbuf__fini(&f->label);
	memset(f, 0, sizeof(*f));
}

enum stack_root stack_root__resolve(enum stack_root r,
				    const struct snapshot *snap)
{
	s32 pid = -1;

	if (r != STACK_ROOT_AUTO)
		return r;
	/* the idle task is no process of the target's (its rows are left
	 * out unless shown, and then it is one more process) */
	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_key *k = &snap->entries[i].key;

		if (k->idle || k->pid <= 0)
			continue;
		if (pid >= 0 && k->pid != pid)
			return STACK_ROOT_COMM;
		pid = k->pid;
	}
	return STACK_ROOT_NONE;
}

void stack_root__label(struct strbuf *sb, enum stack_root r,
		       const struct hist_key *k)
{
	size_t at = sb->len;

	if (r == STACK_ROOT_NONE || r == STACK_ROOT_AUTO)
		return;
	sanitize_str(sb, k->comm ? k->comm : k->idle ? "swapper" : "[unknown]");
	/* stackcollapse-perf.pl: spaces become underscores */
	for (size_t i = at; i < sb->len; i++)
		if (sb->buf[i] == ' ')
			sb->buf[i] = '_';
	if (r == STACK_ROOT_PID || r == STACK_ROOT_TID)
		strbuf__addf(sb, "-%d", k->pid);
	if (r == STACK_ROOT_TID)
		strbuf__addf(sb, "/%d", k->tid);
}

void flame__reset(struct flame *f)
{
	intmap__fini(&f->index);
	intmap__init(&f->index);
	f->nr = 0;
	f->max_depth = 0;
	if (array__grow((void **)&f->nodes, &f->cap, 1, sizeof(*f->nodes)))
		return;	/* flame__add says -ENOMEM */
	f->nodes[0] = (struct flame_node){ .kind = FL_ROOT };
	f->nr = 1;
}

static enum flame_kind frame_kind(const struct path_frame *fr)
{
	/* --root's frame: a name and nothing else */
	if (!fr->dso && !fr->sym.dso_name && fr->sym.name && !fr->inlined)
		return FL_PROCESS;
	if (fr->inlined)
		return FL_INLINED;
	if (fr->sym.flags & SYM_F_KERNEL ||
	    (fr->dso && fr->dso->kind == DSO_KERNEL))
		return FL_KERNEL;
	if (fr->sym.flags & SYM_F_JIT ||
	    (fr->dso && fr->dso->kind == DSO_ANON))
		return FL_JIT;
	return FL_USER;
}

/* Frames are the same as in the call trees (rowset.c): a function by
 * its start (overloads share a name), an inlined one by its name, no
 * symbol by its address; in the same object. */
static bool same_frame(const struct flame_node *n, const struct path_frame *fr)
{
	const struct row_sym *s = &fr->sym;

	return n->dso_name == s->dso_name && n->sym == s->name &&
	       (n->kind == FL_INLINED) == fr->inlined &&
	       (fr->inlined || n->addr == s->start);
}

static u64 frame_hash(u32 parent, const struct path_frame *fr)
{
	const struct row_sym *s = &fr->sym;
	u64 h = hash_u64(parent ^ ((u64)fr->inlined << 32));

	h = hash_u64(h ^ (u64)(uintptr_t)s->name);
	h = hash_u64(h ^ (u64)(uintptr_t)s->dso_name);
	return hash_u64(h ^ (fr->inlined ? 0 : s->start));
}

static u32 flame__child(struct flame *f, u32 parent,
			const struct path_frame *fr)
{
	u64 key = frame_hash(parent, fr);
	u32 c = (u32)(uintptr_t)intmap__get(&f->index, key);

	if (c && f->nodes[c].parent == parent && same_frame(&f->nodes[c], fr))
		return c;
	if (c) {	/* another frame with the same hash: rare, search */
		for (c = f->nodes[parent].first_child; c;
		     c = f->nodes[c].next_sibling)
			if (same_frame(&f->nodes[c], fr))
				return c;
	}
	if (f->nr >= UINT32_MAX ||
	    array__grow((void **)&f->nodes, &f->cap, f->nr + 1,
			sizeof(*f->nodes)))
		return 0;
	c = (u32)f->nr++;
	f->nodes[c] = (struct flame_node){
		.sym = fr->sym.name,
		.dso_name = fr->sym.dso_name,
		.dso = fr->dso,
		.addr = fr->sym.start,
		.kind = frame_kind(fr),
		.parent = parent,
		.next_sibling = f->nodes[parent].first_child,
		.depth = f->nodes[parent].depth + 1,
	};
	f->nodes[parent].first_child = c;
	if (f->nodes[c].depth > f->max_depth)
		f->max_depth = f->nodes[c].depth;
	if (!intmap__get(&f->index, key) &&
	    intmap__put(&f->index, key, (void *)(uintptr_t)c))
		return 0;
	return c;
}

int flame__add(struct flame *f, const struct path_frame *frames, size_t n,
	       u64 samples, u64 period)
{
	u32 node = 0;

	if (!f->nr)
		return -ENOMEM;
	if (n > FLAME_MAX_DEPTH)
		n = FLAME_MAX_DEPTH;
	f->nodes[0].samples += samples;
	f->nodes[0].period += period;
	for (size_t i = 0; i < n; i++) {
		node = flame__child(f, node, &frames[i]);
		if (!node)
			return -ENOMEM;
		f->nodes[node].samples += samples;
		f->nodes[node].period += period;
	}
	f->nodes[node].self_samples += samples;
	f->nodes[node].self_period += period;
	return 0;
}

static int label_cmp(const struct flame_node *a, const struct flame_node *b)
{
	int c;

	if (a->sym && b->sym) {
		c = strcmp(a->sym, b->sym);
		if (c)
			return c;
	} else if (a->sym || b->sym) {
		return a->sym ? -1 : 1;	/* addresses last */
	}
	c = strcmp(a->dso_name ? a->dso_name : "", b->dso_name ? b->dso_name : "");
	if (c)
		return c;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int child_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct flame *f = ctx;

	return label_cmp(&f->nodes[*(const u32 *)pa], &f->nodes[*(const u32 *)pb]);
}

void flame__sort(struct flame *f)
{
	u32 *kids = NULL;
	size_t cap = 0;

	for (size_t p = 0; p < f->nr; p++) {
		size_t n = 0;

		for (u32 c = f->nodes[p].first_child; c; c = f->nodes[c].next_sibling) {
			if (array__grow((void **)&kids, &cap, n + 1, sizeof(*kids)))
				goto out;	/* left unsorted: still a graph */
			kids[n++] = c;
		}
		if (n < 2)
			continue;
		qsort_r(kids, n, sizeof(*kids), child_cmp, f);
		f->nodes[p].first_child = kids[0];
		for (size_t i = 0; i < n; i++)
			f->nodes[kids[i]].next_sibling = i + 1 < n ? kids[i + 1] : 0;
	}
out:
	free(kids);
}

int flame__add_path(struct flame *f, const struct path_frame *frames,
		    size_t n, const struct hist_entry *e)
{
	struct path_frame root[FLAME_MAX_DEPTH];
	const char *label;

	if (f->root == STACK_ROOT_NONE || f->root == STACK_ROOT_AUTO)
		return flame__add(f, frames, n, e->samples, e->period);
	/* the process's frame first: its name interned, so that every
	 * stack of one process meets under one node */
	if (!f->labels)
		f->labels = strpool__new();
	strbuf__reset(&f->label);
	stack_root__label(&f->label, f->root, &e->key);
	label = f->labels && !f->label.oom ?
			strpool__intern(f->labels, f->label.buf, f->label.len) :
			NULL;
	if (!label)
		return -ENOMEM;
	n = MIN(n, (size_t)FLAME_MAX_DEPTH - 1);
	memset(&root[0], 0, sizeof(root[0]));
	root[0].sym.name = label;
	memcpy(root + 1, frames, n * sizeof(*frames));
	return flame__add(f, root, n + 1, e->samples, e->period);
}

static int build_path(void *ctx, const struct path_frame *frames, size_t n,
		      const struct hist_entry *e)
{
	return flame__add_path(ctx, frames, n, e);
}

int flame__build(struct flame *f, struct rowset *rs, cg_inline_fn inl,
		 void *inl_ctx)
{
	int err;

	flame__reset(f);
	err = rowset__foreach_path_inline(rs, inl, inl_ctx, build_path, f);
	if (!err)
		flame__sort(f);
	return err;
}

void flame__label(struct strbuf *sb, const struct flame_node *n)
{
	if (n->kind == FL_ROOT)
		strbuf__adds(sb, "all");
	else if (n->sym)
		sanitize_str(sb, n->sym);
	else {
		strbuf__addc(sb, '[');
		sanitize_str(sb, n->dso_name ? n->dso_name : "unknown");
		strbuf__addf(sb, "+0x%" PRIx64 "]", n->addr);
	}
}

bool flame__is_ancestor(const struct flame *f, u32 a, u32 b)
{
	if (a >= f->nr || b >= f->nr)
		return false;
	while (f->nodes[b].depth > f->nodes[a].depth)
		b = f->nodes[b].parent;
	return a == b;
}

void flame_layout__init(struct flame_layout *l)
{
	memset(l, 0, sizeof(*l));
}

void flame_layout__fini(struct flame_layout *l)
{
	free(l->cells);
	free(l->line);
	memset(l, 0, sizeof(*l));
}

struct lay_item {
	u32 node;
	u64 off;	/* samples before it, from the zoom frame's left */
};

int flame__layout(const struct flame *f, u32 zoom, size_t width,
		  struct flame_layout *l)
{
	struct lay_item *stack = NULL;
	struct flame_cell *tmp = NULL;
	size_t nr_stack = 0, cap_stack = 0, nr = 0, cap_tmp = 0;
	u32 deepest, zdepth;
	u64 total;
	int err = 0;

	l->nr = 0;
	l->nr_lines = 0;
	l->zoom = zoom < f->nr ? zoom : 0;
	if (!f->nr || !width)
		return 0;
	zoom = l->zoom;
	zdepth = f->nodes[zoom].depth;
	total = f->nodes[zoom].samples;
	l->total = total;
	deepest = zdepth;
	/* the zoom frame and its callers: the whole width */
	for (u32 n = zoom;; n = f->nodes[n].parent) {
		if (array__grow((void **)&tmp, &cap_tmp, nr + 1, sizeof(*tmp)))
			goto oom;
		tmp[nr++] = (struct flame_cell){ .node = n, .x = 0,
						 .w = (u32)width };
		if (!n)
			break;
	}
	if (!total)
		goto place;
	/* what the zoom frame calls, depth first, left to right */
	if (array__grow((void **)&stack, &cap_stack, 1, sizeof(*stack)))
		goto oom;
	stack[nr_stack++] = (struct lay_item){ .node = zoom, .off = 0 };
	while (nr_stack) {
		struct lay_item it = stack[--nr_stack];
		size_t first = nr_stack;
		u64 off = it.off;

		for (u32 c = f->nodes[it.node].first_child; c;
		     c = f->nodes[c].next_sibling) {
			const struct flame_node *cn = &f->nodes[c];
			double x0 = (double)off * (double)width / (double)total;
			double x1 = (double)(off + cn->samples) * (double)width /
				    (double)total;
			u32 a = (u32)(x0 + 0.5), b = (u32)(x1 + 0.5);
			u64 at = off;

			off += cn->samples;
			if (b <= a)
				continue;	/* under a column: left out,
						 * with what it calls */
			if (array__grow((void **)&tmp, &cap_tmp, nr + 1,
					sizeof(*tmp)) ||
			    array__grow((void **)&stack, &cap_stack,
					nr_stack + 1, sizeof(*stack)))
				goto oom;
			tmp[nr++] = (struct flame_cell){ .node = c, .x = a,
							 .w = b - a };
			stack[nr_stack++] = (struct lay_item){ .node = c,
							       .off = at };
			if (cn->depth > deepest)
				deepest = cn->depth;
		}
		/* the leftmost child pops first: cells of one depth come
		 * out left to right */
		for (size_t i = first, j = nr_stack; i + 1 < j; i++, j--) {
			struct lay_item x = stack[i];

			stack[i] = stack[j - 1];
			stack[j - 1] = x;
		}
	}
place:
	/* grouped by depth, keeping the order within a depth (counting
	 * sort): the callers were added innermost first */
	l->nr_lines = deepest + 1;
	if (array__grow((void **)&l->line, &l->cap_line, (size_t)l->nr_lines + 1,
			sizeof(*l->line)) ||
	    array__grow((void **)&l->cells, &l->cap, nr ? nr : 1,
			sizeof(*l->cells)))
		goto oom;
	memset(l->line, 0, ((size_t)l->nr_lines + 1) * sizeof(*l->line));
	for (size_t i = 0; i < nr; i++)
		l->line[f->nodes[tmp[i].node].depth + 1]++;
	for (u32 d = 0; d < l->nr_lines; d++)
		l->line[d + 1] += l->line[d];
	{
		size_t *at = calloc((size_t)l->nr_lines + 1, sizeof(*at));

		if (!at)
			goto oom;
		memcpy(at, l->line, ((size_t)l->nr_lines + 1) * sizeof(*at));
		for (size_t i = 0; i < nr; i++)
			l->cells[at[f->nodes[tmp[i].node].depth]++] = tmp[i];
		free(at);
	}
	l->nr = nr;
	goto out;
oom:
	err = -ENOMEM;
	l->nr = 0;
	l->nr_lines = 0;
out:
	free(stack);
	free(tmp);
	return err;
}

const struct flame_cell *flame_layout__find(const struct flame_layout *l,
					    const struct flame *f, u32 node)
{
	u32 d;

	if (node >= f->nr)
		return NULL;
	d = f->nodes[node].depth;
	if (d >= l->nr_lines)
		return NULL;
	for (size_t i = l->line[d]; i < l->line[d + 1]; i++)
		if (l->cells[i].node == node)
			return &l->cells[i];
	return NULL;
}

struct search_item {
	u32 node;
	bool inside;	/* a caller of it (under the zoom) matched */
};

u64 flame__search(const struct flame *f, u32 zoom, const char *substr,
		  bool *marks)
{
	struct strbuf sb;
	struct search_item *stack = NULL;
	size_t nr = 0, cap = 0;
	u64 sum = 0;

	memset(marks, 0, f->nr * sizeof(*marks));
	if (!substr || !*substr || zoom >= f->nr)
		return 0;
	strbuf__init(&sb);
	if (array__grow((void **)&stack, &cap, 1, sizeof(*stack)))
		goto out;
	stack[nr++] = (struct search_item){ .node = zoom };
	/* the zoom frame's callers are drawn too: a match there holds
	 * every path of the zoom frame */
	for (u32 n = zoom; n; ) {
		n = f->nodes[n].parent;
		strbuf__reset(&sb);
		flame__label(&sb, &f->nodes[n]);
		marks[n] = n && sb.buf && strcasestr(sb.buf, substr);
		if (marks[n] && !stack[0].inside) {
			stack[0].inside = true;
			sum = f->nodes[zoom].samples;
		}
	}
	while (nr) {
		struct search_item it = stack[--nr];
		const struct flame_node *fn = &f->nodes[it.node];

		strbuf__reset(&sb);
		flame__label(&sb, fn);
		/* the root, "all", is not a frame */
		marks[it.node] = it.node && sb.buf && strcasestr(sb.buf, substr);
		/* each path once: a match inside a match adds nothing */
		if (marks[it.node] && !it.inside)
			sum += fn->samples;
		for (u32 c = fn->first_child; c; c = f->nodes[c].next_sibling) {
			if (array__grow((void **)&stack, &cap, nr + 1,
					sizeof(*stack)))
				goto out;
			stack[nr++] = (struct search_item){
				.node = c, .inside = it.inside || marks[it.node] };
		}
	}
out:
	free(stack);
	strbuf__fini(&sb);
	return sum;
}
