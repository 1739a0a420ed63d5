/*
 * heap-flame: one walk down the dominator tree, each shown node added
 * to the class-path node under its parent's (found through a hash of
 * the parent's index and the class's row).
 */
#include "config.h"

#include "query/heap-flame.h"

#include "util/alloc.h"
#include "util/map.h"

#include <stdlib.h>
#include <string.h>

/* A dominator tree node being walked: its class-path node and its next
 * child. */
struct frame {
	uint32_t node, next, at;
};

static uint32_t
child_named(struct heap_flame *f, size_t *cap, struct util_map *kids,
            uint32_t parent, uint32_t row, const char *name)
{
	uint64_t key = (uint64_t)parent << 32 | row;
	uint32_t *slot = util_map_slot(kids, key, HEAP_NONE);
	struct heap_flame_node *n;

	if (*slot != HEAP_NONE)
		return *slot;
	UTIL_GROW(f->nodes, *cap, f->n + 1);
	n = &f->nodes[f->n];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->parent = parent;
	n->first_child = HEAP_NONE;
	n->next_sibling = f->nodes[parent].first_child;
	n->depth = f->nodes[parent].depth + 1;
	f->nodes[parent].first_child = (uint32_t)f->n;
	*slot = (uint32_t)f->n;
	return (uint32_t)f->n++;
}

static const struct heap_flame *sorting;

static int
by_total(const void *a, const void *b)
{
	uint64_t x = sorting->nodes[*(const uint32_t *)a].total;
	uint64_t y = sorting->nodes[*(const uint32_t *)b].total;

	if (x != y)
		return x < y ? 1 : -1;
	return strcmp(sorting->nodes[*(const uint32_t *)a].name,
	              sorting->nodes[*(const uint32_t *)b].name);
}

/* Order every node's children by total, largest first. */
static void
sort_children(struct heap_flame *f)
{
	uint32_t *list = xmalloc_large(f->n + 1, sizeof(uint32_t));
	size_t i;

	sorting = f;
	for (i = 0; i < f->n; i++) {
		size_t k = 0, j;
		uint32_t c;

		for (c = f->nodes[i].first_child; c != HEAP_NONE;
		     c = f->nodes[c].next_sibling)
			list[k++] = c;
		if (k < 2)
			continue;
		qsort(list, k, sizeof(uint32_t), by_total);
		f->nodes[i].first_child = list[0];
		for (j = 0; j + 1 < k; j++)
			f->nodes[list[j]].next_sibling = list[j + 1];
		f->nodes[list[k - 1]].next_sibling = HEAP_NONE;
	}
	free(list);
}

void
heap_flame_build(struct heap_flame *f, const struct heap_dump *d,
                 const struct heap_dominators *dom, uint64_t floor)
{
	struct util_map kids;
	size_t cap = 0, sp = 0, scap = 64;
	uint32_t n = (uint32_t)d->nobjects;
	struct frame *stack = xmalloc_large(scap, sizeof(*stack));

	memset(f, 0, sizeof(*f));
	util_map_init(&kids);
	UTIL_GROW(f->nodes, cap, 1);
	memset(f->nodes, 0, sizeof(*f->nodes));
	f->nodes[0].name = "all";
	f->nodes[0].parent = f->nodes[0].first_child = HEAP_NONE;
	f->nodes[0].next_sibling = HEAP_NONE;
	f->nodes[0].total = dom->reachable_bytes;
	f->n = 1;
	stack[sp++] = (struct frame){n, dom->first[n], 0};
	while (sp) {
		struct frame *fr = &stack[sp - 1];
		uint32_t c, k, at, cls;
		uint64_t self;

		if (fr->next == dom->first[fr->node + 1]) {
			sp--;
			continue;
		}
		c = dom->children[fr->next++];
		if (dom->retained[c] < floor || !dom->retained[c])
			continue;
		cls = heap_class_of_object(d, c);
		if (cls == HEAP_NONE)
			cls = d->klass[c];
		/* A run of one class down a path (a linked list) is one
		 * node: its top's retained size is the run's. */
		if (fr->at &&
		    f->nodes[fr->at].name == d->rows[d->classes[cls].row]) {
			at = fr->at;
		} else {
			at = child_named(f, &cap, &kids, fr->at,
			                 d->classes[cls].row,
			                 d->rows[d->classes[cls].row]);
			f->nodes[at].total += dom->retained[c];
		}
		self = dom->retained[c];
		for (k = dom->first[c]; k < dom->first[c + 1]; k++)
			if (dom->retained[dom->children[k]] >= floor)
				self -= dom->retained[dom->children[k]];
		f->nodes[at].self += self;
		if (sp == scap) {
			scap *= 2;
			stack = xreallocarray(stack, scap, sizeof(*stack));
		}
		stack[sp++] = (struct frame){c, dom->first[c], at};
	}
	free(stack);
	util_map_done(&kids);
	{
		uint64_t shown = 0;
		uint32_t c;

		for (c = f->nodes[0].first_child; c != HEAP_NONE;
		     c = f->nodes[c].next_sibling)
			shown += f->nodes[c].total;
		f->nodes[0].self = f->nodes[0].total - shown;
	}
	sort_children(f);
}

void
heap_flame_done(struct heap_flame *f)
{
	free(f->nodes);
	memset(f, 0, sizeof(*f));
}
