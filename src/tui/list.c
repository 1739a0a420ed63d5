/*
 * list: cursor and scroll arithmetic over row indices; nothing here
 * knows what a row is.
 */
#include "config.h"

#include "tui/list.h"

#include <stdint.h>

void
list_set_count(struct list *l, size_t count)
{
	l->count = count;
	if (l->cursor >= count)
		l->cursor = count ? count - 1 : 0;
	if (l->top >= count)
		l->top = count ? count - 1 : 0;
}

void
list_layout(struct list *l, size_t height)
{
	l->height = height;
	if (l->pager) {
		if (l->count <= height)
			l->top = 0;
		else if (l->top > l->count - height)
			l->top = l->count - height;
		return;
	}
	if (l->cursor < l->top)
		l->top = l->cursor;
	if (height && l->cursor >= l->top + height)
		l->top = l->cursor - height + 1;
}

void
list_select(struct list *l, size_t row)
{
	l->cursor = row < l->count ? row : l->count ? l->count - 1 : 0;
}

void
list_reset(struct list *l)
{
	l->cursor = l->top = 0;
}

size_t
list_page(const struct list *l)
{
	return l->height > 1 ? l->height - 1 : 1;
}

/* Scroll a pager by delta rows; the layout keeps the last page full. */
static void
scroll(struct list *l, long delta)
{
	if (delta < 0)
		l->top = (size_t)-delta < l->top ? l->top - (size_t)-delta : 0;
	else if (l->top + (size_t)delta < l->count)
		l->top += (size_t)delta;
}

/* Move a cursor by delta rows, stopping at the ends. */
static void
step(struct list *l, long delta)
{
	if (delta < 0)
		l->cursor = (size_t)-delta < l->cursor
		                    ? l->cursor - (size_t)-delta
		                    : 0;
	else
		list_select(l, l->cursor + (size_t)delta);
}

bool
list_move(struct list *l, enum request req)
{
	long page = (long)list_page(l), delta;

	switch (req) {
	case REQ_MOVE_UP:
		delta = -1;
		break;
	case REQ_MOVE_DOWN:
		delta = 1;
		break;
	case REQ_PAGE_UP:
		delta = -page;
		break;
	case REQ_PAGE_DOWN:
		delta = page;
		break;
	case REQ_MOVE_FIRST:
		if (l->pager)
			l->top = 0;
		else
			l->cursor = 0;
		return true;
	case REQ_MOVE_LAST:
		if (l->pager)
			l->top = l->count ? l->count - 1 : 0;
		else
			list_select(l, l->count);
		return true;
	default:
		return false;
	}
	if (l->pager)
		scroll(l, delta);
	else
		step(l, delta);
	return true;
}

bool
list_search(struct list *l, int dir, list_match_fn *match, void *arg,
            struct list_hit *hit)
{
	size_t n = l->count, i, at = 0, nth = 0, total = 0;
	bool found = false;

	for (i = 1; i <= n && !found; i++) {
		at = (l->cursor + n + (size_t)dir * i) % n;
		found = match(at, arg);
	}
	if (!found)
		return false;
	l->cursor = at;
	if (l->pager)
		l->top = at;
	if (hit) {
		for (i = 0; i < n; i++) {
			if (i == at || match(i, arg)) {
				total++;
				if (i <= at)
					nth++;
			}
		}
		hit->nth = nth;
		hit->total = total;
	}
	return true;
}

void
list_scroll(struct list *l, long delta)
{
	size_t height = l->height ? l->height : 1;
	size_t last_top = l->count > height ? l->count - height : 0;
	size_t top = l->top;

	if (delta < 0)
		top = (size_t)-delta < top ? top - (size_t)-delta : 0;
	else
		top = top + (size_t)delta < last_top ? top + (size_t)delta
		                                       : last_top;
	if (l->pager) {
		l->top = top;
		return;
	}
	if (top == l->top) {
		step(l, delta);
		return;
	}
	l->top = top;
	if (l->cursor < top)
		l->cursor = top;
	if (l->cursor >= top + height)
		l->cursor = top + height - 1;
	list_select(l, l->cursor);
}

size_t
list_row_at(const struct list *l, int y)
{
	size_t row;

	if (y < l->y || (size_t)(y - l->y) >= l->height)
		return SIZE_MAX;
	row = l->top + (size_t)(y - l->y);
	return row < l->count ? row : SIZE_MAX;
}

enum list_click
list_mouse(struct list *l, const struct mouse_event *ev)
{
	size_t row;

	if (ev->kind == MOUSE_WHEEL) {
		if (!ev->dy || !l->count)
			return LIST_MISSED;
		list_scroll(l, (long)ev->dy * MOUSE_WHEEL_ROWS);
		return LIST_MOVED;
	}
	if (l->pager || ev->button != 0 ||
	    (ev->kind != MOUSE_PRESS && ev->kind != MOUSE_DRAG))
		return LIST_MISSED;
	row = list_row_at(l, ev->y);
	if (row == SIZE_MAX)
		return LIST_MISSED;
	if (row == l->cursor)
		return ev->kind == MOUSE_PRESS ? LIST_AGAIN : LIST_MISSED;
	l->cursor = row;
	return LIST_MOVED;
}
