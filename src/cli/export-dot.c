/*
 * export-dot: dmtracedump -g's call graph, without needing graphviz to
 * make it.  Nodes are the scope's methods and "(toplevel)"; an edge from
 * a caller to a callee sums the callee's non-recursive calls made by that
 * caller (the profile's links, whatever the caller's recursion), so a
 * method's incoming edges add up to its inclusive time.  A node or edge
 * under --min-pct of the scope's total is left out, and so is an edge
 * whose ends are.  Exact numbers ride along as attributes graphviz
 * ignores (incl_us, excl_us, calls); labels round to milliseconds.
 */
#include "config.h"

#include "cli/export.h"

#include "query/method-name.h"
#include "query/profile.h"
#include "text/markup.h"
#include "util/alloc.h"
#include "util/map.h"
#include "util/sort.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct dot_edge {
	uint32_t parent, child; /* parent CALL_NONE: the top level */
	uint64_t calls, incl;
};

static int
edge_cmp(const void *a, const void *b)
{
	const struct dot_edge *x = a, *y = b;

	if (x->incl != y->incl)
		return x->incl > y->incl ? -1 : 1;
	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return x->child < y->child ? -1 : x->child > y->child;
}

static double
pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* For sorting the kept methods by label. */
struct dot_label {
	char *text;
	uint32_t m;
};

static int
label_cmp(const void *a, const void *b)
{
	const struct dot_label *x = a, *y = b;
	int c = strcmp(x->text, y->text);

	return c ? c : x->m < y->m ? -1 : x->m > y->m;
}

/* Sort byname[0..n) and give each run of equal texts to relabel(run,
 * count, arg). */
static void
each_tie(struct dot_label *byname, size_t n,
         void (*relabel)(struct dot_label *, size_t, const void *),
         const void *arg)
{
	size_t i, j;

	sort_items(byname, n, sizeof(*byname), label_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1;
		     j < n && strcmp(byname[j].text, byname[i].text) == 0; j++)
			;
		if (j - i > 1)
			relabel(byname + i, j - i, arg);
	}
}

/* Overloads: the full name, with the signature. */
static void
with_signature(struct dot_label *run, size_t n, const void *arg)
{
	const struct calltree *tree = arg;
	size_t i;

	for (i = 0; i < n; i++) {
		free(run[i].text);
		run[i].text = method_full_name(&tree->methods[run[i].m]);
	}
}

/* Names still alike: numbered in method order (the run is sorted so). */
static void
numbered(struct dot_label *run, size_t n, const void *arg)
{
	size_t i;

	(void)arg;
	for (i = 0; i < n; i++) {
		char *text = xasprintf("%s #%zu", run[i].text, i + 1);

		free(run[i].text);
		run[i].text = text;
	}
}

/*
 * Labels for the kept methods, by method (NULL for the others): CLASS.NAME
 * as dmtracedump -g writes it, the full name with the signature for
 * overloads, and names still equal (the same method twice in a file)
 * numbered " #1", " #2", so that no two boxes read the same.
 */
static char **
node_labels(const struct calltree *tree, const bool *kept, size_t nrows)
{
	char **labels = xcalloc(nrows + 1, sizeof(*labels));
	struct dot_label *byname = xcalloc(nrows + 1, sizeof(*byname));
	size_t n = 0, i;

	for (i = 0; i < nrows; i++)
		if (kept[i]) {
			byname[n].text = method_short_name(&tree->methods[i]);
			byname[n++].m = (uint32_t)i;
		}
	each_tie(byname, n, with_signature, tree);
	each_tie(byname, n, numbered, NULL);
	for (i = 0; i < n; i++)
		labels[byname[i].m] = byname[i].text;
	free(byname);
	return labels;
}

/* A node's fill: white to red with its share of the total. */
static void
heat(FILE *out, double share)
{
	int c = 255 - (int)(share * 2.0);

	if (c < 55)
		c = 55;
	fprintf(out, ", fillcolor=\"#ff%02x%02x\"", c, c);
}

static void
node_name(FILE *out, uint32_t m)
{
	if (m == CALL_NONE)
		fputs("top", out);
	else
		fprintf(out, "m%" PRIu32, m);
}

void
export_dot(FILE *out, const struct export_view *v)
{
	const struct calltree *tree = v->tree;
	enum clock_index k = v->clock;
	struct profile p;
	struct util_map at;
	struct dot_edge *edges = NULL;
	size_t n = 0, cap = 0, i;
	uint64_t total;
	bool *kept;
	char **labels;

	profile_compute(&p, tree, v->scope);
	total = p.total[k];
	util_map_init(&at);
	for (i = 0; i < p.nlinks; i++) {
		const struct profile_link *l = &p.links[i];
		uint32_t *slot;

		if (l->child_recursive)
			continue;
		slot = util_map_slot(&at, (uint64_t)l->parent << 32 | l->child,
		                     (uint32_t)n);
		if (*slot == n) {
			UTIL_GROW(edges, cap, n + 1);
			edges[n++] =
			        (struct dot_edge){l->parent, l->child, 0, 0};
		}
		edges[*slot].calls += l->calls;
		edges[*slot].incl += l->incl[k];
	}
	util_map_done(&at);
	sort_items(edges, n, sizeof(*edges), edge_cmp);
	kept = xcalloc(p.nrows + 1, sizeof(*kept));
	fputs("digraph tracetui {\n", out);
	fputs("graph [labelloc=t, fontname=\"Helvetica\", label=\"", out);
	markup_dot_escape(out, tree->path);
	fprintf(out, ": %s clock%s", k == CLOCK_CPU ? "thread-cpu" : "wall",
	        v->range ? ", range " : "");
	if (v->range)
		markup_dot_escape(out, v->range);
	fprintf(out,
	        ", total %" PRIu64 ".%03" PRIu64
	        " ms; under %g%% of it left out\", total_us=%" PRIu64 "];\n",
	        total / 1000, total % 1000, v->min_pct, total);
	fputs("node [shape=box, style=filled, fontname=\"Helvetica\"];\n"
	      "edge [fontname=\"Helvetica\"];\n",
	      out);
	fprintf(out,
	        "top [label=\"(toplevel)\\n%" PRIu64 ".%03" PRIu64
	        " ms\", incl_us=%" PRIu64 ", fillcolor=\"#dddddd\"];\n",
	        total / 1000, total % 1000, total);
	for (i = 0; i < p.nrows; i++)
		kept[i] = profile_row_used(&p, i) &&
		          pct(p.rows[i].incl[k], total) >= v->min_pct;
	labels = node_labels(tree, kept, p.nrows);
	for (i = 0; i < p.nrows; i++) {
		const struct profile_row *r = &p.rows[i];
		char *name;

		if (!kept[i])
			continue;
		fprintf(out, "m%zu [label=\"", i);
		markup_dot_escape(out, labels[i]);
		free(labels[i]);
		fprintf(out,
		        "\\nincl %" PRIu64 ".%03" PRIu64
		        " ms (%.1f%%)\\nexcl %" PRIu64 ".%03" PRIu64
		        " ms (%.1f%%)\\ncalls %" PRIu64 "+%" PRIu64 "\"",
		        r->incl[k] / 1000, r->incl[k] % 1000,
		        pct(r->incl[k], total), r->excl[k] / 1000,
		        r->excl[k] % 1000, pct(r->excl[k], total), r->calls,
		        r->rcalls);
		name = method_full_name(&tree->methods[i]);
		fputs(", tooltip=\"", out);
		markup_dot_escape(out, name);
		fputc('"', out);
		free(name);
		heat(out, pct(r->incl[k], total));
		fprintf(out,
		        ", incl_us=%" PRIu64 ", excl_us=%" PRIu64
		        ", calls=%" PRIu64 ", rcalls=%" PRIu64 "];\n",
		        r->incl[k], r->excl[k], r->calls, r->rcalls);
	}
	for (i = 0; i < n; i++) {
		const struct dot_edge *e = &edges[i];
		double share = pct(e->incl, total);

		if (share < v->min_pct || !kept[e->child] ||
		    (e->parent != CALL_NONE && !kept[e->parent]))
			continue;
		node_name(out, e->parent);
		fputs(" -> ", out);
		node_name(out, e->child);
		fprintf(out,
		        " [label=\"%" PRIu64 ".%03" PRIu64 " ms\\n%" PRIu64
		        " calls\", penwidth=%.2f, weight=%d, incl_us=%" PRIu64
		        ", calls=%" PRIu64 "];\n",
		        e->incl / 1000, e->incl % 1000, e->calls,
		        1.0 + share / 10.0, 1 + (int)share, e->incl, e->calls);
	}
	fputs("}\n", out);
	free(labels);
	free(kept);
	free(edges);
	profile_done(&p);
}
