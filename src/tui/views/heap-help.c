/*
 * heap-help: the heap dump viewer's views and keys; each key as the
 * request table (tui/request.h) names it, so that the two never
 * disagree, with what it does here.
 */
#include "config.h"

#include "tui/heap-app.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

/* What a request does in the heap dump viewer. */
static const struct {
	enum request req;
	const char *help;
} keys[] = {
        {REQ_MOVE_UP, "move up"},
        {REQ_MOVE_DOWN, "move down"},
        {REQ_PAGE_UP, "move up a page"},
        {REQ_PAGE_DOWN, "move down a page"},
        {REQ_MOVE_FIRST, "go to the first row"},
        {REQ_MOVE_LAST, "go to the last row"},
        {REQ_ENTER, "open: instances, fields, a reference, the path"},
        {REQ_EXPAND, "dominators: open the row (elsewhere as Enter)"},
        {REQ_COLLAPSE, "dominators: close the row, or go to its parent"},
        {REQ_EXPAND_HOT, "dominators: open while a child keeps 80%"},
        {REQ_EXPAND_ALL, "dominators: open all under the row (10000 rows)"},
        {REQ_BACK_OUT, "go back to where Enter came from"},
        {REQ_HISTORY_BACK, "back in the navigation history"},
        {REQ_HISTORY_FORWARD, "forward in the navigation history"},
        {REQ_VIEW_NEXT, "next view"},
        {REQ_VIEW_PREV, "previous view"},
        {REQ_VIEW_HELP, "this help"},
        {REQ_SORT_NEXT, "classes: sort by the next column"},
        {REQ_SORT_REVERSE, "classes: reverse the sort order"},
        {REQ_SAMPLE_TYPE, "show the next heap: app, image, zygote, all"},
        {REQ_CALL_LONGEST, "classes: the instance retaining the most"},
        {REQ_COLUMNS, "every column that fits beside short names"},
        {REQ_SEARCH, "search names with a regular expression"},
        {REQ_SEARCH_NEXT, "next match"},
        {REQ_SEARCH_PREV, "previous match"},
        {REQ_FILTER, "only the rows matching a pattern (empty: all)"},
        {REQ_WRITE_VIEW, "write the rows to a file (TSV if it ends in .tsv)"},
        {REQ_QUIT, "quit"},
};

static const char *const view_lines[] = {
        "1 Classes      the class histogram, as `report` prints it",
        "2 Instances    the selected class's objects, by retained size",
        "3 Fields       the selected object's fields, values, referents",
        "4 Path         the shortest strong path from a GC root to it",
        "5 Dominators   the dominator tree, as `tree` prints it",
        "6 Leaks        what `leaks` finds",
        "7 Duplicates   Strings and arrays held twice (report "
        "--duplicates)",
};

struct help_view {
	struct list list;
	char **lines;
	enum role *roles;
	size_t n, cap;
};

static void
add(struct help_view *v, enum role role, char *line)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 64;
		v->lines = xreallocarray(v->lines, v->cap, sizeof(char *));
		v->roles = xreallocarray(v->roles, v->cap, sizeof(enum role));
	}
	v->roles[v->n] = role;
	v->lines[v->n++] = line;
}

static bool
line_match(size_t row, const regex_t *re, void *arg)
{
	struct help_view *v = arg;

	return regexec(re, v->lines[row], 0, NULL, 0) == 0;
}

static void *
help_open(struct heap_app *app)
{
	struct help_view *v = xcalloc(1, sizeof(*v));
	size_t i, k;

	(void)app;
	add(v, ROLE_SECTION, xstrdup("Views (Tab cycles them)"));
	for (i = 0; i < sizeof(view_lines) / sizeof(view_lines[0]); i++)
		add(v, ROLE_NORMAL, xasprintf("  %s", view_lines[i]));
	add(v, ROLE_NORMAL, xstrdup(""));
	add(v, ROLE_SECTION, xstrdup("Keys"));
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		for (k = 0; k < REQ_COUNT - 1; k++)
			if (request_table[k].request == keys[i].req)
				add(v, ROLE_NORMAL,
				    xasprintf("  %-18s %s",
				              request_table[k].keys,
				              keys[i].help));
	add(v, ROLE_NORMAL, xstrdup(""));
	add(v, ROLE_SECTION, xstrdup("Mouse (off with --no-mouse)"));
	add(v, ROLE_NORMAL,
	    xstrdup("  click              select the row; again: open it"));
	add(v, ROLE_NORMAL,
	    xstrdup("  click a header     classes: sort by its column"));
	add(v, ROLE_NORMAL, xstrdup("  wheel              scroll 3 rows"));
	add(v, ROLE_NORMAL, xstrdup(""));
	add(v, ROLE_SECTION, xstrdup("Numbers"));
	add(v, ROLE_NORMAL,
	    xstrdup("  Bytes, as `report`, `tree` and `paths` print them. "
	            "Retained shows - until"));
	add(v, ROLE_NORMAL,
	    xstrdup("  the dominators are computed (the status line says "
	            "so)."));
	v->list.pager = true;
	list_rows(&v->list, line_match, v);
	list_set_count(&v->list, v->n);
	return v;
}

static void
help_close(void *state)
{
	struct help_view *v = state;
	size_t i;

	for (i = 0; i < v->n; i++)
		free(v->lines[i]);
	free(v->lines);
	free(v->roles);
	list_done(&v->list);
	free(v);
}

static void
help_draw(void *state, struct heap_app *app, struct canvas *c, int top,
          int height)
{
	struct help_view *v = state;
	size_t row;
	int y;

	(void)app;
	list_layout(&v->list, height > 0 ? (size_t)height : 0);
	v->list.y = top;
	for (y = 0, row = v->list.top; y < height && row < v->n;
	     y++, row = list_next(&v->list, row))
		canvas_text(c, 0, top + y, c->width, v->lines[row],
		            v->roles[row]);
}

static struct list *
help_list(void *state)
{
	return &((struct help_view *)state)->list;
}

const struct heap_view_ops heap_help_ops = {
        .name = "Help",
        .hints = "j/k:scroll  Esc:back",
        .open = help_open,
        .close = help_close,
        .draw = help_draw,
        .list = help_list,
};
