/* sort: the names of the sort keys, and the specs made of them (pure). */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "src/core/session.h"
#include "ui/report/sort.h"

static const char *const key_names[SORT__MAX] = {
	[SORT_OVERHEAD] = "overhead",
	[SORT_SAMPLES] = "sample",
	[SORT_PERIOD] = "period",
	[SORT_DELTA] = "delta",
	[SORT_ABSDELTA] = "absdelta",
	[SORT_SYM] = "sym",
	[SORT_DSO] = "dso",
	[SORT_COMM] = "comm",
	[SORT_PID] = "pid",
	[SORT_TID] = "tid",
	[SORT_CPU] = "cpu",
	[SORT_CGROUP] = "cgroup",
	[SORT_STATE] = "state",
};

const char *sort_key__name(enum sort_key k)
{
	return k < SORT__MAX ? key_names[k] : "?";
}

int sort_key__parse(const char *name, enum sort_key *k)
{
	for (int i = 0; i < SORT__MAX; i++) {
		if (strcmp(name, key_names[i]) == 0) {
			*k = (enum sort_key)i;
			return 0;
		}
	}
	if (strcmp(name, "samples") == 0) {
		*k = SORT_SAMPLES;
		return 0;
	}
	if (strcmp(name, "symbol") == 0) {
		*k = SORT_SYM;
		return 0;
	}
	return -EINVAL;
}

bool sort_key__groups(enum sort_key k)
{
	return k >= SORT_SYM && k < SORT__MAX;
}

void sort_spec__default(struct sort_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->group[0] = SORT_DSO;
	spec->group[1] = SORT_SYM;
	spec->nr_group = 2;
	spec->order = SORT_OVERHEAD;
}

bool sort_spec__has(const struct sort_spec *spec, enum sort_key k)
{
	for (size_t i = 0; i < spec->nr_group; i++)
		if (spec->group[i] == k)
			return true;
	return false;
}

int sort_spec__parse(const char *list, struct sort_spec *spec,
		     struct strbuf *err)
{
	char buf[256], *tok, *save = NULL;

	memset(spec, 0, sizeof(*spec));
	spec->order = SORT_OVERHEAD;
	if (strlen(list) >= sizeof(buf)) {
		strbuf__adds(err, "sort key list too long");
		return -EINVAL;
	}
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		enum sort_key k;

		if (sort_key__parse(tok, &k)) {
			strbuf__addf(err, "unknown sort key '%s' (valid:", tok);
			for (int i = 0; i < SORT__MAX; i++)
				strbuf__addf(err, " %s", key_names[i]);
			strbuf__adds(err, ")");
			return -EINVAL;
		}
		if (!sort_key__groups(k)) {
			spec->order = k;
			continue;
		}
		if (!sort_spec__has(spec, k))
			spec->group[spec->nr_group++] = k;
	}
	if (!spec->nr_group) {
		spec->group[0] = SORT_DSO;
		spec->group[1] = SORT_SYM;
		spec->nr_group = 2;
	}
	return 0;
}

unsigned int sort_spec__key_fields(const struct sort_spec *spec)
{
	unsigned int kf = 0;

	if (sort_spec__has(spec, SORT_PID))
		kf |= KEY_PID | KEY_COMM;
	if (sort_spec__has(spec, SORT_TID))
		kf |= KEY_PID | KEY_TID | KEY_COMM;
	if (sort_spec__has(spec, SORT_COMM))
		kf |= KEY_COMM;
	if (sort_spec__has(spec, SORT_CPU))
		kf |= KEY_CPU;
	if (sort_spec__has(spec, SORT_CGROUP))
		kf |= KEY_CGROUP;
	if (sort_spec__has(spec, SORT_STATE))
		kf |= KEY_STATE;
	return kf;
}
