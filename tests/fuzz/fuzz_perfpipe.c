/* fuzz_perfpipe: any bytes as a pipe-mode stream, fed to the stream parser
 * in pieces whose sizes the first bytes choose, then every event's
 * snapshot. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/perfdata/perfdata.h"
#include "src/core/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session_opts so = { .key_fields = KEY_ALL };
	struct perfdata_read_opts ro = { .queue_bytes = 8192 };
	struct session *s = session__new(&so);
	struct perfdata_stream *st;
	struct perfdata_info info;
	size_t chunk = 4096, off = 0;

	if (!s)
		return 0;
	if (size >= 2) {
		/* 1 .. 4096 bytes per feed */
		chunk = 1 + ((size_t)data[0] << 4 | data[1] >> 4) % 4096;
	}
	memset(&info, 0, sizeof(info));
	st = perfdata_stream__new(s, true, false, 0, &info, &ro);
	if (st) {
		while (off < size) {
			size_t n = size - off < chunk ? size - off : chunk;

			perfdata_stream__feed(st, data + off, n);
			off += n;
		}
		perfdata_stream__end(st);
		for (size_t ev = 0; ev < session__nr_events(s); ev++) {
			struct snapshot snap;

			snapshot__init(&snap);
			session__snapshot(s, ev, &snap);
			snapshot__fini(&snap);
		}
		perfdata_stream__free(st);
	}
	perfdata_info__fini(&info);
	session__free(s);
	return 0;
}
