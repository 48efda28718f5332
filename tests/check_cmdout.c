/* check_cmdout: a profiled command's output, kept off the live view's
 * terminal: lines logged for the status line (rate-limited, newest
 * wins), bytes kept for after the view (the last CMDOUT_KEEP), the stop
 * that does not wait for an end of file. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "src/sys/cmdout.h"
#include "src/core/log.h"
#include "tests/testutil.h"

static char logged[4096];

static void capture(enum log_level level, const char *msg, void *ctx)
{
	size_t n = strlen(logged);

	(void)level;
	(void)ctx;
	snprintf(logged + n, sizeof(logged) - n, "%s\n", msg);
}

static void setup(void)
{
	logged[0] = '\0';
	log__set_handler(capture, NULL);
	log__set_level(LOG_INFO);
}

static void teardown(void)
{
	log__set_handler(NULL, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Polls cond (the reader thread's doing) for up to 10 s: a wait on a
 * condition, not a sleep that a loaded machine outlasts. */
#define WAIT_UNTIL(cond)                                                  \
	do {                                                              \
		double end_ = now_s() + 10;                               \
		while (!(cond)) {                                         \
			ck_assert_msg(now_s() < end_, "not within 10 s: " \
				      #cond);                             \
			usleep(1000);                                     \
		}                                                         \
	} while (0)

static size_t total_of(struct cmdout *c)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return cmdout__total(c);
}

static size_t logged_len(void)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return strlen(logged);
}

/* What replay writes, read back through a pipe (at most cap bytes). */
static size_t replayed(struct cmdout *c, char *buf, size_t cap)
{
	int p[2];
	size_t n = 0;
	ssize_t r;

	ck_assert_int_eq(pipe(p), 0);
	/* CMDOUT_KEEP and a note fit in a pipe only if it is read as it
	 * is written: a child writes */
	if (fork() == 0) {
		close(p[0]);
		_exit(cmdout__replay(c, p[1]) ? 1 : 0);
	}
	close(p[1]);
	while (n < cap && (r = read(p[0], buf + n, cap - n)) > 0)
		n += (size_t)r;
	close(p[0]);
	return n;
}

START_TEST(test_lines_and_replay)
{
	struct cmdout *c = cmdout__new("make");
	char buf[256];
	int w;

	ck_assert_ptr_nonnull(c);
	w = dup(cmdout__fd(c));	/* the child's copy */
	ck_assert_int_ge(w, 0);
	ck_assert_int_eq(cmdout__start(c), 0);
	cmdout__attach(c, true);
	ck_assert_int_eq(write(w, "one\ntwo\r\npartial", 16), 16);
	close(w);	/* the command exits: end of file */
	cmdout__stop(c);	/* reads what is in the pipe first */
	/* the first line at once, then the newest only: "one" may be
	 * replaced by "two" within the rate limit, never lost for nothing */
	ck_assert_ptr_nonnull(strstr(logged, "make: two\n"));
	ck_assert_ptr_null(strstr(logged, "partial"));
	ck_assert_uint_eq(cmdout__total(c), 16);
	ck_assert_uint_eq(replayed(c, buf, sizeof(buf)), 16);
	ck_assert_int_eq(memcmp(buf, "one\ntwo\r\npartial", 16), 0);
	cmdout__free(c);
}
END_TEST

START_TEST(test_keeps_the_last)
{
	struct cmdout *c = cmdout__new("big");
	static char chunk[10000], buf[CMDOUT_KEEP + 200];
	size_t n, total = 0;
	int w;

	ck_assert_ptr_nonnull(c);
	w = dup(cmdout__fd(c));
	ck_assert_int_eq(cmdout__start(c), 0);
	cmdout__attach(c, true);
	for (int i = 0; i < 10; i++) {
		memset(chunk, 'a' + i, sizeof(chunk));
		chunk[sizeof(chunk) - 1] = '\n';
		ck_assert_int_eq(write(w, chunk, sizeof(chunk)),
				 (ssize_t)sizeof(chunk));
		total += sizeof(chunk);
	}
	close(w);
	cmdout__stop(c);	/* reads what is in the pipe first */
	ck_assert_uint_eq(cmdout__total(c), total);
	ck_assert_uint_eq(cmdout__kept(c), CMDOUT_KEEP);
	n = replayed(c, buf, sizeof(buf));
	/* a note, then exactly the last CMDOUT_KEEP bytes */
	ck_assert_ptr_nonnull(strstr(buf, "ptop: the last 64 KiB of big's output"));
	ck_assert_uint_gt(n, CMDOUT_KEEP);
	ck_assert_int_eq(buf[n - 1], '\n');
	ck_assert_int_eq(buf[n - 2], 'j');
	/* 100000 bytes written: the kept ones start at byte 34464, in the
	 * fourth chunk ('d'), and the note ends just before them */
	ck_assert_int_eq(buf[n - CMDOUT_KEEP], 'd');
	ck_assert_int_eq(buf[n - CMDOUT_KEEP - 1], '\n');
	ck_assert_ptr_nonnull(strstr(logged, "big: jjjj"));
	cmdout__free(c);
}
END_TEST

/* Lines split between writes, CR LF, empty lines: whatever the reads
 * get, the last line logged is the newest whole one. */
START_TEST(test_line_splits)
{
	static const char *const parts[] = { "ab", "c", "def\r", "\n\n",
					     "\r\n", "xyz" };
	struct cmdout *c = cmdout__new("t");
	const char *last;
	size_t sent = 0;
	int w;

	ck_assert_ptr_nonnull(c);
	w = dup(cmdout__fd(c));
	ck_assert_int_eq(cmdout__start(c), 0);
	cmdout__attach(c, true);
	/* each part read on its own: the splits are the test's */
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		ck_assert_int_eq(write(w, parts[i], strlen(parts[i])),
				 (ssize_t)strlen(parts[i]));
		sent += strlen(parts[i]);
		WAIT_UNTIL(total_of(c) == sent);
	}
	close(w);
	cmdout__stop(c);
	/* the last message logged */
	ck_assert_uint_gt(strlen(logged), 0);
	last = logged + strlen(logged) - 1;
	while (last > logged && last[-1] != '\n')
		last--;
	ck_assert_str_eq(last, "t: abcdef\n");
	ck_assert_ptr_null(strstr(logged, "xyz"));
	cmdout__free(c);
}
END_TEST

/* Before the view's log handler is there, lines are held: the newest
 * is logged on attaching, none after detaching. */
START_TEST(test_attach)
{
	struct cmdout *c = cmdout__new("early");
	int w;

	ck_assert_ptr_nonnull(c);
	w = dup(cmdout__fd(c));
	ck_assert_int_eq(cmdout__start(c), 0);
	ck_assert_int_eq(write(w, "one\ntwo\n", 8), 8);
	WAIT_UNTIL(total_of(c) == 8);	/* read, and not logged */
	ck_assert_str_eq(logged, "");
	cmdout__attach(c, true);
	WAIT_UNTIL(logged_len() > 0);
	ck_assert_str_eq(logged, "early: two\n");
	cmdout__attach(c, false);
	ck_assert_int_eq(write(w, "three\n", 6), 6);
	WAIT_UNTIL(total_of(c) == 14);	/* read, and not logged */
	close(w);
	cmdout__stop(c);
	ck_assert_str_eq(logged, "early: two\n");
	ck_assert_uint_eq(cmdout__total(c), 14);
	cmdout__free(c);
}
END_TEST

/* A grandchild keeps the pipe open: stop returns anyway. */
START_TEST(test_stop_without_eof)
{
	struct cmdout *c = cmdout__new("daemon");
	int w;

	ck_assert_ptr_nonnull(c);
	w = dup(cmdout__fd(c));
	ck_assert_int_eq(cmdout__start(c), 0);
	cmdout__attach(c, true);
	ck_assert_int_eq(write(w, "still here\n", 11), 11);
	cmdout__stop(c);	/* w is still open; what is there is read */
	ck_assert_ptr_nonnull(strstr(logged, "daemon: still here"));
	cmdout__free(c);
	close(w);
}
END_TEST

Suite *cmdout_suite(void)
{
	Suite *s = suite_create("cmdout");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_lines_and_replay);
	tcase_add_test(tc, test_keeps_the_last);
	tcase_add_test(tc, test_line_splits);
	tcase_add_test(tc, test_attach);
	tcase_add_test(tc, test_stop_without_eof);
	suite_add_tcase(s, tc);
	return s;
}
