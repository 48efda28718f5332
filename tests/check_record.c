/* Tests of the pure record decoder: every sample_type bit round-trips,
 * every truncation fails cleanly, impossible counts are refused. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/record.h"
#include "tests/testutil.h"

static u64 buf[8192];

struct writer {
	u8 *p;
};

static void w64(struct writer *w, u64 v)
{
	memcpy(w->p, &v, 8);
	w->p += 8;
}

static void w32x2(struct writer *w, u32 a, u32 b)
{
	memcpy(w->p, &a, 4);
	memcpy(w->p + 4, &b, 4);
	w->p += 8;
}

static const u64 chain[] = { 0xffffffff81000010ULL, 0x401000, 0x401100 };
static const u64 regs[] = { 1, 2, 3 };	/* mask 0x7 */
static const char stack[16] = "stackstackstack";
static const char raw[12] = "raw-bytes!!";	/* 4 + 12 = 16 */

/* Writes a sample with every field of st, with known values. */
static struct perf_event_header *encode(const struct perf_event_attr *a)
{
	struct perf_event_header *h = (void *)buf;
	struct writer w = { (u8 *)(h + 1) };
	u64 st = a->sample_type;

	if (st & PERF_SAMPLE_IDENTIFIER)
		w64(&w, 77);
	if (st & PERF_SAMPLE_IP)
		w64(&w, 0x401234);
	if (st & PERF_SAMPLE_TID)
		w32x2(&w, 100, 101);
	if (st & PERF_SAMPLE_TIME)
		w64(&w, 123456789);
	if (st & PERF_SAMPLE_ADDR)
		w64(&w, 0xdead);
	if (st & PERF_SAMPLE_ID)
		w64(&w, 77);
	if (st & PERF_SAMPLE_STREAM_ID)
		w64(&w, 55);
	if (st & PERF_SAMPLE_CPU)
		w32x2(&w, 3, 0);
	if (st & PERF_SAMPLE_PERIOD)
		w64(&w, 250000);
	if (st & PERF_SAMPLE_READ) {
		/* group of 2, with id: nr, {value, id} x 2 */
		w64(&w, 2);
		w64(&w, 10);
		w64(&w, 77);
		w64(&w, 20);
		w64(&w, 78);
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		w64(&w, 3);
		for (int i = 0; i < 3; i++)
			w64(&w, chain[i]);
	}
	if (st & PERF_SAMPLE_RAW) {
		u32 n = sizeof(raw);

		memcpy(w.p, &n, 4);
		memcpy(w.p + 4, raw, n);
		w.p += 4 + n;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		w64(&w, 1);
		w64(&w, 0x1000);	/* from */
		w64(&w, 0x2000);	/* to */
		w64(&w, 0);		/* flags */
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		w64(&w, 2);	/* PERF_SAMPLE_REGS_ABI_64 */
		for (int i = 0; i < 3; i++)
			w64(&w, regs[i]);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		w64(&w, sizeof(stack));
		memcpy(w.p, stack, sizeof(stack));
		w.p += sizeof(stack);
		w64(&w, 8);
	}
	if (st & PERF_SAMPLE_WEIGHT)
		w64(&w, 42);
	if (st & PERF_SAMPLE_DATA_SRC)
		w64(&w, 43);
	if (st & PERF_SAMPLE_TRANSACTION)
		w64(&w, 44);
	if (st & PERF_SAMPLE_REGS_INTR) {
		w64(&w, 2);
		for (int i = 0; i < 3; i++)
			w64(&w, regs[i]);
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		w64(&w, 45);
	if (st & PERF_SAMPLE_CGROUP)
		w64(&w, 46);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		w64(&w, 4096);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		w64(&w, 8192);
	if (st & PERF_SAMPLE_AUX) {
		w64(&w, 8);
		w64(&w, 0xa0a0);
	}
	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = (u16)(w.p - (u8 *)h);
	return h;
}

static const u64 all_bits[] = {
	PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR,
	PERF_SAMPLE_READ, PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_ID,
	PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD, PERF_SAMPLE_STREAM_ID,
	PERF_SAMPLE_RAW, PERF_SAMPLE_BRANCH_STACK, PERF_SAMPLE_REGS_USER,
	PERF_SAMPLE_STACK_USER, PERF_SAMPLE_WEIGHT, PERF_SAMPLE_DATA_SRC,
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_TRANSACTION,
	PERF_SAMPLE_REGS_INTR, PERF_SAMPLE_PHYS_ADDR, PERF_SAMPLE_AUX,
	PERF_SAMPLE_CGROUP, PERF_SAMPLE_DATA_PAGE_SIZE,
	PERF_SAMPLE_CODE_PAGE_SIZE,
};

static void check_decoded(const struct perf_event_attr *a,
			  const struct perf_sample *s)
{
	u64 st = a->sample_type;

	if (st & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID))
		ck_assert_uint_eq(s->id, 77);
	if (st & PERF_SAMPLE_IP)
		ck_assert_uint_eq(s->ip, 0x401234);
	if (st & PERF_SAMPLE_TID) {
		ck_assert_uint_eq(s->pid, 100);
		ck_assert_uint_eq(s->tid, 101);
	}
	if (st & PERF_SAMPLE_TIME)
		ck_assert_uint_eq(s->time, 123456789);
	if (st & PERF_SAMPLE_ADDR)
		ck_assert_uint_eq(s->addr, 0xdead);
	if (st & PERF_SAMPLE_STREAM_ID)
		ck_assert_uint_eq(s->stream_id, 55);
	if (st & PERF_SAMPLE_CPU)
		ck_assert_uint_eq(s->cpu, 3);
	ck_assert_uint_eq(s->period, st & PERF_SAMPLE_PERIOD ? 250000 :
				     !a->freq && a->sample_period ? a->sample_period : 1);
	if (!(st & ~(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		     PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
		     PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
		     PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN))) {
		ck_assert_ptr_null(s->ext);
		return;
	}
	ck_assert_ptr_nonnull(s->ext);
	if (st & PERF_SAMPLE_READ) {
		ck_assert_uint_eq(s->ext->read_len, 5);
		ck_assert_uint_eq(s->ext->read[3], 20);
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		ck_assert_uint_eq(s->callchain_nr, 3);
		ck_assert_uint_eq(s->callchain[2], chain[2]);
	}
	if (st & PERF_SAMPLE_RAW) {
		ck_assert_uint_eq(s->ext->raw_size, sizeof(raw));
		ck_assert_mem_eq(s->ext->raw, raw, sizeof(raw));
	}
	if (st & PERF_SAMPLE_BRANCH_STACK)
		ck_assert_uint_eq(s->ext->branch_nr, 1);
	if (st & PERF_SAMPLE_REGS_USER) {
		ck_assert_uint_eq(s->ext->user_abi, 2);
		ck_assert_uint_eq(s->ext->user_regs_nr, 3);
		ck_assert_uint_eq(s->ext->user_regs[2], 3);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		ck_assert_uint_eq(s->ext->stack_size, sizeof(stack));
		ck_assert_mem_eq(s->ext->stack_data, stack, sizeof(stack));
		ck_assert_uint_eq(s->ext->stack_dyn_size, 8);
	}
	if (st & PERF_SAMPLE_WEIGHT)
		ck_assert_uint_eq(s->ext->weight, 42);
	if (st & PERF_SAMPLE_DATA_SRC)
		ck_assert_uint_eq(s->ext->data_src, 43);
	if (st & PERF_SAMPLE_TRANSACTION)
		ck_assert_uint_eq(s->ext->transaction, 44);
	if (st & PERF_SAMPLE_REGS_INTR)
		ck_assert_uint_eq(s->ext->intr_regs_nr, 3);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		ck_assert_uint_eq(s->ext->phys_addr, 45);
	if (st & PERF_SAMPLE_CGROUP)
		ck_assert_uint_eq(s->ext->cgroup, 46);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		ck_assert_uint_eq(s->ext->data_page_size, 4096);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		ck_assert_uint_eq(s->ext->code_page_size, 8192);
	if (st & PERF_SAMPLE_AUX)
		ck_assert_uint_eq(s->ext->aux_size, 8);
}

static void attr_for(struct perf_event_attr *a, u64 st)
{
	memset(a, 0, sizeof(*a));
	a->sample_type = st;
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	a->sample_regs_user = 0x7;
	a->sample_regs_intr = 0x7;
}

/* Each bit alone, then all of them. */
START_TEST(test_every_bit)
{
	struct perf_event_attr a;
	struct perf_sample s;
	u64 all = 0;

	/* no PERIOD field: the attr's fixed period (-c), 1 in freq mode */
	attr_for(&a, PERF_SAMPLE_IP);
	a.sample_period = 5000;
	ck_assert_int_eq(record__parse_sample(&a, encode(&a), &s), 0);
	ck_assert_uint_eq(s.period, 5000);
	a.freq = 1;
	ck_assert_int_eq(record__parse_sample(&a, encode(&a), &s), 0);
	ck_assert_uint_eq(s.period, 1);

	for (size_t i = 0; i < ARRAY_SIZE(all_bits); i++) {
		attr_for(&a, all_bits[i]);
		ck_assert_int_eq(record__parse_sample(&a, encode(&a), &s), 0);
		check_decoded(&a, &s);
		all |= all_bits[i];
	}
	attr_for(&a, all);
	ck_assert_int_eq(record__parse_sample(&a, encode(&a), &s), 0);
	check_decoded(&a, &s);
}
END_TEST

/* Every proper prefix of a full sample is refused, never over-read. */
START_TEST(test_truncated)
{
	struct perf_event_attr a;
	struct perf_event_header *h;
	struct perf_sample s;
	u64 all = 0;
	u16 full;

	for (size_t i = 0; i < ARRAY_SIZE(all_bits); i++)
		all |= all_bits[i];
	attr_for(&a, all);
	h = encode(&a);
	full = h->size;
	for (u16 sz = 0; sz < full; sz += 8) {
		h->size = sz;
		ck_assert_int_eq(record__parse_sample(&a, h, &s), -EINVAL);
	}
}
END_TEST

START_TEST(test_impossible_counts)
{
	struct perf_event_attr a;
	struct perf_event_header *h;
	struct perf_sample s;
	u64 huge = UINT64_MAX / 4;

	attr_for(&a, PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN);
	h = encode(&a);
	memcpy((u8 *)(h + 1) + 8, &huge, 8);	/* callchain nr */
	ck_assert_int_eq(record__parse_sample(&a, h, &s), -EINVAL);

	attr_for(&a, PERF_SAMPLE_READ);
	h = encode(&a);
	memcpy((u8 *)(h + 1), &huge, 8);	/* read group nr */
	ck_assert_int_eq(record__parse_sample(&a, h, &s), -EINVAL);

	attr_for(&a, PERF_SAMPLE_BRANCH_STACK);
	h = encode(&a);
	huge = UINT64_MAX;
	memcpy((u8 *)(h + 1), &huge, 8);	/* branch nr */
	ck_assert_int_eq(record__parse_sample(&a, h, &s), -EINVAL);

	attr_for(&a, PERF_SAMPLE_STACK_USER);
	h = encode(&a);
	memcpy((u8 *)(h + 1), &huge, 8);	/* stack size */
	ck_assert_int_eq(record__parse_sample(&a, h, &s), -EINVAL);

	/* every bit set, including ones the kernel does not define yet:
	 * unknown bits are ignored, known ones decoded */
	attr_for(&a, ~0ULL);
	h = encode(&a);
	(void)record__parse_sample(&a, h, &s);
}
END_TEST

START_TEST(test_id_positions)
{
	struct id_pos pos;
	struct perf_event_attr a;
	struct perf_event_header *h;
	u64 id = 0;

	record__id_pos(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP, &pos);
	ck_assert_int_eq(pos.sample, 0);
	ck_assert_int_eq(pos.trailer, 1);
	record__id_pos(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID |
			       PERF_SAMPLE_CPU, &pos);
	ck_assert_int_eq(pos.sample, 2);
	ck_assert_int_eq(pos.trailer, 2);
	record__id_pos(PERF_SAMPLE_IP, &pos);
	ck_assert_int_eq(pos.sample, -1);

	attr_for(&a, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID);
	h = encode(&a);
	record__id_pos(a.sample_type, &pos);
	ck_assert_int_eq(record__id(h, &pos, &id), 0);
	ck_assert_uint_eq(id, 77);
}
END_TEST

START_TEST(test_mmap2_and_trailer)
{
	static const u8 bid[20] = { 0xab, 0xcd, 1, 2, 3 };
	struct perf_event_attr a;
	struct perf_event_header *h;
	struct perf_sample s = { 0 };
	struct rec_mmap m;
	size_t tr;

	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			PERF_SAMPLE_IDENTIFIER;
	a.sample_id_all = 1;
	tr = record__id_trailer_size(a.sample_type, 1);
	ck_assert_uint_eq(tr, 32);
	h = fake_mmap2(buf, 42, 0x400000, 0x1000, 0x2000, "/bin/true", bid, 20,
		       tr);
	ck_assert_int_eq(record__parse_mmap(h, tr, true, &m), 0);
	ck_assert_uint_eq(m.pid, 42);
	ck_assert_uint_eq(m.start, 0x400000);
	ck_assert_uint_eq(m.pgoff, 0x2000);
	ck_assert(m.has_build_id);
	ck_assert_uint_eq(m.build_id_size, 20);
	ck_assert_uint_eq(m.build_id[0], 0xab);
	ck_assert_str_eq(m.filename, "/bin/true");
	ck_assert(m.exec);

	/* fill the trailer and read it back */
	{
		u8 *t = (u8 *)h + h->size - tr;
		u32 pt[2] = { 42, 43 }, cpu[2] = { 1, 0 };
		u64 time = 999, ident = 5;

		memcpy(t, pt, 8);
		memcpy(t + 8, &time, 8);
		memcpy(t + 16, cpu, 8);
		memcpy(t + 24, &ident, 8);
	}
	ck_assert_int_eq(record__parse_id_trailer(&a, h, &s), 0);
	ck_assert_uint_eq(s.tid, 43);
	ck_assert_uint_eq(s.time, 999);
	ck_assert_uint_eq(s.cpu, 1);
	ck_assert_uint_eq(s.id, 5);

	/* a filename without NUL inside the record is refused */
	h = fake_mmap2(buf, 42, 0x400000, 0x1000, 0, "/bin/true", NULL, 0, 0);
	memset((u8 *)h + 8 + 64, 'A', h->size - 8 - 64);
	ck_assert_int_eq(record__parse_mmap(h, 0, false, &m), -EINVAL);
	/* too short */
	h = fake_mmap2(buf, 42, 0x400000, 0x1000, 0, "x", NULL, 0, 0);
	h->size = 40;
	ck_assert_int_eq(record__parse_mmap(h, 0, false, &m), -EINVAL);
}
END_TEST

/* The MMAP2 union with PERF_RECORD_MISC_MMAP_BUILD_ID: a build-id only
 * where it can be one (see record__mmap2_build_id). */
START_TEST(test_mmap2_leaked_bit)
{
	static const struct {
		u32 maj;
		bool be;
		bool bid_if_attr;	/* the bytes pass as a build-id */
	} cases[] = {
		{ 254, false, false },	/* virtio: "size" 254 */
		{ 259, false, false },	/* nvme: size 3, reserved byte 1 */
		{ 8, false, true },	/* sd: size 8, only the attr tells */
		{ 254, true, false },	/* big-endian: size byte 0 */
		{ 259, true, false },
		{ 8, true, false },
	};
	static const u8 bid[20] = { 0xab, 0xcd, 1, 2, 3 };
	struct perf_event_header *h;
	struct rec_mmap m;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		u32 maj = cases[i].maj, min = 3;
		u64 ino = 777, gen = 5;
		u8 *u;

		h = fake_mmap2(buf, 42, 0x400000, 0x1000, 0, "/bin/x", NULL, 0,
			       0);
		u = (u8 *)(h + 1) + 32;
		if (cases[i].be) {
			maj = __builtin_bswap32(maj);
			min = __builtin_bswap32(min);
			ino = __builtin_bswap64(ino);
			gen = __builtin_bswap64(gen);
		}
		memcpy(u, &maj, 4);
		memcpy(u + 4, &min, 4);
		memcpy(u + 8, &ino, 8);
		memcpy(u + 16, &gen, 8);
		h->misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		/* no attr with build_id: never a build-id */
		ck_assert(!record__mmap2_build_id(h, false));
		ck_assert_int_eq(record__parse_mmap(h, 0, false, &m), 0);
		ck_assert(!m.has_build_id);
		ck_assert(m.leaked_build_id);
		ck_assert_uint_eq(m.maj, maj);
		ck_assert_uint_eq(m.min, min);
		ck_assert_uint_eq(m.ino, ino);
		ck_assert_uint_eq(m.ino_gen, gen);
		ck_assert_str_eq(m.filename, "/bin/x");
		/* with one, the bytes decide */
		ck_assert_int_eq(record__mmap2_build_id(h, true),
				 cases[i].bid_if_attr);
		ck_assert_int_eq(record__parse_mmap(h, 0, true, &m), 0);
		ck_assert_int_eq(m.has_build_id, cases[i].bid_if_attr);
		ck_assert_int_eq(m.leaked_build_id, !cases[i].bid_if_attr);
		if (!cases[i].bid_if_attr)
			ck_assert_uint_eq(m.maj, maj);
	}
	/* a true build-id: sizes 1..20 with zero reserved bytes */
	for (u8 size = 1; size <= 20; size++) {
		h = fake_mmap2(buf, 42, 0x400000, 0x1000, 0, "/bin/x", bid,
			       size, 0);
		ck_assert(record__mmap2_build_id(h, true));
		ck_assert_int_eq(record__parse_mmap(h, 0, true, &m), 0);
		ck_assert(m.has_build_id);
		ck_assert(!m.leaked_build_id);
		ck_assert_uint_eq(m.build_id_size, size);
		ck_assert_uint_eq(m.build_id[0], 0xab);
	}
	/* size 0, 21 and a reserved byte set are not */
	h = fake_mmap2(buf, 42, 0x400000, 0x1000, 0, "/bin/x", bid, 20, 0);
	((u8 *)(h + 1))[32] = 0;
	ck_assert(!record__mmap2_build_id(h, true));
	((u8 *)(h + 1))[32] = 21;
	ck_assert(!record__mmap2_build_id(h, true));
	((u8 *)(h + 1))[32] = 20;
	((u8 *)(h + 1))[35] = 1;
	ck_assert(!record__mmap2_build_id(h, true));
	/* no bit, an MMAP, or a record too short for the union: never */
	h = fake_mmap2(buf, 42, 0x400000, 0x1000, 0, "/bin/x", NULL, 0, 0);
	ck_assert(!record__mmap2_build_id(h, true));
	ck_assert_int_eq(record__parse_mmap(h, 0, true, &m), 0);
	ck_assert(!m.leaked_build_id);
	h = fake_mmap2(buf, 42, 0x400000, 0x1000, 0, "/bin/x", bid, 20, 0);
	h->size = 8 + 40;
	ck_assert(!record__mmap2_build_id(h, true));
	h->size = 8 + 64 + 8;
	h->type = PERF_RECORD_MMAP;
	ck_assert(!record__mmap2_build_id(h, true));
}
END_TEST

START_TEST(test_comm_fork_lost)
{
	struct perf_event_header *h;
	struct rec_comm c;
	struct rec_fork f;
	struct rec_lost l;
	u64 body[2] = { 9, 1234 };

	h = fake_comm(buf, 7, 8, "worker", true, 0);
	ck_assert_int_eq(record__parse_comm(h, 0, &c), 0);
	ck_assert_str_eq(c.comm, "worker");
	ck_assert_uint_eq(c.comm_len, 6);
	ck_assert(c.exec);
	ck_assert_uint_eq(c.tid, 8);

	h = fake_fork(buf, PERF_RECORD_FORK, 10, 1, 11, 1, 0);
	ck_assert_int_eq(record__parse_fork(h, &f), 0);
	ck_assert_uint_eq(f.pid, 10);
	ck_assert_uint_eq(f.tid, 11);
	h->size = 16;
	ck_assert_int_eq(record__parse_fork(h, &f), -EINVAL);

	h = (void *)buf;
	h->type = PERF_RECORD_LOST;
	h->size = 24;
	memcpy(h + 1, body, 16);
	ck_assert_int_eq(record__parse_lost(h, &l), 0);
	ck_assert_uint_eq(l.id, 9);
	ck_assert_uint_eq(l.lost, 1234);
	ck_assert_str_eq(record__type_name(PERF_RECORD_MMAP2), "MMAP2");
	ck_assert_str_eq(record__type_name(999), "UNKNOWN");
}
END_TEST

/* PERF_RECORD_CGROUP as the kernel writes it (perf_event_cgroup_output):
 * the id, the path NUL-padded to 8 bytes, the sample_id trailer. */
START_TEST(test_cgroup_record)
{
	static const u8 img[] = {
		/* header: type 19, misc 0, size 8 + 8 + 16 + 16 = 48 */
		19, 0, 0, 0, 0, 0, 48, 0,
		/* id 0x1234 */
		0x34, 0x12, 0, 0, 0, 0, 0, 0,
		/* "/system.slice/x" NUL, 16 bytes */
		'/', 's', 'y', 's', 't', 'e', 'm', '.',
		's', 'l', 'i', 'c', 'e', '/', 'x', 0,
		/* trailer: pid 5, tid 6; time 7 */
		5, 0, 0, 0, 6, 0, 0, 0,
		7, 0, 0, 0, 0, 0, 0, 0,
	};
	struct perf_event_header *h = (void *)buf;
	struct rec_cgroup c;

	memcpy(buf, img, sizeof(img));
	ck_assert_uint_eq(h->type, PERF_RECORD_CGROUP);
	ck_assert_int_eq(record__parse_cgroup(h, 16, &c), 0);
	ck_assert_uint_eq(c.id, 0x1234);
	ck_assert_str_eq(c.path, "/system.slice/x");
	ck_assert_uint_eq(c.path_len, 15);
	/* without a trailer the padding is part of the string field */
	ck_assert_int_eq(record__parse_cgroup(h, 0, &c), 0);
	ck_assert_str_eq(c.path, "/system.slice/x");
	ck_assert_str_eq(record__type_name(PERF_RECORD_CGROUP), "CGROUP");

	/* a path with no NUL before the trailer */
	((u8 *)buf)[31] = 'y';
	ck_assert_int_eq(record__parse_cgroup(h, 16, &c), -EINVAL);
	((u8 *)buf)[31] = 0;
	/* shorter than the id, or than id + trailer */
	h->size = 12;
	ck_assert_int_eq(record__parse_cgroup(h, 0, &c), -EINVAL);
	h->size = 24;
	ck_assert_int_eq(record__parse_cgroup(h, 16, &c), -EINVAL);
	/* the id alone: no room for a path */
	h->size = 16;
	ck_assert_int_eq(record__parse_cgroup(h, 0, &c), -EINVAL);
	/* another type */
	h->size = 48;
	h->type = PERF_RECORD_COMM;
	ck_assert_int_eq(record__parse_cgroup(h, 16, &c), -EINVAL);
}
END_TEST

/* A sample with PERF_SAMPLE_CGROUP as perf record --all-cgroups writes
 * it (IDENTIFIER IP TID TIME CPU PERIOD CGROUP), byte by byte. */
START_TEST(test_sample_cgroup_image)
{
	static const u8 img[] = {
		9, 0, 0, 0, 2, 0, 64, 0,	/* SAMPLE, misc USER, size 64 */
		42, 0, 0, 0, 0, 0, 0, 0,		/* identifier */
		0x34, 0x12, 0x40, 0, 0, 0, 0, 0,	/* ip 0x401234 */
		100, 0, 0, 0, 101, 0, 0, 0,		/* pid, tid */
		1, 0, 0, 0, 0, 0, 0, 0,			/* time */
		1, 0, 0, 0, 0, 0, 0, 0,			/* cpu 1 */
		0x40, 0x42, 0x0f, 0, 0, 0, 0, 0,	/* period 1000000 */
		0xab, 0x0f, 0, 0, 0, 0, 0, 0,		/* cgroup 4011 */
	};
	struct perf_event_attr a = {
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			       PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			       PERF_SAMPLE_CGROUP,
	};
	struct perf_event_header *h = (void *)buf;
	struct perf_sample s;

	memcpy(buf, img, sizeof(img));
	ck_assert_int_eq(record__parse_sample(&a, h, &s), 0);
	ck_assert_ptr_nonnull(s.ext);
	ck_assert_uint_eq(s.ext->cgroup, 4011);
	ck_assert_uint_eq(s.ip, 0x401234);
	ck_assert_uint_eq(s.period, 1000000);
	ck_assert_uint_eq(s.cpu, 1);
	/* one word short: the cgroup is missing */
	h->size = 56;
	ck_assert_int_eq(record__parse_sample(&a, h, &s), -EINVAL);
}
END_TEST

/* -g's recovered chain in place of the kernel's, the registers and the
 * stack copy left out; the other fields as they were */
START_TEST(test_rewrite_chain)
{
	u64 st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN |
		 PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	struct perf_event_attr a, out;
	u64 kchain[] = { (u64)PERF_CONTEXT_USER, 0x1000 };
	u64 fixed[] = { (u64)PERF_CONTEXT_USER, 0x1000, 0x2000, 0x3000 };
	u64 uregs[3] = { 1, 2, 3 }, copy[4] = { 9, 9, 9, 9 };
	struct fake_sample fs = {
		.ip = 0x1000, .pid = 7, .tid = 8, .callchain = kchain,
		.nr_callchain = 2, .regs_abi = PERF_SAMPLE_REGS_ABI_64,
		.regs = uregs, .nr_regs = 3, .stack = copy, .stack_size = 32,
		.stack_dyn = 32,
	};
	static u64 o[64];
	struct perf_event_header *cut = (struct perf_event_header *)o;
	const struct perf_event_header *h;
	struct perf_sample smp;
	int n;

	memset(&a, 0, sizeof(a));
	a.sample_type = st;
	a.sample_regs_user = RECORD_FP_REGS;
	a.sample_stack_user = 32;
	h = fake_sample(buf, st, &fs);
	n = record__rewrite_chain(&a, h, fixed, 4, o, sizeof(o));
	ck_assert_int_eq(n, h->size + 16 - 32 - 32 - 16);
	out = a;
	record__attr_strip(&out);
	ck_assert_int_eq(record__parse_sample(&out, (void *)o, &smp), 0);
	ck_assert_uint_eq(smp.ip, 0x1000);
	ck_assert_uint_eq(smp.pid, 7);
	ck_assert_uint_eq(smp.tid, 8);
	ck_assert_uint_eq(smp.callchain_nr, 4);
	ck_assert_uint_eq(smp.callchain[3], 0x3000);
	/* a copy the kernel could not take (no dyn_size word) */
	fs.stack_size = 0;
	fs.stack_dyn = 0;
	h = fake_sample(buf, st, &fs);
	n = record__rewrite_chain(&a, h, fixed, 2, o, sizeof(o));
	ck_assert_int_eq(n, h->size - 32 - 8);
	/* too small a buffer, no chain, a record cut short */
	ck_assert_int_eq(record__rewrite_chain(&a, h, fixed, 4, o, 16), -E2BIG);
	a.sample_type &= ~(u64)PERF_SAMPLE_CALLCHAIN;
	ck_assert_int_eq(record__rewrite_chain(&a, h, fixed, 4, o, sizeof(o)),
			 -EINVAL);
	a.sample_type = st;
	memcpy(o, h, h->size);
	cut->size = 24;
	ck_assert_int_eq(record__rewrite_chain(&a, cut, fixed, 4, buf,
					       sizeof(buf)), -EINVAL);
}
END_TEST

Suite *record_suite(void)
{
	Suite *s = suite_create("record");
	TCase *tc = tcase_create("record");

	tcase_add_test(tc, test_every_bit);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_impossible_counts);
	tcase_add_test(tc, test_id_positions);
	tcase_add_test(tc, test_mmap2_and_trailer);
	tcase_add_test(tc, test_mmap2_leaked_bit);
	tcase_add_test(tc, test_comm_fork_lost);
	tcase_add_test(tc, test_cgroup_record);
	tcase_add_test(tc, test_sample_cgroup_image);
	tcase_add_test(tc, test_rewrite_chain);
	suite_add_tcase(s, tc);
	return s;
}
