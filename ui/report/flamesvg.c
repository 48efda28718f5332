/* flamesvg: a flame graph as an interactive SVG (see flamesvg.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/json.h"
#include "ui/report/flamesvg.h"
#include "ui/report/sanitize.h"

#define PAD 10		/* left and right margins */
#define FRAME_H 16	/* one stack depth */
#define TOP 64		/* title, subtitle, buttons */
#define BOTTOM 28	/* the details line */
#define CHAR_W 7.0	/* of the 12 px monospace font, about */

/* The picture's own script: zoom on click, reset, search (the share of
 * the samples under matching frames, each counted once).  #search=RE
 * and #zoom=NAME in the address do the same on load. */
static const char script[] =
	"\"use strict\";\n"
	"var GW, PAD, TOTAL, frames = [], details, matched, term = null;\n"
	"function init() {\n"
	"  var svg = document.documentElement, gs, i, h, m;\n"
	"  PAD = +svg.getAttribute('data-pad');\n"
	"  GW = +svg.getAttribute('data-gw');\n"
	"  TOTAL = +svg.getAttribute('data-total');\n"
	"  details = document.getElementById('details');\n"
	"  matched = document.getElementById('matched');\n"
	"  gs = document.getElementsByClassName('f');\n"
	"  for (i = 0; i < gs.length; i++) {\n"
	"    var g = gs[i], f = { g: g, x: +g.getAttribute('data-x'),\n"
	"      w: +g.getAttribute('data-w'), d: +g.getAttribute('data-d'),\n"
	"      n: g.getAttribute('data-n'), c: g.getAttribute('data-c'),\n"
	"      r: g.getElementsByTagName('rect')[0],\n"
	"      t: g.getElementsByTagName('text')[0],\n"
	"      tip: g.getElementsByTagName('title')[0].textContent };\n"
	"    frames.push(f);\n"
	"    g.addEventListener('click', zoomTo.bind(null, f));\n"
	"    g.addEventListener('mouseover', show.bind(null, f));\n"
	"    g.addEventListener('mouseout', show.bind(null, null));\n"
	"  }\n"
	"  document.getElementById('reset').addEventListener('click',\n"
	"    function () { zoomTo(null); });\n"
	"  document.getElementById('search').addEventListener('click', ask);\n"
	"  window.addEventListener('keydown', function (e) {\n"
	"    if ((e.ctrlKey || e.metaKey) && e.key === 'f') {\n"
	"      e.preventDefault(); ask();\n"
	"    } else if (e.key === 'Escape') zoomTo(null);\n"
	"  });\n"
	"  h = decodeURIComponent(location.hash.slice(1));\n"
	"  if ((m = h.match(/^zoom=(.*)$/)))\n"
	"    for (i = 0; i < frames.length; i++)\n"
	"      if (frames[i].n === m[1]) { zoomTo(frames[i]); break; }\n"
	"  if ((m = h.match(/^search=(.*)$/))) highlight(m[1]);\n"
	"}\n"
	"function show(f) { details.textContent = f ? f.tip : ' '; }\n"
	"function label(f, px) {\n"
	"  var n = Math.floor((px - 6) / 7);\n"
	"  if (n < 3) return '';\n"
	"  return f.n.length <= n ? f.n : f.n.substring(0, n - 2) + '..';\n"
	"}\n"
	"function zoomTo(z) {\n"
	"  var x0 = z ? z.x : 0, w0 = z ? z.w : TOTAL, d0 = z ? z.d : 0;\n"
	"  document.getElementById('reset').style.opacity = z ? 1 : 0.3;\n"
	"  frames.forEach(function (f) {\n"
	"    var inside = f.d >= d0 && f.x >= x0 && f.x + f.w <= x0 + w0;\n"
	"    var below = f.d < d0 && f.x <= x0 && f.x + f.w >= x0 + w0;\n"
	"    var px, x;\n"
	"    if (!inside && !below) { f.g.style.display = 'none'; return; }\n"
	"    px = below ? GW : f.w / w0 * GW;\n"
	"    x = below ? 0 : (f.x - x0) / w0 * GW;\n"
	"    f.g.style.display = '';\n"
	"    f.g.style.opacity = below ? 0.6 : 1;\n"
	"    f.r.setAttribute('x', (PAD + x).toFixed(2));\n"
	"    f.r.setAttribute('width', Math.max(px - 0.5, 0).toFixed(2));\n"
	"    f.t.setAttribute('x', (PAD + x + 3).toFixed(2));\n"
	"    f.t.textContent = label(f, px);\n"
	"  });\n"
	"}\n"
	"function ask() {\n"
	"  var t = prompt('Search frames (a regular expression)', term || '');\n"
	"  if (t !== null) highlight(t);\n"
	"}\n"
	"function highlight(t) {\n"
	"  var re, hits = [], outer = [], sum = 0;\n"
	"  try { re = new RegExp(t); } catch (e) {\n"
	"    matched.textContent = 'not a regular expression'; return;\n"
	"  }\n"
	"  term = t === '' ? null : t;\n"
	"  frames.forEach(function (f) {\n"
	"    var m = term !== null && f.d > 0 && re.test(f.n);\n"
	"    f.r.setAttribute('fill', m ? 'rgb(230,0,230)' : f.c);\n"
	"    if (m) hits.push(f);\n"
	"  });\n"
	"  /* each sample once: a match above a match adds nothing */\n"
	"  hits.sort(function (a, b) { return a.d - b.d; });\n"
	"  hits.forEach(function (f) {\n"
	"    for (var i = 0; i < outer.length; i++)\n"
	"      if (f.x >= outer[i].x && f.x + f.w <= outer[i].x + outer[i].w)\n"
	"        return;\n"
	"    outer.push(f); sum += f.w;\n"
	"  });\n"
	"  matched.textContent = term === null ? ' ' : 'Matched: ' +\n"
	"    (100 * sum / TOTAL).toFixed(2) + '% (' + sum + ' samples)';\n"
	"}\n"
	"window.addEventListener('load', init);\n";

static u32 name_hash(const char *s)
{
	u32 h = 2166136261u;

	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* A colour per kind, its shade by the name (the same function keeps
 * its colour from one picture to the next). */
static void frame_colour(struct strbuf *sb, const struct flame_node *n,
			 const char *name)
{
	u32 h = name_hash(name);
	unsigned int a = h % 55, b = (h >> 8) % 80, c = (h >> 16) % 40;

	switch (n->kind) {
	case FL_KERNEL:
		strbuf__addf(sb, "rgb(%u,%u,%u)", 200 + a, 80 + c, 80 + c);
		break;
	case FL_JIT:
		strbuf__addf(sb, "rgb(%u,%u,%u)", 60 + c, 180 + a, 80 + c);
		break;
	case FL_INLINED:
		strbuf__addf(sb, "rgb(%u,%u,%u)", 90 + c, 160 + c, 200 + a);
		break;
	case FL_ROOT:
		strbuf__adds(sb, "rgb(200,200,200)");
		break;
	case FL_PROCESS:	/* a stack's command (--root) */
		strbuf__addf(sb, "rgb(%u,%u,%u)", 170 + c, 170 + c, 190 + a);
		break;
	default:	/* user code: flamegraph.pl's warm colours */
		strbuf__addf(sb, "rgb(%u,%u,%u)", 200 + a, 120 + b, 40 + c);
		break;
	}
}

struct svg_item {
	u32 node;
	u64 off;
};

/* One frame: a group with its identity for the script (name, offset and
 * width in samples, depth, colour), a title, a box and its name cut to
 * the box.  name and col are scratch buffers. */
static void svg_frame(struct strbuf *sb, const struct flame_node *n, u64 off,
		      u64 total, double x, double w, double y,
		      struct strbuf *name, struct strbuf *col)
{
	size_t chars = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0;

	strbuf__reset(name);
	strbuf__reset(col);
	flame__label(name, n);
	frame_colour(col, n, name->buf ? name->buf : "");
	strbuf__adds(sb, "<g class=\"f\" data-n=\"");
	xml_text(sb, name->buf ? name->buf : "");
	strbuf__addf(sb, "\" data-x=\"%" PRIu64 "\" data-w=\"%" PRIu64
		     "\" data-d=\"%u\" data-c=\"%s\"><title>", off,
		     n->samples, n->depth, col->buf ? col->buf : "");
	xml_text(sb, name->buf ? name->buf : "");
	if (n->kind == FL_INLINED)
		strbuf__adds(sb, " (inlined)");
	if (n->dso_name && n->kind != FL_ROOT) {
		strbuf__adds(sb, " in ");
		xml_sanitized(sb, n->dso_name);
	}
	strbuf__addf(sb, " (%" PRIu64 " sample%s, %.2f%%; self %" PRIu64
		     ")</title>", n->samples, PLURAL(n->samples),
		     100.0 * (double)n->samples / (double)total,
		     n->self_samples);
	strbuf__addf(sb, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
		     "height=\"%d\" fill=\"%s\" rx=\"2\"/>",
		     PAD + x, y, w > 0.5 ? w - 0.5 : w, FRAME_H - 1,
		     col->buf ? col->buf : "");
	strbuf__addf(sb, "<text x=\"%.2f\" y=\"%.1f\">", PAD + x + 3,
		     y + FRAME_H - 4.5);
	if (chars >= 3 && name->buf) {
		struct strbuf cut;

		strbuf__init(&cut);
		fit_width(&cut, name->buf, chars, false, false);
		xml_text(sb, cut.buf ? cut.buf : "");
		strbuf__fini(&cut);
	}
	strbuf__adds(sb, "</text></g>\n");
}

int flamesvg__svg(struct strbuf *sb, const struct flame *f,
	       const struct flame_svg_opts *o)
{
	size_t width = o->width ? o->width : 1200;
	double minw = o->min_width > 0 ? o->min_width : 0.1;
	double gw = (double)(width - 2 * PAD);
	u64 total = f->nr ? f->nodes[0].samples : 0;
	struct svg_item *stack = NULL;
	size_t nr = 0, cap = 0, left_out = 0;
	struct strbuf name, col;
	size_t height;
	int err = 0;

	height = TOP + BOTTOM + ((size_t)f->max_depth + 1) * FRAME_H;
	strbuf__init(&name);
	strbuf__init(&col);
	strbuf__adds(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\" "
			 "standalone=\"no\"?>\n");
	strbuf__addf(sb, "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" "
		     "width=\"%zu\" height=\"%zu\" viewBox=\"0 0 %zu %zu\" "
		     "data-pad=\"%d\" data-gw=\"%.2f\" data-total=\"%" PRIu64 "\">\n",
		     width, height, width, height, PAD, gw, total);
	strbuf__adds(sb, "<style>\n"
			 "text { font-family: monospace; font-size: 12px; "
			 "fill: rgb(0,0,0); }\n"
			 ".f text { pointer-events: none; }\n"
			 ".f:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; }\n"
			 "#title { font-size: 17px; }\n"
			 "#reset, #search { cursor: pointer; }\n"
			 "</style>\n");
	strbuf__adds(sb, "<script type=\"text/ecmascript\"><![CDATA[\n");
	strbuf__adds(sb, script);
	strbuf__adds(sb, "]]></script>\n");
	strbuf__addf(sb, "<rect x=\"0\" y=\"0\" width=\"%zu\" height=\"%zu\" "
		     "fill=\"rgb(248,248,240)\"/>\n", width, height);
	strbuf__addf(sb, "<text id=\"title\" x=\"%zu\" y=\"24\" "
		     "text-anchor=\"middle\">", width / 2);
	xml_sanitized(sb, o->title ? o->title : "Flame graph");
	strbuf__adds(sb, "</text>\n");
	strbuf__addf(sb, "<text id=\"subtitle\" x=\"%zu\" y=\"42\" "
		     "text-anchor=\"middle\">", width / 2);
	if (o->subtitle)
		xml_sanitized(sb, o->subtitle);
	strbuf__addf(sb, "%s%" PRIu64 " sample%s; click a frame to zoom, "
		     "Ctrl-F to search</text>\n", o->subtitle ? ", " : "",
		     total, PLURAL(total));
	strbuf__addf(sb, "<text id=\"reset\" x=\"%d\" y=\"24\" "
		     "style=\"opacity:0.3\">Reset zoom</text>\n", PAD);
	strbuf__addf(sb, "<text id=\"search\" x=\"%zu\" y=\"24\" "
		     "text-anchor=\"end\">Search</text>\n", width - PAD);
	strbuf__addf(sb, "<text id=\"matched\" x=\"%zu\" y=\"%zu\" "
		     "text-anchor=\"end\"> </text>\n", width - PAD,
		     height - 10);
	strbuf__addf(sb, "<text id=\"details\" x=\"%d\" y=\"%zu\"> </text>\n",
		     PAD, height - 10);
	strbuf__adds(sb, "<g id=\"frames\">\n");
	if (!total)
		goto end;
	if (array__grow((void **)&stack, &cap, 1, sizeof(*stack))) {
		err = -ENOMEM;
		goto end;
	}
	stack[nr++] = (struct svg_item){ .node = 0, .off = 0 };
	while (nr) {
		struct svg_item it = stack[--nr];
		const struct flame_node *n = &f->nodes[it.node];
		double x = (double)it.off / (double)total * gw;
		double w = (double)n->samples / (double)total * gw;
		double y = (double)(height - BOTTOM) -
			   (double)(n->depth + 1) * FRAME_H;
		u64 off = it.off;

		svg_frame(sb, n, it.off, total, x, w, y, &name, &col);
		/* what it calls, left to right (pushed right to left) */
		{
			size_t first = nr;

			for (u32 c = n->first_child; c;
			     c = f->nodes[c].next_sibling) {
				double cw = (double)f->nodes[c].samples /
					    (double)total * gw;

				if (cw < minw) {
					left_out++;
				} else {
					if (array__grow((void **)&stack, &cap,
							nr + 1, sizeof(*stack))) {
						err = -ENOMEM;
						goto end;
					}
					stack[nr++] = (struct svg_item){
						.node = c, .off = off };
				}
				off += f->nodes[c].samples;
			}
			for (size_t i = first, j = nr; i + 1 < j; i++, j--) {
				struct svg_item t = stack[i];

				stack[i] = stack[j - 1];
				stack[j - 1] = t;
			}
		}
	}
end:
	strbuf__adds(sb, "</g>\n");
	if (left_out)
		strbuf__addf(sb, "<!-- %zu frames narrower than %.2f px left "
			     "out, with what they call -->\n", left_out, minw);
	strbuf__adds(sb, "</svg>\n");
	free(stack);
	strbuf__fini(&name);
	strbuf__fini(&col);
	if (!err && sb->oom)
		err = -ENOMEM;
	return err;
}

static const char *kind_name(enum flame_kind k)
{
	switch (k) {
	case FL_KERNEL:
		return "kernel";
	case FL_JIT:
		return "jit";
	case FL_INLINED:
		return "inlined";
	case FL_ROOT:
		return "root";
	case FL_PROCESS:
		return "process";
	default:
		return "user";
	}
}

int flamesvg__json(struct strbuf *sb, const struct flame *f)
{
	u32 *stack = NULL;
	size_t nr = 0, cap = 0;
	struct strbuf name;
	struct json j;
	int err = 0;

	json__init(&j, sb);
	if (!f->nr) {
		json__object(&j, NULL);
		json__object_end(&j);
		strbuf__addc(sb, '\n');
		return sb->oom ? -ENOMEM : 0;
	}
	strbuf__init(&name);
	/* depth first; a node is pushed once to open it and its children
	 * are closed when the walk comes back to its depth */
	if (array__grow((void **)&stack, &cap, 1, sizeof(*stack))) {
		err = -ENOMEM;
		goto out;
	}
	stack[nr++] = 0;
	while (nr) {
		u32 i = stack[nr - 1];
		const struct flame_node *n = &f->nodes[i];

		strbuf__reset(&name);
		flame__label(&name, n);
		json__object(&j, NULL);
		json__str(&j, "name", name.buf ? name.buf : "");
		json__u64(&j, "value", n->samples);
		json__u64(&j, "self", n->self_samples);
		json__u64(&j, "period", n->period);
		json__str(&j, "kind", kind_name(n->kind));
		if (n->dso_name && n->kind != FL_ROOT)
			json_sanitized(&j, "dso", n->dso_name);
		json__array(&j, "children");
		if (n->first_child) {
			if (array__grow((void **)&stack, &cap, nr + 1,
					sizeof(*stack))) {
				err = -ENOMEM;
				goto out;
			}
			stack[nr++] = n->first_child;
			continue;
		}
		/* a leaf: close it and every node it ends */
		for (;;) {
			u32 done = stack[--nr];

			json__array_end(&j);
			json__object_end(&j);
			if (f->nodes[done].next_sibling) {
				stack[nr++] = f->nodes[done].next_sibling;
				break;
			}
			if (!nr)
				break;
		}
	}
	strbuf__addc(sb, '\n');
out:
	free(stack);
	strbuf__fini(&name);
	if (!err && sb->oom)
		err = -ENOMEM;
	return err;
}
