/*
 * export: the writers of `export --format dot` and `--format html`, each
 * in a file of its own (export.c keeps the JSON formats and chooses).
 */
#ifndef TRACETUI_EXPORT_H
#define TRACETUI_EXPORT_H

#include "model/calltree.h"
#include "model/scope.h"

#include <stdio.h>

/* What both writers are told: the scope, its clock, and the pruning. */
struct export_view {
	const struct calltree *tree;
	const struct scope *scope;
	enum clock_index clock;
	double min_pct;    /* dot: leave out what is under it */
	const char *range; /* --range as given, or NULL */
	bool by_thread;    /* html's flame graph: a frame per thread */
};

/* The call graph in Graphviz DOT: a node per method, an edge per
 * caller and callee weighted by inclusive time, pruned by min_pct. */
void export_dot(FILE *out, const struct export_view *v);
/* One self-contained HTML page: profile, drill-down and flame graph. */
void export_html(FILE *out, const struct export_view *v);

#endif
