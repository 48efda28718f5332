/* save: a text of the live view to a new numbered file. */
#ifndef PTOP_SAVE_H
#define PTOP_SAVE_H

#include <stddef.h>

struct tui;

/* Writes text (NULL: it could not be made, out of memory) to a new file
 * prefix.N in the save directory (P's, "." by default), the first N
 * free, and says so, or why not, in the status line: 0 or -errno. */
int save__text(struct tui *t, const char *prefix, const char *what,
	       const char *text, size_t len);

#endif
