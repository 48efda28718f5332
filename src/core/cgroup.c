/* cgroup: the cgroup line of /proc/PID/cgroup and short names (pure). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "src/core/cgroup.h"

/* A line of /proc/PID/cgroup is "ID:CONTROLLERS:PATH"; the path may hold
 * ':' itself, so it is whatever follows the second one. */
static const char *line_path(const char *l, const char *end, bool *v2)
{
	const char *c1 = memchr(l, ':', (size_t)(end - l)), *c2;

	if (!c1)
		return NULL;
	c2 = memchr(c1 + 1, ':', (size_t)(end - c1 - 1));
	if (!c2)
		return NULL;
	*v2 = c1 - l == 1 && l[0] == '0' && c2 == c1 + 1;
	return c2 + 1;
}

int cgroup__from_proc(const char *buf, size_t len, const char **path,
		      size_t *path_len)
{
	const char *p = buf, *end = buf + len;
	const char *first = NULL;
	size_t first_len = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *pp;
		bool v2 = false;

		pp = line_path(p, le, &v2);
		if (pp && pp < le && *pp == '/') {
			if (v2) {
				*path = pp;
				*path_len = (size_t)(le - pp);
				return 0;
			}
			if (!first) {
				first = pp;
				first_len = (size_t)(le - pp);
			}
		}
		p = le + 1;
	}
	if (!first)
		return -ENOENT;
	*path = first;
	*path_len = first_len;
	return 0;
}

static bool is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t m = strlen(suffix);

	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

#define ID_LEN 64
#define SHORT_ID 12

size_t cgroup__short_name(const char *path, char *out, size_t size)
{
	static const char *const runtimes[] = {
		"docker-", "cri-containerd-", "crio-", "libpod-",
	};
	const char *leaf = strrchr(path, '/'), *parent;
	size_t n, plen;
	int len;

	if (!leaf || !leaf[1])
		goto whole;
	leaf++;
	n = strlen(leaf);
	/* a container's scope: RUNTIME-<64 hex>.scope */
	if (ends_with(leaf, n, ".scope")) {
		for (size_t i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]);
		     i++) {
			size_t rl = strlen(runtimes[i]);

			if (n == rl + ID_LEN + 6 &&
			    memcmp(leaf, runtimes[i], rl) == 0 &&
			    is_hex(leaf + rl, ID_LEN)) {
				len = snprintf(out, size, "%.*s%.*s",
					       (int)rl, leaf, SHORT_ID,
					       leaf + rl);
				return (size_t)len;
			}
		}
	}
	/* a systemd unit */
	if (ends_with(leaf, n, ".scope") || ends_with(leaf, n, ".service") ||
	    ends_with(leaf, n, ".slice"))
		return (size_t)snprintf(out, size, "%s", leaf);
	if (strncmp(leaf, "lxc.payload.", 12) == 0 && leaf[12])
		return (size_t)snprintf(out, size, "%s", leaf + 12);
	/* a container id under its runtime's directory (cgroupfs driver) */
	if (n == ID_LEN && is_hex(leaf, ID_LEN)) {
		parent = leaf - 1;
		while (parent > path && parent[-1] != '/')
			parent--;
		plen = (size_t)(leaf - 1 - parent);
		if (plen == 6 && memcmp(parent, "docker", 6) == 0)
			return (size_t)snprintf(out, size, "docker-%.*s",
						SHORT_ID, leaf);
		return (size_t)snprintf(out, size, "%.*s", SHORT_ID, leaf);
	}
whole:
	return (size_t)snprintf(out, size, "%s", path);
}
