/*
 * unit-drilldown: drilldown_compute on recursive call trees whose rows
 * are worked out by hand below, on both clocks.  Every share stays at or
 * under 100% and the two self rows add up to the method's exclusive time.
 */
#include "config.h"

#include "model/builder.h"
#include "query/drilldown.h"
#include "tap.h"
#include "trace-begin.h"

#include <stdlib.h>

enum { M = 0x10, A = 0x20, B = 0x30, C = 0x40 };

static const char *const names[] = {"m", "a", "b", "c"};

static struct calltree_builder *builder;
static const struct trace_sink *sink;

static void
ev(uint64_t method, enum trace_action action, uint64_t t)
{
	sink->event(sink->ctx, 1, method, action, t, t);
}

#define IN(m, t) ev(m, TRACE_ENTER, t)
#define OUT(m, t) ev(m, TRACE_EXIT, t)

/* The model's index of the method with trace id `id`. */
static uint32_t
index_of(const struct calltree *tree, uint64_t id)
{
	uint32_t m;

	for (m = 0; m < tree->nmethods; m++)
		if (tree->methods[m].id == id)
			return m;
	return CALL_NONE;
}

/* One expected row: kind, section, the other method's id (0: the
 * examined method, 1: the top level), calls, of_calls, time, base. */
struct want {
	enum drill_kind kind;
	enum drill_section section;
	uint64_t id;
	uint64_t calls, of_calls, incl, base;
};

static void
check(const char *what, const struct calltree *tree, uint64_t id,
      const struct want *want, size_t n, uint64_t excl)
{
	struct scope all;
	struct profile p;
	struct drilldown d;
	uint32_t m = index_of(tree, id);
	int k;

	scope_init_all(&all, tree);
	profile_compute(&p, tree, &all);
	for (k = 0; k < CLOCK_COUNT; k++) {
		uint64_t self = 0;
		size_t i;

		drilldown_compute(&d, &p, m, (enum clock_index)k);
		is_u64(d.nrows, n, "%s, clock %d: rows", what, k);
		for (i = 0; i < d.nrows && i < n; i++) {
			const struct drill_row *r = &d.rows[i];
			const struct want *w = &want[i];
			uint32_t other = w->id == 0   ? m
			                 : w->id == 1 ? CALL_NONE
			                              : index_of(tree, w->id);

			ok(r->kind == w->kind && r->section == w->section &&
			           r->method == other,
			   "%s, clock %d, row %zu: kind %d section %d", what, k,
			   i, (int)w->kind, (int)w->section);
			if (r->kind == DRILL_HEADING)
				continue;
			is_u64(r->calls, w->calls,
			       "%s, clock %d, row %zu: calls", what, k, i);
			is_u64(r->of_calls, w->of_calls,
			       "%s, clock %d, row %zu: of calls", what, k, i);
			is_u64(r->incl[k], w->incl,
			       "%s, clock %d, row %zu: time", what, k, i);
			is_u64(r->base[k], w->base,
			       "%s, clock %d, row %zu: base", what, k, i);
			ok(drill_share(r, (enum clock_index)k) <= 100.0,
			   "%s, clock %d, row %zu: share %.1f%% <= 100%%", what,
			   k, i, drill_share(r, (enum clock_index)k));
			if (r->kind == DRILL_SELF)
				self += r->incl[k];
		}
		is_u64(self, excl, "%s, clock %d: self rows add up to excl",
		       what, k);
		is_u64(d.excl[k], excl, "%s, clock %d: excl", what, k);
		drilldown_done(&d);
	}
	profile_done(&p);
	scope_done(&all);
}

/*
 * Indirect and direct recursion on one thread:
 *
 *   m1 [0,100]              non-recursive, at the top level
 *     a [10,70]
 *       m2 [20,60]          recursive, called by a
 *         b [25,35]
 *         m3 [40,50]        recursive, called by m
 *     c [75,80]
 *   b [110,120]
 *
 * m: calls 1+2, incl 100 (m1), excl 35 + 20 + 10 = 65, of which the
 * non-recursive m1 has 35 (100 - 60 - 5) and the recursive calls 30
 * (m2: 40 - 10 - 10, m3: 10).  Time while recursive: m2 + m3 = 50.
 *
 *   Parents                   (top level) 100 of 100, 1/3
 *   Children                  self 35; a 60, 1/1; c 5, 1/1
 *   Parents while recursive   a 40 of 50, 1/3; m 10 of 50, 1/3
 *   Children while recursive  self 30; m 10, 1/3; b 10, 1/2 (a tie
 *                             of time and calls: the key's order)
 */
static void
test_indirect(void)
{
	static const struct want want[] = {
	        {DRILL_HEADING, DRILL_PARENTS, 0, 0, 0, 0, 0},
	        {DRILL_PARENT, DRILL_PARENTS, 1, 1, 3, 100, 100},
	        {DRILL_HEADING, DRILL_CHILDREN, 0, 0, 0, 0, 0},
	        {DRILL_SELF, DRILL_CHILDREN, 0, 0, 0, 35, 100},
	        {DRILL_CHILD, DRILL_CHILDREN, A, 1, 1, 60, 100},
	        {DRILL_CHILD, DRILL_CHILDREN, C, 1, 1, 5, 100},
	        {DRILL_HEADING, DRILL_PARENTS_RECURSIVE, 0, 0, 0, 0, 0},
	        {DRILL_PARENT, DRILL_PARENTS_RECURSIVE, A, 1, 3, 40, 50},
	        {DRILL_PARENT, DRILL_PARENTS_RECURSIVE, 0, 1, 3, 10, 50},
	        {DRILL_HEADING, DRILL_CHILDREN_RECURSIVE, 0, 0, 0, 0, 0},
	        {DRILL_SELF, DRILL_CHILDREN_RECURSIVE, 0, 0, 0, 30, 50},
	        {DRILL_CHILD, DRILL_CHILDREN_RECURSIVE, 0, 1, 3, 10, 50},
	        {DRILL_CHILD, DRILL_CHILDREN_RECURSIVE, B, 1, 2, 10, 50},
	};
	struct calltree *tree;

	sink = trace_begin(&builder, "indirect", TRACE_CLOCK_DUAL, names, 4);
	IN(M, 0);
	IN(A, 10);
	IN(M, 20);
	IN(B, 25);
	OUT(B, 35);
	IN(M, 40);
	OUT(M, 50);
	OUT(M, 60);
	OUT(A, 70);
	IN(C, 75);
	OUT(C, 80);
	OUT(M, 100);
	IN(B, 110);
	OUT(B, 120);
	tree = calltree_builder_finish(builder);
	check("indirect", tree, M, want, sizeof(want) / sizeof(want[0]), 65);
	calltree_free(tree);
}

/*
 * Direct recursion four deep: m1 [0,40] m2 [5,35] m3 [10,30] m4 [15,25].
 * Each call's exclusive time is 10, so excl 40, incl 40; the recursive
 * calls last 30 + 20 + 10 = 60, the time while recursive.  Before, the
 * recursive parent row showed those 60 as 150% of the inclusive 40.
 *
 *   Parents                   (top level) 40 of 40, 1/4
 *   Children                  self 10; m 30 (m2), 1/4
 *   Parents while recursive   m 60 of 60, 3/4
 *   Children while recursive  self 30; m 30 (m3 + m4), 2/4
 */
static void
test_direct(void)
{
	static const struct want want[] = {
	        {DRILL_HEADING, DRILL_PARENTS, 0, 0, 0, 0, 0},
	        {DRILL_PARENT, DRILL_PARENTS, 1, 1, 4, 40, 40},
	        {DRILL_HEADING, DRILL_CHILDREN, 0, 0, 0, 0, 0},
	        {DRILL_SELF, DRILL_CHILDREN, 0, 0, 0, 10, 40},
	        {DRILL_CHILD, DRILL_CHILDREN, 0, 1, 4, 30, 40},
	        {DRILL_HEADING, DRILL_PARENTS_RECURSIVE, 0, 0, 0, 0, 0},
	        {DRILL_PARENT, DRILL_PARENTS_RECURSIVE, 0, 3, 4, 60, 60},
	        {DRILL_HEADING, DRILL_CHILDREN_RECURSIVE, 0, 0, 0, 0, 0},
	        {DRILL_SELF, DRILL_CHILDREN_RECURSIVE, 0, 0, 0, 30, 60},
	        {DRILL_CHILD, DRILL_CHILDREN_RECURSIVE, 0, 2, 4, 30, 60},
	};
	struct calltree *tree;

	sink = trace_begin(&builder, "direct", TRACE_CLOCK_DUAL, names, 4);
	IN(M, 0);
	IN(M, 5);
	IN(M, 10);
	IN(M, 15);
	OUT(M, 25);
	OUT(M, 30);
	OUT(M, 35);
	OUT(M, 40);
	tree = calltree_builder_finish(builder);
	check("direct", tree, M, want, sizeof(want) / sizeof(want[0]), 40);
	calltree_free(tree);
}

/*
 * A method never recursive: only Parents and Children.  In the indirect
 * tree above, a: called once by m (60 of 60), calls m2 (40); self 20.
 */
static void
test_plain(void)
{
	static const struct want want[] = {
	        {DRILL_HEADING, DRILL_PARENTS, 0, 0, 0, 0, 0},
	        {DRILL_PARENT, DRILL_PARENTS, M, 1, 1, 60, 60},
	        {DRILL_HEADING, DRILL_CHILDREN, 0, 0, 0, 0, 0},
	        {DRILL_SELF, DRILL_CHILDREN, 0, 0, 0, 20, 60},
	        {DRILL_CHILD, DRILL_CHILDREN, M, 1, 3, 40, 60},
	};
	struct calltree *tree;

	sink = trace_begin(&builder, "plain", TRACE_CLOCK_DUAL, names, 4);
	IN(M, 0);
	IN(A, 10);
	IN(M, 20);
	IN(B, 25);
	OUT(B, 35);
	IN(M, 40);
	OUT(M, 50);
	OUT(M, 60);
	OUT(A, 70);
	IN(C, 75);
	OUT(C, 80);
	OUT(M, 100);
	tree = calltree_builder_finish(builder);
	check("plain", tree, A, want, sizeof(want) / sizeof(want[0]), 20);
	calltree_free(tree);
}

int
main(void)
{
	test_indirect();
	test_direct();
	test_plain();
	return done_testing();
}
