/*
 * flame: one pre-order walk of the callpath with an explicit stack
 * (paths can be a million calls deep), children pushed in reverse so
 * they come out in the callpath's order.  Matching with BASE gives every
 * method and thread of both traces one shared id (a sort by method
 * identity, model/identity.h, and thread name, so the same method meets
 * itself whatever its id), then walks NEW's frames, parents first,
 * looking up (BASE node, shared id) in a map of BASE's children.
 */
#include "config.h"

#include "query/flame.h"

#include "model/identity.h"
#include "util/alloc.h"
#include "util/map.h"
#include "util/sort.h"

#include <stdlib.h>
#include <string.h>

struct pending {
	uint32_t node, parent_frame;
	uint64_t x;
};

static uint32_t
add_frame(struct flame *out, size_t *cap, const struct flame_frame *f)
{
	UTIL_GROW(out->frames, *cap, out->count + 1);
	out->frames[out->count] = *f;
	if (f->depth > out->depth)
		out->depth = f->depth;
	return (uint32_t)out->count++;
}

void
flame_layout(struct flame *out, const struct callpath *path, enum clock_index k,
             uint64_t total, uint64_t min_incl)
{
	struct pending *stack = NULL;
	size_t n = 0, cap = 0, fcap = 0;
	struct flame_frame root = {0}, outside = {0};
	uint64_t covered = 0;
	uint32_t ch;

	memset(out, 0, sizeof(*out));
	out->total = total;
	if (!path->count)
		return;
	for (ch = path->nodes[0].first_child; ch != CALL_NONE;
	     ch = path->nodes[ch].next_sibling)
		covered += path->nodes[ch].incl[k];
	root.parent = CALL_NONE;
	root.kind = FLAME_ROOT;
	root.incl = total > covered ? total : covered;
	out->total = root.incl;
	add_frame(out, &fcap, &root);
	/* Push the root's children in reverse order. */
	{
		uint64_t x = 0;
		size_t mark = n;

		for (ch = path->nodes[0].first_child; ch != CALL_NONE;
		     ch = path->nodes[ch].next_sibling) {
			UTIL_GROW(stack, cap, n + 1);
			stack[n++] = (struct pending){ch, 0, x};
			x += path->nodes[ch].incl[k];
		}
		for (size_t i = mark, j = n; i < j--; i++) {
			struct pending t = stack[i];

			stack[i] = stack[j];
			stack[j] = t;
		}
	}
	while (n) {
		struct pending p = stack[--n];
		const struct callpath_node *node = &path->nodes[p.node];
		struct flame_frame f = {0};
		uint32_t id;
		uint64_t x = p.x;
		size_t mark;

		if (node->incl[k] < min_incl) {
			out->pruned++;
			continue;
		}
		f.node = p.node;
		f.parent = p.parent_frame;
		f.depth = out->frames[p.parent_frame].depth + 1;
		if (f.depth > FLAME_MAX_DEPTH) {
			out->cut = true;
			continue;
		}
		f.kind =
		        node->method == CALL_NONE ? FLAME_THREAD : FLAME_METHOD;
		f.x = p.x;
		f.incl = node->incl[k];
		f.excl = callpath_excl(path, p.node, k);
		f.calls = node->calls;
		id = add_frame(out, &fcap, &f);
		mark = n;
		for (ch = node->first_child; ch != CALL_NONE;
		     ch = path->nodes[ch].next_sibling) {
			UTIL_GROW(stack, cap, n + 1);
			stack[n++] = (struct pending){ch, id, x};
			x += path->nodes[ch].incl[k];
		}
		for (size_t i = mark, j = n; i < j--; i++) {
			struct pending t = stack[i];

			stack[i] = stack[j];
			stack[j] = t;
		}
	}
	free(stack);
	if (total > covered) {
		outside.node = CALL_NONE;
		outside.parent = 0;
		outside.depth = 1;
		outside.kind = FLAME_OUTSIDE;
		outside.x = covered;
		outside.incl = outside.excl = total - covered;
		if (outside.incl >= min_incl)
			add_frame(out, &fcap, &outside);
		else
			out->pruned++;
	}
	out->frames[0].excl = 0;
}

void
flame_done(struct flame *flame)
{
	free(flame->frames);
	memset(flame, 0, sizeof(*flame));
}

/* A method or thread of either trace, to be given an id. */
struct named {
	const struct tt_method *method; /* NULL for a thread */
	const char *thread_name;
	int side; /* 0: NEW, 1: BASE */
	uint32_t index;
};

/* Methods first, by identity (model/identity.h); then threads by name. */
static int
named_cmp(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	if (!x->method != !y->method)
		return x->method ? -1 : 1;
	if (x->method)
		return identity_cmp(x->method, y->method);
	return strcmp(x->thread_name, y->thread_name);
}

/*
 * Shared ids: ids[side][0..nmethods) for methods, then [nmethods..) for
 * threads, equal for the same method (or thread name) across both
 * traces.
 */
static uint32_t **
shared_ids(const struct calltree *trees[2])
{
	uint32_t **ids = xcalloc(2, sizeof(*ids));
	struct named *all;
	size_t n = 0, i, total = 0;
	uint32_t next = 0;
	int s;

	for (s = 0; s < 2; s++)
		total += trees[s]->nmethods + trees[s]->nthreads;
	all = xcalloc(total + 1, sizeof(*all));
	for (s = 0; s < 2; s++) {
		const struct calltree *t = trees[s];

		ids[s] =
		        xcalloc(t->nmethods + t->nthreads + 1, sizeof(*ids[s]));
		for (i = 0; i < t->nmethods; i++)
			all[n++] = (struct named){&t->methods[i], NULL, s,
			                          (uint32_t)i};
		for (i = 0; i < t->nthreads; i++)
			all[n++] = (struct named){NULL, t->threads[i].name, s,
			                          (uint32_t)i};
	}
	sort_items(all, n, sizeof(*all), named_cmp);
	for (i = 0; i < n; i++) {
		const struct calltree *t = trees[all[i].side];

		if (i && named_cmp(&all[i - 1], &all[i]) != 0)
			next++;
		ids[all[i].side]
		   [all[i].index + (all[i].method ? 0 : t->nmethods)] = next;
	}
	free(all);
	return ids;
}

/* The shared id of a callpath node of tree (side s). */
static uint32_t
node_id(uint32_t *const *ids, int s, const struct calltree *tree,
        const struct callpath_node *n)
{
	if (n->method == CALL_NONE)
		return ids[s][tree->nmethods + n->thread];
	return ids[s][n->method];
}

void
flame_match(struct flame_base *out, const struct flame *flame,
            const struct callpath *path, const struct calltree *tree,
            const struct callpath *bpath, const struct calltree *btree,
            enum clock_index k, uint64_t btotal)
{
	const struct calltree *trees[2] = {tree, btree};
	uint32_t **ids = shared_ids(trees);
	uint32_t *at = xcalloc(flame->count + 1, sizeof(*at));
	struct util_map children;
	uint64_t covered = 0;
	size_t i;
	uint32_t ch;

	out->found = xcalloc(flame->count + 1, sizeof(*out->found));
	out->incl = xcalloc(flame->count + 1, sizeof(*out->incl));
	out->excl = xcalloc(flame->count + 1, sizeof(*out->excl));
	util_map_init(&children);
	for (i = 1; i < bpath->count; i++) {
		const struct callpath_node *b = &bpath->nodes[i];

		util_map_put(&children,
		             (uint64_t)b->parent << 32 |
		                     node_id(ids, 1, btree, b),
		             (uint32_t)i);
	}
	if (bpath->count)
		for (ch = bpath->nodes[0].first_child; ch != CALL_NONE;
		     ch = bpath->nodes[ch].next_sibling)
			covered += bpath->nodes[ch].incl[k];
	out->total = btotal > covered ? btotal : covered;
	for (i = 0; i < flame->count; i++) {
		const struct flame_frame *f = &flame->frames[i];
		uint32_t b;

		at[i] = CALL_NONE;
		if (f->kind == FLAME_ROOT) {
			at[i] = 0;
			out->found[i] = true;
			out->incl[i] = out->total;
			out->excl[i] = 0;
			continue;
		}
		if (f->kind == FLAME_OUTSIDE) {
			out->found[i] = out->total > covered;
			out->incl[i] = out->excl[i] = out->total - covered;
			continue;
		}
		if (at[f->parent] == CALL_NONE || !bpath->count)
			continue;
		if (!util_map_get(&children,
		                  (uint64_t)at[f->parent] << 32 |
		                          node_id(ids, 0, tree,
		                                  &path->nodes[f->node]),
		                  &b))
			continue;
		at[i] = b;
		out->found[i] = true;
		out->incl[i] = bpath->nodes[b].incl[k];
		out->excl[i] = callpath_excl(bpath, b, k);
	}
	util_map_done(&children);
	free(at);
	free(ids[0]);
	free(ids[1]);
	free(ids);
}

void
flame_base_done(struct flame_base *base)
{
	free(base->found);
	free(base->incl);
	free(base->excl);
	memset(base, 0, sizeof(*base));
}
