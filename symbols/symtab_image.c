/* symtab_image: a finished table written as an image and served from
 * one (a cache file's, mapped: symcache.h), and the guard its reads go
 * through (pure). */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "symbols/symtab.h"
#include "symbols/symtab_internal.h"

bool symtab__stale(const struct symtab *st)
{
	return st && st->stale;
}

void symtab__set_guard(struct symtab *st,
		       int (*run)(void *ctx, void (*fn)(void *), void *arg),
		       void *ctx)
{
	st->guard_run = run;
	st->guard_ctx = ctx;
}

#define IMAGE_MAGIC "PTOPSYMT"

struct image_hdr {
	char magic[8];
	u32 version, hdr_size;
	u32 sym_size, range_size;	/* the records' layout */
	u32 flags;			/* SYMTAB_IMAGE_FLAGS of the table */
	u32 range_flags;
	u64 nr_syms, nr_ranges, str_size;
};

int symtab__write_image(const struct symtab *st,
			int (*emit)(void *ctx, const void *buf, size_t len),
			void *ctx)
{
	struct image_hdr h = { .magic = IMAGE_MAGIC };
	struct bufout o;
	u64 off = 0;

	if (!st || !st->finished)
		return -EINVAL;
	for (size_t i = 0; i < st->nr; i++) {
		const char *raw = sym__raw(st, &st->syms[i]);

		if (raw)
			off += strlen(raw) + 1;
	}
	bufout__init(&o, emit, ctx);
	h.version = SYMTAB_IMAGE_VERSION;
	h.hdr_size = sizeof(h);
	h.sym_size = sizeof(struct sym);
	h.range_size = sizeof(struct range);
	h.flags = st->flags & SYMTAB_IMAGE_FLAGS;
	h.range_flags = st->range_flags;
	h.nr_syms = st->nr;
	h.nr_ranges = st->nr_ranges;
	h.str_size = off;
	bufout__add(&o, &h, sizeof(h));
	off = 0;
	for (size_t i = 0; i < st->nr; i++) {
		const struct sym *s = &st->syms[i];
		const char *raw = sym__raw(st, s);
		struct sym r;

		memset(&r, 0, sizeof(r));	/* the padding too */
		r.start = s->start;
		r.size = s->size;
		r.raw_off = raw ? off : IMAGE_NO_NAME;
		r.flags = s->flags;
		r.group = s->group;
		r.bind = s->bind;
		if (raw)
			off += strlen(raw) + 1;
		bufout__add(&o, &r, sizeof(r));
	}
	bufout__add(&o, st->ranges, st->nr_ranges * sizeof(*st->ranges));
	for (size_t i = 0; i < st->nr; i++) {
		const char *raw = sym__raw(st, &st->syms[i]);

		if (raw)
			bufout__add(&o, raw, strlen(raw) + 1);
	}
	return bufout__fini(&o);
}

static bool add_mul(u64 *acc, u64 n, u64 size)
{
	u64 m;

	return !__builtin_mul_overflow(n, size, &m) &&
	       !__builtin_add_overflow(*acc, m, acc);
}

/* Is the image whole and ours: records in address order, names inside
 * it, nothing a finished table cannot hold?  0 or -EINVAL. */
static int image_check(const u8 *img, size_t len, unsigned int flags)
{
	const struct image_hdr *h = (const void *)img;
	const struct sym *syms;
	const struct range *ranges;
	const char *names;
	u64 want = sizeof(*h);

	if (len < sizeof(*h) || ((uintptr_t)img & 7) ||
	    memcmp(h->magic, IMAGE_MAGIC, sizeof(h->magic)) ||
	    h->version != SYMTAB_IMAGE_VERSION || h->hdr_size != sizeof(*h) ||
	    h->sym_size != sizeof(*syms) || h->range_size != sizeof(*ranges) ||
	    h->flags != (flags & SYMTAB_IMAGE_FLAGS) ||
	    h->nr_syms > UINT32_MAX || h->nr_ranges > UINT32_MAX ||
	    !add_mul(&want, h->nr_syms, sizeof(*syms)) ||
	    !add_mul(&want, h->nr_ranges, sizeof(*ranges)) ||
	    !add_mul(&want, h->str_size, 1) || want != len)
		return -EINVAL;
	syms = (const void *)(h + 1);
	ranges = (const void *)(syms + h->nr_syms);
	names = (const char *)(ranges + h->nr_ranges);
	if (h->str_size && names[h->str_size - 1])
		return -EINVAL;
	for (u64 i = 0; i < h->nr_syms; i++) {
		const struct sym *s = &syms[i];

		if ((i && s->start <= syms[i - 1].start) ||
		    s->named != SYM_RAW || s->bind < SYMTAB_BIND_LOCAL ||
		    s->bind > SYMTAB_BIND_GLOBAL ||
		    (s->raw_off != IMAGE_NO_NAME && s->raw_off >= h->str_size))
			return -EINVAL;
	}
	for (u64 i = 1; i < h->nr_ranges; i++)
		if (ranges[i].start <= ranges[i - 1].start)
			return -EINVAL;
	return 0;
}

struct symtab *symtab__from_image(const void *img, size_t len,
				  struct strpool *pool, unsigned int flags,
				  void (*release)(void *ctx), void *ctx)
{
	/* never written (sym__hit names copies) */
	struct image_hdr *h = (struct image_hdr *)(uintptr_t)img;
	struct symtab *st;

	if (!img || image_check(img, len, flags)) {
		errno = EINVAL;
		return NULL;
	}
	st = symtab__new(pool, flags);
	if (!st)
		return NULL;
	st->finished = true;
	st->syms = (struct sym *)(h + 1);
	st->nr = (size_t)h->nr_syms;
	st->ranges = (struct range *)(st->syms + st->nr);
	st->nr_ranges = (size_t)h->nr_ranges;
	st->range_flags = h->range_flags;
	st->image_names = (const char *)(st->ranges + st->nr_ranges);
	st->image_len = len;
	st->release = release;
	st->release_ctx = ctx;
	return st;
}
