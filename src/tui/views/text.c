/*
 * text: scrolling keeps the last page full; a search match becomes
 * the top line and is highlighted.
 */
#include "config.h"

#include "tui/views/text.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

void
text_view_add(struct text_view *v, enum role role, const char *text)
{
	UTIL_GROW(v->lines, v->cap, v->count + 1);
	v->lines[v->count].text = xstrdup(text);
	v->lines[v->count].role = role;
	v->count++;
}

void
text_view_clear(struct text_view *v)
{
	size_t i;

	for (i = 0; i < v->count; i++)
		free(v->lines[i].text);
	v->count = v->top = v->cursor = 0;
}

void
text_view_draw(struct text_view *v, struct canvas *c, int top, int height)
{
	size_t i;
	int y;

	if (v->count > (size_t)height && v->top > v->count - (size_t)height)
		v->top = v->count - (size_t)height;
	if (v->count <= (size_t)height)
		v->top = 0;
	for (y = 0, i = v->top; y < height && i < v->count; y++, i++) {
		enum role role = v->lines[i].role;

		canvas_text(c, 1, top + y, c->width - 1, v->lines[i].text,
		            role);
		if (i == v->cursor && v->cursor)
			canvas_set_role(c, 0, top + y, c->width, ROLE_MATCH);
	}
}

enum view_result
text_view_request(struct text_view *v, struct app *app, enum request req)
{
	size_t page = app->page > 1 ? (size_t)app->page - 1 : 1;

	switch (req) {
	case REQ_MOVE_UP:
		if (v->top)
			v->top--;
		return VIEW_DONE;
	case REQ_MOVE_DOWN:
		if (v->top + 1 < v->count)
			v->top++;
		return VIEW_DONE;
	case REQ_PAGE_UP:
		v->top = v->top > page ? v->top - page : 0;
		return VIEW_DONE;
	case REQ_PAGE_DOWN:
		v->top = v->top + page < v->count ? v->top + page : v->top;
		return VIEW_DONE;
	case REQ_MOVE_FIRST:
		v->top = 0;
		return VIEW_DONE;
	case REQ_MOVE_LAST:
		v->top = v->count ? v->count - 1 : 0;
		return VIEW_DONE;
	default:
		return VIEW_UNHANDLED;
	}
}

bool
text_view_search(struct text_view *v, const regex_t *re, int dir)
{
	size_t n = v->count, i;

	for (i = 1; i <= n; i++) {
		size_t at = (v->cursor + n + (size_t)dir * i) % n;

		if (regexec(re, v->lines[at].text, 0, NULL, 0) == 0) {
			v->cursor = at;
			v->top = at;
			return true;
		}
	}
	return false;
}
