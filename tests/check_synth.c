/* check_synth: the records synthesized from /proc for this very process. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "src/core/record.h"
#include "src/sys/synth.h"
#include "tests/testutil.h"

/* Every record the callback saw, copied. */
struct recs {
	struct perf_event_header **v;
	size_t n, cap;
	int stop_after;		/* >0: return 42 at that record */
};

static int collect(void *ctx, const struct perf_event_header *h)
{
	struct recs *r = ctx;
	struct perf_event_header *copy;

	ck_assert_uint_ge(h->size, sizeof(*h));
	ck_assert_uint_eq(h->size % 8, 0);
	ck_assert_uint_eq((uintptr_t)h % 8, 0);
	copy = malloc(h->size);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, h, h->size);
	ck_assert_int_eq(array__grow((void **)&r->v, &r->cap, r->n + 1,
				     sizeof(*r->v)), 0);
	r->v[r->n++] = copy;
	if (r->stop_after && (int)r->n == r->stop_after)
		return 42;
	return 0;
}

static void recs_free(struct recs *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i]);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static void attr_for(struct perf_event_attr *a, u64 extra)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | extra;
	a->sample_id_all = 1;
	/* as ptop's tracking event: build-ids in MMAP2 records */
	a->mmap2 = 1;
	a->build_id = 1;
}

/* The build-id of a file, read independently with libelf (sections). */
static int libelf_build_id(const char *path, u8 *out)
{
	int fd = open(path, O_RDONLY);
	Elf_Scn *scn = NULL;
	int ret = 0;
	Elf *e;

	ck_assert_int_ge(fd, 0);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	ck_assert_ptr_nonnull(e);
	while (!ret && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		while (d && (off = gelf_getnote(d, off, &nh, &name_off,
						&desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + name_off, "GNU", 4)) {
				ret = (int)MIN(nh.n_descsz, 20u);
				memcpy(out, (char *)d->d_buf + desc_off,
				       (size_t)ret);
				break;
			}
		}
	}
	elf_end(e);
	close(fd);
	return ret;
}

static const struct rec_mmap *find_mmap(const struct recs *r, size_t trailer,
					const char *path, struct rec_mmap *m)
{
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i]->type != PERF_RECORD_MMAP2)
			continue;
		ck_assert_int_eq(record__parse_mmap(r->v[i], trailer, true, m), 0);
		if (!strcmp(m->filename, path))
			return m;
	}
	return NULL;
}

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

struct waiter {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool go, ready;
	pid_t tid;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;

	pthread_mutex_lock(&w->lock);
	w->tid = gettid_();
	w->ready = true;
	pthread_cond_broadcast(&w->cond);
	while (!w->go)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static void start_waiter(struct waiter *w, pthread_t *th)
{
	memset(w, 0, sizeof(*w));
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	ck_assert_int_eq(pthread_create(th, NULL, wait_thread, w), 0);
	pthread_mutex_lock(&w->lock);
	while (!w->ready)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

static void stop_waiter(struct waiter *w, pthread_t th)
{
	pthread_mutex_lock(&w->lock);
	w->go = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(th, NULL);
}

START_TEST(test_self)
{
	struct perf_event_attr attr;
	struct recs r = { 0 };
	struct waiter w;
	pthread_t th;
	pid_t pid = getpid();
	char exe[4096], comm[64];
	u8 bid[20];
	int bid_size;
	size_t trailer;
	ssize_t n;
	bool comm_main = false, comm_thread = false, fork_thread = false;
	bool vdso = false;
	struct rec_mmap m;

	/* ID and IDENTIFIER too: the trailer must have room for them */
	attr_for(&attr, PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER);
	trailer = record__id_trailer_size(attr.sample_type, 1);
	ck_assert_uint_eq(trailer, 40);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	ck_assert_int_eq(synth__comm(NULL, pid, comm, sizeof(comm)), 0);
	ck_assert_uint_gt(strlen(comm), 0);

	start_waiter(&w, &th);
	ck_assert_int_eq(synth__processes("/proc", pid, &attr, collect, &r),
			 0);
	stop_waiter(&w, th);

	for (size_t i = 0; i < r.n; i++) {
		const struct perf_event_header *h = r.v[i];
		struct perf_sample s;
		struct rec_comm c;
		struct rec_fork f;

		memset(&s, 0xff, sizeof(s));
		ck_assert_int_eq(record__parse_id_trailer(&attr, h, &s), 0);
		ck_assert_uint_eq(s.pid, (u32)pid);
		ck_assert_uint_eq(s.time, 0);
		ck_assert_uint_eq(s.id, 0);
		ck_assert_uint_eq(s.cpu, 0);
		switch (h->type) {
		case PERF_RECORD_COMM:
			ck_assert_int_eq(record__parse_comm(h, trailer, &c), 0);
			ck_assert_uint_eq(c.pid, (u32)pid);
			ck_assert(!c.exec);
			ck_assert_uint_eq(s.tid, c.tid);
			if (c.tid == (u32)pid) {
				ck_assert_str_eq(c.comm, comm);
				comm_main = true;
			} else if (c.tid == (u32)w.tid) {
				/* the FORK comes first */
				ck_assert(fork_thread);
				comm_thread = true;
			}
			break;
		case PERF_RECORD_FORK:
			ck_assert_int_eq(record__parse_fork(h, &f), 0);
			ck_assert_uint_eq(f.pid, (u32)pid);
			ck_assert_uint_eq(f.ppid, (u32)pid);
			ck_assert_uint_eq(f.ptid, (u32)pid);
			ck_assert_uint_ne(f.tid, (u32)pid);
			ck_assert_uint_eq(s.tid, f.tid);
			ck_assert_uint_eq(h->size, sizeof(*h) + 24 + trailer);
			if (f.tid == (u32)w.tid)
				fork_thread = true;
			break;
		case PERF_RECORD_MMAP2:
			ck_assert_int_eq(record__parse_mmap(h, trailer, true, &m), 0);
			ck_assert_uint_eq(m.pid, (u32)pid);
			ck_assert_uint_eq(m.tid, (u32)pid);
			ck_assert(m.exec);
			ck_assert(m.prot & PROT_EXEC);
			ck_assert_uint_eq(m.filename_len, strlen(m.filename));
			ck_assert_str_ne(m.filename, "[vsyscall]");
			ck_assert_uint_eq(h->misc &
						  PERF_RECORD_MISC_CPUMODE_MASK,
					  PERF_RECORD_MISC_USER);
			if (!strcmp(m.filename, "[vdso]")) {
				vdso = true;
				ck_assert_uint_eq(m.pgoff, 0);
				ck_assert(!m.has_build_id);
			}
			break;
		default:
			ck_abort_msg("unexpected record %s",
				     record__type_name(h->type));
		}
	}
	ck_assert(comm_main);
	ck_assert(fork_thread);
	ck_assert(comm_thread);
	ck_assert(vdso);

	/* The executable, with the build-id libelf finds in its sections. */
	ck_assert_ptr_nonnull(find_mmap(&r, trailer, exe, &m));
	/* the file itself, even if it was rebuilt (" (deleted)") since */
	bid_size = libelf_build_id("/proc/self/exe", bid);
	ck_assert_int_gt(bid_size, 0);
	ck_assert(m.has_build_id);
	ck_assert_uint_eq(m.build_id_size, (unsigned)bid_size);
	ck_assert_mem_eq(m.build_id, bid, (size_t)bid_size);
	recs_free(&r);
}
END_TEST

/* A synth kept across calls (the live view's, one process at a time)
 * gives what a call of its own gives, the second time from its build-id
 * table; another attr between calls is followed. */
START_TEST(test_kept)
{
	struct perf_event_attr attr, attr2;
	struct recs a = { 0 }, b = { 0 }, c = { 0 };
	struct synth *s = synth__new(NULL);

	ck_assert_ptr_nonnull(s);
	attr_for(&attr, 0);
	ck_assert_int_eq(synth__processes(NULL, getpid(), &attr, collect, &a),
			 0);
	ck_assert_int_eq(synth__process(s, getpid(), &attr, collect, &b), 0);
	recs_free(&b);
	ck_assert_int_eq(synth__process(s, getpid(), &attr, collect, &b), 0);
	ck_assert_uint_eq(a.n, b.n);
	for (size_t i = 0; i < a.n; i++) {
		ck_assert_uint_eq(a.v[i]->size, b.v[i]->size);
		ck_assert_mem_eq(a.v[i], b.v[i], a.v[i]->size);
	}
	attr_for(&attr2, PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER);
	ck_assert_int_eq(synth__process(s, getpid(), &attr2, collect, &c), 0);
	ck_assert_uint_eq(c.n, a.n);
	for (size_t i = 0; i < c.n; i++)	/* the longer trailer */
		ck_assert_uint_eq(c.v[i]->size, a.v[i]->size + 16);
	ck_assert_int_eq(synth__process(s, 0x7ffffff0, &attr, collect, &c),
			 -ESRCH);
	ck_assert_int_eq(synth__process(NULL, getpid(), &attr, collect, &c),
			 -EINVAL);
	synth__free(s);
	synth__free(NULL);
	errno = 0;
	ck_assert_ptr_null(synth__new("/nonexistent-proc"));
	ck_assert_int_ne(errno, 0);
	recs_free(&a);
	recs_free(&b);
	recs_free(&c);
}
END_TEST

START_TEST(test_no_trailer)
{
	struct perf_event_attr attr;
	struct recs r = { 0 };
	struct rec_mmap m;
	struct rec_comm c;

	attr_for(&attr, 0);
	attr.sample_id_all = 0;
	ck_assert_int_eq(synth__processes(NULL, getpid(), &attr, collect, &r),
			 0);
	ck_assert_uint_gt(r.n, 2);
	for (size_t i = 0; i < r.n; i++) {
		if (r.v[i]->type == PERF_RECORD_COMM)
			ck_assert_int_eq(record__parse_comm(r.v[i], 0, &c), 0);
		if (r.v[i]->type == PERF_RECORD_MMAP2)
			ck_assert_int_eq(record__parse_mmap(r.v[i], 0, true, &m), 0);
	}
	/* a trailer without TID is all zeroes */
	recs_free(&r);
	attr_for(&attr, 0);
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME;
	ck_assert_int_eq(synth__processes(NULL, getpid(), &attr, collect, &r),
			 0);
	for (size_t i = 0; i < r.n; i++) {
		u64 t;

		memcpy(&t, (char *)r.v[i] + r.v[i]->size - 8, 8);
		ck_assert_uint_eq(t, 0);
	}
	recs_free(&r);
}
END_TEST

/* An attr without build_id gets device and inode, never the bit: a reader
 * takes the union for a build-id only where the attr asks for one. */
START_TEST(test_no_build_id_attr)
{
	char exe[4096];
	struct perf_event_attr attr;
	struct recs r = { 0 };
	struct rec_mmap m;
	struct stat st;
	ssize_t n;
	size_t trailer;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	ck_assert_int_eq(stat("/proc/self/exe", &st), 0);
	attr_for(&attr, 0);
	attr.build_id = 0;
	trailer = record__id_trailer_size(attr.sample_type, 1);
	ck_assert_int_eq(synth__processes(NULL, getpid(), &attr, collect, &r),
			 0);
	for (size_t i = 0; i < r.n; i++)
		if (r.v[i]->type == PERF_RECORD_MMAP2)
			ck_assert(!(r.v[i]->misc &
				    PERF_RECORD_MISC_MMAP_BUILD_ID));
	ck_assert_ptr_nonnull(find_mmap(&r, trailer, exe, &m));
	ck_assert(!m.has_build_id);
	ck_assert(!m.leaked_build_id);
	ck_assert_uint_eq(m.ino, st.st_ino);
	ck_assert_uint_eq(m.maj, major(st.st_dev));
	ck_assert_uint_eq(m.min, minor(st.st_dev));
	recs_free(&r);
}
END_TEST

/* A mapped file that was deleted keeps its name and its build-id. */
START_TEST(test_deleted)
{
	char path[] = "/tmp/ptop-synth-XXXXXX", want[64];
	struct perf_event_attr attr;
	struct recs r = { 0 };
	struct rec_mmap m;
	u8 bid[20];
	int bid_size, fd, in;
	char buf[65536];
	ssize_t n;
	void *p;
	size_t trailer;

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	in = open("/proc/self/exe", O_RDONLY);
	ck_assert_int_ge(in, 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		ck_assert_int_eq(write(fd, buf, (size_t)n), n);
	close(in);
	bid_size = libelf_build_id(path, bid);
	ck_assert_int_gt(bid_size, 0);
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	close(fd);
	unlink(path);
	snprintf(want, sizeof(want), "%s (deleted)", path);

	attr_for(&attr, 0);
	trailer = record__id_trailer_size(attr.sample_type, 1);
	ck_assert_int_eq(synth__processes(NULL, getpid(), &attr, collect, &r),
			 0);
	ck_assert_ptr_nonnull(find_mmap(&r, trailer, want, &m));
	ck_assert_uint_eq(m.start, (u64)(uintptr_t)p);
	ck_assert_uint_eq(m.len, 4096);
	ck_assert_uint_eq(m.pgoff, 0);
	/* map_files needs CAP_SYS_ADMIN; without it, device and inode */
	if (geteuid() == 0) {
		ck_assert(m.has_build_id);
		ck_assert_mem_eq(m.build_id, bid, (size_t)bid_size);
	}
	munmap(p, 4096);
	recs_free(&r);
}
END_TEST

static void copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	ck_assert_int_ge(in, 0);
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ck_assert_int_ge(out, 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		ck_assert_int_eq(write(out, buf, (size_t)n), n);
	close(in);
	close(out);
}

/* A process in its own mount namespace and root, as in a container: its
 * "/prog" exists only there and is read through its root. */
START_TEST(test_container)
{
	char dir[] = "/tmp/ptop-ctr-XXXXXX", prog[64], old[64];
	int ready[2], done[2], status;
	struct perf_event_attr attr;
	struct recs r = { 0 };
	struct rec_mmap m;
	u8 bid[20];
	int bid_size;
	void *addr;
	pid_t child;

	if (geteuid() != 0)
		test_skip("not root (mount namespaces need it)");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	snprintf(old, sizeof(old), "%s/old", dir);
	copy_file("/proc/self/exe", prog);
	ck_assert_int_eq(mkdir(old, 0700), 0);
	bid_size = libelf_build_id(prog, bid);
	ck_assert_int_gt(bid_size, 0);
	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(pipe(done), 0);
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		void *p = MAP_FAILED;
		char c;
		int fd;

		if (unshare(CLONE_NEWNS) == 0 &&
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
		    mount(dir, dir, NULL, MS_BIND, NULL) == 0 &&
		    chdir(dir) == 0 &&
		    syscall(SYS_pivot_root, ".", "old") == 0 &&
		    chdir("/") == 0 && umount2("/old", MNT_DETACH) == 0 &&
		    (fd = open("/prog", O_RDONLY)) >= 0) {
			p = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
				 MAP_PRIVATE, fd, 0);
			close(fd);
		}
		if (write(ready[1], &p, sizeof(p)) != sizeof(p))
			_exit(1);
		if (read(done[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	ck_assert_int_eq(read(ready[0], &addr, sizeof(addr)),
			 (ssize_t)sizeof(addr));
	ck_assert_ptr_ne(addr, MAP_FAILED);

	attr_for(&attr, 0);
	ck_assert_int_eq(synth__processes(NULL, child, &attr, collect, &r),
			 0);
	ck_assert_ptr_nonnull(find_mmap(&r, record__id_trailer_size(
						    attr.sample_type, 1),
					"/prog", &m));
	ck_assert_uint_eq(m.start, (u64)(uintptr_t)addr);
	ck_assert(m.has_build_id);
	ck_assert_mem_eq(m.build_id, bid, (size_t)bid_size);

	ck_assert_int_eq(write(done[1], "x", 1), 1);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	unlink(prog);
	rmdir(old);
	rmdir(dir);
	recs_free(&r);
}
END_TEST

START_TEST(test_vanished)
{
	struct perf_event_attr attr;
	struct recs r = { 0 };
	pid_t pid = test_dead_pid(), *tids;
	size_t nr = 1;
	char comm[32] = "x";

	attr_for(&attr, 0);
	ck_assert_int_eq(synth__processes(NULL, pid, &attr, collect, &r),
			 -ESRCH);
	ck_assert_uint_eq(r.n, 0);
	ck_assert_int_eq(synth__threads(NULL, pid, &tids, &nr), -ESRCH);
	ck_assert_uint_eq(nr, 0);
	ck_assert_ptr_null(tids);
	ck_assert_int_eq(synth__comm(NULL, pid, comm, sizeof(comm)), -ESRCH);
	ck_assert_str_eq(comm, "");
	ck_assert_int_eq(synth__processes("/nonexistent-proc", -1, &attr,
					  collect, &r), -ENOENT);
}
END_TEST

START_TEST(test_threads_and_find)
{
	struct waiter w;
	pthread_t th;
	pid_t *tids = NULL, *pids = NULL;
	size_t nr = 0;
	char comm[64];
	bool self = false, other = false, found = false;

	start_waiter(&w, &th);
	ck_assert_int_eq(synth__threads(NULL, getpid(), &tids, &nr), 0);
	stop_waiter(&w, th);
	ck_assert_uint_ge(nr, 2);
	for (size_t i = 0; i < nr; i++) {
		if (i)
			ck_assert_int_lt(tids[i - 1], tids[i]);
		self |= tids[i] == getpid();
		other |= tids[i] == w.tid;
	}
	ck_assert(self && other);
	free(tids);

	ck_assert_int_eq(synth__comm("/proc", getpid(), comm, sizeof(comm)),
			 0);
	ck_assert_int_eq(synth__find_pids(NULL, comm, &pids, &nr), 0);
	for (size_t i = 0; i < nr; i++)
		found |= pids[i] == getpid();
	ck_assert(found);
	free(pids);
	ck_assert_int_eq(synth__find_pids(NULL, "no-such-ptop-process", &pids,
					  &nr), 0);
	ck_assert_uint_eq(nr, 0);
	free(pids);
}
END_TEST

/* -p's and the p key's lists: pids and names mixed, sorted, each once;
 * self left out of a name's processes; errors say which item */
START_TEST(test_resolve_pids)
{
	pid_t *pids = NULL;
	size_t nr = 0;
	struct strbuf err;
	char comm[64], list[128];

	strbuf__init(&err);
	ck_assert_int_eq(synth__comm("/proc", getpid(), comm, sizeof(comm)),
			 0);
	ck_assert_int_eq(synth__resolve_pids(NULL, "30, 20 10,20", 0, &pids,
					     &nr, &err), 0);
	ck_assert_uint_eq(nr, 3);
	ck_assert(pids[0] == 10 && pids[1] == 20 && pids[2] == 30);
	free(pids);
	/* this process by its name, and by it again as a pid */
	snprintf(list, sizeof(list), " %s ,%d", comm, (int)getppid());
	ck_assert_int_eq(synth__resolve_pids(NULL, list, 0, &pids, &nr, &err),
			 0);
	ck_assert_uint_ge(nr, 2);
	{
		bool self = false, parent = false;

		for (size_t i = 0; i < nr; i++) {
			if (i)
				ck_assert_int_lt(pids[i - 1], pids[i]);
			self |= pids[i] == getpid();
			parent |= pids[i] == getppid();
		}
		ck_assert(self && parent);
	}
	free(pids);
	/* self is left out of a name's processes (other runners may have
	 * the name: none of them is self) */
	{
		int rc = synth__resolve_pids(NULL, comm, getpid(), &pids, &nr,
					     &err);

		ck_assert(rc == 0 || rc == -ESRCH);
		for (size_t i = 0; i < nr; i++)
			ck_assert_int_ne(pids[i], getpid());
		free(pids);
		strbuf__reset(&err);
	}
	ck_assert_int_eq(synth__resolve_pids(NULL, "no-such-ptop-process", 0,
					     &pids, &nr, &err), -ESRCH);
	ck_assert_ptr_null(pids);
	ck_assert_str_eq(err.buf, "no process named 'no-such-ptop-process'");
	strbuf__reset(&err);
	ck_assert_int_eq(synth__resolve_pids(NULL, "12,0", 0, &pids, &nr,
					     &err), -EINVAL);
	ck_assert_str_eq(err.buf, "bad pid '0'");
	strbuf__reset(&err);
	ck_assert_int_eq(synth__resolve_pids(NULL, " , ", 0, &pids, &nr, &err),
			 -EINVAL);
	ck_assert_uint_eq(nr, 0);
	strbuf__fini(&err);
}
END_TEST

START_TEST(test_stop)
{
	struct perf_event_attr attr;
	struct recs r = { .stop_after = 1 };

	attr_for(&attr, 0);
	ck_assert_int_eq(synth__processes(NULL, -1, &attr, collect, &r), 42);
	ck_assert_uint_eq(r.n, 1);
	recs_free(&r);
}
END_TEST

static int count_cb(void *ctx, const struct perf_event_header *h)
{
	size_t *n = ctx;

	(void)h;
	(*n)++;
	return 0;
}

/* Everything on this machine, quickly (it runs before the first screen). */
START_TEST(test_all_fast)
{
	struct perf_event_attr attr;
	struct timespec t0, t1;
	size_t n = 0;
	double ms;

	attr_for(&attr, 0);
	/* CPU time: a loaded machine only makes the wall time longer */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	ck_assert_int_eq(synth__processes(NULL, -1, &attr, count_cb, &n), 0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
	     (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	ck_assert_uint_gt(n, 10);
	/* 100 ms is the budget; sanitizers and a loaded CI get slack. */
	ck_assert_msg(ms < 1000, "synthesizing every process took %.1f ms",
		      ms);
}
END_TEST

Suite *synth_suite(void);
Suite *synth_suite(void)
{
	Suite *s = suite_create("synth");
	TCase *tc = tcase_create("proc");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_self);
	tcase_add_test(tc, test_no_trailer);
	tcase_add_test(tc, test_no_build_id_attr);
	tcase_add_test(tc, test_kept);
	tcase_add_test(tc, test_deleted);
	tcase_add_test(tc, test_container);
	tcase_add_test(tc, test_vanished);
	tcase_add_test(tc, test_threads_and_find);
	tcase_add_test(tc, test_resolve_pids);
	tcase_add_test(tc, test_stop);
	tcase_add_test(tc, test_all_fast);
	suite_add_tcase(s, tc);
	return s;
}
