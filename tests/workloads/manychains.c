/* manychains: many distinct call chains, for the live -g bench (issue
 * 12): each round walks DEPTH levels, where every level calls the next
 * through left() or right() as the bits of the round's number say, and
 * the last spins 20 us: 2^DEPTH distinct chains (131072 with the default
 * 17), each as often as the others.
 * With LEAF 1 the last level spins on one instruction (x86-64's loop;
 * elsewhere the usual loop), so that the chains, whose leaf is the
 * sampled address, are 2^DEPTH and not 2^DEPTH times the loop's
 * instructions: a set that stops growing within a few minutes.
 * usage: manychains [SECONDS [DEPTH [LEAF]]] (0 seconds: until killed) */
#include <stdlib.h>

#include "wl.h"

volatile unsigned long manychains_sink;

static void step(unsigned long path, int level, int depth);

__attribute__((noinline)) void left(unsigned long path, int level, int depth)
{
	step(path, level + 1, depth);
}

__attribute__((noinline)) void right(unsigned long path, int level, int depth)
{
	step(path, level + 1, depth);
}

__attribute__((noinline)) void leaf(void)
{
	WL_SPIN_FOR(20, manychains_sink);
}

static int one_insn;

/* About 20 us of CPU on one instruction: the loop instruction decrements
 * rcx and jumps to itself. */
__attribute__((noinline)) void leaf1(void)
{
#if defined(__x86_64__)
	unsigned long n = 20 * WL_ITERS_PER_US / 2;

	__asm__ volatile("1: loop 1b" : "+c"(n));
#else
	WL_SPIN_FOR(20, manychains_sink);
#endif
}

__attribute__((noinline)) static void step(unsigned long path, int level,
					   int depth)
{
	if (level == depth && one_insn)
		leaf1();
	else if (level == depth)
		leaf();
	else if (path & (1ul << level))
		right(path, level, depth);
	else
		left(path, level, depth);
}

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start = wl_cpu_now();
	int depth = argc > 2 ? atoi(argv[2]) : 17;
	unsigned long path = 0;

	if (depth < 1 || depth > 40)
		depth = 17;
	one_insn = argc > 3 && atoi(argv[3]) == 1;
	while (!wl_done(start, secs))
		for (int i = 0; i < 64; i++)
			step(path++, 0, depth);
	return 0;
}
