/* internal: what the pieces of the perf.data folder share (limits, byte
 * readers, helpers of the header parsers and builders); not for use
 * outside src/perfdata. */
#ifndef PTOP_PERFDATA_INTERNAL_H
#define PTOP_PERFDATA_INTERNAL_H

#include <errno.h>
#include <string.h>

#include "src/core/record_swap.h"
#include "src/core/util.h"
#include "src/perfdata/perfdata.h"

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


/* A bounds-checked cursor over a feature section. */
struct fcur {
	const u8 *start, *p, *end;
	bool swap;
};

static inline int fc_u32(struct fcur *c, u32 *v)
{
	if (c->end - c->p < 4)
		return -EINVAL;
	*v = rd32(c->p, c->swap);
	c->p += 4;
	return 0;
}

static inline int fc_u64(struct fcur *c, u64 *v)
{
	if (c->end - c->p < 8)
		return -EINVAL;
	*v = rd64(c->p, c->swap);
	c->p += 8;
	return 0;
}

/* struct perf_header_string: u32 len, then len bytes holding the string
 * and its NUL (padding after).  A string without a NUL is cut at len. */
static inline int fc_string(struct fcur *c, char **out, struct strbuf *err)
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


/* An attr stored in size bytes (perf's or another size) into a native
 * struct: missing fields are zero, unknown trailing ones dropped. */
void pd_attr_load(struct perf_event_attr *attr, const void *buf, size_t size,
		  bool swap);
void pd_event__fini(struct pd_event *ev);
/* One build_id_event (feature entry or HEADER_BUILD_ID record body). */
int pd_parse_build_id_event(struct perfdata_info *info, const u8 *p,
			    size_t len, bool swap, struct strbuf *err);
/* perf's name of an attr ("cycles", "event:TYPE:CONFIG") in buf. */
const char *pd_event_name(const struct perf_event_attr *attr, char *buf,
			  size_t len);
/* Little pieces of feature payloads. */
void pd_put_u32(struct strbuf *sb, u32 v);
void pd_put_u64(struct strbuf *sb, u64 v);
void pd_put_zeros(struct strbuf *sb, size_t n);
/* The reader's stats, once, as a warning (if anything was skipped). */
void pd_log_stats(const struct perfdata_stats *stats);

#endif
