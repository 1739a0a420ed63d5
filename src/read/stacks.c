/*
 * stacks: one sort, then one pass that keeps the path of open frames and
 * closes only the frames where the next stack leaves it.  Stacks made of
 * parts are compared and laid out a part at a time where they share one,
 * so the work is that of the parts (the input), not of the frames they
 * stand for, but for where two stacks part ways.
 */
#include "config.h"

#include "read/stacks.h"

#include "util/alloc.h"
#include "util/sort.h"

#include <stdlib.h>

/* A place among a stack's frames: part `part`, its method `at`. */
struct walk {
	const struct trace_stack *st;
	size_t part, at;
};

static size_t
part_len(const struct trace_stack *st, size_t part)
{
	const struct trace_stack_parts *p = st->parts;
	uint32_t f = st->frames[part];

	return p ? p->first[f + 1] - p->first[f] : 1;
}

static uint32_t
walk_method(const struct walk *w)
{
	const struct trace_stack_parts *p = w->st->parts;
	uint32_t f = w->st->frames[w->part];

	return p ? p->methods[p->first[f] + w->at] : f;
}

static bool
walk_end(const struct walk *w)
{
	return w->part >= w->st->n;
}

static void
walk_next(struct walk *w)
{
	if (++w->at >= part_len(w->st, w->part)) {
		w->part++;
		w->at = 0;
	}
}

/* Walk a and b along their common frames: how many they share, a and b
 * left at the first that differ. */
static size_t
walk_common(struct walk *a, struct walk *b)
{
	size_t common = 0;

	while (!walk_end(a) && !walk_end(b)) {
		if (!a->at && !b->at && a->st->parts == b->st->parts &&
		    a->st->frames[a->part] == b->st->frames[b->part]) {
			common += part_len(a->st, a->part);
			a->part++;
			b->part++;
			continue;
		}
		if (walk_method(a) != walk_method(b))
			break;
		common++;
		walk_next(a);
		walk_next(b);
	}
	return common;
}

size_t
trace_stack_depth(const struct trace_stack *st)
{
	size_t d = 0, i;

	for (i = 0; i < st->n; i++)
		d += part_len(st, i);
	return d;
}

static int
stack_cmp(const void *pa, const void *pb)
{
	const struct trace_stack *a = pa, *b = pb;
	struct walk x = {a, 0, 0}, y = {b, 0, 0};

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	walk_common(&x, &y);
	if (!walk_end(&x) && !walk_end(&y))
		return walk_method(&x) < walk_method(&y) ? -1 : 1;
	if (walk_end(&x) != walk_end(&y))
		return walk_end(&x) ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* The frames st shares with prev (NULL or another thread's: none). */
static size_t
shared(const struct trace_stack *prev, const struct trace_stack *st)
{
	struct walk x = {prev, 0, 0}, y = {st, 0, 0};

	if (!prev || prev->tid != st->tid)
		return 0;
	return walk_common(&x, &y);
}

size_t
trace_stacks_sort(struct trace_stack *stacks, size_t n)
{
	size_t calls = 0, i;

	sort_items(stacks, n, sizeof(*stacks), stack_cmp);
	for (i = 0; i < n; i++) {
		size_t d = trace_stack_depth(&stacks[i]);
		size_t c = shared(i ? &stacks[i - 1] : NULL, &stacks[i]);

		if (d - c > SIZE_MAX - calls)
			return SIZE_MAX;
		calls += d - c;
	}
	return calls;
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
trace_stacks_emit(const struct trace_stack *stacks, size_t n,
                  enum trace_clock clock, const struct trace_sink *sink)
{
	uint32_t *open = NULL;
	size_t cap = 0, depth = 0, i;
	uint32_t tid = 0;
	uint64_t t = 0;

	if (!sink->event || !n)
		return;
	for (i = 0; i < n; i++) {
		const struct trace_stack *st = &stacks[i];
		struct walk x = {i ? &stacks[i - 1] : NULL, 0, 0},
		            y = {st, 0, 0};
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
		/* The frames still open, y at the first that is not. */
		if (depth)
			common = walk_common(&x, &y);
		while (depth > common) {
			depth--;
			event(sink, clock, tid, open[depth], TRACE_EXIT, t);
		}
		for (; !walk_end(&y); walk_next(&y), depth++) {
			UTIL_GROW(open, cap, depth + 1);
			open[depth] = walk_method(&y);
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
