/* logq: a small ring of log messages for the status line. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/tui/logq.h"
#include "ui/report/sanitize.h"

/* -vv logs two lines per file the symbolizer's worker reads: a session
 * with a few dozen binaries keeps its first messages */
#define LOGQ_SIZE 128
#define LOGQ_MSG 512

struct logq {
	pthread_mutex_t lock;
	struct {
		enum log_level level;
		char msg[LOGQ_MSG];
	} ring[LOGQ_SIZE];
	u64 seq;	/* messages queued so far */
	u64 taken;	/* seq at the last take */
};

struct logq *logq__new(void)
{
	struct logq *q = calloc(1, sizeof(*q));

	if (!q)
		return NULL;
	pthread_mutex_init(&q->lock, NULL);
	return q;
}

void logq__free(struct logq *q)
{
	if (!q)
		return;
	pthread_mutex_destroy(&q->lock);
	free(q);
}

/* Called with log.c's lock held: must not log. */
void logq__handler(enum log_level level, const char *msg, void *ctx)
{
	struct logq *q = ctx;
	size_t i;

	pthread_mutex_lock(&q->lock);
	i = q->seq % LOGQ_SIZE;
	q->ring[i].level = level;
	snprintf(q->ring[i].msg, sizeof(q->ring[i].msg), "%s", msg);
	q->seq++;
	pthread_mutex_unlock(&q->lock);
}

bool logq__take(struct logq *q, char *buf, size_t len,
		enum log_level *level, size_t *count)
{
	bool got = false;

	pthread_mutex_lock(&q->lock);
	if (q->seq != q->taken) {
		size_t i = (q->seq - 1) % LOGQ_SIZE;

		snprintf(buf, len, "%s", q->ring[i].msg);
		*level = q->ring[i].level;
		*count = (size_t)(q->seq - q->taken);
		q->taken = q->seq;
		got = true;
	}
	pthread_mutex_unlock(&q->lock);
	return got;
}

static void write_line(int fd, enum log_level level, const char *msg)
{
	static const char *const prefix[] = {
		[LOG_ERR] = "ptop: ",
		[LOG_WARN] = "ptop: warning: ",
		[LOG_INFO] = "ptop: ",
		[LOG_DEBUG] = "ptop: debug: ",
	};
	struct strbuf sb;

	strbuf__init(&sb);
	strbuf__adds(&sb, prefix[level <= LOG_DEBUG ? level : LOG_DEBUG]);
	sanitize_str(&sb, msg);
	strbuf__addc(&sb, '\n');
	if (sb.buf && write(fd, sb.buf, sb.len) < 0) {
		/* nowhere left to report to */
	}
	strbuf__fini(&sb);
}

void logq__replay(struct logq *q, int fd)
{
	u64 first;
	const char *prev = NULL;

	pthread_mutex_lock(&q->lock);
	first = q->seq > LOGQ_SIZE ? q->seq - LOGQ_SIZE : 0;
	for (u64 s = first; s < q->seq; s++) {
		size_t i = s % LOGQ_SIZE;

		/* warnings, and -vv's debugging messages; not the notes
		 * that answered keys */
		if (q->ring[i].level == LOG_INFO)
			continue;
		if (prev && strcmp(prev, q->ring[i].msg) == 0)
			continue;
		write_line(fd, q->ring[i].level, q->ring[i].msg);
		prev = q->ring[i].msg;
	}
	pthread_mutex_unlock(&q->lock);
}

void logq__stderr(enum log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	write_line(STDERR_FILENO, level, msg);
}
