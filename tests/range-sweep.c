/*
 * range-sweep: --range at the call boundaries of each trace named on the
 * command line, in TAP.  The boundaries are every start and end of a
 * call on the clock ranges are on; each range runs from one boundary to
 * the next, and from a boundary for one microsecond (a call of zero
 * length at the end of the file included), and from six of them to the
 * end.  `--sample` takes every boundary of each thread's last calls and
 * 48 others spread over the file; the default is every boundary.
 *
 * For each range, what each command that takes --range computes:
 *
 *   every thread's span (calls, frames, the viewer's Calls view) lists
 *   its open calls as a stack and every listed call under its caller;
 *   report's total = the profile's = the viewer's (from the index), row
 *   for row = the root of the call paths with the time outside any
 *   method (tree, folded), merged or by thread = the sum of their nodes'
 *   exclusive times (folded's lines); the paths without it (flamegraph,
 *   export --format html) lay out as a flame no wider than the total;
 *   and the frames are found.
 */
#include "config.h"

#include "model/open.h"
#include "model/scope.h"
#include "query/callpath.h"
#include "query/flame.h"
#include "query/frames.h"
#include "query/profile-index.h"
#include "query/profile.h"
#include "profile-same.h"
#include "tap.h"

#include <stdlib.h>

/* Checks that failed, per file, so a pass prints one line per kind. */
struct tally {
	const char *file;
	unsigned failed;
	const struct time_range *range;
};

static void
fail(struct tally *t, const char *what, unsigned long long got,
     unsigned long long want)
{
	if (t->failed++ < 20)
		printf("# %s: range %lluus..%lluus: %s is %llu, not %llu\n",
		       t->file, (unsigned long long)t->range->start,
		       (unsigned long long)t->range->end, what, got, want);
}

static bool
same(struct tally *t, uint64_t got, uint64_t want, const char *what)
{
	if (got == want)
		return true;
	fail(t, what, got, want);
	return false;
}

/* Whether thread u's span lists its calls as add_call reads them: each
 * call's caller the call listed last one level up. */
static bool
span_is_stack(struct tally *t, const struct calltree *tree,
              const struct scope *scope, struct scope_span *span, size_t u,
              uint32_t **stack, size_t *cap)
{
	size_t n, i, len = 0;

	scope_span_of(span, scope, tree, u);
	n = span->nopen + (span->end - span->first);
	for (i = 0; i < n; i++) {
		uint32_t c =
		        i < span->nopen
		                ? span->open[i]
		                : (uint32_t)(span->first + i - span->nopen);
		uint32_t d = calltree_depth(tree, c);
		uint32_t want = d ? calltree_parent(tree, c) : CALL_NONE;

		if (d > len || (d && (*stack)[d - 1] != want)) {
			fail(t, "the depth of a listed call with no caller", d,
			     len);
			if (t->failed <= 20)
				printf("#   thread %zu, call %u of [%zu, %zu) "
				       "after %zu open\n",
				       u, c, span->first, span->end,
				       span->nopen);
			return false;
		}
		if (d >= *cap) {
			*cap = 2 * (size_t)d + 16;
			*stack = realloc(*stack, *cap * sizeof(**stack));
			if (!*stack)
				abort();
		}
		(*stack)[d] = c;
		len = (size_t)d + 1;
	}
	return true;
}

static uint64_t
excl_sum(const struct callpath *p, enum clock_index k)
{
	uint64_t sum = 0;
	uint32_t n;

	for (n = 0; n < p->count; n++)
		sum += callpath_excl(p, n, k);
	return sum;
}

struct sweep {
	const struct calltree *tree;
	const struct profile_index *index;
	const bool *is_frame;
	struct scope scope;
	struct scope_span span;
	uint32_t *stack;
	size_t cap;
	unsigned ranges;
	struct tally spans, totals, viewer, flames;
};

/* Every check on the range [start, end). */
static void
check_range(struct sweep *s, uint64_t start, uint64_t end)
{
	const struct calltree *tree = s->tree;
	struct time_range *r = &s->scope.range;
	struct callpath merged, by_thread, drawn;
	struct profile prof, from_index;
	struct flame flame;
	struct frames frames;
	const char *diff;
	size_t u;
	int k;

	r->start = start;
	r->end = end;
	s->ranges++;
	/* A span out of order would have the builders read a caller they
	 * were not given: say so instead. */
	for (u = 0; u < tree->nthreads; u++)
		if (!span_is_stack(&s->spans, tree, &s->scope, &s->span, u,
		                   &s->stack, &s->cap))
			return;
	profile_compute(&prof, tree, &s->scope);
	profile_from_index(&from_index, s->index, tree, &s->scope);
	diff = profile_difference(&prof, &from_index);
	if (diff)
		fail(&s->viewer, diff, 1, 0);
	callpath_build_whole(&merged, tree, &s->scope, false);
	callpath_build_whole(&by_thread, tree, &s->scope, true);
	callpath_build(&drawn, tree, &s->scope, true);
	for (k = 0; k < CLOCK_COUNT; k++) {
		uint64_t total = scope_total(&s->scope, tree, k);

		if (!tree->has_clock[k])
			continue;
		same(&s->totals, prof.total[k], total, "report's total");
		same(&s->totals, merged.nodes[0].incl[k], total,
		     "tree --no-thread's root");
		same(&s->totals, excl_sum(&merged, k), total,
		     "folded --no-thread's sum");
		same(&s->totals, by_thread.nodes[0].incl[k], total,
		     "tree's root");
		same(&s->totals, excl_sum(&by_thread, k), total,
		     "folded's sum");
		callpath_sort(&drawn, k);
		flame_layout(&flame, &drawn, k, total, 0);
		if (flame.total > total)
			fail(&s->flames, "the flame's width", flame.total,
			     total);
		flame_done(&flame);
	}
	frames_find(&frames, tree, &s->scope, s->is_frame, 16667);
	frames_done(&frames);
	callpath_done(&drawn);
	callpath_done(&by_thread);
	callpath_done(&merged);
	profile_done(&from_index);
	profile_done(&prof);
}

static int
by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Every start and end of a call on clock k, sorted, each once; in
 * *marked, those of each thread's last `last` calls. */
static uint64_t *
boundaries(const struct calltree *tree, enum clock_index k, size_t *count,
           size_t last, bool **marked)
{
	size_t n = 0, cap = 2 * calltree_call_count(tree) + 1, u, c, i, j;
	uint64_t *b = malloc(cap * sizeof(*b)), *tail;
	size_t ntail = 0;

	tail = malloc((2 * last * tree->nthreads + 1) * sizeof(*tail));
	if (!b || !tail)
		abort();
	for (u = 0; u < tree->nthreads; u++) {
		const struct tt_thread *th = &tree->threads[u];

		for (c = th->first_call; c < th->first_call + th->ncalls; c++) {
			b[n++] = calltree_start(tree, c, k);
			b[n++] = calltree_end(tree, c, k);
			if (c + last >= th->first_call + th->ncalls) {
				tail[ntail++] = b[n - 2];
				tail[ntail++] = b[n - 1];
			}
		}
	}
	qsort(b, n, sizeof(*b), by_value);
	for (i = j = 0; i < n; i++)
		if (!j || b[i] != b[j - 1])
			b[j++] = b[i];
	*count = j;
	*marked = calloc(j + 1, sizeof(**marked));
	if (!*marked)
		abort();
	for (i = 0; i < ntail; i++) {
		uint64_t *at = bsearch(&tail[i], b, j, sizeof(*b), by_value);

		(*marked)[at - b] = true;
	}
	free(tail);
	return b;
}

static void
check_file(const char *path, bool sample)
{
	struct trace_error err = {0};
	struct calltree *tree = calltree_load(path, &err);
	struct sweep s = {0};
	enum clock_index k;
	uint64_t *b;
	bool *marked;
	size_t n, i, step;

	if (!tree) {
		printf("# %s: not loaded, skipped\n", path);
		trace_error_clear(&err);
		return;
	}
	s.tree = tree;
	s.spans.file = s.totals.file = s.viewer.file = s.flames.file = path;
	s.spans.range = s.totals.range = s.viewer.range = s.flames.range =
	        &s.scope.range;
	s.index = profile_index_new(tree, 0);
	s.is_frame = test_frame_methods(tree, NULL);
	scope_init_all(&s.scope, tree);
	k = calltree_default_range_clock(tree);
	s.scope.range.on = true;
	s.scope.range.clock = k;
	b = boundaries(tree, k, &n, 3, &marked);
	step = n / 48 + 1;
	/* Six ranges from a boundary to the end: each costs a pass over
	 * the file. */
	for (i = 0; i < n; i++) {
		if (sample && !marked[i] && i % step)
			continue;
		if (i + 1 < n)
			check_range(&s, b[i], b[i + 1]);
		if (i + 1 == n || b[i + 1] != b[i] + 1)
			check_range(&s, b[i], b[i] + 1);
		if (i % (n / 6 + 1) == 0 && i + 1 < n)
			check_range(&s, b[i], b[n - 1] + 1);
	}
	ok(!s.spans.failed,
	   "%s: %u ranges at %zu boundaries: every span a stack of calls", path,
	   s.ranges, n);
	ok(!s.totals.failed,
	   "%s: report's total = tree's and folded's, merged and by thread",
	   path);
	ok(!s.viewer.failed,
	   "%s: the viewer's profile is report's, row for row", path);
	ok(!s.flames.failed, "%s: no flame wider than the total", path);
	free(marked);
	free(b);
	free(s.stack);
	free((bool *)s.is_frame);
	scope_span_done(&s.span);
	scope_done(&s.scope);
	profile_index_free((struct profile_index *)s.index);
	calltree_free(tree);
}

int
main(int argc, char **argv)
{
	bool sample = false;
	int i, files = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--sample") == 0) {
			sample = true;
			continue;
		}
		check_file(argv[i], sample);
		files++;
	}
	if (!files)
		return skip_all("no trace given");
	return done_testing();
}
