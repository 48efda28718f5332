/* dynlib: the one dlopen loader (see dynlib.h). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "src/sys/dynlib.h"

/* dlerror's words, or "unknown" when it has none. */
static void say_why(struct dynlib *dl)
{
	const char *e = dlerror();

	snprintf(dl->why, sizeof(dl->why), "%s", e ? e : "unknown");
}

int dynlib__load(struct dynlib *dl, const char *const *sonames,
		 size_t nr_sonames, const struct dynlib_fn *fns,
		 size_t nr_fns)
{
	void *h = NULL;

	memset(dl, 0, sizeof(*dl));
	for (size_t i = 0; i < nr_sonames && !h; i++) {
		h = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
		if (h)
			dl->soname = sonames[i];
		else
			say_why(dl);
	}
	if (!h)
		return -ELIBACC;
	for (size_t i = 0; i < nr_fns; i++) {
		*fns[i].fn = dlsym(h, fns[i].name);
		if (!*fns[i].fn && !fns[i].optional) {
			dl->missing = fns[i].name;
			say_why(dl);
			/* never dlclose'd: see dynlib.h */
			return -ELIBBAD;
		}
	}
	dl->why[0] = '\0';
	dl->handle = h;
	return 0;
}
