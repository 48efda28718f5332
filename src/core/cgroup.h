/* cgroup: cgroup paths, pure: the line of /proc/PID/cgroup that names a
 * process's cgroup, and the short name a table shows for a path. */
#ifndef PTOP_CGROUP_H
#define PTOP_CGROUP_H

#include <stddef.h>

/*
 * The cgroup of a process from the contents of /proc/PID/cgroup (len
 * bytes, not NUL-terminated): the cgroup v2 line "0::/path"; on a hybrid
 * or v1-only system without one, the path of the first line that has
 * one.  *path points into buf, *path_len bytes.  0, or -ENOENT when no
 * line names a path.
 */
int cgroup__from_proc(const char *buf, size_t len, const char **path,
		      size_t *path_len);

/*
 * The name a table shows for a cgroup path: the container or systemd
 * unit it is, else the path itself.
 *   /system.slice/docker-<64 hex>.scope      docker-<12 hex>
 *   (likewise cri-containerd-, crio-, libpod-)
 *   /docker/<64 hex>                         docker-<12 hex>
 *   .../<64 hex> (kubepods, other runtimes)  <12 hex>
 *   /lxc.payload.NAME                        NAME
 *   /system.slice/ssh.service                ssh.service
 *   /user.slice/user-0.slice/session-3.scope session-3.scope
 *   /, /ptop-test/a                          unchanged
 * Writes at most size bytes, NUL included (size > 0), and returns the
 * length of the whole name, as snprintf does.
 */
size_t cgroup__short_name(const char *path, char *out, size_t size);

#endif
