/*
 * chart: a column of the chart is the dominant call's stack, climbed
 * from the dominant call until it meets the previous column's stack
 * (neighbouring slices mostly share their callers), then cut at the
 * first call covering less than half of the slice.  Stepping across
 * threads binary-searches each matching method's calls on each thread of
 * the scope: cost in methods times threads, never in calls.
 */
#include "config.h"

#include "query/chart.h"

#include "util/alloc.h"

#include <stdlib.h>

/* How much of [a, b) call c covers on the index's clock. */
static uint64_t
cover(const struct calltree *tree, enum clock_index k, uint32_t c, uint64_t a,
      uint64_t b)
{
	uint64_t s = calltree_start(tree, c, k), e = calltree_end(tree, c, k);

	if (s < a)
		s = a;
	if (e > b)
		e = b;
	return e > s ? e - s : 0;
}

size_t
chart_rows(const struct timeline *tl, size_t t, uint64_t t0, uint64_t width,
           size_t n, size_t d0, size_t rows, uint32_t *out)
{
	const struct calltree *tree = timeline_tree(tl);
	enum clock_index k = timeline_clock(tl);
	uint32_t *dom = xcalloc(n + 1, sizeof(*dom)), *chain = NULL;
	size_t cap = 0, len = 0, need = 0, i, r, end = 0;
	uint32_t ended = CALL_NONE; /* the call whose subtree ends at end */

	timeline_row(tl, t, t0, width, n, dom);
	for (i = 0; i < n; i++) {
		uint64_t a = t0 + i * width, b = a + width;
		uint32_t c = dom[i], g;
		size_t top = 0, mark = SIZE_MAX, d;

		/* The stack of c, sharing what the last column climbed. */
		if (c != CALL_NONE) {
			top = (size_t)calltree_depth(tree, c) + 1;
			UTIL_GROW(chain, cap, top);
			for (g = c, d = top; d-- > 0;
			     g = calltree_parent(tree, g)) {
				if (d < len && chain[d] == g)
					break;
				chain[d] = g;
			}
		}
		len = top;
		for (d = 0; d < top; d++) {
			if (2 * cover(tree, k, chain[d], a, b) < width) {
				mark = d;
				break;
			}
		}
		if (mark == SIZE_MAX && c != ended && c != CALL_NONE) {
			/* Neighbouring slices often stop at the same call. */
			end = timeline_subtree_end(tl, t, c);
			ended = c;
		}
		if (mark == SIZE_MAX &&
		    timeline_nested_overlaps(tl, t, c, end, a, b))
			mark = top;
		if (mark != SIZE_MAX)
			top = mark + 1;
		if (top > need)
			need = top;
		for (r = 0; r < rows; r++) {
			d = d0 + r;
			out[r * n + i] = d == mark ? CHART_MARK
			                 : d < top ? chain[d]
			                           : CALL_NONE;
		}
	}
	free(chain);
	free(dom);
	return need;
}

/* Is call x of thread tx before (start s, thread t, call c)? */
static int
hit_cmp(uint64_t sx, uint32_t tx, uint32_t x, const struct chart_hit *h)
{
	if (sx != h->start)
		return sx < h->start ? -1 : 1;
	if (tx != h->thread)
		return tx < h->thread ? -1 : 1;
	return x < h->call ? -1 : x > h->call;
}

/* How many of the n calls (of thread t, in order) come before *h, or
 * (with or_equal) not after it. */
static size_t
calls_before_hit(const struct calltree *tree, enum clock_index k,
                 const uint32_t *calls, size_t n, uint32_t t,
                 const struct chart_hit *h, bool or_equal)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = hit_cmp(calltree_start(tree, calls[mid], k), t,
		                  calls[mid], h);

		if (cmp < 0 || (or_equal && cmp == 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool
chart_step(const struct timeline *tl, const struct scope *scope,
           const bool *match, int dir, struct chart_hit *at)
{
	const struct calltree *tree = timeline_tree(tl);
	enum clock_index k = timeline_clock(tl);
	struct chart_hit best = {0};
	bool found = false;
	size_t m, t;

	for (m = 0; m < tree->nmethods; m++) {
		if (!match[m])
			continue;
		for (t = 0; t < tree->nthreads; t++) {
			const uint32_t *calls;
			size_t n, i;
			uint32_t x;
			uint64_t s;

			if (!scope_has(scope, t))
				continue;
			n = timeline_method_calls(tl, (uint32_t)m, t, &calls);
			if (!n)
				continue;
			i = calls_before_hit(tree, k, calls, n, (uint32_t)t, at,
			                     dir > 0);
			if (dir > 0 ? i >= n : i == 0)
				continue;
			x = calls[dir > 0 ? i : i - 1];
			s = calltree_start(tree, x, k);
			if (!found ||
			    (dir > 0 ? hit_cmp(s, (uint32_t)t, x, &best) < 0
			             : hit_cmp(s, (uint32_t)t, x, &best) > 0)) {
				best.start = s;
				best.thread = (uint32_t)t;
				best.call = x;
				found = true;
			}
		}
	}
	if (found)
		*at = best;
	return found;
}

bool
chart_longest(const struct timeline *tl, const struct scope *scope, uint32_t m,
              struct chart_hit *out)
{
	const struct calltree *tree = timeline_tree(tl);
	enum clock_index k = timeline_clock(tl);
	uint64_t best = 0;
	bool found = false;
	size_t t;

	for (t = 0; t < tree->nthreads; t++) {
		uint32_t x;
		uint64_t d, s;

		if (!scope_has(scope, t))
			continue;
		x = timeline_method_longest(tl, m, t);
		if (x == CALL_NONE)
			continue;
		d = calltree_duration(tree, x, k);
		s = calltree_start(tree, x, k);
		if (!found || d > best || (d == best && s < out->start)) {
			best = d;
			out->start = s;
			out->thread = (uint32_t)t;
			out->call = x;
			found = true;
		}
	}
	return found;
}
