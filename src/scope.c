/*
 * scope: a flag per thread; selection by name is exact, by id numeric.
 */
#include "config.h"

#include "scope.h"

#include "util-alloc.h"

#include <stdlib.h>
#include <string.h>

void
scope_init_none(struct scope *scope, const struct calltree *tree)
{
	scope->nthreads = tree->nthreads;
	scope->on = xcalloc(tree->nthreads + 1, sizeof(*scope->on));
	scope->count = 0;
}

void
scope_init_all(struct scope *scope, const struct calltree *tree)
{
	size_t t;

	scope_init_none(scope, tree);
	for (t = 0; t < tree->nthreads; t++)
		scope_add(scope, t);
}

void
scope_add(struct scope *scope, size_t t)
{
	if (!scope->on[t]) {
		scope->on[t] = true;
		scope->count++;
	}
}

void
scope_done(struct scope *scope)
{
	free(scope->on);
	scope->on = NULL;
	scope->count = scope->nthreads = 0;
}

bool
scope_select(struct scope *scope, const struct calltree *tree,
	     const char *sel)
{
	bool found = false;
	char *end;
	unsigned long tid;
	size_t t;

	if (strcmp(sel, "all") == 0) {
		for (t = 0; t < tree->nthreads; t++)
			scope_add(scope, t);
		return true;
	}
	for (t = 0; t < tree->nthreads; t++) {
		if (strcmp(tree->threads[t].name, sel) == 0) {
			scope_add(scope, t);
			found = true;
		}
	}
	if (found)
		return true;
	tid = strtoul(sel, &end, 10);
	if (end == sel || *end)
		return false;
	for (t = 0; t < tree->nthreads; t++) {
		if (tree->threads[t].tid == tid) {
			scope_add(scope, t);
			found = true;
		}
	}
	return found;
}

uint64_t
scope_total(const struct scope *scope, const struct calltree *tree,
	    enum clock_index k)
{
	uint64_t total = 0;
	size_t t;

	if (!tree->has_clock[k])
		return 0;
	for (t = 0; t < tree->nthreads; t++)
		if (scope_has(scope, t))
			total += calltree_thread_span(tree, t, k);
	return total;
}
