/* chainwork: main -> chain_1 in libwlchain1.so -> ... -> chain_6 in
 * libwlchain6.so, which spins (see wlchain.c).
 * usage: chainwork [SECONDS] */
#include "wl.h"

void chain_1(unsigned long us);

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start = wl_cpu_now();

	while (!wl_done(start, secs))
		chain_1(500);
	return 0;
}
