/* util: small pure helpers shared by every module (strings, pools, lists). */
#ifndef PTOP_UTIL_H
#define PTOP_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;
typedef int64_t s64;
typedef int32_t s32;
typedef int16_t s16;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* "s" after a count that is not 1: "%zu symbol%s", n, PLURAL(n) */
#define PLURAL(n) ((n) == 1 ? "" : "s")
#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define ALIGN_UP(x, a) (((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))

/* Growable, always NUL-terminated string.  Allocation failure is sticky:
 * the buffer keeps what fit and ->oom is set, so callers check once. */
struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
	bool oom;
};

void strbuf__init(struct strbuf *sb);
void strbuf__fini(struct strbuf *sb);
void strbuf__reset(struct strbuf *sb);
int strbuf__add(struct strbuf *sb, const char *s, size_t n);
int strbuf__adds(struct strbuf *sb, const char *s);
int strbuf__addc(struct strbuf *sb, char c);
int strbuf__addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int strbuf__vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Hands the buffer to the caller (never NULL unless oom) and resets sb. */
char *strbuf__detach(struct strbuf *sb);

/*
 * Output gathered into 64 KiB pieces for emit (a file's writes, say):
 * bufout__init allocates the buffer, bufout__add appends (a piece over
 * the buffer's size goes to emit whole), bufout__fini hands over the
 * rest, frees the buffer and returns the first error, emit's non-zero
 * return or -ENOMEM, after which nothing more is emitted.
 */
struct bufout {
	int (*emit)(void *ctx, const void *buf, size_t len);
	void *ctx;
	unsigned char *buf;
	size_t n;
	int err;
};

void bufout__init(struct bufout *o,
		  int (*emit)(void *ctx, const void *buf, size_t len),
		  void *ctx);
/* p may be NULL when len is 0. */
void bufout__add(struct bufout *o, const void *p, size_t len);
int bufout__fini(struct bufout *o);

/*
 * String pool: interns strings so that equal strings share one pointer,
 * which stays valid until strpool__free.  Pointer equality is string
 * equality, which lets hash keys hold the pointer.
 */
struct strpool;
struct strpool *strpool__new(void);
void strpool__free(struct strpool *sp);
const char *strpool__intern(struct strpool *sp, const char *s, size_t len);
size_t strpool__bytes(const struct strpool *sp);

/* Parses "0,2-3" into a bitmap of up to max cpus; returns the count of
 * cpus set or -EINVAL. */
int cpulist__parse(const char *s, bool *set, int max);

/*
 * Appends the pids of a list ("1234,5678", "1234 5678", "1234, 5678":
 * commas and blanks separate, empty items are skipped, each pid a number
 * parse_u64 takes, 1..2^31-1) to *pids[*nr] (realloc'd; the caller frees
 * it, also after an error).  0, -EINVAL (a bad item, or *nr still 0), or
 * -ENOMEM.  -p/-t and the live view's retarget prompt share it.
 */
int pidlist__parse(const char *s, pid_t **pids, size_t *nr);

/* Parses an unsigned integer in any base strtoull accepts, whole string. */
int parse_u64(const char *s, u64 *out);
/* Parses a non-negative number of seconds with a fraction ("0.5"). */
int parse_seconds(const char *s, double *out);
/* Optimal string alignment distance from a[0, la) to b (edits: insert,
 * delete, replace, swap two neighbours), ASCII case folded if fold; for
 * "did you mean" on short names: SIZE_MAX when either is 64 bytes or
 * longer. */
size_t edit_distance(const char *a, size_t la, const char *b, bool fold);
/* A part's share of a total, in percent, as every table shows it: of the
 * period when the total has one, else of the samples, else 0. */
static inline double share_percent(u64 period, u64 samples, u64 total_period,
				   u64 total_samples)
{
	if (total_period)
		return 100.0 * (double)period / (double)total_period;
	if (total_samples)
		return 100.0 * (double)samples / (double)total_samples;
	return 0.0;
}
/* The last component of a path (what follows its last '/'), the path
 * itself when it has none; NULL for NULL. */
const char *path_basename(const char *path);

u64 hash_bytes(const void *p, size_t n);
static inline u64 hash_u64(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/*
 * The checksum of a file ptop keeps (its caches): written with the file,
 * checked when it is read, so that a damaged byte is a rebuilt cache,
 * not a false name.  Bytes may come in any split; the value is stable
 * (changing it means a new cache version).  Not a defence against an
 * attacker (the caches are in a folder only the user can write), and
 * several GB/s: four independent lanes of 8 bytes.
 *	struct csum c;  csum__init(&c);  csum__add(&c, p, n) ...;
 *	u64 sum = csum__end(&c);
 */
struct csum {
	u64 lane[4];
	u64 len;
	unsigned char tail[32];	/* a block not yet whole */
};
void csum__init(struct csum *c);
void csum__add(struct csum *c, const void *p, size_t n);
u64 csum__end(const struct csum *c);

/* Safe growth of an array of n elements of size sz to at least want. */
int array__grow(void **arr, size_t *cap, size_t want, size_t sz);

#endif

/*
 * intmap: u64 -> pointer, open addressing with linear probing and
 * backward-shift deletion (no tombstones, so lookups stay short after
 * many removals).  Value NULL means absent.
 */
struct intmap {
	u64 *keys;
	void **vals;
	size_t cap, nr;
};

void intmap__init(struct intmap *m);
void intmap__fini(struct intmap *m);
void *intmap__get(const struct intmap *m, u64 key);
int intmap__put(struct intmap *m, u64 key, void *val);
void *intmap__del(struct intmap *m, u64 key);
/* Iteration: for (i = 0; intmap__next(m, &i, &k, &v); ) -- do not modify
 * the map while iterating. */
bool intmap__next(const struct intmap *m, size_t *i, u64 *key, void **val);

#endif
