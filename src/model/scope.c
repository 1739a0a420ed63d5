/*
 * scope: a flag per thread; selection by name is exact, by id numeric.
 */
#include "config.h"

#include "model/scope.h"

#include "util/alloc.h"

#include <stdint.h>

#include <stdlib.h>
#include <string.h>

void
scope_init_none(struct scope *scope, const struct calltree *tree)
{
	memset(&scope->range, 0, sizeof(scope->range));
	scope->nthreads = tree->nthreads;
	scope->on = xcalloc(tree->nthreads + 1, sizeof(*scope->on));
	scope->count = 0;
}

void
scope_init_all(struct scope *scope, const struct calltree *tree)
{
	size_t t;

	scope_init_none(scope, tree);
	for (t = 0; t < tree->nthreads; t++)
		scope_add(scope, t);
}

void
scope_add(struct scope *scope, size_t t)
{
	if (!scope->on[t]) {
		scope->on[t] = true;
		scope->count++;
	}
}

void
scope_done(struct scope *scope)
{
	free(scope->on);
	scope->on = NULL;
	scope->count = scope->nthreads = 0;
}

bool
scope_equal(const struct scope *a, const struct scope *b)
{
	return a->nthreads == b->nthreads &&
	       !memcmp(a->on, b->on, a->nthreads * sizeof(*a->on)) &&
	       a->range.on == b->range.on &&
	       (!a->range.on || (a->range.clock == b->range.clock &&
	                         a->range.start == b->range.start &&
	                         a->range.end == b->range.end));
}

void
scope_copy(struct scope *dst, const struct scope *src)
{
	dst->on = xreallocarray(dst->on, src->nthreads + 1, sizeof(*dst->on));
	memcpy(dst->on, src->on, src->nthreads * sizeof(*src->on));
	dst->nthreads = src->nthreads;
	dst->count = src->count;
	dst->range = src->range;
}

bool
scope_select(struct scope *scope, const struct calltree *tree, const char *sel)
{
	bool found = false;
	char *end;
	unsigned long tid;
	size_t t;

	if (strcmp(sel, "all") == 0) {
		for (t = 0; t < tree->nthreads; t++)
			scope_add(scope, t);
		return true;
	}
	for (t = 0; t < tree->nthreads; t++) {
		if (strcmp(tree->threads[t].name, sel) == 0) {
			scope_add(scope, t);
			found = true;
		}
	}
	if (found)
		return true;
	tid = strtoul(sel, &end, 10);
	if (end == sel || *end)
		return false;
	for (t = 0; t < tree->nthreads; t++) {
		if (tree->threads[t].tid == tid) {
			scope_add(scope, t);
			found = true;
		}
	}
	return found;
}

/* Whether a thread's traced time is its outermost calls' time, not its
 * span: in a focused model, and in one of samples with their own times
 * on the wall clock (sample_weight: simpleperf), where the time between
 * two samples of a thread that was not sampled meanwhile is nobody's, as
 * Android Studio and the Firefox Profiler leave it empty. */
static bool
calls_are_whole(const struct calltree *tree)
{
	return tree->focused || tree->header.sample_weight;
}

/* Thread t's outermost calls' time on clock k, cut to the scope's
 * range: its traced time when calls_are_whole.  A model of sums (no
 * calls, no range) has it as the sum of its methods' exclusive times. */
static uint64_t
outermost_time(const struct scope *scope, const struct calltree *tree, size_t t,
               enum clock_index k)
{
	const struct tt_thread *th = &tree->threads[t];
	struct scope_span span = {0};
	uint64_t sum = 0, dur[CLOCK_COUNT];
	size_t c, i;

	if (tree->sums && !scope->range.on) {
		const struct thread_sums *s = &tree->sums[t];

		for (i = 0; i < s->count; i++)
			sum += s->rows[i].excl[k];
		return sum;
	}
	if (!scope->range.on) {
		for (c = th->first_call;
		     c < (size_t)th->first_call + th->ncalls; c++)
			if (!calltree_depth(tree, c))
				sum += calltree_duration(tree, c, k);
		return sum;
	}
	scope_span_of(&span, scope, tree, t);
	for (i = 0; i < span.nopen; i++)
		if (!calltree_depth(tree, span.open[i])) {
			scope_clip(scope, tree, &span, span.open[i], dur);
			sum += dur[k];
		}
	for (c = span.first; c < span.end; c++)
		if (!calltree_depth(tree, c)) {
			scope_clip(scope, tree, &span, c, dur);
			sum += dur[k];
		}
	scope_span_done(&span);
	return sum;
}

uint64_t
scope_thread_total(const struct scope *scope, const struct calltree *tree,
                   size_t t, enum clock_index k)
{
	const struct time_range *r = &scope->range;
	const struct tt_thread *th = &tree->threads[t];
	struct scope_span span = {0};
	uint64_t from, to;

	if (!tree->has_clock[k])
		return 0;
	if (calls_are_whole(tree))
		return outermost_time(scope, tree, t, k);
	if (!r->on)
		return calltree_thread_span(tree, t, k);
	if (r->end <= th->first[r->clock] || r->start >= th->last[r->clock])
		return 0;
	scope_span_of(&span, scope, tree, t);
	from = r->start > th->first[r->clock] ? span.at_start[k] : th->first[k];
	to = r->end < th->last[r->clock] ? span.at_end[k] : th->last[k];
	scope_span_done(&span);
	return to > from ? to - from : 0;
}

size_t
scope_thread_count(const struct scope *scope, const struct calltree *tree)
{
	size_t t, n = 0;

	if (!tree->focused)
		return scope->count;
	for (t = 0; t < tree->nthreads; t++)
		n += scope_has(scope, t) && tree->threads[t].ncalls;
	return n;
}

uint64_t
scope_total(const struct scope *scope, const struct calltree *tree,
            enum clock_index k)
{
	uint64_t total = 0;
	size_t t;

	for (t = 0; t < tree->nthreads; t++)
		if (scope_has(scope, t))
			total += scope_thread_total(scope, tree, t, k);
	return total;
}

/* First call of [lo, hi) whose start on clock k is >= at. */
static size_t
first_starting(const struct calltree *tree, size_t lo, size_t hi,
               enum clock_index k, uint64_t at)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (calltree_start(tree, mid, k) < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* An event of a thread: where both clocks stood at one moment. */
struct moment {
	bool set;
	uint64_t at[CLOCK_COUNT];
};

static void
moment_of(struct moment *m, const struct calltree *tree, size_t c, bool end)
{
	int k;

	m->set = true;
	for (k = 0; k < CLOCK_COUNT; k++)
		m->at[k] = !tree->has_clock[k] ? 0
		           : end               ? calltree_end(tree, c, k)
		                               : calltree_start(tree, c, k);
}

/*
 * The readings of every clock of thread t when clock k reads `when`:
 * the events just before and after it (starts and ends of its calls) are
 * found from the last call starting before it, and the readings between
 * them are interpolated.
 */
static void
clocks_at(const struct calltree *tree, size_t t, enum clock_index k,
          uint64_t when, uint64_t out[CLOCK_COUNT])
{
	const struct tt_thread *th = &tree->threads[t];
	size_t lo = th->first_call, hi = lo + th->ncalls;
	size_t f = first_starting(tree, lo, hi, k, when);
	struct moment before = {0}, after = {0};
	uint32_t g, inner = CALL_NONE, closed = CALL_NONE;
	int j;

	if (f < hi)
		moment_of(&after, tree, f, false);
	if (f > lo) {
		/* Walk up from the last call started before `when` to the
		 * innermost call still open then; the outermost one passed
		 * on the way ended last. */
		for (g = (uint32_t)(f - 1); g != CALL_NONE;
		     g = calltree_parent(tree, g)) {
			if (calltree_end(tree, g, k) > when) {
				inner = g;
				break;
			}
			closed = g;
		}
		if (closed != CALL_NONE)
			moment_of(&before, tree, closed, true);
		else if (inner != CALL_NONE)
			moment_of(&before, tree, inner, false);
		if (inner != CALL_NONE &&
		    (!after.set || calltree_end(tree, inner, k) < after.at[k]))
			moment_of(&after, tree, inner, true);
	}
	for (j = 0; j < CLOCK_COUNT; j++) {
		if (!before.set && !after.set)
			out[j] = th->first[j];
		else if (!before.set)
			out[j] = after.at[j];
		else if (!after.set || after.at[k] == before.at[k])
			out[j] = before.at[j];
		else
			out[j] = before.at[j] +
			         (uint64_t)((double)(after.at[j] -
			                             before.at[j]) *
			                            (double)(when -
			                                     before.at[k]) /
			                            (double)(after.at[k] -
			                                     before.at[k]) +
			                    0.5);
	}
	out[k] = when;
}

void
scope_span_of(struct scope_span *sp, const struct scope *scope,
              const struct calltree *tree, size_t t)
{
	const struct tt_thread *th = &tree->threads[t];
	const struct time_range *r = &scope->range;
	size_t lo = th->first_call, hi = lo + th->ncalls;
	uint32_t c, caller;

	sp->nopen = 0;
	if (!r->on) {
		sp->first = lo;
		sp->end = hi;
		return;
	}
	sp->first = first_starting(tree, lo, hi, r->clock, r->start);
	sp->end = first_starting(tree, sp->first, hi, r->clock, r->end);
	clocks_at(tree, t, r->clock, r->start, sp->at_start);
	clocks_at(tree, t, r->clock, r->end, sp->at_end);
	/* Calls open at the range's start contain the last call that
	 * started before it: walk up from there.  They are a stack: the
	 * caller of the first call of the range is one even where it ends
	 * right at the start (a call left open at the end of the file,
	 * its callee starting as the file ends), and so is the caller of
	 * any call kept. */
	if (sp->first == lo)
		return;
	caller = sp->first < hi ? calltree_parent(tree, sp->first) : CALL_NONE;
	for (c = (uint32_t)(sp->first - 1); c != CALL_NONE;
	     c = calltree_parent(tree, c)) {
		if (!sp->nopen && c != caller &&
		    calltree_end(tree, c, r->clock) <= r->start)
			continue;
		UTIL_GROW(sp->open, sp->cap, sp->nopen + 1);
		sp->open[sp->nopen++] = c;
	}
	/* Outermost first. */
	for (size_t i = 0; i < sp->nopen / 2; i++) {
		uint32_t x = sp->open[i];

		sp->open[i] = sp->open[sp->nopen - 1 - i];
		sp->open[sp->nopen - 1 - i] = x;
	}
}

void
scope_span_done(struct scope_span *sp)
{
	free(sp->open);
	memset(sp, 0, sizeof(*sp));
}

void
scope_clip(const struct scope *scope, const struct calltree *tree,
           const struct scope_span *span, size_t c, uint64_t dur[CLOCK_COUNT])
{
	const struct time_range *r = &scope->range;
	bool cut_start, cut_end;
	int k;

	if (!r->on) {
		/* Uncut: the duration, without finding the start. */
		calltree_durations(tree, c, dur);
		return;
	}
	cut_start = calltree_start(tree, c, r->clock) < r->start;
	cut_end = calltree_end(tree, c, r->clock) > r->end;
	for (k = 0; k < CLOCK_COUNT; k++) {
		uint64_t from, to;

		if (!tree->has_clock[k]) {
			dur[k] = 0;
			continue;
		}
		from = cut_start ? span->at_start[k]
		                 : calltree_start(tree, c, k);
		to = cut_end ? span->at_end[k] : calltree_end(tree, c, k);
		dur[k] = to > from ? to - from : 0;
	}
}

/* One bound: a decimal number with an optional unit, in microseconds. */
static bool
parse_time(const char *s, size_t len, uint64_t *us)
{
	char buf[64], *stop;
	double v, unit = 1000; /* bare numbers are milliseconds */

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	v = strtod(buf, &stop);
	if (stop == buf || !(v >= 0 && v <= 1e15)) /* NaN too */
		return false;
	if (strcmp(stop, "us") == 0)
		unit = 1;
	else if (strcmp(stop, "ms") == 0)
		unit = 1000;
	else if (strcmp(stop, "s") == 0)
		unit = 1000000;
	else if (*stop)
		return false;
	*us = (uint64_t)(v * unit + 0.5);
	return true;
}

bool
scope_parse_range(const char *text, enum clock_index k,
                  struct time_range *range)
{
	const char *dots = strstr(text, "..");

	if (!dots)
		return false;
	memset(range, 0, sizeof(*range));
	range->clock = k;
	if (!parse_time(text, (size_t)(dots - text), &range->start) ||
	    !parse_time(dots + 2, strlen(dots + 2), &range->end) ||
	    range->end <= range->start)
		return false;
	range->on = true;
	return true;
}
