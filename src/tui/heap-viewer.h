/*
 * heap-viewer: `tracetui DUMP.hprof`: the heap dump read on a second
 * thread behind a progress line (q quits at once), then the heap dump
 * viewer (tui/heap-app.h) until q or a signal.
 */
#ifndef TRACETUI_HEAP_VIEWER_H
#define TRACETUI_HEAP_VIEWER_H

#include "cli/cmd.h"

/* Run the heap dump viewer on opts->args[0] (its --mapping, --ascii,
 * --color and --no-mouse); the exit status. */
int heap_viewer_run(const struct cmd_opts *opts);

#endif
