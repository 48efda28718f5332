/* symtypes: the types the symbol modules share with the symbolizer's
 * users, without the facade: a symbol's flags and a frame of a source
 * position (the modules below the symbolizer include this, not
 * symbolizer.h). */
#ifndef PTOP_SYMTYPES_H
#define PTOP_SYMTYPES_H

enum sym_flags {
	SYM_F_SYNTH = 1 << 0,	/* bounds from an .eh_frame FDE, no name */
	SYM_F_PLT = 1 << 1,	/* a PLT stub, named "name@plt" */
	SYM_F_JIT = 1 << 2,	/* from /tmp/perf-PID.map */
	SYM_F_KERNEL = 1 << 3,
	/* an answer that may change: the dso's symbols are still loading or
	 * being fetched, a JIT map grows, memory ran out; what keeps answers
	 * (rowset.c) asks again */
	SYM_F_PROVISIONAL = 1 << 4,
};

/* One frame of the source position of an address: the innermost first,
 * then the functions it was inlined into. */
struct srcline {
	const char *file;	/* NULL: unknown */
	int line;
	const char *func;	/* the inlined function's name, or NULL */
	const char *dir;	/* the compilation directory, for a relative
				 * file (annotate reads the source), or NULL */
};

#endif
