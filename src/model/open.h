/*
 * open: a trace file read into a model, whatever its format: the reader
 * chosen by read/load.c feeds a builder, which the model comes out of.
 */
#ifndef TRACETUI_OPEN_H
#define TRACETUI_OPEN_H

#include "model/calltree.h"
#include "read/error.h"

#include <stdint.h>

/*
 * Load the trace at path and build its model.  NULL with err set when the
 * file holds nothing usable; warnings are kept in the model.
 */
struct calltree *calltree_load(const char *path, struct trace_error *err);

/* calltree_load, reporting progress to fn(arg, ...). */
struct calltree *calltree_load_progress(const char *path,
                                        struct trace_error *err,
                                        calltree_progress_fn *fn, void *arg);

/* What a load may ask beyond the path; zeroed: the defaults. */
struct calltree_load_options {
	/* A profile's sample type (pprof), by name or index; NULL: the
	 * profile's default. */
	const char *sample_type;
	/* Only Java frames (simpleperf): native and kernel frames' samples
	 * go to their Java caller. */
	bool java_only;
	calltree_progress_fn *progress; /* NULL: none */
	void *progress_arg;
	/* Only the profile is wanted: the model may come with each
	 * thread's sums and no calls (calltree.h, sums). */
	bool sums_only;
	/* With sums_only: each thread's call paths too (thread_sums). */
	bool paths;
	/* With sums_only: each thread's frames too, outermost calls of
	 * the methods frame_methods(tree, frame_arg) flags (thread_sums,
	 * frames); NULL: none. */
	calltree_frame_methods_fn *frame_methods;
	void *frame_arg;
	/* With sums_only: triage's sums too, by the spec triage(tree,
	 * triage_arg) makes as the records begin (calltree.h,
	 * triage_summed), or the model when it makes none; NULL: none. */
	calltree_triage_fn *triage;
	void *triage_arg;
	/* Keep every thread's state until the end, even where the header
	 * says its threads come in turn (a file that broke that word is
	 * loaded again so). */
	bool no_turns;
};

/* calltree_load with options (o may be NULL). */
struct calltree *calltree_load_with(const char *path,
                                    const struct calltree_load_options *o,
                                    struct trace_error *err);
#endif
