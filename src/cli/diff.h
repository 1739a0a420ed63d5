/*
 * diff: what the two halves of the diff command share: diff.c compares
 * one trace per side, diff-runs.c several runs per side with statistics.
 */
#ifndef TRACETUI_CLI_DIFF_H
#define TRACETUI_CLI_DIFF_H

#include "cli/cmd.h"
#include "query/diff.h"

#include <stdbool.h>

enum { DIFF_MAX_ARGS = 4096 };

/* Whether opts.args name several runs on a side (BASE... -- NEW...);
 * "BASE -- NEW" is rewritten to the two-trace form and answers false. */
bool diff_runs_wanted(struct cmd_opts *opts);
/* The diff of several runs per side; the exit status. */
int diff_runs(const struct cmd_opts *opts);

/* The sort column name into *m; false after a message. */
bool diff_parse_sort(const char *name, enum diff_metric *m);
/* Print a malformed --fail-if expression with a caret under the column. */
void diff_report_malformed(const char *text, const struct diff_cond_error *err);
/* x to `decimals` places, with its sign when plus, then suffix; never
 * "-0".  The caller frees it. */
char *diff_fixed(double x, int decimals, bool plus, const char *suffix);
/* A condition's value as its message writes it: "1.234 ms", "12.50% of
 * total" or "42 calls".  The caller frees it. */
char *diff_cond_value_text(const struct diff_cond *c, double v, bool normalize);
/* Warn, on stderr, that the trace at path sampled was sampled and the
 * one at instrumented was not: their times are not comparable. */
void diff_warn_sampling(const char *sampled, const char *instrumented);
/* The summary of the frames of tree in scope, as the options define
 * frames (query/frames.h). */
void diff_frames_of(const struct cmd_opts *opts, const struct calltree *tree,
                    const struct scope *scope, struct frame_summary *out);
/* Print the frame lines of the text header when a side has frames:
 * each side's numbers (value[s][m], enum diff_frame_metric) and the
 * change; over runs (significant not NULL) medians, a change marked ~
 * where it is not significant. */
void diff_print_frames(const double value[2][DIFF_FRAME_METRICS],
                       const bool *significant);
/* When condition c cannot be evaluated (r, diff_cond_missing), say why
 * on stderr, naming the side or sides (side[s]: "new.trace", "a run of
 * BASE") without frames or the glob no method matches; true then, and
 * the gate fails. */
bool diff_cond_unevaluable(const struct diff_cond *c,
                           const struct diff_cond_result *r,
                           const char *const side[2], const char *where);
/* A condition's change as its message writes it.  The caller frees it. */
char *diff_cond_change_text(const struct diff_cond *c,
                            const struct diff_cond_result *r);

#endif
