/*
 * invert-eager: the whole bottom-up tree at once, the oracle of the lazy
 * one (callpath_invert and callpath_expand_all).
 */
#ifndef TRACETUI_TESTS_INVERT_EAGER_H
#define TRACETUI_TESTS_INVERT_EAGER_H

#include "query/callpath.h"

#include <stdbool.h>

/* The bottom-up tree of path into out, every node made (out->lazy is
 * NULL), children unsorted: callpath_sort orders them. */
void invert_eager(struct callpath *out, const struct callpath *path);

/* True when a and b, both sorted on one clock, hold the same nodes from
 * their roots down: names, depths, calls, times, children in order. */
bool invert_same(const struct callpath *a, const struct callpath *b);

#endif
