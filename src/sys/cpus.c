/* cpus: the CPU topology (possible and online CPUs) from sysfs. */
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "src/sys/cpus.h"
#include "src/sys/fdio.h"

static int read_cpulist(const char *path, bool *set)
{
	char buf[4096];
	int err = fd__read_text(path, buf, sizeof(buf));

	if (err)
		return err;
	return cpulist__parse(buf, set, PTOP_MAX_CPUS);
}

static int cpus_from_sysconf(bool *set, int name)
{
	long n = sysconf(name);

	memset(set, 0, PTOP_MAX_CPUS * sizeof(*set));
	if (n < 1)
		n = 1;
	if (n > PTOP_MAX_CPUS)
		n = PTOP_MAX_CPUS;
	for (long i = 0; i < n; i++)
		set[i] = true;
	return (int)n;
}

int cpus__nr_possible(void)
{
	bool set[PTOP_MAX_CPUS];
	int n = read_cpulist("/sys/devices/system/cpu/possible", set);

	if (n <= 0)
		return cpus_from_sysconf(set, _SC_NPROCESSORS_CONF);
	for (int i = PTOP_MAX_CPUS - 1; i >= 0; i--)
		if (set[i])
			return i + 1;
	return 1;
}

int cpus__online(bool *online)
{
	int n = read_cpulist("/sys/devices/system/cpu/online", online);

	if (n <= 0)
		return cpus_from_sysconf(online, _SC_NPROCESSORS_ONLN);
	return n;
}

