/*
 * heap-dominators: which objects strong references keep alive, and
 * what each keeps: the dominator tree of a heap dump's objects under a
 * super-root whose children are every root, and retained sizes.
 */
#ifndef TRACETUI_QUERY_HEAP_DOMINATORS_H
#define TRACETUI_QUERY_HEAP_DOMINATORS_H

#include "model/heap.h"

#include <stddef.h>
#include <stdint.h>

/* The super-root, as an object's dominator. */
#define HEAP_SUPER_ROOT (HEAP_NONE - 1)

struct heap_dominators {
	/* Per object: its immediate dominator (HEAP_SUPER_ROOT for one
	 * only the super-root dominates), HEAP_NONE when no strong path
	 * from a root reaches it. */
	uint32_t *idom;
	/* Per object: the shallow sizes of its dominator subtree (0 when
	 * unreachable). */
	uint64_t *retained;
	size_t reachable;         /* objects reached */
	uint64_t reachable_bytes; /* their shallow sizes */
	/* The tree: the children of object i are
	 * children[first[i] .. first[i + 1]), the super-root's at
	 * first[n], each node's by retained size, largest first. */
	uint32_t *first, *children;
};

/* Compute d's dominators (semi-NCA, after Lengauer and Tarjan) and retained
 * sizes into dom. */
void heap_dominators_compute(struct heap_dominators *dom,
                             const struct heap_dump *d);
/* How many objects strong references reach from the roots, and which
 * in *reached (bit i % 8 of byte i / 8 for object i; the caller frees
 * it): one walk, without the dominators. */
size_t heap_reachable(const struct heap_dump *d, uint8_t **reached);
/* Release dom. */
void heap_dominators_done(struct heap_dominators *dom);

#endif
