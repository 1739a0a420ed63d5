/*
 * frame-spans: one walk over each thread's calls notes its outermost
 * calls (the runs of samples: every sample's stack starts at one) and
 * its outermost frame-method calls; a second pass joins consecutive
 * frame calls that no sample without a frame method parts.
 */
#include "config.h"

#include "model/frame-spans.h"

#include "util/alloc.h"

#include <stdlib.h>

struct interval {
	uint64_t start, end;
};

/* The first instant at or after `at` when thread's roots[0..n) hold a
 * sample, from *i on (moved past the roots that end by `at`); false
 * when none does. */
static bool
next_sample(const struct interval *roots, size_t n, size_t *i, uint64_t at,
            uint64_t *out)
{
	while (*i < n && roots[*i].end <= at)
		(*i)++;
	if (*i == n)
		return false;
	*out = roots[*i].start > at ? roots[*i].start : at;
	return true;
}

/* Thread t's spans, appended to *out. */
static void
thread_spans(const struct calltree *tree, size_t t, const bool *is_frame,
             struct frame_span **out, size_t *count, size_t *cap,
             struct interval **roots, size_t *rcap, struct interval **fr,
             size_t *fcap)
{
	const struct tt_thread *th = &tree->threads[t];
	size_t nroots = 0, nfr = 0, c, i, r = 0;
	uint32_t fdepth = 0;
	bool inside = false;

	for (c = th->first_call; c < (size_t)th->first_call + th->ncalls; c++) {
		uint32_t d = calltree_depth(tree, c);
		struct interval iv = {calltree_start(tree, c, CLOCK_WALL),
		                      calltree_end(tree, c, CLOCK_WALL)};

		if (d == 0) {
			UTIL_GROW(*roots, *rcap, nroots + 1);
			(*roots)[nroots++] = iv;
		}
		if (inside && d > fdepth)
			continue;
		inside = false;
		if (!is_frame[calltree_method(tree, c)])
			continue;
		UTIL_GROW(*fr, *fcap, nfr + 1);
		(*fr)[nfr++] = iv;
		inside = true;
		fdepth = d;
	}
	for (i = 0; i < nfr; i++) {
		struct frame_span s = {th->tid, (*fr)[i].start, (*fr)[i].end};
		uint64_t next;

		while (next_sample(*roots, nroots, &r, s.end, &next)) {
			if (i + 1 < nfr && (*fr)[i + 1].start == next) {
				s.end = (*fr)[++i].end;
				continue;
			}
			s.end = next;
			break;
		}
		UTIL_GROW(*out, *cap, *count + 1);
		(*out)[(*count)++] = s;
	}
}

static int
span_cmp(const void *pa, const void *pb)
{
	const struct frame_span *a = pa, *b = pb;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

size_t
frame_spans_find(const struct calltree *tree, const bool *is_frame,
                 struct frame_span **out)
{
	struct interval *roots = NULL, *fr = NULL;
	size_t count = 0, cap = 0, rcap = 0, fcap = 0, t;

	*out = NULL;
	for (t = 0; t < tree->nthreads; t++)
		if (tree->threads[t].ncalls)
			thread_spans(tree, t, is_frame, out, &count, &cap,
			             &roots, &rcap, &fr, &fcap);
	free(roots);
	free(fr);
	/* Threads with one id are one thread to a sample's reader. */
	if (count > 1)
		qsort(*out, count, sizeof(**out), span_cmp);
	return count;
}

size_t
frame_spans_of(const struct frame_span *spans, size_t n, uint32_t tid,
               size_t *first)
{
	size_t lo = 0, hi = n, end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (spans[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < n && spans[end].tid == tid; end++)
		;
	*first = lo;
	return end - lo;
}
