/* log: formats messages and hands them to the installed handler. */
#include <pthread.h>
#include <stdio.h>

#include "src/core/log.h"

static log_fn handler;
static void *handler_ctx;
static enum log_level max_level = LOG_INFO;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

void log__set_handler(log_fn fn, void *ctx)
{
	pthread_mutex_lock(&log_lock);
	handler = fn;
	handler_ctx = ctx;
	pthread_mutex_unlock(&log_lock);
}

void log__set_level(enum log_level max)
{
	max_level = max;
}

bool log__enabled(enum log_level level)
{
	return level <= max_level;
}

void log__vprintf(enum log_level level, const char *fmt, va_list ap)
{
	char buf[1024];

	if (level > max_level)
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	pthread_mutex_lock(&log_lock);
	/* No handler installed: the message is dropped, never printed. */
	if (handler)
		handler(level, buf, handler_ctx);
	pthread_mutex_unlock(&log_lock);
}

void log__printf(enum log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log__vprintf(level, fmt, ap);
	va_end(ap);
}
