/* tests/main: runs every Check suite (tests/check_NAME.c -> NAME_suite). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/*
 * The counts, as make check's summary reads them.  Check counts a skipped
 * test (test_skip in testutil.h) as passed; its line in $PTOP_SKIPS makes
 * it a skip here.  With $PTOP_SUMMARY set, the counts and the names of
 * what failed or was skipped are appended there (see tests/summary.sh).
 */
static int report(SRunner *sr, const char *skips)
{
	int run = srunner_ntests_run(sr), failed = srunner_ntests_failed(sr);
	const char *sum_path = getenv("PTOP_SUMMARY");
	FILE *sk = fopen(skips, "r"), *sum = NULL;
	TestResult **res = srunner_results(sr);
	int skipped = 0;
	char line[1100];

	if (sum_path && *sum_path && !(sum = fopen(sum_path, "a")))
		perror(sum_path);
	while (sk && fgets(line, sizeof(line), sk)) {
		skipped++;
		printf("SKIP unit %s", line);
		if (sum)
			fprintf(sum, "skip unit %s", line);
	}
	if (sk)
		fclose(sk);
	for (int i = 0; res && i < run; i++) {
		if (tr_rtype(res[i]) == CK_PASS)
			continue;
		if (sum)
			fprintf(sum, "fail unit %s (%s:%d): %s\n",
				tr_tcname(res[i]), tr_lfile(res[i]),
				tr_lno(res[i]), tr_msg(res[i]));
	}
	free(res);
	printf("units: %d passed, %d failed, %d skipped\n",
	       run - failed - skipped, failed, skipped);
	if (sum) {
		fprintf(sum, "counts %d %d %d\n", run - failed - skipped,
			failed, skipped);
		fclose(sum);
	}
	return failed;
}

/*
 * Check's timeouts are wall time; they are there to catch a hang, and a
 * machine with a load of L on C CPUs gives a test about C/L of a CPU.
 * Unless CK_TIMEOUT_MULTIPLIER is set, they are scaled by the load per
 * CPU (at least 1): at load 30 on 2 CPUs, tests that need 0.3 s of CPU
 * timed out at 4 s.  A test that must be fast measures its CPU time.
 */
static void scale_timeouts(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	FILE *f = fopen("/proc/loadavg", "r");
	double load = 0;
	char buf[16];
	int mult;

	if (getenv("CK_TIMEOUT_MULTIPLIER") || !f) {
		if (f)
			fclose(f);
		return;
	}
	if (fscanf(f, "%lf", &load) != 1)
		load = 0;
	fclose(f);
	mult = (int)(load / (double)(cpus > 0 ? cpus : 1)) + 1;
	if (mult <= 1)
		return;
	if (mult > 30)
		mult = 30;
	snprintf(buf, sizeof(buf), "%d", mult);
	setenv("CK_TIMEOUT_MULTIPLIER", buf, 1);
	printf("runner: load %.1f on %ld CPUs: timeouts x%d\n", load, cpus,
	       mult);
}

int main(int argc, char **argv)
{
	char skips[] = "/tmp/ptop-skips-XXXXXX";
	SRunner *sr = NULL;
	int failed, fd;

	scale_timeouts();	/* before Check reads it, in tcase_create */
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
	fd = mkstemp(skips);
	if (fd < 0) {
		perror("runner: mkstemp");
		return 2;
	}
	close(fd);
	setenv("PTOP_SKIPS", skips, 1);
	srunner_run_all(sr, CK_NORMAL);
	failed = report(sr, skips);
	unlink(skips);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
