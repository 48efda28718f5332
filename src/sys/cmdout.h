/* cmdout: the output of the command the live view profiles.  Written to
 * the terminal it would tear curses' screen, so it goes into a pipe that
 * a thread of this module reads: the newest line is logged (the status
 * line shows it, at most 5 a second), and the last CMDOUT_KEEP bytes are
 * kept, to be written out once the terminal is restored. */
#ifndef PTOP_CMDOUT_H
#define PTOP_CMDOUT_H

#include <stdbool.h>
#include <stddef.h>

#define CMDOUT_KEEP (64u << 10)

struct cmdout;

/* The pipe; name prefixes the logged lines ("make: ...").  NULL with
 * errno set on failure. */
struct cmdout *cmdout__new(const char *name);

/* The pipe's write end, for the child's stdout and stderr (dup2). */
int cmdout__fd(const struct cmdout *c);

/* Closes ptop's copy of the write end (the child has its own) and starts
 * the reader thread.  0 or -errno. */
int cmdout__start(struct cmdout *c);

/* Whether lines are logged: from the moment the live view's log handler
 * is in place (logged before, they would go to the terminal) until it is
 * gone (the bytes are written out after the view anyway).  Off at
 * first; the newest line read meanwhile is logged on attaching. */
void cmdout__attach(struct cmdout *c, bool on);

/* Stops the thread: it first reads what is already in the pipe.  Does not
 * wait for an end of file (a grandchild may hold the pipe open). */
void cmdout__stop(struct cmdout *c);

/* Writes the bytes kept (after cmdout__stop), preceded by a note when
 * older output was dropped.  0 or -errno. */
int cmdout__replay(struct cmdout *c, int fd);

/* Bytes the command wrote, and bytes kept. */
size_t cmdout__total(const struct cmdout *c);
size_t cmdout__kept(const struct cmdout *c);

void cmdout__free(struct cmdout *c);	/* stops first; NULL: no-op */

#endif
