/*
 * unit-transform: transform_apply on a model fed straight to the builder,
 * for what the batch options do not reach: focus on a call path (a
 * subtree), and a collapse or merge limited to the chosen methods.
 *
 * Thread main, times standing for both clocks:
 *
 *   main 0..100
 *     rec 10..60
 *       rec 20..50
 *         mid 25..45
 *           leaf 30..40
 *     rec 70..90
 *       mid 75..85
 *
 * Each case checks the calls kept (method, depth, start, duration) and
 * the thread's span against numbers worked out by hand from the drawing.
 */
#include "config.h"

#include "model/calltree.h"
#include "model/scope.h"
#include "model/transform.h"
#include "query/transforms.h"

#include "tap.h"
#include "trace-begin.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { MAIN, REC, MID, LEAF };

static struct calltree *
build(void)
{
	static const char *const names[] = {"main", "rec", "mid", "leaf"};
	static const struct {
		unsigned method, action, time;
	} ev[] = {
	        {MAIN, 0, 0},  {REC, 0, 10},   {REC, 0, 20}, {MID, 0, 25},
	        {LEAF, 0, 30}, {LEAF, 1, 40},  {MID, 1, 45}, {REC, 1, 50},
	        {REC, 1, 60},  {REC, 0, 70},   {MID, 0, 75}, {MID, 1, 85},
	        {REC, 1, 90},  {MAIN, 1, 100},
	};
	struct calltree_builder *b;
	const struct trace_sink *s =
	        trace_begin(&b, "t.trace", TRACE_CLOCK_DUAL, names, 4);
	size_t i;

	for (i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		s->event(s->ctx, 1, 0x10 * (ev[i].method + 1),
		         (enum trace_action)ev[i].action, ev[i].time,
		         ev[i].time);
	return calltree_builder_finish(b);
}

/* Thread main's calls of out are exactly want[0..n): method, depth,
 * start and duration on both clocks. */
static void
expect_calls(const struct calltree *out, const char *what,
             const unsigned (*want)[4], size_t n)
{
	const struct tt_thread *th = &out->threads[0];
	size_t i;
	int k;

	is_u64(th->ncalls, n, "%s: %zu calls kept", what, n);
	for (i = 0; i < n && i < th->ncalls; i++) {
		size_t c = th->first_call + i;
		bool same = calltree_method(out, c) == want[i][0] &&
		            calltree_depth(out, c) == want[i][1];

		for (k = 0; k < CLOCK_COUNT; k++)
			same = same &&
			       calltree_start(out, c, k) == want[i][2] &&
			       calltree_duration(out, c, k) == want[i][3];
		ok(same, "%s: call %zu is method %u, depth %u, %u..%u", what, i,
		   want[i][0], want[i][1], want[i][2], want[i][2] + want[i][3]);
	}
}

/*
 * The focused model's totals are its outermost calls' time: `all` over
 * the whole trace, `in_range` within 15..80 (wall); the title's text
 * against the model it came from is `text`.
 */
static void
focus_totals(const struct calltree *out, const struct calltree *whole,
             const char *what, uint64_t all, uint64_t in_range,
             const char *text)
{
	struct scope scope;
	uint64_t part = 0, of = 0;
	char *got;
	int k;

	scope_init_all(&scope, out);
	for (k = 0; k < CLOCK_COUNT; k++)
		is_u64(scope_total(&scope, out, (enum clock_index)k), all,
		       "%s: the total is the focused calls' %" PRIu64, what,
		       all);
	got = transforms_focus_text("focus rec", out, whole, &scope, CLOCK_WALL,
	                            &part, &of);
	ok(got && strcmp(got, text) == 0, "%s: the title says '%s' (%s)", what,
	   text, got ? got : "NULL");
	is_u64(part, all, "%s: the focused part %" PRIu64, what, all);
	is_u64(of, 100, "%s: of the whole 100", what);
	free(got);
	ok(scope_parse_range("15us..80us", CLOCK_WALL, &scope.range),
	   "%s: a range parses", what);
	is_u64(scope_total(&scope, out, CLOCK_WALL), in_range,
	       "%s: within 15..80, the focused calls cut to it: %" PRIu64, what,
	       in_range);
	scope_done(&scope);
}

int
main(void)
{
	struct calltree *tree = build();
	struct calltree *out;
	struct transform t = {0};
	bool sel[4] = {false};

	/* main -> rec -> rec: the inner rec is the one root. */
	{
		static const uint32_t path[] = {MAIN, REC, REC};
		static const unsigned want[][4] = {
		        {REC, 0, 20, 30}, {MID, 1, 25, 20}, {LEAF, 2, 30, 10}};

		t.kind = TRANSFORM_FOCUS_SUBTREE;
		t.path = path;
		t.npath = 3;
		out = transform_apply(tree, &t);
		expect_calls(out, "focus main;rec;rec", want, 3);
		is_u64(calltree_thread_span(out, 0, CLOCK_WALL), 100,
		       "focus: the thread keeps its span");
		ok(out->focused, "focus: the model says it is focused");
		focus_totals(out, tree, "focus main;rec;rec", 30, 30,
		             "focus rec: 0.030 of 0.100 ms");
		calltree_free(out);
	}
	/* main -> rec: both outer recs are roots, the inner one kept. */
	{
		static const uint32_t path[] = {MAIN, REC};
		static const unsigned want[][4] = {
		        {REC, 0, 10, 50},  {REC, 1, 20, 30}, {MID, 2, 25, 20},
		        {LEAF, 3, 30, 10}, {REC, 0, 70, 20}, {MID, 1, 75, 10}};

		t.path = path;
		t.npath = 2;
		out = transform_apply(tree, &t);
		expect_calls(out, "focus main;rec", want, 6);
		/* 10..60 and 70..90; in 15..80: 15..60 and 70..80. */
		focus_totals(out, tree, "focus main;rec", 70, 55,
		             "focus rec: 0.070 of 0.100 ms");
		calltree_free(out);
	}
	/* A path no call takes keeps nothing. */
	{
		static const uint32_t path[] = {MAIN, MID};

		t.path = path;
		t.npath = 2;
		out = transform_apply(tree, &t);
		is_u64(out->threads[0].ncalls, 0, "focus main;mid: no calls");
		calltree_free(out);
	}
	/* Recursion collapsed for rec only. */
	{
		static const unsigned want[][4] = {
		        {MAIN, 0, 0, 100}, {REC, 1, 10, 50}, {MID, 2, 25, 20},
		        {LEAF, 3, 30, 10}, {REC, 1, 70, 20}, {MID, 2, 75, 10}};

		t.kind = TRANSFORM_COLLAPSE_RECURSION;
		sel[REC] = true;
		t.methods = sel;
		out = transform_apply(tree, &t);
		expect_calls(out, "collapse rec's recursion", want, 6);
		calltree_free(out);
	}
	/* Drop mid: 20 + 10 leave, and the second rec moves back by 20. */
	{
		static const unsigned want[][4] = {{MAIN, 0, 0, 70},
		                                   {REC, 1, 10, 30},
		                                   {REC, 2, 20, 10},
		                                   {REC, 1, 50, 10}};

		t.kind = TRANSFORM_DROP;
		sel[REC] = false;
		sel[MID] = true;
		out = transform_apply(tree, &t);
		expect_calls(out, "drop mid", want, 4);
		is_u64(calltree_thread_span(out, 0, CLOCK_CPU), 70,
		       "drop: the thread's span loses the dropped time");
		calltree_free(out);
	}
	calltree_free(tree);
	return done_testing();
}
