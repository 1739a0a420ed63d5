/*
 * timeline: one row per thread of the scope on a shared time axis
 * (wall clock; thread-cpu when it is the only clock), as Traceview drew
 * it.  Each cell shows the call that dominates its slice of time
 * (query/timeline.h), in its method's hue, labelled with the method's name
 * where the call is wide enough and its initial where it is not, so
 * neighbouring calls differ by glyph even without colour.  Under each
 * row, a thin line marks the calls of the selected method.
 *
 * The window is a whole number of columns of `col` microseconds each,
 * col being 1, 2 or 5 times a power of ten: slices start at multiples
 * of col, so panning never reshuffles cells and the axis ticks fall on
 * column edges.  Until the user zooms or pans, the window fits the whole
 * trace to the screen's width.  The time cursor is a time, not a column;
 * moves put it on column starts, call jumps on the call's start.  The
 * call under the cursor is the one jumped to, else the dominant call of
 * the cursor's column; the status line shows its stack, Enter selects
 * its method.  `v` anchors a range at the cursor's column, moving
 * extends it, `V` applies it to every view through app_set_range.
 *
 * The index is built at the first draw or request, not when the app
 * opens its views.  Drawing asks the index for one answer per cell and
 * one binary search per mark cell, never for every call.
 */
#include "config.h"

#include "tui/app.h"
#include "query/method-name.h"
#include "query/timeline.h"
#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum sort_key {
	SORT_BUSY,
	SORT_NAME,
	SORT_COUNT,
};

struct timeline_view {
	struct timeline *index; /* NULL until first needed */
	enum clock_index clock;
	uint64_t lo, hi; /* the trace's events on the clock */
	uint32_t *rows;  /* threads of the scope, sorted */
	size_t nrows;
	bool rows_stale; /* the scope changed */
	enum sort_key sort;
	bool reverse;
	size_t cur, top; /* current row, first row shown */
	uint64_t col;    /* microseconds per column */
	uint64_t first;  /* first column shown, at first * col */
	bool fit;        /* the window is the whole trace */
	uint64_t cursor; /* the time cursor */
	uint32_t pinned; /* the call jumped to, until the cursor moves */
	bool marking;    /* a range is being selected */
	uint64_t mark_lo, mark_hi; /* the column where it started */
	struct time_range seen;    /* the app's range at the last refresh */
	int plot;                  /* plot columns at the last draw */
	bool ascii;                /* the last canvas's character set */
	int width;
	uint32_t *cells; /* one row of dominant calls */
	size_t cells_cap;
};

/* ---- time ------------------------------------------------------------- */

/* The smallest of 1, 2, 5, 10, 20, ... that is >= x. */
static uint64_t
nice_at_least(uint64_t x)
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

/* The next nice value below col (col itself when it is 1). */
static uint64_t
nice_below(uint64_t col)
{
	uint64_t d = col;

	while (d % 10 == 0)
		d /= 10;
	return col == 1 ? 1 : d == 5 ? col / 5 * 2 : col / 2;
}

/* Write us as "380µs", "1.060ms" or "2.800s" (exact: "us" in ASCII). */
static void
format_time(char *buf, size_t size, uint64_t us, bool ascii)
{
	if (us < 1000)
		snprintf(buf, size, "%llu%s", (unsigned long long)us,
		         ascii ? "us" : "\u00b5s");
	else if (us < 1000000)
		snprintf(buf, size, "%llu.%03llums",
		         (unsigned long long)(us / 1000),
		         (unsigned long long)(us % 1000));
	else
		snprintf(buf, size, "%llu.%03llus",
		         (unsigned long long)(us / 1000000),
		         (unsigned long long)(us / 1000 % 1000));
}

/* A tick label: t is a multiple of step, a nice value, so the unit of
 * step writes it without decimals. */
static void
format_tick(char *buf, size_t size, uint64_t t, uint64_t step, bool ascii)
{
	if (step >= 1000000)
		snprintf(buf, size, "%llus", (unsigned long long)(t / 1000000));
	else if (step >= 1000)
		snprintf(buf, size, "%llums", (unsigned long long)(t / 1000));
	else
		snprintf(buf, size, "%llu%s", (unsigned long long)t,
		         ascii ? "us" : "\u00b5s");
}

/* ---- rows and window -------------------------------------------------- */

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

	if (s->v->sort == SORT_NAME) {
		r = strcmp(s->tree->threads[x].name, s->tree->threads[y].name);
	} else {
		uint64_t bx = timeline_busy(s->v->index, x);
		uint64_t by = timeline_busy(s->v->index, y);

		r = bx == by ? 0 : bx > by ? -1 : 1;
	}
	if (s->v->reverse)
		r = -r;
	return r ? r : (x < y ? -1 : x > y);
}

/* The rows of the scope in order, keeping the current thread. */
static void
build_rows(struct timeline_view *v, struct app *app)
{
	struct sort_ctx ctx = {v, app->tree};
	uint32_t keep = v->nrows ? v->rows[v->cur] : UINT32_MAX;
	size_t t, i;

	v->nrows = 0;
	for (t = 0; t < app->tree->nthreads; t++)
		if (scope_has(&app->scope, t))
			v->rows[v->nrows++] = (uint32_t)t;
	qsort_r(v->rows, v->nrows, sizeof(*v->rows), row_cmp, &ctx);
	v->cur = 0;
	for (i = 0; i < v->nrows; i++)
		if (v->rows[i] == keep)
			v->cur = i;
	if (!v->nrows || v->rows[v->cur] != keep)
		v->pinned = CALL_NONE;
	v->rows_stale = false;
}

static int
plot_width(const struct timeline_view *v)
{
	return v->plot > 0 ? v->plot : 60;
}

/* The column width that shows the whole trace. */
static uint64_t
fit_col(const struct timeline_view *v)
{
	int p = plot_width(v);
	uint64_t span = v->hi - v->lo;

	return nice_at_least((span + (uint64_t)p - 2) /
	                     (uint64_t)(p > 1 ? p - 1 : 1));
}

/* The cursor's column, counted from the first one shown. */
static int64_t
cursor_x(const struct timeline_view *v)
{
	return (int64_t)(v->cursor / v->col) - (int64_t)v->first;
}

static void
keep_cursor_in(struct timeline_view *v)
{
	if (v->cursor < v->lo)
		v->cursor = v->lo;
	if (v->hi > v->lo && v->cursor >= v->hi)
		v->cursor = v->hi - 1;
}

/* Scroll so the cursor is on the screen; centre it when it was far. */
static void
show_cursor(struct timeline_view *v, bool centre)
{
	int64_t x = cursor_x(v), p = plot_width(v);
	uint64_t cx = v->cursor / v->col;

	if (x >= 0 && x < p)
		return;
	v->fit = false;
	if (centre)
		v->first = cx > (uint64_t)p / 2 ? cx - (uint64_t)p / 2 : 0;
	else if (x < 0)
		v->first = cx;
	else
		v->first = cx - (uint64_t)p + 1;
}

/* Make the window fit [from, to): the column width that holds it with
 * a column to spare, starting a column early. */
static void
fit_window(struct timeline_view *v, uint64_t from, uint64_t to)
{
	int p = plot_width(v);

	v->col = nice_at_least((to - from + (uint64_t)p - 3) /
	                       (uint64_t)(p > 2 ? p - 2 : 1));
	if (v->col >= fit_col(v)) {
		v->fit = true;
		v->col = fit_col(v);
		v->first = v->lo / v->col;
		return;
	}
	v->fit = false;
	v->first = from / v->col ? from / v->col - 1 : 0;
}

/* Zoom to column width col, keeping the cursor's column. */
static void
zoom_to(struct timeline_view *v, uint64_t col)
{
	int64_t x = cursor_x(v);
	uint64_t cx;

	if (col >= fit_col(v)) {
		v->fit = true;
		v->col = fit_col(v);
		v->first = v->lo / v->col;
		return;
	}
	v->fit = false;
	v->col = col;
	cx = v->cursor / col;
	if (x < 0 || x >= plot_width(v))
		x = plot_width(v) / 2;
	v->first = cx >= (uint64_t)x ? cx - (uint64_t)x : 0;
}

/* Build the index and rows the first time; rebuild rows when stale. */
static void
ensure(struct timeline_view *v, struct app *app)
{
	const struct calltree *tree = app->tree;
	size_t t;

	if (!v->index) {
		app_wait_notice(app, "the timeline index");
		v->index = warmup_take_timeline(app->warmup, v->clock);
		if (!v->index)
			v->index = timeline_new(tree, v->clock);
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
		v->cursor = v->lo;
		v->rows_stale = true;
		if (v->seen.on && v->seen.clock == v->clock)
			fit_window(v, v->seen.start, v->seen.end);
	}
	if (v->rows_stale)
		build_rows(v, app);
}

/* ---- the call under the cursor ------------------------------------------ */

static uint32_t
current_thread(const struct timeline_view *v)
{
	return v->nrows ? v->rows[v->cur] : UINT32_MAX;
}

/* The pinned call, else the dominant call of the cursor's column. */
static uint32_t
under_cursor(const struct timeline_view *v)
{
	uint64_t at = v->cursor / v->col * v->col;

	if (!v->nrows)
		return CALL_NONE;
	if (v->pinned != CALL_NONE)
		return v->pinned;
	return timeline_dominant(v->index, current_thread(v), at, at + v->col);
}

/* The marked range so far: the anchor's column and the cursor's. */
static void
marked(const struct timeline_view *v, uint64_t *from, uint64_t *to)
{
	uint64_t lo = v->cursor / v->col * v->col, hi = lo + v->col;

	*from = v->mark_lo < lo ? v->mark_lo : lo;
	*to = v->mark_hi > hi ? v->mark_hi : hi;
}

/* ---- drawing ---------------------------------------------------------- */

/* A hue per method, whatever the zoom: the icicle's first choice for it. */
static enum role
method_role(uint32_t m)
{
	return (enum role)(ROLE_PALETTE_0 + (uint8_t)((m * 2654435761u) >> 16) %
	                                            ROLE_PALETTE_COUNT);
}

/* "Class.name" with the class's own name only. */
static char *
simple_name(const struct tt_method *m)
{
	const char *k = m->klass, *p;

	for (p = k; *p; p++)
		if (*p == '.' || *p == '/')
			k = p + 1;
	return xasprintf("%s%s%s", k, *k && *m->name ? "." : "", m->name);
}

/* The first letter or digit of a method's name as a one-byte string, or
 * NULL. */
static const char *
initial(const struct tt_method *m, char buf[2])
{
	const char *p = *m->name ? m->name : m->klass;

	for (; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9')) {
			buf[0] = *p;
			buf[1] = '\0';
			return buf;
		}
	}
	return NULL;
}

/* One call over columns [x, x + w) of row y: "Class.name", or the name,
 * or as much of the name as fits, or (two columns or less) its initial;
 * then blocks. */
static void
draw_run(struct canvas *c, const struct tt_method *m, enum role role, int x,
         int y, int w)
{
	const char *name = *m->name ? m->name : m->klass;
	char *label = simple_name(m), buf[2];
	const char *one;
	int used = 0;

	if (w <= 2) {
		one = initial(m, buf);
		if (one)
			used = canvas_text(c, x, y, 1, one, role);
	} else if ((int)text_width(label) <= w) {
		used = canvas_text(c, x, y, w, label, role);
	} else {
		used = canvas_text(c, x, y, w, name, role);
	}
	if (used < w)
		canvas_fill(c, x + used, y, w - used,
		            canvas_glyph(c, GLYPH_BLOCK), role);
	free(label);
}

static void
draw_axis(struct timeline_view *v, struct canvas *c, int y, int x0,
          struct app *app)
{
	int p = v->plot, w = 0, x;
	uint64_t step, t, end = (v->first + (uint64_t)p) * v->col;
	const struct time_range *r = &app->scope.range;
	char buf[48];

	canvas_fill(c, 0, y, c->width, " ", ROLE_HEADER);
	format_tick(buf, sizeof(buf), v->col, v->col, c->ascii);
	{
		/* The clock and the scale, as much as fits. */
		char *s =
		        xasprintf("%s %s/col",
		                  v->clock == CLOCK_WALL ? "wall" : "cpu", buf);

		canvas_text(c, 0, y, x0 - 1,
		            (int)text_width(s) < x0 ? s : strchr(s, ' ') + 1,
		            ROLE_HEADER);
		free(s);
	}
	/* Ticks at least a label and two columns apart. */
	step = nice_at_least(10 * v->col);
	for (;;) {
		format_tick(buf, sizeof(buf), end / step * step, step,
		            c->ascii);
		w = (int)text_width(buf);
		if (step / v->col >= (uint64_t)w + 2)
			break;
		step = nice_at_least(step + 1);
	}
	for (t = (v->first * v->col + step - 1) / step * step; t < end;
	     t += step) {
		x = (int)(t / v->col - v->first);
		canvas_text(c, x0 + x, y, 1, canvas_glyph(c, GLYPH_VLINE),
		            ROLE_HEADER);
		format_tick(buf, sizeof(buf), t, step, c->ascii);
		if ((int)text_width(buf) < p - x)
			canvas_text(c, x0 + x + 1, y, p - x - 1, buf,
			            ROLE_HEADER);
	}
	/* Outside an applied range the axis is dim. */
	if (r->on) {
		for (x = 0; x < p; x++) {
			uint64_t s = (v->first + (uint64_t)x) * v->col;

			if (s + v->col <= r->start || s >= r->end)
				canvas_set_role(c, x0 + x, y, 1, ROLE_DIM);
		}
	}
	if (v->marking) {
		uint64_t from, to;

		marked(v, &from, &to);
		for (x = 0; x < p; x++) {
			uint64_t s = (v->first + (uint64_t)x) * v->col;

			if (s < to && s + v->col > from)
				canvas_set_role(c, x0 + x, y, 1, ROLE_MATCH);
		}
	}
	/* The cursor: a marker, or over a label only a highlight. */
	x = (int)cursor_x(v);
	if (x >= 0 && x < p) {
		if (strcmp(canvas_cell(c, x0 + x, y)->glyph, " ") == 0 ||
		    strcmp(canvas_cell(c, x0 + x, y)->glyph,
		           canvas_glyph(c, GLYPH_VLINE)) == 0)
			canvas_text(c, x0 + x, y, 1,
			            canvas_glyph(c, GLYPH_SORT_DOWN),
			            ROLE_CURSOR);
		else
			canvas_set_role(c, x0 + x, y, 1, ROLE_CURSOR);
	}
}

static void
draw_thread(struct timeline_view *v, struct app *app, struct canvas *c,
            size_t row, int y, int x0)
{
	const struct calltree *tree = app->tree;
	uint32_t t = v->rows[row];
	const struct time_range *r = &app->scope.range;
	int p = v->plot, x, end;
	bool current = row == v->cur;
	char buf[48];

	canvas_text(c, 0, y, x0 - 1, tree->threads[t].name,
	            current ? ROLE_CURSOR : ROLE_NORMAL);
	if (current)
		canvas_set_role(c, 0, y, x0 - 1, ROLE_CURSOR);
	format_time(buf, sizeof(buf), timeline_busy(v->index, t), c->ascii);
	canvas_text_right(c, 0, y + 1, x0 - 1, buf, ROLE_DIM);

	timeline_row(v->index, t, v->first * v->col, v->col, (size_t)p,
	             v->cells);
	for (x = 0; x < p; x = end) {
		uint32_t call = v->cells[x];

		for (end = x + 1; end < p && v->cells[end] == call; end++)
			;
		if (call == CALL_NONE)
			continue;
		draw_run(c, &tree->methods[calltree_method(tree, call)],
		         method_role(calltree_method(tree, call)), x0 + x, y,
		         end - x);
	}
	for (x = 0; x < p; x++) {
		uint64_t s = (v->first + (uint64_t)x) * v->col;

		if (r->on && (s + v->col <= r->start || s >= r->end) &&
		    v->cells[x] != CALL_NONE)
			canvas_set_role(c, x0 + x, y, 1, ROLE_DIM);
		if (app->method != CALL_NONE &&
		    timeline_method_overlaps(v->index, app->method, t, s,
		                             s + v->col))
			canvas_text(c, x0 + x, y + 1, 1,
			            canvas_glyph(c, GLYPH_HLINE), ROLE_HOT);
	}
	if (v->marking) {
		uint64_t from, to;

		marked(v, &from, &to);
		for (x = 0; x < p; x++) {
			uint64_t s = (v->first + (uint64_t)x) * v->col;

			if (s < to && s + v->col > from)
				canvas_set_role(c, x0 + x, y + 1, 1,
				                ROLE_MATCH);
		}
	}
	x = (int)cursor_x(v);
	if (current && x >= 0 && x < p)
		canvas_set_role(c, x0 + x, y, 1, ROLE_CURSOR);
}

static void
timeline_draw(void *state, struct app *app, struct canvas *c, int top,
              int height)
{
	struct timeline_view *v = state;
	int name_w = 0, x0, y, nvis;
	size_t i;

	ensure(v, app);
	v->ascii = c->ascii;
	v->width = c->width;
	for (i = 0; i < v->nrows; i++) {
		int w = (int)text_width(app->tree->threads[v->rows[i]].name);

		if (w > name_w)
			name_w = w;
	}
	name_w = name_w < 8 ? 8 : name_w > c->width / 5 ? c->width / 5 : name_w;
	x0 = name_w + 1;
	v->plot = c->width - x0;
	UTIL_GROW(v->cells, v->cells_cap, (size_t)v->plot);
	if (v->fit || v->col > fit_col(v)) {
		v->fit = true;
		v->col = fit_col(v);
		v->first = v->lo / v->col;
	}
	draw_axis(v, c, top, x0, app);
	if (!v->nrows) {
		canvas_text(c, 1, top + 2, c->width - 1,
		            "no thread in the scope (t: threads)", ROLE_DIM);
		return;
	}
	nvis = (height - 1) / 2;
	if (nvis < 1)
		nvis = 1;
	if (v->cur < v->top)
		v->top = v->cur;
	if (v->cur >= v->top + (size_t)nvis)
		v->top = v->cur - (size_t)nvis + 1;
	for (i = v->top, y = top + 1; i < v->nrows && y + 1 < top + height;
	     i++, y += 2)
		draw_thread(v, app, c, i, y, x0);
}

/* ---- requests --------------------------------------------------------- */

/* Move the cursor to the start of column cx. */
static void
cursor_to_column(struct timeline_view *v, uint64_t cx)
{
	v->cursor = cx * v->col;
	v->pinned = CALL_NONE;
	keep_cursor_in(v);
	show_cursor(v, false);
}

/* Put the cursor on call c (pinned); zoom: fit the call to the
 * screen, else zoom out only as far as it needs to fit. */
static void
jump_to_call(struct timeline_view *v, const struct calltree *tree, uint32_t c,
             bool zoom)
{
	uint64_t s = calltree_start(tree, c, v->clock);
	uint64_t e = calltree_end(tree, c, v->clock);
	uint64_t p = (uint64_t)plot_width(v);

	if (zoom || (e - s) / v->col + 2 > p) {
		fit_window(v, s, e > s ? e : s + 1);
		v->cursor = s;
	} else {
		v->cursor = s;
		if (v->fit)
			v->first = v->lo / v->col;
		show_cursor(v, true);
		/* The whole call on the screen when it fits. */
		if (!v->fit && e / v->col >= v->first + p)
			v->first = e / v->col - p + 1;
	}
	v->pinned = c;
}

/* Pan a screen right (dir 1) or left (-1), the cursor along. */
static void
pan(struct timeline_view *v, int dir)
{
	uint64_t p = (uint64_t)plot_width(v), last;

	v->pinned = CALL_NONE;
	if (v->fit) {
		v->cursor = dir > 0 ? v->hi : v->lo;
		keep_cursor_in(v);
		v->cursor = v->cursor / v->col * v->col;
		keep_cursor_in(v);
		return;
	}
	last = v->hi / v->col;
	if (dir > 0) {
		v->first = v->first + p <= last ? v->first + p : last;
		v->cursor += p * v->col;
	} else {
		v->first = v->first > p ? v->first - p : 0;
		v->cursor = v->cursor > p * v->col ? v->cursor - p * v->col : 0;
	}
	keep_cursor_in(v);
	show_cursor(v, false);
}

/* The next, previous or longest call of the selected method on the
 * current thread. */
static void
call_jump(struct timeline_view *v, struct app *app, enum request req)
{
	const struct calltree *tree = app->tree;
	uint32_t t = current_thread(v), m = app->method, c;
	char *name;

	if (m == CALL_NONE) {
		app_message(app, false,
		            "no method selected: Enter on a call "
		            "selects its method");
		return;
	}
	if (t == UINT32_MAX)
		return;
	if (req == REQ_CALL_LONGEST)
		c = timeline_method_longest(v->index, m, t);
	else if (req == REQ_CALL_NEXT)
		c = timeline_method_next(v->index, m, t, v->cursor);
	else
		c = timeline_method_prev(v->index, m, t, v->cursor);
	if (c == CALL_NONE) {
		const uint32_t *calls;

		name = method_short_name(&tree->methods[m]);
		if (!timeline_method_calls(v->index, m, t, &calls))
			app_message(app, false, "%s has no call on %s", name,
			            tree->threads[t].name);
		else
			app_message(app, false, "no %s call of %s on %s",
			            req == REQ_CALL_NEXT ? "later" : "earlier",
			            name, tree->threads[t].name);
		free(name);
		return;
	}
	jump_to_call(v, tree, c, req == REQ_CALL_LONGEST);
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
	marked(v, &r.start, &r.end);
	v->marking = false;
	app_set_range(app, &r); /* refreshes this view, which fits it */
	format_time(a, sizeof(a), r.start, v->ascii);
	format_time(b, sizeof(b), r.end, v->ascii);
	app_message(app, false, "range %s..%s applied to every view (X clears)",
	            a, b);
}

static enum view_result
timeline_request(void *state, struct app *app, enum request req)
{
	struct timeline_view *v = state;
	uint64_t cx;
	uint32_t c;

	ensure(v, app);
	cx = v->cursor / v->col;
	switch (req) {
	case REQ_MOVE_UP:
		if (v->cur)
			v->cur--;
		v->pinned = CALL_NONE;
		return VIEW_DONE;
	case REQ_MOVE_DOWN:
		if (v->cur + 1 < v->nrows)
			v->cur++;
		v->pinned = CALL_NONE;
		return VIEW_DONE;
	case REQ_EXPAND:
		cursor_to_column(v, cx + 1);
		return VIEW_DONE;
	case REQ_COLLAPSE:
		cursor_to_column(v, cx ? cx - 1 : 0);
		return VIEW_DONE;
	case REQ_PAGE_DOWN:
		pan(v, 1);
		return VIEW_DONE;
	case REQ_PAGE_UP:
		pan(v, -1);
		return VIEW_DONE;
	case REQ_MOVE_FIRST:
		cursor_to_column(v, v->lo / v->col);
		return VIEW_DONE;
	case REQ_MOVE_LAST:
		cursor_to_column(v, v->hi > v->lo ? (v->hi - 1) / v->col
		                                  : v->lo / v->col);
		return VIEW_DONE;
	case REQ_ZOOM_IN:
		if (v->col == 1) {
			app_message(app, false,
			            "zoomed in all the way: 1 %s a column",
			            v->ascii ? "us" : "\u00b5s");
			return VIEW_DONE;
		}
		zoom_to(v, nice_below(v->col));
		return VIEW_DONE;
	case REQ_ZOOM_OUT:
		if (v->fit) {
			app_message(app, false, "the whole trace is in view");
			return VIEW_DONE;
		}
		zoom_to(v, nice_at_least(v->col + 1));
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
		build_rows(v, app);
		app_message(app, false, "threads by %s",
		            v->sort == SORT_NAME ? "name" : "busy time");
		return VIEW_DONE;
	case REQ_SORT_REVERSE:
		v->reverse = !v->reverse;
		build_rows(v, app);
		return VIEW_DONE;
	case REQ_ENTER:
		c = under_cursor(v);
		if (c == CALL_NONE) {
			app_message(app, false, "no call under the cursor");
			return VIEW_DONE;
		}
		app_jump(app, APP_VIEW_TIMELINE, calltree_method(app->tree, c));
		return VIEW_DONE;
	case REQ_RANGE_START:
		v->marking = true;
		v->mark_lo = cx * v->col;
		v->mark_hi = v->mark_lo + v->col;
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
		return VIEW_UNHANDLED;
	default:
		return VIEW_UNHANDLED;
	}
}

static bool
timeline_search(void *state, struct app *app, const regex_t *re, int dir)
{
	struct timeline_view *v = state;
	size_t n, i;

	ensure(v, app);
	n = v->nrows;
	for (i = 1; i <= n; i++) {
		size_t at = (v->cur + n + (size_t)dir * i) % n;

		if (regexec(re, app->tree->threads[v->rows[at]].name, 0, NULL,
		            0) == 0) {
			v->cur = at;
			v->pinned = CALL_NONE;
			return true;
		}
	}
	return false;
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

	if (!v->index || !v->nrows)
		return NULL;
	t = current_thread(v);
	c = under_cursor(v);
	clock = v->clock == CLOCK_WALL ? "wall" : "cpu";
	format_time(at, sizeof(at), v->cursor, v->ascii);
	if (v->marking) {
		uint64_t from, to;
		char a[32], b[32];

		marked(v, &from, &to);
		format_time(a, sizeof(a), from, v->ascii);
		format_time(b, sizeof(b), to, v->ascii);
		format_time(d, sizeof(d), to - from, v->ascii);
		head = xasprintf("range %s..%s (%s) | %s, %s %s", a, b, d,
		                 tree->threads[t].name, clock, at);
	} else {
		head = xasprintf("%s, %s %s", tree->threads[t].name, clock, at);
	}
	if (c == CALL_NONE) {
		line = xasprintf("%s: idle", head);
		free(head);
		return line;
	}
	for (g = c; g != CALL_NONE; g = calltree_parent(tree, g))
		n++;
	frames = xcalloc(n + 1, sizeof(*frames));
	for (g = c, i = n; g != CALL_NONE; g = calltree_parent(tree, g)) {
		char *name =
		        simple_name(&tree->methods[calltree_method(tree, g)]);

		format_time(d, sizeof(d), calltree_duration(tree, g, v->clock),
		            v->ascii);
		frames[--i] = xasprintf("%s (%s)", name, d);
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
	v->fit = true;
	v->col = 1;
	v->pinned = CALL_NONE;
	v->seen = app->scope.range;
	return v;
}

static void
timeline_close(void *state)
{
	struct timeline_view *v = state;

	timeline_free(v->index);
	free(v->rows);
	free(v->cells);
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
		if (r->on && v->index && r->clock == v->clock)
			fit_window(v, r->start, r->end);
	}
}

const struct view_ops view_timeline_ops = {
        .name = "Timeline",
        .hints = "+/-:zoom  h/l:move  ,/.:calls  v/V/X:range  Enter:select",
        .open = timeline_open,
        .close = timeline_close,
        .draw = timeline_draw,
        .request = timeline_request,
        .search = timeline_search,
        .status = timeline_status,
        .refresh = timeline_refresh,
};
