/*
 * heap-instances: a heap dump's objects as the viewer lists them: the
 * heaps a name picks, the histogram's counts before the dominators are
 * known, the objects of one histogram row, and how an object is named.
 */
#ifndef TRACETUI_QUERY_HEAP_INSTANCES_H
#define TRACETUI_QUERY_HEAP_INSTANCES_H

#include "model/heap.h"
#include "query/heap-dominators.h"
#include "query/heap-histogram.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The heaps `name` shows ("all", or a heap's name: "app"), as a new
 * array of d->nheaps + 1 flags, or NULL for every heap; *found false
 * when the dump has no heap of that name (then NULL). */
bool *heap_pick(const struct heap_dump *d, const char *name, bool *found);
/* The dump's own name for heap `name` ("all" or one of d->heaps), or
 * NULL when it has no heap of that name. */
const char *heap_named(const struct heap_dump *d, const char *name);
/* The heap the viewer and `report` show first: "app" on an Android
 * dump that has one, else "all". */
const char *heap_default(const struct heap_dump *d);

/* The histogram's instances and shallow bytes of the heaps shown, as
 * heap_histogram_build counts them, with every retained size 0: what
 * shows before the dominators are known. */
void heap_histogram_counts(struct heap_histogram *h, const struct heap_dump *d,
                           const bool *shown);

/* The histogram row of object i (its class's; class objects' is
 * java.lang.Class's). */
static inline uint32_t
heap_row_of(const struct heap_dump *d, uint32_t i)
{
	return d->classes[d->klass[i]].row;
}
/* The histogram row named name, or HEAP_NONE. */
uint32_t heap_row_named(const struct heap_dump *d, const char *name);

/* The objects of histogram row `row` in the heaps shown, into *out (n
 * of them; free it), by retained size when dom is not NULL (largest
 * first), else by shallow size; ties in file order. */
void heap_instances(const struct heap_dump *d, uint32_t row, const bool *shown,
                    const struct heap_dominators *dom, uint32_t **out,
                    size_t *n);

/* "Class@0xid", or "class Name@0xid" for a class object, into buf, as
 * every command names an object. */
const char *heap_object_label(const struct heap_dump *d, uint32_t i, char *buf,
                              size_t size);

#endif
