/*
 * paths: a node per call path, made when its first call opens, so that
 * nodes come in the order of their first calls' starts, which is the
 * order query/callpath.c's walk over calls in pre-order makes them.
 * An orphan's call begins at the thread's first event, before every
 * call so far: its node is made last but ordered first (paths_finish),
 * the orphans made later before the earlier ones they enclose.
 */
#include "config.h"

#include "model/paths.h"

#include "util/alloc.h"

#include <string.h>

/* Key of the children map. */
static uint64_t
child_key(uint32_t parent, uint32_t m)
{
	return (uint64_t)parent << 32 | m;
}

/* A new node of method m, last child of parent (CALL_NONE: none). */
static uint32_t
node_new(struct path_build *p, uint32_t parent, uint32_t m)
{
	uint32_t id = (uint32_t)p->count;
	struct path_node *n;

	UTIL_GROW(p->nodes, p->cap, p->count + 1);
	if (p->cap > p->seen_cap) {
		p->seen_cap = p->cap;
		p->last_child = xreallocarray(p->last_child, p->seen_cap,
		                              sizeof(*p->last_child));
		p->first_seen = xreallocarray(p->first_seen, p->seen_cap,
		                              sizeof(*p->first_seen));
		p->next_seen = xreallocarray(p->next_seen, p->seen_cap,
		                             sizeof(*p->next_seen));
	}
	n = &p->nodes[id];
	memset(n, 0, sizeof(*n));
	n->method = m;
	n->parent = parent;
	n->first_child = n->next_sibling = CALL_NONE;
	p->last_child[id] = p->first_seen[id] = p->next_seen[id] = CALL_NONE;
	if (parent != CALL_NONE) {
		uint32_t last = p->last_child[parent];

		if (last == CALL_NONE)
			p->nodes[parent].first_child = id;
		else
			p->nodes[last].next_sibling = id;
		p->last_child[parent] = id;
	}
	p->count++;
	return id;
}

void
paths_init(struct path_build *p)
{
	memset(p, 0, sizeof(*p));
	util_map_init(&p->children);
	node_new(p, CALL_NONE, CALL_NONE);
}

void
paths_done(struct path_build *p)
{
	free(p->nodes);
	util_map_done(&p->children);
	free(p->last_child);
	free(p->first_seen);
	free(p->next_seen);
	free(p->open);
	free(p->closed);
	free(p->orphans);
	memset(p, 0, sizeof(*p));
}

uint32_t
paths_child(struct path_build *p, uint32_t parent, uint32_t m)
{
	uint32_t *slot =
	        util_map_slot(&p->children, child_key(parent, m), CALL_NONE);

	if (*slot == CALL_NONE)
		*slot = node_new(p, parent, m);
	return *slot;
}

void
paths_reserve(struct path_build *p, size_t depth)
{
	size_t old = p->stack_cap, cap = old, i;

	UTIL_GROW(p->open, cap, depth + 2);
	p->closed = xreallocarray(p->closed, cap, sizeof(*p->closed));
	for (i = old; i < cap; i++)
		p->closed[i] = CALL_NONE;
	p->stack_cap = cap;
}

void
paths_orphan(struct path_build *p, uint32_t m, const uint64_t *dur)
{
	uint32_t o = node_new(p, CALL_NONE, m), ch;
	struct path_node *root = &p->nodes[0], *n = &p->nodes[o];
	int k;

	for (ch = root->first_child; ch != CALL_NONE;
	     ch = p->nodes[ch].next_sibling) {
		uint32_t cm = p->nodes[ch].method;

		util_map_remove(&p->children, child_key(0, cm));
		util_map_put(&p->children, child_key(o, cm), ch);
		p->nodes[ch].parent = o;
	}
	n->first_child = root->first_child;
	p->last_child[o] = p->last_child[0];
	n->parent = 0;
	root->first_child = p->last_child[0] = o;
	util_map_put(&p->children, child_key(0, m), o);
	n->calls = 1;
	for (k = 0; k < CLOCK_COUNT; k++)
		n->incl[k] = dur[k];
	UTIL_GROW(p->orphans, p->orphans_cap, p->norphans + 1);
	p->orphans[p->norphans++] = o;
	if (!p->stack_cap)
		paths_reserve(p, 0);
	p->closed[0] = o;
}

void
paths_add(struct path_build *into, const struct path_build *from, size_t depth,
          size_t top)
{
	uint32_t *remap = xmalloc(from->count * sizeof(*remap));
	size_t i;
	int k;

	remap[0] = 0;
	for (i = 1; i < from->count; i++) {
		const struct path_node *f = &from->nodes[i];
		uint32_t n = paths_child(into, remap[f->parent], f->method);

		into->nodes[n].calls += f->calls;
		for (k = 0; k < CLOCK_COUNT; k++)
			into->nodes[n].incl[k] += f->incl[k];
		remap[i] = n;
	}
	if (top + 2 > into->stack_cap)
		paths_reserve(into, top);
	for (i = depth; i < top; i++)
		into->open[i] = remap[from->open[i]];
	/* The guesses named from's nodes: forget them. */
	for (i = 0; i < into->stack_cap; i++)
		into->closed[i] = CALL_NONE;
	free(remap);
}

/* Number p's nodes in the order their first calls began: the root, the
 * orphans (the last made first), then the others in the order made. */
static void
order_nodes(struct path_build *p)
{
	uint32_t *id = xmalloc(p->count * sizeof(*id)), next = 1;
	struct path_node *out = xmalloc(p->count * sizeof(*out));
	size_t i;

	memset(id, 0xFF, p->count * sizeof(*id));
	id[0] = 0;
	for (i = p->norphans; i > 0; i--)
		id[p->orphans[i - 1]] = next++;
	for (i = 1; i < p->count; i++)
		if (id[i] == CALL_NONE)
			id[i] = next++;
	for (i = 0; i < p->count; i++) {
		struct path_node n = p->nodes[i];

		if (n.parent != CALL_NONE)
			n.parent = id[n.parent];
		if (n.first_child != CALL_NONE)
			n.first_child = id[n.first_child];
		if (n.next_sibling != CALL_NONE)
			n.next_sibling = id[n.next_sibling];
		out[id[i]] = n;
	}
	free(p->nodes);
	p->nodes = out;
	free(id);
}

void
paths_finish(struct path_build *p, struct path_node **nodes, size_t *count)
{
	if (p->norphans)
		order_nodes(p);
	*nodes = p->nodes;
	*count = p->count;
	p->nodes = NULL;
	paths_done(p);
}
