/*
 * callpath: calls are in per-thread pre-order, so the path node of a call
 * at depth d is a child of the node last seen at depth d - 1: one stack of
 * nodes per thread walk and a map from (parent node, method) to node.
 * Merged trees are built with the same map, walking each part's nodes
 * (parents first); the inverted tree by grouping, level by level.
 */
#include "config.h"

#include "query/callpath.h"

#include "util/alloc.h"
#include "util/map.h"

#include <stdlib.h>
#include <string.h>

struct path_builder {
	struct callpath *out;
	size_t cap;
	struct util_map children; /* parent node << 32 | method -> node */
	uint32_t *last_child;     /* last child of each node, for appending */
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

/* Add call i (its node is under the one at depth - 1, or base); a
 * top-level call's durations go to top as well. */
static void
add_call(struct path_builder *b, const struct calltree *tree,
         const struct scope *scope, const struct scope_span *span, size_t i,
         uint32_t base, uint32_t **stack, size_t *stack_cap, uint64_t *top)
{
	uint32_t d = calltree_depth(tree, i);
	uint32_t parent = d ? (*stack)[d - 1] : base;
	uint32_t node = child_of(b, parent, calltree_method(tree, i));
	struct callpath_node *n = &b->out->nodes[node];
	uint64_t dur[CLOCK_COUNT];
	int k;

	UTIL_GROW(*stack, *stack_cap, (size_t)d + 1);
	(*stack)[d] = node;
	n->calls++;
	scope_clip(scope, tree, span, i, dur);
	for (k = 0; k < CLOCK_COUNT; k++) {
		n->incl[k] += dur[k];
		if (!d)
			top[k] += dur[k];
	}
}

/* Add thread t's time outside its top-level calls (which took top) to
 * the node of that time under base, made when there is any. */
static void
add_outside(struct path_builder *b, const struct calltree *tree,
            const struct scope *scope, size_t t, uint32_t base,
            const uint64_t *top)
{
	uint64_t out[CLOCK_COUNT] = {0};
	bool any = false;
	uint32_t node;
	int k;

	for (k = 0; k < CLOCK_COUNT; k++) {
		uint64_t all = tree->has_clock[k]
		                       ? scope_thread_total(scope, tree, t, k)
		                       : 0;

		out[k] = all > top[k] ? all - top[k] : 0;
		any |= out[k] != 0;
	}
	if (!any)
		return;
	node = child_of(b, base, CALLPATH_OUTSIDE);
	for (k = 0; k < CLOCK_COUNT; k++)
		b->out->nodes[node].incl[k] += out[k];
}

/* callpath_build over threads [t0, t1) only, with the time outside any
 * method when `outside`; scope->on NULL takes each of them (a thread's
 * own tree without a set of every thread). */
static void
build_threads(struct callpath *out, const struct calltree *tree,
              const struct scope *scope, bool by_thread, size_t t0, size_t t1,
              bool outside)
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
	for (t = t0; t < t1; t++) {
		const struct tt_thread *th = &tree->threads[t];
		uint64_t top[CLOCK_COUNT] = {0};
		uint32_t base = 0;

		if ((scope->on && !scope_has(scope, t)) || !th->ncalls)
			continue;
		if (by_thread) {
			base = node_new(&b, 0, CALL_NONE, (uint32_t)t);
			for (k = 0; k < CLOCK_COUNT; k++)
				if (tree->has_clock[k])
					out->nodes[base].incl[k] =
					        scope_thread_total(scope, tree,
					                           t, k);
		}
		scope_span_of(&span, scope, tree, t);
		for (i = 0; i < span.nopen; i++)
			add_call(&b, tree, scope, &span, span.open[i], base,
			         &stack, &stack_cap, top);
		for (i = span.first; i < span.end; i++)
			add_call(&b, tree, scope, &span, i, base, &stack,
			         &stack_cap, top);
		if (outside)
			add_outside(&b, tree, scope, t, base, top);
	}
	/* The root spans what is below it. */
	for (k = 0; k < CLOCK_COUNT; k++) {
		uint32_t ch;
		uint64_t sum = 0;

		for (ch = out->nodes[0].first_child; ch != CALL_NONE;
		     ch = out->nodes[ch].next_sibling)
			sum += out->nodes[ch].incl[k];
		out->nodes[0].incl[k] = sum;
	}
	free(stack);
	scope_span_done(&span);
	free(b.last_child);
	util_map_done(&b.children);
}

void
callpath_build(struct callpath *out, const struct calltree *tree,
               const struct scope *scope, bool by_thread)
{
	build_threads(out, tree, scope, by_thread, 0, tree->nthreads, false);
}

void
callpath_build_whole(struct callpath *out, const struct calltree *tree,
                     const struct scope *scope, bool by_thread)
{
	build_threads(out, tree, scope, by_thread, 0, tree->nthreads, true);
}

/* Thread t's own tree, with or without the time outside any method. */
static void
build_one(struct callpath *out, const struct calltree *tree, size_t t,
          bool outside)
{
	struct scope whole;

	memset(&whole, 0, sizeof(whole));
	whole.nthreads = tree->nthreads;
	build_threads(out, tree, &whole, false, t, t + 1, outside);
}

void
callpath_build_thread(struct callpath *out, const struct calltree *tree,
                      size_t t)
{
	build_one(out, tree, t, false);
}

void
callpath_build_thread_whole(struct callpath *out, const struct calltree *tree,
                            size_t t)
{
	build_one(out, tree, t, true);
}

/* The merge of one part: its nodes in the same order, so a copy, with
 * the children relinked in that order and no thread names. */
static void
copy_part(struct callpath *out, const struct callpath *part)
{
	size_t i;

	out->count = part->count;
	out->nodes = xreallocarray(NULL, part->count, sizeof(*out->nodes));
	memcpy(out->nodes, part->nodes, part->count * sizeof(*out->nodes));
	for (i = 0; i < part->count; i++) {
		out->nodes[i].thread = CALL_NONE;
		out->nodes[i].first_child = CALL_NONE;
		out->nodes[i].next_sibling = CALL_NONE;
	}
	for (i = part->count; i-- > 1;) {
		struct callpath_node *up = &out->nodes[out->nodes[i].parent];

		out->nodes[i].next_sibling = up->first_child;
		up->first_child = (uint32_t)i;
	}
	out->nodes[0].calls = 0;
}

void
callpath_merge(struct callpath *out, const struct callpath *parts, size_t n)
{
	struct path_builder b = {0};
	uint32_t *ids = NULL;
	size_t cap = 0, p, i;
	int k;

	memset(out, 0, sizeof(*out));
	for (p = i = 0; p < n; p++)
		if (parts[p].count)
			i++;
	if (i == 1) {
		for (p = 0; !parts[p].count; p++)
			;
		copy_part(out, &parts[p]);
		return;
	}
	b.out = out;
	util_map_init(&b.children);
	node_new(&b, CALL_NONE, CALL_NONE, CALL_NONE);
	for (p = 0; p < n; p++) {
		const struct callpath *part = &parts[p];

		if (!part->count)
			continue;
		/* A parent's id is below its children's. */
		UTIL_GROW(ids, cap, part->count);
		ids[0] = 0;
		for (i = 1; i < part->count; i++) {
			const struct callpath_node *x = &part->nodes[i];
			struct callpath_node *to;

			ids[i] = child_of(&b, ids[x->parent], x->method);
			to = &out->nodes[ids[i]];
			to->calls += x->calls;
			for (k = 0; k < CLOCK_COUNT; k++)
				to->incl[k] += x->incl[k];
		}
		for (k = 0; k < CLOCK_COUNT; k++)
			out->nodes[0].incl[k] += part->nodes[0].incl[k];
	}
	free(ids);
	free(b.last_child);
	util_map_done(&b.children);
}

/*
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
	uint32_t max_depth; /* no node deeper (callpath.cut_depth) */
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
		if (up == 0 || x->depth >= v->max_depth)
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
		if (up != 0 && c->depth < v->max_depth) {
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

/*
 * The depth past which the bottom-up tree of path is cut.  Level d of it
 * takes one step per forward node at least d deep, so the whole tree
 * takes the sum of the forward depths: quadratic in the depth of a deep
 * recursion.  The levels are kept while their steps stay within
 * INV_STEPS_PER_CALL per call of the trace plus INV_STEPS_FLOOR, so time
 * and memory stay linear in the input; UINT32_MAX when nothing is cut.
 */
#define INV_STEPS_PER_CALL 4
#define INV_STEPS_FLOOR ((uint64_t)1 << 20)

static uint32_t
inv_depth_cap(const struct callpath *path)
{
	uint64_t calls = 0, budget, steps = 0, left;
	uint32_t i, maxd = 0, d, cap = UINT32_MAX;
	uint32_t *at_depth;

	for (i = 1; i < path->count; i++) {
		calls += path->nodes[i].calls;
		if (path->nodes[i].depth > maxd)
			maxd = path->nodes[i].depth;
		steps += path->nodes[i].depth;
	}
	budget = INV_STEPS_PER_CALL * calls + INV_STEPS_FLOOR;
	if (steps <= budget)
		return UINT32_MAX;
	at_depth = xcalloc((size_t)maxd + 2, sizeof(*at_depth));
	for (i = 1; i < path->count; i++)
		at_depth[path->nodes[i].depth]++;
	/* left: forward nodes at depth d or deeper. */
	left = path->count - 1;
	steps = 0;
	for (d = 1; d <= maxd; d++) {
		steps += left;
		if (steps > budget) {
			cap = d - 1 ? d - 1 : 1;
			break;
		}
		left -= at_depth[d];
	}
	free(at_depth);
	return cap;
}

bool
callpath_invert_unless(struct callpath *out, const struct callpath *path,
                       bool (*stop)(void *arg), void *arg)
{
	struct inverter v = {0};
	uint64_t steps = 0;
	uint32_t i, nthreads = 0, frames = 0;
	bool stopped = false;
	int k;

	memset(out, 0, sizeof(*out));
	v.path = path;
	v.out = out;
	v.max_depth = inv_depth_cap(path);
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

		/* A few hundred microseconds apart. */
		if (stop && ++frames % 4096 == 0 && stop(arg)) {
			stopped = true;
			break;
		}

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
	out->cut_depth = v.max_depth == UINT32_MAX ? 0 : v.max_depth;
	if (stopped)
		callpath_done(out);
	return !stopped;
}

void
callpath_invert(struct callpath *out, const struct callpath *path)
{
	callpath_invert_unless(out, path, NULL, NULL);
}

/* True when node x goes before node y: more time on clock k, then the
 * lower method, then the lower thread. */
static bool
node_before(const struct callpath_node *x, const struct callpath_node *y,
            enum clock_index k)
{
	if (x->incl[k] != y->incl[k])
		return x->incl[k] > y->incl[k];
	if (x->method != y->method)
		return x->method < y->method;
	return x->thread < y->thread;
}

static int
node_cmp(const void *a, const void *b, void *arg)
{
	const struct callpath *path = ((void **)arg)[0];
	enum clock_index k = *(const enum clock_index *)((void **)arg)[1];
	const struct callpath_node *x = &path->nodes[*(const uint32_t *)a];
	const struct callpath_node *y = &path->nodes[*(const uint32_t *)b];

	return node_before(x, y, k) ? -1 : node_before(y, x, k);
}

/* Order the n children kids of node i and relink them. */
static void
sort_children(struct callpath *path, uint32_t i, uint32_t *kids, size_t n,
              enum clock_index k)
{
	struct callpath_node *nodes = path->nodes;
	void *arg[2] = {path, &k};
	size_t j;

	for (j = 1; j < n; j++)
		if (!node_before(&nodes[kids[j - 1]], &nodes[kids[j]], k))
			break;
	if (j == n)
		return;
	if (n <= 16) {
		for (j = 1; j < n; j++) {
			uint32_t x = kids[j];
			size_t at = j;

			for (; at > 0 &&
			       node_before(&nodes[x], &nodes[kids[at - 1]], k);
			     at--)
				kids[at] = kids[at - 1];
			kids[at] = x;
		}
	} else {
		qsort_r(kids, n, sizeof(*kids), node_cmp, arg);
	}
	nodes[i].first_child = kids[0];
	for (j = 0; j + 1 < n; j++)
		nodes[kids[j]].next_sibling = kids[j + 1];
	nodes[kids[n - 1]].next_sibling = CALL_NONE;
}

void
callpath_sort(struct callpath *path, enum clock_index k)
{
	struct callpath_node *nodes = path->nodes;
	uint32_t *kids = NULL;
	size_t cap = 0, fork_cap = 0, n, i;
	bool listing = !path->forks;

	for (i = 0; listing && i < path->count; i++) {
		uint32_t ch = nodes[i].first_child;

		if (ch != CALL_NONE && nodes[ch].next_sibling != CALL_NONE) {
			UTIL_GROW(path->forks, fork_cap, path->nforks + 1);
			path->forks[path->nforks++] = (uint32_t)i;
		}
	}
	if (listing && !path->forks)
		path->forks = xcalloc(1, sizeof(*path->forks));
	for (i = 0; i < path->nforks; i++) {
		uint32_t at = path->forks[i], ch;

		n = 0;
		for (ch = nodes[at].first_child; ch != CALL_NONE;
		     ch = nodes[ch].next_sibling) {
			UTIL_GROW(kids, cap, n + 1);
			kids[n++] = ch;
		}
		sort_children(path, at, kids, n, k);
	}
	free(kids);
}

uint64_t
callpath_excl(const struct callpath *path, uint32_t n, enum clock_index k)
{
	uint64_t excl = path->nodes[n].incl[k];
	uint32_t ch;

	for (ch = path->nodes[n].first_child; ch != CALL_NONE;
	     ch = path->nodes[ch].next_sibling)
		excl -= path->nodes[ch].incl[k];
	return excl;
}

void
callpath_done(struct callpath *path)
{
	free(path->nodes);
	free(path->forks);
	memset(path, 0, sizeof(*path));
}
