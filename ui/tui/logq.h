/* logq: the log handler of the live view; queues messages (from any
 * thread) for the status line instead of writing behind curses' back. */
#ifndef PTOP_LOGQ_H
#define PTOP_LOGQ_H

#include "src/core/log.h"
#include "src/core/util.h"

struct logq;

struct logq *logq__new(void);
void logq__free(struct logq *q);

/* A log_fn: install with log__set_handler(logq__handler, q). */
void logq__handler(enum log_level level, const char *msg, void *ctx);

/* The newest message not taken yet (unsanitized) and how many arrived
 * since the last take; false when nothing new. */
bool logq__take(struct logq *q, char *buf, size_t len,
		enum log_level *level, size_t *count);

/* After endwin: writes the errors and warnings that were queued, and
 * -vv's debugging messages (the last few), to fd, sanitized, so that
 * nothing shown only on the status line is lost.  When stderr is not a
 * terminal, logq__new's queue writes them there as they come instead
 * (all of them), and this writes nothing. */
void logq__replay(struct logq *q, int fd);

/* The stderr handler put back once curses is gone (same format as
 * main's). */
void logq__stderr(enum log_level level, const char *msg, void *ctx);

#endif
