/*
 * list: cursor and scroll arithmetic over row indices; nothing here
 * knows what a row is.
 */
#include "config.h"

#include "tui/list.h"

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
