/*
 * heap-flame: retained size by dominator path, merged by class: a node
 * per class path from the super-root down the dominator tree, for the
 * folded stacks and the flame graph of a heap dump.  Objects of one
 * class one below the other (a linked list) make one node.
 */
#ifndef TRACETUI_QUERY_HEAP_FLAME_H
#define TRACETUI_QUERY_HEAP_FLAME_H

#include "model/heap.h"
#include "query/heap-dominators.h"

#include <stddef.h>
#include <stdint.h>

struct heap_flame_node {
	const char *name; /* the class (a class object's own class) */
	uint32_t parent, first_child, next_sibling; /* HEAP_NONE: none */
	uint32_t depth;
	/* The retained sizes of the dominator tree's nodes on this path,
	 * and what of them no shown node below holds. */
	uint64_t total, self;
};

struct heap_flame {
	struct heap_flame_node *nodes; /* nodes[0]: the super-root */
	size_t n;
};

/* Merge d's dominator tree by class path, leaving out nodes retaining
 * less than floor bytes (their bytes stay in their parent's self);
 * children by total, largest first. */
void heap_flame_build(struct heap_flame *f, const struct heap_dump *d,
                      const struct heap_dominators *dom, uint64_t floor);
/* Release f. */
void heap_flame_done(struct heap_flame *f);

#endif
