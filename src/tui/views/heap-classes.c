/*
 * heap-classes: the class histogram of the heaps shown, as `report`
 * prints it: instances, shallow and retained bytes per class name,
 * sorted by any column (s, S); the retained column fills in when the
 * dominators arrive.  Enter lists the class's instances; L opens the
 * one retaining most.
 */
#include "config.h"

#include "query/heap-instances.h"
#include "tui/heap-app.h"
#include "tui/list-table.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

enum { COL_CLASS, COL_INSTANCES, COL_SHALLOW, COL_RETAINED, NCOLS };

/* The sort columns in the order s cycles through them. */
static const int sort_cycle[] = {COL_RETAINED, COL_SHALLOW, COL_INSTANCES,
                                 COL_CLASS};

static const struct list_column columns[NCOLS] = {
        LIST_COLUMN("Class", COLUMN_NAME, 16, COLUMN_KEEP),
        LIST_COLUMN("Instances", COLUMN_NUMBER, 0, 1),
        LIST_COLUMN("Shallow", COLUMN_NUMBER, 0, 2),
        LIST_COLUMN("Retained", COLUMN_NUMBER, 0, 3),
};

struct classes_view {
	struct heap_app *app;
	struct list list;
	struct list_table table;
	size_t *order;      /* list rows -> histogram rows */
	const char **names; /* each list row's class, the dump's string */
	size_t n;
	unsigned serial;
	int sort; /* an index of sort_cycle */
	bool up;
};

static const struct heap_row *
row_at(const struct classes_view *v, size_t row)
{
	return &v->app->hist.rows[v->order[row]];
}

static char *
cell(void *arg, size_t row, int col, bool full)
{
	const struct classes_view *v = arg;
	const struct heap_row *r = row_at(v, row);

	switch (col) {
	case COL_CLASS:
		return xstrdup(r->name);
	case COL_INSTANCES:
		return xasprintf("%llu", (unsigned long long)r->instances);
	case COL_SHALLOW:
		return xasprintf("%llu", (unsigned long long)r->shallow);
	default:
		if (!v->app->dom)
			return xstrdup("-");
		return xasprintf("%llu", (unsigned long long)r->retained);
	}
}

/* report's order: the column's largest first, then by name. */
static int
compare(const void *a, const void *b, void *arg)
{
	const struct classes_view *v = arg;
	const struct heap_row *x = &v->app->hist.rows[*(const size_t *)a];
	const struct heap_row *y = &v->app->hist.rows[*(const size_t *)b];
	int col = sort_cycle[v->sort], c;
	uint64_t u = 0, w = 0;

	switch (col) {
	case COL_RETAINED:
		/* Shallow stands in while the dominators are computed. */
		u = v->app->dom ? x->retained : x->shallow;
		w = v->app->dom ? y->retained : y->shallow;
		break;
	case COL_SHALLOW:
		u = x->shallow, w = y->shallow;
		break;
	case COL_INSTANCES:
		u = x->instances, w = y->instances;
		break;
	default:
		break;
	}
	if (u != w)
		c = u < w ? 1 : -1;
	else
		c = strcmp(x->name, y->name);
	return v->up ? -c : c;
}

/* The rows again (heaps or numbers changed, or the sort): the cursor
 * stays on its class. */
static void
build(struct classes_view *v)
{
	/* On the first row, the cursor stays on the first row. */
	const char *keep = v->n && v->list.cursor < v->n && v->list.cursor
	                           ? v->names[v->list.cursor]
	                           : NULL;
	size_t i;

	free(v->order);
	v->n = v->app->hist.nrows;
	v->order = xcalloc(v->n + 1, sizeof(size_t));
	for (i = 0; i < v->n; i++)
		v->order[i] = i;
	qsort_r(v->order, v->n, sizeof(size_t), compare, v);
	free(v->names);
	v->names = xcalloc(v->n + 1, sizeof(char *));
	for (i = 0; i < v->n; i++)
		v->names[i] = row_at(v, i)->name;
	/* Shallow stands in for retained until the dominators come. */
	v->table.sort = sort_cycle[v->sort] == COL_RETAINED && !v->app->dom
	                        ? COL_SHALLOW
	                        : sort_cycle[v->sort];
	v->table.sort_up = v->up;
	v->serial = v->app->serial;
	list_set_count(&v->list, v->n);
	list_reset(&v->list);
	for (i = 0; keep && i < v->n; i++)
		if (v->names[i] == keep)
			list_select(&v->list, i);
}

static void *
classes_open(struct heap_app *app)
{
	struct classes_view *v = xcalloc(1, sizeof(*v));

	v->app = app;
	v->table = (struct list_table){
	        .cols = columns, .ncols = NCOLS, .cell = cell, .arg = v};
	list_rows(&v->list, list_table_row_matches, &v->table);
	build(v);
	return v;
}

static void
classes_close(void *state)
{
	struct classes_view *v = state;

	list_done(&v->list);
	free(v->order);
	free(v->names);
	free(v);
}

static void
classes_sync(void *state, struct heap_app *app)
{
	struct classes_view *v = state;

	/* The histogram is made again on each change: names stay the
	 * dump's, so the kept cursor's name is still good. */
	if (v->serial != app->serial)
		build(v);
}

static void
classes_draw(void *state, struct heap_app *app, struct canvas *c, int top,
             int height)
{
	struct classes_view *v = state;

	classes_sync(v, app);
	list_table_draw(&v->table, &v->list, c, top, height, app->all_columns,
	                "No object in this heap: y shows the next one");
}

/* The histogram row (of the dump) under the cursor, or HEAP_NONE. */
static uint32_t
selected(const struct classes_view *v)
{
	if (!list_visible(&v->list) || v->list.cursor >= v->n)
		return HEAP_NONE;
	return heap_row_named(v->app->dump, row_at(v, v->list.cursor)->name);
}

static bool
classes_handle(void *state, struct heap_app *app, enum request req)
{
	struct classes_view *v = state;
	uint32_t row = selected(v);

	switch (req) {
	case REQ_SORT_NEXT:
	case REQ_SORT_PREV:
		v->sort = (v->sort + (req == REQ_SORT_NEXT ? 1 : 3)) % 4;
		v->up = false;
		build(v);
		return true;
	case REQ_SORT_REVERSE:
		v->up = !v->up;
		build(v);
		return true;
	case REQ_ENTER:
	case REQ_EXPAND:
		if (row != HEAP_NONE)
			heap_app_go(app, HEAP_VIEW_INSTANCES, row, HEAP_NONE);
		return true;
	case REQ_CALL_LONGEST: {
		uint32_t *objs;
		size_t n;

		if (row == HEAP_NONE)
			return true;
		heap_instances(app->dump, row, app->shown, app->dom, &objs, &n);
		if (n)
			heap_app_go(app, HEAP_VIEW_FIELDS, row, objs[0]);
		free(objs);
		return true;
	}
	default:
		return false;
	}
}

static struct table *
classes_rows(void *state)
{
	struct classes_view *v = state;

	return list_table_rows(&v->table, &v->list);
}

/* A click on a header sorts by its column (again: the other way). */
static bool
classes_mouse(void *state, struct heap_app *app, const struct mouse_event *ev)
{
	struct classes_view *v = state;
	int col = list_table_header_at(&v->table, ev->x, ev->y), k;

	(void)app;
	if (ev->kind != MOUSE_PRESS || ev->button != 0 || col < 0)
		return false;
	for (k = 0; k < 4; k++)
		if (sort_cycle[k] == col) {
			v->up = k == v->sort && !v->up;
			v->sort = k;
			build(v);
		}
	return true;
}

static struct list *
classes_list(void *state)
{
	return &((struct classes_view *)state)->list;
}

static char *
classes_title(void *state, const struct heap_app *app)
{
	(void)state;
	return xasprintf("%zu classes, %llu objects, %llu bytes",
	                 app->hist.nrows,
	                 (unsigned long long)app->hist.instances,
	                 (unsigned long long)app->hist.shallow);
}

static char *
classes_status(void *state, const struct heap_app *app)
{
	struct classes_view *v = state;

	(void)app;
	if (!list_visible(&v->list) || v->list.cursor >= v->n)
		return NULL;
	return xstrdup(row_at(v, v->list.cursor)->name);
}

const struct heap_view_ops heap_classes_ops = {
        .name = "Classes",
        .hints = "Enter:instances  s/S:sort  y:heap  L:largest",
        .open = classes_open,
        .close = classes_close,
        .draw = classes_draw,
        .sync = classes_sync,
        .handle = classes_handle,
        .list = classes_list,
        .mouse = classes_mouse,
        .rows = classes_rows,
        .title = classes_title,
        .status = classes_status,
};
