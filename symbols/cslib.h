/* cslib: capstone, loaded on first use with dlopen.  Linked at start, its
 * relocated tables cost 3 MB of resident memory (a fifth of a system-wide
 * session's), which a session that never annotates should not pay. */
#ifndef PTOP_CSLIB_H
#define PTOP_CSLIB_H

#include <capstone/capstone.h>

#define CSLIB_STR_(x) #x
#define CSLIB_STR(x) CSLIB_STR_(x)
/* the soname of the ABI the headers describe */
#define CSLIB_SONAME "libcapstone.so." CSLIB_STR(CS_API_MAJOR)

struct cslib {
	cs_err (*open)(cs_arch arch, cs_mode mode, csh *handle);
	cs_err (*option)(csh handle, cs_opt_type type, size_t value);
	cs_insn *(*malloc)(csh handle);
	bool (*disasm_iter)(csh handle, const uint8_t **code, size_t *size,
			    uint64_t *address, cs_insn *insn);
	void (*free)(cs_insn *insn, size_t count);
	cs_err (*close)(csh *handle);
};

/*
 * The library CSLIB_SONAME, loaded once, thread-safe.  NULL when it cannot be loaded: the reason
 * is logged once (warning) and errno is ELIBACC.
 */
const struct cslib *cslib__get(void);

/* Loads it on a thread of its own, now, for a run that will annotate
 * (batch --annotate): relocating capstone (5 ms) while the recording is
 * read.  cslib__get then waits for it, if it is not done. */
void cslib__preload(void);

#endif
