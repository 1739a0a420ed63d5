/*
 * calltree: loading a model, releasing it, and reading the values its
 * compact arrays keep in side tables.  The builder is calltree-build.c.
 */
#include "config.h"

#include "calltree.h"

#include "calltree-build.h"
#include "trace-load.h"
#include "util-alloc.h"

#include <stdlib.h>
#include <string.h>

struct calltree *
calltree_load(const char *path, struct trace_error *err)
{
	return calltree_load_progress(path, err, NULL, NULL);
}

struct calltree *
calltree_load_progress(const char *path, struct trace_error *err,
                       calltree_progress_fn *progress, void *arg)
{
	struct calltree_builder *b = calltree_builder_new(path);

	b->progress = progress;
	b->progress_arg = arg;
	if (!trace_load(path, calltree_builder_sink(b), err)) {
		calltree_builder_free(b);
		return NULL;
	}
	return calltree_builder_finish(b);
}

void
calltree_alloc_calls(struct calltree *tree, size_t n)
{
	struct tt_calls *c = &tree->calls;
	int k;

	c->count = n;
	if (!n)
		return; /* the call arrays stay NULL */
	c->method = xreallocarray(NULL, n, sizeof(*c->method));
	c->parent = xreallocarray(NULL, n, sizeof(*c->parent));
	c->depth = xreallocarray(NULL, n, sizeof(*c->depth));
	c->flags = xreallocarray(NULL, n, sizeof(*c->flags));
	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!tree->has_clock[k])
			continue;
		c->start[k] = xreallocarray(NULL, n, sizeof(*c->start[k]));
		c->duration[k] =
		        xreallocarray(NULL, n, sizeof(*c->duration[k]));
	}
}

void
calltree_free_calls(struct calltree *tree)
{
	struct tt_calls *c = &tree->calls;
	int k;

	free(c->method);
	free(c->parent);
	free(c->depth);
	free(c->flags);
	for (k = 0; k < CLOCK_COUNT; k++) {
		free(c->start[k]);
		free(c->duration[k]);
		free(c->steps[k]);
		free(c->step_index[k]);
		free(c->longs[k]);
	}
	free(c->deep);
	memset(c, 0, sizeof(*c));
}

void
calltree_free(struct calltree *tree)
{
	if (!tree)
		return;
	free(tree->path);
	free(tree->methods);
	free(tree->threads);
	free(tree->properties);
	free(tree->warnings);
	calltree_free_calls(tree);
	util_arena_done(&tree->arena);
	free(tree);
}

void
calltree_index_steps(struct calltree *tree)
{
	struct tt_calls *c = &tree->calls;
	size_t nb = (c->count >> TIME_BLOCK_SHIFT) + 1, b, s;
	int k;

	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!c->start[k])
			continue;
		c->step_index[k] = xreallocarray(NULL, nb + 1,
		                                 sizeof(*c->step_index[k]));
		for (b = 0, s = 0; b <= nb; b++) {
			while (s < c->nsteps[k] &&
			       c->steps[k][s].first_call <= b << TIME_BLOCK_SHIFT)
				s++;
			c->step_index[k][b] = (uint32_t)s;
		}
	}
}

uint64_t
calltree_long_duration(const struct calltree *tree, size_t c,
                       enum clock_index k)
{
	const struct tt_long_call *longs = tree->calls.longs[k];
	size_t lo = 0, hi = tree->calls.nlongs[k];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (longs[mid].call < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tree->calls.nlongs[k] && longs[lo].call == c
	               ? longs[lo].duration
	               : UINT16_MAX;
}

uint32_t
calltree_deep_depth(const struct calltree *tree, size_t c)
{
	const struct tt_deep_call *deep = tree->calls.deep;
	size_t lo = 0, hi = tree->calls.ndeep;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (deep[mid].call < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tree->calls.ndeep && deep[lo].call == c ? deep[lo].depth
	                                                    : UINT16_MAX;
}

long
calltree_find_thread(const struct calltree *tree, uint32_t tid)
{
	size_t i;

	for (i = 0; i < tree->nthreads; i++)
		if (tree->threads[i].tid == tid)
			return (long)i;
	return -1;
}

enum clock_index
calltree_default_clock(const struct calltree *tree)
{
	return tree->has_clock[CLOCK_CPU] ? CLOCK_CPU : CLOCK_WALL;
}

const char *
calltree_property(const struct calltree *tree, const char *key)
{
	size_t i;

	for (i = tree->nproperties; i-- > 0;)
		if (strcmp(tree->properties[i].key, key) == 0)
			return tree->properties[i].value;
	return NULL;
}
