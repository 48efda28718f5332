/* pipe: the perf.data pipe reader (ptop -i -): a thread reading the
 * stream from a file descriptor, the session locked per read. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/core/log.h"
#include "src/perfdata/internal.h"

/* ---- pipe reader ---- */

struct perfdata_pipe {
	struct session *s;
	int fd;
	struct perfdata_stream *st;
	struct perfdata_info info;
	struct perfdata_stats stats;	/* final, once done */
	pthread_t thread;
	bool running, eof;
	int stop;		/* atomic */
	int done;		/* atomic */
	int wake[2];
	u8 *buf;
	size_t bufsize;
};

struct perfdata_pipe *perfdata_pipe__new(struct session *s, int fd,
					 const struct perfdata_read_opts *o)
{
	struct perfdata_pipe *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->s = s;
	p->fd = fd;
	p->wake[0] = p->wake[1] = -1;
	p->bufsize = 256u << 10;
	p->buf = malloc(p->bufsize);
	p->st = perfdata_stream__new(s, true, false, 0, &p->info, o);
	if (!p->buf || !p->st || pipe2(p->wake, O_CLOEXEC | O_NONBLOCK)) {
		perfdata_pipe__free(p);
		errno = ENOMEM;
		return NULL;
	}
	p->info.pipe = true;
	return p;
}

/* One read and its processing: 1 data, 0 end of stream, -errno. */
static int pipe__step(struct perfdata_pipe *p)
{
	ssize_t n = read(p->fd, p->buf, p->bufsize);

	if (n < 0)
		return -errno;
	if (n == 0) {
		p->eof = true;
		return 0;
	}
	session__lock(p->s);
	perfdata_stream__feed(p->st, p->buf, (size_t)n);
	session__unlock(p->s);
	return 1;
}

static void pipe__finish(struct perfdata_pipe *p)
{
	session__lock(p->s);
	perfdata_stream__set_stopped(p->st, !p->eof);
	perfdata_stream__end(p->st);
	p->stats = *perfdata_stream__stats(p->st);
	session__unlock(p->s);
	pd_log_stats(&p->stats);
	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
}

int perfdata_pipe__prelude(struct perfdata_pipe *p)
{
	while (!p->eof && !perfdata_stream__in_data(p->st)) {
		int r = pipe__step(p);

		if (r == -EINTR)
			return r;
		if (r < 0) {
			pr_err("reading the stream: %s", strerror(-r));
			pipe__finish(p);
			return r;
		}
	}
	if (p->eof)
		pipe__finish(p);
	return 0;
}

static void *pipe__thread(void *arg)
{
	struct perfdata_pipe *p = arg;
	struct pollfd pfd[2] = {
		{ .fd = p->fd, .events = POLLIN },
		{ .fd = p->wake[0], .events = POLLIN },
	};

	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		int r = poll(pfd, 2, 1000);

		if (r < 0 && errno != EINTR) {
			pr_err("reading the stream: %s", strerror(errno));
			break;
		}
		if (r <= 0 || (pfd[1].revents & POLLIN))
			continue;
		r = pipe__step(p);
		if (r == -EINTR || r == -EAGAIN)
			continue;
		if (r < 0)
			pr_err("reading the stream: %s", strerror(-r));
		if (r <= 0)
			break;
	}
	pipe__finish(p);
	return NULL;
}

int perfdata_pipe__start(struct perfdata_pipe *p)
{
	int err;

	if (__atomic_load_n(&p->done, __ATOMIC_ACQUIRE))
		return 0;
	err = pthread_create(&p->thread, NULL, pipe__thread, p);
	if (err) {
		pr_err("cannot start the stream reader: %s", strerror(err));
		return -err;
	}
	p->running = true;
	return 0;
}

bool perfdata_pipe__done(struct perfdata_pipe *p)
{
	return __atomic_load_n(&p->done, __ATOMIC_ACQUIRE);
}

void perfdata_pipe__stop(struct perfdata_pipe *p)
{
	if (!p->running)
		return;
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	if (write(p->wake[1], "x", 1) < 0) {
		/* a full pipe wakes the thread as well */
	}
	pthread_join(p->thread, NULL);
	p->running = false;
}

void perfdata_pipe__free(struct perfdata_pipe *p)
{
	if (!p)
		return;
	perfdata_pipe__stop(p);
	if (p->fd >= 0)
		close(p->fd);
	perfdata_stream__free(p->st);
	perfdata_info__fini(&p->info);
	free(p->buf);
	if (p->wake[0] >= 0)
		close(p->wake[0]);
	if (p->wake[1] >= 0)
		close(p->wake[1]);
	free(p);
}

const struct perfdata_info *perfdata_pipe__info(const struct perfdata_pipe *p)
{
	return &p->info;
}

const struct perfdata_stats *perfdata_pipe__stats(const struct perfdata_pipe *p)
{
	return perfdata_stream__stats(p->st);
}

