/*
 * invert-eager: the bottom-up tree made whole at once, level by level, as
 * the library made it before it learnt to expand lazily; the oracle the
 * lazy tree is checked against.  Its time and memory are the sum of the
 * forward tree's depths: keep it to small or shallow trees.
 *
 * Inverting: a node of the inverted tree stands for every forward node
 * whose path, reversed, starts with the node's path.  It carries one item
 * per such forward node: the node (from) and the ancestor of it that the
 * next step down must match (at).  Its children are its items grouped by
 * the method of at (a counting sort over method and thread keys), each
 * item moving on to at's parent; an item whose at has no parent ends
 * there.  Items live in one buffer used as a stack.  A node with a single
 * item has a single chain below it, one node per ancestor of at, made in
 * one loop.  A node's children are made together, so they are siblings
 * in consecutive ids and need no list of last children.
 */
#include "config.h"

#include "invert-eager.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

struct inv_item {
	uint32_t at, from;
};

struct inv_frame {
	uint32_t node;
	size_t lo, hi; /* its items in the buffer */
};

struct inverter {
	const struct callpath *path;
	uint64_t (*excl)[CLOCK_COUNT]; /* of each forward node */
	struct callpath *out;
	size_t cap;
	uint32_t nkeys, thread_base; /* keys: methods, then threads */
	uint32_t *count, *start, *fill, *child, *touched;
	struct inv_item *items;
	size_t nitems, items_cap;
	struct inv_frame *stack;
	size_t depth, stack_cap;
};

static uint32_t
inv_key(const struct inverter *v, uint32_t at)
{
	const struct callpath_node *x = &v->path->nodes[at];

	if (x->method == CALLPATH_OUTSIDE)
		return v->nkeys - 1;
	return x->method != CALL_NONE ? x->method : v->thread_base + x->thread;
}

/* A new node under parent named like forward node at, after parent's
 * last child made so far (prev, or CALL_NONE for the first). */
static uint32_t
inv_node(struct inverter *v, uint32_t parent, uint32_t at, uint32_t prev)
{
	struct callpath *out = v->out;
	const struct callpath_node *like = &v->path->nodes[at];
	struct callpath_node *n;
	uint32_t id = (uint32_t)out->count;

	UTIL_GROW(out->nodes, v->cap, out->count + 1);
	n = &out->nodes[id];
	memset(n, 0, sizeof(*n));
	n->method = like->method;
	n->thread = like->thread;
	n->parent = parent;
	n->first_child = n->next_sibling = CALL_NONE;
	n->depth = out->nodes[parent].depth + 1;
	if (prev == CALL_NONE)
		out->nodes[parent].first_child = id;
	else
		out->nodes[prev].next_sibling = id;
	out->count++;
	return id;
}

/* The chain below node of its one item. */
static void
inv_chain(struct inverter *v, uint32_t node, struct inv_item it)
{
	const struct callpath_node *from = &v->path->nodes[it.from];
	const uint64_t *excl = v->excl[it.from];
	int k;

	for (;;) {
		uint32_t up = v->path->nodes[it.at].parent;
		uint32_t c = inv_node(v, node, it.at, CALL_NONE);
		struct callpath_node *x = &v->out->nodes[c];

		x->calls = from->calls;
		for (k = 0; k < CLOCK_COUNT; k++)
			x->incl[k] = excl[k];
		if (up == 0)
			return;
		it.at = up;
		node = c;
	}
}

/* Make the children of node under the items [lo, hi), push their frames,
 * and leave their items at the buffer's top. */
static void
inv_expand(struct inverter *v, uint32_t node, size_t lo, size_t hi)
{
	const struct callpath *path = v->path;
	size_t i, ntouched = 0, top = v->nitems;
	uint32_t prev = CALL_NONE;
	int k;

	for (i = lo; i < hi; i++) {
		uint32_t key = inv_key(v, v->items[i].at);

		if (v->count[key]++ == 0) {
			v->touched[ntouched++] = key;
			v->child[key] = v->items[i].at; /* names the key */
		}
	}
	UTIL_GROW(v->items, v->items_cap, top + (hi - lo));
	for (i = 0; i < ntouched; i++) {
		uint32_t key = v->touched[i];

		prev = inv_node(v, node, v->child[key], prev);
		v->child[key] = prev;
		v->start[key] = v->fill[key] = (uint32_t)(top - lo);
		top += v->count[key];
	}
	for (i = lo; i < hi; i++) {
		struct inv_item it = v->items[i];
		uint32_t key = inv_key(v, it.at);
		const struct callpath_node *from = &path->nodes[it.from];
		struct callpath_node *c = &v->out->nodes[v->child[key]];
		uint32_t up = path->nodes[it.at].parent;

		c->calls += from->calls;
		for (k = 0; k < CLOCK_COUNT; k++)
			c->incl[k] += v->excl[it.from][k];
		if (up != 0) {
			struct inv_item *to = &v->items[lo + v->fill[key]++];

			to->at = up;
			to->from = it.from;
		}
	}
	UTIL_GROW(v->stack, v->stack_cap, v->depth + ntouched);
	for (i = 0; i < ntouched; i++) {
		uint32_t key = v->touched[i];

		v->count[key] = 0;
		if (v->fill[key] == v->start[key])
			continue;
		v->stack[v->depth].node = v->child[key];
		v->stack[v->depth].lo = lo + v->start[key];
		v->stack[v->depth].hi = lo + v->fill[key];
		v->depth++;
	}
	v->nitems = top;
}

void
invert_eager(struct callpath *out, const struct callpath *path)
{
	struct inverter v = {0};
	uint64_t steps = 0;
	uint32_t i, nthreads = 0;
	int k;

	memset(out, 0, sizeof(*out));
	v.path = path;
	v.out = out;
	for (i = 1; i < path->count; i++) {
		const struct callpath_node *x = &path->nodes[i];

		if (callpath_is_method(x) && x->method >= v.thread_base)
			v.thread_base = x->method + 1;
		if (x->method == CALL_NONE && x->thread >= nthreads)
			nthreads = x->thread + 1;
		steps += x->depth;
	}
	/* Each forward node's exclusive time, once. */
	v.excl = xcalloc(path->count + 1, sizeof(*v.excl));
	for (i = 0; i < path->count; i++)
		for (k = 0; k < CLOCK_COUNT; k++)
			v.excl[i][k] += path->nodes[i].incl[k];
	for (i = 1; i < path->count; i++)
		for (k = 0; k < CLOCK_COUNT; k++)
			v.excl[path->nodes[i].parent][k] -=
			        path->nodes[i].incl[k];
	/* Each step of an item up its path makes at most one node; deep
	 * recursion makes far fewer than that, so the guess is capped. */
	v.cap = 1 + (size_t)(steps < 8 * (uint64_t)path->count
	                             ? steps
	                             : 8 * (uint64_t)path->count);
	out->nodes = xreallocarray(NULL, v.cap, sizeof(*out->nodes));
	memset(out->nodes, 0, sizeof(*out->nodes));
	out->nodes[0].method = out->nodes[0].thread = CALL_NONE;
	out->nodes[0].parent = CALL_NONE;
	out->nodes[0].first_child = out->nodes[0].next_sibling = CALL_NONE;
	out->count = 1;
	/* Keys: methods, threads, then the time outside any method. */
	v.nkeys = v.thread_base + nthreads + 1;
	v.count = xcalloc((size_t)v.nkeys + 1, sizeof(*v.count));
	v.start = xcalloc((size_t)v.nkeys + 1, sizeof(*v.start));
	v.fill = xcalloc((size_t)v.nkeys + 1, sizeof(*v.fill));
	v.child = xcalloc((size_t)v.nkeys + 1, sizeof(*v.child));
	v.touched = xcalloc((size_t)v.nkeys + 1, sizeof(*v.touched));
	/* The root's items: every forward node, to be matched itself. */
	UTIL_GROW(v.items, v.items_cap, 2 * (size_t)path->count + 1);
	for (i = 1; i < path->count; i++) {
		v.items[v.nitems].at = i;
		v.items[v.nitems++].from = i;
	}
	inv_expand(&v, 0, 0, v.nitems);
	while (v.depth) {
		struct inv_frame f = v.stack[--v.depth];

		if (f.hi - f.lo == 1) {
			inv_chain(&v, f.node, v.items[f.lo]);
			continue;
		}
		/* Every frame still stacked lies below f's items. */
		v.nitems = f.hi;
		inv_expand(&v, f.node, f.lo, f.hi);
	}
	for (k = 0; k < CLOCK_COUNT; k++) {
		uint32_t ch;

		for (ch = out->nodes[0].first_child; ch != CALL_NONE;
		     ch = out->nodes[ch].next_sibling)
			out->nodes[0].incl[k] += out->nodes[ch].incl[k];
	}
	if (out->count < v.cap)
		out->nodes = xreallocarray(out->nodes, out->count,
		                           sizeof(*out->nodes));
	free(v.excl);
	free(v.count);
	free(v.start);
	free(v.fill);
	free(v.child);
	free(v.touched);
	free(v.items);
	free(v.stack);
}

bool
invert_same(const struct callpath *a, const struct callpath *b)
{
	struct pair {
		uint32_t a, b;
	} *stack = NULL;
	size_t n = 0, cap = 0;
	bool same = true;

	UTIL_GROW(stack, cap, 1);
	stack[n].a = stack[n].b = 0;
	n++;
	while (same && n) {
		struct pair p = stack[--n];
		const struct callpath_node *x = &a->nodes[p.a];
		const struct callpath_node *y = &b->nodes[p.b];
		uint32_t ca, cb;

		same = x->method == y->method && x->thread == y->thread &&
		       x->depth == y->depth && x->calls == y->calls &&
		       memcmp(x->incl, y->incl, sizeof(x->incl)) == 0;
		for (ca = x->first_child, cb = y->first_child;
		     same && ca != CALL_NONE && cb != CALL_NONE;
		     ca = a->nodes[ca].next_sibling,
		    cb = b->nodes[cb].next_sibling) {
			UTIL_GROW(stack, cap, n + 1);
			stack[n].a = ca;
			stack[n].b = cb;
			n++;
		}
		same = same && ca == CALL_NONE && cb == CALL_NONE;
	}
	free(stack);
	return same;
}
