/* synth: reads /proc and writes the records the kernel would have sent. */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "src/core/cgroup.h"
#include "src/core/elfnote.h"
#include "src/core/log.h"
#include "src/core/record.h"
#include "src/sys/fdio.h"
#include "src/sys/synth.h"

#define BUILD_ID_SIZE 20
/* A filename as /proc prints it: PATH_MAX plus " (deleted)" and slack. */
#define NAME_MAX_LEN (PATH_MAX + 64)
/* Note segments above this are not build-id notes worth reading. */
#define NOTES_MAX 65536
/* ELF files with more program headers than this are not ones we know. */
#define PHNUM_MAX 1024

/* Build-ids already read, by file identity: during one synth__processes
 * call, or over the life of a synth (a file rebuilt in place, same inode,
 * keeps its old build-id there until the table starts again). */
#define SYNTH_BIDS_MAX 65536
struct bid_entry {
	u64 ino;
	u32 maj, min;
	bool used;
	u8 size;		/* 0: none in the file, or unreadable */
	u8 bid[BUILD_ID_SIZE];
};

struct synth {
	int procfd;
	int rootfd;		/* /proc/PID/root of root_pid, or -1 */
	pid_t root_pid;
	const struct perf_event_attr *attr;
	size_t trailer;
	bool trailer_tid;
	synth_cb cb;
	void *ctx;

	char *maps;		/* the current /proc/PID/maps */
	size_t maps_cap;

	struct bid_entry *bids;
	size_t bids_cap, bids_nr;

	u8 notes[NOTES_MAX];
	/* header + MMAP2 body + filename + sample_id trailer (at most 6
	 * words); 8-byte aligned for the callback. */
	u64 rec[(sizeof(struct perf_event_header) + 64 + NAME_MAX_LEN + 8 +
		 64) / 8];
};

/* Reads a whole small file relative to dirfd into buf (NUL-terminated). */
static ssize_t read_file_at(int dirfd, const char *path, char *buf,
			    size_t len)
{
	ssize_t total;
	int fd;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	total = fd__read_upto(fd, buf, len - 1);
	close(fd);
	if (total >= 0)
		buf[total] = '\0';
	return total;
}

/* /proc/PID/maps into s->maps, growing it as needed.  Returns its length
 * or -errno (ENOENT/ESRCH when the process is gone). */
static ssize_t read_maps(struct synth *s, pid_t pid)
{
	char path[64];
	size_t len = 0;
	int fd;

	snprintf(path, sizeof(path), "%d/maps", (int)pid);
	fd = openat(s->procfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;
		size_t want;

		if (s->maps_cap - len < 4096) {
			size_t cap = s->maps_cap ? s->maps_cap * 2 : 65536;
			char *p = realloc(s->maps, cap);

			if (!p) {
				close(fd);
				return -ENOMEM;
			}
			s->maps = p;
			s->maps_cap = cap;
		}
		want = s->maps_cap - 1 - len;
		n = fd__read_upto(fd, s->maps + len, want);
		if (n < 0) {
			close(fd);
			return n;
		}
		len += (size_t)n;
		if ((size_t)n < want)
			break;	/* the end */
	}
	close(fd);
	s->maps[len] = '\0';
	return (ssize_t)len;
}

static bool is_pid_name(const char *name)
{
	if (!*name)
		return false;
	for (; *name; name++)
		if (*name < '0' || *name > '9')
			return false;
	return true;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Numeric entries of an open directory, sorted; the directory is closed. */
static int list_pids(DIR *dir, pid_t **out, size_t *nr)
{
	pid_t *pids = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;

	while ((de = readdir(dir))) {
		long v;

		if (!is_pid_name(de->d_name))
			continue;
		v = strtol(de->d_name, NULL, 10);
		if (v <= 0 || v > INT_MAX)
			continue;
		if (array__grow((void **)&pids, &cap, n + 1, sizeof(*pids))) {
			free(pids);
			closedir(dir);
			return -ENOMEM;
		}
		pids[n++] = (pid_t)v;
	}
	closedir(dir);
	if (n)
		qsort(pids, n, sizeof(*pids), cmp_pid);
	*out = pids;
	*nr = n;
	return 0;
}

static DIR *opendir_at(int dirfd, const char *path)
{
	int fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir;

	if (fd < 0)
		return NULL;
	dir = fdopendir(fd);
	if (!dir) {
		int err = errno;

		close(fd);
		errno = err;
	}
	return dir;
}

static int open_proc(const char *proc)
{
	int fd = open(proc ? proc : "/proc",
		      O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		int err = -errno;

		pr_err("cannot open %s: %s", proc ? proc : "/proc",
		       strerror(-err));
		return err;
	}
	return fd;
}

static int threads_at(int procfd, pid_t pid, pid_t **tids, size_t *nr)
{
	char path[64];
	DIR *dir;

	snprintf(path, sizeof(path), "%d/task", (int)pid);
	dir = opendir_at(procfd, path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	return list_pids(dir, tids, nr);
}

int synth__proc_stat(const char *proc, pid_t pid, struct proc_stat *ps)
{
	char path[64], buf[512], *open_paren, *close_paren;
	ssize_t n;
	int fd;

	memset(ps, 0, sizeof(*ps));
	snprintf(path, sizeof(path), "%s/%d/stat", proc, (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	n = fd__read_upto(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? (int)n : -ESRCH;
	buf[n] = '\0';
	/* "pid (comm) S ppid pgrp session tty tpgid flags ...": the comm
	 * may hold ')' and spaces */
	open_paren = strchr(buf, '(');
	close_paren = strrchr(buf, ')');
	if (!open_paren || !close_paren || close_paren < open_paren ||
	    sscanf(close_paren + 1, " %c %d %*d %*d %*d %*d %lu", &ps->state,
		   &ps->ppid, &ps->flags) != 3)
		return -EINVAL;
	snprintf(ps->comm, sizeof(ps->comm), "%.*s",
		 (int)(close_paren - open_paren - 1), open_paren + 1);
	return 0;
}

int synth__threads(const char *proc, pid_t pid, pid_t **tids, size_t *nr)
{
	int procfd, err;

	*tids = NULL;
	*nr = 0;
	if (pid <= 0)
		return -EINVAL;
	procfd = open_proc(proc);
	if (procfd < 0)
		return procfd;
	err = threads_at(procfd, pid, tids, nr);
	close(procfd);
	return err;
}

static int comm_at(int procfd, const char *path, char *buf, size_t len)
{
	ssize_t n = read_file_at(procfd, path, buf, len);

	if (n < 0) {
		buf[0] = '\0';
		return n == -ENOENT ? -ESRCH : (int)n;
	}
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

int synth__comm(const char *proc, pid_t pid, char *buf, size_t len)
{
	char path[64];
	int procfd, err;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	procfd = open_proc(proc);
	if (procfd < 0)
		return procfd;
	snprintf(path, sizeof(path), "%d/comm", (int)pid);
	err = comm_at(procfd, path, buf, len);
	close(procfd);
	return err;
}

int synth__cgroup(const char *proc, pid_t pid, char *buf, size_t size)
{
	char path[PATH_MAX], text[16384];
	const char *cg;
	size_t n;
	ssize_t len;
	int fd;

	if (size < 2)
		return -EINVAL;
	/* the idle task has no /proc entry; it runs in the root */
	if (pid == 0) {
		strcpy(buf, "/");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/%d/cgroup", proc ? proc : "/proc",
		 (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = fd__read_upto(fd, text, sizeof(text));
	close(fd);
	if (len < 0)
		return (int)len;
	if (cgroup__from_proc(text, (size_t)len, &cg, &n))
		return -ENOENT;
	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(buf, cg, n);
	buf[n] = '\0';
	return (int)n;
}

/* argv[0] of /proc/PID/cmdline, basename only. */
static bool argv0_is(int procfd, pid_t pid, const char *name)
{
	char path[64], buf[4096];
	const char *base;

	snprintf(path, sizeof(path), "%d/cmdline", (int)pid);
	if (read_file_at(procfd, path, buf, sizeof(buf)) <= 0)
		return false;
	/* argv[0] ends at the first NUL, which read_file_at keeps. */
	base = strrchr(buf, '/');
	base = base ? base + 1 : buf;
	return strcmp(base, name) == 0;
}

int synth__find_pids(const char *proc, const char *name, pid_t **out,
		     size_t *nr)
{
	pid_t *all = NULL, *pids = NULL;
	size_t n_all = 0, n = 0, cap = 0;
	char path[64], comm[64];
	int procfd, err;
	DIR *dir;

	*out = NULL;
	*nr = 0;
	if (!name || !*name)
		return -EINVAL;
	procfd = open_proc(proc);
	if (procfd < 0)
		return procfd;
	dir = opendir_at(procfd, ".");
	if (!dir) {
		err = -errno;
		goto out;
	}
	err = list_pids(dir, &all, &n_all);
	if (err)
		goto out;
	for (size_t i = 0; i < n_all; i++) {
		bool match;

		snprintf(path, sizeof(path), "%d/comm", (int)all[i]);
		if (comm_at(procfd, path, comm, sizeof(comm)))
			continue;	/* gone */
		match = strcmp(comm, name) == 0 ||
			argv0_is(procfd, all[i], name);
		if (!match)
			continue;
		if (array__grow((void **)&pids, &cap, n + 1, sizeof(*pids))) {
			free(pids);
			err = -ENOMEM;
			goto out;
		}
		pids[n++] = all[i];
	}
	*out = pids;
	*nr = n;
out:
	free(all);
	close(procfd);
	return err;
}

/* Appends the pids (a pidlist__parse list) or the processes named by the
 * item s[0..len) */
static int resolve_item(const char *proc, const char *s, size_t len,
			pid_t self, pid_t **pids, size_t *nr,
			struct strbuf *err)
{
	pid_t *found = NULL, *p;
	size_t n = 0, keep = 0;
	char *item;
	int rc;

	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (!len)
		return 0;
	item = strndup(s, len);
	if (!item)
		return -ENOMEM;
	if (strspn(item, "0123456789 \t") == len) {
		rc = pidlist__parse(item, pids, nr);
		if (rc == -EINVAL)
			strbuf__addf(err, "bad pid '%s'", item);
		free(item);
		return rc;
	}
	rc = synth__find_pids(proc, item, &found, &n);
	for (size_t i = 0; i < n; i++)
		if (found[i] != self)
			found[keep++] = found[i];
	if (!rc && !keep) {
		strbuf__addf(err, "no process named '%s'", item);
		rc = -ESRCH;
	}
	free(item);
	if (rc) {
		free(found);
		return rc;
	}
	p = realloc(*pids, (*nr + keep) * sizeof(*p));
	if (!p) {
		free(found);
		return -ENOMEM;
	}
	memcpy(p + *nr, found, keep * sizeof(*p));
	*pids = p;
	*nr += keep;
	free(found);
	return 0;
}

int synth__resolve_pids(const char *proc, const char *list, pid_t self,
			pid_t **pids, size_t *nr, struct strbuf *err)
{
	size_t keep = 0;
	int rc = 0;

	*pids = NULL;
	*nr = 0;
	while (!rc && *list) {
		size_t len = strcspn(list, ",");

		rc = resolve_item(proc, list, len, self, pids, nr, err);
		list += len + (list[len] == ',');
	}
	if (!rc && !*nr) {
		strbuf__adds(err, "no pid or process name");
		rc = -EINVAL;
	}
	if (rc) {
		free(*pids);
		*pids = NULL;
		*nr = 0;
		return rc;
	}
	qsort(*pids, *nr, sizeof(**pids), cmp_pid);
	for (size_t i = 0; i < *nr; i++)
		if (!keep || (*pids)[keep - 1] != (*pids)[i])
			(*pids)[keep++] = (*pids)[i];
	*nr = keep;
	return 0;
}

/* Records */

static size_t rec_finish(struct synth *s, struct perf_event_header *h,
			 char *p, const char *str, size_t slen, u32 pid,
			 u32 tid)
{
	size_t pad = ALIGN_UP(slen + 1, 8);
	char *t;

	memcpy(p, str, slen);
	memset(p + slen, 0, pad - slen);
	t = p + pad;
	memset(t, 0, s->trailer);
	/* The trailer starts with pid/tid when TID is sampled; the rest
	 * (time, id, cpu) is unknown for a synthesized record. */
	if (s->trailer_tid) {
		memcpy(t, &pid, 4);
		memcpy(t + 4, &tid, 4);
	}
	h->size = (u16)(t + s->trailer - (char *)h);
	return h->size;
}

static int emit_comm(struct synth *s, u32 pid, u32 tid, const char *comm)
{
	struct perf_event_header *h = (void *)s->rec;
	char *b = (char *)(h + 1);
	size_t len = strlen(comm);

	h->type = PERF_RECORD_COMM;
	h->misc = 0;
	memcpy(b, &pid, 4);
	memcpy(b + 4, &tid, 4);
	rec_finish(s, h, b + 8, comm, len, pid, tid);
	return s->cb(s->ctx, h);
}

/* A thread other than the main one: perf's convention is that the main
 * thread created it. */
static int emit_fork(struct synth *s, u32 pid, u32 tid)
{
	struct perf_event_header *h = (void *)s->rec;
	char *b = (char *)(h + 1);
	u64 time = 0;
	char *t = b + 24;

	h->type = PERF_RECORD_FORK;
	h->misc = 0;
	memcpy(b, &pid, 4);	/* pid */
	memcpy(b + 4, &pid, 4);	/* ppid */
	memcpy(b + 8, &tid, 4);	/* tid */
	memcpy(b + 12, &pid, 4);	/* ptid */
	memcpy(b + 16, &time, 8);
	memset(t, 0, s->trailer);
	if (s->trailer_tid) {
		memcpy(t, &pid, 4);
		memcpy(t + 4, &tid, 4);
	}
	h->size = (u16)(sizeof(*h) + 24 + s->trailer);
	return s->cb(s->ctx, h);
}

/* Byte order helpers for ELF files of either endianness. */
static u16 e16(u16 v, bool swap)
{
	return swap ? __builtin_bswap16(v) : v;
}

static u32 e32(u32 v, bool swap)
{
	return swap ? __builtin_bswap32(v) : v;
}

static u64 e64(u64 v, bool swap)
{
	return swap ? __builtin_bswap64(v) : v;
}

static bool pread_all(int fd, void *buf, size_t len, u64 off)
{
	if (off > (u64)INT64_MAX)
		return false;
	return fd__pread_upto(fd, buf, len, off) == (ssize_t)len;
}

/*
 * The GNU build-id from the PT_NOTE segments: the ELF header, the program
 * headers and the notes, nothing else (the file may be huge and is often
 * not in the page cache yet).  Returns the size, 0 if none.
 */
static int elf_build_id(struct synth *s, int fd, u8 *bid)
{
	union {
		unsigned char ident[EI_NIDENT];
		Elf64_Ehdr e64;
		Elf32_Ehdr e32;
	} eh;
	union {
		Elf64_Phdr p64[32];
		Elf32_Phdr p32[32];
	} ph;
	bool is64, swap;
	u64 phoff;
	size_t phent, phnum;

	if (!pread_all(fd, &eh, sizeof(eh), 0) ||
	    memcmp(eh.ident, ELFMAG, SELFMAG) != 0)
		return 0;
	if (eh.ident[EI_CLASS] != ELFCLASS64 &&
	    eh.ident[EI_CLASS] != ELFCLASS32)
		return 0;
	is64 = eh.ident[EI_CLASS] == ELFCLASS64;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	swap = eh.ident[EI_DATA] == ELFDATA2MSB;
#else
	swap = eh.ident[EI_DATA] == ELFDATA2LSB;
#endif
	if (is64) {
		phoff = e64(eh.e64.e_phoff, swap);
		phent = e16(eh.e64.e_phentsize, swap);
		phnum = e16(eh.e64.e_phnum, swap);
		if (phent != sizeof(Elf64_Phdr))
			return 0;
	} else {
		phoff = e32(eh.e32.e_phoff, swap);
		phent = e16(eh.e32.e_phentsize, swap);
		phnum = e16(eh.e32.e_phnum, swap);
		if (phent != sizeof(Elf32_Phdr))
			return 0;
	}
	/* PN_XNUM (the real count in section 0) is for core files. */
	if (phnum == 0 || phnum >= PN_XNUM || phnum > PHNUM_MAX)
		return 0;
	for (size_t i = 0; i < phnum; i += 32) {
		size_t chunk = MIN(phnum - i, (size_t)32);

		if (!pread_all(fd, &ph, chunk * phent, phoff + i * phent))
			return 0;
		for (size_t j = 0; j < chunk; j++) {
			u64 off, sz;
			int n;

			if (is64) {
				if (e32(ph.p64[j].p_type, swap) != PT_NOTE)
					continue;
				off = e64(ph.p64[j].p_offset, swap);
				sz = e64(ph.p64[j].p_filesz, swap);
			} else {
				if (e32(ph.p32[j].p_type, swap) != PT_NOTE)
					continue;
				off = e32(ph.p32[j].p_offset, swap);
				sz = e32(ph.p32[j].p_filesz, swap);
			}
			if (sz == 0 || sz > sizeof(s->notes) ||
			    !pread_all(fd, s->notes, (size_t)sz, off))
				continue;
			n = elfnote__build_id(s->notes, (size_t)sz, swap, bid,
					      BUILD_ID_SIZE);
			if (n > 0)
				return n;
		}
	}
	return 0;
}

static struct bid_entry *bid_slot(struct synth *s, u32 maj, u32 min, u64 ino)
{
	u64 h = hash_u64(ino ^ ((u64)maj << 40) ^ ((u64)min << 20));
	size_t mask = s->bids_cap - 1, i = h & mask;

	while (s->bids[i].used) {
		struct bid_entry *e = &s->bids[i];

		if (e->ino == ino && e->maj == maj && e->min == min)
			return e;
		i = (i + 1) & mask;
	}
	return &s->bids[i];
}

static int bid_grow(struct synth *s)
{
	struct bid_entry *old = s->bids;
	size_t old_cap = s->bids_cap, cap = old_cap ? old_cap * 2 : 256;

	s->bids = calloc(cap, sizeof(*s->bids));
	if (!s->bids) {
		s->bids = old;
		return -ENOMEM;
	}
	s->bids_cap = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].used)
			*bid_slot(s, old[i].maj, old[i].min, old[i].ino) =
				old[i];
	free(old);
	return 0;
}

struct map_line {
	u64 start, end, pgoff, ino;
	u32 maj, min;
	char perms[4];
	const char *range;	/* "start-end" as printed */
	size_t range_len;
	const char *path;
	size_t path_len;
};

static const char deleted_suffix[] = " (deleted)";

static bool path_deleted(const struct map_line *m)
{
	size_t n = sizeof(deleted_suffix) - 1;

	return m->path_len > n &&
	       memcmp(m->path + m->path_len - n, deleted_suffix, n) == 0;
}

/*
 * Turns an O_PATH descriptor into a readable one if it names a regular
 * file (with inode ino, unless 0).  Going through O_PATH means that a
 * device or a FIFO someone put at that name is never really opened.
 */
static int reopen_regular(int pathfd, u64 ino, const struct map_line *dev)
{
	char self[64];
	struct stat st;
	int fd = -1;

	if (fstat(pathfd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (!ino || st.st_ino == ino) &&
	    (!dev || (major(st.st_dev) == dev->maj &&
		      minor(st.st_dev) == dev->min))) {
		snprintf(self, sizeof(self), "/proc/self/fd/%d", pathfd);
		fd = open(self, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	}
	close(pathfd);
	return fd;
}

/* The root directory of the process, opened once per process. */
static int proc_root(struct synth *s, pid_t pid)
{
	char path[64];

	if (s->rootfd >= 0 && s->root_pid == pid)
		return s->rootfd;
	if (s->rootfd >= 0)
		close(s->rootfd);
	snprintf(path, sizeof(path), "%d/root", (int)pid);
	s->rootfd = openat(s->procfd, path,
			   O_PATH | O_DIRECTORY | O_CLOEXEC);
	s->root_pid = pid;
	return s->rootfd;
}

/* The path as the process sees it: absolute symlinks and ".." resolve
 * inside its root (a container's), not ours. */
static int open_in_root(struct synth *s, pid_t pid, const char *path)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	char buf[NAME_MAX_LEN + 64];
	int root = proc_root(s, pid);
	long fd;

	if (root < 0)
		return -1;
	fd = syscall(SYS_openat2, root, path, &how, sizeof(how));
	if (fd >= 0 || errno != ENOSYS)
		return (int)fd;
	/* Before 5.6: the magic link, which resolves absolute symlinks in
	 * our root instead (the inode check catches a wrong file). */
	if (snprintf(buf, sizeof(buf), "%d/root%s", (int)pid, path) >=
	    (int)sizeof(buf))
		return -1;
	return openat(s->procfd, buf, O_PATH | O_CLOEXEC);
}

/*
 * Opens the mapped file itself: through the process's root (its mount
 * namespace, for containers), or through map_files (root only) when the
 * name no longer leads to the mapped inode (deleted, renamed over,
 * unreachable).  Through the process's root only the inode number is
 * compared: st_dev differs from the maps device on btrfs subvolumes and
 * overlayfs, and a wrong negative there would cost the build-id of every
 * such file.
 */
static int open_mapped(struct synth *s, pid_t pid, const struct map_line *m)
{
	char path[NAME_MAX_LEN + 64];
	int fd = -1, pfd;

	if (!path_deleted(m) && m->path_len < PATH_MAX) {
		snprintf(path, sizeof(path), "%.*s", (int)m->path_len,
			 m->path);
		pfd = open_in_root(s, pid, path);
		if (pfd >= 0)
			fd = reopen_regular(pfd, m->ino, NULL);
		/* A chroot: /proc printed the path from our root.  Same
		 * device and inode, or it is not the mapped file. */
		if (fd < 0) {
			pfd = open(path, O_PATH | O_CLOEXEC);
			if (pfd >= 0)
				fd = reopen_regular(pfd, m->ino, m);
		}
	}
	if (fd < 0) {
		snprintf(path, sizeof(path), "%d/map_files/%.*s", (int)pid,
			 (int)m->range_len, m->range);
		pfd = openat(s->procfd, path, O_PATH | O_CLOEXEC);
		if (pfd >= 0)
			fd = reopen_regular(pfd, 0, NULL);
	}
	return fd;
}

/* The build-id of a mapped file, read once per (dev, ino) per call. */
static int mapping_build_id(struct synth *s, pid_t pid,
			    const struct map_line *m, u8 *bid)
{
	struct bid_entry *e;
	int fd, n;

	if ((s->bids_nr + 1) * 2 > s->bids_cap && bid_grow(s))
		return 0;
	e = bid_slot(s, m->maj, m->min, m->ino);
	if (e->used) {
		memcpy(bid, e->bid, e->size);
		return e->size;
	}
	fd = open_mapped(s, pid, m);
	n = fd >= 0 ? elf_build_id(s, fd, bid) : 0;
	if (fd >= 0)
		close(fd);
	/* A file we could not open is not remembered: another process
	 * mapping it (another mount namespace) may let us in. */
	if (fd < 0)
		return 0;
	e->used = true;
	e->ino = m->ino;
	e->maj = m->maj;
	e->min = m->min;
	e->size = (u8)n;
	memcpy(e->bid, bid, (size_t)n);
	s->bids_nr++;
	return n;
}

static const char *parse_hex(const char *p, const char *end, u64 *v)
{
	const char *start = p;
	u64 x = 0;

	for (; p < end; p++) {
		unsigned int d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned int)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned int)(*p - 'a' + 10);
		else
			break;
		x = x << 4 | d;
	}
	*v = x;
	return p == start ? NULL : p;
}

/* "start-end perms offset maj:min inode   path" */
static bool parse_map_line(const char *p, const char *end, struct map_line *m)
{
	u64 v;

	m->range = p;
	if (!(p = parse_hex(p, end, &m->start)) || p >= end || *p++ != '-' ||
	    !(p = parse_hex(p, end, &m->end)))
		return false;
	m->range_len = (size_t)(p - m->range);
	if (end - p < 6 || *p++ != ' ')
		return false;
	memcpy(m->perms, p, 4);
	p += 4;
	if (*p++ != ' ' || !(p = parse_hex(p, end, &m->pgoff)) || p >= end ||
	    *p++ != ' ' || !(p = parse_hex(p, end, &v)) || p >= end ||
	    *p++ != ':')
		return false;
	m->maj = (u32)v;
	if (!(p = parse_hex(p, end, &v)) || p >= end || *p++ != ' ')
		return false;
	m->min = (u32)v;
	m->ino = 0;
	if (p >= end || *p < '0' || *p > '9')
		return false;
	while (p < end && *p >= '0' && *p <= '9')
		m->ino = m->ino * 10 + (u64)(*p++ - '0');
	while (p < end && *p == ' ')
		p++;
	m->path = p;
	m->path_len = (size_t)(end - p);
	return true;
}

static int emit_mmap2(struct synth *s, pid_t pid, const struct map_line *m)
{
	struct perf_event_header *h = (void *)s->rec;
	char *b = (char *)(h + 1);
	u32 upid = (u32)pid, prot = 0, flags;
	u64 len = m->end - m->start, pgoff = m->pgoff;
	const char *name = m->path;
	size_t name_len = m->path_len;
	u8 bid[BUILD_ID_SIZE];
	int bid_size = 0;

	if (name_len == 0) {
		/* perf's name for anonymous executable memory (JITs) */
		name = "//anon";
		name_len = 6;
	} else if (name_len == 6 && memcmp(name, "[vdso]", 6) == 0) {
		pgoff = 0;
	} else if (name[0] == '/' && s->attr->build_id) {
		/* a reader takes the union for a build-id only where the
		 * attr asks for one (see record__mmap2_build_id) */
		bid_size = mapping_build_id(s, pid, m, bid);
	}
	if (name_len > NAME_MAX_LEN - 1)
		name_len = NAME_MAX_LEN - 1;

	if (m->perms[0] == 'r')
		prot |= PROT_READ;
	if (m->perms[1] == 'w')
		prot |= PROT_WRITE;
	if (m->perms[2] == 'x')
		prot |= PROT_EXEC;
	flags = m->perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;

	h->type = PERF_RECORD_MMAP2;
	h->misc = PERF_RECORD_MISC_USER;
	memcpy(b, &upid, 4);
	memcpy(b + 4, &upid, 4);
	memcpy(b + 8, &m->start, 8);
	memcpy(b + 16, &len, 8);
	memcpy(b + 24, &pgoff, 8);
	memset(b + 32, 0, 24);
	if (bid_size > 0) {
		h->misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		b[32] = (char)bid_size;
		memcpy(b + 36, bid, (size_t)bid_size);
	} else {
		memcpy(b + 32, &m->maj, 4);
		memcpy(b + 36, &m->min, 4);
		memcpy(b + 40, &m->ino, 8);
	}
	memcpy(b + 56, &prot, 4);
	memcpy(b + 60, &flags, 4);
	rec_finish(s, h, b + 64, name, name_len, upid, upid);
	return s->cb(s->ctx, h);
}

static int synth_mmaps(struct synth *s, pid_t pid)
{
	ssize_t len = read_maps(s, pid);
	const char *p, *end;

	if (len < 0) {
		if (len == -ENOMEM)
			return -ENOMEM;
		pr_debug("synth: %d/maps: %s (process gone?)", (int)pid,
			 strerror((int)-len));
		return 0;
	}
	p = s->maps;
	end = s->maps + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		struct map_line m;
		int err;

		/* [vsyscall] is a legacy page at a fixed kernel address. */
		if (parse_map_line(p, eol, &m) && m.perms[2] == 'x' &&
		    !(m.path_len == 10 && memcmp(m.path, "[vsyscall]", 10) == 0)) {
			err = emit_mmap2(s, pid, &m);
			if (err)
				return err;
		}
		p = eol + 1;
	}
	return 0;
}

/* The thread group of a pid that may name a thread ("Tgid:" in status). */
static pid_t tgid_of(struct synth *s, pid_t pid)
{
	char path[64], buf[1024];
	const char *t;

	snprintf(path, sizeof(path), "%d/status", (int)pid);
	if (read_file_at(s->procfd, path, buf, sizeof(buf)) <= 0)
		return -1;
	t = strstr(buf, "\nTgid:");
	if (!t)
		return -1;
	return (pid_t)strtol(t + 6, NULL, 10);
}

/* One process: returns 0 (also when it vanished), -ESRCH when it did not
 * exist at all, or what the callback returned. */
static int synth_process(struct synth *s, pid_t pid)
{
	char path[96], comm[64];
	pid_t *tids = NULL;
	size_t nr = 0;
	bool any = false;
	int err;

	err = threads_at(s->procfd, pid, &tids, &nr);
	if (err)
		return err;
	for (size_t i = 0; i < nr; i++) {
		pid_t tid = tids[i];

		snprintf(path, sizeof(path), "%d/task/%d/comm", (int)pid,
			 (int)tid);
		if (comm_at(s->procfd, path, comm, sizeof(comm)))
			continue;	/* the thread exited */
		any = true;
		if (tid != pid) {
			err = emit_fork(s, (u32)pid, (u32)tid);
			if (err)
				goto out;
		}
		err = emit_comm(s, (u32)pid, (u32)tid, comm);
		if (err)
			goto out;
	}
	if (!any) {
		err = -ESRCH;
		goto out;
	}
	err = synth_mmaps(s, pid);
out:
	free(tids);
	return err;
}

struct synth *synth__new(const char *proc)
{
	struct synth *s = malloc(sizeof(*s));
	int err;

	if (!s)
		return NULL;
	memset(s, 0, offsetof(struct synth, notes));
	s->rootfd = -1;
	s->procfd = open_proc(proc);
	if (s->procfd < 0) {
		err = s->procfd;
		free(s);
		errno = -err;
		return NULL;
	}
	return s;
}

void synth__free(struct synth *s)
{
	if (!s)
		return;
	if (s->rootfd >= 0)
		close(s->rootfd);
	if (s->procfd >= 0)
		close(s->procfd);
	free(s->maps);
	free(s->bids);
	free(s);
}

int synth__process(struct synth *s, pid_t pid,
		   const struct perf_event_attr *attr, synth_cb cb, void *ctx)
{
	pid_t *pids = NULL;
	size_t nr = 0;
	int err = 0;

	if (!s || !attr || !cb)
		return -EINVAL;
	s->attr = attr;
	s->cb = cb;
	s->ctx = ctx;
	s->trailer = record__id_trailer_size(attr->sample_type,
					     attr->sample_id_all);
	s->trailer_tid = s->trailer && (attr->sample_type & PERF_SAMPLE_TID);
	/* a long run meets new files all the time: start again past this */
	if (s->bids_nr > SYNTH_BIDS_MAX) {
		free(s->bids);
		s->bids = NULL;
		s->bids_cap = s->bids_nr = 0;
	}
	if (pid > 0) {
		pid_t tgid = tgid_of(s, pid);

		if (tgid < 0)
			return -ESRCH;
		return synth_process(s, tgid);
	}
	if (pid != -1)
		return -EINVAL;

	{
		DIR *dir = opendir_at(s->procfd, ".");

		if (!dir) {
			err = -errno;
			pr_err("cannot read /proc: %s", strerror(errno));
			return err;
		}
		err = list_pids(dir, &pids, &nr);
		if (err)
			return err;
	}
	for (size_t i = 0; i < nr; i++) {
		err = synth_process(s, pids[i]);
		if (err == -ESRCH) {
			pr_debug("synth: process %d exited while read",
				 (int)pids[i]);
			err = 0;
		}
		if (err)
			break;
	}
	free(pids);
	return err;
}

int synth__processes(const char *proc, pid_t pid,
		     const struct perf_event_attr *attr, synth_cb cb,
		     void *ctx)
{
	struct synth *s;
	int err;

	if (!attr || !cb)
		return -EINVAL;
	s = synth__new(proc);
	if (!s) {
		err = -errno;
		if (pid == -1)
			pr_err("cannot read %s: %s", proc ? proc : "/proc",
			       strerror(errno));
		return err;
	}
	err = synth__process(s, pid, attr, cb, ctx);
	synth__free(s);
	return err;
}
