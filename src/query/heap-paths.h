/*
 * heap-paths: the shortest strong path from a GC root to an object:
 * a breadth-first search from every root the program holds (statics,
 * threads, frames, monitors), then from those the VM or native code
 * holds (JNI globals, interned strings, ...) for what is left.
 */
#ifndef TRACETUI_QUERY_HEAP_PATHS_H
#define TRACETUI_QUERY_HEAP_PATHS_H

#include "model/heap.h"

#include <stddef.h>
#include <stdint.h>

struct heap_paths {
	/* Per object: the object before it on a shortest path from a
	 * root, HEAP_NONE for a root or an object no path reaches, and
	 * the reference's slot in it (heap_next_ref's). */
	uint32_t *from, *slot;
	uint8_t *root_type; /* a root: its first root record's type */
	uint8_t *seen;
};

/* Search every strong path of d. */
void heap_paths_compute(struct heap_paths *p, const struct heap_dump *d);
/* Release p. */
void heap_paths_done(struct heap_paths *p);

/* The path to object o, root first, into *out (n objects; free it);
 * false when no strong path reaches o. */
bool heap_path_to(const struct heap_paths *p, uint32_t o, uint32_t **out,
                  size_t *n);

#endif
