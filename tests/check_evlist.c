/* Tests of evlist (src/sys/evlist.c): events opened for real on
 * this machine (software events, tracepoints), their rings read with
 * the documented protocol, and every error a user can cause. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "tests/evtest.h"

START_TEST(test_self_cpu_clock)
{
	struct evlist *el = evt_new_list("cpu-clock", 1000, 0, 8);
	const struct perf_event_attr *a;
	struct evt_tally t = { 0 };
	pid_t pid;
	struct target tg = evt_self_target(&pid);
	size_t nr;

	t.pid = pid;
	ck_assert_int_eq(evt_open(el, &tg), 0);
	a = evlist__attr(el, 0);
	ck_assert_uint_eq(a->sample_type,
			  PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				  PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD);
	ck_assert(a->freq && a->sample_freq == 1000);
	ck_assert(a->mmap && a->mmap2 && a->comm && a->comm_exec && a->task);
	ck_assert(a->inherit && a->sample_id_all && a->watermark);
	ck_assert_uint_eq(a->wakeup_watermark, 8 * 4096 / 4);
	ck_assert_uint_eq(evlist__nr_rings(el), (size_t)evt_nr_online());
	evlist__ids(el, 0, &nr);
	ck_assert_uint_eq(nr, (size_t)evt_nr_online());	/* 1 thread */
	evt_burn(200);
	evt_drain(el, &t);
	ck_assert_uint_gt(t.mine, 20);
	ck_assert_uint_eq(t.bad, 0);
	ck_assert_uint_eq(t.other, 0);
	evlist__free(el);
}
END_TEST

struct burner {
	double ms;
	pid_t tid;
};

static void *burn_thread(void *arg)
{
	struct burner *b = arg;

	__atomic_store_n(&b->tid, (pid_t)syscall(SYS_gettid),
			 __ATOMIC_RELEASE);
	evt_burn(b->ms);
	return NULL;
}

/* Counts the samples of tids[0..1] in every ring. */
static void samples_of_tids(struct evlist *el, const pid_t *tids,
			    size_t *n)
{
	const struct perf_event_attr *attr = evlist__attr(el, 0);

	n[0] = n[1] = 0;
	for (size_t i = 0; i < evlist__nr_rings(el); i++) {
		struct ring *r = evlist__ring(el, i);
		const struct perf_event_header *h;
		struct perf_sample s;

		ring__read_init(r);
		while ((h = ring__next(r))) {
			if (h->type != PERF_RECORD_SAMPLE ||
			    record__parse_sample(attr, h, &s))
				continue;
			n[0] += s.tid == (u32)tids[0];
			n[1] += s.tid == (u32)tids[1];
		}
		ring__consume(r);
	}
}

/* -p follows every thread, those that exist (one fd each per CPU, all
 * redirected into the CPU's ring) and those created later (inherit). */
START_TEST(test_threads)
{
	struct evlist *el = evt_new_list("task-clock", 1000, 0, 64);
	struct burner before = { .ms = 150 }, after = { .ms = 150 };
	pthread_t th1, th2;
	pid_t pid, tids[2];
	struct target tg = evt_self_target(&pid);
	size_t nr, n[2];

	/* a thread that exists when the events are opened */
	ck_assert_int_eq(pthread_create(&th1, NULL, burn_thread, &before), 0);
	while (!__atomic_load_n(&before.tid, __ATOMIC_ACQUIRE))
		usleep(100);
	ck_assert_int_eq(evt_open(el, &tg), 0);
	evlist__ids(el, 0, &nr);
	ck_assert_uint_eq(nr, 2 * (size_t)evt_nr_online());
	ck_assert_uint_eq(evlist__nr_rings(el), (size_t)evt_nr_online());
	/* and one created afterwards */
	ck_assert_int_eq(pthread_create(&th2, NULL, burn_thread, &after), 0);
	pthread_join(th1, NULL);
	pthread_join(th2, NULL);
	tids[0] = before.tid;
	tids[1] = after.tid;
	samples_of_tids(el, tids, n);
	ck_assert_uint_gt(n[0], 10);
	ck_assert_uint_gt(n[1], 10);
	evlist__free(el);
}
END_TEST

START_TEST(test_two_events_share_rings)
{
	struct evlist *el = evt_new_list("cpu-clock,task-clock", 1000, 0, 16);
	struct evt_tally t = { 0 };
	pid_t pid;
	struct target tg = evt_self_target(&pid);

	t.pid = pid;
	ck_assert_int_eq(evt_open(el, &tg), 0);
	ck_assert_uint_eq(evlist__nr_events(el), 2);
	ck_assert_str_eq(evlist__event_name(el, 1), "task-clock");
	for (size_t e = 0; e < 2; e++)
		ck_assert(evlist__attr(el, e)->sample_type &
			  PERF_SAMPLE_IDENTIFIER);
	/* tracking only on the first */
	ck_assert(!evlist__attr(el, 1)->mmap && !evlist__attr(el, 1)->comm);
	ck_assert_uint_eq(evlist__nr_rings(el), (size_t)evt_nr_online());
	evt_burn(200);
	evt_drain(el, &t);
	ck_assert_uint_eq(t.bad, 0);
	ck_assert_uint_gt(t.per_event[0], 20);
	ck_assert_uint_gt(t.per_event[1], 20);
	evlist__free(el);
}
END_TEST

START_TEST(test_disable_stops)
{
	struct evlist *el = evt_new_list("cpu-clock", 2000, 0, 16);
	struct evt_tally t = { 0 };
	pid_t pid;
	struct target tg = evt_self_target(&pid);

	t.pid = pid;
	ck_assert_int_eq(evt_open(el, &tg), 0);
	evt_burn(100);
	ck_assert_int_eq(evlist__disable(el), 0);
	evt_drain(el, &t);
	ck_assert_uint_gt(t.mine, 10);
	memset(&t, 0, sizeof(t));
	t.pid = pid;
	evt_burn(150);
	evt_drain(el, &t);
	ck_assert_uint_eq(t.samples, 0);
	ck_assert_int_eq(evlist__enable(el), 0);
	evt_burn(100);
	evt_drain(el, &t);
	ck_assert_uint_gt(t.mine, 10);
	evlist__free(el);
}
END_TEST

START_TEST(test_default_fallback)
{
	struct evlist *el = evt_new_list(NULL, 1000, 0, 8);
	struct event_spec def;
	struct evt_tally t = { 0 };
	pid_t pid;
	struct target tg = evt_self_target(&pid);
	bool fell_back;

	t.pid = pid;
	events__default(&def);
	ck_assert_int_eq(evlist__add(el, &def), 0);
	ck_assert_int_eq(evt_open(el, &tg), 0);
	fell_back = !strcmp(evlist__event_name(el, 0), "cpu-clock");
	if (fell_back) {
		ck_assert_uint_eq(evlist__attr(el, 0)->type,
				  PERF_TYPE_SOFTWARE);
		ck_assert_int_eq(evt_nr_warn, 1);
		ck_assert_ptr_nonnull(strstr(evt_logged,
			"The cycles event is not supported on this machine, falling back to cpu-clock"));
	} else {
		/* a machine with a PMU */
		ck_assert_str_eq(evlist__event_name(el, 0), "cycles");
		ck_assert_ptr_null(strstr(evt_logged, "falling back"));
	}
	/* tracking bits survive the fallback */
	ck_assert(evlist__attr(el, 0)->mmap2 && evlist__attr(el, 0)->comm);
	evt_burn(100);
	evt_drain(el, &t);
	ck_assert_uint_gt(t.mine, 5);
	evlist__free(el);
}
END_TEST

/* A hardware event the user asked for is not silently replaced. */
START_TEST(test_explicit_hw_error)
{
	struct evlist *el = evt_new_list("instructions", 1000, 0, 8);
	pid_t pid;
	struct target tg = evt_self_target(&pid);
	int err = evt_open(el, &tg);

	if (err) {
		ck_assert_int_eq(err, -ENOENT);
		ck_assert_ptr_nonnull(strstr(evt_logged, "instructions"));
		ck_assert_ptr_nonnull(strstr(evt_logged, "not supported"));
		ck_assert_uint_eq(evlist__nr_rings(el), 0);
	}
	ck_assert_str_eq(evlist__event_name(el, 0), "instructions");
	evlist__free(el);
}
END_TEST

START_TEST(test_unknown_tracepoint)
{
	struct evlist *el = evt_new_list("nosuchsys_ptop:nosuchevent", 0, 0, 8);
	pid_t pid;
	struct target tg = evt_self_target(&pid);

	/* the words go to the caller, not to the log */
	ck_assert_int_eq(evlist__open(el, &tg, &evt_why), -ENOENT);
	ck_assert_str_eq(evt_logged, "");
	ck_assert_ptr_nonnull(evt_why.buf);
	ck_assert_ptr_nonnull(strstr(evt_why.buf,
				     "nosuchsys_ptop:nosuchevent"));
	ck_assert_ptr_nonnull(strstr(evt_why.buf, "unknown tracepoint"));
	strbuf__fini(&evt_why);	/* not shown */
	ck_assert_uint_eq(evlist__nr_rings(el), 0);
	evlist__free(el);
}
END_TEST

START_TEST(test_tracepoint)
{
	struct evlist *el = evt_new_list("sched:sched_switch", 0, 0, 16);
	struct evt_tally t = { 0 };
	pid_t pid;
	struct target tg = evt_self_target(&pid);

	t.pid = pid;
	ck_assert_int_eq(evt_open(el, &tg), 0);
	ck_assert_uint_eq(evlist__attr(el, 0)->type, PERF_TYPE_TRACEPOINT);
	ck_assert_uint_ne(evlist__attr(el, 0)->config, 0);
	ck_assert_uint_eq(evlist__attr(el, 0)->sample_period, 1);
	for (int i = 0; i < 20; i++)
		usleep(1000);
	evt_drain(el, &t);
	ck_assert_uint_ge(t.mine, 10);
	evlist__free(el);
}
END_TEST

START_TEST(test_no_such_process)
{
	struct evlist *el = evt_new_list("cpu-clock", 1000, 0, 8);
	pid_t pid = test_dead_pid();
	struct target tg = { .kind = TARGET_PIDS, .pids = &pid, .nr_pids = 1 };

	ck_assert_int_eq(evt_open(el, &tg), -ESRCH);
	ck_assert_ptr_nonnull(strstr(evt_logged, "no such process"));
	tg.kind = TARGET_TIDS;
	ck_assert_int_eq(evt_open(el, &tg), -ESRCH);
	ck_assert_uint_eq(evlist__nr_rings(el), 0);
	evlist__free(el);
}
END_TEST

/* A thread that exits between listing and opening is skipped. */
START_TEST(test_thread_gone)
{
	struct evlist *el = evt_new_list("cpu-clock", 1000, 0, 8);
	pid_t tids[2] = { test_dead_pid(), getpid() };
	struct target tg = { .kind = TARGET_TIDS, .pids = tids, .nr_pids = 2 };
	size_t nr;

	ck_assert_int_eq(evt_open(el, &tg), 0);
	ck_assert(!evlist__attr(el, 0)->inherit);
	evlist__ids(el, 0, &nr);
	ck_assert_uint_eq(nr, (size_t)evt_nr_online());
	evlist__free(el);
}
END_TEST

static int max_fd(void)
{
	int m = 0;

	for (int fd = 0; fd < 4096; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			m = fd;
	return m;
}

START_TEST(test_emfile)
{
	struct evlist *el = evt_new_list("cpu-clock,task-clock,page-faults", 1000,
				     0, 8);
	pid_t pid;
	struct target tg = evt_self_target(&pid);
	struct rlimit rl, saved;
	int top = max_fd(), filled[4096], nr_filled = 0;

	/* no holes below the top, room for three more descriptors above it
	 * (enough to list the threads, not for 3 events x CPUs), and no way
	 * to raise the limit */
	for (int fd = 0; fd < top; fd++) {
		if (fcntl(fd, F_GETFD) >= 0)
			continue;
		ck_assert_int_eq(open("/dev/null", O_RDONLY), fd);
		filled[nr_filled++] = fd;
	}
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &saved), 0);
	rl.rlim_cur = rl.rlim_max = (rlim_t)max_fd() + 4;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	ck_assert_int_eq(evt_open(el, &tg), -EMFILE);
	ck_assert_msg(strstr(evt_logged, "RLIMIT_NOFILE"), "%s", evt_logged);
	ck_assert_uint_eq(evlist__nr_rings(el), 0);
	/* everything it opened is closed */
	ck_assert_int_eq(max_fd() + 4, (int)rl.rlim_cur);
	evlist__free(el);
	/* root may raise the hard limit back (CK_FORK=no runs go on) */
	setrlimit(RLIMIT_NOFILE, &saved);
	for (int i = 0; i < nr_filled; i++)
		close(filled[i]);
}
END_TEST

/* Unprivileged: profiling oneself falls back to user space only (as perf
 * does with perf_event_paranoid 2), system-wide explains the sysctl. */
START_TEST(test_unprivileged)
{
	long long paranoid = 0;
	char buf[16] = "";
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	pid_t child;
	int status;

	if (f) {
		if (fgets(buf, sizeof(buf), f))
			paranoid = atoll(buf);
		fclose(f);
	}
	if (paranoid < 2)
		test_skip("perf_event_paranoid is %lld: no fallback to test",
			  (long long)paranoid);
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		struct evlist *el = evt_new_list("cpu-clock", 1000, 0, 8);
		pid_t pid;
		struct target tg = evt_self_target(&pid);
		struct target sys = { .kind = TARGET_SYSTEM };
		int code = 0;

		if (setgid(65534) || setuid(65534))
			_exit(10);
		if (paranoid < 3) {
			if (evt_open(el, &tg))
				code |= 1;
			else if (!evlist__attr(el, 0)->exclude_kernel)
				code |= 2;
			if (!strstr(evt_logged, "falling back") &&
			    !strstr(evt_logged, "fall back"))
				code |= 4;
			evlist__close(el);
		}
		if (evt_open(el, &sys) != -EACCES)
			code |= 8;
		if (!strstr(evt_logged, "kernel.perf_event_paranoid is") ||
		    !strstr(evt_logged, "CAP_PERFMON"))
			code |= 16;
		evlist__free(el);
		_exit(code);
	}
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "status %#x", status);
}
END_TEST

/*
 * A one-page ring (about 80 samples) at 50 kHz overflows: the kernel says
 * how much it lost.  The kernel writes its LOST record only once the
 * reader has made room and a sample comes after it, so the test burns
 * and drains until one arrives (a fixed 100 ms then 20 ms burn at 100 kHz
 * missed it or ran past the timeout on a loaded machine), for 20 s of
 * wall time at most, and then says what it saw.
 */
START_TEST(test_lost)
{
	struct evlist *el = evt_new_list("cpu-clock", 0, 20000, 1);
	struct evt_tally t = { 0 };
	pid_t pid;
	struct target tg = evt_self_target(&pid);
	double end = evt_now_ms(CLOCK_MONOTONIC) + 20000;
	int rounds = 0;

	t.pid = pid;
	ck_assert_int_eq(evt_open(el, &tg), 0);
	ck_assert(!evlist__attr(el, 0)->freq);
	ck_assert_uint_eq(evlist__attr(el, 0)->sample_period, 20000);
	while (t.lost_records == 0 && evt_now_ms(CLOCK_MONOTONIC) < end) {
		rounds++;
		evt_burn(10);	/* 500 samples: the ring fills */
		evt_drain(el, &t);	/* room again: the next record is LOST */
	}
	ck_assert_msg(t.lost_records > 0, "no LOST record in %d rounds "
		      "(20 s), %zu samples", rounds, t.samples);
	ck_assert_uint_gt(t.lost, 0);
	evlist__free(el);
}
END_TEST

START_TEST(test_system_wide)
{
	struct evlist *el = evt_new_list("cpu-clock", 1000, 0, 8);
	struct target tg = { .kind = TARGET_SYSTEM };
	struct evt_tally t = { .pid = getpid() };
	bool cpus[PTOP_MAX_CPUS] = { false };

	ck_assert_int_eq(evt_open(el, &tg), 0);
	ck_assert(!evlist__attr(el, 0)->inherit);
	/* Drained every 10 ms: on a loaded machine every other process's
	 * samples would otherwise fill the 8-page rings before ours. */
	for (int i = 0; i < 10; i++) {
		evt_burn(10);
		evt_drain(el, &t);
	}
	ck_assert_msg(t.mine > 5, "%zu of our samples, %zu others, %" PRIu64
		      " lost", t.mine, t.other, t.lost);
	evlist__close(el);

	/* -C 0 */
	cpus[0] = true;
	tg.cpus = cpus;
	ck_assert_int_eq(evt_open(el, &tg), 0);
	ck_assert_uint_eq(evlist__nr_rings(el), 1);
	ck_assert_int_eq(evlist__ring_cpu(el, 0), 0);
	evlist__close(el);
	/* an offline (here: impossible) CPU */
	cpus[PTOP_MAX_CPUS - 1] = true;
	ck_assert_int_eq(evt_open(el, &tg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(evt_logged, "not online"));
	evlist__free(el);
}
END_TEST

/* -- CMD: nothing is sampled before exec, everything after. */
START_TEST(test_command)
{
	struct evlist *el = evt_new_list("cpu-clock", 1000, 0, 16);
	struct evt_tally t = { 0 };
	struct target tg = { .kind = TARGET_COMMAND, .nr_pids = 1 };
	int go[2], status;
	pid_t child;
	char c;

	ck_assert_int_eq(pipe(go), 0);
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		evt_burn(50);	/* not sampled: before exec */
		execl("/bin/sh", "sh", "-c",
		      "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done",
		      (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	t.pid = child;
	tg.pids = &child;
	ck_assert_int_eq(evt_open(el, &tg), 0);
	ck_assert(evlist__attr(el, 0)->enable_on_exec);
	ck_assert(evlist__attr(el, 0)->inherit);
	ck_assert_int_eq(write(go[1], "x", 1), 1);
	close(go[1]);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	evt_drain(el, &t);
	ck_assert_uint_gt(t.mine, 10);
	ck_assert_uint_ge(t.comm_exec, 1);
	ck_assert_uint_ge(t.mmap2, 1);
	evlist__free(el);
}
END_TEST

START_TEST(test_bad_options)
{
	struct evlist *el = evt_new_list("cpu-clock", 1000, 0, 3);
	pid_t pid;
	struct target tg = evt_self_target(&pid);

	ck_assert_int_eq(evt_open(el, &tg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(evt_logged, "power of two"));
	evlist__free(el);

	el = evt_new_list("cpu-clock", 100000000, 0, 8);
	ck_assert_int_eq(evt_open(el, &tg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(evt_logged, "perf_event_max_sample_rate"));
	evlist__free(el);

	el = evt_new_list(NULL, 1000, 0, 8);
	ck_assert_int_eq(evt_open(el, &tg), -EINVAL);
	evlist__free(el);
	evlist__free(NULL);
}
END_TEST

START_TEST(test_callchain_attrs)
{
	struct evlist_opts opts = {
		/* ~8 KiB per sample: a ring of 128 pages holds ~60 */
		.freq = 1000, .mmap_pages = 128, .callchain = true,
		.max_stack = 32, .dwarf_stack_size = 8192,
	};
	struct evlist *el = evlist__new(&opts);
	struct event_spec s = evt_spec_of("cpu-clock");
	const struct perf_event_attr *a;
	struct evt_tally t = { 0 };
	pid_t pid;
	struct target tg = evt_self_target(&pid);

	t.pid = pid;
	ck_assert_int_eq(evlist__add(el, &s), 0);
	ck_assert_int_eq(evt_open(el, &tg), 0);
	a = evlist__attr(el, 0);
	ck_assert(a->sample_type & PERF_SAMPLE_CALLCHAIN);
	ck_assert(a->sample_type & PERF_SAMPLE_REGS_USER);
	ck_assert(a->sample_type & PERF_SAMPLE_STACK_USER);
	ck_assert_uint_eq(a->sample_max_stack, 32);
	ck_assert_uint_eq(a->sample_stack_user, 8192);
	ck_assert_uint_eq(a->sample_regs_user, 0xff0fff);
	evt_burn(50);
	evt_drain(el, &t);
	ck_assert_uint_gt(t.mine, 5);
	ck_assert_uint_eq(t.bad, 0);
	evlist__free(el);
}
END_TEST

Suite *evlist_suite(void);
Suite *evlist_suite(void)
{
	Suite *s = suite_create("evlist");
	TCase *tc = evt_tcase("evlist");

	if (!evt_root(s, tc))
		return s;
	tcase_add_test(tc, test_self_cpu_clock);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_two_events_share_rings);
	tcase_add_test(tc, test_disable_stops);
	tcase_add_test(tc, test_default_fallback);
	tcase_add_test(tc, test_explicit_hw_error);
	tcase_add_test(tc, test_unknown_tracepoint);
	tcase_add_test(tc, test_tracepoint);
	tcase_add_test(tc, test_no_such_process);
	tcase_add_test(tc, test_thread_gone);
	tcase_add_test(tc, test_emfile);
	tcase_add_test(tc, test_unprivileged);
	tcase_add_test(tc, test_lost);
	tcase_add_test(tc, test_system_wide);
	tcase_add_test(tc, test_command);
	tcase_add_test(tc, test_bad_options);
	tcase_add_test(tc, test_callchain_attrs);
	suite_add_tcase(s, tc);
	return s;
}
