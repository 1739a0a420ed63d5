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
 * answers NULL, so the views build for themselves; so does a take of
 * what a warmup stopped early (warmup_stop) did not build.
 *
 * A job builds one bottom-up tree the same way, for a view that will want
 * it: the view starts it as soon as it knows the scope and takes the tree
 * when it needs it.
 */
#ifndef TRACETUI_WARMUP_H
#define TRACETUI_WARMUP_H

#include "query/callpath.h"
#include "model/calltree.h"
#include "query/profile-index.h"
#include "query/timeline.h"

#include <stdbool.h>

struct warmup;

/* Start building tree's timeline index on clock k, every thread's own
 * call paths (as callpath_build_whole of that one thread; when paths is not
 * NULL, they are paths[t], which must stay until warmup_free), the
 * top-down and
 * bottom-up trees of all threads (their merge and callpath_invert of it,
 * which makes only the roots), both sorted on the tree's default clock,
 * the profile index of time ranges, and the timeline index of the other
 * clock when the tree has it (sharing the first's clock-free parts). */
struct warmup *warmup_start(const struct calltree *tree, enum clock_index k,
                            const struct callpath *paths);
/* True once nothing is being built any more. */
bool warmup_done(struct warmup *w);
/* The timeline index of clock k (waiting for it, and for clock k's, starting
 * it at once beside the call paths when the warmup has not come to it), or
 * NULL.  Who takes the first clock's index frees it after warmup_free only:
 * the other clock's is built from it. */
struct timeline *warmup_take_timeline(struct warmup *w, enum clock_index k);
/* The array of per-thread call paths, one per thread of the tree
 * (waiting for it), or NULL (also when they were given, or when no
 * thread made calls enough to keep its own); a thread of few calls has
 * an empty one (no node): its paths are built when wanted. */
struct callpath *warmup_take_thread_paths(struct warmup *w);
/* The top-down tree of all threads (waiting for it), or NULL. */
struct callpath *warmup_take_merged(struct warmup *w);
/* The bottom-up tree of all threads (waiting for it), or NULL. */
struct callpath *warmup_take_inverted(struct warmup *w);
/* The profile index of tree (waiting for it), or NULL. */
struct profile_index *warmup_take_profile_index(struct warmup *w);
/* Build nothing more: the thread stops before its next index (each
 * take then answers NULL for what was not built), so that freeing w
 * waits at most for the index under way.  NULL is ignored. */
void warmup_stop(struct warmup *w);
/* Whether w was stopped before it built everything (waiting for the
 * thread to end); false for NULL. */
bool warmup_cut_short(struct warmup *w);
/* Wait for the build and release what was not taken. */
void warmup_free(struct warmup *w);

struct warmup_job;

/* Start building callpath_invert of callpath_merge of the n parts (its
 * roots: the rest is made as it is read), sorted on clock k; the parts must
 * stay as they are until the job is taken or freed.  The job first releases
 * *discard (when not NULL), a tree nobody wants any more, which is then left
 * empty.  NULL when no thread could be started (and *discard is released). */
struct warmup_job *warmup_invert_start(const struct callpath *parts, size_t n,
                                       enum clock_index k,
                                       struct callpath *discard);
/* Nobody will take the job's tree: the job stops soon and frees what it
 * built, unless it had ended; warmup_job_free still has to be called. */
void warmup_job_abandon(struct warmup_job *job);
/* True once the job's tree is built (or when job is NULL). */
bool warmup_job_done(struct warmup_job *job);
/* Wait for the job, move its tree into out and free the job. */
void warmup_job_take(struct warmup_job *job, struct callpath *out);
/* Wait for the job and free it with its tree; NULL is ignored. */
void warmup_job_free(struct warmup_job *job);

#endif
