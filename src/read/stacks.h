/*
 * stacks: weighted stacks (pprof's samples, hprof's traces) handed to a
 * sink as the enter and exit events of calls laid end to end on one
 * clock.
 *
 * Per thread, the stacks are sorted by their frames, root first, and laid
 * out from time 0: a stack's frames are entered at its start and left
 * `weight` later, frames it shares with the previous stack staying open.
 * So a method's exclusive time is the weight of the stacks it tops, its
 * inclusive time (recursion counted once) the weight of the stacks
 * holding it, and identical stacks merge into one call path.
 */
#ifndef TRACETUI_TRACE_STACKS_H
#define TRACETUI_TRACE_STACKS_H

#include "read/sink.h"

#include <stddef.h>
#include <stdint.h>

/* What the frames of stacks with parts stand for: part p is the methods
 * methods[first[p], first[p + 1]), root first, at least one.  A part is
 * shared by every stack that uses it (pprof's location with its inlined
 * lines), so the stacks take memory as the input does. */
struct trace_stack_parts {
	const uint32_t *methods;
	const size_t *first;
};

/* One weighted stack. */
struct trace_stack {
	uint32_t tid;
	/* Method indexes, root first; with parts, part indexes. */
	const uint32_t *frames;
	size_t n;                              /* at least one frame */
	const struct trace_stack_parts *parts; /* NULL: frames are methods */
	uint64_t weight;
	uint64_t order; /* ties between equal stacks: the lower first */
};

/* The sink's method id of method index m. */
static inline uint64_t
trace_stack_method_id(uint32_t m)
{
	return ((uint64_t)m + 1) << 2;
}

/* How many methods deep the stack is, its parts laid out. */
size_t trace_stack_depth(const struct trace_stack *st);

/*
 * Sort stacks[0..n) as trace_stacks_emit lays them out, and return how
 * many calls that makes (frames not shared with the stack before),
 * SIZE_MAX past it; a reader bounds it before emitting.
 */
size_t trace_stacks_sort(struct trace_stack *stacks, size_t n);

/*
 * Hand the stacks, sorted by trace_stacks_sort, to sink as events on the
 * clock `clock` (TRACE_CLOCK_WALL or TRACE_CLOCK_CPU).  Times saturate at
 * UINT64_MAX.
 */
void trace_stacks_emit(const struct trace_stack *stacks, size_t n,
                       enum trace_clock clock, const struct trace_sink *sink);

#endif
