/* fuzz_perfdata: any bytes as a perf.data file (either format, either byte
 * order) through the file reader into a session, then every event's
 * snapshot. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/perfdata/perfdata.h"
#include "src/core/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void snapshots(struct session *s)
{
	for (size_t ev = 0; ev < session__nr_events(s); ev++) {
		struct snapshot snap;

		snapshot__init(&snap);
		session__snapshot(s, ev, &snap);
		snapshot__fini(&snap);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	/* a small queue bound: the flush-half path runs too */
	struct perfdata_read_opts ro = { .queue_bytes = 4096 };
	struct session *s = session__new(&so);
	struct perfdata *pd;
	struct strbuf err;

	if (!s)
		return 0;
	strbuf__init(&err);
	pd = perfdata__open_mem(data, size, &err);
	if (pd) {
		perfdata__read(pd, s, &ro);
		snapshots(s);
		perfdata__close(pd);
	}
	strbuf__fini(&err);
	session__free(s);
	return 0;
}
