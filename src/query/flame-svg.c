/*
 * flame-svg: frame at depth d is row d from the bottom (from the top when
 * inverted), 16 pixels a row; x in pixels is the pad plus x over the
 * root's width times the plot's width.  A label fits at 0.59 of the font
 * size a character (as FlameGraph measures), else it is cut with "..".
 * The package is the class up to its last '.' or '/'; its FNV-1a hash
 * picks a warm colour.  The script comes last so that it finds every
 * frame already parsed, in a standalone file and inside an HTML page
 * alike; it keeps to the elements under the svg with id "flame".
 */
#include "config.h"

#include "query/flame-svg.h"

#include "query/method-name.h"
#include "query/quantity.h"
#include "text/markup.h"
#include "text/width.h"
#include "util/alloc.h"
#include "util/hash.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum {
	ROW = 16,    /* pixels per depth */
	FONT = 12,   /* label font size */
	TOP = 60,    /* title, subtitle and buttons above the frames */
	BOTTOM = 34, /* the details line below them */
};

/* Microseconds as "1234.567 ms", with a sign when asked. */
static void
fmt_ms(char *buf, size_t size, int64_t us, bool sign)
{
	uint64_t a = us < 0 ? (uint64_t)0 - (uint64_t)us : (uint64_t)us;

	snprintf(buf, size, "%s%" PRIu64 ".%03" PRIu64 " ms",
	         us < 0 ? "-"
	         : sign ? "+"
	                : "",
	         a / 1000, a % 1000);
}

/* A value in the trace's unit: a time as fmt_ms does, a pprof size or
 * count as query/quantity.c writes it; with a sign when asked. */
static void
fmt_value(char *buf, size_t size, int64_t v, bool sign, enum trace_unit unit)
{
	uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	if (unit == TRACE_UNIT_US) {
		fmt_ms(buf, size, v, sign);
		return;
	}
	snprintf(buf, size, "%s", v < 0 ? "-" : sign ? "+" : "");
	quantity_format(buf + strlen(buf), size - strlen(buf), a, unit, true);
}

static double
pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* A stable warm colour for the package of m. */
static void
package_colour(const struct tt_method *m, int rgb[3])
{
	const char *k = m->klass;
	const char *dot = strrchr(k, '.'), *slash = strrchr(k, '/');
	const char *end = dot > slash ? dot : slash;
	size_t len = end ? (size_t)(end - k) : strlen(k);
	uint64_t h = hash_bytes(HASH_SEED, k, len);

	/* FlameGraph's "hot" palette: red high, green any, blue low. */
	rgb[0] = 205 + (int)(h % 51);
	rgb[1] = (int)((h >> 16) % 231);
	rgb[2] = (int)((h >> 32) % 56);
}

/* Red for growth, blue for shrinking, paler the smaller the change
 * against the largest one (FlameGraph's differential scale). */
static void
delta_colour(int64_t delta, uint64_t max, int rgb[3])
{
	uint64_t a =
	        delta < 0 ? (uint64_t)0 - (uint64_t)delta : (uint64_t)delta;
	int pale = max ? (int)(210.0 * (double)(max - a) / (double)max + 0.5)
	               : 210;

	if (delta > 0) {
		rgb[0] = 255;
		rgb[1] = rgb[2] = pale;
	} else if (delta < 0) {
		rgb[2] = 255;
		rgb[0] = rgb[1] = pale;
	} else {
		rgb[0] = rgb[1] = rgb[2] = 245;
	}
}

/* The frame's label and full name, new strings. */
static void
frame_names(const struct flame_frame *f, const struct callpath *path,
            const struct calltree *tree, const struct flame_svg *o,
            char **label, char **full)
{
	switch (f->kind) {
	case FLAME_ROOT:
		*label = xstrdup(o->root_name ? o->root_name : "all");
		*full = xstrdup(*label);
		break;
	case FLAME_THREAD:
		*label = xstrdup(
		        tree->threads[path->nodes[f->node].thread].name);
		*full = xasprintf("thread %s", *label);
		break;
	case FLAME_OUTSIDE:
		*label = xstrdup("(outside any method)");
		*full = xstrdup(*label);
		break;
	default: {
		const struct tt_method *m =
		        &tree->methods[path->nodes[f->node].method];

		*label = method_short_name(m);
		*full = method_full_name(m);
	}
	}
}

/* The first glyphs of s that fit in cols columns, "..", or "" when not
 * even three fit; a new string. */
static char *
fit_label(const char *s, double cols)
{
	size_t len = strlen(s), at = 0, used = 0;
	double width = 0;
	char glyph[TEXT_GLYPH_MAX];
	char *out;
	int w;

	if (cols < 3)
		return xstrdup("");
	if ((double)text_width(s) <= cols)
		return text_escape(s);
	out = xmalloc(len * 4 + 3);
	while (at < len) {
		size_t n = text_next_glyph(s + at, len - at, false, glyph, &w);

		if (width + w > cols - 2)
			break;
		memcpy(out + used, glyph, strlen(glyph));
		used += strlen(glyph);
		width += w;
		at += n;
	}
	memcpy(out + used, "..", 3);
	return out;
}

/* A frame's tooltip: a trace's frame has incl, excl and calls; a pprof
 * profile's has total and self in its unit, and no calls (they are only
 * runs of samples laid end to end, read/stacks.h). */
static void
write_title(FILE *out, const struct flame_frame *f, const char *full,
            uint64_t total, const struct flame_base *base, size_t i,
            const struct calltree *tree)
{
	enum trace_unit unit = tree->header.unit;
	bool profile = tree->header.format == TRACE_FORMAT_PPROF;
	const char *incl = profile ? "total" : "incl";
	const char *excl = profile ? "self" : "excl";
	char a[40], b[40], c[40];

	fputs("<title>", out);
	markup_escape(out, full);
	fmt_value(a, sizeof(a), (int64_t)f->incl, false, unit);
	fmt_value(b, sizeof(b), (int64_t)f->excl, false, unit);
	fprintf(out, "\n%s %s (%.2f%%), %s %s", incl, a, pct(f->incl, total),
	        excl, b);
	if (!profile)
		fprintf(out, ", calls %" PRIu64, f->calls);
	if (base && base->found[i]) {
		fmt_value(a, sizeof(a), (int64_t)base->incl[i], false, unit);
		fmt_value(b, sizeof(b),
		          (int64_t)f->incl - (int64_t)base->incl[i], true,
		          unit);
		fmt_value(c, sizeof(c),
		          (int64_t)f->excl - (int64_t)base->excl[i], true,
		          unit);
		fprintf(out, "\nbase %s %s: %s %s, %s %s", incl, a, incl, b,
		        excl, c);
	} else if (base) {
		fputs("\nnot in base", out);
	}
	fputs("</title>", out);
}

static const char script[] =
        "<script type=\"text/ecmascript\"><![CDATA[\n"
        "(function () {\n"
        "var svg = document.getElementById('flame');\n"
        "var pad = +svg.getAttribute('data-pad');\n"
        "var plot = +svg.getAttribute('data-plot');\n"
        "var total = +svg.getAttribute('data-total');\n"
        "var q = function (id) { return document.getElementById(id); };\n"
        "var details = q('fl-details'), unzoom = q('fl-unzoom');\n"
        "var find = q('fl-search'), matched = q('fl-matched');\n"
        "var frames = [], all = svg.getElementsByTagName('g'), i;\n"
        "for (i = 0; i < all.length; i++) {\n"
        "  var g = all[i];\n"
        "  if (g.getAttribute('class') !== 'f') continue;\n"
        "  var r = g.getElementsByTagName('rect')[0];\n"
        "  var t = g.getElementsByTagName('text')[0];\n"
        "  var tip = g.getElementsByTagName('title')[0].textContent;\n"
        "  frames.push({g: g, r: r, t: t, tip: tip,\n"
        "    full: tip.split('\\n')[0], n: g.getAttribute('data-n'),\n"
        "    x: +g.getAttribute('data-x'), i: +g.getAttribute('data-i'),\n"
        "    d: +g.getAttribute('data-d'), fill: r.getAttribute('fill')});\n"
        "}\n"
        "var unit = svg.getAttribute('data-unit');\n"
        "function ms(v) {\n"
        "  var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'], k = 0;\n"
        "  if (unit === 'count') return String(v);\n"
        "  if (unit === 'B') {\n"
        "    while (v >= 1024 && k < 6) { v /= 1024; k++; }\n"
        "    return k ? v.toFixed(1) + ' ' + u[k] : v + ' B';\n"
        "  }\n"
        "  if (unit === 'ns') v = Math.floor(v / 1000);\n"
        "  return (v / 1000).toFixed(3) + ' ms';\n"
        "}\n"
        "function label(f, w) {\n"
        "  var c = Math.floor(w / ("
        "12"
        " * 0.59));\n"
        "  if (c < 3) return '';\n"
        "  return f.n.length <= c ? f.n : f.n.slice(0, c - 2) + '..';\n"
        "}\n"
        "function place(f, x, w) {\n"
        "  f.r.setAttribute('x', x.toFixed(2));\n"
        "  f.r.setAttribute('width', w.toFixed(2));\n"
        "  f.t.setAttribute('x', (x + 3).toFixed(2));\n"
        "  f.t.textContent = label(f, w);\n"
        "}\n"
        "function zoom(z) {\n"
        "  var scale = z.i ? plot / z.i : 0;\n"
        "  frames.forEach(function (f) {\n"
        "    var end = f.x + f.i, zend = z.x + z.i;\n"
        "    if (f.d >= z.d && f.x >= z.x && end <= zend &&\n"
        "        (f.i || f.x < zend || z.i === 0)) {\n"
        "      f.g.style.display = ''; f.g.style.opacity = '';\n"
        "      place(f, pad + (f.x - z.x) * scale, f.i * scale);\n"
        "    } else if (f.d < z.d && f.x <= z.x && end >= zend) {\n"
        "      f.g.style.display = ''; f.g.style.opacity = '0.5';\n"
        "      place(f, pad, plot);\n"
        "    } else {\n"
        "      f.g.style.display = 'none';\n"
        "    }\n"
        "  });\n"
        "  unzoom.style.display = z.d ? '' : 'none';\n"
        "}\n"
        "function search() {\n"
        "  var re = null, hits = [], end = -1, sum = 0;\n"
        "  if (find.getAttribute('data-on') === '1') {\n"
        "    find.setAttribute('data-on', '0');\n"
        "  } else {\n"
        "    var text = window.prompt('Search for (a regular expression)', "
        "'');\n"
        "    if (!text) return;\n"
        "    try { re = new RegExp(text); }\n"
        "    catch (e) { matched.textContent = 'Bad expression'; return; }\n"
        "    find.setAttribute('data-on', '1');\n"
        "  }\n"
        "  frames.forEach(function (f) {\n"
        "    var hit = re && re.test(f.full);\n"
        "    f.r.setAttribute('fill', hit ? 'rgb(230,0,230)' : f.fill);\n"
        "    if (hit) hits.push(f);\n"
        "  });\n"
        "  hits.sort(function (a, b) { return a.x - b.x || b.i - a.i; });\n"
        "  hits.forEach(function (f) {\n"
        "    if (f.x >= end) { sum += f.i; end = f.x + f.i; }\n"
        "  });\n"
        "  find.textContent = re ? 'Clear' : 'Search';\n"
        "  matched.textContent = re ? 'Matched: ' +\n"
        "    (total ? 100 * sum / total : 0).toFixed(2) + '% (' + ms(sum) +\n"
        "    ', ' + hits.length + ' frames)' : '';\n"
        "}\n"
        "frames.forEach(function (f) {\n"
        "  f.g.addEventListener('click', function () { zoom(f); });\n"
        "  f.g.addEventListener('mouseover', function () {\n"
        "    details.textContent = f.tip.replace(/\\n/g, '; ');\n"
        "  });\n"
        "  f.g.addEventListener('mouseout', function () {\n"
        "    details.textContent = ' ';\n"
        "  });\n"
        "});\n"
        "unzoom.addEventListener('click', function () { zoom(frames[0]); });\n"
        "find.addEventListener('click', search);\n"
        "window.addEventListener('keydown', function (e) {\n"
        "  if ((e.ctrlKey && e.keyCode === 70) ||\n"
        "      (e.key === '/' && e.target === document.body)) {\n"
        "    e.preventDefault(); search();\n"
        "  }\n"
        "});\n"
        "})();\n"
        "]]></script>\n";

void
flame_svg_write(FILE *out, const struct flame *flame,
                const struct callpath *path, const struct calltree *tree,
                const struct flame_svg *o)
{
	int plot = flame_svg_plot_width(o->width);
	int height = TOP + ((int)flame->depth + 1) * ROW + BOTTOM;
	uint64_t maxd = 0;
	size_t i;

	if (o->base)
		for (i = 0; i < flame->count; i++) {
			int64_t d = (int64_t)flame->frames[i].excl -
			            (int64_t)o->base->excl[i];
			uint64_t a =
			        d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;

			if (a > maxd)
				maxd = a;
		}
	if (!o->embedded)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" "
		      "standalone=\"no\"?>\n",
		      out);
	fprintf(out,
	        "<svg version=\"1.1\" id=\"flame\" width=\"%d\" "
	        "height=\"%d\" viewBox=\"0 0 %d %d\" "
	        "xmlns=\"http://www.w3.org/2000/svg\" data-pad=\"%d\" "
	        "data-plot=\"%d\" data-total=\"%" PRIu64
	        "\" data-unit=\"%s\">\n",
	        o->width, height, o->width, height, FLAME_SVG_PAD, plot,
	        flame->total, quantity_unit_name(tree->header.unit));
	fputs("<style type=\"text/css\">\n"
	      "#flame text { font-family: Verdana, sans-serif; "
	      "font-size: 12px; fill: rgb(0,0,0); }\n"
	      "#flame .f:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; "
	      "}\n"
	      "#flame .f, #flame .btn { cursor: pointer; }\n"
	      "#flame #fl-title { font-size: 17px; }\n"
	      "</style>\n",
	      out);
	fprintf(out,
	        "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
	        "fill=\"rgb(248,248,240)\"/>\n",
	        o->width, height);
	fprintf(out,
	        "<text id=\"fl-title\" x=\"%d\" y=\"24\" "
	        "text-anchor=\"middle\">",
	        o->width / 2);
	markup_escape(out, o->title ? o->title : "Flame graph");
	fputs("</text>\n", out);
	fprintf(out,
	        "<text id=\"fl-subtitle\" x=\"%d\" y=\"42\" "
	        "text-anchor=\"middle\">",
	        o->width / 2);
	markup_escape(out, o->subtitle ? o->subtitle : "");
	fputs("</text>\n", out);
	fprintf(out,
	        "<text id=\"fl-unzoom\" class=\"btn\" x=\"%d\" y=\"24\" "
	        "style=\"display:none\">Reset Zoom</text>\n"
	        "<text id=\"fl-search\" class=\"btn\" x=\"%d\" y=\"24\" "
	        "text-anchor=\"end\">Search</text>\n"
	        "<text id=\"fl-matched\" x=\"%d\" y=\"%d\" "
	        "text-anchor=\"end\"> </text>\n"
	        "<text id=\"fl-details\" x=\"%d\" y=\"%d\"> </text>\n",
	        FLAME_SVG_PAD, o->width - FLAME_SVG_PAD,
	        o->width - FLAME_SVG_PAD, height - 10, FLAME_SVG_PAD,
	        height - 10);
	fputs("<g id=\"fl-frames\">\n", out);
	for (i = 0; i < flame->count; i++) {
		const struct flame_frame *f = &flame->frames[i];
		double x = FLAME_SVG_PAD, w = plot;
		int y = o->inverted
		                ? TOP + (int)f->depth * ROW
		                : TOP + (int)(flame->depth - f->depth) * ROW;
		char *label, *full, *fit;
		int rgb[3];

		if (flame->total) {
			x += (double)f->x * plot / (double)flame->total;
			w = (double)f->incl * plot / (double)flame->total;
		}
		frame_names(f, path, tree, o, &label, &full);
		if (o->base)
			delta_colour(o->base->found[i]
			                     ? (int64_t)f->excl -
			                               (int64_t)o->base->excl[i]
			                     : (int64_t)f->excl,
			             maxd, rgb);
		else if (f->kind == FLAME_METHOD)
			package_colour(
			        &tree->methods[path->nodes[f->node].method],
			        rgb);
		else if (f->kind == FLAME_OUTSIDE)
			rgb[0] = rgb[1] = rgb[2] = 230;
		else
			rgb[0] = rgb[1] = rgb[2] = 200;
		fputs("<g class=\"f\" data-n=\"", out);
		markup_escape(out, label);
		fprintf(out,
		        "\" data-x=\"%" PRIu64 "\" data-i=\"%" PRIu64
		        "\" data-e=\"%" PRIu64 "\" data-c=\"%" PRIu64
		        "\" data-d=\"%" PRIu32 "\"",
		        f->x, f->incl, f->excl, f->calls, f->depth);
		if (o->base && o->base->found[i])
			fprintf(out,
			        " data-b=\"%" PRIu64 "\" data-be=\"%" PRIu64
			        "\"",
			        o->base->incl[i], o->base->excl[i]);
		fputs(">", out);
		write_title(out, f, full, flame->total, o->base, i, tree);
		fprintf(out,
		        "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
		        "height=\"%d\" rx=\"2\" fill=\"rgb(%d,%d,%d)\"/>",
		        x, y, w, ROW - 1, rgb[0], rgb[1], rgb[2]);
		fit = fit_label(label, w / (FONT * 0.59));
		fprintf(out, "<text x=\"%.2f\" y=\"%d\">", x + 3, y + ROW - 4);
		markup_escape(out, fit);
		fputs("</text></g>\n", out);
		free(fit);
		free(label);
		free(full);
	}
	fputs("</g>\n", out);
	fputs(script, out);
	fputs("</svg>\n", out);
}
