/*
 * timeline-draw: the call chart drawn from the index: the axis and its
 * scale, per thread a header and a row per depth of cells from
 * query/chart.h (bars with an edge, a label and a hue per package; marks
 * where calls are narrower than half a cell), the selected call outlined
 * over its extent, and the panel that describes it.
 */
#include "config.h"

#include "tui/views/timeline.h"

#include "query/chart.h"
#include "query/method-name.h"
#include "text/duration.h"
#include "util/alloc.h"
#include "util/hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
draw_bar(struct canvas *c, const struct app *app, uint32_t mi, enum role role,
         bool selected, int x, int y, int w)
{
	struct tt_method m = app->tree->methods[mi];
	char *label, *shown = NULL;
	int used;

	if (w <= 1) {
		canvas_fill(c, x, y, 1, selected ? " " : narrow_glyph(c), role);
		return;
	}
	canvas_fill(c, x, y, 1, edge_glyph(c), role);
	if (!app->full_names && *m.klass && *m.name) {
		/* The short name, split again into its class and the rest
		 * (the method's name, and an overload's parameters). */
		char *dot, *open, keep;

		shown = app_method_name(app, mi);
		open = shown + strcspn(shown, "(");
		keep = *open;
		*open = '\0';
		dot = strrchr(shown, '.');
		*open = keep;
		if (dot && dot > shown) {
			*dot = '\0';
			m.klass = shown;
			m.name = dot + 1;
		}
	}
	label = bar_label(&m, w - 1, c->ascii);
	free(shown);
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
	duration_label(scale, sizeof(scale), v->col, c->ascii);
	{
		/* The clock and the scale; narrower, the scale alone, then
		 * without "/col", then rounded: whole, never cut. */
		char *unit = NULL;
		double n = strtod(scale, &unit);
		char *forms[4] = {
		        xasprintf("%s %s/col", tlv_clock_name(v->clock), scale),
		        xasprintf("%s/col", scale), xstrdup(scale),
		        xasprintf("%.0f%s", n, unit ? unit : "")};
		int i;

		for (i = 0; i < 3 && (int)text_width(forms[i]) >= x0; i++)
			;
		canvas_text(c, 0, y, x0 - 1, forms[i], ROLE_HEADER);
		for (i = 0; i < 4; i++)
			free(forms[i]);
	}
	/* Ticks at least a label and two columns apart. */
	step = tlv_nice_at_least(10 * v->col);
	for (;;) {
		duration_tick(buf, sizeof(buf), end / step * step, step,
		              c->ascii);
		w = (int)text_width(buf);
		if (step / v->col >= (uint64_t)w + 2)
			break;
		step = tlv_nice_at_least(step + 1);
	}
	for (t = (v->first * v->col + step - 1) / step * step; t < end;
	     t += step) {
		x = (int)(t / v->col - v->first);
		canvas_text(c, x0 + x, y, 1, canvas_glyph(c, GLYPH_VLINE),
		            ROLE_HEADER);
		duration_tick(buf, sizeof(buf), t, step, c->ascii);
		if ((int)text_width(buf) < p - x)
			canvas_text(c, x0 + x + 1, y, p - x - 1, buf,
			            ROLE_HEADER);
	}
	/* Outside an applied range the axis is dim. */
	if (tlv_range_here(v, app, &from, &to)) {
		for (x = 0; x < p; x++) {
			uint64_t s = (v->first + (uint64_t)x) * v->col;

			if (s + v->col <= from || s >= to)
				canvas_set_role(c, x0 + x, y, 1, ROLE_DIM);
		}
	}
	if (v->marking) {
		tlv_marked(v, app->tree, &from, &to);
		for (x = 0; x < p; x++) {
			uint64_t s = (v->first + (uint64_t)x) * v->col;

			if (s < to && s + v->col > from)
				canvas_set_role(c, x0 + x, y, 1, ROLE_MATCH);
		}
	}
	/* The cursor: a marker, or over a label only a highlight. */
	x = (int)tlv_cursor_x(v);
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
const bool *
tlv_matches(struct timeline_view *v, struct app *app)
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
	const bool *match = tlv_matches(v, app);
	uint64_t from = 0, to = 0;
	bool ranged = tlv_range_here(v, app, &from, &to);
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
		else if (m == app->sel.method)
			role = ROLE_HOT;
		draw_bar(c, app, m, role, false, x0 + x, y, end - x);
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
	d->need = chart_rows(tlv_index_of(v), v->rows[i], v->first * v->col,
	                     v->col, p, d->dtop, cap, d->cells);
	d->rows = d->need > d->dtop ? d->need - d->dtop : 0;
	if (i == v->cur && v->call != CALL_NONE) {
		/* The selected call's row, even under a mark. */
		size_t depth =
		        calltree_depth(timeline_tree(tlv_index_of(v)), v->call);

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

/* At most this many matching methods are marked on the header lines:
 * each costs a binary search per column and thread. */
enum { MARKED_MATCHES = 32 };

/* On thread t's header line, the columns where calls of the search's
 * methods (ROLE_MATCH) or of the selected method (ROLE_HOT) are, at any
 * depth: calls hidden in marks show there, as Traceview's thin lines
 * under a row did. */
static void
mark_methods(struct timeline_view *v, struct app *app, struct canvas *c,
             uint32_t t, int y, int x0)
{
	const struct timeline *tl = tlv_index_of(v);
	const bool *match = tlv_matches(v, app);
	uint32_t found[MARKED_MATCHES];
	size_t n = 0, m, i;
	int x;

	for (m = 0; match && m < app->tree->nmethods; m++) {
		const uint32_t *calls;

		if (!match[m] ||
		    !timeline_method_calls(tl, (uint32_t)m, t, &calls))
			continue;
		if (n == MARKED_MATCHES) {
			n = 0;
			break;
		}
		found[n++] = (uint32_t)m;
	}
	for (x = 0; x < v->plot; x++) {
		uint64_t s = (v->first + (uint64_t)x) * v->col;

		for (i = 0; i < n; i++) {
			if (timeline_method_overlaps(tl, found[i], t, s,
			                             s + v->col)) {
				canvas_set_role(c, x0 + x, y, 1, ROLE_MATCH);
				break;
			}
		}
		if (i == n && app->sel.method != CALL_NONE &&
		    timeline_method_overlaps(tl, app->sel.method, t, s,
		                             s + v->col))
			canvas_set_role(c, x0 + x, y, 1, ROLE_HOT);
	}
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

	label = xasprintf(
	        "%s %s",
	        canvas_glyph(c, folded ? GLYPH_COLLAPSED : GLYPH_EXPANDED),
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
	mark_methods(v, app, c, t, y, x0);
	duration_label(buf, sizeof(buf), timeline_busy(tlv_index_of(v), t),
	               c->ascii);
	label = xasprintf(" %s busy ", buf);
	canvas_text_right(c, x0, y, p - 1, label, ROLE_DIM);
	free(label);
}

/* The selected call outlined over its extent on row y. */
static void
draw_selected(struct timeline_view *v, const struct app *app, struct canvas *c,
              int y, int x0)
{
	const struct calltree *tree = app->tree;
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
	draw_bar(c, app, calltree_method(tree, v->call), ROLE_CURSOR, true,
	         x0 + (int)a, y, (int)(b - a + 1));
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
			draw_selected(v, app, c, y + (int)r, x0);
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
		duration_label(w, sizeof(w), t[CLOCK_WALL], ascii);
	if (tree->has_clock[CLOCK_CPU])
		duration_label(u, sizeof(u), t[CLOCK_CPU], ascii);
	return xasprintf("%s%s%s%s%s", *w ? "wall " : "", w,
	                 *w && *u ? "  " : "", *u ? "cpu " : "", u);
}

/* Call c's exclusive time on clock k: from the index on that clock when
 * there is one, else its duration less its callees' (walked once per
 * selected call: a call may have a great many). */
static uint64_t
call_excl(struct timeline_view *v, const struct calltree *tree, uint32_t t,
          uint32_t c, enum clock_index k)
{
	const struct timeline *tl = tlv_index_of(v);
	uint64_t ex = calltree_duration(tree, c, k);
	size_t end;
	uint32_t g;

	if (v->index[k])
		return timeline_call_excl(v->index[k], c);
	if (v->excl_call == c && v->excl_clock == k)
		return v->excl;
	end = timeline_subtree_end(tl, t, c);
	for (g = timeline_first_callee(tl, t, c); g != CALL_NONE && g < end;
	     g = timeline_next_at_depth(tl, t, g))
		ex -= calltree_duration(tree, g, k);
	v->excl_call = c;
	v->excl_clock = k;
	v->excl = ex;
	return ex;
}

/* The panel under the chart: the selected call, or the thread. */
static void
draw_panel(struct timeline_view *v, struct app *app, struct canvas *c, int y,
           int h)
{
	const struct calltree *tree = app->tree;
	uint32_t t = tlv_current_thread(v), c0 = v->call, g;
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
		duration_label(busy, sizeof(busy),
		               timeline_busy(tlv_index_of(v), t), c->ascii);
		line = xasprintf("%s busy, %u calls, %u deep", busy, th->ncalls,
		                 th->ncalls ? th->max_depth : 0);
		canvas_text(c, 0, y + 2, c->width, line, ROLE_NORMAL);
		free(line);
		if (h > 3) {
			/* What Down does (timeline.c, move_down). */
			const char *down = !v->folded[t] && th->ncalls
			                           ? "Down: its calls  "
			                   : v->cur + 1 < v->nrows
			                           ? "Down: the next "
			                             "thread  "
			                           : "";

			line = xasprintf("%sEnter or Space: %s", down,
			                 v->folded[t] ? "unfold"
			                              : "fold or unfold");
			canvas_text(c, 0, y + 3, c->width, line, ROLE_DIM);
			free(line);
		}
		return;
	}
	line = method_name_with_source(
	        &tree->methods[calltree_method(tree, c0)]);
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
			char *name =
			        app_method_name(app, calltree_method(tree, g));
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

void
tlv_draw(void *state, struct app *app, struct canvas *c, int top, int height)
{
	struct timeline_view *v = state;
	int x0, y, panel, area, used;
	size_t i, cap, r;

	tlv_ensure(v, app);
	tlv_forget_layout(v);
	v->ascii = c->ascii;
	v->width = c->width;
	tlv_lay_out(v, app, c->width);
	x0 = v->x0;
	v->axis_y = top;
	tlv_refit(v, app);
	draw_axis(v, c, top, x0, app);
	if (!v->nrows) {
		canvas_text(c, 1, top + 2, c->width - 1,
		            v->nidle ? "no thread is busy in the range "
		                       "(H: show them)"
		                     : "no thread in the scope (t: threads)",
		            ROLE_DIM);
		return;
	}
	panel = height >= 15 ? 5 : 0;
	area = height - 1 - panel;
	v->area = area;
	v->line_y = top + 1;
	v->nlines = area > 0 ? area : 0;
	v->lines = xcalloc((size_t)v->nlines + 1, sizeof(*v->lines));
	for (y = 0; y < v->nlines; y++)
		v->lines[y].row = SIZE_MAX;
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
			              v->dtop) +
			        1;
		if (need + upto <= area || v->top == v->cur)
			break;
		v->top++;
	}
	for (i = v->top, y = top + 1; i < v->nrows && y < top + 1 + area; i++) {
		draw_header(v, app, c, i, y, x0, cap);
		v->lines[y - top - 1].row = i;
		v->lines[y - top - 1].header = true;
		y++;
		if (v->folded[v->rows[i]])
			continue;
		used = lines_of(v, i, cap) - 1;
		if (y + used > top + 1 + area)
			used = top + 1 + area - y;
		if (used > 0) {
			struct drawn *d = chart_of(v, i, cap);
			size_t keep = d->rows;

			d->rows =
			        (size_t)used < d->rows ? (size_t)used : d->rows;
			draw_depths(v, app, c, i, y, x0, cap);
			for (r = 0; r < d->rows; r++) {
				v->lines[y - top - 1 + (int)r].row = i;
				v->lines[y - top - 1 + (int)r].cells =
				        d->cells + r * (size_t)v->plot;
			}
			d->rows = keep;
		}
		y += used;
	}
	/* The threads left out, behind H. */
	if (v->nidle && y < top + 1 + area) {
		char *note =
		        xasprintf("%s %zu thread%s idle%s (H: show)",
		                  canvas_glyph(c, GLYPH_COLLAPSED), v->nidle,
		                  v->nidle == 1 ? "" : "s",
		                  app->scope.range.on ? " in the range" : "");

		canvas_text(c, 0, y, c->width, note, ROLE_DIM);
		free(note);
	}
	if (panel)
		draw_panel(v, app, c, top + height - panel, panel);
	/* The cells stay for the mouse until the next draw. */
	v->kept = v->drawn;
	v->nkept = v->nrows;
	v->drawn = NULL;
}

void
tlv_forget_layout(struct timeline_view *v)
{
	size_t i;

	for (i = 0; i < v->nkept; i++)
		free(v->kept[i].cells);
	free(v->kept);
	free(v->lines);
	v->kept = NULL;
	v->nkept = 0;
	v->lines = NULL;
	v->nlines = 0;
}
