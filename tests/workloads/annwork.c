/* annwork: a known hot loop that calls a helper, for the annotate tests.
 * ann_outer's loop (its body at MARK:body) calls ann_inner (its loop at
 * MARK:inner) on every iteration: about 80 % and 20 % of the CPU.
 * usage: annwork [SECONDS] (0: until killed) */
#include "wl.h"

volatile unsigned long annwork_sink;

__attribute__((noinline)) unsigned long ann_inner(unsigned long x)
{
	unsigned long r = x;

	for (int k = 0; k < 4; k++)
		r = r * 6364136223846793005ul + 1442695040888963407ul; /* MARK:inner */
	return r;
}

__attribute__((noinline)) void ann_outer(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		annwork_sink += i * i / (i | 1); /* MARK:body */
		annwork_sink ^= ann_inner(i);
	}
}

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start = wl_cpu_now();

	while (!wl_done(start, secs))
		ann_outer(1000000);
	return 0;
}
