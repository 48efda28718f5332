/* libwlcg.so: the library function of cgwork, called from two callers. */
#include "wl.h"

volatile unsigned long wlcg_sink;

/* spins for n microseconds */
__attribute__((noinline)) void lib_work(unsigned long n)
{
	WL_SPIN_FOR(n, wlcg_sink);
}
