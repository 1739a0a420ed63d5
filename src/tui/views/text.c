/*
 * text: scrolling keeps the last page full; a search match becomes
 * the top line and is highlighted.
 */
#include "config.h"

#include "tui/views/text.h"

#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* True when line row matches the filter, or is the heading of a line
 * that does (the lines after it up to the next heading). */
static bool
line_kept(size_t row, void *arg)
{
	const struct text_view *v = arg;
	size_t i;

	if (regexec(v->filter, v->lines[row].text, 0, NULL, 0) == 0)
		return true;
	if (v->lines[row].role != ROLE_SECTION)
		return false;
	for (i = row + 1; i < v->count && v->lines[i].role != ROLE_SECTION;
	     i++)
		if (regexec(v->filter, v->lines[i].text, 0, NULL, 0) == 0)
			return true;
	return false;
}

void
text_view_add(struct text_view *v, enum role role, const char *text)
{
	UTIL_GROW(v->lines, v->cap, v->count + 1);
	v->lines[v->count].text = xstrdup(text);
	v->lines[v->count].role = role;
	v->count++;
	v->list.pager = true;
	list_set_count(&v->list, v->count);
}

void
text_view_clear(struct text_view *v)
{
	size_t i;

	for (i = 0; i < v->count; i++)
		free(v->lines[i].text);
	v->count = 0;
	list_done(&v->list);
	memset(&v->list, 0, sizeof(v->list));
	v->list.pager = true;
	if (v->filter)
		list_filter(&v->list, line_kept, v);
}

void
text_view_draw(struct text_view *v, struct canvas *c, int top, int height)
{
	size_t i;
	int y;

	list_layout(&v->list, height > 0 ? (size_t)height : 0);
	v->list.y = top;
	for (y = 0, i = v->list.top; y < height && i < v->count;
	     y++, i = list_next(&v->list, i)) {
		enum role role = v->lines[i].role;

		canvas_text(c, 1, top + y, c->width - 1, v->lines[i].text,
		            role);
		if (i == v->list.cursor && v->list.cursor)
			canvas_set_role(c, 0, top + y, c->width, ROLE_MATCH);
	}
}

enum view_result
text_view_handle(void *state, const struct app *app, enum request req,
                 struct view_ask *ask)
{
	struct text_view *v = state;

	return list_move(&v->list, req) ? VIEW_DONE : VIEW_UNHANDLED;
}

enum view_result
text_view_mouse(void *state, struct app *app, const struct mouse_event *ev,
                struct view_ask *ask)
{
	struct text_view *v = state;

	(void)app, (void)ask;
	return list_mouse(&v->list, ev) == LIST_MOVED ? VIEW_DONE
	                                              : VIEW_UNHANDLED;
}

struct table *
text_view_table(const struct text_view *v, const char *title)
{
	enum table_kind kind = TABLE_STRING;
	struct table *t = table_new(1, &title, &kind);
	size_t i;

	for (i = list_first(&v->list); i < v->count;
	     i = list_next(&v->list, i)) {
		table_row(t);
		table_str(t, v->lines[i].text);
	}
	return t;
}

/* True when line row matches the search. */
static bool
line_matches(size_t row, void *arg)
{
	void **a = arg;
	const struct text_view *v = a[0];

	return regexec(a[1], v->lines[row].text, 0, NULL, 0) == 0;
}

bool
text_view_find(void *state, const struct app *app, const regex_t *re, int dir,
               struct view_ask *ask)
{
	struct text_view *v = state;
	void *arg[2] = {v, (void *)re};
	struct list_hit hit;

	if (!list_search(&v->list, dir, line_matches, arg, &hit))
		return false;
	ask->match = hit.nth;
	ask->matches = hit.total;
	return true;
}

size_t
text_view_filter(void *state, const struct app *app, const regex_t *re)
{
	struct text_view *v = state;

	(void)app;
	v->filter = re;
	list_filter(&v->list, re ? line_kept : NULL, v);
	return list_visible(&v->list);
}
