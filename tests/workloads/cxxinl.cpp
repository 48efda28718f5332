/* cxxinl: a C++ member function template inlined into its caller, for
 * the names of inlined frames: DW_AT_name says "spin", the linkage name
 * (demangled) "geo::Box<int>::spin", which perf report shows.  outer_fn
 * runs it in a loop: nearly every sample is in the inlined code.
 * argv[1]: CPU seconds (default 3). */
#include "wl.h"

namespace geo {
template <typename T> struct Box {
	T v;
	__attribute__((always_inline)) inline T spin(unsigned long us)
	{
		unsigned long s = 0;

		WL_SPIN_FOR(us, s);
		return v + (T)s;
	}
};
} // namespace geo

static volatile unsigned long sink;

__attribute__((noinline)) void outer_fn(void)
{
	geo::Box<int> b{ 3 };

	sink += (unsigned long)b.spin(1000);
}

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start = wl_cpu_now();

	do {
		for (int i = 0; i < 20; i++)
			outer_fn();
	} while (!wl_done(start, secs));
	return 0;
}
