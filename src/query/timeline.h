/*
 * timeline: an index over a calltree's calls on one clock that answers,
 * per thread, "which call dominates the time slice [t0, t1)" without
 * touching every call in it, and where the calls of one method are.
 *
 * The dominant call of a slice is found by descending from the thread's
 * top level: among the calls at the next level down, take the one that
 * covers most of the slice (the earliest on a tie), and go into it while
 * it covers more of the slice than the current call's own time there
 * (at the top level, the time no call covers).  A slice mostly idle is
 * CALL_NONE.  This is what a pixel of Traceview's timeline would show
 * (the innermost call), taken as a majority vote level by level.
 *
 * The index points into the calltree, which must outlive it; it owns
 * everything else.
 */
#ifndef TRACETUI_TIMELINE_H
#define TRACETUI_TIMELINE_H

#include "model/calltree.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct timeline;

/* Build the index of tree's calls on clock k (linear in the calls). */
struct timeline *timeline_new(const struct calltree *tree, enum clock_index k);
/* Build the index of other's calltree on clock k, sharing other's
 * method lists and depth blocks, which do not depend on the clock: its
 * own parts are under half of a whole index.  The two are freed in any
 * order, but other must not be freed while this runs. */
struct timeline *timeline_new_sharing(const struct timeline *other,
                                      enum clock_index k);
/* Release it (what it shares, with the last index sharing it). */
void timeline_free(struct timeline *tl);
/* The clock the index reads. */
enum clock_index timeline_clock(const struct timeline *tl);
/* The calltree the index reads. */
const struct calltree *timeline_tree(const struct timeline *tl);
/* Bytes the index holds beyond the calltree, what it shares included. */
size_t timeline_memory(const struct timeline *tl);
/* Bytes of those that it does not share with another index. */
size_t timeline_memory_own(const struct timeline *tl);

/* The call dominating [t0, t1) on thread t, or CALL_NONE (idle). */
uint32_t timeline_dominant(const struct timeline *tl, size_t t, uint64_t t0,
                           uint64_t t1);
/* out[i] = the dominant call of [t0 + i * width, t0 + (i + 1) * width)
 * on thread t, for i < n. */
void timeline_row(const struct timeline *tl, size_t t, uint64_t t0,
                  uint64_t width, size_t n, uint32_t *out);
/* The innermost call of thread t open at time at, or CALL_NONE. */
uint32_t timeline_call_at(const struct timeline *tl, size_t t, uint64_t at);
/* Time thread t spends inside any call. */
uint64_t timeline_busy(const struct timeline *tl, size_t t);

/*
 * The calls of method m on thread t that are not inside another call of
 * m, sorted by start; they never overlap.  Returns how many, with the
 * array in *calls (valid while the index lives).
 */
size_t timeline_method_calls(const struct timeline *tl, uint32_t m, size_t t,
                             const uint32_t **calls);
/* The longest of those calls (the earliest on a tie), or CALL_NONE. */
uint32_t timeline_method_longest(const struct timeline *tl, uint32_t m,
                                 size_t t);
/* The first of those calls starting after `after`, or CALL_NONE. */
uint32_t timeline_method_next(const struct timeline *tl, uint32_t m, size_t t,
                              uint64_t after);
/* The last of those calls starting before `before`, or CALL_NONE. */
uint32_t timeline_method_prev(const struct timeline *tl, uint32_t m, size_t t,
                              uint64_t before);
/* True when one of those calls overlaps [t0, t1) or starts in it. */
bool timeline_method_overlaps(const struct timeline *tl, uint32_t m, size_t t,
                              uint64_t t0, uint64_t t1);

/*
 * Moves in the call chart, on thread t (which holds call c), whatever
 * the clock: the calls nested in c are [c + 1, timeline_subtree_end);
 * the next and previous calls at c's depth, across callers, and c's
 * first callee are CALL_NONE when there is none.  Blocks of calls'
 * least and greatest depths let the searches skip what cannot match.
 */
size_t timeline_subtree_end(const struct timeline *tl, size_t t, uint32_t c);
/* The first call after c's descendants as deep as c, or CALL_NONE. */
uint32_t timeline_next_at_depth(const struct timeline *tl, size_t t,
                                uint32_t c);
/* The last call before c as deep as c, or CALL_NONE. */
uint32_t timeline_prev_at_depth(const struct timeline *tl, size_t t,
                                uint32_t c);
/* The first call of thread t at depth d, or CALL_NONE. */
uint32_t timeline_first_at_depth(const struct timeline *tl, size_t t,
                                 uint32_t d);
/* The last call of thread t at depth d, or CALL_NONE. */
uint32_t timeline_last_at_depth(const struct timeline *tl, size_t t,
                                uint32_t d);
/* The first call of thread t starting at or after at, or CALL_NONE. */
uint32_t timeline_first_from(const struct timeline *tl, size_t t, uint64_t at);
/* Call c's exclusive time on the index's clock. */
uint64_t timeline_call_excl(const struct timeline *tl, uint32_t c);
/* c's first callee, or CALL_NONE. */
uint32_t timeline_first_callee(const struct timeline *tl, size_t t, uint32_t c);
/* True when a call nested in c (with c CALL_NONE: any call of thread t)
 * overlaps [a, b) or, of no length, starts in it; end is c's
 * timeline_subtree_end (unused without c). */
bool timeline_nested_overlaps(const struct timeline *tl, size_t t, uint32_t c,
                              size_t end, uint64_t a, uint64_t b);

#endif
