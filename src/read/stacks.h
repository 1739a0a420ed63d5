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

/* One weighted stack. */
struct trace_stack {
	uint32_t tid;
	const uint32_t *frames; /* method indexes, root first */
	size_t n;               /* at least one frame */
	uint64_t weight;
	uint64_t order; /* ties between equal stacks: the lower first */
};

/* The sink's method id of method index m. */
static inline uint64_t
trace_stack_method_id(uint32_t m)
{
	return ((uint64_t)m + 1) << 2;
}

/*
 * Sort stacks[0..n) and hand them to sink as events on the clock `clock`
 * (TRACE_CLOCK_WALL or TRACE_CLOCK_CPU).  Times saturate at UINT64_MAX.
 */
void trace_stacks_emit(struct trace_stack *stacks, size_t n,
                       enum trace_clock clock, const struct trace_sink *sink);

#endif
