/*
 * open: the reader for a file's format feeding a builder.
 */
#include "config.h"

#include "model/open.h"

#include "model/builder.h"
#include "model/frame-spans.h"
#include "read/load.h"

#include <stdlib.h>
#include <string.h>

/* Whether tree is one event type of a recording that holds several. */
static bool
one_type_of_several(const struct calltree *tree)
{
	const char *all = calltree_property(tree, "simpleperf-event-types");
	const char *type = calltree_property(tree, "simpleperf-event-type");

	return all && type && strchr(all, ',') && strcmp(type, "all") != 0;
}

/* A sampled recording's frames, on the samples of every event type it
 * holds: found on a model of all of them (frame-spans.h). */
static void
frame_spans_of_all_types(struct calltree *tree, const char *path,
                         const struct calltree_load_options *o)
{
	struct calltree_load_options all = {.sample_type = "all",
	                                    .java_only = o->java_only};
	struct trace_error err = {0};
	struct calltree *whole = calltree_load_with(path, &all, &err);
	bool *is_frame;

	trace_error_clear(&err);
	if (!whole)
		return;
	is_frame = o->frame_methods(whole, o->frame_arg);
	if (is_frame)
		tree->nframe_spans =
		        frame_spans_find(whole, is_frame, &tree->frame_spans);
	free(is_frame);
	calltree_free(whole);
}

struct calltree *
calltree_load(const char *path, struct trace_error *err)
{
	return calltree_load_progress(path, err, NULL, NULL);
}

struct calltree *
calltree_load_progress(const char *path, struct trace_error *err,
                       calltree_progress_fn *progress, void *arg)
{
	struct calltree_load_options o = {.progress = progress,
	                                  .progress_arg = arg};

	return calltree_load_with(path, &o, err);
}

/* For tests: TRACETUI_TEST_SPLIT=AT[:MIDDLE[:FIRST]] splits the sums
 * pass at record AT, the middle [MIDDLE, AT) in parts of which the
 * first worker takes FIRST (struct calltree_builder, split_at). */
static void
test_split(struct calltree_builder *b)
{
	const char *v = getenv("TRACETUI_TEST_SPLIT");
	char *end;

	if (!v || !*v)
		return;
	b->split_at = strtoull(v, &end, 10);
	if (*end == ':')
		b->split_middle = strtoull(end + 1, &end, 10);
	if (*end == ':')
		b->split_middle_first = (unsigned)strtoul(end + 1, &end, 10);
}

struct calltree *
calltree_load_with(const char *path, const struct calltree_load_options *o,
                   struct trace_error *err)
{
	struct calltree_builder *b = calltree_builder_new(path);
	struct calltree *tree;

	if (o) {
		b->progress = o->progress;
		b->progress_arg = o->progress_arg;
		b->sink.sample_type = o->sample_type;
		b->sink.java_only = o->java_only;
		b->sums_only = o->sums_only;
		b->paths = o->paths;
		b->frame_methods = o->frame_methods;
		b->frame_arg = o->frame_arg;
		b->triage = o->triage;
		b->triage_arg = o->triage_arg;
		test_split(b);
		b->no_turns = o->no_turns;
	}
	if (!trace_load(path, calltree_builder_sink(b), err)) {
		calltree_builder_free(b);
		return NULL;
	}
	if (b->spoiled) {
		/* No reader hands events after its records; should one,
		 * the sums would miss them: the model is built instead.
		 * Likewise a thread whose events came back after its turn
		 * (or before an earlier thread's): the model keeps every
		 * state to the end. */
		struct calltree_load_options whole =
		        o ? *o : (struct calltree_load_options){0};

		calltree_builder_free(b);
		whole.sums_only = false;
		whole.no_turns = true;
		return calltree_load_with(path, &whole, err);
	}
	tree = calltree_builder_finish(b);
	if (o && o->frame_methods && tree->sampled && !tree->calls.count &&
	    tree->sums) {
		/* A sampled recording's frames join runs of its samples:
		 * they are found on its calls (frame-spans.h). */
		struct calltree_load_options whole = *o;

		calltree_free(tree);
		whole.sums_only = false;
		return calltree_load_with(path, &whole, err);
	}
	if (o && o->frame_methods && tree->sampled && one_type_of_several(tree))
		frame_spans_of_all_types(tree, path, o);
	return tree;
}
