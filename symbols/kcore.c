/* kcore: kernel code bytes from /proc/kcore, segment by segment. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/sys/fdio.h"
#include "symbols/kcore.h"

/* A real kcore has a few dozen loads (one per memory range). */
#define KCORE_MAX_SEGS 4096
#define KCORE_HDR_MAX (sizeof(Elf64_Ehdr) + KCORE_MAX_SEGS * sizeof(Elf64_Phdr))

struct kcore {
	int fd;
	struct kcore_seg *segs;
	size_t nr;
};

long kcore__parse(const void *image, size_t len, struct kcore_seg *segs,
		  size_t max)
{
	const u8 *p = image;
	Elf64_Ehdr eh;
	size_t n = 0;

	if (!image || len < sizeof(eh))
		return -ENOEXEC;
	memcpy(&eh, p, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_type != ET_CORE ||
	    eh.e_phentsize != sizeof(Elf64_Phdr))
		return -ENOEXEC;
	for (size_t i = 0; i < eh.e_phnum && n < max; i++) {
		u64 off = eh.e_phoff + i * sizeof(Elf64_Phdr);
		Elf64_Phdr ph;

		if (eh.e_phoff > len || off > len - sizeof(ph))
			return -ENOEXEC;
		memcpy(&ph, p + off, sizeof(ph));
		if (ph.p_type != PT_LOAD || !ph.p_filesz ||
		    ph.p_vaddr > UINT64_MAX - ph.p_filesz ||
		    ph.p_offset > UINT64_MAX - ph.p_filesz)
			continue;
		segs[n].vaddr = ph.p_vaddr;
		segs[n].offset = ph.p_offset;
		segs[n].size = ph.p_filesz;
		n++;
	}
	return (long)n;
}

struct kcore *kcore__open(const char *path)
{
	struct kcore *k = NULL;
	size_t got = 0;
	u8 *hdr = NULL;
	ssize_t r;
	long n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	k = calloc(1, sizeof(*k));
	if (k)
		k->fd = -1;	/* fd is closed once, below */
	hdr = malloc(KCORE_HDR_MAX);
	if (!hdr || !k) {
		err = ENOMEM;
		goto fail;
	}
	/* /proc/kcore's size is the whole address space: read the
	 * headers only, which come first */
	r = fd__pread_upto(fd, hdr, KCORE_HDR_MAX, 0);
	if (r < 0) {
		err = (int)-r;
		goto fail;
	}
	got = (size_t)r;
	k->segs = calloc(KCORE_MAX_SEGS, sizeof(*k->segs));
	if (!k->segs) {
		err = ENOMEM;
		goto fail;
	}
	n = kcore__parse(hdr, got, k->segs, KCORE_MAX_SEGS);
	if (n <= 0) {
		err = ENOEXEC;
		goto fail;
	}
	k->nr = (size_t)n;
	k->fd = fd;
	free(hdr);
	return k;
fail:
	free(hdr);
	kcore__free(k);
	close(fd);
	errno = err;
	return NULL;
}

void kcore__free(struct kcore *k)
{
	if (!k)
		return;
	if (k->fd >= 0)
		close(k->fd);
	free(k->segs);
	free(k);
}

long kcore__read(struct kcore *k, u64 addr, void *buf, size_t len)
{
	const struct kcore_seg *seg = NULL;
	ssize_t r;
	u64 off;

	if (!k || (!buf && len))
		return -EINVAL;
	for (size_t i = 0; i < k->nr; i++) {
		if (addr >= k->segs[i].vaddr &&
		    addr - k->segs[i].vaddr < k->segs[i].size) {
			seg = &k->segs[i];
			break;
		}
	}
	if (!seg)
		return -ENOENT;
	off = seg->offset + (addr - seg->vaddr);
	len = (size_t)MIN((u64)len, seg->size - (addr - seg->vaddr));
	if (off > (u64)INT64_MAX || len > (size_t)INT64_MAX)
		return -EINVAL;
	do
		r = pread(k->fd, buf, len, (off_t)off);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : (long)r;
}
