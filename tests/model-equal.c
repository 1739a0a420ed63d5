/*
 * model-equal: load a trace the way tracetui does (a V1 data part's
 * records all at once, with a given number of workers) and event by
 * event, and compare every field of the two models.
 *
 *   model-equal WORKERS FILE [SAMPLE_TYPE [java-only]]
 *                               prints "placed" or "replayed" (how the
 *                               records were built), exits 0 when equal,
 *                               1 with the first difference on stderr,
 *                               3 when unreadable; a profile's sample
 *                               type (pprof, simpleperf) and simpleperf's
 *                               Java frames only, as the options say
 *
 * It also loads the file for its sums only, as `report` does, and
 * compares everything but the calls, the profile of all threads and
 * of each thread, row by row and link by link, and each thread's call
 * paths, node by node, and its frames (a fifth of the methods, picked
 * by a hash of their index, taken for frame methods) frame by frame,
 * with the model's; it
 * prints "summed" on a second line when the sums were taken that way
 * (else the model came back: "modelled").  Then it sums the records
 * again split between two workers at points spread over them (at every
 * record of a small trace), each also with a middle stretch in two parts
 * summed by the second worker, and with its first part summed on by the
 * first, compares each with the model the same way,
 * and prints on a third line "split N/M walked W ahead A": of M splits,
 * N were summed in two (the others were dropped for one pass, or
 * modelled), W of them at the stacks a streaming reader's walk gave, A
 * with the first worker summing ahead of the reader's report.  Last, it
 * loads the file as `report` does (for its sums, without call paths or
 * frames: a nested trace's events are then summed as they come),
 * compares it with the model the same way, and prints on a fourth line
 * "report summed" or "report modelled".
 */
#include "config.h"

#include "model/builder.h"
#include "model/scope.h"
#include "query/profile.h"
#include "read/load.h"
#include "profile-same.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	PER_THREAD = 64,   /* threads whose own profiles are compared */
	SPLIT_EVERY = 300, /* records up to which every split is tried */
	SPLITS = 8,        /* splits tried on more records */
};

static const char *problem;
static const char *sample_type; /* the sink's, or NULL */
static bool java_only;

#define SAME(what, a, b)                                                       \
	do {                                                                   \
		if ((a) != (b)) {                                              \
			problem = what;                                        \
			return false;                                          \
		}                                                              \
	} while (0)

static bool
same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool
same_anomalies(const struct tt_anomalies *a, const struct tt_anomalies *b)
{
	int k;

	SAME("orphan exits", a->orphan_exits, b->orphan_exits);
	SAME("mismatched exits", a->mismatched_exits, b->mismatched_exits);
	SAME("lost exits", a->lost_exits, b->lost_exits);
	SAME("open at end", a->open_at_end, b->open_at_end);
	SAME("unknown methods", a->unknown_methods, b->unknown_methods);
	SAME("unknown threads", a->unknown_threads, b->unknown_threads);
	for (k = 0; k < CLOCK_COUNT; k++) {
		SAME("negative steps", a->negative_steps[k],
		     b->negative_steps[k]);
		SAME("wraps", a->wraps[k], b->wraps[k]);
	}
	SAME("action 3", a->action3, b->action3);
	SAME("unwinds", a->unwinds, b->unwinds);
	SAME("overflow", a->data_file_overflow, b->data_file_overflow);
	return true;
}

static bool
same_calls(const struct calltree *a, const struct calltree *b)
{
	const struct tt_calls *x = &a->calls, *y = &b->calls;
	size_t c;
	int k;

	SAME("call count", x->count, y->count);
	for (c = 0; c < x->count; c++) {
		SAME("method", calltree_method(a, c), calltree_method(b, c));
		SAME("parent", calltree_parent(a, c), calltree_parent(b, c));
		SAME("depth", calltree_depth(a, c), calltree_depth(b, c));
		SAME("flags", x->flags[c], y->flags[c]);
		for (k = 0; k < CLOCK_COUNT; k++) {
			if (!a->has_clock[k])
				continue;
			SAME("start", calltree_start(a, c, k),
			     calltree_start(b, c, k));
			SAME("duration", calltree_duration(a, c, k),
			     calltree_duration(b, c, k));
		}
	}
	for (k = 0; k < CLOCK_COUNT; k++) {
		SAME("steps", x->nsteps[k], y->nsteps[k]);
		SAME("longs", x->nlongs[k], y->nlongs[k]);
	}
	SAME("deep calls", x->ndeep, y->ndeep);
	return true;
}

/* Everything of a and b but their calls, threads' slices of them and
 * which methods the key defined. */
static bool
same_header(const struct calltree *a, const struct calltree *b)
{
	size_t i;
	int k;

	SAME("records", a->records, b->records);
	SAME("sampled", a->sampled, b->sampled);
	SAME("sample interval", a->sample_interval, b->sample_interval);
	SAME("method count", a->nmethods, b->nmethods);
	for (i = 0; i < a->nmethods; i++) {
		SAME("method id", a->methods[i].id, b->methods[i].id);
		SAME("method name",
		     same_str(a->methods[i].name, b->methods[i].name), true);
	}
	SAME("thread count", a->nthreads, b->nthreads);
	for (i = 0; i < a->nthreads; i++) {
		const struct tt_thread *x = &a->threads[i], *y = &b->threads[i];

		SAME("tid", x->tid, y->tid);
		SAME("thread name", same_str(x->name, y->name), true);
		SAME("events", x->nevents, y->nevents);
		SAME("max depth", x->max_depth, y->max_depth);
		for (k = 0; k < CLOCK_COUNT; k++) {
			SAME("first time", x->first[k], y->first[k]);
			SAME("last time", x->last[k], y->last[k]);
		}
	}
	SAME("warnings", a->nwarnings, b->nwarnings);
	return same_anomalies(&a->anomalies, &b->anomalies);
}

/* The profiles of a and b over scope are the same. */
static bool
same_profile_of(const struct calltree *a, const struct calltree *b,
                const struct scope *scope)
{
	struct profile p, q;

	profile_compute(&p, a, scope);
	profile_compute(&q, b, scope);
	problem = profile_difference(&p, &q);
	profile_done(&p);
	profile_done(&q);
	return !problem;
}

/* Thread t's call paths in b's sums are those a's calls make. */
static bool
same_paths(const struct calltree *a, const struct calltree *b, size_t t)
{
	struct callpath p, q;
	size_t at;

	if (!b->sums)
		return true; /* the model came back: its paths are a's */
	if (!callpath_from_sums(&q, b, t)) {
		problem = "a thread's call paths";
		return false;
	}
	callpath_build_thread_whole(&p, a, t);
	at = callpath_difference(&p, &q);
	if (at != SIZE_MAX) {
		fprintf(stderr, "thread %zu, node %zu: ", t, at);
		problem = "call path nodes";
	}
	callpath_done(&p);
	callpath_done(&q);
	return at == SIZE_MAX;
}

/* The frames of thread t (all threads when t is SIZE_MAX) in the
 * model a and in the sums b are the same. */
static bool
same_frames(const struct calltree *a, const struct calltree *b, size_t t)
{
	struct scope scope;
	size_t at;

	if (!b->sums || !b->frames_summed)
		return true; /* the model came back, or no frames asked */
	if (t == SIZE_MAX) {
		scope_init_all(&scope, a);
	} else {
		scope_init_none(&scope, a);
		scope_add(&scope, t);
	}
	at = frames_difference(a, b, &scope);
	scope_done(&scope);
	if (at != SIZE_MAX) {
		fprintf(stderr, "frame %zu: ", at);
		problem = "frames";
	}
	return at == SIZE_MAX;
}

/* The model a and the sums-only load b: same header, same profiles of
 * all threads and of each, and each one's call paths when b was asked
 * for them (`paths`). */
static bool
same_sums(const struct calltree *a, const struct calltree *b, bool paths)
{
	struct scope scope;
	bool same;
	size_t t, n;

	if (!same_header(a, b))
		return false;
	scope_init_all(&scope, a);
	same = same_profile_of(a, b, &scope) && same_frames(a, b, SIZE_MAX);
	scope_done(&scope);
	/* Each thread that ran, up to PER_THREAD of them: a scope costs a
	 * flag per thread. */
	for (t = 0, n = 0; same && t < a->nthreads && n < PER_THREAD; t++) {
		if (!a->threads[t].nevents)
			continue;
		n++;
		scope_init_none(&scope, a);
		scope_add(&scope, t);
		same = same_profile_of(a, b, &scope) &&
		       (!paths || same_paths(a, b, t));
		scope_done(&scope);
	}
	return same;
}

static bool
same_model(const struct calltree *a, const struct calltree *b)
{
	size_t i;

	if (!same_header(a, b))
		return false;
	for (i = 0; i < a->nmethods; i++)
		SAME("method defined", a->methods[i].defined,
		     b->methods[i].defined);
	for (i = 0; i < a->nthreads; i++) {
		SAME("first call", a->threads[i].first_call,
		     b->threads[i].first_call);
		SAME("thread calls", a->threads[i].ncalls,
		     b->threads[i].ncalls);
	}
	return same_calls(a, b);
}

/* Load path with the records path (workers > 0) or event by event, or
 * for its sums only (with call paths when `paths`, and its frames, when
 * `frames`: never ahead), split at record `split` when not 0, the middle
 * from `middle` when not 0, its first `first` parts summed by the first
 * worker (*in_two: it was summed split, *walked: at the walk's
 * stacks, *ahead: its first part ahead of the report). */
static struct calltree *
load(const char *path, unsigned workers, bool sums, bool paths, bool frames,
     size_t split, size_t middle, unsigned first, bool *in_two, bool *walked,
     bool *ahead)
{
	struct calltree_builder *b = calltree_builder_new(path);
	struct trace_sink sink = *calltree_builder_sink(b);
	struct trace_error err = {0};
	struct calltree *tree;

	sink.sample_type = sample_type;
	sink.java_only = java_only;
	b->max_workers = workers;
	b->sums_only = sums;
	b->paths = sums && paths;
	b->frame_methods = frames ? test_frame_methods : NULL;
	b->split_at = split;
	b->split_middle = middle;
	b->split_middle_first = first;
	if (!workers)
		sink.records = NULL;
	if (!trace_load(path, &sink, &err)) {
		trace_error_clear(&err);
		calltree_builder_free(b);
		return NULL;
	}
	if (in_two) {
		*in_two = b->summed_split;
		*walked = b->summed_walked;
		*ahead = b->summed_ahead;
	} else if (!sums && workers) {
		puts(b->placed ? "placed" : "replayed");
	}
	tree = calltree_builder_finish(b);
	/* A nested trace's events are summed as the builder finishes. */
	if (!in_two && sums)
		printf("%s%s\n", paths ? "" : "report ",
		       tree->sums ? "summed" : "modelled");
	return tree;
}

/* The sums split at points over the records equal the model's (model),
 * each point also with a middle from half way to it, in two parts the
 * second worker sums, or one part each; prints how many were summed in
 * two, how many of those at the walk's stacks and how many ahead. */
static bool
same_split_sums(const char *path, const struct calltree *model)
{
	size_t n = model->records, tried = 0, in_two = 0, walked = 0, ahead = 0;
	size_t i;
	size_t points = n <= SPLIT_EVERY ? n - 1 : SPLITS;
	bool same = true;
	int mid;

	for (i = 1; same && n > 1 && i <= points; i++) {
		size_t at = n <= SPLIT_EVERY ? i : n / (points + 1) * i;

		/* No middle; taken by the second; half by the first; then
		 * with the frames (never ahead: not counted), the middle
		 * taken by the second or half by the first in turn. */
		for (mid = 0; same && mid < 4; mid++) {
			size_t middle = mid ? at / 2 : 0;
			bool two = false, by_walk = false, early = false;
			struct calltree *split;

			if (mid && !middle)
				continue;
			split = load(path, 1, true, true, mid == 3, at, middle,
			             mid == 2 || (mid == 3 && i % 2), &two,
			             &by_walk, &early);
			if (mid < 3) {
				tried++;
				in_two += two;
				walked += two && by_walk;
				ahead += two && early;
			}
			same = split && same_sums(model, split, true);
			if (!same)
				fprintf(stderr,
				        "split at record %zu (middle %zu): ",
				        at, middle);
			calltree_free(split);
		}
	}
	printf("split %zu/%zu walked %zu ahead %zu\n", in_two, tried, walked,
	       ahead);
	return same;
}

int
main(int argc, char **argv)
{
	struct calltree *by_events, *by_records, *by_sums = NULL, *as_report;
	int status;

	if (argc < 3 || argc > 5 ||
	    (argc == 5 && strcmp(argv[4], "java-only") != 0)) {
		fprintf(stderr, "usage: model-equal WORKERS FILE "
		                "[SAMPLE_TYPE [java-only]]\n");
		return 2;
	}
	sample_type = argc > 3 ? argv[3] : NULL;
	java_only = argc > 4;
	by_events = load(argv[2], 0, false, false, false, 0, 0, 0, NULL, NULL,
	                 NULL);
	by_records = load(argv[2], (unsigned)atoi(argv[1]), false, false, false,
	                  0, 0, 0, NULL, NULL, NULL);
	if (!by_events || !by_records) {
		status = by_events || by_records ? 1 : 3;
		problem = "one way loads, the other does not";
	} else if (!same_model(by_events, by_records)) {
		status = 1;
	} else {
		by_sums = load(argv[2], 1, true, true, true, 0, 0, 0, NULL,
		               NULL, NULL);
		status = by_sums && same_sums(by_events, by_sums, true) ? 0 : 1;
		if (!by_sums)
			problem = "the load for sums";
		else if (status)
			fprintf(stderr, "for sums only: ");
		else if (!same_split_sums(argv[2], by_events))
			status = 1;
	}
	if (!status) {
		as_report = load(argv[2], 1, true, false, false, 0, 0, 0, NULL,
		                 NULL, NULL);
		if (!as_report) {
			status = 1;
			problem = "the load as report";
		} else if (!same_sums(by_events, as_report, false)) {
			status = 1;
			fprintf(stderr, "as report: ");
		}
		calltree_free(as_report);
	}
	if (status == 1)
		fprintf(stderr, "%s: %s differs\n", argv[2], problem);
	calltree_free(by_events);
	calltree_free(by_records);
	calltree_free(by_sums);
	return status;
}
