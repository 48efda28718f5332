/* syswork: most of its CPU time in the kernel, at a known user stack.
 *   main -> sys_a -> sys_b -> sys_c -> read(/dev/zero, 256 KiB)
 * The kernel's copy of zeros is the work, so most samples are taken in
 * kernel mode, inside the read syscall that sys_c makes; their user
 * stack (registers and stack at the syscall's entry) is always
 * main -> sys_a -> sys_b -> sys_c -> read.  Built without frame pointers
 * (--call-graph dwarf unwinds it from CFI).  Lives for a fixed amount of
 * thread CPU time (user and system).
 * usage: syswork [SECONDS] */
#include <fcntl.h>
#include <unistd.h>

#include "wl.h"

static char buf[256 * 1024];
volatile unsigned long sys_sink;

__attribute__((noinline)) void sys_c(int fd)
{
	ssize_t n = read(fd, buf, sizeof(buf));

	sys_sink += (unsigned long)n;
}

__attribute__((noinline)) void sys_b(int fd)
{
	sys_c(fd);
	sys_sink++;
}

__attribute__((noinline)) void sys_a(int fd)
{
	sys_b(fd);
	sys_sink++;
}

int main(int argc, char **argv)
{
	double secs = wl_seconds(argc, argv), start = wl_cpu_now();
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		return 1;
	while (!wl_done(start, secs))
		for (int i = 0; i < 16; i++)
			sys_a(fd);
	close(fd);
	return 0;
}
