/* manychains: many distinct call chains, for the live -g bench (issue
 * 12): each round walks DEPTH levels, where every level calls the next
 * through left() or right() as the bits of the round's number say, and
 * the last spins 20 us: 2^DEPTH distinct chains (131072 with the default
 * 17), each as often as the others.
 * With LEAF 1 the last level spins on one instruction (x86-64's loop;
 * elsewhere the usual loop), so that the chains, whose leaf is the
 * sampled address, are 2^DEPTH and not 2^DEPTH times the loop's
 * instructions: a set that stops growing within a few minutes.
 * With LEAF_US the leaf spins that long instead of 20 us: the longer it
 * is, the rarer the samples that land on the way down (in step, left or
 * right, at any level and instruction: chains of their own, a tail that
 * keeps the set growing), so that the set closes sooner.
 * usage: manychains [SECONDS [DEPTH [LEAF [LEAF_US]]]] (0 seconds: until
 * killed) */
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

static int one_insn;
static unsigned long leaf_us = 20;

__attribute__((noinline)) void leaf(void)
{
	WL_SPIN_FOR(leaf_us, manychains_sink);
}

/* About leaf_us of CPU on one instruction: the loop instruction
 * decrements rcx and jumps to itself. */
__attribute__((noinline)) void leaf1(void)
{
#if defined(__x86_64__)
	unsigned long n = leaf_us * WL_ITERS_PER_US / 2;

	__asm__ volatile("1: loop 1b" : "+c"(n));
#else
	WL_SPIN_FOR(leaf_us, manychains_sink);
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
	if (argc > 4 && atoi(argv[4]) > 0)
		leaf_us = (unsigned long)atoi(argv[4]);
	while (!wl_done(start, secs))
		for (int i = 0; i < 64; i++)
			step(path++, 0, depth);
	return 0;
}
