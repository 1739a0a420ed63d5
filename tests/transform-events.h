/*
 * transform-events: a transform through the builder's event sink, for
 * the tests to compare model/transform.c's direct build with.
 */
#ifndef TRACETUI_TESTS_TRANSFORM_EVENTS_H
#define TRACETUI_TESTS_TRANSFORM_EVENTS_H

#include "model/transform.h"

/* transform_apply's model, built by feeding the kept calls as events to
 * a fresh builder. */
struct calltree *transform_apply_events(const struct calltree *tree,
                                        const struct transform *t);

#endif
