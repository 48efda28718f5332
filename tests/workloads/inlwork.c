/* inlwork: a call through an inlined function.
 *   main -> outer_fn -> inl_helper (always inlined into outer_fn)
 *        -> leaf_spin
 * leaf_spin spins all the time; the return address of its frame lies in
 * outer_fn's code that DWARF says is inl_helper's, so call trees show
 * outer_fn -> inl_helper (inlined) -> leaf_spin.  Built with clang and
 * frame pointers (-fno-inline does not stop always_inline).
 * usage: inlwork [SECONDS] */
#include "wl.h"

volatile unsigned long inl_sink;

__attribute__((noinline)) void leaf_spin(unsigned long us)
{
	WL_SPIN_FOR(us, inl_sink);
}

/* Work of its own around the call, so that the call is inside the
 * inlined code, not at its edge. */
static inline __attribute__((always_inline)) void inl_helper(unsigned long us)
{
	inl_sink += us;
	leaf_spin(us);
	inl_sink -= us;
}

__attribute__((noinline)) void outer_fn(unsigned long us)
{
	inl_helper(us);
	inl_sink++;
}

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start = wl_cpu_now();

	while (!wl_done(start, secs))
		outer_fn(500);
	return 0;
}
