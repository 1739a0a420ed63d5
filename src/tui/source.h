/*
 * source: a method's source file found under the --source-dir folders,
 * and the editor opened on it at its line.
 *
 * The search, per folder in order: the class's package path with the
 * class's own name (com.foo.Bar$Inner: DIR/com/foo/Bar.java, then .kt),
 * the key's source file name in that package folder (DIR/com/foo/
 * Bar.kt), then a walk of DIR for a file of that name, bounded in depth
 * and in entries.  Names from the trace are only ever file names inside
 * DIR: a '/' or a ".." in them is refused.
 *
 * The editor's command line is an argv ($VISUAL, else $EDITOR, else vi,
 * split at blanks, then +LINE and the file) run by fork and exec, never
 * by a shell, so no name from a trace can run a command.
 */
#ifndef TRACETUI_SOURCE_H
#define TRACETUI_SOURCE_H

#include "model/calltree.h"

#include <stdbool.h>
#include <stddef.h>

enum { SOURCE_WALK_DEPTH = 12, SOURCE_WALK_ENTRIES = 100000 };

/* The path of m's source file under one of dirs[0..ndirs) (a new
 * string), or NULL with what was searched in why. */
char *source_find(const char *const *dirs, size_t ndirs,
                  const struct tt_method *m, char *why, size_t size);

/* The editor's argv for path at line (none when line < 1): the words of
 * $VISUAL, else $EDITOR, else "vi", then "+LINE", then path (after "./"
 * when it starts with '-').  NULL-terminated; free with source_argv_free. */
char **source_editor_argv(const char *path, long line);
/* Release an argv of source_editor_argv. */
void source_argv_free(char **argv);

/* Run argv[0] (searched in PATH) with argv, wait for it: its exit
 * status, or -1 with errno when it could not be started, or 128 plus
 * the signal that ended it. */
int source_run(char *const *argv);

#endif
