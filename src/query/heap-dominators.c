/*
 * heap-dominators: dominators by semi-NCA (Georgiadis): Lengauer and
 * Tarjan's semidominators with path compression (the "simple" eval,
 * O(E log N)), then each immediate dominator as the nearest ancestor
 * in the dominator tree built so far, with no buckets; on the graph of
 * strong references (model/heap.c's heap_next_ref: no referent of a
 * java.lang.ref.Reference) under a super-root whose successors are the
 * roots.
 *
 * Vertices are numbered in depth-first preorder from 1 (the
 * super-root); every walk is iterative, so a chain of millions of
 * objects needs no deep C stack.  The references are decoded once into
 * compact arrays (model/heap-refs.h; from the dump's bytes through
 * heap_next_ref where they would not fit), which the search walks and
 * the predecessors are counted from in file order; they are released
 * before the semidominators are computed.  Shallow sizes are read in
 * file order too.
 */
#include "config.h"

#include "query/heap-dominators.h"

#include "model/heap-refs.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

/* A vertex of the search, and where its successors' walk is. */
struct frame {
	uint32_t v, slot, end;
};

/* The vertices' arrays, by preorder number: parent becomes the
 * immediate dominator. */
struct lt {
	uint32_t *vertex, *parent, *semi, *ancestor, *label;
	uint32_t *path; /* eval's stack */
	size_t path_cap;
};

/* A walk of the successors of object obj (HEAP_NONE for the
 * super-root), vertex v of the search: from refs where built, else
 * from the dump.  Where the walk is held (slot, end), so that each step
 * reads no more than the next successor. */
static inline struct frame
succ_walk(const struct heap_dump *d, const struct heap_refs *refs, uint32_t v,
          uint32_t obj)
{
	if (obj == HEAP_NONE)
		return (struct frame){v, 0, (uint32_t)d->nroots};
	if (refs->first)
		return (struct frame){v, refs->first[obj],
		                      refs->first[obj + 1]};
	return (struct frame){v, 0, 0};
}

/* The next successor of f's walk (of object obj), or HEAP_NONE. */
static inline uint32_t
succ_next(const struct heap_dump *d, const struct heap_refs *refs,
          struct frame *f, uint32_t obj)
{
	if (obj == HEAP_NONE)
		return f->slot < f->end ? d->roots[f->slot++].object
		                        : HEAP_NONE;
	if (refs->first)
		return f->slot < f->end ? refs->to[f->slot++] : HEAP_NONE;
	return heap_next_ref(d, obj, &f->slot);
}

/* Whether bit o of seen is set; set it. */
static inline bool
test_and_set(uint8_t *seen, uint32_t o)
{
	uint8_t bit = (uint8_t)(1u << (o % 8));

	if (seen[o / 8] & bit)
		return true;
	seen[o / 8] |= bit;
	return false;
}

/* Count object o's references as predecessors of what they reach,
 * turning each into the number of the vertex it reaches, so that the
 * pass that lists the predecessors need not look the numbers up again;
 * the numbers of the references further on are fetched ahead. */
static inline void
count_preds(struct heap_refs *refs, const uint32_t *dfn, uint32_t *npred,
            uint32_t o)
{
	uint32_t k;

	for (k = refs->first[o]; k < refs->first[o + 1]; k++) {
		if (k + 16 < refs->n)
			__builtin_prefetch(&dfn[refs->to[k + 16]]);
		refs->to[k] = dfn[refs->to[k]];
		npred[refs->to[k]]++;
	}
}

/* Fetch ahead where object o's first successors' own successors are,
 * which the search reads next. */
static inline void
prefetch_succs(const struct heap_refs *refs, uint32_t o)
{
	uint32_t k = refs->first[o], e = refs->first[o + 1];

	if (e - k > 8)
		e = k + 8;
	for (; k < e; k++)
		__builtin_prefetch(&refs->first[refs->to[k]]);
}

/* The path-compressing eval of Lengauer and Tarjan, without recursion:
 * the least semidominator on the forest's path from v up to (not
 * counting) its tree's root; labels hold semidominators, not
 * vertices, since only their least is asked for. */
static uint32_t
eval(struct lt *t, uint32_t v)
{
	size_t n = 0;
	uint32_t u;

	if (!t->ancestor[v])
		return t->label[v];
	for (u = v; t->ancestor[t->ancestor[u]]; u = t->ancestor[u]) {
		if (n == t->path_cap) {
			t->path_cap *= 2;
			t->path = xreallocarray(t->path, t->path_cap,
			                        sizeof(uint32_t));
		}
		t->path[n++] = u;
	}
	while (n--) {
		u = t->path[n];
		if (t->label[t->ancestor[u]] < t->label[u])
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

	dom->first = xcalloc_large(n + 2, sizeof(uint32_t));
	dom->children = xmalloc_large(dom->reachable + 1, sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		uint32_t p = dom->idom[i];

		if (p != HEAP_NONE)
			dom->first[(p == HEAP_SUPER_ROOT ? n : p) + 1]++;
	}
	for (i = 0; i <= n; i++)
		dom->first[i + 1] += dom->first[i];
	/* Each child at its parent's start, which then moves on to the
	 * next parent's start: first, shifted back by one, is the starts
	 * again (no array of fill positions). */
	for (i = 0; i < n; i++) {
		uint32_t p = dom->idom[i];

		if (p == HEAP_SUPER_ROOT)
			p = (uint32_t)n;
		if (p != HEAP_NONE)
			dom->children[dom->first[p]++] = (uint32_t)i;
	}
	memmove(dom->first + 1, dom->first, (n + 1) * sizeof(uint32_t));
	dom->first[0] = 0;
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
	uint32_t *dfn = xcalloc_large(n + 1, sizeof(uint32_t));
	uint32_t *npred = xcalloc_large(cap + 1, sizeof(uint32_t));
	uint32_t *pred, *pos, *root_vertex = NULL, r = 1, w, total;
	struct frame *stack = xmalloc_large(depth_cap, sizeof(*stack));
	struct heap_refs refs;
	struct lt t;
	size_t i, in_order;
	uint8_t *seen = NULL;

	memset(dom, 0, sizeof(*dom));
	if (heap_refs_build(&refs, d))
		seen = xcalloc(n / 8 + 1, 1);
	t.vertex = xmalloc_large(cap, sizeof(uint32_t));
	t.parent = xcalloc_large(cap, sizeof(uint32_t));
	/* The search: preorder numbers, parents, and each vertex's count
	 * of predecessors (by its object until it is numbered). */
	t.vertex[1] = HEAP_NONE;
	stack[sp++] = succ_walk(d, &refs, 1, HEAP_NONE);
	while (sp) {
		struct frame *f = &stack[sp - 1];
		/* The walk's object matters only to the super-root's and to
		 * a walk of the dump, not to one of refs. */
		uint32_t obj = f->v == 1 || !refs.first ? t.vertex[f->v] : 0;
		uint32_t to = succ_next(d, &refs, f, obj), v;

		if (to == HEAP_NONE) {
			sp--;
			continue;
		}
		if (seen) {
			/* The bits stay in the cache, where dfn would not;
			 * predecessors are counted after, in file order. */
			if (test_and_set(seen, to))
				continue;
		} else if (dfn[to]) {
			npred[dfn[to]]++;
			continue;
		}
		v = ++r;
		if (!seen)
			dfn[to] = v;
		t.vertex[v] = to;
		t.parent[v] = f->v;
		if (!seen)
			npred[v]++;
		if (sp == depth_cap) {
			depth_cap *= 2;
			stack = xreallocarray(stack, depth_cap, sizeof(*stack));
		}
		stack[sp++] = succ_walk(d, &refs, v, to);
		if (refs.first)
			prefetch_succs(&refs, to);
	}
	free(stack);
	free(seen);
	if (refs.first) {
		/* The numbers by object, written in one loop whose stores
		 * overlap, not one by one in the search. */
		for (w = 2; w <= r; w++)
			dfn[t.vertex[w]] = w;
		for (i = 0; i < d->nroots; i++)
			npred[dfn[d->roots[i].object]]++;
		for (i = 0; i < n; i++)
			if (dfn[i])
				count_preds(&refs, dfn, npred, (uint32_t)i);
		/* The roots' numbers kept, the numbers by object let go
		 * before the predecessors are listed. */
		root_vertex = xmalloc_large(d->nroots + 1, sizeof(uint32_t));
		for (i = 0; i < d->nroots; i++)
			root_vertex[i] = dfn[d->roots[i].object];
		free(dfn);
		dfn = NULL;
	}
	/* The predecessors, by preorder number: where each vertex's
	 * begin, in place of their counts. */
	pos = npred;
	for (w = 1, total = 0; w <= r; w++) {
		uint32_t c = pos[w];

		pos[w] = total;
		total += c;
	}
	pos[r + 1] = total;
	pred = xmalloc_large(pos[r + 1] + 1, sizeof(uint32_t));
	if (refs.first) {
		for (i = 0; i < d->nroots; i++)
			pred[pos[root_vertex[i]]++] = 1;
		free(root_vertex);
		/* By vertex (the order among a vertex's predecessors does
		 * not change its semidominator, their least): the places of
		 * the vertices' references fetched 8 ahead, the references
		 * 4 ahead. */
		for (w = 2; w <= r; w++) {
			uint32_t o = t.vertex[w], k;

			if (w + 8 <= r)
				__builtin_prefetch(
				        &refs.first[t.vertex[w + 8]]);
			if (w + 4 <= r)
				__builtin_prefetch(
				        &refs.to[refs.first[t.vertex[w + 4]]]);
			/* The references of a vertex are vertices now. */
			for (k = refs.first[o]; k < refs.first[o + 1]; k++)
				pred[pos[refs.to[k]]++] = w;
		}
	} else {
		for (w = 1; w <= r; w++) {
			struct frame f = succ_walk(d, &refs, w, t.vertex[w]);
			uint32_t to;

			while ((to = succ_next(d, &refs, &f, t.vertex[w])) !=
			       HEAP_NONE)
				pred[pos[dfn[to]]++] = w;
		}
	}
	heap_refs_done(&refs);
	free(dfn);
	/* The rest of the vertices' arrays, once the references are let
	 * go. */
	t.semi = xmalloc_large(r + 1, sizeof(uint32_t));
	t.label = xmalloc_large(r + 1, sizeof(uint32_t));
	t.ancestor = xcalloc_large(r + 1, sizeof(uint32_t));
	for (w = 1; w <= r; w++)
		t.semi[w] = t.label[w] = w;
	t.path_cap = 64;
	t.path = xmalloc_large(t.path_cap, sizeof(uint32_t));
	/* Semidominators, from the last vertex up; pos[v] is now the end
	 * of v's predecessors, the start of v+1's. */
	for (w = r; w >= 2; w--) {
		uint32_t k, least = t.semi[w];

		for (k = pos[w - 1]; k < pos[w]; k++) {
			uint32_t s = eval(&t, pred[k]);

			if (s < least)
				least = s;
		}
		t.semi[w] = t.label[w] = least;
		t.ancestor[w] = t.parent[w];
	}
	free(pred);
	free(pos);
	free(t.label);
	free(t.ancestor);
	free(t.path);
	/* Then the immediate dominators, from the first vertex down
	 * (Georgiadis's semi-NCA): the nearest ancestor of w's parent in
	 * the dominator tree whose number is at most w's semidominator. */
	for (w = 2; w <= r; w++) {
		uint32_t up = t.parent[w];

		while (up > t.semi[w])
			up = t.parent[up];
		t.parent[w] = up;
	}
	free(t.semi);
	/* Per object, and the retained sizes bottom-up. */
	dom->idom = xmalloc_large(n + 1, sizeof(uint32_t));
	memset(dom->idom, 0xFF, (n + 1) * sizeof(uint32_t));
	dom->retained = xmalloc_large(n + 1, sizeof(uint64_t));
	dom->reachable = r - 1;
	for (w = 2; w <= r; w++) {
		uint32_t up = t.parent[w];

		dom->idom[t.vertex[w]] =
		        up == 1 ? HEAP_SUPER_ROOT : t.vertex[up];
	}
	/* Shallow sizes in file order; then each subtree's, bottom-up. */
	for (i = 0, in_order = 0; i < n; i++) {
		uint64_t s = heap_shallow_in_order(d, (uint32_t)i, &in_order);

		if (dom->idom[i] == HEAP_NONE)
			s = 0;

		dom->retained[i] = s;
		dom->reachable_bytes += s;
	}
	for (w = r; w >= 2; w--)
		if (t.parent[w] != 1)
			dom->retained[t.vertex[t.parent[w]]] +=
			        dom->retained[t.vertex[w]];
	free(t.vertex);
	free(t.parent);
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

/* The walk of heap_reachable on references whose targets are still ids
 * (only those of the objects reached are looked up): the objects
 * reached, into seen and queue, and their count. */
static size_t
reach_by_ids(const struct heap_dump *d, const struct heap_refs *refs,
             uint8_t *seen, uint32_t *queue)
{
	size_t head = 0, tail = 0, i;

	for (i = 0; i < d->nroots; i++)
		if (!test_and_set(seen, d->roots[i].object))
			queue[tail++] = d->roots[i].object;
	while (head < tail) {
		uint32_t v = queue[head++], k, to;

		if (head + 16 < tail)
			__builtin_prefetch(&refs->first[queue[head + 16]]);
		if (head + 8 < tail)
			__builtin_prefetch(
			        &refs->to[refs->first[queue[head + 8]]]);
		for (k = refs->first[v]; k < refs->first[v + 1]; k++) {
			to = heap_index_lookup(&d->index, refs->to[k]);
			if (to != HEAP_NONE && !test_and_set(seen, to))
				queue[tail++] = to;
		}
	}
	return tail;
}

size_t
heap_reachable(const struct heap_dump *d, uint8_t **reached)
{
	size_t n = d->nobjects, head = 0, tail = 0, i;
	uint8_t *seen = xcalloc(n / 8 + 1, 1);
	uint32_t *queue = xmalloc_large(n + 1, sizeof(uint32_t));
	struct heap_refs refs;

	if (heap_refs_take_ids(&refs, d)) {
		tail = reach_by_ids(d, &refs, seen, queue);
		goto counted;
	}
	heap_refs_build(&refs, d);
	/* Breadth first, so that the objects next in the queue are known
	 * ahead: their references' places are fetched 16 ahead, the
	 * references 8 ahead. */
	for (i = 0; i < d->nroots; i++)
		if (!test_and_set(seen, d->roots[i].object))
			queue[tail++] = d->roots[i].object;
	while (head < tail) {
		uint32_t v = queue[head++], to;
		struct frame f = succ_walk(d, &refs, 0, v);

		if (refs.first) {
			if (head + 16 < tail)
				__builtin_prefetch(
				        &refs.first[queue[head + 16]]);
			if (head + 8 < tail)
				__builtin_prefetch(
				        &refs.to[refs.first[queue[head + 8]]]);
		}
		while ((to = succ_next(d, &refs, &f, v)) != HEAP_NONE)
			if (!test_and_set(seen, to))
				queue[tail++] = to;
	}
counted:
	heap_refs_done(&refs);
	free(queue);
	*reached = seen;
	return tail;
}
