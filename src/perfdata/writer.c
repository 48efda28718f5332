/* writer: ptop -o FILE / -o -: the sampler's records into perf.data
 * (file or pipe mode) through a buffer and a thread of its own, then the
 * features and the final header. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/core/log.h"
#include "src/perfdata/internal.h"
#include "src/sys/fdio.h"
#include "src/sys/host.h"
#include "src/sys/outfile.h"

/* ---- writer ---- */

struct perfdata_writer {
	struct session *s;
	struct perfdata_writer_opts o;
	void *tracing;		/* o.tracing_data, the writer's copy */
	char *path;
	int fd;
	bool pipe;
	struct outfile of;	/* the file opened by path (of.fd == fd) */
	bool own_of;

	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t thread;
	bool thread_on, stop, closed;
	u8 *ring;
	size_t cap;
	u64 wpos, rpos;		/* bytes put, bytes taken: file offsets */
	u64 wake_at;		/* wake the thread once wpos passes this */

	/* the writer thread's (and, after it, close's) */
	u64 file_pos;		/* bytes written */
	u64 good_end;		/* end of the last complete record written */
	u64 rec_start;		/* first record boundary of the next chunk */
	int error;

	bool started;		/* the prologue is in the ring */
	u64 data_offset;
	u64 gen;
	struct pd_event *ev;	/* the events as written, ids merged */
	size_t nr_ev, cap_ev;
	struct wev {
		size_t cap_ids;
		size_t sent_ids;	/* pipe: ids announced */
		bool sent_attr;		/* pipe: HEADER_ATTR written */
	} *wx;			/* [cap_ev] */
	bool attrs_changed;	/* file: events or ids after the header */
	struct pd_section hdr_attrs;	/* the header's attr section */
	struct kernel_map *kmaps;	/* o.host's, the writer's copy */
	size_t nr_kmaps;
	struct strbuf host[PD_FEAT_CMDLINE + 1];	/* this machine's */
	u8 kbid[20];
	int kbid_size;
	struct perfdata_writer_stats st;
};

static void writer__fail(struct perfdata_writer *w, int err)
{
	if (w->error)
		return;
	w->error = err;
	if (err == -EPIPE)
		pr_warn("%s: the reader of the stream went away; no more "
			"records are written", w->path);
	else
		pr_err("%s: %s after %" PRIu64 " bytes: no more records are "
		       "written; the file stays readable up to there",
		       w->path, strerror(-err), w->file_pos);
}

/* The ring byte at file offset pos (still in the ring). */
static u8 ring_byte(const struct perfdata_writer *w, u64 pos)
{
	return w->ring[pos % w->cap];
}

/* After a short write: the last record boundary at or before file_pos,
 * walking the records of the chunk from its first boundary. */
static void writer__boundary(struct perfdata_writer *w, u64 chunk_end)
{
	u64 p = w->rec_start;

	while (p + 8 <= w->file_pos && p + 8 <= chunk_end) {
		u16 size = (u16)(ring_byte(w, p + 6) | ring_byte(w, p + 7) << 8);

		if (size < 8 || p + size > w->file_pos)
			break;
		p += size;
	}
	w->good_end = MAX(w->good_end, p);
}

/* Writes [rpos, wpos) as taken by the thread (mu not held). */
static void writer__write_chunk(struct perfdata_writer *w, u64 from, u64 to)
{
	u64 start = w->file_pos;
	int err = 0;

	while (!err && from < to) {
		size_t off = (size_t)(from % w->cap);
		size_t n = (size_t)MIN(to - from, (u64)(w->cap - off));
		u64 done = 0;

		err = fd__write_all(w->fd, w->ring + off, n, &done);
		w->file_pos += done;
		from += done;
	}
	(void)start;
	if (err) {
		writer__boundary(w, to);
		writer__fail(w, err);
		return;
	}
	/* every chunk ends where a record does */
	w->good_end = w->file_pos;
	w->rec_start = MAX(w->file_pos, w->data_offset);
}

static void *writer__thread(void *arg)
{
	struct perfdata_writer *w = arg;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		u64 from, to;

		while (w->rpos == w->wpos && !w->stop)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->rpos == w->wpos)
			break;
		from = w->rpos;
		to = w->wpos;
		pthread_mutex_unlock(&w->mu);
		if (!w->error)
			writer__write_chunk(w, from, to);
		pthread_mutex_lock(&w->mu);
		w->rpos = to;
		w->wake_at = w->wpos + (1u << 20);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* Copies n bytes into the ring if they fit (mu held). */
static bool ring_put(struct perfdata_writer *w, const void *buf, size_t n)
{
	size_t off = (size_t)(w->wpos % w->cap), first;

	if (w->cap - (w->wpos - w->rpos) < n)
		return false;
	first = MIN(n, w->cap - off);
	memcpy(w->ring + off, buf, first);
	memcpy(w->ring, (const u8 *)buf + first, n - first);
	w->wpos += n;
	return true;
}

/* A kernel MMAP record (pid -1), as perf synthesizes them. */
static void put_kmap(struct strbuf *sb, const struct kernel_map *k,
		     size_t trailer)
{
	size_t n = strlen(k->name) + 1, pad = ALIGN_UP(n, (size_t)8);
	struct perf_event_header h = {
		.type = PERF_RECORD_MMAP,
		.misc = PERF_RECORD_MISC_KERNEL,
		.size = (u16)(sizeof(h) + 8 + 24 + pad + trailer),
	};

	strbuf__add(sb, (const char *)&h, sizeof(h));
	pd_put_u32(sb, (u32)-1);
	pd_put_u32(sb, 0);
	pd_put_u64(sb, k->start);
	pd_put_u64(sb, k->len);
	pd_put_u64(sb, k->pgoff);
	strbuf__add(sb, k->name, n);
	pd_put_zeros(sb, pad - n + trailer);
}

static bool has_id(const struct pd_event *e, u64 id)
{
	for (size_t i = 0; i < e->nr_ids; i++)
		if (e->ids[i] == id)
			return true;
	return false;
}

/* Takes the session's events and ids (session locked); ids of reopened
 * events add to the old ones, which older records still carry. */
static int writer__sync(struct perfdata_writer *w)
{
	size_t n = session__nr_events(w->s), k = 0;

	/* k: the file's event of session event i (events the session
	 * makes, --off-cpu's, have no records: not in the file) */
	for (size_t i = 0; i < n; i++, k++) {
		const char *name = session__event_name(w->s, i);
		struct perf_event_attr out;
		struct pd_event *e;
		u64 *ids = NULL;
		size_t nr = 0;

		if (session__event_is_derived(w->s, i)) {
			k--;
			continue;
		}
		if (k >= w->nr_ev) {
			size_t cap = w->cap_ev;

			if (array__grow((void **)&w->ev, &w->cap_ev, k + 1,
					sizeof(*w->ev)))
				return -ENOMEM;
			if (array__grow((void **)&w->wx, &cap, w->cap_ev,
					sizeof(*w->wx)))
				return -ENOMEM;
			memset(&w->ev[k], 0, sizeof(w->ev[k]));
			memset(&w->wx[k], 0, sizeof(w->wx[k]));
			w->nr_ev = k + 1;
			if (w->started)
				w->attrs_changed = true;
		}
		e = &w->ev[k];
		/* as written: -g's samples without their stack copies */
		session__output_attr(w->s, i, &out);
		if (memcmp(&e->attr, &out, sizeof(e->attr))) {
			e->attr = out;
			if (w->started)
				w->attrs_changed = true;
		}
		if (name && (!e->name || strcmp(e->name, name))) {
			free(e->name);
			e->name = strdup(name);
		}
		if (session__event_ids(w->s, i, &ids, &nr))
			return -ENOMEM;
		for (size_t j = 0; j < nr; j++) {
			if (has_id(e, ids[j]))
				continue;
			if (array__grow((void **)&e->ids, &w->wx[k].cap_ids,
					e->nr_ids + 1, sizeof(*e->ids))) {
				free(ids);
				return -ENOMEM;
			}
			e->ids[e->nr_ids++] = ids[j];
			if (w->started)
				w->attrs_changed = true;
		}
		free(ids);
	}
	w->gen = session__events_gen(w->s);
	return 0;
}

/* HEADER_ATTR records for events and ids not announced yet (pipe).  perf
 * makes a new event of each: new ids of a reopened event show as a
 * second event of the same name in perf report. */
static void writer__pipe_attrs(struct perfdata_writer *w, struct strbuf *sb)
{
	for (size_t i = 0; i < w->nr_ev; i++) {
		struct pd_event *e = &w->ev[i];
		struct wev *x = &w->wx[i];
		size_t nr = e->nr_ids - x->sent_ids;
		struct perf_event_header h = { .type = PERF_RECORD_HEADER_ATTR };

		if (x->sent_attr && !nr)
			continue;
		nr = MIN(nr, (0xffff - sizeof(h) - sizeof(e->attr)) / 8);
		h.size = (u16)(sizeof(h) + sizeof(e->attr) + nr * 8);
		strbuf__add(sb, (const char *)&h, sizeof(h));
		strbuf__add(sb, (const char *)&e->attr, sizeof(e->attr));
		strbuf__add(sb, (const char *)(e->ids + x->sent_ids), nr * 8);
		x->sent_ids += nr;
		x->sent_attr = true;
	}
}

/* A HEADER_FEATURE record (pipe), padded to 8 bytes. */
static void put_feature_record(struct strbuf *sb, unsigned int feat,
			       const struct strbuf *payload)
{
	size_t n = sizeof(struct perf_event_header) + 8 + payload->len;
	struct perf_event_header h = {
		.type = PERF_RECORD_HEADER_FEATURE,
		.size = (u16)ALIGN_UP(n, (size_t)8),
	};

	if (ALIGN_UP(n, (size_t)8) > 0xffff)
		return;
	strbuf__add(sb, (const char *)&h, sizeof(h));
	pd_put_u64(sb, feat);
	strbuf__add(sb, payload->buf ? payload->buf : "", payload->len);
	pd_put_zeros(sb, ALIGN_UP(n, (size_t)8) - n);
}

/* The features that describe this machine, from o.host (read by the
 * caller before sampling starts: the sink must not read files with the
 * session locked), and the kernel's maps and build-id.  0 or -ENOMEM. */
static int writer__host_features(struct perfdata_writer *w)
{
	static const struct host none;
	const struct host *h = w->o.host ? w->o.host : &none;
	struct strbuf *f = w->host;

	for (int i = 0; i <= PD_FEAT_CMDLINE; i++)
		strbuf__init(&f[i]);
	perfdata__build_string(&f[PD_FEAT_HOSTNAME], h->hostname);
	perfdata__build_string(&f[PD_FEAT_OSRELEASE], h->release);
	perfdata__build_string(&f[PD_FEAT_VERSION],
			       w->o.version ? w->o.version : "ptop");
	perfdata__build_string(&f[PD_FEAT_ARCH], h->machine);
	pd_put_u32(&f[PD_FEAT_NRCPUS], h->cpus_conf);
	pd_put_u32(&f[PD_FEAT_NRCPUS], h->cpus_online);
	perfdata__build_string(&f[PD_FEAT_CPUDESC],
			       h->model_name ? h->model_name : h->machine);
	{
		char buf[256];

		if (h->vendor && h->family && h->model && h->stepping)
			snprintf(buf, sizeof(buf), "%s,%s,%s,%s", h->vendor,
				 h->family, h->model, h->stepping);
		else
			snprintf(buf, sizeof(buf), "%s", h->machine);
		perfdata__build_string(&f[PD_FEAT_CPUID], buf);
	}
	pd_put_u64(&f[PD_FEAT_TOTAL_MEM], h->mem_total_kb);
	pd_put_u32(&f[PD_FEAT_CMDLINE], (u32)(w->o.argc > 0 ? w->o.argc : 1));
	if (w->o.argc > 0)
		for (int i = 0; i < w->o.argc; i++)
			perfdata__build_string(&f[PD_FEAT_CMDLINE], w->o.argv[i]);
	else
		perfdata__build_string(&f[PD_FEAT_CMDLINE], "ptop");
	memcpy(w->kbid, h->kernel_build_id, sizeof(w->kbid));
	w->kbid_size = h->kernel_build_id_size;
	if (h->nr_kmaps) {
		w->kmaps = malloc(h->nr_kmaps * sizeof(*w->kmaps));
		if (!w->kmaps)
			return -ENOMEM;
		memcpy(w->kmaps, h->kmaps, h->nr_kmaps * sizeof(*w->kmaps));
		w->nr_kmaps = h->nr_kmaps;
	}
	return 0;
}

/* Payloads of the features, by bit (session locked; no file reads). */
static int writer__features(struct perfdata_writer *w, struct strbuf *f)
{
	struct pd_build_id *bids = NULL;
	struct dsos *dsos = session__dsos(w->s);
	size_t nr = 0, ndsos;
	u64 first, last;

	/* build-ids: the kernel's and every file dso the session knows
	 * one for (their mmaps carried it) */
	ndsos = dsos__count(dsos);
	bids = calloc(ndsos + 1, sizeof(*bids));
	if (!bids)
		return -ENOMEM;
	if (w->kbid_size > 0) {
		memcpy(bids[0].bid, w->kbid, (size_t)w->kbid_size);
		bids[0].size = (u8)w->kbid_size;
		bids[0].pid = -1;
		bids[0].misc = PERF_RECORD_MISC_KERNEL;
		bids[0].path = strdup("[kernel.kallsyms]");
		nr = bids[0].path ? 1 : 0;
	}
	for (size_t i = 0; i < ndsos; i++) {
		const struct dso *d = dsos__at(dsos, i);

		if (d->kind != DSO_FILE || !d->build_id_size || d->deleted)
			continue;
		bids[nr].pid = -1;
		bids[nr].misc = PERF_RECORD_MISC_USER;
		bids[nr].size = d->build_id_size;
		memcpy(bids[nr].bid, d->build_id, d->build_id_size);
		bids[nr].path = strdup(d->path);
		if (bids[nr].path)
			nr++;
	}
	perfdata__build_build_ids(&f[PD_FEAT_BUILD_ID], bids, nr);
	for (size_t i = 0; i < nr; i++)
		free(bids[i].path);
	free(bids);
	for (int i = PD_FEAT_HOSTNAME; i <= PD_FEAT_CMDLINE; i++)
		strbuf__add(&f[i], w->host[i].buf ? w->host[i].buf : "",
			    w->host[i].len);
	perfdata__build_event_desc(&f[PD_FEAT_EVENT_DESC], w->ev, w->nr_ev);
	if (w->o.tracing_data_len)
		strbuf__add(&f[PD_FEAT_TRACING_DATA], (const char *)w->tracing,
			    w->o.tracing_data_len);
	session__time_range(w->s, &first, &last);
	pd_put_u64(&f[PD_FEAT_SAMPLE_TIME], first);
	pd_put_u64(&f[PD_FEAT_SAMPLE_TIME], last);
	for (int i = 0; i < PD_FEAT_BITS; i++)
		if (f[i].oom)
			return -ENOMEM;
	return 0;
}

/* In bit order, as their sections follow each other; the first only
 * with tracepoints (see writer__nr_feats). */
static const unsigned int written_feats[] = {
	PD_FEAT_TRACING_DATA,
	PD_FEAT_BUILD_ID, PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE,
	PD_FEAT_VERSION, PD_FEAT_ARCH, PD_FEAT_NRCPUS, PD_FEAT_CPUDESC,
	PD_FEAT_CPUID, PD_FEAT_TOTAL_MEM, PD_FEAT_CMDLINE,
	PD_FEAT_EVENT_DESC, PD_FEAT_SAMPLE_TIME,
};

/* The features this writer writes: written_feats + *first, *nr. */
static void writer__feats(const struct perfdata_writer *w, size_t *first,
			  size_t *nr)
{
	*first = w->o.tracing_data_len ? 0 : 1;
	*nr = ARRAY_SIZE(written_feats) - *first;
}

static void build_file_header(u8 *out, struct pd_section attrs,
			      struct pd_section data, const u64 *flags)
{
	u64 v[13] = {
		PD_MAGIC, PD_HEADER_SIZE,
		sizeof(struct perf_event_attr) + PD_ATTR_IDS_SIZE,
		attrs.offset, attrs.size, data.offset, data.size, 0, 0,
		flags[0], flags[1], flags[2], flags[3],
	};

	memcpy(out, v, sizeof(v));
}

/* The ids arrays, then the attr entries pointing at them, for a section
 * that starts at file offset base. */
static struct pd_section writer__attr_section(struct perfdata_writer *w,
					      struct strbuf *sb, u64 base)
{
	size_t start = sb->len;
	u64 ids_off = base;
	struct pd_section attrs;

	for (size_t i = 0; i < w->nr_ev; i++)
		strbuf__add(sb, (const char *)w->ev[i].ids,
			    w->ev[i].nr_ids * 8);
	attrs.offset = base + (sb->len - start);
	for (size_t i = 0; i < w->nr_ev; i++) {
		strbuf__add(sb, (const char *)&w->ev[i].attr,
			    sizeof(w->ev[i].attr));
		pd_put_u64(sb, ids_off);
		pd_put_u64(sb, w->ev[i].nr_ids * 8);
		ids_off += w->ev[i].nr_ids * 8;
	}
	attrs.size = base + (sb->len - start) - attrs.offset;
	return attrs;
}

/* The bytes that go before the first record (session and mu held). */
static int writer__start(struct perfdata_writer *w)
{
	const struct perf_event_attr *a0;
	struct strbuf sb;
	size_t trailer;
	int err;

	err = writer__sync(w);
	if (err)
		return err;
	strbuf__init(&sb);
	if (w->pipe) {
		struct strbuf f[PD_FEAT_BITS];
		u64 hdr[2] = { PD_MAGIC, PD_PIPE_HEADER_SIZE };

		strbuf__add(&sb, (const char *)hdr, sizeof(hdr));
		writer__pipe_attrs(w, &sb);
		for (int i = 0; i < PD_FEAT_BITS; i++)
			strbuf__init(&f[i]);
		if (!writer__features(w, f))
			for (size_t i = 0; i < ARRAY_SIZE(written_feats); i++)
				if (written_feats[i] != PD_FEAT_BUILD_ID &&
				    written_feats[i] != PD_FEAT_SAMPLE_TIME &&
				    written_feats[i] != PD_FEAT_TRACING_DATA)
					put_feature_record(&sb, written_feats[i],
							   &f[written_feats[i]]);
		for (int i = 0; i < PD_FEAT_BITS; i++)
			strbuf__fini(&f[i]);
		w->data_offset = PD_PIPE_HEADER_SIZE;
		w->rec_start = w->good_end = PD_PIPE_HEADER_SIZE;
	} else {
		struct pd_section attrs, data = { 0, 0 };
		u64 flags[4] = { 0 };

		pd_put_zeros(&sb, PD_HEADER_SIZE);
		attrs = writer__attr_section(w, &sb, PD_HEADER_SIZE);
		w->hdr_attrs = attrs;
		data.offset = sb.len;
		if (sb.buf)
			build_file_header((u8 *)sb.buf, attrs, data, flags);
		w->data_offset = sb.len;
		w->rec_start = w->good_end = sb.len;
	}
	a0 = w->nr_ev ? &w->ev[0].attr : NULL;
	trailer = a0 ? record__id_trailer_size(a0->sample_type,
					       a0->sample_id_all) : 0;
	for (size_t i = 0; i < w->nr_kmaps; i++)
		put_kmap(&sb, &w->kmaps[i], trailer);
	if (sb.oom) {
		strbuf__fini(&sb);
		return -ENOMEM;
	}
	if (!ring_put(w, sb.buf, sb.len)) {
		strbuf__fini(&sb);
		return -ENOBUFS;
	}
	strbuf__fini(&sb);
	w->started = true;
	return 0;
}

int perfdata_writer__sink(void *ctx, const struct perf_event_header *h)
{
	struct perfdata_writer *w = ctx;
	bool wake = false;

	pthread_mutex_lock(&w->mu);
	if (w->closed) {
		pthread_mutex_unlock(&w->mu);
		return 0;
	}
	if (!w->started && !w->error) {
		int err = writer__start(w);

		if (err) {
			pthread_mutex_unlock(&w->mu);
			writer__fail(w, err);
			pthread_mutex_lock(&w->mu);
		}
	}
	if (w->started && session__events_gen(w->s) != w->gen) {
		writer__sync(w);
		if (w->pipe) {
			struct strbuf sb;
			struct wev *saved;

			/* announce new events and ids before their records;
			 * if that does not fit, try again at the next one */
			strbuf__init(&sb);
			saved = malloc(w->nr_ev * sizeof(*saved));
			if (saved) {
				memcpy(saved, w->wx, w->nr_ev * sizeof(*saved));
				writer__pipe_attrs(w, &sb);
				if (sb.len && (sb.oom ||
					       !ring_put(w, sb.buf, sb.len))) {
					memcpy(w->wx, saved,
					       w->nr_ev * sizeof(*saved));
					w->gen--;
				}
			}
			free(saved);
			strbuf__fini(&sb);
		}
	}
	if (w->error || !w->started || !ring_put(w, h, h->size)) {
		w->st.dropped++;
		w->st.dropped_bytes += h->size;
	} else {
		w->st.records++;
		wake = h->type == PERF_RECORD_FINISHED_ROUND ||
		       w->wpos >= w->wake_at;
	}
	if (wake)
		pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return 0;
}

struct perfdata_writer *perfdata_writer__new(struct session *s,
					     const struct perfdata_writer_opts *o)
{
	struct perfdata_writer *w = calloc(1, sizeof(*w));
	int err;

	if (!w)
		return NULL;
	w->s = s;
	w->o = *o;
	w->fd = -1;
	w->pipe = o->pipe;
	w->cap = o->buffer_bytes ? o->buffer_bytes : 32u << 20;
	w->wake_at = 1u << 20;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	w->path = strdup(o->path ? o->path : (o->pipe ? "<stdout>" : "?"));
	w->ring = malloc(w->cap);
	if (!w->path || !w->ring) {
		err = -ENOMEM;
		goto fail;
	}
	if (o->fd >= 0) {
		w->fd = o->fd;
	} else {
		/* a new file, as perf record makes it: what was there kept
		 * as FILE.old; a device, FIFO or socket written in place */
		err = outfile__open(&w->of, o->path,
				    OUTFILE_NEW | OUTFILE_KEEP_OLD);
		if (err) {
			pr_err("cannot create %s (%s): %s", o->path,
			       w->of.failed ? w->of.failed : "opening it",
			       strerror(-err));
			goto fail;
		}
		w->own_of = true;
		w->fd = w->of.fd;
		/* a FIFO or a socket takes the stream perf reads from pipes */
		if (w->of.in_place && lseek(w->fd, 0, SEEK_CUR) < 0 &&
		    errno == ESPIPE)
			w->pipe = true;
	}
	if (o->tracing_data_len && !w->pipe) {
		w->tracing = malloc(o->tracing_data_len);
		if (!w->tracing) {
			err = -ENOMEM;
			goto fail;
		}
		memcpy(w->tracing, o->tracing_data, o->tracing_data_len);
	} else {
		w->o.tracing_data_len = 0;
	}
	w->o.tracing_data = w->tracing;
	err = writer__host_features(w);
	w->o.host = NULL;	/* the caller's: copied, not kept */
	if (err)
		goto fail;
	err = pthread_create(&w->thread, NULL, writer__thread, w);
	if (err) {
		err = -err;
		pr_err("cannot start the writer thread: %s", strerror(-err));
		goto fail;
	}
	w->thread_on = true;
	return w;
fail:
	w->closed = true;
	perfdata_writer__free(w);
	errno = -err;
	return NULL;
}

static void writer__join(struct perfdata_writer *w)
{
	if (!w->thread_on)
		return;
	pthread_mutex_lock(&w->mu);
	w->stop = true;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);
	w->thread_on = false;
}

/* Features and the final header of a file (session unlocked). */
static int writer__finish_file(struct perfdata_writer *w,
			       struct strbuf *feats)
{
	u64 data_end = w->error ? w->good_end : w->file_pos;
	u64 flags[4] = { 0 }, off;
	struct pd_section attrs = w->hdr_attrs, data;
	struct strbuf tail;
	u8 hdr[PD_HEADER_SIZE];
	size_t first, nr;
	const unsigned int *feats_on;
	int err = 0;

	writer__feats(w, &first, &nr);
	feats_on = written_feats + first;
	if (data_end < w->data_offset)
		return w->error;	/* not even the header made it */
	data.offset = w->data_offset;
	data.size = data_end - w->data_offset;
	strbuf__init(&tail);
	if (!w->error) {
		/* section table, then the payloads */
		off = data_end + nr * 16;
		for (size_t i = 0; i < nr; i++) {
			const struct strbuf *f = &feats[feats_on[i]];

			pd_put_u64(&tail, off);
			pd_put_u64(&tail, f->len);
			off += f->len;
		}
		for (size_t i = 0; i < nr; i++) {
			const struct strbuf *f = &feats[feats_on[i]];

			strbuf__add(&tail, f->buf ? f->buf : "", f->len);
		}
		if (w->attrs_changed)
			attrs = writer__attr_section(w, &tail, data_end + tail.len);
		err = tail.oom ? -ENOMEM :
			fd__pwrite_all(w->fd, tail.buf, tail.len, data_end);
		if (!err) {
			for (size_t i = 0; i < nr; i++)
				flags[feats_on[i] / 64] |=
					1ULL << (feats_on[i] % 64);
		} else {
			writer__fail(w, err);
			w->attrs_changed = false;
		}
	}
	if (!w->attrs_changed)
		attrs = w->hdr_attrs;
	build_file_header(hdr, attrs, data, flags);
	if (fd__pwrite_all(w->fd, hdr, sizeof(hdr), 0) && !err)
		err = -EIO;
	if (err || w->error) {
		if (ftruncate(w->fd, (off_t)data_end)) {
			/* a longer file reads the same */
		}
	}
	strbuf__fini(&tail);
	return err;
}

int perfdata_writer__close(struct perfdata_writer *w)
{
	struct strbuf feats[PD_FEAT_BITS];
	int err = 0;

	if (w->closed)
		return w->error;
	writer__join(w);
	for (int i = 0; i < PD_FEAT_BITS; i++)
		strbuf__init(&feats[i]);
	session__lock(w->s);
	pthread_mutex_lock(&w->mu);
	if (!w->started && !w->error) {
		err = writer__start(w);
		if (!err)
			writer__write_chunk(w, w->rpos, w->wpos);
		w->rpos = w->wpos;
	}
	if (!err)
		err = writer__sync(w);
	if (!err && !w->pipe)
		err = writer__features(w, feats);
	w->closed = true;
	pthread_mutex_unlock(&w->mu);
	session__unlock(w->s);
	if (err)
		writer__fail(w, err);
	if (!w->pipe && w->started)
		err = writer__finish_file(w, feats);
	for (int i = 0; i < PD_FEAT_BITS; i++)
		strbuf__fini(&feats[i]);
	if (w->st.dropped)
		pr_warn("%s: %" PRIu64 " records (%" PRIu64 " bytes) were not "
			"written (%s)", w->path, w->st.dropped,
			w->st.dropped_bytes,
			w->error ? "writing had failed" :
				   "the output was too slow: the backlog was full");
	if (w->fd >= 0) {
		/* kept, whatever went wrong: it holds what was written */
		int cerr = w->own_of ? outfile__finish(&w->of, 0) :
				       (close(w->fd) ? -errno : 0);

		if (cerr && !w->error && !w->pipe)
			writer__fail(w, cerr);
		w->fd = -1;
	}
	return w->error ? w->error : err;
}

void perfdata_writer__stats(struct perfdata_writer *w,
			    struct perfdata_writer_stats *st)
{
	pthread_mutex_lock(&w->mu);
	*st = w->st;
	st->backlog = w->wpos - w->rpos;
	st->bytes = w->file_pos;
	st->error = w->error;
	pthread_mutex_unlock(&w->mu);
}

void perfdata_writer__free(struct perfdata_writer *w)
{
	if (!w)
		return;
	if (!w->closed)
		perfdata_writer__close(w);
	writer__join(w);
	/* never started: the file goes (what was there comes back) */
	if (w->fd >= 0 && w->own_of)
		outfile__finish(&w->of, -ECANCELED);
	else if (w->fd >= 0)
		close(w->fd);
	for (size_t i = 0; i < w->nr_ev; i++)
		pd_event__fini(&w->ev[i]);
	free(w->ev);
	free(w->wx);
	free(w->kmaps);
	for (int i = 0; i <= PD_FEAT_CMDLINE; i++)
		strbuf__fini(&w->host[i]);
	free(w->ring);
	free(w->path);
	free(w->tracing);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	free(w);
}

