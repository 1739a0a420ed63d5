/*
 * callpath: calls are in per-thread pre-order, so the path node of a call
 * at depth d is a child of the node last seen at depth d - 1: one stack of
 * nodes per thread walk and a map from (parent node, method) to node.
 */
#include "config.h"

#include "callpath.h"

#include "util-alloc.h"
#include "util-map.h"

#include <stdlib.h>
#include <string.h>

struct path_builder {
	struct callpath *out;
	size_t cap;
	struct util_map children; /* parent node << 32 | method -> node */
	uint32_t *last_child;	  /* last child of each node, for appending */
	size_t last_cap;
};

static uint32_t
node_new(struct path_builder *b, uint32_t parent, uint32_t method,
	 uint32_t thread)
{
	struct callpath *out = b->out;
	struct callpath_node *n;
	uint32_t id = (uint32_t)out->count;

	UTIL_GROW(out->nodes, b->cap, out->count + 1);
	if (out->count + 1 > b->last_cap) {
		b->last_cap = b->cap;
		b->last_child = xreallocarray(b->last_child, b->last_cap,
					      sizeof(*b->last_child));
	}
	n = &out->nodes[id];
	memset(n, 0, sizeof(*n));
	n->method = method;
	n->thread = thread;
	n->parent = parent;
	n->first_child = n->next_sibling = CALL_NONE;
	n->depth = parent == CALL_NONE ? 0 : out->nodes[parent].depth + 1;
	b->last_child[id] = CALL_NONE;
	if (parent != CALL_NONE) {
		uint32_t last = b->last_child[parent];

		if (last == CALL_NONE)
			out->nodes[parent].first_child = id;
		else
			out->nodes[last].next_sibling = id;
		b->last_child[parent] = id;
	}
	out->count++;
	return id;
}

static uint32_t
child_of(struct path_builder *b, uint32_t parent, uint32_t method)
{
	uint64_t key = (uint64_t)parent << 32 | method;
	uint32_t *slot = util_map_slot(&b->children, key, CALL_NONE);

	if (*slot == CALL_NONE)
		*slot = node_new(b, parent, method, CALL_NONE);
	return *slot;
}

/* Add call i (its node is under the one at depth - 1, or base). */
static void
add_call(struct path_builder *b, const struct calltree *tree,
	 const struct scope *scope, const struct scope_span *span, size_t i,
	 uint32_t base, uint32_t **stack, size_t *stack_cap)
{
	const struct tt_calls *c = &tree->calls;
	uint32_t d = c->depth[i];
	uint32_t parent = d ? (*stack)[d - 1] : base;
	uint32_t node = child_of(b, parent, c->method[i]);
	struct callpath_node *n = &b->out->nodes[node];
	uint64_t dur[CLOCK_COUNT];
	int k;

	UTIL_GROW(*stack, *stack_cap, (size_t)d + 1);
	(*stack)[d] = node;
	n->calls++;
	scope_clip(scope, tree, span, i, dur);
	for (k = 0; k < CLOCK_COUNT; k++) {
		n->incl[k] += dur[k];
		n->excl[k] += dur[k];
		b->out->nodes[parent].excl[k] -= dur[k];
	}
}

void
callpath_build(struct callpath *out, const struct calltree *tree,
	       const struct scope *scope, bool by_thread)
{
	struct path_builder b = {0};
	struct scope_span span = {0};
	uint32_t *stack = NULL;
	size_t stack_cap = 0, t, i;
	int k;

	memset(out, 0, sizeof(*out));
	b.out = out;
	util_map_init(&b.children);
	node_new(&b, CALL_NONE, CALL_NONE, CALL_NONE);
	for (t = 0; t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];
		uint32_t base = 0;

		if (!scope_has(scope, t) || !th->ncalls)
			continue;
		if (by_thread) {
			base = node_new(&b, 0, CALL_NONE, (uint32_t)t);
			for (k = 0; k < CLOCK_COUNT; k++) {
				if (!tree->has_clock[k])
					continue;
				out->nodes[base].incl[k] =
					scope_thread_total(scope, tree, t, k);
				out->nodes[base].excl[k] =
					out->nodes[base].incl[k];
			}
		}
		scope_span_of(&span, scope, tree, t);
		for (i = 0; i < span.nopen; i++)
			add_call(&b, tree, scope, &span, span.open[i], base,
				 &stack, &stack_cap);
		for (i = span.first; i < span.end; i++)
			add_call(&b, tree, scope, &span, i, base, &stack,
				 &stack_cap);
	}
	/* The root spans what is below it. */
	for (k = 0; k < CLOCK_COUNT; k++) {
		uint32_t ch;
		uint64_t sum = 0;

		for (ch = out->nodes[0].first_child; ch != CALL_NONE;
		     ch = out->nodes[ch].next_sibling)
			sum += out->nodes[ch].incl[k];
		out->nodes[0].incl[k] = sum;
		out->nodes[0].excl[k] = 0;
	}
	free(stack);
	scope_span_done(&span);
	free(b.last_child);
	util_map_done(&b.children);
}

static int
node_cmp(const void *a, const void *b, void *arg)
{
	const struct callpath *path = ((void **)arg)[0];
	enum clock_index k = *(const enum clock_index *)((void **)arg)[1];
	const struct callpath_node *x = &path->nodes[*(const uint32_t *)a];
	const struct callpath_node *y = &path->nodes[*(const uint32_t *)b];

	if (x->incl[k] != y->incl[k])
		return x->incl[k] > y->incl[k] ? -1 : 1;
	if (x->method != y->method)
		return x->method < y->method ? -1 : 1;
	return x->thread < y->thread ? -1 : x->thread > y->thread;
}

void
callpath_sort(struct callpath *path, enum clock_index k)
{
	uint32_t *kids = NULL;
	size_t cap = 0, n, i;
	void *arg[2] = {path, &k};

	for (i = 0; i < path->count; i++) {
		uint32_t ch;

		n = 0;
		for (ch = path->nodes[i].first_child; ch != CALL_NONE;
		     ch = path->nodes[ch].next_sibling) {
			UTIL_GROW(kids, cap, n + 1);
			kids[n++] = ch;
		}
		if (n < 2)
			continue;
		qsort_r(kids, n, sizeof(*kids), node_cmp, arg);
		path->nodes[i].first_child = kids[0];
		for (ch = 0; ch + 1 < n; ch++)
			path->nodes[kids[ch]].next_sibling = kids[ch + 1];
		path->nodes[kids[n - 1]].next_sibling = CALL_NONE;
	}
	free(kids);
}

void
callpath_done(struct callpath *path)
{
	free(path->nodes);
	memset(path, 0, sizeof(*path));
}
