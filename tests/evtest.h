/* tests/evtest: what the suites that open events share (check_evlist,
 * check_catalog, check_pmu, check_cpus).
 *
 * The fixture (evt_setup, evt_teardown) logs what the libraries say
 * into evt_logged (one message a line) and counts the warnings. */
#ifndef PTOP_TESTS_EVTEST_H
#define PTOP_TESTS_EVTEST_H

#include <check.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "src/sys/catalog.h"
#include "src/sys/cpus.h"
#include "src/sys/pmu.h"
#include "src/core/events.h"
#include "src/sys/evlist.h"
#include "src/core/log.h"
#include "src/core/record.h"
#include "src/sys/synth.h"
#include "tests/testutil.h"

extern char evt_logged[8192];
extern int evt_nr_warn;
void evt_setup(void);
void evt_teardown(void);

/* The words of the call in progress (evlist__open, pmu__resolve, the
 * catalog's tracepoints), and what a caller shows of them: main logs
 * them (pr_err), so evt_said(call) puts them in evt_logged after the
 * notices, as a user sees them; it returns the call's value. */
extern struct strbuf evt_why;
int evt_said(int err);
/* evlist__open, its words shown so. */
int evt_open(struct evlist *el, const struct target *t);

/* Now on clk, in milliseconds. */
double evt_now_ms(clockid_t clk);
/* Burns ms of this thread's CPU time. */
void evt_burn(double ms);
/* The one spec of an event's name (the test fails if it does not parse). */
struct event_spec evt_spec_of(const char *name);
/* An evlist with events (NULL: none) added. */
struct evlist *evt_new_list(const char *events, u64 freq, u64 period,
			    unsigned int pages);

/* What evt_drain read, by kind; samples of pid are "mine". */
struct evt_tally {
	size_t samples, mine, other, bad;
	size_t per_event[4];
	size_t mmap2, comm, comm_exec, lost_records;
	u64 lost;
	pid_t pid;
};

/* Reads every ring of el to the end with the documented protocol. */
void evt_drain(struct evlist *el, struct evt_tally *t);
/* This process as the target (*pid: its pid, which the target points to). */
struct target evt_self_target(pid_t *pid);
int evt_nr_online(void);
void evt_rm_tree(const char *dir);
/* A fake /sys/bus/event_source/devices in dir (a mkdtemp template). */
void evt_fake_pmus(char *dir);

/* The suites' test case: the fixture, a 30 s timeout. */
TCase *evt_tcase(const char *name);
/* Whether the tests that open events can run (root); if not, tc gets a
 * test that skips by name and goes into s: the suite is done. */
bool evt_root(Suite *s, TCase *tc);

#endif
