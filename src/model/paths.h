/*
 * paths: one thread's call paths (model/calltree.h, path_node) summed by
 * the sums pass as its calls open and close, so that the views of call
 * paths need no calls.
 *
 * The pass tells it each frame's stack index as it opens and its
 * durations as it closes; an exit that meets no frame (an orphan, a call
 * from the thread's first event) takes the top-level paths so far under
 * it.  The nodes come out in the order query/callpath.h's walk of the
 * model's calls makes them, so both trees are the same node for node;
 * tests/model-equal compares them on every fixture, generated and real
 * trace.
 */
#ifndef TRACETUI_PATHS_H
#define TRACETUI_PATHS_H

#include "model/calltree.h"
#include "util/map.h"

#include <stdint.h>
#include <stdlib.h>

struct path_build {
	struct path_node *nodes;
	size_t count, cap;
	struct util_map children; /* parent node << 32 | method -> node */
	/* By node: its last child (for appending), and the guesses of
	 * paths_open: the child first opened under it last time, and the
	 * sibling opened after it last time. */
	uint32_t *last_child, *first_seen, *next_seen;
	size_t seen_cap;
	/* By stack index: the node of the frame open there, and the node of
	 * the last call closed there since the frame below opened. */
	uint32_t *open, *closed;
	size_t stack_cap;
	/* Orphans' nodes, in the order made: each one's call began before
	 * every call so far, so they come first when the nodes are put in
	 * order (paths_finish). */
	uint32_t *orphans;
	size_t norphans, orphans_cap;
};

/* An empty set of paths, its root made. */
void paths_init(struct path_build *p);
/* Release what p holds. */
void paths_done(struct path_build *p);
/* The node of method m under node parent, made (last of its siblings)
 * when new. */
uint32_t paths_child(struct path_build *p, uint32_t parent, uint32_t m);
/* Room for frames at stack indexes below depth + 2. */
void paths_reserve(struct path_build *p, size_t depth);

/* A frame of method m opens at stack index d (frames below it open). */
static inline void
paths_open(struct path_build *p, size_t d, uint32_t m)
{
	uint32_t parent, prev, node;

	if (__builtin_expect(d + 2 > p->stack_cap, 0))
		paths_reserve(p, d);
	parent = d ? p->open[d - 1] : 0;
	prev = p->closed[d];
	node = prev != CALL_NONE ? p->next_seen[prev] : p->first_seen[parent];
	if (node == CALL_NONE || p->nodes[node].parent != parent ||
	    p->nodes[node].method != m) {
		node = paths_child(p, parent, m);
		if (prev != CALL_NONE)
			p->next_seen[prev] = node;
		else
			p->first_seen[parent] = node;
	}
	p->open[d] = node;
	p->closed[d + 1] = CALL_NONE;
}

/* The frame at stack index d closes, having lasted dur. */
static inline void
paths_close(struct path_build *p, size_t d, const uint64_t *dur)
{
	struct path_node *n = &p->nodes[p->open[d]];
	int k;

	n->calls++;
	for (k = 0; k < CLOCK_COUNT; k++)
		n->incl[k] += dur[k];
	p->closed[d] = p->open[d];
}

/* An orphan of method m, lasting dur, with no frame open: the paths so
 * far go under it. */
void paths_orphan(struct path_build *p, uint32_t m, const uint64_t *dur);
/* Add to `into`, whose frames below stack index depth are open, the
 * paths `from` summed after them (from's nodes under its first `depth`
 * open frames' are into's open frames' nodes); from must have no
 * orphans.  Then into's frames from stack index depth up to top are
 * from's. */
void paths_add(struct path_build *into, const struct path_build *from,
               size_t depth, size_t top);
/* Hand the nodes, put in order, to *nodes and *count; p is left empty. */
void paths_finish(struct path_build *p, struct path_node **nodes,
                  size_t *count);

#endif
