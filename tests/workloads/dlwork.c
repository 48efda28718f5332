/* dlwork: dlopen()s libwlhot.so (next to this program) and spends about
 * 70 % in its wlhot_spin, 30 % in main_spin, in rounds of varying length
 * (wl_vary).
 * usage: dlwork [SECONDS] */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "wl.h"

volatile unsigned long dlwork_sink;

__attribute__((noinline)) void main_spin(unsigned long us)
{
	WL_SPIN_FOR(us, dlwork_sink);
}

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start;
	char self[PATH_MAX], lib[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	void (*hot)(unsigned long);
	unsigned long seed = 0;
	void *h;

	if (n < 0)
		return 1;
	self[n] = '\0';
	snprintf(lib, sizeof(lib), "%s/libwlhot.so", dirname(self));
	h = dlopen(lib, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "dlwork: %s\n", dlerror());
		return 1;
	}
	*(void **)&hot = dlsym(h, "wlhot_spin");
	if (!hot)
		return 1;
	start = wl_cpu_now();
	while (!wl_done(start, secs)) {
		unsigned long us = wl_vary(&seed, 100);

		hot(7 * us);
		main_spin(3 * us);
	}
	dlclose(h);
	return 0;
}
