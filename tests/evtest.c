/* tests/evtest: what the suites that open events share: the log they
 * read, CPU to burn, event lists, rings read to the end, fake sysfs
 * trees. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/evtest.h"

/* Log messages of the test, for checking what was said. */
char evt_logged[8192];
int evt_nr_warn;

static void evt_log_to_buf(enum log_level level, const char *msg, void *ctx)
{
	size_t len = strlen(evt_logged);

	(void)ctx;
	if (level == LOG_WARN)
		evt_nr_warn++;
	snprintf(evt_logged + len, sizeof(evt_logged) - len, "%s\n", msg);
}

struct strbuf evt_why;

int evt_said(int err)
{
	if (evt_why.buf)
		pr_err("%s", evt_why.buf);
	strbuf__fini(&evt_why);
	return err;
}

int evt_open(struct evlist *el, const struct target *t)
{
	return evt_said(evlist__open(el, t, &evt_why));
}

void evt_setup(void)
{
	evt_logged[0] = '\0';
	evt_nr_warn = 0;
	log__set_handler(evt_log_to_buf, NULL);
	log__set_level(LOG_INFO);
}

void evt_teardown(void)
{
	log__set_handler(NULL, NULL);
}

double evt_now_ms(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static volatile u64 evt_sink;

void evt_burn(double ms)
{
	double end = evt_now_ms(CLOCK_THREAD_CPUTIME_ID) + ms;

	while (evt_now_ms(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 10000; i++)
			evt_sink += (u64)i * 7;
}

struct event_spec evt_spec_of(const char *name)
{
	struct event_spec *specs = NULL, s;
	size_t n = 0;

	ck_assert_int_eq(events__parse(name, &specs, &n, NULL), 0);
	ck_assert_uint_eq(n, 1);
	s = specs[0];
	free(specs);
	return s;
}

struct evlist *evt_new_list(const char *events, u64 freq, u64 period,
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

/* Which event an id belongs to, -1 if none. */
static int evt_event_of(struct evlist *el, u64 id)
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
void evt_drain(struct evlist *el, struct evt_tally *t)
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
					e = evt_event_of(el, id);
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
				ck_assert_int_ge(evt_event_of(el, l.id), 0);
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

struct target evt_self_target(pid_t *pid)
{
	struct target t = { .kind = TARGET_PIDS, .nr_pids = 1 };

	*pid = getpid();
	t.pids = pid;
	return t;
}

int evt_nr_online(void)
{
	bool online[PTOP_MAX_CPUS];

	return cpus__online(online);
}

void evt_rm_tree(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/*
 * A fake /sys/bus/event_source/devices: "fake" (a core PMU's layout, type
 * 4: formats of one and several bit ranges in config, config1, config2,
 * aliases, aliases of aliases, bad ones), "soft" (type 1, the software
 * PMU, no format directory; its aliases open for real), "gone" (a type no
 * kernel has), "badtype".
 */
static const char *const evt_fake_pmu_files[][2] = {
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

void evt_fake_pmus(char *dir)
{
	char path[512];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (size_t i = 0; i < ARRAY_SIZE(evt_fake_pmu_files); i++) {
		const char *rel = evt_fake_pmu_files[i][0];
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
		fputs(evt_fake_pmu_files[i][1], f);
		fclose(f);
	}
}

/* stands for the tests that open events, when they cannot run */
START_TEST(test_not_root)
{
	test_skip("not root: the tests that open events were not run");
}
END_TEST

TCase *evt_tcase(const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, evt_setup, evt_teardown);
	tcase_set_timeout(tc, 30);
	return tc;
}

bool evt_root(Suite *s, TCase *tc)
{
	if (geteuid() == 0)
		return true;
	tcase_add_test(tc, test_not_root);
	suite_add_tcase(s, tc);
	return false;
}
