/* check_dbgfetch: debuginfod fetches (through a fake client library),
 * the symbolizer reloading what waited for them, MiniDebugInfo, --symfs. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "symbols/dbgfetch.h"
#include "symbols/elfsym.h"
#include "tests/fixtures/symtest.h"
#include "src/core/log.h"
#include "tests/testutil.h"
#include "symbols/symbolizer.h"
#include "symbols/symtab.h"

/* wait until the fetch ends (the tests' servers answer) */
#define WAIT dbgfetch__after(300)

static char dir[256];		/* the fake server's files */

static void setup(void)
{
	test_log_capture();
	snprintf(dir, sizeof(dir), "/tmp/ptop-dbgfetch-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("FAKE_DEBUGINFOD_DIR", dir, 1);
	setenv("DEBUGINFOD_URLS", "http://127.0.0.1:9/", 1);
}

static void teardown(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	unsetenv("FAKE_DEBUGINFOD_DIR");
	unsetenv("DEBUGINFOD_URLS");
	log__set_handler(NULL, NULL);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct dbgfetch *fake_fetch(unsigned int stall_ms)
{
	struct dbgfetch_opts o = {
		.soname = fixture_path("libfakedebuginfod.so"),
		.stall_ms = stall_ms,
	};
	struct dbgfetch *f = dbgfetch__new(&o);

	ck_assert_ptr_nonnull(f);
	return f;
}

/* The build-id of a fixture, into d (and its hex into hex). */
static void build_id_of(const char *path, struct dso *d, char *hex)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	int n;

	ck_assert_int_ge(fd, 0);
	elf = elfsym__open_fd(fd);
	ck_assert_ptr_nonnull(elf);
	n = elfsym__build_id(elf, d->build_id, sizeof(d->build_id));
	ck_assert_int_gt(n, 0);
	d->build_id_size = (u8)n;
	elf_end(elf);
	close(fd);
	for (int i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", d->build_id[i]);
}

/* The server's DIR/HEX/name, a link to target (NULL: an empty file). */
static void serve(const char *hex, const char *name, const char *target)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", dir, hex);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/%s/%s", dir, hex, name);
	if (target) {
		ck_assert_int_eq(symlink(target, p), 0);
	} else {
		int fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);

		ck_assert_int_ge(fd, 0);
		close(fd);
	}
}

static void unserve(const char *hex, const char *name)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s/%s", dir, hex, name);
	ck_assert_int_eq(unlink(p), 0);
}

/* How many fetches reached the fake library. */
static int calls(void)
{
	char p[512], line[16];
	FILE *f;
	int n = 0;

	snprintf(p, sizeof(p), "%s/calls", dir);
	f = fopen(p, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

/* symfix-bid: stripped, its debug file under debugroot by build-id */
static const char *bid_debug(const char *hex)
{
	static char p[4096];
	char rel[4096];

	snprintf(rel, sizeof(rel), "%s/.build-id/%.2s/%s.debug",
		 test_fixture("debugroot"), hex, hex + 2);
	ck_assert_ptr_nonnull(realpath(rel, p));
	return p;
}

/* A fixture's absolute path (links made to it work from anywhere). */
static const char *abs_fixture(const char *name)
{
	static char ring[4][4096];
	static unsigned int next;
	char *p = ring[next++ % 4];

	ck_assert_ptr_nonnull(realpath(test_fixture(name), p));
	return p;
}

/* The hex of a 20-byte build-id. */
static void hex_of(const u8 *bid, char *hex)
{
	for (int i = 0; i < 20; i++)
		sprintf(hex + 2 * i, "%02x", bid[i]);
}

/* DIR/HEX/name holding text (a regular file) */
static void serve_text(const char *hex, const char *name, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, hex);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/%s/%s", dir, hex, name);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* What the fake's HEX/stream or HEX/loop got: turns and bytes. */
static void got(long *turns, long *bytes)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/got", dir);
	f = fopen(p, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%ld %ld", turns, bytes), 2);
	fclose(f);
}

static bool in_dir(const char *hex, const char *name)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s/%s", dir, hex, name);
	return access(p, F_OK) == 0;
}

START_TEST(test_off)
{
	unsetenv("DEBUGINFOD_URLS");
	errno = 0;
	ck_assert_ptr_null(dbgfetch__new(NULL));
	ck_assert_int_eq(errno, ENOENT);
	setenv("DEBUGINFOD_URLS", "", 1);
	ck_assert_ptr_null(dbgfetch__new(NULL));
	dbgfetch__free(NULL);
}
END_TEST

START_TEST(test_no_library)
{
	struct dbgfetch_opts o = { .soname = "libptop-nothere.so.9" };
	struct dbgfetch *f = dbgfetch__new(&o);
	u8 bid[20] = { 1, 2, 3 };
	char path[4096];

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO, bid, 20, "x",
				       WAIT, path, sizeof(path)),
			 -ELIBACC);
	ck_assert_int_eq(test_warnings, 1);
	ck_assert_ptr_nonnull(strstr(test_last_warning, "cannot load"));
	/* said once; nothing more is asked */
	bid[0] = 9;
	ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO, bid, 20, "x",
				       WAIT, path, sizeof(path)),
			 -EHOSTDOWN);
	ck_assert_int_eq(test_warnings, 1);
	dbgfetch__free(f);
}
END_TEST

START_TEST(test_fetch_once)
{
	struct dso d = file_dso(0, fixture_path("symfix-bid"));
	struct dbgfetch *f = fake_fetch(0);
	char hex[41], path[4096];

	build_id_of(d.path, &d, hex);
	serve(hex, "debuginfo", bid_debug(hex));
	ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO, d.build_id,
				       d.build_id_size, d.path, WAIT, path,
				       sizeof(path)),
			 0);
	ck_assert_ptr_nonnull(strstr(path, hex));
	ck_assert_uint_eq(dbgfetch__done(f), 1);
	/* asked again: the answer kept, no second fetch */
	ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO, d.build_id,
				       d.build_id_size, d.path, 0, path,
				       sizeof(path)),
			 0);
	ck_assert_int_eq(calls(), 1);
	/* the executable is another request, and not there */
	ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_EXECUTABLE, d.build_id,
				       d.build_id_size, d.path, WAIT, path,
				       sizeof(path)),
			 -ENOENT);
	ck_assert_int_eq(calls(), 2);
	ck_assert_int_eq(test_warnings, 0);
	ck_assert_uint_eq(dbgfetch__pending(f), 0);
	dbgfetch__free(f);
}
END_TEST

/* Files that are not what was asked for are never handed out: not ELF,
 * another build-id. */
START_TEST(test_garbage)
{
	struct dso d = file_dso(0, fixture_path("symfix-bid"));
	struct dbgfetch *f = fake_fetch(0);
	char hex[41], path[4096];

	build_id_of(d.path, &d, hex);
	serve(hex, "debuginfo", abs_fixture("notelf.bin"));
	serve(hex, "executable", abs_fixture("symfix-pie"));
	ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO, d.build_id,
				       d.build_id_size, d.path, WAIT, path,
				       sizeof(path)),
			 -EBADMSG);
	ck_assert_ptr_nonnull(strstr(test_last_warning, "not used"));
	ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_EXECUTABLE, d.build_id,
				       d.build_id_size, d.path, WAIT, path,
				       sizeof(path)),
			 -EBADMSG);
	ck_assert_int_eq(test_warnings, 2);
	/* ended, without a file */
	ck_assert_uint_eq(dbgfetch__done(f), 2);
	dbgfetch__free(f);
}
END_TEST

/* A file that is not it, in the client's cache: removed, so that the
 * next run asks again; one outside the cache's folder is left alone. */
START_TEST(test_refused_removed)
{
	struct dso d = file_dso(0, fixture_path("symfix-bid"));
	struct dbgfetch *f;
	char hex[41], path[4096];

	build_id_of(d.path, &d, hex);
	for (int in_cache = 0; in_cache < 2; in_cache++) {
		setenv("DEBUGINFOD_CACHE_PATH",
		       in_cache ? dir : "/nonexistent/cache", 1);
		f = fake_fetch(0);
		serve(hex, "debuginfo", abs_fixture("notelf.bin"));
		ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO,
					       d.build_id, d.build_id_size,
					       d.path, WAIT, path,
					       sizeof(path)),
				 -EBADMSG);
		ck_assert_ptr_nonnull(strstr(test_last_warning,
					     "removed from the client"));
		ck_assert(in_dir(hex, "debuginfo") == !in_cache);
		if (!in_cache)
			unserve(hex, "debuginfo");
		dbgfetch__free(f);
	}
	unsetenv("DEBUGINFOD_CACHE_PATH");
}
END_TEST

/* A transfer past the bound is cut on the bytes received, whatever the
 * length announced (none, or one that lies), within a step of it;
 * announced over it, at once.  What 0.188 leaves ("not found") goes. */
START_TEST(test_max_bytes)
{
	struct dbgfetch_opts o = {
		.soname = fixture_path("libfakedebuginfod.so"),
		.max_bytes = 4 << 20,
	};
	const char *streams[] = { "0 1048576", "1000 1048576",
				  "8589934592 65536" };
	u8 bid[20] = { 7 };
	char path[4096], hex[41];
	long turns, bytes;

	hex_of(bid, hex);
	setenv("DEBUGINFOD_CACHE_PATH", dir, 1);
	for (size_t i = 0; i < ARRAY_SIZE(streams); i++) {
		struct dbgfetch *f = dbgfetch__new(&o);

		ck_assert_ptr_nonnull(f);
		serve_text(hex, "stream", streams[i]);
		ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO, bid, 20,
					       "big.so", WAIT, path,
					       sizeof(path)),
				 -EFBIG);
		got(&turns, &bytes);
		ck_assert_int_le(bytes, (4 << 20) + (1 << 20));
		if (i == 2)
			ck_assert_int_eq(bytes, 65536);
		ck_assert_ptr_nonnull(strstr(test_last_warning, "over 4 MiB"));
		ck_assert(!in_dir(hex, "debuginfo"));
		dbgfetch__free(f);
	}
	/* DEBUGINFOD_MAXSIZE when no bound is given */
	o.max_bytes = 0;
	setenv("DEBUGINFOD_MAXSIZE", "2097152", 1);
	{
		struct dbgfetch *f = dbgfetch__new(&o);

		serve_text(hex, "stream", "0 1048576");
		ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO, bid, 20,
					       "big.so", WAIT, path,
					       sizeof(path)),
				 -EFBIG);
		got(&turns, &bytes);
		ck_assert_int_le(bytes, 3 << 20);
		dbgfetch__free(f);
	}
	unsetenv("DEBUGINFOD_MAXSIZE");
	unsetenv("DEBUGINFOD_CACHE_PATH");
}
END_TEST

/* A server that redirects to itself: turns of the library's loop with
 * no byte, as fast as it can: cut after a few dozen, said, nothing
 * left in the client's cache. */
START_TEST(test_redirect_loop)
{
	struct dbgfetch *f;
	u8 bid[20] = { 8 };
	char path[4096], hex[41];
	long turns, bytes;

	hex_of(bid, hex);
	setenv("DEBUGINFOD_CACHE_PATH", dir, 1);
	f = fake_fetch(0);
	serve(hex, "loop", NULL);
	ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO, bid, 20,
				       "loop.so", WAIT, path, sizeof(path)),
			 -ELOOP);
	got(&turns, &bytes);
	ck_assert_int_le(turns, 65);
	ck_assert_int_eq(bytes, 0);
	ck_assert_ptr_nonnull(strstr(test_last_warning, "redirect loop"));
	ck_assert(!in_dir(hex, "debuginfo"));
	dbgfetch__free(f);
	unsetenv("DEBUGINFOD_CACHE_PATH");
}
END_TEST

/* A caller waits until its time, not until the fetch ends. */
START_TEST(test_wait_until)
{
	struct dbgfetch *f = fake_fetch(60000);
	u8 bid[20] = { 9 };
	char path[4096], hex[41];
	double t = now();

	hex_of(bid, hex);
	serve(hex, "hold", NULL);
	ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO, bid, 20,
				       "slow.so", dbgfetch__after(0.3), path,
				       sizeof(path)),
			 -EINPROGRESS);
	t = now() - t;
	ck_assert_msg(t >= 0.25 && t < 5, "waited %.2f s", t);
	dbgfetch__free(f);
}
END_TEST

/* "Not there" is an answer; refusals are failures, and three in a row
 * end the asking for the session. */
START_TEST(test_give_up)
{
	struct dbgfetch *f = fake_fetch(0);
	u8 bid[20] = { 0 };
	char path[4096], p[512];
	int fd;

	for (int i = 0; i < 5; i++) {
		bid[0] = (u8)i;
		ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO, bid, 20,
					       "lib.so", WAIT, path,
					       sizeof(path)),
				 -ENOENT);
	}
	ck_assert_int_eq(test_warnings, 0);
	snprintf(p, sizeof(p), "%s/refuse", dir);
	fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	close(fd);
	for (int i = 10; i < 13; i++) {
		bid[0] = (u8)i;
		ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO, bid, 20,
					       "lib.so", WAIT, path,
					       sizeof(path)),
				 -ECONNREFUSED);
	}
	ck_assert_int_eq(test_warnings, 4);
	ck_assert_ptr_nonnull(strstr(test_last_warning, "no more"));
	bid[0] = 20;
	ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO, bid, 20,
				       "lib.so", WAIT, path, sizeof(path)),
			 -EHOSTDOWN);
	ck_assert_int_eq(calls(), 8);
	dbgfetch__free(f);
}
END_TEST

/* A server that never answers: the fetch ends after stall_ms with a
 * message; freeing the fetcher ends a fetch under way at once. */
START_TEST(test_bounded)
{
	struct dso d = file_dso(0, fixture_path("symfix-bid"));
	struct dbgfetch *f = fake_fetch(200);
	char hex[41], path[4096];
	double t;

	build_id_of(d.path, &d, hex);
	serve(hex, "hold", NULL);
	serve(hex, "debuginfo", bid_debug(hex));
	t = now();
	ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO, d.build_id,
				       d.build_id_size, d.path, WAIT, path,
				       sizeof(path)),
			 -ETIMEDOUT);
	t = now() - t;
	ck_assert_msg(t >= 0.15 && t < 5, "waited %.2f s", t);
	ck_assert_ptr_nonnull(strstr(test_last_warning, "no answer"));
	ck_assert_ptr_nonnull(strstr(test_last_warning, "symfix-bid"));

	/* no wait: in progress; free ends it */
	ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_EXECUTABLE, d.build_id,
				       d.build_id_size, d.path, 0, path,
				       sizeof(path)),
			 -EINPROGRESS);
	ck_assert_uint_eq(dbgfetch__pending(f), 1);
	t = now();
	dbgfetch__free(f);
	t = now() - t;
	ck_assert_msg(t < 1.0, "free took %.2f s", t);
	ck_assert_int_eq(test_warnings, 1);
}
END_TEST

/* Ctrl-C (the flag main's handler sets) ends a wait and the fetch. */
static volatile sig_atomic_t stop;

static void *set_later(void *arg)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };

	(void)arg;
	nanosleep(&ts, NULL);
	stop = 1;
	return NULL;
}

START_TEST(test_interrupted)
{
	struct dso d = file_dso(0, fixture_path("symfix-bid"));
	struct dbgfetch_opts o = {
		.soname = fixture_path("libfakedebuginfod.so"),
		.stop = &stop,
	};
	struct dbgfetch *f;
	char hex[41], path[4096];
	pthread_t t;
	double t0;

	stop = 0;
	f = dbgfetch__new(&o);
	ck_assert_ptr_nonnull(f);
	build_id_of(d.path, &d, hex);
	serve(hex, "hold", NULL);
	ck_assert_int_eq(pthread_create(&t, NULL, set_later, NULL),
			 0);
	t0 = now();
	ck_assert_int_eq(dbgfetch__get(f, DBGFETCH_DEBUGINFO, d.build_id,
				       d.build_id_size, d.path, WAIT, path,
				       sizeof(path)),
			 -EINTR);
	ck_assert_msg(now() - t0 < 2, "waited %.2f s", now() - t0);
	pthread_join(t, NULL);
	t0 = now();
	dbgfetch__free(f);
	ck_assert_msg(now() - t0 < 1, "free took %.2f s", now() - t0);
	ck_assert_int_eq(test_warnings, 0);
}
END_TEST

/* The live view's way: the row has no name while the debug file comes,
 * then has it after the tick that follows its arrival; source lines too. */
START_TEST(test_symbolizer_reloads)
{
	struct dso d = file_dso(0, fixture_path("symfix-bid"));
	struct dbgfetch *f = fake_fetch(0);
	struct symbolizer_opts o = { .fetch = f };
	struct symbolizer *s;
	struct sym_info si;
	struct srcline sl[4];
	char hex[41];
	u64 addr, size, off, changes;
	double deadline;

	build_id_of(d.path, &d, hex);
	serve(hex, "hold", NULL);
	serve(hex, "debuginfo", bid_debug(hex));
	s = symbolizer__new(&o);
	ck_assert_ptr_nonnull(s);
	ck_assert(nm_find("symfix-bid.nm", "fix_caller", &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &d, addr, &off), 0);
	ck_assert_int_eq(symbolizer__lookup(s, &d, off, &si), 0);
	ck_assert(!si.name || strcmp(si.name, "fix_caller"));
	ck_assert_int_eq(symbolizer__srcline(s, &d, off, sl, 4), 0);
	changes = symbolizer__changes(s);
	symbolizer__tick(s);
	ck_assert_uint_eq(symbolizer__changes(s), changes);
	/* another binary's fetch ends without a file: nothing is loaded
	 * again for it (the fake server has only symfix-bid's) */
	struct dso other = file_dso(1, fixture_path("symfix-stripped"));
	char ohex[41];

	build_id_of(other.path, &other, ohex);
	ck_assert_int_eq(symbolizer__lookup(s, &other, 0x1000, &si), 0);

	unserve(hex, "hold");
	deadline = now() + 10;
	while (dbgfetch__done(f) < 2 && now() < deadline) {
		struct timespec ts = { 0, 5 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	ck_assert_uint_eq(dbgfetch__done(f), 2);
	symbolizer__tick(s);
	ck_assert_uint_eq(symbolizer__changes(s), changes + 1);
	ck_assert_int_eq(symbolizer__lookup(s, &d, off + size - 1, &si), 0);
	ck_assert_ptr_nonnull(si.name);
	ck_assert_str_eq(si.name, "fix_caller");
	ck_assert_uint_eq(si.size, size);
	ck_assert_int_ge(symbolizer__srcline(s, &d, off, sl, 4), 1);
	ck_assert_ptr_nonnull(sl[0].file);
	ck_assert_int_eq(calls(), 2);
	/* nothing waits any more: later fetches reload nothing */
	symbolizer__tick(s);
	ck_assert_uint_eq(symbolizer__changes(s), changes + 1);
	ck_assert_int_eq(test_warnings, 0);
	symbolizer__free(s);
	dbgfetch__free(f);
}
END_TEST

/* A binary that is not on disk at all: the executable, then its debug
 * file, both fetched (batch: the lookup waits). */
START_TEST(test_symbolizer_executable)
{
	struct dso d = file_dso(0, "/nonexistent/dir/symfix-bid");
	struct dbgfetch *f = fake_fetch(0);
	struct symbolizer_opts o = { .fetch = f, .fetch_wait = true };
	struct symbolizer *s;
	struct sym_info si;
	char hex[41];
	u64 addr, size, off;

	build_id_of(fixture_path("symfix-bid"), &d, hex);
	serve(hex, "executable", abs_fixture("symfix-bid"));
	serve(hex, "debuginfo", bid_debug(hex));
	s = symbolizer__new(&o);
	ck_assert_ptr_nonnull(s);
	ck_assert(nm_find("symfix-bid.nm", "fix_caller", &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &d, addr, &off), 0);
	ck_assert_int_eq(symbolizer__lookup(s, &d, off, &si), 0);
	ck_assert_int_eq(si.status, DSO_ST_OK);
	ck_assert_ptr_nonnull(si.name);
	ck_assert_str_eq(si.name, "fix_caller");
	ck_assert_int_eq(calls(), 2);
	symbolizer__free(s);
	dbgfetch__free(f);
}
END_TEST

START_TEST(test_minidebuginfo)
{
	struct dso d = file_dso(0, fixture_path("symfix-mini"));
	struct dso bad = file_dso(1, fixture_path("symfix-minibad"));
	struct symbolizer *s = symbolizer__new(NULL);
	/* the same build-id as symfix-mini: a symbolizer of its own, or
	 * it would share symfix-mini's loaded image */
	struct symbolizer *sb = symbolizer__new(NULL);
	struct elf_info info;
	struct sym_info si;
	u64 addr, size, off;
	int fd;
	Elf *elf;

	fd = open(d.path, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	elf = elfsym__open_fd(fd);
	ck_assert_int_eq(elfsym__info(elf, &info), 0);
	ck_assert(info.has_minidebug);
	ck_assert(!info.has_symtab);
	elf_end(elf);
	close(fd);
	/* local functions, which .dynsym does not have */
	const char *names[] = { "fix_static", "fix_caller", "main" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		ck_assert(nm_find("symfix-pie.nm", names[i], &addr, &size));
		ck_assert_int_eq(symbolizer__from_vaddr(s, &d, addr, &off), 0);
		ck_assert_int_eq(symbolizer__lookup(s, &d, off + size - 1,
						    &si), 0);
		ck_assert_ptr_nonnull(si.name);
		ck_assert_str_eq(si.name, names[i]);
		ck_assert_uint_eq(si.size, size);
		/* garbage in the section: .eh_frame ranges, no crash */
		ck_assert_int_eq(symbolizer__lookup(sb, &bad, off, &si), 0);
		ck_assert_msg(!si.name || !strncmp(si.name, "func_0x", 7),
			      "%s", si.name);
	}
	symbolizer__free(s);
	symbolizer__free(sb);
}
END_TEST

/* A damaged .gnu_debugdata (bytes of the xz stream changed in turn, and
 * the stream cut): no crash, no error, .dynsym still read. */
START_TEST(test_minidebuginfo_damaged)
{
	static const char magic[] = "\xfd" "7zXZ";
	int fd = open(fixture_path("symfix-mini"), O_RDONLY | O_CLOEXEC);
	struct stat sb;
	size_t start = 0, end;
	u8 *img, *copy;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &sb), 0);
	img = malloc((size_t)sb.st_size);
	copy = malloc((size_t)sb.st_size);
	ck_assert_int_eq(read(fd, img, (size_t)sb.st_size), sb.st_size);
	close(fd);
	for (size_t i = 0; i + 5 < (size_t)sb.st_size && !start; i++)
		if (!memcmp(img + i, magic, 5))
			start = i;
	ck_assert_uint_gt(start, 0);
	/* the stream ends with "YZ" */
	end = start;
	for (size_t i = start; i + 1 < (size_t)sb.st_size; i++)
		if (img[i] == 'Y' && img[i + 1] == 'Z')
			end = i + 2;
	ck_assert_uint_gt(end, start + 32);
	/* every 5th byte (ASan on a loaded machine), the header's all */
	for (size_t i = start, step = 1; i <= end;
	     i = i == end ? end + 1 : MIN(i + step, end)) {
		struct symtab *st = symtab__new(NULL, 0);
		Elf *elf;

		memcpy(copy, img, (size_t)sb.st_size);
		step = i < start + 64 ? 1 : 5;
		if (i < end)
			copy[i] ^= 0x5a;
		else	/* a cut stream: its end zeroed */
			memset(copy + start + (end - start) / 2, 0,
			       (end - start) / 2);
		elf = elfsym__open_mem(copy, (size_t)sb.st_size);
		ck_assert_ptr_nonnull(elf);
		ck_assert_int_ge(elfsym__load(elf, st, ELFSYM_DYNSYM |
						       ELFSYM_MINIDEBUG |
						       ELFSYM_EHFRAME), 0);
		elf_end(elf);
		ck_assert_int_eq(symtab__finish(st), 0);
		symtab__free(st);
	}
	free(img);
	free(copy);
}
END_TEST

/* --symfs: the binary under DIR/path, its debug file under
 * DIR/usr/lib/debug/.build-id. */
START_TEST(test_symfs)
{
	struct dso d = file_dso(0, "/opt/elsewhere/symfix-bid");
	struct symbolizer_opts o = { .symfs = dir };
	struct symbolizer *s;
	struct sym_info si;
	char hex[41], p[1024], cmd[4096];
	u64 addr, size, off;

	build_id_of(fixture_path("symfix-bid"), &d, hex);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/opt/elsewhere' '%s/usr/lib/debug/.build-id/%.2s'"
		 " && cp '%s' '%s/opt/elsewhere/'", dir, dir, hex,
		 fixture_path("symfix-bid"), dir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(p, sizeof(p), "%s/usr/lib/debug/.build-id/%.2s/%s.debug", dir,
		 hex, hex + 2);
	ck_assert_int_eq(symlink(bid_debug(hex), p), 0);
	s = symbolizer__new(&o);
	ck_assert_ptr_nonnull(s);
	ck_assert(nm_find("symfix-bid.nm", "fix_caller", &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &d, addr, &off), 0);
	ck_assert_int_eq(symbolizer__lookup(s, &d, off, &si), 0);
	ck_assert_ptr_nonnull(si.name);
	ck_assert_str_eq(si.name, "fix_caller");
	ck_assert_str_eq(symbolizer__dso_file(s, &d), p);
	symbolizer__free(s);

	/* another build-id under DIR is not used */
	d.build_id[0] ^= 0xff;
	s = symbolizer__new(&o);
	ck_assert_int_eq(symbolizer__lookup(s, &d, off, &si), 0);
	ck_assert_ptr_null(si.name);
	symbolizer__free(s);
}
END_TEST

Suite *dbgfetch_suite(void)
{
	Suite *s = suite_create("dbgfetch");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_off);
	tcase_add_test(tc, test_no_library);
	tcase_add_test(tc, test_fetch_once);
	tcase_add_test(tc, test_garbage);
	tcase_add_test(tc, test_give_up);
	tcase_add_test(tc, test_bounded);
	tcase_add_test(tc, test_refused_removed);
	tcase_add_test(tc, test_max_bytes);
	tcase_add_test(tc, test_redirect_loop);
	tcase_add_test(tc, test_wait_until);
	tcase_add_test(tc, test_interrupted);
	tcase_add_test(tc, test_symbolizer_reloads);
	tcase_add_test(tc, test_symbolizer_executable);
	tcase_add_test(tc, test_minidebuginfo);
	tcase_add_test(tc, test_minidebuginfo_damaged);
	tcase_add_test(tc, test_symfs);
	suite_add_tcase(s, tc);
	return s;
}
