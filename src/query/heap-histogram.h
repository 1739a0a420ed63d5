/*
 * heap-histogram: a heap dump's class histogram: per class name its
 * instances, shallow bytes and retained bytes, for a choice of heaps.
 */
#ifndef TRACETUI_QUERY_HEAP_HISTOGRAM_H
#define TRACETUI_QUERY_HEAP_HISTOGRAM_H

#include "model/heap.h"
#include "query/heap-dominators.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct heap_row {
	const char *name;
	uint64_t instances, shallow, retained;
};

struct heap_histogram {
	struct heap_row *rows; /* those with an object in the heaps shown */
	size_t nrows;
	uint64_t instances, shallow, retained; /* the columns' sums */
};

/*
 * The histogram of the objects in the heaps `shown` marks (by heap
 * index; NULL: every heap).  Instances and shallow bytes count every
 * object, reachable or not; a row's retained bytes are the retained
 * sizes of its objects shown that no other object of the row shown
 * dominates (so they include what they keep in any heap).  Rows are in
 * class order.
 */
void heap_histogram_build(struct heap_histogram *h, const struct heap_dump *d,
                          const struct heap_dominators *dom, const bool *shown);
/* Release h. */
void heap_histogram_done(struct heap_histogram *h);

/* Duplicated values: Strings with equal text, primitive arrays with
 * equal elements. */
struct heap_duplicate {
	uint32_t example; /* one of the objects */
	const char *name; /* its class */
	uint64_t count;   /* objects with this value */
	uint64_t wasted;  /* bytes of all but one of them */
};

/* The values held more than once by objects in the heaps shown, most
 * wasted bytes first, into *out (n of them; free it). */
void heap_duplicates(const struct heap_dump *d, const bool *shown,
                     struct heap_duplicate **out, size_t *n);

#endif
