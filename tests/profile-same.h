/*
 * profile-same: comparing profile answers in the unit tests.
 */
#ifndef TRACETUI_TESTS_PROFILE_SAME_H
#define TRACETUI_TESTS_PROFILE_SAME_H

#include "query/callpath.h"
#include "query/frames.h"
#include "query/profile.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The first node where trees a and b differ (in any field, or one has
 * no such node); SIZE_MAX when they are the same node for node. */
static inline size_t
callpath_difference(const struct callpath *a, const struct callpath *b)
{
	size_t i;
	int k;

	for (i = 0; i < a->count && i < b->count; i++) {
		const struct callpath_node *x = &a->nodes[i], *y = &b->nodes[i];

		if (x->method != y->method || x->thread != y->thread ||
		    x->parent != y->parent ||
		    x->first_child != y->first_child ||
		    x->next_sibling != y->next_sibling ||
		    x->depth != y->depth || x->calls != y->calls)
			return i;
		for (k = 0; k < CLOCK_COUNT; k++)
			if (x->incl[k] != y->incl[k])
				return i;
	}
	return a->count == b->count ? SIZE_MAX : i;
}

/* True when edge lists a[0..na) and b[0..nb) are equal, entry by entry. */
static inline bool
same_edges(const struct profile_edge *a, size_t na,
           const struct profile_edge *b, size_t nb)
{
	size_t i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (a[i].method != b[i].method ||
		    a[i].recursive != b[i].recursive ||
		    a[i].calls != b[i].calls || a[i].incl[0] != b[i].incl[0] ||
		    a[i].incl[1] != b[i].incl[1])
			return false;
	return true;
}

static int
link_order(const void *a, const void *b)
{
	const struct profile_link *x = a, *y = b;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	if (x->child != y->child)
		return x->child < y->child ? -1 : 1;
	if (x->child_recursive != y->child_recursive)
		return x->child_recursive ? 1 : -1;
	if (x->parent_recursive != y->parent_recursive)
		return x->parent_recursive ? 1 : -1;
	return 0;
}

/* NULL when profiles p and q have the same totals, rows and links, the
 * links in any order (both are sorted); else what differs. */
static inline const char *
profile_difference(struct profile *p, struct profile *q)
{
	size_t i;

	if (memcmp(p->total, q->total, sizeof(p->total)))
		return "profile total";
	if (p->nrows != q->nrows)
		return "profile row count";
	for (i = 0; i < p->nrows; i++)
		if (memcmp(&p->rows[i], &q->rows[i], sizeof(p->rows[i])))
			return "profile row";
	if (p->nlinks != q->nlinks)
		return "profile link count";
	if (!p->nlinks)
		return NULL; /* and no links to sort: both may be NULL */
	qsort(p->links, p->nlinks, sizeof(*p->links), link_order);
	qsort(q->links, q->nlinks, sizeof(*q->links), link_order);
	for (i = 0; i < p->nlinks; i++) {
		const struct profile_link *x = &p->links[i], *y = &q->links[i];

		if (link_order(x, y) || x->calls != y->calls ||
		    memcmp(x->incl, y->incl, sizeof(x->incl)))
			return "profile link";
	}
	return NULL;
}

/* The frame methods of the checks: a fifth of tree's methods, by a hash
 * of the index, so that frames nest in frames and recurse (a
 * calltree_frame_methods_fn). */
static inline bool *
test_frame_methods(const struct calltree *tree, void *arg)
{
	bool *flags = calloc(tree->nmethods + 1, sizeof(*flags));
	size_t m;

	(void)arg;
	for (m = 0; flags && m < tree->nmethods; m++)
		flags[m] = (uint32_t)(m * 2654435761u) >> 29 < 2;
	return flags;
}

/* The first frame of scope (test_frame_methods) where the model a and
 * the sums b differ, or the count when one has fewer; SIZE_MAX when
 * they have the same frames. */
static inline size_t
frames_difference(const struct calltree *a, const struct calltree *b,
                  const struct scope *scope)
{
	bool *flags = test_frame_methods(a, NULL);
	struct frames fa, fb;
	size_t i, at = SIZE_MAX;

	frames_find(&fa, a, scope, flags, 16667);
	frames_find(&fb, b, scope, flags, 16667);
	for (i = 0; i < fa.count && i < fb.count && at == SIZE_MAX; i++) {
		const struct drawn_frame *x = &fa.frames[i], *y = &fb.frames[i];

		if (x->thread != y->thread || x->start != y->start ||
		    memcmp(x->dur, y->dur, sizeof(x->dur)) ||
		    memcmp(x->hot, y->hot, sizeof(x->hot)) ||
		    memcmp(x->hot_excl, y->hot_excl, sizeof(x->hot_excl)))
			at = i;
	}
	if (at == SIZE_MAX && fa.count != fb.count)
		at = i;
	frames_done(&fa);
	frames_done(&fb);
	free(flags);
	return at;
}

#endif
