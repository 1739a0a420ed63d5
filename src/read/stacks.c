/*
 * stacks: one sort, then one pass that keeps the path of open frames and
 * closes only the frames where the next stack leaves it.
 */
#include "config.h"

#include "read/stacks.h"

#include "util/alloc.h"
#include "util/sort.h"

#include <stdlib.h>

static int
stack_cmp(const void *pa, const void *pb)
{
	const struct trace_stack *a = pa, *b = pb;
	size_t i;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	for (i = 0; i < a->n && i < b->n; i++)
		if (a->frames[i] != b->frames[i])
			return a->frames[i] < b->frames[i] ? -1 : 1;
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static void
event(const struct trace_sink *s, enum trace_clock clock, uint32_t tid,
      uint32_t m, enum trace_action action, uint64_t t)
{
	s->event(s->ctx, tid, trace_stack_method_id(m), action,
	         clock == TRACE_CLOCK_CPU ? t : 0,
	         clock == TRACE_CLOCK_CPU ? 0 : t);
}

void
trace_stacks_emit(struct trace_stack *stacks, size_t n, enum trace_clock clock,
                  const struct trace_sink *sink)
{
	uint32_t *open = NULL;
	size_t cap = 0, depth = 0, i;
	uint32_t tid = 0;
	uint64_t t = 0;

	if (!sink->event || !n)
		return;
	sort_items(stacks, n, sizeof(*stacks), stack_cmp);
	for (i = 0; i < n; i++) {
		const struct trace_stack *st = &stacks[i];
		size_t common = 0;

		if (i && st->tid != tid) {
			while (depth) {
				depth--;
				event(sink, clock, tid, open[depth], TRACE_EXIT,
				      t);
			}
			t = 0;
		}
		tid = st->tid;
		while (common < depth && common < st->n &&
		       open[common] == st->frames[common])
			common++;
		while (depth > common) {
			depth--;
			event(sink, clock, tid, open[depth], TRACE_EXIT, t);
		}
		UTIL_GROW(open, cap, st->n);
		for (; depth < st->n; depth++) {
			open[depth] = st->frames[depth];
			event(sink, clock, tid, open[depth], TRACE_ENTER, t);
		}
		t = t > UINT64_MAX - st->weight ? UINT64_MAX : t + st->weight;
	}
	while (depth) {
		depth--;
		event(sink, clock, tid, open[depth], TRACE_EXIT, t);
	}
	free(open);
}
