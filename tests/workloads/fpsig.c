/* fpsig: a program with a signal handler, for signal frames in chains.
 * main_part spins; a CPU timer (ITIMER_PROF, every millisecond of CPU)
 * raises SIGPROF, whose handler on_prof spins about 300 us in
 * prof_work: a share of the CPU in the handler.  The handler's caller is
 * the kernel's signal return trampoline (libc's __restore_rt), whose
 * return address is the trampoline's first byte; beyond it, the
 * interrupted main_part.  Built like fpwork (gcc -O2
 * -fno-omit-frame-pointer: on_prof has a frame, prof_work and main_part,
 * leaves, have none), so the kernel's walk from prof_work reads
 * on_prof's return address, the trampoline's first byte, and goes on
 * from the interrupted rbp.  argv[1]: CPU seconds (default 3). */
#include <signal.h>
#include <string.h>
#include <sys/time.h>

#include "wl.h"

static volatile unsigned long sink, hsink;

__attribute__((noinline)) void prof_work(void)
{
	WL_SPIN_FOR(300, hsink);
}

__attribute__((noinline)) void on_prof(int sig)
{
	(void)sig;
	prof_work();
	hsink++;
}

__attribute__((noinline)) void main_part(void)
{
	WL_SPIN_FOR(1000, sink);
}

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start = wl_cpu_now();
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_prof;
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGPROF, &sa, NULL) || setitimer(ITIMER_PROF, &it, NULL))
		return 1;
	do {
		for (int r = 0; r < 10; r++)
			main_part();
	} while (!wl_done(start, secs));
	return 0;
}
