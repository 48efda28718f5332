/* Tests of the perf.data reader, writer and byte swapping: byte images
 * built here (native and byte-swapped), real recordings from the fuzz
 * seeds cut at every byte, and garbage. */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "src/core/log.h"
#include "src/perfdata/perfdata.h"
#include "src/core/record.h"
#include "src/core/record_swap.h"
#include "src/core/session.h"
#include "src/sys/host.h"
#include "tests/testutil.h"

/* ---- log capture ---- */

static char last_msg[1024];
static char all_msgs[8192];	/* every message since setup, as far as fits */
static int nr_msgs;

static void capture(enum log_level level, const char *msg, void *ctx)
{
	size_t n = strlen(all_msgs);

	(void)level;
	(void)ctx;
	snprintf(last_msg, sizeof(last_msg), "%s", msg);
	snprintf(all_msgs + n, sizeof(all_msgs) - n, "%s\n", msg);
	nr_msgs++;
}

static void setup(void)
{
	last_msg[0] = '\0';
	all_msgs[0] = '\0';
	nr_msgs = 0;
	log__set_handler(capture, NULL);
}

static void teardown(void)
{
	log__set_handler(NULL, NULL);
}

/* ---- byte writers in either order ---- */

struct bw {
	u8 *p;
	bool be;	/* the other byte order */
};

static void w64(struct bw *b, u64 v)
{
	if (b->be)
		v = bswap64(v);
	memcpy(b->p, &v, 8);
	b->p += 8;
}

static void w32(struct bw *b, u32 v)
{
	if (b->be)
		v = bswap32(v);
	memcpy(b->p, &v, 4);
	b->p += 4;
}

static void w16(struct bw *b, u16 v)
{
	if (b->be)
		v = bswap16(v);
	memcpy(b->p, &v, 2);
	b->p += 2;
}

static void wbytes(struct bw *b, const void *s, size_t n)
{
	memcpy(b->p, s, n);
	b->p += n;
}

static void whdr(struct bw *b, u32 type, u16 misc, u16 size)
{
	w32(b, type);
	w16(b, misc);
	w16(b, size);
}

/* ---- the event layout of the synthetic files ---- */

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
	    PERF_SAMPLE_CALLCHAIN)
#define TRAILER 32	/* TID, TIME, CPU, IDENTIFIER */
#define ID_A 101
#define ID_B 202

static struct perf_event_attr mkattr(u64 config, u64 st)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = config;
	a.sample_type = st;
	a.sample_period = 1000;
	a.sample_id_all = 1;
	a.disabled = 1;
	a.mmap2 = 1;
	a.comm_exec = 1;
	return a;
}

static void wtrailer(struct bw *b, u32 pid, u64 time, u64 id)
{
	w32(b, pid);
	w32(b, pid);
	w64(b, time);
	w32(b, 1);	/* cpu */
	w32(b, 0);
	w64(b, id);
}

/* Records of the synthetic files, in either byte order; each returns
 * the record's size. */
static size_t rec_sample(u8 *out, bool be, u64 id, u32 pid, u64 ip, u64 time,
			 u16 misc)
{
	struct bw b = { out, be };
	u64 chain[2] = { ip, ip + 0x100 };

	whdr(&b, PERF_RECORD_SAMPLE, misc, 8 + 9 * 8);
	w64(&b, id);
	w64(&b, ip);
	w32(&b, pid);
	w32(&b, pid);
	w64(&b, time);
	w32(&b, 1);
	w32(&b, 0);
	w64(&b, 1000);	/* period */
	w64(&b, 2);
	w64(&b, chain[0]);
	w64(&b, chain[1]);
	return (size_t)(b.p - out);
}

static size_t rec_mmap2(u8 *out, bool be, u32 pid, u64 start, u64 len,
			u64 pgoff, const char *path, const u8 *bid, u64 time)
{
	struct bw b = { out, be };
	size_t n = strlen(path) + 1, pad = ALIGN_UP(n, (size_t)8);
	u8 zero[64] = { 0 };

	whdr(&b, PERF_RECORD_MMAP2,
	     PERF_RECORD_MISC_USER | (bid ? PERF_RECORD_MISC_MMAP_BUILD_ID : 0),
	     (u16)(8 + 64 + pad + TRAILER));
	w32(&b, pid);
	w32(&b, pid);
	w64(&b, start);
	w64(&b, len);
	w64(&b, pgoff);
	if (bid) {
		u8 x[4] = { 20, 0, 0, 0 };

		wbytes(&b, x, 4);
		wbytes(&b, bid, 20);
	} else {
		w32(&b, 8);
		w32(&b, 1);
		w64(&b, 4242);
		w64(&b, 7);
	}
	w32(&b, 5);
	w32(&b, 2);
	wbytes(&b, path, n);
	wbytes(&b, zero, pad - n);
	wtrailer(&b, pid, time, ID_A);
	return (size_t)(b.p - out);
}

static size_t rec_comm(u8 *out, bool be, u32 pid, const char *comm, u64 time)
{
	struct bw b = { out, be };
	size_t n = strlen(comm) + 1, pad = ALIGN_UP(n, (size_t)8);
	u8 zero[16] = { 0 };

	whdr(&b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC,
	     (u16)(8 + 8 + pad + TRAILER));
	w32(&b, pid);
	w32(&b, pid);
	wbytes(&b, comm, n);
	wbytes(&b, zero, pad - n);
	wtrailer(&b, pid, time, ID_A);
	return (size_t)(b.p - out);
}

static size_t rec_fork(u8 *out, bool be, u32 type, u32 pid, u32 ppid, u64 time)
{
	struct bw b = { out, be };

	whdr(&b, type, 0, 8 + 24 + TRAILER);
	w32(&b, pid);
	w32(&b, ppid);
	w32(&b, pid);
	w32(&b, ppid);
	w64(&b, time);
	wtrailer(&b, pid, time, ID_A);
	return (size_t)(b.p - out);
}

static size_t rec_lost(u8 *out, bool be, u64 id, u64 n, u64 time)
{
	struct bw b = { out, be };

	whdr(&b, PERF_RECORD_LOST, 0, 8 + 16 + TRAILER);
	w64(&b, id);
	w64(&b, n);
	wtrailer(&b, 0, time, id);
	return (size_t)(b.p - out);
}

static size_t rec_round(u8 *out, bool be)
{
	struct bw b = { out, be };

	whdr(&b, PERF_RECORD_FINISHED_ROUND, 0, 8);
	return 8;
}

static const u8 bid_prog[20] = { 0xaa, 0xbb, 1, 2, 3 };
static const u8 bid_lib[20] = { 0x11, 0x22, 3, 4, 5 };
static const u8 bid_kernel[20] = { 0x4b, 0x45, 0x52 };

/*
 * The data of the synthetic recording: pid 100 "prog" maps /bin/prog
 * (build-id in the record) and /lib/libx.so (build-id only in the table),
 * forks pid 200; samples: 6 in prog, 3 in libx, 1 kernel; a LOST record;
 * the MMAP of libx comes after the samples that need it but within the
 * same round, earlier in time (ordering must fix it).
 */
static size_t synth_data(u8 *out, bool be)
{
	u8 *p = out;

	p += rec_comm(p, be, 100, "prog", 10);
	p += rec_mmap2(p, be, 100, 0x400000, 0x10000, 0, "/bin/prog", bid_prog, 20);
	p += rec_round(p, be);
	for (int i = 0; i < 6; i++)
		p += rec_sample(p, be, ID_A, 100, 0x401000 + (u64)i, 100 + (u64)i,
				PERF_RECORD_MISC_USER);
	for (int i = 0; i < 3; i++)
		p += rec_sample(p, be, ID_A, 100, 0x7f0000001000ULL, 200 + (u64)i,
				PERF_RECORD_MISC_USER);
	/* written late, happened early */
	p += rec_mmap2(p, be, 100, 0x7f0000000000ULL, 0x10000, 0x2000,
		       "/lib/libx.so", NULL, 50);
	p += rec_sample(p, be, ID_B, 100, 0xffffffff81001000ULL, 300,
			PERF_RECORD_MISC_KERNEL);
	p += rec_fork(p, be, PERF_RECORD_FORK, 200, 100, 310);
	p += rec_lost(p, be, ID_A, 5, 320);
	p += rec_round(p, be);
	p += rec_fork(p, be, PERF_RECORD_EXIT, 200, 100, 400);
	p += rec_round(p, be);
	return (size_t)(p - out);
}

static void wstring(struct bw *b, const char *s)
{
	size_t n = strlen(s) + 1, len = ALIGN_UP(n, (size_t)64);
	u8 zero[64] = { 0 };

	w32(b, (u32)len);
	wbytes(b, s, n);
	wbytes(b, zero, len - n);
}

static size_t wbuild_id(struct bw *b, u16 misc, const u8 *bid,
			const char *path)
{
	size_t n = strlen(path) + 1, len = ALIGN_UP(n, (size_t)64);
	u8 x[24] = { 0 }, zero[64] = { 0 };
	u8 *start = b->p;

	memcpy(x, bid, 20);
	x[20] = 20;
	whdr(b, 0, (u16)(misc | (1 << 15)), (u16)(36 + len));
	w32(b, (u32)-1);
	wbytes(b, x, 24);
	wbytes(b, path, n);
	wbytes(b, zero, len - n);
	return (size_t)(b->p - start);
}

/* A whole file (two events, features: build_id, hostname, nrcpus,
 * cmdline, event_desc, sample_time) into out; returns its size. */
static size_t synth_file(u8 *out, bool be, bool features)
{
	struct perf_event_attr attrs[2] = {
		mkattr(PERF_COUNT_SW_CPU_CLOCK, ST),
		mkattr(PERF_COUNT_SW_PAGE_FAULTS, ST),
	};
	struct bw b = { out, be };
	u64 data_off, data_size, feat_off, ids_off = 104, attrs_off;

	/* perf record --buildid-mmap: /bin/prog's MMAP2 has its build-id */
	attrs[0].build_id = 1;
	u8 *p, *table;
	u64 fstart[6], fsize[6];
	int nf = 0;

	/* ids, then attrs, then data */
	b.p = out + 104;
	w64(&b, ID_A);
	w64(&b, ID_B);
	attrs_off = (u64)(b.p - out);
	for (int i = 0; i < 2; i++) {
		u8 a[sizeof(struct perf_event_attr)];

		memcpy(a, &attrs[i], sizeof(a));
		if (be)
			record_swap__attr(a, sizeof(a));	/* an involution */
		wbytes(&b, a, sizeof(a));
		w64(&b, ids_off + 8 * (u64)i);
		w64(&b, 8);
	}
	data_off = (u64)(b.p - out);
	data_size = synth_data(b.p, be);
	b.p += data_size;
	feat_off = (u64)(b.p - out);
	table = b.p;
	if (features) {
		b.p += 6 * 16;
		/* build_id */
		fstart[nf] = (u64)(b.p - out);
		fsize[nf] = wbuild_id(&b, PERF_RECORD_MISC_KERNEL, bid_kernel,
				      "[kernel.kallsyms]");
		fsize[nf] += wbuild_id(&b, PERF_RECORD_MISC_USER, bid_lib,
				       "/lib/libx.so");
		nf++;
		fstart[nf] = (u64)(b.p - out);
		wstring(&b, "testhost");
		fsize[nf] = (u64)(b.p - out) - fstart[nf];
		nf++;
		fstart[nf] = (u64)(b.p - out);
		w32(&b, 4);
		w32(&b, 2);
		fsize[nf++] = 8;
		fstart[nf] = (u64)(b.p - out);
		w32(&b, 2);
		wstring(&b, "perf");
		wstring(&b, "record");
		fsize[nf] = (u64)(b.p - out) - fstart[nf];
		nf++;
		fstart[nf] = (u64)(b.p - out);
		w32(&b, 2);
		w32(&b, sizeof(struct perf_event_attr));
		for (int i = 0; i < 2; i++) {
			u8 a[sizeof(struct perf_event_attr)];

			memcpy(a, &attrs[i], sizeof(a));
			if (be)
				record_swap__attr(a, sizeof(a));
			wbytes(&b, a, sizeof(a));
			w32(&b, 1);
			wstring(&b, i ? "page-faults:u" : "cpu-clock:u");
			w64(&b, i ? ID_B : ID_A);
		}
		fsize[nf] = (u64)(b.p - out) - fstart[nf];
		nf++;
		fstart[nf] = (u64)(b.p - out);
		w64(&b, 100);
		w64(&b, 400);
		fsize[nf++] = 16;
		p = b.p;
		b.p = table;
		for (int i = 0; i < nf; i++) {
			w64(&b, fstart[i]);
			w64(&b, fsize[i]);
		}
		b.p = p;
	}
	/* the header */
	p = b.p;
	b.p = out;
	wbytes(&b, "PERFILE2", 8);
	if (be)
		memcpy(out, "2ELIFREP", 8);
	w64(&b, 104);
	w64(&b, sizeof(struct perf_event_attr) + 16);
	w64(&b, attrs_off);
	w64(&b, 2 * (sizeof(struct perf_event_attr) + 16));
	w64(&b, data_off);
	w64(&b, data_size);
	w64(&b, 0);
	w64(&b, 0);
	w64(&b, features ? (1ULL << PD_FEAT_BUILD_ID) | (1ULL << PD_FEAT_HOSTNAME) |
			   (1ULL << PD_FEAT_NRCPUS) | (1ULL << PD_FEAT_CMDLINE) |
			   (1ULL << PD_FEAT_EVENT_DESC) |
			   (1ULL << PD_FEAT_SAMPLE_TIME) : 0);
	w64(&b, 0);
	w64(&b, 0);
	w64(&b, 0);
	(void)feat_off;
	return (size_t)(p - out);
}

static u8 img[65536] __attribute__((aligned(8)));
static u8 img2[65536] __attribute__((aligned(8)));

/* ---- reading helpers ---- */

struct result {
	u64 samples[2], period[2], lost, unknown_id, bad;
	size_t nr_events;
	char name0[64], name1[64];
	u64 prog, libx, kernel, unknown;	/* samples by dso */
	u64 libx_bid;				/* libx's dso has the table's id */
	u64 prog_bid;				/* prog's has its record's */
	size_t nr_procs;
};

static void summarize(struct session *s, struct result *r)
{
	struct snapshot snap;

	memset(r, 0, sizeof(*r));
	r->nr_events = session__nr_events(s);
	snprintf(r->name0, sizeof(r->name0), "%s",
		 r->nr_events > 0 ? session__event_name(s, 0) : "");
	snprintf(r->name1, sizeof(r->name1), "%s",
		 r->nr_events > 1 ? session__event_name(s, 1) : "");
	for (size_t ev = 0; ev < r->nr_events && ev < 2; ev++) {
		snapshot__init(&snap);
		ck_assert_int_eq(session__snapshot(s, ev, &snap), 0);
		r->samples[ev] = snap.counts.samples;
		r->period[ev] = snap.counts.period;
		r->lost += snap.counts.lost;
		r->unknown_id = snap.session.unknown_id;
		r->bad = snap.session.bad_records;
		r->nr_procs = snap.nr_procs;
		for (size_t i = 0; i < snap.nr; i++) {
			const struct hist_entry *e = &snap.entries[i];
			const struct dso *d = e->key.dso;

			if (d->kind == DSO_KERNEL)
				r->kernel += e->samples;
			else if (d->kind == DSO_UNKNOWN)
				r->unknown += e->samples;
			else if (strcmp(d->path, "/bin/prog") == 0) {
				r->prog += e->samples;
				r->prog_bid = d->build_id_size == 20 &&
					      !memcmp(d->build_id, bid_prog, 20);
			}
			else if (strcmp(d->path, "/lib/libx.so") == 0) {
				r->libx += e->samples;
				r->libx_bid = d->build_id_size == 20 &&
					      !memcmp(d->build_id, bid_lib, 20);
			}
		}
		snapshot__fini(&snap);
	}
}

static int read_image(const void *buf, size_t len, struct result *r,
		      struct perfdata_stats *stats)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct session *s = session__new(&so);
	struct strbuf err;
	struct perfdata *pd;
	int ret;

	ck_assert_ptr_nonnull(s);
	strbuf__init(&err);
	pd = perfdata__open_mem(buf, len, &err);
	if (!pd) {
		snprintf(last_msg, sizeof(last_msg), "%s", err.buf ? err.buf : "");
		strbuf__fini(&err);
		session__free(s);
		return -EINVAL;
	}
	strbuf__fini(&err);
	ret = perfdata__read(pd, s, NULL);
	if (stats)
		*stats = *perfdata__stats(pd);
	if (r)
		summarize(s, r);
	perfdata__close(pd);
	session__free(s);
	return ret;
}

static void check_synth_result(const struct result *r)
{
	ck_assert_uint_eq(r->nr_events, 2);
	ck_assert_str_eq(r->name0, "cpu-clock:u");
	ck_assert_str_eq(r->name1, "page-faults:u");
	ck_assert_uint_eq(r->samples[0], 9);
	ck_assert_uint_eq(r->samples[1], 1);
	ck_assert_uint_eq(r->period[0], 9000);
	ck_assert_uint_eq(r->prog, 6);
	ck_assert(r->prog_bid);
	/* the MMAP came after these samples in the file, before in time */
	ck_assert_uint_eq(r->libx, 3);
	ck_assert(r->libx_bid);
	ck_assert_uint_eq(r->kernel, 1);
	ck_assert_uint_eq(r->unknown, 0);
	ck_assert_uint_eq(r->lost, 5);
	ck_assert_uint_eq(r->unknown_id, 0);
	ck_assert_uint_eq(r->bad, 0);
}

/* ---- header ---- */

START_TEST(test_header_file)
{
	struct pd_file_header fh;
	struct strbuf err;
	size_t n = synth_file(img, false, true);

	strbuf__init(&err);
	ck_assert_int_eq(perfdata__parse_header(img, n, &fh, &err), 0);
	ck_assert(!fh.swap && !fh.pipe);
	ck_assert_uint_eq(fh.size, 104);
	ck_assert_uint_eq(fh.attr_size, sizeof(struct perf_event_attr) + 16);
	ck_assert_uint_eq(fh.attrs.offset, 120);
	ck_assert(fh.flags[0] & (1ULL << PD_FEAT_EVENT_DESC));
	n = synth_file(img, true, true);
	ck_assert_int_eq(perfdata__parse_header(img, n, &fh, &err), 0);
	ck_assert(fh.swap && !fh.pipe);
	ck_assert_uint_eq(fh.attrs.offset, 120);
	ck_assert_uint_eq(fh.size, 104);
	strbuf__fini(&err);
}
END_TEST

static void expect_header_error(const void *buf, size_t len, const char *what)
{
	struct pd_file_header fh;
	struct strbuf err;

	strbuf__init(&err);
	ck_assert_int_eq(perfdata__parse_header(buf, len, &fh, &err), -EINVAL);
	ck_assert_msg(err.buf && strstr(err.buf, what), "'%s' not in '%s'",
		      what, err.buf ? err.buf : "");
	strbuf__fini(&err);
}

START_TEST(test_header_errors)
{
	u8 b[104] = { 0 };
	u64 v;

	expect_header_error(b, 0, "empty");
	expect_header_error("PERF", 4, "too short");
	expect_header_error("ELF\x7f\x01\x02\x03\x04", 8, "not a perf.data file");
	expect_header_error("PERFFILE", 8, "version 1");
	expect_header_error("PERFILE2\x10", 9, "truncated at byte 9");
	memcpy(b, "PERFILE2", 8);
	v = 50;
	memcpy(b + 8, &v, 8);
	expect_header_error(b, 104, "header size 50");
	v = 104;
	memcpy(b + 8, &v, 8);
	expect_header_error(b, 60, "truncated at byte 60");
	v = 8;
	memcpy(b + 16, &v, 8);
	expect_header_error(b, 104, "attr size 8");
	v = 144;
	memcpy(b + 16, &v, 8);
	v = 100;
	memcpy(b + 32, &v, 8);
	expect_header_error(b, 104, "not a multiple");
	v = 144;
	memcpy(b + 32, &v, 8);
	v = 50;
	memcpy(b + 40, &v, 8);
	expect_header_error(b, 104, "inside the header");
	/* near UINT64_MAX sizes are sizes like any other */
	v = UINT64_MAX;
	memcpy(b + 16, &v, 8);
	expect_header_error(b, 104, "attr size");
}
END_TEST

START_TEST(test_header_pipe)
{
	u64 h[2] = { 0, 16 };
	struct pd_file_header fh;
	struct strbuf err;

	memcpy(h, "PERFILE2", 8);
	strbuf__init(&err);
	ck_assert_int_eq(perfdata__parse_header(h, 16, &fh, &err), 0);
	ck_assert(fh.pipe && !fh.swap);
	h[1] = bswap64(16);
	memcpy(h, "2ELIFREP", 8);
	ck_assert_int_eq(perfdata__parse_header(h, 16, &fh, &err), 0);
	ck_assert(fh.pipe && fh.swap);
	strbuf__fini(&err);
}
END_TEST

/* ---- features ---- */

START_TEST(test_feature_strings)
{
	struct perfdata_info info;
	struct strbuf sb, err;
	u8 raw[16];
	u32 len;

	memset(&info, 0, sizeof(info));
	strbuf__init(&sb);
	strbuf__init(&err);
	ck_assert_int_eq(perfdata__build_string(&sb, "myhost"), 0);
	ck_assert_uint_eq(sb.len, 4 + 64);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_HOSTNAME, sb.buf,
						 sb.len, false, &err), 0);
	ck_assert_str_eq(info.hostname, "myhost");
	/* a string without its NUL is cut at its length */
	len = 8;
	memcpy(raw, &len, 4);
	memcpy(raw + 4, "abcdefghXXXX", 12);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_ARCH, raw, 12,
						 false, &err), 0);
	ck_assert_str_eq(info.arch, "abcdefgh");
	/* a length past the end is an error that says so */
	len = 0xffffffffu;
	memcpy(raw, &len, 4);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_OSRELEASE, raw, 12,
						 false, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.buf, "runs past the end"));
	ck_assert_ptr_null(info.osrelease);
	/* swapped */
	len = bswap32(8);
	memcpy(raw, &len, 4);
	memcpy(raw + 4, "release\0", 8);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_OSRELEASE, raw, 12,
						 true, &err), 0);
	ck_assert_str_eq(info.osrelease, "release");
	/* too short for a length */
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_CPUDESC, raw, 2,
						 false, &err), -EINVAL);
	/* features ptop does not read are fine */
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_CACHE, raw, 2,
						 false, &err), 0);
	perfdata_info__fini(&info);
	strbuf__fini(&sb);
	strbuf__fini(&err);
}
END_TEST

START_TEST(test_feature_numbers)
{
	struct perfdata_info info;
	struct strbuf err;
	u64 w[2];
	u32 c[2] = { 8, 6 };

	memset(&info, 0, sizeof(info));
	strbuf__init(&err);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_NRCPUS, c, 8,
						 false, &err), 0);
	ck_assert_uint_eq(info.nr_cpus_avail, 8);
	ck_assert_uint_eq(info.nr_cpus_online, 6);
	c[0] = bswap32(16);
	c[1] = bswap32(12);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_NRCPUS, c, 8,
						 true, &err), 0);
	ck_assert_uint_eq(info.nr_cpus_avail, 16);
	ck_assert_uint_eq(info.nr_cpus_online, 12);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_NRCPUS, c, 7,
						 false, &err), -EINVAL);
	w[0] = 1234;
	w[1] = 5678;
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_SAMPLE_TIME, w, 16,
						 false, &err), 0);
	ck_assert_uint_eq(info.first_sample_time, 1234);
	ck_assert_uint_eq(info.last_sample_time, 5678);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_SAMPLE_TIME, w, 15,
						 false, &err), -EINVAL);
	w[0] = bswap64(1ULL << 40);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_TOTAL_MEM, w, 8,
						 true, &err), 0);
	ck_assert_uint_eq(info.total_mem_kb, 1ULL << 40);
	perfdata_info__fini(&info);
	strbuf__fini(&err);
}
END_TEST

START_TEST(test_feature_cmdline)
{
	struct perfdata_info info;
	struct strbuf sb, err;
	u32 nr = 3;

	memset(&info, 0, sizeof(info));
	strbuf__init(&sb);
	strbuf__init(&err);
	strbuf__add(&sb, (const char *)&nr, 4);
	perfdata__build_string(&sb, "perf");
	perfdata__build_string(&sb, "record");
	perfdata__build_string(&sb, "-a");
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_CMDLINE, sb.buf,
						 sb.len, false, &err), 0);
	ck_assert_str_eq(info.cmdline, "perf record -a");
	/* a count near UINT32_MAX cannot fit */
	nr = 0xfffffff0u;
	memcpy(sb.buf, &nr, 4);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_CMDLINE, sb.buf,
						 sb.len, false, &err), -EINVAL);
	/* cut inside the last string */
	nr = 3;
	memcpy(sb.buf, &nr, 4);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_CMDLINE, sb.buf,
						 sb.len - 10, false, &err), -EINVAL);
	ck_assert_str_eq(info.cmdline, "perf record -a");
	perfdata_info__fini(&info);
	strbuf__fini(&sb);
	strbuf__fini(&err);
}
END_TEST

START_TEST(test_feature_build_ids)
{
	struct pd_build_id in[2] = {
		{ .pid = -1, .misc = PERF_RECORD_MISC_KERNEL, .size = 20,
		  .path = (char[]){ "[kernel.kallsyms]" } },
		{ .pid = 42, .misc = PERF_RECORD_MISC_USER, .size = 16,
		  .path = (char[]){ "/usr/lib/libc.so.6" } },
	};
	struct perfdata_info info;
	struct strbuf sb, err;
	u16 size;

	memcpy(in[0].bid, bid_kernel, 20);
	memcpy(in[1].bid, bid_lib, 16);
	memset(&info, 0, sizeof(info));
	strbuf__init(&sb);
	strbuf__init(&err);
	ck_assert_int_eq(perfdata__build_build_ids(&sb, in, 2), 0);
	/* perf's layout: 36 bytes, then the name padded to 64 */
	ck_assert_uint_eq(sb.len, 2 * (36 + 64));
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_BUILD_ID, sb.buf,
						 sb.len, false, &err), 0);
	ck_assert_uint_eq(info.nr_bids, 2);
	ck_assert_str_eq(info.bids[1].path, "/usr/lib/libc.so.6");
	ck_assert_int_eq(info.bids[1].pid, 42);
	ck_assert_uint_eq(info.bids[1].size, 16);
	ck_assert(!memcmp(info.bids[1].bid, bid_lib, 16));
	ck_assert_ptr_eq(perfdata_info__kernel(&info), &info.bids[0]);
	/* an entry size past the end, and one under the minimum */
	size = 4000;
	memcpy(sb.buf + 100 + 6, &size, 2);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_BUILD_ID, sb.buf,
						 sb.len, false, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.buf, "has size 4000"));
	size = 0;
	memcpy(sb.buf + 6, &size, 2);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_BUILD_ID, sb.buf,
						 sb.len, false, &err), -EINVAL);
	/* a build-id size over 20 */
	size = 100;
	memcpy(sb.buf + 6, &size, 2);
	sb.buf[32] = 99;
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_BUILD_ID, sb.buf,
						 100, false, &err), -EINVAL);
	perfdata_info__fini(&info);
	strbuf__fini(&sb);
	strbuf__fini(&err);
}
END_TEST

START_TEST(test_feature_event_desc)
{
	struct pd_event ev[2];
	u64 ids0[2] = { 7, 8 }, ids1[1] = { 9 };
	struct perfdata_info info;
	struct strbuf sb, err;
	u32 nr;

	memset(ev, 0, sizeof(ev));
	ev[0].attr = mkattr(PERF_COUNT_SW_CPU_CLOCK, ST);
	ev[0].ids = ids0;
	ev[0].nr_ids = 2;
	ev[0].name = (char[]){ "cpu-clock" };
	ev[1].attr = mkattr(PERF_COUNT_SW_PAGE_FAULTS, ST);
	ev[1].attr.exclude_kernel = 1;
	ev[1].ids = ids1;
	ev[1].nr_ids = 1;
	ev[1].name = (char[]){ "page-faults:u" };
	memset(&info, 0, sizeof(info));
	strbuf__init(&sb);
	strbuf__init(&err);
	ck_assert_int_eq(perfdata__build_event_desc(&sb, ev, 2), 0);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_EVENT_DESC, sb.buf,
						 sb.len, false, &err), 0);
	ck_assert_uint_eq(info.nr_desc, 2);
	ck_assert_str_eq(info.desc[1].name, "page-faults:u");
	ck_assert_uint_eq(info.desc[1].attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	ck_assert(info.desc[1].attr.exclude_kernel);
	ck_assert_uint_eq(info.desc[0].nr_ids, 2);
	ck_assert_uint_eq(info.desc[0].ids[1], 8);
	/* every prefix fails cleanly */
	for (size_t n = 0; n < sb.len; n++) {
		struct perfdata_info tmp;

		memset(&tmp, 0, sizeof(tmp));
		ck_assert_int_eq(perfdata__parse_feature(&tmp, PD_FEAT_EVENT_DESC,
							 sb.buf, n, false, &err),
				 -EINVAL);
		perfdata_info__fini(&tmp);
	}
	/* an event count near UINT32_MAX */
	nr = 0xffffffffu;
	memcpy(sb.buf, &nr, 4);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_EVENT_DESC, sb.buf,
						 sb.len, false, &err), -EINVAL);
	/* an attr size of 0 */
	nr = 2;
	memcpy(sb.buf, &nr, 4);
	memset(sb.buf + 4, 0, 4);
	ck_assert_int_eq(perfdata__parse_feature(&info, PD_FEAT_EVENT_DESC, sb.buf,
						 sb.len, false, &err), -EINVAL);
	perfdata_info__fini(&info);
	strbuf__fini(&sb);
	strbuf__fini(&err);
}
END_TEST

/* ---- swapping ---- */

static u8 rev8(u8 b)
{
	u8 r = 0;

	for (int i = 0; i < 8; i++)
		if (b & (1u << i))
			r |= (u8)(0x80u >> i);
	return r;
}

START_TEST(test_swap_attr)
{
	struct perf_event_attr a = mkattr(PERF_COUNT_SW_CPU_CLOCK, ST), b;
	u8 raw[sizeof(a)];

	a.exclude_kernel = 1;
	a.sample_id_all = 1;
	a.inherit = 1;
	a.sample_regs_user = 0x123456789ULL;
	a.sample_max_stack = 127;
	a.clockid = 1;
	memcpy(raw, &a, sizeof(a));
	record_swap__attr(raw, sizeof(raw));
	/* the numbers are byte-swapped, the flag bytes bit-reversed */
	memcpy(&b, raw, sizeof(b));
	ck_assert_uint_eq(b.sample_type, bswap64(ST));
	ck_assert_uint_eq(b.size, bswap32(sizeof(a)));
	ck_assert_uint_eq(raw[40], rev8(((u8 *)&a)[40]));
	record_swap__attr(raw, sizeof(raw));
	ck_assert(!memcmp(raw, &a, sizeof(a)));
	/* an old, short attr: fields past its size are left alone */
	memcpy(raw, &a, sizeof(a));
	record_swap__attr(raw, 64);
	ck_assert(!memcmp(raw + 64, (u8 *)&a + 64, sizeof(a) - 64));
}
END_TEST

/* A sample with every field of st, in either byte order. */
static size_t build_sample(u8 *out, const struct perf_event_attr *attr,
			   bool be)
{
	u64 st = attr->sample_type;
	struct bw b = { out + 8, be };
	u8 bytes[24] = "raw-and-stack-bytes!";
	size_t size;

	if (st & PERF_SAMPLE_IDENTIFIER)
		w64(&b, 0x1111);
	if (st & PERF_SAMPLE_IP)
		w64(&b, 0x401234);
	if (st & PERF_SAMPLE_TID) {
		w32(&b, 77);
		w32(&b, 78);
	}
	if (st & PERF_SAMPLE_TIME)
		w64(&b, 123456789);
	if (st & PERF_SAMPLE_ADDR)
		w64(&b, 0xdead);
	if (st & PERF_SAMPLE_ID)
		w64(&b, 0x1111);
	if (st & PERF_SAMPLE_STREAM_ID)
		w64(&b, 0x2222);
	if (st & PERF_SAMPLE_CPU) {
		w32(&b, 3);
		w32(&b, 0);
	}
	if (st & PERF_SAMPLE_PERIOD)
		w64(&b, 4000);
	if (st & PERF_SAMPLE_READ) {
		/* GROUP | ID | TOTAL_TIME_ENABLED: nr, enabled, 2 x (v, id) */
		w64(&b, 2);
		w64(&b, 99);
		for (int i = 0; i < 4; i++)
			w64(&b, 1000 + (u64)i);
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		w64(&b, 3);
		w64(&b, (u64)PERF_CONTEXT_USER);
		w64(&b, 0x401234);
		w64(&b, 0x401000);
	}
	if (st & PERF_SAMPLE_RAW) {
		w32(&b, 12);
		wbytes(&b, bytes, 12);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		w64(&b, 2);
		w64(&b, 1);	/* hw_idx */
		for (int i = 0; i < 6; i++)
			w64(&b, 0x500 + (u64)i);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		w64(&b, 2);	/* PERF_SAMPLE_REGS_ABI_64 */
		w64(&b, 0xaaa);
		w64(&b, 0xbbb);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		w64(&b, 16);
		wbytes(&b, bytes, 16);
		w64(&b, 8);
	}
	if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
		w32(&b, 0x10);
		w16(&b, 0x20);
		w16(&b, 0x30);
	} else if (st & PERF_SAMPLE_WEIGHT) {
		w64(&b, 0x40);
	}
	if (st & PERF_SAMPLE_DATA_SRC)
		w64(&b, 0x50);
	if (st & PERF_SAMPLE_TRANSACTION)
		w64(&b, 0x60);
	if (st & PERF_SAMPLE_REGS_INTR) {
		w64(&b, 2);
		w64(&b, 0xccc);
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		w64(&b, 0x70);
	if (st & PERF_SAMPLE_CGROUP)
		w64(&b, 0x80);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		w64(&b, 4096);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		w64(&b, 8192);
	if (st & PERF_SAMPLE_AUX) {
		w64(&b, 8);
		wbytes(&b, bytes, 8);
	}
	size = (size_t)(b.p - out);
	b.p = out;
	whdr(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, (u16)size);
	return size;
}

static void check_sample_swap(u64 st)
{
	struct perf_event_attr attr = mkattr(0, st);
	u64 a[64], b[64];
	struct perf_sample smp;
	size_t n, m;

	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			   PERF_FORMAT_TOTAL_TIME_ENABLED;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	attr.sample_regs_user = 0x3;
	attr.sample_regs_intr = 0x1;
	n = build_sample((u8 *)a, &attr, false);
	m = build_sample((u8 *)b, &attr, true);
	ck_assert_uint_eq(n, m);
	record_swap__header((struct perf_event_header *)b);
	ck_assert_int_eq(record_swap__sample((struct perf_event_header *)b,
					     &attr), 0);
	ck_assert_msg(!memcmp(a, b, n), "sample_type %#llx differs after swap",
		      (unsigned long long)st);
	ck_assert_int_eq(record__parse_sample(&attr,
					      (struct perf_event_header *)b,
					      &smp), 0);
	if (st & PERF_SAMPLE_TID) {
		ck_assert_uint_eq(smp.pid, 77);
		ck_assert_uint_eq(smp.tid, 78);
	}
	if (st & PERF_SAMPLE_CALLCHAIN)
		ck_assert_uint_eq(smp.callchain[2], 0x401000);
	if (st & PERF_SAMPLE_CPU)
		ck_assert_uint_eq(smp.cpu, 3);
	/* cut short: an error, never a read past the end */
	for (size_t cut = 8; cut < n; cut += 8) {
		struct perf_event_header *h = (void *)b;

		m = build_sample((u8 *)b, &attr, true);
		record_swap__header(h);
		h->size = (u16)cut;
		record_swap__sample(h, &attr);
	}
}

START_TEST(test_swap_sample_each_bit)
{
	for (u64 bit = 1; bit < PERF_SAMPLE_MAX; bit <<= 1)
		check_sample_swap(bit);
	check_sample_swap(PERF_SAMPLE_MAX - 1);
	check_sample_swap((PERF_SAMPLE_MAX - 1) & ~PERF_SAMPLE_WEIGHT_STRUCT);
	check_sample_swap(ST);
}
END_TEST

START_TEST(test_swap_sample_counts)
{
	struct perf_event_attr attr = mkattr(0, PERF_SAMPLE_IP |
					     PERF_SAMPLE_CALLCHAIN |
					     PERF_SAMPLE_READ);
	u64 buf[8] = { 0 };
	struct perf_event_header *h = (void *)buf;

	/* a callchain count near UINT64_MAX */
	h->type = PERF_RECORD_SAMPLE;
	h->size = 48;
	buf[1] = 0x1000;
	buf[2] = bswap64(1);	/* read value (no GROUP) */
	buf[3] = bswap64(UINT64_MAX - 1);
	ck_assert_int_eq(record_swap__sample(h, &attr), -EINVAL);
	/* a read group count near UINT64_MAX */
	attr.read_format = PERF_FORMAT_GROUP;
	h->size = 48;
	buf[2] = bswap64(UINT64_MAX);
	ck_assert_int_eq(record_swap__sample(h, &attr), -EINVAL);
}
END_TEST

START_TEST(test_swap_kernel_records)
{
	u8 a[256] __attribute__((aligned(8))), b[256] __attribute__((aligned(8)));
	size_t n;

#define BOTH(expr_a, expr_b)                                                 \
	do {                                                                 \
		n = (expr_a);                                                \
		ck_assert_uint_eq((expr_b), n);                              \
		record_swap__header((struct perf_event_header *)b);          \
		ck_assert_int_eq(record_swap__kernel(                        \
					 (struct perf_event_header *)b, ST,  \
					 true), 0);                          \
		ck_assert(!memcmp(a, b, n));                                 \
	} while (0)
	BOTH(rec_mmap2(a, false, 1, 2, 3, 4, "/x", NULL, 5),
	     rec_mmap2(b, true, 1, 2, 3, 4, "/x", NULL, 5));
	BOTH(rec_mmap2(a, false, 1, 2, 3, 4, "/x", bid_prog, 5),
	     rec_mmap2(b, true, 1, 2, 3, 4, "/x", bid_prog, 5));
	BOTH(rec_comm(a, false, 9, "name", 5), rec_comm(b, true, 9, "name", 5));
	BOTH(rec_fork(a, false, PERF_RECORD_FORK, 9, 8, 5),
	     rec_fork(b, true, PERF_RECORD_FORK, 9, 8, 5));
	BOTH(rec_fork(a, false, PERF_RECORD_EXIT, 9, 8, 5),
	     rec_fork(b, true, PERF_RECORD_EXIT, 9, 8, 5));
	BOTH(rec_lost(a, false, 3, 99, 5), rec_lost(b, true, 3, 99, 5));
#undef BOTH
	/* MMAP, THROTTLE, LOST_SAMPLES: built here */
	{
		struct bw x = { a, false }, y = { b, true };
		struct bw *ws[2] = { &x, &y };

		for (int i = 0; i < 2; i++) {
			whdr(ws[i], PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, 8 + 32 + 8 + TRAILER);
			w32(ws[i], (u32)-1);
			w32(ws[i], 0);
			w64(ws[i], 0xffffffff81000000ULL);
			w64(ws[i], 0x100000);
			w64(ws[i], 0xffffffff81000000ULL);
			wbytes(ws[i], "[k]\0\0\0\0\0", 8);
			wtrailer(ws[i], 0, 7, 0);
		}
		record_swap__header((struct perf_event_header *)b);
		ck_assert_int_eq(record_swap__kernel((void *)b, ST, true), 0);
		ck_assert(!memcmp(a, b, 8 + 40 + TRAILER));
		x.p = a;
		y.p = b;
		for (int i = 0; i < 2; i++) {
			whdr(ws[i], PERF_RECORD_THROTTLE, 0, 8 + 24 + TRAILER);
			w64(ws[i], 1);
			w64(ws[i], 2);
			w64(ws[i], 3);
			wtrailer(ws[i], 0, 7, 2);
		}
		record_swap__header((struct perf_event_header *)b);
		ck_assert_int_eq(record_swap__kernel((void *)b, ST, true), 0);
		ck_assert(!memcmp(a, b, 8 + 24 + TRAILER));
		x.p = a;
		y.p = b;
		for (int i = 0; i < 2; i++) {
			whdr(ws[i], PERF_RECORD_LOST_SAMPLES, 0, 8 + 8 + TRAILER);
			w64(ws[i], 12);
			wtrailer(ws[i], 0, 7, 2);
		}
		record_swap__header((struct perf_event_header *)b);
		ck_assert_int_eq(record_swap__kernel((void *)b, ST, true), 0);
		ck_assert(!memcmp(a, b, 8 + 8 + TRAILER));
	}
	/* a record too short for its trailer */
	n = rec_lost(b, true, 3, 99, 5);
	record_swap__header((struct perf_event_header *)b);
	((struct perf_event_header *)b)->size = 16;
	ck_assert_int_eq(record_swap__kernel((void *)b, ST, true), -EINVAL);
}
END_TEST

START_TEST(test_swap_user_records)
{
	u8 a[512] __attribute__((aligned(8)));
	struct perf_event_attr attr = mkattr(PERF_COUNT_SW_CPU_CLOCK, ST), got;
	struct bw b = { a, true };
	u8 raw[sizeof(attr)];
	struct perf_event_header *h = (void *)a;
	u64 id;

	memcpy(raw, &attr, sizeof(raw));
	record_swap__attr(raw, sizeof(raw));
	whdr(&b, PERF_RECORD_HEADER_ATTR, 0, (u16)(8 + sizeof(attr) + 16));
	wbytes(&b, raw, sizeof(raw));
	w64(&b, 5);
	w64(&b, 6);
	record_swap__header(h);
	ck_assert_uint_eq(h->type, PERF_RECORD_HEADER_ATTR);
	ck_assert_int_eq(record_swap__user(h), 0);
	memcpy(&got, a + 8, sizeof(got));
	ck_assert(!memcmp(&got, &attr, sizeof(attr)));
	memcpy(&id, a + 8 + sizeof(attr) + 8, 8);
	ck_assert_uint_eq(id, 6);
	/* an attr size larger than the record */
	b.p = a;
	whdr(&b, PERF_RECORD_HEADER_ATTR, 0, 80);
	w32(&b, 1);
	w32(&b, 4000);
	record_swap__header(h);
	ck_assert_int_eq(record_swap__user(h), -EINVAL);
	/* AUXTRACE: the payload size */
	b.p = a;
	whdr(&b, PERF_RECORD_AUXTRACE, 0, 48);
	w64(&b, 4096);
	record_swap__header(h);
	ck_assert_int_eq(record_swap__user(h), 0);
	memcpy(&id, a + 8, 8);
	ck_assert_uint_eq(id, 4096);
}
END_TEST

/* ---- files ---- */

START_TEST(test_file_native)
{
	struct perfdata_stats st;
	struct result r;
	size_t n = synth_file(img, false, true);

	ck_assert_int_eq(read_image(img, n, &r, &st), 0);
	check_synth_result(&r);
	ck_assert_uint_eq(st.bad, 0);
	ck_assert_uint_eq(st.unknown, 0);
	ck_assert(!st.damaged);
	ck_assert_uint_eq(st.out_of_order, 0);
	ck_assert_uint_eq(st.user_records, 3);	/* the rounds */
}
END_TEST

START_TEST(test_file_swapped)
{
	struct perfdata_stats st;
	struct result r;
	size_t n = synth_file(img, true, true);
	struct perfdata *pd;
	struct strbuf err;

	ck_assert_int_eq(read_image(img, n, &r, &st), 0);
	check_synth_result(&r);
	ck_assert_uint_eq(st.bad, 0);
	strbuf__init(&err);
	pd = perfdata__open_mem(img, n, &err);
	ck_assert_ptr_nonnull(pd);
	ck_assert(perfdata__info(pd)->swapped);
	ck_assert_str_eq(perfdata__info(pd)->hostname, "testhost");
	ck_assert_str_eq(perfdata__info(pd)->cmdline, "perf record");
	ck_assert_uint_eq(perfdata__info(pd)->nr_cpus_avail, 4);
	ck_assert_uint_eq(perfdata__info(pd)->last_sample_time, 400);
	ck_assert(!memcmp(perfdata_info__kernel(perfdata__info(pd))->bid,
			  bid_kernel, 20));
	perfdata__close(pd);
	strbuf__fini(&err);
}
END_TEST

START_TEST(test_file_without_features)
{
	struct result r;
	size_t n = synth_file(img, false, false);

	ck_assert_int_eq(read_image(img, n, &r, NULL), 0);
	/* names from the attrs; libx has no build-id without the table */
	ck_assert_str_eq(r.name0, "cpu-clock");
	ck_assert_str_eq(r.name1, "page-faults");
	ck_assert_uint_eq(r.libx, 3);
	ck_assert(!r.libx_bid);
}
END_TEST

/* ---- MMAP2 records with a leaked build-id bit ---- */

/*
 * From Linux 5.12 until its fix, the kernel leaks
 * PERF_RECORD_MISC_MMAP_BUILD_ID into the MMAP2 records of sessions
 * without attr.build_id, over the maj/min/ino/ino_generation they hold.
 * The images below are what such sessions write, in either byte order:
 * maj 254 (virtio: a "size" of 254), 259 (nvme: little-endian bytes 03 01
 * 00 00, a size of 3 with a reserved byte of 1) and 8 (sd: bytes 08 00 00
 * 00, a plausible size that only the attr tells apart), with a true
 * build-id record beside them.
 */
struct leak_map {
	const char *path;
	u64 start;
	u32 maj;		/* 0: a true build-id (bid_prog) */
	u64 id;			/* the event that carried it */
};

static const struct leak_map leak_virtio = { "/v/virtio", 0x400000, 254, ID_A };
static const struct leak_map leak_nvme = { "/v/nvme.so", 0x500000, 259, ID_A };
static const struct leak_map leak_sd = { "/v/sd.so", 0x600000, 8, ID_A };
static const struct leak_map leak_sd_b = { "/v/sd.so", 0x600000, 8, ID_B };
static const struct leak_map true_bid = { "/bin/prog", 0x700000, 0, ID_A };

static size_t rec_leak_mmap2(u8 *out, bool be, const struct leak_map *m,
			     u64 time)
{
	struct bw b = { out, be };
	size_t n = strlen(m->path) + 1, pad = ALIGN_UP(n, (size_t)8);
	u8 zero[16] = { 0 };

	whdr(&b, PERF_RECORD_MMAP2,
	     PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID,
	     (u16)(8 + 64 + pad + TRAILER));
	w32(&b, 100);
	w32(&b, 100);
	w64(&b, m->start);
	w64(&b, 0x10000);
	w64(&b, 0);
	if (m->maj) {		/* as the kernel wrote them, bit or not */
		w32(&b, m->maj);
		w32(&b, 3);
		w64(&b, 1000 + m->maj);
		w64(&b, 5);
	} else {
		u8 x[4] = { 20, 0, 0, 0 };

		wbytes(&b, x, 4);
		wbytes(&b, bid_prog, 20);
	}
	w32(&b, 5);
	w32(&b, 2);
	wbytes(&b, m->path, n);
	wbytes(&b, zero, pad - n);
	wtrailer(&b, 100, time, m->id);
	return (size_t)(b.p - out);
}

/* A file (or a pipe stream) of two events, cpu-clock (ID_A, build_id
 * as bid0 says) and page-faults (ID_B, no build_id), whose data maps
 * each of maps and takes one sample in it with its event. */
static size_t leak_image(u8 *out, bool be, bool pipe, bool bid0,
			 const struct leak_map *const *maps, size_t nr)
{
	struct perf_event_attr attrs[2] = {
		mkattr(PERF_COUNT_SW_CPU_CLOCK, ST),
		mkattr(PERF_COUNT_SW_PAGE_FAULTS, ST),
	};
	struct bw b = { out, be };
	u64 attrs_off, data_off;
	u8 *data;

	attrs[0].build_id = bid0;
	if (pipe) {
		wbytes(&b, be ? "2ELIFREP" : "PERFILE2", 8);
		w64(&b, 16);
	} else {
		b.p = out + 104;
		w64(&b, ID_A);
		w64(&b, ID_B);
	}
	attrs_off = (u64)(b.p - out);
	for (int i = 0; i < 2; i++) {
		u8 a[sizeof(struct perf_event_attr)];

		memcpy(a, &attrs[i], sizeof(a));
		if (be)
			record_swap__attr(a, sizeof(a));
		if (pipe)
			whdr(&b, PERF_RECORD_HEADER_ATTR, 0,
			     (u16)(8 + sizeof(a) + 8));
		wbytes(&b, a, sizeof(a));
		if (pipe) {
			w64(&b, i ? ID_B : ID_A);
		} else {
			w64(&b, 104 + 8 * (u64)i);
			w64(&b, 8);
		}
	}
	data = b.p;
	data_off = (u64)(data - out);
	b.p += rec_comm(b.p, be, 100, "w", 10);
	for (size_t i = 0; i < nr; i++)
		b.p += rec_leak_mmap2(b.p, be, maps[i], 20 + i);
	for (size_t i = 0; i < nr; i++)
		b.p += rec_sample(b.p, be, maps[i]->id, 100,
				  maps[i]->start + 0x1000, 100 + i,
				  PERF_RECORD_MISC_USER);
	b.p += rec_round(b.p, be);
	if (!pipe) {
		u8 *end = b.p;

		b.p = out;
		wbytes(&b, "PERFILE2", 8);
		if (be)
			memcpy(out, "2ELIFREP", 8);
		w64(&b, 104);
		w64(&b, sizeof(struct perf_event_attr) + 16);
		w64(&b, attrs_off);
		w64(&b, 2 * (sizeof(struct perf_event_attr) + 16));
		w64(&b, data_off);
		w64(&b, (u64)(end - data));
		for (int i = 0; i < 6; i++)
			w64(&b, 0);
		b.p = end;
	}
	return (size_t)(b.p - out);
}

/* Reads the image (file or pipe) and checks each mapping's dso: the
 * union as the kernel meant it, one sample by path; leaked: the count
 * of MMAP2 records whose bit was not a build-id. */
static void check_leak_image(bool be, bool pipe, bool bid0,
			     const struct leak_map *const *maps, size_t nr,
			     u64 leaked)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct session *s = session__new(&so);
	size_t len = leak_image(img, be, pipe, bid0, maps, nr);
	struct perfdata_info info;
	struct perfdata_stream *ps = NULL;
	struct perfdata *pd = NULL;
	struct snapshot snap[2];
	struct strbuf err;

	ck_assert_ptr_nonnull(s);
	if (pipe) {
		memset(&info, 0, sizeof(info));
		ps = perfdata_stream__new(s, true, false, 0, &info, NULL);
		ck_assert_ptr_nonnull(ps);
		/* odd chunks: records split between feeds */
		for (size_t off = 0; off < len; off += 13)
			perfdata_stream__feed(ps, img + off, MIN(13, len - off));
		perfdata_stream__end(ps);
		ck_assert_uint_eq(perfdata_stream__stats(ps)->bad, 0);
	} else {
		strbuf__init(&err);
		pd = perfdata__open_mem(img, len, &err);
		ck_assert_msg(pd != NULL, "%s", err.buf ? err.buf : "");
		strbuf__fini(&err);
		ck_assert_int_eq(perfdata__info(pd)->swapped, be);
		ck_assert_int_eq(perfdata__read(pd, s, NULL), 0);
		ck_assert_uint_eq(perfdata__stats(pd)->bad, 0);
	}
	ck_assert_uint_eq(session__counts(s)->leaked_build_id, leaked);
	ck_assert_uint_eq(session__counts(s)->bad_records, 0);
	for (size_t ev = 0; ev < 2; ev++) {
		snapshot__init(&snap[ev]);
		ck_assert_int_eq(session__snapshot(s, ev, &snap[ev]), 0);
	}
	for (size_t i = 0; i < nr; i++) {
		const struct leak_map *m = maps[i];
		const struct map *mp = machine__find_map(session__machine(s),
							 100, m->start + 0x1000);
		const struct snapshot *sn = &snap[m->id == ID_B];
		const struct dso *d;
		u64 in_dso = 0;

		ck_assert_msg(mp != NULL, "%s: no map", m->path);
		d = mp->dso;
		ck_assert_str_eq(d->path, m->path);
		if (m->maj) {
			ck_assert_msg(d->build_id_size == 0,
				      "%s: maj %u read as a build-id", m->path,
				      m->maj);
			ck_assert_uint_eq(d->maj, m->maj);
			ck_assert_uint_eq(d->min, 3);
			ck_assert_uint_eq(d->ino, 1000 + m->maj);
			ck_assert_uint_eq(d->ino_gen, 5);
		} else {
			ck_assert_uint_eq(d->build_id_size, 20);
			ck_assert(!memcmp(d->build_id, bid_prog, 20));
		}
		for (size_t j = 0; j < sn->nr; j++)
			if (sn->entries[j].key.dso == d)
				in_dso += sn->entries[j].samples;
		ck_assert_uint_eq(in_dso, 1);
	}
	for (size_t ev = 0; ev < 2; ev++)
		snapshot__fini(&snap[ev]);
	perfdata__close(pd);
	perfdata_stream__free(ps);
	if (pipe)
		perfdata_info__fini(&info);
	session__free(s);
}

START_TEST(test_leaked_build_id)
{
	/* perf record -B beside a session with build_id: no attr asks for
	 * build-ids, so no union is one, whatever its bytes */
	static const struct leak_map *const nobid[] = {
		&leak_virtio, &leak_nvme, &leak_sd,
	};
	/* an attr with build_id: a true build-id beside records whose size
	 * byte (254) or reserved bytes (259) cannot be a build-id's */
	static const struct leak_map *const bid[] = {
		&leak_virtio, &true_bid, &leak_nvme,
	};
	/* two events, only the first with build_id: the trailer's id names
	 * the carrier, so maj 8 carried by the second is device and inode */
	static const struct leak_map *const mixed[] = {
		&true_bid, &leak_sd_b, &leak_nvme,
	};

	for (int i = 0; i < 4; i++) {
		bool be = i & 1, pipe = i & 2;

		check_leak_image(be, pipe, false, nobid, 3, 3);
		check_leak_image(be, pipe, true, bid, 3, 2);
		check_leak_image(be, pipe, true, mixed, 3, 2);
	}
}
END_TEST

/* The swap of one MMAP2 record: the union stays bytes while the bit is
 * set, and is swapped as maj/min/ino once the bit is known to be leaked. */
START_TEST(test_swap_leaked_mmap2)
{
	u8 a[256] __attribute__((aligned(8))), b[256] __attribute__((aligned(8)));
	struct perf_event_header *h = (void *)b;
	struct rec_mmap m;
	size_t n;

	n = rec_leak_mmap2(a, false, &leak_sd, 5);
	ck_assert_uint_eq(rec_leak_mmap2(b, true, &leak_sd, 5), n);
	record_swap__header(h);
	ck_assert_int_eq(record_swap__kernel(h, ST, true), 0);
	/* big-endian maj 8 is bytes 00 00 00 08: a size of 0 */
	ck_assert(!record__mmap2_build_id(h, true));
	ck_assert_int_eq(record_swap__mmap2_ids(h), 0);
	ck_assert(!memcmp(a, b, n));
	ck_assert_int_eq(record__parse_mmap(h, TRAILER, false, &m), 0);
	ck_assert_uint_eq(m.maj, 8);
	ck_assert_uint_eq(m.ino, 1008);
	ck_assert(m.leaked_build_id);
	/* a true build-id is bytes in both orders */
	n = rec_leak_mmap2(a, false, &true_bid, 5);
	rec_leak_mmap2(b, true, &true_bid, 5);
	record_swap__header(h);
	ck_assert_int_eq(record_swap__kernel(h, ST, true), 0);
	ck_assert(record__mmap2_build_id(h, true));
	ck_assert(!memcmp(a, b, n));
	/* not an MMAP2 */
	rec_comm(b, false, 9, "x", 5);
	ck_assert_int_eq(record_swap__mmap2_ids(h), -EINVAL);
}
END_TEST

/* Every prefix of an image: an error naming what is wrong, or the
 * records before the cut; never a crash, never more samples. */
static void check_prefixes(const u8 *buf, size_t len, u64 total)
{
	for (size_t n = 0; n <= len; n++) {
		struct perfdata_stats st;
		struct result r;
		int ret;

		memcpy(img2, buf, n);
		last_msg[0] = '\0';
		ret = read_image(img2, n, &r, &st);
		if (ret) {
			ck_assert_msg(last_msg[0], "prefix %zu: no message", n);
			continue;
		}
		ck_assert_msg(r.samples[0] + r.samples[1] <= total,
			      "prefix %zu: %llu samples", n,
			      (unsigned long long)(r.samples[0] + r.samples[1]));
	}
}

START_TEST(test_file_every_prefix)
{
	size_t n = synth_file(img, false, true);

	check_prefixes(img, n, 10);
	n = synth_file(img, true, true);
	check_prefixes(img, n, 10);
}
END_TEST

static u8 *read_seed(const char *dir, const char *name, size_t *len)
{
	char path[512];
	struct stat sb;
	u8 *buf;
	int fd;

	snprintf(path, sizeof(path), "tests/fuzz/corpus/%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	ck_assert_msg(fd >= 0, "%s: run the tests from the repository root", path);
	ck_assert_int_eq(fstat(fd, &sb), 0);
	buf = malloc((size_t)sb.st_size + 8);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(read(fd, buf, (size_t)sb.st_size), sb.st_size);
	close(fd);
	*len = (size_t)sb.st_size;
	return buf;
}

START_TEST(test_real_files_every_prefix)
{
	static const char *const seeds[] = {
		"perf-cmd.data", "perf-g.data", "perf-2ev.data", "ptop.data",
		"perf-z.data",	/* perf record -z */
	};
	struct result full;
	size_t len;

	for (size_t i = 0; i < ARRAY_SIZE(seeds); i++) {
		u8 *buf = read_seed("perfdata", seeds[i], &len);

		ck_assert_uint_le(len, sizeof(img2));
		ck_assert_int_eq(read_image(buf, len, &full, NULL), 0);
		ck_assert_msg(full.samples[0] > 0, "%s: no samples", seeds[i]);
		ck_assert_uint_eq(full.bad, 0);
		check_prefixes(buf, len, full.samples[0] + full.samples[1]);
		free(buf);
	}
}
END_TEST

START_TEST(test_file_damage)
{
	struct perfdata_stats st;
	struct result r;
	size_t n = synth_file(img, false, false);
	size_t data_off = 120 + 2 * (sizeof(struct perf_event_attr) + 16);
	u16 size;

	/* record size 0 at the 4th record: the first three stay */
	memcpy(img2, img, n);
	{
		size_t off = data_off;

		for (int i = 0; i < 3; i++) {
			memcpy(&size, img2 + off + 6, 2);
			off += size;
		}
		size = 0;
		memcpy(img2 + off + 6, &size, 2);
		ck_assert_int_eq(read_image(img2, n, &r, &st), 0);
		ck_assert(st.damaged);
		ck_assert_uint_eq(st.damage_offset, off);
		ck_assert_uint_eq(r.samples[0], 0);
		ck_assert_uint_eq(r.nr_procs >= 1, 1);
		ck_assert_ptr_nonnull(strstr(last_msg, "unreadable from byte"));
	}
	/* an unknown type, a compressed record: skipped and counted */
	{
		u8 *p = img2 + data_off;
		u16 s2;

		memcpy(img2, img, n);
		memcpy(&s2, p + 6, 2);
		p[0] = 200;	/* the COMM becomes type 200 */
		ck_assert_int_eq(read_image(img2, n, &r, &st), 0);
		ck_assert_uint_eq(st.unknown, 1);
		ck_assert_uint_eq(r.samples[0], 9);
		/* a COMPRESSED record that is not zstd: bad */
		p[0] = PERF_RECORD_COMPRESSED;
		ck_assert_int_eq(read_image(img2, n, &r, &st), 0);
		ck_assert_uint_eq(st.compressed, 1);
		ck_assert_uint_eq(st.bad, 1);
	}
	/* a data size past the end: what is there is read */
	memcpy(img2, img, n);
	{
		u64 big = UINT64_MAX - 100;

		memcpy(img2 + 48, &big, 8);
		nr_msgs = 0;
		ck_assert_int_eq(read_image(img2, n, &r, &st), 0);
		ck_assert_uint_eq(r.samples[0], 9);
		ck_assert_int_ge(nr_msgs, 1);
	}
	/* data size 0 (not finalized, no features): read to the end */
	memcpy(img2, img, n);
	{
		u64 zero = 0;

		memcpy(img2 + 48, &zero, 8);
		nr_msgs = 0;
		ck_assert_int_eq(read_image(img2, n, &r, &st), 0);
		ck_assert_uint_eq(r.samples[0], 9);
		ck_assert_int_ge(nr_msgs, 1);
	}
	/* an attr whose ids are past the end: a clear error */
	memcpy(img2, img, n);
	{
		u64 far = 1ULL << 40;

		memcpy(img2 + 120 + sizeof(struct perf_event_attr), &far, 8);
		ck_assert_int_eq(read_image(img2, n, &r, &st), -EINVAL);
		ck_assert_ptr_nonnull(strstr(last_msg, "past the end"));
		ck_assert_ptr_nonnull(strstr(last_msg, "byte 120"));
	}
	/* an attr size larger than its entry */
	memcpy(img2, img, n);
	{
		u32 big = 4000;

		memcpy(img2 + 120 + 4, &big, 4);
		ck_assert_int_eq(read_image(img2, n, &r, &st), -EINVAL);
		ck_assert_ptr_nonnull(strstr(last_msg, "larger than the entry"));
	}
}
END_TEST

/* A kernel record whose size is not a multiple of 8 is skipped by its
 * size and counted; the record after it (now misaligned) still reads. */
START_TEST(test_stream_odd_size)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct session *s = session__new(&so);
	struct perfdata_info info;
	struct perfdata_stream *ps;
	struct pd_event ev;
	u64 id = ID_A;
	struct result r;
	struct bw b = { img, false };

	memset(&info, 0, sizeof(info));
	memset(&ev, 0, sizeof(ev));
	ev.attr = mkattr(PERF_COUNT_SW_CPU_CLOCK, ST);
	ev.ids = &id;
	ev.nr_ids = 1;
	ps = perfdata_stream__new(s, false, false, 0, &info, NULL);
	ck_assert_int_ge(perfdata_stream__add_event(ps, &ev), 0);
	whdr(&b, PERF_RECORD_COMM, 0, 12);
	w32(&b, 5);
	b.p += rec_sample(b.p, false, ID_A, 7, 0x1000, 10, PERF_RECORD_MISC_USER);
	ck_assert_int_eq(perfdata_stream__feed(ps, img, (size_t)(b.p - img)), 0);
	perfdata_stream__end(ps);
	ck_assert_uint_eq(perfdata_stream__stats(ps)->bad, 1);
	summarize(s, &r);
	ck_assert_uint_eq(r.samples[0], 1);
	perfdata_stream__free(ps);
	perfdata_info__fini(&info);
	session__free(s);
}
END_TEST

START_TEST(test_file_bad_features)
{
	struct result r;
	size_t n = synth_file(img, false, true);
	u64 table, v;

	/* the hostname section's size past the end: skipped, data read */
	memcpy(&table, img + 40, 8);
	memcpy(&v, img + 48, 8);
	table += v;
	memcpy(img2, img, n);
	v = UINT64_MAX;
	memcpy(img2 + table + 16 + 8, &v, 8);
	ck_assert_int_eq(read_image(img2, n, &r, NULL), 0);
	ck_assert_uint_eq(r.samples[0], 9);
	/* the feature table itself past the end */
	memcpy(img2, img, n);
	ck_assert_int_eq(read_image(img2, (size_t)table + 8, &r, NULL), 0);
	ck_assert_uint_eq(r.samples[0], 9);
	ck_assert_ptr_nonnull(strstr(last_msg, "feature"));
}
END_TEST

/*
 * Files with eight random bytes changed, in both byte orders: each is
 * either refused with a message that says why, or read with every sample
 * it counts inside a complete record; the same damaged file reads the
 * same twice (nothing depends on memory it did not set).  The intact
 * file reads in full, and the damage was both refused and read.
 */
START_TEST(test_garbage)
{
	unsigned int seed = 12345;
	int refused = 0, damaged = 0;

	for (int be = 0; be < 2; be++) {
		size_t n = synth_file(img, be, true);
		struct result r;

		ck_assert_int_eq(read_image(img, n, &r, NULL), 0);
		check_synth_result(&r);
	}
	for (int i = 0; i < 2000; i++) {
		size_t n = synth_file(img, i & 1, true);
		struct perfdata_stats st, st2;
		struct result r, r2;
		int ret;

		memcpy(img2, img, n);
		for (int k = 0; k < 8; k++) {
			seed = seed * 1103515245u + 12345u;
			img2[(seed >> 8) % n] = (u8)(seed >> 20);
		}
		memset(&st, 0, sizeof(st));
		memset(&r, 0, sizeof(r));
		last_msg[0] = '\0';
		ret = read_image(img2, n, &r, &st);
		ck_assert_int_le(ret, 0);
		if (ret < 0) {
			ck_assert_msg(last_msg[0], "round %d: %d, unexplained",
				      i, ret);
			refused++;
		} else {
			ck_assert_uint_le(st.records, n / 8);
			ck_assert_uint_le(st.bytes, n);
			ck_assert_uint_le(r.samples[0] + r.samples[1],
					  st.records);
			damaged += st.bad || st.unknown || st.damaged ||
				   st.truncated_bytes || st.file_truncated ||
				   st.features_damaged || r.bad;
		}
		memset(&st2, 0, sizeof(st2));
		memset(&r2, 0, sizeof(r2));
		ck_assert_int_eq(read_image(img2, n, &r2, &st2), ret);
		ck_assert(memcmp(&r, &r2, sizeof(r)) == 0);
		ck_assert_uint_eq(st.records, st2.records);
		ck_assert_uint_eq(st.bytes, st2.bytes);
		ck_assert_uint_eq(st.bad, st2.bad);
		ck_assert_int_eq(st.damaged, st2.damaged);
	}
	ck_assert_int_gt(refused, 0);
	ck_assert_int_gt(damaged, 0);
}
END_TEST

/* ---- streams ---- */

static void feed_pipe(const u8 *buf, size_t len, size_t chunk,
		      struct result *r, struct perfdata_stats *st)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct session *s = session__new(&so);
	struct perfdata_info info;
	struct perfdata_stream *ps;

	memset(&info, 0, sizeof(info));
	ps = perfdata_stream__new(s, true, false, 0, &info, NULL);
	ck_assert_ptr_nonnull(ps);
	for (size_t off = 0; off < len; off += chunk)
		perfdata_stream__feed(ps, buf + off, MIN(chunk, len - off));
	perfdata_stream__end(ps);
	if (st)
		*st = *perfdata_stream__stats(ps);
	summarize(s, r);
	perfdata_stream__free(ps);
	perfdata_info__fini(&info);
	session__free(s);
}

/* The synthetic recording in pipe mode: header, ATTRs, a feature. */
static size_t synth_pipe(u8 *out, bool be)
{
	struct perf_event_attr attrs[2] = {
		mkattr(PERF_COUNT_SW_CPU_CLOCK, ST),
		mkattr(PERF_COUNT_SW_PAGE_FAULTS, ST),
	};
	struct bw b = { out, be };
	u8 *start;

	attrs[0].build_id = 1;
	wbytes(&b, be ? "2ELIFREP" : "PERFILE2", 8);
	w64(&b, 16);
	for (int i = 0; i < 2; i++) {
		u8 a[sizeof(struct perf_event_attr)];

		memcpy(a, &attrs[i], sizeof(a));
		if (be)
			record_swap__attr(a, sizeof(a));
		whdr(&b, PERF_RECORD_HEADER_ATTR, 0, (u16)(8 + sizeof(a) + 8));
		wbytes(&b, a, sizeof(a));
		w64(&b, i ? ID_B : ID_A);
	}
	/* HEADER_FEATURE hostname, not a multiple of 8 as perf writes it */
	start = b.p;
	whdr(&b, PERF_RECORD_HEADER_FEATURE, 0, 8 + 8 + 4 + 64);
	w64(&b, PD_FEAT_HOSTNAME);
	wstring(&b, "pipehost");
	ck_assert_uint_eq((size_t)(b.p - start), 84);
	/* a build-id record for libx, as perf inject -b writes them */
	wbuild_id(&b, PERF_RECORD_MISC_USER, bid_lib, "/lib/libx.so");
	((struct perf_event_header *)(void *)(b.p - 100))->type =
		be ? bswap32(PERF_RECORD_HEADER_BUILD_ID) : PERF_RECORD_HEADER_BUILD_ID;
	b.p += synth_data(b.p, be);
	return (size_t)(b.p - out);
}

START_TEST(test_pipe_any_split)
{
	static const size_t chunks[] = { 1, 3, 7, 8, 13, 64, 1000, 65536 };
	struct perfdata_stats st;
	struct result r;
	size_t n;

	for (int be = 0; be < 2; be++) {
		n = synth_pipe(img, be);
		for (size_t i = 0; i < ARRAY_SIZE(chunks); i++) {
			feed_pipe(img, n, chunks[i], &r, &st);
			ck_assert_uint_eq(r.nr_events, 2);
			ck_assert_uint_eq(r.samples[0], 9);
			ck_assert_uint_eq(r.samples[1], 1);
			ck_assert_uint_eq(r.libx, 3);
			ck_assert(r.libx_bid);
			ck_assert_uint_eq(st.bad, 0);
			ck_assert_uint_eq(st.truncated_bytes, 0);
		}
	}
}
END_TEST

START_TEST(test_pipe_every_prefix)
{
	size_t n = synth_pipe(img, false);

	for (size_t cut = 0; cut <= n; cut++) {
		struct perfdata_stats st;
		struct result r;

		feed_pipe(img, cut, 5, &r, &st);
		ck_assert_uint_le(r.samples[0] + r.samples[1], 10);
	}
}
END_TEST

/* A stop request (SIGTERM while -i reads) ends the stream inside a
 * record: that is no damage, and nothing says it is. */
START_TEST(test_stopped_inside_a_record)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	size_t n = synth_pipe(img, false);

	for (int stopped = 0; stopped < 2; stopped++) {
		struct session *s = session__new(&so);
		struct perfdata_info info;
		struct perfdata_stream *ps;
		const struct perfdata_stats *st;

		memset(&info, 0, sizeof(info));
		ps = perfdata_stream__new(s, true, false, 0, &info, NULL);
		ck_assert_ptr_nonnull(ps);
		all_msgs[0] = '\0';
		/* the last record is 8 or more bytes long: cut inside it */
		perfdata_stream__feed(ps, img, n - 4);
		perfdata_stream__set_stopped(ps, stopped);
		perfdata_stream__end(ps);
		st = perfdata_stream__stats(ps);
		if (stopped) {
			ck_assert_uint_eq(st->truncated_bytes, 0);
			ck_assert_ptr_null(strstr(all_msgs, "inside"));
		} else {
			ck_assert_uint_gt(st->truncated_bytes, 0);
			ck_assert_ptr_nonnull(strstr(all_msgs, "inside a record"));
		}
		perfdata_stream__free(ps);
		perfdata_info__fini(&info);
		session__free(s);
	}
}
END_TEST

/* ---- damage the records do not show (issue 13): each is said ---- */

/* A file missing its last byte: the last feature section runs past the
 * end; the data reads whole, the damage is counted and said. */
START_TEST(test_damage_last_byte)
{
	struct perfdata_stats st;
	struct result r;
	size_t n = synth_file(img, false, true);

	memcpy(img2, img, n);
	all_msgs[0] = '\0';
	ck_assert_int_eq(read_image(img2, n - 1, &r, &st), 0);
	check_synth_result(&r);
	ck_assert(st.file_truncated);
	ck_assert_uint_eq(st.features_damaged, 1);
	ck_assert_ptr_nonnull(strstr(all_msgs, "sample_time"));
	ck_assert_ptr_nonnull(strstr(all_msgs, "truncated"));
	/* the whole file: nothing said */
	all_msgs[0] = '\0';
	ck_assert_int_eq(read_image(img, n, &r, &st), 0);
	ck_assert(!st.file_truncated);
	ck_assert_uint_eq(st.features_damaged, 0);
	ck_assert_str_eq(all_msgs, "");
}
END_TEST

/* Features ptop does not read (cpu_topology ... hybrid_cpu_pmu_caps,
 * compressed) are checked against the file's end as well. */
START_TEST(test_damage_unused_feature)
{
	static const unsigned int feats[] = { 13, 14, 16, 20, 22, 25, 26, 27,
					      31 };
	size_t n = synth_file(img, false, true);
	u64 table, v, flags;

	memcpy(&table, img + 40, 8);
	memcpy(&v, img + 48, 8);
	table += v;
	for (size_t i = 0; i < ARRAY_SIZE(feats); i++) {
		struct perfdata_stats st;
		struct result r;
		char name[32];

		/* sample_time (bit 21, the last entry) becomes feats[i]:
		 * the table's order (by bit) stays right for bits above 12 */
		memcpy(img2, img, n);
		memcpy(&flags, img2 + 72, 8);
		flags &= ~(1ULL << PD_FEAT_SAMPLE_TIME);
		flags |= 1ULL << feats[i];
		memcpy(img2 + 72, &flags, 8);
		/* its size: one byte past the end */
		memcpy(&v, img2 + table + 5 * 16, 8);
		v = n - v + 1;
		memcpy(img2 + table + 5 * 16 + 8, &v, 8);
		all_msgs[0] = '\0';
		ck_assert_int_eq(read_image(img2, n, &r, &st), 0);
		ck_assert_uint_eq(r.samples[0], 9);
		ck_assert_msg(st.features_damaged == 1 && st.file_truncated,
			      "feature %u", feats[i]);
		ck_assert_msg(strstr(all_msgs, perfdata__feature_name(feats[i],
					name, sizeof(name))),
			      "feature %u: %s", feats[i], all_msgs);
	}
}
END_TEST

/* A header size above 104: perf refuses the file; ptop says so and reads
 * the fields it knows. */
START_TEST(test_damage_header_size)
{
	struct perfdata_stats st;
	struct result r;
	size_t n = synth_file(img, false, true);
	u64 v = 112;

	memcpy(img2, img, n);
	memcpy(img2 + 8, &v, 8);
	all_msgs[0] = '\0';
	ck_assert_int_eq(read_image(img2, n, &r, &st), 0);
	check_synth_result(&r);
	ck_assert_uint_eq(st.header_size, 112);
	ck_assert_ptr_nonnull(strstr(all_msgs, "header size 112"));
	ck_assert_int_eq(read_image(img, n, &r, &st), 0);
	ck_assert_uint_eq(st.header_size, 0);
}
END_TEST

/* A stream cut exactly between two records: where its writer sends
 * FINISHED_ROUND, records after the last one mean a lost tail. */
START_TEST(test_damage_stream_cut_at_record)
{
	size_t n = synth_pipe(img, false), off = 16;
	bool marks = false;
	u64 after = 0;
	int cuts = 0, said = 0;

	while (off <= n) {
		struct perfdata_stats st;
		struct result r;

		all_msgs[0] = '\0';
		feed_pipe(img, off, 7, &r, &st);
		ck_assert_uint_eq(st.truncated_bytes, 0);
		ck_assert_uint_eq(st.unfinished, marks ? after : 0);
		if (marks && after) {
			ck_assert_msg(strstr(all_msgs, "FINISHED_ROUND"),
				      "cut at %zu: %s", off, all_msgs);
			said++;
		}
		cuts++;
		if (off == n)
			break;
		{
			struct perf_event_header h;

			memcpy(&h, img + off, sizeof(h));
			if (h.type == PERF_RECORD_FINISHED_ROUND) {
				marks = true;
				after = 0;
			} else if (h.type < PERF_RECORD_USER_TYPE_START) {
				after++;
			}
			off += h.size;
		}
	}
	/* the whole stream ends with its round: nothing said */
	ck_assert_uint_eq(after, 0);
	ck_assert_int_gt(said, 5);
	ck_assert_int_gt(cuts, said);
}
END_TEST

/* A sample_type without IP (0): the samples are read, at address 0, and
 * the event is named in a warning. */
START_TEST(test_damage_no_ip)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct session *s = session__new(&so);
	struct perfdata_info info;
	struct perfdata_stream *ps;
	struct pd_event ev;
	struct result r;
	struct bw b = { img, false };
	char name[] = "cpu-clock";

	memset(&info, 0, sizeof(info));
	memset(&ev, 0, sizeof(ev));
	ev.attr = mkattr(PERF_COUNT_SW_CPU_CLOCK, 0);
	ev.name = name;
	ps = perfdata_stream__new(s, false, false, 0, &info, NULL);
	all_msgs[0] = '\0';
	ck_assert_int_ge(perfdata_stream__add_event(ps, &ev), 0);
	for (int i = 0; i < 3; i++)
		whdr(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8);
	ck_assert_int_eq(perfdata_stream__feed(ps, img, (size_t)(b.p - img)), 0);
	perfdata_stream__end(ps);
	ck_assert_uint_eq(perfdata_stream__stats(ps)->no_ip_events, 1);
	ck_assert_ptr_nonnull(strstr(all_msgs, "cpu-clock"));
	ck_assert_ptr_nonnull(strstr(all_msgs, "no IP"));
	summarize(s, &r);
	ck_assert_uint_eq(r.samples[0], 3);
	perfdata_stream__free(ps);
	perfdata_info__fini(&info);
	session__free(s);
}
END_TEST

/* ---- perf record -z ---- */

/* A COMPRESSED (v2: COMPRESSED2) record holding z[0, n) at b. */
static void wcompressed(struct bw *b, const u8 *z, size_t n, bool v2)
{
	static const u8 pad[8];

	if (!v2) {
		whdr(b, PERF_RECORD_COMPRESSED, 0, (u16)(8 + n));
		wbytes(b, z, n);
		return;
	}
	whdr(b, PERF_RECORD_COMPRESSED2, 0, (u16)ALIGN_UP(16 + n, (size_t)8));
	w64(b, n);
	wbytes(b, z, n);
	wbytes(b, pad, ALIGN_UP(16 + n, (size_t)8) - 16 - n);
}

/* zstd frame of src[0, n) into z; returns its size. */
static size_t zframe(u8 *z, size_t cap, const u8 *src, size_t n)
{
	size_t r = ZSTD_compress(z, cap, src, n, 3);

	ck_assert(!ZSTD_isError(r));
	return r;
}

/*
 * The synthetic pipe stream with its records compressed as perf record
 * -z writes them: frames of the data cut at byte cut (a record split
 * between two COMPRESSED records, as a ring that wraps makes it), and,
 * with split_frame, one frame cut in two records.  Returns the size.
 */
static size_t synth_zpipe(u8 *out, bool be, bool v2, size_t cut,
			  bool split_frame)
{
	static u8 data[8192], z[8192];
	size_t n = synth_pipe(out, be), dn = synth_data(data, be), zn;
	struct bw b = { out + n - dn, be };

	ck_assert_uint_le(cut, dn);
	if (split_frame) {
		zn = zframe(z, sizeof(z), data, dn);
		wcompressed(&b, z, zn / 2, v2);
		wcompressed(&b, z + zn / 2, zn - zn / 2, v2);
	} else {
		zn = zframe(z, sizeof(z), data, cut);
		wcompressed(&b, z, zn, v2);
		zn = zframe(z, sizeof(z), data + cut, dn - cut);
		wcompressed(&b, z, zn, v2);
	}
	return (size_t)(b.p - out);
}

START_TEST(test_pipe_compressed)
{
	static const size_t chunks[] = { 1, 7, 64, 65536 };
	size_t dn = synth_data(img2, false);

	for (int be = 0; be < 2; be++)
		for (int v2 = 0; v2 < 2; v2++)
			for (size_t cut = 0; cut <= dn + 8; cut += 4) {
				size_t n = synth_zpipe(img, be, v2, MIN(cut, dn),
						       cut > dn);

				for (size_t i = 0; i < ARRAY_SIZE(chunks); i++) {
					struct perfdata_stats st;
					struct result r;

					if (i < 2 && cut % 36)
						continue;	/* keep it quick */
					feed_pipe(img, n, chunks[i], &r, &st);
					ck_assert_uint_eq(r.nr_events, 2);
					ck_assert_uint_eq(r.samples[0], 9);
					ck_assert_uint_eq(r.samples[1], 1);
					ck_assert_uint_eq(r.libx, 3);
					ck_assert_uint_eq(r.lost, 5);
					ck_assert_uint_eq(st.compressed, 2);
					ck_assert_uint_eq(st.bad, 0);
					ck_assert_uint_eq(st.truncated_bytes, 0);
				}
			}
}
END_TEST

START_TEST(test_pipe_compressed_bad)
{
	size_t dn = synth_data(img2, false), n;
	/* where the compressed records start */
	size_t zoff = synth_pipe(img, false) - dn;
	struct perfdata_stats st;
	struct result r;
	u8 *p;

	/* garbage instead of zstd: counted bad, said once */
	n = synth_zpipe(img, false, false, 100, false);
	p = img + zoff;
	for (size_t i = 8; i < 40; i++)
		p[i] ^= 0x5a;
	all_msgs[0] = '\0';
	feed_pipe(img, n, 65536, &r, &st);
	ck_assert_uint_ge(st.bad, 1);
	ck_assert_ptr_nonnull(strstr(all_msgs, "compressed data"));
	ck_assert_uint_le(r.samples[0], 9);

	/* the data of the second frame ends inside a record */
	{
		static u8 z[8192];
		struct bw b;
		size_t zn;

		n = synth_pipe(img, false);
		b.p = img + n - dn;
		b.be = false;
		zn = zframe(z, sizeof(z), img2, dn - 4);
		wcompressed(&b, z, zn, true);
		n = (size_t)(b.p - img);
		feed_pipe(img, n, 65536, &r, &st);
		ck_assert_uint_eq(st.truncated_bytes, 4);	/* of the last round */
		ck_assert_uint_eq(st.bad, 0);
	}

	/* COMPRESSED2 whose data_size runs past the record */
	n = synth_zpipe(img, false, true, 100, false);
	p = img + zoff;
	{
		u64 big = 1u << 20;

		memcpy(p + 8, &big, 8);
	}
	feed_pipe(img, n, 65536, &r, &st);
	ck_assert_uint_ge(st.bad, 1);

	/* a zstd bomb: 72 MiB of 8-byte records from one small record,
	 * cut at 64 MiB; then a size-0 record in a frame, after which the
	 * next COMPRESSED record (the synthetic data) is still read */
	{
		static u8 chunk[128 << 10], z[32 << 10];
		ZSTD_CStream *cs = ZSTD_createCStream();
		ZSTD_outBuffer out = { z, sizeof(z), 0 };
		struct bw b;
		size_t zn, left;

		ck_assert_ptr_nonnull(cs);
		for (size_t i = 0; i < sizeof(chunk); i += 8) {
			b.p = chunk + i;
			b.be = false;
			whdr(&b, 99, 0, 8);	/* an unknown type */
		}
		ZSTD_initCStream(cs, 19);
		for (int i = 0; i < 72 * 8; i++) {
			ZSTD_inBuffer in = { chunk, sizeof(chunk), 0 };

			while (in.pos < in.size)
				ck_assert(!ZSTD_isError(
					ZSTD_compressStream(cs, &out, &in)));
		}
		do {
			left = ZSTD_endStream(cs, &out);
			ck_assert(!ZSTD_isError(left));
		} while (left);
		ZSTD_freeCStream(cs);
		ck_assert_uint_lt(out.pos, 60000);
		n = synth_pipe(img, false);
		b.p = img + zoff;
		b.be = false;
		wcompressed(&b, z, out.pos, false);
		n = (size_t)(b.p - img);
		all_msgs[0] = '\0';
		feed_pipe(img, n, 65536, &r, &st);
		ck_assert_uint_eq(st.bad, 1);
		ck_assert_uint_le(st.unknown, (64u << 20) / 8 + (256u << 10) / 8);
		ck_assert_ptr_nonnull(strstr(all_msgs, "more than 64 MiB"));

		memset(chunk, 0, 64);	/* a record of size 0 */
		zn = zframe(z, sizeof(z), chunk, 64);
		n = synth_pipe(img, false);
		b.p = img + zoff;
		wcompressed(&b, z, zn, true);
		zn = zframe(z, sizeof(z), img2, dn);
		wcompressed(&b, z, zn, true);
		n = (size_t)(b.p - img);
		all_msgs[0] = '\0';
		feed_pipe(img, n, 65536, &r, &st);
		ck_assert_uint_eq(st.bad, 1);
		ck_assert_ptr_nonnull(strstr(all_msgs, "size under 8"));
		ck_assert_uint_eq(r.samples[0], 9);
		ck_assert_uint_eq(r.libx, 3);
	}

	/* a compressed record inside a compressed record */
	{
		static u8 inner[256], z[512];
		struct bw b = { inner, false };
		size_t in_n, zn;

		wcompressed(&b, (const u8 *)"xxxxxxxx", 8, false);
		in_n = (size_t)(b.p - inner);
		zn = zframe(z, sizeof(z), inner, in_n);
		n = synth_pipe(img, false);
		b.p = img + n - dn;
		wcompressed(&b, z, zn, false);
		n = (size_t)(b.p - img);
		feed_pipe(img, n, 65536, &r, &st);
		ck_assert_uint_eq(st.bad, 1);
	}
}
END_TEST

START_TEST(test_pipe_bad)
{
	struct perfdata_stats st;
	struct result r;
	size_t n = synth_pipe(img, false);

	/* not a pipe header */
	memcpy(img2, img, n);
	memcpy(img2, "NOTPERF!", 8);
	feed_pipe(img2, n, 100, &r, &st);
	ck_assert(st.damaged);
	ck_assert_uint_eq(r.nr_events, 0);
	/* samples before any attr: counted, not decoded */
	{
		u8 *p = img2;
		struct bw b = { p, false };

		wbytes(&b, "PERFILE2", 8);
		w64(&b, 16);
		b.p += rec_sample(b.p, false, ID_A, 1, 0x1000, 5,
				  PERF_RECORD_MISC_USER);
		memcpy(b.p, img + 16, n - 16);
		feed_pipe(img2, n + (size_t)(b.p - p) - 16, 64, &r, &st);
		ck_assert_uint_eq(r.samples[0], 9);
	}
	/* a tracing data record whose payload size is near UINT32_MAX:
	 * the stream ends inside it */
	{
		struct bw b = { img2, false };

		wbytes(&b, "PERFILE2", 8);
		w64(&b, 16);
		whdr(&b, PERF_RECORD_HEADER_TRACING_DATA, 0, 16);
		w32(&b, 0xfffffff0u);
		w32(&b, 0);
		feed_pipe(img2, 64, 64, &r, &st);
		ck_assert_uint_eq(st.truncated_bytes, 1);
		ck_assert_uint_eq(st.payload_bytes, 32);
	}
}
END_TEST

START_TEST(test_real_pipes)
{
	static const char *const seeds[] = { "perf.pipe", "ptop.pipe",
					     "perf-z.pipe" };
	size_t len;

	for (size_t i = 0; i < ARRAY_SIZE(seeds); i++) {
		u8 *buf = read_seed("perfpipe", seeds[i], &len);
		struct perfdata_stats st;
		struct result whole, r;

		feed_pipe(buf, len, len, &whole, &st);
		ck_assert_msg(whole.samples[0] > 0, "%s: no samples", seeds[i]);
		ck_assert_uint_eq(st.bad, 0);
		feed_pipe(buf, len, 7, &r, &st);
		ck_assert_uint_eq(r.samples[0], whole.samples[0]);
		for (size_t cut = 0; cut <= len; cut++) {
			feed_pipe(buf, cut, 4096, &r, &st);
			ck_assert_uint_le(r.samples[0], whole.samples[0]);
		}
		/* the same stream read as a file (perf record -o - > f) */
		ck_assert_int_eq(read_image(buf, len, &r, NULL), 0);
		ck_assert_uint_eq(r.samples[0], whole.samples[0]);
		free(buf);
	}
}
END_TEST

/* ---- ordering ---- */

START_TEST(test_order_rounds)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct session *s = session__new(&so);
	struct perfdata_info info;
	struct perfdata_stream *ps;
	struct pd_event ev;
	u64 id = ID_A;
	struct result r;
	u8 *p = img;

	memset(&info, 0, sizeof(info));
	memset(&ev, 0, sizeof(ev));
	ev.attr = mkattr(PERF_COUNT_SW_CPU_CLOCK, ST);
	ev.ids = &id;
	ev.nr_ids = 1;
	ps = perfdata_stream__new(s, false, false, 0, &info, NULL);
	ck_assert_int_ge(perfdata_stream__add_event(ps, &ev), 0);
	/* round 1: a sample at t=100 before its MMAP at t=50 */
	p += rec_sample(p, false, ID_A, 7, 0x401000, 100, PERF_RECORD_MISC_USER);
	p += rec_mmap2(p, false, 7, 0x400000, 0x10000, 0, "/bin/prog", bid_prog, 50);
	p += rec_round(p, false);
	ck_assert_int_eq(perfdata_stream__feed(ps, img, (size_t)(p - img)), 0);
	/* held until the next round: nothing handed on yet */
	summarize(s, &r);
	ck_assert_uint_eq(r.samples[0], 0);
	p = img;
	/* round 2: a sample from another CPU older than round 1's */
	p += rec_sample(p, false, ID_A, 7, 0x401000, 90, PERF_RECORD_MISC_USER);
	p += rec_round(p, false);
	ck_assert_int_eq(perfdata_stream__feed(ps, img, (size_t)(p - img)), 0);
	summarize(s, &r);
	ck_assert_uint_eq(r.samples[0], 2);
	ck_assert_uint_eq(r.prog, 2);
	ck_assert_uint_eq(perfdata_stream__stats(ps)->out_of_order, 0);
	perfdata_stream__end(ps);
	perfdata_stream__free(ps);
	perfdata_info__fini(&info);
	session__free(s);
}
END_TEST

START_TEST(test_order_bounded)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct perfdata_read_opts ro = { .queue_bytes = 4096 };
	struct session *s = session__new(&so);
	struct perfdata_info info;
	struct perfdata_stream *ps;
	struct pd_event ev;
	u64 id = ID_A;
	struct result r;

	memset(&info, 0, sizeof(info));
	memset(&ev, 0, sizeof(ev));
	ev.attr = mkattr(PERF_COUNT_SW_CPU_CLOCK, ST);
	ev.ids = &id;
	ev.nr_ids = 1;
	ps = perfdata_stream__new(s, false, false, 0, &info, &ro);
	ck_assert_int_ge(perfdata_stream__add_event(ps, &ev), 0);
	/* no rounds at all: the queue stays under its bound */
	for (u64 t = 1; t <= 1000; t++) {
		size_t n = rec_sample(img, false, ID_A, 7, 0x1000, t,
				      PERF_RECORD_MISC_USER);

		ck_assert_int_eq(perfdata_stream__feed(ps, img, n), 0);
	}
	summarize(s, &r);
	ck_assert_uint_gt(r.samples[0], 900);
	perfdata_stream__end(ps);
	summarize(s, &r);
	ck_assert_uint_eq(r.samples[0], 1000);
	perfdata_stream__free(ps);
	perfdata_info__fini(&info);
	session__free(s);
}
END_TEST

/* Many rounds, each with one sorted run per "CPU" interleaved in time:
 * every sample arrives, in order, resolved (runs merged, the arena
 * compacted many times over). */
START_TEST(test_order_many_rounds)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct session *s = session__new(&so);
	struct perfdata_info info;
	struct perfdata_stream *ps;
	struct pd_event ev;
	u64 id = ID_A, t0 = 1000;
	struct result r;
	u8 *p = img;

	memset(&info, 0, sizeof(info));
	memset(&ev, 0, sizeof(ev));
	ev.attr = mkattr(PERF_COUNT_SW_CPU_CLOCK, ST);
	ev.ids = &id;
	ev.nr_ids = 1;
	ps = perfdata_stream__new(s, false, false, 0, &info, NULL);
	ck_assert_int_ge(perfdata_stream__add_event(ps, &ev), 0);
	p += rec_comm(p, false, 7, "prog", 1);
	p += rec_mmap2(p, false, 7, 0x400000, 0x10000, 0, "/bin/prog", bid_prog, 2);
	ck_assert_int_eq(perfdata_stream__feed(ps, img, (size_t)(p - img)), 0);
	for (int round = 0; round < 300; round++) {
		p = img;
		for (int cpu = 0; cpu < 3; cpu++)
			for (int i = 0; i < 200; i++)
				p += rec_sample(p, false, ID_A, 7, 0x401000,
						t0 + (u64)i * 3 + (u64)cpu,
						PERF_RECORD_MISC_USER);
		p += rec_round(p, false);
		t0 += 600;
		ck_assert_int_eq(perfdata_stream__feed(ps, img, (size_t)(p - img)), 0);
	}
	perfdata_stream__end(ps);
	summarize(s, &r);
	ck_assert_uint_eq(r.samples[0], 300 * 600);
	ck_assert_uint_eq(r.prog, 300 * 600);
	ck_assert_uint_eq(perfdata_stream__stats(ps)->out_of_order, 0);
	ck_assert_uint_eq(perfdata_stream__stats(ps)->bad, 0);
	perfdata_stream__free(ps);
	perfdata_info__fini(&info);
	session__free(s);
}
END_TEST

/* The times handed on, through perfdata_read_opts.mark (asked again at
 * the next nanosecond: every record's time). */
struct marks {
	u64 n, last;
	bool sorted;
};

static u64 mark_time(void *ctx, u64 t)
{
	struct marks *m = ctx;

	m->sorted &= t >= m->last;
	m->last = t;
	m->n++;
	return t + 1;
}

/* rounds of three "CPUs"' interleaved samples into out: its length */
static size_t lent_stream(u8 *out, int rounds, int per_cpu)
{
	u8 *p = out;
	u64 t0 = 1000;

	p += rec_comm(p, false, 7, "prog", 1);
	p += rec_mmap2(p, false, 7, 0x400000, 0x10000, 0, "/bin/prog",
		       bid_prog, 2);
	for (int round = 0; round < rounds; round++) {
		for (int cpu = 0; cpu < 3; cpu++)
			for (int i = 0; i < per_cpu; i++)
				p += rec_sample(p, false, ID_A, 7, 0x401000,
						t0 + (u64)i * 3 + (u64)cpu,
						PERF_RECORD_MISC_USER);
		p += rec_round(p, false);
		t0 += 3 * (u64)per_cpu;
	}
	return (size_t)(p - out);
}

/* A stream of event ID_A (cpu-clock) into a new session *s. */
static struct perfdata_stream *lent_new(struct session **s,
					struct perfdata_info *info,
					const struct perfdata_read_opts *ro)
{
	static u64 id = ID_A;
	struct session_opts so = { .key_fields = KEY_ALL };
	struct perfdata_stream *ps;
	struct pd_event ev;

	*s = session__new(&so);
	ck_assert_ptr_nonnull(*s);
	memset(info, 0, sizeof(*info));
	memset(&ev, 0, sizeof(ev));
	ev.attr = mkattr(PERF_COUNT_SW_CPU_CLOCK, ST);
	ev.ids = &id;
	ev.nr_ids = 1;
	ps = perfdata_stream__new(*s, false, false, 0, info, ro);
	ck_assert_ptr_nonnull(ps);
	ck_assert_int_ge(perfdata_stream__add_event(ps, &ev), 0);
	return ps;
}

/* Feeds img[0, n) in pieces of step bytes, through the stream's own
 * buffers (lent to its queue) if lend, else by perfdata_stream__feed. */
static void feed_lent(size_t n, size_t step, bool lend, struct result *r,
		      struct marks *m)
{
	struct perfdata_read_opts ro = { .mark = mark_time, .mark_ctx = m };
	struct perfdata_info info;
	struct perfdata_stream *ps;
	struct session *s;

	memset(m, 0, sizeof(*m));
	m->sorted = true;
	ps = lent_new(&s, &info, &ro);
	for (size_t off = 0; off < n; off += step) {
		size_t k = MIN(step, n - off);

		if (lend) {
			u8 *b = perfdata_stream__buffer(ps, k);

			ck_assert_ptr_nonnull(b);
			memcpy(b, img + off, k);
			ck_assert_int_eq(perfdata_stream__feed_buffer(ps, k), 0);
		} else {
			ck_assert_int_eq(perfdata_stream__feed(ps, img + off, k),
					 0);
		}
	}
	perfdata_stream__end(ps);
	summarize(s, r);
	ck_assert_uint_eq(perfdata_stream__stats(ps)->out_of_order, 0);
	ck_assert_uint_eq(perfdata_stream__stats(ps)->bad, 0);
	perfdata_stream__free(ps);
	perfdata_info__fini(&info);
	session__free(s);
}

/* Records queued where they lie in the reader's buffers are handed on
 * as copied ones are: the same records, in the same time order, whatever
 * the split (records cut between two buffers are copied). */
START_TEST(test_order_lent)
{
	static const size_t steps[] = { 8, 13, 104, 1000, 4096, 65536 };
	size_t n = lent_stream(img, 8, 20);
	struct result r0, r1;
	struct marks m0, m1;

	ck_assert_uint_le(n, sizeof(img));
	feed_lent(n, n, false, &r0, &m0);
	ck_assert_uint_eq(r0.samples[0], 8 * 60);
	ck_assert(m0.sorted);
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		feed_lent(n, steps[i], true, &r1, &m1);
		ck_assert_uint_eq(r1.samples[0], r0.samples[0]);
		ck_assert_uint_eq(r1.period[0], r0.period[0]);
		ck_assert_uint_eq(r1.prog, r0.prog);
		ck_assert_uint_eq(m1.n, m0.n);
		ck_assert(m1.sorted);
	}
}
END_TEST

/* The buffers lent to the queue are bounded: with no round marker
 * nothing is handed on before the end, and past 64 buffers kept the
 * reader gets one plain buffer, its records copied; a buffer whose
 * records all went is given again. */
START_TEST(test_lent_bounded)
{
	struct perfdata_info info;
	struct perfdata_stream *ps;
	struct session *s;
	u8 *got[80];
	struct result r;
	size_t n;

	ps = lent_new(&s, &info, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(got); i++) {
		n = rec_sample(img, false, ID_A, 7, 0x1000, 100 + i,
			       PERF_RECORD_MISC_USER);
		got[i] = perfdata_stream__buffer(ps, n);
		ck_assert_ptr_nonnull(got[i]);
		memcpy(got[i], img, n);
		ck_assert_int_eq(perfdata_stream__feed_buffer(ps, n), 0);
	}
	for (size_t i = 0; i < 64; i++)
		for (size_t j = i + 1; j < ARRAY_SIZE(got); j++)
			ck_assert_ptr_ne(got[i], got[j]);
	for (size_t i = 65; i < ARRAY_SIZE(got); i++)
		ck_assert_ptr_eq(got[i], got[64]);
	summarize(s, &r);
	ck_assert_uint_eq(r.samples[0], 0);
	/* two rounds hand everything on: the first buffer is free again */
	n = rec_round(img, false);
	n += rec_round(img + n, false);
	memcpy(perfdata_stream__buffer(ps, n), img, n);
	ck_assert_int_eq(perfdata_stream__feed_buffer(ps, n), 0);
	summarize(s, &r);
	ck_assert_uint_eq(r.samples[0], ARRAY_SIZE(got));
	ck_assert_ptr_eq(perfdata_stream__buffer(ps, 8), got[0]);
	perfdata_stream__end(ps);
	perfdata_stream__free(ps);
	perfdata_info__fini(&info);
	session__free(s);
}
END_TEST

/* ---- writer ---- */

struct wfix {
	char dir[64];
	char kallsyms[128], modules[128], notes[128], out[128];
	struct session *src;
	struct perfdata_writer *w;
};

static void write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

/* A source session with the synthetic recording's two events, and the
 * files the writer reads for the kernel's maps and build-id. */
static void wfix_init(struct wfix *f)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct perf_event_attr a0 = mkattr(PERF_COUNT_SW_CPU_CLOCK, ST);
	struct perf_event_attr a1 = mkattr(PERF_COUNT_SW_PAGE_FAULTS, ST);
	/* a note area: namesz 4, descsz 20, NT_GNU_BUILD_ID, "GNU\0", id */
	u8 note[12 + 4 + 20];
	u32 hdr[3] = { 4, 20, 3 };
	static const char ks[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81000100 T do_work\n"
		"ffffffff81200000 T _etext\n"
		"ffffffffc0000000 t mod_fn\t[mymod]\n";
	static const char mods[] = "mymod 16384 0 - Live 0xffffffffc0000000\n";

	/* as ptop's tracking event: its MMAP2 records carry build-ids */
	a0.mmap2 = 1;
	a0.build_id = 1;
	memset(f, 0, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "/tmp/ptop-pdtest-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(f->dir));
	snprintf(f->kallsyms, sizeof(f->kallsyms), "%s/kallsyms", f->dir);
	snprintf(f->modules, sizeof(f->modules), "%s/modules", f->dir);
	snprintf(f->notes, sizeof(f->notes), "%s/notes", f->dir);
	snprintf(f->out, sizeof(f->out), "%s/out.data", f->dir);
	write_file(f->kallsyms, ks, sizeof(ks) - 1);
	write_file(f->modules, mods, sizeof(mods) - 1);
	memcpy(note, hdr, 12);
	memcpy(note + 12, "GNU", 4);
	memcpy(note + 16, bid_kernel, 20);
	write_file(f->notes, note, sizeof(note));
	f->src = session__new(&so);
	ck_assert_int_eq(session__add_event(f->src, "cpu-clock", &a0), 0);
	ck_assert_int_eq(session__add_event(f->src, "page-faults", &a1), 1);
	ck_assert_int_eq(session__add_id(f->src, 0, ID_A), 0);
	ck_assert_int_eq(session__add_id(f->src, 1, ID_B), 0);
}

static void wfix_fini(struct wfix *f)
{
	char cmd[160];

	perfdata_writer__free(f->w);
	session__free(f->src);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", f->dir);
	ck_assert_int_eq(system(cmd), 0);
}

static struct perfdata_writer *wfix_writer(struct wfix *f, int fd, bool pipe,
					   size_t buffer)
{
	static const char *const argv[] = { "ptop", "-o", "out.data" };
	struct perfdata_writer_opts o = {
		.path = f->out, .fd = fd, .pipe = pipe, .buffer_bytes = buffer,
		.argv = argv, .argc = 3, .version = "ptop test",
	};
	const struct host_paths hp = {
		.kallsyms = f->kallsyms, .modules = f->modules,
		.kernel_notes = f->notes,
	};
	struct host host;

	/* the kernel's files of the fixture, the rest this machine's */
	ck_assert_int_eq(host__read(&host, &hp), 0);
	o.host = &host;
	f->w = perfdata_writer__new(f->src, &o);
	host__fini(&host);
	ck_assert_ptr_nonnull(f->w);
	return f->w;
}

/* Feeds the synthetic recording's records to the source session and the
 * sink, as the sampler does (session locked). */
static void wfix_feed(struct wfix *f)
{
	size_t n = synth_data(img, false), off = 0;

	session__lock(f->src);
	while (off < n) {
		struct perf_event_header *h = (void *)(img + off);

		if (h->type < PERF_RECORD_USER_TYPE_START)
			session__process(f->src, h);
		perfdata_writer__sink(f->w, h);
		off += h->size;
	}
	session__unlock(f->src);
}

static u8 *slurp(const char *path, size_t *len)
{
	struct stat sb;
	u8 *buf;
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &sb), 0);
	buf = malloc((size_t)sb.st_size + 1);
	ck_assert_int_eq(read(fd, buf, (size_t)sb.st_size), sb.st_size);
	close(fd);
	*len = (size_t)sb.st_size;
	return buf;
}

START_TEST(test_writer_file)
{
	struct perfdata_writer_stats ws;
	const struct perfdata_info *info;
	struct perfdata_stats st;
	struct perfdata *pd;
	struct strbuf err;
	struct result r;
	struct wfix f;
	size_t len;
	u8 *buf;

	wfix_init(&f);
	wfix_writer(&f, -1, false, 0);
	wfix_feed(&f);
	ck_assert_int_eq(perfdata_writer__close(f.w), 0);
	perfdata_writer__stats(f.w, &ws);
	ck_assert_uint_eq(ws.dropped, 0);
	ck_assert_int_eq(ws.error, 0);
	buf = slurp(f.out, &len);
	ck_assert_int_eq(read_image(buf, len, &r, &st), 0);
	/* the same table as the source session */
	ck_assert_uint_eq(r.samples[0], 9);
	ck_assert_uint_eq(r.samples[1], 1);
	ck_assert_uint_eq(r.prog, 6);
	ck_assert_uint_eq(r.libx, 3);
	ck_assert_uint_eq(r.lost, 5);
	ck_assert_uint_eq(st.bad + st.unknown + st.out_of_order, 0);
	strbuf__init(&err);
	pd = perfdata__open_mem(buf, len, &err);
	ck_assert_ptr_nonnull(pd);
	info = perfdata__info(pd);
	ck_assert_uint_eq(info->nr_events, 2);
	ck_assert_str_eq(info->events[1].name, "page-faults");
	ck_assert_uint_eq(info->events[1].nr_ids, 1);
	ck_assert_uint_eq(info->events[1].ids[0], ID_B);
	ck_assert_ptr_nonnull(info->hostname);
	ck_assert_str_eq(info->version, "ptop test");
	ck_assert_str_eq(info->cmdline, "ptop -o out.data");
	ck_assert_uint_eq(info->first_sample_time, 100);
	ck_assert_uint_eq(info->last_sample_time, 300);
	/* perf's kernel map (seen in the data), and the kernel's and the
	 * program's build-ids */
	{
		struct session_opts so = { .key_fields = KEY_ALL };
		struct session *s = session__new(&so);

		ck_assert_int_eq(perfdata__read(pd, s, NULL), 0);
		session__free(s);
	}
	ck_assert_uint_eq(info->kernel_text, 0xffffffff81000000ULL);
	ck_assert_ptr_nonnull(perfdata_info__kernel(info));
	ck_assert(!memcmp(perfdata_info__kernel(info)->bid, bid_kernel, 20));
	{
		bool prog = false;

		for (size_t i = 0; i < info->nr_bids; i++)
			prog |= strcmp(info->bids[i].path, "/bin/prog") == 0 &&
				!memcmp(info->bids[i].bid, bid_prog, 20);
		ck_assert(prog);
	}
	perfdata__close(pd);
	/* as a killed recording leaves it: data size 0, no features */
	{
		u64 zero[5] = { 0 };

		memcpy(buf + 48, zero, 8);
		memcpy(buf + 72, zero, 32);
		ck_assert_int_eq(read_image(buf, len, &r, &st), 0);
		ck_assert_uint_eq(r.samples[0], 9);
	}
	strbuf__fini(&err);
	free(buf);
	wfix_fini(&f);
}
END_TEST

START_TEST(test_writer_new_event_later)
{
	struct perf_event_attr a2 = mkattr(PERF_COUNT_SW_TASK_CLOCK, ST);
	struct perfdata *pd;
	struct strbuf err;
	struct wfix f;
	size_t len;
	u8 *buf;

	for (int pipe = 0; pipe < 2; pipe++) {
		int fd;

		wfix_init(&f);
		fd = open(f.out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		wfix_writer(&f, fd, pipe, 0);
		wfix_feed(&f);
		/* the view adds an event: its records name a new id */
		session__lock(f.src);
		ck_assert_int_eq(session__add_event(f.src, "task-clock", &a2), 2);
		ck_assert_int_eq(session__add_id(f.src, 2, 303), 0);
		{
			size_t n = rec_sample(img, false, 303, 100, 0x401000, 500,
					      PERF_RECORD_MISC_USER);

			session__process(f.src, (void *)img);
			perfdata_writer__sink(f.w, (void *)img);
			n = rec_round(img, false);
			perfdata_writer__sink(f.w, (void *)img);
			(void)n;
		}
		session__unlock(f.src);
		ck_assert_int_eq(perfdata_writer__close(f.w), 0);
		buf = slurp(f.out, &len);
		strbuf__init(&err);
		pd = perfdata__open_mem(buf, len, &err);
		ck_assert_msg(pd, "%s", err.buf ? err.buf : "");
		perfdata__close(pd);
		{
			struct result r;
			struct session_opts so = { .key_fields = KEY_ALL };
			struct session *s = session__new(&so);
			struct snapshot snap;

			pd = perfdata__open_mem(buf, len, &err);
			ck_assert_int_eq(perfdata__read(pd, s, NULL), 0);
			ck_assert_uint_eq(session__nr_events(s), 3);
			ck_assert_str_eq(session__event_name(s, 2), "task-clock");
			snapshot__init(&snap);
			ck_assert_int_eq(session__snapshot(s, 2, &snap), 0);
			ck_assert_uint_eq(snap.counts.samples, 1);
			ck_assert_uint_eq(snap.session.unknown_id, 0);
			snapshot__fini(&snap);
			summarize(s, &r);
			ck_assert_uint_eq(r.samples[0], 9);
			perfdata__close(pd);
			session__free(s);
		}
		strbuf__fini(&err);
		free(buf);
		wfix_fini(&f);
	}
}
END_TEST

static void *drain_pipe(void *arg)
{
	int fd = *(int *)arg;
	char buf[4096];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
	return NULL;
}

START_TEST(test_writer_backlog)
{
	struct perfdata_writer_stats ws;
	struct wfix f;
	pthread_t t;
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	wfix_init(&f);
	/* nobody reads the pipe yet: the writer thread blocks, the sink
	 * must not */
	wfix_writer(&f, p[1], true, 8192);
	for (int i = 0; i < 5000; i++)
		wfix_feed(&f);
	perfdata_writer__stats(f.w, &ws);
	ck_assert_uint_gt(ws.dropped, 0);
	ck_assert_uint_gt(ws.records, 0);
	ck_assert_int_eq(ws.error, 0);
	ck_assert_int_eq(pthread_create(&t, NULL, drain_pipe, &p[0]), 0);
	ck_assert_int_eq(perfdata_writer__close(f.w), 0);
	pthread_join(t, NULL);
	close(p[0]);
	wfix_fini(&f);
}
END_TEST

START_TEST(test_writer_full_disk)
{
	struct perfdata_writer_stats ws;
	struct wfix f;
	int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	wfix_init(&f);
	wfix_writer(&f, fd, false, 0);
	wfix_feed(&f);
	ck_assert_int_eq(perfdata_writer__close(f.w), -ENOSPC);
	perfdata_writer__stats(f.w, &ws);
	ck_assert_int_eq(ws.error, -ENOSPC);
	ck_assert_ptr_nonnull(strstr(all_msgs, "No space left"));
	wfix_fini(&f);
}
END_TEST

/* ---- --time ---- */

START_TEST(test_time)
{
	struct strbuf err;
	u64 a, b;
	bool rel;

	strbuf__init(&err);
	ck_assert_int_eq(perfdata__parse_time("1887.5,1888", 0, 0, &a, &b, &rel, &err), 0);
	ck_assert_uint_eq(a, 1887500000000ULL);
	ck_assert_uint_eq(b, 1888000000001ULL);
	ck_assert_int_eq(perfdata__parse_time("1.000000001,", 0, 0, &a, &b, &rel, &err), 0);
	ck_assert_uint_eq(a, 1000000001ULL);
	ck_assert_uint_eq(b, UINT64_MAX);
	ck_assert_int_eq(perfdata__parse_time(",2", 0, 0, &a, &b, &rel, &err), 0);
	ck_assert_uint_eq(a, 0);
	ck_assert_uint_eq(b, 2000000001ULL);
	ck_assert_int_eq(perfdata__parse_time("10%-20%", 1000, 2000, &a, &b, &rel, &err), 0);
	ck_assert_uint_eq(a, 1100);
	ck_assert_uint_eq(b, 1201);
	ck_assert_int_eq(perfdata__parse_time("25%/2", 1000, 2000, &a, &b, &rel, &err), 0);
	ck_assert_uint_eq(a, 1250);
	ck_assert_uint_eq(b, 1501);
	ck_assert_int_eq(perfdata__parse_time("10%-20%", 0, 0, &a, &b, &rel, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.buf, "sample time range"));
	ck_assert_int_eq(perfdata__parse_time(",", 0, 0, &a, &b, &rel, &err), -EINVAL);
	ck_assert_int_eq(perfdata__parse_time("2,1", 0, 0, &a, &b, &rel, &err), -EINVAL);
	ck_assert_int_eq(perfdata__parse_time("1.1234567891,2", 0, 0, &a, &b, &rel, &err), -EINVAL);
	ck_assert_int_eq(perfdata__parse_time("abc,2", 0, 0, &a, &b, &rel, &err), -EINVAL);
	ck_assert_int_eq(perfdata__parse_time("99999999999999999999,", 0, 0, &a, &b, &rel, &err), -EINVAL);
	ck_assert_int_eq(perfdata__parse_time("30%-10%", 1, 2, &a, &b, &rel, &err), -EINVAL);
	ck_assert_int_eq(perfdata__parse_time("10%/0", 1, 2, &a, &b, &rel, &err), -EINVAL);
	ck_assert(!rel);
	/* seconds from the first sample */
	ck_assert_int_eq(perfdata__parse_time("+2,+3.5", 0, 0, &a, &b, &rel, &err), 0);
	ck_assert(rel);
	ck_assert_uint_eq(a, 2000000000ULL);
	ck_assert_uint_eq(b, 3500000001ULL);
	ck_assert_int_eq(perfdata__parse_time("+0.5,", 0, 0, &a, &b, &rel, &err), 0);
	ck_assert(rel);
	ck_assert_uint_eq(a, 500000000ULL);
	ck_assert_uint_eq(b, UINT64_MAX);
	ck_assert_int_eq(perfdata__parse_time(",+1", 0, 0, &a, &b, &rel, &err), 0);
	ck_assert(rel);
	ck_assert_uint_eq(a, 0);
	ck_assert_int_eq(perfdata__parse_time("+1,2", 0, 0, &a, &b, &rel, &err), -EINVAL);
	ck_assert_int_eq(perfdata__parse_time("1,+2", 0, 0, &a, &b, &rel, &err), -EINVAL);
	ck_assert_int_eq(perfdata__parse_time("+,+2", 0, 0, &a, &b, &rel, &err), -EINVAL);
	ck_assert_int_eq(perfdata__parse_time("+3,+2", 0, 0, &a, &b, &rel, &err), -EINVAL);
	ck_assert_int_eq(perfdata__parse_time("++1,+2", 0, 0, &a, &b, &rel, &err), -EINVAL);
	strbuf__fini(&err);
}
END_TEST

Suite *perfdata_suite(void)
{
	Suite *s = suite_create("perfdata");
	TCase *tc = tcase_create("format");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_header_file);
	tcase_add_test(tc, test_header_errors);
	tcase_add_test(tc, test_header_pipe);
	tcase_add_test(tc, test_feature_strings);
	tcase_add_test(tc, test_feature_numbers);
	tcase_add_test(tc, test_feature_cmdline);
	tcase_add_test(tc, test_feature_build_ids);
	tcase_add_test(tc, test_feature_event_desc);
	tcase_add_test(tc, test_swap_attr);
	tcase_add_test(tc, test_swap_sample_each_bit);
	tcase_add_test(tc, test_swap_sample_counts);
	tcase_add_test(tc, test_swap_kernel_records);
	tcase_add_test(tc, test_swap_user_records);
	tcase_add_test(tc, test_file_native);
	tcase_add_test(tc, test_file_swapped);
	tcase_add_test(tc, test_file_without_features);
	tcase_add_test(tc, test_leaked_build_id);
	tcase_add_test(tc, test_swap_leaked_mmap2);
	tcase_add_test(tc, test_file_every_prefix);
	tcase_add_test(tc, test_real_files_every_prefix);
	tcase_add_test(tc, test_file_damage);
	tcase_add_test(tc, test_stream_odd_size);
	tcase_add_test(tc, test_file_bad_features);
	tcase_add_test(tc, test_garbage);
	tcase_add_test(tc, test_pipe_any_split);
	tcase_add_test(tc, test_pipe_every_prefix);
	tcase_add_test(tc, test_stopped_inside_a_record);
	tcase_add_test(tc, test_pipe_bad);
	tcase_add_test(tc, test_damage_last_byte);
	tcase_add_test(tc, test_damage_unused_feature);
	tcase_add_test(tc, test_damage_header_size);
	tcase_add_test(tc, test_damage_stream_cut_at_record);
	tcase_add_test(tc, test_damage_no_ip);
	tcase_add_test(tc, test_real_pipes);
	tcase_add_test(tc, test_order_rounds);
	tcase_add_test(tc, test_order_bounded);
	tcase_add_test(tc, test_order_many_rounds);
	tcase_add_test(tc, test_order_lent);
	tcase_add_test(tc, test_lent_bounded);
	tcase_add_test(tc, test_time);
	tcase_add_test(tc, test_pipe_compressed);
	tcase_add_test(tc, test_pipe_compressed_bad);
	tcase_add_test(tc, test_writer_file);
	tcase_add_test(tc, test_writer_new_event_later);
	tcase_add_test(tc, test_writer_backlog);
	tcase_add_test(tc, test_writer_full_disk);
	suite_add_tcase(s, tc);
	return s;
}
