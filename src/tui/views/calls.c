/*
 * calls: every call of the selected method (whichever view selected it)
 * on the threads of the scope, longest first (s: by cpu, by start), with
 * its thread, start, wall and cpu times (cut at the range's edges, as
 * every number is) and its caller.  Enter opens the call chart on the
 * call, its span the range and the call selected.
 */
#include "config.h"

#include "query/method-name.h"
#include "text/duration.h"
#include "tui/app.h"
#include "tui/list.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

enum calls_sort { BY_WALL, BY_CPU, BY_START, SORT_COUNT };

struct call_row {
	uint32_t call, thread;
	uint64_t start; /* on the range clock, its first instant in range */
	uint64_t dur[CLOCK_COUNT];
};

struct calls_view {
	uint32_t method; /* whose calls; CALL_NONE: none selected */
	struct call_row *rows;
	uint32_t *order;
	size_t count;
	enum calls_sort sort;
	struct list list;
	const regex_t *filter;
	const struct app *app; /* for the filter's matcher */
	struct scope built;    /* the scope the rows are of */
};

static enum clock_index
range_clock(const struct app *app)
{
	return calltree_default_range_clock(app->tree);
}

static int
row_cmp(const void *a, const void *b, void *arg)
{
	const struct calls_view *v = arg;
	const struct call_row *x = &v->rows[*(const uint32_t *)a];
	const struct call_row *y = &v->rows[*(const uint32_t *)b];

	if (v->sort != BY_START) {
		enum clock_index k =
		        v->sort == BY_WALL ? CLOCK_WALL : CLOCK_CPU;

		if (x->dur[k] != y->dur[k])
			return x->dur[k] > y->dur[k] ? -1 : 1;
	}
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->call < y->call ? -1 : x->call > y->call;
}

static void
sort_rows(struct calls_view *v)
{
	if (v->count > 1)
		qsort_r(v->order, v->count, sizeof(*v->order), row_cmp, v);
	list_reset(&v->list);
}

/* The calls of the selected method in the app's scope, found again;
 * the cursor on the selected call where it is one of them, else on the
 * call it was on (the list as it was, back from what its row opened). */
static void
build(struct calls_view *v, const struct app *app)
{
	const struct calltree *tree = app->tree;
	struct scope_span span = {0};
	enum clock_index k = range_clock(app);
	size_t cap = 0, t, i, n;
	uint32_t keep = CALL_NONE;

	if (app->sel.call != CALL_NONE)
		keep = app->sel.call;
	else if (v->method == app->sel.method && v->list.cursor < v->count)
		keep = v->rows[v->order[v->list.cursor]].call;

	free(v->rows);
	free(v->order);
	v->rows = NULL;
	v->count = 0;
	v->method = app->sel.method;
	if (!tree->has_clock[CLOCK_WALL] && v->sort == BY_WALL)
		v->sort = BY_CPU;
	for (t = 0; v->method != CALL_NONE && t < tree->nthreads; t++) {
		if (!scope_has(&app->scope, t) || !tree->threads[t].ncalls)
			continue;
		scope_span_of(&span, &app->scope, tree, t);
		n = span.nopen + (span.end - span.first);
		for (i = 0; i < n; i++) {
			size_t c = i < span.nopen
			                   ? span.open[i]
			                   : span.first + (i - span.nopen);
			struct call_row *r;

			if (calltree_method(tree, c) != v->method)
				continue;
			UTIL_GROW(v->rows, cap, v->count + 1);
			r = &v->rows[v->count++];
			r->call = (uint32_t)c;
			r->thread = (uint32_t)t;
			scope_clip(&app->scope, tree, &span, c, r->dur);
			r->start = calltree_start(tree, c, k);
			if (app->scope.range.on &&
			    r->start < app->scope.range.start)
				r->start = app->scope.range.start;
		}
	}
	scope_span_done(&span);
	scope_copy(&v->built, &app->scope);
	v->order = xcalloc(v->count + 1, sizeof(*v->order));
	for (i = 0; i < v->count; i++)
		v->order[i] = (uint32_t)i;
	list_set_count(&v->list, v->count);
	sort_rows(v);
	for (i = 0; keep != CALL_NONE && i < v->count; i++)
		if (v->rows[v->order[i]].call == keep)
			list_select(&v->list, i);
}

static void *
calls_open(struct app *app)
{
	struct calls_view *v = xcalloc(1, sizeof(*v));

	v->app = app;
	build(v, app);
	return v;
}

static void
calls_close(void *state)
{
	struct calls_view *v = state;

	free(v->rows);
	free(v->order);
	list_done(&v->list);
	if (v->built.on)
		scope_done(&v->built);
	free(v);
}

static const struct call_row *
current(const struct calls_view *v)
{
	return v->count ? &v->rows[v->order[v->list.cursor]] : NULL;
}

static char *
ms(uint64_t us)
{
	char buf[DURATION_SIZE];

	return xstrdup(duration_ms(buf, sizeof(buf), us));
}

/* The caller of row r's call as the views name it, or "(top level)". */
static char *
caller_name(const struct app *app, const struct call_row *r, bool full)
{
	uint32_t p = calltree_parent(app->tree, r->call);

	if (p == CALL_NONE)
		return xstrdup("(top level)");
	if (full)
		return method_full_name(
		        &app->tree->methods[calltree_method(app->tree, p)]);
	return app_method_name(app, calltree_method(app->tree, p));
}

enum {
	THREAD_W = 16,
	START_W = 11,
	TIME_W = 10,
};

static void
calls_draw(void *state, struct app *app, struct canvas *c, int top, int height)
{
	struct calls_view *v = state;
	const char *down = canvas_glyph(c, GLYPH_SORT_DOWN);
	int body = height - 1, y, x;
	size_t row;
	char *t;

	if (v->method != app->sel.method)
		build(v, app);
	canvas_fill(c, 0, top, c->width, " ", ROLE_HEADER);
	x = 0;
	canvas_text(c, x, top, THREAD_W, "Thread", ROLE_HEADER);
	x += THREAD_W + 1;
	t = xasprintf("Start ms%s", v->sort == BY_START
	                                    ? canvas_glyph(c, GLYPH_SORT_UP)
	                                    : "");
	canvas_text_right(c, x, top, START_W, t, ROLE_HEADER);
	free(t);
	x += START_W + 1;
	t = xasprintf("Wall ms%s", v->sort == BY_WALL ? down : "");
	canvas_text_right(c, x, top, TIME_W, t, ROLE_HEADER);
	free(t);
	x += TIME_W + 1;
	t = xasprintf("Cpu ms%s", v->sort == BY_CPU ? down : "");
	canvas_text_right(c, x, top, TIME_W, t, ROLE_HEADER);
	free(t);
	x += TIME_W + 2;
	canvas_text(c, x, top, c->width - x, "Caller", ROLE_HEADER);
	if (!v->count) {
		canvas_text(c, 2, top + 2, c->width - 2,
		            v->method == CALL_NONE
		                    ? "No method selected: select one in any "
		                      "view, then come back"
		                    : "No call of the selected method in the "
		                      "scope",
		            ROLE_NORMAL);
		return;
	}
	list_layout(&v->list, body > 0 ? (size_t)body : 0);
	v->list.y = top + 1;
	for (y = 0, row = v->list.top; y < body && row < v->count;
	     y++, row = list_next(&v->list, row)) {
		const struct call_row *r = &v->rows[v->order[row]];
		enum role role =
		        row == v->list.cursor ? ROLE_CURSOR : ROLE_NORMAL;
		int ry = top + 1 + y;

		if (role == ROLE_CURSOR)
			canvas_fill(c, 0, ry, c->width, " ", ROLE_CURSOR);
		x = 0;
		canvas_text(c, x, ry, THREAD_W,
		            app->tree->threads[r->thread].name, role);
		x += THREAD_W + 1;
		t = ms(r->start);
		canvas_text_right(c, x, ry, START_W, t, role);
		free(t);
		x += START_W + 1;
		t = ms(r->dur[CLOCK_WALL]);
		canvas_text_right(c, x, ry, TIME_W,
		                  app->tree->has_clock[CLOCK_WALL] ? t : "-",
		                  role);
		free(t);
		x += TIME_W + 1;
		t = ms(r->dur[CLOCK_CPU]);
		canvas_text_right(c, x, ry, TIME_W,
		                  app->tree->has_clock[CLOCK_CPU] ? t : "-",
		                  role);
		free(t);
		x += TIME_W + 2;
		t = caller_name(app, r, false);
		canvas_text(c, x, ry, c->width - x, t, role);
		free(t);
	}
}

static void
enter(const struct calls_view *v, const struct app *app, struct view_ask *ask)
{
	const struct call_row *r = current(v);
	enum clock_index k = range_clock(app);

	if (!r)
		return;
	ask->set_range = true;
	ask->range.on = true;
	ask->range.clock = k;
	ask->range.start = r->start;
	ask->range.end = r->start + (r->dur[k] ? r->dur[k] : 1);
	ask->open_call = true;
	ask->call_thread = r->thread;
	ask->call = r->call;
	ask->jump = APP_VIEW_TIMELINE;
}

static enum view_result
calls_handle(void *state, const struct app *app, enum request req,
             struct view_ask *ask)
{
	struct calls_view *v = state;
	static const char *const sorts[] = {"wall time", "cpu time", "start"};

	if (list_move(&v->list, req))
		return VIEW_DONE;
	switch (req) {
	case REQ_SORT_NEXT:
	case REQ_SORT_PREV:
	case REQ_SORT_REVERSE:
		do
			v->sort = (enum calls_sort)(
			        (v->sort +
			         (req == REQ_SORT_PREV ? SORT_COUNT - 1 : 1)) %
			        SORT_COUNT);
		while ((v->sort == BY_WALL &&
		        !app->tree->has_clock[CLOCK_WALL]) ||
		       (v->sort == BY_CPU && !app->tree->has_clock[CLOCK_CPU]));
		sort_rows(v);
		snprintf(ask->message, sizeof(ask->message), "calls by %s",
		         sorts[v->sort]);
		return VIEW_DONE;
	case REQ_ENTER:
		enter(v, app, ask);
		return VIEW_DONE;
	default:
		return VIEW_UNHANDLED;
	}
}

static enum view_result
calls_mouse(void *state, struct app *app, const struct mouse_event *ev,
            struct view_ask *ask)
{
	struct calls_view *v = state;
	enum list_click r = list_mouse(&v->list, ev);

	(void)app, (void)ask;
	return r == LIST_AGAIN   ? VIEW_AGAIN
	       : r == LIST_MOVED ? VIEW_DONE
	                         : VIEW_UNHANDLED;
}

/* Whether the call on row matches re: its thread's name or its
 * caller's full name. */
static bool
matches(const struct calls_view *v, const struct app *app, size_t row,
        const regex_t *re)
{
	const struct call_row *r = &v->rows[v->order[row]];
	char *caller;
	bool hit;

	if (regexec(re, app->tree->threads[r->thread].name, 0, NULL, 0) == 0)
		return true;
	caller = caller_name(app, r, true);
	hit = regexec(re, caller, 0, NULL, 0) == 0;
	free(caller);
	return hit;
}

static bool
row_matches(size_t row, void *arg)
{
	void **a = arg;

	return matches(a[0], a[1], row, a[2]);
}

static bool
calls_find(void *state, const struct app *app, const regex_t *re, int dir,
           struct view_ask *ask)
{
	struct calls_view *v = state;
	void *arg[3] = {v, (void *)app, (void *)re};
	struct list_hit hit;

	if (!list_search(&v->list, dir, row_matches, arg, &hit))
		return false;
	ask->match = hit.nth;
	ask->matches = hit.total;
	return true;
}

static bool
row_kept(size_t row, void *arg)
{
	const struct calls_view *v = arg;

	return matches(v, v->app, row, v->filter);
}

static size_t
calls_filter(void *state, const struct app *app, const regex_t *re)
{
	struct calls_view *v = state;

	v->filter = re;
	v->app = app;
	list_filter(&v->list, re ? row_kept : NULL, v);
	return list_visible(&v->list);
}

static void
calls_refresh(void *state, struct app *app)
{
	struct calls_view *v = state;

	v->app = app;
	/* The model stays while the view lives: the same method and scope,
	 * the same rows (a pass over every call on a large trace). */
	if (v->method == app->sel.method && scope_equal(&v->built, &app->scope))
		return;
	build(v, app);
	list_filter(&v->list, v->filter ? row_kept : NULL, v);
}

static uint32_t
calls_selection(void *state)
{
	struct calls_view *v = state;

	return v->method;
}

static char *
calls_status(void *state, struct app *app)
{
	struct calls_view *v = state;
	const struct call_row *r = current(v);
	char *name, *caller, *s;

	if (!r)
		return NULL;
	name = app_method_name(app, v->method);
	caller = caller_name(app, r, false);
	s = xasprintf("%s on %s, called by %s, depth %u; Enter: the call in "
	              "the call chart",
	              name, app->tree->threads[r->thread].name, caller,
	              calltree_depth(app->tree, r->call));
	free(name);
	free(caller);
	return s;
}

static char *
calls_title(void *state, const struct app *app)
{
	struct calls_view *v = state;
	enum clock_index k = range_clock(app);
	uint64_t longest = 0;
	char *name, *most, *t;
	size_t i;

	if (v->method == CALL_NONE)
		return xstrdup("no method selected");
	for (i = 0; i < v->count; i++)
		if (v->rows[i].dur[k] > longest)
			longest = v->rows[i].dur[k];
	name = app_method_name(app, v->method);
	most = ms(longest);
	t = xasprintf("%s: %zu call%s, longest %s ms", name, v->count,
	              v->count == 1 ? "" : "s", most);
	free(name);
	free(most);
	return t;
}

static struct table *
calls_rows(void *state, struct app *app)
{
	static const char *const names[] = {"Thread", "Start ms", "Wall ms",
	                                    "Cpu ms", "Caller"};
	static const enum table_kind kinds[] = {TABLE_STRING, TABLE_NUMBER,
	                                        TABLE_NUMBER, TABLE_NUMBER,
	                                        TABLE_STRING};
	struct calls_view *v = state;
	struct table *t = table_new(5, names, kinds);
	size_t row;

	for (row = list_first(&v->list); row < v->count;
	     row = list_next(&v->list, row)) {
		const struct call_row *r = &v->rows[v->order[row]];
		char *caller = caller_name(app, r, true);

		table_row(t);
		table_str(t, app->tree->threads[r->thread].name);
		table_ms(t, r->start);
		table_ms(t, r->dur[CLOCK_WALL]);
		table_ms(t, r->dur[CLOCK_CPU]);
		table_str(t, caller);
		free(caller);
	}
	return t;
}

/* The list whose cursor the status line places. */
static const struct list *
calls_cursor(void *state)
{
	const struct calls_view *v = state;

	return &v->list;
}

const struct view_ops view_calls_ops = {
        .cursor = calls_cursor,
        .name = "Calls",
        .hints = "Enter:chart  s:sort",
        .needs_calls = true,
        .open = calls_open,
        .close = calls_close,
        .draw = calls_draw,
        .handle = calls_handle,
        .find = calls_find,
        .mouse = calls_mouse,
        .filter = calls_filter,
        .refresh = calls_refresh,
        .selection = calls_selection,
        .status = calls_status,
        .title = calls_title,
        .rows = calls_rows,
};
