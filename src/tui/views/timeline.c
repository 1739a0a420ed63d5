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
 * header line.  A thread shows as many depths as fit, and `+N deeper`
 * says how many do not; the current thread's depths scroll to keep the
 * selected call in sight.
 *
 * The window is a whole number of columns of `col` microseconds each:
 * slices start at multiples of col, so panning never reshuffles cells.
 * Until the user zooms or pans, the window fits the whole trace (or the
 * applied range) to the width; `0`/`F` fits again, `z` fits the selected
 * call, and zooming goes through 1, 2, 5 times powers of ten.  `w` lays
 * the calls out on the other clock (each thread on its own cpu time, as
 * Android Studio's thread time does).  `/` highlights every call of the
 * matching methods; `n`/`N`, and `.`/`,` for the selected method, step
 * through calls in time order across the threads of the scope, `L` goes
 * to the longest.  `v` anchors a range at the selection, moving extends
 * it, `V` applies it to every view through app_set_range; Enter on a
 * call selects its method in every view.
 *
 * The index is built at the first draw or request (or taken from the
 * warmup).  Drawing asks the index for each visible thread's cells, one
 * descent per column (query/chart.c), never for every call of the span.
 */
#include "config.h"

#include "tui/app.h"
#include "query/chart.h"
#include "query/method-name.h"
#include "query/timeline.h"
#include "util/alloc.h"
#include "util/hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum sort_key {
	SORT_BUSY,
	SORT_NAME,
	SORT_COUNT,
};

enum fit_mode {
	FIT_NONE,   /* the user's zoom and pan */
	FIT_TARGET, /* the applied range, else the whole trace */
	FIT_ALL,    /* the whole trace */
};

/* The chart of one thread as last drawn. */
struct drawn {
	uint32_t *cells; /* rows x plot, from depth dtop */
	size_t need;     /* rows its chart needs */
	size_t rows;     /* rows shown */
	size_t dtop;     /* the first depth shown */
	bool done;
};

struct timeline_view {
	struct timeline *index[CLOCK_COUNT]; /* NULL until first needed */
	enum clock_index clock;              /* the clock bars are laid on */
	uint64_t lo, hi; /* the trace's events on the clock */
	uint32_t *rows;  /* threads of the scope, sorted */
	size_t nrows;
	bool rows_stale; /* the scope changed */
	enum sort_key sort;
	bool reverse;
	bool *folded;       /* per thread of the tree */
	size_t cur, top;    /* current row, first row shown */
	uint32_t call;      /* the selected call, or CALL_NONE: the header */
	size_t dtop;        /* the current thread's first depth shown */
	uint64_t col;       /* microseconds per column */
	uint64_t first;     /* first column shown, at first * col */
	enum fit_mode fit;  /* recompute the window at every draw */
	uint64_t cursor;    /* the time cursor */
	bool marking;       /* a range is being selected */
	uint64_t mark_lo, mark_hi; /* what was selected at its start */
	struct time_range seen;    /* the app's range at the last refresh */
	int plot;                  /* plot columns at the last draw */
	int area;                  /* rows for threads at the last draw */
	bool ascii;                /* the last canvas's character set */
	int width;
	bool *match;           /* per method: matches the search */
	unsigned match_serial; /* the search it was made for, + 1 */
	struct drawn *drawn;   /* per row, during a draw */
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

/* The largest nice value below col (1 when col is 1). */
static uint64_t
nice_below(uint64_t col)
{
	uint64_t n = 1, next;

	for (;;) {
		next = nice_at_least(n + 1);
		if (next >= col)
			return n;
		n = next;
	}
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

static const char *
clock_name(enum clock_index k)
{
	return k == CLOCK_WALL ? "wall" : "cpu";
}

/* ---- rows and window -------------------------------------------------- */

static const struct timeline *
index_of(const struct timeline_view *v)
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

	if (s->v->sort == SORT_NAME) {
		r = strcmp(s->tree->threads[x].name, s->tree->threads[y].name);
	} else {
		uint64_t bx = timeline_busy(index_of(s->v), x);
		uint64_t by = timeline_busy(index_of(s->v), y);

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
	if (!v->nrows || v->rows[v->cur] != keep) {
		v->call = CALL_NONE;
		v->dtop = 0;
	}
	v->rows_stale = false;
}

static int
plot_width(const struct timeline_view *v)
{
	return v->plot > 1 ? v->plot : 60;
}

/* The column width that holds [from, to) in the plot. */
static uint64_t
col_for(const struct timeline_view *v, uint64_t from, uint64_t to)
{
	uint64_t p = (uint64_t)plot_width(v) - 1, span = to - from;
	uint64_t col = (span + p - 1) / p;

	return col ? col : 1;
}

/* The window of the whole trace. */
static void
fit_all(struct timeline_view *v)
{
	v->col = col_for(v, v->lo, v->hi);
	v->first = v->lo / v->col;
}

/* Make the window hold [from, to), no wider than the whole trace. */
static void
fit_window(struct timeline_view *v, uint64_t from, uint64_t to)
{
	uint64_t col = col_for(v, from, to > from ? to : from + 1);

	if (col >= col_for(v, v->lo, v->hi)) {
		fit_all(v);
		return;
	}
	v->col = col;
	v->first = from / col;
}

/* The range applied on this clock, if any, into from and to. */
static bool
range_here(const struct timeline_view *v, const struct app *app,
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
static void
refit(struct timeline_view *v, const struct app *app)
{
	uint64_t from, to;

	if (v->fit == FIT_TARGET && range_here(v, app, &from, &to))
		fit_window(v, from, to);
	else if (v->fit != FIT_NONE)
		fit_all(v);
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
	v->fit = FIT_NONE;
	if (centre)
		v->first = cx > (uint64_t)p / 2 ? cx - (uint64_t)p / 2 : 0;
	else if (x < 0)
		v->first = cx;
	else
		v->first = cx - (uint64_t)p + 1;
}

/* Zoom to column width col, keeping the cursor's column. */
static void
zoom_to(struct timeline_view *v, uint64_t col)
{
	int64_t x = cursor_x(v);
	uint64_t cx;

	if (col >= col_for(v, v->lo, v->hi)) {
		v->fit = FIT_ALL;
		fit_all(v);
		return;
	}
	v->fit = FIT_NONE;
	v->col = col;
	cx = v->cursor / col;
	if (x < 0 || x >= plot_width(v))
		x = plot_width(v) / 2;
	v->first = cx >= (uint64_t)x ? cx - (uint64_t)x : 0;
}

/* The events' span on the view's clock. */
static void
measure_span(struct timeline_view *v, const struct calltree *tree)
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
static void
ensure(struct timeline_view *v, struct app *app)
{
	if (!v->index[v->clock]) {
		app_wait_notice(app, "the timeline index");
		v->index[v->clock] = warmup_take_timeline(app->warmup, v->clock);
		if (!v->index[v->clock])
			v->index[v->clock] = timeline_new(app->tree, v->clock);
		measure_span(v, app->tree);
		v->cursor = v->lo;
		v->rows_stale = true;
	}
	if (v->rows_stale)
		build_rows(v, app);
}

/* ---- the selection ------------------------------------------------------ */

static uint32_t
current_thread(const struct timeline_view *v)
{
	return v->nrows ? v->rows[v->cur] : UINT32_MAX;
}

/* The row of thread t, or SIZE_MAX when it is not in the scope. */
static size_t
row_of(const struct timeline_view *v, uint32_t t)
{
	size_t i;

	for (i = 0; i < v->nrows; i++)
		if (v->rows[i] == t)
			return i;
	return SIZE_MAX;
}

/* What the selection covers: the call, else the cursor's column. */
static void
selected_span(const struct timeline_view *v, const struct calltree *tree,
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
static void
marked(const struct timeline_view *v, const struct calltree *tree,
       uint64_t *from, uint64_t *to)
{
	uint64_t lo, hi;

	selected_span(v, tree, &lo, &hi);
	*from = v->mark_lo < lo ? v->mark_lo : lo;
	*to = v->mark_hi > hi ? v->mark_hi : hi;
}

/* Select call c of the current thread (CALL_NONE: its header), with the
 * time cursor on its start, scrolled into sight. */
static void
select_call(struct timeline_view *v, const struct calltree *tree, uint32_t c)
{
	uint64_t s, e, p = (uint64_t)plot_width(v);

	v->call = c;
	if (c == CALL_NONE)
		return;
	s = calltree_start(tree, c, v->clock);
	e = calltree_end(tree, c, v->clock);
	v->cursor = s;
	keep_cursor_in(v);
	show_cursor(v, true);
	/* The whole call on the screen when it fits. */
	if (v->fit == FIT_NONE && (e - s) / v->col + 1 < p &&
	    e / v->col >= v->first + p)
		v->first = e / v->col - p + 1;
}

/* Select call c of thread t, unfolding it. */
static void
select_on_thread(struct timeline_view *v, const struct calltree *tree,
                 uint32_t t, uint32_t c)
{
	size_t row = row_of(v, t);

	if (row == SIZE_MAX)
		return;
	if (row != v->cur)
		v->dtop = 0;
	v->cur = row;
	v->folded[t] = false;
	select_call(v, tree, c);
}

/* The call of the current thread open at `at` at depth d or less, or
 * CALL_NONE. */
static uint32_t
call_near(const struct timeline_view *v, const struct calltree *tree,
          uint64_t at, uint32_t d)
{
	uint32_t g = timeline_call_at(index_of(v), current_thread(v), at);

	while (g != CALL_NONE && calltree_depth(tree, g) > d)
		g = calltree_parent(tree, g);
	return g;
}

/* ---- drawing ---------------------------------------------------------- */

/* A hue per package (the class up to its last '.' or '/'). */
static enum role
package_role(const struct tt_method *m)
{
	const char *k = m->klass, *end = NULL, *p;

	for (p = k; *p; p++)
		if (*p == '.' || *p == '/')
			end = p;
	if (!end)
		end = p;
	return (enum role)(ROLE_PALETTE_0 +
	                   hash_bytes(HASH_SEED, k, (size_t)(end - k)) %
	                           ROLE_PALETTE_COUNT);
}

/* Up to n glyph boundaries of s, their widths summed: at[i] is the byte
 * offset after i glyphs, w[i] the columns of the first i. */
static size_t
glyph_marks(const char *s, bool ascii, size_t *at, int *w, size_t n)
{
	size_t len = strlen(s), off = 0, i = 0;

	at[0] = 0;
	w[0] = 0;
	while (off < len && i + 1 < n) {
		char g[TEXT_GLYPH_MAX];
		int gw;

		off += text_next_glyph(s + off, len - off, ascii, g, &gw);
		i++;
		at[i] = off;
		w[i] = w[i - 1] + gw;
	}
	return i;
}

/*
 * The label of method m in `room` columns, never cutting the method's
 * own name: "pkg.Class.name" as the trace writes the class; else the
 * class elided in its middle, keeping the package's first letters and
 * the class's own name ("co\u2026Class.name"), or the end of the class
 * ("\u2026ass.name"); else the name alone, for the canvas to cut.  A new
 * string.
 */
static char *
bar_label(const struct tt_method *m, int room, bool ascii)
{
	const char *name = *m->name ? m->name : m->klass, *own = m->klass, *p;
	const char *dots = ascii ? "~" : "\u2026";
	char *full;
	size_t at[256];
	int w[256], budget, keep;
	size_t n, h, t;

	if (!*m->name || !*m->klass)
		return xstrdup(name);
	full = xasprintf("%s.%s", m->klass, m->name);
	if ((int)text_width(full) <= room)
		return full;
	free(full);
	budget = room - (int)text_width(m->name) - 1; /* for the class */
	n = glyph_marks(m->klass, ascii, at, w, sizeof(at) / sizeof(*at));
	if (budget < 2 || at[n] != strlen(m->klass))
		return xstrdup(m->name);
	for (p = m->klass; *p; p++)
		if ((*p == '.' || *p == '/') && p[1])
			own = p + 1;
	keep = (int)text_width(own);
	if (keep == budget)
		return xasprintf("%s.%s", own, m->name);
	if (keep > budget - 2)
		keep = budget - 1; /* the end of the class only */
	for (h = 0; h < n && w[h + 1] <= budget - 1 - keep; h++)
		;
	for (t = n; t > h && w[n] - w[t - 1] <= keep; t--)
		;
	return xasprintf("%.*s%s%s.%s", (int)at[h], m->klass, dots,
	                 m->klass + at[t], m->name);
}

/* Glyphs of the chart not in the canvas's set. */
static const char *
edge_glyph(const struct canvas *c)
{
	return c->ascii ? "|" : "\u258f"; /* ▏ */
}

static const char *
narrow_glyph(const struct canvas *c)
{
	return c->ascii ? "|" : "\u258c"; /* ▌ */
}

static const char *
mark_glyph(const struct canvas *c)
{
	return c->ascii ? ":" : "\u2506"; /* ┆ */
}

/* Call c over columns [x, x + w) of row y: an edge, the label, then
 * blocks (spaces for the selection, which is drawn in reverse). */
static void
draw_bar(struct canvas *c, const struct tt_method *m, enum role role,
         bool selected, int x, int y, int w)
{
	char *label;
	int used;

	if (w <= 1) {
		canvas_fill(c, x, y, 1, selected ? " " : narrow_glyph(c), role);
		return;
	}
	canvas_fill(c, x, y, 1, edge_glyph(c), role);
	label = bar_label(m, w - 1, c->ascii);
	if (w == 2) {
		/* One column: the name's first character, uncut. */
		char g[TEXT_GLYPH_MAX];
		int gw;

		text_next_glyph(label, strlen(label), c->ascii, g, &gw);
		used = gw == 1 ? canvas_text(c, x + 1, y, 1, g, role) : 0;
	} else {
		used = canvas_text(c, x + 1, y, w - 1, label, role);
	}
	free(label);
	if (used < w - 1)
		canvas_fill(c, x + 1 + used, y, w - 1 - used,
		            selected ? " " : canvas_glyph(c, GLYPH_BLOCK),
		            role);
}

static void
draw_axis(struct timeline_view *v, struct canvas *c, int y, int x0,
          struct app *app)
{
	int p = v->plot, w = 0, x;
	uint64_t step, t, end = (v->first + (uint64_t)p) * v->col, from, to;
	char buf[48], scale[48];

	canvas_fill(c, 0, y, c->width, " ", ROLE_HEADER);
	format_time(scale, sizeof(scale), v->col, c->ascii);
	{
		/* The clock and the scale, as much as fits. */
		char *s = xasprintf("%s %s/col", clock_name(v->clock), scale);

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
	if (range_here(v, app, &from, &to)) {
		for (x = 0; x < p; x++) {
			uint64_t s = (v->first + (uint64_t)x) * v->col;

			if (s + v->col <= from || s >= to)
				canvas_set_role(c, x0 + x, y, 1, ROLE_DIM);
		}
	}
	if (v->marking) {
		marked(v, app->tree, &from, &to);
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

/* The methods matching the app's search, made once per pattern. */
static const bool *
matches(struct timeline_view *v, struct app *app)
{
	size_t m;

	if (!app->have_re)
		return NULL;
	if (v->match_serial == app->search_serial + 1)
		return v->match;
	if (!v->match)
		v->match = xcalloc(app->tree->nmethods + 1, sizeof(*v->match));
	for (m = 0; m < app->tree->nmethods; m++) {
		char *name = method_full_name(&app->tree->methods[m]);

		v->match[m] = regexec(&app->re, name, 0, NULL, 0) == 0;
		free(name);
	}
	v->match_serial = app->search_serial + 1;
	return v->match;
}

/* One row of cells (depth d of thread t) at y. */
static void
draw_cells(struct timeline_view *v, struct app *app, struct canvas *c,
           const uint32_t *cells, int y, int x0)
{
	const struct calltree *tree = app->tree;
	const bool *match = matches(v, app);
	uint64_t from = 0, to = 0;
	bool ranged = range_here(v, app, &from, &to);
	int p = v->plot, x, end;

	for (x = 0; x < p; x = end) {
		uint32_t call = cells[x], m;
		enum role role;

		for (end = x + 1; end < p && cells[end] == call; end++)
			;
		if (call == CALL_NONE)
			continue;
		if (call == CHART_MARK) {
			canvas_fill(c, x0 + x, y, end - x, mark_glyph(c),
			            ROLE_DIM);
			continue;
		}
		m = calltree_method(tree, call);
		role = package_role(&tree->methods[m]);
		if (match && match[m])
			role = ROLE_MATCH;
		else if (m == app->method)
			role = ROLE_HOT;
		draw_bar(c, &tree->methods[m], role, false, x0 + x, y, end - x);
	}
	if (ranged) {
		for (x = 0; x < p; x++) {
			uint64_t s = (v->first + (uint64_t)x) * v->col;

			if ((s + v->col <= from || s >= to) &&
			    cells[x] != CALL_NONE)
				canvas_set_role(c, x0 + x, y, 1, ROLE_DIM);
		}
	}
}

/* Compute row i's chart: as many depths as `cap`, from its dtop. */
static struct drawn *
chart_of(struct timeline_view *v, size_t i, size_t cap)
{
	struct drawn *d = &v->drawn[i];
	size_t p = (size_t)v->plot;

	if (d->done)
		return d;
	d->done = true;
	d->dtop = i == v->cur ? v->dtop : 0;
	d->cells = xcalloc(cap * p + 1, sizeof(*d->cells));
	d->need = chart_rows(index_of(v), v->rows[i], v->first * v->col,
	                     v->col, p, d->dtop, cap, d->cells);
	d->rows = d->need > d->dtop ? d->need - d->dtop : 0;
	if (i == v->cur && v->call != CALL_NONE) {
		/* The selected call's row, even under a mark. */
		size_t depth = calltree_depth(timeline_tree(index_of(v)),
		                              v->call);

		if (depth + 1 - d->dtop > d->rows)
			d->rows = depth + 1 - d->dtop;
	}
	if (d->rows > cap)
		d->rows = cap;
	return d;
}

/* Lines row i takes: its header and, unfolded, its depths. */
static int
lines_of(struct timeline_view *v, size_t i, size_t cap)
{
	if (v->folded[v->rows[i]])
		return 1;
	return 1 + (int)chart_of(v, i, cap)->rows;
}

static void
draw_header(struct timeline_view *v, struct app *app, struct canvas *c,
            size_t i, int y, int x0, size_t cap)
{
	const struct calltree *tree = app->tree;
	uint32_t t = v->rows[i];
	bool folded = v->folded[t], here = i == v->cur && v->call == CALL_NONE;
	char *label, buf[48];
	int p = v->plot;

	label = xasprintf("%s %s",
	                  canvas_glyph(c, folded ? GLYPH_COLLAPSED
	                                         : GLYPH_EXPANDED),
	                  tree->threads[t].name);
	canvas_text(c, 0, y, x0 - 1, label, here ? ROLE_CURSOR : ROLE_SECTION);
	if (here)
		canvas_set_role(c, 0, y, x0 - 1, ROLE_CURSOR);
	free(label);
	if (folded) {
		struct drawn *d = chart_of(v, i, cap);

		if (d->dtop == 0)
			draw_cells(v, app, c, d->cells, y, x0);
		return;
	}
	canvas_fill(c, x0, y, p, canvas_glyph(c, GLYPH_HLINE), ROLE_DIM);
	format_time(buf, sizeof(buf), timeline_busy(index_of(v), t),
	            c->ascii);
	label = xasprintf(" %s busy ", buf);
	canvas_text_right(c, x0, y, p - 1, label, ROLE_DIM);
	free(label);
}

/* The selected call outlined over its extent on row y. */
static void
draw_selected(struct timeline_view *v, const struct calltree *tree,
              struct canvas *c, int y, int x0)
{
	uint64_t s = calltree_start(tree, v->call, v->clock);
	uint64_t e = calltree_end(tree, v->call, v->clock);
	uint64_t ca = s / v->col, cb = e > s ? (e - 1) / v->col : ca;
	int64_t a, b;

	/* The cells it covers half of, as the chart counts them (its
	 * neighbours keep their edges); a shorter call takes its first. */
	if (ca < cb && 2 * ((ca + 1) * v->col - s) < v->col)
		ca++;
	if (cb > ca && 2 * (e - cb * v->col) < v->col)
		cb--;
	a = (int64_t)ca - (int64_t)v->first;
	b = (int64_t)cb - (int64_t)v->first;
	if (b < 0 || a >= v->plot)
		return;
	if (a < 0)
		a = 0;
	if (b >= v->plot)
		b = v->plot - 1;
	draw_bar(c, &tree->methods[calltree_method(tree, v->call)],
	         ROLE_CURSOR, true, x0 + (int)a, y, (int)(b - a + 1));
}

/* A thread's depths from y; returns the lines used. */
static void
draw_depths(struct timeline_view *v, struct app *app, struct canvas *c,
            size_t i, int y, int x0, size_t cap)
{
	struct drawn *d = chart_of(v, i, cap);
	size_t r, p = (size_t)v->plot;
	char buf[48];

	for (r = 0; r < d->rows; r++) {
		draw_cells(v, app, c, d->cells + r * p, y + (int)r, x0);
		if (i == v->cur && v->call != CALL_NONE &&
		    calltree_depth(app->tree, v->call) == d->dtop + r)
			draw_selected(v, app->tree, c, y + (int)r, x0);
	}
	if (d->dtop && d->rows) {
		snprintf(buf, sizeof(buf), "%zu above", d->dtop);
		canvas_text_right(c, 0, y, x0 - 1, buf, ROLE_DIM);
	}
	if (d->need > d->dtop + d->rows && d->rows) {
		snprintf(buf, sizeof(buf), "+%zu deeper",
		         d->need - d->dtop - d->rows);
		canvas_text_right(c, 0, y + (int)d->rows - 1, x0 - 1, buf,
		                  ROLE_DIM);
	}
}

/* "wall 1.000ms  cpu 500µs", the clocks the trace has. */
static char *
both_clocks(const struct calltree *tree, const uint64_t t[CLOCK_COUNT],
            bool ascii)
{
	char w[32] = "", u[32] = "";

	if (tree->has_clock[CLOCK_WALL])
		format_time(w, sizeof(w), t[CLOCK_WALL], ascii);
	if (tree->has_clock[CLOCK_CPU])
		format_time(u, sizeof(u), t[CLOCK_CPU], ascii);
	return xasprintf("%s%s%s%s%s", *w ? "wall " : "", w, *w && *u ? "  " : "",
	                 *u ? "cpu " : "", u);
}

/* Call c's exclusive time on clock k: from the index on that clock when
 * there is one, else its duration less its callees'. */
static uint64_t
call_excl(const struct timeline_view *v, const struct calltree *tree,
          uint32_t t, uint32_t c, enum clock_index k)
{
	const struct timeline *tl = v->index[k] ? v->index[k] : index_of(v);
	uint64_t ex = calltree_duration(tree, c, k);
	size_t end;
	uint32_t g;

	if (v->index[k])
		return timeline_call_excl(v->index[k], c);
	end = timeline_subtree_end(tl, t, c);
	for (g = timeline_first_callee(tl, t, c); g != CALL_NONE && g < end;
	     g = timeline_next_at_depth(tl, t, g))
		ex -= calltree_duration(tree, g, k);
	return ex;
}

/* The panel under the chart: the selected call, or the thread. */
static void
draw_panel(struct timeline_view *v, struct app *app, struct canvas *c, int y,
           int h)
{
	const struct calltree *tree = app->tree;
	uint32_t t = current_thread(v), c0 = v->call, g;
	uint64_t at[CLOCK_COUNT] = {0}, incl[CLOCK_COUNT] = {0};
	uint64_t excl[CLOCK_COUNT] = {0};
	char *line, *a, *b, *e, busy[32];
	int k;

	canvas_fill(c, 0, y, c->width, canvas_glyph(c, GLYPH_HLINE), ROLE_DIM);
	if (t == UINT32_MAX)
		return;
	if (c0 == CALL_NONE) {
		const struct tt_thread *th = &tree->threads[t];

		line = xasprintf("thread %s (id %u)", th->name, th->tid);
		canvas_text(c, 0, y + 1, c->width, line, ROLE_SECTION);
		free(line);
		format_time(busy, sizeof(busy), timeline_busy(index_of(v), t),
		            c->ascii);
		line = xasprintf("%s busy, %u calls, %u deep", busy,
		                 th->ncalls, th->ncalls ? th->max_depth : 0);
		canvas_text(c, 0, y + 2, c->width, line, ROLE_NORMAL);
		free(line);
		if (h > 3)
			canvas_text(c, 0, y + 3, c->width,
			            "Down: its calls  Enter or Space: fold or "
			            "unfold",
			            ROLE_DIM);
		return;
	}
	line = method_full_name(&tree->methods[calltree_method(tree, c0)]);
	canvas_text(c, 0, y + 1, c->width, line, ROLE_SECTION);
	free(line);
	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!tree->has_clock[k])
			continue;
		at[k] = calltree_start(tree, c0, (enum clock_index)k);
		incl[k] = calltree_duration(tree, c0, (enum clock_index)k);
		excl[k] = call_excl(v, tree, t, c0, (enum clock_index)k);
	}
	a = both_clocks(tree, at, c->ascii);
	line = xasprintf("%s, depth %u, start %s", tree->threads[t].name,
	                 calltree_depth(tree, c0), a);
	canvas_text(c, 0, y + 2, c->width, line, ROLE_NORMAL);
	free(line);
	free(a);
	if (h > 3) {
		b = both_clocks(tree, incl, c->ascii);
		e = both_clocks(tree, excl, c->ascii);
		line = xasprintf("incl %s   excl %s", b, e);
		canvas_text(c, 0, y + 3, c->width, line, ROLE_NORMAL);
		free(line);
		free(b);
		free(e);
	}
	if (h > 4) {
		/* The stack above it, innermost first, as much as fits. */
		char *stack = xstrdup("called by");
		size_t n = 0;

		for (g = calltree_parent(tree, c0); g != CALL_NONE;
		     g = calltree_parent(tree, g)) {
			char *name = method_short_name(
			        &tree->methods[calltree_method(tree, g)]);
			char *longer = xasprintf("%s%s %s", stack,
			                         n ? " <" : "", name);

			free(name);
			free(stack);
			stack = longer;
			if ((int)text_width(stack) > c->width)
				break;
			n++;
		}
		if (!n) {
			free(stack);
			stack = xstrdup("called by nothing: a root of the "
			                "thread");
		}
		canvas_text(c, 0, y + 4, c->width, stack, ROLE_DIM);
		free(stack);
	}
}

static void
timeline_draw(void *state, struct app *app, struct canvas *c, int top,
              int height)
{
	struct timeline_view *v = state;
	int name_w = 0, x0, y, panel, area, used;
	size_t i, cap;

	ensure(v, app);
	v->ascii = c->ascii;
	v->width = c->width;
	for (i = 0; i < v->nrows; i++) {
		int w = (int)text_width(app->tree->threads[v->rows[i]].name) +
		        2;

		if (w > name_w)
			name_w = w;
	}
	name_w = name_w < 10 ? 10 : name_w > c->width / 5 ? c->width / 5
	                                                  : name_w;
	x0 = name_w + 1;
	v->plot = c->width - x0;
	refit(v, app);
	draw_axis(v, c, top, x0, app);
	if (!v->nrows) {
		canvas_text(c, 1, top + 2, c->width - 1,
		            "no thread in the scope (t: threads)", ROLE_DIM);
		return;
	}
	panel = height >= 15 ? 5 : 0;
	area = height - 1 - panel;
	v->area = area;
	cap = area > 1 ? (size_t)area - 1 : 1;
	/* The current thread's depths keep the selected call in sight. */
	if (v->call != CALL_NONE) {
		size_t d = calltree_depth(app->tree, v->call);

		if (d < v->dtop)
			v->dtop = d;
		if (d >= v->dtop + cap)
			v->dtop = d - cap + 1;
	} else {
		v->dtop = 0;
	}
	v->drawn = xcalloc(v->nrows + 1, sizeof(*v->drawn));
	if (v->cur < v->top)
		v->top = v->cur;
	/* Scroll down until the current thread's selected line shows. */
	for (;;) {
		int need = 0, upto;

		for (i = v->top; i < v->cur; i++)
			need += lines_of(v, i, cap);
		upto = 1;
		if (v->call != CALL_NONE)
			upto += (int)(calltree_depth(app->tree, v->call) -
			              v->dtop) + 1;
		if (need + upto <= area || v->top == v->cur)
			break;
		v->top++;
	}
	for (i = v->top, y = top + 1; i < v->nrows && y < top + 1 + area;
	     i++) {
		draw_header(v, app, c, i, y, x0, cap);
		y++;
		if (v->folded[v->rows[i]])
			continue;
		used = lines_of(v, i, cap) - 1;
		if (y + used > top + 1 + area)
			used = top + 1 + area - y;
		if (used > 0) {
			struct drawn *d = chart_of(v, i, cap);
			size_t keep = d->rows;

			d->rows = (size_t)used < d->rows ? (size_t)used
			                                 : d->rows;
			draw_depths(v, app, c, i, y, x0, cap);
			d->rows = keep;
		}
		y += used;
	}
	if (panel)
		draw_panel(v, app, c, top + height - panel, panel);
	for (i = 0; i < v->nrows; i++)
		free(v->drawn[i].cells);
	free(v->drawn);
	v->drawn = NULL;
}

/* ---- requests --------------------------------------------------------- */

/* Move the time cursor to the start of column cx (on a header). */
static void
cursor_to_column(struct timeline_view *v, uint64_t cx)
{
	v->cursor = cx * v->col;
	keep_cursor_in(v);
	show_cursor(v, false);
}

/* Pan a screen right (dir 1) or left (-1), the cursor along; a
 * selected call gives way to the one at its depth under the cursor. */
static void
pan(struct timeline_view *v, const struct calltree *tree, int dir)
{
	uint64_t p = (uint64_t)plot_width(v), last;
	uint32_t d = v->call != CALL_NONE ? calltree_depth(tree, v->call) : 0;
	bool on_call = v->call != CALL_NONE;

	if (v->fit != FIT_NONE) {
		v->cursor = dir > 0 ? v->hi : v->lo;
	} else {
		last = v->hi / v->col;
		if (dir > 0) {
			v->first =
			        v->first + p <= last ? v->first + p : last;
			v->cursor += p * v->col;
		} else {
			v->first = v->first > p ? v->first - p : 0;
			v->cursor = v->cursor > p * v->col
			                    ? v->cursor - p * v->col
			                    : 0;
		}
	}
	keep_cursor_in(v);
	show_cursor(v, false);
	v->call = CALL_NONE;
	if (on_call) {
		uint64_t keep = v->cursor;

		v->call = call_near(v, tree, v->cursor, d);
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
		h.thread = current_thread(v);
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
	uint32_t m = app->method;
	struct chart_hit h = here(v, tree, req == REQ_CALL_PREV ? -1 : 1);
	bool *one, found;
	char *name;

	if (m == CALL_NONE) {
		app_message(app, false,
		            "no method selected: Enter on a call "
		            "selects its method");
		return;
	}
	if (req == REQ_CALL_LONGEST) {
		found = chart_longest(index_of(v), &app->scope, m, &h);
	} else {
		one = xcalloc(tree->nmethods + 1, sizeof(*one));
		one[m] = true;
		found = chart_step(index_of(v), &app->scope, one,
		                   req == REQ_CALL_NEXT ? 1 : -1, &h);
		free(one);
	}
	if (!found) {
		name = method_short_name(&tree->methods[m]);
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
	select_on_thread(v, tree, h.thread, h.call);
	if (req == REQ_CALL_LONGEST) {
		uint64_t s = calltree_start(tree, h.call, v->clock);

		v->fit = FIT_NONE;
		fit_window(v, s, calltree_end(tree, h.call, v->clock));
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
	marked(v, app->tree, &r.start, &r.end);
	v->marking = false;
	app_set_range(app, &r); /* refreshes this view, which fits it */
	format_time(a, sizeof(a), r.start, v->ascii);
	format_time(b, sizeof(b), r.end, v->ascii);
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
			select_call(v, tree, v->call);
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
	const struct timeline *tl = index_of(v);
	uint32_t t = current_thread(v), g;

	if (t == UINT32_MAX)
		return;
	if (v->call != CALL_NONE) {
		g = timeline_first_callee(tl, t, v->call);
		if (g == CALL_NONE) {
			char *name = method_short_name(
			        &tree->methods[calltree_method(tree, v->call)]);

			app_message(app, false, "%s calls nothing", name);
			free(name);
			return;
		}
		select_call(v, tree, g);
		return;
	}
	if (!v->folded[t] && tree->threads[t].ncalls) {
		g = call_near(v, tree, v->cursor, 0);
		if (g == CALL_NONE)
			g = timeline_first_from(tl, t, v->cursor);
		if (g == CALL_NONE)
			g = timeline_last_at_depth(tl, t, 0);
		if (g != CALL_NONE) {
			while (calltree_depth(tree, g) > 0)
				g = calltree_parent(tree, g);
			select_call(v, tree, g);
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
	uint32_t t = current_thread(v), g;
	uint64_t cx = v->cursor / v->col;

	if (v->call == CALL_NONE) {
		cursor_to_column(v, dir > 0 ? cx + 1 : cx ? cx - 1 : 0);
		return;
	}
	g = dir > 0 ? timeline_next_at_depth(index_of(v), t, v->call)
	            : timeline_prev_at_depth(index_of(v), t, v->call);
	if (g == CALL_NONE) {
		app_message(app, false, "no %s call at depth %u on %s",
		            dir > 0 ? "later" : "earlier",
		            calltree_depth(tree, v->call),
		            tree->threads[t].name);
		return;
	}
	select_call(v, tree, g);
}

/* g or G: the first or last call at the selection's depth. */
static void
move_end(struct timeline_view *v, struct app *app, bool last)
{
	const struct calltree *tree = app->tree;
	uint32_t t = current_thread(v), g;

	if (v->call == CALL_NONE) {
		cursor_to_column(v, !last ? v->lo / v->col
		                    : v->hi > v->lo ? (v->hi - 1) / v->col
		                                    : v->lo / v->col);
		return;
	}
	g = last ? timeline_last_at_depth(index_of(v), t,
	                                  calltree_depth(tree, v->call))
	         : timeline_first_at_depth(index_of(v), t,
	                                   calltree_depth(tree, v->call));
	if (g != CALL_NONE)
		select_call(v, tree, g);
}

/* Lay the calls out on the other clock, keeping the selection; the
 * index of the clock left is freed, the other's built (a pass over the
 * calls, the one key press that walks them). */
static void
switch_clock(struct timeline_view *v, struct app *app)
{
	const struct calltree *tree = app->tree;
	enum clock_index k = v->clock == CLOCK_WALL ? CLOCK_CPU : CLOCK_WALL;

	if (!tree->has_clock[k]) {
		app_message(app, false, "this trace has only the %s clock",
		            v->clock == CLOCK_WALL ? "wall" : "thread-cpu");
		return;
	}
	/* One index at a time: two would hold 9 bytes a call more than
	 * the memory budget has room for on the largest traces. */
	timeline_free(v->index[v->clock]);
	v->index[v->clock] = NULL;
	v->clock = k;
	v->marking = false;
	if (!v->index[k]) {
		app_wait_notice(app, "the timeline index");
		v->index[k] = warmup_take_timeline(app->warmup, k);
		if (!v->index[k])
			v->index[k] = timeline_new(tree, k);
	}
	measure_span(v, tree);
	v->fit = FIT_TARGET;
	refit(v, app);
	if (v->call != CALL_NONE)
		v->cursor = calltree_start(tree, v->call, k);
	keep_cursor_in(v);
	app_message(app, false, "calls laid out on the %s clock%s",
	            k == CLOCK_WALL ? "wall" : "thread-cpu",
	            k == CLOCK_CPU ? " (each thread's own time)" : "");
}

static void
fold(struct timeline_view *v)
{
	uint32_t t = current_thread(v);

	if (t == UINT32_MAX)
		return;
	v->folded[t] = !v->folded[t];
	v->call = CALL_NONE;
	v->dtop = 0;
}

static enum view_result
timeline_request(void *state, struct app *app, enum request req)
{
	struct timeline_view *v = state;
	const struct calltree *tree = app->tree;
	uint64_t from, to;

	ensure(v, app);
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
		zoom_to(v, nice_below(v->col));
		return VIEW_DONE;
	case REQ_ZOOM_OUT:
		if (v->col >= col_for(v, v->lo, v->hi)) {
			app_message(app, false, "the whole trace is in view");
			return VIEW_DONE;
		}
		zoom_to(v, nice_at_least(v->col + 1));
		return VIEW_DONE;
	case REQ_FIT:
		v->fit = FIT_TARGET;
		refit(v, app);
		return VIEW_DONE;
	case REQ_ZOOM_CALL:
		if (v->call == CALL_NONE) {
			app_message(app, false,
			            "no call selected: Down selects one");
			return VIEW_DONE;
		}
		selected_span(v, tree, &from, &to);
		v->fit = FIT_NONE;
		fit_window(v, from, to);
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
		build_rows(v, app);
		app_message(app, false, "threads by %s",
		            v->sort == SORT_NAME ? "name" : "busy time");
		return VIEW_DONE;
	case REQ_SORT_REVERSE:
		v->reverse = !v->reverse;
		build_rows(v, app);
		return VIEW_DONE;
	case REQ_TAG:
		fold(v);
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
		selected_span(v, tree, &v->mark_lo, &v->mark_hi);
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

/* The next (dir 1) or previous call of a matching method, across the
 * threads of the scope in time order. */
static bool
timeline_search(void *state, struct app *app, const regex_t *re, int dir)
{
	struct timeline_view *v = state;
	const bool *match;
	struct chart_hit h;

	(void)re;
	ensure(v, app);
	match = matches(v, app);
	h = here(v, app->tree, dir);
	if (!match || !chart_step(index_of(v), &app->scope, match, dir, &h))
		return false;
	select_on_thread(v, app->tree, h.thread, h.call);
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

	if (!index_of(v) || !v->nrows)
		return NULL;
	t = current_thread(v);
	c = v->call;
	clock = clock_name(v->clock);
	format_time(at, sizeof(at),
	            c != CALL_NONE ? calltree_start(tree, c, v->clock)
	                           : v->cursor,
	            v->ascii);
	if (v->marking) {
		uint64_t from, to;
		char a[32], b[32];

		marked(v, tree, &from, &to);
		format_time(a, sizeof(a), from, v->ascii);
		format_time(b, sizeof(b), to, v->ascii);
		format_time(d, sizeof(d), to - from, v->ascii);
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
		format_time(d, sizeof(d), calltree_duration(tree, g, v->clock),
		            v->ascii);
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
	v->fit = FIT_TARGET;
	v->col = 1;
	v->call = CALL_NONE;
	v->seen = app->scope.range;
	return v;
}

static void
timeline_close(void *state)
{
	struct timeline_view *v = state;
	int k;

	for (k = 0; k < CLOCK_COUNT; k++)
		timeline_free(v->index[k]);
	free(v->rows);
	free(v->folded);
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

const struct view_ops view_timeline_ops = {
        .name = "Timeline",
        .hints = "arrows:calls  Enter:fold/select  +/-/0/z:zoom  "
                 ",/.:calls  v/V/X:range  w:clock",
        .open = timeline_open,
        .close = timeline_close,
        .draw = timeline_draw,
        .request = timeline_request,
        .search = timeline_search,
        .status = timeline_status,
        .refresh = timeline_refresh,
};
