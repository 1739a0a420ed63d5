/*
 * frame-spans: the frames of a sampled recording as spans of time.
 *
 * A sample shows a thread's stack at an instant, so a frame (a frame
 * method on the stack) lasts from the first sample whose stack holds a
 * frame method to the first later sample of that thread without one,
 * gaps between samples included (PRODUCT.md 3).  In a sampled model the
 * samples are its calls' runs (read/simpleperf.c): a thread's next
 * sample after an instant is that instant when a call of the thread is
 * open across it, else the next outermost call's start; it holds a
 * frame method when an outermost call of one starts there.  Where the
 * recording holds several event types, the spans are found on a model
 * of all of them (model/open.c), so that an off-CPU sample inside a
 * frame keeps it open and one outside ends it.
 */
#ifndef TRACETUI_FRAME_SPANS_H
#define TRACETUI_FRAME_SPANS_H

#include "model/calltree.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A frame on thread tid from start to end, wall microseconds since the
 * recording's start. */
struct frame_span {
	uint32_t tid;
	uint64_t start, end;
};

/* The frame spans of every thread of sampled model tree, frame methods
 * flagged by is_frame (tree->nmethods of them), by thread id then
 * start, into *out (malloc'd); returns their count. */
size_t frame_spans_find(const struct calltree *tree, const bool *is_frame,
                        struct frame_span **out);

/* The spans of spans[0..n) on thread tid: its first index into *first,
 * returning how many. */
size_t frame_spans_of(const struct frame_span *spans, size_t n, uint32_t tid,
                      size_t *first);

#endif
