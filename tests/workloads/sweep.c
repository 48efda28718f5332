/* sweep: code addresses not seen before, all the time, for the tests of
 * files changed under a running ptop (mapped_change.sh): 64 functions
 * PFX_00 .. PFX_63 (sweep_, or what -DPFX= names: the same code under
 * other names, another build), each spinning in an always-inlined
 * helper, run one after the other for PHASE_US of work each, round after
 * round: every refresh brings addresses whose names, lines and inlined
 * frames no lookup asked for yet.
 * usage: sweep [SECONDS [PHASE_US]] (0 seconds: until killed; phase
 * default 20000) */
#include "wl.h"

#ifndef PFX
#define PFX sweep
#endif
#define CAT3(a, b, c) a##b##c
#define NAME3(a, b, c) CAT3(a, b, c)
#define FN(n) NAME3(PFX, _, n)

volatile unsigned long sweep_sink;

static inline __attribute__((always_inline)) void sweep_step(unsigned long us)
{
	WL_SPIN_FOR(us, sweep_sink);
}

#define EACH(X) X(00) X(01) X(02) X(03) X(04) X(05) X(06) X(07) X(08) X(09) \
	X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) \
	X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31) X(32) X(33) \
	X(34) X(35) X(36) X(37) X(38) X(39) X(40) X(41) X(42) X(43) X(44) X(45) \
	X(46) X(47) X(48) X(49) X(50) X(51) X(52) X(53) X(54) X(55) X(56) X(57) \
	X(58) X(59) X(60) X(61) X(62) X(63)

#define DEF(n)                                                 \
	__attribute__((noinline)) void FN(n)(unsigned long us); \
	__attribute__((noinline)) void FN(n)(unsigned long us)  \
	{                                                       \
		sweep_step(us);                                 \
		sweep_sink++;                                   \
	}
EACH(DEF)

#define REF(n) FN(n),
static void (*const fns[])(unsigned long) = { EACH(REF) };

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start = wl_cpu_now();
	unsigned long phase = argc > 2 ? strtoul(argv[2], NULL, 10) : 20000;

	for (;;)
		for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
			if (wl_done(start, secs))
				return 0;
			fns[i](phase);
		}
}
