/* check_evsel: real events on this machine (needs root or CAP_PERFMON). */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "src/sys/catalog.h"
#include "src/sys/pmu.h"
#include "src/core/events.h"
#include "src/sys/evlist.h"
#include "src/core/log.h"
#include "src/core/record.h"
#include "src/sys/synth.h"
#include "tests/testutil.h"

/* Log messages of the test, for checking what was said. */
static char logged[8192];
static int nr_warn;

static void log_to_buf(enum log_level level, const char *msg, void *ctx)
{
	size_t len = strlen(logged);

	(void)ctx;
	if (level == LOG_WARN)
		nr_warn++;
	snprintf(logged + len, sizeof(logged) - len, "%s\n", msg);
}

static void setup(void)
{
	logged[0] = '\0';
	nr_warn = 0;
	log__set_handler(log_to_buf, NULL);
	log__set_level(LOG_INFO);
}

static void teardown(void)
{
	log__set_handler(NULL, NULL);
}

static double now_ms(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static volatile u64 sink;

static void burn(double ms)
{
	double end = now_ms(CLOCK_THREAD_CPUTIME_ID) + ms;

	while (now_ms(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 10000; i++)
			sink += (u64)i * 7;
}

static struct event_spec spec_of(const char *name)
{
	struct event_spec *specs = NULL, s;
	size_t n = 0;

	ck_assert_int_eq(events__parse(name, &specs, &n, NULL), 0);
	ck_assert_uint_eq(n, 1);
	s = specs[0];
	free(specs);
	return s;
}

static struct evlist *new_list(const char *events, u64 freq, u64 period,
			       unsigned int pages)
{
	struct evlist_opts opts = {
		.freq = freq, .period = period, .mmap_pages = pages,
	};
	struct event_spec *specs = NULL;
	struct evlist *el = evlist__new(&opts);
	size_t n = 0;

	ck_assert_ptr_nonnull(el);
	if (events) {
		ck_assert_int_eq(events__parse(events, &specs, &n, NULL), 0);
		for (size_t i = 0; i < n; i++)
			ck_assert_int_eq(evlist__add(el, &specs[i]), 0);
		free(specs);
	}
	return el;
}

struct tally {
	size_t samples, mine, other, bad;
	size_t per_event[4];
	size_t mmap2, comm, comm_exec, lost_records;
	u64 lost;
	pid_t pid;
};

/* Which event an id belongs to, -1 if none. */
static int event_of(struct evlist *el, u64 id)
{
	for (size_t e = 0; e < evlist__nr_events(el); e++) {
		size_t nr;
		const u64 *ids = evlist__ids(el, e, &nr);

		for (size_t k = 0; k < nr; k++)
			if (ids[k] == id)
				return (int)e;
	}
	return -1;
}

/* Reads every ring to the end with the documented protocol. */
static void drain(struct evlist *el, struct tally *t)
{
	const struct perf_event_attr *attr = evlist__attr(el, 0);
	size_t trailer = record__id_trailer_size(attr->sample_type,
						 attr->sample_id_all);
	struct id_pos pos;

	record__id_pos(attr->sample_type, &pos);
	for (size_t i = 0; i < evlist__nr_rings(el); i++) {
		struct ring *r = evlist__ring(el, i);
		const struct perf_event_header *h;

		ck_assert_int_ge(evlist__ring_fd(el, i), 0);
		ck_assert_int_ge(evlist__ring_cpu(el, i), 0);
		ring__read_init(r);
		while ((h = ring__next(r))) {
			struct perf_sample s;
			struct rec_lost l;
			struct rec_comm c;
			struct rec_mmap m;
			int e;
			u64 id;

			switch (h->type) {
			case PERF_RECORD_SAMPLE:
				t->samples++;
				if (evlist__nr_events(el) > 1) {
					ck_assert_int_eq(record__id(h, &pos,
								    &id), 0);
					e = event_of(el, id);
				} else {
					e = 0;
				}
				if (e < 0) {
					t->bad++;
					break;
				}
				if (record__parse_sample(
					    evlist__attr(el, (size_t)e), h,
					    &s)) {
					t->bad++;
					break;
				}
				if (evlist__nr_events(el) > 1)
					ck_assert_uint_eq(s.id, id);
				ck_assert_int_eq(s.cpu,
						 evlist__ring_cpu(el, i));
				if (e < 4)
					t->per_event[e]++;
				if (s.pid == (u32)t->pid)
					t->mine++;
				else
					t->other++;
				break;
			case PERF_RECORD_LOST:
				ck_assert_int_eq(record__parse_lost(h, &l), 0);
				ck_assert_int_ge(event_of(el, l.id), 0);
				t->lost_records++;
				t->lost += l.lost;
				break;
			case PERF_RECORD_MMAP2:
				ck_assert_int_eq(record__parse_mmap(h, trailer,
								    true, &m), 0);
				t->mmap2++;
				break;
			case PERF_RECORD_COMM:
				ck_assert_int_eq(record__parse_comm(h, trailer,
								    &c), 0);
				t->comm++;
				if (c.exec && c.pid == (u32)t->pid)
					t->comm_exec++;
				break;
			default:
				break;
			}
		}
		ring__consume(r);
	}
}

static struct target self_target(pid_t *pid)
{
	struct target t = { .kind = TARGET_PIDS, .nr_pids = 1 };

	*pid = getpid();
	t.pids = pid;
	return t;
}

static int nr_online(void)
{
	bool online[PTOP_MAX_CPUS];

	return cpus__online(online);
}

START_TEST(test_cpus)
{
	bool online[PTOP_MAX_CPUS];
	int n = cpus__online(online), count = 0;

	ck_assert_int_ge(n, 1);
	ck_assert_int_eq(n, (int)sysconf(_SC_NPROCESSORS_ONLN));
	for (int c = 0; c < PTOP_MAX_CPUS; c++)
		count += online[c];
	ck_assert_int_eq(count, n);
	ck_assert_int_ge(cpus__nr_possible(), n);
}
END_TEST

START_TEST(test_self_cpu_clock)
{
	struct evlist *el = new_list("cpu-clock", 1000, 0, 8);
	const struct perf_event_attr *a;
	struct tally t = { 0 };
	pid_t pid;
	struct target tg = self_target(&pid);
	size_t nr;

	t.pid = pid;
	ck_assert_int_eq(evlist__open(el, &tg), 0);
	a = evlist__attr(el, 0);
	ck_assert_uint_eq(a->sample_type,
			  PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				  PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD);
	ck_assert(a->freq && a->sample_freq == 1000);
	ck_assert(a->mmap && a->mmap2 && a->comm && a->comm_exec && a->task);
	ck_assert(a->inherit && a->sample_id_all && a->watermark);
	ck_assert_uint_eq(a->wakeup_watermark, 8 * 4096 / 4);
	ck_assert_uint_eq(evlist__nr_rings(el), (size_t)nr_online());
	evlist__ids(el, 0, &nr);
	ck_assert_uint_eq(nr, (size_t)nr_online());	/* 1 thread */
	burn(200);
	drain(el, &t);
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
	burn(b->ms);
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
	struct evlist *el = new_list("task-clock", 1000, 0, 64);
	struct burner before = { .ms = 150 }, after = { .ms = 150 };
	pthread_t th1, th2;
	pid_t pid, tids[2];
	struct target tg = self_target(&pid);
	size_t nr, n[2];

	/* a thread that exists when the events are opened */
	ck_assert_int_eq(pthread_create(&th1, NULL, burn_thread, &before), 0);
	while (!__atomic_load_n(&before.tid, __ATOMIC_ACQUIRE))
		usleep(100);
	ck_assert_int_eq(evlist__open(el, &tg), 0);
	evlist__ids(el, 0, &nr);
	ck_assert_uint_eq(nr, 2 * (size_t)nr_online());
	ck_assert_uint_eq(evlist__nr_rings(el), (size_t)nr_online());
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
	struct evlist *el = new_list("cpu-clock,task-clock", 1000, 0, 16);
	struct tally t = { 0 };
	pid_t pid;
	struct target tg = self_target(&pid);

	t.pid = pid;
	ck_assert_int_eq(evlist__open(el, &tg), 0);
	ck_assert_uint_eq(evlist__nr_events(el), 2);
	ck_assert_str_eq(evlist__event_name(el, 1), "task-clock");
	for (size_t e = 0; e < 2; e++)
		ck_assert(evlist__attr(el, e)->sample_type &
			  PERF_SAMPLE_IDENTIFIER);
	/* tracking only on the first */
	ck_assert(!evlist__attr(el, 1)->mmap && !evlist__attr(el, 1)->comm);
	ck_assert_uint_eq(evlist__nr_rings(el), (size_t)nr_online());
	burn(200);
	drain(el, &t);
	ck_assert_uint_eq(t.bad, 0);
	ck_assert_uint_gt(t.per_event[0], 20);
	ck_assert_uint_gt(t.per_event[1], 20);
	evlist__free(el);
}
END_TEST

START_TEST(test_disable_stops)
{
	struct evlist *el = new_list("cpu-clock", 2000, 0, 16);
	struct tally t = { 0 };
	pid_t pid;
	struct target tg = self_target(&pid);

	t.pid = pid;
	ck_assert_int_eq(evlist__open(el, &tg), 0);
	burn(100);
	ck_assert_int_eq(evlist__disable(el), 0);
	drain(el, &t);
	ck_assert_uint_gt(t.mine, 10);
	memset(&t, 0, sizeof(t));
	t.pid = pid;
	burn(150);
	drain(el, &t);
	ck_assert_uint_eq(t.samples, 0);
	ck_assert_int_eq(evlist__enable(el), 0);
	burn(100);
	drain(el, &t);
	ck_assert_uint_gt(t.mine, 10);
	evlist__free(el);
}
END_TEST

START_TEST(test_default_fallback)
{
	struct evlist *el = new_list(NULL, 1000, 0, 8);
	struct event_spec def;
	struct tally t = { 0 };
	pid_t pid;
	struct target tg = self_target(&pid);
	bool fell_back;

	t.pid = pid;
	events__default(&def);
	ck_assert_int_eq(evlist__add(el, &def), 0);
	ck_assert_int_eq(evlist__open(el, &tg), 0);
	fell_back = !strcmp(evlist__event_name(el, 0), "cpu-clock");
	if (fell_back) {
		ck_assert_uint_eq(evlist__attr(el, 0)->type,
				  PERF_TYPE_SOFTWARE);
		ck_assert_int_eq(nr_warn, 1);
		ck_assert_ptr_nonnull(strstr(logged,
			"The cycles event is not supported on this machine, falling back to cpu-clock"));
	} else {
		/* a machine with a PMU */
		ck_assert_str_eq(evlist__event_name(el, 0), "cycles");
		ck_assert_ptr_null(strstr(logged, "falling back"));
	}
	/* tracking bits survive the fallback */
	ck_assert(evlist__attr(el, 0)->mmap2 && evlist__attr(el, 0)->comm);
	burn(100);
	drain(el, &t);
	ck_assert_uint_gt(t.mine, 5);
	evlist__free(el);
}
END_TEST

/* A hardware event the user asked for is not silently replaced. */
START_TEST(test_explicit_hw_error)
{
	struct evlist *el = new_list("instructions", 1000, 0, 8);
	pid_t pid;
	struct target tg = self_target(&pid);
	int err = evlist__open(el, &tg);

	if (err) {
		ck_assert_int_eq(err, -ENOENT);
		ck_assert_ptr_nonnull(strstr(logged, "instructions"));
		ck_assert_ptr_nonnull(strstr(logged, "not supported"));
		ck_assert_uint_eq(evlist__nr_rings(el), 0);
	}
	ck_assert_str_eq(evlist__event_name(el, 0), "instructions");
	evlist__free(el);
}
END_TEST

START_TEST(test_unknown_tracepoint)
{
	struct evlist *el = new_list("nosuchsys_ptop:nosuchevent", 0, 0, 8);
	pid_t pid;
	struct target tg = self_target(&pid);

	ck_assert_int_eq(evlist__open(el, &tg), -ENOENT);
	ck_assert_ptr_nonnull(strstr(logged, "nosuchsys_ptop:nosuchevent"));
	ck_assert_ptr_nonnull(strstr(logged, "unknown tracepoint"));
	ck_assert_uint_eq(evlist__nr_rings(el), 0);
	evlist__free(el);
}
END_TEST

START_TEST(test_tracepoint)
{
	struct evlist *el = new_list("sched:sched_switch", 0, 0, 16);
	struct tally t = { 0 };
	pid_t pid;
	struct target tg = self_target(&pid);

	t.pid = pid;
	ck_assert_int_eq(evlist__open(el, &tg), 0);
	ck_assert_uint_eq(evlist__attr(el, 0)->type, PERF_TYPE_TRACEPOINT);
	ck_assert_uint_ne(evlist__attr(el, 0)->config, 0);
	ck_assert_uint_eq(evlist__attr(el, 0)->sample_period, 1);
	for (int i = 0; i < 20; i++)
		usleep(1000);
	drain(el, &t);
	ck_assert_uint_ge(t.mine, 10);
	evlist__free(el);
}
END_TEST

/* A fake tracefs: events/SYS/NAME/id for each "SYS:NAME". */
static void fake_tracefs(char *dir, const char *const *names, size_t n)
{
	char path[512];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/events", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	for (size_t i = 0; i < n; i++) {
		const char *colon = strchr(names[i], ':');
		FILE *f;

		snprintf(path, sizeof(path), "%s/events/%.*s", dir,
			 (int)(colon - names[i]), names[i]);
		mkdir(path, 0755);
		snprintf(path + strlen(path), sizeof(path) - strlen(path),
			 "/%s", colon + 1);
		ck_assert_int_eq(mkdir(path, 0755), 0);
		strcat(path, "/id");
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fprintf(f, "%zu\n", 100 + i);
		fclose(f);
	}
}

static void rm_tree(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* -e 'sched:sched_*': the tracepoints it matches, in name order, in
 * place of the glob; no match and too many are errors that say so. */
START_TEST(test_expand_tracepoints)
{
	static const char *const names[] = {
		"sched:sched_wakeup", "sched:sched_switch", "sched:other",
		"irq:softirq_entry", "irq:irq_handler_entry",
	};
	char dir[] = "/tmp/ptop-tfs-XXXXXX";
	struct evlist_opts eo = { 0 };
	struct event_spec *specs = NULL;
	size_t n = 0;

	fake_tracefs(dir, names, ARRAY_SIZE(names));
	eo.tracefs = dir;
	ck_assert_int_eq(events__parse("cpu-clock,sched:sched_*,i?q:*_entry",
				       &specs, &n, NULL), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(catalog__expand_tracepoints(eo.tracefs, &specs, &n), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_str_eq(specs[0].name, "cpu-clock");
	ck_assert_str_eq(specs[1].name, "sched:sched_switch");
	ck_assert_str_eq(specs[2].name, "sched:sched_wakeup");
	ck_assert_str_eq(specs[3].name, "irq:irq_handler_entry");
	ck_assert_str_eq(specs[4].name, "irq:softirq_entry");
	for (size_t i = 1; i < n; i++)
		ck_assert(specs[i].tracepoint && !specs[i].tp_glob);
	/* nothing to expand: unchanged */
	ck_assert_int_eq(catalog__expand_tracepoints(eo.tracefs, &specs, &n), 0);
	ck_assert_uint_eq(n, 5);
	free(specs);

	/* no match: the glob is named, the specs are left alone */
	specs = NULL;
	n = 0;
	ck_assert_int_eq(events__parse("sched:nothing*", &specs, &n, NULL), 0);
	ck_assert_int_eq(catalog__expand_tracepoints(eo.tracefs, &specs, &n), -ENOENT);
	ck_assert_ptr_nonnull(strstr(logged, "no tracepoint matches 'sched:nothing*'"));
	ck_assert_uint_eq(n, 1);
	free(specs);
	rm_tree(dir);

	/* more than EXPAND_MAX */
	{
		static char buf[EXPAND_MAX + 1][32];
		const char *many[EXPAND_MAX + 1];
		char dir2[] = "/tmp/ptop-tfs-XXXXXX";

		for (int i = 0; i <= EXPAND_MAX; i++) {
			snprintf(buf[i], sizeof(buf[i]), "many:ev%03d", i);
			many[i] = buf[i];
		}
		fake_tracefs(dir2, many, ARRAY_SIZE(many));
		eo.tracefs = dir2;
		specs = NULL;
		n = 0;
		ck_assert_int_eq(events__parse("many:*", &specs, &n, NULL), 0);
		ck_assert_int_eq(catalog__expand_tracepoints(eo.tracefs, &specs, &n),
				 -E2BIG);
		ck_assert_ptr_nonnull(strstr(logged, "matches 65 tracepoints"));
		free(specs);
		specs = NULL;
		n = 0;
		ck_assert_int_eq(events__parse("many:ev0[0-5]?", &specs, &n,
					       NULL), 0);
		ck_assert_int_eq(catalog__expand_tracepoints(eo.tracefs, &specs, &n), 0);
		ck_assert_uint_eq(n, 60);
		free(specs);
		rm_tree(dir2);
	}
}
END_TEST

static pid_t dead_pid(void)
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return pid;
}

START_TEST(test_no_such_process)
{
	struct evlist *el = new_list("cpu-clock", 1000, 0, 8);
	pid_t pid = dead_pid();
	struct target tg = { .kind = TARGET_PIDS, .pids = &pid, .nr_pids = 1 };

	ck_assert_int_eq(evlist__open(el, &tg), -ESRCH);
	ck_assert_ptr_nonnull(strstr(logged, "no such process"));
	tg.kind = TARGET_TIDS;
	ck_assert_int_eq(evlist__open(el, &tg), -ESRCH);
	ck_assert_uint_eq(evlist__nr_rings(el), 0);
	evlist__free(el);
}
END_TEST

/* A thread that exits between listing and opening is skipped. */
START_TEST(test_thread_gone)
{
	struct evlist *el = new_list("cpu-clock", 1000, 0, 8);
	pid_t tids[2] = { dead_pid(), getpid() };
	struct target tg = { .kind = TARGET_TIDS, .pids = tids, .nr_pids = 2 };
	size_t nr;

	ck_assert_int_eq(evlist__open(el, &tg), 0);
	ck_assert(!evlist__attr(el, 0)->inherit);
	evlist__ids(el, 0, &nr);
	ck_assert_uint_eq(nr, (size_t)nr_online());
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
	struct evlist *el = new_list("cpu-clock,task-clock,page-faults", 1000,
				     0, 8);
	pid_t pid;
	struct target tg = self_target(&pid);
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
	ck_assert_int_eq(evlist__open(el, &tg), -EMFILE);
	ck_assert_msg(strstr(logged, "RLIMIT_NOFILE"), "%s", logged);
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
		struct evlist *el = new_list("cpu-clock", 1000, 0, 8);
		pid_t pid;
		struct target tg = self_target(&pid);
		struct target sys = { .kind = TARGET_SYSTEM };
		int code = 0;

		if (setgid(65534) || setuid(65534))
			_exit(10);
		if (paranoid < 3) {
			if (evlist__open(el, &tg))
				code |= 1;
			else if (!evlist__attr(el, 0)->exclude_kernel)
				code |= 2;
			if (!strstr(logged, "falling back") &&
			    !strstr(logged, "fall back"))
				code |= 4;
			evlist__close(el);
		}
		if (evlist__open(el, &sys) != -EACCES)
			code |= 8;
		if (!strstr(logged, "kernel.perf_event_paranoid is") ||
		    !strstr(logged, "CAP_PERFMON"))
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
	struct evlist *el = new_list("cpu-clock", 0, 20000, 1);
	struct tally t = { 0 };
	pid_t pid;
	struct target tg = self_target(&pid);
	double end = now_ms(CLOCK_MONOTONIC) + 20000;
	int rounds = 0;

	t.pid = pid;
	ck_assert_int_eq(evlist__open(el, &tg), 0);
	ck_assert(!evlist__attr(el, 0)->freq);
	ck_assert_uint_eq(evlist__attr(el, 0)->sample_period, 20000);
	while (t.lost_records == 0 && now_ms(CLOCK_MONOTONIC) < end) {
		rounds++;
		burn(10);	/* 500 samples: the ring fills */
		drain(el, &t);	/* room again: the next record is LOST */
	}
	ck_assert_msg(t.lost_records > 0, "no LOST record in %d rounds "
		      "(20 s), %zu samples", rounds, t.samples);
	ck_assert_uint_gt(t.lost, 0);
	evlist__free(el);
}
END_TEST

START_TEST(test_system_wide)
{
	struct evlist *el = new_list("cpu-clock", 1000, 0, 8);
	struct target tg = { .kind = TARGET_SYSTEM };
	struct tally t = { .pid = getpid() };
	bool cpus[PTOP_MAX_CPUS] = { false };

	ck_assert_int_eq(evlist__open(el, &tg), 0);
	ck_assert(!evlist__attr(el, 0)->inherit);
	/* Drained every 10 ms: on a loaded machine every other process's
	 * samples would otherwise fill the 8-page rings before ours. */
	for (int i = 0; i < 10; i++) {
		burn(10);
		drain(el, &t);
	}
	ck_assert_msg(t.mine > 5, "%zu of our samples, %zu others, %" PRIu64
		      " lost", t.mine, t.other, t.lost);
	evlist__close(el);

	/* -C 0 */
	cpus[0] = true;
	tg.cpus = cpus;
	ck_assert_int_eq(evlist__open(el, &tg), 0);
	ck_assert_uint_eq(evlist__nr_rings(el), 1);
	ck_assert_int_eq(evlist__ring_cpu(el, 0), 0);
	evlist__close(el);
	/* an offline (here: impossible) CPU */
	cpus[PTOP_MAX_CPUS - 1] = true;
	ck_assert_int_eq(evlist__open(el, &tg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(logged, "not online"));
	evlist__free(el);
}
END_TEST

/* -- CMD: nothing is sampled before exec, everything after. */
START_TEST(test_command)
{
	struct evlist *el = new_list("cpu-clock", 1000, 0, 16);
	struct tally t = { 0 };
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
		burn(50);	/* not sampled: before exec */
		execl("/bin/sh", "sh", "-c",
		      "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done",
		      (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	t.pid = child;
	tg.pids = &child;
	ck_assert_int_eq(evlist__open(el, &tg), 0);
	ck_assert(evlist__attr(el, 0)->enable_on_exec);
	ck_assert(evlist__attr(el, 0)->inherit);
	ck_assert_int_eq(write(go[1], "x", 1), 1);
	close(go[1]);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	drain(el, &t);
	ck_assert_uint_gt(t.mine, 10);
	ck_assert_uint_ge(t.comm_exec, 1);
	ck_assert_uint_ge(t.mmap2, 1);
	evlist__free(el);
}
END_TEST

START_TEST(test_bad_options)
{
	struct evlist *el = new_list("cpu-clock", 1000, 0, 3);
	pid_t pid;
	struct target tg = self_target(&pid);

	ck_assert_int_eq(evlist__open(el, &tg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(logged, "power of two"));
	evlist__free(el);

	el = new_list("cpu-clock", 100000000, 0, 8);
	ck_assert_int_eq(evlist__open(el, &tg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(logged, "perf_event_max_sample_rate"));
	evlist__free(el);

	el = new_list(NULL, 1000, 0, 8);
	ck_assert_int_eq(evlist__open(el, &tg), -EINVAL);
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
	struct event_spec s = spec_of("cpu-clock");
	const struct perf_event_attr *a;
	struct tally t = { 0 };
	pid_t pid;
	struct target tg = self_target(&pid);

	t.pid = pid;
	ck_assert_int_eq(evlist__add(el, &s), 0);
	ck_assert_int_eq(evlist__open(el, &tg), 0);
	a = evlist__attr(el, 0);
	ck_assert(a->sample_type & PERF_SAMPLE_CALLCHAIN);
	ck_assert(a->sample_type & PERF_SAMPLE_REGS_USER);
	ck_assert(a->sample_type & PERF_SAMPLE_STACK_USER);
	ck_assert_uint_eq(a->sample_max_stack, 32);
	ck_assert_uint_eq(a->sample_stack_user, 8192);
	ck_assert_uint_eq(a->sample_regs_user, 0xff0fff);
	burn(50);
	drain(el, &t);
	ck_assert_uint_gt(t.mine, 5);
	ck_assert_uint_eq(t.bad, 0);
	evlist__free(el);
}
END_TEST

struct listed {
	bool cpu_clock, sched_switch, cycles;
	size_t n;
};

static void on_listed(const char *name, const char *kind, void *ctx)
{
	struct listed *l = ctx;

	l->n++;
	if (!strcmp(name, "cpu-clock"))
		l->cpu_clock = !strcmp(kind, "Software event");
	if (!strcmp(name, "sched:sched_switch"))
		l->sched_switch = !strcmp(kind, "Tracepoint event");
	if (!strcmp(name, "cycles"))
		l->cycles = !strcmp(kind, "Hardware event");
}

START_TEST(test_list_events)
{
	struct listed l = { 0 };
	struct evlist *el = new_list("cycles", 1000, 0, 8);
	pid_t pid;
	struct target tg = self_target(&pid);
	bool cycles_opens;

	ck_assert_int_eq(catalog__list_events(NULL, NULL, on_listed, &l), 0);
	ck_assert(l.cpu_clock);
	ck_assert(l.sched_switch);
	ck_assert_uint_gt(l.n, 100);
	/* listed exactly when it opens */
	cycles_opens = evlist__open(el, &tg) == 0;
	ck_assert_int_eq(l.cycles, cycles_opens);
	evlist__free(el);
}
END_TEST

/*
 * A fake /sys/bus/event_source/devices: "fake" (a core PMU's layout, type
 * 4: formats of one and several bit ranges in config, config1, config2,
 * aliases, aliases of aliases, bad ones), "soft" (type 1, the software
 * PMU, no format directory; its aliases open for real), "gone" (a type no
 * kernel has), "badtype".
 */
static const char *const fake_pmu_files[][2] = {
	{ "fake/type", "4\n" },
	{ "fake/format/event", "config:0-7,32-35\n" },
	{ "fake/format/umask", "config:8-15\n" },
	{ "fake/format/inv", "config:23\n" },
	{ "fake/format/ldlat", "config1:0-15\n" },
	{ "fake/format/wide", "config2:0-63\n" },
	{ "fake/format/odd", "config3:0-7\n" },
	{ "fake/format/bad", "config:x-y\n" },
	{ "fake/events/cycles", "event=0x3c\n" },
	{ "fake/events/loads", "event=0xcd,umask=0x1,ldlat=3\n" },
	{ "fake/events/nested", "loads,inv" },
	{ "fake/events/loop", "loop\n" },
	{ "fake/events/param", "event=0x12,ldlat=?\n" },
	{ "fake/events/withperiod", "event=1,period=5\n" },
	{ "fake/events/badterm", "event=0x3c,nope=1\n" },
	{ "fake/events/bad", "event=zz\n" },
	{ "soft/type", "1\n" },
	{ "soft/events/clock", "config=0\n" },
	{ "soft/events/clock.scale", "2.5\n" },
	{ "soft/events/alias2", "clock\n" },
	{ "gone/type", "2147418112\n" },
	{ "gone/events/x", "config=0\n" },
	{ "badtype/type", "four\n" },
};

static void fake_pmus(char *dir)
{
	char path[512];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (size_t i = 0; i < ARRAY_SIZE(fake_pmu_files); i++) {
		const char *rel = fake_pmu_files[i][0];
		FILE *f;

		/* every directory on the way */
		for (const char *sl = strchr(rel, '/'); sl;
		     sl = strchr(sl + 1, '/')) {
			snprintf(path, sizeof(path), "%s/%.*s", dir,
				 (int)(sl - rel), rel);
			mkdir(path, 0755);
		}
		snprintf(path, sizeof(path), "%s/%s", dir, rel);
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fputs(fake_pmu_files[i][1], f);
		fclose(f);
	}
}

/* Resolves name against the fake tree: 0 and the attr, or the error. */
static int resolve(const char *root, const char *name,
		   struct perf_event_attr *attr)
{
	struct evlist_opts eo = { .pmu_root = root };
	struct event_spec s = spec_of(name);
	int err;

	logged[0] = '\0';
	err = pmu__resolve(eo.pmu_root, &s);
	if (!err) {
		struct event_spec again = s;

		/* resolving twice gives the same attr */
		ck_assert_int_eq(pmu__resolve(eo.pmu_root, &again), 0);
		ck_assert(!memcmp(&again.attr, &s.attr, sizeof(s.attr)));
		*attr = s.attr;
		ck_assert_str_eq(logged, "");
	} else {
		/* every error says which event */
		ck_assert_msg(strstr(logged, name), "'%s': %s", name, logged);
	}
	return err;
}

#define ck_resolves(root, name, type_, config_, config1_, config2_)          \
	do {                                                                 \
		struct perf_event_attr a_;                                   \
		ck_assert_int_eq(resolve(root, name, &a_), 0);               \
		ck_assert_uint_eq(a_.type, type_);                           \
		ck_assert_uint_eq(a_.config, config_);                       \
		ck_assert_uint_eq(a_.config1, config1_);                     \
		ck_assert_uint_eq(a_.config2, config2_);                     \
	} while (0)

#define ck_refused(root, name, err_, says)                                   \
	do {                                                                 \
		struct perf_event_attr a_;                                   \
		ck_assert_int_eq(resolve(root, name, &a_), err_);            \
		ck_assert_msg(strstr(logged, says), "'%s': no '%s' in: %s",  \
			      name, says, logged);                           \
	} while (0)

/* "pmu/terms/" against a fake sysfs: the exact attr, or the error. */
START_TEST(test_pmu_resolve)
{
	char dir[] = "/tmp/ptop-pmu-XXXXXX";
	struct perf_event_attr a;
	struct event_spec s;
	struct evlist_opts eo = { 0 };

	fake_pmus(dir);
	ck_resolves(dir, "fake/event=0x3c,umask=0x00/", 4, 0x3c, 0, 0);
	/* event is config:0-7,32-35: 0x28f puts 0x2 in bits 32-35 */
	ck_resolves(dir, "fake/event=0x28f,umask=3,inv/", 4,
		    0x8f | 0x2ULL << 32 | 3 << 8 | 1 << 23, 0, 0);
	ck_resolves(dir, "fake/ldlat=0xffff,wide=0xffffffffffffffff/", 4, 0,
		    0xffff, UINT64_MAX);
	ck_resolves(dir, "fake/config=0x1234,config1=5,config2=6/", 4, 0x1234,
		    5, 6);
	/* in order: config= replaces the word, a field its bits */
	ck_resolves(dir, "fake/event=1,config=0x9900/", 4, 0x9900, 0, 0);
	ck_resolves(dir, "fake/config=0x9900,event=1/", 4, 0x9901, 0, 0);
	ck_resolves(dir, "fake/event=1,event=2/", 4, 2, 0, 0);
	/* aliases, in their place; aliases of aliases; later terms win */
	ck_resolves(dir, "fake/cycles/", 4, 0x3c, 0, 0);
	ck_resolves(dir, "fake/loads/", 4, 0x1cd, 3, 0);
	ck_resolves(dir, "fake/nested/", 4, 0x1cd | 1 << 23, 3, 0);
	ck_resolves(dir, "fake/cycles,umask=2/", 4, 0x23c, 0, 0);
	ck_resolves(dir, "fake/cycles,event=0x11/", 4, 0x11, 0, 0);
	ck_resolves(dir, "fake/event=0x11,cycles/", 4, 0x3c, 0, 0);
	/* perf's raw term */
	ck_resolves(dir, "fake/r1a8/", 4, 0x1a8, 0, 0);
	ck_resolves(dir, "fake/r0x1a8/", 4, 0x1a8, 0, 0);
	ck_resolves(dir, "soft//", 1, 0, 0, 0);
	ck_resolves(dir, "soft/clock/", 1, 0, 0, 0);
	ck_resolves(dir, "soft/alias2/", 1, 0, 0, 0);
	ck_resolves(dir, "soft/config=2/", 1, 2, 0, 0);
	/* modifiers and the event's period stay */
	ck_assert_int_eq(resolve(dir, "fake/cycles/upp", &a), 0);
	ck_assert(!a.exclude_user && a.exclude_kernel && a.exclude_hv);
	ck_assert_uint_eq(a.precise_ip, 2);
	s = spec_of("fake/cycles,period=1000/");
	eo.pmu_root = dir;
	ck_assert_int_eq(pmu__resolve(eo.pmu_root, &s), 0);
	ck_assert_uint_eq(s.period, 1000);
	ck_assert_uint_eq(s.attr.config, 0x3c);
	/* anything but a PMU event: untouched */
	s = spec_of("cpu-clock");
	a = s.attr;
	ck_assert_int_eq(pmu__resolve(eo.pmu_root, &s), 0);
	ck_assert(!memcmp(&a, &s.attr, sizeof(a)));

	ck_refused(dir, "nosuch/config=1/", -ENOENT, "unknown PMU 'nosuch'");
	ck_refused(dir, "badtype/config=1/", -EINVAL, "bad type 'four'");
	/* 0x1000 needs 13 bits; event has 12 */
	ck_refused(dir, "fake/event=0x1000/", -EINVAL,
		   "0x1000 does not fit in term 'event' of PMU 'fake' (12 bits");
	ck_refused(dir, "fake/umask=0x100/", -EINVAL, "does not fit");
	ck_refused(dir, "fake/inv=2/", -EINVAL, "does not fit");
	ck_refused(dir, "fake/nope=1/", -ENOENT, "PMU 'fake' has no term 'nope'");
	ck_assert_ptr_nonnull(strstr(logged, "fake/format/nope"));
	ck_assert_ptr_nonnull(strstr(logged, "event"));
	ck_refused(dir, "fake/nope/", -ENOENT,
		   "PMU 'fake' has no event alias or term 'nope'");
	ck_assert_ptr_nonnull(strstr(logged, "cycles"));
	ck_refused(dir, "soft/nope=1/", -ENOENT, "its terms: config config1 config2");
	ck_refused(dir, "fake/odd=1/", -EINVAL, "config3:0-7");
	ck_refused(dir, "fake/bad/", -EINVAL, "bad alias");
	ck_refused(dir, "fake/bad=1/", -EINVAL, "is not one ptop knows");
	ck_refused(dir, "fake/loop/", -EINVAL, "nest deeper");
	ck_refused(dir, "fake/param/", -EINVAL, "'?'");
	ck_refused(dir, "fake/withperiod/", -EINVAL, "sets period=");
	ck_refused(dir, "fake/badterm/", -ENOENT,
		   "no term 'nope' (named by its alias 'badterm')");
	ck_refused(dir, "fake/r1g/", -ENOENT, "'r1g'");
	rm_tree(dir);
}
END_TEST

/* Opened for real: the fake tree's software PMU samples like cpu-clock,
 * with the event's own period or frequency; errors name the event. */
START_TEST(test_pmu_open)
{
	char dir[] = "/tmp/ptop-pmu-XXXXXX";
	struct evlist_opts opts = { .freq = 1000, .mmap_pages = 16 };
	struct event_spec *specs = NULL;
	struct evlist *el;
	struct tally t = { 0 };
	const struct perf_event_attr *a;
	pid_t pid;
	struct target tg = self_target(&pid);
	size_t n = 0;

	fake_pmus(dir);
	opts.pmu_root = dir;
	t.pid = pid;
	el = evlist__new(&opts);
	ck_assert_ptr_nonnull(el);
	ck_assert_int_eq(events__parse("soft/clock/u,soft/config=0,period=100000/,"
				       "soft/alias2,freq=300/",
				       &specs, &n, NULL), 0);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(evlist__add(el, &specs[i]), 0);
	free(specs);
	ck_assert_int_eq(evlist__open(el, &tg), 0);
	a = evlist__attr(el, 0);
	ck_assert_uint_eq(a->type, PERF_TYPE_SOFTWARE);
	ck_assert_uint_eq(a->config, PERF_COUNT_SW_CPU_CLOCK);
	ck_assert(a->freq && a->sample_freq == 1000);
	ck_assert(a->exclude_kernel && !a->exclude_user);
	a = evlist__attr(el, 1);
	ck_assert_uint_eq(a->type, PERF_TYPE_SOFTWARE);
	ck_assert(!a->freq && a->sample_period == 100000);
	ck_assert(!a->exclude_kernel);
	a = evlist__attr(el, 2);
	ck_assert(a->freq && a->sample_freq == 300);
	ck_assert_str_eq(evlist__event_name(el, 1),
			 "soft/config=0,period=100000/");
	burn(60);
	drain(el, &t);
	ck_assert_uint_gt(t.per_event[0], 5);
	/* 60 ms of CPU at one sample per 100 us */
	ck_assert_uint_gt(t.per_event[1], 100);
	ck_assert_uint_eq(t.bad, 0);
	evlist__free(el);

	/* a resolution error: logged with the event, nothing opened */
	{
		struct evlist_opts o2 = { .freq = 1000, .mmap_pages = 8,
					  .pmu_root = dir };
		struct event_spec bad = spec_of("nosuch/config=1/");
		struct event_spec big = spec_of("soft/config=0,freq=100000000/");

		el = evlist__new(&o2);
		ck_assert_int_eq(evlist__add(el, &bad), 0);
		logged[0] = '\0';
		ck_assert_int_eq(evlist__open(el, &tg), -ENOENT);
		ck_assert_ptr_nonnull(strstr(logged, "unknown PMU 'nosuch'"));
		ck_assert_uint_eq(evlist__nr_rings(el), 0);
		evlist__free(el);

		el = evlist__new(&o2);
		ck_assert_int_eq(evlist__add(el, &big), 0);
		ck_assert_int_eq(evlist__open(el, &tg), -EINVAL);
		ck_assert_ptr_nonnull(strstr(logged, "freq=100000000 is above"));
		evlist__free(el);
	}
	rm_tree(dir);

	/* this machine's own sysfs: software/config=0/ is cpu-clock */
	el = new_list("software/config=0/", 1000, 0, 8);
	ck_assert_int_eq(evlist__open(el, &tg), 0);
	ck_assert_uint_eq(evlist__attr(el, 0)->type, PERF_TYPE_SOFTWARE);
	ck_assert_uint_eq(evlist__attr(el, 0)->config, 0);
	evlist__free(el);
	/* msr counts, it cannot sample: said so */
	if (access("/sys/bus/event_source/devices/msr/events/tsc", R_OK) == 0) {
		el = new_list("msr/tsc/", 1000, 0, 8);
		logged[0] = '\0';
		ck_assert_int_lt(evlist__open(el, &tg), 0);
		ck_assert_msg(strstr(logged, "msr/tsc/") &&
			      strstr(logged, "can count it but not sample it"),
			      "%s", logged);
		ck_assert_uint_eq(evlist__nr_rings(el), 0);
		evlist__free(el);
	}
}
END_TEST

struct listed_pmu {
	bool clock, scale, alias2, gone;
};

static void on_listed_pmu(const char *name, const char *kind, void *ctx)
{
	struct listed_pmu *l = ctx;

	if (!strcmp(name, "soft/clock/"))
		l->clock = !strcmp(kind, "Kernel PMU event");
	l->alias2 |= !strcmp(name, "soft/alias2/");
	l->scale |= strstr(name, ".scale") != NULL;
	l->gone |= !strncmp(name, "gone/", 5);
}

/* The PMUs' aliases are listed when they can be sampled, as written. */
START_TEST(test_pmu_list)
{
	char dir[] = "/tmp/ptop-pmu-XXXXXX";
	struct evlist_opts eo = { 0 };
	struct listed_pmu l = { 0 };

	fake_pmus(dir);
	eo.pmu_root = dir;
	logged[0] = '\0';
	ck_assert_int_eq(catalog__list_events(eo.tracefs, eo.pmu_root, on_listed_pmu, &l), 0);
	ck_assert(l.clock && l.alias2);
	ck_assert(!l.scale && !l.gone);
	/* the broken aliases are left out quietly */
	ck_assert_ptr_null(strstr(logged, "fake/"));
	rm_tree(dir);
	/* no PMU directory at all: nothing to list, not an error */
	eo.pmu_root = "/nonexistent";
	ck_assert_int_eq(catalog__list_events(eo.tracefs, eo.pmu_root, on_listed_pmu, &l), 0);
}
END_TEST

Suite *evsel_suite(void);
/* stands for the tests that open events, when they cannot run */
START_TEST(test_not_root)
{
	test_skip("not root: the tests that open events were not run");
}
END_TEST

Suite *evsel_suite(void)
{
	Suite *s = suite_create("evsel");
	TCase *tc = tcase_create("open");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_cpus);
	tcase_add_test(tc, test_pmu_resolve);
	if (geteuid() != 0) {
		tcase_add_test(tc, test_not_root);
		suite_add_tcase(s, tc);
		return s;
	}
	tcase_add_test(tc, test_self_cpu_clock);
	tcase_add_test(tc, test_two_events_share_rings);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_disable_stops);
	tcase_add_test(tc, test_default_fallback);
	tcase_add_test(tc, test_explicit_hw_error);
	tcase_add_test(tc, test_unknown_tracepoint);
	tcase_add_test(tc, test_tracepoint);
	tcase_add_test(tc, test_expand_tracepoints);
	tcase_add_test(tc, test_no_such_process);
	tcase_add_test(tc, test_thread_gone);
	tcase_add_test(tc, test_emfile);
	tcase_add_test(tc, test_unprivileged);
	tcase_add_test(tc, test_lost);
	tcase_add_test(tc, test_system_wide);
	tcase_add_test(tc, test_command);
	tcase_add_test(tc, test_bad_options);
	tcase_add_test(tc, test_callchain_attrs);
	tcase_add_test(tc, test_list_events);
	tcase_add_test(tc, test_pmu_open);
	tcase_add_test(tc, test_pmu_list);
	suite_add_tcase(s, tc);
	return s;
}
