/* perfevent: perf_event_open(2), which glibc does not wrap (evlist opens
 * the sampled events with it, the catalog tries which events open). */
#ifndef PTOP_PERFEVENT_H
#define PTOP_PERFEVENT_H

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static inline long sys_perf_event_open(struct perf_event_attr *attr,
				       pid_t pid, int cpu, int group_fd,
				       unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

#endif
