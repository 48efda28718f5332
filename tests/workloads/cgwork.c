/* cgwork: a known call graph.
 *   main -> outer -> inner_a (2/3 of outer), inner_b (1/3 of outer)
 *   main -> caller_x -> lib_work (2/3 of lib_work, in libwlcg.so)
 *   main -> caller_y -> lib_work (1/3)
 * outer and lib_work each take about half of the time.
 * usage: cgwork [SECONDS] */
#include "wl.h"

void lib_work(unsigned long n);

volatile unsigned long cg_sink;

__attribute__((noinline)) void inner_a(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		cg_sink += i * i;
}

__attribute__((noinline)) void inner_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		cg_sink += i * i;
}

__attribute__((noinline)) void outer(unsigned long n)
{
	inner_a(2 * n);
	inner_b(n);
}

__attribute__((noinline)) void caller_x(unsigned long n)
{
	lib_work(2 * n);
}

__attribute__((noinline)) void caller_y(unsigned long n)
{
	lib_work(n);
}

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start = wl_now();

	while (!wl_done(start, secs)) {
		outer(20000);
		caller_x(20000);
		caller_y(20000);
	}
	return 0;
}
