/* host: the facts about this machine a perf.data file records (perf's
 * HEADER_HOSTNAME, OSRELEASE, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM,
 * the kernel's build-id and maps), read once from uname, sysconf, /proc
 * and /sys, and handed to the writer as data. */
#ifndef PTOP_HOST_H
#define PTOP_HOST_H

#include "src/core/util.h"
#include "src/sys/kernel.h"

struct host {
	/* uname's; "" when it failed */
	char hostname[65], release[65], machine[65];
	u32 cpus_conf, cpus_online;	/* sysconf's */
	/* /proc/cpuinfo's fields, NULL when absent: "model name",
	 * "vendor_id", "cpu family", "model", "stepping" */
	char *model_name, *vendor, *family, *model, *stepping;
	u64 mem_total_kb;		/* /proc/meminfo's MemTotal, or 0 */
	u8 kernel_build_id[20];
	int kernel_build_id_size;	/* 0: none */
	struct kernel_map *kmaps;	/* kernel__maps */
	size_t nr_kmaps;
};

/* Where the kernel's files are, for tests (NULL: the running kernel's,
 * KERNEL_* of kernel.h). */
struct host_paths {
	const char *kallsyms, *modules, *kernel_notes;
};

/* Fills h (a fact that cannot be read is left empty, as perf does):
 * 0, or -ENOMEM (h still holds what was read; host__fini it). */
int host__read(struct host *h, const struct host_paths *p);
void host__fini(struct host *h);

#endif
