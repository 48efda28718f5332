/* dso: the table of dsos, deduplicated by identity (build-id first). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/dso.h"
#include "src/core/idindex.h"

struct dsos {
	struct strpool *pool;
	struct dso **all;	/* by id */
	size_t nr, cap;
	struct idindex ix;	/* identity -> id, files and anon code */
	struct dso *unknown, *kernel, *vdso, *hypervisor;
};

static const char *const anon_names[] = {
	"//anon", "[anon]", "[heap]", "[stack]", "",
};

bool dso__path_is_anon(const char *path)
{
	for (size_t i = 0; i < ARRAY_SIZE(anon_names); i++)
		if (strcmp(path, anon_names[i]) == 0)
			return true;
	/* "[anon:name]" (prctl PR_SET_VMA), "[stack:1234]", "/memfd:x"
	 * is a file */
	return strncmp(path, "[anon:", 6) == 0 ||
	       strncmp(path, "[stack:", 7) == 0 ||
	       strncmp(path, "//anon", 6) == 0 || dso__path_is_jit(path);
}

bool dso__path_is_jit(const char *path)
{
	/* perf's is_anon_memory() and is_no_dso_memory() */
	static const char *const prefixes[] = {
		"//anon", "/dev/zero", "/anon_hugepage", "[stack", "/SYSV",
	};

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(path, prefixes[i], strlen(prefixes[i])))
			return true;
	return !strcmp(path, "[heap]") || !strcmp(path, "[anon]") ||
	       !*path;
}

void dso__build_id_hex(const struct dso *dso, char *buf, size_t len)
{
	size_t o = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < dso->build_id_size && o + 3 <= len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%02x",
				      dso->build_id[i]);
}

bool dso__build_id_eq(const u8 *a, size_t alen, const u8 *b, size_t blen)
{
	size_t n = MIN(alen, blen);

	if (!n || memcmp(a, b, n))
		return false;
	for (size_t i = n; i < alen; i++)
		if (a[i])
			return false;
	for (size_t i = n; i < blen; i++)
		if (b[i])
			return false;
	return true;
}

static u64 dso_id__hash(const struct dso_id *id)
{
	u64 h = hash_u64((u64)id->kind + 1);

	if (id->kind == DSO_FILE && id->build_id_size)
		return h ^ hash_bytes(id->build_id, id->build_id_size);
	h ^= hash_bytes(id->path, id->path_len);
	if (id->kind == DSO_ANON)
		return h ^ hash_u64((u64)(u32)id->pid);
	return h ^ hash_u64(((u64)id->maj << 32 | id->min) ^ id->ino * 31 ^
			    id->ino_gen);
}

static u64 dso__hash(const struct dso *d)
{
	struct dso_id id = {
		.kind = d->kind,
		.path = d->path,
		.path_len = strlen(d->path),
		.build_id = d->build_id,
		.build_id_size = d->build_id_size,
		.maj = d->maj,
		.min = d->min,
		.ino = d->ino,
		.ino_gen = d->ino_gen,
		.pid = d->pid,
	};

	return dso_id__hash(&id);
}

static bool dso__matches(const struct dso *d, const struct dso_id *id)
{
	if (d->kind != id->kind)
		return false;
	if (id->kind == DSO_FILE && id->build_id_size)
		return d->build_id_size == id->build_id_size &&
		       memcmp(d->build_id, id->build_id, id->build_id_size) == 0;
	if (id->kind == DSO_FILE && d->build_id_size)
		return false;
	if (strlen(d->path) != id->path_len ||
	    memcmp(d->path, id->path, id->path_len) != 0)
		return false;
	if (id->kind == DSO_ANON)
		return d->pid == id->pid;
	return d->maj == id->maj && d->min == id->min && d->ino == id->ino &&
	       d->ino_gen == id->ino_gen;
}

static u64 id__hash(const void *ctx, u32 id)
{
	return dso__hash(((const struct dsos *)ctx)->all[id]);
}

static struct dso *dsos__add(struct dsos *t, const struct dso_id *id,
			     const char *name)
{
	char jit[32];
	const char *base;
	struct dso *d;

	if (array__grow((void **)&t->all, &t->cap, t->nr + 1, sizeof(*t->all)))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->kind = id->kind;
	d->id = (u32)t->nr;
	d->path = strpool__intern(t->pool, id->path, id->path_len);
	if (!d->path) {
		free(d);
		return NULL;
	}
	if (!name && id->kind == DSO_ANON && dso__path_is_jit(d->path) &&
	    id->pid > 0) {
		/* perf names the process's anonymous code after the map
		 * a JIT would write, /tmp/perf-PID.map: "[JIT] tid PID" */
		snprintf(jit, sizeof(jit), "[JIT] tid %d", (int)id->pid);
		name = jit;
	}
	if (!name) {
		base = strrchr(d->path, '/');
		base = base && base[1] ? base + 1 : d->path;
		if (id->kind == DSO_ANON && !*base)
			base = "[anon]";
		name = base;
	}
	d->name = strpool__intern(t->pool, name, strlen(name));
	if (!d->name) {
		free(d);
		return NULL;
	}
	d->build_id_size = id->build_id_size > BUILD_ID_MAX ? BUILD_ID_MAX :
							     id->build_id_size;
	if (d->build_id_size)
		memcpy(d->build_id, id->build_id, d->build_id_size);
	d->maj = id->maj;
	d->min = id->min;
	d->ino = id->ino;
	d->ino_gen = id->ino_gen;
	d->pid = id->pid;
	d->map_start = id->map_start;
	d->map_end = id->map_end;
	d->deleted = id->path_len > 10 &&
		     strcmp(d->path + id->path_len - 10, " (deleted)") == 0;
	t->all[t->nr++] = d;
	return d;
}

static struct dso *dsos__singleton(struct dsos *t, enum dso_kind kind,
				   const char *path)
{
	struct dso_id id = {
		.kind = kind, .path = path, .path_len = strlen(path), .pid = -1,
	};

	return dsos__add(t, &id, path);
}

struct dsos *dsos__new(struct strpool *pool)
{
	struct dsos *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->pool = pool;
	idindex__init(&t->ix);
	t->unknown = dsos__singleton(t, DSO_UNKNOWN, "[unknown]");
	t->kernel = dsos__singleton(t, DSO_KERNEL, "[kernel.kallsyms]");
	t->vdso = dsos__singleton(t, DSO_VDSO, "[vdso]");
	t->hypervisor = dsos__singleton(t, DSO_HYPERVISOR, "[hypervisor]");
	if (!t->unknown || !t->kernel || !t->vdso || !t->hypervisor) {
		dsos__free(t);
		errno = ENOMEM;
		return NULL;
	}
	return t;
}

void dsos__free(struct dsos *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr; i++)
		free(t->all[i]);
	free(t->all);
	idindex__fini(&t->ix);
	free(t);
}

struct dso *dsos__findnew(struct dsos *t, const struct dso_id *id)
{
	size_t j;
	u32 i;
	u64 h;
	struct dso *d;

	switch (id->kind) {
	case DSO_UNKNOWN:
		return t->unknown;
	case DSO_KERNEL:
		return t->kernel;
	case DSO_VDSO:
		return t->vdso;
	case DSO_HYPERVISOR:
		return t->hypervisor;
	case DSO_FILE:
	case DSO_ANON:
		break;
	}
	h = dso_id__hash(id);
	for (j = idindex__first(&t->ix, h);
	     (i = idindex__at(&t->ix, j)) != IDINDEX_NONE;
	     j = idindex__next(&t->ix, j))
		if (dso__matches(t->all[i], id))
			return t->all[i];
	if (t->nr >= IDINDEX_NONE ||
	    idindex__reserve(&t->ix, 1, id__hash, t))
		return NULL;
	d = dsos__add(t, id, NULL);
	if (!d)
		return NULL;
	idindex__add(&t->ix, h, d->id);
	return d;
}

struct dso *dsos__unknown(struct dsos *t)
{
	return t->unknown;
}

struct dso *dsos__kernel(struct dsos *t)
{
	return t->kernel;
}

struct dso *dsos__vdso(struct dsos *t)
{
	return t->vdso;
}

struct dso *dsos__hypervisor(struct dsos *t)
{
	return t->hypervisor;
}

size_t dsos__count(const struct dsos *t)
{
	return t->nr;
}

struct dso *dsos__at(const struct dsos *t, size_t i)
{
	return i < t->nr ? t->all[i] : NULL;
}
