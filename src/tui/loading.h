/*
 * loading: the viewer's file read on a second thread while the terminal
 * shows a progress bar and stays responsive: `q` (or a signal) ends the
 * viewer at once, a resize redraws the bar at the new width.
 */
#ifndef TRACETUI_LOADING_H
#define TRACETUI_LOADING_H

#include "cli/cmd.h"
#include "model/calltree.h"

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

/*
 * cmd_load on a second thread, the status line on stderr meanwhile.
 * Returns the model, or NULL with *status: CMD_INPUT when it cannot be
 * read (the error printed), CMD_OK when `q` was pressed, 128 plus the
 * signal that ended the wait.  Without a terminal on standard input and
 * error, plain cmd_load.
 */
struct calltree *loading_run(const struct cmd_opts *opts, const char *path,
                             int *status);

#endif
