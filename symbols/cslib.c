/* cslib: capstone through dlopen, on first use (see cslib.h). */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>

#include "symbols/cslib.h"
#include "src/core/log.h"

static struct cslib lib;
static const struct cslib *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *sym(void *h, const char *name, bool *ok)
{
	void *p = dlsym(h, name);

	if (!p)
		*ok = false;
	return p;
}

static void load(void)
{
	/* never closed: the handles and instructions it made may live on */
	void *h = dlopen(CSLIB_SONAME, RTLD_NOW | RTLD_LOCAL);
	bool ok = true;

	if (!h) {
		pr_warn("annotate needs capstone: %s", dlerror());
		return;
	}
	/* POSIX: a data pointer from dlsym converts to a function pointer */
	*(void **)&lib.open = sym(h, "cs_open", &ok);
	*(void **)&lib.option = sym(h, "cs_option", &ok);
	*(void **)&lib.malloc = sym(h, "cs_malloc", &ok);
	*(void **)&lib.disasm_iter = sym(h, "cs_disasm_iter", &ok);
	*(void **)&lib.free = sym(h, "cs_free", &ok);
	*(void **)&lib.close = sym(h, "cs_close", &ok);
	if (!ok) {
		pr_warn("annotate needs capstone: %s lacks a function (%s)",
			CSLIB_SONAME, dlerror());
		dlclose(h);
		return;
	}
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
