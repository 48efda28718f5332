// cppwork: a C++ workload whose hot function has a mangled, templated name:
// ptopwl::Worker<int>::crunch(unsigned long) takes about 80 %,
// ptopwl::helper(unsigned long) about 20 %.  usage: cppwork [SECONDS]
#include <cstdlib>
#include <ctime>

#include "wl.h"

namespace ptopwl {
volatile unsigned long sink;

template <typename T> struct Worker {
	// spins for us microseconds
	__attribute__((noinline)) void crunch(unsigned long us)
	{
		WL_SPIN_FOR(us, sink);
	}
};

__attribute__((noinline)) void helper(unsigned long us)
{
	WL_SPIN_FOR(us, sink);
}
} // namespace ptopwl

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start = wl_cpu_now();
	ptopwl::Worker<int> w;
	unsigned long seed = 0;

	// rounds of varying length (wl_vary), the split fixed
	while (!wl_done(start, secs)) {
		unsigned long us = wl_vary(&seed, 100);

		w.crunch(8 * us);
		ptopwl::helper(2 * us);
	}
	return 0;
}
