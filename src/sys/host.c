/* host: this machine's facts for a perf.data file (see host.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "src/sys/host.h"

#define CPUINFO "/proc/cpuinfo"
#define MEMINFO "/proc/meminfo"

/* The value of cpuinfo's first line "KEY<blanks>: VALUE", or NULL. */
static char *cpuinfo_field(const char *key)
{
	char *line = NULL, *out = NULL;
	size_t cap = 0, kl = strlen(key);
	FILE *f = fopen(CPUINFO, "re");

	while (f && !out && getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':'), *v;

		if (!colon || strncmp(line, key, kl) ||
		    (line[kl] != '\t' && line[kl] != ' ' && line[kl] != ':'))
			continue;
		v = colon + 1;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = '\0';
		out = strdup(v);
	}
	if (f)
		fclose(f);
	free(line);
	return out;
}

static u64 total_mem_kb(void)
{
	char *line = NULL;
	size_t cap = 0;
	u64 kb = 0;
	FILE *f = fopen(MEMINFO, "re");

	while (f && getline(&line, &cap, f) > 0)
		if (sscanf(line, "MemTotal: %" SCNu64, &kb) == 1)
			break;
	if (f)
		fclose(f);
	free(line);
	return kb;
}

int host__read(struct host *h, const struct host_paths *p)
{
	static const struct host_paths none;
	struct utsname u;
	int err;

	if (!p)
		p = &none;
	memset(h, 0, sizeof(*h));
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	snprintf(h->hostname, sizeof(h->hostname), "%s", u.nodename);
	snprintf(h->release, sizeof(h->release), "%s", u.release);
	snprintf(h->machine, sizeof(h->machine), "%s", u.machine);
	h->cpus_conf = (u32)sysconf(_SC_NPROCESSORS_CONF);
	h->cpus_online = (u32)sysconf(_SC_NPROCESSORS_ONLN);
	h->model_name = cpuinfo_field("model name");
	h->vendor = cpuinfo_field("vendor_id");
	h->family = cpuinfo_field("cpu family");
	h->model = cpuinfo_field("model");
	h->stepping = cpuinfo_field("stepping");
	h->mem_total_kb = total_mem_kb();
	h->kernel_build_id_size = kernel__build_id(p->kernel_notes,
						   h->kernel_build_id,
						   sizeof(h->kernel_build_id));
	err = kernel__maps(p->kallsyms, p->modules, &h->kmaps, &h->nr_kmaps);
	return err;
}

void host__fini(struct host *h)
{
	free(h->model_name);
	free(h->vendor);
	free(h->family);
	free(h->model);
	free(h->stepping);
	free(h->kmaps);
	memset(h, 0, sizeof(*h));
}
