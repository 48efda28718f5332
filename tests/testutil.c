/* testutil: helpers for the Check suites (fixtures, fake records, a
 * fake inline lookup). */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "src/core/log.h"
#include "symbols/symtab.h"
#include "symbols/ehframe.h"
#include "tests/testutil.h"

void test__skip(const char *file, const char *func, const char *fmt, ...)
{
	const char *path = getenv("PTOP_SKIPS"), *base = strrchr(file, '/');
	char line[1024];
	size_t flen;
	va_list ap;
	int n, fd;

	base = base ? base + 1 : file;
	if (strncmp(base, "check_", 6) == 0)
		base += 6;
	/* START_TEST(name) defines name_fn */
	flen = strlen(func);
	if (flen > 3 && strcmp(func + flen - 3, "_fn") == 0)
		flen -= 3;
	n = snprintf(line, sizeof(line), "%.*s/%.*s: ",
		     (int)(strcspn(base, ".")), base, (int)flen, func);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	line[strcspn(line, "\n")] = '\0';
	strcat(line, "\n");
	fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)
		  : -1;
	/* one write: O_APPEND keeps the forked tests' lines whole */
	if (fd < 0 || write(fd, line, strlen(line)) < 0)
		fprintf(stderr, "SKIP %s", line);
	if (fd >= 0)
		close(fd);
}

const char *test_fixture(const char *name)
{
	static char path[4096];
	const char *dir = getenv("PTOP_FIXTURES");

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "build/fixtures",
		 name);
	return path;
}

static u64 *put64(u64 *p, u64 v)
{
	*p++ = v;
	return p;
}

static u64 *put32x2(u64 *p, u32 a, u32 b)
{
	u32 w[2] = { a, b };

	memcpy(p, w, 8);
	return p + 1;
}

struct perf_event_header *fake_sample(void *buf, u64 st,
				      const struct fake_sample *fs)
{
	struct perf_event_header *h = buf;
	u64 *p = (u64 *)(h + 1);

	if (st & PERF_SAMPLE_IDENTIFIER)
		p = put64(p, fs->id);
	if (st & PERF_SAMPLE_IP)
		p = put64(p, fs->ip);
	if (st & PERF_SAMPLE_TID)
		p = put32x2(p, fs->pid, fs->tid);
	if (st & PERF_SAMPLE_TIME)
		p = put64(p, fs->time);
	if (st & PERF_SAMPLE_ID)
		p = put64(p, fs->id);
	if (st & PERF_SAMPLE_CPU)
		p = put32x2(p, fs->cpu, 0);
	if (st & PERF_SAMPLE_PERIOD)
		p = put64(p, fs->period);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		p = put64(p, fs->nr_callchain);
		for (u64 i = 0; i < fs->nr_callchain; i++)
			p = put64(p, fs->callchain[i]);
	}
	if (st & PERF_SAMPLE_RAW) {
		/* the u32 size counts the padding that realigns to 8 */
		u32 n = (u32)ALIGN_UP(4 + (size_t)fs->raw_size, 8) - 4;
		char *c = (char *)p;

		memcpy(c, &n, 4);
		memset(c + 4, 0, n);
		if (fs->raw_size)
			memcpy(c + 4, fs->raw, fs->raw_size);
		p = (u64 *)(c + 4 + n);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		p = put64(p, fs->regs_abi);
		for (u32 i = 0; fs->regs_abi && i < fs->nr_regs; i++)
			p = put64(p, fs->regs[i]);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		/* the size asked, the bytes (zeros past what was copied),
		 * what was copied */
		p = put64(p, fs->stack_size);
		memset(p, 0, fs->stack_size);
		if (fs->stack_dyn)
			memcpy(p, fs->stack, fs->stack_dyn);
		p += fs->stack_size / 8;
		if (fs->stack_size)
			p = put64(p, fs->stack_dyn);
	}
	h->type = PERF_RECORD_SAMPLE;
	h->misc = fs->misc ? fs->misc : PERF_RECORD_MISC_USER;
	h->size = (u16)((char *)p - (char *)h);
	return h;
}

/* Appends a NUL-terminated string padded to 8 bytes, then a zeroed
 * trailer. */
static u16 finish(struct perf_event_header *h, char *p, const char *s,
		  size_t trailer)
{
	size_t n = strlen(s) + 1, pad = ALIGN_UP(n, 8);

	memset(p, 0, pad + trailer);
	memcpy(p, s, n);
	return (u16)(p + pad + trailer - (char *)h);
}

struct perf_event_header *fake_mmap2(void *buf, u32 pid, u64 start, u64 len,
				     u64 pgoff, const char *path,
				     const u8 *build_id, u8 bid_size,
				     size_t trailer)
{
	struct perf_event_header *h = buf;
	char *b = (char *)(h + 1);
	u32 prot = 5, flags = 2;

	memset(b, 0, 64);
	memcpy(b, &pid, 4);
	memcpy(b + 4, &pid, 4);
	memcpy(b + 8, &start, 8);
	memcpy(b + 16, &len, 8);
	memcpy(b + 24, &pgoff, 8);
	h->misc = PERF_RECORD_MISC_USER;
	if (build_id) {
		b[32] = (char)bid_size;
		memcpy(b + 36, build_id, bid_size > 20 ? 20 : bid_size);
		h->misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	} else {
		u32 maj = 8, min = 1;
		u64 ino = 1234;

		memcpy(b + 32, &maj, 4);
		memcpy(b + 36, &min, 4);
		memcpy(b + 40, &ino, 8);
	}
	memcpy(b + 56, &prot, 4);
	memcpy(b + 60, &flags, 4);
	h->type = PERF_RECORD_MMAP2;
	h->size = finish(h, b + 64, path, trailer);
	return h;
}

struct perf_event_header *fake_comm(void *buf, u32 pid, u32 tid,
				    const char *comm, bool exec,
				    size_t trailer)
{
	struct perf_event_header *h = buf;
	char *b = (char *)(h + 1);

	memcpy(b, &pid, 4);
	memcpy(b + 4, &tid, 4);
	h->type = PERF_RECORD_COMM;
	h->misc = exec ? PERF_RECORD_MISC_COMM_EXEC : 0;
	h->size = finish(h, b + 8, comm, trailer);
	return h;
}

struct perf_event_header *fake_fork(void *buf, u32 type, u32 pid, u32 ppid,
				    u32 tid, u32 ptid, size_t trailer)
{
	struct perf_event_header *h = buf;
	char *b = (char *)(h + 1);
	u64 time = 0;

	memcpy(b, &pid, 4);
	memcpy(b + 4, &ppid, 4);
	memcpy(b + 8, &tid, 4);
	memcpy(b + 12, &ptid, 4);
	memcpy(b + 16, &time, 8);
	memset(b + 24, 0, trailer);
	h->type = (u16)type;
	h->misc = 0;
	h->size = (u16)(sizeof(*h) + 24 + trailer);
	return h;
}

size_t fake_inlines(void *ctx, const struct dso *d, u64 addr,
		    const char **names, size_t max)
{
	static const char *const helper = "helper", *const leaf = "leaf_inl",
			  *const mid = "mid_inl";
	int *calls = ctx;

	(void)d;
	if (calls)
		(*calls)++;
	if (addr >= 0x1100 && addr < 0x1200 && max >= 1) {
		names[0] = helper;
		return 1;
	}
	if (addr == 0x1240 && max >= 2) {
		names[0] = leaf;	/* innermost first */
		names[1] = mid;
		return 2;
	}
	return 0;
}

int test_warnings;
char test_last_warning[1024];

static void count_warnings(enum log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level <= LOG_WARN) {
		test_warnings++;
		snprintf(test_last_warning, sizeof(test_last_warning), "%s",
			 msg);
	}
}

void test_same_hit(const struct symtab_hit *a, const struct symtab_hit *b)
{
	ck_assert_uint_eq(a->start, b->start);
	ck_assert_uint_eq(a->size, b->size);
	ck_assert_uint_eq(a->flags, b->flags);
	ck_assert_uint_eq(a->group, b->group);
	ck_assert_str_eq(a->name, b->name);
	if (a->raw_name && b->raw_name)
		ck_assert_str_eq(a->raw_name, b->raw_name);
}

void test_log_capture(void)
{
	test_warnings = 0;
	test_last_warning[0] = '\0';
	log__set_handler(count_warnings, NULL);
}

/* ---- .eh_frame images ---- */

void cfi__put(struct cfi_sec *s, const void *p, size_t n)
{
	ck_assert_uint_le(s->len + n, sizeof(s->buf));
	memcpy(s->buf + s->len, p, n);
	s->len += n;
}

void cfi__put32(struct cfi_sec *s, u32 v)
{
	cfi__put(s, &v, 4);
}

void cfi__put8(struct cfi_sec *s, u8 v)
{
	cfi__put(s, &v, 1);
}

void cfi__pad(struct cfi_sec *s, size_t start, size_t align)
{
	while ((s->len - start) % align)
		cfi__put8(s, 0);
}

static void cfi__patch_len(struct cfi_sec *s, size_t at)
{
	u32 len = (u32)(s->len - at - 4);

	memcpy(s->buf + at, &len, 4);
}

size_t cfi__cie(struct cfi_sec *s, const char *aug)
{
	size_t at = s->len;

	cfi__put32(s, 0);
	cfi__put32(s, 0);	/* CIE id */
	cfi__put8(s, 1);
	cfi__put(s, aug, strlen(aug) + 1);
	cfi__put8(s, 1);	/* code alignment */
	cfi__put8(s, 0x78);	/* data alignment -8 */
	cfi__put8(s, 16);	/* return address column */
	cfi__put8(s, 1);	/* augmentation data: the 'R' byte */
	cfi__put8(s, 0x1b);	/* pcrel sdata4 */
	cfi__put8(s, 0x0c);	/* def_cfa r7 8 */
	cfi__put8(s, 7);
	cfi__put8(s, 8);
	cfi__put8(s, 0x90);	/* offset r16 at cfa - 8 */
	cfi__put8(s, 1);
	cfi__pad(s, at, 8);
	cfi__patch_len(s, at);
	return at;
}

size_t cfi__fde(struct cfi_sec *s, size_t cie, u64 start, u64 range,
		const u8 *insn, size_t n)
{
	size_t at = s->len;

	cfi__put32(s, 0);
	cfi__put32(s, (u32)(s->len - cie));
	cfi__put32(s, (u32)(start - (CFI_VADDR + s->len)));
	cfi__put32(s, (u32)range);
	cfi__put8(s, 0);	/* augmentation data length */
	if (n)
		cfi__put(s, insn, n);
	cfi__pad(s, at, 8);
	cfi__patch_len(s, at);
	return at;
}

struct ehframe_src cfi__src(const struct cfi_sec *s)
{
	struct ehframe_src src = {
		.data = s->buf, .size = s->len, .vaddr = CFI_VADDR,
		.addr_size = 8,
	};

	return src;
}

pid_t test_dead_pid(void)
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return pid;
}
