/*
 * heap-fields: one object: its fields, values and the objects they
 * name (Fields), and the shortest strong path from a GC root to it
 * (Path, as `paths` prints it), which Fields' first row opens.  Enter
 * on a reference, or on a hop of the path, opens that object.
 */
#include "config.h"

#include "query/heap-fields.h"
#include "query/heap-instances.h"
#include "text/width.h"
#include "tui/heap-app.h"
#include "tui/list-table.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

enum { LABEL_SIZE = 512, TEXT_SIZE = 1024 };

enum { F_FIELD, F_TYPE, F_VALUE, F_RETAINED, F_NCOLS };
static const struct list_column field_columns[F_NCOLS] = {
        LIST_COLUMN("Field", COLUMN_TEXT, 8, COLUMN_KEEP),
        LIST_COLUMN("Type", COLUMN_TEXT, 4, COLUMN_KEEP),
        LIST_COLUMN("Value", COLUMN_NAME, 16, COLUMN_KEEP),
        LIST_COLUMN("Retained", COLUMN_NUMBER, 0, 1),
};
enum { P_REFERENCE, P_OBJECT, P_RETAINED, P_NCOLS };
static const struct list_column path_columns[P_NCOLS] = {
        LIST_COLUMN("Reference", COLUMN_TEXT, 12, COLUMN_KEEP),
        LIST_COLUMN("Object", COLUMN_NAME, 16, COLUMN_KEEP),
        LIST_COLUMN("Retained", COLUMN_NUMBER, 0, 1),
};

struct object_view {
	struct heap_app *app;
	bool is_path;
	struct list list;
	struct list_table table;
	/* The columns, their text's fewest columns those of the widest
	 * cell (up to a limit), so that field names show whole. */
	struct list_column cols[F_NCOLS];
	uint32_t object; /* whose; HEAP_NONE before one is chosen */
	unsigned serial;
	bool built;
	struct heap_fields fields; /* Fields: row 0 opens the path */
	char *text;     /* a String's or char array's text, or NULL */
	size_t lead;    /* the rows before the fields: the path, the text */
	uint32_t *path; /* Path: root first */
	size_t npath;
	bool no_path; /* computed, and no strong path reaches it */
};

static char *
label(const struct heap_app *app, uint32_t o)
{
	char buf[LABEL_SIZE];

	return xstrdup(heap_object_label(app->dump, o, buf, sizeof(buf)));
}

static char *
path_summary(const struct object_view *v)
{
	const struct heap_app *app = v->app;
	uint32_t *path;
	size_t n;
	unsigned type;

	if (!app->paths)
		return xstrdup("(computing...)");
	if (!heap_path_to(app->paths, v->object, &path, &n))
		return xstrdup("none: no strong path reaches it");
	type = app->paths->root_type[path[0]];
	free(path);
	return xasprintf("%zu hop%s from a %s root", n - 1, n == 2 ? "" : "s",
	                 heap_root_name(type));
}

static char *
field_cell(const struct object_view *v, size_t row, int col)
{
	const struct heap_app *app = v->app;
	const struct heap_field_row *f;

	if (row == 0) {
		if (col == F_FIELD)
			return xstrdup("path to root");
		if (col == F_VALUE)
			return path_summary(v);
		return xstrdup("");
	}
	if (row < v->lead) {
		if (col == F_FIELD)
			return xstrdup("text");
		if (col == F_VALUE)
			return xasprintf("\"%s\"", v->text);
		return xstrdup("");
	}
	f = &v->fields.rows[row - v->lead];
	switch (col) {
	case F_FIELD:
		return xstrdup(f->name);
	case F_TYPE:
		return xstrdup(f->type);
	case F_VALUE:
		return f->object != HEAP_NONE ? label(app, f->object)
		                              : xstrdup(f->value);
	default:
		return f->object != HEAP_NONE
		               ? heap_app_retained(app, f->object)
		               : xstrdup("");
	}
}

static char *
path_cell(const struct object_view *v, size_t row, int col)
{
	const struct heap_app *app = v->app;
	char buf[LABEL_SIZE];

	switch (col) {
	case P_REFERENCE:
		if (row == 0)
			return xasprintf(
			        "root %s",
			        heap_root_name(
			                app->paths->root_type[v->path[0]]));
		return xstrdup(heap_slot_name(app->dump, v->path[row - 1],
		                              app->paths->slot[v->path[row]],
		                              buf, sizeof(buf)));
	case P_OBJECT:
		return label(app, v->path[row]);
	default:
		return heap_app_retained(app, v->path[row]);
	}
}

static char *
cell(void *arg, size_t row, int col, bool full)
{
	const struct object_view *v = arg;

	return v->is_path ? path_cell(v, row, col) : field_cell(v, row, col);
}

static enum role
row_role(void *arg, size_t row, int col)
{
	const struct object_view *v = arg;

	return !v->is_path && row < v->lead ? ROLE_SECTION : ROLE_NORMAL;
}

enum { FIELD_MAX = 24, TYPE_MAX = 7, REFERENCE_MAX = 32 };

/* The text columns as wide as their widest cell, up to their limits. */
static void
widen(struct object_view *v)
{
	int col = v->is_path ? P_REFERENCE : F_FIELD;
	int limit = v->is_path ? REFERENCE_MAX : FIELD_MAX;
	size_t n = v->is_path ? v->npath : v->fields.n + v->lead, row;

	for (row = 0; row < n; row++) {
		char *s = cell(v, row, col, false);
		int w = (int)text_width(s);

		if (w > v->cols[col].min)
			v->cols[col].min = w < limit ? w : limit;
		free(s);
		if (!v->is_path) {
			s = cell(v, row, F_TYPE, false);
			w = (int)text_width(s);
			if (w > v->cols[F_TYPE].min)
				v->cols[F_TYPE].min =
				        w < TYPE_MAX ? w : TYPE_MAX;
			free(s);
		}
	}
}

static void
build(struct object_view *v)
{
	struct heap_app *app = v->app;
	size_t keep = v->object == app->object ? v->list.cursor : 0;

	heap_fields_done(&v->fields);
	free(v->path);
	v->path = NULL;
	v->npath = 0;
	free(v->text);
	v->text = NULL;
	v->lead = 1;
	memcpy(v->cols, v->is_path ? path_columns : field_columns,
	       (v->is_path ? P_NCOLS : F_NCOLS) * sizeof(*v->cols));
	v->no_path = false;
	v->object = app->object;
	if (v->object != HEAP_NONE) {
		char text[TEXT_SIZE];

		if (!v->is_path) {
			heap_fields_of(&v->fields, app->dump, v->object);
			if (heap_text_of(app->dump, v->object, text,
			                 sizeof(text))) {
				v->text = xstrdup(text);
				v->lead = 2;
			}
		} else if (app->paths && !heap_path_to(app->paths, v->object,
		                                       &v->path, &v->npath))
			v->no_path = true;
	}
	v->serial = app->serial;
	v->built = true;
	widen(v);
	list_set_count(&v->list, v->object == HEAP_NONE ? 0
	                         : v->is_path           ? v->npath
	                                      : v->fields.n + v->lead);
	list_reset(&v->list);
	list_select(&v->list, keep);
}

static void *
open_kind(struct heap_app *app, bool is_path)
{
	struct object_view *v = xcalloc(1, sizeof(*v));

	v->app = app;
	v->is_path = is_path;
	v->object = HEAP_NONE;
	v->table = (struct list_table){.cols = v->cols,
	                               .ncols = is_path ? P_NCOLS : F_NCOLS,
	                               .sort = -1,
	                               .cell = cell,
	                               .role = row_role,
	                               .arg = v};
	list_rows(&v->list, list_table_row_matches, &v->table);
	return v;
}

static void *
fields_open(struct heap_app *app)
{
	return open_kind(app, false);
}

static void *
path_open(struct heap_app *app)
{
	return open_kind(app, true);
}

static void
object_close(void *state)
{
	struct object_view *v = state;

	list_done(&v->list);
	heap_fields_done(&v->fields);
	free(v->path);
	free(v->text);
	free(v);
}

static void
object_sync(void *state, struct heap_app *app)
{
	struct object_view *v = state;

	if (!v->built || v->object != app->object || v->serial != app->serial)
		build(v);
}

static void
object_draw(void *state, struct heap_app *app, struct canvas *c, int top,
            int height)
{
	struct object_view *v = state;
	const char *empty = "No object selected: Enter on an instance, a "
	                    "dominator or a leak opens one";

	object_sync(v, app);
	if (v->object != HEAP_NONE && v->is_path)
		empty = !app->paths  ? "Computing the shortest paths from the "
		                       "GC roots..."
		        : v->no_path ? "No strong path from a GC root reaches "
		                       "this object"
		                     : empty;
	else if (v->object != HEAP_NONE)
		empty = "The object holds nothing";
	list_table_draw(&v->table, &v->list, c, top, height, app->all_columns,
	                empty);
}

static bool
object_handle(void *state, struct heap_app *app, enum request req)
{
	struct object_view *v = state;
	size_t row = v->list.cursor;
	uint32_t o = HEAP_NONE;

	if (req != REQ_ENTER && req != REQ_EXPAND)
		return false;
	if (v->object == HEAP_NONE || !list_visible(&v->list))
		return true;
	if (v->is_path) {
		if (row < v->npath)
			o = v->path[row];
	} else if (row == 0) {
		heap_app_go(app, HEAP_VIEW_PATH, HEAP_NONE, v->object);
		return true;
	} else if (row >= v->lead && row - v->lead < v->fields.n) {
		o = v->fields.rows[row - v->lead].object;
	}
	if (o != HEAP_NONE)
		heap_app_go(app, HEAP_VIEW_FIELDS, heap_row_of(app->dump, o),
		            o);
	else
		heap_app_message(app, false, "not a reference to an object");
	return true;
}

static struct table *
object_rows(void *state)
{
	struct object_view *v = state;

	return list_table_rows(&v->table, &v->list);
}

static struct list *
object_list(void *state)
{
	return &((struct object_view *)state)->list;
}

static char *
object_title(void *state, const struct heap_app *app)
{
	struct object_view *v = state;
	char buf[LABEL_SIZE];
	char *retained;
	char *t;

	if (app->object == HEAP_NONE)
		return NULL;
	retained = heap_app_retained(app, app->object);
	t = xasprintf(
	        "%s  shallow %llu  retained %s",
	        heap_object_label(app->dump, app->object, buf, sizeof(buf)),
	        (unsigned long long)heap_shallow(app->dump, app->object),
	        retained);
	free(retained);
	(void)v;
	return t;
}

static char *
object_status(void *state, const struct heap_app *app)
{
	struct object_view *v = state;
	size_t row = v->list.cursor;

	if (!list_visible(&v->list) || v->object == HEAP_NONE)
		return NULL;
	if (!v->is_path && row == 0)
		return xstrdup("Enter: the shortest strong path from a GC "
		               "root");
	if (!v->is_path && row < v->lead)
		return xstrdup(v->text);
	if (!v->is_path && v->fields.elements > v->fields.n)
		return xasprintf("%zu elements, the first %zu listed",
		                 v->fields.elements, v->fields.n);
	if (v->is_path && row < v->npath)
		return path_cell(v, row, P_REFERENCE);
	(void)app;
	return NULL;
}

const struct heap_view_ops heap_fields_ops = {
        .name = "Fields",
        .hints = "Enter:open  Esc:back",
        .open = fields_open,
        .close = object_close,
        .draw = object_draw,
        .sync = object_sync,
        .handle = object_handle,
        .list = object_list,
        .rows = object_rows,
        .title = object_title,
        .status = object_status,
};

const struct heap_view_ops heap_path_ops = {
        .name = "Path to root",
        .hints = "Enter:open  Esc:back",
        .open = path_open,
        .close = object_close,
        .draw = object_draw,
        .sync = object_sync,
        .handle = object_handle,
        .list = object_list,
        .rows = object_rows,
        .title = object_title,
        .status = object_status,
};
