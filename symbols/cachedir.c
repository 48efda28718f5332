/* cachedir: the folder of ptop's caches (cachedir.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/cachedir.h"

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
