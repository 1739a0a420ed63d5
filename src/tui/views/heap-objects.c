/*
 * heap-objects: the views that list objects: a class's instances by
 * retained size (Enter on a class), the leak suspects `leaks` finds,
 * and the values held more than once (`report --duplicates`).  Enter
 * opens the object's fields.
 */
#include "config.h"

#include "query/heap-histogram.h"
#include "query/heap-instances.h"
#include "tui/heap-app.h"
#include "tui/list-table.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

enum { LABEL_SIZE = 512 };

/* The columns of each list. */
enum { I_OBJECT, I_RETAINED, I_SHALLOW, I_NCOLS };
static const struct list_column instance_columns[I_NCOLS] = {
        LIST_COLUMN("Object", COLUMN_NAME, 16, COLUMN_KEEP),
        LIST_COLUMN("Retained", COLUMN_NUMBER, 0, COLUMN_KEEP),
        LIST_COLUMN("Shallow", COLUMN_NUMBER, 0, 1),
};
enum { L_OBJECT, L_SUSPECT, L_RETAINED, L_NCOLS };
static const struct list_column leak_columns[L_NCOLS] = {
        LIST_COLUMN("Object", COLUMN_NAME, 16, COLUMN_KEEP),
        LIST_COLUMN("Suspect", COLUMN_TEXT, 8, COLUMN_KEEP),
        LIST_COLUMN("Retained", COLUMN_NUMBER, 0, 1),
};
enum { D_EXAMPLE, D_COUNT, D_WASTED, D_NCOLS };
static const struct list_column duplicate_columns[D_NCOLS] = {
        LIST_COLUMN("Example", COLUMN_NAME, 16, COLUMN_KEEP),
        LIST_COLUMN("Count", COLUMN_NUMBER, 0, 1),
        LIST_COLUMN("Wasted", COLUMN_NUMBER, 0, COLUMN_KEEP),
};

struct objects_view {
	struct heap_app *app;
	enum heap_view kind;
	struct list list;
	struct list_table table;
	uint32_t *objs;
	size_t n;
	struct heap_duplicate *dup; /* duplicates */
	/* What the rows were built from. */
	unsigned serial;
	uint32_t row;
	const char *heap;
	bool built;
};

static char *
number(uint64_t v)
{
	return xasprintf("%llu", (unsigned long long)v);
}

static char *
label(const struct heap_app *app, uint32_t o)
{
	char buf[LABEL_SIZE];

	return xstrdup(heap_object_label(app->dump, o, buf, sizeof(buf)));
}

/* A leak's reason in a word or two (the status line says it whole). */
static const char *
suspect_word(const char *why)
{
	if (strncmp(why, "watched", 7) == 0)
		return "watched";
	if (strstr(why, "Activity"))
		return "destroyed";
	return "detached";
}

static char *
cell(void *arg, size_t row, int col, bool full)
{
	const struct objects_view *v = arg;
	const struct heap_app *app = v->app;

	switch (v->kind) {
	case HEAP_VIEW_INSTANCES:
		if (col == I_OBJECT)
			return label(app, v->objs[row]);
		if (col == I_RETAINED)
			return heap_app_retained(app, v->objs[row]);
		return number(heap_shallow(app->dump, v->objs[row]));
	case HEAP_VIEW_LEAKS:
		if (col == L_OBJECT)
			return label(app, v->objs[row]);
		if (col == L_SUSPECT)
			return xstrdup(suspect_word(app->leaks[row].why));
		return heap_app_retained(app, v->objs[row]);
	default:
		if (col == D_EXAMPLE)
			return label(app, v->dup[row].example);
		if (col == D_COUNT)
			return number(v->dup[row].count);
		return number(v->dup[row].wasted);
	}
}

static void
build(struct objects_view *v)
{
	struct heap_app *app = v->app;
	size_t i;

	if (v->kind == HEAP_VIEW_DUPLICATES) {
		free(v->dup);
		heap_duplicates(app->dump, app->shown, &v->dup, &v->n);
		free(v->objs);
		v->objs = xcalloc(v->n + 1, sizeof(uint32_t));
		for (i = 0; i < v->n; i++)
			v->objs[i] = v->dup[i].example;
	} else if (v->kind == HEAP_VIEW_LEAKS) {
		free(v->objs);
		v->n = app->leaks ? app->nleaks : 0;
		v->objs = xcalloc(v->n + 1, sizeof(uint32_t));
		for (i = 0; i < v->n; i++)
			v->objs[i] = app->leaks[i].object;
	} else {
		uint32_t keep =
		        v->n && v->row == app->row && v->list.cursor < v->n
		                ? v->objs[v->list.cursor]
		                : app->object;

		free(v->objs);
		v->objs = NULL;
		v->n = 0;
		if (app->row != HEAP_NONE)
			heap_instances(app->dump, app->row, app->shown,
			               app->dom, &v->objs, &v->n);
		list_set_count(&v->list, v->n);
		list_reset(&v->list);
		for (i = 0; i < v->n; i++)
			if (v->objs[i] == keep)
				list_select(&v->list, i);
	}
	v->serial = app->serial;
	v->row = app->row;
	v->heap = app->heap;
	v->built = true;
	if (v->kind != HEAP_VIEW_INSTANCES)
		list_set_count(&v->list, v->n);
}

static void *
open_kind(struct heap_app *app, enum heap_view kind)
{
	struct objects_view *v = xcalloc(1, sizeof(*v));

	v->app = app;
	v->kind = kind;
	v->table = (struct list_table){
	        .cols = kind == HEAP_VIEW_INSTANCES ? instance_columns
	                : kind == HEAP_VIEW_LEAKS   ? leak_columns
	                                            : duplicate_columns,
	        .ncols = 3,
	        .sort = kind == HEAP_VIEW_DUPLICATES ? D_WASTED
	                : kind == HEAP_VIEW_LEAKS    ? -1
	                                             : I_RETAINED,
	        .cell = cell,
	        .arg = v};
	list_rows(&v->list, list_table_row_matches, &v->table);
	return v;
}

static void *
instances_open(struct heap_app *app)
{
	return open_kind(app, HEAP_VIEW_INSTANCES);
}

static void *
leaks_open(struct heap_app *app)
{
	return open_kind(app, HEAP_VIEW_LEAKS);
}

static void *
duplicates_open(struct heap_app *app)
{
	return open_kind(app, HEAP_VIEW_DUPLICATES);
}

static void
objects_close(void *state)
{
	struct objects_view *v = state;

	list_done(&v->list);
	free(v->objs);
	free(v->dup);
	free(v);
}

/* Whether the rows are out of date. */
static bool
stale(const struct objects_view *v, const struct heap_app *app)
{
	if (!v->built)
		return true;
	if (v->kind == HEAP_VIEW_DUPLICATES)
		return v->heap != app->heap;
	if (v->kind == HEAP_VIEW_LEAKS)
		return v->serial != app->serial;
	return v->serial != app->serial || v->row != app->row;
}

static void
objects_sync(void *state, struct heap_app *app)
{
	struct objects_view *v = state;

	if (stale(v, app))
		build(v);
}

static void
objects_draw(void *state, struct heap_app *app, struct canvas *c, int top,
             int height)
{
	struct objects_view *v = state;
	const char *empty;

	objects_sync(v, app);
	if (v->kind == HEAP_VIEW_INSTANCES)
		empty = app->row == HEAP_NONE
		                ? "No class selected: Enter on a class in "
		                  "Classes (1) lists its instances"
		                : "No instance of the class in this heap";
	else if (v->kind == HEAP_VIEW_LEAKS)
		empty = app->leaks ? "No leak suspects: no watched object "
		                     "still strongly reachable, no destroyed "
		                     "Activity, no detached Fragment"
		                   : "Looking for leaks once the dominators "
		                     "and paths are computed...";
	else
		empty = "No String or primitive array is held twice in "
		        "this heap";
	list_table_draw(&v->table, &v->list, c, top, height, app->all_columns,
	                empty);
}

static bool
objects_handle(void *state, struct heap_app *app, enum request req)
{
	struct objects_view *v = state;
	uint32_t o;

	if (req != REQ_ENTER && req != REQ_EXPAND)
		return false;
	if (!list_visible(&v->list) || v->list.cursor >= v->n)
		return true;
	o = v->objs[v->list.cursor];
	heap_app_go(app, HEAP_VIEW_FIELDS, heap_row_of(app->dump, o), o);
	return true;
}

static struct table *
objects_rows(void *state)
{
	struct objects_view *v = state;

	return list_table_rows(&v->table, &v->list);
}

static struct list *
objects_list(void *state)
{
	return &((struct objects_view *)state)->list;
}

static char *
objects_title(void *state, const struct heap_app *app)
{
	struct objects_view *v = state;

	if (v->kind == HEAP_VIEW_INSTANCES && app->row != HEAP_NONE)
		return xasprintf("%s: %zu", app->dump->rows[app->row], v->n);
	if (v->kind == HEAP_VIEW_LEAKS && app->leaks)
		return xasprintf("%zu suspects", app->nleaks);
	if (v->kind == HEAP_VIEW_DUPLICATES && v->built)
		return xasprintf("%zu values", v->n);
	return NULL;
}

static char *
objects_status(void *state, const struct heap_app *app)
{
	struct objects_view *v = state;
	char buf[LABEL_SIZE];

	if (!list_visible(&v->list) || v->list.cursor >= v->n)
		return NULL;
	if (v->kind == HEAP_VIEW_LEAKS)
		return xstrdup(app->leaks[v->list.cursor].why);
	return xstrdup(heap_object_label(app->dump, v->objs[v->list.cursor],
	                                 buf, sizeof(buf)));
}

const struct heap_view_ops heap_instances_ops = {
        .name = "Instances",
        .hints = "Enter:fields  Esc:back",
        .open = instances_open,
        .close = objects_close,
        .draw = objects_draw,
        .sync = objects_sync,
        .handle = objects_handle,
        .list = objects_list,
        .rows = objects_rows,
        .title = objects_title,
        .status = objects_status,
};

const struct heap_view_ops heap_leaks_ops = {
        .name = "Leaks",
        .hints = "Enter:fields  Esc:back",
        .open = leaks_open,
        .close = objects_close,
        .draw = objects_draw,
        .sync = objects_sync,
        .handle = objects_handle,
        .list = objects_list,
        .rows = objects_rows,
        .title = objects_title,
        .status = objects_status,
};

const struct heap_view_ops heap_duplicates_ops = {
        .name = "Duplicates",
        .hints = "Enter:fields  y:heap",
        .open = duplicates_open,
        .close = objects_close,
        .draw = objects_draw,
        .sync = objects_sync,
        .handle = objects_handle,
        .list = objects_list,
        .rows = objects_rows,
        .title = objects_title,
        .status = objects_status,
};
