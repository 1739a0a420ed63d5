/*
 * heap-paths: breadth first from the roots (in the order the dump lists
 * them), each object reached first by the shortest path; references in
 * heap_next_ref's order.  Roots the program holds go first; those the
 * VM or native code holds only then (held_by_vm), as LeakCanary
 * visits such paths last.
 */
#include "config.h"

#include "query/heap-paths.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

/* Whether a root is one the VM or native code holds (JNI globals,
 * interned strings, the debugger, VM internals, unknown ones): paths
 * from them are taken only where no other root's path reaches. */
static bool
held_by_vm(unsigned type)
{
	switch (type) {
	case 0x01:
	case 0x89:
	case 0x8B:
	case 0x8C:
	case 0x8D:
	case 0x8F:
	case 0x90:
	case 0xFF:
		return true;
	default:
		return false;
	}
}

/* Breadth first from queue[head, tail): what it reaches. */
static size_t
search(struct heap_paths *p, const struct heap_dump *d, uint32_t *queue,
       size_t head, size_t tail)
{
	while (head < tail) {
		uint32_t o = queue[head++], slot = 0, to;

		while ((to = heap_next_ref(d, o, &slot)) != HEAP_NONE) {
			if (p->seen[to])
				continue;
			p->seen[to] = 1;
			p->from[to] = o;
			p->slot[to] = slot - 1;
			queue[tail++] = to;
		}
	}
	return tail;
}

void
heap_paths_compute(struct heap_paths *p, const struct heap_dump *d)
{
	size_t n = d->nobjects, tail = 0, start, i;
	uint32_t *queue = xmalloc_large(n + 1, sizeof(uint32_t));
	int pass;

	p->from = xmalloc_large(n + 1, sizeof(uint32_t));
	p->slot = xmalloc_large(n + 1, sizeof(uint32_t));
	p->root_type = xcalloc(n + 1, 1);
	p->seen = xcalloc(n + 1, 1);
	memset(p->from, 0xFF, (n + 1) * sizeof(uint32_t));
	for (pass = 0; pass < 2; pass++) {
		start = tail;
		for (i = 0; i < d->nroots; i++) {
			uint32_t o = d->roots[i].object;

			if (p->seen[o] || held_by_vm(d->roots[i].type) != pass)
				continue;
			p->seen[o] = 1;
			p->root_type[o] = d->roots[i].type;
			queue[tail++] = o;
		}
		tail = search(p, d, queue, start, tail);
	}
	free(queue);
}

void
heap_paths_done(struct heap_paths *p)
{
	free(p->from);
	free(p->slot);
	free(p->root_type);
	free(p->seen);
	memset(p, 0, sizeof(*p));
}

bool
heap_path_to(const struct heap_paths *p, uint32_t o, uint32_t **out, size_t *n)
{
	size_t len = 0, i;
	uint32_t at, *path;

	*out = NULL;
	*n = 0;
	if (!p->seen[o])
		return false;
	for (at = o; at != HEAP_NONE; at = p->from[at])
		len++;
	path = xmalloc_large(len, sizeof(uint32_t));
	for (at = o, i = len; at != HEAP_NONE; at = p->from[at])
		path[--i] = at;
	*out = path;
	*n = len;
	return true;
}
