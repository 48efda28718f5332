/* Tests of catalog (src/sys/catalog.c): tracepoint globs expanded
 * against a fake tracefs, and the events listed (-l) exactly when they
 * open, with the PMUs' aliases of a fake sysfs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tests/evtest.h"

static int expand(const char *tracefs, struct event_spec **specs, size_t *n)
{
	return evt_said(catalog__expand_tracepoints(tracefs, specs, n,
						    &evt_why));
}

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
	ck_assert_int_eq(expand(eo.tracefs, &specs, &n), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_str_eq(specs[0].name, "cpu-clock");
	ck_assert_str_eq(specs[1].name, "sched:sched_switch");
	ck_assert_str_eq(specs[2].name, "sched:sched_wakeup");
	ck_assert_str_eq(specs[3].name, "irq:irq_handler_entry");
	ck_assert_str_eq(specs[4].name, "irq:softirq_entry");
	for (size_t i = 1; i < n; i++)
		ck_assert(specs[i].tracepoint && !specs[i].tp_glob);
	/* nothing to expand: unchanged */
	ck_assert_int_eq(expand(eo.tracefs, &specs, &n), 0);
	ck_assert_uint_eq(n, 5);
	free(specs);

	/* no match: the glob is named, the specs are left alone */
	specs = NULL;
	n = 0;
	ck_assert_int_eq(events__parse("sched:nothing*", &specs, &n, NULL), 0);
	ck_assert_int_eq(expand(eo.tracefs, &specs, &n), -ENOENT);
	ck_assert_ptr_nonnull(strstr(evt_logged, "no tracepoint matches 'sched:nothing*'"));
	ck_assert_uint_eq(n, 1);
	free(specs);
	evt_rm_tree(dir);

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
		ck_assert_int_eq(expand(eo.tracefs, &specs, &n),
				 -E2BIG);
		ck_assert_ptr_nonnull(strstr(evt_logged, "matches 65 tracepoints"));
		free(specs);
		specs = NULL;
		n = 0;
		ck_assert_int_eq(events__parse("many:ev0[0-5]?", &specs, &n,
					       NULL), 0);
		ck_assert_int_eq(expand(eo.tracefs, &specs, &n), 0);
		ck_assert_uint_eq(n, 60);
		free(specs);
		evt_rm_tree(dir2);
	}
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
	struct evlist *el = evt_new_list("cycles", 1000, 0, 8);
	pid_t pid;
	struct target tg = evt_self_target(&pid);
	bool cycles_opens;

	ck_assert_int_eq(catalog__list_events(NULL, NULL, on_listed, &l), 0);
	ck_assert(l.cpu_clock);
	ck_assert(l.sched_switch);
	ck_assert_uint_gt(l.n, 100);
	/* listed exactly when it opens */
	cycles_opens = evt_said(evlist__open(el, &tg, &evt_why)) == 0;
	ck_assert_int_eq(l.cycles, cycles_opens);
	evlist__free(el);
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

	evt_fake_pmus(dir);
	eo.pmu_root = dir;
	evt_logged[0] = '\0';
	ck_assert_int_eq(catalog__list_events(eo.tracefs, eo.pmu_root, on_listed_pmu, &l), 0);
	ck_assert(l.clock && l.alias2);
	ck_assert(!l.scale && !l.gone);
	/* the broken aliases are left out quietly */
	ck_assert_ptr_null(strstr(evt_logged, "fake/"));
	evt_rm_tree(dir);
	/* no PMU directory at all: nothing to list, not an error */
	eo.pmu_root = "/nonexistent";
	ck_assert_int_eq(catalog__list_events(eo.tracefs, eo.pmu_root, on_listed_pmu, &l), 0);
}
END_TEST

Suite *catalog_suite(void);
Suite *catalog_suite(void)
{
	Suite *s = suite_create("catalog");
	TCase *tc = evt_tcase("catalog");

	if (!evt_root(s, tc))
		return s;
	tcase_add_test(tc, test_expand_tracepoints);
	tcase_add_test(tc, test_list_events);
	tcase_add_test(tc, test_pmu_list);
	suite_add_tcase(s, tc);
	return s;
}
