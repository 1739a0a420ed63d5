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
#include "tui/columns.h"
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
	struct list_view lv; /* first: the list view's ops take the state */
	uint32_t method;     /* whose calls; CALL_NONE: none selected */
	struct call_row *rows;
	uint32_t *order;
	size_t count;
	enum calls_sort sort;
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

static list_row_match_fn row_matches;

static void *
calls_open(struct app *app)
{
	struct calls_view *v = xcalloc(1, sizeof(*v));

	list_view_open(&v->lv, app, row_matches, v);
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

/* The columns, left to right. */
enum calls_column {
	CC_THREAD,
	CC_START,
	CC_WALL,
	CC_CPU,
	CC_CALLER,
	CC_COUNT,
};

enum {
	THREAD_MIN = 12, /* the fewest columns a thread's name takes */
	CALLER_MIN = 20, /* the fewest columns the caller's name takes */
};

/* Row r's cell of column i (a time) into a new string. */
static char *
time_cell(const struct app *app, const struct call_row *r, int i)
{
	if (i == CC_START)
		return ms(r->start);
	if (i == CC_WALL)
		return app->tree->has_clock[CLOCK_WALL] ? ms(r->dur[CLOCK_WALL])
		                                        : xstrdup("-");
	return app->tree->has_clock[CLOCK_CPU] ? ms(r->dur[CLOCK_CPU])
	                                       : xstrdup("-");
}

/* Column i's title with its sort mark, a new string. */
static char *
column_head(const struct calls_view *v, const struct canvas *c, int i)
{
	static const char *const heads[CC_COUNT] = {
	        "Thread", "Start ms", "Wall ms", "Cpu ms", "Caller"};
	const char *mark = "";

	if ((i == CC_START && v->sort == BY_START))
		mark = canvas_glyph(c, GLYPH_SORT_UP);
	if ((i == CC_WALL && v->sort == BY_WALL) ||
	    (i == CC_CPU && v->sort == BY_CPU))
		mark = canvas_glyph(c, GLYPH_SORT_DOWN);
	return xasprintf("%s%s",
	                 i == CC_CALLER && v->of_set ? "Method" : heads[i],
	                 mark);
}

/* Size the columns to the calls in view and lay them out. */
static void
lay_out(const struct calls_view *v, struct app *app, const struct canvas *c,
        struct column *cols, int body)
{
	size_t row;
	int y, i;

	for (i = 0; i < CC_COUNT; i++) {
		char *t = column_head(v, c, i);

		cols[i] = (struct column){
		        .kind = i == CC_THREAD   ? COLUMN_TEXT
		                : i == CC_CALLER ? COLUMN_NAME
		                                 : COLUMN_NUMBER,
		        .want = (int)text_width(t) + (i != CC_THREAD),
		        .prio = i == CC_START ? 1 : COLUMN_KEEP};
		free(t);
	}
	cols[CC_THREAD].min = THREAD_MIN;
	cols[CC_CALLER].min = CALLER_MIN;
	for (y = 0, row = v->lv.list.top; y < body && row < v->count;
	     y++, row = list_next(&v->lv.list, row)) {
		const struct call_row *r = &v->rows[v->order[row]];
		char *t;
		int w = (int)text_width(app->tree->threads[r->thread].name);

		if (w > cols[CC_THREAD].want)
			cols[CC_THREAD].want = w;
		for (i = CC_START; i <= CC_CPU; i++) {
			t = time_cell(app, r, i);
			if ((int)text_width(t) + 1 > cols[i].want)
				cols[i].want = (int)text_width(t) + 1;
			free(t);
		}
		t = row_name(v, app, r, false);
		if ((int)text_width(t) + 1 > cols[CC_CALLER].want)
			cols[CC_CALLER].want = (int)text_width(t) + 1;
		free(t);
	}
	columns_lay_out(cols, CC_COUNT, c->width,
	                columns_share(COLUMNS_NAME_SHARE, app->all_columns));
}

static void
calls_draw(void *state, struct app *app, struct canvas *c, int top, int height)
{
	struct calls_view *v = state;
	const char *cut = canvas_glyph(c, GLYPH_TRUNCATED);
	struct column cols[CC_COUNT];
	int body = height - 1, y, i;
	size_t row;
	char *t;

	if (stale(v, app))
		build(v, app);
	list_layout(&v->lv.list, body > 0 ? (size_t)body : 0);
	lay_out(v, app, c, cols, body);
	canvas_fill(c, 0, top, c->width, " ", ROLE_HEADER);
	for (i = 0; i < CC_COUNT; i++) {
		if (!cols[i].shown)
			continue;
		t = column_head(v, c, i);
		if (cols[i].kind == COLUMN_NUMBER)
			canvas_text_right(c, cols[i].x, top, cols[i].width, t,
			                  ROLE_HEADER);
		else
			canvas_text(c, cols[i].x + (i == CC_CALLER), top,
			            cols[i].width, t, ROLE_HEADER);
		free(t);
	}
	if (!v->count) {
		canvas_wrap(c, 2, top + 2, c->width - 2, c->width - 2,
		            height - 3,
		            v->of_set ? "No calls in this finding"
		            : v->method == CALL_NONE
		                    ? "No method selected: select one in any "
		                      "view, then come back"
		                    : "No call of the selected method in the "
		                      "scope",
		            ROLE_NORMAL);
		return;
	}
	v->lv.list.y = top + 1;
	for (y = 0, row = v->lv.list.top; y < body && row < v->count;
	     y++, row = list_next(&v->lv.list, row)) {
		const struct call_row *r = &v->rows[v->order[row]];
		enum role role =
		        row == v->lv.list.cursor ? ROLE_CURSOR : ROLE_NORMAL;
		int ry = top + 1 + y;
		char *fit;

		if (role == ROLE_CURSOR)
			canvas_fill(c, 0, ry, c->width, " ", ROLE_CURSOR);
		fit = method_cut_left(app->tree->threads[r->thread].name,
		                      cols[CC_THREAD].width, cut);
		canvas_text(c, 0, ry, cols[CC_THREAD].width, fit, role);
		free(fit);
		for (i = CC_START; i <= CC_CPU; i++) {
			if (!cols[i].shown)
				continue;
			t = time_cell(app, r, i);
			canvas_text_right(c, cols[i].x, ry, cols[i].width, t,
			                  role);
			free(t);
		}
		t = row_name(v, app, r, false);
		fit = method_cut_left(t, cols[CC_CALLER].width - 1, cut);
		canvas_text(c, cols[CC_CALLER].x + 1, ry,
		            cols[CC_CALLER].width - 1, fit, role);
		free(fit);
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

/* Whether the call on row matches re: its thread's name or its
 * caller's full name. */
static bool
row_matches(size_t row, const regex_t *re, void *arg)
{
	const struct calls_view *v = arg;
	const struct call_row *r = &v->rows[v->order[row]];
	char *caller;
	bool hit;

	if (regexec(re, v->lv.app->tree->threads[r->thread].name, 0, NULL, 0) ==
	    0)
		return true;
	caller = caller_name(v->lv.app, r, true);
	hit = regexec(re, caller, 0, NULL, 0) == 0;
	free(caller);
	return hit;
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
	static const char *const names[] = {"Thread", "Start ms", "Wall ms",
	                                    "Cpu ms", "Caller"};
	static const char *const set_names[] = {"Thread", "Start ms", "Wall ms",
	                                        "Cpu ms", "Method"};
	static const enum table_kind kinds[] = {TABLE_STRING, TABLE_NUMBER,
	                                        TABLE_NUMBER, TABLE_NUMBER,
	                                        TABLE_STRING};
	struct calls_view *v = state;
	struct table *t = table_new(5, v->of_set ? set_names : names, kinds);
	size_t row;

	for (row = list_first(&v->lv.list); row < v->count;
	     row = list_next(&v->lv.list, row)) {
		const struct call_row *r = &v->rows[v->order[row]];
		char *caller = row_name(v, app, r, true);

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
