/*
 * heap-dominators: the dominator tree, as `tree` prints it: each
 * object under the one that keeps it alive, children by retained size;
 * Right (l) opens a row, Left (h) closes it or goes to its parent,
 * Enter opens the object's fields.
 */
#include "config.h"

#include "query/heap-instances.h"
#include "tui/heap-app.h"
#include "tui/list-table.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

enum { LABEL_SIZE = 512 };

enum { D_OBJECT, D_RETAINED, D_PERCENT, D_SHALLOW, D_NCOLS };
static const struct list_column columns[D_NCOLS] = {
        LIST_COLUMN("Object", COLUMN_NAME, 16, COLUMN_KEEP),
        LIST_COLUMN("Retained", COLUMN_NUMBER, 0, COLUMN_KEEP),
        LIST_COLUMN("%", COLUMN_NUMBER, 0, 2),
        LIST_COLUMN("Shallow", COLUMN_NUMBER, 0, 1),
};

struct tree_row {
	uint32_t node, depth;
	bool open;
};

struct dominators_view {
	struct heap_app *app;
	struct list list;
	struct list_table table;
	struct tree_row *rows;
	size_t n, cap;
	bool built;
	const char *glyphs[2]; /* collapsed, expanded, from the last draw */
};

static bool
has_children(const struct heap_dominators *dom, uint32_t node)
{
	return dom->first[node + 1] > dom->first[node];
}

static char *
cell(void *arg, size_t row, int col, bool full)
{
	const struct dominators_view *v = arg;
	const struct heap_app *app = v->app;
	uint32_t o = v->rows[row].node;
	char buf[LABEL_SIZE];

	switch (col) {
	case D_OBJECT:
		return xstrdup(
		        heap_object_label(app->dump, o, buf, sizeof(buf)));
	case D_RETAINED:
		return heap_app_retained(app, o);
	case D_PERCENT:
		return xasprintf(
		        "%.1f",
		        app->dom->reachable_bytes
		                ? 100.0 * (double)app->dom->retained[o] /
		                          (double)app->dom->reachable_bytes
		                : 0.0);
	default:
		return xasprintf(
		        "%llu", (unsigned long long)heap_shallow(app->dump, o));
	}
}

static char *
prefix(void *arg, size_t row)
{
	const struct dominators_view *v = arg;
	const struct tree_row *r = &v->rows[row];
	const char *mark = !has_children(v->app->dom, r->node) ? " "
	                   : r->open                           ? v->glyphs[1]
	                                                       : v->glyphs[0];

	return xasprintf("%*s%s ", (int)(2 * r->depth), "", mark);
}

/* Put the children of node at `at`, at depth. */
static void
insert_children(struct dominators_view *v, size_t at, uint32_t node,
                uint32_t depth)
{
	const struct heap_dominators *dom = v->app->dom;
	size_t k, n = dom->first[node + 1] - dom->first[node];

	UTIL_GROW(v->rows, v->cap, v->n + n);
	memmove(v->rows + at + n, v->rows + at, (v->n - at) * sizeof(*v->rows));
	for (k = 0; k < n; k++)
		v->rows[at + k] = (struct tree_row){
		        dom->children[dom->first[node] + k], depth, false};
	v->n += n;
}

static void
build(struct dominators_view *v)
{
	v->n = 0;
	insert_children(v, 0, (uint32_t)v->app->dump->nobjects, 0);
	v->built = true;
	list_set_count(&v->list, v->n);
	list_reset(&v->list);
}

static void *
dominators_open(struct heap_app *app)
{
	struct dominators_view *v = xcalloc(1, sizeof(*v));

	v->app = app;
	v->table = (struct list_table){.cols = columns,
	                               .ncols = D_NCOLS,
	                               .sort = D_RETAINED,
	                               .cell = cell,
	                               .prefix = prefix,
	                               .arg = v};
	list_rows(&v->list, list_table_row_matches, &v->table);
	return v;
}

static void
dominators_close(void *state)
{
	struct dominators_view *v = state;

	list_done(&v->list);
	free(v->rows);
	free(v);
}

static void
dominators_sync(void *state, struct heap_app *app)
{
	struct dominators_view *v = state;

	if (app->dom && !v->built)
		build(v);
}

static void
dominators_draw(void *state, struct heap_app *app, struct canvas *c, int top,
                int height)
{
	struct dominators_view *v = state;

	v->glyphs[0] = canvas_glyph(c, GLYPH_COLLAPSED);
	v->glyphs[1] = canvas_glyph(c, GLYPH_EXPANDED);
	if (!app->dom) {
		canvas_text(c, 2, top + 1, c->width - 2,
		            "Computing the dominators...", ROLE_NORMAL);
		return;
	}
	dominators_sync(v, app);
	list_table_draw(&v->table, &v->list, c, top, height, app->all_columns,
	                "No object is reachable from a GC root");
}

/* Open (true) or close row. */
static void
set_open(struct dominators_view *v, size_t row, bool open)
{
	struct tree_row *r = &v->rows[row];
	size_t end;

	if (open == r->open || !has_children(v->app->dom, r->node))
		return;
	r->open = open;
	if (open) {
		insert_children(v, row + 1, r->node, r->depth + 1);
	} else {
		for (end = row + 1; end < v->n && v->rows[end].depth > r->depth;
		     end++)
			;
		memmove(v->rows + row + 1, v->rows + end,
		        (v->n - end) * sizeof(*v->rows));
		v->n -= end - row - 1;
	}
	list_set_count(&v->list, v->n);
}

enum { EXPAND_ALL_MAX = 10000, HOT_PERCENT = 80 };

/* Open row and every row under it, until EXPAND_ALL_MAX rows were
 * added. */
static void
expand_all(struct dominators_view *v, size_t row)
{
	size_t start = v->n, r;

	set_open(v, row, true);
	for (r = row + 1; r < v->n && v->rows[r].depth > v->rows[row].depth;
	     r++) {
		if (v->n - start >= EXPAND_ALL_MAX)
			break;
		set_open(v, r, true);
	}
}

/* Open the row and, while its largest child keeps HOT_PERCENT of what
 * it retains, that child; the cursor on the last one opened. */
static void
expand_hot(struct dominators_view *v, size_t row)
{
	const struct heap_dominators *dom = v->app->dom;

	for (;;) {
		uint32_t o = v->rows[row].node;

		if (!has_children(dom, o))
			break;
		set_open(v, row, true);
		list_select(&v->list, row);
		/* Children are by retained size: the first is the largest. */
		if ((double)dom->retained[v->rows[row + 1].node] * 100.0 <
		    (double)dom->retained[o] * HOT_PERCENT)
			break;
		row++;
		list_select(&v->list, row);
	}
}

static bool
dominators_handle(void *state, struct heap_app *app, enum request req)
{
	struct dominators_view *v = state;
	size_t row = v->list.cursor, p;
	uint32_t o;

	if (!app->dom || !v->built || !list_visible(&v->list) || row >= v->n)
		return false;
	o = v->rows[row].node;
	switch (req) {
	case REQ_EXPAND:
		if (!v->rows[row].open && has_children(app->dom, o))
			set_open(v, row, true);
		else
			list_move(&v->list, REQ_MOVE_DOWN);
		return true;
	case REQ_COLLAPSE:
		if (v->rows[row].open) {
			set_open(v, row, false);
			return true;
		}
		for (p = row; p-- > 0;)
			if (v->rows[p].depth < v->rows[row].depth) {
				list_select(&v->list, p);
				break;
			}
		return true;
	case REQ_ENTER:
		heap_app_go(app, HEAP_VIEW_FIELDS, heap_row_of(app->dump, o),
		            o);
		return true;
	case REQ_EXPAND_ALL:
		expand_all(v, row);
		return true;
	case REQ_EXPAND_HOT:
		expand_hot(v, row);
		return true;
	default:
		return false;
	}
}

static struct table *
dominators_rows(void *state)
{
	struct dominators_view *v = state;

	return list_table_rows(&v->table, &v->list);
}

static struct list *
dominators_list(void *state)
{
	return &((struct dominators_view *)state)->list;
}

static char *
dominators_title(void *state, const struct heap_app *app)
{
	(void)state;
	if (!app->dom)
		return NULL;
	return xasprintf("%zu reachable objects, %llu bytes",
	                 app->dom->reachable,
	                 (unsigned long long)app->dom->reachable_bytes);
}

static char *
dominators_status(void *state, const struct heap_app *app)
{
	struct dominators_view *v = state;
	char buf[LABEL_SIZE];

	if (!app->dom || !v->built || !list_visible(&v->list) ||
	    v->list.cursor >= v->n)
		return NULL;
	return xstrdup(heap_object_label(
	        app->dump, v->rows[v->list.cursor].node, buf, sizeof(buf)));
}

const struct heap_view_ops heap_dominators_ops = {
        .name = "Dominators",
        .hints = "l/h:open/close  e:hot path  Enter:fields",
        .open = dominators_open,
        .close = dominators_close,
        .draw = dominators_draw,
        .sync = dominators_sync,
        .handle = dominators_handle,
        .list = dominators_list,
        .rows = dominators_rows,
        .title = dominators_title,
        .status = dominators_status,
};
