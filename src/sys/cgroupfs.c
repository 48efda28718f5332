/* cgroupfs: the cgroup2 mount, -G's directories and CGROUP records. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "src/core/record.h"
#include "src/core/util.h"
#include "src/sys/cgroupfs.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

/* A field of a mounts line, with its octal escapes (\040) undone. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

int cgroupfs__mount(const char *mounts, char *buf, size_t size)
{
	FILE *f = fopen(mounts ? mounts : "/proc/mounts", "re");
	char *line = NULL;
	size_t cap = 0;
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char *save = NULL, *dev, *dir, *type;

		dev = strtok_r(line, " \t\n", &save);
		dir = dev ? strtok_r(NULL, " \t\n", &save) : NULL;
		type = dir ? strtok_r(NULL, " \t\n", &save) : NULL;
		if (!type || strcmp(type, "cgroup2") != 0)
			continue;
		unescape(dir);
		if (strlen(dir) >= size) {
			err = -ENAMETOOLONG;
			continue;
		}
		strcpy(buf, dir);
		err = 0;
		break;
	}
	free(line);
	fclose(f);
	return err;
}

void cgroupfs__close(int *fds, size_t nr)
{
	for (size_t i = 0; fds && i < nr; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
}

/* The directory of one cgroup name: 0 and *fd, or -errno and why in
 * err. */
static int open_one(const char *mnt, const char *name, int *fd,
		    struct strbuf *err)
{
	size_t ml = strlen(mnt);
	char path[PATH_MAX];
	struct statfs sfs;
	int n, rc;

	while (ml > 1 && mnt[ml - 1] == '/')
		ml--;
	if (!*name) {
		strbuf__adds(err, "-G: an empty cgroup name");
		return -EINVAL;
	}
	/* a file-system path inside the mount, else a cgroup path */
	if (strncmp(name, mnt, ml) == 0 && (name[ml] == '/' || !name[ml]))
		n = snprintf(path, sizeof(path), "%s", name);
	else
		n = snprintf(path, sizeof(path), "%.*s/%s", (int)ml, mnt,
			     name + (name[0] == '/'));
	if (n < 0 || (size_t)n >= sizeof(path)) {
		strbuf__addf(err, "-G: cgroup name too long: %.64s...", name);
		return -ENAMETOOLONG;
	}
	*fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*fd < 0) {
		rc = -errno;
		if (rc == -ENOENT || rc == -ENOTDIR)
			strbuf__addf(err, "-G: no cgroup '%s' (no directory %s under the cgroup v2 mount %.*s)",
				     name, path, (int)ml, mnt);
		else
			strbuf__addf(err, "-G: cannot open cgroup '%s' (%s): %s",
				     name, path, strerror(-rc));
		return rc;
	}
	if (fstatfs(*fd, &sfs) == 0 && sfs.f_type != CGROUP2_SUPER_MAGIC) {
		strbuf__addf(err, "-G: %s is not a cgroup v2 directory", path);
		close(*fd);
		*fd = -1;
		return -ENOTDIR;
	}
	return 0;
}

int cgroupfs__open(const char *mounts, const char *list, int **fds,
		   size_t *nr, struct strbuf *why)
{
	char mnt[PATH_MAX], *copy, *tok, *save = NULL;
	int *out = NULL;
	size_t n = 0, cap = 0;
	int err;

	*fds = NULL;
	*nr = 0;
	err = cgroupfs__mount(mounts, mnt, sizeof(mnt));
	if (err) {
		strbuf__addf(why, "-G: %s", err == -ENOENT ?
				     "no cgroup v2 file system is mounted (type cgroup2 in /proc/mounts)" :
				     strerror(-err));
		return err;
	}
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int fd = -1;

		if (n == cap) {
			int *g = realloc(out, (cap ? cap * 2 : 4) * sizeof(*g));

			if (!g) {
				err = -ENOMEM;
				break;
			}
			out = g;
			cap = cap ? cap * 2 : 4;
		}
		err = open_one(mnt, tok, &fd, why);
		if (err)
			break;
		out[n++] = fd;
	}
	free(copy);
	if (!err && !n) {
		strbuf__adds(why, "-G: no cgroup named");
		err = -EINVAL;
	}
	if (err) {
		cgroupfs__close(out, n);
		return err;
	}
	*fds = out;
	*nr = n;
	return 0;
}

/* ---- CGROUP records ---- */

struct walk {
	const struct perf_event_attr *attr;
	size_t trailer;
	synth_cb cb;
	void *ctx;
	char path[PATH_MAX];	/* the mount, then the cgroup's path */
	size_t mnt_len;
	u64 rec[(8 + 8 + PATH_MAX + 8 + 64) / 8];
};

/* The cgroup id of a directory: its kernfs file handle, 8 bytes. */
static int cgroup_id(const char *path, u64 *id)
{
	struct {
		struct file_handle fh;
		u64 id;
	} h;
	int mount_id;

	h.fh.handle_bytes = sizeof(h.id);
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) < 0)
		return -errno;
	if (h.fh.handle_bytes != sizeof(u64))
		return -EINVAL;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}

static int emit(struct walk *w)
{
	struct perf_event_header *h = (void *)w->rec;
	u8 *b = (u8 *)(h + 1);
	const char *rel = w->path + w->mnt_len;
	size_t len, padded;
	u64 id = 0;

	if (!*rel)
		rel = "/";
	len = strlen(rel);
	padded = (len + 1 + 7) & ~(size_t)7;
	if (16 + padded + w->trailer > UINT16_MAX)
		return 0;
	if (cgroup_id(w->path, &id))
		return 0;	/* gone, or not kernfs: no record */
	memset(h, 0, 16 + padded + w->trailer);
	h->type = PERF_RECORD_CGROUP;
	h->size = (u16)(sizeof(*h) + 8 + padded + w->trailer);
	memcpy(b, &id, 8);
	memcpy(b + 8, rel, len);
	return w->cb(w->ctx, h);
}

/* This cgroup, then its children, depth first; a cgroup that goes away
 * meanwhile is skipped. */
static int walk(struct walk *w, unsigned int depth)
{
	size_t len = strlen(w->path);
	struct dirent *de;
	DIR *d;
	int err = emit(w);

	if (err || depth > 64)
		return err;
	d = opendir(w->path);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (len + 1 + strlen(de->d_name) >= sizeof(w->path))
			continue;
		w->path[len] = '/';
		strcpy(w->path + len + 1, de->d_name);
		err = walk(w, depth + 1);
		w->path[len] = '\0';
	}
	closedir(d);
	return err;
}

int cgroupfs__synthesize(const char *mounts,
			 const struct perf_event_attr *attr, synth_cb cb,
			 void *ctx)
{
	struct walk *w = calloc(1, sizeof(*w));
	int err;

	if (!w)
		return -ENOMEM;
	err = cgroupfs__mount(mounts, w->path, sizeof(w->path));
	if (!err) {
		w->mnt_len = strlen(w->path);
		while (w->mnt_len > 1 && w->path[w->mnt_len - 1] == '/')
			w->path[--w->mnt_len] = '\0';
		w->attr = attr;
		w->trailer = record__id_trailer_size(attr->sample_type,
						     attr->sample_id_all);
		w->cb = cb;
		w->ctx = ctx;
		err = walk(w, 0);
	}
	free(w);
	return err;
}
