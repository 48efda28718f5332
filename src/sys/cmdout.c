/* cmdout: a profiled command's output, kept off the live view's terminal
 * (see cmdout.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "src/sys/clock.h"
#include "src/sys/cmdout.h"
#include "src/sys/fdio.h"
#include "src/core/log.h"
#include "src/core/util.h"

#define LINE_MAX_SHOWN 200
#define READ_SIZE (64u << 10)
#define LOG_EVERY_NS 200000000LL	/* 5 lines a second at most */

struct cmdout {
	int rd, wr;		/* the pipe */
	int wake[2];		/* stop: the thread's poll wakes */
	pthread_t thread;
	bool running;
	char name[64];
	/* the last CMDOUT_KEEP bytes, a ring: keep[(start + i) % KEEP] */
	char *keep;
	size_t start, len, total;
	char *rbuf;		/* READ_SIZE, for read */
	/* the line being read, and the newest whole one not logged yet */
	char line[LINE_MAX_SHOWN + 1], pending[LINE_MAX_SHOWN + 1];
	size_t line_len;
	bool has_pending;
	long long last_log;
	bool attached, stopping;	/* atomic: set by other threads */
};

struct cmdout *cmdout__new(const char *name)
{
	struct cmdout *c = calloc(1, sizeof(*c));
	int p[2];

	if (!c)
		return NULL;
	c->keep = malloc(CMDOUT_KEEP);
	c->rbuf = malloc(READ_SIZE);
	if (!c->keep || !c->rbuf || pipe2(p, O_CLOEXEC)) {
		free(c->keep);
		free(c->rbuf);
		free(c);
		return NULL;
	}
	if (pipe2(c->wake, O_CLOEXEC)) {
		int e = errno;

		close(p[0]);
		close(p[1]);
		free(c->keep);
		free(c->rbuf);
		free(c);
		errno = e;
		return NULL;
	}
	c->rd = p[0];
	c->wr = p[1];
	snprintf(c->name, sizeof(c->name), "%s", name ? name : "command");
	return c;
}

int cmdout__fd(const struct cmdout *c)
{
	return c->wr;
}

static void log_pending(struct cmdout *c, bool force)
{
	long long t;

	if (!c->has_pending || !__atomic_load_n(&c->attached, __ATOMIC_ACQUIRE))
		return;
	t = (long long)clock__now_ns();
	if (!force && t - c->last_log < LOG_EVERY_NS)
		return;
	pr_info("%s: %s", c->name, c->pending);
	c->has_pending = false;
	c->last_log = t;
}

static void line_add(struct cmdout *c, const char *b, size_t n)
{
	n = MIN(n, LINE_MAX_SHOWN - c->line_len);
	memcpy(c->line + c->line_len, b, n);
	c->line_len += n;
}

static bool is_nl(char ch)
{
	return ch == '\n' || ch == '\r';
}

/* The newest whole line of b (with the line carried from before it)
 * becomes pending; what follows the last newline is carried. */
static void follow_lines(struct cmdout *c, const char *b, size_t n)
{
	size_t end = n, le, ls;

	while (end && !is_nl(b[end - 1]))
		end--;
	if (!end) {
		line_add(c, b, n);
		return;
	}
	le = end - 1;
	while (le && is_nl(b[le - 1]))
		le--;
	ls = le;
	while (ls && !is_nl(b[ls - 1]))
		ls--;
	if (ls)
		c->line_len = 0;
	line_add(c, b + ls, le - ls);
	if (c->line_len) {
		memcpy(c->pending, c->line, c->line_len);
		c->pending[c->line_len] = '\0';
		c->has_pending = true;
	}
	c->line_len = 0;
	line_add(c, b + end, n - end);
}

/* Keeps the last CMDOUT_KEEP bytes and follows the lines. */
static void take(struct cmdout *c, const char *b, size_t n)
{
	size_t at, first;

	c->total += n;
	follow_lines(c, b, n);
	if (n >= CMDOUT_KEEP) {
		memcpy(c->keep, b + n - CMDOUT_KEEP, CMDOUT_KEEP);
		c->start = 0;
		c->len = CMDOUT_KEEP;
		return;
	}
	at = (c->start + c->len) % CMDOUT_KEEP;
	first = MIN(n, CMDOUT_KEEP - at);
	memcpy(c->keep + at, b, first);
	memcpy(c->keep, b + first, n - first);
	if (c->len + n <= CMDOUT_KEEP) {
		c->len += n;
	} else {
		c->start = (c->start + c->len + n) % CMDOUT_KEEP;
		c->len = CMDOUT_KEEP;
	}
}

/*
 * Reads what is there, up to budget bytes; false at end of file or on
 * an error.  The budget keeps a command that writes as fast as it can
 * (yes) from costing ptop a CPU: past it the pipe fills and the command
 * waits, as it would for a slow terminal.
 */
static bool drain(struct cmdout *c, size_t *budget)
{
	ssize_t n;

	while (*budget) {
		n = read(c->rd, c->rbuf, MIN((size_t)READ_SIZE, *budget));
		if (n > 0) {
			take(c, c->rbuf, (size_t)n);
			*budget -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 && errno == EAGAIN;
	}
	return true;
}

/* What the command may write per second through ptop (a terminal takes
 * a few tens of MB/s) */
#define RATE_BYTES (16u << 20)

static void *cmdout__thread(void *arg)
{
	struct cmdout *c = arg;
	long long window = (long long)clock__now_ns();
	size_t budget = RATE_BYTES;
	bool open = true;

	while (open) {
		struct pollfd pf[2] = {
			{ .fd = c->rd, .events = POLLIN },
			{ .fd = c->wake[0], .events = POLLIN },
		};
		long long t = (long long)clock__now_ns();
		int timeout = c->has_pending ? 200 : -1, r;

		if (t - window >= 1000000000LL) {
			window = t;
			budget = RATE_BYTES;
		}
		if (!budget) {
			/* the second's budget is spent: only a stop wakes */
			pf[0].fd = -1;
			timeout = (int)((window + 1000000000LL - t) / 1000000) + 1;
		}
		r = poll(pf, 2, timeout);
		if (r < 0 && errno != EINTR)
			break;
		if (pf[0].revents)
			open = drain(c, &budget);
		if (pf[1].revents) {
			char b[16];

			/* attach (log the newest line now) or stop */
			if (read(c->wake[0], b, sizeof(b)) < 0) {
				/* nothing to read: poll said there was */
			}
			if (__atomic_load_n(&c->stopping, __ATOMIC_ACQUIRE))
				break;
			log_pending(c, true);
		}
		log_pending(c, !open);
	}
	/* what is in the pipe, not what a grandchild may go on writing */
	budget = 1u << 20;
	drain(c, &budget);
	log_pending(c, true);
	return NULL;
}

int cmdout__start(struct cmdout *c)
{
	int err;

	close(c->wr);
	c->wr = -1;
	if (fcntl(c->rd, F_SETFL, O_NONBLOCK))
		return -errno;
	err = pthread_create(&c->thread, NULL, cmdout__thread, c);
	if (err)
		return -err;
	c->running = true;
	return 0;
}

void cmdout__attach(struct cmdout *c, bool on)
{
	__atomic_store_n(&c->attached, on, __ATOMIC_RELEASE);
	if (on && write(c->wake[1], "a", 1) < 0) {
		/* a full wake pipe wakes the thread anyway */
	}
}

void cmdout__stop(struct cmdout *c)
{
	if (!c || !c->running)
		return;
	__atomic_store_n(&c->stopping, true, __ATOMIC_RELEASE);
	if (write(c->wake[1], "x", 1) < 0) {
		/* the pipe is empty and open: cannot fail */
	}
	pthread_join(c->thread, NULL);
	c->running = false;
}

int cmdout__replay(struct cmdout *c, int fd)
{
	size_t first;
	int err;

	if (c->total > c->len) {
		char note[160];
		int n = snprintf(note, sizeof(note),
				 "ptop: the last %zu KiB of %s's output "
				 "(%zu KiB in all):\n",
				 c->len >> 10, c->name, c->total >> 10);

		err = fd__write_all(fd, note, (size_t)n, NULL);
		if (err)
			return err;
	}
	first = MIN(c->len, CMDOUT_KEEP - c->start);
	err = fd__write_all(fd, c->keep + c->start, first, NULL);
	if (!err)
		err = fd__write_all(fd, c->keep, c->len - first, NULL);
	return err;
}

size_t cmdout__total(const struct cmdout *c)
{
	return c->total;
}

size_t cmdout__kept(const struct cmdout *c)
{
	return c->len;
}

void cmdout__free(struct cmdout *c)
{
	if (!c)
		return;
	cmdout__stop(c);
	close(c->rd);
	if (c->wr >= 0)
		close(c->wr);
	close(c->wake[0]);
	close(c->wake[1]);
	free(c->keep);
	free(c->rbuf);
	free(c);
}
