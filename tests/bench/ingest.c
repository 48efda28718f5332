/* ingest: ns per sample through ring reading + decode + map lookup +
 * aggregation, on synthetic records (no kernel).  Prints one line.
 * usage: ingest [SAMPLES [REFRESH [notake]]]: with REFRESH, every
 * REFRESH samples a refresh as the live view's under the lock (the
 * snapshot, and the timeline's take in the same pass unless notake),
 * timed apart from the samples: the samples' figure stays the hot
 * path's, the refresh's shows what the take adds to the snapshot. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/core/record.h"
#include "src/core/ring.h"
#include "src/core/session.h"
#include "src/core/timeline.h"

#define PAGE 4096
#define RING (1u << 20)		/* 1 MiB data area */
#define NPROC 64
#define NMAPS 40
#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
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

int main(int argc, char **argv)
{
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
	const size_t rec = 8 + 5 * 8;
	u64 head = 0, t = 1;
	double t0, elapsed = 0;
	long done = 0;

	if (!mem || !ring || !s)
		return 1;
	snapshot__init(&snap);
	memset(mem, 0, PAGE);
	memset(&attr, 0, sizeof(attr));
	attr.sample_type = ST;
	attr.sample_id_all = 1;
	session__add_event(s, "cpu-clock", &attr);
	for (u32 p = 1; p <= NPROC; p++)
		put_comm_mmaps(s, p * 10, record__id_trailer_size(ST, true));
	if (ring__init(ring, mem, PAGE + RING, PAGE))
		return 1;

	/* Fill the ring with samples, read it all through the session,
	 * repeat: the cost of writing the ring is not counted. */
	while (done < n) {
		size_t per = (RING / rec) - 1;

		for (size_t i = 0; i < per; i++) {
			u64 w[6];
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

			h->type = PERF_RECORD_SAMPLE;
			h->misc = kernel ? PERF_RECORD_MISC_KERNEL :
					   PERF_RECORD_MISC_USER;
			h->size = (u16)rec;
			w[1] = ip;
			memcpy(&w[2], pt, 8);
			w[3] = t++;
			memcpy(&w[4], cpu, 8);
			w[5] = 250000;
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
		printf("ingest: %.1f ns/sample (%ld samples, ring read + decode "
		       "+ map lookup + aggregation); refresh: %.1f ns/sample "
		       "(%ld refreshes, %s, %zu entries at the end%s",
		       elapsed * 1e9 / (double)done, done,
		       t_refresh * 1e9 / (double)done, refreshes,
		       tl ? "snapshot and timeline take" : "snapshot alone",
		       snap.nr, tl ? "" : ")\n");
	if (tl)
		printf("; timeline %zu cells, %.1f MB)\n",
		       timeline__nr_cells(tl),
		       (double)timeline__bytes(tl) / 1e6);
	if (take_every <= 0)
		printf("ingest: %.1f ns/sample (%ld samples, ring read + decode "
		       "+ map lookup + aggregation)\n",
		       elapsed * 1e9 / (double)done, done);
	snapshot__fini(&snap);
	timeline__free(tl);
	session__free(s);
	free(ring);
	free(mem);
	return 0;
}
