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

__attribute__((noinline)) void native_spin(unsigned long us)
{
	WL_SPIN_FOR(us, jit_sink);
}

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	/* loop: dec %rdi; jnz loop; ret */
	static const unsigned char code[] = { 0x48, 0xff, 0xcf, 0x75, 0xfb, 0xc3 };
#else
	static const unsigned char code[1];
#endif
	double secs = wl_seconds(argc, argv), start = wl_cpu_now();
	double t, t_native, t_jit;
	unsigned long jit_n, seed = 0;
	void (*fn)(unsigned long);
	char path[64];
	FILE *map;
	void *mem;

	if (sizeof(code) < 2) {
		fprintf(stderr, "jitwork: x86-64 only\n");
		return 77;
	}
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	/* a few bytes in, as a JIT's code rarely starts its mapping */
	memcpy((char *)mem + 64, code, sizeof(code));
	if (mprotect(mem, 4096, PROT_READ | PROT_EXEC))
		return 1;
	fn = (void (*)(unsigned long))((char *)mem + 64);
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	map = fopen(path, "w");
	if (!map)
		return 1;
	fprintf(map, "%lx %zx jit_spin\n", (unsigned long)fn, sizeof(code));
	fclose(map);
	printf("%s\n", path);
	fflush(stdout);

	/* as many jit iterations as take the CPU time of native_spin(500):
	 * measured once (the fastest of 7 tries: an interrupt or a
	 * migration only adds), then both are fixed work (see wl.h) */
	t_native = t_jit = 1e9;
	for (int k = 0; k < 7; k++) {
		t = wl_cpu_now();
		native_spin(2000);
		t = wl_cpu_now() - t;
		t_native = t < t_native ? t : t_native;
		t = wl_cpu_now();
		fn(1ul << 22);
		t = wl_cpu_now() - t;
		t_jit = t < t_jit ? t : t_jit;
	}
	jit_n = t_jit > 0 ? (unsigned long)((double)(1ul << 22) * t_native /
					   4 / t_jit) : 1ul << 16;
	if (jit_n == 0)
		jit_n = 1;
	/* rounds of varying length (wl_vary), the split fixed */
	while (!wl_done(start, secs)) {
		unsigned long k = wl_vary(&seed, 16);

		native_spin(500 * k / 16);
		fn(jit_n * k / 16);
	}
	return 0;
}
