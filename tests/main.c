/* tests/main: runs every Check suite (tests/check_NAME.c -> NAME_suite). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUITE(n) Suite *n##_suite(void);
#include "suites.inc"
#undef SUITE

static const struct {
	const char *name;
	Suite *(*fn)(void);
} suites[] = {
#define SUITE(n) { #n, n##_suite },
#include "suites.inc"
#undef SUITE
};

int main(int argc, char **argv)
{
	SRunner *sr = NULL;
	int failed;

	/* "runner NAME..." runs only those suites. */
	for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++) {
		int want = argc < 2;

		for (int a = 1; a < argc; a++)
			want |= strcmp(argv[a], suites[i].name) == 0;
		if (!want)
			continue;
		if (!sr)
			sr = srunner_create(suites[i].fn());
		else
			srunner_add_suite(sr, suites[i].fn());
	}
	if (!sr) {
		fprintf(stderr, "runner: no such suite\n");
		return 2;
	}
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
