/* log: the one way libraries report; a callback decides where it goes. */
#ifndef PTOP_LOG_H
#define PTOP_LOG_H

#include <stdarg.h>
#include <stdbool.h>

enum log_level {
	LOG_ERR,
	LOG_WARN,
	LOG_INFO,
	LOG_DEBUG,
};

/*
 * The handler receives a complete, unsanitized message without a trailing
 * newline.  It may be called from any thread; the ncurses front end queues
 * messages for its status line, batch mode writes them to stderr.
 */
typedef void (*log_fn)(enum log_level level, const char *msg, void *ctx);

void log__set_handler(log_fn fn, void *ctx);
void log__set_level(enum log_level max);
/* Whether messages of level are passed on (figures costly to gather). */
bool log__enabled(enum log_level level);
void log__vprintf(enum log_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void log__printf(enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define pr_err(...) log__printf(LOG_ERR, __VA_ARGS__)
#define pr_warn(...) log__printf(LOG_WARN, __VA_ARGS__)
#define pr_info(...) log__printf(LOG_INFO, __VA_ARGS__)
#define pr_debug(...) log__printf(LOG_DEBUG, __VA_ARGS__)

#endif
