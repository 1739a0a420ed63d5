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
 *
 * Then every kind of transform, on chosen methods or all, once and
 * twice in a row, on random models of three threads (long calls, steps
 * of the high bits, recursion, an unwind, a chain 70000 deep), against
 * the same transform fed as events to a fresh builder
 * (tests/transform-events.c), field by field; and a transform told to
 * stop gives up.
 */
#include "config.h"

#include "model/calltree.h"
#include "model/scope.h"
#include "model/transform.h"
#include "query/transforms.h"

#include "rng.h"
#include "tap.h"
#include "trace-begin.h"
#include "transform-events.h"

#include <inttypes.h>
#include <stdio.h>
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

/* ---- the direct build against the builder's ---------------------------- */

static const char *const random_names[] = {"a", "b", "c", "d", "e", "f",
                                           "g", "h", "i", "j", "k", "l"};
enum { RANDOM_METHODS = 12 };

/*
 * A random model: on each of three threads, calls up to 12 deep of 12
 * methods (in four classes of two packages), times stepping by up to a
 * few microseconds or now and then by more than 65536 (long calls, new
 * high bits), a call left by an unwind now and then; with `deep`, a
 * chain 70000 deep on thread 2 (the side table of deep calls).
 */
static struct calltree *
random_model(bool deep)
{
	static const char *const classes[] = {"p.q.A", "p.q.B", "p.C", "D"};
	struct calltree_builder *b;
	const struct trace_sink *s;
	struct trace_header h = trace_header_v1(TRACE_CLOCK_DUAL, 64);
	uint64_t now[2] = {0, 0};
	unsigned t, i, m;

	b = calltree_builder_new("random.trace");
	s = calltree_builder_sink(b);
	s->begin(s->ctx, &h);
	for (m = 0; m < RANDOM_METHODS; m++) {
		struct trace_method_def d = {.id = 0x10 * (m + 1),
		                             .klass = classes[m % 4],
		                             .name = random_names[m],
		                             .signature = "()V",
		                             .line = -1};

		s->method(s->ctx, &d);
	}
	s->thread(s->ctx, 1, "main");
	s->thread(s->ctx, 2, "worker");
	s->thread(s->ctx, 3, "render");
	for (t = 1; t <= 3; t++) {
		unsigned stack[16], depth = 0,
		                    events = 200 + (unsigned)below(400);

		for (i = 0; i < events || depth; i++) {
			bool enter = i < events && depth < 12 &&
			             (!depth || below(100) < 55);
			int k;

			for (k = 0; k < 2; k++)
				now[k] += below(100) < 3 ? 70000 + below(90000)
				                         : below(6);
			if (enter) {
				stack[depth++] =
				        (unsigned)below(RANDOM_METHODS);
				s->event(s->ctx, t,
				         0x10 * (stack[depth - 1] + 1),
				         TRACE_ENTER, now[0], now[1]);
			} else {
				depth--;
				s->event(s->ctx, t, 0x10 * (stack[depth] + 1),
				         below(50) ? TRACE_EXIT : TRACE_UNWIND,
				         now[0], now[1]);
			}
		}
		if (deep && t == 2) {
			for (i = 0; i < 70000; i++)
				s->event(s->ctx, t, 0x10 * (i % 3 + 1),
				         TRACE_ENTER, now[0] + i, now[1] + i);
			for (i = 70000; i-- > 0;)
				s->event(s->ctx, t, 0x10 * (i % 3 + 1),
				         TRACE_EXIT, now[0] + 140000 - i,
				         now[1] + 140000 - i);
			now[0] += 140001;
			now[1] += 140001;
		}
	}
	return calltree_builder_finish(b);
}

/* The first difference between models a and b, or NULL. */
static const char *
difference(const struct calltree *a, const struct calltree *b)
{
	size_t c, i;
	int k;

#define DIFF(what, x, y)                                                       \
	do {                                                                   \
		if ((x) != (y))                                                \
			return what;                                           \
	} while (0)
	DIFF("call count", a->calls.count, b->calls.count);
	DIFF("method count", a->nmethods, b->nmethods);
	DIFF("thread count", a->nthreads, b->nthreads);
	DIFF("focused", a->focused, b->focused);
	DIFF("max depth", a->max_depth, b->max_depth);
	DIFF("records", a->records, b->records);
	DIFF("sampled", a->sampled, b->sampled);
	DIFF("unwinds", a->anomalies.unwinds, b->anomalies.unwinds);
	for (i = 0; i < a->nmethods; i++) {
		DIFF("method id", a->methods[i].id, b->methods[i].id);
		DIFF("method defined", a->methods[i].defined,
		     b->methods[i].defined);
		if (strcmp(a->methods[i].klass, b->methods[i].klass) ||
		    strcmp(a->methods[i].name, b->methods[i].name))
			return "method name";
	}
	for (i = 0; i < a->nthreads; i++) {
		const struct tt_thread *x = &a->threads[i], *y = &b->threads[i];

		DIFF("thread first call", x->first_call, y->first_call);
		DIFF("thread calls", x->ncalls, y->ncalls);
		DIFF("thread max depth", x->max_depth, y->max_depth);
		DIFF("thread events", x->nevents, y->nevents);
		if (strcmp(x->name, y->name))
			return "thread name";
		for (k = 0; k < CLOCK_COUNT; k++) {
			DIFF("thread first", x->first[k], y->first[k]);
			DIFF("thread last", x->last[k], y->last[k]);
		}
	}
	for (c = 0; c < a->calls.count; c++) {
		DIFF("method", calltree_method(a, c), calltree_method(b, c));
		DIFF("depth", calltree_depth(a, c), calltree_depth(b, c));
		DIFF("parent", calltree_parent(a, c), calltree_parent(b, c));
		DIFF("flags", a->calls.flags[c], b->calls.flags[c]);
		for (k = 0; k < CLOCK_COUNT; k++) {
			DIFF("start", calltree_start(a, c, k),
			     calltree_start(b, c, k));
			DIFF("duration", calltree_duration(a, c, k),
			     calltree_duration(b, c, k));
		}
	}
	for (k = 0; k < CLOCK_COUNT; k++) {
		DIFF("steps", a->calls.nsteps[k], b->calls.nsteps[k]);
		DIFF("longs", a->calls.nlongs[k], b->calls.nlongs[k]);
	}
	DIFF("deep calls", a->calls.ndeep, b->calls.ndeep);
#undef DIFF
	return NULL;
}

/* A random transform of tree into *t: its kind, methods and path
 * (in sel and path, which must hold tree's methods and depth). */
static void
random_transform(const struct calltree *tree, struct transform *t, bool *sel,
                 uint32_t *path)
{
	size_t m, c;

	memset(t, 0, sizeof(*t));
	t->kind = (enum transform_kind)below(TRANSFORM_GROUP_PACKAGE + 1);
	for (m = 0; m < tree->nmethods; m++)
		sel[m] = below(4) == 0;
	t->methods = below(6) ? sel : NULL;
	if (t->kind == TRANSFORM_FOCUS_SUBTREE && tree->calls.count) {
		/* The path of a random call, or a path no call takes. */
		c = below(tree->calls.count);
		t->npath = calltree_depth(tree, c) + 1;
		for (m = t->npath; m-- > 0; c = calltree_parent(tree, c))
			path[m] = calltree_method(tree, c);
		if (below(5) == 0)
			path[t->npath - 1] = (uint32_t)below(tree->nmethods);
		t->path = path;
	}
}

/* Stops at once. */
static bool
stop_now(void *arg)
{
	(void)arg;
	return true;
}

/* Every kind, once and twice in a row, on random models. */
static void
against_builder(void)
{
	unsigned seed, runs = tap_long() ? 400 : 40, bad = 0, twice = 0;

	for (seed = 1; seed <= runs; seed++) {
		struct calltree *tree, *a, *b;
		bool *sel;
		uint32_t *path;
		struct transform t;
		const char *why;
		int step;

		rng_state = seed;
		tree = random_model(seed == 1);
		/* The deep chain (seed 1) is most of the time: make check
		 * transforms it once, the other seeds twice; check-long
		 * every seed twice. */
		for (step = 0; step < (seed == 1 && !tap_long() ? 1 : 2);
		     step++) {
			sel = calloc(tree->nmethods + 1, sizeof(*sel));
			path = calloc(tree->max_depth + 2, sizeof(*path));
			random_transform(tree, &t, sel, path);
			a = transform_apply(tree, &t);
			b = transform_apply_events(tree, &t);
			why = difference(a, b);
			if (why && !bad++)
				printf("# seed %u step %d kind %d: %s\n", seed,
				       step, (int)t.kind, why);
			calltree_free(b);
			free(sel);
			free(path);
			calltree_free(tree);
			tree = a;
			twice += step;
		}
		calltree_free(tree);
	}
	ok(!bad,
	   "%u random transforms and %u on top of them: the direct "
	   "build is the builder's, field by field (%u differ)",
	   runs, twice, bad);
	{
		struct calltree *tree, *out;
		struct transform all = {.kind = TRANSFORM_GROUP_CLASS};

		rng_state = 7;
		tree = random_model(true);
		out = transform_apply_until(tree, &all, stop_now, NULL);
		ok(!out, "a transform told to stop gives nothing");
		out = transform_apply_until(tree, &all, NULL, NULL);
		ok(out && out->calls.count == tree->calls.count,
		   "without stop it groups every call");
		calltree_free(out);
		calltree_free(tree);
	}
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
	against_builder();
	return done_testing();
}
