/* kernel: the running kernel's files, read for the symbolizer (kallsyms
 * and its cache's key) and for the perf.data writer (the kernel's maps
 * and build-id): /proc/kallsyms, /proc/modules, /sys/kernel/notes and the
 * boot id.  One reader each; their lines are decoded by src/core/kfmt. */
#ifndef PTOP_KERNEL_H
#define PTOP_KERNEL_H

#include <stdbool.h>
#include <sys/types.h>

#include "src/core/util.h"

/* The most of /proc/kallsyms read (it is 5 to 20 MB of text). */
#define KERNEL_KALLSYMS_MAX (256u << 20)

/* The running kernel's files: each path argument below, NULL, is one
 * of these (tests give others). */
#define KERNEL_KALLSYMS "/proc/kallsyms"
#define KERNEL_MODULES "/proc/modules"
#define KERNEL_NOTES "/sys/kernel/notes"
#define KERNEL_BOOT_ID "/proc/sys/kernel/random/boot_id"
/* the kernel's memory as an ELF core: symbols/kcore.c reads it (its
 * segments are an ELF reader's business), by this name */
#define KERNEL_KCORE "/proc/kcore"

/*
 * Reads a kallsyms text in chunks of 64 KiB, handing lines() the
 * complete lines of each (with final, at the end of the file, the last
 * one even without its newline): it returns the bytes it used, or
 * -errno to stop.  A line longer than a chunk (not kallsyms, or hostile)
 * is skipped, and too_long() told.  0, -EFBIG past KERNEL_KALLSYMS_MAX,
 * or -errno.
 */
struct kernel_lines {
	long (*lines)(void *ctx, const char *text, size_t len, bool final);
	void (*too_long)(void *ctx);
	void *ctx;
};
int kernel__kallsyms(const char *path, const struct kernel_lines *l);

/* Does the kernel hide its addresses from us (kptr_restrict)?  Its
 * kallsyms's first line says; true when it cannot be read. */
bool kernel__kallsyms_hidden(const char *path);

/* The module list, whole, appended to sb: 0 or -errno. */
int kernel__modules(const char *path, struct strbuf *sb);

/* The kernel's build-id, from its notes: the size (1..size), 0 when
 * there is none or they cannot be read. */
int kernel__build_id(const char *notes, u8 *bid, size_t size);

/* The boot id's first len bytes (36 are the id): the count, or -errno. */
ssize_t kernel__boot_id(const char *path, char *buf, size_t len);

/* The kernel's maps as perf record writes them (pid -1 MMAPs): the
 * kernel's text from _text to _etext (else its last text symbol), then
 * each module, "[name]", when the kernel shows its address. */
struct kernel_map {
	u64 start, len, pgoff;
	char name[64];
};
/* *maps (free it) and *nr; none (0) when _text is hidden or absent.
 * 0 or -ENOMEM. */
int kernel__maps(const char *kallsyms, const char *modules,
		 struct kernel_map **maps, size_t *nr);

#endif
