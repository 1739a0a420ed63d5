/*
 * callers: the Bottom Up tree made from the top-down tree a level at a
 * time.  Node b keeps pairs (n, a): a top-down node n of b's method and
 * n's ancestor a whose method is the last of b's path (n itself at a
 * root).  Expanding b groups its pairs by the method of a's parent: a
 * child per caller, its pairs (n, parent of a).  A child's total adds n's
 * inclusive time unless an ancestor of n is among its pairs too (a
 * recursive call inside an outer one of the same path), which only a
 * node n nested in its own method can be.
 */
#include "config.h"

#include "query/callers.h"

#include "util/alloc.h"
#include "util/map.h"

#include <stdlib.h>
#include <string.h>

struct pairs {
	uint32_t *n, *a;
	size_t count, cap;
	bool made; /* the children are made (the pairs went to them) */
	bool any;  /* some a has a caller: there are children to make */
};

struct callers {
	const struct callpath *top;
	uint64_t (*excl)[CLOCK_COUNT]; /* per top-down node */
	bool *nested;                  /* has an ancestor of its method */
	uint64_t (*self)[CLOCK_COUNT]; /* per node of out */
	struct pairs *pairs;           /* per node of out */
	size_t cap;                    /* of out->nodes, self and pairs */
	size_t count;                  /* nodes made */
	/* Scratch per top-down node: the child that node n went to while
	 * one node is expanded (CALL_NONE: none). */
	uint32_t *in;
};

/* Whether top-down node a has a caller that is a method. */
static bool
has_caller(const struct callpath *top, uint32_t a)
{
	uint32_t p = top->nodes[a].parent;

	return p != CALL_NONE && p != 0 && callpath_is_method(&top->nodes[p]);
}

/* A new node of out under parent, of method m, at depth. */
static uint32_t
add_node(struct callers *c, struct callpath *out, uint32_t parent, uint32_t m)
{
	uint32_t id = (uint32_t)out->count;
	struct callpath_node *x;

	if (out->count + 1 > c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;

		out->nodes =
		        xreallocarray(out->nodes, cap, sizeof(*out->nodes));
		c->self = xreallocarray(c->self, cap, sizeof(*c->self));
		c->pairs = xreallocarray(c->pairs, cap, sizeof(*c->pairs));
		c->cap = cap;
	}
	x = &out->nodes[id];
	memset(x, 0, sizeof(*x));
	x->method = m;
	x->parent = parent;
	x->first_child = CALL_NONE;
	x->next_sibling = CALL_NONE;
	x->depth = parent == CALL_NONE ? 0 : out->nodes[parent].depth + 1;
	memset(c->self[id], 0, sizeof(c->self[id]));
	memset(&c->pairs[id], 0, sizeof(c->pairs[id]));
	out->count++;
	c->count = out->count;
	if (parent != CALL_NONE) {
		/* First: the views order children themselves. */
		x->next_sibling = out->nodes[parent].first_child;
		out->nodes[parent].first_child = id;
	}
	return id;
}

static void
pair_add(struct pairs *p, uint32_t n, uint32_t a)
{
	if (p->count + 1 > p->cap) {
		p->cap = p->cap ? 2 * p->cap : 4;
		p->n = xreallocarray(p->n, p->cap, sizeof(*p->n));
		p->a = xreallocarray(p->a, p->cap, sizeof(*p->a));
	}
	p->n[p->count] = n;
	p->a[p->count] = a;
	p->count++;
}

/* Whether pair i of node b is outermost: no ancestor of its n is among
 * b's pairs (marked in c->in as b). */
static bool
outermost(const struct callers *c, uint32_t b, uint32_t n)
{
	const struct callpath *top = c->top;
	uint32_t x;

	if (!c->nested[n])
		return true;
	for (x = top->nodes[n].parent; x != CALL_NONE && x != 0;
	     x = top->nodes[x].parent)
		if (c->in[x] == b)
			return false;
	return true;
}

/* Sum node b's pairs into its totals, self times and calls. */
static void
settle(struct callers *c, struct callpath *out, uint32_t b)
{
	const struct callpath *top = c->top;
	struct pairs *p = &c->pairs[b];
	struct callpath_node *x = &out->nodes[b];
	size_t i;
	int k;

	for (i = 0; i < p->count; i++)
		c->in[p->n[i]] = b;
	for (i = 0; i < p->count; i++) {
		uint32_t n = p->n[i];

		for (k = 0; k < CLOCK_COUNT; k++)
			c->self[b][k] += c->excl[n][k];
		if (has_caller(top, p->a[i]))
			p->any = true;
		if (!outermost(c, b, n))
			continue;
		for (k = 0; k < CLOCK_COUNT; k++)
			x->incl[k] += top->nodes[n].incl[k];
		x->calls += top->nodes[n].calls;
	}
	for (i = 0; i < p->count; i++)
		c->in[p->n[i]] = CALL_NONE;
}

/* Mark which top-down nodes sit inside a node of their own method: a
 * walk down the tree counting the open nodes of each method. */
static void
mark_nested(struct callers *c, const struct callpath *top, uint32_t nmethods)
{
	uint32_t *open = xcalloc((size_t)nmethods + 1, sizeof(*open));
	uint32_t *stack = xcalloc(top->count + 1, sizeof(*stack));
	size_t depth = 0;
	uint32_t n = top->count ? top->nodes[0].first_child : CALL_NONE;

	while (n != CALL_NONE) {
		const struct callpath_node *x = &top->nodes[n];

		if (callpath_is_method(x)) {
			c->nested[n] = open[x->method] > 0;
			open[x->method]++;
		}
		if (x->first_child != CALL_NONE) {
			stack[depth++] = n;
			n = x->first_child;
			continue;
		}
		/* Leave n and every ancestor that has no next sibling. */
		for (;;) {
			if (callpath_is_method(&top->nodes[n]))
				open[top->nodes[n].method]--;
			if (top->nodes[n].next_sibling != CALL_NONE) {
				n = top->nodes[n].next_sibling;
				break;
			}
			if (!depth) {
				n = CALL_NONE;
				break;
			}
			n = stack[--depth];
		}
	}
	free(open);
	free(stack);
}

struct callers *
callers_new(struct callpath *out, const struct callpath *top)
{
	struct callers *c = xcalloc(1, sizeof(*c));
	uint32_t nmethods = 0, n, ch, *root_of;
	int k;

	memset(out, 0, sizeof(*out));
	c->top = top;
	c->excl = xcalloc(top->count + 1, sizeof(*c->excl));
	c->nested = xcalloc(top->count + 1, sizeof(*c->nested));
	c->in = xcalloc(top->count + 1, sizeof(*c->in));
	for (n = 0; n < top->count; n++) {
		c->in[n] = CALL_NONE;
		for (k = 0; k < CLOCK_COUNT; k++)
			c->excl[n][k] = top->nodes[n].incl[k];
		if (n)
			for (k = 0; k < CLOCK_COUNT; k++)
				c->excl[top->nodes[n].parent][k] -=
				        top->nodes[n].incl[k];
		if (callpath_is_method(&top->nodes[n]) &&
		    top->nodes[n].method + 1 > nmethods)
			nmethods = top->nodes[n].method + 1;
	}
	mark_nested(c, top, nmethods);
	add_node(c, out, CALL_NONE, CALL_NONE);
	memcpy(out->nodes[0].incl, top->nodes[0].incl,
	       sizeof(out->nodes[0].incl));
	/* A root per method (and one for the time outside any method), in
	 * the order the top-down tree first names them. */
	root_of = xcalloc((size_t)nmethods + 2, sizeof(*root_of));
	for (n = 1; n < top->count; n++) {
		uint32_t m = top->nodes[n].method, slot;

		if (!callpath_is_method(&top->nodes[n]) &&
		    m != CALLPATH_OUTSIDE)
			continue;
		slot = m == CALLPATH_OUTSIDE ? nmethods : m;
		if (!root_of[slot])
			root_of[slot] = add_node(c, out, 0, m);
		pair_add(&c->pairs[root_of[slot]], n, n);
	}
	c->pairs[0].made = true;
	for (ch = out->nodes[0].first_child; ch != CALL_NONE;
	     ch = out->nodes[ch].next_sibling)
		settle(c, out, ch);
	free(root_of);
	return c;
}

bool
callers_has_children(const struct callers *c, const struct callpath *out,
                     uint32_t n)
{
	return out->nodes[n].first_child != CALL_NONE ||
	       (!c->pairs[n].made && c->pairs[n].any);
}

void
callers_expand(struct callers *c, struct callpath *out, uint32_t b)
{
	const struct callpath *top = c->top;
	struct util_map child; /* caller's method -> child node */
	struct pairs p;
	uint32_t ch, last = CALL_NONE, id = 0;
	size_t i;

	if (c->pairs[b].made)
		return;
	p = c->pairs[b];
	memset(&c->pairs[b], 0, sizeof(c->pairs[b]));
	c->pairs[b].made = true;
	util_map_init(&child);
	for (i = 0; i < p.count; i++) {
		uint32_t a = p.a[i], up, m;

		if (!has_caller(top, a))
			continue;
		up = top->nodes[a].parent;
		m = top->nodes[up].method;
		/* Runs of one caller are the rule (a recursion): the map
		 * is asked when the caller changes. */
		if (m != last) {
			if (!util_map_get(&child, m, &id)) {
				id = add_node(c, out, b, m);
				util_map_put(&child, m, id);
			}
			last = m;
		}
		pair_add(&c->pairs[id], p.n[i], up);
	}
	for (ch = out->nodes[b].first_child; ch != CALL_NONE;
	     ch = out->nodes[ch].next_sibling)
		settle(c, out, ch);
	util_map_done(&child);
	free(p.n);
	free(p.a);
}

uint64_t
callers_self(const struct callers *c, uint32_t n, enum clock_index k)
{
	return c->self[n][k];
}

void
callers_free(struct callers *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->count; i++) {
		free(c->pairs[i].n);
		free(c->pairs[i].a);
	}
	free(c->excl);
	free(c->nested);
	free(c->in);
	free(c->self);
	free(c->pairs);
	free(c);
}
