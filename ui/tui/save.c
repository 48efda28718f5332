/* save: the live view's texts written to new numbered files (P, the
 * row menu's copy, the annotate view's P), and the status line says
 * where, or why not. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "src/sys/fdio.h"
#include "src/sys/outfile.h"
#include "ui/report/sanitize.h"
#include "ui/tui/save.h"
#include "ui/tui/tui_internal.h"

/* Writes text to DIR/prefix.N, the first N free (a new file: nothing
 * there is replaced or written into); returns the name. */
static int save_text(struct tui *t, const char *prefix, const char *text,
		     size_t len, char *name, size_t name_len)
{
	const char *dir = t->save_dir ? t->save_dir : ".";
	struct outfile of;
	int err = -EEXIST;

	for (unsigned int i = 0; i < 1000 && err == -EEXIST; i++) {
		snprintf(name, name_len, "%s/%s.%u", dir, prefix,
			 t->save_seq + i);
		err = outfile__open(&of, name, OUTFILE_EXPORT | OUTFILE_NEW);
	}
	if (err)
		return err;
	return outfile__finish(&of, fd__write_all(of.fd, text, len, NULL));
}

static void report_save(struct tui *t, int err, const char *what,
			const char *name)
{
	struct strbuf sb;

	strbuf__init(&sb);
	sanitize_str(&sb, name);
	if (err)
		tui__status(t, ST_ERROR, "cannot save %s to %s: %s", what,
			    sb.buf ? sb.buf : "", strerror(-err));
	else
		tui__status(t, ST_NORMAL, "saved %s to %s", what,
			    sb.buf ? sb.buf : "");
	strbuf__fini(&sb);
}

int save__text(struct tui *t, const char *prefix, const char *what,
	       const char *text, size_t len)
{
	char name[4096] = "";
	int err = text ? save_text(t, prefix, text, len, name, sizeof(name))
		       : -ENOMEM;

	report_save(t, err, what, name);
	return err;
}

