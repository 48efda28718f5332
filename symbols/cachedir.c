/* cachedir: the folder of ptop's caches (cachedir.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "src/sys/outfile.h"
#include "symbols/cachedir.h"

/* a temporary file this old was left by a run that died */
#define STALE_TMP_SECONDS 600
#define MAX_ENTRIES 4096

int cachedir__open(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	/* ours, and a plain file */
	if (fstat(fd, st) || !S_ISREG(st->st_mode) ||
	    st->st_uid != geteuid()) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

int cachedir__default(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/ptop", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.cache/ptop", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* A directory only we can write to, made if missing. */
int cachedir__ok(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0700) && errno != EEXIST) {
		/* ~/.cache itself may be missing */
		char parent[4096];
		char *slash;

		if (errno != ENOENT ||
		    snprintf(parent, sizeof(parent), "%s", dir) >=
			    (int)sizeof(parent))
			return -errno;
		slash = strrchr(parent, '/');
		if (!slash || slash == parent)
			return -ENOENT;
		*slash = '\0';
		if ((mkdir(parent, 0700) && errno != EEXIST) ||
		    (mkdir(dir, 0700) && errno != EEXIST))
			return -errno;
	}
	if (lstat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022))
		return -EPERM;
	return 0;
}

struct entry {
	char name[NAME_MAX + 1];
	time_t used;
	u64 bytes;
};

static int by_age(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return (x->used > y->used) - (x->used < y->used);
}

void cachedir__prune(const char *sub, const char *keep, u64 max)
{
	DIR *d = opendir(sub);
	struct entry *e;
	struct dirent *de;
	size_t n = 0;
	u64 total = 0;
	time_t now = time(NULL);

	if (!d)
		return;
	e = calloc(MAX_ENTRIES, sizeof(*e));
	while (e && n < MAX_ENTRIES && (de = readdir(d))) {
		struct stat st;

		size_t len = strlen(de->d_name);
		size_t slen = strlen(OUTFILE_TMP_SUFFIX);

		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		if (len > slen &&
		    !strcmp(de->d_name + len - slen, OUTFILE_TMP_SUFFIX)) {
			if (now - st.st_mtime > STALE_TMP_SECONDS)
				unlinkat(dirfd(d), de->d_name, 0);
			continue;
		}
		if (de->d_name[0] == '.')
			continue;
		snprintf(e[n].name, sizeof(e[n].name), "%s", de->d_name);
		/* used is read: the kernel's access time (relatime: once a
		 * day at most; with noatime the oldest written go first).
		 * Not a time ptop sets: that would change the file's ctime
		 * under another run's mapping, which takes it for a file
		 * rewritten (mapguard.h) */
		e[n].used = MAX(st.st_mtime, st.st_atime);
		e[n].bytes = (u64)st.st_blocks * 512;
		total += e[n].bytes;
		n++;
	}
	if (e) {
		qsort(e, n, sizeof(*e), by_age);
		for (size_t i = 0; i < n && total > max; i++) {
			if (!strcmp(e[i].name, keep))
				continue;
			if (!unlinkat(dirfd(d), e[i].name, 0))
				total -= e[i].bytes;
		}
	}
	free(e);
	closedir(d);
}
