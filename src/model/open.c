/*
 * open: the reader for a file's format feeding a builder.
 */
#include "config.h"

#include "model/open.h"

#include "model/builder.h"
#include "read/load.h"

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

struct calltree *
calltree_load_with(const char *path, const struct calltree_load_options *o,
                   struct trace_error *err)
{
	struct calltree_builder *b = calltree_builder_new(path);

	if (o) {
		b->progress = o->progress;
		b->progress_arg = o->progress_arg;
		b->sink.sample_type = o->sample_type;
		b->sink.java_only = o->java_only;
		b->sums_only = o->sums_only;
		b->paths = o->paths;
		b->frame_methods = o->frame_methods;
		b->frame_arg = o->frame_arg;
	}
	if (!trace_load(path, calltree_builder_sink(b), err)) {
		calltree_builder_free(b);
		return NULL;
	}
	if (b->spoiled) {
		/* No reader hands events after its records; should one,
		 * the sums would miss them: the model is built instead. */
		struct calltree_load_options whole = *o;

		calltree_builder_free(b);
		whole.sums_only = false;
		return calltree_load_with(path, &whole, err);
	}
	return calltree_builder_finish(b);
}
