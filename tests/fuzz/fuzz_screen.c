/* fuzz_screen: hostile names through row formatting and the screen
 * model: whatever the bytes, no line is wider than the screen and no
 * control byte (ESC, C1, newline) reaches it.  Input: one byte of width,
 * then the name. */
#include <stdlib.h>
#include <string.h>

#include "ui/report/fmt.h"
#include "ui/report/sanitize.h"
#include "ui/tui/screen.h"

static void check(const struct screen *s)
{
	for (size_t y = 0; y < s->rows; y++) {
		const char *l = screen__text(s, y);
		size_t n = strlen(l);

		if (display_width(l, n) > s->cols)
			abort();
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)l[i] < 0x20 || l[i] == 0x7f)
				abort();
		if (strstr(l, "\xc2\x9b") || strstr(l, "\xe2\x80\xae"))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct dso dso = { .kind = DSO_FILE };
	struct sort_spec spec;
	struct columns c;
	struct rowset rs;
	struct screen s;
	struct strbuf sb;
	struct row r;
	char *name;
	size_t cols;

	if (!size)
		return 0;
	cols = data[0];
	name = malloc(size);
	if (!name)
		return 0;
	memcpy(name, data + 1, size - 1);
	name[size - 1] = '\0';

	screen__init(&s);
	screen__resize(&s, 3, cols);
	screen__add_ext(&s, 0, ST_NORMAL, name);
	screen__add(&s, 1, ST_NORMAL, "x");
	screen__add_ext(&s, 1, ST_HOT, name);

	memset(&r, 0, sizeof(r));
	dso.name = name;
	r.dso = &dso;
	r.dso_name = name;
	r.sym = name;
	r.comm = name;
	r.samples = r.period = 1;
	memset(&rs, 0, sizeof(rs));
	rs.rows = &r;
	rs.nr = 1;
	rs.total_samples = rs.total_period = 1;
	memset(&spec, 0, sizeof(spec));
	spec.group[0] = SORT_COMM;
	spec.group[1] = SORT_DSO;
	spec.group[2] = SORT_SYM;
	spec.nr_group = 3;
	columns__init(&c, &spec, true);
	columns__fit(&c, &rs, 0, 1, cols);
	strbuf__init(&sb);
	fmt__row(&sb, &c, &rs, &r, NULL);
	/* rows are fitted to the width, then cut by the screen */
	screen__add(&s, 2, ST_NORMAL, sb.buf ? sb.buf : "");
	strbuf__fini(&sb);
	check(&s);
	screen__fini(&s);
	free(name);
	return 0;
}
