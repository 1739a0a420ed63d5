/*
 * warmup: the indexes the viewer will want, built on a second thread as
 * soon as the model is loaded, so that the first switch to the timeline
 * or the icicle, or the first time range, finds them ready instead of
 * building them then.
 *
 * The model must not change while a warmup runs (it never does: ranges
 * and scopes are views of it).  A view takes what was built, waiting for
 * it when the build is still running; each thing can be taken once, and
 * the taker owns it.  Without threads, nothing is built and every take
 * answers NULL, so the views build for themselves.
 */
#ifndef TRACETUI_WARMUP_H
#define TRACETUI_WARMUP_H

#include "callpath.h"
#include "calltree.h"
#include "profile-index.h"
#include "timeline.h"

#include <stdbool.h>

struct warmup;

/* Start building tree's timeline index on clock k, every thread's own
 * call paths (as callpath_build of that one thread), the bottom-up tree
 * of all threads (callpath_invert of their merge), and the profile index
 * of time ranges. */
struct warmup *warmup_start(const struct calltree *tree, enum clock_index k);
/* True once nothing is being built any more. */
bool warmup_done(struct warmup *w);
/* The timeline index of clock k (waiting for it), or NULL. */
struct timeline *warmup_take_timeline(struct warmup *w, enum clock_index k);
/* The array of per-thread call paths, one per thread of the tree
 * (waiting for it), or NULL. */
struct callpath *warmup_take_thread_paths(struct warmup *w);
/* The bottom-up tree of all threads (waiting for it), or NULL. */
struct callpath *warmup_take_inverted(struct warmup *w);
/* The profile index of tree (waiting for it), or NULL. */
struct profile_index *warmup_take_profile_index(struct warmup *w);
/* Wait for the build and release what was not taken. */
void warmup_free(struct warmup *w);

#endif
