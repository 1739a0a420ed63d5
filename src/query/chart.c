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
#include <string.h>

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

/*
 * A sampled recording (header.sample_weight): its calls are runs of
 * samples, and every call of a thread closes where it was not sampled
 * for a while, to open again at its next sample.  The chart draws a
 * frame that stays on the stack from one sample to the next as one bar,
 * from its first sample to the first sample without it, the gap
 * included: the call of path pm[0..d] at depth d, x under root r, runs
 * on after its root's end into the next root's call of the same path.
 */
struct bar_walk {
	const struct timeline *tl;
	const struct calltree *tree;
	enum clock_index k;
	size_t t;
};

/* Whether root r's first d + 1 calls (its stack at its first sample)
 * are the methods pm[0..d]. */
static bool
root_holds(const struct bar_walk *w, uint32_t r, size_t d, const uint32_t *pm)
{
	const struct tt_thread *th = &w->tree->threads[w->t];
	uint64_t s = calltree_start(w->tree, r, w->k);
	size_t j;

	if (r + d >= (size_t)th->first_call + th->ncalls)
		return false;
	for (j = 0; j <= d; j++)
		if (calltree_depth(w->tree, r + j) != j ||
		    calltree_start(w->tree, r + j, w->k) != s ||
		    calltree_method(w->tree, r + j) != pm[j])
			return false;
	return true;
}

/* The call of x's bar after x (x and its root r moved there), or false
 * with the bar's end in *end: x's end, or past a gap the next sample. */
static bool
bar_next(const struct bar_walk *w, uint32_t *x, uint32_t *r, size_t d,
         const uint32_t *pm, uint64_t *end)
{
	uint64_t e = calltree_end(w->tree, *x, w->k);
	uint32_t nr;

	*end = e;
	if (calltree_end(w->tree, *r, w->k) != e)
		return false; /* sampled on without it */
	nr = timeline_first_from(w->tl, w->t, e);
	/* A root that lasts nothing is its own next: the bar stops. */
	if (nr == CALL_NONE || nr <= *r || calltree_depth(w->tree, nr) != 0)
		return false;
	if (!root_holds(w, nr, d, pm)) {
		*end = calltree_start(w->tree, nr, w->k);
		return false;
	}
	*x = nr + (uint32_t)d;
	*r = nr;
	return true;
}

/* The call of x's bar before x (x and r moved there), or false. */
static bool
bar_prev(const struct bar_walk *w, uint32_t *x, uint32_t *r, size_t d,
         const uint32_t *pm)
{
	uint32_t pr, y;
	uint64_t pe;
	size_t j;

	if (calltree_start(w->tree, *x, w->k) !=
	    calltree_start(w->tree, *r, w->k))
		return false;
	pr = timeline_prev_at_depth(w->tl, w->t, *r);
	if (pr == CALL_NONE)
		return false;
	pe = calltree_end(w->tree, pr, w->k);
	if (!pe)
		return false;
	y = timeline_call_at(w->tl, w->t, pe - 1);
	if (y == CALL_NONE || calltree_depth(w->tree, y) < d)
		return false;
	while (calltree_depth(w->tree, y) > d)
		y = calltree_parent(w->tree, y);
	if (calltree_end(w->tree, y, w->k) != pe)
		return false;
	*x = y;
	for (j = d + 1; j-- > 0; y = calltree_parent(w->tree, y))
		if (calltree_method(w->tree, y) != pm[j])
			return false;
	*r = pr;
	return true;
}

/* How much of [a, b) the bar of x (root r, path pm[0..d]) covers; the
 * last of its calls that starts before b into *last (root *last_root). */
static uint64_t
bar_cover(const struct bar_walk *w, uint32_t x, uint32_t r, size_t d,
          const uint32_t *pm, uint64_t a, uint64_t b, uint32_t *last,
          uint32_t *last_root)
{
	uint32_t y = x, ry = r;
	uint64_t s, e;

	while (calltree_start(w->tree, y, w->k) > a &&
	       bar_prev(w, &y, &ry, d, pm))
		;
	s = calltree_start(w->tree, y, w->k);
	y = x;
	ry = r;
	for (;;) {
		uint32_t py = y, pry = ry;

		if (calltree_end(w->tree, y, w->k) >= b) {
			e = b;
			break;
		}
		if (!bar_next(w, &y, &ry, d, pm, &e))
			break;
		if (calltree_start(w->tree, y, w->k) >= b) {
			y = py;
			ry = pry;
			e = b;
			break;
		}
	}
	*last = y;
	*last_root = ry;
	if (s < a)
		s = a;
	if (e > b)
		e = b;
	return e > s ? e - s : 0;
}

/* Whether x (root r) is on the bar that `from` (root fr) is on, later. */
static bool
bar_reaches(const struct bar_walk *w, uint32_t from, uint32_t fr, uint32_t x,
            size_t d, const uint32_t *pm)
{
	uint64_t end, sx = calltree_start(w->tree, x, w->k);

	while (from != x && calltree_start(w->tree, from, w->k) < sx)
		if (!bar_next(w, &from, &fr, d, pm, &end))
			return false;
	return from == x;
}

/* Column i of out (n columns, rows from depth d0): the stack's calls
 * below top, CHART_MARK at depth mark (SIZE_MAX for none) and nothing
 * above; the depth the column needs. */
static size_t
put_column(uint32_t *out, size_t n, size_t i, size_t d0, size_t rows,
           const uint32_t *stack, size_t top, size_t mark)
{
	size_t r, d;

	if (mark != SIZE_MAX)
		top = mark + 1;
	for (r = 0; r < rows; r++) {
		d = d0 + r;
		out[r * n + i] = d == mark ? CHART_MARK
		                 : d < top ? stack[d]
		                           : CALL_NONE;
	}
	return top;
}

/* chart_rows for a sampled recording: a column's stack is its dominant
 * call's or, in a gap between samples, the last sample's; a depth shows
 * the bar of its call (bar_cover), a mark where that covers less than
 * half of the column; a bar's columns show the call of its first. */
static size_t
sampled_rows(const struct timeline *tl, size_t t, uint64_t t0, uint64_t width,
             size_t n, size_t d0, size_t rows, uint32_t *out)
{
	const struct calltree *tree = timeline_tree(tl);
	const struct tt_thread *th = &tree->threads[t];
	struct bar_walk w = {tl, tree, timeline_clock(tl), t};
	uint32_t *dom = xcalloc(n + 1, sizeof(*dom));
	uint32_t *chain = NULL, *pm = NULL, *id = NULL, *last = NULL,
	         *last_root = NULL, *prev_pm = NULL;
	size_t cap = 0, need = 0, prev_top = 0, i, d;

	timeline_row(tl, t, t0, width, n, dom);
	for (i = 0; i < n; i++) {
		uint64_t a = t0 + i * width, b = a + width;
		uint32_t c = dom[i], g;
		size_t top = 0, mark = SIZE_MAX;
		bool gap = c == CALL_NONE, same = true;

		if (gap && th->ncalls) {
			/* The last call begun before the column, climbed to
			 * what the last sample before it held. */
			uint32_t p = timeline_first_from(tl, t, a);
			size_t q = p == CALL_NONE
			                   ? (size_t)th->first_call + th->ncalls
			                   : p;

			c = q > th->first_call ? (uint32_t)(q - 1) : CALL_NONE;
		}
		if (c != CALL_NONE) {
			top = (size_t)calltree_depth(tree, c) + 1;
			if (top > cap) {
				/* What a depth showed last survives. */
				cap = 2 * top;
				chain = xreallocarray(chain, cap,
				                      sizeof(*chain));
				pm = xreallocarray(pm, cap, sizeof(*pm));
				id = xreallocarray(id, cap, sizeof(*id));
				last = xreallocarray(last, cap, sizeof(*last));
				last_root = xreallocarray(last_root, cap,
				                          sizeof(*last_root));
				prev_pm = xreallocarray(prev_pm, cap,
				                        sizeof(*prev_pm));
			}
			for (g = c, d = top; d-- > 0;
			     g = calltree_parent(tree, g)) {
				chain[d] = g;
				pm[d] = calltree_method(tree, g);
			}
			if (gap) {
				uint64_t re = calltree_end(tree, chain[0], w.k);

				while (top > 1 &&
				       calltree_end(tree, chain[top - 1],
				                    w.k) != re)
					top--;
			}
		}
		for (d = 0; d < top; d++) {
			uint32_t l, lr;

			same = same && d < prev_top && prev_pm[d] == pm[d];
			if (2 * bar_cover(&w, chain[d], chain[0], d, pm, a, b,
			                  &l, &lr) <
			    width) {
				mark = d;
				break;
			}
			if (!(same && (chain[d] == id[d] ||
			               bar_reaches(&w, last[d], last_root[d],
			                           chain[d], d, pm))))
				id[d] = chain[d];
			last[d] = l;
			last_root[d] = lr;
		}
		/* The depths above the mark hold their bars' calls. */
		prev_top = mark == SIZE_MAX ? top : mark;
		if (prev_top)
			memcpy(prev_pm, pm, prev_top * sizeof(*pm));
		if (gap) {
			/* Mostly between samples: a mark under the bars
			 * where some sample falls in the column. */
			mark = prev_top;
			if (!timeline_nested_overlaps(tl, t, CALL_NONE, 0, a,
			                              b))
				mark = SIZE_MAX;
			top = prev_top;
		} else if (mark == SIZE_MAX &&
		           timeline_nested_overlaps(
		                   tl, t, c, timeline_subtree_end(tl, t, c), a,
		                   b)) {
			mark = top;
		}
		top = put_column(out, n, i, d0, rows, id, top, mark);
		if (top > need)
			need = top;
	}
	free(chain);
	free(pm);
	free(id);
	free(last);
	free(last_root);
	free(prev_pm);
	free(dom);
	return need;
}

size_t
chart_rows(const struct timeline *tl, size_t t, uint64_t t0, uint64_t width,
           size_t n, size_t d0, size_t rows, uint32_t *out)
{
	const struct calltree *tree = timeline_tree(tl);
	enum clock_index k = timeline_clock(tl);
	uint32_t *dom = xcalloc(n + 1, sizeof(*dom)), *chain = NULL;
	size_t cap = 0, len = 0, need = 0, i, end = 0;
	uint32_t ended = CALL_NONE; /* the call whose subtree ends at end */

	if (tree->header.sample_weight) {
		free(dom);
		return sampled_rows(tl, t, t0, width, n, d0, rows, out);
	}
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
		top = put_column(out, n, i, d0, rows, chain, top, mark);
		if (top > need)
			need = top;
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
