/* libwlchainN.so: link N (LINK, 1 to 6) of a chain of six libraries,
 * each with compressed DWARF (-gz) and an inlined frame:
 *   chainwork's main -> chain_1 -> step_1 (inlined) -> chain_2 -> ...
 *   -> chain_6 -> step_6 (inlined), which spins.
 * Trees with inlined frames read the DWARF of all six, so that tests can
 * watch the live view answer keys while the names of many binaries load.
 * Each library also carries 512 functions that nothing calls, so that
 * its DWARF has some size. */
#include "wl.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define LINK_FN CAT(chain_, LINK)
#define STEP_FN CAT(step_, LINK)
#define SINK CAT(chain_sink_, LINK)

volatile unsigned long SINK;

#if LINK < 6
void CAT(chain_, NEXT)(unsigned long us);
#endif

static inline __attribute__((always_inline)) void STEP_FN(unsigned long us)
{
	SINK += us;
#if LINK < 6
	CAT(chain_, NEXT)(us);
#else
	WL_SPIN_FOR(us, SINK);
#endif
	SINK -= us;
}

__attribute__((noinline)) void LINK_FN(unsigned long us)
{
	STEP_FN(us);
	SINK++;
}

/* the bulk: bulk_LINK_<9 binary digits>, 512 functions */
struct bulk {
	int a[8];
	double d;
};
#define BULK(p)                                                        \
	__attribute__((used, noinline)) int CAT(CAT(bulk_, LINK), p)(  \
		struct bulk *b, int x)                                 \
	{                                                              \
		int y = b->a[x & 7];                                   \
		for (int j = 0; j < x; j++)                            \
			y ^= b->a[j & 7] + j + (int)b->d;              \
		return y;                                              \
	}
#define B2(p) BULK(p##0) BULK(p##1)
#define B4(p) B2(p##0) B2(p##1)
#define B8(p) B4(p##0) B4(p##1)
#define B16(p) B8(p##0) B8(p##1)
#define B32(p) B16(p##0) B16(p##1)
#define B64(p) B32(p##0) B32(p##1)
#define B128(p) B64(p##0) B64(p##1)
#define B256(p) B128(p##0) B128(p##1)
B256(_0)
B256(_1)
