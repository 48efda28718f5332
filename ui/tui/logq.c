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
	/* stderr when it is not the terminal (a file, a pipe): each message
	 * is written there as it comes, else the ring's last LOGQ_SIZE are
	 * replayed at the end (a -vv session of a whole machine logged more
	 * than that, and lost its first lines); -1: the terminal */
	int through;
	bool wrote;		/* last holds the last one written through */
	char last[LOGQ_MSG];
};

struct logq *logq__new(void)
{
	struct logq *q = calloc(1, sizeof(*q));

	if (!q)
		return NULL;
	pthread_mutex_init(&q->lock, NULL);
	q->through = isatty(STDERR_FILENO) ? -1 : STDERR_FILENO;
	return q;
}

void logq__free(struct logq *q)
{
	if (!q)
		return;
	pthread_mutex_destroy(&q->lock);
	free(q);
}

static void write_line(int fd, enum log_level level, const char *msg);

/* What the replay writes: warnings and -vv's debugging messages, not the
 * notes that answered keys, and a message once when it repeats. */
static bool logq__written(const char *prev, enum log_level level,
			  const char *msg)
{
	return level != LOG_INFO && (!prev || strcmp(prev, msg) != 0);
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
	if (q->through >= 0 &&
	    logq__written(q->wrote ? q->last : NULL, level, q->ring[i].msg)) {
		write_line(q->through, level, q->ring[i].msg);
		memcpy(q->last, q->ring[i].msg, sizeof(q->last));
		q->wrote = true;
	}
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
	/* (written through as they came) */
	first = q->through >= 0 ? q->seq :
		q->seq > LOGQ_SIZE ? q->seq - LOGQ_SIZE : 0;
	for (u64 s = first; s < q->seq; s++) {
		size_t i = s % LOGQ_SIZE;

		if (!logq__written(prev, q->ring[i].level, q->ring[i].msg))
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
