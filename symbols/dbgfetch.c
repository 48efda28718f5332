/* dbgfetch: debug files and binaries fetched by build-id (see dbgfetch.h). */
#include <elfutils/debuginfod.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "src/sys/clock.h"
#include "symbols/dbgfetch.h"
#include "src/core/dso.h"
#include "symbols/elfsym.h"
#include "src/core/log.h"
#include "src/sys/dynlib.h"

#define MAX_ENTRIES 4096
#define MAX_FAILS 3
#define DEFAULT_STALL_MS 30000
#define PROGRESS_EVERY_MS 2000
/* Turns of libdebuginfod's loop without a byte, half a second apart or
 * less: it waits up to a second a turn for a silent server (stall_ms
 * bounds that), but a server that redirects to itself makes a request a
 * turn, thousands a second */
#define MAX_EMPTY_CALLS 64

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
	/* optional (0.183 on) */
	void (*set_verbose_fd)(debuginfod_client *c, int fd);
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
	u64 max_bytes;
	char *cache_dir;	/* the client's, as libdebuginfod finds it */
	volatile sig_atomic_t *sig_stop;

	/* the worker's own (no lock) */
	struct dilib lib;
	debuginfod_client *client;
	int null_fd;		/* the client's verbose output, or -1 */
	const struct entry *cur;	/* a copy of the entry being fetched */
	u64 t_start, t_change, t_said;
	time_t began;		/* wall clock: what the library wrote since */
	long last_bytes;
	long calls;		/* of progress, this fetch */
	u64 bytes;		/* received so far */
	bool stalled, too_big, no_file;
	bool went_out;		/* the library called progress: not a cache
				 * hit, a transfer */
	atomic_bool abort;	/* set by dbgfetch__free */
};

static u64 now_ms(void)
{
	return clock__now_ns() / 1000000;
}

static const char *what(enum dbgfetch_kind kind)
{
	return kind == DBGFETCH_DEBUGINFO ? "debug info" : "binary";
}

double dbgfetch__after(double seconds)
{
	return (double)now_ms() / 1000 + seconds;
}

/* The client's cache folder, found as libdebuginfod 0.188 finds it:
 * $DEBUGINFOD_CACHE_PATH, else ~/.debuginfod_client_cache when it exists,
 * else $XDG_CACHE_HOME (or ~/.cache)/debuginfod_client. */
static char *client_cache(void)
{
	const char *env = getenv(DEBUGINFOD_CACHE_PATH_ENV_VAR);
	const char *home = getenv("HOME");
	const char *xdg = getenv("XDG_CACHE_HOME");
	struct stat st;
	struct strbuf sb;

	strbuf__init(&sb);
	if (env && *env) {
		strbuf__adds(&sb, env);
	} else {
		strbuf__addf(&sb, "%s/.debuginfod_client_cache",
			     home ? home : "/");
		if (stat(sb.buf ? sb.buf : "", &st)) {
			strbuf__reset(&sb);
			if (xdg && *xdg)
				strbuf__addf(&sb, "%s/debuginfod_client", xdg);
			else
				strbuf__addf(&sb, "%s/.cache/debuginfod_client",
					     home ? home : "/");
		}
	}
	return strbuf__detach(&sb);
}

struct dbgfetch *dbgfetch__new(const struct dbgfetch_opts *opts)
{
	const char *urls = getenv(DEBUGINFOD_URLS_ENV_VAR);
	const char *t = getenv(DEBUGINFOD_TIMEOUT_ENV_VAR);
	const char *max = getenv(DEBUGINFOD_MAXSIZE_ENV_VAR);
	struct dbgfetch *f;
	u64 v;

	if (!urls || !*urls) {
		errno = ENOENT;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->cond, NULL);
	f->null_fd = -1;
	f->soname = strdup(opts && opts->soname ? opts->soname :
						  DEBUGINFOD_SONAME);
	f->cache_dir = client_cache();
	if (!f->soname || !f->cache_dir) {
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
	f->max_bytes = opts ? opts->max_bytes : 0;
	if (!f->max_bytes && max && !parse_u64(max, &v) && v)
		f->max_bytes = v;
	if (!f->max_bytes)
		f->max_bytes = DBGFETCH_MAX_BYTES;
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
	free(f->cache_dir);
	pthread_cond_destroy(&f->cond);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

/* On the worker: the library, then a client.  0 or -ELIBACC. */
static int load(struct dbgfetch *f)
{
	struct dilib *l = &f->lib;
	const char *const soname[] = { f->soname };
	/* POSIX: a data pointer from dlsym converts to a function pointer */
	const struct dynlib_fn fns[] = {
		{ "debuginfod_begin", (void **)&l->begin, false },
		{ "debuginfod_end", (void **)&l->end, false },
		{ "debuginfod_find_debuginfo", (void **)&l->find_debuginfo,
		  false },
		{ "debuginfod_find_executable", (void **)&l->find_executable,
		  false },
		{ "debuginfod_set_progressfn", (void **)&l->set_progressfn,
		  false },
		{ "debuginfod_set_user_data", (void **)&l->set_user_data,
		  false },
		{ "debuginfod_get_user_data", (void **)&l->get_user_data,
		  false },
		{ "debuginfod_set_verbose_fd", (void **)&l->set_verbose_fd,
		  true },
	};
	struct dynlib dl;
	int err = dynlib__load(&dl, soname, ARRAY_SIZE(soname), fns,
			       ARRAY_SIZE(fns));

	if (err == -ELIBACC) {
		pr_warn("debuginfod: cannot load %s (%s): names of stripped "
			"binaries will not be fetched", f->soname, dl.why);
		return -ELIBACC;
	}
	if (err) {
		pr_warn("debuginfod: %s lacks a function", f->soname);
		return -ELIBACC;
	}
	f->client = l->begin();
	if (!f->client) {
		pr_warn("debuginfod: no client: %s", strerror(errno));
		return -ELIBACC;
	}
	/*
	 * The client's verbose output goes to /dev/null: 0.188 writes "using
	 * max size" to it whenever DEBUGINFOD_MAXSIZE is set, even when it
	 * has none (-1), and glibc's dprintf to a bad descriptor leaks its
	 * 8 KiB buffer, a leak a fetch; and DEBUGINFOD_VERBOSE's lines on
	 * stderr would draw over the live view.
	 */
	if (l->set_verbose_fd) {
		f->null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (f->null_fd >= 0)
			l->set_verbose_fd(f->client, f->null_fd);
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
 * Called by the library at each turn of its loop (up to a second apart
 * while it waits, and whenever bytes arrive): the one way to stop a
 * fetch.  Until a server sends the file's first bytes, a counts the
 * library's turns (a == our count of calls), then the bytes received (b
 * the length announced, 0 when none was).  So: stall_ms without a byte;
 * more than max_bytes received or announced (whatever Content-Length
 * said: libdebuginfod checks only that, and only with DEBUGINFOD_MAXSIZE
 * set); MAX_EMPTY_CALLS turns without a byte (a redirect loop: curl
 * follows redirects inside a turn, about one a turn, and libdebuginfod
 * 0.188 lets no one set CURLOPT_MAXREDIRS).  Stops at once on
 * dbgfetch__free.  Says how a long transfer goes every few seconds.
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
	f->calls++;
	if (a >= 0 && (b > 0 || a != f->calls))
		f->bytes = (u64)a;
	if ((b > 0 && (u64)b > f->max_bytes) || f->bytes > f->max_bytes) {
		f->too_big = true;
		return 1;
	}
	/* fast turns only: a silent server's are a second each, and
	 * stall_ms (DEBUGINFOD_TIMEOUT) is its bound */
	if (!f->bytes && f->calls > MAX_EMPTY_CALLS &&
	    now - f->t_start < (u64)f->calls * 500) {
		f->no_file = true;
		return 1;
	}
	if (f->bytes && (long)f->bytes != f->last_bytes) {
		f->last_bytes = (long)f->bytes;
		f->t_change = now;
	}
	if (now - f->t_change > f->stall_ms) {
		f->stalled = true;
		return 1;
	}
	if (now - f->t_said >= PROGRESS_EVERY_MS) {
		f->t_said = now;
		if (b > 0)
			pr_info("debuginfod: fetching the %s of %s: %llu of "
				"%ld KiB", what(f->cur->kind), f->cur->name,
				(unsigned long long)f->bytes / 1024, b / 1024);
		else if (f->bytes)
			pr_info("debuginfod: fetching the %s of %s: %llu KiB",
				what(f->cur->kind), f->cur->name,
				(unsigned long long)f->bytes / 1024);
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
	    !dso__build_id_eq(bid, (size_t)n, e->bid, e->bid_size))
		return -EBADMSG;
	return 0;
}

/* path lies under the client's cache folder (no ".." on the way). */
static bool in_cache(const struct dbgfetch *f, const char *path)
{
	size_t n = strlen(f->cache_dir);

	return !strncmp(path, f->cache_dir, n) && path[n] == '/' &&
	       !strstr(path + n, "/../");
}

/* The client's cache file of e: CACHE/HEX/debuginfo|executable. */
static void cache_file(const struct dbgfetch *f, const struct entry *e,
		       char *buf, size_t size)
{
	char hex[2 * BUILD_ID_MAX + 1];

	for (size_t i = 0; i < e->bid_size; i++)
		snprintf(hex + 2 * i, 3, "%02x", e->bid[i]);
	hex[2 * e->bid_size] = '\0';
	snprintf(buf, size, "%s/%s/%s", f->cache_dir, hex,
		 e->kind == DBGFETCH_DEBUGINFO ? "debuginfo" : "executable");
}

/* Removes from the client's cache what a fetch ptop refused or cut short
 * left there, so that a later run asks again: the refused file (path,
 * which the library returned), or, after an abort, the empty "not found"
 * file libdebuginfod 0.188 writes when a fetch ends without a file (the
 * server never said so), if this fetch made it.  Then the build-id's
 * folder, when nothing else is in it. */
static void forget(struct dbgfetch *f, const struct entry *e,
		   const char *path)
{
	char mine[PATH_MAX], *slash;
	struct stat st;

	if (!path) {
		cache_file(f, e, mine, sizeof(mine));
		if (lstat(mine, &st) || !S_ISREG(st.st_mode) || st.st_size ||
		    st.st_uid != geteuid() || st.st_mtime < f->began)
			return;
		path = mine;
	} else if (!in_cache(f, path) ||
		   snprintf(mine, sizeof(mine), "%s", path) >=
			   (int)sizeof(mine)) {
		return;
	}
	if (unlink(path))
		return;
	slash = strrchr(mine, '/');
	if (slash && slash != mine) {
		*slash = '\0';
		rmdir(mine);
	}
}

/* One fetch, on the worker, without the lock: 0 with *path, or -errno. */
static int fetch(struct dbgfetch *f, const struct entry *e, char **path)
{
	int fd, err;

	*path = NULL;
	f->cur = e;
	f->t_start = f->t_change = f->t_said = now_ms();
	f->began = time(NULL) - 1;
	f->last_bytes = -1;
	f->calls = 0;
	f->bytes = 0;
	f->stalled = f->too_big = f->no_file = false;
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
		if (f->stalled || f->too_big || f->no_file || stopping(f))
			forget(f, e, NULL);
		return f->too_big ? -EFBIG :
		       f->no_file ? -ELOOP :
		       f->stalled ? -ETIMEDOUT : fd;
	}
	err = check_file(fd, e);
	close(fd);
	if (err && *path)
		forget(f, e, *path);
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
		       "another build-id): not used, removed from the "
		       "client's cache";
	case -EFBIG:
		snprintf(buf, size, "over %llu MiB (DEBUGINFOD_MAXSIZE, "
			 "--debuginfod-maxsize): not fetched",
			 (unsigned long long)(f->max_bytes >> 20));
		return buf;
	case -ELOOP:
		snprintf(buf, size, "no file after %d requests (a redirect "
			 "loop?): not fetched", MAX_EMPTY_CALLS);
		return buf;
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
	char buf[128];
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
	if (f->null_fd >= 0)
		close(f->null_fd);
	f->null_fd = -1;
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
	snprintf(e->name, sizeof(e->name), "%s",
		 name ? path_basename(name) : "?");
	e->state = E_QUEUED;
	pthread_cond_broadcast(&f->cond);
	return e;
}

int dbgfetch__get(struct dbgfetch *f, enum dbgfetch_kind kind,
		  const u8 *build_id, size_t build_id_size, const char *name,
		  double until, char *path, size_t size)
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
	/* until the caller's time: the fetch goes on, a later call gets
	 * its answer */
	while (!f->stop && (f->entries[idx].state == E_QUEUED ||
			    f->entries[idx].state == E_RUNNING) &&
	       (double)now_ms() / 1000 < until) {
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
