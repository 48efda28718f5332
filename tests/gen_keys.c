/* gen_keys: writes doc/keys.md and the KEYS section of doc/ptop.1 from
 * the key table (ui/tui/keys.c), so that the documentation cannot drift from
 * the keys; the keys suite fails when they are stale.
 *
 *   make build/libptop.a
 *   cc -std=gnu11 -D_GNU_SOURCE -I. tests/gen_keys.c \
 *      build/libptop.a $(pkg-config --libs ncursesw libelf libdw libzstd) \
 *      -lstdc++ -lm -pthread -ldl -o build/gen_keys
 *   build/gen_keys md > doc/keys.md
 *   build/gen_keys man doc/ptop.1
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/tui/keys.h"

/* Replaces ".SH KEYS" up to the next ".SH" (or appends the section). */
static int update_man(const char *path)
{
	struct strbuf out, keys;
	FILE *f = fopen(path, "r");
	char line[4096];
	bool in_keys = false, done = false;
	int err = 0;

	if (!f)
		return -errno;
	strbuf__init(&out);
	strbuf__init(&keys);
	keys__man(&keys);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, ".SH ", 4) == 0) {
			in_keys = strcmp(line, ".SH KEYS\n") == 0;
			if (in_keys) {
				strbuf__add(&out, keys.buf, keys.len);
				done = true;
				continue;
			}
		}
		if (!in_keys)
			strbuf__adds(&out, line);
	}
	fclose(f);
	if (!done)
		strbuf__add(&out, keys.buf, keys.len);
	f = fopen(path, "w");
	if (!f || fwrite(out.buf, 1, out.len, f) != out.len)
		err = -EIO;
	if (f && fclose(f))
		err = -EIO;
	strbuf__fini(&out);
	strbuf__fini(&keys);
	return err;
}

int main(int argc, char **argv)
{
	struct strbuf sb;

	if (argc == 2 && strcmp(argv[1], "md") == 0) {
		strbuf__init(&sb);
		keys__markdown(&sb);
		fwrite(sb.buf, 1, sb.len, stdout);
		strbuf__fini(&sb);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "man") == 0) {
		int err = update_man(argv[2]);

		if (err)
			fprintf(stderr, "gen_keys: %s: %s\n", argv[2],
				strerror(-err));
		return err ? 1 : 0;
	}
	fprintf(stderr, "usage: gen_keys md > doc/keys.md | "
			"gen_keys man doc/ptop.1\n");
	return 2;
}
