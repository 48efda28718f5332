/* sampler: the live source; opens the events, reads the per-CPU rings in
 * its own thread and feeds the session (and an optional record sink). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "src/core/log.h"
#include "src/core/record.h"
#include "src/sys/cgroupfs.h"
#include "src/sys/fdio.h"
#include "src/sys/sampler.h"
#include "src/sys/synth.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434	/* the same on every architecture */
#endif

struct sampler {
	struct session *session;
	struct sampler_opts opts;
	struct evlist *evlist;
	struct event_spec *specs;
	size_t nr_specs;
	size_t *sess_ev;	/* session index of evlist event i */
	size_t nr_sess_ev;
	size_t offcpu_ev;	/* --off-cpu's session event + 1, 0: none */
	size_t wall_ev;		/* --wall's, the same */

	struct target target;
	pid_t *target_pids;	/* owned copy of target.pids */
	/* pidfds of -p's processes, opened on the first check: -1 where
	 * there is none (a thread, an old kernel, a test's /proc), -2 not
	 * tried yet */
	int *pidfds;
	bool cpus[PTOP_MAX_CPUS];
	bool has_cpus;

	pthread_t thread;
	bool running;
	int stop;		/* atomic */
	int wake[2];		/* wakes the thread up to stop */
	bool paused;

	pid_t child;		/* spawned command, 0: none */
	char *child_name;	/* its argv[0], for messages */
	int go_fd;		/* write end: lets the child exec */
	int err_fd;		/* read end: errno of a failed exec */
	bool child_reaped;

	/* processes read from /proc as their first sample comes */
	struct synth *synth;

	/* ring counters already handed to the session */
	u64 *seen_bad, *seen_bytes;
	size_t nr_seen;
};

struct sampler *sampler__new(struct session *s, const struct sampler_opts *o)
{
	struct sampler *sp = calloc(1, sizeof(*sp));

	if (!sp)
		return NULL;
	sp->session = s;
	sp->opts = *o;
	if (!sp->opts.proc)
		sp->opts.proc = "/proc";
	if (sp->opts.poll_ms <= 0)
		sp->opts.poll_ms = 100;
	sp->wake[0] = sp->wake[1] = -1;
	sp->go_fd = sp->err_fd = -1;
	if (pipe2(sp->wake, O_CLOEXEC | O_NONBLOCK)) {
		free(sp);
		return NULL;
	}
	return sp;
}

/*
 * The command ptop started ends with ptop: it gets SIGTERM and a second to
 * exit, then SIGKILL, like timeout(1).  One that never got to exec is
 * killed at once.
 */
static void sampler__end_child(struct sampler *sp)
{
	if (sp->child <= 0 || sp->child_reaped)
		return;
	if (sp->go_fd < 0) {
		kill(sp->child, SIGTERM);
		for (int i = 0; i < 50; i++) {
			struct timespec ts = { 0, 20 * 1000 * 1000 };

			if (waitpid(sp->child, NULL, WNOHANG) == sp->child) {
				sp->child_reaped = true;
				return;
			}
			nanosleep(&ts, NULL);
		}
	}
	kill(sp->child, SIGKILL);
	waitpid(sp->child, NULL, 0);
	sp->child_reaped = true;
}

static void sampler__close_pidfds(struct sampler *sp)
{
	for (size_t i = 0; sp->pidfds && i < sp->target.nr_pids; i++)
		if (sp->pidfds[i] >= 0)
			close(sp->pidfds[i]);
	free(sp->pidfds);
	sp->pidfds = NULL;
}

void sampler__free(struct sampler *sp)
{
	if (!sp)
		return;
	sampler__stop(sp);
	sampler__end_child(sp);
	if (sp->go_fd >= 0)
		close(sp->go_fd);
	if (sp->err_fd >= 0)
		close(sp->err_fd);
	close(sp->wake[0]);
	close(sp->wake[1]);
	evlist__free(sp->evlist);
	synth__free(sp->synth);
	free(sp->specs);
	free(sp->child_name);
	free(sp->sess_ev);
	sampler__close_pidfds(sp);
	free(sp->target_pids);
	free(sp->seen_bad);
	free(sp->seen_bytes);
	free(sp);
}

int sampler__set_events(struct sampler *sp, const struct event_spec *specs,
			size_t nr)
{
	struct event_spec *copy;

	if (!nr) {
		copy = calloc(1, sizeof(*copy));
		if (!copy)
			return -ENOMEM;
		events__default(copy);
		nr = 1;
	} else {
		copy = malloc(nr * sizeof(*copy));
		if (!copy)
			return -ENOMEM;
		memcpy(copy, specs, nr * sizeof(*copy));
	}
	free(sp->specs);
	sp->specs = copy;
	sp->nr_specs = nr;
	return 0;
}

pid_t sampler__spawn(struct sampler *sp, char *const argv[],
		     const struct spawn_io *io)
{
	int go[2], err[2];
	pid_t pid, parent = getpid();

	free(sp->child_name);
	sp->child_name = strdup(argv[0] ? argv[0] : "");
	if (!sp->child_name)
		return -ENOMEM;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		int e = -errno;

		close(go[0]);
		close(go[1]);
		return e;
	}
	pid = fork();
	if (pid < 0) {
		int e = -errno;

		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return e;
	}
	if (pid == 0) {
		char c;
		int e;

		close(go[1]);
		close(err[0]);
		/* It dies with ptop, even of SIGKILL (which no handler of
		 * ptop's sees), and not after: a parent already gone is
		 * init or a subreaper by now.  (Cleared by the exec of a
		 * set-user-ID program, as the kernel does.) */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		/* Wait until the events are open: the first instruction of
		 * the command must be counted.  EOF means ptop gave up. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		if (io && ((io->in >= 0 && dup2(io->in, STDIN_FILENO) < 0) ||
			   (io->out >= 0 && dup2(io->out, STDOUT_FILENO) < 0) ||
			   (io->err >= 0 && dup2(io->err, STDERR_FILENO) < 0))) {
			e = errno;
			if (write(err[1], &e, sizeof(e)) < 0)
				_exit(127);
			_exit(127);
		}
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	sp->child = pid;
	sp->go_fd = go[1];
	sp->err_fd = err[0];
	sp->child_reaped = false;
	return pid;
}

/* Lets the spawned child exec; -errno (why in why) if the exec failed. */
static int sampler__release_child(struct sampler *sp, const char *argv0,
				  struct strbuf *why)
{
	ssize_t n;
	int e = 0;

	if (sp->go_fd < 0)
		return 0;
	if (write(sp->go_fd, "g", 1) != 1)
		e = errno;
	close(sp->go_fd);
	sp->go_fd = -1;
	if (e)
		return -e;
	/* The error pipe is close-on-exec: EOF means the exec worked. */
	do {
		n = read(sp->err_fd, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(sp->err_fd);
	sp->err_fd = -1;
	if (n == sizeof(e)) {
		strbuf__addf(why, "cannot run '%s': %s",
			     argv0 ? argv0 : "command", strerror(e));
		waitpid(sp->child, NULL, 0);
		sp->child_reaped = true;
		return -e;
	}
	return 0;
}

static int sampler__feed(void *ctx, const struct perf_event_header *h)
{
	struct sampler *sp = ctx;

	session__process(sp->session, h);
	if (sp->opts.sink) {
		/* what the file gets: -g's recovered chains (session.h) */
		const struct perf_event_header *out =
			session__output(sp->session, h);

		if (out)
			sp->opts.sink(sp->opts.sink_ctx, out);
	}
	return 0;
}

/* The session met a pid it never heard of: read it from /proc. */
static void sampler__unknown_pid(void *ctx, struct session *s, s32 pid)
{
	struct sampler *sp = ctx;

	(void)s;
	if (pid <= 0 || !sp->evlist || !evlist__nr_events(sp->evlist))
		return;
	if (!sp->synth)
		sp->synth = synth__new(sp->opts.proc);
	if (sp->synth)
		synth__process(sp->synth, pid, evlist__attr(sp->evlist, 0),
			       sampler__feed, sp);
}

/* The session wants a process's cgroup (once per process). */
static int sampler__cgroup(void *ctx, s32 pid, char *buf, size_t size)
{
	struct sampler *sp = ctx;

	return synth__cgroup(sp->opts.proc, pid, buf, size);
}

/* What the live source answers the session (session.h). */
static const struct session_source_ops sampler__source_ops = {
	.unknown_pid = sampler__unknown_pid,
	.cgroup = sampler__cgroup,
};

/* One pass over every ring: records merged in time order across CPUs,
 * so that a COMM or MMAP2 read from one CPU's ring applies before the
 * samples that follow it on another. */
static void sampler__drain(struct sampler *sp)
{
	size_t n = evlist__nr_rings(sp->evlist);
	struct ring *rings[n ? n : 1];
	u64 next_time[n ? n : 1];
	const struct perf_event_header *next[n ? n : 1];
	struct session *s = sp->session;
	bool fed = false;

	struct timespec now;
	bool offcpu = evlist__has_offcpu(sp->evlist);

	/* before the rings: every record of an earlier time is read in
	 * this pass (--off-cpu charges waits up to it) */
	if (offcpu)
		clock_gettime(CLOCK_MONOTONIC, &now);
	for (size_t i = 0; i < n; i++) {
		rings[i] = evlist__ring(sp->evlist, i);
		ring__read_init(rings[i]);
	}
	session__lock(s);
	for (size_t i = 0; i < n; i++) {
		next[i] = ring__peek(rings[i]);
		next_time[i] = next[i] ? session__record_time(s, next[i]) : 0;
	}
	for (;;) {
		size_t best = n;

		for (size_t i = 0; i < n; i++)
			if (next[i] && (best == n || next_time[i] < next_time[best]))
				best = i;
		if (best == n)
			break;
		next[best] = ring__next(rings[best]);
		if (next[best]) {
			sampler__feed(sp, next[best]);
			fed = true;
		}
		next[best] = ring__peek(rings[best]);
		next_time[best] = next[best] ?
				  session__record_time(s, next[best]) : 0;
	}
	if (offcpu)
		session__set_clock(s, (u64)now.tv_sec * 1000000000ULL +
					      (u64)now.tv_nsec);
	if (fed && sp->opts.sink) {
		/* perf's round marker: a writer's reader sorts records
		 * between two of them (no record of a later pass is older
		 * than one of the pass before the last) */
		static const struct perf_event_header round = {
			.type = PERF_RECORD_FINISHED_ROUND,
			.size = sizeof(round),
		};

		sp->opts.sink(sp->opts.sink_ctx, &round);
	}
	for (size_t i = 0; i < n && i < sp->nr_seen; i++) {
		struct ring *r = rings[i];
		u64 bad = r->bad_records + r->lapped;

		ring__consume(r);
		if (bad != sp->seen_bad[i] || r->dropped_bytes != sp->seen_bytes[i]) {
			session__ring_dropped(s, bad - sp->seen_bad[i],
					      r->dropped_bytes - sp->seen_bytes[i]);
			sp->seen_bad[i] = bad;
			sp->seen_bytes[i] = r->dropped_bytes;
		}
	}
	session__unlock(s);
}

static void *sampler__thread(void *arg)
{
	struct sampler *sp = arg;
	size_t n = evlist__nr_rings(sp->evlist);
	struct pollfd *pfd = calloc(n + 1, sizeof(*pfd));

	if (!pfd) {
		pr_err("out of memory in the sampling thread");
		return NULL;
	}
	pfd[0].fd = sp->wake[0];
	pfd[0].events = POLLIN;
	for (size_t i = 0; i < n; i++) {
		pfd[i + 1].fd = evlist__ring_fd(sp->evlist, i);
		pfd[i + 1].events = POLLIN;
	}
	while (!__atomic_load_n(&sp->stop, __ATOMIC_ACQUIRE)) {
		int r = poll(pfd, n + 1, sp->opts.poll_ms);

		if (r < 0 && errno != EINTR)
			break;
		for (size_t i = 1; r > 0 && i <= n; i++) {
			/* A per-thread event whose task exited reports
			 * POLLHUP forever: stop polling it, keep reading
			 * its ring on the timeout. */
			if (pfd[i].revents & (POLLHUP | POLLERR | POLLNVAL))
				pfd[i].fd = -1;
		}
		if (pfd[0].revents & POLLIN) {
			char buf[64];

			while (read(sp->wake[0], buf, sizeof(buf)) > 0)
				;
		}
		sampler__drain(sp);
	}
	sampler__drain(sp);
	free(pfd);
	return NULL;
}

static int sampler__register(struct sampler *sp)
{
	size_t n = evlist__nr_events(sp->evlist);
	struct session *s = sp->session;
	int err = 0;

	session__lock(s);
	for (size_t i = 0; i < n && !err; i++) {
		const struct perf_event_attr *attr = evlist__attr(sp->evlist, i);
		const u64 *ids;
		size_t nr_ids;

		if (i < sp->nr_sess_ev) {
			err = session__set_attr(s, sp->sess_ev[i], attr);
		} else {
			int idx = session__add_event(
				s, evlist__event_name(sp->evlist, i), attr);
			size_t *p;

			if (idx < 0) {
				err = idx;
				break;
			}
			p = realloc(sp->sess_ev, (i + 1) * sizeof(*p));
			if (!p) {
				err = -ENOMEM;
				break;
			}
			sp->sess_ev = p;
			sp->sess_ev[i] = (size_t)idx;
			sp->nr_sess_ev = i + 1;
		}
		ids = evlist__ids(sp->evlist, i, &nr_ids);
		for (size_t j = 0; j < nr_ids && !err; j++)
			err = session__add_id(s, sp->sess_ev[i], ids[j]);
		/* --off-cpu: the waits are an event of their own */
		if (!err && i < sp->nr_specs && sp->specs[i].offcpu &&
		    !sp->offcpu_ev) {
			const struct event_spec *es = evlist__spec(sp->evlist, i);
			int d = session__add_offcpu(s, sp->sess_ev[i], "off-cpu");

			if (d < 0) {
				err = d;
			} else {
				sp->offcpu_ev = (size_t)d + 1;
				session__set_switch_state(s, es->state_off,
							  es->state_size);
			}
		}
	}
	/* --wall: the on-CPU event's samples and every wait */
	for (size_t i = 0; i < n && !err && sp->offcpu_ev && !sp->wall_ev; i++) {
		int d;

		if (i >= sp->nr_specs || !sp->specs[i].wall_cpu)
			continue;
		d = session__add_wall(s, sp->sess_ev[i], "wall");
		if (d < 0)
			err = d;
		else
			sp->wall_ev = (size_t)d + 1;
	}
	session__unlock(s);
	return err;
}

static int sampler__synthesize(struct sampler *sp)
{
	const struct perf_event_attr *attr = evlist__attr(sp->evlist, 0);
	struct session *s = sp->session;
	int err = 0;

	session__lock(s);
	/* the cgroups the samples' ids name (-o) */
	if (attr->sample_type & PERF_SAMPLE_CGROUP)
		cgroupfs__synthesize(NULL, attr, sampler__feed, sp);
	switch (sp->target.kind) {
	case TARGET_SYSTEM:
		/*
		 * Live, the processes are read from /proc when their first
		 * sample comes (sampler__unknown_pid): on a busy machine
		 * reading every process's maps and every mapped file's
		 * build-id delayed the first table by seconds and held
		 * what no row showed.  A perf.data file gets every process
		 * first, as perf record writes it: its readers expect the
		 * maps before the samples.
		 */
		if (!sp->opts.sink)
			break;
		err = synth__processes(sp->opts.proc, -1, attr, sampler__feed,
				       sp);
		break;
	case TARGET_TIDS:
		err = synth__processes(sp->opts.proc, -1, attr, sampler__feed,
				       sp);
		break;
	case TARGET_PIDS:
		/* A pid that is already gone must not hide the others. */
		for (size_t i = 0; i < sp->target.nr_pids; i++) {
			int e = synth__processes(sp->opts.proc,
						 sp->target.pids[i], attr,
						 sampler__feed, sp);

			if (e && e != -ESRCH && e != -ENOENT && !err)
				err = e;
		}
		break;
	case TARGET_COMMAND:
		/* Not exec'd yet: its COMM and MMAP2 records come from the
		 * kernel at exec. */
		break;
	}
	session__unlock(s);
	return err;
}

static int sampler__copy_target(struct sampler *sp, const struct target *t)
{
	pid_t *pids = NULL;

	sampler__close_pidfds(sp);
	if (t->nr_pids) {
		pids = malloc(t->nr_pids * sizeof(*pids));
		if (!pids)
			return -ENOMEM;
		memcpy(pids, t->pids, t->nr_pids * sizeof(*pids));
	}
	free(sp->target_pids);
	sp->target_pids = pids;
	sp->target = *t;
	sp->target.pids = pids;
	if (t->cpus) {
		memcpy(sp->cpus, t->cpus, sizeof(sp->cpus));
		sp->target.cpus = sp->cpus;
	}
	return 0;
}

/* Opens a fresh evlist for the current specs and target. */
static int sampler__open(struct sampler *sp, struct strbuf *why)
{
	struct evlist *el = evlist__new(&sp->opts.ev);
	size_t n;
	int err;

	if (!el)
		return -ENOMEM;
	for (size_t i = 0; i < sp->nr_specs; i++) {
		err = evlist__add(el, &sp->specs[i]);
		if (err)
			goto fail;
	}
	err = evlist__open(el, &sp->target, why);
	if (err)
		goto fail;
	/* A default cycles that fell back stays cpu-clock: reopening (p, e)
	 * must not try it, and warn about it, again. */
	for (size_t i = 0; i < sp->nr_specs && i < evlist__nr_events(el); i++)
		if (sp->specs[i].is_default &&
		    evlist__attr(el, i)->type != sp->specs[i].attr.type)
			events__fallback(&sp->specs[i]);
	evlist__free(sp->evlist);
	sp->evlist = el;
	n = evlist__nr_rings(el);
	free(sp->seen_bad);
	free(sp->seen_bytes);
	sp->seen_bad = calloc(n ? n : 1, sizeof(u64));
	sp->seen_bytes = calloc(n ? n : 1, sizeof(u64));
	if (!sp->seen_bad || !sp->seen_bytes)
		return -ENOMEM;
	sp->nr_seen = n;
	return 0;
fail:
	evlist__free(el);
	return err;
}

static int sampler__run(struct sampler *sp, struct strbuf *why)
{
	int err;

	__atomic_store_n(&sp->stop, 0, __ATOMIC_RELEASE);
	err = pthread_create(&sp->thread, NULL, sampler__thread, sp);
	if (err) {
		strbuf__addf(why, "cannot start the sampling thread: %s",
			     strerror(err));
		return -err;
	}
	sp->running = true;
	return 0;
}

int sampler__start(struct sampler *sp, const struct target *t,
		   struct strbuf *why)
{
	int err;

	if (!sp->nr_specs && (err = sampler__set_events(sp, NULL, 0)))
		return err;
	if ((err = sampler__copy_target(sp, t)))
		return err;
	err = sampler__open(sp, why);
	if (err)
		return err;
	err = sampler__register(sp);
	if (err)
		return err;
	session__set_source_ops(sp->session, &sampler__source_ops, sp);
	/* After the events are enabled, so that nothing falls between
	 * what /proc says and what the rings will say. */
	err = sampler__synthesize(sp);
	if (err && err != -ESRCH && err != -ENOENT)
		pr_warn("reading /proc: %s", strerror(-err));
	err = sampler__run(sp, why);
	if (err)
		return err;
	return sampler__release_child(sp, sp->child_name, why);
}

void sampler__stop(struct sampler *sp)
{
	if (!sp->running)
		return;
	__atomic_store_n(&sp->stop, 1, __ATOMIC_RELEASE);
	if (write(sp->wake[1], "x", 1) < 0) {
		/* a full pipe already wakes the thread */
	}
	pthread_join(sp->thread, NULL);
	sp->running = false;
}

int sampler__pause(struct sampler *sp, bool paused)
{
	int err;

	if (!sp->evlist || paused == sp->paused)
		return 0;
	err = paused ? evlist__disable(sp->evlist) : evlist__enable(sp->evlist);
	if (!err)
		sp->paused = paused;
	return err;
}

bool sampler__paused(const struct sampler *sp)
{
	return sp->paused;
}

/* Stop, reopen with the current specs and target, restart. */
static int sampler__reopen(struct sampler *sp, struct strbuf *why)
{
	int err;

	sampler__stop(sp);
	err = sampler__open(sp, why);
	if (err)
		return err;
	err = sampler__register(sp);
	if (err)
		return err;
	err = sampler__synthesize(sp);
	if (err && err != -ESRCH && err != -ENOENT)
		pr_warn("reading /proc: %s", strerror(-err));
	sp->paused = false;
	return sampler__run(sp, why);
}

/* Back to what worked after a failed change: best effort, and no caller
 * waits on its words (the change's failure is what it is told), so a
 * failure here is logged. */
static void sampler__restore(struct sampler *sp)
{
	struct strbuf why;

	strbuf__init(&why);
	if (sampler__reopen(sp, &why) && why.buf)
		pr_err("%s", why.buf);
	strbuf__fini(&why);
}

int sampler__retarget(struct sampler *sp, const struct target *t,
		      struct strbuf *why)
{
	struct target old = sp->target;
	pid_t *old_pids = NULL;
	int err;

	if (old.nr_pids) {
		old_pids = malloc(old.nr_pids * sizeof(*old_pids));
		if (!old_pids)
			return -ENOMEM;
		memcpy(old_pids, old.pids, old.nr_pids * sizeof(*old_pids));
		old.pids = old_pids;
	}
	err = sampler__copy_target(sp, t);
	if (!err)
		err = sampler__reopen(sp, why);
	if (err) {
		/* Back to what worked. */
		if (sampler__copy_target(sp, &old) == 0)
			sampler__restore(sp);
	}
	free(old_pids);
	return err;
}

int sampler__add_event(struct sampler *sp, const struct event_spec *spec,
		       bool replace_current, size_t current,
		       struct strbuf *why)
{
	struct event_spec *specs = malloc((sp->nr_specs + 1) * sizeof(*specs));
	struct event_spec *old = sp->specs;
	size_t old_nr = sp->nr_specs, *old_map = NULL, old_nr_map = sp->nr_sess_ev;
	int err;

	if (!specs)
		return -ENOMEM;
	memcpy(specs, sp->specs, sp->nr_specs * sizeof(*specs));
	if (sp->nr_sess_ev) {
		old_map = malloc(sp->nr_sess_ev * sizeof(*old_map));
		if (!old_map) {
			free(specs);
			return -ENOMEM;
		}
		memcpy(old_map, sp->sess_ev, sp->nr_sess_ev * sizeof(*old_map));
	}
	if (replace_current && current < sp->nr_specs) {
		/* The replaced event keeps its session histogram (the view
		 * may still show it) but is no longer sampled. */
		memmove(&specs[current], &specs[current + 1],
			(sp->nr_specs - current - 1) * sizeof(*specs));
		memmove(&sp->sess_ev[current], &sp->sess_ev[current + 1],
			(sp->nr_sess_ev - current - 1) * sizeof(*sp->sess_ev));
		sp->nr_specs--;
		sp->nr_sess_ev--;
	}
	specs[sp->nr_specs++] = *spec;
	sp->specs = specs;
	err = sampler__reopen(sp, why);
	if (err) {
		sp->specs = old;
		sp->nr_specs = old_nr;
		memcpy(sp->sess_ev, old_map, old_nr_map * sizeof(*old_map));
		sp->nr_sess_ev = old_nr_map;
		free(specs);
		sampler__restore(sp);
	} else {
		free(old);
	}
	free(old_map);
	return err;
}

size_t sampler__nr_events(const struct sampler *sp)
{
	return sp->nr_sess_ev + (sp->offcpu_ev != 0) + (sp->wall_ev != 0);
}

size_t sampler__nr_sampled(const struct sampler *sp)
{
	return sp->nr_sess_ev;
}

size_t sampler__session_event(const struct sampler *sp, size_t i)
{
	if (i == sp->nr_sess_ev && sp->offcpu_ev)
		return sp->offcpu_ev - 1;
	if (i == sp->nr_sess_ev + 1 && sp->wall_ev)
		return sp->wall_ev - 1;
	return i < sp->nr_sess_ev ? sp->sess_ev[i] : 0;
}

const struct target *sampler__target(const struct sampler *sp)
{
	return &sp->target;
}

const struct evlist_opts *sampler__evopts(const struct sampler *sp)
{
	return &sp->opts.ev;
}

/* A process that exited: gone from /proc, or a zombie. */
static bool pid_alive(const char *proc, pid_t pid)
{
	struct proc_stat ps;
	int err = synth__proc_stat(proc, pid, &ps);

	/* unreadable (not gone): alive, as before */
	if (err)
		return err == -EINVAL;
	return ps.state != 'Z' && ps.state != 'X';
}

/*
 * Target i still runs: its pidfd (readable once it has exited; the
 * batch loop asks 20 times a second, and reading /proc/PID/stat each
 * time was 3 % of a quiet --off-cpu session), else /proc.
 */
static bool sampler__pid_alive(struct sampler *sp, size_t i)
{
	pid_t pid = sp->target.pids[i];
	struct pollfd p;
	int r;

	if (sp->pidfds && sp->pidfds[i] == -2) {
		long fd = syscall(SYS_pidfd_open, pid, 0);

		/* it was alive at open: /proc says whether it still is */
		sp->pidfds[i] = fd >= 0 && pid_alive(sp->opts.proc, pid) ?
					(int)fd : -1;
		if (fd >= 0 && sp->pidfds[i] < 0)
			close((int)fd);
	}
	if (!sp->pidfds || sp->pidfds[i] < 0)
		return pid_alive(sp->opts.proc, pid);
	p.fd = sp->pidfds[i];
	p.events = POLLIN;
	p.revents = 0;
	do
		r = poll(&p, 1, 0);
	while (r < 0 && errno == EINTR);
	/* readable: it exited; an error says nothing, /proc does */
	return r == 0 || (r < 0 && pid_alive(sp->opts.proc, pid));
}

bool sampler__target_alive(struct sampler *sp, int *status)
{
	switch (sp->target.kind) {
	case TARGET_SYSTEM:
		return true;
	case TARGET_COMMAND:
		if (sp->child <= 0 || sp->child_reaped)
			return false;
		if (waitpid(sp->child, status, WNOHANG) == sp->child) {
			sp->child_reaped = true;
			return false;
		}
		return true;
	case TARGET_PIDS:
	case TARGET_TIDS:
		if (!sp->pidfds && sp->target.kind == TARGET_PIDS &&
		    !strcmp(sp->opts.proc, "/proc")) {
			sp->pidfds = malloc(sp->target.nr_pids *
					    sizeof(*sp->pidfds));
			for (size_t i = 0; sp->pidfds &&
					   i < sp->target.nr_pids; i++)
				sp->pidfds[i] = -2;
		}
		for (size_t i = 0; i < sp->target.nr_pids; i++)
			if (sampler__pid_alive(sp, i))
				return true;
		return false;
	}
	return true;
}
