/*
 * timeline-window: the timeline view's window on the time axis (columns
 * of `col` microseconds, fitted to the trace, a range or a call, zoomed
 * through 1, 2 and 5 times powers of ten), its rows of threads, and its
 * selection (a thread's header or one of its calls, with the time
 * cursor on its start).
 */
#include "config.h"

#include "tui/views/timeline.h"

#include "query/chart.h"
#include "query/frames.h"

#include "text/duration.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- time ------------------------------------------------------------- */

/* The smallest of 1, 2, 5, 10, 20, ... that is >= x. */
uint64_t
tlv_nice_at_least(uint64_t x)
{
	uint64_t p = 1;

	for (;;) {
		if (p >= x)
			return p;
		if (2 * p >= x)
			return 2 * p;
		if (5 * p >= x)
			return 5 * p;
		if (p > UINT64_MAX / 100)
			return 10 * p;
		p *= 10;
	}
}

/* The largest nice value below col (1 when col is 1). */
uint64_t
tlv_nice_below(uint64_t col)
{
	uint64_t n = 1, next;

	for (;;) {
		next = tlv_nice_at_least(n + 1);
		if (next >= col)
			return n;
		n = next;
	}
}

const char *
tlv_clock_name(enum clock_index k)
{
	return k == CLOCK_WALL ? "wall" : "cpu";
}

/* ---- rows and window -------------------------------------------------- */

const struct timeline *
tlv_index_of(const struct timeline_view *v)
{
	return v->index[v->clock];
}

struct sort_ctx {
	const struct timeline_view *v;
	const struct calltree *tree;
};

static int
row_cmp(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *s = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int r;

	/* Threads idle in the range (shown by H) come last,
	 * whatever the order. */
	if (s->v->idle[x] != s->v->idle[y])
		return s->v->idle[x] ? 1 : -1;
	if (s->v->sort == SORT_NAME) {
		r = strcmp(s->tree->threads[x].name, s->tree->threads[y].name);
	} else if ((x == s->v->drawer || y == s->v->drawer) && !s->v->reverse) {
		/* The thread that draws frames first, as Studio shows it. */
		return x == s->v->drawer ? -1 : 1;
	} else {
		uint64_t bx = timeline_busy(tlv_index_of(s->v), x);
		uint64_t by = timeline_busy(tlv_index_of(s->v), y);

		r = bx == by ? 0 : bx > by ? -1 : 1;
	}
	if (s->v->reverse)
		r = -r;
	return r ? r : (x < y ? -1 : x > y);
}

/* Whether thread t is busy in the scope's range on the chart's clock:
 * one of its calls there lasts some time, cut at the range's edges (in
 * its whole time without a range).  A thread whose calls there last
 * nothing draws nothing: it is as idle as one without a call. */
static bool
busy_in_range(const struct timeline_view *v, const struct app *app, size_t t)
{
	struct scope_span span = {0};
	uint64_t dur[CLOCK_COUNT];
	bool any = false;
	size_t i;

	if (!app->scope.range.on)
		return timeline_busy(tlv_index_of(v), t) > 0;
	scope_span_of(&span, &app->scope, app->tree, t);
	/* The first call that lasts ends the walk. */
	for (i = 0; !any && i < span.nopen; i++) {
		scope_clip(&app->scope, app->tree, &span, span.open[i], dur);
		any = dur[v->clock] > 0;
	}
	for (i = span.first; !any && i < span.end; i++) {
		scope_clip(&app->scope, app->tree, &span, i, dur);
		any = dur[v->clock] > 0;
	}
	scope_span_done(&span);
	return any;
}

/* The thread among the rows that draws frames: of those that call a
 * frame method (query/frames.h) in the view, the busiest; else the
 * first named "main"; else UINT32_MAX. */
static uint32_t
drawing_thread(struct timeline_view *v, const struct app *app)
{
	const struct calltree *tree = app->tree;
	const struct timeline *tl = tlv_index_of(v);
	const bool *frame;
	uint64_t from = v->lo, to = v->hi;
	uint32_t best = UINT32_MAX, m;
	size_t i;

	if (!v->frames_known) {
		char why[160];

		v->frame_methods = frames_methods(tree, NULL, why, sizeof(why));
		v->frames_known = true;
	}
	frame = v->frame_methods;
	tlv_range_here(v, app, &from, &to);

	for (i = 0; frame && i < v->nrows; i++) {
		uint32_t t = v->rows[i];

		for (m = 0; m < tree->nmethods; m++) {
			if (!frame[m] ||
			    !timeline_method_overlaps(tl, m, t, from, to))
				continue;
			if (best == UINT32_MAX ||
			    timeline_busy(tl, t) > timeline_busy(tl, best))
				best = t;
			break;
		}
	}
	for (i = 0; best == UINT32_MAX && i < v->nrows; i++)
		if (!strcmp(tree->threads[v->rows[i]].name, "main"))
			best = v->rows[i];
	return best;
}

/* The rows of the scope in order, keeping the current thread: those
 * idle in the range (no call, or none that lasts on the clock) only
 * when shown (H). */
void
tlv_build_rows(struct timeline_view *v, struct app *app)
{
	struct sort_ctx ctx = {v, app->tree};
	uint32_t keep = v->nrows ? v->rows[v->cur] : UINT32_MAX;
	size_t t, i;

	v->nrows = 0;
	v->nidle = 0;
	for (t = 0; t < app->tree->nthreads; t++) {
		if (!scope_has(&app->scope, t))
			continue;
		v->idle[t] = !busy_in_range(v, app, t);
		if (v->idle[t] && !v->show_idle) {
			v->nidle++;
			continue;
		}
		/* Shown, a thread idle in the range has nothing to
		 * unfold: it comes folded. */
		if (v->idle[t])
			v->folded[t] = true;
		v->rows[v->nrows++] = (uint32_t)t;
	}
	v->drawer = drawing_thread(v, app);
	qsort_r(v->rows, v->nrows, sizeof(*v->rows), row_cmp, &ctx);
	v->cur = 0;
	for (i = 0; i < v->nrows; i++)
		if (v->rows[i] == keep)
			v->cur = i;
	if (!v->nrows || v->rows[v->cur] != keep) {
		v->call = CALL_NONE;
		v->dtop = 0;
	}
	v->rows_stale = false;
}

void
tlv_lay_out(struct timeline_view *v, const struct app *app, int width)
{
	int name_w = 0;
	size_t i;

	for (i = 0; i < v->nrows; i++) {
		int w = (int)text_width(app->tree->threads[v->rows[i]].name) +
		        2;

		if (w > name_w)
			name_w = w;
	}
	name_w = name_w < 10 ? 10 : name_w > width / 5 ? width / 5 : name_w;
	v->x0 = name_w + 1;
	v->plot = width - v->x0;
}

int
tlv_plot_width(const struct timeline_view *v)
{
	return v->plot > 1 ? v->plot : 60;
}

/* The column width that holds [from, to) in the plot. */
uint64_t
tlv_col_for(const struct timeline_view *v, uint64_t from, uint64_t to)
{
	uint64_t p = (uint64_t)tlv_plot_width(v) - 1, span = to - from;
	uint64_t col = (span + p - 1) / p;

	return col ? col : 1;
}

/* The window of the whole trace. */
void
tlv_fit_all(struct timeline_view *v)
{
	v->col = tlv_col_for(v, v->lo, v->hi);
	v->first = v->lo / v->col;
}

/* Make the window hold [from, to), no wider than the whole trace. */
void
tlv_fit_window(struct timeline_view *v, uint64_t from, uint64_t to)
{
	uint64_t col = tlv_col_for(v, from, to > from ? to : from + 1);

	if (col >= tlv_col_for(v, v->lo, v->hi)) {
		tlv_fit_all(v);
		return;
	}
	v->col = col;
	v->first = from / col;
}

/* The range applied on this clock, if any, into from and to. */
bool
tlv_range_here(const struct timeline_view *v, const struct app *app,
               uint64_t *from, uint64_t *to)
{
	const struct time_range *r = &app->scope.range;

	if (!r->on || r->clock != v->clock)
		return false;
	*from = r->start;
	*to = r->end;
	return true;
}

/* Recompute a fitted window for the current plot width. */
void
tlv_refit(struct timeline_view *v, const struct app *app)
{
	uint64_t from, to;

	if (v->fit == FIT_TARGET && tlv_range_here(v, app, &from, &to))
		tlv_fit_window(v, from, to);
	else if (v->fit != FIT_NONE)
		tlv_fit_all(v);
}

/* The cursor's column, counted from the first one shown. */
int64_t
tlv_cursor_x(const struct timeline_view *v)
{
	return (int64_t)(v->cursor / v->col) - (int64_t)v->first;
}

void
tlv_keep_cursor_in(struct timeline_view *v)
{
	if (v->cursor < v->lo)
		v->cursor = v->lo;
	if (v->hi > v->lo && v->cursor >= v->hi)
		v->cursor = v->hi - 1;
}

/* Scroll so the cursor is on the screen; centre it when it was far. */
void
tlv_show_cursor(struct timeline_view *v, bool centre)
{
	int64_t x = tlv_cursor_x(v), p = tlv_plot_width(v);
	uint64_t cx = v->cursor / v->col;

	if (x >= 0 && x < p)
		return;
	v->fit = FIT_NONE;
	if (centre)
		v->first = cx > (uint64_t)p / 2 ? cx - (uint64_t)p / 2 : 0;
	else if (x < 0)
		v->first = cx;
	else
		v->first = cx - (uint64_t)p + 1;
}

/* Zoom to column width col, keeping the cursor's column. */
void
tlv_zoom_to(struct timeline_view *v, uint64_t col)
{
	int64_t x = tlv_cursor_x(v);
	uint64_t cx;

	if (col >= tlv_col_for(v, v->lo, v->hi)) {
		v->fit = FIT_ALL;
		tlv_fit_all(v);
		return;
	}
	v->fit = FIT_NONE;
	v->col = col;
	cx = v->cursor / col;
	if (x < 0 || x >= tlv_plot_width(v))
		x = tlv_plot_width(v) / 2;
	v->first = cx >= (uint64_t)x ? cx - (uint64_t)x : 0;
}

/* The events' span on the view's clock. */
void
tlv_measure_span(struct timeline_view *v, const struct calltree *tree)
{
	size_t t;

	v->lo = UINT64_MAX;
	v->hi = 0;
	for (t = 0; t < tree->nthreads; t++) {
		if (!tree->threads[t].nevents)
			continue;
		if (tree->threads[t].first[v->clock] < v->lo)
			v->lo = tree->threads[t].first[v->clock];
		if (tree->threads[t].last[v->clock] > v->hi)
			v->hi = tree->threads[t].last[v->clock];
	}
	if (v->lo > v->hi)
		v->lo = v->hi = 0;
}

/* Build the index and rows the first time; rebuild rows when stale. */
/* Select call c of thread t for the app's selection: a window fitted to
 * the trace (or range) stays fitted, else the call is scrolled into
 * sight. */
static void
show_call(struct timeline_view *v, const struct calltree *tree, uint32_t t,
          uint32_t c)
{
	size_t row = tlv_row_of(v, t);

	if (row == SIZE_MAX)
		return;
	if (v->fit == FIT_NONE) {
		tlv_select_on_thread(v, tree, t, c);
		return;
	}
	if (row != v->cur)
		v->dtop = 0;
	v->cur = row;
	v->folded[t] = false;
	v->call = c;
	v->cursor = calltree_start(tree, c, v->clock);
}

/* Show the app's selection: its call, else the longest call of its
 * method in the scope (what `L` finds), else the thread as it was. */
static void
follow(struct timeline_view *v, struct app *app)
{
	const struct calltree *tree = app->tree;
	const struct selection *sel = &app->sel;
	struct chart_hit h;

	if (sel->call != CALL_NONE && sel->thread < tree->nthreads &&
	    sel->call >= tree->threads[sel->thread].first_call &&
	    sel->call - tree->threads[sel->thread].first_call <
	            tree->threads[sel->thread].ncalls &&
	    tlv_row_of(v, sel->thread) != SIZE_MAX) {
		show_call(v, tree, sel->thread, sel->call);
		v->call_guessed = false;
		return;
	}
	if (sel->method == CALL_NONE ||
	    (v->call != CALL_NONE &&
	     calltree_method(tree, v->call) == sel->method))
		return;
	if (!chart_longest(tlv_index_of(v), &app->scope, sel->method, &h))
		return;
	show_call(v, tree, h.thread, h.call);
	v->call_guessed = true;
}

void
tlv_ensure(struct timeline_view *v, struct app *app)
{
	if (!v->index[v->clock]) {
		app_wait_notice(app, "the timeline index");
		v->index[v->clock] =
		        warmup_take_timeline(app->warmup, v->clock);
		if (!v->index[v->clock])
			v->index[v->clock] = timeline_new(app->tree, v->clock);
		tlv_measure_span(v, app->tree);
		v->cursor = v->lo;
		v->rows_stale = true;
	}
	if (v->rows_stale)
		tlv_build_rows(v, app);
	/* Laid out and fitted before its first draw, at the screen's
	 * width: keys read in the storm that opened the view (a move,
	 * L) find the window they would after a draw. */
	if (!v->plot && app->screen_width > 0) {
		tlv_lay_out(v, app, app->screen_width);
		tlv_refit(v, app);
	}
	if (v->sel_serial != app->sel.serial) {
		v->sel_serial = app->sel.serial;
		if (app->sel.by != APP_VIEW_TIMELINE)
			follow(v, app);
	}
}

void
tlv_publish(struct timeline_view *v, struct app *app)
{
	if (v->call != CALL_NONE && v->nrows) {
		app_select_call(app, tlv_current_thread(v), v->call);
		v->call_guessed = false;
	}
	v->sel_serial = app->sel.serial;
}

/* ---- the selection ------------------------------------------------------ */

uint32_t
tlv_current_thread(const struct timeline_view *v)
{
	return v->nrows ? v->rows[v->cur] : UINT32_MAX;
}

/* The row of thread t, or SIZE_MAX when it is not in the scope. */
size_t
tlv_row_of(const struct timeline_view *v, uint32_t t)
{
	size_t i;

	for (i = 0; i < v->nrows; i++)
		if (v->rows[i] == t)
			return i;
	return SIZE_MAX;
}

/* What the selection covers: the call, else the cursor's column. */
void
tlv_selected_span(const struct timeline_view *v, const struct calltree *tree,
                  uint64_t *from, uint64_t *to)
{
	if (v->call != CALL_NONE) {
		*from = calltree_start(tree, v->call, v->clock);
		*to = calltree_end(tree, v->call, v->clock);
		if (*to == *from)
			(*to)++;
		return;
	}
	*from = v->cursor / v->col * v->col;
	*to = *from + v->col;
}

/* The marked range so far: the anchor's span and the selection's. */
void
tlv_marked(const struct timeline_view *v, const struct calltree *tree,
           uint64_t *from, uint64_t *to)
{
	uint64_t lo, hi;

	tlv_selected_span(v, tree, &lo, &hi);
	*from = v->mark_lo < lo ? v->mark_lo : lo;
	*to = v->mark_hi > hi ? v->mark_hi : hi;
}

/* Select call c of the current thread (CALL_NONE: its header), with the
 * time cursor on its start, scrolled into sight. */
void
tlv_select_call(struct timeline_view *v, const struct calltree *tree,
                uint32_t c)
{
	uint64_t s, e, p = (uint64_t)tlv_plot_width(v);

	v->call = c;
	if (c == CALL_NONE)
		return;
	s = calltree_start(tree, c, v->clock);
	e = calltree_end(tree, c, v->clock);
	v->cursor = s;
	tlv_keep_cursor_in(v);
	tlv_show_cursor(v, true);
	/* The whole call on the screen when it fits. */
	if (v->fit == FIT_NONE && (e - s) / v->col + 1 < p &&
	    e / v->col >= v->first + p)
		v->first = e / v->col - p + 1;
}

/* Select call c of thread t, unfolding it. */
void
tlv_select_on_thread(struct timeline_view *v, const struct calltree *tree,
                     uint32_t t, uint32_t c)
{
	size_t row = tlv_row_of(v, t);

	if (row == SIZE_MAX)
		return;
	if (row != v->cur)
		v->dtop = 0;
	v->cur = row;
	v->folded[t] = false;
	tlv_select_call(v, tree, c);
}

/* The call of the current thread open at `at` at depth d or less, or
 * CALL_NONE. */
uint32_t
tlv_call_near(const struct timeline_view *v, const struct calltree *tree,
              uint64_t at, uint32_t d)
{
	uint32_t g =
	        timeline_call_at(tlv_index_of(v), tlv_current_thread(v), at);

	while (g != CALL_NONE && calltree_depth(tree, g) > d)
		g = calltree_parent(tree, g);
	return g;
}
