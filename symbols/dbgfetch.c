/* dbgfetch: debug files and binaries fetched by build-id (see dbgfetch.h). */
#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "symbols/dbgfetch.h"
#include "symbols/debuginfo.h"
#include "symbols/elfsym.h"
#include "src/core/log.h"

#define MAX_ENTRIES 4096
#define MAX_FAILS 3
#define DEFAULT_STALL_MS 30000
#define PROGRESS_EVERY_MS 2000

/* What ptop calls of the library: resolved with dlsym. */
struct dilib {
	debuginfod_client *(*begin)(void);
	void (*end)(debuginfod_client *c);
	int (*find_debuginfo)(debuginfod_client *c, const unsigned char *bid,
			      int len, char **path);
	int (*find_executable)(debuginfod_client *c, const unsigned char *bid,
			       int len, char **path);
	void (*set_progressfn)(debuginfod_client *c,
			       debuginfod_progressfn_t fn);
	void (*set_user_data)(debuginfod_client *c, void *data);
	void *(*get_user_data)(debuginfod_client *c);
};

enum entry_state { E_QUEUED, E_RUNNING, E_DONE, E_FAILED };

struct entry {
	enum dbgfetch_kind kind;
	u8 bid[BUILD_ID_MAX];
	size_t bid_size;
	char name[64];		/* for messages */
	enum entry_state state;
	int err;
	char *path;		/* E_DONE: the file in the client's cache */
};

struct dbgfetch {
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* an entry changed state, or stop */
	struct entry *entries;
	size_t nr, cap;
	size_t next;		/* entries before it are not E_QUEUED */
	bool started, stop, given_up;
	pthread_t thread;
	u64 done;
	unsigned int fails;	/* failures in a row, "not there" aside */
	char *soname;
	unsigned int stall_ms;
	volatile sig_atomic_t *sig_stop;

	/* the worker's own (no lock) */
	struct dilib lib;
	void *dl;
	debuginfod_client *client;
	const struct entry *cur;	/* a copy of the entry being fetched */
	u64 t_start, t_change, t_said;
	long last_bytes;
	bool stalled;
	bool went_out;		/* the library called progress: not a cache
				 * hit, a transfer */
	atomic_bool abort;	/* set by dbgfetch__free */
};

static u64 now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000 + (u64)ts.tv_nsec / 1000000;
}

static const char *what(enum dbgfetch_kind kind)
{
	return kind == DBGFETCH_DEBUGINFO ? "debug info" : "binary";
}

struct dbgfetch *dbgfetch__new(const struct dbgfetch_opts *opts)
{
	const char *urls = getenv(DEBUGINFOD_URLS_ENV_VAR);
	const char *t = getenv(DEBUGINFOD_TIMEOUT_ENV_VAR);
	struct dbgfetch *f;

	if (!urls || !*urls) {
		errno = ENOENT;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->cond, NULL);
	f->soname = strdup(opts && opts->soname ? opts->soname :
						  DEBUGINFOD_SONAME);
	if (!f->soname) {
		dbgfetch__free(f);
		errno = ENOMEM;
		return NULL;
	}
	f->stall_ms = opts ? opts->stall_ms : 0;
	f->sig_stop = opts ? opts->stop : NULL;
	/* the library's own timeout is the commencing time: take it for
	 * the silence we accept in the middle of a transfer too */
	if (!f->stall_ms && t && atoi(t) > 0)
		f->stall_ms = (unsigned int)MIN(atoi(t), 3600) * 1000;
	if (!f->stall_ms)
		f->stall_ms = DEFAULT_STALL_MS;
	return f;
}

void dbgfetch__free(struct dbgfetch *f)
{
	if (!f)
		return;
	pthread_mutex_lock(&f->lock);
	f->stop = true;
	atomic_store(&f->abort, true);
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
	if (f->started)
		pthread_join(f->thread, NULL);
	for (size_t i = 0; i < f->nr; i++)
		free(f->entries[i].path);
	free(f->entries);
	free(f->soname);
	pthread_cond_destroy(&f->cond);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

static void *sym(void *h, const char *name, bool *ok)
{
	void *p = dlsym(h, name);

	if (!p)
		*ok = false;
	return p;
}

/* On the worker: the library, then a client.  0 or -ELIBACC. */
static int load(struct dbgfetch *f)
{
	struct dilib *l = &f->lib;
	bool ok = true;

	/* never closed: libcurl, under it, does not like being unloaded */
	f->dl = dlopen(f->soname, RTLD_NOW | RTLD_LOCAL);
	if (!f->dl) {
		pr_warn("debuginfod: cannot load %s (%s): names of stripped "
			"binaries will not be fetched", f->soname, dlerror());
		return -ELIBACC;
	}
	/* POSIX: a data pointer from dlsym converts to a function pointer */
	*(void **)&l->begin = sym(f->dl, "debuginfod_begin", &ok);
	*(void **)&l->end = sym(f->dl, "debuginfod_end", &ok);
	*(void **)&l->find_debuginfo = sym(f->dl, "debuginfod_find_debuginfo",
					   &ok);
	*(void **)&l->find_executable =
		sym(f->dl, "debuginfod_find_executable", &ok);
	*(void **)&l->set_progressfn = sym(f->dl, "debuginfod_set_progressfn",
					   &ok);
	*(void **)&l->set_user_data = sym(f->dl, "debuginfod_set_user_data",
					  &ok);
	*(void **)&l->get_user_data = sym(f->dl, "debuginfod_get_user_data",
					  &ok);
	if (!ok) {
		pr_warn("debuginfod: %s lacks a function", f->soname);
		return -ELIBACC;
	}
	f->client = l->begin();
	if (!f->client) {
		pr_warn("debuginfod: no client: %s", strerror(errno));
		return -ELIBACC;
	}
	return 0;
}

/* dbgfetch__free, or the signal main catches: fetches end quietly. */
static bool stopping(struct dbgfetch *f)
{
	return atomic_load(&f->abort) || (f->sig_stop && *f->sig_stop);
}

/* The fetcher of this worker thread: the progress callback's context
 * (the library's user data would need the library to read it). */
static __thread struct dbgfetch *worker_of;

/*
 * Called by the library about once a second while it waits and whenever
 * bytes arrive: the one way to stop a fetch.  Until a server announced
 * the size (b > 0), a counts the library's loops, not bytes, so time is
 * what counts: stall_ms without an answer; then stall_ms without a new
 * byte.  Stops at once on dbgfetch__free.  Says how a long transfer goes
 * every few seconds.
 */
static int progress(debuginfod_client *c, long a, long b)
{
	struct dbgfetch *f = worker_of;
	u64 now = now_ms();

	(void)c;
	if (!f || stopping(f))
		return 1;
	/* only a transfer calls this: files in the client's cache come
	 * without a word */
	if (!f->went_out) {
		f->went_out = true;
		pr_info("debuginfod: fetching the %s of %s", what(f->cur->kind),
			f->cur->name);
	}
	if (b > 0 && a != f->last_bytes) {
		f->last_bytes = a;
		f->t_change = now;
	}
	if (now - f->t_change > f->stall_ms) {
		f->stalled = true;
		return 1;
	}
	if (now - f->t_said >= PROGRESS_EVERY_MS) {
		f->t_said = now;
		if (b > 0)
			pr_info("debuginfod: fetching the %s of %s: %ld of "
				"%ld KiB", what(f->cur->kind), f->cur->name,
				a / 1024, b / 1024);
		else
			pr_info("debuginfod: fetching the %s of %s: no answer "
				"for %u s", what(f->cur->kind), f->cur->name,
				(unsigned int)((now - f->t_start) / 1000));
	}
	return 0;
}

/* Is the fetched file what was asked for?  0, or -EBADMSG. */
static int check_file(int fd, const struct entry *e)
{
	u8 bid[BUILD_ID_MAX];
	Elf *elf = elfsym__open_fd(fd);
	int n;

	if (!elf)
		return -EBADMSG;
	n = elfsym__build_id(elf, bid, sizeof(bid));
	elf_end(elf);
	if (n <= 0 ||
	    !debuginfo__build_id_eq(bid, (size_t)n, e->bid, e->bid_size))
		return -EBADMSG;
	return 0;
}

/* One fetch, on the worker, without the lock: 0 with *path, or -errno. */
static int fetch(struct dbgfetch *f, const struct entry *e, char **path)
{
	int fd, err;

	*path = NULL;
	f->cur = e;
	f->t_start = f->t_change = f->t_said = now_ms();
	f->last_bytes = -1;
	f->stalled = false;
	f->went_out = false;
	if (e->kind == DBGFETCH_DEBUGINFO)
		fd = f->lib.find_debuginfo(f->client, e->bid,
					   (int)e->bid_size, path);
	else
		fd = f->lib.find_executable(f->client, e->bid,
					    (int)e->bid_size, path);
	if (fd < 0) {
		free(*path);
		*path = NULL;
		return f->stalled ? -ETIMEDOUT : fd;
	}
	err = check_file(fd, e);
	close(fd);
	if (err || !*path) {
		free(*path);
		*path = NULL;
		return err ? err : -ENOMEM;
	}
	return 0;
}

static const char *why(struct dbgfetch *f, int err, char *buf, size_t size)
{
	switch (err) {
	case -ETIMEDOUT:
		snprintf(buf, size, "no answer for %u s", f->stall_ms / 1000);
		return buf;
	case -EBADMSG:
		return "the server sent a file that is not it (not ELF, or "
		       "another build-id): not used";
	default:
		return strerror(-err);
	}
}

/* With the lock: the next entry to fetch, or NULL. */
static struct entry *next_queued(struct dbgfetch *f)
{
	for (; f->next < f->nr; f->next++)
		if (f->entries[f->next].state == E_QUEUED)
			return &f->entries[f->next];
	return NULL;
}

static void fail_queued(struct dbgfetch *f, int err)
{
	for (size_t i = 0; i < f->nr; i++) {
		if (f->entries[i].state == E_QUEUED) {
			f->entries[i].state = E_FAILED;
			f->entries[i].err = err;
			f->done++;
		}
	}
	f->next = f->nr;
}

static void *worker(void *arg)
{
	struct dbgfetch *f = arg;
	char buf[64];
	int lerr;

	worker_of = f;
	lerr = load(f);
	if (!lerr)
		f->lib.set_progressfn(f->client, progress);
	pthread_mutex_lock(&f->lock);
	if (lerr) {
		f->given_up = true;
		fail_queued(f, lerr);
		pthread_cond_broadcast(&f->cond);
	}
	while (!lerr) {
		struct entry *e = NULL, copy;
		size_t idx;
		char *path;
		int err;

		while (!f->stop && !f->given_up && !(e = next_queued(f)))
			pthread_cond_wait(&f->cond, &f->lock);
		if (f->stop || f->given_up)
			break;
		e->state = E_RUNNING;
		copy = *e;
		idx = (size_t)(e - f->entries);
		pthread_mutex_unlock(&f->lock);

		err = fetch(f, &copy, &path);
		if (err && stopping(f))
			pr_debug("debuginfod: the %s of %s: stopped",
				 what(copy.kind), copy.name);
		else if (!f->went_out && (!err || err == -ENOENT))
			pr_debug("debuginfod: the %s of %s: %s, from the "
				 "client's cache", what(copy.kind), copy.name,
				 err ? "not there" : "found");
		else if (!err)
			pr_info("debuginfod: got the %s of %s", what(copy.kind),
				copy.name);
		else if (err == -ENOENT)
			pr_info("debuginfod: no server has the %s of %s",
				what(copy.kind), copy.name);
		else
			pr_warn("debuginfod: the %s of %s: %s", what(copy.kind),
				copy.name, why(f, err, buf, sizeof(buf)));

		pthread_mutex_lock(&f->lock);
		/* the array may have grown meanwhile: by index */
		e = &f->entries[idx];
		e->state = err ? E_FAILED : E_DONE;
		e->err = err;
		e->path = path;
		f->done++;
		if (!err) {
			f->fails = 0;
		} else if (err != -ENOENT && !stopping(f) &&
			   ++f->fails >= MAX_FAILS) {
			pr_warn("debuginfod: %u fetches in a row failed: no "
				"more this session", f->fails);
			f->given_up = true;
			fail_queued(f, -EHOSTDOWN);
		}
		pthread_cond_broadcast(&f->cond);
	}
	pthread_mutex_unlock(&f->lock);
	if (f->client)
		f->lib.end(f->client);
	f->client = NULL;
	return NULL;
}

/* With the lock: the entry for (kind, build-id), or NULL. */
static struct entry *find(struct dbgfetch *f, enum dbgfetch_kind kind,
			  const u8 *bid, size_t n)
{
	for (size_t i = 0; i < f->nr; i++) {
		struct entry *e = &f->entries[i];

		if (e->kind == kind && e->bid_size == n &&
		    !memcmp(e->bid, bid, n))
			return e;
	}
	return NULL;
}

static const char *basename_of(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path ? path : "?";
}

/* With the lock: a new queued entry, the worker started; NULL: -errno */
static struct entry *add(struct dbgfetch *f, enum dbgfetch_kind kind,
			 const u8 *bid, size_t n, const char *name, int *err)
{
	struct entry *e;

	if (f->nr >= MAX_ENTRIES) {
		*err = -ENOSPC;
		return NULL;
	}
	if (array__grow((void **)&f->entries, &f->cap, f->nr + 1,
			sizeof(*f->entries))) {
		*err = -ENOMEM;
		return NULL;
	}
	if (!f->started) {
		*err = -pthread_create(&f->thread, NULL, worker, f);
		if (*err)
			return NULL;
		f->started = true;
	}
	e = &f->entries[f->nr++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	memcpy(e->bid, bid, n);
	e->bid_size = n;
	snprintf(e->name, sizeof(e->name), "%s", basename_of(name));
	e->state = E_QUEUED;
	pthread_cond_broadcast(&f->cond);
	return e;
}

int dbgfetch__get(struct dbgfetch *f, enum dbgfetch_kind kind,
		  const u8 *build_id, size_t build_id_size, const char *name,
		  bool wait, char *path, size_t size)
{
	struct entry *e;
	size_t idx;
	int err = 0;

	if (!f || !build_id || !build_id_size || build_id_size > BUILD_ID_MAX ||
	    !path || !size)
		return -EINVAL;
	pthread_mutex_lock(&f->lock);
	e = find(f, kind, build_id, build_id_size);
	if (!e && (f->stop || f->given_up))
		err = -EHOSTDOWN;
	else if (!e)
		e = add(f, kind, build_id, build_id_size, name, &err);
	if (!e)
		goto out;
	idx = (size_t)(e - f->entries);
	/* bounded: the fetch ends on its own (stall_ms, the library's
	 * timeouts, dbgfetch__free) */
	while (wait && !f->stop && (f->entries[idx].state == E_QUEUED ||
				    f->entries[idx].state == E_RUNNING)) {
		struct timespec ts;

		if (f->sig_stop && *f->sig_stop) {
			err = -EINTR;
			goto out;
		}
		/* in slices: a signal does not wake a condition wait */
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&f->cond, &f->lock, &ts);
	}
	e = &f->entries[idx];
	if (e->state == E_DONE) {
		if (snprintf(path, size, "%s", e->path) >= (int)size)
			err = -ENAMETOOLONG;
	} else if (e->state == E_FAILED) {
		err = e->err ? e->err : -EIO;
	} else {
		err = -EINPROGRESS;
	}
out:
	pthread_mutex_unlock(&f->lock);
	return err;
}

u64 dbgfetch__done(struct dbgfetch *f)
{
	u64 n;

	if (!f)
		return 0;
	pthread_mutex_lock(&f->lock);
	n = f->done;
	pthread_mutex_unlock(&f->lock);
	return n;
}

size_t dbgfetch__pending(struct dbgfetch *f)
{
	size_t n = 0;

	if (!f)
		return 0;
	pthread_mutex_lock(&f->lock);
	for (size_t i = 0; i < f->nr; i++)
		if (f->entries[i].state == E_QUEUED ||
		    f->entries[i].state == E_RUNNING)
			n++;
	pthread_mutex_unlock(&f->lock);
	return n;
}
