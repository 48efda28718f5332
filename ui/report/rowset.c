/* rowset: display rows grouped and sorted from a snapshot (pure). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "symbols/symbolizer.h"
#include "ui/report/rowset.h"

/* Inlined functions at one address, at most. */
#define MAX_INLINE 16

static const char *const key_names[SORT__MAX] = {
	[SORT_OVERHEAD] = "overhead",
	[SORT_SAMPLES] = "sample",
	[SORT_PERIOD] = "period",
	[SORT_DELTA] = "delta",
	[SORT_ABSDELTA] = "absdelta",
	[SORT_SYM] = "sym",
	[SORT_DSO] = "dso",
	[SORT_COMM] = "comm",
	[SORT_PID] = "pid",
	[SORT_TID] = "tid",
	[SORT_CPU] = "cpu",
	[SORT_CGROUP] = "cgroup",
	[SORT_STATE] = "state",
};

const char *sort_key__name(enum sort_key k)
{
	return k < SORT__MAX ? key_names[k] : "?";
}

int sort_key__parse(const char *name, enum sort_key *k)
{
	for (int i = 0; i < SORT__MAX; i++) {
		if (strcmp(name, key_names[i]) == 0) {
			*k = (enum sort_key)i;
			return 0;
		}
	}
	if (strcmp(name, "samples") == 0) {
		*k = SORT_SAMPLES;
		return 0;
	}
	if (strcmp(name, "symbol") == 0) {
		*k = SORT_SYM;
		return 0;
	}
	return -EINVAL;
}

bool sort_key__groups(enum sort_key k)
{
	return k >= SORT_SYM && k < SORT__MAX;
}

void sort_spec__default(struct sort_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->group[0] = SORT_DSO;
	spec->group[1] = SORT_SYM;
	spec->nr_group = 2;
	spec->order = SORT_OVERHEAD;
}

bool sort_spec__has(const struct sort_spec *spec, enum sort_key k)
{
	for (size_t i = 0; i < spec->nr_group; i++)
		if (spec->group[i] == k)
			return true;
	return false;
}

int sort_spec__parse(const char *list, struct sort_spec *spec,
		     struct strbuf *err)
{
	char buf[256], *tok, *save = NULL;

	memset(spec, 0, sizeof(*spec));
	spec->order = SORT_OVERHEAD;
	if (strlen(list) >= sizeof(buf)) {
		strbuf__adds(err, "sort key list too long");
		return -EINVAL;
	}
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		enum sort_key k;

		if (sort_key__parse(tok, &k)) {
			strbuf__addf(err, "unknown sort key '%s' (valid:", tok);
			for (int i = 0; i < SORT__MAX; i++)
				strbuf__addf(err, " %s", key_names[i]);
			strbuf__adds(err, ")");
			return -EINVAL;
		}
		if (!sort_key__groups(k)) {
			spec->order = k;
			continue;
		}
		if (!sort_spec__has(spec, k))
			spec->group[spec->nr_group++] = k;
	}
	if (!spec->nr_group) {
		spec->group[0] = SORT_DSO;
		spec->group[1] = SORT_SYM;
		spec->nr_group = 2;
	}
	return 0;
}

unsigned int sort_spec__key_fields(const struct sort_spec *spec)
{
	unsigned int kf = 0;

	if (sort_spec__has(spec, SORT_PID))
		kf |= KEY_PID | KEY_COMM;
	if (sort_spec__has(spec, SORT_TID))
		kf |= KEY_PID | KEY_TID | KEY_COMM;
	if (sort_spec__has(spec, SORT_COMM))
		kf |= KEY_COMM;
	if (sort_spec__has(spec, SORT_CPU))
		kf |= KEY_CPU;
	if (sort_spec__has(spec, SORT_CGROUP))
		kf |= KEY_CGROUP;
	if (sort_spec__has(spec, SORT_STATE))
		kf |= KEY_STATE;
	return kf;
}

void rowset__init(struct rowset *rs)
{
	memset(rs, 0, sizeof(*rs));
}

static void rowset_memo__free(struct rowset_memo *m);

void rowset__fini(struct rowset *rs)
{
	free(rs->rows);
	free(rs->slots);
	rowset_memo__free(rs->memo);
	memset(rs, 0, sizeof(*rs));
}

double rowset__percent(const struct rowset *rs, const struct row *r)
{
	if (rs->total_period)
		return 100.0 * (double)r->period / (double)rs->total_period;
	if (rs->total_samples)
		return 100.0 * (double)r->samples / (double)rs->total_samples;
	return 0.0;
}

double rowset__percent_children(const struct rowset *rs, const struct row *r)
{
	if (rs->total_period)
		return 100.0 * (double)r->children_period /
		       (double)rs->total_period;
	if (rs->total_samples)
		return 100.0 * (double)r->children_samples /
		       (double)rs->total_samples;
	return 0.0;
}

/* The identity of a row under spec: the grouped fields, others zero. */
struct group_key {
	const struct dso *dso;
	const char *dso_name;
	const char *inlined;	/* an inlined function's row: its name */
	u64 sym;
	const char *comm;
	const char *cgroup;
	s32 pid, tid, cpu;
	u32 resolved;
	u32 state;
};

static void group_key__make(struct group_key *g, const struct sort_spec *spec,
			    const struct row *r)
{
	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < spec->nr_group; i++) {
		switch (spec->group[i]) {
		case SORT_SYM:
			g->dso = r->dso;
			g->dso_name = r->dso_name;
			g->resolved = r->sym != NULL;
			g->sym = r->sym ? r->sym_start : r->addr;
			/* by name: inlined into several functions, one row */
			if (r->inlined) {
				g->inlined = r->sym;
				g->sym = 0;
			}
			break;
		case SORT_DSO:
			g->dso = r->dso;
			g->dso_name = r->dso_name;
			break;
		case SORT_COMM:
			g->comm = r->comm;
			break;
		case SORT_PID:
			g->pid = r->pid;
			g->comm = r->comm;
			break;
		case SORT_TID:
			g->pid = r->pid;
			g->tid = r->tid;
			g->comm = r->comm;
			break;
		case SORT_CPU:
			g->cpu = r->cpu;
			break;
		case SORT_CGROUP:
			g->cgroup = r->cgroup;
			break;
		case SORT_STATE:
			g->state = r->state;
			break;
		default:
			break;
		}
	}
}

static u64 group_key__hash(const struct group_key *g)
{
	return hash_bytes(g, sizeof(*g));
}

static bool contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (!n)
		return true;
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return false;
}

static int rowset__regroup(struct rowset *rs, const struct sort_spec *spec,
			   size_t want)
{
	size_t n = 64;

	while (n < want * 2)
		n *= 2;
	if (n > rs->nslots) {
		u32 *s = realloc(rs->slots, n * sizeof(*s));

		if (!s)
			return -ENOMEM;
		rs->slots = s;
		rs->nslots = n;
	}
	memset(rs->slots, 0xff, rs->nslots * sizeof(*rs->slots));
	for (size_t i = 0; i < rs->nr; i++) {
		struct group_key g;
		size_t j;

		group_key__make(&g, spec, &rs->rows[i]);
		j = group_key__hash(&g) & (rs->nslots - 1);
		while (rs->slots[j] != UINT32_MAX)
			j = (j + 1) & (rs->nslots - 1);
		rs->slots[j] = (u32)i;
	}
	return 0;
}

static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int cmp_key(const struct row *a, const struct row *b, enum sort_key k,
		   bool children)
{
	switch (k) {
	case SORT_OVERHEAD:
		if (children && a->children_period != b->children_period)
			return a->children_period > b->children_period ? -1 : 1;
		/* fall through */
	case SORT_PERIOD:
		if (a->period != b->period)
			return a->period > b->period ? -1 : 1;
		return 0;
	case SORT_SAMPLES:
		if (a->samples != b->samples)
			return a->samples > b->samples ? -1 : 1;
		return 0;
	case SORT_DELTA:
	case SORT_ABSDELTA: {
		double x = children ? a->children_delta : a->delta;
		double y = children ? b->children_delta : b->delta;

		if (k == SORT_ABSDELTA) {
			x = x < 0 ? -x : x;
			y = y < 0 ? -y : y;
		}
		if (x != y)
			return x > y ? -1 : 1;
		/* vanished rows (no period) after the others */
		if (a->cmp != b->cmp)
			return a->cmp == CMP_GONE ? 1 :
			       b->cmp == CMP_GONE ? -1 : 0;
		return 0;
	}
	case SORT_SYM:
		if (!a->sym || !b->sym) {
			if (a->sym || b->sym)
				return a->sym ? -1 : 1;
			return a->addr < b->addr ? -1 : a->addr > b->addr;
		}
		return strcmp(a->sym, b->sym);
	case SORT_DSO:
		return cmp_str(a->dso_name, b->dso_name);
	case SORT_COMM:
		return cmp_str(a->comm, b->comm);
	case SORT_PID:
		return a->pid < b->pid ? -1 : a->pid > b->pid;
	case SORT_TID:
		return a->tid < b->tid ? -1 : a->tid > b->tid;
	case SORT_CPU:
		return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	case SORT_CGROUP:
		return cmp_str(a->cgroup, b->cgroup);
	case SORT_STATE:
		return a->state < b->state ? -1 : a->state > b->state;
	default:
		return 0;
	}
}

/* The chosen key (inverted with I), then overhead, then every grouped
 * key: a total order, so that equal inputs give equal tables. */
static int row_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct sort_spec *cmp_spec = ctx;
	const struct row *a = pa, *b = pb;
	bool ch = cmp_spec->children;
	int c = cmp_key(a, b, cmp_spec->order, ch);

	if (c)
		return cmp_spec->invert ? -c : c;
	c = cmp_key(a, b, SORT_OVERHEAD, ch);
	if (c)
		return c;
	c = cmp_key(a, b, SORT_SAMPLES, ch);
	if (c)
		return c;
	for (size_t i = 0; i < cmp_spec->nr_group; i++) {
		c = cmp_key(a, b, cmp_spec->group[i], ch);
		if (c)
			return c;
	}
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Finds the row with r's identity under spec, or appends r; returns its
 * index or -ENOMEM. */
static long rowset__find_or_add(struct rowset *rs, const struct sort_spec *spec,
				const struct row *r)
{
	struct group_key g;
	size_t j;

	group_key__make(&g, spec, r);
	j = group_key__hash(&g) & (rs->nslots - 1);
	for (; rs->slots[j] != UINT32_MAX; j = (j + 1) & (rs->nslots - 1)) {
		struct group_key og;

		group_key__make(&og, spec, &rs->rows[rs->slots[j]]);
		if (memcmp(&og, &g, sizeof(g)) == 0)
			return rs->slots[j];
	}
	if (rs->nr >= UINT32_MAX - 1 ||
	    array__grow((void **)&rs->rows, &rs->cap, rs->nr + 1,
			sizeof(*rs->rows)))
		return -ENOMEM;
	rs->rows[rs->nr] = *r;
	rs->slots[j] = (u32)rs->nr++;
	if (rs->nr * 2 > rs->nslots && rowset__regroup(rs, spec, rs->nr * 2))
		return -ENOMEM;
	return (long)(rs->nr - 1);
}

/*
 * The per-snapshot memo (struct rowset_memo).  Each distinct (dso,
 * address) of the snapshot is resolved once (an fsym); chain nodes and
 * entries point at theirs.  On first use after a build, the paths
 * index: every entry's frames, root first, each with the id of its
 * group key (what identifies a row under the grouping), and for each
 * key the entries whose path holds it with its outermost position.
 * Trees, neighbours and paths then read the entries of one key, or each
 * entry once: one pass over the chains per build, not one per row.
 */
#define NONE UINT32_MAX

struct fsym {
	const struct dso *dso;
	u64 addr;		/* chain frames: the return address - 1 */
	/* an entry's own frame with hist_key.whole: the function, not an
	 * address in it (no inlined frames) */
	bool whole;
	struct row_sym sym;	/* no name: start = addr */
	u32 key[2];		/* group key as a leaf [0], as a chain frame
				 * [1]; NONE: not known yet */
	/* the build's row of this frame as a caller (Children), when the
	 * grouping looks at no entry field: ROW_UNSET, ROW_HIDDEN or its
	 * index */
	long row;
};

/* An occurrence of a group key in a path: its outermost frame. */
struct occ {
	u32 key, ent, from;
};

#define ROW_UNSET (-1L)
#define ROW_HIDDEN (-2L)

struct rowset_memo {
	struct fsym *fs;
	size_t nr_fs, cap_fs;
	u32 *fs_slots;		/* (dso, addr) -> fs */
	size_t nfs_slots;
	u32 *node_fs;		/* chain node -> fs, NONE: not yet */
	size_t cap_node;
	u32 *entry_fs;		/* entry -> fs of its own address */
	size_t cap_entry;
	bool entry_fields;	/* the grouping looks at comm/pid/tid/cpu */
	bool has_pid, has_tid;	/* the build's zoom */
	s32 pid, tid;
	bool has_cgroup;
	const char *cgroup;
	/* the inline lookups asked for the snapshot's frames */
	cg_inline_fn inl_fn;
	void *inl_ctx;
	/* the paths index */
	bool indexed;
	u32 *ent_off;		/* entry i: frames [ent_off[i], ent_off[i+1]) */
	size_t cap_ent_off;
	/* the frames, root first; their group keys are the frames' own
	 * (fsym.key) unless the grouping looks at entry fields, which
	 * alone fill fr_key (path_key) */
	u32 *fr_fs, *fr_key;
	size_t nr_fr, cap_fr_fs, cap_fr_key;
	struct group_key *keys;
	size_t nr_keys, cap_keys;
	u32 *key_slots;
	size_t nkey_slots;
	u32 *key_off;		/* key k: occurrences [key_off[k], key_off[k+1]) */
	size_t cap_key_off;
	u32 *occ_ent, *occ_from;
	size_t cap_occ_ent, cap_occ_from;
	u32 *stamp;		/* key -> last entry + 1 that holds it */
	size_t nr_stamp, cap_stamp;
	u32 *key_next;		/* the counting sort's next slot per key */
	size_t cap_key_next;
	/* caller-order trees: trie node -> tree node, where tmark[id] is
	 * tree_mark (rowset__tree_caller) */
	u32 *tnode, *tmark;
	size_t cap_tnode, cap_tmark, nr_tmark;
	u32 tree_mark;
	/* What the next build may keep (rowset__set_answers_gen): the
	 * answers, the chains' frames and the index of the entries that are
	 * the same, when the last build finished under the same grouping,
	 * zoom, resolver and chains. */
	bool reusable;
	u64 gen;
	row_resolve_fn resolve;
	void *resolve_ctx;
	enum sort_key group[SORT__MAX];
	size_t nr_group;
	const void *chains_owner;
	u64 chains_epoch;
	size_t nr_chains;
	u64 *ent_hash;		/* entry i's key, hashed */
	size_t nr_ent_hash, cap_ent_hash;
	u32 *prov;		/* fsyms whose answer may change */
	size_t nr_prov, cap_prov;
	/* the occurrences of the entries indexed since the last merge (a
	 * build cut short leaves some), in entry order; merged into
	 * occ_ent and occ_from, which hold nr_sorted of them for the keys
	 * [0, nr_sorted_keys), then let go when it is big beside them
	 * (index__merge) */
	struct occ *occ;
	size_t nr_occ, cap_occ;
	u32 nr_sorted, nr_sorted_keys;
	size_t index_from;	/* entries [0, index_from) are indexed */
};

/* The memo's arrays (allocated sizes), for the -vv figures. */
static size_t rowset_memo__bytes(const struct rowset_memo *m)
{
	if (!m)
		return 0;
	return sizeof(*m) + m->cap_fs * sizeof(*m->fs) +
	       m->nfs_slots * sizeof(*m->fs_slots) +
	       (m->cap_node + m->cap_entry + m->cap_ent_off + m->cap_fr_fs +
		m->cap_fr_key + m->nkey_slots + m->cap_key_off +
		m->cap_occ_ent + m->cap_occ_from + m->cap_stamp +
		m->cap_key_next + m->cap_tnode + m->cap_tmark +
		m->cap_prov) * sizeof(u32) +
	       m->cap_keys * sizeof(*m->keys) +
	       m->cap_ent_hash * sizeof(*m->ent_hash) +
	       m->cap_occ * sizeof(*m->occ);
}

size_t rowset__bytes(const struct rowset *rs)
{
	return rs->cap * sizeof(*rs->rows) + rs->nslots * sizeof(*rs->slots) +
	       rowset_memo__bytes(rs->memo);
}

static void rowset_memo__free(struct rowset_memo *m)
{
	if (!m)
		return;
	free(m->fs);
	free(m->fs_slots);
	free(m->node_fs);
	free(m->entry_fs);
	free(m->ent_off);
	free(m->fr_fs);
	free(m->fr_key);
	free(m->keys);
	free(m->key_slots);
	free(m->key_off);
	free(m->occ_ent);
	free(m->occ_from);
	free(m->stamp);
	free(m->key_next);
	free(m->tnode);
	free(m->tmark);
	free(m->ent_hash);
	free(m->prov);
	free(m->occ);
	free(m);
}

/* The address a frame shows when it has no symbol: chain frames hold the
 * return address minus one, for the symbol and line lookups; perf shows
 * the return address itself. */
static u64 frame__show(u64 addr, bool chain)
{
	return chain ? addr + 1 : addr;
}

static u64 fsym__hash(const struct dso *dso, u64 addr, bool whole)
{
	return hash_u64(addr * 0x9e3779b97f4a7c15ULL ^ (u64)(uintptr_t)dso ^
			(u64)whole << 63);
}

static int memo__fs_rehash(struct rowset_memo *m, size_t n)
{
	u32 *s = malloc(n * sizeof(*s));

	if (!s)
		return -ENOMEM;
	memset(s, 0xff, n * sizeof(*s));
	for (size_t i = 0; i < m->nr_fs; i++) {
		size_t j = fsym__hash(m->fs[i].dso, m->fs[i].addr,
				      m->fs[i].whole) &
			   (n - 1);

		while (s[j] != NONE)
			j = (j + 1) & (n - 1);
		s[j] = (u32)i;
	}
	free(m->fs_slots);
	m->fs_slots = s;
	m->nfs_slots = n;
	return 0;
}

/* What resolve says of (dso, addr), as an fsym holds it: the dso's own
 * name when it names none, the address as the start of no symbol; a
 * lookup that failed is provisional (asked again at the next build). */
static void rowset__resolve(struct rowset *rs, const struct dso *dso,
			    u64 addr, struct row_sym *out)
{
	if (rs->resolve(rs->resolve_ctx, dso, addr, out)) {
		memset(out, 0, sizeof(*out));
		out->flags = SYM_F_PROVISIONAL;
	}
	if (!out->dso_name)
		out->dso_name = dso->name;
	if (!out->name)
		out->start = addr;
}

/* The fsym of (dso, addr, whole), resolved on first sight; NONE on
 * ENOMEM. */
static u32 rowset__fsym(struct rowset *rs, const struct dso *dso, u64 addr,
			bool whole)
{
	struct rowset_memo *m = rs->memo;
	struct fsym *f;
	size_t j;

	if (m->nr_fs * 2 >= m->nfs_slots &&
	    memo__fs_rehash(m, m->nfs_slots ? m->nfs_slots * 2 : 1024))
		return NONE;
	j = fsym__hash(dso, addr, whole) & (m->nfs_slots - 1);
	for (; m->fs_slots[j] != NONE; j = (j + 1) & (m->nfs_slots - 1)) {
		f = &m->fs[m->fs_slots[j]];
		if (f->dso == dso && f->addr == addr && f->whole == whole)
			return m->fs_slots[j];
	}
	if (m->nr_fs >= NONE - 1 ||
	    array__grow((void **)&m->fs, &m->cap_fs, m->nr_fs + 1,
			sizeof(*m->fs)))
		return NONE;
	f = &m->fs[m->nr_fs];
	memset(f, 0, sizeof(*f));
	f->dso = dso;
	f->addr = addr;
	f->whole = whole;
	f->key[0] = f->key[1] = NONE;
	f->row = ROW_UNSET;
	rowset__resolve(rs, dso, addr, &f->sym);
	/* asked again at the next build (rowset__memo_recheck); with no
	 * room to remember it, the next build starts over */
	if (f->sym.flags & SYM_F_PROVISIONAL) {
		if (array__grow((void **)&m->prov, &m->cap_prov, m->nr_prov + 1,
				sizeof(*m->prov)))
			m->gen = 0;
		else
			m->prov[m->nr_prov++] = (u32)m->nr_fs;
	}
	m->fs_slots[j] = (u32)m->nr_fs;
	return (u32)m->nr_fs++;
}

/* The fsym of chain node id; NONE on ENOMEM. */
static u32 rowset__node_fs(struct rowset *rs, u32 id)
{
	struct rowset_memo *m = rs->memo;

	if (m->node_fs[id] == NONE) {
		const struct cc_node *nd = &rs->snap->chains[id];

		m->node_fs[id] = rowset__fsym(rs, nd->dso, nd->addr, false);
	}
	return m->node_fs[id];
}

/* The fsym of entry i's own address; NONE on ENOMEM. */
static u32 rowset__entry_fs(struct rowset *rs, size_t i)
{
	struct rowset_memo *m = rs->memo;

	if (m->entry_fs[i] == NONE) {
		const struct hist_entry *e = &rs->snap->entries[i];

		m->entry_fs[i] = rowset__fsym(rs, e->key.dso, e->key.addr,
					      e->key.whole);
	}
	return m->entry_fs[i];
}

static bool spec__entry_fields(const struct sort_spec *spec)
{
	return sort_spec__has(spec, SORT_COMM) ||
	       sort_spec__has(spec, SORT_PID) ||
	       sort_spec__has(spec, SORT_TID) ||
	       sort_spec__has(spec, SORT_CPU) ||
	       sort_spec__has(spec, SORT_CGROUP) ||
	       sort_spec__has(spec, SORT_STATE);
}

void rowset__set_answers_gen(struct rowset *rs, u64 gen)
{
	rs->answers_gen = gen;
}

/* The provisional answers asked again: false when one changed (what was
 * made from it is wrong), true when all are the same; those now final
 * leave the list. */
static bool rowset__memo_recheck(struct rowset *rs)
{
	struct rowset_memo *m = rs->memo;
	size_t k = 0;

	for (size_t i = 0; i < m->nr_prov; i++) {
		struct fsym *f = &m->fs[m->prov[i]];
		struct row_sym now;

		rowset__resolve(rs, f->dso, f->addr, &now);
		if (now.name != f->sym.name || now.start != f->sym.start ||
		    now.size != f->sym.size || now.dso_name != f->sym.dso_name ||
		    (now.flags ^ f->sym.flags) & ~(u32)SYM_F_PROVISIONAL)
			return false;
		f->sym.flags = now.flags;
		if (now.flags & SYM_F_PROVISIONAL)
			m->prov[k++] = m->prov[i];
	}
	m->nr_prov = k;
	return true;
}

/* Whether the last build's memo serves this one: see struct rowset_memo. */
static bool rowset__memo_keeps(struct rowset *rs, const struct snapshot *snap,
			       const struct sort_spec *spec,
			       const struct row_filter *f)
{
	const struct rowset_memo *m = rs->memo;

	return m->reusable && rs->answers_gen && m->gen == rs->answers_gen &&
	       m->resolve == rs->resolve && m->resolve_ctx == rs->resolve_ctx &&
	       m->nr_group == spec->nr_group &&
	       memcmp(m->group, spec->group,
		      spec->nr_group * sizeof(*spec->group)) == 0 &&
	       m->has_pid == f->has_pid && m->has_tid == f->has_tid &&
	       m->pid == f->pid && m->tid == f->tid &&
	       m->has_cgroup == f->has_cgroup && m->cgroup == f->cgroup &&
	       m->chains_owner == snap->chains_owner &&
	       m->chains_epoch == snap->chains_epoch &&
	       snap->nr_chains >= m->nr_chains;
}

/* hist_key is zeroed and compared whole (hist.h): its words, mixed. */
_Static_assert(sizeof(struct hist_key) % sizeof(u64) == 0,
	       "hist_key is hashed by words");
static u64 entry_key__hash(const struct hist_key *k)
{
	u64 w[sizeof(*k) / sizeof(u64)], h = 0;

	memcpy(w, k, sizeof(w));
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		h = hash_u64(h ^ w[i]);
	return h;
}

/* A new build: what the memo may keep of the last one (the answers, the
 * chains' frames, the index of the first entries that are the same) is
 * kept, the rest forgotten. */
/* The paths index without the entries from same on: their occurrences
 * leave the merged arrays (a key's are in entry order: a tail of each)
 * and the ones not merged yet (in entry order: a tail). */
static void index__cut(struct rowset_memo *m, u32 same)
{
	u32 w = 0;

	for (u32 k = 0; k < m->nr_sorted_keys; k++) {
		u32 o = m->key_off[k], end = m->key_off[k + 1];

		m->key_off[k] = w;
		for (; o < end && m->occ_ent[o] < same; o++, w++) {
			m->occ_ent[w] = m->occ_ent[o];
			m->occ_from[w] = m->occ_from[o];
		}
	}
	if (m->nr_sorted_keys)
		m->key_off[m->nr_sorted_keys] = w;
	m->nr_sorted = w;
	while (m->nr_occ && m->occ[m->nr_occ - 1].ent >= same)
		m->nr_occ--;
}

static int rowset__memo_begin(struct rowset *rs, const struct snapshot *snap,
			      const struct sort_spec *spec,
			      const struct row_filter *f)
{
	struct rowset_memo *m = rs->memo;
	size_t same = 0, keep_chains = 0;
	bool keep;

	if (!m) {
		m = calloc(1, sizeof(*m));
		if (!m)
			return -ENOMEM;
		rs->memo = m;
	}
	/* answers no entry or chain holds any more (folded addresses,
	 * decayed or zeroed entries) are forgotten once they are most of
	 * the table: a long run keeps what its snapshots show */
	keep = m->nr_fs <= 2 * (snap->nr + snap->nr_chains) + 4096 &&
	       rowset__memo_keeps(rs, snap, spec, f) &&
	       rowset__memo_recheck(rs);
	m->reusable = false;	/* until this build ends well */
	if (array__grow((void **)&m->node_fs, &m->cap_node,
			snap->nr_chains ? snap->nr_chains : 1,
			sizeof(*m->node_fs)) ||
	    array__grow((void **)&m->entry_fs, &m->cap_entry,
			snap->nr ? snap->nr : 1, sizeof(*m->entry_fs)) ||
	    array__grow((void **)&m->ent_hash, &m->cap_ent_hash,
			snap->nr ? snap->nr : 1, sizeof(*m->ent_hash)) ||
	    /* room for the entries' own addresses at once: grown a
	     * doubling at a time, the answers were copied into fresh
	     * pages over and over (6 % of ptop -i of a gcc recording) */
	    array__grow((void **)&m->fs, &m->cap_fs, m->nr_fs + snap->nr,
			sizeof(*m->fs)))
		return -ENOMEM;
	/* the entries that are the same come first: the table grows at
	 * its end (session.c keeps the order) */
	for (size_t i = 0; i < snap->nr; i++) {
		u64 h = entry_key__hash(&snap->entries[i].key);

		if (keep && same == i && i < m->nr_ent_hash &&
		    m->ent_hash[i] == h)
			same++;
		m->ent_hash[i] = h;
	}
	m->nr_ent_hash = snap->nr;
	if (keep) {
		keep_chains = m->nr_chains;
		for (size_t i = 0; i < m->nr_fs; i++)
			m->fs[i].row = ROW_UNSET;
	} else {
		m->nr_fs = 0;
		if (m->nfs_slots)
			memset(m->fs_slots, 0xff,
			       m->nfs_slots * sizeof(*m->fs_slots));
		m->nr_prov = 0;
		m->nr_keys = 0;
		if (m->nkey_slots)
			memset(m->key_slots, 0xff,
			       m->nkey_slots * sizeof(*m->key_slots));
		m->index_from = 0;
	}
	memset(m->node_fs + keep_chains, 0xff,
	       (snap->nr_chains - keep_chains) * sizeof(*m->node_fs));
	memset(m->entry_fs + same, 0xff, (snap->nr - same) * sizeof(*m->entry_fs));
	/* the index keeps the entries that are the same */
	if (m->index_from > same) {
		m->index_from = same;
		m->nr_fr = same ? m->ent_off[same] : 0;
		index__cut(m, (u32)same);
	}
	if (!m->index_from) {
		m->nr_occ = m->nr_fr = 0;
		m->nr_sorted = m->nr_sorted_keys = 0;
	}
	m->indexed = false;
	m->gen = rs->answers_gen;
	m->resolve = rs->resolve;
	m->resolve_ctx = rs->resolve_ctx;
	m->nr_group = spec->nr_group;
	memcpy(m->group, spec->group, spec->nr_group * sizeof(*spec->group));
	m->chains_owner = snap->chains_owner;
	m->chains_epoch = snap->chains_epoch;
	m->nr_chains = snap->nr_chains;
	m->entry_fields = spec__entry_fields(spec);
	m->has_pid = f->has_pid;
	m->has_tid = f->has_tid;
	m->pid = f->pid;
	m->tid = f->tid;
	m->has_cgroup = f->has_cgroup;
	m->cgroup = f->cgroup;
	m->inl_fn = NULL;
	m->inl_ctx = NULL;
	return 0;
}

/* A row for (dso, addr, sym) carrying the entry's other fields. */
static void row__make(struct row *r, const struct hist_entry *e,
		      const struct dso *dso, u64 addr, const struct row_sym *sym)
{
	memset(r, 0, sizeof(*r));
	r->dso = dso;
	r->dso_name = sym->dso_name;
	r->sym = sym->name;
	r->sym_start = sym->name ? sym->start : addr;
	r->sym_size = sym->name ? sym->size : 0;
	r->addr = addr;
	r->sym_flags = sym->flags;
	r->kernel = dso->kind == DSO_KERNEL;
	r->comm = e->key.comm;
	r->cgroup = e->key.cgroup;
	r->pid = e->key.pid;
	r->tid = e->key.tid;
	r->cpu = e->key.cpu;
	r->state = e->key.state;
}

/* The filters that look at a row's object and symbol. */
static bool row__visible(const struct row_filter *f, const struct row *r)
{
	if (f->hide_kernel && r->dso->kind == DSO_KERNEL)
		return false;
	if (f->hide_user && r->dso->kind != DSO_KERNEL)
		return false;
	if (f->dso && r->dso != f->dso)
		return false;
	if (f->dso_name && strcmp(r->dso_name, f->dso_name) != 0)
		return false;
	if (f->sym_substr && *f->sym_substr &&
	    (!r->sym || !contains_nocase(r->sym, f->sym_substr)))
		return false;
	return true;
}

static bool entry__visible(const struct row_filter *f,
			   const struct hist_entry *e)
{
	return !(f->has_pid && e->key.pid != f->pid) &&
	       !(f->has_tid && e->key.tid != f->tid) &&
	       !(f->has_cgroup && e->key.cgroup != f->cgroup);
}

/* The cancel hook's answer (rowset__set_cancel), asked at each chain or
 * entry: the hook keeps its own pace (table__cancelled reads the clock
 * once in 64 calls). */
static bool rowset__cancelled(struct rowset *rs)
{
	return rs->cancel && rs->cancel(rs->cancel_ctx);
}

/* Children by walking every chain: each entry's period goes once to
 * every row on it, each frame asked whether its row is shown (when the
 * group key does not decide it: filter__by_key). */
static int rowset__children_walk(struct rowset *rs, const struct snapshot *snap,
			    const struct sort_spec *spec,
			    const struct row_filter *f, const long *entry_row)
{
	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		u32 stamp = (u32)i + 1, id = e->key.chain;

		/* the chain's leaf node is the sampled ip: the entry itself */
		if (id && id < snap->nr_chains)
			id = snap->chains[id].parent;

		if (!entry__visible(f, e))
			continue;
		if (rowset__cancelled(rs))
			return -ECANCELED;
		if (entry_row[i] >= 0) {
			struct row *r = &rs->rows[entry_row[i]];

			r->children_samples += e->samples;
			r->children_period += e->period;
			r->stamp = stamp;
		}
		for (; id && id < snap->nr_chains; id = snap->chains[id].parent) {
			const struct cc_node *nd = &snap->chains[id];
			u32 fi = rowset__node_fs(rs, id);
			struct fsym *fs;
			struct row fr, *r;
			long k;

			if (fi == NONE)
				return -ENOMEM;
			fs = &rs->memo->fs[fi];
			/* the frame's row, made and found once per build when
			 * no entry field takes part in it */
			k = rs->memo->entry_fields ? ROW_UNSET : fs->row;
			if (k == ROW_UNSET) {
				row__make(&fr, e, nd->dso,
					  frame__show(nd->addr, true), &fs->sym);
				k = row__visible(f, &fr) ?
					    rowset__find_or_add(rs, spec, &fr) :
					    ROW_HIDDEN;
				if (k < 0 && k != ROW_HIDDEN)
					return (int)k;
				if (!rs->memo->entry_fields)
					fs->row = k;
			}
			if (k == ROW_HIDDEN)
				continue;
			r = &rs->rows[k];
			if (r->stamp == stamp)
				continue;	/* recursion: once per sample */
			r->children_samples += e->samples;
			r->children_period += e->period;
			r->stamp = stamp;
		}
	}
	return 0;
}

/* Whether a row's group key decides what the filters say of every frame
 * it stands for: then the Children come from the index.  Not so for a
 * symbol filter without grouping by symbol, or a kernel, user or object
 * filter without grouping by object: each frame is asked. */
static bool filter__by_key(const struct sort_spec *spec,
			   const struct row_filter *f)
{
	bool sym = sort_spec__has(spec, SORT_SYM);
	bool dso = sym || sort_spec__has(spec, SORT_DSO);

	if ((f->hide_kernel || f->hide_user || f->dso || f->dso_name) && !dso)
		return false;
	return sym || !f->sym_substr || !*f->sym_substr;
}

static int rowset__index(struct rowset *rs);

/* Children: each entry's period goes once to every row on its chain.
 * The paths index holds each group key once per entry (rowset__index):
 * a row's children total is the sum over its key's occurrences, and the
 * chains are not walked again (the index keeps the entries it has seen
 * from one build to the next). */
static int rowset__children(struct rowset *rs, const struct snapshot *snap,
			    const struct sort_spec *spec,
			    const struct row_filter *f)
{
	struct rowset_memo *m = rs->memo;
	int err = rowset__index(rs);

	if (err)
		return err;
	for (u32 k = 0; k < m->nr_keys; k++) {
		u32 o = m->key_off[k], end = m->key_off[k + 1];
		u32 i, off, n;
		const struct fsym *fs;
		u64 samples = 0, period = 0;
		struct row r;
		long row;

		if (o == end)
			continue;
		if (rowset__cancelled(rs))
			return -ECANCELED;
		/* the row, as its first occurrence shows it */
		i = m->occ_ent[o];
		off = m->ent_off[i];
		n = m->ent_off[i + 1] - off;
		fs = &m->fs[m->fr_fs[off + m->occ_from[o]]];
		row__make(&r, &snap->entries[i], fs->dso,
			  frame__show(fs->addr, m->occ_from[o] + 1 < n),
			  &fs->sym);
		if (!row__visible(f, &r))
			continue;
		row = rowset__find_or_add(rs, spec, &r);
		if (row < 0)
			return (int)row;
		for (; o < end; o++) {
			const struct hist_entry *e = &snap->entries[m->occ_ent[o]];

			samples += e->samples;
			period += e->period;
		}
		rs->rows[row].children_samples += samples;
		rs->rows[row].children_period += period;
	}
	return 0;
}

void rowset__set_inline_rows(struct rowset *rs, cg_inline_fn fn, void *ctx)
{
	rs->inl_rows = fn;
	rs->inl_rows_ctx = ctx;
}

/* Adds e once to the row of each function inlined at frame fi. */
static int rowset__inline_rows_of(struct rowset *rs,
				  const struct sort_spec *spec,
				  const struct row_filter *f,
				  const struct hist_entry *e, u32 fi, u32 stamp)
{
	const struct fsym *fs = &rs->memo->fs[fi];
	const char *names[MAX_INLINE];
	size_t n;

	if (!fs->sym.name || fs->whole)
		return 0;
	n = rs->inl_rows(rs->inl_rows_ctx, fs->dso, fs->addr, names,
			 MAX_INLINE);
	for (size_t j = 0; j < n && j < MAX_INLINE; j++) {
		struct row_sym sym = fs->sym;
		struct row fr, *r;
		long k;

		sym.name = names[j];
		row__make(&fr, e, fs->dso, fs->sym.start, &sym);
		fr.inlined = true;
		if (!row__visible(f, &fr))
			continue;
		k = rowset__find_or_add(rs, spec, &fr);
		if (k < 0)
			return (int)k;
		r = &rs->rows[k];
		if (r->stamp == stamp)
			continue;	/* once per sample */
		r->children_samples += e->samples;
		r->children_period += e->period;
		r->stamp = stamp;
	}
	return 0;
}

static void rowset__prefetch_inlines(struct rowset *rs, cg_inline_fn fn,
				     void *ctx);

/* --inline's rows (rowset__set_inline_rows), after rowset__children
 * resolved every frame: the inline lookups go object by object. */
static int rowset__inline_rows(struct rowset *rs, const struct snapshot *snap,
			       const struct sort_spec *spec,
			       const struct row_filter *f)
{
	int err = 0;

	rowset__prefetch_inlines(rs, rs->inl_rows, rs->inl_rows_ctx);
	for (size_t i = 0; i < snap->nr && !err; i++) {
		const struct hist_entry *e = &snap->entries[i];
		u32 stamp = (u32)i + 1, id = e->key.chain, fi;

		if (!entry__visible(f, e))
			continue;
		if (rowset__cancelled(rs))
			return -ECANCELED;
		fi = rowset__entry_fs(rs, i);
		if (fi == NONE)
			return -ENOMEM;
		err = rowset__inline_rows_of(rs, spec, f, e, fi, stamp);
		if (id && id < snap->nr_chains)
			id = snap->chains[id].parent;
		for (; !err && id && id < snap->nr_chains;
		     id = snap->chains[id].parent) {
			fi = rowset__node_fs(rs, id);
			if (fi == NONE)
				return -ENOMEM;
			err = rowset__inline_rows_of(rs, spec, f, e, fi, stamp);
		}
	}
	return err;
}

int rowset__build(struct rowset *rs, const struct snapshot *snap,
		  const struct sort_spec *spec, const struct row_filter *f,
		  row_resolve_fn resolve, void *ctx)
{
	static const struct row_filter none;
	long *entry_row = NULL;
	size_t kept = 0;
	int err = 0;

	if (!f)
		f = &none;
	/* trees, paths and neighbours read rs->snap: they leave idle out
	 * too, with no test of their own */
	if (!f->show_idle && snap->nr_idle) {
		snapshot__without_idle(snap, &rs->shown);
		snap = &rs->shown;
	}
	rs->nr = 0;
	rs->snap = snap;
	rs->resolve = resolve;
	rs->resolve_ctx = ctx;
	rs->spec = *spec;
	rs->total_samples = snap->total_samples;
	rs->total_period = snap->total_period;
	rs->shown_samples = rs->shown_period = 0;
	rs->hidden_rows = 0;
	if (rowset__regroup(rs, spec, 64) ||
	    rowset__memo_begin(rs, snap, spec, f))
		return -ENOMEM;
	if (spec->children && !filter__by_key(spec, f)) {
		entry_row = malloc((snap->nr ? snap->nr : 1) * sizeof(*entry_row));
		if (!entry_row)
			return -ENOMEM;
	}

	for (size_t i = 0; i < snap->nr; i++) {
		const struct hist_entry *e = &snap->entries[i];
		const struct dso *dso = e->key.dso;
		struct row r;
		u32 fi;
		long k;

		if (entry_row)
			entry_row[i] = -1;
		if (!entry__visible(f, e))
			continue;
		fi = rowset__entry_fs(rs, i);
		if (fi == NONE) {
			err = -ENOMEM;
			goto out;
		}
		row__make(&r, e, dso, e->key.addr, &rs->memo->fs[fi].sym);
		if (!row__visible(f, &r))
			continue;
		k = rowset__find_or_add(rs, spec, &r);
		if (k < 0) {
			err = (int)k;
			goto out;
		}
		if (entry_row)
			entry_row[i] = k;
		if (k == (long)rs->nr - 1 && rs->rows[k].samples == 0 &&
		    rs->rows[k].period == 0) {
			rs->rows[k].samples = e->samples;
			rs->rows[k].period = e->period;
			continue;
		}
		rs->rows[k].samples += e->samples;
		rs->rows[k].period += e->period;
		/* an unresolved row shows its lowest address */
		if (!rs->rows[k].sym && r.addr < rs->rows[k].addr)
			rs->rows[k].addr = r.addr;
	}
	if (spec->children) {
		err = entry_row ? rowset__children_walk(rs, snap, spec, f,
							entry_row) :
				  rowset__children(rs, snap, spec, f);
		if (!err && rs->inl_rows && sort_spec__has(spec, SORT_SYM))
			err = rowset__inline_rows(rs, snap, spec, f);
		if (err)
			goto out;
	}

	if (rs->cmp_rows) {
		err = rs->cmp_rows(rs->cmp_ctx, rs);
		if (err)
			goto out;
	}
	if (rs->nr > 1) {
		/* qsort_r's context is not const; the comparator only reads */
		struct sort_spec copy = *spec;

		qsort_r(rs->rows, rs->nr, sizeof(*rs->rows), row_cmp, &copy);
	}

	for (size_t i = 0; i < rs->nr; i++) {
		struct row *r = &rs->rows[i];
		double pct = spec->children ? rowset__percent_children(rs, r) :
					      rowset__percent(rs, r);
		double base = spec->children ? r->base_children_pct :
					       r->base_pct;

		/* compared: a row either side shows */
		if (base > pct)
			pct = base;

		if ((f->percent_limit > 0 && pct < f->percent_limit) ||
		    (f->max_rows && kept >= f->max_rows)) {
			rs->hidden_rows++;
			continue;
		}
		rs->shown_samples += r->samples;
		rs->shown_period += r->period;
		rs->rows[kept++] = *r;
	}
	rs->nr = kept;
out:
	free(entry_row);
	/* cut short (rowset__set_cancel): no rows rather than rows without
	 * their Children */
	if (err == -ECANCELED)
		rs->nr = 0;
	/* the grouping table no longer matches the sorted rows */
	if (!err)
		err = rowset__regroup(rs, spec, rs->nr);
	/* what the memo holds serves the next build (m->gen is 0 when a
	 * provisional answer could not be remembered) */
	rs->memo->reusable = !err && rs->memo->gen;
	return err;
}

void cg_tree__init(struct cg_tree *t)
{
	memset(t, 0, sizeof(*t));
}

void cg_tree__fini(struct cg_tree *t)
{
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

/* The child of parent showing sym, created if needed; 0 on ENOMEM. */
static u32 cg_tree__child(struct cg_tree *t, u32 parent, const struct dso *dso,
			  const struct row_sym *sym, u64 addr, bool inlined)
{
	u32 c;

	for (c = t->nodes[parent].first_child; c; c = t->nodes[c].next_sibling) {
		const struct cg_node *n = &t->nodes[c];

		/* a function by its start (overloads share a name, as in
		 * perf, which merges chain entries by symbol address); an
		 * inlined one by its name; no symbol: the address */
		if (n->dso_name == sym->dso_name && n->sym == sym->name &&
		    n->inlined == inlined &&
		    (sym->name ? inlined || n->addr == sym->start :
				 n->addr == addr))
			return c;
	}
	if (t->nr >= UINT32_MAX ||
	    array__grow((void **)&t->nodes, &t->cap, t->nr + 1,
			sizeof(*t->nodes)))
		return 0;
	c = (u32)t->nr++;
	t->nodes[c] = (struct cg_node){
		.sym = sym->name,
		.dso_name = sym->dso_name,
		.dso = dso,
		.addr = sym->name ? sym->start : addr,
		.kernel = dso->kind == DSO_KERNEL,
		.inlined = inlined,
		.parent = parent,
		.next_sibling = t->nodes[parent].first_child,
		.depth = t->nodes[parent].depth + 1,
	};
	t->nodes[parent].first_child = c;
	return c;
}

static int cg_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct cg_tree *t = ctx;
	const struct cg_node *a = &t->nodes[*(const u32 *)pa];
	const struct cg_node *b = &t->nodes[*(const u32 *)pb];

	int c;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	/* ties by name, not by the order of the snapshot's hash table
	 * (which moves with the addresses of dsos and strings) */
	c = cmp_str(a->sym, b->sym);
	if (!c)
		c = cmp_str(a->dso_name, b->dso_name);
	if (c)
		return c;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->inlined != b->inlined)
		return a->inlined ? 1 : -1;
	return *(const u32 *)pa < *(const u32 *)pb ? -1 : 1;
}

/* Orders every node's children by period, largest first. */
static int cg_tree__sort(struct cg_tree *t)
{
	u32 *kids = NULL;
	size_t cap = 0;

	for (size_t p = 0; p < t->nr; p++) {
		size_t n = 0;

		for (u32 c = t->nodes[p].first_child; c; c = t->nodes[c].next_sibling) {
			if (array__grow((void **)&kids, &cap, n + 1, sizeof(*kids))) {
				free(kids);
				return -ENOMEM;
			}
			kids[n++] = c;
		}
		if (n < 2)
			continue;
		qsort_r(kids, n, sizeof(*kids), cg_cmp, t);
		t->nodes[p].first_child = kids[0];
		for (size_t i = 0; i < n; i++)
			t->nodes[kids[i]].next_sibling = i + 1 < n ? kids[i + 1] : 0;
	}
	free(kids);
	return 0;
}

#define MAX_FRAMES 1024

/* Max inlined functions shown per frame. */

static u32 memo__rehash_keys(struct rowset_memo *m, size_t n)
{
	u32 *s = malloc(n * sizeof(*s));

	if (!s)
		return NONE;
	memset(s, 0xff, n * sizeof(*s));
	for (size_t i = 0; i < m->nr_keys; i++) {
		size_t j = group_key__hash(&m->keys[i]) & (n - 1);

		while (s[j] != NONE)
			j = (j + 1) & (n - 1);
		s[j] = (u32)i;
	}
	free(m->key_slots);
	m->key_slots = s;
	m->nkey_slots = n;
	return 0;
}

/* The id of group key g, interned when add; NONE: absent (or ENOMEM). */
static u32 memo__key(struct rowset_memo *m, const struct group_key *g,
		     bool add)
{
	size_t j;

	if (!m->nkey_slots && !add)
		return NONE;
	if (add && m->nr_keys * 2 >= m->nkey_slots &&
	    memo__rehash_keys(m, m->nkey_slots ? m->nkey_slots * 2 : 1024))
		return NONE;
	j = group_key__hash(g) & (m->nkey_slots - 1);
	for (; m->key_slots[j] != NONE; j = (j + 1) & (m->nkey_slots - 1))
		if (memcmp(&m->keys[m->key_slots[j]], g, sizeof(*g)) == 0)
			return m->key_slots[j];
	if (!add || m->nr_keys >= NONE - 1 ||
	    array__grow((void **)&m->keys, &m->cap_keys, m->nr_keys + 1,
			sizeof(*m->keys)))
		return NONE;
	m->keys[m->nr_keys] = *g;
	m->key_slots[j] = (u32)m->nr_keys;
	return (u32)m->nr_keys++;
}

/* The group key id of frame fi of entry e (a chain frame or the entry's
 * own address); NONE on ENOMEM.  Without comm/pid/tid/cpu in the
 * grouping it depends on the frame alone and is kept with it. */
static u32 rowset__frame_key(struct rowset *rs, const struct hist_entry *e,
			     u32 fi, bool chain)
{
	struct rowset_memo *m = rs->memo;
	const struct fsym *f = &m->fs[fi];
	struct group_key g;
	struct row r;
	u32 k;

	if (!m->entry_fields && f->key[chain] != NONE)
		return f->key[chain];
	row__make(&r, e, f->dso, frame__show(f->addr, chain), &f->sym);
	group_key__make(&g, &rs->spec, &r);
	k = memo__key(m, &g, true);
	if (!m->entry_fields)
		m->fs[fi].key[chain] = k;
	return k;
}

static bool memo__visible(const struct rowset_memo *m,
			  const struct hist_entry *e)
{
	return !(m->has_pid && e->key.pid != m->pid) &&
	       !(m->has_tid && e->key.tid != m->tid) &&
	       !(m->has_cgroup && e->key.cgroup != m->cgroup);
}

/* The group key of frame k of the n frames at off in the paths index:
 * the frame's own, as rowset__frame_key kept it in its fsym, unless the
 * grouping looks at entry fields (the key is then the entry's, in
 * fr_key).  Four bytes a frame saved where most of the memo's memory is
 * (a system-wide --call-graph dwarf run: 25 frames an entry). */
static u32 path_key(const struct rowset_memo *m, u32 off, size_t k, size_t n)
{
	if (m->entry_fields)
		return m->fr_key[off + k];
	return m->fs[m->fr_fs[off + k]].key[k + 1 < n];
}

/* The frames of entry i, appended to the index; *n: how many. */
static int rowset__index_entry(struct rowset *rs, size_t i, size_t *n)
{
	struct rowset_memo *m = rs->memo;
	const struct snapshot *snap = rs->snap;
	const struct hist_entry *e = &snap->entries[i];
	u32 ids[MAX_FRAMES], id = e->key.chain, fi;
	size_t nr = 0, at = m->nr_fr;

	*n = 0;
	/* the chain's leaf node is the sampled ip: the entry itself */
	if (id && id < snap->nr_chains)
		id = snap->chains[id].parent;
	for (; id && id < snap->nr_chains && nr + 1 < MAX_FRAMES;
	     id = snap->chains[id].parent)
		ids[nr++] = id;
	if (at + nr + 1 >= NONE ||
	    array__grow((void **)&m->fr_fs, &m->cap_fr_fs, at + nr + 1,
			sizeof(*m->fr_fs)) ||
	    (m->entry_fields &&
	     array__grow((void **)&m->fr_key, &m->cap_fr_key, at + nr + 1,
			 sizeof(*m->fr_key))))
		return -ENOMEM;
	for (size_t k = 0; k <= nr; k++) {
		u32 key;

		fi = k < nr ? rowset__node_fs(rs, ids[nr - 1 - k]) :
			      rowset__entry_fs(rs, i);
		if (fi == NONE)
			return -ENOMEM;
		m->fr_fs[at + k] = fi;
		/* made (and kept in the fsym) here either way */
		key = rowset__frame_key(rs, e, fi, k < nr);
		if (key == NONE)
			return -ENOMEM;
		if (m->entry_fields)
			m->fr_key[at + k] = key;
	}
	*n = nr + 1;
	m->nr_fr = at + nr + 1;
	return 0;
}

/*
 * The occurrences indexed since the last merge (m->occ) go into the
 * arrays by key (occ_ent, occ_from: each key's in entry order), after
 * the ones already there: each key's block moves up by the new ones of
 * the keys before it, from the last key down so that nothing is
 * overwritten before it has moved, and the new ones fill in behind.
 * The arrays by key are all the index keeps (8 bytes an occurrence):
 * the pending list, which a first build fills with every occurrence
 * (12 bytes each), is let go when it is over an eighth of them; a
 * refresh's few keep theirs.  0 or -ENOMEM.
 */
static int index__merge(struct rowset_memo *m)
{
	u32 nk = (u32)m->nr_keys, total, shift, old_end;

	if (m->nr_sorted + m->nr_occ >= NONE)
		return -ENOMEM;
	total = m->nr_sorted + (u32)m->nr_occ;
	if (array__grow((void **)&m->key_off, &m->cap_key_off, nk + 1,
			sizeof(*m->key_off)) ||
	    array__grow((void **)&m->key_next, &m->cap_key_next,
			nk ? nk : 1, sizeof(*m->key_next)) ||
	    array__grow((void **)&m->occ_ent, &m->cap_occ_ent,
			total ? total : 1, sizeof(*m->occ_ent)) ||
	    array__grow((void **)&m->occ_from, &m->cap_occ_from,
			total ? total : 1, sizeof(*m->occ_from)))
		return -ENOMEM;
	/* key_next: first each key's count of new ones, then its next
	 * slot */
	memset(m->key_next, 0, nk * sizeof(*m->key_next));
	for (size_t o = 0; o < m->nr_occ; o++)
		m->key_next[m->occ[o].key]++;
	shift = (u32)m->nr_occ;
	old_end = m->nr_sorted;
	for (u32 k = nk; k-- > 0;) {
		u32 old_start = k < m->nr_sorted_keys ? m->key_off[k] :
							m->nr_sorted;
		u32 len = old_end - old_start;

		shift -= m->key_next[k];
		if (shift && len) {
			memmove(m->occ_ent + old_start + shift,
				m->occ_ent + old_start,
				len * sizeof(*m->occ_ent));
			memmove(m->occ_from + old_start + shift,
				m->occ_from + old_start,
				len * sizeof(*m->occ_from));
		}
		m->key_off[k] = old_start + shift;
		m->key_next[k] = old_start + shift + len;
		old_end = old_start;
	}
	m->key_off[nk] = total;
	for (size_t o = 0; o < m->nr_occ; o++) {
		u32 at = m->key_next[m->occ[o].key]++;

		m->occ_ent[at] = m->occ[o].ent;
		m->occ_from[at] = m->occ[o].from;
	}
	m->nr_sorted = total;
	m->nr_sorted_keys = nk;
	m->nr_occ = 0;
	/* a list sized for a first build, not the few a refresh adds:
	 * those keep theirs, no allocation each build */
	if (m->cap_occ > 4096 && m->cap_occ > total / 8) {
		free(m->occ);
		m->occ = NULL;
		m->cap_occ = 0;
	}
	return 0;
}

/* Builds the paths index of the last build, once: the entries the last
 * snapshot's index held and this one has the same are not walked again
 * (rowset__memo_begin), their occurrences stay. */
static int rowset__index(struct rowset *rs)
{
	struct rowset_memo *m = rs->memo;
	const struct snapshot *snap = rs->snap;
	int err = 0;

	if (m->indexed)
		return 0;
	m->nr_stamp = 0;
	if (snap->nr >= NONE ||
	    array__grow((void **)&m->ent_off, &m->cap_ent_off, snap->nr + 1,
			sizeof(*m->ent_off)))
		return -ENOMEM;
	for (size_t i = m->index_from; i < snap->nr; i++) {
		size_t n = 0;

		m->ent_off[i] = (u32)m->nr_fr;
		if (!memo__visible(m, &snap->entries[i]))
			continue;
		/* 40K chains take 150 ms: the index goes on from here next
		 * time (its keys and the frames' cached ones stay) */
		if (rowset__cancelled(rs)) {
			m->index_from = i;
			return -ECANCELED;
		}
		err = rowset__index_entry(rs, i, &n);
		if (err)
			goto fail;
		if (array__grow((void **)&m->stamp, &m->cap_stamp, m->nr_keys,
				sizeof(*m->stamp)))
			goto nomem;
		while (m->nr_stamp < m->nr_keys)
			m->stamp[m->nr_stamp++] = 0;
		/* each key once per entry, at its outermost frame */
		for (size_t k = 0; k < n; k++) {
			u32 key = path_key(m, m->ent_off[i], k, n);

			if (m->stamp[key] == (u32)i + 1)
				continue;
			m->stamp[key] = (u32)i + 1;
			if (m->nr_occ >= NONE ||
			    array__grow((void **)&m->occ, &m->cap_occ,
					m->nr_occ + 1, sizeof(*m->occ)))
				goto nomem;
			m->occ[m->nr_occ++] =
				(struct occ){ key, (u32)i, (u32)k };
		}
	}
	m->index_from = snap->nr;
	m->ent_off[snap->nr] = (u32)m->nr_fr;
	if (index__merge(m))
		goto nomem;
	m->indexed = true;
	return 0;
nomem:
	err = -ENOMEM;
fail:
	/* half an entry: the next build starts over */
	m->reusable = false;
	m->gen = 0;
	return err;
}

/*
 * What a frame of a path shows: the function, then the functions fn
 * says are inlined in it at its address, outermost first (out[0] is the
 * function).  Trees and paths both expand frames here.  Lookups use the
 * frame's address (a return address minus one); a frame without a
 * symbol shows the address perf shows.
 */
static size_t frame__expand(const struct fsym *f, bool chain, cg_inline_fn fn,
			    void *ctx, struct path_frame out[MAX_INLINE + 1])
{
	const char *names[MAX_INLINE];
	const struct row_sym *fr = &f->sym;
	size_t n = fr->name && fn && !f->whole ?
			   fn(ctx, f->dso, f->addr, names, MAX_INLINE) :
			   0;

	if (n > MAX_INLINE)
		n = MAX_INLINE;
	out[0] = (struct path_frame){ .sym = *fr, .dso = f->dso };
	if (!fr->name)
		out[0].sym.start = frame__show(f->addr, chain);
	/* names are innermost first */
	for (size_t k = 1; k <= n; k++)
		out[k] = (struct path_frame){
			.sym = { .name = names[n - k],
				 .dso_name = fr->dso_name, .start = f->addr },
			.dso = f->dso,
			.inlined = true,
		};
	return n + 1;
}

/* Adds a frame of a path below *node, expanded (frame__expand); in
 * callee order, where the path runs from the leaf up, reversed.  Counts
 * go to the path's last node only (cg_tree__sum adds them up). */
static int cg_tree__add_frame(struct cg_tree *t, u32 *node,
			      const struct fsym *f, bool chain,
			      enum cg_order order, cg_inline_fn fn, void *ctx)
{
	struct path_frame ex[MAX_INLINE + 1];
	size_t n = frame__expand(f, chain, fn, ctx, ex);

	for (size_t k = 0; k < n; k++) {
		size_t i = order == CG_CALLER ? k : n - 1 - k;

		*node = cg_tree__child(t, *node, f->dso, &ex[i].sym,
				       ex[i].sym.start, ex[i].inlined);
		if (!*node)
			return -ENOMEM;
	}
	return 0;
}

/* Each node's counts, held by the paths that end there, become those of
 * the paths through it: children are made after their parent, so one
 * pass from the last node up adds every subtree into its root. */
static void cg_tree__sum(struct cg_tree *t)
{
	for (size_t c = t->nr - 1; c > 0; c--) {
		struct cg_node *n = &t->nodes[c];

		if (n->parent) {
			t->nodes[n->parent].samples += n->samples;
			t->nodes[n->parent].period += n->period;
		}
	}
}

static int fsym_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct fsym *fs = ctx;
	const struct fsym *a = &fs[*(const u32 *)pa], *b = &fs[*(const u32 *)pb];

	if (a->dso != b->dso)
		return a->dso->id < b->dso->id ? -1 : a->dso->id > b->dso->id;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/*
 * Asks fn about every named frame of the snapshot once, object by
 * object and in address order, before trees or paths ask frame by frame
 * across objects: the symbolizer keeps few DWARF files open, and chains
 * that alternate between more objects than that would inflate their
 * debug sections again and again.  fn caches what it finds.
 */
static void rowset__prefetch_inlines(struct rowset *rs, cg_inline_fn fn,
				     void *ctx)
{
	struct rowset_memo *m = rs->memo;
	const char *names[MAX_INLINE];
	u32 *order;
	size_t n = 0;

	if (!fn || (m->inl_fn == fn && m->inl_ctx == ctx))
		return;
	m->inl_fn = fn;
	m->inl_ctx = ctx;
	order = malloc((m->nr_fs ? m->nr_fs : 1) * sizeof(*order));
	if (!order)
		return;		/* then frame by frame */
	for (size_t i = 0; i < m->nr_fs; i++)
		if (m->fs[i].sym.name && !m->fs[i].whole)
			order[n++] = (u32)i;
	qsort_r(order, n, sizeof(*order), fsym_cmp, m->fs);
	for (size_t i = 0; i < n; i++)
		fn(ctx, m->fs[order[i]].dso, m->fs[order[i]].addr, names,
		   MAX_INLINE);
	free(order);
}

void rowset__set_cancel(struct rowset *rs, bool (*fn)(void *ctx), void *ctx)
{
	rs->cancel = fn;
	rs->cancel_ctx = ctx;
}

int rowset__tree(struct rowset *rs, const struct row *x, enum cg_order order,
		 struct cg_tree *t)
{
	return rowset__tree_inline(rs, x, order, NULL, NULL, t);
}

/* The key id of row x in the paths index; NONE: in no path. */
static int rowset__key_of(struct rowset *rs, const struct row *x, u32 *kx)
{
	struct group_key gx;
	int err = rowset__index(rs);

	if (err)
		return err;
	group_key__make(&gx, &rs->spec, x);
	*kx = memo__key(rs->memo, &gx, false);
	return 0;
}

/*
 * Caller-order trees walk the chains' trie: every sample through a trie
 * node (a chain prefix) reaches the same tree node there, since the
 * prefix decides where the row's path starts (its outermost frame of the
 * row, or the chain's root when the row is only the leaf).  The tree
 * node of each interior prefix is marked once per tree, and a path is
 * added from its deepest marked prefix: per tree, a trie node's frames
 * are expanded once, not once per sample path through it (100K chains
 * of 35 frames under main: 3.5M lookups become the trie's nodes).
 */
static int rowset__tree_marks(struct rowset *rs)
{
	struct rowset_memo *m = rs->memo;
	size_t want = rs->snap->nr_chains ? rs->snap->nr_chains : 1;

	if (array__grow((void **)&m->tnode, &m->cap_tnode, want,
			sizeof(*m->tnode)) ||
	    array__grow((void **)&m->tmark, &m->cap_tmark, want,
			sizeof(*m->tmark)))
		return -ENOMEM;
	if (m->nr_tmark < want) {
		memset(m->tmark + m->nr_tmark, 0,
		       (want - m->nr_tmark) * sizeof(*m->tmark));
		m->nr_tmark = want;
	}
	if (++m->tree_mark == 0) {
		memset(m->tmark, 0, m->nr_tmark * sizeof(*m->tmark));
		m->tree_mark = 1;
	}
	return 0;
}

/* Entry e's path from frame from to its leaf (fs: its n frames, root
 * first), in caller order; *node: where it ends. */
static int rowset__tree_caller(struct rowset *rs, struct cg_tree *t,
			       const struct hist_entry *e, const u32 *fs,
			       size_t n, size_t from, cg_inline_fn fn,
			       void *ctx, u32 *node)
{
	struct rowset_memo *m = rs->memo;
	const struct snapshot *snap = rs->snap;
	u32 ids[MAX_FRAMES], id = e->key.chain;
	size_t j = from;
	int err;

	/* The leaf's trie node stands for frames [0, n): the index kept
	 * every frame of the chain (none past MAX_FRAMES dropped) */
	if (id < snap->nr_chains && snap->chains[id].depth == n) {
		/* from the leaf up to the deepest marked prefix */
		for (size_t p = n - 1; p-- > from;) {
			id = snap->chains[id].parent;
			if (m->tmark[id] == m->tree_mark) {
				*node = m->tnode[id];
				j = p + 1;
				break;
			}
			ids[p] = id;
		}
		for (; j + 1 < n; j++) {
			err = cg_tree__add_frame(t, node, &m->fs[fs[j]], true,
						 CG_CALLER, fn, ctx);
			if (err)
				return err;
			m->tmark[ids[j]] = m->tree_mark;
			m->tnode[ids[j]] = *node;
		}
	}
	for (; j < n; j++) {
		err = cg_tree__add_frame(t, node, &m->fs[fs[j]], j + 1 < n,
					 CG_CALLER, fn, ctx);
		if (err)
			return err;
	}
	return 0;
}

int rowset__tree_inline(struct rowset *rs, const struct row *x,
			enum cg_order order, cg_inline_fn fn, void *ctx,
			struct cg_tree *t)
{
	const struct snapshot *snap = rs->snap;
	struct rowset_memo *m = rs->memo;
	u32 kx;
	int err;

	t->nr = 0;
	if (array__grow((void **)&t->nodes, &t->cap, 1, sizeof(*t->nodes)))
		return -ENOMEM;
	memset(&t->nodes[0], 0, sizeof(t->nodes[0]));
	t->nr = 1;
	t->total_samples = x->children_samples ? x->children_samples : x->samples;
	t->total_period = x->children_period ? x->children_period : x->period;
	if (!snap || !m)
		return 0;
	err = rowset__key_of(rs, x, &kx);
	if (err)
		return err;
	if (kx == NONE)
		return 0;
	rowset__prefetch_inlines(rs, fn, ctx);
	if (order == CG_CALLER && rowset__tree_marks(rs))
		return -ENOMEM;
	for (u32 o = m->key_off[kx]; o < m->key_off[kx + 1]; o++) {
		u32 i = m->occ_ent[o], off = m->ent_off[i];
		const struct hist_entry *e = &snap->entries[i];
		const u32 *fs = m->fr_fs + off;
		size_t n = m->ent_off[i + 1] - off, from = m->occ_from[o];
		u32 node = 0;

		if (!e->key.chain)
			continue;
		if (rowset__cancelled(rs))
			return -ECANCELED;
		/* Self only (--no-children): the caller chains of its own
		 * samples, as perf report --no-children -G shows them. */
		if (!rs->spec.children) {
			if (path_key(m, off, n - 1, n) != kx)
				continue;
			from = 0;
		}
		/* its own samples: the whole chain; its callees': from x */
		if (from == n - 1)
			from = 0;
		if (order == CG_CALLER)
			err = rowset__tree_caller(rs, t, e, fs, n, from, fn,
						  ctx, &node);
		else
			for (size_t j = n; j-- > from && !err;)
				err = cg_tree__add_frame(t, &node, &m->fs[fs[j]],
							 j + 1 < n, order, fn,
							 ctx);
		if (err)
			return err;
		t->nodes[node].samples += e->samples;
		t->nodes[node].period += e->period;
	}
	cg_tree__sum(t);
	return cg_tree__sort(t);
}

int rowset__foreach_path(struct rowset *rs, row_path_fn fn, void *ctx)
{
	return rowset__foreach_path_inline(rs, NULL, NULL, fn, ctx);
}

int rowset__foreach_path_inline(struct rowset *rs, cg_inline_fn inl,
				void *inl_ctx, row_path_fn fn, void *ctx)
{
	const struct snapshot *snap = rs->snap;
	struct rowset_memo *m = rs->memo;
	struct path_frame *path = NULL;
	size_t cap = 0;
	int err;

	if (!snap || !m)
		return 0;
	err = rowset__index(rs);
	if (!err)
		rowset__prefetch_inlines(rs, inl, inl_ctx);
	for (size_t i = 0; i < snap->nr && !err; i++) {
		u32 off = m->ent_off[i];
		size_t n = m->ent_off[i + 1] - off, np = 0;

		if (!n)
			continue;	/* zoomed out */
		for (size_t j = 0; j < n && !err; j++) {
			if (array__grow((void **)&path, &cap,
					np + MAX_INLINE + 1, sizeof(*path)))
				err = -ENOMEM;
			else
				np += frame__expand(&m->fs[m->fr_fs[off + j]],
						    j + 1 < n, inl, inl_ctx,
						    path + np);
		}
		if (!err)
			err = fn(ctx, path, np, &snap->entries[i]);
	}
	free(path);
	return err;
}

void rowset__set_compare(struct rowset *rs,
			 int (*fn)(void *ctx, struct rowset *rs), void *ctx)
{
	rs->cmp_rows = fn;
	rs->cmp_ctx = ctx;
}

bool rowset__same_row(const struct rowset *rs, const struct row *a,
		      const struct row *b)
{
	struct group_key ga, gb;

	group_key__make(&ga, &rs->spec, a);
	group_key__make(&gb, &rs->spec, b);
	return memcmp(&ga, &gb, sizeof(ga)) == 0;
}

void cg_neighbours__init(struct cg_neighbours *nb)
{
	memset(nb, 0, sizeof(*nb));
}

void cg_neighbours__fini(struct cg_neighbours *nb)
{
	free(nb->callers);
	free(nb->callees);
	memset(nb, 0, sizeof(*nb));
}

/* Neighbours of one kind (callers or callees), found by key id. */
struct nb_list {
	struct row **arr;
	size_t *nr, *cap;
	struct intmap at;	/* key id + 1 -> index + 1 */
};

/* Counts frame f (key id k) of a sample for the neighbour it is, once
 * per sample (stamp). */
static int neighbour__add(struct nb_list *l, const struct hist_entry *e,
			  const struct fsym *f, bool chain, u32 k, u32 stamp)
{
	uintptr_t at = (uintptr_t)intmap__get(&l->at, (u64)k + 1);
	struct row *n;

	if (!at) {
		if (array__grow((void **)l->arr, l->cap, *l->nr + 1,
				sizeof(**l->arr)))
			return -ENOMEM;
		n = &(*l->arr)[*l->nr];
		row__make(n, e, f->dso, frame__show(f->addr, chain), &f->sym);
		at = ++*l->nr;
		if (intmap__put(&l->at, (u64)k + 1, (void *)at))
			return -ENOMEM;
	}
	n = &(*l->arr)[at - 1];
	if (n->stamp != stamp) {
		n->stamp = stamp;
		n->samples += e->samples;
		n->period += e->period;
	}
	return 0;
}

static int neighbour_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (!a->sym || !b->sym)
		return (a->sym == NULL) - (b->sym == NULL);
	return strcmp(a->sym, b->sym);
}

int rowset__neighbours(struct rowset *rs, const struct row *x,
		       struct cg_neighbours *nb)
{
	const struct snapshot *snap = rs->snap;
	struct rowset_memo *m = rs->memo;
	struct nb_list lc = { &nb->callers, &nb->nr_callers, &nb->cap_callers },
		       le = { &nb->callees, &nb->nr_callees, &nb->cap_callees };
	u32 kx;
	int err;

	nb->nr_callers = nb->nr_callees = 0;
	nb->total_samples = nb->total_period = 0;
	nb->self_samples = nb->self_period = 0;
	if (!snap || !m)
		return 0;
	err = rowset__key_of(rs, x, &kx);
	if (err || kx == NONE)
		return err;
	intmap__init(&lc.at);
	intmap__init(&le.at);
	for (u32 o = m->key_off[kx]; o < m->key_off[kx + 1] && !err; o++) {
		u32 i = m->occ_ent[o], off = m->ent_off[i];
		const struct hist_entry *e = &snap->entries[i];
		const u32 *fs = m->fr_fs + off;
		size_t n = m->ent_off[i + 1] - off;
		u32 stamp = i + 1;

		for (size_t k = m->occ_from[o]; k < n && !err; k++) {
			if (path_key(m, off, k, n) != kx)
				continue;
			if (k > 0)
				err = neighbour__add(&lc, e, &m->fs[fs[k - 1]],
						     true,
						     path_key(m, off, k - 1, n),
						     stamp);
			if (!err && k + 1 < n)
				err = neighbour__add(&le, e, &m->fs[fs[k + 1]],
						     k + 2 < n,
						     path_key(m, off, k + 1, n),
						     stamp);
		}
		nb->total_samples += e->samples;
		nb->total_period += e->period;
		/* the last frame is the entry itself */
		if (path_key(m, off, n - 1, n) == kx) {
			nb->self_samples += e->samples;
			nb->self_period += e->period;
		}
	}
	intmap__fini(&lc.at);
	intmap__fini(&le.at);
	if (err)
		return err;
	for (size_t i = 0; i < nb->nr_callers; i++)
		nb->callers[i].stamp = 0;
	for (size_t i = 0; i < nb->nr_callees; i++)
		nb->callees[i].stamp = 0;
	if (nb->nr_callers > 1)
		qsort(nb->callers, nb->nr_callers, sizeof(*nb->callers),
		      neighbour_cmp);
	if (nb->nr_callees > 1)
		qsort(nb->callees, nb->nr_callees, sizeof(*nb->callees),
		      neighbour_cmp);
	return 0;
}
