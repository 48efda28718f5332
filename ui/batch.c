/* batch: the headless front end's printers (text tables and JSON). */
#include <inttypes.h>
#include <stdio.h>

#include "batch.h"
#include "fmt.h"
#include "sanitize.h"

static void batch__text(struct strbuf *sb, const struct batch_opts *o,
			struct table *t, const struct header_info *hi)
{
	const struct snapshot *snap = table__snap(t, t->ev);
	struct columns cols;

	header__format(sb, hi, snap, "# ");
	columns__init(&cols, &t->spec, o->show_period);
	columns__fit(&cols, &t->rows, 0, t->rows.nr, 0);
	strbuf__adds(sb, "# ");
	fmt__header(sb, &cols);
	strbuf__addc(sb, '\n');
	for (size_t i = 0; i < t->rows.nr; i++) {
		strbuf__adds(sb, "  ");
		fmt__row(sb, &cols, &t->rows, &t->rows.rows[i], NULL);
		strbuf__addc(sb, '\n');
	}
	if (t->rows.hidden_rows)
		strbuf__addf(sb, "# %" PRIu64 " more rows not shown\n",
			     t->rows.hidden_rows);
	strbuf__addc(sb, '\n');
}

static void json_key(struct strbuf *sb, const char *k)
{
	strbuf__addf(sb, "\"%s\":", k);
}

static void json_sanitized(struct strbuf *sb, const char *s)
{
	struct strbuf clean;

	if (!s) {
		strbuf__adds(sb, "null");
		return;
	}
	strbuf__init(&clean);
	sanitize_str(&clean, s);
	json_string(sb, clean.buf ? clean.buf : "");
	strbuf__fini(&clean);
}

static void batch__json_row(struct strbuf *sb, struct table *t,
			    const struct row *r)
{
	const struct sort_spec *sp = &t->spec;
	bool pid = sort_spec__has(sp, SORT_PID) || sort_spec__has(sp, SORT_TID);
	bool comm = pid || sort_spec__has(sp, SORT_COMM);
	struct strbuf sym;

	strbuf__addf(sb, "{\"overhead\":%.4f,\"samples\":%" PRIu64
			 ",\"period\":%" PRIu64 ",",
		     rowset__percent(&t->rows, r), r->samples, r->period);
	json_key(sb, "comm");
	json_sanitized(sb, comm ? (r->comm ? r->comm : "[unknown]") : NULL);
	strbuf__addc(sb, ',');
	json_key(sb, "pid");
	if (pid)
		strbuf__addf(sb, "%d,", r->pid);
	else
		strbuf__adds(sb, "null,");
	json_key(sb, "tid");
	if (sort_spec__has(sp, SORT_TID))
		strbuf__addf(sb, "%d,", r->tid);
	else
		strbuf__adds(sb, "null,");
	json_key(sb, "cpu");
	if (sort_spec__has(sp, SORT_CPU))
		strbuf__addf(sb, "%d,", r->cpu);
	else
		strbuf__adds(sb, "null,");
	json_key(sb, "dso");
	json_sanitized(sb, r->dso_name);
	strbuf__addc(sb, ',');
	json_key(sb, "symbol");
	strbuf__init(&sym);
	fmt__symbol(&sym, r);
	json_string(sb, sym.buf ? sym.buf : "");
	strbuf__fini(&sym);
	strbuf__addf(sb, ",\"resolved\":%s,\"kernel\":%s}",
		     r->sym ? "true" : "false", r->kernel ? "true" : "false");
}

static void batch__json(struct strbuf *sb, struct table *t,
			const struct header_info *hi)
{
	const struct snapshot *snap = table__snap(t, t->ev);
	const struct ev_counts *c = &snap->counts;
	bool first = true;

	strbuf__addf(sb, "{\"time\":%.3f,", hi->elapsed);
	json_key(sb, "event");
	json_sanitized(sb, hi->event);
	strbuf__addc(sb, ',');
	json_key(sb, "target");
	json_sanitized(sb, hi->target);
	strbuf__addf(sb, ",\"freq\":%" PRIu64 ",\"sample_period\":%" PRIu64,
		     hi->freq, hi->period);
	strbuf__addf(sb, ",\"samples\":%" PRIu64 ",\"period\":%" PRIu64
			 ",\"total_samples\":%" PRIu64,
		     snap->total_samples, snap->total_period, c->samples);
	strbuf__addf(sb, ",\"lost\":%" PRIu64 ",\"lost_records\":%" PRIu64
			 ",\"lost_samples\":%" PRIu64 ",\"throttled\":%" PRIu64
			 ",\"dropped\":%" PRIu64 ",\"filtered\":%" PRIu64,
		     snapshot__lost(snap), c->lost, c->lost_samples,
		     c->throttle, snapshot__dropped(snap), c->filtered);
	strbuf__addf(sb, ",\"kernel_share\":%.4f,\"finished\":%s",
		     snapshot__kernel_share(snap),
		     hi->finished ? "true" : "false");
	strbuf__adds(sb, ",\"per_cpu\":[");
	for (size_t i = 0; i < snap->nr_cpus; i++) {
		const struct ev_counts *pc = &snap->cpu_counts[i];

		if (!pc->samples && !pc->lost && !pc->lost_samples &&
		    !pc->dropped)
			continue;
		strbuf__addf(sb, "%s{\"cpu\":%zu,\"samples\":%" PRIu64
				 ",\"lost\":%" PRIu64 ",\"lost_samples\":%" PRIu64
				 ",\"dropped\":%" PRIu64 "}",
			     first ? "" : ",", i, pc->samples, pc->lost,
			     pc->lost_samples, pc->dropped);
		first = false;
	}
	strbuf__adds(sb, "],\"sort\":[");
	for (size_t i = 0; i < t->spec.nr_group; i++)
		strbuf__addf(sb, "%s\"%s\"", i ? "," : "",
			     sort_key__name(t->spec.group[i]));
	strbuf__addf(sb, "],\"order\":\"%s\",\"rows\":[",
		     sort_key__name(t->spec.order));
	for (size_t i = 0; i < t->rows.nr; i++) {
		if (i)
			strbuf__addc(sb, ',');
		batch__json_row(sb, t, &t->rows.rows[i]);
	}
	strbuf__addf(sb, "],\"hidden_rows\":%" PRIu64 "}\n",
		     t->rows.hidden_rows);
}

void batch__format(struct strbuf *sb, const struct batch_opts *o,
		   struct table *t, const struct header_info *hi)
{
	if (o->json)
		batch__json(sb, t, hi);
	else
		batch__text(sb, o, t, hi);
}
