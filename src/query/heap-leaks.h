/*
 * heap-leaks: a heap dump's leak suspects: objects LeakCanary's
 * watchers (KeyedWeakReference) hold that strong references still
 * reach, destroyed Activities (mDestroyed or mFinished) and Fragments
 * detached from their manager (mFragmentManager null), reachable.
 */
#ifndef TRACETUI_QUERY_HEAP_LEAKS_H
#define TRACETUI_QUERY_HEAP_LEAKS_H

#include "model/heap.h"
#include "query/heap-dominators.h"

#include <stddef.h>
#include <stdint.h>

struct heap_leak {
	uint32_t object; /* the suspect */
	const char *why; /* a sentence saying why */
};

/* Every suspect of d, in the order of the objects that make them (a
 * watcher, or the suspect itself), into *out (n of them, never NULL;
 * free it). */
void heap_leaks_find(const struct heap_dump *d,
                     const struct heap_dominators *dom, struct heap_leak **out,
                     size_t *n);

#endif
