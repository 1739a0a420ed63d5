/*
 * callpath: calls are in per-thread pre-order, so the path node of a call
 * at depth d is a child of the node last seen at depth d - 1: one stack of
 * nodes per thread walk and a map from (parent node, method) to node.
 * Merged trees are built with the same map, walking each part's nodes
 * (parents first); the inverted tree by grouping, a node's children when
 * they are asked for.
 */
#include "config.h"

#include "query/callpath.h"

#include "util/alloc.h"
#include "util/jobs.h"
#include "util/map.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct path_builder {
	struct callpath *out;
	size_t cap;
	struct util_map children; /* parent node << 32 | method -> node */
	uint32_t *last_child;     /* last child of each node, for appending */
	/* Per node, the child met first the last time its call began, and
	 * the sibling met after it last time: the guesses of add_call. */
	uint32_t *first_seen, *next_seen;
	size_t last_cap;
};

static uint32_t
node_new(struct path_builder *b, uint32_t parent, uint32_t method,
         uint32_t thread)
{
	struct callpath *out = b->out;
	struct callpath_node *n;
	uint32_t id = (uint32_t)out->count;

	UTIL_GROW(out->nodes, b->cap, out->count + 1);
	if (out->count + 1 > b->last_cap) {
		b->last_cap = b->cap;
		b->last_child = xreallocarray(b->last_child, b->last_cap,
		                              sizeof(*b->last_child));
		b->first_seen = xreallocarray(b->first_seen, b->last_cap,
		                              sizeof(*b->first_seen));
		b->next_seen = xreallocarray(b->next_seen, b->last_cap,
		                             sizeof(*b->next_seen));
	}
	n = &out->nodes[id];
	memset(n, 0, sizeof(*n));
	n->method = method;
	n->thread = thread;
	n->parent = parent;
	n->first_child = n->next_sibling = CALL_NONE;
	n->depth = parent == CALL_NONE ? 0 : out->nodes[parent].depth + 1;
	b->last_child[id] = b->first_seen[id] = b->next_seen[id] = CALL_NONE;
	if (parent != CALL_NONE) {
		uint32_t last = b->last_child[parent];

		if (last == CALL_NONE)
			out->nodes[parent].first_child = id;
		else
			out->nodes[last].next_sibling = id;
		b->last_child[parent] = id;
	}
	out->count++;
	return id;
}

static uint32_t
child_of(struct path_builder *b, uint32_t parent, uint32_t method)
{
	uint64_t key = (uint64_t)parent << 32 | method;
	uint32_t *slot = util_map_slot(&b->children, key, CALL_NONE);

	if (*slot == CALL_NONE)
		*slot = node_new(b, parent, method, CALL_NONE);
	return *slot;
}

/* The node of the call last met at each depth and the depth of the last
 * call.  Programs repeat their paths: a call's node is most often the
 * one that followed its previous sibling's node last time (or, for a
 * first callee, its caller's first child last time), so a guess checked
 * against caller and method saves most lookups. */
struct path_stack {
	uint32_t *node; /* node[d] for d < len; CALL_NONE for none yet */
	size_t len, cap;
	uint32_t depth; /* of the last call; UINT32_MAX before the first */
};

/* Add call i (its node is under the one at depth - 1, or base); a
 * top-level call's durations go to top as well. */
static void
add_call(struct path_builder *b, const struct calltree *tree,
         const struct scope *scope, const struct scope_span *span, size_t i,
         uint32_t base, struct path_stack *st, uint64_t *top)
{
	uint32_t d = calltree_depth(tree, i);
	uint32_t parent = d ? st->node[d - 1] : base;
	uint32_t method = calltree_method(tree, i), node, *seen;
	struct callpath_node *n;
	uint64_t dur[CLOCK_COUNT];
	int k;

	if (d >= st->len) {
		UTIL_GROW(st->node, st->cap, (size_t)d + 1);
		while (st->len <= d)
			st->node[st->len++] = CALL_NONE;
	}
	/* Its caller's first callee, or after a sibling. */
	seen = d == st->depth + 1 || st->node[d] == CALL_NONE
	               ? &b->first_seen[parent]
	               : &b->next_seen[st->node[d]];
	node = *seen;
	if (node == CALL_NONE || b->out->nodes[node].parent != parent ||
	    b->out->nodes[node].method != method) {
		node = child_of(b, parent, method);
		/* child_of may have moved the arrays. */
		seen = d == st->depth + 1 || st->node[d] == CALL_NONE
		               ? &b->first_seen[parent]
		               : &b->next_seen[st->node[d]];
		*seen = node;
	}
	n = &b->out->nodes[node];
	st->node[d] = node;
	st->depth = d;
	n->calls++;
	if (scope->range.on)
		scope_clip(scope, tree, span, i, dur);
	else /* scope_clip's answer, without the call */
		for (k = 0; k < CLOCK_COUNT; k++)
			dur[k] = tree->has_clock[k]
			                 ? calltree_duration(tree, i, k)
			                 : 0;
	for (k = 0; k < CLOCK_COUNT; k++) {
		n->incl[k] += dur[k];
		if (!d)
			top[k] += dur[k];
	}
}

/* Thread t's time outside its top-level calls (which took top) into
 * out; false when there is none. */
static bool
outside_time(const struct calltree *tree, const struct scope *scope, size_t t,
             const uint64_t *top, uint64_t *out)
{
	bool any = false;
	int k;

	for (k = 0; k < CLOCK_COUNT; k++) {
		uint64_t all = tree->has_clock[k]
		                       ? scope_thread_total(scope, tree, t, k)
		                       : 0;

		out[k] = all > top[k] ? all - top[k] : 0;
		any |= out[k] != 0;
	}
	return any;
}

/* Add thread t's time outside its top-level calls (which took top) to
 * the node of that time under base, made when there is any. */
static void
add_outside(struct path_builder *b, const struct calltree *tree,
            const struct scope *scope, size_t t, uint32_t base,
            const uint64_t *top)
{
	uint64_t out[CLOCK_COUNT];
	uint32_t node;
	int k;

	if (!outside_time(tree, scope, t, top, out))
		return;
	node = child_of(b, base, CALLPATH_OUTSIDE);
	for (k = 0; k < CLOCK_COUNT; k++)
		b->out->nodes[node].incl[k] += out[k];
}

/* The root spans what is below it. */
static void
sum_root(struct callpath *out)
{
	int k;

	for (k = 0; k < CLOCK_COUNT; k++) {
		uint32_t ch;
		uint64_t sum = 0;

		for (ch = out->nodes[0].first_child; ch != CALL_NONE;
		     ch = out->nodes[ch].next_sibling)
			sum += out->nodes[ch].incl[k];
		out->nodes[0].incl[k] = sum;
	}
}

/* callpath_build over threads [t0, t1) only, with the time outside any
 * method when `outside`; scope->on NULL takes each of them (a thread's
 * own tree without a set of every thread). */
static void
build_threads(struct callpath *out, const struct calltree *tree,
              const struct scope *scope, bool by_thread, size_t t0, size_t t1,
              bool outside)
{
	struct path_builder b = {0};
	struct scope_span span = {0};
	struct path_stack stack = {0};
	size_t t, i;
	int k;

	memset(out, 0, sizeof(*out));
	b.out = out;
	util_map_init(&b.children);
	node_new(&b, CALL_NONE, CALL_NONE, CALL_NONE);
	for (t = t0; t < t1; t++) {
		const struct tt_thread *th = &tree->threads[t];
		uint64_t top[CLOCK_COUNT] = {0};
		uint32_t base = 0;

		if ((scope->on && !scope_has(scope, t)) || !th->ncalls)
			continue;
		if (by_thread) {
			base = node_new(&b, 0, CALL_NONE, (uint32_t)t);
			for (k = 0; k < CLOCK_COUNT; k++)
				if (tree->has_clock[k])
					out->nodes[base].incl[k] =
					        scope_thread_total(scope, tree,
					                           t, k);
		}
		scope_span_of(&span, scope, tree, t);
		/* Another thread's nodes are not this one's callers. */
		stack.len = 0;
		stack.depth = UINT32_MAX;
		for (i = 0; i < span.nopen; i++)
			add_call(&b, tree, scope, &span, span.open[i], base,
			         &stack, top);
		for (i = span.first; i < span.end; i++)
			add_call(&b, tree, scope, &span, i, base, &stack, top);
		if (outside)
			add_outside(&b, tree, scope, t, base, top);
	}
	sum_root(out);
	free(stack.node);
	scope_span_done(&span);
	free(b.last_child);
	free(b.first_seen);
	free(b.next_seen);
	util_map_done(&b.children);
}

void
callpath_build(struct callpath *out, const struct calltree *tree,
               const struct scope *scope, bool by_thread)
{
	build_threads(out, tree, scope, by_thread, 0, tree->nthreads, false);
}

void
callpath_build_whole(struct callpath *out, const struct calltree *tree,
                     const struct scope *scope, bool by_thread)
{
	build_threads(out, tree, scope, by_thread, 0, tree->nthreads, true);
}

/* Thread t's own tree, with or without the time outside any method. */
static void
build_one(struct callpath *out, const struct calltree *tree, size_t t,
          bool outside)
{
	struct scope whole;

	memset(&whole, 0, sizeof(whole));
	whole.nthreads = tree->nthreads;
	build_threads(out, tree, &whole, false, t, t + 1, outside);
}

void
callpath_build_thread(struct callpath *out, const struct calltree *tree,
                      size_t t)
{
	build_one(out, tree, t, false);
}

void
callpath_build_thread_whole(struct callpath *out, const struct calltree *tree,
                            size_t t)
{
	build_one(out, tree, t, true);
}

/*
 * Every thread at once: the threads' calls are cut into pieces (a thread
 * of many calls into several), built by one worker per cpu, and a
 * thread's pieces merged in order.  A piece that starts inside calls
 * begins with the path of its first call's callers (nodes without calls,
 * which the merge adds to those of the pieces before it), so its calls
 * find their nodes where the one-pass walk does.  A node is new to the
 * merge where the walk meets it first, so node ids, sibling order and
 * sums are the walk's.
 */
struct piece {
	uint32_t thread;
	size_t from, to;
	uint64_t top[CLOCK_COUNT]; /* its top-level calls' durations */
	struct callpath tree;
};

struct piece_job {
	const struct calltree *tree;
	struct piece *pieces;
	size_t count;
	atomic_size_t *next;
};

/* Calls [from, to) of one thread into p->tree, under their callers. */
static void
build_piece(struct piece *p, const struct calltree *tree)
{
	struct path_builder b = {0};
	struct path_stack stack = {0};
	struct scope_span span = {0};
	struct scope whole;
	uint32_t d = calltree_depth(tree, p->from), j, c;
	size_t i;

	memset(&whole, 0, sizeof(whole));
	whole.nthreads = tree->nthreads;
	memset(&p->tree, 0, sizeof(p->tree));
	b.out = &p->tree;
	util_map_init(&b.children);
	node_new(&b, CALL_NONE, CALL_NONE, CALL_NONE);
	stack.depth = UINT32_MAX;
	if (d) {
		/* The callers' methods, outermost first, then their nodes. */
		UTIL_GROW(stack.node, stack.cap, d);
		for (c = calltree_parent(tree, p->from), j = d; j--;
		     c = calltree_parent(tree, c))
			stack.node[j] = calltree_method(tree, c);
		for (j = 0; j < d; j++)
			stack.node[j] = child_of(&b, j ? stack.node[j - 1] : 0,
			                         stack.node[j]);
		stack.len = d;
		stack.depth = d - 1;
	}
	for (i = p->from; i < p->to; i++)
		add_call(&b, tree, &whole, &span, i, 0, &stack, p->top);
	sum_root(&p->tree);
	free(stack.node);
	free(b.last_child);
	free(b.first_seen);
	free(b.next_seen);
	util_map_done(&b.children);
}

static void *
piece_job(void *arg)
{
	struct piece_job *job = arg;
	size_t i;

	while ((i = atomic_fetch_add(job->next, 1)) < job->count)
		build_piece(&job->pieces[i], job->tree);
	return NULL;
}

/* Thread t's time outside any method as the last child of the root of
 * out, its tree without it, as add_outside makes it in one pass. */
static void
append_outside(struct callpath *out, const struct calltree *tree, size_t t,
               const uint64_t *top)
{
	struct scope whole;
	uint64_t time[CLOCK_COUNT];
	struct callpath_node *n;
	uint32_t id = (uint32_t)out->count, last;
	int k;

	memset(&whole, 0, sizeof(whole));
	whole.nthreads = tree->nthreads;
	if (!outside_time(tree, &whole, t, top, time))
		return;
	out->nodes =
	        xreallocarray(out->nodes, out->count + 1, sizeof(*out->nodes));
	n = &out->nodes[id];
	memset(n, 0, sizeof(*n));
	n->method = CALLPATH_OUTSIDE;
	n->thread = CALL_NONE;
	n->parent = 0;
	n->first_child = n->next_sibling = CALL_NONE;
	n->depth = 1;
	memcpy(n->incl, time, sizeof(time));
	last = out->nodes[0].first_child;
	if (last == CALL_NONE) {
		out->nodes[0].first_child = id;
	} else {
		while (out->nodes[last].next_sibling != CALL_NONE)
			last = out->nodes[last].next_sibling;
		out->nodes[last].next_sibling = id;
	}
	for (k = 0; k < CLOCK_COUNT; k++)
		out->nodes[0].incl[k] += time[k];
	out->count++;
}

/* Calls below which a worker of its own is not worth starting, and the
 * least piece of a thread by default. */
enum { PATH_CALLS_PER_JOB = 1 << 16, PATH_PIECE_MIN = 1 << 21 };

void
callpath_build_threads(struct callpath *paths, const struct calltree *tree,
                       size_t part)
{
	struct piece_job jobs[UTIL_JOBS_MAX];
	struct piece *pieces;
	atomic_size_t next;
	size_t calls = 0, npieces = 0, t, p, q;
	unsigned i, njobs;

	for (t = 0; t < tree->nthreads; t++)
		calls += tree->threads[t].ncalls;
	njobs = util_jobs_count((unsigned)(calls / PATH_CALLS_PER_JOB + 1));
	if (!part) {
		part = calls / (4 * (size_t)njobs) + 1;
		if (part < PATH_PIECE_MIN)
			part = PATH_PIECE_MIN;
	}
	for (t = 0; t < tree->nthreads; t++)
		npieces += (tree->threads[t].ncalls + part - 1) / part;
	pieces = xcalloc(npieces + 1, sizeof(*pieces));
	npieces = 0;
	for (t = 0; t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];
		size_t from = th->first_call, end = from + th->ncalls;

		if (!th->ncalls) /* no calls: a lone root, no outside time */
			build_one(&paths[t], tree, t, true);
		for (; from < end; from += part) {
			pieces[npieces].thread = (uint32_t)t;
			pieces[npieces].from = from;
			pieces[npieces].to =
			        end - from > part ? from + part : end;
			npieces++;
		}
	}
	atomic_init(&next, 0);
	for (i = 0; i < njobs; i++)
		jobs[i] = (struct piece_job){tree, pieces, npieces, &next};
	util_jobs_run(piece_job, jobs, sizeof(*jobs), njobs);
	for (p = 0; p < npieces; p = q) {
		uint64_t top[CLOCK_COUNT] = {0};
		struct callpath *out = &paths[pieces[p].thread];
		int k;

		for (q = p; q < npieces && pieces[q].thread == pieces[p].thread;
		     q++)
			for (k = 0; k < CLOCK_COUNT; k++)
				top[k] += pieces[q].top[k];
		if (q - p == 1) {
			*out = pieces[p].tree;
		} else {
			struct callpath *trees = xcalloc(q - p, sizeof(*trees));
			size_t r;

			for (r = p; r < q; r++)
				trees[r - p] = pieces[r].tree;
			callpath_merge(out, trees, q - p);
			for (r = p; r < q; r++)
				callpath_done(&pieces[r].tree);
			free(trees);
		}
		append_outside(out, tree, pieces[p].thread, top);
	}
	free(pieces);
}

/* The merge of one part: its nodes in the same order, so a copy, with
 * the children relinked in that order and no thread names. */
static void
copy_part(struct callpath *out, const struct callpath *part)
{
	size_t i;

	out->count = part->count;
	out->nodes = xreallocarray(NULL, part->count, sizeof(*out->nodes));
	memcpy(out->nodes, part->nodes, part->count * sizeof(*out->nodes));
	for (i = 0; i < part->count; i++) {
		out->nodes[i].thread = CALL_NONE;
		out->nodes[i].first_child = CALL_NONE;
		out->nodes[i].next_sibling = CALL_NONE;
	}
	for (i = part->count; i-- > 1;) {
		struct callpath_node *up = &out->nodes[out->nodes[i].parent];

		out->nodes[i].next_sibling = up->first_child;
		up->first_child = (uint32_t)i;
	}
	out->nodes[0].calls = 0;
}

void
callpath_merge(struct callpath *out, const struct callpath *parts, size_t n)
{
	struct path_builder b = {0};
	uint32_t *ids = NULL;
	size_t cap = 0, p, i;
	int k;

	memset(out, 0, sizeof(*out));
	for (p = i = 0; p < n; p++)
		if (parts[p].count)
			i++;
	if (i == 1) {
		for (p = 0; !parts[p].count; p++)
			;
		copy_part(out, &parts[p]);
		return;
	}
	b.out = out;
	util_map_init(&b.children);
	node_new(&b, CALL_NONE, CALL_NONE, CALL_NONE);
	for (p = 0; p < n; p++) {
		const struct callpath *part = &parts[p];

		if (!part->count)
			continue;
		/* A parent's id is below its children's. */
		UTIL_GROW(ids, cap, part->count);
		ids[0] = 0;
		for (i = 1; i < part->count; i++) {
			const struct callpath_node *x = &part->nodes[i];
			struct callpath_node *to;

			ids[i] = child_of(&b, ids[x->parent], x->method);
			to = &out->nodes[ids[i]];
			to->calls += x->calls;
			for (k = 0; k < CLOCK_COUNT; k++)
				to->incl[k] += x->incl[k];
		}
		for (k = 0; k < CLOCK_COUNT; k++)
			out->nodes[0].incl[k] += part->nodes[0].incl[k];
	}
	free(ids);
	free(b.last_child);
	free(b.first_seen);
	free(b.next_seen);
	util_map_done(&b.children);
}

/*
 * Inverting, lazily: a node of the inverted tree stands for every forward
 * node whose path, reversed, starts with the node's path.  Until it is
 * expanded it keeps one item per such forward node that goes on further:
 * the node (from) and the ancestor of it that the next step down must
 * match (at).  Expanding groups its items by the method of at (a counting
 * sort over method and thread keys): one child per key, which takes the
 * exclusive times and calls of its items' forward nodes, and keeps the
 * items whose at has a parent, moved on to it.  So expanding a node costs
 * a step per forward node contributing to its children; the node's items
 * are then released (its children hold them), so at most one unexpanded
 * node holds a given forward node and memory stays linear in the forward
 * tree plus the nodes made.  The tree keeps a copy of what it reads of the
 * forward tree, which may then go.
 */
struct inv_src {
	uint32_t parent, key, method, thread;
	uint64_t calls;
	uint64_t excl[CLOCK_COUNT];
};

struct inv_item {
	uint32_t at, from;
};

/* What a node of the inverted tree has left to expand. */
struct inv_pending {
	struct inv_item *items; /* NULL when expanded or without callers */
	uint32_t n;
};

struct callpath_lazy {
	struct inv_src *src;         /* per forward node */
	uint32_t nkeys;              /* methods, threads, the time outside */
	struct inv_pending *pending; /* per node made */
	size_t pending_cap, node_cap, fork_cap;
	int sorted; /* the clock of the last callpath_sort, or -1 */
	/* Scratch per key while expanding. */
	uint32_t *count, *child, *fill, *touched;
};

static void sort_children(struct callpath *path, uint32_t i, uint32_t *kids,
                          size_t n, enum clock_index k);

/* A new node under parent named like forward node at, after prev (the
 * parent's last child made, or CALL_NONE for the first). */
static uint32_t
lazy_node(struct callpath *out, uint32_t parent, const struct inv_src *like,
          uint32_t prev)
{
	struct callpath_lazy *z = out->lazy;
	struct callpath_node *n;
	uint32_t id = (uint32_t)out->count;

	UTIL_GROW(out->nodes, z->node_cap, out->count + 1);
	UTIL_GROW(z->pending, z->pending_cap, out->count + 1);
	z->pending[id].items = NULL;
	z->pending[id].n = 0;
	n = &out->nodes[id];
	memset(n, 0, sizeof(*n));
	n->method = like->method;
	n->thread = like->thread;
	n->parent = parent;
	n->first_child = n->next_sibling = CALL_NONE;
	n->depth = out->nodes[parent].depth + 1;
	if (prev == CALL_NONE)
		out->nodes[parent].first_child = id;
	else
		out->nodes[prev].next_sibling = id;
	out->count++;
	return id;
}

/* Make the children of node from its n items (which it then owns no
 * more: they are reused or freed). */
static void
lazy_expand(struct callpath *out, uint32_t node, struct inv_item *items,
            uint32_t n)
{
	struct callpath_lazy *z = out->lazy;
	const struct inv_src *src = z->src;
	uint32_t i, ntouched = 0, prev = CALL_NONE, first;
	int k;

	/* The common case of one caller (a recursion): one pass, in place. */
	for (i = 1; i < n && src[items[i].at].key == src[items[0].at].key; i++)
		;
	if (n && i == n) {
		uint64_t calls = 0, sum[CLOCK_COUNT] = {0};
		uint32_t c, kept = 0;

		c = lazy_node(out, node, &src[items[0].at], CALL_NONE);
		for (i = 0; i < n; i++) {
			struct inv_item it = items[i];
			const struct inv_src *from = &src[it.from];

			calls += from->calls;
			for (k = 0; k < CLOCK_COUNT; k++)
				sum[k] += from->excl[k];
			it.at = src[it.at].parent;
			if (it.at != 0)
				items[kept++] = it;
		}
		out->nodes[c].calls = calls;
		memcpy(out->nodes[c].incl, sum, sizeof(sum));
		if (kept) {
			z->pending[c].items = items;
			z->pending[c].n = kept;
		} else {
			free(items);
		}
		return;
	}
	for (i = 0; i < n; i++) {
		uint32_t key = src[items[i].at].key;

		if (z->count[key]++ == 0) {
			z->touched[ntouched++] = key;
			z->child[key] = items[i].at; /* names the key */
		}
	}
	first = (uint32_t)out->count;
	for (i = 0; i < ntouched; i++) {
		uint32_t key = z->touched[i];
		uint32_t c = z->count[key];

		prev = lazy_node(out, node, &src[z->child[key]], prev);
		z->child[key] = prev;
		z->fill[key] = 0;
		/* One key: the items move on in place. */
		z->pending[prev].items =
		        ntouched == 1 ? items
		                      : xreallocarray(NULL, c, sizeof(*items));
	}
	for (i = 0; i < n; i++) {
		struct inv_item it = items[i];
		const struct inv_src *at = &src[it.at], *from = &src[it.from];
		uint32_t key = at->key, c = z->child[key];
		struct callpath_node *x = &out->nodes[c];

		x->calls += from->calls;
		for (k = 0; k < CLOCK_COUNT; k++)
			x->incl[k] += from->excl[k];
		if (at->parent != 0) {
			it.at = at->parent;
			z->pending[c].items[z->fill[key]++] = it;
		}
	}
	if (ntouched > 1)
		free(items);
	for (i = 0; i < ntouched; i++) {
		uint32_t key = z->touched[i], c = z->child[key];

		z->count[key] = 0;
		z->pending[c].n = z->fill[key];
		if (!z->fill[key]) {
			free(z->pending[c].items);
			z->pending[c].items = NULL;
		}
	}
	if (ntouched > 1) {
		uint32_t *kids = xreallocarray(NULL, ntouched, sizeof(*kids));

		for (i = 0; i < ntouched; i++)
			kids[i] = first + i;
		if (z->sorted >= 0)
			sort_children(out, node, kids, ntouched,
			              (enum clock_index)z->sorted);
		free(kids);
		UTIL_GROW(out->forks, z->fork_cap, out->nforks + 1);
		out->forks[out->nforks++] = node;
	}
}

void
callpath_expand(struct callpath *path, uint32_t n)
{
	struct callpath_lazy *z = path->lazy;
	struct inv_item *items;

	if (!z || n >= path->count || !z->pending[n].items)
		return;
	items = z->pending[n].items;
	z->pending[n].items = NULL;
	lazy_expand(path, n, items, z->pending[n].n);
	z->pending[n].n = 0;
}

void
callpath_expand_all(struct callpath *path)
{
	size_t i;

	/* Children are made after their parents. */
	for (i = 0; path->lazy && i < path->count; i++)
		callpath_expand(path, (uint32_t)i);
}

bool
callpath_has_children(const struct callpath *path, uint32_t n)
{
	return path->nodes[n].first_child != CALL_NONE ||
	       (path->lazy && path->lazy->pending[n].items);
}

bool
callpath_expanded(const struct callpath *path, uint32_t n)
{
	return !path->lazy || !path->lazy->pending[n].items;
}

void
callpath_invert(struct callpath *out, const struct callpath *path)
{
	struct callpath_lazy *z;
	struct inv_item *items;
	uint32_t i, nthreads = 0, thread_base = 0;
	int k;

	memset(out, 0, sizeof(*out));
	z = out->lazy = xcalloc(1, sizeof(*z));
	z->sorted = -1;
	for (i = 1; i < path->count; i++) {
		const struct callpath_node *x = &path->nodes[i];

		if (callpath_is_method(x) && x->method >= thread_base)
			thread_base = x->method + 1;
		if (x->method == CALL_NONE && x->thread >= nthreads)
			nthreads = x->thread + 1;
	}
	z->nkeys = thread_base + nthreads + 1;
	z->src = xreallocarray(NULL, path->count + 1, sizeof(*z->src));
	for (i = 0; i < path->count; i++) {
		const struct callpath_node *x = &path->nodes[i];
		struct inv_src *s = &z->src[i];

		s->parent = x->parent;
		s->method = x->method;
		s->thread = x->thread;
		s->calls = x->calls;
		if (x->method == CALLPATH_OUTSIDE)
			s->key = z->nkeys - 1;
		else if (x->method != CALL_NONE)
			s->key = x->method;
		else
			s->key = thread_base + x->thread;
		for (k = 0; k < CLOCK_COUNT; k++)
			s->excl[k] = x->incl[k];
	}
	/* Each forward node's exclusive time, once. */
	for (i = 1; i < path->count; i++)
		for (k = 0; k < CLOCK_COUNT; k++)
			z->src[path->nodes[i].parent].excl[k] -=
			        path->nodes[i].incl[k];
	z->count = xcalloc((size_t)z->nkeys + 1, sizeof(*z->count));
	z->child = xcalloc((size_t)z->nkeys + 1, sizeof(*z->child));
	z->fill = xcalloc((size_t)z->nkeys + 1, sizeof(*z->fill));
	z->touched = xcalloc((size_t)z->nkeys + 1, sizeof(*z->touched));
	out->forks = xcalloc(1, sizeof(*out->forks));
	/* The root, whose items are every forward node, matched itself. */
	UTIL_GROW(out->nodes, z->node_cap, 1);
	UTIL_GROW(z->pending, z->pending_cap, 1);
	memset(out->nodes, 0, sizeof(*out->nodes));
	out->nodes[0].method = out->nodes[0].thread = CALL_NONE;
	out->nodes[0].parent = CALL_NONE;
	out->nodes[0].first_child = out->nodes[0].next_sibling = CALL_NONE;
	out->count = 1;
	z->pending[0].items = NULL;
	z->pending[0].n = 0;
	if (path->count > 1) {
		items = xreallocarray(NULL, path->count - 1, sizeof(*items));
		for (i = 1; i < path->count; i++) {
			items[i - 1].at = i;
			items[i - 1].from = i;
		}
		lazy_expand(out, 0, items, (uint32_t)path->count - 1);
	}
	for (k = 0; k < CLOCK_COUNT; k++) {
		uint32_t ch;

		for (ch = out->nodes[0].first_child; ch != CALL_NONE;
		     ch = out->nodes[ch].next_sibling)
			out->nodes[0].incl[k] += out->nodes[ch].incl[k];
	}
}
/* True when node x goes before node y: more time on clock k, then the
 * lower method, then the lower thread. */
static bool
node_before(const struct callpath_node *x, const struct callpath_node *y,
            enum clock_index k)
{
	if (x->incl[k] != y->incl[k])
		return x->incl[k] > y->incl[k];
	if (x->method != y->method)
		return x->method < y->method;
	return x->thread < y->thread;
}

static int
node_cmp(const void *a, const void *b, void *arg)
{
	const struct callpath *path = ((void **)arg)[0];
	enum clock_index k = *(const enum clock_index *)((void **)arg)[1];
	const struct callpath_node *x = &path->nodes[*(const uint32_t *)a];
	const struct callpath_node *y = &path->nodes[*(const uint32_t *)b];

	return node_before(x, y, k) ? -1 : node_before(y, x, k);
}

/* Order the n children kids of node i and relink them. */
static void
sort_children(struct callpath *path, uint32_t i, uint32_t *kids, size_t n,
              enum clock_index k)
{
	struct callpath_node *nodes = path->nodes;
	void *arg[2] = {path, &k};
	size_t j;

	for (j = 1; j < n; j++)
		if (!node_before(&nodes[kids[j - 1]], &nodes[kids[j]], k))
			break;
	if (j == n)
		return;
	if (n <= 16) {
		for (j = 1; j < n; j++) {
			uint32_t x = kids[j];
			size_t at = j;

			for (; at > 0 &&
			       node_before(&nodes[x], &nodes[kids[at - 1]], k);
			     at--)
				kids[at] = kids[at - 1];
			kids[at] = x;
		}
	} else {
		qsort_r(kids, n, sizeof(*kids), node_cmp, arg);
	}
	nodes[i].first_child = kids[0];
	for (j = 0; j + 1 < n; j++)
		nodes[kids[j]].next_sibling = kids[j + 1];
	nodes[kids[n - 1]].next_sibling = CALL_NONE;
}

void
callpath_sort(struct callpath *path, enum clock_index k)
{
	struct callpath_node *nodes = path->nodes;
	uint32_t *kids = NULL;
	size_t cap = 0, fork_cap = 0, n, i;
	bool listing = !path->forks;

	if (path->lazy)
		path->lazy->sorted = (int)k;

	for (i = 0; listing && i < path->count; i++) {
		uint32_t ch = nodes[i].first_child;

		if (ch != CALL_NONE && nodes[ch].next_sibling != CALL_NONE) {
			UTIL_GROW(path->forks, fork_cap, path->nforks + 1);
			path->forks[path->nforks++] = (uint32_t)i;
		}
	}
	if (listing && !path->forks)
		path->forks = xcalloc(1, sizeof(*path->forks));
	for (i = 0; i < path->nforks; i++) {
		uint32_t at = path->forks[i], ch;

		n = 0;
		for (ch = nodes[at].first_child; ch != CALL_NONE;
		     ch = nodes[ch].next_sibling) {
			UTIL_GROW(kids, cap, n + 1);
			kids[n++] = ch;
		}
		sort_children(path, at, kids, n, k);
	}
	free(kids);
}

uint64_t
callpath_excl(const struct callpath *path, uint32_t n, enum clock_index k)
{
	uint64_t excl = path->nodes[n].incl[k];
	uint32_t ch, i;

	if (path->lazy && path->lazy->pending[n].items) {
		/* Its children are to be made from its items. */
		const struct inv_pending *w = &path->lazy->pending[n];

		for (i = 0; i < w->n; i++)
			excl -= path->lazy->src[w->items[i].from].excl[k];
		return excl;
	}
	for (ch = path->nodes[n].first_child; ch != CALL_NONE;
	     ch = path->nodes[ch].next_sibling)
		excl -= path->nodes[ch].incl[k];
	return excl;
}

void
callpath_done(struct callpath *path)
{
	struct callpath_lazy *z = path->lazy;
	size_t i;

	if (z) {
		for (i = 0; i < path->count; i++)
			free(z->pending[i].items);
		free(z->pending);
		free(z->src);
		free(z->count);
		free(z->child);
		free(z->fill);
		free(z->touched);
		free(z);
	}
	free(path->nodes);
	free(path->forks);
	memset(path, 0, sizeof(*path));
}
