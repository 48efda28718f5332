/* cslib: capstone through dlopen, on first use (see cslib.h). */
#include <errno.h>
#include <pthread.h>

#include "symbols/cslib.h"
#include "src/core/log.h"
#include "src/core/util.h"
#include "src/sys/dynlib.h"

static struct cslib lib;
static const struct cslib *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	static const char *const soname[] = { CSLIB_SONAME };
	/* POSIX: a data pointer from dlsym converts to a function pointer */
	const struct dynlib_fn fns[] = {
		{ "cs_open", (void **)&lib.open, false },
		{ "cs_option", (void **)&lib.option, false },
		{ "cs_malloc", (void **)&lib.malloc, false },
		{ "cs_disasm_iter", (void **)&lib.disasm_iter, false },
		{ "cs_free", (void **)&lib.free, false },
		{ "cs_close", (void **)&lib.close, false },
	};
	struct dynlib dl;
	int err = dynlib__load(&dl, soname, ARRAY_SIZE(soname), fns,
			       ARRAY_SIZE(fns));

	if (err == -ELIBACC)
		pr_warn("annotate needs capstone: %s", dl.why);
	else if (err)
		pr_warn("annotate needs capstone: %s lacks a function (%s)",
			CSLIB_SONAME, dl.why);
	else
		loaded = &lib;
}

const struct cslib *cslib__get(void)
{
	pthread_once(&once, load);
	if (!loaded)
		errno = ELIBACC;
	return loaded;
}

static void *preload(void *arg)
{
	(void)arg;
	cslib__get();
	return NULL;
}

void cslib__preload(void)
{
	pthread_t t;
	pthread_attr_t attr;

	if (pthread_attr_init(&attr))
		return;
	/* nobody waits for it: cslib__get's once does */
	if (!pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED))
		pthread_create(&t, &attr, preload, NULL);
	pthread_attr_destroy(&attr);
}
