/*
 * calls: every call of the selected method (whichever view selected it)
 * on the threads of the scope, longest first (s: by cpu, by start), with
 * its thread, start, wall and cpu times (cut at the range's edges, as
 * every number is) and its caller.  Enter opens the call chart on the
 * call, its span the range and the call selected.  Or the calls the app
 * hands it (app->call_set: a finding's, from the Findings view's Enter),
 * whole whatever the scope, of several methods: the last column names
 * each call's method, the title is the set's, and Esc goes back to the
 * findings.
 */
#include "config.h"

#include "query/method-name.h"
#include "text/duration.h"
#include "tui/app.h"
#include "tui/list-table.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

enum calls_sort { BY_WALL, BY_CPU, BY_START, SORT_COUNT };

struct call_row {
	uint32_t call, thread;
	uint64_t start; /* on the range clock, its first instant in range */
	uint64_t dur[CLOCK_COUNT];
};

/* The columns, left to right. */
enum calls_column {
	CC_THREAD,
	CC_START,
	CC_WALL,
	CC_CPU,
	CC_CALLER,
	CC_COUNT,
};

static const struct list_column columns[CC_COUNT] = {
        LIST_COLUMN("Thread", COLUMN_TEXT, 12, COLUMN_KEEP),
        {"Start ms", COLUMN_NUMBER, 0, 1, .pad = 1},
        {"Wall ms", COLUMN_NUMBER, 0, COLUMN_KEEP, .pad = 1},
        {"Cpu ms", COLUMN_NUMBER, 0, COLUMN_KEEP, .pad = 1},
        {"Caller", COLUMN_NAME, 20, COLUMN_KEEP, .pad = 1},
};

struct calls_view {
	struct list_view lv; /* first: the list view's ops take the state */
	uint32_t method;     /* whose calls; CALL_NONE: none selected */
	struct call_row *rows;
	uint32_t *order;
	size_t count;
	enum calls_sort sort;
	struct list_table table;
	struct list_column cols[CC_COUNT]; /* the last titled by of_set */
	/* The rows are the app's call set of this serial (a finding's
	 * calls, of several methods), not the method's. */
	bool of_set;
	unsigned set_serial;
};

/* Whether the app hands the view a set of calls to list. */
static bool
set_on(const struct app *app)
{
	return app->call_set.tree == app->tree && app->call_set.tree;
}

/* Whether the rows are out of date: another method, or set. */
static bool
stale(const struct calls_view *v, const struct app *app)
{
	if (set_on(app))
		return !v->of_set || v->set_serial != app->call_set.serial;
	return v->of_set || v->method != app->sel.method;
}

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
	v->table.sort = v->sort == BY_START  ? CC_START
	                : v->sort == BY_WALL ? CC_WALL
	                                     : CC_CPU;
	v->table.sort_up = v->sort == BY_START;
	/* The filter's rows are places in the order: asked again. */
	list_set_count(&v->lv.list, v->count);
	list_reset(&v->lv.list);
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
	else if (v->method == app->sel.method && v->lv.list.cursor < v->count)
		keep = v->rows[v->order[v->lv.list.cursor]].call;

	free(v->rows);
	free(v->order);
	v->rows = NULL;
	v->count = 0;
	v->method = app->sel.method;
	v->of_set = set_on(app);
	v->set_serial = app->call_set.serial;
	v->cols[CC_CALLER].title = v->of_set ? "Method" : "Caller";
	if (!tree->has_clock[CLOCK_WALL] && v->sort == BY_WALL)
		v->sort = BY_CPU;
	/* A finding's calls: whole, whatever the scope. */
	for (i = 0; v->of_set && i < app->call_set.count; i++) {
		struct call_row *r;
		uint32_t c = app->call_set.calls[i];

		UTIL_GROW(v->rows, cap, v->count + 1);
		r = &v->rows[v->count++];
		r->call = c;
		r->thread = app->call_set.thread;
		calltree_durations(tree, c, r->dur);
		r->start = calltree_start(tree, c, k);
	}
	for (t = 0; !v->of_set && v->method != CALL_NONE && t < tree->nthreads;
	     t++) {
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
	list_view_built(&v->lv, &app->scope);
	v->order = xcalloc(v->count + 1, sizeof(*v->order));
	for (i = 0; i < v->count; i++)
		v->order[i] = (uint32_t)i;
	sort_rows(v);
	for (i = 0; keep != CALL_NONE && i < v->count; i++)
		if (v->rows[v->order[i]].call == keep)
			list_select(&v->lv.list, i);
}

static list_table_cell_fn cell;

static void *
calls_open(struct app *app)
{
	struct calls_view *v = xcalloc(1, sizeof(*v));

	memcpy(v->cols, columns, sizeof(columns));
	v->table = (struct list_table){
	        .cols = v->cols, .ncols = CC_COUNT, .cell = cell, .arg = v};
	list_view_open(&v->lv, app, list_table_row_matches, &v->table);
	build(v, app);
	return v;
}

static void
calls_close(void *state)
{
	struct calls_view *v = state;

	free(v->rows);
	free(v->order);
	list_view_done(&v->lv);
	free(v);
}

static const struct call_row *
current(const struct calls_view *v)
{
	return v->count ? &v->rows[v->order[v->lv.list.cursor]] : NULL;
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

/* The last column's text of row r: its caller, or in a set of calls of
 * several methods its own method. */
static char *
row_name(const struct calls_view *v, const struct app *app,
         const struct call_row *r, bool full)
{
	uint32_t m = calltree_method(app->tree, r->call);

	if (!v->of_set)
		return caller_name(app, r, full);
	return full ? method_full_name(&app->tree->methods[m])
	            : app_method_name(app, m);
}

/* Row row's cell of column col, a new string. */
static char *
cell(void *arg, size_t row, int col, bool full)
{
	const struct calls_view *v = arg;
	const struct app *app = v->lv.app;
	const struct call_row *r = &v->rows[v->order[row]];
	enum clock_index k = col == CC_WALL ? CLOCK_WALL : CLOCK_CPU;

	if (col == CC_THREAD)
		return xstrdup(app->tree->threads[r->thread].name);
	if (col == CC_START)
		return ms(r->start);
	if (col == CC_CALLER)
		return row_name(v, app, r, full);
	return full || app->tree->has_clock[k] ? ms(r->dur[k]) : xstrdup("-");
}

static void
calls_draw(void *state, struct app *app, struct canvas *c, int top, int height)
{
	struct calls_view *v = state;

	v->lv.app = app;
	if (stale(v, app))
		build(v, app);
	list_table_draw(&v->table, &v->lv.list, c, top, height,
	                app->all_columns,
	                v->count    ? NULL
	                : v->of_set ? "No calls in this finding"
	                : v->method == CALL_NONE
	                        ? "No method selected: select one in any "
	                          "view, then come back"
	                        : "No call of the selected method in the "
	                          "scope");
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

	if (list_move(&v->lv.list, req))
		return VIEW_DONE;
	switch (req) {
	case REQ_BACK_OUT:
		/* A finding's calls: back to the findings. */
		if (!v->of_set)
			return VIEW_UNHANDLED;
		ask->jump = APP_VIEW_FINDINGS;
		return VIEW_DONE;
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

static void
calls_refresh(void *state, struct app *app)
{
	struct calls_view *v = state;

	v->lv.app = app;
	/* The model stays while the view lives: the same method and scope,
	 * the same rows (a pass over every call on a large trace). */
	if (!stale(v, app) &&
	    (v->of_set || !list_view_stale(&v->lv, &app->scope)))
		return;
	build(v, app);
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
	name = app_method_name(app,
	                       v->of_set ? calltree_method(app->tree, r->call)
	                                 : v->method);
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
calls_title(void *state, const struct app *app, int form)
{
	struct calls_view *v = state;
	enum clock_index k = range_clock(app);
	uint64_t longest = 0;
	char *name, *most, *t;
	size_t i;

	if (form > (v->method == CALL_NONE && !v->of_set ? 0 : 1))
		return NULL;
	if (v->method == CALL_NONE && !v->of_set)
		return xstrdup("no method selected");
	for (i = 0; i < v->count; i++)
		if (v->rows[i].dur[k] > longest)
			longest = v->rows[i].dur[k];
	name = v->of_set ? xstrdup(app->call_set.title)
	                 : app_method_name(app, v->method);
	most = ms(longest);
	/* The longest call's time goes first when the room is short. */
	t = form ? xasprintf("%s: %zu call%s", name, v->count,
	                     v->count == 1 ? "" : "s")
	         : xasprintf("%s: %zu call%s, longest %s ms", name, v->count,
	                     v->count == 1 ? "" : "s", most);
	free(name);
	free(most);
	return t;
}

static struct table *
calls_rows(void *state, struct app *app)
{
	struct calls_view *v = state;

	v->lv.app = app;
	return list_table_rows(&v->table, &v->lv.list);
}

const struct view_ops view_calls_ops = {
        .cursor = list_view_cursor,
        .name = "Calls",
        .hints = "Enter:chart  s:sort",
        .needs_calls = true,
        .open = calls_open,
        .close = calls_close,
        .draw = calls_draw,
        .handle = calls_handle,
        .find = list_view_find,
        .mouse = list_view_mouse,
        .filter = list_view_filter,
        .refresh = calls_refresh,
        .selection = calls_selection,
        .status = calls_status,
        .title = calls_title,
        .rows = calls_rows,
};
