/*
 * profile: one pass over the scope's calls.  A call's exclusive time is
 * its duration minus its children's, so each call adds its duration to
 * its own method and subtracts it from its parent's method: no per-call
 * child sums are stored.
 */
#include "config.h"

#include "profile.h"

#include "util-alloc.h"
#include "util-map.h"

#include <stdlib.h>
#include <string.h>

void
profile_compute(struct profile *out, const struct calltree *tree,
		const struct scope *scope)
{
	const struct tt_calls *c = &tree->calls;
	size_t t, i;
	int k;

	out->nrows = tree->nmethods;
	out->rows = xcalloc(tree->nmethods + 1, sizeof(*out->rows));
	for (k = 0; k < CLOCK_COUNT; k++)
		out->total[k] = scope_total(scope, tree, k);
	for (t = 0; t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];

		if (!scope_has(scope, t))
			continue;
		for (i = th->first_call; i < th->first_call + th->ncalls; i++) {
			struct profile_row *r = &out->rows[c->method[i]];
			bool rec = c->flags[i] & CALL_RECURSIVE;
			uint32_t parent = c->parent[i];

			if (rec)
				r->rcalls++;
			else
				r->calls++;
			for (k = 0; k < CLOCK_COUNT; k++) {
				uint64_t d;

				if (!c->start[k])
					continue;
				d = c->end[k][i] - c->start[k][i];
				r->excl[k] += d;
				if (!rec) {
					r->incl[k] += d;
					r->top_excl[k] += d;
				}
				if (parent != CALL_NONE) {
					struct profile_row *pr =
						&out->rows[c->method[parent]];

					pr->excl[k] -= d;
					if (!(c->flags[parent] & CALL_RECURSIVE))
						pr->top_excl[k] -= d;
				}
			}
		}
	}
}

void
profile_done(struct profile *profile)
{
	free(profile->rows);
	memset(profile, 0, sizeof(*profile));
}

struct edge_list {
	struct profile_edge *edges;
	size_t count, cap;
	struct util_map index; /* method << 1 | recursive -> edge */
};

static void
edge_add(struct edge_list *l, const struct calltree *tree, uint32_t method,
	 bool recursive, size_t call)
{
	uint64_t key = (uint64_t)method << 1 | recursive;
	uint32_t *slot = util_map_slot(&l->index, key, CALL_NONE);
	struct profile_edge *e;
	int k;

	if (*slot == CALL_NONE) {
		UTIL_GROW(l->edges, l->cap, l->count + 1);
		e = &l->edges[l->count];
		memset(e, 0, sizeof(*e));
		e->method = method;
		e->recursive = recursive;
		*slot = (uint32_t)l->count++;
	}
	e = &l->edges[*slot];
	e->calls++;
	for (k = 0; k < CLOCK_COUNT; k++)
		if (tree->calls.start[k])
			e->incl[k] += calltree_duration(tree, call, k);
}

static int
edge_cmp(const void *a, const void *b, void *clock)
{
	const struct profile_edge *x = a, *y = b;
	enum clock_index sort_clock = *(const enum clock_index *)clock;

	if (x->recursive != y->recursive)
		return x->recursive ? 1 : -1;
	if (x->incl[sort_clock] != y->incl[sort_clock])
		return x->incl[sort_clock] > y->incl[sort_clock] ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->method < y->method ? -1 : x->method > y->method;
}

void
profile_edges_compute(struct profile_edges *out, const struct calltree *tree,
		      const struct scope *scope, uint32_t m,
		      enum clock_index k)
{
	const struct tt_calls *c = &tree->calls;
	struct edge_list parents = {0}, children = {0};
	size_t t, i;

	util_map_init(&parents.index);
	util_map_init(&children.index);
	for (t = 0; t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];

		if (!scope_has(scope, t))
			continue;
		for (i = th->first_call; i < th->first_call + th->ncalls; i++) {
			uint32_t p = c->parent[i];

			if (c->method[i] == m)
				edge_add(&parents, tree,
					 p == CALL_NONE ? CALL_NONE
							: c->method[p],
					 c->flags[i] & CALL_RECURSIVE, i);
			if (p != CALL_NONE && c->method[p] == m)
				edge_add(&children, tree, c->method[i],
					 c->flags[p] & CALL_RECURSIVE, i);
		}
	}
	util_map_done(&parents.index);
	util_map_done(&children.index);
	/* An empty list has a NULL array, which qsort_r may not be given. */
	if (parents.count > 1)
		qsort_r(parents.edges, parents.count, sizeof(*parents.edges),
			edge_cmp, &k);
	if (children.count > 1)
		qsort_r(children.edges, children.count,
			sizeof(*children.edges), edge_cmp, &k);
	out->method = m;
	out->parents = parents.edges;
	out->nparents = parents.count;
	out->children = children.edges;
	out->nchildren = children.count;
}

void
profile_edges_done(struct profile_edges *edges)
{
	free(edges->parents);
	free(edges->children);
	memset(edges, 0, sizeof(*edges));
}
