/*
 * summary: what `tracetui info` prints and the info view shows: format,
 * clock, recording mode, properties, threads, anomalies and warnings, as
 * lines of text (escaped, safe to print).
 */
#ifndef TRACETUI_SUMMARY_H
#define TRACETUI_SUMMARY_H

#include "model/calltree.h"

#include <stddef.h>

struct summary {
	char **lines;
	size_t count, cap;
};

/* Describe tree in out (new lines the summary owns). */
void summary_build(struct summary *out, const struct calltree *tree);
/* The format's name in a few words ("V1 streaming", "simpleperf"). */
const char *summary_format_name(const struct calltree *tree);
/* Release the lines. */
void summary_done(struct summary *summary);

/*
 * For a sampled trace, the line every output that shows calls and times
 * carries: call counts are sample-derived estimates, times estimates
 * with the sampling interval (a simpleperf recording's numbers are its
 * samples, a pprof or hprof profile's values their sums or counts,
 * never call counts).  NULL for an instrumented trace.
 */
char *summary_sampled_note(const struct calltree *tree);
/* "about every 1.000 ms", or "at an unknown interval": how often a
 * sampled trace was sampled (a new string). */
char *summary_sample_interval(const struct calltree *tree);

#endif
