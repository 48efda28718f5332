/* mapguard: faults in mapped files turned into returns (mapguard.h). */
#include <errno.h>
#include <stdint.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "src/core/util.h"
#include "src/sys/mapguard.h"

static const int signals[] = { SIGBUS, SIGSEGV };
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static void **kept;
static size_t nr_kept, cap_kept;
static struct sigaction old_actions[2];
static pthread_once_t once = PTHREAD_ONCE_INIT;
/* the innermost run of this thread */
static __thread struct mapguard *top;

static bool stat_differs(const struct stat *a, const struct stat *b)
{
	return a->st_ino != b->st_ino || a->st_dev != b->st_dev ||
	       a->st_size != b->st_size ||
	       a->st_mtim.tv_sec != b->st_mtim.tv_sec ||
	       a->st_mtim.tv_nsec != b->st_mtim.tv_nsec ||
	       a->st_ctim.tv_sec != b->st_ctim.tv_sec ||
	       a->st_ctim.tv_nsec != b->st_ctim.tv_nsec;
}

/* fstat only: async-signal-safe */
bool mapguard__changed(const struct mapguard *g)
{
	for (int i = 0; i < g->nr; i++) {
		struct stat st;

		if (fstat(g->fds[i], &st) || stat_differs(&st, &g->st[i]))
			return true;
	}
	return false;
}

void mapguard__catch(int sig)
{
	struct mapguard *g = top;

	if (!g || !g->armed || (sig != SIGBUS && sig != SIGSEGV))
		return;
	if (sig == SIGSEGV && !mapguard__changed(g))
		return;
	g->armed = 0;
	g->sig = sig;
	top = g->prev;
	/* the handler runs with SA_NODEFER: nothing to unblock */
	siglongjmp(g->jb, 1);
}

void mapguard__chain(int sig, siginfo_t *si, void *uc,
		     const struct sigaction *old)
{
	if (old) {
		sigaction(sig, old, NULL);
		if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
			old->sa_sigaction(sig, si, uc);
			return;
		}
		if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
			old->sa_handler(sig);
			return;
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* What was there before (ASan's, the default) gets what is not ours. */
static void handler(int sig, siginfo_t *si, void *uc)
{
	mapguard__catch(sig);
	mapguard__chain(sig, si, uc,
			&old_actions[sig == SIGBUS ? 0 : 1]);
}

static void install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < 2; i++)
		sigaction(signals[i], &sa, &old_actions[i]);
}

void mapguard__install(void)
{
	pthread_once(&once, install);
}

int mapguard__keep(void *left)
{
	int err = 0;

	pthread_mutex_lock(&kept_lock);
	if (array__grow((void **)&kept, &cap_kept, nr_kept + 1,
			sizeof(*kept)))
		err = -ENOMEM;
	else
		kept[nr_kept++] = left;
	pthread_mutex_unlock(&kept_lock);
	return err;
}

void mapguard__init(struct mapguard *g)
{
	memset(g, 0, sizeof(*g));
}

int mapguard__watch(struct mapguard *g, int fd)
{
	if (g->nr >= 2)
		return -E2BIG;
	if (fstat(fd, &g->st[g->nr]))
		return -errno;
	g->fds[g->nr++] = fd;
	return 0;
}

int mapguard__run(struct mapguard *g, void (*fn)(void *), void *arg)
{
	mapguard__install();
	g->sig = 0;
	g->prev = top;
	if (sigsetjmp(g->jb, 0))
		return -EFAULT;	/* mapguard__catch popped it */
	g->armed = 1;
	top = g;
	fn(arg);
	g->armed = 0;
	top = g->prev;
	return 0;
}

int mapfile__open(struct mapfile *mf, int fd)
{
	struct stat st;
	void *map;
	int err;

	memset(mf, 0, sizeof(*mf));
	mf->fd = -1;
	mapguard__init(&mf->g);
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (st.st_size <= 0) {
		close(fd);
		return -EINVAL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		err = -errno;
		close(fd);
		return err;
	}
	mf->fd = fd;
	mf->map = map;
	mf->size = (size_t)st.st_size;
	mapguard__watch(&mf->g, fd);
	/* a file grown or cut since the fstat above is not this one */
	if (mf->g.st[0].st_size != st.st_size)
		mf->stale = true;
	return 0;
}

int mapfile__run(struct mapfile *mf, void (*fn)(void *), void *arg)
{
	if (mf->stale)
		return -ESTALE;
	if (mapguard__run(&mf->g, fn, arg)) {
		mf->stale = true;
		return -EFAULT;
	}
	if (mapguard__changed(&mf->g)) {
		mf->stale = true;
		return -ESTALE;
	}
	return 0;
}

void mapfile__close(struct mapfile *mf)
{
	if (mf->map)
		munmap((void *)(uintptr_t)mf->map, mf->size);
	if (mf->fd >= 0)
		close(mf->fd);
	mf->map = NULL;
	mf->fd = -1;
}
