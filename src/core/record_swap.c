/* record_swap: byte order conversion of records written on the other
 * endianness (pure). */
#include <errno.h>
#include <string.h>

#include "src/core/record_swap.h"

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

/* count u64 words at off, swapped */
static void sw64_n(u8 *p, u64 count)
{
	for (u64 i = 0; i < count; i++)
		sw64(p + i * 8);
}

static void sw64_at(struct perf_event_header *h, u16 off)
{
	if (off)
		sw64((u8 *)h + off);
}

static void sw32x2_at(struct perf_event_header *h, u16 off)
{
	if (off) {
		sw32((u8 *)h + off);
		sw32((u8 *)h + off + 4);
	}
}

/* The fields a sample and a sample_id trailer share. */
static void swap_id_fields(struct perf_event_header *h,
			   const struct sample_layout *l)
{
	sw64_at(h, l->identifier);
	sw32x2_at(h, l->tid);
	sw64_at(h, l->time);
	sw64_at(h, l->id);
	sw64_at(h, l->stream_id);
	sw32x2_at(h, l->cpu);
}

int record_swap__sample(struct perf_event_header *h,
			const struct perf_event_attr *attr)
{
	u8 *b = (u8 *)h;
	struct sample_layout l;

	/* where everything is, the counts read swapped; then each field
	 * swapped in place (bytes: raw data, stacks, aux stay as they are) */
	if (record__sample_layout(attr, h, true, &l))
		return -EINVAL;
	swap_id_fields(h, &l);
	sw64_at(h, l.ip);
	sw64_at(h, l.addr);
	sw64_at(h, l.period);
	if (l.read)
		sw64_n(b + l.read, l.read_words);
	if (l.callchain)
		sw64_n(b + l.callchain, 1 + l.callchain_nr);
	if (l.raw)
		sw32(b + l.raw);
	if (l.branch) {
		/* from, to, flags: the flags are a bitfield ptop ignores */
		sw64_n(b + l.branch, (l.branch_hw_idx ? 2 : 1) +
				     l.branch_nr * 3);
	}
	if (l.regs_user)
		sw64_n(b + l.regs_user, 1 + l.regs_user_nr);
	sw64_at(h, l.stack_user);
	sw64_at(h, l.stack_dyn);
	if (l.weight && (attr->sample_type & PERF_SAMPLE_WEIGHT_STRUCT)) {
		/* u32 var1_dw, u16 var2_w, u16 var3_w */
		sw32(b + l.weight);
		sw16(b + l.weight + 4);
		sw16(b + l.weight + 6);
	} else {
		sw64_at(h, l.weight);
	}
	sw64_at(h, l.data_src);
	sw64_at(h, l.transaction);
	if (l.regs_intr)
		sw64_n(b + l.regs_intr, 1 + l.regs_intr_nr);
	sw64_at(h, l.phys_addr);
	sw64_at(h, l.cgroup);
	sw64_at(h, l.data_page_size);
	sw64_at(h, l.code_page_size);
	sw64_at(h, l.aux);
	return 0;
}

/* The sample_id trailer at the end of a non-sample record. */
static int swap_trailer(struct perf_event_header *h, u64 st, size_t n)
{
	struct sample_layout l;

	if (record__trailer_layout(st, h, n, &l))
		return -EINVAL;
	swap_id_fields(h, &l);
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
	case PERF_RECORD_HEADER_ATTR: {	/* attr, then u64 ids */
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
	case PERF_RECORD_HEADER_EVENT_TYPE:	/* u64 event_id, name */
		return swap_fixed(h, "8", h->size);
	case PERF_RECORD_HEADER_TRACING_DATA:	/* u32 size */
		return swap_fixed(h, "4", h->size);
	case PERF_RECORD_HEADER_BUILD_ID:	/* s32 pid, bytes, name */
		return swap_fixed(h, "4", h->size);
	case PERF_RECORD_ID_INDEX:	/* u64 nr, then u64 entries */
	case PERF_RECORD_EVENT_UPDATE:	/* u64 type, u64 id, payload */
	case PERF_RECORD_HEADER_FEATURE:	/* u64 feat_id, payload */
		if (body < 8)
			return -EINVAL;
		if (h->type == PERF_RECORD_EVENT_UPDATE) {
			if (body < 16)
				return -EINVAL;
			sw64(b + 8);
		}
		sw64(b);
		if (h->type == PERF_RECORD_ID_INDEX)
			for (size_t off = 8; off + 8 <= body; off += 8)
				sw64(b + off);
		return 0;
	case PERF_RECORD_AUXTRACE:	/* size, offset, reference; idx, tid,
					 * cpu */
		return swap_fixed(h, "8884444", h->size);
	default:
		return 0;
	}
}
