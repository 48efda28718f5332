/* rowmemo: what a rowset keeps from one build to the next (pure): each
 * frame of the snapshot resolved once, and the paths index of the
 * entries' chains that trees, neighbours and paths read. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/symbolizer.h"
#include "ui/report/rowset.h"
#include "ui/report/rowset_internal.h"

/* The memo's arrays (allocated sizes), for the -vv figures. */
static size_t rowset_memo__bytes(const struct rowset_memo *m)
{
	if (!m)
		return 0;
	return sizeof(*m) + m->cap_fs * sizeof(*m->fs) +
	       idindex__bytes(&m->fs_ix) + idindex__bytes(&m->key_ix) +
	       (m->cap_node + m->cap_entry + m->cap_ent_off + m->cap_fr_fs +
		m->cap_fr_key + m->cap_key_off +
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

void rowset_memo__free(struct rowset_memo *m)
{
	if (!m)
		return;
	free(m->fs);
	idindex__fini(&m->fs_ix);
	free(m->node_fs);
	free(m->entry_fs);
	free(m->ent_off);
	free(m->fr_fs);
	free(m->fr_key);
	free(m->keys);
	idindex__fini(&m->key_ix);
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

static u64 fsym__hash(const struct dso *dso, u64 addr, bool whole)
{
	return hash_u64(addr * 0x9e3779b97f4a7c15ULL ^ (u64)(uintptr_t)dso ^
			(u64)whole << 63);
}

static u64 fs__hash(const void *ctx, u32 id)
{
	const struct fsym *f = &((const struct rowset_memo *)ctx)->fs[id];

	return fsym__hash(f->dso, f->addr, f->whole);
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
u32 rowset__fsym(struct rowset *rs, const struct dso *dso, u64 addr,
		 bool whole)
{
	struct rowset_memo *m = rs->memo;
	u64 h = fsym__hash(dso, addr, whole);
	struct fsym *f;
	size_t j;
	u32 id;

	for (j = idindex__first(&m->fs_ix, h);
	     (id = idindex__at(&m->fs_ix, j)) != IDINDEX_NONE;
	     j = idindex__next(&m->fs_ix, j)) {
		f = &m->fs[id];
		if (f->dso == dso && f->addr == addr && f->whole == whole)
			return id;
	}
	if (m->nr_fs >= NONE - 1 ||
	    array__grow((void **)&m->fs, &m->cap_fs, m->nr_fs + 1,
			sizeof(*m->fs)) ||
	    idindex__reserve(&m->fs_ix, 1, fs__hash, m))
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
	idindex__add(&m->fs_ix, h, (u32)m->nr_fs);
	return (u32)m->nr_fs++;
}

/* The fsym of chain node id; NONE on ENOMEM. */
u32 rowset__node_fs(struct rowset *rs, u32 id)
{
	struct rowset_memo *m = rs->memo;

	if (m->node_fs[id] == NONE) {
		const struct cc_node *nd = &rs->snap->chains[id];

		m->node_fs[id] = rowset__fsym(rs, nd->dso, nd->addr, false);
	}
	return m->node_fs[id];
}

/* The fsym of entry i's own address; NONE on ENOMEM. */
u32 rowset__entry_fs(struct rowset *rs, size_t i)
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

int rowset__memo_begin(struct rowset *rs, const struct snapshot *snap,
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
		idindex__init(&m->fs_ix);
		idindex__init(&m->key_ix);
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
		idindex__clear(&m->fs_ix);
		m->nr_prov = 0;
		m->nr_keys = 0;
		idindex__clear(&m->key_ix);
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

static u64 key__hash(const void *ctx, u32 id)
{
	return group_key__hash(&((const struct rowset_memo *)ctx)->keys[id]);
}

/* The id of group key g, interned when add; NONE: absent (or ENOMEM). */
u32 memo__key(struct rowset_memo *m, const struct group_key *g,
	      bool add)
{
	u64 h = group_key__hash(g);
	size_t j;
	u32 id;

	for (j = idindex__first(&m->key_ix, h);
	     (id = idindex__at(&m->key_ix, j)) != IDINDEX_NONE;
	     j = idindex__next(&m->key_ix, j))
		if (memcmp(&m->keys[id], g, sizeof(*g)) == 0)
			return id;
	if (!add || m->nr_keys >= NONE - 1 ||
	    array__grow((void **)&m->keys, &m->cap_keys, m->nr_keys + 1,
			sizeof(*m->keys)) ||
	    idindex__reserve(&m->key_ix, 1, key__hash, m))
		return NONE;
	m->keys[m->nr_keys] = *g;
	idindex__add(&m->key_ix, h, (u32)m->nr_keys);
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
u32 path_key(const struct rowset_memo *m, u32 off, size_t k, size_t n)
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
	u32 ids[MAX_PATH_FRAMES], fi;
	struct cc_walk w;
	size_t nr = 0, at = m->nr_fr;

	*n = 0;
	/* the callers, as many as a path keeps beside the leaf (the
	 * chain's leaf node is the sampled ip: the entry itself) */
	snapshot__callers(&w, snap, e->key.chain);
	while (nr + 1 < MAX_PATH_FRAMES && cc_walk__next(&w))
		ids[nr++] = w.id;
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
int rowset__index(struct rowset *rs)
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
void rowset__prefetch_inlines(struct rowset *rs, cg_inline_fn fn,
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

