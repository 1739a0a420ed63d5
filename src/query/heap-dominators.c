/*
 * heap-dominators: Lengauer and Tarjan's dominators with path
 * compression (the "simple" version, O(E log N)), on the graph of
 * strong references (model/heap.c's heap_next_ref: no referent of a
 * java.lang.ref.Reference) under a super-root whose successors are the
 * roots.
 *
 * Vertices are numbered in depth-first preorder from 1 (the
 * super-root); every walk is iterative, so a chain of millions of
 * objects needs no deep C stack.  References are read from the dump
 * twice (the search, then the predecessors), never held as a list of
 * successors.
 */
#include "config.h"

#include "query/heap-dominators.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

/* A vertex of the search, and where its successors' walk is. */
struct frame {
	uint32_t v, slot;
};

/* The vertices' arrays, by preorder number. */
struct lt {
	uint32_t *vertex, *parent, *semi, *ancestor, *label, *idom;
	uint32_t *bucket, *bucket_next, *path;
};

/* The next successor of vertex v (object obj, HEAP_NONE for the
 * super-root) at or after *slot. */
static uint32_t
next_succ(const struct heap_dump *d, uint32_t obj, uint32_t *slot)
{
	if (obj == HEAP_NONE)
		return *slot < d->nroots ? d->roots[(*slot)++].object
		                         : HEAP_NONE;
	return heap_next_ref(d, obj, slot);
}

/* The path-compressing eval of Lengauer and Tarjan, without recursion. */
static uint32_t
eval(struct lt *t, uint32_t v)
{
	uint32_t n = 0, u;

	if (!t->ancestor[v])
		return v;
	for (u = v; t->ancestor[t->ancestor[u]]; u = t->ancestor[u])
		t->path[n++] = u;
	while (n--) {
		u = t->path[n];
		if (t->semi[t->label[t->ancestor[u]]] < t->semi[t->label[u]])
			t->label[u] = t->label[t->ancestor[u]];
		t->ancestor[u] = t->ancestor[t->ancestor[u]];
	}
	return t->label[v];
}

/* Order each node's children by retained size, largest first. */
static const uint64_t *sort_retained;

static int
by_retained(const void *a, const void *b)
{
	uint64_t x = sort_retained[*(const uint32_t *)a];
	uint64_t y = sort_retained[*(const uint32_t *)b];

	return x < y   ? 1
	       : x > y ? -1
	               : (*(const uint32_t *)a > *(const uint32_t *)b) -
	                         (*(const uint32_t *)a < *(const uint32_t *)b);
}

static void
build_tree(struct heap_dominators *dom, const struct heap_dump *d)
{
	size_t n = d->nobjects, i;
	uint32_t *fill;

	dom->first = xcalloc(n + 2, sizeof(uint32_t));
	dom->children = xmalloc_large(dom->reachable + 1, sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		uint32_t p = dom->idom[i];

		if (p != HEAP_NONE)
			dom->first[(p == HEAP_SUPER_ROOT ? n : p) + 1]++;
	}
	for (i = 0; i <= n; i++)
		dom->first[i + 1] += dom->first[i];
	fill = xmalloc_large(n + 1, sizeof(uint32_t));
	memcpy(fill, dom->first, (n + 1) * sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		uint32_t p = dom->idom[i];

		if (p != HEAP_NONE)
			dom->children[fill[p == HEAP_SUPER_ROOT ? n : p]++] =
			        (uint32_t)i;
	}
	free(fill);
	sort_retained = dom->retained;
	for (i = 0; i <= n; i++)
		if (dom->first[i + 1] - dom->first[i] > 1)
			qsort(dom->children + dom->first[i],
			      dom->first[i + 1] - dom->first[i],
			      sizeof(uint32_t), by_retained);
}

void
heap_dominators_compute(struct heap_dominators *dom, const struct heap_dump *d)
{
	size_t n = d->nobjects, cap = n + 2, sp = 0, depth_cap = 64;
	uint32_t *dfn = xcalloc(n + 1, sizeof(uint32_t));
	uint32_t *npred = xcalloc(cap + 1, sizeof(uint32_t));
	uint32_t *pred, *pos, r = 1, w;
	struct frame *stack = xmalloc_large(depth_cap, sizeof(*stack));
	struct lt t;

	memset(dom, 0, sizeof(*dom));
	t.vertex = xmalloc_large(cap, sizeof(uint32_t));
	t.parent = xcalloc(cap, sizeof(uint32_t));
	t.semi = xmalloc_large(cap, sizeof(uint32_t));
	t.label = xmalloc_large(cap, sizeof(uint32_t));
	t.ancestor = xcalloc(cap, sizeof(uint32_t));
	/* The search: preorder numbers, parents, and each vertex's count
	 * of predecessors (by its object until it is numbered). */
	t.vertex[1] = HEAP_NONE;
	t.semi[1] = t.label[1] = 1;
	stack[sp++] = (struct frame){1, 0};
	while (sp) {
		struct frame *f = &stack[sp - 1];
		uint32_t to = next_succ(d, t.vertex[f->v], &f->slot), v;

		if (to == HEAP_NONE) {
			sp--;
			continue;
		}
		if (dfn[to]) {
			npred[dfn[to]]++;
			continue;
		}
		v = dfn[to] = ++r;
		t.vertex[v] = to;
		t.parent[v] = f->v;
		t.semi[v] = t.label[v] = v;
		npred[v]++;
		if (sp == depth_cap) {
			depth_cap *= 2;
			stack = xreallocarray(stack, depth_cap, sizeof(*stack));
		}
		stack[sp++] = (struct frame){v, 0};
	}
	free(stack);
	/* The predecessors, by preorder number. */
	pos = xcalloc(r + 2, sizeof(uint32_t));
	for (w = 1; w <= r; w++)
		pos[w + 1] = pos[w] + npred[w];
	free(npred);
	pred = xmalloc_large(pos[r + 1] + 1, sizeof(uint32_t));
	for (w = 1; w <= r; w++) {
		uint32_t slot = 0, to;

		while ((to = next_succ(d, t.vertex[w], &slot)) != HEAP_NONE)
			pred[pos[dfn[to]]++] = w;
	}
	free(dfn);
	dfn = NULL;
	/* pos[v] is now the end of v's predecessors, the start of v+1's. */
	t.idom = xcalloc(r + 1, sizeof(uint32_t));
	t.bucket = xcalloc(r + 1, sizeof(uint32_t));
	t.bucket_next = xcalloc(r + 1, sizeof(uint32_t));
	t.path = xmalloc_large(r + 1, sizeof(uint32_t));
	for (w = r; w >= 2; w--) {
		uint32_t p = t.parent[w], k, v;

		for (k = w > 1 ? pos[w - 1] : 0; k < pos[w]; k++) {
			uint32_t u = eval(&t, pred[k]);

			if (t.semi[u] < t.semi[w])
				t.semi[w] = t.semi[u];
		}
		t.bucket_next[w] = t.bucket[t.semi[w]];
		t.bucket[t.semi[w]] = w;
		t.ancestor[w] = p;
		for (v = t.bucket[p]; v; v = t.bucket_next[v]) {
			uint32_t u = eval(&t, v);

			t.idom[v] = t.semi[u] < t.semi[v] ? u : p;
		}
		t.bucket[p] = 0;
	}
	for (w = 2; w <= r; w++)
		if (t.idom[w] != t.semi[w])
			t.idom[w] = t.idom[t.idom[w]];
	free(pred);
	free(pos);
	free(t.parent);
	free(t.semi);
	free(t.label);
	free(t.ancestor);
	free(t.bucket);
	free(t.bucket_next);
	free(t.path);
	free(dfn);
	/* Per object, and the retained sizes bottom-up. */
	dom->idom = xmalloc_large(n + 1, sizeof(uint32_t));
	memset(dom->idom, 0xFF, (n + 1) * sizeof(uint32_t));
	dom->retained = xcalloc(n + 1, sizeof(uint64_t));
	dom->reachable = r - 1;
	for (w = r; w >= 2; w--) {
		uint32_t o = t.vertex[w], up = t.idom[w];
		uint64_t s = heap_shallow(d, o);

		dom->reachable_bytes += s;
		dom->retained[o] += s;
		dom->idom[o] = up == 1 ? HEAP_SUPER_ROOT : t.vertex[up];
		if (up != 1)
			dom->retained[t.vertex[up]] += dom->retained[o];
	}
	free(t.vertex);
	free(t.idom);
	build_tree(dom, d);
}

void
heap_dominators_done(struct heap_dominators *dom)
{
	free(dom->idom);
	free(dom->retained);
	free(dom->first);
	free(dom->children);
	memset(dom, 0, sizeof(*dom));
}

size_t
heap_reachable(const struct heap_dump *d, uint64_t *bytes)
{
	size_t n = d->nobjects, sp = 0, count = 0, i;
	uint8_t *seen = xcalloc(n / 8 + 1, 1);
	uint32_t *stack = xmalloc_large(n + 1, sizeof(uint32_t));

	*bytes = 0;
	for (i = 0; i < d->nroots; i++) {
		uint32_t o = d->roots[i].object;

		if (seen[o / 8] & (1u << (o % 8)))
			continue;
		seen[o / 8] |= (uint8_t)(1u << (o % 8));
		stack[sp++] = o;
		while (sp) {
			uint32_t v = stack[--sp], slot = 0, to;

			count++;
			*bytes += heap_shallow(d, v);
			while ((to = heap_next_ref(d, v, &slot)) != HEAP_NONE) {
				if (seen[to / 8] & (1u << (to % 8)))
					continue;
				seen[to / 8] |= (uint8_t)(1u << (to % 8));
				stack[sp++] = to;
			}
		}
	}
	free(seen);
	free(stack);
	return count;
}
