/*
 * unit-range: profile_from_index against profile_compute on random
 * traces fed through calltree_builder_sink, for random scopes and random
 * time ranges, with blocks of many sizes.
 *
 * A random trace has three threads taking turns, six methods (so calls
 * recur and links repeat), nesting up to depth eight, and times that
 * often stand still, on one clock or both.  It also has what real traces
 * have now and then: exits of methods deeper in the stack, exits with no
 * entry, exits by exception, backward steps of the thread clock, jumps
 * of more than 2^32 microseconds, and frames left open at the end.
 *
 * Ranges are drawn on either clock: ranges that cut calls at one or both
 * edges, ranges of zero width, ranges before, between and after the
 * events, and ranges around everything.  Both profiles must agree on
 * every total, every row, every link, and every method's parents and
 * children.
 */
#include "config.h"

#include "model/calltree.h"
#include "query/profile-index.h"
#include "query/profile.h"
#include "model/scope.h"

#include "profile-same.h"
#include "rng.h"
#include "tap.h"
#include "trace-begin.h"

#include <stdlib.h>

enum { NMETHODS = 6, NTHREADS = 3, MAX_DEPTH = 8 };

/* ---- random traces --------------------------------------------------- */

static const struct trace_sink *
begin(struct calltree_builder **b, enum trace_clock clock)
{
	static const char *const names[NMETHODS] = {"a", "b", "c",
	                                            "d", "e", "f"};

	return trace_begin(b, "unit-range", clock, names, NMETHODS);
}

static uint64_t
random_method(void)
{
	return 0x10 * (below(NMETHODS) + 1);
}

/* A random trace of about n events on the given clocks. */
static struct calltree *
random_tree(uint64_t seed, unsigned n, enum trace_clock clock)
{
	struct calltree_builder *b;
	const struct trace_sink *s = begin(&b, clock);
	uint64_t stack[NTHREADS][MAX_DEPTH];
	unsigned depth[NTHREADS] = {0};
	uint64_t cpu[NTHREADS] = {0}, wall = 0;
	unsigned i, t;

	rng_state = seed;
	for (i = 0; i < n; i++) {
		unsigned roll = (unsigned)below(100);

		t = (unsigned)below(NTHREADS);
		cpu[t] += below(3) ? below(6) : 0;
		wall += below(3) ? below(10) : 0;
		if (below(400) == 0)
			cpu[t] -= cpu[t] ? below(cpu[t] < 5 ? cpu[t] : 5) : 0;
		if (below(500) == 0) {
			cpu[t] += (uint64_t)1 << 32;
			wall += ((uint64_t)1 << 32) + below(1000);
		}
		if (roll < 2) {
			/* An exit with no entry, or of a method the stack
			 * may hold deeper down. */
			s->event(s->ctx, t + 1, random_method(),
			         below(2) ? TRACE_EXIT : TRACE_UNWIND, cpu[t],
			         wall);
			if (depth[t] && below(2))
				depth[t]--;
		} else if (depth[t] == 0 ||
		           (depth[t] < MAX_DEPTH && roll < 57)) {
			uint64_t m = random_method();

			stack[t][depth[t]++] = m;
			s->event(s->ctx, t + 1, m, TRACE_ENTER, cpu[t], wall);
		} else {
			s->event(s->ctx, t + 1, stack[t][--depth[t]],
			         below(20) ? TRACE_EXIT : TRACE_UNWIND, cpu[t],
			         wall);
		}
	}
	/* Some frames stay open at the end. */
	for (t = 0; t < NTHREADS; t++) {
		while (depth[t] && below(3)) {
			cpu[t] += below(3);
			wall += below(4);
			s->event(s->ctx, t + 1, stack[t][--depth[t]],
			         TRACE_EXIT, cpu[t], wall);
		}
	}
	return calltree_builder_finish(b);
}

/* ---- comparing -------------------------------------------------------- */

static bool
same_links(struct profile *a, struct profile *b)
{
	size_t i;

	if (a->nlinks != b->nlinks)
		return false;
	if (a->nlinks > 1) {
		qsort(a->links, a->nlinks, sizeof(*a->links), link_order);
		qsort(b->links, b->nlinks, sizeof(*b->links), link_order);
	}
	for (i = 0; i < a->nlinks; i++) {
		const struct profile_link *x = &a->links[i], *y = &b->links[i];

		if (link_order(x, y) != 0 || x->calls != y->calls ||
		    x->incl[0] != y->incl[0] || x->incl[1] != y->incl[1])
			return false;
	}
	return true;
}

/* True when the fast profile equals the slow one in every number. */
static bool
same_profile(const struct calltree *tree, struct profile *slow,
             struct profile *fast)
{
	size_t m;

	if (slow->total[0] != fast->total[0] ||
	    slow->total[1] != fast->total[1] || slow->nrows != fast->nrows ||
	    memcmp(slow->rows, fast->rows,
	           tree->nmethods * sizeof(*slow->rows)))
		return false;
	for (m = 0; m < tree->nmethods; m++) {
		struct profile_edges a, b;
		bool same;

		profile_edges_of(&a, slow, (uint32_t)m, CLOCK_CPU);
		profile_edges_of(&b, fast, (uint32_t)m, CLOCK_CPU);
		same = same_edges(a.parents, a.nparents, b.parents,
		                  b.nparents) &&
		       same_edges(a.children, a.nchildren, b.children,
		                  b.nchildren);
		profile_edges_done(&a);
		profile_edges_done(&b);
		if (!same)
			return false;
	}
	return same_links(slow, fast);
}

/* Thread index of call c. */
static size_t
tree_thread_of(const struct calltree *tree, size_t c)
{
	size_t t;

	for (t = 0; t < tree->nthreads; t++)
		if (c - tree->threads[t].first_call < tree->threads[t].ncalls)
			return t;
	return 0;
}

/* ---- ranges ----------------------------------------------------------- */

/* The last event time of any thread on clock k. */
static uint64_t
last_time(const struct calltree *tree, enum clock_index k)
{
	uint64_t last = 0;
	size_t t;

	for (t = 0; t < tree->nthreads; t++)
		if (tree->threads[t].ncalls && tree->threads[t].last[k] > last)
			last = tree->threads[t].last[k];
	return last;
}

/* A time on clock k: often exactly a call's start or end, sometimes
 * anywhere up to a little past the end. */
static uint64_t
random_time(const struct calltree *tree, enum clock_index k)
{
	size_t c;

	if (tree->calls.count && below(2)) {
		c = below(tree->calls.count);
		return below(2) ? calltree_start(tree, c, k)
		                : calltree_end(tree, c, k);
	}
	return below(last_time(tree, k) + 20);
}

/* A random range on clock k: kind 0 cuts anywhere, 1 is of zero width,
 * 2 lies past the end, 3 covers everything. */
static void
random_range(const struct calltree *tree, enum clock_index k, int kind,
             struct time_range *r)
{
	uint64_t a = random_time(tree, k), b = random_time(tree, k);

	r->on = true;
	r->clock = k;
	switch (kind) {
	case 0:
		r->start = a < b ? a : b;
		r->end = a < b ? b : a + 1;
		break;
	case 1:
		r->start = r->end = a;
		break;
	case 2:
		r->start = last_time(tree, k) + 1 + below(5);
		r->end = r->start + 1 + below(100);
		break;
	default:
		r->start = 0;
		r->end = last_time(tree, k) + 1 + below(3);
		break;
	}
}

/* A random scope: every thread, one, or any subset (maybe none). */
static void
random_scope(const struct calltree *tree, struct scope *scope)
{
	size_t t;

	switch (below(3)) {
	case 0:
		scope_init_all(scope, tree);
		break;
	case 1:
		scope_init_none(scope, tree);
		if (tree->nthreads)
			scope_add(scope, below(tree->nthreads));
		break;
	default:
		scope_init_none(scope, tree);
		for (t = 0; t < tree->nthreads; t++)
			if (below(2))
				scope_add(scope, t);
		break;
	}
}

/* True when a call of the scope's threads straddles an edge of its
 * range. */
static bool
cuts_a_call(const struct calltree *tree, const struct scope *scope)
{
	const struct time_range *r = &scope->range;
	size_t c;

	for (c = 0; r->on && c < tree->calls.count; c++) {
		uint64_t a = calltree_start(tree, c, r->clock);
		uint64_t b = calltree_end(tree, c, r->clock);

		if (scope_has(scope, tree_thread_of(tree, c)) &&
		    ((a < r->start && r->start < b) ||
		     (a < r->end && r->end < b)))
			return true;
	}
	return false;
}

static void
diag_range(const char *what, size_t block, const struct scope *scope)
{
	printf("#   %s, blocks of %zu: %zu threads, range %s %llu..%llu "
	       "on clock %d\n",
	       what, block, scope->count, scope->range.on ? "on" : "off",
	       (unsigned long long)scope->range.start,
	       (unsigned long long)scope->range.end, (int)scope->range.clock);
}

/* The clock of a random range: either, when the trace has both. */
static enum clock_index
random_clock(const struct calltree *tree)
{
	if (tree->has_clock[CLOCK_WALL] && tree->has_clock[CLOCK_CPU])
		return below(2) ? CLOCK_WALL : CLOCK_CPU;
	return calltree_default_range_clock(tree);
}

/*
 * Compare on `tries` random scopes and ranges with each block size: the
 * first try covers everything, the second has no range, a third of the
 * rest are of zero width, past the end or around everything.
 */
static void
check_tree(const struct calltree *tree, const char *what, int tries)
{
	static const size_t blocks[] = {1, 2, 3, 5, 8, 64, 512, 0};
	size_t nb = sizeof(blocks) / sizeof(*blocks), bi;
	int agree, cut = 0, i;

	for (bi = 0; bi < nb; bi++) {
		struct profile_index *ix = profile_index_new(tree, blocks[bi]);
		size_t block = blocks[bi] ? blocks[bi] : PROFILE_INDEX_BLOCK;

		agree = 0;
		for (i = 0; i < tries; i++) {
			struct scope scope;
			struct profile slow, fast;
			int kind = i == 0     ? 3
			           : below(3) ? 0
			                      : 1 + (int)below(3);

			random_scope(tree, &scope);
			if (i != 1)
				random_range(tree, random_clock(tree), kind,
				             &scope.range);
			cut += cuts_a_call(tree, &scope);
			profile_compute(&slow, tree, &scope);
			profile_from_index(&fast, ix, tree, &scope);
			if (same_profile(tree, &slow, &fast))
				agree++;
			else
				diag_range(what, block, &scope);
			profile_done(&slow);
			profile_done(&fast);
			scope_done(&scope);
		}
		ok(agree == tries, "%s, blocks of %zu: %d of %d ranges agree",
		   what, block, agree, tries);
		profile_index_free(ix);
	}
	if (tree->calls.count > 100)
		ok(cut > tries, "%s: %d ranges cut calls", what, cut);
}

/* A trace with threads but no calls: every range is empty. */
static void
test_no_calls(void)
{
	struct calltree_builder *b;
	const struct trace_sink *s = begin(&b, TRACE_CLOCK_DUAL);
	struct calltree *tree;

	(void)s;
	tree = calltree_builder_finish(b);
	check_tree(tree, "no calls", 8);
	calltree_free(tree);
}

/* A copied scope equals its source and owns its set; a changed thread or
 * range makes them differ. */
static void
test_scope_copy(void)
{
	bool on[3] = {true, false, true};
	struct scope a = {on, 3, 2, {0}}, b = {0};

	scope_copy(&b, &a);
	ok(scope_equal(&a, &b) && b.on != a.on && b.count == 2,
	   "scope copy: equal, with a set of its own");
	b.on[1] = true;
	ok(!scope_equal(&a, &b), "scope copy: another thread differs");
	scope_copy(&b, &a);
	b.range.on = true;
	b.range.end = 5;
	ok(!scope_equal(&a, &b), "scope copy: a range differs");
	a.range = b.range;
	ok(scope_equal(&a, &b), "scope copy: the same range is equal");
	a.range.start = 1;
	ok(!scope_equal(&a, &b), "scope copy: another start differs");
	scope_done(&b);
}

int
main(void)
{
	static const enum trace_clock clocks[] = {
	        TRACE_CLOCK_DUAL, TRACE_CLOCK_WALL, TRACE_CLOCK_CPU};
	static const char *const clock_names[] = {"dual", "wall", "cpu"};
	uint64_t seed;
	unsigned sizes[] = {0, 1, 2, 7, 40, 300, 3000, 20000};
	size_t si;
	int c;

	test_no_calls();
	test_scope_copy();
	for (c = 0; c < 3; c++) {
		for (si = 0; si < sizeof(sizes) / sizeof(*sizes); si++) {
			for (seed = 1; seed <= 3; seed++) {
				struct calltree *tree;
				char what[64];

				/* make check: one seed of the big ones, the
				 * biggest on both clocks only. */
				if (!tap_long() && sizes[si] >= 3000 &&
				    (seed > 1 || (sizes[si] >= 20000 && c > 0)))
					continue;
				snprintf(what, sizeof(what),
				         "%s, %u events, seed %llu",
				         clock_names[c], sizes[si],
				         (unsigned long long)seed);
				tree = random_tree(seed * 7919 + sizes[si],
				                   sizes[si], clocks[c]);
				check_tree(tree, what, 60);
				calltree_free(tree);
			}
		}
	}
	return done_testing();
}
