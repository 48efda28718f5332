/* perfdata: the perf.data format: file and pipe readers feeding a
 * session, and the writer behind the sampler's record sink. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zstd.h>

#include "elfnote.h"
#include "fdio.h"
#include "events.h"
#include "log.h"
#include "perfdata.h"
#include "record.h"
#include "record_swap.h"

#define PD_MAGIC 0x32454c4946524550ULL		/* "PERFILE2" */
#define PD_MAGIC_SWAPPED 0x50455246494c4532ULL
#define PD_MAGIC_V1 0x454c494646524550ULL	/* "PERFFILE" */
#define PD_MAX_EVENTS 256
#define PD_MAX_IDS (1u << 20)
#define PD_MAX_BUILD_IDS (1u << 20)	/* entries kept from a file or stream */
#define PD_MAX_ATTR_SIZE 4096
#define PD_MAX_FEATURE (256u << 20)
#define PD_BUILD_ID_EVENT 36	/* header, pid, 24 build-id bytes */
#define PD_MISC_BUILD_ID_SIZE (1 << 15)
#define PD_EVENT_UPDATE_NAME 2
#define PD_NAME_ALIGN 64

/* ---- names ---- */

static const char *const feature_names[] = {
	[PD_FEAT_TRACING_DATA] = "tracing_data",
	[PD_FEAT_BUILD_ID] = "build_id",
	[PD_FEAT_HOSTNAME] = "hostname",
	[PD_FEAT_OSRELEASE] = "osrelease",
	[PD_FEAT_VERSION] = "version",
	[PD_FEAT_ARCH] = "arch",
	[PD_FEAT_NRCPUS] = "nrcpus",
	[PD_FEAT_CPUDESC] = "cpudesc",
	[PD_FEAT_CPUID] = "cpuid",
	[PD_FEAT_TOTAL_MEM] = "total_mem",
	[PD_FEAT_CMDLINE] = "cmdline",
	[PD_FEAT_EVENT_DESC] = "event_desc",
	[PD_FEAT_CPU_TOPOLOGY] = "cpu_topology",
	[PD_FEAT_NUMA_TOPOLOGY] = "numa_topology",
	[PD_FEAT_BRANCH_STACK] = "branch_stack",
	[PD_FEAT_PMU_MAPPINGS] = "pmu_mappings",
	[PD_FEAT_GROUP_DESC] = "group_desc",
	[PD_FEAT_AUXTRACE] = "auxtrace",
	[PD_FEAT_STAT] = "stat",
	[PD_FEAT_CACHE] = "cache",
	[PD_FEAT_SAMPLE_TIME] = "sample_time",
	[PD_FEAT_MEM_TOPOLOGY] = "mem_topology",
	[PD_FEAT_CLOCKID] = "clockid",
	[PD_FEAT_DIR_FORMAT] = "dir_format",
	[PD_FEAT_BPF_PROG_INFO] = "bpf_prog_info",
	[PD_FEAT_BPF_BTF] = "bpf_btf",
	[PD_FEAT_COMPRESSED] = "compressed",
	[PD_FEAT_CPU_PMU_CAPS] = "cpu_pmu_caps",
	[PD_FEAT_CLOCK_DATA] = "clock_data",
	[PD_FEAT_HYBRID_TOPOLOGY] = "hybrid_topology",
	[PD_FEAT_PMU_CAPS] = "pmu_caps",
};

const char *perfdata__feature_name(unsigned int feat, char *buf, size_t len)
{
	if (feat < ARRAY_SIZE(feature_names) && feature_names[feat])
		return feature_names[feat];
	snprintf(buf, len, "feature %u", feat);
	return buf;
}

static const char *const user_type_names[] = {
	[PD_RECORD_HEADER_ATTR - 64] = "HEADER_ATTR",
	[PD_RECORD_HEADER_EVENT_TYPE - 64] = "HEADER_EVENT_TYPE",
	[PD_RECORD_HEADER_TRACING_DATA - 64] = "HEADER_TRACING_DATA",
	[PD_RECORD_HEADER_BUILD_ID - 64] = "HEADER_BUILD_ID",
	[PD_RECORD_FINISHED_ROUND - 64] = "FINISHED_ROUND",
	[PD_RECORD_ID_INDEX - 64] = "ID_INDEX",
	[PD_RECORD_AUXTRACE_INFO - 64] = "AUXTRACE_INFO",
	[PD_RECORD_AUXTRACE - 64] = "AUXTRACE",
	[PD_RECORD_AUXTRACE_ERROR - 64] = "AUXTRACE_ERROR",
	[PD_RECORD_THREAD_MAP - 64] = "THREAD_MAP",
	[PD_RECORD_CPU_MAP - 64] = "CPU_MAP",
	[PD_RECORD_STAT_CONFIG - 64] = "STAT_CONFIG",
	[PD_RECORD_STAT - 64] = "STAT",
	[PD_RECORD_STAT_ROUND - 64] = "STAT_ROUND",
	[PD_RECORD_EVENT_UPDATE - 64] = "EVENT_UPDATE",
	[PD_RECORD_TIME_CONV - 64] = "TIME_CONV",
	[PD_RECORD_HEADER_FEATURE - 64] = "HEADER_FEATURE",
	[PD_RECORD_COMPRESSED - 64] = "COMPRESSED",
	[PD_RECORD_FINISHED_INIT - 64] = "FINISHED_INIT",
	[PD_RECORD_COMPRESSED2 - 64] = "COMPRESSED2",
};

const char *perfdata__type_name(u32 type)
{
	if (type >= 64 && type - 64 < ARRAY_SIZE(user_type_names))
		return user_type_names[type - 64];
	return record__type_name(type);
}

/* ---- byte readers ---- */

static u16 rd16(const u8 *p, bool swap)
{
	u16 v;

	memcpy(&v, p, 2);
	return swap ? bswap16(v) : v;
}

static u32 rd32(const u8 *p, bool swap)
{
	u32 v;

	memcpy(&v, p, 4);
	return swap ? bswap32(v) : v;
}

static u64 rd64(const u8 *p, bool swap)
{
	u64 v;

	memcpy(&v, p, 8);
	return swap ? bswap64(v) : v;
}

/* A bounds-checked cursor over a feature section. */
struct fcur {
	const u8 *start, *p, *end;
	bool swap;
};

static int fc_u32(struct fcur *c, u32 *v)
{
	if (c->end - c->p < 4)
		return -EINVAL;
	*v = rd32(c->p, c->swap);
	c->p += 4;
	return 0;
}

static int fc_u64(struct fcur *c, u64 *v)
{
	if (c->end - c->p < 8)
		return -EINVAL;
	*v = rd64(c->p, c->swap);
	c->p += 8;
	return 0;
}

/* struct perf_header_string: u32 len, then len bytes holding the string
 * and its NUL (padding after).  A string without a NUL is cut at len. */
static int fc_string(struct fcur *c, char **out, struct strbuf *err)
{
	u32 len;
	size_t n;

	if (fc_u32(c, &len)) {
		strbuf__addf(err, "string length at +%zu past the end",
			     (size_t)(c->p - c->start));
		return -EINVAL;
	}
	if (len > (size_t)(c->end - c->p)) {
		strbuf__addf(err, "string of %u bytes at +%zu runs past the "
				  "end (%zu bytes left)", len,
			     (size_t)(c->p - c->start) - 4,
			     (size_t)(c->end - c->p));
		return -EINVAL;
	}
	n = strnlen((const char *)c->p, len);
	*out = strndup((const char *)c->p, n);
	if (!*out)
		return -ENOMEM;
	c->p += len;
	return 0;
}

/* ---- info ---- */

static void event__fini(struct pd_event *ev)
{
	free(ev->ids);
	free(ev->name);
	memset(ev, 0, sizeof(*ev));
}

void perfdata_info__fini(struct perfdata_info *info)
{
	free(info->hostname);
	free(info->osrelease);
	free(info->version);
	free(info->arch);
	free(info->cpudesc);
	free(info->cpuid);
	free(info->cmdline);
	for (size_t i = 0; i < info->nr_events; i++)
		event__fini(&info->events[i]);
	free(info->events);
	for (size_t i = 0; i < info->nr_desc; i++)
		event__fini(&info->desc[i]);
	free(info->desc);
	for (size_t i = 0; i < info->nr_bids; i++)
		free(info->bids[i].path);
	free(info->bids);
	memset(info, 0, sizeof(*info));
}

const struct pd_build_id *perfdata_info__kernel(const struct perfdata_info *info)
{
	const struct pd_build_id *first = NULL;

	for (size_t i = 0; i < info->nr_bids; i++) {
		const struct pd_build_id *b = &info->bids[i];

		if ((b->misc & PERF_RECORD_MISC_CPUMODE_MASK) !=
		    PERF_RECORD_MISC_KERNEL)
			continue;
		if (strcmp(b->path, "[kernel.kallsyms]") == 0)
			return b;
		if (!first && b->path[0] == '[' && !strstr(b->path, ".ko"))
			first = b;
	}
	return first;
}

/* An attr stored in size bytes (perf's or another size) into a native
 * struct: missing fields are zero, unknown trailing ones dropped. */
static void attr_load(struct perf_event_attr *attr, const void *buf,
		      size_t size, bool swap)
{
	u8 tmp[PD_MAX_ATTR_SIZE];

	size = MIN(size, sizeof(tmp));
	memcpy(tmp, buf, size);
	if (swap)
		record_swap__attr(tmp, size);
	memset(attr, 0, sizeof(*attr));
	memcpy(attr, tmp, MIN(size, sizeof(*attr)));
	attr->size = sizeof(*attr);
}

/* ---- pure parsers ---- */

int perfdata__parse_header(const void *buf, size_t len,
			   struct pd_file_header *fh, struct strbuf *err)
{
	const u8 *b = buf;
	u64 magic;
	bool swap;

	memset(fh, 0, sizeof(*fh));
	if (len == 0) {
		strbuf__adds(err, "the file is empty");
		return -EINVAL;
	}
	if (len < 8) {
		strbuf__addf(err, "only %zu bytes: too short for a perf.data "
				  "header", len);
		return -EINVAL;
	}
	memcpy(&magic, b, 8);
	if (magic == PD_MAGIC_V1 || bswap64(magic) == PD_MAGIC_V1) {
		strbuf__adds(err, "a perf.data version 1 file (PERFFILE): "
				  "only version 2 (PERFILE2) is supported");
		return -EINVAL;
	}
	if (magic != PD_MAGIC && magic != PD_MAGIC_SWAPPED) {
		strbuf__adds(err, "not a perf.data file: it starts with ");
		for (size_t i = 0; i < 8; i++)
			strbuf__addf(err, "%02x", b[i]);
		strbuf__adds(err, ", not PERFILE2");
		return -EINVAL;
	}
	swap = magic == PD_MAGIC_SWAPPED;
	fh->swap = swap;
	if (len < 16) {
		strbuf__addf(err, "truncated at byte %zu, inside the header "
				  "(its size field is at byte 8)", len);
		return -EINVAL;
	}
	fh->size = rd64(b + 8, swap);
	if (fh->size == PD_PIPE_HEADER_SIZE) {
		fh->pipe = true;
		return 0;
	}
	if (fh->size < PD_HEADER_SIZE) {
		strbuf__addf(err, "header size %" PRIu64 " at byte 8 is "
				  "neither %d (file) nor %d (pipe)", fh->size,
			     PD_HEADER_SIZE, PD_PIPE_HEADER_SIZE);
		return -EINVAL;
	}
	if (len < PD_HEADER_SIZE) {
		strbuf__addf(err, "truncated at byte %zu, inside the %d-byte "
				  "header", len, PD_HEADER_SIZE);
		return -EINVAL;
	}
	fh->attr_size = rd64(b + 16, swap);
	fh->attrs.offset = rd64(b + 24, swap);
	fh->attrs.size = rd64(b + 32, swap);
	fh->data.offset = rd64(b + 40, swap);
	fh->data.size = rd64(b + 48, swap);
	fh->event_types.offset = rd64(b + 56, swap);
	fh->event_types.size = rd64(b + 64, swap);
	for (int i = 0; i < 4; i++)
		fh->flags[i] = rd64(b + 72 + 8 * i, swap);
	if (fh->attr_size < PERF_ATTR_SIZE_VER0 + PD_ATTR_IDS_SIZE ||
	    fh->attr_size > PD_MAX_ATTR_SIZE + PD_ATTR_IDS_SIZE) {
		strbuf__addf(err, "attr size %" PRIu64 " at byte 16 is not a "
				  "perf_event_attr size (%d to %d)",
			     fh->attr_size,
			     PERF_ATTR_SIZE_VER0 + PD_ATTR_IDS_SIZE,
			     PD_MAX_ATTR_SIZE + PD_ATTR_IDS_SIZE);
		return -EINVAL;
	}
	if (fh->attrs.size % fh->attr_size) {
		strbuf__addf(err, "the attr section's size %" PRIu64
				  " (byte 32) is not a multiple of the attr "
				  "size %" PRIu64, fh->attrs.size,
			     fh->attr_size);
		return -EINVAL;
	}
	if (fh->data.offset < PD_HEADER_SIZE) {
		strbuf__addf(err, "data offset %" PRIu64 " (byte 40) is "
				  "inside the header", fh->data.offset);
		return -EINVAL;
	}
	return 0;
}

static int add_build_id(struct perfdata_info *info, s32 pid, u16 misc,
			const u8 *bid, size_t size, const char *path)
{
	struct pd_build_id *b;

	if (info->nr_bids >= PD_MAX_BUILD_IDS)
		return -E2BIG;
	if (array__grow((void **)&info->bids, &info->cap_bids,
			info->nr_bids + 1, sizeof(*info->bids)))
		return -ENOMEM;
	b = &info->bids[info->nr_bids];
	memset(b, 0, sizeof(*b));
	b->path = strdup(path);
	if (!b->path)
		return -ENOMEM;
	b->pid = pid;
	b->misc = misc;
	b->size = (u8)MIN(size, sizeof(b->bid));
	memcpy(b->bid, bid, b->size);
	info->nr_bids++;
	return 0;
}

/* One build_id_event (feature entry or HEADER_BUILD_ID record body,
 * header included) of len bytes. */
static int parse_build_id_event(struct perfdata_info *info, const u8 *p,
				size_t len, bool swap, struct strbuf *err)
{
	u16 misc = rd16(p + 4, swap);
	s32 pid = (s32)rd32(p + 8, swap);
	size_t size = 20, n;
	char *path;
	int ret;

	if (len < PD_BUILD_ID_EVENT) {
		strbuf__addf(err, "build-id entry of %zu bytes is shorter "
				  "than %d", len, PD_BUILD_ID_EVENT);
		return -EINVAL;
	}
	if (misc & PD_MISC_BUILD_ID_SIZE) {
		size = p[12 + 20];
		if (size > 20 || !size) {
			strbuf__addf(err, "build-id size %zu is not 1..20",
				     size);
			return -EINVAL;
		}
	}
	n = strnlen((const char *)p + PD_BUILD_ID_EVENT,
		    len - PD_BUILD_ID_EVENT);
	path = strndup((const char *)p + PD_BUILD_ID_EVENT, n);
	if (!path)
		return -ENOMEM;
	ret = add_build_id(info, pid, misc, p + 12, size, path);
	free(path);
	if (ret == -E2BIG) {
		strbuf__addf(err, "more than %u build-ids", PD_MAX_BUILD_IDS);
		ret = -EINVAL;
	}
	return ret;
}

static int parse_build_ids(struct perfdata_info *info, struct fcur *c,
			   struct strbuf *err)
{
	while (c->end - c->p >= 8) {
		size_t sz = rd16(c->p + 6, c->swap);
		int ret;

		if (sz < PD_BUILD_ID_EVENT || sz > (size_t)(c->end - c->p)) {
			strbuf__addf(err, "build-id entry at +%zu has size %zu "
					  "(%zu bytes left)",
				     (size_t)(c->p - c->start), sz,
				     (size_t)(c->end - c->p));
			return -EINVAL;
		}
		ret = parse_build_id_event(info, c->p, sz, c->swap, err);
		if (ret)
			return ret;
		c->p += sz;
	}
	return 0;
}

static int parse_event_desc(struct perfdata_info *info, struct fcur *c,
			    struct strbuf *err)
{
	u32 nr, attr_size;
	struct pd_event *evs;
	int ret = -EINVAL;

	if (fc_u32(c, &nr) || fc_u32(c, &attr_size)) {
		strbuf__adds(err, "too short for its counts");
		return -EINVAL;
	}
	if (attr_size < PERF_ATTR_SIZE_VER0 || attr_size > PD_MAX_ATTR_SIZE) {
		strbuf__addf(err, "attr size %u is not 64..%d", attr_size,
			     PD_MAX_ATTR_SIZE);
		return -EINVAL;
	}
	/* each entry holds at least the attr and two u32 */
	if (nr > (size_t)(c->end - c->p) / (attr_size + 8) || nr > PD_MAX_EVENTS) {
		strbuf__addf(err, "%u events cannot fit in %zu bytes", nr,
			     (size_t)(c->end - c->p));
		return -EINVAL;
	}
	evs = calloc(nr ? nr : 1, sizeof(*evs));
	if (!evs)
		return -ENOMEM;
	for (u32 i = 0; i < nr; i++) {
		struct pd_event *e = &evs[i];
		u32 nr_ids;

		if ((size_t)(c->end - c->p) < attr_size) {
			strbuf__addf(err, "event %u: attr past the end", i);
			goto fail;
		}
		attr_load(&e->attr, c->p, attr_size, c->swap);
		c->p += attr_size;
		if (fc_u32(c, &nr_ids)) {
			strbuf__addf(err, "event %u: id count past the end", i);
			goto fail;
		}
		ret = fc_string(c, &e->name, err);
		if (ret) {
			strbuf__addf(err, " (event %u's name)", i);
			goto fail;
		}
		ret = -EINVAL;
		if (nr_ids > (size_t)(c->end - c->p) / 8) {
			strbuf__addf(err, "event %u: %u ids past the end", i,
				     nr_ids);
			goto fail;
		}
		if (nr_ids) {
			e->ids = malloc(nr_ids * sizeof(u64));
			if (!e->ids) {
				ret = -ENOMEM;
				goto fail;
			}
			for (u32 j = 0; j < nr_ids; j++)
				fc_u64(c, &e->ids[j]);
			e->nr_ids = nr_ids;
		}
	}
	for (size_t i = 0; i < info->nr_desc; i++)
		event__fini(&info->desc[i]);
	free(info->desc);
	info->desc = evs;
	info->nr_desc = nr;
	return 0;
fail:
	for (u32 i = 0; i < nr; i++)
		event__fini(&evs[i]);
	free(evs);
	return ret;
}

static int parse_cmdline(struct perfdata_info *info, struct fcur *c,
			 struct strbuf *err)
{
	struct strbuf sb;
	u32 nr;
	int ret = 0;

	if (fc_u32(c, &nr)) {
		strbuf__adds(err, "too short for its count");
		return -EINVAL;
	}
	if (nr > (size_t)(c->end - c->p) / 4) {
		strbuf__addf(err, "%u arguments cannot fit in %zu bytes", nr,
			     (size_t)(c->end - c->p));
		return -EINVAL;
	}
	strbuf__init(&sb);
	for (u32 i = 0; i < nr && !ret; i++) {
		char *arg = NULL;

		ret = fc_string(c, &arg, err);
		if (!ret) {
			if (i)
				strbuf__addc(&sb, ' ');
			strbuf__adds(&sb, arg);
		}
		free(arg);
	}
	if (!ret && sb.oom)
		ret = -ENOMEM;
	if (ret) {
		strbuf__fini(&sb);
		return ret;
	}
	free(info->cmdline);
	info->cmdline = sb.buf ? strbuf__detach(&sb) : strdup("");
	return info->cmdline ? 0 : -ENOMEM;
}

static int parse_string_feat(char **field, struct fcur *c, struct strbuf *err)
{
	char *s = NULL;
	int ret = fc_string(c, &s, err);

	if (ret)
		return ret;
	free(*field);
	*field = s;
	return 0;
}

int perfdata__parse_feature(struct perfdata_info *info, unsigned int feat,
			    const void *buf, size_t len, bool swap,
			    struct strbuf *err)
{
	struct fcur c = { .start = buf, .p = buf, .end = (const u8 *)buf + len,
			  .swap = swap };
	int ret = 0;
	u32 a, b;

	switch (feat) {
	case PD_FEAT_BUILD_ID:
		ret = parse_build_ids(info, &c, err);
		break;
	case PD_FEAT_HOSTNAME:
		ret = parse_string_feat(&info->hostname, &c, err);
		break;
	case PD_FEAT_OSRELEASE:
		ret = parse_string_feat(&info->osrelease, &c, err);
		break;
	case PD_FEAT_VERSION:
		ret = parse_string_feat(&info->version, &c, err);
		break;
	case PD_FEAT_ARCH:
		ret = parse_string_feat(&info->arch, &c, err);
		break;
	case PD_FEAT_CPUDESC:
		ret = parse_string_feat(&info->cpudesc, &c, err);
		break;
	case PD_FEAT_CPUID:
		ret = parse_string_feat(&info->cpuid, &c, err);
		break;
	case PD_FEAT_NRCPUS:
		if (fc_u32(&c, &a) || fc_u32(&c, &b)) {
			strbuf__addf(err, "%zu bytes, not 8", len);
			ret = -EINVAL;
			break;
		}
		info->nr_cpus_avail = a;
		info->nr_cpus_online = b;
		break;
	case PD_FEAT_TOTAL_MEM:
		if (fc_u64(&c, &info->total_mem_kb)) {
			strbuf__addf(err, "%zu bytes, not 8", len);
			ret = -EINVAL;
		}
		break;
	case PD_FEAT_CMDLINE:
		ret = parse_cmdline(info, &c, err);
		break;
	case PD_FEAT_EVENT_DESC:
		ret = parse_event_desc(info, &c, err);
		break;
	case PD_FEAT_SAMPLE_TIME: {
		u64 first, last;

		if (fc_u64(&c, &first) || fc_u64(&c, &last)) {
			strbuf__addf(err, "%zu bytes, not 16", len);
			ret = -EINVAL;
			break;
		}
		info->first_sample_time = first;
		info->last_sample_time = last;
		break;
	}
	default:
		return 0;	/* not used: skipped by its size */
	}
	if (!ret && feat < PD_FEAT_BITS)
		info->features[feat / 64] |= 1ULL << (feat % 64);
	return ret;
}

/* ---- the record stream ---- */

/*
 * Ordering, as perf's ordered_events: timed kernel records are queued;
 * at each FINISHED_ROUND those not newer than the largest time seen at
 * the previous round are sorted and handed on (a record of round N may
 * be older than one of round N-1 from another CPU, never older than one
 * of round N-2).  Untimed records go at once.  When the queue holds more
 * than queue_bytes, its older half goes.
 */
struct pd_ref {
	u64 time, seq;
	size_t off;		/* in the arena */
};

/* A run being merged: its next record and its end. */
struct run_cur {
	size_t pos, end;
};

struct pd_sev {
	struct perf_event_attr attr;
	size_t sess;		/* session event index */
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

	u8 *arena;		/* queued records, each 8-byte aligned */
	size_t alen, acap;
	u8 *spare;		/* the arena compaction copies into */
	size_t spare_cap;
	struct pd_ref *refs;	/* [head, nr_refs) are queued */
	size_t head, nr_refs, cap_refs;
	size_t live;		/* arena bytes of the queued records */
	/* refs are sorted runs (a pass of perf over its per-CPU buffers
	 * writes one per CPU): where each run after the first starts */
	size_t *runs;
	size_t nr_runs, cap_runs;
	struct pd_ref *tmp;	/* merge space */
	size_t cap_tmp;
	struct run_cur *heap;
	size_t cap_heap;
	u64 seq, max_time, next_flush, last_flushed;
	size_t limit;

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
};

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
	st->swap = swap;
	st->base = base;
	st->limit = o && o->queue_bytes ? o->queue_bytes : 64u << 20;
	intmap__init(&st->ids);
	record__id_pos(0, &st->pos0);
	return st;
}

void perfdata_stream__free(struct perfdata_stream *st)
{
	if (!st)
		return;

	free(st->arena);
	free(st->spare);
	free(st->refs);
	free(st->runs);
	free(st->tmp);
	free(st->heap);
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

bool perfdata_stream__in_data(const struct perfdata_stream *st)
{
	return st->in_data;
}

static const char *event_name(const struct perf_event_attr *attr, char *buf,
			      size_t len)
{
	const char *n = events__name_of(attr->type, attr->config, buf, len);

	if (!n) {
		snprintf(buf, len, "event:%u:%#" PRIx64, attr->type,
			 (u64)attr->config);
		n = buf;
	}
	return n;
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
		name = event_name(attr, buf, sizeof(buf));
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

/* ---- the queue ---- */

static int ref_cmp(const void *a, const void *b)
{
	const struct pd_ref *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Room for a record of size bytes at the top of the arena: its offset. */
static int stream__push(struct perfdata_stream *st, size_t size, size_t *off)
{
	size_t need = st->alen + ALIGN_UP(size, (size_t)8);

	if (need > st->acap) {
		size_t cap = st->acap ? st->acap : 1u << 16;
		u8 *p;

		while (cap < need)
			cap *= 2;
		p = realloc(st->arena, cap);
		if (!p)
			return -ENOMEM;
		st->arena = p;
		st->acap = cap;
	}
	*off = st->alen;
	st->alen = need;
	return 0;
}

static struct perf_event_header *stream__at(struct perfdata_stream *st,
					    size_t off)
{
	return (struct perf_event_header *)(void *)(st->arena + off);
}

static size_t stream__rec_bytes(struct perfdata_stream *st, size_t off)
{
	return ALIGN_UP((size_t)stream__at(st, off)->size, (size_t)8);
}

/* Delivered records leave holes in the arena; once the holes outweigh
 * what is still queued, the queued records move to a fresh arena (in
 * time order), so the arena stays within twice the queue plus 1 MiB. */
static void stream__compact(struct perfdata_stream *st)
{
	size_t dst = 0, cap;
	u8 *t;

	if (st->alen <= 2 * st->live + (1u << 20))
		return;
	/* two buffers in turn: no allocation (and no page faults) in the
	 * steady state */
	if (st->spare_cap < st->live) {
		cap = st->live + st->live / 2 + (1u << 16);
		t = realloc(st->spare, cap);
		if (!t)
			return;	/* keep the holes */
		st->spare = t;
		st->spare_cap = cap;
	}
	for (size_t i = st->head; i < st->nr_refs; i++) {
		struct pd_ref *r = &st->refs[i];
		size_t n = stream__rec_bytes(st, r->off);

		memcpy(st->spare + dst, st->arena + r->off, n);
		r->off = dst;
		dst += n;
	}
	t = st->arena;
	st->arena = st->spare;
	st->spare = t;
	cap = st->acap;
	st->acap = st->spare_cap;
	st->spare_cap = cap;
	st->alen = dst;
}

static bool run_less(const struct pd_ref *refs, const struct run_cur *a,
		     const struct run_cur *b)
{
	return ref_cmp(&refs[a->pos], &refs[b->pos]) < 0;
}

static void heap_down(const struct pd_ref *refs, struct run_cur *h, size_t n,
		      size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct run_cur t;

		if (l < n && run_less(refs, &h[l], &h[m]))
			m = l;
		if (l + 1 < n && run_less(refs, &h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* Merges the sorted runs of the queue into one: O(n log runs). */
static int stream__merge(struct perfdata_stream *st)
{
	size_t n = st->nr_refs - st->head, k = st->nr_runs + 1, out = 0;
	struct run_cur *h;

	if (!st->nr_runs)
		return 0;
	if (array__grow((void **)&st->heap, &st->cap_heap, k,
			sizeof(*st->heap)) ||
	    array__grow((void **)&st->tmp, &st->cap_tmp, n,
			sizeof(*st->tmp))) {
		/* no memory for the merge: sort in place */
		qsort(st->refs + st->head, n, sizeof(*st->refs), ref_cmp);
		st->nr_runs = 0;
		return 0;
	}
	h = st->heap;
	for (size_t i = 0; i < k; i++) {
		h[i].pos = i ? st->runs[i - 1] : st->head;
		h[i].end = i < st->nr_runs ? st->runs[i] : st->nr_refs;
	}
	for (size_t i = k / 2; i-- > 0;)
		heap_down(st->refs, h, k, i);
	while (k) {
		st->tmp[out++] = st->refs[h[0].pos++];
		if (h[0].pos == h[0].end)
			h[0] = h[--k];
		heap_down(st->refs, h, k, 0);
	}
	memcpy(st->refs + st->head, st->tmp, n * sizeof(*st->refs));
	st->nr_runs = 0;
	return 0;
}

/* Hands on the queued records with a time up to limit, in time order. */
static void stream__flush(struct perfdata_stream *st, u64 limit)
{
	if (st->head == st->nr_refs)
		return;
	stream__merge(st);
	while (st->head < st->nr_refs && st->refs[st->head].time <= limit) {
		struct pd_ref *r = &st->refs[st->head++];

		session__process(st->s, stream__at(st, r->off));
		st->live -= stream__rec_bytes(st, r->off);
		st->last_flushed = r->time;
	}
	if (st->head == st->nr_refs) {
		st->head = st->nr_refs = 0;
		st->alen = 0;
		return;
	}
	if (st->head > st->nr_refs / 2) {
		/* the queue is one run now: moving it keeps no run index */
		memmove(st->refs, st->refs + st->head,
			(st->nr_refs - st->head) * sizeof(*st->refs));
		st->nr_refs -= st->head;
		st->head = 0;
	}
	stream__compact(st);
}

static int stream__queue(struct perfdata_stream *st, size_t off, u64 time)
{
	struct pd_ref *r;
	size_t i;

	if (array__grow((void **)&st->refs, &st->cap_refs, st->nr_refs + 1,
			sizeof(*st->refs)))
		return -ENOMEM;
	if (time < st->last_flushed)
		st->stats.out_of_order++;
	r = &st->refs[st->nr_refs++];
	r->time = time;
	r->seq = st->seq++;
	r->off = off;
	st->live += stream__rec_bytes(st, off);
	/* a record older than the one before starts a new sorted run */
	if (st->nr_refs - 1 > st->head &&
	    st->refs[st->nr_refs - 2].time > time) {
		if (array__grow((void **)&st->runs, &st->cap_runs,
				st->nr_runs + 1, sizeof(*st->runs))) {
			st->nr_refs--;
			st->live -= stream__rec_bytes(st, off);
			return -ENOMEM;
		}
		st->runs[st->nr_runs++] = st->nr_refs - 1;
	}
	if (time > st->max_time)
		st->max_time = time;
	if (st->live > st->limit) {
		u64 lo = UINT64_MAX, hi = 0, mid;

		for (i = st->head; i < st->nr_refs; i++) {
			lo = MIN(lo, st->refs[i].time);
			hi = MAX(hi, st->refs[i].time);
		}
		mid = lo + (hi - lo) / 2;
		stream__flush(st, mid);
		if (st->live > st->limit)
			stream__flush(st, UINT64_MAX);
		st->next_flush = MAX(st->next_flush, mid);
	}
	return 0;
}

static void stream__round(struct perfdata_stream *st)
{
	stream__flush(st, st->next_flush);
	st->next_flush = st->max_time;
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
	attr_load(&attr, b, size, false);	/* swapped already */
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
	case PD_RECORD_HEADER_ATTR:
		if (stream__attr_record(st, h))
			st->stats.bad++;
		else
			st->stats.user_records++;
		break;
	case PD_RECORD_HEADER_TRACING_DATA:
		/* the tracing data follows the record, padded to 8 */
		if (body < 4) {
			st->stats.bad++;
			break;
		}
		memcpy(&u, b, 4);
		st->skip = ALIGN_UP((u64)u, 8);
		st->stats.skipped++;
		break;
	case PD_RECORD_AUXTRACE:
		/* so does the AUX area data */
		if (body < 8) {
			st->stats.bad++;
			break;
		}
		memcpy(&v, b, 8);
		st->skip = v;
		st->stats.skipped++;
		break;
	case PD_RECORD_HEADER_BUILD_ID: {
		size_t n = st->info ? st->info->nr_bids : 0;

		strbuf__init(&err);
		if (!st->info ||
		    parse_build_id_event(st->info, (const u8 *)h, h->size, false,
					 &err)) {
			st->stats.bad++;
		} else {
			st->stats.user_records++;
			stream__build_ids_from(st, n);
		}
		strbuf__fini(&err);
		break;
	}
	case PD_RECORD_FINISHED_ROUND:
		st->stats.user_records++;
		st->marks = true;
		st->since_mark = 0;
		stream__round(st);
		break;
	case PD_RECORD_EVENT_UPDATE:
		stream__event_update(st, h);
		break;
	case PD_RECORD_HEADER_FEATURE:
		stream__feature(st, h);
		break;
	case PD_RECORD_HEADER_EVENT_TYPE:
	case PD_RECORD_ID_INDEX:
	case PD_RECORD_AUXTRACE_INFO:
	case PD_RECORD_AUXTRACE_ERROR:
	case PD_RECORD_THREAD_MAP:
	case PD_RECORD_CPU_MAP:
	case PD_RECORD_STAT_CONFIG:
	case PD_RECORD_STAT:
	case PD_RECORD_STAT_ROUND:
	case PD_RECORD_TIME_CONV:
		st->stats.skipped++;
		break;
	case PD_RECORD_FINISHED_INIT:
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
		if (type == PD_RECORD_COMPRESSED ||
		    type == PD_RECORD_COMPRESSED2)
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
	if (type == PD_RECORD_COMPRESSED2) {
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
	size_t off;
	u32 type = rd32(src, st->swap);
	u64 t;

	st->stats.records++;
	if (type == PD_RECORD_COMPRESSED || type == PD_RECORD_COMPRESSED2) {
		st->since_mark++;
		return stream__compressed(st, src, size, type);
	}
	if (type >= RECORD_SWAP_USER_TYPES) {
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
	if (stream__push(st, size, &off))
		return -ENOMEM;
	h = stream__at(st, off);
	memcpy(h, src, size);
	if (st->swap)
		record_swap__header(h);
	st->in_data = true;
	st->since_mark++;
	/* the kernel writes every record 8-byte aligned */
	if ((size & 7) || (st->swap && stream__swap_kernel(st, h))) {
		st->stats.bad++;
		st->alen = off;
		return 0;
	}
	if ((h->type == PERF_RECORD_MMAP || h->type == PERF_RECORD_MMAP2) &&
	    st->info && !st->info->kernel_text)
		stream__kernel_mmap(st, h);
	t = session__record_time(st->s, h);
	if (t && t != UINT64_MAX)
		return stream__queue(st, off, t);
	/* nothing moves the arena in session__process */
	session__process(st->s, h);
	st->alen = off;
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
	stream__flush(st, UINT64_MAX);
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
	u8 *p = buf;

	if (off > pd->size || len > pd->size - off)
		return -ENODATA;
	if (pd->mem) {
		memcpy(buf, pd->mem + off, len);
		return 0;
	}
	while (len) {
		ssize_t n = pread(pd->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;
		p += n;
		off += (u64)n;
		len -= (size_t)n;
	}
	return 0;
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
		attr_load(&e->attr, buf, asz, swap);
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

static void pd_log_stats(const struct perfdata_stats *stats)
{
	struct strbuf sb;

	strbuf__init(&sb);
	perfdata_stats__describe(stats, &sb);
	if (sb.len)
		pr_warn("%s", sb.buf);
	strbuf__fini(&sb);
}

int perfdata__read(struct perfdata *pd, struct session *s,
		   const struct perfdata_read_opts *o)
{
	const struct perfdata_info *info = &pd->info;
	const size_t chunk = 4u << 20;
	struct perfdata_stream *st;
	u64 off = info->data.offset, end = off + info->data.size;
	u64 rest = 0;
	u8 *buf = NULL;
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
	for (size_t i = 0; i < info->nr_bids && !ret; i++)
		ret = session__add_build_id(s, info->bids[i].pid,
					    info->bids[i].path,
					    info->bids[i].bid,
					    info->bids[i].size);
	session__unlock(s);
	if (ret)
		goto out;
	if (!pd->mem) {
		buf = malloc(chunk);
		if (!buf) {
			ret = -ENOMEM;
			goto out;
		}
	}
	while (off < end) {
		size_t n = (size_t)MIN((u64)chunk, end - off);

		if (o && o->stop && *o->stop) {
			ret = -EINTR;
			break;
		}
		const void *p = pd->mem ? pd->mem + off : buf;
		int fed;

		if (!pd->mem) {
			ret = pd_read(pd, off, buf, n);
			if (ret) {
				pr_err("byte %" PRIu64 ": %s", off,
				       strerror(ret == -ENODATA ? EIO : -ret));
				break;
			}
		}
		session__lock(s);
		fed = perfdata_stream__feed(st, p, n);
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
	st->stopped = ret != 0;
	perfdata_stream__end(st);
	session__unlock(s);
	pd->stats = *perfdata_stream__stats(st);
	pd->stats.lost_bytes += rest;
	pd->stats.file_truncated |= pd->opened.file_truncated;
	pd->stats.features_damaged += pd->opened.features_damaged;
	pd->stats.header_size = pd->opened.header_size;
	pd_log_stats(&pd->stats);
out:
	free(buf);
	perfdata_stream__free(st);
	return ret;
}

/* ---- pipe reader ---- */

struct perfdata_pipe {
	struct session *s;
	int fd;
	struct perfdata_stream *st;
	struct perfdata_info info;
	struct perfdata_stats stats;	/* final, once done */
	pthread_t thread;
	bool running, eof;
	int stop;		/* atomic */
	int done;		/* atomic */
	int wake[2];
	u8 *buf;
	size_t bufsize;
};

struct perfdata_pipe *perfdata_pipe__new(struct session *s, int fd,
					 const struct perfdata_read_opts *o)
{
	struct perfdata_pipe *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->s = s;
	p->fd = fd;
	p->wake[0] = p->wake[1] = -1;
	p->bufsize = 256u << 10;
	p->buf = malloc(p->bufsize);
	p->st = perfdata_stream__new(s, true, false, 0, &p->info, o);
	if (!p->buf || !p->st || pipe2(p->wake, O_CLOEXEC | O_NONBLOCK)) {
		perfdata_pipe__free(p);
		errno = ENOMEM;
		return NULL;
	}
	p->info.pipe = true;
	return p;
}

/* One read and its processing: 1 data, 0 end of stream, -errno. */
static int pipe__step(struct perfdata_pipe *p)
{
	ssize_t n = read(p->fd, p->buf, p->bufsize);

	if (n < 0)
		return -errno;
	if (n == 0) {
		p->eof = true;
		return 0;
	}
	session__lock(p->s);
	perfdata_stream__feed(p->st, p->buf, (size_t)n);
	session__unlock(p->s);
	return 1;
}

static void pipe__finish(struct perfdata_pipe *p)
{
	session__lock(p->s);
	p->st->stopped = !p->eof;
	perfdata_stream__end(p->st);
	p->stats = *perfdata_stream__stats(p->st);
	session__unlock(p->s);
	pd_log_stats(&p->stats);
	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
}

int perfdata_pipe__prelude(struct perfdata_pipe *p)
{
	while (!p->eof && !perfdata_stream__in_data(p->st)) {
		int r = pipe__step(p);

		if (r == -EINTR)
			return r;
		if (r < 0) {
			pr_err("reading the stream: %s", strerror(-r));
			pipe__finish(p);
			return r;
		}
	}
	if (p->eof)
		pipe__finish(p);
	return 0;
}

static void *pipe__thread(void *arg)
{
	struct perfdata_pipe *p = arg;
	struct pollfd pfd[2] = {
		{ .fd = p->fd, .events = POLLIN },
		{ .fd = p->wake[0], .events = POLLIN },
	};

	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		int r = poll(pfd, 2, 1000);

		if (r < 0 && errno != EINTR) {
			pr_err("reading the stream: %s", strerror(errno));
			break;
		}
		if (r <= 0 || (pfd[1].revents & POLLIN))
			continue;
		r = pipe__step(p);
		if (r == -EINTR || r == -EAGAIN)
			continue;
		if (r < 0)
			pr_err("reading the stream: %s", strerror(-r));
		if (r <= 0)
			break;
	}
	pipe__finish(p);
	return NULL;
}

int perfdata_pipe__start(struct perfdata_pipe *p)
{
	int err;

	if (__atomic_load_n(&p->done, __ATOMIC_ACQUIRE))
		return 0;
	err = pthread_create(&p->thread, NULL, pipe__thread, p);
	if (err) {
		pr_err("cannot start the stream reader: %s", strerror(err));
		return -err;
	}
	p->running = true;
	return 0;
}

bool perfdata_pipe__done(struct perfdata_pipe *p)
{
	return __atomic_load_n(&p->done, __ATOMIC_ACQUIRE);
}

void perfdata_pipe__stop(struct perfdata_pipe *p)
{
	if (!p->running)
		return;
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	if (write(p->wake[1], "x", 1) < 0) {
		/* a full pipe wakes the thread as well */
	}
	pthread_join(p->thread, NULL);
	p->running = false;
}

void perfdata_pipe__free(struct perfdata_pipe *p)
{
	if (!p)
		return;
	perfdata_pipe__stop(p);
	if (p->fd >= 0)
		close(p->fd);
	perfdata_stream__free(p->st);
	perfdata_info__fini(&p->info);
	free(p->buf);
	if (p->wake[0] >= 0)
		close(p->wake[0]);
	if (p->wake[1] >= 0)
		close(p->wake[1]);
	free(p);
}

const struct perfdata_info *perfdata_pipe__info(const struct perfdata_pipe *p)
{
	return &p->info;
}

const struct perfdata_stats *perfdata_pipe__stats(const struct perfdata_pipe *p)
{
	return perfdata_stream__stats(p->st);
}

/* ---- --time ---- */

/* "SEC[.FRACTION]" (at most nine decimals) in ns. */
static int parse_ts(const char *s, size_t len, u64 *ns)
{
	u64 sec = 0, frac = 0;
	size_t i = 0, digits = 0;

	if (!len)
		return -EINVAL;
	for (; i < len && isdigit((unsigned char)s[i]); i++) {
		if (sec > (UINT64_MAX / 1000000000ULL - 9) / 10)
			return -EINVAL;
		sec = sec * 10 + (u64)(s[i] - '0');
	}
	if (!i)
		return -EINVAL;
	if (i < len && s[i] == '.') {
		for (i++; i < len && isdigit((unsigned char)s[i]); i++) {
			if (++digits > 9)
				return -EINVAL;
			frac = frac * 10 + (u64)(s[i] - '0');
		}
	}
	if (i != len)
		return -EINVAL;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

/* "NN%" or "NN.N%" as a fraction. */
static int parse_pct(const char *s, size_t len, double *out)
{
	char buf[32], *end;
	double v;

	if (!len || len >= sizeof(buf) || s[len - 1] != '%')
		return -EINVAL;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	if (!isdigit((unsigned char)buf[0]))
		return -EINVAL;
	v = strtod(buf, &end);
	if (*end || v < 0 || v > 100)
		return -EINVAL;
	*out = v / 100.0;
	return 0;
}

int perfdata__parse_time(const char *str, u64 first, u64 last, u64 *start,
			 u64 *end, struct strbuf *err)
{
	const char *comma, *sep;
	u64 a = 0, b = UINT64_MAX;

	if (strchr(str, '%')) {
		double pa, pb, span;
		u64 n;

		if (!first || last <= first) {
			strbuf__adds(err, "percentages need the recording's "
					  "sample time range (HEADER_SAMPLE_TIME), "
					  "which it does not have: give times in "
					  "seconds");
			return -EINVAL;
		}
		span = (double)(last - first);
		if ((sep = strchr(str, '/'))) {
			/* "10%/2": the second tenth */
			if (parse_pct(str, (size_t)(sep - str), &pa) ||
			    parse_u64(sep + 1, &n) || !n || pa <= 0 ||
			    (double)(n - 1) * pa >= 1.0 + 1e-9)
				goto bad;
			pb = MIN((double)n * pa, 1.0);
			pa = (double)(n - 1) * pa;
		} else if ((sep = strchr(str, '-'))) {
			if (parse_pct(str, (size_t)(sep - str), &pa) ||
			    parse_pct(sep + 1, strlen(sep + 1), &pb) || pb < pa)
				goto bad;
		} else {
			goto bad;
		}
		*start = first + (u64)(pa * span);
		b = first + (u64)(pb * span);
		*end = b == UINT64_MAX ? b : b + 1;
		return 0;
	}
	comma = strchr(str, ',');
	if (!comma || strchr(comma + 1, ','))
		goto bad;
	if (comma > str && parse_ts(str, (size_t)(comma - str), &a))
		goto bad;
	if (comma[1] && parse_ts(comma + 1, strlen(comma + 1), &b))
		goto bad;
	if ((comma == str && !comma[1]) || b < a)
		goto bad;
	*start = a;
	/* perf's end is inclusive; the session's is not */
	*end = b == UINT64_MAX ? b : b + 1;
	return 0;
bad:
	strbuf__addf(err, "bad time window '%s': use START,END in seconds "
			  "(e.g. 1887.5,1888.25; either may be empty), "
			  "A%%-B%% or A%%/N", str);
	return -EINVAL;
}

/* ---- feature builders ---- */

static void put_u32(struct strbuf *sb, u32 v)
{
	strbuf__add(sb, (const char *)&v, 4);
}

static void put_u64(struct strbuf *sb, u64 v)
{
	strbuf__add(sb, (const char *)&v, 8);
}

static void put_zeros(struct strbuf *sb, size_t n)
{
	static const char z[64];

	while (n) {
		size_t k = MIN(n, sizeof(z));

		strbuf__add(sb, z, k);
		n -= k;
	}
}

int perfdata__build_string(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s) + 1, len = ALIGN_UP(n, (size_t)PD_NAME_ALIGN);

	put_u32(sb, (u32)len);
	strbuf__add(sb, s, n);
	put_zeros(sb, len - n);
	return sb->oom ? -ENOMEM : 0;
}

int perfdata__build_build_ids(struct strbuf *sb, const struct pd_build_id *b,
			      size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		size_t n = strlen(b[i].path) + 1;
		size_t len = ALIGN_UP(n, (size_t)PD_NAME_ALIGN);
		struct perf_event_header h = {
			.type = 0,
			.misc = (u16)(b[i].misc | PD_MISC_BUILD_ID_SIZE),
			.size = (u16)(PD_BUILD_ID_EVENT + len),
		};
		u8 bid[24] = { 0 };

		if (PD_BUILD_ID_EVENT + len > 0xffff)
			continue;
		memcpy(bid, b[i].bid, MIN((size_t)b[i].size, (size_t)20));
		bid[20] = (u8)MIN((size_t)b[i].size, (size_t)20);
		strbuf__add(sb, (const char *)&h, sizeof(h));
		put_u32(sb, (u32)b[i].pid);
		strbuf__add(sb, (const char *)bid, sizeof(bid));
		strbuf__add(sb, b[i].path, n);
		put_zeros(sb, len - n);
	}
	return sb->oom ? -ENOMEM : 0;
}

int perfdata__build_event_desc(struct strbuf *sb, const struct pd_event *ev,
			       size_t nr)
{
	put_u32(sb, (u32)nr);
	put_u32(sb, (u32)sizeof(struct perf_event_attr));
	for (size_t i = 0; i < nr; i++) {
		char buf[128];

		strbuf__add(sb, (const char *)&ev[i].attr, sizeof(ev[i].attr));
		put_u32(sb, (u32)ev[i].nr_ids);
		perfdata__build_string(sb, ev[i].name ? ev[i].name :
				       event_name(&ev[i].attr, buf, sizeof(buf)));
		for (size_t j = 0; j < ev[i].nr_ids; j++)
			put_u64(sb, ev[i].ids[j]);
	}
	return sb->oom ? -ENOMEM : 0;
}

/* ---- writer ---- */

struct kmap {
	u64 start, len, pgoff;
	char name[64];
};

struct perfdata_writer {
	struct session *s;
	struct perfdata_writer_opts o;
	char *path;
	int fd;
	bool pipe;

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
	struct kmap *kmaps;
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

/* _text, _etext and the modules, read before sampling starts. */
static void writer__read_kmaps(struct perfdata_writer *w)
{
	const char *ks = w->o.kallsyms ? w->o.kallsyms : "/proc/kallsyms";
	const char *mods = w->o.modules ? w->o.modules : "/proc/modules";
	u64 text = 0, etext = 0, maxk = 0;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	f = fopen(ks, "re");
	if (f) {
		while (getline(&line, &cap, f) > 0) {
			char type, name[256];
			u64 addr;

			if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type,
				   name) != 3 || strchr(line, '['))
				continue;
			if (strcmp(name, "_text") == 0)
				text = addr;
			else if (strcmp(name, "_etext") == 0)
				etext = addr;
			else if ((type == 'T' || type == 't') && addr > maxk)
				maxk = addr;
		}
		fclose(f);
	}
	if (text) {
		struct kmap *k = calloc(1, sizeof(*k));

		if (k) {
			u64 end = etext > text ? etext : maxk > text ? maxk : text + 1;

			k->start = k->pgoff = text;
			k->len = end - text;
			snprintf(k->name, sizeof(k->name), "[kernel.kallsyms]_text");
			w->kmaps = k;
			w->nr_kmaps = 1;
		}
	}
	f = text ? fopen(mods, "re") : NULL;
	while (f && getline(&line, &cap, f) > 0) {
		char name[56];
		u64 size, addr;
		struct kmap *k;

		if (sscanf(line, "%55s %" SCNu64 " %*s %*s %*s %" SCNx64, name,
			   &size, &addr) != 3 || !addr || !size)
			continue;
		k = realloc(w->kmaps, (w->nr_kmaps + 1) * sizeof(*k));
		if (!k)
			break;
		w->kmaps = k;
		k = &k[w->nr_kmaps++];
		memset(k, 0, sizeof(*k));
		k->start = addr;
		k->len = size;
		snprintf(k->name, sizeof(k->name), "[%s]", name);
	}
	if (f)
		fclose(f);
	free(line);
}

/* A kernel MMAP record (pid -1), as perf synthesizes them. */
static void put_kmap(struct strbuf *sb, const struct kmap *k, size_t trailer)
{
	size_t n = strlen(k->name) + 1, pad = ALIGN_UP(n, (size_t)8);
	struct perf_event_header h = {
		.type = PERF_RECORD_MMAP,
		.misc = PERF_RECORD_MISC_KERNEL,
		.size = (u16)(sizeof(h) + 8 + 24 + pad + trailer),
	};

	strbuf__add(sb, (const char *)&h, sizeof(h));
	put_u32(sb, (u32)-1);
	put_u32(sb, 0);
	put_u64(sb, k->start);
	put_u64(sb, k->len);
	put_u64(sb, k->pgoff);
	strbuf__add(sb, k->name, n);
	put_zeros(sb, pad - n + trailer);
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
	size_t n = session__nr_events(w->s);

	for (size_t i = 0; i < n; i++) {
		const char *name = session__event_name(w->s, i);
		struct pd_event *e;
		u64 *ids = NULL;
		size_t nr = 0;

		if (i >= w->nr_ev) {
			size_t cap = w->cap_ev;

			if (array__grow((void **)&w->ev, &w->cap_ev, i + 1,
					sizeof(*w->ev)))
				return -ENOMEM;
			if (array__grow((void **)&w->wx, &cap, w->cap_ev,
					sizeof(*w->wx)))
				return -ENOMEM;
			memset(&w->ev[i], 0, sizeof(w->ev[i]));
			memset(&w->wx[i], 0, sizeof(w->wx[i]));
			w->nr_ev = i + 1;
			if (w->started)
				w->attrs_changed = true;
		}
		e = &w->ev[i];
		if (memcmp(&e->attr, session__event_attr(w->s, i),
			   sizeof(e->attr))) {
			e->attr = *session__event_attr(w->s, i);
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
			if (array__grow((void **)&e->ids, &w->wx[i].cap_ids,
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
		struct perf_event_header h = { .type = PD_RECORD_HEADER_ATTR };

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
		.type = PD_RECORD_HEADER_FEATURE,
		.size = (u16)ALIGN_UP(n, (size_t)8),
	};

	if (ALIGN_UP(n, (size_t)8) > 0xffff)
		return;
	strbuf__add(sb, (const char *)&h, sizeof(h));
	put_u64(sb, feat);
	strbuf__add(sb, payload->buf ? payload->buf : "", payload->len);
	put_zeros(sb, ALIGN_UP(n, (size_t)8) - n);
}

static char *cpuinfo_field(const char *key)
{
	char *line = NULL, *out = NULL;
	size_t cap = 0, kl = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "re");

	while (f && !out && getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':'), *v;

		if (!colon || strncmp(line, key, kl) ||
		    (line[kl] != '\t' && line[kl] != ' ' && line[kl] != ':'))
			continue;
		v = colon + 1;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = '\0';
		out = strdup(v);
	}
	if (f)
		fclose(f);
	free(line);
	return out;
}

static u64 total_mem_kb(void)
{
	char *line = NULL;
	size_t cap = 0;
	u64 kb = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	while (f && getline(&line, &cap, f) > 0)
		if (sscanf(line, "MemTotal: %" SCNu64, &kb) == 1)
			break;
	if (f)
		fclose(f);
	free(line);
	return kb;
}

static int kernel_build_id(const struct perfdata_writer *w, u8 *bid)
{
	const char *path = w->o.kernel_notes ? w->o.kernel_notes :
					       "/sys/kernel/notes";
	u8 buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return 0;
	n = elfnote__build_id(buf, (size_t)n, false, bid, 20);
	return n > 0 ? (int)n : 0;
}

/* The features that describe this machine: read once, before sampling
 * starts (the sink must not read files with the session locked). */
static void writer__host_features(struct perfdata_writer *w)
{
	struct strbuf *f = w->host;
	struct utsname u;
	char *s;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	for (int i = 0; i <= PD_FEAT_CMDLINE; i++)
		strbuf__init(&f[i]);
	perfdata__build_string(&f[PD_FEAT_HOSTNAME], u.nodename);
	perfdata__build_string(&f[PD_FEAT_OSRELEASE], u.release);
	perfdata__build_string(&f[PD_FEAT_VERSION],
			       w->o.version ? w->o.version : "ptop");
	perfdata__build_string(&f[PD_FEAT_ARCH], u.machine);
	put_u32(&f[PD_FEAT_NRCPUS], (u32)sysconf(_SC_NPROCESSORS_CONF));
	put_u32(&f[PD_FEAT_NRCPUS], (u32)sysconf(_SC_NPROCESSORS_ONLN));
	s = cpuinfo_field("model name");
	perfdata__build_string(&f[PD_FEAT_CPUDESC], s ? s : u.machine);
	free(s);
	{
		char *vendor = cpuinfo_field("vendor_id");
		char *family = cpuinfo_field("cpu family");
		char *model = cpuinfo_field("model");
		char *step = cpuinfo_field("stepping");
		char buf[256];

		if (vendor && family && model && step)
			snprintf(buf, sizeof(buf), "%s,%s,%s,%s", vendor,
				 family, model, step);
		else
			snprintf(buf, sizeof(buf), "%s", u.machine);
		perfdata__build_string(&f[PD_FEAT_CPUID], buf);
		free(vendor);
		free(family);
		free(model);
		free(step);
	}
	put_u64(&f[PD_FEAT_TOTAL_MEM], total_mem_kb());
	put_u32(&f[PD_FEAT_CMDLINE], (u32)(w->o.argc > 0 ? w->o.argc : 1));
	if (w->o.argc > 0)
		for (int i = 0; i < w->o.argc; i++)
			perfdata__build_string(&f[PD_FEAT_CMDLINE], w->o.argv[i]);
	else
		perfdata__build_string(&f[PD_FEAT_CMDLINE], "ptop");
	w->kbid_size = kernel_build_id(w, w->kbid);
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
	session__time_range(w->s, &first, &last);
	put_u64(&f[PD_FEAT_SAMPLE_TIME], first);
	put_u64(&f[PD_FEAT_SAMPLE_TIME], last);
	for (int i = 0; i < PD_FEAT_BITS; i++)
		if (f[i].oom)
			return -ENOMEM;
	return 0;
}

static const unsigned int written_feats[] = {
	PD_FEAT_BUILD_ID, PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE,
	PD_FEAT_VERSION, PD_FEAT_ARCH, PD_FEAT_NRCPUS, PD_FEAT_CPUDESC,
	PD_FEAT_CPUID, PD_FEAT_TOTAL_MEM, PD_FEAT_CMDLINE,
	PD_FEAT_EVENT_DESC, PD_FEAT_SAMPLE_TIME,
};

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
		put_u64(sb, ids_off);
		put_u64(sb, w->ev[i].nr_ids * 8);
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
				    written_feats[i] != PD_FEAT_SAMPLE_TIME)
					put_feature_record(&sb, written_feats[i],
							   &f[written_feats[i]]);
		for (int i = 0; i < PD_FEAT_BITS; i++)
			strbuf__fini(&f[i]);
		w->data_offset = PD_PIPE_HEADER_SIZE;
		w->rec_start = w->good_end = PD_PIPE_HEADER_SIZE;
	} else {
		struct pd_section attrs, data = { 0, 0 };
		u64 flags[4] = { 0 };

		put_zeros(&sb, PD_HEADER_SIZE);
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
		wake = h->type == PD_RECORD_FINISHED_ROUND ||
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
		w->fd = open(o->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			     0600);
		if (w->fd < 0) {
			err = -errno;
			pr_err("cannot create %s: %s", o->path, strerror(-err));
			goto fail;
		}
	}
	writer__read_kmaps(w);
	writer__host_features(w);
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
	size_t nr = ARRAY_SIZE(written_feats);
	int err = 0;

	if (data_end < w->data_offset)
		return w->error;	/* not even the header made it */
	data.offset = w->data_offset;
	data.size = data_end - w->data_offset;
	strbuf__init(&tail);
	if (!w->error) {
		/* section table, then the payloads */
		off = data_end + nr * 16;
		for (size_t i = 0; i < nr; i++) {
			const struct strbuf *f = &feats[written_feats[i]];

			put_u64(&tail, off);
			put_u64(&tail, f->len);
			off += f->len;
		}
		for (size_t i = 0; i < nr; i++) {
			const struct strbuf *f = &feats[written_feats[i]];

			strbuf__add(&tail, f->buf ? f->buf : "", f->len);
		}
		if (w->attrs_changed)
			attrs = writer__attr_section(w, &tail, data_end + tail.len);
		err = tail.oom ? -ENOMEM :
			fd__pwrite_all(w->fd, tail.buf, tail.len, data_end);
		if (!err) {
			for (size_t i = 0; i < nr; i++)
				flags[written_feats[i] / 64] |=
					1ULL << (written_feats[i] % 64);
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
		if (close(w->fd) && !w->error && !w->pipe)
			writer__fail(w, -errno);
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
	if (w->fd >= 0)
		close(w->fd);
	for (size_t i = 0; i < w->nr_ev; i++)
		event__fini(&w->ev[i]);
	free(w->ev);
	free(w->wx);
	free(w->kmaps);
	for (int i = 0; i <= PD_FEAT_CMDLINE; i++)
		strbuf__fini(&w->host[i]);
	free(w->ring);
	free(w->path);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	free(w);
}
