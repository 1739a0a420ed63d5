/*
 * loading: the viewer's file read on a second thread while the terminal
 * shows a progress bar and stays responsive: `q` (or a signal) ends the
 * viewer at once, a resize redraws the bar at the new width.  Where it
 * can, the thread reads the sums first (the profile's numbers, no
 * calls) and the model after them, so that the viewer shows the profile
 * while the calls load.
 */
#ifndef TRACETUI_LOADING_H
#define TRACETUI_LOADING_H

#include "cli/cmd.h"
#include "model/calltree.h"
#include "read/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Write into buf (size bytes) the status line of a load of name that has
 * read done of total bytes in elapsed seconds, at most width columns
 * wide: "reading NAME [=====>    ] 45%  29/65 MB, 1.2 s left".  name is
 * escaped already; it is dropped when the line would not fit.  A total
 * of 0 (a pipe) says only what is read.
 */
void loading_line(char *buf, size_t size, const char *name, uint64_t done,
                  uint64_t total, double elapsed, int width);

/* A load on a second thread: the sums first where asked, then the
 * model. */
struct loading;

/* Whether the viewer may show the sums of path before its model: no
 * --range or transforms in opts (they need the calls), and a regular
 * file (a pipe cannot be read twice). */
bool loading_sums_first(const struct cmd_opts *opts, const char *path);
/* Start reading path (a pprof profile on sample_type, NULL for its
 * default; a simpleperf recording with Java frames only on java_only) on a
 * second thread, for its sums first with sums_first, its model with the
 * frames of frame_method (NULL: the default); NULL when no thread can
 * start. */
struct loading *loading_start(const char *path, const char *sample_type,
                              bool java_only, bool sums_first,
                              const char *frame_method);
/* True once the first tree is read (or failed). */
bool loading_first_ready(const struct loading *l);
/* Wait for the first tree and take it: the sums (tree->sums set: the
 * model follows) or the model, or NULL with *err set. */
struct calltree *loading_take_first(struct loading *l, struct trace_error *err);
/* How much of the file the read under way has read, 0 to 100. */
int loading_percent(const struct loading *l);
/* True once the thread is over: loading_finish will not wait. */
bool loading_over(const struct loading *l);
/* Join the thread and take the model read after the sums (NULL with
 * *err set when that read failed); l is freed. */
struct calltree *loading_finish(struct loading *l, struct trace_error *err);
/* Leave the thread to die with the process (q). */
void loading_abandon(struct loading *l);

/*
 * cmd_load on a second thread, the status line on stderr meanwhile.
 * Returns the first tree, or NULL with *status: CMD_INPUT when it cannot
 * be read (the error printed), CMD_OK when `q` was pressed, 128 plus the
 * signal that ended the wait.  When the tree returned holds sums only,
 * *rest is the load going on for the model (else NULL).  Without a
 * terminal on standard input and error, plain cmd_load.
 */
struct calltree *loading_run(const struct cmd_opts *opts, const char *path,
                             int *status, struct loading **rest);

#endif
