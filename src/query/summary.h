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
/* Release the lines. */
void summary_done(struct summary *summary);

#endif
