/* fdio: whole writes (see fdio.h). */
#include <errno.h>
#include <unistd.h>

#include "fdio.h"

/* write (at < 0) or pwrite at `at`, until all of n is written */
static int whole(int fd, const void *p, size_t n, off_t at, u64 *done)
{
	const char *c = p;

	while (n) {
		ssize_t w = at < 0 ? write(fd, c, n) : pwrite(fd, c, n, at);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -ENOSPC;
		c += w;
		n -= (size_t)w;
		if (at >= 0)
			at += w;
		if (done)
			*done += (u64)w;
	}
	return 0;
}

int fd__write_all(int fd, const void *p, size_t n, u64 *done)
{
	return whole(fd, p, n, -1, done);
}

int fd__pwrite_all(int fd, const void *p, size_t n, u64 off)
{
	return whole(fd, p, n, (off_t)off, NULL);
}
