/* ingest: ns per sample through ring reading + decode + map lookup +
 * aggregation, on synthetic records (no kernel).  Prints one line.
 * usage: ingest [-g|-r] [SAMPLES [REFRESH [notake]]]
 *   -g: frame-pointer call chains (8 frames; a hot leaf reached by 4
 *       paths of 256; a cold one through two callers anywhere in its
 *       binary, then one of the hot paths), interned per sample as live
 *       -g does
 *   -r: the same with -g's leaf recovery: each sample carries ip, sp
 *       and bp and a 256-byte copy of its stack (ptop's default), and a
 *       fixer runs the recovery (fpfix) over rows the bench makes (half
 *       the hot leaves have no frame: their caller is put back), each
 *       row behind a map lookup as the live one's
 *   REFRESH: every REFRESH samples a refresh as the live view's under
 *       the lock (the snapshot, and the timeline's take in the same pass
 *       unless notake), timed apart from the samples: the samples'
 *       figure stays the hot path's, the refresh's shows what the take
 *       adds to the snapshot. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/core/record.h"
#include "src/core/ring.h"
#include "src/core/session.h"
#include "src/core/timeline.h"
#include "symbols/fpfix.h"

#define PAGE 4096
#define RING (1u << 20)		/* 1 MiB data area */
#define NPROC 64
#define NMAPS 40
#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
#define DEPTH 8			/* -g: frames a chain, the leaf's included */
#define COPY 256		/* -r: the stack copy (FP_COPY_DEFAULT) */
#define SP0 0x7ffd00000000ULL

static double now(void)
{
	struct timespec ts;

	/* the thread's CPU time: a shared machine's other work, which
	 * takes the CPU from it, is not counted (its caches' misses are) */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static u64 rnd_state = 88172645463325252ULL;

static u64 rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static void put_comm_mmaps(struct session *s, u32 pid, size_t trailer)
{
	u64 buf[64];
	struct perf_event_header *h = (void *)buf;
	char *b = (char *)(h + 1);

	memset(buf, 0, sizeof(buf));
	memcpy(b, &pid, 4);
	memcpy(b + 4, &pid, 4);
	snprintf(b + 8, 16, "proc%u", pid);
	h->type = PERF_RECORD_COMM;
	h->size = (u16)(8 + 8 + 16 + trailer);
	session__process(s, h);
	for (u32 m = 0; m < NMAPS; m++) {
		u64 start = 0x400000ULL + (u64)m * 0x100000, len = 0x80000;
		u64 pgoff = 0;
		u8 bid[20] = { (u8)m, (u8)(m >> 8), 0xbe };

		memset(buf, 0, sizeof(buf));
		memcpy(b, &pid, 4);
		memcpy(b + 4, &pid, 4);
		memcpy(b + 8, &start, 8);
		memcpy(b + 16, &len, 8);
		memcpy(b + 24, &pgoff, 8);
		b[32] = 20;
		memcpy(b + 36, bid, 20);
		snprintf(b + 64, 32, "/usr/lib/lib%u.so", m);
		h->type = PERF_RECORD_MMAP2;
		h->misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID;
		h->size = (u16)(8 + 64 + 32 + trailer);
		session__process(s, h);
	}
}

/* -r's rows: in a mapped binary, code at offsets under 0x400 of a map
 * is a leaf without a frame (the CFA is rsp + 8, rbp its caller's), the
 * rest has its frame (the CFA is rbp + 16, rbp saved under it). */
struct fixer {
	struct machine *m;
	s32 pid;
};

static int bench_row(void *ctx, u64 pc, bool ret, struct ehframe_row *r)
{
	struct fixer *f = ctx;
	u64 look = ret ? pc - 1 : pc;
	const struct map *map = machine__find_map(f->m, f->pid, look);

	if (!map)
		return -ENOENT;
	memset(r, 0, sizeof(*r));
	r->ra.how = EH_AT;
	r->ra.off = -8;
	r->cfa.how = EH_REG;
	if (look - map->start + map->pgoff < 0x400) {
		r->cfa.reg = EHFRAME_REG_SP;
		r->cfa.off = 8;
		r->bp.how = EH_SAME;
	} else {
		r->cfa.reg = EHFRAME_REG_BP;
		r->cfa.off = 16;
		r->bp.how = EH_AT;
		r->bp.off = -16;
	}
	r->start = look;
	r->end = look + 1;
	return 0;
}

static int bench_fix(void *ctx, struct machine *m, const struct fix_req *req,
		     u64 *out, size_t max, size_t *nr)
{
	struct fixer *f = ctx;
	struct fpfix_regs regs;

	*nr = 0;
	if (fpfix__regs(req->abi, req->regs_mask, req->regs, req->nr_regs,
			&regs))
		return FP_FIX_BAD;
	f->m = m;
	f->pid = req->pid;
	return fpfix__recover(&regs, req->user, req->nr_user, req->stack,
			      req->stack_size, bench_row, f, out, max, nr);
}

/* A caller in map m of the hot binaries (offsets from 0x10000: framed
 * code), for path p and depth d. */
static u64 hot_caller(u64 m, u64 p, u64 d)
{
	return 0x400000ULL + m * 0x100000 + 0x10000 +
	       ((p * 37 + d * 101) % 2048) * 16 + 5;
}

int main(int argc, char **argv)
{
	bool chains = false, fix = false;
	struct fixer fixer = { 0 };

	while (argc > 1 && argv[1][0] == '-') {
		chains |= !strcmp(argv[1], "-g") || !strcmp(argv[1], "-r");
		fix |= !strcmp(argv[1], "-r");
		argv++;
		argc--;
	}
	long n = argc > 1 ? atol(argv[1]) : 5000000;
	long take_every = argc > 2 ? atol(argv[2]) : 0, since = 0;
	bool notake = argc > 3 && strcmp(argv[3], "notake") == 0;
	struct timeline *tl = take_every > 0 && !notake ?
				      timeline__new(NULL) : NULL;
	double t_refresh = 0, t1;
	long refreshes = 0;
	struct snapshot snap;
	struct session_opts so = { .key_fields = 0 };
	struct perf_event_attr attr;
	unsigned char *mem = aligned_alloc(PAGE, PAGE + RING);
	struct perf_event_mmap_page *pg = (void *)mem;
	struct ring *ring = malloc(sizeof(*ring));
	struct session *s = session__new(&so);
	u64 st = ST | (chains ? PERF_SAMPLE_CALLCHAIN : 0) |
		 (fix ? PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER : 0);
	u64 head = 0, t = 1;
	size_t rec_max = 8 + 5 * 8 + 8 * (1 + DEPTH + 2) + 8 * 4 + 16 + COPY;
	double t0, elapsed = 0;
	long done = 0;

	if (!mem || !ring || !s)
		return 1;
	snapshot__init(&snap);
	memset(mem, 0, PAGE);
	memset(&attr, 0, sizeof(attr));
	attr.sample_type = st;
	attr.sample_id_all = 1;
	if (fix) {
		attr.sample_regs_user = RECORD_FP_REGS;
		attr.sample_stack_user = COPY;
		session__set_fixer(s, bench_fix, &fixer);
	}
	session__add_event(s, "cpu-clock", &attr);
	for (u32 p = 1; p <= NPROC; p++)
		put_comm_mmaps(s, p * 10, record__id_trailer_size(st, true));
	if (ring__init(ring, mem, PAGE + RING, PAGE))
		return 1;

	/* Fill the ring with samples, read it all through the session,
	 * repeat: the cost of writing the ring is not counted. */
	while (done < n) {
		/* the ring filled up to its last whole record */
		u64 start = head;

		while (head + rec_max < start + RING) {
			u64 w[64];
			size_t nw = 6;
			struct perf_event_header *h = (void *)w;
			u32 pid = (u32)(rnd() % NPROC + 1) * 10;
			u32 pt[2] = { pid, pid }, cpu[2] = { (u32)(rnd() & 1), 0 };
			bool kernel = rnd() % 10 == 0;
			/* a skewed profile like real ones: 90 % of the
			 * samples on ~2000 hot instructions in 4 dsos, the
			 * rest spread over ~1 MiB of code in 40 */
			bool hot = rnd() % 10 != 0;
			u64 m = hot ? rnd() % 4 : rnd() % NMAPS;
			u64 off = hot ? (rnd() % 512) * 4 : rnd() % 0x8000;
			u64 ip = kernel ? 0xffffffff81000000ULL + off :
					  0x400000ULL + m * 0x100000 + off;

			/* a hot leaf is reached by one of 4 paths of its
			 * own (8,192 hot chains) */
			u64 path = (off / 4 + rnd() % 4) % 256;
			u64 sp = SP0 + (rnd() % 64) * 64;
			size_t rec;

			h->type = PERF_RECORD_SAMPLE;
			h->misc = kernel ? PERF_RECORD_MISC_KERNEL :
					   PERF_RECORD_MISC_USER;
			w[1] = ip;
			memcpy(&w[2], pt, 8);
			w[3] = t++;
			memcpy(&w[4], cpu, 8);
			w[5] = 250000;
			if (chains) {
				/* the kernel's part (three kernel frames)
				 * or the user's: the leaf, then return
				 * addresses (hot: one of 256 paths in the
				 * leaf's binary; cold: anywhere) */
				u64 *cc = &w[nw + 1], k = 0;

				cc[k++] = kernel ? (u64)PERF_CONTEXT_KERNEL :
						   (u64)PERF_CONTEXT_USER;
				cc[k++] = ip;
				for (u64 d = 1; d < (kernel ? 4 : DEPTH); d++)
					cc[k++] = kernel ?
						ip + 0x1000 * d + 5 :
					hot || d > 2 ?
						hot_caller(hot ? m : m % 4,
							   path, d) :
						0x400000ULL + m * 0x100000 +
						0x10000 + rnd() % 0x60000;
				w[nw] = k;
				nw += 1 + k;
			}
			if (fix) {
				/* abi, then bp, sp, ip (the mask's bit
				 * order); the copy: the return address
				 * into the leaf's caller at sp */
				u8 *copy = (u8 *)&w[nw + 5];
				u64 ra = hot_caller(m, path, 0);

				w[nw++] = kernel ? 0 : PERF_SAMPLE_REGS_ABI_64;
				if (!kernel) {
					w[nw++] = sp + 0x40;
					w[nw++] = sp;
					w[nw++] = ip;
				}
				w[nw++] = kernel ? 0 : COPY;
				if (!kernel) {
					memset(copy, 0, COPY);
					memcpy(copy, &ra, 8);
					nw += COPY / 8;
					w[nw++] = COPY;
				}
			}
			rec = nw * 8;
			h->size = (u16)rec;
			for (size_t b = 0; b < rec; b++)
				mem[PAGE + ((head + b) & (RING - 1))] =
					((unsigned char *)w)[b];
			head += rec;
		}
		pg->data_head = head;
		t0 = now();
		ring__read_init(ring);
		session__lock(s);
		for (const struct perf_event_header *h; (h = ring__next(ring));) {
			session__process(s, h);
			done++;
			if (take_every > 0 && ++since >= take_every) {
				/* the refresh, apart from the samples */
				hist_take_fn fn = NULL;
				void *ctx = NULL;
				int terr;

				t1 = now();
				elapsed += t1 - t0;
				if (tl) {
					timeline__take_begin(tl, s,
						timeline__now_fine(tl));
					timeline__take_ev(tl, s, 0, &fn, &ctx);
				}
				session__snapshot_take(s, 0, &snap, fn, ctx,
						       &terr);
				if (tl) {
					timeline__take_ev_end(tl, 0);
					timeline__take_end(tl, s);
				}
				t0 = now();
				t_refresh += t0 - t1;
				refreshes++;
				since = 0;
			}
		}
		session__unlock(s);
		ring__consume(ring);
		elapsed += now() - t0;
	}
	if (take_every > 0)
		printf("ingest%s: %.1f ns/sample (%ld samples, ring read + decode "
		       "+ map lookup + aggregation); refresh: %.1f ns/sample "
		       "(%ld refreshes, %s, %zu entries at the end%s",
		       fix ? " -r" : chains ? " -g" : "",
		       elapsed * 1e9 / (double)done, done,
		       t_refresh * 1e9 / (double)done, refreshes,
		       tl ? "snapshot and timeline take" : "snapshot alone",
		       snap.nr, tl ? "" : ")\n");
	if (tl)
		printf("; timeline %zu cells, %.1f MB)\n",
		       timeline__nr_cells(tl),
		       (double)timeline__bytes(tl) / 1e6);
	if (take_every <= 0)
		printf("ingest%s: %.1f ns/sample (%ld samples, ring read + decode "
		       "+ map lookup + aggregation)\n",
		       fix ? " -r" : chains ? " -g" : "",
		       elapsed * 1e9 / (double)done, done);
	if (fix) {
		const struct session_counts *c = session__counts(s);
		u64 all = 0;

		for (int i = 0; i < FP_FIX_NR; i++)
			all += c->fp_fix[i];
		printf("  recovery: %" PRIu64 " of %" PRIu64 " user samples tied "
		       "to a frame\n", c->fp_fix[FP_FIX_TIED], all);
	}
	snapshot__fini(&snap);
	timeline__free(tl);
	session__free(s);
	free(ring);
	free(mem);
	return 0;
}
