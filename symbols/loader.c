/* loader: worker threads that run file loads off their caller's thread. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "src/sys/clock.h"
#include "src/sys/mapguard.h"
#include "symbols/loader.h"

#define SLICE_NS (10 * 1000 * 1000)

enum { LJ_QUEUED = 1, LJ_RUNNING, LJ_DONE };

struct loader {
	pthread_mutex_t lock;
	pthread_cond_t wake;	/* a job was queued, or stop */
	pthread_cond_t done;	/* a run ended */
	struct loader_job *head, *tail;
	/* worker i runs running[i] */
	struct loader_job *running[LOADER_MAX_WORKERS];
	pthread_t threads[LOADER_MAX_WORKERS];
	unsigned int nr_threads, max_threads;
	bool started, stop;	/* started: the workers were started */
	unsigned int refs;	/* the owner's, and each worker's while it
				 * lives */
	u64 finished;		/* written under lock, read atomically */
};

/* What a worker is given: its loader and its slot. */
struct worker_arg {
	struct loader *l;
	unsigned int slot;
};

struct loader *loader__new(unsigned int workers)
{
	struct loader *l = calloc(1, sizeof(*l));
	pthread_condattr_t ca;

	if (!l)
		return NULL;
	pthread_mutex_init(&l->lock, NULL);
	pthread_cond_init(&l->wake, NULL);
	/* waits are on the monotonic clock, as the build's deadline is */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&l->done, &ca);
	pthread_condattr_destroy(&ca);
	l->refs = 1;
	l->max_threads = workers < 1 ? 1 :
			 workers > LOADER_MAX_WORKERS ? LOADER_MAX_WORKERS :
							workers;
	return l;
}

static void loader__destroy(struct loader *l)
{
	pthread_cond_destroy(&l->done);
	pthread_cond_destroy(&l->wake);
	pthread_mutex_destroy(&l->lock);
	free(l);
}

/* Drops one reference, under lock; frees l (unlocked) with the last. */
static void loader__unref_locked(struct loader *l)
{
	bool last = !--l->refs;

	pthread_mutex_unlock(&l->lock);
	if (last)
		loader__destroy(l);
}

static void job_run(void *job)
{
	((struct loader_job *)job)->run(job);
}

/* A job reads mapped files (libelf, libdw) that may be truncated meanwhile:
 * a fault ends its run, with faulted set (mapguard.h). */
static void run_guarded(struct loader_job *job)
{
	struct mapguard g;

	mapguard__init(&g);
	job->faulted = mapguard__run(&g, job_run, job) != 0;
}

void loader__run_here(struct loader_job *job)
{
	run_guarded(job);
}

static void *loader__main(void *arg)
{
	struct worker_arg wa = *(struct worker_arg *)arg;
	struct loader *l = wa.l;
	struct loader_job *job;
	sigset_t faults;

	free(arg);
	pthread_setname_np(pthread_self(), LOADER_THREAD);
	/* a fault in a mapped file must reach mapguard's handler: blocked,
	 * the kernel would kill the process instead */
	sigemptyset(&faults);
	sigaddset(&faults, SIGBUS);
	sigaddset(&faults, SIGSEGV);
	pthread_sigmask(SIG_UNBLOCK, &faults, NULL);
	pthread_mutex_lock(&l->lock);
	for (;;) {
		while (!l->head && !l->stop)
			pthread_cond_wait(&l->wake, &l->lock);
		if (l->stop)
			break;
		job = l->head;
		l->head = job->next;
		if (!l->head)
			l->tail = NULL;
		job->next = NULL;
		job->state = LJ_RUNNING;
		l->running[wa.slot] = job;
		pthread_mutex_unlock(&l->lock);
		/* the job is the worker's alone while it runs */
		run_guarded(job);
		pthread_mutex_lock(&l->lock);
		l->running[wa.slot] = NULL;
		job->state = LJ_DONE;
		__atomic_store_n(&l->finished, l->finished + 1,
				 __ATOMIC_RELEASE);
		if (job->abandoned) {
			pthread_mutex_unlock(&l->lock);
			job->free(job);
			pthread_mutex_lock(&l->lock);
		}
		pthread_cond_broadcast(&l->done);
	}
	loader__unref_locked(l);
	return NULL;
}

/* One more worker, under lock: false when it could not start. */
static bool start_worker(struct loader *l)
{
	struct worker_arg *wa;
	sigset_t all, old;
	int err;

	wa = malloc(sizeof(*wa));
	if (!wa)
		return false;
	wa->l = l;
	wa->slot = l->nr_threads;
	/* workers take no signal: they are the main thread's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&l->threads[wa->slot], NULL, loader__main, wa);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		free(wa);
		return false;
	}
	l->nr_threads++;
	l->refs++;
	return true;
}

int loader__submit(struct loader *l, struct loader_job *job)
{
	if (!l || !job || !job->run || !job->free)
		return -EINVAL;
	job->next = NULL;
	job->abandoned = false;
	pthread_mutex_lock(&l->lock);
	/* all of them with the first job: a process's thread count does
	 * not change after its first load */
	while (!l->started && !l->stop && l->nr_threads < l->max_threads &&
	       start_worker(l))
		;
	l->started = true;
	if (!l->nr_threads) {
		/* no thread: the caller's runs it */
		pthread_mutex_unlock(&l->lock);
		run_guarded(job);
		pthread_mutex_lock(&l->lock);
		job->state = LJ_DONE;
		__atomic_store_n(&l->finished, l->finished + 1,
				 __ATOMIC_RELEASE);
		pthread_mutex_unlock(&l->lock);
		return 0;
	}
	job->state = LJ_QUEUED;
	if (job->urgent && l->head && !l->head->urgent) {
		job->next = l->head;
		l->head = job;
	} else if (job->urgent && l->head) {
		struct loader_job *p = l->head;

		/* after the last urgent one */
		while (p->next && p->next->urgent)
			p = p->next;
		job->next = p->next;
		p->next = job;
		if (l->tail == p)
			l->tail = job;
	} else {
		if (l->tail)
			l->tail->next = job;
		else
			l->head = job;
		l->tail = job;
	}
	pthread_cond_signal(&l->wake);
	pthread_mutex_unlock(&l->lock);
	return 0;
}

int loader__wait(struct loader *l, struct loader_job *job, double deadline,
		 const volatile sig_atomic_t *stop)
{
	int rc = -EAGAIN;

	if (!l || !job)
		return -EINVAL;
	pthread_mutex_lock(&l->lock);
	for (;;) {
		struct timespec ts;
		double now, until;

		if (job->state == LJ_DONE) {
			rc = 0;
			break;
		}
		if ((stop && *stop) || l->stop)
			break;
		now = clock__now();
		if (deadline > 0 && now >= deadline)
			break;
		until = now + SLICE_NS / 1e9;
		if (deadline > 0 && deadline < until)
			until = deadline;
		ts.tv_sec = (time_t)until;
		ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&l->done, &l->lock, &ts);
	}
	pthread_mutex_unlock(&l->lock);
	return rc;
}

bool loader__done(struct loader *l, struct loader_job *job)
{
	bool done;

	if (!l || !job)
		return false;
	pthread_mutex_lock(&l->lock);
	done = job->state == LJ_DONE;
	pthread_mutex_unlock(&l->lock);
	return done;
}

/* Takes job out of the queue; true when it was there. */
static bool unqueue(struct loader *l, struct loader_job *job)
{
	struct loader_job **p, *prev = NULL;

	for (p = &l->head; *p; prev = *p, p = &(*p)->next) {
		if (*p != job)
			continue;
		*p = job->next;
		if (l->tail == job)
			l->tail = prev;
		job->next = NULL;
		return true;
	}
	return false;
}

void loader__cancel(struct loader *l, struct loader_job *job)
{
	bool now = true;

	if (!l || !job)
		return;
	pthread_mutex_lock(&l->lock);
	if (job->state == LJ_QUEUED)
		unqueue(l, job);
	else if (job->state == LJ_RUNNING)
		now = false;
	job->abandoned = true;
	pthread_mutex_unlock(&l->lock);
	if (now)
		job->free(job);
}

void loader__free(struct loader *l)
{
	struct loader_job *queued;
	pthread_t threads[LOADER_MAX_WORKERS];
	bool busy[LOADER_MAX_WORKERS];
	unsigned int nr;

	if (!l)
		return;
	pthread_mutex_lock(&l->lock);
	l->stop = true;
	queued = l->head;
	l->head = l->tail = NULL;
	nr = l->nr_threads;
	for (unsigned int i = 0; i < nr; i++) {
		threads[i] = l->threads[i];
		busy[i] = l->running[i] != NULL;
		if (busy[i])
			l->running[i]->abandoned = true;
	}
	pthread_cond_broadcast(&l->wake);
	pthread_cond_broadcast(&l->done);
	loader__unref_locked(l);	/* l may be gone from here */
	while (queued) {
		struct loader_job *next = queued->next;

		queued->free(queued);
		queued = next;
	}
	/* an idle worker ends at once; one inside a load (libdw inflating
	 * a debug file: up to a second) is not waited for */
	for (unsigned int i = 0; i < nr; i++) {
		if (busy[i])
			pthread_detach(threads[i]);
		else
			pthread_join(threads[i], NULL);
	}
}

u64 loader__finished(struct loader *l)
{
	return l ? __atomic_load_n(&l->finished, __ATOMIC_ACQUIRE) : 0;
}
