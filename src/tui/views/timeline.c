/*
 * timeline: the call chart.  Per thread of the scope, a header line and
 * one row per stack depth on a shared time axis with a scale; each call
 * a bar from its start to its end, labelled with its method (as much of
 * the name as fits, the class elided in its middle, never the method's
 * own name), in a hue per package.  A bar opens with an edge glyph, so
 * neighbouring bars stay apart without colour.  Cells where calls
 * narrower than half a cell are show a thin mark (query/chart.h), so no
 * call vanishes however far out the zoom is.
 *
 * The selection is a thread's header or one call of it; the call is
 * outlined (drawn in the cursor's role over its whole extent) and
 * described in a panel under the chart: method, start, inclusive and
 * exclusive times on both clocks, depth, and the stack above it.  Left
 * and right go to the previous and next call at the same depth, up to
 * the caller (from a root: the header), down to the first callee (from a
 * header: the root open at the time cursor).  Enter or Space on a header
 * folds or unfolds the thread; a folded thread shows its roots on the
 * header line, and `O` folds (or unfolds) them all.  Threads come by
 * busy time, the one that draws frames (Choreographer.doFrame's, else
 * main) first; those without a call in the range wait behind a line
 * that counts them, shown by `H`.  A thread shows as many depths as fit, and
 * `+N deeper` says how many do not; the current thread's depths scroll to keep
 * the selected call in sight.
 *
 * The window is a whole number of columns of `col` microseconds each:
 * slices start at multiples of col, so panning never reshuffles cells.
 * Until the user zooms or pans, the window fits the whole trace (or the
 * applied range) to the width; `0` fits again, `z` fits the selected
 * call, and zooming goes through 1, 2, 5 times powers of ten.  `w` lays
 * the calls out on the other clock (each thread on its own cpu time, as
 * Android Studio's thread time does).  `/` highlights every call of the
 * matching methods; `n`/`N`, and `.`/`,` for the selected method, step
 * through calls in time order across the threads of the scope, `L` goes
 * to the longest.  `v` anchors a range at the selection, moving extends
 * it, `V` applies it to every view through app_set_range.  The selected
 * call is the app's selection (tui/selection.h): its method, call and
 * stack; shown again, the chart opens on the app's selection, its call
 * or else its method's longest call.
 *
 * The index is built at the first draw or request (or taken from the
 * warmup); the other clock's, at the first `W`, is taken from the warmup
 * too (or built sharing the first's clock-free parts), and both are kept.
 * Drawing asks the index for each visible thread's cells, one descent per
 * column (query/chart.c), never for every call of the span.
 */
#include "config.h"

#include "tui/views/timeline.h"

#include "query/chart.h"
#include "query/method-name.h"
#include "query/quantity.h"
#include "text/duration.h"
#include "text/width.h"
#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- requests --------------------------------------------------------- */

/* Move the time cursor to the start of column cx (on a header). */
static void
cursor_to_column(struct timeline_view *v, uint64_t cx)
{
	v->cursor = cx * v->col;
	tlv_keep_cursor_in(v);
	tlv_show_cursor(v, false);
}

/* Pan a screen right (dir 1) or left (-1), the cursor along; a
 * selected call gives way to the one at its depth under the cursor. */
static void
pan(struct timeline_view *v, const struct calltree *tree, int dir)
{
	uint64_t p = (uint64_t)tlv_plot_width(v), last;
	uint32_t d = v->call != CALL_NONE ? calltree_depth(tree, v->call) : 0;
	bool on_call = v->call != CALL_NONE;

	if (v->fit != FIT_NONE) {
		v->cursor = dir > 0 ? v->hi : v->lo;
	} else {
		last = v->hi / v->col;
		if (dir > 0) {
			v->first = v->first + p <= last ? v->first + p : last;
			v->cursor += p * v->col;
		} else {
			v->first = v->first > p ? v->first - p : 0;
			v->cursor = v->cursor > p * v->col
			                    ? v->cursor - p * v->col
			                    : 0;
		}
	}
	tlv_keep_cursor_in(v);
	tlv_show_cursor(v, false);
	v->call = CALL_NONE;
	if (on_call) {
		uint64_t keep = v->cursor;

		v->call = tlv_call_near(v, tree, v->cursor, d);
		v->cursor = keep;
	}
}

/* The position to step from: the selection, else the time cursor. */
static struct chart_hit
here(const struct timeline_view *v, const struct calltree *tree, int dir)
{
	struct chart_hit h;

	if (v->call != CALL_NONE) {
		h.start = calltree_start(tree, v->call, v->clock);
		h.thread = tlv_current_thread(v);
		h.call = v->call;
	} else {
		h.start = v->cursor;
		h.thread = dir > 0 ? 0 : UINT32_MAX;
		h.call = dir > 0 ? 0 : UINT32_MAX;
	}
	return h;
}

/* The next, previous or longest call of the selected method on the
 * threads of the scope. */
static void
call_jump(struct timeline_view *v, struct app *app, enum request req)
{
	const struct calltree *tree = app->tree;
	uint32_t m = app->sel.method;
	int dir = req == REQ_CALL_PREV ? -1 : 1;
	struct chart_hit h = here(v, tree, dir);
	bool *one, found;
	char *name;

	if (m == CALL_NONE) {
		app_message(app, false,
		            "no method selected: Enter on a call "
		            "selects its method");
		return;
	}
	if (v->call_guessed && req != REQ_CALL_LONGEST) {
		/* Not chosen here: the first (or last) call of all. */
		h.start = dir > 0 ? 0 : UINT64_MAX;
		h.thread = h.call = dir > 0 ? 0 : UINT32_MAX;
	}
	if (req == REQ_CALL_LONGEST) {
		found = chart_longest(tlv_index_of(v), &app->scope, m, &h);
	} else {
		one = xcalloc(tree->nmethods + 1, sizeof(*one));
		one[m] = true;
		found = chart_step(tlv_index_of(v), &app->scope, one,
		                   req == REQ_CALL_NEXT ? 1 : -1, &h);
		free(one);
	}
	if (!found) {
		name = app_method_name(app, m);
		if (req == REQ_CALL_LONGEST)
			app_message(app, false, "%s has no call in the scope",
			            name);
		else
			app_message(app, false, "no %s call of %s",
			            req == REQ_CALL_NEXT ? "later" : "earlier",
			            name);
		free(name);
		return;
	}
	tlv_select_on_thread(v, tree, h.thread, h.call);
	if (req == REQ_CALL_LONGEST) {
		uint64_t s = calltree_start(tree, h.call, v->clock);

		v->fit = FIT_NONE;
		tlv_fit_window(v, s, calltree_end(tree, h.call, v->clock));
		v->cursor = s;
	}
}

static void
apply_range(struct timeline_view *v, struct app *app)
{
	struct time_range r = {0};
	char a[32], b[32];

	if (!v->marking) {
		app_message(app, false, "no range: v starts one at the cursor");
		return;
	}
	r.on = true;
	r.clock = v->clock;
	tlv_marked(v, app->tree, &r.start, &r.end);
	v->marking = false;
	app_set_range(app, &r); /* refreshes this view, which fits it */
	duration_label(a, sizeof(a), r.start, v->ascii);
	duration_label(b, sizeof(b), r.end, v->ascii);
	app_message(app, false, "range %s..%s applied to every view (X clears)",
	            a, b);
}

/* Up: the caller, the header, the header above. */
static void
move_up(struct timeline_view *v, struct app *app)
{
	const struct calltree *tree = app->tree;

	if (v->call != CALL_NONE) {
		v->call = calltree_parent(tree, v->call);
		if (v->call != CALL_NONE)
			tlv_select_call(v, tree, v->call);
		return;
	}
	if (v->cur) {
		v->cur--;
		v->dtop = 0;
	}
}

/* Down: the first callee, the root under the cursor, the next header. */
static void
move_down(struct timeline_view *v, struct app *app)
{
	const struct calltree *tree = app->tree;
	const struct timeline *tl = tlv_index_of(v);
	uint32_t t = tlv_current_thread(v), g;

	if (t == UINT32_MAX)
		return;
	if (v->call != CALL_NONE) {
		g = timeline_first_callee(tl, t, v->call);
		if (g == CALL_NONE) {
			char *name = app_method_name(
			        app, calltree_method(tree, v->call));

			app_message(app, false, "%s calls nothing", name);
			free(name);
			return;
		}
		tlv_select_call(v, tree, g);
		return;
	}
	if (!v->folded[t] && tree->threads[t].ncalls) {
		g = tlv_call_near(v, tree, v->cursor, 0);
		if (g == CALL_NONE)
			g = timeline_first_from(tl, t, v->cursor);
		if (g == CALL_NONE)
			g = timeline_last_at_depth(tl, t, 0);
		if (g != CALL_NONE) {
			while (calltree_depth(tree, g) > 0)
				g = calltree_parent(tree, g);
			tlv_select_call(v, tree, g);
			return;
		}
	}
	if (v->cur + 1 < v->nrows) {
		v->cur++;
		v->dtop = 0;
	}
}

/* Left or right along the selected call's depth, or the time cursor. */
static void
move_along(struct timeline_view *v, struct app *app, int dir)
{
	const struct calltree *tree = app->tree;
	uint32_t t = tlv_current_thread(v), g;
	uint64_t cx = v->cursor / v->col;

	if (v->call == CALL_NONE) {
		cursor_to_column(v, dir > 0 ? cx + 1 : cx ? cx - 1 : 0);
		return;
	}
	g = dir > 0 ? timeline_next_at_depth(tlv_index_of(v), t, v->call)
	            : timeline_prev_at_depth(tlv_index_of(v), t, v->call);
	if (g == CALL_NONE) {
		app_message(app, false, "no %s call at depth %u on %s",
		            dir > 0 ? "later" : "earlier",
		            calltree_depth(tree, v->call),
		            tree->threads[t].name);
		return;
	}
	tlv_select_call(v, tree, g);
}

/* g or G: the first or last call at the selection's depth. */
static void
move_end(struct timeline_view *v, struct app *app, bool last)
{
	const struct calltree *tree = app->tree;
	uint32_t t = tlv_current_thread(v), g;

	if (v->call == CALL_NONE) {
		cursor_to_column(v, !last           ? v->lo / v->col
		                    : v->hi > v->lo ? (v->hi - 1) / v->col
		                                    : v->lo / v->col);
		return;
	}
	g = last ? timeline_last_at_depth(tlv_index_of(v), t,
	                                  calltree_depth(tree, v->call))
	         : timeline_first_at_depth(tlv_index_of(v), t,
	                                   calltree_depth(tree, v->call));
	if (g != CALL_NONE)
		tlv_select_call(v, tree, g);
}

/* Lay the calls out on the other clock, keeping the selection.  Both
 * clocks' indexes are kept: the other one comes from the warmup, which
 * builds it after the first (sharing its method lists and depth blocks:
 * about 3 bytes a call), so the key waits at most for what the warmup
 * has left of it. */
static void
switch_clock(struct timeline_view *v, struct app *app)
{
	const struct calltree *tree = app->tree;
	enum clock_index was = v->clock;
	enum clock_index k = was == CLOCK_WALL ? CLOCK_CPU : CLOCK_WALL;

	if (!tree->has_clock[k]) {
		app_message(app, false, "this trace has only the %s clock",
		            v->clock == CLOCK_WALL ? "wall" : "thread-cpu");
		return;
	}
	v->clock = k;
	v->marking = false;
	if (!v->index[k]) {
		app_wait_notice(app,
		                k == CLOCK_WALL
		                        ? "the wall clock's timeline index"
		                        : "the thread-cpu clock's timeline "
		                          "index");
		v->index[k] = warmup_take_timeline(app->warmup, k);
		if (!v->index[k] && app->notice)
			app->notice(
			        k == CLOCK_WALL
			                ? "Laying the calls out on the wall "
			                  "clock..."
			                : "Laying the calls out on the "
			                  "thread-cpu clock...");
		if (!v->index[k])
			v->index[k] =
			        v->index[was]
			                ? timeline_new_sharing(v->index[was], k)
			                : timeline_new(tree, k);
	}
	tlv_measure_span(v, tree);
	/* Which threads are idle depends on the clock. */
	v->rows_stale = true;
	v->fit = FIT_TARGET;
	tlv_refit(v, app);
	if (v->call != CALL_NONE)
		v->cursor = calltree_start(tree, v->call, k);
	tlv_keep_cursor_in(v);
	app_message(app, false, "calls laid out on the %s clock%s",
	            k == CLOCK_WALL ? "wall" : "thread-cpu",
	            k == CLOCK_CPU ? " (each thread's own time)" : "");
}

static void
fold(struct timeline_view *v)
{
	uint32_t t = tlv_current_thread(v);

	if (t == UINT32_MAX)
		return;
	v->folded[t] = !v->folded[t];
	v->call = CALL_NONE;
	v->dtop = 0;
}

/* Fold every thread, or unfold every one when all are folded. */
static void
fold_all(struct timeline_view *v, struct app *app)
{
	bool all = true;
	size_t i;

	for (i = 0; i < v->nrows; i++)
		all = all && v->folded[v->rows[i]];
	for (i = 0; i < v->nrows; i++)
		v->folded[v->rows[i]] = !all;
	v->call = CALL_NONE;
	v->dtop = 0;
	app_message(app, false, "%s (O: %s)",
	            all ? "every thread unfolded" : "every thread folded",
	            all ? "fold them" : "unfold them");
}

static enum view_result
request(struct timeline_view *v, struct app *app, enum request req)
{
	const struct calltree *tree = app->tree;
	uint64_t from, to;

	tlv_ensure(v, app);
	switch (req) {
	case REQ_MOVE_UP:
		move_up(v, app);
		return VIEW_DONE;
	case REQ_MOVE_DOWN:
		move_down(v, app);
		return VIEW_DONE;
	case REQ_EXPAND:
		move_along(v, app, 1);
		return VIEW_DONE;
	case REQ_COLLAPSE:
		move_along(v, app, -1);
		return VIEW_DONE;
	case REQ_PAGE_DOWN:
		pan(v, tree, 1);
		return VIEW_DONE;
	case REQ_PAGE_UP:
		pan(v, tree, -1);
		return VIEW_DONE;
	case REQ_MOVE_FIRST:
		move_end(v, app, false);
		return VIEW_DONE;
	case REQ_MOVE_LAST:
		move_end(v, app, true);
		return VIEW_DONE;
	case REQ_ZOOM_IN:
		if (v->col == 1) {
			app_message(app, false,
			            "zoomed in all the way: 1 %s a column",
			            v->ascii ? "us" : "\u00b5s");
			return VIEW_DONE;
		}
		tlv_zoom_to(v, tlv_nice_below(v->col));
		return VIEW_DONE;
	case REQ_ZOOM_OUT:
		if (v->col >= tlv_col_for(v, v->lo, v->hi)) {
			app_message(app, false, "the whole trace is in view");
			return VIEW_DONE;
		}
		tlv_zoom_to(v, tlv_nice_at_least(v->col + 1));
		return VIEW_DONE;
	case REQ_FIT:
		v->fit = FIT_TARGET;
		tlv_refit(v, app);
		return VIEW_DONE;
	case REQ_ZOOM_CALL:
		if (v->call == CALL_NONE) {
			app_message(app, false,
			            "no call selected: Down selects one");
			return VIEW_DONE;
		}
		tlv_selected_span(v, tree, &from, &to);
		v->fit = FIT_NONE;
		tlv_fit_window(v, from, to);
		v->cursor = from;
		return VIEW_DONE;
	case REQ_CHART_CLOCK:
		switch_clock(v, app);
		return VIEW_DONE;
	case REQ_CALL_NEXT:
	case REQ_CALL_PREV:
	case REQ_CALL_LONGEST:
		call_jump(v, app, req);
		return VIEW_DONE;
	case REQ_SORT_NEXT:
	case REQ_SORT_PREV:
		v->sort = (v->sort + 1) % SORT_COUNT;
		v->reverse = false;
		tlv_build_rows(v, app);
		app_message(app, false, "threads by %s",
		            v->sort == SORT_NAME ? "name" : "busy time");
		return VIEW_DONE;
	case REQ_SORT_REVERSE:
		v->reverse = !v->reverse;
		tlv_build_rows(v, app);
		return VIEW_DONE;
	case REQ_TAG:
		fold(v);
		return VIEW_DONE;
	case REQ_FOLD_ALL:
		fold_all(v, app);
		return VIEW_DONE;
	case REQ_SHOW_IDLE:
		v->show_idle = !v->show_idle;
		tlv_build_rows(v, app);
		app_message(app, false, "%s",
		            v->show_idle ? "every thread of the scope (H: only "
		                           "those busy in the range)"
		                         : "only threads busy in the range "
		                           "(H: every thread)");
		return VIEW_DONE;
	case REQ_ENTER:
		if (v->call == CALL_NONE) {
			fold(v);
			return VIEW_DONE;
		}
		app_jump(app, APP_VIEW_TIMELINE,
		         calltree_method(tree, v->call));
		return VIEW_DONE;
	case REQ_RANGE_START:
		v->marking = true;
		tlv_selected_span(v, tree, &v->mark_lo, &v->mark_hi);
		return VIEW_DONE;
	case REQ_RANGE_APPLY:
		apply_range(v, app);
		return VIEW_DONE;
	case REQ_RANGE_CLEAR:
		if (v->marking && !app->scope.range.on) {
			v->marking = false;
			app_message(app, false, "range selection dropped");
			return VIEW_DONE;
		}
		v->marking = false;
		return VIEW_UNHANDLED;
	case REQ_BACK_OUT:
		if (v->marking) {
			v->marking = false;
			return VIEW_DONE;
		}
		if (v->call != CALL_NONE) {
			/* Out of the calls to the thread's header first. */
			v->call = CALL_NONE;
			return VIEW_DONE;
		}
		return VIEW_UNHANDLED;
	default:
		return VIEW_UNHANDLED;
	}
}

/* A request; the call it leaves selected is the app's selection. */
static enum view_result
timeline_request(void *state, struct app *app, enum request req)
{
	struct timeline_view *v = state;
	uint32_t was = v->call;
	enum view_result r = request(v, app, req);

	if (v->call != was || req == REQ_CALL_NEXT || req == REQ_CALL_PREV ||
	    req == REQ_CALL_LONGEST)
		tlv_publish(v, app);
	return r;
}

/* ---- the mouse -------------------------------------------------------- */

/* The plot column under screen column x, kept inside the plot. */
static uint64_t
column_at(const struct timeline_view *v, int x)
{
	int p = v->plot > 0 ? v->plot : 1;

	x -= v->x0;
	return v->first + (uint64_t)(x < 0 ? 0 : x >= p ? p - 1 : x);
}

/* A wheel's notch along the time axis: an eighth of the plot, the
 * cursor left where it is. */
static void
wheel_pan(struct timeline_view *v, int dir)
{
	uint64_t p = (uint64_t)tlv_plot_width(v), n = p / 8 ? p / 8 : 1;
	uint64_t least = v->lo / v->col, last = v->hi / v->col + 1;
	uint64_t most = last > p ? last - p : least, first = v->first;

	if (most < least)
		most = least;
	/* Never past either end, nor back from beyond one. */
	if (dir > 0 && first < most)
		first = first + n < most ? first + n : most;
	else if (dir < 0 && first > least)
		first = first > least + n ? first - n : least;
	if (first != v->first) {
		v->fit = FIT_NONE;
		v->first = first;
	}
}

/* A wheel's notch across the threads: the next or previous header. */
static void
wheel_threads(struct timeline_view *v, int dir)
{
	if (dir > 0 && v->cur + 1 < v->nrows)
		v->cur++;
	else if (dir < 0 && v->cur > 0)
		v->cur--;
	else if (v->call == CALL_NONE)
		return;
	v->call = CALL_NONE;
	v->dtop = 0;
}

/* A press on the axis: the time cursor there, and a range anchored on
 * its column for a drag to extend. */
static void
axis_press(struct timeline_view *v, const struct calltree *tree, int x)
{
	v->call = CALL_NONE;
	v->drag_col = column_at(v, x);
	v->cursor = v->drag_col * v->col;
	tlv_keep_cursor_in(v);
	v->marking = true;
	v->dragging = true;
	tlv_selected_span(v, tree, &v->mark_lo, &v->mark_hi);
}

/* A left press on a thread's line: its header (which Enter folds) or
 * the call drawn under the pointer. */
static enum view_result
line_press(struct timeline_view *v, struct app *app, int x, int y)
{
	const struct drawn_line *l;
	uint32_t c;
	uint64_t s, e, at;

	if (y < v->line_y || y >= v->line_y + v->nlines)
		return VIEW_UNHANDLED;
	l = &v->lines[y - v->line_y];
	if (l->row >= v->nrows)
		return VIEW_UNHANDLED;
	if (l->header) {
		if (l->row != v->cur)
			v->dtop = 0;
		v->cur = l->row;
		v->call = CALL_NONE;
		return VIEW_AGAIN;
	}
	if (x < v->x0 || x >= v->x0 + v->plot)
		return VIEW_UNHANDLED;
	c = l->cells[x - v->x0];
	if (c == CALL_NONE || c == CHART_MARK)
		return VIEW_UNHANDLED;
	if (l->row == v->cur && c == v->call)
		return VIEW_AGAIN;
	if (l->row != v->cur)
		v->dtop = 0;
	v->cur = l->row;
	v->call = c;
	/* The time cursor under the pointer, inside the call: the window
	 * stays where it is. */
	s = calltree_start(app->tree, c, v->clock);
	e = calltree_end(app->tree, c, v->clock);
	at = column_at(v, x) * v->col;
	v->cursor = at < s ? s : at >= e && e > s ? e - 1 : at;
	return VIEW_DONE;
}

static enum view_result
mouse(struct timeline_view *v, struct app *app, const struct mouse_event *ev)
{
	tlv_ensure(v, app);
	if (!v->nrows || !v->lines)
		return VIEW_UNHANDLED;
	if (v->dragging &&
	    (ev->kind == MOUSE_DRAG || ev->kind == MOUSE_RELEASE)) {
		v->cursor = column_at(v, ev->x) * v->col;
		tlv_keep_cursor_in(v);
		if (ev->kind == MOUSE_DRAG)
			return VIEW_DONE;
		v->dragging = false;
		if (v->cursor / v->col == v->drag_col)
			v->marking = false; /* a click: the cursor moved */
		else
			apply_range(v, app);
		return VIEW_DONE;
	}
	if (ev->kind == MOUSE_PRESS)
		v->dragging = false; /* its release never came */
	if (ev->kind == MOUSE_WHEEL) {
		if (ev->dy && (ev->ctrl || ev->shift || ev->x < v->x0))
			wheel_threads(v, ev->dy);
		else
			wheel_pan(v, ev->dx ? ev->dx : ev->dy);
		return VIEW_DONE;
	}
	if (ev->kind != MOUSE_PRESS || ev->button != 0)
		return VIEW_UNHANDLED;
	if (ev->y == v->axis_y) {
		if (ev->x < v->x0)
			return VIEW_UNHANDLED;
		axis_press(v, app->tree, ev->x);
		return VIEW_DONE;
	}
	return line_press(v, app, ev->x, ev->y);
}

static enum view_result
timeline_mouse(void *state, struct app *app, const struct mouse_event *ev,
               struct view_ask *ask)
{
	struct timeline_view *v = state;
	uint32_t was = v->call;
	enum view_result r;

	(void)ask;
	r = mouse(v, app, ev);
	if (v->call != was)
		tlv_publish(v, app);
	return r;
}

/* The next (dir 1) or previous call of a matching method, across the
 * threads of the scope in time order. */
static bool
timeline_search(void *state, struct app *app, const regex_t *re, int dir)
{
	struct timeline_view *v = state;
	const bool *match;
	struct chart_hit h;

	(void)re;
	tlv_ensure(v, app);
	match = tlv_matches(v, app);
	h = here(v, app->tree, dir);
	if (!match || !chart_step(tlv_index_of(v), &app->scope, match, dir, &h))
		return false;
	tlv_select_on_thread(v, app->tree, h.thread, h.call);
	tlv_publish(v, app);
	return true;
}

/* "thread at time: A (dur) > B (dur) > C (dur)", innermost last; the
 * outermost frames give way first when the line is too narrow. */
static char *
timeline_status(void *state, struct app *app)
{
	struct timeline_view *v = state;
	const struct calltree *tree = app->tree;
	uint32_t t, c, g;
	char at[32], d[32], *head, *line, **frames;
	const char *clock;
	size_t n = 0, i, skip = 0;

	if (!tlv_index_of(v) || !v->nrows)
		return NULL;
	t = tlv_current_thread(v);
	c = v->call;
	clock = tlv_clock_name(v->clock);
	duration_label(at, sizeof(at),
	               c != CALL_NONE ? calltree_start(tree, c, v->clock)
	                              : v->cursor,
	               v->ascii);
	if (v->marking) {
		uint64_t from, to;
		char a[32], b[32];

		tlv_marked(v, tree, &from, &to);
		duration_label(a, sizeof(a), from, v->ascii);
		duration_label(b, sizeof(b), to, v->ascii);
		duration_label(d, sizeof(d), to - from, v->ascii);
		head = xasprintf("range %s..%s (%s) | %s, %s %s", a, b, d,
		                 tree->threads[t].name, clock, at);
	} else {
		head = xasprintf("%s, %s %s", tree->threads[t].name, clock, at);
	}
	if (c == CALL_NONE) {
		line = xasprintf("%s: %s", head,
		                 v->folded[t] ? "folded" : "thread");
		free(head);
		return line;
	}
	for (g = c; g != CALL_NONE; g = calltree_parent(tree, g))
		n++;
	frames = xcalloc(n + 1, sizeof(*frames));
	for (g = c, i = n; g != CALL_NONE; g = calltree_parent(tree, g)) {
		char *name = method_short_name(
		        &tree->methods[calltree_method(tree, g)]);
		const char *k = name, *p;

		/* The class's own name only. */
		for (p = name; *p; p++)
			if ((*p == '.' || *p == '/') && strchr(p + 1, '.'))
				k = p + 1;
		duration_label(d, sizeof(d),
		               calltree_duration(tree, g, v->clock), v->ascii);
		frames[--i] = xasprintf("%s (%s)", k, d);
		free(name);
	}
	/* Drop outer frames until the line fits (keeping the innermost). */
	for (;;) {
		size_t len = strlen(head) + 8;

		for (i = skip; i < n; i++)
			len += strlen(frames[i]) + 3;
		line = xmalloc(len);
		snprintf(line, len, "%s: %s", head,
		         skip ? (v->ascii ? "~" : "\u2026") : "");
		for (i = skip; i < n; i++) {
			if (i > skip || skip)
				strcat(line, " > ");
			strcat(line, frames[i]);
		}
		if (skip + 1 >= n || (int)text_width(line) <= v->width)
			break;
		free(line);
		skip++;
	}
	for (i = 0; i < n; i++)
		free(frames[i]);
	free(frames);
	free(head);
	return line;
}

/* ---- the rest of the interface ---------------------------------------- */

static void *
timeline_open(struct app *app)
{
	struct timeline_view *v = xcalloc(1, sizeof(*v));

	v->clock = calltree_default_range_clock(app->tree);
	v->rows = xcalloc(app->tree->nthreads + 1, sizeof(*v->rows));
	v->folded = xcalloc(app->tree->nthreads + 1, sizeof(*v->folded));
	v->idle = xcalloc(app->tree->nthreads + 1, sizeof(*v->idle));
	v->fit = FIT_TARGET;
	v->col = 1;
	v->call = CALL_NONE;
	v->excl_call = CALL_NONE;
	v->seen = app->scope.range;
	return v;
}

static void
timeline_close(void *state)
{
	struct timeline_view *v = state;
	int k;

	tlv_forget_layout(v);
	for (k = 0; k < CLOCK_COUNT; k++)
		timeline_free(v->index[k]);
	free(v->rows);
	free(v->folded);
	free(v->idle);
	free(v->frame_methods);
	free(v->match);
	free(v);
}

static void
timeline_refresh(void *state, struct app *app)
{
	struct timeline_view *v = state;
	const struct time_range *r = &app->scope.range;

	v->rows_stale = true;
	if (r->on != v->seen.on || r->clock != v->seen.clock ||
	    r->start != v->seen.start || r->end != v->seen.end) {
		v->seen = *r;
		v->marking = false;
		v->fit = FIT_TARGET;
	}
}

/* The i-th call a span lists: the open ones, then the range's. */
static size_t
span_call(const struct scope_span *sp, size_t i)
{
	return i < sp->nopen ? sp->open[i] : sp->first + (i - sp->nopen);
}

/* The text of a value of the chart's clock in the trace's unit. */
static const char *
value_text(char *buf, size_t size, const struct app *app, uint64_t v)
{
	quantity_format(buf, size, v, app->tree->header.unit, false);
	return buf;
}

/* Every call of the scope, thread by thread in the view's order, each
 * thread's in pre-order: its depth, start, inclusive and exclusive time
 * on the clock the bars are laid on (cut at the range's edges), and its
 * method.  Written a row at a time: a trace can have tens of millions of
 * calls, too many to hold as cells. */
static size_t
timeline_write(void *state, struct app *app, FILE *out,
               enum table_format format)
{
	static const char *const names[] = {"Thread", "Depth", "Start",
	                                    "Incl",   "Excl",  "Method"};
	static const enum table_kind kinds[] = {TABLE_STRING, TABLE_NUMBER,
	                                        TABLE_NUMBER, TABLE_NUMBER,
	                                        TABLE_NUMBER, TABLE_STRING};
	struct timeline_view *v = state;
	const struct calltree *tree = app->tree;
	enum clock_index k;
	struct scope_span span = {0};
	uint64_t *children = NULL, dur[CLOCK_COUNT];
	uint32_t *open = NULL;
	size_t r, cap = 0, open_cap = 0, rows = 0, widths[6] = {0}, i;
	char depth[24], at[64], incl[64], excl[64];
	const char *cells[6];

	tlv_ensure(v, app);
	k = v->clock;
	/* Text columns as wide as their widest possible cell: no value
	 * passes the last event, no depth the deepest stack. */
	for (i = 0; i < 6; i++)
		widths[i] = text_width(names[i]);
	for (r = 0; r < v->nrows; r++)
		if (text_width(tree->threads[v->rows[r]].name) > widths[0])
			widths[0] = text_width(tree->threads[v->rows[r]].name);
	snprintf(depth, sizeof(depth), "%u", tree->max_depth);
	if (strlen(depth) > widths[1])
		widths[1] = strlen(depth);
	for (i = 2; i < 5; i++)
		if (strlen(value_text(at, sizeof(at), app, v->hi)) > widths[i])
			widths[i] = strlen(at);
	table_print_row(out, format, 6, names, kinds, widths);
	for (r = 0; r < v->nrows; r++) {
		uint32_t th = v->rows[r];
		size_t n, nopen = 0;

		scope_span_of(&span, &app->scope, tree, th);
		n = span.nopen + (span.end - span.first);
		UTIL_GROW(children, cap, n + 1);
		UTIL_GROW(open, open_cap, n + 1);
		memset(children, 0, (n + 1) * sizeof(*children));
		/* The children's time, each call's added to its caller's:
		 * the last listed call less deep than it. */
		for (i = 0; i < n; i++) {
			size_t c = span_call(&span, i);
			uint32_t d = calltree_depth(tree, c);

			while (nopen &&
			       calltree_depth(
			               tree,
			               span_call(&span, open[nopen - 1])) >= d)
				nopen--;
			scope_clip(&app->scope, tree, &span, c, dur);
			if (nopen)
				children[open[nopen - 1]] += dur[k];
			open[nopen++] = (uint32_t)i;
		}
		for (i = 0; i < n; i++) {
			size_t c = span_call(&span, i);
			uint64_t start = calltree_start(tree, c, k);
			char *name = method_full_name(
			        &tree->methods[calltree_method(tree, c)]);

			if (app->scope.range.on && start < span.at_start[k])
				start = span.at_start[k];
			scope_clip(&app->scope, tree, &span, c, dur);
			snprintf(depth, sizeof(depth), "%u",
			         calltree_depth(tree, c));
			cells[0] = tree->threads[th].name;
			cells[1] = depth;
			cells[2] = value_text(at, sizeof(at), app, start);
			cells[3] = value_text(incl, sizeof(incl), app, dur[k]);
			cells[4] = value_text(excl, sizeof(excl), app,
			                      dur[k] > children[i]
			                              ? dur[k] - children[i]
			                              : 0);
			cells[5] = name;
			table_print_row(out, format, 6, cells, kinds, widths);
			free(name);
			rows++;
		}
	}
	scope_span_done(&span);
	free(children);
	free(open);
	return rows;
}

const struct view_ops view_timeline_ops = {
        .name = "Timeline",
        .needs_calls = true,
        .hints = "arrows:calls  Enter:fold/select  +/-/0/z:zoom  "
                 ",/.:calls  v/V/X:range  W:clock",
        .open = timeline_open,
        .close = timeline_close,
        .draw = tlv_draw,
        .request = timeline_request,
        .search = timeline_search,
        .status = timeline_status,
        .refresh = timeline_refresh,
        .mouse = timeline_mouse,
        .write = timeline_write,
};
