/* check_symbolizer: the facade end to end, on the fixtures. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>
#include <unistd.h>

#include "tests/fixtures/symtest.h"
#include "src/core/log.h"
#include "src/sys/fdio.h"
#include "tests/testutil.h"
#include "symbols/symbolizer.h"
#include "symbols/symcache.h"
#include "symbols/symtab.h"

static struct symbolizer *s;

static void setup(void)
{
	test_log_capture();
	s = symbolizer__new(NULL);
	ck_assert_ptr_nonnull(s);
}

static void teardown(void)
{
	symbolizer__free(s);
	s = NULL;
	log__set_handler(NULL, NULL);
}

static void renew(const struct symbolizer_opts *o)
{
	symbolizer__free(s);
	s = symbolizer__new(o);
	ck_assert_ptr_nonnull(s);
}

/* Looks up nm's function name through dso at file offsets and checks
 * everything the row and annotate need. */
static void check_func(const struct dso *d, const char *nm, const char *name,
		       const char *want, u32 flags)
{
	struct sym_info si;
	u64 addr, size, off, v;

	ck_assert_msg(nm_find(nm, name, &addr, &size), "%s", name);
	ck_assert_int_eq(symbolizer__from_vaddr(s, d, addr, &off), 0);
	ck_assert_int_eq(symbolizer__to_vaddr(s, d, off, &v), 0);
	ck_assert_uint_eq(v, addr);
	ck_assert_int_eq(symbolizer__lookup(s, d, off + size - 1, &si), 0);
	ck_assert_int_eq(si.status, DSO_ST_OK);
	ck_assert_ptr_nonnull(si.name);
	ck_assert_str_eq(si.name, want);
	ck_assert_uint_eq(si.start, off);
	ck_assert_uint_eq(si.size, size);
	ck_assert_uint_eq(si.vaddr, addr);
	ck_assert_uint_eq(si.flags, flags);
	ck_assert_str_eq(si.dso_name, d->name);
}

START_TEST(test_files)
{
	struct dso nonpie = file_dso(0, fixture_path("symfix"));
	struct dso pie = file_dso(1, fixture_path("symfix-pie"));
	struct dso lib = file_dso(2, fixture_path("libsymfix.so"));
	struct sym_info si;

	check_func(&nonpie, "symfix.nm", "fix_leaf", "fix_leaf", 0);
	check_func(&nonpie, "symfix.nm", "fix_caller", "fix_caller", 0);
	check_func(&nonpie, "symfix.nm", "fix_weak", "fix_target", 0);
	check_func(&pie, "symfix-pie.nm", "fix_static", "fix_static", 0);
	check_func(&pie, "symfix-pie.nm", "main", "main", 0);
	check_func(&lib, "libsymfix.nm", "lib_hidden", "lib_hidden", 0);
	check_func(&lib, "libsymfix.nm", "lib_print", "lib_print", 0);
	/* non-PIE: the key is the file offset, not the vaddr */
	u64 addr, size;

	ck_assert(nm_find("symfix.nm", "fix_leaf", &addr, &size));
	ck_assert_int_eq(symbolizer__lookup(s, &nonpie, addr, &si), 0);
	ck_assert_ptr_null(si.name);
	ck_assert_str_eq(symbolizer__dso_file(s, &pie),
			 test_fixture("symfix-pie"));
}
END_TEST

/* Waits (bounded) until the worker has finished `want` loads. */
static void wait_loads(u64 want)
{
	for (int i = 0; i < 5000 && symbolizer__loads(s) < want; i++)
		usleep(1000);
	ck_assert_uint_ge(symbolizer__loads(s), want);
}

/* A build's deadline: a lookup whose symbols or DWARF the worker reads
 * starts that load and, past the deadline, answers "not yet" (counted,
 * and counted apart as waiting for the worker); once the worker is done
 * the answer comes at once, deadline or not.  What runs on the caller's
 * thread (opening a binary, a DWARF walk) waits past the deadline but
 * for the first of a build; nothing deferred is remembered. */
START_TEST(test_deadline)
{
	struct dso pie = file_dso(0, fixture_path("symfix-pie"));
	struct dso lib = file_dso(1, fixture_path("libsymfix.so"));
	struct sym_info si;
	struct srcline sl[4];
	u64 leaf, caller, print, size, off_leaf, off_caller, off_print;
	u64 loads;

	ck_assert(nm_find("symfix-pie.nm", "fix_leaf", &leaf, &size));
	ck_assert(nm_find("symfix-pie.nm", "fix_caller", &caller, &size));
	ck_assert(nm_find("libsymfix.nm", "lib_print", &print, &size));
	/* the conversions need the ELF layout alone */
	ck_assert_int_eq(symbolizer__from_vaddr(s, &pie, leaf, &off_leaf), 0);
	ck_assert_int_eq(symbolizer__from_vaddr(s, &pie, caller, &off_caller), 0);
	ck_assert_int_eq(symbolizer__from_vaddr(s, &lib, print, &off_print), 0);
	renew(NULL);
	loads = symbolizer__loads(s);
	/* a deadline long past (1 s after boot) */
	symbolizer__set_deadline(s, 1.0);
	/* the first open runs; its symbols are the worker's */
	ck_assert_int_eq(symbolizer__lookup(s, &pie, off_leaf, &si), 0);
	if (si.status == DSO_ST_DEFERRED) {
		ck_assert_ptr_null(si.name);
		ck_assert_str_eq(si.dso_name, pie.name);
		ck_assert_uint_eq(symbolizer__deferred_loading(s), 1);
	} else {
		/* the worker was quicker than the lookup's check */
		ck_assert_str_eq(si.name, "fix_leaf");
	}
	/* the second open waits for the next build */
	ck_assert_int_eq(symbolizer__lookup(s, &lib, off_print, &si), 0);
	ck_assert_ptr_null(si.name);
	ck_assert_int_eq(si.status, DSO_ST_DEFERRED);
	ck_assert_str_eq(si.dso_name, lib.name);
	/* the DWARF is the worker's too: its load starts here */
	ck_assert_int_eq(symbolizer__srcline(s, &pie, off_leaf, sl, 4), -EAGAIN);
	ck_assert_uint_ge(symbolizer__deferred(s), 2);
	ck_assert_uint_lt(symbolizer__deferred_loading(s),
			  symbolizer__deferred(s));
	/* both loads end without another lookup; past a deadline again,
	 * their answers come without waiting, and the first DWARF walk of
	 * the build runs */
	wait_loads(loads + 2);
	symbolizer__set_deadline(s, 1.0);
	ck_assert_int_eq(symbolizer__lookup(s, &pie, off_caller, &si), 0);
	ck_assert_str_eq(si.name, "fix_caller");
	ck_assert_int_eq(symbolizer__srcline(s, &pie, off_leaf, sl, 4), 1);
	ck_assert_int_eq(sl[0].line, lines_find("symfix.lines", "leaf"));
	/* a second walk waits for the next build */
	ck_assert_int_eq(symbolizer__srcline(s, &pie, off_caller, sl, 4),
			 -EAGAIN);
	ck_assert_uint_eq(symbolizer__deferred(s), 1);
	ck_assert_uint_eq(symbolizer__deferred_loading(s), 0);
	/* the next build (no deadline here): everything comes, nothing
	 * deferred was kept */
	symbolizer__set_deadline(s, 0);
	ck_assert_uint_eq(symbolizer__deferred(s), 0);
	ck_assert_int_eq(symbolizer__lookup(s, &lib, off_print, &si), 0);
	ck_assert_str_eq(si.name, "lib_print");
	ck_assert_int_eq(si.status, DSO_ST_OK);
	ck_assert_int_ge(symbolizer__srcline(s, &pie, off_caller, sl, 4), 1);
	/* a known line is answered past a deadline too */
	symbolizer__set_deadline(s, 1.0);
	ck_assert_int_eq(symbolizer__lookup(s, &pie, off_caller, &si), 0);
	ck_assert_int_eq(symbolizer__srcline(s, &pie, off_leaf, sl, 4), 1);
	ck_assert_uint_eq(symbolizer__deferred(s), 0);
	symbolizer__set_deadline(s, 0);
}
END_TEST

/* Freeing the symbolizer while the worker is inside a load (a test's
 * slow one: 2 s no signal cuts) returns at once: the load is not waited
 * for. */
START_TEST(test_free_during_load)
{
	struct dso lib = file_dso(1, fixture_path("libsymfix.so"));
	struct symbolizer_opts o = { .slow_load = "libsymfix" };
	struct sym_info si;
	struct timespec a, b;

	renew(&o);
	symbolizer__set_deadline(s, 1.0);
	ck_assert_int_eq(symbolizer__lookup(s, &lib, 0x1000, &si), 0);
	ck_assert_int_eq(si.status, DSO_ST_DEFERRED);
	clock_gettime(CLOCK_MONOTONIC, &a);
	symbolizer__free(s);
	s = NULL;
	clock_gettime(CLOCK_MONOTONIC, &b);
	ck_assert_int_lt((b.tv_sec - a.tv_sec) * 1000 +
				 (b.tv_nsec - a.tv_nsec) / 1000000, 500);
	renew(NULL);
}
END_TEST

/* A stop request ends a wait for the worker: the lookup answers "not
 * yet" (not remembered), and the next one, without it, the name. */
START_TEST(test_stop_wait)
{
	struct dso lib = file_dso(1, fixture_path("libsymfix.so"));
	struct symbolizer_opts o = { 0 };
	volatile sig_atomic_t stop = 1;
	struct sym_info si;
	u64 print, size, off_print;

	ck_assert(nm_find("libsymfix.nm", "lib_print", &print, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &lib, print, &off_print), 0);
	o.stop = &stop;
	renew(&o);
	ck_assert_int_eq(symbolizer__lookup(s, &lib, off_print, &si), 0);
	if (si.status == DSO_ST_DEFERRED)
		ck_assert_ptr_null(si.name);
	else	/* the worker was quicker than the lookup's check */
		ck_assert_str_eq(si.name, "lib_print");
	stop = 0;
	ck_assert_int_eq(symbolizer__lookup(s, &lib, off_print, &si), 0);
	ck_assert_str_eq(si.name, "lib_print");
	ck_assert_int_eq(si.status, DSO_ST_OK);
}
END_TEST

/* The name form switched live (the key N): answers cached in the short
 * form are not given again in the long one, nor the other way. */
START_TEST(test_demangle_switch)
{
	struct symbolizer_opts o = { 0 };
	struct dso lib;
	struct sym_info si;
	u64 addr, size, off;

	renew(&o);
	lib = file_dso(0, fixture_path("libcxxfix.so"));
	ck_assert(nm_find("libcxxfix.nm", "_Z10cxxfix_usei", &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &lib, addr, &off), 0);
	for (int round = 0; round < 2; round++) {
		ck_assert_int_eq(symbolizer__lookup(s, &lib, off, &si), 0);
		ck_assert_str_eq(si.name, "cxxfix_use");
		symbolizer__set_demangle_params(s, true);
		ck_assert_int_eq(symbolizer__lookup(s, &lib, off, &si), 0);
		ck_assert_str_eq(si.name, "cxxfix_use(int)");
		symbolizer__set_demangle_params(s, false);
	}
}
END_TEST

START_TEST(test_plt)
{
	struct dso nonpie = file_dso(0, fixture_path("symfix"));
	struct sym_info si;
	u64 off;

	/* puts@plt at 0x401030 (see symfix.plt) */
	ck_assert_int_eq(symbolizer__from_vaddr(s, &nonpie, 0x401030, &off),
			 0);
	ck_assert_int_eq(symbolizer__lookup(s, &nonpie, off + 2, &si), 0);
	ck_assert_str_eq(si.name, "puts@plt");
	ck_assert_uint_eq(si.flags, SYM_F_PLT);
	ck_assert_uint_eq(si.size, 16);
}
END_TEST

/* What a %rip-relative operand refers to, by virtual address: a
 * function, a global (read on first use, never in the functions'
 * table), a GOT slot; a separate debug file's objects. */
static void check_data(const struct dso *d, const char *nm, const char *name,
		       const char *want)
{
	struct sym_info si;
	u64 addr, size;

	ck_assert_msg(nm_find(nm, name, &addr, &size), "%s", name);
	ck_assert_int_eq(symbolizer__lookup_data(s, d, addr + size - 1, &si),
			 0);
	ck_assert_ptr_nonnull(si.name);
	ck_assert_str_eq(si.name, want);
	ck_assert_uint_eq(si.vaddr, addr);
	ck_assert_uint_eq(si.size, size);
}

START_TEST(test_data)
{
	struct dso nonpie = file_dso(0, fixture_path("symfix"));
	struct dso lib = file_dso(1, fixture_path("libsymfix.so"));
	struct dso gone = file_dso(2, "/nonexistent/ptop/libgone.so");
	char root[4096];
	const char *dirs[] = { root };
	struct symbolizer_opts o = { .debug_dirs = dirs, .nr_debug_dirs = 1 };
	struct dso bid = file_dso(3, fixture_path("symfix-bid"));
	unsigned long long slot;
	char line[512], name[400];
	struct sym_info si;
	u64 addr, size, off;
	FILE *f;

	check_data(&nonpie, "symfix.nm", "symfix_sink", "symfix_sink");
	check_data(&nonpie, "symfix.nm", "fix_leaf", "fix_leaf");
	check_data(&lib, "libsymfix.nm", "symfixlib_sink", "symfixlib_sink");
	/* samples are never named after data */
	ck_assert(nm_find("symfix.nm", "symfix_sink", &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &nonpie, addr, &off), 0);
	ck_assert_int_eq(symbolizer__lookup(s, &nonpie, off, &si), 0);
	ck_assert_ptr_null(si.name);
	/* the library's GOT slot of its global */
	f = fopen(test_fixture("libsymfix.got"), "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %399s", &slot, name) == 2 &&
		    !strcmp(name, "symfixlib_sink"))
			break;
	fclose(f);
	ck_assert_str_eq(name, "symfixlib_sink");
	ck_assert_int_eq(symbolizer__lookup_data(s, &lib, slot + 4, &si), 0);
	ck_assert_str_eq(si.name, "symfixlib_sink@got");
	ck_assert_uint_eq(si.vaddr, slot);
	/* nothing there, nothing to read */
	ck_assert_int_eq(symbolizer__lookup_data(s, &nonpie, 8, &si), 0);
	ck_assert_ptr_null(si.name);
	ck_assert_int_eq(symbolizer__lookup_data(s, &gone, addr, &si), 0);
	ck_assert_ptr_null(si.name);
	ck_assert_int_eq(symbolizer__lookup_data(NULL, &gone, 0, &si),
			 -EINVAL);
	ck_assert_int_eq(symbolizer__lookup_data(s, &gone, 0, NULL), -EINVAL);
	/* a stripped binary: the objects of its debug file's .symtab */
	snprintf(root, sizeof(root), "%s", test_fixture("debugroot"));
	renew(&o);
	check_data(&bid, "symfix-bid.nm", "symfix_sink", "symfix_sink");
}
END_TEST

START_TEST(test_stripped)
{
	struct dso d = file_dso(0, fixture_path("symfix-stripped"));
	struct sym_info si;
	struct srcline sl[4];
	char want[64];
	u64 addr, size;

	ck_assert(nm_find("symfix-pie.nm", "fix_caller", &addr, &size));
	snprintf(want, sizeof(want), "func_0x%llx", (unsigned long long)addr);
	check_func(&d, "symfix-pie.nm", "fix_caller", want, SYM_F_SYNTH);
	/* every address of the function: one row */
	for (u64 a = addr; a < addr + size; a++) {
		ck_assert_int_eq(symbolizer__lookup(s, &d, a, &si), 0);
		ck_assert_str_eq(si.name, want);
	}
	ck_assert_int_eq(symbolizer__srcline(s, &d, addr, sl, 4), 0);
}
END_TEST

START_TEST(test_debug_files)
{
	char root[4096];
	const char *dirs[] = { root };
	struct symbolizer_opts o = { .debug_dirs = dirs, .nr_debug_dirs = 1 };
	struct dso dl = file_dso(0, fixture_path("symfix-dl"));
	struct dso bid;
	char bid_path[4096];
	struct srcline sl[4];
	u64 addr, size, off;

	snprintf(root, sizeof(root), "%s", test_fixture("debugroot"));
	snprintf(bid_path, sizeof(bid_path), "%s", test_fixture("symfix-bid"));
	bid = file_dso(1, bid_path);
	renew(&o);
	/* .gnu_debuglink */
	check_func(&dl, "symfix-pie.nm", "fix_caller", "fix_caller", 0);
	ck_assert_str_eq(symbolizer__dso_file(s, &dl),
			 test_fixture("symfix-dl.debug"));
	ck_assert(nm_find("symfix-pie.nm", "fix_leaf", &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &dl, addr, &off), 0);
	ck_assert_int_eq(symbolizer__srcline(s, &dl, off, sl, 4), 1);
	ck_assert_int_eq(sl[0].line, lines_find("symfix.lines", "leaf"));
	/* build-id under --debug-dir */
	check_func(&bid, "symfix-bid.nm", "fix_caller", "fix_caller", 0);
	ck_assert_ptr_nonnull(strstr(symbolizer__dso_file(s, &bid),
				     "/.build-id/"));
	ck_assert(nm_find("symfix-bid.nm", "fix_caller", &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &bid, addr, &off), 0);
	bool chain = false;

	for (u64 a = off; a < off + size; a++) {
		int n = symbolizer__srcline(s, &bid, a, sl, 4);

		ck_assert_int_ge(n, 1);
		if (n == 2 && !strcmp(sl[0].func, "fix_inl"))
			chain = !strcmp(sl[1].func, "fix_caller");
	}
	ck_assert(chain);
}
END_TEST

START_TEST(test_mismatch)
{
	struct dso d = file_dso(0, fixture_path("symfix-pie"));
	struct sym_info si;
	char buf[16];

	memset(d.build_id, 0xab, 20);
	d.build_id_size = 20;
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(symbolizer__lookup(s, &d, 0x11f0, &si), 0);
		ck_assert_int_eq(si.status, DSO_ST_MISMATCH);
		ck_assert_ptr_null(si.name);
		ck_assert_str_eq(si.dso_name, "symfix-pie");
	}
	ck_assert_int_eq(test_warnings, 1);
	ck_assert_ptr_nonnull(strstr(test_last_warning, "build-id"));
	ck_assert_int_eq(symbolizer__read_code(s, &d, 0x1000, buf, 16),
			 -ESTALE);
	ck_assert_int_eq(symbolizer__srcline(s, &d, 0x11f0, NULL, 0), 0);
}
END_TEST

START_TEST(test_unreadable)
{
	const char *files[] = { "garbage.elf", "notelf.bin", "no-such-file" };

	for (u32 i = 0; i < ARRAY_SIZE(files); i++) {
		char p[4096];
		struct dso d;
		struct sym_info si;

		snprintf(p, sizeof(p), "%s", test_fixture(files[i]));
		d = file_dso(i, p);
		ck_assert_int_eq(symbolizer__lookup(s, &d, 0x40, &si), 0);
		ck_assert_int_eq(si.status, DSO_ST_UNREADABLE);
		ck_assert_ptr_null(si.name);
		ck_assert_str_eq(si.dso_name, files[i]);
		ck_assert_ptr_null(symbolizer__dso_file(s, &d));
	}
	ck_assert_int_eq(test_warnings, 0);	/* missing files are info only */
}
END_TEST

/* one build-id, one image: the stripped copy gets the full names */
START_TEST(test_shared_image)
{
	struct dso full = file_dso(0, fixture_path("symfix-pie"));
	char p[4096];
	struct dso stripped;

	snprintf(p, sizeof(p), "%s", test_fixture("symfix-stripped"));
	stripped = file_dso(1, p);
	check_func(&full, "symfix-pie.nm", "fix_leaf", "fix_leaf", 0);
	check_func(&stripped, "symfix-pie.nm", "fix_leaf", "fix_leaf", 0);
}
END_TEST

START_TEST(test_container)
{
	struct symbolizer_opts o = { .proc = test_fixture("proc") };
	struct dso d = file_dso(0, "/usr/lib/libsymfix.so");

	renew(&o);
	d.pid = 4243;
	check_func(&d, "libsymfix.nm", "lib_exported", "lib_exported", 0);
}
END_TEST

START_TEST(test_kernel)
{
	static const struct {
		u64 addr;
		const char *dso;
	} nameless[] = {
		{ 0xffffffff81000500, "[kernel.kallsyms]" },
		{ 0xffffffff90000000, "[unknown]" },
		{ 0xffffffffc0001380, "[unknown]" },
		{ 0xffffffff80000000, "[unknown]" },
	};
	char path[4096];
	struct symbolizer_opts o = { .kallsyms = path };
	struct dso k = { .kind = DSO_KERNEL, .id = 3, .pid = -1 };
	struct dso f = file_dso(0, fixture_path("symfix-pie"));
	struct sym_info si;
	char buf[8];

	snprintf(path, sizeof(path), "%s", test_fixture("kallsyms.normal"));
	renew(&o);
	ck_assert(!symbolizer__kernel_restricted(s));
	ck_assert_int_eq(symbolizer__lookup(s, &k, 0xffffffff81000190, &si), 0);
	ck_assert_str_eq(si.name, "do_syscall_64");
	ck_assert_str_eq(si.dso_name, "[kernel.kallsyms]");
	ck_assert_uint_eq(si.start, 0xffffffff81000180);
	ck_assert_uint_eq(si.vaddr, 0xffffffff81000180);
	ck_assert_uint_eq(si.flags, SYM_F_KERNEL);
	ck_assert_int_eq(si.status, DSO_ST_OK);
	ck_assert_int_eq(symbolizer__lookup(s, &k, 0xffffffffc0001204, &si), 0);
	ck_assert_str_eq(si.name, "mod_a_fn2");
	ck_assert_str_eq(si.dso_name, "[mod_a]");
	/* code no symbol covers: the kernel's inside its text (after a
	 * data symbol), perf's [unknown] beyond it (after _etext, between
	 * a module's symbols, before _stext: trampolines, BPF) */
	for (size_t i = 0; i < ARRAY_SIZE(nameless); i++) {
		ck_assert_int_eq(symbolizer__lookup(s, &k, nameless[i].addr,
						    &si),
				 0);
		ck_assert_ptr_null(si.name);
		ck_assert_str_eq(si.dso_name, nameless[i].dso);
	}
	ck_assert(!symbolizer__kernel_restricted(s));
	ck_assert_int_eq(symbolizer__read_code(s, &k, 0xffffffff81000180, buf,
					       8),
			 -ENOENT);
	ck_assert_str_eq(symbolizer__dso_file(s, &k), path);

	/* kptr_restrict: a warning once, kernel rows unnamed, user fine */
	snprintf(path, sizeof(path), "%s",
		 test_fixture("kallsyms.restricted"));
	renew(&o);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(symbolizer__lookup(s, &k, 0xffffffff81000190,
						    &si),
				 0);
		ck_assert_int_eq(si.status, DSO_ST_RESTRICTED);
		ck_assert_ptr_null(si.name);
	}
	ck_assert(symbolizer__kernel_restricted(s));
	ck_assert_int_eq(test_warnings, 1);
	ck_assert_ptr_nonnull(strstr(test_last_warning, "kptr_restrict"));
	check_func(&f, "symfix-pie.nm", "fix_leaf", "fix_leaf", 0);

	snprintf(path, sizeof(path), "%s", test_fixture("no-kallsyms"));
	renew(&o);
	ck_assert_int_eq(symbolizer__lookup(s, &k, 0xffffffff81000190, &si), 0);
	ck_assert_int_eq(si.status, DSO_ST_UNREADABLE);
	ck_assert(!symbolizer__kernel_restricted(s));
}
END_TEST

/* How many kallsyms cache files dir holds. */
static int kallsyms_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, "kallsyms-", 9);
	closedir(d);
	return n;
}

/* A first run of a boot (symbolizer__prefetch_kernel, as a recording's
 * reader calls it at its first kernel sample): kallsyms' cache made on
 * a worker, which the first kernel lookup waits for and maps, with the
 * names a symbolizer that reads kallsyms itself gives; a second run
 * finds the file and makes nothing; no cache, no prefetch. */
START_TEST(test_kernel_prefetch)
{
	char path[4096], dir[] = "/tmp/ptop-kpre-XXXXXX", cmd[64];
	struct symbolizer_opts o = { .kallsyms = path, .kallsyms_cache = dir };
	struct dso k = { .kind = DSO_KERNEL, .id = 3, .pid = -1 };
	struct sym_info si;

	snprintf(path, sizeof(path), "%s", test_fixture("kallsyms.normal"));
	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (int run = 0; run < 3; run++) {
		if (run == 2)
			o.kallsyms_cache = "";
		renew(&o);
		symbolizer__prefetch_kernel(s);
		symbolizer__prefetch_kernel(s);	/* once */
		ck_assert(!symbolizer__kernel_read(s));
		if (run == 0) {
			/* the worker writes it, no lookup asking (up to
			 * 30 s: a loaded machine) */
			for (int i = 0; i < 15000 && !kallsyms_files(dir); i++)
				usleep(2000);
			ck_assert_int_eq(kallsyms_files(dir), 1);
		}
		ck_assert_int_eq(symbolizer__lookup(s, &k, 0xffffffff81000190,
						    &si),
				 0);
		ck_assert(symbolizer__kernel_read(s));
		ck_assert_str_eq(si.name, "do_syscall_64");
		ck_assert_uint_eq(si.start, 0xffffffff81000180);
		ck_assert_int_eq(si.status, DSO_ST_OK);
		ck_assert_int_eq(symbolizer__lookup(s, &k, 0xffffffffc0001204,
						    &si),
				 0);
		ck_assert_str_eq(si.name, "mod_a_fn2");
		ck_assert_str_eq(si.dso_name, "[mod_a]");
		/* beyond the kernel's text, from the mapped cache too */
		ck_assert_int_eq(symbolizer__lookup(s, &k, 0xffffffff90000000,
						    &si),
				 0);
		ck_assert_ptr_null(si.name);
		ck_assert_str_eq(si.dso_name, "[unknown]");
		ck_assert_int_eq(symbolizer__lookup(s, &k, 0xffffffff81000500,
						    &si),
				 0);
		ck_assert_str_eq(si.dso_name, "[kernel.kallsyms]");
		ck_assert_int_eq(kallsyms_files(dir), 1);
	}
	/* a symbolizer freed while its job may still run */
	o.kallsyms_cache = dir;
	snprintf(cmd, sizeof(cmd), "rm -f %s/kallsyms-*", dir);
	ck_assert_int_eq(system(cmd), 0);
	renew(&o);
	symbolizer__prefetch_kernel(s);
	symbolizer__free(s);
	s = NULL;
	renew(&o);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(test_warnings, 0);
}
END_TEST

START_TEST(test_anon)
{
	char tmp[4096], proc[4096];
	struct symbolizer_opts o = { .tmp = tmp, .proc = proc };
	struct dso jit = { .kind = DSO_ANON, .id = 4, .pid = 4242,
			   .name = "//anon" };
	struct dso other = { .kind = DSO_ANON, .id = 5, .pid = 4244,
			     .name = "//anon" };
	struct sym_info si;
	char buf[4];

	snprintf(tmp, sizeof(tmp), "%s", test_fixture("tmp"));
	snprintf(proc, sizeof(proc), "%s", test_fixture("proc"));
	renew(&o);
	ck_assert_int_eq(symbolizer__lookup(s, &jit, 0x7f0000001050, &si), 0);
	ck_assert_str_eq(si.name, "jit_second with spaces");
	ck_assert_str_eq(si.dso_name, "[JIT] tid 4242");
	/* a JIT map grows: its answers are asked again */
	ck_assert_uint_eq(si.flags, SYM_F_JIT | SYM_F_PROVISIONAL);
	ck_assert_uint_eq(si.start, 0x7f0000001040);
	ck_assert_int_eq(si.status, DSO_ST_OK);
	ck_assert_int_eq(symbolizer__lookup(s, &other, 0x7f0000001050, &si),
			 0);
	ck_assert_ptr_null(si.name);
	ck_assert_str_eq(si.dso_name, "//anon");
	ck_assert_int_eq(si.status, DSO_ST_NO_SYMBOLS);
	/* JIT code is read from /proc/PID/mem while PID lives: the fake
	 * /proc has no mem, as if the process were gone */
	ck_assert_int_eq(symbolizer__read_code(s, &jit, 0x7f0000001050, buf,
					       4),
			 -ESRCH);
}
END_TEST

/* a JIT appends: seen after the next tick, not before */
START_TEST(test_anon_growth)
{
	char dir[] = "/tmp/ptop-jit-XXXXXX", map[128];
	struct symbolizer_opts o = { .tmp = dir, .proc = "/proc" };
	struct dso jit = { .kind = DSO_ANON, .id = 0, .name = "//anon" };
	struct sym_info si;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	jit.pid = getpid();
	snprintf(map, sizeof(map), "%s/perf-%d.map", dir, (int)jit.pid);
	f = fopen(map, "w");
	fputs("1000 10 first\n", f);
	fclose(f);
	renew(&o);
	ck_assert_int_eq(symbolizer__lookup(s, &jit, 0x1000, &si), 0);
	ck_assert_str_eq(si.name, "first");
	f = fopen(map, "a");
	fputs("2000 10 second\n", f);
	fclose(f);
	ck_assert_int_eq(symbolizer__lookup(s, &jit, 0x2000, &si), 0);
	ck_assert_ptr_null(si.name);	/* same tick: not looked at */
	symbolizer__tick(s);
	ck_assert_int_eq(symbolizer__lookup(s, &jit, 0x2000, &si), 0);
	ck_assert_str_eq(si.name, "second");
	unlink(map);
	rmdir(dir);
}
END_TEST

START_TEST(test_unknown_hypervisor)
{
	struct dso u = { .kind = DSO_UNKNOWN, .id = 0, .pid = -1 };
	struct dso h = { .kind = DSO_HYPERVISOR, .id = 1, .pid = -1 };
	struct sym_info si;
	struct srcline sl[2];

	ck_assert_int_eq(symbolizer__lookup(s, &u, 0x1234, &si), 0);
	ck_assert_ptr_null(si.name);
	ck_assert_str_eq(si.dso_name, "[unknown]");
	ck_assert_int_eq(symbolizer__lookup(s, &h, 0x1234, &si), 0);
	ck_assert_ptr_null(si.name);
	ck_assert_str_eq(si.dso_name, "[hypervisor]");
	ck_assert_int_eq(symbolizer__srcline(s, &h, 0x1234, sl, 2), 0);
	u64 v;

	ck_assert_int_eq(symbolizer__to_vaddr(s, &u, 0x1234, &v), 0);
	ck_assert_uint_eq(v, 0x1234);
}
END_TEST

START_TEST(test_vdso)
{
	struct dso v = { .kind = DSO_VDSO, .id = 0, .pid = -1,
			 .name = "[vdso]" };
	const u8 *base = (const u8 *)getauxval(AT_SYSINFO_EHDR);
	struct sym_info si;
	u8 code[16];
	bool found = false;

	/* every x86-64 Linux process has one */
	ck_assert_ptr_nonnull(base);
	/* our own vdso: find its clock_gettime by walking its text */
	for (u64 a = 0; a < 0x2000 && !found; a += 4) {
		ck_assert_int_eq(symbolizer__lookup(s, &v, a, &si), 0);
		found = si.name && strstr(si.name, "clock_gettime");
	}
	ck_assert_msg(found, "no clock_gettime in the vdso");
	ck_assert_int_eq(si.status, DSO_ST_OK);
	ck_assert_str_eq(si.dso_name, "[vdso]");
	ck_assert_int_eq(symbolizer__read_code(s, &v, si.start, code, 16), 16);
	ck_assert_mem_eq(code, base + si.start, 16);
	/* a vdso from another kernel */
	v.id = 1;
	memset(v.build_id, 0x11, 20);
	v.build_id_size = 20;
	ck_assert_int_eq(symbolizer__lookup(s, &v, si.start, &si), 0);
	ck_assert_int_eq(si.status, DSO_ST_MISMATCH);
	ck_assert_ptr_null(si.name);
}
END_TEST

START_TEST(test_vdso_image)
{
	char path[4096];
	struct symbolizer_opts o = { .vdso_image = path };
	struct dso v = { .kind = DSO_VDSO, .id = 0, .pid = -1,
			 .name = "[vdso]" };

	/* any ELF image does: here the PIE fixture */
	snprintf(path, sizeof(path), "%s", test_fixture("symfix-pie"));
	renew(&o);
	check_func(&v, "symfix-pie.nm", "fix_leaf", "fix_leaf", 0);
	snprintf(path, sizeof(path), "%s", test_fixture("notelf.bin"));
	renew(&o);
	struct sym_info si;

	ck_assert_int_eq(symbolizer__lookup(s, &v, 0x1000, &si), 0);
	ck_assert_int_eq(si.status, DSO_ST_UNREADABLE);
}
END_TEST

START_TEST(test_read_code)
{
	struct dso pie = file_dso(0, fixture_path("symfix-pie"));
	struct dso nonpie = file_dso(1, fixture_path("symfix"));
	size_t len = 0;
	u8 *img = slurp(test_fixture("symfix"), &len), buf[64];
	u64 addr, size, off;

	ck_assert_ptr_nonnull(img);
	ck_assert(nm_find("symfix.nm", "fix_caller", &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &nonpie, addr, &off), 0);
	ck_assert_int_eq(symbolizer__read_code(s, &nonpie, off, buf, size),
			 (long)size);
	ck_assert_mem_eq(buf, img + off, size);
	/* alternating dsos reopen the right file */
	ck_assert_int_eq(symbolizer__read_code(s, &pie, 0, buf, 4), 4);
	ck_assert_mem_eq(buf, "\177ELF", 4);
	ck_assert_int_eq(symbolizer__read_code(s, &nonpie, off, buf, size),
			 (long)size);
	ck_assert_mem_eq(buf, img + off, size);
	/* past the end: short, then nothing */
	ck_assert_int_eq(symbolizer__read_code(s, &nonpie, len - 3, buf, 16),
			 3);
	ck_assert_int_eq(symbolizer__read_code(s, &nonpie, len + 100, buf, 16),
			 0);
	ck_assert_int_eq(symbolizer__read_code(s, &nonpie, UINT64_MAX, buf, 16),
			 0);
	free(img);
}
END_TEST

/* trimming frees the tables; names already handed out stay valid */
START_TEST(test_trim)
{
	struct dso pie = file_dso(0, fixture_path("symfix-pie"));
	struct sym_info a, b;
	struct srcline sl[2];
	u64 addr, size, off;

	ck_assert(nm_find("symfix-pie.nm", "fix_leaf", &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &pie, addr, &off), 0);
	ck_assert_int_eq(symbolizer__lookup(s, &pie, off, &a), 0);
	ck_assert_int_eq(symbolizer__srcline(s, &pie, off, sl, 2), 1);
	for (int i = 0; i < 5; i++)
		symbolizer__tick(s);
	symbolizer__trim(s, 2);
	ck_assert_str_eq(a.name, "fix_leaf");
	ck_assert(sl[0].file && strstr(sl[0].file, "symfix.c"));
	ck_assert_int_eq(symbolizer__lookup(s, &pie, off, &b), 0);
	ck_assert_ptr_eq(a.name, b.name);
	ck_assert_uint_eq(a.size, b.size);
	ck_assert_int_eq(symbolizer__srcline(s, &pie, off, sl, 2), 1);
	/* recently used: kept */
	symbolizer__tick(s);
	symbolizer__trim(s, 2);
	ck_assert_int_eq(symbolizer__lookup(s, &pie, off, &b), 0);
	ck_assert_ptr_eq(a.name, b.name);
	/* the cached answers go with the generations no lookup asked for
	 * them, those asked for since stay: an address of 2 ticks ago
	 * against one asked for each tick */
	{
		struct symbolizer_stats st;
		size_t before;

		symbolizer__stats(s, &st);
		before = st.resolved;
		ck_assert_uint_ge(before, 2);	/* the symbol, the line */
		for (int i = 0; i < 3; i++) {
			symbolizer__tick(s);
			ck_assert_int_eq(symbolizer__lookup(s, &pie, off, &b),
					 0);
			symbolizer__trim(s, 2);
		}
		symbolizer__stats(s, &st);
		/* the symbol's answer stays, the line's went */
		ck_assert_uint_eq(st.resolved, before - 1);
		for (int i = 0; i < 3; i++)
			symbolizer__tick(s);
		symbolizer__trim(s, 2);
		symbolizer__stats(s, &st);
		ck_assert_uint_eq(st.resolved, 0);
		ck_assert_int_eq(symbolizer__lookup(s, &pie, off, &b), 0);
		ck_assert_ptr_eq(a.name, b.name);
	}
	symbolizer__trim(s, 0);
	symbolizer__trim(NULL, 0);
	symbolizer__tick(NULL);
}
END_TEST

START_TEST(test_bad_args)
{
	struct dso d = file_dso(0, fixture_path("symfix-pie"));
	struct sym_info si;
	u64 v;
	u8 buf[4];

	ck_assert_int_eq(symbolizer__lookup(NULL, &d, 0, &si), -EINVAL);
	ck_assert_int_eq(symbolizer__lookup(s, NULL, 0, &si), -EINVAL);
	ck_assert_int_eq(symbolizer__lookup(s, &d, 0, NULL), -EINVAL);
	ck_assert_int_eq(symbolizer__to_vaddr(s, &d, 0, NULL), -EINVAL);
	ck_assert_int_eq(symbolizer__from_vaddr(s, NULL, 0, &v), -EINVAL);
	ck_assert_int_eq(symbolizer__srcline(s, &d, 0, NULL, 2), -EINVAL);
	ck_assert_int_eq(symbolizer__read_code(s, &d, 0, NULL, 4), -EINVAL);
	ck_assert_int_eq(symbolizer__read_code(s, &d, 0, buf, 0), 0);
	ck_assert_ptr_null(symbolizer__dso_file(NULL, &d));
	ck_assert(!symbolizer__kernel_restricted(NULL));
	symbolizer__free(NULL);
	/* a huge id is a memory question, not a crash */
	d.id = UINT32_MAX;
	ck_assert_int_le(symbolizer__lookup(s, &d, 0, &si), 0);
}
END_TEST

/* Every byte of a few functions: the same answers from the resolution
 * cache (a second pass) as from a symbolizer that keeps one entry. */
static void same_answers(struct symbolizer *a, struct symbolizer *b,
			 const struct dso *d, u64 off, u64 size)
{
	for (u64 x = off; x < off + size; x++) {
		struct sym_info sa, sb;
		struct srcline la[8], lb[8];
		int na, nb;

		ck_assert_int_eq(symbolizer__lookup(a, d, x, &sa), 0);
		ck_assert_int_eq(symbolizer__lookup(b, d, x, &sb), 0);
		ck_assert_ptr_nonnull(sa.name);
		ck_assert_str_eq(sa.name, sb.name);
		ck_assert_str_eq(sa.raw_name, sb.raw_name);
		ck_assert_uint_eq(sa.start, sb.start);
		ck_assert_uint_eq(sa.size, sb.size);
		ck_assert_uint_eq(sa.vaddr, sb.vaddr);
		ck_assert_uint_eq(sa.flags, sb.flags);
		ck_assert_int_eq(sa.status, sb.status);
		ck_assert_str_eq(sa.dso_name, sb.dso_name);
		na = symbolizer__srcline(a, d, x, la, 8);
		nb = symbolizer__srcline(b, d, x, lb, 8);
		ck_assert_int_eq(na, nb);
		for (int i = 0; i < na; i++) {
			ck_assert_int_eq(la[i].line, lb[i].line);
			ck_assert_str_eq(la[i].file ? la[i].file : "-",
					 lb[i].file ? lb[i].file : "-");
			ck_assert_str_eq(la[i].func ? la[i].func : "-",
					 lb[i].func ? lb[i].func : "-");
		}
		/* names only: the same functions, no file (and none when
		 * nothing was inlined), cached apart from the lines */
		for (int k = 0; k < 2; k++) {
			struct symbolizer *z = k ? b : a;
			struct srcline li[8];
			int ni = symbolizer__inlines(z, d, x, li, 8);

			ck_assert_int_eq(ni, na > 1 ? na : 0);
			for (int i = 0; i < ni; i++) {
				ck_assert_ptr_null(li[i].file);
				ck_assert_int_eq(li[i].line, 0);
				ck_assert_str_eq(li[i].func ? li[i].func : "-",
						 la[i].func ? la[i].func : "-");
			}
		}
		ck_assert_int_eq(symbolizer__srcline(a, d, x, lb, 8), na);
		if (na > 0)
			ck_assert_int_eq(lb[0].line, la[0].line);
		/* fewer frames asked of a cached deeper answer */
		if (na > 1) {
			ck_assert_int_eq(symbolizer__srcline(a, d, x, la, 1),
					 1);
			ck_assert_int_eq(la[0].line, lb[0].line);
		}
	}
}

/* same_answers over function fn of dso, whose nm listing is nm. */
static void same_answers_fn(struct symbolizer *a, struct symbolizer *b,
			    const struct dso *d, const char *nm,
			    const char *fn)
{
	u64 addr, size, off;

	ck_assert_msg(nm_find(nm, fn, &addr, &size), "%s", fn);
	ck_assert_int_eq(symbolizer__from_vaddr(a, d, addr, &off), 0);
	same_answers(a, b, d, off, size);
}

START_TEST(test_resolved_cache)
{
	char root[4096], bid_path[4096];
	const char *dirs[] = { root };
	struct symbolizer_opts o = { .debug_dirs = dirs, .nr_debug_dirs = 1 };
	struct symbolizer_opts one = o;
	struct symbolizer *u;
	struct symbolizer_stats st;
	struct dso bid, pie = file_dso(1, fixture_path("symfix-pie"));
	const char *fns[] = { "fix_caller", "fix_leaf", "main" };
	u64 addr, size, off;
	size_t misses = 0;

	snprintf(root, sizeof(root), "%s", test_fixture("debugroot"));
	snprintf(bid_path, sizeof(bid_path), "%s", test_fixture("symfix-bid"));
	bid = file_dso(0, bid_path);
	renew(&o);
	one.resolved_bytes = 1;	/* keeps the newest entry alone */
	u = symbolizer__new(&one);
	ck_assert_ptr_nonnull(u);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < ARRAY_SIZE(fns); i++) {
			same_answers_fn(s, u, &bid, "symfix-bid.nm", fns[i]);
			same_answers_fn(s, u, &pie, "symfix-pie.nm", fns[i]);
		}
		symbolizer__stats(s, &st);
		/* the second pass is answered from the cache alone */
		if (pass)
			ck_assert_uint_eq(st.misses, misses);
		misses = st.misses;
		ck_assert_uint_gt(misses, 0);
	}
	symbolizer__stats(s, &st);
	ck_assert_uint_gt(st.hits, 0);
	ck_assert_uint_gt(st.resolved, 0);
	symbolizer__stats(u, &st);
	ck_assert_uint_eq(st.resolved, 1);
	/* trimmed and loaded again: a new epoch, the same answers */
	for (int i = 0; i < 5; i++)
		symbolizer__tick(s);
	symbolizer__trim(s, 2);
	ck_assert(nm_find("symfix-bid.nm", "fix_caller", &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &bid, addr, &off), 0);
	same_answers(s, u, &bid, off, size);
	symbolizer__free(u);
}
END_TEST

/* A kept table's file is named by the binary, what it holds and the
 * layouts' versions: builds of another image version sharing the cache
 * (an older ptop) use another file rather than refusing and rewriting
 * this one's on every load. */
START_TEST(test_symbol_cache_names)
{
	struct symcache_key k = { .what = 1, .flags = 2 }, k2 = k;
	char a[NAME_MAX + 1], b[NAME_MAX + 1];

	symcache__name("/usr/bin/x", &k, SYMTAB_IMAGE_VERSION, a);
	ck_assert_uint_eq(strlen(a), 20);
	ck_assert_str_eq(a + 16, ".sym");
	symcache__name("/usr/bin/x", &k, SYMTAB_IMAGE_VERSION, b);
	ck_assert_str_eq(a, b);
	symcache__name("/usr/bin/x", &k, SYMTAB_IMAGE_VERSION - 1, b);
	ck_assert_str_ne(a, b);
	symcache__name("/usr/bin/x", &k, SYMTAB_IMAGE_VERSION + 1, b);
	ck_assert_str_ne(a, b);
	symcache__name("/usr/bin/y", &k, SYMTAB_IMAGE_VERSION, b);
	ck_assert_str_ne(a, b);
	k2.flags = 3;
	symcache__name("/usr/bin/x", &k2, SYMTAB_IMAGE_VERSION, b);
	ck_assert_str_ne(a, b);
	/* the files' identities are checked in the file, not named */
	k2 = k;
	k2.bin.mtime_sec = 1;
	symcache__name("/usr/bin/x", &k2, SYMTAB_IMAGE_VERSION, b);
	ck_assert_str_eq(a, b);
}
END_TEST

/* The binaries' tables kept for later runs (symcache.h): the first
 * symbolizer reads the files and keeps their tables, the next reads the
 * kept ones and answers alike (a .symtab, and a stripped binary's
 * .eh_frame ranges); a binary changed since (its times) or a kept table
 * cut short is read again; "" keeps nothing. */
/* lib_name's first byte as a file offset, through d */
static u64 fn_off(const struct dso *d, const char *nm, const char *fn)
{
	u64 addr, size, off;

	ck_assert_msg(nm_find(nm, fn, &addr, &size), "%s", fn);
	ck_assert_int_eq(symbolizer__from_vaddr(s, d, addr, &off), 0);
	return off;
}

/* The name of off in d, once its table is in (lookups wait for it). */
static const char *name_at(const struct dso *d, u64 off)
{
	struct sym_info si;

	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(symbolizer__lookup(s, d, off, &si), 0);
		if (si.status != DSO_ST_DEFERRED)
			return si.name;
	}
	return NULL;
}

/* dir (a mkdtemp template) made, with a copy of libsymfix.so (copy):
 * its dso. */
static struct dso lib_copy(char *dir, char *copy, size_t len)
{
	char cmd[512];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(copy, len, "%s/libsymfix.so", dir);
	snprintf(cmd, sizeof(cmd), "cp %s %s", test_fixture("libsymfix.so"),
		 copy);
	ck_assert_int_eq(system(cmd), 0);
	return file_dso(0, copy);
}

/* Every table file in DIR/symbols cut (how 0) or changed in place, the
 * same size and inode: "lib_" -> "lob_" (how 1; sed -i would make a new
 * file). */
static void change_tables(const char *dir, int how)
{
	char sub[256], path[512];
	char **names;
	size_t nr;

	snprintf(sub, sizeof(sub), "%s/symbols", dir);
	ck_assert_int_eq(dir__list(sub, "*.sym", &names, &nr), 0);
	ck_assert_uint_ge(nr, 1);
	for (size_t i = 0; i < nr; i++) {
		struct strbuf sb;
		char *p;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", sub, names[i]);
		if (!how) {
			ck_assert_int_eq(truncate(path, 100), 0);
			continue;
		}
		strbuf__init(&sb);
		ck_assert_int_eq(fd__read_all(path, &sb, 1 << 30), 0);
		for (p = sb.buf; (p = memmem(p, sb.len - (size_t)(p - sb.buf),
					    "lib_", 4)); p += 4)
			p[1] = 'o';
		fd = open(path, O_WRONLY | O_CLOEXEC);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(fd__pwrite_all(fd, sb.buf, sb.len, 0), 0);
		close(fd);
		strbuf__fini(&sb);
	}
	dir__free_names(names, nr);
}

/*
 * A cached table's file (symbols/HASH.sym) cut or rewritten in place
 * while the table is in use, and one byte of it changed at rest: no
 * SIGBUS, no name from the new bytes (the lookup that finds the file
 * changed answers none, provisionally), a warning, and the names again
 * from the binary.
 */
START_TEST(test_symbol_cache_changed)
{
	char dir[] = "/tmp/ptop-symcache-XXXXXX", copy[128], cmd[512];
	struct symbolizer_opts o = { 0 };
	struct symbolizer_stats st;
	struct sym_info si;
	struct dso lib;
	u64 print, hidden;

	lib = lib_copy(dir, copy, sizeof(copy));
	o.symbol_cache = dir;
	for (int h = 0; h < 2; h++) {
		/* made, then served from its file */
		for (int run = 0; run < 2; run++) {
			renew(&o);
			print = fn_off(&lib, "libsymfix.nm", "lib_print");
			hidden = fn_off(&lib, "libsymfix.nm", "lib_hidden");
			ck_assert_str_eq(name_at(&lib, print), "lib_print");
		}
		symbolizer__stats(s, &st);
		ck_assert_uint_eq(st.symbol_cache_used, 1);
		test_warnings = 0;
		change_tables(dir, h);
		/* an address not asked yet: no name from the changed file */
		ck_assert_int_eq(symbolizer__lookup(s, &lib, hidden, &si), 0);
		ck_assert_ptr_null(si.name);
		ck_assert(si.flags & SYM_F_PROVISIONAL);
		ck_assert_int_ge(test_warnings, 1);
		ck_assert_msg(strstr(test_last_warning, "changed") ||
			      strstr(test_last_warning, "damaged"), "%s",
			      test_last_warning);
		/* read again from the binary */
		ck_assert_str_eq(name_at(&lib, hidden), "lib_hidden");
		ck_assert_str_eq(name_at(&lib, print), "lib_print");
	}
	/* a byte changed at rest: said, and made again */
	renew(&o);
	ck_assert_str_eq(name_at(&lib, fn_off(&lib, "libsymfix.nm",
					      "lib_print")), "lib_print");
	renew(&o);
	change_tables(dir, 1);
	test_warnings = 0;
	renew(&o);
	ck_assert_str_eq(name_at(&lib, fn_off(&lib, "libsymfix.nm",
					      "lib_print")), "lib_print");
	ck_assert_int_eq(test_warnings, 1);
	ck_assert_ptr_nonnull(strstr(test_last_warning, "damaged"));
	symbolizer__free(s);
	s = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(test_symbol_cache)
{
	char dir[] = "/tmp/ptop-symcache-XXXXXX", copy[128], cut[256];
	char cmd[512];
	struct symbolizer_opts o = { 0 }, none = { .symbol_cache = "" };
	struct symbolizer *plain;
	struct symbolizer_stats st;
	struct dso lib, stripped = file_dso(1, fixture_path("symfix-stripped"));
	const char *fns[] = { "fix_caller", "fix_leaf", "main" };
	const char *lib_fns[] = { "lib_print", "lib_hidden" };
	FILE *ls;

	lib = lib_copy(dir, copy, sizeof(copy));
	o.symbol_cache = dir;
	plain = symbolizer__new(&none);
	ck_assert_ptr_nonnull(plain);
	for (int run = 0; run < 4; run++) {
		renew(&o);
		for (size_t i = 0; i < ARRAY_SIZE(fns); i++)
			same_answers_fn(s, plain, &stripped, "symfix-pie.nm",
					fns[i]);
		for (size_t i = 0; i < ARRAY_SIZE(lib_fns); i++)
			same_answers_fn(s, plain, &lib, "libsymfix.nm",
					lib_fns[i]);
		symbolizer__stats(s, &st);
		switch (run) {
		case 0:		/* read and kept */
			ck_assert_uint_eq(st.symbol_cache_made, 2);
			ck_assert_uint_eq(st.symbol_cache_used, 0);
			/* the binary changes: its times */
			snprintf(cmd, sizeof(cmd), "touch -d '2001-01-01' %s",
				 copy);
			break;
		case 1:		/* one kept, one read again */
			ck_assert_uint_eq(st.symbol_cache_made, 1);
			ck_assert_uint_eq(st.symbol_cache_used, 1);
			/* every kept table cut short */
			snprintf(cmd, sizeof(cmd),
				 "for f in %s/symbols/*.sym; do "
				 "truncate -s -1 $f; done",
				 dir);
			break;
		case 2:		/* both read again */
			ck_assert_uint_eq(st.symbol_cache_made, 2);
			ck_assert_uint_eq(st.symbol_cache_used, 0);
			cmd[0] = '\0';
			break;
		default:	/* both kept */
			ck_assert_uint_eq(st.symbol_cache_made, 0);
			ck_assert_uint_eq(st.symbol_cache_used, 2);
			cmd[0] = '\0';
			break;
		}
		if (cmd[0])
			ck_assert_int_eq(system(cmd), 0);
	}
	/* the stale and the cut files are gone: two tables (mode 0600) */
	snprintf(cut, sizeof(cut), "stat -c %%a %s/symbols/*.sym", dir);
	ls = popen(cut, "r");
	ck_assert_ptr_nonnull(ls);
	for (int i = 0; i < 3; i++) {
		char line[32];

		if (!fgets(line, sizeof(line), ls)) {
			ck_assert_int_eq(i, 2);
			break;
		}
		ck_assert_int_lt(i, 2);
		ck_assert_str_eq(line, "600\n");
	}
	pclose(ls);
	symbolizer__stats(plain, &st);
	ck_assert_uint_eq(st.symbol_cache_made + st.symbol_cache_used, 0);
	symbolizer__free(plain);
	symbolizer__free(s);
	s = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* DWARF handles are bounded by their cost: a bound under one handle's
 * keeps one open and loads again on every switch; the default keeps
 * both, loading each once however often the lookups alternate. */
START_TEST(test_dwarf_bound)
{
	struct symbolizer_opts o = { .dwarf_bytes = 1, .resolved_bytes = 1 };
	struct dso pie = file_dso(0, fixture_path("symfix-pie"));
	struct dso ann = file_dso(1, fixture_path("annfix"));
	struct symbolizer_stats st;
	struct srcline sl[4];
	u64 a1, a2, size;

	ck_assert(nm_find("symfix-pie.nm", "fix_leaf", &a1, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &pie, a1, &a1), 0);
	ck_assert(nm_find("annfix.nm", "main", &a2, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &ann, a2, &a2), 0);
	for (int bounded = 1; bounded >= 0; bounded--) {
		o.dwarf_bytes = bounded ? 1 : 0;
		renew(&o);
		for (int i = 0; i < 10; i++) {
			ck_assert_int_ge(symbolizer__srcline(s, &pie, a1 + i,
							     sl, 4), 1);
			ck_assert_int_ge(symbolizer__srcline(s, &ann, a2 + i,
							     sl, 4), 1);
		}
		symbolizer__stats(s, &st);
		if (bounded) {
			ck_assert_uint_eq(st.dwarf_open, 1);
			ck_assert_uint_eq(st.dwarf_loads, 20);
		} else {
			ck_assert_uint_eq(st.dwarf_open, 2);
			ck_assert_uint_eq(st.dwarf_loads, 2);
			ck_assert_uint_gt(st.dwarf_bytes, 0);
			ck_assert_uint_le(st.dwarf_bytes,
					  SYMBOLIZER_DWARF_BYTES);
		}
	}
	/* dropped with its image when trimmed */
	for (int i = 0; i < 5; i++)
		symbolizer__tick(s);
	symbolizer__trim(s, 2);
	symbolizer__stats(s, &st);
	ck_assert_uint_eq(st.dwarf_open, 0);
	ck_assert_uint_eq(st.dwarf_bytes, 0);
}
END_TEST

/* A mapped DWARF file that changes (rewritten in place) is closed at the
 * next tick and read again when asked. */
START_TEST(test_dwarf_changed)
{
	char tmp[] = "/tmp/ptop-dwchg-XXXXXX", cmd[512];
	struct symbolizer_stats st;
	struct srcline sl[4];
	struct dso d;
	u64 addr, size, off;
	int fd = mkstemp(tmp);

	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "cp %s %s", test_fixture("symfix-pie"),
		 tmp);
	ck_assert_int_eq(system(cmd), 0);
	d = file_dso(0, tmp);
	ck_assert(nm_find("symfix-pie.nm", "fix_leaf", &addr, &size));
	ck_assert_int_eq(symbolizer__from_vaddr(s, &d, addr, &off), 0);
	ck_assert_int_eq(symbolizer__srcline(s, &d, off, sl, 4), 1);
	symbolizer__tick(s);
	symbolizer__stats(s, &st);
	ck_assert_uint_eq(st.dwarf_open, 1);	/* unchanged: kept */
	fd = open(tmp, O_WRONLY | O_APPEND);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "\0\0\0\0", 4), 4);
	close(fd);
	symbolizer__tick(s);
	symbolizer__stats(s, &st);
	ck_assert_uint_eq(st.dwarf_open, 0);
	ck_assert_uint_eq(st.dwarf_loads, 1);
	/* another address (the first is cached): read again */
	ck_assert_int_eq(symbolizer__srcline(s, &d, off + 1, sl, 4), 1);
	symbolizer__stats(s, &st);
	ck_assert_uint_eq(st.dwarf_open, 1);
	ck_assert_uint_eq(st.dwarf_loads, 2);
	unlink(tmp);
}
END_TEST

static double now_ms(void)
{
	struct timespec ts;

	/* CPU time of the process: a loaded machine only makes the wall
	 * time longer (2.7 s at load 30 on 2 CPUs) */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* a big DSO loads in well under a second of CPU (200 ms without
 * sanitizers) */
START_TEST(test_big_dso)
{
	const char *llvm = "/usr/lib/x86_64-linux-gnu/libLLVM-14.so.1";
	struct dso d = file_dso(0, llvm);
	struct sym_info si;
	double t;

	/* clang's library: scripts/install-deps.sh test installs clang */
	ck_assert_msg(access(llvm, R_OK) == 0,
		      "%s is missing: install clang-14 (make deps-test)", llvm);
	t = now_ms();
	ck_assert_int_eq(symbolizer__lookup(s, &d, 0x1000000, &si), 0);
	t = now_ms() - t;
	ck_assert_int_eq(si.status, DSO_ST_OK);
	ck_assert_ptr_nonnull(si.name);
	ck_assert_msg(t < 2000, "libLLVM took %.0f ms", t);
}
END_TEST

Suite *symbolizer_suite(void)
{
	Suite *su = suite_create("symbolizer");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_files);
	tcase_add_test(tc, test_deadline);
	tcase_add_test(tc, test_stop_wait);
	tcase_add_test(tc, test_free_during_load);
	tcase_add_test(tc, test_demangle_switch);
	tcase_add_test(tc, test_plt);
	tcase_add_test(tc, test_data);
	tcase_add_test(tc, test_stripped);
	tcase_add_test(tc, test_debug_files);
	tcase_add_test(tc, test_mismatch);
	tcase_add_test(tc, test_unreadable);
	tcase_add_test(tc, test_shared_image);
	tcase_add_test(tc, test_container);
	tcase_add_test(tc, test_kernel);
	tcase_add_test(tc, test_kernel_prefetch);
	tcase_add_test(tc, test_anon);
	tcase_add_test(tc, test_anon_growth);
	tcase_add_test(tc, test_unknown_hypervisor);
	tcase_add_test(tc, test_vdso);
	tcase_add_test(tc, test_vdso_image);
	tcase_add_test(tc, test_read_code);
	tcase_add_test(tc, test_resolved_cache);
	tcase_add_test(tc, test_dwarf_bound);
	tcase_add_test(tc, test_dwarf_changed);
	tcase_add_test(tc, test_trim);
	tcase_add_test(tc, test_bad_args);
	tcase_add_test(tc, test_big_dso);
	tcase_add_test(tc, test_symbol_cache);
	tcase_add_test(tc, test_symbol_cache_changed);
	tcase_add_test(tc, test_symbol_cache_names);
	suite_add_tcase(su, tc);
	return su;
}
