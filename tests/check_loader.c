/* check_loader: the symbolizer's worker thread and its jobs. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "symbols/loader.h"

/* A job that runs until its gate opens, so that the tests know where
 * the worker is. */
struct gate_job {
	struct loader_job lj;	/* first: the loader's pointer is ours */
	int *gate;		/* 0: closed */
	int *ran, *freed;	/* counters the test reads */
	int started;
	int id;
};

static void gate_run(struct loader_job *lj)
{
	struct gate_job *j = (struct gate_job *)lj;

	__atomic_store_n(&j->started, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(j->gate, __ATOMIC_ACQUIRE))
		usleep(1000);
	__atomic_add_fetch(j->ran, 1, __ATOMIC_RELEASE);
}

static void gate_free(struct loader_job *lj)
{
	struct gate_job *j = (struct gate_job *)lj;

	__atomic_add_fetch(j->freed, 1, __ATOMIC_RELEASE);
	free(j);
}

/* Each test's loader and the counters its jobs share (a fixture). */
static struct loader *l;
static int gate, ran, freed;

static void setup(void)
{
	gate = ran = freed = 0;
	l = loader__new(1);
	ck_assert_ptr_nonnull(l);
}

static void teardown(void)
{
	loader__free(l);	/* NULL when the test freed it */
}

/* Job id, queued on l (submit) or not yet. */
static struct gate_job *gate_job(int id, bool submit)
{
	struct gate_job *j = calloc(1, sizeof(*j));

	ck_assert_ptr_nonnull(j);
	j->lj.run = gate_run;
	j->lj.free = gate_free;
	j->gate = &gate;
	j->ran = &ran;
	j->freed = &freed;
	j->id = id;
	if (submit)
		ck_assert_int_eq(loader__submit(l, &j->lj), 0);
	return j;
}

static void open_gate(void)
{
	__atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void wait_count(int *n, int want)
{
	for (int i = 0; i < 5000 && __atomic_load_n(n, __ATOMIC_ACQUIRE) < want;
	     i++)
		usleep(1000);
	ck_assert_int_eq(__atomic_load_n(n, __ATOMIC_ACQUIRE), want);
}

/* Jobs run in order, off the caller's thread; waits end at their
 * deadline or stop request with -EAGAIN, and with 0 once run is over. */
START_TEST(test_loader_wait)
{
	volatile sig_atomic_t stop = 0;
	struct gate_job *a = gate_job(0, true), *b = gate_job(1, true);
	double t0;

	ck_assert(!loader__done(l, &a->lj));
	/* a deadline already past: no wait */
	ck_assert_int_eq(loader__wait(l, &a->lj, 1.0, NULL), -EAGAIN);
	t0 = now();
	ck_assert_int_eq(loader__wait(l, &a->lj, t0 + 0.05, NULL), -EAGAIN);
	ck_assert(now() - t0 >= 0.04);
	/* a stop request ends a wait with no deadline */
	stop = 1;
	ck_assert_int_eq(loader__wait(l, &a->lj, 0, &stop), -EAGAIN);
	stop = 0;
	ck_assert_uint_eq(loader__finished(l), 0);
	open_gate();
	ck_assert_int_eq(loader__wait(l, &b->lj, 0, &stop), 0);
	ck_assert(loader__done(l, &a->lj));
	ck_assert_int_eq(ran, 2);
	ck_assert_uint_eq(loader__finished(l), 2);
	/* done jobs are the caller's: cancel frees them at once */
	loader__cancel(l, &a->lj);
	loader__cancel(l, &b->lj);
	ck_assert_int_eq(freed, 2);
}
END_TEST

/* Giving up: a queued job is freed at once and never runs, the one
 * running is freed by the worker when it ends. */
START_TEST(test_loader_cancel)
{
	struct gate_job *a = gate_job(0, true), *b = gate_job(1, true);
	struct gate_job *c = gate_job(2, true);

	loader__cancel(l, &b->lj);
	ck_assert_int_eq(freed, 1);
	/* a is running: its free waits for its end */
	wait_count(&a->started, 1);
	loader__cancel(l, &a->lj);
	open_gate();
	ck_assert_int_eq(loader__wait(l, &c->lj, 0, NULL), 0);
	wait_count(&freed, 2);
	ck_assert_int_eq(ran, 2);	/* a and c */
	loader__cancel(l, &c->lj);
	ck_assert_int_eq(freed, 3);
}
END_TEST

/* loader__free does not wait for the job under way (a load of a second
 * or more): it returns at once, and the worker frees the job, then the
 * loader, when the job ends.  Queued jobs are freed unrun. */
START_TEST(test_loader_free_busy)
{
	struct gate_job *a = gate_job(0, true);
	double t0;

	gate_job(1, true);
	/* the worker holds a */
	wait_count(&a->started, 1);
	t0 = now();
	loader__free(l);
	l = NULL;
	ck_assert(now() - t0 < 0.5);
	ck_assert_int_eq(freed, 1);	/* the second, unrun */
	open_gate();
	wait_count(&freed, 2);
	ck_assert_int_eq(ran, 1);
	/* the worker's exit is not observable here; ASan/LSan runs of the
	 * suite see what it frees */
	usleep(20000);
}
END_TEST

/* With two workers two jobs run at once (a third waits for one of
 * them), and loader__free leaves both running jobs to end alone. */
START_TEST(test_loader_parallel)
{
	struct gate_job *a, *b, *c;
	double t0;

	loader__free(l);
	l = loader__new(2);
	ck_assert_ptr_nonnull(l);
	a = gate_job(0, true);
	b = gate_job(1, true);
	c = gate_job(2, true);
	/* both held by the gate: the second worker took b */
	wait_count(&a->started, 1);
	wait_count(&b->started, 1);
	usleep(20000);
	ck_assert_int_eq(__atomic_load_n(&c->started, __ATOMIC_ACQUIRE), 0);
	t0 = now();
	loader__free(l);
	l = NULL;
	ck_assert(now() - t0 < 0.5);
	ck_assert_int_eq(freed, 1);	/* c, unrun */
	open_gate();
	wait_count(&freed, 3);
	ck_assert_int_eq(ran, 2);
	usleep(20000);
}
END_TEST

/* An order log for the jobs of test_loader_urgent */
static int order[8], nr_order;

static void order_run(struct loader_job *lj)
{
	struct gate_job *j = (struct gate_job *)lj;

	gate_run(lj);
	order[nr_order++] = j->id;
}

/* Urgent jobs run before the queued ones that are not, in order among
 * themselves. */
START_TEST(test_loader_urgent)
{
	struct gate_job *j[5];

	for (int i = 0; i < 5; i++) {
		j[i] = gate_job(i, false);
		j[i]->lj.run = order_run;
		j[i]->lj.urgent = i == 2 || i == 4;
	}
	ck_assert_int_eq(loader__submit(l, &j[0]->lj), 0);
	wait_count(&j[0]->started, 1);	/* the worker holds j0 */
	for (int i = 1; i < 5; i++)
		ck_assert_int_eq(loader__submit(l, &j[i]->lj), 0);
	open_gate();
	ck_assert_int_eq(loader__wait(l, &j[3]->lj, 0, NULL), 0);
	ck_assert_int_eq(loader__wait(l, &j[1]->lj, 0, NULL), 0);
	/* j0 (running), then the urgent j2 and j4, then j1 and j3 */
	ck_assert_int_eq(nr_order, 5);
	ck_assert_int_eq(order[0], 0);
	ck_assert_int_eq(order[1], 2);
	ck_assert_int_eq(order[2], 4);
	ck_assert_int_eq(order[3], 1);
	ck_assert_int_eq(order[4], 3);
	for (int i = 0; i < 5; i++)
		loader__cancel(l, &j[i]->lj);
	ck_assert_int_eq(freed, 5);
}
END_TEST

START_TEST(test_loader_free_idle)
{
	struct gate_job *a = gate_job(0, false);

	open_gate();
	loader__free(NULL);
	ck_assert_int_eq(loader__submit(NULL, &a->lj), -EINVAL);
	ck_assert_int_eq(loader__submit(l, &a->lj), 0);
	ck_assert_int_eq(loader__wait(l, &a->lj, 0, NULL), 0);
	loader__cancel(l, &a->lj);
	ck_assert_int_eq(freed, 1);
	loader__free(l);	/* joins the idle worker */
	l = NULL;
	ck_assert_int_eq(loader__finished(NULL), 0);
}
END_TEST

Suite *loader_suite(void);
/* A job whose file is cut while it reads its mapping (as libelf reads a
 * binary another user truncates): on the worker and on the caller's
 * thread, the job ends faulted, the process lives. */
struct cut_job {
	struct loader_job lj;
	const char *path;
	volatile char got;
	bool after;	/* the job went on past the fault: never */
};

static void cut_run(struct loader_job *lj)
{
	struct cut_job *j = (struct cut_job *)lj;
	int fd = open(j->path, O_RDONLY | O_CLOEXEC);
	const volatile char *map;

	ck_assert_int_ge(fd, 0);
	map = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	ck_assert(map != MAP_FAILED);
	ck_assert_int_eq(truncate(j->path, 0), 0);
	j->got = map[4096];
	j->after = true;
}

static void cut_free(struct loader_job *lj)
{
	free(lj);
}

START_TEST(test_loader_fault)
{
	char path[] = "/tmp/ptop-loader-XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	for (int here = 0; here < 2; here++) {
		struct cut_job *j = calloc(1, sizeof(*j));

		ck_assert_int_eq(ftruncate(fd, 8192), 0);
		ck_assert_ptr_nonnull(j);
		j->lj.run = cut_run;
		j->lj.free = cut_free;
		j->path = path;
		if (here) {
			loader__run_here(&j->lj);
		} else {
			ck_assert_int_eq(loader__submit(l, &j->lj), 0);
			ck_assert_int_eq(loader__wait(l, &j->lj, 0, NULL), 0);
		}
		ck_assert(j->lj.faulted);
		ck_assert(!j->after);
		cut_free(&j->lj);
	}
	close(fd);
	unlink(path);
}
END_TEST

Suite *loader_suite(void)
{
	Suite *s = suite_create("loader");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_loader_wait);
	tcase_add_test(tc, test_loader_cancel);
	tcase_add_test(tc, test_loader_free_busy);
	tcase_add_test(tc, test_loader_free_idle);
	tcase_add_test(tc, test_loader_urgent);
	tcase_add_test(tc, test_loader_parallel);
	tcase_add_test(tc, test_loader_fault);
	suite_add_tcase(s, tc);
	return s;
}
