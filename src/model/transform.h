/*
 * transform: a model turned into a new model whose stacks are cut down
 * to the question at hand (focus, merge, drop, collapse, group), so that
 * every view, command and number works on the result unchanged.
 *
 * A transform reads the calls of each thread in pre-order and writes
 * the calls it keeps, in the same order, into a new model.  Only dropping a
 * call moves time: the calls after it start earlier by its duration, so its
 * callers' inclusive times lose it.  Calls that vanish otherwise (merged,
 * outside a focus) leave their time where it was: a merged call's
 * exclusive time becomes its caller's.  A focus marks the model
 * `focused`: its outermost calls are then the whole of its time
 * (scope_total), so the time outside them counts nowhere.
 */
#ifndef TRACETUI_TRANSFORM_H
#define TRACETUI_TRANSFORM_H

#include "model/calltree.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum transform_kind {
	TRANSFORM_FOCUS_SUBTREE, /* the calls on path become the roots */
	TRANSFORM_FOCUS_METHOD,  /* the outermost calls of the methods */
	TRANSFORM_MERGE,         /* the methods vanish from the stacks */
	TRANSFORM_DROP,          /* the methods' calls and all under them */
	TRANSFORM_COLLAPSE_RECURSION, /* a method inside itself vanishes */
	TRANSFORM_COLLAPSE_CLASS,     /* a class's nested frames become one */
	TRANSFORM_COLLAPSE_PACKAGE,   /* a package's nested frames become one */
	TRANSFORM_GROUP_CLASS,        /* every frame named after its class */
	TRANSFORM_GROUP_PACKAGE,      /* every frame named after its package */
};

/*
 * One transform.  `methods` (by method index of the model it applies
 * to, NULL for every method) selects what focus, merge, drop and
 * collapse act on; focus on a subtree takes the methods of a call path
 * from a root instead.
 */
struct transform {
	enum transform_kind kind;
	const bool *methods;
	const uint32_t *path; /* TRANSFORM_FOCUS_SUBTREE: method indexes */
	size_t npath;
};

/* A new model: tree with t applied.  tree is left as it was. */
struct calltree *transform_apply(const struct calltree *tree,
                                 const struct transform *t);
/* transform_apply, asking stop(arg) every 65536 calls whether to give up
 * (stop may be NULL): NULL when it said so. */
struct calltree *transform_apply_until(const struct calltree *tree,
                                       const struct transform *t,
                                       bool (*stop)(void *arg), void *arg);

#endif
