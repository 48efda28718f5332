/* check_events: perf's event names, aliases, modifiers and errors. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "testutil.h"

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
	suite_add_tcase(s, tc);
	return s;
}
