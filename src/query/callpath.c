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
	uint32_t method = calltree_method(tree, i), node;
	bool first;
	struct callpath_node *n;
	uint64_t dur[CLOCK_COUNT];
	int k;

	if (d >= st->len) {
		UTIL_GROW(st->node, st->cap, (size_t)d + 1);
		while (st->len <= d)
			st->node[st->len++] = CALL_NONE;
	}
	/* Its caller's first callee, or after a sibling. */
	first = d == st->depth + 1 || st->node[d] == CALL_NONE;
	node = first ? b->first_seen[parent] : b->next_seen[st->node[d]];
	if (node == CALL_NONE || b->out->nodes[node].parent != parent ||
	    b->out->nodes[node].method != method) {
		node = child_of(b, parent, method);
		/* child_of may have moved the arrays: index them again. */
		if (first)
			b->first_seen[parent] = node;
		else
			b->next_seen[st->node[d]] = node;
	}
	n = &b->out->nodes[node];
	st->node[d] = node;
	st->depth = d;
	n->calls++;
	if (scope->range.on)
		scope_clip(scope, tree, span, i, dur);
	else /* scope_clip's answer, inlined on this hot path */
		calltree_durations(tree, i, dur);
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

bool
callpath_from_sums(struct callpath *out, const struct calltree *tree, size_t t)
{
	const struct thread_sums *sums = tree->sums ? &tree->sums[t] : NULL;
	struct path_builder b = {0};
	struct scope whole;
	uint64_t top[CLOCK_COUNT] = {0};
	size_t i;
	int k;

	if (!sums || (!sums->paths && sums->count))
		return false;
	memset(out, 0, sizeof(*out));
	memset(&whole, 0, sizeof(whole));
	whole.nthreads = tree->nthreads;
	b.out = out;
	util_map_init(&b.children);
	if (!sums->paths) /* no call: the root alone */
		node_new(&b, CALL_NONE, CALL_NONE, CALL_NONE);
	/* Parents come before their children, in the order made; no
	 * child is looked up but the time outside any method's, which is
	 * no method's. */
	for (i = 0; i < sums->npaths; i++) {
		const struct path_node *p = &sums->paths[i];
		uint32_t n = node_new(&b, p->parent, p->method, CALL_NONE);

		out->nodes[n].calls = p->calls;
		for (k = 0; k < CLOCK_COUNT; k++) {
			out->nodes[n].incl[k] = p->incl[k];
			if (p->parent == 0)
				top[k] += p->incl[k];
		}
	}
	if (out->count > 1) /* else the thread made no call */
		add_outside(&b, tree, &whole, t, 0, top);
	sum_root(out);
	free(b.last_child);
	free(b.first_seen);
	free(b.next_seen);
	util_map_done(&b.children);
	return true;
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

/* callpath_build_threads of threads [first, end_thread) only, thread
 * t's tree into paths[t - first]. */
static void
build_range(struct callpath *paths, const struct calltree *tree, size_t first,
            size_t end_thread, size_t part)
{
	struct piece_job jobs[UTIL_JOBS_MAX];
	struct piece *pieces;
	atomic_size_t next;
	size_t calls = 0, npieces = 0, t, p, q;
	unsigned i, njobs;

	for (t = first; t < end_thread; t++)
		calls += tree->threads[t].ncalls;
	njobs = util_jobs_count((unsigned)(calls / PATH_CALLS_PER_JOB + 1));
	if (!part) {
		part = calls / (4 * (size_t)njobs) + 1;
		if (part < PATH_PIECE_MIN)
			part = PATH_PIECE_MIN;
	}
	for (t = first; t < end_thread; t++)
		npieces += (tree->threads[t].ncalls + part - 1) / part;
	pieces = xcalloc(npieces + 1, sizeof(*pieces));
	npieces = 0;
	for (t = first; t < end_thread; t++) {
		const struct tt_thread *th = &tree->threads[t];
		size_t from = th->first_call, end = from + th->ncalls;

		if (!th->ncalls) /* no calls: a lone root, no outside time */
			build_one(&paths[t - first], tree, t, true);
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
		struct callpath *out = &paths[pieces[p].thread - first];
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

void
callpath_build_threads(struct callpath *paths, const struct calltree *tree,
                       size_t part)
{
	build_range(paths, tree, 0, tree->nthreads, part);
}

size_t callpath_merge_batch_threads = 1 << 16;

struct callpath *
callpath_build_merged(struct callpath *merged, const struct calltree *tree,
                      size_t keep_calls)
{
	size_t size = callpath_merge_batch_threads, n = tree->nthreads,
	       nbatches = n / size + 1, b, t;
	struct callpath *batches =
	        nbatches > 1 ? xcalloc(nbatches, sizeof(*batches)) : NULL;
	struct callpath *kept = NULL, *batch = xcalloc(n < size ? n + 1 : size,
	                                               sizeof(*batch));

	/* A node is new to a merge of merges where it is new to the merge
	 * of all the trees, in the same order: the batches' merges merged
	 * are that merge, node for node. */
	for (b = 0; b < nbatches; b++) {
		size_t from = b * size, to = n - from > size ? from + size : n;

		build_range(batch, tree, from, to, 0);
		callpath_merge(batches ? &batches[b] : merged, batch,
		               to - from);
		for (t = from; t < to; t++) {
			if (tree->threads[t].ncalls < keep_calls) {
				callpath_done(&batch[t - from]);
				continue;
			}
			if (!kept)
				kept = xcalloc(n + 1, sizeof(*kept));
			kept[t] = batch[t - from];
		}
	}
	free(batch);
	if (batches) {
		callpath_merge(merged, batches, nbatches);
		for (b = 0; b < nbatches; b++)
			callpath_done(&batches[b]);
		free(batches);
	}
	return kept;
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
 * match (at), d steps up from it at depth d.  Expanding groups its items
 * by the method of at: one child per key, which takes the exclusive
 * times and calls of its items' forward nodes, and keeps the items whose
 * at has a parent, moved on to it.
 *
 * Items come in runs: n items whose from are a node and the n - 1
 * ancestors of it found every stride steps up one path, their at as many
 * steps up from each.  A recursion n deep makes one run of n items, where
 * a node per item would cost n^2/2 steps to walk down: a->a->a at a
 * stride of 1, a->b->a->b at 2 (the a's, and the b's), a->b->c at 3.
 * Once the node is at least a stride deep, the at of every item but the
 * topmost lies inside the match of the item above it, at the same place
 * in the node's path: they all share a key, and expanding cuts a run in
 * two at most, the topmost item off (found by jump pointers, Myers'
 * skew-binary ones: an ancestor at any depth in O(log depth) steps, one
 * pointer a node).  Above that depth the at's keys are read one by one
 * (a run is cut where they change at a stride of 1, at the root, and
 * taken apart into single items at wider ones); a child's single items
 * on one path are then joined into runs wherever they step evenly, which
 * is how a chain's period is found: the a's of a->b->a->b join at a
 * stride of 2, those of a->b->a->c under b at 4.  A run's sums come from
 * cumulative sums down each path (stride 1), or from its own (n > 1 at a
 * wider stride), made as it is joined.  So walking a recursion of any
 * period p down to its deepest caller reads each item about p times
 * before its run settles and then costs O(log depth) a level: n log n.
 * The node's runs are released as it expands (its children hold them),
 * so at most one unexpanded node holds a given item and memory stays
 * linear in the forward tree plus the nodes made.  The first runs are
 * the forward tree cut into paths, each node on the path of its tallest
 * child.  The tree keeps a copy of what it reads of the forward tree,
 * which may then go.
 */
struct inv_src {
	uint32_t parent, key, method, thread;
	uint32_t depth;  /* 0 for the root */
	uint32_t jump;   /* an ancestor (itself for the root) */
	uint32_t segtop; /* the highest ancestor up to which key is x's */
	uint32_t path;   /* the top of the first run that holds it */
	/* Sums over the path from the root down to the node included. */
	uint64_t calls;
	uint64_t excl[CLOCK_COUNT];
};

/* The sums of a run's items from the first up to one. */
struct inv_sum {
	uint64_t calls;
	uint64_t excl[CLOCK_COUNT];
};

/* n items: from and its ancestors stride steps apart, at and its
 * likewise; sums (sums[i] of items 0 to i) when n > 1 and stride > 1,
 * else NULL.  A run owns its sums. */
struct inv_run {
	uint32_t at, from, n, stride;
	struct inv_sum *sums;
};

/* A run's part whose at share a key, while expanding. */
struct inv_piece {
	struct inv_run run;
	uint32_t key;
};

/* What a node of the inverted tree has left to expand. */
struct inv_pending {
	struct inv_run *runs; /* NULL when expanded or without callers */
	uint32_t n;
};

struct callpath_lazy {
	struct inv_src *src;         /* per forward node */
	uint32_t nkeys;              /* methods, threads, the time outside */
	struct inv_pending *pending; /* per node made */
	size_t pending_cap, node_cap, fork_cap;
	int sorted; /* the clock of the last callpath_sort, or -1 */
	/* Scratch while expanding: per key, the pieces, the single items
	 * to join. */
	uint32_t *count, *child, *fill, *touched, *first, *single;
	struct inv_piece *pieces;
	struct inv_run *singles;
	size_t piece_cap, singles_cap;
};

static void sort_children(struct callpath *path, uint32_t i, uint32_t *kids,
                          size_t n, enum clock_index k);

/* The ancestor of x at depth d (at most x's). */
static uint32_t
ancestor_at(const struct inv_src *src, uint32_t x, uint32_t d)
{
	while (src[x].depth > d)
		x = src[src[x].jump].depth >= d ? src[x].jump : src[x].parent;
	return x;
}

/* The node n steps above from: the sums of a run of n items from it at a
 * stride of 1 are from's less that node's. */
static uint32_t
run_end(const struct inv_src *src, uint32_t from, uint32_t n)
{
	return n == 1 ? src[from].parent
	              : ancestor_at(src, from, src[from].depth - n);
}

/* The node i strides above x. */
static uint32_t
run_up(const struct inv_src *src, uint32_t x, uint32_t i, uint32_t stride)
{
	return i == 0 ? x
	       : i == 1 && stride == 1
	               ? src[x].parent
	               : ancestor_at(src, x, src[x].depth - i * stride);
}

/* Add the calls and exclusive times of run r's items to calls and excl. */
static void
run_sum(const struct inv_src *src, const struct inv_run *r, uint64_t *calls,
        uint64_t *excl)
{
	const struct inv_src *from, *end;
	int k;

	if (r->sums) {
		const struct inv_sum *s = &r->sums[r->n - 1];

		*calls += s->calls;
		for (k = 0; k < CLOCK_COUNT; k++)
			excl[k] += s->excl[k];
		return;
	}
	from = &src[r->from];
	end = &src[run_end(src, r->from, r->n)];
	*calls += from->calls - end->calls;
	for (k = 0; k < CLOCK_COUNT; k++)
		excl[k] += from->excl[k] - end->excl[k];
}

/* Run r as n items from its first at stride: sums dropped or made. */
static void
run_reshape(const struct inv_src *src, struct inv_run *r, uint32_t n,
            uint32_t stride)
{
	uint32_t i, f = r->from;
	int k;

	if (r->sums && n > 1 && stride == r->stride) {
		r->n = n;
		return;
	}
	free(r->sums);
	r->sums = NULL;
	r->n = n;
	r->stride = n > 1 ? stride : 1;
	if (n < 2 || stride < 2)
		return;
	r->sums = xreallocarray(NULL, n, sizeof(*r->sums));
	for (i = 0; i < n; i++, f = run_up(src, f, 1, stride)) {
		struct inv_sum *s = &r->sums[i];
		const struct inv_src *x = &src[f], *up = &src[x->parent];

		s->calls = x->calls - up->calls;
		for (k = 0; k < CLOCK_COUNT; k++)
			s->excl[k] = x->excl[k] - up->excl[k];
		if (i) {
			s->calls += s[-1].calls;
			for (k = 0; k < CLOCK_COUNT; k++)
				s->excl[k] += s[-1].excl[k];
		}
	}
}

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
	z->pending[id].runs = NULL;
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

/* Append run r to the pieces. */
static void
lazy_piece(struct callpath_lazy *z, size_t *np, const struct inv_run *r)
{
	UTIL_GROW(z->pieces, z->piece_cap, *np + 1);
	z->pieces[*np].run = *r;
	z->pieces[*np].key = z->src[r->at].key;
	(*np)++;
}

/* Cut run r, of a node d deep, into pieces whose at share a key (it is
 * then theirs). */
static void
lazy_cut(struct callpath_lazy *z, struct inv_run r, uint32_t d, size_t *np)
{
	const struct inv_src *src = z->src;
	uint32_t key = src[r.at].key, i, at, from;
	struct inv_run p;

	if (r.n == 1 ||
	    (r.stride == 1 &&
	     src[r.at].depth - src[src[r.at].segtop].depth >= r.n - 1)) {
		lazy_piece(z, np, &r);
		return;
	}
	if (r.stride <= d) {
		/* All but the topmost item have the key of at. */
		at = run_up(src, r.at, r.n - 1, r.stride);
		if (src[at].key == key) {
			lazy_piece(z, np, &r);
			return;
		}
		p.at = at;
		p.from = run_up(src, r.from, r.n - 1, r.stride);
		p.n = p.stride = 1;
		p.sums = NULL;
		run_reshape(src, &r, r.n - 1, r.stride);
		lazy_piece(z, np, &r);
		lazy_piece(z, np, &p);
		return;
	}
	if (r.stride == 1) {
		/* At the root: where the method changes up the path. */
		at = r.at;
		from = r.from;
		while (r.n) {
			uint32_t top = src[at].segtop;

			p.n = src[at].depth - src[top].depth + 1;
			if (p.n > r.n)
				p.n = r.n;
			p.at = at;
			p.from = from;
			p.stride = 1;
			p.sums = NULL;
			lazy_piece(z, np, &p);
			r.n -= p.n;
			at = src[top].parent;
			from = run_end(src, from, p.n);
		}
		return;
	}
	for (i = 1, at = r.at; i < r.n; i++) {
		at = run_up(src, at, 1, r.stride);
		if (src[at].key != key)
			break;
	}
	if (i == r.n) {
		lazy_piece(z, np, &r);
		return;
	}
	/* Single items, joined again under each child. */
	p.n = p.stride = 1;
	p.sums = NULL;
	p.at = r.at;
	p.from = r.from;
	for (i = 0; i < r.n; i++) {
		if (i) {
			p.at = run_up(src, p.at, 1, r.stride);
			p.from = run_up(src, p.from, 1, r.stride);
		}
		lazy_piece(z, np, &p);
	}
	free(r.sums);
}

/* Add run r, of the items of a child, to its runs to, moved on to their
 * at's parents. */
static void
lazy_move(struct callpath_lazy *z, struct inv_run r, struct inv_run *to,
          uint32_t *fill)
{
	const struct inv_src *src = z->src;

	/* The topmost item ends when its at is outermost. */
	if (src[r.at].depth - (r.n - 1) * r.stride == 1) {
		if (r.n == 1)
			return;
		run_reshape(src, &r, r.n - 1, r.stride);
	}
	r.at = src[r.at].parent;
	to[(*fill)++] = r;
}

static int
first_cmp(const void *a, const void *b, void *arg)
{
	const uint32_t *first = arg;
	uint32_t x = first[*(const uint32_t *)a],
	         y = first[*(const uint32_t *)b];

	return x < y ? -1 : x > y;
}

/* Single items by key, then path, deepest first. */
static int
single_cmp(const void *a, const void *b, void *arg)
{
	const struct inv_src *src = arg;
	const struct inv_run *x = a, *y = b;
	const struct inv_src *fx = &src[x->from], *fy = &src[y->from];

	if (src[x->at].key != src[y->at].key)
		return src[x->at].key < src[y->at].key ? -1 : 1;
	if (fx->path != fy->path)
		return fx->path < fy->path ? -1 : 1;
	return fx->depth > fy->depth ? -1 : fx->depth < fy->depth;
}

/* Join the n single items (sorted by single_cmp) into runs wherever
 * items on one path step evenly, and move them on to their children. */
static void
lazy_join(struct callpath *out, struct inv_run *singles, size_t n)
{
	struct callpath_lazy *z = out->lazy;
	const struct inv_src *src = z->src;
	size_t i = 0, u;

	while (i < n) {
		uint32_t key = src[singles[i].at].key, c = z->child[key];
		uint32_t stride = 1;
		struct inv_run r = singles[i];

		for (u = i + 1; u < n; u++) {
			const struct inv_src *a = &src[singles[u - 1].from];
			const struct inv_src *b = &src[singles[u].from];

			if (src[singles[u].at].key != key ||
			    a->path != b->path ||
			    (u > i + 1 && a->depth - b->depth != stride))
				break;
			stride = a->depth - b->depth;
		}
		run_reshape(src, &r, (uint32_t)(u - i), stride);
		lazy_move(z, r, z->pending[c].runs, &z->fill[key]);
		i = u;
	}
}

/* Make the children of node from its n runs (which it then owns no
 * more: they are reused or freed). */
static void
lazy_expand(struct callpath *out, uint32_t node, struct inv_run *runs,
            uint32_t n)
{
	struct callpath_lazy *z = out->lazy;
	const struct inv_src *src = z->src;
	uint32_t d = out->nodes[node].depth;
	size_t np = 0, nsingle = 0, i;
	uint32_t ntouched = 0, prev = CALL_NONE, first;

	for (i = 0; i < n; i++)
		lazy_cut(z, runs[i], d, &np);
	for (i = 0; i < np; i++) {
		uint32_t key = z->pieces[i].key;

		if (z->count[key]++ == 0) {
			z->touched[ntouched++] = key;
			z->child[key] = z->pieces[i].run.at; /* names the key */
			z->first[key] = CALL_NONE;
			z->single[key] = 0;
		}
		z->single[key] += z->pieces[i].run.n == 1;
	}
	/* Children in the order of their first forward nodes, as if items
	 * were listed one by one in the order of the forward tree (ties
	 * of a sort keep it): a run's top one, the lowest id. */
	if (ntouched > 1) {
		for (i = 0; i < np; i++) {
			const struct inv_run *r = &z->pieces[i].run;
			uint32_t key = z->pieces[i].key;
			uint32_t top =
			        run_up(src, r->from, r->n - 1, r->stride);

			if (top < z->first[key])
				z->first[key] = top;
		}
		qsort_r(z->touched, ntouched, sizeof(*z->touched), first_cmp,
		        z->first);
	}
	first = (uint32_t)out->count;
	for (i = 0; i < ntouched; i++) {
		uint32_t key = z->touched[i];
		uint32_t c = z->count[key];

		prev = lazy_node(out, node, &src[z->child[key]], prev);
		z->child[key] = prev;
		z->fill[key] = 0;
		/* One key: no run was cut, and as many pieces as runs. */
		z->pending[prev].runs =
		        ntouched == 1 && c <= n
		                ? runs
		                : xreallocarray(NULL, c, sizeof(*runs));
	}
	if (!(ntouched == 1 && z->count[z->touched[0]] <= n))
		free(runs);
	for (i = 0; i < np; i++) {
		const struct inv_piece *p = &z->pieces[i];
		uint32_t c = z->child[p->key];
		struct callpath_node *x = &out->nodes[c];

		run_sum(src, &p->run, &x->calls, x->incl);
		if (p->run.n == 1 && z->single[p->key] > 1) {
			UTIL_GROW(z->singles, z->singles_cap, nsingle + 1);
			z->singles[nsingle++] = p->run;
		} else {
			lazy_move(z, p->run, z->pending[c].runs,
			          &z->fill[p->key]);
		}
	}
	if (nsingle) {
		qsort_r(z->singles, nsingle, sizeof(*z->singles), single_cmp,
		        z->src);
		lazy_join(out, z->singles, nsingle);
	}
	for (i = 0; i < ntouched; i++) {
		uint32_t key = z->touched[i], c = z->child[key];

		z->count[key] = 0;
		z->pending[c].n = z->fill[key];
		if (!z->fill[key]) {
			free(z->pending[c].runs);
			z->pending[c].runs = NULL;
		}
	}
	if (ntouched > 1) {
		uint32_t *kids = xreallocarray(NULL, ntouched, sizeof(*kids));

		for (i = 0; i < ntouched; i++)
			kids[i] = first + (uint32_t)i;
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
	struct inv_run *runs;

	if (!z || n >= path->count || !z->pending[n].runs)
		return;
	runs = z->pending[n].runs;
	z->pending[n].runs = NULL;
	lazy_expand(path, n, runs, z->pending[n].n);
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
	       (path->lazy && path->lazy->pending[n].runs);
}

bool
callpath_expanded(const struct callpath *path, uint32_t n)
{
	return !path->lazy || !path->lazy->pending[n].runs;
}

uint32_t
callpath_pending_runs(const struct callpath *path, uint32_t n)
{
	return path->lazy && path->lazy->pending[n].runs
	               ? path->lazy->pending[n].n
	               : 0;
}

/* Copy what the inversion reads of forward node i of path, its parent's
 * copy made: names, depth, jump pointer, segtop and the sums down to it. */
static void
lazy_src(struct callpath_lazy *z, const struct callpath *path, uint32_t i,
         uint32_t thread_base)
{
	const struct callpath_node *x = &path->nodes[i];
	struct inv_src *s = &z->src[i], *up;
	uint32_t j;
	int k;

	s->parent = x->parent;
	s->method = x->method;
	s->thread = x->thread;
	if (x->method == CALLPATH_OUTSIDE)
		s->key = z->nkeys - 1;
	else if (x->method != CALL_NONE)
		s->key = x->method;
	else
		s->key = thread_base + x->thread;
	s->calls = x->calls;
	/* Exclusive: its inclusive time less its children's. */
	for (k = 0; k < CLOCK_COUNT; k++)
		s->excl[k] = callpath_excl(path, i, (enum clock_index)k);
	if (!i) {
		s->depth = s->jump = s->segtop = s->path = 0;
		s->calls = 0;
		memset(s->excl, 0, sizeof(s->excl));
		return;
	}
	up = &z->src[x->parent];
	s->depth = up->depth + 1;
	j = up->jump;
	s->jump = up->depth - z->src[j].depth ==
	                          z->src[j].depth - z->src[z->src[j].jump].depth
	                  ? z->src[j].jump
	                  : x->parent;
	s->segtop = x->parent && up->key == s->key ? up->segtop : i;
	s->calls += up->calls;
	for (k = 0; k < CLOCK_COUNT; k++)
		s->excl[k] += up->excl[k];
}

/* The forward tree cut into paths, each node on its tallest child's
 * path: one run per leaf, from it up to the top of its path. */
static struct inv_run *
lazy_paths(struct callpath_lazy *z, const struct callpath *path,
           uint32_t *nruns)
{
	uint32_t *height = xcalloc(path->count, sizeof(*height));
	uint32_t *tall = xreallocarray(NULL, path->count, sizeof(*tall));
	uint32_t *top = height; /* reused once the heights are read */
	struct inv_run *runs = NULL;
	size_t cap = 0, n = 0;
	uint32_t i;

	for (i = 0; i < path->count; i++)
		tall[i] = CALL_NONE;
	/* Children after their parents: the heights from the last up. */
	for (i = (uint32_t)path->count; i-- > 1;) {
		uint32_t up = path->nodes[i].parent;

		if (tall[up] == CALL_NONE || height[i] + 1 > height[up]) {
			height[up] = height[i] + 1;
			tall[up] = i;
		}
	}
	for (i = 1; i < path->count; i++) {
		uint32_t up = path->nodes[i].parent;

		top[i] = up && tall[up] == i ? top[up] : i;
		z->src[i].path = top[i];
	}
	for (i = 1; i < path->count; i++) {
		if (tall[i] != CALL_NONE)
			continue;
		UTIL_GROW(runs, cap, n + 1);
		runs[n].at = runs[n].from = i;
		runs[n].n = z->src[i].depth - z->src[top[i]].depth + 1;
		runs[n].stride = 1;
		runs[n].sums = NULL;
		n++;
	}
	free(height);
	free(tall);
	*nruns = (uint32_t)n;
	return runs;
}

void
callpath_invert(struct callpath *out, const struct callpath *path)
{
	struct callpath_lazy *z;
	struct inv_run *runs;
	uint32_t i, nruns, nthreads = 0, thread_base = 0;
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
	for (i = 0; i < path->count; i++)
		lazy_src(z, path, i, thread_base);
	z->count = xcalloc((size_t)z->nkeys + 1, sizeof(*z->count));
	z->child = xcalloc((size_t)z->nkeys + 1, sizeof(*z->child));
	z->fill = xcalloc((size_t)z->nkeys + 1, sizeof(*z->fill));
	z->touched = xcalloc((size_t)z->nkeys + 1, sizeof(*z->touched));
	z->first = xcalloc((size_t)z->nkeys + 1, sizeof(*z->first));
	z->single = xcalloc((size_t)z->nkeys + 1, sizeof(*z->single));
	out->forks = xcalloc(1, sizeof(*out->forks));
	/* The root, whose items are every forward node, matched itself. */
	UTIL_GROW(out->nodes, z->node_cap, 1);
	UTIL_GROW(z->pending, z->pending_cap, 1);
	memset(out->nodes, 0, sizeof(*out->nodes));
	out->nodes[0].method = out->nodes[0].thread = CALL_NONE;
	out->nodes[0].parent = CALL_NONE;
	out->nodes[0].first_child = out->nodes[0].next_sibling = CALL_NONE;
	out->count = 1;
	z->pending[0].runs = NULL;
	z->pending[0].n = 0;
	if (path->count > 1) {
		runs = lazy_paths(z, path, &nruns);
		lazy_expand(out, 0, runs, nruns);
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

	if (path->lazy && path->lazy->pending[n].runs) {
		/* Its children are to be made from its items. */
		const struct inv_pending *w = &path->lazy->pending[n];

		for (i = 0; i < w->n; i++) {
			uint64_t calls = 0, sum[CLOCK_COUNT] = {0};

			run_sum(path->lazy->src, &w->runs[i], &calls, sum);
			excl -= sum[k];
		}
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
		for (i = 0; i < path->count; i++) {
			struct inv_pending *w = &z->pending[i];
			uint32_t j;

			for (j = 0; w->runs && j < w->n; j++)
				free(w->runs[j].sums);
			free(w->runs);
		}
		free(z->pending);
		free(z->pieces);
		free(z->singles);
		free(z->src);
		free(z->count);
		free(z->child);
		free(z->fill);
		free(z->touched);
		free(z->first);
		free(z->single);
		free(z);
	}
	free(path->nodes);
	free(path->forks);
	memset(path, 0, sizeof(*path));
}
