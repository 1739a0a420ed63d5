/*
 * export-html: dmtracedump -h's report as one page that needs nothing
 * but a browser: no file beside it, no network.
 *
 *   - the profile table, written as HTML rows (readable without
 *     scripts), largest inclusive time first; clicking a column header
 *     sorts by it, clicking a method shows its callers and callees;
 *   - the flame graph of the same scope, the SVG of query/flame-svg.h
 *     inline;
 *   - the numbers as JSON in <script type="application/json"
 *     id="tt-data">: {"file", "clock", "total", "methods": [{"id",
 *     "name", "calls", "rcalls", "incl", "excl"}], "links": [{"parent",
 *     "child", "child_recursive", "parent_recursive", "calls", "incl"}]}
 *     with the profile's rows and links (parent -1: the top level),
 *     microseconds on the page's clock; "unit" says "us", or for a pprof
 *     profile its sample type's "ns", "B" or "count", and such a page
 *     shows Total and Self in that unit, without calls (a profile's
 *     calls are only runs of samples laid end to end).  The drill-down sums
 * links as profile_edges_of does.
 *
 * Text from the trace goes through markup_escape, and into the JSON
 * through markup_json_string, so no name can end an element early.
 */
#include "config.h"

#include "cli/export.h"

#include "query/callpath.h"
#include "query/flame-svg.h"
#include "query/flame.h"
#include "query/method-name.h"
#include "query/profile.h"
#include "query/quantity.h"
#include "text/markup.h"
#include "util/alloc.h"
#include "util/sort.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char style[] =
        "<style>\n"
        "body { font-family: sans-serif; margin: 1em 2em; }\n"
        /* Tables fit the window: a long name wraps anywhere (a
         * signature has no space to wrap at), numbers never. */
        "table { border-collapse: collapse; font-size: 13px; "
        "max-width: 100%; }\n"
        "td.name { overflow-wrap: anywhere; }\n"
        "td:not(.name) { white-space: nowrap; }\n"
        "th, td { padding: 2px 8px; border-bottom: 1px solid #ddd; }\n"
        "th { cursor: pointer; background: #eee; text-align: right; }\n"
        "td { text-align: right; font-variant-numeric: tabular-nums; }\n"
        "th.name, td.name { text-align: left; }\n"
        "tr.m:hover { background: #f4f0e0; cursor: pointer; }\n"
        "tr.sel { background: #ffe8a0; }\n"
        "#drill { margin: 1em 0; }\n"
        "#drill td.name { font-family: monospace; }\n"
        "</style>\n";

static const char script[] =
        "<script>\n"
        "(function () {\n"
        "var data = JSON.parse(document.getElementById('tt-data')"
        ".textContent);\n"
        "var byId = {};\n"
        "data.methods.forEach(function (m) { byId[m.id] = m; });\n"
        "var profile = data.unit !== 'us';\n"
        "function ms(v) {\n"
        "  var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'], k = 0;\n"
        "  if (data.unit === 'count') return String(v);\n"
        "  if (data.unit === 'B') {\n"
        "    while (v >= 1024 && k < 6) { v /= 1024; k++; }\n"
        "    return k ? v.toFixed(1) + ' ' + u[k] : v + ' B';\n"
        "  }\n"
        "  if (data.unit === 'ns') v = Math.floor(v / 1000);\n"
        "  return (v / 1000).toFixed(3);\n"
        "}\n"
        "function pct(v, of) { return of ? (100 * v / of).toFixed(1) + '%' "
        ": ''; }\n"
        "function cell(tr, text, cls) {\n"
        "  var td = document.createElement('td');\n"
        "  td.textContent = text; if (cls) td.className = cls;\n"
        "  tr.appendChild(td);\n"
        "}\n"
        "var table = document.getElementById('profile');\n"
        "var body = table.tBodies[0], order = {};\n"
        "var heads = table.tHead.rows[0].cells, i;\n"
        "for (i = 0; i < heads.length; i++) (function (col) {\n"
        "  heads[col].addEventListener('click', function () {\n"
        "    var rows = [].slice.call(body.rows);\n"
        "    var down = order.col === col ? !order.down : col > 0;\n"
        "    order = {col: col, down: down};\n"
        "    rows.sort(function (a, b) {\n"
        "      var x = a.cells[col].getAttribute('data-v'),\n"
        "          y = b.cells[col].getAttribute('data-v');\n"
        "      var c = col ? (+x) - (+y) : (x < y ? -1 : x > y ? 1 : 0);\n"
        "      return down ? -c : c;\n"
        "    });\n"
        "    rows.forEach(function (r) { body.appendChild(r); });\n"
        "  });\n"
        "})(i);\n"
        "/* Callers of m (by m's recursion) and callees (by m's), summed\n"
        "   over the links as the viewer's drill-down does. */\n"
        "function edges(m, up) {\n"
        "  var sum = {}, out = [];\n"
        "  data.links.forEach(function (l) {\n"
        "    if ((up ? l.child : l.parent) !== m) return;\n"
        "    var other = up ? l.parent : l.child;\n"
        "    var rec = up ? l.child_recursive : l.parent_recursive;\n"
        "    var key = other + (rec ? 'r' : '');\n"
        "    if (!sum[key]) { sum[key] = {m: other, rec: rec, calls: 0, "
        "incl: 0};\n"
        "      out.push(sum[key]); }\n"
        "    sum[key].calls += l.calls; sum[key].incl += l.incl;\n"
        "  });\n"
        "  out.sort(function (a, b) { return b.incl - a.incl || a.m - b.m; "
        "});\n"
        "  return out;\n"
        "}\n"
        "function name(id) { return id < 0 ? '(top level)' : byId[id].name; "
        "}\n"
        "function show(id) {\n"
        "  var m = byId[id], box = document.getElementById('drill');\n"
        "  var t = document.createElement('table'), tr;\n"
        "  box.textContent = '';\n"
        "  var h = document.createElement('h3');\n"
        "  h.textContent = m.name; box.appendChild(h);\n"
        "  function section(title) {\n"
        "    tr = t.insertRow(); var th = document.createElement('th');\n"
        "    th.colSpan = 4; th.className = 'name'; th.textContent = title;\n"
        "    tr.appendChild(th);\n"
        "  }\n"
        "  function row(e, total) {\n"
        "    tr = t.insertRow(); tr.className = e.m >= 0 ? 'm' : '';\n"
        "    cell(tr, pct(e.incl, m.incl)); cell(tr, ms(e.incl));\n"
        "    cell(tr, profile ? '' : e.calls + '/' + total);\n"
        "    cell(tr, (e.rec ? '(recursive) ' : '') + name(e.m), 'name');\n"
        "    if (e.m >= 0) tr.addEventListener('click', function () "
        "{ show(e.m); });\n"
        "  }\n"
        "  section('Parents');\n"
        "  edges(id, true).forEach(function (e) { row(e, m.calls + "
        "m.rcalls); });\n"
        "  section('Children');\n"
        "  tr = t.insertRow(); cell(tr, pct(m.excl, m.incl)); "
        "cell(tr, ms(m.excl));\n"
        "  cell(tr, ''); cell(tr, 'self', 'name');\n"
        "  edges(id, false).forEach(function (e) {\n"
        "    var c = byId[e.m]; row(e, c.calls + c.rcalls); });\n"
        "  box.appendChild(t);\n"
        "  [].forEach.call(body.rows, function (r) {\n"
        "    r.className = +r.getAttribute('data-m') === id ? 'm sel' : "
        "'m'; });\n"
        "  box.scrollIntoView();\n"
        "}\n"
        "[].forEach.call(body.rows, function (r) {\n"
        "  r.addEventListener('click', function () {\n"
        "    show(+r.getAttribute('data-m')); });\n"
        "});\n"
        "})();\n"
        "</script>\n";

struct html_row {
	uint32_t m;
	uint64_t incl;
};

static int
row_cmp(const void *a, const void *b)
{
	const struct html_row *x = a, *y = b;

	if (x->incl != y->incl)
		return x->incl > y->incl ? -1 : 1;
	return x->m < y->m ? -1 : x->m > y->m;
}

/* A value: microseconds as milliseconds, a profile's as its unit. */
static void
ms_cell(FILE *out, uint64_t v, enum trace_unit unit)
{
	char buf[40];

	if (unit == TRACE_UNIT_US)
		snprintf(buf, sizeof(buf), "%" PRIu64 ".%03" PRIu64, v / 1000,
		         v % 1000);
	else
		quantity_format(buf, sizeof(buf), v, unit, true);
	fprintf(out, "<td data-v=\"%" PRIu64 "\">%s</td>", v, buf);
}

static void
pct_cell(FILE *out, uint64_t v, uint64_t total)
{
	double p = total ? 100.0 * (double)v / (double)total : 0.0;

	fprintf(out, "<td data-v=\"%.4f\">%.1f%%</td>", p, p);
}

static void
write_json(FILE *out, const struct export_view *v, const struct profile *p)
{
	enum clock_index k = v->clock;
	bool first = true;
	size_t i;

	fputs("<script type=\"application/json\" id=\"tt-data\">\n{\"file\": ",
	      out);
	markup_json_string(out, v->tree->path);
	fprintf(out,
	        ",\n\"clock\": \"%s\", \"unit\": \"%s\", \"total\": %" PRIu64
	        ",\n\"methods\": [",
	        k == CLOCK_CPU ? "cpu" : "wall",
	        quantity_unit_name(v->tree->header.unit), p->total[k]);
	for (i = 0; i < p->nrows; i++) {
		const struct profile_row *r = &p->rows[i];
		char *name;

		if (!profile_row_used(p, i))
			continue;
		name = method_full_name(&v->tree->methods[i]);
		fprintf(out, "%s\n{\"id\": %zu, \"name\": ", first ? "" : ",",
		        i);
		markup_json_string(out, name);
		free(name);
		fprintf(out,
		        ", \"calls\": %" PRIu64 ", \"rcalls\": %" PRIu64
		        ", \"incl\": %" PRIu64 ", \"excl\": %" PRIu64 "}",
		        r->calls, r->rcalls, r->incl[k], r->excl[k]);
		first = false;
	}
	fputs("],\n\"links\": [", out);
	for (i = 0; i < p->nlinks; i++) {
		const struct profile_link *l = &p->links[i];

		fprintf(out,
		        "%s\n{\"parent\": %" PRId64 ", \"child\": %" PRIu32
		        ", \"child_recursive\": %s, \"parent_recursive\": %s, "
		        "\"calls\": %" PRIu64 ", \"incl\": %" PRIu64 "}",
		        i ? "," : "",
		        l->parent == CALL_NONE ? (int64_t)-1
		                               : (int64_t)l->parent,
		        l->child, l->child_recursive ? "true" : "false",
		        l->parent_recursive ? "true" : "false", l->calls,
		        l->incl[k]);
	}
	fputs("]}\n</script>\n", out);
}

static void
write_table(FILE *out, const struct export_view *v, const struct profile *p)
{
	enum clock_index k = v->clock;
	enum trace_unit unit = v->tree->header.unit;
	bool profile = v->tree->header.format == TRACE_FORMAT_PPROF;
	struct html_row *rows = xcalloc(p->nrows + 1, sizeof(*rows));
	size_t n = 0, i;

	for (i = 0; i < p->nrows; i++)
		if (profile_row_used(p, i))
			rows[n++] = (struct html_row){(uint32_t)i,
			                              p->rows[i].incl[k]};
	sort_items(rows, n, sizeof(*rows), row_cmp);
	if (profile)
		fputs("<table id=\"profile\">\n<thead><tr><th class=\"name\">"
		      "Method</th><th>Total %</th><th>Total</th><th>Self %</th>"
		      "<th>Self</th></tr></thead>\n<tbody>\n",
		      out);
	else
		fputs("<table id=\"profile\">\n<thead><tr><th class=\"name\">"
		      "Method</th><th>Incl %</th><th>Incl ms</th><th>Excl "
		      "%</th>"
		      "<th>Excl ms</th><th>Calls</th><th>Rec</th>"
		      "<th>Incl/Call ms</th></tr></thead>\n<tbody>\n",
		      out);
	for (i = 0; i < n; i++) {
		const struct profile_row *r = &p->rows[rows[i].m];
		uint64_t all = r->calls + r->rcalls;
		char *name = method_full_name(&v->tree->methods[rows[i].m]);

		fprintf(out, "<tr class=\"m\" data-m=\"%" PRIu32 "\">",
		        rows[i].m);
		fputs("<td class=\"name\" data-v=\"", out);
		markup_escape(out, name);
		fputs("\">", out);
		markup_escape(out, name);
		fputs("</td>", out);
		free(name);
		pct_cell(out, r->incl[k], p->total[k]);
		ms_cell(out, r->incl[k], unit);
		pct_cell(out, r->excl[k], p->total[k]);
		ms_cell(out, r->excl[k], unit);
		if (profile) {
			fputs("</tr>\n", out);
			continue;
		}
		fprintf(out,
		        "<td data-v=\"%" PRIu64 "\">%" PRIu64
		        "</td><td data-v=\"%" PRIu64 "\">%" PRIu64 "</td>",
		        r->calls, r->calls, r->rcalls, r->rcalls);
		ms_cell(out, all ? r->incl[k] / all : 0, unit);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	free(rows);
}

static void
write_flame(FILE *out, const struct export_view *v, const char *scope)
{
	struct callpath path;
	struct flame flame;
	struct flame_svg svg = {0};
	uint64_t total = scope_total(v->scope, v->tree, v->clock);
	int plot;
	double least;
	uint64_t min_incl;

	svg.width = 1200;
	plot = flame_svg_plot_width(svg.width);
	/* FlameGraph's default: frames under 0.1 pixel are left out. */
	least = 0.1 * (double)total / plot;
	min_incl = (uint64_t)least;
	if ((double)min_incl < least)
		min_incl++;
	callpath_build(&path, v->tree, v->scope, v->by_thread);
	callpath_sort(&path, v->clock);
	flame_layout(&flame, &path, v->clock, total, min_incl);
	svg.embedded = true;
	svg.title = "Flame graph";
	svg.subtitle = "click a frame to zoom, Search to highlight";
	svg.root_name = scope;
	flame_svg_write(out, &flame, &path, v->tree, &svg);
	flame_done(&flame);
	callpath_done(&path);
}

void
export_html(FILE *out, const struct export_view *v)
{
	const struct calltree *tree = v->tree;
	enum clock_index k = v->clock;
	struct profile p;
	const char *type;
	char *scope, *head;

	profile_compute(&p, tree, v->scope);
	if (scope_is_all(v->scope))
		scope = xasprintf("all %zu threads", tree->nthreads);
	else
		scope = xasprintf("%zu of %zu threads", v->scope->count,
		                  tree->nthreads);
	type = calltree_property(tree, "pprof-sample-type");
	if (type) {
		char total[40];

		quantity_format(total, sizeof(total), p.total[k],
		                tree->header.unit, true);
		head = xasprintf("%s, %s, total %s", scope, type, total);
	} else {
		head = xasprintf(
		        "%s, %s clock%s%s, total %" PRIu64 ".%03" PRIu64 " ms",
		        scope, k == CLOCK_CPU ? "thread-cpu" : "wall",
		        v->range ? ", range " : "", v->range ? v->range : "",
		        p.total[k] / 1000, p.total[k] % 1000);
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>tracetui: ",
	      out);
	markup_escape(out, tree->path);
	fputs("</title>\n", out);
	fputs(style, out);
	fputs("</head>\n<body>\n<h1>", out);
	markup_escape(out, tree->path);
	fputs("</h1>\n<p id=\"scope\">", out);
	markup_escape(out, head);
	fputs("</p>\n<h2>Flame graph</h2>\n<div id=\"flamebox\">\n", out);
	write_flame(out, v, scope);
	fputs("</div>\n<h2>Methods</h2>\n<p>Click a column to sort by it, a "
	      "method for its callers and callees.</p>\n<div id=\"drill\">"
	      "</div>\n",
	      out);
	write_table(out, v, &p);
	write_json(out, v, &p);
	fputs(script, out);
	fputs("</body>\n</html>\n", out);
	free(head);
	free(scope);
	profile_done(&p);
}
