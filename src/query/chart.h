/*
 * chart: the call chart, answered from the timeline index.  Per thread,
 * row d shows the calls at depth d on the index's time axis, one cell per
 * slice of time; and the calls of chosen methods are stepped through in
 * time order across the threads of a scope.
 *
 * A slice's column of cells follows the slice's dominant call
 * (query/timeline.h): row d shows its caller at depth d.  Where a call of
 * that column covers less than half of the slice, and below the dominant
 * call where calls nested in it overlap the slice, the row shows
 * CHART_MARK instead, and the rows under it nothing: calls narrower than
 * a cell never vanish, they leave a mark.  Nothing walks the calls of a
 * slice: a column costs one descent and the climbs that the previous
 * column did not share.
 */
#ifndef TRACETUI_CHART_H
#define TRACETUI_CHART_H

#include "model/scope.h"
#include "query/timeline.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A cell with calls narrower than half of it. */
#define CHART_MARK (CALL_NONE - 1)

/*
 * Rows [d0, d0 + rows) of thread t's chart over the n slices of `width`
 * from t0 into out: out[r * n + i] is the call at depth d0 + r shown in
 * slice i, CHART_MARK or CALL_NONE.  Returns the rows the whole chart of
 * those slices needs (the deepest row with something in it, plus one).
 */
size_t chart_rows(const struct timeline *tl, size_t t, uint64_t t0,
                  uint64_t width, size_t n, size_t d0, size_t rows,
                  uint32_t *out);

/* A call with its place in time order across threads: by start, then
 * thread, then call. */
struct chart_hit {
	uint64_t start;
	uint32_t thread;
	uint32_t call;
};

/*
 * From *at, the next (dir > 0) or previous (dir < 0) call, in that order,
 * of a method m with match[m] on a thread of scope (calls nested in a
 * call of their own method left out, as timeline_method_calls does).
 * False, with *at unchanged, when there is none.
 */
bool chart_step(const struct timeline *tl, const struct scope *scope,
                const bool *match, int dir, struct chart_hit *at);
/* The longest call of method m on the threads of scope (the earliest
 * on a tie) into *out; false when there is none. */
bool chart_longest(const struct timeline *tl, const struct scope *scope,
                   uint32_t m, struct chart_hit *out);

#endif
