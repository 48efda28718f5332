/* check_events: perf's event names, aliases, modifiers and errors. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/events.h"
#include "tests/testutil.h"

struct expect {
	const char *name;
	u32 type;
	u64 config;
};

#define HW(n, c) { n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c }
#define SW(n, c) { n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c }
#define CACHE(n, c, o, r)                                                    \
	{ n, PERF_TYPE_HW_CACHE,                                             \
	  PERF_COUNT_HW_CACHE_##c | (PERF_COUNT_HW_CACHE_OP_##o << 8) |      \
		  ((u64)PERF_COUNT_HW_CACHE_RESULT_##r << 16) }

static const struct expect names[] = {
	HW("cycles", CPU_CYCLES),
	HW("cpu-cycles", CPU_CYCLES),
	HW("instructions", INSTRUCTIONS),
	HW("cache-references", CACHE_REFERENCES),
	HW("cache-misses", CACHE_MISSES),
	HW("branch-instructions", BRANCH_INSTRUCTIONS),
	HW("branches", BRANCH_INSTRUCTIONS),
	HW("branch-misses", BRANCH_MISSES),
	HW("bus-cycles", BUS_CYCLES),
	HW("stalled-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HW("idle-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HW("stalled-cycles-backend", STALLED_CYCLES_BACKEND),
	HW("idle-cycles-backend", STALLED_CYCLES_BACKEND),
	HW("ref-cycles", REF_CPU_CYCLES),
	SW("cpu-clock", CPU_CLOCK),
	SW("task-clock", TASK_CLOCK),
	SW("page-faults", PAGE_FAULTS),
	SW("faults", PAGE_FAULTS),
	SW("context-switches", CONTEXT_SWITCHES),
	SW("cs", CONTEXT_SWITCHES),
	SW("cpu-migrations", CPU_MIGRATIONS),
	SW("migrations", CPU_MIGRATIONS),
	SW("minor-faults", PAGE_FAULTS_MIN),
	SW("major-faults", PAGE_FAULTS_MAJ),
	SW("alignment-faults", ALIGNMENT_FAULTS),
	SW("emulation-faults", EMULATION_FAULTS),
	SW("dummy", DUMMY),
	SW("bpf-output", BPF_OUTPUT),
	SW("cgroup-switches", CGROUP_SWITCHES),
	CACHE("L1-dcache-loads", L1D, READ, ACCESS),
	CACHE("L1-dcache-load-misses", L1D, READ, MISS),
	CACHE("L1-dcache-stores", L1D, WRITE, ACCESS),
	CACHE("L1-dcache-store-misses", L1D, WRITE, MISS),
	CACHE("L1-dcache-prefetches", L1D, PREFETCH, ACCESS),
	CACHE("L1-dcache-prefetch-misses", L1D, PREFETCH, MISS),
	CACHE("L1-icache-loads", L1I, READ, ACCESS),
	CACHE("L1-icache-load-misses", L1I, READ, MISS),
	CACHE("L1-icache-prefetches", L1I, PREFETCH, ACCESS),
	CACHE("L1-icache-prefetch-misses", L1I, PREFETCH, MISS),
	CACHE("LLC-loads", LL, READ, ACCESS),
	CACHE("LLC-load-misses", LL, READ, MISS),
	CACHE("LLC-stores", LL, WRITE, ACCESS),
	CACHE("LLC-store-misses", LL, WRITE, MISS),
	CACHE("LLC-prefetches", LL, PREFETCH, ACCESS),
	CACHE("LLC-prefetch-misses", LL, PREFETCH, MISS),
	CACHE("dTLB-loads", DTLB, READ, ACCESS),
	CACHE("dTLB-load-misses", DTLB, READ, MISS),
	CACHE("dTLB-stores", DTLB, WRITE, ACCESS),
	CACHE("dTLB-store-misses", DTLB, WRITE, MISS),
	CACHE("dTLB-prefetches", DTLB, PREFETCH, ACCESS),
	CACHE("dTLB-prefetch-misses", DTLB, PREFETCH, MISS),
	CACHE("iTLB-loads", ITLB, READ, ACCESS),
	CACHE("iTLB-load-misses", ITLB, READ, MISS),
	CACHE("branch-loads", BPU, READ, ACCESS),
	CACHE("branch-load-misses", BPU, READ, MISS),
	CACHE("node-loads", NODE, READ, ACCESS),
	CACHE("node-load-misses", NODE, READ, MISS),
	CACHE("node-stores", NODE, WRITE, ACCESS),
	CACHE("node-store-misses", NODE, WRITE, MISS),
	CACHE("node-prefetches", NODE, PREFETCH, ACCESS),
	CACHE("node-prefetch-misses", NODE, PREFETCH, MISS),
	/* perf's other spellings */
	CACHE("l1d-loads", L1D, READ, ACCESS),
	CACHE("L1-dcache-load-miss", L1D, READ, MISS),
	CACHE("L1-dcache-misses", L1D, READ, MISS),
	CACHE("L1-dcache", L1D, READ, ACCESS),
	CACHE("llc-loads", LL, READ, ACCESS),
	CACHE("L2-load-misses", LL, READ, MISS),
	CACHE("Data-TLB-store-misses", DTLB, WRITE, MISS),
	CACHE("i-tlb-loads", ITLB, READ, ACCESS),
	CACHE("btb-load-misses", BPU, READ, MISS),
	CACHE("L1-dcache-speculative-read-misses", L1D, PREFETCH, MISS),
	{ "r1a", PERF_TYPE_RAW, 0x1a },
	{ "rABcd", PERF_TYPE_RAW, 0xabcd },
	{ "r0", PERF_TYPE_RAW, 0 },
	{ "rffffffffffffffff", PERF_TYPE_RAW, ~0ULL },
};

/* Parses exactly one event and returns it (fails the test otherwise). */
static struct event_spec parse1(const char *s)
{
	struct event_spec *specs = NULL, out;
	struct strbuf err;
	size_t n = 0;
	int ret;

	strbuf__init(&err);
	ret = events__parse(s, &specs, &n, &err);
	ck_assert_msg(ret == 0, "'%s': %d %s", s, ret,
		      err.buf ? err.buf : "");
	ck_assert_uint_eq(n, 1);
	out = specs[0];
	free(specs);
	strbuf__fini(&err);
	return out;
}

/* Expects an error; returns the message (static). */
static const char *parse_err(const char *s)
{
	static char msg[1024];
	struct event_spec *specs = NULL;
	struct strbuf err;
	size_t n = 0;
	int ret;

	strbuf__init(&err);
	ret = events__parse(s, &specs, &n, &err);
	ck_assert_msg(ret == -EINVAL, "'%s' parsed (%d)", s, ret);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(specs);
	ck_assert_msg(err.buf && err.len, "'%s': no message", s);
	snprintf(msg, sizeof(msg), "%s", err.buf);
	strbuf__fini(&err);
	return msg;
}

START_TEST(test_every_name)
{
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct event_spec s = parse1(names[i].name);

		ck_assert_msg(s.attr.type == names[i].type &&
				      s.attr.config == names[i].config,
			      "%s: type %u config %#llx", names[i].name,
			      s.attr.type, (unsigned long long)s.attr.config);
		ck_assert_str_eq(s.name, names[i].name);
		ck_assert_uint_eq(s.attr.size, sizeof(s.attr));
		ck_assert(!s.tracepoint);
		ck_assert(!s.is_default);
		ck_assert(!s.attr.exclude_user && !s.attr.exclude_kernel &&
			  !s.attr.exclude_hv && !s.attr.precise_ip);
	}
}
END_TEST

START_TEST(test_modifiers)
{
	struct event_spec s;

	s = parse1("cycles:u");
	ck_assert(!s.attr.exclude_user && s.attr.exclude_kernel &&
		  s.attr.exclude_hv);
	ck_assert_str_eq(s.name, "cycles:u");
	s = parse1("cycles:k");
	ck_assert(s.attr.exclude_user && !s.attr.exclude_kernel &&
		  s.attr.exclude_hv);
	s = parse1("cycles:h");
	ck_assert(s.attr.exclude_user && s.attr.exclude_kernel &&
		  !s.attr.exclude_hv);
	s = parse1("cycles:uk");
	ck_assert(!s.attr.exclude_user && !s.attr.exclude_kernel &&
		  s.attr.exclude_hv);
	s = parse1("cpu-clock:u");
	ck_assert_uint_eq(s.attr.type, PERF_TYPE_SOFTWARE);
	ck_assert(!s.attr.exclude_user && s.attr.exclude_kernel);
	s = parse1("instructions:p");
	ck_assert_uint_eq(s.attr.precise_ip, 1);
	ck_assert(!s.attr.exclude_user && !s.attr.exclude_kernel);
	s = parse1("cycles:pp");
	ck_assert_uint_eq(s.attr.precise_ip, 2);
	s = parse1("cycles:ppp");
	ck_assert_uint_eq(s.attr.precise_ip, 3);
	s = parse1("cycles:upp");
	ck_assert_uint_eq(s.attr.precise_ip, 2);
	ck_assert(!s.attr.exclude_user && s.attr.exclude_kernel);
	s = parse1("r1a:k");
	ck_assert_uint_eq(s.attr.type, PERF_TYPE_RAW);
	ck_assert(s.attr.exclude_user && !s.attr.exclude_kernel);
	s = parse1("LLC-load-misses:u");
	ck_assert_uint_eq(s.attr.type, PERF_TYPE_HW_CACHE);
	ck_assert(s.attr.exclude_kernel);

	ck_assert_ptr_nonnull(strstr(parse_err("cycles:pppp"), "ppp"));
	ck_assert_ptr_nonnull(strstr(parse_err("cpu-clock:x"), "'x'"));
	ck_assert_ptr_nonnull(strstr(parse_err("cycles:"), "cycles:"));
}
END_TEST

START_TEST(test_raw)
{
	const char *m;

	/* r + 17 digits, r alone, not hex: none is raw, all unknown */
	m = parse_err("r12345678123456789");
	ck_assert_ptr_nonnull(strstr(m, "unknown event"));
	parse_err("r");
	parse_err("r12g");
}
END_TEST

START_TEST(test_tracepoints)
{
	struct event_spec s = parse1("sched:sched_switch");
	const char *m;

	ck_assert(s.tracepoint);
	ck_assert_uint_eq(s.attr.type, PERF_TYPE_TRACEPOINT);
	ck_assert_str_eq(s.tp_sys, "sched");
	ck_assert_str_eq(s.tp_name, "sched_switch");
	ck_assert_str_eq(s.name, "sched:sched_switch");
	ck_assert_uint_eq(s.attr.size, sizeof(s.attr));

	s = parse1("syscalls:sys_enter_openat");
	ck_assert_str_eq(s.tp_sys, "syscalls");
	ck_assert_str_eq(s.tp_name, "sys_enter_openat");

	m = parse_err("sched:sched_switch:u");
	ck_assert_ptr_nonnull(strstr(m, "takes no modifiers"));
	ck_assert_ptr_nonnull(strstr(m, "sched:sched_switch"));
	parse_err("sched:");
	parse_err(":sched_switch");
	parse_err("sched:../../x");
	parse_err("sched:a/b");
	parse_err("../sched:x");
	ck_assert(!parse1("sched:sched_switch").tp_glob);
	/* globs: kept as written, expanded against tracefs by evsel */
	s = parse1("sched:*");
	ck_assert(s.tracepoint && s.tp_glob);
	ck_assert_str_eq(s.tp_name, "*");
	s = parse1("sys?:sched_[sw]*");
	ck_assert(s.tp_glob);
	ck_assert_str_eq(s.tp_sys, "sys?");
	ck_assert_str_eq(s.tp_name, "sched_[sw]*");
	m = parse_err("sched:*/x");
	ck_assert_ptr_nonnull(strstr(m, "wildcards"));
	parse_err("*:.*");
}
END_TEST

START_TEST(test_errors)
{
	const char *m;

	m = parse_err("cylces");
	ck_assert_ptr_nonnull(strstr(m, "'cylces'"));
	ck_assert_ptr_nonnull(strstr(m, "--list-events"));
	ck_assert_ptr_nonnull(strstr(m, "did you mean 'cycles'"));

	m = parse_err("cpu-clcok");
	ck_assert_ptr_nonnull(strstr(m, "did you mean 'cpu-clock'"));
	m = parse_err("CYCLES");
	ck_assert_ptr_nonnull(strstr(m, "did you mean 'cycles'"));
	m = parse_err("L1-dcache-load-mises");
	ck_assert_ptr_nonnull(strstr(m, "L1-dcache-load-misses"));
	/* a misspelt event with a modifier is not a tracepoint */
	m = parse_err("cyclse:u");
	ck_assert_ptr_nonnull(strstr(m, "did you mean 'cycles'"));

	/* nothing close: no suggestion */
	m = parse_err("frobnicate");
	ck_assert_ptr_nonnull(strstr(m, "'frobnicate'"));
	ck_assert_ptr_nonnull(strstr(m, "--list-events"));
	ck_assert_ptr_null(strstr(m, "did you mean"));

	/* cache combinations that exist nowhere */
	m = parse_err("iTLB-stores");
	ck_assert_ptr_nonnull(strstr(m, "iTLB-stores"));
	parse_err("branch-prefetches");
	parse_err("L1-icache-store-misses");

	m = parse_err("cycles,,cpu-clock");
	ck_assert_ptr_nonnull(strstr(m, "empty"));
	parse_err("");
	parse_err(",");
	parse_err("cycles,");
}
END_TEST

START_TEST(test_lists)
{
	struct event_spec *specs = NULL;
	struct strbuf err;
	size_t n = 0;

	strbuf__init(&err);
	ck_assert_int_eq(events__parse("cycles,cpu-clock:u", &specs, &n,
				       &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(events__parse(" sched:sched_switch , r10", &specs,
				       &n, &err), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(specs[0].name, "cycles");
	ck_assert_str_eq(specs[1].name, "cpu-clock:u");
	ck_assert_str_eq(specs[2].name, "sched:sched_switch");
	ck_assert_str_eq(specs[3].name, "r10");
	ck_assert_uint_eq(specs[3].attr.config, 0x10);
	/* an error leaves what was there */
	ck_assert_int_eq(events__parse("task-clock,nope", &specs, &n, &err),
			 -EINVAL);
	ck_assert_uint_eq(n, 4);
	ck_assert_ptr_nonnull(strstr(err.buf, "'nope'"));
	/* a reused buffer holds the last message only */
	ck_assert_int_eq(events__parse("nix", &specs, &n, &err), -EINVAL);
	ck_assert_ptr_null(strstr(err.buf, "nope"));
	ck_assert_ptr_nonnull(strstr(err.buf, "'nix'"));
	/* no message buffer is fine */
	ck_assert_int_eq(events__parse("nope", &specs, &n, NULL), -EINVAL);
	free(specs);
	strbuf__fini(&err);
}
END_TEST

START_TEST(test_default_fallback)
{
	struct event_spec s;

	events__default(&s);
	ck_assert_str_eq(s.name, "cycles");
	ck_assert(s.is_default);
	ck_assert_uint_eq(s.attr.type, PERF_TYPE_HARDWARE);
	ck_assert_uint_eq(s.attr.config, PERF_COUNT_HW_CPU_CYCLES);
	ck_assert_uint_eq(s.attr.size, sizeof(s.attr));
	events__fallback(&s);
	ck_assert_str_eq(s.name, "cpu-clock");
	ck_assert(!s.is_default);
	ck_assert_uint_eq(s.attr.type, PERF_TYPE_SOFTWARE);
	ck_assert_uint_eq(s.attr.config, PERF_COUNT_SW_CPU_CLOCK);
}
END_TEST

struct seen {
	size_t n, hw, sw, cache;
	bool cycles_before_alias;
	bool saw_cycles;
};

static void each_generic(const char *name, enum event_class cls, u32 type,
			 u64 config, void *ctx)
{
	struct seen *seen = ctx;
	struct event_spec s = parse1(name);
	char buf[64];
	const char *back;

	seen->n++;
	seen->hw += cls == EVCLASS_HARDWARE;
	seen->sw += cls == EVCLASS_SOFTWARE;
	seen->cache += cls == EVCLASS_CACHE;
	if (!strcmp(name, "cycles"))
		seen->saw_cycles = true;
	if (!strcmp(name, "cpu-cycles"))
		seen->cycles_before_alias = seen->saw_cycles;
	/* name -> attr -> canonical name -> the same attr */
	ck_assert_uint_eq(s.attr.type, type);
	ck_assert_uint_eq(s.attr.config, config);
	back = events__name_of(type, config, buf, sizeof(buf));
	ck_assert_ptr_nonnull(back);
	s = parse1(back);
	ck_assert_uint_eq(s.attr.type, type);
	ck_assert_uint_eq(s.attr.config, config);
	if (cls == EVCLASS_CACHE)
		ck_assert_str_eq(back, name);
}

START_TEST(test_name_of)
{
	struct seen seen = { 0 };
	char buf[64];

	events__foreach_generic(each_generic, &seen);
	ck_assert_uint_eq(seen.hw, 14);
	ck_assert_uint_eq(seen.sw, 15);
	/* 7 caches; L1I has 2 ops, ITLB and BPU 1, the others 3; x2 */
	ck_assert_uint_eq(seen.cache, (3 + 2 + 3 + 3 + 1 + 1 + 3) * 2);
	ck_assert(seen.cycles_before_alias);

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const char *back = events__name_of(names[i].type,
						   names[i].config, buf,
						   sizeof(buf));
		struct event_spec s;

		ck_assert_ptr_nonnull(back);
		s = parse1(back);
		ck_assert_uint_eq(s.attr.type, names[i].type);
		ck_assert_uint_eq(s.attr.config, names[i].config);
	}
	ck_assert_str_eq(events__name_of(PERF_TYPE_HARDWARE, 0, NULL, 0),
			 "cycles");
	ck_assert_str_eq(events__name_of(PERF_TYPE_SOFTWARE, 3, NULL, 0),
			 "context-switches");
	ck_assert_str_eq(events__name_of(PERF_TYPE_HW_CACHE, 0x10002, buf,
					 sizeof(buf)),
			 "LLC-load-misses");
	ck_assert_str_eq(events__name_of(PERF_TYPE_RAW, 0x1a, buf,
					 sizeof(buf)),
			 "r1a");
	ck_assert_ptr_null(events__name_of(PERF_TYPE_HARDWARE, 99, buf,
					   sizeof(buf)));
	ck_assert_ptr_null(events__name_of(PERF_TYPE_SOFTWARE, 99, buf,
					   sizeof(buf)));
	/* iTLB-stores */
	ck_assert_ptr_null(events__name_of(PERF_TYPE_HW_CACHE, 0x104, buf,
					   sizeof(buf)));
	ck_assert_ptr_null(events__name_of(PERF_TYPE_HW_CACHE, 0x20000, buf,
					   sizeof(buf)));
	ck_assert_ptr_null(events__name_of(PERF_TYPE_TRACEPOINT, 1, buf,
					   sizeof(buf)));
	ck_assert_ptr_null(events__name_of(PERF_TYPE_RAW, 0x1a, buf, 3));
	ck_assert_ptr_null(events__name_of(PERF_TYPE_RAW, 0x1a, NULL, 0));
}
END_TEST

static void check_term(const struct event_term *t, const char *name,
		       bool has_val, u64 val)
{
	ck_assert_str_eq(t->name, name);
	ck_assert_int_eq(t->has_val, has_val);
	ck_assert_uint_eq(t->val, val);
}

/* Modifiers and the exclude_user, _kernel, _hv and precise_ip they give. */
static const struct {
	const char *mod;
	unsigned int xu, xk, xh, p;
} pmu_mods[] = {
	{ "u", 0, 1, 1, 0 },	{ "k", 1, 0, 1, 0 },	{ "h", 1, 1, 0, 0 },
	{ "uk", 0, 0, 1, 0 },	{ "p", 0, 0, 0, 1 },	{ "pp", 0, 0, 0, 2 },
	{ "ppp", 0, 0, 0, 3 },	{ "upp", 0, 1, 1, 2 },	{ "ukpp", 0, 0, 1, 2 },
};

/* perf's PMU syntax: the PMU and its terms as written, resolved later. */
START_TEST(test_pmu_parse)
{
	struct event_spec s = parse1("cpu/event=0x3c,umask=0x00/");
	struct event_spec *specs = NULL;
	size_t n = 0;

	ck_assert(s.pmu && !s.tracepoint && !s.is_default);
	ck_assert_str_eq(s.name, "cpu/event=0x3c,umask=0x00/");
	ck_assert_str_eq(s.pmu_name, "cpu");
	ck_assert_uint_eq(s.nr_terms, 2);
	check_term(&s.terms[0], "event", true, 0x3c);
	check_term(&s.terms[1], "umask", true, 0);
	/* unresolved: no type the kernel knows until evsel reads sysfs */
	ck_assert_uint_eq(s.attr.type, UINT32_MAX);
	ck_assert_uint_eq(s.attr.size, sizeof(s.attr));
	ck_assert(!s.attr.exclude_user && !s.attr.exclude_kernel &&
		  !s.attr.precise_ip);
	ck_assert_uint_eq(s.period, 0);
	ck_assert_uint_eq(s.freq, 0);

	/* an alias or a flag, and perf's modifiers after the last '/':
	 * the same bits as after "cycles:" */
	s = parse1("cpu/cycles/pp");
	ck_assert_uint_eq(s.nr_terms, 1);
	check_term(&s.terms[0], "cycles", false, 0);
	for (size_t i = 0; i < ARRAY_SIZE(pmu_mods); i++) {
		char name[64];
		struct event_spec g;

		snprintf(name, sizeof(name), "cycles:%s", pmu_mods[i].mod);
		g = parse1(name);
		snprintf(name, sizeof(name), "cpu/cycles/%s", pmu_mods[i].mod);
		s = parse1(name);
		ck_assert_msg(s.attr.exclude_user == pmu_mods[i].xu &&
			      s.attr.exclude_kernel == pmu_mods[i].xk &&
			      s.attr.exclude_hv == pmu_mods[i].xh &&
			      s.attr.precise_ip == pmu_mods[i].p, "%s", name);
		ck_assert(g.attr.exclude_user == s.attr.exclude_user &&
			  g.attr.exclude_kernel == s.attr.exclude_kernel &&
			  g.attr.exclude_hv == s.attr.exclude_hv &&
			  g.attr.precise_ip == s.attr.precise_ip);
	}

	s = parse1("software/config=0/");
	ck_assert_str_eq(s.pmu_name, "software");
	ck_assert_uint_eq(s.nr_terms, 1);
	check_term(&s.terms[0], "config", true, 0);
	/* no terms at all is perf's config=0 */
	s = parse1("software//");
	ck_assert_uint_eq(s.nr_terms, 0);

	/* period= and freq= are the event's own sampling, not terms */
	s = parse1("cpu/event=0xc0,period=100000/u");
	ck_assert_uint_eq(s.nr_terms, 1);
	check_term(&s.terms[0], "event", true, 0xc0);
	ck_assert_uint_eq(s.period, 100000);
	ck_assert_uint_eq(s.freq, 0);
	ck_assert(!s.attr.exclude_user && s.attr.exclude_kernel);
	s = parse1("software/freq=250,config=0/");
	ck_assert_uint_eq(s.freq, 250);
	ck_assert_uint_eq(s.period, 0);
	ck_assert_uint_eq(s.nr_terms, 1);

	/* names with '-', '.', digits; values up to 64 bits; in order */
	s = parse1("uncore_imc_0/cas_count_read,config1=18446744073709551615,x.y-z=0xFFFFFFFFFFFFFFFF/");
	ck_assert_str_eq(s.pmu_name, "uncore_imc_0");
	ck_assert_uint_eq(s.nr_terms, 3);
	check_term(&s.terms[0], "cas_count_read", false, 0);
	check_term(&s.terms[1], "config1", true, UINT64_MAX);
	check_term(&s.terms[2], "x.y-z", true, UINT64_MAX);
	s = parse1("cpu/r1a8/");
	ck_assert_str_eq(s.terms[0].name, "r1a8");

	/* commas inside the terms do not split the list */
	ck_assert_int_eq(events__parse("cpu/event=1,umask=2/u,cycles,"
				       "msr/tsc/,sched:sched_switch",
				       &specs, &n, NULL), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(specs[0].name, "cpu/event=1,umask=2/u");
	ck_assert_uint_eq(specs[0].nr_terms, 2);
	ck_assert_str_eq(specs[1].name, "cycles");
	ck_assert(!specs[1].pmu);
	ck_assert_str_eq(specs[2].name, "msr/tsc/");
	ck_assert(specs[3].tracepoint);
	free(specs);
}
END_TEST

/* Each bad PMU event and what its message must say (it names the event
 * too). */
static const char *const bad_terms[][2] = {
	{ "/event=1/", "empty PMU name" },
	{ "cpu/event=1", "unterminated" },
	/* the comma after an unterminated PMU event is inside its terms */
	{ "cpu/event=1,cycles", "unterminated" },
	{ "cpu/event=1/u/", "too many '/'" },
	{ "cpu/event=1/:u", "without a ':'" },
	{ "cpu/event=1/x", "unknown modifier 'x'" },
	{ "cpu/event=1/pppp", "at most ppp" },
	{ "cpu/event=0x/", "bad number '0x'" },
	{ "cpu/event=/", "bad number ''" },
	{ "cpu/event=12a/", "bad number '12a'" },
	{ "cpu/event=-1/", "bad number '-1'" },
	{ "cpu/event=0x1g/", "bad number" },
	{ "cpu/event= 1/", "bad number" },
	{ "cpu/event=18446744073709551616/", "at most 64 bits" },
	{ "cpu/event=0x10000000000000000/", "at most 64 bits" },
	{ "cpu/event=1,,umask=1/", "empty term" },
	{ "cpu/event=1,/", "empty term" },
	{ "cpu/,event=1/", "empty term" },
	{ "cpu/=1/", "bad term ''" },
	{ "cpu/1event/", "bad term '1event'" },
	{ "cpu/ev ent=1/", "bad term 'ev ent'" },
	{ "cpu/name=foo/", "perf's term 'name'" },
	{ "cpu/call-graph=1/", "not supported by ptop" },
	{ "cpu/period/", "period= needs a value above 0" },
	{ "cpu/freq=0/", "freq= needs a value above 0" },
	{ "cpu/config/", "config= needs a value" },
	{ "cpu/config2/", "config2= needs a value" },
	{ "cpu/period=1,freq=1/", "both period= and freq=" },
};

static const char *const bad_names[][2] = {
	{ "../cpu/event=1/", "bad PMU name '..'" },
	{ "./event=1/", "bad PMU name '.'" },
	{ "../event=1/", "bad PMU name" },
	{ ".cpu/event=1/", "bad PMU name" },
	{ "a..b/event=1/", "bad PMU name" },
	{ "c*u/event=1/", "bad PMU name" },
	{ "cpu/../", "bad term '..'" },
	{ "cpu/.hidden/", "bad term" },
	{ "cpu/a..b/", "bad term" },
	{ "cpu/a..b=1/", "bad term" },
	{ "cpu/../type/", "too many '/'" },
};

START_TEST(test_pmu_errors)
{
	const char *m;
	char many[512];

	/* syntax, numbers, terms, perf's terms ptop does not take */
	for (size_t i = 0; i < ARRAY_SIZE(bad_terms); i++) {
		m = parse_err(bad_terms[i][0]);
		ck_assert_msg(strstr(m, bad_terms[i][1]), "'%s': %s",
			      bad_terms[i][0], m);
		ck_assert_msg(strstr(m, bad_terms[i][0]), "'%s': %s",
			      bad_terms[i][0], m);
	}
	/* EVENT_MAX_TERMS, and one more */
	strcpy(many, "cpu/");
	for (int i = 0; i < EVENT_MAX_TERMS; i++)
		sprintf(many + strlen(many), "t%d=%d,", i, i);
	many[strlen(many) - 1] = '/';
	ck_assert_uint_eq(parse1(many).nr_terms, EVENT_MAX_TERMS);
	many[strlen(many) - 1] = '\0';
	strcat(many, ",one_more/");
	m = parse_err(many);
	ck_assert_ptr_nonnull(strstr(m, "more than 16 terms"));

	/* names that would leave the PMU's sysfs directory */
	for (size_t i = 0; i < ARRAY_SIZE(bad_names); i++) {
		m = parse_err(bad_names[i][0]);
		ck_assert_msg(strstr(m, bad_names[i][1]), "'%s': %s",
			      bad_names[i][0], m);
	}
	/* names too long for sysfs buffers */
	memset(many, 'a', EVENT_WORD_MAX);
	strcpy(many + EVENT_WORD_MAX, "/event=1/");
	parse_err(many);
	strcpy(many, "cpu/");
	memset(many + 4, 'a', EVENT_WORD_MAX);
	strcpy(many + 4 + EVENT_WORD_MAX, "=1/");
	parse_err(many);
}
END_TEST

/* The terms of a sysfs alias, the same grammar without the slashes. */
START_TEST(test_terms)
{
	struct event_term t[3];
	struct strbuf err;
	size_t n = 99;

	strbuf__init(&err);
	ck_assert_int_eq(events__parse_terms("", "x", t, 3, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(events__parse_terms("event=0x3c,umask=0x00,inv", "x",
					     t, 3, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	check_term(&t[0], "event", true, 0x3c);
	check_term(&t[1], "umask", true, 0);
	check_term(&t[2], "inv", false, 0);
	ck_assert_int_eq(events__parse_terms("a=1,b=2,c=3,d=4", "cpu/x/", t,
					     3, &n, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.buf, "more than 3 terms in 'cpu/x/'"));
	strbuf__reset(&err);
	ck_assert_int_eq(events__parse_terms("event=?", "cpu/x/", t, 3, &n,
					     &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.buf, "'?'"));
	ck_assert_int_eq(events__parse_terms("a/b=1", "x", t, 3, &n, NULL),
			 -EINVAL);
	strbuf__fini(&err);
}
END_TEST

/* PMU format files: which word, which bits; values spread over them. */
START_TEST(test_format)
{
	enum pmu_word w;
	u64 mask, v;

	ck_assert_int_eq(events__parse_format("config:0-7\n", &w, &mask), 0);
	ck_assert_int_eq(w, PMU_CONFIG);
	ck_assert_uint_eq(mask, 0xff);
	ck_assert_int_eq(events__parse_format("config:0-7,21", &w, &mask), 0);
	ck_assert_uint_eq(mask, 0x2000ff);
	ck_assert_int_eq(events__parse_format("config1:0-63", &w, &mask), 0);
	ck_assert_int_eq(w, PMU_CONFIG1);
	ck_assert_uint_eq(mask, UINT64_MAX);
	ck_assert_int_eq(events__parse_format("config2:5", &w, &mask), 0);
	ck_assert_int_eq(w, PMU_CONFIG2);
	ck_assert_uint_eq(mask, 0x20);
	ck_assert_int_eq(events__parse_format("config:0-7,32-35", &w, &mask),
			 0);
	ck_assert_uint_eq(mask, 0xf000000ffULL);
	ck_assert_int_eq(events__parse_format("config3:0-7", &w, &mask),
			 -EINVAL);
	ck_assert_int_eq(events__parse_format("config", &w, &mask), -EINVAL);
	ck_assert_int_eq(events__parse_format("config:", &w, &mask), -EINVAL);
	ck_assert_int_eq(events__parse_format("config:7-0", &w, &mask),
			 -EINVAL);
	ck_assert_int_eq(events__parse_format("config:0-64", &w, &mask),
			 -EINVAL);
	ck_assert_int_eq(events__parse_format("config:0-7,", &w, &mask),
			 -EINVAL);
	ck_assert_int_eq(events__parse_format("config:a-b", &w, &mask),
			 -EINVAL);
	ck_assert_int_eq(events__parse_format("cfg:0-7", &w, &mask), -EINVAL);

	/* the value's low bits into the mask's bits, low to high */
	v = 0xffff000000000000ULL;
	ck_assert_int_eq(events__format_set(&v, 0xff, 0x3c), 0);
	ck_assert_uint_eq(v, 0xffff00000000003cULL);
	/* the field is replaced: its old bits go */
	ck_assert_int_eq(events__format_set(&v, 0xff, 0x01), 0);
	ck_assert_uint_eq(v, 0xffff000000000001ULL);
	/* config:0-7,21: bit 8 of the value goes to bit 21 */
	v = 0;
	ck_assert_int_eq(events__format_set(&v, 0x2000ff, 0x1c0), 0);
	ck_assert_uint_eq(v, 0x2000c0);
	/* config:0-7,32-35: a 12-bit event */
	v = 0;
	ck_assert_int_eq(events__format_set(&v, 0xf000000ffULL, 0x28f), 0);
	ck_assert_uint_eq(v, 0x20000008fULL);
	/* too wide: an error, nothing written */
	v = 5;
	ck_assert_int_eq(events__format_set(&v, 0xff, 0x100), -ERANGE);
	ck_assert_uint_eq(v, 5);
	ck_assert_int_eq(events__format_set(&v, 0x2000ff, 0x200), -ERANGE);
	ck_assert_int_eq(events__format_set(&v, 1, 2), -ERANGE);
	ck_assert_int_eq(events__format_set(&v, 1, 1), 0);
	ck_assert_uint_eq(v, 5);
	ck_assert_int_eq(events__format_set(&v, UINT64_MAX, UINT64_MAX), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
}
END_TEST

Suite *events_suite(void);
Suite *events_suite(void)
{
	Suite *s = suite_create("events");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_every_name);
	tcase_add_test(tc, test_modifiers);
	tcase_add_test(tc, test_raw);
	tcase_add_test(tc, test_tracepoints);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_lists);
	tcase_add_test(tc, test_default_fallback);
	tcase_add_test(tc, test_name_of);
	tcase_add_test(tc, test_pmu_parse);
	tcase_add_test(tc, test_pmu_errors);
	tcase_add_test(tc, test_terms);
	tcase_add_test(tc, test_format);
	suite_add_tcase(s, tc);
	return s;
}
