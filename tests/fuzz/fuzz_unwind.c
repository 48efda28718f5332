/* fuzz_unwind: any bytes as a mapped binary whose CFI (.eh_frame,
 * .debug_frame) libdw interprets to unwind stacks built from the input:
 * return addresses into the binary, pointers into the stack, garbage. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <asm/perf_regs.h>

#include "src/core/record.h"
#include "src/core/session.h"
#include "symbols/unwind.h"
#include "src/core/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);

/* libelf (0.188) leaks the string table it reads for elf_strptr when
 * some malformed section headers make elf_end skip it (reproduced with
 * elf_begin, dwarf_getcfi_elf, elf_end alone; the input is kept in the
 * corpus as leak-libelf-strptr).  A few hundred bytes per broken file. */
const char *__lsan_default_suppressions(void)
{
	return "leak:libelf.so\n";
}

#define BASE 0x400000ULL
#define SP 0x7ffd0000ULL
#define STACK 2048
#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

static u64 rnd_state;

static u64 rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* An MMAP2 record of path at BASE for pid. */
static const struct perf_event_header *mmap2(u64 *buf, u32 pid, u64 len,
					     const char *path)
{
	struct perf_event_header *h = (struct perf_event_header *)buf;
	u8 *p = (u8 *)(h + 1);
	u32 ids[2] = { pid, pid };
	u64 v[3] = { BASE, len, 0 };
	size_t n = strlen(path) + 1;

	memset(buf, 0, 512);
	memcpy(p, ids, 8);
	memcpy(p + 8, v, 24);
	/* maj, min, ino, ino_generation, prot, flags: zero but prot exec */
	((u32 *)(p + 32 + 24))[0] = 4;
	memcpy(p + 32 + 32, path, n);
	h->type = PERF_RECORD_MMAP2;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = (u16)(sizeof(*h) + 64 + ALIGN_UP(n, 8) +
			record__id_trailer_size(ST, true));
	return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static u64 buf[512];
	struct session_opts so = { 0 };
	struct unwind_opts uo = { .sync = true, .max_stack = 64 };
	struct perf_event_attr a;
	struct session *s;
	struct unwinder *u;
	char path[64];
	u64 stack[STACK / 8], regs[PERF_REG_X86_64_MAX], pcs[64], len;

	if (fd < 0)
		fd = memfd_create("fuzz_unwind", 0);
	if (fd < 0 || ftruncate(fd, 0) ||
	    pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	len = ALIGN_UP((u64)size + 1, 4096ULL);
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)getpid(), fd);
	memset(&a, 0, sizeof(a));
	a.sample_type = ST;
	a.sample_id_all = 1;
	s = session__new(&so);
	if (!s)
		return 0;
	session__add_event(s, "cpu-clock", &a);
	session__process(s, mmap2(buf, (u32)getpid(), len, path));
	u = unwind__new(s, &uo);
	if (!u)
		goto out;
	rnd_state = hash_bytes(data, size) | 1;
	session__lock(s);
	for (int t = 0; t < 16; t++) {
		struct unwind_req r;

		for (size_t k = 0; k < ARRAY_SIZE(stack); k++) {
			switch (rnd() % 3) {
			case 0:	/* a return address into the binary */
				stack[k] = BASE + rnd() % len;
				break;
			case 1:	/* a pointer into the stack */
				stack[k] = SP + (rnd() % ARRAY_SIZE(stack)) * 8;
				break;
			default:
				stack[k] = rnd();
				break;
			}
		}
		for (size_t k = 0; k < ARRAY_SIZE(regs); k++)
			regs[k] = stack[rnd() % ARRAY_SIZE(stack)];
		regs[PERF_REG_X86_IP] = BASE + rnd() % len;
		regs[PERF_REG_X86_SP] = SP + (rnd() % 8) * 8;
		memset(&r, 0, sizeof(r));
		r.pid = r.tid = (u32)getpid();
		r.cpumode = PERF_RECORD_MISC_USER;
		r.abi = PERF_SAMPLE_REGS_ABI_64;
		r.regs_mask = (1ULL << PERF_REG_X86_64_MAX) - 1;
		r.nr_regs = PERF_REG_X86_64_MAX;
		r.regs = regs;
		r.stack = stack;
		r.stack_size = sizeof(stack);
		unwind__one(u, &r, pcs, ARRAY_SIZE(pcs));
	}
	session__unlock(s);
	unwind__free(u);
out:
	session__free(s);
	return 0;
}
