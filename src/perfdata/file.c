/* file: the perf.data file reader (ptop -i FILE): header, attrs and
 * features read with pread, the data section fed to a stream. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/core/log.h"
#include "src/core/offcpu.h"
#include "src/core/record_swap.h"
#include "src/perfdata/internal.h"
#include "src/sys/fdio.h"

/* ---- file reader ---- */

struct perfdata {
	const u8 *mem;		/* in-memory image, or NULL */
	int fd;
	u64 size;
	struct pd_file_header fh;
	struct perfdata_info info;
	struct perfdata_stats stats;
	struct perfdata_stats opened;	/* the header's and features' damage */
};

/* The one I/O primitive of the file reader: exactly len bytes at off. */
static int pd_read(const struct perfdata *pd, u64 off, void *buf, size_t len)
{
	ssize_t n;

	if (off > pd->size || len > pd->size - off)
		return -ENODATA;
	if (pd->mem) {
		memcpy(buf, pd->mem + off, len);
		return 0;
	}
	n = fd__pread_upto(pd->fd, buf, len, off);
	if (n < 0)
		return (int)n;
	return (size_t)n < len ? -ENODATA : 0;
}

static int pd_read_attrs(struct perfdata *pd, struct strbuf *err)
{
	const struct pd_file_header *fh = &pd->fh;
	size_t asz = (size_t)fh->attr_size - PD_ATTR_IDS_SIZE;
	u64 nr = fh->attrs.size / fh->attr_size;
	u8 buf[PD_MAX_ATTR_SIZE + PD_ATTR_IDS_SIZE];
	bool swap = fh->swap;
	int ret;

	if (fh->attrs.offset > pd->size ||
	    fh->attrs.size > pd->size - fh->attrs.offset) {
		strbuf__addf(err, "the attr section (byte %" PRIu64 ", %" PRIu64
				  " bytes) runs past the end of the file "
				  "(%" PRIu64 " bytes): truncated",
			     fh->attrs.offset, fh->attrs.size, pd->size);
		return -EINVAL;
	}
	if (!nr) {
		strbuf__adds(err, "the attr section is empty: no events");
		return -EINVAL;
	}
	if (nr > PD_MAX_EVENTS) {
		strbuf__addf(err, "%" PRIu64 " events: more than %d", nr,
			     PD_MAX_EVENTS);
		return -EINVAL;
	}
	pd->info.events = calloc((size_t)nr, sizeof(*pd->info.events));
	if (!pd->info.events)
		return -ENOMEM;
	for (u64 i = 0; i < nr; i++) {
		struct pd_event *e = &pd->info.events[i];
		u64 off = fh->attrs.offset + i * fh->attr_size;
		u32 stored;
		u64 ids_off, ids_size;

		pd->info.nr_events++;
		ret = pd_read(pd, off, buf, (size_t)fh->attr_size);
		if (ret) {
			strbuf__addf(err, "attr %" PRIu64 " at byte %" PRIu64
					  ": %s", i, off,
				     ret == -ENODATA ? "truncated" :
						       strerror(-ret));
			return ret == -ENODATA ? -EINVAL : ret;
		}
		stored = rd32(buf + 4, swap);
		if (stored > asz) {
			strbuf__addf(err, "attr %" PRIu64 " at byte %" PRIu64
					  ": its size %u is larger than the "
					  "entry (%zu)", i, off, stored, asz);
			return -EINVAL;
		}
		pd_attr_load(&e->attr, buf, asz, swap);
		ids_off = rd64(buf + asz, swap);
		ids_size = rd64(buf + asz + 8, swap);
		if (ids_size % 8 || ids_off > pd->size ||
		    ids_size > pd->size - ids_off) {
			strbuf__addf(err, "attr %" PRIu64 " at byte %" PRIu64
					  ": its ids (byte %" PRIu64 ", %" PRIu64
					  " bytes) are %s", i, off, ids_off,
				     ids_size,
				     ids_size % 8 ? "not a whole number of "
						    "u64" :
						    "past the end of the file");
			return -EINVAL;
		}
		if (ids_size / 8 > PD_MAX_IDS) {
			strbuf__addf(err, "attr %" PRIu64 ": %" PRIu64 " ids",
				     i, ids_size / 8);
			return -EINVAL;
		}
		if (!ids_size)
			continue;
		e->ids = malloc((size_t)ids_size);
		if (!e->ids)
			return -ENOMEM;
		ret = pd_read(pd, ids_off, e->ids, (size_t)ids_size);
		if (ret) {
			strbuf__addf(err, "ids of attr %" PRIu64 ": %s", i,
				     strerror(-ret));
			return ret == -ENODATA ? -EINVAL : ret;
		}
		e->nr_ids = (size_t)ids_size / 8;
		if (swap)
			for (size_t j = 0; j < e->nr_ids; j++)
				e->ids[j] = bswap64(e->ids[j]);
	}
	return 0;
}

/* Features come after the data: read them before it, for the build-ids
 * and the names.  A bad one is skipped with a warning. */
static void pd_read_features(struct perfdata *pd, u64 table)
{
	const u64 *flags = pd->fh.flags;
	size_t nr = 0, idx = 0;
	u8 *tab = NULL;
	char nb[32];
	int ret;

	for (int i = 0; i < 4; i++)
		nr += (size_t)__builtin_popcountll(flags[i]);
	if (!nr)
		return;
	if (table > pd->size || nr * 16 > pd->size - table) {
		pd->opened.file_truncated = true;
		pd->opened.features_damaged = (u32)nr;
		pr_warn("byte %" PRIu64 ": the table of %zu feature sections "
			"is past the end of the file (%" PRIu64 " bytes): the "
			"file is truncated; features skipped", table, nr,
			pd->size);
		return;
	}
	tab = malloc(nr * 16);
	if (!tab)
		return;
	ret = pd_read(pd, table, tab, nr * 16);
	if (ret) {
		pr_warn("byte %" PRIu64 ": reading the feature table: %s",
			table, strerror(-ret));
		free(tab);
		return;
	}
	for (unsigned int feat = 0; feat < PD_FEAT_BITS; feat++) {
		struct strbuf err;
		u64 off, size;
		u8 *buf;

		if (!(flags[feat / 64] & (1ULL << (feat % 64))))
			continue;
		off = rd64(tab + idx * 16, pd->fh.swap);
		size = rd64(tab + idx * 16 + 8, pd->fh.swap);
		idx++;
		/* every section, used or not: one past the end is a cut
		 * file (perf report would read garbage or refuse it) */
		if (off > pd->size || size > pd->size - off) {
			pd->opened.features_damaged++;
			pd->opened.file_truncated = true;
			pr_warn("byte %" PRIu64 ": feature %s (%" PRIu64
				" bytes) runs past the end of the file (%"
				PRIu64 " bytes): the file is truncated; "
				"skipped", off,
				perfdata__feature_name(feat, nb, sizeof(nb)),
				size, pd->size);
			continue;
		}
		if (feat == PD_FEAT_TRACING_DATA) {
			pd->info.tracing.offset = off;
			pd->info.tracing.size = size;
		}
		switch (feat) {
		case PD_FEAT_BUILD_ID: case PD_FEAT_HOSTNAME:
		case PD_FEAT_OSRELEASE: case PD_FEAT_VERSION:
		case PD_FEAT_ARCH: case PD_FEAT_NRCPUS: case PD_FEAT_CPUDESC:
		case PD_FEAT_CPUID: case PD_FEAT_TOTAL_MEM:
		case PD_FEAT_CMDLINE: case PD_FEAT_EVENT_DESC:
		case PD_FEAT_SAMPLE_TIME:
			break;
		default:
			continue;	/* skipped by its size */
		}
		if (size > PD_MAX_FEATURE) {
			pd->opened.features_damaged++;
			pr_warn("byte %" PRIu64 ": feature %s of %" PRIu64
				" bytes is too large; skipped", off,
				perfdata__feature_name(feat, nb, sizeof(nb)),
				size);
			continue;
		}
		buf = malloc(size ? (size_t)size : 1);
		if (!buf)
			break;
		strbuf__init(&err);
		ret = pd_read(pd, off, buf, (size_t)size);
		if (!ret)
			ret = perfdata__parse_feature(&pd->info, feat, buf,
						      (size_t)size, pd->fh.swap,
						      &err);
		if (ret) {
			pd->opened.features_damaged++;
			pr_warn("byte %" PRIu64 ": feature %s: %s; skipped",
				off, perfdata__feature_name(feat, nb, sizeof(nb)),
				err.buf ? err.buf : strerror(-ret));
		}
		strbuf__fini(&err);
		free(buf);
	}
	free(tab);
}

/* EVENT_DESC names the attrs: by id, else by position. */
static void pd_name_events(struct perfdata_info *info)
{
	for (size_t i = 0; i < info->nr_events; i++) {
		struct pd_event *e = &info->events[i];
		const struct pd_event *d = NULL;

		for (size_t j = 0; j < info->nr_desc && !d; j++)
			for (size_t k = 0; k < info->desc[j].nr_ids && !d; k++)
				for (size_t l = 0; l < e->nr_ids && !d; l++)
					if (info->desc[j].ids[k] == e->ids[l])
						d = &info->desc[j];
		if (!d && info->nr_desc == info->nr_events)
			d = &info->desc[i];
		if (d && d->name && d->name[0] && !e->name)
			e->name = strdup(d->name);
	}
}

static int pd_open(struct perfdata *pd, struct strbuf *err)
{
	struct pd_file_header *fh = &pd->fh;
	u8 hbuf[PD_HEADER_SIZE];
	size_t n = (size_t)MIN(pd->size, (u64)PD_HEADER_SIZE);
	u64 table;
	int ret;

	ret = pd_read(pd, 0, hbuf, n);
	if (ret) {
		strbuf__addf(err, "reading the header: %s", strerror(-ret));
		return ret;
	}
	ret = perfdata__parse_header(hbuf, n, fh, err);
	if (ret)
		return ret;
	pd->info.swapped = fh->swap;
	pd->info.file_size = pd->size;
	if (fh->pipe) {
		pd->info.pipe = true;
		pd->info.data.offset = 0;
		pd->info.data.size = pd->size;
		return 0;
	}
	if (fh->size != PD_HEADER_SIZE) {
		/* perf refuses it ("incompatible file format"); the fields
		 * ptop knows are where they always were */
		pd->opened.header_size = fh->size;
		pr_warn("header size %" PRIu64 " (byte 8) is not %d: perf "
			"refuses such a file; read as a %d-byte header",
			fh->size, PD_HEADER_SIZE, PD_HEADER_SIZE);
	}
	ret = pd_read_attrs(pd, err);
	if (ret)
		return ret;
	if (fh->data.offset > pd->size) {
		strbuf__addf(err, "the data section starts at byte %" PRIu64
				  ", past the end of the file (%" PRIu64
				  " bytes): truncated", fh->data.offset,
			     pd->size);
		return -EINVAL;
	}
	pd->info.data = fh->data;
	table = fh->data.offset + fh->data.size;
	if (!fh->data.size) {
		pd->info.data_size_zero = true;
		pd->info.data.size = pd->size - fh->data.offset;
		pr_warn("the header's data size is 0: the file was not "
			"finalized (was the recording killed?); reading to "
			"the end of the file");
	} else if (fh->data.size > pd->size - fh->data.offset) {
		pd->info.data.size = pd->size - fh->data.offset;
		pd->opened.file_truncated = true;
		pr_warn("the data section (byte %" PRIu64 ", %" PRIu64
			" bytes) runs past the end of the file (%" PRIu64
			" bytes): the file is truncated; reading what is "
			"there, without its features", fh->data.offset,
			fh->data.size, pd->size);
	} else {
		pd_read_features(pd, table);
	}
	pd_name_events(&pd->info);
	return 0;
}

static struct perfdata *pd_new(void)
{
	struct perfdata *pd = calloc(1, sizeof(*pd));

	if (pd)
		pd->fd = -1;
	return pd;
}

struct perfdata *perfdata__open(const char *path, struct strbuf *err)
{
	struct perfdata *pd = pd_new();
	struct stat sb;
	int ret;

	if (!pd)
		return NULL;
	pd->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (pd->fd < 0) {
		ret = -errno;
		strbuf__addf(err, "%s", strerror(-ret));
		goto fail;
	}
	if (fstat(pd->fd, &sb)) {
		ret = -errno;
		strbuf__addf(err, "%s", strerror(-ret));
		goto fail;
	}
	if (!S_ISREG(sb.st_mode)) {
		ret = -EINVAL;
		strbuf__adds(err, "not a regular file (for a pipe, use -i -)");
		goto fail;
	}
	pd->size = (u64)sb.st_size;
	ret = pd_open(pd, err);
	if (ret)
		goto fail;
	return pd;
fail:
	perfdata__close(pd);
	errno = -ret;
	return NULL;
}

struct perfdata *perfdata__open_mem(const void *buf, size_t len,
				    struct strbuf *err)
{
	struct perfdata *pd = pd_new();
	int ret;

	if (!pd)
		return NULL;
	pd->mem = buf;
	pd->size = len;
	ret = pd_open(pd, err);
	if (ret) {
		perfdata__close(pd);
		errno = -ret;
		return NULL;
	}
	return pd;
}

void perfdata__close(struct perfdata *pd)
{
	if (!pd)
		return;
	if (pd->fd >= 0)
		close(pd->fd);
	perfdata_info__fini(&pd->info);
	free(pd);
}

const struct perfdata_info *perfdata__info(const struct perfdata *pd)
{
	return &pd->info;
}

const struct perfdata_stats *perfdata__stats(const struct perfdata *pd)
{
	return &pd->stats;
}

/* Where the recording's sched_switch format puts prev_state: from its
 * tracing data, the formats first (perf's kallsyms and printk formats
 * follow them, so a bounded head is read). */
static void perfdata__switch_state(const struct perfdata *pd,
				   struct session *s)
{
	const struct pd_section *t = &pd->info.tracing;
	size_t n = (size_t)MIN(t->size, (u64)(4u << 20));
	u32 off, size;
	char *buf;

	if (!n)
		return;
	buf = malloc(n);
	if (!buf)
		return;
	if (!pd_read(pd, t->offset, buf, n) &&
	    !offcpu__state_field(buf, n, &off, &size))
		session__set_switch_state(s, off, size);
	else
		pr_warn("--off-cpu: the recording's tracing data has no "
			"sched_switch prev_state: the waits' thread states are "
			"unknown");
	free(buf);
}

/* --off-cpu of a recording: its sched_switch event with chains. */
static int perfdata__offcpu(const struct perfdata *pd, struct session *s,
			    const struct perfdata_info *info)
{
	size_t n = session__nr_events(s);

	for (size_t ev = 0; ev < n; ev++) {
		const struct perf_event_attr *a = session__event_attr(s, ev);
		const char *name = session__event_name(s, ev);

		if (a->type == PERF_TYPE_TRACEPOINT &&
		    (a->sample_type & PERF_SAMPLE_CALLCHAIN) && name &&
		    strcmp(name, "sched:sched_switch") == 0) {
			int d = session__add_offcpu(s, ev, "off-cpu");

			if (d >= 0 && !info->pipe)
				perfdata__switch_state(pd, s);
			return d < 0 ? d : 0;
		}
	}
	(void)info;
	pr_err("--off-cpu: the recording has no sched:sched_switch samples "
	       "with call chains (perf record -e sched:sched_switch -g "
	       "--switch-events)");
	return -ENOENT;
}

int perfdata__read(struct perfdata *pd, struct session *s,
		   const struct perfdata_read_opts *o)
{
	const struct perfdata_info *info = &pd->info;
	/* read into buffers the stream lends to its queue (no copy of the
	 * records whole in one); 256 KiB: a few pinned at a time, in the
	 * CPU's cache while the split records are copied */
	const size_t chunk = 256u << 10;
	struct perfdata_stream *st;
	u64 off = info->data.offset, end = off + info->data.size;
	u64 rest = 0;
	int ret = 0;

	st = perfdata_stream__new(s, info->pipe, info->swapped, off,
				  &pd->info, o);
	if (!st)
		return -ENOMEM;
	session__lock(s);
	for (size_t i = 0; i < info->nr_events && !ret; i++) {
		int idx = perfdata_stream__add_event(st, &info->events[i]);

		ret = idx < 0 ? idx : 0;
	}
	if (!ret && o && o->offcpu)
		ret = perfdata__offcpu(pd, s, info);
	for (size_t i = 0; i < info->nr_bids && !ret; i++)
		ret = session__add_build_id(s, info->bids[i].pid,
					    info->bids[i].path,
					    info->bids[i].bid,
					    info->bids[i].size);
	session__unlock(s);
	if (ret)
		goto out;
	while (off < end) {
		size_t n = (size_t)MIN((u64)chunk, end - off);

		if (o && o->stop && *o->stop) {
			ret = -EINTR;
			break;
		}
		/* (an image in memory is copied too: the fuzzers and the
		 * units go the file's way) */
		void *buf = perfdata_stream__buffer(st, n);
		int fed;

		if (!buf) {
			ret = -ENOMEM;
			break;
		}
		ret = pd_read(pd, off, buf, n);
		if (ret) {
			pr_err("byte %" PRIu64 ": %s", off,
			       strerror(ret == -ENODATA ? EIO : -ret));
			break;
		}
		session__lock(s);
		fed = perfdata_stream__feed_buffer(st, n);
		session__unlock(s);
		if (fed == -ENOMEM) {
			ret = fed;
			break;
		}
		if (fed) {
			/* damaged: logged; the rest is lost */
			rest = end - off - n;
			break;
		}
		off += n;
	}
	session__lock(s);
	perfdata_stream__set_stopped(st, ret != 0);
	perfdata_stream__end(st);
	session__unlock(s);
	pd->stats = *perfdata_stream__stats(st);
	pd->stats.lost_bytes += rest;
	pd->stats.file_truncated |= pd->opened.file_truncated;
	pd->stats.features_damaged += pd->opened.features_damaged;
	pd->stats.header_size = pd->opened.header_size;
	/* (the read for the times alone says nothing: the real one will) */
	if (!o || !o->first_time)
		pd_log_stats(&pd->stats);
out:
	perfdata_stream__free(st);
	return ret;
}


int perfdata__sample_range(struct perfdata *pd, u64 *first, u64 *last,
			   const volatile sig_atomic_t *stop)
{
	struct session_opts so = { 0 };
	struct perfdata_read_opts ro = { .stop = stop, .first_time = first,
					 .last_time = last };
	struct session *s = session__new(&so);
	int err;

	*first = *last = 0;
	if (!s)
		return -ENOMEM;
	err = perfdata__read(pd, s, &ro);
	session__free(s);
	return err;
}
