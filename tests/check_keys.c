/* Tests of the key table: every binding has help, no key is bound twice
 * in a view, every key has a name, and doc/keys.md and the KEYS section
 * of doc/ptop.1 are what the table generates. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/tui/keys.h"
#include "tests/testutil.h"

static const unsigned int views[] = {
	V_TOP, V_HELP, V_MENU, V_EVENTS, V_PROMPT, V_SETUP, V_CALLERS,
	V_ANNOTATE, V_FLAME, V_TIMELINE,
};

START_TEST(test_every_binding_has_help)
{
	ck_assert_uint_gt(keys__nr, 20);
	for (size_t i = 0; i < keys__nr; i++) {
		const struct key_binding *b = &keys__table[i];

		ck_assert_msg(b->help && strlen(b->help) > 3,
			      "binding %zu has no help", i);
		ck_assert_msg(b->action, "binding %zu has no action", i);
		ck_assert_msg(b->views && !(b->views & ~(unsigned int)V_ALL),
			      "binding %zu has bad views", i);
	}
}
END_TEST

/* Every key of binding i (its aliases), for a loop over all of them. */
#define FOR_KEYS(b, k)                                                       \
	for (size_t k = 0; k < KEY_ALIASES && (b)->keys[k]; k++)

START_TEST(test_no_key_bound_twice_in_a_view)
{
	for (size_t v = 0; v < sizeof(views) / sizeof(views[0]); v++)
		for (size_t i = 0; i < keys__nr; i++)
			for (size_t j = i; j < keys__nr; j++) {
				const struct key_binding *a = &keys__table[i],
							 *b = &keys__table[j];
				char n[32];

				if (!(a->views & views[v]) ||
				    !(b->views & views[v]))
					continue;
				FOR_KEYS(a, ka)
					FOR_KEYS(b, kb)
						ck_assert_msg(
							(i == j && ka == kb) ||
							a->keys[ka] !=
								b->keys[kb],
							"%s bound twice in view %#x",
							keys__name(a->keys[ka], n,
								   sizeof(n)),
							views[v]);
			}
}
END_TEST

START_TEST(test_lookup)
{
	const struct key_binding *b;

	b = keys__lookup('q', V_TOP);
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(b->help, "quit ptop");
	/* q in a list goes back, it does not quit */
	b = keys__lookup('q', V_HELP);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_ne(b->action, keys__lookup('q', V_TOP)->action);
	ck_assert_ptr_null(keys__lookup('x', V_TOP));
	/* perf top's keys */
	ck_assert_ptr_nonnull(keys__lookup('d', V_TOP));
	ck_assert_ptr_nonnull(keys__lookup('P', V_TOP));
	ck_assert_ptr_nonnull(keys__lookup('a', V_TOP));
	ck_assert_ptr_nonnull(keys__lookup('z', V_TOP));
	ck_assert_ptr_nonnull(keys__lookup('f', V_TOP));
	ck_assert_ptr_nonnull(keys__lookup(K_TAB, V_TOP));
	ck_assert_ptr_nonnull(keys__lookup(K_BTAB, V_TOP));
	/* call-graph trees, as in perf top */
	ck_assert_ptr_nonnull(keys__lookup('+', V_TOP));
	ck_assert_ptr_nonnull(keys__lookup('E', V_TOP));
	ck_assert_ptr_nonnull(keys__lookup('C', V_TOP));
	ck_assert_ptr_nonnull(keys__lookup('G', V_TOP));
	ck_assert_ptr_nonnull(keys__lookup('c', V_TOP));
	/* the caller/callee view moves, goes in, comes back, annotates */
	ck_assert_ptr_nonnull(keys__lookup(K_DOWN, V_CALLERS));
	ck_assert_ptr_nonnull(keys__lookup(K_ENTER, V_CALLERS));
	ck_assert_ptr_nonnull(keys__lookup(K_ESC, V_CALLERS));
	ck_assert_ptr_nonnull(keys__lookup('a', V_CALLERS));
	ck_assert_ptr_nonnull(keys__lookup(K_CTRL_C, V_CALLERS));
	ck_assert_ptr_ne(keys__lookup(K_ESC, V_CALLERS)->action,
			 keys__lookup(K_ESC, V_HELP)->action);
	/* every browsing view moves */
	for (size_t v = 0; v < 4; v++) {
		ck_assert_ptr_nonnull(keys__lookup(K_UP, views[v]));
		ck_assert_ptr_nonnull(keys__lookup('j', views[v]));
		ck_assert_ptr_nonnull(keys__lookup(K_ESC, views[v]));
		ck_assert_ptr_nonnull(keys__lookup(K_CTRL_C, views[v]));
	}
}
END_TEST

START_TEST(test_names)
{
	char n[32];

	ck_assert_str_eq(keys__name(K_UP, n, sizeof(n)), "Up");
	ck_assert_str_eq(keys__name(K_BTAB, n, sizeof(n)), "Shift-Tab");
	ck_assert_str_eq(keys__name(K_F(1), n, sizeof(n)), "F1");
	ck_assert_str_eq(keys__name(K_F(10), n, sizeof(n)), "F10");
	ck_assert_str_eq(keys__name(K_CTRL_C, n, sizeof(n)), "Ctrl-C");
	ck_assert_str_eq(keys__name(K_ESC, n, sizeof(n)), "Esc");
	ck_assert_str_eq(keys__name('<', n, sizeof(n)), "<");
	/* every bound key has a readable name */
	for (size_t i = 0; i < keys__nr; i++) {
		FOR_KEYS(&keys__table[i], k) {
			keys__name(keys__table[i].keys[k], n, sizeof(n));
			ck_assert_msg(strncmp(n, "0x", 2) != 0,
				      "key %d has no name",
				      keys__table[i].keys[k]);
		}
	}
}
END_TEST

struct count {
	size_t sections, lines, keys;
	char seen[16][80];
};

static void count_line(const char *section, const char *keys,
		       const char *help, void *ctx)
{
	struct count *c = ctx;

	if (!keys) {
		/* each section comes once: the table is grouped */
		for (size_t i = 0; i < c->sections && i < 16; i++)
			ck_assert_msg(strcmp(c->seen[i], section) != 0,
				      "section '%s' twice", section);
		if (c->sections < 16)
			snprintf(c->seen[c->sections], sizeof(c->seen[0]),
				 "%s", section);
		c->sections++;
		return;
	}
	ck_assert_ptr_nonnull(help);
	c->lines++;
	c->keys++;
	for (const char *p = keys; (p = strstr(p, ", ")); p += 2)
		c->keys++;
}

START_TEST(test_help_lists_every_binding)
{
	struct count c = { 0 };
	size_t nr_keys = 0;

	for (size_t i = 0; i < keys__nr; i++)
		FOR_KEYS(&keys__table[i], k)
			nr_keys++;
	keys__foreach_help(count_line, &c);
	ck_assert_uint_eq(c.sections, 10);
	ck_assert_uint_eq(c.keys, nr_keys);
	/* a line per binding: Up, k share one */
	ck_assert_uint_eq(c.lines, keys__nr);
	ck_assert_uint_lt(c.lines, nr_keys);
}
END_TEST

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	struct strbuf sb;
	char buf[4096];
	size_t n;

	if (!f)
		return NULL;
	strbuf__init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf__add(&sb, buf, n);
	fclose(f);
	return strbuf__detach(&sb);
}

static const char *src_path(const char *rel)
{
	static char buf[4096];
	const char *dir = getenv("PTOP_SRCDIR");

	snprintf(buf, sizeof(buf), "%s/%s", dir ? dir : ".", rel);
	return buf;
}

#define REGEN "regenerate it with tests/gen_keys.c (see its first lines)"

START_TEST(test_doc_keys_md_is_current)
{
	char *doc = slurp(src_path("doc/keys.md"));
	struct strbuf sb;

	ck_assert_msg(doc, "doc/keys.md is missing: " REGEN);
	strbuf__init(&sb);
	keys__markdown(&sb);
	ck_assert_msg(strcmp(doc, sb.buf) == 0, "doc/keys.md is stale: " REGEN);
	strbuf__fini(&sb);
	free(doc);
}
END_TEST

START_TEST(test_man_keys_section_is_current)
{
	char *man = slurp(src_path("doc/ptop.1")), *start, *end;
	struct strbuf sb;

	ck_assert_msg(man, "doc/ptop.1 is missing");
	start = strstr(man, "\n.SH KEYS\n");
	ck_assert_msg(start, "doc/ptop.1 has no KEYS section: " REGEN);
	start++;
	end = strstr(start + 1, "\n.SH ");
	if (end)
		end[1] = '\0';
	strbuf__init(&sb);
	keys__man(&sb);
	ck_assert_msg(strcmp(start, sb.buf) == 0,
		      "the KEYS section of doc/ptop.1 is stale: " REGEN);
	strbuf__fini(&sb);
	free(man);
}
END_TEST

START_TEST(test_markdown_shape)
{
	struct strbuf sb;

	strbuf__init(&sb);
	keys__markdown(&sb);
	ck_assert_ptr_nonnull(strstr(sb.buf, "| `Up`, `k` | select the previous row |"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "| `Tab` |"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "## The event picker"));
	/* the percentages are explained after the keys */
	ck_assert_ptr_nonnull(strstr(sb.buf, "## Percentages"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "| Children | with -g: share"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "| `+` | expand or collapse"));
	strbuf__fini(&sb);
	strbuf__init(&sb);
	keys__man(&sb);
	/* hyphens are minus signs in roff */
	ck_assert_ptr_nonnull(strstr(sb.buf, ".B Shift\\-Tab\n"));
	ck_assert_ptr_null(strstr(sb.buf, "\n.B Shift-Tab"));
	strbuf__fini(&sb);
}
END_TEST

Suite *keys_suite(void)
{
	Suite *s = suite_create("keys");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_every_binding_has_help);
	tcase_add_test(tc, test_no_key_bound_twice_in_a_view);
	tcase_add_test(tc, test_lookup);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_help_lists_every_binding);
	tcase_add_test(tc, test_doc_keys_md_is_current);
	tcase_add_test(tc, test_man_keys_section_is_current);
	tcase_add_test(tc, test_markdown_shape);
	suite_add_tcase(s, tc);
	return s;
}
