/* Tests of pmu (src/sys/pmu.c): "pmu/terms/" events resolved
 * against a fake sysfs to the exact attr or an error that names them,
 * and opened for real through its software PMU. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tests/evtest.h"

/* The call, its words shown as main shows them (evt_said). */
static int resolve_in(const char *root, struct event_spec *spec)
{
	return evt_said(pmu__resolve(root, spec, &evt_why));
}

/* Resolves name against the fake tree: 0 and the attr, or the error. */
static int resolve(const char *root, const char *name,
		   struct perf_event_attr *attr)
{
	struct evlist_opts eo = { .pmu_root = root };
	struct event_spec s = evt_spec_of(name);
	int err;

	evt_logged[0] = '\0';
	err = resolve_in(eo.pmu_root, &s);
	if (!err) {
		struct event_spec again = s;

		/* resolving twice gives the same attr */
		ck_assert_int_eq(resolve_in(eo.pmu_root, &again), 0);
		ck_assert(!memcmp(&again.attr, &s.attr, sizeof(s.attr)));
		*attr = s.attr;
		ck_assert_str_eq(evt_logged, "");
	} else {
		/* every error says which event */
		ck_assert_msg(strstr(evt_logged, name), "'%s': %s", name, evt_logged);
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
		ck_assert_msg(strstr(evt_logged, says), "'%s': no '%s' in: %s",  \
			      name, says, evt_logged);                           \
	} while (0)

/* "pmu/terms/" against a fake sysfs: the exact attr, or the error. */
START_TEST(test_pmu_resolve)
{
	char dir[] = "/tmp/ptop-pmu-XXXXXX";
	struct perf_event_attr a;
	struct event_spec s;
	struct evlist_opts eo = { 0 };

	evt_fake_pmus(dir);
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
	s = evt_spec_of("fake/cycles,period=1000/");
	eo.pmu_root = dir;
	ck_assert_int_eq(resolve_in(eo.pmu_root, &s), 0);
	ck_assert_uint_eq(s.period, 1000);
	ck_assert_uint_eq(s.attr.config, 0x3c);
	/* anything but a PMU event: untouched */
	s = evt_spec_of("cpu-clock");
	a = s.attr;
	ck_assert_int_eq(resolve_in(eo.pmu_root, &s), 0);
	ck_assert(!memcmp(&a, &s.attr, sizeof(a)));

	ck_refused(dir, "nosuch/config=1/", -ENOENT, "unknown PMU 'nosuch'");
	ck_refused(dir, "badtype/config=1/", -EINVAL, "bad type 'four'");
	/* 0x1000 needs 13 bits; event has 12 */
	ck_refused(dir, "fake/event=0x1000/", -EINVAL,
		   "0x1000 does not fit in term 'event' of PMU 'fake' (12 bits");
	ck_refused(dir, "fake/umask=0x100/", -EINVAL, "does not fit");
	ck_refused(dir, "fake/inv=2/", -EINVAL, "does not fit");
	ck_refused(dir, "fake/nope=1/", -ENOENT, "PMU 'fake' has no term 'nope'");
	ck_assert_ptr_nonnull(strstr(evt_logged, "fake/format/nope"));
	ck_assert_ptr_nonnull(strstr(evt_logged, "event"));
	ck_refused(dir, "fake/nope/", -ENOENT,
		   "PMU 'fake' has no event alias or term 'nope'");
	ck_assert_ptr_nonnull(strstr(evt_logged, "cycles"));
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
	evt_rm_tree(dir);
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
	struct evt_tally t = { 0 };
	const struct perf_event_attr *a;
	pid_t pid;
	struct target tg = evt_self_target(&pid);
	size_t n = 0;

	evt_fake_pmus(dir);
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
	ck_assert_int_eq(evt_open(el, &tg), 0);
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
	evt_burn(60);
	evt_drain(el, &t);
	ck_assert_uint_gt(t.per_event[0], 5);
	/* 60 ms of CPU at one sample per 100 us */
	ck_assert_uint_gt(t.per_event[1], 100);
	ck_assert_uint_eq(t.bad, 0);
	evlist__free(el);

	/* a resolution error: evt_logged with the event, nothing opened */
	{
		struct evlist_opts o2 = { .freq = 1000, .mmap_pages = 8,
					  .pmu_root = dir };
		struct event_spec bad = evt_spec_of("nosuch/config=1/");
		struct event_spec big = evt_spec_of("soft/config=0,freq=100000000/");

		el = evlist__new(&o2);
		ck_assert_int_eq(evlist__add(el, &bad), 0);
		evt_logged[0] = '\0';
		ck_assert_int_eq(evt_open(el, &tg), -ENOENT);
		ck_assert_ptr_nonnull(strstr(evt_logged, "unknown PMU 'nosuch'"));
		ck_assert_uint_eq(evlist__nr_rings(el), 0);
		evlist__free(el);

		el = evlist__new(&o2);
		ck_assert_int_eq(evlist__add(el, &big), 0);
		ck_assert_int_eq(evt_open(el, &tg), -EINVAL);
		ck_assert_ptr_nonnull(strstr(evt_logged, "freq=100000000 is above"));
		evlist__free(el);
	}
	evt_rm_tree(dir);

	/* this machine's own sysfs: software/config=0/ is cpu-clock */
	el = evt_new_list("software/config=0/", 1000, 0, 8);
	ck_assert_int_eq(evt_open(el, &tg), 0);
	ck_assert_uint_eq(evlist__attr(el, 0)->type, PERF_TYPE_SOFTWARE);
	ck_assert_uint_eq(evlist__attr(el, 0)->config, 0);
	evlist__free(el);
	/* msr counts, it cannot sample: said so */
	if (access("/sys/bus/event_source/devices/msr/events/tsc", R_OK) == 0) {
		el = evt_new_list("msr/tsc/", 1000, 0, 8);
		evt_logged[0] = '\0';
		ck_assert_int_lt(evt_open(el, &tg), 0);
		ck_assert_msg(strstr(evt_logged, "msr/tsc/") &&
			      strstr(evt_logged, "can count it but not sample it"),
			      "%s", evt_logged);
		ck_assert_uint_eq(evlist__nr_rings(el), 0);
		evlist__free(el);
	}
}
END_TEST

Suite *pmu_suite(void);
Suite *pmu_suite(void)
{
	Suite *s = suite_create("pmu");
	TCase *tc = evt_tcase("pmu");

	tcase_add_test(tc, test_pmu_resolve);
	if (!evt_root(s, tc))
		return s;
	tcase_add_test(tc, test_pmu_open);
	suite_add_tcase(s, tc);
	return s;
}
