/*
 * calltree: the scope's calls merged by call path, as an indented tree
 * with Incl %, Incl, Excl and Calls on the main clock (a pprof profile:
 * Total %, Total and Self in its sample type's unit, no Calls): top-down
 * (callees under their callers) or bottom-up (`b`: the methods where
 * time was spent at the top level, their callers under them).  The root is the
 * scope's total; percentages are of the scope's total as in `report`, but
 * for a caller's in the bottom-up tree: its share of the method it leads
 * to (the top-level row above it), on each clock shown, as the profile's
 * Parents give it.
 *
 * The trees are query/callpath's, as the icicle reads them: top-down is
 * the merge of the scope's threads' own trees (shared through the app),
 * or a walk of the calls within a range; bottom-up is its inversion,
 * whose roots are made by a warmup job as soon as the top-down tree is
 * (without a range) and taken when `b` wants it; a node's callers are
 * made when it opens (callpath_expand), so a deep recursion costs the
 * rows opened.
 * Rows are materialised only for expanded nodes, so the first screen of
 * a large trace costs its top level; `E` stops after EXPAND_LIMIT new
 * rows.  Children are sorted by the sort column when a node is expanded.
 *
 * The selection is a method: moving selects the row's method, and a
 * method selected elsewhere is shown here with every path to it opened
 * (top-down, heaviest first, within EXPAND_LIMIT rows) or as its own
 * top-level row with its callers (bottom-up).  A new search pattern
 * opens the paths to its matches the same way; n and N then go from
 * row to row.
 */
#include "config.h"

#include "query/callers.h"
#include "query/callpath.h"
#include "query/method-name.h"
#include "query/quantity.h"
#include "text/duration.h"
#include "tui/app.h"
#include "tui/columns.h"
#include "tui/list.h"
#include "util/alloc.h"
#include "util/sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TOP_DOWN, BOTTOM_UP };

/* At most this many rows are added by `E` or by showing a method. */
enum { EXPAND_LIMIT = 10000 };

/* The deepest top-down tree whose bottom-up tree is Studio's (totals
 * and self times); deeper, the inversion of self times. */
enum { CALLERS_DEPTH = 2048 };

/* `e` goes down while the heaviest child has this share of its parent's
 * time, in percent: below it, the time splits. */
enum { HOT_SHARE = 80 };

/* The _OTHER columns are the other clock's, shown with both (c c); the
 * other clock's share only bottom-up, where a caller's share of the
 * method differs from clock to clock. */
enum tree_column {
	TCOL_INCL_PCT,
	TCOL_INCL,
	TCOL_PCT_OTHER,
	TCOL_INCL_OTHER,
	TCOL_EXCL,
	TCOL_EXCL_OTHER,
	TCOL_CALLS,
	TCOL_NAME,
	TCOL_COUNT,
};

/* Which columns give way first when the width is short: the lower,
 * the sooner (the sort column never does); the share on the main clock
 * (the sorted one but after c c s) last, since a caller's share is what
 * the bottom-up tree answers. */
static const int priorities[TCOL_COUNT] = {10, 9, 7, 6, 4, 3, 2, COLUMN_KEEP};
/* The fewest columns the name column (guides, mark and name) takes. */
enum { NAME_MIN = 24 };
/* A column of times switches to seconds where milliseconds would take
 * more than this. */
enum { MS_WIDTH = 9 };

struct tree_row {
	uint32_t node;
	uint32_t depth; /* 0 for the root */
	bool last;      /* the last of its siblings as shown */
};

/* A scope's trees and which of their nodes are open. */
struct scope_trees {
	struct callpath trees[2]; /* top-down, bottom-up */
	bool built[2];
	bool *open[2];           /* per node of each tree: expanded */
	size_t open_cap[2];      /* their lengths */
	struct warmup_job *job;  /* building the bottom-up tree meanwhile */
	struct callers *callers; /* what makes the bottom-up tree */
};

struct calltree_view {
	const struct calltree *tree;
	struct scope_trees cur; /* the scope's */
	/* The whole trace's, kept while another scope is shown: coming
	 * back to it costs no merge, and its nodes stay open. */
	struct scope_trees whole;
	bool whole_scope; /* the scope is the whole trace */
	int mode;

	/* The scope the trees are for. */
	struct scope seen;

	enum clock_index clock; /* rows are sorted and drawn for */
	bool both;              /* the other clock's columns too */
	enum tree_column sort;
	bool ascending;

	struct tree_row *rows;
	size_t nrows, cap;
	struct list list; /* over rows */
	bool rows_stale;  /* rebuild from the open flags */

	unsigned sel_serial; /* the app's selection as last seen */
	bool refollow;       /* show the app's selection at the next draw */
	uint32_t *path;      /* the cursor's call path, for the app */
	size_t npath, path_cap;
	/* The columns as the last draw laid them out. */
	struct column lay[TCOL_COUNT];
	/* By column, whether the times in view need seconds. */
	bool seconds[TCOL_COUNT];
	unsigned search_serial; /* the pattern whose matches were opened */
	char note[160];         /* the status line until the next request */
	/* The methods the filter keeps. */
	struct list_methods kept;
};

static const struct callpath *
path_of(const struct calltree_view *v)
{
	return &v->cur.trees[v->mode];
}

/* Whether the bottom-up tree shown is the inversion of self times (a
 * tree deeper than CALLERS_DEPTH), not Studio's. */
static bool
self_inversion(const struct calltree_view *v)
{
	return v->mode == BOTTOM_UP && v->cur.built[BOTTOM_UP] &&
	       !v->cur.callers;
}

/* The clock of the _OTHER columns. */
static enum clock_index
other_clock(const struct calltree_view *v)
{
	return v->clock == CLOCK_WALL ? CLOCK_CPU : CLOCK_WALL;
}

/* Node n's exclusive (top-down) or self (bottom-up) time on clock k. */
static uint64_t
excl_of(const struct calltree_view *v, uint32_t n, enum clock_index k)
{
	if (v->mode == BOTTOM_UP && v->cur.callers)
		return callers_self(v->cur.callers, n, k);
	return callpath_excl(path_of(v), n, k);
}

static uint64_t
column_value(const struct calltree_view *v, uint32_t n, enum tree_column c)
{
	const struct callpath *p = path_of(v);

	switch (c) {
	case TCOL_EXCL:
		return excl_of(v, n, v->clock);
	case TCOL_EXCL_OTHER:
		return excl_of(v, n, other_clock(v));
	case TCOL_INCL_OTHER:
	case TCOL_PCT_OTHER:
		return p->nodes[n].incl[other_clock(v)];
	case TCOL_CALLS:
		/* A simpleperf recording's cpu clock counts its samples,
		 * sample_weight each: they take the place of calls. */
		if (v->tree && v->tree->header.sample_weight)
			return p->nodes[n].incl[CLOCK_CPU] /
			       v->tree->header.sample_weight;
		return p->nodes[n].calls;
	default:
		return p->nodes[n].incl[v->clock];
	}
}

/* What node n's share on clock k is of: the method it leads to for a
 * caller in the bottom-up tree (its ancestor at depth 1), else the
 * scope's total. */
static uint64_t
share_of(const struct calltree_view *v, const struct app *app, uint32_t n,
         enum clock_index k)
{
	const struct callpath *p = path_of(v);

	if (v->mode != BOTTOM_UP || p->nodes[n].depth < 2)
		return app->profile.total[k];
	while (p->nodes[n].depth > 1)
		n = p->nodes[n].parent;
	return p->nodes[n].incl[k];
}

/* Whether the trace is a pprof profile: its values are a total and a
 * self in the sample type's unit, and its calls only runs of samples
 * laid end to end (read/stacks.h), not worth a column. */
static bool
is_profile(const struct calltree_view *v)
{
	/* A profile's values (pprof's, hprof's sample counts) are a total
	 * and a self, not times on a clock, and it has no calls. */
	return v->tree && calltree_is_profile(v->tree);
}

/* Whether column c is one of the mode's: the other clock's only with
 * both clocks, no calls in a profile, no exclusive time in the
 * inversion of self times.  Which of them fit is the layout's
 * (lay_out). */
static bool
shown(const struct calltree_view *v, enum tree_column c)
{
	/* The inversion of self times has no exclusive time. */
	if ((c == TCOL_EXCL || c == TCOL_EXCL_OTHER) && self_inversion(v))
		return false;
	switch (c) {
	case TCOL_INCL_OTHER:
	case TCOL_EXCL_OTHER:
		return v->both;
	case TCOL_PCT_OTHER:
		return v->both && v->mode == BOTTOM_UP;
	case TCOL_CALLS:
		return !is_profile(v);
	default:
		return true;
	}
}

static bool
has_children(const struct calltree_view *v, uint32_t n)
{
	if (v->mode == BOTTOM_UP && v->cur.callers)
		return callers_has_children(v->cur.callers, path_of(v), n);
	return callpath_has_children(path_of(v), n);
}

/* Make node n's children (a bottom-up tree makes them when asked), each
 * closed. */
static void
make_children(struct calltree_view *v, uint32_t n)
{
	struct callpath *p = &v->cur.trees[v->mode];
	size_t had = v->cur.open_cap[v->mode];

	if (v->mode == BOTTOM_UP && v->cur.callers)
		callers_expand(v->cur.callers, p, n);
	else
		callpath_expand(p, n);
	if (p->count + 1 <= had)
		return;
	v->cur.open_cap[v->mode] =
	        2 * had > p->count + 1 ? 2 * had : p->count + 1;
	v->cur.open[v->mode] =
	        xreallocarray(v->cur.open[v->mode], v->cur.open_cap[v->mode],
	                      sizeof(*v->cur.open[v->mode]));
	memset(v->cur.open[v->mode] + had, 0,
	       (v->cur.open_cap[v->mode] - had) *
	               sizeof(*v->cur.open[v->mode]));
}

/* ---- the scope's trees ------------------------------------------------- */

static bool
scope_differs(const struct calltree_view *v, const struct scope *s)
{
	return !scope_equal(&v->seen, s);
}

static void
remember_scope(struct calltree_view *v, const struct scope *s)
{
	scope_copy(&v->seen, s);
	v->whole_scope = scope_is_all(s) && !s->range.on;
}

/* Release st's trees and their job; st is left empty. */
static void
trees_drop(struct scope_trees *st)
{
	int t;

	if (st->job) {
		warmup_job_abandon(st->job);
		warmup_job_free(st->job);
	}
	for (t = 0; t < 2; t++) {
		if (st->built[t])
			callpath_done(&st->trees[t]);
		free(st->open[t]);
	}
	callers_free(st->callers);
	memset(st, 0, sizeof(*st));
}

/* The scope changed to s: the whole trace's trees go aside, another
 * scope's go, and the whole trace's come back when it is s. */
static void
change_scope(struct calltree_view *v, const struct scope *s)
{
	if (v->whole_scope) {
		trees_drop(&v->whole);
		v->whole = v->cur;
		memset(&v->cur, 0, sizeof(v->cur));
	} else {
		trees_drop(&v->cur);
	}
	remember_scope(v, s);
	if (v->whole_scope) {
		v->cur = v->whole;
		memset(&v->whole, 0, sizeof(v->whole));
	}
	v->nrows = 0;
	list_set_count(&v->list, 0);
}

/* The depth of the deepest node of p. */
static uint32_t
max_depth(const struct callpath *p)
{
	uint32_t d = 0;
	size_t i;

	for (i = 0; i < p->count; i++)
		if (p->nodes[i].depth > d)
			d = p->nodes[i].depth;
	return d;
}

/* Build the tree of mode t for the app's scope. */
static void
build(struct calltree_view *v, struct app *app, int t)
{
	struct callpath *parts;
	size_t n;

	if (t == BOTTOM_UP) {
		/* Studio's Bottom Up, made from the top-down tree a level at
		 * a time (query/callers.h); walking a recursion of depth d
		 * down costs it d^2/2 steps, so a deeper tree gets the
		 * inversion of self times, n log n (callpath_invert). */
		if (!v->cur.built[TOP_DOWN])
			build(v, app, TOP_DOWN);
		if (max_depth(&v->cur.trees[TOP_DOWN]) <= CALLERS_DEPTH)
			v->cur.callers = callers_new(&v->cur.trees[BOTTOM_UP],
			                             &v->cur.trees[TOP_DOWN]);
		else
			callpath_invert(&v->cur.trees[BOTTOM_UP],
			                &v->cur.trees[TOP_DOWN]);
	} else if (app->scope.range.on) {
		callpath_build_whole(&v->cur.trees[TOP_DOWN], app->tree,
		                     &app->scope, false);
	} else {
		parts = app_scope_parts(app, &n);
		callpath_merge(&v->cur.trees[TOP_DOWN], parts, n);
		free(parts);
	}
	v->cur.built[t] = true;
	v->cur.open_cap[t] = v->cur.trees[t].count + 1;
	v->cur.open[t] = xcalloc(v->cur.open_cap[t], sizeof(*v->cur.open[t]));
	v->cur.open[t][0] = true;
}

/* ---- rows -------------------------------------------------------------- */

struct sort_ctx {
	const struct calltree_view *v;
};

static int
node_cmp(const void *a, const void *b, void *arg)
{
	const struct calltree_view *v = ((const struct sort_ctx *)arg)->v;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int r = 0;

	if (v->sort == TCOL_NAME) {
		uint32_t mx = path_of(v)->nodes[x].method;
		uint32_t my = path_of(v)->nodes[y].method;

		if (mx < CALLPATH_OUTSIDE && my < CALLPATH_OUTSIDE) {
			char *nx = method_full_name(&v->tree->methods[mx]);
			char *ny = method_full_name(&v->tree->methods[my]);

			r = strcmp(nx, ny);
			free(nx);
			free(ny);
		} else {
			r = (mx < CALLPATH_OUTSIDE) - (my < CALLPATH_OUTSIDE);
		}
		return v->ascending ? r : -r;
	} else {
		uint64_t vx = column_value(v, x, v->sort);
		uint64_t vy = column_value(v, y, v->sort);

		if (vx != vy)
			r = vx > vy ? -1 : 1;
	}
	if (v->ascending)
		r = -r;
	return r ? r : (x < y ? -1 : x > y);
}

/* Node n's children (made now if need be) in the sort order, into a new
 * array of *count. */
static uint32_t *
sorted_children(struct calltree_view *v, uint32_t n, size_t *count)
{
	const struct callpath *p = path_of(v);
	struct sort_ctx ctx = {v};
	uint32_t *kids = NULL, ch;
	size_t cap = 0;

	make_children(v, n);
	*count = 0;
	for (ch = p->nodes[n].first_child; ch != CALL_NONE;
	     ch = p->nodes[ch].next_sibling) {
		UTIL_GROW(kids, cap, *count + 1);
		kids[(*count)++] = ch;
	}
	/* A node without children has no array: kids is NULL. */
	sort_items_r(kids, *count, sizeof(*kids), node_cmp, &ctx);
	return kids;
}

/* Rows being made: appended, then spliced into the view's. */
struct row_vec {
	struct tree_row *rows;
	size_t count, cap;
};

static void
vec_push(struct row_vec *out, uint32_t node, uint32_t depth, bool last)
{
	UTIL_GROW(out->rows, out->cap, out->count + 1);
	out->rows[out->count].node = node;
	out->rows[out->count].depth = depth;
	out->rows[out->count].last = last;
	out->count++;
}

struct frame {
	uint32_t *kids;
	size_t n, i;
	uint32_t depth;
};

/*
 * The rows under node n (at depth) as shown: its children and, under
 * each open one, theirs.  With budget, closed nodes are opened too while
 * fewer than *budget rows were made; *stopped says whether one stayed
 * closed for that.
 */
static void
emit(struct calltree_view *v, uint32_t n, uint32_t depth, struct row_vec *out,
     const size_t *budget, bool *stopped)
{
	struct frame *stack = NULL;
	size_t nstack = 0, cap = 0, start = out->count;
	bool **open = &v->cur.open[v->mode]; /* grows as children are made */

	UTIL_GROW(stack, cap, 1);
	stack[0].kids = sorted_children(v, n, &stack[0].n);
	stack[0].i = 0;
	stack[0].depth = depth + 1;
	nstack = 1;
	while (nstack) {
		struct frame *f = &stack[nstack - 1];
		uint32_t c;

		if (f->i == f->n) {
			free(f->kids);
			nstack--;
			continue;
		}
		c = f->kids[f->i++];
		vec_push(out, c, f->depth, f->i == f->n);
		if (!has_children(v, c))
			continue;
		if (!(*open)[c] && budget) {
			if (out->count - start < *budget)
				(*open)[c] = true;
			else
				*stopped = true;
		}
		if (!(*open)[c])
			continue;
		UTIL_GROW(stack, cap, nstack + 1);
		f = &stack[nstack++];
		f->kids = sorted_children(v, c, &f->n);
		f->i = 0;
		f->depth = stack[nstack - 2].depth + 1;
	}
	free(stack);
}

/* Replace the rows after row r that are deeper than it with out's. */
static void
splice(struct calltree_view *v, size_t r, struct row_vec *out)
{
	size_t end = r + 1, tail;

	while (end < v->nrows && v->rows[end].depth > v->rows[r].depth)
		end++;
	tail = v->nrows - end;
	UTIL_GROW(v->rows, v->cap, r + 1 + out->count + tail);
	memmove(v->rows + r + 1 + out->count, v->rows + end,
	        tail * sizeof(*v->rows));
	if (out->count)
		memcpy(v->rows + r + 1, out->rows,
		       out->count * sizeof(*v->rows));
	v->nrows = r + 1 + out->count + tail;
	list_set_count(&v->list, v->nrows);
	free(out->rows);
}

/* The row of node n, or SIZE_MAX when it is not shown. */
static size_t
row_of(const struct calltree_view *v, uint32_t n)
{
	size_t i;

	for (i = 0; i < v->nrows; i++)
		if (v->rows[i].node == n)
			return i;
	return SIZE_MAX;
}

/* Every row again from the open flags; the cursor stays on its node when
 * it is still shown. */
static void
rebuild_rows(struct calltree_view *v)
{
	uint32_t keep = v->nrows ? v->rows[v->list.cursor].node : 0;
	struct row_vec out = {0};
	size_t at;

	v->nrows = 0;
	UTIL_GROW(v->rows, v->cap, 1);
	v->rows[0].node = 0;
	v->rows[0].depth = 0;
	v->rows[0].last = true;
	v->nrows = 1;
	if (v->cur.open[v->mode][0])
		emit(v, 0, 0, &out, NULL, NULL);
	splice(v, 0, &out);
	at = row_of(v, keep);
	list_select(&v->list, at == SIZE_MAX ? 0 : at);
	v->rows_stale = false;
}

static uint32_t
row_method(const struct calltree_view *v, size_t r)
{
	const struct callpath_node *x =
	        r < v->nrows ? &path_of(v)->nodes[v->rows[r].node] : NULL;

	/* The root and the time outside any method are no method. */
	return x && callpath_is_method(x) ? x->method : CALL_NONE;
}

/* The cursor moved: its method (and top-down, its call path) is the
 * selection now, which the app takes through calltree_selection. */
static void
moved(struct calltree_view *v)
{
	(void)v;
}

static void
expand_row(struct calltree_view *v, size_t r)
{
	struct row_vec out = {0};
	uint32_t n = v->rows[r].node;

	if (!has_children(v, n) || v->cur.open[v->mode][n])
		return;
	v->cur.open[v->mode][n] = true;
	emit(v, n, v->rows[r].depth, &out, NULL, NULL);
	splice(v, r, &out);
}

static void
collapse_row(struct calltree_view *v, size_t r)
{
	struct row_vec out = {0};

	v->cur.open[v->mode][v->rows[r].node] = false;
	splice(v, r, &out);
}

/* Open node n's ancestors; the rows this adds are counted into *rows. */
static void
open_path(struct calltree_view *v, uint32_t n, size_t *rows)
{
	const struct callpath *p = path_of(v);
	bool *open = v->cur.open[v->mode];

	for (n = p->nodes[n].parent; n != CALL_NONE; n = p->nodes[n].parent) {
		uint32_t ch;

		if (open[n])
			continue;
		open[n] = true;
		for (ch = p->nodes[n].first_child; ch != CALL_NONE;
		     ch = p->nodes[ch].next_sibling)
			(*rows)++;
	}
}

static int
incl_desc(const void *a, const void *b, void *arg)
{
	const struct calltree_view *v = arg;
	uint64_t x = path_of(v)->nodes[*(const uint32_t *)a].incl[v->clock];
	uint64_t y = path_of(v)->nodes[*(const uint32_t *)b].incl[v->clock];

	return x > y ? -1 : x < y;
}

/* Open the paths to the n nodes, heaviest first, while fewer than
 * EXPAND_LIMIT rows were added; sorts nodes, and answers how many paths
 * were opened. */
static size_t
open_paths(struct calltree_view *v, uint32_t *nodes, size_t n)
{
	size_t added = 0, shown;

	sort_items_r(nodes, n, sizeof(*nodes), incl_desc, v);
	for (shown = 0; shown < n && added < EXPAND_LIMIT; shown++)
		open_path(v, nodes[shown], &added);
	rebuild_rows(v);
	if (shown < n)
		snprintf(v->note, sizeof(v->note),
		         "%zu of %zu paths opened (limit: %d rows)", shown, n,
		         EXPAND_LIMIT);
	return shown;
}

/*
 * Show method m: top-down, open every path to it (open_paths) and put
 * the cursor on its heaviest node; bottom-up, open its top-level node
 * (its callers).
 */
static void
follow(struct calltree_view *v, uint32_t m)
{
	const struct callpath *p = path_of(v);
	uint32_t *nodes = NULL, i;
	size_t n = 0, cap = 0, at;

	if (m == CALL_NONE)
		return;
	for (i = 1; i < p->count; i++) {
		if (p->nodes[i].method != m ||
		    (v->mode == BOTTOM_UP && p->nodes[i].depth != 1))
			continue;
		UTIL_GROW(nodes, cap, n + 1);
		nodes[n++] = i;
	}
	if (!n)
		return;
	if (v->mode == BOTTOM_UP)
		v->cur.open[BOTTOM_UP][nodes[0]] = true;
	open_paths(v, nodes, n);
	at = row_of(v, nodes[0]);
	if (at != SIZE_MAX)
		list_select(&v->list, at);
	free(nodes);
}

/* The node of the top-down tree on call path path[0..n), or 0. */
static uint32_t
node_on_path(struct calltree_view *v, const uint32_t *path, size_t n)
{
	const struct callpath *p = path_of(v);
	uint32_t at = 0, ch;
	size_t i;

	for (i = 0; i < n; i++) {
		make_children(v, at);
		for (ch = p->nodes[at].first_child; ch != CALL_NONE;
		     ch = p->nodes[ch].next_sibling)
			if (callpath_is_method(&p->nodes[ch]) &&
			    p->nodes[ch].method == path[i])
				break;
		if (ch == CALL_NONE)
			return 0;
		at = ch;
	}
	return at;
}

/* Show the app's selection: top-down, the node on its call path when it
 * has one (the chart's call, the icicle's frame); else its method. */
static void
follow_selection(struct calltree_view *v, const struct selection *sel)
{
	uint32_t n = 0;
	size_t added = 0, at;

	if (v->mode == TOP_DOWN && sel->npath)
		n = node_on_path(v, sel->path, sel->npath);
	if (!n) {
		follow(v, sel->method);
		return;
	}
	open_path(v, n, &added);
	rebuild_rows(v);
	at = row_of(v, n);
	if (at != SIZE_MAX)
		list_select(&v->list, at);
}

/* A new pattern: open the paths to every node whose method matches it
 * (open_paths), so that the search finds them among the rows. */
static void
reveal(struct calltree_view *v, const regex_t *re)
{
	const struct callpath *p = path_of(v);
	uint8_t *known = xcalloc(v->tree->nmethods + 1, sizeof(*known));
	uint32_t *nodes = NULL, i;
	size_t n = 0, cap = 0;

	for (i = 1; i < p->count; i++) {
		uint32_t m = p->nodes[i].method;

		if (!callpath_is_method(&p->nodes[i]))
			continue;
		if (!known[m]) {
			char *name = method_full_name(&v->tree->methods[m]);

			known[m] = regexec(re, name, 0, NULL, 0) == 0 ? 2 : 1;
			free(name);
		}
		if (known[m] != 2)
			continue;
		UTIL_GROW(nodes, cap, n + 1);
		nodes[n++] = i;
	}
	if (n)
		open_paths(v, nodes, n);
	free(nodes);
	free(known);
}

/* Open the hottest path from row r: down the child with the most
 * inclusive time while it carries at least HOT_SHARE percent of its
 * parent's (or is its only child), so the cursor stops where the time
 * splits (or at a leaf); the other children stay closed. */
static void
expand_hot(struct calltree_view *v, size_t r)
{
	const struct callpath *p = path_of(v);
	uint32_t n = v->rows[r].node, ch, best;
	size_t at;

	for (;;) {
		size_t kids = 0;

		best = CALL_NONE;
		make_children(v, n);
		for (ch = p->nodes[n].first_child; ch != CALL_NONE;
		     ch = p->nodes[ch].next_sibling, kids++)
			if (best == CALL_NONE ||
			    p->nodes[ch].incl[v->clock] >
			            p->nodes[best].incl[v->clock])
				best = ch;
		if (best == CALL_NONE)
			break;
		v->cur.open[v->mode][n] = true;
		/* An only child is no split, whatever its share. */
		if (kids > 1 && 100 * p->nodes[best].incl[v->clock] <
		                        HOT_SHARE * p->nodes[n].incl[v->clock])
			break;
		n = best;
	}
	rebuild_rows(v);
	at = row_of(v, n);
	if (at != SIZE_MAX)
		list_select(&v->list, at);
}

/* Open everything under row r, stopping after EXPAND_LIMIT new rows. */
static void
expand_all(struct calltree_view *v, size_t r)
{
	struct row_vec out = {0};
	size_t budget = EXPAND_LIMIT;
	uint32_t n = v->rows[r].node;
	bool stopped = false;

	if (!has_children(v, n))
		return;
	v->cur.open[v->mode][n] = true;
	emit(v, n, v->rows[r].depth, &out, &budget, &stopped);
	splice(v, r, &out);
	if (stopped)
		snprintf(v->note, sizeof(v->note),
		         "stopped at %d rows: E on a deeper row opens more",
		         EXPAND_LIMIT);
}

/* The row of the parent of row r, or r for the root. */
static size_t
parent_row(const struct calltree_view *v, size_t r)
{
	size_t i = r;

	while (i > 0 && v->rows[i].depth >= v->rows[r].depth)
		i--;
	return i;
}

/* ---- drawing ----------------------------------------------------------- */

/* Whether column i holds times (not a profile's sizes or counts). */
static bool
is_time(const struct calltree_view *v, int i)
{
	return i != TCOL_INCL_PCT && i != TCOL_PCT_OTHER && i != TCOL_CALLS &&
	       i != TCOL_NAME && !is_profile(v);
}

/* Column i's title in the view's mode and clock into buf: top-down
 * inclusive and exclusive times, bottom-up (Android Studio's words)
 * total and self times, with their clock when both show and their unit
 * ("Incl ms", "Total Wall s"); a profile's values have no clock. */
static const char *
column_title(const struct calltree_view *v, int i, char *buf, size_t size)
{
	static const char *const titles[2][3][TCOL_COUNT] = {
	        {{"Incl%", "Incl Cpu", "", "Incl Wall", "Excl Cpu", "Excl Wall",
	          "Calls", "Name"},
	         {"Incl%", "Incl Wall", "", "Incl Cpu", "Excl Wall", "Excl Cpu",
	          "Calls", "Name"},
	         {"Total%", "Total", "", "", "Self", "", "", "Name"}},
	        {{"Total%", "Total Cpu", "Wall%", "Total Wall", "Self Cpu",
	          "Self Wall", "Calls", "Name"},
	         {"Total%", "Total Wall", "Cpu%", "Total Cpu", "Self Wall",
	          "Self Cpu", "Calls", "Name"},
	         {"Total%", "Total", "", "", "Self", "", "", "Name"}},
	};
	static const char *const self_only[3][TCOL_COUNT] = {
	        {"Self%", "Self Cpu", "Self Wall%", "Self Wall", "", "",
	         "Calls", "Name"},
	        {"Self%", "Self Wall", "Self Cpu%", "Self Cpu", "", "", "Calls",
	         "Name"},
	        {"Self%", "Self", "", "", "", "", "", "Name"},
	};
	int set = is_profile(v) ? 2 : v->clock == CLOCK_WALL;
	const char *t =
	        self_inversion(v) ? self_only[set][i] : titles[v->mode][set][i];
	size_t word = strcspn(t, " ");

	if (i == TCOL_CALLS && v->tree && v->tree->header.sample_weight)
		t = "Samples";
	if (i == TCOL_INCL_PCT && shown(v, TCOL_PCT_OTHER)) {
		/* Two shares: each names its clock. */
		const char *clock = v->clock == CLOCK_WALL ? "Wall" : "Cpu";

		snprintf(buf, size, "%s%s%%", self_inversion(v) ? "Self " : "",
		         clock);
		return buf;
	}
	if (!is_time(v, i)) {
		snprintf(buf, size, "%s", t);
		return buf;
	}
	/* One clock: the title names it. */
	snprintf(buf, size, "%.*s %s", (int)(v->both ? strlen(t) : word), t,
	         v->seconds[i] ? "s" : "ms");
	return buf;
}

static void
draw_header(struct calltree_view *v, const struct app *app, struct canvas *c,
            int y)
{
	int i;

	canvas_fill(c, 0, y, c->width, " ", ROLE_HEADER);
	for (i = 0; i < TCOL_COUNT; i++) {
		const struct column *col = &v->lay[i];
		char *t, title[48];

		if (!col->shown)
			continue;
		t = xasprintf(
		        "%s%s%s", column_title(v, i, title, sizeof(title)),
		        (int)v->sort == i
		                ? canvas_glyph(c, v->ascending
		                                          ? GLYPH_SORT_UP
		                                          : GLYPH_SORT_DOWN)
		                : "",
		        i != TCOL_NAME        ? ""
		        : v->mode == TOP_DOWN ? "  (top-down)"
		                              : "  (bottom-up: callers below, "
		                                "% of the method)");

		if (i == TCOL_NAME &&
		    (int)text_width(t) > c->width - col->x - 2 &&
		    v->mode == BOTTOM_UP) {
			/* Narrow: the mode without its explanation. */
			char *shorter = xasprintf("%.*s  (bottom-up)",
			                          (int)strcspn(t, " "), t);

			free(t);
			t = shorter;
		}
		if (i == TCOL_NAME)
			canvas_text(c, col->x + 2, y, c->width - col->x - 2, t,
			            ROLE_HEADER);
		else
			canvas_text_right(c, col->x, y, col->width, t,
			                  ROLE_HEADER);
		free(t);
	}
}

/* The guides of a row at depth d into buf: one pair of columns per level
 * above it (a line where that level has siblings to come), then its own
 * branch.  last[l] says whether the row's ancestor at level l is the
 * last of its siblings.  The first skip levels, the same for every row
 * drawn, show as their count ("+38 "), so the lines stay aligned and a
 * deep row keeps room for its name. */
static void
guides(const struct canvas *c, char *buf, size_t size, const bool *last,
       uint32_t d, uint32_t skip)
{
	uint32_t l = skip + 1;
	size_t at = 0;

	buf[0] = '\0';
	if (skip)
		at += (size_t)snprintf(buf + at, size - at, "+%u ", skip);
	for (; l < d && at < size; l++)
		at += (size_t)snprintf(buf + at, size - at, "%s ",
		                       last[l] ? " "
		                               : canvas_glyph(c, GLYPH_VLINE));
	if (d && at < size)
		snprintf(buf + at, size - at, "%s%s",
		         canvas_glyph(c, last[d] ? GLYPH_LAST : GLYPH_BRANCH),
		         canvas_glyph(c, GLYPH_HLINE));
}

/* The text of row r's cell in column i (before the name) into buf. */
static void
cell_text(const struct calltree_view *v, const struct app *app, size_t r, int i,
          char *buf, size_t size)
{
	const struct tree_row *row = &v->rows[r];
	const struct callpath_node *node = &path_of(v)->nodes[row->node];
	enum clock_index k = i == TCOL_PCT_OTHER ? other_clock(v) : v->clock;
	uint64_t total;

	buf[0] = '\0';
	switch (i) {
	case TCOL_INCL_PCT:
	case TCOL_PCT_OTHER:
		total = share_of(v, app, row->node, k);
		snprintf(buf, size, "%.1f%%",
		         total ? 100.0 * (double)node->incl[k] / (double)total
		               : 0.0);
		break;
	case TCOL_CALLS:
		if (row->node)
			snprintf(buf, size, "%llu",
			         (unsigned long long)column_value(v, row->node,
			                                          TCOL_CALLS));
		break;
	default:
		/* A profile's counts and sizes, else times. */
		if (app->tree->header.unit != TRACE_UNIT_US)
			quantity_format(buf, size,
			                column_value(v, row->node, i),
			                app->tree->header.unit, false);
		else if (v->seconds[i])
			duration_s(buf, size, column_value(v, row->node, i));
		else
			duration_ms(buf, size, column_value(v, row->node, i));
		break;
	}
}

/* Row r's name: "all", the outside node's, or the method's full name. */
static char *
row_name(const struct calltree_view *v, const struct app *app, size_t r)
{
	const struct tree_row *row = &v->rows[r];
	const struct callpath_node *node = &path_of(v)->nodes[row->node];

	if (!row->node)
		return xstrdup("all");
	if (!callpath_is_method(node))
		return xstrdup(CALLPATH_OUTSIDE_NAME);
	return method_full_name(&app->tree->methods[node->method]);
}

/* Row r's name as shown: "all", the outside node's, or the method's
 * name as the viewer names it (a new string). */
static char *
row_shown_name(const struct calltree_view *v, const struct app *app, size_t r)
{
	const struct callpath_node *node = &path_of(v)->nodes[v->rows[r].node];

	if (!v->rows[r].node)
		return xstrdup("all");
	if (!callpath_is_method(node))
		return xstrdup(CALLPATH_OUTSIDE_NAME);
	return app_method_name(app, node->method);
}

static void
draw_row(struct calltree_view *v, struct app *app, struct canvas *c, int y,
         size_t r, const bool *last, uint32_t max_levels, uint32_t skip)
{
	const struct callpath *p = path_of(v);
	const struct tree_row *row = &v->rows[r];
	const struct callpath_node *node = &p->nodes[row->node];
	enum role role = ROLE_NORMAL;
	char buf[64], *name, *label, *lines;
	const char *mark;
	int x = 0, i;
	size_t lines_size = (size_t)(max_levels + 4) * 2 * TEXT_GLYPH_MAX;

	for (i = 0; i < TCOL_NAME; i++) {
		if (!v->lay[i].shown)
			continue;
		cell_text(v, app, r, i, buf, sizeof(buf));
		canvas_text_right(c, v->lay[i].x, y, v->lay[i].width, buf,
		                  ROLE_NORMAL);
	}
	x = v->lay[TCOL_NAME].x;
	lines = xcalloc(lines_size, 1);
	/* A row deeper than the levels shown folds more of its own. */
	if (row->depth > skip + max_levels)
		skip = row->depth - max_levels;
	guides(c, lines, lines_size, last, row->depth, skip);
	mark = !has_children(v, row->node) ? " "
	       : v->cur.open[v->mode][row->node]
	               ? canvas_glyph(c, GLYPH_EXPANDED)
	               : canvas_glyph(c, GLYPH_COLLAPSED);
	name = row_shown_name(v, app, r);
	if (app->have_re && callpath_is_method(node) && row->node) {
		/* Searches match the full name, whatever is shown. */
		char *full =
		        method_full_name(&app->tree->methods[node->method]);

		if (regexec(&app->re, full, 0, NULL, 0) == 0)
			role = ROLE_MATCH;
		free(full);
	}
	{
		/* Too long: the start goes, never the method. */
		int room = c->width - x - 3 - (int)text_width(lines) -
		           (int)text_width(mark);
		char *fit = method_cut_left(name, room,
		                            canvas_glyph(c, GLYPH_TRUNCATED));

		free(name);
		name = fit;
	}
	label = xasprintf("%s%s %s", lines, mark, name);
	canvas_text(c, x + 1, y, c->width - x - 1, label, role);
	free(lines);
	free(name);
	free(label);
	if (r == v->list.cursor)
		canvas_set_role(c, 0, y, c->width, ROLE_CURSOR);
}

/* The sort the view opens with (the inclusive time, largest first),
 * for when the one chosen has no column in the tree shown. */
static void
sort_by_default(struct calltree_view *v)
{
	v->sort = TCOL_INCL;
	v->ascending = false;
}

/* Build what the mode needs, sort for the clock, show a method selected
 * elsewhere. */
static void
ensure(struct calltree_view *v, struct app *app)
{
	enum clock_index k = app_main_clock(app);

	if (!v->cur.built[v->mode]) {
		build(v, app, v->mode);
		if (!shown(v, v->sort))
			sort_by_default(v);
		v->rows_stale = true;
	}
	if (k != v->clock) {
		v->clock = k;
		v->rows_stale = true;
	}
	if ((app->clocks == APP_CLOCKS_BOTH) != v->both) {
		v->both = app->clocks == APP_CLOCKS_BOTH;
		if (!shown(v, v->sort))
			sort_by_default(v);
		v->rows_stale = true;
	}
	if (v->rows_stale || !v->nrows)
		rebuild_rows(v);
	if (v->sel_serial != app->sel.serial) {
		v->sel_serial = app->sel.serial;
		if (app->sel.by != APP_VIEW_CALLTREE)
			v->refollow = true;
	}
	if (v->refollow) {
		v->refollow = false;
		follow_selection(v, &app->sel);
	}
}

/* Size the mode's columns to the rows in view and lay them out
 * (tui/columns.h): the name column (guides, mark and name) gets its
 * share first, the numbers give way by priority, the sort column never. */
static void
lay_out(struct calltree_view *v, const struct app *app, const struct canvas *c,
        int body)
{
	struct column cols[TCOL_COUNT];
	int map[TCOL_COUNT], n = 0, i, y;
	char buf[64], title[48];
	size_t r;

	for (i = 0; i < TCOL_COUNT; i++) {
		struct column col = {.kind = i == TCOL_NAME ? COLUMN_NAME
		                                            : COLUMN_NUMBER,
		                     .prio = i == (int)v->sort ? COLUMN_KEEP
		                                               : priorities[i]};

		v->lay[i] = (struct column){.shown = false};
		if (!shown(v, i))
			continue;
		col.want = (int)text_width(
		                   column_title(v, i, title, sizeof(title))) +
		           (i == (int)v->sort) + (i == TCOL_NAME ? 16 : 0);
		for (y = 0, r = v->list.top; y < body && r < v->nrows;
		     y++, r = list_next(&v->list, r)) {
			int w;

			if (i == TCOL_NAME) {
				char *name = row_shown_name(v, app, r);

				w = 2 * (int)v->rows[r].depth + 2 +
				    (int)text_width(name);
				free(name);
			} else {
				cell_text(v, app, r, i, buf, sizeof(buf));
				w = (int)text_width(buf);
			}
			if (w > col.want)
				col.want = w;
		}
		/* A blank before a number; the name's after its guides. */
		col.want++;
		if (i == TCOL_NAME) {
			col.min = NAME_MIN;
			if (col.want > c->width)
				col.want = c->width;
		}
		map[n] = i;
		cols[n++] = col;
	}
	columns_lay_out(cols, (size_t)n, c->width,
	                columns_share(COLUMNS_TREE_SHARE, app->all_columns));
	for (i = 0; i < n; i++)
		v->lay[map[i]] = cols[i];
}

static void
calltree_draw(void *state, struct app *app, struct canvas *c, int top,
              int height)
{
	struct calltree_view *v = state;
	int body = height - 1, y, i;
	uint32_t max_levels, d, skip;
	bool *last;
	size_t r;

	ensure(v, app);
	if (body >= 1)
		list_layout(&v->list, (size_t)body);
	/* Seconds in a column whose milliseconds in view would not fit. */
	for (i = 0; i < TCOL_NAME; i++) {
		char buf[64];

		v->seconds[i] = false;
		if (!is_time(v, i) || app->tree->header.unit != TRACE_UNIT_US ||
		    body < 1)
			continue;
		for (y = 0, r = v->list.top; y < body && r < v->nrows;
		     y++, r = list_next(&v->list, r)) {
			cell_text(v, app, r, i, buf, sizeof(buf));
			if ((int)strlen(buf) > MS_WIDTH) {
				v->seconds[i] = true;
				break;
			}
		}
	}
	lay_out(v, app, c, body);
	draw_header(v, app, c, top);
	if (body < 1)
		return;
	v->list.y = top + 1;
	/* Guides take at most a quarter of the name column, two columns
	 * a level; the levels above make way. */
	max_levels = v->lay[TCOL_NAME].width / 8 > 2
	                     ? (uint32_t)v->lay[TCOL_NAME].width / 8
	                     : 2;
	/* The last-sibling flags of the first row's ancestors, then kept
	 * as rows go down. */
	r = v->list.top;
	d = r < v->nrows ? v->rows[r].depth : 0;
	skip = d ? d - 1 : 0;
	for (i = (int)r; i < (int)(r + (size_t)body) && i < (int)v->nrows;
	     i++) {
		if (v->rows[i].depth > d)
			d = v->rows[i].depth;
		if (v->rows[i].depth <= skip)
			skip = v->rows[i].depth ? v->rows[i].depth - 1 : 0;
	}
	/* Levels above every row shown make way when they do not fit;
	 * rows keep their places relative to each other. */
	if (d - skip < max_levels)
		skip = d > max_levels ? d - max_levels : 0;
	last = xcalloc((size_t)d + 2, sizeof(*last));
	if (r < v->nrows) {
		uint32_t want = v->rows[r].depth;
		size_t i2 = r;

		while (want > 0 && i2-- > 0) {
			if (v->rows[i2].depth < want) {
				want = v->rows[i2].depth;
				last[want] = v->rows[i2].last;
			}
		}
	}
	if (!list_visible(&v->list) && v->nrows) {
		canvas_text(c, 2, top + 1, c->width - 2,
		            "no row matches the filter (Esc: every row)",
		            ROLE_DIM);
		free(last);
		return;
	}
	for (y = 0; y < body && r < v->nrows; y++, r = list_next(&v->list, r)) {
		last[v->rows[r].depth] = v->rows[r].last;
		draw_row(v, app, c, top + 1 + y, r, last, max_levels, skip);
	}
	free(last);
}

/* ---- requests ---------------------------------------------------------- */

static void
calltree_ready(void *state, struct app *app)
{
	ensure(state, app);
}

static enum view_result
calltree_handle(void *state, const struct app *app, enum request req,
                struct view_ask *ask)
{
	struct calltree_view *v = state;
	size_t r = v->list.cursor;
	uint32_t m;

	v->note[0] = '\0';
	/* b needs no rows: in a tree without any, it still turns it. */
	if (req == REQ_INVERT) {
		v->mode = !v->mode;
		if (!shown(v, v->sort))
			sort_by_default(v);
		v->nrows = 0;
		list_set_count(&v->list, 0);
		/* The next draw shows the selected method in the other
		 * tree. */
		v->refollow = true;
		return VIEW_DONE;
	}
	if (!v->nrows)
		return VIEW_UNHANDLED;
	if (list_move(&v->list, req)) {
		moved(v);
		return VIEW_DONE;
	}
	switch (req) {
	case REQ_EXPAND:
		if (v->cur.open[v->mode][v->rows[r].node] &&
		    has_children(v, v->rows[r].node))
			list_select(&v->list, r + 1);
		else
			expand_row(v, r);
		break;
	case REQ_COLLAPSE:
		if (v->cur.open[v->mode][v->rows[r].node] &&
		    has_children(v, v->rows[r].node))
			collapse_row(v, r);
		else
			list_select(&v->list, parent_row(v, r));
		break;
	case REQ_EXPAND_HOT:
		expand_hot(v, r);
		break;
	case REQ_EXPAND_ALL:
		expand_all(v, r);
		break;
	case REQ_ENTER:
		m = row_method(v, r);
		if (m == CALL_NONE) {
			if (v->cur.open[v->mode][v->rows[r].node])
				collapse_row(v, r);
			else
				expand_row(v, r);
			break;
		}
		ask->jump = APP_VIEW_PROFILE;
		ask->method = m;
		return VIEW_DONE;
	case REQ_SORT_NEXT:
	case REQ_SORT_PREV:
		do
			v->sort =
			        (v->sort +
			         (req == REQ_SORT_NEXT ? 1 : TCOL_COUNT - 1)) %
			        TCOL_COUNT;
		while (!shown(v, v->sort));
		v->ascending = v->sort == TCOL_NAME;
		rebuild_rows(v);
		list_reset(&v->list);
		break;
	case REQ_SORT_REVERSE:
		v->ascending = !v->ascending;
		rebuild_rows(v);
		list_reset(&v->list);
		break;
	default:
		return VIEW_UNHANDLED;
	}
	moved(v);
	return VIEW_DONE;
}

static enum view_result
calltree_mouse(void *state, struct app *app, const struct mouse_event *ev,
               struct view_ask *ask)
{
	struct calltree_view *v = state;
	enum list_click r = list_mouse(&v->list, ev);

	(void)app, (void)ask;
	v->note[0] = '\0';
	if (r == LIST_MOVED)
		moved(v);
	return r == LIST_AGAIN   ? VIEW_AGAIN
	       : r == LIST_MOVED ? VIEW_DONE
	                         : VIEW_UNHANDLED;
}

/* True when the row's method matches the search. */
static bool
row_matches(size_t r, void *arg)
{
	void **a = arg;
	const struct calltree_view *v = a[0];
	uint32_t m = row_method(v, r);

	return m != CALL_NONE && list_method_matches(v->tree, m, a[1]);
}

static bool
calltree_find(void *state, const struct app *app, const regex_t *re, int dir,
              struct view_ask *ask)
{
	struct calltree_view *v = state;
	void *arg[2] = {v, (void *)re};
	struct list_hit hit;

	if (!v->nrows)
		return false;
	if (app->search_serial != v->search_serial) {
		v->search_serial = app->search_serial;
		reveal(v, re);
	}
	if (!list_search(&v->list, dir, row_matches, arg, &hit))
		return false;
	moved(v);
	ask->match = hit.nth;
	ask->matches = hit.total;
	return true;
}

/* True when the row's method's full name matches the filter. */
static bool
row_kept(size_t r, void *arg)
{
	struct calltree_view *v = arg;
	uint32_t m = row_method(v, r);

	return m != CALL_NONE && list_methods_keep(&v->kept, m);
}

static size_t
calltree_filter(void *state, const struct app *app, const regex_t *re)
{
	struct calltree_view *v = state;

	(void)app;
	list_methods_set(&v->kept, v->tree, re);
	/* The paths to the matches open, as for a search. */
	if (re && v->nrows)
		reveal(v, re);
	list_filter(&v->list, re ? row_kept : NULL, v);
	if (v->nrows)
		moved(v);
	return list_visible(&v->list);
}

static void
calltree_take_model(void *state, struct app *app)
{
	struct calltree_view *v = state;

	v->tree = app->tree;
	v->kept.tree = app->tree;
}

static char *
calltree_status(void *state, struct app *app)
{
	struct calltree_view *v = state;
	const struct callpath_node *node;
	const struct tt_method *m;
	char *name, *text, value[64];

	if (v->note[0])
		return xstrdup(v->note);
	if (!v->nrows)
		return NULL;
	node = &path_of(v)->nodes[v->rows[v->list.cursor].node];
	if (node->method == CALL_NONE) {
		quantity_format(value, sizeof(value), node->incl[v->clock],
		                app->tree->header.unit, true);
		return xasprintf("%s: %s",
		                 v->mode == TOP_DOWN ? "every call path"
		                                     : "every method's callers",
		                 value);
	}
	if (!callpath_is_method(node))
		return xasprintf("%s  depth %u", CALLPATH_OUTSIDE_NAME,
		                 node->depth);
	m = &app->tree->methods[node->method];
	name = method_name_with_source(m);
	text = xasprintf("%s  depth %u", name, node->depth);
	free(name);
	return text;
}

static uint32_t
calltree_selection(void *state)
{
	const struct calltree_view *v = state;

	return v->nrows ? row_method(v, v->list.cursor) : CALL_NONE;
}

/* Top-down, the methods from a root down to the cursor's node. */
static const uint32_t *
calltree_selection_path(void *state, size_t *n)
{
	struct calltree_view *v = state;
	const struct callpath *p = path_of(v);
	uint32_t x;
	size_t i = 0;

	*n = 0;
	if (v->mode != TOP_DOWN || !v->nrows ||
	    row_method(v, v->list.cursor) == CALL_NONE)
		return NULL;
	for (x = v->rows[v->list.cursor].node; x; x = p->nodes[x].parent)
		i++;
	UTIL_GROW(v->path, v->path_cap, i + 1);
	*n = i;
	for (x = v->rows[v->list.cursor].node; x; x = p->nodes[x].parent)
		v->path[--i] = p->nodes[x].method;
	return v->path;
}

static void *
calltree_open(struct app *app)
{
	struct calltree_view *v = xcalloc(1, sizeof(*v));

	v->tree = app->tree;
	v->sort = TCOL_INCL;
	v->clock = app_main_clock(app);
	v->refollow = true;
	remember_scope(v, &app->scope);
	return v;
}

static void
calltree_close(void *state)
{
	struct calltree_view *v = state;

	trees_drop(&v->cur);
	trees_drop(&v->whole);
	free(v->rows);
	list_methods_done(&v->kept);
	free(v->path);
	list_done(&v->list);
	scope_done(&v->seen);
	free(v);
}

static void
calltree_refresh(void *state, struct app *app)
{
	struct calltree_view *v = state;

	if (scope_differs(v, &app->scope)) {
		change_scope(v, &app->scope);
		v->refollow = true;
	}
}

/* Whether `w` writes column i: the mode's, a profile's empty Calls
 * included. */
static bool
written(const struct calltree_view *v, int i)
{
	return shown(v, i) || i == TCOL_CALLS;
}

/* Every open row shown (under a filter, those it keeps), top to bottom:
 * every column of the mode (wide or not), then the full name indented
 * two spaces a level. */
static struct table *
calltree_rows(void *state, struct app *app)
{
	struct calltree_view *v = state;
	const char *names[TCOL_COUNT];
	enum table_kind kinds[TCOL_COUNT];
	struct table *t;
	size_t n = 0, r;
	char buf[64], titles[TCOL_COUNT][48];
	int i;

	/* Times in milliseconds (the next draw sees to its own units). */
	memset(v->seconds, 0, sizeof(v->seconds));
	for (i = 0; i < TCOL_COUNT; i++) {
		if (!written(v, i))
			continue;
		names[n] = column_title(v, i, titles[n], sizeof(titles[n]));
		kinds[n++] = i == TCOL_NAME ? TABLE_STRING : TABLE_NUMBER;
	}
	t = table_new(n, names, kinds);
	for (r = list_first(&v->list); r < v->nrows;
	     r = list_next(&v->list, r)) {
		char *name = row_name(v, app, r);

		table_row(t);
		for (i = 0; i < TCOL_NAME; i++) {
			if (!written(v, i))
				continue;
			/* Times in full: no column to fit them in. */
			if (is_time(v, i) &&
			    app->tree->header.unit == TRACE_UNIT_US) {
				char ms[DURATION_SIZE];

				table_str(t, duration_ms(
				                     ms, sizeof(ms),
				                     column_value(
				                             v, v->rows[r].node,
				                             i)));
				continue;
			}
			cell_text(v, app, r, i, buf, sizeof(buf));
			table_str(t, buf);
		}
		table_fmt(t, "%*s%s", (int)v->rows[r].depth * 2, "", name);
		free(name);
	}
	return t;
}

/* The list whose cursor the status line places. */
static const struct list *
calltree_cursor(void *state)
{
	const struct calltree_view *v = state;

	return &v->list;
}

const struct view_ops view_calltree_ops = {
        .cursor = calltree_cursor,
        .name = "Call tree",
        .needs_calls = true,
        .paths_will_do = true,
        .take_model = calltree_take_model,
        .hints = "l/h:open/close  e:hot path  E:all  b:bottom-up  "
                 "Enter:profile",
        .open = calltree_open,
        .close = calltree_close,
        .draw = calltree_draw,
        .status = calltree_status,
        .refresh = calltree_refresh,
        .ready = calltree_ready,
        .handle = calltree_handle,
        .find = calltree_find,
        .selection = calltree_selection,
        .selection_path = calltree_selection_path,
        .mouse = calltree_mouse,
        .filter = calltree_filter,
        .rows = calltree_rows,
};
