/* actions: the keys every view shares, through the loop: moving in a
 * list, quitting, going back, opening a view, a list's search and the
 * footer's prompt (what is typed goes to the view that opened it).
 * Actions never draw: they change state and return what the loop must
 * do.  The table's own actions are by area in actions_zoom.c (filters
 * and zooms), actions_source.c (events, target, pause, refreshes) and
 * actions_table.c (sorting, the baseline, a row's menu, saving). */
#include "ui/tui/actions.h"
#include "ui/tui/tui_internal.h"

static struct listview *cur_list(struct tui *t)
{
	return tui__list(t, tui__view(t));
}

enum act_result action__move(struct tui *t, int arg)
{
	const struct view_ops *v = views__find(tui__view(t));
	struct listview *lv = cur_list(t);

	if (lv)
		listview__move(lv, (enum lv_move)arg);
	/* (the table remembers its selected row) */
	if (v && v->moved)
		v->moved(t);
	return R_REDRAW;
}

enum act_result action__quit(struct tui *t, int arg)
{
	(void)arg;
	(void)t;
	return R_QUIT;
}

enum act_result action__repaint(struct tui *t, int arg)
{
	(void)arg;
	t->repaint = true;
	return R_REDRAW;
}

enum act_result action__back(struct tui *t, int arg)
{
	unsigned int view = tui__view(t);

	(void)arg;
	if (view & V_LIST) {
		struct listview *lv = cur_list(t);

		if (lv && lv->filter[0]) {
			listview__set_filter(lv, NULL);
			return R_REDRAW;
		}
		tui__pop(t);
		return R_REDRAW;
	}
	return R_NONE;
}

/* ---- lists ---- */

enum act_result action__open(struct tui *t, int view)
{
	return tui__open_view(t, (unsigned int)view, NULL);
}

enum act_result action__list_filter(struct tui *t, int arg)
{
	struct listview *lv = cur_list(t);

	(void)arg;
	if (!lv || !lv->ops || !lv->ops->row_text)
		return R_NONE;
	prompt__open(&t->prompt, PROMPT_LIST_FILTER, "Search", lv->filter);
	tui__push(t, V_PROMPT);
	return R_REDRAW;
}

/* The list a list filter's prompt filters: the view's under it. */
static struct listview *prompt_list(struct tui *t)
{
	return tui__list(t, tui__shown_view(t));
}

/* ---- prompts: the loop's; what is typed goes to what opened the
 * prompt: the actions' own prompts (the table's symbol filter, percent
 * limit and target) to their handlers, a list's search to its list, the
 * others to the view under the prompt (its prompt operation) ---- */

static enum act_result prompt_event(struct tui *t, enum prompt_event ev)
{
	const struct view_ops *v;
	const struct prompt *p = &t->prompt;

	switch (p->kind) {
	case PROMPT_LIST_FILTER:
		listview__set_filter(prompt_list(t), ev == PROMPT_CANCEL ?
							     p->saved : p->buf);
		return R_REDRAW;
	case PROMPT_TARGET:
		return ev == PROMPT_ACCEPT ? actions__target_prompt(t, p->buf) :
					     R_REDRAW;
	case PROMPT_SYM_FILTER:
	case PROMPT_PERCENT:
		return actions__filter_prompt(t, p, ev);
	default:
		break;
	}
	/* (accepted or cancelled, it is closed: the view is on top) */
	v = views__find(tui__shown_view(t));
	return v && v->prompt ? v->prompt(t, p, ev) : R_REDRAW;
}

enum act_result actions__prompt_input(struct tui *t, int key)
{
	if (!prompt__insert(&t->prompt, (u32)key))
		return R_NONE;
	return prompt_event(t, PROMPT_TYPED);
}

enum act_result action__prompt_erase(struct tui *t, int arg)
{
	(void)arg;
	if (!prompt__erase(&t->prompt))
		return R_NONE;
	return prompt_event(t, PROMPT_TYPED);
}

enum act_result action__prompt_kill(struct tui *t, int arg)
{
	(void)arg;
	prompt__kill(&t->prompt);
	return prompt_event(t, PROMPT_TYPED);
}

enum act_result action__prompt_cancel(struct tui *t, int arg)
{
	(void)arg;
	tui__pop(t);
	return prompt_event(t, PROMPT_CANCEL);
}

enum act_result action__prompt_next(struct tui *t, int arg)
{
	(void)arg;
	if (t->prompt.kind != PROMPT_TOP_SEARCH)
		return R_NONE;
	return prompt_event(t, PROMPT_NEXT);
}

enum act_result action__prompt_accept(struct tui *t, int arg)
{
	(void)arg;
	tui__pop(t);
	return prompt_event(t, PROMPT_ACCEPT);
}
