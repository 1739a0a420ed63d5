/*
 * unit-callpath: callpath_build, callpath_merge and callpath_invert on
 * random call trees fed through calltree_builder_sink, against answers
 * computed the long way from the model's calls.
 *
 * A random trace has three threads taking turns, five methods (so paths
 * merge and recur), nesting up to depth six, and times that grow by
 * random steps on both clocks.  For every call c the brute force takes
 * its path (the methods from its outermost frame down to c, with the
 * thread first when paths are split by thread) and its exclusive time
 * (its duration minus its children's):
 *
 * - forward: each path's weight is the sum of the durations of the calls
 *   on it, and every node of callpath_build is one such path, also when
 *   the tree is callpath_merge of the threads' own trees;
 * - inverted: each call adds its exclusive time and one call to every
 *   prefix of its path reversed, and every node of callpath_invert is one
 *   such prefix with that weight; the roots add up to the total
 *   exclusive time, which is the sum of the outermost calls' durations.
 *
 * The inverted tree is made lazily: callpath_invert makes the roots, and
 * each check expands it (fully, or node by node in a random order after
 * sorting) before comparing it, node by node in sorted order, with the
 * brute force and with the eager inversion (tests/invert-eager.c).
 *
 * A small hand-worked case checks the shape, the order of children and
 * what a node not yet expanded answers.
 *
 * Deeper random traces (long chains of single callers) check the
 * inversion against a straightforward one (each forward node walked up
 * its path, children found by a linear search), a merge of one part
 * against the part, sorting again on another clock against sorting
 * once, and a warmup job's tree against inverting and sorting directly.
 * A recursion thousands deep, walked from its hottest root to its
 * deepest caller, makes only the nodes on the way, with the numbers
 * worked out by hand; so do indirect ones 40000 deep (periods 2, 3 and
 * 5), each level keeping one run.  Recursions of every period, broken
 * in the middle, mixed with other callers and in threads merged, are
 * walked against the eager inversion, with a few runs a level at most.
 */
#include "config.h"

#include "query/callpath.h"
#include "model/calltree.h"
#include "model/scope.h"
#include "tui/warmup.h"
#include "util/alloc.h"

#include "invert-eager.h"
#include "rng.h"
#include "tap.h"
#include "trace-begin.h"

#include <stdlib.h>
#include <string.h>

enum {
	NMETHODS = 5,
	NTHREADS = 3,
	MAX_DEPTH = 6,
	MAX_PATH = 16,
	MAX_STACK = 40
};

/* ---- random traces --------------------------------------------------- */

static const struct trace_sink *
begin(struct calltree_builder **b)
{
	static const char *const names[NMETHODS] = {"a", "b", "c", "d", "e"};

	return trace_begin(b, "unit-callpath", TRACE_CLOCK_DUAL, names,
	                   NMETHODS);
}

/* A random trace of about n events nesting up to max_depth (at most
 * MAX_STACK); every frame is closed. */
static struct calltree *
random_deep_tree(uint64_t seed, unsigned n, unsigned max_depth)
{
	struct calltree_builder *b;
	const struct trace_sink *s = begin(&b);
	uint64_t stack[NTHREADS][MAX_STACK];
	unsigned depth[NTHREADS] = {0};
	uint64_t cpu[NTHREADS] = {0}, wall = 0;
	unsigned i, t;

	rng_state = seed;
	for (i = 0; i < n; i++) {
		bool enter;

		t = below(NTHREADS);
		cpu[t] += below(6);
		wall += below(10);
		enter = depth[t] == 0 ||
		        (depth[t] < max_depth && below(100) < 55);
		if (enter) {
			uint64_t m = 0x10 * (below(NMETHODS) + 1);

			stack[t][depth[t]++] = m;
			s->event(s->ctx, t + 1, m, TRACE_ENTER, cpu[t], wall);
		} else {
			s->event(s->ctx, t + 1, stack[t][--depth[t]],
			         TRACE_EXIT, cpu[t], wall);
		}
	}
	for (t = 0; t < NTHREADS; t++) {
		while (depth[t]) {
			cpu[t] += below(3);
			wall += below(4);
			s->event(s->ctx, t + 1, stack[t][--depth[t]],
			         TRACE_EXIT, cpu[t], wall);
		}
	}
	return calltree_builder_finish(b);
}

static struct calltree *
random_tree(uint64_t seed, unsigned n)
{
	return random_deep_tree(seed, n, MAX_DEPTH);
}

/* ---- the long way ----------------------------------------------------- */

/* A path: method indexes, or thread markers (CALL_NONE - 1 - t). */
struct bf_path {
	uint32_t step[MAX_PATH];
	unsigned len;
	uint64_t w[CLOCK_COUNT];
	uint64_t calls;
	bool seen; /* matched by a node */
};

struct bf {
	struct bf_path *paths;
	size_t count, cap;
};

static struct bf_path *
bf_find(struct bf *bf, const uint32_t *step, unsigned len, bool add)
{
	size_t i;

	for (i = 0; i < bf->count; i++)
		if (bf->paths[i].len == len &&
		    memcmp(bf->paths[i].step, step, len * sizeof(*step)) == 0)
			return &bf->paths[i];
	if (!add)
		return NULL;
	if (bf->count == bf->cap) {
		bf->cap = bf->cap ? 2 * bf->cap : 64;
		bf->paths = realloc(bf->paths, bf->cap * sizeof(*bf->paths));
		if (!bf->paths)
			abort();
	}
	memset(&bf->paths[bf->count], 0, sizeof(*bf->paths));
	memcpy(bf->paths[bf->count].step, step, len * sizeof(*step));
	bf->paths[bf->count].len = len;
	return &bf->paths[bf->count++];
}

static uint32_t
thread_marker(size_t t)
{
	return CALL_NONE - 1 - (uint32_t)t;
}

/* The thread of call c. */
static size_t
thread_of(const struct calltree *tree, size_t c)
{
	size_t t;

	for (t = 0; t < tree->nthreads; t++)
		if (c >= tree->threads[t].first_call &&
		    c < (size_t)tree->threads[t].first_call +
		                    tree->threads[t].ncalls)
			return t;
	abort();
}

/* The path of call c from its outermost frame (the thread first when
 * by_thread) into step; returns its length. */
static unsigned
call_path(const struct calltree *tree, size_t c, bool by_thread, uint32_t *step)
{
	unsigned len = calltree_depth(tree, c) + 1 + by_thread, i = len;
	uint32_t at = (uint32_t)c;

	if (len > MAX_PATH)
		abort();
	while (at != CALL_NONE) {
		step[--i] = calltree_method(tree, at);
		at = calltree_parent(tree, at);
	}
	if (by_thread)
		step[0] = thread_marker(thread_of(tree, c));
	return len;
}

static uint64_t
duration(const struct calltree *tree, size_t c, int k)
{
	return calltree_duration(tree, c, k);
}

/* Exclusive time of call c: its duration less its children's. */
static uint64_t
call_excl(const struct calltree *tree, size_t c, int k)
{
	uint64_t e = duration(tree, c, k);
	size_t i;

	for (i = 0; i < tree->calls.count; i++)
		if (calltree_parent(tree, i) == c)
			e -= duration(tree, i, k);
	return e;
}

/* The forward answer: every path with the durations of its calls. */
static void
bf_forward(struct bf *bf, const struct calltree *tree, bool by_thread)
{
	uint32_t step[MAX_PATH];
	size_t c;
	int k;

	for (c = 0; c < tree->calls.count; c++) {
		unsigned len = call_path(tree, c, by_thread, step);
		struct bf_path *p = bf_find(bf, step, len, true);

		p->calls++;
		for (k = 0; k < CLOCK_COUNT; k++)
			p->w[k] += duration(tree, c, k);
	}
	if (!by_thread)
		return;
	/* A thread node spans its thread's traced time. */
	for (c = 0; c < tree->nthreads; c++) {
		struct bf_path *p;

		if (!tree->threads[c].ncalls)
			continue;
		step[0] = thread_marker(c);
		p = bf_find(bf, step, 1, true);
		for (k = 0; k < CLOCK_COUNT; k++)
			p->w[k] = calltree_thread_span(tree, c, k);
	}
}

/* The inverted answer: every prefix of every call's reversed path with
 * the exclusive times and calls behind it. */
static void
bf_inverted(struct bf *bf, const struct calltree *tree, bool by_thread,
            uint64_t total[CLOCK_COUNT])
{
	uint32_t step[MAX_PATH], rev[MAX_PATH];
	size_t c;
	unsigned i, len;
	int k;

	memset(total, 0, CLOCK_COUNT * sizeof(*total));
	for (c = 0; c < tree->calls.count; c++) {
		uint64_t e[CLOCK_COUNT];

		len = call_path(tree, c, by_thread, step);
		for (i = 0; i < len; i++)
			rev[i] = step[len - 1 - i];
		for (k = 0; k < CLOCK_COUNT; k++) {
			e[k] = call_excl(tree, c, k);
			total[k] += e[k];
		}
		for (i = 1; i <= len; i++) {
			struct bf_path *p = bf_find(bf, rev, i, true);

			p->calls++;
			for (k = 0; k < CLOCK_COUNT; k++)
				p->w[k] += e[k];
		}
	}
	if (!by_thread)
		return;
	/* A thread's time outside every call is the thread node's own. */
	for (c = 0; c < tree->nthreads; c++) {
		uint64_t idle[CLOCK_COUNT];
		size_t i2;
		struct bf_path *p;

		if (!tree->threads[c].ncalls)
			continue;
		for (k = 0; k < CLOCK_COUNT; k++)
			idle[k] = calltree_thread_span(tree, c, k);
		for (i2 = tree->threads[c].first_call;
		     i2 < (size_t)tree->threads[c].first_call +
		                  tree->threads[c].ncalls;
		     i2++)
			if (calltree_parent(tree, i2) == CALL_NONE)
				for (k = 0; k < CLOCK_COUNT; k++)
					idle[k] -= duration(tree, i2, k);
		step[0] = thread_marker(c);
		p = bf_find(bf, step, 1, true);
		for (k = 0; k < CLOCK_COUNT; k++) {
			p->w[k] += idle[k];
			total[k] += idle[k];
		}
	}
}

/* The path of node n from the root's child down to n. */
static unsigned
node_path(const struct callpath *cp, uint32_t n, uint32_t *step)
{
	unsigned len = cp->nodes[n].depth, i = len;

	if (len > MAX_PATH)
		abort();
	for (; n != 0; n = cp->nodes[n].parent) {
		const struct callpath_node *x = &cp->nodes[n];

		step[--i] = x->method != CALL_NONE ? x->method
		                                   : thread_marker(x->thread);
	}
	return len;
}

/* Every node of cp but the root is a path of bf with its weight (and
 * calls, unless thread nodes, which count none), and every path of bf is
 * a node; node incl = excl + children's incl. */
static bool
matches(const struct callpath *cp, struct bf *bf, bool inverted)
{
	uint32_t step[MAX_PATH];
	size_t n, i;
	int k;

	for (i = 0; i < bf->count; i++)
		bf->paths[i].seen = false;
	for (n = 1; n < cp->count; n++) {
		const struct callpath_node *x = &cp->nodes[n];
		unsigned len = node_path(cp, (uint32_t)n, step);
		struct bf_path *p = bf_find(bf, step, len, false);
		uint64_t sum[CLOCK_COUNT] = {0};
		uint32_t ch;

		if (!p || p->seen)
			return false;
		p->seen = true;
		for (k = 0; k < CLOCK_COUNT; k++)
			if (x->incl[k] != p->w[k])
				return false;
		if (x->method != CALL_NONE && x->calls != p->calls)
			return false;
		if (inverted && x->method == CALL_NONE && x->calls != p->calls)
			return false;
		for (ch = x->first_child; ch != CALL_NONE;
		     ch = cp->nodes[ch].next_sibling)
			for (k = 0; k < CLOCK_COUNT; k++)
				sum[k] += cp->nodes[ch].incl[k];
		for (k = 0; k < CLOCK_COUNT; k++)
			if (callpath_excl(cp, (uint32_t)n, k) + sum[k] !=
			    x->incl[k])
				return false;
	}
	for (i = 0; i < bf->count; i++)
		if (!bf->paths[i].seen)
			return false;
	return true;
}

/* The time of bf's one-step paths on clock k. */
static uint64_t
bf_root(const struct bf *bf, int k)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < bf->count; i++)
		if (bf->paths[i].len == 1)
			sum += bf->paths[i].w[k];
	return sum;
}

static uint64_t
roots_sum(const struct callpath *cp, int k)
{
	uint64_t sum = 0;
	uint32_t ch;

	for (ch = cp->nodes[0].first_child; ch != CALL_NONE;
	     ch = cp->nodes[ch].next_sibling)
		sum += cp->nodes[ch].incl[k];
	return sum;
}

/* Per-thread trees of every thread of tree into parts (NTHREADS). */
static size_t
thread_parts(const struct calltree *tree, struct callpath *parts)
{
	size_t t;

	for (t = 0; t < tree->nthreads && t < NTHREADS; t++) {
		struct scope one;

		scope_init_none(&one, tree);
		scope_add(&one, t);
		callpath_build(&parts[t], tree, &one, false);
		scope_done(&one);
	}
	return t;
}

/* The per-thread trees merged are the tree of every thread. */
static void
check_merge(const struct calltree *tree, struct bf *bf, uint64_t seed)
{
	struct callpath parts[NTHREADS], merged;
	size_t t = thread_parts(tree, parts);

	callpath_merge(&merged, parts, t);
	ok(matches(&merged, bf, false) &&
	           merged.nodes[0].incl[CLOCK_CPU] == bf_root(bf, 0) &&
	           merged.nodes[0].incl[CLOCK_WALL] == bf_root(bf, 1),
	   "seed %llu: the %zu threads' trees merged are the paths of all",
	   (unsigned long long)seed, t);
	while (t-- > 0)
		callpath_done(&parts[t]);
	callpath_done(&merged);
}

static void
check_random(uint64_t seed, unsigned n, bool by_thread)
{
	struct calltree *tree = random_tree(seed, n);
	struct scope all;
	struct callpath fwd, inv, eager;
	struct bf bf_fwd = {0}, bf_inv = {0};
	uint64_t total[CLOCK_COUNT], top[CLOCK_COUNT] = {0};
	const char *how = by_thread ? "by thread" : "merged";
	size_t c, n_roots;
	int k;

	scope_init_all(&all, tree);
	callpath_build(&fwd, tree, &all, by_thread);
	callpath_invert(&inv, &fwd);
	for (c = 1, n_roots = 0; c < inv.count; c++)
		n_roots += inv.nodes[c].depth == 1;
	ok(inv.count == 1 + n_roots && n_roots > 0,
	   "seed %llu, %s: inverting makes the %zu roots only",
	   (unsigned long long)seed, by_thread ? "by thread" : "merged",
	   n_roots);
	callpath_expand_all(&inv);
	invert_eager(&eager, &fwd);
	callpath_sort(&eager, CLOCK_WALL);
	callpath_sort(&inv, CLOCK_WALL);
	ok(inv.count == eager.count && invert_same(&inv, &eager),
	   "seed %llu, %s: expanded, the %zu nodes of the eager inversion",
	   (unsigned long long)seed, by_thread ? "by thread" : "merged",
	   eager.count);
	callpath_done(&eager);
	bf_forward(&bf_fwd, tree, by_thread);
	bf_inverted(&bf_inv, tree, by_thread, total);
	ok(matches(&fwd, &bf_fwd, false),
	   "seed %llu, %s: %zu forward nodes are the %zu paths with their "
	   "durations",
	   (unsigned long long)seed, how, fwd.count - 1, bf_fwd.count);
	ok(matches(&inv, &bf_inv, true),
	   "seed %llu, %s: %zu inverted nodes are the %zu reversed path "
	   "prefixes with their exclusive times and calls",
	   (unsigned long long)seed, how, inv.count - 1, bf_inv.count);
	for (c = 0; c < tree->calls.count; c++)
		if (calltree_parent(tree, c) == CALL_NONE)
			for (k = 0; k < CLOCK_COUNT; k++)
				top[k] += duration(tree, c, k);
	for (k = 0; k < CLOCK_COUNT; k++) {
		if (by_thread)
			top[k] = scope_total(&all, tree, k);
		is_u64(roots_sum(&inv, k), total[k],
		       "seed %llu, %s, %s: inverted roots add up to the "
		       "exclusive time",
		       (unsigned long long)seed, how, k ? "wall" : "cpu");
		ok(total[k] == top[k] && inv.nodes[0].incl[k] == top[k] &&
		           fwd.nodes[0].incl[k] == top[k],
		   "seed %llu, %s, %s: exclusive time = outermost time = "
		   "both roots' incl (%llu)",
		   (unsigned long long)seed, how, k ? "wall" : "cpu",
		   (unsigned long long)top[k]);
	}
	callpath_sort(&inv, CLOCK_CPU);
	ok(matches(&inv, &bf_inv, true),
	   "seed %llu, %s: sorting keeps the inverted tree",
	   (unsigned long long)seed, how);
	if (!by_thread)
		check_merge(tree, &bf_fwd, seed);
	free(bf_fwd.paths);
	free(bf_inv.paths);
	callpath_done(&fwd);
	callpath_done(&inv);
	scope_done(&all);
	calltree_free(tree);
}

/*
 * By hand, one thread, times (cpu, wall):
 *   a (0,0)..(100,200) { b (10,20)..(50,100) { c (20,40)..(40,80) }
 *                        c (60,120)..(90,180) }
 * Forward: a 100/200 excl 30/60; a/b 40/80 excl 20/40; a/b/c 20/40;
 * a/c 30/60.  Inverted: c 50/100 { b 20/40 { a 20/40 }, a 30/60 };
 * a 30/60 (root only); b 20/40 { a 20/40 }: seven nodes.  Sorted by
 * cpu: c, a, b (a before b: equal time, lower method index); c's
 * callers a (30) then b (20).
 */
static void
test_by_hand(void)
{
	struct calltree_builder *b;
	const struct trace_sink *s = begin(&b);
	struct calltree *tree;
	struct scope all;
	struct callpath fwd, inv;
	const struct callpath_node *r, *x;
	uint32_t n;

	s->event(s->ctx, 1, 0x10, TRACE_ENTER, 0, 0);
	s->event(s->ctx, 1, 0x20, TRACE_ENTER, 10, 20);
	s->event(s->ctx, 1, 0x30, TRACE_ENTER, 20, 40);
	s->event(s->ctx, 1, 0x30, TRACE_EXIT, 40, 80);
	s->event(s->ctx, 1, 0x20, TRACE_EXIT, 50, 100);
	s->event(s->ctx, 1, 0x30, TRACE_ENTER, 60, 120);
	s->event(s->ctx, 1, 0x30, TRACE_EXIT, 90, 180);
	s->event(s->ctx, 1, 0x10, TRACE_EXIT, 100, 200);
	tree = calltree_builder_finish(b);
	scope_init_all(&all, tree);
	callpath_build(&fwd, tree, &all, false);
	callpath_invert(&inv, &fwd);
	callpath_sort(&inv, CLOCK_CPU);
	is_u64(inv.count, 4, "by hand: root and three roots made");
	n = inv.nodes[0].first_child;
	ok(inv.nodes[n].method == 2 && !callpath_expanded(&inv, n) &&
	           callpath_has_children(&inv, n) &&
	           inv.nodes[n].first_child == CALL_NONE &&
	           callpath_excl(&inv, n, CLOCK_CPU) == 0 &&
	           callpath_excl(&inv, n, CLOCK_WALL) == 0,
	   "by hand: root c not expanded has callers, excl 0");
	n = inv.nodes[n].next_sibling;
	ok(inv.nodes[n].method == 0 && callpath_expanded(&inv, n) &&
	           !callpath_has_children(&inv, n) &&
	           callpath_excl(&inv, n, CLOCK_CPU) == 30,
	   "by hand: root a has no callers to make, excl 30");
	callpath_expand(&inv, inv.nodes[0].first_child);
	is_u64(inv.count, 6, "by hand: c expanded: its callers a and b");
	callpath_expand_all(&inv);
	is_u64(inv.count, 8, "by hand: root and seven inverted nodes");
	is_u64(inv.nodes[0].incl[CLOCK_CPU], 100, "by hand: root cpu 100");
	is_u64(inv.nodes[0].incl[CLOCK_WALL], 200, "by hand: root wall 200");
	n = inv.nodes[0].first_child;
	r = &inv.nodes[n];
	ok(r->method == 2 && r->incl[CLOCK_CPU] == 50 &&
	           r->incl[CLOCK_WALL] == 100 &&
	           callpath_excl(&inv, n, CLOCK_CPU) == 0 && r->calls == 2,
	   "by hand: first root c, 50/100, excl 0, 2 calls");
	x = &inv.nodes[r->first_child];
	ok(x->method == 0 && x->incl[CLOCK_CPU] == 30 && x->calls == 1 &&
	           x->first_child == CALL_NONE &&
	           callpath_excl(&inv, r->first_child, CLOCK_CPU) == 30,
	   "by hand: c's first caller a, 30, a leaf");
	n = x->next_sibling;
	x = &inv.nodes[n];
	ok(x->method == 1 && x->incl[CLOCK_CPU] == 20 &&
	           x->incl[CLOCK_WALL] == 40 &&
	           callpath_excl(&inv, n, CLOCK_CPU) == 0 &&
	           x->first_child != CALL_NONE &&
	           inv.nodes[x->first_child].method == 0 &&
	           inv.nodes[x->first_child].incl[CLOCK_CPU] == 20 &&
	           x->next_sibling == CALL_NONE,
	   "by hand: then b, 20/40, called by a 20");
	n = r->next_sibling;
	r = &inv.nodes[n];
	ok(r->method == 0 && r->incl[CLOCK_CPU] == 30 &&
	           callpath_excl(&inv, n, CLOCK_CPU) == 30 &&
	           r->first_child == CALL_NONE && r->calls == 1,
	   "by hand: second root a, 30, no callers");
	r = &inv.nodes[r->next_sibling];
	ok(r->method == 1 && r->incl[CLOCK_CPU] == 20 &&
	           r->next_sibling == CALL_NONE &&
	           inv.nodes[r->first_child].method == 0,
	   "by hand: last root b, 20, called by a");
	callpath_done(&fwd);
	callpath_done(&inv);
	scope_done(&all);
	calltree_free(tree);
}

/* An empty scope inverts to a lone root. */
static void
test_empty(void)
{
	struct calltree_builder *b;
	struct calltree *tree;
	struct scope none;
	struct callpath fwd, inv;

	begin(&b);
	tree = calltree_builder_finish(b);
	scope_init_none(&none, tree);
	callpath_build(&fwd, tree, &none, false);
	callpath_invert(&inv, &fwd);
	ok(inv.count == 1 && inv.nodes[0].first_child == CALL_NONE &&
	           inv.nodes[0].incl[CLOCK_CPU] == 0,
	   "empty: the inverted tree is a lone root");
	callpath_done(&fwd);
	callpath_done(&inv);
	scope_done(&none);
	calltree_free(tree);
}

/* ---- the straightforward inversion ------------------------------------ */

/* The child of node under out named like x, made when missing. */
static uint32_t
plain_child(struct callpath *out, size_t *cap, uint32_t node,
            const struct callpath_node *x)
{
	uint32_t ch, last = CALL_NONE, id;
	struct callpath_node *n;

	for (ch = out->nodes[node].first_child; ch != CALL_NONE;
	     ch = out->nodes[ch].next_sibling) {
		if (out->nodes[ch].method == x->method &&
		    out->nodes[ch].thread == x->thread)
			return ch;
		last = ch;
	}
	if (out->count == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		out->nodes = realloc(out->nodes, *cap * sizeof(*out->nodes));
		if (!out->nodes)
			abort();
	}
	id = (uint32_t)out->count++;
	n = &out->nodes[id];
	memset(n, 0, sizeof(*n));
	n->method = x->method;
	n->thread = x->thread;
	n->parent = node;
	n->depth = out->nodes[node].depth + 1;
	n->first_child = n->next_sibling = CALL_NONE;
	if (last == CALL_NONE)
		out->nodes[node].first_child = id;
	else
		out->nodes[last].next_sibling = id;
	return id;
}

/* Every forward node adds its exclusive times and calls to each step of
 * its path reversed. */
static void
plain_invert(struct callpath *out, const struct callpath *fwd)
{
	size_t cap, i;
	uint32_t ch;
	int k;

	memset(out, 0, sizeof(*out));
	cap = 64;
	out->nodes = calloc(cap, sizeof(*out->nodes));
	if (!out->nodes)
		abort();
	out->count = 1;
	out->nodes[0].method = out->nodes[0].thread = CALL_NONE;
	out->nodes[0].parent = out->nodes[0].first_child = CALL_NONE;
	out->nodes[0].next_sibling = CALL_NONE;
	for (i = 1; i < fwd->count; i++) {
		const struct callpath_node *from = &fwd->nodes[i];
		uint32_t at = (uint32_t)i, node = 0;

		while (at != 0) {
			const struct callpath_node *x = &fwd->nodes[at];

			node = plain_child(out, &cap, node, x);
			out->nodes[node].calls += from->calls;
			for (k = 0; k < CLOCK_COUNT; k++)
				out->nodes[node].incl[k] +=
				        callpath_excl(fwd, (uint32_t)i, k);
			at = x->parent;
		}
	}
	for (ch = out->nodes[0].first_child; ch != CALL_NONE;
	     ch = out->nodes[ch].next_sibling)
		for (k = 0; k < CLOCK_COUNT; k++)
			out->nodes[0].incl[k] += out->nodes[ch].incl[k];
}

/* Nodes a of pa and b of pb and their sorted children, down to the
 * leaves, carry the same names, depths, calls and times. */
static bool
same_subtree(const struct callpath *pa, uint32_t a, const struct callpath *pb,
             uint32_t b)
{
	const struct callpath_node *x = &pa->nodes[a], *y = &pb->nodes[b];
	uint32_t ca, cb;

	if (x->method != y->method || x->thread != y->thread ||
	    x->depth != y->depth || x->calls != y->calls ||
	    memcmp(x->incl, y->incl, sizeof(x->incl)))
		return false;
	for (ca = x->first_child, cb = y->first_child;
	     ca != CALL_NONE && cb != CALL_NONE;
	     ca = pa->nodes[ca].next_sibling, cb = pb->nodes[cb].next_sibling)
		if (!same_subtree(pa, ca, pb, cb))
			return false;
	return ca == CALL_NONE && cb == CALL_NONE;
}

static bool
same_nodes(const struct callpath *a, const struct callpath *b)
{
	return a->count == b->count &&
	       memcmp(a->nodes, b->nodes, a->count * sizeof(*a->nodes)) == 0;
}

static void expand_randomly(struct callpath *p, uint64_t seed);

static void
check_deep(uint64_t seed, unsigned n, unsigned max_depth, bool by_thread)
{
	struct calltree *tree = random_deep_tree(seed, n, max_depth);
	struct callpath fwd, inv, plain, parts[NTHREADS], one, again, job_tree;
	struct warmup_job *job;
	struct scope all;
	size_t nparts, t;
	bool ok_merge = true;

	scope_init_all(&all, tree);
	callpath_build(&fwd, tree, &all, by_thread);
	callpath_invert(&inv, &fwd);
	plain_invert(&plain, &fwd);
	callpath_sort(&inv, CLOCK_WALL);
	callpath_sort(&inv, CLOCK_CPU);
	callpath_sort(&plain, CLOCK_CPU);
	expand_randomly(&inv, seed);
	ok(inv.count == plain.count && same_subtree(&inv, 0, &plain, 0),
	   "deep seed %llu, depth %u%s: %zu inverted nodes, expanded in a "
	   "random order, as the straightforward inversion",
	   (unsigned long long)seed, max_depth, by_thread ? ", by thread" : "",
	   inv.count - 1);
	invert_eager(&again, &fwd);
	callpath_sort(&again, CLOCK_CPU);
	ok(inv.count == again.count && invert_same(&inv, &again),
	   "deep seed %llu: as the eager inversion", (unsigned long long)seed);
	callpath_done(&again);
	callpath_invert(&again, &fwd);
	callpath_sort(&again, CLOCK_CPU);
	callpath_expand_all(&again);
	callpath_sort(&inv, CLOCK_CPU);
	ok(inv.count == again.count && invert_same(&inv, &again),
	   "deep seed %llu: sorted on wall then cpu, expanded as it went, "
	   "as sorted on cpu once",
	   (unsigned long long)seed);
	callpath_done(&again);
	if (by_thread)
		goto out;
	nparts = thread_parts(tree, parts);
	for (t = 0; t < nparts; t++) {
		struct callpath empty = {0}, two[2];

		two[0] = empty;
		two[1] = parts[t];
		callpath_merge(&one, two, 2);
		ok_merge = ok_merge && same_nodes(&one, &parts[t]);
		callpath_done(&one);
	}
	ok(ok_merge, "deep seed %llu: a merge of one part is that part",
	   (unsigned long long)seed);
	plain_invert(&again, &fwd);
	job = warmup_invert_start(parts, nparts, CLOCK_WALL, &again);
	ok(again.count == 0 && !again.nodes,
	   "deep seed %llu: the job takes the tree to release",
	   (unsigned long long)seed);
	callpath_sort(&inv, CLOCK_WALL);
	ok(job != NULL, "deep seed %llu: a thread takes the job",
	   (unsigned long long)seed);
	if (job) {
		warmup_job_take(job, &job_tree);
		callpath_expand_all(&job_tree);
		ok(job_tree.count == inv.count && invert_same(&job_tree, &inv),
		   "deep seed %llu: the job's tree as inverted and sorted "
		   "directly",
		   (unsigned long long)seed);
		callpath_done(&job_tree);
	}
	/* Left untaken, built or not: nothing leaks. */
	warmup_job_free(warmup_invert_start(parts, nparts, CLOCK_CPU, NULL));
	job = warmup_invert_start(parts, nparts, CLOCK_CPU, NULL);
	warmup_job_abandon(job);
	warmup_job_free(job);
	for (t = 0; t < nparts; t++)
		callpath_done(&parts[t]);
out:
	callpath_done(&fwd);
	callpath_done(&inv);
	callpath_done(&plain);
	scope_done(&all);
	calltree_free(tree);
}

/* Every thread's tree built in pieces of part calls on every cpu (0:
 * the default size) is the one-pass walk's, node for node, with the time
 * outside any method. */
static void
check_pieces(uint64_t seed, unsigned n, unsigned max_depth)
{
	static const size_t parts[] = {1, 2, 3, 5, 17, 64, 0};
	struct calltree *tree = random_deep_tree(seed, n, max_depth);
	struct callpath want[NTHREADS + 1], got[NTHREADS + 1];
	size_t t, i, nodes = 0;

	for (t = 0; t < tree->nthreads; t++) {
		callpath_build_thread_whole(&want[t], tree, t);
		nodes += want[t].count;
	}
	for (i = 0; i < sizeof(parts) / sizeof(*parts); i++) {
		bool same = true;

		callpath_build_threads(got, tree, parts[i]);
		for (t = 0; t < tree->nthreads; t++) {
			same = same && same_nodes(&got[t], &want[t]);
			callpath_done(&got[t]);
		}
		ok(same,
		   "pieces seed %llu, depth %u: %zu threads' %zu nodes built "
		   "in pieces of %zu calls as in one pass",
		   (unsigned long long)seed, max_depth, tree->nthreads, nodes,
		   parts[i]);
	}
	for (t = 0; t < tree->nthreads; t++)
		callpath_done(&want[t]);
	calltree_free(tree);
}

/* n threads, thread t making t % 7 + 1 calls nested in turn (so that
 * the threads share some paths, and each thread of 7 calls ends deeper
 * than the others), then, for every 1000th thread, 40 calls more. */
static struct calltree *
many_threads_tree(unsigned n)
{
	struct calltree_builder *b;
	const struct trace_sink *s = begin(&b);
	uint64_t wall = 0;
	unsigned t, i, extra;

	for (t = 0; t < n; t++) {
		unsigned calls = t % 7 + 1;
		uint64_t cpu = 0;

		for (i = 0; i < calls; i++)
			s->event(s->ctx, t + 1, 0x10 * ((t + i) % NMETHODS + 1),
			         TRACE_ENTER, cpu++, wall++);
		for (i = calls; i-- > 0;)
			s->event(s->ctx, t + 1, 0x10 * ((t + i) % NMETHODS + 1),
			         TRACE_EXIT, cpu += 2, wall += 3);
		for (extra = t % 1000 ? 0 : 40; extra > 0; extra--) {
			s->event(s->ctx, t + 1, 0x10 * (extra % NMETHODS + 1),
			         TRACE_ENTER, cpu++, wall++);
			s->event(s->ctx, t + 1, 0x10 * (extra % NMETHODS + 1),
			         TRACE_EXIT, cpu++, wall += 2);
		}
	}
	return calltree_builder_finish(b);
}

/* More threads than a batch of callpath_build_merged: their merge built
 * batch by batch is the merge of every thread's own tree, node for node;
 * the trees kept are those of the threads of keep calls or more, as
 * built alone, the others empty; none kept: no array. */
static void
check_merged_batches(unsigned n, size_t keep)
{
	struct calltree *tree = many_threads_tree(n);
	struct callpath *want = xcalloc(tree->nthreads, sizeof(*want));
	struct callpath merged, got_merged, *kept;
	size_t t, nkept = 0;
	bool same = true;

	for (t = 0; t < tree->nthreads; t++)
		callpath_build_thread_whole(&want[t], tree, t);
	callpath_merge(&merged, want, tree->nthreads);
	kept = callpath_build_merged(&got_merged, tree, keep);
	ok(same_nodes(&got_merged, &merged),
	   "%zu threads merged in batches: the merge of their trees, node "
	   "for node (%zu nodes)",
	   tree->nthreads, merged.count);
	for (t = 0; kept && t < tree->nthreads; t++) {
		if (tree->threads[t].ncalls >= keep) {
			same = same && same_nodes(&kept[t], &want[t]);
			nkept++;
		} else {
			same = same && !kept[t].count && !kept[t].nodes;
		}
		callpath_done(&kept[t]);
	}
	ok(keep > 47 ? !kept : kept && same && nkept > 0,
	   "%zu threads merged in batches: the trees of %zu calls or more "
	   "kept (%zu), as built alone",
	   tree->nthreads, keep, nkept);
	free(kept);
	for (t = 0; t < tree->nthreads; t++)
		callpath_done(&want[t]);
	free(want);
	callpath_done(&merged);
	callpath_done(&got_merged);
	calltree_free(tree);
}

/*
 * One thread recursing n deep in r, a leaf at the bottom (times on both
 * clocks): r_i enters at i, the leaf at n and leaves at n + 5, r_i leaves
 * at n + 10 + (n - 1 - i), the innermost first.  Each r but the innermost
 * has 2 of its own (1 before its callee, 1 after), the innermost 6, the
 * leaf 5.  So the bottom-up root r holds 2 (n - 1) + 6 over n calls, and
 * its callers r, r, ... at depth d (d r's) hold the r's at least d deep:
 * 2 (n - d) + 6 over n - d + 1 calls, down to depth n.  Walking there
 * from r makes r's chain and nothing else: n + 2 nodes with the root and
 * the leaf.
 */
static void
test_lazy_chain(unsigned n)
{
	struct calltree_builder *b;
	const struct trace_sink *s = begin(&b);
	struct calltree *tree;
	struct scope all;
	struct callpath fwd, inv;
	uint32_t at, d = 1, i;
	bool right = true;

	for (i = 0; i < n; i++)
		s->event(s->ctx, 1, 0x10, TRACE_ENTER, i, i);
	s->event(s->ctx, 1, 0x20, TRACE_ENTER, n, n);
	s->event(s->ctx, 1, 0x20, TRACE_EXIT, n + 5, n + 5);
	for (i = 0; i < n; i++)
		s->event(s->ctx, 1, 0x10, TRACE_EXIT, n + 10 + i, n + 10 + i);
	tree = calltree_builder_finish(b);
	scope_init_all(&all, tree);
	callpath_build(&fwd, tree, &all, false);
	callpath_invert(&inv, &fwd);
	callpath_sort(&inv, CLOCK_WALL);
	is_u64(inv.count, 3, "chain %u: root, r and the leaf made", n);
	at = inv.nodes[0].first_child;
	for (;;) {
		const struct callpath_node *x = &inv.nodes[at];

		right = right && x->method == 0 && x->depth == d &&
		        x->calls == n - d + 1 &&
		        x->incl[CLOCK_WALL] == 2 * (uint64_t)(n - d) + 6 &&
		        x->incl[CLOCK_CPU] == 2 * (uint64_t)(n - d) + 6;
		callpath_expand(&inv, at);
		if (inv.nodes[at].first_child == CALL_NONE)
			break;
		at = inv.nodes[at].first_child;
		d++;
	}
	ok(right && d == n,
	   "chain %u: r's callers down to depth %u, each with the r's at "
	   "least as deep",
	   n, d);
	is_u64(inv.count, (uint64_t)n + 2,
	       "chain %u: walking down made r's chain and nothing else", n);
	at = inv.nodes[inv.nodes[0].first_child].next_sibling;
	ok(inv.nodes[at].method == 1 && inv.nodes[at].incl[CLOCK_WALL] == 5 &&
	           !callpath_expanded(&inv, at) &&
	           callpath_excl(&inv, at, CLOCK_WALL) == 0,
	   "chain %u: the leaf's callers are not made", n);
	callpath_done(&fwd);
	callpath_done(&inv);
	scope_done(&all);
	calltree_free(tree);
}

/*
 * One thread recursing n deep through the methods of pattern in turn (p
 * of them, all different: period p), timed as in test_lazy_chain, the
 * leaf f at the bottom, n - 1 a multiple of p so that the innermost
 * frame is an a.  The bottom-up root a holds the a's; its callers at
 * depth d (pattern read backwards from a) hold the a's at least d - 1
 * below the outermost frame, c = (n - 1) / p - ceil((d - 1) / p) + 1 of
 * them, 2 each and 4 more for the innermost: 2 c + 4 over c calls, down
 * to depth n.  The walk makes the root, its p + 1 children and a's chain;
 * each level keeps one run (the a's at a stride of p), where runs cut at
 * every change of method would keep a run per a.
 */
static void
test_lazy_period(const char *pattern, unsigned n)
{
	static const char *const names[] = {"a", "b", "c", "d", "e", "f"};
	struct calltree_builder *b;
	const struct trace_sink *s =
	        trace_begin(&b, "unit-callpath", TRACE_CLOCK_DUAL, names, 6);
	unsigned p = (unsigned)strlen(pattern);
	struct calltree *tree;
	struct scope all;
	struct callpath fwd, inv;
	uint32_t at, d = 1, i, runs = 0;
	bool right = true;

	for (i = 0; i < n; i++)
		s->event(s->ctx, 1, 0x10 * (uint32_t)(pattern[i % p] - 'a' + 1),
		         TRACE_ENTER, i, i);
	s->event(s->ctx, 1, 0x60, TRACE_ENTER, n, n);
	s->event(s->ctx, 1, 0x60, TRACE_EXIT, n + 5, n + 5);
	for (i = n; i-- > 0;)
		s->event(s->ctx, 1, 0x10 * (uint32_t)(pattern[i % p] - 'a' + 1),
		         TRACE_EXIT, n + 10 + (n - 1 - i),
		         n + 10 + (n - 1 - i));
	tree = calltree_builder_finish(b);
	scope_init_all(&all, tree);
	callpath_build(&fwd, tree, &all, false);
	callpath_invert(&inv, &fwd);
	callpath_sort(&inv, CLOCK_WALL);
	at = inv.nodes[0].first_child;
	while (at != CALL_NONE && inv.nodes[at].method != 0)
		at = inv.nodes[at].next_sibling;
	for (; at != CALL_NONE; d++) {
		const struct callpath_node *x = &inv.nodes[at];
		uint64_t c = (n - 1) / p - (d - 1 + p - 1) / p + 1;

		right = right &&
		        x->method == (uint32_t)(pattern[(p - (d - 1) % p) % p] -
		                                'a') &&
		        x->depth == d && x->calls == c &&
		        x->incl[CLOCK_WALL] == 2 * c + 4 &&
		        x->incl[CLOCK_CPU] == 2 * c + 4;
		if (callpath_pending_runs(&inv, at) > runs)
			runs = callpath_pending_runs(&inv, at);
		callpath_expand(&inv, at);
		if (inv.nodes[at].first_child == CALL_NONE)
			break;
		right = right &&
		        inv.nodes[inv.nodes[at].first_child].next_sibling ==
		                CALL_NONE;
		at = inv.nodes[at].first_child;
	}
	ok(right && d == n,
	   "period %u, %u deep: a's callers down to depth %u, each with the "
	   "a's below it",
	   p, n, d);
	is_u64(inv.count, (uint64_t)n + p + 1,
	       "period %u, %u deep: walking down made a's chain and nothing "
	       "else",
	       p, n);
	is_u64(runs, 1, "period %u, %u deep: one run a level", p, n);
	callpath_done(&fwd);
	callpath_done(&inv);
	scope_done(&all);
	calltree_free(tree);
}

/*
 * Deep recursions of every kind, against the eager inversion: a thread
 * recursing depth deep through the methods of pattern in turn ("a" a
 * direct recursion, "ab" a->b->a->b..., "aab", ...), entered from
 * `under` (a method index, or -1 for none), each frame calling the leaf
 * e first when its level is a multiple of leaf_every (0: never); times
 * grow by random steps.  The bottom-up tree is walked from a down its
 * callers with most calls (those that have callers: a recursion's way
 * down), each node made compared with the
 * eager tree's node of the same path, then expanded whole in a random
 * order and compared with it.
 */
struct recursion {
	unsigned thread;
	const char *pattern;
	unsigned depth, leaf_every;
	int under;
	/* From level tail_at on, tail's methods in turn instead. */
	const char *tail;
	unsigned tail_at;
};

/* The method of r's frame at level i. */
static uint32_t
recursion_method(const struct recursion *r, unsigned i)
{
	const char *p = r->pattern;

	if (r->tail && i >= r->tail_at) {
		i -= r->tail_at;
		p = r->tail;
	}
	return 0x10 * (uint32_t)(p[i % strlen(p)] - 'a' + 1);
}

static void
emit_recursion(const struct trace_sink *s, const struct recursion *r,
               uint64_t *t)
{
	unsigned i;

	if (r->under >= 0) {
		*t += 1 + below(3);
		s->event(s->ctx, r->thread, 0x10 * (uint32_t)(r->under + 1),
		         TRACE_ENTER, *t, 2 * *t);
	}
	for (i = 0; i < r->depth; i++) {
		uint32_t m = recursion_method(r, i);

		*t += 1 + below(3);
		s->event(s->ctx, r->thread, m, TRACE_ENTER, *t, 2 * *t);
		if (r->leaf_every && i % r->leaf_every == 0) {
			*t += 1 + below(3);
			s->event(s->ctx, r->thread, 0x50, TRACE_ENTER, *t,
			         2 * *t);
			*t += 1 + below(5);
			s->event(s->ctx, r->thread, 0x50, TRACE_EXIT, *t,
			         2 * *t);
		}
	}
	for (i = r->depth; i-- > 0;) {
		uint32_t m = recursion_method(r, i);

		*t += 1 + below(3);
		s->event(s->ctx, r->thread, m, TRACE_EXIT, *t, 2 * *t);
	}
	if (r->under >= 0) {
		*t += 1 + below(3);
		s->event(s->ctx, r->thread, 0x10 * (uint32_t)(r->under + 1),
		         TRACE_EXIT, *t, 2 * *t);
	}
}

/* The child of eager node e named like lazy node x, or CALL_NONE. */
static uint32_t
eager_child(const struct callpath *eager, uint32_t e,
            const struct callpath_node *x)
{
	uint32_t ch;

	for (ch = eager->nodes[e].first_child; ch != CALL_NONE;
	     ch = eager->nodes[ch].next_sibling)
		if (eager->nodes[ch].method == x->method &&
		    eager->nodes[ch].thread == x->thread)
			return ch;
	return CALL_NONE;
}

static void
check_recursions(const char *what, const struct recursion *rs, size_t n,
                 uint64_t seed)
{
	struct calltree_builder *b;
	const struct trace_sink *s = begin(&b);
	struct calltree *tree;
	struct scope all;
	struct callpath fwd, inv, eager;
	uint64_t t = 0;
	uint32_t at, e, levels = 0, made, runs = 0;
	bool right = true;
	size_t i;
	int k;

	rng_state = seed;
	for (i = 0; i < n; i++)
		emit_recursion(s, &rs[i], &t);
	tree = calltree_builder_finish(b);
	scope_init_all(&all, tree);
	callpath_build(&fwd, tree, &all, seed % 2 == 0);
	invert_eager(&eager, &fwd);
	callpath_sort(&eager, CLOCK_WALL);
	callpath_invert(&inv, &fwd);
	callpath_sort(&inv, CLOCK_WALL);
	/* Down the first method's deepest callers. */
	at = inv.nodes[0].first_child;
	while (at != CALL_NONE && inv.nodes[at].method != 0)
		at = inv.nodes[at].next_sibling;
	e = 0;
	while (at != CALL_NONE) {
		uint32_t ch, next = CALL_NONE;

		e = eager_child(&eager, e, &inv.nodes[at]);
		right = right && e != CALL_NONE &&
		        inv.nodes[at].calls == eager.nodes[e].calls &&
		        inv.nodes[at].depth == eager.nodes[e].depth &&
		        !memcmp(inv.nodes[at].incl, eager.nodes[e].incl,
		                sizeof(inv.nodes[at].incl));
		for (k = 0; right && k < CLOCK_COUNT; k++)
			right = callpath_excl(&inv, at, k) ==
			        callpath_excl(&eager, e, k);
		if (!right)
			break;
		runs += callpath_pending_runs(&inv, at);
		callpath_expand(&inv, at);
		levels++;
		/* The caller with most calls, among those called. */
		for (ch = inv.nodes[at].first_child; ch != CALL_NONE;
		     ch = inv.nodes[ch].next_sibling)
			if (callpath_has_children(&inv, ch) &&
			    (next == CALL_NONE ||
			     inv.nodes[ch].calls > inv.nodes[next].calls))
				next = ch;
		at = next;
	}
	made = (uint32_t)inv.count;
	ok(right && levels >= rs[0].depth / 2,
	   "%s: %u levels walked down, each as the eager tree's", what, levels);
	ok(made < eager.count || eager.count < 3 * levels,
	   "%s: the walk made %u of the %zu nodes", what, made, eager.count);
	ok(runs <= 3 * levels,
	   "%s: %u runs expanded on the way, at most 3 a level", what, runs);
	expand_randomly(&inv, seed);
	callpath_sort(&inv, CLOCK_CPU);
	callpath_sort(&eager, CLOCK_CPU);
	ok(inv.count == eager.count && invert_same(&inv, &eager),
	   "%s: expanded in a random order, the eager tree (%zu nodes)", what,
	   eager.count);
	callpath_done(&fwd);
	callpath_done(&inv);
	callpath_done(&eager);
	scope_done(&all);
	calltree_free(tree);
}

static void
test_recursions(void)
{
	static const struct recursion direct[] = {
	        {1, "a", 1500, 0, -1, NULL, 0}};
	static const struct recursion leaves[] = {
	        {1, "a", 1200, 7, 2, NULL, 0}};
	static const struct recursion indirect[] = {
	        {1, "ab", 1200, 0, -1, NULL, 0}};
	static const struct recursion three[] = {
	        {1, "abc", 900, 5, 3, NULL, 0}};
	static const struct recursion uneven[] = {
	        {1, "aab", 900, 0, 3, NULL, 0}};
	static const struct recursion mixed[] = {
	        {1, "a", 800, 0, -1, NULL, 0},  {1, "a", 300, 4, 1, NULL, 0},
	        {2, "ab", 600, 0, 2, NULL, 0},  {1, "ba", 500, 9, -1, NULL, 0},
	        {3, "a", 700, 0, 3, NULL, 0},   {2, "a", 200, 0, -1, NULL, 0},
	        {3, "acab", 400, 3, 1, NULL, 0}};
	static const struct recursion five[] = {
	        {1, "abcde", 1000, 0, -1, NULL, 0}};
	static const struct recursion twice[] = {
	        {1, "abac", 1200, 0, -1, NULL, 0}};
	static const struct recursion five2[] = {
	        {1, "abacd", 1000, 7, 2, NULL, 0}};
	static const struct recursion changed[] = {
	        {1, "ab", 700, 0, -1, "abc", 350}};
	static const struct recursion slipped[] = {
	        {1, "ab", 701, 0, -1, "ab", 351}};
	static const struct recursion periods[] = {
	        {1, "ab", 900, 0, -1, NULL, 0},
	        {2, "abc", 900, 0, -1, NULL, 0}};
	static const struct recursion under[] = {
	        {1, "ab", 900, 0, 3, NULL, 0},
	        {1, "abc", 900, 0, 3, NULL, 0},
	        {2, "ab", 700, 6, -1, NULL, 0}};

	check_recursions("direct recursion", direct, 1, 1);
	/* By thread: the mixed case in make check, each in check-long. */
	if (tap_long())
		check_recursions("direct, by thread", direct, 1, 2);
	check_recursions("direct, under c, leaves", leaves, 1, 3);
	check_recursions("indirect a->b->a", indirect, 1, 5);
	if (tap_long())
		check_recursions("indirect, by thread", indirect, 1, 6);
	check_recursions("a->b->c->a, leaves", three, 1, 7);
	check_recursions("a->a->b->a", uneven, 1, 9);
	check_recursions("mixed callers and threads", mixed,
	                 sizeof(mixed) / sizeof(mixed[0]), 11);
	check_recursions("mixed, by thread", mixed,
	                 sizeof(mixed) / sizeof(mixed[0]), 12);
	check_recursions("period 5", five, 1, 13);
	check_recursions("a->b->a->c->a", twice, 1, 15);
	check_recursions("period 5, a twice, leaves", five2, 1, 17);
	check_recursions("period 2 then 3", changed, 1, 19);
	check_recursions("period 2 slipped by one", slipped, 1, 21);
	check_recursions("periods 2 and 3 in two threads merged", periods, 2,
	                 23);
	if (tap_long())
		check_recursions("periods 2 and 3, by thread", periods, 2, 24);
	check_recursions("periods 2 and 3 under d, merged", under, 3, 25);
}

/* Expand every node of p, picking the next one at random among those
 * made, until none is left. */
static void
expand_randomly(struct callpath *p, uint64_t seed)
{
	uint32_t *todo = NULL;
	size_t n = 0, cap = 0, seen = 1, i;

	rng_state = seed;
	UTIL_GROW(todo, cap, 1);
	todo[n++] = 0;
	while (n) {
		i = (size_t)below(n);
		callpath_expand(p, todo[i]);
		todo[i] = todo[--n];
		for (; seen < p->count; seen++) {
			UTIL_GROW(todo, cap, n + 1);
			todo[n++] = (uint32_t)seen;
		}
	}
	free(todo);
}

int
main(void)
{
	/* make check: a few seeds of each kind (both scopes, every
	 * depth bound, the deepest stack), the periods less deep;
	 * check-long: all of them. */
	bool all = tap_long();
	uint64_t seed;

	test_by_hand();
	test_empty();
	test_lazy_chain(3000);
	test_lazy_chain(40000);
	/* The periods 3001 deep (check-long: 40000 or so, as the chain
	 * above, whose 40000 make check keeps). */
	test_lazy_period("ab", all ? 40001 : 3001);
	test_lazy_period("abc", all ? 40000 : 3001);
	test_lazy_period("abcde", all ? 40001 : 3001);
	test_recursions();
	for (seed = 1; seed <= (all ? 40 : 6); seed++)
		check_random(seed, 20 + (unsigned)(seed * 7 % 180),
		             seed % 2 == 0);
	for (seed = 1; seed <= (all ? 24 : 3); seed++)
		check_deep(1000 + seed, 200 + (unsigned)(seed * 97 % 3000),
		           4 + (unsigned)(seed * 5 % (MAX_STACK - 3)),
		           seed % 3 == 0);
	for (seed = 1; seed <= 6; seed++)
		if (all || seed == 1 || seed == 6)
			check_pieces(2000 + seed,
			             300 + (unsigned)(seed * 211 % 2000),
			             seed == 6 ? MAX_STACK
			                       : 2 + (unsigned)seed * 3);
	/* Three batches and a part; check-long: of 65,536 threads. */
	if (!all)
		callpath_merge_batch_threads = 512;
	check_merged_batches(all ? 150000 : 1700, 20);
	check_merged_batches(all ? 150000 : 1700, 48);
	callpath_merge_batch_threads = 1 << 16;
	check_merged_batches(1000, 1);
	return done_testing();
}
