/* cgwork: a known call graph.
 *   main -> outer -> inner_a (2/3 of outer), inner_b (1/3 of outer)
 *   main -> caller_x -> lib_work (2/3 of lib_work, in libwlcg.so)
 *   main -> caller_y -> lib_work (1/3)
 * outer and lib_work each take about half of the time; a round's length
 * varies (wl_vary).  The 2/3 are two calls of the 1/3's length, not one
 * call of twice the work: on the CI's virtual Xeons a loop of twice the
 * length ran 15 % faster per iteration when it came first in a round
 * (inner_a 61 to 64 % of outer, every run, on a quiet machine as well),
 * and calls of one length take the same time per iteration.
 * usage: cgwork [SECONDS] */
#include "wl.h"

void lib_work(unsigned long n);

volatile unsigned long cg_sink;

/* Each spins for n microseconds. */
__attribute__((noinline)) void inner_a(unsigned long n)
{
	WL_SPIN_FOR(n, cg_sink);
}

__attribute__((noinline)) void inner_b(unsigned long n)
{
	WL_SPIN_FOR(n, cg_sink);
}

__attribute__((noinline)) void outer(unsigned long n)
{
	inner_a(n);
	inner_a(n);
	inner_b(n);
}

__attribute__((noinline)) void caller_x(unsigned long n)
{
	lib_work(n);
	lib_work(n);
}

__attribute__((noinline)) void caller_y(unsigned long n)
{
	lib_work(n);
}

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start = wl_cpu_now();
	unsigned long seed = 0, n;

	while (!wl_done(start, secs)) {
		n = wl_vary(&seed, 150);
		outer(n);
		caller_x(n);
		caller_y(n);
	}
	return 0;
}
