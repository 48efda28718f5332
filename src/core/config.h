/* config: the text of ptop's settings file (pure): its lines read, and
 * settings written back into it with the rest of the text kept. */
#ifndef PTOP_CONFIG_H
#define PTOP_CONFIG_H

#include "src/core/util.h"

/*
 * The format, one setting a line:
 *	# a comment (a line whose first non-blank is '#', or the rest of a
 *	# line after a blank and '#')
 *	delay = 1
 *	show-period		(a switch alone)
 * Names are a long option's without its dashes: a lower-case letter,
 * then letters, digits and '-'.  Blanks around the name and the value
 * are not part of them; blank lines are skipped.
 */
#define CONFIG_MAX_NAME 32

/* Called for each setting with its line number (from 1), its name and
 * its value (NULL for a switch alone); a non-zero return stops the walk
 * and is returned. */
typedef int (*config_fn)(void *ctx, unsigned int line, const char *name,
			 char *value);

/*
 * Walks text[0..len): 0, fn's first non-zero return, or -EINVAL for a
 * line that is no setting, with err given "LINE: why" (a name that is
 * not one, '=' without a value, a NUL byte).
 */
int config__parse(const char *text, size_t len, config_fn fn, void *ctx,
		  struct strbuf *err);

/* One setting to write: value NULL for a switch that is on; set false
 * for a setting to remove (a switch turned off, a default). */
struct config_set {
	const char *name;
	const char *value;
	bool set;
};

/*
 * The file's text with each of sets[0..n) written: a setting's first line
 * is rewritten in place ("name = value", or "name"), its later lines
 * dropped, and a setting the text lacks appended; comments, blank lines
 * and the lines of other settings are kept as they were (a line that is
 * no setting too).  out is appended to.  0 or -ENOMEM.
 */
int config__update(const char *text, size_t len,
		   const struct config_set *sets, size_t n,
		   struct strbuf *out);

#endif
