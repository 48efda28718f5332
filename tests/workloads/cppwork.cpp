// cppwork: a C++ workload whose hot function has a mangled, templated name:
// ptopwl::Worker<int>::crunch(unsigned long) takes about 80 %,
// ptopwl::helper(unsigned long) about 20 %.  usage: cppwork [SECONDS]
#include <cstdlib>
#include <ctime>

static double now()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

namespace ptopwl {
volatile unsigned long sink;

template <typename T> struct Worker {
	__attribute__((noinline)) void crunch(unsigned long n)
	{
		for (unsigned long i = 0; i < n; i++)
			sink += (T)i * 3;
	}
};

__attribute__((noinline)) void helper(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 3;
}
} // namespace ptopwl

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3.0, start = now();
	ptopwl::Worker<int> w;

	while (secs <= 0 || now() - start < secs) {
		w.crunch(80000);
		ptopwl::helper(20000);
	}
	return 0;
}
