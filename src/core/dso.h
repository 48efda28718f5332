/* dso: identities of the objects code runs from (files, kernel, vdso, anon). */
#ifndef PTOP_DSO_H
#define PTOP_DSO_H

#include "src/core/util.h"

#define BUILD_ID_MAX 20

enum dso_kind {
	DSO_UNKNOWN,	/* no mapping covers the address: "[unknown]" */
	DSO_FILE,	/* file-backed code; addresses are file offsets */
	DSO_KERNEL,	/* kernel and modules; addresses are kernel ips */
	DSO_VDSO,	/* "[vdso]"; addresses are offsets into the image */
	DSO_ANON,	/* anonymous/JIT code of one pid; addresses are ips;
			 * "[JIT] tid PID" (dso__path_is_jit) */
	DSO_HYPERVISOR,	/* "[hypervisor]" / guest samples */
};

/*
 * A dso is immutable once created and lives as long as its dso table, so
 * hash keys may hold its pointer.  Strings are interned in the table's pool.
 */
struct dso {
	enum dso_kind kind;
	u32 id;			/* dense index, 0.. */
	const char *path;	/* as the kernel or /proc gave it */
	const char *name;	/* short display name (basename, [vdso], ...) */
	u8 build_id[BUILD_ID_MAX];
	u8 build_id_size;	/* 0: unknown */
	u32 maj, min;
	u64 ino, ino_gen;
	s32 pid;		/* a process that maps it (for /proc/PID/root,
				 * map_files and perf-PID.map), -1 if none */
	u64 map_start, map_end;	/* one mapping of it in pid, for map_files */
	bool deleted;		/* path said " (deleted)" */
};

/* What is known of a mapping's object when it is first seen. */
struct dso_id {
	enum dso_kind kind;
	const char *path;
	size_t path_len;
	const u8 *build_id;
	u8 build_id_size;
	u32 maj, min;
	u64 ino, ino_gen;
	s32 pid;
	u64 map_start, map_end;
};

struct dsos;
struct strpool;

struct dsos *dsos__new(struct strpool *pool);
void dsos__free(struct dsos *d);
/* Finds the dso with that identity or adds it.  NULL on ENOMEM. */
struct dso *dsos__findnew(struct dsos *d, const struct dso_id *id);
/* The singletons, created with the table. */
struct dso *dsos__unknown(struct dsos *d);
struct dso *dsos__kernel(struct dsos *d);
struct dso *dsos__vdso(struct dsos *d);
struct dso *dsos__hypervisor(struct dsos *d);
size_t dsos__count(const struct dsos *d);
struct dso *dsos__at(const struct dsos *d, size_t i);

/* "[anon]", "//anon", "[heap]", "[stack]", "" and the like: no file. */
bool dso__path_is_anon(const char *path);
/* Of those, the ones perf takes for JIT code when executable ("//anon",
 * "/dev/zero", "/anon_hugepage", "[stack", "/SYSV", "[heap]"): their dso
 * is named "[JIT] tid PID" as perf names it, one per process. */
bool dso__path_is_jit(const char *path);
/* Writes the build-id as lower-case hex into buf (2*size+1 bytes). */
void dso__build_id_hex(const struct dso *dso, char *buf, size_t len);
/* Do two build-ids name the same file?  (A shorter one may be the other
 * padded with zeros, as some perf.data writers do.) */
bool dso__build_id_eq(const u8 *a, size_t alen, const u8 *b, size_t blen);

#endif
