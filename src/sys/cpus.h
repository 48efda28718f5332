/* cpus: the CPU topology (possible and online CPUs) from sysfs. */
#ifndef PTOP_CPUS_H
#define PTOP_CPUS_H

#include <stdbool.h>

#define PTOP_MAX_CPUS 4096

/* The number of possible CPUs (from /sys/devices/system/cpu/possible). */
int cpus__nr_possible(void);
/* Fills online[PTOP_MAX_CPUS]; returns the count. */
int cpus__online(bool *online);

#endif
