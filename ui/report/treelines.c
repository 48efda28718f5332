/* treelines: expanded call trees under the table's rows. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ui/report/treelines.h"
#include "ui/report/fmt.h"

void treelines__init(struct treelines *ct, enum cg_order order, double limit)
{
	memset(ct, 0, sizeof(*ct));
	ct->order = order;
	ct->limit = limit;
	strbuf__init(&ct->text);
	callgraph__init(&ct->tree);
}

void treelines__fini(struct treelines *ct)
{
	free(ct->ids);
	free(ct->lines);
	free(ct->row_line);
	strbuf__fini(&ct->text);
	callgraph__fini(&ct->tree);
	memset(ct, 0, sizeof(*ct));
}

static struct ct_id *treelines__id(const struct treelines *ct,
				  const struct rowset *rs, const struct row *r)
{
	for (size_t k = 0; k < ct->nr_ids; k++)
		if (rowset__same_row(rs, &ct->ids[k].row, r))
			return &ct->ids[k];
	return NULL;
}

bool treelines__expanded(const struct treelines *ct, const struct rowset *rs,
			size_t i)
{
	const struct ct_id *id;

	if (i >= rs->nr)
		return false;
	id = treelines__id(ct, rs, &rs->rows[i]);
	return id ? id->expanded : ct->all;
}

bool treelines__toggle(struct treelines *ct, const struct rowset *rs, size_t i)
{
	struct ct_id *id;
	bool now;

	if (i >= rs->nr)
		return false;
	now = !treelines__expanded(ct, rs, i);
	id = treelines__id(ct, rs, &rs->rows[i]);
	if (!id) {
		if (array__grow((void **)&ct->ids, &ct->cap_ids,
				ct->nr_ids + 1, sizeof(*ct->ids)))
			return !now;
		id = &ct->ids[ct->nr_ids++];
		memset(id, 0, sizeof(*id));
		id->row = rs->rows[i];
		/* only the identity counts; no stale totals */
		id->row.samples = id->row.period = 0;
		id->row.children_samples = id->row.children_period = 0;
	}
	id->expanded = now;
	return now;
}

void treelines__expand_all(struct treelines *ct)
{
	ct->all = true;
	ct->nr_ids = 0;
}

void treelines__collapse_all(struct treelines *ct)
{
	ct->all = false;
	ct->nr_ids = 0;
}

struct build_ctx {
	struct treelines *ct;
	u32 row, sub;
	int err;
};

static int treelines__push(struct treelines *ct, const struct ct_line *l)
{
	if (array__grow((void **)&ct->lines, &ct->cap_lines, ct->nr_lines + 1,
			sizeof(*ct->lines)))
		return -ENOMEM;
	ct->lines[ct->nr_lines++] = *l;
	return 0;
}

static void tree_line(void *ctx, const char *text, size_t len, u32 node)
{
	struct build_ctx *b = ctx;
	struct treelines *ct = b->ct;
	struct ct_line l = {
		.row = b->row, .sub = ++b->sub,
		.off = (u32)ct->text.len, .len = (u32)len,
	};

	if (b->err)
		return;
	if (node)
		l.node = ct->tree.nodes[node];
	if (ct->text.len + len >= UINT32_MAX ||
	    strbuf__add(&ct->text, text, len) || treelines__push(ct, &l))
		b->err = -ENOMEM;
}

/*
 * The lines from row `from` on (those before stay as they are): each
 * row's line, and its tree when it is expanded, until row `through` has
 * its tree and `after` lines follow that row's line; past that, rows
 * have their line alone and wait (ct->lazy_from) for a later
 * treelines__draw_to.  after SIZE_MAX: every tree.
 */
static int treelines__draw(struct treelines *ct, struct rowset *rs, size_t from,
			  size_t through, size_t after)
{
	struct build_ctx b = { .ct = ct };
	size_t until = SIZE_MAX;	/* lines wanted, once through is in */
	bool cut = false;
	int err;

	/* (row_line[0] of a new array is not 0 yet) */
	ct->nr_lines = from && from < rs->nr ? ct->row_line[from] : 0;
	ct->lazy_from = rs->nr;
	if (through < from && after != SIZE_MAX)
		until = ct->row_line[through] + after;
	for (size_t i = from; i < rs->nr && !b.err; i++) {
		struct ct_line l = { .row = (u32)i };

		if (ct->nr_lines >= UINT32_MAX || treelines__push(ct, &l))
			return -ENOMEM;
		ct->row_line[i] = (u32)(ct->nr_lines - 1);
		if (i == through && after != SIZE_MAX)
			until = ct->nr_lines - 1 + after;
		if (!cut && i > through && ct->nr_lines > until) {
			/* enough to show: the rest when it is shown */
			ct->lazy_from = i;
			cut = true;
		}
		if (cut || !treelines__expanded(ct, rs, i))
			continue;
		if (ct->trees >= CT_MAX_TREES) {
			ct->capped = true;
			continue;
		}
		err = rowset__tree_inline(rs, &rs->rows[i], ct->order, ct->inl,
					  ct->inl_ctx, &ct->tree);
		/* a key or a stop request (rowset__set_cancel): the rows,
		 * with the trees drawn so far; the owner builds again (a
		 * later draw_to is cancelled too until then) */
		if (err == -ECANCELED) {
			ct->lazy_from = i;
			cut = true;
			continue;
		}
		if (err)
			return err;
		ct->trees++;
		b.row = (u32)i;
		b.sub = 0;
		fmt__tree(&ct->tree, CT_INDENT, ct->limit, tree_line, &b);
	}
	return b.err;
}

int treelines__build(struct treelines *ct, struct rowset *rs)
{
	int err;

	ct->nr_lines = 0;
	ct->has_lines = false;
	ct->trees = 0;
	ct->capped = false;
	ct->nr_rows = rs->nr;
	ct->lazy_from = rs->nr;
	strbuf__reset(&ct->text);
	if (!ct->all && !ct->nr_ids)
		return 0;
	if (rs->nr > UINT32_MAX ||
	    array__grow((void **)&ct->row_line, &ct->cap_row_line,
			rs->nr ? rs->nr : 1, sizeof(*ct->row_line)))
		return -ENOMEM;
	err = treelines__draw(ct, rs, 0, ct->want_row,
			     ct->want_lines ? ct->want_lines : SIZE_MAX);
	if (err)
		return err;
	ct->has_lines = true;
	return 0;
}

int treelines__draw_to(struct treelines *ct, struct rowset *rs, size_t row,
		      size_t after)
{
	size_t first;

	if (row >= rs->nr)
		row = rs->nr ? rs->nr - 1 : 0;
	if (!treelines__complete(ct, rs)) {
		/* drawn already: row is before the first row waiting and
		 * the lines wanted after it are there */
		if (row < ct->lazy_from) {
			first = ct->row_line[row];
			if (after != SIZE_MAX &&
			    ct->row_line[ct->lazy_from] > first + after)
				return 0;
		}
		return treelines__draw(ct, rs, ct->lazy_from, row, after);
	}
	return 0;
}

bool treelines__complete(const struct treelines *ct, const struct rowset *rs)
{
	return !ct->has_lines || ct->nr_rows != rs->nr ||
	       ct->lazy_from >= rs->nr;
}

/* Whether the lines are those of rs (else line i is row i). */
static bool treelines__valid(const struct treelines *ct, const struct rowset *rs)
{
	return ct->has_lines && ct->nr_rows == rs->nr;
}

size_t treelines__nr_lines(const struct treelines *ct, const struct rowset *rs)
{
	return treelines__valid(ct, rs) ? ct->nr_lines : rs->nr;
}

const struct ct_line *treelines__line(const struct treelines *ct,
				     const struct rowset *rs, size_t i,
				     size_t *row, size_t *sub)
{
	const struct ct_line *l;

	if (!treelines__valid(ct, rs) || i >= ct->nr_lines) {
		*row = i;
		*sub = 0;
		return NULL;
	}
	l = &ct->lines[i];
	*row = l->row;
	*sub = l->sub;
	return l->sub ? l : NULL;
}

size_t treelines__line_of(const struct treelines *ct, const struct rowset *rs,
			 size_t row, size_t sub)
{
	size_t first, end;

	if (!treelines__valid(ct, rs) || row >= rs->nr)
		return row;
	first = ct->row_line[row];
	end = row + 1 < rs->nr ? ct->row_line[row + 1] : ct->nr_lines;
	return first + MIN(sub, end - first - 1);
}
