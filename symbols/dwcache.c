/* dwcache: debug files with compressed DWARF, kept inflated (dwcache.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "symbols/cachedir.h"
#include "symbols/dwcache.h"
#include "symbols/elfsym.h"
#include "symbols/srcline.h"
#include "src/sys/fdio.h"
#include "src/sys/outfile.h"

/* room left on the file system beside a copy */
#define SPARE_BYTES (256ull << 20)

/* No GNU .zdebug_ section (libelf inflates them, but under another
 * name than libdw then looks for). */
static bool only_gabi_compression(Elf *elf)
{
	size_t nr, shstrndx;

	if (elf_getshdrnum(elf, &nr) || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	for (size_t i = 1; i < nr; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		const char *name;
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh))
			return false;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strncmp(name, ".zdebug_", 8))
			return false;
	}
	return true;
}

/* Is elf the copy of the build-id bid: that id, and its DWARF whole
 * (inflated, the size of the original's inflated)? */
static bool copy_good(Elf *elf, const u8 *bid, int n, u64 inflated)
{
	u8 id[BUILD_ID_MAX];
	u64 size;
	bool compressed;

	return elfsym__build_id(elf, id, sizeof(id)) == n &&
	       !memcmp(id, bid, (size_t)n) &&
	       !srcline__dwarf_size(elf, &size, &compressed) && !compressed &&
	       size == inflated;
}

/* The copy at path: 0 (mapped: its access time, which the kernel keeps,
 * tells cachedir__prune it is used), -ENOENT when there is none,
 * -EBADMSG when it is not whole (removed). */
static int open_copy(const char *path, const u8 *bid, int n, u64 inflated,
		     int *fd_out, Elf **elf_out)
{
	struct stat st;
	int fd = cachedir__open(path, &st);
	Elf *elf = NULL;

	if (fd < 0)
		return fd;
	elf = elfsym__map_fd(fd);
	if (!elf || !copy_good(elf, bid, n, inflated)) {
		if (elf)
			elf_end(elf);
		close(fd);
		unlink(path);
		return -EBADMSG;
	}
	*fd_out = fd;
	*elf_out = elf;
	return 0;
}

static int copy_bytes(int from, int to)
{
	char buf[1 << 16];
	u64 off = 0;

	for (;;) {
		ssize_t n = copy_file_range(from, NULL, to, NULL, 1 << 30, 0);

		if (n == 0)
			return 0;
		if (n > 0)
			continue;
		if (errno == EINTR)
			continue;
		if (errno != EXDEV && errno != EINVAL && errno != ENOSYS &&
		    errno != EOPNOTSUPP)
			return -errno;
		break;
	}
	/* across file systems on older kernels: by hand */
	if (lseek(from, 0, SEEK_SET) < 0 || ftruncate(to, 0) ||
	    lseek(to, 0, SEEK_SET) < 0)
		return -errno;
	for (;;) {
		ssize_t n = fd__pread_upto(from, buf, sizeof(buf), off);
		int err;

		if (n < 0)
			return (int)n;
		if (n == 0)
			return 0;
		err = fd__write_all(to, buf, (size_t)n, NULL);
		if (err)
			return err;
		off += (u64)n;
	}
}

/* tmp: a copy of the file at fd with its .debug sections inflated. */
static int inflate_into(int fd, int tfd)
{
	size_t nr, shstrndx;
	Elf *elf;
	int err = copy_bytes(fd, tfd);

	if (err)
		return err;
	elf = elf_begin(tfd, ELF_C_RDWR, NULL);
	if (!elf)
		return -EIO;
	if (elf_getshdrnum(elf, &nr) || elf_getshdrstrndx(elf, &shstrndx))
		err = -EIO;
	for (size_t i = 1; !err && i < nr; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		const char *name;
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh)) {
			err = -EIO;
			break;
		}
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!(sh.sh_flags & SHF_COMPRESSED) || !name ||
		    strncmp(name, ".debug_", 7))
			continue;
		if (elf_compress(scn, 0, 0) < 0)
			err = -EIO;
	}
	if (!err && elf_update(elf, ELF_C_WRITE) < 0)
		err = -EIO;
	elf_end(elf);
	return err;
}

static int make_copy(const char *sub, const char *path, const char *name,
		     int fd, u64 inflated)
{
	struct statvfs vfs;
	struct outfile of;
	struct stat st;
	int err;

	if (fstat(fd, &st))
		return -errno;
	if (inflated + (u64)st.st_size > DWCACHE_MAX_BYTES / 4)
		return -ENOSPC;
	if (!statvfs(sub, &vfs) &&
	    (u64)vfs.f_bavail * vfs.f_frsize <
		    inflated + (u64)st.st_size + SPARE_BYTES)
		return -ENOSPC;
	/* read back by libelf as it inflates */
	err = outfile__open(&of, path, OUTFILE_FILE_ONLY | OUTFILE_RDWR);
	if (err)
		return err;
	err = outfile__finish(&of, inflate_into(fd, of.fd));
	if (err)
		return err;
	cachedir__prune(sub, name, DWCACHE_MAX_BYTES);
	return 0;
}

int dwcache__open(const char *dir, int fd, Elf *elf, int *fd_out,
		  Elf **elf_out, struct dwcache_result *res)
{
	char sub[PATH_MAX], path[PATH_MAX], name[2 * BUILD_ID_MAX + 8];
	u8 bid[BUILD_ID_MAX];
	u64 inflated;
	bool compressed;
	int n, err;

	res->made = false;
	if (!dir || !dir[0] || fd < 0 || !elf)
		return -EINVAL;
	if (srcline__dwarf_size(elf, &inflated, &compressed))
		return -ENODATA;
	if (!compressed)
		return -ENOENT;
	if (!only_gabi_compression(elf))
		return -ENOTSUP;
	n = elfsym__build_id(elf, bid, sizeof(bid));
	if (n <= 0)
		return -ENOENT;
	for (int i = 0; i < n; i++)
		snprintf(name + 2 * i, 3, "%02x", bid[i]);
	strcat(name, ".debug");
	if (snprintf(sub, sizeof(sub), "%s/dwarf", dir) >= (int)sizeof(sub) ||
	    snprintf(path, sizeof(path), "%s/%s", sub, name) >=
		    (int)sizeof(path))
		return -ENAMETOOLONG;
	/* folders only we can write to: nobody else's file is read */
	err = cachedir__ok(dir);
	if (!err)
		err = cachedir__ok(sub);
	if (err)
		return err;
	err = open_copy(path, bid, n, inflated, fd_out, elf_out);
	if (err != -ENOENT && err != -EBADMSG)
		return err;
	err = make_copy(sub, path, name, fd, inflated);
	if (err)
		return err;
	err = open_copy(path, bid, n, inflated, fd_out, elf_out);
	if (err)
		return err == -EBADMSG ? -EIO : err;
	res->made = true;
	return 0;
}
