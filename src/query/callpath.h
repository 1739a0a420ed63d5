/*
 * callpath: the calls of a scope merged by call path (the top-down tree,
 * the icicle and folded stacks all read it).
 *
 * Node 0 is a synthetic root.  With by_thread, the root's children are one
 * node per thread (method CALL_NONE) and call paths hang below them;
 * otherwise paths of every thread merge from the root down.  A node's
 * inclusive time is the sum of the durations of the calls on that path;
 * its exclusive time is inclusive minus its children's.  The callpath
 * owns its arrays.  A bottom-up tree (callpath_invert) makes its nodes'
 * children when asked (callpath_expand); the other trees are whole.
 */
#ifndef TRACETUI_CALLPATH_H
#define TRACETUI_CALLPATH_H

#include "model/calltree.h"
#include "model/scope.h"

#include <stdbool.h>
#include <stdint.h>

/* 48 bytes: a bottom-up tree can have ten times as many nodes as its
 * top-down tree, so the exclusive time is not stored (callpath_excl). */
struct callpath_node {
	uint32_t method;       /* CALL_NONE for the root and thread nodes */
	uint32_t thread;       /* thread index of a thread node */
	uint32_t parent;       /* CALL_NONE for the root */
	uint32_t first_child;  /* CALL_NONE when a leaf */
	uint32_t next_sibling; /* CALL_NONE when last */
	uint32_t depth;        /* 0 for the root */
	uint64_t calls;
	uint64_t incl[CLOCK_COUNT];
};

struct callpath {
	struct callpath_node *nodes;
	size_t count;
	/* The nodes with two children or more, listed by the first sort so
	 * that the next ones skip the rest (a bottom-up tree lists them as
	 * it expands); NULL until then. */
	uint32_t *forks;
	size_t nforks;
	/* A bottom-up tree's nodes not expanded yet and what it reads of
	 * the top-down tree; NULL for the other trees, which are whole. */
	struct callpath_lazy *lazy;
};

/* Merge the calls of the scope's threads by path. */
void callpath_build(struct callpath *out, const struct calltree *tree,
                    const struct scope *scope, bool by_thread);

/*
 * The method of a node that holds the time a thread spends outside any
 * traced method (its traced time less its top-level calls'), and the
 * name every output gives it.
 */
#define CALLPATH_OUTSIDE (CALL_NONE - 1)
#define CALLPATH_OUTSIDE_NAME "(outside any method)"

/* True when node n stands for a method of the calltree (not the root, a
 * thread or the time outside any method). */
static inline bool
callpath_is_method(const struct callpath_node *n)
{
	return n->method < CALLPATH_OUTSIDE;
}

/*
 * callpath_build, and the time outside any method as a node of its own
 * (method CALLPATH_OUTSIDE): one under each thread node with by_thread,
 * else one under the root for every thread.  The root then holds the
 * scope's total on each clock (scope_total), as `report` does.
 */
void callpath_build_whole(struct callpath *out, const struct calltree *tree,
                          const struct scope *scope, bool by_thread);
/* Thread t's own tree over its whole time (callpath_build of a scope of
 * t alone, in time independent of the number of threads). */
void callpath_build_thread(struct callpath *out, const struct calltree *tree,
                           size_t t);
/* callpath_build_thread with the time outside any method, as
 * callpath_build_whole of a scope of t alone. */
void callpath_build_thread_whole(struct callpath *out,
                                 const struct calltree *tree, size_t t);
/* callpath_build_thread_whole of thread t of a tree loaded with its
 * sums' call paths (model/calltree.h, thread_sums), node for node; false
 * when the thread made calls and its sums have no paths. */
bool callpath_from_sums(struct callpath *out, const struct calltree *tree,
                        size_t t);
/* callpath_build_thread_whole of every thread t into paths[t], on every
 * cpu: a thread's calls are cut into pieces of `part` calls (0: as many
 * as keep the cpus busy), built apart and merged; the trees are the
 * one-pass walk's, node for node. */
void callpath_build_threads(struct callpath *paths, const struct calltree *tree,
                            size_t part);
/* callpath_merge of every thread's callpath_build_thread_whole into
 * merged, node for node, built by callpath_build_threads a batch of
 * threads at a time and merged batch by batch.  Returns the trees of the
 * threads of keep_calls calls or more, thread t's at t, the others empty
 * (no node), or NULL when no thread has that many: the trees of a
 * million small threads are never held at once. */
struct callpath *callpath_build_merged(struct callpath *merged,
                                       const struct calltree *tree,
                                       size_t keep_calls);
/* Threads callpath_build_merged builds and merges at a time (65,536);
 * tests set it low to cross batches with a few threads. */
extern size_t callpath_merge_batch_threads;
/* Order every node's children by inclusive time on clock k, largest
 * first, ties by method index.  The first sort lists the nodes with
 * siblings to order, so the tree must not change after it (but for a
 * bottom-up tree's expansions, which are sorted on the same clock). */
void callpath_sort(struct callpath *path, enum clock_index k);
/*
 * The n trees of parts (built without by_thread) merged path by path into
 * out: one node per path with the sums of its times and calls, the same
 * tree callpath_build makes for the union of their threads.
 */
void callpath_merge(struct callpath *out, const struct callpath *parts,
                    size_t n);
/*
 * The bottom-up tree of path into out, built lazily: every node of path
 * but the root adds its exclusive times and calls along its own path
 * reversed (its method, then its caller's, up to its outermost frame or
 * thread node), so out's roots are where time was spent and children are
 * callers.  Only the root's children (the roots) are made now, in time
 * linear in path; out keeps what it needs of path, which may then go.
 * Before reading a node's children, callpath_expand it.
 */
void callpath_invert(struct callpath *out, const struct callpath *path);
/* Make node n's children if they are not made yet, in time proportional
 * to the top-down nodes contributing to them, sorted as the tree was last
 * sorted; nothing for a tree that is whole.  Node ids stay, but nodes
 * may move: no pointer into path->nodes survives it. */
void callpath_expand(struct callpath *path, uint32_t n);
/* Expand every node, those it makes too: the whole bottom-up tree, as
 * large as the sum of the depths of the top-down one. */
void callpath_expand_all(struct callpath *path);
/* True when node n has children, made or not. */
bool callpath_has_children(const struct callpath *path, uint32_t n);
/* True when node n's children are all made (always, in a whole tree). */
bool callpath_expanded(const struct callpath *path, uint32_t n);
/* The runs of items node n keeps until it expands (0 once it has, or in
 * a whole tree): what expanding it costs, O(log depth) each. */
uint32_t callpath_pending_runs(const struct callpath *path, uint32_t n);
/* The exclusive time of node n on clock k: its inclusive time less its
 * children's (made or not). */
uint64_t callpath_excl(const struct callpath *path, uint32_t n,
                       enum clock_index k);
/* Release the nodes. */
void callpath_done(struct callpath *path);

#endif
