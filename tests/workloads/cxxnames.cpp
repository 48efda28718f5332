// cxxnames: C++ and PLT names as perf report shows them (perfdata_names.sh).
// Built with g++ -O2 so that gcc clones functions (.isra, .constprop); each
// function spins for its slice of every round, so the shares are known:
//   ns::work(int), ns::work(double)       overloads, 8 % each
//   ns::twice<int>, ns::twice<long>       template, return type, 8 % each
//   ns::Box::get                          const method, 8 %
//   ns::Box::operator<, operator long     operators, 8 % each
//   (anonymous namespace)::anon_fn        8 %
//   spin_cloned                           static, cloned, 8 %
// and the rest (about 28 %) in libc through the PLT: memcpy of 64 KiB
// and free(malloc()).  usage: cxxnames [SECONDS]
#include <cstdlib>
#include <cstring>
#include <string>

#include "wl.h"

volatile unsigned long sink;

namespace ns {
__attribute__((noinline)) void work(int us)
{
	WL_SPIN_FOR(us, sink);
}

__attribute__((noinline)) void work(double us)
{
	WL_SPIN_FOR(us, sink);
}

template <typename T> __attribute__((noinline)) T twice(T us)
{
	WL_SPIN_FOR(us, sink);
	return us;
}

struct Box {
	int v;
	__attribute__((noinline)) int get(int us) const
	{
		WL_SPIN_FOR(us, sink);
		return v;
	}
	__attribute__((noinline)) bool operator<(const Box &o) const
	{
		WL_SPIN_FOR(v, sink);
		return v < o.v;
	}
	__attribute__((noinline)) operator long() const
	{
		WL_SPIN_FOR(v, sink);
		return v;
	}
};
} // namespace ns

namespace {
__attribute__((noinline)) void anon_fn(const std::string &s)
{
	WL_SPIN_FOR(s.size(), sink);
}
} // namespace

struct Cfg {
	long us, unused[3];
};

/* one field of a struct passed by address, a constant argument: gcc
 * makes "spin_cloned(Cfg const*, int) [clone .constprop.0] [clone
 * .isra.0]" of it */
static __attribute__((noinline)) long spin_cloned(const Cfg *c, int k)
{
	WL_SPIN_FOR(c->us, sink);
	return k;
}

static char buf_a[65536], buf_b[65536];

/* libc through the PLT for us microseconds of this thread's CPU */
static __attribute__((noinline)) void libc_calls(double us)
{
	double end = wl_cpu_now() + us / 1e6;

	do {
		/* opaque to the compiler, which would drop them all */
		memcpy(buf_a, buf_b, sizeof(buf_a) - (sink & 1));
		__asm__ volatile("" : : "r"(buf_a) : "memory");
		for (int i = 0; i < 256; i++) {
			void *p = malloc(64 + (size_t)i);

			__asm__ volatile("" : : "r"(p) : "memory");
			free(p);
		}
	} while (wl_cpu_now() < end);
}

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start = wl_cpu_now();
	ns::Box b{ 400 }, c{ 4 };
	std::string str(400, 'x');
	Cfg cfg = { 400 + argc - argc, { 0, 0, 0 } };

	while (!wl_done(start, secs)) {
		ns::work(400);
		ns::work(400.0);
		ns::twice<int>(400);
		ns::twice<long>(400);
		b.get(400);
		sink += b < c;
		sink += (long)b;
		anon_fn(str);
		spin_cloned(&cfg, 1);
		libc_calls(1400);
	}
	return 0;
}
