/* jitwork: a tiny JIT.  Copies a counting loop into anonymous executable
 * memory, names it jit_spin in /tmp/perf-PID.map (the perf map convention
 * JITs follow), then spends half of the time there and half in
 * native_spin.  The map is left behind, as JITs leave theirs, so that a
 * recording can be read after the process is gone; its path is printed
 * on stdout for the caller to remove.  Both halves are fixed work (wl.h).
 * usage: jitwork [SECONDS] */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wl.h"

volatile unsigned long jit_sink;

/*
 * The JIT's code is native_spin's own: main copies the bytes of the
 * section jit_tpl, which holds native_spin alone, into anonymous memory
 * at the same offset from a 64-byte boundary.  So jit_spin and
 * native_spin run the same instructions at the same alignment, and the
 * same work takes the same time in both, whatever else the machine runs
 * (a loop of other instructions, calibrated against native_spin when the
 * program started, ran at another speed once the load changed: jit_spin
 * had 63 to 68 % of the samples instead of half).  The loop is
 * WL_SPIN_FOR's, returning its sum instead of adding it to a global: it
 * reads no global and calls nothing, so its bytes run anywhere.
 */
__attribute__((noinline, section("jit_tpl"))) unsigned long
native_spin(unsigned long n)
{
	unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++) {
		acc += i * i;
		__asm__ volatile("" : "+r"(acc));
	}
	return acc;
}

/* the linker's bounds of the section jit_tpl */
extern const char __start_jit_tpl[], __stop_jit_tpl[];

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start = wl_cpu_now();
	size_t size = (size_t)(__stop_jit_tpl - __start_jit_tpl);
	size_t at = 64 + ((size_t)__start_jit_tpl & 63);
	unsigned long seed = 0;
	unsigned long (*fn)(unsigned long);
	char path[64];
	FILE *map;
	char *mem;

	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED || at + size > 4096)
		return 1;
	/* a few bytes in, as a JIT's code rarely starts its mapping */
	memcpy(mem + at, __start_jit_tpl, size);
	if (mprotect(mem, 4096, PROT_READ | PROT_EXEC))
		return 1;
	__builtin___clear_cache(mem + at, mem + at + size);
	*(void **)&fn = mem + at;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	map = fopen(path, "w");
	if (!map)
		return 1;
	fprintf(map, "%lx %zx jit_spin\n", (unsigned long)fn, size);
	fclose(map);
	printf("%s\n", path);
	fflush(stdout);

	/* rounds of varying length (wl_vary), half the work in each */
	while (!wl_done(start, secs)) {
		unsigned long n = wl_vary(&seed, 500) * WL_ITERS_PER_US;

		jit_sink += native_spin(n);
		jit_sink += fn(n);
	}
	return 0;
}
