/* record: pure decoding of perf records (samples, mmaps, comm, fork, ...). */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "record.h"

void record__id_pos(u64 st, struct id_pos *pos)
{
	int i = 0;

	pos->sample = -1;
	pos->trailer = -1;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		pos->sample = 0;
		pos->trailer = 1;
		return;
	}
	if (st & PERF_SAMPLE_ID) {
		i += !!(st & PERF_SAMPLE_IP);
		i += !!(st & PERF_SAMPLE_TID);
		i += !!(st & PERF_SAMPLE_TIME);
		i += !!(st & PERF_SAMPLE_ADDR);
		pos->sample = i;
		pos->trailer = 1 + !!(st & PERF_SAMPLE_STREAM_ID) +
			       !!(st & PERF_SAMPLE_CPU);
	}
}

size_t record__id_trailer_size(u64 st, bool sample_id_all)
{
	size_t n = 0;

	if (!sample_id_all)
		return 0;
	n += !!(st & PERF_SAMPLE_TID);
	n += !!(st & PERF_SAMPLE_TIME);
	n += !!(st & PERF_SAMPLE_ID);
	n += !!(st & PERF_SAMPLE_STREAM_ID);
	n += !!(st & PERF_SAMPLE_CPU);
	n += !!(st & PERF_SAMPLE_IDENTIFIER);
	return n * 8;
}

int record__id(const struct perf_event_header *h, const struct id_pos *pos,
	       u64 *id)
{
	const u64 *w = (const u64 *)(h + 1);
	size_t nw = (h->size - sizeof(*h)) / 8;

	if (h->size < sizeof(*h))
		return -EINVAL;
	if (h->type == PERF_RECORD_SAMPLE) {
		if (pos->sample < 0)
			return -ENOENT;
		if ((size_t)pos->sample >= nw)
			return -EINVAL;
		*id = w[pos->sample];
		return 0;
	}
	if (pos->trailer < 0)
		return -ENOENT;
	if ((size_t)pos->trailer > nw)
		return -EINVAL;
	*id = w[nw - pos->trailer];
	return 0;
}

/* A bounds-checked cursor over the u64 words of a record. */
struct cur {
	const u8 *p, *end;
};

static int cur_u64(struct cur *c, u64 *v)
{
	if (c->end - c->p < 8)
		return -EINVAL;
	memcpy(v, c->p, 8);
	c->p += 8;
	return 0;
}

static int cur_u32x2(struct cur *c, u32 *a, u32 *b)
{
	if (c->end - c->p < 8)
		return -EINVAL;
	memcpy(a, c->p, 4);
	memcpy(b, c->p + 4, 4);
	c->p += 8;
	return 0;
}

/* n u64 words at the cursor; n is checked before any multiplication. */
static int cur_words(struct cur *c, u64 n, const u64 **out)
{
	if (n > (u64)(c->end - c->p) / 8)
		return -EINVAL;
	*out = (const u64 *)(const void *)c->p;
	c->p += n * 8;
	return 0;
}

static int cur_bytes(struct cur *c, u64 n, const void **out)
{
	if (n > (u64)(c->end - c->p))
		return -EINVAL;
	*out = c->p;
	c->p += n;
	return 0;
}

u64 record__read_format_words(u64 rf, u64 nr)
{
	u64 per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	u64 head = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		   !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (!(rf & PERF_FORMAT_GROUP))
		return head + per;
	if (nr > (1ULL << 32))
		return UINT64_MAX;
	return 1 + head + nr * per;
}

static int parse_regs(struct cur *c, u64 mask, u64 *abi, u32 *nr,
		      const u64 **regs)
{
	if (cur_u64(c, abi))
		return -EINVAL;
	*nr = 0;
	*regs = NULL;
	if (!*abi)
		return 0;
	*nr = (u32)__builtin_popcountll(mask);
	return cur_words(c, *nr, regs);
}

/*
 * The layouts live sampling uses (one u64 word per field, no callchain,
 * no extras): decoded without the generic walk, which tests every one of
 * perf's sample_type bits for every sample.
 */
#define FAST_BITS (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		   PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |      \
		   PERF_SAMPLE_PERIOD)

static int parse_fast(u64 st, const struct perf_event_header *h,
		      struct perf_sample *s)
{
	const u8 *p = (const u8 *)(h + 1);
	/* not __builtin_popcountll: without -mpopcnt it is a libgcc call */
	size_t need = 8 * (size_t)(!!(st & PERF_SAMPLE_IDENTIFIER) +
				   !!(st & PERF_SAMPLE_IP) +
				   !!(st & PERF_SAMPLE_TID) +
				   !!(st & PERF_SAMPLE_TIME) +
				   !!(st & PERF_SAMPLE_ID) +
				   !!(st & PERF_SAMPLE_CPU) +
				   !!(st & PERF_SAMPLE_PERIOD));

	if (h->size < sizeof(*h) + need)
		return -EINVAL;
#define TAKE(dst)                                                          \
	do {                                                               \
		memcpy(&(dst), p, 8);                                      \
		p += 8;                                                    \
	} while (0)
#define TAKE2(a, b)                                                        \
	do {                                                               \
		memcpy(&(a), p, 4);                                        \
		memcpy(&(b), p + 4, 4);                                    \
		p += 8;                                                    \
	} while (0)
	if (st & PERF_SAMPLE_IDENTIFIER)
		TAKE(s->id);
	if (st & PERF_SAMPLE_IP)
		TAKE(s->ip);
	if (st & PERF_SAMPLE_TID)
		TAKE2(s->pid, s->tid);
	if (st & PERF_SAMPLE_TIME)
		TAKE(s->time);
	if (st & PERF_SAMPLE_ID)
		TAKE(s->id);
	if (st & PERF_SAMPLE_CPU) {
		u32 res;

		TAKE2(s->cpu, res);
		(void)res;
	}
	if (st & PERF_SAMPLE_PERIOD)
		TAKE(s->period);
#undef TAKE
#undef TAKE2
	return 0;
}

int record__parse_sample(const struct perf_event_attr *attr,
			 const struct perf_event_header *h,
			 struct perf_sample *s)
{
	u64 st = attr->sample_type;
	struct cur c;
	u32 res;

	const u64 core = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			 PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			 PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			 PERF_SAMPLE_CALLCHAIN;
	struct perf_sample_ext *x = &s->ext_storage;

	memset(s, 0, offsetof(struct perf_sample, ext_storage));
	if (st & ~core) {
		memset(x, 0, sizeof(*x));
		s->ext = x;
	}
	if (h->size < sizeof(*h))
		return -EINVAL;
	c.p = (const u8 *)(h + 1);
	c.end = (const u8 *)h + h->size;
	s->misc = h->misc;
	/* Without PERIOD in the sample (perf record -c N), every sample
	 * stands for the attr's fixed period, as perf counts it. */
	s->period = !attr->freq && attr->sample_period ? attr->sample_period : 1;
	if (!(st & ~FAST_BITS))
		return parse_fast(st, h, s);

	if ((st & PERF_SAMPLE_IDENTIFIER) && cur_u64(&c, &s->id))
		return -EINVAL;
	if ((st & PERF_SAMPLE_IP) && cur_u64(&c, &s->ip))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TID) && cur_u32x2(&c, &s->pid, &s->tid))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TIME) && cur_u64(&c, &s->time))
		return -EINVAL;
	if ((st & PERF_SAMPLE_ADDR) && cur_u64(&c, &s->addr))
		return -EINVAL;
	if ((st & PERF_SAMPLE_ID) && cur_u64(&c, &s->id))
		return -EINVAL;
	if ((st & PERF_SAMPLE_STREAM_ID) && cur_u64(&c, &s->stream_id))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CPU) && cur_u32x2(&c, &s->cpu, &res))
		return -EINVAL;
	if ((st & PERF_SAMPLE_PERIOD) && cur_u64(&c, &s->period))
		return -EINVAL;
	if (st & PERF_SAMPLE_READ) {
		u64 rf = attr->read_format, nr = 0, words;

		if ((rf & PERF_FORMAT_GROUP)) {
			if (c.end - c.p < 8)
				return -EINVAL;
			memcpy(&nr, c.p, 8);
		}
		words = record__read_format_words(rf, nr);
		if (cur_words(&c, words, &x->read))
			return -EINVAL;
		x->read_len = words;
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (cur_u64(&c, &s->callchain_nr) ||
		    cur_words(&c, s->callchain_nr, &s->callchain))
			return -EINVAL;
	}
	if (st & PERF_SAMPLE_RAW) {
		const void *p;

		if (c.end - c.p < 4)
			return -EINVAL;
		memcpy(&x->raw_size, c.p, 4);
		c.p += 4;
		if (cur_bytes(&c, x->raw_size, &p))
			return -EINVAL;
		x->raw = p;
		/* size includes the padding that realigns to 8 bytes */
		if (((uintptr_t)c.p - (uintptr_t)(h + 1)) & 7)
			return -EINVAL;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		const u64 *w;

		if (cur_u64(&c, &x->branch_nr))
			return -EINVAL;
		if ((attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) &&
		    cur_u64(&c, &x->branch_hw_idx))
			return -EINVAL;
		if (x->branch_nr > (u64)(c.end - c.p) / 24)
			return -EINVAL;
		if (cur_words(&c, x->branch_nr * 3, &w))
			return -EINVAL;
		x->branch = w;
	}
	if ((st & PERF_SAMPLE_REGS_USER) &&
	    parse_regs(&c, attr->sample_regs_user, &x->user_abi,
		       &x->user_regs_nr, &x->user_regs))
		return -EINVAL;
	if (st & PERF_SAMPLE_STACK_USER) {
		if (cur_u64(&c, &x->stack_size) ||
		    cur_bytes(&c, x->stack_size, &x->stack_data))
			return -EINVAL;
		if (x->stack_size) {
			if (cur_u64(&c, &x->stack_dyn_size))
				return -EINVAL;
			if (x->stack_dyn_size > x->stack_size)
				x->stack_dyn_size = x->stack_size;
		}
	}
	if ((st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) &&
	    cur_u64(&c, &x->weight))
		return -EINVAL;
	if ((st & PERF_SAMPLE_DATA_SRC) && cur_u64(&c, &x->data_src))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TRANSACTION) && cur_u64(&c, &x->transaction))
		return -EINVAL;
	if ((st & PERF_SAMPLE_REGS_INTR) &&
	    parse_regs(&c, attr->sample_regs_intr, &x->intr_abi,
		       &x->intr_regs_nr, &x->intr_regs))
		return -EINVAL;
	if ((st & PERF_SAMPLE_PHYS_ADDR) && cur_u64(&c, &x->phys_addr))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CGROUP) && cur_u64(&c, &x->cgroup))
		return -EINVAL;
	if ((st & PERF_SAMPLE_DATA_PAGE_SIZE) && cur_u64(&c, &x->data_page_size))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CODE_PAGE_SIZE) && cur_u64(&c, &x->code_page_size))
		return -EINVAL;
	if (st & PERF_SAMPLE_AUX) {
		if (cur_u64(&c, &x->aux_size) ||
		    cur_bytes(&c, x->aux_size, &x->aux))
			return -EINVAL;
	}
	return 0;
}

int record__parse_id_trailer(const struct perf_event_attr *attr,
			     const struct perf_event_header *h,
			     struct perf_sample *s)
{
	u64 st = attr->sample_type;
	size_t n = record__id_trailer_size(st, attr->sample_id_all);
	struct cur c;
	u32 res;

	if (!n)
		return 0;
	if (h->size < sizeof(*h) + n)
		return -EINVAL;
	c.p = (const u8 *)h + h->size - n;
	c.end = (const u8 *)h + h->size;
	if ((st & PERF_SAMPLE_TID) && cur_u32x2(&c, &s->pid, &s->tid))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TIME) && cur_u64(&c, &s->time))
		return -EINVAL;
	if ((st & PERF_SAMPLE_ID) && cur_u64(&c, &s->id))
		return -EINVAL;
	if ((st & PERF_SAMPLE_STREAM_ID) && cur_u64(&c, &s->stream_id))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CPU) && cur_u32x2(&c, &s->cpu, &res))
		return -EINVAL;
	if ((st & PERF_SAMPLE_IDENTIFIER) && cur_u64(&c, &s->id))
		return -EINVAL;
	return 0;
}

/* A string field that runs from str to the trailer: it must hold a NUL. */
static int body_string(const struct perf_event_header *h, const void *str,
		       size_t trailer, const char **out, size_t *len)
{
	const char *p = str;
	const char *end = (const char *)h + h->size;
	const char *nul;

	if (h->size < sizeof(*h) + trailer || p > end - trailer)
		return -EINVAL;
	end -= trailer;
	nul = memchr(p, '\0', (size_t)(end - p));
	if (!nul)
		return -EINVAL;
	*out = p;
	*len = (size_t)(nul - p);
	return 0;
}

/* header, pid/tid, start, len, pgoff: where the MMAP2 union starts */
#define MMAP2_UNION (sizeof(struct perf_event_header) + 32)

bool record__mmap2_build_id(const struct perf_event_header *h,
			    bool attr_build_id)
{
	const u8 *u = (const u8 *)h + MMAP2_UNION;

	if (h->type != PERF_RECORD_MMAP2 ||
	    !(h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) || !attr_build_id ||
	    h->size < MMAP2_UNION + 24)
		return false;
	/* a leaked bit over maj: 254 (virtio) is a size of 254, 259
	 * (nvme) a size of 3 with a reserved byte of 1; 8 (sd) passes
	 * here and only attr_build_id tells it apart */
	return u[0] >= 1 && u[0] <= 20 && !u[1] && !u[2] && !u[3];
}

int record__parse_mmap(const struct perf_event_header *h, size_t trailer,
		       bool attr_build_id, struct rec_mmap *m)
{
	const u8 *b = (const u8 *)(h + 1);
	size_t fixed;

	memset(m, 0, sizeof(*m));
	if (h->type == PERF_RECORD_MMAP) {
		fixed = 8 + 3 * 8;
	} else if (h->type == PERF_RECORD_MMAP2) {
		fixed = 8 + 3 * 8 + 24 + 8;
		m->is_mmap2 = true;
	} else {
		return -EINVAL;
	}
	if (h->size < sizeof(*h) + fixed + trailer)
		return -EINVAL;
	memcpy(&m->pid, b, 4);
	memcpy(&m->tid, b + 4, 4);
	memcpy(&m->start, b + 8, 8);
	memcpy(&m->len, b + 16, 8);
	memcpy(&m->pgoff, b + 24, 8);
	if (m->is_mmap2) {
		const u8 *u = b + 32;

		if (record__mmap2_build_id(h, attr_build_id)) {
			m->has_build_id = true;
			m->build_id_size = u[0];
			memcpy(m->build_id, u + 4, 20);
		} else {
			m->leaked_build_id =
				!!(h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID);
			memcpy(&m->maj, u, 4);
			memcpy(&m->min, u + 4, 4);
			memcpy(&m->ino, u + 8, 8);
			memcpy(&m->ino_gen, u + 16, 8);
		}
		memcpy(&m->prot, b + 56, 4);
		memcpy(&m->flags, b + 60, 4);
	}
	m->exec = !(h->misc & PERF_RECORD_MISC_MMAP_DATA);
	return body_string(h, b + fixed, trailer, &m->filename,
			   &m->filename_len);
}

int record__parse_comm(const struct perf_event_header *h, size_t trailer,
		       struct rec_comm *c)
{
	const u8 *b = (const u8 *)(h + 1);

	memset(c, 0, sizeof(*c));
	if (h->type != PERF_RECORD_COMM || h->size < sizeof(*h) + 8 + trailer)
		return -EINVAL;
	memcpy(&c->pid, b, 4);
	memcpy(&c->tid, b + 4, 4);
	c->exec = !!(h->misc & PERF_RECORD_MISC_COMM_EXEC);
	return body_string(h, b + 8, trailer, &c->comm, &c->comm_len);
}

int record__parse_fork(const struct perf_event_header *h, struct rec_fork *f)
{
	const u8 *b = (const u8 *)(h + 1);

	if ((h->type != PERF_RECORD_FORK && h->type != PERF_RECORD_EXIT) ||
	    h->size < sizeof(*h) + 24)
		return -EINVAL;
	memcpy(&f->pid, b, 4);
	memcpy(&f->ppid, b + 4, 4);
	memcpy(&f->tid, b + 8, 4);
	memcpy(&f->ptid, b + 12, 4);
	memcpy(&f->time, b + 16, 8);
	return 0;
}

int record__parse_lost(const struct perf_event_header *h, struct rec_lost *l)
{
	const u8 *b = (const u8 *)(h + 1);

	if (h->type == PERF_RECORD_LOST) {
		if (h->size < sizeof(*h) + 16)
			return -EINVAL;
		memcpy(&l->id, b, 8);
		memcpy(&l->lost, b + 8, 8);
		return 0;
	}
	if (h->type == PERF_RECORD_LOST_SAMPLES) {
		if (h->size < sizeof(*h) + 8)
			return -EINVAL;
		l->id = 0;
		memcpy(&l->lost, b, 8);
		return 0;
	}
	return -EINVAL;
}

int record__parse_throttle(const struct perf_event_header *h,
			   struct rec_throttle *t)
{
	const u8 *b = (const u8 *)(h + 1);

	if ((h->type != PERF_RECORD_THROTTLE &&
	     h->type != PERF_RECORD_UNTHROTTLE) ||
	    h->size < sizeof(*h) + 24)
		return -EINVAL;
	memcpy(&t->time, b, 8);
	memcpy(&t->id, b + 8, 8);
	memcpy(&t->stream_id, b + 16, 8);
	return 0;
}

const char *record__type_name(u32 type)
{
	static const char *const names[] = {
		[PERF_RECORD_MMAP] = "MMAP",
		[PERF_RECORD_LOST] = "LOST",
		[PERF_RECORD_COMM] = "COMM",
		[PERF_RECORD_EXIT] = "EXIT",
		[PERF_RECORD_THROTTLE] = "THROTTLE",
		[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
		[PERF_RECORD_FORK] = "FORK",
		[PERF_RECORD_READ] = "READ",
		[PERF_RECORD_SAMPLE] = "SAMPLE",
		[PERF_RECORD_MMAP2] = "MMAP2",
		[PERF_RECORD_AUX] = "AUX",
		[PERF_RECORD_ITRACE_START] = "ITRACE_START",
		[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
		[PERF_RECORD_SWITCH] = "SWITCH",
		[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
		[PERF_RECORD_NAMESPACES] = "NAMESPACES",
		[PERF_RECORD_KSYMBOL] = "KSYMBOL",
		[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
		[PERF_RECORD_CGROUP] = "CGROUP",
		[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
		[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	};

	if (type < ARRAY_SIZE(names) && names[type])
		return names[type];
	return "UNKNOWN";
}
