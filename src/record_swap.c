/* record_swap: byte order conversion of records written on the other
 * endianness (pure). */
#include <errno.h>
#include <string.h>

#include "record_swap.h"

static void sw16(u8 *p)
{
	u16 v;

	memcpy(&v, p, 2);
	v = bswap16(v);
	memcpy(p, &v, 2);
}

static void sw32(u8 *p)
{
	u32 v;

	memcpy(&v, p, 4);
	v = bswap32(v);
	memcpy(p, &v, 4);
}

static void sw64(u8 *p)
{
	u64 v;

	memcpy(&v, p, 8);
	v = bswap64(v);
	memcpy(p, &v, 8);
}

static u64 get64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, 8);
	return v;
}

static u8 revbyte(u8 b)
{
	b = (u8)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (u8)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	b = (u8)((b & 0xaa) >> 1 | (b & 0x55) << 1);
	return b;
}

void record_swap__header(struct perf_event_header *h)
{
	h->type = bswap32(h->type);
	h->misc = bswap16(h->misc);
	h->size = bswap16(h->size);
}

/* perf_event_attr, by offset: perf's layout up to PERF_ATTR_SIZE_VER8. */
static const struct {
	u8 off, width;
} attr_fields[] = {
	{ 0, 4 },	/* type */
	{ 4, 4 },	/* size */
	{ 8, 8 },	/* config */
	{ 16, 8 },	/* sample_period / sample_freq */
	{ 24, 8 },	/* sample_type */
	{ 32, 8 },	/* read_format */
	{ 48, 4 },	/* wakeup_events / wakeup_watermark */
	{ 52, 4 },	/* bp_type */
	{ 56, 8 },	/* bp_addr / config1 */
	{ 64, 8 },	/* bp_len / config2 */
	{ 72, 8 },	/* branch_sample_type */
	{ 80, 8 },	/* sample_regs_user */
	{ 88, 4 },	/* sample_stack_user */
	{ 92, 4 },	/* clockid */
	{ 96, 8 },	/* sample_regs_intr */
	{ 104, 4 },	/* aux_watermark */
	{ 108, 2 },	/* sample_max_stack */
	{ 110, 2 },	/* __reserved_2 */
	{ 112, 4 },	/* aux_sample_size */
	{ 116, 4 },	/* __reserved_3 / aux_action */
	{ 120, 8 },	/* sig_data */
	{ 128, 8 },	/* config3 */
};

void record_swap__attr(void *attr, size_t size)
{
	u8 *a = attr;

	for (size_t i = 0; i < ARRAY_SIZE(attr_fields); i++) {
		size_t off = attr_fields[i].off;

		if (off + attr_fields[i].width > size)
			continue;
		switch (attr_fields[i].width) {
		case 2:
			sw16(a + off);
			break;
		case 4:
			sw32(a + off);
			break;
		default:
			sw64(a + off);
			break;
		}
	}
	/* the flag bits (disabled, inherit, ...): bytes in place, bits of
	 * each byte reversed */
	if (size >= 48)
		for (size_t i = 40; i < 48; i++)
			a[i] = revbyte(a[i]);
}

/* A bounds-checked cursor that swaps as it goes. */
struct sc {
	u8 *p, *end;
};

static int sc_u64(struct sc *c, u64 *out)
{
	if (c->end - c->p < 8)
		return -EINVAL;
	sw64(c->p);
	if (out)
		*out = get64(c->p);
	c->p += 8;
	return 0;
}

static int sc_u32x2(struct sc *c)
{
	if (c->end - c->p < 8)
		return -EINVAL;
	sw32(c->p);
	sw32(c->p + 4);
	c->p += 8;
	return 0;
}

/* n u64 words; n is checked before any multiplication. */
static int sc_words(struct sc *c, u64 n)
{
	if (n > (u64)(c->end - c->p) / 8)
		return -EINVAL;
	for (u64 i = 0; i < n; i++, c->p += 8)
		sw64(c->p);
	return 0;
}

static int sc_skip(struct sc *c, u64 n)
{
	if (n > (u64)(c->end - c->p))
		return -EINVAL;
	c->p += n;
	return 0;
}

int record_swap__sample_id(const struct perf_event_header *h,
			   const struct id_pos *pos, u64 *id)
{
	const u8 *w = (const u8 *)(h + 1);
	size_t nw = h->size >= sizeof(*h) ? (h->size - sizeof(*h)) / 8 : 0;

	if (pos->sample < 0)
		return -ENOENT;
	if ((size_t)pos->sample >= nw)
		return -EINVAL;
	*id = bswap64(get64(w + (size_t)pos->sample * 8));
	return 0;
}

static int swap_regs(struct sc *c, u64 mask)
{
	u64 abi;

	if (sc_u64(c, &abi))
		return -EINVAL;
	return abi ? sc_words(c, (u64)__builtin_popcountll(mask)) : 0;
}

int record_swap__sample(struct perf_event_header *h,
			const struct perf_event_attr *attr)
{
	u64 st = attr->sample_type, v;
	struct sc c;

	if (h->size < sizeof(*h))
		return -EINVAL;
	c.p = (u8 *)(h + 1);
	c.end = (u8 *)h + h->size;
	if ((st & PERF_SAMPLE_IDENTIFIER) && sc_u64(&c, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_IP) && sc_u64(&c, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TID) && sc_u32x2(&c))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TIME) && sc_u64(&c, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_ADDR) && sc_u64(&c, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_ID) && sc_u64(&c, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_STREAM_ID) && sc_u64(&c, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CPU) && sc_u32x2(&c))
		return -EINVAL;
	if ((st & PERF_SAMPLE_PERIOD) && sc_u64(&c, NULL))
		return -EINVAL;
	if (st & PERF_SAMPLE_READ) {
		u64 rf = attr->read_format, words;

		if (rf & PERF_FORMAT_GROUP) {
			/* the nr word, swapped first, then the rest */
			if (sc_u64(&c, &v))
				return -EINVAL;
			words = record__read_format_words(rf, v);
			if (words == UINT64_MAX || sc_words(&c, words - 1))
				return -EINVAL;
		} else if (sc_words(&c, record__read_format_words(rf, 0))) {
			return -EINVAL;
		}
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (sc_u64(&c, &v) || sc_words(&c, v))
			return -EINVAL;
	}
	if (st & PERF_SAMPLE_RAW) {
		u32 size;

		if (c.end - c.p < 4)
			return -EINVAL;
		sw32(c.p);
		memcpy(&size, c.p, 4);
		if (sc_skip(&c, 4) || sc_skip(&c, size))
			return -EINVAL;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		if (sc_u64(&c, &v))
			return -EINVAL;
		if ((attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) &&
		    sc_u64(&c, NULL))
			return -EINVAL;
		/* from, to, flags: the flags are a bitfield ptop ignores */
		if (v > (u64)(c.end - c.p) / 24 || sc_words(&c, v * 3))
			return -EINVAL;
	}
	if ((st & PERF_SAMPLE_REGS_USER) && swap_regs(&c, attr->sample_regs_user))
		return -EINVAL;
	if (st & PERF_SAMPLE_STACK_USER) {
		if (sc_u64(&c, &v) || sc_skip(&c, v))
			return -EINVAL;
		if (v && sc_u64(&c, NULL))
			return -EINVAL;
	}
	if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
		/* u32 var1_dw, u16 var2_w, u16 var3_w */
		if (c.end - c.p < 8)
			return -EINVAL;
		sw32(c.p);
		sw16(c.p + 4);
		sw16(c.p + 6);
		c.p += 8;
	} else if ((st & PERF_SAMPLE_WEIGHT) && sc_u64(&c, NULL)) {
		return -EINVAL;
	}
	if ((st & PERF_SAMPLE_DATA_SRC) && sc_u64(&c, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TRANSACTION) && sc_u64(&c, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_REGS_INTR) && swap_regs(&c, attr->sample_regs_intr))
		return -EINVAL;
	if ((st & PERF_SAMPLE_PHYS_ADDR) && sc_u64(&c, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CGROUP) && sc_u64(&c, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_DATA_PAGE_SIZE) && sc_u64(&c, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CODE_PAGE_SIZE) && sc_u64(&c, NULL))
		return -EINVAL;
	if (st & PERF_SAMPLE_AUX) {
		if (sc_u64(&c, &v) || sc_skip(&c, v))
			return -EINVAL;
	}
	return 0;
}

/* The sample_id trailer at the end of a non-sample record. */
static int swap_trailer(struct perf_event_header *h, u64 st, size_t n)
{
	struct sc c;

	if (!n)
		return 0;
	if (h->size < sizeof(*h) + n)
		return -EINVAL;
	c.p = (u8 *)h + h->size - n;
	c.end = (u8 *)h + h->size;
	if ((st & PERF_SAMPLE_TID) && sc_u32x2(&c))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TIME) && sc_u64(&c, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_ID) && sc_u64(&c, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_STREAM_ID) && sc_u64(&c, NULL))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CPU) && sc_u32x2(&c))
		return -EINVAL;
	if ((st & PERF_SAMPLE_IDENTIFIER) && sc_u64(&c, NULL))
		return -EINVAL;
	return 0;
}

/* Swaps the fields described by fmt ('8' a u64, '4' a u32, '2' a u16)
 * that start at body offset off and must end before body_end (a record
 * offset). */
static int swap_fixed_at(struct perf_event_header *h, size_t off,
			 const char *fmt, size_t body_end)
{
	u8 *p = (u8 *)(h + 1);

	for (; *fmt; fmt++) {
		size_t w = (size_t)(*fmt - '0');

		if (sizeof(*h) + off + w > body_end)
			return -EINVAL;
		if (w == 8)
			sw64(p + off);
		else if (w == 4)
			sw32(p + off);
		else
			sw16(p + off);
		off += w;
	}
	return 0;
}

static int swap_fixed(struct perf_event_header *h, const char *fmt,
		      size_t body_end)
{
	return swap_fixed_at(h, 0, fmt, body_end);
}

int record_swap__kernel(struct perf_event_header *h, u64 st,
			bool sample_id_all)
{
	size_t n = record__id_trailer_size(st, sample_id_all);
	size_t end;
	int err;

	if (h->size < sizeof(*h) + n)
		return -EINVAL;
	err = swap_trailer(h, st, n);
	if (err)
		return err;
	end = h->size - n;
	switch (h->type) {
	case PERF_RECORD_MMAP:
		return swap_fixed(h, "44888", end);
	case PERF_RECORD_MMAP2:
		err = swap_fixed(h, "44888", end);
		if (!err && !(h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
			err = swap_fixed_at(h, 32, "4488", end);
		/* else maybe build_id_size, 3 reserved bytes, 20 id bytes:
		 * record_swap__mmap2_ids once the carrier is known */
		if (!err)
			err = swap_fixed_at(h, 56, "44", end);
		return err;
	case PERF_RECORD_COMM:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return swap_fixed(h, "44", end);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return swap_fixed(h, "44448", end);
	case PERF_RECORD_LOST:
		return swap_fixed(h, "88", end);
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_CGROUP:
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		return swap_fixed(h, "8", end);
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_AUX:
		return swap_fixed(h, "888", end);
	case PERF_RECORD_KSYMBOL:
		return swap_fixed(h, "8422", end);
	case PERF_RECORD_READ: {
		/* pid, tid, then read_format values, all u64 */
		u8 *p = (u8 *)(h + 1);

		err = swap_fixed(h, "44", end);
		for (size_t off = 8; !err && sizeof(*h) + off + 8 <= end; off += 8)
			sw64(p + off);
		return err;
	}
	default:
		return 0;	/* not decoded: only the trailer matters */
	}
}

int record_swap__mmap2_ids(struct perf_event_header *h)
{
	if (h->type != PERF_RECORD_MMAP2)
		return -EINVAL;
	return swap_fixed_at(h, 32, "4488", h->size);
}

int record_swap__user(struct perf_event_header *h)
{
	u8 *b = (u8 *)(h + 1);
	size_t body = h->size >= sizeof(*h) ? h->size - sizeof(*h) : 0;

	if (h->size < sizeof(*h))
		return -EINVAL;
	switch (h->type) {
	case 64: {	/* HEADER_ATTR: attr, then u64 ids */
		u32 size;

		if (body < 8)
			return -EINVAL;
		memcpy(&size, b + 4, 4);
		size = bswap32(size);
		if (!size)
			size = PERF_ATTR_SIZE_VER0;
		if (size > body)
			return -EINVAL;
		record_swap__attr(b, size);
		for (size_t off = size; off + 8 <= body; off += 8)
			sw64(b + off);
		return 0;
	}
	case 65:	/* HEADER_EVENT_TYPE: u64 event_id, name */
		return swap_fixed(h, "8", h->size);
	case 66:	/* HEADER_TRACING_DATA: u32 size */
		return swap_fixed(h, "4", h->size);
	case 67:	/* HEADER_BUILD_ID: s32 pid, bytes, name */
		return swap_fixed(h, "4", h->size);
	case 69:	/* ID_INDEX: u64 nr, then u64 entries */
	case 78:	/* EVENT_UPDATE: u64 type, u64 id, payload */
	case 80:	/* HEADER_FEATURE: u64 feat_id, payload */
		if (body < 8)
			return -EINVAL;
		if (h->type == 78) {
			if (body < 16)
				return -EINVAL;
			sw64(b + 8);
		}
		sw64(b);
		if (h->type == 69)
			for (size_t off = 8; off + 8 <= body; off += 8)
				sw64(b + off);
		return 0;
	case 71:	/* AUXTRACE: size, offset, reference; idx, tid, cpu */
		return swap_fixed(h, "8884444", h->size);
	default:
		return 0;
	}
}
