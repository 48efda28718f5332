/* dynlib: the libraries ptop uses only when asked (capstone, libdebuginfod,
 * libcurl), loaded with dlopen so that ptop starts, and runs, without
 * them.  The one loader, with one policy (doc/design.md, "Dependencies"). */
#ifndef PTOP_DYNLIB_H
#define PTOP_DYNLIB_H

#include <stdbool.h>
#include <stddef.h>

/* A function to take from the library. */
struct dynlib_fn {
	const char *name;
	void **fn;		/* its address goes there (a function
				 * pointer's storage: POSIX allows it) */
	bool optional;		/* absent: *fn is NULL, not a failure */
};

struct dynlib {
	void *handle;		/* the library loaded whole, or NULL */
	const char *soname;	/* which of the sonames it is */
	const char *missing;	/* -ELIBBAD: the function it lacks */
	char why[256];		/* a failure: the dynamic loader's words */
};

/*
 * Loads the first of sonames[nr_sonames] the dynamic loader finds
 * (RTLD_NOW | RTLD_LOCAL: every symbol bound now, none seen by other
 * libraries) and takes fns[nr_fns] from it.  Returns 0, -ELIBACC when no
 * soname loads (dl->why says why, for the last one tried), or -ELIBBAD
 * when the library lacks a function that is not optional (dl->soname,
 * dl->missing, dl->why).  Nothing is printed or logged: the caller says
 * what the failure means to the user.  A library is never unloaded, even
 * when it lacks a function: its constructors ran (libdebuginfod's start
 * libcurl, which does not survive being unloaded) and what a caller made
 * with it (capstone's handles and instructions) may outlive the caller.
 * Thread-safe; loading again costs a lookup (the loader counts it).
 */
int dynlib__load(struct dynlib *dl, const char *const *sonames,
		 size_t nr_sonames, const struct dynlib_fn *fns,
		 size_t nr_fns);

#endif
