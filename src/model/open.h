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
#endif
