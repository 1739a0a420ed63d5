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
	struct calltree_load_options o = {NULL, progress, arg};

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
	}
	if (!trace_load(path, calltree_builder_sink(b), err)) {
		calltree_builder_free(b);
		return NULL;
	}
	return calltree_builder_finish(b);
}
