/* demangle: C++ (Itanium), Rust legacy and Rust v0 names to display form. */
#ifndef PTOP_DEMANGLE_H
#define PTOP_DEMANGLE_H

#include "src/core/util.h"

/* Names longer than this are not demangled (the cost of demangling grows
 * faster than the name); results longer than DEMANGLE_MAX_OUT are dropped. */
#define DEMANGLE_MAX_IN 4096
#define DEMANGLE_MAX_OUT 65536

enum demangle_flags {
	/* C++: the full form, parameters, qualifiers, the return type of
	 * templates and clone suffixes included ("int ns::f<int>(int) const
	 * [clone .isra.0]"); without it, the function's name alone
	 * ("ns::f<int>"), as perf report shows it.  Special names (thunks,
	 * guard variables) keep their full form either way. */
	DEMANGLE_PARAMS = 1 << 0,
};

/*
 * Demangles raw into out (reset first); flags: enum demangle_flags.  A
 * suffix from '@' on ("@plt", "@@GLIBCXX_3.4") is put back after the
 * demangled name.  Returns 1 when out holds the demangled name, 0 when
 * raw is not a name this knows how to demangle (or is malformed or too
 * costly: the caller shows raw), -ENOMEM.  Pure: no syscalls; C++ goes
 * through libstdc++'s __cxa_demangle.
 */
int demangle__name(const char *raw, unsigned int flags, struct strbuf *out);

/* A character of a C/C++ identifier: [A-Za-z0-9_]. */
bool demangle__is_ident(char c);

#endif
