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
	u8 state;
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

u8 offcpu__state_of(u64 prev_state)
{
	static const char letters[] = "SDTtXZPI";

	for (unsigned int i = 0; i < sizeof(letters) - 1; i++)
		if (prev_state & (1ULL << i))
			return (u8)letters[i];
	return 'R';
}

const char *offcpu__state_name(u8 state)
{
	switch (state) {
	case 0: return "running";
	case 'R': return "runnable";
	case 'S': return "sleeping";
	case 'D': return "disk sleep";
	case 'T': return "stopped";
	case 't': return "traced";
	case 'X': return "dead";
	case 'Z': return "zombie";
	case 'P': return "parked";
	case 'I': return "idle";
	default: return "unknown";
	}
}

/* The number after "key:" in [p, end), up to its ';'. */
static bool format_number(const char *p, const char *end, const char *key,
			  u32 *out)
{
	size_t klen = strlen(key);
	u64 v = 0;

	p = memmem(p, (size_t)(end - p), key, klen);
	if (!p)
		return false;
	p += klen;
	if (p >= end || *p < '0' || *p > '9')
		return false;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (u64)(*p - '0');
		if (v > UINT32_MAX)
			return false;
	}
	*out = (u32)v;
	return p < end && *p == ';';
}

int offcpu__state_field(const void *text, size_t len, u32 *offset, u32 *size)
{
	static const char name[] = "name: sched_switch\n";
	static const char field[] = " prev_state;";
	const char *p = text, *end = p + len, *fmt, *f, *eol;

	/* the event's format: from its name to the next one's (or the
	 * print fmt line that ends it) */
	p = memmem(p, len, name, sizeof(name) - 1);
	if (!p)
		return -ENOENT;
	fmt = memmem(p, (size_t)(end - p), "\nprint fmt:", 11);
	if (fmt)
		end = fmt;
	f = memmem(p, (size_t)(end - p), field, sizeof(field) - 1);
	if (!f)
		return -ENOENT;
	eol = memchr(f, '\n', (size_t)(end - f));
	if (!eol)
		eol = end;
	if (!format_number(f, eol, "offset:", offset) ||
	    !format_number(f, eol, "size:", size) ||
	    (*size != 4 && *size != 8))
		return -ENOENT;
	return 0;
}

/* tids are keyed plus one: intmap keys are any u64, values non-NULL */
static struct offcpu_thread *thread_of(const struct offcpu *o, u32 tid)
{
	return intmap__get(&o->threads, (u64)tid + 1);
}

int offcpu__out(struct offcpu *o, u32 tid, u64 time, const struct hist_key *key,
		int cpu, u8 state)
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
	t->state = state;
	t->preempted = state == 'R';
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

	if (t && t->waiting) {
		t->preempted = true;
		t->state = 'R';
	}
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
	w->state = t->state;
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
