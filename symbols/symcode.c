/* symcode: the code bytes of an address, for annotate: from the file
 * mapped there, else the process's memory, else the kernel's. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <gelf.h>

#include "symbols/kcore.h"
#include "symbols/symbolizer.h"
#include "symbols/symbolizer_internal.h"

/* ---- code bytes ---- */

static long pread_once(int fd, void *buf, size_t len, u64 off)
{
	ssize_t n;

	if (off > (u64)INT64_MAX)
		return 0;
	len = MIN(len, (size_t)LONG_MAX);
	do
		n = pread(fd, buf, len, (off_t)off);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : (long)n;
}

/* A live process's memory: what a deleted file or a JIT left there. */
static long read_mem(struct symbolizer *s, s32 pid, u64 ip, void *buf,
		     size_t len)
{
	char path[PATH_BUF];
	long n;
	int fd;

	if (pid <= 0)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%d/mem", s->proc, (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	n = pread_once(fd, buf, len, ip);
	close(fd);
	/* an unmapped range reads as EIO: the mapping went away */
	return n == -EIO ? -ESRCH : n;
}

/* The file offset dso's mapping starts at, from /proc/PID/maps. */
static int map_pgoff(struct symbolizer *s, const struct dso *dso, u64 *pgoff)
{
	char path[PATH_BUF], line[PATH_BUF + 128];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/maps", s->proc, (int)dso->pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char perms[8];

		if (sscanf(line, "%llx-%llx %7s %llx", &start, &end, perms,
			   &off) == 4 &&
		    start == dso->map_start && end == dso->map_end) {
			*pgoff = off;
			found = true;
		}
	}
	fclose(f);
	return found ? 0 : -ESRCH;
}

static long read_file_mem(struct symbolizer *s, const struct dso *dso,
			  u64 addr, void *buf, size_t len)
{
	u64 pgoff, ip;
	int err;

	if (dso->pid <= 0 || dso->map_end <= dso->map_start)
		return -ENOENT;
	err = map_pgoff(s, dso, &pgoff);
	if (err)
		return err;
	if (addr < pgoff || addr - pgoff >= dso->map_end - dso->map_start)
		return -ENOENT;
	ip = dso->map_start + (addr - pgoff);
	len = (size_t)MIN((u64)len, dso->map_end - ip);
	return read_mem(s, dso->pid, ip, buf, len);
}

static long read_kernel(struct symbolizer *s, u64 addr, void *buf,
			size_t len)
{
	if (!s->kcore && !s->kcore_err) {
		s->kcore = kcore__open(s->kcore_path);
		if (!s->kcore)
			s->kcore_err = errno ? -errno : -ENOENT;
	}
	if (!s->kcore)
		return s->kcore_err;
	return kcore__read(s->kcore, addr, buf, len);
}

long symbolizer__read_code(struct symbolizer *s, const struct dso *dso,
			   u64 addr, void *buf, size_t len)
{
	struct debuginfo_opts o = symbolizer__debuginfo_opts(s);
	char path[PATH_BUF];
	struct dso_state *ds;
	long n;

	if (!s || !dso || (!buf && len))
		return -EINVAL;
	if (dso->kind == DSO_KERNEL)
		return read_kernel(s, addr, buf, len);
	if (dso->kind == DSO_ANON)
		return read_mem(s, dso->pid, addr, buf, len);
	if (dso->kind != DSO_FILE && dso->kind != DSO_VDSO)
		return -ENOENT;
	ds = symbolizer__prepare(s, dso);
	if (!ds)
		return -ENOMEM;
	if (ds->status == DSO_ST_MISMATCH)
		return -ESTALE;
	if (dso->kind == DSO_VDSO) {
		if (!ds->img || !ds->img->mem || addr >= ds->img->mem_size)
			return ds->img ? 0 : -ENOENT;
		len = MIN(len, ds->img->mem_size - (size_t)addr);
		memcpy(buf, (const u8 *)ds->img->mem + addr, len);
		return (long)len;
	}
	if (!ds->img) {
		n = read_file_mem(s, dso, addr, buf, len);
		return n == -ENOENT ? -ENOENT : n;
	}
	if (s->code_fd < 0 || s->code_dso != dso->id) {
		int fd = debuginfo__open_binary(&o, dso, path, sizeof(path));

		if (fd == -ESTALE)
			return -ESTALE;
		if (fd < 0)
			return read_file_mem(s, dso, addr, buf, len);
		if (s->code_fd >= 0)
			close(s->code_fd);
		s->code_fd = fd;
		s->code_dso = dso->id;
	}
	return pread_once(s->code_fd, buf, len, addr);
}
