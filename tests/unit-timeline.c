/*
 * unit-timeline: the timeline index (query/timeline.c) against brute force on
 * random call trees.
 *
 * Each tree is built through calltree_builder_sink from synthetic events:
 * a few threads interleaved, nested calls of a handful of methods (so
 * some are recursive), time steps that are often zero (calls of zero
 * length, children starting or ending with their parent), idle gaps,
 * frames left open at the end, and now and then an exit with no entry
 * (an orphan that adopts earlier calls) or an exit by exception.  On both
 * clocks, the index must give:
 *
 *   - for slices of many widths (1 us to twice the thread's span), at
 *     every offset across the span and at random offsets, the call the
 *     direct descent picks: at each level, the child covering most of the
 *     slice (the earliest on a tie), entered while it covers more than
 *     the parent's own time there (at the top: the idle time);
 *   - timeline_row equal to slice-by-slice answers;
 *   - the innermost call open at a time; a thread's busy time;
 *   - per method and thread, the calls not nested in another call of the
 *     method, their longest, the next and previous around a time, and
 *     whether one overlaps a slice.
 *
 * The call chart's moves (along a depth, to the first callee, where a
 * call's descendants end, the first and last call at a depth) must match
 * scans of the pre-order.
 *
 * One clock's index is built whole, the other's sharing its method lists
 * and depth blocks (and checked after the first is freed); a sharing index
 * must answer cell for cell as a whole one, and the prefix sums must hold
 * in each of their widths (16-, 32- and 64-bit offsets per block).
 *
 * Then a thread of calls back to back whose slices span thousands of the
 * sparse table's blocks, and a few hand-made trees whose answers are
 * worked out in comments: the dominant calls, the chart's cells and the
 * rows it needs ('+N deeper'), moves across 300000 calls, and search
 * steps across threads in time order.
 */
#include "config.h"

#include "model/calltree.h"
#include "query/chart.h"
#include "query/timeline.h"
#include "tui/warmup.h"
#include "util/alloc.h"

#include "rng.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

#define NONE CALL_NONE

/* ---- feeding the builder --------------------------------------------- */

static struct calltree_builder *cur_builder;
static const struct trace_sink *cur;

/* Times are multiplied by this: a large one makes calls of 2^32 and
 * more, and prefix sums that do not fit a block's 32-bit offsets. */
static uint64_t time_scale = 1;

static void
start(int nmethods)
{
	struct trace_header h = {
	        .format = TRACE_FORMAT_V1,
	        .version = 3,
	        .clock = TRACE_CLOCK_DUAL,
	        .record_size = 14,
	        .data_offset = 32,
	        .start_time = 0,
	        .time_bits = time_scale > 1 ? 64 : 32,
	};
	int i;

	cur_builder = calltree_builder_new("unit-timeline");
	cur = calltree_builder_sink(cur_builder);
	cur->begin(cur->ctx, &h);
	for (i = 0; i < nmethods; i++) {
		char name[16];
		struct trace_method_def d = {
		        .id = (uint64_t)(i + 1) * 4,
		        .klass = "T",
		        .name = name,
		        .signature = "()V",
		        .file = "T.java",
		        .line = -1,
		};

		snprintf(name, sizeof(name), "m%d", i);
		cur->method(cur->ctx, &d);
	}
}

static void
ev(uint32_t tid, int method, enum trace_action action, uint64_t cpu,
   uint64_t wall)
{
	cur->event(cur->ctx, tid, (uint64_t)(method + 1) * 4, action,
	           cpu * time_scale, wall * time_scale);
}

static struct calltree *
finish(void)
{
	struct calltree *t = calltree_builder_finish(cur_builder);

	cur_builder = NULL;
	cur = NULL;
	return t;
}

/* ---- random trees ---------------------------------------------------- */

enum { MAX_THREADS = 4, MAX_DEPTH = 12 };

struct gen_thread {
	uint32_t tid;
	uint64_t cpu, wall;
	int stack[MAX_DEPTH];
	int depth;
};

/* A step of time: zero a third of the time, sometimes long (idle). */
static uint64_t
step(void)
{
	uint64_t r = below(12);

	return r < 4 ? 0 : r < 10 ? 1 + below(6) : 20 + below(200);
}

/* A random tree: nthreads threads taking turns, `events` events. */
static struct calltree *
random_tree(uint64_t seed, int events)
{
	struct gen_thread th[MAX_THREADS];
	int nthreads = 1 + (int)(seed % MAX_THREADS), nmethods = 6, i;
	char name[32];

	rng_state = seed;
	start(nmethods);
	for (i = 0; i < nthreads; i++) {
		th[i].tid = (uint32_t)(i + 1);
		th[i].cpu = below(50);
		th[i].wall = below(300);
		th[i].depth = 0;
		snprintf(name, sizeof(name), "thread-%d", i);
		cur->thread(cur->ctx, th[i].tid, name);
	}
	for (i = 0; i < events; i++) {
		struct gen_thread *g = &th[below((uint64_t)nthreads)];
		uint64_t r = below(100);
		uint64_t s = step();

		g->wall += s;
		g->cpu += s ? below(s + 1) : 0;
		if (r < 2) {
			/* An exit with no entry: an orphan, or a mismatch
			 * when frames are open. */
			ev(g->tid, (int)below((uint64_t)nmethods), TRACE_EXIT,
			   g->cpu, g->wall);
			if (g->depth)
				g->depth = 0; /* closed by the mismatch */
		} else if (g->depth < MAX_DEPTH && (g->depth == 0 || r < 50)) {
			int m = (int)below((uint64_t)nmethods);

			ev(g->tid, m, TRACE_ENTER, g->cpu, g->wall);
			g->stack[g->depth++] = m;
		} else if (g->depth) {
			int m = g->stack[--g->depth];

			ev(g->tid, m, r < 52 ? TRACE_UNWIND : TRACE_EXIT,
			   g->cpu, g->wall);
		}
	}
	return finish();
}

/* ---- brute force ----------------------------------------------------- */

static uint64_t
overlap(uint64_t s, uint64_t e, uint64_t a, uint64_t b)
{
	uint64_t lo = s > a ? s : a, hi = e < b ? e : b;

	return hi > lo ? hi - lo : 0;
}

/* The callers of thread t's calls, from depths alone: the last call
 * before each that is less deep (a stack, not calltree_parent). */
static uint32_t *
brute_parents(const struct calltree *tree, size_t t)
{
	const struct tt_thread *th = &tree->threads[t];
	uint32_t *parent = xcalloc(th->ncalls + 1, sizeof(*parent));
	uint32_t *stack = xcalloc(tree->max_depth + 2, sizeof(*stack));
	size_t i, n = 0;

	for (i = 0; i < th->ncalls; i++) {
		size_t c = th->first_call + i;
		uint32_t d = calltree_depth(tree, c);

		n = d < n ? d : n;
		parent[i] = n ? stack[n - 1] : NONE;
		stack[n++] = (uint32_t)c;
	}
	free(stack);
	return parent;
}

static uint32_t
brute_dominant(const struct calltree *tree, enum clock_index k, size_t t,
               uint64_t a, uint64_t b)
{
	const struct tt_thread *th = &tree->threads[t];
	uint32_t *parent = brute_parents(tree, t);
	uint32_t node = NONE;
	uint64_t cov_node = b - a;

	for (;;) {
		uint32_t best = NONE;
		uint64_t best_cov = 0, sum = 0;
		size_t i;

		for (i = th->first_call; i < th->first_call + th->ncalls; i++) {
			uint64_t cov;

			if (parent[i - th->first_call] != node)
				continue;
			cov = overlap(calltree_start(tree, i, k),
			              calltree_end(tree, i, k), a, b);
			sum += cov;
			if (cov > best_cov) {
				best_cov = cov;
				best = (uint32_t)i;
			}
		}
		if (best == NONE || best_cov <= cov_node - sum) {
			free(parent);
			return node;
		}
		node = best;
		cov_node = best_cov;
	}
}

static uint32_t
brute_open_at(const struct calltree *tree, enum clock_index k, size_t t,
              uint64_t at)
{
	const struct tt_thread *th = &tree->threads[t];
	uint32_t best = NONE;
	size_t i;

	for (i = th->first_call; i < th->first_call + th->ncalls; i++)
		if (calltree_start(tree, i, k) <= at &&
		    at < calltree_end(tree, i, k) &&
		    (best == NONE ||
		     calltree_depth(tree, i) > calltree_depth(tree, best)))
			best = (uint32_t)i;
	return best;
}

/* ---- checks ---------------------------------------------------------- */

struct tally {
	long checked, wrong;
	char first[200];
};

static void
expect(struct tally *ty, uint64_t got, uint64_t want, const char *what,
       size_t t, uint64_t a, uint64_t b)
{
	ty->checked++;
	if (got == want)
		return;
	if (!ty->wrong++)
		snprintf(ty->first, sizeof(ty->first),
		         "%s thread %zu [%llu, %llu): got %lld want %lld", what,
		         t, (unsigned long long)a, (unsigned long long)b,
		         got == NONE ? -1LL : (long long)got,
		         want == NONE ? -1LL : (long long)want);
}

static void
check_slices(const struct timeline *tl, const struct calltree *tree,
             enum clock_index k, size_t t, struct tally *ty)
{
	const struct tt_thread *th = &tree->threads[t];
	uint64_t first = th->first[k], last = th->last[k];
	uint64_t span = last > first ? last - first : 1;
	uint64_t widths[] = {1,
	                     2,
	                     3,
	                     7,
	                     span / 37 + 1,
	                     span / 9 + 1,
	                     span / 3 + 1,
	                     span,
	                     2 * span + 5};
	uint32_t row[64];
	size_t w, i;

	for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
		uint64_t width = widths[w];
		uint64_t from = first > width ? first - width : 0;
		uint64_t rows = (last + width - from) / width / 64 + 1;
		uint64_t skip = rows > 24 ? (rows / 24 - 1) * 64 * width : 0;
		uint64_t a;
		int r;

		/* Every slice across the span (aligned to the width), by
		 * rows of up to 64; on long spans, one row in rows / 24. */
		for (a = from; a <= last + width; a += skip) {
			size_t n = (size_t)((last + width - a) / width) + 1;

			if (n > 64)
				n = 64;
			timeline_row(tl, t, a, width, n, row);
			for (i = 0; i < n; i++, a += width) {
				uint32_t want = brute_dominant(tree, k, t, a,
				                               a + width);

				expect(ty, row[i], want, "row", t, a,
				       a + width);
				expect(ty,
				       timeline_dominant(tl, t, a, a + width),
				       want, "slice", t, a, a + width);
			}
		}
		/* Random offsets. */
		for (r = 0; r < 40; r++) {
			a = from + below(last + width - from + 1);
			expect(ty, timeline_dominant(tl, t, a, a + width),
			       brute_dominant(tree, k, t, a, a + width),
			       "random slice", t, a, a + width);
		}
	}
	for (i = 0; i < 200; i++) {
		uint64_t at = (first > 3 ? first - 3 : 0) + below(span + 6);

		expect(ty, timeline_call_at(tl, t, at),
		       brute_open_at(tree, k, t, at), "call_at", t, at, at);
	}
}

static void
check_methods(const struct timeline *tl, const struct calltree *tree,
              enum clock_index k, size_t t, struct tally *ty)
{
	const struct tt_thread *th = &tree->threads[t];
	const struct tt_calls *c = &tree->calls;
	uint64_t busy = 0;
	size_t m, i;

	for (i = th->first_call; i < th->first_call + th->ncalls; i++)
		if (calltree_parent(tree, i) == NONE)
			busy += calltree_end(tree, i, k) -
			        calltree_start(tree, i, k);
	expect(ty, timeline_busy(tl, t), busy, "busy", t, 0, 0);
	for (m = 0; m < tree->nmethods; m++) {
		const uint32_t *calls;
		size_t n = timeline_method_calls(tl, (uint32_t)m, t, &calls);
		size_t j = 0;
		uint32_t longest = NONE;
		int r;

		for (i = th->first_call; i < th->first_call + th->ncalls; i++) {
			if (calltree_method(tree, i) != m ||
			    (c->flags[i] & CALL_RECURSIVE))
				continue;
			expect(ty, j < n ? calls[j] : NONE, i, "method call", t,
			       m, j);
			j++;
			if (longest == NONE ||
			    calltree_end(tree, i, k) -
			                    calltree_start(tree, i, k) >
			            calltree_end(tree, longest, k) -
			                    calltree_start(tree, longest, k))
				longest = (uint32_t)i;
		}
		expect(ty, n, j, "method count", t, m, 0);
		expect(ty, timeline_method_longest(tl, (uint32_t)m, t), longest,
		       "longest", t, m, 0);
		for (r = 0; r < 30; r++) {
			uint64_t at = th->first[k] +
			              below(th->last[k] - th->first[k] + 3);
			uint64_t b = at + 1 + below(20);
			uint32_t next = NONE, prev = NONE;
			bool any = false;

			for (j = 0; j < n; j++) {
				uint64_t s = calltree_start(tree, calls[j], k);
				uint64_t e = calltree_end(tree, calls[j], k);

				if (s > at && next == NONE)
					next = calls[j];
				if (s < at)
					prev = calls[j];
				if (s < b && (e > at || s >= at))
					any = true;
			}
			expect(ty, timeline_method_next(tl, (uint32_t)m, t, at),
			       next, "next", t, at, m);
			expect(ty, timeline_method_prev(tl, (uint32_t)m, t, at),
			       prev, "prev", t, at, m);
			expect(ty,
			       timeline_method_overlaps(tl, (uint32_t)m, t, at,
			                                b),
			       any, "overlaps", t, at, b);
		}
	}
}

/* Every call's exclusive time: its duration less its callees'. */
static void
check_excl(const struct timeline *tl, const struct calltree *tree,
           enum clock_index k, size_t t, struct tally *ty)
{
	const struct tt_thread *th = &tree->threads[t];
	uint32_t *parent = brute_parents(tree, t);
	uint64_t *ex = xcalloc(th->ncalls + 1, sizeof(*ex));
	size_t i;

	for (i = 0; i < th->ncalls; i++) {
		uint64_t d = calltree_duration(tree, th->first_call + i, k);

		ex[i] += d;
		if (parent[i] != NONE)
			ex[parent[i] - th->first_call] -= d;
	}
	for (i = 0; i < th->ncalls; i++)
		expect(ty,
		       timeline_call_excl(tl, (uint32_t)(th->first_call + i)),
		       ex[i], "exclusive", t, th->first_call + i, 0);
	free(ex);
	free(parent);
}

/* The chart's moves against scans of the pre-order: the next and the
 * previous call at a call's depth, its first callee, where its
 * descendants end; the first and last call at each depth. */
static void
check_moves(const struct timeline *tl, const struct calltree *tree, size_t t,
            struct tally *ty)
{
	const struct tt_thread *th = &tree->threads[t];
	size_t lo = th->first_call, hi = lo + th->ncalls, c, j;
	uint32_t d;

	for (c = lo; c < hi; c++) {
		uint32_t next = NONE, prev = NONE, callee = NONE;
		size_t end = hi;

		d = calltree_depth(tree, c);
		for (j = c + 1; j < hi && next == NONE; j++)
			if (calltree_depth(tree, j) == d)
				next = (uint32_t)j;
		for (j = c; j-- > lo && prev == NONE;)
			if (calltree_depth(tree, j) == d)
				prev = (uint32_t)j;
		for (j = c + 1; j < hi && end == hi; j++)
			if (calltree_depth(tree, j) <= d)
				end = j;
		if (c + 1 < hi && calltree_depth(tree, c + 1) == d + 1)
			callee = (uint32_t)(c + 1);
		expect(ty, timeline_next_at_depth(tl, t, (uint32_t)c), next,
		       "next at depth", t, c, d);
		expect(ty, timeline_prev_at_depth(tl, t, (uint32_t)c), prev,
		       "prev at depth", t, c, d);
		expect(ty, timeline_first_callee(tl, t, (uint32_t)c), callee,
		       "first callee", t, c, d);
		expect(ty, timeline_subtree_end(tl, t, (uint32_t)c), end,
		       "subtree end", t, c, d);
	}
	for (d = 0; d <= th->max_depth + 1; d++) {
		uint32_t first = NONE, last = NONE;

		for (c = lo; c < hi; c++) {
			if (calltree_depth(tree, c) != d)
				continue;
			if (first == NONE)
				first = (uint32_t)c;
			last = (uint32_t)c;
		}
		expect(ty, timeline_first_at_depth(tl, t, d), first,
		       "first at depth", t, d, 0);
		expect(ty, timeline_last_at_depth(tl, t, d), last,
		       "last at depth", t, d, 0);
	}
}

static void
test_random(void)
{
	static const int sizes[] = {10, 60, 400, 2000};
	struct tally dom = {0}, meth = {0}, moves = {0};
	long trees = 0;
	uint64_t seed;
	size_t s;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		/* make check: a tenth of the seeds of check-long on the
		 * small trees, 4 of 400 calls (4000 chart moves), none of
		 * 2000 (one size of the big kind: its brute force is most of
		 * the time). */
		uint64_t seeds = s < 2 ? 100 : s < 3 ? 30 : 4;

		if (!tap_long())
			seeds = s < 2 ? 10 : s < 3 ? 4 : 0;

		for (seed = 1; seed <= seeds; seed++) {
			struct calltree *tree =
			        random_tree(seed * 7919 + s, sizes[s]);
			/* One clock's index whole, the other's sharing its
			 * clock-free parts, and freed after it; the clocks
			 * take turns. */
			enum clock_index order[2] = {
			        seed % 2 ? CLOCK_WALL : CLOCK_CPU,
			        seed % 2 ? CLOCK_CPU : CLOCK_WALL};
			struct timeline *index[2];
			int o;

			index[0] = timeline_new(tree, order[0]);
			index[1] = timeline_new_sharing(index[0], order[1]);
			timeline_free(index[0]);
			index[0] = timeline_new(tree, order[0]);
			for (o = 1; o >= 0; o--) {
				struct timeline *tl = index[o];
				enum clock_index k = order[o];
				size_t t;

				for (t = 0; t < tree->nthreads; t++) {
					check_slices(tl, tree, k, t, &dom);
					check_methods(tl, tree, k, t, &meth);
					check_excl(tl, tree, k, t, &meth);
					if (k == CLOCK_WALL)
						check_moves(tl, tree, t,
						            &moves);
				}
				timeline_free(tl);
			}
			calltree_free(tree);
			trees++;
		}
	}
	if (!ok(!dom.wrong,
	        "random trees, times x%llu: %ld slices and times on %ld "
	        "trees match brute force (one clock's index sharing the "
	        "other's parts, freed first)",
	        (unsigned long long)time_scale, dom.checked, trees))
		printf("#   %ld wrong; first: %s\n", dom.wrong, dom.first);
	if (!ok(!meth.wrong,
	        "random trees: %ld method-index answers and exclusive "
	        "times match brute force",
	        meth.checked))
		printf("#   %ld wrong; first: %s\n", meth.wrong, meth.first);
	/* Enough moves for the tier's trees (make check: a few). */
	if (!ok(!moves.wrong && moves.checked > (tap_long() ? 10000 : 4000),
	        "random trees: %ld chart moves match scans of the calls",
	        moves.checked))
		printf("#   %ld wrong; first: %s\n", moves.wrong, moves.first);
}

/*
 * A thread of 300000 calls back to back (some with one child), so a
 * slice across many of them is won by the longest, the earliest on a
 * tie: durations are mostly 1 to 3 with rare long ones of a few equal
 * lengths.  The sparse table has levels up to 2^12 blocks of 64 calls,
 * past those whose entries are 16-bit offsets.
 */
static void
test_wide(void)
{
	static const uint64_t longs[] = {40, 90, 90, 200, 200};
	struct calltree *tree;
	struct timeline *tl;
	struct tally ty = {0};
	uint64_t t = 0, span, width;
	int i, r;

	rng_state = 20261124;
	start(2);
	cur->thread(cur->ctx, 1, "main");
	for (i = 0; i < 300000; i++) {
		uint64_t d = below(400) ? 1 + below(3) : longs[below(5)];

		ev(1, 0, TRACE_ENTER, t, t);
		if (d > 2 && below(2)) {
			ev(1, 1, TRACE_ENTER, t + 1, t + 1);
			ev(1, 1, TRACE_EXIT, t + d - 1, t + d - 1);
		}
		t += d;
		ev(1, 0, TRACE_EXIT, t, t);
	}
	tree = finish();
	tl = timeline_new(tree, CLOCK_WALL);
	span = t;
	/* Slices of seven eighths of the span and more cross 4096 blocks;
	 * then narrower ones. */
	for (width = span; width > 4;
	     width = width > span / 2 ? width - span / 8 : width / 3) {
		uint32_t row[4];
		uint64_t a;

		/* make check: 2 slices a width; check-long: 6. */
		for (r = 0; r < (tap_long() ? 6 : 2); r++) {
			a = below(span - width + 1);
			expect(&ty, timeline_dominant(tl, 0, a, a + width),
			       brute_dominant(tree, CLOCK_WALL, 0, a,
			                      a + width),
			       "wide slice", 0, a, a + width);
		}
		a = below(span / 2);
		timeline_row(tl, 0, a, width / 4 + 1, 4, row);
		for (i = 0; i < 4; i++, a += width / 4 + 1)
			expect(&ty, row[i],
			       brute_dominant(tree, CLOCK_WALL, 0, a,
			                      a + width / 4 + 1),
			       "wide row", 0, a, a + width / 4 + 1);
	}
	if (!ok(!ty.wrong && tree->calls.count > 4096 * 64,
	        "%zu calls back to back: %ld slices match brute force",
	        tree->calls.count, ty.checked))
		printf("#   %ld wrong; first: %s\n", ty.wrong, ty.first);
	timeline_free(tl);
	calltree_free(tree);
}

/*
 * The prefix sums keep a block of 64 calls in 16-bit offsets from its
 * base while its exclusive times add up to under 2^16, else in 32 bits,
 * else in 64.  One thread of blocks of each kind in turn: calls of 1 unit
 * (the block's sum 64), of 3000 units (192000) with a callee of half in
 * every other, and of 2^27 (2^33) with callees, on the wall clock; the
 * thread-cpu clock is a thousandth of it, which puts the blocks in other
 * widths.  Exclusive times, busy time and slices against brute force, on
 * a whole index and on one sharing the other clock's parts.
 */
static void
test_prefix_widths(void)
{
	static const uint64_t lens[] = {1, 3000, (uint64_t)1 << 27, 1, 3000};
	struct calltree *tree;
	struct tally ty = {0};
	uint64_t t = 0;
	size_t b;
	int i, k;

	start(2);
	cur->thread(cur->ctx, 1, "main");
	for (b = 0; b < sizeof(lens) / sizeof(lens[0]); b++) {
		for (i = 0; i < 48; i++) {
			uint64_t d = lens[b];

			ev(1, 0, TRACE_ENTER, t / 1000, t);
			if (d > 1 && i % 2) {
				ev(1, 1, TRACE_ENTER, (t + 1) / 1000, t + 1);
				ev(1, 1, TRACE_EXIT, (t + d / 2) / 1000,
				   t + d / 2);
			}
			t += d;
			ev(1, 0, TRACE_EXIT, t / 1000, t);
		}
	}
	tree = finish();
	for (k = 0; k < CLOCK_COUNT; k++) {
		enum clock_index c = (enum clock_index)k;
		struct timeline *whole = timeline_new(tree, c);
		struct timeline *shared = timeline_new_sharing(
		        whole, c == CLOCK_WALL ? CLOCK_CPU : CLOCK_WALL);
		struct timeline *both[2] = {whole, shared};
		enum clock_index ks[2] = {c, timeline_clock(shared)};
		int j, r;

		for (j = 0; j < 2; j++) {
			const struct tt_thread *th = &tree->threads[0];
			uint64_t span = th->last[ks[j]] - th->first[ks[j]];

			check_excl(both[j], tree, ks[j], 0, &ty);
			check_methods(both[j], tree, ks[j], 0, &ty);
			for (r = 0; r < 40; r++) {
				uint64_t a = th->first[ks[j]] + below(span);
				uint64_t w = 1 + below(span / (1 + below(40)));

				expect(&ty,
				       timeline_dominant(both[j], 0, a, a + w),
				       brute_dominant(tree, ks[j], 0, a, a + w),
				       "slice", 0, a, a + w);
			}
		}
		timeline_free(whole);
		timeline_free(shared);
	}
	if (!ok(!ty.wrong && ty.checked > 1000,
	        "blocks of 16-, 32- and 64-bit prefix sums: %ld exclusive "
	        "times, busy times and slices match brute force",
	        ty.checked))
		printf("#   %ld wrong; first: %s\n", ty.wrong, ty.first);
	calltree_free(tree);
}

/*
 * The index of the other clock built sharing the first's method lists
 * and depth blocks answers as a whole index of that clock does, cell for
 * cell, and counts the shared parts once.
 */
static void
test_sharing(void)
{
	struct calltree *tree = random_tree(777, 6000);
	struct timeline *wall = timeline_new(tree, CLOCK_WALL);
	struct timeline *cpu = timeline_new_sharing(wall, CLOCK_CPU);
	struct timeline *fresh = timeline_new(tree, CLOCK_CPU);
	long checked = 0, wrong = 0;
	size_t t, m, i;

	for (t = 0; t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];
		uint64_t span = th->last[CLOCK_CPU] - th->first[CLOCK_CPU] + 1;
		uint64_t width;

		for (width = span / 64 + 1; width; width /= 7) {
			uint32_t a[64], b[64];

			timeline_row(cpu, t, th->first[CLOCK_CPU], width, 64,
			             a);
			timeline_row(fresh, t, th->first[CLOCK_CPU], width, 64,
			             b);
			for (i = 0; i < 64; i++, checked++)
				wrong += a[i] != b[i];
		}
		for (m = 0; m < tree->nmethods; m++, checked++)
			wrong += timeline_method_longest(cpu, (uint32_t)m, t) !=
			         timeline_method_longest(fresh, (uint32_t)m, t);
		wrong += timeline_busy(cpu, t) != timeline_busy(fresh, t);
	}
	for (i = 0; i < tree->calls.count; i++, checked++)
		wrong += timeline_call_excl(cpu, (uint32_t)i) !=
		         timeline_call_excl(fresh, (uint32_t)i);
	ok(checked > 1000 && !wrong,
	   "sharing: %ld cells, longest calls and exclusive times as a whole "
	   "index of the clock says",
	   checked);
	ok(timeline_memory(cpu) == timeline_memory(fresh) &&
	           timeline_memory_own(cpu) < timeline_memory(cpu) &&
	           timeline_memory(cpu) - timeline_memory_own(cpu) ==
	                   timeline_memory(wall) - timeline_memory_own(wall),
	   "sharing: the index holds %zu bytes of its own, of %zu",
	   timeline_memory_own(cpu), timeline_memory(fresh));
	timeline_free(wall);
	timeline_free(fresh);
	timeline_free(cpu);
	calltree_free(tree);
}

/* ---- hand-made cases ------------------------------------------------- */

/*
 * One thread, wall times (cpu = wall / 2):
 *
 *   0      A (m0) ..................................... 100
 *     10   B (m1) .. 30
 *            12 C (m2) 28
 *     40   D (m3) 45   50 E (m3) 56   60 F (m4) 64
 *                                            80 G (m1) 100
 *
 * Calls in pre-order: A 0, B 1, C 2, D 3, E 4, F 5, G 6.
 */
static struct calltree *
hand_tree(void)
{
	start(5);
	cur->thread(cur->ctx, 1, "main");
#define W(m, act, t) ev(1, m, act, (t) / 2, t)
	W(0, TRACE_ENTER, 0);
	W(1, TRACE_ENTER, 10);
	W(2, TRACE_ENTER, 12);
	W(2, TRACE_EXIT, 28);
	W(1, TRACE_EXIT, 30);
	W(3, TRACE_ENTER, 40);
	W(3, TRACE_EXIT, 45);
	W(3, TRACE_ENTER, 50);
	W(3, TRACE_EXIT, 56);
	W(4, TRACE_ENTER, 60);
	W(4, TRACE_EXIT, 64);
	W(1, TRACE_ENTER, 80);
	W(1, TRACE_EXIT, 100);
	W(0, TRACE_EXIT, 100);
#undef W
	return finish();
}

static void
test_hand(void)
{
	struct calltree *tree = hand_tree();
	struct timeline *tl = timeline_new(tree, CLOCK_WALL);
	const uint32_t *calls;

	/* [0, 100): A's children cover B 20, D 5, E 6, F 4, G 20; A's own
	 * time is 45 > 20, so A. */
	is_u64(timeline_dominant(tl, 0, 0, 100), 0, "whole thread: A");
	/* [10, 40): B covers 20 of 30, A's own 10: into B; C covers 16 of
	 * B's 20, B's own 4: C. */
	is_u64(timeline_dominant(tl, 0, 10, 40), 2, "[10, 40): C inside B");
	/* [25, 35): B covers 5 (C 3, B's own 2), A's own 5: a tie keeps A. */
	is_u64(timeline_dominant(tl, 0, 25, 35), 0, "[25, 35): tie keeps A");
	/* [26, 35): B covers 4 of 9, A's own 5: A. */
	is_u64(timeline_dominant(tl, 0, 26, 35), 0, "[26, 35): A");
	/* [24, 32): B covers 6 (C 4, own 2); A's own 2: into B, then C
	 * covers 4 > B's own 2: C. */
	is_u64(timeline_dominant(tl, 0, 24, 32), 2, "[24, 32): C");
	/* [40, 66): D 5, E 6, F 4 = 15; A's own 11 < 15 but no child beats
	 * it alone: E covers 6 < 11: A. */
	is_u64(timeline_dominant(tl, 0, 40, 66), 0, "[40, 66): A");
	/* [44, 58): D 1, E 6 = 7 of 14; E's 6 < A's own 7: A. */
	is_u64(timeline_dominant(tl, 0, 44, 58), 0, "[44, 58): A");
	/* [48, 58): E 6 > A's own 4: E. */
	is_u64(timeline_dominant(tl, 0, 48, 58), 4, "[48, 58): E");
	/* [90, 120): A covers 10, the idle 20 wins at the top. */
	is_u64(timeline_dominant(tl, 0, 90, 120), NONE, "[90, 120): idle");
	/* [85, 105): A covers 15 of 20 (idle 5): A, whose child G covers
	 * all 15: G. */
	is_u64(timeline_dominant(tl, 0, 85, 105), 6, "[85, 105): G");
	is_u64(timeline_call_at(tl, 0, 12), 2, "call at 12: C");
	is_u64(timeline_call_at(tl, 0, 30), 0, "call at 30: A (B ended)");
	is_u64(timeline_call_at(tl, 0, 100), NONE, "call at 100: none");
	is_u64(timeline_busy(tl, 0), 100, "busy 100");
	is_u64(timeline_method_calls(tl, 3, 0, &calls), 2, "m3: D and E");
	is_u64(timeline_method_longest(tl, 3, 0), 4, "m3: E is longest");
	is_u64(timeline_method_longest(tl, 1, 0), 1,
	       "m1: B and G tie, B first");
	is_u64(timeline_method_next(tl, 3, 0, 40), 4, "m3 after 40: E");
	is_u64(timeline_method_prev(tl, 3, 0, 50), 3, "m3 before 50: D");
	ok(timeline_method_overlaps(tl, 3, 0, 44, 50), "m3 overlaps [44, 50)");
	ok(!timeline_method_overlaps(tl, 3, 0, 45, 50), "m3 misses [45, 50)");
	timeline_free(tl);

	/* The cpu clock: times halved, so [5, 20) holds B 5..15 (C 6..14)
	 * and A's own 5: B covers 10 > 5, C covers 8 > 2: C. */
	tl = timeline_new(tree, CLOCK_CPU);
	is_u64(timeline_dominant(tl, 0, 5, 20), 2, "cpu [5, 20): C");
	timeline_free(tl);
	calltree_free(tree);
}

/*
 * The chart of the hand-made tree above in slices of 10 (rows: depths
 * 0, 1, 2; '-' nothing, '*' a mark):
 *
 *   slice  [0,10) [10,20) [20,30) [30,40) [40,50) [50,60) [60,70) ...
 *   0      A      A       A       A       A       A       A
 *   1      -      B       B       -       *       E       *
 *   2      -      C       C       -       -       -       -
 *
 *   [70,80) [80,90) [90,100)
 *   A       A       A
 *   -       G       G
 *   -       -       -
 *
 * [10,20): B covers it, C covers 8 > B's own 2: C, which covers more
 * than half.  [40,50): D covers 5, A's own 5: the tie keeps A, and D
 * starts inside: a mark.  [50,60): E covers 6 > A's own 4: E.  [60,70):
 * F's 4 < A's 6: A, and a mark for F.  [70,80): A alone (G starts at
 * 80).  The chart needs 3 rows.
 */
static void
test_chart(void)
{
	static const uint32_t M = CHART_MARK;
	static const uint32_t want[3][10] = {
	        {0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	        {NONE, 1, 1, NONE, M, 4, M, NONE, 6, 6},
	        {NONE, 2, 2, NONE, NONE, NONE, NONE, NONE, NONE, NONE},
	};
	struct calltree *tree = hand_tree();
	struct timeline *tl = timeline_new(tree, CLOCK_WALL);
	uint32_t cells[4 * 10], one[1];
	size_t d, i, bad = 0;

	is_u64(chart_rows(tl, 0, 0, 10, 10, 0, 4, cells), 3,
	       "chart in slices of 10: 3 rows");
	for (d = 0; d < 3; d++)
		for (i = 0; i < 10; i++)
			bad += cells[d * 10 + i] != want[d][i];
	for (i = 0; i < 10; i++)
		bad += cells[3 * 10 + i] != NONE;
	is_u64(bad, 0, "chart in slices of 10: every cell as worked out");
	/* Rows from depth 1 only: the same cells, the same need. */
	is_u64(chart_rows(tl, 0, 0, 10, 10, 1, 1, cells), 3,
	       "rows from depth 1: the chart still needs 3");
	for (i = bad = 0; i < 10; i++)
		bad += cells[i] != want[1][i];
	is_u64(bad, 0, "rows from depth 1: depth 1's cells");
	/* Two rows of a chart of 3: "+1 deeper". */
	is_u64(chart_rows(tl, 0, 0, 10, 10, 0, 2, cells) - 2, 1,
	       "two rows shown: +1 deeper");
	/* One slice of the whole thread: A (own 45 beats any child), its
	 * children leave a mark: 2 rows, "+1 deeper" under one. */
	is_u64(chart_rows(tl, 0, 0, 100, 1, 0, 1, one), 2,
	       "one slice: A over a mark, 2 rows");
	is_u64(one[0], 0, "one slice: A");
	/* [95, 105): A covers 5, idle 5: the tie keeps idle, A leaves a
	 * mark at depth 0. */
	chart_rows(tl, 0, 95, 10, 1, 0, 1, one);
	is_u64(one[0], M, "[95, 105): half of A is a mark");
	/* [24, 32): C covers 4 of 8, just half: shown. */
	is_u64(chart_rows(tl, 0, 24, 8, 1, 2, 1, one), 3, "[24, 32): 3 rows");
	is_u64(one[0], 2, "[24, 32): C at depth 2");
	/* [26, 36): B's 4 < A's own 6: A, and B open at 26 marks depth 1. */
	chart_rows(tl, 0, 26, 10, 1, 1, 1, one);
	is_u64(one[0], M, "[26, 36): B, open at its start, leaves a mark");

	/* Moves: pre-order A 0, B 1, C 2, D 3, E 4, F 5, G 6. */
	is_u64(timeline_next_at_depth(tl, 0, 1), 3, "right of B: D");
	is_u64(timeline_next_at_depth(tl, 0, 5), 6, "right of F: G");
	is_u64(timeline_next_at_depth(tl, 0, 6), NONE, "right of G: none");
	is_u64(timeline_prev_at_depth(tl, 0, 3), 1, "left of D: B");
	is_u64(timeline_prev_at_depth(tl, 0, 1), NONE, "left of B: none");
	is_u64(timeline_next_at_depth(tl, 0, 2), NONE, "right of C: none");
	is_u64(timeline_first_callee(tl, 0, 0), 1, "down from A: B");
	is_u64(timeline_first_callee(tl, 0, 1), 2, "down from B: C");
	is_u64(timeline_first_callee(tl, 0, 3), NONE, "down from D: none");
	is_u64(calltree_parent(tree, 2), 1, "up from C: B");
	is_u64(timeline_subtree_end(tl, 0, 1), 3, "B's descendants end at D");
	is_u64(timeline_last_at_depth(tl, 0, 1), 6, "last at depth 1: G");
	timeline_free(tl);
	calltree_free(tree);
}

/*
 * A parent with 300000 children back to back, two of which have a child
 * of their own (at calls 100001 + 1 and 250001 + 1 ...): moves along
 * depth 2 skip the thousands of blocks between them.
 */
static void
test_chart_far(void)
{
	struct calltree *tree;
	struct timeline *tl;
	uint64_t t = 0;
	uint32_t x, y;
	int i;

	start(3);
	cur->thread(cur->ctx, 1, "main");
	ev(1, 0, TRACE_ENTER, t, t);
	for (i = 0; i < 300000; i++) {
		ev(1, 1, TRACE_ENTER, t, t);
		if (i == 100000 || i == 250000) {
			ev(1, 2, TRACE_ENTER, t, t + 1);
			ev(1, 2, TRACE_EXIT, t, t + 2);
		}
		t += 3;
		ev(1, 1, TRACE_EXIT, t, t);
	}
	ev(1, 0, TRACE_EXIT, t, t);
	tree = finish();
	tl = timeline_new(tree, CLOCK_WALL);
	x = timeline_first_at_depth(tl, 0, 2);
	y = timeline_next_at_depth(tl, 0, x);
	is_u64(x, 1 + 100000 + 1, "far: the first call at depth 2");
	is_u64(y, 1 + 250000 + 2, "far: right of it, 150000 calls later");
	is_u64(timeline_prev_at_depth(tl, 0, y), x, "far: and back left");
	is_u64(timeline_next_at_depth(tl, 0, y), NONE, "far: none after");
	is_u64(timeline_subtree_end(tl, 0, 0), tree->calls.count,
	       "far: the root's descendants run to the end");
	is_u64(timeline_prev_at_depth(tl, 0, (uint32_t)tree->calls.count - 1),
	       tree->calls.count - 2, "far: left along depth 1");
	timeline_free(tl);
	calltree_free(tree);
}

/*
 * Search steps across threads in time order (start, then thread, then
 * call), wall times:
 *
 *   t1: m1 [10, 20)  m1 [50, 60)  m2 [70, 80)
 *   t2: m1 [10, 15)  m1 [30, 40)
 *   t3: m2 [20, 25)  m1 [55, 58)  m3 [60, 61)
 *
 * Matching m1 and m2: (10, t1) (10, t2) (20, t3) (30, t2) (50, t1)
 * (55, t3) (70, t1); m3 never.
 */
static void
test_chart_steps(void)
{
	static const struct {
		uint32_t tid;
		uint64_t start;
	} order[] = {{1, 10}, {2, 10}, {3, 20}, {2, 30},
	             {1, 50}, {3, 55}, {1, 70}};
	struct calltree *tree;
	struct timeline *tl;
	struct scope all, some;
	struct chart_hit h = {0, 0, 0}, l;
	bool match[4] = {false, true, true, false};
	size_t i, bad = 0, n = sizeof(order) / sizeof(order[0]);

	start(4);
	cur->thread(cur->ctx, 1, "t1");
	cur->thread(cur->ctx, 2, "t2");
	cur->thread(cur->ctx, 3, "t3");
	ev(1, 1, TRACE_ENTER, 5, 10);
	ev(2, 1, TRACE_ENTER, 5, 10);
	ev(2, 1, TRACE_EXIT, 7, 15);
	ev(1, 1, TRACE_EXIT, 10, 20);
	ev(3, 2, TRACE_ENTER, 10, 20);
	ev(3, 2, TRACE_EXIT, 12, 25);
	ev(2, 1, TRACE_ENTER, 15, 30);
	ev(2, 1, TRACE_EXIT, 20, 40);
	ev(1, 1, TRACE_ENTER, 25, 50);
	ev(3, 1, TRACE_ENTER, 27, 55);
	ev(3, 1, TRACE_EXIT, 29, 58);
	ev(1, 1, TRACE_EXIT, 30, 60);
	ev(3, 3, TRACE_ENTER, 30, 60);
	ev(3, 3, TRACE_EXIT, 30, 61);
	ev(1, 2, TRACE_ENTER, 35, 70);
	ev(1, 2, TRACE_EXIT, 40, 80);
	tree = finish();
	tl = timeline_new(tree, CLOCK_WALL);
	scope_init_all(&all, tree);
	for (i = 0; i < n; i++) {
		if (!chart_step(tl, &all, match, 1, &h) ||
		    h.thread != (uint32_t)calltree_find_thread(tree,
		                                               order[i].tid) ||
		    h.start != order[i].start)
			bad++;
	}
	is_u64(bad, 0, "search steps forward across threads in time order");
	ok(!chart_step(tl, &all, match, 1, &h) && h.start == 70,
	   "no match after the last: the position stays");
	for (i = n - 1; i-- > 0;) {
		if (!chart_step(tl, &all, match, -1, &h) ||
		    h.thread != (uint32_t)calltree_find_thread(tree,
		                                               order[i].tid) ||
		    h.start != order[i].start)
			bad++;
	}
	is_u64(bad, 0, "and back, in the reverse order");
	ok(!chart_step(tl, &all, match, -1, &h), "none before the first");
	/* Without t2: (10, t1) then (20, t3). */
	scope_init_all(&some, tree);
	some.on[calltree_find_thread(tree, 2)] = false;
	some.count--;
	h.start = 0;
	h.thread = 0;
	h.call = 0;
	chart_step(tl, &some, match, 1, &h);
	chart_step(tl, &some, match, 1, &h);
	is_u64(h.thread, (uint64_t)calltree_find_thread(tree, 3),
	       "a thread out of the scope is skipped");
	is_u64(h.start, 20, "its calls too");
	/* L: m1's longest is 10 long on t1 (10) and t2 (30): the earlier. */
	ok(chart_longest(tl, &all, 1, &l) &&
	           l.thread == (uint32_t)calltree_find_thread(tree, 1) &&
	           l.start == 10,
	   "longest m1 call over the threads: t1's at 10");
	ok(chart_longest(tl, &some, 1, &l) && l.start == 10,
	   "without t2: still t1's");
	some.on[calltree_find_thread(tree, 1)] = false;
	some.count--;
	ok(chart_longest(tl, &some, 1, &l) && l.start == 55,
	   "t3 alone: its m1 call at 55");
	scope_done(&some);
	scope_done(&all);
	timeline_free(tl);
	calltree_free(tree);
}

/* A trace with no calls at all: everything is idle. */
static void
test_empty(void)
{
	struct calltree *tree;
	struct timeline *tl;

	start(1);
	cur->thread(cur->ctx, 1, "main");
	tree = finish();
	tl = timeline_new(tree, CLOCK_WALL);
	is_u64(tree->nthreads, 1, "no calls: the thread is kept");
	is_u64(timeline_dominant(tl, 0, 0, 10), NONE, "no calls: idle");
	ok(timeline_memory(tl) > 0, "memory is counted");
	timeline_free(tl);
	calltree_free(tree);
}

/* The warmup's profile index gives a range's profile as a walk over the
 * calls does. */
static void
test_warmup_index(const struct calltree *tree, struct warmup *w,
                  enum clock_index k)
{
	struct profile_index *index = warmup_take_profile_index(w);
	const struct tt_thread *th = &tree->threads[0];
	struct profile walk, summed;
	struct scope all;

	scope_init_all(&all, tree);
	all.range.on = true;
	all.range.clock = k;
	all.range.start = th->first[k] + (th->last[k] - th->first[k]) / 3;
	all.range.end = th->first[k] + (th->last[k] - th->first[k]) / 2;
	profile_compute(&walk, tree, &all);
	if (index)
		profile_from_index(&summed, index, tree, &all);
	ok(index && walk.total[0] == summed.total[0] &&
	           walk.total[1] == summed.total[1] &&
	           memcmp(walk.rows, summed.rows,
	                  tree->nmethods * sizeof(*walk.rows)) == 0,
	   "warmup: the profile index sums a range as the calls do");
	profile_done(&walk);
	if (index)
		profile_done(&summed);
	profile_index_free(index);
	scope_done(&all);
}

/* What the warmup builds on its thread equals what the views would build
 * for themselves, and each thing is handed out once. */
static void
test_warmup(void)
{
	struct calltree *tree = random_tree(4242, 3000);
	enum clock_index k = calltree_default_range_clock(tree);
	struct warmup *w = warmup_start(tree, k, NULL);
	struct timeline *pre = warmup_take_timeline(w, k);
	struct timeline *own = timeline_new(tree, k);
	struct callpath *paths = warmup_take_thread_paths(w);
	struct callpath *inverted = warmup_take_inverted(w);
	struct callpath all, mine_inverted, *direct;
	long checked = 0, wrong = 0;
	size_t t, i;

	/* The bottom-up roots are handed out before the timeline index is
	 * built: the warmup may still run. */
	ok(pre != NULL, "warmup: the timeline index is built");
	for (t = 0; pre && t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];
		uint64_t span = th->last[k] - th->first[k] + 1;
		uint32_t a[64], b[64];

		timeline_row(pre, t, th->first[k], span / 64 + 1, 64, a);
		timeline_row(own, t, th->first[k], span / 64 + 1, 64, b);
		for (i = 0; i < 64; i++, checked++)
			wrong += a[i] != b[i];
	}
	ok(checked && !wrong, "warmup: %ld slices as a fresh index says",
	   checked);
	checked = wrong = 0;
	/* Each thread's own paths, built directly, and their merge. */
	direct = xcalloc(tree->nthreads + 1, sizeof(*direct));
	for (t = 0; t < tree->nthreads; t++) {
		struct scope one;

		scope_init_none(&one, tree);
		scope_add(&one, t);
		callpath_build_whole(&direct[t], tree, &one, false);
		scope_done(&one);
	}
	callpath_merge(&all, direct, tree->nthreads);
	callpath_invert(&mine_inverted, &all);
	callpath_sort(&mine_inverted, calltree_default_clock(tree));
	{
		uint32_t roots = 0;

		for (i = 1; inverted && i < inverted->count; i++)
			roots += inverted->nodes[i].depth == 1;
		ok(inverted && inverted->count == 1 + roots,
		   "warmup: the bottom-up tree holds its %u roots only", roots);
	}
	if (inverted)
		callpath_expand_all(inverted);
	callpath_expand_all(&mine_inverted);
	ok(inverted && inverted->count == mine_inverted.count &&
	           memcmp(inverted->nodes, mine_inverted.nodes,
	                  inverted->count * sizeof(*inverted->nodes)) == 0,
	   "warmup: the bottom-up tree of %zu nodes as inverted and sorted "
	   "directly",
	   mine_inverted.count);
	callpath_done(&all);
	callpath_done(&mine_inverted);
	if (inverted)
		callpath_done(inverted);
	free(inverted);
	/* The warmup keeps a thread's own paths only where it made calls
	 * enough (an empty one else, or no array when none did): those
	 * kept are the direct ones. */
	for (t = 0; t < tree->nthreads; t++) {
		if (paths && paths[t].count) {
			wrong += direct[t].count != paths[t].count ||
			         memcmp(direct[t].nodes, paths[t].nodes,
			                direct[t].count *
			                        sizeof(*direct[t].nodes)) != 0;
			checked++;
			callpath_done(&paths[t]);
		}
		callpath_done(&direct[t]);
	}
	free(direct);
	ok(!wrong,
	   "warmup: the %ld threads' own call paths kept are as built "
	   "directly",
	   checked);
	test_warmup_index(tree, w, k);
	{
		enum clock_index o = k == CLOCK_WALL ? CLOCK_CPU : CLOCK_WALL;
		struct timeline *other = warmup_take_timeline(w, o);
		struct timeline *fresh = timeline_new(tree, o);

		checked = wrong = 0;
		for (t = 0; other && t < tree->nthreads; t++) {
			const struct tt_thread *th = &tree->threads[t];
			uint64_t span = th->last[o] - th->first[o] + 1;
			uint32_t a[64], b[64];

			timeline_row(other, t, th->first[o], span / 64 + 1, 64,
			             a);
			timeline_row(fresh, t, th->first[o], span / 64 + 1, 64,
			             b);
			for (i = 0; i < 64; i++, checked++)
				wrong += a[i] != b[i];
		}
		ok(other && timeline_clock(other) == o && checked && !wrong,
		   "warmup: the other clock's index, %ld slices as a fresh "
		   "index says",
		   checked);
		ok(warmup_done(w), "warmup: done once the other clock's index "
		                   "is taken");
		ok(!warmup_take_timeline(w, k) && !warmup_take_timeline(w, o) &&
		           !warmup_take_thread_paths(w) &&
		           !warmup_take_inverted(w) &&
		           !warmup_take_profile_index(w),
		   "warmup: each thing is handed out once");
		free(paths);
		/* The first clock's index is freed after warmup_free, the
		 * other's before the first's. */
		warmup_free(w);
		timeline_free(other);
		timeline_free(fresh);
	}
	timeline_free(pre);
	timeline_free(own);
	/* Freed untaken: nothing leaks (valgrind and ASan check). */
	warmup_free(warmup_start(tree, k, NULL));
	calltree_free(tree);
}

int
main(void)
{
	test_hand();
	test_chart();
	test_chart_far();
	test_chart_steps();
	test_empty();
	test_warmup();
	test_sharing();
	test_prefix_widths();
	test_wide();
	test_random();
	time_scale = (uint64_t)1 << 27;
	test_random();
	return done_testing();
}
