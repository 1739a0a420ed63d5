/*
 * icicle: the calls of the scope merged by call path (threads
 * merged), drawn as an icicle: one row per depth, roots at the top, each
 * frame as wide as its share of the zoomed frame's inclusive time on the
 * main clock, labelled with its Class.method fitted to its width.  The
 * inverted (bottom-up) tree has the methods where time was spent at the
 * top and their callers below them.
 *
 * A frame spans the columns [t0 * W / T, t1 * W / T) where [t0, t1) is
 * its time from the zoomed frame's start (children laid out widest
 * first) and T the zoomed frame's time, so columns never drift and a
 * frame at least T / W long always gets a cell.  Narrower children are
 * merged into one shaded run after their wider siblings.
 *
 * The trees are built on first need after the scope or range changes
 * (from each thread's own tree, built once, unless a range cuts the
 * calls) and re-sorted when the clock changes, never on a plain redraw.
 * The whole trace's trees are kept while another scope is shown (the
 * first bottom-up tree comes from the warmup).  Any other bottom-up tree
 * is built by a warmup job as soon as the top-down tree shows, or as soon
 * as the scope changes when bottom-up is showing, and taken when needed;
 * a job lets the kept bottom-up tree go first, so that there is one at a
 * time.  A bottom-up tree is made lazily (callpath_expand): a job or the
 * warmup makes its roots, and a frame's callers are made when they are
 * drawn (the levels on screen and those above them, down from the zoom)
 * or a move, a zoom or a search walks to them, so a deep recursion costs
 * what is looked at, never the whole tree;
 * drawing and moving only walk frames at least one cell wide (children
 * are sorted widest first, so the first narrow child ends a walk).  Labels
 * lose their packages to initials, then entirely, then are cut.
 *
 * With --base, a frame whose inclusive time grew by more than 5% of that
 * of BASE's frame on the same call path (or that BASE lacks) is drawn as
 * slower, one that shrank by more than 5% as faster.
 */
#include "config.h"

#include "tui/app.h"
#include "query/callpath.h"
#include "query/method-name.h"
#include "query/quantity.h"
#include "text/duration.h"
#include "util/alloc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* With --base, the header's key to the frames' colours: the words in
 * the colours of frames that changed past 5%; "slower" and "faster"
 * take the first 6 and the 6 after a blank. */
#define LEGEND "slower faster: >5% vs base"

enum { TOP_DOWN, BOTTOM_UP };

/* A per-method answer of the search pattern. */
enum { MATCH_UNKNOWN, MATCH_NO, MATCH_YES };

/* The trees of one scope, the clock each is sorted by, and the job
 * building its bottom-up tree (sorted on job_clock). */
struct scope_trees {
	struct callpath trees[2]; /* top-down, bottom-up */
	bool built[2];
	int sorted[2]; /* the clock, or -1 */
	struct warmup_job *job;
	enum clock_index job_clock;
};

struct icicle_view {
	struct scope_trees cur; /* the scope's */
	unsigned generation;    /* bumped by every build or sort */
	int mode;               /* TOP_DOWN or BOTTOM_UP */

	/* The scope the trees are for, and whether it is the whole trace
	 * (every thread, no range). */
	struct scope seen;
	bool whole_scope;
	struct scope_trees whole; /* the whole trace's, kept meanwhile */
	bool warm_taken;          /* the warmup's bottom-up tree was taken */

	/* Jobs let go before they ended. */
	struct warmup_job **retired;
	size_t nretired, retired_cap;

	/* The zoom and selection to find again once the new scope's tree
	 * is built. */
	uint32_t *zoom_path, *sel_path, zoom_len, sel_len;
	bool restore;

	uint32_t zoom;        /* the frame at the top; 0: every root */
	uint32_t sel;         /* the selected frame; 0 when none */
	uint32_t last_method; /* app->sel.method as this view last set it */
	unsigned sel_serial;  /* the app's selection as last seen */
	int width;            /* columns at the last draw */
	int top;              /* first level shown */
	int rows;             /* levels shown at the last draw */
	int y0;               /* the screen row of the first level shown */

	char **names; /* name per method as the app shows it, made on
	                 first use */
	size_t nnames;
	int *name_width;
	bool names_full; /* names are the full ones (the app's A) */
	uint8_t *match;  /* per method, for search_serial */
	unsigned match_serial;
	bool match_ready;

	/* The share of the zoomed frame the matches cover, and its key. */
	uint64_t share;
	unsigned share_serial, share_generation;
	uint32_t share_zoom;
	int share_mode;
	bool share_ready;

	/* Scratch: per level, the right edge and hue of the last frame. */
	int *row_end;
	uint8_t *row_hue;
	size_t row_cap;
	uint32_t *order; /* frames in pre-order, for the search */
	size_t order_cap;
};

struct paint {
	struct icicle_view *v;
	struct app *app;
	struct canvas *c;
	struct callpath *p;
	enum clock_index k;
	uint64_t total; /* the zoomed frame's time */
	int y;          /* screen row of the first level shown */
};

static const struct callpath *
tree_of(const struct icicle_view *v)
{
	return &v->cur.trees[v->mode];
}

/* The shown tree with node n's children made (a bottom-up tree makes
 * them when asked; its nodes may move). */
static struct callpath *
expanded(struct icicle_view *v, uint32_t n)
{
	struct callpath *p = &v->cur.trees[v->mode];

	callpath_expand(p, n);
	return p;
}

static uint64_t
incl(const struct callpath *p, uint32_t n, enum clock_index k)
{
	return p->nodes[n].incl[k];
}

/* Column of time t on a width of w for a zoomed frame of total; times
 * are microseconds, so t * w stays far below 2^64. */
static int
column(uint64_t t, uint64_t total, int w)
{
	return total ? (int)(t * (uint64_t)w / total) : 0;
}

/* True when a frame of time t gets at least one cell. */
static bool
wide(uint64_t t, uint64_t total, int w)
{
	return t && t * (uint64_t)w >= total;
}

static int
view_width(const struct icicle_view *v)
{
	return v->width > 0 ? v->width : 80;
}

/* ---- building ---------------------------------------------------------- */

static bool
scope_differs(const struct icicle_view *v, const struct scope *s)
{
	return !scope_equal(&v->seen, s);
}

static void
remember_scope(struct icicle_view *v, const struct scope *s)
{
	scope_copy(&v->seen, s);
	v->whole_scope = scope_is_all(s) && !s->range.on;
}

/* The methods on the path to node n (depth entries) into a new array. */
static uint32_t *
save_path(const struct callpath *p, uint32_t n, uint32_t *len)
{
	uint32_t *path = xcalloc((size_t)p->nodes[n].depth + 1, sizeof(*path));

	*len = p->nodes[n].depth;
	for (; n != 0; n = p->nodes[n].parent)
		path[p->nodes[n].depth - 1] = p->nodes[n].method;
	return path;
}

/* The node at the end of path, or 0 when the tree lacks it; the nodes
 * on the way are expanded. */
static uint32_t
find_path(struct callpath *p, const uint32_t *path, uint32_t len)
{
	uint32_t n = 0, i;

	for (i = 0; i < len; i++) {
		uint32_t ch;

		callpath_expand(p, n);
		ch = p->nodes[n].first_child;

		while (ch != CALL_NONE && p->nodes[ch].method != path[i])
			ch = p->nodes[ch].next_sibling;
		if (ch == CALL_NONE)
			return 0;
		n = ch;
	}
	return n;
}

static bool
inside(const struct callpath *p, uint32_t n, uint32_t zoom)
{
	if (!zoom)
		return true;
	for (; n != 0; n = p->nodes[n].parent)
		if (n == zoom)
			return true;
	return false;
}

static void
select_node(struct icicle_view *v, struct app *app, uint32_t n)
{
	uint32_t m = tree_of(v)->nodes[n].method;

	v->sel = n;
	if (n && callpath_is_method(&tree_of(v)->nodes[n])) {
		if (v->mode == TOP_DOWN) {
			uint32_t len, *path = save_path(tree_of(v), n, &len);

			app_select_path(app, path, len);
			free(path);
		} else {
			app_select(app, m);
		}
		v->last_method = m;
	}
	v->sel_serial = app->sel.serial;
}

/* At most this many frames are expanded looking for a method's widest
 * frame in a bottom-up tree. */
enum { FOLLOW_BUDGET = 4096 };

/*
 * The widest frame of method m at or under node top of a bottom-up tree,
 * or 0: frames are expanded widest first (a caller is never wider than
 * its callee), so the first of m met is the widest, and only frames
 * wider than it are made.  After FOLLOW_BUDGET frames, the widest of m
 * made so far.
 */
static uint32_t
widest_caller(struct icicle_view *v, uint32_t top, uint32_t m,
              enum clock_index k)
{
	struct callpath *p = &v->cur.trees[v->mode];
	uint32_t *heap = NULL, found = 0, ch, tries = 0;
	size_t n = 0, cap = 0, i, j;

	UTIL_GROW(heap, cap, 1);
	heap[n++] = top;
	while (n && tries++ < FOLLOW_BUDGET) {
		uint32_t at = heap[0];

		heap[0] = heap[--n];
		for (i = 0; (j = 2 * i + 1) < n; i = j) {
			if (j + 1 < n &&
			    incl(p, heap[j + 1], k) > incl(p, heap[j], k))
				j++;
			if (incl(p, heap[j], k) <= incl(p, heap[i], k))
				break;
			ch = heap[i], heap[i] = heap[j], heap[j] = ch;
		}
		if (at && p->nodes[at].method == m) {
			found = at;
			break;
		}
		callpath_expand(p, at);
		for (ch = p->nodes[at].first_child; ch != CALL_NONE;
		     ch = p->nodes[ch].next_sibling) {
			UTIL_GROW(heap, cap, n + 1);
			for (i = n++; i > 0 && incl(p, heap[(i - 1) / 2], k) <
			                               incl(p, ch, k);
			     i = (i - 1) / 2)
				heap[i] = heap[(i - 1) / 2];
			heap[i] = ch;
		}
	}
	free(heap);
	return found;
}

/* Select the widest frame of app->sel.method, inside the zoom if it has one
 * there; keep a valid selection when the method has none.  A bottom-up
 * tree is searched widest first (widest_caller), making only the frames
 * wider than the answer. */
static void
follow_method(struct icicle_view *v, struct app *app, enum clock_index k)
{
	const struct callpath *p = tree_of(v);
	uint32_t m = app->sel.method, best = 0, best_in = 0, i;

	v->last_method = m;
	if (v->mode == BOTTOM_UP && m != CALL_NONE) {
		best_in = v->zoom ? widest_caller(v, v->zoom, m, k) : 0;
		best = best_in ? best_in : widest_caller(v, 0, m, k);
		p = tree_of(v);
	}
	for (i = 1; m != CALL_NONE && i < p->count; i++) {
		if (p->nodes[i].method != m || (best && v->mode == BOTTOM_UP))
			continue;
		if (!best || incl(p, i, k) > incl(p, best, k))
			best = i;
		if ((!best_in || incl(p, i, k) > incl(p, best_in, k)) &&
		    inside(p, i, v->zoom))
			best_in = i;
	}
	if (best_in) {
		v->sel = best_in;
	} else if (best) {
		v->zoom = 0;
		v->sel = best;
	} else if (!v->sel || v->sel >= p->count ||
	           !inside(p, v->sel, v->zoom)) {
		v->sel = v->zoom ? v->zoom : p->nodes[0].first_child;
		if (v->sel == CALL_NONE)
			v->sel = 0;
	}
}

/* The own trees of the scope's threads (the app's, built on first need)
 * into a new array; *n says how many. */
static struct callpath *
scope_parts(struct icicle_view *v, struct app *app, size_t *n)
{
	return app_scope_parts(app, n);
}

/* Let the job of st go: it stops soon, and is freed once it has. */
static void
retire_job(struct icicle_view *v, struct scope_trees *st)
{
	if (!st->job)
		return;
	warmup_job_abandon(st->job);
	UTIL_GROW(v->retired, v->retired_cap, v->nretired + 1);
	v->retired[v->nretired++] = st->job;
	st->job = NULL;
}

/* Free the retired jobs that have ended. */
static void
reap_jobs(struct icicle_view *v)
{
	size_t i, n = 0;

	for (i = 0; i < v->nretired; i++) {
		if (warmup_job_done(v->retired[i]))
			warmup_job_free(v->retired[i]);
		else
			v->retired[n++] = v->retired[i];
	}
	v->nretired = n;
}

/* Start building the scope's bottom-up tree on a second thread, unless
 * it is built or coming (from the warmup, for the whole trace) or a range
 * cuts the calls (there are no parts to merge).  The whole trace's job is
 * kept with its trees while another scope shows, until a job starts
 * there; another scope's job stops when the scope is left. */
static void
start_job(struct icicle_view *v, struct app *app)
{
	struct callpath *parts, *pre;
	size_t n;

	if (v->nretired)
		reap_jobs(v);
	if (v->cur.built[BOTTOM_UP] || v->cur.job ||
	    (v->whole_scope && !v->warm_taken) || app->scope.range.on)
		return;
	parts = scope_parts(v, app, &n);
	/* One bottom-up tree at a time: the kept one (which the job
	 * releases) and the warmup's go. */
	retire_job(v, &v->whole);
	v->whole.built[BOTTOM_UP] = false;
	v->whole.sorted[BOTTOM_UP] = -1;
	if (!v->warm_taken) {
		pre = warmup_take_inverted(app->warmup);
		if (pre)
			callpath_done(pre);
		free(pre);
		v->warm_taken = true;
	}
	v->cur.job_clock = app_main_clock(app);
	v->cur.job = warmup_invert_start(parts, n, v->cur.job_clock,
	                                 &v->whole.trees[BOTTOM_UP]);
	free(parts);
}

/* The top-down tree of the scope: without a range, the merge of its
 * threads' own trees (each built once; the whole trace's comes from the
 * warmup), so a new thread scope costs a merge of call paths, not a walk
 * of the calls. */
static void
build_top_down(struct icicle_view *v, struct app *app)
{
	struct callpath *parts, *pre = NULL;
	size_t n;

	if (app->scope.range.on) {
		callpath_build_whole(&v->cur.trees[TOP_DOWN], app->tree,
		                     &app->scope, false);
		return;
	}
	if (v->whole_scope) {
		app_wait_notice(app, "the call paths");
		pre = warmup_take_merged(app->warmup);
	}
	if (pre) {
		v->cur.trees[TOP_DOWN] = *pre;
		v->cur.sorted[TOP_DOWN] =
		        (int)calltree_default_clock(app->tree);
		free(pre);
		return;
	}
	parts = scope_parts(v, app, &n);
	callpath_merge(&v->cur.trees[TOP_DOWN], parts, n);
	free(parts);
}

static void
trees_init(struct scope_trees *st)
{
	memset(st, 0, sizeof(*st));
	st->sorted[TOP_DOWN] = st->sorted[BOTTOM_UP] = -1;
}

/* Release st's trees (its job must be gone). */
static void
trees_done(struct scope_trees *st)
{
	callpath_done(&st->trees[TOP_DOWN]);
	callpath_done(&st->trees[BOTTOM_UP]);
	trees_init(st);
}

/* Move the trees of from into to, which holds none. */
static void
trees_move(struct scope_trees *to, struct scope_trees *from)
{
	*to = *from;
	trees_init(from);
}

/* Show the app's selection: top-down, the frame on its call path when
 * it has one (the chart's call, the call tree's node), else the widest
 * frame of its method. */
static void
follow_selection(struct icicle_view *v, struct app *app, enum clock_index k)
{
	const struct selection *sel = &app->sel;
	uint32_t n = 0;

	if (v->mode == TOP_DOWN && sel->npath && sel->npath < UINT32_MAX)
		n = find_path(&v->cur.trees[TOP_DOWN], sel->path,
		              (uint32_t)sel->npath);
	if (!n) {
		follow_method(v, app, k);
		return;
	}
	if (!inside(tree_of(v), n, v->zoom))
		v->zoom = 0;
	v->sel = n;
	v->last_method = sel->method;
}

/* Zoom on method m in the tree shown: bottom-up, its root (every place
 * its time was spent); top-down, its widest frame.  The selection is
 * the zoomed frame. */
static void
zoom_on_method(struct icicle_view *v, struct app *app, uint32_t m)
{
	const struct callpath *p = tree_of(v);
	enum clock_index k = app_main_clock(app);
	uint32_t i, best = 0;

	for (i = 1; i < p->count; i++) {
		if (p->nodes[i].method != m ||
		    (v->mode == BOTTOM_UP && p->nodes[i].depth != 1))
			continue;
		if (!best || incl(p, i, k) > incl(p, best, k))
			best = i;
	}
	if (!best)
		return;
	v->zoom = best;
	v->top = 0;
	select_node(v, app, best);
}

/* The scope changed (already remembered): keep the zoom and selection
 * by their paths, put the old scope's trees aside (the whole trace's) or
 * away, and take the new one's when they are kept. */
static void
change_scope(struct icicle_view *v, bool was_whole)
{
	int t = v->mode;

	if (v->cur.built[t]) {
		free(v->zoom_path);
		free(v->sel_path);
		v->zoom_path =
		        save_path(&v->cur.trees[t], v->zoom, &v->zoom_len);
		v->sel_path = save_path(&v->cur.trees[t], v->sel, &v->sel_len);
		v->restore = true;
	}
	if (was_whole) {
		trees_move(&v->whole, &v->cur);
	} else {
		retire_job(v, &v->cur);
		trees_done(&v->cur);
	}
	if (v->whole_scope)
		trees_move(&v->cur, &v->whole);
	v->zoom = v->sel = 0;
	v->generation++;
}

/* The scope's bottom-up tree from its job or, for the whole trace, from
 * the warmup, when there is one. */
static void
take_bottom_up(struct icicle_view *v, struct app *app)
{
	struct callpath *pre = NULL;

	if (v->cur.job) {
		if (app->notice && !warmup_job_done(v->cur.job))
			app->notice("Building the bottom-up tree...");
		warmup_job_take(v->cur.job, &v->cur.trees[BOTTOM_UP]);
		v->cur.job = NULL;
		v->cur.built[BOTTOM_UP] = true;
		v->cur.sorted[BOTTOM_UP] = (int)v->cur.job_clock;
		return;
	}
	if (!v->whole_scope || v->warm_taken)
		return;
	app_wait_notice(app, "the bottom-up tree");
	pre = warmup_take_inverted(app->warmup);
	v->warm_taken = true;
	if (pre) {
		v->cur.trees[BOTTOM_UP] = *pre;
		v->cur.built[BOTTOM_UP] = true;
		v->cur.sorted[BOTTOM_UP] =
		        (int)calltree_default_clock(app->tree);
	}
	free(pre);
}

/* The cells the selected frame is given, where its callers allow, when
 * the view zooms to show it. */
enum { REVEAL_CELLS = 8 };

/*
 * Zoom so that the selected frame is drawn (it then shows marked, and
 * the draw scrolls to its level): when it is outside the zoom or
 * narrower than a cell under it, the zoom becomes its outermost caller
 * under which it takes REVEAL_CELLS cells, else its caller if it takes a
 * cell there, else the frame itself.  A frame with no time on the clock
 * cannot show.
 */
static void
reveal_selection(struct icicle_view *v, enum clock_index k)
{
	const struct callpath *p = tree_of(v);
	uint64_t t, w = (uint64_t)view_width(v);
	uint32_t a, up, best = CALL_NONE;

	if (!v->sel || v->sel >= p->count)
		return;
	t = incl(p, v->sel, k);
	if (!t || (inside(p, v->sel, v->zoom) &&
	           wide(t, incl(p, v->zoom, k), (int)w)))
		return;
	up = p->nodes[v->sel].parent;
	/* Callers are never narrower than their callees: going up, the
	 * frame's share only shrinks. */
	for (a = up; a != CALL_NONE; a = p->nodes[a].parent)
		if (t * w >= incl(p, a, k) * REVEAL_CELLS)
			best = a;
	if (best == CALL_NONE)
		best = up != CALL_NONE && wide(t, incl(p, up, k), (int)w)
		               ? up
		               : v->sel;
	v->zoom = best;
	v->top = 0;
}

/* Build or sort what the current mode needs; keep the zoom and the
 * selection by their paths across a rebuild; follow app->sel.method when
 * another view changed it, zoomed so that it shows. */
static void
ensure(struct icicle_view *v, struct app *app)
{
	enum clock_index k = app_main_clock(app);
	int t = v->mode;
	bool followed = false;

	if (v->nretired)
		reap_jobs(v);
	if (t == BOTTOM_UP && !v->cur.built[BOTTOM_UP])
		take_bottom_up(v, app);
	if (!v->cur.built[TOP_DOWN] &&
	    (t == TOP_DOWN || !v->cur.built[BOTTOM_UP])) {
		v->cur.sorted[TOP_DOWN] = -1;
		build_top_down(v, app);
		v->cur.built[TOP_DOWN] = true;
	}
	if (t == TOP_DOWN)
		start_job(v, app);
	if (t == BOTTOM_UP && !v->cur.built[BOTTOM_UP]) {
		callpath_invert(&v->cur.trees[BOTTOM_UP],
		                &v->cur.trees[TOP_DOWN]);
		v->cur.built[BOTTOM_UP] = true;
		v->cur.sorted[BOTTOM_UP] = -1;
	}
	if (v->cur.sorted[t] != (int)k) {
		callpath_sort(&v->cur.trees[t], k);
		v->cur.sorted[t] = (int)k;
		v->generation++;
	}
	if (v->restore) {
		v->zoom =
		        find_path(&v->cur.trees[t], v->zoom_path, v->zoom_len);
		v->sel = find_path(&v->cur.trees[t], v->sel_path, v->sel_len);
		if (v->sel && !inside(&v->cur.trees[t], v->sel, v->zoom))
			v->zoom = 0;
		if (!v->sel)
			follow_method(v, app, k);
		free(v->zoom_path);
		free(v->sel_path);
		v->zoom_path = v->sel_path = NULL;
		v->restore = false;
		followed = true;
	}
	if (v->sel_serial != app->sel.serial) {
		v->sel_serial = app->sel.serial;
		if (app->sel.by != APP_VIEW_ICICLE ||
		    app->sel.method != v->last_method) {
			follow_selection(v, app, k);
			followed = true;
		}
	} else if (!v->sel) {
		follow_method(v, app, k);
		followed = true;
	}
	if (followed)
		reveal_selection(v, k);
}

/* ---- names and matches ------------------------------------------------- */

static const char *
short_name(struct icicle_view *v, struct app *app, uint32_t m, int *width)
{
	if (m == CALLPATH_OUTSIDE) {
		if (width)
			*width = (int)text_width(CALLPATH_OUTSIDE_NAME);
		return CALLPATH_OUTSIDE_NAME;
	}
	if (v->names && v->names_full != app->full_names) {
		size_t i;

		for (i = 0; i < v->nnames; i++) {
			free(v->names[i]);
			v->names[i] = NULL;
		}
	}
	v->names_full = app->full_names;
	if (!v->names) {
		v->nnames = app->tree->nmethods;
		v->names = xcalloc(v->nnames + 1, sizeof(*v->names));
		v->name_width = xcalloc(app->tree->nmethods + 1,
		                        sizeof(*v->name_width));
	}
	if (!v->names[m]) {
		v->names[m] = app_method_name(app, m);
		v->name_width[m] = (int)text_width(v->names[m]);
	}
	if (width)
		*width = v->name_width[m];
	return v->names[m];
}

/* The label of node n: its short name, or "all" for the root. */
static const char *
node_name(struct icicle_view *v, struct app *app, uint32_t n)
{
	uint32_t m = tree_of(v)->nodes[n].method;

	return n && m != CALL_NONE ? short_name(v, app, m, NULL) : "all";
}

/* True when method m's full name matches the app's pattern. */
static bool
matches(struct icicle_view *v, struct app *app, uint32_t m)
{
	if (!app->have_re || m >= CALLPATH_OUTSIDE)
		return false;
	if (!v->match_ready || v->match_serial != app->search_serial) {
		if (!v->match)
			v->match = xcalloc(app->tree->nmethods + 1,
			                   sizeof(*v->match));
		memset(v->match, MATCH_UNKNOWN,
		       app->tree->nmethods * sizeof(*v->match));
		v->match_serial = app->search_serial;
		v->match_ready = true;
	}
	if (v->match[m] == MATCH_UNKNOWN) {
		char *name = method_full_name(&app->tree->methods[m]);

		v->match[m] = regexec(&app->re, name, 0, NULL, 0) == 0
		                      ? MATCH_YES
		                      : MATCH_NO;
		free(name);
	}
	return v->match[m] == MATCH_YES;
}

/* The time of the zoomed frame inside matching frames, each counted
 * once: a match's descendants are not visited. */
static uint64_t
match_share(struct icicle_view *v, struct app *app, enum clock_index k)
{
	struct callpath *p = &v->cur.trees[v->mode];
	uint32_t *stack = NULL;
	size_t n = 0, cap = 0;
	uint64_t sum = 0;

	if (v->share_ready && v->share_serial == app->search_serial &&
	    v->share_generation == v->generation && v->share_zoom == v->zoom &&
	    v->share_mode == v->mode)
		return v->share;
	UTIL_GROW(stack, cap, 1);
	stack[n++] = v->zoom;
	while (n) {
		uint32_t at = stack[--n], ch;

		if (at && matches(v, app, p->nodes[at].method)) {
			sum += incl(p, at, k);
			continue;
		}
		callpath_expand(p, at);
		for (ch = p->nodes[at].first_child; ch != CALL_NONE;
		     ch = p->nodes[ch].next_sibling) {
			UTIL_GROW(stack, cap, n + 1);
			stack[n++] = ch;
		}
	}
	free(stack);
	v->share = sum;
	v->share_serial = app->search_serial;
	v->share_generation = v->generation;
	v->share_zoom = v->zoom;
	v->share_mode = v->mode;
	v->share_ready = true;
	return sum;
}

/* ---- drawing ----------------------------------------------------------- */

static int
level_of(const struct icicle_view *v, uint32_t n)
{
	const struct callpath *p = tree_of(v);
	uint32_t base = v->zoom ? p->nodes[v->zoom].depth : 1;

	return (int)p->nodes[n].depth - (int)base;
}

/* A hue for method m that differs from its left neighbour's (when they
 * touch) and its parent's. */
static uint8_t
hue(struct icicle_view *v, uint32_t m, int level, int x0, int parent)
{
	uint8_t h = (uint8_t)((m * 2654435761u) >> 16) % ROLE_PALETTE_COUNT;
	int i;

	for (i = 0; i < ROLE_PALETTE_COUNT; i++) {
		if ((v->row_end[level] != x0 || v->row_hue[level] != h) &&
		    h != parent)
			break;
		h = (uint8_t)((h + 1) % ROLE_PALETTE_COUNT);
	}
	return h;
}

/* "Klass.method" of "a.b.Klass.method": the class without its package. */
static const char *
bare_name(const char *name)
{
	const char *dot = NULL, *p;

	/* The last dot before an overload's parameters. */
	for (p = name; *p && *p != '('; p++)
		if (*p == '.')
			dot = p;
	if (!dot)
		return name;
	for (p = dot; p > name; p--)
		if (p[-1] == '.' || p[-1] == '/')
			return p;
	return name;
}

static void
draw_frame(struct paint *pt, uint32_t n, int x0, int x1, int y, enum role role)
{
	struct canvas *c = pt->c;
	bool solid = role != ROLE_CURSOR && role != ROLE_MATCH;
	int w = x1 - x0, room = w > 1 ? w - 1 : w, nw;
	const char *name;

	canvas_fill(c, x0, y, w, solid ? canvas_glyph(c, GLYPH_BLOCK) : " ",
	            role);
	name = short_name(pt->v, pt->app, pt->p->nodes[n].method, &nw);
	if (nw > room) {
		char *fitted = method_fit_name(name, room);

		/* Packages down to their initials are not enough: the start
		 * goes, the method stays; in a frame too narrow for that,
		 * the method's name alone, cut. */
		if ((int)text_width(fitted) > room) {
			free(fitted);
			fitted = method_cut_left(
			        name, room, canvas_glyph(c, GLYPH_TRUNCATED));
		}
		if ((int)text_width(fitted) > room) {
			const char *own = bare_name(name);
			const char *dot = strchr(own, '.');

			free(fitted);
			fitted = xstrdup(dot && dot < own + strcspn(own, "( ")
			                         ? dot + 1
			                         : own);
		}
		canvas_text(c, x0, y, room, fitted, role);
		free(fitted);
	} else {
		canvas_text(c, x0, y, room, name, role);
	}
}

/* The role of node n against BASE's frame on its path: ROLE_SLOWER or
 * ROLE_FASTER past a 5% change, else role. */
static enum role
change_role(const struct paint *pt, uint32_t n, enum role role)
{
	uint64_t base[CLOCK_COUNT], now = incl(pt->p, n, pt->k), was;

	if (!app_base_path(pt->app, pt->p, n, pt->v->mode == BOTTOM_UP, base))
		return ROLE_SLOWER;
	was = base[pt->k];
	if (now > was && (now - was) * 20 > was)
		return ROLE_SLOWER;
	if (now < was && (was - now) * 20 > was)
		return ROLE_FASTER;
	return role;
}

/* A frame being drawn, and where its children stand. */
struct draw_step {
	uint32_t n;     /* the node */
	uint32_t child; /* the child being drawn (CALL_NONE: none yet) */
	uint64_t t0;    /* where it starts after the zoomed frame */
	uint64_t t;     /* where its next child starts */
	int level;
	uint8_t hue;
	bool entered; /* drawn, its children made */
};

/* Draw node n, which starts t0 after the zoomed frame, at level, and the
 * frame itself when it shows; false when the level below does not show.
 * parent is the hue of the frame above (-1: none). */
static bool
draw_one(struct paint *pt, struct draw_step *s, int parent)
{
	struct icicle_view *v = pt->v;
	const struct callpath_node *x = &pt->p->nodes[s->n];
	int w = pt->c->width;
	int x0 = column(s->t0, pt->total, w);
	int x1 = column(s->t0 + x->incl[pt->k], pt->total, w);

	s->hue = hue(v, x->method, s->level, x0, parent);
	v->row_end[s->level] = x1;
	v->row_hue[s->level] = s->hue;
	if (s->level >= v->top) {
		enum role role = (enum role)(ROLE_PALETTE_0 + s->hue);

		if (s->n == v->sel)
			role = ROLE_CURSOR;
		else if (matches(v, pt->app, x->method))
			role = ROLE_MATCH;
		else if (pt->app->base)
			role = change_role(pt, s->n, role);
		draw_frame(pt, s->n, x0, x1, pt->y + s->level - v->top, role);
	}
	return s->level + 1 < v->top + v->rows;
}

/* The narrow children of s's node, past its wide ones, as one shade:
 * their time is the children's less the wide ones'. */
static void
draw_narrow(struct paint *pt, const struct draw_step *s)
{
	int w = pt->c->width;
	uint64_t all = incl(pt->p, s->n, pt->k);
	uint64_t rest = all - callpath_excl(pt->p, s->n, pt->k);
	int x0, x1;

	rest = rest > s->t - s->t0 ? rest - (s->t - s->t0) : 0;
	x0 = column(s->t, pt->total, w);
	x1 = column(s->t + rest, pt->total, w);
	canvas_fill(pt->c, x0, pt->y + s->level + 1 - pt->v->top, x1 - x0,
	            canvas_glyph(pt->c, GLYPH_SHADE), ROLE_DIM);
}

/* Draw node n, which starts t0 after the zoomed frame, at level, and the
 * wide frames below it that fit on the screen.  A loop with a stack of
 * its own, not recursion: a recursion a million calls deep is a path a
 * million frames long. */
static void
draw_node(struct paint *pt, uint32_t n, uint64_t t0, int level, int parent)
{
	struct draw_step *stack = NULL;
	size_t depth = 0, cap = 0;

	UTIL_GROW(stack, cap, 1);
	stack[depth++] =
	        (struct draw_step){n, CALL_NONE, t0, t0, level, 0, false};
	while (depth) {
		struct draw_step *s = &stack[depth - 1];
		uint32_t ch;

		if (!s->entered) {
			s->entered = true;
			if (!draw_one(pt, s,
			              depth > 1 ? stack[depth - 2].hue
			                        : parent)) {
				depth--;
				continue;
			}
			/* The level below shows: its frames are made. */
			callpath_expand(pt->p, s->n);
			ch = pt->p->nodes[s->n].first_child;
		} else {
			s->t += incl(pt->p, s->child, pt->k);
			ch = pt->p->nodes[s->child].next_sibling;
		}
		s->child = ch;
		if (ch != CALL_NONE &&
		    wide(incl(pt->p, ch, pt->k), pt->total, pt->c->width)) {
			struct draw_step next = {ch,   CALL_NONE,    s->t,
			                         s->t, s->level + 1, 0,
			                         false};

			UTIL_GROW(stack, cap, depth + 1);
			stack[depth++] = next;
			continue;
		}
		if (ch != CALL_NONE && s->level + 1 >= pt->v->top)
			draw_narrow(pt, s);
		depth--;
	}
	free(stack);
}

/* A time in milliseconds (in seconds from 100 s on, as the columns
 * switch), or a profile's size or count. */
static void
format_value(char *buf, size_t size, uint64_t v, const struct app *app)
{
	enum trace_unit unit = app->tree->header.unit;
	uint64_t us = unit == TRACE_UNIT_NS ? v / 1000 : v;
	char s[DURATION_SIZE];

	if (!quantity_is_time(unit) || us < 100000000) {
		quantity_format(buf, size, v, unit, true);
		return;
	}
	snprintf(buf, size, "%s s", duration_s(s, sizeof(s), us));
}

/* The mode and the path to the zoomed frame, and the zoomed frame's
 * time; on a narrow line the steps lose their packages, then the oldest
 * steps are elided. */
static void
draw_breadcrumb(struct icicle_view *v, struct app *app, struct canvas *c, int y,
                uint64_t total, enum clock_index k)
{
	const struct callpath *p = tree_of(v);
	const char *arrow = canvas_glyph(c, GLYPH_ARROW);
	const char *clock = k == CLOCK_CPU ? " cpu" : " wall";
	uint32_t *chain = NULL, n; /* chain[0] is the zoomed frame */
	size_t len = 0, cap = 0, pass, skip, i;
	char time[32], *right, *line = NULL;
	int room;

	format_value(time, sizeof(time), total, app);
	/* A profile's sizes and counts are on no clock worth naming. */
	if (app->tree->header.unit != TRACE_UNIT_US)
		clock = "";
	if (v->top)
		right = xasprintf("%d level%s above  %s%s", v->top,
		                  v->top == 1 ? "" : "s", time, clock);
	else
		right = xasprintf("%s%s", time, clock);
	if (app->base) {
		/* What the colours say, in them. */
		char *more = xasprintf("%s  %s", LEGEND, right);

		free(right);
		right = more;
	}
	room = c->width - (int)text_width(right) - 2;
	for (n = v->zoom; n != 0; n = p->nodes[n].parent) {
		UTIL_GROW(chain, cap, len + 1);
		chain[len++] = n;
	}
	for (pass = 0;; pass++) {
		skip = pass > 1 ? pass - 1 : 0;
		free(line);
		line = xasprintf("%s: all%s%s",
		                 v->mode == TOP_DOWN ? "top-down" : "bottom-up",
		                 skip ? " " : "", skip ? arrow : "");
		if (skip) {
			char *s = xasprintf("%s %s", line,
			                    canvas_glyph(c, GLYPH_TRUNCATED));

			free(line);
			line = s;
		}
		for (i = len - skip; i-- > 0;) {
			const char *name = node_name(v, app, chain[i]);
			char *s = xasprintf("%s %s %s", line, arrow,
			                    pass ? bare_name(name) : name);

			free(line);
			line = s;
		}
		if ((int)text_width(line) <= room || skip >= len)
			break;
	}
	canvas_fill(c, 0, y, c->width, " ", ROLE_HEADER);
	canvas_text(c, 0, y, room, line, ROLE_HEADER);
	canvas_text_right(c, 0, y, c->width, right, ROLE_HEADER);
	if (app->base && (int)text_width(right) <= c->width) {
		int x = c->width - (int)text_width(right);

		canvas_set_role(c, x, y, 6, ROLE_SLOWER);
		canvas_set_role(c, x + 7, y, 6, ROLE_FASTER);
	}
	free(right);
	free(line);
	free(chain);
}

static void
icicle_draw(void *state, struct app *app, struct canvas *c, int top, int height)
{
	struct icicle_view *v = state;
	enum clock_index k = app_main_clock(app);
	struct paint pt = {v, app, c, NULL, k, 0, top + 1};
	struct callpath *p;
	int level;

	ensure(v, app);
	p = expanded(v, 0);
	v->width = c->width;
	v->rows = height - 1;
	v->y0 = top + 1;
	pt.p = p;
	pt.total = incl(p, v->zoom, k);
	if (v->sel && v->rows > 0) {
		level = level_of(v, v->sel);
		if (level < v->top)
			v->top = level;
		if (level >= v->top + v->rows)
			v->top = level - v->rows + 1;
	}
	if (v->top < 0 || !pt.total)
		v->top = 0;
	draw_breadcrumb(v, app, c, top, pt.total, k);
	if (v->rows < 1)
		return;
	if (!pt.total) {
		canvas_text(c, 2, top + 1, c->width - 2,
		            p->count > 1 ? "no time on this clock here"
		                         : "no calls in this scope",
		            ROLE_DIM);
		return;
	}
	if ((size_t)(v->top + v->rows) + 1 > v->row_cap) {
		v->row_cap = 2 * (size_t)(v->top + v->rows) + 1;
		v->row_end = xreallocarray(v->row_end, v->row_cap,
		                           sizeof(*v->row_end));
		v->row_hue = xreallocarray(v->row_hue, v->row_cap,
		                           sizeof(*v->row_hue));
	}
	for (level = 0; level <= v->top + v->rows; level++)
		v->row_end[level] = -1;
	if (v->zoom) {
		draw_node(&pt, v->zoom, 0, 0, -1);
	} else {
		/* The synthetic root is not drawn: its children make the
		 * first level. */
		uint64_t t = 0;
		uint32_t ch;

		for (ch = p->nodes[0].first_child; ch != CALL_NONE;
		     ch = p->nodes[ch].next_sibling) {
			uint64_t d = incl(p, ch, k);

			if (!wide(d, pt.total, c->width))
				break;
			draw_node(&pt, ch, t, 0, -1);
			t += d;
		}
		if (ch != CALL_NONE && v->top == 0)
			canvas_fill(c, column(t, pt.total, c->width), top + 1,
			            c->width - column(t, pt.total, c->width),
			            canvas_glyph(c, GLYPH_SHADE), ROLE_DIM);
	}
}

/* ---- moving ------------------------------------------------------------ */

/* True when node n gets a cell under the current zoom. */
static bool
shown(const struct icicle_view *v, const struct app *app, uint32_t n)
{
	enum clock_index k = app_main_clock(app);
	const struct callpath *p = tree_of(v);

	return n && wide(incl(p, n, k), incl(p, v->zoom, k), view_width(v));
}

static uint32_t
first_child(struct icicle_view *v, const struct app *app, uint32_t n)
{
	uint32_t ch = expanded(v, n)->nodes[n].first_child;

	return ch != CALL_NONE && shown(v, app, ch) ? ch : 0;
}

static uint32_t
parent_in_zoom(const struct icicle_view *v, uint32_t n)
{
	uint32_t up = tree_of(v)->nodes[n].parent;

	return n == v->zoom || up == 0 || up == CALL_NONE ? 0 : up;
}

static uint32_t
sibling(const struct icicle_view *v, const struct app *app, uint32_t n, int dir)
{
	const struct callpath *p = tree_of(v);
	uint32_t ch, prev = 0;

	if (n == v->zoom)
		return 0;
	if (dir > 0) {
		ch = p->nodes[n].next_sibling;
		return ch != CALL_NONE && shown(v, app, ch) ? ch : 0;
	}
	for (ch = p->nodes[p->nodes[n].parent].first_child; ch != n;
	     ch = p->nodes[ch].next_sibling)
		prev = ch;
	return prev;
}

/* The first level's first frame, the top of what is shown. */
static uint32_t
first_frame(struct icicle_view *v, const struct app *app)
{
	return v->zoom ? v->zoom : first_child(v, app, 0);
}

static void
move_levels(struct icicle_view *v, struct app *app, int delta)
{
	uint32_t n = v->sel, next;

	for (; delta < 0 && (next = parent_in_zoom(v, n)); delta++)
		n = next;
	for (; delta > 0 && (next = first_child(v, app, n)); delta--)
		n = next;
	if (n != v->sel)
		select_node(v, app, n);
}

/* Focus on the selected frame's call path (the methods from a root down
 * to it; thread frames are not methods). */
static void
focus_call_path(const struct icicle_view *v, struct app *app)
{
	const struct callpath *p = tree_of(v);
	uint32_t *path, n = 0, i, k;

	for (i = v->sel; i != CALL_NONE; i = p->nodes[i].parent)
		n += p->nodes[i].method != CALL_NONE;
	path = xcalloc(n + 1, sizeof(*path));
	i = v->sel;
	for (k = n; k > 0; i = p->nodes[i].parent)
		if (p->nodes[i].method != CALL_NONE)
			path[--k] = p->nodes[i].method;
	app_transform_path(app, path, n);
}

static enum view_result
icicle_request(void *state, struct app *app, enum request req)
{
	struct icicle_view *v = state;
	int page = v->rows > 1 ? v->rows - 1 : 1;
	uint32_t n;

	ensure(v, app);
	if (req == REQ_INVERT) {
		/* The zoom's method, zoomed on in the other tree. */
		uint32_t zm = v->zoom && callpath_is_method(
		                                 &tree_of(v)->nodes[v->zoom])
		                      ? tree_of(v)->nodes[v->zoom].method
		                      : CALL_NONE;

		v->mode = v->mode == TOP_DOWN ? BOTTOM_UP : TOP_DOWN;
		v->zoom = v->sel = 0;
		v->top = 0;
		ensure(v, app);
		if (zm != CALL_NONE)
			zoom_on_method(v, app, zm);
		return VIEW_DONE;
	}
	if (req == REQ_BACK_OUT) {
		if (!v->zoom)
			return VIEW_UNHANDLED;
		v->zoom = tree_of(v)->nodes[v->zoom].parent;
		v->top = 0;
		return VIEW_DONE;
	}
	if (!v->sel)
		return req == REQ_ENTER ? VIEW_DONE : VIEW_UNHANDLED;
	if (req == REQ_TRANSFORM_FOCUS && v->mode == TOP_DOWN) {
		focus_call_path(v, app);
		return VIEW_DONE;
	}
	switch (req) {
	case REQ_MOVE_UP:
		move_levels(v, app, -1);
		return VIEW_DONE;
	case REQ_MOVE_DOWN:
		move_levels(v, app, 1);
		return VIEW_DONE;
	case REQ_PAGE_UP:
		move_levels(v, app, -page);
		return VIEW_DONE;
	case REQ_PAGE_DOWN:
		move_levels(v, app, page);
		return VIEW_DONE;
	case REQ_MOVE_FIRST:
		if ((n = first_frame(v, app)))
			select_node(v, app, n);
		return VIEW_DONE;
	case REQ_MOVE_LAST:
		move_levels(v, app, INT32_MAX);
		return VIEW_DONE;
	case REQ_EXPAND:
	case REQ_COLLAPSE:
		n = sibling(v, app, v->sel, req == REQ_EXPAND ? 1 : -1);
		if (n)
			select_node(v, app, n);
		return VIEW_DONE;
	case REQ_ENTER:
		if (v->sel == v->zoom)
			app_message(app, false,
			            "zoomed into this frame: u zooms out");
		v->zoom = v->sel;
		v->top = 0;
		return VIEW_DONE;
	default:
		return VIEW_UNHANDLED;
	}
}

/* ---- the mouse --------------------------------------------------------- */

/* The frame drawn at column x of level (0: the zoomed frame, or the
 * roots), laid out as the draw lays it out, or 0 for none. */
static uint32_t
frame_at(struct icicle_view *v, const struct app *app, int x, int level)
{
	enum clock_index k = app_main_clock(app);
	struct callpath *p = &v->cur.trees[v->mode];
	uint64_t total = incl(p, v->zoom, k), t = 0, d;
	int w = v->width, l = v->zoom ? 0 : -1;
	uint32_t n = v->zoom, ch;

	if (!total || x < 0 || x >= w || level < 0)
		return 0;
	for (; l < level; l++, n = ch) {
		callpath_expand(p, n);
		for (ch = p->nodes[n].first_child; ch != CALL_NONE;
		     ch = p->nodes[ch].next_sibling) {
			d = incl(p, ch, k);
			if (!wide(d, total, w))
				return 0;
			if (x < column(t + d, total, w))
				break;
			t += d;
		}
		if (ch == CALL_NONE)
			return 0;
	}
	return n;
}

/* A click selects the frame under it (again: zooms into it, as Enter
 * does), one on the breadcrumb zooms out; the wheel moves the selection
 * a level down or up (sideways: to a sibling). */
static enum view_result
icicle_mouse(void *state, struct app *app, const struct mouse_event *ev,
             struct view_ask *ask)
{
	struct icicle_view *v = state;
	uint32_t n;

	(void)ask;
	ensure(v, app);
	if (ev->kind == MOUSE_WHEEL) {
		if (!v->sel)
			return VIEW_UNHANDLED;
		if (ev->dy)
			move_levels(v, app, ev->dy);
		else if ((n = sibling(v, app, v->sel, ev->dx)))
			select_node(v, app, n);
		return VIEW_DONE;
	}
	if (ev->kind != MOUSE_PRESS || ev->button != 0)
		return VIEW_UNHANDLED;
	if (ev->y == v->y0 - 1)
		return icicle_request(v, app, REQ_BACK_OUT);
	if (ev->y < v->y0 || ev->y >= v->y0 + v->rows)
		return VIEW_UNHANDLED;
	n = frame_at(v, app, ev->x, ev->y - v->y0 + v->top);
	if (!n)
		return VIEW_UNHANDLED;
	if (n == v->sel)
		return VIEW_AGAIN;
	select_node(v, app, n);
	return VIEW_DONE;
}

/* Push the children of n that get a cell, right to left, so the
 * leftmost pops first. */
static void
push_children(struct icicle_view *v, const struct app *app, uint32_t n,
              uint32_t **stack, size_t *depth, size_t *cap)
{
	size_t from = *depth, i;
	uint32_t ch;

	for (ch = first_child(v, app, n); ch; ch = sibling(v, app, ch, 1)) {
		UTIL_GROW(*stack, *cap, *depth + 1);
		(*stack)[(*depth)++] = ch;
	}
	for (i = 0; i < (*depth - from) / 2; i++) {
		uint32_t s = (*stack)[from + i];

		(*stack)[from + i] = (*stack)[*depth - 1 - i];
		(*stack)[*depth - 1 - i] = s;
	}
}

/* Frames that get a cell under the zoom, in pre-order, into v->order;
 * returns how many. */
static size_t
shown_frames(struct icicle_view *v, const struct app *app)
{
	uint32_t *stack = NULL;
	size_t n = 0, depth = 0, cap = 0;

	if (v->zoom) {
		UTIL_GROW(stack, cap, 1);
		stack[depth++] = v->zoom;
	} else {
		push_children(v, app, 0, &stack, &depth, &cap);
	}
	while (depth) {
		uint32_t at = stack[--depth];

		UTIL_GROW(v->order, v->order_cap, n + 1);
		v->order[n++] = at;
		push_children(v, app, at, &stack, &depth, &cap);
	}
	free(stack);
	return n;
}

static bool
icicle_search(void *state, struct app *app, const regex_t *re, int dir)
{
	struct icicle_view *v = state;
	size_t n, i, at = 0;
	bool found = false;

	(void)re; /* app->re, through the per-method cache */
	ensure(v, app);
	n = shown_frames(v, app);
	for (i = 0; i < n; i++)
		if (v->order[i] == v->sel)
			at = i, found = true;
	for (i = found ? 1 : 0; i <= n && n; i++) {
		size_t j = dir > 0 ? (at + i) % n : (at + n - i % n) % n;

		if (matches(v, app, tree_of(v)->nodes[v->order[j]].method)) {
			select_node(v, app, v->order[j]);
			return true;
		}
	}
	return false;
}

/* ---- the status line --------------------------------------------------- */

static void
format_pct(char *buf, size_t size, uint64_t part, uint64_t whole)
{
	snprintf(buf, size, "%.1f%%",
	         whole ? 100.0 * (double)part / (double)whole : 0.0);
}

static char *
icicle_status(void *state, struct app *app)
{
	struct icicle_view *v = state;
	enum clock_index k = app_main_clock(app);
	const struct callpath *p;
	const struct callpath_node *x;
	char time[40], all[16], up[16], share[16], was[40];
	char *tail, *search = NULL, *name, *fitted, *text, *vs = NULL, *calls;
	uint64_t base[CLOCK_COUNT];
	const char *what = "";
	bool in_base;
	int room;

	ensure(v, app);
	p = tree_of(v);
	if (!v->sel)
		return NULL;
	/* The search's share and the base's path may make bottom-up nodes,
	 * which moves them: the selected node is read after both. */
	if (app->have_re) {
		format_pct(share, sizeof(share), match_share(v, app, k),
		           incl(p, v->zoom, k));
		search = v->zoom ? xasprintf("matches %s of %s  ", share,
		                             bare_name(node_name(v, app,
		                                                 v->zoom)))
		                 : xasprintf("matches %s  ", share);
	}
	in_base = app->base &&
	          app_base_path(app, p, v->sel, v->mode == BOTTOM_UP, base);
	x = &p->nodes[v->sel];
	format_value(time, sizeof(time), x->incl[k], app);
	format_pct(all, sizeof(all), x->incl[k], incl(p, 0, k));
	format_pct(up, sizeof(up), x->incl[k], incl(p, x->parent, k));
	if (v->mode == BOTTOM_UP && !x->parent)
		what = "self ";
	if (in_base) {
		format_value(was, sizeof(was), base[k], app);
		vs = xasprintf("  base %s, new %s", was, time);
	} else if (app->base) {
		vs = xasprintf("  not in base, new %s", time);
	}
	/* A pprof profile's calls are only runs of samples laid end to
	 * end (read/stacks.h): no count to show. */
	if (app->tree->header.format == TRACE_FORMAT_PPROF)
		calls = xstrdup("");
	else
		calls = xasprintf("  %llu call%s", (unsigned long long)x->calls,
		                  x->calls == 1 ? "" : "s");
	tail = xasprintf("  %s%s  %s of all%s%s%s%s%s", what, time, all,
	                 x->parent ? "  " : "", x->parent ? up : "",
	                 x->parent ? " of parent" : "", calls, vs ? vs : "");
	free(calls);
	free(vs);
	/* The numbers stay in view: the name gives way, first its
	 * packages, then its signature, then its package.  Against
	 * --base it stays whole, as diff writes it, the status wrapping
	 * onto the rows above where it must. */
	name = !callpath_is_method(x) ? xstrdup(node_name(v, app, v->sel))
	       : app->base ? method_dotted_name(&app->tree->methods[x->method])
	                   : method_full_name(&app->tree->methods[x->method]);
	room = app->base ? INT_MAX
	                 : view_width(v) - 1 - (int)text_width(tail) -
	                           (search ? (int)text_width(search) : 0);
	fitted = method_fit_name(name, room);
	if ((int)text_width(fitted) > room && callpath_is_method(x)) {
		/* The full class and name, without the signature. */
		char *bare = method_short_name(&app->tree->methods[x->method]);

		free(fitted);
		fitted = method_fit_name(bare, room);
		free(bare);
	}
	if ((int)text_width(fitted) > room) {
		free(fitted);
		fitted = xstrdup(bare_name(node_name(v, app, v->sel)));
	}
	text = xasprintf("%s%s%s", search ? search : "", fitted, tail);
	free(fitted);
	free(name);
	free(tail);
	free(search);
	return text;
}

/* ---- the view ---------------------------------------------------------- */

static void *
icicle_open(struct app *app)
{
	struct icicle_view *v = xcalloc(1, sizeof(*v));

	trees_init(&v->cur);
	trees_init(&v->whole);
	v->last_method = CALL_NONE;
	remember_scope(v, &app->scope);
	return v;
}

static void
icicle_close(void *state)
{
	struct icicle_view *v = state;
	size_t i;

	/* The jobs read the threads' trees. */
	warmup_job_free(v->cur.job);
	warmup_job_free(v->whole.job);
	for (i = 0; i < v->nretired; i++)
		warmup_job_free(v->retired[i]);
	free(v->retired);
	free(v->zoom_path);
	free(v->sel_path);
	trees_done(&v->cur);
	trees_done(&v->whole);
	for (i = 0; v->names && i < v->nnames; i++)
		free(v->names[i]);
	scope_done(&v->seen);
	free(v->names);
	free(v->name_width);
	free(v->match);
	free(v->row_end);
	free(v->row_hue);
	free(v->order);
	free(v);
}

static void
icicle_refresh(void *state, struct app *app)
{
	struct icicle_view *v = state;
	bool was_whole = v->whole_scope;

	if (scope_differs(v, &app->scope)) {
		remember_scope(v, &app->scope);
		change_scope(v, was_whole);
		/* Bottom-up will be wanted first: build it meanwhile. */
		if (v->mode == BOTTOM_UP && app->thread_paths)
			start_job(v, app);
	}
	/* A new clock re-sorts and a new selection is followed on the
	 * next use (ensure). */
}

/* Node n's full name (its method's, or the time outside any method's)
 * as a frame of a path: a ';' in a signature written ',', as `folded`
 * does, so ';' only separates frames. */
static char *
full_name(const struct app *app, const struct callpath_node *node)
{
	char *name =
	        callpath_is_method(node)
	                ? method_full_name(&app->tree->methods[node->method])
	                : xstrdup(CALLPATH_OUTSIDE_NAME);
	char *p;

	for (p = name; (p = strchr(p, ';')); p++)
		*p = ',';
	return name;
}

/* Make the children of n and of every node under it (a bottom-up tree
 * makes them when asked; nothing for a top-down one). */
static void
expand_under(struct callpath *p, uint32_t n)
{
	uint32_t *stack = NULL, ch;
	size_t depth = 0, cap = 0;

	UTIL_GROW(stack, cap, 1);
	stack[depth++] = n;
	while (depth) {
		n = stack[--depth];
		callpath_expand(p, n);
		for (ch = p->nodes[n].first_child; ch != CALL_NONE;
		     ch = p->nodes[ch].next_sibling) {
			UTIL_GROW(stack, cap, depth + 1);
			stack[depth++] = ch;
		}
	}
	free(stack);
}

/* Every frame under the zoom (the zoomed one too), narrow ones included,
 * in pre-order: its depth, inclusive and exclusive value on the main
 * clock, and its path from the outermost frame, folded-style.  Written a
 * row at a time: a bottom-up tree's paths can be too many to hold. */
static size_t
icicle_write(void *state, struct app *app, FILE *out, enum table_format format)
{
	static const char *const names[] = {"Depth", "Incl", "Excl", "Path"};
	static const enum table_kind kinds[] = {TABLE_NUMBER, TABLE_NUMBER,
	                                        TABLE_NUMBER, TABLE_STRING};
	struct icicle_view *v = state;
	enum clock_index k = app_main_clock(app);
	const struct callpath *p;
	uint32_t *stack = NULL, n, ch, deepest = 0;
	char **path = NULL, level_text[24], incl_text[64], excl_text[64];
	const char *cells[4];
	size_t depth = 0, cap = 0, npath = 0, path_cap = 0, i, len, rows = 0;
	size_t widths[4];

	ensure(v, app);
	/* A bottom-up tree's frames under the zoom are made first: the
	 * walk below then reads nodes that no longer move. */
	expand_under(&v->cur.trees[v->mode], v->zoom);
	p = tree_of(v);
	/* Text columns as wide as their widest possible cell. */
	for (i = 0; i < 4; i++)
		widths[i] = strlen(names[i]);
	for (n = 0; n < p->count; n++)
		if (p->nodes[n].depth > deepest)
			deepest = p->nodes[n].depth;
	if ((size_t)snprintf(level_text, sizeof(level_text), "%u", deepest) >
	    widths[0])
		widths[0] = strlen(level_text);
	quantity_format(incl_text, sizeof(incl_text), incl(p, v->zoom, k),
	                app->tree->header.unit, false);
	for (i = 1; i < 3; i++)
		if (strlen(incl_text) > widths[i])
			widths[i] = strlen(incl_text);
	table_print_row(out, format, 4, names, kinds, widths);
	/* The zoomed frame's callers start every path. */
	for (n = v->zoom; n && p->nodes[n].parent; n = p->nodes[n].parent)
		npath++;
	UTIL_GROW(path, path_cap, npath + 1);
	for (i = npath, n = v->zoom; i > 0; n = p->nodes[n].parent)
		path[--i] = full_name(app, &p->nodes[p->nodes[n].parent]);
	UTIL_GROW(stack, cap, 1);
	if (v->zoom)
		stack[depth++] = v->zoom;
	else
		for (ch = p->nodes[0].first_child; ch != CALL_NONE;
		     ch = p->nodes[ch].next_sibling) {
			UTIL_GROW(stack, cap, depth + 1);
			stack[depth++] = ch;
		}
	/* Siblings were pushed first to last: pop them in that order. */
	for (i = 0; i < depth / 2; i++) {
		uint32_t s = stack[i];

		stack[i] = stack[depth - 1 - i];
		stack[depth - 1 - i] = s;
	}
	while (depth) {
		const struct callpath_node *node = &p->nodes[stack[--depth]];
		uint32_t level = node->depth, from = (uint32_t)depth;
		char *joined;

		n = stack[depth];
		while (npath >= level)
			free(path[--npath]);
		UTIL_GROW(path, path_cap, npath + 1);
		path[npath++] = full_name(app, node);
		snprintf(level_text, sizeof(level_text), "%u", level);
		quantity_format(incl_text, sizeof(incl_text), node->incl[k],
		                app->tree->header.unit, false);
		quantity_format(excl_text, sizeof(excl_text),
		                callpath_excl(p, n, k), app->tree->header.unit,
		                false);
		for (len = 0, i = 0; i < npath; i++)
			len += strlen(path[i]) + 1;
		joined = xmalloc(len);
		for (len = 0, i = 0; i < npath; i++) {
			size_t l = strlen(path[i]);

			memcpy(joined + len, path[i], l);
			joined[len + l] = i + 1 < npath ? ';' : '\0';
			len += l + 1;
		}
		cells[0] = level_text;
		cells[1] = incl_text;
		cells[2] = excl_text;
		cells[3] = joined;
		table_print_row(out, format, 4, cells, kinds, widths);
		free(joined);
		rows++;
		for (ch = node->first_child; ch != CALL_NONE;
		     ch = p->nodes[ch].next_sibling) {
			UTIL_GROW(stack, cap, depth + 1);
			stack[depth++] = ch;
		}
		for (i = 0; i < (depth - from) / 2; i++) {
			uint32_t s = stack[from + i];

			stack[from + i] = stack[depth - 1 - i];
			stack[depth - 1 - i] = s;
		}
	}
	while (npath)
		free(path[--npath]);
	free(path);
	free(stack);
	return rows;
}

const struct view_ops view_icicle_ops = {
        .name = "Icicle",
        .needs_calls = true,
        .paths_will_do = true,
        .hints = "Enter:zoom  u:out  hjkl:frames  b:bottom-up  c:clock",
        .open = icicle_open,
        .close = icicle_close,
        .draw = icicle_draw,
        .request = icicle_request,
        .search = icicle_search,
        .status = icicle_status,
        .refresh = icicle_refresh,
        .mouse = icicle_mouse,
        .write = icicle_write,
};
