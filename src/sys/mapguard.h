/* mapguard: the reads of files that are mapped while another process may
 * truncate or rewrite them (libelf's and libdw's mappings of binaries,
 * libraries and debug files): a fault there ends the read, not ptop. */
#ifndef PTOP_MAPGUARD_H
#define PTOP_MAPGUARD_H

#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/stat.h>

/*
 * Usage:
 *	mapguard__install();		main, before any other handler of
 *					SIGBUS and SIGSEGV (the live view's
 *					crash handler calls mapguard__catch
 *					first; later ones must too)
 *	struct mapguard g;
 *	mapguard__init(&g);
 *	mapguard__watch(&g, fd);	the files fn reads (two at most)
 *	err = mapguard__run(&g, fn, arg);
 *		0: fn(arg) ran to its end
 *		-EFAULT: fn was cut short by a fault in a mapped file: what
 *		it was building is in an unknown state (a libdw handle, a
 *		half-added table) and must be neither used nor freed
 *	if (mapguard__changed(&g)) ...	a watched file changed since
 *					mapguard__watch: what fn read may
 *					mix two versions, it is not used
 *
 * SIGBUS inside fn (a read past the end of a truncated file) is always
 * taken; SIGSEGV only when a watched file changed (libdw following
 * offsets of a file rewritten in place): any other is a bug, left to the
 * handlers that were there (ASan's, the default).  Runs nest, per
 * thread.  A changed file is told by fstat: inode, size, modification
 * and change times (the change time cannot be set back).
 */
struct mapguard {
	int fds[2];
	struct stat st[2];
	int nr;
	/* while fn runs */
	struct mapguard *prev;
	volatile sig_atomic_t armed;
	volatile sig_atomic_t sig;	/* the signal that cut fn short */
	sigjmp_buf jb;
};

void mapguard__install(void);

/* What a cut-short run left (a libdw handle, a job) is kept here, never
 * used nor freed: reachable, so that a leak checker sees it kept, not
 * lost.  One per changed file; 0 or -ENOMEM (then it is lost). */
int mapguard__keep(void *left);

void mapguard__init(struct mapguard *g);
/* 0, or -errno of fstat (-E2BIG past two files). */
int mapguard__watch(struct mapguard *g, int fd);
int mapguard__run(struct mapguard *g, void (*fn)(void *), void *arg);
bool mapguard__changed(const struct mapguard *g);

/*
 * A file mapped whole, read-only, for as long as it is used (ptop's
 * caches), every read of it guarded, and the file compared after each
 * (fstat: a syscall a read, against copying megabytes into the heap at
 * every start; doc/design.md, "Files ptop maps"):
 *	err = mapfile__open(&mf, fd);	takes fd (closed on error too)
 *	err = mapfile__run(&mf, fn, arg);	0; -EFAULT: fn was cut
 *			short (what it made is in an unknown state); -ESTALE:
 *			fn ran, but the file changed since open (what fn read
 *			may be the new bytes); every later run answers -ESTALE
 *	mapfile__close(&mf);
 */
struct mapfile {
	struct mapguard g;
	int fd;
	const void *map;
	size_t size;
	bool stale;
};

int mapfile__open(struct mapfile *mf, int fd);
int mapfile__run(struct mapfile *mf, void (*fn)(void *), void *arg);
void mapfile__close(struct mapfile *mf);

/* A crash handler's end: the handler that was there before (old) gets
 * the signal, or, when there was none, the default action.  Async-signal-
 * safe. */
void mapguard__chain(int sig, siginfo_t *si, void *uc,
		     const struct sigaction *old);

/* For a signal handler installed after mapguard's: returns only when the
 * fault is not one to take (else it jumps out of the guarded run).
 * Async-signal-safe. */
void mapguard__catch(int sig);

#endif
