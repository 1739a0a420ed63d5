/*
 * heap-refs: every strong reference of a heap dump at once, in compact
 * arrays: the references of object i are to[first[i] .. first[i + 1]),
 * the objects heap_next_ref gives, in its order.
 *
 * Memory: 4 bytes per object and 4 per reference found, while held.
 */
#ifndef TRACETUI_MODEL_HEAP_REFS_H
#define TRACETUI_MODEL_HEAP_REFS_H

#include "model/heap.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct heap_refs {
	uint32_t *first; /* nobjects + 1 */
	uint32_t *to;
	size_t n; /* references */
};

/* Decode d's strong references from its bytes in one pass in file
 * order; false, with nothing held, when they number 2^32 - 1 or more
 * (the caller then asks heap_next_ref; TRACETUI_TEST_HEAP_REFS=N sets
 * that limit to N for tests). */
bool heap_refs_build(struct heap_refs *r, const struct heap_dump *d);
/* The references the walk of d's records decoded, their targets still
 * ids (heap_find makes them objects; none is 0), into r: taken once;
 * false where there are none (then heap_refs_build decodes them). */
bool heap_refs_take_ids(struct heap_refs *r, const struct heap_dump *d);
/* Release r. */
void heap_refs_done(struct heap_refs *r);

#endif
