/* prompt: the one-line editor of the footer (pure). */
#ifndef PTOP_PROMPT_H
#define PTOP_PROMPT_H

#include "src/core/util.h"

enum prompt_kind {
	PROMPT_SYM_FILTER,	/* / in the table: incremental */
	PROMPT_LIST_FILTER,	/* / in a list: incremental */
	PROMPT_TARGET,		/* p: pid or process name */
	PROMPT_PERCENT,		/* L: percent limit */
	PROMPT_ANN_SEARCH,	/* / in the annotate view: incremental */
	PROMPT_FLAME_SEARCH,	/* / in the flame graph: incremental */
	PROMPT_TOP_SEARCH,	/* F3 in the table: selects a match */
};

/* What happened to an incremental prompt, for the view it serves. */
enum prompt_event {
	PROMPT_TYPED,
	PROMPT_ACCEPT,
	PROMPT_CANCEL,
	PROMPT_NEXT,		/* F3 again in a search: the next match */
};

struct prompt {
	enum prompt_kind kind;
	char label[64];
	char buf[256];		/* UTF-8, as typed (sanitized on display) */
	size_t len;
	char saved[256];	/* the value before the prompt opened */
};

void prompt__open(struct prompt *p, enum prompt_kind kind, const char *label,
		  const char *initial);
/* Inserts a code point (printable only); false if it did not fit. */
bool prompt__insert(struct prompt *p, u32 cp);
/* Removes the last character (a whole UTF-8 sequence). */
bool prompt__erase(struct prompt *p);
void prompt__kill(struct prompt *p);
/* A key the prompt takes as text: printable, not a control or
 * special key. */
bool prompt__is_text(int key);

#endif
