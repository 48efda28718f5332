/* symkernel: the symbolizer's kernel (kallsyms, the running kernel's or
 * a cached copy, checked against the recording) and vdso (read from the
 * running process's memory image). */
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

#include "symbols/kallsyms.h"
#include "symbols/kcore.h"
#include "symbols/loader.h"
#include "src/core/log.h"
#include "src/sys/kernel.h"
#include "symbols/symbolizer.h"
#include "symbols/symbolizer_internal.h"
#include "symbols/symtab.h"

/* ---- vdso ---- */

static void *read_small_file(const char *path, size_t max, size_t *size)
{
	struct stat sb;
	void *buf = NULL;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || !sb.st_size ||
	    (u64)sb.st_size > max)
		goto out;
	buf = malloc((size_t)sb.st_size);
	if (!buf)
		goto out;
	n = pread(fd, buf, (size_t)sb.st_size, 0);
	if (n != sb.st_size) {
		free(buf);
		buf = NULL;
		goto out;
	}
	*size = (size_t)n;
out:
	close(fd);
	return buf;
}

void symbolizer__load_vdso(struct symbolizer *s)
{
	struct image *img;
	Elf *elf = NULL;
	long n;

	s->vdso_loaded = true;
	s->vdso_status = DSO_ST_UNREADABLE;
	img = image__new();
	if (!img)
		return;
	if (s->vdso_path)
		img->mem = read_small_file(s->vdso_path, ELFSYM_VDSO_MAX,
					   &img->mem_size);
	else
		img->mem = elfsym__own_vdso(&img->mem_size);
	if (img->mem)
		elf = elfsym__open_mem(img->mem, img->mem_size);
	if (!elf || elfsym__info(elf, &img->info)) {
		pr_info("vdso: no usable image%s%s",
			s->vdso_path ? " in " : "",
			s->vdso_path ? s->vdso_path : "");
		goto fail;
	}
	img->st = symtab__new(s->pool, 0);
	if (!img->st)
		goto fail;
	n = elfsym__load(elf, img->st,
			 ELFSYM_SYMTAB | ELFSYM_DYNSYM | ELFSYM_EHFRAME);
	if (n < 0 || symtab__finish(img->st))
		goto fail;
	img->file = s->vdso_path ? s->vdso_path :
				   symbolizer__pool_dup(s, "[vdso]");
	img->status = symtab__count(img->st) ? DSO_ST_OK : DSO_ST_NO_SYMBOLS;
	s->vdso_status = img->status;
	s->vdso = img;
	elf_end(elf);
	return;
fail:
	if (elf)
		elf_end(elf);
	image__free(img);
}

/* ---- kernel ---- */

/* Is the running kernel the recording's?  NULL, or why not. */
static const char *kernel_differs(struct symbolizer *s)
{
	struct symtab_hit hit;
	struct utsname u;
	u8 bid[BUILD_ID_MAX];
	int n;

	if (s->kernel_bid_size) {
		n = kernel__build_id(s->kernel_notes, bid, sizeof(bid));
		if (n <= 0 || !dso__build_id_eq(bid, (size_t)n,
						s->kernel_bid,
						s->kernel_bid_size))
			return "its build-id is not this kernel's";
	} else if (s->kernel_release) {
		if (uname(&u) || strcmp(u.release, s->kernel_release))
			return "it ran another kernel release";
	}
	if (s->kernel_text && s->kernel &&
	    (kallsyms__lookup(s->kernel, s->kernel_text, &hit) ||
	     hit.start != s->kernel_text))
		return "the kernel has moved since (KASLR: a reboot)";
	return NULL;
}

/* A first run of a boot: kallsyms read, parsed and its cache written on
 * a worker while the recording is read on, so that load_kernel maps the
 * cache where it would have read /proc/kallsyms (most of a first run's
 * time).  The job owns copies of what it reads. */
struct kernel_job {
	struct loader_job lj;
	struct kallsyms_cache c;
	char *path;
	char strings[];
};

static void kernel_job_run(struct loader_job *lj)
{
	struct kernel_job *j = (struct kernel_job *)lj;

	kallsyms__make_cache(j->path, &j->c);
}

static void kernel_job_free(struct loader_job *lj)
{
	free(lj);
}

void symbolizer__kernel_prefetch(struct symbolizer *s)
{
	size_t np, nd;
	struct kernel_job *j;

	if (s->kernel_loaded || s->kernel_job || !s->kallsyms_cache)
		return;
	np = strlen(s->kallsyms_path) + 1;
	nd = strlen(s->kallsyms_cache) + 1;
	j = calloc(1, sizeof(*j) + np + nd);
	if (!j)
		return;		/* then load_kernel reads it */
	j->path = j->strings;
	memcpy(j->path, s->kallsyms_path, np);
	memcpy(j->strings + np, s->kallsyms_cache, nd);
	j->c.dir = j->strings + np;
	j->lj.run = kernel_job_run;
	j->lj.free = kernel_job_free;
	/* the longest load of a first run: before the binaries' */
	j->lj.urgent = true;
	if (loader__submit(s->loader, &j->lj)) {
		free(j);
		return;
	}
	s->kernel_job = j;
}

void symbolizer__kernel_job_cancel(struct symbolizer *s)
{
	if (!s->kernel_job)
		return;
	loader__cancel(s->loader, &s->kernel_job->lj);
	s->kernel_job = NULL;
}

/* kernel_prefetch's job over (its cache written, or not: then it is
 * read here as ever); a stop request gives it up */
static void kernel_job_wait(struct symbolizer *s)
{
	struct kernel_job *j = s->kernel_job;

	if (!j)
		return;
	if (loader__wait(s->loader, &j->lj, 0, s->stop)) {
		symbolizer__kernel_job_cancel(s);
		return;
	}
	s->kernel_job = NULL;
	j->lj.free(&j->lj);
}

void symbolizer__load_kernel(struct symbolizer *s)
{
	const char *why;

	kernel_job_wait(s);
	s->kernel_loaded = true;
	s->kernel_loads++;
	if (s->kallsyms_cache) {
		struct kallsyms_cache c = { .dir = s->kallsyms_cache };
		enum kallsyms_from from;

		s->kernel = kallsyms__load_cached(s->kallsyms_path, &c, s->pool,
						  &from);
		pr_debug("kernel symbols: %s",
			 from == KALLSYMS_CACHED ? "from the cache" :
			 from == KALLSYMS_PARSED_SAVED ? "parsed, cached" :
							  "parsed");
	} else {
		s->kernel = kallsyms__load(s->kallsyms_path, s->pool);
	}
	why = s->kernel && !s->kernel->restricted ? kernel_differs(s) : NULL;
	if (why) {
		kallsyms__free(s->kernel);
		s->kernel = NULL;
		s->kernel_status = DSO_ST_MISMATCH;
		if (!s->kernel_warned)
			pr_warn("the recording's kernel is not this one (%s): "
				"kernel samples are shown by address", why);
	} else if (!s->kernel) {
		s->kernel_status = DSO_ST_UNREADABLE;
		if (!s->kernel_warned)
			pr_warn("%s: %s; kernel samples stay unsymbolized",
				s->kallsyms_path, strerror(errno));
	} else if (s->kernel->restricted) {
		s->kernel_status = DSO_ST_RESTRICTED;
		if (!s->kernel_warned)
			pr_warn("kernel symbols are hidden (kptr_restrict): "
				"run as root with 'sysctl "
				"kernel.kptr_restrict=0' to see them");
	} else {
		s->kernel_status = kallsyms__count(s->kernel) ?
					   DSO_ST_OK :
					   DSO_ST_NO_SYMBOLS;
	}
	s->kernel_warned = true;
}
