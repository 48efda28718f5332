/* cgroupfs: the cgroup v2 file system: where it is mounted, the
 * directories -G names, and the CGROUP records of the cgroups that
 * exist (what perf record --all-cgroups synthesizes). */
#ifndef PTOP_CGROUPFS_H
#define PTOP_CGROUPFS_H

#include <stddef.h>

#include "src/sys/synth.h"

struct strbuf;

/* The mount point of the cgroup2 file system (type cgroup2 in mounts,
 * NULL: /proc/mounts), the first one, into buf: 0, or -ENOENT when
 * there is none (a v1-only system), -ENAMETOOLONG. */
int cgroupfs__mount(const char *mounts, char *buf, size_t size);

/*
 * -G: opens the directory of each cgroup of list (comma-separated), a
 * path under the cgroup2 mount, either relative to it ("system.slice/
 * ssh.service", "/ptop-test": a path as /proc/PID/cgroup shows it) or
 * a file-system path that starts with the mount point.  *fds is
 * malloc'd, O_RDONLY | O_DIRECTORY fds.  On failure, -errno with why
 * (naming the cgroup; nothing added for -ENOMEM), and nothing
 * left open.
 */
int cgroupfs__open(const char *mounts, const char *list, int **fds,
		   size_t *nr, struct strbuf *why);
void cgroupfs__close(int *fds, size_t nr);

/*
 * A PERF_RECORD_CGROUP for every cgroup under the cgroup2 mount (id from
 * name_to_handle_at, the kernel's cgroup id; path relative to the mount,
 * "/" for the root), with a zeroed sample_id trailer laid out for attr,
 * as synth's records have.  0, -ENOENT without cgroup v2, or the first
 * non-zero value of cb.
 */
int cgroupfs__synthesize(const char *mounts,
			 const struct perf_event_attr *attr, synth_cb cb,
			 void *ctx);

#endif
