/*
 * scope: which threads a view or command looks at.
 *
 * A scope is a set of thread indexes of one calltree; it owns its array.
 */
#ifndef TRACETUI_SCOPE_H
#define TRACETUI_SCOPE_H

#include "model/calltree.h"

#include <stdbool.h>
#include <stddef.h>

/* A time range [start, end) on one clock, microseconds. */
struct time_range {
	bool on;
	enum clock_index clock; /* wall when the trace has it */
	uint64_t start, end;
};

struct scope {
	bool *on; /* on[t]: thread t is in the scope */
	size_t nthreads;
	size_t count;            /* threads in the scope */
	struct time_range range; /* off: the whole trace */
};

/* A scope of every thread of tree. */
void scope_init_all(struct scope *scope, const struct calltree *tree);
/* A scope of no thread of tree. */
void scope_init_none(struct scope *scope, const struct calltree *tree);
/* Put thread t in the scope. */
void scope_add(struct scope *scope, size_t t);
/* True when thread t is in the scope. */
static inline bool
scope_has(const struct scope *scope, size_t t)
{
	return scope->on[t];
}
/* True when every thread is in the scope. */
static inline bool
scope_is_all(const struct scope *scope)
{
	return scope->count == scope->nthreads;
}
/* Release the array. */
void scope_done(struct scope *scope);
/* Whether a and b hold the same threads and the same range. */
bool scope_equal(const struct scope *a, const struct scope *b);
/* Make *dst (done or zeroed before) a copy of src with its own set. */
void scope_copy(struct scope *dst, const struct scope *src);

/*
 * Add the threads that sel names: "all", a thread name, or a thread id.
 * False when nothing matches.
 */
bool scope_select(struct scope *scope, const struct calltree *tree,
                  const char *sel);

/*
 * Sum over the scope's threads of their traced time on clock k: each
 * thread's span (PRODUCT.md section 2); within a range, the part of it
 * inside the range (on the other clock, interpolated as scope_clip does).
 * In a focused model (tree->focused) the focused calls are the whole: a
 * thread's traced time is its outermost calls' time, cut to the range;
 * so too in a simpleperf recording's (header.sample_weight), its
 * samples' time, the gaps between them nobody's.
 * Every total that a command or view shows is this one.
 */
uint64_t scope_total(const struct scope *scope, const struct calltree *tree,
                     enum clock_index k);

/* The threads whose times scope_total sums: those of the scope, but in a
 * focused model only those with a call. */
size_t scope_thread_count(const struct scope *scope,
                          const struct calltree *tree);

/* Thread t's part of scope_total. */
uint64_t scope_thread_total(const struct scope *scope,
                            const struct calltree *tree, size_t t,
                            enum clock_index k);

/*
 * The calls of one thread that a scope's range touches: the calls open at
 * the range's start (outermost first, a stack: the caller of a call in
 * the range is one even where it ends right at the start), then
 * calls[first, end), all in pre-order.  Without a range: the thread's
 * calls.  A parent of a listed call is always listed before it.
 */
struct scope_span {
	uint32_t *open;
	size_t nopen, cap;
	size_t first, end;
	/* Each clock's reading at the range's start and end on this thread,
	 * interpolated between the events around them. */
	uint64_t at_start[CLOCK_COUNT], at_end[CLOCK_COUNT];
};

/* Find the span of thread t (sp is reused; zero it before first use). */
void scope_span_of(struct scope_span *sp, const struct scope *scope,
                   const struct calltree *tree, size_t t);
/* Release the span's array. */
void scope_span_done(struct scope_span *sp);
/*
 * Durations of call c (listed in span) inside the scope's range: the call
 * cut at the range's edges, where the other clock's reading is
 * interpolated between the thread's events around the edge (so a call
 * never lasts longer than its parent); without a range, its durations.
 */
void scope_clip(const struct scope *scope, const struct calltree *tree,
                const struct scope_span *span, size_t c,
                uint64_t dur[CLOCK_COUNT]);
/* Parse "START..END" (numbers with us, ms or s; bare numbers are ms) into
 * range on clock k; false when malformed or empty. */
bool scope_parse_range(const char *text, enum clock_index k,
                       struct time_range *range);

#endif
