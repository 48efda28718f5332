/* libwlhot.so: the hot function of the dlopen workload. */
#include "wl.h"

volatile unsigned long wlhot_sink;

/* spins for us microseconds */
__attribute__((noinline)) void wlhot_spin(unsigned long us)
{
	WL_SPIN_FOR(us, wlhot_sink);
}
