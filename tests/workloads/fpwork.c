/* fpwork: libc called from named functions and a leaf without a frame,
 * for the recovery of the callers frame-pointer chains lose (-g).  Built
 * as a distribution with frame pointers builds (gcc -O2
 * -fno-omit-frame-pointer): GCC keeps a frame in every function that
 * calls, none in a leaf, and Debian's libc has none at all.  Each round:
 * copy_part moves memory with memmove (one libc frame below it, about
 * 45 % of the CPU), calc_part spins in a leaf (no frame of its own, about
 * 35 %), parse_part reads numbers with strtod (libc calling libc: two or
 * three frames, about 20 %).  A frame-pointer walk from inside memmove or
 * calc_part begins at main's frame and skips copy_part or calc_part;
 * from inside strtod's helpers it skips parse_part and the libc frames
 * between.  argv[1]: CPU seconds (default 3, 0: until killed). */
#include <stdlib.h>
#include <string.h>

#include "wl.h"

#define BUF (64 * 1024)

static char *src, *dst;
static volatile unsigned long sink;
static volatile double dsink;
static const char nums[] =
	"3.14159265358979323846264338327950288419716939937510582097494459"
	"230781640628620899 ";

__attribute__((noinline)) void copy_part(void)
{
	for (int i = 0; i < 66; i++) {
		memmove(dst, src, BUF);
		memmove(src, dst + 1, BUF - 1);
	}
}

__attribute__((noinline)) void calc_part(void)
{
	WL_SPIN_FOR(190, sink);
}

__attribute__((noinline)) void parse_part(void)
{
	double t = 0;

	for (int i = 0; i < 360; i++)
		t += strtod(nums, NULL);
	dsink = t;
}

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start = wl_cpu_now();

	src = malloc(BUF);
	dst = malloc(BUF);
	if (!src || !dst)
		return 1;
	memset(src, 1, BUF);
	do {
		for (int r = 0; r < 10; r++) {
			copy_part();
			calc_part();
			parse_part();
		}
	} while (!wl_done(start, secs));
	return 0;
}
