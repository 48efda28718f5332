/* rowset_internal: what the files of the rowset share (rowset.c,
 * rowmemo.c, callgraph.c, neighbours.c): the group key of a row, the memo
 * of resolved frames and the paths index. */
#ifndef PTOP_ROWSET_INTERNAL_H
#define PTOP_ROWSET_INTERNAL_H

#include "src/core/idindex.h"
#include "ui/report/rowset.h"

/* Inlined functions at one address, at most. */
#define MAX_INLINE 16

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
	struct idindex fs_ix;	/* (dso, addr, whole) -> fs */
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
	struct idindex key_ix;	/* group key -> its id */
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

/* The address a frame shows when it has no symbol: chain frames hold the
 * return address minus one, for the symbol and line lookups; perf shows
 * the return address itself. */
static inline u64 frame__show(u64 addr, bool chain)
{
	return chain ? addr + 1 : addr;
}

/* rowset.c */
void group_key__make(struct group_key *g, const struct sort_spec *spec,
		     const struct row *r);
u64 group_key__hash(const struct group_key *g);
int cmp_str(const char *a, const char *b);
void row__make(struct row *r, const struct hist_entry *e,
	       const struct dso *dso, u64 addr, const struct row_sym *sym);
bool rowset__cancelled(struct rowset *rs);
/* The filters that look at a row's object and symbol, and at an entry's
 * owner (a zoom). */
bool row__visible(const struct row_filter *f, const struct row *r);
bool entry__visible(const struct row_filter *f, const struct hist_entry *e);
/* The row of the last build with r's identity, or -1. */
long rowset__find(const struct rowset *rs, const struct row *r);

/* rowmemo.c */
void rowset_memo__free(struct rowset_memo *m);
u32 rowset__fsym(struct rowset *rs, const struct dso *dso, u64 addr,
		 bool whole);
u32 rowset__node_fs(struct rowset *rs, u32 id);
u32 rowset__entry_fs(struct rowset *rs, size_t i);
int rowset__memo_begin(struct rowset *rs, const struct snapshot *snap,
		       const struct sort_spec *spec,
		       const struct row_filter *f);
int rowset__index(struct rowset *rs);
void rowset__prefetch_inlines(struct rowset *rs, cg_inline_fn fn,
			      void *ctx);
u32 memo__key(struct rowset_memo *m, const struct group_key *g, bool add);
u32 path_key(const struct rowset_memo *m, u32 off, size_t k, size_t n);

/* callgraph.c */
int rowset__key_of(struct rowset *rs, const struct row *x, u32 *kx);

#endif
