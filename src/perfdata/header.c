/* header: the pure side of the perf.data format: names, the file
 * header, feature sections (parsers and the writer's builders), the
 * recording's info.  No I/O (unit-tested and fuzzed on byte images). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/events.h"
#include "src/core/record_swap.h"
#include "src/perfdata/internal.h"

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

/* The names of perf's own record types (record.h). */
#define USER_TYPE(t) [PERF_RECORD_##t - PERF_RECORD_USER_TYPE_START] = #t
static const char *const user_type_names[] = {
	USER_TYPE(HEADER_ATTR),
	USER_TYPE(HEADER_EVENT_TYPE),
	USER_TYPE(HEADER_TRACING_DATA),
	USER_TYPE(HEADER_BUILD_ID),
	USER_TYPE(FINISHED_ROUND),
	USER_TYPE(ID_INDEX),
	USER_TYPE(AUXTRACE_INFO),
	USER_TYPE(AUXTRACE),
	USER_TYPE(AUXTRACE_ERROR),
	USER_TYPE(THREAD_MAP),
	USER_TYPE(CPU_MAP),
	USER_TYPE(STAT_CONFIG),
	USER_TYPE(STAT),
	USER_TYPE(STAT_ROUND),
	USER_TYPE(EVENT_UPDATE),
	USER_TYPE(TIME_CONV),
	USER_TYPE(HEADER_FEATURE),
	USER_TYPE(COMPRESSED),
	USER_TYPE(FINISHED_INIT),
	USER_TYPE(COMPRESSED2),
};
#undef USER_TYPE

const char *perfdata__type_name(u32 type)
{
	u32 first = PERF_RECORD_USER_TYPE_START;

	if (type >= first && type - first < ARRAY_SIZE(user_type_names))
		return user_type_names[type - first];
	return record__type_name(type);
}

/* ---- info ---- */

void pd_event__fini(struct pd_event *ev)
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
		pd_event__fini(&info->events[i]);
	free(info->events);
	for (size_t i = 0; i < info->nr_desc; i++)
		pd_event__fini(&info->desc[i]);
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
void pd_attr_load(struct perf_event_attr *attr, const void *buf,
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
int pd_parse_build_id_event(struct perfdata_info *info, const u8 *p,
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
		ret = pd_parse_build_id_event(info, c->p, sz, c->swap, err);
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
		pd_attr_load(&e->attr, c->p, attr_size, c->swap);
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
		pd_event__fini(&info->desc[i]);
	free(info->desc);
	info->desc = evs;
	info->nr_desc = nr;
	return 0;
fail:
	for (u32 i = 0; i < nr; i++)
		pd_event__fini(&evs[i]);
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

const char *pd_event_name(const struct perf_event_attr *attr, char *buf,
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

/* ---- feature builders ---- */

void pd_put_u32(struct strbuf *sb, u32 v)
{
	strbuf__add(sb, (const char *)&v, 4);
}

void pd_put_u64(struct strbuf *sb, u64 v)
{
	strbuf__add(sb, (const char *)&v, 8);
}

void pd_put_zeros(struct strbuf *sb, size_t n)
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

	pd_put_u32(sb, (u32)len);
	strbuf__add(sb, s, n);
	pd_put_zeros(sb, len - n);
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
		pd_put_u32(sb, (u32)b[i].pid);
		strbuf__add(sb, (const char *)bid, sizeof(bid));
		strbuf__add(sb, b[i].path, n);
		pd_put_zeros(sb, len - n);
	}
	return sb->oom ? -ENOMEM : 0;
}

int perfdata__build_event_desc(struct strbuf *sb, const struct pd_event *ev,
			       size_t nr)
{
	pd_put_u32(sb, (u32)nr);
	pd_put_u32(sb, (u32)sizeof(struct perf_event_attr));
	for (size_t i = 0; i < nr; i++) {
		char buf[128];

		strbuf__add(sb, (const char *)&ev[i].attr, sizeof(ev[i].attr));
		pd_put_u32(sb, (u32)ev[i].nr_ids);
		perfdata__build_string(sb, ev[i].name ? ev[i].name :
				       pd_event_name(&ev[i].attr, buf, sizeof(buf)));
		for (size_t j = 0; j < ev[i].nr_ids; j++)
			pd_put_u64(sb, ev[i].ids[j]);
	}
	return sb->oom ? -ENOMEM : 0;
}

