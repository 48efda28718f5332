/* kallsyms: the kernel's symbols from /proc/kallsyms, modules included. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/core/dso.h"
#include "src/core/log.h"
#include "src/core/kfmt.h"
#include "src/sys/fdio.h"
#include "src/sys/kernel.h"
#include "src/sys/mapguard.h"
#include "src/sys/outfile.h"
#include "symbols/cachedir.h"
#include "symbols/kallsyms.h"
#include "symbols/symtypes.h"
#include "symbols/symtab.h"

#define KALLSYMS_MAX (256u << 20)
#define KSYM_NAME_MAX 4096	/* longer names are not cached */
#define KMOD_NAME_MAX 125	/* module_group's bound */
#define WALK_BACK 8		/* as symtab__lookup */

/* One symbol of the cache file, as the finished table has it. */
struct ksym {
	u64 addr, size;
	u32 name_off, name_len;	/* in the string area */
	u16 group;
	u16 pad[3];
};

struct kmod {
	u32 name_off, name_len;	/* "name", without the brackets */
};

/* Index + 1 of module "[name]" (name: len bytes), added if new; 0 on
 * failure. */
static u16 module_group(struct kallsyms *ks, struct strpool *pool,
			const char *name, size_t len, u16 *last)
{
	char buf[128];
	const char *s;

	if (len + 3 > sizeof(buf))
		return 0;
	buf[0] = '[';
	memcpy(buf + 1, name, len);
	buf[len + 1] = ']';
	buf[len + 2] = '\0';
	s = strpool__intern(pool, buf, len + 2);
	if (!s)
		return 0;
	/* a module's symbols come together: check the last one first */
	if (*last && ks->mods[*last - 1] == s)
		return *last;
	for (size_t i = 0; i < ks->nr_mods; i++)
		if (ks->mods[i] == s)
			return *last = (u16)(i + 1);
	if (ks->nr_mods >= UINT16_MAX ||
	    array__grow((void **)&ks->mods, &ks->cap_mods, ks->nr_mods + 1,
			sizeof(*ks->mods)))
		return 0;
	ks->mods[ks->nr_mods++] = s;
	return *last = (u16)ks->nr_mods;
}

/* One line (kfmt__sym).  Returns 0, 1 (skipped), or -ENOMEM. */
static int parse_line(struct kallsyms *ks, struct strpool *pool,
		      const char *p, const char *end, bool *nonzero,
		      u16 *last)
{
	struct kfmt_sym y;
	u16 group = 0;

	if (kfmt__sym(p, end, &y))
		return 1;
	if (y.addr)
		*nonzero = true;
	/* absolute symbols (per-cpu offsets) are not addresses */
	if (!y.addr || y.type == 'a' || y.type == 'A' || y.type == 'U' ||
	    y.type == 'u')
		return 1;
	if (y.mod && y.mod_len) {
		group = module_group(ks, pool, y.mod, y.mod_len, last);
		if (!group)
			return -ENOMEM;
	}
	if (y.type == 't' || y.type == 'T' || y.type == 'w' || y.type == 'W')
		return symtab__add(ks->st, y.addr, 0, 0, y.name, y.name_len,
				   SYM_F_KERNEL, SYMTAB_BIND_GLOBAL, group);
	/* data symbols only end the text symbol before them */
	return symtab__add(ks->st, y.addr, 0, 0, NULL, 0, 0,
			   SYMTAB_BIND_BOUNDARY, group);
}

/* Parsing state across the chunks of a file. */
struct kparse {
	bool nonzero;
	u16 last;
};

/* Parses the complete lines of text[0, len); with final, the last line
 * too even without its newline.  Returns the bytes consumed or -errno. */
static long kallsyms__lines(struct kallsyms *ks, struct strpool *pool,
			    struct kparse *ps, const char *text, size_t len,
			    bool final)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		int r;

		if (!nl && !final)
			break;
		r = parse_line(ks, pool, p, eol, &ps->nonzero, &ps->last);
		if (r < 0)
			return r;
		ks->nr_lines++;
		if (r > 0)
			ks->nr_bad++;
		p = nl ? nl + 1 : end;
	}
	return (long)(p - text);
}

static struct kallsyms *kallsyms__begin(struct strpool *pool)
{
	struct kallsyms *ks = calloc(1, sizeof(*ks));

	if (!ks)
		return NULL;
	ks->st = symtab__new(pool, SYMTAB_GROUP_BOUNDS);
	if (!ks->st) {
		free(ks);
		errno = ENOMEM;
		return NULL;
	}
	return ks;
}

static int kallsyms__end(struct kallsyms *ks, const struct kparse *ps)
{
	ks->restricted = ks->nr_lines && !ps->nonzero;
	return symtab__finish(ks->st);
}

struct kallsyms *kallsyms__parse(const char *text, size_t len,
				 struct strpool *pool)
{
	struct kallsyms *ks = kallsyms__begin(pool);
	struct kparse ps = { 0 };
	long n;
	int err;

	if (!ks)
		return NULL;
	n = kallsyms__lines(ks, pool, &ps, text, len, true);
	err = n < 0 ? (int)n : kallsyms__end(ks, &ps);
	if (err) {
		kallsyms__free(ks);
		errno = -err;
		return NULL;
	}
	return ks;
}

/* The reader's (kernel__kallsyms) state: the table and the parse. */
struct kload {
	struct kallsyms *ks;
	struct strpool *pool;
	struct kparse ps;
};

static long kload_lines(void *ctx, const char *text, size_t len, bool final)
{
	struct kload *k = ctx;

	return kallsyms__lines(k->ks, k->pool, &k->ps, text, len, final);
}

static void kload_too_long(void *ctx)
{
	struct kload *k = ctx;

	k->ks->nr_lines++;
	k->ks->nr_bad++;
}

/* Parses the lines of each chunk as kernel__kallsyms reads them:
 * /proc/kallsyms is over 5 MB of text, which need not be in memory at
 * once. */
struct kallsyms *kallsyms__load(const char *path, struct strpool *pool)
{
	struct kload k = { .pool = pool };
	const struct kernel_lines l = {
		.lines = kload_lines, .too_long = kload_too_long, .ctx = &k,
	};
	int err;

	k.ks = kallsyms__begin(pool);
	if (!k.ks)
		return NULL;
	err = kernel__kallsyms(path, &l);
	if (!err)
		err = kallsyms__end(k.ks, &k.ps);
	if (err) {
		kallsyms__free(k.ks);
		errno = -err;
		return NULL;
	}
	return k.ks;
}

void kallsyms__free(struct kallsyms *ks)
{
	if (!ks)
		return;
	if (ks->mf) {
		mapfile__close(ks->mf);
		free(ks->mf);
	}
	symtab__free(ks->st);
	free(ks->mods);
	free(ks);
}

/* A lookup in the cache file, guarded: the symbol and its name copied
 * out of the mapping, interned after (a fault in the middle of the pool
 * would leave it half changed). */
struct kread {
	struct kallsyms *ks;
	u64 addr;
	size_t i;		/* kallsyms__at's, or SIZE_MAX: by addr */
	int err;
	struct ksym y;
	char name[KSYM_NAME_MAX];
};

static void kread(void *arg)
{
	struct kread *r = arg;
	const struct kallsyms *ks = r->ks;
	const struct ksym *y = NULL;
	size_t lo = 0, hi = ks->nr_syms;

	r->err = -ENOENT;
	if (r->i != SIZE_MAX) {
		y = r->i < ks->nr_syms ? &ks->syms[r->i] : NULL;
	} else {
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (ks->syms[mid].addr <= r->addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t i = lo; !y && i > 0 && lo - i < WALK_BACK; i--)
			if (r->addr - ks->syms[i - 1].addr <
			    ks->syms[i - 1].size)
				y = &ks->syms[i - 1];
	}
	if (!y)
		return;
	r->y = *y;
	memcpy(r->name, ks->names + y->name_off, y->name_len);
	r->err = 0;
}

/* -ESTALE: the cache file was cut or changed under the table, which is
 * to be loaded again (never read again: every lookup answers so). */
static int ksym__read(struct kallsyms *ks, u64 addr, size_t i,
		      struct symtab_hit *hit)
{
	struct kread r = { .ks = ks, .addr = addr, .i = i };
	const char *name;

	memset(hit, 0, sizeof(*hit));
	if (mapfile__run(ks->mf, kread, &r))
		return -ESTALE;
	if (r.err)
		return r.err;
	name = strpool__intern(ks->pool, r.name, r.y.name_len);
	hit->start = r.y.addr;
	hit->size = r.y.size;
	hit->flags = SYM_F_KERNEL;
	hit->group = r.y.group;
	if (!name)
		return -ENOMEM;
	hit->name = hit->raw_name = name;
	return 0;
}

int kallsyms__lookup(struct kallsyms *ks, u64 addr, struct symtab_hit *hit)
{
	if (!ks->mf)
		return symtab__lookup(ks->st, addr, hit);
	return ksym__read(ks, addr, SIZE_MAX, hit);
}

size_t kallsyms__count(const struct kallsyms *ks)
{
	return ks->mf ? ks->nr_syms : symtab__count(ks->st);
}

int kallsyms__at(struct kallsyms *ks, size_t i, struct symtab_hit *hit)
{
	if (!ks->mf)
		return symtab__at(ks->st, i, hit);
	if (i >= ks->nr_syms) {
		memset(hit, 0, sizeof(*hit));
		return -ENOENT;
	}
	return ksym__read(ks, 0, i, hit);
}

/* The first and last of the kernel's own symbols (group 0) of a cache
 * file's table, read under its guard. */
struct kspan {
	const struct kallsyms *ks;
	bool found;
	u64 lo, hi;
};

static void kspan_read(void *arg)
{
	struct kspan *r = arg;
	const struct ksym *y = r->ks->syms;
	size_t n = r->ks->nr_syms, i = 0, j = n;

	while (i < n && y[i].group)
		i++;
	while (j > i && y[j - 1].group)
		j--;
	if (i < j) {
		r->found = true;
		r->lo = y[i].addr;
		r->hi = y[j - 1].addr + (y[j - 1].size ? y[j - 1].size - 1 : 0);
	}
}

/* The same of a parsed table: its named entries (ranges and data
 * boundaries have none). */
static void kspan_table(struct kallsyms *ks, struct kspan *r)
{
	size_t n = symtab__count(ks->st);
	struct symtab_hit hit;

	for (size_t i = 0; i < n; i++)
		if (!symtab__at_raw(ks->st, i, &hit) && hit.raw_name &&
		    !hit.group) {
			r->found = true;
			r->lo = hit.start;
			break;
		}
	for (size_t i = n; r->found && i > 0; i--)
		if (!symtab__at_raw(ks->st, i - 1, &hit) && hit.raw_name &&
		    !hit.group) {
			r->hi = hit.start + (hit.size ? hit.size - 1 : 0);
			break;
		}
}

bool kallsyms__beyond_kernel(struct kallsyms *ks, u64 addr)
{
	if (!ks->span_known) {
		struct kspan r = { .ks = ks };

		if (ks->mf) {
			if (mapfile__run(ks->mf, kspan_read, &r))
				return false;	/* -ESTALE: asked again */
		} else if (ks->st) {
			kspan_table(ks, &r);
		}
		ks->span_known = true;
		ks->span_lo = r.found ? r.lo : 0;
		ks->span_hi = r.found ? r.hi : UINT64_MAX;
	}
	return addr < ks->span_lo || addr > ks->span_hi;
}

const char *kallsyms__dso_name(const struct kallsyms *ks, u16 group)
{
	if (group && group <= ks->nr_mods)
		return ks->mods[group - 1];
	return "[kernel.kallsyms]";
}

/* ---- the cache ---- */

#define KCACHE_MAGIC "PTOPKSYM"
#define KCACHE_VERSION 2
#define BOOT_ID_LEN 36

struct kcache_hdr {
	char magic[8];
	u32 version, hdr_size;
	char boot_id[40];	/* NUL-padded */
	u8 build_id[BUILD_ID_MAX];
	u32 build_id_size;
	u32 pad;
	u64 modules_hash;
	u64 nr_syms, nr_mods, str_size, file_size;
	u64 csum;	/* of the whole file, with this field 0 */
};

/* What the running kernel is: the cache's key. */
struct kcache_key {
	char boot_id[40];
	u8 build_id[BUILD_ID_MAX];
	u32 build_id_size;
	u64 modules_hash;
};

/* The module list's hash: names, sizes and addresses (/proc/modules, a
 * few KB, cheap unlike kallsyms); 0 when there is none (a kernel
 * without modules). */
static u64 modules_hash(const char *path)
{
	u64 h = 0x9e3779b97f4a7c15ULL;
	struct strbuf sb;

	strbuf__init(&sb);
	if (kernel__modules(path, &sb))
		h = 0;
	else if (sb.len)
		h = hash_u64(h ^ hash_bytes(sb.buf, sb.len));
	strbuf__fini(&sb);
	return h;
}

static int kcache_key(const struct kallsyms_cache *c, struct kcache_key *k)
{
	char id[64];
	ssize_t n;
	int b;

	memset(k, 0, sizeof(*k));
	n = kernel__boot_id(c->boot_id, id, sizeof(id) - 1);
	if (n < BOOT_ID_LEN)
		return -ENOENT;
	for (int i = 0; i < BOOT_ID_LEN; i++) {
		char ch = id[i];

		if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
		      ch == '-'))
			return -EINVAL;
	}
	memcpy(k->boot_id, id, BOOT_ID_LEN);
	b = kernel__build_id(c->notes, k->build_id, sizeof(k->build_id));
	k->build_id_size = b > 0 ? (u32)b : 0;
	k->modules_hash = modules_hash(c->modules);
	return 0;
}

static int cache_path(const struct kallsyms_cache *c,
		      const struct kcache_key *k, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/kallsyms-%s", c->dir, k->boot_id);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static bool mul_add(u64 a, u64 b, u64 *acc)
{
	u64 m;

	return !__builtin_mul_overflow(a, b, &m) &&
	       !__builtin_add_overflow(*acc, m, acc);
}

/* The checksum of a cache file's bytes, its own field taken as 0: read
 * from fd, not from the mapping, whose pages only lookups make resident
 * (summed through the mapping, they were 1.7 MB more of RSS). */
static int cache_csum(int fd, const u8 *map, size_t size, u64 *out)
{
	struct kcache_hdr h;
	struct csum c;
	int err;

	memcpy(&h, map, sizeof(h));
	h.csum = 0;
	csum__init(&c);
	csum__add(&c, &h, sizeof(h));
	err = fd__csum(fd, sizeof(h), size - sizeof(h), &c);
	*out = csum__end(&c);
	return err;
}

/* Checks a cache file read whole against key: 0, -ESTALE (another
 * kernel's, another version's: made again quietly) or -EINVAL (damaged:
 * cut, changed bytes, or hostile). */
static int cache_valid(int fd, const u8 *map, size_t size,
		       const struct kcache_key *k)
{
	const struct kcache_hdr *h = (const void *)map;
	const struct ksym *syms;
	const struct kmod *mods;
	u64 want = sizeof(*h), prev = 0, sum;

	if (size < sizeof(*h) || memcmp(h->magic, KCACHE_MAGIC, 8) ||
	    h->version != KCACHE_VERSION || h->hdr_size != sizeof(*h))
		return size < sizeof(*h) ? -EINVAL : -ESTALE;
	if (memcmp(h->boot_id, k->boot_id, sizeof(h->boot_id)) ||
	    h->build_id_size != k->build_id_size ||
	    memcmp(h->build_id, k->build_id, sizeof(h->build_id)) ||
	    h->modules_hash != k->modules_hash)
		return -ESTALE;
	if (h->file_size != size || cache_csum(fd, map, size, &sum) ||
	    sum != h->csum ||
	    !h->nr_syms || h->nr_mods > UINT16_MAX ||
	    h->str_size > UINT32_MAX ||
	    !mul_add(h->nr_syms, sizeof(*syms), &want) ||
	    !mul_add(h->nr_mods, sizeof(*mods), &want) ||
	    !mul_add(h->str_size, 1, &want) || want != size)
		return -EINVAL;
	syms = (const void *)(map + sizeof(*h));
	mods = (const void *)(syms + h->nr_syms);
	for (u64 i = 0; i < h->nr_mods; i++)
		if (!mods[i].name_len || mods[i].name_len > KMOD_NAME_MAX ||
		    (u64)mods[i].name_off + mods[i].name_len > h->str_size)
			return -EINVAL;
	/* in address order, named inside the file, in a known group */
	for (u64 i = 0; i < h->nr_syms; i++) {
		const struct ksym *y = &syms[i];

		if (y->addr < prev || !y->name_len ||
		    y->name_len > KSYM_NAME_MAX || y->group > h->nr_mods ||
		    (u64)y->name_off + y->name_len > h->str_size)
			return -EINVAL;
		prev = y->addr;
	}
	return 0;
}

/* The table served from a valid cache file read whole (map: the heap
 * copy, which it keeps and frees). */
static struct kallsyms *from_cache(const u8 *map, struct strpool *pool)
{
	const struct kcache_hdr *h = (const void *)map;
	const struct kmod *mods;
	struct kallsyms *ks = calloc(1, sizeof(*ks));

	if (!ks)
		return NULL;
	ks->syms = (const void *)(map + sizeof(*h));
	ks->nr_syms = (size_t)h->nr_syms;
	mods = (const void *)(ks->syms + h->nr_syms);
	ks->names = (const char *)(mods + h->nr_mods);
	ks->pool = pool;
	ks->nr_lines = ks->nr_syms;
	for (u64 i = 0; i < h->nr_mods; i++) {
		u16 last = 0;

		/* a name twice would give another group: not ours */
		if (module_group(ks, pool, ks->names + mods[i].name_off,
				 mods[i].name_len, &last) != i + 1) {
			kallsyms__free(ks);
			errno = EINVAL;
			return NULL;
		}
	}
	return ks;
}

struct cache_open {
	int fd;
	const u8 *map;
	size_t size;
	const struct kcache_key *k;
	struct strpool *pool;
	int err;
	struct kallsyms *ks;
};

/* Guarded: the checks read the whole mapping. */
static void cache_check(void *arg)
{
	struct cache_open *a = arg;

	a->err = cache_valid(a->fd, a->map, a->size, a->k);
	if (!a->err)
		a->ks = from_cache(a->map, a->pool);
}

/*
 * The cache file, mapped and checked (its checksum, then its structure),
 * or NULL with *why: -ENOENT (none, or not a file of ours), -ESTALE
 * (another kernel's, another version's), -EAGAIN (replaced or changed
 * while checked: another run writing it), -EINVAL (damaged).
 * Mapped, not read into the heap: a copy cost every start 10 ms of CPU
 * and page faults here (doc/design.md, "Files ptop maps"); so every read
 * of it is guarded, and a file cut or changed while it is used makes the
 * lookups answer -ESTALE.
 */
static struct kallsyms *read_cache(const char *file,
				   const struct kcache_key *k,
				   struct strpool *pool, int *why)
{
	struct cache_open a = { .k = k, .pool = pool, .err = -EINVAL };
	struct mapfile *mf;
	struct stat st;
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	int rc;

	*why = -ENOENT;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() ||
	    st.st_size < (off_t)sizeof(struct kcache_hdr) ||
	    (u64)st.st_size > KALLSYMS_MAX || !(mf = malloc(sizeof(*mf)))) {
		close(fd);
		return NULL;
	}
	if (mapfile__open(mf, fd)) {
		free(mf);
		return NULL;
	}
	a.fd = mf->fd;
	a.map = mf->map;
	a.size = mf->size;
	rc = mapfile__run(mf, cache_check, &a);
	if (rc || a.err || !a.ks) {
		/* what a fault cut short (the table half made) is kept as
		 * it is; a table made whole from a file that changed since
		 * goes */
		if (rc == -EFAULT && a.ks)
			mapguard__keep(a.ks);
		else if (a.ks)
			kallsyms__free(a.ks);
		*why = rc == -ESTALE ? -EAGAIN : rc ? -EINVAL :
		       a.err ? a.err : -ENOMEM;
		mapfile__close(mf);
		free(mf);
		return NULL;
	}
	a.ks->mf = mf;
	*why = 0;
	return a.ks;
}

/* bufout's emit: the cache file's writes, summed as they go */
struct kcache_out {
	int fd;
	struct csum c;
};

static int kcache_emit(void *ctx, const void *buf, size_t len)
{
	struct kcache_out *o = ctx;

	csum__add(&o->c, buf, len);
	return fd__write_all(o->fd, buf, len, NULL);
}

/* The i-th symbol of the parsed table as the cache holds it: false when
 * the cache leaves it out (a range, no name, a name too long). */
static bool kcache_sym(struct kallsyms *ks, size_t i, struct ksym *y,
		       const char **name)
{
	struct symtab_hit hit;
	size_t len;

	/* the raw names: naming each would intern all of them */
	if (symtab__at_raw(ks->st, i, &hit) || !hit.raw_name)
		return false;
	len = strlen(hit.raw_name);
	if (!len || len > KSYM_NAME_MAX)
		return false;
	memset(y, 0, sizeof(*y));
	y->addr = hit.start;
	y->size = hit.size;
	y->group = hit.group;
	y->name_len = (u32)len;
	*name = hit.raw_name;
	return true;
}

/*
 * Writes the parsed ks to file atomically (a temporary file renamed
 * over): 0 or -errno.  The table is streamed out in passes through a
 * small buffer (the header's counts, the symbols, their names, the
 * module names), not copied whole: on the first run of a boot the
 * parsed table is most of ptop's memory already.
 */
static int write_cache(const char *file, struct kallsyms *ks,
		       const struct kcache_key *k)
{
	size_t n = symtab__count(ks->st), nr = 0;
	struct kcache_hdr h;
	struct kcache_out out;
	struct outfile of;
	struct bufout w;
	const char *name;
	struct ksym y;
	u64 str = 0;
	int err;

	if (!ks->st || ks->restricted || !n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (kcache_sym(ks, i, &y, &name)) {
			nr++;
			str += y.name_len;
		}
	for (size_t i = 0; i < ks->nr_mods; i++)
		str += strlen(ks->mods[i]) - 2;
	if (str > UINT32_MAX)
		return -EFBIG;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, KCACHE_MAGIC, 8);
	h.version = KCACHE_VERSION;
	h.hdr_size = sizeof(h);
	memcpy(h.boot_id, k->boot_id, sizeof(h.boot_id));
	memcpy(h.build_id, k->build_id, sizeof(h.build_id));
	h.build_id_size = k->build_id_size;
	h.modules_hash = k->modules_hash;
	h.nr_syms = nr;
	h.nr_mods = ks->nr_mods;
	h.str_size = str;
	h.file_size = sizeof(h) + nr * sizeof(struct ksym) +
		      ks->nr_mods * sizeof(struct kmod) + h.str_size;
	err = outfile__open(&of, file, OUTFILE_FILE_ONLY);
	if (err)
		return err;
	out.fd = of.fd;
	csum__init(&out.c);
	/* the header with a checksum of 0, then again with the sum */
	bufout__init(&w, kcache_emit, &out);
	bufout__add(&w, &h, sizeof(h));
	str = 0;
	for (size_t i = 0; i < n; i++)
		if (kcache_sym(ks, i, &y, &name)) {
			y.name_off = (u32)str;
			str += y.name_len;
			bufout__add(&w, &y, sizeof(y));
		}
	for (size_t i = 0; i < ks->nr_mods; i++) {
		struct kmod m = { (u32)str, (u32)(strlen(ks->mods[i]) - 2) };

		str += m.name_len;
		bufout__add(&w, &m, sizeof(m));
	}
	for (size_t i = 0; i < n; i++)
		if (kcache_sym(ks, i, &y, &name))
			bufout__add(&w, name, y.name_len);
	for (size_t i = 0; i < ks->nr_mods; i++)
		bufout__add(&w, ks->mods[i] + 1, strlen(ks->mods[i]) - 2);
	err = bufout__fini(&w);
	h.csum = csum__end(&out.c);
	if (!err)
		err = fd__pwrite_all(of.fd, &h, sizeof(h), 0);
	return outfile__finish(&of, err);
}

void kallsyms__make_cache(const char *path, const struct kallsyms_cache *c)
{
	struct kcache_key key;
	struct strpool *pool;
	struct kallsyms *ks;
	char file[4200];

	if (!c || !c->dir || kcache_key(c, &key) ||
	    cache_path(c, &key, file, sizeof(file)) || kernel__kallsyms_hidden(path) ||
	    cachedir__ok(c->dir))
		return;
	/* there, whole or not: kallsyms__load_cached's to check (and to
	 * say when it is damaged) */
	if (!faccessat(AT_FDCWD, file, F_OK, AT_SYMLINK_NOFOLLOW) ||
	    errno != ENOENT)
		return;
	/* names of its own: the caller's pool is not the worker's to use */
	pool = strpool__new();
	if (!pool)
		return;
	ks = kallsyms__load(path, pool);
	if (ks && !ks->restricted)
		write_cache(file, ks, &key);
	kallsyms__free(ks);
	strpool__free(pool);
}

struct kallsyms *kallsyms__load_cached(const char *path,
				       const struct kallsyms_cache *c,
				       struct strpool *pool,
				       enum kallsyms_from *from)
{
	enum kallsyms_from dummy;
	struct kcache_key key;
	char file[4200];
	struct kallsyms *ks;
	bool cache;
	int why;

	if (!from)
		from = &dummy;
	*from = KALLSYMS_PARSED;
	cache = c && c->dir && !kcache_key(c, &key) &&
		!cache_path(c, &key, file, sizeof(file)) &&
		!kernel__kallsyms_hidden(path) && !cachedir__ok(c->dir);
	if (!cache)
		return kallsyms__load(path, pool);
	ks = read_cache(file, &key, pool, &why);
	/* another run wrote it while it was checked: it is whole now */
	if (!ks && why == -EAGAIN)
		ks = read_cache(file, &key, pool, &why);
	if (ks) {
		*from = KALLSYMS_CACHED;
		return ks;
	}
	if (why == -EINVAL)
		pr_warn("the kallsyms cache %s was damaged: made again", file);
	ks = kallsyms__load(path, pool);
	if (ks && !write_cache(file, ks, &key)) {
		/* the file written, read back: the parsed table is let go */
		struct kallsyms *mapped = read_cache(file, &key, pool, &why);

		*from = KALLSYMS_PARSED_SAVED;
		if (mapped) {
			kallsyms__free(ks);
			ks = mapped;
		}
	}
	return ks;
}

