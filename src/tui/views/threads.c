/*
 * threads: every thread with its id, calls, wall span and cpu time,
 * sortable.  Enter makes the selected thread (or the tagged ones) the
 * scope of every view; `a` goes back to all threads.  Cursor, paging
 * and search are the list widget's; a new sort puts the cursor back on
 * the first row.
 */
#include "config.h"

#include "tui/app.h"
#include "model/scope.h"
#include "query/method-name.h"
#include "query/quantity.h"
#include "tui/list-table.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

enum thread_column {
	TCOL_BOX, /* in the scope or not, "[x]" */
	TCOL_NAME,
	TCOL_TID,
	TCOL_CALLS,
	TCOL_WALL,
	TCOL_CPU,
	TCOL_COUNT,
};

/* The columns; which numbers give way first when the width is short:
 * the lower, the sooner (the sort column never does: sort_threads). */
static const struct list_column columns[TCOL_COUNT] = {
        {"", COLUMN_TEXT, 0, 0, .tsv = "Scope", .fixed = 3, .lead = true},
        LIST_COLUMN("Name", COLUMN_NAME, 16, 0),
        LIST_COLUMN("Tid", COLUMN_NUMBER, 0, 1),
        LIST_COLUMN("Calls", COLUMN_NUMBER, 0, 2),
        LIST_COLUMN("Wall ms", COLUMN_NUMBER, 0, 4),
        LIST_COLUMN("Cpu ms", COLUMN_NUMBER, 0, 3),
};

struct threads_view {
	struct list_view lv; /* first: the list view's ops take the state */
	uint32_t *order;
	size_t count;
	bool *tagged;
	size_t ntagged;
	enum thread_column sort;
	bool ascending;
	/* The columns, titled for the trace, the sort column kept, and
	 * sized to their widest cell of every thread (size_columns). */
	struct list_column cols[TCOL_COUNT];
	int wants[TCOL_COUNT];
	struct list_table table;
};

/* Whether tree is a sampled profile (pprof, hprof's counts, simpleperf),
 * whose runs of samples are no calls: the Calls column counts samples,
 * where the profile has them. */
static bool
counts_samples(const struct calltree *tree)
{
	return tree->header.sample_weight || calltree_is_profile(tree);
}

static uint64_t
thread_value(const struct calltree *tree, uint32_t t, enum thread_column c)
{
	/* A thread's traced time as every total counts it: its span, or
	 * under a focus its focused calls' time. */
	static const struct scope whole = {0};

	switch (c) {
	case TCOL_TID:
		return tree->threads[t].tid;
	case TCOL_CALLS:
		/* simpleperf's cpu clock counts each sample as its weight;
		 * hprof's values are its samples. */
		if (tree->header.sample_weight)
			return scope_thread_total(&whole, tree, t, CLOCK_CPU) /
			       tree->header.sample_weight;
		if (counts_samples(tree))
			return scope_thread_total(&whole, tree, t, CLOCK_WALL);
		return calltree_thread_calls(tree, t);
	case TCOL_WALL:
		return scope_thread_total(&whole, tree, t, CLOCK_WALL);
	case TCOL_CPU:
		return scope_thread_total(&whole, tree, t, CLOCK_CPU);
	default:
		return 0;
	}
}

struct sort_ctx {
	const struct threads_view *v;
	const struct calltree *tree;
};

static int
thread_cmp(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *s = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int r;

	if (s->v->sort == TCOL_NAME) {
		/* Reversed like the numbers below, which sort descending
		 * unless ascending is set. */
		r = strcmp(s->tree->threads[y].name, s->tree->threads[x].name);
	} else {
		uint64_t vx = thread_value(s->tree, x, s->v->sort);
		uint64_t vy = thread_value(s->tree, y, s->v->sort);

		r = vx == vy ? 0 : vx > vy ? -1 : 1;
	}
	if (s->v->ascending)
		r = -r;
	return r ? r : (x < y ? -1 : x > y);
}

/* Sort again: the cursor goes back to the first row. */
static void
sort_threads(struct threads_view *v, const struct app *app)
{
	struct sort_ctx ctx = {v, app->tree};
	int i;

	qsort_r(v->order, v->count, sizeof(*v->order), thread_cmp, &ctx);
	for (i = TCOL_NAME; i < TCOL_COUNT; i++)
		v->cols[i].prio =
		        i == (int)v->sort ? COLUMN_KEEP : columns[i].prio;
	v->table.sort = v->sort;
	v->table.sort_up = v->ascending;
	/* The filter's rows are places in the order: asked again. */
	list_set_count(&v->lv.list, v->count);
	list_reset(&v->lv.list);
}

static void
threads_close(void *state)
{
	struct threads_view *v = state;

	free(v->order);
	free(v->tagged);
	list_view_done(&v->lv);
	free(v);
}

/* A time in milliseconds, or a profile's size or count. */
static void
format_value(char *buf, size_t size, uint64_t v, enum trace_unit unit)
{
	quantity_format(buf, size, v, unit, false);
}

/* The text of thread t's cell in column i (past the name) into buf. */
static void
cell_text(const struct calltree *tree, uint32_t t, int i, char *buf,
          size_t size)
{
	/* A pprof profile's values are no samples: it has no count. */
	bool absent =
	        (i == TCOL_WALL && !tree->has_clock[CLOCK_WALL]) ||
	        (i == TCOL_CPU && !tree->has_clock[CLOCK_CPU]) ||
	        (i == TCOL_CALLS && tree->header.format == TRACE_FORMAT_PPROF);

	if (absent)
		snprintf(buf, size, "-");
	else if (i == TCOL_WALL || i == TCOL_CPU)
		format_value(buf, size, thread_value(tree, t, i),
		             tree->header.unit);
	else
		snprintf(buf, size, "%llu",
		         (unsigned long long)thread_value(tree, t, i));
}

/* Column i's title: a profile's values are not times ("Wall" alone). */
static const char *
column_title(const struct calltree *tree, int i)
{
	bool bare = (i == TCOL_WALL || i == TCOL_CPU) &&
	            tree->header.unit != TRACE_UNIT_US;

	if (i == TCOL_CALLS && counts_samples(tree))
		return "Samples";
	return !bare ? columns[i].title : i == TCOL_WALL ? "Wall" : "Cpu";
}

/* The columns after the name's (which takes the rest) as wide as their
 * widest cell or title, a sort mark beside it: nothing is cut. */
static void
size_columns(struct threads_view *v, const struct calltree *tree)
{
	char buf[32];
	size_t t;
	int i, w;

	v->wants[TCOL_NAME] = (int)strlen("Name") + 2;
	for (t = 0; t < tree->nthreads; t++) {
		w = (int)text_width(tree->threads[t].name);
		if (w > v->wants[TCOL_NAME])
			v->wants[TCOL_NAME] = w;
	}
	for (i = TCOL_TID; i < TCOL_COUNT; i++) {
		v->cols[i].title = column_title(tree, i);
		v->wants[i] = (int)strlen(v->cols[i].title) + 1;
		for (t = 0; t < tree->nthreads; t++) {
			cell_text(tree, (uint32_t)t, i, buf, sizeof(buf));
			w = (int)strlen(buf);
			if (w > v->wants[i])
				v->wants[i] = w;
		}
	}
}

/* Row row's cell of column col, a new string. */
static char *
cell(void *arg, size_t row, int col, bool full)
{
	const struct threads_view *v = arg;
	const struct app *app = v->lv.app;
	uint32_t t = v->order[row];
	char buf[32];

	if (col == TCOL_BOX)
		return xstrdup(scope_has(&app->scope, t) ? "[x]" : "[ ]");
	if (col == TCOL_NAME)
		return xstrdup(app->tree->threads[t].name);
	cell_text(app->tree, t, col, buf, sizeof(buf));
	return xstrdup(buf);
}

static enum role
cell_role(void *arg, size_t row, int col)
{
	const struct threads_view *v = arg;

	return v->tagged[v->order[row]] ? ROLE_TAGGED : ROLE_NORMAL;
}

static void *
threads_open(struct app *app)
{
	struct threads_view *v = xcalloc(1, sizeof(*v));
	size_t t;

	memcpy(v->cols, columns, sizeof(columns));
	v->table = (struct list_table){.cols = v->cols,
	                               .ncols = TCOL_COUNT,
	                               .wants = v->wants,
	                               .cell = cell,
	                               .role = cell_role,
	                               .arg = v};
	v->count = app->tree->nthreads;
	v->order = xcalloc(v->count + 1, sizeof(*v->order));
	v->tagged = xcalloc(v->count + 1, sizeof(*v->tagged));
	for (t = 0; t < v->count; t++)
		v->order[t] = (uint32_t)t;
	list_view_open(&v->lv, app, list_table_row_matches, &v->table);
	v->sort = app->tree->has_clock[CLOCK_WALL] ? TCOL_WALL : TCOL_CPU;
	list_set_count(&v->lv.list, v->count);
	sort_threads(v, app);
	size_columns(v, app->tree);
	return v;
}

static void
threads_draw(void *state, struct app *app, struct canvas *c, int top,
             int height)
{
	struct threads_view *v = state;

	v->lv.app = app;
	list_table_draw(&v->table, &v->lv.list, c, top, height,
	                app->all_columns, NULL);
}

/* Ask for the selected thread (or the tagged ones) as the scope, and
 * the profile. */
static void
ask_scope(const struct threads_view *v, const struct app *app,
          struct view_ask *ask)
{
	size_t t;

	scope_init_none(&ask->scope, app->tree);
	if (v->ntagged) {
		for (t = 0; t < v->count; t++)
			if (v->tagged[t])
				scope_add(&ask->scope, t);
	} else if (v->count) {
		scope_add(&ask->scope, v->order[v->lv.list.cursor]);
	}
	ask->set_scope = true;
	ask->jump = APP_VIEW_PROFILE;
}

/* Sort by column col, as s would reach it; again: the other order. */
static void
sort_by(struct threads_view *v, const struct app *app, enum thread_column col)
{
	if (col == v->sort)
		v->ascending = !v->ascending;
	else {
		v->sort = col;
		v->ascending = col == TCOL_NAME;
	}
	sort_threads(v, app);
}

/* Ask for the scope with thread t added or taken out; false when that
 * would leave no thread. */
static bool
ask_toggle(const struct app *app, uint32_t t, struct view_ask *ask)
{
	size_t u, n = 0;

	scope_init_none(&ask->scope, app->tree);
	for (u = 0; u < app->tree->nthreads; u++)
		if (scope_has(&app->scope, u) != (u == t)) {
			scope_add(&ask->scope, u);
			n++;
		}
	if (!n) {
		scope_done(&ask->scope);
		snprintf(ask->message, sizeof(ask->message),
		         "a scope keeps one thread at least");
		return false;
	}
	ask->set_scope = true;
	return true;
}

static enum view_result
threads_handle(void *state, const struct app *app, enum request req,
               struct view_ask *ask)
{
	struct threads_view *v = state;

	if (list_move(&v->lv.list, req))
		return VIEW_DONE;
	switch (req) {
	case REQ_SORT_NEXT:
	case REQ_SORT_PREV:
		sort_by(v, app,
		        (enum thread_column)(
		                TCOL_NAME +
		                (v->sort - TCOL_NAME +
		                 (req == REQ_SORT_NEXT ? 1 : TCOL_COUNT - 2)) %
		                        (TCOL_COUNT - TCOL_NAME)));
		return VIEW_DONE;
	case REQ_SORT_REVERSE:
		v->ascending = !v->ascending;
		sort_threads(v, app);
		return VIEW_DONE;
	case REQ_TAG:
		if (v->count) {
			uint32_t t = v->order[v->lv.list.cursor];

			v->tagged[t] = !v->tagged[t];
			v->ntagged += v->tagged[t] ? 1 : -1;
			list_move(&v->lv.list, REQ_MOVE_DOWN);
		}
		return VIEW_DONE;
	case REQ_ENTER:
		ask_scope(v, app, ask);
		return VIEW_DONE;
	case REQ_SCOPE_ALL:
		scope_init_all(&ask->scope, app->tree);
		ask->set_scope = true;
		memset(v->tagged, 0, v->count * sizeof(*v->tagged));
		v->ntagged = 0;
		snprintf(ask->message, sizeof(ask->message),
		         "scope: all threads");
		return VIEW_DONE;
	default:
		return VIEW_UNHANDLED;
	}
}

static enum view_result
threads_mouse(void *state, struct app *app, const struct mouse_event *ev,
              struct view_ask *ask)
{
	struct threads_view *v = state;
	bool press = ev->kind == MOUSE_PRESS && ev->button == 0;
	enum list_click r;

	if (press && ev->y == v->lv.list.y - 1) {
		int col = list_table_header_at(&v->table, ev->x, ev->y);

		if (col < TCOL_NAME)
			return VIEW_UNHANDLED;
		sort_by(v, app, (enum thread_column)col);
		return VIEW_DONE;
	}
	r = list_mouse(&v->lv.list, ev);
	/* The box before a name takes the thread in or out of the scope. */
	if (press && ev->x < 3 && r != LIST_MISSED) {
		ask_toggle(app, v->order[v->lv.list.cursor], ask);
		return VIEW_DONE;
	}
	return view_click(r);
}

static void
threads_take_model(void *state, struct app *app)
{
	struct threads_view *v = state;

	v->lv.app = app;
	size_columns(v, app->tree);
}

static char *
threads_status(void *state, struct app *app)
{
	struct threads_view *v = state;
	const struct tt_thread *t;

	if (!v->count)
		return NULL;
	t = &app->tree->threads[v->order[v->lv.list.cursor]];
	return xasprintf("%s (tid %u): %llu events, max depth %u%s%s", t->name,
	                 t->tid, (unsigned long long)t->nevents, t->max_depth,
	                 v->ntagged ? "; tagged: " : "",
	                 v->ntagged ? "Enter scopes to them" : "");
}

/* Every thread shown (under a filter, those it keeps) in the view's
 * order: in scope, name, and the columns. */
static struct table *
threads_rows(void *state, struct app *app)
{
	struct threads_view *v = state;

	v->lv.app = app;
	return list_table_rows(&v->table, &v->lv.list);
}

const struct view_ops view_threads_ops = {
        .cursor = list_view_cursor,
        .name = "Threads",
        .hints = "Enter:scope  Space:tag  a:all  s/S:sort",
        .open = threads_open,
        .close = threads_close,
        .draw = threads_draw,
        .status = threads_status,
        .handle = threads_handle,
        .find = list_view_find,
        .mouse = threads_mouse,
        .filter = list_view_filter,
        .take_model = threads_take_model,
        .rows = threads_rows,
};
