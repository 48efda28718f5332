/* keys: the one key table (dispatch, help screen, doc/keys.md). */
#include <stdio.h>
#include <string.h>

#include "ui/tui/actions.h"
#include "ui/tui/keys.h"
#include "ui/tui/listview.h"
#include "ui/tui/view.h"
#include "ui/tui/view_annotate.h"
#include "ui/tui/view_callers.h"
#include "ui/tui/view_events.h"
#include "ui/tui/view_flame.h"
#include "ui/tui/view_help.h"
#include "ui/tui/view_menu.h"
#include "ui/tui/view_setup.h"
#include "ui/tui/view_timeline.h"
#include "ui/tui/view_top.h"
#include "ui/tui/view_tree.h"

/*
 * Every view: the loop reaches each only through its operations (view.h).
 * A new view is one file (ui/tui/view_NAME.c and its header), one V_*
 * bit (keys.h), its line here and its rows in the key table below.  The
 * order is the order of updates after each rebuild: the table after the
 * views of its rows, the timeline after the table (it draws the row the
 * table's update keeps selected).
 */
const struct view_ops *const views__table[] = {
	&callers__view, &annview__view, &flameview__view, &top__view,
	&timeline__view, &help__view, &menu__view, &evpick__view, &setup__view,
};
const size_t views__nr = ARRAY_SIZE(views__table);

/*
 * perf top's keys where it has one, htop's where it has none.  Order
 * matters: it is the order of the help screen and of doc/keys.md, and
 * consecutive bindings with the same action and help share a line.
 */
const struct key_binding keys__table[] = {
	/* moving: the table and every list */
	{ { K_UP, 'k' }, V_BROWSE, action__move, LV_UP,
	  "select the previous row" },
	{ { K_DOWN, 'j' }, V_BROWSE, action__move, LV_DOWN,
	  "select the next row" },
	{ { K_PGUP }, V_BROWSE, action__move, LV_PGUP, "one page up" },
	{ { K_PGDN }, V_BROWSE, action__move, LV_PGDN, "one page down" },
	{ { K_HOME }, V_BROWSE, action__move, LV_HOME, "first row" },
	{ { K_END }, V_BROWSE, action__move, LV_END, "last row" },
	{ { K_CTRL_L }, V_BROWSE | V_FLAME | V_TIMELINE, action__repaint, 0,
	  "repaint the terminal" },
	{ { K_CTRL_C }, V_ALL, action__quit, 0, "quit ptop at once" },

	/* the table */
	{ { 'q', K_F(10) }, V_TOP, action__quit, 0, "quit ptop", "quit" },
	{ { K_ESC, K_LEFT }, V_TOP, action__undo, 0,
	  "undo the last thing the filters: line lists (a filter, a zoom, "
	  "K/U, i, L, a row limit, the sort order or grouping), the last "
	  "first; with none, it says so (q quits)", "undo" },
	{ { 'h', '?', K_F(1) }, V_TOP, action__open, V_HELP,
	  "this help: every key and its effect", "help" },
	{ { K_TAB }, V_TOP, action__event, 1, "show the next sampled event",
	  "event" },
	{ { K_BTAB }, V_TOP, action__event, -1,
	  "show the previous sampled event" },
	{ { 'e' }, V_TOP, action__open, V_EVENTS,
	  "event picker: add an event (or replace the shown one) live",
	  "add event", .live = true },
	{ { K_F(2) }, V_TOP, action__open, V_SETUP,
	  "setup: sort, grouping, columns, limits, delay, children, inline "
	  "rows, colours, mouse; saved to the settings file", "setup" },
	{ { 's', K_F(6) }, V_TOP, action__sort_picker, 0,
	  "sort and group: what rows are ordered by (overhead, samples, "
	  "period, a grouping column A to Z; delta, absdelta against a "
	  "baseline), and which columns group them (dso, sym, comm, pid, "
	  "tid, cpu, cgroup, state), apart", "sort" },
	{ { '>' }, V_TOP, action__sort_cycle, 1,
	  "order by the next key (the counts, then the grouping columns)" },
	{ { '<' }, V_TOP, action__sort_cycle, -1,
	  "order by the previous key" },
	{ { 'I' }, V_TOP, action__sort_invert, 0, "invert the sort order" },
	{ { '/', K_F(4) }, V_TOP, action__filter, 0,
	  "filter symbols as you type (Enter keeps it, empty clears it)",
	  "filter" },
	{ { K_F(3) }, V_TOP, action__search, 0,
	  "search: select the next row whose symbol, shared object or "
	  "command holds a text (F3 again: the one after); the rows stay",
	  "search" },
	{ { 'd' }, V_TOP, action__zoom_dso, 0,
	  "zoom into the selected row's shared object (Esc undoes)", "zoom" },
	{ { 't' }, V_TOP, action__zoom_owner, true,
	  "zoom into the selected row's thread (Esc undoes)" },
	{ { 'T' }, V_TOP, action__zoom_owner, false,
	  "zoom into the selected row's whole process (Esc undoes)" },
	{ { 'g' }, V_TOP, action__zoom_cgroup, 0,
	  "zoom into the selected row's cgroup (container, service; Esc "
	  "undoes)" },
	{ { 'K' }, V_TOP, action__hide, 0, "hide or show kernel symbols" },
	{ { 'U' }, V_TOP, action__hide, 1, "hide or show user symbols" },
	{ { 'N' }, V_TOP, action__demangle_params, 0,
	  "C++ names with their parameters, or by their name alone (perf's "
	  "form, the default)" },
	{ { 'i' }, V_TOP, action__show_idle, 0,
	  "show or hide the idle task's samples (pid 0) as rows; hidden, "
	  "they are the header's idle share and shares are of the rest" },
	{ { 'L' }, V_TOP, action__percent_limit, 0,
	  "hide rows under a percentage (asks for it)" },
	{ { 'p' }, V_TOP, action__target, 0,
	  "attach to a pid or process name (empty: every CPU), live",
	  "attach", .live = true },
	{ { 'f' }, V_TOP, action__pause, 0,
	  "pause or resume sampling (the events are disabled)", "pause",
	  .live = true },
	{ { 'z' }, V_TOP, action__zero, 0,
	  "zero the histogram at every refresh, or accumulate" },
	{ { '[' }, V_TOP, action__delay, -1, "refresh more often" },
	{ { ']' }, V_TOP, action__delay, 1, "refresh less often" },
	{ { K_ENTER }, V_TOP, action__row_menu, 0,
	  "the selected row's menu (annotate, zooms, copy to a file)",
	  "menu" },
	{ { 'a' }, V_TOP, action__annotate, 0, "annotate the selected symbol" },
	{ { 'b' }, V_TOP, action__baseline, 0,
	  "mark the table as the baseline and count again from zero (-z: "
	  "one refresh against the marked one; in a time window: the "
	  "window, against the next one): rows show the baseline's "
	  "share, now's and the Delta in points, new and gone rows "
	  "marked; again: clear it (and a --baseline file)", "baseline" },
	{ { 'P' }, V_TOP, action__save, 0,
	  "save the table as text (the file is named in the status line)" },
	/* call graphs (-g) */
	{ { '+' }, V_TOP, action__tree_toggle, 0,
	  "expand or collapse the selected row's call tree (-g), in perf's "
	  "graph style, % of the row's Children total", "expand" },
	{ { 'E' }, V_TOP, action__tree_expand_all, 0,
	  "expand every row's call tree" },
	{ { K_F(5) }, V_TOP, action__tree_all, 0,
	  "htop's tree view: expand every call tree, or collapse them all "
	  "when some are expanded", "tree" },
	{ { 'C' }, V_TOP, action__tree_collapse_all, 0,
	  "collapse every call tree" },
	{ { 'G' }, V_TOP, action__tree_order, 0,
	  "flip the trees: callers first (who calls it, then what it calls) "
	  "or callees first" },
	{ { 'l' }, V_TOP, action__inline_rows, 0,
	  "rows for inlined functions too (Children only) and their frames "
	  "in trees, as perf report's \"(inlined)\", or none (default: shown "
	  "for a --call-graph dwarf recording)" },
	{ { 'c' }, V_TOP, action__callers, 0,
	  "callers and callees of the selected function (or of the function "
	  "a tree line names), with their shares", "callers" },
	{ { 'F' }, V_TOP, action__open, V_FLAME,
	  "flame graph of the call chains (-g), live", "flame" },
	{ { 'w' }, V_TOP, action__open, V_TIMELINE,
	  "timeline: the samples over time, of the whole target, of the "
	  "selected row and of each process or thread; a time window chosen "
	  "there is what every view shows", "timeline" },
	{ { 'H' }, V_TOP, action__history, 0,
	  "show or hide the History column: each row's share over the last "
	  "refreshes (a recording: over its whole time, or the window)" },

	/* the flame graph */
	{ { K_UP, 'k' }, V_FLAME, action__flame_depth, 1,
	  "the frame above (flame: a callee; icicle: the caller)" },
	{ { K_DOWN, 'j' }, V_FLAME, action__flame_depth, -1,
	  "the frame below (flame: the caller; icicle: a callee)" },
	{ { K_LEFT }, V_FLAME, action__flame_side, -1,
	  "the frame to the left" },
	{ { K_RIGHT }, V_FLAME, action__flame_side, 1,
	  "the frame to the right" },
	{ { K_HOME }, V_FLAME, action__flame_root, 0,
	  "the bottom frame (all, or the zoomed one)" },
	{ { K_ENTER }, V_FLAME, action__flame_zoom, 0,
	  "zoom into the selected frame: it gets the whole width", "zoom" },
	{ { K_ESC }, V_FLAME, action__flame_back, 0,
	  "zoom out one step; from the whole graph, back to the table",
	  "back" },
	{ { 'q' }, V_FLAME, action__flame_close, 0, "back to the table",
	  "table" },
	{ { '/' }, V_FLAME, action__flame_search, 0,
	  "highlight the frames whose name holds a text, with their share "
	  "(each sample counted once)", "search" },
	{ { 'a' }, V_FLAME, action__flame_annotate, 0,
	  "annotate the selected frame's function", "annotate" },
	{ { 'c' }, V_FLAME, action__flame_callers, 0,
	  "callers and callees of the selected frame's function", "callers" },
	{ { 'i' }, V_FLAME, action__flame_flip, 0,
	  "flip: flame graph (callers at the bottom) or icicle (at the top)",
	  "flip" },
	{ { 'f' }, V_FLAME, action__flame_freeze, 0,
	  "freeze the graph (sampling goes on) or follow the samples again",
	  "freeze" },
	{ { K_TAB }, V_FLAME, action__event, 1,
	  "show the next sampled event" },
	{ { K_BTAB }, V_FLAME, action__event, -1,
	  "show the previous sampled event" },
	{ { 'h', '?', K_F(1) }, V_FLAME, action__open, V_HELP,
	  "this help: every key and its effect", "help" },

	/* the timeline */
	{ { K_LEFT }, V_TIMELINE, action__tl_cursor, TL_LEFT,
	  "the cursor one column earlier" },
	{ { K_RIGHT }, V_TIMELINE, action__tl_cursor, TL_RIGHT,
	  "the cursor one column later" },
	{ { K_PGUP }, V_TIMELINE, action__tl_cursor, TL_PAGE_LEFT,
	  "a tenth of the columns earlier" },
	{ { K_PGDN }, V_TIMELINE, action__tl_cursor, TL_PAGE_RIGHT,
	  "a tenth of the columns later" },
	{ { K_HOME }, V_TIMELINE, action__tl_cursor, TL_FIRST,
	  "the first column" },
	{ { K_END }, V_TIMELINE, action__tl_cursor, TL_LAST,
	  "the last column (then it follows the new samples)" },
	{ { K_UP, 'k' }, V_TIMELINE, action__tl_line, -1, "the line above" },
	{ { K_DOWN, 'j' }, V_TIMELINE, action__tl_line, 1, "the line below" },
	{ { ' ' }, V_TIMELINE, action__tl_mark, 0,
	  "mark one end of a time window at the cursor; again, the other "
	  "end: every view then shows that window alone (Esc in the table "
	  "undoes it)", "window" },
	{ { K_ENTER }, V_TIMELINE, action__tl_enter, 0,
	  "set the window being marked; on a process or thread line, zoom "
	  "the table into it (Esc undoes)", "zoom" },
	{ { 't' }, V_TIMELINE, action__tl_owners, 0,
	  "a line per thread, or per process", "threads" },
	{ { K_TAB }, V_TIMELINE, action__event, 1,
	  "show the next sampled event" },
	{ { K_BTAB }, V_TIMELINE, action__event, -1,
	  "show the previous sampled event" },
	{ { K_ESC }, V_TIMELINE, action__tl_back, 0,
	  "drop the mark; without one, back to the table", "back" },
	{ { 'q' }, V_TIMELINE, action__tl_close, 0, "back to the table",
	  "table" },
	{ { 'h', '?', K_F(1) }, V_TIMELINE, action__open, V_HELP,
	  "this help: every key and its effect", "help" },

	/* the caller/callee view */
	{ { K_ENTER, K_RIGHT }, V_CALLERS, action__callers_enter, 0,
	  "move to the selected caller or callee", "go to" },
	{ { K_ESC, K_LEFT }, V_CALLERS, action__callers_back, 0,
	  "back to the function before; from the first, to the table",
	  "back" },
	{ { 'q' }, V_CALLERS, action__callers_close, 0, "back to the table",
	  "table" },
	{ { 'a' }, V_CALLERS, action__callers_annotate, 0,
	  "annotate the selected caller or callee (on other lines: the "
	  "function shown)", "annotate" },

	/* the annotate view */
	{ { 'H' }, V_ANNOTATE, action__ann_hottest, 0,
	  "select the hottest instruction", "hottest" },
	{ { K_TAB }, V_ANNOTATE, action__ann_hot, 1,
	  "the next hot instruction, hottest first", "next hot" },
	{ { K_BTAB }, V_ANNOTATE, action__ann_hot, -1,
	  "the previous hot instruction" },
	{ { K_ENTER, K_RIGHT }, V_ANNOTATE, action__ann_enter, 0,
	  "on a jump: go to its target; on a call: annotate the callee "
	  "(Esc comes back)", "follow" },
	{ { K_ESC, K_LEFT, 'q' }, V_ANNOTATE, action__ann_back, 0,
	  "back to the caller; from the first function, to the table",
	  "back" },
	{ { 's' }, V_ANNOTATE, action__ann_mode, 0,
	  "source and instructions, instructions only, or source lines "
	  "only (samples summed per line)", "source" },
	{ { 't' }, V_ANNOTATE, action__ann_value, 0,
	  "show percent of the function, samples or period", "value" },
	{ { '/' }, V_ANNOTATE, action__ann_search, 0,
	  "search instructions and source lines as you type", "search" },
	{ { 'n' }, V_ANNOTATE, action__ann_search_next, 0,
	  "the next match of the search" },
	{ { 'o' }, V_ANNOTATE, action__ann_bytes, 0,
	  "show or hide the raw bytes" },
	{ { 'P' }, V_ANNOTATE, action__ann_save, 0,
	  "save the annotation as text (the file is named in the status "
	  "line)" },
	{ { 'h', '?', K_F(1) }, V_ANNOTATE, action__open, V_HELP,
	  "this help: every key and its effect", "help" },

	/* lists: help, pickers, menus */
	{ { K_ESC, K_LEFT, 'q' }, V_LIST, action__back, 0,
	  "back (clears the list filter first)", "back" },
	{ { 'h', '?', K_F(1) }, V_HELP, action__back, 0, "close the help" },
	{ { '/' }, V_LIST, action__list_filter, 0,
	  "search the list as you type", "search" },
	{ { K_ENTER, K_RIGHT }, V_MENU, action__select, 0,
	  "do the selected entry", "select" },
	{ { K_ENTER }, V_EVENTS, action__event_add, false,
	  "add the selected event to the sampled ones", "add" },
	{ { 'r' }, V_EVENTS, action__event_add, true,
	  "replace the shown event by the selected one", "replace" },

	/* the setup screen (F2) */
	{ { K_ENTER, K_RIGHT, ' ' }, V_SETUP, action__setup_change, 1,
	  "the selected setting's next value (Grouped by: the picker of s)",
	  "change" },
	{ { K_LEFT }, V_SETUP, action__setup_change, -1,
	  "the selected setting's value before" },
	{ { 'w' }, V_SETUP, action__setup_save, 0,
	  "save the settings to the settings file (FILES in ptop.1): its "
	  "comments and other lines kept, a setting at its default left "
	  "out", "save" },
	{ { K_ESC, 'q', K_F(10) }, V_SETUP, action__setup_close, 0,
	  "back to the table (the changes hold for this run)", "back" },
	{ { 'h', '?', K_F(1) }, V_SETUP, action__open, V_HELP,
	  "this help: every key and its effect" },

	/* prompts in the footer; other keys are typed in */
	{ { K_ENTER }, V_PROMPT, action__prompt_accept, 0, "accept", "accept" },
	{ { K_ESC }, V_PROMPT, action__prompt_cancel, 0,
	  "cancel (a filter goes back to what it was)", "cancel" },
	{ { K_BACKSPACE }, V_PROMPT, action__prompt_erase, 0,
	  "erase the last character" },
	{ { K_CTRL_U }, V_PROMPT, action__prompt_kill, 0,
	  "erase the whole line" },
	{ { K_F(3) }, V_PROMPT, action__prompt_next, 0,
	  "in the table's search (F3): select the next match" },
};

const size_t keys__nr = ARRAY_SIZE(keys__table);

const struct key_note keys__notes[] = {
	{ "Overhead, Self",
	  "share of all samples taken in the function's own code; the "
	  "column adds up to 100 % (it is titled Self next to Children)" },
	{ "Children",
	  "with -g: share of all samples whose call chain holds the "
	  "function, itself or anything it calls, counted once per sample; "
	  "main comes near 100 %; rows are ordered by it (--no-children: "
	  "Self only)" },
	{ "Trees",
	  "(+) each branch's share of its row's Children total: in caller "
	  "order, the chains leading to the function, then its callees" },
	{ "Callers",
	  "(c) each caller's or callee's share of the samples whose chain "
	  "holds the function (its Children total); self is the part "
	  "spent in the function itself" },
};

const size_t keys__nr_notes = ARRAY_SIZE(keys__notes);

const struct key_binding *keys__lookup(int key, unsigned int view)
{
	for (size_t i = 0; i < keys__nr; i++) {
		const struct key_binding *b = &keys__table[i];

		if (!(b->views & view))
			continue;
		for (size_t k = 0; k < KEY_ALIASES && b->keys[k]; k++)
			if (b->keys[k] == key)
				return b;
	}
	return NULL;
}

const char *keys__name(int key, char *buf, size_t len)
{
	static const struct {
		int key;
		const char *name;
	} names[] = {
		{ K_UP, "Up" }, { K_DOWN, "Down" }, { K_LEFT, "Left" },
		{ K_RIGHT, "Right" }, { K_PGUP, "PgUp" }, { K_PGDN, "PgDn" },
		{ K_HOME, "Home" }, { K_END, "End" }, { K_BTAB, "Shift-Tab" },
		{ K_TAB, "Tab" }, { K_ENTER, "Enter" }, { K_ESC, "Esc" },
		{ K_BACKSPACE, "Backspace" }, { K_DELETE, "Delete" },
		{ K_RESIZE, "Resize" }, { ' ', "Space" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (names[i].key == key) {
			snprintf(buf, len, "%s", names[i].name);
			return buf;
		}
	}
	if (key > K_F0 && key < K_NONE)
		snprintf(buf, len, "F%d", key - K_F0);
	else if (key > 0 && key < 0x20)
		snprintf(buf, len, "Ctrl-%c", '@' + key);
	else if (key > 0x20 && key < 0x7f)
		snprintf(buf, len, "%c", key);
	else
		snprintf(buf, len, "0x%x", (unsigned int)key);
	return buf;
}

const char *keys__section(unsigned int views)
{
	if ((views & V_TOP) && (views & V_LIST))
		return "Moving (the table and every list)";
	if (views & V_TOP)
		return "The table";
	if (views & V_PROMPT)
		return "Prompts (filters, pid, percent); other keys are typed in";
	if (views == V_EVENTS)
		return "The event picker";
	if (views == V_SETUP)
		return "The setup screen (F2)";
	if (views == V_CALLERS)
		return "The caller/callee view (c)";
	if (views == V_ANNOTATE)
		return "The annotate view (a, or Enter then Annotate)";
	if (views == V_FLAME)
		return "The flame graph (F)";
	if (views == V_TIMELINE)
		return "The timeline (w)";
	return "Lists (help, pickers, menus)";
}

void keys__foreach_help(void (*fn)(const char *section, const char *keys,
				   const char *help, void *ctx),
			void *ctx)
{
	const char *section = NULL;
	char names[128], one[32];

	for (size_t i = 0; i < keys__nr; i++) {
		const struct key_binding *b = &keys__table[i];
		const char *sec = keys__section(b->views);

		if (!section || strcmp(section, sec) != 0) {
			section = sec;
			fn(section, NULL, NULL, ctx);
		}
		names[0] = '\0';
		for (size_t k = 0; k < KEY_ALIASES && b->keys[k]; k++) {
			size_t n = strlen(names);

			snprintf(names + n, sizeof(names) - n, "%s%s",
				 n ? ", " : "",
				 keys__name(b->keys[k], one, sizeof(one)));
		}
		fn(section, names, b->help, ctx);
	}
}

void keys__foreach_note(void (*fn)(const char *section, const char *term,
				   const char *text, void *ctx),
			void *ctx)
{
	fn(KEYS_NOTES_TITLE, NULL, NULL, ctx);
	for (size_t i = 0; i < keys__nr_notes; i++)
		fn(KEYS_NOTES_TITLE, keys__notes[i].term, keys__notes[i].text,
		   ctx);
}

static void md_line(const char *section, const char *keys, const char *help,
		    void *ctx)
{
	struct strbuf *sb = ctx;
	char copy[128], *tok, *save = NULL;
	bool first = true;

	(void)section;
	if (!keys) {
		strbuf__addf(sb, "\n## %s\n\n| Keys | Effect |\n|---|---|\n",
			     section);
		return;
	}
	strbuf__adds(sb, "| ");
	snprintf(copy, sizeof(copy), "%s", keys);
	/* "," is a key of its own nowhere, so ", " splits the names */
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		size_t n = strlen(tok);
		bool comma = n > 1 && tok[n - 1] == ',';

		if (comma)
			tok[n - 1] = '\0';
		strbuf__addf(sb, "%s`%s`", first ? "" : ", ",
			     strcmp(tok, "|") == 0 ? "\\|" : tok);
		first = false;
	}
	strbuf__addf(sb, " | %s |\n", help);
}

static void md_note(const char *section, const char *term, const char *text,
		    void *ctx)
{
	struct strbuf *sb = ctx;

	if (!term)
		strbuf__addf(sb, "\n## %s\n\n| Number | Meaning |\n|---|---|\n",
			     section);
	else
		strbuf__addf(sb, "| %s | %s |\n", term, text);
}

void keys__markdown(struct strbuf *sb)
{
	strbuf__adds(sb,
		     "# ptop keys\n\n"
		     "<!-- Generated from ui/tui/keys.c by tests/gen_keys.c; "
		     "do not edit.  The keys test fails when this file is "
		     "stale. -->\n\n"
		     "The live view (`ptop` without `-b`) is driven from the "
		     "keyboard.  These tables are generated from the same key "
		     "table that dispatches the keys and draws the help screen "
		     "(`h`).  They follow `perf top` where it has a key and "
		     "`htop` where it has none.\n");
	keys__foreach_help(md_line, sb);
	keys__foreach_note(md_note, sb);
}

/* roff text: hyphens are minus signs, backslashes are escaped, a line
 * never starts with a control character. */
static void roff(struct strbuf *sb, const char *s)
{
	if (*s == '.' || *s == '\'')
		strbuf__adds(sb, "\\&");
	for (; *s; s++) {
		if (*s == '-')
			strbuf__adds(sb, "\\-");
		else if (*s == '\\')
			strbuf__adds(sb, "\\e");
		else
			strbuf__addc(sb, *s);
	}
}

static void man_line(const char *section, const char *keys, const char *help,
		     void *ctx)
{
	struct strbuf *sb = ctx;

	if (!keys) {
		strbuf__adds(sb, ".SS ");
		roff(sb, section);
		strbuf__addc(sb, '\n');
		return;
	}
	strbuf__adds(sb, ".TP\n.B ");
	roff(sb, keys);
	strbuf__addc(sb, '\n');
	roff(sb, help);
	strbuf__addc(sb, '\n');
}

void keys__man(struct strbuf *sb)
{
	strbuf__adds(sb,
		     ".SH KEYS\n"
		     ".\\\" Generated from ui/tui/keys.c by tests/gen_keys.c; do "
		     "not edit.\n"
		     "The live view is driven from the keyboard; inside ptop,\n"
		     ".B h\n"
		     "lists these keys.  They follow\n"
		     ".B perf top\n"
		     "where it has a key and\n"
		     ".B htop\n"
		     "where it has none; the same list is in\n"
		     ".IR doc/keys.md .\n");
	keys__foreach_help(man_line, sb);
	keys__foreach_note(man_line, sb);
}

/* The F-key of a binding (its F number), 0: none */
static int fkey_of(const struct key_binding *b)
{
	for (size_t i = 0; i < KEY_ALIASES && b->keys[i]; i++)
		if (b->keys[i] > K_F0 && b->keys[i] <= K_F(12))
			return b->keys[i] - K_F0;
	return 0;
}

static bool footer_shows(const struct key_binding *b, unsigned int view,
			 bool live)
{
	return b->hint && (b->views & view) && (!b->live || live);
}

/* One hint at the end of line y: its key's name and its word. */
static void footer_add(struct screen *s, size_t y, int key, const char *hint,
		       bool first, size_t *x, struct key_hit *hits,
		       size_t max, size_t *nr)
{
	char name[32];
	size_t x0;

	keys__name(key, name, sizeof(name));
	if (!first)
		*x += screen__add(s, y, ST_NORMAL, "  ");
	x0 = *x;
	*x += screen__add(s, y, ST_KEY, name);
	*x += screen__addf(s, y, ST_NORMAL, " %s", hint);
	if (*nr < max && x0 < s->cols)
		hits[(*nr)++] = (struct key_hit){ key, x0, MIN(*x, s->cols) };
}

size_t keys__footer(unsigned int view, bool live, struct screen *s, size_t y,
		    struct key_hit *hits, size_t max)
{
	size_t bar = 0, nr_f = 0, x = 0, nr = 0;
	bool first = true;

	/* htop's F-key bar, F1 to F10 in order, when it fits with room */
	for (int f = 1; f <= 12; f++)
		for (size_t i = 0; i < keys__nr; i++) {
			const struct key_binding *b = &keys__table[i];

			if (footer_shows(b, view, live) && fkey_of(b) == f) {
				bar += (f >= 10 ? 3 : 2) + 1 +
				       strlen(b->hint) + 2;
				nr_f++;
				break;
			}
		}
	if (nr_f < 3 || bar + 16 > s->cols)
		nr_f = 0;
	for (int f = 1; nr_f && f <= 12; f++)
		for (size_t i = 0; i < keys__nr; i++) {
			const struct key_binding *b = &keys__table[i];

			if (footer_shows(b, view, live) && fkey_of(b) == f) {
				footer_add(s, y, K_F(f), b->hint, first, &x,
					   hits, max, &nr);
				first = false;
				break;
			}
		}
	for (size_t i = 0; i < keys__nr && x < s->cols; i++) {
		const struct key_binding *b = &keys__table[i];

		if (!footer_shows(b, view, live) || (nr_f && fkey_of(b)))
			continue;
		footer_add(s, y, b->keys[0], b->hint, first, &x, hits, max,
			   &nr);
		first = false;
	}
	return nr;
}
