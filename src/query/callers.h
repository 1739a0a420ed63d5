/*
 * callers: Android Studio's Bottom Up tree of a top-down call path tree.
 * Its roots are every method, each with its total time (its calls' not
 * inside another call of it, as `report`'s inclusive time) and its self
 * time; under a method, its callers, each with the time of the method's
 * calls it made (their total and self), and under those their callers
 * in turn.  A node holds the calls whose stacks end with its path read
 * upwards; its total counts those not inside another of them.
 *
 * The tree is a struct callpath (its nodes' incl are the totals, calls
 * the outermost calls) made a level at a time: callers_expand makes a
 * node's children from the top-down nodes it keeps.  The top-down tree
 * must outlive it and not change (sorting it is fine).
 */
#ifndef TRACETUI_CALLERS_H
#define TRACETUI_CALLERS_H

#include "query/callpath.h"

#include <stdbool.h>
#include <stdint.h>

struct callers;

/* The roots of the Bottom Up tree of top (merged, not by thread) into
 * out, and what makes the rest; root 0's incl is top's root's. */
struct callers *callers_new(struct callpath *out, const struct callpath *top);
/* Make node n's children if they are not made yet. */
void callers_expand(struct callers *c, struct callpath *out, uint32_t n);
/* Whether node n has children, made or not. */
bool callers_has_children(const struct callers *c, const struct callpath *out,
                          uint32_t n);
/* Node n's self time on clock k. */
uint64_t callers_self(const struct callers *c, uint32_t n, enum clock_index k);
/* Release what makes the tree (out is released by callpath_done). */
void callers_free(struct callers *c);

#endif
