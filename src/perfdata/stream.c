/* stream: the perf.data record stream (perfdata.h), shared by the file
 * and pipe readers: records assembled from any byte split, swapped,
 * perf's own records handled, zstd (perf record -z) unpacked, kernel
 * records handed to the session in time order through the queue. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "src/core/log.h"
#include "src/core/record.h"
#include "src/core/record_swap.h"
#include "src/perfdata/internal.h"
#include "src/perfdata/queue.h"

/* ---- the record stream ---- */

struct pd_sev {
	struct perf_event_attr attr;
	size_t sess;		/* session event index */
};

/* Buffers a file's reader reads into (perfdata_stream__buffer): the
 * records whole in one are queued where they lie, so a buffer stays
 * theirs (pinned) until the last is handed on.  At most LEND_MAX of them;
 * past that the reader gets the plain buffer, whose records are copied. */
#define LEND_MAX 64

struct pd_lend {
	u8 *buf;
	size_t cap;
	size_t pins;		/* its records in the queue */
};

struct perfdata_stream {
	struct session *s;
	struct perfdata_info *info;
	struct perfdata_stats stats;
	bool pipe, swap, need_header, dead, in_data;
	u64 base;		/* file offset of the first byte fed */
	u64 pos;		/* bytes consumed since base */
	u64 skip;		/* payload bytes to skip */
	/* a record (or the pipe header) split between two feeds */
	u64 part[65536 / 8 + 1];
	size_t npart;
	u64 scratch[65536 / 8 + 1];	/* perf's own records, aligned */

	struct pd_queue q;	/* timed kernel records, in time order */
	struct pd_lend lend[LEND_MAX];
	size_t nr_lend, last_unpin;
	ssize_t cur;		/* the buffer given last: lend[cur], or
				 * -1: plain */
	u8 *plain;
	size_t plain_cap;
	const u8 *lend_lo, *lend_hi;	/* in perfdata_stream__feed_buffer */

	struct pd_sev *ev;
	size_t nr_ev, cap_ev;
	struct intmap ids;	/* id -> ev index + 1 */
	struct id_pos pos0;	/* from event 0 */

	/* perf record -z: one zstd stream runs through the COMPRESSED
	 * records; what it yields is records, one of which may be split
	 * between two of them (zbuf[0, zfill) waits for the rest) */
	ZSTD_DStream *zds;
	u8 *zbuf;
	size_t zfill;
	bool zwarned;

	/* the end of a stream: perf (and ptop) close each pass over the
	 * rings with FINISHED_ROUND, so a stream that had them and ends
	 * with records after the last one lost its tail */
	bool marks;		/* a FINISHED_ROUND or FINISHED_INIT came */
	u64 since_mark;		/* records after the last one */
	bool stopped;		/* the reader stopped before the end */
	/* perfdata_read_opts.mark, and when to call it next */
	u64 (*mark)(void *ctx, u64 t);
	void *mark_ctx;
	u64 next_mark;
	u64 *first_time, *last_time;	/* times only (sample_range) */
};

/* A record handed on: the buffer it was lent from, if any, has one
 * record fewer to keep (the last one found is tried first). */
static void stream__unpin(struct perfdata_stream *st, const void *h)
{
	const u8 *p = h;

	for (size_t k = 0; k < st->nr_lend; k++) {
		size_t i = (st->last_unpin + k) % st->nr_lend;
		struct pd_lend *l = &st->lend[i];

		if (p >= l->buf && p < l->buf + l->cap) {
			l->pins--;
			st->last_unpin = i;
			return;
		}
	}
}

static void stream__deliver(void *ctx, const struct perf_event_header *h,
			   u64 t)
{
	struct perfdata_stream *st = ctx;

	/* a timeline's grid: the cells that end before this record */
	if (st->mark && t >= st->next_mark)
		st->next_mark = st->mark(st->mark_ctx, t);
	session__process(st->s, h);
	if (st->nr_lend)
		stream__unpin(st, h);
}

void *perfdata_stream__buffer(struct perfdata_stream *st, size_t len)
{
	struct pd_lend *l = NULL;
	u8 *p;

	for (size_t i = 0; i < st->nr_lend && !l; i++)
		if (!st->lend[i].pins)
			l = &st->lend[i];
	if (!l && st->nr_lend < LEND_MAX)
		l = &st->lend[st->nr_lend++];
	if (!l) {
		if (st->plain_cap < len) {
			p = realloc(st->plain, len);
			if (!p)
				return NULL;
			st->plain = p;
			st->plain_cap = len;
		}
		st->cur = -1;
		return st->plain;
	}
	if (l->cap < len) {
		/* (a new one, or one no record is queued in) */
		p = realloc(l->buf, len);
		if (!p) {
			if (!l->buf)
				st->nr_lend--;
			return NULL;
		}
		l->buf = p;
		l->cap = len;
	}
	st->cur = l - st->lend;
	return l->buf;
}

int perfdata_stream__feed_buffer(struct perfdata_stream *st, size_t len)
{
	const u8 *p = st->cur < 0 ? st->plain : st->lend[st->cur].buf;
	int ret;

	if (st->cur >= 0) {
		st->lend_lo = p;
		st->lend_hi = p + len;
	}
	ret = perfdata_stream__feed(st, p, len);
	st->lend_lo = st->lend_hi = NULL;
	return ret;
}

/* A record at src can be queued where it lies: whole in the lent
 * buffer, aligned, and read as it is (not swapped; not the times-only
 * pass, which queues nothing). */
static bool stream__lendable(const struct perfdata_stream *st,
			     const void *src, size_t size)
{
	const u8 *p = src;

	return st->lend_lo && p >= st->lend_lo && p < st->lend_hi &&
	       size <= (size_t)(st->lend_hi - p) && !((uintptr_t)p & 7) &&
	       !st->swap && !st->first_time;
}

/* Queues the record at off in the arena, or h where it lies (lent). */
static int stream__queue(struct perfdata_stream *st, size_t off,
			 const struct perf_event_header *lent, u64 t)
{
	int ret;

	if (lent) {
		/* pinned first: the queue may hand it on at once */
		st->lend[st->cur].pins++;
		ret = pd_queue__add_lent(&st->q, lent, t);
		if (ret < 0)
			st->lend[st->cur].pins--;
	} else {
		ret = pd_queue__add(&st->q, off, t);
	}
	if (ret < 0)
		return ret;
	st->stats.out_of_order += (u64)ret;
	return 0;
}

struct perfdata_stream *perfdata_stream__new(struct session *s, bool pipe,
					     bool swap, u64 base,
					     struct perfdata_info *info,
					     const struct perfdata_read_opts *o)
{
	struct perfdata_stream *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->s = s;
	st->info = info;
	st->pipe = pipe;
	st->need_header = pipe;
	st->cur = -1;
	st->swap = swap;
	st->base = base;
	pd_queue__init(&st->q, o && o->queue_bytes ? o->queue_bytes : 64u << 20,
		       stream__deliver, st);
	if (o && o->mark) {
		st->mark = o->mark;
		st->mark_ctx = o->mark_ctx;
	}
	if (o && o->first_time && o->last_time) {
		st->first_time = o->first_time;
		st->last_time = o->last_time;
	}
	intmap__init(&st->ids);
	record__id_pos(0, &st->pos0);
	return st;
}

void perfdata_stream__free(struct perfdata_stream *st)
{
	if (!st)
		return;

	pd_queue__fini(&st->q);
	for (size_t i = 0; i < st->nr_lend; i++)
		free(st->lend[i].buf);
	free(st->plain);
	free(st->ev);
	intmap__fini(&st->ids);
	ZSTD_freeDStream(st->zds);
	free(st->zbuf);
	free(st);
}

const struct perfdata_stats *perfdata_stream__stats(const struct perfdata_stream *st)
{
	return &st->stats;
}

void perfdata_stream__set_stopped(struct perfdata_stream *st, bool stopped)
{
	st->stopped = stopped;
}

bool perfdata_stream__in_data(const struct perfdata_stream *st)
{
	return st->in_data;
}

/* Registers an event with the stream and the session; ids that are
 * known already are not taken twice. */
static int stream__add_event(struct perfdata_stream *st,
			     const struct perf_event_attr *attr,
			     const char *name, const u64 *ids, size_t nr_ids)
{
	char buf[128];
	struct pd_sev *e;
	int idx, ret;

	if (st->nr_ev >= PD_MAX_EVENTS)
		return -E2BIG;
	if (array__grow((void **)&st->ev, &st->cap_ev, st->nr_ev + 1,
			sizeof(*st->ev)))
		return -ENOMEM;
	if (!name)
		name = pd_event_name(attr, buf, sizeof(buf));
	idx = session__add_event(st->s, name, attr);
	if (idx < 0)
		return idx;
	e = &st->ev[st->nr_ev];
	e->attr = *attr;
	e->sess = (size_t)idx;
	st->nr_ev++;
	if (!(attr->sample_type & PERF_SAMPLE_IP)) {
		st->stats.no_ip_events++;
		pr_warn("event %s: its sample_type (%#" PRIx64 ") has no IP: "
			"its samples carry no address and are counted at "
			"address 0", name, (u64)attr->sample_type);
	}
	if (st->nr_ev == 1)
		record__id_pos(attr->sample_type, &st->pos0);
	for (size_t i = 0; i < nr_ids; i++) {
		if (intmap__get(&st->ids, ids[i]))
			continue;
		ret = intmap__put(&st->ids, ids[i],
				  (void *)(uintptr_t)st->nr_ev);
		if (!ret)
			ret = session__add_id(st->s, e->sess, ids[i]);
		if (ret)
			return ret;
	}
	return idx;
}

int perfdata_stream__add_event(struct perfdata_stream *st,
			       const struct pd_event *ev)
{
	return stream__add_event(st, &ev->attr, ev->name, ev->ids, ev->nr_ids);
}

static const struct pd_sev *stream__event_of_id(const struct perfdata_stream *st,
						u64 id)
{
	uintptr_t v = (uintptr_t)intmap__get(&st->ids, id);

	return v ? &st->ev[v - 1] : NULL;
}

/* ---- records ---- */

static void stream__names_from_desc(struct perfdata_stream *st)
{
	const struct perfdata_info *info = st->info;

	for (size_t i = 0; info && i < info->nr_desc; i++) {
		const struct pd_event *d = &info->desc[i];
		const struct pd_sev *e = NULL;

		for (size_t j = 0; j < d->nr_ids && !e; j++)
			e = stream__event_of_id(st, d->ids[j]);
		if (!e && !d->nr_ids && info->nr_desc == st->nr_ev)
			e = &st->ev[i];
		if (e && d->name && d->name[0])
			session__set_event_name(st->s, e->sess, d->name);
	}
}

static void stream__build_ids_from(struct perfdata_stream *st, size_t first)
{
	for (size_t i = first; st->info && i < st->info->nr_bids; i++) {
		const struct pd_build_id *b = &st->info->bids[i];

		session__add_build_id(st->s, b->pid, b->path, b->bid, b->size);
	}
}

static int stream__attr_record(struct perfdata_stream *st,
			       const struct perf_event_header *h)
{
	const u8 *b = (const u8 *)(h + 1);
	size_t body = h->size - sizeof(*h), nr_ids, known = 0;
	struct perf_event_attr attr;
	u32 size;
	const u64 *ids;
	int ret;

	if (body < PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	memcpy(&size, b + 4, 4);
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > body)
		return -EINVAL;
	pd_attr_load(&attr, b, size, false);	/* swapped already */
	nr_ids = (body - size) / 8;
	ids = (const u64 *)(const void *)(b + ALIGN_UP((size_t)size, (size_t)8));
	if (ALIGN_UP((size_t)size, (size_t)8) + nr_ids * 8 > body)
		nr_ids = (body - ALIGN_UP((size_t)size, (size_t)8)) / 8;
	for (size_t i = 0; i < nr_ids; i++)
		known += !!stream__event_of_id(st, ids[i]);
	if (nr_ids && known == nr_ids)
		return 0;	/* an event the file's attrs described */
	ret = stream__add_event(st, &attr, NULL, ids, nr_ids);
	if (ret == -E2BIG)
		return -EINVAL;
	return ret < 0 ? ret : 0;
}

static void stream__event_update(struct perfdata_stream *st,
				 const struct perf_event_header *h)
{
	const u8 *b = (const u8 *)(h + 1);
	size_t body = h->size - sizeof(*h);
	const struct pd_sev *e;
	u64 type, id;
	char *name;

	if (body < 16) {
		st->stats.bad++;
		return;
	}
	memcpy(&type, b, 8);
	memcpy(&id, b + 8, 8);
	st->stats.user_records++;
	if (type != PD_EVENT_UPDATE_NAME)
		return;
	e = stream__event_of_id(st, id);
	name = strndup((const char *)b + 16,
		       strnlen((const char *)b + 16, body - 16));
	if (e && name && name[0])
		session__set_event_name(st->s, e->sess, name);
	free(name);
}

static void stream__feature(struct perfdata_stream *st,
			    const struct perf_event_header *h)
{
	const u8 *b = (const u8 *)(h + 1);
	size_t body = h->size - sizeof(*h), nbids;
	struct strbuf err;
	char nb[32];
	u64 feat;

	if (body < 8 || !st->info) {
		st->stats.bad += body < 8;
		return;
	}
	memcpy(&feat, b, 8);
	nbids = st->info->nr_bids;
	strbuf__init(&err);
	if (feat >= PD_FEAT_BITS ||
	    perfdata__parse_feature(st->info, (unsigned int)feat, b + 8,
				    body - 8, st->swap, &err)) {
		pr_warn("byte %" PRIu64 ": HEADER_FEATURE %s: %s; skipped",
			st->base + st->pos,
			perfdata__feature_name((unsigned int)MIN(feat, 9999),
					       nb, sizeof(nb)),
			err.buf ? err.buf : "bad feature number");
		st->stats.bad++;
	} else {
		st->stats.user_records++;
		if (feat == PD_FEAT_EVENT_DESC)
			stream__names_from_desc(st);
		if (feat == PD_FEAT_BUILD_ID)
			stream__build_ids_from(st, nbids);
	}
	strbuf__fini(&err);
}

/* perf's own record types. */
static void stream__user(struct perfdata_stream *st,
			 const struct perf_event_header *h)
{
	const u8 *b = (const u8 *)(h + 1);
	size_t body = h->size - sizeof(*h);
	struct strbuf err;
	u32 u;
	u64 v;

	switch (h->type) {
	case PERF_RECORD_HEADER_ATTR:
		if (stream__attr_record(st, h))
			st->stats.bad++;
		else
			st->stats.user_records++;
		break;
	case PERF_RECORD_HEADER_TRACING_DATA:
		/* the tracing data follows the record, padded to 8 */
		if (body < 4) {
			st->stats.bad++;
			break;
		}
		memcpy(&u, b, 4);
		st->skip = ALIGN_UP((u64)u, 8);
		st->stats.skipped++;
		break;
	case PERF_RECORD_AUXTRACE:
		/* so does the AUX area data */
		if (body < 8) {
			st->stats.bad++;
			break;
		}
		memcpy(&v, b, 8);
		st->skip = v;
		st->stats.skipped++;
		break;
	case PERF_RECORD_HEADER_BUILD_ID: {
		size_t n = st->info ? st->info->nr_bids : 0;

		strbuf__init(&err);
		if (!st->info ||
		    pd_parse_build_id_event(st->info, (const u8 *)h, h->size, false,
					 &err)) {
			st->stats.bad++;
		} else {
			st->stats.user_records++;
			stream__build_ids_from(st, n);
		}
		strbuf__fini(&err);
		break;
	}
	case PERF_RECORD_FINISHED_ROUND:
		st->stats.user_records++;
		st->marks = true;
		st->since_mark = 0;
		pd_queue__round(&st->q);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		stream__event_update(st, h);
		break;
	case PERF_RECORD_HEADER_FEATURE:
		stream__feature(st, h);
		break;
	case PERF_RECORD_HEADER_EVENT_TYPE:
	case PERF_RECORD_ID_INDEX:
	case PERF_RECORD_AUXTRACE_INFO:
	case PERF_RECORD_AUXTRACE_ERROR:
	case PERF_RECORD_THREAD_MAP:
	case PERF_RECORD_CPU_MAP:
	case PERF_RECORD_STAT_CONFIG:
	case PERF_RECORD_STAT:
	case PERF_RECORD_STAT_ROUND:
	case PERF_RECORD_TIME_CONV:
		st->stats.skipped++;
		break;
	case PERF_RECORD_FINISHED_INIT:
		st->stats.skipped++;
		st->marks = true;
		st->since_mark = 0;
		break;
	default:
		st->stats.unknown++;
		break;
	}
}

/* Swaps a kernel record (the header is swapped already). */
static int stream__swap_kernel(struct perfdata_stream *st,
			       struct perf_event_header *h)
{
	const struct perf_event_attr *a0;
	int ret;

	if (!st->nr_ev)
		return -ENOENT;
	a0 = &st->ev[0].attr;
	if (h->type == PERF_RECORD_SAMPLE) {
		const struct pd_sev *e = NULL;
		u64 id;

		if (st->nr_ev > 1 && record_swap__sample_id(h, &st->pos0, &id) == 0)
			e = stream__event_of_id(st, id);
		return record_swap__sample(h, e ? &e->attr : a0);
	}
	ret = record_swap__kernel(h, a0->sample_type, a0->sample_id_all);
	/* the trailer is native now: the carrier can be told */
	if (!ret && h->type == PERF_RECORD_MMAP2 &&
	    (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
	    !record__mmap2_build_id(h, session__attr_build_id(st->s, h)))
		ret = record_swap__mmap2_ids(h);
	return ret;
}

/* perf's kernel map: pid -1, "[kernel.kallsyms]_text", pgoff = _text. */
static void stream__kernel_mmap(struct perfdata_stream *st,
				const struct perf_event_header *h)
{
	struct rec_mmap m;

	/* only pid, pgoff and the filename are read: the union does not
	 * matter */
	if (record__parse_mmap(h, 0, false, &m) || m.pid != (u32)-1 ||
	    strncmp(m.filename, "[kernel.kallsyms]", 17))
		return;
	st->info->kernel_text = m.pgoff;
}

/* One complete record of size bytes at src (any alignment), at stream
 * offset pos. */
static u16 hdr_size(const struct perfdata_stream *st, const void *p)
{
	return rd16((const u8 *)p + 6, st->swap);
}

static int stream__record(struct perfdata_stream *st, const void *src,
			  size_t size);

/* Room for the records one decompression step yields; more than the
 * largest record (64 KiB), which is all a split one can hold back. */
#define ZBUF_SIZE (256u << 10)

static void stream__zwarn(struct perfdata_stream *st, const char *what)
{
	st->stats.bad++;
	if (st->zwarned)
		return;
	st->zwarned = true;
	pr_warn("byte %" PRIu64 ": compressed data (perf record -z): %s; "
		"what it held is skipped", st->base + st->pos, what);
}

/* Hands on the complete records of zbuf and keeps a split one. */
static int stream__unpack(struct perfdata_stream *st)
{
	size_t off = 0;
	int ret = 0;

	while (st->zfill - off >= 8) {
		const u8 *r = st->zbuf + off;
		size_t size = hdr_size(st, r);
		u32 type = rd32(r, st->swap);

		if (size < 8) {
			/* nothing after it can be framed */
			stream__zwarn(st, "a record of size under 8");
			return -EBADMSG;
		}
		if (size > st->zfill - off)
			break;
		if (type == PERF_RECORD_COMPRESSED ||
		    type == PERF_RECORD_COMPRESSED2)
			stream__zwarn(st, "a compressed record inside one");
		else
			ret = stream__record(st, r, size);
		if (ret)
			break;
		off += size;
	}
	memmove(st->zbuf, st->zbuf + off, st->zfill - off);
	st->zfill -= off;
	return ret;
}

/* What one compressed record (64 KiB at most) may decompress to: perf's
 * records compress 5 to 30 times; past this it is a zstd bomb. */
#define ZRECORD_MAX (64u << 20)

/* COMPRESSED: header, zstd data up to header.size.  COMPRESSED2:
 * header, u64 data_size, data_size bytes of zstd data, padding to 8.
 * After an error the rest of the record is dropped and the decoder
 * reset: a later record that starts a frame is read. */
static int stream__compressed(struct perfdata_stream *st, const u8 *rec,
			      size_t size, u32 type)
{
	ZSTD_inBuffer in = { rec + 8, size - 8, 0 };
	size_t total = 0;
	bool full = false;

	st->stats.compressed++;
	if (type == PERF_RECORD_COMPRESSED2) {
		u64 n = size >= 16 ? rd64(rec + 8, st->swap) : UINT64_MAX;

		if (n > size - 16) {
			stream__zwarn(st, "COMPRESSED2 data_size past the record");
			return 0;
		}
		in.src = rec + 16;
		in.size = (size_t)n;
	}
	if (!st->zds) {
		st->zds = ZSTD_createDStream();
		st->zbuf = malloc(ZBUF_SIZE);
		if (!st->zds || !st->zbuf)
			return -ENOMEM;
		ZSTD_initDStream(st->zds);
	}
	while (in.pos < in.size || full) {
		ZSTD_outBuffer out = { st->zbuf + st->zfill,
				       ZBUF_SIZE - st->zfill, 0 };
		size_t in_before = in.pos, r;
		int ret;

		r = ZSTD_decompressStream(st->zds, &out, &in);
		if (ZSTD_isError(r)) {
			stream__zwarn(st, ZSTD_getErrorName(r));
			goto reset;
		}
		full = out.pos == out.size;
		st->zfill += out.pos;
		total += out.pos;
		ret = stream__unpack(st);
		if (ret == -EBADMSG)
			goto reset;
		if (ret)
			return ret;
		if (total > ZRECORD_MAX) {
			stream__zwarn(st, "one record decompresses to more "
					  "than 64 MiB");
			goto reset;
		}
		if (!out.pos && in.pos == in_before)
			break;
	}
	return 0;
reset:
	ZSTD_initDStream(st->zds);
	st->zfill = 0;
	return 0;
}

static int stream__record(struct perfdata_stream *st, const void *src,
			  size_t size)
{
	struct perf_event_header *h;
	size_t off = 0;
	u32 type = rd32(src, st->swap);
	bool lent;
	u64 t;

	st->stats.records++;
	if (type == PERF_RECORD_COMPRESSED || type == PERF_RECORD_COMPRESSED2) {
		st->since_mark++;
		return stream__compressed(st, src, size, type);
	}
	if (type >= PERF_RECORD_USER_TYPE_START) {
		/* not queued: handled from an aligned copy (a round marker
		 * flushes, and may move, the arena) */
		h = (struct perf_event_header *)(void *)st->scratch;
		memcpy(h, src, size);
		if (st->swap)
			record_swap__header(h);
		if (st->swap && record_swap__user(h))
			st->stats.bad++;
		else
			stream__user(st, h);
		return 0;
	}
	lent = stream__lendable(st, src, size);
	if (lent) {
		/* the reader's own buffer (perfdata_stream__buffer) */
		h = (struct perf_event_header *)(uintptr_t)src;
	} else {
		if (pd_queue__reserve(&st->q, size, &off))
			return -ENOMEM;
		h = pd_queue__at(&st->q, off);
		memcpy(h, src, size);
		if (st->swap)
			record_swap__header(h);
	}
	st->in_data = true;
	st->since_mark++;
	/* the kernel writes every record 8-byte aligned */
	if ((size & 7) || (st->swap && stream__swap_kernel(st, h))) {
		st->stats.bad++;
		if (!lent)
			pd_queue__unreserve(&st->q, off);
		return 0;
	}
	if ((h->type == PERF_RECORD_MMAP || h->type == PERF_RECORD_MMAP2) &&
	    st->info && !st->info->kernel_text)
		stream__kernel_mmap(st, h);
	t = session__record_time(st->s, h);
	if (st->first_time) {
		/* perfdata__sample_range: the times alone */
		if (h->type == PERF_RECORD_SAMPLE && t && t != UINT64_MAX) {
			if (!*st->first_time || t < *st->first_time)
				*st->first_time = t;
			if (t > *st->last_time)
				*st->last_time = t;
		}
		pd_queue__unreserve(&st->q, off);
		return 0;
	}
	if (t && t != UINT64_MAX)
		return stream__queue(st, off, lent ? h : NULL, t);
	/* nothing moves the arena in session__process */
	session__process(st->s, h);
	if (!lent)
		pd_queue__unreserve(&st->q, off);
	return 0;
}

static void stream__damage(struct perfdata_stream *st, u64 at, size_t size,
			   u64 left)
{
	st->dead = true;
	st->stats.damaged = true;
	st->stats.damage_offset = st->base + at;
	st->stats.lost_bytes += left;
	pr_warn("byte %" PRIu64 ": a record of size %zu (under the 8-byte "
		"header): the %" PRIu64 " bytes from there on cannot be read",
		st->base + at, size, left);
}

static int stream__pipe_header(struct perfdata_stream *st)
{
	struct pd_file_header fh;
	struct strbuf err;
	int ret;

	strbuf__init(&err);
	ret = perfdata__parse_header(st->part, 16, &fh, &err);
	if (!ret && !fh.pipe) {
		strbuf__addf(&err, "header size %" PRIu64 ", not the pipe "
				   "header's 16", fh.size);
		ret = -EINVAL;
	}
	if (ret) {
		pr_err("the stream is not perf.data in pipe mode: %s",
		       err.buf ? err.buf : "?");
		st->dead = true;
		st->stats.damaged = true;
	} else {
		st->swap = fh.swap;
		if (st->info) {
			st->info->pipe = true;
			st->info->swapped = fh.swap;
		}
	}
	strbuf__fini(&err);
	return ret;
}

int perfdata_stream__feed(struct perfdata_stream *st, const void *buf,
			  size_t len)
{
	const u8 *p = buf;
	u8 *part = (u8 *)st->part;
	int ret;

	if (st->dead) {
		st->stats.lost_bytes += len;
		return -EINVAL;
	}
	while (len) {
		size_t n, size;

		if (st->skip) {
			n = (size_t)MIN(st->skip, (u64)len);
			st->skip -= n;
			st->stats.payload_bytes += n;
			goto consumed;
		}
		if (st->need_header) {
			n = MIN(16 - st->npart, len);
			memcpy(part + st->npart, p, n);
			st->npart += n;
			if (st->npart < 16)
				goto consumed;
			st->npart = 0;
			st->need_header = false;
			st->pos += n;
			st->stats.bytes += n;
			p += n;
			len -= n;
			if (stream__pipe_header(st)) {
				st->stats.lost_bytes += len;
				return -EINVAL;
			}
			continue;
		}
		if (st->npart) {
			/* complete the header first, then the record */
			size = st->npart >= 8 ? hdr_size(st, part) : 8;
			n = MIN(size - st->npart, len);
			memcpy(part + st->npart, p, n);
			st->npart += n;
			if (st->npart == 8 && size == 8) {
				size = hdr_size(st, part);
				if (size < 8) {
					stream__damage(st, st->pos + n - 8, size,
						       len - n);
					return -EINVAL;
				}
			}
			if (st->npart < size)
				goto consumed;
			st->npart = 0;
			ret = stream__record(st, part, size);
			if (ret)
				return ret;
			goto consumed;
		}
		if (len < 8) {
			memcpy(part, p, len);
			st->npart = len;
			n = len;
			goto consumed;
		}
		size = hdr_size(st, p);
		if (size < 8) {
			stream__damage(st, st->pos, size, len);
			return -EINVAL;
		}
		if (len < size) {
			memcpy(part, p, len);
			st->npart = len;
			n = len;
			goto consumed;
		}
		ret = stream__record(st, p, size);
		if (ret)
			return ret;
		n = size;
consumed:
		st->pos += n;
		st->stats.bytes += n;
		p += n;
		len -= n;
	}
	return 0;
}

void perfdata_stream__end(struct perfdata_stream *st)
{
	u64 leaked;

	/* a stop request ends the reading between any two bytes: the part
	 * of a record read so far is not damage */
	if (st->stopped)
		st->npart = st->zfill = 0, st->skip = 0;
	if (st->npart || (st->need_header && st->pipe)) {
		st->stats.truncated_bytes += st->npart;
		if (st->need_header)
			pr_warn("the stream ended inside its %d-byte header "
				"(%zu bytes)", PD_PIPE_HEADER_SIZE, st->npart);
		else
			pr_warn("byte %" PRIu64 ": the data ends inside a "
				"record (%zu of its bytes); it is skipped",
				st->base + st->pos - st->npart, st->npart);
		st->npart = 0;
	}
	if (st->zfill) {
		pr_warn("the compressed data ends inside a record (%zu of "
			"its bytes); it is skipped", st->zfill);
		st->stats.truncated_bytes += st->zfill;
		st->zfill = 0;
	}
	if (st->skip) {
		pr_warn("the data ends inside a payload (%" PRIu64
			" bytes missing)", st->skip);
		st->stats.truncated_bytes += 1;
		st->skip = 0;
	}
	/* cut at a record boundary: nothing above sees it */
	if (st->pipe && !st->dead && !st->stopped && st->marks &&
	    st->since_mark && !st->stats.truncated_bytes) {
		st->stats.unfinished = st->since_mark;
		pr_warn("the stream ended %" PRIu64 " records after its last "
			"FINISHED_ROUND: its final records are missing (the "
			"writer was cut off)", st->since_mark);
	}
	pd_queue__flush(&st->q, UINT64_MAX);
	leaked = session__counts(st->s)->leaked_build_id;
	if (leaked)
		pr_debug("%" PRIu64 " MMAP2 records carry the build-id flag "
			 "over a device and inode (the kernel leaks it from "
			 "another session that asks for build-ids): read as "
			 "device and inode, their binaries found by path",
			 leaked);
}

void perfdata_stats__describe(const struct perfdata_stats *st,
			      struct strbuf *sb)
{
	size_t start = sb->len;

#define ITEM(cond, ...)                                                \
	do {                                                           \
		if (cond) {                                            \
			if (sb->len > start)                           \
				strbuf__adds(sb, ", ");                \
			strbuf__addf(sb, __VA_ARGS__);                 \
		}                                                      \
	} while (0)
	ITEM(st->bad, "%" PRIu64 " bad records skipped", st->bad);
	ITEM(st->unknown, "%" PRIu64 " records of unknown types skipped",
	     st->unknown);
	ITEM(st->out_of_order, "%" PRIu64 " records out of time order",
	     st->out_of_order);
	ITEM(st->header_size, "header size %" PRIu64 ", not 104",
	     st->header_size);
	ITEM(st->file_truncated, "the file is truncated");
	ITEM(st->features_damaged, "%u feature sections skipped",
	     st->features_damaged);
	ITEM(st->truncated_bytes, "the data ends inside a record");
	ITEM(st->unfinished, "the stream ended without its final records");
	ITEM(st->no_ip_events, "%u events without IP (samples at address 0)",
	     st->no_ip_events);
	ITEM(st->damaged, "unreadable from byte %" PRIu64 " (%" PRIu64
			  " bytes lost)", st->damage_offset, st->lost_bytes);
#undef ITEM
}

void pd_log_stats(const struct perfdata_stats *stats)
{
	struct strbuf sb;

	strbuf__init(&sb);
	perfdata_stats__describe(stats, &sb);
	if (sb.len)
		pr_warn("%s", sb.buf);
	strbuf__fini(&sb);
}

