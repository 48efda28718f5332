/* runstat: runs a command for a while and reports its CPU time, peak RSS
 * and when its output first matched a pattern.
 * usage: runstat [-t SECS] [-p PATTERN] [-s SIG] -- CMD [ARGS...]
 * prints: cpu_s=<user+sys> rss_kb=<peak> first_s=<secs or -1> status=<n>
 * wall_s=<start to exit> */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = 10, start, first = -1;
	const char *pattern = NULL;
	int sig = SIGINT, opt, out[2], status = 0;
	char window[8192];
	size_t wlen = 0;
	struct rusage ru;
	bool sent = false, eof = false;
	pid_t pid;

	while ((opt = getopt(argc, argv, "+t:p:s:")) != -1) {
		if (opt == 't')
			secs = atof(optarg);
		else if (opt == 'p')
			pattern = optarg;
		else if (opt == 's')
			sig = atoi(optarg);
		else
			return 2;
	}
	if (optind < argc && strcmp(argv[optind], "--") == 0)
		optind++;
	if (optind >= argc || pipe(out))
		return 2;
	start = now();
	pid = fork();
	if (pid == 0) {
		dup2(out[1], 1);
		close(out[0]);
		close(out[1]);
		execvp(argv[optind], &argv[optind]);
		_exit(127);
	}
	close(out[1]);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		struct pollfd pfd = { .fd = out[0], .events = POLLIN };
		double t = now() - start;
		pid_t w;

		if (!sent && t >= secs) {
			kill(pid, sig);
			sent = true;
		}
		if (sent && t >= secs + 10)
			kill(pid, SIGKILL);
		if (!eof && poll(&pfd, 1, 20) > 0) {
			char buf[4096];
			ssize_t n = read(out[0], buf, sizeof(buf));

			if (n == 0) {
				eof = true;
			} else if (n > 0 && pattern && first < 0) {
				/* keep the tail so a match across reads counts */
				if (wlen + (size_t)n >= sizeof(window)) {
					size_t keep = 256 < wlen ? 256 : wlen;

					memmove(window, window + wlen - keep, keep);
					wlen = keep;
				}
				memcpy(window + wlen, buf, (size_t)n);
				wlen += (size_t)n;
				window[wlen] = '\0';
				if (memmem(window, wlen, pattern, strlen(pattern)))
					first = now() - start;
			}
		} else if (eof) {
			usleep(1000);	/* a wall time to the millisecond */
		}
		w = wait4(pid, &status, WNOHANG, &ru);
		if (w == pid)
			break;
	}
	printf("cpu_s=%.3f rss_kb=%ld first_s=%.3f status=%d wall_s=%.3f\n",
	       (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6,
	       ru.ru_maxrss, first,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
	       now() - start);
	return 0;
}
