/*
 * profile-index: the calls of each thread cut into blocks of consecutive
 * calls in pre-order, each block holding the sums of its caller-callee
 * links, so that the profile of a time range adds up whole blocks and
 * walks only part of the two blocks at its ends.  A block with so many
 * links that their sums would cost about as much as its calls keeps none
 * and is walked.
 *
 * Built once per trace; read-only afterwards, so any thread may read it.
 */
#ifndef TRACETUI_PROFILE_INDEX_H
#define TRACETUI_PROFILE_INDEX_H

#include "model/calltree.h"
#include "query/profile.h"
#include "model/scope.h"

#include <stddef.h>

/* Calls per block when none is asked for. */
enum { PROFILE_INDEX_BLOCK = 16384 };

struct profile_index;

/* Index every thread of tree in blocks of `block` calls (0: the
 * default; at most 65535). */
struct profile_index *profile_index_new(const struct calltree *tree,
                                        size_t block);
/* Release the index (NULL is ignored). */
void profile_index_free(struct profile_index *index);
/* Bytes of memory the index holds. */
size_t profile_index_bytes(const struct profile_index *index);
/* The profile of scope, range included, from the index: the same result
 * as profile_compute. */
void profile_from_index(struct profile *out, const struct profile_index *index,
                        const struct calltree *tree, const struct scope *scope);

#endif
