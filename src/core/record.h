/* record: pure decoding of perf records (samples, mmaps, comm, fork, ...). */
#ifndef PTOP_RECORD_H
#define PTOP_RECORD_H

#include <linux/perf_event.h>

#include "src/core/util.h"

/* perf's own record types, past the kernel's (tools/perf/util/event.h):
 * perf.data files and pipes carry them, and ptop's sampler writes
 * FINISHED_ROUND into its stream. */
enum perf_user_record_type {
	PERF_RECORD_USER_TYPE_START = 64,
	PERF_RECORD_HEADER_ATTR = 64,
	PERF_RECORD_HEADER_EVENT_TYPE = 65,
	PERF_RECORD_HEADER_TRACING_DATA = 66,
	PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68,
	PERF_RECORD_ID_INDEX = 69,
	PERF_RECORD_AUXTRACE_INFO = 70,
	PERF_RECORD_AUXTRACE = 71,
	PERF_RECORD_AUXTRACE_ERROR = 72,
	PERF_RECORD_THREAD_MAP = 73,
	PERF_RECORD_CPU_MAP = 74,
	PERF_RECORD_STAT_CONFIG = 75,
	PERF_RECORD_STAT = 76,
	PERF_RECORD_STAT_ROUND = 77,
	PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_TIME_CONV = 79,
	PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81,
	PERF_RECORD_FINISHED_INIT = 82,
	PERF_RECORD_COMPRESSED2 = 83,	/* 8-byte aligned: u64 data_size first */
	PERF_RECORD_USER_MAX,
};

/* The fields of a PERF_RECORD_SAMPLE that few users need. */
struct perf_sample_ext {
	u64 weight;
	u64 data_src;
	u64 transaction;
	u64 phys_addr;
	u64 cgroup;
	u64 data_page_size, code_page_size;

	const u64 *read;	/* raw read_format values */
	u64 read_len;		/* in u64 words */

	u32 raw_size;
	const void *raw;

	u64 branch_nr;
	u64 branch_hw_idx;
	const void *branch;	/* struct perf_branch_entry[branch_nr] */

	u64 user_abi;		/* 0: no registers (kernel thread) */
	u32 user_regs_nr;
	const u64 *user_regs;

	u64 stack_size;
	const void *stack_data;
	u64 stack_dyn_size;

	u64 intr_abi;
	u32 intr_regs_nr;
	const u64 *intr_regs;

	u64 aux_size;
	const void *aux;
};

/*
 * A decoded PERF_RECORD_SAMPLE.  Pointers point into the record and are
 * valid as long as it is.  Fields whose bit is absent from sample_type are
 * zero.  ext is NULL unless sample_type has a bit beyond the core ones
 * (IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD,
 * CALLCHAIN): decoding runs for every sample, and zeroing the rare fields
 * would cost more than the rest of it.
 */
struct perf_sample {
	u64 id;
	u64 ip;
	u32 pid, tid;
	u64 time;
	u64 addr;
	u64 stream_id;
	u32 cpu;
	u64 period;
	u16 misc;		/* the header's misc (cpumode, exact ip) */

	u64 callchain_nr;
	const u64 *callchain;

	const struct perf_sample_ext *ext;
	struct perf_sample_ext ext_storage;	/* use ->ext */
};

/* Sample fields that precede the id in a SAMPLE record and that follow it
 * in the sample_id trailer decide where the id is: see record__id. */
struct id_pos {
	int sample;	/* u64 index after the header, -1: none */
	int trailer;	/* u64 index counted back from the end, -1: none */
};

void record__id_pos(u64 sample_type, struct id_pos *pos);
/* Size in bytes of the sample_id trailer of non-sample records. */
size_t record__id_trailer_size(u64 sample_type, bool sample_id_all);

/* Finds the event id of any record; 0 and -ENOENT if it has none. */
int record__id(const struct perf_event_header *h, const struct id_pos *pos,
	       u64 *id);

/*
 * Where each field of a PERF_RECORD_SAMPLE is, in perf_event_open(2)'s
 * order for attr's sample_type: the one walk over the layout, shared by
 * the decoder (record__parse_sample) and the byte-swapper
 * (record_swap__sample).  Offsets from the start of the record (0: the
 * field is absent); counts as read (swapped: the record is in the other
 * byte order, its counts are read swapped).  A count word is at its
 * offset, what it counts follows it.
 */
struct sample_layout {
	u16 identifier, ip, tid, time, addr, id, stream_id, cpu, period;
	u16 read;		/* read_words words (GROUP's nr the first) */
	u16 callchain;		/* the nr word, then callchain_nr words */
	u16 raw;		/* the u32 size, then raw_size bytes */
	u16 branch, branch_hw_idx;	/* the nr word; entries after hw_idx */
	u16 regs_user, regs_intr;	/* the abi word, then _nr words */
	u16 stack_user, stack_dyn;	/* the size word, the bytes; dyn_size */
	u16 weight, data_src, transaction, phys_addr, cgroup;
	u16 data_page_size, code_page_size;
	u16 aux;		/* the size word, then aux_size bytes */
	u32 raw_size;
	u64 read_words, callchain_nr, branch_nr, regs_user_nr, regs_intr_nr;
	u64 stack_size, aux_size;
};

/* 0, or -EINVAL when the record is shorter than its sample_type says or
 * a count in it is impossible.  Never reads past h->size. */
int record__sample_layout(const struct perf_event_attr *attr,
			  const struct perf_event_header *h, bool swapped,
			  struct sample_layout *l);

/* The same for the sample_id trailer (n bytes: record__id_trailer_size)
 * of a non-sample record: tid, time, id, stream_id, cpu, identifier. */
int record__trailer_layout(u64 sample_type, const struct perf_event_header *h,
			   size_t n, struct sample_layout *l);

/* Returns 0, or -EINVAL when the record is shorter than its sample_type
 * says or a count in it is impossible.  Never reads past h->size. */
int record__parse_sample(const struct perf_event_attr *attr,
			 const struct perf_event_header *h,
			 struct perf_sample *s);
/*
 * -g with stack copies (record__attr_fixes: a frame-pointer chain with its
 * user part, plus the user registers and a copy of the user stack): the
 * chain is recovered from the copy (the session's fixer) and a writer
 * keeps the recovered chain, not what it came from.
 * record__rewrite_chain copies sample h of attr into out (cap bytes) with
 * its callchain replaced by chain (nr words) and its user registers and
 * stack copy left out: the record of record__attr_strip(attr).  Returns
 * its size, or -EINVAL (h does not decode, no callchain) or -E2BIG (over
 * cap or 64 KiB).
 */
/* The registers of such samples: x86-64's bp, sp and ip (perf's register
 * numbers 6, 7, 8); a sample with more is unwound (the DWARF unwinder). */
#define RECORD_FP_REGS (1ULL << 6 | 1ULL << 7 | 1ULL << 8)
bool record__attr_fixes(const struct perf_event_attr *attr);
void record__attr_strip(struct perf_event_attr *attr);
int record__rewrite_chain(const struct perf_event_attr *attr,
			  const struct perf_event_header *h, const u64 *chain,
			  u64 nr, void *out, size_t cap);

/* The sample_id trailer (pid, tid, time, id, cpu) of a non-sample record;
 * fields that are absent are left as they were. */
int record__parse_id_trailer(const struct perf_event_attr *attr,
			     const struct perf_event_header *h,
			     struct perf_sample *s);

/* MMAP and MMAP2, normalized. */
struct rec_mmap {
	u32 pid, tid;
	u64 start, len, pgoff;
	u32 maj, min;
	u64 ino, ino_gen;
	u32 prot, flags;
	u8 build_id[20];
	u8 build_id_size;
	bool has_build_id;	/* the union holds a build-id (see
				 * record__mmap2_build_id) */
	bool leaked_build_id;	/* PERF_RECORD_MISC_MMAP_BUILD_ID set on a
				 * union that holds maj/min/ino */
	bool is_mmap2;
	bool exec;		/* not PERF_RECORD_MISC_MMAP_DATA */
	const char *filename;	/* NUL-terminated inside the record */
	size_t filename_len;
};

struct rec_comm {
	u32 pid, tid;
	bool exec;		/* PERF_RECORD_MISC_COMM_EXEC */
	const char *comm;
	size_t comm_len;
};

struct rec_fork {		/* FORK and EXIT */
	u32 pid, ppid, tid, ptid;
	u64 time;
};

struct rec_lost {		/* LOST, LOST_SAMPLES */
	u64 id;			/* 0 for LOST_SAMPLES */
	u64 lost;
};

struct rec_throttle {		/* THROTTLE, UNTHROTTLE */
	u64 time, id, stream_id;
};

/* CGROUP (Linux 5.7): a cgroup's id and path */
struct rec_cgroup {
	u64 id;			/* what PERF_SAMPLE_CGROUP gives */
	const char *path;	/* NUL-terminated inside the record,
				 * relative to the cgroup mount: "/", ... */
	size_t path_len;
};

/*
 * Whether the 24-byte union of an MMAP2 record holds a build-id (size
 * byte, 3 reserved bytes, 20 id bytes) rather than maj, min, ino and
 * ino_generation.  PERF_RECORD_MISC_MMAP_BUILD_ID alone does not say so:
 * from Linux 5.12 until its fix (October 2026, backported to 6.12.113),
 * perf_event_mmap_output() ORs the bit into a header that every session
 * listening for mmaps shares and never clears it, so once one session on
 * the machine has attr.build_id, the MMAP2 records written to later
 * sessions carry the bit over their device and inode.  The union is a
 * build-id only when the bit is set, attr_build_id says that the attr of
 * the event that carried the record has build_id set (the kernel writes
 * build-ids to no other), the size byte is 1..20 and the reserved bytes
 * are zero.  Only bytes are read, so the answer is the same in either
 * byte order.
 */
bool record__mmap2_build_id(const struct perf_event_header *h,
			    bool attr_build_id);

/* trailer: record__id_trailer_size() for the record's event;
 * attr_build_id: as for record__mmap2_build_id. */
int record__parse_mmap(const struct perf_event_header *h, size_t trailer,
		       bool attr_build_id, struct rec_mmap *m);
int record__parse_comm(const struct perf_event_header *h, size_t trailer,
		       struct rec_comm *c);
int record__parse_fork(const struct perf_event_header *h,
		       struct rec_fork *f);
int record__parse_cgroup(const struct perf_event_header *h, size_t trailer,
			 struct rec_cgroup *c);
int record__parse_lost(const struct perf_event_header *h,
		       struct rec_lost *l);
int record__parse_throttle(const struct perf_event_header *h,
			   struct rec_throttle *t);

/* u64 words of a read_format value (PERF_SAMPLE_READ), the group's nr
 * word included; UINT64_MAX for an impossible nr. */
u64 record__read_format_words(u64 read_format, u64 nr);

/* "SAMPLE", "MMAP2", ... or "UNKNOWN". */
const char *record__type_name(u32 type);

#endif
