/*
 * sort: qsort and qsort_r that accept an empty table (base NULL, n 0).
 */
#ifndef TRACETUI_UTIL_SORT_H
#define TRACETUI_UTIL_SORT_H

#include <stdlib.h>

/* Sort n items of size bytes at base with cmp; base may be NULL when n is 0
 * (qsort's contract forbids that, and empty tables are ordinary here). */
static inline void
sort_items(void *base, size_t n, size_t size,
           int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* sort_items with qsort_r's extra argument for cmp. */
static inline void
sort_items_r(void *base, size_t n, size_t size,
             int (*cmp)(const void *, const void *, void *), void *arg)
{
	if (n > 1)
		qsort_r(base, n, size, cmp, arg);
}

#endif
