/* push: profiles to Pyroscope's HTTP ingest API, by a thread of its own
 * through libcurl (loaded with dlopen, so that ptop runs without it),
 * behind a bounded queue; the query, labels and window deltas are pure
 * and unit-tested. */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/sys/clock.h"
#include "src/core/log.h"
#include "src/sys/dynlib.h"
#include "ui/report/push.h"

/* ---- labels and the query (pure) ---- */

int push__check_label(const char *kv, struct strbuf *why)
{
	const char *eq = strchr(kv, '=');
	size_t klen;

	if (!eq) {
		strbuf__addf(why, "'%s' is not KEY=VALUE", kv);
		return -EINVAL;
	}
	klen = (size_t)(eq - kv);
	if (!klen || !(isalpha((unsigned char)kv[0]) || kv[0] == '_') ||
	    (klen >= 2 && kv[0] == '_' && kv[1] == '_')) {
		strbuf__addf(why, "label '%.*s': a key starts with a letter "
			     "or '_' (not \"__\")", (int)klen, kv);
		return -EINVAL;
	}
	for (size_t i = 0; i < klen; i++) {
		unsigned char c = (unsigned char)kv[i];

		if (!isalnum(c) && c != '_' && c != '.') {
			strbuf__addf(why, "label '%.*s': a key holds letters, "
				     "digits, '_' and '.'", (int)klen, kv);
			return -EINVAL;
		}
	}
	if (!eq[1]) {
		strbuf__addf(why, "label '%.*s' has no value", (int)klen, kv);
		return -EINVAL;
	}
	for (const char *v = eq + 1; *v; v++) {
		unsigned char c = (unsigned char)*v;

		if (c < 0x20 || c == 0x7f || strchr("{},=", c)) {
			strbuf__addf(why, "label '%.*s': a value is printable, "
				     "without '{', '}', ',' or '='", (int)klen, kv);
			return -EINVAL;
		}
	}
	if (strlen(kv) > 256) {
		strbuf__addf(why, "label '%.*s' is longer than 256 bytes",
			     (int)klen, kv);
		return -EINVAL;
	}
	return 0;
}

/* Percent-encoding of a query value (RFC 3986's unreserved kept). */
static void url_escape(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (isalnum(c) || strchr("-._~", c))
			strbuf__addc(sb, (char)c);
		else
			strbuf__addf(sb, "%%%02X", c);
	}
}

void push__query(struct strbuf *sb, const struct push_opts *o,
		 const char *event, s64 from, s64 until, u64 rate)
{
	struct strbuf name;
	bool first = true;

	strbuf__init(&name);
	strbuf__adds(&name, o->app && *o->app ? o->app : "ptop");
	strbuf__addc(&name, '{');
	if (o->hostname && *o->hostname) {
		strbuf__addf(&name, "hostname=%s", o->hostname);
		first = false;
	}
	if (event && *event) {
		strbuf__addf(&name, "%sevent=%s", first ? "" : ",", event);
		first = false;
	}
	for (size_t i = 0; i < o->nr_labels; i++) {
		strbuf__addf(&name, "%s%s", first ? "" : ",", o->labels[i]);
		first = false;
	}
	strbuf__addc(&name, '}');
	strbuf__adds(sb, "name=");
	url_escape(sb, name.buf ? name.buf : "ptop");
	strbuf__addf(sb, "&from=%lld&until=%lld&format=pprof", (long long)from,
		     (long long)until);
	if (rate)
		strbuf__addf(sb, "&sampleRate=%llu", (unsigned long long)rate);
	strbuf__adds(sb, "&spyName=ptop");
	if (name.oom)
		sb->oom = true;
	strbuf__fini(&name);
}

/* ---- windows: a cumulative histogram as what came since the last push
 * (pure) ---- */

struct push_prev {
	struct hist_entry *e;
	size_t nr, cap;
	struct intmap idx;	/* hash of a key -> index + 1 */
};

struct push_window {
	struct push_prev *evs;
	size_t nr_evs;
	struct push_prev next;	/* the window being taken: the next one's
				 * start */
	size_t ev;		/* of the one being taken */
	bool oom;		/* while taking it */
	struct hist_entry *out;	/* the last delta's entries */
	size_t cap_out;
};

struct push_window *push_window__new(void)
{
	struct push_window *w = calloc(1, sizeof(struct push_window));

	if (w)
		intmap__init(&w->next.idx);
	return w;
}

void push_window__free(struct push_window *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nr_evs; i++) {
		free(w->evs[i].e);
		intmap__fini(&w->evs[i].idx);
	}
	free(w->evs);
	free(w->next.e);
	intmap__fini(&w->next.idx);
	free(w->out);
	free(w);
}

static u64 key_hash(const struct hist_key *k)
{
	return hash_bytes(k, sizeof(*k));
}

int push_window__begin(struct push_window *w, size_t ev, size_t nr)
{
	if (ev >= w->nr_evs) {
		struct push_prev *p = realloc(w->evs, (ev + 1) * sizeof(*p));

		if (!p)
			return -ENOMEM;
		for (size_t i = w->nr_evs; i <= ev; i++) {
			memset(&p[i], 0, sizeof(p[i]));
			intmap__init(&p[i].idx);
		}
		w->evs = p;
		w->nr_evs = ev + 1;
	}
	intmap__fini(&w->next.idx);
	intmap__init(&w->next.idx);
	w->next.nr = 0;
	w->ev = ev;
	w->oom = array__grow((void **)&w->next.e, &w->next.cap, nr ? nr : 1,
			     sizeof(*w->next.e)) != 0;
	return w->oom ? -ENOMEM : 0;
}

bool push_window__entry(struct push_window *w, const struct hist_entry *e,
			struct hist_entry *d)
{
	struct push_prev *pv = &w->evs[w->ev], *nx = &w->next;
	u64 h = key_hash(&e->key);
	void *v = intmap__get(&pv->idx, h);

	*d = *e;
	if (v) {
		const struct hist_entry *p = &pv->e[(size_t)v - 1];

		/* the same key (a hash collision is a new key), never below
		 * zero (a histogram zeroed or folded since) */
		if (!memcmp(&p->key, &e->key, sizeof(e->key)) &&
		    p->samples <= e->samples && p->period <= e->period) {
			d->samples -= p->samples;
			d->period -= p->period;
		}
	}
	/* the next window starts here; the first of two colliding keys
	 * keeps the slot */
	if (!w->oom && nx->nr < nx->cap) {
		nx->e[nx->nr] = *e;
		if (!intmap__get(&nx->idx, h) &&
		    intmap__put(&nx->idx, h, (void *)(nx->nr + 1)))
			w->oom = true;
		nx->nr++;
	}
	return d->samples != 0;
}

int push_window__end(struct push_window *w)
{
	struct push_prev t = w->evs[w->ev];

	w->evs[w->ev] = w->next;
	w->next = t;
	return w->oom ? -ENOMEM : 0;
}

int push_window__delta(struct push_window *w, size_t ev,
		       const struct snapshot *cur, struct snapshot *out)
{
	size_t n = 0;

	if (array__grow((void **)&w->out, &w->cap_out, cur->nr ? cur->nr : 1,
			sizeof(*w->out)) ||
	    push_window__begin(w, ev, cur->nr))
		return -ENOMEM;
	*out = *cur;
	out->entries = w->out;
	out->cap = w->cap_out;
	out->total_samples = out->total_period = 0;
	out->idle_samples = out->idle_period = 0;
	out->nr_idle = 0;
	for (size_t i = 0; i < cur->nr; i++) {
		struct hist_entry d;

		if (!push_window__entry(w, &cur->entries[i], &d))
			continue;
		w->out[n++] = d;
		out->total_samples += d.samples;
		out->total_period += d.period;
		if (d.key.idle) {
			out->nr_idle++;
			out->idle_samples += d.samples;
			out->idle_period += d.period;
		}
	}
	out->nr = n;
	return push_window__end(w);
}

/* ---- libcurl, loaded at run time ---- */

/* The few entry points used, with their ABI constants (curl.h is not
 * needed to build ptop). */
typedef void CURL;
struct curl_slist;
enum {
	C_OPT_NOPROGRESS = 43,
	C_OPT_NOSIGNAL = 99,
	C_OPT_TIMEOUT_MS = 155,
	C_OPT_CONNECTTIMEOUT_MS = 156,
	C_OPT_URL = 10002,
	C_OPT_POSTFIELDS = 10015,
	C_OPT_USERAGENT = 10018,
	C_OPT_HTTPHEADER = 10023,
	C_OPT_XFERINFODATA = 10057,
	C_OPT_WRITEFUNCTION = 20011,
	C_OPT_XFERINFOFUNCTION = 20219,
	C_OPT_POSTFIELDSIZE_LARGE = 30120,
	C_INFO_RESPONSE_CODE = 0x200002,
	C_GLOBAL_DEFAULT = 3,
	C_E_OPERATION_TIMEDOUT = 28,
	C_E_ABORTED_BY_CALLBACK = 42,
};

struct curl_api {
	int (*global_init)(long flags);
	CURL *(*easy_init)(void);
	int (*easy_setopt)(CURL *c, int opt, ...);
	int (*easy_perform)(CURL *c);
	void (*easy_cleanup)(CURL *c);
	const char *(*easy_strerror)(int code);
	int (*easy_getinfo)(CURL *c, int info, ...);
	struct curl_slist *(*slist_append)(struct curl_slist *l, const char *s);
	void (*slist_free_all)(struct curl_slist *l);
};

static int curl_load(struct curl_api *api, struct strbuf *err)
{
	static const char *const libs[] = { "libcurl.so.4",
					    "libcurl-gnutls.so.4" };
	/* POSIX: a data pointer from dlsym converts to a function pointer */
	const struct dynlib_fn fns[] = {
		{ "curl_global_init", (void **)&api->global_init, false },
		{ "curl_easy_init", (void **)&api->easy_init, false },
		{ "curl_easy_setopt", (void **)&api->easy_setopt, false },
		{ "curl_easy_perform", (void **)&api->easy_perform, false },
		{ "curl_easy_cleanup", (void **)&api->easy_cleanup, false },
		{ "curl_easy_strerror", (void **)&api->easy_strerror, false },
		{ "curl_easy_getinfo", (void **)&api->easy_getinfo, false },
		{ "curl_slist_append", (void **)&api->slist_append, false },
		{ "curl_slist_free_all", (void **)&api->slist_free_all,
		  false },
	};
	struct dynlib dl;
	int rc;

	memset(api, 0, sizeof(*api));
	rc = dynlib__load(&dl, libs, ARRAY_SIZE(libs), fns, ARRAY_SIZE(fns));
	if (rc == -ELIBACC) {
		strbuf__adds(err, "--push needs libcurl (libcurl.so.4): "
			     "install libcurl4");
		return -ENOENT;
	}
	if (rc) {
		strbuf__addf(err, "libcurl has no %s", dl.missing);
		return -ENOENT;
	}
	if (api->global_init(C_GLOBAL_DEFAULT)) {
		strbuf__adds(err, "libcurl could not start");
		return -EIO;
	}
	return 0;
}

/* ---- the queue and its thread ---- */

struct push_item {
	char *url;		/* URL/ingest?query */
	char *body;		/* multipart/form-data */
	size_t len;
	char boundary[48];
};

struct pusher {
	struct push_opts o;
	char url[2048];		/* the server's, without a trailing '/' */
	struct curl_api api;
	pthread_t thread;
	bool started;		/* the thread runs (pusher__new finished) */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct push_item *q;	/* a ring of queue_max */
	size_t head, nr;
	bool closing;		/* pusher__free: send what waits, then end */
	double deadline;	/* of closing */
	double retry_at;	/* after a failure: when to try again */
	double backoff;
	unsigned int seq;	/* makes boundaries */
	double sending_since;	/* a request under way since, or 0 */
	struct push_stats st;
};

static void item_fini(struct push_item *it)
{
	free(it->url);
	free(it->body);
	memset(it, 0, sizeof(*it));
}

static size_t discard(char *ptr, size_t size, size_t n, void *ctx)
{
	(void)ptr;
	(void)ctx;
	return size * n;
}

/* libcurl asks this while a transfer runs: non-zero cuts it (the end of
 * the flush). */
static int cut(void *ctx, long long dt, long long dn, long long ut,
	       long long un)
{
	struct pusher *p = ctx;
	bool stop;

	(void)dt;
	(void)dn;
	(void)ut;
	(void)un;
	pthread_mutex_lock(&p->lock);
	stop = p->closing && clock__now() >= p->deadline;
	pthread_mutex_unlock(&p->lock);
	return stop;
}

/* One request: 0 (2xx), 1 (worth retrying: network, 5xx, 429), or -1
 * (refused for good: another 4xx); why says what went wrong. */
static int send_item(struct pusher *p, const struct push_item *it,
		     struct strbuf *why)
{
	struct curl_api *api = &p->api;
	struct curl_slist *hdr = NULL;
	char ctype[128];
	long code = 0;
	CURL *c = api->easy_init();
	int rc;

	if (!c) {
		strbuf__adds(why, "libcurl: out of memory");
		return 1;
	}
	snprintf(ctype, sizeof(ctype),
		 "Content-Type: multipart/form-data; boundary=%s", it->boundary);
	hdr = api->slist_append(NULL, ctype);
	api->easy_setopt(c, C_OPT_URL, it->url);
	api->easy_setopt(c, C_OPT_POSTFIELDS, it->body);
	api->easy_setopt(c, C_OPT_POSTFIELDSIZE_LARGE, (long long)it->len);
	api->easy_setopt(c, C_OPT_HTTPHEADER, hdr);
	api->easy_setopt(c, C_OPT_USERAGENT, "ptop");
	api->easy_setopt(c, C_OPT_NOSIGNAL, 1L);
	api->easy_setopt(c, C_OPT_TIMEOUT_MS, (long)(p->o.timeout * 1000));
	api->easy_setopt(c, C_OPT_CONNECTTIMEOUT_MS,
			 (long)(p->o.timeout * 1000));
	api->easy_setopt(c, C_OPT_WRITEFUNCTION, discard);
	api->easy_setopt(c, C_OPT_NOPROGRESS, 0L);
	api->easy_setopt(c, C_OPT_XFERINFOFUNCTION, cut);
	api->easy_setopt(c, C_OPT_XFERINFODATA, p);
	rc = api->easy_perform(c);
	if (!rc)
		api->easy_getinfo(c, C_INFO_RESPONSE_CODE, &code);
	api->easy_cleanup(c);
	api->slist_free_all(hdr);
	/* ptop's own bounds, in ptop's words (curl's are "Timeout was
	 * reached", "Operation was aborted by an application callback") */
	if (rc == C_E_OPERATION_TIMEDOUT)
		strbuf__addf(why, "no answer within %g s (ptop's timeout)",
			     p->o.timeout);
	else if (rc == C_E_ABORTED_BY_CALLBACK)
		strbuf__addf(why, "no answer before ptop's exit (it waits %g "
			     "s for the last profiles)", p->o.flush);
	else if (rc)
		strbuf__adds(why, api->easy_strerror(rc));
	if (rc)
		return 1;
	if (code >= 200 && code < 300)
		return 0;
	strbuf__addf(why, "the server answered HTTP %ld", code);
	return code == 429 || code >= 500 || code < 200 ? 1 : -1;
}

static void cond_wait_until(struct pusher *p, double until)
{
	struct timespec ts;
	double left = until - clock__now();

	if (left <= 0)
		return;
	if (left > 1)
		left = 1;	/* closing is checked at least every second */
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += (time_t)left;
	ts.tv_nsec += (long)((left - (double)(time_t)left) * 1e9);
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(&p->cond, &p->lock, &ts);
}

static void drop_head(struct pusher *p)
{
	item_fini(&p->q[p->head]);
	p->head = (p->head + 1) % p->o.queue_max;
	p->nr--;
	p->st.dropped++;
}

static void *pusher__main(void *arg)
{
	struct pusher *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct push_item it;
		struct strbuf why;
		double now = clock__now();
		int rc;

		if (p->closing && (!p->nr || now >= p->deadline))
			break;
		if (!p->nr) {
			pthread_cond_wait(&p->cond, &p->lock);
			continue;
		}
		if (now < p->retry_at) {
			cond_wait_until(p, p->closing ?
					MIN(p->retry_at, p->deadline) :
					p->retry_at);
			continue;
		}
		/* sent without the lock: the queue may move meanwhile, the
		 * item is copied and the slot checked again after */
		it = p->q[p->head];
		p->q[p->head].url = p->q[p->head].body = NULL;
		p->sending_since = now;
		pthread_mutex_unlock(&p->lock);
		strbuf__init(&why);
		rc = send_item(p, &it, &why);
		pthread_mutex_lock(&p->lock);
		p->sending_since = 0;
		if (rc == 0) {
			strbuf__fini(&why);
			item_fini(&it);
			p->head = (p->head + 1) % p->o.queue_max;
			p->nr--;
			p->st.pushed++;
			p->backoff = 0;
			p->retry_at = 0;
			if (p->st.unreachable)
				pr_info("push: %s accepts profiles again", p->url);
			p->st.unreachable = false;
			continue;
		}
		p->st.failed++;
		/* the status keeps what fits, and so says the log */
		snprintf(p->st.error, sizeof(p->st.error), "%s",
			 why.buf ? why.buf : "out of memory");
		strbuf__fini(&why);
		if (!p->st.unreachable)
			pr_warn("push: %s: %s; %s", p->url, p->st.error,
				rc < 0 ? "this profile is dropped" :
				p->closing ? "what still waits is dropped" :
					     "retrying (profiles wait, the "
					     "oldest dropped first)");
		p->st.unreachable = true;
		p->q[p->head] = it;
		if (rc < 0) {
			drop_head(p);
			continue;
		}
		/* at exit, tries again soon until the flush's deadline (what
		 * still waits then is dropped) */
		p->backoff = p->backoff ? MIN(p->backoff * 2, 30.0) : 1.0;
		p->retry_at = clock__now() + (p->closing ? 0.2 : p->backoff);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct pusher *pusher__new(const struct push_opts *o, struct strbuf *err)
{
	struct pusher *p = NULL;
	size_t n;
	int rc;

	if (strncmp(o->url, "http://", 7) && strncmp(o->url, "https://", 8)) {
		strbuf__addf(err, "--push '%s': the server's URL starts with "
			     "http:// or https://", o->url);
		rc = -EINVAL;
		goto fail;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		strbuf__adds(err, "out of memory");
		rc = -ENOMEM;
		goto fail;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->o = *o;
	if (!p->o.queue_max)
		p->o.queue_max = 8;
	/* one slot may be under way while another waits */
	if (p->o.queue_max < 2)
		p->o.queue_max = 2;
	if (p->o.timeout <= 0)
		p->o.timeout = 10;
	if (p->o.flush <= 0)
		p->o.flush = 2;
	snprintf(p->url, sizeof(p->url), "%s", o->url);
	n = strlen(p->url);
	while (n && p->url[n - 1] == '/')
		p->url[--n] = '\0';
	p->q = calloc(p->o.queue_max, sizeof(*p->q));
	if (!p->q) {
		strbuf__adds(err, "out of memory");
		rc = -ENOMEM;
		goto fail;
	}
	rc = curl_load(&p->api, err);
	if (rc)
		goto fail;
	rc = -pthread_create(&p->thread, NULL, pusher__main, p);
	if (rc) {
		strbuf__addf(err, "cannot start the push thread: %s",
			     strerror(-rc));
		goto fail;
	}
	p->started = true;
	return p;
fail:
	pusher__free(p, NULL);
	errno = -rc;
	return NULL;
}

void pusher__queue(struct pusher *p, const char *event, void *body,
		   size_t len, s64 from, s64 until, u64 rate)
{
	struct push_item it = { 0 };
	struct strbuf url, mp;

	strbuf__init(&url);
	strbuf__init(&mp);
	pthread_mutex_lock(&p->lock);
	snprintf(it.boundary, sizeof(it.boundary), "ptop-%08x-%016llx",
		 ++p->seq, (unsigned long long)until);
	pthread_mutex_unlock(&p->lock);
	strbuf__addf(&url, "%s/ingest?", p->url);
	push__query(&url, &p->o, event, from, until, rate);
	/* one part, "profile", as Pyroscope's ingest handler reads pprof */
	strbuf__addf(&mp, "--%s\r\nContent-Disposition: form-data; "
			  "name=\"profile\"; filename=\"profile.pb.gz\"\r\n"
			  "Content-Type: application/octet-stream\r\n\r\n",
		     it.boundary);
	strbuf__add(&mp, body, len);
	strbuf__addf(&mp, "\r\n--%s--\r\n", it.boundary);
	free(body);
	pthread_mutex_lock(&p->lock);
	if (url.oom || mp.oom) {
		p->st.dropped++;
		pthread_mutex_unlock(&p->lock);
		strbuf__fini(&url);
		strbuf__fini(&mp);
		return;
	}
	it.len = mp.len;
	it.url = strbuf__detach(&url);
	it.body = strbuf__detach(&mp);
	/* full: the oldest goes, unless it is being sent (its slot is
	 * empty then; the next oldest goes) */
	if (p->nr == p->o.queue_max) {
		size_t victim = p->q[p->head].body ? p->head :
				(p->head + 1) % p->o.queue_max;

		if (victim == p->head) {
			drop_head(p);
		} else {
			item_fini(&p->q[victim]);
			for (size_t i = victim; i != (p->head + p->nr - 1) %
							 p->o.queue_max;
			     i = (i + 1) % p->o.queue_max)
				p->q[i] = p->q[(i + 1) % p->o.queue_max];
			p->nr--;
			p->st.dropped++;
		}
	}
	p->q[(p->head + p->nr) % p->o.queue_max] = it;
	p->nr++;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

void pusher__stats(struct pusher *p, struct push_stats *st)
{
	pthread_mutex_lock(&p->lock);
	*st = p->st;
	st->queued = p->nr;
	st->sending_for = p->sending_since ? clock__now() - p->sending_since : 0;
	pthread_mutex_unlock(&p->lock);
}

void pusher__free(struct pusher *p, struct push_stats *st)
{
	if (!p)
		return;
	if (p->started) {
		pthread_mutex_lock(&p->lock);
		p->closing = true;
		p->deadline = clock__now() + p->o.flush;
		p->retry_at = 0;	/* what waits is sent now */
		pthread_cond_signal(&p->cond);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->thread, NULL);
	}
	while (p->nr)
		drop_head(p);
	if (st) {
		*st = p->st;
		st->queued = 0;
	}
	free(p->q);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	/* libcurl stays loaded: its global state is not ours to end */
	free(p);
}
