/* debuginfo: finds the files to read for a dso (binary, separate debug). */
#ifndef PTOP_DEBUGINFO_H
#define PTOP_DEBUGINFO_H

#include "src/core/dso.h"
#include "src/core/util.h"

struct dbgfetch;
struct elf_info;

struct debuginfo_opts {
	const char *proc;		/* "/proc" */
	const char *const *debug_dirs;	/* tried before /usr/lib/debug */
	size_t nr_debug_dirs;
	const char *home;		/* for ~/.debug; NULL: $HOME */
	/* --symfs: binaries (DIR/path) and debug files (DIR/usr/lib/debug,
	 * the debuglink beside DIR/path) are looked up there first */
	const char *symfs;
	/* debuginfod, when nothing on disk is the file (NULL: never) */
	struct dbgfetch *fetch;
	double fetch_until;		/* wait for it until then (batch: a
					 * dbgfetch__after time), 0: not,
					 * -EINPROGRESS while it comes */
};

/*
 * Opens the file behind a file dso, read-only:
 *   -1. --symfs: DIR/path, then DIR/basename when there is a build-id;
 *   0. with a build-id, the build-id stores: --debug-dir and
 *      /usr/lib/debug .build-id/xx/rest, perf's ~/.debug cache;
 *   1. its path, inside /proc/PID/root when the process has another root
 *      (absolute symlinks resolve inside that root), unless deleted; when
 *      the dso has no build-id but an inode and the path's file has
 *      another, map_files is preferred (a newer file renamed over it);
 *   2. /proc/PID/map_files/START-END (deleted files, while PID lives);
 *   3. the path of a deleted file, only if the build-ids match;
 *   4. with a build-id and o->fetch, the binary from debuginfod.
 * A candidate must be ELF and, when the dso has a build-id, carry the
 * same one.  Returns an fd and the path it came from (for display), or
 * -EINPROGRESS while debuginfod fetches it, -ESTALE when a file with
 * another build-id was found, -ENOEXEC when only non-ELF files were, else
 * the error of opening the path (-ENOENT, ...).
 */
int debuginfo__open_binary(const struct debuginfo_opts *o,
			   const struct dso *dso, char *path, size_t size);

/*
 * Opens separate debug info for the binary described by bin (its
 * build-id, else the dso's; its .gnu_debuglink):
 *   ROOT/.build-id/xx/rest.debug for --symfs's /usr/lib/debug, each
 *   --debug-dir, then /usr/lib/debug;
 *   the debuglink name in the binary's directory, its .debug/ subdirectory
 *   (under --symfs first), then under the same roots: ROOT/<dir>/;
 *   then, with a build-id and o->fetch, the debug file from debuginfod.
 * Build-id candidates must match; debuglink ones must match the build-id
 * when both have one, else the CRC.  Returns an fd, -EINPROGRESS while
 * debuginfod fetches it, or -ENOENT.
 */
int debuginfo__open_debug(const struct debuginfo_opts *o,
			  const struct dso *dso, const struct elf_info *bin,
			  char *path, size_t size);

/* The CRC-32 of .gnu_debuglink over the rest of fd: 0 or -errno. */
int debuginfo__crc32(int fd, u32 *crc);

#endif
