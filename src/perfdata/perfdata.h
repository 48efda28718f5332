/* perfdata: the perf.data format (perf's file and pipe modes): readers
 * that feed a session like any other source, and a writer fed by the
 * sampler's record sink.  One header for the folder's objects, each in
 * its file: header.c (names, header and feature parsers and builders,
 * pure), stream.c (the record stream) and queue.c (its ordered queue,
 * pure), file.c (-i FILE), pipe.c (-i -, a thread), timefilter.c
 * (--time, pure), writer.c (-o, a thread). */
#ifndef PTOP_PERFDATA_H
#define PTOP_PERFDATA_H

#include <linux/perf_event.h>
#include <signal.h>

#include "src/core/session.h"
#include "src/core/util.h"

/* Feature bits of the file header (perf's HEADER_*). */
enum pd_feature {
	PD_FEAT_TRACING_DATA = 1,
	PD_FEAT_BUILD_ID = 2,
	PD_FEAT_HOSTNAME = 3,
	PD_FEAT_OSRELEASE = 4,
	PD_FEAT_VERSION = 5,
	PD_FEAT_ARCH = 6,
	PD_FEAT_NRCPUS = 7,
	PD_FEAT_CPUDESC = 8,
	PD_FEAT_CPUID = 9,
	PD_FEAT_TOTAL_MEM = 10,
	PD_FEAT_CMDLINE = 11,
	PD_FEAT_EVENT_DESC = 12,
	PD_FEAT_CPU_TOPOLOGY = 13,
	PD_FEAT_NUMA_TOPOLOGY = 14,
	PD_FEAT_BRANCH_STACK = 15,
	PD_FEAT_PMU_MAPPINGS = 16,
	PD_FEAT_GROUP_DESC = 17,
	PD_FEAT_AUXTRACE = 18,
	PD_FEAT_STAT = 19,
	PD_FEAT_CACHE = 20,
	PD_FEAT_SAMPLE_TIME = 21,
	PD_FEAT_MEM_TOPOLOGY = 22,
	PD_FEAT_CLOCKID = 23,
	PD_FEAT_DIR_FORMAT = 24,
	PD_FEAT_BPF_PROG_INFO = 25,
	PD_FEAT_BPF_BTF = 26,
	PD_FEAT_COMPRESSED = 27,
	PD_FEAT_CPU_PMU_CAPS = 28,
	PD_FEAT_CLOCK_DATA = 29,
	PD_FEAT_HYBRID_TOPOLOGY = 30,
	PD_FEAT_PMU_CAPS = 31,
	PD_FEAT_BITS = 256,
};

/* "hostname", "build_id", ... or "feature N". */
const char *perfdata__feature_name(unsigned int feat, char *buf, size_t len);
/* "MMAP2", "FINISHED_ROUND", ... or "UNKNOWN". */
const char *perfdata__type_name(u32 type);

#define PD_HEADER_SIZE 104	/* struct perf_file_header */
#define PD_PIPE_HEADER_SIZE 16	/* struct perf_pipe_file_header */
#define PD_ATTR_IDS_SIZE 16	/* the perf_file_section after each attr */

struct pd_section {
	u64 offset, size;
};

struct pd_file_header {
	bool swap;		/* written on the other endianness */
	bool pipe;		/* a pipe-mode stream (16-byte header) */
	u64 size, attr_size;
	struct pd_section attrs, data, event_types;
	u64 flags[4];		/* feature bits */
};

/* One event of a recording: its attr (in this machine's byte order), the
 * ids its records carry and the name perf gave it (NULL: unknown). */
struct pd_event {
	struct perf_event_attr attr;
	u64 *ids;
	size_t nr_ids;
	char *name;
};

/* An entry of the build-id table (feature section or HEADER_BUILD_ID). */
struct pd_build_id {
	s32 pid;		/* -1: the host, for any process */
	u16 misc;		/* cpumode: KERNEL for the kernel and modules */
	u8 bid[20];
	u8 size;
	char *path;		/* "[kernel.kallsyms]", "/usr/lib/libc.so.6" */
};

/* What the header and the features of a recording say. */
struct perfdata_info {
	bool swapped, pipe;
	u64 file_size;		/* 0 for a stream */
	struct pd_section data;
	bool data_size_zero;	/* the header said 0: not finalized, read to
				 * the end of the file */
	u64 features[4];	/* present and parsed */
	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	char *cmdline;		/* the arguments joined by spaces */
	u32 nr_cpus_avail, nr_cpus_online;
	u64 total_mem_kb;
	u64 first_sample_time, last_sample_time;	/* 0: unknown */
	u64 kernel_text;	/* _text when recorded (the kernel MMAP's
				 * pgoff), 0: unknown */
	struct pd_event *events;
	size_t nr_events;
	struct pd_build_id *bids;
	size_t nr_bids, cap_bids;
	/* EVENT_DESC: names and ids, matched to events by id or position */
	struct pd_event *desc;
	size_t nr_desc;
	/* HEADER_TRACING_DATA's section (the tracepoints' formats), read
	 * only for --off-cpu; size 0: none */
	struct pd_section tracing;
};

void perfdata_info__fini(struct perfdata_info *info);
/* The kernel's entry of the build-id table ([kernel.kallsyms], or the
 * first kernel-mode entry that is not a module), NULL if none. */
const struct pd_build_id *perfdata_info__kernel(const struct perfdata_info *info);

/*
 * Pure parsing of byte buffers (unit-tested without files).  Each reads
 * at most len bytes and returns 0, or -EINVAL with a message appended to
 * err that says what was wrong (callers add where).
 */
int perfdata__parse_header(const void *buf, size_t len,
			   struct pd_file_header *fh, struct strbuf *err);
/* One feature section's payload into info; features ptop does not use
 * are accepted and ignored. */
int perfdata__parse_feature(struct perfdata_info *info, unsigned int feat,
			    const void *buf, size_t len, bool swap,
			    struct strbuf *err);

/*
 * Counters of a reader: every record of the data section or stream is
 * handed to the session, handled by the reader, or counted here.
 */
struct perfdata_stats {
	u64 records;		/* complete records seen */
	u64 bytes;		/* of the data section or stream consumed */
	u64 user_records;	/* perf's own types the reader handled */
	u64 skipped;		/* perf's own types ptop does not use
				 * (ID_INDEX, THREAD_MAP, AUXTRACE, ...) */
	u64 unknown;		/* types unknown to ptop, skipped by size */
	u64 compressed;		/* COMPRESSED(2) records (perf record -z),
				 * decompressed and their records read */
	u64 bad;		/* could not be decoded or swapped: skipped */
	u64 out_of_order;	/* older than records already handed on */
	u64 payload_bytes;	/* tracing data and AUXTRACE payloads */
	u64 truncated_bytes;	/* the data ended inside a record */
	bool damaged;		/* stopped at a record that could not be
				 * skipped (size 0 or under 8) */
	u64 damage_offset;	/* its byte offset in the file or stream */
	u64 lost_bytes;		/* what followed it, not read */
	/* Damage the records do not show (each also logged once): */
	bool file_truncated;	/* the file ends before a section its header
				 * or feature table lists */
	u32 features_damaged;	/* feature sections skipped: past the end,
				 * too large or unreadable */
	u64 header_size;	/* a file header size other than 104 (perf
				 * refuses those), read as 104; 0: none */
	u64 unfinished;		/* a stream whose writer sends FINISHED_ROUND
				 * (or FINISHED_INIT) that ended this many
				 * records after the last one: its final
				 * records are missing */
	u32 no_ip_events;	/* events whose sample_type has no IP: their
				 * samples are at address 0 */
};

struct perfdata_read_opts {
	/* Records held for ordering between FINISHED_ROUND markers; past
	 * this, the older half is handed on (perf's ordered_events rule).
	 * 0: 64 MiB. */
	size_t queue_bytes;
	/* perfdata__read stops between two reads once *stop is set
	 * (SIGINT while a large file is read); NULL: never. */
	const volatile sig_atomic_t *stop;
	/* --off-cpu: the waits of the file's sched:sched_switch samples
	 * (with call chains) and SWITCH records make an event "off-cpu"
	 * (session__add_offcpu); -ENOENT when it has no such event */
	bool offcpu;
	/* Only the sample times: the records go no further than their time
	 * (perfdata__sample_range); NULL: not asked. */
	u64 *first_time, *last_time;
	/* Called, with the session locked, before a timed record whose
	 * time is at least what it returned last (0 at first) is handed to
	 * the session, in time order (timeline__mark: a recording's cells);
	 * NULL: never. */
	u64 (*mark)(void *ctx, u64 t);
	void *mark_ctx;
};

/*
 * The record stream: a push parser shared by files (the data section)
 * and pipes (perf record -o -).  It assembles complete records from any
 * byte split, swaps them if needed, registers events and build-ids from
 * pipe-mode header records, and hands kernel records to session__process
 * in time order: records between FINISHED_ROUND markers are sorted by
 * time, those without a time go at once (perf's ordered_events).
 * Callers hold the session lock around feed and end.
 */
struct perfdata_stream;

/* pipe: the bytes start with the 16-byte pipe header.  info collects
 * what HEADER_FEATURE records say (the caller owns it).  base: the file
 * offset of the first byte (for messages). */
struct perfdata_stream *perfdata_stream__new(struct session *s, bool pipe,
					     bool swap, u64 base,
					     struct perfdata_info *info,
					     const struct perfdata_read_opts *o);
void perfdata_stream__free(struct perfdata_stream *st);
/* Registers an event known from a file's attr section (and its ids)
 * with the stream and the session; returns the session index or -errno. */
int perfdata_stream__add_event(struct perfdata_stream *st,
			       const struct pd_event *ev);
/* Consumes bytes.  Returns 0, or -EINVAL once the stream is damaged past
 * repair (a message was logged; what came before stays processed). */
int perfdata_stream__feed(struct perfdata_stream *st, const void *buf,
			  size_t len);
/* A buffer of len bytes to read the next bytes into, then
 * perfdata_stream__feed_buffer(st, n) feeds its first n: the records
 * whole in it are queued where they lie rather than copied (the stream
 * keeps the buffer until they are handed on).  NULL: no memory. */
void *perfdata_stream__buffer(struct perfdata_stream *st, size_t len);
int perfdata_stream__feed_buffer(struct perfdata_stream *st, size_t len);
/* The reader stopped before the end of the data (Ctrl-C, a read error):
 * then end does not count a pipe's missing tail as unfinished. */
void perfdata_stream__set_stopped(struct perfdata_stream *st, bool stopped);
/* The end of the data: hands on what is queued; a record cut short is
 * counted in truncated_bytes. */
void perfdata_stream__end(struct perfdata_stream *st);
const struct perfdata_stats *perfdata_stream__stats(const struct perfdata_stream *st);
/* true once a kernel record (the data proper) came through. */
bool perfdata_stream__in_data(const struct perfdata_stream *st);

/* ---- file reader: ptop -i FILE ---- */

struct perfdata;

/* Opens a perf.data file (file or pipe format) and reads its header,
 * attrs and features; the data is read by perfdata__read.  NULL with
 * errno set and a message in err (naming the byte offset) when the file
 * cannot be used at all. */
struct perfdata *perfdata__open(const char *path, struct strbuf *err);
/* The same from memory (tests, fuzzing); buf must outlive the reader. */
struct perfdata *perfdata__open_mem(const void *buf, size_t len,
				    struct strbuf *err);
void perfdata__close(struct perfdata *pd);
const struct perfdata_info *perfdata__info(const struct perfdata *pd);
/* Registers the events, ids and build-ids with the session, then reads
 * the data section through a stream, holding the session lock per batch.
 * Damage after the header is a logged warning and counted in the stats,
 * not an error; returns -errno only for I/O errors or no memory. */
int perfdata__read(struct perfdata *pd, struct session *s,
		   const struct perfdata_read_opts *o);
const struct perfdata_stats *perfdata__stats(const struct perfdata *pd);

/* ---- pipe reader: ptop -i - ---- */

struct perfdata_pipe;

/* Takes fd (closed by perfdata_pipe__free). */
struct perfdata_pipe *perfdata_pipe__new(struct session *s, int fd,
					 const struct perfdata_read_opts *o);
/* Reads (blocking) until the stream's header records are in (the first
 * kernel record, or the end): then info says what the features say.
 * Returns 0, -EINTR if interrupted by a signal, or -errno. */
int perfdata_pipe__prelude(struct perfdata_pipe *p);
/* The rest in a thread, holding the session lock per batch. */
int perfdata_pipe__start(struct perfdata_pipe *p);
/* true once the stream ended (or failed): the session has everything. */
bool perfdata_pipe__done(struct perfdata_pipe *p);
/* Stops the thread (if running) and waits for it. */
void perfdata_pipe__stop(struct perfdata_pipe *p);
void perfdata_pipe__free(struct perfdata_pipe *p);
/* Read with the session locked, or after perfdata_pipe__done. */
const struct perfdata_info *perfdata_pipe__info(const struct perfdata_pipe *p);
const struct perfdata_stats *perfdata_pipe__stats(const struct perfdata_pipe *p);

/* One line on what a reader skipped or could not read, "" if nothing
 * (for the log and the header). */
void perfdata_stats__describe(const struct perfdata_stats *st,
			      struct strbuf *sb);

/*
 * --time START,END like perf report: absolute timestamps in seconds with
 * up to nine decimals ("1887.5,1888"; either side may be empty),
 * seconds from the first sample ("+2,+3.5": *relative set, the window
 * counts from it), or percentages of the recording's sample time range:
 * "10%-20%", or "10%/2" (the second tenth).  first/last: the recording's
 * first and last sample times (0: unknown, then percentages are
 * refused; perfdata__sample_range finds them).  Sets [*start, *end) in
 * ns for session_opts.
 */
int perfdata__parse_time(const char *str, u64 first, u64 last, u64 *start,
			 u64 *end, bool *relative, struct strbuf *err);
/* Whether a --time window is in percentages (it needs the range). */
bool perfdata__time_needs_range(const char *str);
/* The first and last sample times of a recording's data, read for them
 * alone (when its header has no HEADER_SAMPLE_TIME): 0, or -errno; 0,
 * 0 without samples. */
int perfdata__sample_range(struct perfdata *pd, u64 *first, u64 *last,
			   const volatile sig_atomic_t *stop);

/* ---- writer: ptop -o FILE, ptop -o - ---- */

struct host;

struct perfdata_writer_opts {
	const char *path;	/* for messages; opened unless fd >= 0 */
	int fd;			/* -1: open path */
	bool pipe;		/* pipe mode (perf record -o -) */
	size_t buffer_bytes;	/* the backlog bound; 0: 32 MiB */
	const char *const *argv;	/* HEADER_CMDLINE */
	int argc;
	const char *version;	/* HEADER_VERSION, e.g. "ptop 0.1" */
	/* this machine's facts (host__read): the features that describe
	 * it, the kernel's maps and build-id; copied; NULL: none known */
	const struct host *host;
	/* HEADER_TRACING_DATA (catalog__tracing_data), copied; files only
	 * (a pipe stream carries none); len 0: no tracepoints */
	const void *tracing_data;
	size_t tracing_data_len;
};

struct perfdata_writer_stats {
	u64 records;		/* taken into the buffer */
	u64 bytes;		/* written to the file so far */
	u64 backlog;		/* bytes waiting to be written */
	u64 dropped;		/* records not written: the buffer was full
				 * (a slow disk), or writing had failed */
	u64 dropped_bytes;
	int error;		/* -errno of the write that failed, 0 */
};

struct perfdata_writer;

/* Creates the file (truncating it) or takes fd, and starts the writer
 * thread.  NULL with errno set after a logged message. */
struct perfdata_writer *perfdata_writer__new(struct session *s,
					     const struct perfdata_writer_opts *o);
/*
 * The sampler's record_sink_fn (ctx: the writer), called with the
 * session locked for every record the session sees and a FINISHED_ROUND
 * after each pass over the rings.  It copies the record into the buffer
 * and returns at once; when the buffer is full the record is counted as
 * dropped.  The first call writes the header and the attrs (and, for
 * files, the kernel's mmaps) ahead of the data.
 */
int perfdata_writer__sink(void *ctx, const struct perf_event_header *h);
/*
 * After the source stopped: writes what is buffered, then the features
 * (build-ids of the session's dsos and the kernel's, hostname, os
 * release, version, arch, nrcpus, cpudesc, cpuid, total memory,
 * cmdline, event descriptions, sample time range) and the final header.
 * After a failed write, finalizes what was written.  Returns 0 or the
 * -errno of the first failure (logged once).
 */
int perfdata_writer__close(struct perfdata_writer *w);
void perfdata_writer__stats(struct perfdata_writer *w,
			    struct perfdata_writer_stats *st);
void perfdata_writer__free(struct perfdata_writer *w);	/* closes first */

/* Pure builders of feature payloads (the writer's, tested by parsing
 * them back). */
int perfdata__build_string(struct strbuf *sb, const char *s);
int perfdata__build_build_ids(struct strbuf *sb, const struct pd_build_id *b,
			      size_t nr);
int perfdata__build_event_desc(struct strbuf *sb, const struct pd_event *ev,
			       size_t nr);

#endif
