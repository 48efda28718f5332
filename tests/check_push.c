/* Tests of push's pure parts: --label checks, the ingest query (names
 * and percent-encoding), and the windows a cumulative histogram becomes
 * (the sender itself is tested against a server by push.sh). */
#include <stdlib.h>
#include <string.h>

#include "ui/report/push.h"
#include "tests/testutil.h"

START_TEST(test_labels)
{
	static const char *const good[] = { "env=prod", "_x=1", "a.b_c9=v-1:2/3",
					    "region=eu west" };
	static const char *const bad[] = { "env", "=v", "9x=1", "__name__=x",
					   "a-b=1", "k=", "k=a,b", "k=a{b",
					   "k=a=b", "k=a\tb" };
	struct strbuf why;

	strbuf__init(&why);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ck_assert_msg(push__check_label(good[i], &why) == 0, "%s: %s",
			      good[i], why.buf);
		ck_assert_uint_eq(why.len, 0);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strbuf__reset(&why);
		ck_assert_msg(push__check_label(bad[i], &why) == -EINVAL,
			      "%s accepted", bad[i]);
		ck_assert(why.len > 0);
	}
	strbuf__fini(&why);
}
END_TEST

START_TEST(test_query)
{
	struct push_opts o = { .app = "my app", .hostname = "h1",
			       .labels = { "env=a b", "k.x=1" }, .nr_labels = 2 };
	struct strbuf sb;

	strbuf__init(&sb);
	push__query(&sb, &o, "cpu-clock", 100, 110, 4000);
	ck_assert_str_eq(sb.buf,
			 "name=my%20app%7Bhostname%3Dh1%2Cevent%3Dcpu-clock"
			 "%2Cenv%3Da%20b%2Ck.x%3D1%7D&from=100&until=110"
			 "&format=pprof&sampleRate=4000&spyName=ptop");
	strbuf__reset(&sb);
	o = (struct push_opts){ 0 };
	push__query(&sb, &o, NULL, 5, 5, 0);
	ck_assert_str_eq(sb.buf, "name=ptop%7B%7D&from=5&until=5&format=pprof"
				 "&spyName=ptop");
	strbuf__fini(&sb);
}
END_TEST

static struct dso dso_w = { .kind = DSO_FILE, .name = "w" };

static void put(struct snapshot *s, u64 addr, s32 pid, u64 samples,
		bool idle)
{
	struct hist_entry e = { .key = { .dso = &dso_w, .addr = addr,
					 .pid = pid, .idle = idle },
				.samples = samples, .period = samples * 10 };

	ck_assert_int_eq(array__grow((void **)&s->entries, &s->cap, s->nr + 1,
				     sizeof(e)), 0);
	s->entries[s->nr++] = e;
	s->total_samples += samples;
	s->total_period += samples * 10;
}

static u64 got(const struct snapshot *s, u64 addr)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->entries[i].key.addr == addr)
			return s->entries[i].samples;
	return 0;
}

/* A cumulative histogram pushed twice: the second window holds what came
 * since the first (new keys whole, unchanged keys left out, the idle
 * entries last and counted), per event; a histogram that went down
 * (zeroed, folded) is taken whole. */
START_TEST(test_window_delta)
{
	struct push_window *w = push_window__new();
	struct snapshot a, b, c, out;

	ck_assert_ptr_nonnull(w);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	put(&a, 0x10, 1, 5, false);
	put(&a, 0x20, 1, 3, false);
	ck_assert_int_eq(push_window__delta(w, 0, &a, &out), 0);
	ck_assert_uint_eq(out.nr, 2);
	ck_assert_uint_eq(out.total_samples, 8);
	/* another event has windows of its own */
	ck_assert_int_eq(push_window__delta(w, 1, &a, &out), 0);
	ck_assert_uint_eq(out.total_samples, 8);

	put(&b, 0x10, 1, 9, false);	/* +4 */
	put(&b, 0x20, 1, 3, false);	/* unchanged */
	put(&b, 0x30, 2, 2, false);	/* new */
	put(&b, 0x40, 0, 6, true);	/* new, idle */
	b.nr_idle = 1;
	ck_assert_int_eq(push_window__delta(w, 0, &b, &out), 0);
	ck_assert_uint_eq(out.nr, 3);
	ck_assert_uint_eq(got(&out, 0x10), 4);
	ck_assert_uint_eq(got(&out, 0x20), 0);
	ck_assert_uint_eq(got(&out, 0x30), 2);
	ck_assert_uint_eq(out.entries[out.nr - 1].key.addr, 0x40);
	ck_assert_uint_eq(out.nr_idle, 1);
	ck_assert_uint_eq(out.idle_samples, 6);
	ck_assert_uint_eq(out.total_samples, 12);
	ck_assert_uint_eq(out.total_period, 120);

	put(&c, 0x10, 1, 2, false);	/* went down: whole */
	ck_assert_int_eq(push_window__delta(w, 0, &c, &out), 0);
	ck_assert_uint_eq(got(&out, 0x10), 2);
	ck_assert_uint_eq(out.total_samples, 2);
	free(a.entries);
	free(b.entries);
	free(c.entries);
	push_window__free(w);
}
END_TEST

Suite *push_suite(void);
Suite *push_suite(void)
{
	Suite *s = suite_create("push");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_labels);
	tcase_add_test(tc, test_query);
	tcase_add_test(tc, test_window_delta);
	suite_add_tcase(s, tc);
	return s;
}
