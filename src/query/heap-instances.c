/*
 * heap-instances: the counts before the dominators come from the
 * histogram's own pass over an empty dominator tree, so that both are
 * one code; a row's objects are found in one pass over the objects.
 */
#include "config.h"

#include "query/heap-instances.h"

#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool *
heap_pick(const struct heap_dump *d, const char *name, bool *found)
{
	bool *shown;
	size_t i;

	*found = true;
	if (strcmp(name, "all") == 0)
		return NULL;
	shown = xcalloc(d->nheaps + 1, sizeof(bool));
	*found = false;
	for (i = 0; i < d->nheaps; i++)
		if (strcmp(d->heaps[i], name) == 0)
			*found = shown[i] = true;
	if (!*found) {
		free(shown);
		return NULL;
	}
	return shown;
}

const char *
heap_named(const struct heap_dump *d, const char *name)
{
	size_t i;

	if (strcmp(name, "all") == 0)
		return "all";
	for (i = 0; i < d->nheaps; i++)
		if (strcmp(d->heaps[i], name) == 0)
			return d->heaps[i];
	return NULL;
}

const char *
heap_default(const struct heap_dump *d)
{
	size_t i;

	if (!d->android)
		return "all";
	for (i = 0; i < d->nheaps; i++)
		if (strcmp(d->heaps[i], "app") == 0)
			return "app";
	return "all";
}

void
heap_histogram_counts(struct heap_histogram *h, const struct heap_dump *d,
                      const bool *shown)
{
	/* A tree of the super-root alone: nothing retained. */
	uint32_t *first = xcalloc(d->nobjects + 2, sizeof(uint32_t));
	struct heap_dominators none = {.first = first};

	heap_histogram_build(h, d, &none, shown);
	free(first);
}

uint32_t
heap_row_named(const struct heap_dump *d, const char *name)
{
	size_t r;

	for (r = 0; r < d->nrows; r++)
		if (strcmp(d->rows[r], name) == 0)
			return (uint32_t)r;
	return HEAP_NONE;
}

/* The sizes heap_instances sorts by. */
struct sized {
	uint64_t size;
	uint32_t object;
};

static int
by_size(const void *a, const void *b)
{
	const struct sized *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	return (x->object > y->object) - (x->object < y->object);
}

void
heap_instances(const struct heap_dump *d, uint32_t row, const bool *shown,
               const struct heap_dominators *dom, uint32_t **out, size_t *n)
{
	struct sized *s = NULL;
	size_t i, k = 0, cap = 0, run = 0;

	for (i = 0; i < d->nobjects; i++) {
		while (run + 1 < d->nruns && d->runs[run + 1].first <= i)
			run++;
		if (heap_row_of(d, (uint32_t)i) != row ||
		    (shown && !shown[d->nruns ? d->runs[run].heap : 0]))
			continue;
		UTIL_GROW(s, cap, k + 1);
		s[k].object = (uint32_t)i;
		s[k++].size =
		        dom ? dom->retained[i] : heap_shallow(d, (uint32_t)i);
	}
	if (k > 1)
		qsort(s, k, sizeof(*s), by_size);
	*out = xcalloc(k + 1, sizeof(uint32_t));
	for (i = 0; i < k; i++)
		(*out)[i] = s[i].object;
	*n = k;
	free(s);
}

const char *
heap_object_label(const struct heap_dump *d, uint32_t i, char *buf, size_t size)
{
	uint32_t c = heap_class_of_object(d, i);

	if (c != HEAP_NONE)
		snprintf(buf, size, "class %s@0x%llx", d->classes[c].name,
		         (unsigned long long)heap_object_id(d, i));
	else
		snprintf(buf, size, "%s@0x%llx", d->classes[d->klass[i]].name,
		         (unsigned long long)heap_object_id(d, i));
	return buf;
}
