/* annotate: how long ptop takes to annotate one function of a shared
 * object, in process: the symbol table (as the live table has it loaded
 * already), then the annotation (code read, disassembled, source lines,
 * laid out as text), cold and from the cache.  Prints one line:
 *   annotate: symbols_ms=... annotate_ms=... cached_ms=... insns=N
 * usage: annotate DSO_PATH SYMBOL (perf's name: "ns::f" names
 * "ns::f(int)") */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ui/report/annotate.h"
#include "symbols/symbolizer.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

struct want {
	const char *name;
	u64 start;
	bool found;
};

static int match(void *ctx, const struct sym_info *si)
{
	struct want *w = ctx;
	size_t n = strlen(w->name);

	if (strcmp(si->name, w->name) &&
	    (strncmp(si->name, w->name, n) || si->name[n] != '('))
		return 0;
	w->start = si->start;
	w->found = true;
	return 1;
}

/* Annotates and formats: what the view does to open the function. */
static size_t annotate_once(struct annotator *an, const struct dso *d,
			    u64 start, struct strbuf *text)
{
	struct ann_fmt f = { .value = ANN_PERCENT };
	struct snapshot snap;
	struct annotation *a;
	struct strbuf why;
	size_t nr;

	strbuf__init(&why);
	if (annotator__open(an, d, start, &a, &why)) {
		fprintf(stderr, "annotate: %s\n", why.buf ? why.buf : "?");
		exit(1);
	}
	strbuf__fini(&why);
	snapshot__init(&snap);
	annotation__count(a, &snap);
	strbuf__reset(text);
	annotation__text(a, "cpu-clock", ANN_BOTH, &f, text);
	nr = a->nr;
	annotation__put(a);
	return nr;
}

int main(int argc, char **argv)
{
	struct dso d;
	struct want w;
	struct symbolizer *s;
	struct annotator *an;
	struct sym_info si;
	struct strbuf text;
	double t0, t1, t2, t3;
	size_t nr, lines;

	if (argc != 3) {
		fprintf(stderr, "usage: annotate DSO_PATH SYMBOL\n");
		return 2;
	}
	memset(&d, 0, sizeof(d));
	d.kind = DSO_FILE;
	d.path = argv[1];
	d.name = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
	d.pid = -1;
	w = (struct want){ .name = argv[2] };
	strbuf__init(&text);
	s = symbolizer__new(NULL);
	an = s ? annotator__new(s, DISASM_ATT) : NULL;
	if (!an)
		return 1;
	t0 = now_ms();
	/* the table's work: the dso's symbols, loaded once */
	symbolizer__lookup(s, &d, 0, &si);
	t1 = now_ms();
	/* (finding the name walks every symbol, demangling each: a batch
	 * --annotate cost, not the view's, which starts from a row) */
	symbolizer__foreach_symbol(s, &d, match, &w);
	if (!w.found) {
		fprintf(stderr, "annotate: no %s in %s\n", argv[2], argv[1]);
		return 1;
	}
	t2 = now_ms();
	nr = annotate_once(an, &d, w.start, &text);
	t3 = now_ms();
	annotate_once(an, &d, w.start, &text);
	lines = 0;
	for (size_t i = 0; i < text.len; i++)
		lines += text.buf[i] == '\n';
	printf("annotate: symbols_ms=%.1f annotate_ms=%.2f cached_ms=%.2f "
	       "find_ms=%.1f insns=%zu lines=%zu\n",
	       t1 - t0, t3 - t2, now_ms() - t3, t2 - t1, nr, lines);
	strbuf__fini(&text);
	annotator__free(an);
	symbolizer__free(s);
	return 0;
}
