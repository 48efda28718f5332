/* offcpu: where threads wait (see offcpu.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/offcpu.h"

struct offcpu_thread {
	struct hist_key key;
	struct offcpu_frame *frames;
	size_t nr_frames, cap_frames;
	u64 out;		/* switch-out time */
	u64 charged;		/* charged up to this time */
	int cpu;
	bool waiting;		/* off CPU since out */
	bool preempted;
};

struct offcpu {
	struct intmap threads;	/* tid -> struct offcpu_thread */
	size_t nr_waiting;
};

struct offcpu *offcpu__new(void)
{
	struct offcpu *o = calloc(1, sizeof(*o));

	if (o)
		intmap__init(&o->threads);
	return o;
}

static void thread__free(struct offcpu_thread *t)
{
	if (t) {
		free(t->frames);
		free(t);
	}
}

void offcpu__free(struct offcpu *o)
{
	size_t i = 0;
	u64 k;
	void *v;

	if (!o)
		return;
	while (intmap__next(&o->threads, &i, &k, &v))
		thread__free(v);
	intmap__fini(&o->threads);
	free(o);
}

/* tids are keyed plus one: intmap keys are any u64, values non-NULL */
static struct offcpu_thread *thread_of(const struct offcpu *o, u32 tid)
{
	return intmap__get(&o->threads, (u64)tid + 1);
}

int offcpu__out(struct offcpu *o, u32 tid, u64 time, const struct hist_key *key,
		int cpu)
{
	struct offcpu_thread *t = thread_of(o, tid);

	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t || intmap__put(&o->threads, (u64)tid + 1, t)) {
			free(t);
			return -ENOMEM;
		}
	}
	t->nr_frames = 0;
	t->key = *key;
	t->out = t->charged = time;
	t->cpu = cpu;
	t->preempted = false;
	if (!t->waiting)
		o->nr_waiting++;
	t->waiting = true;
	return 0;
}

static void thread__stop(struct offcpu *o, struct offcpu_thread *t)
{
	if (t->waiting)
		o->nr_waiting--;
	t->waiting = false;
}

int offcpu__keep_frames(struct offcpu *o,
			size_t (*frames_of)(void *ctx, u32 chain,
					    struct offcpu_frame *out, size_t max),
			void *ctx)
{
	struct offcpu_frame fr[512];
	size_t i = 0;
	u64 k;
	void *v;

	while (intmap__next(&o->threads, &i, &k, &v)) {
		struct offcpu_thread *t = v;
		size_t n;

		if (!t->waiting || !t->key.chain)
			continue;
		n = frames_of(ctx, t->key.chain, fr, ARRAY_SIZE(fr));
		if (array__grow((void **)&t->frames, &t->cap_frames, n ? n : 1,
				sizeof(*t->frames)))
			return -ENOMEM;
		memcpy(t->frames, fr, n * sizeof(*fr));
		t->nr_frames = n;
		t->key.chain = 0;
	}
	return 0;
}

void offcpu__preempted(struct offcpu *o, u32 tid)
{
	struct offcpu_thread *t = thread_of(o, tid);

	if (t && t->waiting)
		t->preempted = true;
}

static void thread__wait(const struct offcpu_thread *t, u64 until,
			 struct offcpu_wait *w)
{
	w->key = t->key;
	w->frames = t->frames;
	w->nr_frames = t->nr_frames;
	w->cpu = t->cpu;
	w->ns = until > t->charged ? until - t->charged : 0;
	w->preempted = t->preempted;
}

bool offcpu__in(struct offcpu *o, u32 tid, u64 time, struct offcpu_wait *w)
{
	struct offcpu_thread *t = thread_of(o, tid);

	if (!t || !t->waiting)
		return false;
	thread__wait(t, time, w);
	thread__stop(o, t);
	return true;
}

void offcpu__forget_all(struct offcpu *o)
{
	size_t i = 0;
	u64 k;
	void *v;

	while (intmap__next(&o->threads, &i, &k, &v))
		thread__stop(o, v);
}

void offcpu__exit(struct offcpu *o, u32 tid)
{
	struct offcpu_thread *t = thread_of(o, tid);

	if (!t)
		return;
	thread__stop(o, t);
	intmap__del(&o->threads, (u64)tid + 1);
	thread__free(t);
}

void offcpu__charge(struct offcpu *o, u64 now,
		    void (*fn)(void *ctx, const struct offcpu_wait *w),
		    void *ctx)
{
	size_t i = 0;
	u64 k;
	void *v;

	while (intmap__next(&o->threads, &i, &k, &v)) {
		struct offcpu_thread *t = v;
		struct offcpu_wait w;

		if (!t->waiting || now <= t->charged)
			continue;
		thread__wait(t, now, &w);
		t->charged = now;
		fn(ctx, &w);
	}
}

size_t offcpu__nr_waiting(const struct offcpu *o)
{
	return o->nr_waiting;
}
